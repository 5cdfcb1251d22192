//! navegador's MCP server: the tools of `navegador-mcp.md` over stdio and streamable HTTP,
//! on the official Rust SDK (`rmcp`).
//!
//! This crate is the only one that knows MCP: it turns the analysis layer's plain answers
//! into tool results (structured JSON plus text), publishes input and output schemas and
//! annotations, and maps failures to tool errors that name the fix. Each read opens its own
//! read-only SQLite connection, so many sessions are served at once, also during an ingest
//! (WAL). Logs go to stderr only: on stdio, stdout carries JSON-RPC and nothing else.
//!
//! The spec's `create_mcp_server(store, db_path, read_only, max_query_complexity)` is
//! [`create_mcp_server`] with [`ServerOptions`]; a database path replaces the `store`
//! argument because every request opens its own connection. To embed navegador in a
//! larger server, register more tools before running it:
//!
//! ```no_run
//! use navegador_mcp::{create_mcp_server, Reply, ServerOptions, ToolDef};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct EchoParams {
//!     /// Text to send back
//!     text: String,
//! }
//! #[derive(serde::Serialize, schemars::JsonSchema)]
//! struct Echoed {
//!     text: String,
//! }
//!
//! # async fn run() -> std::io::Result<()> {
//! let server = create_mcp_server(ServerOptions::new(".", ".navegador/graph.db"));
//! server.add_tool(ToolDef::new::<EchoParams, Echoed, _, _>("echo", "Send text back", true, |_call, p: EchoParams| async move {
//!     Reply::json(&Echoed { text: p.text }).into()
//! }));
//! assert!(server.tools().iter().any(|t| t.name == "echo"));
//! server.serve_stdio().await
//! # }
//! ```

mod code_tools;
mod http;
mod jsonrpc;
mod live;
mod params;
mod paths;
pub mod schema;
mod stdio;
mod tools;

pub use code_tools::code_tools;
pub use http::{serve_http, serve_http_with, shutdown_signal, HttpOptions, Mount};
pub use live::{Freshness, LiveIndex};
pub use navegador_nav::NameStyle;
pub use navegador_analysis::Limits;
pub use tools::{builtin_tools, Call, Handler, ProgressSink, Reply, ToolDef, ToolError};

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use navegador_store::Store;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

/// How the server is set up (the spec's `create_mcp_server` arguments, and the bounds).
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// The graph database (`.navegador/graph.db` under the workspace root by default).
    pub db_path: PathBuf,
    /// The only tree the server reads or indexes; tool paths are relative to it.
    pub workspace_root: PathBuf,
    /// Refuse `ingest` and any Cypher that writes (`query` then accepts only reads).
    pub read_only: bool,
    /// Reject Cypher whose estimated cost exceeds this (0: no limit). Used by `query`.
    pub max_query_complexity: u64,
    /// Time and memory budgets of one `query` call.
    pub query_budget: QueryBudget,
    /// Size bounds of one answer.
    pub limits: Limits,
    /// Serve navegador's 11 tools (`navegador-mcp.md`).
    pub navegador_tools: bool,
    /// Serve the `code.*` navigation tools.
    pub code_tools: bool,
    /// How the `code.*` tools are named (dotted by default).
    pub tool_names: NameStyle,
    /// Index the workspace on start and keep the index fresh (a file watcher; graph
    /// answers re-ingest what changed first). Ignored on a read-only server.
    pub live: bool,
}

impl ServerOptions {
    /// Options for a workspace and a database path, with defaults for the rest. The root
    /// is canonicalised when it exists, so path checks see through symlinks.
    pub fn new(workspace_root: impl AsRef<Path>, db_path: impl AsRef<Path>) -> Self {
        let root = workspace_root.as_ref();
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        let db = db_path.as_ref();
        let db_path = if db.is_absolute() || navegador_store::server_url(db).is_some() { db.to_path_buf() } else { root.join(db) };
        ServerOptions {
            db_path,
            workspace_root: root,
            read_only: false,
            max_query_complexity: 0,
            query_budget: QueryBudget::default(),
            limits: Limits::default(),
            navegador_tools: true,
            code_tools: true,
            tool_names: NameStyle::Dotted,
            live: false,
        }
    }
}

/// What one `query` call may spend. The memory of concurrent calls is shared: together
/// they hold at most `memory_pool` bytes (a call waits for its first chunk, and is refused
/// when it cannot grow), so no mix of queries takes the server down.
#[derive(Debug, Clone)]
pub struct QueryBudget {
    /// Wall clock from the request's arrival to the answer.
    pub timeout: std::time::Duration,
    /// Bytes one query may hold at once.
    pub memory: u64,
    /// Bytes all running queries may hold together.
    pub memory_pool: u64,
    /// Most bytes of values in one answer (rows past it are dropped, the answer says so).
    /// The official MCP SDK refuses HTTP events over 1 MiB, and an answer carries its
    /// values twice (text and structured content).
    pub answer_bytes: usize,
}

impl Default for QueryBudget {
    fn default() -> Self {
        let memory = navegador_analysis::DEFAULT_QUERY_MEMORY;
        QueryBudget {
            timeout: std::time::Duration::from_secs(30),
            memory,
            memory_pool: 4 * memory,
            answer_bytes: 384 << 10,
        }
    }
}

/// Creates the server with navegador's tools registered.
pub fn create_mcp_server(options: ServerOptions) -> NavegadorServer {
    let mut tools = if options.navegador_tools { builtin_tools() } else { Vec::new() };
    if options.code_tools {
        tools.extend(code_tools(options.tool_names));
    }
    if options.read_only {
        // `query` may write on a writable server; a read-only server only runs reads.
        for t in tools.iter_mut().filter(|t| t.tool.name == "query") {
            let a = t.tool.annotations.clone().unwrap_or_default().read_only(true).destructive(false);
            t.tool.annotations = Some(a);
        }
    }
    let ingest_lock = Arc::new(tokio::sync::Mutex::new(()));
    let live = (options.live && !options.read_only)
        .then(|| LiveIndex::start(&options.workspace_root, &options.db_path, ingest_lock.clone()));
    let query_memory = navegador_analysis::MemoryPool::new(options.query_budget.memory_pool);
    NavegadorServer { inner: Arc::new(Inner { options, tools: RwLock::new(tools), ingest_lock, live, query_memory }) }
}

/// The MCP server. Cheap to clone: clones share the tool table and options, so one value
/// serves every HTTP session.
#[derive(Clone)]
pub struct NavegadorServer {
    inner: Arc<Inner>,
}

struct Inner {
    options: ServerOptions,
    tools: RwLock<Vec<ToolDef>>,
    /// One writer at a time: the `ingest` tool, writing Cypher and the live index.
    ingest_lock: Arc<tokio::sync::Mutex<()>>,
    live: Option<Arc<LiveIndex>>,
    /// Memory shared by the `query` calls in progress.
    query_memory: Arc<navegador_analysis::MemoryPool>,
}

impl NavegadorServer {
    pub fn options(&self) -> &ServerOptions {
        &self.inner.options
    }

    /// Registers a tool (replacing one of the same name).
    pub fn add_tool(&self, def: ToolDef) {
        let mut tools = self.inner.tools.write().unwrap();
        match tools.iter_mut().find(|t| t.tool.name == def.tool.name) {
            Some(t) => *t = def,
            None => tools.push(def),
        }
    }

    /// The published tool definitions.
    pub fn tools(&self) -> Vec<Tool> {
        self.inner.tools.read().unwrap().iter().map(|t| t.tool.clone()).collect()
    }

    fn handler(&self, name: &str) -> Option<Handler> {
        self.inner.tools.read().unwrap().iter().find(|t| t.tool.name == name).map(|t| t.handler.clone())
    }

    pub(crate) fn query_memory(&self) -> &Arc<navegador_analysis::MemoryPool> {
        &self.inner.query_memory
    }

    pub(crate) fn ingest_lock(&self) -> &tokio::sync::Mutex<()> {
        &self.inner.ingest_lock
    }

    /// The live index, when this server keeps one.
    pub fn live_index(&self) -> Option<&Arc<LiveIndex>> {
        self.inner.live.as_ref()
    }

    /// Runs `f` on a read-only connection to the graph, in one read snapshot; a missing file names the way to
    /// create it. Connections are kept per blocking thread (a small pool: tokio reuses
    /// those threads) and reopened when the file is replaced (`ingest --clear` after a
    /// schema change deletes it); WAL lets each read see the latest committed ingest.
    pub fn with_reader<T>(&self, f: impl FnOnce(&Store) -> Result<T, ToolError>) -> Result<T, ToolError> {
        thread_local! {
            static READER: std::cell::RefCell<Option<(PathBuf, FileIdentity, Store)>> = const { std::cell::RefCell::new(None) };
        }
        let db = &self.inner.options.db_path;
        let server = navegador_store::server_url(db).is_some();
        let meta = if server { None } else { std::fs::metadata(db).ok() };
        if meta.is_none() && !server {
            let how = if self.inner.options.read_only {
                "run `navegador ingest PATH` from a shell (this server is read-only)"
            } else {
                "call the `ingest` tool with the repository path first"
            };
            return Err(ToolError::msg(format!(
                "no graph at {} yet; {how}, or start the server with --db pointing at an existing graph",
                db.display()
            )));
        }
        // A server has no file to replace: its connection is kept until an answer fails.
        let identity = meta.as_ref().map_or((0, 0), file_identity);
        READER.with(|cell| {
            let mut slot = cell.borrow_mut();
            let fresh = matches!(&*slot, Some((p, id, _)) if p == db && *id == identity);
            if !fresh {
                *slot = None;
                let store = Store::open_read_only(db).map_err(tools::store_error)?;
                *slot = Some((db.clone(), identity, store));
            }
            let (_, _, store) = slot.as_ref().expect("just opened");
            // One read transaction per answer: one snapshot, and SQLite's WAL read lock taken
            // once instead of once per statement (a bundle runs hundreds).
            let out = store.read_snapshot(f);
            if out.is_err() && server {
                *slot = None; // reconnect next time (the server may have restarted)
            }
            out
        })
    }

    /// Answers one tool call outside MCP (the UI's JSON API): the same handler a client's
    /// `tools/call` reaches, with its budgets and the live index caught up first. `code.*`
    /// tools are named dotted and answered whether or not this server publishes them; a
    /// navegador tool this server does not publish is answered by its built-in definition.
    /// `Ok` carries the structured answer (a `code.*` envelope, whatever its `status`),
    /// `Err` a tool error's structured content (`{error, ...details}`).
    pub async fn call_json(&self, name: &str, args: rmcp::model::JsonObject) -> Result<serde_json::Value, serde_json::Value> {
        if navegador_nav::canonical(name).is_some() {
            let (server, tool) = (self.clone(), name.to_string());
            return match tokio::task::spawn_blocking(move || code_tools::answer(&server, &tool, &args)).await {
                Ok(v) => Ok(v),
                Err(e) => Err(serde_json::json!({ "error": format!("internal error in `{name}`: {e}; the server keeps serving, retry") })),
            };
        }
        let handler = match self.handler(name) {
            Some(h) => h,
            None => match builtin().iter().find(|t| t.tool.name == name) {
                Some(t) => t.handler.clone(),
                None => return Err(serde_json::json!({ "error": format!("unknown tool `{name}`") })),
            },
        };
        let call = Call { server: self.clone(), args, progress: None, cancel: tokio_util::sync::CancellationToken::new() };
        let mut result = handler(call).await;
        let failed = result.is_error == Some(true);
        if failed {
            scrub_root(&mut result, &self.inner.options.workspace_root);
        }
        let value = result.structured_content.unwrap_or(serde_json::Value::Null);
        if failed { Err(value) } else { Ok(value) }
    }

    /// Serves over stdin/stdout until the client disconnects. Every request is answered,
    /// also one that is not valid JSON or is too large (`stdio.rs`).
    pub async fn serve_stdio(self) -> std::io::Result<()> {
        let (stdin, stdout) = rmcp::transport::stdio();
        let running = self.serve(stdio::LineTransport::new(stdin, stdout)).await.map_err(std::io::Error::other)?;
        running.waiting().await.map_err(std::io::Error::other)?;
        Ok(())
    }
}

/// The built-in tools, built once (for [`NavegadorServer::call_json`] on a server that does
/// not publish them).
fn builtin() -> &'static [ToolDef] {
    static TOOLS: std::sync::OnceLock<Vec<ToolDef>> = std::sync::OnceLock::new();
    TOOLS.get_or_init(builtin_tools)
}

/// What tells a replaced database file from the one a cached connection has open.
type FileIdentity = (u64, u64);

#[cfg(unix)]
fn file_identity(m: &std::fs::Metadata) -> FileIdentity {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

#[cfg(not(unix))]
fn file_identity(m: &std::fs::Metadata) -> FileIdentity {
    let created = m.created().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as u64);
    (created, 0)
}

impl ServerHandler for NavegadorServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("navegador", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "navegador answers questions about this repository's code graph: `context` (a file), `function`, \
                 `class`, `explain` (any node), `blast_radius` (what breaks if a node changes), `ingest` (re-index). \
                 Names may be bare (`save`) or qualified (`Base.save`); when a name is ambiguous the answer lists \
                 candidates: call again with `file`.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.tools.read().unwrap().iter().find(|t| t.tool.name == name).map(|t| t.tool.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(handler) = self.handler(&request.name) else {
            let names: Vec<String> = self.tools().iter().map(|t| t.name.to_string()).collect();
            return Ok(ToolError::msg(format!(
                "unknown tool `{}`; this server has: {}",
                request.name,
                names.join(", ")
            ))
            .into_result()
            .into());
        };
        let progress = context.meta.get_progress_token().map(|token| ProgressSink { token, peer: context.peer.clone() });
        tracing::debug!(tool = %request.name, "call");
        let call = Call {
            server: self.clone(),
            args: request.arguments.unwrap_or_default(),
            progress,
            cancel: context.ct.clone(),
        };
        let mut result = handler(call).await;
        if result.is_error == Some(true) {
            scrub_root(&mut result, &self.inner.options.workspace_root);
        }
        Ok(result.into())
    }
}

/// Cuts the absolute workspace root out of an error result (its text and structured
/// content): a message names paths relative to the workspace, as answers do.
fn scrub_root(result: &mut rmcp::model::CallToolResult, root: &Path) {
    fn walk(v: &mut serde_json::Value, root: &Path) {
        match v {
            serde_json::Value::String(s) => *s = paths::without_root(s, root),
            serde_json::Value::Array(a) => a.iter_mut().for_each(|x| walk(x, root)),
            serde_json::Value::Object(o) => o.values_mut().for_each(|x| walk(x, root)),
            _ => {}
        }
    }
    for c in &mut result.content {
        if let rmcp::model::ContentBlock::Text(t) = c {
            t.text = paths::without_root(&t.text, root);
        }
    }
    if let Some(s) = &mut result.structured_content {
        walk(s, root);
    }
}

impl ToolError {
    fn into_result(self) -> rmcp::model::CallToolResult {
        self.into()
    }
}
