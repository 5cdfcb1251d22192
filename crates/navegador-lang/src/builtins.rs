//! Each language's builtins: the names its programs call without defining or importing
//! them (`languages/<lang>/builtins.txt`, one name per line, `#` comments). Resolution
//! calls a site bound to one of them `external` instead of `unresolved`, and never guesses
//! a same-named workspace definition for it.

use std::sync::OnceLock;

use navegador_model::Language;

/// The builtins list of each language folder.
const LISTS: &[(&str, &str)] = &[
    ("python", include_str!("../languages/python/builtins.txt")),
    ("javascript", include_str!("../languages/javascript/builtins.txt")),
    ("typescript", include_str!("../languages/typescript/builtins.txt")),
    ("java", include_str!("../languages/java/builtins.txt")),
    ("go", include_str!("../languages/go/builtins.txt")),
    ("rust", include_str!("../languages/rust/builtins.txt")),
    ("c", include_str!("../languages/c/builtins.txt")),
];

/// The folders whose builtins a language reads: TypeScript runs where JavaScript runs and
/// adds its own types. (Until the manifests name their builtins.)
fn folders(lang: Language) -> Vec<&'static str> {
    match lang.id() {
        "typescript" | "tsx" => vec!["javascript", "typescript"],
        id => LISTS.iter().filter(|(n, _)| *n == id).map(|(n, _)| *n).collect(),
    }
}

/// A language's builtins, sorted.
pub fn builtins(lang: Language) -> &'static [&'static str] {
    static PARSED: OnceLock<Vec<(Language, Vec<&'static str>)>> = OnceLock::new();
    let parsed = PARSED.get_or_init(|| {
        crate::registry()
            .languages()
            .iter()
            .map(|&l| {
                let mut v: Vec<&str> = folders(l).iter().flat_map(|f| names(list(f))).collect();
                v.sort_unstable();
                v.dedup();
                (l, v)
            })
            .collect()
    });
    parsed.iter().find(|(l, _)| *l == lang).map_or(&[], |(_, v)| v)
}

/// Whether `name` is one of a language's builtins.
pub fn is_builtin(lang: Language, name: &str) -> bool {
    builtins(lang).binary_search(&name).is_ok()
}

fn list(folder: &str) -> &'static str {
    LISTS.iter().find(|(n, _)| *n == folder).map_or("", |(_, text)| text)
}

fn names(text: &'static str) -> impl Iterator<Item = &'static str> {
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every folder's list holds plain identifiers, one per line, without repeats; every
    /// language reads at least one list.
    #[test]
    fn every_language_has_well_formed_builtins() {
        for (folder, text) in LISTS {
            let listed: Vec<&str> = names(text).collect();
            assert!(!listed.is_empty(), "{folder}: empty builtins");
            for n in &listed {
                assert!(n.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$'), "{folder}: {n:?} is not one name");
            }
            let mut unique = listed.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), listed.len(), "{folder}: a name is listed twice");
        }
        let by = |id| crate::registry().by_id(id).unwrap();
        for &lang in crate::registry().languages() {
            assert!(!builtins(lang).is_empty(), "{lang}: no builtins");
            assert!(builtins(lang).windows(2).all(|w| w[0] < w[1]), "{lang}: not sorted");
        }
        assert!(is_builtin(by("python"), "isinstance") && is_builtin(by("tsx"), "console"));
        assert!(is_builtin(by("typescript"), "string") && !is_builtin(by("javascript"), "string"));
        assert!(is_builtin(by("go"), "append") && is_builtin(by("c"), "printf") && is_builtin(by("java"), "String"));
        assert!(!is_builtin(by("python"), "console") && !is_builtin(by("rust"), "println"));
    }
}
