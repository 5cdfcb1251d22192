//! React Router 7 (framework mode): the route table comes from `app/routes.ts` when it exists
//! (`route()`, `index()`, `layout()`, `prefix()`, nesting, `flatRoutes()`), else from the
//! file routes under `app/routes/` (flat routes: `users.$id.edit.tsx`, folders with a
//! `route.tsx`). Each route module's exported `loader`, `action`, `clientLoader`,
//! `clientAction` and default component is one endpoint of kind `route`.
//!
//! Derived: the table spans files, so it is recomputed after every ingest that changed
//! anything, from the files table, the route modules' symbols in the graph, and the config
//! read from disk.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use navegador_lang::tree_sitter::Node;
use navegador_model::Language;
use navegador_store::{IngestTx, StoreError};

use super::util::{join, named_children, normalize_path, text, unquote};
use super::{Derived, EndpointFact, Handler, ROUTE};

/// A route module's extensions: the JS/TS packs' (their manifests).
fn exts() -> &'static [&'static str] {
    crate::resolve::js_extensions()
}

const EXPORTS: [&str; 4] = ["loader", "action", "clientLoader", "clientAction"];

/// The URL path of a flat-route id (a file name under `app/routes/` without extension, or a
/// folder name), and whether it is an index route. `users.$id.edit` -> `/users/:id/edit`;
/// `$` -> `*`; `_index` -> its parent's path; `_auth.login` -> `/login`; `users_.$id` ->
/// `/users/:id`; `sitemap[.]xml` -> `/sitemap.xml`; `($lang).about` -> `/:lang?/about`.
pub fn route_path_of(id: &str) -> (String, bool) {
    let mut segs: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut in_bracket = false;
    for c in id.chars() {
        match c {
            '[' => {
                in_bracket = true;
                cur.push(c);
            }
            ']' => {
                in_bracket = false;
                cur.push(c);
            }
            '.' if !in_bracket => segs.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    segs.push(cur);
    let mut out: Vec<String> = Vec::new();
    let mut index = false;
    for raw in segs {
        if raw == "_index" {
            index = true;
            continue;
        }
        if raw.starts_with('_') {
            continue; // a pathless layout
        }
        let raw = if raw.ends_with('_') { &raw[..raw.len() - 1] } else { &raw[..] };
        let (optional, raw) = match raw.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
            Some(inner) => (true, inner),
            None => (false, raw),
        };
        let mut s = if raw == "$" {
            "*".to_string()
        } else if let Some(p) = raw.strip_prefix('$') {
            format!(":{}", p.replace(['[', ']'], ""))
        } else {
            raw.replace(['[', ']'], "")
        };
        if s.is_empty() {
            continue;
        }
        if optional {
            s.push('?');
        }
        out.push(s);
    }
    (normalize_path(&out.join("/")), index)
}

/// One route of a config: its module (relative to the app directory) and its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ConfigRoute {
    pub file: String,
    pub path: String,
}

/// Reads an `app/routes.ts`: the routes, and whether it calls `flatRoutes()`.
pub(super) fn parse_config(lang: Language, src: &str) -> (Vec<ConfigRoute>, bool) {
    let mut out = Vec::new();
    let flat = src.contains("flatRoutes(");
    let Some(tree) = navegador_lang::parse(lang, src) else { return (out, flat) };
    let root = tree.root_node();
    let mut vars: BTreeMap<String, Node> = BTreeMap::new();
    for d in super::util::descendants(root, "variable_declarator") {
        if let (Some(n), Some(v)) = (d.child_by_field_name("name"), d.child_by_field_name("value")) {
            vars.insert(text(n, src).to_string(), v);
        }
    }
    for e in named_children(root).into_iter().filter(|n| n.kind() == "export_statement") {
        if !text(e, src).trim_start_matches("export").trim_start().starts_with("default") {
            continue;
        }
        if let Some(v) = e.child_by_field_name("value").or_else(|| named_children(e).last().copied()) {
            routes_of(v, src, "/", &vars, &mut out, 0);
        }
    }
    (out, flat)
}

fn unwrap_expr<'t>(mut n: Node<'t>, src: &str, vars: &BTreeMap<String, Node<'t>>) -> Node<'t> {
    for _ in 0..8 {
        n = match n.kind() {
            "satisfies_expression" | "as_expression" | "parenthesized_expression" | "await_expression" | "spread_element" => {
                match named_children(n).first() {
                    Some(c) => *c,
                    None => return n,
                }
            }
            "identifier" => match vars.get(text(n, src)) {
                Some(v) => *v,
                None => return n,
            },
            _ => return n,
        };
    }
    n
}

fn routes_of<'t>(n: Node<'t>, src: &str, base: &str, vars: &BTreeMap<String, Node<'t>>, out: &mut Vec<ConfigRoute>, depth: usize) {
    if depth > 32 {
        return;
    }
    let n = unwrap_expr(n, src, vars);
    match n.kind() {
        "array" => {
            for c in named_children(n) {
                routes_of(c, src, base, vars, out, depth + 1);
            }
        }
        "call_expression" => {
            let Some(f) = n.child_by_field_name("function") else { return };
            let fname = text(f, src).rsplit('.').next().unwrap_or("");
            let args = n.child_by_field_name("arguments").map(named_children).unwrap_or_default();
            let s = |i: usize| args.get(i).and_then(|a| unquote(text(*a, src)));
            let children = args.last().filter(|a| a.kind() == "array" || a.kind() == "identifier").copied();
            match fname {
                "route" => {
                    let (Some(p), Some(file)) = (s(0), s(1)) else { return };
                    let path = join(base, &p);
                    out.push(ConfigRoute { file, path: path.clone() });
                    if let Some(c) = children.filter(|_| args.len() > 2) {
                        routes_of(c, src, &path, vars, out, depth + 1);
                    }
                }
                "index" => {
                    if let Some(file) = s(0) {
                        out.push(ConfigRoute { file, path: normalize_path(base) });
                    }
                }
                "layout" => {
                    if let Some(file) = s(0) {
                        out.push(ConfigRoute { file, path: normalize_path(base) });
                    }
                    if let Some(c) = children.filter(|_| args.len() > 1) {
                        routes_of(c, src, base, vars, out, depth + 1);
                    }
                }
                "prefix" => {
                    if let (Some(p), Some(c)) = (s(0), children.filter(|_| args.len() > 1)) {
                        routes_of(c, src, &join(base, &p), vars, out, depth + 1);
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// The file routes under `<app>/routes/`: (module path, URL path).
fn file_routes(app: &str, files: &BTreeSet<&str>) -> Vec<(String, String)> {
    let dir = format!("{app}/routes/");
    let dir = dir.trim_start_matches('/').to_string();
    let mut out = Vec::new();
    for f in files.range(dir.as_str()..).take_while(|f| f.starts_with(&dir)) {
        let rest = &f[dir.len()..];
        let id = match rest.split_once('/') {
            None => rest.rsplit_once('.').filter(|(_, e)| exts().contains(e)).map(|(s, _)| s),
            Some((folder, file)) => {
                let stem = file.rsplit_once('.').filter(|(_, e)| exts().contains(e)).map(|(s, _)| s);
                if stem == Some("route") && !file.contains('/') { Some(folder) } else { None }
            }
        };
        if let Some(id) = id {
            out.push((f.to_string(), route_path_of(id).0));
        }
    }
    out
}

/// The app directories (`app`, `web/app`) and their `routes.ts` config, if any.
fn apps(files: &BTreeSet<&str>) -> BTreeMap<String, Option<String>> {
    let mut out: BTreeMap<String, Option<String>> = BTreeMap::new();
    for f in files {
        let (dir, name) = f.rsplit_once('/').unwrap_or(("", f));
        let is_app = |d: &str| d == "app" || d.ends_with("/app");
        if is_app(dir) && name.rsplit_once('.').is_some_and(|(s, e)| s == "routes" && exts().contains(&e)) {
            out.insert(dir.to_string(), Some(f.to_string()));
        } else if let Some(i) = f.find("app/routes/").filter(|&i| i == 0 || f.as_bytes()[i - 1] == b'/') {
            out.entry(f[..i + 3].to_string()).or_insert(None);
        }
    }
    out
}

pub(super) fn derive(tx: &IngestTx<'_>, root: &Path, files: &[(String, i64, String, Option<String>)]) -> Result<Vec<Derived>, StoreError> {
    let js = |name: &str| navegador_lang::registry().by_name(name).is_some_and(|l| l.family() == "js");
    let set: BTreeSet<&str> = files.iter().filter(|f| js(&f.2)).map(|f| f.0.as_str()).collect();
    let mut out = Vec::new();
    for (app, config) in apps(&set) {
        let mut routes: Vec<(String, String)> = Vec::new();
        match &config {
            Some(cfg) => {
                let registry = navegador_lang::registry();
                let Some(lang) = registry.for_path(cfg).or_else(|| registry.by_id("typescript")) else { continue };
                let src = navegador_model::path::join_stored(root, cfg).and_then(|p| std::fs::read_to_string(p).ok()).unwrap_or_default();
                let (cr, flat) = parse_config(lang, &src);
                for r in cr {
                    let rel = r.file.trim_start_matches("./");
                    let mut p = format!("{app}/{rel}");
                    if !set.contains(p.as_str()) {
                        if let Some(e) = exts().iter().find(|e| set.contains(format!("{p}.{e}").as_str())) {
                            p = format!("{p}.{e}");
                        }
                    }
                    routes.push((p, r.path));
                }
                if flat {
                    routes.extend(file_routes(&app, &set));
                }
            }
            None => routes = file_routes(&app, &set),
        }
        routes.sort();
        routes.dedup();
        for (module, path) in routes {
            if !set.contains(module.as_str()) {
                continue;
            }
            out.extend(module_endpoints(tx, root, &module, &path)?);
        }
    }
    Ok(out)
}

/// The endpoints of one route module mounted at `path`.
fn module_endpoints(tx: &IngestTx<'_>, root: &Path, module: &str, path: &str) -> Result<Vec<Derived>, StoreError> {
    let syms = tx.symbols_in_file(module)?;
    let mut out = Vec::new();
    let mk = |name: &str, line: u32, symbol: Option<(String, u32)>| Derived {
        file: module.to_string(),
        fact: EndpointFact {
            router: None,
            name: name.to_string(),
            kind: ROUTE,
            method: None,
            path: Some(path.to_string()),
            framework: "react-router",
            line,
            handler: Handler::None,
        },
        symbol,
    };
    for want in EXPORTS {
        if let Some((s, line)) = syms.iter().find(|(s, _)| s.parent.is_none() && s.is_exported && s.name == want) {
            out.push(mk(want, *line, Some((s.qualified_name.clone(), *line))));
        }
    }
    match syms.iter().find(|(s, _)| s.parent.is_none() && s.is_default_export) {
        Some((s, line)) => {
            out.push(mk(&s.name, *line, Some((s.qualified_name.clone(), *line))));
        }
        None => {
            // An anonymous default export the graph has no symbol for.
            let src = navegador_model::path::join_stored(root, module).and_then(|p| std::fs::read_to_string(p).ok()).unwrap_or_default();
            if let Some(i) = src.find("export default") {
                let line = src[..i].matches('\n').count() as u32 + 1;
                out.push(mk("default", line, None));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_route_ids() {
        let cases = [
            ("_index", "/", true),
            ("users.$id.edit", "/users/:id/edit", false),
            ("users._index", "/users", true),
            ("$", "/*", false),
            ("files.$", "/files/*", false),
            ("_auth.login", "/login", false),
            ("users_.$id", "/users/:id", false),
            ("sitemap[.]xml", "/sitemap.xml", false),
            ("($lang).about", "/:lang?/about", false),
            ("_layout", "/", false),
        ];
        for (id, path, index) in cases {
            assert_eq!(route_path_of(id), (path.to_string(), index), "{id}");
        }
    }

    #[test]
    fn routes_config() {
        let src = r#"
import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";
export default [
  index("routes/home.tsx"),
  route("about", "routes/about.tsx"),
  layout("routes/auth/layout.tsx", [
    route("login", "routes/auth/login.tsx"),
  ]),
  ...prefix("projects", [
    index("routes/projects/index.tsx"),
    route(":pid", "routes/projects/project.tsx", [
      route("edit", "routes/projects/edit.tsx"),
    ]),
  ]),
] satisfies RouteConfig;
"#;
        let (routes, flat) = parse_config(navegador_lang::registry().by_id("typescript").unwrap(), src);
        assert!(!flat);
        let got: Vec<(String, String)> = routes.into_iter().map(|r| (r.file, r.path)).collect();
        let want = [
            ("routes/home.tsx", "/"),
            ("routes/about.tsx", "/about"),
            ("routes/auth/layout.tsx", "/"),
            ("routes/auth/login.tsx", "/login"),
            ("routes/projects/index.tsx", "/projects"),
            ("routes/projects/project.tsx", "/projects/:pid"),
            ("routes/projects/edit.tsx", "/projects/:pid/edit"),
        ];
        assert_eq!(got, want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect::<Vec<_>>());
    }
}
