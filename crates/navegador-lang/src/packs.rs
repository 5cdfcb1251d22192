//! The packs compiled in, one line each: the folder under `languages/`, the grammar and
//! the hooks (`languages/<id>/hooks.rs`, declared here; a pack without one uses
//! `Hooks::NONE`). The order is the registry's (and so the order of the tools' `language`
//! enum); on an extension two packs claim, an undecided file goes to the first.

use crate::hooks::Hooks;

#[path = "../languages/bash/hooks.rs"]
mod bash;
#[path = "../languages/c/hooks.rs"]
mod c;
#[path = "../languages/cpp/hooks.rs"]
mod cpp;
#[path = "../languages/csharp/hooks.rs"]
mod csharp;
#[path = "../languages/elixir/hooks.rs"]
mod elixir;
#[path = "../languages/erlang/hooks.rs"]
mod erlang;
#[path = "../languages/flow/hooks.rs"]
mod flow;
#[path = "../languages/go/hooks.rs"]
mod go;
#[path = "../languages/haskell/hooks.rs"]
mod haskell;
#[path = "../languages/java/hooks.rs"]
mod java;
#[path = "../languages/javascript/hooks.rs"]
mod javascript;
#[path = "../languages/julia/hooks.rs"]
mod julia;
#[path = "../languages/kotlin/hooks.rs"]
mod kotlin;
#[path = "../languages/objc/hooks.rs"]
mod objc;
#[path = "../languages/ocaml/hooks.rs"]
mod ocaml;
#[path = "../languages/perl/hooks.rs"]
mod perl;
#[path = "../languages/php/hooks.rs"]
mod php;
#[path = "../languages/proto/hooks.rs"]
mod proto;
#[path = "../languages/ruby/hooks.rs"]
mod ruby;
#[path = "../languages/rust/hooks.rs"]
mod rust;
#[path = "../languages/scala/hooks.rs"]
mod scala;
#[path = "../languages/swift/hooks.rs"]
mod swift;
#[path = "../languages/typescript/hooks.rs"]
mod typescript;
#[path = "../languages/zig/hooks.rs"]
mod zig;

/// A pack as registered: its folder (`languages/<id>/`), grammar and Rust hooks.
pub(crate) struct PackDef {
    pub id: &'static str,
    pub grammar: fn() -> tree_sitter::Language,
    pub hooks: &'static Hooks,
}

pub(crate) static PACKS: &[PackDef] = &[
    PackDef { id: "typescript", grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(), hooks: &typescript::HOOKS },
    PackDef { id: "tsx", grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(), hooks: &typescript::TSX },
    PackDef { id: "javascript", grammar: || tree_sitter_javascript::LANGUAGE.into(), hooks: &javascript::HOOKS },
    PackDef { id: "flow", grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(), hooks: &flow::HOOKS },
    PackDef { id: "java", grammar: || tree_sitter_java::LANGUAGE.into(), hooks: &java::HOOKS },
    PackDef { id: "python", grammar: || tree_sitter_python::LANGUAGE.into(), hooks: &Hooks::NONE },
    PackDef { id: "go", grammar: || tree_sitter_go::LANGUAGE.into(), hooks: &go::HOOKS },
    PackDef { id: "rust", grammar: || tree_sitter_rust::LANGUAGE.into(), hooks: &rust::HOOKS },
    PackDef { id: "c", grammar: || tree_sitter_c::LANGUAGE.into(), hooks: &c::HOOKS },
    PackDef { id: "kotlin", grammar: || tree_sitter_kotlin_ng::LANGUAGE.into(), hooks: &kotlin::HOOKS },
    PackDef { id: "swift", grammar: || tree_sitter_swift::LANGUAGE.into(), hooks: &swift::HOOKS },
    PackDef { id: "cpp", grammar: || tree_sitter_cpp::LANGUAGE.into(), hooks: &cpp::HOOKS },
    PackDef { id: "csharp", grammar: || tree_sitter_c_sharp::LANGUAGE.into(), hooks: &csharp::HOOKS },
    PackDef { id: "php", grammar: || tree_sitter_php::LANGUAGE_PHP.into(), hooks: &php::HOOKS },
    PackDef { id: "ruby", grammar: || tree_sitter_ruby::LANGUAGE.into(), hooks: &ruby::HOOKS },
    PackDef { id: "bash", grammar: || tree_sitter_bash::LANGUAGE.into(), hooks: &bash::HOOKS },
    PackDef { id: "lua", grammar: || tree_sitter_lua::LANGUAGE.into(), hooks: &Hooks::NONE },
    PackDef { id: "erlang", grammar: || tree_sitter_erlang::LANGUAGE.into(), hooks: &erlang::HOOKS },
    PackDef { id: "ocaml", grammar: || tree_sitter_ocaml::LANGUAGE_OCAML.into(), hooks: &ocaml::HOOKS },
    PackDef { id: "scala", grammar: || tree_sitter_scala::LANGUAGE.into(), hooks: &scala::HOOKS },
    PackDef { id: "zig", grammar: || tree_sitter_zig::LANGUAGE.into(), hooks: &zig::HOOKS },
    PackDef { id: "elixir", grammar: || tree_sitter_elixir::LANGUAGE.into(), hooks: &elixir::HOOKS },
    PackDef { id: "objc", grammar: || tree_sitter_objc::LANGUAGE.into(), hooks: &objc::HOOKS },
    PackDef { id: "graphql", grammar: || tree_sitter_graphql::LANGUAGE.into(), hooks: &Hooks::NONE },
    PackDef { id: "dart", grammar: || tree_sitter_dart::LANGUAGE.into(), hooks: &Hooks::NONE },
    PackDef { id: "julia", grammar: || tree_sitter_julia::LANGUAGE.into(), hooks: &julia::HOOKS },
    PackDef { id: "r", grammar: || tree_sitter_r::LANGUAGE.into(), hooks: &Hooks::NONE },
    PackDef { id: "proto", grammar: || tree_sitter_proto::LANGUAGE.into(), hooks: &proto::HOOKS },
    PackDef { id: "haskell", grammar: || tree_sitter_haskell::LANGUAGE.into(), hooks: &haskell::HOOKS },
    PackDef { id: "svelte", grammar: || tree_sitter_svelte_ng::LANGUAGE.into(), hooks: &Hooks::NONE },
    PackDef { id: "vue", grammar: || tree_sitter_vue_next::LANGUAGE.into(), hooks: &Hooks::NONE },
    PackDef { id: "perl", grammar: || ts_parser_perl::LANGUAGE.into(), hooks: &perl::HOOKS },
];
