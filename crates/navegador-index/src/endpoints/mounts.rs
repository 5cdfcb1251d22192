//! The mount graph: full paths of endpoints whose router another file mounts.
//!
//! A detector leaves, per file, the router values its endpoints hang on (`router` on the
//! Endpoint, with the local path) and the mounts its code makes (`mounts` on the File: parent
//! root, mounted expression, prefix). After every file, each mounted expression is resolved
//! to a (file, router key) through what resolution left in the graph — the reference site at
//! the mount (a function given the router: gin groups passed as parameters) or the import
//! binding its first name (`users.router`, `require('./api')`, an imported alias) — and each
//! endpoint's `path` becomes its router's chain of prefixes joined with its local path. It
//! is recomputed whole from the graph at each ingest, so an edit on either side moves it and
//! incremental equals clean.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use navegador_store::{IngestTx, NodeRow, StoreError};
use serde_json::{json, Map, Value};

use super::util::{join, unquote};

/// A router value: (file, key in that file).
type Key = (String, String);

struct Mount {
    parent: Option<Key>,
    prefix: String,
    replaces: bool,
}

/// Applies the mount graph to every endpoint with a `router`; returns the endpoints whose
/// full path changed.
pub(super) fn apply(tx: &IngestTx<'_>, root: &Path) -> Result<u64, StoreError> {
    let endpoints: Vec<NodeRow> = tx.endpoint_nodes()?.into_iter().filter(|e| e.props.contains_key("router")).collect();
    let files = if endpoints.is_empty() { Vec::new() } else { tx.files_with_mounts()? };
    let exports: HashMap<String, Map<String, Value>> =
        files.iter().filter_map(|(f, p)| p.get("router_exports").and_then(Value::as_object).map(|o| (f.clone(), o.clone()))).collect();
    let exported = |f: &str, name: &str| -> String { exports.get(f).and_then(|o| o.get(name)).and_then(Value::as_str).unwrap_or(name).to_string() };
    let mut mounted: HashMap<Key, Mount> = HashMap::new();
    for (file, props) in &files {
        let Some(list) = props.get("mounts").and_then(Value::as_array) else {
            continue;
        };
        let imports = tx.imports_in_file(file)?;
        let refs = tx.ref_targets_in_file(file)?;
        for m in list {
            let child = m.get("child").and_then(Value::as_str).unwrap_or_default();
            let line = m.get("line").and_then(Value::as_u64).unwrap_or(0) as u32;
            let arg = m.get("arg").and_then(Value::as_u64);
            for (tf, name) in resolve_child(tx, file, child, line, &imports, &refs)? {
                let name = exported(&tf, &name);
                let key = match arg {
                    Some(i) => format!("{name}({i})"),
                    None => name,
                };
                let parent = m.get("parent").and_then(Value::as_str).map(|p| (file.clone(), p.to_string()));
                let mut prefix = m.get("prefix").and_then(Value::as_str).unwrap_or_default().to_string();
                if let Some(expr) = m.get("prefix_expr").and_then(Value::as_str) {
                    if let Some(v) = value_of(tx, root, file, expr, &imports)? {
                        prefix = join(&prefix, &v);
                    }
                }
                let replaces = m.get("replaces").and_then(Value::as_bool).unwrap_or(false);
                // The first mount (by file, line) wins: one full path per endpoint.
                mounted.entry((tf, key)).or_insert(Mount { parent, prefix, replaces });
            }
        }
    }
    let mut moved = 0;
    for e in endpoints {
        let (Some(file), Some(router)) = (e.file_path.as_deref(), e.props.get("router").and_then(Value::as_str)) else {
            continue;
        };
        let local = e.props.get("local_path").and_then(Value::as_str).unwrap_or("/");
        let own = e.props.get("router_prefix").and_then(Value::as_str).unwrap_or("");
        // The router as the endpoint's file names it: defined there, or imported
        // (`from app.api import bp`); a function parameter's key (`Register(0)`) is literal.
        let keys = if router.contains('(') || router.starts_with('@') {
            vec![(if router.starts_with('@') { String::new() } else { file.to_string() }, router.to_string())]
        } else {
            let imports = tx.imports_in_file(file)?;
            resolve_child(tx, file, router, 0, &imports, &[])?
                .into_iter()
                .map(|(f, n)| {
                    let n = exported(&f, &n);
                    (f, n)
                })
                .collect()
        };
        let Some(key) = keys.iter().find(|k| mounted.contains_key(*k)).or(keys.first()).cloned() else {
            continue;
        };
        let full = match mounted.get(&key) {
            Some(m) => {
                let rel = if m.replaces && !own.is_empty() { strip(local, own) } else { local.to_string() };
                join(&join(&above(&mounted, m, &mut HashSet::from([key.clone()])), &m.prefix), &rel)
            }
            None => local.to_string(),
        };
        let mut props = e.props.clone();
        props.insert("path".into(), json!(full));
        if props != e.props {
            tx.set_endpoint_props(e.id, &props)?;
            moved += 1;
        }
    }
    Ok(moved)
}

/// The prefix above a mount's parent root (its own mounts, transitively; a cycle stops).
fn above(mounted: &HashMap<Key, Mount>, m: &Mount, seen: &mut HashSet<Key>) -> String {
    let Some(p) = &m.parent else {
        return "/".into();
    };
    if !seen.insert(p.clone()) {
        return "/".into();
    }
    match mounted.get(p) {
        Some(up) => join(&above(mounted, up, seen), &up.prefix),
        None => "/".into(),
    }
}

/// `local` without the router's own prefix `own` (a mount that replaces it).
fn strip(local: &str, own: &str) -> String {
    let own = join("/", own);
    match local.strip_prefix(&own) {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => join("/", rest),
        _ => local.to_string(),
    }
}

type Import = (i64, String, Option<String>, Option<String>);

/// The router values a mounted expression of `file` names: (file, name there).
fn resolve_child(
    tx: &IngestTx<'_>,
    file: &str,
    child: &str,
    line: u32,
    imports: &[Import],
    refs: &[(u32, String, i64, String)],
) -> Result<Vec<Key>, StoreError> {
    // A workspace-wide key (`@nestjs`: every controller under the global prefix).
    if child.starts_with('@') {
        return Ok(vec![(String::new(), child.to_string())]);
    }
    // `require('./api')`, `import('./api')`: the import of that module.
    if let Some(inner) = child.strip_prefix("require(").or_else(|| child.strip_prefix("import(")).and_then(|r| r.strip_suffix(')')) {
        let Some(module) = unquote(inner) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (id, m, _, _) in imports {
            if *m == module {
                for t in tx.import_targets(*id)? {
                    if let (Some(tf), "File") = (t.file_path, t.label.as_str()) {
                        out.push((tf, "default".to_string()));
                    }
                }
            }
        }
        out.dedup();
        return Ok(out);
    }
    let segs: Vec<&str> = child.split('.').filter(|s| !s.is_empty()).collect();
    let (Some(first), Some(last)) = (segs.first().copied(), segs.last().copied()) else {
        return Ok(Vec::new());
    };
    // A reference site at the mount that resolution bound (a function called with the router).
    let mut out: Vec<Key> = Vec::new();
    for (l, n, dst, res) in refs {
        if *l == line && n == last && res != "ambiguous" {
            if let Some(t) = tx.reader().node(*dst)? {
                if let (Some(tf), Some(name)) = (t.file_path, t.name) {
                    out.push((tf, name));
                }
            }
        }
    }
    if !out.is_empty() {
        out.dedup();
        return Ok(out);
    }
    // The import binding the first name.
    for (id, module, imported, alias) in imports {
        let local = alias.clone().or_else(|| imported.clone().filter(|n| n != "*" && n != "default")).unwrap_or_else(|| {
            let m = module.trim_end_matches('/');
            let m = m.rsplit('/').next().unwrap_or(m);
            m.rsplit('.').next().unwrap_or(m).to_string()
        });
        let default_import = imported.as_deref() == Some("default");
        if local != first && !(default_import && alias.as_deref() == Some(first)) {
            continue;
        }
        for t in tx.import_targets(*id)? {
            let Some(tf) = t.file_path.clone() else {
                continue;
            };
            match (t.label.as_str(), segs.len()) {
                ("File", 1) => out.push((tf, "default".into())),
                ("File", 2) => out.push((tf, segs[1].to_string())),
                (_, 1) => out.push((tf, t.name.clone().unwrap_or_default())),
                _ => {}
            }
        }
        if !out.is_empty() {
            break;
        }
    }
    if out.is_empty() && segs.len() == 1 {
        out.push((file.to_string(), first.to_string()));
    }
    out.dedup();
    Ok(out)
}

/// The string a named value holds (`settings.API_V1_STR`, `API_PREFIX`): the definition the
/// first name binds (through the imports, or in this file), then the last name among the
/// definitions of that file; its initializer read from the source when it is a literal.
pub(super) fn value_of(tx: &IngestTx<'_>, root: &Path, file: &str, expr: &str, imports: &[Import]) -> Result<Option<String>, StoreError> {
    let segs: Vec<&str> = expr.split('.').filter(|s| !s.is_empty()).collect();
    let Some(last) = segs.last().copied() else {
        return Ok(None);
    };
    let mut files: Vec<String> = resolve_child(tx, file, segs[0], 0, imports, &[])?.into_iter().map(|(f, _)| f).collect();
    files.dedup();
    for f in files {
        let syms = tx.symbols_in_file(&f)?;
        for (s, line) in syms.iter().filter(|(s, _)| s.name == last && s.label == navegador_model::Label::Variable) {
            let _ = s;
            let Some(abs) = navegador_model::path::join_stored(root, &f) else {
                continue;
            };
            let Ok(text) = std::fs::read_to_string(abs) else {
                continue;
            };
            let Some(l) = text.lines().nth(line.saturating_sub(1) as usize) else {
                continue;
            };
            if let Some(v) = initializer(l) {
                return Ok(Some(v));
            }
        }
    }
    Ok(None)
}

/// The string literal a definition line assigns: `X: str = "/api"`, `final String X = "/a";`.
fn initializer(line: &str) -> Option<String> {
    let i = line.find('=').filter(|&i| !line[i + 1..].starts_with('='))?;
    let v = line[i + 1..].trim().trim_end_matches(';').trim();
    unquote(v)
}
