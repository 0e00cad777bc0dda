//! Gliński's hexagonal chess (`hexchess`); see `docs/rules/hexchess.md`.
//!
//! The board is the geometry crate's hexagon of side 6 (91 cells, doubled coordinates, Gliński's
//! labels, V-shaped ranks as FEN rows); the pieces are hexagonal moves given as data
//! ([`chaturanga_rules::hex`]), compiled into the same tables as every square-board piece, so
//! the standard position plays the game: checks and pins along the twelve lines, en passant
//! after the double step, promotion on the far edge. What is particular to the game is data
//! too: the FEN has no castling field, and under the default `double-step=own-start` the
//! pawn's double step needs an unmoved pawn, which the position tracks (a pawn can capture
//! onto another pawn's starting cell). The hooks add Gliński's stalemate scoring and the
//! bare-kings draw.

use crate::family;
use chaturanga_geometry::GeometryBuilder;
use chaturanga_rules::hex::{HexAtom, HexDirections, HexMove};
use chaturanga_rules::standard::{Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{
    OptionSpec, OptionValues, Outcome, PieceType, Position, Reason, RuleOptions,
};

/// The hexagonal chess ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct HexChess;

/// A hexagonal chess position: 91 cells in two words, six kinds (P N B R Q K).
pub type HexChessPosition = StandardPosition<2, 6, HexChess>;

/// The start position (`hexchess.md`, Setup): ranks 11 down to 1, no castling field.
pub const START_FEN: &str =
    "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - 0 1";

/// Cells per side of the hexagon.
const SIDE: i32 = 6;

/// Gliński's file letters, `j` left out.
const FILES: &str = "abcdefghikl";

/// Pawn starting cells: White's, then Black's.
const PAWN_START: [&str; 2] = ["b1 c2 d3 e4 f5 g4 h3 i2 k1", "b7 c7 d7 e7 f7 g7 h7 i7 k7"];

/// The `stalemate` option.
const STALEMATE: OptionSpec = OptionSpec {
    name: "stalemate",
    values: OptionValues::Choice(&["draw", "glinski"]),
    default: "draw",
    help: "glinski: the stalemating player scores 3/4, the stalemated one 1/4",
    label: "Stalemate",
    words: &[
        ("draw", "Stalemate is a draw"),
        (
            "glinski",
            "The stalemating player scores 3/4, the stalemated one 1/4",
        ),
    ],
};

/// The `double-step` option.
const DOUBLE_STEP: OptionSpec = OptionSpec {
    name: "double-step",
    values: OptionValues::Choice(&["own-start", "any-start-cell"]),
    default: "own-start",
    help: "any-start-cell: a pawn on any of its side's starting cells may advance two cells, \
           even after capturing onto it",
    label: "Pawn double step",
    words: &[
        (
            "own-start",
            "A pawn may advance two cells from its own start cell",
        ),
        (
            "any-start-cell",
            "A pawn on any of its side's start cells may advance two cells, even after capturing onto it",
        ),
    ],
};

/// The lattice point of a label in Gliński's notation (`f6` -> file 5, height 10); the
/// labels here are constants of the rules file.
fn point(label: &str) -> Option<(i32, i32)> {
    let q = FILES.find(label.get(..1)?)? as i32;
    let rank: i32 = label.get(1..)?.parse().ok()?;
    Some((q, 2 * (rank - 1) + (q - (SIDE - 1)).abs()))
}

fn points(labels: &str) -> Result<Vec<(i32, i32)>, SpecError> {
    labels
        .split(' ')
        .map(|l| point(l).ok_or_else(|| SpecError::UnknownCell(l.to_string())))
        .collect()
}

/// The board with its regions: `promotion` (White: the top cell of each file; Black: rank 1)
/// and `pawn-start`.
fn board() -> Result<GeometryBuilder, SpecError> {
    let centre = SIDE - 1;
    let files = 0..=2 * centre;
    let top: Vec<(i32, i32)> = files
        .clone()
        .map(|q| {
            (
                q,
                2 * (2 * centre - (q - centre).abs()) + (q - centre).abs(),
            )
        })
        .collect();
    let bottom: Vec<(i32, i32)> = files.map(|q| (q, (q - centre).abs())).collect();
    Ok(GeometryBuilder::hexagon(SIDE)
        .region("promotion", vec![top, bottom])
        .region(
            "pawn-start",
            vec![points(PAWN_START[0])?, points(PAWN_START[1])?],
        ))
}

/// The army in kind order P N B R Q K; the pawn's double step needs it unmoved unless
/// `any_start_cell`.
fn pieces(any_start_cell: bool) -> Vec<PieceType> {
    use HexAtom::{Diagonal, Knight, Orthogonal};
    let pawn_moves = [
        HexMove::step(Orthogonal)
            .only(HexDirections::Ahead)
            .move_only(),
        HexMove::ride_up_to(Orthogonal, 2)
            .only(HexDirections::Ahead)
            .move_only()
            .initial(),
        HexMove::step(Orthogonal)
            .only(HexDirections::ForwardSideways)
            .capture_only()
            .en_passant(),
    ];
    let mut pawn = PieceType::hex("P", "pawn", &pawn_moves)
        .pawn()
        .initial("pawn-start")
        .promotes("promotion", &["Q", "R", "B", "N"])
        .must_promote_in("promotion");
    if !any_start_cell {
        pawn = pawn.initial_only_while_unmoved();
    }
    vec![
        pawn,
        PieceType::hex("N", "knight", &[HexMove::step(Knight)]),
        PieceType::hex("B", "bishop", &[HexMove::ride(Diagonal)]),
        PieceType::hex("R", "rook", &[HexMove::ride(Orthogonal)]),
        PieceType::hex(
            "Q",
            "queen",
            &[HexMove::ride(Orthogonal), HexMove::ride(Diagonal)],
        ),
        PieceType::hex(
            "K",
            "king",
            &[HexMove::step(Orthogonal), HexMove::step(Diagonal)],
        )
        .royal(),
    ]
}

impl Rules<2, 6> for HexChess {
    const ID: &'static str = "hexchess";

    fn option_specs() -> &'static [OptionSpec] {
        &[STALEMATE, DOUBLE_STEP, family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<2>, SpecError> {
        let geometry = board()?.build().map_err(family::board_error)?;
        let any_start_cell = options.get("double-step") == Some("any-start-cell");
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces(any_start_cell),
            Vec::new(),
        )
        .without_castling_field()
        .start(START_FEN)
        .build()
    }

    /// Only king against king is dead (`hexchess.md`, Decision 6): even two knights can mate.
    fn is_dead(position: &HexChessPosition) -> bool {
        family::bare_royals_are_dead(position)
    }

    /// Checkmate loses; stalemate draws, or under `stalemate=glinski` gives the stalemating
    /// player 3/4 and the stalemated one 1/4.
    fn outcome_without_moves(position: &HexChessPosition) -> Outcome {
        let mover = position.side_to_move();
        if position.is_check() {
            return Outcome::loss(2, mover, Reason::Checkmate);
        }
        if position.spec().options.get("stalemate") == Some("glinski") {
            let mut quarters = vec![3; 2];
            quarters[mover] = 1;
            return Outcome {
                quarters,
                reason: Reason::Stalemate,
            };
        }
        Outcome::draw(2, Reason::Stalemate)
    }
}

/// A text drawing of the position for a terminal: the hexagonal cells with White at the
/// bottom, each man as his letter (upper case White, lower case Black), each empty cell
/// with its label, and the file letters underneath (see
/// [`chaturanga_geometry::Geometry::drawing`]).
pub fn drawing(position: &HexChessPosition) -> String {
    let spec = position.spec();
    let geometry = &spec.geometry;
    geometry.drawing(|cell| {
        let piece = position.piece_at(cell);
        if piece.is_none() {
            return geometry.label(cell).to_string();
        }
        let symbol = &spec.pieces[piece.kind() as usize].symbol;
        if piece.player() == 0 {
            symbol.clone()
        } else {
            symbol.to_ascii_lowercase()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_reads_and_writes_back() {
        let start = HexChessPosition::start(&RuleOptions::default()).unwrap();
        assert_eq!(start.fen(), START_FEN);
        let spec = start.spec();
        assert_eq!(spec.geometry.len(), 91);
        let region = |name: &str, player: usize| -> Vec<String> {
            let mut v: Vec<String> = spec.geometry.region(name).unwrap().cells[player]
                .iter()
                .map(|&c| spec.geometry.label(c).to_string())
                .collect();
            v.sort();
            v
        };
        let sorted = |text: &str| {
            let mut v: Vec<String> = text.split(' ').map(str::to_string).collect();
            v.sort();
            v
        };
        assert_eq!(
            region("promotion", 0),
            sorted("a6 b7 c8 d9 e10 f11 g10 h9 i8 k7 l6")
        );
        assert_eq!(
            region("promotion", 1),
            sorted("a1 b1 c1 d1 e1 f1 g1 h1 i1 k1 l1")
        );
        assert_eq!(region("pawn-start", 0), sorted(PAWN_START[0]));
        assert_eq!(region("pawn-start", 1), sorted(PAWN_START[1]));
    }

    #[test]
    fn drawing_shows_the_men_on_the_hexagon() {
        let start = HexChessPosition::start(&RuleOptions::default()).unwrap();
        let text = drawing(&start);
        let lines: Vec<&str> = text.lines().collect();
        // 23 lines of cells (21 half-cell heights plus the edges), then the file letters.
        assert_eq!(lines.len(), 24);
        assert_eq!(lines[0].trim(), "___");
        // Black's bishop alone on f11, White's on f1 at the bottom.
        assert_eq!(lines[1].trim(), "___/ b \\___");
        assert_eq!(lines[21].trim(), "\\___/ B \\___/");
        assert_eq!(
            lines[23].trim(),
            "a   b   c   d   e   f   g   h   i   k   l"
        );
        // Every cell once: 36 men as single letters, 55 empty cells with their labels.
        let mut contents = Vec::new();
        for line in &lines[..23] {
            let chars: Vec<char> = line.chars().collect();
            for i in 0..chars.len().saturating_sub(4) {
                if chars[i] == '/' && chars[i + 4] == '\\' {
                    contents.push(chars[i + 1..i + 4].iter().collect::<String>());
                }
            }
        }
        assert_eq!(contents.len(), 91);
        let men: Vec<&String> = contents.iter().filter(|c| c.trim().len() == 1).collect();
        assert_eq!(men.len(), 36);
        assert_eq!(men.iter().filter(|m| m.trim() == "P").count(), 9);
        assert_eq!(men.iter().filter(|m| m.trim() == "p").count(), 9);
        assert!(contents.contains(&"f6 ".to_string()));
        assert!(
            !contents.contains(&"g1 ".to_string()),
            "the white king stands there"
        );
    }
}
