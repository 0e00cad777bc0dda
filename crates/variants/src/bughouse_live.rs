//! A bughouse game played live: the rules file's real-time mode with four game clocks, and the
//! turn-based mode with its per-slot deadline.
//!
//! The driver never reads real time. Every call carries a timestamp (time since the game
//! started, never going back), and each call is one *processing step* in the rules file's
//! sense: the step first sees which flags have fallen by its timestamp, then applies what
//! arrived (a move, a resignation, a draw agreement, or nothing for a plain [`LiveGame::tick`]).
//! All decisive events of one step are judged together: if they make both teams lose (two
//! flags of opposite teams, a mate and the mating team's flag, ...) the game is drawn
//! ([`Reason::Simultaneous`]); otherwise the one team they name loses. Events of different
//! steps are decided in the order of the steps, so a server that wants flags to be seen as they
//! fall calls [`LiveGame::tick`] often; [`LiveGame::next_flag`] says when the next one can fall.
//!
//! Real-time mode: both White clocks start at time zero; on each board the clock of the side to
//! move runs, also while that player waits for a piece, and a move stops it (with the
//! increment) and starts the opponent's. A flag loses for the team whatever material is left
//! (the rules file: no insufficient-material exception). Turn-based mode: the seat whose slot
//! it is must act within the deadline from the moment the slot began, or the team loses;
//! automatic passes take no time; the third occurrence of the combined position draws.

use crate::bughouse::{
    BughousePosition, Timing, seat, slot_deadline, team, team_loss, time_control,
};
use chaturanga_rules::clock::{Clock, TimeControl};
use chaturanga_rules::outcome::{Outcome, Reason};
use chaturanga_rules::standard::Move;
use chaturanga_rules::{MoveError, Position, RuleOptions, Ruleset, SetupError};
use std::collections::HashMap;
use std::fmt;
use std::time::Duration;

/// A move as it arrived: on which board, when, and the mover's clock after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedMove {
    /// 0 = board A, 1 = board B.
    pub board: usize,
    /// The move on that board.
    pub mv: Move,
    /// When it arrived (time since the start).
    pub at: Duration,
    /// Real-time mode: the mover's time left after the move, increment included.
    pub clock: Option<Duration>,
}

/// Why the driver refused a call. A refused call changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveError {
    /// The game has ended.
    GameOver(Outcome),
    /// A timestamp earlier than the previous step's.
    TimeWentBack {
        /// The previous step's timestamp.
        last: Duration,
        /// The timestamp given.
        given: Duration,
    },
    /// No such board (0 = A, 1 = B) or seat (0-3).
    NoSuch(String),
    /// Turn-based mode: the move is not for the board whose slot it is.
    NotThisSlot {
        /// The board the move was for.
        board: usize,
        /// The seat whose slot it is.
        slot: usize,
    },
    /// The move is not legal (or not readable) on its board.
    Move(MoveError),
}

impl fmt::Display for LiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LiveError::GameOver(o) => write!(f, "the game is over: {o}"),
            LiveError::TimeWentBack { last, given } => write!(
                f,
                "timestamp {:.3} s is before the previous one, {:.3} s",
                given.as_secs_f64(),
                last.as_secs_f64()
            ),
            LiveError::NoSuch(what) => write!(f, "no {what}"),
            LiveError::NotThisSlot { board, slot } => write!(
                f,
                "it is seat {}'s slot, not a move on board {}",
                slot + 1,
                ["A", "B"][board % 2]
            ),
            LiveError::Move(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LiveError {}

/// What arrived in one processing step.
enum Arrival<'a> {
    Nothing,
    Move { board: usize, text: &'a str },
    Resign(usize),
    AgreeDraw(usize),
}

/// A bughouse game in progress with its clocks (see the module documentation).
#[derive(Clone, Debug)]
pub struct LiveGame {
    start: BughousePosition,
    position: BughousePosition,
    clock: Clock,
    deadline: Duration,
    /// When the running clock of each board started (real-time mode).
    started: [Duration; 2],
    /// When the current slot began (turn-based mode).
    slot_started: Duration,
    now: Duration,
    moves: Vec<TimedMove>,
    agreed: [bool; 4],
    /// Turn-based mode: how often each combined position occurred.
    seen: HashMap<u64, u8>,
}

impl LiveGame {
    /// A game from the start position under `options` (`timing`, `clock`, `slot-deadline`).
    pub fn new(options: &RuleOptions) -> Result<Self, SetupError> {
        let start = BughousePosition::start_position(options)?;
        Ok(Self::from_position(
            start,
            time_control(options),
            slot_deadline(options),
        ))
    }

    /// A game from `position` (its timing mode decides which rules apply) with every seat's
    /// clock at `control`'s full time, and `deadline` per turn-based slot.
    pub fn from_position(
        position: BughousePosition,
        control: TimeControl,
        deadline: Duration,
    ) -> Self {
        let mut seen = HashMap::new();
        if position.timing() == Timing::TurnBased {
            seen.insert(position.hash(), 1);
        }
        LiveGame {
            start: position.clone(),
            position,
            clock: Clock::new(control, 4),
            deadline,
            started: [Duration::ZERO; 2],
            slot_started: Duration::ZERO,
            now: Duration::ZERO,
            moves: Vec::new(),
            agreed: [false; 4],
            seen,
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &BughousePosition {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &BughousePosition {
        &self.position
    }

    /// The moves played so far, in the order they arrived.
    pub fn moves(&self) -> &[TimedMove] {
        &self.moves
    }

    /// The time control of the four clocks.
    pub fn control(&self) -> TimeControl {
        self.clock.control()
    }

    /// The result, once the game has ended.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.position.outcome()
    }

    /// The timestamp of the last processing step.
    pub fn now(&self) -> Duration {
        self.now
    }

    /// The seats whose clocks run (real time: the side to move on each board; turn-based: the
    /// seat whose slot it is). Empty once the game is over.
    pub fn running(&self) -> Vec<usize> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        match self.position.timing() {
            Timing::RealTime => (0..2)
                .map(|b| seat(b, self.position.boards()[b].turn() as usize))
                .collect(),
            Timing::TurnBased => vec![self.position.slot()],
        }
    }

    /// How long `seat` may still think at time `at`: for a running clock its time left after
    /// the time spent on this turn; otherwise the time it will have when its turn comes
    /// (turn-based mode: the full deadline).
    pub fn remaining(&self, seat: usize, at: Duration) -> Result<Duration, LiveError> {
        if seat >= 4 {
            return Err(LiveError::NoSuch(format!("seat {seat}")));
        }
        let running = self.running().contains(&seat);
        Ok(match self.position.timing() {
            Timing::RealTime if running => {
                let spent = at.saturating_sub(self.started[seat % 2]);
                self.clock.remaining(seat, spent)
            }
            Timing::RealTime => self.clock.time_available(seat),
            Timing::TurnBased if running => self
                .deadline
                .saturating_sub(at.saturating_sub(self.slot_started)),
            Timing::TurnBased => self.deadline,
        })
    }

    /// The earliest time at which a running clock can run out, if the game goes on.
    pub fn next_flag(&self) -> Option<Duration> {
        self.running()
            .into_iter()
            .map(|s| match self.position.timing() {
                Timing::RealTime => {
                    self.started[s % 2].saturating_add(self.clock.time_available(s))
                }
                Timing::TurnBased => self.slot_started.saturating_add(self.deadline),
            })
            .min()
    }

    /// A processing step without an arrival: registers the flags that have fallen by `at`.
    /// Returns the result if the game ended in this step.
    pub fn tick(&mut self, at: Duration) -> Result<Option<Outcome>, LiveError> {
        self.step(at, Arrival::Nothing)
    }

    /// A move (coordinate notation, `N@e4` for drops) arriving at `at` for whoever is to move
    /// on `board` (0 = A, 1 = B); turn-based mode accepts it only on the slot's board. The
    /// flags that have fallen by `at` are registered in the same step; the mover's own fallen
    /// flag voids the move. Returns the result if the game ended in this step.
    pub fn play(
        &mut self,
        board: usize,
        text: &str,
        at: Duration,
    ) -> Result<Option<Outcome>, LiveError> {
        self.step(at, Arrival::Move { board, text })
    }

    /// `seat` resigns at `at`: its team loses (unless the same step also makes the other team
    /// lose, which draws).
    pub fn resign(&mut self, seat: usize, at: Duration) -> Result<Option<Outcome>, LiveError> {
        self.step(at, Arrival::Resign(seat))
    }

    /// `seat` agrees to a draw at `at`; the game is drawn when all four have agreed with no
    /// move in between and no decisive event in the step.
    pub fn agree_draw(&mut self, seat: usize, at: Duration) -> Result<Option<Outcome>, LiveError> {
        self.step(at, Arrival::AgreeDraw(seat))
    }

    /// The seats whose time has run out at `at` (before anything arrives in that step).
    fn fallen_flags(&self, at: Duration) -> Vec<usize> {
        self.running()
            .into_iter()
            .filter(|&s| match self.position.timing() {
                Timing::RealTime => self.clock.flag_falls(s, at - self.started[s % 2]),
                Timing::TurnBased => at - self.slot_started >= self.deadline,
            })
            .collect()
    }

    fn step(&mut self, at: Duration, arrival: Arrival<'_>) -> Result<Option<Outcome>, LiveError> {
        if let Some(o) = self.outcome() {
            return Err(LiveError::GameOver(o.clone()));
        }
        if at < self.now {
            return Err(LiveError::TimeWentBack {
                last: self.now,
                given: at,
            });
        }
        let flags = self.fallen_flags(at);
        // Everything is checked before anything changes, so a refused call changes nothing.
        let mut next = self.position.clone();
        let mut played = None;
        match arrival {
            Arrival::Nothing => {}
            Arrival::Resign(s) | Arrival::AgreeDraw(s) if s >= 4 => {
                return Err(LiveError::NoSuch(format!("seat {s}")));
            }
            Arrival::Resign(_) | Arrival::AgreeDraw(_) => {}
            Arrival::Move { board, .. } if board >= 2 => {
                return Err(LiveError::NoSuch(format!("board {board}")));
            }
            Arrival::Move { board, text } => {
                if next.timing() == Timing::TurnBased && next.slot() % 2 != board {
                    return Err(LiveError::NotThisSlot {
                        board,
                        slot: next.slot(),
                    });
                }
                let mover = seat(board, next.boards()[board].turn() as usize);
                let mv = next.play_on_board(board, text).map_err(LiveError::Move)?;
                if !flags.contains(&mover) {
                    played = Some((board, mover, mv));
                } else {
                    next = self.position.clone();
                }
            }
        }
        self.now = at;
        // Decisive events of this step, as (losing team, reason).
        let mut events: Vec<(usize, Reason)> = flags
            .iter()
            .map(|&s| (team(s), Reason::TimeForfeit))
            .collect();
        if let Some((board, mover, mv)) = played {
            self.position = next;
            let clock = match self.position.timing() {
                Timing::RealTime => {
                    let spent = at - self.started[board];
                    // The mover's flag has not fallen (checked above), so this cannot fail.
                    let _ = self.clock.complete_turn(mover, spent);
                    self.started[board] = at;
                    Some(self.clock.time_available(mover))
                }
                Timing::TurnBased => {
                    self.slot_started = at;
                    None
                }
            };
            self.moves.push(TimedMove {
                board,
                mv,
                at,
                clock,
            });
            self.agreed = [false; 4];
            if let Some(o) = self.position.outcome() {
                // A mate (or the turn-based no-progress end) ended the game at once.
                events.extend(losing_teams(o).into_iter().map(|t| (t, o.reason)));
                if losing_teams(o).is_empty() && events.is_empty() {
                    return Ok(Some(o.clone()));
                }
            }
            if self.position.timing() == Timing::TurnBased && self.position.outcome().is_none() {
                let n = self.seen.entry(self.position.hash()).or_insert(0);
                *n += 1;
                if *n >= 3 && events.is_empty() {
                    let o = Outcome::draw(4, Reason::ThreefoldRepetition);
                    self.position.end(o.clone());
                    return Ok(Some(o));
                }
            }
        }
        match arrival {
            Arrival::Resign(s) => events.push((team(s), Reason::Resignation)),
            Arrival::AgreeDraw(s) => self.agreed[s] = true,
            _ => {}
        }
        let outcome = if events.is_empty() {
            if self.agreed == [true; 4] {
                Outcome::draw(4, Reason::Agreement)
            } else {
                return Ok(None);
            }
        } else if events.iter().any(|e| e.0 == 0) && events.iter().any(|e| e.0 == 1) {
            Outcome::draw(4, Reason::Simultaneous)
        } else {
            // One team loses; a mate or resignation names the reason before a flag.
            let reason = events
                .iter()
                .map(|e| e.1)
                .find(|&r| r != Reason::TimeForfeit)
                .unwrap_or(Reason::TimeForfeit);
            team_loss(events[0].0, reason)
        };
        self.position.end(outcome.clone());
        Ok(Some(outcome))
    }
}

/// The teams that lose in `outcome` (none for a draw). Seat 0 is in team 0, seat 1 in team 1.
fn losing_teams(outcome: &Outcome) -> Vec<usize> {
    (0..2)
        .filter(|&t| outcome.quarters.get(t) == Some(&0) && outcome.quarters.contains(&4))
        .collect()
}
