//! PHP's module system: a file declares its namespace (`namespace App\Http;`), names are
//! resolved as PHP does — `\A\B` fully qualified, `B\C` through a `use` alias of `B`,
//! otherwise in the current namespace (functions and constants then fall back to the
//! global one) — and a file sees its namespace's classes without a `use`. `use A\B\C` is
//! the class (or function) of that qualified name; one no file declares is found by the
//! PSR-4 prefixes of the workspace's `composer.json` (`"App\\": "app/"`: `App\Http\K`
//! is `app/Http/K.php`); `require`/`include` name a path. An import whose first namespace
//! segment no workspace file or autoload prefix provides leads outside (`vendor/`).

use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{normalize, Table, Target};

pub(crate) struct Php {
    pub config: PhpConfig,
}

impl ModuleSystem for Php {
    fn name(&self) -> &'static str {
        "php"
    }

    fn rules(&self, _lang: Language) -> Rules {
        // `static::m()` is the class's own method (late static binding), `parent::m()` its
        // base's.
        Rules { self_names: &["static"], super_names: &["parent"], ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, _path: &str, declared: Option<&str>) -> String {
        // A file without a `namespace` is in the global namespace.
        declared.unwrap_or_default().to_string()
    }

    fn package_of(&self, _path: &str, declared: Option<&str>) -> Option<String> {
        Some(declared.unwrap_or_default().to_string())
    }

    fn package_node(&self, _path: &str, declared: Option<&str>) -> Option<String> {
        declared.map(str::to_string)
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, depth: u32) -> Option<Target> {
        let m = imp.module.as_str();
        if imp.name.is_none() && (m.contains('/') || m.ends_with(".php")) {
            return path_file(t, &imp.file_path, m).map(Target::File);
        }
        let full = match imp.name.as_deref() {
            Some(n) => format!("{m}\\{n}"),
            None => m.to_string(),
        };
        let full = full.trim_start_matches('\\');
        if let Some(c) = t.unique_class(full) {
            return Some(Target::Symbol(c));
        }
        // `use function A\f;`, `use const A\X;`
        if let Some(&s) = t.by_qname.get(full).and_then(|v| v.first()) {
            return Some(Target::Symbol(s));
        }
        // `use A\B;` then `B\C`: a namespace
        if let Some(files) = t.module_files(t.fam_named(self.name()), full) {
            return Some(Target::Package(files.clone()));
        }
        // PSR-4: the file the autoloader would load
        let (_, last) = full.rsplit_once('\\').unwrap_or(("", full));
        for p in self.config.files_for(full) {
            if t.files.contains_key(&p) {
                return t.export_of(&p, last, depth).or(Some(Target::File(p)));
            }
        }
        None
    }

    fn bare_import_name<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        // `use Foo;` binds `Foo`; a `require` binds nothing
        (!imp.module.contains('/') && !imp.module.ends_with(".php")).then(|| imp.module.rsplit('\\').next().unwrap_or(""))
    }

    /// The first segment of the file's namespace (`Illuminate` of `Illuminate\Support`),
    /// and of every PSR-4 prefix of `composer.json`.
    fn roots(&self, _t: &Table, _path: &str, key: &str) -> Vec<String> {
        let mut out: Vec<String> = key.split('\\').next().filter(|r| !r.is_empty()).map(str::to_string).into_iter().collect();
        out.extend(self.config.psr4.iter().filter_map(|(p, _)| p.split('\\').next().filter(|r| !r.is_empty()).map(str::to_string)));
        out
    }

    fn import_root<'a>(&self, imp: &'a ImportRow) -> Option<&'a str> {
        if imp.module.contains('/') || imp.module.ends_with(".php") {
            return None;
        }
        imp.module.trim_start_matches('\\').split('\\').next().filter(|r| !r.is_empty())
    }

    /// PHP's name resolution: `\A\B` is `A\B`; `namespace\X` is the current namespace's;
    /// `B\C` (or `B`) where a `use` binds `B` is the imported name's; otherwise the current
    /// namespace's, then (functions, constants) the global one.
    fn qualified_candidates(&self, t: &Table, file: &str, _scope: Option<&str>, written: &str) -> Vec<String> {
        // names only: not `$x`, `$this->a`, `f()`
        if written.is_empty() || !written.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '\\') {
            return Vec::new();
        }
        if let Some(abs) = written.strip_prefix('\\') {
            return vec![abs.to_string()];
        }
        let ns = t.files.get(file).and_then(|f| f.module.clone()).unwrap_or_default();
        let within = |n: &str| if ns.is_empty() { n.to_string() } else { format!("{ns}\\{n}") };
        if let Some(rest) = written.strip_prefix("namespace\\") {
            return vec![within(rest)];
        }
        let (first, rest) = match written.split_once('\\') {
            Some((f, r)) => (f, Some(r)),
            None => (written, None),
        };
        for imp in t.imports.get(file).into_iter().flatten() {
            if imp.module.contains('/') || imp.module.ends_with(".php") {
                continue;
            }
            let (local, full) = match (&imp.alias, &imp.name) {
                (Some(a), Some(n)) => (a.as_str(), format!("{}\\{n}", imp.module)),
                (Some(a), None) => (a.as_str(), imp.module.clone()),
                (None, Some(n)) => (n.rsplit('\\').next().unwrap_or(n), format!("{}\\{n}", imp.module)),
                (None, None) => (imp.module.rsplit('\\').next().unwrap_or(""), imp.module.clone()),
            };
            if local == first {
                let full = full.trim_start_matches('\\').to_string();
                return vec![match rest {
                    Some(r) => format!("{full}\\{r}"),
                    None => full,
                }];
            }
        }
        let mut out = vec![within(written)];
        if !ns.is_empty() {
            out.push(written.to_string());
        }
        out
    }
}

/// `require 'x.php'`: from the file's directory, then the workspace root, then the shortest
/// workspace path ending in it.
fn path_file(t: &Table, from: &str, spec: &str) -> Option<String> {
    let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
    let local = normalize(&if dir.is_empty() { spec.to_string() } else { format!("{dir}/{spec}") });
    if let Some(l) = local.filter(|l| t.files.contains_key(l)) {
        return Some(l);
    }
    let spec = spec.trim_start_matches("./");
    if t.files.contains_key(spec) {
        return Some(spec.to_string());
    }
    let suffix = format!("/{spec}");
    let base = spec.rsplit('/').next().unwrap_or(spec);
    let mut found: Vec<&String> = t.by_basename.get(base).into_iter().flatten().filter(|p| p.ends_with(&suffix)).collect();
    found.sort_by_key(|p| (p.len(), p.as_str()));
    found.first().map(|s| s.to_string())
}

/// PSR-4 prefixes from `composer.json` at the workspace root (`autoload` and
/// `autoload-dev`).
#[derive(Debug, Clone, Default)]
pub(crate) struct PhpConfig {
    /// (`App\`, [`app/`]) pairs, prefixes without their trailing `\`, directories without
    /// their trailing `/`.
    psr4: Vec<(String, Vec<String>)>,
}

impl PhpConfig {
    pub(crate) fn read(root: &std::path::Path) -> PhpConfig {
        let Ok(text) = std::fs::read_to_string(root.join("composer.json")) else { return PhpConfig::default() };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
            tracing::warn!("composer.json: not valid JSON; PSR-4 autoloading ignored");
            return PhpConfig::default();
        };
        let mut psr4 = Vec::new();
        for section in ["autoload", "autoload-dev"] {
            for (prefix, dirs) in v[section]["psr-4"].as_object().into_iter().flatten() {
                let dirs: Vec<String> = match dirs {
                    serde_json::Value::String(d) => vec![d.clone()],
                    serde_json::Value::Array(a) => a.iter().filter_map(|d| d.as_str().map(str::to_string)).collect(),
                    _ => continue,
                };
                let dirs = dirs.iter().filter_map(|d| normalize(d.trim_start_matches("./").trim_end_matches('/'))).collect();
                psr4.push((prefix.trim_end_matches('\\').to_string(), dirs));
            }
        }
        // the longest prefix first, as the autoloader tries them
        psr4.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        PhpConfig { psr4 }
    }

    pub(crate) fn fingerprint(&self) -> String {
        format!("{:?}", self.psr4)
    }

    /// The files PSR-4 would load a class from: `App\Http\K` under prefix `App` -> `app/Http/K.php`.
    fn files_for(&self, class: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (prefix, dirs) in &self.psr4 {
            let rest = if prefix.is_empty() {
                Some(class)
            } else {
                class.strip_prefix(prefix.as_str()).and_then(|r| r.strip_prefix('\\'))
            };
            let Some(rest) = rest.filter(|r| !r.is_empty()) else { continue };
            let rel = rest.replace('\\', "/");
            for d in dirs {
                out.push(if d.is_empty() { format!("{rel}.php") } else { format!("{d}/{rel}.php") });
            }
        }
        out
    }
}
