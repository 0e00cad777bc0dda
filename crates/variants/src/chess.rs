//! Chess (`chess`), FIDE rules; see `docs/rules/chess.md`.

use crate::family;
use chaturanga_rules::standard::{Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{OptionSpec, RuleOptions, SetupProblem};

/// The chess ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Chess;

/// A chess position.
pub type ChessPosition = StandardPosition<1, 6, Chess>;

/// The start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Rules<1, 6> for Chess {
    const ID: &'static str = "chess";

    fn option_specs() -> &'static [OptionSpec] {
        &[family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = family::chess_board(8, 8)
            .build()
            .map_err(family::board_error)?;
        family::with(
            family::builder(Self::ID, geometry, options),
            family::orthodox_pieces()?,
            family::corner_castlings(8, 8, 'e', 'g', 'c'),
        )
        .values(family::ORTHODOX_VALUES)
        .start(START_FEN)
        .build()
    }

    fn is_dead(position: &ChessPosition) -> bool {
        family::minor_material_is_dead(position)
    }

    fn validate(position: &ChessPosition) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}
