//! Haskell: a function is written as a type signature and equations, one `function` node
//! per clause; they are one definition, from the signature (or the first equation) to the
//! last equation, documented by the signature's haddock. A variable bound by a pattern (a
//! parameter, a `case` alternative, a lambda, `x <- …`) or by `where` / `let` is a local:
//! a `where` binding is used above it, which no ordered scope says, so a site naming a
//! local of its top-level declaration is dropped here, and so is a site inside a pattern
//! (`f (Cart is) = …` applies no constructor).
//!
//! `prepare`: the grammar's layout scanner counts a tab as one column in some places and
//! eight in others, so a file indented with tabs fails to parse (hscolour's); each tab is
//! read as one space, same length, which keeps a file's own tab-indented layout consistent.

use std::collections::HashSet;

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: haskell_post,
    prepare: haskell_prepare,
};

fn haskell_prepare(src: &str) -> Option<String> {
    src.contains('\t').then(|| src.replace('\t', " "))
}

/// The fields under which a node is a pattern (its variables bind names).
const PATTERN_FIELDS: &[&str] = &["patterns", "pattern"];

fn haskell_post(root: Node, src: &str, facts: &mut FileFacts) {
    fold_clauses(facts);
    drop_local_sites(root, src.as_bytes(), facts);
    for r in &mut facts.refs {
        // (a qualifier's node spells its dot: `M.` of `M.size`)
        if let Some(q) = &mut r.receiver {
            q.truncate(q.trim_end_matches('.').len());
        }
    }
    for s in &mut facts.symbols {
        if let Some(d) = &mut s.docstring {
            *d = haddock_text(d);
        }
        // a class's head, not its methods (`class Priced a`)
        if s.kind == Some("interface") {
            if let Some(sig) = &mut s.signature {
                if let Some(at) = sig.find(" where") {
                    sig.truncate(at);
                }
            }
        }
    }
}

/// The text of a haddock comment, without its markers (`-- |`, `{- | … -}`).
fn haddock_text(raw: &str) -> String {
    let lines: Vec<&str> = raw
        .lines()
        .map(|l| {
            let l = l.trim().trim_start_matches("{-").trim_end_matches("-}").trim_start_matches("--").trim_start();
            l.strip_prefix('|').or_else(|| l.strip_prefix('^')).unwrap_or(l).trim()
        })
        .collect();
    lines.join("\n").trim().to_string()
}

/// Folds each run of same-named functions (a signature and its equations, adjacent under
/// one parent) into its first.
fn fold_clauses(facts: &mut FileFacts) {
    let mut i = 0;
    while i + 1 < facts.symbols.len() {
        let (a, b) = (&facts.symbols[i], &facts.symbols[i + 1]);
        let same = matches!(a.label, Label::Function | Label::Method) && a.label == b.label && a.name == b.name && a.parent == b.parent;
        if same {
            fold_symbol(facts, i, i + 1);
        } else {
            i += 1;
        }
    }
}

/// (1-based line, column): a site's position.
type Pos = (u32, u32);

fn pos(p: tree_sitter::Point) -> Pos {
    (p.row as u32 + 1, p.column as u32)
}

/// Drops the sites inside patterns and the sites naming a local of their top-level
/// declaration.
fn drop_local_sites(root: Node, src: &[u8], facts: &mut FileFacts) {
    // (range of a top-level declaration, its local names); ranges of patterns
    let mut scopes: Vec<((Pos, Pos), HashSet<String>)> = Vec::new();
    let mut patterns: Vec<(Pos, Pos)> = Vec::new();
    let mut decls = Vec::new();
    walk(root, &mut |n| {
        if matches!(n.kind(), "function" | "bind") && n.parent().is_some_and(|p| matches!(p.kind(), "declarations" | "class_declarations" | "instance_declarations")) {
            decls.push(n);
        }
    });
    for d in decls {
        let mut names = HashSet::new();
        collect_locals(d, src, false, &mut names, &mut patterns, true);
        scopes.push(((pos(d.start_position()), pos(d.end_position())), names));
    }
    let keep: Vec<bool> = facts
        .refs
        .iter()
        .map(|r| {
            let at = (r.line, r.column);
            let in_pattern = patterns.iter().any(|&(s, e)| s <= at && at < e);
            let local = r.receiver.is_none() && scopes.iter().any(|((s, e), names)| *s <= at && at < *e && names.contains(&r.name));
            !in_pattern && !local
        })
        .collect();
    let mut k = keep.iter();
    facts.refs.retain(|_| *k.next().unwrap());
}

/// The names bound inside a declaration: variables of patterns, and the names `where` and
/// `let` bind (not the declaration's own name).
fn collect_locals(n: Node, src: &[u8], in_pattern: bool, names: &mut HashSet<String>, patterns: &mut Vec<(Pos, Pos)>, top: bool) {
    if in_pattern && n.kind() == "variable" {
        names.insert(text(n, src).to_string());
    }
    // a binding of `where` / `let` names a local
    if !top && matches!(n.kind(), "function" | "bind") {
        if let Some(name) = n.child_by_field_name("name").filter(|c| c.kind() == "variable") {
            names.insert(text(name, src).to_string());
        }
    }
    let mut c = n.walk();
    for (i, ch) in n.children(&mut c).enumerate() {
        let field = n.field_name_for_child(i as u32);
        // (`a <+> b = …`: the operands of an infix head are its parameters)
        let head = top && ch.kind() == "infix";
        if head {
            let mut hc = ch.walk();
            for (j, op) in ch.children(&mut hc).enumerate() {
                if matches!(ch.field_name_for_child(j as u32), Some("left_operand" | "right_operand")) {
                    patterns.push((pos(op.start_position()), pos(op.end_position())));
                    collect_locals(op, src, true, names, patterns, false);
                }
            }
            continue;
        }
        let pat = in_pattern || field.is_some_and(|f| PATTERN_FIELDS.contains(&f));
        if pat && !in_pattern {
            patterns.push((pos(ch.start_position()), pos(ch.end_position())));
        }
        collect_locals(ch, src, pat, names, patterns, false);
    }
}
