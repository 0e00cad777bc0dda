//! Capablanca chess (`capablanca`), 10x8 with chancellor and archbishop; see
//! `docs/rules/capablanca.md`.

use crate::family;
use chaturanga_rules::standard::{Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{OptionSpec, OptionValues, RuleOptions, SetupProblem};

/// The Capablanca chess ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Capablanca;

/// A Capablanca chess position.
pub type CapablancaPosition = StandardPosition<2, 8, Capablanca>;

/// The seed's array (chancellor d1, archbishop g1): the default.
pub const SEED_START: &str = "rnbcqkabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBCQKABNR w KQkq - 0 1";
/// Capablanca's final array, Fairy-Stockfish's start position (`setup=standard`).
pub const STANDARD_START: &str =
    "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";

const SETUP: OptionSpec = OptionSpec {
    name: "setup",
    values: OptionValues::Choice(&["seed", "standard"]),
    default: "seed",
    help: "seed: R N B C Q K A B N R (the catalogue's array); standard: R N A B Q K B C N R",
    label: "Start position",
    words: &[
        ("seed", "The catalogue's array: R N B C Q K A B N R"),
        ("standard", "Capablanca's array: R N A B Q K B C N R"),
    ],
};

impl Rules<2, 8> for Capablanca {
    const ID: &'static str = "capablanca";

    fn option_specs() -> &'static [OptionSpec] {
        &[SETUP, family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<2>, SpecError> {
        let geometry = family::chess_board(10, 8)
            .build()
            .map_err(family::board_error)?;
        let mut pieces = family::orthodox_pieces()?;
        pieces[0] = family::pawn("fmWfceFifmnD", &["Q", "C", "A", "R", "B", "N"])?;
        pieces.push(family::piece("C", "chancellor", "RN")?);
        pieces.push(family::piece("A", "archbishop", "BN")?);
        let start = if options.get("setup") == Some("standard") {
            STANDARD_START
        } else {
            SEED_START
        };
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            family::corner_castlings(10, 8, 'f', 'i', 'c'),
        )
        .values(family::CAPABLANCA_VALUES)
        .weights(crate::weights::family("chess")?)
        .start(start)
        .build()
    }

    fn is_dead(position: &CapablancaPosition) -> bool {
        family::minor_material_is_dead(position)
    }

    fn validate(position: &CapablancaPosition) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}
