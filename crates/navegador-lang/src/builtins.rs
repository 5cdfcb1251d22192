//! Each language's builtins: the names its programs use without defining or importing
//! them, from the manifest's `builtins` (inline names and list files such as
//! `languages/<lang>/builtins.txt`, one name a line, `#` comments), served by the registry
//! as `LanguageInfo::builtins`. Resolution calls a site bound to one of them `external`
//! instead of `unresolved`, and never guesses a same-named workspace definition for it.

use navegador_model::Language;

/// A language's builtins, sorted.
pub fn builtins(lang: Language) -> &'static [String] {
    &lang.info().builtins
}

/// Whether `name` is one of a language's builtins.
pub fn is_builtin(lang: Language, name: &str) -> bool {
    builtins(lang).binary_search_by(|b| b.as_str().cmp(name)).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every language has builtins, each one plain identifier, sorted and once; a language
    /// reads the lists its manifest names (TypeScript: JavaScript's and its own).
    #[test]
    fn every_language_has_well_formed_builtins() {
        let by = |id| crate::registry().by_id(id).unwrap();
        for &lang in crate::registry().languages() {
            let names = builtins(lang);
            assert!(!names.is_empty(), "{lang:?}: no builtins");
            for n in names {
                // (Ruby's method names may end in `?` or `!`: `block_given?`, `exit!`)
                let stem = n.strip_suffix(['?', '!']).unwrap_or(n);
                assert!(!stem.is_empty() && stem.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$'), "{lang:?}: {n:?} is not one name");
            }
            assert!(names.windows(2).all(|w| w[0] < w[1]), "{lang:?}: not sorted or repeated");
        }
        assert!(is_builtin(by("python"), "isinstance") && is_builtin(by("tsx"), "console"));
        assert!(is_builtin(by("typescript"), "string") && !is_builtin(by("javascript"), "string"));
        assert!(is_builtin(by("go"), "append") && is_builtin(by("c"), "printf") && is_builtin(by("java"), "String"));
        assert!(!is_builtin(by("python"), "console") && !is_builtin(by("rust"), "println"));
    }
}
