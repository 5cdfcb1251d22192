//! Errors of every stage, with the position and a caret rendering for syntax errors.

use navegador_graph::GraphError;

/// A position in the query text (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl Position {
    pub fn of(text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let before = &text[..floor_char(text, offset)];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Position {
            offset,
            line,
            column,
        }
    }
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Renders the line holding `offset` with a caret under the column.
pub fn caret(text: &str, offset: usize) -> String {
    let pos = Position::of(text, offset);
    let line = text.lines().nth(pos.line - 1).unwrap_or("");
    format!("{line}\n{}^", " ".repeat(pos.column - 1))
}

/// Any failure of parsing, checking, planning or running a query.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum CypherError {
    /// The text is not valid Cypher (openCypher `SyntaxError`, detected while parsing).
    #[error("syntax error at line {}, column {}: {message}\n{rendered}", pos.line, pos.column)]
    Syntax {
        code: &'static str,
        message: String,
        pos: Position,
        rendered: String,
    },
    /// The query parses but is not meaningful (openCypher `SyntaxError` at compile time).
    #[error("invalid query ({code}): {message}")]
    Semantic { code: &'static str, message: String },
    /// A value had the wrong type (openCypher `TypeError`).
    #[error("type error ({code}): {message}")]
    Type { code: &'static str, message: String },
    /// A function got an argument outside its domain (openCypher `ArgumentError`).
    #[error("argument error ({code}): {message}")]
    Argument { code: &'static str, message: String },
    /// A runtime semantic failure (openCypher `SemanticError`).
    #[error("semantic error ({code}): {message}")]
    Runtime { code: &'static str, message: String },
    /// A deleted entity was accessed (openCypher `EntityNotFound`).
    #[error("entity not found: {message}")]
    EntityNotFound { message: String },
    /// A delete left a dangling relationship (openCypher `ConstraintVerificationFailed`).
    #[error("constraint violated: {message}")]
    Constraint { message: String },
    /// A read-only query contained a side effect.
    #[error("read-only query refused: {clause} is not allowed")]
    ReadOnly { clause: String },
    /// The estimated cost exceeded `QueryOptions::max_complexity`.
    #[error(
        "query too complex: estimated {estimate} rows at {operator} exceeds the limit of {limit}"
    )]
    TooComplex {
        estimate: u64,
        operator: String,
        limit: u64,
    },
    #[error("query exceeded its time budget of {0:?}")]
    Timeout(std::time::Duration),
    /// The query would have held more memory than `QueryOptions::max_memory`.
    #[error(
        "query stopped at its memory budget of {} in {operator}",
        crate::memory::human(*limit)
    )]
    MemoryLimit { limit: u64, operator: String },
    /// The memory shared by the concurrent queries of a server (`QueryOptions::memory_pool`)
    /// was in use by others.
    #[error(
        "query stopped in {operator}: the {} of memory shared by concurrent queries is in use by other queries; retry when they finish",
        crate::memory::human(*pool)
    )]
    MemoryBusy { pool: u64, operator: String },
    #[error("query cancelled")]
    Cancelled,
    /// A procedure that is not registered (openCypher `ProcedureError`).
    #[error("procedure {name} is not available")]
    Procedure { name: String },
    #[error("unsupported: {0}")]
    Unsupported(String),
    #[error(transparent)]
    Graph(#[from] GraphError),
}

impl CypherError {
    /// The openCypher error class (`SyntaxError`, `TypeError`, ...) used by the TCK.
    pub fn class(&self) -> &'static str {
        match self {
            CypherError::Syntax { .. } | CypherError::Semantic { .. } => "SyntaxError",
            CypherError::Type { .. } => "TypeError",
            CypherError::Argument { .. } => "ArgumentError",
            CypherError::Runtime { .. } => "SemanticError",
            CypherError::EntityNotFound { .. } => "EntityNotFound",
            CypherError::Constraint { .. } => "ConstraintVerificationFailed",
            CypherError::Procedure { .. } => "ProcedureError",
            CypherError::Graph(GraphError::NodeHasEdges(_)) => "ConstraintVerificationFailed",
            CypherError::Graph(GraphError::InvalidProperty { .. }) => "TypeError",
            _ => "Error",
        }
    }

    pub(crate) fn semantic(code: &'static str, message: impl Into<String>) -> Self {
        CypherError::Semantic {
            code,
            message: message.into(),
        }
    }

    pub(crate) fn type_err(message: impl Into<String>) -> Self {
        CypherError::Type {
            code: "InvalidArgumentType",
            message: message.into(),
        }
    }

    pub(crate) fn arg(code: &'static str, message: impl Into<String>) -> Self {
        CypherError::Argument {
            code,
            message: message.into(),
        }
    }
}

pub type Result<T, E = CypherError> = std::result::Result<T, E>;

pub(crate) fn syntax(
    text: &str,
    offset: usize,
    code: &'static str,
    message: String,
) -> CypherError {
    CypherError::Syntax {
        code,
        message,
        pos: Position::of(text, offset),
        rendered: caret(text, offset),
    }
}
