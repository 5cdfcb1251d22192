//! C's module system: `#include` by path (relative to the including file, then the
//! workspace root, then the shortest workspace path ending in it), and one namespace of
//! external definitions shared by every translation unit.

use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{normalize, Table, Target};

pub(crate) struct C;

impl ModuleSystem for C {
    fn name(&self) -> &'static str {
        "c"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules::default()
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.rsplit_once('.').map_or(path, |(s, _)| s).to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let (from, inc) = (imp.file_path.as_str(), imp.module.as_str());
        let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
        let local = normalize(&if dir.is_empty() { inc.to_string() } else { format!("{dir}/{inc}") });
        if let Some(l) = local.filter(|l| t.files.contains_key(l)) {
            return Some(Target::File(l));
        }
        if t.files.contains_key(inc) {
            return Some(Target::File(inc.to_string()));
        }
        let suffix = format!("/{inc}");
        let base = inc.rsplit('/').next().unwrap_or(inc);
        let mut found: Vec<&String> = t.by_basename.get(base).into_iter().flatten().filter(|p| p.ends_with(&suffix)).collect();
        found.sort_by_key(|p| (p.len(), p.as_str()));
        // None: a system header or one of a library outside the workspace.
        Some(found.first().map_or(Target::External, |s| Target::File(s.to_string())))
    }

    fn shared_globals(&self, t: &Table, file: &str, name: &str) -> Vec<usize> {
        let fam = t.fam_named(self.name());
        let found: Vec<usize> = t
            .by_name
            .get(name)
            .into_iter()
            .flatten()
            .copied()
            .filter(|&i| {
                let s = &t.syms[i];
                s.parent.is_none() && t.sym_fam[i] == fam && (s.is_exported || s.file_path == file)
            })
            .collect();
        // Prefer definitions over prototypes in headers.
        let defs: Vec<usize> = found.iter().copied().filter(|&i| t.syms[i].kind.as_deref() != Some("declaration")).collect();
        if defs.is_empty() { found } else { defs }
    }
}
