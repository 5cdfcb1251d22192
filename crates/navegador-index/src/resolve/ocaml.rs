//! OCaml's module system: a file is the module of its capitalized name (`shop_cart.ml` is
//! `Shop_cart`, wherever its directory: dune flattens a library), one namespace; `M.f`
//! reaches module M without an import, `open M` reads its names as the file's, `module P =
//! M` names it P; a module the file defines (`module Inner = struct … end`) comes first. A
//! module no workspace file is (Stdlib's `List`, a library's) is outside.

use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Ocaml;

impl ModuleSystem for Ocaml {
    fn name(&self) -> &'static str {
        "ocaml"
    }

    fn rules(&self, _lang: Language) -> Rules {
        // a bare name neither defined, opened nor bound is Stdlib's; inside a module its
        // own functions come first
        Rules { closed_modules: true, implicit_this: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        let base = path.rsplit('/').next().unwrap_or(path);
        capitalized(base.rsplit_once('.').map_or(base, |(s, _)| s))
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        // (`open A.B`: the file of A)
        let top = imp.module.split('.').next().unwrap_or(&imp.module);
        Some(self.module_file(t, top).map_or(Target::External, Target::File))
    }

    fn implicit_module(&self, t: &Table, file: &str, name: &str) -> Option<Target> {
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) || t.top.contains_key(&(file.to_string(), name.to_string())) {
            return None;
        }
        Some(self.module_file(t, name).map_or(Target::External, Target::File))
    }
}

impl Ocaml {
    fn module_file(&self, t: &Table, module: &str) -> Option<String> {
        t.module_files(t.fam_named(self.name()), module).and_then(|f| f.first().cloned())
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}
