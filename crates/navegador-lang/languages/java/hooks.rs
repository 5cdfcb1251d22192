//! Java: `static` methods, annotations shared by the fields of one declaration and
//! signatures without annotations.

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;

fn has_modifier(node: Node, src: &[u8], word: &str) -> bool {
    let mut c = node.walk();
    let found = node
        .children(&mut c)
        .find(|ch| ch.kind() == "modifiers")
        .is_some_and(|m| text(m, src).split_whitespace().any(|w| w == word));
    found
}


pub(crate) static HOOKS: Hooks = Hooks {
    post: java_post,
    prepare: no_prepare,
};

/// Java after assembly: `static` methods, annotations shared by the fields of one declaration,
/// signatures without annotations, and the declared types of call receivers.
fn java_post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    for i in 0..facts.symbols.len() {
        let def = def_node(root, &facts.symbols[i]);
        let sym = &mut facts.symbols[i];
        if sym.kind == Some("method") && def.is_some_and(|d| d.kind() == "method_declaration" && has_modifier(d, b, "static")) {
            sym.kind = Some("static");
        }
        // `@Inject private A a, b;`: the extractor hangs the annotation on one declarator.
        if sym.label == Label::Variable && !sym.decorators.is_empty() {
            let (range, decs) = (sym.range, sym.decorators.clone());
            // Symbols are in source order: the other declarators are the neighbours.
            let lo = facts.symbols[..i].iter().rposition(|o| o.range != range).map_or(0, |p| p + 1);
            for other in facts.symbols[lo..].iter_mut().take_while(|o| o.range == range) {
                if other.decorators.is_empty() {
                    other.decorators = decs.clone();
                }
            }
        }
        if let Some(sig) = &mut facts.symbols[i].signature {
            *sig = strip_annotations(sig).trim_end_matches(';').trim_end().to_string();
        }
    }
}
