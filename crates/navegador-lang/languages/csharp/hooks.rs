//! C#: what the queries cannot say — member kinds (constructor, destructor, static,
//! property, event), names of operators and destructors, field and return types,
//! signatures without their attributes, and `///` XML doc comments as text. Before
//! parsing, `prepare` blanks conditional-compilation lines in the middle of an expression
//! or a parameter list (`f(a\n#if TRACE\n, b\n#endif\n)`), which the grammar rejects.

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: csharp_post,
    prepare: csharp_prepare,
};

/// Conditional-compilation lines in the middle of an expression or a parameter list.
fn csharp_prepare(src: &str) -> Option<String> {
    blank_inline_conditionals(src, &["#if", "#elif", "#else", "#endif"], b",(")
}

fn csharp_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    for i in 0..facts.symbols.len() {
        let Some(node) = symbol_node(root, &facts.symbols[i]) else { continue };
        let sym = &mut facts.symbols[i];
        let rename = |sym: &mut navegador_model::SymbolFact, name: String| {
            sym.qualified_name = match sym.qualified_name.rsplit_once('.') {
                Some((q, _)) => format!("{q}.{name}"),
                None => name.clone(),
            };
            sym.name = name;
        };
        match node.kind() {
            "destructor_declaration" => {
                rename(sym, format!("~{}", sym.name));
                sym.kind = Some("destructor");
            }
            "operator_declaration" => rename(sym, format!("operator{}", sym.name)),
            "conversion_operator_declaration" => rename(sym, format!("operator {}", sym.name)),
            "method_declaration" if has_modifier(node, b, "static") => sym.kind = Some("static"),
            "property_declaration" => sym.kind = Some("property"),
            "event_declaration" | "event_field_declaration" => sym.kind = Some("event"),
            _ => {}
        }
        // a field's type is its declaration's; a method's is what it returns
        let ty = match node.kind() {
            "field_declaration" | "event_field_declaration" => {
                named_children(node).into_iter().find(|c| c.kind() == "variable_declaration").and_then(|v| v.child_by_field_name("type"))
            }
            "method_declaration" | "local_function_statement" => node.child_by_field_name("returns"),
            "delegate_declaration" | "record_declaration" => None,
            _ => node.child_by_field_name("type"),
        };
        sym.type_annotation = ty.map(|t| squash_ws(text(t, b)));
        if sym.label == Label::Class {
            sym.type_annotation = None;
        }
        if let Some(sig) = &mut sym.signature {
            *sig = strip_attributes(sig, "[").trim_end_matches(';').trim_end().to_string();
        }
        if let Some(doc) = &mut sym.docstring {
            *doc = xml_doc(doc);
        }
    }
}

fn has_modifier(node: Node, b: &[u8], word: &str) -> bool {
    named_children(node).iter().any(|c| c.kind() == "modifier" && text(*c, b) == word)
}

/// `<summary>A converter.</summary>` and `<param name="x">…</param>` -> their text, tags
/// dropped (`<see cref="T"/>` -> `T`).
fn xml_doc(doc: &str) -> String {
    let mut out = String::with_capacity(doc.len());
    let mut rest = doc;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            out.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let tag = &rest[open + 1..open + close];
        // `<see cref="T"/>` names T
        if let Some(at) = tag.find("cref=\"") {
            let name = &tag[at + 6..];
            out.push_str(name.split('"').next().unwrap_or(""));
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    let lines: Vec<&str> = out.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    lines.join("\n")
}
