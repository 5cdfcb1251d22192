//! Endpoint nodes (HTTP/GraphQL endpoints, frontend routes): the reads the MCP layer lists
//! and the writes the ingest's endpoint passes need. Detection itself lives in
//! `navegador-index/src/endpoints/`.

use rusqlite::params;

use crate::sqlite::{node_row, IngestTx, NodeRow, SymbolRow};
use crate::{Result, Store};

/// One endpoint, as `code.list_endpoints` reports it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EndpointRow {
    pub name: String,
    /// `rest`, `graphql` or `route`.
    pub kind: String,
    /// `GET`, `POST`, ... or `None` (GraphQL, routes, any method).
    pub method: Option<String>,
    /// Normalized `/a/b`; `None` for GraphQL.
    pub path: Option<String>,
    /// Workspace-relative, posix separators.
    pub file: String,
    /// 1-based.
    pub line: u32,
    /// `typescript`, `javascript`, `java`, `python`, `go`.
    pub language: String,
    pub framework: String,
    /// The handler symbol's qualified name, when the `EXPOSES` edge is there.
    pub handler: Option<String>,
}

const NODE_COLS: &str = "n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, n.props";

impl Store {
    /// Every Endpoint node, sorted by (kind, path, file, line, name, method).
    pub fn endpoints(&self) -> Result<Vec<EndpointRow>> {
        let mut st = self.conn().prepare_cached(
            "SELECT n.name, json_extract(n.props, '$.kind'), json_extract(n.props, '$.method'),
                    json_extract(n.props, '$.path'), n.file_path, n.line_start,
                    json_extract(n.props, '$.language'), json_extract(n.props, '$.framework'),
                    (SELECT coalesce(h.qualified_name, h.name) FROM edges e JOIN nodes h ON h.id = e.dst
                      WHERE e.src = n.id AND e.type = 'EXPOSES' ORDER BY h.id LIMIT 1)
             FROM nodes n WHERE n.label = 'Endpoint'",
        )?;
        let rows = st.query_map([], |r| {
            Ok(EndpointRow {
                name: r.get::<_, Option<String>>(0)?.unwrap_or_default(),
                kind: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
                method: r.get(2)?,
                path: r.get(3)?,
                file: r.get::<_, Option<String>>(4)?.unwrap_or_default(),
                line: r.get::<_, Option<u32>>(5)?.unwrap_or(0),
                language: r.get::<_, Option<String>>(6)?.unwrap_or_default(),
                framework: r.get::<_, Option<String>>(7)?.unwrap_or_default(),
                handler: r.get(8)?,
            })
        })?;
        let mut out: Vec<EndpointRow> = rows.collect::<Result<_, _>>()?;
        let key = |e: &EndpointRow| {
            (e.kind.clone(), e.path.clone(), e.file.clone(), e.line, e.name.clone(), e.method.clone(), e.framework.clone(), e.handler.clone())
        };
        out.sort_by_key(key);
        out.dedup();
        Ok(out)
    }
}

impl IngestTx<'_> {
    /// Every Endpoint node.
    pub fn endpoint_nodes(&self) -> Result<Vec<NodeRow>> {
        let mut st = self.tx.prepare(&format!("SELECT {NODE_COLS} FROM nodes n WHERE n.label = 'Endpoint' ORDER BY n.id"))?;
        let rows = st.query_map([], node_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Removes the endpoints derived from several files (props `derived`), and their edges.
    pub fn delete_derived_endpoints(&self) -> Result<()> {
        self.tx.execute_batch(
            "DELETE FROM edges WHERE src IN (SELECT id FROM nodes WHERE label = 'Endpoint' AND json_extract(props, '$.derived') = 1);
             DELETE FROM edges WHERE dst IN (SELECT id FROM nodes WHERE label = 'Endpoint' AND json_extract(props, '$.derived') = 1);
             DELETE FROM nodes WHERE label = 'Endpoint' AND json_extract(props, '$.derived') = 1;",
        )?;
        Ok(())
    }

    /// Removes every `EXPOSES` edge (the link pass re-creates them all).
    pub fn clear_exposes(&self) -> Result<()> {
        self.tx.execute("DELETE FROM edges WHERE type = 'EXPOSES'", [])?;
        Ok(())
    }

    /// The definitions of one file, as resolution sees them.
    pub fn symbols_in_file(&self, path: &str) -> Result<Vec<SymbolRow>> {
        let mut st = self.tx.prepare_cached(
            "SELECT id, label, name, qualified_name, file_path, parent,
                    json_extract(props, '$.kind'), json_extract(props, '$.class_name'),
                    coalesce(json_extract(props, '$.is_exported'), 0),
                    coalesce(json_extract(props, '$.is_default_export'), 0), line_start
             FROM nodes WHERE file_path = ?1 AND label IN ('Class', 'Function', 'Method', 'Variable')
             ORDER BY line_start, id",
        )?;
        let rows = st.query_map([path], |r| {
            let label: String = r.get(1)?;
            Ok(SymbolRow {
                id: r.get(0)?,
                label: navegador_model::Label::parse(&label).unwrap_or(navegador_model::Label::Variable),
                name: r.get(2)?,
                qualified_name: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
                file_path: r.get(4)?,
                parent: r.get(5)?,
                kind: r.get(6)?,
                class_name: r.get(7)?,
                is_exported: r.get::<_, i64>(8)? != 0,
                is_default_export: r.get::<_, i64>(9)? != 0,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The line of a node.
    pub fn node_line(&self, id: i64) -> Result<Option<u32>> {
        let mut st = self.tx.prepare_cached("SELECT line_start FROM nodes WHERE id = ?1")?;
        let mut rows = st.query_map([id], |r| r.get::<_, Option<u32>>(0))?;
        Ok(rows.next().transpose()?.flatten())
    }

    /// Import nodes of one file: (id, module, imported name, alias).
    pub fn imports_in_file(&self, path: &str) -> Result<Vec<(i64, String, Option<String>, Option<String>)>> {
        let mut st = self.tx.prepare_cached(
            "SELECT id, coalesce(json_extract(props, '$.module'), ''), json_extract(props, '$.imported'), json_extract(props, '$.alias')
             FROM nodes WHERE file_path = ?1 AND label = 'Import' ORDER BY line_start, id",
        )?;
        let rows = st.query_map([path], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The nodes a resolved `IMPORTS` edge of `src` points at.
    pub fn import_targets(&self, src: i64) -> Result<Vec<NodeRow>> {
        let mut st = self.tx.prepare_cached(&format!(
            "SELECT {NODE_COLS} FROM edges e JOIN nodes n ON n.id = e.dst
             WHERE e.src = ?1 AND e.type = 'IMPORTS' AND e.resolution IS NOT NULL ORDER BY n.id"
        ))?;
        let rows = st.query_map([src], node_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// What the reference sites named `name` on `line` of `file` resolved to:
    /// (target id, resolution), one row per edge.
    pub fn ref_targets_at(&self, file: &str, line: u32, name: &str) -> Result<Vec<(i64, String)>> {
        let mut st = self.tx.prepare_cached(
            "SELECT e.dst, e.resolution FROM refs r JOIN edges e ON e.ref_id = r.id
             WHERE r.file_path = ?1 AND r.line = ?2 AND r.name = ?3 AND e.resolution IS NOT NULL ORDER BY e.dst",
        )?;
        let rows = st.query_map(params![file, line, name], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
