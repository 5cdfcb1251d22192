//! Context bundles: a target node, the nodes related to it and the relationships between
//! them, for `function`, `class`, `context` (a file) and `explain` (any node).

use std::collections::{HashMap, HashSet, VecDeque};

use navegador_store::{EdgeRow, NodeRow, SiteRow, Store};

use crate::lookup::{candidate, context_node, display_name, norm_path, resolve};
use crate::types::{ContextBundle, ContextEdge, ContextNode, Metadata, UnresolvedSite};
use crate::{clamp_depth, AnalysisError, Limits, Result};

/// A function or method with its callers and callees to `depth`, decorators, the class
/// or file that contains it, and the call sites inside it that could not be resolved.
pub fn function(store: &Store, name: &str, file: Option<&str>, depth: u32, limits: &Limits) -> Result<ContextBundle> {
    let row = resolve(store, name, file, &["Function", "Method"], "function or method")?;
    let mut b = Builder::new(store, &row, limits);
    let depth = clamp_depth(depth, limits.max_depth, &mut b.notes);
    b.walk(row.id, &["CALLS"], false, depth, "caller")?;
    b.walk(row.id, &["CALLS"], true, depth, "callee")?;
    b.walk(row.id, &["REFERENCES"], false, 1, "reference")?;
    b.walk(row.id, &["REFERENCES"], true, 1, "reference")?;
    b.walk(row.id, &["DECORATES"], false, 1, "decorator")?;
    b.walk(row.id, &["CONTAINS"], false, 1, "parent")?;
    let inside = store.sites_from(Some(row.id), row.file_path.as_deref().unwrap_or(""), "unresolved")?;
    if !inside.is_empty() {
        b.notes.push(format!(
            "{} call sites inside {} could not be resolved: its callees may be incomplete",
            inside.len(),
            display_name(&row)
        ));
    }
    b.add_sites(inside);
    b.note_possible_callers(&row, "callers")?;
    Ok(b.finish("function", Some(depth)))
}

/// A class with its bases and subclasses (transitively), the interfaces it implements
/// and its implementations, its members, decorators and the code that references it.
pub fn class(store: &Store, name: &str, file: Option<&str>, limits: &Limits) -> Result<ContextBundle> {
    let row = resolve(store, name, file, &["Class"], "class")?;
    let mut b = Builder::new(store, &row, limits);
    let max = limits.max_depth;
    b.walk(row.id, &["INHERITS"], true, max, "base")?;
    b.walk(row.id, &["INHERITS"], false, max, "subclass")?;
    b.walk(row.id, &["IMPLEMENTS"], true, max, "interface")?;
    b.walk(row.id, &["IMPLEMENTS"], false, max, "implementation")?;
    b.walk(row.id, &["CONTAINS"], true, 1, "member")?;
    b.walk(row.id, &["DECORATES"], false, 1, "decorator")?;
    b.walk(row.id, &["CALLS", "REFERENCES", "IMPORTS"], false, 1, "reference")?;
    b.note_possible_callers(&row, "references")?;
    Ok(b.finish("class", None))
}

/// Every symbol of a file with its relationships, the files it imports and the files
/// that import it, and the reference sites in it that could not be resolved.
pub fn context(store: &Store, file: &str, limits: &Limits) -> Result<ContextBundle> {
    let path = norm_path(file);
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
                    let mut candidates = Vec::new();
                    for p in many {
                        if let Some(r) = store.file_node(p)? {
                            candidates.push(candidate(&r));
                        }
                    }
                    return Err(AnalysisError::Ambiguous { name: path, candidates });
                }
            }
        }
    };
    let path = file_row.file_path.clone().unwrap_or(path);
    let mut b = Builder::new(store, &file_row, limits);
    b.notes.extend(note);
    let rows = store.nodes_in_file(&path)?;
    let in_file: HashSet<i64> = rows.iter().map(|r| r.id).collect();
    for r in &rows {
        if r.id != file_row.id {
            b.cache.insert(r.id, r.clone());
            b.add_node(r, "defined", None);
        }
    }
    for r in &rows {
        for outgoing in [true, false] {
            for e in store.edges_of(r.id, outgoing, None)? {
                if e.edge_type == "DEFINES" {
                    continue; // the same fact as CONTAINS, for files
                }
                let other = if outgoing { e.dst } else { e.src };
                let Some(o) = b.row(other)? else { continue };
                if o.label == "Repository" {
                    continue;
                }
                if !in_file.contains(&other) {
                    let relation = match (e.edge_type.as_str(), r.id == file_row.id, outgoing) {
                        ("IMPORTS", true, true) => "imports",
                        ("IMPORTS", true, false) => "imported_by",
                        _ => "related",
                    };
                    b.add_node(&o, relation, None);
                }
                b.add_edge(&e)?;
            }
        }
    }
    b.add_sites(store.sites_in_file(&path, "unresolved")?);
    Ok(b.finish("context", None))
}

/// Any node (code or knowledge) by name, with all its relationships in and out.
pub fn explain(store: &Store, name: &str, file: Option<&str>, limits: &Limits) -> Result<ContextBundle> {
    let row = resolve(store, name, file, &[], "node")?;
    let mut b = Builder::new(store, &row, limits);
    for (outgoing, relation) in [(true, "outgoing"), (false, "incoming")] {
        for e in store.edges_of(row.id, outgoing, None)? {
            let other = if outgoing { e.dst } else { e.src };
            let Some(o) = b.row(other)? else { continue };
            if o.label == "Repository" {
                continue;
            }
            b.add_node(&o, relation, Some(1));
            b.add_edge(&e)?;
        }
    }
    if matches!(row.label.as_str(), "Function" | "Method") {
        let inside = store.sites_from(Some(row.id), row.file_path.as_deref().unwrap_or(""), "unresolved")?;
        b.add_sites(inside);
    }
    Ok(b.finish("explain", None))
}

/// Collects a bundle's nodes and edges under the size limits.
pub(crate) struct Builder<'s> {
    store: &'s Store,
    limits: Limits,
    target: NodeRow,
    pub(crate) cache: HashMap<i64, NodeRow>,
    nodes: Vec<ContextNode>,
    node_index: HashMap<i64, usize>,
    edges: Vec<ContextEdge>,
    edge_set: HashSet<(i64, i64, String, Option<u32>)>,
    truncated: bool,
    pub(crate) notes: Vec<String>,
    sites: Vec<UnresolvedSite>,
    site_count: usize,
}

impl<'s> Builder<'s> {
    pub(crate) fn new(store: &'s Store, target: &NodeRow, limits: &Limits) -> Self {
        let mut cache = HashMap::new();
        cache.insert(target.id, target.clone());
        Builder {
            store,
            limits: *limits,
            target: target.clone(),
            cache,
            nodes: Vec::new(),
            node_index: HashMap::new(),
            edges: Vec::new(),
            edge_set: HashSet::new(),
            truncated: false,
            notes: Vec::new(),
            sites: Vec::new(),
            site_count: 0,
        }
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

    /// Adds a related node (never the target); false when the node limit is reached.
    fn add_node(&mut self, r: &NodeRow, relation: &str, distance: Option<u32>) -> bool {
        if r.id == self.target.id || self.node_index.contains_key(&r.id) {
            return true;
        }
        if self.nodes.len() >= self.limits.max_nodes {
            self.truncated = true;
            return false;
        }
        let mut n = context_node(r);
        n.relation = Some(relation.to_string());
        n.distance = distance;
        self.node_index.insert(r.id, self.nodes.len());
        self.nodes.push(n);
        true
    }

    fn add_edge(&mut self, e: &EdgeRow) -> Result<()> {
        let key = (e.src, e.dst, e.edge_type.clone(), e.line);
        if self.edge_set.contains(&key) {
            return Ok(());
        }
        let in_bundle = |id: i64, b: &Self| id == b.target.id || b.node_index.contains_key(&id);
        if !in_bundle(e.src, self) || !in_bundle(e.dst, self) {
            return Ok(()); // an end was left out by the node limit
        }
        if self.edges.len() >= self.limits.max_edges {
            self.truncated = true;
            return Ok(());
        }
        let (Some(s), Some(d)) = (self.row(e.src)?, self.row(e.dst)?) else { return Ok(()) };
        self.edge_set.insert(key);
        self.edges.push(ContextEdge {
            source: e.src,
            source_name: display_name(&s),
            target: e.dst,
            target_name: display_name(&d),
            edge_type: e.edge_type.clone(),
            resolution: e.resolution.clone(),
            file_path: if e.line.is_some() { s.file_path.clone() } else { None },
            line: e.line,
        });
        Ok(())
    }

    /// Breadth-first along `types` (outgoing or incoming) to `depth`, tagging new nodes.
    fn walk(&mut self, start: i64, types: &[&str], outgoing: bool, depth: u32, relation: &str) -> Result<()> {
        let mut seen: HashSet<i64> = HashSet::from([start]);
        let mut queue: VecDeque<(i64, u32)> = VecDeque::from([(start, 0)]);
        while let Some((id, d)) = queue.pop_front() {
            if d >= depth {
                continue;
            }
            for e in self.store.edges_of(id, outgoing, None)? {
                if !types.contains(&e.edge_type.as_str()) {
                    continue;
                }
                let other = if outgoing { e.dst } else { e.src };
                let Some(o) = self.row(other)? else { continue };
                if !self.add_node(&o, relation, Some(d + 1)) {
                    return Ok(());
                }
                self.add_edge(&e)?;
                if seen.insert(other) {
                    queue.push_back((other, d + 1));
                }
            }
        }
        Ok(())
    }

    pub(crate) fn add_sites(&mut self, sites: Vec<SiteRow>) {
        self.site_count += sites.len();
        for s in sites {
            if self.sites.len() >= self.limits.max_sites {
                break;
            }
            let from = s.from_node.and_then(|id| self.row(id).ok().flatten()).map(|r| display_name(&r));
            self.sites.push(site(s, from));
        }
    }

    /// Unresolved sites elsewhere that use the target's name: possible callers the graph
    /// could not bind. Counted and listed, so "no callers" is never claimed blindly.
    fn note_possible_callers(&mut self, row: &NodeRow, what: &str) -> Result<()> {
        let Some(name) = row.name.as_deref() else { return Ok(()) };
        let sites = self.store.sites_named(name, "unresolved")?;
        if !sites.is_empty() {
            self.notes.push(format!(
                "{} unresolved sites elsewhere use the name `{name}`: they may be {what} the graph could not bind",
                sites.len()
            ));
            self.add_sites(sites);
        }
        Ok(())
    }

    pub(crate) fn finish(mut self, query: &str, depth: Option<u32>) -> ContextBundle {
        if self.truncated {
            self.notes.push(format!(
                "answer truncated at {} nodes / {} edges; ask about a narrower target",
                self.limits.max_nodes, self.limits.max_edges
            ));
        }
        if self.site_count > self.sites.len() {
            self.notes.push(format!("{} unresolved sites, the first {} listed", self.site_count, self.sites.len()));
        }
        // Ids follow ingest order, which parallel extraction does not fix: order by
        // content so the same graph always gives the same answer.
        self.nodes.sort_by(|a, b| {
            (&a.relation, a.distance, &a.file_path, a.line_start, &a.qualified_name, &a.name)
                .cmp(&(&b.relation, b.distance, &b.file_path, b.line_start, &b.qualified_name, &b.name))
        });
        self.edges.sort_by(|a, b| {
            (&a.edge_type, &a.source_name, &a.target_name, &a.file_path, a.line, &a.resolution)
                .cmp(&(&b.edge_type, &b.source_name, &b.target_name, &b.file_path, b.line, &b.resolution))
        });
        let metadata = Metadata {
            query: query.to_string(),
            depth,
            node_count: self.nodes.len(),
            edge_count: self.edges.len(),
            truncated: self.truncated,
            unresolved_count: self.site_count,
            unresolved: self.sites,
            notes: self.notes,
        };
        ContextBundle { target: context_node(&self.target), nodes: self.nodes, edges: self.edges, metadata }
    }
}

pub(crate) fn site(s: SiteRow, from: Option<String>) -> UnresolvedSite {
    UnresolvedSite {
        file_path: s.file_path,
        line: s.line,
        kind: s.kind,
        name: match &s.receiver {
            Some(r) if !r.is_empty() => format!("{r}.{}", s.name),
            _ => s.name,
        },
        from,
    }
}
