//! The JavaScript/TypeScript module system: ES modules by relative path (extensions and
//! `index` files implied), `tsconfig.json`/`jsconfig.json` `baseUrl` and `paths` aliases,
//! default exports; anything else is a package from `node_modules`.

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
            return (bare && !self.config.aliased(&imp.module)).then_some(Target::External);
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
            // `paths` aliases and `baseUrl` of tsconfig.json; anything else is a package
            // from node_modules, outside the workspace.
            return self.config.candidates(spec).into_iter().find_map(|c| file_at(t, &c));
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

/// Module path aliases from `tsconfig.json` / `jsconfig.json` at the workspace root.
#[derive(Debug, Clone, Default)]
pub(crate) struct JsConfig {
    /// `baseUrl`, workspace-relative (`""` for the root).
    base: Option<String>,
    /// (`@lib/*`, [`src/lib/*`]) pairs, in file order.
    paths: Vec<(String, Vec<String>)>,
}

impl JsConfig {
    pub(crate) fn read(root: &std::path::Path) -> JsConfig {
        for name in ["tsconfig.json", "jsconfig.json"] {
            let Ok(text) = std::fs::read_to_string(root.join(name)) else { continue };
            let Ok(v) = serde_json::from_str::<serde_json::Value>(&strip_json_comments(&text)) else {
                tracing::warn!("{name}: not valid JSON; path aliases ignored");
                continue;
            };
            let opts = &v["compilerOptions"];
            let base = opts["baseUrl"].as_str().map(|b| normalize(b.trim_start_matches("./")).unwrap_or_default());
            let mut paths = Vec::new();
            if let Some(map) = opts["paths"].as_object() {
                for (k, targets) in map {
                    let ts = targets.as_array().into_iter().flatten().filter_map(|t| t.as_str().map(str::to_string)).collect();
                    paths.push((k.clone(), ts));
                }
            }
            return JsConfig { base, paths };
        }
        JsConfig::default()
    }

    pub(crate) fn fingerprint(&self) -> String {
        format!("{:?}", (&self.base, &self.paths))
    }

    /// Whether a `paths` pattern claims the specifier (it then names a workspace file,
    /// found or not).
    fn aliased(&self, spec: &str) -> bool {
        self.paths.iter().any(|(pattern, _)| match pattern.split_once('*') {
            Some((pre, post)) => spec.len() >= pre.len() + post.len() && spec.starts_with(pre) && spec.ends_with(post),
            None => spec == pattern,
        })
    }

    /// Workspace paths an import specifier may denote, most specific first.
    fn candidates(&self, spec: &str) -> Vec<String> {
        let base = self.base.clone().unwrap_or_default();
        let join = |p: &str| {
            let p = p.trim_start_matches("./");
            normalize(&if base.is_empty() { p.to_string() } else { format!("{base}/{p}") })
        };
        let mut out = Vec::new();
        for (pattern, targets) in &self.paths {
            let matched = match pattern.split_once('*') {
                Some((pre, post)) => spec
                    .strip_prefix(pre)
                    .and_then(|r| r.strip_suffix(post))
                    .map(|star| targets.iter().filter_map(|t| join(&t.replacen('*', star, 1))).collect::<Vec<_>>()),
                None => (spec == pattern).then(|| targets.iter().filter_map(|t| join(t)).collect()),
            };
            out.extend(matched.unwrap_or_default());
        }
        if self.base.is_some() {
            out.extend(join(spec));
        }
        out
    }
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
