//! Read-only filesystem inspection behind the `code.search_text` and `code.inspect_tree`
//! tools: text search on ripgrep's own crates (in process, no `rg` binary) and a tree
//! listing that reads no file contents.
//!
//! The caller owns the protocol: it validates arguments, jails paths and builds the
//! envelope. This crate takes an already canonical workspace `root` and an already resolved
//! absolute `scope` inside it, and returns plain structs whose serde form is exactly the
//! contract's `data` object (`../shared/spec/code-tools-contract.md`). Every path it returns
//! is workspace-relative with `/` separators; ignore rules (the hard-ignore list,
//! `.gitignore`) are matched relative to the root, never against the absolute path.
//!
//! ```no_run
//! use navegador_search::{search_text, SearchRequest};
//! # fn demo(root: &std::path::Path, scope: &std::path::Path) -> Result<(), navegador_search::SearchError> {
//! let req = SearchRequest {
//!     query: "useLoaderData".into(),
//!     regex: false,
//!     context: 1,
//!     limit: 50,
//!     include: Some("app/routes/**".into()),
//!     extensions: Some(vec![".ts".into(), ".tsx".into()]),
//!     // what an item's `language` is: the caller's language registry
//!     language_of: |p| p.ends_with(".ts").then_some("typescript"),
//! };
//! let out = search_text(root, scope, &req)?;
//! // `out.data` serializes to the contract's `data`; `out.truncated` means status `partial`
//! // with RESULT_TRUNCATED {returned: fileCount, total: totalFileCount, limit}.
//! # let _ = out; Ok(()) }
//! ```

use std::path::Path;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

mod search;
mod tree;

pub use search::search_text;
pub use tree::inspect_tree;

/// Names never walked by either tool, whatever `include_hidden` says: the contract's list
/// plus our own index folder. Matched against path components relative to the workspace
/// root.
pub const HARD_IGNORED: &[&str] = &[
    ".git", "node_modules", ".idea", ".vscode", ".agent", ".agents", ".claude", ".react-router",
    "build", "dist", ".next", "target", "coverage", ".turbo", ".cache", "tmp", "temp", "out",
    ".navegador",
];

/// Most entries `inspect_tree` returns; past it the answer is truncated and the total unknown.
pub const TREE_ENTRY_CAP: usize = 2_000;

/// A `code.search_text` request, validated by the caller.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    pub query: String,
    /// `false`: `query` is a literal string (regex metacharacters match themselves).
    pub regex: bool,
    /// Lines of context before and after each match (contract range 0..=10).
    pub context: usize,
    /// Most FILES returned (contract range 1..=200); totals still count every file.
    pub limit: usize,
    /// A glob in ripgrep's `-g` syntax, matched relative to the workspace root
    /// (`*.tsx` matches a file name anywhere, `src/**` is anchored). Narrows only.
    pub include: Option<String>,
    /// Language filter as file extensions (`[".ts", ".tsx"]`); `None` = every text file.
    pub extensions: Option<Vec<String>>,
    /// The language name an item reports for a path (the caller's language registry;
    /// this crate knows no languages).
    pub language_of: fn(&str) -> Option<&'static str>,
}

/// What `search_text` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOutcome {
    pub data: SearchData,
    /// Files were cut by `limit` (`data.totalFileCount > data.fileCount`).
    pub truncated: bool,
}

/// The contract's `SearchTextData`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchData {
    /// Files returned in `items`.
    pub file_count: usize,
    /// Matched lines returned in `items`.
    pub match_count: usize,
    /// Files with at least one matched line, before the limit.
    pub total_file_count: usize,
    /// Matched lines over all those files.
    pub total_match_count: usize,
    /// Sorted by path; each file's matches by line.
    pub items: Vec<SearchFile>,
}

/// One file with matches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchFile {
    /// Workspace-relative, `/`-separated.
    pub path: String,
    /// From the extension, by the request's `language_of`: one of the contract's
    /// `PublicLanguage` values (the tools publish the enum), or null.
    #[schemars(schema_with = "public_language_schema")]
    pub language: Option<&'static str>,
    pub match_count: usize,
    pub matches: Vec<SearchMatch>,
}

/// One matched line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchMatch {
    /// 1-based.
    #[schemars(range(min = 1))]
    pub line: u64,
    /// The line without its terminator; invalid UTF-8 replaced lossily.
    // An `Arc`, shared with the neighbouring matches that show this line as context.
    pub text: Arc<str>,
    /// Every match of the query in the line, as byte offsets into the line's bytes.
    pub submatches: Vec<Submatch>,
    /// The `context` lines just before this one (fewer at the start of the file), whether
    /// or not they match themselves: each match is a self-contained snippet.
    pub before: Vec<ContextLine>,
    /// The `context` lines just after this one (fewer at the end of the file).
    pub after: Vec<ContextLine>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Submatch {
    /// Byte offset within the line.
    pub start: usize,
    /// Byte offset within the line, exclusive.
    pub end: usize,
    pub text: Arc<str>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextLine {
    #[schemars(range(min = 1))]
    pub line: u64,
    pub text: Arc<str>,
}

/// Why a search or listing could not be answered at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchError {
    /// The regex (with `regex: true`) does not compile; the text names the problem.
    InvalidRegex(String),
    /// `include` or `file_pattern` is not a valid glob; the text names the problem.
    InvalidGlob(String),
    /// The scope could not be read, or is not inside the root.
    Io(String),
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::InvalidRegex(m) => write!(f, "invalid regex: {m}"),
            SearchError::InvalidGlob(m) => write!(f, "invalid glob: {m}"),
            SearchError::Io(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for SearchError {}

/// A `code.inspect_tree` request, validated by the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeRequest {
    /// Deepest entry listed, relative to the scope (0..=20; 0 lists nothing).
    pub max_depth: usize,
    /// Normalized by [`normalize_extensions`]; files only.
    pub extensions: Option<Vec<String>>,
    /// A glob on the file name (`*.py`); files only.
    pub file_pattern: Option<String>,
    pub include_stats: bool,
    pub include_hidden: bool,
}

/// What `inspect_tree` listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeOutcome {
    pub data: TreeData,
    /// More than [`TREE_ENTRY_CAP`] entries matched.
    pub truncated: bool,
    /// Entries matched; `None` when the cap stopped the count.
    pub total_matched: Option<usize>,
}

/// The contract's `InspectTreeData`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TreeData {
    /// The scope, workspace-relative (`.` for the root).
    pub root: String,
    pub entry_count: usize,
    /// Pre-order, directories first, names sorted case-insensitively.
    pub items: Vec<TreeItem>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TreeItem {
    /// Workspace-relative, `/`-separated.
    pub path: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: EntryKind,
    /// 1 for the scope's direct children.
    #[schemars(range(min = 1))]
    pub depth: usize,
    /// The file's last extension with its dot, as written (`.ts`); null for directories
    /// and for names without one (`Makefile`, `.gitignore`).
    pub extension: Option<String>,
    pub stats: Option<TreeStats>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    File,
    Directory,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TreeStats {
    /// Of the entry itself (a symlink's own size, not its target's).
    pub size_bytes: u64,
    /// ISO-8601 UTC to the second, e.g. `2026-01-02T03:04:05Z`.
    pub modified_at: String,
    pub is_symlink: bool,
}

/// Normalizes an `extensions` argument: trimmed, lower-cased, a leading dot added, deduped,
/// sorted. An entry that is empty or just `.` is an error naming it.
pub fn normalize_extensions(raw: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(raw.len());
    for entry in raw {
        let t = entry.trim().to_lowercase();
        let ext = if t.starts_with('.') { t } else { format!(".{t}") };
        if ext == "." {
            return Err(format!("extensions entry '{entry}' is invalid: expected an extension such as '.ts'"));
        }
        out.push(ext);
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// `SearchFile::language`: a language name of the caller's registry, or null (the `code.*`
/// tools publish it as their `PublicLanguage` enum).
fn public_language_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "anyOf": [{ "type": "string" }, { "type": "null" }] })
}

/// `path` relative to `root`, `/`-separated, `.` for the root itself.
pub(crate) fn rel_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let mut s = String::new();
    for c in rel.components() {
        if !s.is_empty() {
            s.push('/');
        }
        s.push_str(&c.as_os_str().to_string_lossy());
    }
    if s.is_empty() {
        s.push('.');
    }
    Some(s)
}

/// Whether any component of the root-relative `rel` is hard-ignored.
pub(crate) fn under_hard_ignored(root: &Path, path: &Path) -> bool {
    path.strip_prefix(root)
        .map(|rel| rel.components().any(|c| HARD_IGNORED.iter().any(|h| c.as_os_str() == *h)))
        .unwrap_or(false)
}
