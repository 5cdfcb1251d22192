//! R's module system: a package's files share one namespace (every top-level assignment of
//! one is seen by the others, as a package's `R/` directory is), `source("x.R")` reads a
//! file by its path (as C's `#include`), `library(pkg)` / `require(pkg)` attach a package
//! outside the workspace; a bare call no workspace file defines is an attached package's
//! (base R's `paste`, a library's), and so is `pkg::f()` when no workspace file defines
//! `pkg`.

use navegador_model::Language;
use navegador_store::ImportRow;

use super::c::{by_path, shared_definitions};
use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct R;

impl ModuleSystem for R {
    fn name(&self) -> &'static str {
        "r"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { programs_outside: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let m = imp.module.as_str();
        if m.ends_with(".R") || m.ends_with(".r") {
            return Some(by_path(t, &imp.file_path, m));
        }
        Some(Target::External)
    }

    fn shared_globals(&self, t: &Table, file: &str, name: &str) -> Vec<usize> {
        shared_definitions(t, t.fam_named(self.name()), file, name)
    }

    fn implicit_module(&self, t: &Table, _file: &str, name: &str) -> Option<Target> {
        // `pkg::f()`, `obj$m()` on a name no R file of the workspace defines: a package's
        let fam = t.fam_named(self.name());
        let defined = t.by_name.get(name).is_some_and(|v| v.iter().any(|&i| t.sym_fam[i] == fam));
        (!defined).then_some(Target::External)
    }
}
