//! Express (`app.get('/p', h)`, `router.route('/p').get(h)`, `app.use('/prefix', router)`)
//! and NestJS (`@Controller('base')` classes with `@Get(':id')` methods; a `@Resolver` class's
//! `@Query`/`@Mutation`/`@Subscription` methods are GraphQL resolvers, `operations.rs`).

use std::collections::HashMap;

use navegador_lang::tree_sitter::Node;
use navegador_model::{FileFacts, Label, Language};

use super::util::{col_of, descendants, join, last_segment, line_of, named_children, parse_args, text, unquote, Arg};
use super::{Detected, EndpointFact, Handler, MountFact, REST};

const VERBS: [&str; 9] = ["get", "post", "put", "patch", "delete", "head", "options", "all", "trace"];

/// The workspace-wide router key of NestJS controllers: `app.setGlobalPrefix('api')` in
/// the bootstrap file mounts every one.
const NEST_GLOBAL: &str = "@nestjs";

pub(super) fn detect_nest(src: &str, facts: &FileFacts) -> Detected {
    if !facts.imports.iter().any(|i| i.module.starts_with("@nestjs/")) {
        return Detected::default();
    }
    let mut mounts = Vec::new();
    if let Some(at) = src.find(".setGlobalPrefix(") {
        let rest = &src[at + ".setGlobalPrefix(".len()..];
        let args = parse_args(&format!("({})", &rest[..rest.find(')').unwrap_or(rest.len())]));
        if let Some(p) = args.positional.first().and_then(|a| if let Arg::Str(s) = a { Some(s.clone()) } else { None }) {
            let line = src[..at].matches('\n').count() as u32 + 1;
            mounts.push(MountFact {
                parent: None,
                child: NEST_GLOBAL.into(),
                arg: None,
                prefix: join("/", &p),
                prefix_expr: None,
                replaces: false,
                line,
            });
        }
    }
    let mut out = Vec::new();
    for (ci, class) in facts.symbols.iter().enumerate() {
        if class.label != Label::Class {
            continue;
        }
        let controller = class.decorators.iter().find(|(n, _, _)| last_segment(n) == "Controller");
        // a `@Resolver()` class's `@Query()` methods are GraphQL resolvers (`operations.rs`)
        if controller.is_none() {
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
                let mk = |method: Option<String>, path: Option<String>| EndpointFact {
                    router: Some((NEST_GLOBAL.to_string(), String::new())),
                    name: m.name.clone(),
                    kind: REST,
                    method,
                    path,
                    framework: "nestjs",
                    line: *line,
                    handler: Handler::Symbol(mi as u32),
                };
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
                        out.push(mk(method.clone(), Some(join(b, p))));
                    }
                }
            }
        }
    }
    Detected { endpoints: out, mounts, ..Default::default() }
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

pub(super) fn detect_express(lang: Language, src: &str, facts: &FileFacts) -> Detected {
    let imports_express = facts.imports.iter().any(|i| i.module == "express" || i.module.starts_with("express/"));
    if !imports_express && !src.contains("require('express')") && !src.contains("require(\"express\")") {
        return Detected::default();
    }
    let Some(tree) = navegador_lang::parse(lang, src) else {
        return Detected::default();
    };
    let calls = descendants(tree.root_node(), "call_expression");
    // Values the file makes: applications (`express()`) and routers (`express.Router()`).
    let mut apps: Vec<String> = Vec::new();
    let mut routers: Vec<String> = Vec::new();
    for d in descendants(tree.root_node(), "variable_declarator") {
        let (Some(n), Some(v)) = (d.child_by_field_name("name"), d.child_by_field_name("value")) else {
            continue;
        };
        if n.kind() != "identifier" || v.kind() != "call_expression" {
            continue;
        }
        let callee = v.child_by_field_name("function").map(|f| text(f, src).replace(char::is_whitespace, "")).unwrap_or_default();
        if callee == "express" || callee.ends_with("require('express')") || callee.ends_with("require(\"express\")") {
            apps.push(text(n, src).to_string());
        } else if last_segment(&callee) == "Router" {
            routers.push(text(n, src).to_string());
        }
    }
    // `X.use('/prefix', Y)`: Y is mounted under X; a Y the file does not make (imported, a
    // `require('./api')`) is a mount fact for the mount graph.
    let mut mounted: HashMap<String, (String, String)> = HashMap::new();
    let mut outside: Vec<(String, String, String, u32)> = Vec::new();
    for c in &calls {
        let Some(f) = c.child_by_field_name("function").filter(|f| f.kind() == "member_expression") else {
            continue;
        };
        let (Some(obj), Some(prop)) = (f.child_by_field_name("object"), f.child_by_field_name("property")) else {
            continue;
        };
        if text(prop, src) != "use" || obj.kind() != "identifier" {
            continue;
        }
        let args = c.child_by_field_name("arguments").map(named_children).unwrap_or_default();
        let (prefix, rest) = match args.first().and_then(|a| string_value(*a, src)) {
            Some(p) => (p, &args[1.min(args.len())..]),
            None => (String::new(), &args[..]),
        };
        let Some(last) = rest.last() else { continue };
        let parent = text(obj, src).to_string();
        match last.kind() {
            "identifier" if routers.iter().any(|r| r == text(*last, src)) => {
                mounted.entry(text(*last, src).to_string()).or_insert((parent, prefix));
            }
            "identifier" if facts.imports.iter().any(|i| i.alias.as_deref().or(i.name.as_deref()) == Some(text(*last, src))) => {
                outside.push((parent, text(*last, src).to_string(), prefix, line_of(*c)));
            }
            "call_expression" => {
                let callee = last.child_by_field_name("function").map(|f| text(f, src)).unwrap_or_default();
                let a = last.child_by_field_name("arguments").map(named_children).unwrap_or_default();
                if callee == "require" {
                    if let Some(m) = a.first().and_then(|a| string_value(*a, src)) {
                        outside.push((parent, format!("require('{m}')"), prefix, line_of(*c)));
                    }
                }
            }
            _ => {}
        }
    }
    let chain = |var: &str| {
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
        (parts.iter().fold(String::from("/"), |acc, p| join(&acc, p)), cur)
    };
    let prefix_of = |var: &str| chain(var).0;
    // The root another file may mount: not an application of this file.
    let root_of = |var: &str| {
        let r = chain(var).1;
        (!apps.contains(&r)).then_some(r)
    };
    let mounts: Vec<MountFact> = outside
        .iter()
        .map(|(parent, child, prefix, line)| MountFact {
            parent: root_of(parent),
            child: child.clone(),
            arg: None,
            prefix: join(&prefix_of(parent), prefix),
            prefix_expr: None,
            replaces: false,
            line: *line,
        })
        .collect();
    // `module.exports = router`, `export default router`.
    let mut exports = Vec::new();
    for a in descendants(tree.root_node(), "assignment_expression") {
        let (Some(l), Some(r)) = (a.child_by_field_name("left"), a.child_by_field_name("right")) else {
            continue;
        };
        if text(l, src).replace(char::is_whitespace, "") == "module.exports" && r.kind() == "identifier" {
            exports.push(("default".to_string(), text(r, src).to_string()));
        }
    }
    for e in descendants(tree.root_node(), "export_statement") {
        if let Some(v) = e.child_by_field_name("value").filter(|v| v.kind() == "identifier") {
            exports.push(("default".to_string(), text(v, src).to_string()));
        }
    }
    let mut out = Vec::new();
    for c in &calls {
        let Some(f) = c.child_by_field_name("function").filter(|f| f.kind() == "member_expression") else {
            continue;
        };
        let (Some(obj), Some(prop)) = (f.child_by_field_name("object"), f.child_by_field_name("property")) else {
            continue;
        };
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
                let Some(cf) = cur.child_by_field_name("function").filter(|f| f.kind() == "member_expression") else {
                    break;
                };
                let (Some(o), Some(p)) = (cf.child_by_field_name("object"), cf.child_by_field_name("property")) else {
                    break;
                };
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
            let Some(p) = string_value(args[0], src) else {
                continue;
            };
            (text(obj, src).to_string(), p, &args[1..])
        };
        if !(path.starts_with('/') || path == "*") || handler_args.is_empty() {
            continue;
        }
        let method = if verb == "all" { None } else { Some(verb.to_uppercase()) };
        let full = join(&prefix_of(&recv), &path);
        let (name, handler) = handler_of(*handler_args.last().unwrap(), src);
        out.push(EndpointFact {
            router: root_of(&recv).map(|r| (r, String::new())),
            name: name.unwrap_or_else(|| format!("{} {}", method.as_deref().unwrap_or("ALL"), full)),
            kind: REST,
            method,
            path: Some(full),
            framework: "express",
            line: line_of(*c),
            handler,
        });
    }
    Detected { endpoints: out, mounts, exports, ..Default::default() }
}
