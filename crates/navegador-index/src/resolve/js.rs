//! The JavaScript/TypeScript module system: ES modules by relative path (extensions and
//! `index` files implied), `tsconfig.json`/`jsconfig.json` `baseUrl` and `paths` aliases
//! (a file's nearest config, with what it `extends`), the workspace's own packages by name
//! (`package.json` `name`, `exports`, `main`: npm, yarn and pnpm workspaces), default
//! exports; anything else is a package from `node_modules`.

use navegador_model::Language;
use navegador_store::ImportRow;

use super::system::{ModuleSystem, Rules};
use super::table::{normalize, Table, Target};

pub(crate) struct Js {
    pub config: JsConfig,
}

impl ModuleSystem for Js {
    fn name(&self) -> &'static str {
        "js"
    }

    fn rules(&self, lang: Language) -> Rules {
        // Browser scripts share globals; TypeScript modules do not.
        Rules { closed_modules: !lang.info().shared_globals, redefinitions_collapse: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.rsplit_once('.').map_or(path, |(s, _)| s).to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, depth: u32) -> Option<Target> {
        let Some(file) = self.module_file(t, &imp.file_path, &imp.module) else {
            // A package from node_modules (or a Node builtin), unless a path alias of the
            // workspace claims the specifier.
            let bare = !imp.module.starts_with('.') && !imp.module.starts_with('/');
            return (bare && !self.config.aliased(&imp.file_path, &imp.module) && self.config.package(&imp.module).is_none())
                .then_some(Target::External);
        };
        match imp.name.as_deref() {
            None | Some("*") => Some(Target::File(file)),
            Some(n) => t.export_of(&file, n, depth).or(Some(Target::File(file))),
        }
    }
}

impl Js {
    fn module_file(&self, t: &Table, from: &str, spec: &str) -> Option<String> {
        if !spec.starts_with('.') && !spec.starts_with('/') {
            // `paths` aliases and `baseUrl` of the file's tsconfig.json, then the
            // workspace's own packages by name; anything else is a package from
            // node_modules, outside the workspace.
            let mut candidates = self.config.candidates(from, spec);
            candidates.extend(self.config.package_candidates(spec));
            return candidates.into_iter().find_map(|c| file_at(t, &c));
        }
        let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
        let joined = normalize(&if let Some(abs) = spec.strip_prefix('/') {
            abs.to_string()
        } else if dir.is_empty() {
            spec.to_string()
        } else {
            format!("{dir}/{spec}")
        })?;
        file_at(t, &joined)
    }
}

/// The file extensions of the family's packs, from their manifests, in registry order
/// (`ts mts cts tsx js jsx mjs cjs`): what an import may leave out.
pub(crate) fn extensions() -> &'static [&'static str] {
    static EXTS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    EXTS.get_or_init(|| {
        let mut out: Vec<&'static str> = Vec::new();
        for l in navegador_lang::registry().languages().iter().filter(|l| l.family() == "js") {
            for e in &l.info().extensions {
                if !out.contains(&e.as_str()) {
                    out.push(e.as_str());
                }
            }
        }
        out
    })
}

/// A workspace path as an import names it: exact, with an extension, or its index file.
/// An import may name the compiled file: `./a.js` is `a.ts` when only that exists.
fn file_at(t: &Table, joined: &str) -> Option<String> {
    if t.files.contains_key(joined) {
        return Some(joined.to_string());
    }
    let exts = extensions();
    let stem = joined.rsplit_once('.').filter(|(s, e)| !s.ends_with('/') && exts.contains(e)).map_or(joined, |(s, _)| s);
    for e in exts {
        let p = format!("{stem}.{e}");
        if t.files.contains_key(&p) {
            return Some(p);
        }
    }
    for e in exts {
        let p = format!("{joined}/index.{e}");
        if t.files.contains_key(&p) {
            return Some(p);
        }
    }
    None
}

/// Module path aliases of the workspace's projects: each `tsconfig.json` / `jsconfig.json`
/// (the root's and any nested one, `front/tsconfig.json` beside `back/tsconfig.json`) with
/// what it `extends`. A file's specifiers are read by its nearest enclosing config, as
/// `tsc` reads a project's files by the config that includes them.
#[derive(Debug, Clone, Default)]
pub(crate) struct JsConfig {
    /// (config directory, workspace-relative, `""` for the root; its aliases), deepest
    /// directory first.
    projects: Vec<(String, Aliases)>,
    /// The workspace's own packages (a `package.json` with a `name` above a JS/TS file:
    /// npm, yarn and pnpm workspaces, or the root package itself), longest name first: an
    /// import of one by name is a workspace file, not an npm package.
    packages: Vec<Package>,
}

/// A `package.json` of the workspace.
#[derive(Debug, Clone, Default, PartialEq)]
struct Package {
    name: String,
    /// Its directory, workspace-relative.
    dir: String,
    /// Workspace paths the bare name may denote, most likely first: `exports["."]`
    /// (conditions `source`, `types`, `import`, `default`, `require` in that order),
    /// `source`, `module`, `main`, `types`; then `src/index`, `index`.
    entries: Vec<String>,
    /// `exports` subpaths (`./util`, `./*`) and their targets, workspace-relative.
    subpaths: Vec<(String, String)>,
}

/// The `baseUrl` and `paths` one config declares or inherits, workspace-relative.
#[derive(Debug, Clone, Default, PartialEq)]
struct Aliases {
    /// `baseUrl`, workspace-relative (`""` for the root).
    base: Option<String>,
    /// (`@lib/*`, [`src/lib/*`]) pairs, in file order, each target workspace-relative.
    paths: Vec<(String, Vec<String>)>,
}

/// The names a directory's project config may have, in the order `tsc` and editors try them.
const CONFIG_NAMES: [&str; 2] = ["tsconfig.json", "jsconfig.json"];

/// How deep a chain of `extends` is followed (a cycle stops at the first repeat).
const MAX_EXTENDS: usize = 16;

impl JsConfig {
    /// Reads the config of `root` and of every directory above a JS/TS file (`files`,
    /// workspace-relative paths: the walk's, so no directory is listed twice).
    pub(crate) fn read<'a>(root: &std::path::Path, files: impl IntoIterator<Item = &'a str>) -> JsConfig {
        let exts = extensions();
        let mut dirs: std::collections::BTreeSet<String> = std::collections::BTreeSet::from([String::new()]);
        for f in files {
            if !f.rsplit_once('.').is_some_and(|(_, e)| exts.contains(&e)) {
                continue;
            }
            let mut d = f;
            while let Some((parent, _)) = d.rsplit_once('/') {
                if !dirs.insert(parent.to_string()) {
                    break;
                }
                d = parent;
            }
        }
        let mut projects = Vec::new();
        let mut packages = Vec::new();
        for dir in dirs {
            if let Some(package) = read_package(root, &dir) {
                packages.push(package);
            }
            let Some(config) = CONFIG_NAMES.iter().map(|n| join_rel(&dir, n)).find(|c| root.join(c).is_file()) else { continue };
            if let Some(aliases) = read_config(root, &config) {
                projects.push((dir, aliases));
            }
        }
        projects.sort_by_key(|(d, _)| std::cmp::Reverse(d.len()));
        packages.sort_by(|a, b| b.name.len().cmp(&a.name.len()).then_with(|| a.dir.cmp(&b.dir)));
        JsConfig { projects, packages }
    }

    pub(crate) fn fingerprint(&self) -> String {
        format!("{:?} {:?}", self.projects, self.packages)
    }

    /// The workspace package a bare specifier names (`@acme/ui`, `@acme/ui/button`) and
    /// the subpath after its name (`""` for the package itself).
    fn package<'s>(&self, spec: &'s str) -> Option<(&Package, &'s str)> {
        self.packages.iter().find_map(|p| {
            let rest = spec.strip_prefix(p.name.as_str())?;
            if rest.is_empty() {
                Some((p, ""))
            } else {
                rest.strip_prefix('/').map(|sub| (p, sub))
            }
        })
    }

    /// Workspace paths a specifier naming a workspace package may denote.
    fn package_candidates(&self, spec: &str) -> Vec<String> {
        let Some((p, sub)) = self.package(spec) else { return Vec::new() };
        if sub.is_empty() {
            return p.entries.clone();
        }
        let mut out = Vec::new();
        let key = format!("./{sub}");
        for (pattern, target) in &p.subpaths {
            match pattern.split_once('*') {
                Some((pre, post)) => {
                    if let Some(star) = key.strip_prefix(pre).and_then(|r| r.strip_suffix(post)) {
                        out.push(target.replacen('*', star, 1));
                    }
                }
                None if *pattern == key => out.push(target.clone()),
                None => {}
            }
        }
        out.extend([join_rel(&p.dir, sub), join_rel(&p.dir, &format!("src/{sub}"))]);
        out
    }

    /// The aliases of the nearest config above `from` (a workspace-relative file path).
    fn nearest(&self, from: &str) -> Option<&Aliases> {
        self.projects
            .iter()
            .find(|(d, _)| d.is_empty() || (from.len() > d.len() && from.starts_with(d.as_str()) && from.as_bytes()[d.len()] == b'/'))
            .map(|(_, a)| a)
    }

    /// Whether a `paths` pattern of `from`'s config claims the specifier (it then names a
    /// workspace file, found or not).
    fn aliased(&self, from: &str, spec: &str) -> bool {
        self.nearest(from).is_some_and(|a| {
            a.paths.iter().any(|(pattern, _)| match pattern.split_once('*') {
                Some((pre, post)) => spec.len() >= pre.len() + post.len() && spec.starts_with(pre) && spec.ends_with(post),
                None => spec == pattern,
            })
        })
    }

    /// Workspace paths an import specifier of `from` may denote, most specific first.
    fn candidates(&self, from: &str, spec: &str) -> Vec<String> {
        let Some(a) = self.nearest(from) else { return Vec::new() };
        let mut out = Vec::new();
        for (pattern, targets) in &a.paths {
            let matched = match pattern.split_once('*') {
                Some((pre, post)) => spec
                    .strip_prefix(pre)
                    .and_then(|r| r.strip_suffix(post))
                    .map(|star| targets.iter().map(|t| t.replacen('*', star, 1)).collect::<Vec<_>>()),
                None => (spec == pattern).then(|| targets.clone()),
            };
            out.extend(matched.unwrap_or_default());
        }
        if let Some(base) = &a.base {
            out.extend(normalize(&join_rel(base, spec)));
        }
        out
    }
}

/// The `package.json` of `dir`, when it has a `name`: where its name leads.
fn read_package(root: &std::path::Path, dir: &str) -> Option<Package> {
    let path = join_rel(dir, "package.json");
    let text = std::fs::read_to_string(root.join(&path)).ok()?;
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        tracing::warn!("{path}: not valid JSON; the package is not resolved by name");
        return None;
    };
    let name = v["name"].as_str().filter(|n| !n.is_empty())?.to_string();
    let at = |t: &str| normalize(&join_rel(dir, t));
    // A conditional export: the first string of the conditions we read, nested ones too
    // (`{ "import": { "types": …, "default": … } }`).
    fn condition(v: &serde_json::Value) -> Option<&str> {
        match v {
            serde_json::Value::String(s) => Some(s),
            serde_json::Value::Object(m) => ["source", "types", "import", "default", "require", "node"].iter().find_map(|k| m.get(*k).and_then(condition)),
            serde_json::Value::Array(a) => a.iter().find_map(condition),
            _ => None,
        }
    }
    let exports = &v["exports"];
    let mut entries = Vec::new();
    let mut subpaths = Vec::new();
    match exports {
        serde_json::Value::Object(m) if m.keys().any(|k| k.starts_with('.')) => {
            for (k, target) in m {
                let Some(t) = condition(target).and_then(at) else { continue };
                if k == "." {
                    entries.push(t);
                } else {
                    subpaths.push((k.clone(), t));
                }
            }
        }
        other => entries.extend(condition(other).and_then(at)),
    }
    for key in ["source", "module", "main", "types", "typings"] {
        entries.extend(v[key].as_str().and_then(at));
    }
    entries.extend([join_rel(dir, "src/index"), join_rel(dir, "index")]);
    entries.dedup();
    Some(Package { name, dir: dir.to_string(), entries, subpaths })
}

/// `dir/name`, workspace-relative (`dir` `""` is the root).
fn join_rel(dir: &str, name: &str) -> String {
    let name = name.trim_start_matches("./");
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// One config (a workspace-relative path) with its `extends` chain, children overriding
/// parents key by key (`baseUrl`, `paths`), as `tsc` merges `compilerOptions`. A config
/// that is not valid JSON, or one outside the workspace, is skipped with a warning.
fn read_config(root: &std::path::Path, config: &str) -> Option<Aliases> {
    let mut chain: Vec<(String, serde_json::Value)> = Vec::new();
    let mut next = Some(config.to_string());
    while let Some(path) = next.take() {
        if chain.len() >= MAX_EXTENDS || chain.iter().any(|(p, _)| *p == path) {
            tracing::warn!("{config}: `extends` goes on past {path}; the rest of the chain is ignored");
            break;
        }
        let Ok(text) = std::fs::read_to_string(root.join(&path)) else {
            if chain.is_empty() {
                return None;
            }
            tracing::warn!("{config}: extends {path}, which is not in the workspace; its options are ignored");
            break;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&strip_json_comments(&text)) else {
            tracing::warn!("{path}: not valid JSON; path aliases ignored");
            if chain.is_empty() {
                return None;
            }
            break;
        };
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        // `extends` is a path or a list of them (TypeScript 5); of a list the last wins, as
        // its options override the earlier ones: that one is followed.
        let ext = match &v["extends"] {
            serde_json::Value::String(e) => Some(e.clone()),
            serde_json::Value::Array(a) => a.iter().rev().find_map(|e| e.as_str().map(str::to_string)),
            _ => None,
        };
        next = ext.and_then(|e| extended_path(root, &dir, &e));
        chain.push((path, v));
    }
    // From the farthest ancestor to the config itself: each sets what it declares.
    let mut out = Aliases::default();
    for (path, v) in chain.iter().rev() {
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        let opts = &v["compilerOptions"];
        let base = opts["baseUrl"].as_str().map(|b| normalize(&join_rel(dir, b)).unwrap_or_default());
        if base.is_some() {
            out.base = base.clone();
        }
        if let Some(map) = opts["paths"].as_object() {
            // `paths` targets are relative to `baseUrl` when there is one, else to the
            // config that declares them.
            let from = out.base.clone().unwrap_or_else(|| dir.to_string());
            out.paths = map
                .iter()
                .map(|(k, targets)| {
                    let ts = targets.as_array().into_iter().flatten().filter_map(|t| t.as_str()).filter_map(|t| normalize(&join_rel(&from, t))).collect();
                    (k.clone(), ts)
                })
                .collect();
        }
    }
    Some(out)
}

/// The workspace-relative file an `extends` names, from the config in `dir`: a relative
/// path (`.json` implied), or a package's config in a `node_modules` above it
/// (`@tsconfig/node18/tsconfig.json`, a bare package name meaning its `tsconfig.json`).
fn extended_path(root: &std::path::Path, dir: &str, ext: &str) -> Option<String> {
    let with_json = |p: String| if p.ends_with(".json") { p } else { format!("{p}.json") };
    if ext.starts_with("./") || ext.starts_with("../") {
        return normalize(&join_rel(dir, ext)).map(with_json);
    }
    let mut d = Some(dir);
    while let Some(cur) = d {
        let base = join_rel(cur, &format!("node_modules/{ext}"));
        for candidate in [with_json(base.clone()), format!("{base}/tsconfig.json")] {
            if root.join(&candidate).is_file() {
                return Some(candidate);
            }
        }
        d = if cur.is_empty() { None } else { Some(cur.rsplit_once('/').map_or("", |(p, _)| p)) };
    }
    None
}

/// tsconfig.json allows `//` and `/* */` comments and trailing commas.
fn strip_json_comments(s: &str) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let (mut i, mut in_str) = (0, false);
    while i < b.len() {
        let c = b[i];
        if in_str {
            out.push(c);
            if c == b'\\' && i + 1 < b.len() {
                out.push(b[i + 1]);
                i += 2;
                continue;
            }
            in_str = c != b'"';
            i += 1;
        } else if c == b'"' {
            in_str = true;
            out.push(b'"');
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i + 1 < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    // Trailing commas before } or ].
    let mut cleaned = String::with_capacity(out.len());
    let out = String::from_utf8_lossy(&out);
    let chars: Vec<char> = out.chars().collect();
    for (k, ch) in chars.iter().enumerate() {
        if *ch == ',' {
            let next = chars[k + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        cleaned.push(*ch);
    }
    cleaned
}
