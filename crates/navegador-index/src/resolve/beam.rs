//! The BEAM's module system (Erlang): a module is the name a file declares
//! (`-module(shop_cart).`, else the file's stem), one flat namespace; `m:f()` names module
//! m's function without any import, `-import(m, [f/1])` binds `f`, `-include("x.hrl")`
//! reads a header's definitions as the file's own. A module no workspace file declares is
//! outside (OTP's `lists`, a dependency's).

use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Beam;

impl ModuleSystem for Beam {
    fn name(&self) -> &'static str {
        "beam"
    }

    fn rules(&self, _lang: Language) -> Rules {
        // a bare name the module neither defines nor imports is a BIF, never another
        // module's function
        Rules { closed_modules: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, declared: Option<&str>) -> String {
        declared.map_or_else(|| stem(path).to_string(), str::to_string)
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        if imp.name.as_deref() == Some("*") {
            // a header by its file name (`-include_lib("app/include/x.hrl")`)
            let base = imp.module.rsplit('/').next().unwrap_or(&imp.module);
            return Some(t.by_basename.get(base).and_then(|f| f.first().cloned()).map_or(Target::External, Target::File));
        }
        let Some(file) = self.module_file(t, &imp.module) else { return Some(Target::External) };
        Some(match imp.name.as_deref() {
            Some(n) => t.export_of(&file, n, 0).unwrap_or(Target::File(file)),
            None => Target::File(file),
        })
    }

    fn implicit_module(&self, t: &Table, _file: &str, name: &str) -> Option<Target> {
        // `m:f()`: any module, declared in the workspace or outside it (a variable, `M:f()`,
        // may hold any)
        if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
            return None;
        }
        Some(self.module_file(t, name).map_or(Target::External, Target::File))
    }
}

impl Beam {
    fn module_file(&self, t: &Table, module: &str) -> Option<String> {
        t.module_files(t.fam_named(self.name()), module).and_then(|f| f.first().cloned())
    }
}

/// The file name without directory and extension.
fn stem(path: &str) -> &str {
    let base = path.rsplit('/').next().unwrap_or(path);
    base.rsplit_once('.').map_or(base, |(s, _)| s)
}
