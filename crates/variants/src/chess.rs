//! Chess (`chess`), FIDE rules; see `shared/rules/chess.md`.

use crate::family::{self, PieceSet};
use chaturanga_rules::standard::{Rules, Spec, SpecBuilder, SpecError, StandardPosition};
use chaturanga_rules::{DrawRules, OptionSpec, RuleOptions, SetupProblem};

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
        let geometry = family::rectangle(8, 8, 2, 1).map_err(|e| SpecError::Size(e.to_string()))?;
        let mut builder = SpecBuilder::new(Self::ID, geometry);
        for piece in family::orthodox_pieces(PieceSet::Chess)? {
            builder = builder.piece(piece);
        }
        for castling in family::orthodox_castlings(8, 8, 'e', 'g', 'c') {
            builder = builder.castling(castling);
        }
        builder
            .start(START_FEN)
            .options(options.clone())
            .draw_rules(DrawRules::chess(options.is_on("fide-claims")))
            .build()
    }

    fn is_dead(position: &ChessPosition) -> bool {
        family::only_minor_material_is_dead(position)
    }

    fn validate(position: &ChessPosition) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}
