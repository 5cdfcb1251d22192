//! Reads for exporting the graph: every node and edge in id order, a page at a time (so
//! the whole JDK graph streams in bounded memory on both backends), and the edges of one
//! node with their properties (for a neighbourhood). Properties are those the Cypher
//! engine sees (the column-backed keys merged with the JSON `props`; a `null` is absent).

use serde_json::{Map, Value};

use crate::db::{params, Row};
use crate::{Result, Store};

/// A node as exported: its labels (the first is `nodes.label`) and every property.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportNode {
    pub id: i64,
    pub labels: Vec<String>,
    pub props: Map<String, Value>,
}

impl ExportNode {
    /// The first label (`""` for a node created without one).
    pub fn label(&self) -> &str {
        self.labels.first().map(String::as_str).unwrap_or("")
    }

    pub fn str_prop(&self, key: &str) -> Option<&str> {
        self.props.get(key).and_then(Value::as_str)
    }
}

/// An edge as exported, with the first labels of its two ends.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportEdge {
    pub id: i64,
    pub src: i64,
    pub dst: i64,
    pub edge_type: String,
    pub src_label: String,
    pub dst_label: String,
    pub props: Map<String, Value>,
}

const NODE_SELECT: &str = "SELECT n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, n.props,
    (SELECT group_concat(l.label, char(31)) FROM (SELECT label FROM node_labels WHERE node = n.id ORDER BY rowid) l)
    FROM nodes n";
const EDGE_SELECT: &str = "SELECT e.id, e.src, e.dst, e.type, e.resolution, e.line, e.col, e.props,
    (SELECT label FROM nodes WHERE id = e.src), (SELECT label FROM nodes WHERE id = e.dst)
    FROM edges e";

/// The JSON `props`, without `null`s (an absent property, as Cypher reads it).
fn props_of(text: Option<String>) -> Map<String, Value> {
    let mut m = text.and_then(|t| serde_json::from_str::<Map<String, Value>>(&t).ok()).unwrap_or_default();
    m.retain(|_, v| !v.is_null());
    m
}

fn export_node(r: &Row<'_>) -> Result<ExportNode> {
    let mut props = Map::new();
    for (i, key) in [(2, "name"), (3, "qualified_name"), (4, "file_path")] {
        if let Some(v) = r.get::<Option<String>>(i)? {
            props.insert(key.into(), Value::String(v));
        }
    }
    for (i, key) in [(5, "line_start"), (6, "line_end")] {
        if let Some(v) = r.get::<Option<i64>>(i)? {
            props.insert(key.into(), Value::from(v));
        }
    }
    for (k, v) in props_of(r.get(7)?) {
        props.entry(k).or_insert(v);
    }
    let first: String = r.get(1)?;
    let mut labels = if first.is_empty() { vec![] } else { vec![first] };
    if let Some(more) = r.get::<Option<String>>(8)? {
        labels.extend(more.split('\u{1f}').filter(|l| !l.is_empty()).map(str::to_string));
    }
    Ok(ExportNode { id: r.get(0)?, labels, props })
}

fn export_edge(r: &Row<'_>) -> Result<ExportEdge> {
    let mut props = Map::new();
    if let Some(v) = r.get::<Option<String>>(4)? {
        props.insert("resolution".into(), Value::String(v));
    }
    for (i, key) in [(5, "line"), (6, "column")] {
        if let Some(v) = r.get::<Option<i64>>(i)? {
            props.insert(key.into(), Value::from(v));
        }
    }
    for (k, v) in props_of(r.get(7)?) {
        props.entry(k).or_insert(v);
    }
    Ok(ExportEdge {
        id: r.get(0)?,
        src: r.get(1)?,
        dst: r.get(2)?,
        edge_type: r.get(3)?,
        src_label: r.get::<Option<String>>(8)?.unwrap_or_default(),
        dst_label: r.get::<Option<String>>(9)?.unwrap_or_default(),
        props,
    })
}

impl Store {
    /// Up to `limit` nodes with an id above `after`, in id order.
    pub fn export_nodes_page(&self, after: i64, limit: usize) -> Result<Vec<ExportNode>> {
        let mut st = self.conn().prepare_cached(&format!("{NODE_SELECT} WHERE n.id > ?1 ORDER BY n.id LIMIT ?2"))?;
        let rows = st.query_map(params![after, limit as i64], export_node)?;
        rows.collect()
    }

    /// Up to `limit` edges with an id above `after`, in id order.
    pub fn export_edges_page(&self, after: i64, limit: usize) -> Result<Vec<ExportEdge>> {
        let mut st = self.conn().prepare_cached(&format!("{EDGE_SELECT} WHERE e.id > ?1 ORDER BY e.id LIMIT ?2"))?;
        let rows = st.query_map(params![after, limit as i64], export_edge)?;
        rows.collect()
    }

    /// One node as exported.
    pub fn export_node(&self, id: i64) -> Result<Option<ExportNode>> {
        let mut st = self.conn().prepare_cached(&format!("{NODE_SELECT} WHERE n.id = ?1"))?;
        let rows = st.query_map(params![id], export_node)?;
        rows.into_iter().next().transpose()
    }

    /// Every edge into or out of a node, in id order (a self-loop once).
    pub fn export_edges_of(&self, id: i64) -> Result<Vec<ExportEdge>> {
        let mut st = self.conn().prepare_cached(&format!(
            "{EDGE_SELECT} WHERE e.src = ?1 UNION {EDGE_SELECT} WHERE e.dst = ?1 AND e.src <> ?1 ORDER BY 1"
        ))?;
        let rows = st.query_map(params![id], export_edge)?;
        rows.collect()
    }

    /// The ids of the nodes in a file or under a folder (`dir/`), in id order.
    pub fn node_ids_under(&self, path: &str) -> Result<Vec<i64>> {
        let folder = format!("{}/", path.trim_end_matches('/'));
        let mut st = self.conn().prepare_cached(
            "SELECT id FROM nodes WHERE file_path = ?1 OR substr(file_path, 1, length(?2)) = ?2 ORDER BY id",
        )?;
        let rows = st.query_map(params![path, folder], |r| r.get::<i64>(0))?;
        rows.collect()
    }

    /// Node and edge totals (for progress).
    pub fn export_totals(&self) -> Result<(u64, u64)> {
        let n = self.conn().query_row("SELECT count(*) FROM nodes", params![], |r| r.get::<i64>(0))?;
        let e = self.conn().query_row("SELECT count(*) FROM edges", params![], |r| r.get::<i64>(0))?;
        Ok((n as u64, e as u64))
    }
}
