//! Go's module system: a package is a directory, every file of it sees the others'
//! top-level names, imports name a directory by its module path (the module prefix from
//! `go.mod` is matched as the longest suffix that is a workspace directory), methods
//! belong to their receiver's type in its own directory.

use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Go;

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

impl ModuleSystem for Go {
    fn name(&self) -> &'static str {
        "go"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { detached_methods_in_package: true, structural_interfaces: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        dir_of(path).to_string()
    }

    fn package_of(&self, path: &str, _declared: Option<&str>) -> Option<String> {
        Some(dir_of(path).to_string())
    }

    fn package_node(&self, path: &str, _declared: Option<&str>) -> Option<String> {
        Some(dir_of(path).to_string())
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let fam = t.fam_named(self.name());
        // The longest suffix of the import path that is a Go directory of the workspace.
        let parts: Vec<&str> = imp.module.split('/').collect();
        // None: the standard library or a module the workspace does not contain.
        let found = (0..parts.len()).find_map(|i| t.module_files(fam, &parts[i..].join("/")));
        Some(found.map_or(Target::External, |files| Target::Package(files.clone())))
    }

    fn bare_import_name<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        Some(imp.module.rsplit('/').next().unwrap_or(""))
    }
}
