//! Maharajah and the Sepoys (`maharajah`): a lone royal amazon against the chess army; see
//! `docs/rules/maharajah.md`.

use crate::family;
use chaturanga_geometry::CellSet;
use chaturanga_rules::standard::{Move, Rules, Spec, SpecError, Special, StandardPosition};
use chaturanga_rules::{Kind, OptionSpec, OptionValues, RuleOptions};

/// The Maharajah and the Sepoys ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Maharajah;

/// A Maharajah position.
pub type MaharajahPosition = StandardPosition<1, 7, Maharajah>;

/// The start position with the Maharajah on its default cell, e1.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/8/4M3 w kq - 0 1";
/// The start position before the Maharajah is placed (it is in White's hand).
pub const PLACEMENT_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/8/8[M] w kq - 0 1";

const PLACEMENT: OptionSpec = OptionSpec {
    name: "placement",
    values: OptionValues::Choice(&["any", "unattacked", "ranks1-3"]),
    default: "any",
    help: "where the Maharajah may be placed: any empty cell, cells no sepoy attacks, or ranks 1-3 (Bodlaender)",
    label: "Maharajah's placement",
    words: &[
        ("any", "The Maharajah may be placed on any empty cell"),
        (
            "unattacked",
            "The Maharajah may be placed on a cell no sepoy attacks",
        ),
        (
            "ranks1-3",
            "The Maharajah may be placed on ranks 1 to 3 (Bodlaender)",
        ),
    ],
};

/// Orthodox values for the Sepoys, and the Maharajah valued as a fighting piece at their
/// whole material (8 pawns, 2 knights, 2 bishops, 2 rooks, a queen: 4,050) on top of its
/// royal worth: the engine then sees the start as level (among strong human players the
/// game is close) and does not settle for a repetition when it plays the Maharajah.
const VALUES: [(&str, i32); 6] = [
    ("P", 100),
    ("N", 320),
    ("B", 330),
    ("R", 500),
    ("Q", 950),
    ("M", 4_050),
];

impl Rules<1, 7> for Maharajah {
    const ID: &'static str = "maharajah";

    fn option_specs() -> &'static [OptionSpec] {
        &[PLACEMENT, family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = family::chess_board(8, 8)
            .region("ranks1-3", vec![family::ranks(8, 0..3), Vec::new()])
            .build()
            .map_err(family::board_error)?;
        let mut pieces = family::orthodox_pieces()?;
        // Sepoy pawns never promote; on rank 1 a pawn simply has no moves.
        pieces[0] = family::piece("P", "pawn", "fmWfceFifmnD")?
            .pawn()
            .initial("pawn-start");
        pieces.push(family::piece("M", "maharajah", "QN")?.royal());
        let mut castlings = family::corner_castlings(8, 8, 'e', 'g', 'c');
        castlings.retain(|c| c.player == 1);
        let mut builder = family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            castlings,
        );
        if options.get("placement") == Some("ranks1-3") {
            builder = builder.drop_zone("M", "ranks1-3");
        }
        builder.values(&VALUES).start(START_FEN).build()
    }

    /// Placing the Maharajah is a setup action: White still makes the first move.
    fn turn_passes(_position: &MaharajahPosition, mv: &Move) -> bool {
        mv.special != Special::Drop
    }

    fn drop_cells(position: &MaharajahPosition, _kind: Kind, cells: CellSet<1>) -> CellSet<1> {
        if position.spec().options.get("placement") != Some("unattacked") {
            return cells;
        }
        let occupied = position.occupied();
        cells
            .iter()
            .filter(|&c| !position.attacked(c, 1 - position.turn(), occupied))
            .collect()
    }
}
