//! Perl: a package is a class-like of kind `package`. `package A::B { … }` is its block;
//! `package A::B;` runs to the next package statement of the same block or file (or its
//! end), and the subs written there are its methods (`A::B::f`, `new` the constructor), as
//! are the sites of its top-level code; subs before any package are functions (`main`). A
//! word list base (`use parent qw(A B)`) is one base a word; `$x->SUPER::m()` is `m` of the
//! bases (receiver `super`).

use navegador_model::{FileFacts, Label, RefFact, RefKind, Span, SymbolIdx};
use tree_sitter::Node;

use crate::extract::span;
use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: perl_post,
    prepare: no_prepare,
};

fn perl_post(root: Node, src: &str, facts: &mut FileFacts) {
    // each statement-form package: its extent, to the next package of its block
    let mut packages: Vec<(usize, Span)> = Vec::new();
    for i in 0..facts.symbols.len() {
        let sym = &facts.symbols[i];
        if sym.label != Label::Class {
            continue;
        }
        let Some(stmt) = def_node(root, sym).filter(|d| d.kind() == "package_statement") else { continue };
        facts.symbols[i].kind = Some("package");
        if stmt.child_by_field_name("name").is_some() && named_children(stmt).iter().any(|c| c.kind() == "block") {
            continue;
        }
        let mut last = stmt;
        let mut next = stmt.next_named_sibling();
        while let Some(n) = next {
            if n.kind() == "package_statement" {
                break;
            }
            last = n;
            next = n.next_named_sibling();
        }
        let end = span(last);
        let range = &mut facts.symbols[i].range;
        range.end_byte = end.end_byte;
        range.end_line = end.end_line;
        range.end_col = end.end_col;
        packages.push((i, *range));
    }
    // the subs and top-level sites a statement-form package covers
    for &(p, range) in &packages {
        let owner = facts.symbols[p].qualified_name.clone();
        for i in p + 1..facts.symbols.len() {
            let s = &facts.symbols[i];
            if s.parent.is_some() || !range.contains(&s.range) {
                continue;
            }
            let s = &mut facts.symbols[i];
            s.parent = Some(p as SymbolIdx);
            s.qualified_name = format!("{owner}::{}", s.name);
            if s.label == Label::Function {
                s.label = Label::Method;
                s.kind = Some(if s.name == "new" { "constructor" } else { "method" });
                s.class_name = Some(owner.clone());
            }
            // what is below it follows its new name
            let old = format!("{}::", s.name);
            let new = format!("{}::", s.qualified_name);
            for t in &mut facts.symbols[i + 1..] {
                if t.qualified_name.starts_with(&old) {
                    t.qualified_name = format!("{new}{}", &t.qualified_name[old.len()..]);
                }
            }
        }
        for r in &mut facts.refs {
            if r.from.is_none() && range.start_byte <= ref_byte(root, r) && ref_byte(root, r) < range.end_byte {
                r.from = Some(p as SymbolIdx);
            }
        }
    }
    bases(root, src.as_bytes(), facts);
    for r in &mut facts.refs {
        // `$self->SUPER::new(…)`: the bases' `new`
        if let Some(m) = r.name.strip_prefix("SUPER::") {
            r.name = m.to_string();
            r.receiver = Some("super".to_string());
        }
        // a sigil left on a name (`&f` without parentheses read as a value)
        if let Some(n) = r.name.strip_prefix('&') {
            r.name = n.to_string();
        }
    }
}

/// A site's byte offset, from its line and column.
fn ref_byte(root: Node, r: &RefFact) -> u32 {
    let p = tree_sitter::Point { row: r.line.saturating_sub(1) as usize, column: r.column as usize };
    root.descendant_for_point_range(p, p).map_or(0, |n| n.start_byte() as u32)
}

/// `use parent -norequire, 'A::B';`, `use base qw(A B);`, `our @ISA = ('A', 'B');`: the
/// bases of the package the statement is in (its innermost by extent), one a word.
fn bases(root: Node, b: &[u8], facts: &mut FileFacts) {
    let mut found: Vec<(u32, Node)> = Vec::new();
    walk(root, &mut |n| {
        let list = match n.kind() {
            "use_statement" if matches!(n.child_by_field_name("module").map(|m| text(m, b)), Some("parent" | "base")) => Some(n),
            "assignment_expression" => n
                .child_by_field_name("left")
                .filter(|l| {
                    let arr = if l.kind() == "variable_declaration" { l.named_child(0) } else { Some(*l) };
                    arr.is_some_and(|a| a.kind() == "array" && text(a, b) == "@ISA")
                })
                .and_then(|_| n.child_by_field_name("right")),
            _ => None,
        };
        let Some(list) = list else { return };
        walk(list, &mut |s| {
            if s.kind() == "string_content" {
                found.push((n.start_byte() as u32, s));
            }
        });
    });
    for (at, s) in found {
        // the innermost package whose extent holds the statement
        let owner = facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, p)| p.kind == Some("package") && p.range.start_byte <= at && at < p.range.end_byte)
            .max_by_key(|(_, p)| p.range.start_byte)
            .map(|(i, _)| i as SymbolIdx);
        let Some(owner) = owner else { continue };
        let text = text(s, b);
        let mut off = 0;
        for w in text.split_whitespace() {
            let col = text[off..].find(w).map_or(off, |i| off + i);
            off = col + w.len();
            let (receiver, name) = match w.rsplit_once("::") {
                Some((r, n)) => (Some(r.to_string()), n.to_string()),
                None => (None, w.to_string()),
            };
            // a word list may span lines
            let p = s.start_position();
            let before = &text[..col];
            let (line, column) = match before.rfind('\n') {
                Some(nl) => (p.row + 1 + before.matches('\n').count(), col - nl - 1),
                None => (p.row + 1, p.column + col),
            };
            facts.refs.push(RefFact {
                kind: RefKind::Inherits,
                from: Some(owner),
                name,
                receiver,
                receiver_type: None,
                arity: None,
                arg_types: None,
                line: line as u32,
                column: column as u32,
            });
        }
    }
}
