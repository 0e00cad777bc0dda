//! Chess (`chess`), FIDE rules; see `docs/rules/chess.md`. Under `chess960=on` it is
//! Chess960 (Fischer random chess), FIDE's Guidelines II: a start array chosen from 960,
//! castling from whatever files king and rooks start on.

use crate::family;
use chaturanga_rules::standard::{Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{OptionSpec, OptionValues, RuleOptions, SetupProblem};

/// The chess ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Chess;

/// A chess position.
pub type ChessPosition = StandardPosition<1, 6, Chess>;

/// The start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The option that makes the game Chess960.
pub const CHESS960: OptionSpec = OptionSpec::switch(
    "chess960",
    "off",
    "on: Chess960 (Fischer random chess): the start array of `start-array`, or any a FEN gives; \
     castling from the king's and rooks' start files, written as the king taking its rook",
)
.explained(
    "Chess960",
    &[
        (
            "on",
            "Fischer random chess: the back rank starts shuffled; castling ends on the usual cells",
        ),
        ("off", "The usual start position"),
    ],
);

/// The Chess960 start array, by number.
pub const START_ARRAY: OptionSpec = OptionSpec {
    name: "start-array",
    values: OptionValues::Number(0, 959),
    default: "518",
    help: "with chess960=on, the start array by its number (Scharnagl's numbering, 0-959; \
           518 is the standard array)",
    label: "Chess960 array",
    words: &[
        ("518", "With Chess960, the usual array (number 518 of 960)"),
        ("*", "With Chess960, start array number {} of 960"),
    ],
};

/// The number of the standard array among the 960.
pub const STANDARD_ARRAY: u32 = 518;

/// The back rank of Chess960 array `n` (0-959, Scharnagl's numbering: the light-square
/// bishop, the dark-square bishop, the queen on the free cells, the knights by the table of
/// the ten ways to place two men on five cells, then rook, king, rook on the last three);
/// `None` beyond 959.
pub fn chess960_array(n: u32) -> Option<[char; 8]> {
    if n > 959 {
        return None;
    }
    let mut rank = [' '; 8];
    let (n, light) = (n / 4, n % 4);
    rank[(light * 2 + 1) as usize] = 'B';
    let (n, dark) = (n / 4, n % 4);
    rank[(dark * 2) as usize] = 'B';
    let (knights, queen) = (n / 6, n % 6);
    let mut place = |nth: u32, piece: char| {
        let free = (0..8).filter(|&x| rank[x] == ' ').nth(nth as usize);
        if let Some(x) = free {
            rank[x] = piece;
        }
    };
    place(queen, 'Q');
    const KNIGHTS: [(u32, u32); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[knights as usize];
    // The second knight's index counts the free cells as they were before the first one.
    place(second, 'N');
    place(first, 'N');
    for piece in ['R', 'K', 'R'] {
        place(0, piece);
    }
    Some(rank)
}

/// The start FEN of Chess960 array `n`.
pub fn chess960_start(n: u32) -> Option<String> {
    let white: String = chess960_array(n)?.iter().collect();
    let black = white.to_ascii_lowercase();
    Some(format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"
    ))
}

impl Rules<1, 6> for Chess {
    const ID: &'static str = "chess";

    fn option_specs() -> &'static [OptionSpec] {
        &[family::FIDE_CLAIMS, CHESS960, START_ARRAY]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = family::chess_board(8, 8)
            .build()
            .map_err(family::board_error)?;
        let array = options.number("start-array").unwrap_or(STANDARD_ARRAY);
        let builder = family::builder(Self::ID, geometry, options);
        let builder = if options.is_on("chess960") {
            let start = chess960_start(array).ok_or_else(|| {
                SpecError::Options(format!("start-array={array} is not one of 0-959"))
            })?;
            family::with(builder, family::orthodox_pieces()?, Vec::new())
                .free_castling(['g', 'c'], ['f', 'd'])
                .start(&start)
        } else if array != STANDARD_ARRAY {
            return Err(SpecError::Options(format!(
                "start-array={array} needs chess960=on"
            )));
        } else {
            family::with(
                builder,
                family::orthodox_pieces()?,
                family::corner_castlings(8, 8, 'e', 'g', 'c'),
            )
            .start(START_FEN)
        };
        builder
            .values(family::ORTHODOX_VALUES)
            .weights(crate::weights::family("chess")?)
            .build()
    }

    fn is_dead(position: &ChessPosition) -> bool {
        family::minor_material_is_dead(position)
    }

    fn validate(position: &ChessPosition) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaturanga_rules::Ruleset;

    #[test]
    fn options_that_do_not_go_together_are_a_users_error_not_a_definition_error() {
        let options =
            RuleOptions::parse(ChessPosition::option_specs(), &["start-array=3"]).unwrap();
        let error = ChessPosition::start_position(&options).unwrap_err();
        assert_eq!(error.to_string(), "start-array=3 needs chess960=on");
        assert!(std::error::Error::source(&error).is_some());
    }

    #[test]
    fn scharnagl_numbers_give_the_known_arrays() {
        // Numbers and arrays of the published table (Scharnagl), as python-chess 1.11.2 has them
        // (`chess.Board.from_chess960_pos`).
        for (n, array) in [
            (0, "BBQNNRKR"),
            (1, "BQNBNRKR"),
            (518, "RNBQKBNR"),
            (534, "RNBKQBNR"),
            (100, "QBBNRNKR"),
            (959, "RKRNNQBB"),
        ] {
            let found: String = chess960_array(n).unwrap().iter().collect();
            assert_eq!(found, array, "array {n}");
        }
        assert_eq!(chess960_array(960), None);
        // All 960 are different, with the bishops on cells of both colours and the king
        // between the rooks.
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let rank = chess960_array(n).unwrap();
            assert!(seen.insert(rank), "array {n} repeats");
            let at = |p: char| (0..8).filter(move |&x| rank[x] == p);
            let bishops: Vec<usize> = at('B').collect();
            assert_eq!(bishops.len(), 2);
            assert_ne!(bishops[0] % 2, bishops[1] % 2);
            let rooks: Vec<usize> = at('R').collect();
            let king = at('K').next().unwrap();
            assert!(rooks[0] < king && king < rooks[1], "array {n}");
        }
    }
}
