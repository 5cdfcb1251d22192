//! `navegador ui`: the graph explorer's pages and their JSON API on a local HTTP server
//! (`navegador-ui`), read-only, on the MCP server's HTTP stack (same checks, no MCP endpoint).

use std::path::PathBuf;
use std::process::ExitCode;

use navegador_mcp::{create_mcp_server, HttpOptions, ServerOptions};

use crate::mcp_serve::{serve_with, AccessArgs, Transport};
use crate::{budgets, db};

#[derive(clap::Args)]
pub struct Args {
    /// Address to bind. A non-loopback address requires --auth-token.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to bind; 0 picks a free one (printed on stderr).
    #[arg(long, default_value_t = 7333)]
    port: u16,
    /// The workspace the graph is of (source shown on symbol pages is read from here).
    #[arg(long, value_name = "DIR", default_value = ".")]
    workspace_root: PathBuf,
    /// Graph database (default: NAVEGADOR_DB, then WORKSPACE_ROOT/.navegador/graph.db).
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
    #[command(flatten)]
    access: AccessArgs,
    /// Wall-clock budget of one Cypher query from the console.
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    query_timeout_ms: u64,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let root = db::workspace_root(&a.workspace_root)?;
    let db_path = db::resolve_db(a.db.as_deref(), &root);
    if navegador_store::server_url(&db_path).is_none() && !db_path.exists() {
        anyhow::bail!(
            "no graph at {}: run `navegador ingest {}` first, or pass --db",
            navegador_store::display_location(&db_path),
            a.workspace_root.display()
        );
    }
    let mut opts = ServerOptions::new(&root, &db_path);
    opts.read_only = true;
    let memory = budgets::query_memory();
    opts.query_budget = navegador_mcp::QueryBudget {
        timeout: std::time::Duration::from_millis(a.query_timeout_ms),
        memory,
        memory_pool: budgets::pool_memory(memory),
        ..opts.query_budget
    };
    let server = create_mcp_server(opts);
    let mut ui = navegador_ui::mount(server.clone(), navegador_ui::PREFIX);
    ui.router = ui.router.merge(navegador_ui::root_redirect(navegador_ui::PREFIX));
    let http = HttpOptions { host: a.host, port: a.port, ..a.access.options() };
    serve_with(server, Transport::StreamableHttp, http, vec![ui], false)?;
    Ok(ExitCode::SUCCESS)
}
