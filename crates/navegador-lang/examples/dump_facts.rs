//! Renders the facts of every file of a tree whose language navegador reads, one
//! `=== path` block per file in path order: diff two builds' output over real corpora to
//! see what a change to a pack moves (`cargo run --release -p navegador-lang --example
//! dump_facts -- DIR > facts.txt`). Paths are relative to DIR, as an ingest of DIR sees them;
//! each file's language is what the registry detects (as the ingest does).

use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::args().nth(1).expect("usage: dump_facts DIR"));
    let mut files = Vec::new();
    collect(&root, &mut files);
    let mut rels: Vec<String> = files
        .iter()
        .filter_map(|p| Some(p.strip_prefix(&root).ok()?.to_string_lossy().replace('\\', "/")))
        .collect();
    rels.sort();
    let opts = navegador_lang::ExtractOptions::default();
    for rel in rels {
        let Ok(bytes) = std::fs::read(root.join(&rel)) else { continue };
        let Some(lang) = navegador_lang::registry().detect(&rel, &bytes) else { continue };
        // what the ingest skips: larger than 1 MiB
        if bytes.len() > 1 << 20 {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        let facts = navegador_lang::extract(&rel, &text, lang, &opts);
        println!("=== {rel}\n{}", navegador_lang::render_facts(&facts));
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() {
            collect(&e.path(), out);
        } else if t.is_file() {
            out.push(e.path());
        }
    }
}
