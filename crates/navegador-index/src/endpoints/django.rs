//! Django URLconfs: `urlpatterns` of `urls.py` files, `path()`, `re_path()`, `url()`, and
//! `include()` prefixes when the included module is in the repository.
//!
//! Derived: a URLconf's paths depend on who includes it, so the whole include graph is
//! recomputed after every ingest that changed anything (the URLconfs are read from disk;
//! they are few and small).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use navegador_lang::tree_sitter::Node;

use super::util::{col_of, descendants, join, last_segment, line_of, named_children, text, unquote};
use super::{Derived, EndpointFact, Handler, REST};

#[derive(Debug, Clone)]
enum Target {
    View { expr: String, line: u32, column: u32 },
    Include(String),
    Inline(Vec<Entry>),
}

#[derive(Debug, Clone)]
struct Entry {
    route: String,
    line: u32,
    target: Target,
}

/// `^articles/(?P<year>[0-9]{4})/$` -> `articles/(?P<year>[0-9]{4})/`.
fn clean_regex(r: &str) -> String {
    r.trim_start_matches('^').trim_end_matches('$').to_string()
}

fn entries_of(list: Node, src: &str, depth: usize) -> Vec<Entry> {
    let mut out = Vec::new();
    if depth > 8 {
        return out;
    }
    for el in named_children(list) {
        if el.kind() != "call" {
            continue;
        }
        let Some(f) = el.child_by_field_name("function") else { continue };
        let fname = last_segment(text(f, src));
        if !matches!(fname, "path" | "re_path" | "url") {
            continue;
        }
        let args: Vec<Node> = el.child_by_field_name("arguments").map(named_children).unwrap_or_default();
        let (Some(r), Some(v)) = (args.first(), args.get(1)) else { continue };
        let Some(route) = unquote(text(*r, src)) else { continue };
        let route = if fname == "path" { route } else { clean_regex(&route) };
        let target = match view_target(*v, src, depth) {
            Some(t) => t,
            None => continue,
        };
        out.push(Entry { route, line: line_of(el), target });
    }
    out
}

fn view_target(v: Node, src: &str, depth: usize) -> Option<Target> {
    match v.kind() {
        // `admin.site.urls`: a URLconf object, not a view.
        "attribute" if text(v, src).ends_with(".urls") => None,
        "identifier" | "attribute" => Some(Target::View { expr: text(v, src).to_string(), line: line_of(v), column: col_of(v) }),
        "call" => {
            let f = v.child_by_field_name("function")?;
            let args: Vec<Node> = v.child_by_field_name("arguments").map(named_children).unwrap_or_default();
            if last_segment(text(f, src)) == "include" {
                let a = *args.first()?;
                return match a.kind() {
                    "string" => Some(Target::Include(unquote(text(a, src))?)),
                    "list" => Some(Target::Inline(entries_of(a, src, depth + 1))),
                    "tuple" => {
                        let first = *named_children(a).first()?;
                        match first.kind() {
                            "string" => Some(Target::Include(unquote(text(first, src))?)),
                            "list" => Some(Target::Inline(entries_of(first, src, depth + 1))),
                            _ => None,
                        }
                    }
                    _ => None,
                };
            }
            // `views.Index.as_view()`: the class.
            if f.kind() == "attribute" && text(f, src).ends_with(".as_view") {
                let obj = f.child_by_field_name("object")?;
                return Some(Target::View { expr: text(obj, src).to_string(), line: line_of(obj), column: col_of(obj) });
            }
            None
        }
        _ => None,
    }
}

/// The URL patterns of one URLconf.
fn parse(src: &str) -> Vec<Entry> {
    // A URLconf is in the language that declares Django: its pack reads it.
    let Some(python) = django_language() else { return Vec::new() };
    let Some(tree) = navegador_lang::parse(python, src) else { return Vec::new() };
    let mut out = Vec::new();
    for a in descendants(tree.root_node(), "assignment").into_iter().chain(descendants(tree.root_node(), "augmented_assignment")) {
        let (Some(l), Some(r)) = (a.child_by_field_name("left"), a.child_by_field_name("right")) else { continue };
        if text(l, src) == "urlpatterns" && r.kind() == "list" {
            out.extend(entries_of(r, src, 0));
        }
    }
    out.sort_by_key(|e| e.line);
    out
}

/// The pack whose manifest declares `django` (Python).
fn django_language() -> Option<navegador_model::Language> {
    navegador_lang::registry().languages().iter().copied().find(|l| l.info().frameworks.iter().any(|f| f == "django"))
}

pub(super) fn derive(root: &Path, files: &[(String, i64, String, Option<String>)]) -> Vec<Derived> {
    let lang = django_language().map(|l| l.as_str());
    let confs: Vec<&(String, i64, String, Option<String>)> =
        files.iter().filter(|f| Some(f.2.as_str()) == lang && (f.0 == "urls.py" || f.0.ends_with("/urls.py"))).collect();
    if confs.is_empty() {
        return Vec::new();
    }
    let mut parsed: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    for f in &confs {
        let src = navegador_model::path::join_stored(root, &f.0).and_then(|p| std::fs::read_to_string(p).ok()).unwrap_or_default();
        if src.contains("urlpatterns") {
            parsed.insert(f.0.clone(), parse(&src));
        }
    }
    // Module -> file for includes (`app.urls`, or a module path that ends with it).
    let by_module: BTreeMap<&str, &str> = confs.iter().filter_map(|f| f.3.as_deref().map(|m| (m, f.0.as_str()))).collect();
    let resolve = |m: &str| -> Option<String> {
        if let Some(f) = by_module.get(m) {
            return Some(f.to_string());
        }
        let suffix = format!(".{m}");
        let hits: Vec<&&str> = by_module.iter().filter(|(k, _)| k.ends_with(&suffix)).map(|(_, v)| v).collect();
        (hits.len() == 1).then(|| hits[0].to_string())
    };
    let mut included: BTreeSet<String> = BTreeSet::new();
    fn includes(es: &[Entry], out: &mut Vec<String>) {
        for e in es {
            match &e.target {
                Target::Include(m) => out.push(m.clone()),
                Target::Inline(v) => includes(v, out),
                Target::View { .. } => {}
            }
        }
    }
    for es in parsed.values() {
        let mut ms = Vec::new();
        includes(es, &mut ms);
        included.extend(ms.iter().filter_map(|m| resolve(m)));
    }
    let mut out = Vec::new();
    for file in parsed.keys() {
        if included.contains(file) {
            continue;
        }
        let mut stack = vec![file.clone()];
        walk(&parsed, &resolve, file, &parsed[file], "/", &mut stack, &mut out);
    }
    out
}

fn walk(
    parsed: &BTreeMap<String, Vec<Entry>>,
    resolve: &dyn Fn(&str) -> Option<String>,
    file: &str,
    entries: &[Entry],
    prefix: &str,
    stack: &mut Vec<String>,
    out: &mut Vec<Derived>,
) {
    if stack.len() > 16 || out.len() > 100_000 {
        return;
    }
    for e in entries {
        let path = join(prefix, &e.route);
        match &e.target {
            Target::View { expr, line, column } => out.push(Derived {
                file: file.to_string(),
                fact: EndpointFact {
                    router: None,
                    name: last_segment(expr).to_string(),
                    kind: REST,
                    method: None,
                    path: Some(path),
                    framework: "django",
                    line: e.line,
                    handler: Handler::Expr { text: expr.clone(), line: *line, column: *column },
                },
                symbol: None,
            }),
            Target::Inline(v) => walk(parsed, resolve, file, v, &path, stack, out),
            Target::Include(m) => {
                let Some(f) = resolve(m) else { continue };
                if stack.contains(&f) {
                    continue;
                }
                let Some(es) = parsed.get(&f) else { continue };
                stack.push(f.clone());
                walk(parsed, resolve, &f, es, &path, stack, out);
                stack.pop();
            }
        }
    }
}
