//! Perl's module system: package names are global (`Shop::Cart`, whatever file declares
//! it); a package is a class-like whose subs are its methods, so `Shop::Cart::add(…)`,
//! `Shop::Cart->add(…)` and a bare `add(…)` inside the package name the same sub, and
//! `use parent`/`@ISA` bases give `$self->m()` the inherited ones. `use A::B` / `require
//! A::B` name the file `A/B.pm` on `@INC`: a workspace `lib/A/B.pm` first, then any path
//! ending in `A/B.pm`, the shortest first; `require "a/b.pl"` a file ending in that path.
//! None is a CPAN module or the core library (outside).

use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Perl;

impl ModuleSystem for Perl {
    fn name(&self) -> &'static str {
        "perl"
    }

    fn rules(&self, _lang: Language) -> Rules {
        // a bare `f()` in a package is its sub; a package root no file declares (`Carp`,
        // `Scalar::Util`) is a module outside the workspace
        Rules { implicit_this: true, bare_calls_reach_methods: true, open_constants: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let m = imp.module.as_str();
        // `A::B` is `A/B.pm`; a string names a file as written (`"a/b.pl"`, `"A/B.pm"`)
        let file = if m.contains('/') || m.ends_with(".pl") || m.ends_with(".pm") {
            m.trim_start_matches("./").to_string()
        } else {
            format!("{}.pm", m.replace("::", "/"))
        };
        let base = file.rsplit('/').next().unwrap_or(&file);
        let suffix = format!("/{file}");
        let lib = format!("lib/{file}");
        let mut found: Vec<&String> =
            t.by_basename.get(base).into_iter().flatten().filter(|p| **p == file || p.ends_with(&suffix)).collect();
        // a `lib/` directory is on `@INC`; the shortest path first
        found.sort_by_key(|p| (!(**p == lib || p.ends_with(&format!("/{lib}"))), p.len(), p.as_str()));
        Some(found.first().map_or(Target::External, |p| Target::File(p.to_string())))
    }

    /// A package-qualified name is global: `Shop::Cart` (also written `::Shop::Cart` or
    /// `main::Shop::Cart`) is that package wherever it is written; a lower-case name is a
    /// sub or a variable, found by scopes.
    fn qualified_candidates(&self, _t: &Table, _file: &str, _scope: Option<&str>, written: &str) -> Vec<String> {
        let w = written.strip_prefix("::").or_else(|| written.strip_prefix("main::")).unwrap_or(written);
        if !w.starts_with(|c: char| c.is_ascii_uppercase()) {
            return Vec::new();
        }
        vec![w.to_string()]
    }
}
