//! `navegador export`: the graph, or a neighbourhood of it, as GraphML, DOT, Mermaid,
//! JSON Lines or Cypher (`navegador_analysis::export`), to stdout or `--out FILE`
//! (written beside it and renamed at the end, so a failed run leaves no half file).
//! Progress of a long run goes to stderr.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use navegador_analysis::export::{export, ExportAsk, Format};

use crate::db;

#[derive(clap::Args)]
#[command(after_help = "Without --scope the whole graph is written (streamed: memory stays bounded). \
--scope takes a workspace-relative file or folder, or a symbol's name or qualified name; the export \
is then its nodes and those within --depth hops (either direction), with the edges among them. \
Formats are described in docs/export.md.")]
pub struct Args {
    /// graphml (Gephi, yEd), dot (Graphviz), mermaid (a pull request), jsonl, cypher (Neo4j).
    #[arg(long, value_name = "FORMAT")]
    format: String,
    /// A file or folder path, or a symbol name: export its neighbourhood only.
    #[arg(long, value_name = "PATH|NAME")]
    scope: Option<String>,
    /// Hops from --scope.
    #[arg(long, value_name = "N", default_value_t = 1)]
    depth: u32,
    /// Only nodes with these labels (comma-separated or repeated), and the edges between them.
    #[arg(long, value_name = "LABEL,...", value_delimiter = ',')]
    labels: Vec<String>,
    /// Most nodes in a Mermaid diagram (the rest is cut, and the diagram says so).
    #[arg(long, value_name = "N", default_value_t = 100)]
    max_nodes: usize,
    /// Write here instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Graph database (default: NAVEGADOR_DB, then ./.navegador/graph.db).
    #[arg(long)]
    db: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let Some(format) = Format::parse(&a.format.to_ascii_lowercase()) else {
        anyhow::bail!("unknown export format `{}`; pass --format with one of {}", a.format, Format::NAMES.join(", "));
    };
    if a.depth > 10 {
        anyhow::bail!("--depth {} is more than 10 hops; a neighbourhood that deep is most of the graph: export without --scope instead", a.depth);
    }
    let path = db::resolve_db(a.db.as_deref(), std::path::Path::new("."));
    let store = db::open_ro(&path)?;
    let mut ask = ExportAsk::new(format);
    ask.scope = a.scope.clone();
    ask.depth = a.depth;
    ask.labels = a.labels.iter().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect();
    ask.mermaid_max_nodes = a.max_nodes;
    let known: Vec<String> = store.stats()?.labels.into_iter().map(|(l, _)| l).collect();
    if let Some(bad) = ask.labels.iter().find(|l| !known.contains(l)) {
        anyhow::bail!("no node has the label `{bad}`; the graph's labels are {}", known.join(", "));
    }
    let started = Instant::now();
    let mut last = started;
    let mut progress = |what: &'static str, done: u64, total: u64| {
        let now = Instant::now();
        if now.duration_since(started) > Duration::from_secs(2) && now.duration_since(last) > Duration::from_secs(1) {
            last = now;
            eprintln!("export: {what} {done}/{total}");
        }
    };
    let summary = match &a.out {
        None => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            let s = export(&store, &ask, &mut lock, &mut progress)?;
            lock.flush()?;
            s
        }
        Some(out) => {
            let partial = partial_path(out);
            let mut file = std::fs::File::create(&partial)
                .with_context(|| format!("cannot write {}; pass a writable --out path", out.display()))?;
            let written = export(&store, &ask, &mut file, &mut progress).and_then(|s| {
                file.sync_all().map_err(navegador_analysis::AnalysisError::Write)?;
                Ok(s)
            });
            match written {
                Ok(s) => {
                    std::fs::rename(&partial, out).with_context(|| format!("cannot write {}", out.display()))?;
                    s
                }
                Err(e) => {
                    let _ = std::fs::remove_file(&partial);
                    return Err(e.into());
                }
            }
        }
    };
    for n in &summary.notes {
        eprintln!("note: {n}");
    }
    if a.out.is_some() || started.elapsed() > Duration::from_secs(2) {
        eprintln!("export: {} nodes, {} edges ({:.1} s)", summary.nodes, summary.edges, started.elapsed().as_secs_f64());
    }
    Ok(ExitCode::SUCCESS)
}

fn partial_path(out: &std::path::Path) -> PathBuf {
    let mut name = out.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".partial");
    out.with_file_name(name)
}
