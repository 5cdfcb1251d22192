//! `code.inspect_tree`: a depth-limited, sorted listing that reads no file contents.
//!
//! A plain recursive `read_dir`, not the `ignore` walker: the listing needs a stable
//! pre-order with directories first, which a parallel walk does not give, and the contract
//! filters it by the hard-ignore list and dot-names only (`.gitignore` is not consulted, as
//! in the original server: a tree shows what is on disk).

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use globset::{GlobBuilder, GlobMatcher};

use crate::{
    rel_path, under_hard_ignored, EntryKind, SearchError, TreeData, TreeItem, TreeOutcome, TreeRequest, TreeStats,
    HARD_IGNORED, TREE_ENTRY_CAP,
};

/// Lists `scope` (a directory, or one file) down to `req.max_depth`.
///
/// `root` is the canonical workspace root; `scope` an absolute path inside it (or the root).
/// A file scope yields that one file (depth 1) if it passes the file filters. A scope under
/// a hard-ignored name yields nothing. Symlinked directories are listed (`isSymlink` in the
/// stats) but never entered.
pub fn inspect_tree(root: &Path, scope: &Path, req: &TreeRequest) -> Result<TreeOutcome, SearchError> {
    let root_rel = rel_path(root, scope).ok_or_else(|| SearchError::Io("the scope is not inside the workspace root".into()))?;
    let pattern = match req.file_pattern.as_deref() {
        None => None,
        Some(p) => Some(
            GlobBuilder::new(p)
                .literal_separator(false)
                .build()
                .map_err(|e| SearchError::InvalidGlob(e.to_string()))?
                .compile_matcher(),
        ),
    };
    let extensions = req
        .extensions
        .as_ref()
        .map(|exts| exts.iter().map(|e| e.trim().trim_start_matches('.').to_lowercase()).collect());
    let mut lister = Lister { root, req, pattern, extensions, items: Vec::new(), truncated: false };

    let meta = fs::metadata(scope).map_err(|e| SearchError::Io(format!("cannot read the scope: {e}")))?;
    if !under_hard_ignored(root, scope) {
        if meta.is_dir() {
            lister.list(scope, 1);
        } else if req.max_depth >= 1 {
            let name = scope.file_name().map(|n| n.to_os_string()).unwrap_or_default();
            if lister.file_passes(&name) {
                lister.push(Entry { name, path: scope.to_path_buf(), is_dir: false, is_symlink: false }, 1);
            }
        }
    }
    let truncated = lister.truncated;
    let items = lister.items;
    Ok(TreeOutcome {
        total_matched: if truncated { None } else { Some(items.len()) },
        truncated,
        data: TreeData { root: root_rel, entry_count: items.len(), items },
    })
}

struct Entry {
    name: OsString,
    path: PathBuf,
    /// For a symlink: whether its target is a directory.
    is_dir: bool,
    is_symlink: bool,
}

struct Lister<'a> {
    root: &'a Path,
    req: &'a TreeRequest,
    pattern: Option<GlobMatcher>,
    /// Lower-cased, without the dot.
    extensions: Option<Vec<String>>,
    items: Vec<TreeItem>,
    truncated: bool,
}

impl Lister<'_> {
    /// Lists `dir`'s entries at `depth`, recursing; `false` once the cap is hit.
    fn list(&mut self, dir: &Path, depth: usize) -> bool {
        if depth > self.req.max_depth {
            return true;
        }
        let Ok(read) = fs::read_dir(dir) else { return true };
        let mut entries = Vec::new();
        for e in read.flatten() {
            let name = e.file_name();
            if HARD_IGNORED.iter().any(|h| name == *h) {
                continue;
            }
            if !self.req.include_hidden && name.as_encoded_bytes().first() == Some(&b'.') {
                continue;
            }
            let Ok(ft) = e.file_type() else { continue };
            let is_symlink = ft.is_symlink();
            let path = e.path();
            // A symlink is classified by its target (a stat, nothing read) and never entered.
            let is_dir = if is_symlink { fs::metadata(&path).is_ok_and(|m| m.is_dir()) } else { ft.is_dir() };
            if !is_dir && !self.file_passes(&name) {
                continue;
            }
            entries.push(Entry { name, path, is_dir, is_symlink });
        }
        entries.sort_by_cached_key(|e| {
            let name = e.name.to_string_lossy().into_owned();
            (!e.is_dir, name.to_lowercase(), name)
        });
        for e in entries {
            if self.items.len() == TREE_ENTRY_CAP {
                self.truncated = true;
                return false;
            }
            let enter = e.is_dir && !e.is_symlink;
            let path = e.path.clone();
            self.push(e, depth);
            if enter && !self.list(&path, depth + 1) {
                return false;
            }
        }
        true
    }

    fn file_passes(&self, name: &OsString) -> bool {
        if let Some(exts) = &self.extensions {
            let Some(ext) = Path::new(name).extension() else { return false };
            let ext = ext.as_encoded_bytes();
            if !exts.iter().any(|e| e.as_bytes().eq_ignore_ascii_case(ext)) {
                return false;
            }
        }
        self.pattern.as_ref().is_none_or(|p| p.is_match(Path::new(name)))
    }

    fn push(&mut self, e: Entry, depth: usize) {
        let Some(path) = rel_path(self.root, &e.path) else { return };
        let extension = if e.is_dir {
            None
        } else {
            Path::new(&e.name).extension().map(|x| format!(".{}", x.to_string_lossy()))
        };
        let stats = if self.req.include_stats {
            fs::symlink_metadata(&e.path).ok().map(|m| TreeStats {
                size_bytes: m.len(),
                modified_at: iso8601(m.modified().unwrap_or(UNIX_EPOCH)),
                is_symlink: e.is_symlink,
            })
        } else {
            None
        };
        self.items.push(TreeItem {
            path,
            name: e.name.to_string_lossy().into_owned(),
            kind: if e.is_dir { EntryKind::Directory } else { EntryKind::File },
            depth,
            extension,
            stats,
        });
    }
}

/// `2026-01-02T03:04:05Z`: UTC, whole seconds.
pub(crate) fn iso8601(t: SystemTime) -> String {
    let secs: i64 = match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs_f64().ceil() as i64),
    };
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", sod / 3_600, sod % 3_600 / 60, sod % 60)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    #[test]
    fn iso8601_formats_utc_seconds() {
        let t = |s| super::iso8601(super::UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(t(0), "1970-01-01T00:00:00Z");
        assert_eq!(t(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(t(1_767_323_045), "2026-01-02T03:04:05Z");
    }
}
