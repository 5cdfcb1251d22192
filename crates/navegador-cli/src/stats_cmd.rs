//! `navegador stats`: counts by label and relationship type, and call resolution rates.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;

use crate::db;

#[derive(clap::Args)]
pub struct Args {
    /// Graph database (default: NAVEGADOR_DB, then ./.navegador/graph.db).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let path = db::resolve_db(a.db.as_deref(), std::path::Path::new("."));
    let store = db::open_ro(&path)?;
    let s = store.stats()?;
    let total_calls: u64 = s.call_sites.iter().map(|(_, n)| n).sum();
    if a.json {
        let map = |v: &[(String, u64)]| serde_json::Value::Object(v.iter().map(|(k, n)| (k.clone(), json!(n))).collect());
        let share: serde_json::Map<String, serde_json::Value> = s
            .call_sites
            .iter()
            .map(|(k, n)| (k.clone(), json!(if total_calls == 0 { 0.0 } else { *n as f64 / total_calls as f64 })))
            .collect();
        let out = json!({
            "db": navegador_store::display_location(&path),
            "labels": map(&s.labels),
            "relationships": map(&s.edge_types),
            "files_by_language": map(&s.files_by_language),
            "call_sites": map(&s.call_sites),
            "call_resolution_share": share,
            "skipped": s.skipped.iter().map(|(p, r)| json!({"path": p, "reason": r})).collect::<Vec<_>>(),
        });
        crate::emit(&format!("{}\n", serde_json::to_string_pretty(&out)?))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    w!(out, "graph {}", navegador_store::display_location(&path));
    w!(out, "\nnodes by label:");
    for (l, n) in &s.labels {
        w!(out, "  {l:<12} {n:>10}");
    }
    w!(out, "\nrelationships by type:");
    for (t, n) in &s.edge_types {
        w!(out, "  {t:<12} {n:>10}");
    }
    w!(out, "\ncall sites ({total_calls}):");
    for (st, n) in &s.call_sites {
        w!(out, "  {st:<12} {n:>10}  {:5.1}%", pct(*n, total_calls));
    }
    if !s.skipped.is_empty() {
        w!(out, "\nskipped files: {}", s.skipped.len());
    }
    crate::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

pub fn pct(n: u64, total: u64) -> f64 {
    if total == 0 { 0.0 } else { 100.0 * n as f64 / total as f64 }
}
