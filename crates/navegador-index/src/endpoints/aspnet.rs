//! ASP.NET Core attribute routes, from the attributes the extractor keeps on each symbol
//! (no second parse): a controller (`[ApiController]` / `[Controller]`, or a class named
//! `…Controller`) with a `[Route("api/[controller]")]` prefix, and actions marked
//! `[HttpGet("{id}")]`, `[HttpPost]`, … or `[Route("x")]` with a verb. `[controller]` is the
//! class name without `Controller`, `[action]` the method's; a template starting with `/`
//! or `~/` replaces the controller's prefix.

use navegador_model::{FileFacts, Label};

use super::util::{constant_in, join, last_segment, parse_args, Arg, Args};
use super::{EndpointFact, Handler, REST};

/// The attribute's name without its `Attribute` suffix (`[HttpGetAttribute]` is `HttpGet`).
fn attr(name: &str) -> &str {
    let n = last_segment(name);
    n.strip_suffix("Attribute").unwrap_or(n)
}

/// The route template: the first positional string or `template:` / `Template =`. A
/// constant (`[HttpGet(Routes.Item)]`) is read from the same file, else kept as `{Routes.Item}`.
fn template(args: &Args, src: &str) -> Option<String> {
    let a = args.first_or(&["template", "Template"])?;
    Some(match a {
        Arg::Str(s) => s.clone(),
        other => {
            let t = other.text();
            constant_in(src, last_segment(&t)).unwrap_or_else(|| format!("{{{t}}}"))
        }
    })
}

fn verb(name: &str) -> Option<&'static str> {
    Some(match attr(name) {
        "HttpGet" => "GET",
        "HttpPost" => "POST",
        "HttpPut" => "PUT",
        "HttpPatch" => "PATCH",
        "HttpDelete" => "DELETE",
        "HttpHead" => "HEAD",
        "HttpOptions" => "OPTIONS",
        _ => return None,
    })
}

/// `[controller]` and `[action]` tokens, and the `~/` of an absolute template.
fn fill(t: &str, controller: &str, action: &str) -> String {
    t.replace("[controller]", controller).replace("[action]", action).trim_start_matches('~').to_string()
}

pub(super) fn detect(src: &str, facts: &FileFacts) -> Vec<EndpointFact> {
    let mut out = Vec::new();
    for (ci, class) in facts.symbols.iter().enumerate() {
        if class.label != Label::Class {
            continue;
        }
        let marked = class.decorators.iter().any(|(n, _, _)| matches!(attr(n), "ApiController" | "Controller"));
        if !marked && !class.name.ends_with("Controller") {
            continue;
        }
        let controller = class.name.strip_suffix("Controller").unwrap_or(&class.name);
        let prefixes: Vec<String> = class
            .decorators
            .iter()
            .filter(|(n, _, _)| attr(n) == "Route")
            .filter_map(|(_, a, _)| template(&parse_args(a.as_deref().unwrap_or("")), src))
            .collect();
        let prefixes = if prefixes.is_empty() { vec![String::new()] } else { prefixes };
        for (mi, m) in facts.symbols.iter().enumerate() {
            if m.parent != Some(ci as u32) || m.label != Label::Method {
                continue;
            }
            // the action's own `[Route]` templates, combined with its verbs
            let routes: Vec<(String, u32)> = m
                .decorators
                .iter()
                .filter(|(n, _, _)| attr(n) == "Route")
                .filter_map(|(_, a, line)| Some((template(&parse_args(a.as_deref().unwrap_or("")), src)?, *line)))
                .collect();
            let verbs: Vec<(&str, Option<String>, u32)> = m
                .decorators
                .iter()
                .filter_map(|(n, a, line)| Some((verb(n)?, template(&parse_args(a.as_deref().unwrap_or("")), src), *line)))
                .collect();
            let mut emit = |method: Option<&str>, t: Option<&str>, line: u32| {
                for prefix in &prefixes {
                    let t = t.map(|t| fill(t, controller, &m.name));
                    let path = match t.as_deref() {
                        Some(t) if t.starts_with('/') => join("", t),
                        Some(t) => join(&fill(prefix, controller, &m.name), t),
                        None => join(&fill(prefix, controller, &m.name), ""),
                    };
                    out.push(EndpointFact {
                        router: None,
                        name: m.name.clone(),
                        kind: REST,
                        method: method.map(str::to_string),
                        path: Some(path),
                        framework: "aspnet",
                        line,
                        handler: Handler::Symbol(mi as u32),
                    });
                }
            };
            for (method, t, line) in &verbs {
                match t {
                    Some(t) => emit(Some(method), Some(t), *line),
                    None if routes.is_empty() => emit(Some(method), None, *line),
                    None => {
                        for (r, _) in &routes {
                            emit(Some(method), Some(r), *line);
                        }
                    }
                }
            }
            if verbs.is_empty() {
                // `[Route("x")]` without a verb answers every method
                for (r, line) in &routes {
                    emit(None, Some(r), *line);
                }
            }
        }
    }
    out
}
