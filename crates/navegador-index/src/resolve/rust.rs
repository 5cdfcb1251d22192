//! Rust's module system: `crate::a::b` module paths from file paths (`src/`, `lib.rs`,
//! `main.rs`, `mod.rs`), `use` paths with `crate`/`self`/`super`, modules declared by
//! `mod x;` visible without a `use`, `impl` blocks anywhere in the crate.

use navegador_lang::module_path_for;
use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Rust;

impl ModuleSystem for Rust {
    fn name(&self) -> &'static str {
        "rust"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules::default()
    }

    fn module_key(&self, lang: Language, path: &str, declared: Option<&str>) -> String {
        declared.map_or_else(|| module_path_for(lang, path), str::to_string)
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let fam = t.fam_named(self.name());
        let base = path(t, &imp.file_path, &imp.module);
        let module = |k: &str| t.module_files(fam, k).and_then(|f| f.first().cloned()).map(Target::File);
        match imp.name.as_deref() {
            None | Some("*") | Some("self") => module(&base),
            Some(n) => {
                let q = format!("{base}::{n}");
                if let Some(i) = t.by_qname.get(&q).and_then(|v| v.first()) {
                    return Some(Target::Symbol(*i));
                }
                module(&q)
            }
        }
    }

    /// The crate a file belongs to (the directory holding `src/`, as `use` writes it) and
    /// the crate-root module it is in (`util` of `crate::util::x`, for 2018-style paths).
    fn roots(&self, _t: &Table, path: &str, key: &str) -> Vec<String> {
        let mut out: Vec<String> = key.split("::").nth(1).map(str::to_string).into_iter().collect();
        let before_src = path.rsplit_once("/src/").map(|(d, _)| d.rsplit('/').next().unwrap_or(d));
        out.extend(before_src.filter(|c| !c.is_empty()).map(|c| c.replace('-', "_")));
        out
    }

    fn import_root<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        let first = imp.module.split("::").next()?;
        (!matches!(first, "" | "crate" | "self" | "super" | "Self")).then_some(first)
    }

    fn implicit_module(&self, t: &Table, file: &str, name: &str) -> Option<Target> {
        let fam = t.fam_named(self.name());
        let first = |k: &str| t.module_files(fam, k).and_then(|f| f.first().cloned());
        if name == "crate" {
            return first("crate").map(Target::File);
        }
        // `mod util;` binds a module without an import.
        [path(t, file, &format!("self::{name}")), path(t, file, &format!("super::{name}"))].iter().find_map(|k| first(k)).map(Target::File)
    }
}

/// A `use` path as written in `file` -> an absolute `crate::…` module path.
fn path(t: &Table, file: &str, path: &str) -> String {
    let own = t.files.get(file).and_then(|f| f.module.clone()).unwrap_or_else(|| "crate".into());
    let mut parts: Vec<String> = Vec::new();
    for (i, seg) in path.split("::").enumerate() {
        match seg {
            "crate" if i == 0 => parts.push("crate".into()),
            "self" if i == 0 => parts.extend(own.split("::").map(str::to_string)),
            "super" => {
                if parts.is_empty() {
                    parts.extend(own.split("::").map(str::to_string));
                }
                parts.pop();
            }
            s => {
                if i == 0 {
                    parts.push("crate".into());
                }
                parts.push(s.to_string())
            }
        }
    }
    parts.join("::")
}
