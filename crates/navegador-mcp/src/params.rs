//! The tools' input types. Field docs become the descriptions of the published input
//! schemas; names, types and defaults follow the user's spec (`navegador-mcp.md`).
//! `depth`, `limit` and `offset` are signed so that a negative or huge value reaches the
//! tool (and is clamped with a note) instead of failing to parse.

use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct IngestParams {
    /// Path to the repo or file to ingest
    pub path: String,
    /// Wipe the graph before ingesting
    #[serde(default)]
    pub clear: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(inline)]
pub enum Format {
    #[default]
    Json,
    Markdown,
}

/// Least resolution an edge needs to be listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(inline)]
pub enum MinResolution {
    Exact,
    Inferred,
    Ambiguous,
}

/// The arguments every graph answer with lists shares: its page and how sure an edge must
/// be to be listed.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ListArgs {
    /// Entries per list (default 20, at most 200)
    #[serde(default)]
    pub limit: Option<i64>,
    /// Entries skipped in each list; the answer's next_offset continues
    #[serde(default)]
    pub offset: Option<i64>,
    /// List only this relation (e.g. caller, subclass, unresolved); the others are counted
    #[serde(default)]
    pub relation: Option<String>,
    /// Also list ambiguous edges (one of several same-named candidates), marked
    #[serde(default)]
    pub include_ambiguous: bool,
    /// Least resolution listed: exact, inferred (default) or ambiguous
    #[serde(default)]
    pub min_resolution: Option<MinResolution>,
}

impl ListArgs {
    /// The analysis layer's options for these arguments (`depth` as given).
    pub fn options(&self, depth: i64) -> navegador_analysis::Options {
        use navegador_analysis::MinResolution as M;
        let min_resolution = match (self.min_resolution, self.include_ambiguous) {
            (Some(MinResolution::Exact), _) => M::Exact,
            (Some(MinResolution::Inferred), _) => M::Inferred,
            (Some(MinResolution::Ambiguous), _) | (None, true) => M::Ambiguous,
            (None, false) => M::Inferred,
        };
        navegador_analysis::Options {
            depth,
            limit: self.limit,
            offset: self.offset,
            relation: self.relation.as_deref().map(str::trim).filter(|r| !r.is_empty()).map(str::to_string),
            min_resolution,
            ..Default::default()
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ContextParams {
    /// Path to the source file
    pub file: String,
    /// json (default) or markdown: the text content is then markdown, the structured content stays JSON
    #[serde(default)]
    pub format: Format,
    /// List the related nodes in other files and every edge (paged) instead of the outline
    #[serde(default)]
    pub full: bool,
    /// Add the file's source text (at most 200 lines)
    #[serde(default)]
    pub include_source: bool,
    #[serde(flatten)]
    pub list: ListArgs,
}

fn one() -> i64 {
    1
}
fn three() -> i64 {
    3
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FunctionParams {
    /// Function name (bare, Class.method or qualified; `path:line` picks an overload)
    pub name: String,
    /// Optional file path to disambiguate (`path:line` also gives the line)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
    /// A line inside the definition: picks one of several overloads or redefinitions
    #[serde(default)]
    pub line: Option<u32>,
    /// Call graph traversal depth
    #[serde(default = "one")]
    pub depth: i64,
    /// Add the function's source text (at most 200 lines)
    #[serde(default)]
    pub include_source: bool,
    #[serde(flatten)]
    pub list: ListArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ClassParams {
    /// Class name
    pub name: String,
    /// Optional file path to disambiguate
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
    /// A line inside the definition, to pick one of several
    #[serde(default)]
    pub line: Option<u32>,
    /// Add the class's source text (at most 200 lines)
    #[serde(default)]
    pub include_source: bool,
    #[serde(flatten)]
    pub list: ListArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExplainParams {
    /// Node name to explain
    pub name: String,
    /// Optional file path to disambiguate code nodes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
    /// A line inside the definition, to pick one of several
    #[serde(default)]
    pub line: Option<u32>,
    /// Add the node's source text (at most 200 lines)
    #[serde(default)]
    pub include_source: bool,
    #[serde(flatten)]
    pub list: ListArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BlastRadiusParams {
    /// Starting node name
    pub name: String,
    /// Optional file path to disambiguate
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
    /// A line inside the definition, to pick one of several
    #[serde(default)]
    pub line: Option<u32>,
    /// Maximum traversal depth
    #[serde(default = "three")]
    pub depth: i64,
    /// Leave test code out of the traversal
    #[serde(default)]
    pub exclude_tests: bool,
    /// List files that depend only by importing, instead of counting them per directory
    #[serde(default)]
    pub include_imports: bool,
    /// Give each dependent its whole path from the target
    #[serde(default)]
    pub paths: bool,
    #[serde(flatten)]
    pub list: ListArgs,
}

fn twenty() -> i64 {
    20
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchParams {
    /// Search query
    pub query: String,
    /// Search all layers including knowledge layer
    #[serde(default)]
    pub all: bool,
    /// Search docstrings and wiki content only
    #[serde(default)]
    pub docs: bool,
    /// Maximum results to return
    #[serde(default = "twenty")]
    pub limit: i64,
    /// Results skipped (the next page starts at offset + limit)
    #[serde(default)]
    pub offset: i64,
    /// Leave test code out
    #[serde(default)]
    pub exclude_tests: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct QueryParams {
    /// Cypher query string
    pub cypher: String,
    /// Optional query parameters
    #[serde(default)]
    pub params: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RationaleParams {
    /// Function, class, or file name
    pub name: String,
    /// Optional file path to disambiguate
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct OwnersParams {
    /// Function, class, or file name
    pub name: String,
    /// Optional file path
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchKnowledgeParams {
    /// Search query
    pub query: String,
    /// Maximum results to return
    #[serde(default = "twenty")]
    pub limit: i64,
}
