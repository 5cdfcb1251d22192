//! `ingest` as a question with an answer: index a workspace, then report what the graph
//! holds now.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use navegador_index::{IngestConfig, Progress};
use navegador_store::Store;

use crate::types::{Diagnostic, IngestionResult, SkippedFile};
use crate::Result;

/// Indexes `root` into `store` (incrementally unless `cfg.clear`) and summarises.
pub fn ingest(
    root: &Path,
    store: &mut Store,
    cfg: &IngestConfig,
    progress: &dyn Progress,
    cancel: Option<&AtomicBool>,
) -> Result<IngestionResult> {
    let report = navegador_index::ingest(root, store, cfg, progress, cancel)?;
    let stats = store.stats()?;
    let map = |v: Vec<(String, u64)>| v.into_iter().collect::<BTreeMap<_, _>>();
    Ok(IngestionResult {
        files: report.files_seen,
        parsed: report.files_parsed,
        unchanged: report.files_unchanged,
        removed: report.files_removed,
        files_by_language: report.files_by_language,
        relationships: stats.edge_types.iter().map(|(_, n)| n).sum(),
        symbols: map(stats.labels),
        call_sites: map(stats.call_sites),
        skipped: report.skipped.into_iter().map(|(path, reason)| SkippedFile { path, reason }).collect(),
        diagnostics: report
            .diagnostics
            .into_iter()
            .map(|(path, line, message)| Diagnostic { path, line, message })
            .collect(),
        duration_ms: report.duration.as_millis() as u64,
    })
}
