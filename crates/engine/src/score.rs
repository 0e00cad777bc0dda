//! Scores: centipawns, and wins or losses at a distance.

use std::fmt;

/// A won game's score at the root; a win `n` plies away scores `MATE - n`.
pub(crate) const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses at a known distance.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// Above every reachable score (the initial alpha-beta window).
pub(crate) const INFINITY: i32 = MATE + 1;
/// Score of a game result worth a quarter point more than a draw (shogi impasse fractions,
/// three-player shares): decisive, but below any forced win.
pub(crate) const QUARTER_POINT: i32 = 5_000;

/// A search result as front ends show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Advantage in centipawns for the player the search was for.
    Centipawns(i32),
    /// A forced result `plies` plies away: positive when the searching player wins, negative
    /// when it loses.
    Win {
        /// Plies to the end (signed: negative means the searching player is lost).
        plies: i32,
    },
}

impl Score {
    /// The score of an internal value.
    pub(crate) fn from_value(v: i32) -> Score {
        if v > MATE_BOUND {
            Score::Win { plies: MATE - v }
        } else if v < -MATE_BOUND {
            Score::Win { plies: -(MATE + v) }
        } else {
            Score::Centipawns(v)
        }
    }

    /// Whole moves to mate as UCI counts them (`mate 3`: our third move mates), for
    /// two-player games with alternating turns.
    pub fn mate_in_moves(self) -> Option<i32> {
        match self {
            Score::Win { plies } if plies > 0 => Some((plies + 1) / 2),
            Score::Win { plies } => Some(-((-plies) / 2)),
            Score::Centipawns(_) => None,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Centipawns(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                write!(f, "{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
            }
            Score::Win { plies } if plies >= 0 => write!(f, "win in {plies} plies"),
            Score::Win { plies } => write!(f, "loss in {} plies", -plies),
        }
    }
}

/// Mate scores are stored relative to the node in the table and relative to the root in the
/// search.
pub(crate) fn to_table(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v + ply as i32
    } else if v < -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// The inverse of [`to_table`].
pub(crate) fn from_table(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v - ply as i32
    } else if v < -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_survive_the_table() {
        for ply in [0, 3, 17] {
            for v in [MATE - 5, -(MATE - 9), 123, -40] {
                assert_eq!(from_table(to_table(v, ply), ply), v);
            }
        }
    }

    #[test]
    fn scores_read_as_front_ends_show_them() {
        assert_eq!(Score::from_value(MATE - 3), Score::Win { plies: 3 });
        assert_eq!(Score::from_value(-(MATE - 4)), Score::Win { plies: -4 });
        assert_eq!(Score::Win { plies: 3 }.mate_in_moves(), Some(2));
        assert_eq!(Score::Win { plies: 1 }.mate_in_moves(), Some(1));
        assert_eq!(Score::Win { plies: -4 }.mate_in_moves(), Some(-2));
        assert_eq!(Score::Win { plies: 0 }.mate_in_moves(), Some(0));
        assert_eq!(Score::from_value(-150).to_string(), "-1.50");
        assert_eq!(Score::from_value(-50).to_string(), "-0.50");
    }
}
