//! The workspace root and the path jail: every path argument is joined to the root,
//! resolved (`..`, symlinks) and must stay inside it; answers carry workspace-relative posix
//! paths only. Also the language and framework vocabulary of the `code.*` tools.

use std::path::{Component, Path, PathBuf};

use serde_json::json;

use crate::envelope::{code, ErrorItem};

/// The tree the tools answer about.
#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
}

/// A path argument resolved inside the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub abs: PathBuf,
    /// Workspace-relative, posix separators, `"."` for the root.
    pub rel: String,
    pub is_dir: bool,
}

impl Workspace {
    /// A workspace at `root` (canonicalized when it exists, so symlinked roots work).
    pub fn new(root: impl AsRef<Path>) -> Self {
        let root = root.as_ref();
        Workspace { root: root.canonicalize().unwrap_or_else(|_| root.to_path_buf()) }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The root itself as a resolved scope.
    pub fn root_scope(&self) -> Resolved {
        Resolved { abs: self.root.clone(), rel: ".".into(), is_dir: true }
    }

    /// Resolves a path argument: outside the root -> `PATH_OUTSIDE_WORKSPACE` (checked first,
    /// so `../missing` is outside, not missing), missing -> `FILE_NOT_FOUND`.
    pub fn resolve(&self, arg: &str) -> Result<Resolved, ErrorItem> {
        let given = Path::new(arg.trim());
        let joined = if given.is_absolute() { given.to_path_buf() } else { self.root.join(given) };
        let lexical = normalize(&joined);
        let outside = || {
            ErrorItem::new(code::PATH_OUTSIDE_WORKSPACE, format!("Path '{arg}' is outside the configured workspace root."))
                .suggestion("Pass a workspace-relative path, or an absolute path inside the workspace root.")
                .target(arg)
                .detail("path", json!(arg))
        };
        match joined.canonicalize() {
            Ok(real) => {
                if !real.starts_with(&self.root) {
                    return Err(outside());
                }
                let is_dir = real.is_dir();
                let rel = relative(&self.root, &real);
                Ok(Resolved { abs: real, rel, is_dir })
            }
            Err(_) => {
                // Missing (or a dangling link): decide inside/outside on the text, the root
                // possibly reached through a symlinked prefix of the argument.
                let inside = lexical.starts_with(&self.root)
                    || lexical
                        .ancestors()
                        .find_map(|a| a.canonicalize().ok().map(|r| (a.to_path_buf(), r)))
                        .is_some_and(|(_, real)| real.starts_with(&self.root));
                if !inside {
                    return Err(outside());
                }
                Err(ErrorItem::new(
                    code::FILE_NOT_FOUND,
                    format!("Path '{arg}' was not found inside the configured workspace root."),
                )
                .suggestion("Check the path; code.inspect_tree lists what exists.")
                .target(arg)
                .detail("path", json!(arg)))
            }
        }
    }

    /// The workspace-relative posix form of an absolute path inside the root.
    pub fn rel(&self, abs: &Path) -> String {
        relative(&self.root, abs)
    }
}

fn relative(root: &Path, abs: &Path) -> String {
    match abs.strip_prefix(root) {
        Ok(r) if r.as_os_str().is_empty() => ".".into(),
        Ok(r) => r.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"),
        Err(_) => abs.to_string_lossy().into_owned(),
    }
}

/// `a/./b/../c` -> `a/c`, without touching the filesystem.
fn normalize(p: &Path) -> PathBuf {
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
    out
}

/// True when `file` (workspace-relative) is `scope` or under it.
pub fn in_scope(file: &str, scope: &str) -> bool {
    scope == "." || file == scope || (file.starts_with(scope) && file.as_bytes().get(scope.len()) == Some(&b'/'))
}

/// The `language` values: the registry's language names (`navegador_lang::registry`).
pub fn language_names() -> Vec<&'static str> {
    navegador_lang::registry().names()
}

/// The `framework` values: the frameworks the packs declare (`Registry::frameworks`).
pub fn framework_names() -> Vec<&'static str> {
    navegador_lang::registry().frameworks().into_iter().map(|(f, _)| f).collect()
}

/// The `code.*` relation of every call of a language whatever its receiver (Java:
/// `direct_call`), if its pack says one.
pub fn call_relation(language: Option<&str>) -> Option<&'static str> {
    language.and_then(|l| navegador_lang::registry().by_name(l)).and_then(|l| l.info().call_relation.as_deref())
}

/// The language a file's extension says, if it is one of ours.
pub fn language_of(path: &str) -> Option<&'static str> {
    navegador_lang::registry().name_of_path(path)
}

/// The file extensions (with the leading dot) of a language.
pub fn extensions_of(language: &str) -> Vec<String> {
    navegador_lang::registry().extensions_of(language).into_iter().map(|e| format!(".{e}")).collect()
}

/// The prefix of a call `relation` (`ts.imported_call`): the language's, else `code`.
pub fn relation_prefix(language: Option<&str>) -> &'static str {
    language.and_then(|l| navegador_lang::registry().by_name(l)).map_or("code", |l| l.info().relation_prefix.as_str())
}

/// The language a request works in: `language`, else the one `framework` implies.
pub fn effective_language(language: Option<&str>, framework: Option<&str>) -> Option<String> {
    language
        .map(str::to_string)
        .or_else(|| framework.and_then(|f| navegador_lang::registry().frameworks().into_iter().find(|(n, _)| *n == f)).map(|(_, l)| l.to_string()))
}

/// True when a file of language `file_lang` passes a filter on `want`. TypeScript and
/// JavaScript share one module system, but a filter names one of them exactly.
pub fn language_matches(file_lang: Option<&str>, want: Option<&str>) -> bool {
    match want {
        None => true,
        Some(w) => file_lang == Some(w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_jailed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ws/src")).unwrap();
        std::fs::write(dir.path().join("ws/src/a.ts"), "x").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "x").unwrap();
        let ws = Workspace::new(dir.path().join("ws"));
        assert_eq!(ws.resolve("src/a.ts").unwrap().rel, "src/a.ts");
        assert_eq!(ws.resolve(".").unwrap().rel, ".");
        assert_eq!(ws.resolve("src/../src").unwrap().rel, "src");
        let abs = ws.root().join("src/a.ts");
        assert_eq!(ws.resolve(abs.to_str().unwrap()).unwrap().rel, "src/a.ts");
        assert_eq!(ws.resolve("../secret.txt").unwrap_err().code, code::PATH_OUTSIDE_WORKSPACE);
        assert_eq!(ws.resolve("../missing").unwrap_err().code, code::PATH_OUTSIDE_WORKSPACE);
        assert_eq!(ws.resolve("/etc/passwd").unwrap_err().code, code::PATH_OUTSIDE_WORKSPACE);
        assert_eq!(ws.resolve("src/missing.ts").unwrap_err().code, code::FILE_NOT_FOUND);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret.txt"), dir.path().join("ws/link")).unwrap();
            assert_eq!(ws.resolve("link").unwrap_err().code, code::PATH_OUTSIDE_WORKSPACE);
        }
    }

    #[test]
    fn scopes_and_languages() {
        assert!(in_scope("src/a.ts", "src"));
        assert!(!in_scope("srcx/a.ts", "src"));
        assert!(in_scope("src/a.ts", "."));
        assert_eq!(language_of("app/routes/x.tsx"), Some("typescript"));
        assert_eq!(language_of("app/routes/X.TSX"), Some("typescript"));
        assert_eq!(relation_prefix(Some("typescript")), "ts");
        assert_eq!(relation_prefix(None), "code");
        // every framework implies a language of the registry
        for (f, l) in navegador_lang::registry().frameworks() {
            assert!(language_names().contains(&l), "{f}: {l}");
            assert!(framework_names().contains(&f));
        }
        assert_eq!(language_of("README"), None);
        assert_eq!(effective_language(None, Some("spring")).as_deref(), Some("java"));
        assert_eq!(effective_language(Some("javascript"), Some("react-router")).as_deref(), Some("javascript"));
    }
}
