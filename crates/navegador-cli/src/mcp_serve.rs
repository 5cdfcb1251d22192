//! Serving a configured MCP server over stdio or streamable HTTP (shared by `navegador mcp`
//! and `navigation-mcp`). Stdout belongs to the protocol on stdio; logs go to stderr.

use navegador_mcp::{serve_http_with, shutdown_signal, HttpOptions, Mount, NavegadorServer};

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

/// How to listen with `--transport streamable-http` (shared by both servers' command lines).
#[derive(clap::Args)]
pub struct HttpArgs {
    /// Address to bind (streamable-http). A non-loopback address requires --auth-token.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to bind (streamable-http); 0 picks a free one (printed on stderr).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// Endpoint path (streamable-http).
    #[arg(long, default_value = "/mcp")]
    path: String,
    #[command(flatten)]
    access: AccessArgs,
    /// Close a connection that has not sent a whole request header within MS milliseconds
    /// (also a kept-alive connection idle that long) (streamable-http).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    header_timeout_ms: u64,
    /// Refuse (408) a request whose body has not arrived within MS milliseconds (streamable-http).
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    body_timeout_ms: u64,
    /// Most connections open at once, SSE streams included; more get 503 (streamable-http).
    #[arg(long, value_name = "N", default_value_t = 512)]
    max_connections: usize,
}

impl HttpArgs {
    pub fn options(self) -> HttpOptions {
        HttpOptions {
            host: self.host,
            port: self.port,
            path: self.path,
            header_timeout: std::time::Duration::from_millis(self.header_timeout_ms.max(1)),
            body_timeout: std::time::Duration::from_millis(self.body_timeout_ms.max(1)),
            max_connections: self.max_connections.max(1),
            ..self.access.options()
        }
    }
}

/// Who may call an HTTP server: its token and the Host/Origin values it accepts beside
/// loopback (shared by `navegador mcp`, `navigation-mcp` and `navegador ui`).
#[derive(clap::Args)]
pub struct AccessArgs {
    /// Require `Authorization: Bearer TOKEN` on every HTTP request (a browser opens
    /// /ui/?token=TOKEN once; a cookie keeps it).
    #[arg(long, env = "NAVEGADOR_AUTH_TOKEN", hide_env_values = true)]
    auth_token: Option<String>,
    /// Another accepted Host header value; repeatable.
    #[arg(long = "allowed-host", value_name = "HOST")]
    allowed_hosts: Vec<String>,
    /// Another accepted browser Origin, e.g. https://app.example.com:443; repeatable.
    #[arg(long = "allowed-origin", value_name = "ORIGIN")]
    allowed_origins: Vec<String>,
}

impl AccessArgs {
    /// The default HTTP options with these checks.
    pub fn options(self) -> HttpOptions {
        HttpOptions {
            auth_token: self.auth_token,
            allowed_hosts: self.allowed_hosts,
            allowed_origins: self.allowed_origins,
            ..HttpOptions::default()
        }
    }
}

/// Runs `server` until the client disconnects (stdio) or a shutdown signal (HTTP).
#[allow(dead_code)] // navigation-mcp's; `navegador` serves through `serve_with`
pub fn serve(server: NavegadorServer, transport: Transport, http: HttpOptions) -> anyhow::Result<()> {
    serve_with(server, transport, http, Vec::new(), true)
}

/// [`serve`] with pages mounted beside the MCP endpoint (HTTP only), or only the pages
/// when `mcp` is false (`navegador ui`).
pub fn serve_with(server: NavegadorServer, transport: Transport, http: HttpOptions, mounts: Vec<Mount>, mcp: bool) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move {
        match transport {
            Transport::Stdio => server.serve_stdio().await,
            Transport::StreamableHttp => serve_http_with(server, http, mounts, mcp, shutdown_signal()).await,
        }
    })?;
    Ok(())
}
