//! The game socket: `/api/games/{id}/socket?token=...&v=N`.
//!
//! On connecting, the viewer gets every event after version `v` (read from the store), then
//! the game's state; after that, each change's events and the new state. Client messages:
//! `{"t":"move","d":{"move":TEXT,"ply":N,"ack":K}}` (answered `{"t":"ack","d":K}` once the
//! move is stored), `{"t":"action","d":{"action":NAME}}` or `{"t":NAME}` for an action, and
//! `{"t":"ping"}`. A refused message is answered `{"t":"error","d":"..."}`. Frames are capped
//! at [`MAX_FRAME`] bytes and each connection at a rate of messages (a token bucket, as
//! lila-ws limits its sockets); a connection that keeps flooding is closed.

use super::identify;
use crate::AppState;
use crate::error::ApiError;
use crate::live::{Caller, Command, GameHandle, Update, Watch};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use tokio::sync::broadcast;
use tokio::time::Instant;

/// Largest message a client may send.
pub const MAX_FRAME: usize = 4096;
/// The socket's read buffer.
const READ_BUFFER: usize = 8 * 1024;
/// Messages a connection may send in a burst.
const BURST: f64 = 30.0;
/// Messages per second a connection may send in the long run.
const RATE: f64 = 10.0;
/// Refused messages after which the connection is closed.
const MAX_REFUSED: u32 = 50;

#[derive(Deserialize)]
pub(super) struct SocketQuery {
    token: Option<String>,
    v: Option<u64>,
}

pub(super) async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<SocketQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let game = state.game(&id).await?;
    let caller = identify(&game, query.token.as_deref()).await?;
    let (backlog, updates, watch) = game
        .ask(|reply| Command::Subscribe {
            caller,
            since: query.v,
            reply,
        })
        .await??;
    Ok(ws
        // Small buffers: a thousand idle sockets must not cost a thousand 128 KiB buffers.
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| run(socket, game, caller, backlog, updates, watch)))
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * RATE).min(BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

fn error_frame(message: &str) -> String {
    json!({ "t": "error", "d": message }).to_string()
}

async fn run(
    mut socket: WebSocket,
    game: GameHandle,
    caller: Caller,
    backlog: Vec<String>,
    mut updates: broadcast::Receiver<Arc<Update>>,
    // Held while the socket lives: the game renders its changes for this viewer's class.
    mut _watch: Watch,
) {
    let viewer = match caller {
        Caller::Seat(s) => s,
        Caller::Spectator => usize::MAX,
    };
    let mut version = 0u64;
    for frame in backlog {
        if socket.send(Message::Text(frame.into())).await.is_err() {
            return;
        }
    }
    let mut bucket = Bucket {
        tokens: BURST,
        at: Instant::now(),
    };
    let mut refused = 0u32;
    loop {
        tokio::select! {
            update = updates.recv() => match update {
                Ok(update) => {
                    version = update.version;
                    let k = viewer.min(update.frames.len() - 1);
                    for frame in &update.frames[k] {
                        if socket.send(Message::Text(frame.clone())).await.is_err() {
                            return;
                        }
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    // Too slow for the broadcast: catch up from the store.
                    let Ok(Ok((frames, fresh, place))) = game
                        .ask(|reply| Command::Subscribe { caller, since: Some(version), reply })
                        .await
                    else {
                        return;
                    };
                    updates = fresh;
                    _watch = place;
                    for frame in frames {
                        if socket.send(Message::Text(frame.into())).await.is_err() {
                            return;
                        }
                    }
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            message = socket.recv() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => continue,
                };
                if !bucket.take() {
                    refused += 1;
                    if refused > MAX_REFUSED {
                        let _ = socket.send(Message::Text(error_frame("too many messages; closing").into())).await;
                        return;
                    }
                    let _ = socket.send(Message::Text(error_frame("too many messages; slow down").into())).await;
                    continue;
                }
                if let Some(reply) = answer(&game, caller, text.as_str()).await
                    && socket.send(Message::Text(reply.into())).await.is_err()
                {
                    return;
                }
            }
        }
    }
}

/// What one client message on game `id`'s socket gets, from a caller holding `token` (or a
/// spectator): the path every frame of a connected socket takes, for callers without a
/// connection (the fuzzer).
pub async fn answer_message(
    state: &AppState,
    id: &str,
    token: Option<&str>,
    text: &str,
) -> Result<Option<String>, ApiError> {
    let game = state.game(id).await?;
    let caller = identify(&game, token).await?;
    Ok(answer(&game, caller, text).await)
}

/// Handles one client message; returns the direct answer, if any.
async fn answer(game: &GameHandle, caller: Caller, text: &str) -> Option<String> {
    let message: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return Some(error_frame(&format!("bad JSON: {e}"))),
    };
    let kind = message.get("t").and_then(Value::as_str).unwrap_or("");
    let data = message.get("d").cloned().unwrap_or(Value::Null);
    match kind {
        "ping" => Some(json!({ "t": "pong" }).to_string()),
        "move" => {
            let Some(text) = data.get("move").and_then(Value::as_str) else {
                return Some(error_frame("a move message needs d.move"));
            };
            let ply = data.get("ply").and_then(Value::as_u64).map(|p| p as usize);
            let ack = data.get("ack").cloned();
            let thought = data
                .get("think_ms")
                .and_then(Value::as_u64)
                .map(std::time::Duration::from_millis);
            let result = game
                .ask(|reply| Command::Move {
                    caller,
                    text: text.to_string(),
                    ply,
                    thought,
                    reply,
                })
                .await
                .and_then(|r| r);
            Some(match result {
                Ok(_) => json!({ "t": "ack", "d": ack }).to_string(),
                Err(e) => json!({ "t": "error", "d": e.message, "ack": ack }).to_string(),
            })
        }
        "" => Some(error_frame("a message needs a type t")),
        _ => {
            let action = if kind == "action" {
                match data.get("action").and_then(Value::as_str) {
                    Some(a) => a.to_string(),
                    None => return Some(error_frame("an action message needs d.action")),
                }
            } else {
                kind.chars().take(64).collect()
            };
            let result = game
                .ask(|reply| Command::Action {
                    caller,
                    action,
                    reply,
                })
                .await
                .and_then(|r| r);
            match result {
                Ok(_) => None,
                Err(e) => Some(error_frame(&e.message)),
            }
        }
    }
}
