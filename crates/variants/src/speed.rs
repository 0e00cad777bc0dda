//! Speed chess (`speed`), 5x5 minichess with promotion only to captured pieces; see
//! `docs/rules/speed.md`.

use crate::family;
use chaturanga_rules::standard::{Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{OptionSpec, OptionValues, RuleOptions, SetupProblem};

/// The Speed chess ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Speed;

/// A Speed chess position.
pub type SpeedPosition = StandardPosition<1, 6, Speed>;

/// The seed's 5x5 start position.
pub const START_FEN: &str = "nqkbr/ppppp/5/PPPPP/NQKBR w - - 0 1";
/// Miccio's 5x6 Quick Chess start position (`board=5x6`).
pub const START_FEN_5X6: &str = "nqkbr/ppppp/5/5/PPPPP/NQKBR w - - 0 1";

const BOARD: OptionSpec = OptionSpec {
    name: "board",
    values: OptionValues::Choice(&["5x5", "5x6"]),
    default: "5x5",
    help: "5x5: the catalogue's board; 5x6: Joe Miccio's Quick Chess board",
    label: "Board",
    words: &[
        ("5x5", "The catalogue's 5x5 board"),
        ("5x6", "Joe Miccio's Quick Chess board, 5x6"),
    ],
};

impl Rules<1, 6> for Speed {
    const ID: &'static str = "speed";

    fn option_specs() -> &'static [OptionSpec] {
        &[BOARD, family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let (ranks, start) = if options.get("board") == Some("5x6") {
            (6, START_FEN_5X6)
        } else {
            (5, START_FEN)
        };
        let geometry = family::chess_board(5, ranks)
            .build()
            .map_err(family::board_error)?;
        let mut pieces = family::orthodox_pieces()?;
        pieces[0] = family::piece("P", "pawn", "fmWfcF")?
            .pawn()
            .promotes_limited("last-rank", &["Q", "R", "B", "N"])
            .must_promote_in("last-rank");
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            Vec::new(),
        )
        .promotion_limits(&[("Q", 1), ("R", 1), ("B", 1), ("N", 1)])
        .values(family::ORTHODOX_VALUES)
        .start(start)
        .build()
    }

    fn is_dead(position: &SpeedPosition) -> bool {
        family::minor_material_is_dead(position)
    }

    fn validate(position: &SpeedPosition) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}
