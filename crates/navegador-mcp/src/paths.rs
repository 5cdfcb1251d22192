//! Paths from tool arguments, checked against the workspace root: nothing outside it is
//! read or indexed, also through `..` or symlinks, and answers stay workspace-relative.
//! A path is what the file system says: on Unix `\` is part of a file name, never a
//! separator. Messages never show the root itself (an agent has no use for it, and it
//! tells a remote client about the server's machine).

use std::path::{Component, Path, PathBuf};

/// A directory argument (ingest) resolved inside `root`; `Err` names the problem.
pub fn dir_inside(root: &Path, arg: &str) -> Result<PathBuf, String> {
    let arg = arg.trim();
    if arg.is_empty() {
        return Err("`path` must not be empty; pass the repository root, e.g. \".\"".into());
    }
    let joined = if Path::new(arg).is_absolute() { PathBuf::from(arg) } else { root.join(arg) };
    let outside = || {
        format!(
            "{arg} is outside the workspace root; the server only reads inside it: pass \".\" or a workspace-relative \
             directory (start the server with --workspace-root to serve another tree)"
        )
    };
    let real = match joined.canonicalize() {
        Ok(real) => real,
        // Outside is decided before missing, so a missing path tells nothing about what
        // exists outside the root.
        Err(_) if !lexically_inside(root, &joined) => return Err(outside()),
        Err(e) => return Err(format!("cannot open {arg}: {}; pass a directory inside the workspace root, e.g. \".\"", io_reason(&e))),
    };
    if !real.starts_with(root) {
        return Err(outside());
    }
    Ok(real)
}

/// A file argument (context) as a workspace-relative path; absolute paths inside the root
/// are made relative, anything that leaves the root is refused.
pub fn relative_file(root: &Path, arg: &str) -> Result<String, String> {
    let arg = arg.trim();
    let p = Path::new(arg);
    let leaves = || format!("{arg} leaves the workspace root; pass a workspace-relative path");
    let rel: PathBuf = if p.is_absolute() {
        match p.strip_prefix(root) {
            Ok(r) => r.to_path_buf(),
            Err(_) => {
                // The root may be a symlinked path of the same directory.
                let real = p.canonicalize().ok().filter(|r| r.starts_with(root));
                match real {
                    Some(r) => r.strip_prefix(root).unwrap().to_path_buf(),
                    None => return Err(format!("{arg} is outside the workspace root; pass a workspace-relative path")),
                }
            }
        }
    } else {
        p.to_path_buf()
    };
    // Normalise `a/../b` textually; the graph stores normalised relative paths.
    let mut parts: Vec<String> = Vec::new();
    for c in rel.components() {
        match c {
            Component::ParentDir => {
                if parts.pop().is_none() {
                    return Err(leaves());
                }
            }
            Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return Err(leaves()),
        }
    }
    Ok(parts.join("/"))
}

/// Whether `p` stays under `root` by its text alone (`..` applied), for paths that do not
/// exist.
fn lexically_inside(root: &Path, p: &Path) -> bool {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out.starts_with(root)
}

/// An I/O error's reason without the OS error number.
fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// `text` without the absolute workspace root: `ROOT/a/b` becomes `a/b`, `ROOT` alone
/// `.` (an occurrence inside a longer name, `ROOT2/x`, is left). The last line of defence
/// for error messages from any layer (store, I/O, analysis).
pub fn without_root(text: &str, root: &Path) -> String {
    let r = root.to_string_lossy();
    if r.len() <= 1 || !text.contains(&*r) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(&*r) {
        out.push_str(&rest[..i]);
        let after = &rest[i + r.len()..];
        match after.chars().next() {
            Some('/') => rest = &after[1..],
            Some(c) if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') => {
                out.push_str(&r);
                rest = after;
            }
            _ => {
                out.push('.');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_files() {
        let root = Path::new("/w");
        assert_eq!(relative_file(root, "./a/b.py").unwrap(), "a/b.py");
        assert_eq!(relative_file(root, "/w/a/b.py").unwrap(), "a/b.py");
        assert_eq!(relative_file(root, "a/../b.py").unwrap(), "b.py");
        assert!(relative_file(root, "../etc/passwd").is_err());
        assert!(relative_file(root, "a/../../x").is_err());
        assert!(relative_file(root, "/etc/passwd").is_err());
        #[cfg(unix)]
        {
            // A backslash is part of the name: this is one file in the root, not a way out.
            assert_eq!(relative_file(root, r"x\..\..\outside\secret.py").unwrap(), r"x\..\..\outside\secret.py");
            assert_eq!(relative_file(root, r"sub\mod.py").unwrap(), r"sub\mod.py");
        }
    }

    #[test]
    fn the_root_is_cut_from_messages() {
        let root = Path::new("/srv/ws");
        assert_eq!(without_root("no graph at /srv/ws/.navegador/graph.db yet", root), "no graph at .navegador/graph.db yet");
        assert_eq!(without_root("cannot open /srv/ws: gone", root), "cannot open .: gone");
        assert_eq!(without_root("/srv/ws2/x and /srv/ws", root), "/srv/ws2/x and .");
        assert_eq!(without_root("nothing here", root), "nothing here");
    }

    #[test]
    fn messages_never_show_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("ws")).unwrap();
        let ws = root.join("ws");
        let shown = ws.to_string_lossy().into_owned();
        for arg in ["..", "../..", "/", "/etc", "missing", "../missing", "/nonexistent/x"] {
            let m = dir_inside(&ws, arg).unwrap_err();
            assert!(!m.contains(&shown), "{arg}: {m}");
        }
        for arg in ["../x.py", "/etc/passwd", "a/../../x"] {
            let m = relative_file(&ws, arg).unwrap_err();
            assert!(!m.contains(&shown), "{arg}: {m}");
        }
    }
}
