//! Language knowledge: one pack per language (`languages/<id>/`: a manifest, a tags query,
//! a locals query, fixtures, and Rust hooks for what a query cannot say), the registry
//! built from them, and the generic extractor that turns a file's bytes into `FileFacts`.
//!
//! The extractor knows no language. A language is a grammar, query files whose captures
//! follow one vocabulary (tree-sitter's `tags` captures — `@definition.class`, `@name`,
//! `@reference.call` — extended with ours: receivers, imports, decorators, exports; all in
//! `languages/README.md`), a manifest of its rules (extensions, module paths, separator,
//! receiver, constructors) and a few hooks. Extraction never fails on bad code: a syntax
//! error still yields the file's valid facts plus a diagnostic.

mod binder;
mod builtins;
mod embed;
mod extract;
mod hooks;
mod manifest;
mod packs;
mod preprocess;
mod registry;
mod render;

pub use builtins::{builtins, is_builtin};
pub use extract::{extract, module_path_for, parse, prepared, warm_up, ExtractOptions};
pub use registry::{registry, PackError, Registry};
/// The tree-sitter version the grammars are built for, for callers that walk a [`parse`] tree.
pub use tree_sitter;
pub use render::render_facts;
