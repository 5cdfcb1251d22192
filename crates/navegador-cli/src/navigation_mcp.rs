//! `navigation-mcp`: the six `code.*` navigation tools alone, with the original server's
//! command line (`--transport stdio|streamable-http`, `--host`, `--port`, `--path`,
//! `NAVIGATION_MCP_WORKSPACE_ROOT`), answered from navegador's live index of the workspace
//! (`.navegador/graph.db` under the root, built on start and kept fresh by a file watcher).

#[path = "mcp_serve.rs"]
mod mcp_serve;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use navegador_mcp::{create_mcp_server, ServerOptions};

use mcp_serve::{serve, HttpArgs, ToolNames, Transport};

/// Code navigation tools (code.find_symbol, code.inspect_tree, code.list_endpoints,
/// code.search_text, code.trace_symbol, code.trace_callers) over MCP.
#[derive(Parser)]
#[command(name = "navigation-mcp", version)]
struct Args {
    #[arg(long, value_enum, default_value = "stdio")]
    transport: Transport,
    #[command(flatten)]
    http: HttpArgs,
    /// The workspace to analyze (default: the current directory).
    #[arg(long, env = "NAVIGATION_MCP_WORKSPACE_ROOT", value_name = "DIR")]
    workspace_root: Option<PathBuf>,
    /// Graph database (default: WORKSPACE_ROOT/.navegador/graph.db).
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Names of the tools: dotted (`code.find_symbol`) or underscore (`code_find_symbol`).
    #[arg(long, value_enum, default_value = "dotted")]
    tool_names: ToolNames,
    /// Answer from the existing index only: do not index on start nor watch the files.
    #[arg(long)]
    no_watch: bool,
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("NAVEGADOR_LOG").unwrap_or_else(|_| "warn".into()))
        .init();
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("navigation-mcp: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(a: Args) -> anyhow::Result<()> {
    let root = match a.workspace_root.filter(|p| !p.as_os_str().is_empty()) {
        Some(p) => p,
        None => std::env::current_dir()?,
    };
    let root = root.canonicalize().with_context(|| format!("cannot open workspace root {}", root.display()))?;
    anyhow::ensure!(root.is_dir(), "workspace root {} is not a directory", root.display());
    let db = match a.db {
        Some(p) => p,
        None => root.join(".navegador").join("graph.db"),
    };
    let mut opts = ServerOptions::new(&root, &db);
    opts.navegador_tools = false;
    opts.code_tools = true;
    opts.tool_names = a.tool_names.style();
    opts.live = !a.no_watch;
    let server = create_mcp_server(opts);
    serve(server, a.transport, a.http.options())
}
