//! Protocol Buffers: messages are class-likes of kind `message`, services of kind
//! `service` (their rpcs methods of kind `rpc`); qualified names are under the `package`
//! (`shop.v1.Cart.Item`). A message's, an enum's, a service's or an rpc's signature is its head,
//! the text before its body's `{`.

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: proto_post,
    prepare: no_prepare,
};

fn proto_post(root: Node, _src: &str, facts: &mut FileFacts) {
    for s in &mut facts.symbols {
        // (the name's parent is `message_name`: the definition is one up)
        let def = def_node(root, s).and_then(|n| n.parent());
        match (s.label, def.map(|d| d.kind())) {
            (Label::Class, Some("message")) => s.kind = Some("message"),
            (Label::Class, Some("service")) => s.kind = Some("service"),
            (Label::Method, Some("rpc")) => s.kind = Some("rpc"),
            _ => {}
        }
        if let Some(sig) = &mut s.signature {
            if let Some(head) = sig.split_once('{').map(|(h, _)| h.trim_end().to_string()) {
                *sig = head;
            }
        }
    }
}
