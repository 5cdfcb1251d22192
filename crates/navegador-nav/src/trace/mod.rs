//! `code.trace_callers` and `code.trace_symbol`: walks of the call graph, backward and
//! forward, from a symbol defined in a given file.
//!
//! Callers come from `CALLS`/`REFERENCES` edges (the ingest resolved them once; nothing is
//! parsed per call; a decorator application is a `REFERENCES` edge from the decorated
//! symbol), in the target's own file too, plus dispatch through the class hierarchy both
//! ways: a call resolved to an interface (or base) method may reach the target
//! implementation, and a call resolved to an implementation reaches the interface method's
//! contract. Every caller and step says how sure it is (`resolution`).
//!
//! What is listed is what the graph knows: by default `exact` and `inferred` edges, one page
//! of them (`limit`, `offset`); `ambiguous` edges (a site with several candidate
//! definitions) are counted and listed only on request (`include_ambiguous`,
//! `min_resolution`). Call sites of the target's name the index could not bind are
//! `unresolved` (those of the target's language family), calls into builtins and outside
//! packages `external` (counted).

mod callers;
mod forward;

pub use callers::trace_callers;
pub(crate) use callers::callers_empty;
pub use forward::trace_symbol;
pub(crate) use forward::symbol_empty;

use std::collections::{HashMap, HashSet};

use navegador_model::{is_test_path, Language};
use navegador_store::{CallEdgeRow, NodeRow, SiteRow, Store};
use serde_json::{json, Map, Value};

use crate::envelope::{code, plural, Envelope, ErrorItem};
use crate::workspace::{call_relation, framework_names, language_names, language_of, relation_prefix, Workspace};
use crate::{backend_error, Context, Start};

/// Safety caps of the recursive payload (the contract's); `limit` lowers them.
const CAP_NODES: usize = 200;
const CAP_PATHS: usize = 50;
const CAP_CYCLES: usize = 50;
const CAP_TRUNCATED: usize = 100;
const CAP_ENTRY_POINTS: usize = 50;
const CAP_CALLERS: usize = 100;
const CAP_CHAINS: usize = 50;
/// Bounds of the work itself (far above what an answer shows).
const MAX_VISITED: usize = 5_000;
/// The forward trace follows calls this deep, over at most this many symbols.
const FORWARD_DEPTH: usize = 5;
const FORWARD_MAX_SYMBOLS: usize = 1_000;
/// Steps kept in memory (the count goes on past it).
const MAX_STEPS: usize = 5_000;
/// How far up and down the class hierarchy dispatch is followed.
const HIERARCHY_DEPTH: usize = 8;
/// The default page: what keeps an answer a few KB; `limit` asks for more.
const DEFAULT_LIMIT: i64 = 25;
const MAX_LIMIT: i64 = 500;
const MAX_OFFSET: i64 = 1_000_000;
/// At the default `limit`, a recursive answer (its flat page and its payload) is cut until
/// it is about this size.
const RECURSIVE_BUDGET: usize = 15 * 1024;
/// A receiver as written is shown up to this many characters, on one line.
const RECEIVER_CHARS: usize = 60;

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
            // Only a stored path is followed (never `..`): a snippet cannot come from outside.
            let file = navegador_model::path::join_stored(ws.root(), path);
            let text = file.and_then(|f| std::fs::read(f).ok()).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
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

/// How a caller reaches a callee: `<language>.<how>`.
fn relation(caller: &Sym, callee: &Sym, e: &CallEdgeRow, dispatch: Option<&str>) -> String {
    let language = language_of(&caller.path);
    let prefix = relation_prefix(language);
    if let Some(d) = dispatch {
        return format!("{prefix}.{d}");
    }
    let imported = caller.path != callee.path;
    let how = match (e.site_kind.as_deref(), e.edge_type.as_str()) {
        (Some("new"), _) => if imported { "imported_new" } else { "new" },
        // `@d` / `@d(...)` on a definition: the decorated symbol uses the decorator.
        (Some("decorator"), _) => "decorator",
        (Some("reference"), _) | (_, "REFERENCES") => if imported { "imported_reference" } else { "reference" },
        _ => match (call_relation(language), e.receiver.as_deref()) {
            (Some(every), _) => every,
            (None, None) => if imported { "imported_call" } else { "direct_call" },
            (None, Some(_)) if callee.label != "Method" => "namespace_call",
            (None, Some(_)) => "method_call",
        },
    };
    format!("{prefix}.{how}")
}

/// How sure a resolution is, most sure first: `exact` 0, `inferred` 1, `ambiguous` 2.
fn rank(resolution: &str) -> u8 {
    match resolution {
        "exact" => 0,
        "inferred" => 1,
        _ => 2,
    }
}

/// The resolutions, most sure first (the `min_resolution` values).
const RESOLUTIONS: [&str; 3] = ["exact", "inferred", "ambiguous"];

/// The weaker of two resolutions.
fn weaker(a: Option<&str>, floor: &str) -> String {
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
    /// The site has a receiver (`x.m()`), typed or not.
    has_receiver: bool,
    /// An ambiguous edge's reason and candidates ([`ambiguity`]).
    ambiguity: Option<Value>,
    /// Set for dispatch through the hierarchy: (kind, the type whose method the call bound).
    dispatch: Option<(String, Sym)>,
    /// A direct edge, or a dispatch the workspace determines (see [`Related`]); any other
    /// dispatch is only possible: counted, listed with `include_dispatch`.
    determined: bool,
}

/// A same-named method up or down the class hierarchy of a target: calls bound to it may
/// dispatch to the target.
#[derive(Debug, Clone)]
struct Related {
    /// `interface_dispatch` or `override_dispatch`.
    kind: String,
    sym: Sym,
    /// The dispatch is known, not only possible: the call's bound method declares no body
    /// of its own (an interface or abstract method) and the target is its only
    /// implementation in the workspace. A base method with a body, or one of several
    /// implementations, leaves it to the runtime type: possible, not known.
    determined: bool,
}

/// The graph walks of one answer, with a node cache.
struct Walker<'a> {
    store: &'a Store,
    nodes: HashMap<i64, Option<Sym>>,
    related: HashMap<i64, Vec<Related>>,
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
    /// dispatch kind that links them (`interface_dispatch` when either side is an interface)
    /// and whether the workspace determines the dispatch (only upwards: a call bound to an
    /// override never runs the base method it overrides).
    fn dispatch_related(&mut self, target: &Sym) -> Result<Vec<Related>, ErrorItem> {
        if let Some(r) = self.related.get(&target.id) {
            return Ok(r.clone());
        }
        let mut out = Vec::new();
        for (sub, (kind, m, bodyless)) in self.hierarchy_methods(target, &[false, true])? {
            let determined = !sub && bodyless && self.only_implementation(&m)?.is_some_and(|i| i.id == target.id);
            out.push(Related { kind, sym: m, determined });
        }
        self.related.insert(target.id, out.clone());
        Ok(out)
    }

    /// The one method with a body that a call bound to `bound` can run, when there is
    /// exactly one (itself, or a single implementation down its class's hierarchy).
    fn only_implementation(&mut self, bound: &Sym) -> Result<Option<Sym>, ErrorItem> {
        let Some(bound_row) = self.store.node(bound.id).map_err(backend_error)? else { return Ok(None) };
        if !self.bodyless(&bound_row)? {
            return Ok(Some(bound.clone()));
        }
        let mut bodies = Vec::new();
        for (_, (_, m, bodyless)) in self.hierarchy_methods(bound, &[true])? {
            if !bodyless {
                bodies.push(m);
            }
        }
        Ok(if bodies.len() == 1 { bodies.pop() } else { None })
    }

    /// Whether a method declares no body of its own: marked `abstract` (`abstract` in its
    /// signature, or an `abstractmethod` decorator), or a declaration whose whole text is
    /// its signature (an interface method, `m();`). Conservative: a multi-line declaration
    /// without a marker counts as having a body (its dispatch stays only possible).
    fn bodyless(&mut self, m: &NodeRow) -> Result<bool, ErrorItem> {
        let sig = m.props.get("signature").and_then(Value::as_str).unwrap_or("");
        if sig.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == "abstract") {
            return Ok(true);
        }
        let col = |k: &str| m.props.get(k).and_then(Value::as_u64);
        if let (Some(a), Some(b), Some(s), Some(e)) = (m.line_start, m.line_end, col("column_start"), col("column_end")) {
            if a == b && !sig.is_empty() && e.saturating_sub(s) <= sig.chars().count() as u64 + 1 {
                return Ok(true);
            }
        }
        let decorated = self.store.decorators_of(m.id).map_err(backend_error)?;
        Ok(decorated.iter().any(|(n, _)| n.rsplit('.').next() == Some("abstractmethod")))
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

    /// Same-named methods up (`false`) and/or down (`true`) the hierarchy of a method's class:
    /// (the direction, (dispatch kind, method, whether it declares no body)).
    fn hierarchy_methods(&mut self, target: &Sym, directions: &[bool]) -> Result<Vec<(bool, (String, Sym, bool))>, ErrorItem> {
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
                                let bodyless = self.bodyless(&m)?;
                                out.push((sub, (kind.to_string(), Sym::of(&m), bodyless)));
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
    fn has_incoming(&mut self, target: &Sym, direct: Option<bool>, max_rank: u8, include_dispatch: bool) -> Result<bool, ErrorItem> {
        let direct = match direct {
            Some(d) => d,
            None => self.store.has_calls_into(target.id, max_rank).map_err(backend_error)?,
        };
        if direct {
            return Ok(true);
        }
        for r in self.dispatch_related(target)? {
            if (r.determined || include_dispatch) && self.store.has_calls_into(r.sym.id, max_rank).map_err(backend_error)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Every edge into `target`: direct ones, and calls bound to a related method in the
    /// hierarchy (weakened to at most `inferred`; `determined` says whether the workspace
    /// decides the dispatch or only the runtime type can).
    fn incoming(&mut self, target: &Sym) -> Result<Vec<Incoming>, ErrorItem> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut sources: Vec<(Sym, Option<(String, Sym)>, bool)> = vec![(target.clone(), None, true)];
        for r in self.dispatch_related(target)? {
            sources.push((r.sym.clone(), Some((r.kind, r.sym)), r.determined));
        }
        for (via, dispatch, determined) in sources {
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
                let has_receiver = e.receiver.is_some();
                let ambiguity = ambiguity(&e);
                out.push(Incoming { caller, callee: target.clone(), line: e.line, col: e.col, relation: rel, resolution, receiver_type, has_receiver, ambiguity, dispatch: dispatch.clone(), determined });
            }
        }
        // Across services: the client functions whose HTTP calls request an endpoint this
        // target handles (`HTTP_CALLS` into an endpoint `EXPOSES` it), `<prefix>.http_call`,
        // and those whose GraphQL operations select a root field it resolves
        // (`GRAPHQL_CALLS`), `<prefix>.graphql_call`.
        for ex in self.store.edges_of(target.id, false, Some("EXPOSES")).map_err(backend_error)? {
            for (ty, rel) in [("HTTP_CALLS", "http_call"), ("GRAPHQL_CALLS", "graphql_call")] {
            for e in self.store.edges_of(ex.src, false, Some(ty)).map_err(backend_error)? {
                if !seen.insert((e.src, e.line, e.col)) {
                    continue;
                }
                let Some(caller) = self.sym(e.src)? else { continue };
                let relation = format!("{}.{rel}", relation_prefix(language_of(&caller.path)));
                let resolution = e.resolution.clone().unwrap_or_else(|| "inferred".into());
                out.push(Incoming { caller, callee: target.clone(), line: e.line, col: e.col, relation, resolution, receiver_type: None, has_receiver: false, ambiguity: None, dispatch: None, determined: true });
            }
            }
        }
        out.sort_by(|a, b| (&a.caller.path, a.line, a.col).cmp(&(&b.caller.path, b.line, b.col)));
        Ok(out)
    }
}

/// What an ambiguous edge says of its site: `{reason, candidates, omitted}` (`omitted`:
/// the candidates not linked, past the 8 nearest). `None` for other edges.
fn ambiguity(e: &CallEdgeRow) -> Option<Value> {
    let reason = e.reason.as_deref().filter(|_| e.resolution.as_deref() == Some("ambiguous"))?;
    let n = e.candidates.unwrap_or(0).max(0);
    Some(json!({"reason": reason, "candidates": n, "omitted": (n - navegador_store::AMBIGUOUS_LINKED as i64).max(0)}))
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

/// What a trace lists: edges at least as sure as `min` (a [`rank`]), callers outside test
/// files when `exclude_tests`, and one page (`offset`, `limit`) of each list.
#[derive(Debug, Clone, Copy)]
struct Filter {
    min: u8,
    exclude_tests: bool,
    limit: usize,
    /// The caller chose `limit` (byte budgets then give way to it).
    limit_given: bool,
    offset: usize,
    /// List possible dispatch too (`include_dispatch`), not only determined dispatch.
    include_dispatch: bool,
}

impl Filter {
    /// Reads `include_ambiguous`, `min_resolution`, `include_dispatch`, `exclude_tests`,
    /// `limit` and `offset`.
    fn read(s: &mut Start<'_>) -> Filter {
        let include_ambiguous = s.args.bool("include_ambiguous", false);
        let asked = s.args.optional_enum("min_resolution", &RESOLUTIONS);
        if include_ambiguous && asked.as_deref().is_some_and(|m| m != "ambiguous") {
            s.args.reject(
                "include_ambiguous",
                "include_ambiguous: true lists ambiguous edges, which min_resolution excludes; pass one of them.".into(),
                "value_error",
            );
        }
        let min = asked.unwrap_or_else(|| if include_ambiguous { "ambiguous" } else { "inferred" }.to_string());
        s.args.echo("min_resolution", json!(min));
        let include_dispatch = s.args.bool("include_dispatch", false);
        let exclude_tests = s.args.bool("exclude_tests", false);
        let limit_given = s.args.given("limit");
        let limit = s.args.int("limit", DEFAULT_LIMIT, 1, MAX_LIMIT) as usize;
        let offset = s.args.int("offset", 0, 0, MAX_OFFSET) as usize;
        Filter { min: rank(&min), exclude_tests, limit, limit_given, offset, include_dispatch }
    }

    fn keeps_path(&self, path: &str) -> bool {
        !(self.exclude_tests && is_test_path(path))
    }

    fn admits(&self, resolution: &str) -> bool {
        rank(resolution) <= self.min
    }

    /// Whether an edge is followed and listed: sure enough, and a known edge (possible
    /// dispatch only with `include_dispatch`).
    fn lists(&self, resolution: &str, determined: bool) -> bool {
        self.admits(resolution) && (determined || self.include_dispatch)
    }

    /// The page of a list.
    fn page<'v, T>(&self, v: &'v [T]) -> &'v [T] {
        let start = self.offset.min(v.len());
        &v[start..(start + self.limit).min(v.len())]
    }
}

/// What a filter left out of one list, to be counted in the answer.
#[derive(Debug, Default)]
struct Tally {
    /// Edges by resolution (exact, inferred, ambiguous), after the test filter.
    by_resolution: [usize; 3],
    /// Ambiguous edges whose site has a receiver (`x.join()` on an `x` of unknown type).
    ambiguous_with_receiver: usize,
    /// Edges from test files left out (`exclude_tests`).
    tests: usize,
    /// Possible dispatch left out (`include_dispatch` lists it), by the method the calls bound.
    dispatch: usize,
    dispatch_via: Vec<String>,
}

impl Tally {
    /// Counts one edge; true when the filter lists it.
    fn count(&mut self, f: &Filter, resolution: &str, path: &str, has_receiver: bool) -> bool {
        self.count_dispatch(f, resolution, path, has_receiver, None)
    }

    /// Counts one edge that may be a possible dispatch (`via`: the method the call bound),
    /// which is counted apart and listed only with `include_dispatch`.
    fn count_dispatch(&mut self, f: &Filter, resolution: &str, path: &str, has_receiver: bool, via: Option<&str>) -> bool {
        if !f.keeps_path(path) {
            self.tests += 1;
            return false;
        }
        if let (Some(via), false) = (via, f.include_dispatch) {
            self.dispatch += 1;
            if !self.dispatch_via.iter().any(|v| v == via) {
                self.dispatch_via.push(via.to_string());
            }
            return false;
        }
        let r = rank(resolution) as usize;
        self.by_resolution[r] += 1;
        if r == 2 && has_receiver {
            self.ambiguous_with_receiver += 1;
        }
        f.admits(resolution)
    }

    fn json(&self) -> Value {
        json!({"exact": self.by_resolution[0], "inferred": self.by_resolution[1], "ambiguous": self.by_resolution[2]})
    }

    /// The clauses of a summary that say what was left out and how to list it; `name` is
    /// the one name every edge uses (a trace of callers), if there is one.
    fn hidden(&self, f: &Filter, name: Option<&str>, what: &str) -> Vec<String> {
        let mut out = Vec::new();
        let ambiguous = self.by_resolution[2];
        if f.min < 2 && ambiguous > 0 {
            let r = self.ambiguous_with_receiver;
            let how = match name {
                Some(name) if r == ambiguous => format!("a method named `{name}` on a receiver of unknown type"),
                Some(name) if r == 0 => format!("`{name}` names several definitions"),
                Some(name) => format!("`{name}` names several definitions; {r} on a receiver of unknown type"),
                None => "each to one of several same-named definitions".to_string(),
            };
            out.push(format!("{} ({how}) are counted, not listed (include_ambiguous: true lists them)", plural(ambiguous, &format!("ambiguous {what}"), &format!("ambiguous {what}s"))));
        }
        if f.min < 1 && self.by_resolution[1] > 0 {
            out.push(format!("{} not listed (min_resolution: inferred lists them)", plural(self.by_resolution[1], &format!("inferred {what} is"), &format!("inferred {what}s are"))));
        }
        if self.dispatch > 0 {
            let mut via: Vec<String> = self.dispatch_via.iter().take(3).map(|v| format!("`{v}`")).collect();
            if self.dispatch_via.len() > 3 {
                via.push(format!("{} more", self.dispatch_via.len() - 3));
            }
            out.push(format!(
                "{} bound to {} may dispatch {} (the runtime type decides), counted, not listed (dispatchCount; include_dispatch: true lists them)",
                plural(self.dispatch, what, &format!("{what}s")),
                via.join(", "),
                if name.is_some() { "here" } else { "to further implementations" }
            ));
        }
        if self.tests > 0 {
            out.push(format!("{} in test files left out (exclude_tests)", plural(self.tests, what, &format!("{what}s"))));
        }
        out
    }
}

/// One page of a list in a summary: `"; returned 25 from offset 0: pass offset: 25 for more"`.
fn page_note(f: &Filter, total: usize, returned: usize, what: &str) -> Option<String> {
    if f.offset > 0 && f.offset >= total {
        return Some(format!("offset {} is past the last of {} (pass an offset below {total})", f.offset, plural(total, what, &format!("{what}s"))));
    }
    let next = f.offset + returned;
    (next < total || f.offset > 0).then(|| {
        let more = if next < total { format!("; pass offset: {next} for the next page") } else { String::new() };
        format!("listed {} to {next}{more}", f.offset + 1)
    })
}

/// The suggestion of a `RESULT_TRUNCATED` item: the next page, or an offset that has one.
fn page_hint(f: &Filter, next: usize, total: usize) -> String {
    if next < total {
        format!("Pass offset: {next} for the next page, or raise limit (at most {MAX_LIMIT}).")
    } else if f.offset >= total {
        format!("Pass an offset below {total}.")
    } else {
        "This is the last page; lower offset for the earlier ones.".to_string()
    }
}

/// The shared start of both traces: arguments, the starting file, the graph, the targets.
struct Traced<'a> {
    start: Start<'a>,
    path: String,
    symbol: String,
    targets: Vec<Sym>,
    filter: Filter,
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
    let filter = Filter::read(&mut s);
    s.empty = empty(path.trim(), symbol.trim());
    s.detection(language.as_deref(), framework.as_deref());
    s.check()?;
    let scope = s.scope(cx.workspace, Some(&path))?;
    s.empty = empty(&scope.rel, symbol.trim());
    let traced = |s, targets| Traced { start: s, path: scope.rel.clone(), symbol: symbol.trim().to_string(), targets, filter };
    if scope.is_dir {
        let e = ErrorItem::new(code::INVALID_INPUT, format!("Path '{}' is a directory; pass the file that defines '{}'.", scope.rel, symbol.trim()))
            .suggestion("Use code.find_symbol to find the defining file.")
            .detail("issues", json!([{"field": "path", "message": "Expected a file, got a directory.", "type": "value_error"}]));
        return Err(s.fail("Request validation failed.", e));
    }
    let Some(store) = cx.store else {
        // No graph yet: the first index is still running.
        return Ok(traced(s, Vec::new()));
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
        return Ok(traced(s, Vec::new()));
    }
    let targets = find_targets(&s, store, &scope.rel, &symbol)?;
    Ok(traced(s, targets))
}

/// The language family of a file (JavaScript and TypeScript share one module system).
fn family_of(path: &str) -> Option<&'static str> {
    navegador_lang::registry().for_path(path).map(Language::family)
}

/// A reference site as listed in `unresolved`: its receiver as written, on one line and
/// bounded (a receiver may be a multi-line expression: `db.execute(\n  "SELECT ..."\n)`).
fn site_json(site: &SiteRow) -> Value {
    json!({"path": site.file_path, "line": site.line, "column": site.col + 1, "name": site.name,
           "receiver": site.receiver.as_deref().map(one_line)})
}

/// Whitespace runs made one space, cut at `RECEIVER_CHARS` characters (marked `…`).
fn one_line(text: &str) -> String {
    let squashed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if squashed.chars().count() > RECEIVER_CHARS {
        squashed.chars().take(RECEIVER_CHARS).collect::<String>() + "…"
    } else {
        squashed
    }
}

/// The sites a trace could not bind, listed and counted.
#[derive(Debug, Default)]
struct Unbound {
    /// The first `limit` unresolved sites.
    items: Vec<Value>,
    /// All unresolved sites that pass the filters.
    unresolved: usize,
    /// Sites bound to a builtin or an outside package (counted, not listed).
    external: usize,
}

impl Unbound {
    /// Adds the sites that are of `family` (when given) and pass the test filter.
    fn add(&mut self, sites: &[SiteRow], family: Option<&str>, f: &Filter, external: bool) {
        for site in sites {
            if family.is_some_and(|fam| family_of(&site.file_path) != Some(fam)) || !f.keeps_path(&site.file_path) {
                continue;
            }
            if external {
                self.external += 1;
                continue;
            }
            self.unresolved += 1;
            if self.items.len() < f.limit {
                self.items.push(site_json(site));
            }
        }
    }
}

/// The status the resolver gives a call into a builtin or an outside package: such sites
/// are counted apart from `unresolved`, never listed.
const EXTERNAL: &str = "external";

/// Unresolved and external sites that use `name`, in files of the target's language family.
fn unbound_named(store: Option<&Store>, name: &str, target_path: &str, f: &Filter) -> Result<Unbound, ErrorItem> {
    let mut out = Unbound::default();
    let Some(store) = store else { return Ok(out) };
    let family = family_of(target_path);
    out.add(&store.sites_named(name, "unresolved").map_err(backend_error)?, family, f, false);
    out.add(&store.sites_named(name, EXTERNAL).map_err(backend_error)?, family, f, true);
    Ok(out)
}
