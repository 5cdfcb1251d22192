//! Serving a configured MCP server over stdio or streamable HTTP (shared by `navegador mcp`
//! and `navigation-mcp`). Stdout belongs to the protocol on stdio; logs go to stderr.

use navegador_mcp::{serve_http, shutdown_signal, HttpOptions, NavegadorServer};

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Transport {
    Stdio,
    StreamableHttp,
}

#[derive(Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ToolNames {
    /// `code.find_symbol` (the spec's names)
    #[default]
    Dotted,
    /// `code_find_symbol`, for clients that reject dots in tool names
    Underscore,
}

impl ToolNames {
    pub fn style(self) -> navegador_mcp::NameStyle {
        match self {
            ToolNames::Dotted => navegador_mcp::NameStyle::Dotted,
            ToolNames::Underscore => navegador_mcp::NameStyle::Underscore,
        }
    }
}

/// Runs `server` until the client disconnects (stdio) or a shutdown signal (HTTP).
pub fn serve(server: NavegadorServer, transport: Transport, http: HttpOptions) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move {
        match transport {
            Transport::Stdio => server.serve_stdio().await,
            Transport::StreamableHttp => serve_http(server, http, shutdown_signal()).await,
        }
    })?;
    Ok(())
}
