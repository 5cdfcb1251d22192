//! Streamable HTTP for teams: loopback by default; Host and Origin checked against DNS
//! rebinding; a bearer token (required for a non-loopback bind); graceful shutdown; every
//! session served from the same store.
//!
//! What a hostile or broken client can hold is bounded: a connection must send each
//! request header within `header_timeout` (which also closes a kept-alive connection idle
//! that long) and its body within `body_timeout`; at most `max_connections` are open (more
//! are answered 503 and closed); a `Content-Length` over the body bound is refused (413)
//! before any of the body is read. Bodies are checked as JSON-RPC here, so invalid JSON is
//! `-32700` and a malformed request gets an error with its `id` ([`crate::jsonrpc`]); two
//! requests in flight with the same `id` on one session would share one answer channel in
//! rmcp, so the second is refused (409, `-32600`) until the first is answered.

use std::collections::HashSet;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::io::AsyncWriteExt;
use tokio_util::sync::CancellationToken;

use crate::{jsonrpc, NavegadorServer};

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
    /// A request's header must arrive whole within this; a kept-alive connection idle
    /// this long is closed.
    pub header_timeout: Duration,
    /// A request's body must arrive whole within this.
    pub body_timeout: Duration,
    /// Most connections open at once (SSE streams included); more are answered 503.
    pub max_connections: usize,
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
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            max_connections: 512,
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
    let guard = Arc::new(Guard {
        max_body: opts.max_body_bytes,
        body_timeout: opts.body_timeout,
        in_flight: Mutex::new(HashSet::new()),
    });
    let mut router = axum::Router::new().nest_service(&path, service).layer(axum::middleware::from_fn(
        move |req: Request, next: Next| {
            let guard = guard.clone();
            async move { guard.check(req, next).await }
        },
    ));
    // The token is checked first (outermost): nobody unauthenticated gets a body read.
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
    serve_connections(listener, router, &opts, shutdown).await;
    ct.cancel();
    Ok(())
}

/// The accept loop: HTTP/1.1 per connection with the header timeout, the connection cap,
/// and on shutdown no new connections, open ones finished (10 s at most).
async fn serve_connections(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    opts: &HttpOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let slots = Arc::new(tokio::sync::Semaphore::new(opts.max_connections.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(opts.header_timeout).keep_alive(true);
    let service = hyper_util::service::TowerToHyperService::new(router);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(c) => c,
                Err(e) => {
                    // Out of file descriptors, or a connection reset before accept.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tracing::warn!(%peer, max = opts.max_connections, "connection refused: at the connection limit");
            tokio::spawn(refuse_busy(stream, opts.max_connections));
            continue;
        };
        let _ = stream.set_nodelay(true);
        let conn = graceful.watch(http.serve_connection(TokioIo::new(stream), service.clone()));
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!(%peer, "connection ended: {e}");
            }
            drop(slot);
        });
    }
    drop(listener);
    if tokio::time::timeout(Duration::from_secs(10), graceful.shutdown()).await.is_err() {
        tracing::warn!("connections still open 10 s after shutdown began; closing them");
    }
}

/// Answers a connection over the limit with 503 and closes it.
async fn refuse_busy(mut stream: tokio::net::TcpStream, max: usize) {
    let body = format!(
        "too many connections: this server holds at most {max} (--max-connections); retry in a moment, and reuse one connection per client\n"
    );
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    let write = async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}

/// The request checks before rmcp sees a request: body bound and timeout, JSON-RPC shape,
/// one request in flight per (session, id).
struct Guard {
    max_body: usize,
    body_timeout: Duration,
    /// (session id, request id as JSON) of the requests being answered.
    in_flight: Mutex<HashSet<(String, String)>>,
}

/// Removes a request from the in-flight set when its answer (the response body) is done
/// or dropped.
struct InFlight {
    guard: Arc<Guard>,
    key: (String, String),
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.guard.in_flight.lock().unwrap().remove(&self.key);
    }
}

impl Guard {
    async fn check(self: Arc<Self>, req: Request, next: Next) -> Response {
        let declared = req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok());
        if declared.is_some_and(|n| n > self.max_body as u64) {
            return self.too_large();
        }
        if req.method() != Method::POST {
            return next.run(req).await;
        }
        let (parts, body) = req.into_parts();
        let bytes = match tokio::time::timeout(self.body_timeout, collect(body, self.max_body)).await {
            Err(_) => {
                let mut r = plain(
                    StatusCode::REQUEST_TIMEOUT,
                    format!("request body not received within {} ms: send the whole body at once", self.body_timeout.as_millis()),
                );
                r.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
                return r;
            }
            Ok(Err(Collect::TooLarge)) => return self.too_large(),
            Ok(Err(Collect::Failed(e))) => return plain(StatusCode::BAD_REQUEST, format!("cannot read the request body: {e}")),
            Ok(Ok(b)) => b,
        };
        let json = parts.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
            v.split(';').next().is_some_and(|e| e.trim().eq_ignore_ascii_case("application/json"))
        });
        let mut in_flight = None;
        if json {
            match jsonrpc::parse(&bytes) {
                Err(r) => return rpc_error(StatusCode::BAD_REQUEST, &r),
                Ok(ClientJsonRpcMessage::Request(request)) => {
                    let session = parts.headers.get("mcp-session-id").and_then(|v| v.to_str().ok());
                    if let Some(session) = session {
                        let key = (session.to_string(), serde_json::to_string(&request.id).unwrap_or_default());
                        if !self.in_flight.lock().unwrap().insert(key.clone()) {
                            let error = rmcp::model::ErrorData::invalid_request(
                                format!(
                                    "request id {} is already in use by a request in progress on this session; give each request a new id",
                                    key.1
                                ),
                                None,
                            );
                            let refusal = jsonrpc::Refusal { error, id: Some(request.id.clone()), notification: false };
                            return rpc_error(StatusCode::CONFLICT, &refusal);
                        }
                        in_flight = Some(InFlight { guard: self.clone(), key });
                    }
                }
                Ok(_) => {}
            }
        }
        let response = next.run(Request::from_parts(parts, Body::from(bytes))).await;
        match in_flight {
            None => response,
            Some(held) => {
                let (parts, body) = response.into_parts();
                let stream = body.into_data_stream().map(move |chunk| {
                    let _ = &held;
                    chunk
                });
                Response::from_parts(parts, Body::from_stream(stream))
            }
        }
    }

    fn too_large(&self) -> Response {
        let mut r = plain(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("Payload Too Large: request body exceeds {} bytes; send smaller arguments", self.max_body),
        );
        r.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        r
    }
}

enum Collect {
    TooLarge,
    Failed(axum::Error),
}

/// The whole body, refused as soon as it passes `max` bytes.
async fn collect(body: Body, max: usize) -> Result<axum::body::Bytes, Collect> {
    let mut stream = body.into_data_stream();
    let mut out = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(Collect::Failed)?;
        if out.len() + chunk.len() > max {
            return Err(Collect::TooLarge);
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out.into())
}

fn plain(status: StatusCode, text: String) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
}

fn rpc_error(status: StatusCode, r: &jsonrpc::Refusal) -> Response {
    let body = serde_json::to_string(&r.response()).unwrap_or_default();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
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
