//! `navegador ui`: a graph explorer for people, served by navegador itself. The pages are
//! plain HTML, CSS and JavaScript embedded in the binary ([`assets`]), with two vendored
//! libraries (Cytoscape.js for graphs, highlight.js for source; `vendor/`, fetched and
//! verified by `scripts/ui-assets.sh`). Their data comes from a small read-only JSON API
//! ([`api`]) whose every answer is one of the MCP server's tools, called through
//! [`NavegadorServer::call_json`]: the same answers, budgets and live index as the tools,
//! no second query path.
//!
//! The router is mounted on the streamable HTTP server ([`navegador_mcp::serve_http_with`])
//! under a prefix (`/ui`), behind the server's bearer token and Host/Origin checks.

pub mod api;
pub mod assets;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::Response;
use navegador_mcp::{Mount, NavegadorServer};

/// The prefix the pages are served under, by `navegador ui` and by `navegador mcp --ui`.
pub const PREFIX: &str = "/ui";

/// Largest request body the API reads (a Cypher query and its parameters).
const MAX_BODY: usize = 256 << 10;

#[derive(Clone)]
struct Ui {
    server: NavegadorServer,
    prefix: String,
}

/// The pages and their API under `prefix`, for [`navegador_mcp::serve_http_with`].
pub fn mount(server: NavegadorServer, prefix: &str) -> Mount {
    let prefix = format!("/{}", prefix.trim_matches('/'));
    let ui = Ui { server, prefix: prefix.clone() };
    let router = axum::Router::new()
        .route(&prefix, axum::routing::any(serve))
        .route(&format!("{prefix}/"), axum::routing::any(serve))
        .route(&format!("{prefix}/{{*rest}}"), axum::routing::any(serve))
        .with_state(ui);
    Mount { prefix, router }
}

/// A router that sends `/` to the pages (for `navegador ui`, which serves nothing else).
pub fn root_redirect(prefix: &str) -> axum::Router {
    let to = format!("/{}/", prefix.trim_matches('/'));
    axum::Router::new().route("/", axum::routing::get(move || async move { redirect(&to) }))
}

fn redirect(to: &str) -> Response {
    let mut r = Response::new(Body::empty());
    *r.status_mut() = StatusCode::SEE_OTHER;
    if let Ok(v) = HeaderValue::from_str(to) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r
}

async fn serve(State(ui): State<Ui>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    let rest = path.strip_prefix(&ui.prefix).unwrap_or("");
    if rest.is_empty() {
        return redirect(&format!("{}/", ui.prefix));
    }
    let rest = rest.trim_start_matches('/');
    if let Some(endpoint) = rest.strip_prefix("api/") {
        let method = req.method().clone();
        let query = api::Params::parse(req.uri().query().unwrap_or(""));
        let body = if method == Method::POST {
            match axum::body::to_bytes(req.into_body(), MAX_BODY).await {
                Ok(b) => b,
                Err(_) => {
                    return api::json(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        &serde_json::json!({ "error": format!("request body over {MAX_BODY} bytes; send a shorter query") }),
                    )
                }
            }
        } else if method == Method::GET {
            Default::default()
        } else {
            return api::json(StatusCode::METHOD_NOT_ALLOWED, &serde_json::json!({ "error": "the API answers GET (and POST for cypher)" }));
        };
        return api::answer(&ui.server, endpoint, &query, &body).await;
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return api::json(StatusCode::METHOD_NOT_ALLOWED, &serde_json::json!({ "error": "pages are read with GET" }));
    }
    assets::serve(if rest.is_empty() { "index.html" } else { rest })
}
