//! Swift: source the grammar (tree-sitter-swift 0.7.4) rejects, rewritten before parsing;
//! `static` / `class` methods; signatures without attributes.

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: swift_post,
    prepare: swift_prepare,
};

/// Rewrites, each the same length (positions kept), what the grammar fails on:
/// - a prefix `~` opening an array literal (`[~A.self]`, a custom operator): blanked;
/// - several attributes on one parameter (`(@Builder @_implicitSelfCapture _ body: …)`):
///   all but the last are blanked;
/// - `return ()`: the empty tuple is blanked;
/// - `#if` / `#elseif` / `#else` / `#endif` between the cases of a `switch` (a directive
///   whose next line of code is a `case` or `default`, and the rest of its group): the
///   directive lines are blanked, every branch's cases kept.
fn swift_prepare(src: &str) -> Option<String> {
    let mut out = src.as_bytes().to_vec();
    let b = src.as_bytes();
    let mut changed = false;
    let mut blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' && *c != b'\r' {
                *c = b' ';
            }
        }
        changed = true;
    };
    let prev_code = |i: usize| b[..i].iter().rposition(|c| !c.is_ascii_whitespace()).map(|p| b[p]);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'~' if prev_code(i) == Some(b'[') && b.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_') => {
                blank(&mut out, i, i + 1);
            }
            b'@' if matches!(prev_code(i), Some(b'(' | b',')) => {
                // a run of attributes: blank each one that another follows
                let mut at = i;
                loop {
                    let end = attribute_end(b, at);
                    let next = end + b[end..].iter().take_while(|c| c.is_ascii_whitespace()).count();
                    if end == at + 1 || b.get(next) != Some(&b'@') {
                        break;
                    }
                    blank(&mut out, at, end);
                    at = next;
                }
                i = at;
            }
            b'r' if b[i..].starts_with(b"return ()") && (i == 0 || !is_ident(b[i - 1])) => {
                let after = i + "return ()".len();
                if b.get(after).is_none_or(|c| matches!(c, b'\n' | b'\r' | b' ' | b'}' | b';')) {
                    blank(&mut out, after - 2, after);
                }
            }
            _ => {}
        }
        i += 1;
    }
    // directives between switch cases
    let lines: Vec<(usize, usize)> = line_spans(src);
    let text = |k: usize| src[lines[k].0..lines[k].1].trim();
    let mut stack: Vec<bool> = Vec::new();
    for k in 0..lines.len() {
        let t = text(k);
        let word = t.split_whitespace().next().unwrap_or("");
        let drop = match word {
            "#if" => {
                let next = (k + 1..lines.len()).map(text).find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"));
                let in_switch = next.is_some_and(|l| l.starts_with("case ") || l.starts_with("default:") || l.starts_with("@unknown default"));
                stack.push(in_switch);
                in_switch
            }
            "#elseif" | "#else" => stack.last().copied().unwrap_or(false),
            "#endif" => stack.pop().unwrap_or(false),
            _ => false,
        };
        if drop {
            blank(&mut out, lines[k].0, lines[k].1);
        }
    }
    changed.then(|| String::from_utf8(out).unwrap_or_else(|_| src.to_string()))
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The end of the attribute starting at `@` at `at`: its name, then a balanced `<…>` or
/// `(…)` right after it.
fn attribute_end(b: &[u8], at: usize) -> usize {
    let mut j = at + 1;
    while j < b.len() && (is_ident(b[j]) || b[j] == b'.') {
        j += 1;
    }
    if let Some(&open) = b.get(j).filter(|c| matches!(c, b'<' | b'(')) {
        let close = if open == b'<' { b'>' } else { b')' };
        let mut depth = 0;
        for (k, &c) in b[j..].iter().enumerate() {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return j + k + 1;
                }
            }
        }
    }
    j
}

fn line_spans(src: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in src.bytes().enumerate() {
        if c == b'\n' {
            out.push((start, i));
            start = i + 1;
        }
    }
    out.push((start, src.len()));
    out
}

/// `static func` and `class func` are static methods; signatures lose their attributes.
fn swift_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    for sym in &mut facts.symbols {
        if sym.label == Label::Method && sym.kind == Some("method") {
            let node = def_node(root, sym);
            let mut c = node.map(|n| n.walk());
            // `static func` (a modifier) or `class func` (a keyword of the declaration)
            let is_static = node.zip(c.as_mut()).is_some_and(|(n, c)| {
                let found = n.children(c).any(|k| {
                    k.kind() == "class"
                        || k.kind() == "modifiers" && {
                            let mut mc = k.walk();
                            let found = k.children(&mut mc).any(|m| m.kind() == "property_modifier" && matches!(text(m, b), "static" | "class"));
                            found
                        }
                });
                found
            });
            if is_static {
                sym.kind = Some("static");
            }
        }
        if let Some(sig) = &mut sym.signature {
            *sig = strip_annotations(sig).to_string();
        }
    }
}
