//! Grand Chess (`grand`), 10x10, promotion only to captured pieces; see
//! `docs/rules/grand.md`.

use crate::family;
use chaturanga_rules::standard::{Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{OptionSpec, RuleOptions, SetupProblem};

/// The Grand Chess ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Grand;

/// A Grand Chess position.
pub type GrandPosition = StandardPosition<2, 8, Grand>;

/// The start position.
pub const START_FEN: &str =
    "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1";

impl Rules<2, 8> for Grand {
    const ID: &'static str = "grand";

    fn option_specs() -> &'static [OptionSpec] {
        &[family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<2>, SpecError> {
        let geometry = family::chess_board(10, 10)
            .region("promotion-zone", family::mirrored_ranks(10, 10, &[7, 8, 9]))
            .region("grand-pawn-start", family::mirrored_ranks(10, 10, &[2]))
            .build()
            .map_err(family::board_error)?;
        let pawn = family::piece("P", "pawn", "fmWfceFifmnD")?
            .pawn()
            .initial("grand-pawn-start")
            .promotes_limited("promotion-zone", &["Q", "C", "A", "R", "B", "N"])
            .must_promote_in("last-rank");
        let mut pieces = family::orthodox_pieces()?;
        pieces[0] = pawn;
        pieces.push(family::piece("C", "marshal", "RN")?);
        pieces.push(family::piece("A", "cardinal", "BN")?);
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            Vec::new(),
        )
        .promotion_limits(&[("Q", 1), ("C", 1), ("A", 1), ("R", 2), ("B", 2), ("N", 2)])
        .values(family::CAPABLANCA_VALUES)
        .weights(crate::weights::family("chess")?)
        .start(START_FEN)
        .build()
    }

    fn is_dead(position: &GrandPosition) -> bool {
        family::minor_material_is_dead(position)
    }

    fn validate(position: &GrandPosition) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}
