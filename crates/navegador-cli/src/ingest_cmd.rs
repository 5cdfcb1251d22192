//! `navegador ingest PATH`: index a repository, with a progress bar on a terminal and a
//! summary (or `--json`) at the end.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use navegador_index::{ingest_resident, IngestConfig, Progress, Resident};
use serde_json::json;

use crate::db;
use crate::stats_cmd::pct;

#[derive(clap::Args)]
pub struct Args {
    /// The repository to index.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Graph database (default: NAVEGADOR_DB, then PATH/.navegador/graph.db).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Rebuild the code graph from scratch (hand-added knowledge is kept).
    #[arg(long)]
    clear: bool,
    /// With --clear: also wipe the knowledge layer (hand-added nodes and links).
    #[arg(long, requires = "clear")]
    all: bool,
    /// Leave out files matching this glob (gitignore syntax); repeatable.
    #[arg(long = "exclude", value_name = "GLOB")]
    excludes: Vec<String>,
    /// Skip files larger than this many bytes.
    #[arg(long, default_value_t = 1024 * 1024)]
    max_file_size: u64,
    /// Threads that parse files (default: one per core; 1 writes files in the walk's
    /// order, so node ids repeat from run to run).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    json: bool,
}

struct Bar(ProgressBar);

impl Progress for Bar {
    fn phase(&self, name: &str, total: u64) {
        self.0.set_position(0);
        if total > 0 {
            self.0.set_length(total);
            self.0.set_style(
                ProgressStyle::with_template("{prefix:>10} [{bar:30}] {pos}/{len} files, {rate} files/s, eta {eta}")
                    .unwrap()
                    .with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0}", s.per_sec());
                    })
                    .progress_chars("=> "),
            );
        } else {
            self.0.set_style(ProgressStyle::with_template("{prefix:>10} {spinner} {elapsed}").unwrap());
        }
        self.0.set_prefix(name.to_string());
        self.0.tick();
    }
    fn advance(&self, n: u64) {
        self.0.inc(n);
    }
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let root = a.path.canonicalize().with_context(|| format!("cannot open {}", a.path.display()))?;
    let db_path = db::resolve_db(a.db.as_deref(), &root);
    let mut store = if a.clear {
        let (store, aside) = db::open_for_rebuild(&db_path)?;
        if let Some(aside) = aside {
            eprintln!("warning: {} was damaged; moved it to {} and rebuilding the graph", db_path.display(), aside.display());
        }
        store
    } else {
        db::open_rw(&db_path)?
    };
    let cfg = IngestConfig { clear: a.clear, clear_all: a.all, excludes: a.excludes, max_file_size: a.max_file_size, jobs: a.jobs.map(|n| n as usize) };
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let c = cancel.clone();
        let _ = ctrlc::set_handler(move || c.store(true, Ordering::Relaxed));
    }
    let bar = if std::io::stderr().is_terminal() && !a.json {
        ProgressBar::new(0)
    } else {
        ProgressBar::hidden()
    };
    let progress = Bar(bar.clone());
    let mut table = Resident::default();
    let report = ingest_resident(&root, &mut store, &cfg, &progress, Some(&cancel), &mut table)?;
    // The process ends after the report: freeing a symbol table of every definition one
    // allocation at a time cost 6.5% of a one-file re-ingest's CPU on Django (`perf`), for
    // memory the exit returns at once.
    std::mem::forget(table);
    bar.finish_and_clear();
    let stats = store.stats()?;
    let count = |label: &str| stats.labels.iter().find(|(l, _)| l == label).map_or(0, |(_, n)| *n);
    let edges: u64 = stats.edge_types.iter().map(|(_, n)| n).sum();
    let calls_total: u64 = stats.call_sites.iter().map(|(_, n)| n).sum();
    if a.json {
        let out = json!({
            "files": report.files_seen,
            "functions": count("Function"),
            "methods": count("Method"),
            "classes": count("Class"),
            "variables": count("Variable"),
            "imports": count("Import"),
            "knowledge": navegador_store::KNOWLEDGE_LABELS.iter()
                .map(|l| (l.as_str().to_string(), json!(count(l.as_str()))))
                .collect::<serde_json::Map<_, _>>(),
            "nodes": stats.labels.iter().map(|(_, n)| n).sum::<u64>(),
            "edges": edges,
            "parsed": report.files_parsed,
            "unchanged": report.files_unchanged,
            "removed": report.files_removed,
            "files_by_language": report.files_by_language,
            "call_sites": stats.call_sites.iter().map(|(k, n)| (k.clone(), json!(n))).collect::<serde_json::Map<_, _>>(),
            "skipped": report.skipped.iter().map(|(p, r)| json!({"path": p, "reason": r})).collect::<Vec<_>>(),
            "diagnostics": report.diagnostics.iter().map(|(p, l, m)| json!({"path": p, "line": l, "message": m})).collect::<Vec<_>>(),
            "duration_ms": report.duration.as_millis() as u64,
            "db": navegador_store::display_location(&db_path),
        });
        crate::emit(&format!("{}\n", serde_json::to_string_pretty(&out)?))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    let langs: Vec<String> = report.files_by_language.iter().map(|(l, n)| format!("{l} {n}")).collect();
    w!(out, 
        "indexed {} files ({}) in {:.2}s -> {}",
        report.files_seen,
        if langs.is_empty() { "none".to_string() } else { langs.join(", ") },
        report.duration.as_secs_f64(),
        navegador_store::display_location(&db_path)
    );
    w!(out, 
        "  this run: {} parsed, {} unchanged, {} removed",
        report.files_parsed, report.files_unchanged, report.files_removed
    );
    w!(out, 
        "  graph: {} classes, {} functions, {} methods, {} variables, {} imports, {} relationships",
        count("Class"),
        count("Function"),
        count("Method"),
        count("Variable"),
        count("Import"),
        edges
    );
    let knowledge: Vec<String> = navegador_store::KNOWLEDGE_LABELS
        .iter()
        .filter(|l| count(l.as_str()) > 0)
        .map(|l| format!("{} {}", count(l.as_str()), l.as_str()))
        .collect();
    if !knowledge.is_empty() {
        w!(out, "  knowledge: {}", knowledge.join(", "));
    }
    if calls_total > 0 {
        let part: Vec<String> =
            stats.call_sites.iter().map(|(k, n)| format!("{k} {:.1}%", pct(*n, calls_total))).collect();
        w!(out, "  call sites: {calls_total} ({})", part.join(", "));
    }
    if !report.diagnostics.is_empty() {
        w!(out, "  {} problems (files indexed partially, knowledge entries skipped):", report.diagnostics.len());
        for (p, l, m) in report.diagnostics.iter().take(10) {
            w!(out, "    {p}:{l}: {m}");
        }
        if report.diagnostics.len() > 10 {
            w!(out, "    … and {} more (--json lists all)", report.diagnostics.len() - 10);
        }
    }
    if !report.skipped.is_empty() {
        w!(out, "  skipped {} files:", report.skipped.len());
        for (p, r) in report.skipped.iter().take(10) {
            w!(out, "    {p}: {r}");
        }
        if report.skipped.len() > 10 {
            w!(out, "    … and {} more (--json lists all)", report.skipped.len() - 10);
        }
    }
    crate::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub struct ParseArgs {
    /// A source file.
    file: PathBuf,
}

pub fn parse(a: ParseArgs) -> anyhow::Result<ExitCode> {
    let path = a.file.to_string_lossy().into_owned();
    let bytes = std::fs::read(&a.file).with_context(|| format!("cannot read {path}"))?;
    let registry = navegador_lang::registry();
    let lang = registry.detect(&path, &bytes).with_context(|| {
        let mut exts: Vec<String> = registry.languages().iter().flat_map(|l| l.info().extensions.iter().map(|e| format!(".{e}"))).collect();
        exts.dedup();
        format!("{path}: not a language navegador reads (its packs read {})", exts.join(" "))
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let facts = navegador_lang::extract(&path, &text, lang, &Default::default());
    crate::emit(&navegador_lang::render_facts(&facts))?;
    Ok(ExitCode::SUCCESS)
}
