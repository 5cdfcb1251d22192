//! navegador-cypher: an openCypher engine over `navegador_graph::{GraphRead, GraphWrite}`.
//!
//! Stages, one module each: `lexer` -> `parser` (AST with spans) -> `semantic` (scope and
//! clause checks, read-only policy) -> `plan` (logical plan with row estimates from
//! `GraphRead::stats`) -> `exec` (clause-at-a-time interpreter with a time budget, a row
//! cap, a memory budget and a cancellation flag). `matcher` binds patterns, `eval`
//! evaluates expressions, `json` renders results. See `docs/cypher.md`.

pub mod ast;
mod error;
mod eval;
mod exec;
mod functions;
mod json;
mod lexer;
mod matcher;
pub mod memory;
mod parser;
pub mod plan;
pub mod procedures;
mod pushdown;
mod semantic;
mod values;
mod warnings;

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use navegador_graph::{GraphRead, GraphWrite, Value};

pub use error::{CypherError, Position};
pub use exec::QueryStats;
pub use json::{result_to_json, value_to_json};
pub use plan::{Plan, PlanOp};
pub use semantic::check_read_only;
pub use warnings::Warning;

/// How a query may run.
#[derive(Clone, Debug)]
pub struct QueryOptions {
    /// Refuse any clause with a side effect (decided on the parsed query).
    pub read_only: bool,
    /// Refuse queries whose estimated peak row count exceeds this; 0 disables the check.
    pub max_complexity: u64,
    /// Wall-clock budget for everything the query does: parsing, checking, planning and
    /// running.
    pub timeout: Duration,
    /// When the time budget started (a server: when the request arrived); default: when
    /// `execute` is called.
    pub started: Option<Instant>,
    /// Bytes the query may hold at once (`memory`); 0 disables the budget.
    pub max_memory: u64,
    /// Memory shared with concurrent queries: a query waits for its first chunk and is
    /// refused when it cannot grow.
    pub memory_pool: Option<Arc<memory::MemoryPool>>,
    /// Rows beyond this are dropped and `QueryResult::truncated` is set.
    pub max_rows: usize,
    /// Values of `$name` parameters.
    pub params: BTreeMap<String, Value>,
    /// Set to true from another thread to stop the query.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for QueryOptions {
    fn default() -> Self {
        QueryOptions {
            read_only: true,
            max_complexity: 0,
            timeout: Duration::from_secs(10),
            started: None,
            max_memory: memory::DEFAULT_QUERY_MEMORY,
            memory_pool: None,
            max_rows: 10_000,
            params: BTreeMap::new(),
            cancel: None,
        }
    }
}

/// Rows of a query, plus what it changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueryResult {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
    /// True when rows were dropped because of `QueryOptions::max_rows`.
    pub truncated: bool,
    pub stats: QueryStats,
    /// Labels, relationship types and property keys the query reads that the graph does
    /// not have, with the closest existing names (`warnings.rs`).
    pub warnings: Vec<Warning>,
}

/// Parses a statement (syntax only).
pub fn parse(query: &str) -> Result<ast::Statement, CypherError> {
    parser::parse(query)
}

/// Runs a query that may write. `opts.read_only` still applies.
pub fn execute(
    graph: &mut dyn GraphWrite,
    query: &str,
    opts: &QueryOptions,
) -> Result<QueryResult, CypherError> {
    run(exec::GraphHandle::Write(graph), query, opts)
}

/// Runs a query against a read-only graph; any write clause is refused.
pub fn execute_read(
    graph: &dyn GraphRead,
    query: &str,
    opts: &QueryOptions,
) -> Result<QueryResult, CypherError> {
    run(exec::GraphHandle::Read(graph), query, opts)
}

/// The plan of a query (without `EXPLAIN` in front) with row estimates.
pub fn explain(graph: &dyn GraphRead, query: &str) -> Result<Plan, CypherError> {
    let guard = eval::Guard::standalone(Duration::from_secs(10));
    let stmt = parser::parse_within(query, &guard)?;
    semantic::check(&stmt.query, &guard)?;
    plan::plan(&stmt.query, &graph.stats()?, &guard, true)
}

fn run(
    g: exec::GraphHandle<'_>,
    query: &str,
    opts: &QueryOptions,
) -> Result<QueryResult, CypherError> {
    let stop = eval::Stop::new(
        opts.started.unwrap_or_else(Instant::now),
        opts.timeout,
        opts.cancel.clone(),
    );
    let guard = eval::Guard::new(stop, opts.max_memory, opts.memory_pool.clone())?;
    let stmt = parser::parse_within(query, &guard)?;
    let read_only = opts.read_only || matches!(g, exec::GraphHandle::Read(_));
    if read_only {
        semantic::check_read_only(&stmt.query)?;
    }
    semantic::check(&stmt.query, &guard)?;
    semantic::check_parameters(&stmt.query, &opts.params)?;
    let warnings = warnings::check(query, &stmt.query, &g.schema()?);
    let gstats = g.stats()?;
    let plan = plan::plan(&stmt.query, &gstats, &guard, matches!(g, exec::GraphHandle::Read(_)))?;
    if stmt.explain {
        return Ok(QueryResult {
            columns: vec!["plan".into()],
            rows: plan
                .render()
                .lines()
                .map(|l| vec![Value::String(l.to_string())])
                .collect(),
            truncated: false,
            stats: QueryStats::default(),
            warnings,
        });
    }
    if opts.max_complexity > 0 {
        if let Some(peak) = plan.peak() {
            if peak.estimate > opts.max_complexity as f64 {
                return Err(CypherError::TooComplex {
                    estimate: peak.estimate.min(u64::MAX as f64) as u64,
                    operator: format!("{} {}", peak.name, peak.detail).trim().to_string(),
                    limit: opts.max_complexity,
                });
            }
        }
    }
    let mut ex = exec::Exec {
        g,
        params: &opts.params,
        guard: &guard,
        gstats,
        qstats: QueryStats::default(),
        deleted: Default::default(),
        max_rows: opts.max_rows,
        limit_hint: None,
    };
    let out = ex.run_query(&stmt.query);
    guard.learn_cleanup();
    let out = out?;
    let mut rows = out.rows;
    let truncated = rows.len() > opts.max_rows;
    rows.truncate(opts.max_rows);
    Ok(QueryResult {
        columns: out.columns,
        rows,
        truncated,
        stats: ex.qstats,
        warnings,
    })
}
