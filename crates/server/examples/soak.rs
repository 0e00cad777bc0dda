//! The soak run of issue 43 ("a public site survives its users"): the release binary with the
//! public site's default limits, every attack the issue found replayed against it while a
//! bystander plays, and what each limit answered.
//!
//! `scripts/soak` builds the binary and this example, then runs `soak PATH/TO/chaturanga`.
//!
//! The server is a child process on a fresh SQLite file in a temporary directory, listening
//! on loopback. Every limit is kept per client address, so every client here binds a source
//! address of its own in 127.0.0.0/8 (Linux routes all of it to `lo`) before it connects:
//! the bystander is 127.0.0.2; each one-client attack has an address of its own, so that it
//! meets its own limit rather than the request rate another attack already spent; the attacks
//! on the site's totals come from blocks of addresses (127.10+b.x.y).
//!
//! Prints a table of the attacks (the limit, the answer it promises, how many requests were
//! accepted and refused), then the bystander's figures; exits 1 if any assertion failed (each
//! is printed), 2 if the run overran its watchdog. The server is killed on every way out.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::task::JoinHandle;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::{self, Message};

// ---------------------------------------------------------------------------------------
// What is asserted, and how long each part lasts.

/// The bystander's move acknowledgements: p99 under this.
const ACK_P99: Duration = Duration::from_millis(100);
/// The engine's reply to the bystander (level 1, no clock, so no pacing): p99 under this.
const ENGINE_REPLY_P99: Duration = Duration::from_secs(2);
/// The bystander's page requests (the ruleset listing, the lobby): each answered within this.
const PROBE_MAX: Duration = Duration::from_secs(2);
/// The write-ahead log: the server truncates it past 16 MiB, looking every 500 ms, so it may
/// grow by what commits add in half a second beyond that. The most the run saw added in
/// 100 ms is 6-8 MiB, when 200 games are created at once (the burst of the site's total);
/// the flood of moves adds 1.2 MiB in 100 ms at the median; and a truncating checkpoint
/// holds the commits while it copies. 32 MiB is 16 MiB, the burst and a half second of the flood, with
/// room to spare.
const WAL_MAX: u64 = 32 << 20;
/// The database file: the run stores about 850 games and 21,000 moves, 3.4 MiB.
const DB_MAX: u64 = 32 << 20;
/// Resident memory may grow between the warm-up and the end of the attacks: the allocator
/// keeps much of what it was given at the peak, and what the attacks made the server hold
/// at once sets the peak. This much for the engine pool: two searches at once (its threads),
/// each a level-8 Chu shogi search, with which the server grows by 40-50 MiB as the run
/// measures it (its 8 MiB table and the search's own); besides [`RSS_PER_CONNECTION_KIB`] for each connection and websocket
/// held at once at the most and [`RSS_PER_GAME_KIB`] for each game created (live games stay
/// in memory until they end).
const RSS_FIXED_KIB: u64 = 2 * 48 * 1024;
/// See [`RSS_FIXED_KIB`]: a connection's buffers (8 KiB to read, more while a head of up to
/// 16 KiB comes); the run measured about 8 KiB kept per connection.
const RSS_PER_CONNECTION_KIB: u64 = 16;
/// See [`RSS_FIXED_KIB`]: the load benchmark measured 80-250 KiB per game with its sockets
/// open; a game without sockets costs less.
const RSS_PER_GAME_KIB: u64 = 64;
/// The memory-heavy attacks run together twice: what the first round left the allocator is
/// used again by the second, so this is all the second may add besides its games (the
/// threads it wakes and the timing of its bursts differ a little): more is a leak.
const RSS_AGAIN_KIB: u64 = 24 * 1024;
/// A connection that sent no whole head is closed after the 15 s header deadline; this much
/// later is still on time (the server's timer and this client's share two busy cores).
const CLOSE_BY: Duration = Duration::from_secs(18);
/// The whole run, after which the watchdog kills the server and exits.
const WATCHDOG: Duration = Duration::from_secs(420);

const WARM_UP: Duration = Duration::from_secs(8);
const WRITES: Duration = Duration::from_secs(24);
const ENGINES: Duration = Duration::from_secs(20);
const ENGINES_CROWD: Duration = Duration::from_secs(14);
const READERS: Duration = Duration::from_secs(15);
/// Longer than the 10 s an idle thread of the runtime's blocking pool lives: the memory
/// measured after it is not that of threads about to end.
const COOL_DOWN: Duration = Duration::from_secs(12);
const AGAIN: Duration = Duration::from_secs(10);

/// The phases, in order; the bystander's figures are kept per phase.
const PHASES: [&str; 13] = [
    "warm-up",
    "connections",
    "writes",
    "engines",
    "engines, 3 addresses",
    "readers and sockets",
    "lag",
    "connection cap",
    "cool-down",
    "again",
    "cool-down again",
    "once more",
    "cool-down once more",
];
/// The phase whose engine replies are reported but not held to [`ENGINE_REPLY_P99`]: the
/// pool's fairness is per client, and three clients can fill both of its threads.
const PHASE_ENGINES_CROWD: usize = 4;
/// The first of the phases that run the memory-heavy attacks again, twice (their rows are
/// not shown again; their assertions hold every time).
const PHASE_AGAIN: usize = 9;

// ---------------------------------------------------------------------------------------
// Addresses.

/// The bystander's own address.
const BYSTANDER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);

/// The address of one-client attack `n`.
fn solo(n: u8) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 2, n)
}

/// Member `n` of the crowd of block `block` (attacks on totals).
fn crowd(block: u8, n: usize) -> Ipv4Addr {
    Ipv4Addr::new(127, 10 + block, (n / 250) as u8, (n % 250 + 1) as u8)
}

fn crowd_label(block: u8, n: usize) -> String {
    format!("{}..{} ({n})", crowd(block, 0), crowd(block, n - 1))
}

// ---------------------------------------------------------------------------------------
// The server's process.

/// The server's process id (0: none): the watchdog and the panic hook kill it whatever
/// state the run is in.
static SERVER_PID: AtomicI32 = AtomicI32::new(0);

fn kill_pid(pid: i32) {
    if let Some(pid) = rustix::process::Pid::from_raw(pid) {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
}

/// `chaturanga serve` as a child, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Starts the binary on `db` and waits for its first line, `serving http://ADDR/`.
    fn start(bin: &Path, db: &Path) -> Result<Server, String> {
        let mut child = Command::new(bin)
            .args(["serve", "--listen", "127.0.0.1:0", "--db"])
            .arg(db)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        SERVER_PID.store(child.id() as i32, Ordering::SeqCst);
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take();
        let stdout = child.stdout.take();
        let mut server = Server {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            log: log.clone(),
        };
        std::thread::spawn(move || {
            let Some(stderr) = stderr else { return };
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let mut log = log.lock().unwrap();
                // The first and the latest lines are what a failure needs.
                if log.len() >= 400 {
                    log.remove(200);
                }
                log.push(line);
            }
        });
        let (first_tx, first_rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let Some(stdout) = stdout else { return };
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(first)) = lines.next() {
                let _ = first_tx.send(first);
            }
            // Read on, so that the server never blocks on a full pipe.
            for _ in lines {}
        });
        let first = first_rx
            .recv_timeout(Duration::from_secs(60))
            .map_err(|_| format!("no first line in 60 s; stderr: {}", server.log_tail()))?;
        server.addr = first
            .strip_prefix("serving http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|addr| addr.parse().ok())
            .ok_or_else(|| format!("the first line is not `serving http://ADDR/`: {first:?}"))?;
        Ok(server)
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn log_tail(&self) -> String {
        let log = self.log.lock().unwrap();
        log[log.len().saturating_sub(5)..].join(" | ")
    }

    /// SIGKILL, as a crash would end it.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        SERVER_PID.store(0, Ordering::SeqCst);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A second `serve` on `db`: its exit code (`None` if it was still running after 20 s and
/// was killed), what it wrote, and how long it took.
fn second_server(bin: &Path, db: &Path) -> (Option<i32>, String, Duration) {
    let started = Instant::now();
    let child = Command::new(bin)
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return (None, format!("cannot start: {e}"), started.elapsed()),
    };
    let code = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status.code().unwrap_or(-1)),
            Ok(None) if started.elapsed() < Duration::from_secs(20) => {
                std::thread::sleep(Duration::from_millis(50));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let mut output = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = out.read_to_string(&mut output);
    }
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut output);
    }
    (code, output.trim().to_string(), started.elapsed())
}

/// A figure of `/proc/PID/status` (`VmRSS`), in KiB.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

/// Connections the system dropped because a listen queue was full (`ListenOverflows` in
/// `/proc/net/netstat`, for the whole machine).
fn listen_overflows() -> u64 {
    let Ok(text) = std::fs::read_to_string("/proc/net/netstat") else {
        return 0;
    };
    let lines: Vec<&str> = text.lines().collect();
    lines
        .chunks(2)
        .filter_map(|pair| {
            let (names, values) = (pair.first()?, pair.get(1)?);
            let at = names
                .split_whitespace()
                .position(|n| n == "ListenOverflows")?;
            values.split_whitespace().nth(at)?.parse().ok()
        })
        .next()
        .unwrap_or(0)
}

/// The process's threads (`Threads` in `/proc/PID/status`).
fn threads(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Threads:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

/// The process's soft open-files limit, which caps the server's connections.
fn open_files(pid: u32) -> Option<u64> {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

// ---------------------------------------------------------------------------------------
// A small HTTP/1.1 client: this one chooses its source address and may send what no
// library would (a head never finished, a length it never sends).

/// Connects to `server` from `from`.
async fn connect_from(from: Ipv4Addr, server: SocketAddr) -> io::Result<TcpStream> {
    connect_with(from, server, None).await
}

/// Connects to `server` from `from`, with a receive buffer of `receive` bytes if given.
async fn connect_with(
    from: Ipv4Addr,
    server: SocketAddr,
    receive: Option<u32>,
) -> io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.set_reuseaddr(true)?;
    if let Some(size) = receive {
        socket.set_recv_buffer_size(size)?;
    }
    socket.bind(SocketAddr::from((from, 0)))?;
    let stream = socket.connect(server).await?;
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// An answer: its status, headers (names in lower case) and body.
#[derive(Clone, Debug, Default)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    fn code(&self) -> String {
        self.json()["code"].as_str().unwrap_or("").to_string()
    }

    fn retry_after(&self) -> Option<u64> {
        self.header("retry-after")?.parse().ok()
    }

    fn brief(&self) -> String {
        let body = String::from_utf8_lossy(&self.body[..self.body.len().min(160)]).into_owned();
        format!("{} {body}", self.status)
    }

    /// Reads a whole answer out of `bytes` (a refusal written at once, then a close).
    fn parse(bytes: &[u8]) -> Option<Reply> {
        let end = find(bytes, b"\r\n\r\n")? + 4;
        let (status, headers) = parse_head(&bytes[..end])?;
        Some(Reply {
            status,
            headers,
            body: bytes[end..].to_vec(),
        })
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn parse_head(head: &[u8]) -> Option<(u16, Vec<(String, String)>)> {
    let head = String::from_utf8_lossy(head);
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Some((status, headers))
}

fn bad_data(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// The longest an HTTP answer is waited for.
const HTTP_WAIT: Duration = Duration::from_secs(15);

/// One kept-alive connection.
struct Http {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Http {
    async fn open(from: Ipv4Addr, server: SocketAddr) -> io::Result<Http> {
        Ok(Http {
            stream: connect_from(from, server).await?,
            buf: Vec::new(),
        })
    }

    /// Sends a request and reads its answer.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> io::Result<Reply> {
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: soak\r\n");
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if let Some(body) = body {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body.unwrap_or_default());
        self.stream.write_all(&bytes).await?;
        match tokio::time::timeout(HTTP_WAIT, self.read_reply()).await {
            Ok(reply) => reply,
            Err(_) => Err(io::Error::new(io::ErrorKind::TimedOut, "no answer in 15 s")),
        }
    }

    /// A JSON request: `body` as JSON, `token` as a bearer.
    async fn json(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> io::Result<Reply> {
        let bearer = token.map(|t| format!("Bearer {t}"));
        let mut headers = Vec::new();
        if let Some(bearer) = &bearer {
            headers.push(("Authorization", bearer.as_str()));
        }
        let body = body.map(|b| b.to_string().into_bytes());
        if body.is_some() {
            headers.push(("Content-Type", "application/json"));
        }
        self.call(method, path, &headers, body.as_deref()).await
    }

    async fn fill(&mut self) -> io::Result<usize> {
        self.buf.reserve(16 * 1024);
        self.stream.read_buf(&mut self.buf).await
    }

    async fn read_reply(&mut self) -> io::Result<Reply> {
        let head_end = loop {
            if let Some(i) = find(&self.buf, b"\r\n\r\n") {
                break i + 4;
            }
            if self.buf.len() > 64 * 1024 {
                return Err(bad_data("a head over 64 KiB"));
            }
            if self.fill().await? == 0 {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "closed"));
            }
        };
        let (status, headers) =
            parse_head(&self.buf[..head_end]).ok_or_else(|| bad_data("no status line"))?;
        self.buf.drain(..head_end);
        let header = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        let body = if let Some(length) = header("content-length").and_then(|v| v.parse().ok()) {
            while self.buf.len() < length {
                if self.fill().await? == 0 {
                    return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "short body"));
                }
            }
            self.buf.drain(..length).collect()
        } else if header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
            self.read_chunked().await?
        } else if status == 204 || status == 304 || status < 200 {
            Vec::new()
        } else {
            while self.fill().await? > 0 {}
            std::mem::take(&mut self.buf)
        };
        Ok(Reply {
            status,
            headers,
            body,
        })
    }

    async fn read_chunked(&mut self) -> io::Result<Vec<u8>> {
        let mut body = Vec::new();
        loop {
            let line_end = loop {
                if let Some(i) = find(&self.buf, b"\r\n") {
                    break i;
                }
                if self.fill().await? == 0 {
                    return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "short chunk"));
                }
            };
            let line = String::from_utf8_lossy(&self.buf[..line_end]).into_owned();
            let size = usize::from_str_radix(line.split(';').next().unwrap_or("").trim(), 16)
                .map_err(|_| bad_data("a chunk size"))?;
            self.buf.drain(..line_end + 2);
            while self.buf.len() < size + 2 {
                if self.fill().await? == 0 {
                    return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "short chunk"));
                }
            }
            body.extend_from_slice(&self.buf[..size]);
            self.buf.drain(..size + 2);
            if size == 0 {
                return Ok(body);
            }
        }
    }
}

/// One JSON request on a connection of its own.
async fn once(
    from: Ipv4Addr,
    server: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> io::Result<Reply> {
    let mut http = tokio::time::timeout(HTTP_WAIT, Http::open(from, server))
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no connection in 15 s"))??;
    http.json(method, path, token, body).await
}

// ---------------------------------------------------------------------------------------
// Websockets, from a chosen address.

type Ws = WebSocketStream<TcpStream>;

/// What opening a socket gave.
enum Opened {
    Open(Box<Ws>),
    /// The upgrade was answered with this status and JSON code, and its headers.
    Refused(u16, String, Vec<(String, String)>),
    Failed(String),
}

async fn open_socket(from: Ipv4Addr, server: SocketAddr, path: &str) -> Opened {
    let stream = match connect_from(from, server).await {
        Ok(stream) => stream,
        Err(e) => return Opened::Failed(format!("connect: {e}")),
    };
    // Small buffers: hundreds of these are held open at once.
    let config = tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0);
    let url = format!("ws://{server}{path}");
    let opened = tokio::time::timeout(
        HTTP_WAIT,
        tokio_tungstenite::client_async_with_config(url, stream, Some(config)),
    )
    .await;
    match opened {
        Ok(Ok((ws, _))) => Opened::Open(Box::new(ws)),
        Ok(Err(tungstenite::Error::Http(response))) => {
            let body: Value = response
                .body()
                .as_deref()
                .and_then(|b| serde_json::from_slice(b).ok())
                .unwrap_or(Value::Null);
            let headers = response
                .headers()
                .iter()
                .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
                .collect();
            Opened::Refused(
                response.status().as_u16(),
                body["code"].as_str().unwrap_or("").to_string(),
                headers,
            )
        }
        Ok(Err(e)) => Opened::Failed(e.to_string()),
        Err(_) => Opened::Failed("no upgrade in 15 s".into()),
    }
}

async fn send(ws: &mut Ws, message: Value) -> bool {
    ws.send(Message::Text(message.to_string().into()))
        .await
        .is_ok()
}

// ---------------------------------------------------------------------------------------
// Counting answers.

/// A refusal as a limit promises it.
#[derive(Clone, Copy, Debug)]
struct Promise {
    status: u16,
    code: &'static str,
    retry_after: bool,
}

const RATE_LIMITED: Promise = Promise {
    status: 429,
    code: "rate-limited",
    retry_after: true,
};
const SERVER_BUSY: Promise = Promise {
    status: 503,
    code: "server-busy",
    retry_after: true,
};
const TOO_MANY: Promise = Promise {
    status: 429,
    code: "too-many",
    retry_after: false,
};
const BODY_TOO_LARGE: Promise = Promise {
    status: 413,
    code: "body-too-large",
    retry_after: false,
};
const NOT_JSON: Promise = Promise {
    status: 415,
    code: "unsupported-media-type",
    retry_after: false,
};
const ENGINES_ONLY_OFF: Promise = Promise {
    status: 403,
    code: "engines-only-off",
    retry_after: false,
};

/// How an attack's requests were answered.
#[derive(Default, Debug)]
struct Tally {
    accepted: u64,
    refused: u64,
    /// Refusals by status and code.
    refusals: BTreeMap<String, u64>,
    /// Other answers by status (a 409 for an offer nobody made...).
    other: BTreeMap<u16, u64>,
    /// Answers that break the promise (a refusal without its Retry-After), a few of each.
    wrong: Vec<String>,
    /// Requests that got no answer at all.
    failed: u64,
    failures: Vec<String>,
}

impl Tally {
    /// Counts `reply`: accepted (2xx), refused as one of `promises` says, or something else.
    fn count(&mut self, reply: &Reply, promises: &[Promise]) {
        if (200..300).contains(&reply.status) {
            self.accepted += 1;
            return;
        }
        let code = reply.code();
        if let Some(p) = promises
            .iter()
            .find(|p| p.status == reply.status && p.code == code)
        {
            self.refused += 1;
            *self
                .refusals
                .entry(format!("{} {}", p.status, p.code))
                .or_default() += 1;
            if p.retry_after && reply.retry_after().is_none() && self.wrong.len() < 5 {
                self.wrong
                    .push(format!("{} without Retry-After", reply.brief()));
            }
            return;
        }
        *self.other.entry(reply.status).or_default() += 1;
    }

    fn failed(&mut self, why: impl std::fmt::Display) {
        self.failed += 1;
        if self.failures.len() < 3 {
            self.failures.push(why.to_string());
        }
    }

    fn merge(&mut self, other: Tally) {
        self.accepted += other.accepted;
        self.refused += other.refused;
        for (k, v) in other.refusals {
            *self.refusals.entry(k).or_default() += v;
        }
        for (k, v) in other.other {
            *self.other.entry(k).or_default() += v;
        }
        self.wrong.extend(other.wrong);
        self.failed += other.failed;
        self.failures.extend(other.failures);
    }

    fn others(&self) -> u64 {
        self.other.values().sum()
    }

    fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .refusals
            .iter()
            .map(|(k, v)| format!("{v}× {k}"))
            .collect();
        parts.extend(self.other.iter().map(|(k, v)| format!("{v}× {k}")));
        if self.failed > 0 {
            parts.push(format!(
                "{} unanswered (first: {})",
                self.failed,
                self.failures.first().map_or("", String::as_str)
            ));
        }
        parts.join(", ")
    }
}

/// One line of the table.
struct Row {
    order: usize,
    attack: String,
    from: String,
    limit: String,
    answer: String,
    accepted: u64,
    refused: u64,
    note: String,
}

// ---------------------------------------------------------------------------------------
// The run's shared state.

/// What the bystander measured.
#[derive(Default)]
struct Bystander {
    /// (phase, move sent to its ack, in the engine game, sent how long after the start).
    acks: Mutex<Vec<(usize, Duration, bool, Duration)>>,
    /// (phase as the wait began, ack of the person's move to the engine's move).
    replies: Mutex<Vec<(usize, Duration)>>,
    /// (phase, time, status: 0 for no answer) of its page requests.
    probes: Mutex<Vec<(usize, Duration, u16)>>,
    /// Every acknowledged move: game, ply, text.
    acked: Mutex<Vec<(String, usize, String)>>,
    /// The human game in progress (the socket attacks aim at it).
    human_game: Mutex<Option<(String, String)>>,
    /// Refusals the bystander met (a limit meant for others).
    refusals: Mutex<Vec<String>>,
    games: AtomicU64,
    /// Set before the server is killed: the sockets' closing is expected then.
    stopping: AtomicBool,
    /// Set while the connection cap is filled on purpose.
    probes_paused: AtomicBool,
}

struct Run {
    server: SocketAddr,
    pid: u32,
    started: Instant,
    phase: AtomicUsize,
    stop_attacks: AtomicBool,
    failures: Mutex<Vec<String>>,
    rows: Mutex<Vec<Row>>,
    /// Figures and findings beyond the table.
    notes: Mutex<Vec<String>>,
    by: Bystander,
    /// Games created during the run (live games stay in memory).
    games_created: AtomicU64,
    /// Moves acknowledged to the write flood.
    flood_moves: AtomicU64,
    /// The server's resident KiB and threads, and the machine's listen queue overflows so
    /// far, as each phase began.
    memory: Mutex<Vec<(usize, u64, u64, u64)>>,
    /// Attacks' bursts, by when they began and ended, to set the slow acks beside.
    events: Mutex<Vec<(Duration, Duration, String)>>,
    /// The most connections and websockets the run held open at once.
    held_max: AtomicUsize,
}

impl Run {
    fn fail(&self, what: impl Into<String>) {
        let what = what.into();
        eprintln!("FAIL: {what}");
        self.failures.lock().unwrap().push(what);
    }

    fn check(&self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.fail(what());
        }
    }

    fn note(&self, what: impl Into<String>) {
        if self.phase() >= PHASE_AGAIN {
            return;
        }
        let what = what.into();
        println!("  note: {what}");
        self.notes.lock().unwrap().push(what);
    }

    fn phase(&self) -> usize {
        self.phase.load(Ordering::Relaxed)
    }

    fn enter(&self, phase: usize) {
        self.phase.store(phase, Ordering::Relaxed);
        let (rss, threads) = (rss_kib(self.pid), threads(self.pid));
        println!(
            "[{:6.1} s] {}  (server: {} MiB resident, {threads} threads)",
            self.started.elapsed().as_secs_f64(),
            PHASES[phase],
            rss / 1024,
        );
        self.memory
            .lock()
            .unwrap()
            .push((phase, rss, threads, listen_overflows()));
    }

    fn event(&self, began: Instant, what: &str) {
        self.events.lock().unwrap().push((
            began - self.started,
            self.started.elapsed(),
            what.to_string(),
        ));
    }

    fn attacking(&self) -> bool {
        !self.stop_attacks.load(Ordering::Relaxed)
    }

    #[allow(clippy::too_many_arguments)]
    fn row(
        &self,
        order: usize,
        attack: &str,
        from: String,
        limit: &str,
        answer: &str,
        tally: &Tally,
        note: String,
    ) {
        for wrong in &tally.wrong {
            self.fail(format!("{attack}: {wrong}"));
        }
        if self.phase() >= PHASE_AGAIN {
            return;
        }
        self.rows.lock().unwrap().push(Row {
            order,
            attack: attack.to_string(),
            from,
            limit: limit.to_string(),
            answer: answer.to_string(),
            accepted: tally.accepted,
            refused: tally.refused,
            note: [tally.describe(), note]
                .into_iter()
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join("; "),
        });
    }
}

/// A small xorshift: random moves and think times, no dependency.
struct Rng(u64);

impl Rng {
    fn new(salt: u64) -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        Rng((nanos ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn millis(&mut self, low: u64, high: u64) -> Duration {
        Duration::from_millis(low + self.next() % (high - low + 1))
    }
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn mib(bytes: u64) -> String {
    format!("{:.2} MiB", bytes as f64 / (1 << 20) as f64)
}

/// A chess game of two people, its creator White.
fn human_game(listed: bool, clock: Option<Value>) -> Value {
    let mut game = json!({
        "variant": "chess",
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "me": 0,
        "listed": listed,
    });
    if let Some(clock) = clock {
        game["clock"] = clock;
    }
    game
}

/// Creates a game from `from`, waiting out refusals (as a person would) up to `patience`:
/// its id and token.
async fn create(
    run: &Run,
    from: Ipv4Addr,
    body: &Value,
    patience: Duration,
) -> Result<(String, String), String> {
    let started = Instant::now();
    loop {
        let reply = once(from, run.server, "POST", "/api/games", None, Some(body))
            .await
            .map_err(|e| format!("create: {e}"))?;
        if reply.status == 201 {
            run.games_created.fetch_add(1, Ordering::Relaxed);
            let v = reply.json();
            let id = v["id"].as_str().unwrap_or_default().to_string();
            let token = v["token"].as_str().unwrap_or_default().to_string();
            return Ok((id, token));
        }
        let wait = Duration::from_secs(reply.retry_after().unwrap_or(1).clamp(1, 10));
        if !matches!(reply.status, 429 | 503) || started.elapsed() + wait > patience {
            return Err(format!("create: {}", reply.brief()));
        }
        if from == BYSTANDER {
            run.by.refusals.lock().unwrap().push(format!(
                "{} creating a game: {}",
                PHASES[run.phase()],
                reply.brief()
            ));
        }
        tokio::time::sleep(wait).await;
    }
}

async fn join(run: &Run, from: Ipv4Addr, id: &str, seat: usize) -> Result<String, String> {
    let reply = once(
        from,
        run.server,
        "POST",
        &format!("/api/games/{id}/seats/{seat}/join"),
        None,
        Some(&json!({})),
    )
    .await
    .map_err(|e| format!("join: {e}"))?;
    match reply.status {
        200 => Ok(reply.json()["token"]
            .as_str()
            .unwrap_or_default()
            .to_string()),
        _ => Err(format!("join: {}", reply.brief())),
    }
}

/// A game of two people, both played from `from`: its id and the two seats' tokens.
async fn pair(
    run: &Run,
    from: Ipv4Addr,
    clock: Option<Value>,
) -> Result<(String, [String; 2]), String> {
    let (id, white) = create(
        run,
        from,
        &human_game(false, clock),
        Duration::from_secs(20),
    )
    .await?;
    let black = join(run, from, &id, 1).await?;
    Ok((id, [white, black]))
}

/// A socket of the bystander's: a refusal of the site's total (every connection taken) is
/// waited out as the browser client would, and noted.
async fn bystander_socket(run: &Run, id: &str, token: &str) -> Result<Ws, String> {
    let mut tries = 0;
    loop {
        match seat_socket(run, BYSTANDER, id, token).await {
            Err(e) if e.contains("503") && tries < 5 => {
                tries += 1;
                run.by
                    .refusals
                    .lock()
                    .unwrap()
                    .push(format!("{} opening a socket: {e}", PHASES[run.phase()]));
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
            result => return result,
        }
    }
}

async fn seat_socket(run: &Run, from: Ipv4Addr, id: &str, token: &str) -> Result<Ws, String> {
    match open_socket(
        from,
        run.server,
        &format!("/api/games/{id}/socket?token={token}"),
    )
    .await
    {
        Opened::Open(ws) => Ok(*ws),
        Opened::Refused(status, code, _) => Err(format!("socket refused: {status} {code}")),
        Opened::Failed(e) => Err(format!("socket: {e}")),
    }
}

/// The moves `state` lets `seat` make now (none if it is not its turn).
fn my_moves(state: &Value, seat: usize) -> Vec<String> {
    let mine = state["to_move"]
        .as_array()
        .is_some_and(|s| s.iter().any(|x| x.as_u64() == Some(seat as u64)));
    if !mine {
        return Vec::new();
    }
    state["legal"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|m| m["text"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

async fn sleep_until_opt(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

// ---------------------------------------------------------------------------------------
// The bystander: a person playing another person (two sockets) and the engine, with 200-400
// ms of thought a move, and now and then loading the ruleset listing and the lobby.

/// A move as a weak player picks it in the engine game: mostly what a search two plies deep
/// of its own finds, now and then one at random. A random mover loses to the engine in a
/// dozen moves, and a person does not start a new game every fifteen seconds (a rematch is a
/// new game of the creation allowance, ten then six a minute).
fn considered_move(fen: &str, legal: &[String], rng: &mut Rng) -> String {
    if rng.below(4) != 0
        && let Ok(mut session) = chaturanga_session::open("chess", 1)
        && session.reset(Some(fen)).is_ok()
    {
        let limits = chaturanga_engine::Limits {
            depth: Some(2),
            ..chaturanga_engine::Limits::default()
        };
        if let Some(best) = session.search(&limits, &mut |_| {}).best
            && legal.contains(&best)
        {
            return best;
        }
    }
    legal[rng.below(legal.len())].clone()
}

/// How a seat's play ended.
enum SeatEnd {
    Over,
    Rematch { game: String, seat: usize },
    Stopped,
    Broken(String),
}

/// A seat in a move, sent and not yet acknowledged.
struct Pending {
    ack: u64,
    sent: Instant,
    ply: usize,
    text: String,
}

/// Plays `seat` of `game` on `ws` until the game ends or the run stops. In the engine game
/// it measures the engine's replies and asks for a rematch at the end (engines agree), so
/// that it needs no new game of the engine-game allowance.
async fn bystander_seat(
    run: &Run,
    mut ws: Ws,
    game: &str,
    seat: usize,
    engine: bool,
    rng: &mut Rng,
) -> SeatEnd {
    let by = &run.by;
    let mut planned: Option<(tokio::time::Instant, usize, String, Instant)> = None;
    let mut pending: Option<Pending> = None;
    let mut last_planned: Option<usize> = None;
    let mut acked_at: Option<(Instant, usize)> = None;
    let mut acks = 0u64;
    let mut over_since: Option<Instant> = None;
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    loop {
        let wake = planned.as_ref().map(|p| p.0);
        tokio::select! {
            message = ws.next() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(_)) => continue,
                    Some(Err(e)) if !by.stopping.load(Ordering::Relaxed) => {
                        return SeatEnd::Broken(format!("socket of {game}: {e}"));
                    }
                    None if !by.stopping.load(Ordering::Relaxed) => {
                        return SeatEnd::Broken(format!("socket of {game} closed"));
                    }
                    _ => return SeatEnd::Stopped,
                };
                let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                match v["t"].as_str() {
                    Some("ack") => {
                        if let Some(p) = pending.take_if(|p| v["d"].as_u64() == Some(p.ack)) {
                            let now = Instant::now();
                            by.acks.lock().unwrap().push((
                                run.phase(),
                                now - p.sent,
                                engine,
                                p.sent - run.started,
                            ));
                            by.acked.lock().unwrap().push((game.to_string(), p.ply, p.text));
                            if engine {
                                acked_at = Some((now, run.phase()));
                            }
                        }
                    }
                    Some("error") => {
                        run.fail(format!("the bystander was refused in {}: {text}", PHASES[run.phase()]));
                        pending = None;
                    }
                    Some("move") if engine && v["d"]["seat"].as_u64() != Some(seat as u64) => {
                        if let Some((at, phase)) = acked_at.take() {
                            by.replies.lock().unwrap().push((phase, at.elapsed()));
                        }
                    }
                    Some("rematch") => {
                        let next = v["d"]["seats"][seat].as_u64().unwrap_or(seat as u64) as usize;
                        if let Some(id) = v["d"]["game"].as_str() {
                            return SeatEnd::Rematch { game: id.to_string(), seat: next };
                        }
                    }
                    Some("state") => {
                        let d = &v["d"];
                        if d["status"] != "ongoing" {
                            if !engine {
                                return SeatEnd::Over;
                            }
                            if over_since.is_none() {
                                over_since = Some(Instant::now());
                                if !send(&mut ws, json!({"t": "rematch-offer"})).await {
                                    return SeatEnd::Over;
                                }
                            }
                            continue;
                        }
                        let ply = d["ply"].as_u64().unwrap_or(0) as usize;
                        let moves = my_moves(d, seat);
                        if !moves.is_empty() && pending.is_none() && planned.is_none()
                            && last_planned != Some(ply)
                        {
                            let text = if engine {
                                considered_move(d["fen"].as_str().unwrap_or(""), &moves, rng)
                            } else {
                                moves[rng.below(moves.len())].clone()
                            };
                            let at = tokio::time::Instant::now() + rng.millis(200, 400);
                            planned = Some((at, ply, text, Instant::now()));
                        }
                    }
                    _ => {}
                }
            }
            _ = sleep_until_opt(wake) => {
                let Some((_, ply, text, began)) = planned.take() else { continue };
                acks += 1;
                let message = json!({"t": "move", "d": {
                    "move": text, "ply": ply, "ack": acks,
                    "think_ms": began.elapsed().as_millis() as u64,
                }});
                last_planned = Some(ply);
                pending = Some(Pending { ack: acks, sent: Instant::now(), ply, text });
                if !send(&mut ws, message).await && !by.stopping.load(Ordering::Relaxed) {
                    return SeatEnd::Broken(format!("sending on {game}"));
                }
            }
            _ = tick.tick() => {
                if by.stopping.load(Ordering::Relaxed) {
                    return SeatEnd::Stopped;
                }
                if over_since.is_some_and(|t| t.elapsed() > Duration::from_secs(5)) {
                    return SeatEnd::Over;
                }
            }
        }
    }
}

/// The bystander's games against another person (itself, on two sockets), one after another.
async fn bystander_people(run: Arc<Run>) {
    let mut rngs = [Rng::new(1), Rng::new(2)];
    let clock = json!({"kind": "fischer", "base": 600, "increment": 0});
    while !run.by.stopping.load(Ordering::Relaxed) {
        let (id, tokens) = match pair(&run, BYSTANDER, Some(clock.clone())).await {
            Ok(game) => game,
            Err(e) => {
                run.fail(format!("the bystander could not start a game: {e}"));
                tokio::time::sleep(Duration::from_secs(2)).await;
                continue;
            }
        };
        run.by.games.fetch_add(1, Ordering::Relaxed);
        let mut sockets = Vec::new();
        for token in &tokens {
            match bystander_socket(&run, &id, token).await {
                Ok(ws) => sockets.push(ws),
                Err(e) => run.fail(format!("the bystander's socket: {e}")),
            }
        }
        let (Some(black), Some(white)) = (sockets.pop(), sockets.pop()) else {
            continue;
        };
        *run.by.human_game.lock().unwrap() = Some((id.clone(), tokens[0].clone()));
        let [r0, r1] = &mut rngs;
        let (a, b) = tokio::join!(
            bystander_seat(&run, white, &id, 0, false, r0),
            bystander_seat(&run, black, &id, 1, false, r1),
        );
        for end in [a, b] {
            match end {
                SeatEnd::Broken(e) => run.fail(format!("the bystander's game: {e}")),
                SeatEnd::Stopped => return,
                _ => {}
            }
        }
    }
}

/// The bystander's games against the engine at level 1, without a clock (an engine with a
/// clock shows its move no sooner than a thirtieth of its time, up to 3 s: without one the
/// reply time is the pool's and the search's alone).
async fn bystander_engine(run: Arc<Run>) {
    let mut rng = Rng::new(3);
    let body = json!({
        "variant": "chess",
        "seats": [{"kind": "human"}, {"kind": "engine", "level": 1}],
        "me": 0,
        "listed": false,
    });
    let mut next: Option<(String, String, usize)> = None;
    while !run.by.stopping.load(Ordering::Relaxed) {
        let (id, token, seat) = match next.take() {
            Some(game) => game,
            None => match create(&run, BYSTANDER, &body, Duration::from_secs(70)).await {
                Ok((id, token)) => (id, token, 0),
                Err(e) => {
                    run.fail(format!("the bystander could not start an engine game: {e}"));
                    tokio::time::sleep(Duration::from_secs(2)).await;
                    continue;
                }
            },
        };
        run.by.games.fetch_add(1, Ordering::Relaxed);
        let ws = match bystander_socket(&run, &id, &token).await {
            Ok(ws) => ws,
            Err(e) => {
                run.fail(format!("the bystander's engine socket: {e}"));
                continue;
            }
        };
        match bystander_seat(&run, ws, &id, seat, true, &mut rng).await {
            SeatEnd::Rematch { game, seat } => next = Some((game, token, seat)),
            SeatEnd::Over => {}
            SeatEnd::Stopped => return,
            SeatEnd::Broken(e) => run.fail(format!("the bystander's engine game: {e}")),
        }
    }
}

/// The bystander's page loads: the ruleset listing (compressed, as a browser asks) and the
/// lobby, on new connections, every two seconds.
async fn bystander_pages(run: Arc<Run>) {
    let mut listing = false;
    while !run.by.stopping.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_secs(2)).await;
        if run.by.probes_paused.load(Ordering::Relaxed) || run.by.stopping.load(Ordering::Relaxed) {
            continue;
        }
        listing = !listing;
        let path = if listing {
            "/api/variants"
        } else {
            "/api/games?status=open"
        };
        let started = Instant::now();
        let phase = run.phase();
        let reply = async {
            let mut http = Http::open(BYSTANDER, run.server).await?;
            http.call("GET", path, &[("Accept-Encoding", "br, gzip")], None)
                .await
        }
        .await;
        let took = started.elapsed();
        let status = match &reply {
            Ok(reply) => reply.status,
            Err(_) => 0,
        };
        if status != 200 {
            run.fail(format!(
                "the bystander's GET {path} in {}: {}",
                PHASES[phase],
                match reply {
                    Ok(r) => r.brief(),
                    Err(e) => e.to_string(),
                }
            ));
        }
        run.by.probes.lock().unwrap().push((phase, took, status));
    }
}

// ---------------------------------------------------------------------------------------
// Bots: the attackers' players.

#[derive(Default)]
struct BotStats {
    acked: AtomicU64,
    /// Moves of the other side seen (the engine's, in the engine attack).
    replies: AtomicU64,
    /// Error frames (refusals) received.
    refused: AtomicU64,
}

/// Plays `seat` on `ws` with `think` before each move, until the game ends or the attacks
/// stop: true if the game ended.
async fn bot_seat(run: &Run, mut ws: Ws, seat: usize, think: Duration, stats: &BotStats) -> bool {
    let mut rng = Rng::new(seat as u64 + 10);
    let mut planned: Option<(tokio::time::Instant, usize, String)> = None;
    let mut waiting = false;
    let mut last_planned = None;
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    let mut acks = 0u64;
    loop {
        let wake = planned.as_ref().map(|p| p.0);
        tokio::select! {
            message = ws.next() => {
                let Some(Ok(message)) = message else { return false };
                let Message::Text(text) = message else { continue };
                let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                match v["t"].as_str() {
                    Some("ack") => {
                        waiting = false;
                        stats.acked.fetch_add(1, Ordering::Relaxed);
                    }
                    Some("error") => {
                        waiting = false;
                        stats.refused.fetch_add(1, Ordering::Relaxed);
                    }
                    Some("move") if v["d"]["seat"].as_u64() != Some(seat as u64) => {
                        stats.replies.fetch_add(1, Ordering::Relaxed);
                    }
                    Some("state") => {
                        let d = &v["d"];
                        if d["status"] != "ongoing" {
                            return true;
                        }
                        let ply = d["ply"].as_u64().unwrap_or(0) as usize;
                        let moves = my_moves(d, seat);
                        if !moves.is_empty() && !waiting && planned.is_none()
                            && last_planned != Some(ply)
                        {
                            let text = moves[rng.below(moves.len())].clone();
                            planned = Some((tokio::time::Instant::now() + think, ply, text));
                        }
                    }
                    _ => {}
                }
            }
            _ = sleep_until_opt(wake) => {
                let Some((_, ply, text)) = planned.take() else { continue };
                acks += 1;
                last_planned = Some(ply);
                waiting = true;
                if !send(&mut ws, json!({"t": "move", "d": {"move": text, "ply": ply, "ack": acks}})).await {
                    return false;
                }
            }
            _ = tick.tick() => {
                if !run.attacking() {
                    return false;
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Held connections (silent, half-sent, filling the caps).

/// What became of a connection opened and left.
enum Held {
    /// Refused at once, with this answer.
    Refused(Reply),
    /// Closed by the server after this long.
    Closed(Duration),
    /// Still open when let go.
    Open,
    Failed(String),
}

/// Opens `count` connections from `from`, sending each `head` (perhaps nothing), and watches
/// each until the server closes it or `release` is set.
async fn hold(
    run: &Run,
    from: Ipv4Addr,
    count: usize,
    heads: &[&'static [u8]],
    release: tokio::sync::watch::Receiver<bool>,
) -> Vec<JoinHandle<Held>> {
    let mut watched = Vec::new();
    for i in 0..count {
        watched.push(hold_one(run, from, heads[i % heads.len()], release.clone()).await);
    }
    watched
}

/// Opens one connection from `from`, sends it `head`, and watches it (see [`hold`]).
async fn hold_one(
    run: &Run,
    from: Ipv4Addr,
    head: &'static [u8],
    mut release: tokio::sync::watch::Receiver<bool>,
) -> JoinHandle<Held> {
    let mut stream = match connect_from(from, run.server).await {
        Ok(stream) => stream,
        Err(e) => {
            let e = e.to_string();
            return tokio::spawn(async move { Held::Failed(e) });
        }
    };
    let opened = Instant::now();
    if !head.is_empty() && stream.write_all(head).await.is_err() {
        return tokio::spawn(async { Held::Closed(Duration::ZERO) });
    }
    tokio::spawn(async move {
        let mut bytes = Vec::new();
        loop {
            bytes.reserve(4096);
            tokio::select! {
                read = stream.read_buf(&mut bytes) => match read {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                },
                _ = release.wait_for(|r| *r) => return Held::Open,
                _ = tokio::time::sleep(Duration::from_secs(60)) => return Held::Open,
            }
        }
        let took = opened.elapsed();
        // A refusal is written as soon as the server takes the connection from its queue,
        // which may be a while after it was opened when thousands come at once.
        match Reply::parse(&bytes) {
            Some(reply) if matches!(reply.status, 429 | 503) => Held::Refused(reply),
            _ => Held::Closed(took),
        }
    })
}

/// The outcome of held connections: a tally of the refusals, how many stayed until the
/// server closed them, and the longest they stayed.
struct HeldOutcome {
    tally: Tally,
    closed: u64,
    open: u64,
    shortest: Duration,
    longest: Duration,
}

async fn outcome(watched: Vec<JoinHandle<Held>>, promises: &[Promise]) -> HeldOutcome {
    let mut o = HeldOutcome {
        tally: Tally::default(),
        closed: 0,
        open: 0,
        shortest: Duration::MAX,
        longest: Duration::ZERO,
    };
    for w in watched {
        match w.await {
            Ok(Held::Refused(reply)) => o.tally.count(&reply, promises),
            Ok(Held::Closed(took)) => {
                o.closed += 1;
                o.shortest = o.shortest.min(took);
                o.longest = o.longest.max(took);
            }
            Ok(Held::Open) => o.open += 1,
            Ok(Held::Failed(e)) => o.tally.failed(e),
            Err(e) => o.tally.failed(e),
        }
    }
    // Every connection the server kept is one it accepted.
    o.tally.accepted = o.closed + o.open;
    if o.closed == 0 {
        o.shortest = Duration::ZERO;
    }
    o
}

const HALF_SENT: &[u8] = b"GET /api/variants HTTP/1.1\r\nHost: soak\r\n";

// ---------------------------------------------------------------------------------------
// Phase 1: connections.

/// 200 silent and 200 half-sent connections from one address.
async fn silent_one_client(run: Arc<Run>) {
    let (_release, released) = tokio::sync::watch::channel(false);
    let watched = hold(&run, solo(6), 400, &[b"", HALF_SENT], released).await;
    let o = outcome(watched, &[TOO_MANY]).await;
    run.check(o.tally.accepted == 64 && o.tally.refused == 336, || {
        format!(
            "silent connections, one client: {} kept and {} refused of 400 (64 and 336 promised)",
            o.tally.accepted, o.tally.refused
        )
    });
    run.check(o.open == 0 && o.longest <= CLOSE_BY, || {
        format!(
            "silent connections, one client: {} still open after 60 s; the last closed after {:.1} s",
            o.open,
            o.longest.as_secs_f64()
        )
    });
    run.row(
        40,
        "200 silent + 200 half-sent connections",
        solo(6).to_string(),
        "64 connections per client; 15 s to send a head",
        "429 too-many, closed; kept ones closed at 15 s",
        &o.tally,
        format!(
            "kept ones closed after {:.1}-{:.1} s",
            o.shortest.as_secs_f64(),
            o.longest.as_secs_f64()
        ),
    );
}

/// 1,100 silent connections from 20 addresses, under every per-client cap.
async fn silent_crowd(run: Arc<Run>) {
    let (_release, released) = tokio::sync::watch::channel(false);
    let mut tasks = Vec::new();
    for n in 0..20 {
        let run = run.clone();
        let released = released.clone();
        tasks.push(tokio::spawn(async move {
            hold(&run, crowd(3, n), 55, &[b""], released).await
        }));
    }
    let mut watched = Vec::new();
    for t in tasks {
        watched.extend(t.await.unwrap_or_default());
    }
    let o = outcome(watched, &[TOO_MANY, SERVER_BUSY]).await;
    run.check(o.tally.accepted == 1100 && o.longest <= CLOSE_BY, || {
        format!(
            "1,100 silent connections: {} kept, {} refused, the last closed after {:.1} s",
            o.tally.accepted,
            o.tally.refused,
            o.longest.as_secs_f64()
        )
    });
    run.row(
        41,
        "1,100 silent connections",
        crowd_label(3, 20),
        "15 s to send a head; 4,096 connections in all",
        "kept, closed at 15 s; others' pages answered",
        &o.tally,
        format!(
            "closed after {:.1}-{:.1} s",
            o.shortest.as_secs_f64(),
            o.longest.as_secs_f64()
        ),
    );
}

/// The server's established connections from `client` to `port`, and the bytes the system
/// queues to send on them (`/proc/net/tcp`: what no client-side figure can show).
fn server_side(port: u16, client: Ipv4Addr) -> (u64, u64) {
    let Ok(table) = std::fs::read_to_string("/proc/net/tcp") else {
        return (0, 0);
    };
    let address = |field: &str| -> Option<(Ipv4Addr, u16)> {
        let (ip, port) = field.split_once(':')?;
        let ip = u32::from_str_radix(ip, 16).ok()?;
        Some((
            Ipv4Addr::from(ip.to_le_bytes()),
            u16::from_str_radix(port, 16).ok()?,
        ))
    };
    let (mut open, mut queued) = (0, 0);
    for line in table.lines().skip(1) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (Some(local), Some(remote)) = (
            f.get(1).and_then(|x| address(x)),
            f.get(2).and_then(|x| address(x)),
        ) else {
            continue;
        };
        if local.1 == port && remote.0 == client && f.get(3) == Some(&"01") {
            open += 1;
            queued += f
                .get(4)
                .and_then(|q| q.split(':').next())
                .and_then(|tx| u64::from_str_radix(tx, 16).ok())
                .unwrap_or(0);
        }
    }
    (open, queued)
}

/// Connections with a small receive window that ask for the ruleset listing forty times at
/// once and never read what comes. Most are closed at the 15 s header deadline, but a
/// connection whose answer is still being written when its deadline would start has none.
/// Measured, not held to a bound: no limit speaks of them.
async fn slow_readers(run: Arc<Run>) {
    let from = solo(15);
    let request = b"GET /api/variants HTTP/1.1\r\nHost: soak\r\n\r\n".repeat(40);
    let mut held = Vec::new();
    let mut tally = Tally::default();
    for _ in 0..64 {
        match connect_with(from, run.server, Some(4096)).await {
            Ok(mut stream) => match stream.write_all(&request).await {
                Ok(()) => held.push(stream),
                Err(e) => tally.failed(e),
            },
            Err(e) => tally.failed(e),
        }
    }
    // From the last one opened (a connection the listen queue dropped comes a second later).
    let wait = Duration::from_secs(17);
    tokio::time::sleep(wait).await;
    let (open, queued) = server_side(run.server.port(), from);
    // Held on into the next phase: whether they outlive the 30 s an answer has as well.
    tokio::spawn(async move {
        let later = Duration::from_secs(30);
        tokio::time::sleep(later).await;
        let (still, still_queued) = server_side(run.server.port(), from);
        drop(held);
        tally.accepted = open;
        run.row(
            43,
            "64 connections asking for the listing 40 times, 4 KiB receive window, never \
             reading (measured only)",
            from.to_string(),
            "15 s to send a head; 15 s idle; 30 s to answer; 64 per client",
            "none for a connection being written to",
            &tally,
            format!(
                "{open} of 64 still held {} s after the last was opened ({:.0} MB queued by \
                 the system), {still} after {} s ({:.0} MB)",
                wait.as_secs(),
                queued as f64 / 1e6,
                (wait + later).as_secs(),
                still_queued as f64 / 1e6
            ),
        );
        if still > 0 {
            run.note(format!(
                "a connection that never reads its answers may outlive every deadline: {still} \
                 of 64 were still open {} s after the last was opened, with {:.0} MB queued by \
                 the system for them (4,096 such would ask it for about {:.0} GB)",
                (wait + later).as_secs(),
                still_queued as f64 / 1e6,
                still_queued as f64 / still as f64 * 4096.0 / 1e9
            ));
        }
    });
}

/// A body announced longer than any the server reads.
async fn huge_length(run: Arc<Run>) {
    let mut tally = Tally::default();
    let mut slowest = Duration::ZERO;
    for n in 0..5 {
        let mut started = Instant::now();
        let request: &[u8] = if n % 2 == 0 {
            b"POST /api/games HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n\
              Content-Length: 99999999999\r\n\r\n{"
        } else {
            b"GET /api/games HTTP/1.1\r\nHost: soak\r\nContent-Length: 99999999999\r\n\r\n"
        };
        let reply = async {
            let mut http = Http::open(solo(7), run.server).await?;
            // "At once" is the answer's, not the connection's (see the listen queue).
            started = Instant::now();
            http.stream.write_all(request).await?;
            tokio::time::timeout(Duration::from_secs(10), http.read_reply())
                .await
                .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no answer in 10 s"))?
        }
        .await;
        slowest = slowest.max(started.elapsed());
        match reply {
            Ok(reply) => tally.count(&reply, &[BODY_TOO_LARGE]),
            Err(e) => tally.failed(e),
        }
    }
    run.check(
        tally.refused == 5 && slowest < Duration::from_secs(1),
        || {
            format!(
                "Content-Length 99999999999: {}; the slowest answer took {}",
                tally.describe(),
                ms(slowest)
            )
        },
    );
    run.row(
        50,
        "Content-Length: 99999999999",
        solo(7).to_string(),
        "bodies of 16 KiB",
        "413 body-too-large at once",
        &tally,
        format!("slowest {}", ms(slowest)),
    );
}

/// A cross-site form's content types.
async fn text_plain(run: Arc<Run>) {
    let mut tally = Tally::default();
    let body = human_game(true, None).to_string();
    for n in 0..6 {
        let content_type = match n % 3 {
            0 => "text/plain",
            1 => "application/x-www-form-urlencoded",
            _ => "multipart/form-data; boundary=x",
        };
        let reply = async {
            let mut http = Http::open(solo(8), run.server).await?;
            http.call(
                "POST",
                "/api/games",
                &[("Content-Type", content_type)],
                Some(body.as_bytes()),
            )
            .await
        }
        .await;
        match reply {
            Ok(reply) => tally.count(&reply, &[NOT_JSON]),
            Err(e) => tally.failed(e),
        }
    }
    run.check(tally.refused == 6, || {
        format!("a cross-site form's POST: {}", tally.describe())
    });
    run.row(
        60,
        "POST /api/games as a cross-site form",
        solo(8).to_string(),
        "JSON bodies only",
        "415 unsupported-media-type",
        &tally,
        String::new(),
    );
}

// ---------------------------------------------------------------------------------------
// Phase 2: writes.

/// Whether a 429 is the seat's own allowance of actions (the referee's) rather than the
/// client's.
fn seat_allowance(reply: &Reply) -> bool {
    reply.status == 429
        && reply.json()["error"]
            .as_str()
            .is_some_and(|e| !e.contains("from your address"))
}

/// Four connections looping draw offers and declines over HTTP.
async fn draw_loop(run: Arc<Run>, length: Duration) {
    let from = solo(3);
    let setup = async {
        let (id, tokens) = pair(&run, from, None).await?;
        for (ply, (mv, token)) in [("e2e4", &tokens[0]), ("e7e5", &tokens[1])]
            .into_iter()
            .enumerate()
        {
            let reply = once(
                from,
                run.server,
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(token),
                Some(&json!({"move": mv, "ply": ply})),
            )
            .await
            .map_err(|e| e.to_string())?;
            if reply.status != 200 {
                return Err(format!("move: {}", reply.brief()));
            }
        }
        Ok::<_, String>((id, tokens))
    };
    let (id, tokens) = match setup.await {
        Ok(game) => game,
        Err(e) => {
            run.fail(format!("draw offers: no game: {e}"));
            return;
        }
    };
    let started = Instant::now();
    let seat_refusals = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for c in 0..4 {
        let run = run.clone();
        let path = format!("/api/games/{id}/actions");
        let (token, action) = if c < 2 {
            (tokens[0].clone(), "draw-offer")
        } else {
            (tokens[1].clone(), "draw-decline")
        };
        let seat_refusals = seat_refusals.clone();
        tasks.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            let mut http = None;
            while started.elapsed() < length && run.attacking() {
                if http.is_none() {
                    http = Http::open(from, run.server).await.ok();
                }
                let Some(h) = http.as_mut() else { break };
                match h
                    .json(
                        "POST",
                        &path,
                        Some(&token),
                        Some(&json!({"action": action})),
                    )
                    .await
                {
                    Ok(reply) => {
                        if seat_allowance(&reply) {
                            seat_refusals.fetch_add(1, Ordering::Relaxed);
                        }
                        tally.count(&reply, &[RATE_LIMITED]);
                    }
                    Err(_) => http = None,
                }
            }
            tally
        }));
    }
    let mut tally = Tally::default();
    for t in tasks {
        tally.merge(t.await.unwrap_or_default());
    }
    let secs = started.elapsed().as_secs_f64();
    let seat = seat_refusals.load(Ordering::Relaxed);
    // Every action answered other than by the client's 429 went through the client's
    // allowance: 20, then one every half second.
    let through = tally.accepted + tally.others() + seat;
    let allowed = 20.0 + 2.0 * secs + 3.0;
    run.check(through as f64 <= allowed, || {
        format!("draw offers: {through} actions passed the client's allowance of {allowed:.0}")
    });
    run.check(
        tally.others() == *tally.other.get(&409).unwrap_or(&0),
        || format!("draw offers: unexpected answers: {}", tally.describe()),
    );
    run.row(
        20,
        "draw-offer/draw-decline loop, 4 connections",
        from.to_string(),
        "actions 20 + 2/s per client, 6 + 1/2 s per seat; requests 120 + 20/s",
        "429 rate-limited + Retry-After",
        &tally,
        format!("{seat} of the 429s the seat's own allowance; {secs:.0} s"),
    );
}

/// Many clients, each playing as fast as its socket allowance lets it: the heaviest stream of
/// commits the per-client limits allow 24 addresses.
async fn write_flood(run: Arc<Run>, length: Duration, block: u8) {
    let stats = Arc::new(BotStats::default());
    let games = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for n in 0..24 {
        for _ in 0..2 {
            let (run, stats, games) = (run.clone(), stats.clone(), games.clone());
            tasks.push(tokio::spawn(async move {
                let from = crowd(block, n);
                while run.attacking() && started.elapsed() < length {
                    let Ok((id, tokens)) = pair(&run, from, None).await else {
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    };
                    games.fetch_add(1, Ordering::Relaxed);
                    let (Ok(white), Ok(black)) = (
                        seat_socket(&run, from, &id, &tokens[0]).await,
                        seat_socket(&run, from, &id, &tokens[1]).await,
                    ) else {
                        continue;
                    };
                    // 105 ms a move per game, two games an address: 19 messages a second,
                    // under the 20 a second each address may send.
                    let think = Duration::from_millis(105);
                    let stop = async {
                        while run.attacking() && started.elapsed() < length {
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                    };
                    tokio::select! {
                        _ = async {
                            tokio::join!(
                                bot_seat(&run, white, 0, think, &stats),
                                bot_seat(&run, black, 1, think, &stats),
                            )
                        } => {}
                        _ = stop => {}
                    }
                }
            }));
        }
    }
    for t in tasks {
        let _ = t.await;
    }
    let secs = started.elapsed().as_secs_f64();
    let acked = stats.acked.load(Ordering::Relaxed);
    run.flood_moves.fetch_add(acked, Ordering::Relaxed);
    let tally = Tally {
        accepted: acked,
        refused: stats.refused.load(Ordering::Relaxed),
        ..Tally::default()
    };
    run.row(
        21,
        "moves as fast as allowed, 2 games each",
        crowd_label(block, 24),
        "socket messages 60 + 20/s per client; log truncated past 16 MiB",
        "log under 32 MiB (below)",
        &tally,
        format!(
            "{:.0} moves/s stored in {} games",
            acked as f64 / secs,
            games.load(Ordering::Relaxed)
        ),
    );
}

/// One client creating games as fast as it can on four connections.
async fn creations_one_client(run: Arc<Run>, length: Duration) {
    let from = solo(4);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..4 {
        let run = run.clone();
        tasks.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            let mut http = None;
            let body = human_game(true, None);
            while started.elapsed() < length {
                if http.is_none() {
                    http = Http::open(from, run.server).await.ok();
                }
                let Some(h) = http.as_mut() else { break };
                match h.json("POST", "/api/games", None, Some(&body)).await {
                    Ok(reply) => tally.count(&reply, &[RATE_LIMITED]),
                    Err(_) => http = None,
                }
            }
            tally
        }));
    }
    let mut tally = Tally::default();
    for t in tasks {
        tally.merge(t.await.unwrap_or_default());
    }
    run.games_created
        .fetch_add(tally.accepted, Ordering::Relaxed);
    let secs = started.elapsed().as_secs_f64();
    let allowed = 10.0 + secs / 10.0 + 1.0;
    run.check(
        tally.accepted as f64 <= allowed && tally.others() == 0,
        || {
            format!(
                "game creations, one client: {} created (at most {allowed:.0}); {}",
                tally.accepted,
                tally.describe()
            )
        },
    );
    run.row(
        30,
        "game creations as fast as possible, 4 connections",
        from.to_string(),
        "10 + 1/10 s per client",
        "429 rate-limited + Retry-After",
        &tally,
        format!("{secs:.0} s"),
    );
}

/// A hundred clients creating ten games each at once: the site's total.
async fn creations_crowd(run: Arc<Run>, block: u8) {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for n in 0..100 {
        let run = run.clone();
        tasks.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            let body = human_game(true, None);
            let Ok(mut http) = Http::open(crowd(block, n), run.server).await else {
                tally.failed("connect");
                return tally;
            };
            for _ in 0..10 {
                match http.json("POST", "/api/games", None, Some(&body)).await {
                    Ok(reply) => tally.count(&reply, &[SERVER_BUSY]),
                    Err(e) => tally.failed(e),
                }
            }
            tally
        }));
    }
    let mut tally = Tally::default();
    for t in tasks {
        tally.merge(t.await.unwrap_or_default());
    }
    run.games_created
        .fetch_add(tally.accepted, Ordering::Relaxed);
    run.event(started, "100 clients creating games");
    let secs = started.elapsed().as_secs_f64();
    let allowed = 200.0 + 100.0 * secs + 5.0;
    run.check(
        tally.accepted as f64 <= allowed
            && tally.refused > 0
            && tally.others() == 0
            && tally.failed == 0,
        || {
            format!(
                "game creations, 100 clients: {} created in {secs:.1} s (at most {allowed:.0}); {}",
                tally.accepted,
                tally.describe()
            )
        },
    );
    run.row(
        31,
        "10 game creations each at once",
        crowd_label(block, 100),
        "200 + 100/s in all",
        "503 server-busy + Retry-After",
        &tally,
        format!("{secs:.2} s"),
    );
}

/// One client claiming every open seat of the lobby.
async fn lobby_seats(run: Arc<Run>, length: Duration) {
    let from = solo(5);
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut http = None;
    let mut open_before = None;
    let mut open_after = 0;
    while started.elapsed() < length {
        if http.is_none() {
            http = Http::open(from, run.server).await.ok();
        }
        let Some(h) = http.as_mut() else { break };
        let listing = match h
            .json("GET", "/api/games?status=open&limit=100", None, None)
            .await
        {
            Ok(reply) if reply.status == 200 => reply.json(),
            Ok(reply) => {
                tally.count(&reply, &[RATE_LIMITED]);
                continue;
            }
            Err(_) => {
                http = None;
                continue;
            }
        };
        let seats: Vec<(String, u64)> = listing["games"]
            .as_array()
            .map(|games| {
                games
                    .iter()
                    .flat_map(|g| {
                        let id = g["id"].as_str().unwrap_or_default().to_string();
                        g["seats"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter(|s| s["joined"] == false)
                            .filter_map(move |s| Some((id.clone(), s["seat"].as_u64()?)))
                    })
                    .collect()
            })
            .unwrap_or_default();
        open_after = seats.len();
        open_before.get_or_insert(seats.len());
        if seats.is_empty() {
            break;
        }
        for (id, seat) in seats {
            if started.elapsed() >= length {
                break;
            }
            let path = format!("/api/games/{id}/seats/{seat}/join");
            match h.json("POST", &path, None, Some(&json!({}))).await {
                Ok(reply) => tally.count(&reply, &[RATE_LIMITED]),
                Err(_) => {
                    http = None;
                    break;
                }
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let allowed = 10.0 + secs / 6.0 + 1.0;
    run.check(tally.accepted as f64 <= allowed && open_after > 0, || {
        format!(
            "lobby seats: {} claimed (at most {allowed:.0}), {open_after} left open; {}",
            tally.accepted,
            tally.describe()
        )
    });
    run.row(
        32,
        "claim every open seat of the lobby",
        from.to_string(),
        "joins 10 + 1/6 s per client",
        "429 rate-limited + Retry-After",
        &tally,
        format!(
            "{} open seats listed first, {open_after} at the end",
            open_before.unwrap_or(0)
        ),
    );
}

// ---------------------------------------------------------------------------------------
// Phase 3: engines.

fn chu_against_engine() -> Value {
    json!({
        "variant": "chushogi",
        "seats": [{"kind": "engine", "level": 8}, {"kind": "human"}],
        "me": 1,
        "listed": false,
    })
}

/// Twelve games of two level-8 engines in Chu shogi.
async fn engines_only(run: Arc<Run>) {
    let from = Ipv4Addr::LOCALHOST;
    let body = json!({
        "variant": "chushogi",
        "seats": [{"kind": "engine", "level": 8}, {"kind": "engine", "level": 8}],
        "listed": false,
    });
    let mut tally = Tally::default();
    let mut forbidden = 0;
    for _ in 0..12 {
        match once(from, run.server, "POST", "/api/games", None, Some(&body)).await {
            Ok(reply) => {
                forbidden += u64::from(reply.status == 403);
                tally.count(&reply, &[ENGINES_ONLY_OFF, RATE_LIMITED]);
            }
            Err(e) => tally.failed(e),
        }
    }
    run.check(
        tally.accepted == 0 && tally.refused == 12 && forbidden > 0,
        || format!("games of engines only: {}", tally.describe()),
    );
    run.row(
        10,
        "12 Chu shogi games of two level-8 engines",
        from.to_string(),
        "engine-only games off; engine games 4 + 1/min per client",
        "403 engines-only-off (429 once the engine-game allowance is spent)",
        &tally,
        String::new(),
    );
}

/// Games against the level-8 engine in Chu shogi from `from`, the attacker moving at once
/// whenever it is its turn, until the attacks stop: the tally of the creations and the
/// engine's moves counted in `stats`.
async fn engine_games(
    run: Arc<Run>,
    from: Ipv4Addr,
    tries: usize,
    stats: Arc<BotStats>,
) -> (Tally, Vec<JoinHandle<()>>, Vec<(String, String)>) {
    let mut tally = Tally::default();
    let mut players = Vec::new();
    let mut games = Vec::new();
    for _ in 0..tries {
        let reply = match once(
            from,
            run.server,
            "POST",
            "/api/games",
            None,
            Some(&chu_against_engine()),
        )
        .await
        {
            Ok(reply) => reply,
            Err(e) => {
                tally.failed(e);
                continue;
            }
        };
        tally.count(&reply, &[RATE_LIMITED]);
        if reply.status != 201 {
            continue;
        }
        run.games_created.fetch_add(1, Ordering::Relaxed);
        let v = reply.json();
        let (id, token) = (
            v["id"].as_str().unwrap_or_default().to_string(),
            v["token"].as_str().unwrap_or_default().to_string(),
        );
        games.push((id.clone(), token.clone()));
        let (run, stats) = (run.clone(), stats.clone());
        players.push(tokio::spawn(async move {
            if let Ok(ws) = seat_socket(&run, from, &id, &token).await {
                bot_seat(&run, ws, 1, Duration::ZERO, &stats).await;
            }
        }));
    }
    (tally, players, games)
}

/// Resigns the attackers' engine games: a game that goes on keeps its engine's next search
/// in the pool's line after its player has left, and those would wait beside the
/// bystander's in the phases that follow.
async fn resign_all(run: &Run, games: &[(Ipv4Addr, String, String)]) {
    for (from, id, token) in games {
        let _ = once(
            *from,
            run.server,
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(token),
            Some(&json!({"action": "resign"})),
        )
        .await;
    }
}

/// The engine pool under one client's four level-8 games, then under three clients'.
async fn engine_pool(run: Arc<Run>) {
    let from = solo(2);
    let stats = Arc::new(BotStats::default());
    let started = Instant::now();
    let (tally, players, games) = engine_games(run.clone(), from, 5, stats.clone()).await;
    let mut games: Vec<_> = games.into_iter().map(|(id, t)| (from, id, t)).collect();
    tokio::time::sleep(ENGINES.saturating_sub(started.elapsed())).await;
    let secs = started.elapsed().as_secs_f64();
    let moves = stats.replies.load(Ordering::Relaxed);
    // One client runs at most one of the two threads: a level-8 search is 4 s.
    let allowed = secs / 4.0 + 2.0;
    run.check(
        tally.accepted == 4 && tally.refused == 1 && moves as f64 <= allowed,
        || {
            format!(
                "engine pool, one client: {} games created, {} refused; its engines made \
                 {moves} moves in {secs:.0} s (one search at a time allows {allowed:.0})",
                tally.accepted, tally.refused
            )
        },
    );
    run.row(
        11,
        "4 Chu shogi games against the level-8 engine, moving at once",
        from.to_string(),
        "engine games 4 + 1/min per client; half the engine threads per client",
        "5th: 429 rate-limited + Retry-After; one search at a time",
        &tally,
        format!("its engines moved {moves} times in {secs:.0} s"),
    );

    // Beyond one client: two more addresses with four games each fill both threads.
    run.enter(PHASE_ENGINES_CROWD);
    let crowd_stats = Arc::new(BotStats::default());
    let mut more = Vec::new();
    let mut crowd_tally = Tally::default();
    for n in [20, 21] {
        let (t, p, g) = engine_games(run.clone(), solo(n), 4, crowd_stats.clone()).await;
        crowd_tally.merge(t);
        more.extend(p);
        games.extend(g.into_iter().map(|(id, t)| (solo(n), id, t)));
    }
    tokio::time::sleep(ENGINES_CROWD).await;
    run.stop_attacks.store(true, Ordering::Relaxed);
    for p in players.into_iter().chain(more) {
        let _ = p.await;
    }
    resign_all(&run, &games).await;
    run.stop_attacks.store(false, Ordering::Relaxed);
    run.row(
        12,
        "the same from 3 addresses (measured, not held to a bound)",
        format!("{from}, {}, {}", solo(20), solo(21)),
        "half the engine threads per client",
        "both threads busy: the bystander waits for a search",
        &crowd_tally,
        format!(
            "their engines moved {} times in {} s",
            crowd_stats.replies.load(Ordering::Relaxed) + stats.replies.load(Ordering::Relaxed)
                - moves,
            ENGINES_CROWD.as_secs()
        ),
    );
}

/// The attacks that cost the server memory, together: the connection cap filled beside
/// websockets, sockets on one game, the write flood, a crowd's creations, one client's
/// engine games and the listing readers. `blocks`: the flood's and the creators' blocks of
/// addresses and the engine client's, fresh for each round (their allowances are spent).
async fn attacks_again(run: &Arc<Run>, (flood, creators, engines): (u8, u8, u8)) {
    connection_cap(run.clone()).await;
    sockets_on_one_game(run.clone(), Duration::from_secs(3)).await;
    tokio::join!(
        write_flood(run.clone(), AGAIN, flood),
        async {
            // After the engine games of the round are created: the crowd empties the total.
            tokio::time::sleep(Duration::from_secs(1)).await;
            creations_crowd(run.clone(), creators).await
        },
        engines_again(run.clone(), solo(engines)),
        readers(run.clone(), (0..16).map(|n| crowd(8, n)).collect(), 1, 74),
    );
}

/// One client's four level-8 games again, for the rounds that repeat the attacks.
async fn engines_again(run: Arc<Run>, from: Ipv4Addr) {
    let stats = Arc::new(BotStats::default());
    let (tally, players, games) = engine_games(run.clone(), from, 4, stats).await;
    run.check(tally.accepted == 4, || {
        format!("engine games, again: {}", tally.describe())
    });
    tokio::time::sleep(AGAIN).await;
    run.stop_attacks.store(true, Ordering::Relaxed);
    for p in players {
        let _ = p.await;
    }
    let games: Vec<_> = games.into_iter().map(|(id, t)| (from, id, t)).collect();
    resign_all(&run, &games).await;
}

// ---------------------------------------------------------------------------------------
// Phase 4: readers and sockets.

/// Readers of the ruleset listing and the archive, looping on kept-alive connections.
async fn readers(run: Arc<Run>, from: Vec<Ipv4Addr>, per_address: usize, order: usize) {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (a, &address) in from.iter().enumerate() {
        for c in 0..per_address {
            let run = run.clone();
            let (path, encoding) = match (a + c) % 4 {
                0 | 1 => ("/api/variants", None),
                2 => ("/api/variants", Some("gzip, br")),
                _ => ("/api/games?status=finished&limit=100", None),
            };
            let path = if per_address == 1 {
                "/api/variants"
            } else {
                path
            };
            tasks.push(tokio::spawn(async move {
                let mut tally = Tally::default();
                let mut bytes = 0u64;
                let mut http = None;
                while started.elapsed() < READERS && run.attacking() {
                    if http.is_none() {
                        http = Http::open(address, run.server).await.ok();
                    }
                    let Some(h) = http.as_mut() else { break };
                    let headers: Vec<(&str, &str)> = encoding
                        .map(|e| vec![("Accept-Encoding", e)])
                        .unwrap_or_default();
                    match h.call("GET", path, &headers, None).await {
                        Ok(reply) => {
                            bytes += reply.body.len() as u64;
                            tally.count(&reply, &[RATE_LIMITED]);
                        }
                        Err(_) => http = None,
                    }
                }
                (tally, bytes)
            }));
        }
    }
    let mut tally = Tally::default();
    let mut bytes = 0;
    for t in tasks {
        if let Ok((t, b)) = t.await {
            tally.merge(t);
            bytes += b;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let allowed = from.len() as f64 * (120.0 + 20.0 * secs) + 5.0;
    run.check(
        tally.accepted as f64 <= allowed && tally.others() == 0,
        || {
            format!(
                "readers from {} addresses: {} answered (at most {allowed:.0}); {}",
                from.len(),
                tally.accepted,
                tally.describe()
            )
        },
    );
    let (attack, label) = if from.len() == 1 {
        (
            "listing and archive readers, 8 connections",
            from[0].to_string(),
        )
    } else {
        (
            "ruleset listing readers, uncompressed",
            crowd_label(8, from.len()),
        )
    };
    run.row(
        order,
        attack,
        label,
        "requests 120 + 20/s per client",
        "429 rate-limited + Retry-After",
        &tally,
        format!(
            "{:.0} answers/s, {:.0} MB/s",
            tally.accepted as f64 / secs,
            bytes as f64 / secs / 1e6
        ),
    );
}

/// Opens `count` spectator sockets on `game` from `from`: those kept, and the tally.
async fn spectators(
    run: &Run,
    from: Ipv4Addr,
    game: &str,
    count: usize,
    promises: &[Promise],
) -> (Vec<Ws>, Tally) {
    let mut kept = Vec::new();
    let mut tally = Tally::default();
    for _ in 0..count {
        match open_socket(from, run.server, &format!("/api/games/{game}/socket")).await {
            Opened::Open(ws) => {
                tally.accepted += 1;
                kept.push(*ws);
            }
            Opened::Refused(status, code, headers) => {
                let reply = Reply {
                    status,
                    headers,
                    body: json!({"code": code}).to_string().into_bytes(),
                };
                tally.count(&reply, promises);
            }
            Opened::Failed(e) => tally.failed(e),
        }
    }
    (kept, tally)
}

/// Sockets on the bystander's game: one client's hundred, then a crowd's 520; they never
/// read what the game sends them.
async fn sockets_on_one_game(run: Arc<Run>, hold_for: Duration) {
    let Some((game, token)) = run.by.human_game.lock().unwrap().clone() else {
        run.fail("sockets on one game: the bystander has no game");
        return;
    };
    let (mut kept, tally) = spectators(&run, solo(10), &game, 100, &[TOO_MANY]).await;
    run.check(tally.accepted == 40 && tally.refused == 60, || {
        format!("sockets, one client: {}", tally.describe())
    });
    run.row(
        70,
        "100 sockets on the bystander's game",
        solo(10).to_string(),
        "40 sockets per client",
        "429 too-many",
        &tally,
        String::new(),
    );
    let mut tasks = Vec::new();
    for n in 0..13 {
        let (run, game) = (run.clone(), game.clone());
        tasks.push(tokio::spawn(async move {
            // docs/server.md lists the cap per game with the totals, which it answers 503
            // `server-busy`; the server says 429 `too-many`: either is taken, and the
            // table shows which came.
            spectators(&run, crowd(9, n), &game, 40, &[TOO_MANY, SERVER_BUSY]).await
        }));
    }
    let mut crowd_tally = Tally::default();
    for t in tasks {
        if let Ok((k, t)) = t.await {
            kept.extend(k);
            crowd_tally.merge(t);
        }
    }
    // At most 500 on the game: the attackers' spectators, and the bystander's two seats if
    // the cap counts players too and its game is still this one (a game that ended
    // meanwhile closed them).
    let spectating = tally.accepted + crowd_tally.accepted;
    run.check(spectating <= 500 && crowd_tally.refused > 0, || {
        format!(
            "sockets on one game: {spectating} spectators' sockets open at once (at most 500); {}",
            crowd_tally.describe()
        )
    });
    // A player of the game opening one more socket (a second tab, a reconnection) now.
    let own = match open_socket(
        BYSTANDER,
        run.server,
        &format!("/api/games/{game}/socket?token={token}"),
    )
    .await
    {
        Opened::Open(_) => "opened".to_string(),
        Opened::Refused(status, code, _) => format!("refused, {status} {code}"),
        Opened::Failed(e) => format!("failed: {e}"),
    };
    run.row(
        71,
        "520 sockets on the bystander's game",
        crowd_label(9, 13),
        "500 sockets per game",
        "503 server-busy (docs) or 429 too-many",
        &crowd_tally,
        format!("a seat of the game opening one more socket then: {own}"),
    );
    if !own.starts_with("opened") {
        run.note(format!(
            "with the game's 500 sockets taken by spectators, its own player's new socket was \
             {own}: the cap counts players with spectators"
        ));
    }
    // The bystander plays on with 500 sockets on its game that read nothing.
    tokio::time::sleep(hold_for).await;
    drop(kept);
}

/// One client sending pings as fast as it can, reconnecting when it is closed.
async fn ping_flood(run: Arc<Run>) {
    let from = solo(11);
    let (id, tokens) = match pair(&run, from, None).await {
        Ok(game) => game,
        Err(e) => {
            run.fail(format!("pings: no game: {e}"));
            return;
        }
    };
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut closed = 0;
    let mut pings = 0;
    for _ in 0..3 {
        let Ok(mut ws) = seat_socket(&run, from, &id, &tokens[0]).await else {
            tally.failed("socket");
            continue;
        };
        // Each ping waits for its answer: a server that closes a socket with messages still
        // unread resets it, and a reset throws away what this side had not read yet, so
        // pings sent all at once would be answered but not counted.
        let ping = Message::Text(json!({"t": "ping"}).to_string().into());
        let mut sent = 0;
        while sent < 600 {
            if ws.send(ping.clone()).await.is_err() {
                closed += 1;
                break;
            }
            sent += 1;
            match tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
                Ok(Some(Ok(Message::Text(text)))) => {
                    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                    match v["t"].as_str() {
                        Some("pong") => tally.accepted += 1,
                        Some("error") => {
                            tally.refused += 1;
                            *tally.refusals.entry(v["code"].to_string()).or_default() += 1;
                        }
                        _ => {}
                    }
                }
                Ok(Some(Ok(_))) => {}
                Ok(Some(Err(_)) | None) => {
                    closed += 1;
                    break;
                }
                Err(_) => break,
            }
        }
        pings += sent;
    }
    let secs = started.elapsed().as_secs_f64();
    let allowed = 60.0 + 20.0 * secs + 3.0;
    run.check(tally.accepted as f64 <= allowed && closed == 3, || {
        format!(
            "pings: {} answered in {secs:.1} s over 3 connections (at most {allowed:.0}), {closed} closed by the server",
            tally.accepted
        )
    });
    run.row(
        72,
        "600 pings a connection, reconnecting 3 times",
        from.to_string(),
        "socket messages 60 + 20/s per client, across reconnects",
        "error frame `rate-limited`, closed after 50",
        &tally,
        format!("{pings} sent; {closed} of 3 connections closed by the server; {secs:.2} s"),
    );
}

// ---------------------------------------------------------------------------------------
// Phase 5: lag.

/// Plays White in a 60+0 game, thinking a second a move while claiming `think_ms: 0`. With
/// `slow_pongs` it answers the server's pings late (it reads nothing while it thinks, and
/// nothing for 1.5 s after connecting). Returns the time kept: what the 8 moves after the
/// free first one took, less what the clock was charged.
async fn lag_cheat(run: Arc<Run>, from: Ipv4Addr, slow_pongs: bool) -> Result<Duration, String> {
    let clock = json!({"kind": "fischer", "base": 60, "increment": 0});
    let (id, tokens) = pair(&run, from, Some(clock)).await?;
    let mut white = seat_socket(&run, from, &id, &tokens[0]).await?;
    let black = seat_socket(&run, from, &id, &tokens[1]).await?;
    let stats = Arc::new(BotStats::default());
    let black_player = {
        let (run, stats) = (run.clone(), stats.clone());
        tokio::spawn(async move { bot_seat(&run, black, 1, Duration::ZERO, &stats).await })
    };
    if slow_pongs {
        tokio::time::sleep(Duration::from_millis(1500)).await;
    }
    let mut moved = 0u64;
    let mut last_ply = None;
    let mut taken = Duration::ZERO;
    let mut left_ms = None;
    let mut rng = Rng::new(7);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
    while left_ms.is_none() {
        let message = tokio::time::timeout_at(deadline, white.next())
            .await
            .map_err(|_| "no end in 40 s".to_string())?;
        let Some(Ok(Message::Text(text))) = message else {
            if matches!(message, Some(Ok(_))) {
                continue;
            }
            return Err("white's socket closed".into());
        };
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if v["t"] == "error" {
            return Err(format!("refused: {text}"));
        }
        if v["t"] != "state" {
            continue;
        }
        let d = &v["d"];
        if d["status"] != "ongoing" {
            return Err(format!("the game ended: {}", d["reason"]));
        }
        let ply = d["ply"].as_u64().unwrap_or(0);
        let moves = my_moves(d, 0);
        if moves.is_empty() {
            if moved == 9 {
                left_ms = d["clocks"]["seats"][0]["ms"].as_u64();
            }
            continue;
        }
        // A state may come twice for one ply (the other seat's arrival): one move a ply.
        if last_ply.is_some_and(|last| ply <= last) {
            continue;
        }
        last_ply = Some(ply);
        let turn = Instant::now();
        if moved > 0 {
            let think = Duration::from_millis(1000);
            if slow_pongs {
                tokio::time::sleep(think).await;
            } else {
                // Reading on while thinking: the pings are answered at once.
                let until = tokio::time::Instant::now() + think;
                while let Ok(Some(Ok(_))) = tokio::time::timeout_at(until, white.next()).await {}
            }
            taken += turn.elapsed();
        }
        let text = &moves[rng.below(moves.len())];
        moved += 1;
        let message =
            json!({"t": "move", "d": {"move": text, "ply": ply, "ack": moved, "think_ms": 0}});
        if !send(&mut white, message).await {
            return Err("white's move not sent".into());
        }
    }
    black_player.abort();
    let charged = Duration::from_millis(60_000u64.saturating_sub(left_ms.unwrap_or(0)));
    Ok(taken.saturating_sub(charged))
}

async fn lag(run: Arc<Run>) {
    let (honest, slow) = tokio::join!(
        lag_cheat(run.clone(), solo(12), false),
        lag_cheat(run.clone(), solo(13), true),
    );
    let bound = Duration::from_millis(8 * 150);
    let tally = Tally::default();
    match &honest {
        Ok(kept) => {
            run.check(*kept <= bound, || {
                format!(
                    "think_ms 0: kept {} over 8 moves (at most {})",
                    ms(*kept),
                    ms(bound)
                )
            });
            run.row(
                80,
                "think_ms: 0 on 8 moves of a 60+0 game, a second each",
                solo(12).to_string(),
                "lag forgiven up to the measured round trip (at most 1 s) + 100 ms",
                "charged; at most ~100 ms a move kept",
                &tally,
                format!("kept {} over 8 moves (3.8 s before)", ms(*kept)),
            );
        }
        Err(e) => run.fail(format!("think_ms 0: {e}")),
    }
    match &slow {
        Ok(kept) => {
            // The lag quota of 60+0 (docs/server.md): three gains of 0.39 s to start with and
            // one a turn, over the 8 turns; each turn at most 1 s of round trip + 100 ms.
            let quota_bound = Duration::from_millis(1_170 + 8 * 390 + 50);
            run.check(*kept <= quota_bound, || {
                format!(
                    "think_ms 0, late pongs: kept {} over 8 moves (at most the quota's {})",
                    ms(*kept),
                    ms(quota_bound)
                )
            });
            run.row(
                81,
                "the same, answering pings 1-1.5 s late",
                solo(13).to_string(),
                "a round trip believed up to 1 s, + 100 ms a move; the lag quota over the game",
                "the quota's 4.3 s over 8 moves at most, as on lichess",
                &tally,
                format!("kept {} over 8 moves", ms(*kept)),
            );
        }
        Err(e) => run.fail(format!("think_ms 0, late pongs: {e}")),
    }
}

// ---------------------------------------------------------------------------------------
// Phase 6: the connection cap in all.

async fn connection_cap(run: Arc<Run>) {
    let files = open_files(run.pid);
    let cap = files.map_or(4096, |f| (f.saturating_sub(256)).min(4096)) as usize;
    let addresses = cap / 64 + 2;
    // Websockets held first, from 26 addresses (40 each, their cap) on three games: whether
    // the cap in all counts them.
    let mut sockets = Vec::new();
    let mut games = Vec::new();
    for _ in 0..3 {
        match pair(&run, solo(14), None).await {
            Ok((id, _)) => games.push(id),
            Err(e) => run.fail(format!("connection cap: no game for the sockets: {e}")),
        }
    }
    if !games.is_empty() {
        let mut tasks = Vec::new();
        for n in 0..26 {
            let (run, game) = (run.clone(), games[n % games.len()].clone());
            tasks.push(tokio::spawn(async move {
                spectators(&run, crowd(14, n), &game, 40, &[TOO_MANY]).await
            }));
        }
        for t in tasks {
            if let Ok((kept, _)) = t.await {
                sockets.extend(kept);
            }
        }
    }
    run.by.probes_paused.store(true, Ordering::Relaxed);
    // Let a page load in progress finish.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (release, released) = tokio::sync::watch::channel(false);
    let filling = Instant::now();
    let overflows = listen_overflows();
    // Paced, four connections a millisecond: the server's listen queue holds 128
    // connections not yet taken, and the server takes them more slowly than one client
    // opens them; a connection the queue drops is tried again by the system a second later,
    // and a few hundred of those would outlast the 15 s a held connection lives.
    let mut watched = Vec::new();
    for i in 0..64 {
        for n in 0..addresses {
            watched.push(hold_one(&run, crowd(10, n), b"", released.clone()).await);
            if (i * addresses + n) % 4 == 3 {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }
    }
    let filled_in = filling.elapsed();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let probe = once(
        crowd(10, 240),
        run.server,
        "GET",
        "/api/games?status=open",
        None,
        None,
    )
    .await;
    let _ = release.send(true);
    run.event(filling, "the connection cap filled");
    let o = outcome(watched, &[SERVER_BUSY]).await;
    let mut probe_tally = Tally::default();
    match &probe {
        Ok(reply) => probe_tally.count(reply, &[SERVER_BUSY]),
        Err(e) => probe_tally.failed(e),
    }
    let overflowed = listen_overflows().saturating_sub(overflows);
    run.check(filled_in < Duration::from_secs(10), || {
        format!(
            "connection cap: opening the connections took {:.1} s ({overflowed} connections \
                 overflowed the listen queue): the first would expire before the cap is tried",
            filled_in.as_secs_f64()
        )
    });
    run.check(
        o.tally.accepted <= cap as u64
            && o.tally.refused > 0
            && o.tally.others() == 0
            && probe_tally.refused == 1,
        || {
            format!(
                "connection cap {cap}: {} kept ({} closed by the server after {:.1}-{:.1} s), \
                 {}; a new client then got {}",
                o.tally.accepted,
                o.closed,
                o.shortest.as_secs_f64(),
                o.longest.as_secs_f64(),
                o.tally.describe(),
                match &probe {
                    Ok(reply) => reply.brief(),
                    Err(e) => e.to_string(),
                }
            )
        },
    );
    let held = o.tally.accepted as usize + sockets.len();
    run.held_max.fetch_max(held, Ordering::Relaxed);
    run.row(
        42,
        &format!(
            "{} silent connections, with {} websockets open from {}",
            addresses * 64,
            sockets.len(),
            crowd_label(14, 26)
        ),
        crowd_label(10, addresses),
        &format!(
            "{cap} connections in all (open files {})",
            files.unwrap_or(0)
        ),
        "503 server-busy + Retry-After",
        &o.tally,
        format!(
            "opened in {:.1} s; then a new client: {}; {held} connections open at once with \
             the websockets",
            filled_in.as_secs_f64(),
            probe_tally.describe()
        ),
    );
    if held > cap {
        run.note(format!(
            "websockets are not counted in the connection cap in all: {} plain connections \
             were kept while {} websockets (and the bystander's) were open, {held} in all \
             against a cap of {cap}; sockets have caps per client (40) and per game (500) but \
             none in all, so enough addresses reach the open-files limit",
            o.tally.accepted,
            sockets.len()
        ));
    }
    drop(sockets);
    // The server sees them go.
    tokio::time::sleep(Duration::from_secs(1)).await;
    run.by.probes_paused.store(false, Ordering::Relaxed);
}

// ---------------------------------------------------------------------------------------
// The run.

fn figures(durations: &mut [Duration]) -> String {
    durations.sort();
    format!(
        "n {}  p50 {}  p99 {}  max {}",
        durations.len(),
        ms(percentile(durations, 0.5)),
        ms(percentile(durations, 0.99)),
        ms(durations.last().copied().unwrap_or_default())
    )
}

struct Disk {
    wal_max: AtomicU64,
    wal_max_phase: AtomicUsize,
    /// The largest growth of the log between two samples (100 ms apart).
    wal_step_max: AtomicU64,
    db_max: AtomicU64,
    samples: AtomicU64,
    /// (since the start, size of the log) at every sample.
    timeline: Mutex<Vec<(Duration, u64)>>,
    /// The server's largest resident memory (KiB), and in which phase.
    rss_max: AtomicU64,
    rss_max_phase: AtomicUsize,
}

async fn watch_disk(run: Arc<Run>, db: PathBuf, disk: Arc<Disk>, stop: Arc<AtomicBool>) {
    let wal = PathBuf::from(format!("{}-wal", db.display()));
    let mut every = tokio::time::interval(Duration::from_millis(100));
    let mut last = 0;
    while !stop.load(Ordering::Relaxed) {
        every.tick().await;
        let size = std::fs::metadata(&wal).map_or(0, |m| m.len());
        if size > disk.wal_max.load(Ordering::Relaxed) {
            disk.wal_max.store(size, Ordering::Relaxed);
            disk.wal_max_phase.store(run.phase(), Ordering::Relaxed);
        }
        disk.wal_step_max
            .fetch_max(size.saturating_sub(last), Ordering::Relaxed);
        last = size;
        let db_size = std::fs::metadata(&db).map_or(0, |m| m.len());
        disk.db_max.fetch_max(db_size, Ordering::Relaxed);
        disk.samples.fetch_add(1, Ordering::Relaxed);
        let rss = rss_kib(run.pid);
        if rss > disk.rss_max.load(Ordering::Relaxed) {
            disk.rss_max.store(rss, Ordering::Relaxed);
            disk.rss_max_phase.store(run.phase(), Ordering::Relaxed);
        }
        disk.timeline
            .lock()
            .unwrap()
            .push((run.started.elapsed(), size));
    }
}

/// Kills the server and exits if the run goes on too long, whatever it is waiting for.
fn watchdog() {
    std::thread::spawn(|| {
        std::thread::sleep(WATCHDOG);
        eprintln!(
            "FAIL: the soak run overran {} s; the server is killed",
            WATCHDOG.as_secs()
        );
        kill_pid(SERVER_PID.load(Ordering::SeqCst));
        std::process::exit(2);
    });
}

fn main() -> ExitCode {
    let Some(bin) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: soak PATH/TO/chaturanga");
        return ExitCode::from(2);
    };
    // A panic anywhere is a broken run: the server must not outlive it.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default_hook(info);
        kill_pid(SERVER_PID.load(Ordering::SeqCst));
        std::process::exit(101);
    }));
    watchdog();
    // Interrupted or told to stop, the run takes its server with it.
    std::thread::spawn(|| {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        runtime.block_on(async {
            use tokio::signal::unix::{SignalKind, signal};
            let (Ok(mut interrupt), Ok(mut terminate)) = (
                signal(SignalKind::interrupt()),
                signal(SignalKind::terminate()),
            ) else {
                return;
            };
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
            kill_pid(SERVER_PID.load(Ordering::SeqCst));
            std::process::exit(130);
        });
    });
    let dir = std::env::temp_dir().join(format!("chaturanga-soak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("no runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let failures = runtime.block_on(soak(&bin, &dir));
    runtime.shutdown_timeout(Duration::from_secs(2));
    kill_pid(SERVER_PID.load(Ordering::SeqCst));
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
        println!("\nsoak run passed");
        ExitCode::SUCCESS
    } else {
        println!(
            "\nsoak run FAILED ({} assertions; the database is kept in {}):",
            failures.len(),
            dir.display()
        );
        for f in &failures {
            println!("  - {f}");
        }
        ExitCode::from(1)
    }
}

async fn soak(bin: &Path, dir: &Path) -> Vec<String> {
    let db = dir.join("games.db");
    let mut server = match Server::start(bin, &db) {
        Ok(server) => server,
        Err(e) => return vec![format!("the server did not start: {e}")],
    };
    println!(
        "server {} (pid {}) on {}",
        server.addr,
        server.pid(),
        db.display()
    );
    let run = Arc::new(Run {
        server: server.addr,
        pid: server.pid(),
        started: Instant::now(),
        phase: AtomicUsize::new(0),
        stop_attacks: AtomicBool::new(false),
        failures: Mutex::new(Vec::new()),
        rows: Mutex::new(Vec::new()),
        notes: Mutex::new(Vec::new()),
        by: Bystander::default(),
        games_created: AtomicU64::new(0),
        flood_moves: AtomicU64::new(0),
        memory: Mutex::new(Vec::new()),
        events: Mutex::new(Vec::new()),
        held_max: AtomicUsize::new(0),
    });
    run.enter(0);

    // A second server on the same file, while the first runs.
    {
        let (code, output, took) = second_server(bin, &db);
        run.check(
            code.is_some_and(|c| c != 0) && output.contains("PostgreSQL"),
            || format!("a second server on the same file: exit {code:?}, said {output:?}"),
        );
        let tally = Tally {
            accepted: u64::from(code.is_none() || code == Some(0)),
            refused: u64::from(code.is_some_and(|c| c != 0)),
            ..Tally::default()
        };
        run.row(
            90,
            "a second `serve` on the same SQLite file",
            "-".into(),
            "one server per SQLite file (a lock)",
            "exits nonzero naming PostgreSQL",
            &tally,
            format!(
                "exit {} after {}: {:?}",
                code.map_or("none".into(), |c| c.to_string()),
                ms(took),
                output.lines().last().unwrap_or("")
            ),
        );
    }

    let disk = Arc::new(Disk {
        wal_max: AtomicU64::new(0),
        wal_max_phase: AtomicUsize::new(0),
        wal_step_max: AtomicU64::new(0),
        db_max: AtomicU64::new(0),
        samples: AtomicU64::new(0),
        timeline: Mutex::new(Vec::new()),
        rss_max: AtomicU64::new(0),
        rss_max_phase: AtomicUsize::new(0),
    });
    let disk_stop = Arc::new(AtomicBool::new(false));
    let disk_task = tokio::spawn(watch_disk(
        run.clone(),
        db.clone(),
        disk.clone(),
        disk_stop.clone(),
    ));
    let bystander = [
        tokio::spawn(bystander_people(run.clone())),
        tokio::spawn(bystander_engine(run.clone())),
        tokio::spawn(bystander_pages(run.clone())),
    ];
    tokio::time::sleep(WARM_UP).await;
    let rss_before = rss_kib(run.pid);
    let games_before = run.games_created.load(Ordering::Relaxed);

    run.enter(1);
    tokio::join!(
        silent_one_client(run.clone()),
        silent_crowd(run.clone()),
        huge_length(run.clone()),
        text_plain(run.clone()),
        slow_readers(run.clone()),
    );

    run.enter(2);
    let flood = tokio::spawn(write_flood(run.clone(), WRITES, 6));
    let draws = tokio::spawn(draw_loop(run.clone(), Duration::from_secs(20)));
    creations_one_client(run.clone(), Duration::from_secs(10)).await;
    creations_crowd(run.clone(), 7).await;
    lobby_seats(run.clone(), Duration::from_secs(10)).await;
    let _ = draws.await;
    let _ = flood.await;

    run.enter(3);
    engines_only(run.clone()).await;
    engine_pool(run.clone()).await;

    run.enter(5);
    tokio::join!(
        readers(run.clone(), vec![solo(9)], 8, 73),
        readers(run.clone(), (0..16).map(|n| crowd(8, n)).collect(), 1, 74),
        sockets_on_one_game(run.clone(), Duration::from_secs(10)),
        ping_flood(run.clone()),
    );

    run.enter(6);
    lag(run.clone()).await;

    run.enter(7);
    connection_cap(run.clone()).await;

    run.enter(8);
    run.stop_attacks.store(true, Ordering::Relaxed);
    tokio::time::sleep(COOL_DOWN).await;
    let rss_after = rss_kib(run.pid);
    let games_during = run.games_created.load(Ordering::Relaxed) - games_before;

    // The attacks that cost the server memory, together, twice: the first round may still
    // raise what the allocator keeps, the second, the same, must not (more is a leak).
    let mut rounds = Vec::new();
    for (round, blocks) in [(0, (11, 12, 30)), (1, (16, 15, 31))] {
        let games = run.games_created.load(Ordering::Relaxed);
        run.enter(PHASE_AGAIN + 2 * round);
        run.stop_attacks.store(false, Ordering::Relaxed);
        attacks_again(&run, blocks).await;
        run.enter(PHASE_AGAIN + 2 * round + 1);
        run.stop_attacks.store(true, Ordering::Relaxed);
        tokio::time::sleep(COOL_DOWN).await;
        rounds.push((
            rss_kib(run.pid),
            threads(run.pid),
            run.games_created.load(Ordering::Relaxed) - games,
        ));
    }

    // Killed while the bystander plays on: every move acknowledged must be stored.
    run.by.stopping.store(true, Ordering::Relaxed);
    server.kill();
    for task in bystander {
        let _ = tokio::time::timeout(Duration::from_secs(10), task).await;
    }
    disk_stop.store(true, Ordering::Relaxed);
    let _ = disk_task.await;
    let (checked, missing) = match Server::start(bin, &db) {
        Ok(restarted) => {
            let result = check_stored(&run, restarted.addr).await;
            drop(restarted);
            result
        }
        Err(e) => {
            run.fail(format!("the server did not start again: {e}"));
            (0, 0)
        }
    };

    let memory = Memory {
        warm: rss_before,
        after: rss_after,
        games: games_during,
        rounds,
    };
    report(&run, &disk, &memory, checked, missing);
    run.failures.lock().unwrap().clone()
}

/// Reads every game the bystander played from the restarted server: each acknowledged move
/// must be in its `moves`. Returns how many were checked and how many were missing.
async fn check_stored(run: &Run, server: SocketAddr) -> (usize, usize) {
    let acked = run.by.acked.lock().unwrap().clone();
    let mut by_game: BTreeMap<String, Vec<(usize, String)>> = BTreeMap::new();
    for (game, ply, text) in acked {
        by_game.entry(game).or_default().push((ply, text));
    }
    let (mut checked, mut missing) = (0, 0);
    for (game, moves) in by_game {
        let stored = match once(
            BYSTANDER,
            server,
            "GET",
            &format!("/api/games/{game}"),
            None,
            None,
        )
        .await
        {
            Ok(reply) if reply.status == 200 => reply.json(),
            Ok(reply) => {
                run.fail(format!("game {game} after the restart: {}", reply.brief()));
                continue;
            }
            Err(e) => {
                run.fail(format!("game {game} after the restart: {e}"));
                continue;
            }
        };
        for (ply, text) in moves {
            checked += 1;
            if stored["moves"][ply].as_str() != Some(text.as_str()) {
                missing += 1;
                if missing <= 5 {
                    run.fail(format!(
                        "game {game}: move {ply} {text} was acknowledged, the store has {}",
                        stored["moves"][ply]
                    ));
                }
            }
        }
    }
    run.check(checked > 0 && missing == 0, || {
        format!("{missing} of {checked} acknowledged moves missing after the restart")
    });
    (checked, missing)
}

/// The server's resident memory (KiB) after the warm-up and after the attacks, the games
/// created meanwhile, and after each round of the attacks again: memory, threads, games.
struct Memory {
    warm: u64,
    after: u64,
    games: u64,
    rounds: Vec<(u64, u64, u64)>,
}

fn report(run: &Run, disk: &Disk, memory: &Memory, checked: usize, missing: usize) {
    let mut rows = std::mem::take(&mut *run.rows.lock().unwrap());
    rows.sort_by_key(|r| r.order);
    println!("\n| attack | from | limit | answer | accepted | refused | details |");
    println!("|---|---|---|---|---:|---:|---|");
    for r in &rows {
        let (accepted, refused) = match (r.accepted, r.refused) {
            (0, 0) => ("-".to_string(), "-".to_string()),
            (a, b) => (a.to_string(), b.to_string()),
        };
        println!(
            "| {} | {} | {} | {} | {accepted} | {refused} | {} |",
            r.attack, r.from, r.limit, r.answer, r.note
        );
    }

    println!("\nThe bystander ({BYSTANDER}):");
    let acks = run.by.acks.lock().unwrap().clone();
    let mut all: Vec<Duration> = acks.iter().map(|a| a.1).collect();
    let mut people: Vec<Duration> = acks.iter().filter(|a| !a.2).map(|a| a.1).collect();
    let mut engine: Vec<Duration> = acks.iter().filter(|a| a.2).map(|a| a.1).collect();
    println!("  move acks, all:          {}", figures(&mut all));
    println!("  move acks, two people:   {}", figures(&mut people));
    println!("  move acks, vs engine:    {}", figures(&mut engine));
    let p99 = percentile(&all, 0.99);
    run.check(all.len() >= 100 && p99 < ACK_P99, || {
        format!(
            "the bystander's move acks: p99 {} over {} moves (under {} promised)",
            ms(p99),
            all.len(),
            ms(ACK_P99)
        )
    });
    let replies = run.by.replies.lock().unwrap().clone();
    let mut held: Vec<Duration> = replies
        .iter()
        .filter(|r| r.0 != PHASE_ENGINES_CROWD)
        .map(|r| r.1)
        .collect();
    let mut crowd_replies: Vec<Duration> = replies
        .iter()
        .filter(|r| r.0 == PHASE_ENGINES_CROWD)
        .map(|r| r.1)
        .collect();
    println!("  engine replies:          {}", figures(&mut held));
    println!(
        "  engine replies, engines of 3 addresses (not held to the bound): {}",
        figures(&mut crowd_replies)
    );
    let reply_p99 = percentile(&held, 0.99);
    run.check(held.len() >= 20 && reply_p99 < ENGINE_REPLY_P99, || {
        format!(
            "the engine's replies to the bystander: p99 {} over {} (under {} promised)",
            ms(reply_p99),
            held.len(),
            ms(ENGINE_REPLY_P99)
        )
    });
    let probes = run.by.probes.lock().unwrap().clone();
    let mut probe_times: Vec<Duration> = probes.iter().map(|p| p.1).collect();
    println!("  page loads:              {}", figures(&mut probe_times));
    let slowest = probe_times.last().copied().unwrap_or_default();
    run.check(slowest < PROBE_MAX, || {
        format!("the bystander's slowest page load took {}", ms(slowest))
    });
    println!("  per phase (ack p50 / p99 / max; engine reply p50 / p99; page load max):");
    for (i, name) in PHASES.iter().enumerate() {
        let mut a: Vec<Duration> = acks.iter().filter(|x| x.0 == i).map(|x| x.1).collect();
        let mut r: Vec<Duration> = replies.iter().filter(|x| x.0 == i).map(|x| x.1).collect();
        let p = probes
            .iter()
            .filter(|x| x.0 == i)
            .map(|x| x.1)
            .max()
            .unwrap_or_default();
        a.sort();
        r.sort();
        println!(
            "    {name:<22} {:>4} acks {} / {} / {};  {:>3} replies {} / {};  pages {}",
            a.len(),
            ms(percentile(&a, 0.5)),
            ms(percentile(&a, 0.99)),
            ms(a.last().copied().unwrap_or_default()),
            r.len(),
            ms(percentile(&r, 0.5)),
            ms(percentile(&r, 0.99)),
            ms(p)
        );
    }
    // The slowest acks beside what the log did meanwhile: a checkpoint that truncates the
    // log holds every commit while it copies.
    let timeline = disk.timeline.lock().unwrap().clone();
    let mut slow: Vec<_> = acks.iter().filter(|a| a.1 >= ACK_P99).collect();
    slow.sort_by_key(|a| std::cmp::Reverse(a.1));
    for a in slow.iter().take(8) {
        let (from, to) = (a.3.saturating_sub(Duration::from_millis(200)), a.3 + a.1);
        let window: Vec<u64> = timeline
            .iter()
            .filter(|(t, _)| *t >= from && *t <= to + Duration::from_millis(200))
            .map(|x| x.1)
            .collect();
        let before = window.first().copied().unwrap_or(0);
        let largest = window.iter().copied().max().unwrap_or(0);
        let after = window.last().copied().unwrap_or(0);
        let events = run.events.lock().unwrap();
        let beside: Vec<&str> = events
            .iter()
            .filter(|(began, ended, _)| *began <= to && *ended + Duration::from_millis(200) >= from)
            .map(|(_, _, what)| what.as_str())
            .collect();
        println!(
            "  slow ack: {} at {:.1} s ({}); the log meanwhile {} -> max {} -> {}{}",
            ms(a.1),
            a.3.as_secs_f64(),
            PHASES[a.0],
            mib(before),
            mib(largest),
            mib(after),
            if beside.is_empty() {
                String::new()
            } else {
                format!("; during: {}", beside.join(", "))
            }
        );
    }
    let refusals = run.by.refusals.lock().unwrap().clone();
    if !refusals.is_empty() {
        println!("  refused by a limit: {}", refusals.join("; "));
        // A limit of the site's total refuses everyone, the bystander too (a 503); a limit
        // of its own (a 429) it never reaches.
        run.check(!refusals.iter().any(|r| r.contains("429")), || {
            format!("the bystander was refused: {}", refusals.join("; "))
        });
    }
    println!(
        "  games played: {}; acknowledged moves found after SIGKILL and restart: {} of {checked}",
        run.by.games.load(Ordering::Relaxed),
        checked - missing
    );

    let wal_max = disk.wal_max.load(Ordering::Relaxed);
    let db_max = disk.db_max.load(Ordering::Relaxed);
    println!(
        "\nThe store: log (games.db-wal) max {} (in {}), largest growth in 100 ms {}, {} samples; \
         database max {}; {} moves of the write flood",
        mib(wal_max),
        PHASES[disk.wal_max_phase.load(Ordering::Relaxed)],
        mib(disk.wal_step_max.load(Ordering::Relaxed)),
        disk.samples.load(Ordering::Relaxed),
        mib(db_max),
        run.flood_moves.load(Ordering::Relaxed)
    );
    let mut steps: Vec<u64> = timeline
        .windows(2)
        .map(|w| w[1].1.saturating_sub(w[0].1))
        .filter(|&step| step > 0)
        .collect();
    steps.sort_unstable();
    let step = |q: f64| {
        steps
            .get(((steps.len() as f64 * q) as usize).min(steps.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0)
    };
    println!(
        "  the log's growth in 100 ms where it grew: p50 {}, p99 {}, max {}",
        mib(step(0.5)),
        mib(step(0.99)),
        mib(steps.last().copied().unwrap_or(0))
    );
    run.check(wal_max < WAL_MAX, || {
        format!("the log grew to {} (bound {})", mib(wal_max), mib(WAL_MAX))
    });
    run.check(db_max < DB_MAX, || {
        format!(
            "the database grew to {} (bound {})",
            mib(db_max),
            mib(DB_MAX)
        )
    });

    let growth = memory.after.saturating_sub(memory.warm);
    let held = run.held_max.load(Ordering::Relaxed) as u64;
    let allowed = RSS_FIXED_KIB + RSS_PER_CONNECTION_KIB * held + RSS_PER_GAME_KIB * memory.games;
    println!(
        "The server's memory: {} MiB after the warm-up, peak {} MiB (in {}), {} MiB {} s after \
         the attacks stopped: +{} MiB with {} games created and {held} connections held at \
         once (bound {} MiB)",
        memory.warm / 1024,
        disk.rss_max.load(Ordering::Relaxed) / 1024,
        PHASES[disk.rss_max_phase.load(Ordering::Relaxed)],
        memory.after / 1024,
        COOL_DOWN.as_secs(),
        growth / 1024,
        memory.games,
        allowed / 1024
    );
    run.check(memory.warm > 0 && growth <= allowed, || {
        format!(
            "memory grew by {} MiB (bound {} MiB)",
            growth / 1024,
            allowed / 1024
        )
    });
    if let [(first, first_threads, _), (second, second_threads, games)] = memory.rounds[..] {
        let again = second.saturating_sub(first);
        let allowed = RSS_AGAIN_KIB + RSS_PER_GAME_KIB * games;
        println!(
            "  the memory-heavy attacks again, together: {} MiB after the first round ({} \
             threads), {} MiB after the second ({} threads): +{} MiB with {games} games \
             created (bound {} MiB)",
            first / 1024,
            first_threads,
            second / 1024,
            second_threads,
            again / 1024,
            allowed / 1024
        );
        run.check(second > 0 && again <= allowed, || {
            format!(
                "the same attacks a second time added {} MiB (bound {} MiB): a leak",
                again / 1024,
                allowed / 1024
            )
        });
    }
    let mut phases = run.memory.lock().unwrap().clone();
    println!(
        "  as each phase began: {}",
        phases
            .iter()
            .map(|(p, rss, threads, _)| format!(
                "{} {} MiB/{threads} threads",
                PHASES[*p],
                rss / 1024
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    // Connections the system turned away before the server took them (its listen queue of
    // 1,024 full): they come again a second or more later.
    phases.push((PHASES.len(), 0, 0, listen_overflows()));
    println!(
        "  listen queue overflows (the whole machine's): {}",
        phases
            .windows(2)
            .filter(|w| w[1].3 > w[0].3)
            .map(|w| format!("{} {}", PHASES[w[0].0], w[1].3 - w[0].3))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let notes = run.notes.lock().unwrap().clone();
    if !notes.is_empty() {
        println!("\nNoticed:");
        for n in notes {
            println!("  - {n}");
        }
    }
    println!("\nRun took {:.0} s.", run.started.elapsed().as_secs_f64());
}
