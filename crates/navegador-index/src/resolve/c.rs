//! The module system of C and C++: `#include` by path (relative to the including file,
//! then the workspace root, then the shortest workspace path ending in it), and one
//! namespace of external definitions shared by every translation unit — for C++ every
//! definition outside a type, whatever namespace holds it (`namespace kv { int clamp(); }`
//! is seen as `clamp` and, through the qualified path, as `kv::clamp`). C++'s `using a::b;`
//! names a definition by its qualified name, `using namespace a;` opens a namespace whose
//! names are shared already; methods see their class's members bare (an implicit `this`,
//! the manifest's `receiver`).

use navegador_model::{Label, Language};
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{normalize, Table, Target};

pub(crate) struct C;

impl ModuleSystem for C {
    fn name(&self) -> &'static str {
        "c"
    }

    fn rules(&self, lang: Language) -> Rules {
        Rules { implicit_this: lang.info().receiver.is_some(), open_classes: lang.info().open_classes, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.rsplit_once('.').map_or(path, |(s, _)| s).to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        // C++ `using` (an `#include` names no name)
        if let Some(name) = imp.name.as_deref() {
            return using(t, &imp.module, name);
        }
        Some(by_path(t, &imp.file_path, &imp.module))
    }

    fn shared_globals(&self, t: &Table, file: &str, name: &str) -> Vec<usize> {
        shared_definitions(t, t.fam_named(self.name()), file, name)
    }
}

/// The definitions of a name at namespace level that every file of a family shares (C's
/// external linkage, shell functions): exported ones, or the file's own; definitions
/// before prototypes.
pub(crate) fn shared_definitions(t: &Table, fam: super::system::Fam, file: &str, name: &str) -> Vec<usize> {
    let found: Vec<usize> = t
        .by_name
        .get(name)
        .into_iter()
        .flatten()
        .copied()
        .filter(|&i| {
            let s = &t.syms[i];
            t.sym_fam[i] == fam && (s.is_exported || s.file_path == file) && t.at_namespace_level(i)
        })
        .collect();
    // Prefer definitions over prototypes in headers.
    let defs: Vec<usize> = found.iter().copied().filter(|&i| t.syms[i].kind.as_deref() != Some("declaration")).collect();
    if defs.is_empty() { found } else { defs }
}

/// A file named by a path as an `#include` (or a shell `source`) writes it: relative to
/// the including file, then to the workspace root, then the shortest workspace path ending
/// in it; none is outside (a system header, a library's).
pub(crate) fn by_path(t: &Table, from: &str, inc: &str) -> Target {
    let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
    let local = normalize(&if dir.is_empty() { inc.to_string() } else { format!("{dir}/{inc}") });
    if let Some(l) = local.filter(|l| t.files.contains_key(l)) {
        return Target::File(l);
    }
    if t.files.contains_key(inc) {
        return Target::File(inc.to_string());
    }
    let suffix = format!("/{inc}");
    let base = inc.rsplit('/').next().unwrap_or(inc);
    let mut found: Vec<&String> = t.by_basename.get(base).into_iter().flatten().filter(|p| p.ends_with(&suffix)).collect();
    found.sort_by_key(|p| (p.len(), p.as_str()));
    found.first().map_or(Target::External, |s| Target::File(s.to_string()))
}

/// `using a::b::C;` -> the definition `a::b::C` (a type first, a definition before its
/// declarations); `using namespace a::b;` -> nothing to bind when the workspace declares
/// the namespace (its names are shared), else outside (`std`).
fn using(t: &Table, module: &str, name: &str) -> Option<Target> {
    let declares = |ns: &str| t.by_qname.get(ns).is_some_and(|v| v.iter().any(|&i| t.syms[i].label == Label::Module));
    if name == "*" {
        return (!declares(module)).then_some(Target::External);
    }
    let full = format!("{module}::{name}");
    if let Some(v) = t.by_qname.get(&full) {
        let pick = v
            .iter()
            .copied()
            .find(|&i| t.syms[i].label == Label::Class)
            .or_else(|| v.iter().copied().find(|&i| t.syms[i].kind.as_deref() != Some("declaration")))
            .or_else(|| v.first().copied());
        return pick.map(Target::Symbol);
    }
    let root = module.split("::").next().unwrap_or(module);
    (!declares(root)).then_some(Target::External)
}
