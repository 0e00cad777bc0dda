//! A live game: one task owns it, serializes its moves and actions, writes each change to the
//! store before anyone hears of it, runs its clocks and its engine seats, and renders what
//! each viewer may see.

use crate::clock::{ClockSpec, GameClock, StoredTimes};
use crate::cluster::{Forwarded, Nodes};
use crate::engines::{EnginePool, level_limits};
use crate::error::ApiError;
use crate::store::{Change, EventRow, GameRow, SeatRow, Store, StoredMove};
use crate::wire::{
    ActionOffer, Boards, Clocks, LegalMoves, MoveNotation, MoveTexts, OffersView, SeatClock,
    SeatView, Shape, StateView, check_cells, state_message,
};
use axum::extract::ws::Utf8Bytes;
use chaturanga_rules::Reason;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::Viewer;
use chaturanga_session::{Finished, SessionError, Table, open_table};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::Instant;

/// How long a finished game's task stays in memory without requests.
const IDLE_FINISHED: Duration = Duration::from_secs(60);
/// Updates a slow viewer may fall behind before it catches up from the store.
const BROADCAST_DEPTH: usize = 16;

/// Who sends a request: a seat (proved by its token) or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// The seat with this index.
    Seat(usize),
    /// Anyone else.
    Spectator,
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

/// What a new viewer gets: the messages it missed and the current state, then a receiver
/// of further updates and its place among the game's watchers (held while it watches).
pub type Subscription = (Vec<String>, broadcast::Receiver<Arc<Update>>, Watch);

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

/// A request to a game's task.
pub enum Command {
    /// The state as `caller` may see it.
    State {
        /// Who asks.
        caller: Caller,
        /// The answer.
        reply: oneshot::Sender<Value>,
    },
    /// Which seat a token hash belongs to.
    Identify {
        /// SHA-256 of the token, hex.
        token_hash: String,
        /// The seat, if any.
        reply: oneshot::Sender<Option<usize>>,
    },
    /// Claims an open human seat.
    Join {
        /// The seat.
        seat: usize,
        /// The new token's hash.
        token_hash: String,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// Plays a move.
    Move {
        /// Who moves.
        caller: Caller,
        /// The move text.
        text: String,
        /// The ply it is meant for.
        ply: Option<usize>,
        /// How long the client says its player thought (for lag compensation).
        thought: Option<Duration>,
        /// The new state, once stored.
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// Takes an action (resign, draw, takeback, abort, the ruleset's own).
    Action {
        /// Who acts.
        caller: Caller,
        /// The action.
        action: String,
        /// The new state, once stored.
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// Subscribes to updates: the messages missed since `since` (from the store), the
    /// current state and a receiver of further updates.
    Subscribe {
        /// Who watches.
        caller: Caller,
        /// The last version the viewer has.
        since: Option<u64>,
        /// Backlog, then the live updates.
        reply: oneshot::Sender<Result<Subscription, ApiError>>,
    },
    /// The position after `ply` moves as `caller` may see it (stepping through a game).
    Position {
        /// Who asks.
        caller: Caller,
        /// Moves played before the position.
        ply: usize,
        /// The boards, the cells in check and the move that led there.
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// A write forwarded from another node's client (this node runs the game).
    Remote {
        /// Who writes.
        caller: Caller,
        /// The write.
        command: Forwarded,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// The stored game changed (another node wrote it): catch up and relay the new events.
    Refresh,
    /// This node took over the game's lease: run it from what is stored.
    LeaseTaken,
    /// This node's lease lapsed (another node may run the game): follow it.
    LeaseLost,
    /// The game's record.
    Record {
        /// Who asks.
        caller: Caller,
        /// The format asked for, or the ruleset's default.
        format: Option<String>,
        /// The record and its file extension.
        reply: oneshot::Sender<Result<(String, &'static str), ApiError>>,
    },
}

/// A handle to a game's task.
#[derive(Clone)]
pub struct GameHandle {
    sender: mpsc::Sender<Command>,
}

impl GameHandle {
    /// Sends a command and waits for the answer.
    pub async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, ApiError> {
        let (tx, rx) = oneshot::channel();
        self.sender
            .send(make(tx))
            .await
            .map_err(|_| ApiError::internal("the game's task has stopped; try again"))?;
        rx.await
            .map_err(|_| ApiError::internal("the game's task stopped before answering"))
    }

    /// Sends a command that needs no answer, unless the task's queue is full.
    pub fn try_send(&self, command: Command) -> Result<(), ApiError> {
        self.sender
            .try_send(command)
            .map_err(|_| ApiError::internal("the game's task is busy or gone"))
    }

    /// Whether the task is gone.
    pub fn is_closed(&self) -> bool {
        self.sender.is_closed()
    }
}

/// Whether this node runs a live game or follows the node that does (see [`crate::cluster`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// This node runs the clocks and engines and writes the moves.
    Runs,
    /// Another node does; this one keeps a replica and forwards its clients' writes.
    Follows,
}

/// What kind of seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A person.
    Human,
    /// The engine at a level (1-8).
    Engine(u8),
}

#[derive(Clone, Debug)]
struct Seat {
    kind: SeatKind,
    token_hash: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Live,
    Finished,
    Aborted,
}

/// Offers waiting for an answer (stored with every change).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct Offers {
    /// Seats that offered or accepted a draw.
    draw: BTreeSet<usize>,
    /// The seat that asked for a takeback.
    takeback: Option<usize>,
    /// A ruleset action waiting for a seat's consent: (who asked, action, who must consent).
    action: Option<(usize, String, usize)>,
}

struct EngineThinking {
    /// The ply the search started at (its result names it).
    ply: usize,
    /// The engine seat it thinks for.
    seat: usize,
    stop: Arc<AtomicBool>,
}

/// The game's task state.
struct LiveGame {
    id: String,
    store: Store,
    engines: EnginePool,
    table: Box<dyn Table>,
    seats: Vec<Seat>,
    options: Vec<String>,
    /// Options whose values stay hidden until the game ends (a Chex draw seed).
    secret_options: Vec<String>,
    phase: Phase,
    version: u64,
    clock: Option<(ClockSpec, GameClock)>,
    offers: Offers,
    updates: broadcast::Sender<Arc<Update>>,
    /// How many viewers of each class (seat 0..n, then spectators) watch.
    watching: Arc<[AtomicUsize]>,
    thinking: Option<EngineThinking>,
    engine_results: mpsc::Sender<(usize, Option<String>)>,
    /// The other nodes, with this node's role in the game (none with a store of one node).
    nodes: Option<(Arc<Nodes>, Role)>,
    /// Where this node follows the game: the stored moves its table has played, so that a
    /// change that only adds moves is replayed from there, not from the start.
    replayed: Option<Vec<StoredMove>>,
}

/// A new game's description, checked.
pub struct NewGame {
    /// The ruleset.
    pub variant: String,
    /// Rule options.
    pub options: Vec<String>,
    /// Options to keep hidden until the game ends.
    pub secret_options: Vec<String>,
    /// Start FEN.
    pub fen: Option<String>,
    /// Clock.
    pub clock: Option<ClockSpec>,
    /// Seats.
    pub seats: Vec<SeatKind>,
    /// The seat claimed by the creator, with its token hash.
    pub me: Option<(usize, String)>,
    /// Shown in the lobby (an open seek); `false` for a game shared by link only.
    pub listed: bool,
}

/// Creates and stores a game; returns its row (its task is started when first used).
pub fn create(store: &Store, id: String, game: NewGame) -> Result<GameRow, ApiError> {
    let all_options: Vec<String> = game
        .options
        .iter()
        .chain(&game.secret_options)
        .cloned()
        .collect();
    let table = open_table(&game.variant, &all_options, game.fen.as_deref())?;
    if game.seats.len() != table.players() {
        return Err(ApiError::bad_request(format!(
            "{} needs {} seats, not {}",
            game.variant,
            table.players(),
            game.seats.len()
        )));
    }
    if let Some((me, _)) = &game.me
        && game.seats.get(*me) != Some(&SeatKind::Human)
    {
        return Err(ApiError::bad_request(format!(
            "seat {me} is not a human seat of this game"
        )));
    }
    let clock_state = match &game.clock {
        Some(spec) => {
            let control = spec.control().map_err(ApiError::bad_request)?;
            Some(
                serde_json::to_string(&GameClock::new(control, table.players()).stored())
                    .unwrap_or_default(),
            )
        }
        None => None,
    };
    let seats = game
        .seats
        .iter()
        .enumerate()
        .map(|(n, kind)| SeatRow {
            kind: match kind {
                SeatKind::Human => "human".into(),
                SeatKind::Engine(_) => "engine".into(),
            },
            level: match kind {
                SeatKind::Engine(level) => Some(*level),
                SeatKind::Human => None,
            },
            token_hash: game
                .me
                .as_ref()
                .filter(|(me, _)| *me == n)
                .map(|(_, hash)| hash.clone()),
        })
        .collect();
    let row = GameRow {
        id: id.clone(),
        variant: game.variant.clone(),
        options: all_options,
        fen: game.fen.clone(),
        clock: game
            .clock
            .as_ref()
            .map(|c| serde_json::to_string(c).unwrap_or_default()),
        status: "live".into(),
        result: None,
        quarters: None,
        reason: None,
        version: 1,
        clock_state,
        offers: None,
        created_ms: crate::store::now_ms(),
        listed: game.listed,
        seats,
        moves: Vec::new(),
    };
    let created = EventRow {
        v: 1,
        t: "created".into(),
        data: json!({ "variant": game.variant, "secret": game.secret_options.len() }).to_string(),
        only_seat: None,
    };
    store.create(&row, &[created])?;
    Ok(row)
}

/// The stored options split into those shown during the game and the secret ones (whose
/// names are `secret_names`: the options the server drew at random).
fn split_options(all: &[String], secret_names: &[&str]) -> (Vec<String>, Vec<String>) {
    all.iter().cloned().partition(|o| {
        let name = o.split('=').next().unwrap_or("");
        !secret_names.contains(&name)
    })
}

/// A stored game as it is in memory.
struct Replica {
    table: Box<dyn Table>,
    seats: Vec<Seat>,
    options: Vec<String>,
    secret_options: Vec<String>,
    phase: Phase,
    version: u64,
    clock: Option<(ClockSpec, GameClock)>,
    offers: Offers,
}

/// Rebuilds a stored game: its table from the moves, its result, seats and clocks.
fn replica(row: &GameRow, secret_names: &[&str]) -> Result<Replica, ApiError> {
    let table = open_table(&row.variant, &row.options, row.fen.as_deref())?;
    replica_from(row, secret_names, table, 0)
}

/// Plays a stored move on `table` for the seat that played it.
fn replay(table: &mut dyn Table, stored: &StoredMove) -> Result<String, SessionError> {
    match stored.mover {
        Some(mover) if mover < table.players() => table.play_for(mover, &stored.text),
        _ => table.play(&stored.text),
    }
}

/// Rebuilds a stored game on `table`, where its first `played` moves are already played.
fn replica_from(
    row: &GameRow,
    secret_names: &[&str],
    mut table: Box<dyn Table>,
    played: usize,
) -> Result<Replica, ApiError> {
    for (ply, stored) in row.moves.iter().enumerate().skip(played) {
        replay(table.as_mut(), stored).map_err(|e| {
            ApiError::internal(format!(
                "stored move {} ({}) does not replay: {e}",
                ply + 1,
                stored.text
            ))
        })?;
    }
    let phase = match row.status.as_str() {
        "finished" => Phase::Finished,
        "aborted" => Phase::Aborted,
        _ => Phase::Live,
    };
    if phase == Phase::Finished && table.finished().is_none() {
        // Ended from outside the rules (resignation, agreement, time): restore the result.
        let quarters: Vec<u8> = row
            .quarters
            .as_deref()
            .unwrap_or("")
            .split(',')
            .filter_map(|q| q.parse().ok())
            .collect();
        let reason = row
            .reason
            .as_deref()
            .and_then(Reason::from_name)
            .unwrap_or(Reason::Agreement);
        table.restore_result(&quarters, reason);
    }
    let clock = match &row.clock {
        Some(text) => {
            let spec: ClockSpec = serde_json::from_str(text)
                .map_err(|e| ApiError::internal(format!("stored clock: {e}")))?;
            let control = spec.control().map_err(ApiError::internal)?;
            let stored: Option<StoredTimes> = row
                .clock_state
                .as_deref()
                .and_then(|s| serde_json::from_str(s).ok());
            let clock = match stored {
                Some(times) if times.main_ms.len() == table.players() => {
                    GameClock::restore(control, &times)
                }
                _ => GameClock::new(control, table.players()),
            };
            Some((spec, clock))
        }
        None => None,
    };
    let seats = row
        .seats
        .iter()
        .map(|s| Seat {
            kind: match (s.kind.as_str(), s.level) {
                ("engine", Some(level)) => SeatKind::Engine(level),
                _ => SeatKind::Human,
            },
            token_hash: s.token_hash.clone(),
        })
        .collect();
    let (options, secret_options) = split_options(&row.options, secret_names);
    Ok(Replica {
        table,
        seats,
        options,
        secret_options,
        phase,
        version: row.version,
        clock,
        offers: row
            .offers
            .as_deref()
            .and_then(|o| serde_json::from_str(o).ok())
            .unwrap_or_default(),
    })
}

/// Loads a stored game and starts its task; `nodes` are the other nodes with this node's
/// role in the game, where the store has several.
pub fn start(
    row: GameRow,
    store: Store,
    engines: EnginePool,
    secret_names: &[&str],
    nodes: Option<(Arc<Nodes>, Role)>,
) -> Result<GameHandle, ApiError> {
    let replica = replica(&row, secret_names)?;
    let replayed = matches!(nodes, Some((_, Role::Follows))).then(|| row.moves.clone());
    let (sender, receiver) = mpsc::channel(64);
    let (engine_results, engine_receiver) = mpsc::channel(4);
    let (updates, _) = broadcast::channel(BROADCAST_DEPTH);
    let mut game = LiveGame {
        id: row.id,
        store,
        engines,
        table: replica.table,
        seats: replica.seats,
        options: replica.options,
        secret_options: replica.secret_options,
        phase: replica.phase,
        version: replica.version,
        clock: replica.clock,
        offers: replica.offers,
        updates,
        watching: (0..=row.seats.len()).map(|_| AtomicUsize::new(0)).collect(),
        thinking: None,
        engine_results,
        nodes,
        replayed,
    };
    game.resume_clock();
    tokio::spawn(game.run(receiver, engine_receiver));
    Ok(GameHandle { sender })
}

fn finished_json(f: &Finished) -> (String, String, String) {
    (
        f.result.clone(),
        f.quarters
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(","),
        f.reason.as_str().to_string(),
    )
}

impl LiveGame {
    async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        mut engine_moves: mpsc::Receiver<(usize, Option<String>)>,
    ) {
        self.maybe_think();
        loop {
            // Another node runs a followed game's clocks.
            let deadline = if self.follows() {
                None
            } else {
                self.clock_deadline()
            };
            let idle = (self.phase != Phase::Live || self.follows())
                .then(|| Instant::now() + IDLE_FINISHED);
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                Some((ply, text)) = engine_moves.recv() => self.engine_moved(ply, text).await,
                _ = sleep_until_opt(deadline), if deadline.is_some() => self.flag_fall().await,
                _ = sleep_until_opt(idle), if idle.is_some() && self.updates.receiver_count() == 0 => break,
            }
        }
        self.stop_thinking();
    }

    /// Whether another node runs this live game (this one keeps a replica).
    fn follows(&self) -> bool {
        self.phase == Phase::Live && matches!(self.nodes, Some((_, Role::Follows)))
    }

    /// Sends a client's write to the node running the game, then catches up with what it
    /// stored (whatever the answer: the game may have changed meanwhile).
    async fn forward(&mut self, caller: Caller, command: Forwarded) -> Result<(), ApiError> {
        let Some((nodes, _)) = self.nodes.clone() else {
            return Err(ApiError::internal("no other node runs this game"));
        };
        let result = nodes.forward(&self.store, &self.id, caller, command).await;
        self.refresh().await;
        result
    }

    /// Catches the replica up with the store, where another node wrote the game, and relays
    /// the events this node's viewers missed.
    async fn refresh(&mut self) {
        let store = self.store.clone();
        let id = self.id.clone();
        let since = self.version;
        let loaded = tokio::task::spawn_blocking(move || {
            let row = store.load(&id)?;
            let events = store.events_after(&id, since)?;
            Ok::<_, crate::store::StoreError>((row, events))
        })
        .await;
        let (row, events) = match loaded {
            Ok(Ok((Some(row), events))) => (row, events),
            Ok(Err(e)) => {
                tracing::warn!(game = %self.id, "not caught up: {e}");
                return;
            }
            _ => return,
        };
        if row.version <= self.version {
            return;
        }
        let secret = crate::api::secret_option_names(&row.variant);
        // Moves added after those the table has played are replayed on it; anything else
        // (a takeback) rebuilds it from the start.
        let played = self
            .replayed
            .take()
            .filter(|old| row.moves.starts_with(old))
            .map(|old| old.len());
        let rebuilt = match (
            played,
            open_table(&row.variant, &row.options, row.fen.as_deref()),
        ) {
            (Some(played), Ok(fresh)) => {
                let table = std::mem::replace(&mut self.table, fresh);
                replica_from(&row, &secret, table, played).or_else(|_| replica(&row, &secret))
            }
            _ => replica(&row, &secret),
        };
        match rebuilt {
            Ok(replica) => {
                self.replayed = Some(row.moves.clone());
                self.table = replica.table;
                self.seats = replica.seats;
                self.options = replica.options;
                self.secret_options = replica.secret_options;
                self.phase = replica.phase;
                self.version = replica.version;
                self.clock = replica.clock;
                self.offers = replica.offers;
                self.resume_clock();
                self.broadcast(&events);
            }
            Err(e) => tracing::warn!(game = %self.id, "not caught up: {e}"),
        }
    }

    fn started(&self) -> bool {
        self.seats
            .iter()
            .all(|s| s.kind != SeatKind::Human || s.token_hash.is_some())
    }

    /// Runs the clocks of the seats to move (none while the game waits or is over).
    fn resume_clock(&mut self) {
        let movers = self.to_move();
        if let Some((_, clock)) = &mut self.clock {
            clock.run(&movers, Instant::now());
        }
    }

    fn clock_deadline(&self) -> Option<Instant> {
        if self.phase != Phase::Live {
            return None;
        }
        self.clock.as_ref().and_then(|(_, c)| c.deadline())
    }

    fn viewer(&self, caller: Caller) -> Viewer {
        if self.phase != Phase::Live {
            return Viewer::Arbiter;
        }
        match caller {
            Caller::Seat(s) => Viewer::Player(s),
            Caller::Spectator => Viewer::Spectator,
        }
    }

    fn to_move(&self) -> Vec<usize> {
        if self.phase == Phase::Live && self.started() {
            self.table.movers()
        } else {
            Vec::new()
        }
    }

    /// The state as `caller` may see it, as a JSON value (HTTP answers).
    fn state(&self, caller: Caller) -> Value {
        self.with_state(caller, |state| {
            serde_json::to_value(state).unwrap_or(Value::Null)
        })
    }

    /// Builds the state as `caller` may see it and hands it to `f` (it borrows the scene,
    /// the moves and the legal moves computed here).
    fn with_state<R>(&self, caller: Caller, f: impl FnOnce(&StateView<'_>) -> R) -> R {
        let viewer = self.viewer(caller);
        let scene = self.table.scene(viewer);
        let finished = self.table.finished();
        let to_move = self.to_move();
        let seen = self.table.moves_seen(viewer);
        let last_move = self.table.last_move(viewer);
        let mut options: Vec<&str> = self.options.iter().map(String::as_str).collect();
        if self.phase != Phase::Live {
            options.extend(self.secret_options.iter().map(String::as_str));
        }
        let (status, result, reason, scores) = match (&finished, self.phase) {
            (_, Phase::Aborted) => ("aborted", Some("*"), Some("aborted"), None),
            (Some(f), _) => (
                "finished",
                Some(f.result.as_str()),
                Some(f.reason.as_str()),
                Some(f.quarters.as_slice()),
            ),
            (None, _) => ("ongoing", None, None, None),
        };
        let me = match caller {
            Caller::Seat(me) => Some(me),
            Caller::Spectator => None,
        };
        let moving = me.is_some_and(|me| to_move.contains(&me));
        let legal = match me {
            Some(me) if moving => self.table.legal_for(me),
            _ => Vec::new(),
        };
        let actions = moving.then(|| {
            let mut actions = self.table.actions();
            if self.table.can_claim_draw() {
                actions.push("draw-claim");
            }
            actions
        });
        let now = Instant::now();
        let players = self.table.players();
        let state = StateView {
            id: &self.id,
            variant: self.table.variant().id,
            options,
            version: self.version,
            status,
            result,
            reason,
            scores,
            started: self.started(),
            ply: self.table.ply(),
            players,
            player_names: (0..players).map(|p| self.table.player_name(p)).collect(),
            teams: (0..players).map(|p| self.table.team(p)).collect(),
            side_to_move: self.table.side_to_move(),
            to_move: &to_move,
            fen: scene.complete.then(|| self.table.fen()),
            boards: Boards(&scene.boards),
            note: scene.note.as_deref(),
            check: check_cells(&scene.boards),
            last_move: last_move.as_ref().map(Shape),
            moves: MoveTexts(&seen),
            notation: MoveNotation(&seen),
            clocks: self.clock.as_ref().map(|(spec, clock)| Clocks {
                control: spec,
                seats: clock
                    .show(now)
                    .into_iter()
                    .map(|(ms, periods, running)| SeatClock {
                        ms,
                        periods,
                        running,
                    })
                    .collect(),
            }),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(n, s)| match s.kind {
                    SeatKind::Human => SeatView {
                        seat: n,
                        kind: "human",
                        level: None,
                        joined: s.token_hash.is_some(),
                    },
                    SeatKind::Engine(level) => SeatView {
                        seat: n,
                        kind: "engine",
                        level: Some(level),
                        joined: true,
                    },
                })
                .collect(),
            offers: OffersView {
                draw: self.offers.draw.iter().copied().collect(),
                takeback: self.offers.takeback,
                action: self
                    .offers
                    .action
                    .as_ref()
                    .map(|(by, action, consent)| ActionOffer {
                        by: *by,
                        action,
                        consent: *consent,
                    }),
            },
            you: me,
            legal: moving.then_some(LegalMoves(&legal)),
            actions,
        };
        f(&state)
    }

    /// The message for event `e` as viewer class `k` sees it.
    fn event_frame(&self, e: &EventRow, k: usize) -> String {
        let hidden = self.phase == Phase::Live && e.only_seat.is_some_and(|s| s != k);
        if hidden {
            return json!({ "v": e.v }).to_string();
        }
        // The stored data is JSON already: it goes out as it was written.
        let data = if e.data.is_empty() { "null" } else { &e.data };
        format!(
            r#"{{"t":{},"v":{},"d":{data}}}"#,
            serde_json::to_string(&e.t).unwrap_or_default(),
            e.v
        )
    }

    fn caller_of(&self, k: usize) -> Caller {
        if k < self.seats.len() {
            Caller::Seat(k)
        } else {
            Caller::Spectator
        }
    }

    fn state_frame(&self, caller: Caller) -> String {
        self.with_state(caller, |state| state_message(self.version, state))
    }

    /// Sends the events just stored, then each viewer's new state, to the viewer classes
    /// someone watches.
    fn broadcast(&self, events: &[EventRow]) {
        if self.updates.receiver_count() == 0 {
            return;
        }
        let frames = (0..=self.seats.len())
            .map(|k| {
                if self.watching[k].load(Ordering::Relaxed) == 0 {
                    return Vec::new();
                }
                let mut messages: Vec<Utf8Bytes> = events
                    .iter()
                    .map(|e| self.event_frame(e, k).into())
                    .collect();
                messages.push(self.state_frame(self.caller_of(k)).into());
                messages
            })
            .collect();
        let _ = self.updates.send(Arc::new(Update {
            version: self.version,
            frames,
        }));
    }

    /// Stores a change with its events (versions assigned here); on success the game's
    /// version moves on and the events are broadcast.
    async fn commit(
        &mut self,
        mut change: Change,
        events: Vec<(String, Value, Option<usize>)>,
    ) -> Result<(), ApiError> {
        change.events = events
            .into_iter()
            .enumerate()
            .map(|(i, (t, data, only_seat))| EventRow {
                v: self.version + 1 + i as u64,
                t,
                data: data.to_string(),
                only_seat,
            })
            .collect();
        if change.clock_state.is_none()
            && let Some((_, clock)) = &self.clock
        {
            change.clock_state = Some(serde_json::to_string(&clock.stored()).unwrap_or_default());
        }
        change.offers = Some(serde_json::to_string(&self.offers).unwrap_or_default());
        let ends = change.status.as_deref().is_some_and(|s| s != "live");
        let store = self.store.clone();
        let id = self.id.clone();
        let version = self.version;
        let events = change.events.clone();
        tokio::task::spawn_blocking(move || store.commit(&id, version, &change))
            .await
            .map_err(|e| ApiError::internal(format!("store task: {e}")))??;
        self.version += events.len() as u64;
        self.broadcast(&events);
        if ends && self.nodes.is_some() {
            // An ended game needs no node to run it.
            let store = self.store.clone();
            let id = self.id.clone();
            tokio::task::spawn_blocking(move || {
                if let Some(cluster) = store.cluster() {
                    let _ = cluster.release(&id);
                }
            });
        }
        Ok(())
    }

    async fn handle(&mut self, command: Command) {
        if self.follows() {
            match command {
                Command::Move {
                    caller,
                    text,
                    ply,
                    thought,
                    reply,
                } => {
                    let think_ms = thought.map(|d| d.as_millis() as u64);
                    let result = self
                        .forward(
                            caller,
                            Forwarded::Move {
                                text,
                                ply,
                                think_ms,
                            },
                        )
                        .await;
                    let _ = reply.send(result.map(|()| self.state(caller)));
                    return;
                }
                Command::Action {
                    caller,
                    action,
                    reply,
                } => {
                    let result = self.forward(caller, Forwarded::Action { action }).await;
                    let _ = reply.send(result.map(|()| self.state(caller)));
                    return;
                }
                Command::Join {
                    seat,
                    token_hash,
                    reply,
                } => {
                    let command = Forwarded::Join { seat, token_hash };
                    let _ = reply.send(self.forward(Caller::Spectator, command).await);
                    return;
                }
                other => return self.handle_here(other).await,
            }
        }
        self.handle_here(command).await;
    }

    /// Handles a command on this node (which runs the game, or may answer it from its
    /// replica).
    async fn handle_here(&mut self, command: Command) {
        match command {
            Command::Remote {
                caller,
                command,
                reply,
            } => {
                let result = if self.follows() {
                    Err(ApiError::new(
                        axum::http::StatusCode::SERVICE_UNAVAILABLE,
                        "this node no longer runs the game; try again",
                    ))
                } else {
                    match command {
                        Forwarded::Move {
                            text,
                            ply,
                            think_ms,
                        } => {
                            let thought = think_ms.map(Duration::from_millis);
                            self.human_move(caller, &text, ply, thought).await
                        }
                        Forwarded::Action { action } => self.action(caller, &action).await,
                        Forwarded::Join { seat, token_hash } => self.join(seat, token_hash).await,
                    }
                };
                let _ = reply.send(result);
            }
            Command::Refresh => {
                if self.follows() {
                    self.refresh().await;
                }
            }
            Command::LeaseTaken => {
                if self.follows() {
                    self.refresh().await;
                    if let Some((_, role)) = &mut self.nodes {
                        *role = Role::Runs;
                    }
                    // The table now changes with the moves played here.
                    self.replayed = None;
                    self.resume_clock();
                    self.maybe_think();
                }
            }
            Command::LeaseLost => {
                if self.phase == Phase::Live
                    && let Some((_, role)) = &mut self.nodes
                    && *role == Role::Runs
                {
                    *role = Role::Follows;
                    self.stop_thinking();
                    tracing::warn!(game = %self.id, "lease lost: another node may run the game");
                }
            }
            Command::State { caller, reply } => {
                let _ = reply.send(self.state(caller));
            }
            Command::Identify { token_hash, reply } => {
                let seat = self
                    .seats
                    .iter()
                    .position(|s| s.token_hash.as_deref() == Some(token_hash.as_str()));
                let _ = reply.send(seat);
            }
            Command::Join {
                seat,
                token_hash,
                reply,
            } => {
                let _ = reply.send(self.join(seat, token_hash).await);
            }
            Command::Move {
                caller,
                text,
                ply,
                thought,
                reply,
            } => {
                let result = self.human_move(caller, &text, ply, thought).await;
                let _ = reply.send(result.map(|()| self.state(caller)));
            }
            Command::Action {
                caller,
                action,
                reply,
            } => {
                let result = self.action(caller, &action).await;
                let _ = reply.send(result.map(|()| self.state(caller)));
            }
            Command::Subscribe {
                caller,
                since,
                reply,
            } => {
                let _ = reply.send(self.subscribe(caller, since).await);
            }
            Command::Record {
                caller,
                format,
                reply,
            } => {
                let _ = reply.send(self.record(caller, format.as_deref()));
            }
            Command::Position { caller, ply, reply } => {
                let _ = reply.send(self.position(caller, ply));
            }
        }
    }

    fn position(&self, caller: Caller, ply: usize) -> Result<Value, ApiError> {
        let (scene, last) = self
            .table
            .scene_at(ply, self.viewer(caller))
            .ok_or_else(|| {
                ApiError::not_found(format!(
                    "no position after {ply} moves: the game has {}",
                    self.table.ply()
                ))
            })?;
        let mut value = json!({
            "ply": ply,
            "boards": Boards(&scene.boards),
            "check": check_cells(&scene.boards),
            "last_move": last.as_ref().map(Shape),
        });
        if let Some(note) = &scene.note {
            value["note"] = json!(note);
        }
        Ok(value)
    }

    async fn subscribe(
        &mut self,
        caller: Caller,
        since: Option<u64>,
    ) -> Result<Subscription, ApiError> {
        let receiver = self.updates.subscribe();
        let mut backlog = Vec::new();
        if let Some(since) = since {
            if since > self.version {
                return Err(ApiError::bad_request(format!(
                    "version {since} is ahead of the game's {}",
                    self.version
                )));
            }
            let store = self.store.clone();
            let id = self.id.clone();
            let events = tokio::task::spawn_blocking(move || store.events_after(&id, since))
                .await
                .map_err(|e| ApiError::internal(format!("store task: {e}")))??;
            let k = match caller {
                Caller::Seat(s) => s,
                Caller::Spectator => self.seats.len(),
            };
            backlog.extend(events.iter().map(|e| self.event_frame(e, k)));
        }
        backlog.push(self.state_frame(caller));
        let class = match caller {
            Caller::Seat(s) => s,
            Caller::Spectator => self.seats.len(),
        };
        Ok((backlog, receiver, Watch::new(&self.watching, class)))
    }

    fn record(
        &self,
        caller: Caller,
        format: Option<&str>,
    ) -> Result<(String, &'static str), ApiError> {
        if !self.table.scene(self.viewer(caller)).complete {
            return Err(ApiError::forbidden(
                "the record of a game with hidden men is shown when the game is over",
            ));
        }
        let formats = self.table.record_formats();
        let format = match format {
            None => formats[0],
            Some(name) => chaturanga_session::RecordFormat::parse(name).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "unknown record format {:?} (pgn, kif, csa or bpgn)",
                    name.chars().take(20).collect::<String>()
                ))
            })?,
        };
        let tags = [("Site".to_string(), format!("chaturanga game {}", self.id))];
        // Every seat is named; the record puts each name under its format's tag for the seat
        // (a shogi record's `Black` is the first mover, BPGN's `WhiteB` the second).
        let players: Vec<String> = self
            .seats
            .iter()
            .enumerate()
            .map(|(n, seat)| match seat.kind {
                SeatKind::Human => format!("seat {n}"),
                SeatKind::Engine(level) => format!("Chaturanga level {level}"),
            })
            .collect();
        let text = self.table.record(format, &tags, &players)?;
        Ok((text, format.extension()))
    }

    async fn join(&mut self, seat: usize, token_hash: String) -> Result<(), ApiError> {
        match self.seats.get(seat) {
            None => return Err(ApiError::not_found(format!("the game has no seat {seat}"))),
            Some(s) if s.kind != SeatKind::Human => {
                return Err(ApiError::conflict(format!("seat {seat} is the engine's")));
            }
            Some(s) if s.token_hash.is_some() => {
                return Err(ApiError::conflict(format!("seat {seat} is taken")));
            }
            Some(_) => {}
        }
        if self.phase != Phase::Live {
            return Err(ApiError::conflict("the game is over"));
        }
        let change = Change {
            seat: Some((seat, token_hash.clone())),
            ..Change::default()
        };
        // The seat is claimed in memory only once stored.
        let mut seats = self.seats.clone();
        seats[seat].token_hash = Some(token_hash);
        let before = std::mem::replace(&mut self.seats, seats);
        let was_started = before
            .iter()
            .all(|s| s.kind != SeatKind::Human || s.token_hash.is_some());
        if self.started() && !was_started {
            self.resume_clock();
        }
        if let Err(e) = self
            .commit(change, vec![("join".into(), json!({ "seat": seat }), None)])
            .await
        {
            self.seats = before;
            self.resume_clock();
            return Err(e);
        }
        self.maybe_think();
        Ok(())
    }

    fn seat_of(&self, caller: Caller) -> Result<usize, ApiError> {
        match caller {
            Caller::Seat(s) => Ok(s),
            Caller::Spectator => Err(ApiError::unauthorized(
                "this needs a seat's token (Authorization: Bearer TOKEN)",
            )),
        }
    }

    fn check_live(&self) -> Result<(), ApiError> {
        if self.phase != Phase::Live || self.table.finished().is_some() {
            return Err(ApiError::conflict("the game is over"));
        }
        Ok(())
    }

    async fn human_move(
        &mut self,
        caller: Caller,
        text: &str,
        ply: Option<usize>,
        thought: Option<Duration>,
    ) -> Result<(), ApiError> {
        let seat = self.seat_of(caller)?;
        if self.seats[seat].kind != SeatKind::Human {
            return Err(ApiError::forbidden("an engine seat moves by itself"));
        }
        self.play(seat, text, ply, thought).await
    }

    /// Plays `text` for `seat` and stores it; refuses (changing nothing) a move out of turn,
    /// for another ply, after the flag fell, or against the rules. `thought` is how long the
    /// client says its player thought: the rest of the turn's time is lag (see
    /// [`GameClock`]).
    async fn play(
        &mut self,
        seat: usize,
        text: &str,
        ply: Option<usize>,
        thought: Option<Duration>,
    ) -> Result<(), ApiError> {
        self.check_live()?;
        if !self.started() {
            let open: Vec<usize> = (0..self.seats.len())
                .filter(|&n| {
                    self.seats[n].kind == SeatKind::Human && self.seats[n].token_hash.is_none()
                })
                .collect();
            return Err(ApiError::conflict(format!(
                "the game waits for seat(s) {open:?} to be claimed"
            )));
        }
        if let Some(ply) = ply
            && self.stale(seat, ply)
        {
            return Err(ApiError::conflict(format!(
                "the move is for ply {ply}, but the game is at ply {}",
                self.table.ply()
            )));
        }
        let movers = self.to_move();
        if !movers.contains(&seat) {
            let names: Vec<String> = movers
                .iter()
                .map(|&m| format!("seat {m} ({})", self.table.player_name(m)))
                .collect();
            return Err(ApiError::conflict(format!(
                "not your turn: {} to move",
                names.join(" and ")
            )));
        }
        let mover = seat;
        let now = Instant::now();
        if let Some((_, clock)) = &self.clock
            && !clock.fallen(now).is_empty()
        {
            self.flag_fall().await;
            return Err(ApiError::conflict(
                "your time ran out before the move arrived",
            ));
        }
        let at_ply = self.table.ply();
        let canonical = self.table.play_for(seat, text)?;
        let next = self.to_move();
        let saved_clock = self.clock.clone();
        let flag_fell = match &mut self.clock {
            Some((_, clock)) => {
                // The parts of a compound turn share the turn's time: the clock stops only
                // when the mover's turn is over.
                let over = !next.contains(&mover) && clock.complete(mover, now, thought).is_err();
                clock.run(&next, now);
                over
            }
            None => false,
        };
        if flag_fell {
            self.undo_to(at_ply);
            self.clock = saved_clock;
            // Its time ran out even with its lag forgiven, though the grace may still be on.
            self.flags_fell(vec![mover]).await;
            return Err(ApiError::conflict(
                "your time ran out before the move arrived",
            ));
        }
        let finished = self.table.finished();
        let hidden = (0..=self.seats.len()).any(|k| {
            k != mover && {
                let viewer = if k < self.seats.len() {
                    Viewer::Player(k)
                } else {
                    Viewer::Spectator
                };
                self.table
                    .last_move_seen(viewer)
                    .is_some_and(|m| m.text.is_none())
            }
        });
        let mut events = vec![(
            "move".to_string(),
            json!({ "move": canonical, "ply": at_ply, "seat": mover }),
            hidden.then_some(mover),
        )];
        // A whole turn (`a;b`) is stored part by part, one row per ply.
        let mut change = Change {
            moves: canonical
                .split(';')
                .enumerate()
                .map(|(i, part)| (at_ply + i, StoredMove::new(part, mover)))
                .collect(),
            ..Change::default()
        };
        if let Some(f) = &finished {
            change.status = Some("finished".into());
            change.result = Some(finished_json(f));
            events.push(end_event(f));
        }
        let offers = std::mem::take(&mut self.offers);
        let phase = self.phase;
        if finished.is_some() {
            self.phase = Phase::Finished;
        }
        if let Err(e) = self.commit(change, events).await {
            self.undo_to(at_ply);
            self.clock = saved_clock;
            self.offers = offers;
            self.phase = phase;
            return Err(e);
        }
        if finished.is_some() {
            self.stop_thinking();
        }
        self.maybe_think();
        Ok(())
    }

    /// Whether a move `seat` meant for `ply` is stale: it is for another ply. Where several
    /// players move at once (real-time bughouse, whose other board goes on meanwhile), only
    /// a ply the game has not reached, or one before a move of `seat`'s own (a resend of a
    /// move already played), is.
    fn stale(&self, seat: usize, ply: usize) -> bool {
        let now = self.table.ply();
        if ply == now {
            return false;
        }
        if ply > now || self.to_move().len() < 2 {
            return true;
        }
        self.table.moves_seen(Viewer::Arbiter)[ply..]
            .iter()
            .any(|m| m.mover == seat)
    }

    async fn end_game(
        &mut self,
        losing_team: Option<usize>,
        reason: Reason,
        extra: Vec<(String, Value, Option<usize>)>,
    ) -> Result<(), ApiError> {
        self.table.end(losing_team, reason);
        self.finish_stored(extra).await
    }

    /// Stores the result the table now has.
    async fn finish_stored(
        &mut self,
        mut events: Vec<(String, Value, Option<usize>)>,
    ) -> Result<(), ApiError> {
        let Some(f) = self.table.finished() else {
            return Err(ApiError::internal("the game did not end"));
        };
        if let Some((_, clock)) = &mut self.clock {
            clock.stop();
        }
        events.push(end_event(&f));
        self.phase = Phase::Finished;
        self.offers = Offers::default();
        let change = Change {
            status: Some("finished".into()),
            result: Some(finished_json(&f)),
            ..Change::default()
        };
        if let Err(e) = self.commit(change, events).await {
            // Not stored: the game goes on as it was (rebuilt from the store).
            self.phase = Phase::Live;
            self.reload().await;
            return Err(e);
        }
        self.stop_thinking();
        Ok(())
    }

    /// Rebuilds the table from the store after a failed write.
    async fn reload(&mut self) {
        let store = self.store.clone();
        let id = self.id.clone();
        if let Ok(Ok(Some(row))) = tokio::task::spawn_blocking(move || store.load(&id)).await
            && let Ok(mut table) = open_table(&row.variant, &row.options, row.fen.as_deref())
        {
            for stored in &row.moves {
                let _ = replay(table.as_mut(), stored);
            }
            self.table = table;
        }
    }

    /// Ends the game if flags have fallen: the team of the fallen seat loses, and flags of
    /// two teams that fall in one step draw (the bughouse rule for simultaneous events).
    async fn flag_fall(&mut self) {
        let fallen = self
            .clock
            .as_ref()
            .map(|(_, c)| c.fallen(Instant::now()))
            .unwrap_or_default();
        self.flags_fell(fallen).await;
    }

    /// Ends the game for the flags of `fallen` (see [`LiveGame::flag_fall`]).
    async fn flags_fell(&mut self, fallen: Vec<usize>) {
        let Some(&seat) = fallen.first() else {
            return;
        };
        if self.phase != Phase::Live || self.table.finished().is_some() {
            return;
        }
        let team = self.table.team(seat);
        let (losing, reason) = if fallen.iter().all(|&s| self.table.team(s) == team) {
            (Some(team), Reason::TimeForfeit)
        } else {
            (None, Reason::Simultaneous)
        };
        let event = (
            "flag".to_string(),
            json!({ "seat": seat, "seats": fallen }),
            None,
        );
        if let Err(e) = self.end_game(losing, reason, vec![event]).await {
            tracing::warn!(game = %self.id, "flag fall not stored: {e}");
        }
    }

    async fn action(&mut self, caller: Caller, action: &str) -> Result<(), ApiError> {
        let seat = self.seat_of(caller)?;
        if action == "abort" {
            return self.abort(seat).await;
        }
        self.check_live()?;
        match action {
            "resign" => {
                let team = self.table.team(seat);
                let teams: BTreeSet<usize> = (0..self.table.players())
                    .map(|p| self.table.team(p))
                    .collect();
                if teams.len() > 2 {
                    return Err(ApiError::unprocessable(format!(
                        "with {} sides, resign in favour of a player: {}",
                        teams.len(),
                        self.table.actions().join(", ")
                    )));
                }
                let event = ("resign".to_string(), json!({ "seat": seat }), None);
                self.end_game(Some(team), Reason::Resignation, vec![event])
                    .await
            }
            "draw-offer" | "draw-accept" => {
                if action == "draw-accept" && self.offers.draw.is_empty() {
                    return Err(ApiError::conflict("there is no draw offer to accept"));
                }
                if self.seats.iter().any(|s| s.kind != SeatKind::Human) {
                    return Err(ApiError::conflict("the engine does not take draw offers"));
                }
                self.offers.draw.insert(seat);
                if self.offers.draw.len() == self.seats.len() {
                    let event = ("draw".to_string(), json!({ "seat": seat }), None);
                    self.end_game(None, Reason::Agreement, vec![event]).await
                } else {
                    self.commit(
                        Change::default(),
                        vec![("draw-offer".into(), json!({ "seat": seat }), None)],
                    )
                    .await
                }
            }
            "draw-decline" | "takeback-decline" => {
                if action == "draw-decline" {
                    self.offers.draw.clear();
                } else {
                    self.offers.takeback = None;
                }
                self.commit(
                    Change::default(),
                    vec![(action.to_string(), json!({ "seat": seat }), None)],
                )
                .await
            }
            "draw-claim" => {
                if self.table.side_to_move() != seat {
                    return Err(ApiError::conflict(
                        "only the player to move may claim a draw",
                    ));
                }
                if !self.table.claim_draw() {
                    return Err(ApiError::unprocessable("no draw can be claimed now"));
                }
                let event = ("draw-claim".to_string(), json!({ "seat": seat }), None);
                self.finish_stored(vec![event]).await
            }
            "takeback-offer" => self.takeback_offer(seat).await,
            "takeback-accept" => match self.offers.takeback {
                Some(by) if self.table.team(by) != self.table.team(seat) => {
                    self.take_back(by).await
                }
                Some(_) => Err(ApiError::conflict(
                    "the other side must accept the takeback",
                )),
                None => Err(ApiError::conflict("there is no takeback offer to accept")),
            },
            "action-accept" => match self.offers.action.clone() {
                Some((by, action, consent)) if consent == seat => {
                    self.offers.action = None;
                    self.perform(by, &action).await
                }
                _ => Err(ApiError::conflict("no action waits for your consent")),
            },
            other => {
                if !self.table.actions().contains(&other) {
                    return Err(ApiError::bad_request(format!(
                        "unknown action {:?} (resign, draw-offer, draw-accept, draw-claim, \
                         takeback-offer, takeback-accept, abort{})",
                        excerpt(other),
                        self.table
                            .actions()
                            .iter()
                            .map(|a| format!(", {a}"))
                            .collect::<String>()
                    )));
                }
                if self.table.side_to_move() != seat {
                    return Err(ApiError::conflict("only the player to move may do that"));
                }
                match self.table.action_consent(other) {
                    Some(consent) if self.seats[consent].kind == SeatKind::Human => {
                        self.offers.action = Some((seat, other.to_string(), consent));
                        self.commit(
                            Change::default(),
                            vec![(
                                "action-offer".into(),
                                json!({ "seat": seat, "action": other, "consent": consent }),
                                None,
                            )],
                        )
                        .await
                    }
                    // The engine consents.
                    _ => self.perform(seat, other).await,
                }
            }
        }
    }

    async fn perform(&mut self, seat: usize, action: &str) -> Result<(), ApiError> {
        self.table.perform(action)?;
        let event = (
            "action".to_string(),
            json!({ "seat": seat, "action": action }),
            None,
        );
        self.finish_stored(vec![event]).await
    }

    async fn abort(&mut self, seat: usize) -> Result<(), ApiError> {
        if self.phase != Phase::Live || self.table.finished().is_some() {
            return Err(ApiError::conflict("the game is over"));
        }
        if self.table.ply() >= self.table.players() {
            return Err(ApiError::conflict(
                "a game can be aborted only before every player has moved; resign instead",
            ));
        }
        self.phase = Phase::Aborted;
        if let Some((_, clock)) = &mut self.clock {
            clock.stop();
        }
        let change = Change {
            status: Some("aborted".into()),
            ..Change::default()
        };
        if let Err(e) = self
            .commit(
                change,
                vec![("abort".into(), json!({ "seat": seat }), None)],
            )
            .await
        {
            self.phase = Phase::Live;
            self.resume_clock();
            return Err(e);
        }
        self.stop_thinking();
        Ok(())
    }

    async fn takeback_offer(&mut self, seat: usize) -> Result<(), ApiError> {
        let moved = self
            .table
            .moves_seen(Viewer::Arbiter)
            .iter()
            .any(|m| m.mover == seat);
        if !moved {
            return Err(ApiError::conflict("you have no move to take back"));
        }
        let team = self.table.team(seat);
        let others_human = (0..self.seats.len())
            .any(|n| self.table.team(n) != team && self.seats[n].kind == SeatKind::Human);
        if !others_human {
            // The engine always agrees.
            return self.take_back(seat).await;
        }
        self.offers.takeback = Some(seat);
        self.commit(
            Change::default(),
            vec![("takeback-offer".into(), json!({ "seat": seat }), None)],
        )
        .await
    }

    /// Takes back every move since `seat`'s last turn began.
    async fn take_back(&mut self, seat: usize) -> Result<(), ApiError> {
        let seen = self.table.moves_seen(Viewer::Arbiter);
        let Some(last) = seen.iter().rposition(|m| m.mover == seat) else {
            return Err(ApiError::conflict("that seat has no move to take back"));
        };
        // The start of that turn: the earliest of the run of its parts.
        let mut keep = last;
        while keep > 0 && seen[keep - 1].mover == seat {
            keep -= 1;
        }
        let texts: Vec<String> = seen[keep..]
            .iter()
            .map(|m| m.text.clone().unwrap_or_default())
            .collect();
        // What a failed write must give back, besides the moves.
        let (offers, clock) = (self.offers.clone(), self.clock.clone());
        self.undo_to(keep);
        self.offers = Offers::default();
        self.stop_thinking();
        // The clocks stay as they are; the seats to move now have theirs running.
        self.resume_clock();
        let change = Change {
            truncate_to: Some(keep),
            ..Change::default()
        };
        if let Err(e) = self
            .commit(
                change,
                vec![("takeback".into(), json!({ "ply": keep }), None)],
            )
            .await
        {
            for text in &texts {
                let _ = self.table.play(text);
            }
            self.offers = offers;
            self.clock = clock;
            self.maybe_think();
            return Err(e);
        }
        self.maybe_think();
        Ok(())
    }

    /// Takes moves back until `ply` moves are left.
    fn undo_to(&mut self, ply: usize) {
        while self.table.ply() > ply && self.table.undo() {}
    }

    fn stop_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Starts the engine if an engine seat is to move.
    fn maybe_think(&mut self) {
        if self.thinking.is_some() || self.follows() {
            return;
        }
        let engine_seat = self
            .to_move()
            .into_iter()
            .find_map(|seat| match self.seats[seat].kind {
                SeatKind::Engine(level) => Some((seat, level)),
                SeatKind::Human => None,
            });
        let Some((seat, level)) = engine_seat else {
            return;
        };
        let mut limits = level_limits(level);
        if let Some((_, clock)) = &self.clock {
            // Never more than a twentieth of what is left.
            let left = clock.show(Instant::now())[seat].0;
            let cap = Duration::from_millis(left / 20 + 10);
            limits.move_time = Some(limits.move_time.map_or(cap, |t| t.min(cap)));
        }
        let task = self
            .table
            .search_task_for(seat, limits, crate::engines::HASH_MB);
        let ply = self.table.ply();
        self.thinking = Some(EngineThinking {
            ply,
            seat,
            stop: task.stop.clone(),
        });
        let results = self.engine_results.clone();
        self.engines.run(task, move |best| {
            let _ = results.try_send((ply, best));
        });
    }

    async fn engine_moved(&mut self, ply: usize, text: Option<String>) {
        let seat = match &self.thinking {
            Some(t) if t.ply == ply => t.seat,
            _ => return,
        };
        self.thinking = None;
        if !self.to_move().contains(&seat) || self.stale(seat, ply) {
            self.maybe_think();
            return;
        }
        match text {
            Some(text) => {
                // Where other players moved meanwhile (the other board in real-time
                // bughouse), the move may no longer be legal: think again.
                if let Err(e) = self.play(seat, &text, Some(ply), None).await {
                    if self.table.ply() == ply {
                        tracing::warn!(game = %self.id, "engine move {text} refused: {e}");
                    } else {
                        self.maybe_think();
                    }
                }
            }
            None => tracing::warn!(game = %self.id, "the engine found no move at ply {ply}"),
        }
    }
}

fn end_event(f: &Finished) -> (String, Value, Option<usize>) {
    (
        "end".to_string(),
        json!({ "result": f.result, "reason": f.reason.as_str(), "scores": f.quarters }),
        None,
    )
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
