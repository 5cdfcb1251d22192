//! Go's module system: a package is a directory, every file of it sees the others'
//! top-level names, methods belong to their receiver's type in its own directory. An
//! import names a directory by its module path. The workspace's modules are read from the
//! `go.mod` files above its Go files (nested modules, and those a `go.work` uses), so
//! `example.com/api/handlers` is the `handlers` directory of the module `example.com/api`
//! wherever that module lies; else a module's `vendor/` directory holds the package; a
//! path whose first element has no dot is the standard library's (a workspace directory
//! when the workspace holds the `std` module, Go's own source tree). Any other import of a
//! file inside a module is outside the workspace. A file under no `go.mod` (a GOPATH tree)
//! matches an import path's longest suffix that is a workspace directory.

use std::collections::BTreeMap;
use std::path::Path;

use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{dirs_above, ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Go {
    pub config: GoConfig,
}

/// The workspace's Go modules.
#[derive(Debug, Clone, Default)]
pub(crate) struct GoConfig {
    /// A module's path -> its directory (workspace-relative, "" for the root), from each
    /// `go.mod`'s `module` line (the first directory wins a path declared twice).
    modules: BTreeMap<String, String>,
    /// The directories holding a `go.mod`, sorted: a file's module is the nearest above it.
    roots: Vec<String>,
}

impl GoConfig {
    pub(crate) fn read<'a>(root: &Path, files: impl IntoIterator<Item = &'a str>) -> GoConfig {
        // Every directory above a Go file may hold a go.mod; each is looked at once.
        let mut cfg = GoConfig::default();
        for d in dirs_above(files.into_iter().filter(|f| f.ends_with(".go"))) {
            let Ok(text) = std::fs::read_to_string(root.join(join(d, "go.mod"))) else { continue };
            cfg.roots.push(d.to_string());
            if let Some(m) = module_path(&text) {
                cfg.modules.entry(m.to_string()).or_insert_with(|| d.to_string());
            }
        }
        cfg.roots.sort();
        cfg
    }

    pub(crate) fn fingerprint(&self) -> String {
        format!("{:?} {:?}", self.modules, self.roots)
    }

    /// The directory of the module a file belongs to: the nearest `go.mod` above it.
    fn module_root(&self, file: &str) -> Option<&str> {
        let mut d = dir_of(file);
        loop {
            if let Ok(i) = self.roots.binary_search_by(|r| r.as_str().cmp(d)) {
                return Some(&self.roots[i]);
            }
            if d.is_empty() {
                return None;
            }
            d = dir_of(d);
        }
    }

    /// The workspace directory an import path names by module: the longest module path it
    /// starts with, then the rest of it below that module's directory.
    fn dir_for(&self, import: &str) -> Option<String> {
        let (module, dir) = self
            .modules
            .iter()
            .filter(|(m, _)| import == m.as_str() || import.strip_prefix(m.as_str()).is_some_and(|r| r.starts_with('/')))
            .max_by_key(|(m, _)| m.len())?;
        Some(join(dir, import[module.len()..].trim_start_matches('/')))
    }
}

/// The `module` line of a go.mod (`module example.com/x // comment`, quoted or not).
fn module_path(text: &str) -> Option<&str> {
    text.lines().find_map(|l| {
        let l = l.split_once("//").map_or(l, |(l, _)| l).trim();
        let m = l.strip_prefix("module")?.trim().trim_matches(['"', '`']);
        (!m.is_empty() && l.as_bytes().get(6).is_some_and(u8::is_ascii_whitespace)).then_some(m)
    })
}

fn join(dir: &str, rest: &str) -> String {
    match (dir.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (false, true) => dir.to_string(),
        (false, false) => format!("{dir}/{rest}"),
    }
}

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

impl ModuleSystem for Go {
    fn name(&self) -> &'static str {
        "go"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { detached_methods_in_package: true, structural_interfaces: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        dir_of(path).to_string()
    }

    fn package_of(&self, path: &str, _declared: Option<&str>) -> Option<String> {
        Some(dir_of(path).to_string())
    }

    fn package_node(&self, path: &str, _declared: Option<&str>) -> Option<String> {
        Some(dir_of(path).to_string())
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let fam = t.fam_named(self.name());
        let package = |dir: &str| t.module_files(fam, dir).map(|files| Target::Package(files.clone()));
        let Some(own) = self.config.module_root(&imp.file_path) else {
            // No go.mod above the file: the longest suffix of the import path that is a Go
            // directory of the workspace; none is the standard library or a module the
            // workspace does not contain.
            let parts: Vec<&str> = imp.module.split('/').collect();
            let found = (0..parts.len()).find_map(|i| package(&parts[i..].join("/")));
            return Some(found.unwrap_or(Target::External));
        };
        let by_module = self.config.dir_for(&imp.module).and_then(|d| package(&d));
        // The importing module's vendored copy; then a path whose first element has no dot
        // is the standard library's, a workspace directory when the workspace holds the
        // `std` module.
        let vendored = || package(&join(own, &format!("vendor/{}", imp.module)));
        let first = imp.module.split('/').next().unwrap_or("");
        let std = || self.config.modules.get("std").filter(|_| !first.contains('.')).and_then(|d| package(&join(d, &imp.module)));
        Some(by_module.or_else(vendored).or_else(std).unwrap_or(Target::External))
    }

    fn bare_import_name<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        Some(imp.module.rsplit('/').next().unwrap_or(""))
    }
}
