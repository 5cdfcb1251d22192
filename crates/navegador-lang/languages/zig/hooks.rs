//! Zig: a container's signature is its head (`pub const Cart = struct`), not its body.

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: zig_post,
    prepare: no_prepare,
};

fn zig_post(root: Node, src: &str, facts: &mut FileFacts) {
    for sym in facts.symbols.iter_mut().filter(|s| s.label == Label::Class) {
        let Some(node) = symbol_node(root, sym) else { continue };
        let body = src.get(node.start_byte()..node.end_byte()).and_then(|t| t.find('{'));
        if let (Some(sig), Some(at)) = (&mut sym.signature, body) {
            *sig = squash_ws(src[node.start_byte()..node.start_byte() + at].trim_end());
        }
    }
}
