//! Python's module system: dotted modules from paths (`src/` layouts stripped, packages by
//! `__init__.py`), absolute and relative imports, `import a.b` binding the package `a`,
//! submodules as attributes of their package. A workspace holding several projects (a
//! directory with `pyproject.toml`, `setup.py` or `setup.cfg` below the root, its `src/`
//! when it has one) puts each on the path: an absolute import is looked up in the
//! importing file's own project first, then from the workspace root, then in the others.

use navegador_lang::module_path_for;
use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Python {
    pub config: PythonConfig,
}

/// The workspace's Python projects below its root: the dotted module prefix of each one's
/// import root (`packages.core.src` for `packages/core/pyproject.toml` with a `src/`).
#[derive(Debug, Clone, Default)]
pub(crate) struct PythonConfig {
    /// (directory, module prefix), sorted by directory.
    projects: Vec<(String, String)>,
}

const PROJECT_FILES: [&str; 3] = ["pyproject.toml", "setup.py", "setup.cfg"];

impl PythonConfig {
    pub(crate) fn read<'a>(root: &std::path::Path, files: impl IntoIterator<Item = &'a str>) -> PythonConfig {
        let py: Vec<&str> = files.into_iter().filter(|f| f.ends_with(".py") || f.ends_with(".pyi")).collect();
        let mut dirs = std::collections::BTreeSet::new();
        for f in &py {
            let mut d = f.rsplit_once('/').map_or("", |(d, _)| d);
            while !d.is_empty() && dirs.insert(d) {
                d = d.rsplit_once('/').map_or("", |(d, _)| d);
            }
        }
        let mut projects = Vec::new();
        for d in dirs {
            if !PROJECT_FILES.iter().any(|m| root.join(d).join(m).is_file()) {
                continue;
            }
            let src = format!("{d}/src/");
            let base = if py.iter().any(|f| f.starts_with(&src)) { format!("{d}/src") } else { d.to_string() };
            projects.push((d.to_string(), base.replace('/', ".")));
        }
        PythonConfig { projects }
    }

    pub(crate) fn fingerprint(&self) -> String {
        format!("{:?}", self.projects)
    }

    /// The module keys an absolute `module` may have for a file: in the file's own project
    /// (the nearest above it), as written (from the workspace root), in the other projects.
    fn keys(&self, file: &str, module: &str) -> Vec<String> {
        let under = |(d, _): &&(String, String)| file.strip_prefix(d.as_str()).is_some_and(|r| r.starts_with('/'));
        let own = self.projects.iter().filter(under).max_by_key(|(d, _)| d.len());
        let prefixed = |p: &str| if module.is_empty() { p.to_string() } else { format!("{p}.{module}") };
        let mut out: Vec<String> = own.map(|(_, p)| prefixed(p)).into_iter().collect();
        out.push(module.to_string());
        out.extend(self.projects.iter().filter(|x| Some(*x) != own).map(|(_, p)| prefixed(p)));
        out
    }
}

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
        let relative = imp.module.starts_with('.');
        let module = absolute(t, &imp.file_path, &imp.module)?;
        let find = |m: &str| self.find(t, &imp.file_path, m, relative);
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
            return self.find(t, &imp.file_path, top, false).map(Target::File);
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

    /// The file of module `m` imported from `file`: a relative import's as it is, an
    /// absolute one's in the projects of the workspace ([`PythonConfig::keys`]).
    fn find(&self, t: &Table, file: &str, m: &str, relative: bool) -> Option<String> {
        let first = |k: &str| t.module_files(self.fam(t), k).and_then(|f| f.first().cloned());
        if relative || self.config.projects.is_empty() {
            return first(m);
        }
        self.config.keys(file, m).iter().find_map(|k| first(k))
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
