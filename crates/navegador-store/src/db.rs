//! One connection, two backends. The store writes its SQL once, in SQLite's dialect with
//! numbered parameters (`?1`); on SQLite it runs as written, on PostgreSQL after
//! [`to_pg`] (parameters as `$1`, case-insensitive `LIKE`, `COLLATE BINARY` as `"C"`),
//! with the few SQLite functions it uses (`json_extract`, `json_type`) defined in the
//! PostgreSQL schema with SQLite's meaning. Where the dialects really differ (full-text
//! search, JSON arrays of ids) the caller picks with [`Db::is_pg`].
//!
//! The API mirrors the part of rusqlite the store uses (`prepare_cached`, `query_map`,
//! `query_row`, `execute`, `execute_batch`), so the store's code reads the same on both.
//! Rows are read through [`Row::get`] into plain Rust types ([`FromCol`]): SQLite's
//! integers-as-booleans and PostgreSQL's booleans both read as `bool`.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use crate::{Result, StoreError};

/// A value bound to a parameter.
#[derive(Debug, Clone, Copy)]
pub enum Param<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a str),
}

/// Anything that binds to a parameter.
pub trait ToParam {
    fn param(&self) -> Param<'_>;
}

macro_rules! int_param {
    ($($t:ty),*) => {$(
        impl ToParam for $t {
            fn param(&self) -> Param<'_> {
                Param::Int(*self as i64)
            }
        }
    )*};
}
int_param!(i64, i32, u32, u64, usize, u8, u16, i16);

impl ToParam for bool {
    fn param(&self) -> Param<'_> {
        Param::Int(*self as i64)
    }
}
impl ToParam for f64 {
    fn param(&self) -> Param<'_> {
        Param::Real(*self)
    }
}
impl ToParam for str {
    fn param(&self) -> Param<'_> {
        Param::Text(self)
    }
}
impl ToParam for String {
    fn param(&self) -> Param<'_> {
        Param::Text(self)
    }
}
impl<T: ToParam + ?Sized> ToParam for &T {
    fn param(&self) -> Param<'_> {
        (**self).param()
    }
}
impl<T: ToParam> ToParam for Option<T> {
    fn param(&self) -> Param<'_> {
        match self {
            Some(v) => v.param(),
            None => Param::Null,
        }
    }
}
impl ToParam for rusqlite::types::Value {
    fn param(&self) -> Param<'_> {
        use rusqlite::types::Value as V;
        match self {
            V::Null | V::Blob(_) => Param::Null,
            V::Integer(i) => Param::Int(*i),
            V::Real(f) => Param::Real(*f),
            V::Text(t) => Param::Text(t),
        }
    }
}

impl ToParam for Param<'_> {
    fn param(&self) -> Param<'_> {
        *self
    }
}

/// The parameters of one statement.
pub type Params<'a> = &'a [&'a dyn ToParam];

/// `params![a, b]`: a parameter list of mixed types.
macro_rules! params {
    () => { &[] as &[&dyn $crate::db::ToParam] };
    ($($p:expr),+ $(,)?) => { &[$(&$p as &dyn $crate::db::ToParam),+] as &[&dyn $crate::db::ToParam] };
}
pub(crate) use params;

impl rusqlite::ToSql for Param<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match *self {
            Param::Null => ValueRef::Null,
            Param::Int(i) => ValueRef::Integer(i),
            Param::Real(f) => ValueRef::Real(f),
            Param::Text(s) => ValueRef::Text(s.as_bytes()),
        }))
    }
}

impl postgres::types::ToSql for Param<'_> {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        use postgres::types::{IsNull, Type};
        // Bind by the type the server inferred for the parameter.
        match *self {
            Param::Null => Ok(IsNull::Yes),
            Param::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(i)?.to_sql(ty, out),
                Type::BOOL => (i != 0).to_sql(ty, out),
                Type::FLOAT8 => (i as f64).to_sql(ty, out),
                Type::FLOAT4 => (i as f32).to_sql(ty, out),
                _ => i.to_string().as_str().to_sql(&Type::TEXT, out),
            },
            Param::Real(f) => match *ty {
                Type::FLOAT4 => (f as f32).to_sql(ty, out),
                Type::FLOAT8 => f.to_sql(ty, out),
                _ => f.to_string().as_str().to_sql(&Type::TEXT, out),
            },
            Param::Text(s) => match *ty {
                Type::INT8 => s.parse::<i64>()?.to_sql(ty, out),
                Type::INT4 => s.parse::<i32>()?.to_sql(ty, out),
                Type::JSONB => {
                    out.extend_from_slice(&[1]);
                    out.extend_from_slice(s.as_bytes());
                    Ok(IsNull::No)
                }
                _ => s.to_sql(&Type::TEXT, out),
            },
        }
    }

    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

/// One column of a row, as read.
#[derive(Debug, Clone, Copy)]
pub enum Col<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a str),
}

/// A Rust type a column reads into.
pub trait FromCol: Sized {
    fn from_col(c: Col<'_>) -> std::result::Result<Self, String>;
}

impl FromCol for i64 {
    fn from_col(c: Col<'_>) -> std::result::Result<Self, String> {
        match c {
            Col::Int(i) => Ok(i),
            Col::Real(f) if f.fract() == 0.0 => Ok(f as i64),
            other => Err(format!("expected an integer, found {other:?}")),
        }
    }
}
macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl FromCol for $t {
            fn from_col(c: Col<'_>) -> std::result::Result<Self, String> {
                let i = i64::from_col(c)?;
                <$t>::try_from(i).map_err(|_| format!("{i} is out of range for {}", stringify!($t)))
            }
        }
    )*};
}
from_int!(i32, u32, u64, usize);

impl FromCol for bool {
    fn from_col(c: Col<'_>) -> std::result::Result<Self, String> {
        Ok(i64::from_col(c)? != 0)
    }
}
impl FromCol for f64 {
    fn from_col(c: Col<'_>) -> std::result::Result<Self, String> {
        match c {
            Col::Int(i) => Ok(i as f64),
            Col::Real(f) => Ok(f),
            other => Err(format!("expected a number, found {other:?}")),
        }
    }
}
impl FromCol for String {
    fn from_col(c: Col<'_>) -> std::result::Result<Self, String> {
        match c {
            Col::Text(t) => Ok(t.to_string()),
            Col::Int(i) => Ok(i.to_string()),
            Col::Real(f) => Ok(f.to_string()),
            Col::Null => Err("expected text, found NULL".into()),
        }
    }
}
impl<T: FromCol> FromCol for Option<T> {
    fn from_col(c: Col<'_>) -> std::result::Result<Self, String> {
        match c {
            Col::Null => Ok(None),
            c => T::from_col(c).map(Some),
        }
    }
}

/// A row of a result.
pub enum Row<'a> {
    Sqlite(&'a rusqlite::Row<'a>),
    Pg(&'a postgres::Row),
}

impl Row<'_> {
    /// Column `i` as `T`.
    pub fn get<T: FromCol>(&self, i: usize) -> Result<T> {
        let col = self.col(i)?;
        T::from_col(col).map_err(|e| StoreError::Column { index: i, message: e })
    }

    /// Column `i` as read.
    pub fn col(&self, i: usize) -> Result<Col<'_>> {
        match self {
            Row::Sqlite(r) => {
                use rusqlite::types::ValueRef;
                Ok(match r.get_ref(i)? {
                    ValueRef::Null => Col::Null,
                    ValueRef::Integer(i) => Col::Int(i),
                    ValueRef::Real(f) => Col::Real(f),
                    ValueRef::Text(t) => Col::Text(std::str::from_utf8(t).map_err(|e| StoreError::Column {
                        index: i,
                        message: format!("not UTF-8: {e}"),
                    })?),
                    ValueRef::Blob(_) => Col::Null,
                })
            }
            Row::Pg(r) => pg_col(r, i),
        }
    }
}

/// A `json`/`jsonb` column as its JSON text (jsonb's binary form is a version byte and
/// the text).
struct JsonText<'a>(&'a str);

impl<'a> postgres::types::FromSql<'a> for JsonText<'a> {
    fn from_sql(
        ty: &postgres::types::Type,
        raw: &'a [u8],
    ) -> std::result::Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        let text = if *ty == postgres::types::Type::JSONB {
            raw.strip_prefix(&[1u8]).ok_or("unsupported jsonb version")?
        } else {
            raw
        };
        Ok(JsonText(std::str::from_utf8(text)?))
    }

    fn accepts(ty: &postgres::types::Type) -> bool {
        matches!(*ty, postgres::types::Type::JSON | postgres::types::Type::JSONB)
    }
}

fn owned(p: Param<'_>) -> Owned {
    match p {
        Param::Null => Owned::Null,
        Param::Int(i) => Owned::Int(i),
        Param::Real(f) => Owned::Text(f.to_string()),
        Param::Text(t) => Owned::Text(t.to_string()),
    }
}

fn pg_col(r: &postgres::Row, i: usize) -> Result<Col<'_>> {
    use postgres::types::Type;
    let ty = r.columns().get(i).ok_or(StoreError::Column { index: i, message: "no such column".into() })?.type_().clone();
    let col = match ty {
        Type::INT8 => r.try_get::<_, Option<i64>>(i)?.map(Col::Int),
        Type::INT4 => r.try_get::<_, Option<i32>>(i)?.map(|v| Col::Int(v.into())),
        Type::INT2 => r.try_get::<_, Option<i16>>(i)?.map(|v| Col::Int(v.into())),
        Type::BOOL => r.try_get::<_, Option<bool>>(i)?.map(|v| Col::Int(v.into())),
        Type::FLOAT8 => r.try_get::<_, Option<f64>>(i)?.map(Col::Real),
        Type::FLOAT4 => r.try_get::<_, Option<f32>>(i)?.map(|v| Col::Real(v.into())),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => {
            r.try_get::<_, Option<&str>>(i)?.map(Col::Text)
        }
        Type::JSON | Type::JSONB => r.try_get::<_, Option<JsonText<'_>>>(i)?.map(|j| Col::Text(j.0)),
        other => {
            return Err(StoreError::Column {
                index: i,
                message: format!("PostgreSQL type {other} is not read by the store (cast it in the query)"),
            })
        }
    };
    Ok(col.unwrap_or(Col::Null))
}

/// The PostgreSQL side of a connection: the client, its prepared statements, the rows of
/// [`Batch`]es not sent yet, and ids taken from the tables' sequences for them.
pub(crate) struct Pg {
    client: postgres::Client,
    statements: HashMap<String, postgres::Statement>,
    pending: Vec<Pending>,
    ids: HashMap<&'static str, Vec<i64>>,
}

/// A statement run for many rows (the hot writes of an ingest). On SQLite each row runs
/// `row_sql` at once. On PostgreSQL, where every statement is a round trip, rows are
/// collected and sent as one `pg_sql` over column arrays (`$k` is the k-th column as an
/// array: `... SELECT * FROM unnest($1::bigint[], $2::text[])`), before the next other
/// statement on the connection, before commit, or every [`BATCH_ROWS`] rows.
pub struct Batch {
    pub row_sql: &'static str,
    pub pg_sql: &'static str,
    pub columns: &'static [ColType],
    /// PostgreSQL: of rows with the same first column only the last is sent (an `UPDATE`
    /// from a list must not see one key twice).
    pub last_per_key: bool,
    /// PostgreSQL: an `UPDATE refs SET status` by id: the rows' statuses before it are read
    /// first, for the catalog (`catalog.rs`; SQLite's row statement reads them itself).
    pub site_status: bool,
}

/// The type of a [`Batch`] column on PostgreSQL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColType {
    Int,
    Text,
}

/// Rows per statement of a [`Batch`] on PostgreSQL.
pub const BATCH_ROWS: usize = 5000;

#[derive(Debug, Clone)]
enum Owned {
    Null,
    Int(i64),
    Text(String),
}

struct Pending {
    batch: &'static Batch,
    rows: Vec<Vec<Owned>>,
}

impl Pg {
    /// Sends every pending batch, in the order each was first used.
    fn flush(&mut self, changes: &Cell<usize>, catalog: &RefCell<crate::catalog::Delta>) -> Result<()> {
        for p in std::mem::take(&mut self.pending) {
            let mut rows = p.rows;
            if p.batch.last_per_key {
                let mut seen = std::collections::HashSet::new();
                let mut keep: Vec<Vec<Owned>> = rows
                    .into_iter()
                    .rev()
                    .filter(|r| match &r[0] {
                        Owned::Int(i) => seen.insert(*i),
                        _ => true,
                    })
                    .collect();
                keep.reverse();
                rows = keep;
            }
            for chunk in rows.chunks(BATCH_ROWS) {
                let mut ints: Vec<Vec<Option<i64>>> = Vec::new();
                let mut texts: Vec<Vec<Option<String>>> = Vec::new();
                let mut order = Vec::new(); // (is_text, index into ints/texts) per column
                for (c, ty) in p.batch.columns.iter().enumerate() {
                    match ty {
                        ColType::Int => {
                            order.push((false, ints.len()));
                            ints.push(
                                chunk
                                    .iter()
                                    .map(|r| match &r[c] {
                                        Owned::Int(i) => Some(*i),
                                        Owned::Text(t) => t.parse().ok(),
                                        Owned::Null => None,
                                    })
                                    .collect(),
                            );
                        }
                        ColType::Text => {
                            order.push((true, texts.len()));
                            texts.push(
                                chunk
                                    .iter()
                                    .map(|r| match &r[c] {
                                        Owned::Int(i) => Some(i.to_string()),
                                        Owned::Text(t) => Some(t.clone()),
                                        Owned::Null => None,
                                    })
                                    .collect(),
                            );
                        }
                    }
                }
                let params: Vec<&(dyn postgres::types::ToSql + Sync)> = order
                    .iter()
                    .map(|&(text, i)| {
                        if text {
                            &texts[i] as &(dyn postgres::types::ToSql + Sync)
                        } else {
                            &ints[i] as &(dyn postgres::types::ToSql + Sync)
                        }
                    })
                    .collect();
                let stmt = match self.statements.get(p.batch.pg_sql) {
                    Some(s) => s.clone(),
                    None => {
                        let s = self
                            .client
                            .prepare(p.batch.pg_sql)
                            .map_err(|error| StoreError::Statement { sql: p.batch.pg_sql.to_string(), error })?;
                        self.statements.insert(p.batch.pg_sql.to_string(), s.clone());
                        s
                    }
                };
                if p.batch.site_status {
                    // (id, new status) per row: the catalog moves each from its old status
                    let ids: Vec<i64> = chunk.iter().filter_map(|r| match &r[0] { Owned::Int(i) => Some(*i), _ => None }).collect();
                    let old = self.client.query("SELECT id, status, from_node FROM refs WHERE id = ANY($1)", &[&ids])?;
                    let new: HashMap<i64, &str> = chunk
                        .iter()
                        .filter_map(|r| match (&r[0], &r[1]) {
                            (Owned::Int(i), Owned::Text(s)) => Some((*i, s.as_str())),
                            _ => None,
                        })
                        .collect();
                    let mut d = catalog.borrow_mut();
                    for row in old {
                        let (id, status, from): (i64, String, Option<i64>) = (row.get(0), row.get(1), row.get(2));
                        d.site(&status, from, -1);
                        if let Some(s) = new.get(&id) {
                            d.site(s, from, 1);
                        }
                    }
                }
                let n = self.client.execute(&stmt, &params)? as usize;
                changes.set(changes.get() + n);
            }
        }
        Ok(())
    }
}

enum Conn {
    Sqlite(rusqlite::Connection),
    Pg(RefCell<Pg>),
}

/// An open connection to either backend.
pub struct Db {
    conn: Conn,
    /// PostgreSQL: a transaction is open on this connection, and whether it writes.
    in_tx: Cell<bool>,
    writing: Cell<bool>,
    /// PostgreSQL: rows changed through this connection (SQLite counts itself).
    changes: Cell<usize>,
    /// What the open transaction changed in the catalog, written at commit.
    catalog: RefCell<crate::catalog::Delta>,
}

/// How a transaction begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxKind {
    /// A consistent snapshot for reading.
    Read,
    /// The one writer: SQLite's `IMMEDIATE` lock, PostgreSQL's advisory lock.
    Write,
}

/// Moves the graph's generation, the change counter readers compare (PostgreSQL has no
/// `PRAGMA data_version`).
pub const GENERATION_BUMP: &str =
    "UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'generation'";

/// The advisory lock key that serializes writers on PostgreSQL ("navg" in ASCII).
const WRITER_LOCK: i64 = 0x6e61_7667;

impl Db {
    pub fn sqlite(conn: rusqlite::Connection) -> Db {
        Db { conn: Conn::Sqlite(conn), in_tx: Cell::new(false), writing: Cell::new(false), changes: Cell::new(0), catalog: Default::default() }
    }

    pub fn postgres(client: postgres::Client) -> Db {
        Db {
            conn: Conn::Pg(RefCell::new(Pg {
                client,
                statements: HashMap::new(),
                pending: Vec::new(),
                ids: HashMap::new(),
            })),
            in_tx: Cell::new(false),
            writing: Cell::new(false),
            changes: Cell::new(0),
            catalog: Default::default(),
        }
    }

    pub fn is_pg(&self) -> bool {
        matches!(self.conn, Conn::Pg(_))
    }

    /// The SQLite connection, when this is one.
    pub fn sqlite_conn(&self) -> Option<&rusqlite::Connection> {
        match &self.conn {
            Conn::Sqlite(c) => Some(c),
            Conn::Pg(_) => None,
        }
    }

    /// A statement to run (prepared and cached on first use).
    pub fn prepare_cached<'a>(&'a self, sql: &str) -> Result<Stmt<'a>> {
        Ok(Stmt { db: self, sql: sql.to_string() })
    }

    /// Same as [`Db::prepare_cached`] (every statement is cached).
    pub fn prepare<'a>(&'a self, sql: &str) -> Result<Stmt<'a>> {
        self.prepare_cached(sql)
    }

    pub fn execute(&self, sql: &str, params: Params<'_>) -> Result<usize> {
        self.prepare_cached(sql)?.execute(params)
    }

    pub fn query_row<T>(&self, sql: &str, params: Params<'_>, f: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<T> {
        self.prepare_cached(sql)?.query_row(params, f)
    }

    /// Inserts one row and returns its `id`.
    pub fn insert(&self, sql: &str, params: Params<'_>) -> Result<i64> {
        match &self.conn {
            Conn::Sqlite(c) => {
                c.prepare_cached(sql)?.execute(rusqlite::params_from_iter(params.iter().map(|p| p.param())))?;
                Ok(c.last_insert_rowid())
            }
            Conn::Pg(_) => {
                let sql = format!("{sql} RETURNING id");
                let id = self.query_row(&sql, params, |r| r.get(0))?;
                Ok(id)
            }
        }
    }

    /// Runs statements without parameters, `;`-separated.
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        match &self.conn {
            Conn::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Conn::Pg(pg) => {
                let mut pg = pg.borrow_mut();
                pg.flush(&self.changes, &self.catalog)?;
                pg.client.batch_execute(&to_pg(sql))?;
                Ok(())
            }
        }
    }

    /// One row of a [`Batch`] (see there).
    pub fn defer(&self, batch: &'static Batch, params: Params<'_>) -> Result<()> {
        match &self.conn {
            Conn::Sqlite(_) => self.execute(batch.row_sql, params).map(drop),
            Conn::Pg(pg) => {
                let row = params.iter().map(|p| owned(p.param())).collect();
                self.push(pg, batch, row)
            }
        }
    }

    /// One row of a [`Batch`] that inserts into `table` and needs the new row's `id`. On
    /// PostgreSQL the id comes from the table's identity sequence (taken in blocks) and is
    /// the row's first column in `pg_sql`.
    pub fn defer_insert(&self, batch: &'static Batch, table: &'static str, params: Params<'_>) -> Result<i64> {
        match &self.conn {
            Conn::Sqlite(_) => self.insert(batch.row_sql, params),
            Conn::Pg(pg) => {
                let id = {
                    let mut g = pg.borrow_mut();
                    if g.ids.get(table).is_none_or(Vec::is_empty) {
                        let rows = g.client.query(
                            "SELECT nextval(pg_get_serial_sequence($1, 'id')) FROM generate_series(1, 1024) ORDER BY 1 DESC",
                            &[&table],
                        )?;
                        g.ids.insert(table, rows.iter().map(|r| r.get::<_, i64>(0)).collect());
                    }
                    g.ids.get_mut(table).and_then(Vec::pop).expect("just filled")
                };
                let mut row = vec![Owned::Int(id)];
                row.extend(params.iter().map(|p| owned(p.param())));
                self.push(pg, batch, row)?;
                Ok(id)
            }
        }
    }

    /// [`Db::defer_insert`] of a row whose `id` is given: on SQLite `row_sql_at` (the
    /// batch's row with the id as `?1`), on PostgreSQL the batch's row as it is.
    pub fn defer_insert_at(&self, batch: &'static Batch, row_sql_at: &str, id: i64, params: Params<'_>) -> Result<()> {
        match &self.conn {
            Conn::Sqlite(c) => {
                let all = std::iter::once(Param::Int(id)).chain(params.iter().map(|p| p.param()));
                c.prepare_cached(row_sql_at)?.execute(rusqlite::params_from_iter(all))?;
                Ok(())
            }
            Conn::Pg(pg) => {
                let mut row = vec![Owned::Int(id)];
                row.extend(params.iter().map(|p| owned(p.param())));
                self.push(pg, batch, row)
            }
        }
    }

    fn push(&self, pg: &RefCell<Pg>, batch: &'static Batch, row: Vec<Owned>) -> Result<()> {
        let mut g = pg.borrow_mut();
        let full = match g.pending.iter_mut().find(|p| std::ptr::eq(p.batch, batch)) {
            Some(p) => {
                p.rows.push(row);
                p.rows.len() >= BATCH_ROWS
            }
            None => {
                g.pending.push(Pending { batch, rows: vec![row] });
                false
            }
        };
        if full {
            g.flush(&self.changes, &self.catalog)?;
        }
        Ok(())
    }

    /// The open transaction's catalog changes (`catalog.rs`).
    pub(crate) fn catalog(&self) -> &RefCell<crate::catalog::Delta> {
        &self.catalog
    }

    /// Writes the catalog's changes at once when no transaction is open (a write outside
    /// one commits by itself).
    pub(crate) fn catalog_autocommit(&self) -> Result<()> {
        if self.is_autocommit() {
            self.send_pending()?;
            crate::catalog::flush(self)?;
        }
        Ok(())
    }

    /// PostgreSQL: sends the rows of [`Batch`]es not sent yet.
    pub(crate) fn send_pending(&self) -> Result<()> {
        if let Conn::Pg(pg) = &self.conn {
            pg.borrow_mut().flush(&self.changes, &self.catalog)?;
        }
        Ok(())
    }

    /// Whether no transaction is open.
    pub fn is_autocommit(&self) -> bool {
        match &self.conn {
            Conn::Sqlite(c) => c.is_autocommit(),
            Conn::Pg(_) => !self.in_tx.get(),
        }
    }

    pub fn begin(&self, kind: TxKind) -> Result<()> {
        match &self.conn {
            Conn::Sqlite(c) => c.execute_batch(match kind {
                TxKind::Read => "BEGIN DEFERRED",
                TxKind::Write => "BEGIN IMMEDIATE",
            })?,
            Conn::Pg(pg) => {
                let mut pg = pg.borrow_mut();
                match kind {
                    TxKind::Read => pg.client.batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ")?,
                    TxKind::Write => {
                        pg.client.batch_execute("BEGIN")?;
                        if let Err(e) = pg.client.execute("SELECT pg_advisory_xact_lock($1)", &[&WRITER_LOCK]) {
                            let _ = pg.client.batch_execute("ROLLBACK");
                            return Err(e.into());
                        }
                    }
                }
                self.in_tx.set(true);
                self.writing.set(kind == TxKind::Write);
            }
        }
        Ok(())
    }

    /// Runs `f` in a transaction of `kind`: committed when it returns `Ok`, rolled back
    /// (and its error returned) when it fails.
    pub fn in_transaction<T>(&self, kind: TxKind, f: impl FnOnce() -> Result<T>) -> Result<T> {
        self.begin(kind)?;
        match f() {
            Ok(v) => self.commit().map(|()| v),
            Err(e) => {
                let _ = self.rollback();
                Err(e)
            }
        }
    }

    /// Commits; on PostgreSQL a write also moves the graph's generation (what tells a
    /// reader's caches that the graph changed).
    pub fn commit(&self) -> Result<()> {
        if let Err(e) = self.send_pending().and_then(|()| crate::catalog::flush(self)) {
            let _ = self.rollback();
            return Err(e);
        }
        match &self.conn {
            Conn::Sqlite(c) => c.execute_batch("COMMIT")?,
            Conn::Pg(pg) => {
                let mut pg = pg.borrow_mut();
                if let Err(e) = pg.flush(&self.changes, &self.catalog) {
                    let _ = pg.client.batch_execute("ROLLBACK");
                    self.in_tx.set(false);
                    return Err(e);
                }
                let r = if self.writing.get() {
                    pg.client.batch_execute(GENERATION_BUMP).and_then(|()| pg.client.batch_execute("COMMIT"))
                } else {
                    pg.client.batch_execute("COMMIT")
                };
                if r.is_err() {
                    let _ = pg.client.batch_execute("ROLLBACK");
                }
                self.in_tx.set(false);
                r?;
            }
        }
        Ok(())
    }

    pub fn rollback(&self) -> Result<()> {
        *self.catalog.borrow_mut() = Default::default();
        match &self.conn {
            Conn::Sqlite(c) => c.execute_batch("ROLLBACK")?,
            Conn::Pg(pg) => {
                let mut pg = pg.borrow_mut();
                pg.pending.clear();
                let r = pg.client.batch_execute("ROLLBACK");
                self.in_tx.set(false);
                r?;
            }
        }
        Ok(())
    }

    /// Rows changed through this connection so far.
    pub fn total_changes(&self) -> usize {
        match &self.conn {
            Conn::Sqlite(c) => c.total_changes() as usize,
            Conn::Pg(_) => self.changes.get(),
        }
    }

    fn run_pg<T>(&self, pg: &RefCell<Pg>, sql: &str, params: Params<'_>, f: impl FnOnce(&mut postgres::Client, &postgres::Statement, &[&(dyn postgres::types::ToSql + Sync)]) -> std::result::Result<T, postgres::Error>) -> Result<T> {
        let mut pg = pg.borrow_mut();
        pg.flush(&self.changes, &self.catalog)?;
        let stmt = match pg.statements.get(sql) {
            Some(s) => s.clone(),
            None => {
                let pg_sql = to_pg(sql);
                let s = pg.client.prepare(&pg_sql).map_err(|error| StoreError::Statement { sql: pg_sql, error })?;
                if pg.statements.len() > 1024 {
                    pg.statements.clear();
                }
                pg.statements.insert(sql.to_string(), s.clone());
                s
            }
        };
        let values: Vec<Param<'_>> = params.iter().map(|p| p.param()).collect();
        let refs: Vec<&(dyn postgres::types::ToSql + Sync)> =
            values.iter().map(|v| v as &(dyn postgres::types::ToSql + Sync)).collect();
        let pg = &mut *pg;
        Ok(f(&mut pg.client, &stmt, &refs)?)
    }
}

/// A statement of a [`Db`].
pub struct Stmt<'a> {
    db: &'a Db,
    sql: String,
}

impl Stmt<'_> {
    pub fn execute(&mut self, params: Params<'_>) -> Result<usize> {
        match &self.db.conn {
            Conn::Sqlite(c) => {
                Ok(c.prepare_cached(&self.sql)?.execute(rusqlite::params_from_iter(params.iter().map(|p| p.param())))?)
            }
            Conn::Pg(pg) => {
                let n = self.db.run_pg(pg, &self.sql, params, |c, s, p| c.execute(s, p))? as usize;
                self.db.changes.set(self.db.changes.get() + n);
                Ok(n)
            }
        }
    }

    /// Every row, mapped by `f` (the results in a vector, each row's own `Result` kept so
    /// callers collect as with rusqlite).
    pub fn query_map<T>(
        &mut self,
        params: Params<'_>,
        mut f: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<std::vec::IntoIter<Result<T>>> {
        let mut out = Vec::new();
        self.for_each(params, |r| {
            out.push(f(r));
            Ok(())
        })?;
        Ok(out.into_iter())
    }

    /// Calls `f` on each row in order (SQLite streams; PostgreSQL reads the result first).
    pub fn for_each(&mut self, params: Params<'_>, mut f: impl FnMut(&Row<'_>) -> Result<()>) -> Result<()> {
        match &self.db.conn {
            Conn::Sqlite(c) => {
                let mut st = c.prepare_cached(&self.sql)?;
                let mut rows = st.query(rusqlite::params_from_iter(params.iter().map(|p| p.param())))?;
                while let Some(r) = rows.next()? {
                    f(&Row::Sqlite(r))?;
                }
                Ok(())
            }
            Conn::Pg(pg) => {
                let rows = self.db.run_pg(pg, &self.sql, params, |c, s, p| c.query(s, p))?;
                for r in &rows {
                    f(&Row::Pg(r))?;
                }
                Ok(())
            }
        }
    }

    /// The first row, mapped by `f`; [`StoreError::NoRows`] when there is none.
    pub fn query_row<T>(&mut self, params: Params<'_>, f: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<T> {
        let mut f = Some(f);
        let mut out = None;
        match &self.db.conn {
            Conn::Sqlite(c) => {
                let mut st = c.prepare_cached(&self.sql)?;
                let mut rows = st.query(rusqlite::params_from_iter(params.iter().map(|p| p.param())))?;
                if let Some(r) = rows.next()? {
                    out = Some((f.take().expect("once"))(&Row::Sqlite(r))?);
                }
            }
            Conn::Pg(pg) => {
                let row = self.db.run_pg(pg, &self.sql, params, |c, s, p| c.query_opt(s, p))?;
                if let Some(r) = &row {
                    out = Some((f.take().expect("once"))(&Row::Pg(r))?);
                }
            }
        }
        out.ok_or(StoreError::NoRows)
    }
}

/// `Result<T>` -> `Result<Option<T>>` with "no rows" as `None` (rusqlite's
/// `OptionalExtension`, for the store's own errors).
pub trait OptionalExtension<T> {
    fn optional(self) -> Result<Option<T>>;
}

impl<T> OptionalExtension<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(StoreError::NoRows) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// The store's SQLite SQL in PostgreSQL's dialect: `?N` parameters as `$N` (a bare `?`
/// numbered in order), `LIKE` as `ILIKE` (SQLite's is case-insensitive), `COLLATE BINARY`
/// as `COLLATE "C"`, SQLite's index-steering unary `+` dropped, `group_concat`/`char` as
/// `string_agg`/`chr`, `json_each(?N)` over a JSON array of ids as `navegador_ids($N)`. String literals and quoted names are left alone.
pub fn to_pg(sql: &str) -> String {
    let b = sql.as_bytes();
    let mut out = String::with_capacity(sql.len() + 16);
    let mut i = 0;
    let mut next_bare = 0;
    let word_at = |i: usize, w: &str| -> bool {
        b.len() >= i + w.len()
            && b[i..i + w.len()].eq_ignore_ascii_case(w.as_bytes())
            && (i == 0 || !is_word(b[i - 1]))
            && b.get(i + w.len()).is_none_or(|c| !is_word(*c))
    };
    while i < b.len() {
        let c = b[i];
        match c {
            b'\'' | b'"' => {
                let end = b[i + 1..].iter().position(|&x| x == c).map_or(b.len(), |p| i + 1 + p + 1);
                out.push_str(&sql[i..end]);
                i = end;
            }
            b'?' => {
                let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
                if digits > 0 {
                    out.push('$');
                    out.push_str(&sql[i + 1..i + 1 + digits]);
                } else {
                    next_bare += 1;
                    out.push_str(&format!("${next_bare}"));
                }
                i += 1 + digits;
            }
            b'+' if i > 0
                && matches!(b[i - 1], b' ' | b'(' | b'\n')
                && b.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic()) =>
            {
                i += 1;
            }
            _ if word_at(i, "LIKE") => {
                out.push_str("ILIKE");
                i += 4;
            }
            _ if word_at(i, "BINARY") && out.trim_end().to_ascii_uppercase().ends_with("COLLATE") => {
                out.push_str("\"C\"");
                i += 6;
            }
            _ if word_at(i, "json_each") && sql[i + 9..].starts_with("(?") => {
                // a JSON array of ids as a parameter (SQLite's `json_each(?1)`, `value`)
                out.push_str("navegador_ids");
                i += "json_each".len();
            }
            _ if word_at(i, "group_concat") => {
                out.push_str("string_agg");
                i += "group_concat".len();
            }
            _ if word_at(i, "char") && b.get(i + 4) == Some(&b'(') => {
                out.push_str("chr");
                i += 4;
            }
            _ => {
                let ch = sql[i..].chars().next().expect("in bounds");
                out.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    out
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

#[cfg(test)]
mod tests {
    use super::to_pg;

    #[test]
    fn sqlite_sql_reads_as_postgres() {
        let cases = [
            ("SELECT * FROM t WHERE a = ?1 AND b = ?12", "SELECT * FROM t WHERE a = $1 AND b = $12"),
            ("INSERT INTO t VALUES (?, ?)", "INSERT INTO t VALUES ($1, $2)"),
            ("SELECT '?1', \"a?\" FROM t WHERE x = ?2", "SELECT '?1', \"a?\" FROM t WHERE x = $2"),
            ("WHERE name LIKE ?1 ESCAPE '\\'", "WHERE name ILIKE $1 ESCAPE '\\'"),
            ("WHERE unlike = 1 AND liked LIKE 'LIKE'", "WHERE unlike = 1 AND liked ILIKE 'LIKE'"),
            ("WHERE name = ?1 COLLATE BINARY", "WHERE name = $1 COLLATE \"C\""),
            ("WHERE n.parent = j.value AND +n.name = ?2", "WHERE n.parent = j.value AND n.name = $2"),
            ("SELECT a + b, (+label IN ('x'))", "SELECT a + b, (label IN ('x'))"),
            ("SELECT group_concat(l.label, char(31))", "SELECT string_agg(l.label, chr(31))"),
            ("SELECT 'don''t ?1' || ?1", "SELECT 'don''t ?1' || $1"),
            ("SELECT value FROM json_each(?1)", "SELECT value FROM navegador_ids($1)"),
            ("FROM json_each(nodes.props) j", "FROM json_each(nodes.props) j"),
            ("SELECT json_extract(props, '$.kind') FROM nodes", "SELECT json_extract(props, '$.kind') FROM nodes"),
        ];
        for (sqlite, pg) in cases {
            assert_eq!(to_pg(sqlite), pg, "{sqlite}");
        }
    }
}
