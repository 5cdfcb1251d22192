//! `code.trace_callers` and `code.trace_symbol`: walks of the call graph, backward and
//! forward, from a symbol defined in a given file.
//!
//! Callers come from `CALLS`/`REFERENCES` edges (the ingest resolved them once; nothing is
//! parsed per call), in the target's own file too, plus dispatch through the class
//! hierarchy both ways: a call resolved to an interface (or base) method may reach the
//! target implementation, and a call resolved to an implementation reaches the interface
//! method's contract. Every caller and step says how sure it is (`resolution`), and call
//! sites of the same name the index could not bind are listed as `unresolved`.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use navegador_store::{CallEdgeRow, NodeRow, Store};
use serde_json::{json, Map, Value};

use crate::envelope::{code, plural, Envelope, ErrorItem};
use crate::workspace::{framework_names, language_names, language_of, Workspace};
use crate::{backend_error, index_notes, Context, Start};

/// Safety caps of the recursive payload (the contract's).
const CAP_NODES: usize = 200;
const CAP_PATHS: usize = 50;
const CAP_CYCLES: usize = 50;
const CAP_TRUNCATED: usize = 100;
const CAP_ENTRY_POINTS: usize = 50;
const CAP_CALLERS: usize = 100;
const CAP_CHAINS: usize = 50;
/// Bounds of the work itself (far above what an answer shows).
const MAX_VISITED: usize = 5_000;
const MAX_DIRECT_ITEMS: usize = 500;
const MAX_UNRESOLVED: usize = 100;
/// The forward trace follows calls this deep, over at most this many symbols.
const FORWARD_DEPTH: usize = 5;
const FORWARD_MAX_SYMBOLS: usize = 1_000;
const MAX_STEPS: usize = 500;
/// How far up and down the class hierarchy dispatch is followed.
const HIERARCHY_DEPTH: usize = 8;

/// A symbol as the traces show it.
#[derive(Debug, Clone)]
struct Sym {
    id: i64,
    path: String,
    /// Display name within its file (`Class.method`, `fn`, `<module>` for file-level code).
    display: String,
    name: String,
    qualified: Option<String>,
    label: String,
}

impl Sym {
    fn of(n: &NodeRow) -> Sym {
        let path = n.file_path.clone().unwrap_or_default();
        let name = n.name.clone().unwrap_or_default();
        let display = if n.label == "File" {
            "<module>".to_string()
        } else {
            match n.props.get("class_name").and_then(Value::as_str) {
                Some(c) if n.label == "Method" && !c.is_empty() => format!("{c}.{name}"),
                _ => name.clone(),
            }
        };
        Sym { id: n.id, path, display, name, qualified: n.qualified_name.clone(), label: n.label.clone() }
    }

    fn key(&self) -> String {
        format!("{}::{}", self.path, self.display)
    }
}

/// Source files, each read once per answer, for snippets: the text and where its lines
/// start (the lines `str::lines` would give), so a snippet costs a slice, not a split.
#[derive(Default)]
struct Snippets {
    files: HashMap<String, (String, Vec<usize>)>,
}

impl Snippets {
    fn line(&mut self, ws: &Workspace, path: &str, line: Option<u32>) -> Option<String> {
        let line = line? as usize;
        let (text, starts) = self.files.entry(path.to_string()).or_insert_with(|| {
            let text = std::fs::read(ws.root().join(path)).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
            let mut starts = Vec::new();
            if !text.is_empty() {
                starts.push(0);
                starts.extend(text.bytes().enumerate().filter(|&(i, b)| b == b'\n' && i + 1 < text.len()).map(|(i, _)| i + 1));
            }
            (text, starts)
        });
        let i = line.checked_sub(1)?;
        let start = *starts.get(i)?;
        let end = starts.get(i + 1).map_or(text.len(), |&next| next - 1);
        let text = text[start..end].trim();
        Some(if text.chars().count() > 200 { text.chars().take(200).collect::<String>() + "…" } else { text.to_string() })
    }
}

fn lang_prefix(lang: Option<&str>) -> &'static str {
    match lang {
        Some("java") => "java",
        Some("typescript") => "ts",
        Some("javascript") => "js",
        Some("python") => "py",
        Some("go") => "go",
        Some("rust") => "rust",
        Some("c") => "c",
        _ => "code",
    }
}

/// How a caller reaches a callee: `<language>.<how>`.
fn relation(caller: &Sym, callee: &Sym, e: &CallEdgeRow, dispatch: Option<&str>) -> String {
    let prefix = lang_prefix(language_of(&caller.path));
    if let Some(d) = dispatch {
        return format!("{prefix}.{d}");
    }
    let imported = caller.path != callee.path;
    let how = match (e.site_kind.as_deref(), e.edge_type.as_str()) {
        (Some("new"), _) => if imported { "imported_new" } else { "new" },
        (Some("reference"), _) | (_, "REFERENCES") => if imported { "imported_reference" } else { "reference" },
        _ if prefix == "java" => "direct_call",
        _ => match e.receiver.as_deref() {
            None => if imported { "imported_call" } else { "direct_call" },
            Some(_) if callee.label != "Method" => "namespace_call",
            Some(_) => "method_call",
        },
    };
    format!("{prefix}.{how}")
}

/// The weaker of two resolutions.
fn weaker(a: Option<&str>, floor: &str) -> String {
    let rank = |r: &str| match r {
        "exact" => 0,
        "inferred" => 1,
        _ => 2,
    };
    let a = a.unwrap_or("ambiguous");
    if rank(a) >= rank(floor) { a.to_string() } else { floor.to_string() }
}

/// One incoming edge, ready to show.
#[derive(Debug, Clone)]
struct Incoming {
    caller: Sym,
    callee: Sym,
    line: Option<u32>,
    col: Option<u32>,
    relation: String,
    resolution: String,
    receiver_type: Option<String>,
    /// Set for dispatch through the hierarchy: (kind, the type whose method the call bound).
    dispatch: Option<(String, Sym)>,
}

/// The graph walks of one answer, with a node cache.
struct Walker<'a> {
    store: &'a Store,
    nodes: HashMap<i64, Option<Sym>>,
    related: HashMap<i64, Vec<(String, Sym)>>,
    parents: HashMap<i64, Option<NodeRow>>,
    types: HashMap<(i64, bool), std::rc::Rc<Vec<NodeRow>>>,
    /// The decorator names of a class (entry-point evidence shared by its methods).
    class_decorators: HashMap<i64, Vec<String>>,
}

impl<'a> Walker<'a> {
    fn new(store: &'a Store) -> Self {
        Walker { store, nodes: HashMap::new(), related: HashMap::new(), parents: HashMap::new(), types: HashMap::new(), class_decorators: HashMap::new() }
    }

    /// The parent of a node (a method's class), read once per answer.
    fn parent(&mut self, id: i64) -> Result<Option<NodeRow>, ErrorItem> {
        if let Some(p) = self.parents.get(&id) {
            return Ok(p.clone());
        }
        let p = self.store.parent_of(id).map_err(backend_error)?;
        self.parents.insert(id, p.clone());
        Ok(p)
    }

    fn class_decorator_names(&mut self, class: i64) -> Result<Vec<String>, ErrorItem> {
        if let Some(d) = self.class_decorators.get(&class) {
            return Ok(d.clone());
        }
        let d: Vec<String> = self.store.decorators_of(class).map_err(backend_error)?.into_iter().map(|(n, _)| n).collect();
        self.class_decorators.insert(class, d.clone());
        Ok(d)
    }

    /// Reads the uncached nodes of `ids` into the cache in one statement.
    fn prefetch(&mut self, ids: impl IntoIterator<Item = i64>) -> Result<(), ErrorItem> {
        let mut want: Vec<i64> = ids.into_iter().filter(|id| !self.nodes.contains_key(id)).collect();
        want.sort_unstable();
        want.dedup();
        if want.is_empty() {
            return Ok(());
        }
        for n in self.store.nodes_by_ids(&want).map_err(backend_error)? {
            self.nodes.insert(n.id, Some(Sym::of(&n)));
        }
        for id in want {
            self.nodes.entry(id).or_insert(None);
        }
        Ok(())
    }

    fn sym(&mut self, id: i64) -> Result<Option<Sym>, ErrorItem> {
        if let Some(s) = self.nodes.get(&id) {
            return Ok(s.clone());
        }
        let s = self.store.node(id).map_err(backend_error)?.map(|n| Sym::of(&n));
        self.nodes.insert(id, s.clone());
        Ok(s)
    }

    /// Same-named methods in the super and sub types of a method's class, each with the
    /// dispatch kind that links them (`interface_dispatch` when either side is an interface).
    fn dispatch_related(&mut self, target: &Sym) -> Result<Vec<(String, Sym)>, ErrorItem> {
        if let Some(r) = self.related.get(&target.id) {
            return Ok(r.clone());
        }
        let out = self.hierarchy_methods(target, &[false, true])?;
        self.related.insert(target.id, out.clone());
        Ok(out)
    }

    /// The super (`sub` false) or sub types of a class, transitively up to `HIERARCHY_DEPTH`
    /// levels, in breadth-first order, each once; read once per answer and class.
    fn type_closure(&mut self, class: &NodeRow, sub: bool) -> Result<std::rc::Rc<Vec<NodeRow>>, ErrorItem> {
        if let Some(t) = self.types.get(&(class.id, sub)) {
            return Ok(t.clone());
        }
        let mut out = Vec::new();
        let mut seen: HashSet<i64> = HashSet::from([class.id]);
        let mut frontier = vec![class.clone()];
        for _ in 0..HIERARCHY_DEPTH {
            let mut next = Vec::new();
            for c in &frontier {
                for t in self.store.type_neighbours(c.id, sub).map_err(backend_error)? {
                    if !seen.insert(t.id) {
                        continue;
                    }
                    out.push(t.clone());
                    next.push(t);
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        let out = std::rc::Rc::new(out);
        self.types.insert((class.id, sub), out.clone());
        Ok(out)
    }

    /// Same-named methods up (`false`) and/or down (`true`) the hierarchy of a method's class.
    fn hierarchy_methods(&mut self, target: &Sym, directions: &[bool]) -> Result<Vec<(String, Sym)>, ErrorItem> {
        let mut out = Vec::new();
        if target.label == "Method" {
            if let Some(class) = self.parent(target.id)? {
                let class_is_iface = is_interface(&class);
                for &sub in directions {
                    let types = self.type_closure(&class, sub)?;
                    if types.is_empty() {
                        continue;
                    }
                    // The same-named children of every type in one statement, then in the
                    // walk's order (each type's in id order).
                    let ids: Vec<i64> = types.iter().map(|t| t.id).collect();
                    let mut by_parent: HashMap<i64, Vec<NodeRow>> = HashMap::new();
                    for (parent, m) in self.store.children_named_of(&ids, &target.name).map_err(backend_error)? {
                        by_parent.entry(parent).or_default().push(m);
                    }
                    for t in types.iter() {
                        for m in by_parent.remove(&t.id).unwrap_or_default() {
                            if m.label == "Method" {
                                let kind = if class_is_iface || is_interface(t) { "interface_dispatch" } else { "override_dispatch" };
                                out.push((kind.to_string(), Sym::of(&m)));
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// Whether `incoming(target)` would be non-empty, without reading the callers;
    /// `direct` says whether the target itself has callers (known from a batch read).
    fn has_incoming(&mut self, target: &Sym, direct: Option<bool>) -> Result<bool, ErrorItem> {
        let direct = match direct {
            Some(d) => d,
            None => self.store.has_calls_into(target.id).map_err(backend_error)?,
        };
        if direct {
            return Ok(true);
        }
        for (_, m) in self.dispatch_related(target)? {
            if self.store.has_calls_into(m.id).map_err(backend_error)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Every edge into `target`: direct ones, and calls bound to a related method in the
    /// hierarchy (weakened to at most `inferred`: the runtime type decides).
    fn incoming(&mut self, target: &Sym) -> Result<Vec<Incoming>, ErrorItem> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut sources: Vec<(Sym, Option<(String, Sym)>)> = vec![(target.clone(), None)];
        for (kind, m) in self.dispatch_related(target)? {
            sources.push((m.clone(), Some((kind, m))));
        }
        for (via, dispatch) in sources {
            let edges = self.store.calls_into(via.id).map_err(backend_error)?;
            self.prefetch(edges.iter().map(|e| e.src))?;
            for e in edges {
                if !seen.insert((e.src, e.line, e.col)) {
                    continue;
                }
                let Some(caller) = self.sym(e.src)? else { continue };
                let rel = relation(&caller, target, &e, dispatch.as_ref().map(|d| d.0.as_str()));
                let resolution = match &dispatch {
                    Some(_) => weaker(e.resolution.as_deref(), "inferred"),
                    None => e.resolution.clone().unwrap_or_else(|| "ambiguous".into()),
                };
                let receiver_type = e.receiver_type.clone().or_else(|| dispatch.as_ref().map(|(_, m)| class_of(&m.display)));
                out.push(Incoming { caller, callee: target.clone(), line: e.line, col: e.col, relation: rel, resolution, receiver_type, dispatch: dispatch.clone() });
            }
        }
        out.sort_by(|a, b| (&a.caller.path, a.line, a.col).cmp(&(&b.caller.path, b.line, b.col)));
        Ok(out)
    }
}

fn is_interface(n: &NodeRow) -> bool {
    matches!(n.props.get("kind").and_then(Value::as_str), Some("interface" | "trait" | "protocol"))
}

fn class_of(display: &str) -> String {
    display.rsplit_once('.').map_or(display, |(c, _)| c).to_string()
}

/// Finds the definitions named `symbol` in `path` (`Class.method`, a qualified name, or a
/// bare name; several for overloads), or the answer that explains why none.
fn find_targets(
    s: &Start<'_>,
    store: &Store,
    path: &str,
    symbol: &str,
) -> Result<Vec<Sym>, Envelope> {
    let symbol = symbol.trim();
    let defs = store.code_nodes_in_file(path).map_err(|e| s.fail("Reading the index failed.", backend_error(e)))?;
    let matches = |n: &NodeRow| {
        let sym = Sym::of(n);
        sym.name == symbol
            || sym.display == symbol
            || sym.qualified.as_deref().is_some_and(|q| q == symbol || q.ends_with(&format!(".{symbol}")) || q.ends_with(&format!("::{symbol}")))
    };
    let found: Vec<Sym> = defs.iter().filter(|n| matches(n)).map(Sym::of).collect();
    if !found.is_empty() {
        return Ok(found);
    }
    // Near misses in the file, then definitions of that name elsewhere.
    let lower = symbol.to_lowercase();
    let mut near: Vec<(usize, String)> = defs
        .iter()
        .map(Sym::of)
        .filter_map(|d| {
            let l = d.display.to_lowercase();
            let dist = edit_distance(&d.name.to_lowercase(), &lower).min(edit_distance(&l, &lower));
            (l.contains(&lower) || lower.contains(&d.name.to_lowercase()) || dist <= 2.max(lower.len() / 4)).then_some((dist, d.display))
        })
        .collect();
    near.sort();
    near.dedup_by(|a, b| a.1 == b.1);
    let suggestions: Vec<String> = near.into_iter().take(5).map(|n| n.1).collect();
    let elsewhere: Vec<String> = store
        .definitions_named(symbol.rsplit(['.', ':']).next().unwrap_or(symbol), false, None)
        .map_err(|e| s.fail("Reading the index failed.", backend_error(e)))?
        .into_iter()
        .map(|d| d.file_path)
        .filter(|p| p != path)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .take(5)
        .collect();
    let mut hint = String::new();
    if !suggestions.is_empty() {
        hint.push_str(&format!("Did you mean {}? ", suggestions.iter().map(|x| format!("'{x}'")).collect::<Vec<_>>().join(", ")));
    }
    if !elsewhere.is_empty() {
        hint.push_str(&format!("'{symbol}' is defined in {}.", elsewhere.join(", ")));
    }
    if hint.is_empty() {
        hint = "Use code.find_symbol to locate the symbol's file first.".into();
    }
    let e = ErrorItem::new(code::SYMBOL_NOT_FOUND, format!("Symbol '{symbol}' is not defined in '{path}'."))
        .suggestion(hint.trim().to_string())
        .target(symbol)
        .detail("symbol", json!(symbol))
        .detail("path", json!(path))
        .detail("suggestions", json!(suggestions))
        .detail("definedIn", json!(elsewhere));
    Err(s.fail("Symbol not found.", e))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The shared start of both traces: arguments, the starting file, the graph, the targets.
struct Traced<'a> {
    start: Start<'a>,
    path: String,
    symbol: String,
    targets: Vec<Sym>,
}

fn begin<'a>(
    tool: &'static str,
    raw: &'a Map<String, Value>,
    cx: &Context<'_>,
    empty: impl Fn(&str, &str) -> Value,
    extra: impl FnOnce(&mut Start<'a>),
) -> Result<Traced<'a>, Envelope> {
    let mut s = Start::new(tool, raw, json!({}));
    let path = s.args.required_str("path");
    let symbol = s.args.required_str("symbol");
    let language = s.args.optional_enum("language", &language_names());
    let framework = s.args.optional_enum("framework", &framework_names());
    extra(&mut s);
    s.empty = empty(path.trim(), symbol.trim());
    s.detection(language.as_deref(), framework.as_deref());
    s.check()?;
    let scope = s.scope(cx.workspace, Some(&path))?;
    s.empty = empty(&scope.rel, symbol.trim());
    if scope.is_dir {
        let e = ErrorItem::new(code::INVALID_INPUT, format!("Path '{}' is a directory; pass the file that defines '{}'.", scope.rel, symbol.trim()))
            .suggestion("Use code.find_symbol to find the defining file.")
            .detail("issues", json!([{"field": "path", "message": "Expected a file, got a directory.", "type": "value_error"}]));
        return Err(s.fail("Request validation failed.", e));
    }
    let Some(store) = cx.store else {
        // No graph yet: the first index is still running.
        return Ok(Traced { start: s, path: scope.rel, symbol: symbol.trim().to_string(), targets: Vec::new() });
    };
    let indexed = store.file_language(&scope.rel).map_err(|e| s.fail("Reading the index failed.", backend_error(e)))?;
    if indexed.is_none() {
        if language_of(&scope.rel).is_none() {
            let e = ErrorItem::new(code::UNSUPPORTED_FILE, format!("'{}' is not a source file of a supported language.", scope.rel))
                .suggestion(format!("Supported languages: {}.", language_names().join(", ")))
                .target(scope.rel.clone());
            return Err(s.fail("Unsupported file.", e));
        }
        if cx.index_complete {
            let why = store.skipped_reason(&scope.rel).ok().flatten().unwrap_or_else(|| "it is ignored (gitignore or an exclude)".into());
            let e = ErrorItem::new(code::UNSUPPORTED_FILE, format!("'{}' is not in the index: {why}.", scope.rel))
                .suggestion("Check .gitignore and the ingest excludes, or re-index the workspace.")
                .target(scope.rel.clone());
            return Err(s.fail("Unsupported file.", e));
        }
        return Ok(Traced { start: s, path: scope.rel, symbol: symbol.trim().to_string(), targets: Vec::new() });
    }
    let targets = find_targets(&s, store, &scope.rel, &symbol)?;
    Ok(Traced { start: s, path: scope.rel, symbol: symbol.trim().to_string(), targets })
}

fn unresolved_named(store: Option<&Store>, name: &str) -> Result<(Vec<Value>, usize), ErrorItem> {
    let Some(store) = store else { return Ok((Vec::new(), 0)) };
    let sites = store.sites_named(name, "unresolved").map_err(backend_error)?;
    let total = sites.len();
    let items = sites
        .into_iter()
        .take(MAX_UNRESOLVED)
        .map(|s| json!({"path": s.file_path, "line": s.line, "column": s.col + 1, "name": s.name, "receiver": s.receiver}))
        .collect();
    Ok((items, total))
}

// ---------------------------------------------------------------------------------------
// trace_callers

pub(crate) fn callers_empty(path: &str, symbol: &str) -> Value {
    json!({"target": {"path": path, "symbol": symbol, "language": language_of(path)}, "count": 0, "returnedCount": 0,
           "items": [], "recursive": null, "unresolved": [], "unresolvedCount": 0})
}

fn caller_record(inc: &Incoming, snippets: &mut Snippets, ws: &Workspace) -> Value {
    json!({
        "path": inc.caller.path,
        "line": inc.line.unwrap_or(1).max(1),
        "column": inc.col.map(|c| c + 1),
        "caller": inc.caller.display,
        "callerSymbol": (inc.caller.label != "File").then(|| inc.caller.qualified.clone().unwrap_or_else(|| inc.caller.display.clone())),
        "relation": inc.relation,
        "language": language_of(&inc.caller.path),
        "snippet": snippets.line(ws, &inc.caller.path, inc.line),
        "receiverType": inc.receiver_type,
        "resolution": inc.resolution,
    })
}

pub fn trace_callers(raw: &Map<String, Value>, cx: &Context<'_>) -> Envelope {
    let mut recursive = false;
    let mut max_depth_arg = None;
    let t = begin("code.trace_callers", raw, cx, callers_empty, |s| {
        recursive = s.args.bool("recursive", false);
        max_depth_arg = s.args.optional_int("max_depth", 1, 8);
    });
    let mut t = match t {
        Ok(t) => t,
        Err(e) => return e,
    };
    let max_depth = max_depth_arg.unwrap_or(3) as usize;
    t.start.args.echo("max_depth", if recursive { json!(max_depth) } else { json!(max_depth_arg) });
    t.start.meta.query = t.start.args.query.clone();
    let ws = cx.workspace;
    let mut snippets = Snippets::default();
    let mut errors = index_notes(cx);
    let name = t.targets.first().map_or_else(|| t.symbol.rsplit(['.', ':']).next().unwrap_or(&t.symbol).to_string(), |s| s.name.clone());
    let (unresolved, unresolved_total) = match unresolved_named(cx.store, &name) {
        Ok(u) => u,
        Err(e) => return t.start.fail("Reading the index failed.", e),
    };
    let target_display = t.targets.first().map_or(t.symbol.clone(), |s| s.display.clone());
    let target_json = json!({"path": t.path, "symbol": target_display, "language": language_of(&t.path)});

    let mut direct: Vec<Incoming> = Vec::new();
    if let Some(store) = cx.store {
        let mut w = Walker::new(store);
        for target in &t.targets {
            match w.incoming(target) {
                Ok(mut v) => direct.append(&mut v),
                Err(e) => return t.start.fail("Reading the index failed.", e),
            }
        }
        direct.sort_by(|a, b| (&a.caller.path, a.line, a.col).cmp(&(&b.caller.path, b.line, b.col)));
        direct.dedup_by(|a, b| a.caller.id == b.caller.id && a.line == b.line && a.col == b.col);
        let total_direct = direct.len();
        let items: Vec<Value> = direct.iter().take(MAX_DIRECT_ITEMS).map(|i| caller_record(i, &mut snippets, ws)).collect();
        let returned = items.len();
        let mut rec_json = Value::Null;
        let mut summary;
        if recursive {
            let root = t.targets.first().cloned();
            match root.map(|r| recurse(&mut w, &t.targets, r, max_depth, &mut snippets, ws)).transpose() {
                Ok(Some(r)) => {
                    summary = format!(
                        "Found {} and {} of '{}' up to depth {max_depth}.",
                        plural(r.direct_count, "direct caller", "direct callers"),
                        plural(r.indirect_count, "indirect caller", "indirect callers"),
                        target_display
                    );
                    if r.pruned {
                        t.start.meta.truncated = true;
                        errors.insert(
                            0,
                            ErrorItem::new(code::RESULT_TRUNCATED, "The recursive payload was pruned to its safety caps; the summary counts cover the whole traversal.")
                                .suggestion("Lower max_depth or trace a more specific symbol.")
                                .detail("maxDepth", json!(max_depth))
                                .detail("nodeCount", r.json["nodeCount"].clone())
                                .detail("pathCount", r.json["pathCount"].clone()),
                        );
                    }
                    rec_json = r.json;
                }
                Ok(None) => summary = format!("Found 0 callers of '{target_display}'."),
                Err(e) => return t.start.fail("Reading the index failed.", e),
            }
        } else {
            summary = format!("Found {} of '{}'.", plural(total_direct, "caller", "callers"), target_display);
        }
        if returned < total_direct {
            t.start.meta.truncated = true;
            errors.insert(0, ErrorItem::truncated(returned, Some(total_direct), MAX_DIRECT_ITEMS));
            summary = summary.trim_end_matches('.').to_string() + " and returned a truncated subset.";
        }
        if unresolved_total > 0 {
            summary = format!(
                "{} {} named '{name}' could not be resolved (see unresolved).",
                summary,
                plural(unresolved_total, "call site", "call sites")
            );
        }
        t.start.count("returnedCount", Some(returned));
        t.start.count("totalMatched", Some(total_direct));
        t.start.count("unresolvedCount", Some(unresolved_total));
        // Large parts are moved in after `json!`, which would deep-copy them.
        let mut data = json!({"target": target_json, "count": returned, "returnedCount": returned, "items": null,
                              "recursive": null, "unresolved": null, "unresolvedCount": unresolved_total});
        data["items"] = Value::Array(items);
        data["recursive"] = rec_json;
        data["unresolved"] = Value::Array(unresolved);
        return Envelope::ok(t.start.tool, summary, data, errors, t.start.meta);
    }
    t.start.count("returnedCount", Some(0));
    let data = json!({"target": target_json, "count": 0, "returnedCount": 0, "items": [], "recursive": null,
                      "unresolved": unresolved, "unresolvedCount": unresolved_total});
    Envelope::ok(t.start.tool, format!("Found 0 callers of '{target_display}'."), data, errors, t.start.meta)
}

struct Recursion {
    json: Value,
    pruned: bool,
    direct_count: usize,
    indirect_count: usize,
}

struct RNode {
    sym: Sym,
    depth: usize,
    parent: Option<usize>,
    via: Option<Incoming>,
    /// Callers were looked up (false at the depth limit).
    expanded: bool,
    has_callers: bool,
    new_children: usize,
}

fn path_to(nodes: &[RNode], mut i: usize) -> Vec<Value> {
    let mut out = Vec::new();
    loop {
        let n = &nodes[i];
        out.push(json!({"path": n.sym.path, "symbol": n.sym.display, "depth": n.depth}));
        match n.parent {
            Some(p) => i = p,
            None => break,
        }
    }
    out.reverse();
    out
}

/// The keys of the nodes from the root to node `i`.
fn keys_to(nodes: &[RNode], mut i: usize) -> Vec<String> {
    let mut out = vec![nodes[i].sym.key()];
    while let Some(p) = nodes[i].parent {
        out.push(nodes[p].sym.key());
        i = p;
    }
    out.reverse();
    out
}

/// Why a symbol looks like a public entry point (its evidence, named).
/// Decorator names and exposing endpoints' frameworks of the recursion's nodes.
#[derive(Default)]
struct Evidence {
    decorators: HashMap<i64, Vec<String>>,
    exposed: HashMap<i64, Vec<Option<String>>>,
}

fn entry_reasons(w: &mut Walker<'_>, evidence: &Evidence, sym: &Sym, has_callers: bool) -> Result<Vec<String>, ErrorItem> {
    let prefix = lang_prefix(language_of(&sym.path));
    let mut reasons = Vec::new();
    if sym.label != "File" {
        for name in evidence.decorators.get(&sym.id).into_iter().flatten() {
            if is_entry_annotation(&name) {
                reasons.push(format!("{prefix}.method_annotation:@{name}"));
            }
        }
        if sym.label == "Method" {
            if let Some(class) = w.parent(sym.id)? {
                for name in w.class_decorator_names(class.id)? {
                    if matches!(name.rsplit('.').next().unwrap_or(&name), "RestController" | "Controller" | "Component" | "Service" | "Resolver") {
                        reasons.push(format!("{prefix}.controller_annotation:@{name}"));
                    }
                }
            }
        }
        for fw in evidence.exposed.get(&sym.id).into_iter().flatten() {
            let fw = fw.as_deref().unwrap_or("endpoint");
            reasons.push(format!("{prefix}.endpoint_handler:{fw}"));
        }
        if matches!(sym.name.as_str(), "loader" | "action" | "clientLoader" | "clientAction") && is_route_file(&sym.path) {
            reasons.push(format!("{prefix}.loader_symbol"));
        }
        if sym.name == "main" {
            reasons.push(format!("{prefix}.main_function"));
        }
        if sym.name.starts_with("test") || sym.name.starts_with("Test") {
            reasons.push(format!("{prefix}.test_function"));
        }
    }
    if is_route_file(&sym.path) {
        reasons.push(format!("{prefix}.route_file"));
    }
    if !has_callers && reasons.is_empty() {
        reasons.push(format!("{prefix}.no_known_callers"));
    }
    reasons.dedup();
    Ok(reasons)
}

fn is_entry_annotation(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name);
    matches!(
        last,
        "GetMapping" | "PostMapping" | "PutMapping" | "PatchMapping" | "DeleteMapping" | "RequestMapping" | "QueryMapping"
            | "MutationMapping" | "SubscriptionMapping" | "SchemaMapping" | "Get" | "Post" | "Put" | "Patch" | "Delete"
            | "route" | "get" | "post" | "put" | "patch" | "delete" | "websocket" | "command" | "task" | "Scheduled"
            | "EventListener" | "KafkaListener" | "Test" | "main" | "api_view" | "action"
    )
}

fn is_route_file(path: &str) -> bool {
    path.starts_with("app/routes/") || path.contains("/app/routes/") || path.ends_with("app/root.tsx") || path.ends_with("app/root.jsx")
}

fn recurse(
    w: &mut Walker<'_>,
    targets: &[Sym],
    root: Sym,
    max_depth: usize,
    snippets: &mut Snippets,
    ws: &Workspace,
) -> Result<Recursion, ErrorItem> {
    let mut nodes: Vec<RNode> = vec![RNode { sym: root.clone(), depth: 0, parent: None, via: None, expanded: false, has_callers: false, new_children: 0 }];
    let mut index: HashMap<i64, usize> = HashMap::from([(root.id, 0)]);
    for t in targets.iter().skip(1) {
        index.insert(t.id, 0); // overloads share the root
    }
    let mut adjacency: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut adjacency_seen: HashSet<(String, String)> = HashSet::new();
    let mut cycles: Vec<Value> = Vec::new();
    let mut records: Vec<(usize, Value)> = Vec::new(); // (depth, classification record)
    let mut chains: BTreeMap<(String, String), (Value, Vec<Value>)> = BTreeMap::new();
    let mut edge_count = 0usize;
    let mut exhausted = false;
    let mut queue: VecDeque<usize> = VecDeque::from([0]);
    let mut leaves: Vec<usize> = Vec::new();
    while let Some(i) = queue.pop_front() {
        if nodes[i].depth >= max_depth {
            // The depth limit: only ask whether there is more (below, for all at once).
            if i != 0 {
                leaves.push(i);
            }
            continue;
        }
        nodes[i].expanded = true;
        let syms: Vec<Sym> = if i == 0 { targets.to_vec() } else { vec![nodes[i].sym.clone()] };
        let mut incoming = Vec::new();
        for s in &syms {
            incoming.extend(w.incoming(s)?);
        }
        nodes[i].has_callers = !incoming.is_empty();
        let key = nodes[i].sym.key();
        let depth = nodes[i].depth + 1;
        for inc in incoming {
            edge_count += 1;
            let ckey = inc.caller.key();
            if adjacency_seen.insert((key.clone(), ckey.clone())) {
                adjacency.entry(key.clone()).or_default().push(ckey.clone());
            }
            // The record is only kept for a new node or an interface chain.
            let wanted = inc.dispatch.is_some() || !index.contains_key(&inc.caller.id);
            let record = if wanted {
                let mut record = caller_record(&inc, snippets, ws);
                let m = record.as_object_mut().unwrap();
                m.insert("symbol".into(), json!(inc.caller.display));
                m.insert("depth".into(), json!(depth));
                m.insert("calls".into(), json!({"path": nodes[i].sym.path, "symbol": nodes[i].sym.display}));
                m.remove("callerSymbol");
                record
            } else {
                Value::Null
            };
            if let Some((kind, bound)) = &inc.dispatch {
                let chain = chains.entry((kind.clone(), bound.key())).or_insert_with(|| {
                    (
                        json!({"kind": kind, "probable": true,
                               "interface": {"name": class_of(&bound.display), "path": bound.path, "symbol": bound.display},
                               "implementation": {"path": inc.callee.path, "symbol": inc.callee.display}}),
                        Vec::new(),
                    )
                });
                chain.1.push(record.clone());
            }
            match index.get(&inc.caller.id) {
                Some(&seen) => {
                    // Already in the tree: a cycle when it is an ancestor of this node.
                    let mut a = Some(i);
                    while let Some(x) = a {
                        if x == seen {
                            // The contract's schema: the keys from the root to the caller,
                            // which closes the cycle.
                            let mut p = keys_to(&nodes, i);
                            p.push(ckey.clone());
                            cycles.push(json!({"fromKey": ckey, "toKey": key, "path": p}));
                            break;
                        }
                        a = nodes[x].parent;
                    }
                }
                None => {
                    if nodes.len() >= MAX_VISITED {
                        exhausted = true;
                        continue;
                    }
                    let ni = nodes.len();
                    index.insert(inc.caller.id, ni);
                    records.push((depth, {
                        let mut r = record;
                        r["pathFromTarget"] = Value::Null;
                        r["__node"] = json!(ni);
                        r
                    }));
                    nodes.push(RNode { sym: inc.caller.clone(), depth, parent: Some(i), via: Some(inc), expanded: false, has_callers: false, new_children: 0 });
                    nodes[i].new_children += 1;
                    queue.push_back(ni);
                }
            }
        }
    }
    let leaf_ids: Vec<i64> = leaves.iter().map(|&i| nodes[i].sym.id).collect();
    let called: HashSet<i64> = w.store.ids_with_calls_into(&leaf_ids).map_err(backend_error)?.into_iter().collect();
    for &i in &leaves {
        let sym = nodes[i].sym.clone();
        nodes[i].has_callers = w.has_incoming(&sym, Some(called.contains(&sym.id)))?;
    }
    // Entry-point evidence of every node, read in two statements.
    let ids: Vec<i64> = nodes.iter().skip(1).map(|n| n.sym.id).collect();
    let mut evidence = Evidence::default();
    for (id, name) in w.store.decorator_names_of(&ids).map_err(backend_error)? {
        evidence.decorators.entry(id).or_default().push(name);
    }
    for (id, fw) in w.store.exposing_frameworks_of(&ids).map_err(backend_error)? {
        evidence.exposed.entry(id).or_default().push(fw);
    }
    // Leaves give the paths; nodes cut by the depth limit are `truncated`.
    let mut paths = Vec::new();
    let mut truncated = Vec::new();
    let mut entries = Vec::new();
    let mut entry_nodes = HashSet::new();
    for (i, n) in nodes.iter().enumerate().skip(1) {
        if n.new_children == 0 {
            paths.push(Value::Array(path_to(&nodes, i)));
        }
        if !n.expanded && n.has_callers {
            truncated.push(json!({"key": n.sym.key(), "path": n.sym.path, "symbol": n.sym.display, "depth": n.depth}));
        }
    }
    for i in 1..nodes.len() {
        let (sym, has_callers, cut) = (nodes[i].sym.clone(), nodes[i].has_callers, !nodes[i].expanded && nodes[i].has_callers);
        let reasons = entry_reasons(w, &evidence, &sym, has_callers || cut)?;
        let evidence = reasons.iter().any(|r| !r.ends_with(".no_known_callers"));
        if evidence || !has_callers {
            entry_nodes.insert(i);
            let mut entry = json!({"key": sym.key(), "path": sym.path, "symbol": sym.display, "depth": nodes[i].depth,
                                   "reasons": reasons, "probable": evidence, "pathFromTarget": null});
            entry["pathFromTarget"] = Value::Array(path_to(&nodes, i));
            entries.push(entry);
        }
    }
    let node_count = nodes.len();
    let path_count = paths.len();
    let direct_count = nodes.iter().filter(|n| n.depth == 1).count();
    let indirect_count = nodes.iter().filter(|n| n.depth > 1).count();
    let max_observed = nodes.iter().map(|n| n.depth).max().unwrap_or(0);
    let probable_count = entries.iter().filter(|e| e["probable"] == json!(true)).count();
    let chain_count = chains.len();

    let mut pruned = exhausted;
    let mut cap = |v: Vec<Value>, n: usize| {
        if v.len() > n {
            pruned = true;
        }
        v.into_iter().take(n).collect::<Vec<_>>()
    };
    let node_json: Vec<Value> = nodes
        .iter()
        .map(|n| {
            json!({"key": n.sym.key(), "path": n.sym.path, "symbol": n.sym.display, "depth": n.depth,
                   "via": n.via.as_ref().map(|v| json!({"relation": v.relation, "line": v.line, "column": v.col.map(|c| c + 1),
                          "snippet": snippets.line(ws, &v.caller.path, v.line), "resolution": v.resolution}))})
        })
        .collect();
    let finish_records = |depth_ok: &dyn Fn(usize, usize) -> bool| -> Vec<Value> {
        records
            .iter()
            .filter(|(d, r)| depth_ok(*d, r["__node"].as_u64().unwrap_or(0) as usize))
            .map(|(_, r)| {
                let mut r = r.clone();
                let ni = r["__node"].as_u64().unwrap_or(0) as usize;
                let m = r.as_object_mut().unwrap();
                m.remove("__node");
                m.insert("pathFromTarget".into(), Value::Array(path_to(&nodes, ni)));
                r
            })
            .collect()
    };
    let direct_records = finish_records(&|d, _| d == 1);
    let indirect_records = finish_records(&|d, _| d > 1);
    let entry_records = finish_records(&|_, ni| entry_nodes.contains(&ni));
    let chain_json: Vec<Value> = chains
        .into_values()
        .map(|(mut head, callers)| {
            let implementation = head["implementation"].clone();
            head["implementations"] = Value::Array(vec![implementation]);
            head["callers"] = Value::Array(callers.into_iter().take(CAP_CALLERS).collect::<Vec<_>>());
            head
        })
        .collect();
    // Built with nulls, then the large parts moved in (`json!` would deep-copy them).
    let root_json = node_json[0].clone();
    let mut json = json!({
        "enabled": true,
        "root": root_json,
        "maxDepth": max_depth,
        "maxDepthObserved": max_observed,
        "nodeCount": node_count,
        "edgeCount": edge_count,
        "pathCount": path_count,
        "nodes": null,
        "adjacency": adjacency,
        "paths": null,
        "cycles": null,
        "truncated": null,
        "probableEntryPoints": null,
        "classifications": {
            "summary": {"directCallerCount": direct_count, "indirectCallerCount": indirect_count,
                        "probablePublicEntryPointCount": probable_count, "implementationInterfaceChainCount": chain_count},
            "directCallers": null,
            "indirectCallers": null,
            "probablePublicEntryPoints": null,
            "implementationInterfaceChain": null,
        }
    });
    json["nodes"] = Value::Array(cap(node_json, CAP_NODES));
    json["paths"] = Value::Array(cap(paths, CAP_PATHS));
    json["cycles"] = Value::Array(cap(cycles, CAP_CYCLES));
    json["truncated"] = Value::Array(cap(truncated, CAP_TRUNCATED));
    json["probableEntryPoints"] = Value::Array(cap(entries, CAP_ENTRY_POINTS));
    let c = &mut json["classifications"];
    c["directCallers"] = Value::Array(cap(direct_records, CAP_CALLERS));
    c["indirectCallers"] = Value::Array(cap(indirect_records, CAP_CALLERS));
    c["probablePublicEntryPoints"] = Value::Array(cap(entry_records, CAP_CALLERS));
    c["implementationInterfaceChain"] = Value::Array(cap(chain_json, CAP_CHAINS));
    Ok(Recursion { json, pruned, direct_count, indirect_count })
}

// ---------------------------------------------------------------------------------------
// trace_symbol

pub(crate) fn symbol_empty(path: &str, symbol: &str) -> Value {
    json!({"entrypoint": {"path": path, "symbol": symbol, "language": language_of(path)}, "fileCount": 0, "items": [],
           "steps": [], "unresolved": [], "unresolvedCount": 0})
}

pub fn trace_symbol(raw: &Map<String, Value>, cx: &Context<'_>) -> Envelope {
    let t = match begin("code.trace_symbol", raw, cx, symbol_empty, |_| {}) {
        Ok(t) => t,
        Err(e) => return e,
    };
    let mut s = t.start;
    let mut errors = index_notes(cx);
    let display = t.targets.first().map_or(t.symbol.clone(), |x| x.display.clone());
    let entry = json!({"path": t.path, "symbol": display, "language": language_of(&t.path)});
    let mut files: Vec<String> = vec![t.path.clone()];
    let mut file_set: HashSet<String> = HashSet::from([t.path.clone()]);
    let mut steps = Vec::new();
    let mut unresolved = Vec::new();
    let mut unresolved_total = 0usize;
    let mut cut = false;
    if let Some(store) = cx.store {
        let mut w = Walker::new(store);
        let mut seen: HashSet<i64> = HashSet::new();
        // (symbol, depth); a class stands for its methods, a function for its nested ones.
        let mut queue: VecDeque<(Sym, usize)> = t.targets.iter().map(|x| (x.clone(), 0)).collect();
        while let Some((sym, depth)) = queue.pop_front() {
            if !seen.insert(sym.id) {
                continue;
            }
            if seen.len() > FORWARD_MAX_SYMBOLS {
                cut = true;
                break;
            }
            let children = match store.children_of(sym.id) {
                Ok(c) => c,
                Err(e) => return s.fail("Reading the index failed.", backend_error(e)),
            };
            for c in children {
                queue.push_back((Sym::of(&c), depth));
            }
            let out = match store.calls_from(sym.id) {
                Ok(o) => o,
                Err(e) => return s.fail("Reading the index failed.", backend_error(e)),
            };
            for e in out {
                let Ok(Some(to)) = w.sym(e.dst) else { continue };
                if steps.len() < MAX_STEPS {
                    steps.push(json!({"fromPath": sym.path, "fromSymbol": sym.display, "toPath": to.path, "toSymbol": to.display,
                                      "line": e.line.unwrap_or(1).max(1), "resolution": e.resolution, "depth": depth + 1}));
                } else {
                    cut = true;
                }
                if file_set.insert(to.path.clone()) {
                    files.push(to.path.clone());
                }
                // A call bound to an interface or base method may run any implementation.
                let impls = match w.hierarchy_methods(&to, &[true]) {
                    Ok(v) => v,
                    Err(e) => return s.fail("Reading the index failed.", e),
                };
                let mut next = vec![to.clone()];
                for (_, m) in impls {
                    if steps.len() < MAX_STEPS {
                        steps.push(json!({"fromPath": sym.path, "fromSymbol": sym.display, "toPath": m.path, "toSymbol": m.display,
                                          "line": e.line.unwrap_or(1).max(1), "resolution": weaker(e.resolution.as_deref(), "inferred"),
                                          "depth": depth + 1}));
                    } else {
                        cut = true;
                    }
                    if file_set.insert(m.path.clone()) {
                        files.push(m.path.clone());
                    }
                    next.push(m);
                }
                for n in next {
                    if depth + 1 < FORWARD_DEPTH {
                        queue.push_back((n, depth + 1));
                    } else if !seen.contains(&n.id) {
                        cut = true;
                    }
                }
            }
            match store.sites_from(Some(sym.id), &sym.path, "unresolved") {
                Ok(sites) => {
                    unresolved_total += sites.len();
                    for site in sites {
                        if unresolved.len() < MAX_UNRESOLVED {
                            unresolved.push(json!({"path": site.file_path, "line": site.line, "column": site.col + 1,
                                                   "name": site.name, "receiver": site.receiver}));
                        }
                    }
                }
                Err(e) => return s.fail("Reading the index failed.", backend_error(e)),
            }
        }
    }
    files[1..].sort();
    let items: Vec<Value> = files.iter().map(|p| json!({"path": p, "language": language_of(p)})).collect();
    let n = items.len();
    s.count("returnedCount", Some(n));
    s.count("stepCount", Some(steps.len()));
    s.count("unresolvedCount", Some(unresolved_total));
    let mut summary = format!("Traced '{display}' forward to {}.", plural(n, "related file", "related files"));
    if cut {
        s.meta.truncated = true;
        errors.insert(
            0,
            ErrorItem::new(code::RESULT_TRUNCATED, format!("The forward trace stopped at depth {FORWARD_DEPTH} or {FORWARD_MAX_SYMBOLS} symbols; deeper calls are not listed."))
                .suggestion("Trace one of the listed callees to go further.")
                .detail("maxDepth", json!(FORWARD_DEPTH))
                .detail("returned", json!(steps.len())),
        );
        summary = summary.trim_end_matches('.').to_string() + " and returned a truncated subset.";
    }
    let data = json!({"entrypoint": entry, "fileCount": n, "items": items, "steps": steps, "unresolved": unresolved,
                      "unresolvedCount": unresolved_total});
    Envelope::ok(s.tool, summary, data, errors, s.meta)
}
