//! Game results: a score per player and the reason the game ended.

use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The player to move is in check and has no legal move.
    Checkmate,
    /// The player to move is not in check and has no legal move.
    Stalemate,
    /// No legal move, in rulesets without check.
    NoLegalMoves,
    /// A player has lost every piece (a win in Losing chess).
    AllPiecesLost,
    /// Neither side can win any more (FIDE's dead position, material cases).
    InsufficientMaterial,
    /// The same position for the third time.
    ThreefoldRepetition,
    /// The same position for the fifth time (automatic under FIDE claims).
    FivefoldRepetition,
    /// Fifty moves by each side without capture or pawn move.
    FiftyMoveRule,
    /// Seventy-five moves by each side without capture or pawn move (automatic under claims).
    SeventyFiveMoveRule,
    /// The no-capture limit of xiangqi.
    NoCaptureLimit,
    /// A no-progress rule (no capture, promotion, ...) of rulesets that define one.
    NoProgress,
    /// The ruleset's cap on the number of plies.
    MoveLimit,
    /// Perpetual check, judged at a repetition (the checker loses).
    PerpetualCheck,
    /// Perpetual chase, judged at a repetition (the chaser loses).
    PerpetualChase,
    /// The royal piece was captured.
    RoyalCaptured,
    /// A player left his own royal piece attacked where the rules make that lose at once
    /// (Avalanche's self-checking push).
    SelfCheck,
    /// Only the two lions are left (Congo).
    OnlyLions,
    /// A player is reduced to a lone royal piece (chu shogi's bare-king rule).
    BareKing,
    /// Fourfold repetition in the shogi family.
    Sennichite,
    /// The impasse count (jishogi).
    Impasse,
    /// An impasse declaration, won or lost.
    Declaration,
    /// A player resigned.
    Resignation,
    /// The players agreed a draw.
    Agreement,
    /// A player's clock ran out (flag fall) or a player missed a move deadline.
    TimeForfeit,
    /// Decisive events for opposite sides were registered at the same moment (bughouse: two
    /// flags, or a mate and a flag, seen in one processing step), which draws.
    Simultaneous,
    /// A player left a game in progress and stayed away: the others claimed the win or a draw.
    Abandonment,
}

impl Reason {
    /// Every reason, for reading one back from its name.
    pub const ALL: [Reason; 26] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::NoLegalMoves,
        Reason::AllPiecesLost,
        Reason::InsufficientMaterial,
        Reason::ThreefoldRepetition,
        Reason::FivefoldRepetition,
        Reason::FiftyMoveRule,
        Reason::SeventyFiveMoveRule,
        Reason::NoCaptureLimit,
        Reason::NoProgress,
        Reason::MoveLimit,
        Reason::PerpetualCheck,
        Reason::PerpetualChase,
        Reason::RoyalCaptured,
        Reason::SelfCheck,
        Reason::OnlyLions,
        Reason::BareKing,
        Reason::Sennichite,
        Reason::Impasse,
        Reason::Declaration,
        Reason::Resignation,
        Reason::Agreement,
        Reason::TimeForfeit,
        Reason::Simultaneous,
        Reason::Abandonment,
    ];

    /// The reason named `name` ([`Reason::as_str`]).
    pub fn from_name(name: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.as_str() == name)
    }

    /// The reason as one word, as the CLI prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::NoLegalMoves => "no-legal-moves",
            Reason::AllPiecesLost => "all-pieces-lost",
            Reason::InsufficientMaterial => "insufficient-material",
            Reason::ThreefoldRepetition => "threefold-repetition",
            Reason::FivefoldRepetition => "fivefold-repetition",
            Reason::FiftyMoveRule => "fifty-move-rule",
            Reason::SeventyFiveMoveRule => "seventy-five-move-rule",
            Reason::NoCaptureLimit => "no-capture-limit",
            Reason::NoProgress => "no-progress",
            Reason::MoveLimit => "move-limit",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::PerpetualChase => "perpetual-chase",
            Reason::RoyalCaptured => "royal-captured",
            Reason::SelfCheck => "self-check",
            Reason::OnlyLions => "only-lions",
            Reason::BareKing => "bare-king",
            Reason::Sennichite => "sennichite",
            Reason::Impasse => "impasse",
            Reason::Declaration => "declaration",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::TimeForfeit => "time-forfeit",
            Reason::Simultaneous => "simultaneous",
            Reason::Abandonment => "abandonment",
        }
    }
}

/// A finished game: each player's score in quarter points (4 = win, 2 = draw, 0 = loss), in
/// turn order, and why it ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Scores in quarter points, first player first.
    pub quarters: Vec<u8>,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// `winner` scores 1, every other player 0.
    pub fn win(players: usize, winner: usize, reason: Reason) -> Self {
        let mut quarters = vec![0; players];
        quarters[winner] = 4;
        Outcome { quarters, reason }
    }

    /// `loser` scores 0, every other player of a two-player game 1.
    pub fn loss(players: usize, loser: usize, reason: Reason) -> Self {
        debug_assert_eq!(players, 2, "a loss names a winner only with two players");
        Self::win(players, 1 - loser, reason)
    }

    /// Every player scores 1/2.
    pub fn draw(players: usize, reason: Reason) -> Self {
        Outcome {
            quarters: vec![2; players],
            reason,
        }
    }

    /// The result as written in PGN and by the CLI: `1-0`, `0-1`, `1/2-1/2`, `3/4-1/4`,
    /// `0-1-1/2`.
    pub fn result(&self) -> String {
        self.quarters
            .iter()
            .map(|&q| match q {
                0 => "0",
                1 => "1/4",
                2 => "1/2",
                3 => "3/4",
                _ => "1",
            })
            .collect::<Vec<_>>()
            .join("-")
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result(), self.reason.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_reads_back_from_its_name() {
        for reason in Reason::ALL {
            assert_eq!(Reason::from_name(reason.as_str()), Some(reason));
        }
        assert_eq!(Reason::from_name("boredom"), None);
    }

    #[test]
    fn results() {
        assert_eq!(
            Outcome::win(2, 0, Reason::Checkmate).to_string(),
            "1-0 checkmate"
        );
        assert_eq!(Outcome::loss(2, 0, Reason::Checkmate).result(), "0-1");
        assert_eq!(
            Outcome::draw(2, Reason::Stalemate).to_string(),
            "1/2-1/2 stalemate"
        );
        let glinski = Outcome {
            quarters: vec![3, 1],
            reason: Reason::Stalemate,
        };
        assert_eq!(glinski.result(), "3/4-1/4");
        let three = Outcome {
            quarters: vec![0, 4, 2],
            reason: Reason::Checkmate,
        };
        assert_eq!(three.result(), "0-1-1/2");
    }
}
