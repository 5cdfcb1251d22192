//! FastAPI and Flask: route decorators on functions, with the prefixes of `APIRouter(prefix=)`,
//! `Blueprint(url_prefix=)`, `include_router(..., prefix=)` and
//! `register_blueprint(..., url_prefix=)` of the same file.

use std::collections::HashMap;

use navegador_lang::tree_sitter::Node;
use navegador_model::{FileFacts, Label};

use super::util::{descendants, join, last_segment, line_of, parse_args, text, Arg};
use super::{Detected, EndpointFact, Handler, MountFact, REST};

const VERBS: [&str; 8] = ["get", "post", "put", "patch", "delete", "head", "options", "trace"];

fn framework_of(facts: &FileFacts) -> Option<&'static str> {
    let has = |m: &str| facts.imports.iter().any(|i| i.module == m || i.module.starts_with(&format!("{m}.")));
    if has("fastapi") {
        Some("fastapi")
    } else if has("flask") {
        Some("flask")
    } else {
        None
    }
}

/// Receivers defined in the file: variable -> (framework, own prefix), the applications
/// among them, the prefixes others of the file mount them under, and the mounts of values
/// the file does not define (an imported router: resolved across files, `mounts`).
struct Receivers {
    own: HashMap<String, (&'static str, String)>,
    apps: Vec<String>,
    mounted: HashMap<String, (String, String)>,
    outside: Vec<(String, String, Option<Arg>, bool, u32)>,
}

impl Receivers {
    fn read(root: Node, src: &str) -> Receivers {
        let mut r = Receivers { own: HashMap::new(), apps: Vec::new(), mounted: HashMap::new(), outside: Vec::new() };
        let mut calls = Vec::new();
        for call in descendants(root, "call") {
            let Some(f) = call.child_by_field_name("function") else {
                continue;
            };
            let fname = text(f, src);
            let args = call.child_by_field_name("arguments").map(|a| parse_args(text(a, src))).unwrap_or_default();
            let ctor = match last_segment(fname) {
                "FastAPI" | "APIRouter" => Some("fastapi"),
                "Flask" | "Blueprint" => Some("flask"),
                _ => None,
            };
            if let Some(fw) = ctor {
                let Some(assign) = call.parent().filter(|p| p.kind() == "assignment") else {
                    continue;
                };
                let Some(left) = assign.child_by_field_name("left") else {
                    continue;
                };
                let prefix = args.get("prefix").or(args.get("url_prefix")).map(Arg::text).unwrap_or_default();
                let var = text(left, src).to_string();
                if matches!(last_segment(fname), "FastAPI" | "Flask") {
                    r.apps.push(var.clone());
                }
                r.own.insert(var, (fw, prefix));
                continue;
            }
            let (Some(obj), meth) = (fname.rsplit_once('.').map(|(o, _)| o), last_segment(fname)) else {
                continue;
            };
            if matches!(meth, "include_router" | "register_blueprint") {
                let Some(Arg::Other(child)) = args.positional.first() else {
                    continue;
                };
                let prefix = args.get("prefix").or(args.get("url_prefix")).cloned();
                calls.push((obj.to_string(), child.clone(), prefix, meth == "register_blueprint", line_of(call)));
            }
        }
        for (obj, child, prefix, flask, line) in calls {
            if r.own.contains_key(&child) {
                r.mounted.entry(child).or_insert((obj, prefix.as_ref().map(Arg::text).unwrap_or_default()));
            } else {
                r.outside.push((obj, child, prefix, flask, line));
            }
        }
        r
    }

    /// The full prefix of a receiver (mount prefixes of the same file included).
    fn prefix(&self, var: &str) -> String {
        let mut parts = Vec::new();
        let mut cur = var.to_string();
        for _ in 0..8 {
            // The router's own prefix, then the one it is mounted under: FastAPI applies
            // both; Flask's `register_blueprint(url_prefix=)` replaces the blueprint's own.
            let own = self.own.get(&cur);
            let replaced = own.is_some_and(|(fw, _)| *fw == "flask") && self.mounted.get(&cur).is_some_and(|(_, p)| !p.is_empty());
            if !replaced {
                parts.push(own.map(|(_, p)| p.clone()).unwrap_or_default());
            }
            match self.mounted.get(&cur) {
                Some((parent, p)) => {
                    parts.push(p.clone());
                    cur = parent.clone();
                }
                None => break,
            }
        }
        parts.reverse();
        parts.iter().fold(String::from("/"), |acc, p| join(&acc, p))
    }

    /// The root of a receiver's chain of mounts in this file (a value another file may
    /// mount: a router, a blueprint, an imported one), with its own prefix; `None` for an
    /// application.
    fn root(&self, var: &str) -> Option<String> {
        let mut cur = var;
        for _ in 0..8 {
            match self.mounted.get(cur) {
                Some((parent, _)) => cur = parent,
                None => break,
            }
        }
        (!self.apps.iter().any(|a| a == cur)).then(|| cur.to_string())
    }

    fn own_prefix(&self, var: &str) -> String {
        self.own.get(var).map(|(_, p)| p.clone()).unwrap_or_default()
    }

    /// The mounts of values defined elsewhere, as mount facts.
    fn mounts(&self) -> Vec<MountFact> {
        self.outside
            .iter()
            .map(|(obj, child, prefix, flask, line)| {
                let (lit, expr) = match prefix {
                    Some(Arg::Str(s)) => (s.clone(), None),
                    Some(Arg::Other(e)) => (String::new(), Some(e.clone())),
                    _ => (String::new(), None),
                };
                MountFact {
                    parent: self.root(obj),
                    child: child.clone(),
                    arg: None,
                    prefix: join(&self.prefix(obj), &lit),
                    replaces: *flask && (!lit.is_empty() || expr.is_some()),
                    prefix_expr: expr,
                    line: *line,
                }
            })
            .collect()
    }
}

pub(super) fn detect(src: &str, facts: &FileFacts) -> Detected {
    let imported = |n: &str| facts.imports.iter().any(|i| i.alias.as_deref().or(i.name.as_deref()) == Some(n));
    let is_route = |n: &str| {
        let m = last_segment(n);
        n.contains('.') && (VERBS.contains(&m) || m == "route" || m == "api_route")
    };
    let routes = facts.symbols.iter().any(|s| s.decorators.iter().any(|(n, _, _)| is_route(n)));
    let mounts = src.contains("include_router(") || src.contains("register_blueprint(");
    // A module of routes on an imported blueprint need not import flask itself
    // (`from app.api import bp` + `@bp.route('/tokens')`).
    let default_fw = match framework_of(facts) {
        Some(fw) => fw,
        None if routes || mounts => "flask",
        None => return Detected::default(),
    };
    if !routes && !mounts {
        return Detected::default();
    }
    let receivers = match navegador_lang::parse(facts.language, src) {
        Some(tree) => Receivers::read(tree.root_node(), src),
        None => return Detected::default(),
    };
    let mut out = Vec::new();
    for (si, s) in facts.symbols.iter().enumerate() {
        if !matches!(s.label, Label::Function | Label::Method) {
            continue;
        }
        for (dname, dargs, line) in &s.decorators {
            if !is_route(dname) {
                continue;
            }
            let (recv, verb) = dname.rsplit_once('.').unwrap_or(("", dname));
            let args = parse_args(dargs.as_deref().unwrap_or(""));
            let Some(path) = args.first_or(&["path", "rule"]).and_then(|a| if let Arg::Str(s) = a { Some(s.clone()) } else { None }) else {
                continue;
            };
            let known = receivers.own.get(recv);
            if known.is_none() && !path.starts_with('/') {
                continue;
            }
            if known.is_none() && framework_of(facts).is_none() && !(imported(recv) && verb == "route") {
                continue;
            }
            let framework = known.map_or(default_fw, |(fw, _)| *fw);
            let methods: Vec<Option<String>> = if VERBS.contains(&verb) {
                vec![Some(verb.to_uppercase())]
            } else {
                let ms: Vec<Option<String>> =
                    args.get("methods").map(|a| a.strings().into_iter().map(|m| Some(m.to_uppercase())).collect()).unwrap_or_default();
                match (ms.is_empty(), verb, framework) {
                    (false, _, _) => ms,
                    (true, "route", "flask") => vec![Some("GET".into())],
                    _ => vec![None],
                }
            };
            let full = join(&receivers.prefix(recv), &path);
            for m in methods {
                let root = receivers.root(recv);
                out.push(EndpointFact {
                    router: root.as_ref().map(|r| (r.clone(), receivers.own_prefix(r))),
                    name: s.name.clone(),
                    kind: REST,
                    method: m,
                    path: Some(full.clone()),
                    framework,
                    line: *line,
                    handler: Handler::Symbol(si as u32),
                });
            }
        }
    }
    Detected { endpoints: out, mounts: receivers.mounts(), ..Default::default() }
}
