//! Workspace-relative paths as the graph stores them: the file system's own components
//! joined by `/`, each kept verbatim. On Unix a `\` is an ordinary character of a file name,
//! so `sub\mod.py` and `sub/mod.py` are two files and stay two paths; nothing is split or
//! converted, so no stored path can name anything outside the root.

use std::path::{Component, Path, PathBuf};

/// Why a walked file has no stored path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathProblem {
    /// Not under the root (or the root itself).
    Outside,
    /// A component is not valid UTF-8: a lossy form could make two files share one path.
    NotUtf8 { lossy: String },
}

/// The stored form of `abs`, a path under `root`: its components after the root, verbatim,
/// joined by `/`.
pub fn workspace_relative(root: &Path, abs: &Path) -> Result<String, PathProblem> {
    let rest = abs.strip_prefix(root).map_err(|_| PathProblem::Outside)?;
    let mut out = String::new();
    let mut utf8 = true;
    for c in rest.components() {
        let Component::Normal(s) = c else { return Err(PathProblem::Outside) };
        if !out.is_empty() {
            out.push('/');
        }
        match s.to_str() {
            Some(s) => out.push_str(s),
            None => {
                utf8 = false;
                out.push_str(&s.to_string_lossy());
            }
        }
    }
    if out.is_empty() {
        return Err(PathProblem::Outside);
    }
    if !utf8 {
        return Err(PathProblem::NotUtf8 { lossy: out });
    }
    Ok(out)
}

/// The file a stored path names under `root`, or `None` when the text is not a stored path
/// (empty, absolute, `.`/`..` or a separator inside a component): such a path is never
/// followed, so an old or hand-written row cannot lead outside the root.
pub fn join_stored(root: &Path, rel: &str) -> Option<PathBuf> {
    if rel.is_empty() {
        return None;
    }
    let mut out = root.to_path_buf();
    for part in rel.split('/') {
        let mut comps = Path::new(part).components();
        match (comps.next(), comps.next()) {
            (Some(Component::Normal(s)), None) if s == part => out.push(s),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_paths_are_verbatim_components() {
        let root = Path::new("/w");
        assert_eq!(workspace_relative(root, Path::new("/w/a/b.py")).unwrap(), "a/b.py");
        assert_eq!(workspace_relative(root, Path::new("/w")), Err(PathProblem::Outside));
        assert_eq!(workspace_relative(root, Path::new("/x/a.py")), Err(PathProblem::Outside));
        #[cfg(unix)]
        {
            assert_eq!(workspace_relative(root, Path::new(r"/w/sub\mod.py")).unwrap(), r"sub\mod.py");
            assert_eq!(
                workspace_relative(root, Path::new(r"/w/x\..\..\outside\secret.py")).unwrap(),
                r"x\..\..\outside\secret.py"
            );
            use std::os::unix::ffi::OsStrExt;
            let bad = Path::new(std::ffi::OsStr::from_bytes(b"/w/caf\xe9.py"));
            assert!(matches!(workspace_relative(root, bad), Err(PathProblem::NotUtf8 { .. })));
        }
    }

    #[test]
    fn only_stored_paths_are_joined() {
        let root = Path::new("/w");
        assert_eq!(join_stored(root, "a/b.py"), Some(PathBuf::from("/w/a/b.py")));
        for bad in ["", "../x.py", "a/../../x.py", "/etc/passwd", "a//b.py", "./a.py", "a/."] {
            assert_eq!(join_stored(root, bad), None, "{bad}");
        }
        #[cfg(unix)]
        assert_eq!(join_stored(root, r"x\..\..\s.py"), Some(PathBuf::from(r"/w/x\..\..\s.py")));
    }
}
