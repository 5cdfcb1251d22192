//! Streamable HTTP for teams: loopback by default; Host and Origin checked against DNS
//! rebinding; a bearer token (required for a non-loopback bind); bounded request bodies;
//! graceful shutdown; every session served from the same store.

use std::future::Future;
use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use crate::NavegadorServer;

/// Where and how to listen.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    pub host: String,
    pub port: u16,
    /// The endpoint path (`/mcp`).
    pub path: String,
    /// When set, every request must carry `Authorization: Bearer <token>`.
    pub auth_token: Option<String>,
    /// Extra accepted `Host` values (the names clients use to reach a non-loopback bind).
    pub allowed_hosts: Vec<String>,
    /// Extra accepted browser `Origin`s (`https://app.example.com:443`); loopback origins
    /// are always accepted, requests without `Origin` (non-browser clients) too.
    pub allowed_origins: Vec<String>,
    /// Largest accepted request body.
    pub max_body_bytes: usize,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            host: "127.0.0.1".into(),
            port: 8000,
            path: "/mcp".into(),
            auth_token: None,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            max_body_bytes: 4 * 1024 * 1024,
        }
    }
}

fn is_loopback(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost") || h.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn is_unspecified(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h.parse::<IpAddr>().is_ok_and(|ip| ip.is_unspecified())
}

/// Serves until `shutdown` resolves, then stops accepting, closes sessions and returns.
/// Prints `listening on http://ADDR/PATH` to stderr once bound (port 0 picks a free one).
pub async fn serve_http(
    server: NavegadorServer,
    opts: HttpOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let loopback = is_loopback(&opts.host);
    let token = opts.auth_token.clone().filter(|t| !t.is_empty());
    if !loopback && token.is_none() {
        return Err(std::io::Error::other(format!(
            "binding {} exposes the graph beyond this machine: set --auth-token or NAVEGADOR_AUTH_TOKEN (or bind 127.0.0.1)",
            opts.host
        )));
    }
    let path = if opts.path.starts_with('/') { opts.path.clone() } else { format!("/{}", opts.path) };
    let ct = CancellationToken::new();
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into(), "[::1]".into()];
    if !loopback && !is_unspecified(&opts.host) {
        hosts.push(opts.host.clone());
    }
    hosts.extend(opts.allowed_hosts.iter().cloned());
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(ct.child_token())
        .with_max_request_body_bytes(opts.max_body_bytes)
        .with_allowed_hosts(hosts)
        .with_allowed_origins(
            ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"]
                .into_iter()
                .map(String::from)
                .chain(opts.allowed_origins.iter().cloned()),
        )
        .enforce_origin_validation();
    if is_unspecified(&opts.host) && opts.allowed_hosts.is_empty() {
        // Any name may reach a wildcard bind; the bearer token (required here) is what
        // keeps a rebinding page out.
        tracing::warn!("binding {} without --allowed-host: Host is not checked, the bearer token protects the server", opts.host);
        config = config.disable_allowed_hosts();
    }
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let mut router = axum::Router::new().nest_service(&path, service);
    if let Some(token) = token {
        let token = Arc::new(token);
        router = router.layer(axum::middleware::from_fn(move |req: Request, next: Next| {
            let token = token.clone();
            async move { check_bearer(&token, req, next).await }
        }));
    }
    let listener = tokio::net::TcpListener::bind((opts.host.trim_start_matches('[').trim_end_matches(']'), opts.port)).await?;
    let addr = listener.local_addr()?;
    eprintln!("navegador mcp: listening on http://{addr}{path}");
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            ct.cancel();
        })
        .await
}

async fn check_bearer(token: &str, req: Request, next: Next) -> Response {
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .unwrap_or("");
    if constant_time_eq(given.trim().as_bytes(), token.as_bytes()) {
        next.run(req).await
    } else {
        (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "missing or wrong bearer token: send `Authorization: Bearer <token>` (the server's --auth-token)",
        )
            .into_response()
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
