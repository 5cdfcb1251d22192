//! The API boundary of navegador: questions about the graph answered as plain structs
//! (context bundles, call graphs, class hierarchies, blast radius, ingest results).
//!
//! Every entry point takes a [`Store`] (a read-only connection is enough, except for
//! [`ingest`]) and returns a typed answer or an [`AnalysisError`] whose message names the
//! fix. Nothing here knows MCP, JSON-RPC or HTTP: the server crate wraps these answers in
//! its envelopes. Answers never guess: a name that matches several nodes is an
//! [`AnalysisError::Ambiguous`] listing the candidates, and call-graph answers report the
//! reference sites the graph could not resolve.

mod blast;
mod bundle;
mod ingest;
mod knowledge;
mod lookup;
mod markdown;
mod types;

pub use blast::blast_radius;
pub use bundle::{class, context, explain, function};
pub use ingest::ingest;
pub use knowledge::{
    find_owners, get_rationale, query_is_read_only, query_read, query_write, search, GovernedItem, OwnerItem,
    OwnersAnswer, QueryAnswer, QueryLimits, QueryStatsOut, RationaleAnswer, RationaleItem, SearchItem, SearchLayers,
    SearchResults, MAX_SEARCH_LIMIT,
};
pub use navegador_cypher::memory::{MemoryPool, DEFAULT_QUERY_MEMORY};
pub use navegador_cypher::CypherError;
pub use markdown::bundle_markdown;
pub use types::{
    BlastRadius, Candidate, ContextBundle, ContextEdge, ContextNode, Dependent, Diagnostic, Hop, IngestionResult,
    Metadata, SkippedFile, UnresolvedSite,
};

use navegador_store::StoreError;

/// Bounds that keep one answer small enough for a model's context and fast to compute.
/// Arguments above a bound are clamped, and the answer says so in its notes.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Deepest traversal (`depth` of `function` and `blast_radius`).
    pub max_depth: u32,
    /// Most nodes in one answer.
    pub max_nodes: usize,
    /// Most edges in one answer.
    pub max_edges: usize,
    /// Most unresolved sites listed (all are counted).
    pub max_sites: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: 10, max_nodes: 500, max_edges: 2000, max_sites: 25 }
    }
}

/// Why a question could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error("`{field}` must not be empty")]
    Empty { field: &'static str },
    #[error("{}", not_found_message(what, name, file.as_deref(), suggestions))]
    NotFound { what: &'static str, name: String, file: Option<String>, suggestions: Vec<String> },
    #[error(
        "`{name}` matches {} nodes; pass `file` (one of the candidates' file_path) or a qualified name to pick one",
        candidates.len()
    )]
    Ambiguous { name: String, candidates: Vec<Candidate> },
    #[error("{path} is not in the graph{}", if suggestions.is_empty() { "; pass a workspace-relative path of an indexed file, or ingest the repository first".to_string() } else { format!("; did you mean {}?", suggestions.join(", ")) })]
    FileNotIndexed { path: String, suggestions: Vec<String> },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Index(#[from] navegador_index::IndexError),
    /// A knowledge-layer failure (message from `navegador-knowledge`).
    #[error("{0}")]
    Knowledge(String),
    /// A Cypher query failed: syntax (with line, column and a caret), read-only refusal,
    /// complexity limit, timeout, type errors.
    #[error("{0}")]
    Query(navegador_cypher::CypherError),
    /// A query's first row is larger than one answer may be.
    #[error(
        "the first row alone carries {} of values, more than the {} one answer may; return smaller values (size(), substring(), keys(), fewer columns)",
        navegador_cypher::memory::human(*bytes as u64),
        navegador_cypher::memory::human(*limit as u64)
    )]
    AnswerTooLarge { bytes: usize, limit: usize },
}

fn not_found_message(what: &str, name: &str, file: Option<&str>, suggestions: &[String]) -> String {
    let mut m = format!("no {what} named `{name}`");
    if let Some(f) = file {
        m.push_str(&format!(" in {f}"));
    }
    m.push_str(" in the graph");
    if suggestions.is_empty() {
        m.push_str("; check the spelling, drop `file`, or re-ingest if the code changed");
    } else {
        m.push_str(&format!("; did you mean {}?", suggestions.join(", ")));
    }
    m
}

pub type Result<T, E = AnalysisError> = std::result::Result<T, E>;

/// Clamps `depth` to `1..=max`, noting any change.
fn clamp_depth(depth: u32, max: u32, notes: &mut Vec<String>) -> u32 {
    if depth == 0 {
        notes.push("depth 0 raised to 1".into());
        1
    } else if depth > max {
        notes.push(format!("depth {depth} clamped to {max}"));
        max
    } else {
        depth
    }
}
