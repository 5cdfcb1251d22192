//! Search, rationale, owners and Cypher queries as typed answers. The engines live in
//! `navegador-knowledge` and `navegador-cypher`; this module shapes their results for an
//! agent (lists wrapped as `{items, ...}` with completeness fields) and maps their errors
//! to [`AnalysisError`]. Nothing here knows MCP.

use std::collections::BTreeMap;
use std::time::Duration;

use navegador_knowledge::{KnowledgeError, SearchScope};
use navegador_store::Store;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::lookup::{context_node, related_node, resolve};
use crate::types::ContextNode;
use crate::{AnalysisError, Result, Target};

/// Most results `search` / `search_knowledge` return in one answer.
pub const MAX_SEARCH_LIMIT: usize = 200;

/// Which layers `search` looks through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchLayers {
    /// Code: files and definitions (names, qualified names, docstrings, signatures).
    Code,
    /// Code plus documents and wiki pages (`docs`).
    CodeAndDocs,
    /// Every layer, knowledge included (`all`).
    All,
    /// The knowledge layer only (concepts, rules, decisions, wiki pages, domains, people).
    Knowledge,
}

/// One search result: a node and why it matched. Results are ranked: `rank` 1 is best.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SearchItem {
    /// Position in the ranking, from 1 (counted from the first page).
    pub rank: u32,
    /// `exact` (the name equals the query, case-insensitive), `words` (every word of the
    /// query starts a word of the name: `password hasher` -> `BasePasswordHasher`),
    /// `prefix` (the name starts with it) or `text` (full-text match in names, qualified
    /// names, docstrings, signatures, descriptions, content).
    #[serde(rename = "match")]
    pub match_kind: String,
    /// BM25 score of a text match (lower is better); 0 for name matches.
    pub score: f64,
    #[serde(flatten)]
    pub node: ContextNode,
}

/// The answer of `search` / `search_knowledge`: the spec's array of ContextNode, wrapped.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SearchResults {
    pub query: String,
    /// Ranked matches, best first: one page.
    pub items: Vec<SearchItem>,
    /// Number of items returned.
    pub count: usize,
    /// The limit applied (after clamping).
    pub limit: usize,
    /// Items skipped before this page.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset: usize,
    /// True when there are more matches after this page.
    pub truncated: bool,
    /// The `offset` of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<usize>,
    /// Clamped arguments and the like.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// What a search asks for beyond its query.
#[derive(Debug, Clone)]
pub struct SearchAsk {
    pub limit: i64,
    pub offset: i64,
    /// Leave test code out (it is ranked after source otherwise).
    pub exclude_tests: bool,
}

impl Default for SearchAsk {
    fn default() -> Self {
        SearchAsk { limit: 20, offset: 0, exclude_tests: false }
    }
}

/// Most results one search looks at (`offset + limit`).
const MAX_SEARCH_DEPTH: usize = 2000;

/// Ranked search: exact names first, then source before tests, definitions before files
/// and variables, names holding the query's words, name prefixes, BM25 text matches.
/// `limit` is clamped to `1..=MAX_SEARCH_LIMIT` and `offset` to `0..` (noted).
pub fn search(store: &Store, query: &str, layers: SearchLayers, ask: &SearchAsk) -> Result<SearchResults> {
    let q = query.trim();
    if q.is_empty() {
        return Err(AnalysisError::Empty { field: "query" });
    }
    let mut notes = Vec::new();
    let limit = ask.limit;
    let lim = if limit < 1 {
        notes.push(format!("limit {limit} raised to 1"));
        1
    } else if limit as u64 > MAX_SEARCH_LIMIT as u64 {
        notes.push(format!("limit {limit} clamped to {MAX_SEARCH_LIMIT}"));
        MAX_SEARCH_LIMIT
    } else {
        limit as usize
    };
    let offset = if ask.offset < 0 {
        notes.push(format!("offset {} raised to 0", ask.offset));
        0
    } else if ask.offset as u64 + lim as u64 > MAX_SEARCH_DEPTH as u64 {
        let o = MAX_SEARCH_DEPTH - lim;
        notes.push(format!("offset {} clamped to {o}: a search ranks at most {MAX_SEARCH_DEPTH} matches; narrow the query", ask.offset));
        o
    } else {
        ask.offset as usize
    };
    let scope = match layers {
        SearchLayers::Code => SearchScope::Code,
        SearchLayers::CodeAndDocs => SearchScope::CodeAndDocs,
        SearchLayers::All => SearchScope::All,
        SearchLayers::Knowledge => SearchScope::Knowledge,
    };
    // One more than asked says whether the answer is complete.
    let mut hits =
        navegador_knowledge::search(&store.reader(), q, scope, offset + lim + 1, ask.exclude_tests).map_err(knowledge_error)?;
    let found = hits.len();
    let truncated = found > offset + lim;
    hits.truncate(offset + lim);
    if offset > 0 && offset >= found {
        notes.push(format!("offset {offset} is past the last match ({found} found); start again at offset 0"));
    }
    let items: Vec<SearchItem> = hits
        .iter()
        .enumerate()
        .skip(offset)
        .map(|(i, h)| SearchItem {
            rank: i as u32 + 1,
            match_kind: h.match_kind().to_string(),
            score: if h.score.is_finite() { h.score } else { 0.0 },
            node: related_node(&h.node, None),
        })
        .collect();
    Ok(SearchResults {
        query: q.to_string(),
        count: items.len(),
        items,
        limit: lim,
        offset,
        truncated,
        next_offset: truncated.then_some(offset + lim),
        notes,
    })
}

/// A Decision or Rule bearing on the subject.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RationaleItem {
    /// GOVERNS, ANNOTATES or DOCUMENTS.
    pub relationship: String,
    /// How it reaches the subject: `direct`, `class <qname>`, `file <path>`, `domain <name>`.
    pub via: String,
    /// The Decision or Rule (its `rationale` field holds the why; its description when it
    /// records no rationale).
    #[serde(flatten)]
    pub node: ContextNode,
}

/// A node a knowledge subject governs, annotates or documents.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GovernedItem {
    pub relationship: String,
    #[serde(flatten)]
    pub node: ContextNode,
}

/// The answer of `get_rationale`: the spec's array of Decision and Rule nodes, wrapped.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RationaleAnswer {
    /// The node the name resolved to.
    pub subject: ContextNode,
    /// Decisions and rules that govern, annotate or document it (directly or through its
    /// class, file or domain), nearest first.
    pub items: Vec<RationaleItem>,
    pub count: usize,
    /// For a knowledge subject (a decision, rule, document): what it governs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub governs: Vec<GovernedItem>,
    /// Always true: every decision and rule linked to the subject is listed.
    pub complete: bool,
}

/// Decisions and rules behind a node.
pub fn get_rationale(store: &Store, name: &str, file: Option<&str>) -> Result<RationaleAnswer> {
    let (name, file) = subject_key(store, &Target::in_file(name, file))?;
    let (name, file) = (name.as_str(), file.as_deref());
    let r = navegador_knowledge::get_rationale(&store.reader(), name, file).map_err(|e| subject_error(store, name, file, e))?;
    let mut items: Vec<RationaleItem> = r
        .entries
        .iter()
        .map(|e| {
            let mut node = context_node(&e.node);
            if node.rationale.is_none() {
                node.rationale = e.rationale.clone();
            }
            RationaleItem { relationship: e.edge_type.clone(), via: e.via.clone(), node }
        })
        .collect();
    // A Decision or Rule asked about directly: its own rationale heads the list.
    if matches!(r.subject.label.as_str(), "Decision" | "Rule") && !items.iter().any(|i| i.node.id == r.subject.id) {
        items.insert(0, RationaleItem { relationship: "SELF".into(), via: "direct".into(), node: context_node(&r.subject) });
    }
    let governs = r.governs.iter().map(|(t, n)| GovernedItem { relationship: t.clone(), node: context_node(n) }).collect();
    Ok(RationaleAnswer { subject: context_node(&r.subject), count: items.len(), items, governs, complete: true })
}

/// A Person or Domain owning the subject.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OwnerItem {
    /// Where the claim comes from: `codeowners:<pattern>`, `annotation`, `domain`.
    pub source: String,
    /// How it reaches the subject: `direct`, `class <qname>`, `file <path>`, `domain <name>`.
    pub via: String,
    #[serde(flatten)]
    pub node: ContextNode,
}

/// The answer of `find_owners`: the spec's array of Person and Domain nodes, wrapped.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OwnersAnswer {
    pub subject: ContextNode,
    /// Owners, nearest first: the node's own, its class's, its file's (CODEOWNERS), then
    /// its domains.
    pub items: Vec<OwnerItem>,
    pub count: usize,
    /// Always true: every owner recorded in the graph is listed.
    pub complete: bool,
}

/// People and domains owning a node.
pub fn find_owners(store: &Store, name: &str, file: Option<&str>) -> Result<OwnersAnswer> {
    let (name, file) = subject_key(store, &Target::in_file(name, file))?;
    let (name, file) = (name.as_str(), file.as_deref());
    let (subject, owners) =
        navegador_knowledge::find_owners(&store.reader(), name, file).map_err(|e| subject_error(store, name, file, e))?;
    let items: Vec<OwnerItem> = owners
        .iter()
        .map(|o| OwnerItem { source: o.source.clone(), via: o.via.clone(), node: context_node(&o.node) })
        .collect();
    Ok(OwnersAnswer { subject: context_node(&subject), count: items.len(), items, complete: true })
}

/// The name and file the knowledge layer should look up: a code name is resolved the way
/// the other tools resolve it (`Class.method`, partial qualified names by whole segments,
/// paths, `file`, `path:line`; ambiguity is an error listing the candidates), then handed
/// over by its exact qualified name and file. Names no code matches go to the knowledge
/// layer as typed (a decision, rule or concept). The CLI's `rationale` and `owners` use it
/// too, so a name means the same node everywhere.
pub fn subject_key(store: &Store, target: &Target<'_>) -> Result<(String, Option<String>)> {
    let (name, file) = (target.name, target.file);
    if name.trim().is_empty() {
        return Err(AnalysisError::Empty { field: "name" });
    }
    // Code first (as the knowledge layer resolves subjects): a class and a concept both
    // named `Invoice` mean the class here.
    const CODE: &[&str] = &["File", "Module", "Class", "Function", "Method", "Variable", "Endpoint"];
    match resolve(store, target, CODE, "node").map(|f| f.row) {
        Ok(n) if n.label == "File" => Ok((n.file_path.clone().unwrap_or_else(|| name.to_string()), None)),
        Ok(n) => match (&n.qualified_name, &n.file_path) {
            (Some(q), Some(f)) => Ok((q.clone(), Some(f.clone()))),
            _ => Ok((name.trim().to_string(), file.map(str::to_string))),
        },
        Err(e @ AnalysisError::Ambiguous { .. }) => Err(e),
        Err(AnalysisError::NotFound { .. }) if file.is_none() => Ok((name.trim().to_string(), None)),
        Err(e) => Err(e),
    }
}

/// A knowledge-layer failure to resolve `name`, as the analysis layer's structured error
/// (candidates, suggestions) when the code lookup can say more.
fn subject_error(store: &Store, name: &str, file: Option<&str>, e: KnowledgeError) -> AnalysisError {
    if name.trim().is_empty() {
        return AnalysisError::Empty { field: "name" };
    }
    match e {
        KnowledgeError::NotFound { .. } | KnowledgeError::Ambiguous { .. } => match resolve(store, &Target::in_file(name, file), &[], "node") {
            Err(err) => err,
            Ok(_) => AnalysisError::Knowledge(e.to_string()),
        },
        other => knowledge_error(other),
    }
}

fn knowledge_error(e: KnowledgeError) -> AnalysisError {
    match e {
        KnowledgeError::Store(s) => AnalysisError::Store(s),
        other => AnalysisError::Knowledge(other.to_string()),
    }
}

// ---------------------------------------------------------------------------------------
// Cypher

/// How a query may run.
#[derive(Debug, Clone)]
pub struct QueryLimits {
    /// Refuse any clause with a side effect (decided on the parsed query).
    pub read_only: bool,
    /// Refuse queries whose estimated peak row count exceeds this (0: no limit).
    pub max_complexity: u64,
    /// Wall-clock budget of everything the query does.
    pub timeout: Duration,
    /// When the time budget started (a server: when the request arrived; default: now).
    pub started: Option<std::time::Instant>,
    /// Bytes the query may hold at once (0: no limit).
    pub max_memory: u64,
    /// Memory shared with the other queries of the server.
    pub memory_pool: Option<std::sync::Arc<navegador_cypher::memory::MemoryPool>>,
    /// Rows beyond this are dropped; the answer says so.
    pub max_rows: usize,
    /// Most bytes of values one answer carries: later rows are dropped (`truncated`), a
    /// first row over it is refused (0: no limit).
    pub max_answer_bytes: usize,
    /// Set from another thread to stop the query (a client's cancellation).
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Default for QueryLimits {
    fn default() -> Self {
        QueryLimits {
            read_only: true,
            max_complexity: 0,
            timeout: Duration::from_secs(10),
            started: None,
            max_memory: navegador_cypher::memory::DEFAULT_QUERY_MEMORY,
            memory_pool: None,
            max_rows: 1000,
            max_answer_bytes: 0,
            cancel: None,
        }
    }
}

/// What a query changed (all zero for reads).
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct QueryStatsOut {
    pub nodes_created: u64,
    pub nodes_deleted: u64,
    pub relationships_created: u64,
    pub relationships_deleted: u64,
    pub properties_set: u64,
    pub labels_added: u64,
    pub labels_removed: u64,
}

/// The answer of `query`: the spec's array of result rows, wrapped. Each row is an object
/// keyed by column name; nodes are `{id, labels, properties}`, relationships
/// `{id, type, start, end, properties}`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct QueryAnswer {
    /// Column names, in `RETURN` order.
    pub columns: Vec<String>,
    /// Rows as objects (column name -> value).
    pub items: Vec<Map<String, Json>>,
    pub count: usize,
    /// True when rows were dropped at the server's row limit or its answer-size limit.
    pub truncated: bool,
    /// The row limit applied.
    pub max_rows: usize,
    pub stats: QueryStatsOut,
    /// Labels, relationship types and property keys the query reads that the graph does
    /// not have, with the closest existing names (absent when there are none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<QueryWarning>,
}

/// A name the query reads that the graph does not have (Neo4j's notifications).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct QueryWarning {
    /// `UnknownLabelWarning`, `UnknownRelationshipTypeWarning` or `UnknownPropertyKeyWarning`.
    pub code: String,
    pub message: String,
    /// The closest existing names, best first.
    pub suggestions: Vec<String>,
    /// 1-based line and column of the pattern that names it, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

/// True when the query parses and has no side effect (a write needs a writable store).
pub fn query_is_read_only(cypher: &str) -> bool {
    match navegador_cypher::parse(cypher) {
        Ok(stmt) => navegador_cypher::check_read_only(&stmt.query).is_ok(),
        Err(_) => true,
    }
}

fn options(params: &Map<String, Json>, limits: &QueryLimits) -> navegador_cypher::QueryOptions {
    navegador_cypher::QueryOptions {
        read_only: limits.read_only,
        max_complexity: limits.max_complexity,
        timeout: limits.timeout,
        started: limits.started,
        max_memory: limits.max_memory,
        memory_pool: limits.memory_pool.clone(),
        max_rows: limits.max_rows,
        params: params.iter().map(|(k, v)| (k.trim_start_matches('$').to_string(), json_to_value(v.clone()))).collect::<BTreeMap<_, _>>(),
        cancel: limits.cancel.clone(),
    }
}

/// Runs a read query in one snapshot (a write clause is refused by the engine).
pub fn query_read(store: &Store, cypher: &str, params: &Map<String, Json>, limits: &QueryLimits) -> Result<QueryAnswer> {
    if cypher.trim().is_empty() {
        return Err(AnalysisError::Empty { field: "cypher" });
    }
    let opts = navegador_cypher::QueryOptions { read_only: true, ..options(params, limits) };
    let r = store.read_snapshot(|s| navegador_cypher::execute_read(s, cypher, &opts)).map_err(AnalysisError::Query)?;
    answer(&r, limits)
}

/// Runs a query that may write, in one transaction (rolled back on error).
pub fn query_write(store: &mut Store, cypher: &str, params: &Map<String, Json>, limits: &QueryLimits) -> Result<QueryAnswer> {
    if cypher.trim().is_empty() {
        return Err(AnalysisError::Empty { field: "cypher" });
    }
    let opts = options(params, limits);
    let r = store.write_atomically(|s| navegador_cypher::execute(s, cypher, &opts)).map_err(AnalysisError::Query)?;
    answer(&r, limits)
}

fn answer(r: &navegador_cypher::QueryResult, limits: &QueryLimits) -> Result<QueryAnswer> {
    let max_rows = limits.max_rows;
    // Rows past the answer's byte budget are dropped like rows past `max_rows`; a first
    // row already over it is an error naming the fix.
    let mut keep = r.rows.len();
    if limits.max_answer_bytes > 0 {
        let mut bytes = 0usize;
        for (i, row) in r.rows.iter().enumerate() {
            // Each row is an object keyed by column name.
            bytes += row.iter().map(|v| navegador_cypher::memory::rendered_size(v, limits.max_answer_bytes)).sum::<usize>()
                + r.columns.iter().map(|c| c.len() + 4).sum::<usize>();
            if bytes > limits.max_answer_bytes {
                if i == 0 {
                    return Err(AnalysisError::AnswerTooLarge { bytes, limit: limits.max_answer_bytes });
                }
                keep = i;
                break;
            }
        }
    }
    let items: Vec<Map<String, Json>> = r
        .rows[..keep]
        .iter()
        .map(|row| r.columns.iter().cloned().zip(row.iter().map(navegador_cypher::value_to_json)).collect())
        .collect();
    let s = &r.stats;
    Ok(QueryAnswer {
        columns: r.columns.clone(),
        count: items.len(),
        items,
        truncated: r.truncated || keep < r.rows.len(),
        max_rows,
        stats: QueryStatsOut {
            nodes_created: s.nodes_created as u64,
            nodes_deleted: s.nodes_deleted as u64,
            relationships_created: s.relationships_created as u64,
            relationships_deleted: s.relationships_deleted as u64,
            properties_set: s.properties_set as u64,
            labels_added: s.labels_added as u64,
            labels_removed: s.labels_removed as u64,
        },
        warnings: r
            .warnings
            .iter()
            .map(|w| QueryWarning {
                code: w.code.to_string(),
                message: w.message.clone(),
                suggestions: w.suggestions.clone(),
                line: w.position.as_ref().map(|p| p.line),
                column: w.position.as_ref().map(|p| p.column),
            })
            .collect(),
     })
}

fn json_to_value(j: Json) -> navegador_graph::Value {
    use navegador_graph::Value;
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(b),
        Json::Number(n) => n.as_i64().map_or_else(|| Value::Float(n.as_f64().unwrap_or(f64::NAN)), Value::Int),
        Json::String(s) => Value::String(s),
        Json::Array(a) => Value::List(a.into_iter().map(json_to_value).collect()),
        Json::Object(o) => Value::Map(o.into_iter().map(|(k, v)| (k, json_to_value(v))).collect()),
    }
}
