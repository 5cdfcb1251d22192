//! Dart's module system: a library is a file; `import 'x.dart'` names a file by its path
//! from the importing file, `import 'package:NAME/x.dart'` the file `lib/x.dart` of the
//! package whose `pubspec.yaml` says `name: NAME` (else of a directory `NAME/`), `dart:`
//! libraries are outside, and so is a package the workspace does not hold. An import binds
//! every name of the library (a wildcard; `show`/`hide` are not read), or its prefix
//! (`as p`: `p.f()`); a `part` and its library see each other's names; names starting
//! with `_` are private to their library.

use std::path::Path;

use navegador_model::Language;
use navegador_store::ImportRow;

use super::c::by_path;
use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Dart {
    pub config: DartConfig,
}

/// The workspace's Dart packages: each `pubspec.yaml`'s `name:` and its directory.
#[derive(Debug, Clone, Default)]
pub(crate) struct DartConfig {
    packages: Vec<(String, String)>,
}

impl DartConfig {
    /// Reads the `pubspec.yaml` files at the root and up to three directories below it
    /// (a mono-repo's `packages/x/`), skipping hidden and build directories.
    pub(crate) fn read(root: &Path) -> DartConfig {
        let mut packages = Vec::new();
        find_pubspecs(root, "", 0, &mut packages);
        packages.sort();
        DartConfig { packages }
    }

    pub(crate) fn fingerprint(&self) -> String {
        format!("{:?}", self.packages)
    }

    /// The directory (relative to the root, `""` for the root) of the package `name`.
    fn dir_of(&self, name: &str) -> Option<&str> {
        self.packages.iter().find(|(n, _)| n == name).map(|(_, d)| d.as_str())
    }
}

fn find_pubspecs(dir: &Path, rel: &str, depth: u32, out: &mut Vec<(String, String)>) {
    if let Ok(text) = std::fs::read_to_string(dir.join("pubspec.yaml")) {
        let name = text.lines().find_map(|l| l.strip_prefix("name:")).map(|n| n.trim().trim_matches(['"', '\'']).to_string());
        if let Some(n) = name.filter(|n| !n.is_empty()) {
            out.push((n, rel.to_string()));
        }
    }
    if depth >= 3 {
        return;
    }
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || matches!(name.as_str(), "build" | "node_modules" | "target") || !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let sub = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
        find_pubspecs(&e.path(), &sub, depth + 1, out);
    }
}

impl ModuleSystem for Dart {
    fn name(&self) -> &'static str {
        "dart"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { closed_modules: true, implicit_this: true, wildcard_reexports: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let uri = imp.module.as_str();
        if uri.starts_with("dart:") {
            return Some(Target::External);
        }
        let Some(rest) = uri.strip_prefix("package:") else {
            return Some(by_path(t, &imp.file_path, uri));
        };
        let Some((pkg, file)) = rest.split_once('/') else { return Some(Target::External) };
        let candidates = match self.config.dir_of(pkg) {
            Some("") => vec![format!("lib/{file}")],
            Some(d) => vec![format!("{d}/lib/{file}")],
            None => {
                // no pubspec names it: a directory of that name holding `lib/`
                let suffix = format!("{pkg}/lib/{file}");
                let base = file.rsplit('/').next().unwrap_or(file);
                let mut found: Vec<&String> =
                    t.by_basename.get(base).into_iter().flatten().filter(|p| p.ends_with(&format!("/{suffix}")) || **p == suffix).collect();
                found.sort_by_key(|p| (p.len(), p.as_str()));
                found.into_iter().cloned().collect()
            }
        };
        Some(candidates.into_iter().find(|c| t.files.contains_key(c)).map_or(Target::External, Target::File))
    }
}
