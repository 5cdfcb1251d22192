//! PHP: `static` methods, promoted constructor parameters as properties, and
//! `require __DIR__ . '/x.php'` as a path from the file's directory.

use navegador_model::{FileFacts, ImportFact, Label, SymbolFact};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: php_post,
    prepare: no_prepare,
};

fn php_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    for i in 0..facts.symbols.len() {
        let def = def_node(root, &facts.symbols[i]);
        let sym = &mut facts.symbols[i];
        if sym.kind == Some("method") && def.is_some_and(|d| d.kind() == "method_declaration" && has_child(d, "static_modifier")) {
            sym.kind = Some("static");
        }
        // A function's type is its return type (`function f(): Collection`).
        if matches!(sym.label, Label::Function | Label::Method) {
            sym.type_annotation = def.and_then(|d| d.child_by_field_name("return_type")).map(|t| squash_ws(text(t, b)));
        }
        if let Some(sig) = &mut sym.signature {
            *sig = strip_attributes(sig).to_string();
        }
    }
    promoted_properties(root, b, facts);
    dir_requires(root, b, facts);
}

fn has_child(n: Node, kind: &str) -> bool {
    let mut c = n.walk();
    let found = n.children(&mut c).any(|ch| ch.kind() == kind);
    found
}

/// `#[A] #[B(1)] public function f()` -> `public function f()`.
fn strip_attributes(sig: &str) -> &str {
    let mut s = sig.trim_start();
    while s.starts_with("#[") {
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

/// `__construct(private readonly Request $request)` declares a property `request` of the
/// class: one `Variable` per promoted parameter, right after the constructor.
fn promoted_properties(root: Node, b: &[u8], facts: &mut FileFacts) {
    let mut i = 0;
    while i < facts.symbols.len() {
        let ctor = &facts.symbols[i];
        let def = def_node(root, ctor).filter(|d| ctor.kind == Some("constructor") && d.kind() == "method_declaration");
        let (Some(params), Some(class)) = (def.and_then(|d| d.child_by_field_name("parameters")), ctor.parent) else {
            i += 1;
            continue;
        };
        let (class_q, class_exported) = {
            let c = &facts.symbols[class as usize];
            (c.qualified_name.clone(), c.is_exported)
        };
        let mut fields = Vec::new();
        for p in named_children(params).into_iter().filter(|p| p.kind() == "property_promotion_parameter") {
            let Some(name) = p.child_by_field_name("name").and_then(|v| v.named_child(0)) else { continue };
            let hidden = p.child_by_field_name("visibility").is_some_and(|v| text(v, b) != "public");
            let n = text(name, b).to_string();
            fields.push(SymbolFact {
                label: Label::Variable,
                kind: None,
                qualified_name: format!("{class_q}\\{n}"),
                name: n,
                parent: Some(class),
                range: crate::extract::span(p),
                name_range: crate::extract::span(name),
                docstring: None,
                signature: None,
                class_name: None,
                type_annotation: p.child_by_field_name("type").map(|t| squash_ws(text(t, b))),
                is_async: false,
                is_exported: class_exported && !hidden,
                is_default_export: false,
                decorators: Vec::new(),
            });
        }
        i += 1;
        for f in fields {
            insert_symbol(facts, i, f);
            i += 1;
        }
    }
}

/// `require __DIR__ . '/helpers.php'` (and `include`, `_once`): the path from this file's
/// directory, written `./helpers.php` as a relative path is.
fn dir_requires(root: Node, b: &[u8], facts: &mut FileFacts) {
    let mut found = Vec::new();
    walk(root, &mut |n| {
        if !matches!(n.kind(), "require_expression" | "require_once_expression" | "include_expression" | "include_once_expression") {
            return;
        }
        let Some(e) = n.named_child(0).filter(|e| e.kind() == "binary_expression") else { return };
        let (Some(l), Some(r)) = (e.child_by_field_name("left"), e.child_by_field_name("right")) else { return };
        if text(l, b) != "__DIR__" || r.kind() != "string" {
            return;
        }
        let Some(path) = r.named_child(0).filter(|c| c.kind() == "string_content") else { return };
        let path = text(path, b).trim_start_matches('/');
        found.push(ImportFact {
            module: format!("./{path}"),
            name: None,
            alias: None,
            line: n.start_position().row as u32 + 1,
            column: n.start_position().column as u32,
        });
    });
    facts.imports.extend(found);
}
