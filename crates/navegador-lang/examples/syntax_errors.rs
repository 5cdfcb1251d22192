//! Lists the files of a tree that the grammar reads with a syntax error, each with its first
//! error node (line, column, kind) and that line as the grammar saw it, after the pack's
//! rewrite (`prepared`): what `scripts/bench_languages.py`'s syntax-error column counts, and
//! where a pack's rewrite or `[preprocess]` rules fall short (`cargo run --release -p
//! navegador-lang --example syntax_errors -- DIR [EXT,EXT…]`). Paths are relative to DIR;
//! a file's language is what the registry detects (as the ingest does). Given a file, it
//! prints the text the grammar parses.

use std::path::{Path, PathBuf};

fn main() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().expect("usage: syntax_errors DIR|FILE [EXT,EXT…]"));
    let exts: Vec<String> = args.next().map(|e| e.split(',').map(str::to_string).collect()).unwrap_or_default();
    if root.is_file() {
        // one file: the text the grammar parses
        let text = std::fs::read_to_string(&root).expect("a UTF-8 file");
        let lang = navegador_lang::registry().detect(&root.to_string_lossy(), text.as_bytes()).expect("a language navegador reads");
        print!("{}", navegador_lang::prepared(lang, &text).unwrap_or(text));
        return;
    }
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let (mut read, mut broken) = (0, 0);
    // by language: (read, with a syntax error)
    let mut by_lang: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    for path in files {
        let Ok(rel) = path.strip_prefix(&root).map(|p| p.to_string_lossy().replace('\\', "/")) else { continue };
        if !exts.is_empty() && !exts.iter().any(|e| rel.rsplit('.').next() == Some(e.as_str())) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else { continue };
        // what the ingest skips: larger than 1 MiB
        let Some(lang) = navegador_lang::registry().detect(&rel, &bytes).filter(|_| bytes.len() <= 1 << 20) else { continue };
        let text = String::from_utf8_lossy(&bytes);
        let prepared = navegador_lang::prepared(lang, &text);
        let seen = prepared.as_deref().unwrap_or(&text);
        let Some(tree) = navegador_lang::parse(lang, &text) else { continue };
        read += 1;
        let root = tree.root_node();
        let counts = by_lang.entry(lang.as_str()).or_default();
        counts.0 += 1;
        if !root.has_error() {
            continue;
        }
        broken += 1;
        counts.1 += 1;
        let n = first_error(root).unwrap_or(root);
        // a hidden missing token: where it goes, after the node returned
        let hidden = !n.is_error() && !n.is_missing();
        let p = if hidden { n.end_position() } else { n.start_position() };
        let line = seen.lines().nth(p.row).unwrap_or("").trim();
        let kind = match () {
            _ if n.is_missing() => format!("MISSING {}", n.kind()),
            _ if hidden => format!("MISSING (hidden) after {}", n.kind()),
            _ => n.kind().to_string(),
        };
        println!("{rel}:{}:{} {kind} [{}]: {}", p.row + 1, p.column + 1, lang.as_str(), &line[..line.len().min(160)]);
    }
    let langs: Vec<String> = by_lang.iter().map(|(l, (r, b))| format!("{l} {b} of {r}")).collect();
    println!("{broken} of {read} files with a syntax error ({})", langs.join(", "));
}

/// The first ERROR or MISSING node in document order; where the error is a hidden token the
/// grammar inserted (a MISSING `_semicolon`, which no cursor visits), the innermost
/// erroneous node's named child the token follows (its s-expression lists the token).
fn first_error(n: tree_sitter::Node) -> Option<tree_sitter::Node> {
    if n.is_error() || n.is_missing() {
        return Some(n);
    }
    let mut c = n.walk();
    let children: Vec<_> = n.children(&mut c).collect();
    if children.iter().any(|c| c.has_error()) {
        return children.into_iter().filter(|c| c.has_error()).find_map(first_error);
    }
    // the items at depth 1 of `(kind (a) (MISSING x) (b))` are the named children and the
    // missing tokens, in order
    let sexp = n.to_sexp();
    let (mut depth, mut item, mut named) = (0usize, 0usize, None);
    for (k, ch) in sexp.char_indices() {
        match ch {
            '(' => {
                depth += 1;
                if depth == 2 {
                    if sexp[k..].starts_with("(MISSING") {
                        named = Some(item);
                        break;
                    }
                    item += 1;
                }
            }
            ')' => depth -= 1,
            _ => {}
        }
    }
    match named {
        Some(0) | None => Some(n),
        Some(k) => n.named_child(k as u32 - 1),
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
