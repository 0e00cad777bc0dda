//! Three real `chaturanga serve` nodes on one PostgreSQL database (`CHATURANGA_TEST_POSTGRES`
//! names the server; `scripts/test` starts one): players on different nodes play a game, a
//! spectator on a third node sees every event, the node running the game is killed with
//! SIGKILL mid-game, and the game goes on from another node with every acknowledged move and
//! the clocks intact.

use crate::serve::serve;
use serde_json::{Value, json};
use std::net::TcpStream;
use std::process::Child;
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A node: the process and its URL.
struct Node {
    child: Child,
    url: String,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(db: &str) -> Node {
    let (child, url) = serve(db);
    Node { child, url }
}

/// A fresh database on the test server, as a URL.
fn fresh_database() -> String {
    let admin = std::env::var("CHATURANGA_TEST_POSTGRES").expect(
        "CHATURANGA_TEST_POSTGRES must name a PostgreSQL server: scripts/test starts one \
         (scripts/postgres prints its URL)",
    );
    let name = format!("chaturanga_nodes_{}", std::process::id());
    chaturanga_server::store::postgres::create_database(&admin, &name).expect("a test database")
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(15)))
        .build()
        .into()
}

fn call(agent: &ureq::Agent, url: &str, body: Option<&Value>, token: Option<&str>) -> (u16, Value) {
    let mut response = match body {
        Some(body) => {
            let mut request = agent.post(url).header("Content-Type", "application/json");
            if let Some(token) = token {
                request = request.header("Authorization", &format!("Bearer {token}"));
            }
            request.send(body.to_string()).expect("POST")
        }
        None => {
            let mut request = agent.get(url);
            if let Some(token) = token {
                request = request.header("Authorization", &format!("Bearer {token}"));
            }
            request.call().expect("GET")
        }
    };
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// A spectator's socket on a node, with the versions of the events it was sent.
struct Watcher {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    versions: Vec<u64>,
    last_state: Value,
}

impl Watcher {
    fn open(node: &Node, id: &str) -> Watcher {
        let url = format!(
            "{}/api/games/{id}/socket?v=0",
            node.url.replace("http://", "ws://")
        );
        let (socket, _) = tungstenite::connect(url).expect("the socket opens");
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream
                .set_read_timeout(Some(Duration::from_secs(15)))
                .expect("timeout");
        }
        Watcher {
            socket,
            versions: Vec::new(),
            last_state: Value::Null,
        }
    }

    /// Reads frames until the state shows `ply` moves.
    fn until_ply(&mut self, ply: u64) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while self.last_state["ply"].as_u64() != Some(ply) {
            assert!(
                Instant::now() < deadline,
                "no state at ply {ply}: {}",
                self.last_state
            );
            let Message::Text(text) = self.socket.read().expect("a frame") else {
                continue;
            };
            let frame: Value = serde_json::from_str(&text).expect("JSON");
            if frame["t"] == "state" {
                self.last_state = frame["d"].clone();
            } else if let Some(v) = frame["v"].as_u64() {
                self.versions.push(v);
            }
        }
    }
}

const MOVES: [&str; 12] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5",
];

#[test]
fn a_game_survives_the_death_of_the_node_that_runs_it() {
    let db = fresh_database();
    let mut runner = Some(start(&db));
    let second = start(&db);
    let third = start(&db);
    let http = agent();
    let a = runner.as_ref().expect("node").url.clone();
    let (status, created) = call(
        &http,
        &format!("{a}/api/games"),
        Some(&json!({
            "variant": "chess",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "clock": {"kind": "fischer", "base": 600, "increment": 0},
            "me": 0
        })),
        None,
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let white = created["token"].as_str().expect("token").to_string();
    // Black claims his seat on another node: the claim goes to the node running the game.
    let (status, joined) = call(
        &http,
        &format!("{}/api/games/{id}/seats/1/join", second.url),
        Some(&json!({})),
        None,
    );
    assert_eq!(status, 200, "{joined}");
    let black = joined["token"].as_str().expect("token").to_string();
    let mut watcher = Watcher::open(&third, &id);

    // White plays on the first node, Black on the second; each answer holds the move.
    let mut acknowledged = Vec::new();
    for (ply, text) in MOVES[..8].iter().enumerate() {
        let (node, token) = if ply % 2 == 0 {
            (a.as_str(), &white)
        } else {
            (second.url.as_str(), &black)
        };
        let (status, state) = call(
            &http,
            &format!("{node}/api/games/{id}/moves"),
            Some(&json!({"move": text, "ply": ply})),
            Some(token),
        );
        assert_eq!(status, 200, "ply {ply} {text}: {state}");
        assert_eq!(state["ply"], ply + 1, "the answer shows the move: {state}");
        acknowledged.push(state["moves"][ply].clone());
        watcher.until_ply(ply as u64 + 1);
    }
    // The spectator on the third node got every event, in order, with no gap.
    let expected: Vec<u64> =
        (1..=watcher.last_state["version"].as_u64().expect("version")).collect();
    assert_eq!(watcher.versions, expected, "versions relayed");
    let (_, before) = call(&http, &format!("{}/api/games/{id}", second.url), None, None);
    let white_left = before["clocks"]["seats"][0]["ms"]
        .as_u64()
        .expect("white's time");

    // The node running the game dies; White's move is refused until another node takes the
    // game over, then it counts.
    let died = Instant::now();
    let mut node = runner.take().expect("node");
    node.child.kill().expect("SIGKILL");
    let _ = node.child.wait();
    drop(node);
    let taken_over = loop {
        let (status, state) = call(
            &http,
            &format!("{}/api/games/{id}/moves", third.url),
            Some(&json!({"move": MOVES[8], "ply": 8})),
            Some(&white),
        );
        if status == 200 {
            assert_eq!(state["ply"], 9, "{state}");
            acknowledged.push(state["moves"][8].clone());
            break died.elapsed();
        }
        assert_eq!(status, 503, "refused with another reason: {state}");
        assert!(
            died.elapsed() < Duration::from_secs(30),
            "no node took the game over"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    println!(
        "taken over {} ms after the node died",
        taken_over.as_millis()
    );
    for (ply, text) in MOVES.iter().enumerate().skip(9) {
        let (node, token) = if ply % 2 == 0 {
            (third.url.as_str(), &white)
        } else {
            (second.url.as_str(), &black)
        };
        let (status, state) = call(
            &http,
            &format!("{node}/api/games/{id}/moves"),
            Some(&json!({"move": text, "ply": ply})),
            Some(token),
        );
        assert_eq!(status, 200, "ply {ply} {text} after the takeover: {state}");
        acknowledged.push(state["moves"][ply].clone());
    }
    // Every acknowledged move is there, on both nodes left, and the clocks went on from what
    // was stored: White lost at most the time since (and never gained). The node that does not
    // run the game learns of the last move by a notice after the runner's answer, so it may
    // lag a moment behind: it is given a few seconds to catch up.
    for node in [&second, &third] {
        let deadline = Instant::now() + Duration::from_secs(10);
        let (status, state) = loop {
            let (status, state) = call(&http, &format!("{}/api/games/{id}", node.url), None, None);
            if status != 200 || state["ply"] == MOVES.len() || Instant::now() > deadline {
                break (status, state);
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(status, 200);
        assert_eq!(
            state["moves"],
            Value::Array(acknowledged.clone()),
            "{}",
            node.url
        );
        let now_left = state["clocks"]["seats"][0]["ms"]
            .as_u64()
            .expect("white's time");
        let spent = died.elapsed().as_millis() as u64 + 1_000;
        assert!(
            now_left <= white_left && now_left + spent >= white_left,
            "White had {white_left} ms, now {now_left} ms"
        );
    }
    watcher.until_ply(MOVES.len() as u64);
    // The game ends through a node that never ran it, and every node shows the end.
    let (status, ended) = call(
        &http,
        &format!("{}/api/games/{id}/actions", second.url),
        Some(&json!({"action": "resign"})),
        Some(&black),
    );
    assert_eq!(status, 200, "{ended}");
    assert_eq!(ended["status"], "finished", "{ended}");
    let deadline = Instant::now() + Duration::from_secs(10);
    let seen = loop {
        let (_, seen) = call(&http, &format!("{}/api/games/{id}", third.url), None, None);
        if seen["status"] == "finished" || Instant::now() > deadline {
            break seen;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(seen["status"], "finished", "{seen}");
    assert_eq!(seen["result"], "1-0", "{seen}");
}
