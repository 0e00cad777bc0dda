//! Game clocks: per-player remaining time with a Fischer increment, byo-yomi periods and
//! sessions of moves.
//!
//! The clock is pure bookkeeping: it never reads real time. The caller says how long a
//! player's turn took ([`Clock::complete_turn`]) or asks whether a flag has fallen after some
//! elapsed time ([`Clock::flag_falls`]), so every rule can be tested with explicit durations.
//!
//! Rules: a player's flag falls when the time spent on the current turn reaches the time the
//! player has ([`Clock::time_available`]): main time plus, under byo-yomi, every period left.
//! A turn completed in main time spends that time and then earns the increment. A turn that
//! runs past the main time empties it and continues in the byo-yomi periods: each period that
//! expires completely is used up, and the period in which the turn is completed starts afresh
//! at the next turn (Japanese byo-yomi). No increment is earned in byo-yomi. Under moves per
//! session (classical `40/90`), every `n`-th turn a player completes adds the base time to his
//! main time again. A fixed time per move is byo-yomi with no main time and one period
//! ([`TimeControl::per_move`]), which starts afresh every turn.
//!
//! Everything that keeps time uses these types: the server's clocks, bughouse's live games,
//! the match runner (`chaturanga-arena`) and the XBoard front end's `level`/`st`. The engine's
//! `Limits::clock` is not a clock but what a search is told about one (the time left, the
//! increment, moves to go), filled in from these.

use std::fmt;
use std::time::Duration;

/// Byo-yomi: periods of fixed length that follow the main time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByoYomi {
    /// Length of one period.
    pub period: Duration,
    /// Number of periods.
    pub periods: u32,
}

/// A time control: the same for every player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Main time at the start.
    pub base: Duration,
    /// Fischer increment, added after each turn completed in main time.
    pub increment: Duration,
    /// Byo-yomi periods after the main time, if any.
    pub byo_yomi: Option<ByoYomi>,
    /// Moves per session: after every this many turns a player completes, the base time is
    /// added to his main time again. `None`: the base time is for the whole game.
    pub moves_per_session: Option<u32>,
}

/// Why a time control or duration text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockParseError(pub String);

impl fmt::Display for ClockParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad time text {:?}", self.0)
    }
}

impl std::error::Error for ClockParseError {}

/// Longest duration accepted from text (a year), so arithmetic cannot overflow.
const MAX_TEXT_SECONDS: u64 = 366 * 24 * 3600;

fn number(text: &str, whole: &str) -> Result<u64, ClockParseError> {
    if text.is_empty() || text.len() > 9 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ClockParseError(crate::position::excerpt(whole)));
    }
    text.parse()
        .map_err(|_| ClockParseError(crate::position::excerpt(whole)))
}

/// Reads a duration such as `24h`, `90s`, `5m`, `2d` or `1500ms` (one number, one unit).
pub fn parse_duration(text: &str) -> Result<Duration, ClockParseError> {
    let bad = || ClockParseError(crate::position::excerpt(text));
    let split = text.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let (digits, unit) = text.split_at(split);
    let n = number(digits, text)?;
    let duration = match unit {
        "ms" => Duration::from_millis(n),
        "s" => Duration::from_secs(n),
        "m" => Duration::from_secs(n * 60),
        "h" => Duration::from_secs(n * 3600),
        "d" => Duration::from_secs(n * 86_400),
        _ => return Err(bad()),
    };
    if duration > Duration::from_secs(MAX_TEXT_SECONDS) {
        return Err(bad());
    }
    Ok(duration)
}

impl TimeControl {
    /// Main time plus a Fischer increment (which may be zero).
    pub fn fischer(base: Duration, increment: Duration) -> Self {
        TimeControl {
            base,
            increment,
            byo_yomi: None,
            moves_per_session: None,
        }
    }

    /// `moves` moves in `base`, repeating (`40/90`: forty moves in ninety minutes, then forty
    /// more in another ninety). Panics if `moves` is 0.
    pub fn sessions(moves: u32, base: Duration) -> Self {
        assert!(moves > 0, "a session has at least one move");
        TimeControl {
            moves_per_session: Some(moves),
            ..TimeControl::fischer(base, Duration::ZERO)
        }
    }

    /// A fixed time for every move: no main time and one byo-yomi period, which starts
    /// afresh every turn (unused time is not kept).
    pub fn per_move(time: Duration) -> Self {
        TimeControl::byo_yomi(Duration::ZERO, time, 1)
    }

    /// The time every move has where the control is a fixed time per move
    /// ([`TimeControl::per_move`]).
    pub fn fixed_per_move(&self) -> Option<Duration> {
        match self.byo_yomi {
            Some(b)
                if b.periods == 1
                    && self.base.is_zero()
                    && self.increment.is_zero()
                    && self.moves_per_session.is_none() =>
            {
                Some(b.period)
            }
            _ => None,
        }
    }

    /// Main time followed by `periods` byo-yomi periods of `period` each.
    pub fn byo_yomi(base: Duration, period: Duration, periods: u32) -> Self {
        TimeControl {
            base,
            increment: Duration::ZERO,
            byo_yomi: Some(ByoYomi { period, periods }),
            moves_per_session: None,
        }
    }

    /// Reads the chess form `M+S`: base minutes plus increment seconds (`3+0`, `5+3`).
    pub fn parse(text: &str) -> Result<Self, ClockParseError> {
        let bad = || ClockParseError(crate::position::excerpt(text));
        let (minutes, seconds) = text.split_once('+').ok_or_else(bad)?;
        let minutes = number(minutes, text)?;
        let seconds = number(seconds, text)?;
        if minutes * 60 > MAX_TEXT_SECONDS || seconds > MAX_TEXT_SECONDS {
            return Err(bad());
        }
        if minutes == 0 && seconds == 0 {
            return Err(bad());
        }
        Ok(TimeControl::fischer(
            Duration::from_secs(minutes * 60),
            Duration::from_secs(seconds),
        ))
    }
}

/// One player's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayerTime {
    /// Main time left.
    pub main: Duration,
    /// Byo-yomi periods left.
    pub periods: u32,
}

/// The clocks of all players of a game under one time control.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    control: TimeControl,
    times: Vec<PlayerTime>,
    /// Turns each player completed (for moves per session).
    turns: Vec<u32>,
}

/// A player's flag fell: they ran out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlagFall {
    /// The player whose time ran out.
    pub player: usize,
}

impl fmt::Display for FlagFall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {} ran out of time", self.player)
    }
}

impl std::error::Error for FlagFall {}

impl Clock {
    /// Clocks for `players` players, each with the control's full time.
    pub fn new(control: TimeControl, players: usize) -> Self {
        let start = PlayerTime {
            main: control.base,
            periods: control.byo_yomi.map_or(0, |b| b.periods),
        };
        Clock {
            control,
            times: vec![start; players],
            turns: vec![0; players],
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.times.len()
    }

    /// A player's time at the start of their turn. Panics if `player` is out of range.
    pub fn time(&self, player: usize) -> PlayerTime {
        self.times[player]
    }

    /// Sets a player's time (adjourned games, tests). Panics if `player` is out of range.
    pub fn set_time(&mut self, player: usize, time: PlayerTime) {
        self.times[player] = time;
    }

    /// How long `player` may think on this turn before the flag falls: main time plus every
    /// byo-yomi period left.
    pub fn time_available(&self, player: usize) -> Duration {
        let t = self.times[player];
        let period = self.control.byo_yomi.map_or(Duration::ZERO, |b| b.period);
        t.main.saturating_add(period.saturating_mul(t.periods))
    }

    /// Whether `player`'s flag has fallen after `elapsed` on the current turn.
    pub fn flag_falls(&self, player: usize, elapsed: Duration) -> bool {
        elapsed >= self.time_available(player)
    }

    /// Turns `player` must still complete before his session's time is added again, under
    /// moves per session (counting the current one).
    pub fn moves_to_go(&self, player: usize) -> Option<u32> {
        let n = self.control.moves_per_session?;
        Some(n - self.turns[player] % n)
    }

    /// Time left for `player` after `elapsed` on the current turn (zero once the flag fell).
    pub fn remaining(&self, player: usize, elapsed: Duration) -> Duration {
        self.time_available(player).saturating_sub(elapsed)
    }

    /// Ends `player`'s turn after `elapsed`: spends the time, adds the increment or uses up
    /// byo-yomi periods, and at the end of a session adds the base time. If the flag fell
    /// during the turn, nothing changes and the flag fall is returned.
    pub fn complete_turn(&mut self, player: usize, elapsed: Duration) -> Result<(), FlagFall> {
        if self.flag_falls(player, elapsed) {
            return Err(FlagFall { player });
        }
        let t = &mut self.times[player];
        if elapsed < t.main {
            t.main = t.main - elapsed + self.control.increment;
        } else {
            let over = elapsed - t.main;
            t.main = Duration::ZERO;
            if let Some(b) = self.control.byo_yomi
                && !b.period.is_zero()
            {
                let used = (over.as_nanos() / b.period.as_nanos()) as u32;
                t.periods -= used;
            }
        }
        if let Some(n) = self.control.moves_per_session {
            self.turns[player] += 1;
            if self.turns[player].is_multiple_of(n) {
                t.main = t.main.saturating_add(self.control.base);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn fischer_increment_is_added_after_each_turn() {
        let mut c = Clock::new(TimeControl::fischer(s(60), s(2)), 2);
        c.complete_turn(0, s(10)).unwrap();
        assert_eq!(c.time(0).main, s(52));
        assert_eq!(c.time(1).main, s(60));
        c.complete_turn(0, s(0)).unwrap();
        assert_eq!(c.time(0).main, s(54));
    }

    #[test]
    fn flag_falls_when_the_time_is_used_up() {
        let mut c = Clock::new(TimeControl::fischer(s(180), s(0)), 4);
        assert!(!c.flag_falls(1, s(179)));
        assert!(c.flag_falls(1, s(180)));
        assert_eq!(c.remaining(1, s(100)), s(80));
        assert_eq!(c.remaining(1, s(500)), s(0));
        assert_eq!(c.complete_turn(1, s(180)), Err(FlagFall { player: 1 }));
        assert_eq!(c.time(1).main, s(180), "a fallen flag changes nothing");
        c.complete_turn(1, Duration::from_millis(179_999)).unwrap();
        assert_eq!(c.time(1).main, Duration::from_millis(1));
    }

    #[test]
    fn byo_yomi_periods_reset_within_a_period_and_expire_otherwise() {
        let mut c = Clock::new(TimeControl::byo_yomi(s(60), s(30), 3), 2);
        assert_eq!(c.time_available(0), s(150));
        // 70 s: main time gone, 10 s into the first period, which resets.
        c.complete_turn(0, s(70)).unwrap();
        assert_eq!(
            c.time(0),
            PlayerTime {
                main: s(0),
                periods: 3
            }
        );
        c.complete_turn(0, s(29)).unwrap();
        assert_eq!(c.time(0).periods, 3);
        // 45 s: the first period expires, the move is made in the second.
        c.complete_turn(0, s(45)).unwrap();
        assert_eq!(c.time(0).periods, 2);
        assert!(c.flag_falls(0, s(60)));
        assert!(!c.flag_falls(0, s(59)));
        c.complete_turn(0, s(30)).unwrap();
        assert_eq!(c.time(0).periods, 1);
        assert_eq!(c.complete_turn(0, s(30)), Err(FlagFall { player: 0 }));
    }

    #[test]
    fn no_increment_in_byo_yomi() {
        let control = TimeControl {
            base: s(10),
            increment: s(5),
            byo_yomi: Some(ByoYomi {
                period: s(10),
                periods: 1,
            }),
            moves_per_session: None,
        };
        let mut c = Clock::new(control, 2);
        c.complete_turn(0, s(4)).unwrap();
        assert_eq!(c.time(0).main, s(11));
        c.complete_turn(0, s(15)).unwrap();
        assert_eq!(
            c.time(0),
            PlayerTime {
                main: s(0),
                periods: 1
            }
        );
    }

    #[test]
    fn sessions_add_the_base_after_their_moves() {
        let mut c = Clock::new(TimeControl::sessions(2, s(60)), 2);
        assert_eq!(c.moves_to_go(0), Some(2));
        c.complete_turn(0, s(10)).unwrap();
        assert_eq!((c.moves_to_go(0), c.time(0).main), (Some(1), s(50)));
        c.complete_turn(0, s(10)).unwrap();
        assert_eq!((c.moves_to_go(0), c.time(0).main), (Some(2), s(100)));
        assert_eq!(c.moves_to_go(1), Some(2));
        assert_eq!(
            Clock::new(TimeControl::fischer(s(1), s(0)), 2).moves_to_go(0),
            None
        );
    }

    #[test]
    fn a_fixed_time_per_move_starts_afresh_every_turn() {
        let control = TimeControl::per_move(s(5));
        assert_eq!(control.fixed_per_move(), Some(s(5)));
        assert_eq!(TimeControl::byo_yomi(s(1), s(5), 1).fixed_per_move(), None);
        assert_eq!(TimeControl::fischer(s(5), s(0)).fixed_per_move(), None);
        let mut c = Clock::new(control, 2);
        c.complete_turn(0, Duration::from_millis(4_999)).unwrap();
        assert_eq!(c.time_available(0), s(5));
        assert!(c.flag_falls(0, s(5)));
    }

    #[test]
    fn parses_time_controls_and_durations() {
        assert_eq!(
            TimeControl::parse("3+0"),
            Ok(TimeControl::fischer(s(180), s(0)))
        );
        assert_eq!(
            TimeControl::parse("5+3"),
            Ok(TimeControl::fischer(s(300), s(3)))
        );
        for bad in [
            "",
            "3",
            "+",
            "3+",
            "a+1",
            "0+0",
            "-1+0",
            "99999999999+0",
            "3+0+1",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_duration("24h"), Ok(s(86_400)));
        assert_eq!(parse_duration("90s"), Ok(s(90)));
        assert_eq!(parse_duration("5m"), Ok(s(300)));
        assert_eq!(parse_duration("2d"), Ok(s(172_800)));
        assert_eq!(parse_duration("1500ms"), Ok(Duration::from_millis(1500)));
        for bad in ["", "h", "24", "24x", "1000d", "é", "1 h"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
