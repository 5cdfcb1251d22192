//! The packs compiled in, one line each: the folder under `languages/`, the grammar and
//! the hooks. The order is the registry's (and so the order of the tools' `language`
//! enum); on an extension two packs claim, an undecided file goes to the first.

use crate::spec::{self, Hooks};

/// A pack as registered: its folder (`languages/<id>/`), grammar and Rust hooks.
pub(crate) struct PackDef {
    pub id: &'static str,
    pub grammar: fn() -> tree_sitter::Language,
    pub hooks: &'static Hooks,
}

pub(crate) static PACKS: &[PackDef] = &[
    PackDef { id: "typescript", grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(), hooks: &spec::TYPESCRIPT },
    PackDef { id: "tsx", grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(), hooks: &spec::TSX },
    PackDef { id: "javascript", grammar: || tree_sitter_javascript::LANGUAGE.into(), hooks: &spec::JAVASCRIPT },
    PackDef { id: "java", grammar: || tree_sitter_java::LANGUAGE.into(), hooks: &spec::JAVA },
    PackDef { id: "python", grammar: || tree_sitter_python::LANGUAGE.into(), hooks: &spec::PYTHON },
    PackDef { id: "go", grammar: || tree_sitter_go::LANGUAGE.into(), hooks: &spec::GO },
    PackDef { id: "rust", grammar: || tree_sitter_rust::LANGUAGE.into(), hooks: &spec::RUST },
    PackDef { id: "c", grammar: || tree_sitter_c::LANGUAGE.into(), hooks: &spec::C },
];
