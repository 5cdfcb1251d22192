//! Elixir: a module (`defmodule A.B`, `defprotocol`, `defimpl P, for: T`) is a class-like
//! (kind `module`, `interface`, `impl`) named by its last segment and qualified by the
//! nesting (`defmodule Item` inside `Shop.Cart` is `Shop.Cart.Item`); the clauses of one
//! function (same name and arity, one after another) are one definition; `defp`, `defmacrop`
//! and `defguardp` are private; `@doc` / `@moduledoc` are docs; definition heads and module
//! attributes (`@spec`, `@type`: types, not calls) are no calls; `alias`, `import`,
//! `require`, `use` are imports (module and name split here: `alias A.B` binds B).

use std::collections::HashSet;

use navegador_model::{FileFacts, ImportFact, Label, RefKind};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: elixir_post,
    prepare: no_prepare,
};

fn elixir_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    // definitions: kinds, names, exports, docs
    let mut heads = HashSet::new();
    let mut arity = Vec::with_capacity(facts.symbols.len());
    for i in 0..facts.symbols.len() {
        let s = &facts.symbols[i];
        heads.insert((s.name_range.start_line, s.name_range.start_col));
        let call = symbol_node(root, s);
        let kw = call.and_then(|c| c.child_by_field_name("target")).map(|t| text(t, b)).unwrap_or("");
        let parent = s.parent.map(|p| (facts.symbols[p as usize].qualified_name.clone(), facts.symbols[p as usize].name.clone()));
        let parent_q = parent.as_ref().map(|p| p.0.clone());
        // the head, not the body: `def total(items) when is_list(items)`, `defmodule A.B`
        let sig = call.and_then(|c| {
            let head = named_children(c).into_iter().find(|a| a.kind() == "arguments")?.named_child(0)?;
            Some(squash_ws(std::str::from_utf8(&b[c.start_byte()..head.end_byte()]).ok()?))
        });
        let mut doc = None;
        let mut n_args = None;
        let s = &mut facts.symbols[i];
        if sig.is_some() {
            s.signature = sig;
        }
        if let Some((_, n)) = &parent {
            s.class_name = Some(n.clone());
        }
        match s.label {
            Label::Class => {
                let mut written = s.name.clone();
                if kw == "defimpl" {
                    s.kind = Some("impl");
                    if let Some(t) = call.and_then(|c| keyword_arg(c, "for", b)) {
                        written = format!("{written}.{t}");
                    }
                } else {
                    s.kind = Some(if kw == "defprotocol" { "interface" } else { "module" });
                }
                let last = s.name.rsplit('.').next().unwrap_or(&s.name).to_string();
                s.qualified_name = parent_q.map_or(written.clone(), |p| format!("{p}.{written}"));
                s.name = last;
                s.is_exported = true;
                doc = call.and_then(|c| moduledoc(c, b));
            }
            Label::Function | Label::Method => {
                s.qualified_name = parent_q.map_or(s.name.clone(), |p| format!("{p}.{}", s.name));
                s.is_exported = !kw.ends_with('p');
                s.kind = match kw.trim_end_matches('p') {
                    "defmacro" => Some("macro"),
                    "defguard" => Some("guard"),
                    "defdelegate" => Some("delegate"),
                    _ => s.kind,
                };
                n_args = call.map(head_arity);
                doc = call.and_then(|c| fundoc(c, b));
            }
            _ => {
                s.qualified_name = parent_q.map_or(s.name.clone(), |p| format!("{p}.{}", s.name));
            }
        }
        if doc.is_some() {
            facts.symbols[i].docstring = doc;
        }
        arity.push(n_args);
    }
    // a function's clauses: `def total([])` then `def total(items)` are one `total/1`
    let mut i = 0;
    while i + 1 < facts.symbols.len() {
        let (s, t) = (&facts.symbols[i], &facts.symbols[i + 1]);
        let fun = |l: Label| matches!(l, Label::Function | Label::Method);
        if fun(s.label) && fun(t.label) && s.name == t.name && s.parent == t.parent && arity[i] == arity[i + 1] {
            fold_symbol(facts, i, i + 1);
            arity.remove(i + 1);
        } else {
            i += 1;
        }
    }
    // no calls: definition heads, module attributes' names, and types (`@spec f(t) :: t`)
    let mut types_at = Vec::new();
    walk(root, &mut |n| {
        if n.kind() == "unary_operator" && n.child(0).is_some_and(|o| text(o, b) == "@") {
            let op = n.child_by_field_name("operand").filter(|o| o.kind() == "call");
            if let Some(t) = op.and_then(|o| o.child_by_field_name("target")) {
                heads.insert((t.start_position().row as u32 + 1, t.start_position().column as u32));
                if matches!(text(t, b), "spec" | "type" | "typep" | "opaque" | "callback" | "macrocallback") {
                    types_at.push(n.byte_range());
                }
            }
        }
    });
    let line_starts: Vec<usize> = std::iter::once(0).chain(src.match_indices('\n').map(|(i, _)| i + 1)).collect();
    facts.refs.retain(|r| {
        let at = line_starts.get(r.line.saturating_sub(1) as usize).map_or(0, |l| l + r.column as usize);
        !heads.contains(&(r.line, r.column)) && !types_at.iter().any(|t| t.contains(&at))
    });
    // `x |> f(y)` calls f with x first
    let mut piped = HashSet::new();
    walk(root, &mut |n| {
        if n.kind() == "binary_operator" && n.child_by_field_name("operator").is_some_and(|o| text(o, b) == "|>") {
            if let Some(r) = n.child_by_field_name("right") {
                let at = r.child_by_field_name("target").and_then(|t| t.child_by_field_name("right").or(Some(t))).unwrap_or(r);
                piped.insert((at.start_position().row as u32 + 1, at.start_position().column as u32));
            }
        }
    });
    for r in &mut facts.refs {
        if piped.contains(&(r.line, r.column)) {
            r.arity = Some(r.arity.unwrap_or(0) + 1);
        }
        // `:lists.map(x)`: the Erlang module `lists`
        if let Some(m) = r.receiver.as_deref().and_then(|m| m.strip_prefix(':')) {
            r.receiver = Some(m.to_string());
        }
    }
    // `&Price.of/1`: a function passed as a value, not also a call of it
    let values: HashSet<(u32, String)> = facts.refs.iter().filter(|r| r.kind == RefKind::Reference).map(|r| (r.line, r.name.clone())).collect();
    facts.refs.retain(|r| r.kind != RefKind::Call || !values.contains(&(r.line, r.name.clone())));
    imports(root, b, facts);
}

/// The number of arguments a definition's head takes (`def f(a, b) when …` is 2).
fn head_arity(call: Node) -> usize {
    let Some(args) = call.child_by_field_name("arguments").or_else(|| named_children(call).into_iter().find(|c| c.kind() == "arguments"))
    else {
        return 0;
    };
    let mut head = args.named_child(0);
    if let Some(h) = head.filter(|h| h.kind() == "binary_operator") {
        head = h.child_by_field_name("left");
    }
    match head {
        Some(h) if h.kind() == "call" => named_children(h).into_iter().find(|c| c.kind() == "arguments").map_or(0, |a| a.named_child_count()),
        // `def a <<< b`: an operator of two
        Some(h) if h.kind() == "binary_operator" => 2,
        _ => 0,
    }
}

/// The value of a keyword argument (`for: Shop.Cart`) of a call.
fn keyword_arg<'a>(call: Node, key: &str, b: &'a [u8]) -> Option<&'a str> {
    let args = named_children(call).into_iter().find(|c| c.kind() == "arguments")?;
    let kws = named_children(args).into_iter().find(|c| c.kind() == "keywords")?;
    named_children(kws).into_iter().find_map(|p| {
        let k = p.child_by_field_name("key")?;
        (text(k, b).trim_end().trim_end_matches(':') == key).then(|| p.child_by_field_name("value").map(|v| text(v, b)))?
    })
}

/// The text of a `@doc`, `@moduledoc` string, without its quotes.
fn attr_doc(n: Node, name: &str, b: &[u8]) -> Option<String> {
    if n.kind() != "unary_operator" {
        return None;
    }
    let op = n.child_by_field_name("operand").filter(|o| o.kind() == "call")?;
    if op.child_by_field_name("target").map(|t| text(t, b)) != Some(name) {
        return None;
    }
    let s = named_children(op).into_iter().find(|c| c.kind() == "arguments")?.named_child(0).filter(|s| s.kind() == "string")?;
    let t = text(s, b).trim_matches('"').trim();
    Some(t.lines().map(str::trim).collect::<Vec<_>>().join("\n").trim().to_string()).filter(|d| !d.is_empty())
}

/// A function's `@doc`, above it (past `@spec`, `@impl` and other attributes).
fn fundoc(call: Node, b: &[u8]) -> Option<String> {
    let mut n = call.prev_named_sibling();
    while let Some(p) = n.filter(|p| p.kind() == "unary_operator") {
        if let Some(d) = attr_doc(p, "doc", b) {
            return Some(d);
        }
        n = p.prev_named_sibling();
    }
    None
}

/// A module's `@moduledoc`, first in its body.
fn moduledoc(call: Node, b: &[u8]) -> Option<String> {
    let body = named_children(call).into_iter().find(|c| c.kind() == "do_block")?;
    named_children(body).into_iter().find_map(|n| attr_doc(n, "moduledoc", b))
}

/// `alias A.B` (module `A.B`, name B), `alias A.B, as: C` (alias C), `alias A.{B, C}` (one
/// each), `import A.B` (name `*`: its functions are bare names), `require A.B` and `use A.B`
/// (no name); `__MODULE__` is the enclosing module.
fn imports(root: Node, b: &[u8], facts: &mut FileFacts) {
    let mut out = Vec::new();
    walk(root, &mut |n| {
        if n.kind() != "call" {
            return;
        }
        let Some(kw) = n.child_by_field_name("target").map(|t| text(t, b)).filter(|k| matches!(*k, "alias" | "import" | "require" | "use")) else {
            return;
        };
        let Some(first) = named_children(n).into_iter().find(|c| c.kind() == "arguments").and_then(|a| a.named_child(0)) else {
            return;
        };
        let here = enclosing_module(n, b);
        let full = |a: Node| {
            let t = text(a, b);
            match (t.strip_prefix("__MODULE__"), &here) {
                (Some(rest), Some(m)) => format!("{m}{rest}"),
                _ => t.to_string(),
            }
        };
        let mut modules = Vec::new();
        match first.kind() {
            "alias" => modules.push(full(first)),
            "identifier" if text(first, b) == "__MODULE__" => modules.extend(here.clone()),
            "dot" if kw == "alias" => {
                let (Some(l), Some(r)) = (first.child_by_field_name("left"), first.child_by_field_name("right")) else { return };
                if r.kind() == "tuple" {
                    let base = full(l);
                    modules.extend(named_children(r).into_iter().filter(|a| a.kind() == "alias").map(|a| format!("{base}.{}", text(a, b))));
                }
            }
            _ => {}
        }
        let alias = (kw == "alias").then(|| keyword_arg(n, "as", b).map(str::to_string)).flatten();
        let (line, column) = (n.start_position().row as u32 + 1, n.start_position().column as u32);
        for module in modules {
            let name = match kw {
                "alias" => Some(module.rsplit('.').next().unwrap_or(&module).to_string()),
                "import" => Some("*".to_string()),
                _ => None,
            };
            out.push(ImportFact { module, name, alias: alias.clone(), line, column });
        }
    });
    facts.imports = out;
}

/// The qualified name of the module a node is written in (`A.B` for a node inside
/// `defmodule B` inside `defmodule A`).
fn enclosing_module(n: Node, b: &[u8]) -> Option<String> {
    let mut parts = Vec::new();
    let mut cur = n.parent();
    while let Some(p) = cur {
        if p.kind() == "call" && p.child_by_field_name("target").is_some_and(|t| text(t, b) == "defmodule") {
            if let Some(a) = named_children(p).into_iter().find(|c| c.kind() == "arguments").and_then(|a| a.named_child(0)) {
                parts.push(text(a, b).to_string());
            }
        }
        cur = p.parent();
    }
    parts.reverse();
    (!parts.is_empty()).then(|| parts.join("."))
}
