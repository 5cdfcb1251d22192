//! Walking a workspace: `.gitignore` and the hard-ignore list honoured, symlinks not
//! followed (nothing outside the root is read), each file sized and typed before it is read.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use ignore::overrides::OverrideBuilder;
use ignore::WalkBuilder;
use navegador_model::path::{workspace_relative, PathProblem};
use navegador_model::Language;

/// Directory and file names never walked, matched against path components relative to
/// the workspace root (never against the absolute path).
pub const HARD_IGNORED: &[&str] = &[
    ".git", "node_modules", ".idea", ".vscode", ".agent", ".agents", ".claude", ".react-router",
    "build", "dist", ".next", "target", "coverage", ".turbo", ".cache", "tmp", "temp", "out",
    ".navegador", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache",
];

/// A file the walk found.
#[derive(Debug, Clone)]
pub struct WalkedFile {
    /// Workspace-relative: the file system's components, verbatim, joined by `/`
    /// (`navegador_model::path`).
    pub rel: String,
    pub abs: PathBuf,
    pub size: u64,
    pub mtime_ns: i64,
    pub language: Language,
}

/// What the walk found and what it left out.
#[derive(Debug, Default)]
pub struct Walked {
    pub files: Vec<WalkedFile>,
    /// (workspace-relative path, reason): files of a known language not indexed.
    pub skipped: Vec<(String, String)>,
}

pub(crate) fn walk(root: &Path, excludes: &[String], max_file_size: u64) -> Result<Walked, crate::IndexError> {
    let mut ob = OverrideBuilder::new(root);
    for g in excludes {
        ob.add(&format!("!{g}")).map_err(|e| crate::IndexError::BadGlob { glob: g.clone(), message: e.to_string() })?;
    }
    let overrides = ob.build().map_err(|e| crate::IndexError::BadGlob { glob: excludes.join(","), message: e.to_string() })?;
    let root_buf = root.to_path_buf();
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(true)
        .follow_links(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .parents(false)
        .overrides(overrides)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |e| {
            let rel = e.path().strip_prefix(&root_buf).unwrap_or(e.path());
            !rel.components().any(|c| HARD_IGNORED.iter().any(|h| c.as_os_str() == *h))
        });
    let mut out = Walked::default();
    for entry in builder.build() {
        let entry = match entry {
            Ok(e) => e,
            Err(err) => {
                let (path, msg) = describe_walk_error(root, &err);
                out.skipped.push((path, msg));
                continue;
            }
        };
        let ft = match entry.file_type() {
            Some(ft) => ft,
            None => continue,
        };
        let abs = entry.path();
        let rel = match workspace_relative(root, abs) {
            Ok(r) => r,
            Err(PathProblem::Outside) => continue,
            Err(PathProblem::NotUtf8 { lossy }) => {
                if navegador_lang::registry().for_path(&lossy).is_some() {
                    out.skipped.push((lossy, "file name is not valid UTF-8 (rename it to index it)".into()));
                }
                continue;
            }
        };
        if rel.is_empty() {
            continue;
        }
        let Some(language) = language_of(&rel, abs, ft.is_file()) else { continue };
        if ft.is_symlink() {
            out.skipped.push((rel, "symlink (not followed)".into()));
            continue;
        }
        if !ft.is_file() {
            continue;
        }
        let meta = match entry.metadata() {
            Ok(m) => m,
            Err(e) => {
                out.skipped.push((rel, format!("unreadable: {e}")));
                continue;
            }
        };
        if meta.len() > max_file_size {
            out.skipped.push((rel, format!("too large ({} bytes > {} byte cap)", meta.len(), max_file_size)));
            continue;
        }
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as i64);
        out.files.push(WalkedFile { rel, abs: abs.to_path_buf(), size: meta.len(), mtime_ns, language });
    }
    Ok(out)
}

/// The language of a walked path: by extension; an extensionless script by its `#!` line
/// (the read is bounded).
fn language_of(rel: &str, abs: &Path, is_file: bool) -> Option<Language> {
    let registry = navegador_lang::registry();
    match registry.for_path(rel) {
        Some(l) => Some(l),
        None if is_file && !rel.rsplit('/').next().unwrap_or(rel).contains('.') => {
            let mut head = [0u8; 256];
            let n = std::fs::File::open(abs).and_then(|mut f| std::io::Read::read(&mut f, &mut head)).unwrap_or(0);
            registry.detect(rel, &head[..n])
        }
        None => None,
    }
}

/// What the walk of a known tree would say of `paths` alone (a file watcher's changed
/// paths since the last ingest, which found the files of `known`): the files among them it
/// would index, stat'ed, and the known ones gone. `None` where only a whole walk can tell:
/// a path that may be new to the index (its ignore rules unread: a new file, a new or
/// removed directory, a symlink), an ignore file, one of the `skipped` paths, a file over
/// the size cap, an exclude glob. Paths the walk never indexes (hidden, hard-ignored, of
/// no language, outside the root) are left out, as the walk leaves them.
pub(crate) fn walk_paths(
    root: &Path,
    excludes: &[String],
    max_file_size: u64,
    paths: &[PathBuf],
    known: &dyn Fn(&str) -> bool,
    known_under: &dyn Fn(&str) -> bool,
    skipped: &dyn Fn(&str) -> bool,
) -> Option<(Vec<WalkedFile>, Vec<String>)> {
    if !excludes.is_empty() {
        return None;
    }
    let mut seen = std::collections::HashSet::new();
    let (mut files, mut gone) = (Vec::new(), Vec::new());
    for abs in paths {
        let rel = match workspace_relative(root, abs) {
            Ok(r) => r,
            Err(PathProblem::Outside) => continue,
            Err(PathProblem::NotUtf8 { .. }) => return None,
        };
        if rel.is_empty() {
            return None;
        }
        if !seen.insert(rel.clone()) {
            continue;
        }
        let parts: Vec<&str> = rel.split('/').collect();
        if parts.iter().any(|c| HARD_IGNORED.contains(c)) {
            continue;
        }
        let name = parts[parts.len() - 1];
        if name == ".gitignore" || name == ".ignore" {
            return None;
        }
        if parts.iter().any(|c| c.starts_with('.')) {
            continue; // hidden: the walk does not enter it
        }
        if skipped(&rel) {
            return None;
        }
        let meta = match std::fs::symlink_metadata(abs) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if known(&rel) {
                    gone.push(rel);
                    continue;
                }
                if known_under(&rel) {
                    return None; // a directory that went, with its files
                }
                continue; // a file never indexed (an editor's temporary file)
            }
            Err(_) => return None,
        };
        let ft = meta.file_type();
        if ft.is_file() && !known(&rel) && language_of(&rel, abs, true).is_none() {
            continue; // never indexed (an editor's swap file, a README)
        }
        if !ft.is_file() || !known(&rel) {
            // A directory's own event (a new or renamed one brings files no event named),
            // a symlink, or a file the index has not seen (its ignore rules are unread).
            return None;
        }
        let language = language_of(&rel, abs, true)?;
        if meta.len() > max_file_size {
            return None;
        }
        let mtime_ns = meta.modified().ok().and_then(|t| t.duration_since(UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as i64);
        files.push(WalkedFile { rel, abs: abs.clone(), size: meta.len(), mtime_ns, language });
    }
    Some((files, gone))
}

fn describe_walk_error(root: &Path, err: &ignore::Error) -> (String, String) {
    let mut e = err;
    loop {
        match e {
            ignore::Error::WithPath { path, err } => return (shown(root, path), format!("unreadable: {err}")),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => e = err,
            ignore::Error::Loop { child, .. } => return (shown(root, child), "symlink loop".into()),
            other => return (String::new(), format!("walk error: {other}")),
        }
    }
}

/// A path in a skip reason: workspace-relative (lossy when not UTF-8), never absolute.
fn shown(root: &Path, p: &Path) -> String {
    match workspace_relative(root, p) {
        Ok(r) | Err(PathProblem::NotUtf8 { lossy: r }) => r,
        Err(PathProblem::Outside) => String::new(),
    }
}
