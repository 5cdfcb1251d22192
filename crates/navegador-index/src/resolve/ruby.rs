//! Ruby's module system: constants are global and named by their nesting (`module A;
//! class B` is `A::B`); a constant written inside a class or module is looked up through
//! its nesting outwards (`A::B::C`, then `A::C`, then `C`); `require "a/b"` names a file on
//! the load path (a workspace `lib/a/b.rb` first, then any path ending in `a/b.rb`),
//! `require_relative` a path from the file's directory; `include`/`extend`/`prepend` make a
//! module's methods the class's (its bases); a bare name in a method is a method of `self`.

use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{normalize, Table, Target};

pub(crate) struct Ruby;

impl ModuleSystem for Ruby {
    fn name(&self) -> &'static str {
        "ruby"
    }

    fn rules(&self, _lang: Language) -> Rules {
        // Methods are found through `self` (and its mixins); a top-level `def` is a private
        // method of every object, so a bare call may name any method.
        Rules { implicit_this: true, bare_calls_reach_methods: true, open_constants: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.strip_suffix(".rb").unwrap_or(path).to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        let m = imp.module.as_str();
        if m.starts_with("./") || m.starts_with("../") {
            let dir = imp.file_path.rsplit_once('/').map_or("", |(d, _)| d);
            let p = normalize(&if dir.is_empty() { m.to_string() } else { format!("{dir}/{m}") })?;
            let p = if p.ends_with(".rb") { p } else { format!("{p}.rb") };
            return t.files.contains_key(&p).then_some(Target::File(p));
        }
        let stem = m.strip_suffix(".rb").unwrap_or(m);
        let file = format!("{stem}.rb");
        let base = file.rsplit('/').next().unwrap_or(&file);
        let suffix = format!("/{file}");
        let lib = format!("lib/{file}");
        let mut found: Vec<&String> =
            t.by_basename.get(base).into_iter().flatten().filter(|p| **p == file || p.ends_with(&suffix)).collect();
        // a `lib/` directory is on the load path; the shortest path first
        found.sort_by_key(|p| (!(p.ends_with(&lib) && (p.len() == lib.len() || p.ends_with(&format!("/{lib}")))), p.len(), p.as_str()));
        // None: a gem or the standard library (`json`, `set`)
        Some(found.first().map_or(Target::External, |p| Target::File(p.to_string())))
    }

    /// A constant through the lexical nesting of the class it is written in: `C` inside
    /// `A::B` is `A::B::C`, `A::C` or `C`; `::C` is `C`. Other names (methods, locals) are
    /// not constants.
    fn qualified_candidates(&self, _t: &Table, _file: &str, scope: Option<&str>, written: &str) -> Vec<String> {
        if let Some(abs) = written.strip_prefix("::") {
            return vec![abs.to_string()];
        }
        if !written.starts_with(|c: char| c.is_ascii_uppercase()) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut s = scope;
        while let Some(q) = s.filter(|q| !q.is_empty()) {
            out.push(format!("{q}::{written}"));
            s = q.rsplit_once("::").map(|(p, _)| p);
        }
        out.push(written.to_string());
        out
    }
}
