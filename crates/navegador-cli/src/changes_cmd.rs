//! `navegador changes`: the impact of a diff (working tree, index, a range, or a patch on
//! stdin) as text, JSON or a markdown review comment; `--fail-on LEVEL` exits 1 when a
//! changed symbol reaches that risk, so CI can gate on it.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use navegador_analysis::changes::{self, ChangesOptions, Risk, Source};

use crate::db;

#[derive(clap::Args)]
pub struct Args {
    /// A commit range (`main...HEAD`: since the merge base; `A..B`; one commit), or `-` to
    /// read a unified diff on stdin (for CI systems that hand over a patch, or outside git).
    /// Default: the working tree (untracked files included) against HEAD.
    #[arg(value_name = "RANGE|-")]
    range: Option<String>,
    /// Compare against this commit instead of HEAD (working tree or --staged).
    #[arg(long, value_name = "REF")]
    base: Option<String>,
    /// Compare the index (what `git commit` would record) instead of the working tree.
    #[arg(long)]
    staged: bool,
    /// Print the report as JSON.
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// Print the report as a markdown review comment (for a CI job to post).
    #[arg(long)]
    markdown: bool,
    /// Exit 1 when any changed symbol's risk is at least LEVEL (low, medium, high, critical).
    #[arg(long, value_name = "LEVEL")]
    fail_on: Option<String>,
    /// Dependents traversal depth.
    #[arg(long, default_value_t = 3)]
    depth: i64,
    /// Changed symbols listed (riskiest first; the rest are counted).
    #[arg(long, default_value_t = 20)]
    limit: usize,
    /// Changed symbols skipped at the head of the list.
    #[arg(long, default_value_t = 0)]
    offset: usize,
    /// The repository (workspace root the graph was ingested from).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Graph database (default: NAVEGADOR_DB, then ROOT/.navegador/graph.db).
    #[arg(long)]
    db: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let fail_on = a.fail_on.as_deref().map(Risk::parse).transpose()?;
    let source = match a.range.as_deref() {
        Some("-") => {
            if a.staged || a.base.is_some() {
                anyhow::bail!("`-` reads a patch on stdin; --staged and --base apply to git only (drop them)");
            }
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).context("cannot read the diff on stdin (it must be text)")?;
            Source::Patch(text)
        }
        Some(r) => {
            if a.staged || a.base.is_some() {
                anyhow::bail!("a range names both sides; --staged and --base apply to the working tree only (drop them, or drop the range)");
            }
            Source::Range(r.to_string())
        }
        None if a.staged => Source::Staged { base: a.base.clone() },
        None => Source::WorkingTree { base: a.base.clone() },
    };
    let root = a.root.canonicalize().with_context(|| format!("cannot open {}", a.root.display()))?;
    let store = db::open_ro(&db::resolve_db(a.db.as_deref(), &root))?;
    let opts = ChangesOptions { depth: a.depth, limit: a.limit, offset: a.offset, ..ChangesOptions::default() };
    let report = changes::changes(&store, &root, &source, &opts, &navegador_analysis::Limits::default())?;
    let out = if a.json {
        format!("{}\n", serde_json::to_string_pretty(&report)?)
    } else if a.markdown {
        changes::render_markdown(&report)
    } else {
        changes::render_text(&report)
    };
    crate::emit(&out)?;
    Ok(match fail_on {
        Some(level) if report.risk >= level => {
            eprintln!("risk {} reaches --fail-on {}", report.risk.as_str(), level.as_str());
            ExitCode::from(1)
        }
        _ => ExitCode::SUCCESS,
    })
}
