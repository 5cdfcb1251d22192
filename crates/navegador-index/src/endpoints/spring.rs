//! Spring MVC / Spring for GraphQL, from the annotations the extractor already keeps on
//! each symbol: no second parse.

use navegador_model::{FileFacts, Label};

use super::clients::{normalize_template, split_origin, ClientCall};
use super::util::{constant_in, join, last_segment, parse_args, Arg, Args};
use super::{Detected, EndpointFact, Handler, GRAPHQL, REST};

/// `value`, `path` or the first positional argument; no argument is the empty path. A
/// constant (`@GetMapping(Paths.USERS)`) is read from a `USERS = "..."` of the same file;
/// one that is not there is kept as `{Paths.USERS}` rather than dropped.
fn paths(args: &Args, src: &str) -> Vec<String> {
    let Some(a) = args.first_or(&["value", "path"]) else { return vec![String::new()] };
    let v: Vec<String> = a
        .items()
        .iter()
        .map(|i| match i {
            Arg::Str(s) => s.clone(),
            other => {
                let t = other.text();
                constant_in(src, last_segment(&t)).unwrap_or_else(|| format!("{{{t}}}"))
            }
        })
        .collect();
    if v.is_empty() {
        vec![String::new()]
    } else {
        v
    }
}

/// A mapping annotation's endpoint kind and HTTP methods (`None`: any method).
fn mapping(name: &str, args: &Args) -> Option<(&'static str, Vec<Option<String>>)> {
    Some(match last_segment(name) {
        "GetMapping" => (REST, vec![Some("GET".into())]),
        "PostMapping" => (REST, vec![Some("POST".into())]),
        "PutMapping" => (REST, vec![Some("PUT".into())]),
        "PatchMapping" => (REST, vec![Some("PATCH".into())]),
        "DeleteMapping" => (REST, vec![Some("DELETE".into())]),
        "RequestMapping" => {
            let ms: Vec<Option<String>> = args
                .get("method")
                .map(|a| a.items().iter().map(|i| Some(last_segment(&i.text()).to_uppercase())).collect())
                .unwrap_or_default();
            (REST, if ms.is_empty() { vec![None] } else { ms })
        }
        "QueryMapping" | "MutationMapping" | "SubscriptionMapping" | "SchemaMapping" => (GRAPHQL, vec![None]),
        _ => return None,
    })
}

/// Spring's endpoints (controllers) and client calls (Feign interfaces) of one file.
pub(super) fn detect_all(src: &str, facts: &FileFacts) -> Detected {
    Detected { endpoints: detect(src, facts), clients: feign(src, facts), ..Default::default() }
}

/// OpenFeign clients: an `@FeignClient` interface's mapped methods are client calls of the
/// service, each at its method (the caller: whoever calls the method calls the service).
/// The path is the client's `path` + the interface's `@RequestMapping` + the method's own;
/// `url = "http://host/api"` gives a base, a `${property}` leaves it unknown (a suffix match).
fn feign(src: &str, facts: &FileFacts) -> Vec<ClientCall> {
    let mut out = Vec::new();
    for (ci, client) in facts.symbols.iter().enumerate() {
        let Some((_, cargs, _)) = client.decorators.iter().find(|(n, _, _)| last_segment(n) == "FeignClient") else { continue };
        let cargs = parse_args(cargs.as_deref().unwrap_or(""));
        let own = |key: &str| match cargs.get(key) {
            Some(Arg::Str(s)) => Some(s.clone()),
            _ => None,
        };
        let (base, base_expr) = match own("url") {
            Some(u) if u.contains("${") => (None, Some(u)),
            Some(u) => (Some(split_origin(&u).1), None),
            None => (None, None),
        };
        let mut prefix = own("path").unwrap_or_default();
        if let Some((_, a, _)) = client.decorators.iter().find(|(n, _, _)| last_segment(n) == "RequestMapping") {
            prefix = join(&prefix, paths(&parse_args(a.as_deref().unwrap_or("")), src).first().map_or("", String::as_str));
        }
        for m in facts.symbols.iter().filter(|m| m.parent == Some(ci as u32) && m.label == Label::Method) {
            for (dname, dargs, line) in &m.decorators {
                let args = parse_args(dargs.as_deref().unwrap_or(""));
                let Some((REST, methods)) = mapping(dname, &args) else { continue };
                for p in paths(&args, src) {
                    for method in &methods {
                        out.push(ClientCall {
                            library: "feign".into(),
                            method: method.clone(),
                            url: Some(normalize_template(&join(&prefix, &p))),
                            base: base.clone(),
                            base_expr: base_expr.clone(),
                            line: *line,
                            column: 0,
                            caller: Some((m.qualified_name.clone(), m.range.start_line)),
                            graphql: false,
                            document: None,
                        });
                    }
                }
            }
        }
    }
    out
}

pub(super) fn detect(src: &str, facts: &FileFacts) -> Vec<EndpointFact> {
    let mut out = Vec::new();
    for (ci, class) in facts.symbols.iter().enumerate() {
        if class.label != Label::Class || !class.decorators.iter().any(|(n, _, _)| matches!(last_segment(n), "RestController" | "Controller")) {
            continue;
        }
        let bases: Vec<String> = class
            .decorators
            .iter()
            .find(|(n, _, _)| last_segment(n) == "RequestMapping")
            .map(|(_, a, _)| paths(&parse_args(a.as_deref().unwrap_or("")), src))
            .unwrap_or_else(|| vec![String::new()]);
        for (mi, m) in facts.symbols.iter().enumerate() {
            if m.parent != Some(ci as u32) || m.label != Label::Method {
                continue;
            }
            for (dname, dargs, line) in &m.decorators {
                let args = parse_args(dargs.as_deref().unwrap_or(""));
                let Some((kind, methods)) = mapping(dname, &args) else { continue };
                let mk = |method: Option<String>, path: Option<String>| EndpointFact {
                    router: None,
                    name: m.name.clone(),
                    kind,
                    method,
                    path,
                    framework: "spring",
                    line: *line,
                    handler: Handler::Symbol(mi as u32),
                };
                if kind == GRAPHQL {
                    // a resolver: the schema's field's endpoint, or its own (`operations.rs`)
                    continue;
                }
                for base in &bases {
                    for p in paths(&args, src) {
                        for method in &methods {
                            out.push(mk(method.clone(), Some(join(base, &p))));
                        }
                    }
                }
            }
        }
    }
    out
}
