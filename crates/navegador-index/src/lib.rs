//! Indexing: walk a workspace, detect what changed, extract facts in parallel, write them in
//! one transaction, and resolve references across files.
//!
//! Data flow: `walk` -> change detection (size, mtime, content hash against the `files`
//! table) -> `navegador_lang::extract` on a rayon pool, streamed to the single writer ->
//! `resolve` over the affected reference sites -> commit. A crash or a cancel before the
//! commit leaves the previous graph whole.

pub mod endpoints;
mod ingest;
mod resolve;
mod walk;

pub use ingest::{ingest, ingest_paths, ingest_resident, IngestConfig, IngestReport, NoProgress, Progress, Resident};
pub use walk::{Walked, WalkedFile, HARD_IGNORED};

use std::path::PathBuf;

/// Errors that stop an ingest. Per-file problems are not errors: they are skipped files.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("{path} is not a directory")]
    NotADirectory { path: PathBuf },
    #[error("invalid --exclude glob {glob:?}: {message}")]
    BadGlob { glob: String, message: String },
    #[error("ingest cancelled; the previous graph is unchanged")]
    Cancelled,
    #[error("cannot start {jobs} parsing threads: {message} (try a smaller --jobs)")]
    Threads { jobs: usize, message: String },
    #[error(transparent)]
    Store(#[from] navegador_store::StoreError),
}
