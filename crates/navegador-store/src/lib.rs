//! Storage of the graph. This crate owns the on-disk format: the SQLite schema, its
//! version, and the transactions that keep an ingest atomic.
//!
//! The SQLite file is the embedded default (`.navegador/graph.db`). Writers go through
//! [`IngestTx`], one transaction per ingest, so a reader (WAL mode) or a crash sees the old
//! graph or the new one, never half. Readers use [`Store`]'s query methods.

mod catalog;
mod db;
mod endpoints;
mod export;
pub use export::{ExportEdge, ExportNode};
mod graph;
pub use graph::PropertyCounts;
mod knowledge;
mod nav;
mod pg;
#[doc(hidden)]
pub mod testing;
pub use pg::redact as redact_url;
pub use pg::server_url;

/// Where a graph lives, for messages: a file's path, or a server URL with its password
/// masked.
pub fn display_location(db: &std::path::Path) -> String {
    match server_url(db) {
        Some(url) => redact_url(url),
        None => db.display().to_string(),
    }
}

/// Whether a graph may already exist at `db`: a file that is there, or any server URL
/// (whose schema the open checks).
pub fn graph_may_exist(db: &std::path::Path) -> bool {
    server_url(db).is_some() || db.exists()
}
mod read;
mod schema;
mod search;
mod sqlite;

pub use search::{identifier_words, words as search_words};

pub use knowledge::{Link, LinkTarget, Neighbor, Reader, SearchHit, KNOWLEDGE_LABELS};
pub use endpoints::{EndpointRow, HttpCallRow, HttpLink};
pub use nav::{CallEdgeRow, DefinitionRow};
pub use read::SiteRow;

pub use sqlite::{
    EdgeRow, FileState, ImportRow, IngestTx, NewNode, NodeRow, RefRow, RefStatus, Stats, Store,
    SymbolRow,
};

use std::path::PathBuf;

/// At most this many candidates of an `ambiguous` site are linked (the nearest); how many
/// there were in all is the `candidates` of its edges: linking dozens of same-named methods
/// would be noise, not an answer. The resolver links by it, the tools say what it left out.
pub const AMBIGUOUS_LINKED: usize = 8;

/// Errors of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the graph database {path}: {source}")]
    Open { path: PathBuf, source: rusqlite::Error },
    #[error(
        "the graph database {path} has schema version {found}, this navegador needs {expected}; \
         re-index with `navegador ingest --clear` (or delete the file)"
    )]
    SchemaMismatch { path: PathBuf, found: i64, expected: i64 },
    #[error("{path} is not a navegador graph database (no schema version); pass another --db (this file is left as it is)")]
    NotOurs { path: PathBuf },
    #[error("{path} is not a SQLite file, so not a navegador graph; pass another --db, or delete it if it was a graph")]
    NotSqlite { path: PathBuf },
    #[error(
        "the graph database{} is damaged ({detail}); rebuild it with `navegador ingest --clear` (the damaged file is \
         kept beside it as NAME.damaged-SECONDS), or delete it and re-index",
        path.as_ref().map(|p| format!(" {}", p.display())).unwrap_or_default()
    )]
    Damaged { path: Option<PathBuf>, detail: String },
    #[error("cannot change {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error(
        "the PostgreSQL database {url} holds no navegador graph yet; index into it first \
         (`navegador ingest PATH --db URL`, or the `ingest` tool)"
    )]
    NoGraphYet { url: String },
    #[error("cannot connect to the PostgreSQL graph {url}: {}; {}", pg_message(.error), connect_hint(.error))]
    Connect { url: String, error: postgres::Error },
    #[error("bad PostgreSQL URL {url}: {why}")]
    BadUrl { url: String, why: String },
    /// (Not a `source`: its text is the message already, a chain would print it twice.)
    #[error("database error: {0}")]
    Sql(rusqlite::Error),
    #[error("PostgreSQL error: {}", pg_message(.0))]
    Postgres(postgres::Error),
    #[error("PostgreSQL refused a statement of the store: {} in `{sql}`", pg_message(.error))]
    Statement { sql: String, error: postgres::Error },
    #[error("the query returned no rows")]
    NoRows,
    #[error("column {index}: {message}")]
    Column { index: usize, message: String },
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// A damaged page met by any statement is [`StoreError::Damaged`], whoever reads it.
impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseCorrupt) => StoreError::Damaged { path: None, detail: e.to_string() },
            _ => StoreError::Sql(e),
        }
    }
}

// The PostgreSQL errors are not `source`s: their text is in the message already (a chain
// would print it twice).
impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> Self {
        StoreError::Postgres(e)
    }
}

/// What to check after a failed connect.
fn connect_hint(e: &postgres::Error) -> &'static str {
    if pg_message(e).contains("certificate") {
        "pass the CA that signed the server's certificate as sslrootcert=/path/to/ca.pem (PEM) in the URL"
    } else {
        "check that the server is up and the URL's host, port, user, password and database"
    }
}

/// A PostgreSQL error with the server's own message and detail when there is one.
fn pg_message(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => match db.detail() {
            Some(d) => format!("{} ({d})", db.message()),
            None => db.message().to_string(),
        },
        None => {
            // the kind ("error connecting to server") and what caused it
            let mut text = e.to_string();
            let mut cause = std::error::Error::source(e);
            while let Some(c) = cause {
                let t = c.to_string();
                if !text.contains(&t) {
                    text = format!("{text}: {t}");
                }
                cause = c.source();
            }
            text
        }
    }
}
