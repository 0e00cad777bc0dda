//! Game clocks on the server: `rules::clock` driven by the server's monotonic time.
//!
//! Every time control is a `rules::TimeControl`: Fischer (base + increment), byo-yomi (main
//! time, then periods), a fixed time per move (no main time, one period that starts afresh
//! each turn) and correspondence (the same with days). The clock of the player to move runs
//! from the moment the previous turn ended; a turn ends when the player to move changes, so
//! the parts of a compound turn share one turn's time.
//!
//! After a restart the stored times are those at the start of the interrupted turn, and that
//! turn starts again when the game is loaded: the time the server was down is not charged.

use chaturanga_rules::clock::{Clock, PlayerTime, TimeControl};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tokio::time::Instant;

/// Longest time control accepted (a year of main time, 30 days a move).
const MAX_SECONDS: u64 = 366 * 86_400;

/// A time control as a client asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClockSpec {
    /// Base time plus an increment per turn, in seconds.
    Fischer {
        /// Main time.
        base: u64,
        /// Added after each turn.
        #[serde(default)]
        increment: u64,
    },
    /// Main time followed by byo-yomi periods, in seconds.
    Byoyomi {
        /// Main time.
        base: u64,
        /// Length of a period.
        period: u64,
        /// Number of periods.
        #[serde(default = "one")]
        periods: u32,
    },
    /// A fixed time for every turn, in seconds.
    Move {
        /// Seconds per turn.
        seconds: u64,
    },
    /// Correspondence: days per turn.
    Days {
        /// Days per turn.
        days: u64,
    },
}

fn one() -> u32 {
    1
}

impl ClockSpec {
    /// The time control, or why it is refused.
    pub fn control(&self) -> Result<TimeControl, String> {
        let s = Duration::from_secs;
        let check = |n: u64, what: &str| {
            if n > MAX_SECONDS {
                Err(format!("the clock's {what} is too long"))
            } else {
                Ok(n)
            }
        };
        let control = match *self {
            ClockSpec::Fischer { base, increment } => {
                if base == 0 && increment == 0 {
                    return Err("a Fischer clock needs a base or an increment".into());
                }
                TimeControl::fischer(s(check(base, "base")?), s(check(increment, "increment")?))
            }
            ClockSpec::Byoyomi {
                base,
                period,
                periods,
            } => {
                if period == 0 || periods == 0 || periods > 100 {
                    return Err("byo-yomi needs 1-100 periods of at least a second".into());
                }
                TimeControl::byo_yomi(
                    s(check(base, "base")?),
                    s(check(period, "period")?),
                    periods,
                )
            }
            ClockSpec::Move { seconds } => {
                if seconds == 0 {
                    return Err("a time per move must be at least a second".into());
                }
                TimeControl::byo_yomi(Duration::ZERO, s(check(seconds, "time per move")?), 1)
            }
            ClockSpec::Days { days } => {
                if days == 0 || days > 30 {
                    return Err("correspondence takes 1-30 days a move".into());
                }
                TimeControl::byo_yomi(Duration::ZERO, s(days * 86_400), 1)
            }
        };
        Ok(control)
    }
}

/// What the clocks show, stored after every turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredTimes {
    /// Each seat's main time left, in milliseconds.
    pub main_ms: Vec<u64>,
    /// Each seat's byo-yomi periods left.
    pub periods: Vec<u32>,
}

/// The clocks of a live game.
#[derive(Clone, Debug)]
pub struct GameClock {
    clock: Clock,
    /// The seat whose clock runs and since when; `None` while the clocks stand.
    running: Option<(usize, Instant)>,
}

impl GameClock {
    /// Clocks for `players` seats with the control's full time.
    pub fn new(control: TimeControl, players: usize) -> Self {
        GameClock {
            clock: Clock::new(control, players),
            running: None,
        }
    }

    /// Clocks restored from storage.
    pub fn restore(control: TimeControl, stored: &StoredTimes) -> Self {
        let mut clock = Clock::new(control, stored.main_ms.len());
        for (seat, (&main, &periods)) in stored.main_ms.iter().zip(&stored.periods).enumerate() {
            clock.set_time(
                seat,
                PlayerTime {
                    main: Duration::from_millis(main),
                    periods,
                },
            );
        }
        GameClock {
            clock,
            running: None,
        }
    }

    /// The times to store.
    pub fn stored(&self) -> StoredTimes {
        let times: Vec<PlayerTime> = (0..self.clock.players())
            .map(|p| self.clock.time(p))
            .collect();
        StoredTimes {
            main_ms: times.iter().map(|t| t.main.as_millis() as u64).collect(),
            periods: times.iter().map(|t| t.periods).collect(),
        }
    }

    /// Starts `seat`'s clock at `now` (stopping any other).
    pub fn start(&mut self, seat: usize, now: Instant) {
        if seat < self.clock.players() {
            self.running = Some((seat, now));
        }
    }

    /// Stops the clocks.
    pub fn stop(&mut self) {
        self.running = None;
    }

    /// The seat whose clock runs.
    pub fn running(&self) -> Option<usize> {
        self.running.map(|(seat, _)| seat)
    }

    /// When the running clock's flag falls.
    pub fn deadline(&self) -> Option<Instant> {
        self.running
            .map(|(seat, since)| since + self.clock.time_available(seat))
    }

    /// Whether the running seat's flag has fallen by `now`; the seat if so.
    pub fn fallen(&self, now: Instant) -> Option<usize> {
        let (seat, since) = self.running?;
        self.clock
            .flag_falls(seat, now.saturating_duration_since(since))
            .then_some(seat)
    }

    /// Ends the running seat's turn at `now` and starts `next`'s clock; `Err(seat)` if the
    /// running seat's flag had fallen (nothing changes then).
    pub fn pass_turn(&mut self, next: usize, now: Instant) -> Result<(), usize> {
        if let Some((seat, since)) = self.running {
            self.clock
                .complete_turn(seat, now.saturating_duration_since(since))
                .map_err(|f| f.player)?;
        }
        self.start(next, now);
        Ok(())
    }

    /// Each seat's time left at `now` in milliseconds (the running one counting down), and
    /// byo-yomi periods left.
    pub fn show(&self, now: Instant) -> Vec<(u64, u32, bool)> {
        (0..self.clock.players())
            .map(|seat| {
                let t = self.clock.time(seat);
                match self.running {
                    Some((running, since)) if running == seat => {
                        let left = self
                            .clock
                            .remaining(seat, now.saturating_duration_since(since));
                        (left.as_millis() as u64, t.periods, true)
                    }
                    _ => (
                        self.clock.time_available(seat).as_millis() as u64,
                        t.periods,
                        false,
                    ),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_time_per_move_starts_afresh_each_turn() {
        let control = ClockSpec::Move { seconds: 10 }.control().unwrap();
        let mut clock = GameClock::new(control, 2);
        let t0 = Instant::now();
        clock.start(0, t0);
        clock.pass_turn(1, t0 + Duration::from_secs(9)).unwrap();
        clock.pass_turn(0, t0 + Duration::from_secs(18)).unwrap();
        assert_eq!(clock.show(t0 + Duration::from_secs(18))[0].0, 10_000);
        assert_eq!(clock.fallen(t0 + Duration::from_secs(28)), Some(0));
        assert_eq!(clock.pass_turn(1, t0 + Duration::from_secs(29)), Err(0));
    }

    #[test]
    fn fischer_times_are_stored_and_restored() {
        let control = ClockSpec::Fischer {
            base: 60,
            increment: 2,
        }
        .control()
        .unwrap();
        let mut clock = GameClock::new(control, 2);
        let t0 = Instant::now();
        clock.start(0, t0);
        clock.pass_turn(1, t0 + Duration::from_secs(10)).unwrap();
        let stored = clock.stored();
        assert_eq!(stored.main_ms, vec![52_000, 60_000]);
        let restored = GameClock::restore(control, &stored);
        assert_eq!(restored.stored(), stored);
        assert!(ClockSpec::Days { days: 0 }.control().is_err());
        assert!(
            ClockSpec::Fischer {
                base: 0,
                increment: 0
            }
            .control()
            .is_err()
        );
    }
}
