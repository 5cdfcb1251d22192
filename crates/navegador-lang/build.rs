//! Embeds the pack files (`languages/<id>/*.toml`, `*.scm`, `*.txt` lists) into the crate, so that
//! a pack is its folder: the registry reads them by path (`python/tags.scm`) and a manifest
//! may name a file of another pack (`../javascript/tags.scm`). Fixtures and hooks are not
//! embedded (hooks are Rust modules, see `src/packs.rs`).

use std::fmt::Write;
use std::path::Path;

//
// Paths are relative to the crate, not absolute: `rerun-if-changed` takes them relative to
// the package root, and the generated `include_str!`s name their file through the
// compiling crate's own `CARGO_MANIFEST_DIR`, so a `target/` copied into another checkout
// (a git worktree) builds that checkout's packs, not the ones it was copied from.
fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("languages");
    println!("cargo:rerun-if-changed=languages");
    let mut files = Vec::new();
    for pack in std::fs::read_dir(&root).expect("languages/ is readable") {
        let pack = pack.expect("languages/ is readable").path();
        if !pack.is_dir() {
            continue;
        }
        println!("cargo:rerun-if-changed=languages/{}", pack.file_name().unwrap().to_string_lossy());
        for f in std::fs::read_dir(&pack).expect("a pack folder is readable") {
            let f = f.expect("a pack folder is readable").path();
            // (a pack's project.txt is the index crate's cross-file fixture, not pack data)
            let embedded = f.is_file()
                && f.extension().is_some_and(|e| e == "toml" || e == "scm" || e == "txt")
                && f.file_name().is_some_and(|n| n != "project.txt");
            if embedded {
                let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
                println!("cargo:rerun-if-changed=languages/{rel}");
                files.push(rel);
            }
        }
    }
    files.sort();
    let mut out = String::from("/// Every embedded pack file: (path under `languages/`, text).\npub(crate) static PACK_FILES: &[(&str, &str)] = &[\n");
    for rel in &files {
        let _ = writeln!(out, "    ({rel:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/languages/\", {rel:?}))),");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("pack_files.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
