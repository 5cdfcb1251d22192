//! The PostgreSQL backend: a `postgres://` URL in `--db` / `NAVEGADOR_DB` puts the graph on
//! a server that many agents and indexer machines share. The tables are the SQLite
//! schema's (same names, same columns, `BIGINT` ids from identity columns); the SQLite
//! functions the store's SQL uses are defined here with SQLite's meaning; full-text search
//! is a `tsvector` table kept by triggers. One writer at a time (an advisory lock, as
//! SQLite's `BEGIN IMMEDIATE`); readers see committed ingests only.

use std::path::{Path, PathBuf};

use crate::db::{params, Db};
use crate::schema::VERSION;
use crate::{Result, Store, StoreError};

/// The URL when `path` names a PostgreSQL server rather than a file.
pub fn server_url(path: &Path) -> Option<&str> {
    let s = path.to_str()?;
    (s.starts_with("postgres://") || s.starts_with("postgresql://")).then_some(s)
}

/// The URL with its password masked, for messages and logs.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let (auth, host) = match rest.rsplit_once('@') {
        Some(p) => p,
        None => return url.to_string(),
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

/// Connects, checks (or creates) the schema. A read-only store's session refuses writes.
pub fn open(url: &str, read_only: bool) -> Result<Store> {
    let config: postgres::Config = url.parse().map_err(|e| StoreError::Connect { url: redact(url), error: e })?;
    let mut config = config;
    if config.get_application_name().is_none() {
        config.application_name("navegador");
    }
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(std::time::Duration::from_secs(10));
    }
    let client = connect(&config).map_err(|e| StoreError::Connect { url: redact(url), error: e })?;
    let db = Db::postgres(client);
    db.execute_batch("SET client_min_messages = warning")?;
    let store = Store::from_db(db, PathBuf::from(redact(url)));
    if read_only {
        store.conn().execute_batch("SET default_transaction_read_only = on")?;
        return match store.schema_version()? {
            Some(VERSION) => Ok(store),
            Some(found) => Err(StoreError::SchemaMismatch { path: store.path().to_path_buf(), found, expected: VERSION }),
            None => Err(StoreError::NoGraphYet { url: redact(url) }),
        };
    }
    init_schema(&store)?;
    Ok(store)
}

/// Connects without TLS (a loopback or private-network server; see docs/postgres.md).
/// The client blocks on a small runtime of its own: like every store call, this must not
/// run on an async task's thread (the MCP server calls the store from `spawn_blocking`).
fn connect(config: &postgres::Config) -> std::result::Result<postgres::Client, postgres::Error> {
    config.connect(postgres::NoTls)
}

/// Creates the schema unless it is there (deciding under a lock, so two servers starting
/// on one new database do not both create it).
fn init_schema(store: &Store) -> Result<()> {
    match store.schema_version()? {
        Some(VERSION) => return Ok(()),
        Some(found) => {
            return Err(StoreError::SchemaMismatch { path: store.path().to_path_buf(), found, expected: VERSION })
        }
        None => {}
    }
    let db = store.conn();
    db.begin(crate::db::TxKind::Write)?;
    let made = (|| -> Result<()> {
        match store.schema_version()? {
            Some(VERSION) => return Ok(()),
            Some(found) => {
                return Err(StoreError::SchemaMismatch { path: store.path().to_path_buf(), found, expected: VERSION })
            }
            None => {}
        }
        let ours: i64 = db.query_row(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename IN ('nodes', 'edges', 'refs', 'files')",
            params![],
            |r| r.get(0),
        )?;
        if ours > 0 {
            return Err(StoreError::NotOurs { path: store.path().to_path_buf() });
        }
        db.execute_batch(SCHEMA)?;
        db.execute_batch(FUNCTIONS)?;
        db.execute_batch(FTS)?;
        // `schema::INDEXES` as written: `COLLATE NOCASE` names the ICU collation `nocase`
        for (name, on) in crate::schema::INDEXES {
            db.execute_batch(&format!("CREATE INDEX IF NOT EXISTS {name} ON {on};"))?;
        }
        db.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?1)", params![VERSION.to_string()])?;
        db.execute("INSERT INTO meta(key, value) VALUES ('generation', '0')", params![])?;
        Ok(())
    })();
    match made {
        Ok(()) => db.commit(),
        Err(e) => {
            let _ = db.rollback();
            Err(e)
        }
    }
}

/// Drops navegador's tables and functions from the database (`ingest --clear` after a
/// schema change); other tables are left alone.
pub fn reset(url: &str) -> Result<()> {
    let config: postgres::Config = url.parse().map_err(|e| StoreError::Connect { url: redact(url), error: e })?;
    let client = connect(&config).map_err(|e| StoreError::Connect { url: redact(url), error: e })?;
    let db = Db::postgres(client);
    db.execute_batch(
        "SET client_min_messages = warning;
         DROP TABLE IF EXISTS meta, nodes, edges, files, refs, skipped, knowledge_links, knowledge_sources,
             search_fts, node_labels CASCADE;
         DROP FUNCTION IF EXISTS json_extract(jsonb, text), json_type(jsonb, text), navegador_json_key(text), navegador_ids(text),
             navegador_fts_words(text), navegador_fts_doc(text, text, jsonb), navegador_nodes_fts(),
             navegador_nodes_labels_delete() CASCADE;",
    )
}

/// The tables of `schema::SCHEMA` in PostgreSQL's types. Text compares byte-wise
/// (`COLLATE "C"`, SQLite's BINARY) whatever the database's locale, so answers are
/// ordered the same on both backends.
const SCHEMA: &str = r#"
-- SQLite's NOCASE: equal when equal but for case (an ICU collation; Debian's server has ICU).
CREATE COLLATION IF NOT EXISTS nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE IF NOT EXISTS meta (key TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nodes (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    label TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C",
    qualified_name TEXT COLLATE "C",
    file_path TEXT COLLATE "C",
    parent BIGINT,
    line_start BIGINT,
    line_end BIGINT,
    props JSONB NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS edges (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    src BIGINT NOT NULL,
    dst BIGINT NOT NULL,
    type TEXT COLLATE "C" NOT NULL,
    resolution TEXT COLLATE "C",
    line BIGINT,
    col BIGINT,
    ref_id BIGINT,
    props JSONB
);
CREATE TABLE IF NOT EXISTS files (
    path TEXT COLLATE "C" PRIMARY KEY,
    language TEXT COLLATE "C" NOT NULL,
    size BIGINT NOT NULL,
    mtime_ns BIGINT NOT NULL,
    hash TEXT NOT NULL,
    node_id BIGINT NOT NULL,
    module TEXT COLLATE "C"
);
CREATE TABLE IF NOT EXISTS refs (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    file_path TEXT COLLATE "C" NOT NULL,
    from_node BIGINT,
    kind TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    receiver TEXT COLLATE "C",
    receiver_root TEXT COLLATE "C",
    receiver_type TEXT COLLATE "C",
    line BIGINT NOT NULL,
    col BIGINT NOT NULL,
    status TEXT COLLATE "C" NOT NULL DEFAULT 'pending'
);
CREATE TABLE IF NOT EXISTS skipped (path TEXT COLLATE "C" PRIMARY KEY, reason TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS nodes_knowledge ON nodes(label, name COLLATE nocase) WHERE file_path IS NULL;
CREATE TABLE IF NOT EXISTS knowledge_links (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    knode BIGINT NOT NULL,
    type TEXT COLLATE "C" NOT NULL,
    code_is_src BIGINT NOT NULL,
    target_label TEXT COLLATE "C",
    target_name TEXT COLLATE "C" NOT NULL,
    target_file TEXT COLLATE "C",
    mention BIGINT NOT NULL DEFAULT 0,
    origin TEXT COLLATE "C" NOT NULL,
    origin_path TEXT COLLATE "C",
    line BIGINT,
    source TEXT COLLATE "C"
);
CREATE UNIQUE INDEX IF NOT EXISTS knowledge_links_key ON knowledge_links(
    knode, type, coalesce(target_label, ''), target_name, coalesce(target_file, ''), origin, coalesce(origin_path, ''));
CREATE INDEX IF NOT EXISTS knowledge_links_origin ON knowledge_links(origin, origin_path);
CREATE TABLE IF NOT EXISTS knowledge_sources (path TEXT COLLATE "C" PRIMARY KEY, kind TEXT NOT NULL, hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS node_labels (
    rowid BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    node BIGINT NOT NULL,
    label TEXT COLLATE "C" NOT NULL
);
CREATE INDEX IF NOT EXISTS node_labels_node ON node_labels(node);
CREATE INDEX IF NOT EXISTS node_labels_label ON node_labels(label);
CREATE OR REPLACE FUNCTION navegador_nodes_labels_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM node_labels WHERE node = OLD.id;
    RETURN OLD;
END $$;
CREATE OR REPLACE TRIGGER nodes_labels_delete AFTER DELETE ON nodes
    FOR EACH ROW EXECUTE FUNCTION navegador_nodes_labels_delete();
"#;

/// SQLite's JSON functions with SQLite's answers: `json_extract` gives a string's text,
/// a number or nested value as JSON text, NULL for JSON null or a missing key (booleans
/// read `true`/`false` where SQLite says `1`/`0`: the store tests booleans with
/// `json_type`, which agrees); `json_type` gives `text`, `integer`, `real`, `true`, `false`, `null`,
/// `array`, `object`. Paths are `$.key` or `$."key"`.
const FUNCTIONS: &str = r#"
CREATE OR REPLACE FUNCTION navegador_json_key(path text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN substr(path, 3, 1) = '"'
                THEN replace(substr(path, 4, length(path) - 4), '\"', '"')
                ELSE substr(path, 3) END
$$;
CREATE OR REPLACE FUNCTION json_extract(doc jsonb, path text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT doc ->> navegador_json_key(path)
$$;
CREATE OR REPLACE FUNCTION navegador_ids(ids text) RETURNS TABLE(value bigint) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT e::bigint FROM json_array_elements_text(ids::json) AS e
$$;
CREATE OR REPLACE FUNCTION json_type(doc jsonb, path text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE jsonb_typeof(doc -> navegador_json_key(path))
             WHEN 'string' THEN 'text'
             WHEN 'number' THEN CASE WHEN (doc -> navegador_json_key(path))::text ~ '^-?[0-9]+$' THEN 'integer' ELSE 'real' END
             WHEN 'boolean' THEN (doc -> navegador_json_key(path))::text
             ELSE jsonb_typeof(doc -> navegador_json_key(path)) END
$$;
"#;

/// Full-text search: one row per searchable node (`rowid` = node id, as SQLite's FTS5
/// table), its words weighted name > qualified name > body like the SQLite ranking's
/// `bm25(10, 5, 1)`, kept by a trigger on `nodes`.
const FTS: &str = r#"
CREATE TABLE IF NOT EXISTS search_fts (rowid BIGINT PRIMARY KEY, doc tsvector NOT NULL);
CREATE INDEX IF NOT EXISTS search_fts_doc ON search_fts USING gin(doc);
CREATE OR REPLACE FUNCTION navegador_fts_words(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    -- words as FTS5's unicode61 tokenizer sees them: split on anything not alphanumeric
    SELECT regexp_replace(coalesce(t, ''), '[^[:alnum:]]+', ' ', 'g')
$$;
CREATE OR REPLACE FUNCTION navegador_fts_doc(name text, qname text, j jsonb) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT setweight(to_tsvector('simple', navegador_fts_words(name)), 'A')
        || setweight(to_tsvector('simple', navegador_fts_words(qname)), 'B')
        || setweight(to_tsvector('simple', navegador_fts_words(concat_ws(' ',
               j ->> 'docstring', j ->> 'signature', j ->> 'description', j ->> 'rationale',
               j ->> 'alternatives', j ->> 'title', j ->> 'content', j ->> 'email', j ->> 'handle',
               j ->> 'team'))), 'D')
$$;
CREATE OR REPLACE FUNCTION navegador_nodes_fts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        DELETE FROM search_fts WHERE rowid = OLD.id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.label NOT IN ('Import', 'Decorator', 'Repository') THEN
        INSERT INTO search_fts(rowid, doc) VALUES (NEW.id, navegador_fts_doc(NEW.name, NEW.qualified_name, NEW.props))
        ON CONFLICT (rowid) DO UPDATE SET doc = excluded.doc;
    END IF;
    RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER nodes_fts AFTER INSERT OR UPDATE OR DELETE ON nodes
    FOR EACH ROW EXECUTE FUNCTION navegador_nodes_fts();
"#;

/// The triggers a bulk load drops (`IngestTx::drop_indexes`) and `FTS_FILL` replaces.
/// (`NOT EXISTS`, not `NOT IN (SELECT ...)`: PostgreSQL runs the latter as a nested loop
/// once the ids outgrow `work_mem`, 40 s on Django.)
pub const FTS_DROP_TRIGGERS: &str = "DROP TRIGGER IF EXISTS nodes_fts ON nodes;";
pub const FTS_TRIGGERS: &str = "CREATE OR REPLACE TRIGGER nodes_fts AFTER INSERT OR UPDATE OR DELETE ON nodes
    FOR EACH ROW EXECUTE FUNCTION navegador_nodes_fts();";
pub const FTS_FILL: &str = "DELETE FROM search_fts f WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = f.rowid);
    INSERT INTO search_fts(rowid, doc)
      SELECT n.id, navegador_fts_doc(n.name, n.qualified_name, n.props) FROM nodes n
      WHERE n.label NOT IN ('Import', 'Decorator', 'Repository')
      ON CONFLICT (rowid) DO NOTHING;";


/// Creates an empty database `name` on the server of `url` (dropping one of that name
/// first) and returns its URL. For tests and benchmarks that want a graph of their own.
pub fn fresh_database(url: &str, name: &str) -> Result<String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(StoreError::Column { index: 0, message: format!("bad database name {name:?}") });
    }
    let config: postgres::Config = url.parse().map_err(|e| StoreError::Connect { url: redact(url), error: e })?;
    let mut client = connect(&config).map_err(|e| StoreError::Connect { url: redact(url), error: e })?;
    client.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))?;
    client.batch_execute(&format!("CREATE DATABASE {name}"))?;
    // scheme://user:pw@host:port[/db][?query] -> scheme://user:pw@host:port/name[?query]
    let (main, query) = url.split_once('?').map_or((url, None), |(m, q)| (m, Some(q)));
    let host_start = main.find("://").map_or(0, |i| i + 3);
    let base = main[host_start..].find('/').map_or(main, |i| &main[..host_start + i]);
    Ok(match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    })
}
