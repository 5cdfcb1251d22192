//! Rails routes (`config/routes.rb`): `get 'users/:id', to: 'users#show'`, `post 'login'
//! => 'sessions#create'`, `match 'x', via: [:get, :post]`, `root 'home#index'`,
//! `resources :photos` (the seven actions; `only:` / `except:`), `resource :profile`
//! (singular: six, no index), nested under `namespace :admin`, `scope 'api'` and the
//! member paths of enclosing `resources` (`/photos/:photo_id/comments`). The handler is
//! named `UsersController.show`; Rails finds it by convention, in another file.

use navegador_lang::tree_sitter::Node;
use navegador_model::{FileFacts, Language};

use super::util::{col_of, join, line_of, named_children, text, unquote};
use super::{EndpointFact, Handler, REST};

const VERBS: [&str; 6] = ["get", "post", "put", "patch", "delete", "options"];

/// (action, method, path under the resource, singular resource has it)
const ACTIONS: [(&str, &str, &str, bool); 8] = [
    ("index", "GET", "", false),
    ("create", "POST", "", true),
    ("new", "GET", "new", true),
    ("edit", "GET", ":id/edit", true),
    ("show", "GET", ":id", true),
    ("update", "PATCH", ":id", true),
    ("update", "PUT", ":id", true),
    ("destroy", "DELETE", ":id", true),
];

pub(super) fn detect(lang: Language, path: &str, src: &str, _facts: &FileFacts) -> Vec<EndpointFact> {
    if !(path == "config/routes.rb" || path.ends_with("/config/routes.rb") || src.contains("routes.draw")) {
        return Vec::new();
    }
    let Some(tree) = navegador_lang::parse(lang, src) else { return Vec::new() };
    let mut out = Vec::new();
    walk(tree.root_node(), src, &Scope::default(), &mut out);
    out
}

#[derive(Default, Clone)]
struct Scope {
    path: String,
    /// `namespace :admin`: controllers are `Admin::…`
    module: Vec<String>,
}

fn walk(n: Node, src: &str, scope: &Scope, out: &mut Vec<EndpointFact>) {
    for c in named_children(n) {
        if c.kind() != "call" || c.child_by_field_name("receiver").is_some() {
            // `Rails.application.routes.draw do … end` and any other block: look inside
            for b in named_children(c).into_iter().filter(|b| matches!(b.kind(), "do_block" | "block" | "body_statement" | "block_body")) {
                walk(b, src, scope, out);
            }
            if matches!(c.kind(), "body_statement" | "block_body" | "do_block" | "block") {
                walk(c, src, scope, out);
            }
            continue;
        }
        let method = c.child_by_field_name("method").map(|m| text(m, src)).unwrap_or("");
        let args: Vec<Node> = c.child_by_field_name("arguments").map(named_children).unwrap_or_default();
        let block = c.child_by_field_name("block");
        let first = args.first().and_then(|a| value(*a, src));
        match method {
            "namespace" => {
                let Some(name) = first else { continue };
                let mut inner = scope.clone();
                inner.path = join(&scope.path, &name);
                inner.module.push(camel(&name));
                if let Some(b) = block {
                    walk(b, src, &inner, out);
                }
            }
            "scope" => {
                let mut inner = scope.clone();
                inner.path = join(&scope.path, &first.or_else(|| option(&args, "path", src)).unwrap_or_default());
                if let Some(m) = option(&args, "module", src) {
                    inner.module.push(camel(&m));
                }
                if let Some(b) = block {
                    walk(b, src, &inner, out);
                }
            }
            "resources" | "resource" => {
                let singular = method == "resource";
                for name in args.iter().filter_map(|a| (a.kind() == "simple_symbol").then(|| value(*a, src)).flatten()) {
                    let base = join(&scope.path, &option(&args, "path", src).unwrap_or_else(|| name.clone()));
                    let only = list(&args, "only", src);
                    let except = list(&args, "except", src).unwrap_or_default();
                    let controller = controller_class(scope, &option(&args, "controller", src).unwrap_or_else(|| if singular { format!("{name}s") } else { name.clone() }));
                    for (action, verb, sub, in_singular) in ACTIONS {
                        if (singular && !in_singular) || only.as_ref().is_some_and(|o| !o.iter().any(|x| x == action)) || except.iter().any(|x| x == action) {
                            continue;
                        }
                        let sub = if singular { sub.trim_start_matches(":id").trim_start_matches('/') } else { sub };
                        out.push(EndpointFact {
                            router: None,
                            name: action.to_string(),
                            kind: REST,
                            method: Some(verb.to_string()),
                            path: Some(join(&base, sub)),
                            framework: "rails",
                            line: line_of(c),
                            handler: Handler::Expr { text: format!("{controller}.{action}"), line: line_of(c), column: col_of(c) },
                        });
                    }
                    if let Some(b) = block {
                        let mut inner = scope.clone();
                        inner.path = if singular { base.clone() } else { join(&base, &format!(":{}_id", singularize(&name))) };
                        walk(b, src, &inner, out);
                    }
                }
            }
            "root" => {
                let to = first.or_else(|| option(&args, "to", src));
                push(out, scope, c, Some("GET".into()), "/", to.as_deref());
            }
            "match" => {
                let Some(p) = first else { continue };
                let via = list(&args, "via", src).unwrap_or_default();
                let to = option(&args, "to", src).or_else(|| arrow_target(&args, src));
                let methods: Vec<Option<String>> = if via.is_empty() || via.iter().any(|v| v == "all") { vec![None] } else { via.iter().map(|v| Some(v.to_uppercase())).collect() };
                for m in methods {
                    push(out, scope, c, m, &p, to.as_deref());
                }
            }
            v if VERBS.contains(&v) => {
                // `get 'p', to: 'c#a'`, `get 'p' => 'c#a'`
                let (p, to) = match (first, arrow(&args, src)) {
                    (Some(p), _) => (p, option(&args, "to", src)),
                    (None, Some((p, to))) => (p, Some(to)),
                    _ => continue,
                };
                let to = to.or_else(|| arrow_target(&args, src));
                push(out, scope, c, Some(v.to_uppercase()), &p, to.as_deref());
            }
            _ => {
                if let Some(b) = block {
                    walk(b, src, scope, out);
                }
            }
        }
    }
}

fn push(out: &mut Vec<EndpointFact>, scope: &Scope, call: Node, method: Option<String>, path: &str, to: Option<&str>) {
    let full = join(&scope.path, path);
    let (name, handler) = match to.and_then(|t| t.split_once('#')) {
        Some((c, a)) => (a.to_string(), Handler::Expr { text: format!("{}.{a}", controller_class(scope, c)), line: line_of(call), column: col_of(call) }),
        None => (format!("{} {full}", method.as_deref().unwrap_or("ANY")), Handler::None),
    };
    out.push(EndpointFact { name, kind: REST, method, path: Some(full), framework: "rails", line: line_of(call), handler, router: None });
}

/// A string or symbol's value.
fn value(n: Node, src: &str) -> Option<String> {
    match n.kind() {
        "simple_symbol" => Some(text(n, src).trim_start_matches(':').to_string()),
        "string" => unquote(text(n, src)),
        _ => None,
    }
}

/// The pairs of a call's trailing hash (`to: 'c#a'`, `'p' => 'c#a'`).
fn pairs<'t>(args: &[Node<'t>]) -> Vec<Node<'t>> {
    args.iter().flat_map(|a| match a.kind() {
        "pair" => vec![*a],
        "hash" => named_children(*a).into_iter().filter(|p| p.kind() == "pair").collect(),
        _ => vec![],
    }).collect()
}

fn key_of(p: Node, src: &str) -> Option<String> {
    let k = p.child_by_field_name("key")?;
    match k.kind() {
        "hash_key_symbol" => Some(text(k, src).to_string()),
        _ => value(k, src),
    }
}

/// `key: 'x'` or `key: :x`.
fn option(args: &[Node], key: &str, src: &str) -> Option<String> {
    pairs(args).into_iter().find(|p| key_of(*p, src).as_deref() == Some(key)).and_then(|p| value(p.child_by_field_name("value")?, src))
}

/// `key: [:a, :b]` or `key: :a`.
fn list(args: &[Node], key: &str, src: &str) -> Option<Vec<String>> {
    let v = pairs(args).into_iter().find(|p| key_of(*p, src).as_deref() == Some(key))?.child_by_field_name("value")?;
    Some(match v.kind() {
        "array" => named_children(v).into_iter().filter_map(|e| value(e, src)).collect(),
        _ => value(v, src).into_iter().collect(),
    })
}

/// `'p' => 'c#a'` as the first pair.
fn arrow(args: &[Node], src: &str) -> Option<(String, String)> {
    let p = pairs(args).into_iter().find(|p| p.child_by_field_name("key").is_some_and(|k| k.kind() == "string"))?;
    Some((value(p.child_by_field_name("key")?, src)?, value(p.child_by_field_name("value")?, src)?))
}

fn arrow_target(args: &[Node], src: &str) -> Option<String> {
    arrow(args, src).map(|(_, t)| t)
}

/// `admin/users` under `namespace :api` -> `Api::Admin::UsersController`.
fn controller_class(scope: &Scope, c: &str) -> String {
    let mut parts = scope.module.clone();
    parts.extend(c.split('/').map(camel));
    format!("{}Controller", parts.join("::"))
}

/// `user_sessions` -> `UserSessions`.
fn camel(s: &str) -> String {
    s.split('_').map(|w| {
        let mut c = w.chars();
        c.next().map_or(String::new(), |f| f.to_uppercase().collect::<String>() + c.as_str())
    }).collect()
}

/// `photos` -> `photo`, `categories` -> `category` (the common English plurals).
fn singularize(s: &str) -> String {
    if let Some(x) = s.strip_suffix("ies") {
        format!("{x}y")
    } else if let Some(x) = s.strip_suffix("ses") {
        format!("{x}s")
    } else {
        s.strip_suffix('s').unwrap_or(s).to_string()
    }
}
