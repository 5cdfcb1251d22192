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
/// the typed columns of version 8 dropped, the version row set back), as that navegador
/// left it, for the migration tests. Either backend.
pub fn downgrade_to_previous_schema(store: &crate::Store) -> crate::Result<()> {
    let db = store.conn();
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
