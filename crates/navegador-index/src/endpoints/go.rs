//! Go: net/http (`http.HandleFunc("/p", h)`, `mux.Handle(...)`, Go 1.22 `"GET /p"`
//! patterns), gin (`r.GET("/p", h)`, `v1 := r.Group("/v1")`), chi (`r.Get("/p", h)`,
//! `r.Route("/p", func(r chi.Router) {...})`, `r.Group(func(r chi.Router) {...})`).
//!
//! One ordered walk per file with a scope of router variable -> prefix: a `Group` result
//! assigned to a variable and the parameter of a `Route`/`Group` closure get their prefix.

use std::collections::HashMap;

use navegador_lang::tree_sitter::Node;
use navegador_model::FileFacts;

use super::util::{col_of, join, last_segment, line_of, named_children, text, unquote};
use super::{Detected, EndpointFact, Handler, MountFact, REST};

#[derive(Clone, Copy)]
struct Imports {
    http: bool,
    gin: bool,
    chi: bool,
}

struct Ctx<'s> {
    src: &'s str,
    imports: Imports,
    out: Vec<EndpointFact>,
    mounts: Vec<MountFact>,
}

/// A router value in scope: the root another file may mount (a function's router
/// parameter, `Register(0)`; `None` for one the file makes) and its prefix below it.
#[derive(Clone)]
struct Router {
    root: Option<String>,
    prefix: String,
}

type Scope = HashMap<String, Router>;

/// Constructors of a router (a root the file makes).
const MAKERS: [&str; 5] = ["gin.Default", "gin.New", "chi.NewRouter", "http.NewServeMux", "mux.NewRouter"];

/// Parameter types that carry a router into a function.
const ROUTER_TYPES: [&str; 6] = ["gin.RouterGroup", "gin.Engine", "gin.IRouter", "gin.IRoutes", "chi.Router", "http.ServeMux"];

pub(super) fn detect(src: &str, facts: &FileFacts) -> Detected {
    let has = |f: &dyn Fn(&str) -> bool| facts.imports.iter().any(|i| f(&i.module));
    let imports = Imports {
        http: has(&|m| m == "net/http"),
        gin: has(&|m| m.starts_with("github.com/gin-gonic/gin")),
        chi: has(&|m| m.starts_with("github.com/go-chi/chi")),
    };
    if !imports.http && !imports.gin && !imports.chi {
        return Detected::default();
    }
    let Some(tree) = navegador_lang::parse(facts.language, src) else {
        return Detected::default();
    };
    let mut ctx = Ctx { src, imports, out: Vec::new(), mounts: Vec::new() };
    walk(&mut ctx, tree.root_node(), &mut HashMap::new(), 0);
    Detected { endpoints: ctx.out, mounts: ctx.mounts, ..Default::default() }
}

/// The receiver of `X.M(...)` as a variable name: `r` in `r.Get`, `r.With(mw).Get`.
fn receiver_var(n: Node, src: &str) -> Option<String> {
    match n.kind() {
        "identifier" => Some(text(n, src).to_string()),
        "call_expression" => {
            let f = n.child_by_field_name("function")?;
            if f.kind() == "selector_expression" {
                receiver_var(f.child_by_field_name("operand")?, src)
            } else {
                None
            }
        }
        _ => None,
    }
}

fn string_value(n: Node, src: &str) -> Option<String> {
    match n.kind() {
        "interpreted_string_literal" | "raw_string_literal" => unquote(text(n, src)),
        _ => None,
    }
}

fn handler_of(n: Node, src: &str) -> (Option<String>, Handler) {
    match n.kind() {
        "identifier" | "selector_expression" => {
            let t = text(n, src).replace(char::is_whitespace, "");
            (Some(last_segment(&t).to_string()), Handler::Expr { text: t, line: line_of(n), column: col_of(n) })
        }
        // `http.HandlerFunc(h)`, `gin.WrapF(h)`: the wrapped function.
        "call_expression" => match n.child_by_field_name("arguments").map(named_children).unwrap_or_default().as_slice() {
            [one] => handler_of(*one, src),
            _ => (None, Handler::None),
        },
        _ => (None, Handler::None),
    }
}

fn walk(ctx: &mut Ctx<'_>, n: Node, scope: &mut Scope, depth: usize) {
    if depth > 400 {
        return;
    }
    match n.kind() {
        "function_declaration" | "method_declaration" => {
            // `func Register(router *gin.RouterGroup)`: the parameter is a router whose
            // prefix the callers give (`Register(0)` in the mount graph).
            let mut inner = scope.clone();
            if let (Some(name), Some(params)) = (n.child_by_field_name("name"), n.child_by_field_name("parameters")) {
                let fname = text(name, ctx.src);
                let mut i = 0;
                for pd in named_children(params).into_iter().filter(|p| p.kind() == "parameter_declaration") {
                    let ty = pd.child_by_field_name("type").map(|t| text(t, ctx.src)).unwrap_or_default();
                    let is_router = ROUTER_TYPES.iter().any(|r| ty.trim_start_matches('*') == *r);
                    let names: Vec<Node> = named_children(pd).into_iter().filter(|c| c.kind() == "identifier").collect();
                    for nm in names.iter().copied() {
                        if is_router {
                            inner.insert(text(nm, ctx.src).to_string(), Router { root: Some(format!("{fname}({i})")), prefix: "/".into() });
                        }
                        i += 1;
                    }
                    if names.is_empty() {
                        i += 1;
                    }
                }
            }
            if let Some(b) = n.child_by_field_name("body") {
                walk(ctx, b, &mut inner, depth + 1);
            }
            return;
        }
        "short_var_declaration" | "assignment_statement" => {
            // `v1 := r.Group("/v1")`, `r := gin.Default()`
            if let (Some(l), Some(r)) = (n.child_by_field_name("left"), n.child_by_field_name("right")) {
                let (ls, rs) = (named_children(l), named_children(r));
                if let ([lv], [call]) = (ls.as_slice(), rs.as_slice()) {
                    if let Some(p) = group_prefix(ctx, *call, scope) {
                        scope.insert(text(*lv, ctx.src).to_string(), p);
                    } else if call.kind() == "call_expression" {
                        let callee = call.child_by_field_name("function").map(|f| text(f, ctx.src)).unwrap_or_default();
                        if MAKERS.contains(&callee) {
                            scope.insert(text(*lv, ctx.src).to_string(), Router { root: None, prefix: "/".into() });
                        }
                    }
                }
            }
        }
        "call_expression" => {
            if call(ctx, n, scope, depth) {
                return;
            }
        }
        _ => {}
    }
    for c in named_children(n) {
        walk(ctx, c, scope, depth + 1);
    }
}

/// `X.Group("/p")` (gin): the group, its prefix below X's root.
fn group_prefix(ctx: &Ctx<'_>, call: Node, scope: &Scope) -> Option<Router> {
    if call.kind() != "call_expression" {
        return None;
    }
    let f = call.child_by_field_name("function").filter(|f| f.kind() == "selector_expression")?;
    if text(f.child_by_field_name("field")?, ctx.src) != "Group" {
        return None;
    }
    let recv = receiver_var(f.child_by_field_name("operand")?, ctx.src)?;
    let args = named_children(call.child_by_field_name("arguments")?);
    let p = string_value(*args.first()?, ctx.src)?;
    Some(match scope.get(&recv) {
        Some(r) => Router { root: r.root.clone(), prefix: join(&r.prefix, &p) },
        None => Router { root: None, prefix: join("/", &p) },
    })
}

/// `pkg.Register(v1.Group("/users"))`, `Setup(r)`: a router passed to a function, which
/// registers routes on its parameter — a mount of that parameter.
fn passes_router(ctx: &mut Ctx<'_>, n: Node, scope: &Scope) {
    let Some(f) = n.child_by_field_name("function") else {
        return;
    };
    if !matches!(f.kind(), "identifier" | "selector_expression") {
        return;
    }
    let callee = text(f, ctx.src).to_string();
    let args = n.child_by_field_name("arguments").map(named_children).unwrap_or_default();
    for (i, a) in args.iter().enumerate() {
        let r = match a.kind() {
            "identifier" => scope.get(text(*a, ctx.src)).cloned(),
            "call_expression" => group_prefix(ctx, *a, scope),
            _ => None,
        };
        if let Some(r) = r {
            ctx.mounts.push(MountFact {
                parent: r.root,
                child: callee.clone(),
                arg: Some(i as u32),
                prefix: r.prefix,
                prefix_expr: None,
                replaces: false,
                line: line_of(n),
            });
        }
    }
}

/// Handles a call; true when it walked the call's children itself.
fn call(ctx: &mut Ctx<'_>, n: Node, scope: &mut Scope, depth: usize) -> bool {
    let src = ctx.src;
    passes_router(ctx, n, scope);
    let Some(f) = n.child_by_field_name("function").filter(|f| f.kind() == "selector_expression") else {
        return false;
    };
    let (Some(operand), Some(field)) = (f.child_by_field_name("operand"), f.child_by_field_name("field")) else {
        return false;
    };
    let m = text(field, src);
    let args = n.child_by_field_name("arguments").map(named_children).unwrap_or_default();
    let recv = receiver_var(operand, src);
    let router = recv.as_ref().and_then(|r| scope.get(r)).cloned();
    let prefix = router.as_ref().map_or_else(|| "/".to_string(), |r| r.prefix.clone());
    // chi closures: `r.Route("/p", func(r chi.Router) {...})`, `r.Group(func(r chi.Router) {...})`.
    if ctx.imports.chi && matches!(m, "Route" | "Group") {
        let (p, body) = match (m, args.as_slice()) {
            ("Route", [p, body]) => (string_value(*p, src), *body),
            ("Group", [body]) => (Some(String::new()), *body),
            _ => (None, n),
        };
        if let (Some(p), "func_literal") = (p, body.kind()) {
            let mut inner = scope.clone();
            let full = join(&prefix, &p);
            if let Some(params) = body.child_by_field_name("parameters") {
                for pd in named_children(params) {
                    if let Some(name) = pd.child_by_field_name("name") {
                        inner
                            .insert(text(name, src).to_string(), Router { root: router.as_ref().and_then(|r| r.root.clone()), prefix: full.clone() });
                    }
                }
            }
            if let Some(b) = body.child_by_field_name("body") {
                walk(ctx, b, &mut inner, depth + 1);
            }
            return true;
        }
    }
    let is_http_pkg = recv.as_deref() == Some("http");
    let (framework, method, path_arg, handler_arg) = match m {
        "HandleFunc" | "Handle" if ctx.imports.http || ctx.imports.chi => {
            let fw = if is_http_pkg || !ctx.imports.chi { "net-http" } else { "chi" };
            (fw, None, 0, 1)
        }
        "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS" if ctx.imports.gin => ("gin", Some(m.to_string()), 0, usize::MAX),
        "Any" if ctx.imports.gin => ("gin", None, 0, usize::MAX),
        "Get" | "Post" | "Put" | "Patch" | "Delete" | "Head" | "Options" | "Connect" | "Trace" if ctx.imports.chi => {
            ("chi", Some(m.to_uppercase()), 0, 1)
        }
        "Method" | "MethodFunc" if ctx.imports.chi => {
            let Some(meth) = args.first().and_then(|a| string_value(*a, src)) else {
                return false;
            };
            ("chi", Some(meth.to_uppercase()), 1, 2)
        }
        _ => return false,
    };
    if is_http_pkg && framework != "net-http" {
        return false;
    }
    let Some(raw) = args.get(path_arg).and_then(|a| string_value(*a, src)) else {
        return false;
    };
    let hnode = if handler_arg == usize::MAX { args.last().copied() } else { args.get(handler_arg).copied() };
    let Some(hnode) = hnode.filter(|_| args.len() > path_arg + 1) else {
        return false;
    };
    // Go 1.22 patterns: `"GET /items/{id}"`, an optional host before the path.
    let (method, pattern) = match raw.split_once(' ') {
        Some((meth, rest)) if method.is_none() && meth.chars().all(|c| c.is_ascii_uppercase()) => (Some(meth.to_string()), rest.trim().to_string()),
        _ => (method, raw.clone()),
    };
    let pattern = match pattern.find('/') {
        Some(i) if i > 0 => pattern[i..].to_string(),
        _ => pattern,
    };
    if !pattern.starts_with('/') {
        return false;
    }
    let full = join(&prefix, &pattern);
    let (name, handler) = handler_of(hnode, src);
    ctx.out.push(EndpointFact {
        router: router.and_then(|r| r.root).map(|r| (r, String::new())),
        name: name.unwrap_or_else(|| format!("{} {}", method.as_deref().unwrap_or("ANY"), full)),
        kind: REST,
        method,
        path: Some(full),
        framework,
        line: line_of(n),
        handler,
    });
    false
}
