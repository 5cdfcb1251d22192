//! `changes`: what a diff touches and who must look. The change is read from git (or a
//! patch), both sides of each file are parsed with the language packs, changed lines are
//! mapped to the innermost symbols they fall in (added / modified / deleted / signature
//! changed, renames by git's detection), and each changed symbol is joined with the graph:
//! its dependents (`blast_radius`), the tests that reach it, its owners, the decisions and
//! rules governing it, and a risk level with the reasons.
//!
//! Which revision the graph holds is decided per file by content hash: the `File` node's
//! `content_hash` is compared with the hash of each side, so a graph not re-ingested since
//! the edit answers for the old side (deleted symbols keep their dependents) and a
//! re-ingested one for the new side (a deleted symbol is gone; the unresolved sites still
//! using its name are counted).

mod diff;
mod git;
mod render;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::Path;

use navegador_lang::{extract, registry, ExtractOptions};
use navegador_model::{is_test_path, FileFacts, Label};
use navegador_store::{NodeRow, Store};
use schemars::JsonSchema;
use serde::Serialize;

pub use render::{render_markdown, render_text};

use crate::{blast_radius, knowledge, Limits, Options, Target};

/// Why a change could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ChangesError {
    #[error("{0} is not a git repository; pipe a unified diff instead (`git diff | navegador changes -`, or the MCP argument `diff`)")]
    NotRepository(String),
    #[error("unknown revision `{0}`; check the name (`git branch -a`, `git log --oneline`) or fetch it (`git fetch origin {0}`)")]
    BadRef(String),
    #[error("{0} is not in this shallow clone; fetch the history it needs (`git fetch --deepen=50`, `git fetch --unshallow`, or `fetch-depth: 0` in actions/checkout)")]
    Shallow(String),
    #[error("{0}")]
    Git(String),
    #[error("the diff is empty; pipe the output of `git diff` (or `diff -u`), or drop `-` to compare the working tree with HEAD")]
    EmptyPatch,
    #[error("the diff cannot be read: {0}")]
    BadDiff(String),
    #[error("the diff does not apply to the workspace, forward or backward: {0}; make the patch against this checkout (`git diff` from the same base), or check out the commit it was made on")]
    DoesNotApply(String),
    #[error("unknown risk level `{0}`; one of low, medium, high, critical")]
    BadLevel(String),
}

/// Where the change comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// The working tree (tracked and untracked files) against `base` (HEAD).
    WorkingTree { base: Option<String> },
    /// The index against `base` (HEAD).
    Staged { base: Option<String> },
    /// `A...B` (from their merge base), `A..B`, or one commit.
    Range(String),
    /// A unified diff's text.
    Patch(String),
}

/// What one report may hold.
#[derive(Debug, Clone)]
pub struct ChangesOptions {
    /// Dependents traversal depth.
    pub depth: i64,
    /// Changed symbols listed (the others counted; risk and totals cover all).
    pub limit: usize,
    pub offset: usize,
    /// Dependents listed per changed symbol.
    pub dependents_limit: usize,
    /// Changed symbols whose impact is computed (the rest are listed without it).
    pub max_symbols: usize,
    /// Time budget of each rule's constraint.
    pub rule_timeout_ms: u64,
}

impl Default for ChangesOptions {
    fn default() -> Self {
        ChangesOptions { depth: 3, limit: 20, offset: 0, dependents_limit: 5, max_symbols: 300, rule_timeout_ms: 5_000 }
    }
}

/// A risk level, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    Low,
    Medium,
    High,
    Critical,
}

impl Risk {
    pub fn parse(s: &str) -> Result<Risk, ChangesError> {
        match s {
            "low" => Ok(Risk::Low),
            "medium" => Ok(Risk::Medium),
            "high" => Ok(Risk::High),
            "critical" => Ok(Risk::Critical),
            _ => Err(ChangesError::BadLevel(s.to_string())),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
            Risk::Critical => "critical",
        }
    }
}

/// One changed file.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChangedFile {
    pub path: String,
    /// The path before a rename.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    /// added, modified, deleted, renamed.
    pub status: String,
    pub added_lines: usize,
    pub removed_lines: usize,
    /// Which side the graph holds for it (by content hash): old, new, neither (re-ingest),
    /// absent (not indexed).
    pub graph: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Why it is listed apart: `binary`, `linguist-generated (.gitattributes)`, `vendored path`, ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub apart: Option<String>,
}

/// A dependent of a changed symbol.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Affected {
    pub name: String,
    #[serde(rename = "type")]
    pub node_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// caller, subclass, implementation, reference, decorated, endpoint, importer.
    pub relation: String,
    pub distance: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolution: Option<String>,
}

/// The dependents of one changed symbol, as `blast_radius` computes them.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct Impact {
    /// Every dependent found (tests and import-only files included); a lower bound when
    /// `truncated`.
    pub total: usize,
    /// Counts by distance and relation.
    pub groups: Vec<crate::DependentGroup>,
    /// The nearest dependents in source code (one page).
    pub items: Vec<Affected>,
    /// Ambiguous edges counted, not followed.
    pub ambiguous_count: usize,
    /// Unresolved sites using a name of the region: dependents the graph may have missed.
    pub unresolved_count: usize,
    pub truncated: bool,
}

/// A symbol the change touches.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChangedSymbol {
    pub name: String,
    #[serde(rename = "type")]
    pub node_type: String,
    /// added, modified, deleted, signature_changed, renamed (a file moved).
    pub change: String,
    pub file: String,
    /// Its file before a rename, when it moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_file: Option<String>,
    /// Its first line on the new side (the old side for a deleted symbol).
    pub line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_signature: Option<String>,
    /// Endpoints exposing it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impact: Option<Impact>,
    /// Test functions reaching it through calls.
    pub tests: usize,
    pub risk: Risk,
    pub reasons: Vec<String>,
}

/// A person or domain to ask, with why.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Reviewer {
    /// The person (`@alice`, `carol`) or domain.
    pub name: String,
    /// Owns changed code (true) or only affected code.
    pub owns_changed: bool,
    /// Why: `codeowners:/src/api/ via file src/api/x.py (changed)`, `owns 3 dependents`.
    pub why: Vec<String>,
}

/// A decision or rule governing changed code.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Governing {
    /// `Decision` or `Rule`.
    #[serde(rename = "type")]
    pub node_type: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<String>,
    /// The changed symbols it governs, with how (`direct`, `file x`, `domain d`).
    pub governs: Vec<String>,
}

/// A rule's constraint evaluated on the changed region. A violation is named by the
/// qualified names of the nodes its row returns; one touching changed files is `existing`
/// when both revisions have it, `introduced` when the base revision did not, `fixed` when
/// the new side does not (see `side_had`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RuleResult {
    pub rule: String,
    pub severity: String,
    /// violated (the change introduces violations), existing (only violations already
    /// there), fixed (the change removes every violation there was), pass, error.
    pub status: String,
    /// Violations this change introduces (one page; `--fail-on` and risk count these).
    pub introduced: Vec<String>,
    pub introduced_total: usize,
    /// Violations on changed code that the base revision already had (one page).
    pub existing: Vec<String>,
    pub existing_total: usize,
    /// Violations the change removes: the base revision had them, the new side has not (one
    /// page). Seen when the graph holds the base side of the files they touch (before a
    /// re-ingest); a re-ingested graph no longer returns them.
    pub fixed: Vec<String>,
    pub fixed_total: usize,
    /// Violations elsewhere (already there, untouched by the change).
    pub elsewhere: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A test reaching changed code: a test function through calls, or a test file importing
/// it (no call found).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TestHit {
    /// The test function, or the test file (`via: imports`).
    pub name: String,
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Calls between it and the nearest changed symbol; for an importing file, 1 when it
    /// imports the symbol by name, 2 when it imports the symbol's file.
    pub distance: u32,
    /// The changed symbols it reaches (first few).
    pub reaches: Vec<String>,
    /// How: `calls` (the default, not written) or `imports`.
    #[serde(skip_serializing_if = "is_calls")]
    pub via: String,
}

fn is_calls(via: &str) -> bool {
    via == "calls"
}

/// The answer of `changes`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChangesReport {
    /// What was compared: `working tree vs HEAD`, `index vs HEAD`, `main...HEAD`, `patch (...)`.
    pub compared: String,
    /// The commit of the old side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// The highest risk of any changed symbol (low when nothing changed).
    pub risk: Risk,
    /// Changed source files.
    pub files: Vec<ChangedFile>,
    /// Generated, vendored and binary files: listed, not analysed.
    pub apart: Vec<ChangedFile>,
    /// Changed symbols, riskiest first (one page).
    pub symbols: Vec<ChangedSymbol>,
    pub symbols_total: usize,
    /// Counts by change kind over every changed symbol.
    pub by_change: BTreeMap<String, usize>,
    pub reviewers: Vec<Reviewer>,
    pub governing: Vec<Governing>,
    pub rules: Vec<RuleResult>,
    /// Tests to run first: test functions reaching changed code through calls, nearest
    /// first, then test files importing it that no call reached (one page).
    pub tests: Vec<TestHit>,
    pub tests_total: usize,
    /// Changed symbols (not deleted) that no test reaches.
    pub untested: Vec<String>,
    pub untested_total: usize,
    pub limit: usize,
    pub offset: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<usize>,
    pub notes: Vec<String>,
}

/// A definition on one side of a file.
#[derive(Debug, Clone)]
struct Sym {
    key: String,
    label: Label,
    name: String,
    qname: String,
    start: u32,
    end: u32,
    signature: Option<String>,
    exported: bool,
}

const SYMBOL_LABELS: &[Label] = &[Label::Function, Label::Method, Label::Class];

fn symbols(path: &str, bytes: &[u8]) -> Option<(String, Vec<Sym>)> {
    let lang = registry().detect(path, &bytes[..bytes.len().min(16 * 1024)])?;
    let text = String::from_utf8_lossy(bytes);
    let facts: FileFacts = extract(path, &text, lang, &ExtractOptions::default());
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, s) in facts.symbols.iter().enumerate() {
        if !SYMBOL_LABELS.contains(&s.label) {
            continue;
        }
        // The local path: the chain of enclosing names inside the file (stable across a move).
        let mut chain = vec![s.name.clone()];
        let mut p = s.parent;
        while let Some(pi) = p {
            let ps = &facts.symbols[pi as usize];
            chain.push(ps.name.clone());
            p = ps.parent;
        }
        chain.reverse();
        let base = format!("{}:{}", s.label.as_str(), chain.join("."));
        let n = seen.entry(base.clone()).or_default();
        *n += 1;
        let key = if *n > 1 { format!("{base}#{n}") } else { base };
        let _ = i;
        out.push(Sym {
            key,
            label: s.label,
            name: s.name.clone(),
            qname: s.qualified_name.clone(),
            start: s.range.start_line,
            end: s.range.end_line,
            signature: s.signature.clone(),
            exported: s.is_exported,
        });
    }
    Some((lang.as_str().to_string(), out))
}

/// The innermost symbol containing each line.
fn touched(syms: &[Sym], lines: &[u32]) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    for &l in lines {
        let best = syms.iter().enumerate().filter(|(_, s)| s.start <= l && l <= s.end).min_by_key(|(_, s)| s.end - s.start);
        if let Some((i, _)) = best {
            out.insert(i);
        }
    }
    out
}

fn hash(bytes: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes))
}

fn norm(s: &Option<String>) -> String {
    s.as_deref().unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Generated or vendored, by `.gitattributes` or by convention; `None` for ordinary source.
fn apart_reason(path: &str, attrs: &[(String, String)], head: Option<&[u8]>) -> Option<String> {
    for (pattern, attr) in attrs.iter().rev() {
        if glob_match(pattern, path) {
            return Some(format!("{attr} (.gitattributes)"));
        }
    }
    const DIRS: &[&str] = &["vendor/", "node_modules/", "third_party/", "third-party/", "bower_components/", "dist/", "Pods/"];
    if DIRS.iter().any(|d| path.starts_with(d) || path.contains(&format!("/{d}"))) {
        return Some("vendored path".into());
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    const GENERATED: &[&str] = &[".min.js", ".min.css", "_pb2.py", "_pb2_grpc.py", ".pb.go", ".pb.cc", ".pb.h", ".g.dart", ".generated.cs", ".designer.cs"];
    const LOCKS: &[&str] = &["package-lock.json", "yarn.lock", "pnpm-lock.yaml", "Cargo.lock", "go.sum", "poetry.lock", "Gemfile.lock", "composer.lock"];
    if GENERATED.iter().any(|g| name.ends_with(g)) || LOCKS.contains(&name) {
        return Some("generated (file name)".into());
    }
    if let Some(h) = head {
        let text = String::from_utf8_lossy(&h[..h.len().min(1024)]);
        if text.lines().take(5).any(|l| l.contains("DO NOT EDIT") || l.contains("@generated")) {
            return Some("generated (header)".into());
        }
    }
    None
}

/// `.gitattributes` lines setting linguist-generated / linguist-vendored (unset ones drop out).
fn gitattributes(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for l in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut parts = l.split_whitespace();
        let Some(pattern) = parts.next() else { continue };
        for a in parts {
            for attr in ["linguist-generated", "linguist-vendored"] {
                if a == attr || a == format!("{attr}=true") {
                    out.push((pattern.to_string(), attr.to_string()));
                }
            }
        }
    }
    out
}

/// gitattributes-style matching: a pattern without `/` matches the file name; `*` stays in
/// a segment, `**` crosses them.
fn glob_match(pattern: &str, path: &str) -> bool {
    fn m(p: &[u8], s: &[u8]) -> bool {
        if p.is_empty() {
            return s.is_empty();
        }
        if p.starts_with(b"**") {
            let rest = p[2..].strip_prefix(b"/").unwrap_or(&p[2..]);
            return (0..=s.len()).any(|i| (i == 0 || s[i - 1] == b'/' || rest.is_empty()) && m(rest, &s[i..]));
        }
        match p[0] {
            b'*' => (0..=s.len()).take_while(|&i| i == 0 || s[i - 1] != b'/').any(|i| m(&p[1..], &s[i..])),
            b'?' => !s.is_empty() && s[0] != b'/' && m(&p[1..], &s[1..]),
            c => !s.is_empty() && s[0] == c && m(&p[1..], &s[1..]),
        }
    }
    let pattern = pattern.trim_end_matches('/');
    if let Some(anchored) = pattern.strip_prefix('/') {
        return m(anchored.as_bytes(), path.as_bytes()) || m(format!("{anchored}/**").as_bytes(), path.as_bytes());
    }
    if !pattern.contains('/') {
        let name = path.rsplit('/').next().unwrap_or(path);
        return m(pattern.as_bytes(), name.as_bytes());
    }
    m(pattern.as_bytes(), path.as_bytes()) || m(format!("{pattern}/**").as_bytes(), path.as_bytes())
}

/// A changed symbol before the graph is asked.
struct Pending {
    sym: Sym,
    change: &'static str,
    file: String,
    old_file: Option<String>,
    old_signature: Option<String>,
    /// The path and first line under which the graph holds it.
    graph_at: Option<(String, u32)>,
}

/// Reads the change in `root` and reports its impact on the graph in `store`.
pub fn changes(store: &Store, root: &Path, source: &Source, opts: &ChangesOptions, limits: &Limits) -> crate::Result<ChangesReport, ChangesFailure> {
    let change = match source {
        Source::Patch(text) => git::from_patch(root, text)?,
        other => git::from_git(root, other)?,
    };
    // The report reads thousands of rows scattered over the graph (each changed symbol's
    // cone of callers): a SQLite graph is read mapped, with a larger page cache, in one
    // read transaction (one snapshot, the WAL read lock taken once). On Django, 100 changed
    // files made 262,000 `pread` calls through the default 2 MB cache.
    if let Some(c) = store.sqlite_conn() {
        let _ = c.execute_batch("PRAGMA mmap_size = 268435456; PRAGMA cache_size = -65536;");
    }
    let _snapshot = store.snapshot();
    Ok(report(store, root, change, opts, limits)?)
}

/// A change that cannot be read, or a graph that cannot be asked.
#[derive(Debug, thiserror::Error)]
pub enum ChangesFailure {
    #[error(transparent)]
    Change(#[from] ChangesError),
    #[error(transparent)]
    Analysis(#[from] crate::AnalysisError),
}

impl From<navegador_store::StoreError> for ChangesFailure {
    fn from(e: navegador_store::StoreError) -> Self {
        ChangesFailure::Analysis(e.into())
    }
}

/// Whether `root` is a git work tree (callers offer stdin when it is not).
pub fn is_git_repository(root: &Path) -> bool {
    git::is_repository(root)
}

fn report(store: &Store, root: &Path, change: git::Change, opts: &ChangesOptions, limits: &Limits) -> Result<ChangesReport, ChangesFailure> {
    let mut notes: Vec<String> = Vec::new();
    let attrs = std::fs::read_to_string(root.join(".gitattributes")).map(|t| gitattributes(&t)).unwrap_or_default();
    let mut files = Vec::new();
    let mut apart = Vec::new();
    let mut pending: Vec<Pending> = Vec::new();
    for fc in &change.files {
        let p = &fc.patch;
        let (removed, added) = p.changed_lines();
        let path = p.path().to_string();
        let status = match (&p.old_path, &p.new_path) {
            (None, _) => "added",
            (_, None) => "deleted",
            (Some(a), Some(b)) if a != b => "renamed",
            _ => "modified",
        };
        // Which side the graph holds.
        let graph_file = |x: &Option<String>| x.as_ref().and_then(|x| store.file_node(x).ok().flatten());
        let (g_old, g_new) = (graph_file(&p.old_path), graph_file(&p.new_path));
        let stored = |n: &Option<NodeRow>| n.as_ref().and_then(|n| n.props.get("content_hash").and_then(|v| v.as_str()).map(str::to_string));
        let side = if g_new.is_some() && fc.new.as_ref().is_some_and(|b| stored(&g_new) == Some(hash(b))) {
            "new"
        } else if g_old.is_some() && fc.old.as_ref().is_some_and(|b| stored(&g_old) == Some(hash(b))) {
            "old"
        } else if g_new.is_some() || g_old.is_some() {
            "neither"
        } else {
            "absent"
        };
        let mut file = ChangedFile {
            path: path.clone(),
            old_path: (status == "renamed").then(|| p.old_path.clone()).flatten(),
            status: status.into(),
            added_lines: added.len(),
            removed_lines: removed.len(),
            graph: side.into(),
            language: None,
            apart: None,
        };
        let head = fc.new.as_deref().or(fc.old.as_deref());
        if p.binary || head.is_some_and(|h| h[..h.len().min(8000)].contains(&0)) {
            file.apart = Some("binary".into());
        } else if let Some(r) = apart_reason(&path, &attrs, head) {
            file.apart = Some(r);
        }
        if file.apart.is_some() {
            apart.push(file);
            continue;
        }
        let old_syms = fc.old.as_ref().zip(p.old_path.as_ref()).and_then(|(b, op)| symbols(op, b));
        let new_syms = fc.new.as_ref().zip(p.new_path.as_ref()).and_then(|(b, np)| symbols(np, b));
        file.language = new_syms.as_ref().or(old_syms.as_ref()).map(|(l, _)| l.clone());
        if file.language.is_none() {
            files.push(file);
            continue;
        }
        let old_syms = old_syms.map(|(_, s)| s).unwrap_or_default();
        let new_syms = new_syms.map(|(_, s)| s).unwrap_or_default();
        let old_by_key: HashMap<&str, &Sym> = old_syms.iter().map(|s| (s.key.as_str(), s)).collect();
        let new_by_key: HashMap<&str, &Sym> = new_syms.iter().map(|s| (s.key.as_str(), s)).collect();
        let mut keys: Vec<String> = Vec::new();
        for i in touched(&new_syms, &added) {
            keys.push(new_syms[i].key.clone());
        }
        for i in touched(&old_syms, &removed) {
            keys.push(old_syms[i].key.clone());
        }
        let mut seen = HashSet::new();
        keys.retain(|k| seen.insert(k.clone()));
        let moved = status == "renamed";
        for k in keys {
            let (o, n) = (old_by_key.get(k.as_str()).copied(), new_by_key.get(k.as_str()).copied());
            let (sym, change) = match (o, n) {
                (None, Some(n)) => (n.clone(), "added"),
                (Some(o), None) => (o.clone(), "deleted"),
                (Some(o), Some(n)) if norm(&o.signature) != norm(&n.signature) => (n.clone(), "signature_changed"),
                (Some(_), Some(n)) => (n.clone(), "modified"),
                (None, None) => continue,
            };
            let graph_at = match side {
                "new" => n.map(|s| (p.new_path.clone().unwrap_or_default(), s.start)),
                "old" => o.map(|s| (p.old_path.clone().unwrap_or_default(), s.start)),
                "neither" => n.and(p.new_path.clone()).or(o.and(p.old_path.clone())).map(|x| (x, 0)),
                _ => None,
            };
            pending.push(Pending {
                old_signature: if change == "signature_changed" { o.and_then(|o| o.signature.clone()) } else { None },
                sym,
                change,
                file: path.clone(),
                old_file: moved.then(|| p.old_path.clone()).flatten(),
                graph_at,
            });
        }
        if moved {
            // The file itself moved: its importers are affected even where no line changed.
            let at = match side {
                "new" => p.new_path.clone(),
                "old" | "neither" => p.old_path.clone(),
                _ => None,
            };
            pending.push(Pending {
                sym: Sym { key: String::new(), label: Label::File, name: path.clone(), qname: path.clone(), start: 1, end: 1, signature: None, exported: true },
                change: "renamed",
                file: path.clone(),
                old_file: p.old_path.clone(),
                old_signature: None,
                graph_at: at.map(|a| (a, 0)),
            });
        }
        if side == "neither" {
            notes.push(format!("the graph holds neither side of {path} (it was indexed at another revision): lines may be off; run `navegador ingest` for an exact answer"));
        } else if side == "absent" {
            notes.push(format!("{path} is not in the graph: its impact is unknown; run `navegador ingest`"));
        }
        files.push(file);
    }
    // Ask the graph about each changed symbol.
    let mut symbols: Vec<ChangedSymbol> = Vec::new();
    let mut graph_nodes: Vec<Option<NodeRow>> = Vec::new();
    let mut owners: BTreeMap<String, (bool, Vec<String>)> = BTreeMap::new();
    let mut governing: BTreeMap<(String, String), Governing> = BTreeMap::new();
    let mut critical_rules: HashMap<String, Vec<String>> = HashMap::new();
    let mut skipped_impact = 0usize;
    for (i, pd) in pending.iter().enumerate() {
        let mut cs = ChangedSymbol {
            name: pd.sym.qname.clone(),
            node_type: pd.sym.label.as_str().to_string(),
            change: pd.change.into(),
            file: pd.file.clone(),
            old_file: pd.old_file.clone(),
            line: pd.sym.start,
            signature: if pd.sym.label == Label::File { None } else { pd.sym.signature.clone() },
            old_signature: pd.old_signature.clone(),
            endpoints: Vec::new(),
            impact: None,
            tests: 0,
            risk: Risk::Low,
            reasons: Vec::new(),
        };
        let node = match &pd.graph_at {
            Some((gp, line)) => graph_node(store, gp, &pd.sym, *line)?,
            None => None,
        };
        if let Some(n) = &node {
            if i < opts.max_symbols {
                let gp = n.file_path.clone().unwrap_or_default();
                let name = if n.label == "File" { gp.clone() } else { n.qualified_name.clone().or(n.name.clone()).unwrap_or_default() };
                let target = Target { name: &name, file: Some(&gp), line: n.line_start.filter(|_| n.label != "File") };
                let bopts = Options { depth: opts.depth, limit: Some(opts.dependents_limit as i64), ..Options::default() };
                match blast_radius(store, &target, &bopts, limits) {
                    Ok(b) => {
                        cs.endpoints = endpoints_of(store, n.id)?;
                        cs.impact = Some(Impact {
                            total: b.total,
                            groups: b.groups,
                            items: b
                                .items
                                .iter()
                                .map(|d| Affected {
                                    name: d.node.qualified_name.clone().unwrap_or(d.node.name.clone()),
                                    node_type: d.node.node_type.clone(),
                                    file: d.node.file_path.clone(),
                                    line: d.node.line_start,
                                    relation: d.node.relation.clone().unwrap_or_default(),
                                    distance: d.node.distance.unwrap_or(1),
                                    resolution: d.node.resolution.clone(),
                                })
                                .collect(),
                            ambiguous_count: b.ambiguous_count,
                            unresolved_count: b.unresolved_count,
                            truncated: b.truncated,
                        });
                        for o in &b.owners {
                            let e = owners.entry(o.name.clone()).or_insert((false, Vec::new()));
                            e.1.push(format!("owns {} dependent{} of {}", o.dependents, if o.dependents == 1 { "" } else { "s" }, cs.name));
                        }
                    }
                    Err(e) => notes.push(format!("impact of {} not computed: {e}", cs.name)),
                }
                // Owners and governing knowledge of the changed code itself.
                if let Ok(ow) = knowledge::find_owners(store, &name, Some(&gp)) {
                    for o in ow.items {
                        // Named as blast_radius names the owners of dependents, so one person is one reviewer.
                        let who = o.node.name.clone();
                        let e = owners.entry(who).or_insert((true, Vec::new()));
                        e.0 = true;
                        e.1.push(format!("{} via {} ({} {})", o.source, o.via, cs.change, cs.name));
                    }
                }
                if let Ok(r) = knowledge::get_rationale(store, &name, Some(&gp)) {
                    for it in r.items.into_iter().filter(|it| matches!(it.node.node_type.as_str(), "Decision" | "Rule")) {
                        let severity = store.node(it.node.id)?.and_then(|n| n.props.get("severity").and_then(|v| v.as_str()).map(str::to_string));
                        if severity.as_deref() == Some("critical") {
                            critical_rules.entry(cs.name.clone()).or_default().push(it.node.name.clone());
                        }
                        let g = governing.entry((it.node.node_type.clone(), it.node.name.clone())).or_insert(Governing {
                            node_type: it.node.node_type.clone(),
                            name: it.node.name.clone(),
                            severity,
                            governs: Vec::new(),
                        });
                        g.governs.push(format!("{} ({})", cs.name, it.via));
                    }
                }
            } else {
                skipped_impact += 1;
            }
        } else if pd.change == "deleted" && pd.sym.label != Label::File {
            // Gone from the graph already: the sites still using its name.
            let n = store.sites_named(&pd.sym.name, "unresolved")?.len();
            if n > 0 {
                cs.reasons.push(format!("{n} unresolved call sites still use the name `{}`", pd.sym.name));
                cs.risk = Risk::High;
            }
        }
        graph_nodes.push(node);
        symbols.push(cs);
    }
    if skipped_impact > 0 {
        notes.push(format!("impact computed for the first {} changed symbols; {skipped_impact} more listed without it (narrow the range)", opts.max_symbols));
    }
    // Tests reaching changed code.
    let starts: Vec<(usize, i64)> = graph_nodes.iter().enumerate().filter_map(|(i, n)| n.as_ref().map(|n| (i, n.id))).collect();
    let (tests, per_symbol) = reaching_tests(store, &starts, &symbols, opts.depth.max(1) as u32 + 1)?;
    for (i, n) in per_symbol {
        symbols[i].tests = n;
    }
    // Rules on the changed region: only the violations this change introduces raise risk.
    let (rules, introduced) = evaluate_rules(store, &change.files, &files, opts.limit, opts.rule_timeout_ms)?;
    let reingested = files.iter().filter(|f| f.graph == "new").count();
    if !rules.is_empty() && reingested > 0 {
        notes.push(format!(
            "violations this change removes are listed from a graph of the base side; it holds the new side of {reingested} changed file{} (re-ingested), so none removed there can be seen",
            if reingested == 1 { "" } else { "s" }
        ));
    }
    for (rule, severity, violations) in &introduced {
        if severity == "critical" {
            for names in violations {
                for s in symbols.iter().filter(|s| names.contains(&s.name)) {
                    critical_rules.entry(s.name.clone()).or_default().push(format!("{rule} (violated)"));
                }
            }
        }
    }
    // Risk per symbol.
    for s in symbols.iter_mut() {
        let exported = pending.iter().find(|p| p.sym.qname == s.name && p.file == s.file).is_some_and(|p| p.sym.exported);
        assess(s, exported, critical_rules.get(&s.name));
    }
    let risk = symbols.iter().map(|s| s.risk).max().unwrap_or(Risk::Low);
    let mut by_change: BTreeMap<String, usize> = BTreeMap::new();
    for s in &symbols {
        *by_change.entry(s.change.clone()).or_default() += 1;
    }
    let untested_all: Vec<String> =
        symbols.iter().filter(|s| s.change != "deleted" && s.node_type != "File" && s.tests == 0).map(|s| format!("{} ({})", s.name, s.file)).collect();
    symbols.sort_by(|a, b| (std::cmp::Reverse(a.risk), &a.file, a.line, &a.name).cmp(&(std::cmp::Reverse(b.risk), &b.file, b.line, &b.name)));
    let total = symbols.len();
    let (offset, limit) = (opts.offset.min(total), opts.limit);
    let page: Vec<ChangedSymbol> = symbols.into_iter().skip(offset).take(limit).collect();
    let next_offset = (offset + page.len() < total).then_some(offset + page.len());
    if let Some(n) = next_offset {
        notes.push(format!("{} of {total} changed symbols listed (riskiest first); offset={n} for more", page.len()));
    }
    let tests_total = tests.len();
    let tests: Vec<TestHit> = tests.into_iter().take(limit).collect();
    if tests_total > tests.len() {
        notes.push(format!("{} of {tests_total} tests reaching changed code listed, nearest first", tests.len()));
    }
    let untested_total = untested_all.len();
    let untested: Vec<String> = untested_all.into_iter().take(limit).collect();
    let mut reviewers: Vec<Reviewer> = owners.into_iter().map(|(name, (owns_changed, why))| Reviewer { name, owns_changed, why }).collect();
    reviewers.sort_by(|a, b| (std::cmp::Reverse(a.owns_changed), std::cmp::Reverse(a.why.len()), &a.name).cmp(&(std::cmp::Reverse(b.owns_changed), std::cmp::Reverse(b.why.len()), &b.name)));
    for r in reviewers.iter_mut() {
        r.why.dedup();
        r.why.truncate(5);
    }
    if change.files.is_empty() {
        notes.push(format!("no changes ({}); pass --staged, a range (main...HEAD) or --base REF to compare something else", change.compared));
    }
    Ok(ChangesReport {
        compared: change.compared,
        base: change.base,
        risk,
        files,
        apart,
        symbols: page,
        symbols_total: total,
        by_change,
        reviewers,
        governing: governing.into_values().collect(),
        rules,
        tests,
        tests_total,
        untested,
        untested_total,
        limit,
        offset,
        next_offset,
        notes,
    })
}

/// The graph node of a changed symbol: same label and qualified name in its file, the one
/// starting at `line` when several do.
fn graph_node(store: &Store, path: &str, sym: &Sym, line: u32) -> Result<Option<NodeRow>, ChangesFailure> {
    if sym.label == Label::File {
        return Ok(store.file_node(path)?);
    }
    let cands: Vec<NodeRow> = store
        .nodes_in_file(path)?
        .into_iter()
        .filter(|n| n.label == sym.label.as_str() && (n.qualified_name.as_deref() == Some(&sym.qname) || n.name.as_deref() == Some(&sym.name) && n.qualified_name.as_deref().is_some_and(|q| q.ends_with(&sym.qname.rsplit(['.', ':']).next().unwrap_or("").to_string()))))
        .collect();
    let exact: Vec<&NodeRow> = cands.iter().filter(|n| n.qualified_name.as_deref() == Some(&sym.qname)).collect();
    let pool: Vec<&NodeRow> = if exact.is_empty() { cands.iter().collect() } else { exact };
    Ok(pool.iter().find(|n| line > 0 && n.line_start == Some(line)).or(pool.first()).map(|n| (*n).clone()))
}

fn endpoints_of(store: &Store, id: i64) -> Result<Vec<String>, ChangesFailure> {
    let mut out = Vec::new();
    for e in store.edges_of(id, false, Some("EXPOSES"))? {
        if let Some(n) = store.node(e.src)? {
            let s = |k: &str| n.props.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
            let m = s("method");
            out.push(format!("{}{}", if m.is_empty() { String::new() } else { format!("{m} ") }, if s("path").is_empty() { n.name.clone().unwrap_or_default() } else { s("path") }));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Test functions that reach changed nodes through incoming CALLS/REFERENCES edges (exact
/// and inferred), within `depth` hops, and across services: a test requesting an endpoint
/// (`HTTP_CALLS`) reaches its handler (`EXPOSES`; the endpoint is not a hop); each changed
/// symbol's count of them. Then the test
/// files importing a changed symbol or its file (`via: imports`), which no call reached:
/// tests to run too, though they do not make the symbol tested. The callers of a node are
/// read once for all changed symbols (their cones overlap: on Django, 100 changed
/// functions share most of their callers).
fn reaching_tests(store: &Store, starts: &[(usize, i64)], symbols: &[ChangedSymbol], depth: u32) -> Result<(Vec<TestHit>, Vec<(usize, usize)>), ChangesFailure> {
    let mut hits: BTreeMap<i64, (NodeRow, u32, Vec<usize>)> = BTreeMap::new();
    let mut callers: HashMap<i64, std::rc::Rc<Vec<NodeRow>>> = HashMap::new();
    for &(si, start) in starts {
        let mut seen: HashSet<i64> = HashSet::from([start]);
        let mut queue: VecDeque<(i64, u32)> = VecDeque::from([(start, 0)]);
        while let Some((id, d)) = queue.pop_front() {
            if d >= depth {
                continue;
            }
            let srcs = match callers.get(&id) {
                Some(c) => c.clone(),
                None => {
                    let edges: Vec<_> = store
                        .edges_of(id, false, None)?
                        .into_iter()
                        .filter(|e| {
                            matches!(e.edge_type.as_str(), "CALLS" | "REFERENCES" | "EXPOSES" | "HTTP_CALLS" | "GRAPHQL_CALLS")
                                && crate::MinResolution::Inferred.admits(e.resolution.as_deref())
                        })
                        .collect();
                    let c = std::rc::Rc::new(store.nodes_by_ids(&edges.iter().map(|e| e.src).collect::<Vec<_>>())?);
                    callers.insert(id, c.clone());
                    c
                }
            };
            for n in srcs.iter() {
                if !seen.insert(n.id) {
                    continue;
                }
                let test = n.file_path.as_deref().is_some_and(is_test_path) && matches!(n.label.as_str(), "Function" | "Method");
                if test {
                    let h = hits.entry(n.id).or_insert((n.clone(), d + 1, Vec::new()));
                    h.1 = h.1.min(d + 1);
                    if !h.2.contains(&si) {
                        h.2.push(si);
                    }
                }
                queue.push_back((n.id, if n.label == "Endpoint" { d } else { d + 1 }));
            }
        }
    }
    let mut per: HashMap<usize, usize> = HashMap::new();
    for (_, _, s) in hits.values() {
        for &i in s {
            *per.entry(i).or_default() += 1;
        }
    }
    let called_from: HashSet<String> = hits.values().filter_map(|(n, _, _)| n.file_path.clone()).collect();
    let mut tests: Vec<TestHit> = hits
        .into_values()
        .map(|(n, d, s)| TestHit {
            name: n.qualified_name.clone().or(n.name.clone()).unwrap_or_default(),
            file: n.file_path.clone().unwrap_or_default(),
            line: n.line_start,
            distance: d,
            reaches: s.iter().take(3).map(|&i| symbols[i].name.clone()).collect(),
            via: "calls".into(),
        })
        .collect();
    // Test files importing changed code (the symbol, or its file) that no call reached.
    let mut importers: BTreeMap<String, (u32, Vec<usize>)> = BTreeMap::new();
    let mut file_ids: HashMap<String, Option<i64>> = HashMap::new();
    for &(si, start) in starts {
        let file = &symbols[si].file;
        let fid = match file_ids.get(file) {
            Some(f) => *f,
            None => {
                let f = store.file_node(file)?.map(|n| n.id);
                file_ids.insert(file.clone(), f);
                f
            }
        };
        // The symbol imported by name is nearer than its file imported whole.
        for (target, d) in [(Some(start), 1u32), (fid.filter(|f| *f != start), 2)] {
            let Some(target) = target else { continue };
            let edges = store.edges_of(target, false, Some("IMPORTS"))?;
            for n in store.nodes_by_ids(&edges.iter().map(|e| e.src).collect::<Vec<_>>())? {
                let Some(f) = n.file_path.clone().filter(|f| is_test_path(f) && !called_from.contains(f)) else { continue };
                let e = importers.entry(f).or_insert((d, Vec::new()));
                e.0 = e.0.min(d);
                if !e.1.contains(&si) {
                    e.1.push(si);
                }
            }
        }
    }
    tests.extend(importers.into_iter().map(|(file, (d, s))| TestHit {
        name: file.clone(),
        file,
        line: None,
        distance: d,
        reaches: s.iter().take(3).map(|&i| symbols[i].name.clone()).collect(),
        via: "imports".into(),
    }));
    tests.sort_by(|a, b| (a.via != "calls", a.distance, &a.file, a.line, &a.name).cmp(&(b.via != "calls", b.distance, &b.file, b.line, &b.name)));
    Ok((tests, per.into_iter().collect()))
}

/// Both revisions of the changed files, extracted on demand with the ingest's extractor
/// (in memory: only files a violation touches are parsed).
struct Bases<'a> {
    /// Each changed file by its old and its new path.
    files: HashMap<&'a str, &'a git::FileChange>,
    /// A side's facts by (new side?, path).
    facts: HashMap<(bool, String), Option<std::rc::Rc<FileFacts>>>,
    /// The side the graph holds of each changed file (`files[].graph`), by both paths.
    graph: HashMap<&'a str, &'a str>,
}

impl<'a> Bases<'a> {
    fn new(files: &'a [git::FileChange], graph: &'a [ChangedFile]) -> Self {
        let mut by = HashMap::new();
        for f in files {
            for p in [&f.patch.old_path, &f.patch.new_path].into_iter().flatten() {
                by.insert(p.as_str(), f);
            }
        }
        let mut sides = HashMap::new();
        for f in graph {
            for p in [Some(&f.path), f.old_path.as_ref()].into_iter().flatten() {
                sides.insert(p.as_str(), f.graph.as_str());
            }
        }
        Bases { files: by, facts: HashMap::new(), graph: sides }
    }

    /// Whether the graph holds this side of the file (then the graph's rows are that side's).
    fn holds(&self, path: &str, new: bool) -> bool {
        self.graph.get(path).is_some_and(|&g| g == if new { "new" } else { "old" })
    }

    fn changed(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    /// One side's facts of a changed file (`None`: the file is absent on that side, or not
    /// source).
    fn facts(&mut self, path: &str, new: bool) -> Option<std::rc::Rc<FileFacts>> {
        let fc = *self.files.get(path)?;
        self.facts
            .entry((new, path.to_string()))
            .or_insert_with(|| {
                let (bytes, p) = if new { (fc.new.as_ref()?, fc.patch.new_path.as_ref()?) } else { (fc.old.as_ref()?, fc.patch.old_path.as_ref()?) };
                let lang = registry().detect(p, &bytes[..bytes.len().min(16 * 1024)])?;
                Some(std::rc::Rc::new(extract(p, &String::from_utf8_lossy(bytes), lang, &ExtractOptions::default())))
            })
            .clone()
    }
}

/// A node of a violation, as much of it as the base comparison needs.
struct End {
    id: i64,
    file: Option<String>,
    is_file: bool,
    name: String,
    qname: Option<String>,
    lines: (u32, u32),
}

/// The base symbol standing for `e` in its (changed) file: same qualified name, or in a
/// moved file (whose module, so qualified names, changed) the same chain of enclosing names.
fn base_symbol(facts: &FileFacts, e: &End) -> Option<usize> {
    let q = e.qname.as_deref()?;
    if let Some(i) = facts.symbols.iter().position(|s| s.qualified_name == q) {
        return Some(i);
    }
    facts.symbols.iter().position(|s| {
        let mut chain = vec![s.name.as_str()];
        let mut p = s.parent;
        while let Some(pi) = p {
            chain.push(facts.symbols[pi as usize].name.as_str());
            p = facts.symbols[pi as usize].parent;
        }
        chain.reverse();
        let chain = chain.join(".");
        s.name == e.name && (q == chain || q.ends_with(&format!(".{chain}")) || q.ends_with(&format!("::{chain}")))
    })
}

/// Whether one side (the base revision, or the new side with `new`) had this violation:
/// every end in a changed file existed there (by qualified name), and every direct edge
/// between two ends whose source is in a changed file was made there too (the source's
/// side refers to the target's name, by a call, reference, inheritance or import;
/// containment needs only both ends). An edge whose source is unchanged was made by
/// unchanged code. The graph holds one side of each file, so for it the answer is yes; the
/// question is asked of the other. What it cannot see: a violation that a change outside
/// the diff (another commit, a re-ingest of other files) made.
fn side_had(store: &Store, bases: &mut Bases, ends: &[End], new: bool) -> Result<bool, ChangesFailure> {
    let asked = |bases: &Bases, f: &str| bases.changed(f) && !bases.holds(f, new);
    for e in ends {
        let Some(f) = e.file.as_deref().filter(|f| asked(bases, f)) else { continue };
        let Some(facts) = bases.facts(f, new) else { return Ok(false) };
        if !e.is_file && base_symbol(&facts, e).is_none() {
            return Ok(false);
        }
    }
    for a in ends {
        let Some(f) = a.file.as_deref().filter(|f| asked(bases, f)) else { continue };
        let out = store.edges_of(a.id, true, None)?;
        for b in ends.iter().filter(|b| b.id != a.id && out.iter().any(|x| x.dst == b.id)) {
            let contains = a.file == b.file && (a.is_file || a.lines.0 <= b.lines.0 && b.lines.1 <= a.lines.1);
            if contains {
                continue;
            }
            let Some(facts) = bases.facts(f, new) else { return Ok(false) };
            let from = if a.is_file { None } else { base_symbol(&facts, a) };
            let target = if b.is_file { b.name.rsplit('/').next().unwrap_or(&b.name).split('.').next().unwrap_or("").to_string() } else { b.name.clone() };
            let inside = |r: &navegador_model::RefFact| match from {
                None => true,
                Some(i) => {
                    let mut p = r.from;
                    while let Some(pi) = p {
                        if pi as usize == i {
                            return true;
                        }
                        p = facts.symbols[pi as usize].parent;
                    }
                    false
                }
            };
            let referred = facts.refs.iter().any(|r| r.name == target && inside(r))
                || facts.imports.iter().any(|m| m.name.as_deref() == Some(target.as_str()) || m.module.rsplit(['.', '/', ':']).next() == Some(target.as_str()));
            if !referred {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// A rule whose violations this change introduces, with the names each one returns (for risk).
type Introduced = (String, String, Vec<Vec<String>>);

/// Every rule's constraint, evaluated on the graph; its violations touching changed files
/// split into introduced and existing by the base revision, the others counted.
fn evaluate_rules(store: &Store, files: &[git::FileChange], graph: &[ChangedFile], limit: usize, timeout_ms: u64) -> Result<(Vec<RuleResult>, Vec<Introduced>), ChangesFailure> {
    use navegador_graph::Value;
    fn nodes(v: &Value, out: &mut Vec<navegador_graph::Node>) {
        match v {
            Value::Node(n) => out.push((**n).clone()),
            Value::Path(p) => out.extend(p.nodes.iter().cloned()),
            Value::List(items) => items.iter().for_each(|x| nodes(x, out)),
            Value::Map(m) => m.values().for_each(|x| nodes(x, out)),
            _ => {}
        }
    }
    let mut bases = Bases::new(files, graph);
    let mut out = Vec::new();
    let mut introduced_names = Vec::new();
    for rule in store.reader().nodes_labelled(Label::Rule)? {
        let Some(constraint) = rule.props.get("constraint").and_then(|v| v.as_str()).filter(|c| !c.trim().is_empty()) else {
            continue;
        };
        let severity = rule.props.get("severity").and_then(|v| v.as_str()).unwrap_or("warning").to_string();
        let mut r = RuleResult {
            rule: rule.name.clone().unwrap_or_default(),
            severity,
            status: "pass".into(),
            introduced: Vec::new(),
            introduced_total: 0,
            existing: Vec::new(),
            existing_total: 0,
            fixed: Vec::new(),
            fixed_total: 0,
            elsewhere: 0,
            error: None,
        };
        let mut names_in = Vec::new();
        let qopts = navegador_cypher::QueryOptions {
            read_only: true,
            timeout: std::time::Duration::from_millis(timeout_ms),
            ..navegador_cypher::QueryOptions::default()
        };
        match store.read_snapshot(|s| navegador_cypher::execute_read(s, constraint, &qopts)) {
            Err(e) => {
                r.status = "error".into();
                r.error = Some(e.to_string());
            }
            Ok(res) => {
                let mut seen = HashSet::new();
                for row in &res.rows {
                    let mut ns = Vec::new();
                    row.iter().for_each(|v| nodes(v, &mut ns));
                    let text = |k: &str, n: &navegador_graph::Node| match n.props.get(k) {
                        Some(Value::String(s)) => Some(s.clone()),
                        _ => None,
                    };
                    let int = |k: &str, n: &navegador_graph::Node| match n.props.get(k) {
                        Some(Value::Int(i)) => *i as u32,
                        _ => 0,
                    };
                    let ends: Vec<End> = ns
                        .iter()
                        .map(|n| End {
                            id: n.id.0,
                            file: text("file_path", n).or_else(|| text("path", n)),
                            is_file: n.labels.iter().any(|l| l == "File"),
                            name: text("name", n).unwrap_or_default(),
                            qname: text("qualified_name", n),
                            lines: (int("line_start", n), int("line_end", n)),
                        })
                        .collect();
                    let names: Vec<String> = ns.iter().filter_map(|n| text("qualified_name", n).or(text("name", n))).collect();
                    // One violation per rule and names (the identity of its ends, not lines).
                    if !seen.insert(names.clone()) {
                        continue;
                    }
                    let shown = names.join(" -> ");
                    if !ends.iter().any(|e| e.file.as_deref().is_some_and(|f| bases.changed(f))) {
                        r.elsewhere += 1;
                    } else if !side_had(store, &mut bases, &ends, false)? {
                        r.introduced_total += 1;
                        r.introduced.push(shown);
                        names_in.push(names);
                    } else if side_had(store, &mut bases, &ends, true)? {
                        r.existing_total += 1;
                        r.existing.push(shown);
                    } else {
                        r.fixed_total += 1;
                        r.fixed.push(shown);
                    }
                }
                r.status = if r.introduced_total > 0 {
                    "violated"
                } else if r.existing_total + r.elsewhere > 0 {
                    "existing"
                } else if r.fixed_total > 0 {
                    "fixed"
                } else {
                    "pass"
                }
                .into();
            }
        }
        r.introduced.truncate(limit);
        r.existing.truncate(limit);
        r.fixed.truncate(limit);
        if !names_in.is_empty() {
            introduced_names.push((r.rule.clone(), r.severity.clone(), names_in));
        }
        out.push(r);
    }
    Ok((out, introduced_names))
}

/// The risk of one changed symbol, with the reasons.
fn assess(s: &mut ChangedSymbol, exported: bool, critical: Option<&Vec<String>>) {
    let mut risk = s.risk;
    let mut raise = |r: Risk, why: String, reasons: &mut Vec<String>| {
        risk = risk.max(r);
        reasons.push(why);
    };
    let mut reasons = std::mem::take(&mut s.reasons);
    if let Some(rules) = critical {
        let mut rules = rules.clone();
        rules.sort();
        rules.dedup();
        raise(Risk::Critical, format!("governed by critical rule {}", rules.join(", ")), &mut reasons);
    }
    if !s.endpoints.is_empty() {
        raise(Risk::High, format!("exposed as endpoint {}", s.endpoints.join(", ")), &mut reasons);
    }
    let fan_in = s.impact.as_ref().map_or(0, |i| i.total);
    if fan_in > 0 && matches!(s.change.as_str(), "deleted" | "signature_changed" | "renamed") {
        raise(Risk::High, format!("{} with {fan_in} dependents", s.change.replace('_', " ")), &mut reasons);
    } else if fan_in >= 20 {
        raise(Risk::High, format!("fan-in: {fan_in} dependents"), &mut reasons);
    } else if fan_in > 0 {
        raise(Risk::Medium, format!("{fan_in} dependents"), &mut reasons);
    }
    if exported && s.change != "added" && s.node_type != "File" {
        raise(Risk::Medium, "public API (exported)".into(), &mut reasons);
    }
    if s.tests == 0 && s.change != "deleted" && s.node_type != "File" {
        let r = if fan_in > 0 || exported { Risk::Medium } else { Risk::Low };
        raise(r, "no test reaches it".into(), &mut reasons);
    }
    s.risk = risk;
    s.reasons = reasons;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitattributes_patterns_match_like_git() {
        assert!(glob_match("*.pb.go", "api/v1/x.pb.go"));
        assert!(glob_match("gen/**", "gen/a/b.py"));
        assert!(glob_match("/build", "build/x.js"));
        assert!(!glob_match("/build", "src/build.rs"));
        assert!(glob_match("docs/*.md", "docs/a.md"));
        assert!(!glob_match("docs/*.md", "docs/x/a.md"));
        let attrs = gitattributes("*.gen.py linguist-generated\nthird/** linguist-vendored=true\nx.py -linguist-generated\n");
        assert_eq!(attrs.len(), 2);
        assert_eq!(apart_reason("a/b.gen.py", &attrs, None).as_deref(), Some("linguist-generated (.gitattributes)"));
        assert_eq!(apart_reason("node_modules/x/i.js", &[], None).as_deref(), Some("vendored path"));
        assert_eq!(apart_reason("z.go", &[], Some(b"// Code generated by x. DO NOT EDIT.\n")).as_deref(), Some("generated (header)"));
        assert_eq!(apart_reason("src/a.py", &attrs, Some(b"def f(): pass\n")), None);
    }
}
