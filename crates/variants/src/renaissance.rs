//! Renaissance Chess (`renaissance`), 12x10 with seventeen piece types including the bent
//! riders; see `docs/rules/renaissance.md`.

use crate::family;
use chaturanga_rules::standard::{Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{OptionSpec, RuleOptions, SetupProblem};

/// The Renaissance Chess ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Renaissance;

/// A Renaissance Chess position.
pub type RenaissancePosition = StandardPosition<2, 17, Renaissance>;

/// The start position.
pub const START_FEN: &str = "g1q1vesd1m1g/rntbckuabtnr/pppppppppppp/5ff5/12/12/5FF5/PPPPPPPPPPPP/RNTBAUKCBTNR/G1M1DSEV1Q1G w - - 0 1";

/// Everything a pawn may become on its last rank.
const OFFICERS: [&str; 15] = [
    "Q", "R", "B", "N", "F", "U", "E", "S", "T", "G", "A", "C", "M", "D", "V",
];

impl Rules<2, 17> for Renaissance {
    const ID: &'static str = "renaissance";

    fn option_specs() -> &'static [OptionSpec] {
        &[family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<2>, SpecError> {
        let geometry = family::chess_board(12, 10)
            .region(
                "renaissance-pawn-start",
                family::mirrored_ranks(12, 10, &[2]),
            )
            .region("next-to-last", family::mirrored_ranks(12, 10, &[8]))
            .build()
            .map_err(family::board_error)?;
        let pieces = vec![
            family::piece("P", "pawn", "fmWfceFifmnD")?
                .pawn()
                .initial("renaissance-pawn-start")
                .promotes("next-to-last", &["F"])
                .promotes("last-rank", &OFFICERS)
                .must_promote_in("last-rank"),
            family::piece("N", "horse", "N")?,
            family::piece("B", "bishop", "B")?,
            family::piece("R", "rook", "R")?,
            family::piece("Q", "queen", "Q")?,
            family::king()?,
            family::piece("F", "fox", "W")?.promotes("last-rank", &["U"]),
            family::piece("U", "guard", "K")?,
            family::piece("E", "page", "KN")?,
            family::piece("S", "squire", "KAD")?,
            family::piece("T", "castle", "NAD")?,
            family::piece("G", "general", "C")?,
            family::piece("A", "archbishop", "BN")?,
            family::piece("C", "nobleman", "RN")?,
            family::piece("M", "prince", "QN")?,
            family::piece("D", "duke", "")?.with_bent('W', 'F').in_words(
                "one orthogonal step then any distance diagonally outward, or the diagonal slide first and the step last",
            ),
            family::piece("V", "cavalier", "")?.with_bent('F', 'W').in_words(
                "one diagonal step then any distance orthogonally outward, or the orthogonal slide first and the step last",
            ),
        ];
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            Vec::new(),
        )
        .start(START_FEN)
        .build()
    }

    fn is_dead(position: &RenaissancePosition) -> bool {
        family::bare_royals_are_dead(position)
    }

    fn validate(position: &RenaissancePosition) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}
