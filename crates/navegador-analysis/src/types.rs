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
    /// `ambiguous` when only ambiguous edges (one of several same-named candidates) reach
    /// the node; such nodes are listed only with `include_ambiguous`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolution: Option<String>,
}

/// A relationship between two nodes, named by id. Each node is named once per answer: an
/// end that is the answer's target or one of its `nodes` carries no name here (its node
/// does, [`ContextBundle::name_of`]); an end listed nowhere else is named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ContextEdge {
    pub source: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_name: Option<String>,
    pub target: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_name: Option<String>,
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
    /// An `ambiguous` edge's why: its site had several candidates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ambiguity: Option<EdgeAmbiguity>,
}

/// Why an `ambiguous` edge is one of several: `reason` (`overloads`: one class or file's
/// overloads that argument count and types do not separate; `receiver_unknown`: a method
/// found by name on a receiver of unknown type; `global_name`: a bare name several files
/// define; `hierarchy`: a member found in several classes of a scope or a typed receiver),
/// `candidates` in all, `omitted`: those not linked, past the nearest eight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct EdgeAmbiguity {
    pub reason: String,
    pub candidates: i64,
    pub omitted: i64,
}

impl EdgeAmbiguity {
    pub(crate) fn new(reason: &str, candidates: i64) -> EdgeAmbiguity {
        let omitted = (candidates - navegador_store::AMBIGUOUS_LINKED as i64).max(0);
        EdgeAmbiguity { reason: reason.to_string(), candidates, omitted }
    }
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
    /// Nodes and edges listed in this answer (one page).
    pub node_count: usize,
    pub edge_count: usize,
    /// Entries per list (`relation`, and `unresolved`) in the whole answer, not just this
    /// page; lower bounds when `truncated`.
    pub totals: BTreeMap<String, usize>,
    /// Each list shows at most `limit` entries from `offset` (after clamping).
    pub limit: usize,
    pub offset: usize,
    /// The `offset` of the next page, when some list has more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<usize>,
    /// True when the traversal stopped at the server's bound: totals are lower bounds.
    pub truncated: bool,
    /// Edges left out because they are `ambiguous` (`include_ambiguous: true` lists them).
    pub ambiguous_count: usize,
    /// Call sites to builtins and external packages (counted, never listed).
    pub external_count: usize,
    /// Reference sites in scope the graph could not resolve, in the target's language (all
    /// counted).
    pub unresolved_count: usize,
    /// One page of those sites.
    pub unresolved: Vec<UnresolvedSite>,
    /// Human-readable notes: clamped arguments, what was left out and how to get it.
    pub notes: Vec<String>,
}

/// A symbol's source text, read from the workspace when asked (`include_source`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SourceText {
    pub file_path: String,
    /// The lines shown (1-based, inclusive).
    pub line_start: u32,
    pub line_end: u32,
    /// The source, as in the file; empty when `unavailable`.
    pub text: String,
    /// True when the symbol is longer than the lines shown.
    pub truncated: bool,
    /// Why no text could be shown (a binary, vanished or changed file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
}

/// The answer of `context`, `function`, `class` and `explain`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ContextBundle {
    pub target: ContextNode,
    /// `context`: one line per symbol the file defines (lines, kind, name, decorators,
    /// signature), nested symbols indented.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outline: Vec<String>,
    pub nodes: Vec<ContextNode>,
    pub edges: Vec<ContextEdge>,
    /// The target's source (`include_source`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceText>,
    pub metadata: Metadata,
}

impl ContextBundle {
    /// The name of a node the answer lists (the target or one of `nodes`): its qualified
    /// name, else its name. Edges name their ends by id with it.
    pub fn name_of(&self, id: i64) -> Option<&str> {
        std::iter::once(&self.target)
            .chain(&self.nodes)
            .find(|n| n.id == id)
            .map(|n| n.qualified_name.as_deref().unwrap_or(n.name.as_str()))
    }

    /// An edge's two ends by name: its own names, else the listed nodes'.
    pub fn edge_names<'a>(&'a self, e: &'a ContextEdge) -> (&'a str, &'a str) {
        let end = |named: &'a Option<String>, id: i64| named.as_deref().or_else(|| self.name_of(id)).unwrap_or("");
        (end(&e.source_name, e.source), end(&e.target_name, e.target))
    }
}

/// The arguments that select one candidate: pass them instead of the ambiguous name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Selector {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The arguments that pick this candidate.
    pub select: Selector,
}

/// One step of the path from the changed node to a dependent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Hop {
    pub id: i64,
    pub name: String,
    /// The relationship that reached this node from the previous hop (absent on the first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// That relationship's resolution, when it came from resolving a reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolution: Option<String>,
}

/// A node that could break if the target changes. `relation` says how it depends:
/// caller, reference, subclass, implementation, endpoint, decorated, importer.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Dependent {
    #[serde(flatten)]
    pub node: ContextNode,
    /// The node it depends on (the target or a nearer dependent), and through what.
    pub depends_on: Hop,
    /// The whole path from the target to this node, target first (`paths: true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<Hop>>,
    /// People and domains that own the node or its file (ASSIGNED_TO, BELONGS_TO).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owners: Vec<String>,
}

/// How many dependents sit at one distance with one relation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DependentGroup {
    pub distance: u32,
    pub relation: String,
    pub count: usize,
}

/// Dependents counted per file or per module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PlaceCount {
    /// A file path (tests) or a directory (`imports`: the module the files are in).
    pub place: String,
    pub count: usize,
    /// The nearest distance among them.
    pub distance: u32,
}

/// An owner of affected code and how many dependents they own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct OwnerCount {
    pub name: String,
    pub dependents: usize,
}

/// The answer of `blast_radius`: dependents grouped by distance and relation, tests apart,
/// reach only through imports collapsed into per-module counts.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct BlastRadius {
    pub target: ContextNode,
    /// Dependents in source code, nearest first: one page (`offset`, `limit`).
    pub items: Vec<Dependent>,
    /// Dependents found, of every kind (tests and import-only files included); a lower
    /// bound when `truncated`.
    pub total: usize,
    /// Counts by distance and relation (tests and import-only files included).
    pub groups: Vec<DependentGroup>,
    /// Test files that depend on the target, with how many of their symbols do (one page).
    pub tests: Vec<PlaceCount>,
    pub tests_total: usize,
    /// Files that depend only by importing (a file importing a file that imports ...),
    /// counted per directory (one page); `include_imports: true` lists them as items.
    pub imports: Vec<PlaceCount>,
    pub imports_total: usize,
    /// Owners of the affected code (of the dependents or their files), most affected first.
    pub owners: Vec<OwnerCount>,
    /// True when the traversal stopped at the server's bound.
    pub truncated: bool,
    /// The traversal depth used (after clamping).
    pub depth: u32,
    /// Each list shows at most `limit` entries from `offset` (after clamping).
    pub limit: usize,
    pub offset: usize,
    /// The `offset` of the next page, when some list has more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<usize>,
    /// Ambiguous edges not followed (`include_ambiguous: true` follows them).
    pub ambiguous_count: usize,
    /// Unresolved call sites in the target's language that use the name of a node of the
    /// traversed region: each might be a dependent the graph could not see.
    pub unresolved_count: usize,
    /// One page of those sites.
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
