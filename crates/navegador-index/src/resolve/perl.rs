//! Perl's module system: package names are global (`Shop::Cart`, whatever file declares
//! it); a package is a class-like whose subs are its methods, so `Shop::Cart::add(…)`,
//! `Shop::Cart->add(…)` and a bare `add(…)` inside the package name the same sub, and
//! `use parent`/`@ISA` bases (by their whole names) give `$self->m()`, `Class->m()`,
//! `__PACKAGE__->m()` and `$class->m()` the inherited ones. `use A::B` / `require A::B`
//! name the file `A/B.pm` on `@INC` ([`on_inc`]); none is a CPAN module or the core
//! library (outside), unless a workspace file declares `package A::B`. `use A::B qw(f)`
//! imports the sub `f` of package `A::B`; `require "a/b.pl"` names a file by path
//! (relative to the requiring file, then the root, then the shortest path ending in it)
//! and sees its `main` subs.

use navegador_model::{Label, Language};
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Perl;

/// The directories that hold a distribution's modules on `@INC`, in the order `make test`
/// and `prove -l` see them: its sources, the build copy, the tests' own modules.
const INC_ROOTS: &[&str] = &["lib", "blib/lib", "t/lib"];

impl ModuleSystem for Perl {
    fn name(&self) -> &'static str {
        "perl"
    }

    fn rules(&self, _lang: Language) -> Rules {
        // a bare `f()` in a package is its sub; a package root no file declares (`Carp`,
        // `Scalar::Util`) is a module outside the workspace; `__PACKAGE__->m()` and, by
        // convention as `$self` is, a class method's `$class->m()` are the package's
        Rules {
            implicit_this: true,
            bare_calls_reach_methods: true,
            open_constants: true,
            self_names: &["__PACKAGE__", "$class"],
            ..Rules::default()
        }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let m = imp.module.as_str();
        // a string names a file as written (`"a/b.pl"`, `"A/B.pm"`); `A::B` is `A/B.pm`
        if m.contains('/') || m.ends_with(".pl") || m.ends_with(".pm") {
            return Some(super::c::by_path(t, &imp.file_path, m.trim_start_matches("./")));
        }
        let Some(file) = on_inc(t, &imp.file_path, m).or_else(|| declaring_file(t, m)) else { return Some(Target::External) };
        Some(match imp.name.as_deref() {
            None | Some("*") => Target::File(file),
            // `use A::B qw(f)`: the sub `f` of package `A::B`, the one the loaded file declares
            Some(n) => sub_of(t, &file, m, n).map_or(Target::File(file), Target::Symbol),
        })
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

    /// Of several files declaring one package (a module and its build copy under
    /// `blib/lib`, a test double under `t/lib`), the one `use A::B` loads from `file`.
    fn canonical_class(&self, t: &Table, file: &str, qname: &str, classes: &[usize]) -> Option<usize> {
        let loaded = on_inc(t, file, qname)?;
        let mut v = classes.iter().copied().filter(|&c| t.syms[c].file_path == loaded);
        let c = v.next()?;
        v.next().is_none().then_some(c)
    }
}

/// The workspace file `use A::B` loads from `from`: a path ending in `A/B.pm` under one of
/// [`INC_ROOTS`] (at any depth: each distribution of a workspace has its own) before one
/// elsewhere (`-I.`, a tree of installed modules); then the one whose root shares the most
/// leading directories with `from` (a test's `t/lib`, its own distribution's `lib`); then in
/// the roots' order, the shortest path first.
pub(crate) fn on_inc(t: &Table, from: &str, module: &str) -> Option<String> {
    let file = format!("{}.pm", module.replace("::", "/"));
    let base = file.rsplit('/').next().unwrap_or(&file);
    let suffix = format!("/{file}");
    let from_dirs: Vec<&str> = from.rsplit_once('/').map_or(Vec::new(), |(d, _)| d.split('/').collect());
    t.by_basename
        .get(base)
        .into_iter()
        .flatten()
        .filter(|p| **p == file || p.ends_with(&suffix))
        .min_by_key(|p| {
            let root = &p[..p.len() - file.len()];
            let dir = root.trim_end_matches('/');
            // the longest root the directory ends in (`blib/lib` ends in `lib` too)
            let rank = INC_ROOTS
                .iter()
                .enumerate()
                .filter(|(_, r)| dir == **r || dir.ends_with(&format!("/{r}")))
                .max_by_key(|(_, r)| r.len())
                .map_or(INC_ROOTS.len(), |(k, _)| k);
            let shared = root.split('/').filter(|s| !s.is_empty()).zip(&from_dirs).take_while(|(a, b)| a == *b).count();
            (rank == INC_ROOTS.len(), std::cmp::Reverse(shared), rank, p.len(), p.as_str())
        })
        .cloned()
}

/// The file declaring package `A::B`, when one alone does (a package kept in another
/// package's file: `use` finds it loaded).
fn declaring_file(t: &Table, package: &str) -> Option<String> {
    let fam = t.fam_named("perl");
    let mut files = t
        .by_qname
        .get(package)
        .into_iter()
        .flatten()
        .filter(|&&i| t.sym_fam[i] == fam && t.syms[i].label == Label::Class)
        .map(|&i| t.syms[i].file_path.as_str());
    let f = files.next()?;
    files.all(|g| g == f).then(|| f.to_string())
}

/// The sub `name` of package `package`: the one `file` declares, else the only one.
fn sub_of(t: &Table, file: &str, package: &str, name: &str) -> Option<usize> {
    let subs: Vec<usize> = t
        .by_qname
        .get(&format!("{package}::{name}"))
        .into_iter()
        .flatten()
        .copied()
        .filter(|&i| matches!(t.syms[i].label, Label::Function | Label::Method))
        .collect();
    subs.iter().copied().find(|&i| t.syms[i].file_path == file).or_else(|| (subs.len() == 1).then(|| subs[0]))
}
