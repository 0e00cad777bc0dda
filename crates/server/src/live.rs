//! A live game's task: one per game, a short loop around its [`Referee`]. It receives a
//! request, has the referee decide it, stores the decision's change, applies it, and sends the
//! events and the new states to the viewers who watch; it wakes the engine and arms the timer
//! that the referee's state asks for. No rule of the game is decided here.
//!
//! With several nodes (PostgreSQL), the node holding the game's lease runs it; the task on any
//! other node follows it (`Role::Follows`): it answers reads from a replica caught up from the
//! store, relays the events to its sockets and forwards its clients' writes to the running
//! node over the bus ([`crate::bus`]).

use crate::bus::{ForwardError, Forwarded, Nodes, RemoteError};
use crate::engines::{EnginePool, HASH_MB, level_limits};
use crate::referee::{Action, Caller, Command, EngineTurn, Fresh, GameError, Referee};
use crate::render::{self, RecordRefusal};
use crate::store::{Change, EventRow, GameRow, Store, StoreError, now_ms};
use axum::extract::ws::Utf8Bytes;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc, oneshot};

/// How long a finished game's task stays in memory without requests.
/// The action that stops a game of engines only, taken with the token its creator got.
pub const STOP: &str = "stop";
const IDLE_FINISHED: Duration = Duration::from_secs(60);
/// Updates a slow viewer may fall behind before it catches up from the store.
const BROADCAST_DEPTH: usize = 16;
/// How often a follower passes on a seat's signs of life to the running node, at most.
const FORWARD_SEEN_EVERY: Duration = Duration::from_secs(5);

/// Why a request to a game failed: the referee refused it, or the machinery did.
#[derive(Debug)]
pub enum LiveError {
    /// The referee refused it (nothing changed).
    Game(GameError),
    /// The store failed (nothing changed).
    Store(StoreError),
    /// No game of that id.
    NoGame(String),
    /// No position after that many moves: the game has `plies`.
    NoPosition {
        /// The ply asked for.
        ply: usize,
        /// Moves played.
        plies: usize,
    },
    /// A version the game has not reached.
    AheadOf {
        /// The version given.
        given: u64,
        /// The game's.
        version: u64,
    },
    /// The record is not shown.
    Record(RecordRefusal),
    /// The game's task is gone or overloaded.
    Stopped,
    /// This node no longer runs the game (another takes it over): try again.
    Moved,
    /// The node running the game answered with this refusal.
    Remote(RemoteError),
}

impl std::fmt::Display for LiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LiveError::Game(e) => write!(f, "{e}"),
            LiveError::Store(e) => write!(f, "store: {e}"),
            LiveError::NoGame(id) => write!(f, "no game {id:?}"),
            LiveError::NoPosition { ply, plies } => {
                write!(f, "no position after {ply} moves: the game has {plies}")
            }
            LiveError::AheadOf { given, version } => {
                write!(f, "version {given} is ahead of the game's {version}")
            }
            LiveError::Record(refusal) => write!(f, "record: {refusal:?}"),
            LiveError::Stopped => write!(f, "the game's task has stopped"),
            LiveError::Moved => write!(f, "another node runs the game"),
            LiveError::Remote(e) => write!(f, "{} ({})", e.message, e.status),
        }
    }
}

impl std::error::Error for LiveError {}

impl From<ForwardError> for LiveError {
    fn from(e: ForwardError) -> Self {
        match e {
            ForwardError::Unanswered => LiveError::Moved,
            ForwardError::Refused(e) => LiveError::Remote(e),
            ForwardError::Store(e) => LiveError::Store(e),
        }
    }
}

impl From<GameError> for LiveError {
    fn from(e: GameError) -> Self {
        LiveError::Game(e)
    }
}

impl From<StoreError> for LiveError {
    fn from(e: StoreError) -> Self {
        LiveError::Store(e)
    }
}

/// Who sends a request: the holder of a token (the task finds its seat), a seat already
/// known (a socket identified when it connected), or a spectator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    /// SHA-256 of a token, hex.
    Token(String),
    /// A seat.
    Seat(usize),
    /// Anyone.
    Spectator,
}

/// What a write is answered with: the caller's new state (HTTP) or nothing but success (a
/// socket's acknowledgement: the socket gets the state with the broadcast).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The state as the caller sees it after the change.
    State,
    /// Nothing.
    Ack,
}

/// What a connected viewer receives after each change: for each viewer class (seat 0..n,
/// then spectators) the messages, already serialized.
#[derive(Debug)]
pub struct Update {
    /// The game's version after the change.
    pub version: u64,
    /// Messages per viewer class (none for a class that no one watches).
    pub frames: Vec<Vec<Utf8Bytes>>,
}

/// What a new viewer gets: who it is, the messages it missed and the current state, a
/// receiver of further updates and its place among the game's watchers (held while it
/// watches).
pub struct Subscription {
    /// The viewer.
    pub caller: Caller,
    /// Missed events, then the state.
    pub backlog: Vec<String>,
    /// Further updates.
    pub updates: broadcast::Receiver<Arc<Update>>,
    /// Held while watching.
    pub watch: Watch,
}

/// A viewer's place among a game's watchers: while no one of a viewer class (a seat, or the
/// spectators) watches, changes are not rendered for that class.
#[derive(Debug)]
pub struct Watch {
    counts: Arc<[AtomicUsize]>,
    class: usize,
}

impl Watch {
    fn new(counts: &Arc<[AtomicUsize]>, class: usize) -> Self {
        counts[class].fetch_add(1, Ordering::Relaxed);
        Watch {
            counts: counts.clone(),
            class,
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.counts[self.class].fetch_sub(1, Ordering::Relaxed);
    }
}

type Reply<T> = oneshot::Sender<Result<T, LiveError>>;

/// A request to a game's task.
pub enum Request {
    /// The state as the caller may see it.
    State {
        /// Who asks.
        who: Who,
        /// The state.
        reply: Reply<Value>,
    },
    /// Claims an open human seat.
    Join {
        /// The seat.
        seat: usize,
        /// The new token's hash.
        token_hash: String,
        /// Done.
        reply: Reply<()>,
    },
    /// Plays a move.
    Move {
        /// Who moves.
        who: Who,
        /// The move text.
        text: String,
        /// The ply it is meant for.
        ply: Option<usize>,
        /// How long the player says he thought.
        thought: Option<Duration>,
        /// The network lag the server measured on the move's connection.
        measured_lag: Option<Duration>,
        /// What to answer with.
        answer: Answer,
        /// The state (with [`Answer::State`]) once stored.
        reply: Reply<Option<Value>>,
    },
    /// Takes an action.
    Act {
        /// Who acts.
        who: Who,
        /// The action's name.
        action: String,
        /// What to answer with.
        answer: Answer,
        /// The state (with [`Answer::State`]) once stored.
        reply: Reply<Option<Value>>,
    },
    /// Subscribes to updates from version `since`.
    Subscribe {
        /// Who watches.
        who: Who,
        /// The last version the viewer has.
        since: Option<u64>,
        /// Backlog, then the live updates.
        reply: Reply<Subscription>,
    },
    /// A beat of an open socket of a seat: its player is there.
    Seen {
        /// The seat.
        seat: usize,
    },
    /// The position after `ply` moves as the caller may see it.
    Position {
        /// Who asks.
        who: Who,
        /// Moves played before the position.
        ply: usize,
        /// The position.
        reply: Reply<Value>,
    },
    /// The game's record.
    Record {
        /// Who asks.
        who: Who,
        /// The format asked for, or the ruleset's default.
        format: Option<String>,
        /// The server's address as the request reached it, for the record's site.
        base: Option<String>,
        /// The language of the record's event (a code of `words::LANGUAGES`).
        lang: &'static str,
        /// The record and its file extension.
        reply: Reply<(String, &'static str)>,
    },
    /// A write forwarded from another node's client (this node runs the game).
    Remote {
        /// The seat that writes, if any.
        seat: Option<usize>,
        /// The write.
        command: Forwarded,
        /// Done.
        reply: Reply<()>,
    },
    /// The stored game changed (another node wrote it): catch up and relay the new events.
    Refresh,
    /// This node took over the game's lease: run it from what is stored.
    LeaseTaken,
    /// This node's lease lapsed (another node may run the game): follow it.
    LeaseLost,
}

/// A handle to a game's task.
#[derive(Clone)]
pub struct GameHandle {
    sender: mpsc::Sender<Request>,
    /// Whether the game goes on (the task lingers a while after it ends).
    live: Arc<AtomicBool>,
    engines_only: bool,
    /// How many of this node's sockets watch, by class (seat 0..n, then spectators).
    watching: Arc<[AtomicUsize]>,
}

impl GameHandle {
    /// How many seats this node's sockets hold, and how many spectators watch here.
    pub fn watchers(&self) -> (usize, usize) {
        let (seats, spectators) = self
            .watching
            .split_at(self.watching.len().saturating_sub(1));
        let held = seats
            .iter()
            .filter(|n| n.load(Ordering::Relaxed) > 0)
            .count();
        let watching = spectators.iter().map(|n| n.load(Ordering::Relaxed)).sum();
        (held, watching)
    }

    /// Sends a request and waits for the answer.
    pub async fn ask<T>(&self, make: impl FnOnce(Reply<T>) -> Request) -> Result<T, LiveError> {
        let (tx, rx) = oneshot::channel();
        self.sender
            .send(make(tx))
            .await
            .map_err(|_| LiveError::Stopped)?;
        rx.await.map_err(|_| LiveError::Stopped)?
    }

    /// Sends a request that needs no answer, unless the task's queue is full.
    pub fn try_send(&self, request: Request) -> Result<(), LiveError> {
        self.sender
            .try_send(request)
            .map_err(|_| LiveError::Stopped)
    }

    /// Whether the game goes on and its task runs.
    pub fn is_live(&self) -> bool {
        self.live.load(Ordering::Relaxed) && !self.is_closed()
    }

    /// Whether the task is gone.
    pub fn is_closed(&self) -> bool {
        self.sender.is_closed()
    }

    /// Whether this is a live game of engines only (they cost the engine pool without a
    /// person asking: the server caps how many run).
    pub fn is_live_engines_only(&self) -> bool {
        self.engines_only && self.live.load(Ordering::Relaxed) && !self.is_closed()
    }
}

/// Whether this node runs a live game or follows the node that does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// This node runs the clocks and engines and writes the moves.
    Runs,
    /// Another node does; this one keeps a replica and forwards its clients' writes.
    Follows,
}

struct Thinking {
    seat: usize,
    ply: usize,
    stop: Arc<AtomicBool>,
}

/// An engine's move, delivered to its game.
struct Found {
    seat: usize,
    ply: usize,
    text: Option<String>,
}

/// The game's task state.
struct LiveGame {
    referee: Referee,
    store: Store,
    engines: EnginePool,
    updates: broadcast::Sender<Arc<Update>>,
    /// How many viewers of each class (seat 0..n, then spectators) watch.
    watching: Arc<[AtomicUsize]>,
    thinking: Option<Thinking>,
    /// A turn the engine's move was refused at: not thought again.
    stuck: Option<(usize, usize)>,
    engine_results: mpsc::Sender<Found>,
    /// The other nodes, with this node's role in the game (none with a store of one node).
    nodes: Option<(Arc<Nodes>, Role)>,
    /// When a follower last passed on each seat's signs of life.
    forwarded_seen: HashMap<usize, Instant>,
    /// The engine pool's line this game's searches wait in: its creator's.
    lane: String,
    /// Shared with the handles: whether the game goes on.
    live: Arc<AtomicBool>,
}

/// Loads a stored game and starts its task; `nodes` are the other nodes with this node's
/// role in the game, where the store has several.
pub fn start(
    row: GameRow,
    store: Store,
    engines: EnginePool,
    nodes: Option<(Arc<Nodes>, Role)>,
) -> Result<GameHandle, LiveError> {
    let referee = Referee::from_row(&row, Instant::now())?;
    let (sender, receiver) = mpsc::channel(64);
    let (engine_results, engine_receiver) = mpsc::channel(4);
    let (updates, _) = broadcast::channel(BROADCAST_DEPTH);
    let live = Arc::new(AtomicBool::new(referee.is_live()));
    let engines_only = referee.engines_only();
    let lane = referee.creator().unwrap_or(&row.id).to_string();
    let watching: Arc<[AtomicUsize]> = (0..=row.seats.len()).map(|_| AtomicUsize::new(0)).collect();
    let game = LiveGame {
        lane,
        live: live.clone(),
        watching: watching.clone(),
        referee,
        store,
        engines,
        updates,
        thinking: None,
        stuck: None,
        engine_results,
        nodes,
        forwarded_seen: HashMap::new(),
    };
    tokio::spawn(game.run(receiver, engine_receiver));
    Ok(GameHandle {
        sender,
        live,
        engines_only,
        watching,
    })
}

/// Random bytes from the operating system and the date, for what a command may create.
pub(crate) fn fresh() -> Result<Fresh, LiveError> {
    let mut fresh = Fresh {
        id: [0; 12],
        secrets: [[0; 32]; Fresh::SECRETS],
        unix_ms: now_ms(),
    };
    let no_randomness =
        |e: getrandom::Error| LiveError::Store(StoreError::Backend(format!("no randomness: {e}")));
    getrandom::fill(&mut fresh.id).map_err(no_randomness)?;
    for key in &mut fresh.secrets {
        getrandom::fill(key).map_err(no_randomness)?;
    }
    Ok(fresh)
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await,
        None => std::future::pending().await,
    }
}

impl LiveGame {
    async fn run(
        mut self,
        mut requests: mpsc::Receiver<Request>,
        mut engine_moves: mpsc::Receiver<Found>,
    ) {
        self.sync_engine();
        loop {
            // Another node runs a followed game's clocks.
            let deadline = (!self.follows())
                .then(|| self.referee.next_deadline())
                .flatten();
            let idle =
                (!self.referee.is_live() || self.follows()).then(|| Instant::now() + IDLE_FINISHED);
            tokio::select! {
                request = requests.recv() => match request {
                    Some(request) => self.handle(request).await,
                    None => break,
                },
                Some(found) = engine_moves.recv() => self.engine_moved(found).await,
                _ = sleep_until_opt(deadline), if deadline.is_some() => {
                    if let Err(e) = self.run_command(Command::Tick).await {
                        tracing::warn!(game = %self.referee.id(), "time not judged: {e:?}");
                        // Try again shortly rather than at once.
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
                _ = sleep_until_opt(idle), if idle.is_some() && self.updates.receiver_count() == 0 => break,
            }
        }
        self.stop_thinking();
    }

    /// Whether another node runs this live game (this one keeps a replica).
    fn follows(&self) -> bool {
        self.referee.is_live() && matches!(self.nodes, Some((_, Role::Follows)))
    }

    /// Has the referee decide `command` now, stores the change, applies it and tells the
    /// viewers; then wakes the engine the new state asks for. Answers the command's own
    /// refusal where the decision was something else (a flag that fell first).
    async fn run_command(&mut self, command: Command) -> Result<Option<GameError>, LiveError> {
        let mut decision = self.referee.decide(&command, Instant::now())?;
        let ends = decision.ends();
        let events = match decision.change.take() {
            Some(change) => {
                let change = self.commit(change).await?;
                let events = change.events.clone();
                decision.change = Some(change);
                events
            }
            None => Vec::new(),
        };
        let refusal = decision.refusal.clone();
        self.referee.apply(decision);
        self.live.store(self.referee.is_live(), Ordering::Relaxed);
        if !events.is_empty() {
            self.broadcast(&events);
        }
        if ends && self.nodes.is_some() {
            // An ended game needs no node to run it.
            let store = self.store.clone();
            let id = self.referee.id().to_string();
            tokio::task::spawn_blocking(move || {
                if let Some(cluster) = store.cluster() {
                    let _ = cluster.release(&id);
                }
            });
        }
        self.sync_engine();
        Ok(refusal)
    }

    /// Stores a change made on the current version; hands it back once stored.
    async fn commit(&self, change: Change) -> Result<Change, LiveError> {
        let store = self.store.clone();
        let id = self.referee.id().to_string();
        let version = self.referee.version();
        let (result, change) = tokio::task::spawn_blocking(move || {
            let result = store.commit(&id, version, &change);
            (result, change)
        })
        .await
        .map_err(|_| LiveError::Stopped)?;
        result?;
        Ok(change)
    }

    /// Sends the events just stored, then each viewer's new state, to the viewer classes
    /// someone watches.
    fn broadcast(&self, events: &[EventRow]) {
        if self.updates.receiver_count() == 0 {
            return;
        }
        let now = Instant::now();
        let referee = &self.referee;
        let frames = (0..=referee.seats().len())
            .map(|class| {
                if self.watching[class].load(Ordering::Relaxed) == 0 {
                    return Vec::new();
                }
                let mut messages: Vec<Utf8Bytes> = events
                    .iter()
                    .map(|e| render::event_frame(referee, e, class).into())
                    .collect();
                messages.push(
                    render::state_frame(referee, render::caller_of(referee, class), now).into(),
                );
                messages
            })
            .collect();
        let _ = self.updates.send(Arc::new(Update {
            version: referee.version(),
            frames,
        }));
    }

    /// The caller a request comes from.
    fn caller(&self, who: &Who) -> Result<Caller, LiveError> {
        match who {
            Who::Spectator => Ok(Caller::Spectator),
            Who::Seat(seat) => Ok(Caller::Seat(*seat)),
            Who::Token(hash) => self
                .referee
                .seat_of_token(hash)
                .map(Caller::Seat)
                .ok_or(LiveError::Game(GameError::NotASeat)),
        }
    }

    /// The caller of a read, which is a sign of life of its seat (a write is one too, decided
    /// with it).
    async fn reader(&mut self, who: &Who, socket: bool) -> Result<Caller, LiveError> {
        let caller = self.caller(who)?;
        if let Caller::Seat(seat) = caller {
            self.seen(seat, socket).await;
        }
        Ok(caller)
    }

    /// A sign of life of `seat`'s player: on a follower, passed on to the running node.
    async fn seen(&mut self, seat: usize, socket: bool) {
        if self.follows() {
            if !self.referee.wants_signs_of_life(seat) {
                return;
            }
            let now = Instant::now();
            let recent = self
                .forwarded_seen
                .get(&seat)
                .is_some_and(|at| now.duration_since(*at) < FORWARD_SEEN_EVERY);
            if let (false, Some((nodes, _))) = (recent, self.nodes.clone()) {
                self.forwarded_seen.insert(seat, now);
                let store = self.store.clone();
                let id = self.referee.id().to_string();
                tokio::spawn(async move {
                    let _ = nodes
                        .forward(&store, &id, Some(seat), Forwarded::Seen { socket })
                        .await;
                });
            }
            return;
        }
        if let Err(e) = self.run_command(Command::Seen { seat, socket }).await {
            tracing::warn!(game = %self.referee.id(), "arrival not stored: {e:?}");
        }
    }

    fn seat_of(caller: Caller) -> Result<usize, LiveError> {
        match caller {
            Caller::Seat(seat) => Ok(seat),
            Caller::Spectator => Err(LiveError::Game(GameError::Spectator)),
        }
    }

    /// The answer to a write that was applied (or refused after a decision of its own).
    fn answer(
        &self,
        caller: Caller,
        answer: Answer,
        refusal: Option<GameError>,
    ) -> Result<Option<Value>, LiveError> {
        if let Some(refusal) = refusal {
            return Err(LiveError::Game(refusal));
        }
        Ok(match answer {
            Answer::State => Some(render::state(&self.referee, caller, Instant::now())),
            Answer::Ack => None,
        })
    }

    async fn handle(&mut self, request: Request) {
        match request {
            Request::State { who, reply } => {
                let result = self
                    .reader(&who, false)
                    .await
                    .map(|caller| render::state(&self.referee, caller, Instant::now()));
                let _ = reply.send(result);
            }
            Request::Join {
                seat,
                token_hash,
                reply,
            } => {
                let result = if self.follows() {
                    let command = Forwarded::Join { seat, token_hash };
                    self.forward(None, command).await
                } else {
                    self.run_command(Command::Join { seat, token_hash })
                        .await
                        .map(|_| ())
                };
                let _ = reply.send(result);
            }
            Request::Move {
                who,
                text,
                ply,
                thought,
                measured_lag,
                answer,
                reply,
            } => {
                let result = self
                    .play(&who, text, ply, (thought, measured_lag), answer)
                    .await;
                let _ = reply.send(result);
            }
            Request::Act {
                who,
                action,
                answer,
                reply,
            } => {
                let result = self.act(&who, action, answer).await;
                let _ = reply.send(result);
            }
            Request::Subscribe { who, since, reply } => {
                let _ = reply.send(self.subscribe(&who, since).await);
            }
            Request::Seen { seat } => self.seen(seat, true).await,
            Request::Position { who, ply, reply } => {
                let result = match self.reader(&who, false).await {
                    Ok(caller) => {
                        render::position(&self.referee, caller, ply).ok_or(LiveError::NoPosition {
                            ply,
                            plies: self.referee.table().ply(),
                        })
                    }
                    Err(e) => Err(e),
                };
                let _ = reply.send(result);
            }
            Request::Record {
                who,
                format,
                base,
                lang,
                reply,
            } => {
                let result = match self.reader(&who, false).await {
                    Ok(caller) => render::record(
                        &self.referee,
                        caller,
                        format.as_deref(),
                        base.as_deref(),
                        lang,
                    )
                    .map_err(LiveError::Record),
                    Err(e) => Err(e),
                };
                let _ = reply.send(result);
            }
            Request::Remote {
                seat,
                command,
                reply,
            } => {
                let result = if self.follows() {
                    Err(LiveError::Moved)
                } else {
                    self.remote(seat, command).await
                };
                let _ = reply.send(result);
            }
            Request::Refresh => {
                if self.follows() {
                    self.refresh().await;
                }
            }
            Request::LeaseTaken => {
                if self.follows() {
                    self.refresh().await;
                    if let Some((_, role)) = &mut self.nodes {
                        *role = Role::Runs;
                    }
                    self.sync_engine();
                }
            }
            Request::LeaseLost => {
                if self.referee.is_live()
                    && let Some((_, role)) = &mut self.nodes
                    && *role == Role::Runs
                {
                    *role = Role::Follows;
                    self.stop_thinking();
                    tracing::warn!(game = %self.referee.id(), "lease lost: another node may run the game");
                }
            }
        }
    }

    async fn play(
        &mut self,
        who: &Who,
        text: String,
        ply: Option<usize>,
        (thought, measured_lag): (Option<Duration>, Option<Duration>),
        answer: Answer,
    ) -> Result<Option<Value>, LiveError> {
        let caller = self.caller(who)?;
        let seat = Self::seat_of(caller)?;
        let refusal = if self.follows() {
            let millis = |d: Duration| d.as_millis() as u64;
            let command = Forwarded::Move {
                text,
                ply,
                think_ms: thought.map(millis),
                lag_ms: measured_lag.map(millis),
            };
            self.forward(Some(seat), command).await?;
            None
        } else {
            let command = Command::Move {
                seat,
                text,
                ply,
                thought,
                measured_lag,
            };
            self.run_command(command).await?
        };
        self.answer(caller, answer, refusal)
    }

    async fn act(
        &mut self,
        who: &Who,
        action: String,
        answer: Answer,
    ) -> Result<Option<Value>, LiveError> {
        if action == STOP
            && let Who::Token(token_hash) = who
            && self.referee.seat_of_token(token_hash).is_none()
        {
            return self.stop(token_hash.clone()).await;
        }
        let caller = self.caller(who)?;
        let seat = Self::seat_of(caller)?;
        let refusal = if self.follows() {
            self.forward(Some(seat), Forwarded::Action { action })
                .await?;
            None
        } else {
            let command = Command::Act {
                seat,
                action: Action::parse(&action),
                fresh: fresh()?,
            };
            self.run_command(command).await?
        };
        self.answer(caller, answer, refusal)
    }

    /// Stops a game of engines only for the holder of its owner's token.
    async fn stop(&mut self, token_hash: String) -> Result<Option<Value>, LiveError> {
        let refusal = if self.follows() {
            self.forward(None, Forwarded::Stop { token_hash }).await?;
            None
        } else {
            self.run_command(Command::Stop { token_hash }).await?
        };
        self.answer(Caller::Spectator, Answer::State, refusal)
    }

    /// Runs a write another node forwarded.
    async fn remote(&mut self, seat: Option<usize>, command: Forwarded) -> Result<(), LiveError> {
        let refusal = match (command, seat) {
            (Forwarded::Join { seat, token_hash }, _) => {
                self.run_command(Command::Join { seat, token_hash }).await?
            }
            (Forwarded::Stop { token_hash }, _) => {
                self.run_command(Command::Stop { token_hash }).await?
            }
            (_, None) => return Err(LiveError::Game(GameError::Spectator)),
            (Forwarded::Seen { socket }, Some(seat)) => {
                self.run_command(Command::Seen { seat, socket }).await?
            }
            (
                Forwarded::Move {
                    text,
                    ply,
                    think_ms,
                    lag_ms,
                },
                Some(seat),
            ) => {
                let command = Command::Move {
                    seat,
                    text,
                    ply,
                    thought: think_ms.map(Duration::from_millis),
                    measured_lag: lag_ms.map(Duration::from_millis),
                };
                self.run_command(command).await?
            }
            (Forwarded::Action { action }, Some(seat)) => {
                let command = Command::Act {
                    seat,
                    action: Action::parse(&action),
                    fresh: fresh()?,
                };
                self.run_command(command).await?
            }
        };
        match refusal {
            Some(refusal) => Err(LiveError::Game(refusal)),
            None => Ok(()),
        }
    }

    async fn subscribe(
        &mut self,
        who: &Who,
        since: Option<u64>,
    ) -> Result<Subscription, LiveError> {
        let caller = self.reader(who, true).await?;
        let updates = self.updates.subscribe();
        let class = render::class_of(&self.referee, caller);
        let mut backlog = Vec::new();
        if let Some(since) = since {
            if since > self.referee.version() {
                return Err(LiveError::AheadOf {
                    given: since,
                    version: self.referee.version(),
                });
            }
            let store = self.store.clone();
            let id = self.referee.id().to_string();
            let events = tokio::task::spawn_blocking(move || store.events_after(&id, since))
                .await
                .map_err(|_| LiveError::Stopped)??;
            backlog.extend(
                events
                    .iter()
                    .map(|e| render::event_frame(&self.referee, e, class)),
            );
        }
        backlog.push(render::state_frame(&self.referee, caller, Instant::now()));
        Ok(Subscription {
            caller,
            backlog,
            updates,
            watch: Watch::new(&self.watching, class),
        })
    }

    /// Sends a client's write to the node running the game, then catches up with what it
    /// stored (whatever the answer: the game may have changed meanwhile).
    async fn forward(&mut self, seat: Option<usize>, command: Forwarded) -> Result<(), LiveError> {
        let Some((nodes, _)) = self.nodes.clone() else {
            return Err(LiveError::Moved);
        };
        let result = nodes
            .forward(&self.store, self.referee.id(), seat, command)
            .await;
        self.refresh().await;
        result.map_err(LiveError::from)
    }

    /// Catches the replica up with the store, where another node wrote the game, and relays
    /// the events this node's viewers missed.
    async fn refresh(&mut self) {
        let store = self.store.clone();
        let id = self.referee.id().to_string();
        let since = self.referee.version();
        let loaded = tokio::task::spawn_blocking(move || {
            let row = store.load(&id)?;
            let events = store.events_after(&id, since)?;
            Ok::<_, StoreError>((row, events))
        })
        .await;
        let (row, events) = match loaded {
            Ok(Ok((Some(row), events))) => (row, events),
            Ok(Err(e)) => {
                tracing::warn!(game = %self.referee.id(), "not caught up: {e}");
                return;
            }
            _ => return,
        };
        if row.version <= self.referee.version() {
            return;
        }
        match self.referee.catch_up(&row, Instant::now()) {
            Ok(()) => self.broadcast(&events),
            Err(e) => tracing::warn!(game = %self.referee.id(), "not caught up: {e}"),
        }
    }

    fn stop_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Starts the engine where the referee's state has an engine to move (and stops one
    /// thinking about a turn that is gone).
    fn sync_engine(&mut self) {
        let want = if self.follows() {
            None
        } else {
            self.referee.engine_turn()
        };
        let same = |t: &Thinking, w: &EngineTurn| t.seat == w.seat && t.ply == w.ply;
        match (&self.thinking, &want) {
            (Some(t), Some(w)) if same(t, w) => return,
            (None, None) => return,
            _ => self.stop_thinking(),
        }
        let Some(turn) = want else {
            return;
        };
        if self.stuck == Some((turn.seat, turn.ply)) {
            return;
        }
        let mut limits = level_limits(turn.level);
        if let Some(left) = turn.time_left {
            // Never more than a twentieth of what is left.
            let cap = left / 20 + Duration::from_millis(10);
            limits.move_time = Some(limits.move_time.map_or(cap, |t| t.min(cap)));
        }
        let task = self.referee.search_task(&turn, limits, HASH_MB);
        self.thinking = Some(Thinking {
            seat: turn.seat,
            ply: turn.ply,
            stop: task.stop.clone(),
        });
        let results = self.engine_results.clone();
        let (seat, ply) = (turn.seat, turn.ply);
        let not_before = tokio::time::Instant::from_std(turn.not_before);
        self.engines.run(&self.lane, task, &limits, move |text| {
            // The move is shown no sooner than a person would show it.
            tokio::spawn(async move {
                tokio::time::sleep_until(not_before).await;
                let _ = results.send(Found { seat, ply, text }).await;
            });
        });
    }

    async fn engine_moved(&mut self, found: Found) {
        match &self.thinking {
            Some(t) if t.seat == found.seat && t.ply == found.ply => self.thinking = None,
            _ => return,
        }
        let Some(text) = found.text else {
            tracing::warn!(game = %self.referee.id(), "the engine found no move at ply {}", found.ply);
            return;
        };
        let command = Command::EngineMove {
            seat: found.seat,
            ply: found.ply,
            text: text.clone(),
        };
        if let Err(e) = self.run_command(command).await {
            if self.referee.table().ply() == found.ply {
                // Refused in the position it was found in: not tried again.
                tracing::warn!(game = %self.referee.id(), "engine move {text} refused: {e:?}");
                self.stuck = Some((found.seat, found.ply));
            }
            // Elsewhere the position moved on meanwhile (the other board in bughouse).
            self.sync_engine();
        }
    }
}
