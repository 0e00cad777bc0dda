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
//!
//! Nothing here reads the time: every call is told `now`, so the referee's rules over clocks
//! are tested with made-up instants.

use chaturanga_rules::clock::{Clock, PlayerTime, TimeControl};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

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
    /// The spec of a time control a ruleset prescribes (`Ruleset::own_clock`), in whole
    /// seconds (a fraction of a second is rounded up); `None` for what a spec cannot say
    /// (moves per session).
    pub fn of(control: TimeControl) -> Option<ClockSpec> {
        let secs = |d: Duration| d.as_secs() + u64::from(d.subsec_nanos() > 0);
        if control.moves_per_session.is_some() {
            return None;
        }
        Some(match control.byo_yomi {
            None => ClockSpec::Fischer {
                base: secs(control.base),
                increment: secs(control.increment),
            },
            Some(b) if control.base.is_zero() && b.periods == 1 => ClockSpec::Move {
                seconds: secs(b.period).max(1),
            },
            Some(b) => ClockSpec::Byoyomi {
                base: secs(control.base),
                period: secs(b.period).max(1),
                periods: b.periods,
            },
        })
    }

    /// Whether this is correspondence (days a move), where the real-time rules of a live
    /// game (the first-move window, abandonment, engine pacing) give way to the days.
    pub fn is_correspondence(&self) -> bool {
        matches!(self, ClockSpec::Days { .. })
    }

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
    /// Each seat's lag quota, in milliseconds (absent in games stored before it existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lag_quota_ms: Vec<u64>,
}

/// What is forgiven beyond the network lag the server measured on a move's connection (none
/// measured: this alone). A client may say it thought for no time at all; it is believed
/// only as far as the server's own measure of its lag allows.
pub const LAG_MARGIN: Duration = Duration::from_millis(100);

/// The longest round trip believed of a connection: a client that answers the server's pings
/// late measures long, and one turn's forgiveness stays within this plus [`LAG_MARGIN`]
/// whatever it did (its total stays within the lag quota, as on lichess).
pub const MAX_BELIEVED_LAG: Duration = Duration::from_millis(1_000);

/// The longest a flag waits past zero for a move in flight (see [`GameClock`]).
pub const MAX_GRACE: Duration = Duration::from_secs(2);

/// Lag compensation as lichess does it: each seat has a quota of network time the server
/// forgives. A turn's lag is the time the server measured minus the time the client says it
/// thought; the smaller of the lag and the quota is not charged and leaves the quota, and
/// every turn adds `gain` back, up to `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LagRule {
    gain: Duration,
    max: Duration,
}

impl LagRule {
    /// The rule for a control, lichess's: the gain is 4 ms per second the game is expected
    /// to last (main time plus forty turns of increment or period) plus 150 ms, at most a
    /// second; the quota starts at three gains and holds at most seven.
    fn of(control: TimeControl) -> Self {
        let per_turn = control.increment + control.byo_yomi.map_or(Duration::ZERO, |b| b.period);
        let expected = control.base.saturating_add(per_turn.saturating_mul(40));
        let gain =
            (expected.mul_f64(0.004) + Duration::from_millis(150)).min(Duration::from_secs(1));
        LagRule {
            gain,
            max: gain * 7,
        }
    }

    fn start(self) -> Duration {
        self.gain * 3
    }
}

/// The clocks of a live game: every seat in [`GameClock::run`]'s list runs at once (one in
/// most games, one per board in bughouse).
///
/// A flag falls when a running seat's time is spent and its grace is over too: the grace is
/// the smaller of its lag quota and [`MAX_GRACE`], so that a move already on its way is not
/// lost to the network. Such a move is still charged its whole time less the compensation,
/// and refused if that is more than the seat had.
#[derive(Clone, Debug)]
pub struct GameClock {
    clock: Clock,
    lag: LagRule,
    /// Since when each seat's clock runs; `None` while it stands.
    since: Vec<Option<Instant>>,
    /// Each seat's lag quota.
    quota: Vec<Duration>,
}

impl GameClock {
    /// Clocks for `players` seats with the control's full time.
    pub fn new(control: TimeControl, players: usize) -> Self {
        let lag = LagRule::of(control);
        GameClock {
            clock: Clock::new(control, players),
            lag,
            since: vec![None; players],
            quota: vec![lag.start(); players],
        }
    }

    /// Clocks restored from storage.
    pub fn restore(control: TimeControl, stored: &StoredTimes) -> Self {
        let mut clocks = GameClock::new(control, stored.main_ms.len());
        for (seat, (&main, &periods)) in stored.main_ms.iter().zip(&stored.periods).enumerate() {
            clocks.clock.set_time(
                seat,
                PlayerTime {
                    main: Duration::from_millis(main),
                    periods,
                },
            );
        }
        if stored.lag_quota_ms.len() == clocks.quota.len() {
            for (quota, &ms) in clocks.quota.iter_mut().zip(&stored.lag_quota_ms) {
                *quota = Duration::from_millis(ms).min(clocks.lag.max);
            }
        }
        clocks
    }

    /// The times to store.
    pub fn stored(&self) -> StoredTimes {
        let times: Vec<PlayerTime> = (0..self.clock.players())
            .map(|p| self.clock.time(p))
            .collect();
        StoredTimes {
            main_ms: times.iter().map(|t| t.main.as_millis() as u64).collect(),
            periods: times.iter().map(|t| t.periods).collect(),
            lag_quota_ms: self.quota.iter().map(|q| q.as_millis() as u64).collect(),
        }
    }

    /// Makes the clocks of exactly `seats` run: those that stood start at `now`, the others
    /// stop without their turn being charged (the game ended, or was taken back).
    pub fn run(&mut self, seats: &[usize], now: Instant) {
        for (seat, since) in self.since.iter_mut().enumerate() {
            if !seats.contains(&seat) {
                *since = None;
            } else if since.is_none() {
                *since = Some(now);
            }
        }
    }

    /// Stops every clock.
    pub fn stop(&mut self) {
        self.since.iter_mut().for_each(|s| *s = None);
    }

    /// The game ended at `now`: every running clock is charged the time its turn took (without
    /// an increment, and no further than its flag), and every clock stops, so that the clocks
    /// show what they showed at the end.
    pub fn stop_at(&mut self, now: Instant) {
        for seat in 0..self.since.len() {
            let Some(since) = self.since[seat] else {
                continue;
            };
            let elapsed = now.saturating_duration_since(since);
            let t = self.clock.time(seat);
            let left = if elapsed < t.main {
                PlayerTime {
                    main: t.main - elapsed,
                    periods: t.periods,
                }
            } else {
                // Into the periods: those wholly spent are gone, the current one counts.
                let period = self.clock.control().byo_yomi.map(|b| b.period);
                let spent = match period {
                    Some(p) if !p.is_zero() => {
                        ((elapsed - t.main).as_nanos() / p.as_nanos()) as u32
                    }
                    _ => t.periods,
                };
                PlayerTime {
                    main: Duration::ZERO,
                    periods: t.periods.saturating_sub(spent),
                }
            };
            self.clock.set_time(seat, left);
        }
        self.stop();
    }

    /// The flags of `seats` fell: their clocks show exactly zero (main time and periods
    /// spent), and every clock stops.
    pub fn flag(&mut self, seats: &[usize]) {
        for &seat in seats {
            if seat < self.clock.players() {
                self.clock.set_time(
                    seat,
                    PlayerTime {
                        main: Duration::ZERO,
                        periods: 0,
                    },
                );
            }
        }
        self.stop();
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.clock.control()
    }

    /// How long `seat` may think on its turn: the time it has at the start of a turn.
    pub fn time_available(&self, seat: usize) -> Duration {
        self.clock.time_available(seat)
    }

    /// The seats whose clocks run.
    pub fn running(&self) -> Vec<usize> {
        (0..self.since.len())
            .filter(|&s| self.since[s].is_some())
            .collect()
    }

    fn grace(&self, seat: usize) -> Duration {
        self.quota[seat].min(MAX_GRACE)
    }

    /// When the next flag falls.
    pub fn deadline(&self) -> Option<Instant> {
        self.since
            .iter()
            .enumerate()
            .filter_map(|(seat, since)| {
                since.map(|t| t + self.clock.time_available(seat) + self.grace(seat))
            })
            .min()
    }

    /// The running seats whose flags have fallen by `now`.
    pub fn fallen(&self, now: Instant) -> Vec<usize> {
        (0..self.since.len())
            .filter(|&seat| {
                self.since[seat].is_some_and(|t| {
                    let elapsed = now.saturating_duration_since(t);
                    elapsed.saturating_sub(self.grace(seat)) >= self.clock.time_available(seat)
                })
            })
            .collect()
    }

    /// Ends `seat`'s turn at `now`: `thought` is how long its client says it thought, if it
    /// says (the rest is network lag, forgiven up to the quota and to `measured_lag`, at most
    /// [`MAX_BELIEVED_LAG`], plus [`LAG_MARGIN`]). `Err(seat)` if its time ran out (nothing changes then). A seat whose
    /// clock stands is left as it is.
    pub fn complete(
        &mut self,
        seat: usize,
        now: Instant,
        thought: Option<Duration>,
        measured_lag: Option<Duration>,
    ) -> Result<(), usize> {
        let Some(since) = self.since.get(seat).copied().flatten() else {
            return Ok(());
        };
        let elapsed = now.saturating_duration_since(since);
        let lag = thought.map_or(Duration::ZERO, |t| elapsed.saturating_sub(t));
        let believed = measured_lag.unwrap_or(Duration::ZERO).min(MAX_BELIEVED_LAG) + LAG_MARGIN;
        let forgiven = lag.min(self.quota[seat]).min(believed);
        self.clock
            .complete_turn(seat, elapsed - forgiven)
            .map_err(|f| f.player)?;
        self.quota[seat] = (self.quota[seat] - forgiven + self.lag.gain).min(self.lag.max);
        self.since[seat] = None;
        Ok(())
    }

    /// Each seat's clock at `now` (the running ones counting down).
    pub fn show(&self, now: Instant) -> Vec<SeatTime> {
        let period = self.clock.control().byo_yomi.map(|b| b.period);
        (0..self.clock.players())
            .map(|seat| {
                let t = self.clock.time(seat);
                let elapsed = self.since[seat]
                    .map_or(Duration::ZERO, |since| now.saturating_duration_since(since));
                let left = self.clock.remaining(seat, elapsed);
                let main = t.main.saturating_sub(elapsed);
                // Past the main time the periods go one by one; the current one is what is
                // left of the whole time beyond the periods still untouched.
                let (periods, period_ms) = match period {
                    Some(p) if !p.is_zero() && main.is_zero() && !left.is_zero() => {
                        let whole = (left.as_nanos().div_ceil(p.as_nanos())) as u32;
                        let current = left.saturating_sub(p * whole.saturating_sub(1));
                        (whole, Some(current.as_millis() as u64))
                    }
                    Some(p) if !p.is_zero() && main.is_zero() => (0, Some(0)),
                    Some(p) => (t.periods, Some(p.as_millis() as u64)),
                    None => (t.periods, None),
                };
                SeatTime {
                    ms: left.as_millis() as u64,
                    main_ms: main.as_millis() as u64,
                    periods,
                    period_ms,
                    running: self.since[seat].is_some(),
                }
            })
            .collect()
    }
}

/// One seat's clock as shown at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatTime {
    /// Everything left before the flag falls, in milliseconds: main time and periods.
    pub ms: u64,
    /// Main time left, in milliseconds.
    pub main_ms: u64,
    /// Byo-yomi periods left, the one in progress included.
    pub periods: u32,
    /// Under byo-yomi: what is left of the current period (the whole period while main time
    /// remains), in milliseconds.
    pub period_ms: Option<u64>,
    /// Whether the clock runs.
    pub running: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Ends `seat`'s turn and starts `next`'s, as a two-player game does.
    /// A two-player clock under `spec`, the first seat's running from the `Instant` returned.
    fn running(spec: ClockSpec) -> (GameClock, Instant) {
        let mut clock = GameClock::new(spec.control().unwrap(), 2);
        let t0 = Instant::now();
        clock.run(&[0], t0);
        (clock, t0)
    }

    fn pass(
        clock: &mut GameClock,
        seat: usize,
        next: usize,
        now: Instant,
        thought: Option<Duration>,
    ) -> Result<(), usize> {
        clock.complete(seat, now, thought, Some(MAX_BELIEVED_LAG))?;
        clock.run(&[next], now);
        Ok(())
    }

    #[test]
    fn a_fixed_time_per_move_starts_afresh_each_turn() {
        let (mut clock, t0) = running(ClockSpec::Move { seconds: 10 });
        pass(&mut clock, 0, 1, t0 + secs(9), None).unwrap();
        pass(&mut clock, 1, 0, t0 + secs(18), None).unwrap();
        assert_eq!(clock.show(t0 + secs(18))[0].ms, 10_000);
        // Time is up at 28 s; the flag waits out the grace before it falls.
        let grace = clock.grace(0);
        assert!(grace > Duration::ZERO && grace <= MAX_GRACE);
        assert_eq!(clock.fallen(t0 + secs(28)), Vec::<usize>::new());
        assert_eq!(clock.deadline(), Some(t0 + secs(28) + grace));
        assert_eq!(clock.fallen(t0 + secs(28) + grace), vec![0]);
        // A move after the time ran out with no lag to forgive is refused.
        assert_eq!(
            pass(&mut clock, 0, 1, t0 + secs(28) + ms(10), Some(secs(10))),
            Err(0)
        );
    }

    #[test]
    fn fischer_times_and_lag_quotas_are_stored_and_restored() {
        let spec = ClockSpec::Fischer {
            base: 60,
            increment: 2,
        };
        let control = spec.control().unwrap();
        let (mut clock, t0) = running(spec);
        pass(&mut clock, 0, 1, t0 + secs(10), None).unwrap();
        let stored = clock.stored();
        assert_eq!(stored.main_ms, vec![52_000, 60_000]);
        let restored = GameClock::restore(control, &stored);
        assert_eq!(restored.stored(), stored);
        // A game stored before quotas existed keeps its times and starts with fresh quotas.
        let old = StoredTimes {
            lag_quota_ms: Vec::new(),
            ..stored.clone()
        };
        let fresh = GameClock::restore(control, &old).stored();
        assert_eq!(fresh.main_ms, stored.main_ms);
        assert_eq!(
            fresh.lag_quota_ms,
            GameClock::new(control, 2).stored().lag_quota_ms
        );
        assert_ne!(fresh.lag_quota_ms, stored.lag_quota_ms);
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

    #[test]
    fn lag_is_forgiven_up_to_the_quota_which_grows_back_by_its_gain() {
        // 10+0: expected 600 s, gain 2.4 + 0.15 s, capped at 1 s; quota 3 s.
        let control = ClockSpec::Fischer {
            base: 600,
            increment: 0,
        }
        .control()
        .unwrap();
        let mut clock = GameClock::new(control, 2);
        assert_eq!(clock.lag.gain, secs(1));
        assert_eq!(clock.quota, vec![secs(3), secs(3)]);
        let t0 = Instant::now();
        clock.run(&[0], t0);
        // 5 s on the server, 4.6 s thought: 400 ms of lag, all forgiven.
        pass(&mut clock, 0, 1, t0 + secs(5), Some(ms(4_600))).unwrap();
        assert_eq!(clock.show(t0 + secs(5))[0].ms, 595_400);
        assert_eq!(clock.quota[0], ms(3_600));
        // No report, no compensation; the quota still grows, up to seven gains.
        pass(&mut clock, 1, 0, t0 + secs(6), None).unwrap();
        assert_eq!(clock.show(t0 + secs(6))[1].ms, 599_000);
        assert_eq!(clock.quota[1], secs(4));
        // Claimed lag beyond what a connection may have is charged.
        pass(&mut clock, 0, 1, t0 + secs(16), Some(Duration::ZERO)).unwrap();
        assert_eq!(clock.show(t0 + secs(16))[0].ms, 595_400 - 10_000 + 1_100);
        assert_eq!(clock.quota[0], ms(3_500));
        for turn in 0..10 {
            let at = t0 + secs(17 + turn);
            pass(&mut clock, 1, 0, at, None).unwrap();
            clock.complete(0, at, None, None).unwrap();
            clock.run(&[1], at);
        }
        assert_eq!(clock.quota[1], secs(7));
    }

    #[test]
    fn a_client_answering_pings_late_keeps_no_more_than_the_quota() {
        // 1+0: gain 0.39 s, quota 1.17 s. Every turn takes 1 s and the client says it
        // thought for none, on a connection that measured 5 s (it held its pongs back).
        let (mut clock, t0) = running(ClockSpec::Fischer {
            base: 60,
            increment: 0,
        });
        let mut kept = Duration::ZERO;
        for turn in 1..=8 {
            let before = clock.clock.time(0).main;
            clock
                .complete(0, t0 + secs(turn), Some(Duration::ZERO), Some(secs(5)))
                .unwrap();
            let charged = before - clock.clock.time(0).main;
            let forgiven = secs(1) - charged;
            assert!(forgiven <= MAX_BELIEVED_LAG + LAG_MARGIN, "{forgiven:?}");
            kept += forgiven;
            clock.run(&[0], t0 + secs(turn));
        }
        // Three gains to start with and one a turn: 1.17 s + 8 x 0.39 s.
        assert!(kept <= ms(1_170 + 8 * 390), "{kept:?}");
        assert!(kept >= ms(3_000), "the quota is there to be used: {kept:?}");
    }

    #[test]
    fn the_gain_follows_the_expected_length_of_the_game() {
        let gain = |spec: ClockSpec| LagRule::of(spec.control().unwrap()).gain;
        // 3+0: 0.72 s + 0.15 s.
        let blitz = gain(ClockSpec::Fischer {
            base: 180,
            increment: 0,
        });
        assert_eq!(blitz, ms(870));
        // 1+0: 0.24 s + 0.15 s.
        let bullet = gain(ClockSpec::Fischer {
            base: 60,
            increment: 0,
        });
        assert_eq!(bullet, ms(390));
        assert_eq!(gain(ClockSpec::Days { days: 3 }), secs(1));
    }

    #[test]
    fn a_move_in_flight_at_zero_is_saved_by_its_lag() {
        let (mut clock, t0) = running(ClockSpec::Fischer {
            base: 10,
            increment: 0,
        });
        // Sent after 9.9 s of thought, it arrives 10.3 s after the turn began.
        pass(&mut clock, 0, 1, t0 + ms(10_300), Some(ms(9_900))).unwrap();
        assert_eq!(clock.show(t0 + ms(10_300))[0].ms, 100);
    }

    #[test]
    fn several_clocks_run_at_once_and_flags_fall_together() {
        let control = ClockSpec::Move { seconds: 5 }.control().unwrap();
        let mut clock = GameClock::new(control, 4);
        let t0 = Instant::now();
        clock.run(&[0, 1], t0);
        assert_eq!(clock.running(), vec![0, 1]);
        // Seat 0 moves; seat 2 answers on its board while seat 1 still thinks.
        clock.complete(0, t0 + secs(1), None, None).unwrap();
        clock.run(&[1, 2], t0 + secs(1));
        assert_eq!(clock.show(t0 + secs(2))[1].ms, 3_000);
        assert_eq!(clock.show(t0 + secs(2))[2].ms, 4_000);
        let late = t0 + secs(20);
        assert_eq!(clock.fallen(late), vec![1, 2]);
        clock.stop();
        assert!(clock.running().is_empty() && clock.deadline().is_none());
    }

    #[test]
    fn a_game_that_ends_charges_the_turn_in_progress() {
        let control = ClockSpec::Fischer {
            base: 60,
            increment: 5,
        }
        .control()
        .unwrap();
        let mut clock = GameClock::new(control, 2);
        let t0 = Instant::now();
        clock.run(&[1], t0);
        clock.stop_at(t0 + secs(12));
        assert_eq!(clock.stored().main_ms, vec![60_000, 48_000], "no increment");
        assert!(clock.running().is_empty());
        // Into byo-yomi: the wholly spent periods are gone.
        let control = ClockSpec::Byoyomi {
            base: 10,
            period: 30,
            periods: 3,
        }
        .control()
        .unwrap();
        let mut clock = GameClock::new(control, 2);
        clock.run(&[0], t0);
        clock.stop_at(t0 + secs(45));
        assert_eq!(clock.stored().main_ms[0], 0);
        assert_eq!(clock.stored().periods[0], 2);
    }

    #[test]
    fn a_flag_leaves_its_clock_at_exactly_zero() {
        let (mut clock, t0) = running(ClockSpec::Byoyomi {
            base: 10,
            period: 5,
            periods: 2,
        });
        clock.flag(&[0]);
        let shown = clock.show(t0 + secs(30));
        assert_eq!((shown[0].ms, shown[0].main_ms, shown[0].periods), (0, 0, 0));
        assert!(!shown[0].running);
        assert_eq!(clock.stored().main_ms, vec![0, 10_000]);
        assert_eq!(clock.stored().periods, vec![0, 2]);
    }

    #[test]
    fn byo_yomi_shows_main_time_and_periods_apart() {
        let (clock, t0) = running(ClockSpec::Byoyomi {
            base: 10,
            period: 30,
            periods: 3,
        });
        // In main time: 6 s of main, three whole periods.
        let at = clock.show(t0 + secs(4))[0];
        assert_eq!(
            (at.main_ms, at.periods, at.period_ms),
            (6_000, 3, Some(30_000))
        );
        assert_eq!(at.ms, 96_000);
        // 25 s into the first period: 0:00 + 3×, 5 s left of the current one.
        let at = clock.show(t0 + secs(35))[0];
        assert_eq!((at.main_ms, at.periods, at.period_ms), (0, 3, Some(5_000)));
        // The first period spent: two left, the second one whole.
        let at = clock.show(t0 + secs(40))[0];
        assert_eq!((at.main_ms, at.periods, at.period_ms), (0, 2, Some(30_000)));
        // The other seat's clock stands with its whole time.
        let other = clock.show(t0 + secs(40))[1];
        assert_eq!(
            (other.main_ms, other.periods, other.running),
            (10_000, 3, false)
        );
    }

    #[test]
    fn a_ruleset_clock_becomes_a_spec() {
        let fischer = TimeControl::fischer(secs(180), secs(2));
        assert_eq!(
            ClockSpec::of(fischer),
            Some(ClockSpec::Fischer {
                base: 180,
                increment: 2
            })
        );
        let per_move = TimeControl::per_move(ms(1_500));
        assert_eq!(
            ClockSpec::of(per_move),
            Some(ClockSpec::Move { seconds: 2 })
        );
        assert_eq!(ClockSpec::of(TimeControl::sessions(40, secs(5400))), None);
    }
}
