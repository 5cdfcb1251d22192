//! The graph out, in the formats other tools read: GraphML (Gephi, yEd, networkx), DOT
//! (Graphviz), Mermaid (a pull request), JSON Lines (pipelines) and Cypher (Neo4j, or our
//! own engine). One traversal ([`Selection`]) feeds one writer per format ([`Sink`]):
//! the whole graph streams from the store a page at a time (bounded memory whatever its
//! size), a neighbourhood (`scope` and `depth`) is collected first (it is small by
//! construction). The formats are documented in `docs/export.md`.

mod cypher;
mod dot;
mod graphml;
mod jsonl;
pub(crate) mod mermaid;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;

use navegador_store::{ExportEdge, ExportNode, Store};
use serde_json::Value;

use crate::{AnalysisError, Result};

/// An export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Graphml,
    Dot,
    Mermaid,
    Jsonl,
    Cypher,
}

impl Format {
    /// The accepted spellings, for messages and the CLI.
    pub const NAMES: [&'static str; 5] = ["graphml", "dot", "mermaid", "jsonl", "cypher"];

    pub fn parse(s: &str) -> Option<Format> {
        Some(match s {
            "graphml" => Format::Graphml,
            "dot" => Format::Dot,
            "mermaid" => Format::Mermaid,
            "jsonl" => Format::Jsonl,
            "cypher" => Format::Cypher,
            _ => return None,
        })
    }
}

/// What to export and how.
#[derive(Debug, Clone)]
pub struct ExportAsk {
    pub format: Format,
    /// A file or folder path, or a symbol's name or qualified name: its neighbourhood.
    /// `None`: the whole graph.
    pub scope: Option<String>,
    /// Hops from the scope (both directions); ignored for the whole graph.
    pub depth: u32,
    /// Only nodes with these labels (their first label), and the edges between them.
    pub labels: Vec<String>,
    /// Most nodes in a Mermaid diagram (more are cut, and the diagram says so).
    pub mermaid_max_nodes: usize,
    /// Most nodes a neighbourhood collects (past it the export is cut and says so).
    pub max_scope_nodes: usize,
}

impl ExportAsk {
    pub fn new(format: Format) -> Self {
        ExportAsk { format, scope: None, depth: 1, labels: Vec::new(), mermaid_max_nodes: 100, max_scope_nodes: 100_000 }
    }
}

/// What was written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportSummary {
    pub nodes: u64,
    pub edges: u64,
    /// Why the output is not everything that was asked (Mermaid's size limit, the
    /// neighbourhood cap), in words.
    pub notes: Vec<String>,
}

/// Progress of a long run: (nodes or edges, done, total).
pub type Progress<'a> = &'a mut dyn FnMut(&'static str, u64, u64);

/// A writer of one format: nodes first, then edges.
pub(crate) trait Sink {
    fn begin(&mut self, _schema: &Schema) -> std::io::Result<()> {
        Ok(())
    }
    fn node(&mut self, n: &ExportNode) -> std::io::Result<()>;
    fn end_nodes(&mut self) -> std::io::Result<()> {
        Ok(())
    }
    fn edge(&mut self, e: &ExportEdge) -> std::io::Result<()>;
    fn finish(&mut self, summary: &mut ExportSummary) -> std::io::Result<()>;
}

/// The JSON type of each property key (GraphML declares its keys, typed, before the graph).
#[derive(Debug, Clone, Default)]
pub(crate) struct Schema {
    pub node_keys: BTreeMap<String, Kind>,
    pub edge_keys: BTreeMap<String, Kind>,
}

/// A property's type as GraphML says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Boolean,
    Long,
    Double,
    /// Strings, and lists or maps (written as JSON text).
    String,
}

impl Kind {
    fn of(v: &Value) -> Option<Kind> {
        Some(match v {
            Value::Null => return None,
            Value::Bool(_) => Kind::Boolean,
            Value::Number(n) if n.is_i64() || n.is_u64() => Kind::Long,
            Value::Number(_) => Kind::Double,
            _ => Kind::String,
        })
    }

    /// The type of a key whose values have types `self` and `other`.
    fn join(self, other: Kind) -> Kind {
        match (self, other) {
            (a, b) if a == b => a,
            (Kind::Long, Kind::Double) | (Kind::Double, Kind::Long) => Kind::Double,
            _ => Kind::String,
        }
    }
}

fn note_keys(keys: &mut BTreeMap<String, Kind>, props: &serde_json::Map<String, Value>) {
    for (k, v) in props {
        if let Some(kind) = Kind::of(v) {
            keys.entry(k.clone()).and_modify(|x| *x = x.join(kind)).or_insert(kind);
        }
    }
}

struct SchemaSink<'a>(&'a mut Schema);

impl Sink for SchemaSink<'_> {
    fn node(&mut self, n: &ExportNode) -> std::io::Result<()> {
        note_keys(&mut self.0.node_keys, &n.props);
        Ok(())
    }
    fn edge(&mut self, e: &ExportEdge) -> std::io::Result<()> {
        note_keys(&mut self.0.edge_keys, &e.props);
        Ok(())
    }
    fn finish(&mut self, _: &mut ExportSummary) -> std::io::Result<()> {
        Ok(())
    }
}

/// What an export covers.
enum Selection {
    /// Every node (of the labels, when given) and the edges between them, streamed.
    Whole { labels: Option<HashSet<String>> },
    /// A neighbourhood, nearest first, and the edges among its nodes.
    Scoped { nodes: Vec<ExportNode>, edges: Vec<ExportEdge> },
}

/// Rows per page of the streaming read.
const PAGE: usize = 5_000;

impl Selection {
    fn visit(&self, store: &Store, sink: &mut dyn Sink, progress: Progress<'_>, summary: &mut ExportSummary) -> Result<()> {
        let io = AnalysisError::Write;
        match self {
            Selection::Scoped { nodes, edges } => {
                for n in nodes {
                    sink.node(n).map_err(io)?;
                }
                sink.end_nodes().map_err(io)?;
                for e in edges {
                    sink.edge(e).map_err(io)?;
                }
                summary.nodes = nodes.len() as u64;
                summary.edges = edges.len() as u64;
            }
            Selection::Whole { labels } => {
                let (total_nodes, total_edges) = store.export_totals()?;
                let keep = |l: &str| labels.as_ref().is_none_or(|s| s.contains(l));
                let (mut after, mut seen, mut written) = (0, 0u64, 0u64);
                loop {
                    let page = store.export_nodes_page(after, PAGE)?;
                    let Some(last) = page.last() else { break };
                    after = last.id;
                    seen += page.len() as u64;
                    for n in page.iter().filter(|n| keep(n.label())) {
                        sink.node(n).map_err(io)?;
                        written += 1;
                    }
                    progress("nodes", seen, total_nodes);
                }
                sink.end_nodes().map_err(io)?;
                summary.nodes = written;
                let (mut after, mut seen, mut written) = (0, 0u64, 0u64);
                loop {
                    let page = store.export_edges_page(after, PAGE)?;
                    let Some(last) = page.last() else { break };
                    after = last.id;
                    seen += page.len() as u64;
                    for e in page.iter().filter(|e| keep(&e.src_label) && keep(&e.dst_label)) {
                        sink.edge(e).map_err(io)?;
                        written += 1;
                    }
                    progress("edges", seen, total_edges);
                }
                summary.edges = written;
            }
        }
        Ok(())
    }
}

/// Writes the export to `out`; progress of the streaming read goes to `progress`.
pub fn export(store: &Store, ask: &ExportAsk, out: &mut dyn Write, progress: Progress<'_>) -> Result<ExportSummary> {
    let mut summary = ExportSummary::default();
    let labels: Option<HashSet<String>> = (!ask.labels.is_empty()).then(|| ask.labels.iter().cloned().collect());
    let selection = match &ask.scope {
        None => Selection::Whole { labels },
        Some(scope) => neighbourhood(store, scope, ask.depth, labels.as_ref(), ask.max_scope_nodes, &mut summary.notes)?,
    };
    let mut schema = Schema::default();
    if ask.format == Format::Graphml {
        selection.visit(store, &mut SchemaSink(&mut schema), &mut |_, _, _| {}, &mut ExportSummary::default())?;
    }
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    let mut sink: Box<dyn Sink + '_> = match ask.format {
        Format::Graphml => Box::new(graphml::Graphml::new(&mut out)),
        Format::Dot => Box::new(dot::Dot::new(&mut out)),
        Format::Mermaid => Box::new(mermaid::Mermaid::new(&mut out, ask.mermaid_max_nodes)),
        Format::Jsonl => Box::new(jsonl::Jsonl::new(&mut out)),
        Format::Cypher => Box::new(cypher::Cypher::new(&mut out)),
    };
    sink.begin(&schema).map_err(AnalysisError::Write)?;
    selection.visit(store, sink.as_mut(), progress, &mut summary)?;
    sink.finish(&mut summary).map_err(AnalysisError::Write)?;
    drop(sink);
    out.flush().map_err(AnalysisError::Write)?;
    Ok(summary)
}

/// The nodes of `scope` (a path's nodes, or the symbols of that name) and those within
/// `depth` hops of them over edges of either direction, nearest first, with every edge
/// among them.
fn neighbourhood(
    store: &Store,
    scope: &str,
    depth: u32,
    labels: Option<&HashSet<String>>,
    cap: usize,
    notes: &mut Vec<String>,
) -> Result<Selection> {
    let scope = scope.trim();
    if scope.is_empty() {
        return Err(AnalysisError::Empty { field: "scope" });
    }
    let mut seeds = store.node_ids_under(scope.trim_start_matches("./"))?;
    if seeds.is_empty() {
        let mut rows = crate::lookup::named(store, scope)?;
        // A name stands for its definitions, not the sites (imports, decorators, endpoints)
        // that share it, when it has definitions.
        let site = |r: &navegador_store::NodeRow| crate::lookup::SITE_LABELS.contains(&r.label.as_str());
        if rows.iter().any(|r| !site(r)) {
            rows.retain(|r| !site(r));
        }
        seeds = rows.into_iter().map(|n| n.id).collect();
    }
    if seeds.is_empty() {
        let mut like = store.files_matching(scope, 3)?;
        let last = scope.rsplit(['.', '/', ':']).next().unwrap_or(scope);
        like.extend(store.names_like(last, 3)?);
        let hint = if like.is_empty() { String::new() } else { format!(" (did you mean {}?)", like.join(", ")) };
        return Err(AnalysisError::BadArgument(format!(
            "scope `{scope}` is neither an indexed file or folder nor a symbol's name{hint}; pass a workspace-relative path, a name or a qualified name"
        )));
    }
    let keep = |n: &ExportNode| labels.is_none_or(|s| s.contains(n.label()));
    let mut order: Vec<ExportNode> = Vec::new();
    let mut index: HashMap<i64, usize> = HashMap::new();
    let mut edges: BTreeMap<i64, ExportEdge> = BTreeMap::new();
    let mut frontier: Vec<i64> = Vec::new();
    for id in seeds {
        if let Some(n) = store.export_node(id)?.filter(|n| keep(n)) {
            if !index.contains_key(&id) {
                index.insert(id, order.len());
                order.push(n);
                frontier.push(id);
            }
        }
    }
    let mut cut = false;
    for hop in 0..=depth {
        let mut next = Vec::new();
        for &id in &frontier {
            for e in store.export_edges_of(id)? {
                let other = if e.src == id { e.dst } else { e.src };
                if !index.contains_key(&other) && hop < depth && !cut {
                    if order.len() >= cap {
                        cut = true;
                    } else if let Some(n) = store.export_node(other)?.filter(|n| keep(n)) {
                        index.insert(other, order.len());
                        order.push(n);
                        next.push(other);
                    }
                }
                edges.entry(e.id).or_insert(e);
            }
        }
        frontier = next;
        if frontier.is_empty() {
            break;
        }
    }
    if cut {
        notes.push(format!("the neighbourhood was cut at {cap} nodes; pass a smaller --depth or a --labels filter"));
    }
    let edges = edges.into_values().filter(|e| index.contains_key(&e.src) && index.contains_key(&e.dst)).collect();
    Ok(Selection::Scoped { nodes: order, edges })
}

/// A node's name for people: its qualified name, else its name, else its path.
pub(crate) fn display_name(n: &ExportNode) -> String {
    n.str_prop("qualified_name")
        .or_else(|| n.str_prop("name"))
        .or_else(|| n.str_prop("file_path"))
        .or_else(|| n.str_prop("title"))
        .map(str::to_string)
        .unwrap_or_else(|| format!("#{}", n.id))
}

/// A property value as text (strings as they are, anything else as JSON).
pub(crate) fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
