//! Python's module system: dotted modules from paths (`src/` layouts stripped, packages by
//! `__init__.py`), absolute and relative imports, `import a.b` binding the package `a`,
//! submodules as attributes of their package.

use navegador_lang::module_path_for;
use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Python;

impl ModuleSystem for Python {
    fn name(&self) -> &'static str {
        "python"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { closed_modules: true, redefinitions_collapse: true, ..Rules::default() }
    }

    fn module_key(&self, lang: Language, path: &str, declared: Option<&str>) -> String {
        declared.map_or_else(|| module_path_for(lang, path), str::to_string)
    }

    fn package_node(&self, path: &str, declared: Option<&str>) -> Option<String> {
        let m = declared.unwrap_or_default();
        Some(if path.ends_with("__init__.py") { m.to_string() } else { m.rsplit_once('.').map_or(String::new(), |(p, _)| p.to_string()) })
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, depth: u32) -> Option<Target> {
        let module = absolute(t, &imp.file_path, &imp.module)?;
        let find = |m: &str| t.module_files(self.fam(t), m).and_then(|f| f.first().cloned());
        match imp.name.as_deref() {
            None | Some("*") => find(&module).map(Target::File),
            Some(n) => {
                let sub = if module.is_empty() { n.to_string() } else { format!("{module}.{n}") };
                if let Some(f) = find(&sub) {
                    return Some(Target::File(f));
                }
                let file = find(&module)?;
                t.export_of(&file, n, depth).or(Some(Target::File(file)))
            }
        }
    }

    fn bare_import_name<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        // `import a.b` binds `a`.
        Some(imp.module.split('.').next().unwrap_or(""))
    }

    fn bound_target(&self, t: &Table, imp: &ImportRow) -> Option<Target> {
        if imp.alias.is_none() && imp.name.is_none() && imp.module.contains('.') {
            // `import a.b` binds the package `a`.
            let top = imp.module.split('.').next().unwrap_or("");
            return t.module_files(self.fam(t), top).and_then(|f| f.first().cloned()).map(Target::File);
        }
        t.import_target(imp)
    }

    /// The first part of the file's module (`django` of `django.db.models`), and the name
    /// it is importable by when its directory is on `sys.path` (a top-level package or
    /// module of a directory that is not a package: Django's `tests/auth_tests`).
    fn roots(&self, t: &Table, path: &str, key: &str) -> Vec<String> {
        let is_package = |dir: &str| t.files.contains_key(&if dir.is_empty() { "__init__.py".to_string() } else { format!("{dir}/__init__.py") });
        let mut out: Vec<String> = key.split('.').next().filter(|r| !r.is_empty()).map(str::to_string).into_iter().collect();
        let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
        let (outer, name) = if file == "__init__.py" {
            (dir.rsplit_once('/').map_or("", |(d, _)| d), dir.rsplit('/').next().unwrap_or(dir))
        } else {
            (dir, file.split('.').next().unwrap_or(file))
        };
        if !name.is_empty() && !is_package(outer) {
            out.push(name.to_string());
        }
        out
    }

    fn import_root<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        // A relative import stays inside the workspace.
        Some(imp.module.split('.').next().filter(|r| !r.is_empty())?)
    }

    fn submodule(&self, t: &Table, file: &str, seg: &str) -> Option<String> {
        let m = t.files.get(file)?.module.as_deref().unwrap_or_default();
        t.module_files(self.fam(t), &format!("{m}.{seg}")).and_then(|f| f.first().cloned())
    }
}

impl Python {
    fn fam(&self, t: &Table) -> super::system::Fam {
        t.fam_named(self.name())
    }
}

/// `..pkg.mod` relative to a Python file -> `a.pkg.mod`.
fn absolute(t: &Table, file: &str, module: &str) -> Option<String> {
    let dots = module.chars().take_while(|c| *c == '.').count();
    if dots == 0 {
        return Some(module.to_string());
    }
    let own = t.files.get(file)?.module.clone().unwrap_or_default();
    let mut parts: Vec<&str> = if own.is_empty() { vec![] } else { own.split('.').collect() };
    if !file.ends_with("__init__.py") {
        parts.pop();
    }
    for _ in 1..dots {
        parts.pop()?;
    }
    let rest = &module[dots..];
    if !rest.is_empty() {
        parts.extend(rest.split('.'));
    }
    Some(parts.join("."))
}
