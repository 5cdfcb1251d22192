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

/// Pages served beside the MCP endpoint (the UI): a router whose routes all start with
/// `prefix`, behind the same bearer token and the same Host/Origin checks. A browser cannot
/// send a bearer header when it follows a link, so under `prefix` the token is also accepted
/// as the `navegador_token` cookie, which `PREFIX/?token=TOKEN` sets.
#[derive(Clone)]
pub struct Mount {
    pub prefix: String,
    pub router: axum::Router,
}

/// Serves until `shutdown` resolves, then stops accepting, closes sessions and returns.
/// Prints `listening on http://ADDR/PATH` to stderr once bound (port 0 picks a free one).
pub async fn serve_http(
    server: NavegadorServer,
    opts: HttpOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_http_with(server, opts, Vec::new(), true, shutdown).await
}

/// [`serve_http`] with `mounts` beside the MCP endpoint (or instead of it when `mcp` is
/// false: `navegador ui`). Prints `listening on http://ADDR/PREFIX/` for each mount.
pub async fn serve_http_with(
    server: NavegadorServer,
    opts: HttpOptions,
    mounts: Vec<Mount>,
    mcp: bool,
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
    let origins: Vec<String> = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"]
        .into_iter()
        .map(String::from)
        .chain(opts.allowed_origins.iter().cloned())
        .collect();
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(ct.child_token())
        .with_max_request_body_bytes(opts.max_body_bytes)
        .with_allowed_hosts(hosts.clone())
        .with_allowed_origins(origins.clone())
        .enforce_origin_validation();
    let check_hosts = !(is_unspecified(&opts.host) && opts.allowed_hosts.is_empty());
    if !check_hosts {
        // Any name may reach a wildcard bind; the bearer token (required here) is what
        // keeps a rebinding page out.
        tracing::warn!("binding {} without --allowed-host: Host is not checked, the bearer token protects the server", opts.host);
        config = config.disable_allowed_hosts();
    }
    let mut router = axum::Router::new();
    if mcp {
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
        router = router.nest_service(&path, service).layer(axum::middleware::from_fn(move |req: Request, next: Next| {
            let guard = guard.clone();
            async move { guard.check(req, next).await }
        }));
    }
    // The pages get the checks rmcp makes on the MCP endpoint: Host against DNS
    // rebinding, Origin against other sites' pages.
    let sites = Arc::new(Sites { hosts: check_hosts.then_some(hosts), origins });
    let prefixes: Arc<Vec<String>> = Arc::new(mounts.iter().map(|m| m.prefix.clone()).collect());
    for m in &mounts {
        let sites = sites.clone();
        router = router.merge(m.router.clone().layer(axum::middleware::from_fn(move |req: Request, next: Next| {
            let sites = sites.clone();
            async move { sites.check(req, next).await }
        })));
    }
    // The token is checked first (outermost): nobody unauthenticated gets a body read.
    if let Some(token) = token {
        let token = Arc::new(token);
        router = router.layer(axum::middleware::from_fn(move |req: Request, next: Next| {
            let (token, prefixes) = (token.clone(), prefixes.clone());
            async move { check_bearer(&token, &prefixes, req, next).await }
        }));
    }
    let listener = tokio::net::TcpListener::bind((opts.host.trim_start_matches('[').trim_end_matches(']'), opts.port)).await?;
    let addr = listener.local_addr()?;
    if mcp {
        eprintln!("navegador mcp: listening on http://{addr}{path}");
    }
    for m in &mounts {
        eprintln!("navegador ui: listening on http://{addr}{}/", m.prefix.trim_end_matches('/'));
    }
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

/// The `Host` and `Origin` a page request may carry.
struct Sites {
    /// Accepted `Host` names (any port); `None`: not checked (a wildcard bind).
    hosts: Option<Vec<String>>,
    /// Accepted `Origin`s, `scheme://host:*` patterns or exact; a request's own origin
    /// (`http://` + its `Host`) is accepted too.
    origins: Vec<String>,
}

impl Sites {
    async fn check(&self, req: Request, next: Next) -> Response {
        let host = req.headers().get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
        if let Some(hosts) = &self.hosts {
            let name = host_name(host);
            if !hosts.iter().any(|h| h.eq_ignore_ascii_case(name) || h.eq_ignore_ascii_case(host)) {
                return plain(
                    StatusCode::FORBIDDEN,
                    format!("forbidden: Host `{host}` is not one this server answers; start it with --allowed-host {name}"),
                );
            }
        }
        if let Some(origin) = req.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
            let own = format!("http://{host}");
            let ok = origin.eq_ignore_ascii_case(&own)
                || self.origins.iter().any(|o| match o.strip_suffix(":*") {
                    Some(base) => origin.eq_ignore_ascii_case(base) || origin.strip_prefix(base).and_then(|r| r.strip_prefix(':')).is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit())),
                    None => origin.eq_ignore_ascii_case(o),
                });
            if !ok {
                return plain(
                    StatusCode::FORBIDDEN,
                    format!("forbidden: Origin `{origin}` is not allowed; start the server with --allowed-origin {origin}"),
                );
            }
        }
        next.run(req).await
    }
}

/// `host` of a `Host` header value `host[:port]` (IPv6 in brackets kept).
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |i| &host[..=i]);
    }
    host.rsplit_once(':').map_or(host, |(h, _)| h)
}

/// The cookie a page carries the bearer token in.
const TOKEN_COOKIE: &str = "navegador_token";

async fn check_bearer(token: &str, pages: &[String], req: Request, next: Next) -> Response {
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .unwrap_or("");
    if constant_time_eq(given.trim().as_bytes(), token.as_bytes()) {
        return next.run(req).await;
    }
    let path = req.uri().path();
    if pages.iter().any(|p| path == p || path.starts_with(&format!("{}/", p.trim_end_matches('/')))) {
        let cookie = req
            .headers()
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().strip_prefix(TOKEN_COOKIE)?.strip_prefix('='))
            .any(|v| constant_time_eq(v.as_bytes(), token.as_bytes()));
        if cookie {
            return next.run(req).await;
        }
        let query = req.uri().query().unwrap_or("");
        let asked = query.split('&').filter_map(|kv| kv.strip_prefix("token=")).any(|v| constant_time_eq(v.as_bytes(), token.as_bytes()));
        if asked && req.method() == Method::GET {
            // Trade the token in the address for a cookie, and drop it from the address.
            let mut r = Response::new(Body::empty());
            *r.status_mut() = StatusCode::SEE_OTHER;
            let scope = pages.iter().find(|p| path.starts_with(p.as_str())).map_or("/", |p| p.as_str());
            let cookie = format!("{TOKEN_COOKIE}={token}; Path={scope}; HttpOnly; SameSite=Strict");
            if let (Ok(c), Ok(l)) = (HeaderValue::from_str(&cookie), HeaderValue::from_str(path)) {
                r.headers_mut().insert(header::SET_COOKIE, c);
                r.headers_mut().insert(header::LOCATION, l);
            }
            return r;
        }
    }
    {
        (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "missing or wrong bearer token: send `Authorization: Bearer <token>` (the server's --auth-token); in a browser, open the pages once as /ui/?token=<token>",
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
