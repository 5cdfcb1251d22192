//! Lua's module system: a module is a file, named by its dotted path (`a/b.lua` and
//! `a/b/init.lua` are `a.b`); `require "a.b"` finds it on the search path, which is any
//! directory of the workspace (`lua/`, `src/`, the root): the module whose key is `a.b` or
//! ends in `.a.b`, the shortest first; none is a rock or the standard library (outside).
//! `local m = require "a.b"` binds `m` to the module, so `m.f()` is its function `f`.
//! Globals are shared: a bare name no scope or import binds may be another file's
//! global function.

use navegador_lang::module_path_for;
use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Lua;

impl ModuleSystem for Lua {
    fn name(&self) -> &'static str {
        "lua"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules::default()
    }

    fn module_key(&self, lang: Language, path: &str, _declared: Option<&str>) -> String {
        module_path_for(lang, path)
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let fam = t.fam_named(self.name());
        // `require "a/b"` is accepted as `a.b` by the standard searchers
        let m = imp.module.replace('/', ".");
        if let Some(f) = t.module_files(fam, &m).and_then(|f| f.first()) {
            return Some(Target::File(f.clone()));
        }
        let suffix = format!(".{m}");
        let mut found: Vec<&String> = t.module_keys(fam).filter(|k| k.ends_with(&suffix)).collect();
        found.sort_by_key(|k| (k.len(), k.as_str()));
        let file = found.first().and_then(|k| t.module_files(fam, k)).and_then(|f| f.first());
        Some(file.map_or(Target::External, |f| Target::File(f.clone())))
    }
}
