//! The `navegador` binary: flags in, `run` out, errors mapped to exit codes in one place.

/// Appends a line to an output buffer (printed at the end through `emit`, so a closed
/// pipe is an error we can treat as success instead of a panic).
macro_rules! w {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

mod analysis_cmd;
mod budgets;
mod changes_cmd;
mod check_cmd;
mod editor_cmd;
mod export_cmd;
mod db;
mod ingest_cmd;
mod knowledge_cmd;
mod mcp_cmd;
mod mcp_serve;
mod query_cmd;
mod stats_cmd;
mod ui_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

// Cypher's memory budgets measure what a query holds through this allocator.
#[global_allocator]
static ALLOC: navegador_cypher::memory::CountingAlloc = navegador_cypher::memory::CountingAlloc;

/// navegador: a code + knowledge graph of your repository, for AI coding agents and people.
#[derive(Parser)]
#[command(name = "navegador", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Index a repository into the graph (incremental: only changed files are re-parsed).
    Ingest(ingest_cmd::Args),
    /// Counts by label and relationship type, and how well calls resolved.
    Stats(stats_cmd::Args),
    /// Print the facts extracted from one file (for debugging extraction).
    Parse(ingest_cmd::ParseArgs),
    /// Add (or update) a concept, rule, decision, person or domain by hand.
    Add(knowledge_cmd::AddArgs),
    /// Link code to a concept, rule, decision, owner or domain (kept across re-ingests).
    Annotate(knowledge_cmd::AnnotateArgs),
    /// Architecture decision records: `adr ingest DIR` (Nygard or MADR).
    Adr(knowledge_cmd::DirArgs),
    /// Wiki pages: `wiki ingest DIR` (markdown).
    Wiki(knowledge_cmd::DirArgs),
    /// Full-text search of code (exact names first, then prefixes, then text).
    Search(analysis_cmd::SearchArgs),
    /// Full-text search of the knowledge layer.
    SearchKnowledge(analysis_cmd::SearchArgs),
    /// The decisions and rules behind a piece of code (or what a decision governs).
    Rationale(analysis_cmd::NameArgs),
    /// Who owns a piece of code, and where each claim comes from.
    Owners(analysis_cmd::NameArgs),
    /// A concept and everything joined to it.
    Concept(analysis_cmd::MembersArgs),
    /// A domain and everything belonging to it.
    Domain(analysis_cmd::MembersArgs),
    /// Serve the graph to AI agents over MCP (stdio, or streamable HTTP).
    Mcp(mcp_cmd::Args),
    /// The graph explorer in a browser: search, symbols, files, endpoints, knowledge,
    /// impact, Cypher (read-only; `docs/ui.md`).
    Ui(ui_cmd::Args),
    /// Set up an agent client (OpenCode, Claude Code, Cursor, VS Code, Codex) to use navegador.
    Editor(editor_cmd::Args),
    /// Run an openCypher query (read-only unless --write; EXPLAIN prints the plan).
    Query(query_cmd::QueryArgs),
    /// Labels, relationship types and property keys, with counts.
    Schema(query_cmd::SchemaArgs),
    /// Run every rule's constraint; exit 1 when a critical rule is violated.
    Check(check_cmd::Args),
    /// What a change touches (working tree, --staged, a range, or a patch on stdin): changed
    /// symbols, their dependents, owners, rules, tests and a risk level.
    Changes(changes_cmd::Args),
    /// The graph, or a neighbourhood of it (--scope, --depth), as GraphML, DOT, Mermaid,
    /// JSON Lines or Cypher.
    Export(export_cmd::Args),
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("NAVEGADOR_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Ingest(a) => ingest_cmd::run(a),
        Command::Stats(a) => stats_cmd::run(a),
        Command::Parse(a) => ingest_cmd::parse(a),
        Command::Add(a) => knowledge_cmd::add(a),
        Command::Annotate(a) => knowledge_cmd::annotate(a),
        Command::Adr(a) => knowledge_cmd::dir_ingest(a, false),
        Command::Wiki(a) => knowledge_cmd::dir_ingest(a, true),
        Command::Search(a) => analysis_cmd::search(a, false),
        Command::SearchKnowledge(a) => analysis_cmd::search(a, true),
        Command::Rationale(a) => analysis_cmd::rationale(a),
        Command::Owners(a) => analysis_cmd::owners(a),
        Command::Concept(a) => analysis_cmd::members(a, navegador_model::Label::Concept),
        Command::Domain(a) => analysis_cmd::members(a, navegador_model::Label::Domain),
        Command::Mcp(a) => mcp_cmd::run(a),
        Command::Ui(a) => ui_cmd::run(a),
        Command::Editor(a) => editor_cmd::run(a),
        Command::Query(a) => query_cmd::query(a),
        Command::Schema(a) => query_cmd::schema(a),
        Command::Check(a) => check_cmd::run(a),
        Command::Changes(a) => changes_cmd::run(a),
        Command::Export(a) => export_cmd::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            if is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Writes to stdout; a broken pipe surfaces as an error that `main` maps to success.
pub(crate) fn emit(s: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    o.write_all(s.as_bytes())?;
    o.flush()
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}
