//! The SQLite schema. Bump `VERSION` on any change; an older file is refused with a
//! message that names the fix (re-ingest with `--clear`).

pub const VERSION: i64 = 1;

pub const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- Every node of the graph. Core properties are columns (indexed lookups), the rest is a
-- JSON object in `props`. Code nodes carry the workspace-relative `file_path` of the file
-- that defines them; knowledge nodes have none and survive code re-ingest.
CREATE TABLE IF NOT EXISTS nodes (
    id INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    name TEXT,
    qualified_name TEXT,
    file_path TEXT,
    parent INTEGER,
    line_start INTEGER,
    line_end INTEGER,
    props TEXT NOT NULL DEFAULT '{}'
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
    status TEXT NOT NULL DEFAULT 'pending'
);

-- Files the last ingest did not index, and why.
CREATE TABLE IF NOT EXISTS skipped (path TEXT PRIMARY KEY, reason TEXT NOT NULL);
"#;

/// Secondary indexes, kept apart from the tables so a full ingest can drop them, bulk-load,
/// and build them once at the end (much faster than maintaining them row by row).
pub const INDEXES: &[(&str, &str)] = &[
    ("nodes_name", "nodes(name)"),
    ("nodes_qname", "nodes(qualified_name)"),
    ("nodes_file", "nodes(file_path)"),
    ("edges_src", "edges(src, type)"),
    ("edges_dst", "edges(dst, type)"),
    ("edges_ref", "edges(ref_id)"),
    ("refs_file", "refs(file_path)"),
    ("refs_name", "refs(name)"),
    ("refs_root", "refs(receiver_root)"),
];
