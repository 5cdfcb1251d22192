//! Test support: a fresh PostgreSQL graph database for a test, on the server that
//! `scripts/test.sh` starts (`NAVEGADOR_TEST_PG`, from `scripts/pg.sh`).

use std::path::PathBuf;

/// The environment variable naming the test server's URL.
pub const TEST_SERVER_VAR: &str = "NAVEGADOR_TEST_PG";

/// A new empty database named `name` (plus the process id, so test binaries running at
/// once do not collide) on the test server, as a `--db` location; `None` when no test
/// server is configured. Panics when one is configured but cannot be reached.
pub fn fresh_postgres(name: &str) -> Option<PathBuf> {
    let url = std::env::var(TEST_SERVER_VAR).ok().filter(|u| !u.is_empty())?;
    let db = format!("{name}_{}", std::process::id());
    match crate::pg::fresh_database(&url, &db) {
        Ok(u) => Some(PathBuf::from(u)),
        Err(e) => panic!("{TEST_SERVER_VAR} is set but the test server cannot be used: {e}"),
    }
}

/// Says on stderr that a PostgreSQL test did not run and how to run it.
pub fn skipped(test: &str) {
    eprintln!("{test}: skipped, no PostgreSQL test server ({TEST_SERVER_VAR} unset; `bash scripts/test.sh` starts one)");
}

/// Turns a graph of the current schema back into the previous one (`schema::MIGRATE_FROM`:
/// the typed columns of version 8 dropped, the version row set back, and what was added
/// within version 8 undone: the indexes since and the full-text trigger that fired on
/// every column), as that navegador left it, for the migration tests. Either backend.
pub fn downgrade_to_previous_schema(store: &crate::Store) -> crate::Result<()> {
    let db = store.conn();
    for name in ADDED_WITHIN_VERSION {
        db.execute_batch(&format!("DROP INDEX IF EXISTS {name};"))?;
    }
    let (drop, create) = if db.is_pg() {
        (crate::pg::FTS_DROP_TRIGGERS, crate::pg::FTS_TRIGGERS)
    } else {
        (crate::schema::FTS_DROP_TRIGGERS, crate::schema::FTS_TRIGGERS)
    };
    db.execute_batch(drop)?;
    db.execute_batch(&create.replace(crate::schema::FTS_UPDATE_OF, "AFTER UPDATE"))?;
    let cols = crate::schema::TYPED.iter().map(|(c, _, _)| c).chain(crate::schema::RESOLVED.iter().map(|(c, _)| c));
    for col in cols {
        db.execute_batch(&format!("ALTER TABLE nodes DROP COLUMN {col};"))?;
    }
    db.execute(
        "UPDATE meta SET value = ?1 WHERE key = 'schema_version'",
        crate::db::params![crate::schema::MIGRATE_FROM.to_string()],
    )?;
    Ok(())
}

/// The indexes of `schema::INDEXES` added within the current schema version (a writer's
/// open of an older file builds them).
const ADDED_WITHIN_VERSION: &[&str] =
    &["edges_links", "edges_graphql_calls", "files_http_calls", "files_graphql_documents", "files_graphql_resolvers"];

/// What a writer's open must have brought up to date in a graph an older navegador made:
/// the indexes of `schema::INDEXES` missing, and whether the full-text trigger still
/// fires on an update of any column (`schema::FTS_UPDATE_OF`). Empty and false when current.
pub fn outdated_within_version(store: &crate::Store) -> crate::Result<(Vec<String>, bool)> {
    let db = store.conn();
    let (indexes, trigger) = if db.is_pg() {
        (
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()",
            "SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t WHERE t.tgname = 'nodes_fts'",
        )
    } else {
        (
            "SELECT name FROM sqlite_master WHERE type = 'index'",
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'nodes_fts_update'",
        )
    };
    let have: Vec<String> = db.prepare(indexes)?.query_map(crate::db::params![], |r| r.get(0))?.collect::<crate::Result<_>>()?;
    let missing = crate::schema::INDEXES.iter().map(|(n, _)| n.to_string()).filter(|n| !have.contains(n)).collect();
    let def: String = db.query_row(trigger, crate::db::params![], |r| r.get(0))?;
    Ok((missing, !def.contains("UPDATE OF")))
}
