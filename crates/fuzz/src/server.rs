//! The `server` target: a script of HTTP requests and socket messages against the server's
//! router in process, on a fresh in-memory store.
//!
//! ```text
//! POST /api/games {"variant":"chess","seats":[{"kind":"human"},{"kind":"human"}],"me":0}
//! POST /api/games/$0/seats/1/join
//! @0 POST /api/games/$0/moves {"move":"e2e4"}
//! WS $0 @1 {"t":"move","d":{"move":"e7e5"}}
//! GET /api/games/$0
//! ```
//!
//! `$N` is the id of the N-th game created and `@N` the N-th token handed out (sent as a
//! bearer token, or as the socket's). What must hold: no panic; no 5xx answer; every refusal
//! is a JSON `{"error": "..."}`; every API answer is JSON; and a game read back from the
//! store by a fresh server is the game the running one shows.

use crate::case::MAX_INPUT;
use axum::body::Body;
use axum::http::{Request, header};
use chaturanga_server::api::socket::{MAX_FRAME, answer_message};
use chaturanga_server::engines::EnginePool;
use chaturanga_server::quota::{Limits, Quotas};
use chaturanga_server::store::Store;
use chaturanga_server::{AppState, api};
use serde_json::Value;
use tower::ServiceExt;

/// Most requests one input makes.
const MAX_REQUESTS: usize = 64;
/// Engine levels above this think for a time, not a number of nodes: slow, not wrong.
const MAX_LEVEL: u64 = 5;

/// Runs the script; `false` when no line was a request.
pub fn server(data: &[u8]) -> bool {
    if data.len() > MAX_INPUT {
        return false;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let lines: Vec<&str> = text.lines().take(MAX_REQUESTS).collect();
    if lines.iter().any(|line| slow(line)) {
        return false;
    }
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
    else {
        return false;
    };
    let accepted = runtime.block_on(run(&lines));
    // Engine searches on blocking threads end by themselves; nothing waits for them.
    runtime.shutdown_background();
    accepted
}

/// Whether a line asks for engine seats that think for seconds.
fn slow(line: &str) -> bool {
    let Some(start) = line.find('{') else {
        return false;
    };
    let Ok(body) = serde_json::from_str::<Value>(&line[start..]) else {
        return false;
    };
    body.get("seats")
        .and_then(Value::as_array)
        .is_some_and(|seats| {
            seats.iter().any(|seat| {
                seat.get("level")
                    .and_then(Value::as_u64)
                    .is_some_and(|level| level > MAX_LEVEL)
            })
        })
}

/// What the script has learned: game ids and tokens, in the order handed out.
#[derive(Default)]
struct Names {
    games: Vec<String>,
    tokens: Vec<String>,
}

impl Names {
    /// `text` with `$N` replaced by game ids (an unknown `$N` stays as written).
    fn fill(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let digits = rest[at + 1..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            let n: Option<usize> = rest[at + 1..at + 1 + digits].parse().ok();
            match n.and_then(|n| self.games.get(n)) {
                Some(id) => out.push_str(id),
                None => out.push_str(&rest[at..at + 1 + digits]),
            }
            rest = &rest[at + 1 + digits..];
        }
        out.push_str(rest);
        out
    }

    /// The token `@N` names.
    fn token(&self, word: &str) -> Option<&str> {
        let n: usize = word.strip_prefix('@')?.parse().ok()?;
        self.tokens.get(n).map(String::as_str)
    }

    /// Remembers the token of an answer, and the game id when it created a game.
    fn learn(&mut self, answer: &Value, created: bool) {
        if let Some(token) = answer.get("token").and_then(Value::as_str) {
            self.tokens.push(token.to_string());
        }
        if let Some(id) = answer.get("id").and_then(Value::as_str).filter(|_| created) {
            self.games.push(id.to_string());
        }
    }
}

async fn run(lines: &[&str]) -> bool {
    let Ok(store) = Store::in_memory() else {
        return false;
    };
    let state = AppState::new(
        store.clone(),
        EnginePool::new(1, 1),
        std::sync::Arc::new(Quotas::new(Limits::generous())),
    );
    let router = api::router(state.clone());
    let mut names = Names::default();
    let mut requests = 0;
    for line in lines {
        let line = names.fill(line);
        let mut words = line.splitn(2, ' ');
        let mut first = words.next().unwrap_or("");
        let mut rest = words.next().unwrap_or("");
        let token = names.token(first).map(str::to_string);
        if token.is_some() || first.starts_with('@') {
            let mut words = rest.splitn(2, ' ');
            first = words.next().unwrap_or("");
            rest = words.next().unwrap_or("");
        }
        if first == "WS" {
            let (id, after) = rest.split_once(' ').unwrap_or((rest, ""));
            let (token, message) = match after.split_once(' ') {
                Some((word, message)) if word.starts_with('@') => (names.token(word), message),
                _ => (None, after),
            };
            if message.len() > MAX_FRAME {
                continue;
            }
            requests += 1;
            match answer_message(&state, id, token, message).await {
                Ok(Some(reply)) => {
                    let reply: Value = serde_json::from_str(&reply)
                        .unwrap_or_else(|e| panic!("socket answer is not JSON ({e}): {reply}"));
                    assert!(reply.get("t").is_some_and(Value::is_string), "{reply}");
                }
                Ok(None) => {}
                Err(e) => assert!(
                    !e.status.is_server_error(),
                    "socket message {message:?}: {} {}",
                    e.status,
                    e.message
                ),
            }
            continue;
        }
        let (path, body) = rest.split_once(' ').unwrap_or((rest, ""));
        if !matches!(first, "GET" | "POST") || !path.starts_with('/') {
            continue;
        }
        let mut request = Request::builder()
            .method(first)
            .uri(path)
            .header(header::CONTENT_TYPE, "application/json");
        if let Some(token) = &token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let Ok(request) = request.body(Body::from(body.to_string())) else {
            continue;
        };
        requests += 1;
        let Ok(response) = router.clone().oneshot(request).await;
        let status = response.status();
        let is_json = response
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
        let bytes = axum::body::to_bytes(response.into_body(), 16 << 20)
            .await
            .unwrap_or_else(|e| panic!("{first} {path}: the body does not read: {e}"));
        assert!(
            !status.is_server_error(),
            "{first} {path} {body}: {status} {}",
            String::from_utf8_lossy(&bytes)
        );
        // Pages, records and the like answer in their own formats; refusals in JSON.
        if status.is_success() && !is_json {
            continue;
        }
        assert!(is_json, "{first} {path}: {status} without JSON");
        let answer: Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{first} {path}: {status} body is not JSON: {e}"));
        if status.is_success() {
            names.learn(&answer, first == "POST" && path == "/api/games");
        } else {
            assert!(
                answer.get("error").is_some_and(Value::is_string),
                "{first} {path}: {status} without an error: {answer}"
            );
        }
    }
    for id in &names.games {
        same_after_restart(&state, &store, id).await;
    }
    requests > 0
}

/// What a spectator sees of a game, less what moves with the wall clock.
fn settled(state: &Value) -> Value {
    let mut state = state.clone();
    if let Some(object) = state.as_object_mut() {
        object.remove("clocks");
        // The first move's countdown runs with the wall clock too.
        if let Some(first) = object.get_mut("first_move").and_then(Value::as_object_mut) {
            first.remove("ms");
        }
    }
    state
}

async fn spectator_view(state: &AppState, id: &str) -> Option<Value> {
    let router = api::router(state.clone());
    let request = Request::builder()
        .uri(format!("/api/games/{id}"))
        .body(Body::empty())
        .ok()?;
    let Ok(response) = router.oneshot(request).await;
    if !response.status().is_success() {
        return None;
    }
    let bytes = axum::body::to_bytes(response.into_body(), 16 << 20)
        .await
        .ok()?;
    serde_json::from_slice(&bytes).ok().map(|v| settled(&v))
}

/// A second server over the same store shows game `id` as the running one does (checked
/// only when the running game did not change meanwhile: an engine seat may be moving).
async fn same_after_restart(state: &AppState, store: &Store, id: &str) {
    let Some(before) = spectator_view(state, id).await else {
        return;
    };
    let fresh = AppState::new(
        store.clone(),
        EnginePool::new(1, 1),
        std::sync::Arc::new(Quotas::new(Limits::generous())),
    );
    let rebuilt = spectator_view(&fresh, id).await;
    let Some(after) = spectator_view(state, id).await else {
        return;
    };
    if before == after {
        assert_eq!(
            rebuilt.as_ref(),
            Some(&before),
            "game {id} read back from the store differs from the running game"
        );
    }
}

/// Seeds: for every ruleset a game between people, seated, played a move over HTTP and one
/// over the socket, read back every way, and a game against the engine that is resigned and
/// looked up in the archive.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    for info in chaturanga_variants::implemented() {
        let Ok(mut session) = chaturanga_session::open(info.id, 1) else {
            continue;
        };
        let players = session.players();
        let moves = crate::seeds::first_moves(session.as_mut(), 2);
        let humans = vec![r#"{"kind":"human"}"#; players].join(",");
        let id = info.id;
        let mut script = vec![format!(
            r#"POST /api/games {{"variant":"{id}","seats":[{humans}],"me":0}}"#
        )];
        for seat in 1..players {
            script.push(format!("POST /api/games/$0/seats/{seat}/join"));
        }
        script.push("GET /api/games/$0".into());
        if let Some(first) = moves.first() {
            script.push(format!(
                r#"@0 POST /api/games/$0/moves {{"move":"{first}"}}"#
            ));
        }
        if let Some(second) = moves.get(1) {
            script.push(format!(
                r#"WS $0 @1 {{"t":"move","d":{{"move":"{second}","ply":1,"ack":7}}}}"#
            ));
        }
        script.push(r#"WS $0 {"t":"ping"}"#.into());
        script.push("GET /api/games/$0/record".into());
        script.push("GET /api/games/$0/positions/1".into());
        script.push("GET /api/games?status=live&limit=5".into());
        if players == 2 {
            script.push(format!(
                r#"POST /api/games {{"variant":"{id}","seats":[{{"kind":"human"}},{{"kind":"engine","level":1}}],"me":0}}"#
            ));
            let token = players - 1 + 1;
            script.push(format!(
                r#"@{token} POST /api/games/$1/actions {{"action":"resign"}}"#
            ));
            script.push(format!(
                "GET /api/games?status=finished&variant={id}&opponent=engine&limit=1"
            ));
            script.push("GET /api/games?status=finished&before=1.x&opponent=people".into());
        }
        seeds.push((format!("{id}-game"), script.join("\n").into_bytes()));
    }
    seeds
}
