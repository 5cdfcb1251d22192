//! Express (`app.get('/p', h)`, `router.route('/p').get(h)`, `app.use('/prefix', router)`)
//! and NestJS (`@Controller('base')` classes with `@Get(':id')` methods; `@Resolver`
//! classes with `@Query`/`@Mutation`/`@Subscription` methods for GraphQL).

use std::collections::HashMap;

use navegador_lang::tree_sitter::Node;
use navegador_model::{FileFacts, Label, Language};

use super::util::{col_of, descendants, join, last_segment, line_of, named_children, parse_args, text, unquote, Arg};
use super::{EndpointFact, Handler, GRAPHQL, REST};

const VERBS: [&str; 9] = ["get", "post", "put", "patch", "delete", "head", "options", "all", "trace"];

pub(super) fn detect_nest(facts: &FileFacts) -> Vec<EndpointFact> {
    if !facts.imports.iter().any(|i| i.module.starts_with("@nestjs/")) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (ci, class) in facts.symbols.iter().enumerate() {
        if class.label != Label::Class {
            continue;
        }
        let controller = class.decorators.iter().find(|(n, _, _)| last_segment(n) == "Controller");
        let resolver = class.decorators.iter().any(|(n, _, _)| last_segment(n) == "Resolver");
        if controller.is_none() && !resolver {
            continue;
        }
        let bases: Vec<String> = controller
            .and_then(|(_, a, _)| parse_args(a.as_deref().unwrap_or("")).first_or(&["path"]).map(Arg::strings))
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| vec![String::new()]);
        for (mi, m) in facts.symbols.iter().enumerate() {
            if m.parent != Some(ci as u32) || m.label != Label::Method {
                continue;
            }
            for (dname, dargs, line) in &m.decorators {
                let d = last_segment(dname);
                let mk = |kind, method: Option<String>, path: Option<String>| EndpointFact {
                    name: m.name.clone(),
                    kind,
                    method,
                    path,
                    framework: "nestjs",
                    line: *line,
                    handler: Handler::Symbol(mi as u32),
                };
                if resolver && matches!(d, "Query" | "Mutation" | "Subscription") {
                    out.push(mk(GRAPHQL, None, None));
                    continue;
                }
                if controller.is_none() {
                    continue;
                }
                let method = match d {
                    "Get" | "Post" | "Put" | "Patch" | "Delete" | "Head" | "Options" => Some(d.to_uppercase()),
                    "All" => None,
                    _ => continue,
                };
                let args = parse_args(dargs.as_deref().unwrap_or(""));
                let mut paths = args.first_or(&["path"]).map(Arg::strings).unwrap_or_default();
                if paths.is_empty() {
                    paths.push(String::new());
                }
                for b in &bases {
                    for p in &paths {
                        out.push(mk(REST, method.clone(), Some(join(b, p))));
                    }
                }
            }
        }
    }
    out
}

fn string_value(n: Node, src: &str) -> Option<String> {
    match n.kind() {
        "string" | "template_string" => unquote(text(n, src)),
        _ => None,
    }
}

/// The name a handler argument gives the endpoint, and how to find it.
fn handler_of(n: Node, src: &str) -> (Option<String>, Handler) {
    match n.kind() {
        "identifier" | "member_expression" => {
            let t = text(n, src).replace(char::is_whitespace, "");
            let name = last_segment(&t).to_string();
            (Some(name), Handler::Expr { text: t, line: line_of(n), column: col_of(n) })
        }
        _ => (None, Handler::None),
    }
}

pub(super) fn detect_express(lang: Language, src: &str, facts: &FileFacts) -> Vec<EndpointFact> {
    let imports_express = facts.imports.iter().any(|i| i.module == "express" || i.module.starts_with("express/"));
    if !imports_express && !src.contains("require('express')") && !src.contains("require(\"express\")") {
        return Vec::new();
    }
    let Some(tree) = navegador_lang::parse(lang, src) else { return Vec::new() };
    let calls = descendants(tree.root_node(), "call_expression");
    // `X.use('/prefix', Y)`: Y is mounted under X.
    let mut mounted: HashMap<String, (String, String)> = HashMap::new();
    for c in &calls {
        let Some(f) = c.child_by_field_name("function").filter(|f| f.kind() == "member_expression") else { continue };
        let (Some(obj), Some(prop)) = (f.child_by_field_name("object"), f.child_by_field_name("property")) else { continue };
        if text(prop, src) != "use" || obj.kind() != "identifier" {
            continue;
        }
        let args = c.child_by_field_name("arguments").map(named_children).unwrap_or_default();
        if let (Some(p), Some(r)) = (args.first().and_then(|a| string_value(*a, src)), args.get(1).filter(|a| a.kind() == "identifier")) {
            mounted.entry(text(*r, src).to_string()).or_insert((text(obj, src).to_string(), p));
        }
    }
    let prefix_of = |var: &str| {
        let mut parts = Vec::new();
        let mut cur = var.to_string();
        for _ in 0..8 {
            match mounted.get(&cur) {
                Some((parent, p)) => {
                    parts.push(p.clone());
                    cur = parent.clone();
                }
                None => break,
            }
        }
        parts.reverse();
        parts.iter().fold(String::from("/"), |acc, p| join(&acc, p))
    };
    let mut out = Vec::new();
    for c in &calls {
        let Some(f) = c.child_by_field_name("function").filter(|f| f.kind() == "member_expression") else { continue };
        let (Some(obj), Some(prop)) = (f.child_by_field_name("object"), f.child_by_field_name("property")) else { continue };
        let verb = text(prop, src);
        if !VERBS.contains(&verb) {
            continue;
        }
        let args = c.child_by_field_name("arguments").map(named_children).unwrap_or_default();
        // `X.route('/p').get(h).post(h2)`: walk down the chain to the `route` call.
        let (recv, path, handler_args): (String, String, &[Node]) = if obj.kind() == "call_expression" {
            let mut cur = obj;
            let mut found = None;
            for _ in 0..16 {
                let Some(cf) = cur.child_by_field_name("function").filter(|f| f.kind() == "member_expression") else { break };
                let (Some(o), Some(p)) = (cf.child_by_field_name("object"), cf.child_by_field_name("property")) else { break };
                if text(p, src) == "route" {
                    let ra = cur.child_by_field_name("arguments").map(named_children).unwrap_or_default();
                    if let (Some(path), "identifier") = (ra.first().and_then(|a| string_value(*a, src)), o.kind()) {
                        found = Some((text(o, src).to_string(), path));
                    }
                    break;
                }
                if o.kind() != "call_expression" {
                    break;
                }
                cur = o;
            }
            let Some((r, p)) = found else { continue };
            (r, p, &args[..])
        } else {
            if obj.kind() != "identifier" && obj.kind() != "member_expression" || args.len() < 2 {
                continue;
            }
            let Some(p) = string_value(args[0], src) else { continue };
            (text(obj, src).to_string(), p, &args[1..])
        };
        if !(path.starts_with('/') || path == "*") || handler_args.is_empty() {
            continue;
        }
        let method = if verb == "all" { None } else { Some(verb.to_uppercase()) };
        let full = join(&prefix_of(&recv), &path);
        let (name, handler) = handler_of(*handler_args.last().unwrap(), src);
        out.push(EndpointFact {
            name: name.unwrap_or_else(|| format!("{} {}", method.as_deref().unwrap_or("ALL"), full)),
            kind: REST,
            method,
            path: Some(full),
            framework: "express",
            line: line_of(*c),
            handler,
        });
    }
    out
}
