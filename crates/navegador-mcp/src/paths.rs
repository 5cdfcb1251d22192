//! Paths from tool arguments, checked against the workspace root: nothing outside it is
//! read or indexed, also through `..` or symlinks, and answers stay workspace-relative.

use std::path::{Component, Path, PathBuf};

/// A directory argument (ingest) resolved inside `root`; `Err` names the problem.
pub fn dir_inside(root: &Path, arg: &str) -> Result<PathBuf, String> {
    let arg = arg.trim();
    if arg.is_empty() {
        return Err("`path` must not be empty; pass the repository root, e.g. \".\"".into());
    }
    let joined = if Path::new(arg).is_absolute() { PathBuf::from(arg) } else { root.join(arg) };
    let real = joined
        .canonicalize()
        .map_err(|e| format!("cannot open {arg}: {e}; pass a directory inside the workspace root {}", root.display()))?;
    if !real.starts_with(root) {
        return Err(format!(
            "{arg} is outside the workspace root {}; the server only reads inside it (start it with --workspace-root to serve another tree)",
            root.display()
        ));
    }
    Ok(real)
}

/// A file argument (context) as a workspace-relative path; absolute paths inside the root
/// are made relative, anything that leaves the root is refused.
pub fn relative_file(root: &Path, arg: &str) -> Result<String, String> {
    let arg = arg.trim().replace('\\', "/");
    let p = Path::new(&arg);
    let rel: PathBuf = if p.is_absolute() {
        match p.strip_prefix(root) {
            Ok(r) => r.to_path_buf(),
            Err(_) => {
                // The root may be a symlinked path of the same directory.
                let real = p.canonicalize().ok().filter(|r| r.starts_with(root));
                match real {
                    Some(r) => r.strip_prefix(root).unwrap().to_path_buf(),
                    None => {
                        return Err(format!(
                            "{arg} is outside the workspace root {}; pass a workspace-relative path",
                            root.display()
                        ))
                    }
                }
            }
        }
    } else {
        p.to_path_buf()
    };
    let mut depth = 0i32;
    for c in rel.components() {
        match c {
            Component::ParentDir => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!("{arg} leaves the workspace root; pass a workspace-relative path"));
                }
            }
            Component::Normal(_) => depth += 1,
            _ => {}
        }
    }
    // Normalise `a/../b` textually; the graph stores normalised relative paths.
    let mut parts: Vec<String> = Vec::new();
    for c in rel.components() {
        match c {
            Component::ParentDir => {
                parts.pop();
            }
            Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    Ok(parts.join("/"))
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
    }
}
