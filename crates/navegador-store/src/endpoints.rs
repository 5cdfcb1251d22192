//! Endpoint nodes (HTTP/GraphQL endpoints, frontend routes): the reads the MCP layer lists
//! and the writes the ingest's endpoint passes need. Detection itself lives in
//! `navegador-index/src/endpoints/`.

use navegador_model::{EdgeType, Resolution};

use crate::db::params;

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
    /// Registered by a test file (`test` on the node): not the application's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub test: bool,
}

/// One HTTP client call site (or a GraphQL operation's root field), as `code.list_endpoints`
/// and the tests report it, with the endpoints its `HTTP_CALLS` (`GRAPHQL_CALLS`) edges
/// reach.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HttpCallRow {
    pub file: String,
    pub line: u32,
    /// 1-based; 0 when the site has none (an annotation's).
    pub column: u32,
    pub library: String,
    /// A GraphQL operation's root field: `method` its type, `url` the field.
    pub graphql: bool,
    /// The document as named at the call (`GET_USER`).
    pub document: Option<String>,
    pub method: Option<String>,
    /// The URL template after the base (`/users/{}`).
    pub url: Option<String>,
    /// The calling function's qualified name (`None`: the file's top level).
    pub caller: Option<String>,
    pub links: Vec<HttpLink>,
}

/// One `HTTP_CALLS` edge of a site.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HttpLink {
    pub endpoint: i64,
    pub method: Option<String>,
    pub path: Option<String>,
    pub confidence: f64,
    pub reason: String,
}

const NODE_COLS: &str = "n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, n.props";

impl Store {
    /// Every Endpoint node, sorted by (kind, path, file, line, name, method).
    /// `handler` is the first of its handlers by file and line (node ids differ between
    /// backends and builds; an rpc served in two languages has two).
    pub fn endpoints(&self) -> Result<Vec<EndpointRow>> {
        let mut st = self.conn().prepare_cached(
            "SELECT n.name, json_extract(n.props, '$.kind'), json_extract(n.props, '$.method'),
                    json_extract(n.props, '$.path'), n.file_path, n.line_start,
                    json_extract(n.props, '$.language'), json_extract(n.props, '$.framework'),
                    (SELECT coalesce(h.qualified_name, h.name) FROM edges e JOIN nodes h ON h.id = e.dst
                      WHERE e.src = n.id AND e.type = 'EXPOSES' ORDER BY h.file_path, h.line_start, h.id LIMIT 1),
                    json_type(n.props, '$.test') = 'true'
             FROM nodes n WHERE n.label = 'Endpoint'",
        )?;
        let rows = st.query_map(params![], |r| {
            Ok(EndpointRow {
                name: r.get::<Option<String>>(0)?.unwrap_or_default(),
                kind: r.get::<Option<String>>(1)?.unwrap_or_default(),
                method: r.get(2)?,
                path: r.get(3)?,
                file: r.get::<Option<String>>(4)?.unwrap_or_default(),
                line: r.get::<Option<u32>>(5)?.unwrap_or(0),
                language: r.get::<Option<String>>(6)?.unwrap_or_default(),
                framework: r.get::<Option<String>>(7)?.unwrap_or_default(),
                handler: r.get(8)?,
                test: r.get::<Option<bool>>(9)?.unwrap_or(false),
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

impl Store {
    /// The consumers of every endpoint with any: (endpoint file, endpoint line, endpoint
    /// name) -> (caller file, call line, caller symbol), in file and line order.
    pub fn endpoint_consumers(&self) -> Result<std::collections::HashMap<(String, u32, String), Vec<(String, u32, String)>>> {
        let mut st = self.conn().prepare_cached(
            "SELECT d.file_path, d.line_start, d.name, s.file_path, coalesce(e.line, 0), coalesce(s.qualified_name, s.name), s.label
             FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
             WHERE e.type IN ('HTTP_CALLS', 'GRAPHQL_CALLS') ORDER BY s.file_path, e.line, s.id",
        )?;
        let rows = st.query_map(params![], |r| {
            Ok((
                r.get::<Option<String>>(0)?.unwrap_or_default(),
                r.get::<Option<u32>>(1)?.unwrap_or(0),
                r.get::<Option<String>>(2)?.unwrap_or_default(),
                r.get::<Option<String>>(3)?.unwrap_or_default(),
                r.get::<i64>(4)? as u32,
                r.get::<Option<String>>(5)?.unwrap_or_default(),
                r.get::<String>(6)?,
            ))
        })?;
        let mut out: std::collections::HashMap<(String, u32, String), Vec<(String, u32, String)>> = std::collections::HashMap::new();
        for row in rows {
            let (f, l, n, cf, cl, caller, label) = row?;
            let caller = if label == "File" { "<file>".to_string() } else { caller };
            let list = out.entry((f, l, n)).or_default();
            if !list.contains(&(cf.clone(), cl, caller.clone())) {
                list.push((cf, cl, caller));
            }
        }
        Ok(out)
    }

    /// Every HTTP client call site and GraphQL root field selected, by (file, line, column),
    /// with its links.
    pub fn http_calls(&self) -> Result<Vec<HttpCallRow>> {
        let mut st = self.conn().prepare_cached(
            "SELECT n.file_path, n.props FROM nodes n WHERE n.label = 'File' AND json_type(n.props, '$.http_calls') IS NOT NULL ORDER BY n.file_path",
        )?;
        let files: Vec<(Option<String>, String)> = st.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
        let mut st = self.conn().prepare_cached(
            "SELECT s.file_path, coalesce(e.line, 0), d.id, json_extract(d.props, '$.method'), json_extract(d.props, '$.path'), coalesce(e.props, '{}'),
                    coalesce(e.col, 0)
             FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst WHERE e.type IN ('HTTP_CALLS', 'GRAPHQL_CALLS') ORDER BY d.id",
        )?;
        // by (file, line, column, the GraphQL field the edge is for)
        type Key = (String, u32, u32, Option<String>);
        let mut links: std::collections::HashMap<Key, Vec<HttpLink>> = std::collections::HashMap::new();
        let rows = st.query_map(params![], |r| {
            Ok((
                r.get::<Option<String>>(0)?,
                r.get::<i64>(1)?,
                r.get::<i64>(2)?,
                r.get::<Option<String>>(3)?,
                r.get::<Option<String>>(4)?,
                r.get::<String>(5)?,
                r.get::<i64>(6)?,
            ))
        })?;
        for row in rows {
            let (file, line, id, method, path, props, col) = row?;
            let props: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&props).unwrap_or_default();
            let field = props.get("field").and_then(serde_json::Value::as_str).map(str::to_string);
            links.entry((file.unwrap_or_default(), line as u32, col as u32, field)).or_default().push(HttpLink {
                endpoint: id,
                method,
                path,
                confidence: props.get("confidence").and_then(serde_json::Value::as_f64).unwrap_or(0.0),
                reason: props.get("reason").and_then(serde_json::Value::as_str).unwrap_or_default().to_string(),
            });
        }
        let mut out = Vec::new();
        for (file, props) in files {
            let file = file.unwrap_or_default();
            let props: serde_json::Value = serde_json::from_str(&props).unwrap_or_default();
            for s in props.get("http_calls").and_then(serde_json::Value::as_array).into_iter().flatten() {
                let line = s.get("line").and_then(serde_json::Value::as_u64).unwrap_or(0) as u32;
                let column = s.get("column").and_then(serde_json::Value::as_u64).unwrap_or(0) as u32;
                let text = |k: &str| s.get(k).and_then(serde_json::Value::as_str).map(str::to_string);
                let graphql = text("kind").as_deref() == Some("graphql");
                // a GraphQL site's edges say their field (a document read at link time: the
                // site has none, and its edges are all its own)
                let field = if graphql { text("url").map(|u| format!("{}.{u}", text("method").unwrap_or_default())) } else { None };
                let mine = |field: Option<String>| links.get(&(file.clone(), line, column, field)).cloned().unwrap_or_default();
                let mut own = mine(field.clone());
                if graphql && field.is_none() {
                    own = links.iter().filter(|((f, l, c, _), _)| *f == file && *l == line && *c == column).flat_map(|(_, v)| v.clone()).collect();
                    own.sort_by(|a, b| (&a.method, &a.path, a.endpoint).cmp(&(&b.method, &b.path, b.endpoint)));
                }
                out.push(HttpCallRow {
                    links: own,
                    file: file.clone(),
                    line,
                    column,
                    graphql,
                    document: text("document"),
                    library: text("library").unwrap_or_default(),
                    method: text("method"),
                    url: text("url"),
                    caller: text("caller"),
                });
            }
        }
        Ok(out)
    }
}

impl IngestTx<'_> {
    /// Every Endpoint node.
    pub fn endpoint_nodes(&self) -> Result<Vec<NodeRow>> {
        let mut st = self.tx.prepare(&format!("SELECT {NODE_COLS} FROM nodes n WHERE n.label = 'Endpoint' ORDER BY n.id"))?;
        let rows = st.query_map(params![], node_row)?;
        rows.collect()
    }

    /// Removes Endpoint nodes by id, with every edge touching them.
    pub fn delete_endpoints(&self, ids: &[i64]) -> Result<()> {
        for id in ids {
            for filter in ["src = ?1", "dst = ?1"] {
                crate::catalog::edges(self.tx, filter, params![id], -1)?;
                self.tx.execute(&format!("DELETE FROM edges WHERE {filter}"), params![id])?;
            }
            crate::catalog::nodes(self.tx, "id = ?1 AND label = 'Endpoint'", params![id], -1)?;
            self.tx.execute("DELETE FROM nodes WHERE id = ?1 AND label = 'Endpoint'", params![id])?;
        }
        Ok(())
    }

    /// Every `EXPOSES` edge: (endpoint, handler, resolution).
    pub fn exposes_edges(&self) -> Result<Vec<(i64, i64, Option<String>)>> {
        let mut st = self.tx.prepare("SELECT src, dst, resolution FROM edges WHERE type = 'EXPOSES'")?;
        let rows = st.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect()
    }

    /// Removes the `EXPOSES` edges from `src` to `dst`.
    pub fn delete_exposes(&self, src: i64, dst: i64) -> Result<()> {
        crate::catalog::edges(self.tx, "src = ?1 AND dst = ?2 AND type = 'EXPOSES'", params![src, dst], -1)?;
        self.tx.execute("DELETE FROM edges WHERE src = ?1 AND dst = ?2 AND type = 'EXPOSES'", params![src, dst])?;
        Ok(())
    }

    /// The definitions of one file, as resolution sees them, with their first line.
    pub fn symbols_in_file(&self, path: &str) -> Result<Vec<(SymbolRow, u32)>> {
        let mut st = self.tx.prepare_cached(
            "SELECT id, label, name, qualified_name, file_path, parent,
                    json_extract(props, '$.kind'), json_extract(props, '$.class_name'),
                    json_type(props, '$.is_exported') = 'true',
                    json_type(props, '$.is_default_export') = 'true', line_start
             FROM nodes WHERE file_path = ?1 AND label IN ('Class', 'Function', 'Method', 'Variable')
             ORDER BY line_start, id",
        )?;
        let rows = st.query_map(params![path], |r| {
            let label: String = r.get(1)?;
            let row = SymbolRow {
                id: r.get(0)?,
                label: navegador_model::Label::parse(&label).unwrap_or(navegador_model::Label::Variable),
                name: r.get(2)?,
                qualified_name: r.get::<Option<String>>(3)?.unwrap_or_default(),
                file_path: r.get(4)?,
                parent: r.get(5)?,
                kind: r.get(6)?,
                class_name: r.get(7)?,
                is_exported: r.get::<Option<bool>>(8)?.unwrap_or(false),
                is_default_export: r.get::<Option<bool>>(9)?.unwrap_or(false),
                signature: None,
            };
            Ok((row, r.get::<Option<u32>>(10)?.unwrap_or(0)))
        })?;
        rows.collect()
    }

    /// The classes of this qualified name, anywhere: (id, file).
    pub fn classes_named(&self, qualified_name: &str) -> Result<Vec<(i64, String)>> {
        let mut st = self
            .tx
            .prepare_cached("SELECT id, file_path FROM nodes WHERE qualified_name = ?1 AND label = 'Class' AND file_path IS NOT NULL ORDER BY id")?;
        let rows = st.query_map(params![qualified_name], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    }

    /// The classes a base-class site (`inherits`, `implements`) of this name belongs to,
    /// anywhere (the site's definition, or the class holding it: a Go struct's embedded
    /// field): (class id, file).
    pub fn classes_with_base(&self, name: &str) -> Result<Vec<(i64, String)>> {
        let mut st = self.tx.prepare_cached(
            "SELECT CASE WHEN n.label = 'Class' THEN n.id ELSE n.parent END, r.file_path FROM refs r JOIN nodes n ON n.id = r.from_node
             WHERE r.name = ?1 AND r.kind IN ('inherits', 'implements') ORDER BY 1",
        )?;
        let rows = st.query_map(params![name], |r| Ok((r.get::<Option<i64>>(0)?, r.get::<String>(1)?)))?;
        let mut out = Vec::new();
        for r in rows {
            if let (Some(id), f) = r? {
                out.push((id, f));
            }
        }
        Ok(out)
    }

    /// Import nodes of one file: (id, module, imported name, alias).
    pub fn imports_in_file(&self, path: &str) -> Result<Vec<(i64, String, Option<String>, Option<String>)>> {
        let mut st = self.tx.prepare_cached(
            "SELECT id, coalesce(json_extract(props, '$.module'), ''), json_extract(props, '$.imported'), json_extract(props, '$.alias')
             FROM nodes WHERE file_path = ?1 AND label = 'Import' ORDER BY line_start, id",
        )?;
        let rows = st.query_map(params![path], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        rows.collect()
    }

    /// The nodes a resolved `IMPORTS` edge of `src` points at.
    pub fn import_targets(&self, src: i64) -> Result<Vec<NodeRow>> {
        let mut st = self.tx.prepare_cached(&format!(
            "SELECT {NODE_COLS} FROM edges e JOIN nodes n ON n.id = e.dst
             WHERE e.src = ?1 AND e.type = 'IMPORTS' AND e.resolution IS NOT NULL ORDER BY n.id"
        ))?;
        let rows = st.query_map(params![src], node_row)?;
        rows.collect()
    }

    /// What the reference sites of one file resolved to: (line, name, target id,
    /// resolution), one row per edge.
    pub fn ref_targets_in_file(&self, file: &str) -> Result<Vec<(u32, String, i64, String)>> {
        let mut st = self.tx.prepare_cached(
            "SELECT r.line, r.name, e.dst, e.resolution FROM refs r JOIN edges e ON e.ref_id = r.id
             WHERE r.file_path = ?1 AND e.resolution IS NOT NULL ORDER BY r.line, r.name, e.dst",
        )?;
        let rows = st.query_map(params![file], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        rows.collect()
    }

    /// File nodes carrying router mounts or exports (the endpoints' mount graph): (path,
    /// properties).
    pub fn files_with_mounts(&self) -> Result<Vec<(String, serde_json::Map<String, serde_json::Value>)>> {
        let mut st = self.tx.prepare(&format!(
            "SELECT {NODE_COLS} FROM nodes n WHERE n.label = 'File'
             AND (json_type(n.props, '$.mounts') IS NOT NULL OR json_type(n.props, '$.router_exports') IS NOT NULL) ORDER BY n.file_path"
        ))?;
        let rows = st.query_map(params![], node_row)?;
        let rows: Vec<NodeRow> = rows.collect::<Result<_>>()?;
        Ok(rows.into_iter().filter_map(|n| Some((n.file_path?, n.props))).collect())
    }

    /// File nodes carrying a property (`graphql_resolvers`, `graphql_documents`): (id, path,
    /// properties). (The predicate is the one of the `files_*` partial indexes of
    /// `schema::INDEXES`, spelled the same, so the planner reads the few.)
    pub fn files_with_prop(&self, key: &str) -> Result<Vec<(i64, String, serde_json::Map<String, serde_json::Value>)>> {
        debug_assert!(key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
        let mut st = self.tx.prepare_cached(&format!(
            "SELECT {NODE_COLS} FROM nodes n WHERE label = 'File' AND json_type(props, '$.{key}') IS NOT NULL ORDER BY n.file_path"
        ))?;
        let rows = st.query_map(params![], node_row)?;
        let rows: Vec<NodeRow> = rows.collect::<Result<_>>()?;
        Ok(rows.into_iter().filter_map(|n| Some((n.id, n.file_path?, n.props))).collect())
    }

    /// File nodes carrying HTTP client call sites (`http_calls`): (id, path, properties).
    pub fn files_with_http_calls(&self) -> Result<Vec<(i64, String, serde_json::Map<String, serde_json::Value>)>> {
        self.files_with_prop("http_calls")
    }

    /// Every edge of one type with its site and properties: (src, dst, (line, column), props).
    pub fn edges_of_type(&self, ty: EdgeType) -> Result<Vec<(i64, i64, (u32, u32), serde_json::Map<String, serde_json::Value>)>> {
        // (The type written in, not bound, and sorted here: a partial index of that type can
        // then serve.)
        let mut st = self.tx.prepare(&format!(
            "SELECT id, src, dst, coalesce(line, 0), coalesce(props, '{{}}'), coalesce(col, 0) FROM edges WHERE type = '{}'",
            ty.as_str()
        ))?;
        let rows = st.query_map(params![], |r| {
            let props: String = r.get(4)?;
            let site = (r.get::<i64>(3)? as u32, r.get::<i64>(5)? as u32);
            Ok((r.get::<i64>(0)?, (r.get(1)?, r.get(2)?, site, serde_json::from_str(&props).unwrap_or_default())))
        })?;
        let mut rows: Vec<_> = rows.collect::<Result<_>>()?;
        rows.sort_unstable_by_key(|(id, _)| *id);
        Ok(rows.into_iter().map(|(_, r)| r).collect())
    }

    /// Removes the edges of one type from `src` to `dst` at a site (line, column).
    pub fn delete_edge_at(&self, src: i64, dst: i64, ty: EdgeType, (line, col): (u32, u32)) -> Result<()> {
        let filter = "src = ?1 AND dst = ?2 AND type = ?3 AND coalesce(line, 0) = ?4 AND coalesce(col, 0) = ?5";
        crate::catalog::edges(self.tx, filter, params![src, dst, ty.as_str(), line as i64, col as i64], -1)?;
        let mut st = self.tx.prepare_cached(&format!("DELETE FROM edges WHERE {filter}"))?;
        st.execute(params![src, dst, ty.as_str(), line as i64, col as i64])?;
        Ok(())
    }

    /// An edge with properties (a derived link's `confidence`, `reason`).
    pub fn insert_edge_with_props(
        &self,
        src: i64,
        dst: i64,
        ty: EdgeType,
        resolution: Option<Resolution>,
        site: Option<(u32, u32)>,
        props: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<()> {
        let keys = crate::catalog::ingest_edge_keys(resolution.is_some(), site.is_some())
            .map(str::to_string)
            .chain(props.iter().filter(|(_, v)| !v.is_null()).map(|(k, _)| k.clone()))
            .collect::<Vec<String>>();
        let keys = keys.iter().map(String::as_str);
        self.tx.catalog().borrow_mut().edge(ty.as_str(), src, dst, keys, 1);
        let mut st = self.tx.prepare_cached("INSERT INTO edges(src, dst, type, resolution, line, col, props) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?;
        st.execute(params![
            src,
            dst,
            ty.as_str(),
            resolution.map(|r| r.as_str()),
            site.map(|s| s.0 as i64),
            site.map(|s| s.1 as i64),
            serde_json::Value::Object(props.clone()).to_string()
        ])?;
        Ok(())
    }

    /// Replaces an Endpoint node's properties.
    pub fn set_endpoint_props(&self, id: i64, props: &serde_json::Map<String, serde_json::Value>) -> Result<()> {
        crate::catalog::nodes(self.tx, "id = ?1 AND label = 'Endpoint'", params![id], -1)?;
        let mut st = self.tx.prepare_cached("UPDATE nodes SET props = ?2 WHERE id = ?1 AND label = 'Endpoint'")?;
        st.execute(params![id, serde_json::Value::Object(props.clone()).to_string()])?;
        drop(st);
        crate::catalog::nodes(self.tx, "id = ?1 AND label = 'Endpoint'", params![id], 1)?;
        Ok(())
    }
}
