//! `navegador mcp`: serve the graph to AI agents over MCP (stdio or streamable HTTP).
//! Stdout belongs to the protocol on stdio; everything else goes to stderr.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use navegador_mcp::{create_mcp_server, serve_http, shutdown_signal, HttpOptions, ServerOptions};

use crate::db;

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Transport {
    Stdio,
    StreamableHttp,
}

#[derive(clap::Args)]
pub struct Args {
    /// Graph database (default: NAVEGADOR_DB, then WORKSPACE_ROOT/.navegador/graph.db).
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Refuse `ingest` (and writing Cypher): agents can only read the graph.
    #[arg(long)]
    read_only: bool,
    /// Reject Cypher queries whose estimated cost exceeds N (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 0)]
    max_query_complexity: u64,
    #[arg(long, value_enum, default_value = "stdio")]
    transport: Transport,
    /// Address to bind (streamable-http). A non-loopback address requires --auth-token.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to bind (streamable-http); 0 picks a free one (printed on stderr).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// Endpoint path (streamable-http).
    #[arg(long, default_value = "/mcp")]
    path: String,
    /// The only tree the server reads or indexes; tool paths are relative to it.
    #[arg(long, value_name = "DIR", default_value = ".")]
    workspace_root: PathBuf,
    /// Require `Authorization: Bearer TOKEN` on every HTTP request.
    #[arg(long, env = "NAVEGADOR_AUTH_TOKEN", hide_env_values = true)]
    auth_token: Option<String>,
    /// Another accepted Host header value (streamable-http); repeatable.
    #[arg(long = "allowed-host", value_name = "HOST")]
    allowed_hosts: Vec<String>,
    /// Another accepted browser Origin, e.g. https://app.example.com:443; repeatable.
    #[arg(long = "allowed-origin", value_name = "ORIGIN")]
    allowed_origins: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let root = a
        .workspace_root
        .canonicalize()
        .with_context(|| format!("cannot open workspace root {}", a.workspace_root.display()))?;
    let db_path = db::resolve_db(a.db.as_deref(), &root);
    if db_path.to_string_lossy().contains("://") {
        anyhow::bail!("{}: database URLs are not supported yet; pass a SQLite file path", db_path.display());
    }
    let mut opts = ServerOptions::new(&root, &db_path);
    opts.read_only = a.read_only;
    opts.max_query_complexity = a.max_query_complexity;
    let server = create_mcp_server(opts);
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move {
        match a.transport {
            Transport::Stdio => server.serve_stdio().await,
            Transport::StreamableHttp => {
                let http = HttpOptions {
                    host: a.host,
                    port: a.port,
                    path: a.path,
                    auth_token: a.auth_token,
                    allowed_hosts: a.allowed_hosts,
                    allowed_origins: a.allowed_origins,
                    ..HttpOptions::default()
                };
                serve_http(server, http, shutdown_signal()).await
            }
        }
    })?;
    Ok(ExitCode::SUCCESS)
}
