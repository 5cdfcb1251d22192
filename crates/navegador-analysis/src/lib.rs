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
pub mod changes;
mod decorators;
pub mod export;
mod ingest;
mod knowledge;
mod lookup;
mod markdown;
mod page;
mod source;
mod types;

pub use blast::blast_radius;
pub use bundle::{class, context, explain, function};
pub use ingest::ingest;
pub use knowledge::{
    find_owners, get_rationale, query_is_read_only, query_read, query_write, search, GovernedItem, OwnerItem,
    OwnersAnswer, QueryAnswer, QueryLimits, QueryStatsOut, QueryWarning, RationaleAnswer, RationaleItem, SearchAsk, SearchItem, SearchLayers, subject_key,
    SearchResults, MAX_SEARCH_LIMIT,
};
pub use navegador_cypher::memory::{MemoryPool, DEFAULT_QUERY_MEMORY};
pub use navegador_cypher::CypherError;
pub use markdown::{bundle_markdown, context_markdown};
pub use types::{
    BlastRadius, Candidate, ContextBundle, ContextEdge, ContextNode, Dependent, DependentGroup, Diagnostic, EdgeAmbiguity, Hop,
    IngestionResult, Metadata, OwnerCount, PlaceCount, Selector, SkippedFile, SourceText, UnresolvedSite,
};

use std::path::PathBuf;

use navegador_store::StoreError;

/// Bounds that keep one answer small enough for a model's context and fast to compute.
/// Arguments above a bound are clamped, and the answer says so in its notes.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Deepest traversal (`depth` of `function` and `blast_radius`).
    pub max_depth: u32,
    /// Most nodes one answer visits: totals past it are lower bounds (`truncated`).
    pub max_nodes: usize,
    /// Entries per list when the caller gives no `limit`.
    pub default_limit: usize,
    /// The largest `limit` accepted (larger ones are clamped, and said).
    pub max_limit: usize,
    /// Edges listed per related node (a caller calling the target 30 times shows the first).
    pub edges_per_node: usize,
    /// Lines of source text shown by `include_source`.
    pub max_source_lines: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: 10, max_nodes: 5000, default_limit: 10, max_limit: 200, edges_per_node: 3, max_source_lines: 200 }
    }
}

/// How sure an edge must be to be listed (and followed). Edges without a resolution
/// (CONTAINS, DECORATES, ...) are facts and always listed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum MinResolution {
    /// Only edges bound through an import, a scope or a declared type.
    Exact,
    /// `exact` and `inferred` (a unique name): what the graph knows. The default.
    #[default]
    Inferred,
    /// Also `ambiguous` edges: one of several same-named candidates, each marked.
    Ambiguous,
}

impl MinResolution {
    /// The accepted spellings, for messages and schemas.
    pub const NAMES: [&'static str; 3] = ["exact", "inferred", "ambiguous"];

    pub fn parse(s: &str) -> Option<MinResolution> {
        match s {
            "exact" => Some(MinResolution::Exact),
            "inferred" => Some(MinResolution::Inferred),
            "ambiguous" => Some(MinResolution::Ambiguous),
            _ => None,
        }
    }

    /// Whether an edge of this resolution is listed.
    pub fn admits(self, resolution: Option<&str>) -> bool {
        match resolution {
            None | Some("exact") => true,
            Some("inferred") => self >= MinResolution::Inferred,
            Some(_) => self >= MinResolution::Ambiguous,
        }
    }
}

/// What a question names: a name (bare, qualified, or a path) and what narrows it.
#[derive(Debug, Clone, Default)]
pub struct Target<'a> {
    pub name: &'a str,
    /// The file it is in; `path:line` also gives the line.
    pub file: Option<&'a str>,
    /// A line inside the definition (or its first line): picks one of several overloads or
    /// redefinitions.
    pub line: Option<u32>,
}

impl<'a> Target<'a> {
    pub fn named(name: &'a str) -> Self {
        Target { name, file: None, line: None }
    }

    pub fn in_file(name: &'a str, file: Option<&'a str>) -> Self {
        Target { name, file, line: None }
    }
}

/// What a question asks for beyond its target: how far, how much, how sure, what else.
/// Out-of-range values are clamped and the answer says so.
#[derive(Debug, Clone)]
pub struct Options {
    /// Traversal depth (`function`, `blast_radius`).
    pub depth: i64,
    /// Entries per list (`Limits::default_limit` when absent).
    pub limit: Option<i64>,
    /// Entries skipped at the head of each list.
    pub offset: Option<i64>,
    pub min_resolution: MinResolution,
    /// List only this relation (`caller`, `subclass`, ..., `unresolved`); the others are
    /// counted.
    pub relation: Option<String>,
    /// Add the target's source text, read from under `source_root`.
    pub include_source: bool,
    pub source_root: Option<PathBuf>,
    /// Leave test code out of the traversal (`blast_radius`).
    pub exclude_tests: bool,
    /// List files that depend only by importing, instead of counting them per module
    /// (`blast_radius`).
    pub include_imports: bool,
    /// Give each dependent its whole path from the target (`blast_radius`).
    pub paths: bool,
    /// `context`: every related node and edge (paged) instead of the outline.
    pub full: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            depth: 1,
            limit: None,
            offset: None,
            min_resolution: MinResolution::default(),
            relation: None,
            include_source: false,
            source_root: None,
            exclude_tests: false,
            include_imports: false,
            paths: false,
            full: false,
        }
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
        "`{name}` matches {total} nodes{}; pass the `select` arguments of one (a qualified name, `file`, `line`)",
        if *total > candidates.len() { format!(" (the first {} listed)", candidates.len()) } else { String::new() }
    )]
    Ambiguous { name: String, candidates: Vec<Candidate>, total: usize },
    /// An argument out of its domain (an unknown relation, ...): the message lists the
    /// accepted values.
    #[error("{0}")]
    BadArgument(String),
    #[error("{path} is not in the graph{}", if suggestions.is_empty() { "; pass a workspace-relative path of an indexed file, or ingest the repository first".to_string() } else { format!("; did you mean {}?", suggestions.join(", ")) })]
    FileNotIndexed { path: String, suggestions: Vec<String> },
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Writing an answer out failed (a closed pipe, a full disk).
    #[error("cannot write the output: {0}")]
    Write(#[source] std::io::Error),
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
fn clamp_depth(depth: i64, max: u32, notes: &mut Vec<String>) -> u32 {
    if depth < 1 {
        notes.push(format!("depth {depth} raised to 1"));
        1
    } else if depth > max as i64 {
        notes.push(format!("depth {depth} clamped to {max}"));
        max
    } else {
        depth as u32
    }
}
