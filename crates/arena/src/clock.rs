//! The clocks of a match game, on `rules::clock`, and how each protocol is told about them.
//!
//! A match's time control is a [`TimeControl`] of the rules crate, read from the command
//! line's forms: `B+I` (base and increment in seconds), `M/B` (`M` moves in `B` seconds,
//! repeating) and `st=S` (`S` seconds for every move). [`Clocks`] runs it on real time for
//! every player, with a margin for process start-up and pipes before a flag counts.

use chaturanga_engine::{Clock as SearchClock, Limits};
use chaturanga_rules::clock::{Clock, TimeControl};
use std::fmt;
use std::time::{Duration, Instant};

/// Longest time control accepted, in seconds.
const MAX_SECONDS: f64 = 86_400.0;
/// Most moves of a session.
const MAX_SESSION_MOVES: u32 = 1000;

/// Why a time control text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// Not a number of seconds from 0 to a day.
    Seconds(String),
    /// A time that must be above zero is zero (`st=0`, `0+1`, `40/0`).
    Zero(&'static str),
    /// The moves of a session are not 1 to 1000.
    SessionMoves(String),
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::Seconds(text) => write!(f, "bad seconds {text:?}"),
            TimeControlError::Zero(what) => write!(f, "{what} must be above 0"),
            TimeControlError::SessionMoves(text) => write!(
                f,
                "moves per session must be 1 to {MAX_SESSION_MOVES}, not {text:?}"
            ),
        }
    }
}

impl std::error::Error for TimeControlError {}

fn excerpt(text: &str) -> String {
    text.chars().take(20).collect()
}

fn seconds(text: &str) -> Result<Duration, TimeControlError> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= MAX_SECONDS)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| TimeControlError::Seconds(excerpt(text)))
}

/// Reads `B+I` (seconds; `B` alone has no increment), `M/B` (moves per seconds, repeating)
/// or `st=S` (seconds per move).
pub fn parse_time_control(text: &str) -> Result<TimeControl, TimeControlError> {
    if let Some(per_move) = text.strip_prefix("st=") {
        let t = seconds(per_move)?;
        if t.is_zero() {
            return Err(TimeControlError::Zero("time per move"));
        }
        return Ok(TimeControl::per_move(t));
    }
    if let Some((moves, base)) = text.split_once('/') {
        let moves = moves
            .parse::<u32>()
            .ok()
            .filter(|m| (1..=MAX_SESSION_MOVES).contains(m))
            .ok_or_else(|| TimeControlError::SessionMoves(excerpt(moves)))?;
        let base = seconds(base)?;
        if base.is_zero() {
            return Err(TimeControlError::Zero("session time"));
        }
        return Ok(TimeControl::sessions(moves, base));
    }
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let (base, increment) = (seconds(base)?, seconds(increment)?);
    if base.is_zero() {
        return Err(TimeControlError::Zero("base time"));
    }
    Ok(TimeControl::fischer(base, increment))
}

/// A time control in the form [`parse_time_control`] reads, which is also PGN's form of the
/// `TimeControl` tag for clocks (`10+0.1`, `40/60`).
pub fn time_control_text(control: &TimeControl) -> String {
    if let Some(t) = control.fixed_per_move() {
        return format!("st={}", t.as_secs_f64());
    }
    match control.moves_per_session {
        Some(moves) => format!("{moves}/{}", control.base.as_secs_f64()),
        None => format!(
            "{}+{}",
            control.base.as_secs_f64(),
            control.increment.as_secs_f64()
        ),
    }
}

/// `m:ss`, as XBoard's and GNU Shogi's `level` write a base time.
fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// `level` (or `st`) for XBoard engines.
pub fn xboard_level(control: &TimeControl) -> String {
    match control.fixed_per_move() {
        Some(t) => format!("st {}", t.as_secs().max(1)),
        None => format!(
            "level {} {} {}",
            control.moves_per_session.unwrap_or(0),
            minutes(control.base),
            control.increment.as_secs_f64()
        ),
    }
}

/// GNU Shogi's `level MOVES MINUTES[:SECONDS]`.
pub fn gnushogi_level(control: &TimeControl) -> String {
    match (control.fixed_per_move(), control.moves_per_session) {
        // A move per session of the move's time; its clock counts in seconds.
        (Some(t), _) => format!("level 1 {}", minutes(t.max(Duration::from_secs(1)))),
        (None, Some(moves)) => format!("level {moves} {}", minutes(control.base)),
        // GNU Shogi has no increment: the same time spread over a long session.
        (None, None) => format!(
            "level 100 {}",
            minutes(control.base + control.increment * 100)
        ),
    }
}

/// Every player's clock during a game, on real time. Each side may have its own control
/// (time odds); all are then of the same kind.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Side `s` keeps its time in `clocks[s]`, a one-player clock.
    clocks: Vec<Clock>,
    /// Grace beyond the clock before a flag counts (process start-up, pipes).
    margin: Duration,
    started: Option<Instant>,
}

impl Clocks {
    /// Fresh clocks for two sides, both under `control`.
    pub fn new(control: TimeControl, margin: Duration) -> Self {
        Clocks::with_odds(&[control, control], margin)
    }

    /// Fresh clocks, one per side, each side under its own control.
    pub fn with_odds(controls: &[TimeControl], margin: Duration) -> Self {
        Clocks {
            clocks: controls.iter().map(|&c| Clock::new(c, 1)).collect(),
            margin,
            started: None,
        }
    }

    fn side(&self, side: usize) -> usize {
        side.min(self.clocks.len() - 1)
    }

    fn control(&self, side: usize) -> TimeControl {
        self.clocks[self.side(side)].control()
    }

    /// Starts the mover's clock.
    pub fn start(&mut self) {
        self.started = Some(Instant::now());
    }

    fn available(&self, side: usize) -> Duration {
        self.clocks[self.side(side)].time_available(0)
    }

    /// Stops the mover's clock; `false` when the flag fell (beyond the margin).
    pub fn stop(&mut self, mover: usize) -> bool {
        let used = self.started.take().map_or(Duration::ZERO, |t| t.elapsed());
        let side = self.side(mover);
        let available = self.available(side);
        let in_time = used <= available + self.margin;
        // A move within the margin is charged as if made at the last moment.
        let charged = used.min(available.saturating_sub(Duration::from_nanos(1)));
        let _ = self.clocks[side].complete_turn(0, charged);
        in_time
    }

    /// When the mover's flag falls (with the margin), for waiting on an engine.
    pub fn deadline(&self, mover: usize) -> Instant {
        let start = self.started.unwrap_or_else(Instant::now);
        start + self.available(mover) + self.margin
    }

    /// Main time left on a clock.
    fn remaining(&self, side: usize) -> Duration {
        self.clocks[self.side(side)].time(0).main
    }

    fn moves_to_go(&self, side: usize) -> Option<u32> {
        self.clocks[self.side(side)].moves_to_go(0)
    }

    /// Our engine's limits for the mover.
    pub fn limits_for(&self, mover: usize) -> Limits {
        let control = self.control(mover);
        match control.fixed_per_move() {
            Some(t) => Limits {
                move_time: Some(t),
                ..Limits::default()
            },
            None => Limits {
                clock: Some(SearchClock {
                    remaining: self.remaining(mover),
                    // Our budget adds the increment itself; the clock shows it already
                    // included, as UCI GUIs do.
                    increment: control.increment,
                    moves_to_go: self.moves_to_go(mover),
                    byoyomi: control.byo_yomi.map_or(Duration::ZERO, |b| b.period),
                }),
                overhead: Duration::from_millis(20),
                ..Limits::default()
            },
        }
    }

    /// UCI's (or USI's, `usi`) `go` command for the mover's clocks.
    ///
    /// The protocols name two clocks, the first player's and the second's. With more players
    /// the second field carries the mover's own clock whenever the mover is not the first
    /// player (Chaturanga's UCI reads the second field for every later player).
    pub fn go_command(&self, mover: usize, usi: bool) -> String {
        let ms = |d: Duration| d.as_millis();
        let (first, second) = if usi { ("b", "w") } else { ("w", "b") };
        let control = self.control(mover);
        let other = if mover == 0 { 1 } else { mover };
        match control.fixed_per_move() {
            Some(t) if usi => format!("go byoyomi {}", ms(t)),
            Some(t) => format!("go movetime {}", ms(t)),
            None => {
                let mut text = format!(
                    "go {first}time {} {second}time {} {first}inc {} {second}inc {}",
                    ms(self.remaining(0)),
                    ms(self.remaining(other)),
                    ms(self.control(0).increment),
                    ms(self.control(other).increment)
                );
                if let Some(n) = self.moves_to_go(mover) {
                    text.push_str(&format!(" movestogo {n}"));
                }
                if let (true, Some(b)) = (usi, control.byo_yomi) {
                    text.push_str(&format!(" byoyomi {}", ms(b.period)));
                }
                text
            }
        }
    }

    /// XBoard's `time` and `otim` (centiseconds) for the mover (`otim`: the next player's);
    /// none with a fixed time per move.
    pub fn xboard_time(&self, mover: usize) -> Option<String> {
        let side = self.side(mover);
        let next = (side + 1) % self.clocks.len();
        let cs = |d: Duration| d.as_millis() / 10;
        match self.control(side).fixed_per_move() {
            Some(_) => None,
            None => Some(format!(
                "time {}\notim {}",
                cs(self.remaining(side)),
                cs(self.remaining(next))
            )),
        }
    }
}

/// Whether two controls may face each other in one game: a fixed time per move on one side
/// and a running clock on the other cannot be told to an engine in one `go` command.
pub fn same_kind(a: &TimeControl, b: &TimeControl) -> bool {
    a.fixed_per_move().is_some() == b.fixed_per_move().is_some()
        && a.moves_per_session.is_some() == b.moves_per_session.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_print() {
        assert_eq!(
            parse_time_control("10+0.1"),
            Ok(TimeControl::fischer(
                Duration::from_secs(10),
                Duration::from_millis(100)
            ))
        );
        assert_eq!(
            parse_time_control("40/60"),
            Ok(TimeControl::sessions(40, Duration::from_secs(60)))
        );
        assert_eq!(
            parse_time_control("st=0.5"),
            Ok(TimeControl::per_move(Duration::from_millis(500)))
        );
        for text in ["10+0.1", "40/60", "st=0.5", "90+0"] {
            let control = parse_time_control(text).unwrap();
            assert_eq!(time_control_text(&control), text);
        }
        assert_eq!(time_control_text(&parse_time_control("5").unwrap()), "5+0");
        for bad in [
            "", "x", "0+0", "0+1", "-1+1", "0/10", "40/0", "st=0", "1e9+1", "NaN",
        ] {
            assert!(parse_time_control(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn sessions_refill_after_their_moves() {
        let mut clocks = Clocks::new(
            TimeControl::sessions(2, Duration::from_secs(60)),
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
    fn a_move_within_the_margin_is_in_time() {
        let mut clocks = Clocks::new(
            TimeControl::per_move(Duration::from_millis(1)),
            Duration::from_secs(60),
        );
        clocks.start();
        std::thread::sleep(Duration::from_millis(5));
        assert!(clocks.stop(0));
        assert_eq!(
            clocks.limits_for(0).move_time,
            Some(Duration::from_millis(1))
        );
        let mut strict = Clocks::new(
            TimeControl::per_move(Duration::from_millis(1)),
            Duration::ZERO,
        );
        strict.start();
        std::thread::sleep(Duration::from_millis(5));
        assert!(!strict.stop(0));
    }

    #[test]
    fn protocol_texts_name_the_right_clocks() {
        let mut clocks = Clocks::new(
            TimeControl::fischer(Duration::from_secs(10), Duration::from_secs(1)),
            Duration::ZERO,
        );
        clocks.clocks[1]
            .complete_turn(0, Duration::from_secs(6))
            .unwrap();
        assert_eq!(
            clocks.go_command(0, false),
            "go wtime 10000 btime 5000 winc 1000 binc 1000"
        );
        assert_eq!(
            clocks.go_command(1, true),
            "go btime 10000 wtime 5000 binc 1000 winc 1000"
        );
        assert_eq!(
            clocks.xboard_time(1).as_deref(),
            Some("time 500\notim 1000")
        );
        assert_eq!(
            xboard_level(&parse_time_control("90+0.5").unwrap()),
            "level 0 1:30 0.5"
        );
        assert_eq!(
            xboard_level(&parse_time_control("40/60").unwrap()),
            "level 40 1:00 0"
        );
        assert_eq!(xboard_level(&parse_time_control("st=2").unwrap()), "st 2");
        assert_eq!(
            gnushogi_level(&parse_time_control("10+1").unwrap()),
            "level 100 1:50"
        );
        let per_move = Clocks::new(
            TimeControl::per_move(Duration::from_millis(100)),
            Duration::ZERO,
        );
        assert_eq!(per_move.go_command(0, true), "go byoyomi 100");
        assert_eq!(per_move.go_command(1, false), "go movetime 100");
        assert_eq!(per_move.xboard_time(0), None);
    }

    #[test]
    fn each_side_may_have_its_own_clock() {
        let mut clocks = Clocks::with_odds(
            &[
                TimeControl::fischer(Duration::from_secs(20), Duration::from_millis(200)),
                TimeControl::fischer(Duration::from_secs(10), Duration::from_millis(100)),
            ],
            Duration::ZERO,
        );
        assert_eq!(
            clocks.go_command(0, false),
            "go wtime 20000 btime 10000 winc 200 binc 100"
        );
        clocks.clocks[1]
            .complete_turn(0, Duration::from_secs(1))
            .unwrap();
        assert_eq!(
            clocks.go_command(1, true),
            "go btime 20000 wtime 9100 binc 200 winc 100"
        );
        assert_eq!(
            clocks.xboard_time(1).as_deref(),
            Some("time 910\notim 2000")
        );
        let limits = clocks.limits_for(0).clock.expect("a clock");
        assert_eq!(limits.remaining, Duration::from_secs(20));
        assert_eq!(limits.increment, Duration::from_millis(200));
        assert!(same_kind(
            &parse_time_control("10+0.1").unwrap(),
            &parse_time_control("20+0").unwrap()
        ));
        assert!(!same_kind(
            &parse_time_control("10+0.1").unwrap(),
            &parse_time_control("st=1").unwrap()
        ));
        assert!(!same_kind(
            &parse_time_control("10+0.1").unwrap(),
            &parse_time_control("40/60").unwrap()
        ));
    }

    #[test]
    fn a_later_player_finds_his_clock_in_the_second_field() {
        let control = TimeControl::fischer(Duration::from_secs(10), Duration::from_millis(100));
        let mut clocks = Clocks::with_odds(&[control; 3], Duration::ZERO);
        clocks.clocks[1]
            .complete_turn(0, Duration::from_secs(2))
            .unwrap();
        clocks.clocks[2]
            .complete_turn(0, Duration::from_secs(4))
            .unwrap();
        assert_eq!(
            clocks.go_command(0, false),
            "go wtime 10000 btime 8100 winc 100 binc 100"
        );
        assert_eq!(
            clocks.go_command(2, false),
            "go wtime 10000 btime 6100 winc 100 binc 100"
        );
        assert_eq!(
            clocks.limits_for(2).clock.map(|c| c.remaining),
            Some(Duration::from_millis(6100))
        );
        assert_eq!(
            clocks.xboard_time(2).as_deref(),
            Some("time 610\notim 1000")
        );
    }
}
