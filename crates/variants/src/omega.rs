//! Omega Chess (`omega`), 10x10 plus four wizard cells; see `docs/rules/omega.md`.

use crate::family;
use chaturanga_geometry::GeometryBuilder;
use chaturanga_rules::standard::{CastlingDef, Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{OptionSpec, RuleOptions, SetupProblem};

/// The Omega Chess ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Omega;

/// An Omega Chess position.
pub type OmegaPosition = StandardPosition<2, 8, Omega>;

/// The start position (12x12 walled grid; `*` marks points that are not cells).
pub const START_FEN: &str = "w**********w/*crnbqkbnrc*/*pppppppppp*/*10*/*10*/*10*/*10*/*10*/*10*/*PPPPPPPPPP*/*CRNBQKBNRC*/W**********W w KQkq - 0 1";

impl Rules<2, 8> for Omega {
    const ID: &'static str = "omega";

    fn option_specs() -> &'static [OptionSpec] {
        &[family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<2>, SpecError> {
        // Omega files a-j and ranks 0-9 sit on lattice points (0..10, 0..10); the wizard cells
        // lie diagonally beyond the corners.
        let geometry = GeometryBuilder::rectangle(10, 10)
            .with_cells(&[(-1, -1), (10, -1), (10, 10), (-1, 10)])
            .labels(|x, y| match (x, y) {
                (-1, -1) => "w1".into(),
                (10, -1) => "w2".into(),
                (10, 10) => "w3".into(),
                (-1, 10) => "w4".into(),
                _ => format!("{}{}", (b'a' + x as u8) as char, y),
            })
            // Dark when (file number + rank) is even, a = 1, ranks from 0; a wizard cell has
            // its corner's colour, which the same formula gives.
            .colours(|x, y| (x + 1 + y).rem_euclid(2) as u8)
            .region("last-rank", family::mirrored_ranks(10, 10, &[9]))
            .region("pawn-start", family::mirrored_ranks(10, 10, &[1]))
            .region("back-rank", family::mirrored_ranks(10, 10, &[0]))
            .build()
            .map_err(family::board_error)?;
        let pieces = vec![
            family::piece("P", "pawn", "fmWfceFifmR3")?
                .pawn()
                .initial("pawn-start")
                .en_passant_after(2, 3)
                .promotes("last-rank", &["Q", "R", "B", "N", "C", "W"])
                .must_promote_in("last-rank"),
            family::piece("N", "knight", "N")?,
            family::piece("B", "bishop", "B")?,
            family::piece("R", "rook", "R")?,
            family::piece("Q", "queen", "Q")?,
            family::king()?,
            family::piece("C", "champion", "WAD")?,
            family::piece("W", "wizard", "CF")?,
        ];
        let castlings = vec![
            CastlingDef::new(0, 'K', ["f0", "h0", "i0", "g0"]),
            CastlingDef::new(0, 'Q', ["f0", "d0", "b0", "e0"]),
            CastlingDef::new(1, 'k', ["f9", "h9", "i9", "g9"]),
            CastlingDef::new(1, 'q', ["f9", "d9", "b9", "e9"]),
        ];
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            castlings,
        )
        .values(family::ORTHODOX_VALUES)
        .start(START_FEN)
        .build()
    }

    fn is_dead(position: &OmegaPosition) -> bool {
        family::bare_royals_are_dead(position)
    }

    fn validate(position: &OmegaPosition) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}
