//! The SQLite backend: opening (the file recognised before anything is written to it,
//! a quick integrity check, WAL, schema version check), the ingest transaction and the
//! reads that resolution and the CLI need.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use navegador_model::{EdgeType, Label, RefKind, Resolution};
use rusqlite::{Connection, OpenFlags};

use crate::db::{params, Batch, ColType, Db, OptionalExtension, Row, TxKind};

// The hot writes of an ingest, batched on PostgreSQL (see `db::Batch`).
use ColType::{Int as I, Text as T};
const INSERT_NODE: Batch = Batch {
    row_sql: "INSERT INTO nodes(label, name, qualified_name, file_path, parent, line_start, line_end, props,
                                sym_kind, sym_class, sym_exported, sym_default_export, sym_signature, imp_module, imp_name, imp_alias)
              VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
    pg_sql: "INSERT INTO nodes(id, label, name, qualified_name, file_path, parent, line_start, line_end, props,
                               sym_kind, sym_class, sym_exported, sym_default_export, sym_signature, imp_module, imp_name, imp_alias)
             SELECT id, label, name, qname, file, parent, ls, le, props::jsonb, kind, class, ex, dex, sig, module, imported, alias
             FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[],
                         $7::bigint[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::bigint[],
                         $14::text[], $15::text[], $16::text[], $17::text[])
                  AS u(id, label, name, qname, file, parent, ls, le, props, kind, class, ex, dex, sig, module, imported, alias)",
    columns: &[I, T, T, T, T, I, I, I, T, T, T, I, I, T, T, T, T],
    last_per_key: false,
    site_status: false,
};
/// [`INSERT_NODE`]'s SQLite row with the id given (a node rewritten in place).
const INSERT_NODE_AT: &str = "INSERT INTO nodes(id, label, name, qualified_name, file_path, parent, line_start, line_end, props,
                                  sym_kind, sym_class, sym_exported, sym_default_export, sym_signature, imp_module, imp_name, imp_alias)
              VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)";

/// The [`crate::schema::TYPED`] columns of a node, taken from the properties ingest writes
/// to `props` (the same values as the schema's SQL expressions: a string where the property
/// is a string, `1` where a flag is `true`, else `NULL`).
struct Typed<'a> {
    kind: Option<&'a str>,
    class: Option<&'a str>,
    exported: Option<i64>,
    default_export: Option<i64>,
    signature: Option<&'a str>,
    module: Option<&'a str>,
    imported: Option<&'a str>,
    alias: Option<&'a str>,
}

impl<'a> Typed<'a> {
    fn of(label: Option<Label>, props: &'a serde_json::Map<String, serde_json::Value>) -> Typed<'a> {
        let text = |k: &str| props.get(k).and_then(serde_json::Value::as_str);
        let flag = |k: &str| (props.get(k) == Some(&serde_json::Value::Bool(true))).then_some(1);
        let symbol = matches!(label, Some(Label::Class | Label::Function | Label::Method | Label::Variable | Label::Module));
        let callable = matches!(label, Some(Label::Function | Label::Method));
        let import = label == Some(Label::Import);
        Typed {
            kind: text("kind").filter(|_| symbol),
            class: text("class_name").filter(|_| symbol),
            exported: flag("is_exported").filter(|_| symbol),
            default_export: flag("is_default_export").filter(|_| symbol),
            signature: text("signature").filter(|_| callable),
            module: text("module").filter(|_| import),
            imported: text("imported").filter(|_| import),
            alias: text("alias").filter(|_| import),
        }
    }
}
const INSERT_REF: Batch = Batch {
    row_sql: "INSERT INTO refs(file_path, from_node, kind, name, receiver, receiver_root, receiver_type, line, col, arity, arg_types)
              VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    pg_sql: "INSERT INTO refs(id, file_path, from_node, kind, name, receiver, receiver_root, receiver_type, line, col, arity, arg_types)
             SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[],
                                  $7::text[], $8::text[], $9::bigint[], $10::bigint[], $11::bigint[], $12::text[])",
    columns: &[I, T, I, T, T, T, T, T, I, I, I, T],
    last_per_key: false,
    site_status: false,
};
const INSERT_EDGE: Batch = Batch {
    row_sql: "INSERT INTO edges(src, dst, type, resolution, line, col, ref_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    pg_sql: "INSERT INTO edges(src, dst, type, resolution, line, col, ref_id)
             SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[])",
    columns: &[I, I, T, T, I, I, I],
    last_per_key: false,
    site_status: false,
};
/// [`INSERT_EDGE`] with the properties of an ambiguous site's edge.
const INSERT_EDGE_PROPS: Batch = Batch {
    row_sql: "INSERT INTO edges(src, dst, type, resolution, line, col, ref_id, props) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    pg_sql: "INSERT INTO edges(src, dst, type, resolution, line, col, ref_id, props)
             SELECT src, dst, ty, res, line, col, ref_id, props::jsonb
             FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[],
                         $8::text[]) AS u(src, dst, ty, res, line, col, ref_id, props)",
    columns: &[I, I, T, T, I, I, I, T],
    last_per_key: false,
    site_status: false,
};
const SET_IMPORT_TARGET: Batch = Batch {
    row_sql: "UPDATE nodes SET imp_target = ?2 WHERE id = ?1",
    pg_sql: "UPDATE nodes SET imp_target = u.t FROM unnest($1::bigint[], $2::text[]) AS u(id, t) WHERE nodes.id = u.id",
    columns: &[I, T],
    last_per_key: true,
    site_status: false,
};
const SET_REF_STATUS: Batch = Batch {
    row_sql: "UPDATE refs SET status = ?2 WHERE id = ?1",
    pg_sql: "UPDATE refs SET status = u.s FROM unnest($1::bigint[], $2::text[]) AS u(id, s) WHERE refs.id = u.id",
    columns: &[I, T],
    last_per_key: true,
    site_status: true,
};

use crate::schema::{typed_set, FTS_DROP_TRIGGERS, FTS_FILL, FTS_TRIGGERS, FTS_UPDATE_OF, INDEXES, MIGRATE_FROM, RESOLVED, SCHEMA, TYPED, VERSION};
use crate::search::SEARCH_VERSION;
use crate::{Result, StoreError};

/// An open graph database.
pub struct Store {
    conn: Db,
    path: PathBuf,
    pub(crate) graph_stats: crate::graph::StatsCache,
    integrity: Integrity,
}

/// The integrity check of a writer's existing file. It starts when a write transaction is
/// about to change rows ([`IngestTx::expect_writes`]; else when a verdict is asked), runs
/// beside the caller (an ingest parses and writes meanwhile, into the WAL only) and its
/// verdict is awaited before a commit: nothing reaches the main file of a damaged graph.
/// A writer that changes nothing (an ingest that finds nothing changed) never pays for it.
#[derive(Default)]
struct Integrity {
    /// The file to check, and its identity, until the check starts.
    pending: Option<(PathBuf, Option<FileId>)>,
    check: Option<std::thread::JoinHandle<Option<String>>>,
    /// What the check found, once it found damage: every later write fails with it.
    damaged: Option<String>,
}

impl Integrity {
    fn start(&mut self) {
        let Some((path, identity)) = self.pending.take() else { return };
        self.check = Some(std::thread::spawn(move || {
            let found = quick_check(&path);
            if let (None, Some(id)) = (&found, identity) {
                VERIFIED.lock().unwrap_or_else(|e| e.into_inner()).push(id);
            }
            found
        }));
    }

    fn verdict(&mut self, path: &Path) -> Result<()> {
        self.start();
        if let Some(check) = self.check.take() {
            self.damaged = check.join().unwrap_or_else(|_| Some("the integrity check crashed".into()));
        }
        match &self.damaged {
            None => Ok(()),
            Some(detail) => Err(StoreError::Damaged { path: Some(path.to_path_buf()), detail: detail.clone() }),
        }
    }
}

/// What the last ingest saw of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileState {
    pub size: u64,
    pub mtime_ns: i64,
    pub hash: String,
}

/// A node to insert.
#[derive(Debug, Clone, Default)]
pub struct NewNode<'a> {
    pub label: Option<Label>,
    pub name: &'a str,
    pub qualified_name: Option<&'a str>,
    pub file_path: Option<&'a str>,
    pub parent: Option<i64>,
    pub line_start: Option<u32>,
    pub line_end: Option<u32>,
    /// A JSON object of the remaining properties.
    pub props: serde_json::Map<String, serde_json::Value>,
}

/// Properties that say where a node is, not what it is: an edit above a definition, or to
/// its comment, moves them without changing what other files bind to.
const PLACE_PROPS: &[&str] = &["column_start", "column_end", "name_line", "name_column", "docstring", "size", "line_count", "content_hash"];

/// What identifies a node of a file across a rewrite: label, names, parent and every
/// property but its place (`PLACE_PROPS`), keys sorted (PostgreSQL's `jsonb` reorders
/// them).
fn stable_key(label: &str, name: &str, qname: Option<&str>, parent: Option<i64>, props: &serde_json::Map<String, serde_json::Value>) -> String {
    let mut keys: Vec<&String> = props.keys().filter(|k| !PLACE_PROPS.contains(&k.as_str())).collect();
    keys.sort();
    let mut out = format!("{label}\t{name}\t{}\t{}", qname.unwrap_or("\u{1}"), parent.map_or(String::new(), |p| p.to_string()));
    for k in keys {
        out.push('\t');
        out.push_str(k);
        out.push('=');
        out.push_str(&props[k].to_string());
    }
    out
}

/// A file being rewritten in place ([`IngestTx::rewrite_file`] to
/// [`IngestTx::finish_rewrite`]): its old nodes' ids by stable key, taken in id order by
/// the new nodes that match.
#[derive(Default)]
struct Rewrite {
    path: String,
    free: HashMap<String, std::collections::VecDeque<i64>>,
    old: Vec<i64>,
    reused: std::collections::HashSet<i64>,
}

/// A definition, as resolution sees it.
#[derive(Debug, Clone)]
pub struct SymbolRow {
    pub id: i64,
    pub label: Label,
    pub name: String,
    pub qualified_name: String,
    pub file_path: String,
    pub parent: Option<i64>,
    pub kind: Option<String>,
    pub class_name: Option<String>,
    pub is_exported: bool,
    pub is_default_export: bool,
    /// The declaration's head as written (`int put(String k, int v)`), for its arity.
    pub signature: Option<String>,
}

/// An Import node, as resolution sees it.
#[derive(Debug, Clone)]
pub struct ImportRow {
    pub id: i64,
    pub file_path: String,
    pub module: String,
    pub name: Option<String>,
    pub alias: Option<String>,
    pub line: u32,
}

/// A reference site.
#[derive(Debug, Clone)]
pub struct RefRow {
    pub id: i64,
    pub file_path: String,
    pub from_node: Option<i64>,
    pub kind: RefKind,
    pub name: String,
    pub receiver: Option<String>,
    pub receiver_type: Option<String>,
    pub line: u32,
    pub col: u32,
    /// The number of arguments of a call, when the site has an argument list.
    pub arity: Option<u32>,
    /// The static types of its arguments where known (`int,,String`): see
    /// `navegador_model::RefFact::arg_types`.
    pub arg_types: Option<String>,
}

/// The outcome of resolving one reference site (the model's vocabulary).
pub use navegador_model::RefStatus;

/// A row of `nodes` for display.
#[derive(Debug, Clone)]
pub struct NodeRow {
    pub id: i64,
    pub label: String,
    pub name: Option<String>,
    pub qualified_name: Option<String>,
    pub file_path: Option<String>,
    pub line_start: Option<u32>,
    pub line_end: Option<u32>,
    pub props: serde_json::Map<String, serde_json::Value>,
}

/// A row of `edges` for display.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EdgeRow {
    pub src: i64,
    pub dst: i64,
    pub edge_type: String,
    pub resolution: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    /// An `ambiguous` edge's reason (`overloads`, `hierarchy`, `receiver_unknown`,
    /// `global_name`) and its site's number of candidates in all; `None` for other edges.
    pub ambiguity: Option<(String, i64)>,
}

/// Counts by label, relationship type and reference status.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub labels: Vec<(String, u64)>,
    pub edge_types: Vec<(String, u64)>,
    /// Call and constructor sites by status (`exact`, `inferred`, `ambiguous`, `external`,
    /// `unresolved`).
    pub call_sites: Vec<(String, u64)>,
    pub files_by_language: Vec<(String, u64)>,
    pub skipped: Vec<(String, String)>,
}

/// What went wrong opening `path`: a damaged file, a file that is not SQLite, or another
/// failure (permissions, a missing folder).
pub(crate) fn opening_error(path: &Path, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseCorrupt) => StoreError::Damaged { path: Some(path.to_path_buf()), detail: e.to_string() },
        Some(rusqlite::ErrorCode::NotADatabase) if has_sqlite_header(path) => {
            StoreError::Damaged { path: Some(path.to_path_buf()), detail: e.to_string() }
        }
        Some(rusqlite::ErrorCode::NotADatabase) => StoreError::NotSqlite { path: path.to_path_buf() },
        _ => StoreError::Open { path: path.to_path_buf(), source: e },
    }
}

fn has_sqlite_header(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && &head == b"SQLite format 3\0"
}

/// Files (device, inode, birth time: an inode number is reused once its file is deleted)
/// this process found whole: a long-lived process (the MCP server's
/// live index and `ingest` tool) checks a graph once, not at every re-ingest; its own
/// writes do not damage it, and a page damaged later is still [`StoreError::Damaged`]
/// for whoever reads it.
static VERIFIED: std::sync::Mutex<Vec<FileId>> = std::sync::Mutex::new(Vec::new());

type FileId = (u64, u64, u128);

fn verified(identity: FileId) -> bool {
    VERIFIED.lock().unwrap_or_else(|e| e.into_inner()).contains(&identity)
}

/// `None` (so every writer's open checks) where the file system keeps no birth time.
#[cfg(unix)]
fn file_identity(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    let born = m.created().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos();
    Some((m.dev(), m.ino(), born))
}

#[cfg(not(unix))]
fn file_identity(_: &Path) -> Option<FileId> {
    None
}

/// `PRAGMA quick_check` on a read-only connection of its own: `None` when the file is
/// whole, else what SQLite found (its first lines). It reads every page once (about
/// 0.25 s of CPU for a 120 MB graph) and skips the index-versus-table comparison of
/// `integrity_check`.
fn quick_check(path: &Path) -> Option<String> {
    let conn = match Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX) {
        Ok(c) => c,
        Err(e) => return Some(e.to_string()),
    };
    let _ = conn.busy_timeout(std::time::Duration::from_secs(10));
    let _ = conn.pragma_update(None, "mmap_size", 256_i64 << 20);
    let lines: rusqlite::Result<Vec<String>> = conn
        .prepare("PRAGMA quick_check(5)")
        .and_then(|mut st| st.query_map([], |r| r.get::<_, String>(0))?.collect());
    match lines {
        Ok(l) if l.len() == 1 && l[0] == "ok" => None,
        Ok(l) => Some(l.join("; ")),
        Err(e) => Some(e.to_string()),
    }
}

/// Moves a damaged graph file (and its `-wal`/`-shm`) to `NAME.damaged-SECONDS`; returns
/// the new path of the main file.
fn set_aside(path: &Path) -> Result<PathBuf> {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let aside = PathBuf::from(format!("{}.damaged-{secs}", path.display()));
    for suffix in ["", "-wal", "-shm"] {
        let from = PathBuf::from(format!("{}{suffix}", path.display()));
        if from.exists() {
            let to = PathBuf::from(format!("{}{suffix}", aside.display()));
            std::fs::rename(&from, &to).map_err(|e| StoreError::Io { path: from.clone(), source: e })?;
        }
    }
    Ok(aside)
}

/// Switches to WAL. Changing the journal mode needs the file to itself and SQLite answers
/// BUSY at once (no busy handler) while another connection holds it, e.g. a second server
/// creating the same new file: retry for up to 10 s.
fn wal_mode(conn: &Connection) -> rusqlite::Result<()> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match conn.pragma_update(None, "journal_mode", "WAL") {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if matches!(e.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            other => return other,
        }
    }
}

impl Store {
    /// Opens (creating if needed) a graph database, checking its schema version. An
    /// existing file is recognised before anything writes to it (a foreign or damaged file
    /// is left byte for byte as it was), and its integrity is checked (`PRAGMA
    /// quick_check`) on a second connection, once per file and process, from the first
    /// write transaction that will change rows ([`IngestTx::expect_writes`]) while the
    /// caller goes on; a commit waits for the verdict and fails with [`StoreError::Damaged`].
    pub fn open(path: &Path) -> Result<Store> {
        if let Some(url) = crate::pg::server_url(path) {
            return crate::pg::open(url, false);
        }
        let existing = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        let open_err = |source| opening_error(path, source);
        let conn = Connection::open(path).map_err(open_err)?;
        conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(open_err)?;
        let mut store = Store { conn: Db::sqlite(conn), path: path.to_path_buf(), graph_stats: Default::default(), integrity: Integrity::default() };
        let mut migrate = false;
        if existing {
            match store.schema_version().map_err(|e| store.recognise(e))? {
                Some(VERSION) => {}
                Some(MIGRATE_FROM) => migrate = true,
                Some(found) => return Err(StoreError::SchemaMismatch { path: store.path.clone(), found, expected: VERSION }),
                None if store.has_tables().map_err(|e| store.recognise(e))? => {
                    return Err(StoreError::NotOurs { path: store.path.clone() })
                }
                None => {} // an empty SQLite file: made a graph below
            }
        }
        let conn = store.conn.sqlite_conn().expect("a SQLite store");
        wal_mode(conn).map_err(open_err)?;
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(open_err)?;
        conn.pragma_update(None, "cache_size", -256_000).map_err(open_err)?;
        conn.pragma_update(None, "mmap_size", 256_i64 << 20).map_err(open_err)?;
        conn.pragma_update(None, "temp_store", "MEMORY").map_err(open_err)?;
        register_functions(conn).map_err(open_err)?;
        let identity = if existing { file_identity(path) } else { None };
        if existing && !identity.is_some_and(verified) {
            store.integrity.pending = Some((path.to_path_buf(), identity));
        }
        if migrate {
            // nothing is committed onto a damaged graph: the check first, waited for
            store.integrity_verdict()?;
            store.migrate().map_err(|e| store.recognise(e))?;
        }
        store.check_or_init_schema().map_err(|e| store.recognise(e))?;
        Ok(store)
    }

    /// Opens an existing database for reading only. (Readers run no integrity check: a
    /// damaged page they reach is a [`StoreError::Damaged`] naming the fix.)
    pub fn open_read_only(path: &Path) -> Result<Store> {
        if let Some(url) = crate::pg::server_url(path) {
            return crate::pg::open(url, true);
        }
        let open_err = |source| opening_error(path, source);
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
            .map_err(open_err)?;
        conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(open_err)?;
        // Readers answer from rows scattered over the graph (a hot class's members, callers
        // and references): mapped pages and a larger cache instead of one `pread` per page
        // through SQLite's default 2 MB cache (the JDK's HashMap page spent a quarter of its
        // time there). The cache grows only as far as it is used.
        conn.pragma_update(None, "mmap_size", 256_i64 << 20).map_err(open_err)?;
        conn.pragma_update(None, "cache_size", -65_536).map_err(open_err)?;
        let store = Store { conn: Db::sqlite(conn), path: path.to_path_buf(), graph_stats: Default::default(), integrity: Integrity::default() };
        match store.schema_version().map_err(|e| store.recognise(e))? {
            Some(VERSION) => Ok(store),
            Some(found) => Err(StoreError::SchemaMismatch { path: store.path.clone(), found, expected: VERSION }),
            None => Err(StoreError::NotOurs { path: store.path.clone() }),
        }
    }

    /// Opens a graph that is about to be rebuilt from scratch (`ingest --clear`): a file of
    /// another schema version is replaced ([`Store::reset`]), a damaged one is moved aside
    /// to `NAME.damaged-SECONDS` (returned, with its `-wal`/`-shm`) and a new graph made in
    /// its place. A file that is not a navegador graph is still refused, untouched.
    pub fn open_for_rebuild(path: &Path) -> Result<(Store, Option<PathBuf>)> {
        let opened = Store::open(path).and_then(|mut s| s.integrity_verdict().map(|()| s));
        match opened {
            Ok(s) => Ok((s, None)),
            Err(StoreError::SchemaMismatch { .. }) => {
                Store::reset(path)?;
                Ok((Store::open(path)?, None))
            }
            Err(StoreError::Damaged { .. }) if crate::pg::server_url(path).is_none() => {
                let aside = set_aside(path)?;
                Ok((Store::open(path)?, Some(aside)))
            }
            Err(e) => Err(e),
        }
    }

    /// Waits for the integrity check of [`Store::open`] (the first call; later ones repeat
    /// its verdict at once).
    pub fn integrity_verdict(&mut self) -> Result<()> {
        self.integrity.verdict(&self.path)
    }

    /// A store over an open connection (the PostgreSQL backend makes its own).
    pub(crate) fn from_db(conn: Db, path: PathBuf) -> Store {
        Store { conn, path, graph_stats: Default::default(), integrity: Integrity::default() }
    }

    fn has_tables(&self) -> Result<bool> {
        let n: i64 = self.conn.query_row("SELECT count(*) FROM sqlite_master WHERE type = 'table'", params![], |r| r.get(0))?;
        Ok(n > 0)
    }

    /// A failure while recognising the file, with its path: damaged, not SQLite, or other.
    fn recognise(&self, e: StoreError) -> StoreError {
        match e {
            StoreError::Sql(e) => opening_error(&self.path, e),
            StoreError::Damaged { path: None, detail } => StoreError::Damaged { path: Some(self.path.clone()), detail },
            other => other,
        }
    }

    pub(crate) fn schema_version(&self) -> Result<Option<i64>> {
        let has_meta: bool = if self.conn.is_pg() {
            self.conn.query_row("SELECT to_regclass('meta') IS NOT NULL", params![], |r| r.get(0))?
        } else {
            self.conn.query_row(
                "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
                params![],
                |r| r.get(0),
            )?
        };
        if !has_meta {
            return Ok(None);
        }
        let v: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'schema_version'", params![], |r| r.get(0))
            .optional()?;
        Ok(v.and_then(|v| v.parse().ok()))
    }

    fn check_or_init_schema(&self) -> Result<()> {
        match self.schema_version()? {
            Some(VERSION) => {
                // An index added within a schema version (e.g. `nodes_parent`) is built the
                // first time a writer opens an older file; existing ones cost nothing.
                for (name, on) in INDEXES {
                    self.conn.execute_batch(&format!("CREATE INDEX IF NOT EXISTS {name} ON {on};"))?;
                }
                self.refresh_triggers()?;
                self.refresh_search()
            }
            Some(found) => Err(StoreError::SchemaMismatch { path: self.path.clone(), found, expected: VERSION }),
            None => {
                // Create the schema in one write transaction, deciding under its lock: two
                // processes opening a new file at once (two servers on one workspace) must
                // not see each other's half-made schema.
                self.conn.execute_batch("BEGIN IMMEDIATE")?;
                let made = self.init_schema_locked();
                self.conn.execute_batch(if made.is_ok() { "COMMIT" } else { "ROLLBACK" })?;
                made
            }
        }
    }

    /// Migrates a graph of schema [`MIGRATE_FROM`] to [`VERSION`] in one transaction (a
    /// crash leaves the old version whole): adds the typed columns and fills them from
    /// `props`. The full-text triggers are off meanwhile: no text they index changes.
    fn migrate(&self) -> Result<()> {
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        let done = (|| -> Result<()> {
            if self.schema_version()? != Some(MIGRATE_FROM) {
                return Ok(()); // another writer did it while we waited
            }
            for (col, ty) in TYPED.iter().map(|(c, t, _)| (c, t)).chain(RESOLVED.iter().map(|(c, t)| (c, t))) {
                self.conn.execute_batch(&format!("ALTER TABLE nodes ADD COLUMN {col} {ty};"))?;
            }
            self.conn.execute_batch(FTS_DROP_TRIGGERS)?;
            self.conn.execute_batch(&format!(
                "UPDATE nodes SET {} WHERE label IN ('Class', 'Function', 'Method', 'Variable', 'Module', 'Import');",
                typed_set()
            ))?;
            self.conn.execute_batch(FTS_TRIGGERS)?;
            self.conn.execute("UPDATE meta SET value = ?1 WHERE key = 'schema_version'", params![VERSION.to_string()])?;
            Ok(())
        })();
        self.conn.execute_batch(if done.is_ok() { "COMMIT" } else { "ROLLBACK" })?;
        done
    }

    /// The schema check and creation of a new file, inside `BEGIN IMMEDIATE`.
    fn init_schema_locked(&self) -> Result<()> {
        match self.schema_version()? {
            Some(VERSION) => return Ok(()), // another process made it while we waited
            Some(found) => return Err(StoreError::SchemaMismatch { path: self.path.clone(), found, expected: VERSION }),
            None => {}
        }
        let tables: i64 = self.conn.query_row("SELECT count(*) FROM sqlite_master WHERE type = 'table'", params![], |r| r.get(0))?;
        if tables > 0 {
            return Err(StoreError::NotOurs { path: self.path.clone() });
        }
        self.conn.execute_batch(SCHEMA)?;
        self.conn.execute_batch(FTS_TRIGGERS)?;
        for (name, on) in INDEXES {
            self.conn.execute_batch(&format!("CREATE INDEX IF NOT EXISTS {name} ON {on};"))?;
        }
        self.conn.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?1)", params![VERSION.to_string()])?;
        self.conn.execute("INSERT INTO meta(key, value) VALUES ('search', ?1)", params![SEARCH_VERSION])?;
        Ok(())
    }

    /// Replaces the full-text triggers an older navegador made within this schema version
    /// (their update trigger fired for every column; `FTS_TRIGGERS`) by the current ones,
    /// once, by the first writer that opens the graph. What they index is unchanged.
    fn refresh_triggers(&self) -> Result<()> {
        let current = |s: &Self| -> Result<bool> {
            let sql: Option<String> = s
                .conn
                .query_row("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'nodes_fts_update'", params![], |r| r.get(0))
                .optional()?;
            // (none: a bulk load dropped them and recreates them at its end)
            Ok(sql.is_none_or(|sql| sql.contains(FTS_UPDATE_OF)))
        };
        if current(self)? {
            return Ok(());
        }
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        let done = (|| -> Result<()> {
            if !current(self)? {
                self.conn.execute_batch(FTS_DROP_TRIGGERS)?;
                self.conn.execute_batch(FTS_TRIGGERS)?;
            }
            Ok(())
        })();
        self.conn.execute_batch(if done.is_ok() { "COMMIT" } else { "ROLLBACK" })?;
        done
    }

    /// Rebuilds the full-text index when it was made by an older navegador (what
    /// `search_fts` holds changed within the schema version: identifier words), once, by
    /// the first writer that opens the graph.
    fn refresh_search(&self) -> Result<()> {
        let current = |s: &Self| -> Result<bool> {
            let v: Option<String> =
                s.conn.query_row("SELECT value FROM meta WHERE key = 'search'", params![], |r| r.get(0)).optional()?;
            Ok(v.as_deref() == Some(SEARCH_VERSION))
        };
        if current(self)? {
            return Ok(());
        }
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        let done = (|| -> Result<()> {
            if current(self)? {
                return Ok(()); // another writer did it while we waited
            }
            self.conn.execute_batch(FTS_DROP_TRIGGERS)?;
            self.conn.execute_batch(FTS_TRIGGERS)?;
            self.conn.execute_batch("DELETE FROM search_fts;")?;
            self.conn.execute_batch(FTS_FILL)?;
            self.conn.execute(
                "INSERT INTO meta(key, value) VALUES ('search', ?1) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                params![SEARCH_VERSION],
            )?;
            Ok(())
        })();
        self.conn.execute_batch(if done.is_ok() { "COMMIT" } else { "ROLLBACK" })?;
        done
    }

    /// Drops everything and recreates an empty schema (used after a schema mismatch with
    /// `--clear`).
    pub fn reset(path: &Path) -> Result<()> {
        if let Some(url) = crate::pg::server_url(path) {
            return crate::pg::reset(url);
        }
        for suffix in ["", "-wal", "-shm"] {
            let p = PathBuf::from(format!("{}{}", path.display(), suffix));
            if p.exists() {
                std::fs::remove_file(&p).map_err(|e| StoreError::Io { path: p.clone(), source: e })?;
            }
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, for the store's own query layers.
    pub(crate) fn conn(&self) -> &Db {
        &self.conn
    }

    /// The SQLite connection when the graph is a SQLite file (tests and benchmarks that
    /// read the tables directly).
    pub fn sqlite_conn(&self) -> Option<&Connection> {
        self.conn.sqlite_conn()
    }

    /// Whether the graph lives on a PostgreSQL server.
    pub fn is_postgres(&self) -> bool {
        self.conn.is_pg()
    }

    /// Starts the one transaction of an ingest. Its commit waits for the open's integrity
    /// check (started by [`IngestTx::expect_writes`], or then) and fails (rolling back) on
    /// a damaged file; damage known already fails here.
    pub fn begin(&mut self) -> Result<IngestTx<'_>> {
        if self.integrity.damaged.is_some() {
            self.integrity.verdict(&self.path)?;
        }
        self.conn.begin(TxKind::Write)?;
        let start_changes = self.conn.total_changes();
        Ok(IngestTx {
            tx: &self.conn,
            done: false,
            integrity: &mut self.integrity,
            path: &self.path,
            start_changes,
            rewrite: RefCell::new(None),
            ceiling: Cell::new(0),
        })
    }

    /// A read transaction over several queries, so they see one snapshot (and SQLite takes
    /// its read lock once); `None` when a transaction is already open. Ends when dropped.
    pub fn snapshot(&self) -> Option<Snapshot<'_>> {
        (self.conn.is_autocommit() && self.conn.begin(TxKind::Read).is_ok()).then_some(Snapshot(&self.conn))
    }

    pub fn stats(&self) -> Result<Stats> {
        let pairs = |sql: &str| -> Result<Vec<(String, u64)>> {
            let mut st = self.conn.prepare(sql)?;
            let rows = st.query_map(params![], |r| Ok((r.get::<String>(0)?, r.get::<i64>(1)? as u64)))?;
            rows.collect()
        };
        let mut st = self.conn.prepare("SELECT path, reason FROM skipped ORDER BY path")?;
        let skipped = st.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
        Ok(Stats {
            labels: pairs("SELECT label, count(*) FROM nodes GROUP BY label ORDER BY label")?,
            // the writer's catalog counts them (a `GROUP BY type` scanned every edge)
            edge_types: crate::catalog::rows(&self.conn)?
                .into_iter()
                .filter(|(kind, _, _, n)| kind == "type" && *n > 0)
                .map(|(_, name, _, n)| (name, n as u64))
                .collect(),
            // counted here: a `GROUP BY status` sorted every call site first
            call_sites: {
                let mut st = self.conn.prepare("SELECT status FROM refs WHERE kind IN ('call', 'new')")?;
                let mut by: std::collections::BTreeMap<String, u64> = Default::default();
                for status in st.query_map(params![], |r| r.get::<String>(0))? {
                    *by.entry(status?).or_default() += 1;
                }
                by.into_iter().collect()
            },
            files_by_language: pairs("SELECT language, count(*) FROM files GROUP BY language ORDER BY language")?,
            skipped,
        })
    }

    /// Nodes with a label (or any) and a name.
    pub fn nodes_named(&self, label: Option<&str>, name: &str) -> Result<Vec<NodeRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT id, label, name, qualified_name, file_path, line_start, line_end, props FROM nodes
             WHERE name = ?1 AND (label = ?2 OR ?2 IS NULL) ORDER BY file_path, line_start",
        )?;
        let rows = st.query_map(params![name, label], node_row)?;
        rows.collect()
    }

    pub fn node(&self, id: i64) -> Result<Option<NodeRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT id, label, name, qualified_name, file_path, line_start, line_end, props FROM nodes WHERE id = ?1",
        )?;
        st.query_row(params![id], node_row).optional()
    }

    /// Edges of a node: outgoing when `outgoing`, else incoming; of one type or all.
    pub fn edges_of(&self, id: i64, outgoing: bool, edge_type: Option<&str>) -> Result<Vec<EdgeRow>> {
        // Only an ambiguous edge's props are read (the others carry none of these keys).
        const COLS: &str = "src, dst, type, resolution, line, col, \
             CASE WHEN resolution = 'ambiguous' THEN json_extract(props, '$.reason') END, \
             CASE WHEN resolution = 'ambiguous' THEN json_extract(props, '$.candidates') END";
        let sql = if outgoing {
            format!("SELECT {COLS} FROM edges WHERE src = ?1 AND (type = ?2 OR ?2 IS NULL) ORDER BY id")
        } else {
            format!("SELECT {COLS} FROM edges WHERE dst = ?1 AND (type = ?2 OR ?2 IS NULL) ORDER BY id")
        };
        let mut st = self.conn.prepare_cached(&sql)?;
        let rows = st.query_map(params![id, edge_type], |r| {
            let reason: Option<String> = r.get(6)?;
            let candidates: Option<i64> = r.get(7)?;
            Ok(EdgeRow {
                src: r.get(0)?,
                dst: r.get(1)?,
                edge_type: r.get(2)?,
                resolution: r.get(3)?,
                line: r.get(4)?,
                col: r.get(5)?,
                ambiguity: reason.map(|why| (why, candidates.unwrap_or(0))),
            })
        })?;
        rows.collect()
    }

    /// Every edge as (src qualified-or-name, type, dst qualified-or-name, resolution):
    /// a canonical, id-free dump for comparing two graphs.
    pub fn canonical_dump(&self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let key = "coalesce(label || ':' || coalesce(file_path, '') || ':' || coalesce(qualified_name, name, '') || ':' || coalesce(CAST(line_start AS TEXT), ''), '')";
        let mut st = self.conn.prepare(&format!(
            "SELECT {key}, props FROM nodes ORDER BY 1"
        ))?;
        for r in st.query_map(params![], |r| Ok(format!("node {} {}", r.get::<String>(0)?, canonical_json(&r.get::<String>(1)?))))? {
            out.push(r?);
        }
        let mut st = self.conn.prepare(&format!(
            "SELECT (SELECT {key} FROM nodes WHERE id = e.src), e.type, (SELECT {key} FROM nodes WHERE id = e.dst),
                    coalesce(e.resolution, ''), coalesce(CAST(e.line AS TEXT), ''), coalesce(CAST(e.col AS TEXT), ''),
                    CASE WHEN e.resolution = 'ambiguous' AND e.type IN ('CALLS', 'REFERENCES', 'INHERITS', 'IMPLEMENTS')
                         THEN coalesce(' ' || json_extract(e.props, '$.reason') || ' of ' || json_extract(e.props, '$.candidates'), '')
                         ELSE '' END
             FROM edges e"
        ))?;
        for r in st.query_map(params![], |r| {
            Ok(format!(
                "edge {} -{}-> {} {} {}:{}{}",
                r.get::<String>(0)?,
                r.get::<String>(1)?,
                r.get::<String>(2)?,
                r.get::<String>(3)?,
                r.get::<String>(4)?,
                r.get::<String>(5)?,
                r.get::<String>(6)?
            ))
        })? {
            out.push(r?);
        }
        let mut st = self.conn.prepare(
            "SELECT r.file_path, r.kind, coalesce(r.receiver || '.', '') || r.name, r.line, r.col, r.status,
                    coalesce((SELECT qualified_name FROM nodes WHERE id = r.from_node), '')
             FROM refs r",
        )?;
        for r in st.query_map(params![], |r| {
            Ok(format!(
                "ref {} {} {} {}:{} {} from {}",
                r.get::<String>(0)?,
                r.get::<String>(1)?,
                r.get::<String>(2)?,
                r.get::<i64>(3)?,
                r.get::<i64>(4)?,
                r.get::<String>(5)?,
                r.get::<String>(6)?
            ))
        })? {
            out.push(r?);
        }
        for (kind, name, key, n) in crate::catalog::rows(&self.conn)? {
            out.push(format!("count {kind} {name} {key} {n}"));
        }
        out.sort();
        Ok(out)
    }
}

impl Store {
    /// How many nodes' typed columns (schema v8, `schema::TYPED`) differ from what their
    /// label and `props` say: 0 when every writer kept them.
    pub fn typed_drift(&self) -> Result<i64> {
        self.conn.query_row(&crate::schema::typed_drift_sql(), params![], |r| r.get(0))
    }

    /// Where the catalog the writers kept differs from the tables counted afresh (`COUNT(*)`
    /// grouped, [`crate::catalog::fill`] in a transaction rolled back), as `kind name key
    /// kept counted` lines: empty when exact.
    pub fn catalog_drift(&mut self) -> Result<Vec<String>> {
        let kept = crate::catalog::rows(&self.conn)?;
        self.conn.begin(TxKind::Write)?;
        let counted = crate::catalog::fill(&self.conn).and_then(|()| crate::catalog::rows(&self.conn));
        self.conn.rollback()?;
        let counted = counted?;
        let map = |rows: Vec<(String, String, String, i64)>| -> std::collections::BTreeMap<(String, String, String), i64> {
            rows.into_iter().map(|(a, b, c, n)| ((a, b, c), n)).collect()
        };
        let (kept, counted) = (map(kept), map(counted));
        let mut out = Vec::new();
        for k in kept.keys().chain(counted.keys()).collect::<std::collections::BTreeSet<_>>() {
            let (a, b) = (kept.get(k).copied().unwrap_or(0), counted.get(k).copied().unwrap_or(0));
            if a != b {
                out.push(format!("{} {} {} kept {a} counted {b}", k.0, k.1, k.2));
            }
        }
        Ok(out)
    }
}

/// JSON text with object keys sorted at every level (PostgreSQL's `jsonb` keeps its own
/// key order), so two backends' dumps compare equal.
fn canonical_json(text: &str) -> String {
    fn write(v: &serde_json::Value, out: &mut String) {
        match v {
            serde_json::Value::Object(o) => {
                let mut keys: Vec<&String> = o.keys().collect();
                keys.sort();
                out.push('{');
                for (i, k) in keys.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::Value::String(k.clone()).to_string());
                    out.push(':');
                    write(&o[k], out);
                }
                out.push('}');
            }
            serde_json::Value::Array(a) => {
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(x, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => {
            let mut out = String::new();
            write(&v, &mut out);
            out
        }
        Err(_) => text.to_string(),
    }
}

/// Ids or names per statement where PostgreSQL takes a list as one JSON parameter (on
/// SQLite, in process, one statement per item is as fast and keeps its plans simple).
const PG_LIST: usize = 10_000;

/// The columns `ref_row` reads, in order.
const COLS: &str = "id, file_path, from_node, kind, name, receiver, receiver_type, line, col, arity, arg_types";

fn ref_row(r: &Row<'_>) -> Result<RefRow> {
    let kind: String = r.get(3)?;
    Ok(RefRow {
        id: r.get(0)?,
        file_path: r.get(1)?,
        from_node: r.get(2)?,
        kind: RefKind::parse(&kind).unwrap_or(RefKind::Call),
        name: r.get(4)?,
        receiver: r.get(5)?,
        receiver_type: r.get(6)?,
        line: r.get(7)?,
        col: r.get(8)?,
        arity: r.get(9)?,
        arg_types: r.get(10)?,
    })
}

pub(crate) fn node_row(r: &Row<'_>) -> Result<NodeRow> {
    let props: String = r.get(7)?;
    Ok(NodeRow {
        id: r.get(0)?,
        label: r.get(1)?,
        name: r.get(2)?,
        qualified_name: r.get(3)?,
        file_path: r.get(4)?,
        line_start: r.get(5)?,
        line_end: r.get(6)?,
        props: serde_json::from_str(&props).unwrap_or_default(),
    })
}

/// The SQL functions the schema's triggers call (every writing connection has them).
fn register_functions(conn: &Connection) -> rusqlite::Result<()> {
    use rusqlite::functions::FunctionFlags;
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC | FunctionFlags::SQLITE_INNOCUOUS;
    conn.create_scalar_function("navegador_words", 1, flags, |ctx| {
        let text: Option<String> = ctx.get(0)?;
        Ok(text.map(|t| crate::search::identifier_words(&t)))
    })
}

/// A read snapshot (see [`Store::snapshot`]); committed when dropped.
pub struct Snapshot<'a>(&'a Db);

impl Drop for Snapshot<'_> {
    fn drop(&mut self) {
        if self.0.commit().is_err() && !self.0.is_autocommit() {
            // Never leave the connection inside a stale snapshot.
            let _ = self.0.rollback();
        }
    }
}

/// The single write transaction of an ingest. Dropping it without `commit` rolls back.
pub struct IngestTx<'a> {
    pub(crate) tx: &'a Db,
    done: bool,
    integrity: &'a mut Integrity,
    path: &'a Path,
    /// Rows changed through the connection when the transaction began.
    start_changes: usize,
    /// The file being rewritten in place, if any.
    rewrite: RefCell<Option<Rewrite>>,
    /// The highest id a rewritten file's old nodes had: SQLite gives a new row the highest
    /// id plus one, which must not be an old node's whose edges from other files are kept
    /// until [`IngestTx::finish_rewrite`].
    ceiling: Cell<i64>,
}

impl Drop for IngestTx<'_> {
    fn drop(&mut self) {
        if !self.done {
            let _ = self.tx.rollback();
        }
    }
}

impl IngestTx<'_> {
    pub fn file_states(&self) -> Result<HashMap<String, FileState>> {
        let mut st = self.tx.prepare("SELECT path, size, mtime_ns, hash FROM files")?;
        let rows = st.query_map(params![], |r| {
            Ok((
                r.get::<String>(0)?,
                FileState { size: r.get::<i64>(1)? as u64, mtime_ns: r.get(2)?, hash: r.get(3)? },
            ))
        })?;
        rows.collect()
    }

    /// Drops the secondary indexes for a bulk load; `create_indexes` must follow before
    /// commit (the transaction makes the pair atomic).
    pub fn drop_indexes(&self) -> Result<()> {
        let drop_triggers = if self.tx.is_pg() { crate::pg::FTS_DROP_TRIGGERS } else { FTS_DROP_TRIGGERS };
        for (name, _) in INDEXES {
            self.tx.execute_batch(&format!("DROP INDEX IF EXISTS {name};"))?;
        }
        // The full-text triggers too: `create_indexes` fills the index once.
        self.tx.execute_batch(drop_triggers)?;
        Ok(())
    }

    pub fn create_indexes(&self) -> Result<()> {
        let (fill, triggers) =
            if self.tx.is_pg() { (crate::pg::FTS_FILL, crate::pg::FTS_TRIGGERS) } else { (FTS_FILL, FTS_TRIGGERS) };
        for (name, on) in INDEXES {
            self.tx.execute_batch(&format!("CREATE INDEX IF NOT EXISTS {name} ON {on};"))?;
        }
        self.tx.execute_batch(fill)?;
        self.tx.execute_batch(triggers)?;
        Ok(())
    }

    /// Removes all code facts (nodes with a file, the repository node, refs, files); knowledge
    /// nodes stay unless `everything`.
    pub fn clear(&self, everything: bool) -> Result<()> {
        // The catalog is counted again once the rest is gone (cheaper than reading every
        // deleted row).
        self.clear_rows(everything)?;
        crate::catalog::fill(self.tx)
    }

    fn clear_rows(&self, everything: bool) -> Result<()> {
        if everything {
            self.tx.execute_batch(
                "DELETE FROM edges; DELETE FROM nodes; DELETE FROM refs; DELETE FROM files; DELETE FROM skipped;
                 DELETE FROM knowledge_links; DELETE FROM knowledge_sources;",
            )?;
        } else {
            self.tx.execute_batch(
                "DELETE FROM edges WHERE src IN (SELECT id FROM nodes WHERE file_path IS NOT NULL OR label = 'Repository')
                    OR dst IN (SELECT id FROM nodes WHERE file_path IS NOT NULL OR label = 'Repository');
                 DELETE FROM edges WHERE src IN (SELECT id FROM nodes WHERE label = 'Module' AND json_type(props, '$.derived') = 'true');
                 DELETE FROM nodes WHERE file_path IS NOT NULL OR label = 'Repository'
                    OR (label = 'Module' AND json_type(props, '$.derived') = 'true');
                 DELETE FROM refs; DELETE FROM files; DELETE FROM skipped;",
            )?;
        }
        Ok(())
    }

    /// Removes one file's facts: its nodes, every edge touching them, its reference sites and
    /// the edges they produced. Returns the ids of reference sites elsewhere whose targets
    /// were removed (they must be re-resolved).
    pub fn remove_file(&self, path: &str) -> Result<Vec<i64>> {
        let mut orphaned = Vec::new();
        {
            let mut st = self.tx.prepare_cached(
                "SELECT DISTINCT e.ref_id FROM edges e JOIN nodes n ON n.id = e.dst
                 WHERE n.file_path = ?1 AND e.ref_id IS NOT NULL",
            )?;
            for r in st.query_map(params![path], |r| r.get::<i64>(0))? {
                orphaned.push(r?);
            }
        }
        // Two statements: each uses its own index (an OR of both would scan every edge).
        self.delete_file_rows(
            path,
            &[
                "src IN (SELECT id FROM nodes WHERE file_path = ?1)",
                "dst IN (SELECT id FROM nodes WHERE file_path = ?1)",
                "ref_id IN (SELECT id FROM refs WHERE file_path = ?1)",
            ],
        )?;
        Ok(orphaned)
    }

    /// Deletes the edges `edge_filters` select (`?1` is the path), then the file's sites,
    /// nodes and row; each delete's rows are uncounted from the catalog first, with the
    /// same filter.
    fn delete_file_rows(&self, path: &str, edge_filters: &[&str]) -> Result<()> {
        for filter in edge_filters {
            crate::catalog::edges(self.tx, filter, params![path], -1)?;
            self.tx.execute(&format!("DELETE FROM edges WHERE {filter}"), params![path])?;
        }
        crate::catalog::sites_of(self.tx, "file_path = ?1", params![path], -1)?;
        self.tx.execute("DELETE FROM refs WHERE file_path = ?1", params![path])?;
        crate::catalog::nodes(self.tx, "file_path = ?1", params![path], -1)?;
        self.tx.execute("DELETE FROM nodes WHERE file_path = ?1", params![path])?;
        self.tx.execute("DELETE FROM files WHERE path = ?1", params![path])?;
        Ok(())
    }

    pub fn insert_node(&self, n: &NewNode<'_>) -> Result<i64> {
        let props = serde_json::Value::Object(n.props.clone()).to_string();
        let cols = [true, n.qualified_name.is_some(), n.file_path.is_some(), n.line_start.is_some(), n.line_end.is_some()];
        self.tx.catalog().borrow_mut().node(
            &[n.label.map_or("", |l| l.as_str())],
            crate::catalog::ingest_node_keys(cols, &n.props),
            1,
        );
        // A node of a file rewritten in place takes the id of an old node with its key; a
        // new one (on SQLite) an id above every old node's.
        let mut id = None;
        if let Some(rw) = self.rewrite.borrow_mut().as_mut().filter(|rw| n.file_path == Some(rw.path.as_str())) {
            let key = stable_key(n.label.map_or("", |l| l.as_str()), n.name, n.qualified_name, n.parent, &n.props);
            id = rw.free.get_mut(&key).and_then(std::collections::VecDeque::pop_front);
            if let Some(i) = id {
                rw.reused.insert(i);
            }
        }
        if id.is_none() && self.ceiling.get() > 0 && !self.tx.is_pg() {
            let top: i64 = self.tx.query_row("SELECT coalesce(max(id), 0) FROM nodes", params![], |r| r.get(0))?;
            if top < self.ceiling.get() {
                id = Some(self.ceiling.get() + 1);
            }
        }
        let t = Typed::of(n.label, &n.props);
        let values = params![
            n.label.map(|l| l.as_str()),
            n.name,
            n.qualified_name,
            n.file_path,
            n.parent,
            n.line_start,
            n.line_end,
            props,
            t.kind,
            t.class,
            t.exported,
            t.default_export,
            t.signature,
            t.module,
            t.imported,
            t.alias
        ];
        match id {
            Some(id) => {
                self.tx.defer_insert_at(&INSERT_NODE, INSERT_NODE_AT, id, values)?;
                Ok(id)
            }
            None => self.tx.defer_insert(&INSERT_NODE, "nodes", values),
        }
    }

    /// Removes a file's facts before it is written again, keeping the edges other files'
    /// sites bound into it: the new nodes take the ids of old ones with the same stable key
    /// (`stable_key`: a comment or a body edit changes none), so those sites stay bound and
    /// are not re-resolved. [`IngestTx::finish_rewrite`] after the file is written drops
    /// what no new node took. Nodes, sites and edges of the file itself go as in
    /// [`IngestTx::remove_file`].
    pub fn rewrite_file(&self, path: &str) -> Result<()> {
        let mut rw = Rewrite { path: path.to_string(), ..Default::default() };
        {
            let mut st = self.tx.prepare_cached(
                "SELECT id, label, coalesce(name, ''), qualified_name, parent, props FROM nodes WHERE file_path = ?1 ORDER BY id",
            )?;
            let rows = st.query_map(params![path], |r| {
                Ok((r.get::<i64>(0)?, r.get::<String>(1)?, r.get::<String>(2)?, r.get::<Option<String>>(3)?, r.get::<Option<i64>>(4)?, r.get::<String>(5)?))
            })?;
            for r in rows {
                let (id, label, name, qname, parent, props) = r?;
                let props = match serde_json::from_str(&props) {
                    Ok(serde_json::Value::Object(m)) => m,
                    _ => Default::default(),
                };
                rw.free.entry(stable_key(&label, &name, qname.as_deref(), parent, &props)).or_default().push_back(id);
                rw.old.push(id);
            }
        }
        if let Some(&top) = rw.old.last() {
            self.ceiling.set(self.ceiling.get().max(top));
        }
        // Edges of other files' sites stay; every other edge touching the file goes. The
        // unary `+` keeps `ref_id IS NULL` off the `edges_ref` index: SQLite's planner
        // otherwise walks every site-less edge of the graph (Django: ~0.05 s CPU per
        // statement, four per rewritten file) instead of the file's nodes' `edges_src` /
        // `edges_dst` entries (~1 ms). `db::to_pg` drops the `+` for PostgreSQL.
        self.delete_file_rows(
            path,
            &[
                "src IN (SELECT id FROM nodes WHERE file_path = ?1) AND +ref_id IS NULL",
                "dst IN (SELECT id FROM nodes WHERE file_path = ?1) AND +ref_id IS NULL",
                "ref_id IN (SELECT id FROM refs WHERE file_path = ?1)",
            ],
        )?;
        *self.rewrite.borrow_mut() = Some(rw);
        Ok(())
    }

    /// Ends [`IngestTx::rewrite_file`]: the sites elsewhere bound to an old node that no
    /// new node took (their edges to it deleted), or to any node of the file when
    /// `reshaped` (what other files see of it changed: they may bind differently), for
    /// resolution to redo.
    pub fn finish_rewrite(&self, reshaped: bool) -> Result<Vec<i64>> {
        let Some(rw) = self.rewrite.borrow_mut().take() else { return Ok(Vec::new()) };
        let mut orphaned = Vec::new();
        let gone: Vec<i64> = rw.old.iter().copied().filter(|id| !rw.reused.contains(id)).collect();
        {
            let mut by_src = self.tx.prepare_cached("SELECT ref_id FROM edges WHERE src = ?1 AND ref_id IS NOT NULL")?;
            let mut by_dst = self.tx.prepare_cached("SELECT ref_id FROM edges WHERE dst = ?1 AND ref_id IS NOT NULL")?;
            for id in &gone {
                for r in by_src.query_map(params![id], |r| r.get::<i64>(0))? {
                    orphaned.push(r?);
                }
                for r in by_dst.query_map(params![id], |r| r.get::<i64>(0))? {
                    orphaned.push(r?);
                }
            }
            if reshaped {
                for id in &rw.reused {
                    for r in by_src.query_map(params![id], |r| r.get::<i64>(0))? {
                        orphaned.push(r?);
                    }
                    for r in by_dst.query_map(params![id], |r| r.get::<i64>(0))? {
                        orphaned.push(r?);
                    }
                }
            }
        }
        for id in &gone {
            for filter in ["src = ?1", "dst = ?1"] {
                crate::catalog::edges(self.tx, filter, params![id], -1)?;
                self.tx.execute(&format!("DELETE FROM edges WHERE {filter}"), params![id])?;
            }
        }
        orphaned.sort_unstable();
        orphaned.dedup();
        Ok(orphaned)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn insert_edge(
        &self,
        src: i64,
        dst: i64,
        ty: EdgeType,
        resolution: Option<Resolution>,
        site: Option<(u32, u32)>,
        ref_id: Option<i64>,
    ) -> Result<()> {
        let (line, col) = (site.map(|s| s.0), site.map(|s| s.1));
        self.tx.catalog().borrow_mut().edge(
            ty.as_str(),
            src,
            dst,
            crate::catalog::ingest_edge_keys(resolution.is_some(), site.is_some()),
            1,
        );
        self.tx.defer(&INSERT_EDGE, params![src, dst, ty.as_str(), resolution.map(|r| r.as_str()), line, col, ref_id])
    }

    /// An `ambiguous` edge of a resolved site, with why the site has several candidates
    /// (`reason`) and how many it had in all (`candidates`; more than are linked when the
    /// resolver keeps only the nearest).
    #[allow(clippy::too_many_arguments)]
    pub fn insert_ambiguous_edge(
        &self,
        src: i64,
        dst: i64,
        ty: EdgeType,
        site: (u32, u32),
        ref_id: i64,
        reason: &str,
        candidates: u32,
    ) -> Result<()> {
        let keys = crate::catalog::ingest_edge_keys(true, true).chain(["reason", "candidates"]);
        self.tx.catalog().borrow_mut().edge(ty.as_str(), src, dst, keys, 1);
        let props = serde_json::json!({"reason": reason, "candidates": candidates}).to_string();
        self.tx.defer(
            &INSERT_EDGE_PROPS,
            params![src, dst, ty.as_str(), Resolution::Ambiguous.as_str(), site.0, site.1, ref_id, props],
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub fn insert_ref(
        &self,
        file_path: &str,
        from_node: Option<i64>,
        kind: RefKind,
        name: &str,
        receiver: Option<&str>,
        receiver_type: Option<&str>,
        line: u32,
        col: u32,
        arity: Option<u32>,
        arg_types: Option<&str>,
    ) -> Result<i64> {
        let root = receiver.map(|r| {
            let end = r.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).unwrap_or(r.len());
            &r[..end]
        });
        self.tx.defer_insert(
            &INSERT_REF,
            "refs",
            params![file_path, from_node, kind.as_str(), name, receiver, root, receiver_type, line, col, arity, arg_types],
        )
    }

    pub fn upsert_file(
        &self,
        path: &str,
        language: &str,
        state: &FileState,
        node_id: i64,
        module: Option<&str>,
    ) -> Result<()> {
        let mut st = self.tx.prepare_cached(
            "INSERT INTO files(path, language, size, mtime_ns, hash, node_id, module)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (path) DO UPDATE SET language = excluded.language, size = excluded.size,
               mtime_ns = excluded.mtime_ns, hash = excluded.hash, node_id = excluded.node_id, module = excluded.module",
        )?;
        st.execute(params![path, language, state.size as i64, state.mtime_ns, state.hash, node_id, module])?;
        Ok(())
    }

    /// Records that a file kept its content but changed its mtime.
    pub fn touch_file(&self, path: &str, mtime_ns: i64) -> Result<()> {
        self.tx.execute("UPDATE files SET mtime_ns = ?2 WHERE path = ?1", params![path, mtime_ns])?;
        Ok(())
    }

    /// Replaces the list of skipped files (`skipped` sorted), unless it is the same.
    pub fn replace_skipped(&self, skipped: &[(String, String)]) -> Result<()> {
        let mut now: Vec<(String, String)> = {
            let mut st = self.tx.prepare_cached("SELECT path, reason FROM skipped")?;
            let rows = st.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect::<Result<_>>()?
        };
        now.sort();
        // What the inserts below leave: the last reason of each path.
        let want: std::collections::BTreeMap<&str, &str> = skipped.iter().map(|(p, r)| (p.as_str(), r.as_str())).collect();
        if now.len() == want.len() && now.iter().zip(&want).all(|(a, b)| (a.0.as_str(), a.1.as_str()) == (*b.0, *b.1)) {
            return Ok(());
        }
        self.tx.execute("DELETE FROM skipped", params![])?;
        let mut st = self.tx.prepare_cached("INSERT INTO skipped(path, reason) VALUES (?1, ?2) ON CONFLICT (path) DO UPDATE SET reason = excluded.reason")?;
        for (p, r) in skipped {
            st.execute(params![p, r])?;
        }
        Ok(())
    }

    /// The repository node, created on first use.
    pub fn repository_node(&self, name: &str, props: serde_json::Map<String, serde_json::Value>) -> Result<i64> {
        let existing: Option<i64> = self
            .tx
            .query_row("SELECT id FROM nodes WHERE label = 'Repository' LIMIT 1", params![], |r| r.get(0))
            .optional()?;
        if let Some(id) = existing {
            // (On SQLite only when it differs: an ingest that changed nothing writes nothing,
            // and its commit need not wait for the integrity check.)
            let sql = if self.tx.is_pg() {
                "UPDATE nodes SET name = ?2, props = ?3 WHERE id = ?1"
            } else {
                "UPDATE nodes SET name = ?2, props = ?3 WHERE id = ?1 AND (name IS NOT ?2 OR props IS NOT ?3)"
            };
            crate::catalog::nodes(self.tx, "id = ?1", params![id], -1)?;
            self.tx.execute(
                sql,
                params![id, name, serde_json::Value::Object(props).to_string()],
            )?;
            crate::catalog::nodes(self.tx, "id = ?1", params![id], 1)?;
            return Ok(id);
        }
        self.insert_node(&NewNode { label: Some(Label::Repository), name, props, ..Default::default() })
    }

    pub fn files(&self) -> Result<Vec<(String, i64, String, Option<String>)>> {
        let mut st = self.tx.prepare("SELECT path, node_id, language, module FROM files ORDER BY path")?;
        let rows = st.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        rows.collect()
    }

    /// Every definition node (for the resolver's symbol table).
    pub fn symbols(&self) -> Result<Vec<SymbolRow>> {
        self.symbol_rows(None)
    }

    /// The definition nodes of one file, in id order (a resident symbol table patched after
    /// an edit reads only the changed files').
    pub fn symbols_in(&self, path: &str) -> Result<Vec<SymbolRow>> {
        self.symbol_rows(Some(path))
    }

    fn symbol_rows(&self, path: Option<&str>) -> Result<Vec<SymbolRow>> {
        // the typed columns of schema v8, not `json_extract` per row
        const SQL: &str = "SELECT id, label, name, qualified_name, file_path, parent,
                    sym_kind, sym_class, sym_exported, sym_default_export, sym_signature
             FROM nodes WHERE label IN ('Class', 'Function', 'Method', 'Variable', 'Module')";
        let mut st = match path {
            None => self.tx.prepare(&format!("{SQL} AND file_path IS NOT NULL ORDER BY id"))?,
            Some(_) => self.tx.prepare_cached(&format!("{SQL} AND file_path = ?1 ORDER BY id"))?,
        };
        let map = |r: &Row<'_>| {
            let label: String = r.get(1)?;
            Ok(SymbolRow {
                id: r.get(0)?,
                label: Label::parse(&label).unwrap_or(Label::Variable),
                name: r.get(2)?,
                qualified_name: r.get::<Option<String>>(3)?.unwrap_or_default(),
                file_path: r.get(4)?,
                parent: r.get(5)?,
                kind: r.get(6)?,
                class_name: r.get(7)?,
                is_exported: r.get::<Option<i64>>(8)?.is_some(),
                is_default_export: r.get::<Option<i64>>(9)?.is_some(),
                signature: r.get(10)?,
            })
        };
        match path {
            None => st.query_map(params![], map)?.collect(),
            Some(p) => st.query_map(params![p], map)?.collect(),
        }
    }

    pub fn imports(&self) -> Result<Vec<ImportRow>> {
        self.import_rows(None)
    }

    /// The Import nodes of one file, in line order.
    pub fn imports_in(&self, path: &str) -> Result<Vec<ImportRow>> {
        self.import_rows(Some(path))
    }

    fn import_rows(&self, path: Option<&str>) -> Result<Vec<ImportRow>> {
        const SQL: &str = "SELECT id, file_path, imp_module, imp_name, imp_alias, line_start
             FROM nodes WHERE label = 'Import'";
        let mut st = match path {
            None => self.tx.prepare(&format!("{SQL} ORDER BY file_path, line_start, id"))?,
            Some(_) => self.tx.prepare_cached(&format!("{SQL} AND file_path = ?1 ORDER BY line_start, id"))?,
        };
        let map = |r: &Row<'_>| {
            let module: Option<String> = r.get(2)?;
            Ok(ImportRow {
                id: r.get(0)?,
                file_path: r.get(1)?,
                module: module.unwrap_or_default(),
                name: r.get(3)?,
                alias: r.get(4)?,
                line: r.get::<Option<u32>>(5)?.unwrap_or(0),
            })
        };
        match path {
            None => st.query_map(params![], map)?.collect(),
            Some(p) => st.query_map(params![p], map)?.collect(),
        }
    }

    /// What resolution found each import to denote, as the last ingest wrote it
    /// ([`IngestTx::set_import_target`]): (Import node id, the resolver's key), imports
    /// of files written since (their rows are new) having none.
    pub fn stored_import_targets(&self) -> Result<Vec<(i64, String)>> {
        let mut st = self.tx.prepare("SELECT id, imp_target FROM nodes WHERE label = 'Import' AND imp_target IS NOT NULL")?;
        let rows = st.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    }

    /// Records what an import was resolved to (the resolver's key of the target, opaque
    /// here), so a later ingest without the table in memory re-resolves only the imports
    /// an edit may have moved.
    pub fn set_import_target(&self, import: i64, key: &str) -> Result<()> {
        self.tx.defer(&SET_IMPORT_TARGET, params![import, key])
    }

    /// One file's row of the files table: (node id, language, declared module).
    pub fn file_row(&self, path: &str) -> Result<Option<(i64, String, Option<String>)>> {
        self.tx
            .query_row("SELECT node_id, language, module FROM files WHERE path = ?1", params![path], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()
    }

    /// Every import edge resolution wrote (Import -> target, File -> File) as (edge id,
    /// src, dst, line, resolution, column): what an incremental ingest compares its new
    /// import edges with, so it rewrites only those that changed.
    #[allow(clippy::type_complexity)]
    pub fn import_edges(&self) -> Result<Vec<(i64, i64, i64, Option<u32>, Option<String>, Option<u32>)>> {
        let mut st =
            self.tx.prepare("SELECT id, src, dst, line, resolution, col FROM edges WHERE type = 'IMPORTS' AND resolution IS NOT NULL")?;
        let rows = st.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))?;
        rows.collect()
    }

    /// [`IngestTx::import_edges`] that start at one of `srcs` (import or file nodes): what
    /// an ingest that re-resolved a few imports compares.
    #[allow(clippy::type_complexity)]
    pub fn import_edges_from(&self, srcs: &[i64]) -> Result<Vec<(i64, i64, i64, Option<u32>, Option<String>, Option<u32>)>> {
        let mut st = self.tx.prepare_cached(
            "SELECT id, src, dst, line, resolution, col FROM edges WHERE src = ?1 AND type = 'IMPORTS' AND resolution IS NOT NULL",
        )?;
        let mut out = Vec::new();
        for src in srcs {
            for r in st.query_map(params![src], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))? {
                out.push(r?);
            }
        }
        Ok(out)
    }

    /// The `IMPLEMENTS` edges derived from method sets (resolved, of no site: Go's
    /// structural interfaces) as (id, src, dst, line), and the line their source type
    /// starts at now.
    #[allow(clippy::type_complexity)]
    pub fn derived_implements(&self) -> Result<Vec<(i64, i64, i64, Option<u32>, Option<u32>)>> {
        let mut st = self.tx.prepare(
            // `edges_bases` (the partial index of base-class edges), and the unary `+` keeps
            // `ref_id IS NULL` off `edges_ref`, which walks every site-less edge of the
            // graph (Django: 165k, ~0.02 s CPU per ingest; see `rewrite_file`)
            "SELECT e.id, e.src, e.dst, e.line, n.line_start FROM edges e LEFT JOIN nodes n ON n.id = e.src
             WHERE e.type IN ('INHERITS', 'IMPLEMENTS') AND e.type = 'IMPLEMENTS' AND +e.ref_id IS NULL
               AND e.resolution IS NOT NULL",
        )?;
        let rows = st.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))?;
        rows.collect()
    }

    /// The line a node starts at.
    pub fn node_line(&self, id: i64) -> Result<Option<u32>> {
        Ok(self.tx.query_row("SELECT line_start FROM nodes WHERE id = ?1", params![id], |r| r.get(0)).optional()?.flatten())
    }

    /// Deletes edges by id.
    pub fn delete_edges(&self, ids: &[i64]) -> Result<()> {
        if self.tx.is_pg() {
            for chunk in ids.chunks(PG_LIST) {
                let list = crate::nav::id_list(chunk);
                crate::catalog::edges(self.tx, "id IN (SELECT value FROM json_each(?1))", params![list], -1)?;
                self.tx.execute("DELETE FROM edges WHERE id IN (SELECT value FROM json_each(?1))", params![list])?;
            }
            return Ok(());
        }
        for id in ids {
            crate::catalog::edges(self.tx, "id = ?1", params![id], -1)?;
            self.tx.execute("DELETE FROM edges WHERE id = ?1", params![id])?;
        }
        Ok(())
    }

    /// Reference sites of some files (all when `files` is `None`) plus extra ids.
    pub fn refs(&self, files: Option<&[String]>, extra_ids: &[i64]) -> Result<Vec<RefRow>> {
        let map = ref_row;
        let mut out = Vec::new();
        match files {
            None => {
                let mut st = self.tx.prepare(&format!("SELECT {COLS} FROM refs ORDER BY id"))?;
                for r in st.query_map(params![], map)? {
                    out.push(r?);
                }
                return Ok(out);
            }
            Some(files) => {
                let mut st = self.tx.prepare_cached(&format!("SELECT {COLS} FROM refs WHERE file_path = ?1"))?;
                for f in files {
                    for r in st.query_map(params![f], map)? {
                        out.push(r?);
                    }
                }
            }
        }
        if self.tx.is_pg() {
            // one statement per list, not a round trip per id
            let mut st = self.tx.prepare_cached(&format!("SELECT {COLS} FROM refs WHERE id IN (SELECT value FROM json_each(?1))"))?;
            for chunk in extra_ids.chunks(PG_LIST) {
                for r in st.query_map(params![crate::nav::id_list(chunk)], map)? {
                    out.push(r?);
                }
            }
        } else {
            let mut st = self.tx.prepare_cached(&format!("SELECT {COLS} FROM refs WHERE id = ?1"))?;
            for id in extra_ids {
                if let Some(r) = st.query_row(params![id], map).optional()? {
                    out.push(r);
                }
            }
        }
        out.sort_by_key(|r| r.id);
        out.dedup_by_key(|r| r.id);
        Ok(out)
    }

    /// Ids of reference sites whose name, receiver's first name, receiver type or an
    /// argument's type is one of `names` (a site typed by a class must follow that class;
    /// an overload chosen by an argument's type, the argument's class).
    pub fn ref_ids_named(&self, names: &[String]) -> Result<Vec<i64>> {
        let mut out = self.ref_ids_named_direct(names)?;
        if !names.is_empty() {
            // An overload chosen by an argument's type depends on that type's whole
            // hierarchy, which an edit of any ancestor's file moves: every site with argument
            // types follows any change of definitions. Few sites carry them (languages with
            // overloads only), and the partial index `refs_arg_types` holds just those.
            let mut st = self.tx.prepare_cached("SELECT id FROM refs WHERE arg_types IS NOT NULL")?;
            for r in st.query_map(params![], |r| r.get::<i64>(0))? {
                out.push(r?);
            }
        }
        Ok(out)
    }

    fn ref_ids_named_direct(&self, names: &[String]) -> Result<Vec<i64>> {
        let mut out = Vec::new();
        if self.tx.is_pg() {
            let mut st = self.tx.prepare_cached(
                "SELECT id FROM refs WHERE name IN (SELECT json_array_elements_text(CAST(?1 AS json)))
                 UNION SELECT id FROM refs WHERE receiver_root IN (SELECT json_array_elements_text(CAST(?1 AS json)))
                 UNION SELECT id FROM refs WHERE receiver_type IN (SELECT json_array_elements_text(CAST(?1 AS json)))",
            )?;
            for chunk in names.chunks(PG_LIST) {
                let list = serde_json::Value::from(chunk.to_vec()).to_string();
                for r in st.query_map(params![list], |r| r.get::<i64>(0))? {
                    out.push(r?);
                }
            }
            return Ok(out);
        }
        let mut st = self.tx.prepare_cached("SELECT id FROM refs WHERE name = ?1 UNION SELECT id FROM refs WHERE receiver_root = ?1 UNION SELECT id FROM refs WHERE receiver_type = ?1")?;
        for n in names {
            for r in st.query_map(params![n], |r| r.get::<i64>(0))? {
                out.push(r?);
            }
        }
        Ok(out)
    }

    /// Files whose imports resolved to one of `files` (by a File -IMPORTS-> File edge).
    pub fn importers_of(&self, files: &[String]) -> Result<Vec<String>> {
        let mut st = self.tx.prepare_cached(
            "SELECT DISTINCT s.file_path FROM edges e
             JOIN nodes d ON d.id = e.dst JOIN nodes s ON s.id = e.src
             WHERE e.type = 'IMPORTS' AND d.label = 'File' AND s.label = 'File' AND d.file_path = ?1",
        )?;
        let mut out = Vec::new();
        for f in files {
            for r in st.query_map(params![f], |r| r.get::<String>(0))? {
                out.push(r?);
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// Forgets what resolution produced for these reference sites.
    pub fn clear_resolution(&self, ref_ids: &[i64]) -> Result<()> {
        if self.tx.is_pg() {
            for chunk in ref_ids.chunks(PG_LIST) {
                let list = crate::nav::id_list(chunk);
                crate::catalog::edges(self.tx, "ref_id IN (SELECT value FROM json_each(?1))", params![list], -1)?;
                self.tx.execute("DELETE FROM edges WHERE ref_id IN (SELECT value FROM json_each(?1))", params![list])?;
            }
            return Ok(());
        }
        for id in ref_ids {
            crate::catalog::edges(self.tx, "ref_id = ?1", params![id], -1)?;
            self.tx.execute("DELETE FROM edges WHERE ref_id = ?1", params![id])?;
        }
        Ok(())
    }

    /// Removes the import edges that start at a file's node or its Import nodes.
    pub fn clear_import_edges(&self, file: &str) -> Result<()> {
        const FILTER: &str = "type = 'IMPORTS' AND src IN
               (SELECT id FROM nodes WHERE file_path = ?1 AND label IN ('File', 'Import'))
               AND dst NOT IN (SELECT id FROM nodes WHERE file_path = ?1 AND label = 'Import')";
        crate::catalog::edges(self.tx, FILTER, params![file], -1)?;
        self.tx.execute(&format!("DELETE FROM edges WHERE {FILTER}"), params![file])?;
        Ok(())
    }

    pub fn set_ref_status(&self, id: i64, status: RefStatus) -> Result<()> {
        if !self.tx.is_pg() {
            // (PostgreSQL reads the old statuses once per batch: `Batch::site_status`)
            let (old, from): (String, Option<i64>) =
                self.tx.query_row("SELECT status, from_node FROM refs WHERE id = ?1", params![id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            let mut d = self.tx.catalog().borrow_mut();
            d.site(&old, from, -1);
            d.site(status.as_str(), from, 1);
        }
        self.tx.defer(&SET_REF_STATUS, params![id, status.as_str()])
    }

    /// Resolved class hierarchy edges: (class, base) pairs.
    /// (Without the `IMPLEMENTS` edges derived from method sets: those follow from the
    /// resolved graph, see [`IngestTx::derived_implements`].)
    pub fn hierarchy(&self) -> Result<Vec<(i64, i64)>> {
        let mut st = self.tx.prepare(
            "SELECT src, dst FROM edges WHERE type IN ('INHERITS', 'IMPLEMENTS')
             AND NOT (type = 'IMPLEMENTS' AND ref_id IS NULL AND resolution IS NOT NULL)",
        )?;
        let rows = st.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    }

    /// Classes with a base outside the workspace (a base-class site resolved `external`).
    pub fn classes_with_external_bases(&self) -> Result<Vec<i64>> {
        let mut st = self.tx.prepare(
            "SELECT DISTINCT from_node FROM refs
             WHERE status = 'external' AND kind IN ('inherits', 'implements') AND from_node IS NOT NULL",
        )?;
        let rows = st.query_map(params![], |r| r.get(0))?;
        rows.collect()
    }

    /// Starts the open's integrity check, if it has not run yet, beside what the caller
    /// does next: call it once the transaction knows it will change rows, so the commit
    /// finds the verdict ready.
    pub fn expect_writes(&mut self) {
        self.integrity.start();
    }

    /// Commits once the open's integrity check found the file whole. A SQLite transaction
    /// that changed no row (an ingest that found nothing changed) ends without waiting for
    /// the check: nothing reaches the file, so there is nothing to keep from a damaged one.
    pub fn commit(mut self) -> Result<()> {
        if !self.tx.is_pg() && self.tx.total_changes() == self.start_changes {
            self.done = true;
            return self.tx.rollback();
        }
        self.integrity.verdict(self.path)?; // dropped unfinished: rolled back
        self.done = true;
        self.tx.commit()
    }
}

impl IngestTx<'_> {
}

impl IngestTx<'_> {
    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        self.tx.query_row("SELECT value FROM meta WHERE key = ?1", params![key], |r| r.get(0)).optional()
    }

    pub fn set_meta(&self, key: &str, value: &str) -> Result<()> {
        self.tx.execute("INSERT INTO meta(key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value", params![key, value])?;
        Ok(())
    }
}

impl IngestTx<'_> {
    /// Drops every edge produced by resolving a reference site.
    pub fn clear_all_resolution(&self) -> Result<()> {
        crate::catalog::edges(self.tx, "ref_id IS NOT NULL", params![], -1)?;
        self.tx.execute("DELETE FROM edges WHERE ref_id IS NOT NULL", params![])?;
        Ok(())
    }
}

impl IngestTx<'_> {
    /// The package Module nodes derived from the files table as (id, language, key), and
    /// their `CONTAINS` edges as (edge id, module id, file node id).
    #[allow(clippy::type_complexity)]
    pub fn derived_modules(&self) -> Result<(Vec<(i64, String, String)>, Vec<(i64, i64, i64)>)> {
        let mut st = self.tx.prepare(
            "SELECT id, coalesce(json_extract(props, '$.language'), ''), coalesce(qualified_name, '') FROM nodes
             WHERE label = 'Module' AND json_type(props, '$.derived') = 'true'",
        )?;
        let nodes: Vec<(i64, String, String)> = st.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<Result<_>>()?;
        let mut st = self.tx.prepare_cached("SELECT id, dst FROM edges WHERE src = ?1 AND type = 'CONTAINS'")?;
        let mut edges = Vec::new();
        for (id, _, _) in &nodes {
            for r in st.query_map(params![id], |r| Ok((r.get::<i64>(0)?, r.get::<i64>(1)?)))? {
                let (e, dst) = r?;
                edges.push((e, *id, dst));
            }
        }
        Ok((nodes, edges))
    }

    /// Removes one derived package Module node and the edges leaving it.
    pub fn delete_derived_module(&self, id: i64) -> Result<()> {
        crate::catalog::edges(self.tx, "src = ?1", params![id], -1)?;
        self.tx.execute("DELETE FROM edges WHERE src = ?1", params![id])?;
        crate::catalog::nodes(self.tx, "id = ?1", params![id], -1)?;
        self.tx.execute("DELETE FROM nodes WHERE id = ?1", params![id])?;
        Ok(())
    }

}

impl IngestTx<'_> {
    /// A page of reference sites in id order after `after`: base-class sites
    /// (`inherits`, `implements`) when `bases`, the others otherwise.
    pub fn refs_page(&self, bases: bool, after: i64, limit: usize) -> Result<Vec<RefRow>> {
        let filter = if bases { "IN" } else { "NOT IN" };
        let mut st = self.tx.prepare_cached(&format!(
            "SELECT {COLS} FROM refs WHERE id > ?1 AND kind {filter} ('inherits', 'implements') ORDER BY id LIMIT ?2"
        ))?;
        let rows = st.query_map(params![after, limit as i64], ref_row)?;
        rows.collect()
    }
}

impl IngestTx<'_> {
    /// Every name a file defines or binds, with a key that changes whenever what the name
    /// denotes changes (label, qualified name, kind, import source, export flags). Comparing
    /// the keys before and after an edit tells which names elsewhere may resolve differently.
    pub fn defs_in_file(&self, path: &str) -> Result<Vec<(String, String)>> {
        let mut st = self.tx.prepare_cached(
            "SELECT coalesce(imp_alias, name),
                    label || ':' || coalesce(qualified_name, '') || ':' || coalesce(sym_kind, '')
                    || ':' || coalesce(imp_module, '') || ':' || coalesce(imp_name, '')
                    || ':' || CASE WHEN sym_exported IS NULL THEN '' ELSE '1' END
                    || ':' || CASE WHEN sym_default_export IS NULL THEN '' ELSE '1' END
                    || ':' || coalesce(sym_class, '')
             FROM nodes
             WHERE file_path = ?1 AND label IN ('Class', 'Function', 'Method', 'Variable', 'Module', 'Import')",
        )?;
        let rows = st.query_map(params![path], |r| Ok((r.get::<Option<String>>(0)?, r.get::<String>(1)?)))?;
        let mut out = Vec::new();
        for r in rows {
            if let (Some(n), k) = r? {
                out.push((n, k));
            }
        }
        Ok(out)
    }

    /// What the class-likes a file defines resolve their bases to: (class node id, its
    /// qualified name, base node id) of each `INHERITS`/`IMPLEMENTS` edge from one (the
    /// structurally derived aside), and (class node id, qualified name, 0) for each base
    /// outside the workspace. Read before a rewrite or a removal, it tells whether a
    /// class's hierarchy moved with the edit.
    pub fn bases_in_file(&self, path: &str) -> Result<Vec<(i64, String, i64)>> {
        let mut st = self.tx.prepare_cached(
            "SELECT e.src, coalesce(n.qualified_name, ''), e.dst FROM edges e JOIN nodes n ON n.id = e.src
             WHERE n.file_path = ?1 AND e.type IN ('INHERITS', 'IMPLEMENTS')
               AND NOT (e.type = 'IMPLEMENTS' AND e.ref_id IS NULL AND e.resolution IS NOT NULL)
             UNION ALL
             SELECT r.from_node, coalesce(c.qualified_name, ''), 0 FROM refs r JOIN nodes c ON c.id = r.from_node
             WHERE r.file_path = ?1 AND r.status = 'external' AND r.kind IN ('inherits', 'implements')",
        )?;
        let rows = st.query_map(params![path], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect()
    }

    /// A file's base-class sites (`inherits`, `implements`) as `kind name receiver type
    /// class` lines, sorted: with its definitions, what other files' resolution reads of it.
    pub fn base_sites_of(&self, path: &str) -> Result<Vec<String>> {
        let mut st = self.tx.prepare_cached(
            "SELECT r.kind, r.name, coalesce(r.receiver, ''), coalesce(r.receiver_type, ''), coalesce(n.qualified_name, '')
             FROM refs r LEFT JOIN nodes n ON n.id = r.from_node
             WHERE r.file_path = ?1 AND r.kind IN ('inherits', 'implements')",
        )?;
        let rows = st.query_map(params![path], |r| {
            Ok(format!("{}\t{}\t{}\t{}\t{}", r.get::<String>(0)?, r.get::<String>(1)?, r.get::<String>(2)?, r.get::<String>(3)?, r.get::<String>(4)?))
        })?;
        let mut out: Vec<String> = rows.collect::<Result<_>>()?;
        out.sort();
        Ok(out)
    }

    /// The segments of a file's module path (`django`, `db`, `models`): receivers that name
    /// the module, whose resolution changes when the file appears or disappears.
    pub fn module_names_of(&self, path: &str) -> Result<Vec<String>> {
        Ok(self
            .tx
            .query_row("SELECT module FROM files WHERE path = ?1", params![path], |r| r.get::<Option<String>>(0))
            .optional()?
            .flatten()
            .map(|m| m.split(['.', '/', ':']).filter(|s| !s.is_empty()).map(str::to_string).collect())
            .unwrap_or_default())
    }
}
