//! The browser client: the files of `web/`, embedded at build time, and the page addresses
//! that all answer with its one page (`index.html`), whose scripts pick the view from the
//! address.

use super::compressed::Compressed;
use super::error::ApiError;
use axum::Router;
use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::Response;
use axum::routing::get;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

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
        Some("woff2") => "font/woff2",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file at `path`, compressed the first time it is asked for and kept.
fn compressed(path: &str) -> Option<Arc<Compressed>> {
    static KEPT: OnceLock<Mutex<HashMap<&'static str, Arc<Compressed>>>> = OnceLock::new();
    let (name, bytes, tag) = embedded::FILES.iter().find(|(p, ..)| *p == path)?;
    let kept = KEPT.get_or_init(Default::default);
    if let Some(found) = kept.lock().unwrap_or_else(|p| p.into_inner()).get(name) {
        return Some(found.clone());
    }
    // Compressed outside the lock: another request for the same file may do it too, once.
    let made = Arc::new(Compressed::new(
        Bytes::from_static(bytes),
        content_type(path),
        format!("{tag:016x}"),
    ));
    kept.lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(name, made.clone());
    Some(made)
}

fn serve(path: &str, headers: &HeaderMap) -> Result<Response, ApiError> {
    let file =
        compressed(path).ok_or_else(|| ApiError::not_found("no-such-file", "no such file"))?;
    let mut response = file.respond(headers);
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    Ok(response)
}

async fn page(headers: HeaderMap) -> Result<Response, ApiError> {
    serve("index.html", &headers)
}

async fn file(Path(path): Path<String>, headers: HeaderMap) -> Result<Response, ApiError> {
    serve(&path, &headers)
}

/// An address nothing answers: a person's browser gets the page (status 404), which says
/// there is no such page and leads back to the lobby; a program, and anything under `/api/`,
/// gets the API's JSON error.
pub async fn not_found(method: Method, uri: Uri, headers: HeaderMap) -> Result<Response, ApiError> {
    let wants_page = headers
        .get(header::ACCEPT)
        .and_then(|a| a.to_str().ok())
        .is_some_and(|a| a.contains("text/html"));
    if method != Method::GET || !wants_page || uri.path().starts_with("/api/") {
        return Err(ApiError::not_found("no-such-page", "no such page"));
    }
    // The page without a conditional answer: a 304 would hide the 404.
    let mut plain = headers.clone();
    plain.remove(header::IF_NONE_MATCH);
    let mut response = serve("index.html", &plain)?;
    *response.status_mut() = StatusCode::NOT_FOUND;
    Ok(response)
}
