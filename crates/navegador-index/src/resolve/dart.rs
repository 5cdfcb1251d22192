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
use super::system::{dirs_above, ModuleSystem, Rules};
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
    /// Reads the `pubspec.yaml` of every directory above a Dart file of the workspace (a
    /// package holds its libraries under it; a mono-repo's `packages/x/`): the files the
    /// ingest knows, so no walk of its own.
    pub(crate) fn read<'a>(root: &Path, files: impl IntoIterator<Item = &'a str>) -> DartConfig {
        let mut packages = Vec::new();
        for d in dirs_above(files.into_iter().filter(|f| f.ends_with(".dart"))) {
            let manifest = if d.is_empty() { "pubspec.yaml".to_string() } else { format!("{d}/pubspec.yaml") };
            let Ok(text) = std::fs::read_to_string(root.join(manifest)) else { continue };
            let name = text.lines().find_map(|l| l.strip_prefix("name:")).map(|n| n.trim().trim_matches(['"', '\'']).to_string());
            if let Some(n) = name.filter(|n| !n.is_empty()) {
                packages.push((n, d.to_string()));
            }
        }
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
