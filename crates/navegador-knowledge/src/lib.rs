//! The knowledge layer: concepts, rules, decisions, documents, wiki pages, people and
//! domains, and their links to code.
//!
//! The key design decision: code nodes get new ids on every re-parse, so every link from
//! knowledge to code is kept as data (`knowledge_links`: target label + qualified name +
//! file, or the text a document mentions) and re-materialized as edges after each code
//! ingest ([`sync`], called by `navegador_index::ingest` before its commit). Knowledge
//! nodes themselves have no file and survive code re-ingest and `--clear`.
//!
//! Sources: by hand ([`add_node`], [`annotate`]), ADRs ([`adr`]), CODEOWNERS
//! ([`codeowners`]), markdown docs and wiki pages ([`docs`]) and in-code annotations
//! ([`annotations`]). Reads for agents: [`get_rationale`], [`find_owners`], [`members`],
//! [`search`].

pub mod adr;
mod analysis;
pub mod annotations;
pub mod codeowners;
pub mod docs;
mod markdown;
mod nodes;
mod sync;

pub use analysis::{
    find_owners, get_rationale, members, resolve_subject, search, Member, Owner, Rationale, RationaleEntry,
    SearchScope,
};
pub use nodes::{add_node, annotate, AnnotateWith, Annotated, NodeSpec};
pub use sync::{ingest_adr_dir, ingest_wiki_dir, materialize, sync, SyncReport};

use std::path::PathBuf;

use navegador_store::{NodeRow, StoreError};

/// Errors of the knowledge layer. Bad input inside a source file is not an error: it is a
/// [`Warning`] and the rest is ingested.
#[derive(Debug, thiserror::Error)]
pub enum KnowledgeError {
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("nothing named {name:?}{}", file.as_ref().map(|f| format!(" in {f}")).unwrap_or_default())]
    NotFound { name: String, file: Option<String> },
    #[error("{name:?} matches {} nodes; pass --file PATH to choose one of:\n  {}", candidates.len(), candidates.join("\n  "))]
    Ambiguous { name: String, candidates: Vec<String> },
    #[error("invalid {what} {value:?}: expected one of {expected}")]
    Invalid { what: &'static str, value: String, expected: &'static str },
    #[error(transparent)]
    Store(#[from] StoreError),
}

pub type Result<T, E = KnowledgeError> = std::result::Result<T, E>;

/// A problem in a source file that made navegador skip one entry.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Warning {
    pub path: String,
    pub line: u32,
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.path, self.line, self.message)
    }
}

/// A one-line description of a node: `Label qualified-name (file:line)`.
pub fn describe(n: &NodeRow) -> String {
    let name = n.qualified_name.as_deref().filter(|q| !q.is_empty() && n.file_path.is_some()).or(n.name.as_deref()).unwrap_or("");
    match (&n.file_path, n.line_start) {
        (Some(f), Some(l)) if n.label != "File" => format!("{} {} ({}:{})", n.label, name, f, l),
        (Some(f), _) if n.label != "File" => format!("{} {} ({})", n.label, name, f),
        _ => format!("{} {}", n.label, name),
    }
}
