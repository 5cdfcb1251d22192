//! Go: type heads as signatures, and conversions to predeclared types are not calls.

use navegador_model::{FileFacts, Label, RefKind};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: go_post,
    prepare: no_prepare,
};


/// Predeclared types: `string(b)` is a conversion, not a call.
const GO_TYPES: &[&str] = &[
    "bool", "byte", "complex64", "complex128", "error", "float32", "float64", "int", "int8",
    "int16", "int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64",
    "uintptr", "any",
];

fn go_post(root: Node, src: &str, facts: &mut FileFacts) {
    for sym in &mut facts.symbols {
        if sym.label != Label::Class {
            continue;
        }
        // The type's head (`type Server struct`), not its members; the underlying type of
        // a type spec is not an annotation of a class.
        sym.type_annotation = None;
        if let Some(sig) = sym.signature.take() {
            let head = match sym.kind {
                Some("struct" | "interface") => sig.split('{').next().unwrap_or(&sig).trim_end(),
                _ => sig.as_str(),
            };
            sym.signature = Some(if head.starts_with("type ") { head.to_string() } else { format!("type {head}") });
        }
    }
    // Conversions to predeclared types are not calls, nor are their arguments values passed.
    let in_conversion = |line: u32, column: u32| {
        let p = tree_sitter::Point { row: line.saturating_sub(1) as usize, column: column as usize };
        let mut cur = root.descendant_for_point_range(p, p);
        while let Some(n) = cur {
            if n.kind() == "call_expression" {
                return n.child_by_field_name("function").is_some_and(|f| GO_TYPES.contains(&text(f, src.as_bytes())));
            }
            cur = n.parent();
        }
        false
    };
    facts.refs.retain(|r| match r.kind {
        RefKind::Call => !(r.receiver.is_none() && GO_TYPES.contains(&r.name.as_str())),
        RefKind::Reference => !in_conversion(r.line, r.column),
        _ => true,
    });
}
