//! navegador-graph: the property-graph vocabulary shared by the Cypher engine and the stores.
//!
//! The crate does no I/O. It defines values, nodes, edges, the read/write capability traits
//! (`GraphRead`, `GraphWrite`, kept separate so a read-only query can run on a shared
//! reference) and `MemGraph`, the in-memory implementation used by tests and the TCK runner.
//! The traits return owned `Vec`s so a SQL backend can implement them one statement per call.

pub mod conformance;
mod mem;
mod value;

pub use mem::MemGraph;
pub use value::{Edge, Node, Path, Value};

use std::collections::BTreeMap;
use std::fmt;

/// Identifier of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub i64);

/// Identifier of an edge (relationship).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EdgeId(pub i64);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Display for EdgeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Which edges of a node to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Edges whose `src` is the node.
    Outgoing,
    /// Edges whose `dst` is the node.
    Incoming,
    /// Both; a self-loop is reported once.
    Both,
}

/// Errors a graph backend can report.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum GraphError {
    #[error("node {0} not found")]
    NodeNotFound(NodeId),
    #[error("edge {0} not found")]
    EdgeNotFound(EdgeId),
    #[error("cannot delete node {0} because it still has relationships; use DETACH DELETE")]
    NodeHasEdges(NodeId),
    #[error("invalid property value for key '{key}': {reason}")]
    InvalidProperty { key: String, reason: String },
    #[error("storage error: {0}")]
    Storage(String),
}

/// Statistics the Cypher planner uses to estimate rows per operator.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphStats {
    pub node_count: u64,
    /// Nodes per label.
    pub label_counts: BTreeMap<String, u64>,
    /// Edges per relationship type.
    pub edge_counts: BTreeMap<String, u64>,
    /// Average number of outgoing edges of a type per node that has at least one.
    pub avg_out_degree: BTreeMap<String, f64>,
    /// Average number of incoming edges of a type per node that has at least one.
    pub avg_in_degree: BTreeMap<String, f64>,
    /// Node property keys with an index (lookups by value are cheap).
    pub indexed_properties: Vec<String>,
}

impl GraphStats {
    /// Total number of edges.
    pub fn edge_count(&self) -> u64 {
        self.edge_counts.values().sum()
    }
}

/// Labels, relationship types and property keys present in a graph, each list sorted.
/// The engine reads it once per query (warnings for names that do not exist,
/// `db.labels()`), so a large backend keeps it at hand rather than scanning.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schema {
    pub labels: Vec<String>,
    pub rel_types: Vec<String>,
    pub node_property_keys: Vec<String>,
    pub edge_property_keys: Vec<String>,
    /// Property keys found on the nodes of each label (`""`: nodes without a label).
    pub label_property_keys: BTreeMap<String, Vec<String>>,
    /// Property keys found on the relationships of each type.
    pub type_property_keys: BTreeMap<String, Vec<String>>,
}

/// Read access to a property graph. Object-safe; every call returns owned data.
pub trait GraphRead {
    /// The node with this id, if it exists.
    fn node(&self, id: NodeId) -> Result<Option<Node>, GraphError>;
    /// The nodes with these ids, in order (`None` for a missing one). A backend where each
    /// read is a round trip answers a list in one.
    fn nodes(&self, ids: &[NodeId]) -> Result<Vec<Option<Node>>, GraphError> {
        ids.iter().map(|&id| self.node(id)).collect()
    }
    /// The edge with this id, if it exists.
    fn edge(&self, id: EdgeId) -> Result<Option<Edge>, GraphError>;
    /// Ids of nodes carrying `label`, or of all nodes when `label` is `None`, ascending.
    fn node_ids(&self, label: Option<&str>) -> Result<Vec<NodeId>, GraphError>;
    /// Ids of nodes (with `label`, if given) whose property `key` equals `value`
    /// (Cypher equality: `1 = 1.0`). Backends index some keys (see `GraphStats::indexed_properties`).
    fn node_ids_by_property(
        &self,
        label: Option<&str>,
        key: &str,
        value: &Value,
    ) -> Result<Vec<NodeId>, GraphError>;
    /// Edges touching `node` in `direction`, restricted to `types` unless it is empty.
    fn edges_of(
        &self,
        node: NodeId,
        direction: Direction,
        types: &[String],
    ) -> Result<Vec<Edge>, GraphError>;
    /// Counts and degrees for the cost model. `node_count`, `label_counts` and
    /// `edge_counts` are exact: the engine answers `count(*)` of a label or type from them.
    fn stats(&self) -> Result<GraphStats, GraphError>;
    /// Labels, types and property keys in use.
    fn schema(&self) -> Result<Schema, GraphError>;
    /// The nodes with these ids, in order, with all their labels but only the properties
    /// named in `keys` (a whole-graph aggregation reads one or two keys of every node; a
    /// backend that stores properties apart skips decoding the rest).
    fn nodes_with_keys(&self, ids: &[NodeId], keys: &[String]) -> Result<Vec<Option<Node>>, GraphError> {
        let mut nodes = self.nodes(ids)?;
        for n in nodes.iter_mut().flatten() {
            n.props.retain(|k, _| keys.contains(k));
        }
        Ok(nodes)
    }
    /// For each of `ids`, in order, how many edges `edges_of(id, direction, types)` returns
    /// (a backend with an adjacency index counts them there, in one statement per list).
    fn degrees(&self, ids: &[NodeId], direction: Direction, types: &[String]) -> Result<Vec<u64>, GraphError> {
        ids.iter().map(|&id| Ok(self.edges_of(id, direction, types)?.len() as u64)).collect()
    }
    /// Each node carrying `label` (every node when `None`) with at least one edge that
    /// `degrees(…, direction, types)` counts, ascending by id, with that count; read with
    /// only the properties in `keys` (`nodes_with_keys`), or whole when `keys` is `None`.
    /// A backend with an edge index answers it in one grouped scan of the edges of `types`
    /// instead of a count per node.
    fn nodes_by_degree(
        &self,
        label: Option<&str>,
        direction: Direction,
        types: &[String],
        keys: Option<&[String]>,
    ) -> Result<Vec<(Node, u64)>, GraphError> {
        nodes_by_degree_per_node(self, label, direction, types, keys)
    }
    /// Every distinct list of labels (in the nodes' order) with the number of nodes that
    /// carry exactly it, sorted by the list; nodes without a label count under `[]`.
    fn label_groups(&self) -> Result<Vec<(Vec<String>, u64)>, GraphError> {
        let ids = self.node_ids(None)?;
        let mut groups: BTreeMap<Vec<String>, u64> = BTreeMap::new();
        for chunk in ids.chunks(512) {
            for n in self.nodes_with_keys(chunk, &[])?.into_iter().flatten() {
                *groups.entry(n.labels).or_default() += 1;
            }
        }
        Ok(groups.into_iter().collect())
    }
    /// Reference sites of the code graph that no edge stands for (a call whose target was
    /// not found, or is outside the workspace), as records; a graph without sites has none.
    fn unresolved_sites(&self) -> Result<Vec<UnresolvedSite>, GraphError> {
        Ok(Vec::new())
    }
}

/// `GraphRead::nodes_by_degree` by `node_ids`, then `degrees` and `nodes_with_keys` per
/// 512 nodes (the default; a backend falls back to it for what its index cannot count).
pub fn nodes_by_degree_per_node<G: GraphRead + ?Sized>(
    g: &G,
    label: Option<&str>,
    direction: Direction,
    types: &[String],
    keys: Option<&[String]>,
) -> Result<Vec<(Node, u64)>, GraphError> {
    let mut out = Vec::new();
    for chunk in g.node_ids(label)?.chunks(512) {
        let kept: Vec<(NodeId, u64)> = chunk.iter().copied().zip(g.degrees(chunk, direction, types)?).filter(|(_, w)| *w > 0).collect();
        let ids: Vec<NodeId> = kept.iter().map(|(id, _)| *id).collect();
        let nodes = match keys {
            Some(keys) => g.nodes_with_keys(&ids, keys)?,
            None => g.nodes(&ids)?,
        };
        out.extend(nodes.into_iter().zip(kept).filter_map(|(n, (_, w))| n.map(|n| (n, w))));
    }
    Ok(out)
}

/// A reference site without an edge (`GraphRead::unresolved_sites`).
#[derive(Clone, Debug, PartialEq)]
pub struct UnresolvedSite {
    pub file: String,
    pub line: i64,
    pub column: i64,
    /// The name as written at the site (`append` in `xs.append(1)`).
    pub name: String,
    /// What the site is: `call`, `constructor`, `inherits`, ...
    pub kind: String,
    /// The receiver as written (`xs`), if any.
    pub receiver: Option<String>,
    /// Why it has no edge: `unresolved` (no target found) or `external` (a builtin or a
    /// package outside the workspace).
    pub reason: String,
    /// The node of the symbol that contains the site, if any.
    pub caller: Option<NodeId>,
}

/// Write access to a property graph.
pub trait GraphWrite: GraphRead {
    fn create_node(
        &mut self,
        labels: &[String],
        props: BTreeMap<String, Value>,
    ) -> Result<NodeId, GraphError>;
    fn create_edge(
        &mut self,
        src: NodeId,
        dst: NodeId,
        rel_type: &str,
        props: BTreeMap<String, Value>,
    ) -> Result<EdgeId, GraphError>;
    /// Sets a node property; a `Null` value removes it.
    fn set_node_property(&mut self, id: NodeId, key: &str, value: Value) -> Result<(), GraphError>;
    /// Sets an edge property; a `Null` value removes it.
    fn set_edge_property(&mut self, id: EdgeId, key: &str, value: Value) -> Result<(), GraphError>;
    /// Adds a label; returns whether the node did not have it.
    fn add_label(&mut self, id: NodeId, label: &str) -> Result<bool, GraphError>;
    /// Removes a label; returns whether the node had it.
    fn remove_label(&mut self, id: NodeId, label: &str) -> Result<bool, GraphError>;
    /// Deletes a node; fails with `NodeHasEdges` unless `detach` or the node has no edges.
    /// Returns the number of edges deleted along with it.
    fn delete_node(&mut self, id: NodeId, detach: bool) -> Result<usize, GraphError>;
    fn delete_edge(&mut self, id: EdgeId) -> Result<(), GraphError>;
}
