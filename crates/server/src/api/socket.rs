//! The game socket: `/api/games/{id}/socket?token=...&v=N`.
//!
//! On connecting, the viewer gets every event after version `v` (read from the store), then
//! the game's state; after that, each change's events and the new state. Client messages
//! (read into [`ClientMessage`] with the HTTP API's own field types):
//! `{"t":"move","d":{"move":TEXT,"ply":N,"ack":K,"think_ms":T}}` (answered `{"t":"ack","d":K}`
//! once the move is stored), `{"t":"action","d":{"action":NAME}}` or `{"t":NAME}` for an
//! action, and `{"t":"ping"}`. A refused message is answered
//! `{"t":"error","d":"...","code":"..."}` (with `retry_after_ms` when waiting helps). Frames are capped at [`MAX_FRAME`] bytes and each
//! connection at a rate of messages (a token bucket, as lila-ws limits its sockets); a
//! connection that keeps flooding is closed. While a seat's socket is open, it tells the game
//! every [`BEAT`] that its player is there.

use super::error::ApiError;
use super::{ActionRequest, MAX_ACTION, who};
use crate::app::AppState;
use crate::connections::{Client, Held};
use crate::live::{Answer, GameHandle, LiveError, Request, Subscription, Who};
use crate::quota::{ClientKey, Quotas, Refusal, Slot, Spend};
use crate::referee::Caller;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::time::Instant;

/// Largest message a client may send.
pub const MAX_FRAME: usize = 4096;
/// The socket's read buffer.
const READ_BUFFER: usize = 8 * 1024;
/// Refused messages after which the connection is closed.
const MAX_REFUSED: u32 = 50;
/// How often an open socket of a seat tells its game that the player is there.
pub const BEAT: Duration = Duration::from_secs(10);

#[derive(Deserialize)]
pub(super) struct SocketQuery {
    token: Option<String>,
    v: Option<u64>,
}

pub(super) async fn upgrade(
    State(state): State<AppState>,
    client: Client,
    held: Option<axum::Extension<Held>>,
    Path(id): Path<String>,
    Query(query): Query<SocketQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let who = who(query.token.as_deref())?;
    let game = state.game(&id).await?;
    let quotas = state.quotas_shared();
    // The cap on one game's sockets is its spectators': a player's own socket is never
    // refused for a crowd watching him.
    let per_game = match who {
        Who::Spectator => Some(
            quotas
                .sockets_per_game
                .take(id.clone(), "spectators' sockets on this game")
                // The game's cap is everyone's, not this client's.
                .map_err(|refusal| match refusal {
                    Refusal::TooMany { what, cap, .. } => Refusal::TooMany {
                        what,
                        cap,
                        total: true,
                    },
                    other => other,
                })?,
        ),
        _ => None,
    };
    let slots: Slots = (
        quotas.sockets_per_client.take(client.0, "sockets")?,
        per_game,
        held.map(|axum::Extension(h)| h),
    );
    let subscription = game
        .ask(|reply| Request::Subscribe {
            who,
            since: query.v,
            reply,
        })
        .await?;
    Ok(ws
        // Small buffers: a thousand idle sockets must not cost a thousand 128 KiB buffers.
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| async move {
            // Held while the socket is open.
            let _slots = slots;
            run(socket, game, subscription, &quotas, client.0).await;
        }))
}

/// The places a socket holds: in its client's count, its game's (a spectator's), and the
/// connection caps (the connection it was upgraded from).
type Slots = (Slot<ClientKey>, Option<Slot<String>>, Option<Held>);

/// Round trips measured on one socket with WebSocket pings (which browsers answer by
/// themselves, as lila-ws measures its clients): what a move's lag may be forgiven up to.
#[derive(Default)]
struct LagMeter {
    next: u64,
    /// Pings not answered yet, oldest first.
    sent: VecDeque<(u64, Instant)>,
    /// The latest round trips, oldest first.
    samples: VecDeque<Duration>,
}

/// Pings awaiting an answer that are remembered.
const PINGS_KEPT: usize = 4;
/// Round trips a measure is taken over.
const SAMPLES_KEPT: usize = 5;

impl LagMeter {
    /// A ping to send at `now`: its payload.
    fn ping(&mut self, now: Instant) -> Vec<u8> {
        self.next += 1;
        if self.sent.len() == PINGS_KEPT {
            self.sent.pop_front();
        }
        self.sent.push_back((self.next, now));
        self.next.to_be_bytes().to_vec()
    }

    /// A pong with `payload` came at `now`.
    fn pong(&mut self, payload: &[u8], now: Instant) {
        let Ok(id) = <[u8; 8]>::try_from(payload).map(u64::from_be_bytes) else {
            return;
        };
        let Some(at) = self.sent.iter().position(|&(n, _)| n == id) else {
            return;
        };
        let (_, sent) = self.sent[at];
        // Older pings left unanswered are not waited for any more.
        self.sent.drain(..=at);
        if self.samples.len() == SAMPLES_KEPT {
            self.samples.pop_front();
        }
        self.samples.push_back(now.duration_since(sent));
    }

    /// The longest of the latest round trips: a move's time in transit (the way out of the
    /// last state and the way back of the move) as this connection has shown it.
    fn measured(&self) -> Option<Duration> {
        self.samples.iter().max().copied()
    }
}

fn error_frame(error: &ApiError, ack: Option<u64>) -> String {
    let mut frame = json!({ "t": "error", "d": error.message, "code": error.code });
    if let Some(ack) = ack {
        frame["ack"] = json!(ack);
    }
    if let Some(wait) = error.retry_after {
        frame["retry_after_ms"] = json!(wait.as_millis() as u64);
    }
    frame.to_string()
}

async fn run(
    mut socket: WebSocket,
    game: GameHandle,
    subscription: Subscription,
    quotas: &Quotas,
    client: ClientKey,
) {
    let Subscription {
        caller,
        backlog,
        mut updates,
        watch,
    } = subscription;
    // Held while the socket lives: the game renders its changes for this viewer's class.
    let mut _watch = watch;
    let (class, who) = match caller {
        Caller::Seat(s) => (s, Who::Seat(s)),
        Caller::Spectator => (usize::MAX, Who::Spectator),
    };
    let mut version = 0u64;
    for frame in backlog {
        if socket.send(Message::Text(frame.into())).await.is_err() {
            return;
        }
    }
    let mut refused = 0u32;
    let mut lag = LagMeter::default();
    if matches!(caller, Caller::Seat(_))
        && socket
            .send(Message::Ping(lag.ping(Instant::now()).into()))
            .await
            .is_err()
    {
        return;
    }
    let mut beat = tokio::time::interval_at(Instant::now() + BEAT, BEAT);
    loop {
        tokio::select! {
            _ = beat.tick(), if matches!(caller, Caller::Seat(_)) => {
                let _ = game.try_send(Request::Seen { seat: class });
                if socket.send(Message::Ping(lag.ping(Instant::now()).into())).await.is_err() {
                    return;
                }
            }
            update = updates.recv() => match update {
                Ok(update) => {
                    version = update.version;
                    let k = class.min(update.frames.len() - 1);
                    for frame in &update.frames[k] {
                        if socket.send(Message::Text(frame.clone())).await.is_err() {
                            return;
                        }
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    // Too slow for the broadcast: catch up from the store.
                    let Ok(fresh) = game
                        .ask(|reply| Request::Subscribe { who: who.clone(), since: Some(version), reply })
                        .await
                    else {
                        return;
                    };
                    updates = fresh.updates;
                    _watch = fresh.watch;
                    for frame in fresh.backlog {
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
                    Some(Ok(Message::Pong(payload))) => {
                        lag.pong(&payload, Instant::now());
                        continue;
                    }
                    Some(Ok(_)) => continue,
                };
                // The client's own rate, over all its sockets: a new connection starts with
                // what the last one left.
                if let Err(limited) = quotas.spend(client, Spend::SocketMessage) {
                    refused += 1;
                    let error = ApiError::from(limited);
                    let _ = socket.send(Message::Text(error_frame(&error, None).into())).await;
                    if refused > MAX_REFUSED {
                        let _ = socket.send(Message::Close(Some(CloseFrame {
                            code: close_code::POLICY,
                            reason: "too many messages".into(),
                        }))).await;
                        return;
                    }
                    continue;
                }
                let quota = Some((quotas, client));
                if let Some(reply) = answer(&game, &who, text.as_str(), quota, lag.measured()).await
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
    let who = who(token)?;
    let game = state.game(id).await?;
    let quota = Some((state.quotas(), Client::local().0));
    Ok(answer(&game, &who, text, quota, None).await)
}

/// A move message's data: the HTTP API's move, with the acknowledgement's number.
#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SocketMove {
    /// The move.
    #[serde(rename = "move")]
    pub text: String,
    /// The ply it is meant for: a whole number, or none.
    pub ply: Option<usize>,
    /// How long the player thought, in milliseconds.
    pub think_ms: Option<u64>,
    /// The number the acknowledgement carries back.
    pub ack: Option<u64>,
}

/// A client's message, read.
#[derive(Debug, PartialEq, Eq)]
pub enum ClientMessage {
    /// A move.
    Move(SocketMove),
    /// An action.
    Action(String),
    /// A ping.
    Ping,
}

/// The outer form of every client message.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope {
    t: String,
    #[serde(default)]
    d: Option<Value>,
}

impl ClientMessage {
    /// Reads a client's message: the types and the checks the HTTP API applies to the same
    /// fields, so that nothing the API refuses passes here (`"ply": -1`, `"0"` or `1.0`).
    pub fn parse(text: &str) -> Result<ClientMessage, ApiError> {
        let bad = |what: &str, e: serde_json::Error| {
            ApiError::bad_request("bad-message", format!("{what}: {e}"))
        };
        let envelope: Envelope = serde_json::from_str(text).map_err(|e| bad("bad JSON", e))?;
        match (envelope.t.as_str(), envelope.d) {
            ("ping", _) => Ok(ClientMessage::Ping),
            ("move", Some(d)) => serde_json::from_value(d)
                .map(ClientMessage::Move)
                .map_err(|e| bad("a move message", e)),
            ("move", None) => Err(ApiError::bad_request(
                "bad-message",
                "a move message needs d.move",
            )),
            ("action", Some(d)) => serde_json::from_value::<ActionRequest>(d)
                .map(|a| ClientMessage::Action(a.action.chars().take(MAX_ACTION).collect()))
                .map_err(|e| bad("an action message", e)),
            ("action", None) => Err(ApiError::bad_request(
                "bad-message",
                "an action message needs d.action",
            )),
            ("", _) => Err(ApiError::bad_request(
                "bad-message",
                "a message needs a type t",
            )),
            (name, None) => Ok(ClientMessage::Action(
                name.chars().take(MAX_ACTION).collect(),
            )),
            (_, Some(_)) => Err(ApiError::bad_request(
                "bad-message",
                "an action named by t carries no data (use t=action)",
            )),
        }
    }
}

/// Handles one client message, an action within its client's quota; returns the direct
/// answer, if any.
async fn answer(
    game: &GameHandle,
    who: &Who,
    text: &str,
    quota: Option<(&Quotas, ClientKey)>,
    measured_lag: Option<Duration>,
) -> Option<String> {
    let message = match ClientMessage::parse(text) {
        Ok(message) => message,
        Err(e) => return Some(error_frame(&e, None)),
    };
    match message {
        ClientMessage::Ping => Some(json!({ "t": "pong" }).to_string()),
        ClientMessage::Move(SocketMove {
            text,
            ply,
            think_ms,
            ack,
        }) => {
            let result = game
                .ask(|reply| Request::Move {
                    who: who.clone(),
                    text,
                    ply,
                    thought: think_ms.map(Duration::from_millis),
                    measured_lag,
                    answer: Answer::Ack,
                    reply,
                })
                .await;
            Some(match result {
                Ok(_) => json!({ "t": "ack", "d": ack }).to_string(),
                Err(e) => error_frame(&ApiError::from(e), ack),
            })
        }
        ClientMessage::Action(action) => {
            if let Some((quotas, client)) = quota
                && let Err(refusal) = super::spend_on_action(quotas, Client(client), &action)
            {
                return Some(error_frame(&ApiError::from(refusal), None));
            }
            let result: Result<_, LiveError> = game
                .ask(|reply| Request::Act {
                    who: who.clone(),
                    action,
                    answer: Answer::Ack,
                    reply,
                })
                .await;
            match result {
                Ok(_) => None,
                Err(e) => Some(error_frame(&ApiError::from(e), None)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lag_meter_keeps_the_longest_of_the_latest_round_trips() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut meter = LagMeter::default();
        assert_eq!(meter.measured(), None);
        let first = meter.ping(t0);
        let second = meter.ping(t0 + ms(10));
        // A pong nobody asked for, or a garbled one, measures nothing.
        meter.pong(&99u64.to_be_bytes(), t0 + ms(20));
        meter.pong(b"x", t0 + ms(20));
        assert_eq!(meter.measured(), None);
        meter.pong(&second, t0 + ms(70));
        assert_eq!(meter.measured(), Some(ms(60)));
        // The first was given up when a later one came back.
        meter.pong(&first, t0 + ms(500));
        assert_eq!(meter.measured(), Some(ms(60)));
        for i in 0..SAMPLES_KEPT as u64 {
            let at = t0 + ms(1_000 * (i + 1));
            let ping = meter.ping(at);
            meter.pong(&ping, at + ms(20));
        }
        // The 60 ms trip has left the window.
        assert_eq!(meter.measured(), Some(ms(20)));
    }

    #[test]
    fn socket_moves_are_read_with_the_http_api_s_types() {
        for bad in [
            r#"{"t":"move","d":{"move":"e2e4","ply":-1}}"#,
            r#"{"t":"move","d":{"move":"e2e4","ply":"0"}}"#,
            r#"{"t":"move","d":{"move":"e2e4","ply":1.0}}"#,
            r#"{"t":"move","d":{"move":"e2e4","ack":"7"}}"#,
            r#"{"t":"move","d":{"move":"e2e4","extra":1}}"#,
            r#"{"t":"move"}"#,
            r#"{"t":"resign","d":{"x":1}}"#,
            r#"{"t":""}"#,
            r#"[1,2]"#,
        ] {
            let refused = ClientMessage::parse(bad).expect_err(bad);
            assert_eq!(refused.status.as_u16(), 400, "{bad}");
            // The same fields are refused by the HTTP API's own type.
            if let Some(d) = serde_json::from_str::<Value>(bad)
                .ok()
                .and_then(|v| v.get("d").cloned())
                && d.get("ack").is_none()
                && d.get("extra").is_none()
            {
                assert!(serde_json::from_value::<super::super::MoveRequest>(d).is_err());
            }
        }
        assert_eq!(
            ClientMessage::parse(
                r#"{"t":"move","d":{"move":"e2e4","ply":0,"ack":3,"think_ms":5}}"#
            )
            .unwrap(),
            ClientMessage::Move(SocketMove {
                text: "e2e4".into(),
                ply: Some(0),
                think_ms: Some(5),
                ack: Some(3),
            })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"resign"}"#).unwrap(),
            ClientMessage::Action("resign".into())
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"action","d":{"action":"draw-offer"}}"#).unwrap(),
            ClientMessage::Action("draw-offer".into())
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"ping"}"#).unwrap(),
            ClientMessage::Ping
        );
    }
}
