//! What a pack's Rust hooks (`languages/<id>/hooks.rs`) are and the tree helpers they share.
//! A hook is for what a query and the manifest cannot say: a `prepare` rewrite around a
//! grammar gap, a `post` pass for a real language rule (JS export lists, Rust `use` trees).

use navegador_model::{FileFacts, SymbolFact, SymbolIdx};
use tree_sitter::Node;

pub(crate) use crate::extract::leading_comment;

/// What a pack adds in Rust to its queries and manifest.
pub(crate) struct Hooks {
    /// A last per-language pass over the assembled facts (before the binder runs), for a
    /// rule a query cannot say: export lists, `use` trees, calls inside macros.
    pub post: fn(Node, &str, &mut FileFacts),
    /// Rewrites source the grammar cannot parse into source it can, byte for byte the same
    /// length (so every line and column stays), before parsing; `None` keeps it as is.
    pub prepare: fn(&str) -> Option<String>,
}

impl Hooks {
    /// A pack without hooks: its queries and manifest say everything.
    pub(crate) const NONE: Hooks = Hooks {
        post: |_, _, _| {},
        prepare: no_prepare,
    };
}

pub(crate) fn no_prepare(_: &str) -> Option<String> {
    None
}
pub(crate) fn text<'a>(n: Node, src: &'a [u8]) -> &'a str {
    std::str::from_utf8(&src[n.byte_range()]).unwrap_or("")
}

/// The definition node of a symbol: the parent of its name node.
pub(crate) fn def_node<'t>(root: Node<'t>, sym: &SymbolFact) -> Option<Node<'t>> {
    root.descendant_for_byte_range(sym.name_range.start_byte as usize, sym.name_range.end_byte as usize)?
        .parent()
}

/// Inserts a symbol at `at`, renumbering the parents and reference owners after it.
pub(crate) fn insert_symbol(facts: &mut FileFacts, at: usize, sym: SymbolFact) {
    let shift = |i: &mut SymbolIdx| {
        if *i as usize >= at {
            *i += 1;
        }
    };
    for s in &mut facts.symbols {
        s.parent.as_mut().map(shift);
    }
    for r in &mut facts.refs {
        r.from.as_mut().map(shift);
    }
    facts.symbols.insert(at, sym);
}

/// `@A("x") @B public void f()` -> `public void f()`.
pub(crate) fn strip_annotations(sig: &str) -> &str {
    let mut s = sig.trim_start();
    while let Some(rest) = s.strip_prefix('@') {
        if rest.starts_with("interface") {
            break;
        }
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$')).unwrap_or(rest.len());
        let mut after = rest[end..].trim_start();
        if after.starts_with('(') {
            let mut depth = 0;
            let mut close = after.len();
            for (i, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            close = i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            after = &after[close..];
        }
        s = after.trim_start();
    }
    s
}

pub(crate) fn squash_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The node a symbol was read from: the ancestor of its name that spans its range.
pub(crate) fn symbol_node<'t>(root: Node<'t>, sym: &SymbolFact) -> Option<Node<'t>> {
    let (s, e) = (sym.range.start_byte as usize, sym.range.end_byte as usize);
    let mut n = root.descendant_for_byte_range(sym.name_range.start_byte as usize, sym.name_range.end_byte as usize)?;
    loop {
        if n.start_byte() == s && n.end_byte() == e {
            return Some(n);
        }
        n = n.parent()?;
    }
}

pub(crate) fn named_children(n: Node) -> Vec<Node> {
    let mut c = n.walk();
    n.named_children(&mut c).collect()
}

/// Pre-order walk without recursion (deeply nested input must not overflow the stack).
pub(crate) fn walk<'t>(n: Node<'t>, f: &mut impl FnMut(Node<'t>)) {
    let mut c = n.walk();
    loop {
        f(c.node());
        if c.goto_first_child() {
            continue;
        }
        loop {
            if c.node() == n {
                return;
            }
            if c.goto_next_sibling() {
                break;
            }
            if !c.goto_parent() {
                return;
            }
        }
    }
}

/// Strips comment markers and common indentation from a doc comment or docstring.
pub(crate) fn clean_doc(raw: &str) -> String {
    let lines: Vec<&str> = raw
        .lines()
        .map(|l| {
            let t = l.trim();
            let t = t
                .strip_prefix("/**")
                .or_else(|| t.strip_prefix("/*!"))
                .or_else(|| t.strip_prefix("/*"))
                .or_else(|| t.strip_prefix("///"))
                .or_else(|| t.strip_prefix("//!"))
                .or_else(|| t.strip_prefix("//"))
                .or_else(|| t.strip_prefix("#"))
                .unwrap_or(t);
            let t = t.strip_suffix("*/").unwrap_or(t);
            let t = t.strip_prefix('*').unwrap_or(t);
            t.strip_prefix(' ').unwrap_or(t).trim_end()
        })
        .collect();
    let start = lines.iter().position(|l| !l.is_empty()).unwrap_or(lines.len());
    let end = lines.iter().rposition(|l| !l.is_empty()).map_or(start, |e| e + 1);
    lines[start..end].join("\n")
}
