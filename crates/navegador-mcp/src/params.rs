//! The tools' input types. Field docs become the descriptions of the published input
//! schemas; names, types and defaults follow the user's spec (`navegador-mcp.md`).
//! `depth`, `limit` and `offset` are signed so that a negative or huge value reaches the
//! tool (and is clamped with a note) instead of failing to parse.

use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct IngestParams {
    /// Repo or file
    pub path: String,
    /// Wipe the graph first
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

// Least resolution an edge needs to be listed.
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
    /// Default 10, max 200
    #[serde(default)]
    #[schemars(with = "i64")]
    pub limit: Option<i64>,
    #[serde(default)]
    #[schemars(with = "i64")]
    pub offset: Option<i64>,
    /// One list only (e.g. caller)
    #[serde(default)]
    #[schemars(with = "String")]
    pub relation: Option<String>,
    #[serde(default)]
    pub include_ambiguous: bool,
    /// Accepted but not published (`tools/list` is paid by every session; docs/mcp.md):
    /// `include_ambiguous` is the published way to the same lists.
    #[serde(default)]
    #[schemars(skip)]
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
    pub file: String,
    #[serde(default)]
    pub format: Format,
    /// Related nodes and edges, not the outline
    #[serde(default)]
    pub full: bool,
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

/// The node a question is about: a name, narrowed by `file` and `line` when it names
/// several (the "matches several nodes" answer gives each candidate's).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct NodeArgs {
    pub name: String,
    /// Path, or path:line
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
    #[serde(default)]
    #[schemars(with = "i64")]
    pub line: Option<u32>,
}

impl NodeArgs {
    /// The analysis target, with `file` as the caller made it (workspace-relative).
    pub fn target<'a>(&'a self, file: Option<&'a str>) -> navegador_analysis::Target<'a> {
        navegador_analysis::Target { name: &self.name, file, line: self.line }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FunctionParams {
    #[serde(flatten)]
    pub node: NodeArgs,
    #[serde(default = "one")]
    pub depth: i64,
    #[serde(default)]
    pub include_source: bool,
    #[serde(flatten)]
    pub list: ListArgs,
}

/// `class` and `explain`: a node, its lists, its source on request.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct NodeParams {
    #[serde(flatten)]
    pub node: NodeArgs,
    #[serde(default)]
    pub include_source: bool,
    #[serde(flatten)]
    pub list: ListArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BlastRadiusParams {
    #[serde(flatten)]
    pub node: NodeArgs,
    #[serde(default = "three")]
    pub depth: i64,
    #[serde(default)]
    pub exclude_tests: bool,
    /// List import-only dependents
    #[serde(default)]
    pub include_imports: bool,
    /// Whole paths from the target
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
    pub query: String,
    /// Every layer
    #[serde(default)]
    pub all: bool,
    /// Code and docs
    #[serde(default)]
    pub docs: bool,
    #[serde(default = "twenty")]
    pub limit: i64,
    #[serde(default)]
    pub offset: i64,
    #[serde(default)]
    pub exclude_tests: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct QueryParams {
    pub cypher: String,
    #[serde(default)]
    pub params: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RationaleParams {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct OwnersParams {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub file: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchKnowledgeParams {
    pub query: String,
    #[serde(default = "twenty")]
    pub limit: i64,
}

/// `changes`: what a diff touches (working tree vs HEAD by default).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ChangesParams {
    /// A range: main...HEAD, A..B, a commit
    #[serde(default)]
    #[schemars(with = "String")]
    pub range: Option<String>,
    /// Compare with this commit instead of HEAD
    #[serde(default)]
    #[schemars(with = "String")]
    pub base: Option<String>,
    /// The index instead of the working tree
    #[serde(default)]
    pub staged: bool,
    /// A unified diff (instead of git)
    #[serde(default)]
    #[schemars(with = "String")]
    pub diff: Option<String>,
    #[serde(default = "three")]
    pub depth: i64,
    /// Changed symbols listed, default 20
    #[serde(default)]
    #[schemars(with = "i64")]
    pub limit: Option<i64>,
    #[serde(default)]
    #[schemars(with = "i64")]
    pub offset: Option<i64>,
}
