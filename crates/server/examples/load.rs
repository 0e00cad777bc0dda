//! Load benchmark: N concurrent chess games of random movers over loopback websockets
//! against an in-process server on a fresh database.
//!
//! `cargo run --release -p chaturanga-server --example load -- GAMES SECONDS [THINK_MS]`
//!
//! With `CHATURANGA_LOAD_DB=postgres://...` the games are stored in that PostgreSQL database
//! instead of a fresh SQLite file; with `CHATURANGA_LOAD_NODES=2` as well, a second node
//! serves the same database and Black plays every game through it, so that each of Black's
//! moves is forwarded to the node running the game (White plays on that node).
//!
//! Each mover waits from half to one and a half times THINK_MS (default 0), at random, after
//! its turn begins before it sends its move.
//!
//! Prints moves per second, the time from a move sent to its acknowledgement (p50, p99,
//! max), and the server's memory per live game. Client and server share the machine, so the
//! figures are what both together reach.

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).map(|n| n.parse().unwrap_or(0)))
        })
        .unwrap_or(0)
}

async fn post(client: &str, path: &str, body: Value) -> Value {
    // A tiny HTTP/1.1 client: the benchmark needs only two POSTs per game.
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(client)
        .await
        .expect("connect");
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {client}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("read");
    let body = response.split("\r\n\r\n").nth(1).unwrap_or("");
    serde_json::from_str(body).unwrap_or(Value::Null)
}

#[derive(Deserialize)]
struct Head<'a> {
    #[serde(borrow)]
    t: Option<&'a str>,
}

#[derive(Deserialize)]
struct Ack {
    d: u64,
}

#[derive(Deserialize)]
struct StateFrame {
    d: StateData,
}

#[derive(Deserialize)]
struct StateData {
    status: String,
    ply: u64,
    to_move: Vec<u64>,
    #[serde(default)]
    legal: Vec<LegalText>,
}

#[derive(Deserialize)]
struct LegalText {
    text: String,
}

struct Stats {
    /// Per seat: White on the node running the game, Black perhaps on another.
    latencies: [Vec<Duration>; 2],
    moves: u64,
}

/// What every mover shares: the figures, when to stop, how long to think.
#[derive(Clone)]
struct Run {
    stats: Arc<Mutex<Stats>>,
    until: Instant,
    think: Duration,
}

async fn seat(addr: String, id: String, token: String, seat: u64, seed: u64, run: Run) {
    let Run {
        stats,
        until,
        think,
    } = run;
    let url = format!("ws://{addr}/api/games/{id}/socket?token={token}");
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0);
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), false)
        .await
        .expect("socket");
    let mut rng = seed | 1;
    let mut sent: Option<(u64, Instant)> = None;
    let mut ack = 0u64;
    let deadline = tokio::time::Instant::from_std(until + Duration::from_secs(2));
    while let Ok(Some(Ok(message))) = tokio::time::timeout_at(deadline, socket.next()).await {
        let Message::Text(text) = message else {
            continue;
        };
        // Typed reading of only the fields a mover needs: a real client runs elsewhere, so
        // the benchmark's own parsing should take as little of the shared cores as it can.
        let Ok(head) = serde_json::from_str::<Head>(&text) else {
            continue;
        };
        match head.t {
            Some("ack") => {
                if let Some((k, at)) = sent.take()
                    && serde_json::from_str::<Ack>(&text).is_ok_and(|a| a.d == k)
                {
                    let mut s = stats.lock().unwrap();
                    s.latencies[seat as usize].push(at.elapsed());
                    s.moves += 1;
                }
            }
            Some("state") => {
                let Ok(StateFrame { d }) = serde_json::from_str::<StateFrame>(&text) else {
                    continue;
                };
                if d.status != "ongoing" || Instant::now() > until {
                    return;
                }
                if d.to_move == [seat] && sent.is_none() {
                    if d.legal.is_empty() {
                        continue;
                    }
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let mv = &d.legal[(rng % d.legal.len() as u64) as usize].text;
                    if !think.is_zero() {
                        // Half to one and a half times THINK_MS, as people's thinking varies:
                        // a fixed time would keep every game's moves arriving in one wave.
                        let spread = 0.5 + (rng >> 11) as f64 / (1u64 << 53) as f64;
                        tokio::time::sleep(think.mul_f64(spread)).await;
                    }
                    ack += 1;
                    sent = Some((ack, Instant::now()));
                    let message = json!({"t": "move", "d": {"move": mv, "ply": d.ply, "ack": ack}});
                    if socket
                        .send(Message::Text(message.to_string().into()))
                        .await
                        .is_err()
                    {
                        return;
                    }
                }
            }
            _ => {}
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let seconds: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(20);
    let think = Duration::from_millis(args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0));
    let dir = std::env::temp_dir().join(format!("chaturanga-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = match std::env::var("CHATURANGA_LOAD_DB") {
        Ok(url) => chaturanga_server::store::Database::parse(&url),
        Err(_) => chaturanga_server::store::Database::Sqlite(dir.join("load.db")),
    };
    let nodes: usize = std::env::var("CHATURANGA_LOAD_NODES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let mut addrs = Vec::new();
        for _ in 0..nodes.max(1) {
            let (tx, rx) = tokio::sync::oneshot::channel();
            let config = chaturanga_server::Config {
                listen: ([127, 0, 0, 1], 0).into(),
                db: db.clone(),
                engine_threads: 1,
                limits: chaturanga_server::quota::Limits::generous(),
                peers: Default::default(),
            };
            tokio::spawn(async move {
                let served = chaturanga_server::serve(config, move |a| {
                    let _ = tx.send(a);
                })
                .await;
                if let Err(e) = served {
                    eprintln!("server: {e}");
                }
            });
            addrs.push(rx.await.unwrap().to_string());
        }
        let addr = addrs[0].clone();
        let other = addrs.last().cloned().unwrap_or_else(|| addr.clone());
        // The ruleset listing, computed once a server starts, is in memory before the games
        // are counted (it is not theirs).
        for node in &addrs {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let mut stream = tokio::net::TcpStream::connect(node).await.expect("connect");
            let request = format!("GET /api/variants HTTP/1.1\r\nHost: {node}\r\nConnection: close\r\n\r\n");
            stream.write_all(request.as_bytes()).await.expect("write");
            let mut listing = Vec::new();
            stream.read_to_end(&mut listing).await.expect("read");
        }
        let before = resident_kib();
        let mut ids = Vec::new();
        for _ in 0..games {
            let created = post(&addr, "/api/games", json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "human"}], "me": 0})).await;
            let id = created["id"].as_str().expect("id").to_string();
            let joined = post(&other, &format!("/api/games/{id}/seats/1/join"), json!({})).await;
            ids.push((id, created["token"].as_str().unwrap().to_string(), joined["token"].as_str().unwrap().to_string()));
        }
        let stats = Arc::new(Mutex::new(Stats { latencies: [Vec::new(), Vec::new()], moves: 0 }));
        let start = Instant::now();
        let run = Run {
            stats: stats.clone(),
            until: start + Duration::from_secs(seconds),
            think,
        };
        let mut tasks = Vec::new();
        for (i, (id, white, black)) in ids.into_iter().enumerate() {
            tasks.push(tokio::spawn(seat(addr.clone(), id.clone(), white, 0, i as u64 * 2 + 1, run.clone())));
            tasks.push(tokio::spawn(seat(other.clone(), id, black, 1, i as u64 * 2 + 2, run.clone())));
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        let live = resident_kib();
        for t in tasks {
            let _ = t.await;
        }
        let elapsed = start.elapsed().as_secs_f64().min(seconds as f64 + 1.0);
        let mut s = stats.lock().unwrap();
        let moves = s.moves;
        let figures = |latencies: &mut Vec<Duration>| {
            latencies.sort();
            let pick = |q: f64| {
                latencies
                    .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
                    .copied()
                    .unwrap_or_default()
                    .as_secs_f64()
                    * 1e3
            };
            format!(
                "p50 {:.1} ms  p99 {:.1} ms  max {:.1} ms",
                pick(0.5),
                pick(0.99),
                latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3
            )
        };
        let white = figures(&mut s.latencies[0]);
        let black = figures(&mut s.latencies[1]);
        let mut all: Vec<Duration> = s.latencies.concat();
        println!(
            "games {games}  nodes {nodes}  think {} ms  seconds {elapsed:.1}  moves {moves}  moves/s {:.0}  ack {}  (white, on the running node: {white}; black, on node {}: {black})  memory {:.0} KiB per live game",
            think.as_millis(),
            moves as f64 / elapsed,
            figures(&mut all),
            nodes,
            (live.saturating_sub(before)) as f64 / games as f64,
        );
    });
}
