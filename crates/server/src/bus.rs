//! The bus between server nodes on one PostgreSQL store: the notices they send each other and
//! the writes a node forwards to the node running a game (the `cluster` module runs it).
//!
//! Notices are small JSON objects with a format version `v`:
//! - `{"v":1,"game":ID,"version":N}` to every node, sent inside the commit that made version N;
//! - `{"v":1,"kind":"command","from":NODE,"req":K,"game":ID,"seat":S|null,"command":{...}}`
//!   to the running node (a move, an action, a seat claim or a sign of life, as the HTTP API
//!   takes them);
//! - `{"v":1,"kind":"reply","req":K,"error":null|{"status":CODE,"code":C,"message":TEXT}}`
//!   back.
//!
//! PostgreSQL's `NOTIFY` carries them; any bus with per-node and broadcast channels would do.

use crate::store::{Cluster, Store, StoreError};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::oneshot;

/// How long a forwarded command waits for the running node's answer.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(5);

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
        /// The network lag the first node measured on the move's connection, in
        /// milliseconds (the forwarding adds its own, which is not the player's).
        #[serde(default)]
        lag_ms: Option<u64>,
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
    /// A sign of life of the seat's player.
    Seen {
        /// From an open socket.
        socket: bool,
    },
    /// The owner of a game of engines only stops it.
    Stop {
        /// SHA-256 of the owner's token, hex.
        token_hash: String,
    },
}

/// A node's notice (see the module documentation).
#[derive(Serialize, Deserialize)]
pub struct Notice {
    /// The format version.
    pub v: u32,
    /// `command`, `reply`, or none for a game's change.
    #[serde(default)]
    pub kind: Option<String>,
    /// The game.
    #[serde(default)]
    pub game: Option<String>,
    /// The game's version after a change.
    #[serde(default)]
    pub version: Option<u64>,
    /// The node a command comes from.
    #[serde(default)]
    pub from: Option<String>,
    /// The request a command or reply belongs to.
    #[serde(default)]
    pub req: Option<u64>,
    /// The seat a command is made by.
    #[serde(default)]
    pub seat: Option<usize>,
    /// The command.
    #[serde(default)]
    pub command: Option<Forwarded>,
    /// A reply's refusal.
    #[serde(default)]
    pub error: Option<RemoteError>,
}

/// Why a forwarded write got no success.
#[derive(Debug)]
pub enum ForwardError {
    /// No node runs the game, or the one that does did not answer in time.
    Unanswered,
    /// The running node refused it.
    Refused(RemoteError),
    /// The store failed.
    Store(StoreError),
}

impl From<StoreError> for ForwardError {
    fn from(e: StoreError) -> Self {
        ForwardError::Store(e)
    }
}

/// A refusal as the running node answered it: its HTTP status, code and message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteError {
    /// The HTTP status.
    pub status: u16,
    /// The stable code, where the refusal has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// One line naming it.
    pub message: String,
}

/// The format version of the notices this node writes and reads.
pub const NOTICE_VERSION: u32 = 1;

impl Notice {
    /// A notice of `kind` with nothing else set.
    pub fn new(kind: &str) -> Notice {
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

/// This node's side of the bus: the writes it sent to other nodes, waiting for answers.
#[derive(Default)]
pub struct Nodes {
    waiting: Mutex<HashMap<u64, oneshot::Sender<Result<(), RemoteError>>>>,
    next: AtomicU64,
}

impl Nodes {
    /// Sends a client's write, made by `seat`, to the node running game `id` and waits for
    /// its answer.
    pub async fn forward(
        &self,
        store: &Store,
        id: &str,
        seat: Option<usize>,
        command: Forwarded,
    ) -> Result<(), ForwardError> {
        let node = cluster_of(store)?.node().to_string();
        let lookup = store.clone();
        let key = id.to_string();
        let owner = blocking(move || cluster_of(&lookup)?.owner(&key))
            .await?
            .ok_or(ForwardError::Unanswered)?;
        let req = self.next.fetch_add(1, Ordering::Relaxed);
        tracing::debug!(game = %id, "forwarding {req} from {node} to {owner}");
        let (sender, answer) = oneshot::channel();
        lock(&self.waiting).insert(req, sender);
        let mut notice = Notice::new("command");
        notice.from = Some(node);
        notice.req = Some(req);
        notice.game = Some(id.to_string());
        notice.seat = seat;
        notice.command = Some(command);
        let payload = serde_json::to_string(&notice).unwrap_or_default();
        let store = store.clone();
        let sent = blocking(move || cluster_of(&store)?.notify(Some(&owner), &payload)).await;
        if let Err(e) = sent {
            lock(&self.waiting).remove(&req);
            return Err(e.into());
        }
        let answer = tokio::time::timeout(FORWARD_TIMEOUT, answer).await;
        lock(&self.waiting).remove(&req);
        match answer {
            Ok(Ok(result)) => result.map_err(ForwardError::Refused),
            _ => Err(ForwardError::Unanswered),
        }
    }

    /// The answer to request `req` came.
    pub fn answered(&self, req: u64, result: Result<(), RemoteError>) {
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

/// The cluster side of the store (a store of one node has none).
pub fn cluster_of(store: &crate::store::Store) -> Result<&dyn Cluster, StoreError> {
    store
        .cluster()
        .ok_or_else(|| StoreError::Backend("this store serves one node only".into()))
}

/// Runs a store call on a blocking thread.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| StoreError::Backend(format!("store task: {e}")))?
}
