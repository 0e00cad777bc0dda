//! Accepting connections: a cap on those open (per client and in all), a deadline for a
//! request's headers that also closes kept-alive connections left idle, a deadline for the
//! client to read what is written to it, JSON answers to requests too malformed to reach the
//! API, and each request tagged with its [`Client`]. Over the cap, a connection gets a JSON
//! 503 or 429 and is closed before anything of it is read.

use crate::quota::{ClientKey, Quotas, Refusal, Slot};
use axum::Router;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tower::ServiceExt;

/// Largest request head (request line and headers) read; 431 beyond it.
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
        let stream = Guarded::new(stream, quotas.limits().write_timeout);
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

/// How many connections may wait to be accepted (the kernel caps it at `somaxconn`); tokio's
/// 128 drops connections in a burst of page loads.
const BACKLOG: u32 = 1024;

/// Binds the server's listening socket, with a backlog of [`BACKLOG`].
pub fn listen(address: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if address.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    // As std's bind does: a restarted server takes its port back at once.
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(BACKLOG)
}

/// A connection's stream, as hyper sees it: a write that makes no progress for the
/// write timeout fails (a client that never reads its answers would hold its connection, its
/// buffers and its task for ever), and the bodiless answers hyper gives to requests it cannot
/// parse are replaced with the API's JSON errors.
struct Guarded {
    stream: TcpStream,
    write_timeout: Duration,
    /// Since when writes have made no progress.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
    /// A JSON answer being written in place of hyper's own, and how much of it is out.
    replacing: Option<(Vec<u8>, usize)>,
}

impl Guarded {
    fn new(stream: TcpStream, write_timeout: Duration) -> Self {
        Guarded {
            stream,
            write_timeout,
            stalled: None,
            replacing: None,
        }
    }

    /// `written` came back from the stream: progress clears the deadline, a stall starts it,
    /// and a stall past it fails the write.
    fn deadline(
        &mut self,
        cx: &mut Context<'_>,
        written: Poll<std::io::Result<usize>>,
    ) -> Poll<std::io::Result<usize>> {
        if written.is_ready() {
            self.stalled = None;
            return written;
        }
        let timeout = self.write_timeout;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client read nothing for the write timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    /// Writes the replacement of an answer `len` bytes long: all of it, then says all of the
    /// original was written.
    fn write_replacement(
        &mut self,
        cx: &mut Context<'_>,
        len: usize,
    ) -> Poll<std::io::Result<usize>> {
        loop {
            let Some((bytes, at)) = self.replacing.as_mut() else {
                return Poll::Ready(Ok(len));
            };
            if *at == bytes.len() {
                self.replacing = None;
                return Poll::Ready(Ok(len));
            }
            let written = Pin::new(&mut self.stream).poll_write(cx, &bytes[*at..]);
            let written = self.deadline(cx, written);
            match written {
                Poll::Ready(Ok(n)) => {
                    if let Some((_, at)) = self.replacing.as_mut() {
                        *at += n;
                    }
                    if n == 0 {
                        return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
                    }
                }
                other => return other,
            }
        }
    }
}

/// The API's JSON error in place of `head`, an answer hyper wrote by itself to a request it
/// could not read; `None` for any other answer. Such answers have no body and no type, and
/// their statuses (but 400) are ones the API never gives.
fn replacement_for(answer: &[u8]) -> Option<Vec<u8>> {
    let status = answer.strip_prefix(b"HTTP/1.1 ")?.get(..3)?;
    if !matches!(status, b"400" | b"414" | b"431" | b"505") {
        return None;
    }
    // hyper writes an answer whole (its writes are flattened): the head alone, here.
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&answer[..end + 2])
        .ok()?
        .to_ascii_lowercase();
    if answer.len() != end + 4
        || !head.contains("\r\ncontent-length: 0\r\n")
        || head.contains("\r\ncontent-type:")
    {
        return None;
    }
    let (line, message, code) = match status {
        b"431" => (
            "431 Request Header Fields Too Large",
            format!("the request's head is over {} KiB", MAX_HEAD / 1024),
            "head-too-large",
        ),
        b"414" => (
            "414 URI Too Long",
            "the request's address is too long".to_string(),
            "uri-too-long",
        ),
        b"505" => (
            "505 HTTP Version Not Supported",
            "only HTTP/1.x is served".to_string(),
            "bad-version",
        ),
        b"400" => (
            "400 Bad Request",
            "the request could not be read".to_string(),
            "bad-request",
        ),
        _ => return None,
    };
    let body = serde_json::json!({ "error": message, "code": code }).to_string();
    Some(
        format!(
            "HTTP/1.1 {line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             x-content-type-options: nosniff\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        if this.replacing.is_none()
            && let Some(bytes) = replacement_for(buf)
        {
            this.replacing = Some((bytes, 0));
        }
        if this.replacing.is_some() {
            return this.write_replacement(cx, buf.len());
        }
        let written = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.deadline(cx, written)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
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
