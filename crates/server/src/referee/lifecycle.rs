//! The times of a live game's lifecycle (docs/server.md, "Lifecycle"): how long a side has
//! for its first move, when an absent player counts as gone, how an engine paces its moves,
//! when a game without a clock is adjourned, how long open seats wait, and how many actions a
//! seat may take.

use crate::clock::ClockSpec;
use std::time::{Duration, Instant};

/// How long a side has for its first move in a real-time game (lichess gives 15-30 s).
pub const FIRST_MOVE: Duration = Duration::from_secs(30);

/// How long a game without a clock may go without a move or a claimed seat before it is
/// adjourned: out of the live listing, and not loaded at startup, but not lost.
pub const ADJOURN_AFTER: Duration = Duration::from_secs(30 * 60);

/// How long a game's open seats wait for players while those who claimed theirs are away (no
/// socket, no action) before it is aborted: lichess's seeks go with their creator's page, and
/// a friend's link should not wait for ever.
pub const SEEK_WAITS: Duration = Duration::from_secs(15 * 60);

/// [`SEEK_WAITS`] in correspondence, where a day away is nothing.
pub const CORRESPONDENCE_SEEK_WAITS: Duration = Duration::from_secs(14 * 86_400);

/// How long the open seats of a game under `spec` (or without a clock) wait for players while
/// nobody who claimed a seat is there.
pub fn seek_waits(spec: Option<&ClockSpec>) -> Duration {
    match spec {
        Some(spec) if spec.is_correspondence() => CORRESPONDENCE_SEEK_WAITS,
        _ => SEEK_WAITS,
    }
}

/// The longest an engine waits before it shows its move, so that it plays at a person's pace.
pub const MAX_PACE: Duration = Duration::from_secs(3);

/// Actions a seat may take in a burst, and how often it gets one back.
pub const ACTION_BURST: u32 = 6;
/// See [`ACTION_BURST`].
pub const ACTION_REFILL: Duration = Duration::from_secs(2);

/// The time a side has for its first move under `spec`: [`FIRST_MOVE`] in real time, a whole
/// turn in correspondence.
pub fn first_move_window(spec: &ClockSpec) -> Duration {
    match *spec {
        ClockSpec::Days { days } => Duration::from_secs(days * 86_400),
        _ => FIRST_MOVE,
    }
}

/// How long the game is expected to last for one side: the main time and forty turns of
/// increment or period.
fn expected(spec: &ClockSpec) -> Duration {
    let s = Duration::from_secs;
    match *spec {
        ClockSpec::Fischer { base, increment } => s(base) + s(increment) * 40,
        ClockSpec::Byoyomi { base, period, .. } => s(base) + s(period) * 40,
        ClockSpec::Move { seconds } => s(seconds) * 40,
        ClockSpec::Days { days } => s(days * 86_400) * 40,
    }
}

/// After how long without a sign of life a player who had a socket open counts as gone, so
/// that the others may claim the game: a twentieth of the game's expected length, from 20 s
/// to 60 s. `None` in correspondence, where the days decide.
pub fn gone_after(spec: &ClockSpec) -> Option<Duration> {
    if spec.is_correspondence() {
        return None;
    }
    Some((expected(spec) / 20).clamp(Duration::from_secs(20), Duration::from_secs(60)))
}

/// How long an engine lets a turn last at least, as a person would with `available` on his
/// clock: a thirtieth of it, at most [`MAX_PACE`]; nothing in correspondence.
pub fn pace(spec: &ClockSpec, available: Duration) -> Duration {
    if spec.is_correspondence() {
        return Duration::ZERO;
    }
    (available / 30).min(MAX_PACE)
}

/// A token bucket: [`ACTION_BURST`] actions at once, then one per [`ACTION_REFILL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucket {
    /// Tokens left at `at`.
    tokens: u32,
    /// When the tokens were counted.
    at: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn full(now: Instant) -> Bucket {
        Bucket {
            tokens: ACTION_BURST,
            at: now,
        }
    }

    /// Takes a token at `now`, or says how long until one comes back.
    pub fn take(&mut self, now: Instant) -> Result<(), Duration> {
        let elapsed = now.saturating_duration_since(self.at);
        let back = (elapsed.as_nanos() / ACTION_REFILL.as_nanos()) as u32;
        if back > 0 {
            self.tokens = (self.tokens + back).min(ACTION_BURST);
            self.at = if self.tokens == ACTION_BURST {
                now
            } else {
                self.at + ACTION_REFILL * back
            };
        }
        if self.tokens == 0 {
            return Err(ACTION_REFILL.saturating_sub(now.saturating_duration_since(self.at)));
        }
        if self.tokens == ACTION_BURST {
            self.at = now;
        }
        self.tokens -= 1;
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
    fn the_times_follow_the_control() {
        let blitz = ClockSpec::Fischer {
            base: 180,
            increment: 2,
        };
        let classical = ClockSpec::Fischer {
            base: 1800,
            increment: 20,
        };
        let days = ClockSpec::Days { days: 2 };
        assert_eq!(first_move_window(&blitz), FIRST_MOVE);
        assert_eq!(first_move_window(&days), s(2 * 86_400));
        assert_eq!(gone_after(&blitz), Some(s(20)));
        assert_eq!(gone_after(&ClockSpec::Move { seconds: 30 }), Some(s(60)));
        assert_eq!(gone_after(&classical), Some(s(60)));
        assert_eq!(
            gone_after(&ClockSpec::Fischer {
                base: 600,
                increment: 5
            }),
            Some(s(40))
        );
        assert_eq!(gone_after(&days), None);
        assert_eq!(pace(&blitz, s(60)), s(2));
        assert_eq!(pace(&blitz, s(180)), MAX_PACE);
        assert_eq!(pace(&days, s(86_400)), Duration::ZERO);
        assert_eq!(seek_waits(Some(&blitz)), SEEK_WAITS);
        assert_eq!(seek_waits(None), SEEK_WAITS);
        assert_eq!(seek_waits(Some(&days)), CORRESPONDENCE_SEEK_WAITS);
    }

    #[test]
    fn a_bucket_gives_a_burst_then_one_action_per_refill() {
        let t0 = Instant::now();
        let mut bucket = Bucket::full(t0);
        for _ in 0..ACTION_BURST {
            bucket.take(t0).unwrap();
        }
        assert_eq!(bucket.take(t0), Err(ACTION_REFILL));
        assert_eq!(
            bucket.take(t0 + s(1)),
            Err(ACTION_REFILL - s(1)),
            "half the refill later, half is left to wait"
        );
        bucket.take(t0 + ACTION_REFILL).unwrap();
        assert!(bucket.take(t0 + ACTION_REFILL).is_err());
        // Long idle fills it up again, no further.
        let later = t0 + s(3600);
        for _ in 0..ACTION_BURST {
            bucket.take(later).unwrap();
        }
        assert!(bucket.take(later).is_err());
    }
}
