//! Reads for the analysis layer (context bundles, call graphs, blast radius): lookups by
//! name, by file, and the reference sites resolution could not bind. Kept apart from
//! `sqlite.rs` so the ingest's write path and these query paths evolve separately.

use crate::db::{params, OptionalExtension, Row};

use crate::sqlite::{node_row, NodeRow};
use crate::{Result, Store};

/// A reference site as stored in `refs` (for answers that must say what they could not see).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteRow {
    pub file_path: String,
    pub line: u32,
    pub col: u32,
    /// `call`, `new`, `callback`, `base`, ...
    pub kind: String,
    pub name: String,
    pub receiver: Option<String>,
    /// The enclosing symbol; `None` for module-level code.
    pub from_node: Option<i64>,
    pub status: String,
}

const NODE_COLS: &str = "id, label, name, qualified_name, file_path, line_start, line_end, props";
const SITE_COLS: &str = "file_path, line, col, kind, name, receiver, from_node, status";

fn site_row(r: &Row<'_>) -> Result<SiteRow> {
    Ok(SiteRow {
        file_path: r.get(0)?,
        line: r.get(1)?,
        col: r.get(2)?,
        kind: r.get(3)?,
        name: r.get(4)?,
        receiver: r.get(5)?,
        from_node: r.get(6)?,
        status: r.get(7)?,
    })
}

impl Store {
    /// Nodes whose `name` or `qualified_name` is exactly `key`, in file and line order.
    /// Both columns are indexed.
    pub fn nodes_by_name_or_qname(&self, key: &str) -> Result<Vec<NodeRow>> {
        let mut st = self.conn().prepare_cached(&format!(
            "SELECT {NODE_COLS} FROM nodes WHERE name = ?1
             UNION SELECT {NODE_COLS} FROM nodes WHERE qualified_name = ?1
             ORDER BY file_path, line_start, id"
        ))?;
        let rows = st.query_map(params![key], node_row)?;
        rows.collect()
    }

    /// Every node defined in one file (the File node itself included), in line order.
    pub fn nodes_in_file(&self, path: &str) -> Result<Vec<NodeRow>> {
        let mut st = self
            .conn()
            .prepare_cached(&format!("SELECT {NODE_COLS} FROM nodes WHERE file_path = ?1 ORDER BY line_start, id"))?;
        let rows = st.query_map(params![path], node_row)?;
        rows.collect()
    }

    /// The File node of an indexed path.
    pub fn file_node(&self, path: &str) -> Result<Option<NodeRow>> {
        let mut st = self
            .conn()
            .prepare_cached(&format!("SELECT {NODE_COLS} FROM nodes WHERE label = 'File' AND file_path = ?1 LIMIT 1"))?;
        st.query_row(params![path], node_row).optional()
    }

    /// Indexed file paths equal to `path` or ending with `/path`, at most `limit`, the
    /// shortest first.
    pub fn files_matching(&self, path: &str, limit: usize) -> Result<Vec<String>> {
        let mut st = self.conn().prepare_cached(
            "SELECT path FROM files WHERE path = ?1 OR path LIKE '%/' || ?3 ESCAPE '\\'
             ORDER BY length(path), path LIMIT ?2",
        )?;
        let escaped = path.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
        let rows = st.query_map(params![path, limit as i64, escaped], |r| r.get::<String>(0))?;
        rows.collect()
    }

    /// Names starting with `prefix` (case-insensitive), for "did you mean" answers.
    pub fn names_like(&self, prefix: &str, limit: usize) -> Result<Vec<String>> {
        let escaped = prefix.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
        let mut st = self.conn().prepare_cached(
            "SELECT DISTINCT name FROM nodes WHERE name LIKE ?1 || '%' ESCAPE '\\'
             AND label NOT IN ('Import', 'Decorator') LIMIT ?2",
        )?;
        let rows = st.query_map(params![escaped, limit as i64], |r| r.get::<String>(0))?;
        rows.collect()
    }

    // Site queries leave out `reference` sites (a bare identifier that is not called): an
    // unresolved one is nearly always a local or a parameter, noise in an answer.

    /// Reference sites with a given status whose enclosing symbol is `from` (`None`: the
    /// module-level code of `file`).
    pub fn sites_from(&self, from: Option<i64>, file: &str, status: &str) -> Result<Vec<SiteRow>> {
        let mut st = self.conn().prepare_cached(&format!(
            "SELECT {SITE_COLS} FROM refs
             WHERE status = ?3 AND kind <> 'reference' AND file_path = ?2 AND (from_node = ?1 OR (?1 IS NULL AND from_node IS NULL))
             ORDER BY line, col"
        ))?;
        let rows = st.query_map(params![from, file, status], site_row)?;
        rows.collect()
    }

    /// Reference sites with a given status in one file.
    pub fn sites_in_file(&self, file: &str, status: &str) -> Result<Vec<SiteRow>> {
        let mut st = self
            .conn()
            .prepare_cached(&format!("SELECT {SITE_COLS} FROM refs WHERE file_path = ?1 AND status = ?2 AND kind <> 'reference' ORDER BY line, col"))?;
        let rows = st.query_map(params![file, status], site_row)?;
        rows.collect()
    }

    /// Reference sites with a given status that use `name` (the last segment of a call,
    /// `x.name()` or `name()`): the places that might reach a symbol of that name.
    pub fn sites_named(&self, name: &str, status: &str) -> Result<Vec<SiteRow>> {
        let mut st = self
            .conn()
            .prepare_cached(&format!("SELECT {SITE_COLS} FROM refs WHERE name = ?1 AND status = ?2 AND kind <> 'reference' ORDER BY file_path, line, col"))?;
        let rows = st.query_map(params![name, status], site_row)?;
        rows.collect()
    }

    /// The distinct last segments of every decorator name (`route` for `@app.route`): the
    /// names a definition must have to be applied as a decorator.
    pub fn decorator_names(&self) -> Result<Vec<String>> {
        let mut st = self.conn().prepare_cached("SELECT DISTINCT name FROM nodes WHERE label = 'Decorator' AND name IS NOT NULL")?;
        let rows = st.query_map(params![], |r| r.get::<String>(0))?;
        let mut out: Vec<String> = rows
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .map(|n| n.rsplit('.').next().unwrap_or(&n).to_string())
            .collect();
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// True when no file has been indexed yet (a graph being built for the first time).
    pub fn is_empty(&self) -> Result<bool> {
        self.conn().query_row("SELECT NOT EXISTS(SELECT 1 FROM files)", params![], |r| r.get(0))
    }
}
