//! Haskell's module system: a module is the name its header declares (`module Shop.Cart
//! where`, none: `Main`), wherever the file is, one namespace of modules. `import A.B` (also
//! with `hiding (…)`) reads A.B's top-level names as the file's, `import A.B (f, T)` binds
//! the names listed, `as M` and `import qualified A.B` bind a qualifier (`M.f`, `A.B.f`). A
//! bare name also sees the constructors, record fields (selector functions: methods of kind
//! `getter`) and type-class methods of the file and of the modules it imports (they are
//! members of their type or class in the graph, names of the module in the language). A
//! module no workspace file declares (`Data.Map`, base's) is outside.

use std::collections::HashSet;

use navegador_model::{Label, Language};
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Haskell;

impl ModuleSystem for Haskell {
    fn name(&self) -> &'static str {
        "haskell"
    }

    fn rules(&self, _lang: Language) -> Rules {
        // a bare name the module neither defines nor imports is the Prelude's
        Rules { closed_modules: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, _path: &str, declared: Option<&str>) -> String {
        declared.filter(|d| !d.is_empty()).unwrap_or("Main").to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let Some(file) = self.module_file(t, &imp.module) else { return Some(Target::External) };
        Some(match imp.name.as_deref() {
            Some(n) if n != "*" => t.export_of(&file, n, 0).unwrap_or(Target::File(file)),
            _ => Target::File(file),
        })
    }

    /// Constructors, record fields and class methods named `name`, of the file and the modules it imports.
    fn shared_globals(&self, t: &Table, file: &str, name: &str) -> Vec<usize> {
        let mut files: HashSet<&str> = HashSet::from([file]);
        let mut imported: Vec<String> = Vec::new();
        for imp in t.imports.get(file).into_iter().flatten() {
            if imp.alias.is_some() || imp.name.as_deref().is_some_and(|n| n != "*" && n != name) {
                continue;
            }
            if let Some(f) = self.module_file(t, &imp.module) {
                imported.push(f);
            }
        }
        files.extend(imported.iter().map(String::as_str));
        t.by_name
            .get(name)
            .into_iter()
            .flatten()
            .copied()
            .filter(|&i| {
                let s = &t.syms[i];
                if s.label != Label::Method || !files.contains(s.file_path.as_str()) {
                    return false;
                }
                let in_class = s.parent.and_then(|p| t.by_id.get(&p)).is_some_and(|&c| t.syms[c].kind.as_deref() == Some("interface"));
                in_class || matches!(s.kind.as_deref(), Some("constructor" | "getter"))
            })
            .collect()
    }
}

impl Haskell {
    fn module_file(&self, t: &Table, module: &str) -> Option<String> {
        t.module_files(t.fam_named(self.name()), module).and_then(|f| f.first().cloned())
    }
}
