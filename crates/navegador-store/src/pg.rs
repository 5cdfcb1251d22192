//! The PostgreSQL backend: a `postgres://` URL in `--db` / `NAVEGADOR_DB` puts the graph on
//! a server that many agents and indexer machines share. The tables are the SQLite
//! schema's (same names, same columns, `BIGINT` ids from identity columns); the SQLite
//! functions the store's SQL uses are defined here with SQLite's meaning; full-text search
//! is a `tsvector` table kept by triggers. One writer at a time (an advisory lock, as
//! SQLite's `BEGIN IMMEDIATE`); readers see committed ingests only.

use std::path::{Path, PathBuf};

use crate::db::{params, Db, OptionalExtension};
use crate::schema::VERSION;
use crate::{Result, Store, StoreError};

/// The URL when `path` names a PostgreSQL server rather than a file.
pub fn server_url(path: &Path) -> Option<&str> {
    let s = path.to_str()?;
    (s.starts_with("postgres://") || s.starts_with("postgresql://")).then_some(s)
}

/// The URL with its password masked (in the authority and a `password=` parameter), for
/// messages and logs.
pub fn redact(url: &str) -> String {
    let (main, query) = url.split_once('?').map_or((url, None), |(m, q)| (m, Some(q)));
    let mut out = match main.split_once("://") {
        Some((scheme, rest)) => match rest.rsplit_once('@') {
            Some((auth, host)) => match auth.split_once(':') {
                Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
                None => main.to_string(),
            },
            None => main.to_string(),
        },
        None => main.to_string(),
    };
    if let Some(q) = query {
        let pairs: Vec<String> = q
            .split('&')
            .map(|p| if p.starts_with("password=") { "password=***".to_string() } else { p.to_string() })
            .collect();
        out.push('?');
        out.push_str(&pairs.join("&"));
    }
    out
}

/// Connects, checks (or creates) the schema. A read-only store's session refuses writes.
pub fn open(url: &str, read_only: bool) -> Result<Store> {
    let client = connect(url)?;
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

/// Connects: plain TCP, or TLS when the URL asks with `sslmode=require` (or libpq's
/// `verify-ca` / `verify-full`), the server's certificate always verified (hostname
/// included) against the system's roots plus `sslrootcert=FILE` (PEM) when given.
/// `disable`, `allow` and `prefer` (the default) connect without TLS.
///
/// The client blocks on a small runtime of its own: like every store call, this must not
/// run on an async task's thread (the MCP server calls the store from `spawn_blocking`).
fn connect(url: &str) -> Result<postgres::Client> {
    let fail = |error| StoreError::Connect { url: redact(url), error };
    let (url_for_config, tls) = tls_options(url)?;
    let mut config: postgres::Config = url_for_config.parse().map_err(fail)?;
    if config.get_application_name().is_none() {
        config.application_name("navegador");
    }
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(std::time::Duration::from_secs(10));
    }
    match tls {
        None => config.connect(postgres::NoTls).map_err(fail),
        Some(root) => {
            let connector = tls_connector(url, root.as_deref())?;
            config.connect(connector).map_err(fail)
        }
    }
}

/// Splits the TLS options libpq users write off the URL (tokio-postgres knows only
/// `sslmode=disable|prefer|require`): `Some(sslrootcert)` when TLS is required.
fn tls_options(url: &str) -> Result<(String, Option<Option<PathBuf>>)> {
    let Some((base, query)) = url.split_once('?') else { return Ok((url.to_string(), None)) };
    let mut kept = Vec::new();
    let mut require = false;
    let mut root = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        match k {
            "sslrootcert" => root = Some(PathBuf::from(percent_decode(v))),
            "sslmode" => match v {
                "require" | "verify-ca" | "verify-full" => {
                    require = true;
                    kept.push("sslmode=require".to_string());
                }
                "disable" | "allow" | "prefer" => kept.push("sslmode=disable".to_string()),
                other => {
                    return Err(StoreError::BadUrl {
                        url: redact(url),
                        why: format!(
                            "sslmode={other} is not one of disable, allow, prefer, require, verify-ca, verify-full"
                        ),
                    })
                }
            },
            _ => kept.push(pair.to_string()),
        }
    }
    if root.is_some() && !require {
        return Err(StoreError::BadUrl {
            url: redact(url),
            why: "sslrootcert is given but TLS is not required: add sslmode=verify-full (or require)".into(),
        });
    }
    let url = if kept.is_empty() { base.to_string() } else { format!("{base}?{}", kept.join("&")) };
    Ok((url, require.then_some(root)))
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Some(v) = std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A rustls connector trusting the system's roots and `root` (a PEM file of CA certificates).
fn tls_connector(url: &str, root: Option<&Path>) -> Result<tokio_postgres_rustls::MakeRustlsConnect> {
    use rustls::pki_types::{pem::PemObject, CertificateDer};
    let bad = |why: String| StoreError::BadUrl { url: redact(url), why };
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        let _ = roots.add(cert); // a system certificate rustls cannot use is skipped
    }
    if let Some(path) = root {
        let certs = CertificateDer::pem_file_iter(path)
            .map_err(|e| bad(format!("cannot read sslrootcert {}: {e}", path.display())))?;
        let mut n = 0;
        for cert in certs {
            let cert = cert.map_err(|e| bad(format!("sslrootcert {}: {e}", path.display())))?;
            roots.add(cert).map_err(|e| bad(format!("sslrootcert {}: {e}", path.display())))?;
            n += 1;
        }
        if n == 0 {
            return Err(bad(format!("sslrootcert {} holds no PEM certificate", path.display())));
        }
    }
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| bad(format!("TLS setup: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

/// Creates the schema unless it is there (deciding under a lock, so two servers starting
/// on one new database do not both create it).
fn init_schema(store: &Store) -> Result<()> {
    match store.schema_version()? {
        Some(VERSION) => {
            refresh_within_version(store)?;
            return refresh_search(store);
        }
        Some(crate::schema::MIGRATE_FROM) => {
            migrate(store)?;
            refresh_within_version(store)?;
            return refresh_search(store);
        }
        Some(found) => {
            return Err(StoreError::SchemaMismatch { path: store.path().to_path_buf(), found, expected: VERSION })
        }
        None => {}
    }
    let db = store.conn();
    db.in_transaction(crate::db::TxKind::Write, || {
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
        db.execute_batch(FTS_TRIGGERS)?;
        // `schema::INDEXES` as written: `COLLATE NOCASE` names the ICU collation `nocase`
        for (name, on) in crate::schema::INDEXES {
            db.execute_batch(&format!("CREATE INDEX IF NOT EXISTS {name} ON {on};"))?;
        }
        db.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?1)", params![VERSION.to_string()])?;
        db.execute("INSERT INTO meta(key, value) VALUES ('generation', '0')", params![])?;
        db.execute("INSERT INTO meta(key, value) VALUES ('search', ?1)", params![crate::search::SEARCH_VERSION])?;
        Ok(())
    })
}

/// Migrates a graph of schema `MIGRATE_FROM` to `VERSION` in one transaction (see the
/// SQLite twin, `Store::migrate`): the typed columns added (`COLLATE "C"` like the other
/// text columns) and filled from `props`, the full-text trigger off meanwhile.
fn migrate(store: &Store) -> Result<()> {
    let db = store.conn();
    db.in_transaction(crate::db::TxKind::Write, || {
        // under the lock of the table, so two writers opening at once migrate once
        db.execute_batch("LOCK TABLE meta IN EXCLUSIVE MODE")?;
        if store.schema_version()? != Some(crate::schema::MIGRATE_FROM) {
            return Ok(());
        }
        let typed = crate::schema::TYPED.iter().map(|(c, t, _)| (c, t));
        for (col, ty) in typed.chain(crate::schema::RESOLVED.iter().map(|(c, t)| (c, t))) {
            let ty = if *ty == "TEXT" { "TEXT COLLATE \"C\"" } else { "BIGINT" };
            db.execute_batch(&format!("ALTER TABLE nodes ADD COLUMN {col} {ty};"))?;
        }
        db.execute_batch(FTS_DROP_TRIGGERS)?;
        db.execute_batch(&format!(
            "UPDATE nodes SET {} WHERE label IN ('Class', 'Function', 'Method', 'Variable', 'Module', 'Import');",
            crate::schema::typed_set()
        ))?;
        db.execute_batch(FTS_TRIGGERS)?;
        db.execute("UPDATE meta SET value = ?1 WHERE key = 'schema_version'", params![VERSION.to_string()])?;
        Ok(())
    })
}

/// What a writer's open brings up to date in a graph an older navegador of this schema
/// version made (the SQLite twins: the `CREATE INDEX IF NOT EXISTS` loop and
/// `Store::refresh_triggers`): indexes added since, and the full-text trigger's events. The
/// catalogs are read first: a DDL statement would wait for every open write transaction.
fn refresh_within_version(store: &Store) -> Result<()> {
    let db = store.conn();
    let have: Vec<String> =
        db.prepare("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")?.query_map(params![], |r| r.get(0))?.collect::<Result<_>>()?;
    let trigger: Option<String> = db
        .query_row(
            "SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
             WHERE t.tgname = 'nodes_fts' AND c.relname = 'nodes' AND c.relnamespace = current_schema()::regnamespace",
            params![],
            |r| r.get(0),
        )
        .optional()?;
    let missing: Vec<&(&str, &str)> = crate::schema::INDEXES.iter().filter(|(name, _)| !have.iter().any(|h| h == name)).collect();
    // (no trigger: a bulk load dropped it and makes it again at its end)
    let stale_trigger = trigger.is_some_and(|t| !t.contains("UPDATE OF"));
    if missing.is_empty() && !stale_trigger {
        return Ok(());
    }
    db.in_transaction(crate::db::TxKind::Write, || {
        for (name, on) in &missing {
            db.execute_batch(&format!("CREATE INDEX IF NOT EXISTS {name} ON {on};"))?;
        }
        if stale_trigger {
            db.execute_batch(FTS_TRIGGERS)?;
        }
        Ok(())
    })
}

/// Rebuilds the full-text index when an older navegador made it (see the SQLite twin,
/// `Store::refresh_search`): the functions and trigger replaced, every row re-made.
fn refresh_search(store: &Store) -> Result<()> {
    let db = store.conn();
    let current = || -> Result<bool> {
        let v: Option<String> = db.query_row("SELECT value FROM meta WHERE key = 'search'", params![], |r| r.get(0)).optional()?;
        Ok(v.as_deref() == Some(crate::search::SEARCH_VERSION))
    };
    if current()? {
        return Ok(());
    }
    db.in_transaction(crate::db::TxKind::Write, || {
        if current()? {
            return Ok(());
        }
        db.execute_batch(FTS)?;
        db.execute_batch(FTS_TRIGGERS)?;
        db.execute_batch("DELETE FROM search_fts;")?;
        db.execute_batch(FTS_FILL)?;
        db.execute(
            "INSERT INTO meta(key, value) VALUES ('search', ?1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            params![crate::search::SEARCH_VERSION],
        )?;
        Ok(())
    })
}

/// Drops navegador's tables and functions from the database (`ingest --clear` after a
/// schema change); other tables are left alone.
pub fn reset(url: &str) -> Result<()> {
    let client = connect(url)?;
    let db = Db::postgres(client);
    db.execute_batch(
        "SET client_min_messages = warning;
         DO $$ BEGIN
             IF to_regclass('nodes') IS NOT NULL AND to_regclass('edges') IS NOT NULL THEN
                 DROP FUNCTION IF EXISTS navegador_node_keys(nodes), navegador_edge_keys(edges), navegador_node_labels(nodes) CASCADE;
             END IF;
         END $$;
         DROP TABLE IF EXISTS meta, nodes, edges, files, refs, skipped, knowledge_links, knowledge_sources,
             search_fts, node_labels, graph_counts CASCADE;
         DROP FUNCTION IF EXISTS json_extract(jsonb, text), json_type(jsonb, text), navegador_json_key(text), navegador_ids(text),
             navegador_fts_words(text), navegador_words(text), navegador_fts_doc(text, text, jsonb), navegador_nodes_fts(),
             navegador_nodes_labels_delete(), navegador_catalog_nodes(), navegador_catalog_labels(),
             navegador_catalog_edges(), navegador_catalog_refs(), navegador_count(text, text, text, bigint) CASCADE;",
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
    props JSONB NOT NULL DEFAULT '{}',
    sym_kind TEXT COLLATE "C",
    sym_class TEXT COLLATE "C",
    sym_exported BIGINT,
    sym_default_export BIGINT,
    sym_signature TEXT COLLATE "C",
    imp_module TEXT COLLATE "C",
    imp_name TEXT COLLATE "C",
    imp_alias TEXT COLLATE "C",
    imp_target TEXT COLLATE "C"
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
    arity BIGINT,
    arg_types TEXT COLLATE "C",
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
    -- only when it has extra labels, so a file's nodes going cost no statement each
    IF EXISTS (SELECT 1 FROM node_labels WHERE node = OLD.id) THEN
        DELETE FROM node_labels WHERE node = OLD.id;
    END IF;
    RETURN OLD;
END $$;
DROP TRIGGER IF EXISTS nodes_labels_delete ON nodes;
CREATE OR REPLACE TRIGGER nodes_labels_delete BEFORE DELETE ON nodes
    FOR EACH ROW EXECUTE FUNCTION navegador_nodes_labels_delete();
CREATE TABLE IF NOT EXISTS graph_counts (
    kind TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    key TEXT COLLATE "C" NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (kind, name, key)
);
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
CREATE OR REPLACE FUNCTION navegador_words(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    -- `search.rs::identifier_words`: the text, then its identifier words when splitting at
    -- case changes adds any (CsrfViewMiddleware -> CsrfViewMiddleware Csrf View Middleware)
    SELECT CASE WHEN s = t THEN t ELSE t || ' ' || s END FROM (SELECT t, regexp_replace(
        regexp_replace(t, '([[:lower:][:digit:]])([[:upper:]])', '\1 \2', 'g'),
        '([[:upper:]])([[:upper:]][[:lower:]])', '\1 \2', 'g') AS s) w
$$;
CREATE OR REPLACE FUNCTION navegador_fts_doc(name text, qname text, j jsonb) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT setweight(to_tsvector('simple', navegador_fts_words(navegador_words(name))), 'A')
        || setweight(to_tsvector('simple', navegador_fts_words(navegador_words(qname))), 'B')
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
"#;

/// The triggers a bulk load drops (`IngestTx::drop_indexes`) and `FTS_FILL` replaces.
/// (`NOT EXISTS`, not `NOT IN (SELECT ...)`: PostgreSQL runs the latter as a nested loop
/// once the ids outgrow `work_mem`, 40 s on Django.)
pub const FTS_DROP_TRIGGERS: &str = "DROP TRIGGER IF EXISTS nodes_fts ON nodes;";
/// (An update fires it only for the columns the index reads, as in SQLite:
/// `schema::FTS_UPDATE_OF`.)
pub const FTS_TRIGGERS: &str = concat!(
    "CREATE OR REPLACE TRIGGER nodes_fts ",
    crate::schema::fts_update_of!(),
    " OR INSERT OR DELETE ON nodes FOR EACH ROW EXECUTE FUNCTION navegador_nodes_fts();"
);
pub const FTS_FILL: &str = "DELETE FROM search_fts f WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = f.rowid);
    INSERT INTO search_fts(rowid, doc)
      SELECT n.id, navegador_fts_doc(n.name, n.qualified_name, n.props) FROM nodes n
      WHERE n.label NOT IN ('Import', 'Decorator', 'Repository')
      ON CONFLICT (rowid) DO NOTHING;";


#[cfg(test)]
mod tests {
    use super::{redact, tls_options};

    #[test]
    fn passwords_are_masked() {
        for (url, shown) in [
            ("postgres://u:secret@h:5432/db", "postgres://u:***@h:5432/db"),
            ("postgresql://u:p%40ss@h/db?sslmode=require", "postgresql://u:***@h/db?sslmode=require"),
            ("postgres://h/db?user=u&password=secret", "postgres://h/db?user=u&password=***"),
            ("postgres://u@h/db", "postgres://u@h/db"),
        ] {
            assert_eq!(redact(url), shown);
        }
    }

    #[test]
    fn libpq_tls_options_map_to_ours() {
        let (u, tls) = tls_options("postgres://h/db?sslmode=verify-full&sslrootcert=%2Ftmp%2Fca.pem&connect_timeout=5").unwrap();
        assert_eq!(u, "postgres://h/db?sslmode=require&connect_timeout=5");
        assert_eq!(tls, Some(Some("/tmp/ca.pem".into())));
        let (u, tls) = tls_options("postgres://h/db?sslmode=prefer").unwrap();
        assert_eq!((u.as_str(), tls), ("postgres://h/db?sslmode=disable", None));
        assert_eq!(tls_options("postgres://h/db").unwrap(), ("postgres://h/db".to_string(), None));
        assert!(tls_options("postgres://h/db?sslmode=on").unwrap_err().to_string().contains("sslmode=on"));
        assert!(tls_options("postgres://h/db?sslrootcert=/ca.pem").unwrap_err().to_string().contains("sslmode=verify-full"));
    }
}

/// Creates an empty database `name` on the server of `url` (dropping one of that name
/// first) and returns its URL. For tests and benchmarks that want a graph of their own.
pub fn fresh_database(url: &str, name: &str) -> Result<String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(StoreError::BadUrl { url: redact(url), why: format!("bad database name {name:?}: use letters, digits and _") });
    }
    let mut client = connect(url)?;
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
