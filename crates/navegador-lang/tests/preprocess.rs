//! The `[preprocess]` rules of the C-family packs on real-shaped source: each file under
//! `tests/preprocess/` is rewritten as its pack does before parsing and compared with the
//! `.prepared` file beside it (`UPDATE_GOLDEN=1 cargo test` rewrites them; review the
//! diff); the rewrite keeps every byte offset, and the grammar reads the result without a
//! syntax error. The facts extracted from each file are the `.facts` file beside it: the
//! definitions and calls inside the rewritten shapes, at their lines.

use std::path::Path;

use navegador_lang::{extract, parse, prepared, registry, render_facts, ExtractOptions};

#[test]
fn macros_are_blanked_in_place_and_the_file_parses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/preprocess");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut checked = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|e| e == "prepared" || e == "facts") {
            continue;
        }
        let src = std::fs::read_to_string(&p).unwrap();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let lang = registry().detect(&name, src.as_bytes()).unwrap_or_else(|| panic!("{name}: no pack reads it"));
        let got = prepared(lang, &src).unwrap_or_else(|| src.clone());
        assert_eq!(got.len(), src.len(), "{name}: the rewrite changed the length");
        assert_eq!(got.lines().count(), src.lines().count(), "{name}: the rewrite moved lines");
        let want_path = p.with_file_name(format!("{name}.prepared"));
        if update {
            std::fs::write(&want_path, &got).unwrap();
        } else {
            let want = std::fs::read_to_string(&want_path).unwrap_or_else(|_| panic!("{}: missing (UPDATE_GOLDEN=1)", want_path.display()));
            assert_eq!(got, want, "{name}: the prepared text differs from {}", want_path.display());
        }
        let facts = render_facts(&extract(&name, &src, lang, &ExtractOptions::default()));
        let facts_path = p.with_file_name(format!("{name}.facts"));
        if update {
            std::fs::write(&facts_path, &facts).unwrap();
        } else {
            let want = std::fs::read_to_string(&facts_path).unwrap_or_else(|_| panic!("{}: missing (UPDATE_GOLDEN=1)", facts_path.display()));
            assert_eq!(facts, want, "{name}: the facts differ from {}", facts_path.display());
        }
        let tree = parse(lang, &src).unwrap();
        assert!(!tree.root_node().has_error(), "{name}: a syntax error after the rewrite");
        checked += 1;
    }
    assert!(checked > 0, "no file under {}", dir.display());
}
