//! The tool table: each tool is a name, a description, typed input and output (their JSON
//! schemas are published), annotations, and a handler. Adding a tool is one entry in
//! [`builtin_tools`] (or [`crate::NavegadorServer::add_tool`] from outside the crate).
//!
//! Lists the spec calls "arrays" (search results, query rows, rationale, owners) are
//! answered as objects `{items: [...], count, ...}` with completeness fields, because MCP
//! structured content must be an object.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use navegador_analysis::{
    self as analysis, changes, AnalysisError, BlastRadius, ContextBundle, CypherError, IngestionResult, OwnersAnswer, QueryAnswer,
    QueryLimits, RationaleAnswer, SearchAsk, SearchLayers, SearchResults,
};
use navegador_index::{IngestConfig, Progress};
use navegador_store::{Store, StoreError};
use rmcp::model::{
    CallToolResult, ContentBlock, JsonObject, ProgressNotificationParam, ProgressToken, Tool, ToolAnnotations,
};
use rmcp::{Peer, RoleServer};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use crate::params::{
    BlastRadiusParams, ChangesParams, ContextParams, Format, FunctionParams, IngestParams, NodeParams, OwnersParams,
    QueryParams, RationaleParams, SearchKnowledgeParams, SearchParams,
};
use crate::{paths, schema, NavegadorServer};

/// One tool call as a handler sees it.
pub struct Call {
    pub server: NavegadorServer,
    pub args: JsonObject,
    /// Where to send progress notifications, when the client asked for them.
    pub progress: Option<ProgressSink>,
    /// Cancelled when the client cancels the request or the connection closes.
    pub cancel: CancellationToken,
}

impl Call {
    /// A flag the blocking work polls, set when the request is cancelled, and the task
    /// that sets it (abort it when the work is done).
    fn cancel_flag(&self) -> (Arc<AtomicBool>, tokio::task::JoinHandle<()>) {
        let cancel = Arc::new(AtomicBool::new(false));
        let (ct, flag) = (self.cancel.clone(), cancel.clone());
        let watcher = tokio::spawn(async move {
            ct.cancelled().await;
            flag.store(true, Ordering::Relaxed);
        });
        (cancel, watcher)
    }
}

/// A client's progress token and the peer to notify.
#[derive(Clone)]
pub struct ProgressSink {
    pub token: ProgressToken,
    pub peer: Peer<RoleServer>,
}

pub type BoxFuture = Pin<Box<dyn Future<Output = CallToolResult> + Send>>;
pub type Handler = Arc<dyn Fn(Call) -> BoxFuture + Send + Sync>;

/// A tool: its published definition and its handler.
#[derive(Clone)]
pub struct ToolDef {
    pub tool: Tool,
    pub handler: Handler,
}

impl ToolDef {
    /// A tool with input `P` and output `O` (both publish their JSON schema). Arguments
    /// that do not deserialize into `P` are answered with a tool error naming the field.
    pub fn new<P, O, F, Fut>(name: &'static str, description: &'static str, read_only: bool, f: F) -> ToolDef
    where
        P: DeserializeOwned + JsonSchema + Send + 'static,
        O: JsonSchema + 'static,
        F: Fn(Call, P) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = CallToolResult> + Send + 'static,
    {
        let annotations = ToolAnnotations::new()
            .read_only(read_only)
            .destructive(!read_only)
            .idempotent(true)
            .open_world(false);
        let mut tool = Tool::new(name, description, JsonObject::new())
            .with_input_schema::<P>()
            .with_output_schema::<O>()
            .with_annotations(annotations);
        schema::compact_tool(&mut tool);
        let f = Arc::new(f);
        let handler: Handler = Arc::new(move |call: Call| {
            let f = f.clone();
            Box::pin(async move {
                match serde_json::from_value::<P>(Value::Object(call.args.clone())) {
                    Ok(p) => f(call, p).await,
                    Err(e) => ToolError::msg(format!(
                        "invalid arguments for `{name}`: {e}; the tool's input schema (tools/list) names each field and its type"
                    ))
                    .into(),
                }
            })
        });
        ToolDef { tool, handler }
    }

    /// A read-only tool answered on a blocking thread from that thread's read-only
    /// connection, so many sessions can read at once (and during an ingest: WAL).
    pub fn read<P, O, F>(name: &'static str, description: &'static str, f: F) -> ToolDef
    where
        P: DeserializeOwned + JsonSchema + Send + 'static,
        O: JsonSchema + 'static,
        F: Fn(&Store, P, &NavegadorServer) -> Result<Reply, ToolError> + Send + Sync + Copy + 'static,
    {
        ToolDef::new::<P, O, _, _>(name, description, true, move |call: Call, p: P| async move {
            let server = call.server.clone();
            let run = tokio::task::spawn_blocking(move || {
                let complete = catch_up(&server)?;
                let r = server.with_reader(|store| f(store, p, &server));
                match r {
                    // an answer from a graph still being refreshed: a miss may be the refresh's
                    Err(e) if !complete && e.details.as_ref().is_none_or(|d| d.get("code").is_none()) => Err(index_incomplete()),
                    other => other,
                }
            });
            match run.await {
                Ok(r) => outcome(r),
                Err(e) => ToolError::msg(format!("internal error in `{name}`: {e}; the server keeps serving, retry or report it")).into(),
            }
        })
    }
}

/// A successful answer: structured JSON, and the text content (the JSON itself unless a
/// tool renders something else, like markdown).
pub struct Reply {
    pub structured: Value,
    pub text: Option<String>,
}

impl Reply {
    pub fn json<T: Serialize>(v: &T) -> Reply {
        Reply { structured: serde_json::to_value(v).unwrap_or(Value::Null), text: None }
    }
}

impl From<Reply> for CallToolResult {
    fn from(r: Reply) -> Self {
        let text = r.text.unwrap_or_else(|| r.structured.to_string());
        let mut out = CallToolResult::success(vec![ContentBlock::text(text)]);
        out.structured_content = Some(r.structured);
        out
    }
}

/// A failure the model can read: a message that names the fix, and details (candidates,
/// suggestions) as structured content.
#[derive(Debug)]
pub struct ToolError {
    pub message: String,
    pub details: Option<Value>,
}

impl ToolError {
    pub fn msg(message: impl Into<String>) -> Self {
        ToolError { message: message.into(), details: None }
    }
}

impl From<ToolError> for CallToolResult {
    fn from(e: ToolError) -> Self {
        let mut structured = json!({ "error": e.message });
        let mut text = e.message.clone();
        if let Some(Value::Object(d)) = e.details {
            for (k, v) in &d {
                structured[k] = v.clone();
            }
            if let Some(Value::Array(cands)) = d.get("candidates") {
                text.push_str("\ncandidates:");
                for c in cands {
                    let q = c.get("qualified_name").or(c.get("name")).and_then(Value::as_str).unwrap_or("?");
                    let t = c.get("type").and_then(Value::as_str).unwrap_or("");
                    let f = c.get("file_path").and_then(Value::as_str).unwrap_or("?");
                    let l = c.get("line_start").and_then(Value::as_u64).map(|l| format!(":{l}")).unwrap_or_default();
                    let select = c.get("select").and_then(Value::as_object).map(|s| {
                        let args: Vec<String> = s.iter().map(|(k, v)| format!("{k}={v}")).collect();
                        format!(" (pass {})", args.join(" "))
                    });
                    text.push_str(&format!("\n- {t} {q} — {f}{l}{}", select.unwrap_or_default()));
                }
            }
        }
        let mut out = CallToolResult::error(vec![ContentBlock::text(text)]);
        out.structured_content = Some(structured);
        out
    }
}

/// How long a graph answer waits for the live index's first refresh of an existing graph
/// (incremental: usually milliseconds).
const FIRST_REFRESH_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Brings the live index (when the server keeps one) up to date before a graph answer:
/// false when the answer must come from a graph whose first refresh is still running. The
/// very first index of a workspace (nothing committed yet) is not waited for: the answer
/// is `INDEX_INCOMPLETE`, never a silent empty answer or "no such name".
pub(crate) fn catch_up(server: &NavegadorServer) -> Result<bool, ToolError> {
    let Some(live) = server.live_index() else { return Ok(true) };
    if live.ensure_fresh().complete {
        return Ok(true);
    }
    let empty = server.with_reader(|s| Ok(s.is_empty().unwrap_or(true))).unwrap_or(true);
    if empty {
        return Err(index_incomplete());
    }
    Ok(live.wait_complete(FIRST_REFRESH_WAIT) && live.ensure_fresh().complete)
}

/// The answer of a graph tool while the first index of the workspace is being built (the
/// `code.*` tools' `INDEX_INCOMPLETE`).
pub(crate) fn index_incomplete() -> ToolError {
    ToolError {
        message: "the first index of this workspace is still being built, so the graph cannot answer yet; retry in a few seconds".into(),
        details: Some(json!({ "code": "INDEX_INCOMPLETE", "index_incomplete": true })),
    }
}

/// A handler's outcome as a tool result.
pub fn outcome(r: Result<Reply, ToolError>) -> CallToolResult {
    match r {
        Ok(r) => r.into(),
        Err(e) => e.into(),
    }
}

impl From<AnalysisError> for ToolError {
    fn from(e: AnalysisError) -> Self {
        let message = e.to_string();
        match e {
            AnalysisError::Ambiguous { candidates, total, .. } => ToolError {
                message,
                details: Some(json!({ "ambiguous": true, "candidate_count": total, "candidates": candidates })),
            },
            AnalysisError::NotFound { suggestions, .. } | AnalysisError::FileNotIndexed { suggestions, .. } => {
                ToolError { message, details: Some(json!({ "suggestions": suggestions })) }
            }
            AnalysisError::Store(s) => store_error(s),
            AnalysisError::Query(q) => query_error(q),
            AnalysisError::Index(navegador_index::IndexError::Store(s)) => store_error(s),
            _ => ToolError::msg(message),
        }
    }
}

/// Cypher failures: the engine's message (syntax errors carry line, column and a caret
/// under the query text), the position as structured content, and the fix.
fn query_error(e: CypherError) -> ToolError {
    let mut details = json!({ "query_error": e.class() });
    let fix = match &e {
        CypherError::Syntax { pos, .. } => {
            details["position"] = json!({ "line": pos.line, "column": pos.column, "offset": pos.offset });
            "\nfix the query at that position (openCypher syntax)".to_string()
        }
        CypherError::ReadOnly { .. } => {
            details["read_only"] = json!(true);
            "; this server runs read-only (--read-only): only reads (MATCH ... RETURN) are accepted".to_string()
        }
        CypherError::TooComplex { .. } => {
            details["too_complex"] = json!(true);
            "; the server's --max-query-complexity refuses it: narrow the pattern (labels, property filters) or add LIMIT".to_string()
        }
        CypherError::Timeout(_) => {
            details["budget"] = json!("time");
            "; the server's --query-timeout-ms bounds it: narrow the pattern or add LIMIT".to_string()
        }
        CypherError::MemoryLimit { .. } => {
            details["budget"] = json!("memory");
            "; the server's --max-query-memory-mb bounds it: match fewer rows (labels, property filters, LIMIT) or build smaller values".to_string()
        }
        CypherError::MemoryBusy { .. } => {
            details["budget"] = json!("memory_pool");
            "; the server's --query-memory-pool-mb bounds concurrent queries together".to_string()
        }
        CypherError::Graph(_) => "; check --db / NAVEGADOR_DB, or re-index the repository".to_string(),
        _ => String::new(),
    };
    ToolError { message: format!("{e}{fix}"), details: Some(details) }
}

/// Store failures with the fix spelled out.
pub(crate) fn store_error(e: StoreError) -> ToolError {
    let fix = match &e {
        StoreError::Damaged { .. } => "; over MCP: call the `ingest` tool with clear=true",
        StoreError::Sql(s) | StoreError::Open { source: s, .. } => {
            let t = s.to_string();
            if t.contains("locked") || t.contains("busy") {
                "; the graph is locked by a writer, retry in a moment"
            } else if t.contains("not a database") || t.contains("malformed") || t.contains("corrupt") {
                "; the file is damaged: delete it and re-index (`navegador ingest --clear`, or the `ingest` tool with clear=true)"
            } else {
                "; check --db / NAVEGADOR_DB, or re-index the repository"
            }
        }
        StoreError::Connect { .. } | StoreError::Postgres(_) => {
            "; check that the PostgreSQL server is up and that the URL in --db / NAVEGADOR_DB (user, password, database) is right"
        }
        _ => "",
    };
    ToolError::msg(format!("{e}{fix}"))
}

const CONTEXT_DESC: &str = "A file's symbols (one line each, with signature), imports, importers.";
const FUNCTION_DESC: &str = "A function's callers, callees (to depth), decorators, references.";
const CLASS_DESC: &str = "A class's bases, subclasses, implementations, members, references.";
const EXPLAIN_DESC: &str = "Any node (code, file, concept, rule, decision) with its relations.";
const BLAST_DESC: &str = "What a change to a node could break: dependents by distance and kind, tests, owners.";
const CHANGES_DESC: &str = "What a diff touches (working tree vs HEAD, staged, a range or a patch): changed symbols, dependents, owners, rules, tests, risk.";
const SEARCH_DESC: &str = "Search names (identifier words) and docstrings; docs/all add other layers.";
const QUERY_DESC: &str = "Run openCypher; rows as objects. Writes in one transaction, refused read-only.";
const RATIONALE_DESC: &str = "Decisions and rules governing a code node, nearest first.";
const OWNERS_DESC: &str = "People and domains owning a code node, nearest first.";
const SEARCH_KNOWLEDGE_DESC: &str = "Search concepts, rules, decisions, wiki pages, domains.";
const INGEST_DESC: &str = "Index a repository (incremental), inside the workspace root.";

/// The tools of this server, in the order `tools/list` shows them. Their output schemas
/// are outlined (an object; `docs/mcp.md` documents the fields) and
/// their flags carry no `default: false`: every session pays for `tools/list`, and the
/// answers show their shape anyway.
/// The `changes` answer for the served workspace.
pub fn changes_answer(store: &Store, p: ChangesParams, server: &NavegadorServer) -> Result<changes::ChangesReport, ToolError> {
    let source = match (p.diff, p.range) {
        (Some(_), Some(_)) => return Err(ToolError::msg("pass `diff` or `range`, not both")),
        (Some(d), None) => changes::Source::Patch(d),
        (None, Some(r)) if !p.staged && p.base.is_none() => changes::Source::Range(r),
        (None, Some(_)) => return Err(ToolError::msg("a `range` names both sides; drop `staged` and `base`, or drop `range`")),
        (None, None) if p.staged => changes::Source::Staged { base: p.base },
        (None, None) => changes::Source::WorkingTree { base: p.base },
    };
    let limits = server.options().limits;
    let mut notes = Vec::new();
    let limit = match p.limit {
        None => 20,
        Some(l) if l < 1 => {
            notes.push(format!("limit {l} raised to 1"));
            1
        }
        Some(l) if l as usize > limits.max_limit => {
            notes.push(format!("limit {l} clamped to {}", limits.max_limit));
            limits.max_limit
        }
        Some(l) => l as usize,
    };
    let opts = changes::ChangesOptions {
        depth: p.depth.clamp(1, limits.max_depth as i64),
        limit,
        offset: p.offset.unwrap_or(0).max(0) as usize,
        ..changes::ChangesOptions::default()
    };
    let root = server.options().workspace_root.clone();
    match changes::changes(store, &root, &source, &opts, &limits) {
        Ok(mut r) => {
            r.notes.extend(notes);
            Ok(r)
        }
        Err(changes::ChangesFailure::Analysis(e)) => Err(e.into()),
        Err(changes::ChangesFailure::Change(e)) => Err(ToolError::msg(e.to_string().replace("`navegador changes -`", "the `diff` argument"))),
    }
}

pub fn builtin_tools() -> Vec<ToolDef> {
    let mut tools = vec![
        ToolDef::new::<IngestParams, IngestionResult, _, _>("ingest", INGEST_DESC, false, ingest),
        ToolDef::read::<ContextParams, ContextBundle, _>("context", CONTEXT_DESC, |store, p, server| {
            let rel = paths::relative_file(&server.options().workspace_root, &p.file).map_err(ToolError::msg)?;
            let opts = analysis::Options { full: p.full, ..sourced(server, p.list.options(1), p.include_source) };
            let b = analysis::context(store, &rel, &opts, &server.options().limits)?;
            let mut reply = Reply::json(&b);
            if p.format == Format::Markdown {
                reply.text = Some(analysis::context_markdown(store, &b)?);
            }
            Ok(reply)
        }),
        ToolDef::read::<FunctionParams, ContextBundle, _>("function", FUNCTION_DESC, |store, p, server| {
            let file = file_arg(server, p.node.file.as_deref())?;
            let target = p.node.target(file.as_deref());
            let opts = sourced(server, p.list.options(p.depth), p.include_source);
            Ok(Reply::json(&analysis::function(store, &target, &opts, &server.options().limits)?))
        }),
        ToolDef::read::<NodeParams, ContextBundle, _>("class", CLASS_DESC, |store, p, server| {
            let file = file_arg(server, p.node.file.as_deref())?;
            let target = p.node.target(file.as_deref());
            let opts = sourced(server, p.list.options(1), p.include_source);
            Ok(Reply::json(&analysis::class(store, &target, &opts, &server.options().limits)?))
        }),
        ToolDef::read::<NodeParams, ContextBundle, _>("explain", EXPLAIN_DESC, |store, p, server| {
            let file = file_arg(server, p.node.file.as_deref())?;
            let target = p.node.target(file.as_deref());
            let opts = sourced(server, p.list.options(1), p.include_source);
            Ok(Reply::json(&analysis::explain(store, &target, &opts, &server.options().limits)?))
        }),
        ToolDef::read::<BlastRadiusParams, BlastRadius, _>("blast_radius", BLAST_DESC, |store, p, server| {
            let file = file_arg(server, p.node.file.as_deref())?;
            let target = p.node.target(file.as_deref());
            let opts = analysis::Options {
                exclude_tests: p.exclude_tests,
                include_imports: p.include_imports,
                paths: p.paths,
                ..p.list.options(p.depth)
            };
            Ok(Reply::json(&analysis::blast_radius(store, &target, &opts, &server.options().limits)?))
        }),
        ToolDef::read::<ChangesParams, changes::ChangesReport, _>("changes", CHANGES_DESC, |store, p, server| {
            Ok(Reply::json(&changes_answer(store, p, server)?))
        }),
        ToolDef::read::<SearchParams, SearchResults, _>("search", SEARCH_DESC, |store, p, _| {
            let layers = if p.all {
                SearchLayers::All
            } else if p.docs {
                SearchLayers::CodeAndDocs
            } else {
                SearchLayers::Code
            };
            let ask = SearchAsk { limit: p.limit, offset: p.offset, exclude_tests: p.exclude_tests };
            Ok(Reply::json(&analysis::search(store, &p.query, layers, &ask)?))
        }),
        ToolDef::new::<QueryParams, QueryAnswer, _, _>("query", QUERY_DESC, false, query),
        ToolDef::read::<RationaleParams, RationaleAnswer, _>("get_rationale", RATIONALE_DESC, |store, p, server| {
            let file = file_arg(server, p.file.as_deref())?;
            Ok(Reply::json(&analysis::get_rationale(store, &p.name, file.as_deref())?))
        }),
        ToolDef::read::<OwnersParams, OwnersAnswer, _>("find_owners", OWNERS_DESC, |store, p, server| {
            let file = file_arg(server, p.file.as_deref())?;
            Ok(Reply::json(&analysis::find_owners(store, &p.name, file.as_deref())?))
        }),
        ToolDef::read::<SearchKnowledgeParams, SearchResults, _>("search_knowledge", SEARCH_KNOWLEDGE_DESC, |store, p, _| {
            let ask = SearchAsk { limit: p.limit, ..Default::default() };
            Ok(Reply::json(&analysis::search(store, &p.query, SearchLayers::Knowledge, &ask)?))
        }),
    ];
    for t in &mut tools {
        if let Some(out) = t.tool.output_schema.as_mut() {
            *out = Arc::new(schema::outline(out));
        }
        let mut input = (*t.tool.input_schema).clone();
        schema::lean_flags(&mut input);
        t.tool.input_schema = Arc::new(input);
    }
    tools
}

/// Options that read source text from the workspace when asked.
fn sourced(server: &NavegadorServer, opts: analysis::Options, include_source: bool) -> analysis::Options {
    analysis::Options { include_source, source_root: Some(server.options().workspace_root.clone()), ..opts }
}

/// An optional `file` disambiguation argument, made workspace-relative.
fn file_arg(server: &NavegadorServer, file: Option<&str>) -> Result<Option<String>, ToolError> {
    match file.map(str::trim).filter(|f| !f.is_empty()) {
        None => Ok(None),
        Some(f) => paths::relative_file(&server.options().workspace_root, f).map(Some).map_err(ToolError::msg),
    }
}

/// Most rows one `query` answer carries (the answer says when rows were dropped).
pub const QUERY_MAX_ROWS: usize = 1000;

/// `query`: reads on a pooled read-only connection; a query with a side effect (on a
/// writable server) on a read-write connection, one writer at a time, in one transaction.
/// Read-only mode and the complexity limit are enforced by the engine on the parsed query.
async fn query(call: Call, p: QueryParams) -> CallToolResult {
    // The time budget counts from the request's arrival, waits included.
    let started = std::time::Instant::now();
    let server = call.server.clone();
    let opts = server.options();
    let (cancel, watcher) = call.cancel_flag();
    let limits = QueryLimits {
        read_only: opts.read_only,
        max_complexity: opts.max_query_complexity,
        timeout: opts.query_budget.timeout,
        // The engine's deadline comes early by the time writing and sending the answer
        // takes (5% of the budget, at most 250 ms): the client has it within the budget.
        started: Some({
            let allowance = (opts.query_budget.timeout / 20).min(std::time::Duration::from_millis(250));
            started.checked_sub(allowance).unwrap_or(started)
        }),
        max_memory: opts.query_budget.memory,
        memory_pool: Some(server.query_memory().clone()),
        max_rows: QUERY_MAX_ROWS,
        max_answer_bytes: opts.query_budget.answer_bytes,
        cancel: Some(cancel),
    };
    let writes = !opts.read_only && !analysis::query_is_read_only(&p.cypher);
    let check = server.clone();
    if let Ok(Err(e)) = tokio::task::spawn_blocking(move || catch_up(&check)).await {
        watcher.abort();
        return e.into();
    }
    let result = if writes {
        let _writer = server.ingest_lock().lock().await;
        let db = opts.db_path.clone();
        tokio::task::spawn_blocking(move || -> Result<Reply, ToolError> {
            if !navegador_store::graph_may_exist(&db) {
                return Err(ToolError::msg(format!(
                    "no graph at {}: call the `ingest` tool with the repository path first",
                    navegador_store::display_location(&db)
                )));
            }
            let mut store = Store::open(&db).map_err(store_error)?;
            Ok(Reply::json(&analysis::query_write(&mut store, &p.cypher, &p.params, &limits)?))
        })
        .await
    } else {
        let server = server.clone();
        tokio::task::spawn_blocking(move || {
            server.with_reader(|store| Ok(Reply::json(&analysis::query_read(store, &p.cypher, &p.params, &limits)?)))
        })
        .await
    };
    watcher.abort();
    // Memory a large query freed goes back to the system while the answer travels.
    let pool = call.server.query_memory().clone();
    tokio::task::spawn_blocking(move || pool.release_if_used());
    match result {
        Ok(r) => outcome(r),
        Err(e) => ToolError::msg(format!("internal error in `query`: {e}; the server keeps serving, retry or report it")).into(),
    }
}

async fn ingest(call: Call, p: IngestParams) -> CallToolResult {
    let server = call.server.clone();
    let opts = server.options();
    if opts.read_only {
        return ToolError::msg(
            "ingest is disabled: this server runs read-only (--read-only); index with `navegador ingest PATH` \
             from a shell, or restart the server without --read-only",
        )
        .into();
    }
    let root = match paths::dir_inside(&opts.workspace_root, &p.path) {
        Ok(r) => r,
        Err(m) => return ToolError::msg(m).into(),
    };
    if !root.is_dir() {
        return ToolError::msg(format!(
            "{} is a file; ingest indexes a directory (incrementally: unchanged files are not re-parsed), pass the repository root",
            p.path
        ))
        .into();
    }
    // One writer at a time; readers keep being served meanwhile.
    let _writer = server.ingest_lock().lock().await;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(f64, String)>();
    let forward = call.progress.clone().map(|sink| {
        tokio::spawn(async move {
            while let Some((progress, message)) = rx.recv().await {
                let _ = sink
                    .peer
                    .notify_progress(ProgressNotificationParam::new(sink.token.clone(), progress).with_message(message))
                    .await;
            }
        })
    });
    let (cancel, watcher) = call.cancel_flag();
    let db = opts.db_path.clone();
    let clear = p.clear;
    let progress = ChannelProgress { tx: call.progress.is_some().then_some(tx), state: Mutex::new((String::new(), 0, 0)), done: AtomicU64::new(0) };
    let run = tokio::task::spawn_blocking(move || -> Result<IngestionResult, ToolError> {
        if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| ToolError::msg(format!("cannot create {}: {e}", dir.display())))?;
        }
        let mut store = if clear {
            let (store, aside) = Store::open_for_rebuild(&db).map_err(store_error)?;
            if let Some(aside) = aside {
                tracing::warn!("{} was damaged; moved it to {} and rebuilding the graph", db.display(), aside.display());
            }
            store
        } else {
            Store::open(&db).map_err(store_error)?
        };
        let cfg = IngestConfig { clear, ..Default::default() };
        let r = analysis::ingest(&root, &mut store, &cfg, &progress, Some(&cancel))?;
        drop(progress);
        Ok(r)
    });
    let result = run.await;
    watcher.abort();
    if let Some(f) = forward {
        let _ = f.await;
    }
    match result {
        Ok(Ok(r)) => Reply::json(&r).into(),
        Ok(Err(e)) => e.into(),
        Err(e) => ToolError::msg(format!("internal error during ingest: {e}; the previous graph is unchanged")).into(),
    }
}

/// Ingest progress as MCP progress notifications: a monotonic count of items done across
/// phases, and a message naming the phase (`parsing 120/400`). At most ~50 per phase.
struct ChannelProgress {
    tx: Option<tokio::sync::mpsc::UnboundedSender<(f64, String)>>,
    /// (phase, total, done in phase)
    state: Mutex<(String, u64, u64)>,
    done: AtomicU64,
}

impl Progress for ChannelProgress {
    fn phase(&self, name: &str, total: u64) {
        let Some(tx) = &self.tx else { return };
        let mut s = self.state.lock().unwrap();
        *s = (name.to_string(), total, 0);
        let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        let msg = if total > 0 { format!("{name} 0/{total}") } else { name.to_string() };
        let _ = tx.send((n as f64, msg));
    }

    fn advance(&self, n: u64) {
        let Some(tx) = &self.tx else { return };
        let mut s = self.state.lock().unwrap();
        let before = s.2;
        s.2 += n;
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        let step = (s.1 / 50).max(1);
        if before / step != s.2 / step || s.2 == s.1 {
            let msg = if s.1 > 0 { format!("{} {}/{}", s.0, s.2, s.1) } else { format!("{} {}", s.0, s.2) };
            let _ = tx.send((done as f64, msg));
        }
    }
}
