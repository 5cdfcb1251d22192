//! The .NET module system (C#): the namespace a file declares is its module; types of one
//! namespace see each other, and so do the types of the namespaces around it (`Kv.Store`
//! sees `Kv`); `using A.B;` brings a namespace's types, `using static A.B.C;` a type's
//! static members, `using X = A.B.C;` a name; a `partial` class is one class over the
//! files that declare its parts; implicit `this`.

use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Dotnet;

impl ModuleSystem for Dotnet {
    fn name(&self) -> &'static str {
        "dotnet"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { implicit_this: true, bare_calls_reach_methods: true, open_classes: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, _path: &str, declared: Option<&str>) -> String {
        // A file without a `namespace` is in the global namespace.
        declared.unwrap_or_default().to_string()
    }

    fn declared_packages(&self) -> bool {
        true
    }

    /// `Kv.Store` sees `Kv` too.
    fn enclosing_packages(&self, package: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut p = package;
        while let Some((outer, _)) = p.rsplit_once('.') {
            out.push(outer.to_string());
            p = outer;
        }
        out.push(String::new());
        out
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let full = match imp.name.as_deref() {
            Some(n) if n != "*" => format!("{}.{}", imp.module, n),
            _ => imp.module.clone(),
        };
        // `using X = A.B.C;`, `using static A.B.C;`: a type
        if let Some(i) = t.unique_class(&full) {
            return Some(Target::Symbol(i));
        }
        // `using A.B;`: a namespace of the workspace
        t.module_files(t.fam_named(self.name()), &full).map(|files| Target::Package(files.clone()))
    }

    /// The first part of the file's namespace (`Kv` of `Kv.Store`): a library's differ
    /// (`System`, `Microsoft`).
    fn roots(&self, _t: &Table, _path: &str, key: &str) -> Vec<String> {
        key.split('.').next().filter(|r| !r.is_empty()).map(str::to_string).into_iter().collect()
    }

    fn import_root<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        imp.module.split('.').next().filter(|r| !r.is_empty())
    }
}
