//! Context bundles: a target node, the nodes related to it and the relationships between
//! them, for `function`, `class`, `context` (a file) and `explain` (any node).
//!
//! A bundle lists what the graph knows: edges below `min_resolution` (by default the
//! `ambiguous` ones) are counted, not listed. Every list (one per relation, and the
//! unresolved sites) shows one page; `metadata.totals` stays true to the whole answer and
//! the notes say what was left out and how to ask for it.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use navegador_model::{is_test_path, Language};
use navegador_store::{EdgeRow, NodeRow, SiteRow, Store, KNOWLEDGE_LABELS};

use crate::decorators::applications;
use crate::lookup::{ambiguous, clip, context_node, display_name, norm_path, related_node, resolve};
use crate::page::{page_notes, Page};
use crate::source::source_of;
use crate::types::{ContextBundle, ContextEdge, EdgeAmbiguity, Metadata, UnresolvedSite};
use crate::{clamp_depth, AnalysisError, Limits, Options, Result, Target};

/// The lists of each question, in the order answers show them.
const FUNCTION_RELATIONS: &[&str] = &["caller", "callee", "reference", "decorated", "decorator", "parent"];
const CLASS_RELATIONS: &[&str] =
    &["base", "subclass", "interface", "implementation", "member", "decorated", "decorator", "reference", "imported_by"];
const CONTEXT_RELATIONS: &[&str] = &["defined", "imports", "imported_by", "knowledge", "related"];
const EXPLAIN_RELATIONS: &[&str] = &["outgoing", "incoming", "decorated"];
/// The unresolved sites are a list like the others.
const UNRESOLVED: &str = "unresolved";

/// A function or method with its callers and callees to `depth`, the symbols it decorates,
/// its decorators, the class or file that contains it, and the call sites inside it that
/// could not be resolved.
pub fn function(store: &Store, target: &Target<'_>, opts: &Options, limits: &Limits) -> Result<ContextBundle> {
    let found = resolve(store, target, &["Function", "Method"], "function or method")?;
    let row = found.row;
    let mut b = Builder::new(store, &row, opts, limits, "function", FUNCTION_RELATIONS)?;
    b.notes.extend(found.notes);
    let depth = clamp_depth(opts.depth, limits.max_depth, &mut b.notes);
    b.decorated(&row)?;
    b.walk(row.id, &["CALLS"], false, depth, "caller")?;
    b.walk(row.id, &["CALLS"], true, depth, "callee")?;
    b.walk(row.id, &["REFERENCES"], false, 1, "reference")?;
    b.walk(row.id, &["REFERENCES"], true, 1, "reference")?;
    b.walk(row.id, &["DECORATES"], false, 1, "decorator")?;
    b.walk(row.id, &["CONTAINS"], false, 1, "parent")?;
    b.sites_inside(&row)?;
    b.possible_callers(&row, "callers")?;
    b.source(&row);
    Ok(b.finish(Some(depth)))
}

/// A class with its bases and subclasses (transitively), the interfaces it implements
/// and its implementations, its members, decorators, what it decorates (an annotation
/// type, a class decorator) and the code that references it.
pub fn class(store: &Store, target: &Target<'_>, opts: &Options, limits: &Limits) -> Result<ContextBundle> {
    let found = resolve(store, target, &["Class"], "class")?;
    let row = found.row;
    let mut b = Builder::new(store, &row, opts, limits, "class", CLASS_RELATIONS)?;
    b.notes.extend(found.notes);
    let max = limits.max_depth;
    b.decorated(&row)?;
    b.walk(row.id, &["INHERITS"], true, max, "base")?;
    b.walk(row.id, &["INHERITS"], false, max, "subclass")?;
    b.walk(row.id, &["IMPLEMENTS"], true, max, "interface")?;
    b.walk(row.id, &["IMPLEMENTS"], false, max, "implementation")?;
    b.walk(row.id, &["CONTAINS"], true, 1, "member")?;
    b.walk(row.id, &["DECORATES"], false, 1, "decorator")?;
    b.walk(row.id, &["CALLS", "REFERENCES"], false, 1, "reference")?;
    b.importers(&row)?;
    b.possible_callers(&row, "references")?;
    b.source(&row);
    Ok(b.finish(None))
}

/// A file: by default its outline (one line per symbol, with its signature), the files it
/// imports and the files that import it, and the reference sites in it that could not be
/// resolved; the nodes in other files its symbols relate to are counted. `full` lists
/// those (paged) with every relationship.
pub fn context(store: &Store, file: &str, opts: &Options, limits: &Limits) -> Result<ContextBundle> {
    let (path, _) = crate::lookup::split_line(file.trim());
    let path = norm_path(path);
    if path.is_empty() {
        return Err(AnalysisError::Empty { field: "file" });
    }
    let mut note = None;
    let file_row = match store.file_node(&path)? {
        Some(r) => r,
        None => {
            let matches = store.files_matching(&path, 10)?;
            match matches.as_slice() {
                [one] => {
                    note = Some(format!("`{path}` taken as {one}, the only indexed file with that suffix"));
                    store.file_node(one)?.ok_or_else(|| AnalysisError::FileNotIndexed { path: path.clone(), suggestions: vec![] })?
                }
                [] => return Err(AnalysisError::FileNotIndexed { path, suggestions: vec![] }),
                many => {
                    let mut rows = Vec::new();
                    for p in many {
                        rows.extend(store.file_node(p)?);
                    }
                    return Err(ambiguous(&path, &rows));
                }
            }
        }
    };
    let path = file_row.file_path.clone().unwrap_or(path);
    let mut b = Builder::new(store, &file_row, opts, limits, "context", CONTEXT_RELATIONS)?;
    b.notes.extend(note);
    let rows = store.nodes_in_file(&path)?;
    let in_file: HashSet<i64> = rows.iter().map(|r| r.id).collect();
    for r in &rows {
        b.cache.insert(r.id, r.clone());
    }
    if !opts.full {
        b.outline = outline(store, &file_row, &rows)?;
        b.totals_extra.insert("defined".into(), b.outline.len());
    }
    for r in &rows {
        if r.id != file_row.id && opts.full && !matches!(r.label.as_str(), "Import" | "Decorator") {
            b.reach(r, "defined", 0, None);
        }
        for outgoing in [true, false] {
            for e in store.edges_of(r.id, outgoing, None)? {
                if e.edge_type == "DEFINES" {
                    continue; // the same fact as CONTAINS, for files
                }
                let other = if outgoing { e.dst } else { e.src };
                if in_file.contains(&other) {
                    if opts.full {
                        b.inner_edges.push(e);
                    }
                    continue;
                }
                let Some(o) = b.row(other)? else { continue };
                if o.label == "Repository" {
                    continue;
                }
                let relation = match (e.edge_type.as_str(), r.id == file_row.id || r.label == "Import", outgoing) {
                    ("IMPORTS", true, true) => "imports",
                    ("IMPORTS", true, false) => "imported_by",
                    // owners, domains, decisions and documents of the file or its symbols
                    _ if KNOWLEDGE_LABELS.iter().any(|l| l.as_str() == o.label) => "knowledge",
                    _ => "related",
                };
                // An Import node's target stands for its file: `imports` lists files.
                let (o, e) = if relation == "imports" && o.label != "File" {
                    match o.file_path.as_deref().map(|f| store.file_node(f)).transpose()?.flatten() {
                        Some(f) if f.id != file_row.id => {
                            let via = EdgeRow { src: file_row.id, dst: f.id, edge_type: e.edge_type.clone(), resolution: e.resolution.clone(), line: e.line, col: e.col, ambiguity: None };
                            (f, via)
                        }
                        _ => continue,
                    }
                } else if relation == "imported_by" && o.label == "Import" {
                    match o.file_path.as_deref().map(|f| store.file_node(f)).transpose()?.flatten() {
                        Some(f) if f.id != file_row.id => {
                            let via = EdgeRow { src: f.id, dst: file_row.id, edge_type: e.edge_type.clone(), resolution: e.resolution.clone(), line: o.line_start, col: e.col, ambiguity: None };
                            (f, via)
                        }
                        _ => continue,
                    }
                } else {
                    (o, e)
                };
                if relation == "related" && !opts.full {
                    if b.admits(&e) {
                        b.related_count += 1;
                        if b.related_seen.insert(o.id) {
                            b.count_related_nodes += 1;
                        }
                    }
                    continue;
                }
                b.reach_by(&o, relation, 1, &e, None);
            }
        }
    }
    if !opts.full && b.related_count > 0 {
        b.totals_extra.insert("related".into(), b.count_related_nodes);
        b.notes.push(format!(
            "{} relationships with {} symbols in other files are counted, not listed; pass full=true to list them (paged), or ask `function`/`class` about a symbol",
            b.related_count, b.count_related_nodes
        ));
    }
    b.add_sites(store.sites_in_file(&path, "unresolved")?);
    b.external += store.sites_in_file(&path, "external")?.len();
    b.source(&file_row);
    Ok(b.finish(None))
}

/// Any node (code or knowledge) by name, with all its relationships in and out.
pub fn explain(store: &Store, target: &Target<'_>, opts: &Options, limits: &Limits) -> Result<ContextBundle> {
    let found = resolve(store, target, &[], "node")?;
    let row = found.row;
    let mut b = Builder::new(store, &row, opts, limits, "explain", EXPLAIN_RELATIONS)?;
    b.notes.extend(found.notes);
    b.decorated(&row)?;
    for (outgoing, relation) in [(true, "outgoing"), (false, "incoming")] {
        for e in store.edges_of(row.id, outgoing, None)? {
            if b.decorator_edges.contains(&(e.src, e.dst, e.line)) {
                continue;
            }
            let other = if outgoing { e.dst } else { e.src };
            let Some(o) = b.row(other)? else { continue };
            if o.label == "Repository" {
                continue;
            }
            b.reach_by(&o, relation, 1, &e, None);
        }
    }
    if matches!(row.label.as_str(), "Function" | "Method") {
        b.sites_inside(&row)?;
    }
    b.source(&row);
    Ok(b.finish(None))
}

/// The outline of a file: one line per symbol, its lines, decorators and signature
/// (`  12-30 @setupmethod def route(self, rule, **options)`), nested symbols indented;
/// a symbol without a signature as its label and its name within the file.
fn outline(store: &Store, file: &NodeRow, rows: &[NodeRow]) -> Result<Vec<String>> {
    let defs: Vec<&NodeRow> =
        rows.iter().filter(|r| r.id != file.id && !matches!(r.label.as_str(), "Import" | "Decorator" | "Endpoint")).collect();
    // Decorators by the symbol they decorate.
    let mut decorators: HashMap<i64, Vec<String>> = HashMap::new();
    for d in rows.iter().filter(|r| r.label == "Decorator") {
        for e in store.edges_of(d.id, true, Some("DECORATES"))? {
            decorators.entry(e.dst).or_default().push(format!("@{}", d.name.as_deref().unwrap_or("")));
        }
    }
    // The module prefix: what a top-level symbol's qualified name adds to its name.
    let mut prefixes: HashMap<String, usize> = HashMap::new();
    for r in &defs {
        if let (Some(q), Some(n)) = (&r.qualified_name, &r.name) {
            if let Some(p) = q.strip_suffix(n.as_str()) {
                *prefixes.entry(p.to_string()).or_default() += 1;
            }
        }
    }
    // The shortest is the top level's (nested symbols add their scopes).
    let prefix = prefixes.into_keys().filter(|p| !p.is_empty()).min_by_key(|p| (p.len(), p.clone())).unwrap_or_default();
    let mut out = Vec::with_capacity(defs.len());
    // Nesting by line ranges (rows come in line order).
    let mut open: Vec<u32> = Vec::new();
    for r in defs {
        let (a, z) = (r.line_start.unwrap_or(0), r.line_end.unwrap_or(0));
        while open.last().is_some_and(|&end| a > end) {
            open.pop();
        }
        let indent = "  ".repeat(open.len());
        let lines = if z > a { format!("{a}-{z}") } else { a.to_string() };
        let decs = decorators.get(&r.id).map(|d| format!("{} ", d.join(" "))).unwrap_or_default();
        // The signature says kind and name (`def f(x)`, `class C(B)`, `func (r *R) M()`);
        // without one, the label and the name within the file.
        let what = match r.props.get("signature").and_then(|v| v.as_str()).map(squash).filter(|s| !s.is_empty()) {
            Some(sig) => clip(&sig, 160),
            None => {
                let q = r.qualified_name.as_deref().unwrap_or_else(|| r.name.as_deref().unwrap_or(""));
                let shown = q.strip_prefix(prefix.as_str()).filter(|s| !s.is_empty()).unwrap_or(q);
                format!("{} {shown}", r.label.to_lowercase())
            }
        };
        out.push(format!("{indent}{lines} {decs}{what}"));
        if z > a {
            open.push(z);
        }
    }
    Ok(out)
}

/// Whitespace runs (newlines included) as one space.
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A node reached in one relation, with the edges that reached it.
struct Entry {
    node: NodeRow,
    relation: &'static str,
    distance: u32,
    edges: Vec<ContextEdge>,
    /// Every edge that reached it is `ambiguous`.
    ambiguous: bool,
}

/// Collects a bundle's lists, then shows one page of each.
pub(crate) struct Builder<'s> {
    store: &'s Store,
    limits: Limits,
    opts: Options,
    page: Page,
    query: &'static str,
    relations: &'static [&'static str],
    target: NodeRow,
    target_family: Option<&'static str>,
    pub(crate) cache: HashMap<i64, NodeRow>,
    entries: Vec<Entry>,
    index: HashMap<i64, usize>,
    /// Edges between the file's own symbols (`context` with `full`).
    inner_edges: Vec<EdgeRow>,
    /// Decorator applications of the target (listed as `decorated`, not as references).
    decorator_edges: HashSet<(i64, i64, Option<u32>)>,
    outline: Vec<String>,
    totals_extra: BTreeMap<String, usize>,
    related_count: usize,
    count_related_nodes: usize,
    related_seen: HashSet<i64>,
    truncated: bool,
    ambiguous: usize,
    external: usize,
    pub(crate) notes: Vec<String>,
    sites: Vec<SiteRow>,
    other_language_sites: usize,
    source: Option<crate::types::SourceText>,
}

impl<'s> Builder<'s> {
    fn new(
        store: &'s Store,
        target: &NodeRow,
        opts: &Options,
        limits: &Limits,
        query: &'static str,
        relations: &'static [&'static str],
    ) -> Result<Self> {
        if let Some(r) = opts.relation.as_deref() {
            if r != UNRESOLVED && !relations.contains(&r) {
                return Err(AnalysisError::BadArgument(format!(
                    "unknown relation `{r}` for `{query}`; one of {}, {UNRESOLVED}",
                    relations.join(", ")
                )));
            }
        }
        let mut notes = Vec::new();
        let page = Page::new(opts, limits, &mut notes);
        let mut cache = HashMap::new();
        cache.insert(target.id, target.clone());
        Ok(Builder {
            store,
            limits: *limits,
            opts: opts.clone(),
            page,
            query,
            relations,
            target: target.clone(),
            target_family: target.file_path.as_deref().and_then(family_of),
            cache,
            entries: Vec::new(),
            index: HashMap::new(),
            inner_edges: Vec::new(),
            decorator_edges: HashSet::new(),
            outline: Vec::new(),
            totals_extra: BTreeMap::new(),
            related_count: 0,
            count_related_nodes: 0,
            related_seen: HashSet::new(),
            truncated: false,
            ambiguous: 0,
            external: 0,
            notes,
            sites: Vec::new(),
            other_language_sites: 0,
            source: None,
        })
    }

    pub(crate) fn row(&mut self, id: i64) -> Result<Option<NodeRow>> {
        if let Some(r) = self.cache.get(&id) {
            return Ok(Some(r.clone()));
        }
        let r = self.store.node(id)?;
        if let Some(r) = &r {
            self.cache.insert(id, r.clone());
        }
        Ok(r)
    }

    /// Whether an edge is listed; counts the ambiguous ones left out.
    fn admits(&mut self, e: &EdgeRow) -> bool {
        if self.opts.min_resolution.admits(e.resolution.as_deref()) {
            true
        } else {
            self.ambiguous += 1;
            false
        }
    }

    /// Records `r` in `relation` (the first relation that reaches a node keeps it); false
    /// when the traversal bound is reached.
    fn reach(&mut self, r: &NodeRow, relation: &'static str, distance: u32, edge: Option<ContextEdge>) -> bool {
        if r.id == self.target.id {
            return true;
        }
        let ambiguous = edge.as_ref().is_some_and(|e| e.resolution.as_deref() == Some("ambiguous"));
        if let Some(&i) = self.index.get(&r.id) {
            let entry = &mut self.entries[i];
            entry.ambiguous &= ambiguous;
            if let Some(e) = edge {
                if !entry.edges.contains(&e) {
                    entry.edges.push(e);
                }
            }
            return true;
        }
        if self.entries.len() >= self.limits.max_nodes {
            self.truncated = true;
            return false;
        }
        self.index.insert(r.id, self.entries.len());
        self.entries.push(Entry { node: r.clone(), relation, distance, edges: edge.into_iter().collect(), ambiguous });
        true
    }

    /// `reach` through a stored edge (its site in `site_file`, by default its source's file).
    fn reach_by(&mut self, r: &NodeRow, relation: &'static str, distance: u32, e: &EdgeRow, site_file: Option<&str>) -> bool {
        if !self.admits(e) {
            return true;
        }
        if relation == "related" && self.related_seen.insert(r.id) {
            self.count_related_nodes += 1;
        }
        let edge = self.context_edge(e, site_file);
        self.reach(r, relation, distance, Some(edge))
    }

    /// An edge as listed: both ends named; a resolved reference's site is in `site_file`,
    /// by default the source's file (where the call, reference or import is written).
    fn context_edge(&mut self, e: &EdgeRow, site_file: Option<&str>) -> ContextEdge {
        let name = |b: &mut Self, id: i64| b.row(id).ok().flatten().map(|r| display_name(&r)).unwrap_or_default();
        let site_file = match site_file {
            Some(f) => f.to_string(),
            None => self.row(e.src).ok().flatten().and_then(|s| s.file_path).unwrap_or_default(),
        };
        ContextEdge {
            source: e.src,
            source_name: Some(name(self, e.src)),
            target: e.dst,
            target_name: Some(name(self, e.dst)),
            edge_type: e.edge_type.clone(),
            resolution: e.resolution.clone(),
            file_path: e.line.map(|_| site_file.to_string()).filter(|f| !f.is_empty()),
            line: e.line,
            ambiguity: e.ambiguity.as_ref().map(|(reason, n)| EdgeAmbiguity::new(reason, *n)),
        }
    }

    /// Breadth-first along `types` (outgoing or incoming) to `depth`, edges below
    /// `min_resolution` counted and not followed.
    fn walk(&mut self, start: i64, types: &[&str], outgoing: bool, depth: u32, relation: &'static str) -> Result<()> {
        let mut seen: HashSet<i64> = HashSet::from([start]);
        let mut queue: VecDeque<(i64, u32)> = VecDeque::from([(start, 0)]);
        while let Some((id, d)) = queue.pop_front() {
            if d >= depth {
                continue;
            }
            for e in self.store.edges_of(id, outgoing, None)? {
                if !types.contains(&e.edge_type.as_str()) || self.decorator_edges.contains(&(e.src, e.dst, e.line)) {
                    continue;
                }
                let other = if outgoing { e.dst } else { e.src };
                let Some(o) = self.row(other)? else { continue };
                if !self.admits(&e) {
                    continue;
                }
                let edge = self.context_edge(&e, None);
                if !self.reach(&o, relation, d + 1, Some(edge)) {
                    return Ok(());
                }
                if seen.insert(other) {
                    queue.push_back((other, d + 1));
                }
            }
        }
        Ok(())
    }

    /// The files that import `def` (`imported_by`), each through its import statement.
    fn importers(&mut self, def: &NodeRow) -> Result<()> {
        for e in self.store.edges_of(def.id, false, Some("IMPORTS"))? {
            let Some(import) = self.row(e.src)? else { continue };
            let Some(file) = import.file_path.as_deref().map(|f| self.store.file_node(f)).transpose()?.flatten() else { continue };
            if file.id == self.target.id {
                continue;
            }
            let via = EdgeRow { src: file.id, dst: def.id, edge_type: e.edge_type, resolution: e.resolution, line: import.line_start, col: e.col, ambiguity: None };
            self.cache.insert(file.id, file.clone());
            if !self.reach_by(&file, "imported_by", 1, &via, None) {
                break;
            }
        }
        Ok(())
    }

    /// The symbols `def` is applied to as a decorator (`decorated`), through their
    /// decorator reference sites; those edges are then no plain `reference`.
    fn decorated(&mut self, def: &NodeRow) -> Result<()> {
        for a in applications(self.store, def)? {
            let e = EdgeRow { src: a.decorated.id, dst: def.id, edge_type: "REFERENCES".into(), resolution: a.resolution, line: a.line, col: None, ambiguity: None };
            self.decorator_edges.insert((e.src, e.dst, e.line));
            if !self.admits(&e) {
                continue;
            }
            self.cache.insert(a.decorated.id, a.decorated.clone());
            let edge = self.context_edge(&e, None);
            if !self.reach(&a.decorated, "decorated", 1, Some(edge)) {
                break;
            }
        }
        Ok(())
    }

    /// The unresolved call sites inside a function, and the external ones counted.
    fn sites_inside(&mut self, row: &NodeRow) -> Result<()> {
        let file = row.file_path.as_deref().unwrap_or("");
        let inside = self.store.sites_from(Some(row.id), file, "unresolved")?;
        if !inside.is_empty() {
            self.notes.push(format!(
                "{} call sites inside {} could not be resolved: its callees may be incomplete",
                inside.len(),
                display_name(row)
            ));
        }
        self.add_sites(inside);
        self.external += self.store.sites_from(Some(row.id), file, "external")?.len();
        Ok(())
    }

    /// Unresolved sites elsewhere, in the target's language, that use its name: possible
    /// callers the graph could not bind. Counted and listed, so "no callers" is never
    /// claimed blindly.
    fn possible_callers(&mut self, row: &NodeRow, what: &str) -> Result<()> {
        let Some(name) = row.name.as_deref() else { return Ok(()) };
        let sites = self.store.sites_named(name, "unresolved")?;
        let before = self.sites.len();
        self.add_sites(sites);
        let n = self.sites.len() - before;
        if n > 0 {
            self.notes.push(format!(
                "{n} unresolved sites elsewhere use the name `{name}`: they may be {what} the graph could not bind"
            ));
        }
        Ok(())
    }

    /// Keeps the sites in the target's language (the others are counted in a note).
    pub(crate) fn add_sites(&mut self, sites: Vec<SiteRow>) {
        for s in sites {
            let family = family_of(&s.file_path);
            if self.target_family.is_some() && family != self.target_family {
                self.other_language_sites += 1;
                continue;
            }
            if !self.sites.iter().any(|x| x.file_path == s.file_path && x.line == s.line && x.col == s.col && x.name == s.name) {
                self.sites.push(s);
            }
        }
    }

    fn source(&mut self, row: &NodeRow) {
        if !self.opts.include_source {
            return;
        }
        match (&self.opts.source_root, row.file_path.is_some()) {
            (Some(root), true) => {
                let s = source_of(root, row, self.limits.max_source_lines);
                if s.truncated {
                    self.notes.push(format!(
                        "source cut at {} lines (lines {}-{} shown); read the file for the rest",
                        self.limits.max_source_lines, s.line_start, s.line_end
                    ));
                }
                if let Some(why) = &s.unavailable {
                    self.notes.push(format!("no source: {why}"));
                }
                self.source = Some(s);
            }
            (_, false) => self.notes.push("no source: this node is not code (it has no file)".into()),
            (None, true) => self.notes.push("no source: this server reads no files (no workspace root)".into()),
        }
    }

    fn finish(mut self, depth: Option<u32>) -> ContextBundle {
        let only = self.opts.relation.clone();
        // Order: relation (as the question lists them), distance, known before ambiguous,
        // source before tests, then by place. Ids follow ingest order, which parallel
        // extraction does not fix: content order gives the same answer for the same graph.
        let rank = |r: &str| self.relations.iter().position(|x| *x == r).unwrap_or(usize::MAX);
        self.entries.sort_by(|a, b| {
            let key = |e: &Entry| {
                (
                    rank(e.relation),
                    e.distance,
                    e.ambiguous,
                    e.node.file_path.as_deref().is_some_and(is_test_path),
                    e.node.file_path.clone(),
                    e.node.line_start,
                    e.node.qualified_name.clone(),
                    e.node.name.clone(),
                )
            };
            key(a).cmp(&key(b))
        });
        let mut totals: BTreeMap<String, usize> = self.totals_extra.clone();
        for e in &self.entries {
            *totals.entry(e.relation.to_string()).or_default() += 1;
        }
        totals.insert(UNRESOLVED.into(), self.sites.len());
        totals.retain(|_, n| *n > 0);
        // One page per list.
        let page = self.page;
        let mut listed: Vec<&Entry> = Vec::new();
        let mut by_relation: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
        for e in &self.entries {
            by_relation.entry(e.relation).or_default().push(e);
        }
        for r in self.relations {
            if only.as_deref().is_some_and(|o| o != *r) {
                continue;
            }
            if let Some(list) = by_relation.get(r) {
                listed.extend(&list[page.range(list.len())]);
            }
        }
        // The outline is one short line per symbol: a page of it is larger by default.
        // Paged by offset only when asked for alone (`relation: defined`).
        let outline_page = match (only.as_deref(), self.opts.limit) {
            (Some("defined"), Some(_)) => page,
            (Some("defined"), None) => Page { limit: self.limits.max_limit, offset: page.offset },
            _ => Page { limit: self.limits.max_limit, offset: 0 },
        };
        let outline = if only.as_deref().is_none_or(|o| o == "defined") {
            self.outline[outline_page.range(self.outline.len())].to_vec()
        } else {
            Vec::new()
        };
        let listed_ids: HashSet<i64> = listed.iter().map(|e| e.node.id).chain([self.target.id]).collect();
        let mut nodes = Vec::with_capacity(listed.len());
        let mut edges: Vec<ContextEdge> = Vec::new();
        let mut edges_left = 0;
        let language = self.target.props.get("language").and_then(|v| v.as_str()).map(str::to_string);
        for e in &listed {
            let mut n = related_node(&e.node, language.as_deref());
            n.relation = Some(e.relation.to_string());
            n.distance = (e.distance > 0).then_some(e.distance);
            n.resolution = e.ambiguous.then(|| "ambiguous".to_string());
            nodes.push(n);
            // An edge that only restates the relation (`member`: the target CONTAINS it;
            // `imported_by`: a file IMPORTS it) is left out; `explain` and `full` keep them.
            let restates = |x: &ContextEdge| {
                self.query != "explain"
                    && !self.opts.full
                    && (matches!(x.edge_type.as_str(), "CONTAINS" | "DEFINES")
                        || (x.edge_type == "DECORATES" && x.line.is_none())
                        || (x.edge_type == "IMPORTS" && matches!(e.relation, "imports" | "imported_by")))
            };
            let mine: Vec<&ContextEdge> = e
                .edges
                .iter()
                .filter(|x| listed_ids.contains(&x.source) && listed_ids.contains(&x.target) && !restates(x))
                .collect();
            edges_left += mine.len().saturating_sub(self.limits.edges_per_node);
            edges.extend(mine.into_iter().take(self.limits.edges_per_node).cloned());
        }
        for e in std::mem::take(&mut self.inner_edges) {
            if listed_ids.contains(&e.src) && listed_ids.contains(&e.dst) && self.opts.min_resolution.admits(e.resolution.as_deref()) {
                let ce = self.context_edge(&e, None);
                if !edges.contains(&ce) {
                    edges.push(ce);
                }
            }
        }
        edges.sort_by(|a, b| {
            (&a.edge_type, &a.source_name, &a.target_name, &a.file_path, a.line, &a.resolution)
                .cmp(&(&b.edge_type, &b.source_name, &b.target_name, &b.file_path, b.line, &b.resolution))
        });
        edges.dedup();
        // Each node is named once: by its entry in `nodes` (or as the target).
        for e in &mut edges {
            if listed_ids.contains(&e.source) {
                e.source_name = None;
            }
            if listed_ids.contains(&e.target) {
                e.target_name = None;
            }
        }
        // The unresolved sites, one page.
        self.sites.sort_by(|a, b| (&a.file_path, a.line, a.col).cmp(&(&b.file_path, b.line, b.col)));
        let sites: Vec<SiteRow> = if only.as_deref().is_none_or(|o| o == UNRESOLVED) {
            self.sites[page.range(self.sites.len())].to_vec()
        } else {
            Vec::new()
        };
        let unresolved: Vec<UnresolvedSite> = sites
            .into_iter()
            .map(|s| {
                let from = s.from_node.and_then(|id| self.row(id).ok().flatten()).map(|r| display_name(&r));
                site(s, from)
            })
            .collect();
        // What was left out, and how to get it.
        let mut notes = std::mem::take(&mut self.notes);
        let lists: Vec<(&str, usize)> = totals
            .iter()
            .filter(|(k, _)| only.as_deref().is_none_or(|o| o == k.as_str()))
            .filter(|(k, _)| self.opts.full || self.query != "context" || !matches!(k.as_str(), "related" | "defined"))
            .map(|(k, v)| (k.as_str(), *v))
            .collect();
        let mut next_offset = page_notes(&page, &lists, "relation", &mut notes);
        if !self.outline.is_empty() && only.as_deref().is_none_or(|o| o == "defined") {
            let n = self.outline.len();
            if outline_page.more(n) {
                let r = outline_page.range(n);
                notes.push(format!(
                    "outline: symbols {}-{} of {n}; pass relation=defined offset={} for the next",
                    r.start + 1,
                    r.end,
                    outline_page.next_offset()
                ));
                if only.is_some() {
                    next_offset = Some(outline_page.next_offset());
                }
            }
        }
        if let Some(o) = &only {
            let others: Vec<String> =
                totals.iter().filter(|(k, _)| *k != o).map(|(k, v)| format!("{k} {v}")).collect();
            if !others.is_empty() {
                notes.push(format!("only `{o}` listed (relation); also: {}", others.join(", ")));
            }
        }
        if edges_left > 0 {
            notes.push(format!(
                "{edges_left} more relationships between listed nodes (repeated call sites) left out; the first {} per node are listed",
                self.limits.edges_per_node
            ));
        }
        if self.ambiguous > 0 {
            notes.push(format!(
                "{} ambiguous edges left out (calls or references whose name matches several definitions, e.g. a method called on a receiver of unknown type); pass include_ambiguous=true to list them, marked",
                self.ambiguous
            ));
        }
        if self.other_language_sites > 0 {
            notes.push(format!("{} unresolved sites in other languages left out", self.other_language_sites));
        }
        if self.external > 0 {
            notes.push(format!("{} call sites to builtins and external packages counted, not listed", self.external));
        }
        if self.truncated {
            notes.push(format!(
                "traversal stopped at {} nodes: totals are lower bounds; ask about a narrower target or lower depth",
                self.limits.max_nodes
            ));
        }
        let mut metadata = Metadata {
            query: self.query.to_string(),
            depth,
            node_count: nodes.len(),
            edge_count: edges.len(),
            totals,
            limit: page.limit,
            offset: page.offset,
            next_offset,
            truncated: self.truncated,
            ambiguous_count: self.ambiguous,
            external_count: self.external,
            unresolved_count: self.sites.len(),
            unresolved,
            notes,
        };
        let mut target = context_node(&self.target);
        if let Some(d) = &target.docstring {
            if d.chars().count() > MAX_DOCSTRING {
                target.docstring = Some(clip(d, MAX_DOCSTRING));
                metadata.notes.push(format!("docstring cut at {MAX_DOCSTRING} characters; include_source=true shows it whole"));
            }
        }
        ContextBundle { target, outline, nodes, edges, source: self.source, metadata }
    }
}

/// Characters of the target's docstring shown (the whole text is in its source).
const MAX_DOCSTRING: usize = 1500;

pub(crate) fn site(s: SiteRow, from: Option<String>) -> UnresolvedSite {
    UnresolvedSite {
        file_path: s.file_path,
        line: s.line,
        kind: s.kind,
        name: match &s.receiver {
            // A receiver can be any expression (a multi-line f-string): one line, bounded.
            Some(r) if !r.is_empty() => format!("{}.{}", clip(&squash(r), 60), s.name),
            _ => s.name,
        },
        from,
    }
}

/// The language family of a file by its pack (JavaScript and TypeScript share one).
pub(crate) fn family_of(path: &str) -> Option<&'static str> {
    navegador_lang::registry().for_path(path).map(Language::family)
}
