//! PHP: `static` methods, promoted constructor parameters as properties, and
//! `require __DIR__ . '/x.php'` as a path from the file's directory.

use navegador_model::{FileFacts, ImportFact, Label};
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
            *sig = strip_attributes(sig, "#[").to_string();
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

/// `__construct(private readonly Request $request)` declares a property `request` of the
/// class: one `Variable` per promoted parameter, right after the constructor.
fn promoted_properties(root: Node, b: &[u8], facts: &mut FileFacts) {
    parameter_fields(root, b, facts, "method_declaration", "\\", |params| {
        named_children(params)
            .into_iter()
            .filter(|p| p.kind() == "property_promotion_parameter")
            .filter_map(|p| {
                Some(ParamField {
                    param: p,
                    name: p.child_by_field_name("name").and_then(|v| v.named_child(0))?,
                    type_annotation: p.child_by_field_name("type").map(|t| squash_ws(text(t, b))),
                    hidden: p.child_by_field_name("visibility").is_some_and(|v| text(v, b) != "public"),
                    decorators: Vec::new(),
                })
            })
            .collect()
    });
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
