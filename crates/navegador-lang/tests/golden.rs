//! Golden tests: every file under `tests/fixtures/<lang>/` is extracted and its rendered
//! facts compared with the `.facts` file beside it. `UPDATE_GOLDEN=1 cargo test` rewrites
//! the golden files; review the diff.

use std::path::Path;

use navegador_lang::{extract, render_facts, ExtractOptions};
use navegador_model::Language;

#[test]
fn fixtures_match_golden_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let rel = p.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            let Some(lang) = Language::from_path(&rel) else { continue };
            let src = std::fs::read_to_string(&p).unwrap();
            // Paths inside the fixture tree start after the language folder.
            let path = rel.split_once('/').map_or(rel.as_str(), |(_, r)| r);
            let got = render_facts(&extract(path, &src, lang, &ExtractOptions::default()));
            let golden = p.with_extension(format!("{}.facts", p.extension().unwrap().to_string_lossy()));
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
    assert!(checked > 0, "no fixtures found under {}", root.display());
    assert!(failures.is_empty(), "golden mismatch (UPDATE_GOLDEN=1 to accept):\n{}", failures.join("\n"));
}
