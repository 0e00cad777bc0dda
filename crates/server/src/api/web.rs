//! The browser client: the files of `web/`, embedded at build time, and the page addresses
//! that all answer with its one page (`index.html`), whose scripts pick the view from the
//! address.

use super::error::ApiError;
use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/web_files.rs"));
}

/// What scripts of the page may do: only talk to this server, no inline scripts.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
    frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// The page routes and `/static/…` over the embedded files.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(page))
        .route("/archive", get(page))
        .route("/rules", get(page))
        .route("/rules/{variant}", get(page))
        .route("/games/{id}", get(page))
        .route("/static/{*path}", get(file))
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") | Some("mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// The embedded file at `path`, if any.
fn lookup(path: &str) -> Option<(&'static [u8], u64)> {
    embedded::FILES
        .iter()
        .find(|(p, ..)| *p == path)
        .map(|&(_, bytes, tag)| (bytes, tag))
}

fn serve(path: &str, headers: &HeaderMap) -> Result<Response, ApiError> {
    let (bytes, tag) = lookup(path).ok_or_else(|| ApiError::not_found("no such file"))?;
    let etag = format!("\"{tag:016x}\"");
    let cached = headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes());
    let mut response = if cached {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, content_type(path))], bytes).into_response()
    };
    let h = response.headers_mut();
    // Revalidated on every load: a new binary's files are seen at once, and unchanged ones
    // cost a 304.
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, value);
    }
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    Ok(response)
}

async fn page(headers: HeaderMap) -> Result<Response, ApiError> {
    serve("index.html", &headers)
}

async fn file(Path(path): Path<String>, headers: HeaderMap) -> Result<Response, ApiError> {
    serve(&path, &headers)
}
