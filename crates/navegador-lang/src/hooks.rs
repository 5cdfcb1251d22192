//! What a pack's Rust hooks (`languages/<id>/hooks.rs`) are and the tree helpers they share.
//! A hook is for what a query and the manifest cannot say: a `prepare` rewrite around a
//! grammar gap, a `post` pass for a real language rule (JS export lists, Rust `use` trees).

use navegador_model::{FileFacts, Label, SymbolFact, SymbolIdx};
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

/// Blanks (same length, so every position stays) a conditional-compilation line (one of
/// `directives`: `#if`, `#endif`, …, with its `\` continuation lines) that follows an
/// unfinished line, one ending in a word or one of `open` (`,`, `(`): `f(a\n#if TRACE\n, b\n
/// #endif\n)`, which the grammars reject inside an expression or a parameter list. Both
/// branches stay, as arguments. Another directive (`#define X 1`) finishes its line.
pub(crate) fn blank_inline_conditionals(src: &str, directives: &[&str], open: &[u8]) -> Option<String> {
    let mut out: Option<Vec<u8>> = None;
    let mut at = 0;
    let mut last = b';';
    let mut continued = false;
    for line in src.split_inclusive('\n') {
        let t = line.trim();
        let directive = continued || directives.iter().any(|d| t.strip_prefix(d).is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', '('])));
        if directive {
            if continued || last.is_ascii_alphanumeric() || last == b'_' || open.contains(&last) {
                let o = out.get_or_insert_with(|| src.as_bytes().to_vec());
                o[at..at + line.trim_end().len()].fill(b' ');
                continued = t.ends_with('\\');
            }
        } else if t.starts_with('#') {
            last = b';';
        } else {
            let code = t.split("//").next().unwrap_or("").trim_end();
            if let Some(&c) = code.as_bytes().last() {
                // (a member initializer list's `:`, alone or after the parameters' `)`, is
                // unfinished: `T::T(int a)\n    :\n#if A\n      a_(a),\n#endif`; a label's is not)
                let list = c == b':' && (code == ":" || code[..code.len() - 1].trim_end().ends_with(')')) && !code.ends_with("::");
                last = if list { b',' } else { c };
            }
        }
        at += line.len();
    }
    out.map(|o| String::from_utf8(o).expect("only whole lines were blanked"))
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

/// A field a constructor parameter declares (a TypeScript parameter property, a PHP
/// promoted parameter).
pub(crate) struct ParamField<'t> {
    /// The parameter (the field's range) and its name.
    pub param: Node<'t>,
    pub name: Node<'t>,
    pub type_annotation: Option<String>,
    /// Not public (`private`, `protected`).
    pub hidden: bool,
    pub decorators: Vec<(String, Option<String>, u32)>,
}

/// For each constructor whose definition node is of `def_kind` and whose class is known,
/// the fields `read` finds in its parameter list, inserted right after it as `Variable`s of
/// the class (`<class><separator><name>`, exported with the class unless hidden).
pub(crate) fn parameter_fields<'t>(
    root: Node<'t>,
    src: &[u8],
    facts: &mut FileFacts,
    def_kind: &str,
    separator: &str,
    read: impl Fn(Node<'t>) -> Vec<ParamField<'t>>,
) {
    let mut i = 0;
    while i < facts.symbols.len() {
        let ctor = &facts.symbols[i];
        let def = def_node(root, ctor).filter(|d| ctor.kind == Some("constructor") && d.kind() == def_kind);
        let (Some(params), Some(class)) = (def.and_then(|d| d.child_by_field_name("parameters")), ctor.parent) else {
            i += 1;
            continue;
        };
        let (class_q, class_exported) = {
            let c = &facts.symbols[class as usize];
            (c.qualified_name.clone(), c.is_exported)
        };
        i += 1;
        for f in read(params) {
            let n = text(f.name, src).to_string();
            let field = SymbolFact {
                label: Label::Variable,
                kind: None,
                qualified_name: format!("{class_q}{separator}{n}"),
                name: n,
                parent: Some(class),
                range: crate::extract::span(f.param),
                name_range: crate::extract::span(f.name),
                docstring: None,
                signature: None,
                class_name: None,
                type_annotation: f.type_annotation,
                is_async: false,
                is_exported: class_exported && !f.hidden,
                is_default_export: false,
                decorators: f.decorators,
            };
            insert_symbol(facts, i, field);
            i += 1;
        }
    }
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

/// Attributes written before a declaration, each `opener … ]` with its brackets balanced,
/// stripped: C# `[A] [B(1)] public void F()` (opener `[`), PHP `#[A] #[B(1)] public
/// function f()` (opener `#[`) -> `public …`.
pub(crate) fn strip_attributes<'a>(sig: &'a str, opener: &str) -> &'a str {
    let mut s = sig.trim_start();
    while s.starts_with(opener) {
        let mut depth = 0;
        let mut end = s.len();
        for (i, c) in s.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        s = s[end..].trim_start();
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

/// Folds symbol `from` into symbol `into` (an earlier one): `into`'s range grows to cover
/// it, its children and references move to `into`, and the indices after it shift down.
/// For a definition a grammar splits in pieces: an Erlang function's clauses, a Haskell
/// function's equations.
pub(crate) fn fold_symbol(facts: &mut FileFacts, into: usize, from: usize) {
    debug_assert!(into < from);
    let end = facts.symbols[from].range;
    let r = &mut facts.symbols[into].range;
    if (end.end_byte) > r.end_byte {
        (r.end_byte, r.end_line, r.end_col) = (end.end_byte, end.end_line, end.end_col);
    }
    let remap = |i: &mut SymbolIdx| {
        if *i as usize == from {
            *i = into as SymbolIdx;
        } else if *i as usize > from {
            *i -= 1;
        }
    };
    facts.symbols.remove(from);
    for s in &mut facts.symbols {
        s.parent.as_mut().map(remap);
    }
    for r in &mut facts.refs {
        r.from.as_mut().map(remap);
    }
}
