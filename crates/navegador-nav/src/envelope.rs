//! The envelope every `code.*` tool answers with:
//! `{tool, status, summary, data, errors, meta}` (see `code-tools-contract.md`).

use serde::Serialize;
use serde_json::{json, Map, Value};

/// Stable error codes. New codes may be added; none is ever renamed.
pub mod code {
    pub const INVALID_INPUT: &str = "INVALID_INPUT";
    pub const PATH_OUTSIDE_WORKSPACE: &str = "PATH_OUTSIDE_WORKSPACE";
    pub const FILE_NOT_FOUND: &str = "FILE_NOT_FOUND";
    pub const SYMBOL_NOT_FOUND: &str = "SYMBOL_NOT_FOUND";
    pub const UNSUPPORTED_FILE: &str = "UNSUPPORTED_FILE";
    pub const BACKEND_EXECUTION_FAILED: &str = "BACKEND_EXECUTION_FAILED";
    pub const RESULT_TRUNCATED: &str = "RESULT_TRUNCATED";
    /// Ours: the first index of the workspace is still being built.
    pub const INDEX_INCOMPLETE: &str = "INDEX_INCOMPLETE";
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Partial,
    Error,
}

/// One entry of `errors`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorItem {
    pub code: &'static str,
    pub message: String,
    pub retryable: bool,
    pub suggestion: Option<String>,
    pub target: Option<String>,
    pub details: Map<String, Value>,
}

impl ErrorItem {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        ErrorItem { code, message: message.into(), retryable: false, suggestion: None, target: None, details: Map::new() }
    }
    pub fn suggestion(mut self, s: impl Into<String>) -> Self {
        self.suggestion = Some(s.into());
        self
    }
    pub fn target(mut self, t: impl Into<String>) -> Self {
        self.target = Some(t.into());
        self
    }
    pub fn detail(mut self, k: &str, v: Value) -> Self {
        self.details.insert(k.to_string(), v);
        self
    }
    pub fn retryable(mut self) -> Self {
        self.retryable = true;
        self
    }

    /// `RESULT_TRUNCATED` with `{returned, total, limit}`.
    pub fn truncated(returned: usize, total: Option<usize>, limit: usize) -> Self {
        ErrorItem::new(
            code::RESULT_TRUNCATED,
            match total {
                Some(t) => format!("Returned {returned} of {t} results (limit {limit})."),
                None => format!("Returned the first {returned} results (limit {limit}); the full count is unknown."),
            },
        )
        .suggestion("Increase limit or narrow the path.")
        .detail("returned", json!(returned))
        .detail("total", json!(total))
        .detail("limit", json!(limit))
    }

    /// The first index of the workspace is not finished: answers from the graph may miss things.
    pub fn index_incomplete() -> Self {
        ErrorItem::new(
            code::INDEX_INCOMPLETE,
            "The workspace is still being indexed for the first time; this answer may miss symbols, calls and endpoints.",
        )
        .suggestion("Retry in a few seconds for a complete answer.")
        .retryable()
    }
}

/// `meta` of an envelope.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    pub query: Map<String, Value>,
    pub resolved_path: Option<String>,
    pub truncated: bool,
    pub counts: Map<String, Value>,
    pub detection: Map<String, Value>,
}

/// A whole answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Envelope {
    pub tool: String,
    pub status: Status,
    pub summary: String,
    pub data: Value,
    pub errors: Vec<ErrorItem>,
    pub meta: Meta,
}

impl Envelope {
    /// A successful answer; the status becomes `partial` when `meta.truncated` is set or an
    /// error item says the answer is incomplete.
    pub fn ok(tool: &str, summary: String, data: Value, errors: Vec<ErrorItem>, meta: Meta) -> Self {
        let status = if meta.truncated || !errors.is_empty() { Status::Partial } else { Status::Ok };
        Envelope { tool: tool.to_string(), status, summary, data, errors, meta }
    }

    /// Nothing could be answered; `data` is still the tool's (empty) data shape so that a
    /// client checking the output schema accepts it.
    pub fn error(tool: &str, summary: &str, error: ErrorItem, data: Value, meta: Meta) -> Self {
        Envelope { tool: tool.to_string(), status: Status::Error, summary: summary.to_string(), data, errors: vec![error], meta }
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("an envelope is plain JSON")
    }
}

/// `"s"` when `n` is not one.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
