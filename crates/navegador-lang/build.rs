//! Embeds the pack files (`languages/<id>/*.toml`, `*.scm`, `*.txt` lists) into the crate, so that
//! a pack is its folder: the registry reads them by path (`python/tags.scm`) and a manifest
//! may name a file of another pack (`../javascript/tags.scm`). Fixtures and hooks are not
//! embedded (hooks are Rust modules, see `src/packs.rs`).

use std::fmt::Write;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("languages");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    for pack in std::fs::read_dir(&root).expect("languages/ is readable") {
        let pack = pack.expect("languages/ is readable").path();
        if !pack.is_dir() {
            continue;
        }
        println!("cargo:rerun-if-changed={}", pack.display());
        for f in std::fs::read_dir(&pack).expect("a pack folder is readable") {
            let f = f.expect("a pack folder is readable").path();
            // (a pack's project.txt is the index crate's cross-file fixture, not pack data)
            let embedded = f.is_file()
                && f.extension().is_some_and(|e| e == "toml" || e == "scm" || e == "txt")
                && f.file_name().is_some_and(|n| n != "project.txt");
            if embedded {
                println!("cargo:rerun-if-changed={}", f.display());
                let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
                files.push((rel, f));
            }
        }
    }
    files.sort();
    let mut out = String::from("/// Every embedded pack file: (path under `languages/`, text).\npub(crate) static PACK_FILES: &[(&str, &str)] = &[\n");
    for (rel, abs) in &files {
        let _ = writeln!(out, "    ({rel:?}, include_str!({:?})),", abs.display().to_string());
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("pack_files.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
