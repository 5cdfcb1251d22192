//! Golden tests of the packs: every file under `languages/<id>/fixtures/` is extracted
//! with the language the registry gives its path and its rendered facts compared with the
//! `.facts` file beside it. `UPDATE_GOLDEN=1 cargo test` rewrites the golden files; review
//! the diff. Also: every pack of the registry loads and its queries compile.

use std::path::{Path, PathBuf};

use navegador_lang::{extract, registry, render_facts, ExtractOptions};

fn fixture_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            fixture_files(&p, out);
        } else if p.extension().is_none_or(|e| e != "facts") {
            out.push(p);
        }
    }
}

#[test]
fn fixtures_match_golden_files() {
    let packs = Path::new(env!("CARGO_MANIFEST_DIR")).join("languages");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    let mut checked = 0;
    for pack in std::fs::read_dir(&packs).unwrap() {
        let root = pack.unwrap().path().join("fixtures");
        if !root.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        fixture_files(&root, &mut files);
        for p in files {
            // Paths inside the fixture tree start after `fixtures/`.
            let path = p.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            let src = std::fs::read_to_string(&p).unwrap();
            let lang = registry()
                .detect(&path, src.as_bytes())
                .unwrap_or_else(|| panic!("{}: no pack reads this fixture", p.display()));
            let got = render_facts(&extract(&path, &src, lang, &ExtractOptions::default()));
            let golden = p.with_extension(format!("{}.facts", p.extension().map_or(String::new(), |e| e.to_string_lossy().into_owned())));
            checked += 1;
            if update {
                std::fs::write(&golden, &got).unwrap();
                continue;
            }
            let want = std::fs::read_to_string(&golden).unwrap_or_default();
            if want != got {
                failures.push(format!("--- {}\n{}\n+++ got\n{}", golden.display(), want, got));
            }
        }
    }
    assert!(checked > 0, "no fixtures found under {}", packs.display());
    assert!(failures.is_empty(), "golden mismatch (UPDATE_GOLDEN=1 to accept):\n{}", failures.join("\n"));
}

#[test]
fn every_pack_loads_and_its_queries_compile() {
    let r = registry();
    if let Err(e) = r.check() {
        panic!("{e}");
    }
    // Every pack folder is registered, and every registered pack has fixtures.
    let packs = Path::new(env!("CARGO_MANIFEST_DIR")).join("languages");
    for e in std::fs::read_dir(&packs).unwrap() {
        let p = e.unwrap().path();
        if !p.is_dir() {
            continue;
        }
        let id = p.file_name().unwrap().to_string_lossy().into_owned();
        assert!(r.by_id(&id).is_some(), "languages/{id}/ is not registered in src/packs.rs");
    }
    for l in r.languages() {
        let has_fixtures = packs.join(l.id()).join("fixtures").is_dir();
        let shares = r.languages().iter().any(|o| o != l && o.as_str() == l.as_str() && packs.join(o.id()).join("fixtures").is_dir());
        assert!(has_fixtures || shares, "languages/{}/ has no fixtures", l.id());
    }
}
