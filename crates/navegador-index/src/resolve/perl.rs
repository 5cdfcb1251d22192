//! Perl's module system: package names are global (`Shop::Cart`, whatever file declares
//! it); a package is a class-like whose subs are its methods, so `Shop::Cart::add(…)`,
//! `Shop::Cart->add(…)` and a bare `add(…)` inside the package name the same sub, and
//! `use parent`/`@ISA` bases (by their whole names) give `$self->m()`, `Class->m()`,
//! `__PACKAGE__->m()` and `$class->m()` the inherited ones. `use A::B` / `require A::B`
//! name the file `A/B.pm` on `@INC` ([`on_inc`]); none is a CPAN module or the core
//! library (outside), unless a workspace file declares `package A::B`. `use A::B qw(f)`
//! imports the sub `f` of package `A::B`; `require "a/b.pl"` names a file by path
//! (relative to the requiring file, then the root, then the shortest path ending in it)
//! and sees its `main` subs. `use A::B;` (no list: the pack writes it `:DEFAULT`) imports
//! the subs `A::B`'s `@EXPORT` lists; `use A::B ();` and `require A::B` none. `use lib
//! 'dir'` (an import of `lib` naming the directory) puts `dir/A/B.pm` before `@INC`'s
//! guess for the file's later imports.

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
        // `use lib 'dir'`: the core pragma, its directory a root of the file's later imports
        if m == LIB {
            return Some(Target::External);
        }
        // a string names a file as written (`"a/b.pl"`, `"A/B.pm"`); `A::B` is `A/B.pm`
        if m.contains('/') || m.ends_with(".pl") || m.ends_with(".pm") {
            return Some(super::c::by_path(t, &imp.file_path, m.trim_start_matches("./")));
        }
        let Some(file) = loaded_file(t, &imp.file_path, imp.line, m).or_else(|| declaring_file(t, m)) else { return Some(Target::External) };
        Some(match imp.name.as_deref() {
            // the module, or a group of its exports (`:DEFAULT`, what `use A::B;` imports)
            None | Some("*") => Target::File(file),
            Some(n) if n.starts_with(':') => Target::File(file),
            // `use A::B qw(f)`: the sub `f` of package `A::B`, the one the loaded file declares
            Some(n) => sub_of(t, &file, m, n).map_or(Target::File(file), Target::Symbol),
        })
    }

    /// `use A::B qw(:tag)` and `use lib 'dir'` bind no name.
    fn binds_name(&self, imp: &ImportRow) -> bool {
        imp.module != LIB && !imp.name.as_deref().is_some_and(|n| n.starts_with(':'))
    }

    /// `use A::B;` (`:DEFAULT`): the subs of package `A::B` its loaded file lists in
    /// `@EXPORT` (the pack marks them `is_default_export`). Other tags (`%EXPORT_TAGS`) are
    /// not read: they bring in nothing here.
    fn group_members(&self, t: &Table, imp: &ImportRow, target: &Target, name: &str) -> Vec<usize> {
        let Target::File(file) = target else { return Vec::new() };
        if imp.name.as_deref() != Some(DEFAULT) {
            return Vec::new();
        }
        t.by_qname
            .get(&format!("{}::{name}", imp.module))
            .into_iter()
            .flatten()
            .copied()
            .filter(|&i| {
                let s = &t.syms[i];
                s.is_default_export && s.file_path == *file && matches!(s.label, Label::Function | Label::Method)
            })
            .collect()
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
        let loaded = loaded_file(t, file, u32::MAX, qname)?;
        let mut v = classes.iter().copied().filter(|&c| t.syms[c].file_path == loaded);
        let c = v.next()?;
        v.next().is_none().then_some(c)
    }
}

/// The module an import of the `lib` pragma names: its name is a directory
/// (hooks.rs), a module root of the importing file.
const LIB: &str = "lib";

/// The group of exports `use A::B;` imports (Exporter's name for `@EXPORT`).
const DEFAULT: &str = ":DEFAULT";

/// The workspace file `use A::B` at line `line` of `from` loads: `A/B.pm` under a
/// directory an earlier `use lib` of the file added (the latest first, a list's in its
/// order, as `@INC` holds them), else the one [`on_inc`] finds.
fn loaded_file(t: &Table, from: &str, line: u32, module: &str) -> Option<String> {
    let file = format!("{}.pm", module.replace("::", "/"));
    let libs: Vec<&ImportRow> = t.imports.get(from).into_iter().flatten().filter(|i| i.module == LIB && i.line <= line).collect();
    // the latest statement first; within one, its own order
    let mut order: Vec<usize> = (0..libs.len()).collect();
    order.sort_by_key(|&k| (std::cmp::Reverse(libs[k].line), k));
    for k in order {
        let Some(dir) = libs[k].name.as_deref().and_then(|d| lib_dir(from, d)) else { continue };
        let path = if dir.is_empty() { file.clone() } else { format!("{dir}/{file}") };
        if t.files.contains_key(&path) {
            return Some(path);
        }
    }
    on_inc(t, from, module)
}

/// The workspace directory (stored form, `""` the root) a `use lib` entry of `from` names:
/// `$FindBin::Bin/…` is relative to the file's directory, anything else to the root (where
/// `perl` and `prove` run); an absolute path or one leaving the workspace names none.
fn lib_dir(from: &str, written: &str) -> Option<String> {
    let (base, rest) = match written.strip_prefix(FINDBIN) {
        Some(rest) => (from.rsplit_once('/').map_or("", |(d, _)| d), rest),
        None if written.starts_with('/') => return None,
        None => ("", written),
    };
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for seg in rest.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// How hooks.rs writes the directory of the script (`$FindBin::Bin`, `$FindBin::RealBin`,
/// `$Bin` imported from FindBin) at the start of a `use lib` entry.
const FINDBIN: &str = "$FindBin::Bin";

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
