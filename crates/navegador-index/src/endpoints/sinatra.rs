//! Sinatra routes: `get '/hello/:name' do … end` (and `post`, `put`, `patch`, `delete`,
//! `options`, `head`) at the top level of a file that requires `sinatra`, or in a class
//! that inherits from `Sinatra::Base` / `Sinatra::Application`. The handler is the block.

use navegador_lang::tree_sitter::Node;
use navegador_model::{FileFacts, Language};

use super::util::{descendants, join, line_of, text, unquote};
use super::{EndpointFact, Handler, REST};

const VERBS: [&str; 7] = ["get", "post", "put", "patch", "delete", "options", "head"];

pub(super) fn detect(lang: Language, src: &str, facts: &FileFacts) -> Vec<EndpointFact> {
    let requires = facts.imports.iter().any(|i| i.module == "sinatra" || i.module.starts_with("sinatra/"));
    if !requires && !src.contains("Sinatra::") {
        return Vec::new();
    }
    let Some(tree) = navegador_lang::parse(lang, src) else { return Vec::new() };
    let mut out = Vec::new();
    for c in descendants(tree.root_node(), "call") {
        if c.child_by_field_name("receiver").is_some() || c.child_by_field_name("block").is_none() {
            continue;
        }
        let verb = c.child_by_field_name("method").map(|m| text(m, src)).unwrap_or("");
        if !VERBS.contains(&verb) || !in_app(c, src, requires) {
            continue;
        }
        let first = c.child_by_field_name("arguments").and_then(|a| a.named_child(0));
        let Some(path) = first.filter(|a| a.kind() == "string").and_then(|a| unquote(text(a, src))) else { continue };
        let path = join("/", &path);
        out.push(EndpointFact {
            router: None,
            name: format!("{} {path}", verb.to_uppercase()),
            kind: REST,
            method: Some(verb.to_uppercase()),
            path: Some(path),
            framework: "sinatra",
            line: line_of(c),
            handler: Handler::None,
        });
    }
    out
}

/// At the top level of a classic app (`require 'sinatra'`), or inside a class whose
/// superclass is `Sinatra::Base` / `Sinatra::Application` (a modular app).
fn in_app(call: Node, src: &str, classic: bool) -> bool {
    let mut cur = call.parent();
    while let Some(n) = cur {
        match n.kind() {
            "class" => {
                let sup = n.child_by_field_name("superclass").map(|s| text(s, src)).unwrap_or("");
                return sup.contains("Sinatra::");
            }
            "method" | "singleton_method" | "block" | "do_block" => return false,
            _ => {}
        }
        cur = n.parent();
    }
    classic
}
