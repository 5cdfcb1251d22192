//! Rust's module system: `crate::a::b` module paths from file paths (`src/`, `lib.rs`,
//! `main.rs`, `mod.rs`), `use` paths with `crate`/`self`/`super`, modules declared by
//! `mod x;` visible without a `use`, `impl` blocks anywhere in the crate; another crate of
//! the workspace by its name (`Cargo.toml` `[lib] name` or `[package] name`, `-` as `_`):
//! `use navegador_model::Label` is `crate::Label` of that crate's files.

use navegador_lang::module_path_for;
use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Rust {
    pub config: RustConfig,
}

/// The workspace's crates: a `Cargo.toml` with a `[package]` in a directory above a Rust
/// file.
#[derive(Debug, Clone, Default)]
pub(crate) struct RustConfig {
    /// (the name `use` writes, the crate's directory, workspace-relative), sorted.
    crates: Vec<(String, String)>,
}

impl RustConfig {
    pub(crate) fn read<'a>(root: &std::path::Path, files: impl IntoIterator<Item = &'a str>) -> RustConfig {
        let mut dirs: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
        for f in files.into_iter().filter(|f| f.ends_with(".rs")) {
            // the crate directory is the one holding `src/` (or the root for `src/…`)
            if let Some(d) = f.strip_prefix("src/").map(|_| "").or_else(|| f.split_once("/src/").map(|(d, _)| d)) {
                dirs.insert(d);
            }
        }
        let mut crates = Vec::new();
        for d in dirs {
            let manifest = if d.is_empty() { "Cargo.toml".to_string() } else { format!("{d}/Cargo.toml") };
            let Ok(text) = std::fs::read_to_string(root.join(&manifest)) else { continue };
            if let Some(name) = crate_name(&text) {
                crates.push((name.replace('-', "_"), d.to_string()));
            }
        }
        crates.sort();
        RustConfig { crates }
    }

    pub(crate) fn fingerprint(&self) -> String {
        format!("{:?}", self.crates)
    }

    /// The directory of the workspace crate `use` names `name`.
    fn dir_of(&self, name: &str) -> Option<&str> {
        self.crates.iter().find(|(n, _)| n == name).map(|(_, d)| d.as_str())
    }
}

/// The name a crate is used by: `[lib] name`, else `[package] name` (a manifest without
/// `[package]`, a virtual workspace's, has none). The keys are read line by line: a
/// `name = "…"` directly in the section.
fn crate_name(manifest: &str) -> Option<String> {
    let (mut section, mut package, mut lib) = (String::new(), None, None);
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.trim_matches(['[', ']']).trim().to_string();
            continue;
        }
        let Some(value) = line.strip_prefix("name").map(str::trim_start).and_then(|r| r.strip_prefix('=')) else { continue };
        let value = value.trim().trim_matches(['"', '\'']).to_string();
        match section.as_str() {
            "package" => package = Some(value),
            "lib" => lib = Some(value),
            _ => {}
        }
    }
    package.as_ref()?;
    lib.or(package).filter(|n| !n.is_empty())
}

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
        // Every crate's modules are `crate::…`: the importer's own crate first.
        let own = crate_src(&imp.file_path);
        let found = own.and_then(|o| lookup(t, fam, &base, imp.name.as_deref(), Some(o))).or_else(|| lookup(t, fam, &base, imp.name.as_deref(), None));
        if found.is_some() {
            return found;
        }
        // `use other_crate::a::b`: another crate of the workspace, its `crate::a::b`.
        let first = self.import_root(imp)?;
        let dir = self.config.dir_of(first)?;
        let rest = imp.module.split_once("::").map_or("", |(_, r)| r);
        let base = if rest.is_empty() { "crate".to_string() } else { format!("crate::{rest}") };
        let under = if dir.is_empty() { "src/".to_string() } else { format!("{dir}/src/") };
        lookup(t, fam, &base, imp.name.as_deref(), Some(&under))
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
        // the file's own crate's module, else any (every crate's modules are `crate::…`)
        let own = crate_src(file);
        let first = |k: &str| {
            let files = t.module_files(fam, k)?;
            own.and_then(|o| files.iter().find(|f| f.starts_with(o))).or(files.first()).cloned()
        };
        if name == "crate" {
            return first("crate").map(Target::File);
        }
        // `mod util;` binds a module without an import.
        [path(t, file, &format!("self::{name}")), path(t, file, &format!("super::{name}"))].iter().find_map(|k| first(k)).map(Target::File)
    }
}

/// The module `base` (absolute, `crate::…`) or its member `name`, of files under `under`
/// when given (one crate of several).
fn lookup(t: &Table, fam: super::system::Fam, base: &str, name: Option<&str>, under: Option<&str>) -> Option<Target> {
    let inside = |f: &str| under.is_none_or(|u| f.starts_with(u));
    let module = |k: &str| t.module_files(fam, k).and_then(|f| f.iter().find(|f| inside(f)).cloned()).map(Target::File);
    match name {
        None | Some("*") | Some("self") => module(base),
        Some(n) => {
            let q = format!("{base}::{n}");
            if let Some(i) = t.by_qname.get(&q).and_then(|v| v.iter().find(|&&i| inside(&t.syms[i].file_path))) {
                return Some(Target::Symbol(*i));
            }
            module(&q)
        }
    }
}

/// The `…/src/` prefix of a file in a crate's `src/` (`crates/a/src/`, `src/`).
fn crate_src(file: &str) -> Option<&str> {
    if file.starts_with("src/") {
        return Some("src/");
    }
    file.find("/src/").map(|i| &file[..i + 5])
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
