//! Accepting connections: a cap on those open (per client and in all), a deadline for a
//! request's headers that also closes kept-alive connections left idle, and each request
//! tagged with its [`Client`]. Over the cap, a connection gets a JSON 503 or 429 and is
//! closed before anything of it is read.

use crate::quota::{ClientKey, Quotas, Refusal, Slot};
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

/// The place a connection holds in the connection caps, shared with its requests: a
/// websocket upgraded from the connection keeps it while the socket lives (the connection's
/// own task ends at the upgrade).
#[derive(Clone)]
pub struct Held {
    _slot: Arc<Slot<ClientKey>>,
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

/// Where a client's address comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Peers {
    /// Clients connect directly: the peer's address.
    #[default]
    Direct,
    /// Every connection comes from a reverse proxy on this machine, which appends the address
    /// it saw to `X-Forwarded-For` (nginx's `$proxy_add_x_forwarded_for`): the last entry of
    /// that header is the client, and the connection caps per client are the proxy's to keep.
    BehindProxy,
}

/// The client of a request that came over a connection from `peer`.
fn client_of(peer: ClientKey, headers: &axum::http::HeaderMap, peers: Peers) -> ClientKey {
    match peers {
        Peers::Direct => peer,
        Peers::BehindProxy => headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .next_back()
            .and_then(|last| last.trim().parse::<IpAddr>().ok())
            .map_or(peer, ClientKey::of),
    }
}

/// Serves `router` on `listener` until the process ends, within `quotas`' connection caps
/// and with its header timeout.
pub async fn serve(listener: TcpListener, router: Router, quotas: Arc<Quotas>, peers: Peers) {
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
        // Behind a proxy every connection is the proxy's: only the total counts.
        let taken = match peers {
            Peers::Direct => quotas.connections.take(client, "connections"),
            Peers::BehindProxy => quotas.connections.take_within_total(client, "connections"),
        };
        let slot = match taken {
            Ok(slot) => slot,
            Err(refusal) => {
                tokio::spawn(refuse(stream, refusal));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let held = Held {
            _slot: Arc::new(slot),
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            let client = client_of(client, request.headers(), peers);
            request.extensions_mut().insert(Client(client));
            request.extensions_mut().insert(held.clone());
            router.clone().oneshot(request.map(axum::body::Body::new))
        });
        let connection = http
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        tokio::spawn(async move {
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

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{HeaderMap, HeaderValue};

    #[test]
    fn behind_a_proxy_the_client_is_the_last_forwarded_address() {
        let proxy = ClientKey::of(IpAddr::V4(Ipv4Addr::LOCALHOST));
        let mut headers = HeaderMap::new();
        // The client may send a header of its own; the proxy appends what it saw.
        headers.insert(
            "x-forwarded-for",
            HeaderValue::from_static("6.6.6.6, 203.0.113.7"),
        );
        let client = ClientKey::of("203.0.113.7".parse().unwrap());
        assert_eq!(client_of(proxy, &headers, Peers::BehindProxy), client);
        // Directly connected, the header is the client's word and ignored.
        assert_eq!(client_of(proxy, &headers, Peers::Direct), proxy);
        // Garbage or nothing: the proxy.
        headers.insert("x-forwarded-for", HeaderValue::from_static("nonsense"));
        assert_eq!(client_of(proxy, &headers, Peers::BehindProxy), proxy);
        assert_eq!(
            client_of(proxy, &HeaderMap::new(), Peers::BehindProxy),
            proxy
        );
    }
}
