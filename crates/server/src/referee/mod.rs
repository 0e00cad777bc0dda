//! The referee of a hosted game: every rule of a live game — seats, arrivals, moves, clocks,
//! offers, takebacks, aborts, flags, abandonment, rematches — as a pure function of the game's
//! state, a [`Command`] and the instant it is decided at.
//!
//! [`Referee::decide`] answers a command with a [`Decision`] (the change to store, with its
//! typed events, and the state that follows) or a [`GameError`], and changes nothing;
//! [`Referee::apply`] then makes the decision the game's state. The game's task stores the
//! change between the two, so a store that fails leaves the game as it was: nothing was
//! applied. What the task must do besides (wake an engine, arm a timer) follows from the
//! state: [`Referee::engine_turn`] and [`Referee::next_deadline`].
//!
//! There is no I/O here: no tokio, no database, no clock but the instants given. The rules
//! themselves are in docs/server.md ("Lifecycle"); each has a unit test in `tests`.

mod command;
mod create;
mod error;
mod event;
pub mod lifecycle;
#[cfg(test)]
mod tests;

pub use command::{Action, Command, Fresh};
pub use create::{NewGame, new_game, secret_option_specs};
pub use error::GameError;
pub use event::{AbortReason, Event};

use crate::clock::{ClockSpec, GameClock, SeatTime};
use crate::store::{
    ActionOffer, Change, Ending, GameRow, GameStatus, Pending, SeatKind, SeatRow, StoredMove,
};
use chaturanga_rules::Reason;
use chaturanga_rules::scene::Viewer;
use chaturanga_session::{Finished, SessionError, Table, open_table};
use lifecycle::Bucket;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// Who makes a request: a seat (proved by its token) or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// The seat with this index.
    Seat(usize),
    /// Anyone else.
    Spectator,
}

/// A game and its referee (see the module documentation).
pub struct Referee {
    id: String,
    table: Box<dyn Table>,
    core: Core,
}

/// Everything of a game but its table: small, so that a decision copies it.
#[derive(Clone, Debug)]
struct Core {
    options: Vec<String>,
    secret_options: Vec<String>,
    fen: Option<String>,
    listed: bool,
    status: GameStatus,
    version: u64,
    seats: Vec<SeatRow>,
    clock: Option<(ClockSpec, GameClock)>,
    pending: Pending,
    rematch: Option<String>,
    creator: Option<String>,
    owner_hash: Option<String>,
    /// When it was created, milliseconds since the Unix epoch (its records' start).
    created_ms: i64,
    /// The seat that made each ply.
    plies: Vec<usize>,
    /// Kept in memory only (a restart starts them afresh, as it does the clocks' turn).
    /// When each seat's turn began, while it is one of the seats to move.
    turn_began: Vec<Option<Instant>>,
    /// Each seat's last sign of life.
    last_seen: Vec<Instant>,
    /// The last beat of each seat's socket, once it had one.
    last_socket: Vec<Option<Instant>>,
    /// Each seat's allowance of actions.
    buckets: Vec<Bucket>,
}

/// What a command decided: the change to store and the state that follows. Apply it with
/// [`Referee::apply`] once the change is stored (or at once when there is nothing to store).
#[must_use]
pub struct Decision {
    core: Core,
    /// The table after the change, where the change needed a copy of it.
    table: Option<Box<dyn Table>>,
    /// What to store, with its events; `None` when nothing needs storing (a repeated offer,
    /// a sign of life).
    pub change: Option<Change>,
    /// The command's own answer where the decision is something else (the flag that fell
    /// before the move arrived): the decision is stored and applied, the command refused.
    pub refusal: Option<GameError>,
}

impl Decision {
    /// Whether the game ends with this decision.
    pub fn ends(&self) -> bool {
        self.change
            .as_ref()
            .is_some_and(|c| c.status.is_some_and(|s| s != GameStatus::Live))
    }
}

/// An engine seat to move: what the game's task gives the engine pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineTurn {
    /// The engine's seat.
    pub seat: usize,
    /// The ply its search starts at.
    pub ply: usize,
    /// Its level (1-8).
    pub level: u8,
    /// What is left on its clock, if it has one.
    pub time_left: Option<Duration>,
    /// The earliest its move is shown: the engine paces itself by its clock.
    pub not_before: Instant,
}

/// How `caller` views a game: as its seat's player or a spectator while it goes on, as the
/// arbiter (seeing everything) once it is over.
pub fn viewer_of(live: bool, caller: Caller) -> Viewer {
    if !live {
        return Viewer::Arbiter;
    }
    match caller {
        Caller::Seat(s) => Viewer::Player(s),
        Caller::Spectator => Viewer::Spectator,
    }
}

impl Referee {
    /// A stored game as the referee keeps it: the table replayed from the moves, the result,
    /// seats, clocks and offers. Whatever the store cannot tell (the turn in progress, signs
    /// of life) starts at `now`.
    pub fn from_row(row: &GameRow, now: Instant) -> Result<Referee, GameError> {
        let table = open_table(&row.variant, &row.options, row.fen.as_deref())
            .map_err(|e| GameError::Stored(e.to_string()))?;
        Self::from_row_on(row, table, Vec::new(), now)
    }

    /// Like [`Referee::from_row`], on `table`, where the stored moves made by `plies` are
    /// already played (a replica catching up replays only the moves added).
    fn from_row_on(
        row: &GameRow,
        mut table: Box<dyn Table>,
        mut plies: Vec<usize>,
        now: Instant,
    ) -> Result<Referee, GameError> {
        replay_from(row, table.as_mut(), &mut plies)?;
        let core = Core::from_row(row, table.as_ref(), plies, now)?;
        Ok(Referee {
            id: row.id.clone(),
            table,
            core,
        })
    }

    /// Catches up with the stored `row` (another node wrote it): the moves added are played on
    /// this table, anything else (a takeback, a result from outside the rules) rebuilds it.
    pub fn catch_up(&mut self, row: &GameRow, now: Instant) -> Result<(), GameError> {
        let played = self.table.move_texts();
        let extends = row.moves.len() >= played.len()
            && self.table.finished().is_none()
            && played
                .iter()
                .zip(&row.moves)
                .all(|(text, stored)| *text == stored.text);
        if extends {
            let mut plies = self.core.plies.clone();
            let caught = replay_from(row, self.table.as_mut(), &mut plies)
                .and_then(|()| Core::from_row(row, self.table.as_ref(), plies, now));
            if let Ok(core) = caught {
                self.core = core;
                return Ok(());
            }
        }
        *self = Self::from_row(row, now)?;
        Ok(())
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Who created the game (a digest of the client's address), if known.
    pub fn creator(&self) -> Option<&str> {
        self.core.creator.as_deref()
    }

    /// Whether every seat is an engine's.
    pub fn engines_only(&self) -> bool {
        self.core.seats.iter().all(|s| s.kind != SeatKind::Human)
    }

    /// The game's version: the number of its last event.
    pub fn version(&self) -> u64 {
        self.core.version
    }

    /// The game's table (the rules' side: scenes, moves, records).
    pub fn table(&self) -> &dyn Table {
        self.table.as_ref()
    }

    /// The seats.
    pub fn seats(&self) -> &[SeatRow] {
        &self.core.seats
    }

    /// Where the game stands.
    pub fn status(&self) -> GameStatus {
        self.core.status
    }

    /// Whether the game is in progress.
    pub fn is_live(&self) -> bool {
        self.core.status == GameStatus::Live
    }

    /// The options shown: the secret ones only once the game is over.
    pub fn options(&self) -> Vec<&str> {
        let mut options: Vec<&str> = self.core.options.iter().map(String::as_str).collect();
        if !self.is_live() {
            options.extend(self.core.secret_options.iter().map(String::as_str));
        }
        options
    }

    /// The seat holding the token with this hash.
    pub fn seat_of_token(&self, token_hash: &str) -> Option<usize> {
        self.core
            .seats
            .iter()
            .position(|s| s.token_hash.as_deref() == Some(token_hash))
    }

    /// Whether every human seat is claimed.
    pub fn started(&self) -> bool {
        self.core.started()
    }

    /// The seats that may move now (none before every seat is claimed, or once it is over).
    pub fn to_move(&self) -> Vec<usize> {
        self.core.to_move(self.table.as_ref())
    }

    /// When the game was created, milliseconds since the Unix epoch: the start its records
    /// give (what the store says, not a clock read here).
    pub fn created_ms(&self) -> i64 {
        self.core.created_ms
    }

    /// The time control, if the game has a clock.
    pub fn time_control(&self) -> Option<&ClockSpec> {
        self.core.clock.as_ref().map(|(spec, _)| spec)
    }

    /// The time control and every seat's clock at `now`.
    pub fn clocks(&self, now: Instant) -> Option<(&ClockSpec, Vec<SeatTime>)> {
        self.core
            .clock
            .as_ref()
            .map(|(spec, clock)| (spec, clock.show(now)))
    }

    /// What waits for an answer.
    pub fn pending(&self) -> &Pending {
        &self.core.pending
    }

    /// Whether a sign of life of `seat`'s player changes anything: he has not come yet, he
    /// is taken for gone, or the game is one where a player may be taken for gone (a live
    /// game with a real-time clock). A node that follows the game passes such signs on.
    pub fn wants_signs_of_life(&self, seat: usize) -> bool {
        let core = &self.core;
        core.is_human(seat)
            && core.is_live()
            && (!core.seats[seat].arrived
                || core.pending.gone.contains(&seat)
                || core
                    .clock
                    .as_ref()
                    .is_some_and(|(spec, _)| lifecycle::gone_after(spec).is_some()))
    }

    /// Whether `seat` may claim the game another side left (`claim-victory`, `call-draw`).
    pub fn may_claim(&self, seat: usize) -> bool {
        let core = &self.core;
        let table = self.table.as_ref();
        core.is_live()
            && core.abandonment_after(table).is_some()
            && !core.pending.gone.contains(&seat)
            && core
                .pending
                .gone
                .iter()
                .any(|&g| table.team(g) != table.team(seat))
    }

    /// The rematch its players went on to.
    pub fn rematch(&self) -> Option<&str> {
        self.core.rematch.as_deref()
    }

    /// The seats that must make their first move, and by when the game is aborted if they
    /// do not (or do not come).
    pub fn first_move_deadline(&self) -> Option<(Vec<usize>, Instant)> {
        self.core.opening_deadline(self.table.as_ref())
    }

    /// When something happens next without anyone doing anything: a flag falls, a first
    /// move's window closes, an absent player counts as gone.
    pub fn next_deadline(&self) -> Option<Instant> {
        let table = self.table.as_ref();
        let core = &self.core;
        if !core.is_live() {
            return None;
        }
        let flag = core
            .clock
            .as_ref()
            .filter(|_| core.clocks_run(table))
            .and_then(|(_, clock)| clock.deadline());
        let opening = core.opening_deadline(table).map(|(_, at)| at);
        let gone = core.gone_deadline(table);
        [flag, opening, gone, core.seek_deadline()]
            .into_iter()
            .flatten()
            .min()
    }

    /// The engine seat that should be thinking now, if any: engines move only once every
    /// person has come, and pace themselves by their clock.
    pub fn engine_turn(&self) -> Option<EngineTurn> {
        let core = &self.core;
        let table = self.table.as_ref();
        if !core.is_live() || !core.all_arrived() {
            return None;
        }
        core.to_move(table).into_iter().find_map(|seat| {
            let SeatKind::Engine(level) = core.seats[seat].kind else {
                return None;
            };
            let began = core.turn_began[seat]?;
            let (time_left, pace) = match &core.clock {
                Some((spec, clock)) => {
                    let left = clock.time_available(seat);
                    (Some(left), lifecycle::pace(spec, left))
                }
                None => (None, Duration::ZERO),
            };
            Some(EngineTurn {
                seat,
                ply: table.ply(),
                level,
                time_left,
                not_before: began + pace,
            })
        })
    }

    /// The search for an engine's turn.
    pub fn search_task(
        &self,
        turn: &EngineTurn,
        limits: chaturanga_engine::Limits,
        hash_mb: usize,
    ) -> chaturanga_session::SearchTask {
        self.table.search_task_for(turn.seat, limits, hash_mb)
    }

    /// Makes a decision the game's state (after its change was stored).
    pub fn apply(&mut self, decision: Decision) {
        if let Some(table) = decision.table {
            self.table = table;
        }
        self.core = decision.core;
    }

    /// Decides `command` at `now` (see the module documentation).
    pub fn decide(&self, command: &Command, now: Instant) -> Result<Decision, GameError> {
        let mut step = Step {
            referee: self,
            now,
            core: self.core.clone(),
            table: None,
            events: Vec::new(),
            change: Change::default(),
            refusal: None,
        };
        match command {
            Command::Join { seat, token_hash } => step.join(*seat, token_hash)?,
            Command::Seen { seat, socket } => step.seen(*seat, *socket),
            Command::Move {
                seat,
                text,
                ply,
                thought,
                measured_lag,
            } => {
                if step.core.seat(*seat)?.kind != SeatKind::Human {
                    return Err(GameError::EngineMovesItself);
                }
                step.play(*seat, text, *ply, *thought, *measured_lag)?;
            }
            Command::EngineMove { seat, ply, text } => {
                if !matches!(step.core.seat(*seat)?.kind, SeatKind::Engine(_)) {
                    return Err(GameError::NotYourTurn(Vec::new()));
                }
                if !step.core.all_arrived() {
                    return Err(GameError::WaitingForPlayers);
                }
                step.play(*seat, text, Some(*ply), None, None)?;
            }
            Command::Act {
                seat,
                action,
                fresh,
            } => step.act(*seat, action, fresh)?,
            Command::Stop { token_hash } => step.stop(token_hash)?,
            Command::Tick => step.tick(),
        }
        Ok(step.finish())
    }
}

/// Plays the stored moves of `row` after the first `plies.len()` on `table`, noting who made
/// each; a game ended from outside the rules gets its stored result.
fn replay_from(
    row: &GameRow,
    table: &mut dyn Table,
    plies: &mut Vec<usize>,
) -> Result<(), GameError> {
    for (ply, stored) in row.moves.iter().enumerate().skip(plies.len()) {
        // Rows stored before movers were kept are the side to move's.
        let mover = stored
            .mover
            .filter(|&m| m < table.players())
            .unwrap_or_else(|| table.side_to_move());
        replay(table, stored)
            .map_err(|e| GameError::Stored(format!("move {} ({}): {e}", ply + 1, stored.text)))?;
        plies.push(mover);
    }
    if row.status == GameStatus::Finished
        && table.finished().is_none()
        && let Some(ending) = &row.ending
    {
        // Ended from outside the rules (resignation, agreement, time): restore it.
        table.restore_result(&ending.quarters, ending.reason);
    }
    Ok(())
}

/// Plays a stored move on `table` for the seat that played it.
fn replay(table: &mut dyn Table, stored: &StoredMove) -> Result<String, SessionError> {
    match stored.mover {
        Some(mover) if mover < table.players() => table.play_for(mover, &stored.text),
        _ => table.play(&stored.text),
    }
}

/// The names of the options of `variant` the server draws at random and keeps secret.
pub fn secret_names(variant: &str) -> Vec<&'static str> {
    secret_option_specs(variant).unwrap_or_default()
}

impl Core {
    /// The stored game's state beside its table (where `plies` made its moves); what the store
    /// cannot tell (the turn in progress, signs of life) starts at `now`.
    fn from_row(
        row: &GameRow,
        table: &dyn Table,
        plies: Vec<usize>,
        now: Instant,
    ) -> Result<Core, GameError> {
        let players = table.players();
        let clock = match &row.clock {
            Some(spec) => {
                let control = spec.control().map_err(GameError::Stored)?;
                let clock = match &row.clock_state {
                    Some(times) if times.main_ms.len() == players => {
                        GameClock::restore(control, times)
                    }
                    _ => GameClock::new(control, players),
                };
                Some((spec.clone(), clock))
            }
            None => None,
        };
        let secret = secret_names(&row.variant);
        let (options, secret_options) = row.options.iter().cloned().partition(|o| {
            let name = o.split('=').next().unwrap_or("");
            !secret.contains(&name)
        });
        let seats = row.seats.clone();
        let mut core = Core {
            options,
            secret_options,
            fen: row.fen.clone(),
            listed: row.listed,
            status: row.status,
            version: row.version,
            turn_began: vec![None; seats.len()],
            last_seen: vec![now; seats.len()],
            last_socket: vec![None; seats.len()],
            buckets: vec![Bucket::full(now); seats.len()],
            seats,
            clock,
            pending: row.pending.clone(),
            rematch: row.rematch.clone(),
            creator: row.creator.clone(),
            owner_hash: row.owner_hash.clone(),
            created_ms: row.created_ms,
            plies,
        };
        core.sync(table, now);
        Ok(core)
    }

    fn is_live(&self) -> bool {
        self.status == GameStatus::Live
    }

    fn seat(&self, seat: usize) -> Result<&SeatRow, GameError> {
        self.seats.get(seat).ok_or(GameError::NoSuchSeat(seat))
    }

    fn is_human(&self, seat: usize) -> bool {
        self.seats
            .get(seat)
            .is_some_and(|s| s.kind == SeatKind::Human)
    }

    /// Whether every human seat is claimed.
    fn started(&self) -> bool {
        self.seats
            .iter()
            .all(|s| s.kind != SeatKind::Human || s.token_hash.is_some())
    }

    fn open_seats(&self) -> Vec<usize> {
        (0..self.seats.len())
            .filter(|&n| self.is_human(n) && self.seats[n].token_hash.is_none())
            .collect()
    }

    /// Whether every human seat's player has come.
    fn all_arrived(&self) -> bool {
        self.seats
            .iter()
            .all(|s| s.kind != SeatKind::Human || s.arrived)
    }

    fn to_move(&self, table: &dyn Table) -> Vec<usize> {
        if self.is_live() && self.started() {
            table.movers()
        } else {
            Vec::new()
        }
    }

    /// Whether several seats move at once (real-time bughouse): their clocks start together.
    fn simultaneous(table: &dyn Table) -> bool {
        table.movers().len() > 1
    }

    /// Whether `seat` has completed a turn (`movers`: the seats to move now, one of whom may
    /// be in the middle of his turn).
    fn first_turn_done(&self, movers: &[usize], seat: usize) -> bool {
        let last = self.plies.len();
        self.plies.iter().enumerate().any(|(i, &mover)| {
            mover == seat
                && if i + 1 < last {
                    self.plies[i + 1] != seat
                } else {
                    !movers.contains(&seat)
                }
        })
    }

    /// Whether every seat has completed its first turn.
    fn begun(&self, table: &dyn Table) -> bool {
        let movers = table.movers();
        (0..self.seats.len()).all(|seat| self.first_turn_done(&movers, seat))
    }

    /// Whether the clocks run: a live game whose players have all come, where every side has
    /// made its first move (or where several seats move at once, from the moment all came).
    fn clocks_run(&self, table: &dyn Table) -> bool {
        self.clock.is_some()
            && self.is_live()
            && self.started()
            && self.all_arrived()
            && (Self::simultaneous(table) || self.begun(table))
    }

    /// Brings the turns and clocks in line with the position: a seat that became one to move
    /// begins its turn at `now`, the others have none; the clocks of the seats to move run
    /// when the clocks run, and no other.
    fn sync(&mut self, table: &dyn Table, now: Instant) {
        let to_move = self.to_move(table);
        for (seat, began) in self.turn_began.iter_mut().enumerate() {
            if !to_move.contains(&seat) {
                *began = None;
            } else if began.is_none() {
                *began = Some(now);
            }
        }
        let running = if self.clocks_run(table) {
            to_move
        } else {
            Vec::new()
        };
        if let Some((_, clock)) = &mut self.clock {
            clock.run(&running, now);
        }
    }

    /// Every seat to move begins its turn anew at `now` (all players came; moves were taken
    /// back).
    fn restart_turns(&mut self, table: &dyn Table, now: Instant) {
        self.turn_began.iter_mut().for_each(|b| *b = None);
        self.sync(table, now);
    }

    /// The seats whose first move (or arrival) is awaited, and when the game is aborted
    /// without it. Only games with a clock are aborted so.
    fn opening_deadline(&self, table: &dyn Table) -> Option<(Vec<usize>, Instant)> {
        let (spec, _) = self.clock.as_ref()?;
        if !self.is_live() || !self.started() || self.clocks_run(table) {
            return None;
        }
        let arrived = self.all_arrived();
        let movers = self.to_move(table);
        let simultaneous = movers.len() > 1;
        let awaited: Vec<usize> = movers
            .iter()
            .copied()
            .filter(|&m| {
                if simultaneous {
                    !arrived
                } else {
                    !self.first_turn_done(&movers, m) && (self.is_human(m) || !arrived)
                }
            })
            .collect();
        let began = awaited.iter().filter_map(|&m| self.turn_began[m]).min()?;
        Some((awaited, began + lifecycle::first_move_window(spec)))
    }

    /// When a game still waiting for players is given up: [`lifecycle::seek_waits`] after the
    /// last sign of life of those who claimed a seat (of the game's loading, if nobody did).
    fn seek_deadline(&self) -> Option<Instant> {
        if !self.is_live() || self.started() {
            return None;
        }
        let claimed = (0..self.seats.len())
            .filter(|&s| self.is_human(s) && self.seats[s].token_hash.is_some())
            .map(|s| self.last_socket[s].map_or(self.last_seen[s], |b| b.max(self.last_seen[s])))
            .max();
        let since = claimed.or_else(|| self.last_seen.iter().copied().min())?;
        Some(since + lifecycle::seek_waits(self.clock.as_ref().map(|(spec, _)| spec)))
    }

    /// When the next player with a socket counts as gone, while the game can be claimed.
    fn gone_deadline(&self, table: &dyn Table) -> Option<Instant> {
        let after = self.abandonment_after(table)?;
        (0..self.seats.len())
            .filter(|&s| self.is_human(s) && !self.pending.gone.contains(&s))
            .filter_map(|s| self.silent_since(s))
            .map(|since| since + after)
            .min()
    }

    /// How long a player may be away before the others may claim, where they may.
    fn abandonment_after(&self, table: &dyn Table) -> Option<Duration> {
        let (spec, _) = self.clock.as_ref()?;
        if !self.clocks_run(table) {
            return None;
        }
        lifecycle::gone_after(spec)
    }

    /// Since when a seat that had a socket has been silent (`None`: it never had one).
    fn silent_since(&self, seat: usize) -> Option<Instant> {
        self.last_socket[seat].map(|socket| socket.max(self.last_seen[seat]))
    }
}

/// A decision in the making: a copy of the state with the changes so far.
struct Step<'a> {
    referee: &'a Referee,
    now: Instant,
    core: Core,
    /// The table, once a change needs a copy of it.
    table: Option<Box<dyn Table>>,
    events: Vec<(Event, Option<usize>)>,
    change: Change,
    refusal: Option<GameError>,
}

impl Step<'_> {
    fn table(&self) -> &dyn Table {
        match &self.table {
            Some(table) => table.as_ref(),
            None => self.referee.table.as_ref(),
        }
    }

    fn table_mut(&mut self) -> &mut dyn Table {
        if self.table.is_none() {
            self.table = Some(self.referee.table.boxed_clone());
        }
        self.table
            .as_deref_mut()
            .expect("a copy of the table was just made")
    }

    fn event(&mut self, event: Event) {
        self.events.push((event, None));
    }

    fn team(&self, seat: usize) -> usize {
        self.table().team(seat)
    }

    fn teams(&self) -> BTreeSet<usize> {
        (0..self.core.seats.len()).map(|s| self.team(s)).collect()
    }

    fn check_live(&self) -> Result<(), GameError> {
        if !self.core.is_live() || self.table().finished().is_some() {
            return Err(GameError::Over);
        }
        Ok(())
    }

    fn sync(&mut self) {
        let table = match &self.table {
            Some(table) => table.as_ref(),
            None => self.referee.table.as_ref(),
        };
        self.core.sync(table, self.now);
    }

    fn restart_turns(&mut self) {
        let table = match &self.table {
            Some(table) => table.as_ref(),
            None => self.referee.table.as_ref(),
        };
        self.core.restart_turns(table, self.now);
    }

    /// The decision: the state that follows and, where events happened, what to store.
    fn finish(mut self) -> Decision {
        let change = (!self.events.is_empty()).then(|| {
            let version = self.core.version;
            let mut change = std::mem::take(&mut self.change);
            change.events = self
                .events
                .iter()
                .enumerate()
                .map(|(i, (event, only))| event.row(version + 1 + i as u64, *only))
                .collect();
            change.pending = Some(self.core.pending.clone());
            change.clock_state = self.core.clock.as_ref().map(|(_, c)| c.stored());
            change
        });
        if let Some(change) = &change {
            self.core.version += change.events.len() as u64;
        }
        Decision {
            core: self.core,
            table: self.table,
            change,
            refusal: self.refusal,
        }
    }

    // ---- seats and presence -----------------------------------------------------------

    fn join(&mut self, seat: usize, token_hash: &str) -> Result<(), GameError> {
        match self.core.seat(seat)? {
            s if s.kind != SeatKind::Human => return Err(GameError::EngineSeat(seat)),
            s if s.token_hash.is_some() => return Err(GameError::SeatTaken(seat)),
            _ => {}
        }
        if !self.core.is_live() {
            return Err(GameError::Over);
        }
        self.core.seats[seat].token_hash = Some(token_hash.to_string());
        self.change.seat = Some((seat, token_hash.to_string()));
        self.change.active = true;
        self.event(Event::Join { seat });
        self.sync();
        Ok(())
    }

    fn seen(&mut self, seat: usize, socket: bool) {
        if !self.core.is_human(seat) {
            return;
        }
        if socket {
            self.core.last_socket[seat] = Some(self.now);
        }
        self.present(seat);
    }

    /// `seat`'s player gave a sign of life: he has come (stored the first time), and is back
    /// if he had left. Part of the decision it comes with, so a refused move stores nothing.
    fn present(&mut self, seat: usize) {
        if !self.core.is_human(seat) {
            return;
        }
        self.core.last_seen[seat] = self.now;
        if !self.core.is_live() {
            return;
        }
        if !self.core.seats[seat].arrived {
            self.core.seats[seat].arrived = true;
            self.change.arrived = Some(seat);
            self.event(Event::Arrive { seat });
            if self.core.all_arrived() {
                // Everyone is here: turns (and, where seats move at once, clocks) begin.
                self.restart_turns();
            }
        }
        if self.core.pending.gone.remove(&seat) {
            self.event(Event::Back { seat });
        }
    }

    // ---- moves -------------------------------------------------------------------------

    /// Whether a move `seat` meant for `ply` is stale: it is for another ply. Where several
    /// seats move at once (real-time bughouse, whose other board goes on meanwhile), only a
    /// ply the game has not reached, or one before a move of `seat`'s own (a resend), is.
    fn stale(&self, seat: usize, ply: usize) -> bool {
        let now = self.table().ply();
        if ply == now {
            return false;
        }
        if ply > now || self.core.to_move(self.table()).len() < 2 {
            return true;
        }
        self.core.plies[ply..].contains(&seat)
    }

    /// The flags fallen by now.
    fn fallen(&self) -> Vec<usize> {
        match &self.core.clock {
            Some((_, clock)) if self.core.clocks_run(self.table()) => clock.fallen(self.now),
            _ => Vec::new(),
        }
    }

    fn play(
        &mut self,
        seat: usize,
        text: &str,
        ply: Option<usize>,
        thought: Option<Duration>,
        measured_lag: Option<Duration>,
    ) -> Result<(), GameError> {
        self.check_live()?;
        if !self.core.started() {
            return Err(GameError::WaitingForSeats(self.core.open_seats()));
        }
        if let Some(ply) = ply
            && self.stale(seat, ply)
        {
            return Err(GameError::StalePly {
                sent: ply,
                now: self.table().ply(),
            });
        }
        let to_move = self.core.to_move(self.table());
        if !to_move.contains(&seat) {
            return Err(GameError::NotYourTurn(
                to_move
                    .iter()
                    .map(|&m| (m, self.table().player_name(m)))
                    .collect(),
            ));
        }
        // A move is a sign of life.
        self.present(seat);
        let fallen = self.fallen();
        if fallen.contains(&seat) {
            // The flag is the event of this step; the move comes too late.
            self.flags_fell(fallen, Vec::new());
            self.refusal = Some(GameError::TimeRanOut);
            return Ok(());
        }
        let at_ply = self.table().ply();
        let canonical = self.table_mut().play_for(seat, text)?;
        let turn_over = !self.table().movers().contains(&seat);
        let out_of_time = match &mut self.core.clock {
            Some((_, clock)) if turn_over => clock
                .complete(seat, self.now, thought, measured_lag)
                .is_err(),
            _ => false,
        };
        if out_of_time {
            // Its time ran out even with its lag forgiven: the move is void, the flag falls.
            self.table = None;
            let mut flags = fallen;
            if !flags.contains(&seat) {
                flags.push(seat);
            }
            self.flags_fell(flags, Vec::new());
            self.refusal = Some(GameError::TimeRanOut);
            return Ok(());
        }
        let parts: Vec<&str> = canonical.split(';').collect();
        for (i, part) in parts.iter().enumerate() {
            self.change
                .moves
                .push((at_ply + i, StoredMove::new(*part, seat)));
            self.core.plies.push(seat);
        }
        self.change.active = true;
        // Where a viewer may not know the move (dark chess), its data is the mover's only.
        let hidden = (0..=self.core.seats.len()).any(|k| {
            k != seat && {
                let viewer = if k < self.core.seats.len() {
                    Viewer::Player(k)
                } else {
                    Viewer::Spectator
                };
                !self.table().last_move_known_to(viewer)
            }
        });
        self.events.push((
            Event::Move {
                text: canonical,
                ply: at_ply,
                seat,
            },
            hidden.then_some(seat),
        ));
        // Offers lapse with a move; absences do not.
        let gone = std::mem::take(&mut self.core.pending.gone);
        self.core.pending = Pending {
            gone,
            ..Pending::default()
        };
        match self.table().finished() {
            Some(finished) if !fallen.is_empty() => {
                // A result and flags in one step are judged together (a drawn result leaves
                // the flags to decide).
                let decisive = losing_teams(&finished, |s| self.team(s))
                    .into_iter()
                    .map(|t| (t, finished.reason))
                    .collect();
                self.flags_fell(fallen, decisive);
            }
            Some(_) => self.ended(),
            None if !fallen.is_empty() => self.flags_fell(fallen, Vec::new()),
            None => self.sync(),
        }
        Ok(())
    }

    // ---- endings -----------------------------------------------------------------------

    /// Ends the game with the result its table now has.
    fn ended(&mut self) {
        let Some(finished) = self.table().finished() else {
            return;
        };
        self.core.status = GameStatus::Finished;
        if let Some((_, clock)) = &mut self.core.clock {
            // Charges the turn in progress (a flagged clock is at zero already).
            clock.stop_at(self.now);
        }
        self.core.pending = Pending::default();
        self.change.status = Some(GameStatus::Finished);
        self.change.ending = Some(Ending {
            result: finished.result.clone(),
            quarters: finished.quarters.clone(),
            reason: finished.reason,
        });
        self.sync();
        self.event(Event::end(
            finished.result,
            finished.reason,
            finished.quarters,
        ));
    }

    /// Ends the game for the decisive events of one step, each a losing team with its
    /// reason: if they name more than one team the game is drawn (`simultaneous`), otherwise
    /// that team loses, a mate's or resignation's reason before a flag's.
    fn judge(&mut self, decisive: Vec<(usize, Reason)>) {
        let teams: BTreeSet<usize> = decisive.iter().map(|&(t, _)| t).collect();
        let (losing, reason) = match teams.len() {
            0 => return self.ended(),
            1 => (
                teams.first().copied(),
                decisive
                    .iter()
                    .map(|&(_, r)| r)
                    .find(|&r| r != Reason::TimeForfeit)
                    .unwrap_or(Reason::TimeForfeit),
            ),
            _ => (None, Reason::Simultaneous),
        };
        self.table_mut().end(losing, reason);
        self.ended();
    }

    /// The flags of `fallen` fell (with other decisive events of the same step).
    fn flags_fell(&mut self, fallen: Vec<usize>, mut decisive: Vec<(usize, Reason)>) {
        let Some(&first) = fallen.first() else {
            return self.judge(decisive);
        };
        if let Some((_, clock)) = &mut self.core.clock {
            clock.flag(&fallen);
        }
        decisive.extend(fallen.iter().map(|&s| (self.team(s), Reason::TimeForfeit)));
        self.event(Event::Flag {
            seat: first,
            seats: fallen,
        });
        self.judge(decisive);
    }

    /// Ends a game of engines only for whoever holds its owner's token.
    fn stop(&mut self, token_hash: &str) -> Result<(), GameError> {
        if self.core.owner_hash.as_deref() != Some(token_hash) {
            return Err(GameError::NotASeat);
        }
        if !self.core.is_live() {
            return Err(GameError::Over);
        }
        self.abort(None, AbortReason::ByOwner);
        Ok(())
    }

    fn abort(&mut self, seat: Option<usize>, reason: AbortReason) {
        self.core.status = GameStatus::Aborted;
        if let Some((_, clock)) = &mut self.core.clock {
            clock.stop_at(self.now);
        }
        self.core.pending = Pending::default();
        self.change.status = Some(GameStatus::Aborted);
        self.event(Event::Abort { seat, reason });
    }

    // ---- time --------------------------------------------------------------------------

    fn tick(&mut self) {
        if !self.core.is_live() || self.table().finished().is_some() {
            return;
        }
        let fallen = self.fallen();
        if !fallen.is_empty() {
            return self.flags_fell(fallen, Vec::new());
        }
        if let Some((_, at)) = self.core.opening_deadline(self.table())
            && self.now >= at
        {
            return self.abort(None, AbortReason::NoFirstMove);
        }
        if self.core.seek_deadline().is_some_and(|at| self.now >= at) {
            return self.abort(None, AbortReason::NobodyCame);
        }
        if let Some(after) = self.core.abandonment_after(self.table()) {
            for seat in 0..self.core.seats.len() {
                let silent = self.core.silent_since(seat);
                if self.core.is_human(seat)
                    && !self.core.pending.gone.contains(&seat)
                    && silent.is_some_and(|since| self.now >= since + after)
                {
                    self.core.pending.gone.insert(seat);
                    self.event(Event::Gone { seat });
                }
            }
        }
    }

    // ---- actions -----------------------------------------------------------------------

    fn act(&mut self, seat: usize, action: &Action, fresh: &Fresh) -> Result<(), GameError> {
        self.core.seat(seat)?;
        if let Err(wait) = self.core.buckets[seat].take(self.now) {
            return Err(GameError::RateLimited(wait));
        }
        // An action is a sign of life (stored with it, or not at all if it is refused).
        self.present(seat);
        match action {
            Action::RematchAccept if self.core.pending.rematch.is_empty() => {
                return Err(GameError::NoOffer("rematch"));
            }
            Action::RematchOffer | Action::RematchAccept => return self.rematch(seat, fresh),
            Action::RematchDecline => {
                if self.core.pending.rematch.is_empty() {
                    return Err(GameError::NoOffer("rematch"));
                }
                self.core.pending.rematch.clear();
                self.event(Event::RematchDecline { seat });
                return Ok(());
            }
            _ => {}
        }
        self.check_live()?;
        if !self.core.started() {
            // Before every seat is claimed, giving up or agreeing to stop ends the game
            // without a result.
            return match action {
                Action::Resign | Action::DrawOffer | Action::DrawAccept | Action::Abort => {
                    self.abort(Some(seat), AbortReason::BeforeStart);
                    Ok(())
                }
                _ => Err(GameError::WaitingForSeats(self.core.open_seats())),
            };
        }
        let fallen = self.fallen();
        if !fallen.is_empty() {
            // A flag fell before the action arrived: it is the step's event, together with
            // a resignation, which counts beside it.
            let decisive = match action {
                Action::Resign if self.teams().len() <= 2 => {
                    self.event(Event::Resign { seat });
                    vec![(self.team(seat), Reason::Resignation)]
                }
                _ => {
                    self.refusal = Some(GameError::Over);
                    Vec::new()
                }
            };
            self.flags_fell(fallen, decisive);
            return Ok(());
        }
        match action {
            Action::Abort => {
                if self.core.begun(self.table()) {
                    return Err(GameError::TooLateToAbort);
                }
                self.abort(Some(seat), AbortReason::ByPlayer);
            }
            Action::Resign => {
                if self.teams().len() > 2 {
                    return Err(GameError::ResignInFavour(self.table().actions()));
                }
                self.event(Event::Resign { seat });
                self.judge(vec![(self.team(seat), Reason::Resignation)]);
            }
            Action::DrawOffer => self.draw(seat, false)?,
            Action::DrawAccept => self.draw(seat, true)?,
            Action::DrawDecline => {
                if self.core.pending.draw.is_empty() {
                    return Err(GameError::NoOffer("draw"));
                }
                self.core.pending.draw.clear();
                self.event(Event::DrawDecline { seat });
            }
            Action::DrawClaim => {
                if self.table().side_to_move() != seat {
                    return Err(GameError::OnlySideToMove);
                }
                if !self.table().can_claim_draw() || !self.table_mut().claim_draw() {
                    return Err(GameError::NoDrawToClaim);
                }
                self.event(Event::DrawClaim { seat });
                self.ended();
            }
            Action::TakebackOffer => self.takeback_offer(seat)?,
            Action::TakebackAccept => match self.core.pending.takeback {
                Some(by) if self.team(by) != self.team(seat) => self.take_back(by)?,
                Some(_) => return Err(GameError::OwnOffer("takeback")),
                None => return Err(GameError::NoOffer("takeback")),
            },
            Action::TakebackDecline => {
                if self.core.pending.takeback.is_none() {
                    return Err(GameError::NoOffer("takeback"));
                }
                self.core.pending.takeback = None;
                self.event(Event::TakebackDecline { seat });
            }
            Action::ActionAccept => match self.core.pending.action.clone() {
                Some(offer) if offer.consent == seat => {
                    self.core.pending.action = None;
                    self.perform(offer.by, &offer.action)?;
                }
                _ => return Err(GameError::NoOffer("action")),
            },
            Action::ActionDecline => match &self.core.pending.action {
                Some(offer) if offer.consent == seat => {
                    self.core.pending.action = None;
                    self.event(Event::ActionDecline { seat });
                }
                _ => return Err(GameError::NoOffer("action")),
            },
            Action::ClaimVictory | Action::CallDraw => self.claim(seat, action)?,
            Action::Ruleset(name) => self.ruleset_action(seat, name)?,
            Action::RematchOffer | Action::RematchAccept | Action::RematchDecline => {}
        }
        Ok(())
    }

    fn draw(&mut self, seat: usize, accept: bool) -> Result<(), GameError> {
        if accept && self.core.pending.draw.is_empty() {
            return Err(GameError::NoOffer("draw"));
        }
        if self.core.seats.iter().any(|s| s.kind != SeatKind::Human) {
            return Err(GameError::EngineDeclinesDraws);
        }
        if !self.core.pending.draw.insert(seat) {
            // One open offer per seat: a repeat changes nothing.
            return Ok(());
        }
        if self.core.pending.draw.len() == self.core.seats.len() {
            self.event(Event::Draw { seat });
            self.judge_draw(Reason::Agreement);
        } else {
            self.event(Event::DrawOffer { seat });
        }
        Ok(())
    }

    fn judge_draw(&mut self, reason: Reason) {
        self.table_mut().end(None, reason);
        self.ended();
    }

    fn takeback_offer(&mut self, seat: usize) -> Result<(), GameError> {
        if !self.core.plies.contains(&seat) {
            return Err(GameError::NoMoveToTakeBack);
        }
        match self.core.pending.takeback {
            Some(by) if by == seat => return Ok(()),
            Some(_) => return Err(GameError::OfferPending("takeback")),
            None => {}
        }
        let team = self.team(seat);
        let others_human =
            (0..self.core.seats.len()).any(|n| self.team(n) != team && self.core.is_human(n));
        if !others_human {
            // The engine always agrees.
            return self.take_back(seat);
        }
        self.core.pending.takeback = Some(seat);
        self.event(Event::TakebackOffer { seat });
        Ok(())
    }

    /// Takes back every move since `seat`'s last turn began.
    fn take_back(&mut self, seat: usize) -> Result<(), GameError> {
        let Some(last) = self.core.plies.iter().rposition(|&m| m == seat) else {
            return Err(GameError::NoMoveToTakeBack);
        };
        // The start of that turn: the earliest of the run of its parts.
        let mut keep = last;
        while keep > 0 && self.core.plies[keep - 1] == seat {
            keep -= 1;
        }
        let table = self.table_mut();
        while table.ply() > keep && table.undo() {}
        self.core.plies.truncate(keep);
        let gone = std::mem::take(&mut self.core.pending.gone);
        self.core.pending = Pending {
            gone,
            ..Pending::default()
        };
        self.change.truncate_to = Some(keep);
        self.event(Event::Takeback { ply: keep });
        // The clocks stay as they are; the seats to move now begin their turns.
        self.restart_turns();
        Ok(())
    }

    fn perform(&mut self, seat: usize, action: &str) -> Result<(), GameError> {
        self.table_mut().perform(action)?;
        self.event(Event::Action {
            seat,
            action: action.to_string(),
        });
        self.ended();
        Ok(())
    }

    fn ruleset_action(&mut self, seat: usize, name: &str) -> Result<(), GameError> {
        let available = self.table().actions();
        let Some(&action) = available.iter().find(|a| **a == name) else {
            return Err(GameError::UnknownAction {
                given: name.chars().take(40).collect(),
                available,
            });
        };
        if self.table().side_to_move() != seat {
            return Err(GameError::OnlySideToMove);
        }
        match self.table().action_consent(action) {
            Some(consent) if self.core.is_human(consent) => {
                if let Some(offer) = &self.core.pending.action {
                    if offer.by == seat && offer.action == action {
                        return Ok(());
                    }
                    return Err(GameError::OfferPending("action"));
                }
                self.core.pending.action = Some(ActionOffer {
                    by: seat,
                    action: action.to_string(),
                    consent,
                });
                self.event(Event::ActionOffer {
                    seat,
                    action: action.to_string(),
                    consent,
                });
                Ok(())
            }
            // The engine consents.
            _ => self.perform(seat, action),
        }
    }

    /// A claim over a game another side left: the win (`claim-victory`) or a draw.
    fn claim(&mut self, seat: usize, action: &Action) -> Result<(), GameError> {
        let team = self.team(seat);
        let gone: Vec<usize> = self
            .core
            .pending
            .gone
            .iter()
            .copied()
            .filter(|&g| self.team(g) != team)
            .collect();
        if self.core.abandonment_after(self.table()).is_none()
            || gone.is_empty()
            || self.core.pending.gone.contains(&seat)
        {
            return Err(GameError::NotAbandoned);
        }
        let (claim, losing) = match action {
            Action::ClaimVictory => ("claim-victory", Some(self.team(gone[0]))),
            _ => ("call-draw", None),
        };
        self.event(Event::Claim { seat, claim, gone });
        self.table_mut().end(losing, Reason::Abandonment);
        self.ended();
        Ok(())
    }

    // ---- rematch -----------------------------------------------------------------------

    fn rematch(&mut self, seat: usize, fresh: &Fresh) -> Result<(), GameError> {
        if self.core.is_live() {
            return Err(GameError::NotOver);
        }
        if let Some(id) = &self.core.rematch {
            return Err(GameError::RematchMade(id.clone()));
        }
        if !self.core.pending.rematch.insert(seat) {
            return Ok(());
        }
        let everyone = (0..self.core.seats.len())
            .filter(|&s| self.core.is_human(s))
            .all(|s| self.core.pending.rematch.contains(&s));
        if !everyone {
            self.event(Event::RematchOffer { seat });
            return Ok(());
        }
        let shift = self.colour_shift();
        let n = self.core.seats.len();
        let moved: Vec<usize> = (0..n).map(|s| (s + shift) % n).collect();
        let mut seats = vec![SeatKind::Human; n];
        let mut tokens = vec![None; n];
        for (old, &new) in moved.iter().enumerate() {
            seats[new] = self.core.seats[old].kind;
            tokens[new] = self.core.seats[old].token_hash.clone();
        }
        let spec = NewGame {
            variant: self.table().variant().id.to_string(),
            options: self.core.options.clone(),
            fen: self.core.fen.clone(),
            clock: self.core.clock.as_ref().map(|(spec, _)| spec.clone()),
            seats,
            me: None,
            listed: self.core.listed,
            creator: self.core.creator.clone(),
            owner_hash: None,
        };
        let mut row = create::new_game(spec, fresh)?;
        for (seat, token) in row.game.seats.iter_mut().zip(tokens) {
            seat.token_hash = token;
        }
        let id = row.game.id.clone();
        self.core.pending.rematch.clear();
        self.core.rematch = Some(id.clone());
        self.change.rematch = Some(Box::new(row));
        self.event(Event::Rematch {
            game: id,
            seats: moved,
        });
        Ok(())
    }

    /// The turn of the seats that gives every player another colour and keeps the teams: the
    /// smallest shift under which partners stay partners (one seat in a two- or three-player
    /// game, two in bughouse, where each player stays on his board).
    fn colour_shift(&self) -> usize {
        let n = self.core.seats.len();
        (1..n)
            .find(|&k| {
                (0..n).all(|a| {
                    (0..n).all(|b| {
                        (self.team(a) == self.team(b))
                            == (self.team((a + k) % n) == self.team((b + k) % n))
                    })
                })
            })
            .unwrap_or(1)
    }
}

/// The teams that lose in a finished game: those whose players all score nothing while
/// someone scores (none in a draw).
fn losing_teams(finished: &Finished, team: impl Fn(usize) -> usize) -> Vec<usize> {
    if finished.quarters.iter().all(|&q| q == finished.quarters[0]) {
        return Vec::new();
    }
    let teams: BTreeSet<usize> = (0..finished.quarters.len()).map(&team).collect();
    teams
        .into_iter()
        .filter(|&t| {
            (0..finished.quarters.len())
                .filter(|&p| team(p) == t)
                .all(|p| finished.quarters[p] == 0)
        })
        .collect()
}
