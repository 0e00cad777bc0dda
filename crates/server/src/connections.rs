//! Accepting connections: a cap on those open (per client and in all), a deadline for a
//! request's headers that also closes kept-alive connections left idle, and each request
//! tagged with its [`Client`]. Over the cap, a connection gets a JSON 503 or 429 and is
//! closed before anything of it is read.

use crate::quota::{ClientKey, Quotas, Refusal};
use axum::Router;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

/// Largest request head (request line and headers) read; hyper answers 431 beyond it.
pub const MAX_HEAD: usize = 16 * 1024;
/// Open files kept for the store, the engines and the rest besides connections.
const FILES_HELD_BACK: u64 = 256;

/// The client a request comes from (the peer's address as a [`ClientKey`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client(pub ClientKey);

impl Client {
    /// Requests handed to the router without a connection (the fuzzer) all come from here.
    pub fn local() -> Client {
        Client(ClientKey::of(IpAddr::V4(Ipv4Addr::LOCALHOST)))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(parts
            .extensions
            .get::<Client>()
            .copied()
            .unwrap_or_else(Client::local))
    }
}

/// Raises the soft open-files limit to the hard one and returns how many connections fit
/// under it, at most `wanted`.
pub fn connections_that_fit(wanted: usize) -> usize {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current < limit.maximum {
        let raised = rustix::process::Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        if setrlimit(Resource::Nofile, raised).is_ok() {
            limit = getrlimit(Resource::Nofile);
        }
    }
    match limit.current {
        Some(files) => {
            let fit = files.saturating_sub(FILES_HELD_BACK).max(16) as usize;
            if fit < wanted {
                tracing::warn!(
                    "the open-files limit ({files}) allows {fit} connections, not {wanted}: \
                     raise it (ulimit -n) for more"
                );
            }
            fit.min(wanted)
        }
        None => wanted,
    }
}

/// Serves `router` on `listener` until the process ends, within `quotas`' connection caps
/// and with its header timeout.
pub async fn serve(listener: TcpListener, router: Router, quotas: Arc<Quotas>) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(quotas.limits().header_timeout)
        .max_buf_size(MAX_HEAD.max(8192));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of files or memory: the connections open now finish, then we go on.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let client = ClientKey::of(peer.ip());
        let slot = match quotas.connections.take(client, "connections") {
            Ok(slot) => slot,
            Err(refusal) => {
                tokio::spawn(refuse(stream, refusal));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(Client(client));
            router.clone().oneshot(request.map(axum::body::Body::new))
        });
        let connection = http
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        tokio::spawn(async move {
            // Held while the connection (and a websocket upgraded from it) lives.
            let _slot = slot;
            let _ = connection.await;
        });
    }
}

/// Answers a connection over the cap and closes it.
async fn refuse(mut stream: TcpStream, refusal: Refusal) {
    let (status, code) = if matches!(refusal, Refusal::TooMany { total: true, .. }) {
        ("503 Service Unavailable", "server-busy")
    } else {
        ("429 Too Many Requests", "too-many")
    };
    let body = serde_json::json!({ "error": refusal.to_string(), "code": code }).to_string();
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         retry-after: 5\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        stream.shutdown().await
    })
    .await;
}
