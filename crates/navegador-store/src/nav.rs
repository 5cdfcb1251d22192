//! Reads for the `code.*` navigation tools: symbol definitions by name (exact or fuzzy,
//! scoped to a path), call edges joined with their reference sites (receiver, kind), and the
//! class hierarchy around a method. Each is one indexed query, so a tool answer costs a few
//! milliseconds on a large graph.

use crate::db::{params, Row};

use crate::sqlite::{node_row, NodeRow};
use crate::{Result, Store};

/// A definition as `code.find_symbol` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefinitionRow {
    pub id: i64,
    /// `Class`, `Function` or `Method`.
    pub label: String,
    /// The extractor's kind (`class`, `interface`, `enum`, `constructor`, ...), if any.
    pub kind: Option<String>,
    pub name: String,
    pub qualified_name: String,
    pub file_path: String,
    pub line: u32,
    /// The last line of the definition (its body included).
    pub line_end: u32,
    pub language: Option<String>,
}

/// A `CALLS` or `REFERENCES` edge with what its reference site knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallEdgeRow {
    pub src: i64,
    pub dst: i64,
    /// `CALLS` or `REFERENCES`.
    pub edge_type: String,
    pub resolution: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    /// The site's kind (`call`, `new`, `reference`), its receiver text and receiver type.
    pub site_kind: Option<String>,
    pub receiver: Option<String>,
    pub receiver_type: Option<String>,
    /// An `ambiguous` edge's reason (`overloads`, `hierarchy`, `receiver_unknown`,
    /// `global_name`) and its site's number of candidates in all.
    pub reason: Option<String>,
    pub candidates: Option<i64>,
}

const DEF_COLS: &str = "id, label, json_extract(props, '$.kind'), name, qualified_name, file_path, line_start, \
                        json_extract(props, '$.language'), line_end";
const DEF_LABELS: &str = "label IN ('Class', 'Function', 'Method')";
/// An edge's resolution as a rank: 0 `exact`, 1 `inferred`, 2 `ambiguous` (or none).
const RANK: &str = "CASE e.resolution WHEN 'exact' THEN 0 WHEN 'inferred' THEN 1 ELSE 2 END";
const EDGE_COLS: &str = "e.src, e.dst, e.type, e.resolution, e.line, e.col, r.kind, r.receiver, r.receiver_type, \
                         json_extract(e.props, '$.reason'), CAST(json_extract(e.props, '$.candidates') AS BIGINT)";

fn def_row(r: &Row<'_>) -> Result<DefinitionRow> {
    Ok(DefinitionRow {
        id: r.get(0)?,
        label: r.get(1)?,
        kind: r.get(2)?,
        name: r.get(3)?,
        qualified_name: r.get(4)?,
        file_path: r.get(5)?,
        line: r.get(6)?,
        line_end: r.get::<Option<u32>>(8)?.unwrap_or_default(),
        language: r.get(7)?,
    })
}

fn edge_row(r: &Row<'_>) -> Result<CallEdgeRow> {
    Ok(CallEdgeRow {
        src: r.get(0)?,
        dst: r.get(1)?,
        edge_type: r.get(2)?,
        resolution: r.get(3)?,
        line: r.get(4)?,
        col: r.get(5)?,
        site_kind: r.get(6)?,
        receiver: r.get(7)?,
        receiver_type: r.get(8)?,
        reason: r.get(9)?,
        candidates: r.get(10)?,
    })
}

/// A JSON array of ids, for `json_each`.
pub(crate) fn id_list(ids: &[i64]) -> String {
    let mut s = String::with_capacity(ids.len() * 8 + 2);
    s.push('[');
    for (i, id) in ids.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&id.to_string());
    }
    s.push(']');
    s
}

/// `LIKE` pattern text with its wildcards escaped (escape character `\`).
fn like_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

impl Store {
    /// Class, function and method definitions named `name`: exactly (case-sensitive), or with
    /// `fuzzy` every name containing it case-insensitively. `scope` keeps those in one file or
    /// under one directory (workspace-relative; `None` or `"."` for all).
    pub fn definitions_named(&self, name: &str, fuzzy: bool, scope: Option<&str>) -> Result<Vec<DefinitionRow>> {
        let scope = scope.filter(|s| !s.is_empty() && *s != ".");
        let scope_dir = scope.map(|s| format!("{}/%", like_escape(s.trim_end_matches('/'))));
        let sql = if fuzzy {
            format!(
                "SELECT {DEF_COLS} FROM nodes WHERE {DEF_LABELS} AND name LIKE '%' || ?1 || '%' ESCAPE '\\'
                 AND (file_path = ?2 OR file_path LIKE ?3 ESCAPE '\\' OR ?2 IS NULL)"
            )
        } else {
            format!(
                "SELECT {DEF_COLS} FROM nodes WHERE name = ?1 AND {DEF_LABELS}
                 AND (file_path = ?2 OR file_path LIKE ?3 ESCAPE '\\' OR ?2 IS NULL)"
            )
        };
        let key = if fuzzy { like_escape(name) } else { name.to_string() };
        let mut st = self.conn().prepare_cached(&sql)?;
        let rows = st.query_map(params![key, scope, scope_dir], def_row)?;
        rows.collect()
    }

    /// Class, function and method definitions of one file, in line order.
    pub fn definitions_in_file(&self, path: &str) -> Result<Vec<DefinitionRow>> {
        let mut st = self
            .conn()
            .prepare_cached(&format!("SELECT {DEF_COLS} FROM nodes WHERE file_path = ?1 AND {DEF_LABELS} ORDER BY line_start, id"))?;
        let rows = st.query_map(params![path], def_row)?;
        rows.collect()
    }

    /// The class, function and method nodes of one file, in line order.
    pub fn code_nodes_in_file(&self, path: &str) -> Result<Vec<NodeRow>> {
        let mut st = self.conn().prepare_cached(
            "SELECT id, label, name, qualified_name, file_path, line_start, line_end, props
             FROM nodes WHERE file_path = ?1 AND label IN ('Class', 'Function', 'Method') ORDER BY line_start, id",
        )?;
        let rows = st.query_map(params![path], node_row)?;
        rows.collect()
    }

    /// `CALLS` and `REFERENCES` edges into `dst` (its callers), with their sites.
    pub fn calls_into(&self, dst: i64) -> Result<Vec<CallEdgeRow>> {
        let mut st = self.conn().prepare_cached(&format!(
            "SELECT {EDGE_COLS} FROM edges e LEFT JOIN refs r ON r.id = e.ref_id
             WHERE e.dst = ?1 AND e.type IN ('CALLS', 'REFERENCES') ORDER BY e.src, e.line, e.col"
        ))?;
        let rows = st.query_map(params![dst], edge_row)?;
        rows.collect()
    }

    /// Whether any `CALLS` or `REFERENCES` edge from an existing node points at `dst`, at
    /// least as sure as `max_rank` (0 `exact`, 1 also `inferred`, 2 also `ambiguous`).
    pub fn has_calls_into(&self, dst: i64, max_rank: u8) -> Result<bool> {
        let mut st = self.conn().prepare_cached(&format!(
            "SELECT EXISTS(SELECT 1 FROM edges e JOIN nodes n ON n.id = e.src
             WHERE e.dst = ?1 AND e.type IN ('CALLS', 'REFERENCES') AND {RANK} <= ?2)"
        ))?;
        st.query_row(params![dst, max_rank as i64], |r| r.get(0))
    }

    /// The nodes with these ids (any order; missing ids are left out). One statement for
    /// the whole list (`json_each` over the ids), instead of one per node.
    pub fn nodes_by_ids(&self, ids: &[i64]) -> Result<Vec<NodeRow>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut st = self.conn().prepare_cached(
            "SELECT id, label, name, qualified_name, file_path, line_start, line_end, props
             FROM nodes WHERE id IN (SELECT value FROM json_each(?1))",
        )?;
        let rows = st.query_map(params![id_list(ids)], node_row)?;
        rows.collect()
    }

    /// Which of `ids` have a `CALLS` or `REFERENCES` edge from an existing node at least as
    /// sure as `max_rank` (`has_calls_into` for a list, in one statement).
    pub fn ids_with_calls_into(&self, ids: &[i64], max_rank: u8) -> Result<Vec<i64>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut st = self.conn().prepare_cached(&format!(
            "SELECT j.value FROM json_each(?1) j
             WHERE EXISTS(SELECT 1 FROM edges e JOIN nodes n ON n.id = e.src
                          WHERE e.dst = j.value AND e.type IN ('CALLS', 'REFERENCES') AND {RANK} <= ?2)"
        ))?;
        let rows = st.query_map(params![id_list(ids), max_rank as i64], |r| r.get(0))?;
        rows.collect()
    }

    /// `decorators_of` for a list: (node, decorator name), per node in line order.
    pub fn decorator_names_of(&self, ids: &[i64]) -> Result<Vec<(i64, String)>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut st = self.conn().prepare_cached(
            "SELECT e.dst, d.name FROM edges e JOIN nodes d ON d.id = e.src
             WHERE e.dst IN (SELECT value FROM json_each(?1)) AND e.type = 'DECORATES' ORDER BY e.dst, d.line_start, d.id",
        )?;
        let rows = st.query_map(params![id_list(ids)], |r| Ok((r.get(0)?, r.get::<Option<String>>(1)?.unwrap_or_default())))?;
        rows.collect()
    }

    /// `exposed_by` for a list: (handler node, the endpoint's `framework` when it is a
    /// string), per node in edge order.
    pub fn exposing_frameworks_of(&self, ids: &[i64]) -> Result<Vec<(i64, Option<String>)>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut st = self.conn().prepare_cached(
            "SELECT e.dst, CASE WHEN json_type(n.props, '$.framework') = 'text' THEN json_extract(n.props, '$.framework') END
             FROM edges e JOIN nodes n ON n.id = e.src
             WHERE e.dst IN (SELECT value FROM json_each(?1)) AND e.type = 'EXPOSES' ORDER BY e.dst, e.id",
        )?;
        let rows = st.query_map(params![id_list(ids)], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    }

    /// `CALLS` and `REFERENCES` edges out of `src` (what it calls), with their sites.
    pub fn calls_from(&self, src: i64) -> Result<Vec<CallEdgeRow>> {
        let mut st = self.conn().prepare_cached(&format!(
            "SELECT {EDGE_COLS} FROM edges e LEFT JOIN refs r ON r.id = e.ref_id
             WHERE e.src = ?1 AND e.type IN ('CALLS', 'REFERENCES') ORDER BY e.line, e.col, e.dst"
        ))?;
        let rows = st.query_map(params![src], edge_row)?;
        rows.collect()
    }

    /// The direct super types (`INHERITS`/`IMPLEMENTS` targets) of a class, or with
    /// `sub` its direct sub types.
    pub fn type_neighbours(&self, class: i64, sub: bool) -> Result<Vec<NodeRow>> {
        let sql = if sub {
            "SELECT n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, n.props
             FROM edges e JOIN nodes n ON n.id = e.src WHERE e.dst = ?1 AND e.type IN ('INHERITS', 'IMPLEMENTS')"
        } else {
            "SELECT n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, n.props
             FROM edges e JOIN nodes n ON n.id = e.dst WHERE e.src = ?1 AND e.type IN ('INHERITS', 'IMPLEMENTS')"
        };
        let mut st = self.conn().prepare_cached(sql)?;
        let rows = st.query_map(params![class], node_row)?;
        rows.collect()
    }

    /// The direct children of a node (methods of a class) named `name`.
    pub fn children_named(&self, parent: i64, name: &str) -> Result<Vec<NodeRow>> {
        let mut st = self.conn().prepare_cached(
            "SELECT id, label, name, qualified_name, file_path, line_start, line_end, props
             FROM nodes WHERE name = ?2 AND parent = ?1",
        )?;
        let rows = st.query_map(params![parent, name], node_row)?;
        rows.collect()
    }

    /// `children_named` for several parents in one statement: (parent, child), per parent
    /// in id order. (The parents drive the join through `nodes(parent)`; `+name` keeps the
    /// planner off `nodes(name)`, which is far worse for common method names.)
    pub fn children_named_of(&self, parents: &[i64], name: &str) -> Result<Vec<(i64, NodeRow)>> {
        if parents.is_empty() {
            return Ok(Vec::new());
        }
        let mut st = self.conn().prepare_cached(
            "SELECT n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, n.props, n.parent
             FROM json_each(?1) j CROSS JOIN nodes n WHERE n.parent = j.value AND +n.name = ?2 ORDER BY n.parent, n.id",
        )?;
        let rows = st.query_map(params![id_list(parents), name], |r| Ok((r.get(8)?, node_row(r)?)))?;
        rows.collect()
    }

    /// The parent of a node (the class of a method), if any.
    pub fn parent_of(&self, id: i64) -> Result<Option<NodeRow>> {
        let mut st = self.conn().prepare_cached(
            "SELECT p.id, p.label, p.name, p.qualified_name, p.file_path, p.line_start, p.line_end, p.props
             FROM nodes c JOIN nodes p ON p.id = c.parent WHERE c.id = ?1",
        )?;
        let mut rows = st.query_map(params![id], node_row)?;
        rows.next().transpose()
    }

    /// Decorators / annotations on a node: (name, arguments text).
    pub fn decorators_of(&self, id: i64) -> Result<Vec<(String, Option<String>)>> {
        let mut st = self.conn().prepare_cached(
            "SELECT d.name, json_extract(d.props, '$.arguments') FROM edges e JOIN nodes d ON d.id = e.src
             WHERE e.dst = ?1 AND e.type = 'DECORATES' ORDER BY d.line_start, d.id",
        )?;
        let rows = st.query_map(params![id], |r| Ok((r.get::<Option<String>>(0)?.unwrap_or_default(), r.get(1)?)))?;
        rows.collect()
    }

    /// How many `EXPOSES` edges point at a node (it handles an endpoint or route).
    pub fn exposed_by(&self, id: i64) -> Result<Vec<NodeRow>> {
        let mut st = self.conn().prepare_cached(
            "SELECT n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, n.props
             FROM edges e JOIN nodes n ON n.id = e.src WHERE e.dst = ?1 AND e.type = 'EXPOSES'",
        )?;
        let rows = st.query_map(params![id], node_row)?;
        rows.collect()
    }

    /// Whether a file path is in the index, and its language.
    pub fn file_language(&self, path: &str) -> Result<Option<String>> {
        let mut st = self.conn().prepare_cached("SELECT language FROM files WHERE path = ?1")?;
        let mut rows = st.query_map(params![path], |r| r.get::<String>(0))?;
        rows.next().transpose()
    }

    /// Why a file was left out of the index, if it was.
    pub fn skipped_reason(&self, path: &str) -> Result<Option<String>> {
        let mut st = self.conn().prepare_cached("SELECT reason FROM skipped WHERE path = ?1")?;
        let mut rows = st.query_map(params![path], |r| r.get::<String>(0))?;
        rows.next().transpose()
    }
}

impl Store {
    /// The direct children of a node (methods of a class, functions nested in a function).
    pub fn children_of(&self, parent: i64) -> Result<Vec<NodeRow>> {
        let mut st = self.conn().prepare_cached(
            "SELECT id, label, name, qualified_name, file_path, line_start, line_end, props
             FROM nodes WHERE parent = ?1 AND label IN ('Class', 'Function', 'Method') ORDER BY line_start, id",
        )?;
        let rows = st.query_map(params![parent], node_row)?;
        rows.collect()
    }
}
