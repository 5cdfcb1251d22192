//! `navegador mcp`: serve the graph to AI agents over MCP (stdio or streamable HTTP):
//! navegador's 11 tools and the six `code.*` navigation tools over one index.

use std::path::PathBuf;
use std::process::ExitCode;

use navegador_mcp::{create_mcp_server, ServerOptions};

use crate::{budgets, db};
use crate::mcp_serve::{serve_with, HttpArgs, ToolNames, Transport};

#[derive(clap::Args)]
pub struct Args {
    /// Graph database (default: NAVEGADOR_DB, then WORKSPACE_ROOT/.navegador/graph.db).
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Refuse `ingest` (and writing Cypher): agents can only read the graph. Implies --no-watch.
    #[arg(long)]
    read_only: bool,
    /// Reject Cypher queries whose estimated cost exceeds N (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 0)]
    max_query_complexity: u64,
    /// Wall-clock budget of one Cypher `query`, from its arrival to the answer.
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    query_timeout_ms: u64,
    /// Memory one Cypher query may hold (default: a sixteenth of the machine's memory,
    /// 64 to 512 MiB; 0: no budget).
    #[arg(long, value_name = "MIB")]
    max_query_memory_mb: Option<u64>,
    /// Memory all running Cypher queries may hold together (default: a quarter of the
    /// machine's memory, at most 2 GiB); a query waits for it or is refused.
    #[arg(long, value_name = "MIB")]
    query_memory_pool_mb: Option<u64>,
    #[arg(long, value_enum, default_value = "stdio")]
    transport: Transport,
    /// The only tree the server reads or indexes; tool paths are relative to it.
    #[arg(long, value_name = "DIR", default_value = ".")]
    workspace_root: PathBuf,
    #[command(flatten)]
    http: HttpArgs,
    /// Do not index the workspace on start nor watch it (agents call `ingest` themselves).
    #[arg(long)]
    no_watch: bool,
    /// Names of the `code.*` tools.
    #[arg(long, value_enum, default_value = "dotted")]
    tool_names: ToolNames,
    /// Also serve the graph explorer's pages under /ui (streamable-http), behind the same
    /// token and Host/Origin checks (`docs/ui.md`).
    #[arg(long)]
    ui: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let root = db::workspace_root(&a.workspace_root)?;
    let db_path = db::resolve_db(a.db.as_deref(), &root);
    if db_path.to_string_lossy().contains("://") && navegador_store::server_url(&db_path).is_none() {
        anyhow::bail!(
            "{}: unsupported database URL; use a SQLite file path or a postgres:// (postgresql://) URL",
            navegador_store::display_location(&db_path)
        );
    }
    let mut opts = ServerOptions::new(&root, &db_path);
    opts.read_only = a.read_only;
    opts.max_query_complexity = a.max_query_complexity;
    let memory = a.max_query_memory_mb.map_or_else(budgets::query_memory, budgets::mib);
    opts.query_budget = navegador_mcp::QueryBudget {
        timeout: std::time::Duration::from_millis(a.query_timeout_ms),
        memory,
        memory_pool: a.query_memory_pool_mb.map_or_else(|| budgets::pool_memory(memory), budgets::mib),
        ..opts.query_budget
    };
    opts.live = !a.no_watch && !a.read_only;
    opts.tool_names = a.tool_names.style();
    if a.ui && a.transport != Transport::StreamableHttp {
        anyhow::bail!("--ui serves pages over HTTP: add --transport streamable-http (or run `navegador ui`)");
    }
    let server = create_mcp_server(opts);
    let mounts = if a.ui { vec![navegador_ui::mount(server.clone(), navegador_ui::PREFIX)] } else { Vec::new() };
    serve_with(server, a.transport, a.http.options(), mounts, true)?;
    Ok(ExitCode::SUCCESS)
}
