//! The clocks of a match game and how each protocol is told about them.

use chaturanga_engine::{Clock, Limits};
use std::time::{Duration, Instant};

/// A match's time control, the same for both players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time for every move.
    PerMove(Duration),
    /// A base time and an increment after every move (`10+0.1`).
    Fischer {
        /// Time at the start.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// `moves` moves in `base`, repeating (`40/60`).
    Sessions {
        /// Moves per session.
        moves: u32,
        /// Time per session.
        base: Duration,
    },
}

impl std::fmt::Display for TimeControl {
    /// The form [`TimeControl::parse`] reads (PGN's form for clocks: `10+0.1`, `40/60`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TimeControl::PerMove(t) => write!(f, "st={}", t.as_secs_f64()),
            TimeControl::Fischer { base, increment } => {
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::Sessions { moves, base } => write!(f, "{moves}/{}", base.as_secs_f64()),
        }
    }
}

/// Longest time control accepted, in seconds.
const MAX_SECONDS: f64 = 86_400.0;

fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= MAX_SECONDS)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| {
            format!(
                "bad seconds {:?}",
                text.chars().take(20).collect::<String>()
            )
        })
}

impl TimeControl {
    /// Reads `B+I` (seconds), `M/B` (moves per seconds) or `st=S` (seconds per move).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        if let Some(per_move) = text.strip_prefix("st=") {
            let t = seconds(per_move)?;
            if t.is_zero() {
                return Err("time per move must be above 0".to_string());
            }
            return Ok(TimeControl::PerMove(t));
        }
        if let Some((moves, base)) = text.split_once('/') {
            let moves = moves
                .parse::<u32>()
                .ok()
                .filter(|&m| (1..=1000).contains(&m))
                .ok_or("moves per session must be 1 to 1000")?;
            let base = seconds(base)?;
            if base.is_zero() {
                return Err("session time must be above 0".to_string());
            }
            return Ok(TimeControl::Sessions { moves, base });
        }
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let (base, increment) = (seconds(base)?, seconds(increment)?);
        if base.is_zero() {
            return Err("base time must be above 0".to_string());
        }
        Ok(TimeControl::Fischer { base, increment })
    }

    /// Time on each clock at the start.
    fn initial(&self) -> Duration {
        match *self {
            TimeControl::PerMove(t) => t,
            TimeControl::Fischer { base, .. } => base,
            TimeControl::Sessions { base, .. } => base,
        }
    }

    /// `level` (or `st`) for XBoard engines.
    pub fn xboard_level(&self) -> String {
        let clock = |d: Duration| {
            let s = d.as_secs();
            format!("{}:{:02}", s / 60, s % 60)
        };
        match *self {
            TimeControl::PerMove(t) => format!("st {}", t.as_secs().max(1)),
            TimeControl::Fischer { base, increment } => {
                format!("level 0 {} {}", clock(base), increment.as_secs_f64())
            }
            TimeControl::Sessions { moves, base } => format!("level {moves} {} 0", clock(base)),
        }
    }

    /// GNU Shogi's `level MOVES MINUTES[:SECONDS]`.
    pub fn gnushogi_level(&self) -> String {
        let clock = |d: Duration| {
            let s = d.as_secs();
            format!("{}:{:02}", s / 60, s % 60)
        };
        match *self {
            // A move per session of the move's time; its clock counts in seconds.
            TimeControl::PerMove(t) => format!("level 1 {}", clock(t.max(Duration::from_secs(1)))),
            // GNU Shogi has no increment: the same time spread over a long session.
            TimeControl::Fischer { base, increment } => {
                format!("level 100 {}", clock(base + increment * 100))
            }
            TimeControl::Sessions { moves, base } => format!("level {moves} {}", clock(base)),
        }
    }
}

/// Both players' clocks during a game.
#[derive(Clone, Debug)]
pub struct Clocks {
    control: TimeControl,
    remaining: [Duration; 2],
    moves_made: [u32; 2],
    /// Grace beyond the clock before a flag counts (process start-up, pipes).
    margin: Duration,
    started: Option<Instant>,
}

impl Clocks {
    /// Fresh clocks.
    pub fn new(control: TimeControl, margin: Duration) -> Self {
        Clocks {
            control,
            remaining: [control.initial(); 2],
            moves_made: [0; 2],
            margin,
            started: None,
        }
    }

    /// Starts the mover's clock.
    pub fn start(&mut self) {
        self.started = Some(Instant::now());
    }

    /// Stops the mover's clock; `false` when the flag fell.
    pub fn stop(&mut self, mover: usize) -> bool {
        let used = self.started.take().map_or(Duration::ZERO, |t| t.elapsed());
        let side = mover.min(1);
        match self.control {
            TimeControl::PerMove(t) => used <= t + self.margin,
            TimeControl::Fischer { increment, .. } => {
                let ok = used <= self.remaining[side] + self.margin;
                self.remaining[side] = self.remaining[side].saturating_sub(used) + increment;
                ok
            }
            TimeControl::Sessions { moves, base } => {
                let ok = used <= self.remaining[side] + self.margin;
                self.remaining[side] = self.remaining[side].saturating_sub(used);
                self.moves_made[side] += 1;
                if self.moves_made[side].is_multiple_of(moves) {
                    self.remaining[side] += base;
                }
                ok
            }
        }
    }

    /// When the mover's flag falls (with the margin), for waiting on an engine.
    pub fn deadline(&self, mover: usize) -> Instant {
        let start = self.started.unwrap_or_else(Instant::now);
        let allowed = match self.control {
            TimeControl::PerMove(t) => t,
            _ => self.remaining[mover.min(1)],
        };
        start + allowed + self.margin
    }

    fn moves_to_go(&self, side: usize) -> Option<u32> {
        match self.control {
            TimeControl::Sessions { moves, .. } => Some(moves - self.moves_made[side] % moves),
            _ => None,
        }
    }

    fn increment(&self) -> Duration {
        match self.control {
            TimeControl::Fischer { increment, .. } => increment,
            _ => Duration::ZERO,
        }
    }

    /// Our engine's limits for the mover.
    pub fn limits_for(&self, mover: usize) -> Limits {
        let side = mover.min(1);
        match self.control {
            TimeControl::PerMove(t) => Limits {
                move_time: Some(t),
                ..Limits::default()
            },
            _ => Limits {
                clock: Some(Clock {
                    remaining: self.remaining[side],
                    // Our budget adds the increment itself; the clock shows it already
                    // included, as UCI GUIs do.
                    increment: self.increment(),
                    moves_to_go: self.moves_to_go(side),
                    byoyomi: Duration::ZERO,
                }),
                overhead: Duration::from_millis(20),
                ..Limits::default()
            },
        }
    }

    /// UCI's (or USI's, `usi`) `go` command for the clocks.
    pub fn go_command(&self, usi: bool) -> String {
        let ms = |d: Duration| d.as_millis();
        let (first, second) = if usi { ("b", "w") } else { ("w", "b") };
        match self.control {
            TimeControl::PerMove(t) if usi => format!("go byoyomi {}", ms(t)),
            TimeControl::PerMove(t) => format!("go movetime {}", ms(t)),
            _ => {
                let mut text = format!(
                    "go {first}time {} {second}time {} {first}inc {} {second}inc {}",
                    ms(self.remaining[0]),
                    ms(self.remaining[1]),
                    ms(self.increment()),
                    ms(self.increment())
                );
                if let Some(n) = self.moves_to_go(0) {
                    text.push_str(&format!(" movestogo {n}"));
                }
                text
            }
        }
    }

    /// XBoard's `time` and `otim` (centiseconds) for the mover; none with a fixed time per
    /// move.
    pub fn xboard_time(&self, mover: usize) -> Option<String> {
        let side = mover.min(1);
        let cs = |d: Duration| d.as_millis() / 10;
        match self.control {
            TimeControl::PerMove(_) => None,
            _ => Some(format!(
                "time {}\notim {}",
                cs(self.remaining[side]),
                cs(self.remaining[1 - side])
            )),
        }
    }

    /// Time left on a clock.
    #[cfg(test)]
    pub fn remaining(&self, side: usize) -> Duration {
        self.remaining[side.min(1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            TimeControl::parse("10+0.1"),
            Ok(TimeControl::Fischer {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            })
        );
        assert_eq!(
            TimeControl::parse("40/60"),
            Ok(TimeControl::Sessions {
                moves: 40,
                base: Duration::from_secs(60)
            })
        );
        assert_eq!(
            TimeControl::parse("st=0.5"),
            Ok(TimeControl::PerMove(Duration::from_millis(500)))
        );
        for bad in [
            "", "x", "0+0", "0+1", "-1+1", "0/10", "40/0", "st=0", "1e9+1", "NaN",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn sessions_refill_after_their_moves() {
        let mut clocks = Clocks::new(
            TimeControl::Sessions {
                moves: 2,
                base: Duration::from_secs(60),
            },
            Duration::ZERO,
        );
        assert_eq!(clocks.moves_to_go(0), Some(2));
        clocks.start();
        assert!(clocks.stop(0));
        assert_eq!(clocks.moves_to_go(0), Some(1));
        clocks.start();
        assert!(clocks.stop(0));
        assert_eq!(clocks.moves_to_go(0), Some(2));
        assert!(clocks.remaining(0) > Duration::from_secs(119));
    }

    #[test]
    fn protocol_texts_name_the_right_clocks() {
        let mut clocks = Clocks::new(
            TimeControl::Fischer {
                base: Duration::from_secs(10),
                increment: Duration::from_secs(1),
            },
            Duration::ZERO,
        );
        clocks.remaining[1] = Duration::from_secs(5);
        assert_eq!(
            clocks.go_command(false),
            "go wtime 10000 btime 5000 winc 1000 binc 1000"
        );
        assert_eq!(
            clocks.go_command(true),
            "go btime 10000 wtime 5000 binc 1000 winc 1000"
        );
        assert_eq!(
            clocks.xboard_time(1).as_deref(),
            Some("time 500\notim 1000")
        );
        assert_eq!(
            TimeControl::parse("90+0.5").unwrap().xboard_level(),
            "level 0 1:30 0.5"
        );
    }
}
