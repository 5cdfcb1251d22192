//! OCaml: a module (`module M = struct … end`, a functor) is a class-like of kind `module`,
//! whose functions are its members; `(** … *)` comments are docs without their markers; a
//! file is the module of its capitalized name (`lib/shop_cart.ml` is `Shop_cart`).

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: ocaml_post,
    prepare: no_prepare,
};

fn ocaml_post(root: Node, _src: &str, facts: &mut FileFacts) {
    let base = facts.path.rsplit('/').next().unwrap_or(&facts.path);
    let stem = base.split('.').next().unwrap_or(base);
    let mut c = stem.chars();
    facts.module = c.next().map(|f| f.to_uppercase().chain(c).collect());
    for s in &mut facts.symbols {
        if s.label == Label::Class && def_node(root, s).is_some_and(|d| d.kind() == "module_binding") {
            s.kind = Some("module");
        }
        if let Some(d) = &mut s.docstring {
            let t = d.trim().trim_start_matches("(*").trim_start_matches('*').trim_end_matches(")").trim_end_matches('*').trim();
            *d = t.to_string();
        }
    }
}
