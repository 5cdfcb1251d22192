//! The pages' files, embedded at build time: ours (`assets/`) and the vendored third-party
//! libraries (`vendor/`, with their licenses, filled by `scripts/ui-assets.sh`). Nothing is
//! fetched at run time: the pages work offline.

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;

/// (name under the prefix, content type, bytes)
const FILES: &[(&str, &str, &[u8])] = &[
    ("index.html", "text/html; charset=utf-8", include_bytes!("../assets/index.html")),
    ("app.js", "text/javascript; charset=utf-8", include_bytes!("../assets/app.js")),
    ("app.css", "text/css; charset=utf-8", include_bytes!("../assets/app.css")),
    ("vendor/cytoscape.min.js", "text/javascript; charset=utf-8", include_bytes!("../vendor/cytoscape.min.js")),
    ("vendor/highlight.min.js", "text/javascript; charset=utf-8", include_bytes!("../vendor/highlight.min.js")),
    ("vendor/highlight-github.min.css", "text/css; charset=utf-8", include_bytes!("../vendor/highlight-github.min.css")),
    ("vendor/cytoscape.LICENSE", "text/plain; charset=utf-8", include_bytes!("../vendor/cytoscape.LICENSE")),
    ("vendor/highlight.LICENSE", "text/plain; charset=utf-8", include_bytes!("../vendor/highlight.LICENSE")),
];

/// The names served, for tests.
pub fn names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|f| f.0)
}

/// One file, or 404. The pages run only their own scripts (a content security policy);
/// graph styles are set by Cytoscape as inline styles.
pub fn serve(name: &str) -> Response {
    // Page addresses (`/ui/symbol`, ...) are the single page's routes.
    let name = if name.contains('.') { name } else { "index.html" };
    let Some((_, kind, embedded)) = FILES.iter().find(|f| f.0 == name) else {
        let mut r = Response::new(Body::from(format!("no page or file `{name}` under the UI; start at its root\n")));
        *r.status_mut() = StatusCode::NOT_FOUND;
        return r;
    };
    let bytes = match dev_file(name) {
        Some(b) => Body::from(b),
        None => Body::from(*embedded),
    };
    let mut r = Response::new(bytes);
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; frame-ancestors 'none'"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

/// For working on the pages without rebuilding: with `NAVEGADOR_UI_DEV_ASSETS=DIR` (the
/// crate's `assets/` folder) our own files are read from there on each request. Only the
/// names above are looked up, never a path from the request.
fn dev_file(name: &str) -> Option<Vec<u8>> {
    let dir = std::env::var_os("NAVEGADOR_UI_DEV_ASSETS")?;
    if name.starts_with("vendor/") {
        return None;
    }
    std::fs::read(std::path::Path::new(&dir).join(name)).ok()
}

#[cfg(test)]
mod tests {
    /// Every vendored file the script verified (`vendor/SHA256SUMS`) is embedded and served.
    #[test]
    fn every_vendored_file_is_embedded() {
        let sums = include_str!("../vendor/SHA256SUMS");
        for line in sums.lines() {
            let name = line.split_whitespace().nth(1).expect("sha256sum line");
            let served = format!("vendor/{name}");
            let (_, _, bytes) = super::FILES.iter().find(|f| f.0 == served).unwrap_or_else(|| panic!("{served} is not embedded"));
            assert!(bytes.len() > 500, "{served} is too short to be the library");
        }
        assert_eq!(super::serve("symbol").status(), 200, "a page address is the single page");
        assert_eq!(super::serve("nope.js").status(), 404);
    }
}
