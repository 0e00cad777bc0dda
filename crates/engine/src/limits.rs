//! What bounds a search: depth, nodes, time per move, or a clock to budget from.

use std::time::Duration;

/// A player's clock as a front end reports it: what a search is told about the time it may
/// use, not a clock that keeps time. Clocks that run (the server's, the match runner's,
/// bughouse's) are `chaturanga_rules::clock::Clock`s under a `TimeControl`; a front end fills
/// this in from one (or from what a GUI sends: UCI's `wtime`, XBoard's `time` and `level`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Added after each move (Fischer increment).
    pub increment: Duration,
    /// Moves to the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
    /// Byo-yomi: time per move once the main time is used up.
    pub byoyomi: Duration,
}

/// Limits of one search; unset limits do not bound it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (whole plies from the root).
    pub depth: Option<u32>,
    /// Nodes to visit at most (checked every few hundred nodes).
    pub nodes: Option<u64>,
    /// Time for this move exactly.
    pub move_time: Option<Duration>,
    /// The clock to budget the move's time from.
    pub clock: Option<Clock>,
    /// Search until stopped from outside.
    pub infinite: bool,
    /// Kept back from every time budget for communication delays.
    pub overhead: Duration,
}

/// Moves a game is assumed to last beyond this one when the clock does not say.
const EXPECTED_MOVES_LEFT: u32 = 30;
/// The hard limit is this many times the planned time, within what the clock allows.
const HARD_FACTOR: u32 = 4;
/// Share of the remaining time never spent on one move (1/8).
const MAX_SHARE_DIVISOR: u32 = 8;

/// Time budget of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Budget {
    /// Do not start another iteration after this.
    pub soft: Option<Duration>,
    /// Stop searching at this point.
    pub hard: Option<Duration>,
}

impl Limits {
    /// A fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A fixed time per move.
    pub fn move_time(time: Duration) -> Limits {
        Limits {
            move_time: Some(time),
            ..Limits::default()
        }
    }

    /// A node budget.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// The time to plan for and the time never to exceed.
    pub(crate) fn budget(&self) -> Budget {
        if self.infinite {
            return Budget {
                soft: None,
                hard: None,
            };
        }
        if let Some(t) = self.move_time {
            let t = t
                .saturating_sub(self.overhead)
                .max(Duration::from_millis(1));
            return Budget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(clock) = self.clock else {
            return Budget {
                soft: None,
                hard: None,
            };
        };
        let usable = clock.remaining.saturating_sub(self.overhead);
        let moves_left = clock.moves_to_go.unwrap_or(EXPECTED_MOVES_LEFT).max(1);
        let mut planned = usable / moves_left + clock.increment * 3 / 4;
        let mut ceiling = usable / MAX_SHARE_DIVISOR.min(moves_left).max(1) + clock.increment / 2;
        if !clock.byoyomi.is_zero() {
            // Byo-yomi is spent in full each move: plan on it and never exceed it.
            let per_move = clock.byoyomi.saturating_sub(self.overhead);
            planned += per_move;
            ceiling += per_move;
        }
        let ceiling = ceiling.min(usable + clock.byoyomi.saturating_sub(self.overhead));
        let planned = planned.min(ceiling).max(Duration::from_millis(1));
        Budget {
            soft: Some(planned),
            hard: Some((planned * HARD_FACTOR).min(ceiling).max(planned)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn move_time_is_both_limits() {
        let b = Limits::move_time(ms(500)).budget();
        assert_eq!(b.soft, Some(ms(500)));
        assert_eq!(b.hard, Some(ms(500)));
    }

    #[test]
    fn clock_budget_stays_within_the_clock() {
        for remaining in [10, 100, 1_000, 60_000, 600_000] {
            let limits = Limits {
                clock: Some(Clock {
                    remaining: ms(remaining),
                    increment: ms(0),
                    ..Clock::default()
                }),
                overhead: ms(5),
                ..Limits::default()
            };
            let b = limits.budget();
            let hard = b.hard.unwrap();
            assert!(hard <= ms(remaining), "{remaining}: {hard:?}");
            assert!(b.soft.unwrap() <= hard);
        }
    }

    #[test]
    fn byoyomi_is_spent_not_exceeded() {
        let limits = Limits {
            clock: Some(Clock {
                remaining: ms(0),
                byoyomi: ms(1_000),
                ..Clock::default()
            }),
            overhead: ms(50),
            ..Limits::default()
        };
        let b = limits.budget();
        assert_eq!(b.hard, Some(ms(950)));
        assert!(b.soft.unwrap() >= ms(900));
    }

    #[test]
    fn no_limit_without_time_controls() {
        assert_eq!(Limits::depth(4).budget().hard, None);
    }
}
