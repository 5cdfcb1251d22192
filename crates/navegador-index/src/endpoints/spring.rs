//! Spring MVC / Spring for GraphQL, from the annotations the extractor already keeps on
//! each symbol: no second parse.

use navegador_model::{FileFacts, Label};

use super::util::{constant_in, join, last_segment, parse_args, Arg, Args};
use super::{EndpointFact, Handler, GRAPHQL, REST};

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
                let (kind, methods): (&str, Vec<Option<String>>) = match last_segment(dname) {
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
                    _ => continue,
                };
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
                    out.push(mk(None, None));
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
