//! C: prototypes as `kind=declaration`, typedef signatures and declarator types.

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: c_post,
    prepare: no_prepare,
};

pub(crate) fn c_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    for i in 0..facts.symbols.len() {
        let Some(node) = symbol_node(root, &facts.symbols[i]) else { continue };
        let sym = &mut facts.symbols[i];
        // A class is no annotated value; a function's return type is in its signature.
        if matches!(sym.label, Label::Class | Label::Function) {
            sym.type_annotation = None;
        }
        match (sym.label, node.kind()) {
            // A prototype: a Function with kind=declaration; its definition, if any, is
            // the Function of the same name without a kind.
            (Label::Function, "declaration") => {
                sym.kind = Some("declaration");
                sym.signature = sym.signature.take().map(|s| s.trim_end_matches(';').trim_end().to_string());
            }
            // `typedef struct s {…} s_t;`: the alias spans its name; doc and head come
            // from the typedef.
            (Label::Class, "type_identifier") => {
                if let Some(def) = node.parent().filter(|p| p.kind() == "type_definition") {
                    sym.docstring = leading_comment(def, src);
                    let ty = def.child_by_field_name("type").map_or("", |t| {
                        let head = text(t, b);
                        head.split('{').next().unwrap_or(head).trim_end()
                    });
                    sym.signature = Some(format!("typedef {} {}", squash_ws(ty), sym.name));
                }
            }
            (Label::Class, "type_definition") => {
                let sig = text(node, b);
                let sig = match sig.split_once('{') {
                    Some((head, _)) => format!("{} {{ … }} {}", squash_ws(head), sym.name),
                    None => squash_ws(sig.trim_end_matches(';')),
                };
                sym.signature = Some(sig);
            }
            // `struct s {…} v;`: the variable spans its declarator; its type is `struct s`.
            (Label::Variable, "identifier" | "init_declarator" | "pointer_declarator") => {
                if let Some(t) = node.parent().and_then(|p| p.child_by_field_name("type")) {
                    let head = text(t, b);
                    sym.type_annotation = Some(squash_ws(head.split('{').next().unwrap_or(head)));
                }
            }
            (Label::Variable, "declaration" | "field_declaration") => {
                // `char *name` is a `char *`, `int v[3]` an `int[]`.
                let mut d = node.child_by_field_name("declarator");
                let mut suffix = String::new();
                while let Some(x) = d {
                    match x.kind() {
                        "init_declarator" => {}
                        "pointer_declarator" => suffix.push('*'),
                        "array_declarator" => suffix.push_str("[]"),
                        "function_declarator" => {
                            suffix = "(*)()".to_string();
                            break;
                        }
                        _ => break,
                    }
                    d = x.child_by_field_name("declarator");
                }
                if let Some(t) = &sym.type_annotation {
                    if !suffix.is_empty() {
                        let sep = if suffix.starts_with('*') { " " } else { "" };
                        sym.type_annotation = Some(format!("{t}{sep}{suffix}"));
                    }
                }
            }
            _ => {}
        }
    }
}
