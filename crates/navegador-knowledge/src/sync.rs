//! The ingest hook: after the code graph of an ingest is written and resolved (same
//! transaction), read what changed among the knowledge sources of the workspace, re-read
//! the annotations of changed files, recompute CODEOWNERS, and re-materialize every link
//! as an edge to the current code nodes.
//!
//! Materializing all links each time (not only those of changed files) keeps the
//! incrementally maintained graph equal to a clean rebuild at a cost proportional to the
//! number of links; it is skipped when neither code nor knowledge changed.

use std::path::Path;

use navegador_model::{EdgeType, Label};
use navegador_store::{IngestTx, Link, LinkTarget, NodeRow, Reader, StoreError};
use serde_json::Map;

use crate::codeowners::{CodeOwners, OwnerRef, LOCATIONS};
use crate::{adr, annotations, docs, Warning};

/// Files larger than this are not read as knowledge sources.
const MAX_SOURCE: u64 = 1024 * 1024;

/// What the knowledge side of an ingest left out.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SyncReport {
    /// (path, line, message): entries of knowledge files that were skipped.
    pub warnings: Vec<(String, u32, String)>,
    /// (path, reason): knowledge files not read at all (too large, unreadable, a name that
    /// is not UTF-8).
    pub skipped: Vec<(String, String)>,
}

/// Runs after a code ingest, in its transaction. `changed_files` are the code files
/// parsed or removed by it.
pub fn sync(tx: &IngestTx<'_>, root: &Path, changed_files: &[String]) -> Result<SyncReport, StoreError> {
    let mut warnings: Vec<Warning> = Vec::new();
    let mut skipped: Vec<(String, String)> = Vec::new();
    let dirty = !changed_files.is_empty();

    // In-code annotations of changed files; files that left the index take theirs along.
    tx.delete_links_of_unindexed_files("annotation")?;
    for path in changed_files {
        tx.delete_links("annotation", Some(path))?;
        if tx.reader().file_node(path)?.is_none() {
            continue;
        }
        let Some(file) = navegador_model::path::join_stored(root, path) else { continue };
        if let Ok(text) = std::fs::read_to_string(file) {
            annotations::refresh_file(tx, path, &text)?;
        }
    }

    let (changed, codeowners) = refresh_sources(tx, root, &mut warnings, &mut skipped)?;
    if dirty || changed {
        // New files need their owners even when CODEOWNERS itself did not change.
        if let Some((co, loc)) = codeowners {
            apply_codeowners(tx, &co, &loc)?;
        }
        materialize(tx)?;
        tx.delete_unlinked_knowledge(&["codeowners", "annotation"])?;
    }
    warnings.sort();
    skipped.sort();
    Ok(SyncReport { warnings: warnings.into_iter().map(|w| (w.path, w.line, w.message)).collect(), skipped })
}

fn hash(bytes: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes))
}

/// The stored form of a knowledge file's path (`navegador_model::path`); `None` (and a
/// skip reason) when its name is not UTF-8.
fn rel(root: &Path, p: &Path, skipped: &mut Vec<(String, String)>) -> Option<String> {
    use navegador_model::path::{workspace_relative, PathProblem};
    match workspace_relative(root, p) {
        Ok(r) => Some(r),
        Err(PathProblem::NotUtf8 { lossy }) => {
            skipped.push((lossy, "file name is not valid UTF-8 (rename it to read it)".into()));
            None
        }
        // `navegador adr ingest DIR` with DIR outside the current folder (as before).
        Err(PathProblem::Outside) => Some(p.to_string_lossy().into_owned()),
    }
}

/// Reads a knowledge file; an unreadable one is listed as skipped.
fn read_source(p: &Path, path: &str, skipped: &mut Vec<(String, String)>) -> Option<Vec<u8>> {
    match std::fs::read(p) {
        Ok(b) => Some(b),
        Err(e) => {
            skipped.push((path.to_string(), format!("unreadable: {e}")));
            None
        }
    }
}

/// Folders never read for knowledge (generated sites, dependencies).
const SKIPPED_DIRS: [&str; 6] = ["node_modules", "_build", "build", "site", "target", ".navegador"];

/// Markdown files under `dir`: `.gitignore` files from `dir` down (and the workspace
/// `root`'s, when given) respected, hidden and generated folders skipped, symlinks not
/// followed, nothing above the root read. Files over [`MAX_SOURCE`] are listed in
/// `skipped` (paths relative to `base`) with their size.
fn markdown_under(
    dir: &Path,
    root: Option<&Path>,
    base: &Path,
    skipped: &mut Vec<(String, String)>,
) -> Vec<std::path::PathBuf> {
    if !dir.is_dir() {
        return Vec::new();
    }
    let root_ignore = root
        .filter(|r| r.join(".gitignore").is_file() && dir.starts_with(r))
        .map(|r| ignore::gitignore::Gitignore::new(r.join(".gitignore")).0);
    let mut out: Vec<std::path::PathBuf> = ignore::WalkBuilder::new(dir)
        .hidden(true)
        .follow_links(false)
        .git_global(false)
        .parents(false)
        .require_git(false)
        .filter_entry(|e| !SKIPPED_DIRS.iter().any(|s| e.file_name() == *s))
        .build()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter(|e| !root_ignore.as_ref().is_some_and(|g| g.matched_path_or_any_parents(e.path(), false).is_ignore()))
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "md" || x == "markdown"))
        .filter(|p| match std::fs::metadata(p) {
            Ok(m) if m.len() <= MAX_SOURCE => true,
            Ok(m) => {
                let path = rel(base, p, &mut Vec::new()).unwrap_or_else(|| p.to_string_lossy().into_owned());
                skipped.push((path, format!("too large for a knowledge file ({} bytes > {MAX_SOURCE} byte cap)", m.len())));
                false
            }
            Err(e) => {
                let path = rel(base, p, &mut Vec::new()).unwrap_or_else(|| p.to_string_lossy().into_owned());
                skipped.push((path, format!("unreadable: {e}")));
                false
            }
        })
        .collect();
    out.sort();
    out
}

/// ADR folders' files that are not ADRs: index pages and templates.
fn is_adr_boilerplate(p: &Path) -> bool {
    let stem = p.file_stem().map(|s| s.to_string_lossy().to_lowercase()).unwrap_or_default();
    matches!(stem.as_str(), "readme" | "index" | "template" | "toc") || stem.contains("template")
}

/// Reads the ADRs, docs and CODEOWNERS of the workspace whose content changed since the
/// last ingest; forgets the knowledge of those that are gone. Returns whether anything
/// changed.
fn refresh_sources(
    tx: &IngestTx<'_>,
    root: &Path,
    warnings: &mut Vec<Warning>,
    skipped: &mut Vec<(String, String)>,
) -> Result<(bool, Option<(CodeOwners, String)>), StoreError> {
    let r = tx.reader();
    let known: Vec<(String, String)> = r.sources()?;
    let mut found: Vec<(String, &'static str)> = Vec::new();
    let mut changed = false;

    // ADRs: all of a folder are written together so Supersedes links can be resolved.
    let mut adr_paths = std::collections::HashSet::new();
    for dir in adr::ADR_DIRS {
        let mut written = Vec::new();
        let mut folder_changed = false;
        let files = markdown_under(&root.join(dir), Some(root), root, skipped);
        for p in &files {
            adr_paths.insert(p.clone());
        }
        for p in files.iter().filter(|p| !is_adr_boilerplate(p)) {
            let Some(path) = rel(root, p, skipped) else { continue };
            found.push((path.clone(), "adr"));
            let Some(bytes) = read_source(p, &path, skipped) else { continue };
            let h = hash(&bytes);
            let text = String::from_utf8_lossy(&bytes);
            let fresh = r.source_hash(&path)?.as_deref() != Some(h.as_str());
            folder_changed |= fresh;
            match adr::parse(&path, &text) {
                Ok(a) => written.push((path.clone(), a, fresh, h)),
                Err(w) => {
                    if fresh {
                        warnings.push(w);
                        forget_source(tx, &path, "adr")?;
                        tx.set_source(&path, "adr", &h)?;
                    }
                }
            }
        }
        if folder_changed {
            changed = true;
            let mut ids = Vec::new();
            for (path, a, fresh, h) in written {
                let old = if fresh { tx.knowledge_from_source(&path)? } else { Vec::new() };
                let id = adr::write(tx, &a, &path)?;
                for o in old.into_iter().filter(|o| *o != id) {
                    tx.delete_knowledge_node(o)?;
                }
                tx.set_source(&path, "adr", &h)?;
                ids.push((id, path, a));
            }
            adr::link_supersedes(tx, &ids)?;
        }
    }

    // Other docs.
    for p in markdown_under(&root.join("docs"), Some(root), root, skipped) {
        if adr_paths.contains(&p) {
            continue;
        }
        let Some(path) = rel(root, &p, skipped) else { continue };
        found.push((path.clone(), "doc"));
        let Some(bytes) = read_source(&p, &path, skipped) else { continue };
        let h = hash(&bytes);
        if r.source_hash(&path)?.as_deref() == Some(h.as_str()) {
            continue;
        }
        changed = true;
        let d = docs::parse(&path, &String::from_utf8_lossy(&bytes));
        docs::write(tx, Label::Document, &path, &d, "doc")?;
        tx.set_source(&path, "doc", &h)?;
    }

    let mut codeowners = None;
    if let Some(loc) = LOCATIONS.iter().find(|l| root.join(l).is_file()) {
        found.push((loc.to_string(), "codeowners"));
        let size = std::fs::metadata(root.join(loc)).map_or(0, |m| m.len());
        let bytes = if size > MAX_SOURCE {
            skipped.push((loc.to_string(), format!("too large for a knowledge file ({size} bytes > {MAX_SOURCE} byte cap)")));
            None
        } else {
            read_source(&root.join(loc), loc, skipped)
        };
        if let Some(bytes) = bytes {
            let h = hash(&bytes);
            let fresh = r.source_hash(loc)?.as_deref() != Some(h.as_str());
            let mut w = Vec::new();
            let co = CodeOwners::parse(loc, &String::from_utf8_lossy(&bytes), &mut w);
            if fresh {
                warnings.extend(w);
                changed = true;
                tx.set_source(loc, "codeowners", &h)?;
            }
            codeowners = Some((co, loc.to_string()));
        }
    }

    for (path, kind) in known {
        if !found.iter().any(|(p, _)| *p == path) {
            changed = true;
            forget_source(tx, &path, &kind)?;
            tx.delete_source(&path)?;
        }
    }
    Ok((changed, codeowners))
}

fn forget_source(tx: &IngestTx<'_>, path: &str, kind: &str) -> Result<(), StoreError> {
    for id in tx.knowledge_from_source(path)? {
        tx.delete_knowledge_node(id)?;
    }
    tx.delete_links(kind, Some(path))?;
    Ok(())
}

/// Replaces the CODEOWNERS links with one ASSIGNED_TO link per owned file and owner.
fn apply_codeowners(tx: &IngestTx<'_>, co: &CodeOwners, loc: &str) -> Result<(), StoreError> {
    tx.delete_links("codeowners", None)?;
    let mut people: std::collections::HashMap<String, i64> = std::collections::HashMap::new();
    for path in tx.reader().file_paths()? {
        let Some(rule) = co.rule_for(&path) else { continue };
        for o in &rule.owners {
            let id = match people.get(o.name()) {
                Some(id) => *id,
                None => {
                    let mut p = Map::new();
                    p.insert("source".into(), "codeowners".into());
                    match o {
                        OwnerRef::User(h) => {
                            p.insert("handle".into(), format!("@{h}").into());
                        }
                        OwnerRef::Team(h) => {
                            p.insert("handle".into(), format!("@{h}").into());
                            p.insert("team".into(), h.clone().into());
                            p.insert("role".into(), "team".into());
                        }
                        OwnerRef::Email(e) => {
                            p.insert("email".into(), e.clone().into());
                        }
                    }
                    let (id, _) = tx.upsert_knowledge(Label::Person, o.name(), None, p)?;
                    people.insert(o.name().to_string(), id);
                    id
                }
            };
            tx.add_link(&Link {
                id: 0,
                knode: id,
                edge_type: EdgeType::AssignedTo,
                code_is_src: true,
                target: LinkTarget::Exact { label: "File".into(), qualified_name: path.clone(), file_path: path.clone() },
                origin: "codeowners".into(),
                origin_path: Some(loc.to_string()),
                line: Some(rule.line),
                source: Some(format!("codeowners:{}", rule.pattern)),
            })?;
        }
    }
    Ok(())
}

/// Re-creates every link's edges against the current code nodes. Returns how many edges.
pub fn materialize(tx: &IngestTx<'_>) -> Result<u64, StoreError> {
    tx.clear_materialized()?;
    let r = tx.reader();
    let mut n = 0;
    for l in r.links()? {
        let targets = match &l.target {
            LinkTarget::Exact { label, qualified_name, file_path } => r.code_exact(label, qualified_name, file_path)?,
            LinkTarget::Mention(text) => resolve_mention(&r, text)?,
        };
        for t in targets {
            let (s, d) = if l.code_is_src { (t.id, l.knode) } else { (l.knode, t.id) };
            tx.insert_link_edge(s, d, l.edge_type, l.id, l.source.as_deref())?;
            n += 1;
        }
    }
    Ok(n)
}

/// The code a document's mention names: a file by its path, or the definitions whose
/// qualified name is the text, else the one definition whose qualified name ends with it
/// (for a bare word, the one function, method or class of that name). Ambiguous mentions
/// link nothing.
pub(crate) fn resolve_mention(r: &Reader<'_>, text: &str) -> Result<Vec<NodeRow>, StoreError> {
    // Only indexed source files have File nodes, so a dotted word (`app.py`, `Store.put`)
    // that is no file's path simply finds none.
    if text.contains('/') || text.contains('.') {
        if let Some(f) = r.file_node(text)? {
            return Ok(vec![f]);
        }
        if text.contains('/') {
            return Ok(Vec::new());
        }
    }
    let last = text.rsplit(['.', ':']).next().unwrap_or(text);
    // `Store.put` also names Rust's `Store::put`.
    let mut spellings = vec![text.to_string()];
    if text.contains('.') && !text.contains("::") {
        spellings.push(text.replace('.', "::"));
    }
    // A bare word in backticks is often a property or a keyword (`name`, `Function`):
    // alone it may only name a function, method or class.
    let bare = !text.contains(['.', ':', '/']);
    for t in &spellings {
        let mut found = r.code_by_suffix(last, t)?;
        if bare {
            found.retain(|n| matches!(n.label.as_str(), "Function" | "Method" | "Class"));
        }
        let exact: Vec<NodeRow> = found.iter().filter(|n| n.qualified_name.as_deref() == Some(t.as_str())).cloned().collect();
        if !exact.is_empty() {
            return Ok(exact);
        }
        if found.len() == 1 {
            return Ok(found);
        }
    }
    Ok(Vec::new())
}

/// `navegador adr ingest DIR`: every ADR under `dir` (paths stored relative to `base`).
/// Returns the decisions written and the warnings of the ADRs skipped.
pub fn ingest_adr_dir(tx: &IngestTx<'_>, dir: &Path, base: &Path) -> Result<(usize, Vec<Warning>), StoreError> {
    let mut warnings = Vec::new();
    let mut written = Vec::new();
    let mut skipped = Vec::new();
    for p in markdown_under(dir, None, base, &mut skipped).into_iter().filter(|p| !is_adr_boilerplate(p)) {
        let Some(path) = rel(base, &p, &mut skipped) else { continue };
        let Some(bytes) = read_source(&p, &path, &mut skipped) else { continue };
        match adr::parse(&path, &String::from_utf8_lossy(&bytes)) {
            Ok(a) => {
                let id = adr::write(tx, &a, &path)?;
                written.push((id, path, a));
            }
            Err(w) => warnings.push(w),
        }
    }
    adr::link_supersedes(tx, &written)?;
    materialize(tx)?;
    warnings.extend(skipped.into_iter().map(|(path, message)| Warning { path, line: 0, message }));
    Ok((written.len(), warnings))
}

/// `navegador wiki ingest DIR`: every markdown file under `dir` becomes a WikiPage.
/// Returns the pages written and the files skipped (line 0, the reason).
pub fn ingest_wiki_dir(tx: &IngestTx<'_>, dir: &Path, base: &Path) -> Result<(usize, Vec<Warning>), StoreError> {
    let mut n = 0;
    let mut skipped = Vec::new();
    for p in markdown_under(dir, None, base, &mut skipped) {
        let Some(path) = rel(base, &p, &mut skipped) else { continue };
        let Some(bytes) = read_source(&p, &path, &mut skipped) else { continue };
        let mut d = docs::parse(&path, &String::from_utf8_lossy(&bytes));
        d.updated_at = std::fs::metadata(&p)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| docs::utc_date_time(d.as_secs() as i64));
        docs::write(tx, Label::WikiPage, &path, &d, "wiki")?;
        n += 1;
    }
    materialize(tx)?;
    Ok((n, skipped.into_iter().map(|(path, message)| Warning { path, line: 0, message }).collect()))
}
