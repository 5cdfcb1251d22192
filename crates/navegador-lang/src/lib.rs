//! Language knowledge: tree-sitter grammars, one query file per language, and the generic
//! extractor that turns a file's bytes into `FileFacts`.
//!
//! The extractor knows no language. A language is a grammar, a query file whose captures
//! follow one vocabulary (`@def.class`, `@name`, `@call`, `@call.name`, `@import.module`, …,
//! documented in `queries/README.md`) and a small `LangSpec` of hooks for what a query
//! cannot say (where a docstring lives, what "exported" means, a file's module path).
//! Extraction never fails on bad code: a syntax error still yields the file's valid facts
//! plus a diagnostic.

mod builtins;
mod extract;
mod render;
mod spec;

pub use builtins::{builtins, is_builtin};
pub use extract::{extract, parse, ExtractOptions};
/// The tree-sitter version the grammars are built for, for callers that walk a [`parse`] tree.
pub use tree_sitter;
pub use render::render_facts;
pub use spec::module_path_for;
