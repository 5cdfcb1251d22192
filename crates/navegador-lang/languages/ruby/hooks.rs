//! Ruby: modules are class-likes of kind `module`; `def self.x` and the methods of
//! `class << self` are `static`; `private` / `protected` (a bare line, `private def x`,
//! `private :x`) hide the methods they cover; `attr_reader :x` defines the method `x`;
//! `require_relative "x"` is the path `./x`.

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: ruby_post,
    prepare: no_prepare,
};

fn ruby_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    scoped_names(root, b, facts);
    for sym in &mut facts.symbols {
        let Some(def) = def_node(root, sym) else { continue };
        if def.kind() == "argument_list" && sym.name.starts_with(':') {
            // `attr_reader :name`: the method `name`
            let attr = def.parent().and_then(|c| c.child_by_field_name("method")).map(|m| text(m, b));
            sym.kind = Some(if attr == Some("attr_writer") { "setter" } else { "getter" });
            let written = std::mem::take(&mut sym.name);
            sym.name = written.trim_start_matches(':').to_string();
            let prefix = sym.qualified_name.strip_suffix(&written).unwrap_or_default();
            sym.qualified_name = format!("{prefix}{}", sym.name);
            sym.signature = None;
            continue;
        }
        match (sym.label, def.kind()) {
            (Label::Class, "module") => sym.kind = Some("module"),
            // `class A::B`: the name's parent is the scope resolution
            (Label::Class, "scope_resolution") if def.parent().is_some_and(|p| p.kind() == "module") => sym.kind = Some("module"),
            (Label::Method, "singleton_method") => sym.kind = Some("static"),
            (Label::Method, "method") if in_singleton_class(def) => sym.kind = Some("static"),
            _ => {}
        }
        if matches!(sym.label, Label::Method | Label::Function) && sym.kind != Some("static") && is_hidden(def, b) {
            sym.is_exported = false;
        }
        if let Some(sig) = &mut sym.signature {
            // the `def` line, not the body of a one-line method
            if let Some(i) = sig.find(';') {
                sig.truncate(i);
                sig.truncate(sig.trim_end().len());
            }
        }
    }
    // `require_relative "x"` names a path from this file's directory
    for imp in &mut facts.imports {
        if imp.module.starts_with("./") || imp.module.starts_with("../") {
            continue;
        }
        let p = tree_sitter::Point { row: imp.line.saturating_sub(1) as usize, column: imp.column as usize };
        let call = root.descendant_for_point_range(p, p).and_then(|n| {
            std::iter::successors(Some(n), |n| n.parent()).find(|n| n.kind() == "call" && n.start_position() == p)
        });
        let method = call.and_then(|c| c.child_by_field_name("method")).map(|m| text(m, b));
        if method == Some("require_relative") {
            imp.module = format!("./{}", imp.module);
        }
    }
}

fn in_singleton_class(def: Node) -> bool {
    def.parent().and_then(|p| p.parent()).is_some_and(|g| g.kind() == "singleton_class")
}

/// A method under a bare `private` / `protected` line of its body (until `public`), or
/// wrapped (`private def x`), or named by one (`private :x, :y`).
fn is_hidden(def: Node, b: &[u8]) -> bool {
    let name = def.child_by_field_name("name").map(|n| text(n, b)).unwrap_or("");
    // `private def x`: def <- argument_list <- call private
    let wrapper = def.parent().filter(|p| p.kind() == "argument_list").and_then(|a| a.parent());
    if let Some(call) = wrapper {
        if call.kind() == "call" && is_hiding(call.child_by_field_name("method").map(|m| text(m, b))) {
            return true;
        }
    }
    let Some(body) = def.parent().filter(|p| p.kind() == "body_statement") else { return false };
    let mut hidden = false;
    for n in named_children(body) {
        if n.id() == def.id() {
            break;
        }
        match n.kind() {
            "identifier" => match text(n, b) {
                "private" | "protected" => hidden = true,
                "public" => hidden = false,
                _ => {}
            },
            "call" if is_hiding(n.child_by_field_name("method").map(|m| text(m, b))) => {
                let args = n.child_by_field_name("arguments").map(named_children).unwrap_or_default();
                if args.iter().any(|a| matches!(a.kind(), "simple_symbol") && text(*a, b).trim_start_matches(':') == name) {
                    return true;
                }
            }
            _ => {}
        }
    }
    // a `private :x` below the method hides it too
    for n in named_children(body).into_iter().filter(|n| n.start_byte() > def.start_byte() && n.kind() == "call") {
        if is_hiding(n.child_by_field_name("method").map(|m| text(m, b))) {
            let args = n.child_by_field_name("arguments").map(named_children).unwrap_or_default();
            if args.iter().any(|a| a.kind() == "simple_symbol" && text(*a, b).trim_start_matches(':') == name) {
                return true;
            }
        }
    }
    hidden
}

fn is_hiding(method: Option<&str>) -> bool {
    matches!(method, Some("private" | "protected"))
}

/// `module A; class B::C` is `A::B::C`: a scoped name inside another definition keeps its
/// scope (the extractor takes the scope as the owner only at the top level), and so do
/// the names below it.
fn scoped_names(root: Node, b: &[u8], facts: &mut FileFacts) {
    for i in 0..facts.symbols.len() {
        let sym = &facts.symbols[i];
        let Some(parent) = sym.parent else { continue };
        if sym.label != Label::Class {
            continue;
        }
        let Some(name) = def_node(root, sym).filter(|d| d.kind() == "scope_resolution") else { continue };
        // at the top level the extractor has it right (`class Shop::Order` under a `module
        // Shop` of the same file is hung there, already named `Shop::Order`)
        let nested = std::iter::successors(name.parent().and_then(|d| d.parent()), |n| n.parent())
            .any(|n| matches!(n.kind(), "class" | "module"));
        let Some(scope) = name.child_by_field_name("scope").filter(|_| nested) else { continue };
        let old = sym.qualified_name.clone();
        let new = format!("{}::{}::{}", facts.symbols[parent as usize].qualified_name, text(scope, b), sym.name);
        for s in &mut facts.symbols[i..] {
            if s.qualified_name == old {
                s.qualified_name = new.clone();
            } else if let Some(rest) = s.qualified_name.strip_prefix(&format!("{old}::")) {
                s.qualified_name = format!("{new}::{rest}");
            }
        }
    }
}
