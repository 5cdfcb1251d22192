//! Storage of the knowledge layer: knowledge nodes (no `file_path`, identified by label and
//! case-insensitive name, or by path for documents), the durable `knowledge_links` that
//! tie them to code across re-parses, the knowledge source files seen by ingest, and the
//! reads the analysis functions and full-text search need.
//!
//! Reads live on [`Reader`], which both a [`Store`] and an open [`IngestTx`] hand out, so
//! the same lookups serve the CLI and the ingest hook.

use navegador_model::{EdgeType, Label};
use crate::db::{params, Db, OptionalExtension};
use serde_json::{Map, Value};

use crate::sqlite::node_row;
use crate::{IngestTx, NodeRow, Result, Store};

/// Labels of the knowledge layer.
pub const KNOWLEDGE_LABELS: [Label; 7] =
    [Label::Domain, Label::Concept, Label::Rule, Label::Decision, Label::WikiPage, Label::Document, Label::Person];

/// Labels a knowledge link may target by name (definitions and files).
const CODE_TARGET_LABELS: &str = "'File', 'Module', 'Class', 'Function', 'Method', 'Variable', 'Endpoint'";

const NODE_COLS: &str = "id, label, name, qualified_name, file_path, line_start, line_end, props";

/// Where a knowledge link points in the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTarget {
    /// One node: its label, qualified name (a File's is its path) and file.
    Exact { label: String, qualified_name: String, file_path: String },
    /// Text from a document (a backticked symbol or a path), resolved against the code
    /// each time links are materialized.
    Mention(String),
}

/// A durable link between a knowledge node and code.
#[derive(Debug, Clone)]
pub struct Link {
    pub id: i64,
    pub knode: i64,
    pub edge_type: EdgeType,
    /// The edge goes code -> knowledge (ASSIGNED_TO, BELONGS_TO, IMPLEMENTS).
    pub code_is_src: bool,
    pub target: LinkTarget,
    /// Who made it: `hand`, `annotation`, `codeowners`, `adr`, `doc`, `wiki`.
    pub origin: String,
    pub origin_path: Option<String>,
    pub line: Option<u32>,
    /// The claim shown to users (`codeowners:/src/**`, `annotation`, ...).
    pub source: Option<String>,
}

/// A neighbour of a node: the edge that leads to it and the node.
#[derive(Debug, Clone)]
pub struct Neighbor {
    pub edge_type: String,
    pub edge_props: Map<String, Value>,
    pub node: NodeRow,
}

/// One search hit and why it matched: `tier` 0 exact name, 1 the query's words are words
/// of the name, 2 name prefix, 3 text (name, qualified name, docstring, ...).
#[derive(Debug, Clone)]
pub struct SearchHit {
    pub node: NodeRow,
    pub tier: u8,
    /// BM25 score of the text match (lower is better), 0 for name matches.
    pub score: f64,
}

impl SearchHit {
    /// The match kinds by tier, as answers name them.
    pub const TIERS: [&'static str; 4] = ["exact", "words", "prefix", "text"];

    pub fn match_kind(&self) -> &'static str {
        Self::TIERS.get(self.tier as usize).copied().unwrap_or("text")
    }
}

/// Read access shared by [`Store`] and [`IngestTx`].
pub struct Reader<'a> {
    conn: &'a Db,
}

impl Store {
    pub fn reader(&self) -> Reader<'_> {
        Reader { conn: self.conn() }
    }
}

impl IngestTx<'_> {
    pub fn reader(&self) -> Reader<'_> {
        Reader { conn: self.tx }
    }
}

fn knowledge_in() -> String {
    KNOWLEDGE_LABELS.iter().map(|l| format!("'{}'", l.as_str())).collect::<Vec<_>>().join(", ")
}

impl Reader<'_> {
    pub fn node(&self, id: i64) -> Result<Option<NodeRow>> {
        let mut st = self.conn.prepare_cached(&format!("SELECT {NODE_COLS} FROM nodes WHERE id = ?1"))?;
        st.query_row(params![id], node_row).optional()
    }

    /// Knowledge nodes named `name` (case-insensitive), of one label or any knowledge label.
    /// Documents and wiki pages also match by path.
    pub fn knowledge_named(&self, label: Option<Label>, name: &str) -> Result<Vec<NodeRow>> {
        let labels = match label {
            Some(l) => format!("'{}'", l.as_str()),
            None => knowledge_in(),
        };
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {NODE_COLS} FROM nodes WHERE file_path IS NULL AND label IN ({labels})
               AND (name = ?1 COLLATE NOCASE OR (label IN ('Document', 'WikiPage') AND qualified_name = ?1)
                    OR (label = 'Person' AND (json_extract(props, '$.handle') = ?1 COLLATE NOCASE
                                              OR json_extract(props, '$.email') = ?1 COLLATE NOCASE)))
             ORDER BY label, id"
        ))?;
        let rows = st.query_map(params![name], node_row)?;
        rows.collect()
    }

    /// A knowledge node by its identity: label plus `key` (a path for documents and wiki
    /// pages, else the case-insensitive name).
    pub fn knowledge_by_key(&self, label: Label, key: &str) -> Result<Option<NodeRow>> {
        let sql = if matches!(label, Label::Document | Label::WikiPage) {
            format!("SELECT {NODE_COLS} FROM nodes WHERE file_path IS NULL AND label = ?1 AND qualified_name = ?2 ORDER BY id LIMIT 1")
        } else {
            format!("SELECT {NODE_COLS} FROM nodes WHERE file_path IS NULL AND label = ?1 AND name = ?2 COLLATE NOCASE ORDER BY id LIMIT 1")
        };
        let mut st = self.conn.prepare_cached(&sql)?;
        st.query_row(params![label.as_str(), key], node_row).optional()
    }

    /// Code definitions and files whose name or qualified name is `name` (a File's
    /// qualified name is its path), optionally in one file; exact first, then
    /// case-insensitive when nothing matched exactly.
    pub fn code_named(&self, name: &str, file: Option<&str>) -> Result<Vec<NodeRow>> {
        for collate in ["BINARY", "NOCASE"] {
            let mut st = self.conn.prepare_cached(&format!(
                "SELECT {NODE_COLS} FROM nodes WHERE label IN ({CODE_TARGET_LABELS}) AND file_path IS NOT NULL
                   AND (name = ?1 COLLATE {collate} OR qualified_name = ?1 COLLATE {collate})
                   AND (file_path = ?2 OR ?2 IS NULL)
                 ORDER BY file_path, line_start, id"
            ))?;
            let rows: Vec<NodeRow> = st.query_map(params![name, file], node_row)?.collect::<Result<_, _>>()?;
            if !rows.is_empty() {
                return Ok(rows);
            }
        }
        Ok(Vec::new())
    }

    /// Code definitions named `last` whose qualified name is `text` or ends with it at a
    /// `.`, `::` or `/` boundary (so `OrderService.place` finds `app.orders.OrderService.place`).
    pub fn code_by_suffix(&self, last: &str, text: &str) -> Result<Vec<NodeRow>> {
        // the last characters of the qualified name: SQLite's negative substr, PostgreSQL's right
        let tail = |extra: u8| {
            if self.conn.is_pg() {
                format!("right(qualified_name, length(?2) + {extra})")
            } else {
                format!("substr(qualified_name, -length(?2) - {extra})")
            }
        };
        let (t1, t2) = (tail(1), tail(2));
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {NODE_COLS} FROM nodes WHERE name = ?1 AND label IN ({CODE_TARGET_LABELS}) AND file_path IS NOT NULL
               AND (qualified_name = ?2 OR {t1} = '.' || ?2 OR {t2} = '::' || ?2 OR {t1} = '/' || ?2)
             ORDER BY file_path, line_start, id"
        ))?;
        let rows = st.query_map(params![last, text], node_row)?;
        rows.collect()
    }

    /// The one node an exact link target names.
    pub fn code_exact(&self, label: &str, qualified_name: &str, file: &str) -> Result<Vec<NodeRow>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {NODE_COLS} FROM nodes WHERE qualified_name = ?2 AND label = ?1 AND file_path = ?3 ORDER BY id"
        ))?;
        let rows = st.query_map(params![label, qualified_name, file], node_row)?;
        rows.collect()
    }

    pub fn file_node(&self, path: &str) -> Result<Option<NodeRow>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {NODE_COLS} FROM nodes WHERE label = 'File' AND file_path = ?1 LIMIT 1"
        ))?;
        st.query_row(params![path], node_row).optional()
    }

    /// Paths of every indexed file.
    pub fn file_paths(&self) -> Result<Vec<String>> {
        let mut st = self.conn.prepare_cached("SELECT path FROM files ORDER BY path")?;
        let rows = st.query_map(params![], |r| r.get(0))?;
        rows.collect()
    }

    /// Code definitions of a file, in source order (for in-code annotations).
    pub fn definitions_in(&self, path: &str) -> Result<Vec<NodeRow>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {NODE_COLS} FROM nodes WHERE file_path = ?1
               AND label IN ('Module', 'Class', 'Function', 'Method', 'Variable', 'Endpoint')
             ORDER BY line_start, id"
        ))?;
        let rows = st.query_map(params![path], node_row)?;
        rows.collect()
    }

    /// Neighbours of a node over some edge types (all when empty).
    pub fn neighbors(&self, id: i64, outgoing: bool, types: &[EdgeType]) -> Result<Vec<Neighbor>> {
        let (this, other) = if outgoing { ("src", "dst") } else { ("dst", "src") };
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT e.type, e.props, n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, n.props
             FROM edges e JOIN nodes n ON n.id = e.{other} WHERE e.{this} = ?1 ORDER BY e.type, n.label, n.name, n.id"
        ))?;
        let rows = st.query_map(params![id], |r| {
            let ty: String = r.get(0)?;
            let props: Option<String> = r.get(1)?;
            let node_props: String = r.get(9)?;
            Ok(Neighbor {
                edge_type: ty,
                edge_props: props.and_then(|p| serde_json::from_str(&p).ok()).unwrap_or_default(),
                node: NodeRow {
                    id: r.get(2)?,
                    label: r.get(3)?,
                    name: r.get(4)?,
                    qualified_name: r.get(5)?,
                    file_path: r.get(6)?,
                    line_start: r.get(7)?,
                    line_end: r.get(8)?,
                    props: serde_json::from_str(&node_props).unwrap_or_default(),
                },
            })
        })?;
        let mut out: Vec<Neighbor> = rows.collect::<Result<_, _>>()?;
        if !types.is_empty() {
            out.retain(|n| types.iter().any(|t| t.as_str() == n.edge_type));
        }
        Ok(out)
    }

    /// The parent chain of a code node (class of a method, ...), nearest first.
    pub fn ancestors(&self, id: i64) -> Result<Vec<NodeRow>> {
        let mut out = Vec::new();
        let mut cur = id;
        let mut st = self.conn.prepare_cached("SELECT parent FROM nodes WHERE id = ?1")?;
        while let Some(Some(p)) = st.query_row(params![cur], |r| r.get::<Option<i64>>(0)).optional()? {
            if out.len() > 64 {
                break;
            }
            match self.node(p)? {
                Some(n) => out.push(n),
                None => break,
            }
            cur = p;
        }
        Ok(out)
    }

    /// Every knowledge link.
    pub fn links(&self) -> Result<Vec<Link>> {
        let mut st = self.conn.prepare(
            "SELECT id, knode, type, code_is_src, target_label, target_name, target_file, mention, origin,
                    origin_path, line, source FROM knowledge_links ORDER BY id",
        )?;
        let rows = st.query_map(params![], |r| {
            let ty: String = r.get(2)?;
            let mention: bool = r.get::<i64>(7)? != 0;
            let name: String = r.get(5)?;
            Ok(Link {
                id: r.get(0)?,
                knode: r.get(1)?,
                edge_type: EdgeType::parse(&ty).unwrap_or(EdgeType::Documents),
                code_is_src: r.get::<i64>(3)? != 0,
                target: if mention {
                    LinkTarget::Mention(name)
                } else {
                    LinkTarget::Exact {
                        label: r.get::<Option<String>>(4)?.unwrap_or_default(),
                        qualified_name: name,
                        file_path: r.get::<Option<String>>(6)?.unwrap_or_default(),
                    }
                },
                origin: r.get(8)?,
                origin_path: r.get(9)?,
                line: r.get(10)?,
                source: r.get(11)?,
            })
        })?;
        rows.collect()
    }

    /// The hash recorded for a knowledge source file.
    pub fn source_hash(&self, path: &str) -> Result<Option<String>> {
        let mut st = self.conn.prepare_cached("SELECT hash FROM knowledge_sources WHERE path = ?1")?;
        st.query_row(params![path], |r| r.get(0)).optional()
    }

    /// Every knowledge source file recorded by ingest: (path, kind).
    pub fn sources(&self) -> Result<Vec<(String, String)>> {
        let mut st = self.conn.prepare_cached("SELECT path, kind FROM knowledge_sources ORDER BY path")?;
        let rows = st.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    }

    /// Every node of some labels, by name.
    pub fn nodes_labelled(&self, label: Label) -> Result<Vec<NodeRow>> {
        let mut st =
            self.conn.prepare_cached(&format!("SELECT {NODE_COLS} FROM nodes WHERE label = ?1 ORDER BY name COLLATE NOCASE, id"))?;
        let rows = st.query_map(params![label.as_str()], node_row)?;
        rows.collect()
    }

    /// Ranked search (see [`crate::search`]): the best `want` hits for `query` among
    /// `labels` (all when empty), test code left out with `exclude_tests`.
    pub fn search(&self, query: &str, labels: &[Label], want: usize, exclude_tests: bool) -> Result<Vec<SearchHit>> {
        crate::search::search(self.conn, query, labels, want, exclude_tests)
    }
}

fn source_rank(v: Option<&Value>) -> u8 {
    match v.and_then(Value::as_str) {
        Some("hand") => 3,
        Some("adr" | "doc" | "wiki") => 2,
        Some(_) => 1,
        None => 0,
    }
}

/// Writes of the knowledge layer, inside the one write transaction.
impl IngestTx<'_> {
    /// Creates or updates a knowledge node identified by label and `key` (path for
    /// documents and wiki pages, else the name, case-insensitively). An update merges
    /// `props` (non-null values win) and keeps the name as first written; `source` (what
    /// created the node) only moves up: `hand` over files (`adr`, `doc`, `wiki`) over
    /// derived (`annotation`, `codeowners`), so an orphan sweep never takes a node a
    /// stronger source vouches for.
    /// Returns the id and whether the node is new.
    pub fn upsert_knowledge(&self, label: Label, name: &str, key: Option<&str>, props: Map<String, Value>) -> Result<(i64, bool)> {
        let key = key.unwrap_or(name);
        if let Some(existing) = self.reader().knowledge_by_key(label, key)? {
            let mut merged = existing.props.clone();
            for (k, v) in props {
                let keep_source = k == "source" && source_rank(merged.get("source")) > source_rank(Some(&v));
                if !v.is_null() && !keep_source {
                    merged.insert(k, v);
                }
            }
            if merged != existing.props {
                crate::catalog::nodes(self.tx, "id = ?1", params![existing.id], -1)?;
                self.tx.execute(
                    "UPDATE nodes SET props = ?2 WHERE id = ?1",
                    params![existing.id, Value::Object(merged).to_string()],
                )?;
                crate::catalog::nodes(self.tx, "id = ?1", params![existing.id], 1)?;
            }
            return Ok((existing.id, false));
        }
        let qname = matches!(label, Label::Document | Label::WikiPage).then_some(key);
        let props = props.into_iter().filter(|(_, v)| !v.is_null()).collect();
        let id = self.insert_node(&crate::NewNode { label: Some(label), name, qualified_name: qname, props, ..Default::default() })?;
        Ok((id, true))
    }

    /// Deletes a knowledge node with its edges and links.
    pub fn delete_knowledge_node(&self, id: i64) -> Result<()> {
        crate::catalog::edges(self.tx, "src = ?1 OR dst = ?1", params![id], -1)?;
        self.tx.execute("DELETE FROM edges WHERE src = ?1 OR dst = ?1", params![id])?;
        self.tx.execute("DELETE FROM knowledge_links WHERE knode = ?1", params![id])?;
        crate::catalog::nodes(self.tx, "id = ?1 AND file_path IS NULL", params![id], -1)?;
        self.tx.execute("DELETE FROM nodes WHERE id = ?1 AND file_path IS NULL", params![id])?;
        Ok(())
    }

    /// Deletes knowledge nodes created by one of `sources` (`codeowners`, `annotation`) that
    /// nothing links or joins any more (an owner dropped from CODEOWNERS, a rule whose last
    /// annotation was removed). Returns how many.
    pub fn delete_unlinked_knowledge(&self, sources: &[&str]) -> Result<usize> {
        let mut n = 0;
        const FILTER: &str = "file_path IS NULL AND label IN ('Person', 'Rule', 'Concept', 'Decision', 'Domain')
               AND json_extract(props, '$.source') = ?1
               AND id NOT IN (SELECT knode FROM knowledge_links)
               AND NOT EXISTS (SELECT 1 FROM edges WHERE src = nodes.id OR dst = nodes.id)";
        for s in sources {
            crate::catalog::nodes(self.tx, FILTER, params![s], -1)?;
            n += self.tx.execute(&format!("DELETE FROM nodes WHERE {FILTER}"), params![s])?;
        }
        Ok(n)
    }

    /// Knowledge nodes read from one source file (their `source_path`).
    pub fn knowledge_from_source(&self, path: &str) -> Result<Vec<i64>> {
        let mut st = self.tx.prepare_cached(
            "SELECT id FROM nodes WHERE file_path IS NULL AND label IN ('Decision', 'Document', 'WikiPage')
               AND json_extract(props, '$.source_path') = ?1 ORDER BY id",
        )?;
        let rows = st.query_map(params![path], |r| r.get(0))?;
        rows.collect()
    }

    /// An edge between two nodes unless one of that type already joins them.
    pub fn add_edge_once(&self, src: i64, dst: i64, ty: EdgeType, props: Option<&Map<String, Value>>) -> Result<bool> {
        let exists: bool = self.tx.query_row(
            "SELECT count(*) > 0 FROM edges WHERE src = ?1 AND dst = ?2 AND type = ?3",
            params![src, dst, ty.as_str()],
            |r| r.get(0),
        )?;
        if exists {
            return Ok(false);
        }
        let keys: Vec<&str> = props.iter().flat_map(|p| p.iter()).filter(|(_, v)| !v.is_null()).map(|(k, _)| k.as_str()).collect();
        self.tx.catalog().borrow_mut().edge(ty.as_str(), src, dst, keys.into_iter(), 1);
        let props = props.map(|p| Value::Object(p.clone()).to_string());
        self.tx.execute(
            "INSERT INTO edges(src, dst, type, props) VALUES (?1, ?2, ?3, ?4)",
            params![src, dst, ty.as_str(), props],
        )?;
        Ok(true)
    }

    /// Records a link (a duplicate is ignored). Returns whether it is new.
    pub fn add_link(&self, l: &Link) -> Result<bool> {
        let (label, name, file, mention) = match &l.target {
            LinkTarget::Exact { label, qualified_name, file_path } => {
                (Some(label.as_str()), qualified_name.as_str(), Some(file_path.as_str()), 0)
            }
            LinkTarget::Mention(t) => (None, t.as_str(), None, 1),
        };
        let mut st = self.tx.prepare_cached(
            "INSERT INTO knowledge_links(knode, type, code_is_src, target_label, target_name, target_file,
                 mention, origin, origin_path, line, source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
             ON CONFLICT DO NOTHING",
        )?;
        let n = st.execute(params![
            l.knode,
            l.edge_type.as_str(),
            l.code_is_src as i64,
            label,
            name,
            file,
            mention,
            l.origin,
            l.origin_path,
            l.line,
            l.source
        ])?;
        Ok(n > 0)
    }

    /// Forgets the links one origin made (from one file, or all of that origin).
    pub fn delete_links(&self, origin: &str, origin_path: Option<&str>) -> Result<()> {
        self.tx.execute(
            "DELETE FROM knowledge_links WHERE origin = ?1 AND (origin_path = ?2 OR ?2 IS NULL)",
            params![origin, origin_path],
        )?;
        Ok(())
    }

    /// Forgets links of an origin read from files that are no longer indexed.
    pub fn delete_links_of_unindexed_files(&self, origin: &str) -> Result<()> {
        self.tx.execute(
            "DELETE FROM knowledge_links WHERE origin = ?1 AND origin_path NOT IN (SELECT path FROM files)",
            params![origin],
        )?;
        Ok(())
    }

    /// Drops every edge materialized from a link (they carry `link` in their props).
    pub fn clear_materialized(&self) -> Result<()> {
        const FILTER: &str = crate::schema::LINK_EDGES;
        crate::catalog::edges(self.tx, FILTER, params![], -1)?;
        self.tx.execute(&format!("DELETE FROM edges WHERE {FILTER}"), params![])?;
        Ok(())
    }

    /// Inserts an edge materialized from link `link`.
    pub fn insert_link_edge(&self, src: i64, dst: i64, ty: EdgeType, link: i64, source: Option<&str>) -> Result<()> {
        let mut props = Map::new();
        props.insert("link".into(), Value::from(link));
        if let Some(s) = source {
            props.insert("source".into(), Value::from(s));
        }
        self.tx.catalog().borrow_mut().edge(ty.as_str(), src, dst, props.keys().map(String::as_str), 1);
        let mut st = self.tx.prepare_cached("INSERT INTO edges(src, dst, type, props) VALUES (?1, ?2, ?3, ?4)")?;
        st.execute(params![src, dst, ty.as_str(), Value::Object(props).to_string()])?;
        Ok(())
    }

    pub fn set_source(&self, path: &str, kind: &str, hash: &str) -> Result<()> {
        self.tx.execute(
            "INSERT INTO knowledge_sources(path, kind, hash) VALUES (?1, ?2, ?3)
             ON CONFLICT (path) DO UPDATE SET kind = excluded.kind, hash = excluded.hash",
            params![path, kind, hash],
        )?;
        Ok(())
    }

    pub fn delete_source(&self, path: &str) -> Result<()> {
        self.tx.execute("DELETE FROM knowledge_sources WHERE path = ?1", params![path])?;
        Ok(())
    }
}
