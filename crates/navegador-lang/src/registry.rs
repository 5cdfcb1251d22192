//! The registry: every language navegador reads, built once from the packs
//! (`languages/<id>/`: a manifest, queries, hooks), and the one place that turns a file
//! into its language — by extension, by content when several packs claim an extension,
//! by `#!` line for an extensionless script.
//!
//! Everything that knows languages asks here (extraction, resolution, the walk, the
//! `code.*` tools' enums and filters, search): no other table of language names exists.

use std::sync::OnceLock;

use navegador_model::Language;

use crate::manifest::{self, PackSpec};
use crate::packs::{PackDef, PACKS};

include!(concat!(env!("OUT_DIR"), "/pack_files.rs"));

/// A pack that cannot be used: its manifest or a query is malformed. Names the file (under
/// `languages/`) and the 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("languages/{file}:{line}: {message}")]
pub struct PackError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

/// A language's pack, as the extractor uses it.
pub struct Pack {
    pub language: Language,
    pub(crate) spec: PackSpec,
    pub(crate) def: &'static PackDef,
    /// The tags and locals query sources, in order: (file, text).
    pub(crate) query_files: Vec<(String, &'static str)>,
    pub(crate) compiled: OnceLock<Result<crate::extract::Compiled, PackError>>,
}

/// Every language, in registration order (`src/packs.rs`).
pub struct Registry {
    packs: Vec<Pack>,
    languages: Vec<Language>,
}

/// The registry of the packs compiled in. A malformed pack is a build defect that the
/// test over every pack catches; here it panics with the file and line.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| Registry::load(PACKS, PACK_FILES).unwrap_or_else(|e| panic!("a language pack is malformed: {e}")))
}

impl Registry {
    /// Builds a registry from pack definitions and the files they name (`<id>/language.toml`,
    /// queries), checking every manifest. Queries are compiled on first use or by
    /// [`Registry::check`].
    pub(crate) fn load(defs: &'static [PackDef], files: &'static [(&'static str, &'static str)]) -> Result<Registry, PackError> {
        let mut packs = Vec::with_capacity(defs.len());
        for def in defs {
            let path = format!("{}/language.toml", def.id);
            let text = file(files, &path).ok_or_else(|| PackError { file: path.clone(), line: 1, message: "missing".into() })?;
            let (mut info, spec) = manifest::parse(def.id, &path, text)?;
            for list in &spec.builtins_files {
                let name = normalize(def.id, list);
                let Some(names) = file(files, &name) else {
                    let line = manifest::line_of_value(text, list);
                    return Err(PackError { file: path, line, message: format!("builtins file `{list}` is not in the pack") });
                };
                // one name per line; `#` starts a comment
                info.builtins.extend(names.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()).map(str::to_string));
            }
            for rules in &spec.clients_files {
                let name = normalize(def.id, rules);
                let Some(body) = file(files, &name) else {
                    let line = manifest::line_of_value(text, rules);
                    return Err(PackError { file: path, line, message: format!("clients file `{rules}` is not in the pack") });
                };
                info.clients.extend(manifest::parse_clients(&name, body)?);
            }
            // sorted, for `is_builtin`'s binary search
            info.builtins.sort_unstable();
            info.builtins.dedup();
            let mut query_files = Vec::new();
            for q in spec.tags.iter().chain(&spec.locals) {
                let name = normalize(def.id, q);
                let Some(text) = file(files, &name) else {
                    let line = manifest::line_of_value(text, q);
                    return Err(PackError { file: path, line, message: format!("query file `{q}` is not in the pack") });
                };
                query_files.push((name, text));
            }
            if packs.iter().any(|p: &Pack| p.language.id() == def.id) {
                return Err(PackError { file: path, line: 1, message: format!("two packs are named `{}`", def.id) });
            }
            let language = Language::new(Box::leak(Box::new(info)));
            packs.push(Pack { language, spec, def, query_files, compiled: OnceLock::new() });
        }
        // every pack claims files: by extension, `#!` line, or another pack's pragma
        for p in &packs {
            let path = format!("{}/language.toml", p.def.id);
            for (pragma, id) in &p.spec.pragmas {
                if !packs.iter().any(|q| q.def.id == id && q.def.id != p.def.id) {
                    let line = manifest::line_of_value(file(files, &path).unwrap_or(""), id);
                    return Err(PackError { file: path, line, message: format!("pragma `{pragma}` names no other pack (`{id}`)") });
                }
            }
            let info = p.language.info();
            let by_pragma = packs.iter().any(|q| q.spec.pragmas.iter().any(|(_, id)| id == p.def.id));
            if info.extensions.is_empty() && info.shebangs.is_empty() && !by_pragma {
                return Err(PackError { file: path, line: 1, message: "claims no file: give `extensions` or `shebangs`, or name it in another pack's `pragmas`".into() });
            }
        }
        // an `[embed]` names packs that are registered and read code (no host in a host)
        for p in &packs {
            let Some(e) = &p.spec.embed else { continue };
            let path = format!("{}/language.toml", p.def.id);
            for id in std::iter::once(&e.default).chain(e.map.iter().map(|(_, id)| id)) {
                if !packs.iter().any(|q| q.def.id == id && q.spec.embed.is_none()) {
                    let line = manifest::line_of_value(file(files, &path).unwrap_or(""), id);
                    return Err(PackError { file: path, line, message: format!("[embed] names `{id}`, which is no registered pack of code") });
                }
            }
        }
        // a framework is implied by at most one pack
        for (i, p) in packs.iter().enumerate() {
            for f in &p.language.info().implied_by {
                if let Some(q) = packs[..i].iter().find(|q| q.language.info().implied_by.contains(f)) {
                    let path = format!("{}/language.toml", p.def.id);
                    let line = file(files, &path).map_or(1, |t| manifest::line_of_value(t, f));
                    return Err(PackError { file: path, line, message: format!("`{f}` is already implied by the {} pack", q.def.id) });
                }
            }
        }
        let languages = packs.iter().map(|p| p.language).collect();
        Ok(Registry { packs, languages })
    }

    /// Compiles every pack's queries: the first malformed one, by file and line.
    pub fn check(&self) -> Result<(), PackError> {
        for p in &self.packs {
            p.compiled()?;
        }
        Ok(())
    }

    /// Every language, in registration order.
    pub fn languages(&self) -> &[Language] {
        &self.languages
    }

    /// The graph's and the tools' language names (`File.language`), each once, in
    /// registration order (`tsx` is `typescript`).
    pub fn names(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for l in &self.languages {
            if !out.contains(&l.as_str()) {
                out.push(l.as_str());
            }
        }
        out
    }

    /// Every web framework a pack declares (the tools' `framework` enum, in registration
    /// order) with the language name a request naming it and no language means: the pack
    /// that says `implied_by`, else the first declaring it.
    pub fn frameworks(&self) -> Vec<(&'static str, &'static str)> {
        let mut out: Vec<(&'static str, &'static str)> = Vec::new();
        for l in &self.languages {
            for f in &l.info().frameworks {
                if !out.iter().any(|(n, _)| n == f) {
                    let implied = self.languages.iter().find(|m| m.info().implied_by.contains(f)).unwrap_or(l);
                    out.push((f.as_str(), implied.as_str()));
                }
            }
        }
        out
    }

    /// The pack of this id (`python`, `tsx`).
    pub fn by_id(&self, id: &str) -> Option<Language> {
        self.languages.iter().copied().find(|l| l.id() == id)
    }

    /// The language a stored name means ([`Language::as_str`]): the first pack of that
    /// name (`typescript` reads back as the TypeScript pack, whose family TSX shares).
    pub fn by_name(&self, name: &str) -> Option<Language> {
        self.languages.iter().copied().find(|l| l.as_str() == name)
    }

    /// The extensions (without the dot) of a graph language name, every pack of it
    /// (`typescript`: ts, mts, cts, tsx).
    pub fn extensions_of(&self, name: &str) -> Vec<&'static str> {
        self.languages
            .iter()
            .filter(|l| l.as_str() == name)
            .flat_map(|l| l.info().extensions.iter().map(String::as_str))
            .collect()
    }

    /// The languages that claim a file name's extension (exactly as written), in
    /// registration order.
    pub fn claimants(&self, path: &str) -> Vec<Language> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let Some((_, ext)) = name.rsplit_once('.') else { return Vec::new() };
        self.languages.iter().copied().filter(|l| l.info().extensions.iter().any(|e| e == ext)).collect()
    }

    /// The graph's and the tools' language name of a path, by its extension in any case
    /// (`App.TSX` is `typescript`); what the `code.*` tools and search report.
    pub fn name_of_path(&self, path: &str) -> Option<&'static str> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let (_, ext) = name.rsplit_once('.')?;
        let ext = ext.to_ascii_lowercase();
        self.languages.iter().find(|l| l.info().extensions.iter().any(|e| *e == ext)).map(|l| l.as_str())
    }

    /// The language of a path by its extension alone: the first pack claiming it. What the
    /// walk uses before a file is read; [`Registry::detect`] decides with the content.
    pub fn for_path(&self, path: &str) -> Option<Language> {
        self.claimants(path).into_iter().next()
    }

    /// The language of a file from its path and the start of its content:
    /// - an extension one pack claims: that pack;
    /// - an extension several claim (`.h`): the claimant with the most of its `markers`
    ///   in the code (not comments; a marker starting with a letter starts a word) of the
    ///   first 16 KiB, the first registered one on a tie (none found: C for `.h`);
    /// - no extension: the interpreter of a `#!` line (`#!/usr/bin/env python3`), matched
    ///   against the packs' `shebangs`.
    ///
    /// Then the chosen pack's `pragmas`: a pragma in the file's leading comments (`@flow`)
    /// hands it to the pack it names.
    pub fn detect(&self, path: &str, head: &[u8]) -> Option<Language> {
        let lang = self.detect_pack(path, head)?;
        let pragmas = &self.pack(lang).spec.pragmas;
        if pragmas.is_empty() {
            return Some(lang);
        }
        let comments = leading_comments(head);
        Some(pragmas.iter().find(|(p, _)| has_pragma(comments, p)).and_then(|(_, id)| self.by_id(id)).unwrap_or(lang))
    }

    fn detect_pack(&self, path: &str, head: &[u8]) -> Option<Language> {
        let claim = self.claimants(path);
        match claim.len() {
            0 => {
                let name = path.rsplit('/').next().unwrap_or(path);
                if name.contains('.') {
                    return None;
                }
                let interpreter = shebang(head)?;
                self.languages.iter().copied().find(|l| l.info().shebangs.iter().any(|s| *s == interpreter))
            }
            1 => Some(claim[0]),
            _ => {
                // (markers in code only, each a word of its own: not `/* class of ring */`,
                // not `ww_class != x`)
                let head = &head[..head.len().min(16 * 1024)];
                let (_, comment) = crate::preprocess::code_mask(head);
                let code: Vec<u8> = head.iter().zip(&comment).map(|(&c, &m)| if m { b' ' } else { c }).collect();
                let text = String::from_utf8_lossy(&code);
                let score = |l: &Language| {
                    l.info()
                        .markers
                        .iter()
                        .map(|m| text.match_indices(m.as_str()).filter(|&(at, _)| !m.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') || at == 0 || !crate::preprocess::is_word(text.as_bytes()[at - 1])).count())
                        .sum::<usize>()
                };
                let best = claim.iter().map(score).max().unwrap_or(0);
                claim.into_iter().find(|l| score(l) == best)
            }
        }
    }

    /// The pack of a language of this registry.
    pub(crate) fn pack(&self, lang: Language) -> &Pack {
        self.packs
            .iter()
            .find(|p| p.language == lang)
            .unwrap_or_else(|| panic!("{lang:?} is not a language of the registry"))
    }
}

/// The interpreter a `#!` line runs: `#!/usr/bin/python3` and `#!/usr/bin/env -S python3 -u`
/// give `python3`.
fn shebang(head: &[u8]) -> Option<String> {
    let line = head.strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&c| c == b'\n').unwrap_or(line.len())];
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    let mut prog = words.next()?.rsplit('/').next()?;
    if prog == "env" {
        prog = words.find(|w| !w.starts_with('-'))?;
    }
    Some(prog.to_string())
}

/// The comments a file starts with (after a `#!` line): `//` lines and `/* */` blocks.
fn leading_comments(head: &[u8]) -> &[u8] {
    let mut i = 0;
    if head.starts_with(b"#!") {
        i = head.iter().position(|&c| c == b'\n').unwrap_or(head.len());
    }
    loop {
        while i < head.len() && head[i].is_ascii_whitespace() {
            i += 1;
        }
        if head[i..].starts_with(b"//") {
            i += head[i..].iter().position(|&c| c == b'\n').unwrap_or(head.len() - i);
        } else if head[i..].starts_with(b"/*") {
            match head[i + 2..].windows(2).position(|w| w == b"*/") {
                Some(p) => i += 2 + p + 2,
                None => return head,
            }
        } else {
            return &head[..i];
        }
    }
}

/// `pragma` as a word of `text` (`@flow` in `@flow strict`, not in `@flowtype`).
fn has_pragma(text: &[u8], pragma: &str) -> bool {
    let p = pragma.as_bytes();
    text.windows(p.len()).enumerate().any(|(at, w)| {
        w == p && !text.get(at + p.len()).is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
    })
}

fn file(files: &'static [(&'static str, &'static str)], path: &str) -> Option<&'static str> {
    files.iter().find(|(p, _)| *p == path).map(|(_, t)| *t)
}

/// `../javascript/tags.scm` seen from pack `typescript` -> `javascript/tags.scm`.
fn normalize(pack: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = vec![pack];
    for c in rel.split('/') {
        match c {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            c => parts.push(c),
        }
    }
    parts.join("/")
}

impl Pack {
    /// The pack's queries, compiled once.
    pub(crate) fn compiled(&self) -> Result<&crate::extract::Compiled, PackError> {
        self.compiled.get_or_init(|| crate::extract::Compiled::new(self)).as_ref().map_err(Clone::clone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::Hooks;

    fn c() -> tree_sitter::Language {
        tree_sitter_c::LANGUAGE.into()
    }

    /// A registry of test packs: (id, files under `languages/` as (path, text)).
    fn load(ids: &[&'static str], files: Vec<(&'static str, &'static str)>) -> Result<Registry, PackError> {
        let defs: Vec<PackDef> = ids.iter().map(|id| PackDef { id, grammar: c, hooks: &Hooks::NONE }).collect();
        Registry::load(Box::leak(defs.into_boxed_slice()), Box::leak(files.into_boxed_slice()))
    }

    const TAGS: &str = "(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function\n";

    #[test]
    fn a_malformed_pack_names_its_file_and_line() {
        let cases: &[(&str, Vec<(&str, &str)>, &str)] = &[
            (
                "a bad node type in the second query file",
                vec![
                    ("x/language.toml", "family = \"c\"\nextensions = [\"x\"]\ntags = [\"tags.scm\", \"more.scm\"]\n"),
                    ("x/tags.scm", TAGS),
                    ("x/more.scm", "; comment\n\n(no_such_node) @reference.call\n"),
                ],
                "languages/x/more.scm:3: ",
            ),
            (
                "an unknown manifest key",
                vec![("x/language.toml", "family = \"c\"\nextensions = [\"x\"]\nexports = \"all\"\ntags = [\"tags.scm\"]\n"), ("x/tags.scm", TAGS)],
                "languages/x/language.toml:3: unknown key `exports`",
            ),
            (
                "an unknown export rule",
                vec![("x/language.toml", "family = \"c\"\nextensions = [\"x\"]\n\nexport = \"all\"\ntags = [\"tags.scm\"]\n"), ("x/tags.scm", TAGS)],
                "languages/x/language.toml:4: unknown export rule `all`",
            ),
            (
                "TOML that does not parse",
                vec![("x/language.toml", "family = \"c\"\nextensions = [\"x\"\n"), ("x/tags.scm", TAGS)],
                "languages/x/language.toml:",
            ),
            (
                "a query file the pack does not have",
                vec![("x/language.toml", "family = \"c\"\nextensions = [\"x\"]\n\ntags = [\"tag.scm\"]\n")],
                "languages/x/language.toml:4: query file `tag.scm` is not in the pack",
            ),
            (
                "a value of the wrong type",
                vec![("x/language.toml", "family = \"c\"\nextensions = \"x\"\ntags = [\"tags.scm\"]\n"), ("x/tags.scm", TAGS)],
                "languages/x/language.toml:2: `extensions` must be a list of strings",
            ),
            (
                "an [embed] naming no registered pack",
                vec![("x/language.toml", "family = \"c\"\nextensions = [\"x\"]\ntags = [\"tags.scm\"]\n[embed]\ndefault = \"cobol\"\n"), ("x/tags.scm", TAGS)],
                "languages/x/language.toml:5: [embed] names `cobol`, which is no registered pack of code",
            ),
            (
                "an [embed] without its default pack",
                vec![("x/language.toml", "family = \"c\"\nextensions = [\"x\"]\ntags = [\"tags.scm\"]\n[embed]\nmap = { h = \"x\" }\n"), ("x/tags.scm", TAGS)],
                "languages/x/language.toml:4: [embed] needs a `default` pack",
            ),
            (
                "an unknown module rule",
                vec![("x/language.toml", "family = \"c\"\nextensions = [\"x\"]\ntags = [\"tags.scm\"]\n[module]\nrule = \"guess\"\n"), ("x/tags.scm", TAGS)],
                "languages/x/language.toml:5: unknown module rule `guess`",
            ),
            (
                "implied by a framework the pack does not run",
                vec![("x/language.toml", "family = \"c\"\nextensions = [\"x\"]\ntags = [\"tags.scm\"]\nframeworks = [\"a\"]\nimplied_by = [\"b\"]\n"), ("x/tags.scm", TAGS)],
                "languages/x/language.toml:5: `implied_by` names `b`, which `frameworks` does not list",
            ),
        ];
        for (what, files, want) in cases {
            let got = load(&["x"], files.clone()).and_then(|r| r.check()).expect_err(what).to_string();
            assert!(got.starts_with(want), "{what}: {got}");
        }
    }

    #[test]
    fn builtins_inline_or_in_a_list_file() {
        let r = load(
            &["a", "b", "c"],
            vec![
                ("a/language.toml", "family = \"c\"\nextensions = [\"a\"]\nbuiltins = [\"print\", \"len\"]\ntags = [\"t.scm\"]\n"),
                ("c/language.toml", "family = \"c\"\nextensions = [\"c\"]\nbuiltins = [\"../b/builtins.txt\", \"len\", \"builtins.txt\"]\ntags = [\"../a/t.scm\"]\n"),
                ("c/builtins.txt", "string\nconsole\n"),
                ("a/t.scm", TAGS),
                ("b/language.toml", "family = \"c\"\nextensions = [\"b\"]\nbuiltins = \"builtins.txt\"\ntags = [\"../a/t.scm\"]\n"),
                ("b/builtins.txt", "# the globals\nconsole\n\nObject  # constructors too\n"),
            ],
        )
        .unwrap();
        assert_eq!(r.by_id("a").unwrap().info().builtins, ["len", "print"]);
        assert_eq!(r.by_id("b").unwrap().info().builtins, ["Object", "console"]);
        // names and list files (another pack's too), merged, sorted, once each
        assert_eq!(r.by_id("c").unwrap().info().builtins, ["Object", "console", "len", "string"]);
    }

    #[test]
    fn frameworks_are_declared_by_packs() {
        let pack = |ext: &str, fw: &str, implied: &str| {
            format!("family = \"c\"\nextensions = [\"{ext}\"]\ntags = [\"../a/t.scm\"]\nframeworks = [{fw}]\nimplied_by = [{implied}]\n")
        };
        let (a, b) = (pack("a", "\"web\", \"orm\"", ""), pack("b", "\"rpc\", \"web\"", "\"web\""));
        let files = vec![("a/language.toml", &*a.leak()), ("b/language.toml", &*b.leak()), ("a/t.scm", TAGS)];
        let r = load(&["a", "b"], files.clone()).unwrap();
        // in registration order, each once; `web` runs on both, and b is the one it implies
        assert_eq!(r.frameworks(), [("web", "b"), ("orm", "a"), ("rpc", "b")]);
        let twice = pack("c", "\"web\"", "\"web\"");
        let mut files = files;
        files.push(("c/language.toml", twice.leak()));
        let err = load(&["a", "b", "c"], files).map(|_| ()).unwrap_err().to_string();
        assert_eq!(err, "languages/c/language.toml:4: `web` is already implied by the b pack");
    }

    #[test]
    fn extensions_several_packs_claim_are_decided_by_content() {
        let r = load(
            &["c", "cpp", "objc"],
            vec![
                ("c/language.toml", "family = \"c\"\nextensions = [\"c\", \"h\"]\ntags = [\"t.scm\"]\n"),
                ("c/t.scm", TAGS),
                ("cpp/language.toml", "family = \"c\"\nextensions = [\"cpp\", \"h\"]\nmarkers = [\"class \", \"namespace \", \"template<\", \"std::\"]\ntags = [\"../c/t.scm\"]\n"),
                ("objc/language.toml", "family = \"c\"\nextensions = [\"m\", \"h\"]\nmarkers = [\"@interface\", \"@end\", \"#import\"]\ntags = [\"../c/t.scm\"]\n"),
            ],
        )
        .unwrap();
        let cases = [
            ("a.h", "int f(void);\n", "c"),
            ("a.h", "namespace x { class A {}; }\n", "cpp"),
            ("a.h", "#import <Foundation/Foundation.h>\n@interface A\n@end\n", "objc"),
            ("a.cpp", "int f(void);\n", "cpp"),
            ("a.c", "class A {};", "c"),
            // markers in comments or inside a word are not counted
            ("a.h", "/* the class of a device */
int ww_class (void);
// namespace x
", "c"),
            ("a.h", "/* a class */
class A {};
", "cpp"),
        ];
        for (path, text, want) in cases {
            assert_eq!(r.detect(path, text.as_bytes()).map(|l| l.id()), Some(want), "{path}: {text}");
        }
        assert_eq!(r.for_path("x/a.h").map(|l| l.id()), Some("c"), "before reading, the first claimant");
        assert_eq!(r.claimants("a.h").len(), 3);
    }

    #[test]
    fn the_compiled_in_packs() {
        let r = registry();
        let id = |p: &str, head: &str| r.detect(p, head.as_bytes()).map(|l| l.id());
        let cases = [
            ("a/b.py", "", Some("python")),
            ("x.tsx", "", Some("tsx")),
            ("x.mjs", "", Some("javascript")),
            ("include/x.h", "", Some("c")),
            ("app/src/main/kotlin/Main.kt", "", Some("kotlin")),
            ("build.gradle.kts", "", Some("kotlin")),
            ("bin/tool", "#!/usr/bin/env kotlin\nprintln(1)\n", Some("kotlin")),
            ("Sources/App/Thing+Render.swift", "", Some("swift")),
            ("include/x.h", "int f(void);\n", Some("c")),
            ("include/x.h", "namespace a {\nclass B;\n}\n", Some("cpp")),
            ("include/x.h", "#ifdef __cplusplus\nextern \"C\" {\n#endif\n", Some("c")),
            ("src/x.cc", "", Some("cpp")),
            ("Shop/Cart.m", "", Some("objc")),
            ("Shop/Cart.h", "#import <Foundation/Foundation.h>\n@interface Cart : NSObject\n@end\n", Some("objc")),
            ("Shop/cart.h", "#include <stdint.h>\nint cart_total(void);\n", Some("c")),
            ("src/X.cs", "", Some("csharp")),
            ("src/lib/Button.svelte", "", Some("svelte")),
            ("src/components/TodoItem.vue", "", Some("vue")),
            ("bin/tool", "#!/usr/bin/env python3\nprint(1)\n", Some("python")),
            ("bin/tool", "#!/usr/bin/env -S node --harmony\n", Some("javascript")),
            ("bin/tool", "#!/bin/sh\n", Some("bash")),
            ("scripts/release", "#!/usr/bin/env bash\nset -e\n", Some("bash")),
            ("bin/tool", "#!/usr/bin/env perl6\n", None),
            ("Makefile", "all:\n", None),
            ("README.md", "", None),
            ("notes.txt", "#!/usr/bin/python\n", None),
        ];
        for (p, head, want) in cases {
            assert_eq!(id(p, head), want, "{p}");
        }
        assert_eq!(r.names(), ["typescript", "javascript", "java", "python", "go", "rust", "c", "kotlin", "swift", "cpp", "csharp", "php", "ruby", "bash", "lua", "erlang", "ocaml", "scala", "zig", "elixir", "objc", "graphql", "dart", "julia", "r", "proto", "haskell", "svelte", "vue", "perl"]);
        assert_eq!(r.extensions_of("typescript"), ["ts", "mts", "cts", "tsx"]);
        assert_eq!(r.by_name("typescript").map(|l| l.id()), Some("typescript"));
        assert_eq!(r.by_name("tsx"), None, "a pack id is not a graph name");
        assert_eq!(r.by_name("cobol"), None);
        let implied = |f: &str| r.frameworks().into_iter().find(|(n, _)| *n == f).map(|(_, l)| l);
        assert_eq!(implied("express"), Some("javascript"));
        assert_eq!(implied("nestjs"), Some("typescript"));
        assert_eq!(implied("spring"), Some("java"));
    }
}
