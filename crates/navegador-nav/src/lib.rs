//! The `code.*` navigation tools (`navigation-agent-mcp.md`, made exact by
//! `code-tools-contract.md`): `find_symbol`, `inspect_tree`, `list_endpoints`,
//! `search_text`, `trace_symbol`, `trace_callers`, and ours, `detect_changes` (the impact
//! of a diff, from `navegador-analysis`).
//!
//! This crate owns their contract — argument checking, the path jail, the envelope
//! `{tool, status, summary, data, errors, meta}`, the published schemas — and answers them:
//! symbols, calls and endpoints from the graph (`navegador-store`), text and the file tree
//! from the filesystem (`navegador-search`). It knows nothing of MCP: [`call`] takes the
//! arguments as a JSON object and returns the envelope, and `navegador-mcp` publishes
//! [`tool_specs`] and routes calls here.

pub mod args;
mod changes;
pub mod envelope;
mod endpoints;
mod files;
mod symbols;
mod trace;
pub mod schemas;
pub mod workspace;

use navegador_store::Store;
use serde_json::{json, Map, Value};

pub use envelope::{code, Envelope, ErrorItem, Meta, Status};
pub use schemas::{tool_specs, NameStyle, ToolSpec};
pub use workspace::Workspace;

use args::Args;

/// What a call sees: the workspace, the graph (absent until the first index commits) and
/// whether that first index is finished.
pub struct Context<'a> {
    pub workspace: &'a Workspace,
    pub store: Option<&'a Store>,
    /// False while the first index of the workspace is being built: graph answers are then
    /// `partial` with an `INDEX_INCOMPLETE` error item.
    pub index_complete: bool,
}

/// The dotted names of the tools: the original's six, then ours.
pub const TOOLS: [&str; 7] = [
    "code.inspect_tree",
    "code.list_endpoints",
    "code.find_symbol",
    "code.search_text",
    "code.trace_symbol",
    "code.trace_callers",
    "code.detect_changes",
];

/// True for the tools answered from the graph (they need a fresh index).
pub fn uses_graph(tool: &str) -> bool {
    matches!(canonical(tool), Some("code.find_symbol" | "code.list_endpoints" | "code.trace_symbol" | "code.trace_callers" | "code.detect_changes"))
}

/// The dotted name of a tool given in either spelling.
pub fn canonical(tool: &str) -> Option<&'static str> {
    TOOLS.iter().copied().find(|t| *t == tool || t.replace('.', "_") == tool)
}

/// Answers one call. `tool` may be dotted or underscored; the envelope names it dotted.
pub fn call(tool: &str, args: &Map<String, Value>, cx: &Context<'_>) -> Envelope {
    // A trace runs its many queries in one read transaction: one snapshot for the whole
    // answer, and the WAL read lock taken once instead of once per statement. (The
    // one-statement answers skip it: BEGIN/COMMIT would cost more than it saves.)
    let traces = matches!(canonical(tool), Some("code.trace_callers" | "code.trace_symbol"));
    let _snapshot = if traces { cx.store.and_then(Store::snapshot) } else { None };
    let mut envelope = match canonical(tool) {
        Some("code.find_symbol") => symbols::find_symbol(args, cx),
        Some("code.inspect_tree") => files::inspect_tree(args, cx),
        Some("code.list_endpoints") => endpoints::list_endpoints(args, cx),
        Some("code.search_text") => files::search_text(args, cx),
        Some("code.trace_symbol") => trace::trace_symbol(args, cx),
        Some("code.trace_callers") => trace::trace_callers(args, cx),
        Some("code.detect_changes") => changes::detect_changes(args, cx),
        _ => Envelope::error(
            tool,
            "Unknown tool.",
            ErrorItem::new(code::INVALID_INPUT, format!("There is no tool '{tool}'; the tools are {}.", TOOLS.join(", "))),
            json!({}),
            Meta::default(),
        ),
    };
    // While the first index builds, every graph answer says so, errors included (a symbol
    // "not found" may just not be indexed yet); a fault of the arguments does not depend on it.
    let argument_fault = envelope.errors.first().is_some_and(|e| {
        matches!(e.code, code::INVALID_INPUT | code::PATH_OUTSIDE_WORKSPACE | code::FILE_NOT_FOUND)
    });
    if uses_graph(tool) && !cx.index_complete && !argument_fault && !envelope.errors.iter().any(|e| e.code == code::INDEX_INCOMPLETE) {
        envelope.errors.push(ErrorItem::index_incomplete());
        if envelope.status == Status::Ok {
            envelope.status = Status::Partial;
        }
    }
    envelope
}

/// A whole-call failure (the index cannot be read, ...) as the tool's `error` envelope,
/// with the tool's data shape, so a client checking the output schema accepts it.
pub fn failure(tool: &str, args: &Map<String, Value>, summary: &str, error: ErrorItem) -> Envelope {
    let s = |k: &str| args.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    let (name, data) = match canonical(tool) {
        Some(t @ "code.find_symbol") => (t, symbols::empty()),
        Some(t @ "code.list_endpoints") => (t, endpoints::empty()),
        Some(t @ "code.search_text") => (t, files::search_empty()),
        Some(t @ "code.inspect_tree") => (t, files::tree_empty(".")),
        Some(t @ "code.trace_symbol") => (t, trace::symbol_empty(&s("path"), &s("symbol"))),
        Some(t @ "code.trace_callers") => (t, trace::callers_empty(&s("path"), &s("symbol"))),
        Some(t @ "code.detect_changes") => (t, changes::empty()),
        _ => (tool, json!({})),
    };
    let meta = Meta { query: args.clone(), ..Meta::default() };
    Envelope::error(name, summary, error, data, meta)
}

/// What every tool does before its own work: finish argument checks, resolve `path`.
pub(crate) struct Start<'a> {
    pub tool: &'static str,
    pub meta: Meta,
    /// The tool's data shape with nothing in it (for error answers).
    pub empty: Value,
    pub args: Args<'a>,
}

impl<'a> Start<'a> {
    pub fn new(tool: &'static str, raw: &'a Map<String, Value>, empty: Value) -> Self {
        Start { tool, meta: Meta::default(), empty, args: Args::new(raw) }
    }

    /// The `INVALID_INPUT` answer, if any argument was wrong.
    pub fn check(&mut self) -> Result<(), Envelope> {
        self.meta.query = self.args.query.clone();
        self.args.finish().map_err(|e| self.fail("Request validation failed.", e))
    }

    /// `check` then `scope`: the common start of the tools that take an optional `path`.
    pub fn ready(&mut self, ws: &Workspace, path: Option<&str>) -> Result<workspace::Resolved, Envelope> {
        self.check()?;
        self.scope(ws, path)
    }

    /// Resolves a path argument (or the root when absent) and records it in `meta`.
    pub fn scope(&mut self, ws: &Workspace, path: Option<&str>) -> Result<workspace::Resolved, Envelope> {
        let r = match path {
            None => ws.root_scope(),
            Some(p) => ws.resolve(p).map_err(|e| {
                let summary = if e.code == code::FILE_NOT_FOUND { "Path not found." } else { "Path validation failed." };
                self.fail(summary, e)
            })?,
        };
        self.meta.resolved_path = Some(r.rel.clone());
        Ok(r)
    }

    pub fn fail(&self, summary: &str, e: ErrorItem) -> Envelope {
        Envelope::error(self.tool, summary, e, self.empty.clone(), self.meta.clone())
    }

    pub fn detection(&mut self, language: Option<&str>, framework: Option<&str>) {
        self.meta.detection.insert("effectiveLanguage".into(), json!(workspace::effective_language(language, framework)));
        self.meta.detection.insert("framework".into(), json!(framework));
    }

    pub fn count(&mut self, k: &str, v: Option<usize>) {
        self.meta.counts.insert(k.into(), json!(v));
    }
}

/// The error item graph answers carry while the first index is being built.
pub(crate) fn index_notes(cx: &Context<'_>) -> Vec<ErrorItem> {
    if cx.index_complete {
        Vec::new()
    } else {
        vec![ErrorItem::index_incomplete()]
    }
}

/// A store error as an envelope error item.
pub(crate) fn backend_error(e: impl std::fmt::Display) -> ErrorItem {
    ErrorItem::new(code::BACKEND_EXECUTION_FAILED, format!("Reading the index failed: {e}."))
        .suggestion("Retry; if it persists, re-index the workspace (`navegador ingest --clear`).")
        .retryable()
}
