//! Elixir's module system: module names are global (`Shop.Cart` wherever a file defines
//! it, one namespace of modules: the class-likes of kind `module`), so `Shop.Cart.add()`
//! reaches a module without an import; `alias Shop.Cart` (or `as: C`) names it by its last
//! segment, a module nested in another is named by its last segment inside it
//! (`defmodule Item` in `Shop.Cart`: `Item`), `import Shop.Util` makes its public functions
//! bare names; `__MODULE__` is the enclosing module. A module no workspace file defines
//! (`Enum`, a dependency's `Ecto.Changeset`) is outside; so is an Erlang module (`:lists`)
//! unless the workspace declares it (family `beam`).

use navegador_model::{Label, Language};
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Elixir;

impl ModuleSystem for Elixir {
    fn name(&self) -> &'static str {
        "elixir"
    }

    fn rules(&self, _lang: Language) -> Rules {
        // a bare name is a function of the enclosing module (or one it imports), a Kernel
        // builtin otherwise, never another module's function
        Rules { closed_modules: true, implicit_this: true, open_constants: true, self_names: &["__MODULE__"], ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.rsplit_once('.').map_or(path, |(s, _)| s).to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        Some(t.unique_class(&imp.module).map_or(Target::External, Target::Symbol))
    }

    /// `:lists.map()`: an Erlang module, the workspace's when a file declares it.
    fn implicit_module(&self, t: &Table, _file: &str, name: &str) -> Option<Target> {
        if !name.starts_with(|c: char| c.is_ascii_lowercase()) || name.contains('.') {
            return None;
        }
        let beam = t.fam_named("beam");
        Some(t.module_files(beam, name).and_then(|f| f.first().cloned()).map_or(Target::External, Target::File))
    }

    /// A bare name sees the public functions of the modules the file imports.
    fn shared_globals(&self, t: &Table, file: &str, name: &str) -> Vec<usize> {
        let mut out = Vec::new();
        for imp in t.imports.get(file).into_iter().flatten().filter(|i| i.name.as_deref() == Some("*")) {
            if let Some(Some(Target::Symbol(c))) = t.import_targets.get(&imp.id) {
                out.extend(t.member(t.syms[*c].id, name).into_iter().filter(|&i| t.syms[i].label != Label::Class && t.syms[i].is_exported));
            }
        }
        out
    }

    /// A module as written: through an alias of the file (`Cart.add` after `alias
    /// Shop.Cart`), a module nested in the enclosing ones (`Item` inside `Shop.Cart`), or
    /// its full name.
    fn qualified_candidates(&self, t: &Table, file: &str, scope: Option<&str>, written: &str) -> Vec<String> {
        if !written.starts_with(|c: char| c.is_ascii_uppercase()) {
            return Vec::new();
        }
        let (first, rest) = written.split_once('.').map_or((written, None), |(f, r)| (f, Some(r)));
        let aliased = t.imports.get(file).into_iter().flatten().find(|i| {
            i.name.as_deref().is_some_and(|n| n != "*") && i.alias.as_deref().or(i.name.as_deref()) == Some(first)
        });
        if let Some(imp) = aliased {
            return vec![rest.map_or(imp.module.clone(), |r| format!("{}.{r}", imp.module))];
        }
        let mut out = Vec::new();
        let mut s = scope;
        while let Some(q) = s.filter(|q| !q.is_empty()) {
            out.push(format!("{q}.{written}"));
            s = q.rsplit_once('.').map(|(p, _)| p);
        }
        out.push(written.to_string());
        out
    }
}
