//! Swift's module system: a module is a build target — a SwiftPM `Sources/<Target>` (or
//! `Tests/<Target>`) directory, otherwise the workspace directory holding the file's tree
//! (a CocoaPods pod, an Xcode target) — and every file of a module sees the others'
//! top-level names without an import; `import M` makes module `M`'s names visible (the
//! extractor records it as a wildcard, name `*`), `import struct M.T` one of them; an
//! extension's members belong to the extended type wherever it is declared.

use navegador_model::{Label, Language};
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Swift;

/// The module of a file: `…/Sources/<Target>` or `…/Tests/<Target>` when the path has
/// one, else its first directory (the root for a file at the root).
pub(crate) fn module_of(path: &str) -> String {
    let parts: Vec<&str> = path.split('/').collect();
    let dirs = &parts[..parts.len().saturating_sub(1)];
    if let Some(i) = dirs.iter().rposition(|d| matches!(*d, "Sources" | "Tests")).filter(|&i| i + 1 < dirs.len()) {
        return dirs[..=i + 1].join("/");
    }
    dirs.first().map_or_else(String::new, |d| d.to_string())
}

/// A module's name as `import` writes it: its last directory (`Sources/Shop` is `Shop`).
fn module_name(key: &str) -> &str {
    key.rsplit('/').next().unwrap_or(key)
}

impl ModuleSystem for Swift {
    fn name(&self) -> &'static str {
        "swift"
    }

    fn rules(&self, _lang: Language) -> Rules {
        // implicit `self`; methods are called bare inside their type and its extensions
        Rules { implicit_this: true, bare_calls_reach_methods: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        module_of(path)
    }

    fn package_of(&self, path: &str, _declared: Option<&str>) -> Option<String> {
        Some(module_of(path))
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let fam = t.fam_named(self.name());
        // The workspace module named as imported: the key whose last directory it is.
        let mut keys: Vec<&String> = t.module_keys(fam).filter(|k| module_name(k) == imp.module).collect();
        keys.sort();
        let Some(files) = keys.first().and_then(|k| t.module_files(fam, k)) else {
            // Foundation, UIKit, a dependency: outside the workspace
            return Some(Target::External);
        };
        match imp.name.as_deref() {
            None | Some("*") => Some(Target::Package(files.clone())),
            // `import struct M.T`
            Some(n) => {
                let found: Vec<usize> = files
                    .iter()
                    .flat_map(|f| t.top.get(&(f.clone(), n.to_string())).into_iter().flatten())
                    .copied()
                    .filter(|&i| t.syms[i].label == Label::Class)
                    .collect();
                Some(found.first().map_or(Target::External, |&i| Target::Symbol(i)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn modules_are_targets() {
        let cases = [
            ("Sources/Shop/Model/Item.swift", "Sources/Shop"),
            ("Tests/ShopTests/ItemTests.swift", "Tests/ShopTests"),
            ("packages/kit/Sources/Kit/A.swift", "packages/kit/Sources/Kit"),
            ("ios/Core/AppContext.swift", "ios"),
            ("main.swift", ""),
        ];
        for (path, want) in cases {
            assert_eq!(super::module_of(path), want, "{path}");
        }
    }
}
