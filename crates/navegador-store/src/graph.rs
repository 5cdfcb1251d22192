//! The store as a property graph: `navegador_graph::{GraphRead, GraphWrite}` over the
//! `nodes` / `edges` tables, so the Cypher engine runs on the SQLite file.
//!
//! Mapping. A node's properties are its non-null columns `name`, `qualified_name`,
//! `file_path`, `line_start`, `line_end` merged with the JSON object `props`; an edge's are
//! `resolution`, `line`, `column` (the `col` column) merged with its `props`. Writes put
//! those keys back in their columns (scalars only) and everything else in JSON. The first
//! label lives in `nodes.label` (`''` for a node without labels), further labels in
//! `node_labels` (schema v3), so a multi-label `CREATE`/`SET n:L` works and ingest, which
//! writes one label, pays nothing.
//!
//! `stats()` and `schema()` read the catalog (`catalog.rs`, kept exact by triggers), cached
//! per store until the file changed (`PRAGMA data_version`, or a write through this
//! connection).

use std::cell::RefCell;
use std::collections::BTreeMap;

use navegador_graph::{
    Direction, Edge, EdgeId, GraphError, GraphRead, GraphStats, GraphWrite, Node, NodeId, Schema,
    UnresolvedSite, Value,
};
use rusqlite::types::Value as SqlValue;

use crate::db::{params, Col, OptionalExtension, Row, ToParam, TxKind};

use crate::Store;

/// Node properties kept in columns; the first three are indexed.
const NODE_COLUMNS: &[&str] = &["name", "qualified_name", "file_path", "line_start", "line_end"];
const INDEXED: &[&str] = &["name", "qualified_name", "file_path"];
/// Edge properties kept in columns: (property key, column).
const EDGE_COLUMNS: &[(&str, &str)] = &[("resolution", "resolution"), ("line", "line"), ("column", "col")];

const NODE_SELECT: &str = "SELECT n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, n.props,
    (SELECT group_concat(l.label, char(31)) FROM (SELECT label FROM node_labels WHERE node = n.id ORDER BY rowid) l)
    FROM nodes n";
const EDGE_SELECT: &str = "SELECT e.id, e.src, e.dst, e.type, e.resolution, e.line, e.col, e.props FROM edges e";

/// The cached statistics and schema of one store and the state of the file they describe.
#[derive(Default)]
pub(crate) struct StatsCache(RefCell<Option<(i64, usize, GraphStats, Schema)>>);

fn sql_err(e: crate::StoreError) -> GraphError {
    GraphError::Storage(e.to_string())
}

fn json_err(e: serde_json::Error) -> GraphError {
    GraphError::Storage(format!("bad props JSON: {e}"))
}

/// JSON -> Cypher value: integers stay integers, other numbers become floats; `null`
/// (absent) is `None`.
fn from_json(j: serde_json::Value) -> Option<Value> {
    use serde_json::Value as J;
    Some(match j {
        J::Null => return None,
        J::Bool(b) => Value::Bool(b),
        J::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => Value::String(s),
        J::Array(a) => Value::List(a.into_iter().map(|v| from_json(v).unwrap_or(Value::Null)).collect()),
        J::Object(o) => Value::Map(o.into_iter().filter_map(|(k, v)| Some((k, from_json(v)?))).collect()),
    })
}

fn to_json(key: &str, v: &Value) -> Result<serde_json::Value, GraphError> {
    use serde_json::Value as J;
    if !v.is_storable() {
        return Err(GraphError::InvalidProperty {
            key: key.to_string(),
            reason: "only scalars and lists of scalars can be stored".into(),
        });
    }
    Ok(match v {
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map(J::Number).ok_or_else(|| {
            GraphError::InvalidProperty { key: key.to_string(), reason: "NaN and infinities cannot be stored".into() }
        })?,
        Value::String(s) => J::String(s.clone()),
        Value::List(items) => J::Array(items.iter().map(|x| to_json(key, x)).collect::<Result<_, _>>()?),
        _ => unreachable!("is_storable admits only the cases above"),
    })
}

/// A column value -> Cypher value (`NULL` is absent).
fn from_sql(v: Col<'_>) -> Option<Value> {
    match v {
        Col::Null => None,
        Col::Int(i) => Some(Value::Int(i)),
        Col::Real(f) => Some(Value::Float(f)),
        Col::Text(t) => Some(Value::String(t.to_string())),
    }
}

/// A Cypher scalar -> column value; lists and maps do not go into columns.
fn to_sql(key: &str, v: &Value) -> Result<SqlValue, GraphError> {
    Ok(match v {
        Value::Null => SqlValue::Null,
        Value::Bool(b) => SqlValue::Integer(*b as i64),
        Value::Int(i) => SqlValue::Integer(*i),
        Value::Float(f) => SqlValue::Real(*f),
        Value::String(s) => SqlValue::Text(s.clone()),
        _ => {
            return Err(GraphError::InvalidProperty {
                key: key.to_string(),
                reason: "this property is a column of the store and takes a single value".into(),
            })
        }
    })
}

fn parse_props(text: Option<String>, into: &mut BTreeMap<String, Value>) -> Result<(), GraphError> {
    if let Some(t) = text.filter(|t| !t.is_empty() && t != "{}") {
        if let serde_json::Value::Object(o) = serde_json::from_str(&t).map_err(json_err)? {
            for (k, v) in o {
                if let Some(v) = from_json(v) {
                    into.insert(k, v);
                }
            }
        }
    }
    Ok(())
}

fn node_from_row(r: &Row<'_>) -> crate::Result<(Node, Option<String>)> {
    let label: String = r.get(1)?;
    let mut labels = Vec::new();
    if !label.is_empty() {
        labels.push(label);
    }
    if let Some(extra) = r.get::<Option<String>>(8)? {
        labels.extend(extra.split('\u{1f}').map(str::to_string));
    }
    let mut props = BTreeMap::new();
    for (i, key) in NODE_COLUMNS.iter().enumerate() {
        if let Some(v) = from_sql(r.col(2 + i)?) {
            props.insert(key.to_string(), v);
        }
    }
    Ok((Node { id: NodeId(r.get(0)?), labels, props }, r.get(7)?))
}

fn edge_from_row(r: &Row<'_>) -> crate::Result<(Edge, Option<String>)> {
    let mut props = BTreeMap::new();
    for (i, (key, _)) in EDGE_COLUMNS.iter().enumerate() {
        if let Some(v) = from_sql(r.col(4 + i)?) {
            props.insert(key.to_string(), v);
        }
    }
    Ok((
        Edge { id: EdgeId(r.get(0)?), src: NodeId(r.get(1)?), dst: NodeId(r.get(2)?), rel_type: r.get(3)?, props },
        r.get(7)?,
    ))
}

impl Store {
    fn query_nodes(&self, where_: &str, args: &[SqlValue]) -> Result<Vec<Node>, GraphError> {
        self.query_nodes_from(NODE_SELECT, where_, args)
    }

    /// `query_nodes` over another select list of the same shape (`NODE_SELECT`'s columns).
    fn query_nodes_from(&self, select: &str, where_: &str, args: &[SqlValue]) -> Result<Vec<Node>, GraphError> {
        let mut st = self.conn().prepare_cached(&format!("{select} {where_}")).map_err(sql_err)?;
        let rows = st.query_map(&as_params(args), node_from_row).map_err(sql_err)?;
        let mut out = Vec::new();
        for r in rows {
            let (mut n, props) = r.map_err(sql_err)?;
            parse_props(props, &mut n.props)?;
            out.push(n);
        }
        Ok(out)
    }

    fn query_edges(&self, where_: &str, args: &[SqlValue]) -> Result<Vec<Edge>, GraphError> {
        let mut st = self.conn().prepare_cached(&format!("{EDGE_SELECT} {where_}")).map_err(sql_err)?;
        let rows = st.query_map(&as_params(args), edge_from_row).map_err(sql_err)?;
        let mut out = Vec::new();
        for r in rows {
            let (mut e, props) = r.map_err(sql_err)?;
            parse_props(props, &mut e.props)?;
            out.push(e);
        }
        Ok(out)
    }

    /// The nodes of `ids` in order (`None` for a missing one; a repeated id gets its own
    /// copy), read by `select` (`NODE_SELECT`'s shape) in one statement.
    fn listed_nodes(&self, select: &str, ids: &[NodeId]) -> Result<Vec<Option<Node>>, GraphError> {
        let raw: Vec<i64> = ids.iter().map(|id| id.0).collect();
        let list = SqlValue::Text(crate::nav::id_list(&raw));
        let mut found: std::collections::HashMap<i64, Node> = self
            .query_nodes_from(select, "WHERE n.id IN (SELECT value FROM json_each(?1))", &[list])?
            .into_iter()
            .map(|n| (n.id.0, n))
            .collect();
        let mut out = Vec::with_capacity(ids.len());
        for (i, id) in raw.iter().enumerate() {
            let last = !raw[i + 1..].contains(id);
            out.push(if last { found.remove(id) } else { found.get(id).cloned() });
        }
        Ok(out)
    }

    fn ids(&self, sql: &str, args: &[SqlValue]) -> Result<Vec<NodeId>, GraphError> {
        let mut st = self.conn().prepare_cached(sql).map_err(sql_err)?;
        let rows = st.query_map(&as_params(args), |r| r.get(0)).map_err(sql_err)?;
        rows.map(|r| r.map(NodeId).map_err(sql_err)).collect()
    }

    fn changed(&self) {
        *self.graph_stats.0.borrow_mut() = None;
    }

    /// A change counter of the file: other connections' commits and this one's writes.
    fn data_version(&self) -> Result<(i64, usize), GraphError> {
        // PostgreSQL has no data_version: every write transaction moves `generation`.
        let sql = if self.conn().is_pg() {
            "SELECT CAST(value AS BIGINT) FROM meta WHERE key = 'generation'"
        } else {
            "PRAGMA data_version"
        };
        let v: i64 = self.conn().query_row(sql, params![], |r| r.get(0)).map_err(sql_err)?;
        Ok((v, self.conn().total_changes()))
    }

    /// Statistics and schema from the catalog (`catalog.rs`), cached until the file changes.
    fn catalog(&self) -> Result<(GraphStats, Schema), GraphError> {
        let (v, changes) = self.data_version()?;
        if let Some((cv, cc, st, sc)) = &*self.graph_stats.0.borrow() {
            if *cv == v && *cc == changes {
                return Ok((st.clone(), sc.clone()));
            }
        }
        let (mut st, sc) = crate::catalog::read(self.conn(), &|_, _, _| {}).map_err(sql_err)?;
        st.indexed_properties = INDEXED.iter().map(|s| s.to_string()).collect();
        *self.graph_stats.0.borrow_mut() = Some((v, changes, st.clone(), sc.clone()));
        Ok((st, sc))
    }

    fn node_exists(&self, id: NodeId) -> Result<bool, GraphError> {
        self.conn()
            .query_row("SELECT 1 FROM nodes WHERE id = ?1", params![id.0], |_| Ok(()))
            .optional()
            .map(|o| o.is_some())
            .map_err(sql_err)
    }

    fn props_json(&self, table: &str, id: i64) -> Result<Option<serde_json::Map<String, serde_json::Value>>, GraphError> {
        let text: Option<Option<String>> = self
            .conn()
            .query_row(&format!("SELECT props FROM {table} WHERE id = ?1"), params![id], |r| r.get(0))
            .optional()
            .map_err(sql_err)?;
        Ok(match text {
            None => None,
            Some(None) => Some(Default::default()),
            Some(Some(t)) => match serde_json::from_str(&t).map_err(json_err)? {
                serde_json::Value::Object(o) => Some(o),
                _ => Some(Default::default()),
            },
        })
    }

    fn set_json_prop(&mut self, table: &str, id: i64, key: &str, value: &Value) -> Result<bool, GraphError> {
        let Some(mut obj) = self.props_json(table, id)? else { return Ok(false) };
        if value.is_null() {
            obj.remove(key);
        } else {
            obj.insert(key.to_string(), to_json(key, value)?);
        }
        let text = serde_json::Value::Object(obj).to_string();
        self.conn().execute(&format!("UPDATE {table} SET props = ?1 WHERE id = ?2"), params![text, id]).map_err(sql_err)?;
        Ok(true)
    }

    /// Recomputes a node's typed columns (schema v8, `schema::TYPED`) from its label and
    /// `props` after a Cypher write changed either.
    fn typed(&self, id: i64) -> Result<(), GraphError> {
        static SQL: std::sync::LazyLock<String> =
            std::sync::LazyLock::new(|| format!("UPDATE nodes SET {} WHERE id = ?1", crate::schema::typed_set()));
        self.conn().execute(&SQL, params![id]).map(drop).map_err(sql_err)
    }

    /// Counts (`sign` 1) or uncounts (-1) node `id` (`nodes`) or relationship `id` in the
    /// catalog: after it is made, around a change, before it goes (`catalog.rs`).
    fn count(&self, nodes: bool, id: i64, sign: i64) -> Result<(), GraphError> {
        let c = self.conn();
        if nodes { crate::catalog::nodes(c, "id = ?1", params![id], sign) } else { crate::catalog::edges(c, "id = ?1", params![id], sign) }
            .map_err(sql_err)
    }

    /// After a write: outside a transaction its catalog changes are written at once.
    fn counted(&self) -> Result<(), GraphError> {
        self.conn().catalog_autocommit().map_err(sql_err)
    }

    fn labels_of(&self, id: NodeId) -> Result<Option<Vec<String>>, GraphError> {
        Ok(self.query_nodes("WHERE n.id = ?1", &[SqlValue::Integer(id.0)])?.pop().map(|n| n.labels))
    }
}

/// `select` over the keys `j.key` of every row's `props` object in `table`, then `tail`.
fn props_keys(table: &str, select: &str, tail: &str, pg: bool) -> String {
    let each = if pg { format!("json_each({table}.props::json)") } else { format!("json_each({table}.props)") };
    format!("{select} FROM {table}, {each} j WHERE {table}.props IS NOT NULL{tail}")
}

/// Column values as statement parameters.
fn as_params(args: &[SqlValue]) -> Vec<&dyn ToParam> {
    args.iter().map(|a| a as &dyn ToParam).collect()
}

/// `types` as `AND e.type IN (?, ?, ...)` with its arguments appended to `args`.
fn type_filter(types: &[String], args: &mut Vec<SqlValue>) -> String {
    if types.is_empty() {
        return String::new();
    }
    let marks: Vec<String> = types
        .iter()
        .map(|t| {
            args.push(SqlValue::Text(t.clone()));
            format!("?{}", args.len())
        })
        .collect();
    format!(" AND e.type IN ({})", marks.join(", "))
}

impl GraphRead for Store {
    fn node(&self, id: NodeId) -> Result<Option<Node>, GraphError> {
        Ok(self.query_nodes("WHERE n.id = ?1", &[SqlValue::Integer(id.0)])?.pop())
    }

    /// One statement for the list (`json_each` over the ids).
    fn nodes(&self, ids: &[NodeId]) -> Result<Vec<Option<Node>>, GraphError> {
        if ids.len() < 2 {
            return ids.iter().map(|&id| GraphRead::node(self, id)).collect();
        }
        self.listed_nodes(NODE_SELECT, ids)
    }

    /// One statement for the list, reading only the columns of `keys` (NULL for the
    /// others) and `props` only when a key lives there.
    fn nodes_with_keys(&self, ids: &[NodeId], keys: &[String]) -> Result<Vec<Option<Node>>, GraphError> {
        let cols: Vec<String> = NODE_COLUMNS
            .iter()
            .map(|c| if keys.iter().any(|k| k == c) { format!("n.{c}") } else { "NULL".to_string() })
            .collect();
        let json = keys.iter().any(|k| !NODE_COLUMNS.contains(&k.as_str()));
        let select = format!(
            "SELECT n.id, n.label, {}, {},
    (SELECT group_concat(l.label, char(31)) FROM (SELECT label FROM node_labels WHERE node = n.id ORDER BY rowid) l)
    FROM nodes n",
            cols.join(", "),
            if json { "n.props" } else { "NULL" }
        );
        let mut out = self.listed_nodes(&select, ids)?;
        if json {
            for n in out.iter_mut().flatten() {
                n.props.retain(|k, _| keys.contains(k));
            }
        }
        Ok(out)
    }

    /// One statement per list: a count over the `edges(src, type)` / `edges(dst, type)`
    /// index for each id.
    fn degrees(&self, ids: &[NodeId], direction: Direction, types: &[String]) -> Result<Vec<u64>, GraphError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let raw: Vec<i64> = ids.iter().map(|id| id.0).collect();
        let mut args = vec![SqlValue::Text(crate::nav::id_list(&raw))];
        let filter = type_filter(types, &mut args);
        let count = |end: &str, extra: &str| format!("(SELECT count(*) FROM edges e WHERE e.{end} = j.value{extra}{filter})");
        let expr = match direction {
            Direction::Outgoing => count("src", ""),
            Direction::Incoming => count("dst", ""),
            // a self-loop once, as `edges_of` gives it
            Direction::Both => format!("{} + {}", count("src", ""), count("dst", " AND e.src <> j.value")),
        };
        let mut st = self.conn().prepare_cached(&format!("SELECT j.value, {expr} FROM json_each(?1) j")).map_err(sql_err)?;
        let rows = st.query_map(&as_params(&args), |r| Ok((r.get::<i64>(0)?, r.get::<i64>(1)?))).map_err(sql_err)?;
        let mut found = std::collections::HashMap::with_capacity(ids.len());
        for r in rows {
            let (id, n) = r.map_err(sql_err)?;
            found.insert(id, n.max(0) as u64);
        }
        Ok(raw.iter().map(|id| found.get(id).copied().unwrap_or(0)).collect())
    }

    /// One statement: the edges of `types` grouped by their end on the counted side (a
    /// scan of the `edges(type, dst)` / `edges(dst, type)` index, not a count per node),
    /// joined to the nodes of `label`, read as `nodes_with_keys` reads them. Both
    /// directions at once (a self-loop counted once) go node by node.
    fn nodes_by_degree(
        &self,
        label: Option<&str>,
        direction: Direction,
        types: &[String],
        keys: Option<&[String]>,
    ) -> Result<Vec<(Node, u64)>, GraphError> {
        let end = match direction {
            Direction::Incoming => "dst",
            Direction::Outgoing => "src",
            Direction::Both => return navegador_graph::nodes_by_degree_per_node(self, label, direction, types, keys),
        };
        if label == Some("") {
            return Ok(Vec::new());
        }
        let all = |c: &str| keys.is_none_or(|k| k.iter().any(|k| k == c));
        let cols: Vec<String> = NODE_COLUMNS.iter().map(|c| if all(c) { format!("n.{c}") } else { "NULL".to_string() }).collect();
        let json = keys.is_none_or(|k| k.iter().any(|k| !NODE_COLUMNS.contains(&k.as_str())));
        let mut args = Vec::new();
        let filter = type_filter(types, &mut args);
        let by_label = match label {
            Some(l) => {
                args.push(SqlValue::Text(l.to_string()));
                let i = args.len();
                format!(" WHERE n.label = ?{i} OR n.id IN (SELECT node FROM node_labels WHERE label = ?{i})")
            }
            None => String::new(),
        };
        let sql = format!(
            "SELECT n.id, n.label, {}, {},
    (SELECT group_concat(l.label, char(31)) FROM (SELECT label FROM node_labels WHERE node = n.id ORDER BY rowid) l),
    d.c
    FROM (SELECT e.{end} AS node, count(*) AS c FROM edges e WHERE TRUE{filter} GROUP BY e.{end}) d
    JOIN nodes n ON n.id = d.node{by_label}
    ORDER BY n.id",
            cols.join(", "),
            if json { "n.props" } else { "NULL" }
        );
        let mut st = self.conn().prepare_cached(&sql).map_err(sql_err)?;
        let rows = st.query_map(&as_params(&args), |r| Ok((node_from_row(r)?, r.get::<i64>(9)?))).map_err(sql_err)?;
        let mut out = Vec::new();
        for r in rows {
            let ((mut n, props), c) = r.map_err(sql_err)?;
            parse_props(props, &mut n.props)?;
            if let Some(keys) = keys.filter(|_| json) {
                n.props.retain(|k, _| keys.contains(k));
            }
            out.push((n, c.max(0) as u64));
        }
        Ok(out)
    }

    /// First labels over the label index (one grouped scan of it); nodes with further
    /// labels (only Cypher writes them) are read one by one.
    fn label_groups(&self) -> Result<Vec<(Vec<String>, u64)>, GraphError> {
        let mut groups: BTreeMap<Vec<String>, u64> = BTreeMap::new();
        {
            let mut st = self.conn().prepare_cached("SELECT label, count(*) FROM nodes GROUP BY label").map_err(sql_err)?;
            let rows = st.query_map(params![], |r| Ok((r.get::<String>(0)?, r.get::<i64>(1)?))).map_err(sql_err)?;
            for r in rows {
                let (label, n) = r.map_err(sql_err)?;
                let key = if label.is_empty() { Vec::new() } else { vec![label] };
                *groups.entry(key).or_default() += n.max(0) as u64;
            }
        }
        for n in self.query_nodes("WHERE n.id IN (SELECT node FROM node_labels)", &[])? {
            // (a node with labels has its first in `nodes.label`)
            let first = n.labels[..n.labels.len().min(1)].to_vec();
            if let Some(c) = groups.get_mut(&first) {
                *c -= 1;
                if *c == 0 {
                    groups.remove(&first);
                }
            }
            *groups.entry(n.labels).or_default() += 1;
        }
        Ok(groups.into_iter().collect())
    }

    /// The `refs` rows of status `unresolved` or `external`, in the order they were written.
    fn unresolved_sites(&self) -> Result<Vec<UnresolvedSite>, GraphError> {
        let mut st = self
            .conn()
            .prepare_cached(
                "SELECT file_path, line, col, name, kind, receiver, status, from_node FROM refs
                 WHERE status IN ('unresolved', 'external') ORDER BY id",
            )
            .map_err(sql_err)?;
        let rows = st
            .query_map(params![], |r| {
                Ok(UnresolvedSite {
                    file: r.get(0)?,
                    line: r.get(1)?,
                    column: r.get(2)?,
                    name: r.get(3)?,
                    kind: r.get(4)?,
                    receiver: r.get(5)?,
                    reason: r.get(6)?,
                    caller: r.get::<Option<i64>>(7)?.map(NodeId),
                })
            })
            .map_err(sql_err)?;
        rows.map(|r| r.map_err(sql_err)).collect()
    }

    fn edge(&self, id: EdgeId) -> Result<Option<Edge>, GraphError> {
        Ok(self.query_edges("WHERE e.id = ?1", &[SqlValue::Integer(id.0)])?.pop())
    }

    fn node_ids(&self, label: Option<&str>) -> Result<Vec<NodeId>, GraphError> {
        match label {
            None => self.ids("SELECT id FROM nodes ORDER BY id", &[]),
            Some("") => Ok(Vec::new()),
            Some(l) => self.ids(
                "SELECT id FROM nodes WHERE label = ?1 UNION SELECT node FROM node_labels WHERE label = ?1 ORDER BY 1",
                &[SqlValue::Text(l.to_string())],
            ),
        }
    }

    fn node_ids_by_property(&self, label: Option<&str>, key: &str, value: &Value) -> Result<Vec<NodeId>, GraphError> {
        if value.is_null() {
            return Ok(Vec::new());
        }
        // A SQL prefilter (an index for the indexed columns), then Cypher equality on the
        // decoded node: SQLite's `=` conflates `true` with `1` and cannot compare lists.
        let candidates = if NODE_COLUMNS.contains(&key) {
            match to_sql(key, value) {
                Ok(SqlValue::Integer(_) | SqlValue::Real(_)) if matches!(value, Value::Bool(_)) => {
                    // a boolean in a column is stored as an integer: compare in Rust
                    self.query_nodes(&format!("WHERE n.{key} IS NOT NULL"), &[])?
                }
                Ok(v) => self.query_nodes(&format!("WHERE n.{key} = ?1"), &[v])?,
                Err(_) => return Ok(Vec::new()), // a list never equals a scalar column
            }
        } else {
            let path = SqlValue::Text(format!("$.\"{}\"", key.replace('"', "\\\"")));
            match value {
                Value::String(_) if self.conn().is_pg() => {
                    // PostgreSQL's json_extract answers text: compare text with text
                    let v = to_sql(key, value)?;
                    self.query_nodes("WHERE json_extract(n.props, ?1) = ?2", &[path, v])?
                }
                Value::Int(_) | Value::Float(_) | Value::String(_) if !self.conn().is_pg() => {
                    let v = to_sql(key, value)?;
                    self.query_nodes("WHERE json_extract(n.props, ?1) = ?2", &[path, v])?
                }
                _ => self.query_nodes("WHERE json_extract(n.props, ?1) IS NOT NULL", &[path])?,
            }
        };
        Ok(candidates
            .into_iter()
            .filter(|n| label.is_none_or(|l| n.labels.iter().any(|x| x == l)))
            .filter(|n| n.props.get(key).is_some_and(|v| v.property_equals(value)))
            .map(|n| n.id)
            .collect())
    }

    fn edges_of(&self, node: NodeId, direction: Direction, types: &[String]) -> Result<Vec<Edge>, GraphError> {
        let mut args = vec![SqlValue::Integer(node.0)];
        let filter = type_filter(types, &mut args);
        let sql = match direction {
            Direction::Outgoing => format!("WHERE e.src = ?1{filter}"),
            Direction::Incoming => format!("WHERE e.dst = ?1{filter}"),
            // each half uses its index; the second skips self-loops already in the first
            Direction::Both => format!(
                "WHERE e.src = ?1{filter} UNION ALL {EDGE_SELECT} WHERE e.dst = ?1 AND e.src <> ?1{filter}"
            ),
        };
        self.query_edges(&sql, &args)
    }

    fn stats(&self) -> Result<GraphStats, GraphError> {
        Ok(self.catalog()?.0)
    }

    fn schema(&self) -> Result<Schema, GraphError> {
        Ok(self.catalog()?.1)
    }
}

impl GraphWrite for Store {
    fn create_node(&mut self, labels: &[String], props: BTreeMap<String, Value>) -> Result<NodeId, GraphError> {
        let mut cols: Vec<SqlValue> = vec![SqlValue::Null; NODE_COLUMNS.len()];
        let mut json = serde_json::Map::new();
        for (k, v) in &props {
            if v.is_null() {
                continue;
            }
            match NODE_COLUMNS.iter().position(|c| c == k) {
                Some(i) => cols[i] = to_sql(k, v)?,
                None => {
                    json.insert(k.clone(), to_json(k, v)?);
                }
            }
        }
        let first = labels.first().cloned().unwrap_or_default();
        self.changed();
        let c = self.conn();
        let id = c.insert(
            "INSERT INTO nodes (label, name, qualified_name, file_path, line_start, line_end, props)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                first,
                cols[0],
                cols[1],
                cols[2],
                cols[3],
                cols[4],
                serde_json::Value::Object(json).to_string()
            ],
        )
        .map_err(sql_err)?;
        let mut seen = vec![first];
        for l in labels.iter().skip(1) {
            if !seen.contains(l) {
                c.execute("INSERT INTO node_labels (node, label) VALUES (?1, ?2)", params![id, l]).map_err(sql_err)?;
                seen.push(l.clone());
            }
        }
        self.typed(id)?;
        self.count(true, id, 1)?;
        self.counted()?;
        Ok(NodeId(id))
    }

    fn create_edge(
        &mut self,
        src: NodeId,
        dst: NodeId,
        rel_type: &str,
        props: BTreeMap<String, Value>,
    ) -> Result<EdgeId, GraphError> {
        for n in [src, dst] {
            if !self.node_exists(n)? {
                return Err(GraphError::NodeNotFound(n));
            }
        }
        let mut cols: Vec<SqlValue> = vec![SqlValue::Null; EDGE_COLUMNS.len()];
        let mut json = serde_json::Map::new();
        for (k, v) in &props {
            if v.is_null() {
                continue;
            }
            match EDGE_COLUMNS.iter().position(|(p, _)| p == k) {
                Some(i) => cols[i] = to_sql(k, v)?,
                None => {
                    json.insert(k.clone(), to_json(k, v)?);
                }
            }
        }
        let json = (!json.is_empty()).then(|| serde_json::Value::Object(json).to_string());
        self.changed();
        let id = self
            .conn()
            .insert(
                "INSERT INTO edges (src, dst, type, resolution, line, col, props) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![src.0, dst.0, rel_type, cols[0], cols[1], cols[2], json],
            )
            .map_err(sql_err)?;
        self.count(false, id, 1)?;
        self.counted()?;
        Ok(EdgeId(id))
    }

    fn set_node_property(&mut self, id: NodeId, key: &str, value: Value) -> Result<(), GraphError> {
        self.changed();
        self.count(true, id.0, -1)?;
        let found = if NODE_COLUMNS.contains(&key) {
            let v = to_sql(key, &value)?;
            self.conn().execute(&format!("UPDATE nodes SET {key} = ?1 WHERE id = ?2"), params![v, id.0]).map_err(sql_err)?
                > 0
        } else {
            self.set_json_prop("nodes", id.0, key, &value)?
        };
        self.typed(id.0)?;
        self.count(true, id.0, 1)?;
        self.counted()?;
        if found { Ok(()) } else { Err(GraphError::NodeNotFound(id)) }
    }

    fn set_edge_property(&mut self, id: EdgeId, key: &str, value: Value) -> Result<(), GraphError> {
        self.changed();
        self.count(false, id.0, -1)?;
        let found = if let Some((_, col)) = EDGE_COLUMNS.iter().find(|(k, _)| *k == key) {
            let v = to_sql(key, &value)?;
            self.conn().execute(&format!("UPDATE edges SET {col} = ?1 WHERE id = ?2"), params![v, id.0]).map_err(sql_err)?
                > 0
        } else {
            self.set_json_prop("edges", id.0, key, &value)?
        };
        self.count(false, id.0, 1)?;
        self.counted()?;
        if found { Ok(()) } else { Err(GraphError::EdgeNotFound(id)) }
    }

    fn add_label(&mut self, id: NodeId, label: &str) -> Result<bool, GraphError> {
        let labels = self.labels_of(id)?.ok_or(GraphError::NodeNotFound(id))?;
        if labels.iter().any(|l| l == label) {
            return Ok(false);
        }
        self.changed();
        self.count(true, id.0, -1)?;
        if labels.is_empty() {
            self.conn().execute("UPDATE nodes SET label = ?1 WHERE id = ?2", params![label, id.0]).map_err(sql_err)?;
        } else {
            self.conn()
                .execute("INSERT INTO node_labels (node, label) VALUES (?1, ?2)", params![id.0, label])
                .map_err(sql_err)?;
        }
        self.typed(id.0)?;
        self.count(true, id.0, 1)?;
        self.counted()?;
        Ok(true)
    }

    fn remove_label(&mut self, id: NodeId, label: &str) -> Result<bool, GraphError> {
        let labels = self.labels_of(id)?.ok_or(GraphError::NodeNotFound(id))?;
        let Some(pos) = labels.iter().position(|l| l == label) else { return Ok(false) };
        self.changed();
        self.count(true, id.0, -1)?;
        let c = self.conn();
        if pos == 0 {
            // the next label (if any) becomes the node's primary label
            let next = labels.get(1).cloned().unwrap_or_default();
            c.execute("UPDATE nodes SET label = ?1 WHERE id = ?2", params![next, id.0]).map_err(sql_err)?;
            c.execute("DELETE FROM node_labels WHERE node = ?1 AND label = ?2", params![id.0, next]).map_err(sql_err)?;
        } else {
            c.execute("DELETE FROM node_labels WHERE node = ?1 AND label = ?2", params![id.0, label]).map_err(sql_err)?;
        }
        self.typed(id.0)?;
        self.count(true, id.0, 1)?;
        self.counted()?;
        Ok(true)
    }

    fn delete_node(&mut self, id: NodeId, detach: bool) -> Result<usize, GraphError> {
        if !self.node_exists(id)? {
            return Err(GraphError::NodeNotFound(id));
        }
        let c = self.conn();
        let has_edges: bool = c
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM edges WHERE src = ?1) OR EXISTS (SELECT 1 FROM edges WHERE dst = ?1)",
                params![id.0],
                |r| r.get(0),
            )
            .map_err(sql_err)?;
        if has_edges && !detach {
            return Err(GraphError::NodeHasEdges(id));
        }
        self.changed();
        let c = self.conn();
        crate::catalog::edges(c, "src = ?1 OR dst = ?1", params![id.0], -1).map_err(sql_err)?;
        let removed = c.execute("DELETE FROM edges WHERE src = ?1 OR dst = ?1", params![id.0]).map_err(sql_err)?;
        self.count(true, id.0, -1)?;
        // node_labels rows go with the node (trigger `nodes_labels_delete`)
        c.execute("DELETE FROM nodes WHERE id = ?1", params![id.0]).map_err(sql_err)?;
        self.counted()?;
        Ok(removed)
    }

    fn delete_edge(&mut self, id: EdgeId) -> Result<(), GraphError> {
        self.changed();
        self.count(false, id.0, -1)?;
        let n = self.conn().execute("DELETE FROM edges WHERE id = ?1", params![id.0]).map_err(sql_err)?;
        self.counted()?;
        match n {
            0 => Err(GraphError::EdgeNotFound(id)),
            _ => Ok(()),
        }
    }
}

impl Store {
    /// Runs `f` (a read query) in one read transaction: the whole query sees one snapshot,
    /// and SQLite takes its WAL read lock once instead of once per statement (that locking
    /// was ~9% of a whole-graph scan). Inside an open transaction `f` just runs.
    pub fn read_snapshot<T>(&self, f: impl FnOnce(&Store) -> T) -> T {
        let _snapshot = self.snapshot();
        f(self)
    }

    /// Runs `f` (a write query) in one transaction: committed if it returns `Ok`, rolled
    /// back otherwise, so a failing Cypher write leaves the graph as it was.
    pub fn write_atomically<T, E: From<GraphError>>(
        &mut self,
        f: impl FnOnce(&mut Store) -> Result<T, E>,
    ) -> Result<T, E> {
        self.integrity_verdict().map_err(|e| E::from(sql_err(e)))?;
        self.conn().begin(TxKind::Write).map_err(|e| E::from(sql_err(e)))?;
        // A write may touch code nodes: a symbol table kept by a long-lived ingest (the
        // server's live index) is no longer the graph's, and is reloaded.
        let out = self.conn().execute("DELETE FROM meta WHERE key = 'table_stamp'", crate::db::params![]).map_err(|e| E::from(sql_err(e)));
        let out = out.and_then(|_| f(self));
        let fin = if out.is_ok() { self.conn().commit() } else { self.conn().rollback() }.map_err(sql_err);
        self.changed();
        match (out, fin) {
            (Ok(v), Ok(())) => Ok(v),
            (Ok(_), Err(e)) => Err(E::from(e)),
            (Err(e), _) => Err(e),
        }
    }
}

/// How many nodes (edges) carry each property key, as `navegador schema` shows them.
#[derive(Debug, Clone, Default)]
pub struct PropertyCounts {
    pub node_keys: Vec<(String, u64)>,
    pub edge_keys: Vec<(String, u64)>,
}

impl Store {
    /// Counts of property keys over the whole graph (one scan of `nodes` and of `edges`).
    pub fn property_counts(&self) -> crate::Result<PropertyCounts> {
        let c = self.conn();
        let mut out = PropertyCounts::default();
        let count = |sql: &str, into: &mut Vec<(String, u64)>| -> crate::Result<()> {
            let mut st = c.prepare(sql)?;
            for r in st.query_map(params![], |r| Ok((r.get::<String>(0)?, r.get::<i64>(1)? as u64)))? {
                let (k, n) = r?;
                if n > 0 {
                    match into.iter_mut().find(|(x, _)| *x == k) {
                        Some((_, m)) => *m += n,
                        None => into.push((k, n)),
                    }
                }
            }
            Ok(())
        };
        let cols = NODE_COLUMNS.iter().map(|k| format!("SELECT '{k}', count({k}) FROM nodes")).collect::<Vec<_>>();
        count(&cols.join(" UNION ALL "), &mut out.node_keys)?;
        count(&props_keys("nodes", "SELECT j.key, count(*)", " GROUP BY j.key", c.is_pg()), &mut out.node_keys)?;
        let cols =
            EDGE_COLUMNS.iter().map(|(k, c)| format!("SELECT '{k}', count({c}) FROM edges")).collect::<Vec<_>>();
        count(&cols.join(" UNION ALL "), &mut out.edge_keys)?;
        count(&props_keys("edges", "SELECT j.key, count(*)", " GROUP BY j.key", c.is_pg()), &mut out.edge_keys)?;
        out.node_keys.sort();
        out.edge_keys.sort();
        Ok(out)
    }
}
