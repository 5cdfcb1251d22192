//! The JVM module system (Java): packages declared in each file, single-type, wildcard and
//! static imports, a package's classes visible to each other, implicit `this`.

use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Jvm;

impl ModuleSystem for Jvm {
    fn name(&self) -> &'static str {
        "jvm"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { implicit_this: true, bare_calls_reach_methods: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, _path: &str, declared: Option<&str>) -> String {
        // A file without a `package` is in the unnamed package.
        declared.unwrap_or_default().to_string()
    }

    fn declared_packages(&self) -> bool {
        true
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let full = match imp.name.as_deref() {
            Some(n) if n != "*" => format!("{}.{}", imp.module, n),
            _ => imp.module.clone(),
        };
        let full = full.trim_end_matches(".*");
        if let Some(i) = t.unique_class(full) {
            return Some(Target::Symbol(i));
        }
        if let Some(files) = t.module_files(t.fam_named(self.name()), full) {
            return Some(Target::Package(files.clone()));
        }
        // `import static a.B.m`: a member of a class.
        let (owner, member) = full.rsplit_once('.')?;
        let Some(c) = t.unique_class(owner) else {
            // A single-type or static import whose package (or class) is none of the
            // workspace's: the class is outside (`java.util.function.BiFunction` beside a
            // workspace of `java.util`), whatever organization the two share. (An ingest
            // re-resolves the importing files' sites when a file of that package appears:
            // `Table::package_lines`.)
            let single = imp.name.as_deref() != Some("*") && !imp.module.ends_with(".*");
            let known = t.module_files(t.fam_named(self.name()), owner).is_some();
            return (single && !known).then_some(Target::External);
        };
        t.member(t.syms[c].id, member).first().map(|&m| Target::Symbol(m))
    }

    fn implicit_packages(&self) -> &'static [&'static str] {
        &["java.lang"]
    }

    /// The organization of the file's package: its first two parts (`com.acme`).
    fn roots(&self, _t: &Table, _path: &str, key: &str) -> Vec<String> {
        organization(key).map(str::to_string).into_iter().collect()
    }

    fn import_root<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        organization(&imp.module)
    }

    fn bare_import_name<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        Some(imp.module.rsplit('.').next().unwrap_or(""))
    }
}

/// The first two parts of a dotted name (`org.junit` of `org.junit.Assert`): packages of one
/// organization share them, a library's differ from the workspace's.
fn organization(name: &str) -> Option<&str> {
    if name.is_empty() {
        return None;
    }
    Some(match name.match_indices('.').nth(1) {
        Some((i, _)) => &name[..i],
        None => name,
    })
}
