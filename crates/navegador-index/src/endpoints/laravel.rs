//! Laravel routes (`routes/*.php`): `Route::get('/users/{id}', [UserController::class,
//! 'show'])`, `post`/`put`/`patch`/`delete`/`options`/`any`/`match`, `'UserController@show'`
//! strings, closures, `Route::resource('photos', PhotoController::class)` (the seven
//! resource actions; `apiResource` the five without forms), under the prefixes of
//! enclosing groups (`Route::prefix('admin')->group(…)`, `Route::group(['prefix' => 'x'], …)`).

use navegador_lang::tree_sitter::Node;
use navegador_model::{FileFacts, Language};

use super::util::{descendants, join, line_of, col_of, named_children, text, unquote};
use super::{EndpointFact, Handler, REST};

const VERBS: [&str; 8] = ["get", "post", "put", "patch", "delete", "options", "any", "match"];

/// (action, method, path under the resource) of `Route::resource`; `apiResource` has no
/// `create` / `edit`.
const RESOURCE: [(&str, &str, &str); 7] = [
    ("index", "GET", ""),
    ("create", "GET", "create"),
    ("store", "POST", ""),
    ("show", "GET", "{id}"),
    ("edit", "GET", "{id}/edit"),
    ("update", "PUT", "{id}"),
    ("destroy", "DELETE", "{id}"),
];

pub(super) fn detect(lang: Language, src: &str, _facts: &FileFacts) -> Vec<EndpointFact> {
    if !src.contains("Route::") {
        return Vec::new();
    }
    let Some(tree) = navegador_lang::parse(lang, src) else { return Vec::new() };
    let mut out = Vec::new();
    for call in descendants(tree.root_node(), "scoped_call_expression") {
        let (Some(scope), Some(name)) = (call.child_by_field_name("scope"), call.child_by_field_name("name")) else { continue };
        if text(scope, src).trim_start_matches('\\').rsplit('\\').next() != Some("Route") {
            continue;
        }
        let verb = text(name, src);
        let args = call.child_by_field_name("arguments").map(arguments).unwrap_or_default();
        let prefix = group_prefix(call, src);
        let line = line_of(call);
        match verb {
            "resource" | "apiResource" => {
                let (Some(res), Some(ctrl)) = (args.first().and_then(|a| string(*a, src)), args.get(1)) else { continue };
                let Some(class) = class_name(*ctrl, src) else { continue };
                let base = join(&prefix, &res.replace('.', "/"));
                for (action, method, sub) in RESOURCE {
                    if verb == "apiResource" && matches!(action, "create" | "edit") {
                        continue;
                    }
                    out.push(EndpointFact {
                        router: None,
                        name: action.to_string(),
                        kind: REST,
                        method: Some(method.to_string()),
                        path: Some(join(&base, sub)),
                        framework: "laravel",
                        line,
                        handler: Handler::Expr { text: format!("{class}.{action}"), line: line_of(*ctrl), column: col_of(*ctrl) },
                    });
                }
            }
            v if VERBS.contains(&v) => {
                let (methods, rest): (Vec<Option<String>>, &[Node]) = match v {
                    "any" => (vec![None], &args[..]),
                    "match" => {
                        let Some(first) = args.first() else { continue };
                        let ms = descendants(*first, "string").iter().filter_map(|s| string(*s, src)).map(|m| Some(m.to_uppercase())).collect();
                        (ms, &args[1..])
                    }
                    _ => (vec![Some(v.to_uppercase())], &args[..]),
                };
                let Some(path) = rest.first().and_then(|a| string(*a, src)) else { continue };
                let path = join(&prefix, &path);
                let (name, handler) = match rest.get(1) {
                    Some(h) => handler_of(*h, src),
                    None => (None, Handler::None),
                };
                for method in methods {
                    out.push(EndpointFact {
                        router: None,
                        name: name.clone().unwrap_or_else(|| format!("{} {path}", method.as_deref().unwrap_or("ANY"))),
                        kind: REST,
                        method,
                        path: Some(path.clone()),
                        framework: "laravel",
                        line,
                        handler: handler.clone(),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The expressions of an `arguments` node.
fn arguments(args: Node) -> Vec<Node> {
    named_children(args).into_iter().filter(|a| a.kind() == "argument").filter_map(|a| a.named_child(0)).collect()
}

fn string(n: Node, src: &str) -> Option<String> {
    matches!(n.kind(), "string" | "encapsed_string").then(|| unquote(text(n, src))).flatten()
}

/// `UserController::class` -> `UserController`.
fn class_name(n: Node, src: &str) -> Option<String> {
    if n.kind() != "class_constant_access_expression" {
        return None;
    }
    let kids = named_children(n);
    match kids.as_slice() {
        [class, c] if text(*c, src) == "class" => Some(text(*class, src).trim_start_matches('\\').to_string()),
        _ => None,
    }
}

/// The handler argument: `[C::class, 'm']`, `'C@m'`, `C::class` (an invokable controller);
/// a closure has none.
fn handler_of(n: Node, src: &str) -> (Option<String>, Handler) {
    let at = |text: String| Handler::Expr { text, line: line_of(n), column: col_of(n) };
    match n.kind() {
        "array_creation_expression" => {
            let items: Vec<Node> = named_children(n).into_iter().filter_map(|e| e.named_child(0)).collect();
            match (items.first().and_then(|c| class_name(*c, src)), items.get(1).and_then(|m| string(*m, src))) {
                (Some(c), Some(m)) => (Some(m.clone()), at(format!("{c}.{m}"))),
                _ => (None, Handler::None),
            }
        }
        "string" | "encapsed_string" => match string(n, src).as_deref().and_then(|s| s.split_once('@')) {
            Some((c, m)) => (Some(m.to_string()), at(format!("{}.{m}", c.rsplit('\\').next().unwrap_or(c)))),
            None => (None, Handler::None),
        },
        "class_constant_access_expression" => match class_name(n, src) {
            Some(c) => (Some("__invoke".to_string()), at(format!("{c}.__invoke"))),
            None => (None, Handler::None),
        },
        _ => (None, Handler::None),
    }
}

/// The prefixes of the route groups around a registration, outermost first:
/// `Route::prefix('admin')->…->group(function () { … })` and
/// `Route::group(['prefix' => 'admin'], function () { … })`.
fn group_prefix(call: Node, src: &str) -> String {
    let mut parts = Vec::new();
    let mut cur = call.parent();
    while let Some(n) = cur {
        if n.kind() == "arguments" {
            if let Some(g) = n.parent() {
                let name = g.child_by_field_name("name").map(|m| text(m, src));
                if name == Some("group") {
                    parts.extend(group_options(g, src));
                }
            }
        }
        cur = n.parent();
    }
    parts.reverse();
    parts.iter().fold(String::from("/"), |acc, p| join(&acc, p))
}

/// The prefix one `group` call gives: a `prefix('x')` in its chain, or a `'prefix' => 'x'`
/// option.
fn group_options(group: Node, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    if group.kind() == "scoped_call_expression" {
        // `Route::group(['prefix' => 'x'], fn)`
        if let Some(opts) = group.child_by_field_name("arguments").map(arguments).and_then(|a| a.first().copied()) {
            for pair in descendants(opts, "array_element_initializer") {
                let kids = named_children(pair);
                if let [k, v] = kids.as_slice() {
                    if string(*k, src).as_deref() == Some("prefix") {
                        out.extend(string(*v, src));
                    }
                }
            }
        }
        return out;
    }
    // `Route::prefix('x')->middleware(…)->group(fn)`: down the chain
    let mut cur = group.child_by_field_name("object");
    for _ in 0..16 {
        let Some(c) = cur else { break };
        if !matches!(c.kind(), "member_call_expression" | "scoped_call_expression") {
            break;
        }
        if c.child_by_field_name("name").map(|m| text(m, src)) == Some("prefix") {
            if let Some(p) = c.child_by_field_name("arguments").map(arguments).and_then(|a| a.first().and_then(|s| string(*s, src))) {
                out.push(p);
            }
        }
        cur = c.child_by_field_name(if c.kind() == "member_call_expression" { "object" } else { "scope" });
    }
    out
}
