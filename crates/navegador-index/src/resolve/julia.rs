//! Julia's module system: a file is the module `module M … end` at its top declares (its
//! definitions are top-level, `M.f`), `include("x.jl")` reads a file by its path (as C's `#include`)
//! into the including module, so the files of a package share their top-level names (one
//! namespace for the family, as C's external linkage); `using M` / `import M: f` name a
//! module a workspace file declares (`module M`), relative ones (`.M`, `..M`) included,
//! else a package outside (Base, a registry package). `M.f()` reaches module M's file
//! without an import. A bare call no workspace file defines is Base's or a used package's
//! (outside). Multiple dispatch: the methods of one function are definitions of one name,
//! which a call names as one callee (the family's `redefinitions_collapse`).

use navegador_model::{Label, Language};
use navegador_store::ImportRow;

use super::c::{by_path, shared_definitions};
use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Julia;

impl ModuleSystem for Julia {
    fn name(&self) -> &'static str {
        "julia"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { programs_outside: true, redefinitions_collapse: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, declared: Option<&str>) -> String {
        declared.map_or_else(|| path.to_string(), str::to_string)
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let m = imp.module.as_str();
        if m.ends_with(".jl") {
            return Some(by_path(t, &imp.file_path, m));
        }
        // `..Parent.Sub`, `.Util`, `A.B`: the module named last
        let last = m.trim_start_matches('.').rsplit('.').next().unwrap_or(m);
        let Some(file) = self.module_file(t, last) else { return Some(Target::External) };
        Some(match imp.name.as_deref() {
            Some(n) if n != "*" => t.export_of(&file, n, 0).unwrap_or(Target::File(file)),
            _ => Target::File(file),
        })
    }

    fn bare_import_name<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        // `import A.B` binds `B`
        let m = imp.module.trim_start_matches('.');
        (imp.name.is_none() && !m.ends_with(".jl")).then(|| m.rsplit('.').next().unwrap_or(m))
    }

    fn shared_globals(&self, t: &Table, file: &str, name: &str) -> Vec<usize> {
        shared_definitions(t, t.fam_named(self.name()), file, name)
    }

    fn implicit_module(&self, t: &Table, _file: &str, name: &str) -> Option<Target> {
        // `M.f()`: a module the workspace declares, else a package's (`Base.show`), when
        // capitalized as modules are
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        Some(self.module_file(t, name).map_or(Target::External, Target::File))
    }
}

impl Julia {
    /// The file that is `module name` (the first, by path), else one declaring it inside
    /// another module.
    fn module_file(&self, t: &Table, name: &str) -> Option<String> {
        let fam = t.fam_named(self.name());
        if let Some(f) = t.module_files(fam, name).and_then(|f| f.first()) {
            return Some(f.clone());
        }
        let mut files: Vec<&String> = t
            .by_name
            .get(name)?
            .iter()
            .filter(|&&i| t.sym_fam[i] == fam && t.syms[i].label == Label::Module)
            .map(|&i| &t.syms[i].file_path)
            .collect();
        files.sort();
        files.first().map(|f| f.to_string())
    }
}
