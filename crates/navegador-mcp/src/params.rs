//! The tools' input types. Field docs become the descriptions of the published input
//! schemas; names, types and defaults follow the user's spec (`navegador-mcp.md`).
//! `depth` and `limit` are signed so that a negative or huge value reaches the tool (and
//! is clamped with a note) instead of failing to parse.

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

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ContextParams {
    /// Path to the source file
    pub file: String,
    /// json (default) or markdown: the text content is then markdown, the structured content stays JSON
    #[serde(default)]
    pub format: Format,
}

fn one() -> i64 {
    1
}
fn three() -> i64 {
    3
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FunctionParams {
    /// Function name
    pub name: String,
    /// Optional file path to disambiguate
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
    /// Call graph traversal depth
    #[serde(default = "one")]
    pub depth: i64,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ClassParams {
    /// Class name
    pub name: String,
    /// Optional file path to disambiguate
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExplainParams {
    /// Node name to explain
    pub name: String,
    /// Optional file path to disambiguate code nodes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BlastRadiusParams {
    /// Starting node name
    pub name: String,
    /// Optional file path to disambiguate
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
    /// Maximum traversal depth
    #[serde(default = "three")]
    pub depth: i64,
}

/// `depth` as the analysis layer takes it: negative becomes 0 (raised to 1 with a note),
/// huge saturates (clamped with a note).
pub fn depth(d: i64) -> u32 {
    d.clamp(0, u32::MAX as i64) as u32
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
