//! The SQLite schema. Bump `VERSION` on any change; the previous version is migrated in
//! place by a writer's open ([`MIGRATE_FROM`], one transaction), an older file is refused
//! with a message that names the fix (re-ingest with `--clear`).

pub const VERSION: i64 = 8;

/// The version a writer's open migrates to [`VERSION`] (adds the [`TYPED`] columns and
/// fills them from `props`); readers refuse it until a writer has opened it.
pub const MIGRATE_FROM: i64 = 7;

/// Version 8: what resolution reads of a definition or an import, as typed columns of
/// `nodes` beside `props` (which stays the source of truth, and what every other reader
/// reads): the symbol table is read without a `json_extract` per row. Each is (column,
/// SQL type, its value as an expression over the row's `label` and `props`): the
/// migration and the Cypher writers fill them with the expression, ingest from the same
/// properties in Rust (`sqlite.rs::Typed`); a row of another label has them `NULL`.
pub const TYPED: &[(&str, &str, &str)] = &[
    ("sym_kind", "TEXT", "CASE WHEN label IN ('Class', 'Function', 'Method', 'Variable', 'Module') AND json_type(props, '$.kind') = 'text' THEN json_extract(props, '$.kind') END"),
    ("sym_class", "TEXT", "CASE WHEN label IN ('Class', 'Function', 'Method', 'Variable', 'Module') AND json_type(props, '$.class_name') = 'text' THEN json_extract(props, '$.class_name') END"),
    ("sym_exported", "INTEGER", "CASE WHEN label IN ('Class', 'Function', 'Method', 'Variable', 'Module') AND json_type(props, '$.is_exported') = 'true' THEN 1 END"),
    ("sym_default_export", "INTEGER", "CASE WHEN label IN ('Class', 'Function', 'Method', 'Variable', 'Module') AND json_type(props, '$.is_default_export') = 'true' THEN 1 END"),
    ("sym_signature", "TEXT", "CASE WHEN label IN ('Function', 'Method') AND json_type(props, '$.signature') = 'text' THEN json_extract(props, '$.signature') END"),
    ("imp_module", "TEXT", "CASE WHEN label = 'Import' AND json_type(props, '$.module') = 'text' THEN json_extract(props, '$.module') END"),
    ("imp_name", "TEXT", "CASE WHEN label = 'Import' AND json_type(props, '$.imported') = 'text' THEN json_extract(props, '$.imported') END"),
    ("imp_alias", "TEXT", "CASE WHEN label = 'Import' AND json_type(props, '$.alias') = 'text' THEN json_extract(props, '$.alias') END"),
];

/// Version 8: a column that is not a property but resolution's own record (an import's
/// target, `IngestTx::set_import_target`), added by the migration empty.
pub const RESOLVED: &[(&str, &str)] = &[("imp_target", "TEXT")];

/// `SET` clause that recomputes every [`TYPED`] column from `label` and `props`.
pub fn typed_set() -> String {
    TYPED.iter().map(|(c, _, e)| format!("{c} = {e}")).collect::<Vec<_>>().join(", ")
}

/// The rows whose [`TYPED`] columns disagree with their `props`: none, in a graph any
/// writer left (the tests check it after every ingest they make).
pub fn typed_drift_sql() -> String {
    let cond: Vec<String> = TYPED.iter().map(|(c, _, e)| format!("{c} IS DISTINCT FROM ({e})")).collect();
    format!("SELECT count(*) FROM nodes WHERE {}", cond.join(" OR "))
}

pub const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- Every node of the graph. Core properties are columns (indexed lookups), the rest is a
-- JSON object in `props`. Version 8: `sym_*` and `imp_*` but `imp_target` are `TYPED`,
-- what resolution reads, copied from `props`; `imp_target` is what resolution found an
-- import to denote (`RESOLVED`, not a property). (No comments between the columns: an
-- `ALTER TABLE ... DROP COLUMN` edits this text.) Code nodes carry the workspace-relative
-- `file_path` of the file that defines them; knowledge nodes have none and survive code
-- re-ingest.
CREATE TABLE IF NOT EXISTS nodes (
    id INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    name TEXT,
    qualified_name TEXT,
    file_path TEXT,
    parent INTEGER,
    line_start INTEGER,
    line_end INTEGER,
    props TEXT NOT NULL DEFAULT '{}',
    sym_kind TEXT,
    sym_class TEXT,
    sym_exported INTEGER,
    sym_default_export INTEGER,
    sym_signature TEXT,
    imp_module TEXT,
    imp_name TEXT,
    imp_alias TEXT,
    imp_target TEXT
);

-- Relationships. `ref_id` ties an edge produced by resolution to its reference site, so
-- re-resolving a site replaces exactly its edges.
CREATE TABLE IF NOT EXISTS edges (
    id INTEGER PRIMARY KEY,
    src INTEGER NOT NULL,
    dst INTEGER NOT NULL,
    type TEXT NOT NULL,
    resolution TEXT,
    line INTEGER,
    col INTEGER,
    ref_id INTEGER,
    props TEXT
);

-- Change detection: what the last ingest saw of each file.
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY,
    language TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    hash TEXT NOT NULL,
    node_id INTEGER NOT NULL,
    module TEXT
);

-- Every reference site (call, constructor call, callback, base class), resolved or not:
-- unresolved sites are data, so answers can say what they could not see.
CREATE TABLE IF NOT EXISTS refs (
    id INTEGER PRIMARY KEY,
    file_path TEXT NOT NULL,
    from_node INTEGER,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    receiver TEXT,
    -- the receiver's first name (`app` in `app.util.log()`), so a change to what binds it
    -- can find the sites to re-resolve
    receiver_root TEXT,
    receiver_type TEXT,
    line INTEGER NOT NULL,
    col INTEGER NOT NULL,
    -- version 4: the number of arguments of a call, which tells overloads apart
    arity INTEGER,
    -- version 7: the static types of a call's arguments where known (`int,,String`), which
    -- tell same-arity overloads apart
    arg_types TEXT,
    status TEXT NOT NULL DEFAULT 'pending'
);

-- Files the last ingest did not index, and why.
CREATE TABLE IF NOT EXISTS skipped (path TEXT PRIMARY KEY, reason TEXT NOT NULL);

-- Version 2: the knowledge layer.

-- Knowledge nodes by label and case-insensitive name (a small partial index, always kept).
CREATE INDEX IF NOT EXISTS nodes_knowledge ON nodes(label, name COLLATE NOCASE) WHERE file_path IS NULL;

-- Links between knowledge and code, kept as data because code nodes get new ids on every
-- re-parse: after each ingest every link is re-materialized as an edge (whose props carry
-- `link` = this id and `source`). A target is exact (label + qualified name + file) or a
-- mention (text from a document, resolved against the code each time).
CREATE TABLE IF NOT EXISTS knowledge_links (
    id INTEGER PRIMARY KEY,
    knode INTEGER NOT NULL,
    type TEXT NOT NULL,
    -- 1 when the edge goes code -> knowledge (ASSIGNED_TO, BELONGS_TO, IMPLEMENTS)
    code_is_src INTEGER NOT NULL,
    target_label TEXT,
    target_name TEXT NOT NULL,
    target_file TEXT,
    mention INTEGER NOT NULL DEFAULT 0,
    -- who made it: hand, annotation, codeowners, adr, doc, wiki
    origin TEXT NOT NULL,
    origin_path TEXT,
    line INTEGER,
    -- the claim shown to users (`codeowners:/src/**`, `annotation`, `adr`)
    source TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS knowledge_links_key ON knowledge_links(
    knode, type, coalesce(target_label, ''), target_name, coalesce(target_file, ''), origin, coalesce(origin_path, ''));
CREATE INDEX IF NOT EXISTS knowledge_links_origin ON knowledge_links(origin, origin_path);

-- Knowledge files found by ingest (ADRs, docs, CODEOWNERS): what was last read.
CREATE TABLE IF NOT EXISTS knowledge_sources (path TEXT PRIMARY KEY, kind TEXT NOT NULL, hash TEXT NOT NULL);

-- Full-text search over names, qualified names (both with their identifier words:
-- `CsrfViewMiddleware Csrf View Middleware`), docstrings, signatures and knowledge text,
-- kept in step with `nodes` by triggers (`FTS_TRIGGERS`; so every writer, incremental or
-- not, keeps it right). Imports and decorators are not indexed.
CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(
    name, qualified_name, body, tokenize = "unicode61 remove_diacritics 2");

-- Version 3: labels beyond a node's first (`nodes.label`), written by Cypher
-- (`CREATE (:A:B)`, `SET n:L`); ingest writes one label and leaves this empty. Rows go with
-- their node through the trigger, whoever deletes it.
CREATE TABLE IF NOT EXISTS node_labels (node INTEGER NOT NULL, label TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS node_labels_node ON node_labels(node);
CREATE INDEX IF NOT EXISTS node_labels_label ON node_labels(label);
CREATE TRIGGER IF NOT EXISTS nodes_labels_delete AFTER DELETE ON nodes BEGIN
    DELETE FROM node_labels WHERE node = old.id;
END;

-- Version 6: the graph's catalog (`catalog.rs`): counts per label and type, property keys
-- per label and type, reference sites without an edge; kept by the writer (`catalog::Delta`), no triggers.
CREATE TABLE IF NOT EXISTS graph_counts (
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    key TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (kind, name, key)
);
"#;

/// The edges materialized from knowledge links (`IngestTx::clear_materialized`), the
/// predicate of the `edges_links` index.
macro_rules! link_edges {
    () => {
        "props IS NOT NULL AND json_extract(props, '$.link') IS NOT NULL"
    };
}
pub const LINK_EDGES: &str = link_edges!();

/// Secondary indexes, kept apart from the tables so a full ingest can drop them, bulk-load,
/// and build them once at the end (much faster than maintaining them row by row).
pub const INDEXES: &[(&str, &str)] = &[
    ("nodes_name", "nodes(name)"),
    // case-insensitive names: search by exact name and prefix (schema v2)
    ("nodes_name_nocase", "nodes(name COLLATE NOCASE)"),
    ("nodes_qname", "nodes(qualified_name)"),
    // `MATCH (n:Label)` scans and per-label counts for the Cypher planner (schema v3)
    ("nodes_label", "nodes(label)"),
    ("nodes_file", "nodes(file_path)"),
    // children of a class or function (the `code.*` tools' hierarchy and forward traces)
    ("nodes_parent", "nodes(parent)"),
    ("edges_src", "edges(src, type)"),
    ("edges_dst", "edges(dst, type)"),
    ("edges_ref", "edges(ref_id)"),
    // the class hierarchy every incremental resolution reads (schema v5): a partial index
    // of the base-class edges, not a scan of every edge
    ("edges_bases", "edges(src, dst) WHERE type IN ('INHERITS', 'IMPLEMENTS')"),
    // the import edges every incremental resolution compares with the ones it wants, and
    // the endpoint and HTTP client links every incremental ingest recomputes: partial
    // indexes (the imports' covering), not scans of every edge
    ("edges_imports", "edges(src, dst, line, resolution, col) WHERE type = 'IMPORTS'"),
    ("edges_exposes", "edges(src, dst, resolution) WHERE type = 'EXPOSES'"),
    ("edges_http_calls", "edges(src, dst, line) WHERE type = 'HTTP_CALLS'"),
    ("edges_graphql_calls", "edges(src, dst, line) WHERE type = 'GRAPHQL_CALLS'"),
    // the files whose recorded sites the link passes of every ingest read
    // (`IngestTx::files_with_prop`): a partial index of the few, not a parse of every
    // File node's props (keyed by the label too: without statistics, SQLite's planner
    // otherwise takes `nodes_label` for the `label = 'File'` the queries also say)
    ("files_http_calls", "nodes(label, file_path) WHERE label = 'File' AND json_type(props, '$.http_calls') IS NOT NULL"),
    ("files_graphql_documents", "nodes(label, file_path) WHERE label = 'File' AND json_type(props, '$.graphql_documents') IS NOT NULL"),
    ("files_graphql_resolvers", "nodes(label, file_path) WHERE label = 'File' AND json_type(props, '$.graphql_resolvers') IS NOT NULL"),
    // classes with a base outside the workspace, likewise (schema v5)
    ("refs_external_bases", "refs(from_node) WHERE status = 'external' AND kind IN ('inherits', 'implements')"),
    ("refs_file", "refs(file_path)"),
    ("refs_name", "refs(name)"),
    ("refs_root", "refs(receiver_root)"),
    // a symbol's reference sites (the catalog's distinct enclosing symbols, read at commit)
    ("refs_from", "refs(from_node)"),
    // sites typed by a class whose definition changed (incremental re-resolution)
    ("refs_rtype", "refs(receiver_type)"),
    ("refs_arg_types", "refs(arg_types) WHERE arg_types IS NOT NULL"),
    // the edges materialized from knowledge links, which every sync after a code change
    // clears and writes again: a partial index of the few, not a scan of every edge's
    // `props` (`LINK_EDGES` spelled the same, or the planner cannot use it)
    ("edges_links", concat!("edges(type) WHERE ", link_edges!())),
];


/// The text a node contributes to `search_fts.body`, over a row named `n`.
macro_rules! fts_body {
    ($n:literal) => {
        concat!(
            "concat_ws(' ', json_extract(", $n, ".props, '$.docstring'), json_extract(", $n, ".props, '$.signature'), ",
            "json_extract(", $n, ".props, '$.description'), json_extract(", $n, ".props, '$.rationale'), ",
            "json_extract(", $n, ".props, '$.alternatives'), json_extract(", $n, ".props, '$.title'), ",
            "json_extract(", $n, ".props, '$.content'), json_extract(", $n, ".props, '$.email'), ",
            "json_extract(", $n, ".props, '$.handle'), json_extract(", $n, ".props, '$.team'))"
        )
    };
}

/// When the full-text update triggers fire (both backends): for the columns the index
/// reads, not for the others.
macro_rules! fts_update_of {
    () => {
        "AFTER UPDATE OF label, name, qualified_name, props"
    };
}
pub(crate) use fts_update_of;
pub const FTS_UPDATE_OF: &str = fts_update_of!();

/// The triggers that keep `search_fts` in step with `nodes`. Names and qualified names go
/// in with their identifier words (`navegador_words`, a function every writing connection
/// registers: `search.rs::identifier_words`). A full build's bulk load drops
/// them with the secondary indexes and `FTS_FILL` catches up once (much faster than a
/// trigger per row). The update trigger fires only for the columns the index reads: an
/// `UPDATE` of another column (`imp_target`, written for every import an ingest resolves)
/// then runs without the trigger's program, in one pass, instead of ~0.25 ms a row.
pub const FTS_TRIGGERS: &str = concat!(
    "CREATE TRIGGER IF NOT EXISTS nodes_fts_insert AFTER INSERT ON nodes
     WHEN new.label NOT IN ('Import', 'Decorator', 'Repository') BEGIN
       INSERT INTO search_fts(rowid, name, qualified_name, body) VALUES (new.id, navegador_words(new.name), navegador_words(new.qualified_name), ",
    fts_body!("new"),
    ");
     END;
     CREATE TRIGGER IF NOT EXISTS nodes_fts_delete AFTER DELETE ON nodes
     WHEN old.label NOT IN ('Import', 'Decorator', 'Repository') BEGIN
       DELETE FROM search_fts WHERE rowid = old.id;
     END;
     CREATE TRIGGER IF NOT EXISTS nodes_fts_update ", fts_update_of!(), " ON nodes
     WHEN new.label NOT IN ('Import', 'Decorator', 'Repository') BEGIN
       DELETE FROM search_fts WHERE rowid = old.id;
       INSERT INTO search_fts(rowid, name, qualified_name, body) VALUES (new.id, navegador_words(new.name), navegador_words(new.qualified_name), ",
    fts_body!("new"),
    ");
     END;"
);

pub const FTS_DROP_TRIGGERS: &str =
    "DROP TRIGGER IF EXISTS nodes_fts_insert; DROP TRIGGER IF EXISTS nodes_fts_delete; DROP TRIGGER IF EXISTS nodes_fts_update;";

/// Brings `search_fts` in step with `nodes` after writes made without the triggers.
pub const FTS_FILL: &str = concat!(
    "DELETE FROM search_fts WHERE rowid NOT IN (SELECT id FROM nodes);
     INSERT INTO search_fts(rowid, name, qualified_name, body)
       SELECT n.id, navegador_words(n.name), navegador_words(n.qualified_name), ",
    fts_body!("n"),
    " FROM nodes n WHERE n.label NOT IN ('Import', 'Decorator', 'Repository')
         AND n.id NOT IN (SELECT rowid FROM search_fts);"
);
