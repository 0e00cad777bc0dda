//! Several server nodes on one PostgreSQL store: which node runs each live game, and the
//! notices between them.
//!
//! Exactly one node runs a live game at a time: the one holding its lease (a row renewed
//! every [`RENEW_EVERY`], lapsing after [`LEASE`]). It runs the clocks and engines and
//! writes the moves; its commits are fenced by the lease (see [`crate::store::postgres`]).
//! Every other node that serves the game follows it: it answers reads from its own replica,
//! sends the writes its clients make to the running node over the bus, and rebuilds its
//! replica when a notice says the game changed, relaying the new events to its sockets.
//! When a node dies, its leases lapse, and the first node to see a live game without a
//! lease takes it over, resuming its clocks from what was stored.
//!
//! Notices are small JSON objects with a format version `v`:
//! - `{"v":1,"game":ID,"version":N}` to every node, sent inside the commit that made version N;
//! - `{"v":1,"kind":"command","from":NODE,"req":K,"game":ID,"seat":S|null,"command":{...}}`
//!   to the running node (a move, an action or a seat claim, as the HTTP API takes them);
//! - `{"v":1,"kind":"reply","req":K,"error":null|{"status":CODE,"message":TEXT}}` back.
//!
//! PostgreSQL's `NOTIFY` carries them; any bus with per-node and broadcast channels would do.

use crate::AppState;
use crate::error::ApiError;
use crate::live::{Caller, Command};
pub use crate::store::postgres::LEASE;
use crate::store::{Cluster, Store, StoreError};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::oneshot;

/// How often a node renews its leases and looks for games whose nodes died.
pub const RENEW_EVERY: Duration = Duration::from_millis(1500);
/// How long a forwarded command waits for the running node's answer.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(5);
/// Orphaned games one node takes over per round (the others take the rest).
const TAKEOVERS_PER_ROUND: usize = 50;

/// A write a client made on a node that does not run the game.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum Forwarded {
    /// A move.
    Move {
        /// Its text.
        text: String,
        /// The ply it is meant for.
        ply: Option<usize>,
        /// How long the player says he thought, in milliseconds.
        think_ms: Option<u64>,
    },
    /// An action.
    Action {
        /// Its name.
        action: String,
    },
    /// A seat claim, with the new token's hash.
    Join {
        /// The seat.
        seat: usize,
        /// SHA-256 of the token, hex.
        token_hash: String,
    },
}

#[derive(Serialize, Deserialize)]
struct Notice {
    v: u32,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    req: Option<u64>,
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default)]
    command: Option<Forwarded>,
    #[serde(default)]
    error: Option<WireError>,
}

#[derive(Serialize, Deserialize)]
struct WireError {
    status: u16,
    message: String,
}

/// The format version of the notices this node writes and reads.
const NOTICE_VERSION: u32 = 1;

impl Notice {
    fn new(kind: &str) -> Notice {
        Notice {
            v: NOTICE_VERSION,
            kind: Some(kind.into()),
            game: None,
            version: None,
            from: None,
            req: None,
            seat: None,
            command: None,
            error: None,
        }
    }
}

/// This node's side of the cluster: the writes it sent to other nodes, waiting for answers.
#[derive(Default)]
pub struct Nodes {
    waiting: Mutex<HashMap<u64, oneshot::Sender<Result<(), ApiError>>>>,
    next: AtomicU64,
}

impl Nodes {
    /// Sends a client's write to the node running game `id` and waits for its answer.
    pub async fn forward(
        &self,
        store: &Store,
        id: &str,
        caller: Caller,
        command: Forwarded,
    ) -> Result<(), ApiError> {
        let node = cluster_of(store)?.node().to_string();
        let lookup = store.clone();
        let key = id.to_string();
        let owner = blocking(move || cluster_of(&lookup)?.owner(&key))
            .await?
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the node running this game is gone; another takes it over in a few seconds: try again",
                )
            })?;
        let req = self.next.fetch_add(1, Ordering::Relaxed);
        tracing::debug!(game = %id, "forwarding {req} from {node} to {owner}");
        let (sender, answer) = oneshot::channel();
        lock(&self.waiting).insert(req, sender);
        let mut notice = Notice::new("command");
        notice.from = Some(node);
        notice.req = Some(req);
        notice.game = Some(id.to_string());
        notice.seat = match caller {
            Caller::Seat(s) => Some(s),
            Caller::Spectator => None,
        };
        notice.command = Some(command);
        let payload = serde_json::to_string(&notice).unwrap_or_default();
        let store = store.clone();
        let sent = blocking(move || cluster_of(&store)?.notify(Some(&owner), &payload)).await;
        if let Err(e) = sent {
            lock(&self.waiting).remove(&req);
            return Err(e);
        }
        let answer = tokio::time::timeout(FORWARD_TIMEOUT, answer).await;
        lock(&self.waiting).remove(&req);
        match answer {
            Ok(Ok(result)) => result,
            _ => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the node running this game did not answer; try again",
            )),
        }
    }

    fn answered(&self, req: u64, result: Result<(), ApiError>) {
        if let Some(sender) = lock(&self.waiting).remove(&req) {
            let _ = sender.send(result);
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn cluster_of(store: &crate::store::Store) -> Result<&dyn Cluster, StoreError> {
    store
        .cluster()
        .ok_or_else(|| StoreError::Backend("this store serves one node only".into()))
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("store task: {e}")))?
        .map_err(ApiError::from)
}

/// Runs this node's part of the cluster until the process ends: relays notices to the games,
/// answers commands for the games it runs, renews its leases and takes over games whose
/// nodes died.
pub async fn run(state: AppState) {
    let Some(cluster) = state.store().cluster() else {
        return;
    };
    let Some(notices) = cluster.listen() else {
        return;
    };
    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel();
    std::thread::Builder::new()
        .name("cluster-notices".into())
        .spawn(move || {
            while let Ok(notice) = notices.recv() {
                if sender.send(notice).is_err() {
                    return;
                }
            }
        })
        .ok();
    let leases = tokio::spawn(keep_leases(state.clone()));
    while let Some(notice) = receiver.recv().await {
        match notice {
            // The listener's heartbeat.
            Some(text) if text.is_empty() => {}
            Some(text) => on_notice(&state, &text).await,
            // Notices were lost while the listener reconnected: catch every game up.
            None => {
                for handle in state.running_games() {
                    let _ = handle.try_send(Command::Refresh);
                }
            }
        }
    }
    leases.abort();
}

async fn on_notice(state: &AppState, text: &str) {
    let Ok(notice) = serde_json::from_str::<Notice>(text) else {
        tracing::warn!(
            "a notice that does not parse: {}",
            text.chars().take(200).collect::<String>()
        );
        return;
    };
    if notice.v != NOTICE_VERSION {
        tracing::warn!(
            "a notice of format {} (this node reads {NOTICE_VERSION})",
            notice.v
        );
        return;
    }
    match notice.kind.as_deref() {
        None => {
            // A game changed: the node following it catches up.
            if let Some(id) = &notice.game
                && let Some(handle) = state.running_game(id)
            {
                let _ = handle.try_send(Command::Refresh);
            }
        }
        Some("command") => {
            let state = state.clone();
            tokio::spawn(async move { answer_command(&state, notice).await });
        }
        Some("reply") => {
            if let Some(req) = notice.req {
                let result = match notice.error {
                    None => Ok(()),
                    Some(e) => Err(ApiError::new(
                        StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                        e.message,
                    )),
                };
                state.nodes().answered(req, result);
            }
        }
        Some(other) => tracing::warn!("a notice of unknown kind {other:?}"),
    }
}

/// Runs a command another node forwarded, if this node runs the game, and answers it.
async fn answer_command(state: &AppState, notice: Notice) {
    let (Some(from), Some(req), Some(id), Some(command)) =
        (notice.from, notice.req, notice.game, notice.command)
    else {
        return;
    };
    let caller = notice.seat.map_or(Caller::Spectator, Caller::Seat);
    tracing::debug!(game = %id, from = %from, "command {req} from another node");
    let result = match state.game(&id).await {
        Ok(handle) => {
            handle
                .ask(|reply| Command::Remote {
                    caller,
                    command,
                    reply,
                })
                .await
        }
        Err(e) => Err(e),
    }
    .and_then(|r| r);
    let mut reply = Notice::new("reply");
    reply.req = Some(req);
    reply.error = result.err().map(|e| WireError {
        status: e.status.as_u16(),
        message: e.message,
    });
    let payload = serde_json::to_string(&reply).unwrap_or_default();
    let store = state.store().clone();
    if let Err(e) = blocking(move || cluster_of(&store)?.notify(Some(&from), &payload)).await {
        tracing::warn!(game = %id, "reply not sent: {e}");
    }
}

/// Renews this node's leases, hands back the games whose leases it lost, and takes over live
/// games whose nodes died.
async fn keep_leases(state: AppState) {
    let mut every = tokio::time::interval(RENEW_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let store = state.store().clone();
        let held = match blocking(move || cluster_of(&store)?.renew()).await {
            Ok(held) => held,
            Err(e) => {
                tracing::warn!("leases not renewed: {e}");
                continue;
            }
        };
        for (id, handle) in state.games_snapshot() {
            if !held.contains(&id) {
                let _ = handle.try_send(Command::LeaseLost);
            }
        }
        let store = state.store().clone();
        let orphans = match blocking(move || cluster_of(&store)?.orphans(TAKEOVERS_PER_ROUND)).await
        {
            Ok(orphans) => orphans,
            Err(e) => {
                tracing::warn!("no look for orphaned games: {e}");
                continue;
            }
        };
        for id in orphans {
            let store = state.store().clone();
            let key = id.clone();
            if let Ok(Ok(())) = blocking(move || cluster_of(&store)?.acquire(&key)).await {
                tracing::info!(game = %id, node = %cluster_of(state.store()).map(|c| c.node().to_string()).unwrap_or_default(), "taken over");
                match state.running_game(&id) {
                    Some(handle) => {
                        let _ = handle.try_send(Command::LeaseTaken);
                    }
                    None => {
                        if let Err(e) = state.game(&id).await {
                            tracing::warn!(game = %id, "not taken over: {e}");
                        }
                    }
                }
            }
        }
    }
}
