//! The answers of the analysis layer: plain structs with public fields. They derive
//! `Serialize` and `JsonSchema` so an edge (the MCP server, the CLI) can render them; they
//! know nothing of MCP, JSON-RPC or HTTP. Shapes are documented in `docs/mcp.md`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

/// One node of the graph as an agent sees it: code (File, Class, Function, Method,
/// Variable, Import, Decorator, ...) or knowledge (Concept, Rule, Decision, ...). Absent
/// fields are unknown or do not apply to the node's type.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ContextNode {
    /// Id of the node in this graph (stable until the file that defines it is re-indexed).
    pub id: i64,
    /// The node's label: File, Class, Function, Method, Variable, Import, Decorator, ...
    #[serde(rename = "type")]
    pub node_type: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualified_name: Option<String>,
    /// Workspace-relative path of the defining file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_start: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_end: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Class kind (class, interface, struct, enum, trait, ...) or method kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docstring: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rationale: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternatives: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// How this node relates to the bundle's target: caller, callee, base, subclass,
    /// interface, implementation, member, decorator, parent, reference, imports,
    /// imported_by, defined, related, incoming, outgoing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relation: Option<String>,
    /// Hops from the target (call graphs and hierarchies).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<u32>,
}

/// A relationship; both ends are named by id and by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ContextEdge {
    pub source: i64,
    pub source_name: String,
    pub target: i64,
    pub target_name: String,
    /// CALLS, REFERENCES, INHERITS, IMPLEMENTS, IMPORTS, CONTAINS, DEFINES, DECORATES, ...
    #[serde(rename = "type")]
    pub edge_type: String,
    /// For resolved references: exact, inferred or ambiguous.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolution: Option<String>,
    /// File of the reference site (the source's file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

/// A reference site resolution could not bind to any definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct UnresolvedSite {
    pub file_path: String,
    pub line: u32,
    /// call, new, callback, base, ...
    pub kind: String,
    /// The name used at the site, with its receiver when there is one (`obj.save`).
    pub name: String,
    /// The enclosing symbol's qualified name; absent for module-level code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

/// What an answer covers and what it could not see.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
pub struct Metadata {
    /// The question answered: function, class, context, explain.
    pub query: String,
    /// The traversal depth used (after clamping).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    pub node_count: usize,
    pub edge_count: usize,
    /// True when nodes or edges were left out to stay under the answer's size limit.
    pub truncated: bool,
    /// Reference sites in scope that the graph could not resolve (count, all of them).
    pub unresolved_count: usize,
    /// The first of those sites.
    pub unresolved: Vec<UnresolvedSite>,
    /// Human-readable notes: clamped arguments, truncation, caveats.
    pub notes: Vec<String>,
}

/// The answer of `context`, `function`, `class` and `explain`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ContextBundle {
    pub target: ContextNode,
    pub nodes: Vec<ContextNode>,
    pub edges: Vec<ContextEdge>,
    pub metadata: Metadata,
}

/// One node a name could mean, for answers that refuse to guess.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Candidate {
    #[serde(rename = "type")]
    pub node_type: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualified_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_start: Option<u32>,
}

/// One step of the path from the changed node to a dependent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Hop {
    pub id: i64,
    pub name: String,
    /// The relationship that reached this node from the previous hop (absent on the first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// A node that could break if the target changes.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Dependent {
    #[serde(flatten)]
    pub node: ContextNode,
    /// The path from the target to this node, target first.
    pub path: Vec<Hop>,
    /// People and domains that own the node (ASSIGNED_TO, BELONGS_TO), when known.
    pub owners: Vec<String>,
}

/// The answer of `blast_radius`: dependents ordered by distance.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct BlastRadius {
    pub target: ContextNode,
    /// Dependents, nearest first.
    pub items: Vec<Dependent>,
    /// Number of dependents found (before truncation).
    pub total: usize,
    pub truncated: bool,
    /// The traversal depth used (after clamping).
    pub depth: u32,
    /// Unresolved call sites, anywhere, that use the name of a node of the traversed
    /// region: each might be a dependent the graph could not see.
    pub unresolved_count: usize,
    pub unresolved: Vec<UnresolvedSite>,
    pub notes: Vec<String>,
}

/// A skipped file and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SkippedFile {
    pub path: String,
    pub reason: String,
}

/// A file indexed with a problem (syntax error, invalid UTF-8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Diagnostic {
    pub path: String,
    pub line: u32,
    pub message: String,
}

/// The answer of `ingest`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct IngestionResult {
    /// Files of a supported language seen.
    pub files: u64,
    /// Files (re)parsed this time; the others were unchanged since the last ingest.
    pub parsed: u64,
    pub unchanged: u64,
    pub removed: u64,
    pub files_by_language: BTreeMap<String, u64>,
    /// Nodes in the graph now, by label.
    pub symbols: BTreeMap<String, u64>,
    /// Relationships in the graph now.
    pub relationships: u64,
    /// Call sites by resolution outcome (exact, inferred, ambiguous, external, unresolved).
    pub call_sites: BTreeMap<String, u64>,
    pub skipped: Vec<SkippedFile>,
    pub diagnostics: Vec<Diagnostic>,
    pub duration_ms: u64,
}
