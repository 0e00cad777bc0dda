//! Double Chess (`doublechess`), 16x8 with four castlings per side; see
//! `docs/rules/doublechess.md`.

use crate::family;
use chaturanga_rules::standard::{CastlingDef, Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{OptionSpec, RuleOptions, SetupProblem};

/// The Double Chess ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct DoubleChess;

/// A Double Chess position.
pub type DoubleChessPosition = StandardPosition<2, 6, DoubleChess>;

/// The start position; castling rights name the rook files (Shredder style).
pub const START_FEN: &str = "rnbqrnbqkbnrqbnr/pppppppppppppppp/16/16/16/16/PPPPPPPPPPPPPPPP/RNBQRNBQKBNRQBNR w AELPaelp - 0 1";

/// Castlings: (rook file, king to, rook to) for the king on the i-file.
const CASTLINGS: [(char, char, char); 4] = [
    ('a', 'e', 'f'), // outer queenside
    ('e', 'g', 'h'), // inner queenside
    ('l', 'k', 'j'), // inner kingside
    ('p', 'm', 'l'), // outer kingside
];

impl Rules<2, 6> for DoubleChess {
    const ID: &'static str = "doublechess";

    fn option_specs() -> &'static [OptionSpec] {
        &[family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<2>, SpecError> {
        let geometry = family::chess_board(16, 8)
            .build()
            .map_err(family::board_error)?;
        let mut castlings = Vec::new();
        for (player, rank) in [(0u8, 1), (1, 8)] {
            for (rook, king_to, rook_to) in CASTLINGS {
                let symbol = if player == 0 {
                    rook.to_ascii_uppercase()
                } else {
                    rook
                };
                castlings.push(CastlingDef::new(
                    player,
                    symbol,
                    [
                        &format!("i{rank}"),
                        &format!("{king_to}{rank}"),
                        &format!("{rook}{rank}"),
                        &format!("{rook_to}{rank}"),
                    ],
                ));
            }
        }
        family::with(
            family::builder(Self::ID, geometry, options),
            family::orthodox_pieces()?,
            castlings,
        )
        .values(family::ORTHODOX_VALUES)
        .start(START_FEN)
        .build()
    }

    fn is_dead(position: &DoubleChessPosition) -> bool {
        family::minor_material_is_dead(position)
    }

    fn validate(position: &DoubleChessPosition) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}
