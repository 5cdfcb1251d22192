//! Erlang: the clauses of a function (`f(0) -> …; f(N) -> ….`, one `fun_decl` each in the
//! grammar) are one definition; `-export([f/1])` (or `-compile(export_all)`) exports
//! functions, `-export_type` types; a remote call `m:f()` is one site, with its receiver;
//! names in specs and types are not calls; `%%` comments are docs without their `%`s.

use std::collections::HashSet;

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: erlang_post,
    prepare: no_prepare,
};

fn erlang_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    // a clause ending in `;` continues into the next clause of the same function
    let mut i = 0;
    while i + 1 < facts.symbols.len() {
        let s = &facts.symbols[i];
        let decl = def_node(root, s).and_then(|c| c.parent()).filter(|d| d.kind() == "fun_decl");
        let continues = decl.and_then(|d| d.child(d.child_count().saturating_sub(1) as u32)).is_some_and(|l| l.kind() == ";");
        let next = &facts.symbols[i + 1];
        if s.label == Label::Function && continues && next.label == Label::Function && next.name == s.name {
            fold_symbol(facts, i, i + 1);
        } else {
            i += 1;
        }
    }
    // exports
    let (mut funs, mut types, mut all) = (HashSet::new(), HashSet::new(), false);
    let mut c = root.walk();
    for form in root.children(&mut c) {
        match form.kind() {
            "export_attribute" | "export_type_attribute" => {
                let into = if form.kind() == "export_attribute" { &mut funs } else { &mut types };
                walk(form, &mut |n| {
                    if let Some(f) = n.child_by_field_name("fun").filter(|_| n.kind() == "fa") {
                        into.insert(text(f, b).to_string());
                    }
                });
            }
            "compile_options_attribute" if text(form, b).contains("export_all") => all = true,
            _ => {}
        }
    }
    for s in &mut facts.symbols {
        s.is_exported = match (s.label, s.kind) {
            (Label::Function, _) => all || funs.contains(&s.name),
            (Label::Class, Some("type")) => types.contains(&s.name),
            (Label::Module, _) => true,
            _ => false,
        };
    }
    // `integer()`, `cart()` in a spec, a type or a record field's type name types, not calls
    let mut types_at: Vec<(tree_sitter::Point, tree_sitter::Point)> = Vec::new();
    walk(root, &mut |n| {
        if matches!(n.kind(), "spec" | "callback" | "type_alias" | "opaque" | "field_type") {
            types_at.push((n.start_position(), n.end_position()));
        }
    });
    facts.refs.retain(|r| {
        let p = tree_sitter::Point { row: r.line.saturating_sub(1) as usize, column: r.column as usize };
        !types_at.iter().any(|&(s, e)| s <= p && p < e)
    });
    // `%% text` comments above a definition: its doc without the `%`s
    for s in &mut facts.symbols {
        if let Some(d) = &mut s.docstring {
            *d = d.lines().map(|l| l.trim_start_matches('%').strip_prefix(' ').unwrap_or(l.trim_start_matches('%'))).collect::<Vec<_>>().join("\n");
        }
    }
    // `m:f()` matched as a remote call and as the plain call inside it: keep the remote one
    let remote: HashSet<(u32, u32)> = facts.refs.iter().filter(|r| r.receiver.is_some()).map(|r| (r.line, r.column)).collect();
    facts.refs.retain(|r| r.receiver.is_some() || !remote.contains(&(r.line, r.column)));
}
