//! Piece movement on hexagonal boards, as data.
//!
//! Betza letters name square-board moves (`W` is one of four orthogonal steps), so hexagonal
//! pieces are not written in Betza. A [`HexMove`] names a hex atom (orthogonal step, diagonal
//! step, knight leap), which of its directions the move uses relative to the owner, leap or
//! ride, and the same modifiers Betza has (move or capture only, initial, en passant).
//! [`resolve`] turns a list of them into the resolved form a Betza string parses into — a
//! [`Betza`] of explicit lattice vectors — so hexagonal pieces compile into the same
//! [`CompiledMove`](crate::piece::CompiledMove)s, tables, checks and pins as every other
//! piece, against a [`Lattice::Hex`](chaturanga_geometry::Lattice::Hex) geometry.
//!
//! Vectors are doubled hex coordinates ([`chaturanga_geometry::Lattice::Hex`]): `dy > 0` is
//! the owner's forward (up his files), `dx > 0` his right, as in Betza.

use crate::betza::{Betza, BetzaMove, Hop, Range};
use chaturanga_geometry::{HEX_DIAGONAL, HEX_ORTHOGONAL, Vector};

/// The knight's twelve leaps: one orthogonal step then one diagonal step turning away from
/// the start (30° off the orthogonal), which never lands on the start cell's colour.
const HEX_KNIGHT: [(i16, i16); 12] = [
    (1, 5),
    (-1, 5),
    (2, 4),
    (-2, 4),
    (3, 1),
    (-3, 1),
    (3, -1),
    (-3, -1),
    (2, -4),
    (-2, -4),
    (1, -5),
    (-1, -5),
];

/// A basic displacement of a hexagonal piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexAtom {
    /// To a cell sharing an edge: six directions ([`HEX_ORTHOGONAL`]).
    Orthogonal,
    /// To the nearest cell of the same colour, across a corner: six directions
    /// ([`HEX_DIAGONAL`]).
    Diagonal,
    /// Gliński's knight: an orthogonal step then a diagonal step outward, twelve leaps.
    Knight,
}

impl HexAtom {
    /// Every direction of the atom.
    pub fn vectors(self) -> Vec<Vector> {
        match self {
            HexAtom::Orthogonal => HEX_ORTHOGONAL.to_vec(),
            HexAtom::Diagonal => HEX_DIAGONAL.to_vec(),
            HexAtom::Knight => HEX_KNIGHT
                .iter()
                .map(|&(dx, dy)| Vector::new(dx, dy))
                .collect(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            HexAtom::Orthogonal => "orthogonal",
            HexAtom::Diagonal => "diagonal",
            HexAtom::Knight => "knight",
        }
    }
}

/// Which of an atom's directions a move uses, seen from the owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexDirections {
    /// All of them.
    All,
    /// Straight ahead, up the owner's file only (the pawn's advance).
    Ahead,
    /// Forward but not along the file: the two forward orthogonal neighbours (the pawn's
    /// captures), or the forward diagonals and leaps.
    ForwardSideways,
    /// Every direction with a forward component.
    Forward,
    /// Every direction with a backward component.
    Backward,
}

impl HexDirections {
    fn admits(self, v: Vector) -> bool {
        match self {
            HexDirections::All => true,
            HexDirections::Ahead => v.dx == 0 && v.dy > 0,
            HexDirections::ForwardSideways => v.dx != 0 && v.dy > 0,
            HexDirections::Forward => v.dy > 0,
            HexDirections::Backward => v.dy < 0,
        }
    }

    fn name(self) -> &'static str {
        match self {
            HexDirections::All => "",
            HexDirections::Ahead => "straight ahead ",
            HexDirections::ForwardSideways => "forward-sideways ",
            HexDirections::Forward => "forward ",
            HexDirections::Backward => "backward ",
        }
    }
}

/// One family of moves of a hexagonal piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HexMove {
    /// The displacement.
    pub atom: HexAtom,
    /// Which of its directions.
    pub directions: HexDirections,
    /// One displacement, or repeated along the line (through empty cells) up to a limit.
    pub range: Range,
    /// May move to an empty cell.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
    /// Only from the piece's initial cells (Betza's `i`).
    pub initial: bool,
    /// The capture may be made en passant (Betza's `e`).
    pub en_passant: bool,
}

impl HexMove {
    /// One step or leap of `atom` in every direction, moving or capturing.
    pub const fn step(atom: HexAtom) -> Self {
        HexMove {
            atom,
            directions: HexDirections::All,
            range: Range::Leap,
            quiet: true,
            capture: true,
            initial: false,
            en_passant: false,
        }
    }

    /// Any number of `atom` steps along a line through empty cells, in every direction.
    pub const fn ride(atom: HexAtom) -> Self {
        HexMove {
            range: Range::Ride { max: None },
            ..HexMove::step(atom)
        }
    }

    /// At most `max` `atom` steps along a line through empty cells.
    pub const fn ride_up_to(atom: HexAtom, max: u16) -> Self {
        HexMove {
            range: Range::Ride { max: Some(max) },
            ..HexMove::step(atom)
        }
    }

    /// Only in `directions`.
    pub const fn only(self, directions: HexDirections) -> Self {
        HexMove { directions, ..self }
    }

    /// Never captures.
    pub const fn move_only(self) -> Self {
        HexMove {
            quiet: true,
            capture: false,
            ..self
        }
    }

    /// Only captures.
    pub const fn capture_only(self) -> Self {
        HexMove {
            quiet: false,
            capture: true,
            ..self
        }
    }

    /// Only from the piece's initial cells.
    pub const fn initial(self) -> Self {
        HexMove {
            initial: true,
            ..self
        }
    }

    /// The capture may also be made en passant.
    pub const fn en_passant(self) -> Self {
        HexMove {
            en_passant: true,
            ..self
        }
    }

    /// The move in words (`"initial straight ahead orthogonal move up to 2"`).
    pub fn describe(&self) -> String {
        let mut text = String::new();
        if self.initial {
            text.push_str("initial ");
        }
        text.push_str(self.directions.name());
        text.push_str(self.atom.name());
        text.push_str(match (self.quiet, self.capture) {
            (true, false) => " move",
            (false, true) => " capture",
            _ => "",
        });
        match self.range {
            Range::Leap => text.push_str(" step"),
            Range::Ride { max: None } => text.push_str(" rider"),
            Range::Ride { max: Some(n) } => text.push_str(&format!(" rider up to {n}")),
        }
        if self.en_passant {
            text.push_str(", en passant");
        }
        text
    }

    /// The move with its directions resolved into explicit vectors.
    fn resolve(&self) -> BetzaMove {
        BetzaMove {
            vectors: self
                .atom
                .vectors()
                .into_iter()
                .filter(|&v| self.directions.admits(v))
                .map(|v| (v.dx, v.dy))
                .collect(),
            range: self.range,
            quiet: self.quiet,
            capture: self.capture,
            initial: self.initial,
            lame: false,
            hop: Hop::None,
            en_passant: self.en_passant,
            beside_ahead: false,
        }
    }
}

/// The resolved form of hexagonal moves, as the tables compile it.
pub fn resolve(moves: &[HexMove]) -> Betza {
    Betza {
        moves: moves.iter().map(HexMove::resolve).collect(),
    }
}

/// The moves in words, joined with `"; "`: the description a hexagonal piece carries where
/// other pieces carry their Betza string.
pub fn describe(moves: &[HexMove]) -> String {
    moves
        .iter()
        .map(HexMove::describe)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::{CompiledMove, Reach, compile_at, reach_on_empty_board};
    use chaturanga_geometry::{Geometry, GeometryBuilder};

    fn board() -> Geometry {
        GeometryBuilder::hexagon(6).build().unwrap()
    }

    fn labels(g: &Geometry, cells: &[chaturanga_geometry::Cell]) -> Vec<String> {
        let mut v: Vec<String> = cells.iter().map(|&c| g.label(c).to_string()).collect();
        v.sort();
        v
    }

    fn sorted(text: &str) -> Vec<String> {
        let mut v: Vec<String> = text.split(' ').map(str::to_string).collect();
        v.sort();
        v
    }

    #[test]
    fn knight_is_an_orthogonal_then_an_outward_diagonal_step() {
        // Every knight leap is o + d for an orthogonal o and a diagonal d at 30° to it, and
        // every such sum is a knight leap.
        let mut sums = Vec::new();
        for o in HEX_ORTHOGONAL {
            for d in HEX_DIAGONAL {
                // Adjacent directions: the dot product in the plane (x scaled by 3/2,
                // y by √3/2) is positive and the sum is not a straight extension.
                let dot = 9 * o.dx as i32 * d.dx as i32 + 3 * o.dy as i32 * d.dy as i32;
                let straight = o.dx * d.dy == o.dy * d.dx;
                if dot > 0 && !straight {
                    sums.push((o.dx + d.dx, o.dy + d.dy));
                }
            }
        }
        sums.sort();
        sums.dedup();
        let mut knight = HEX_KNIGHT.to_vec();
        knight.sort();
        assert_eq!(sums, knight);
    }

    /// Rules-file scenarios 3-6 for the pieces alone on the empty board.
    #[test]
    fn pieces_from_the_centre_of_an_empty_board() {
        let g = board();
        let f6 = g.cell_by_label("f6").unwrap();
        let reach =
            |moves: &[HexMove]| labels(&g, &reach_on_empty_board(&g, &resolve(moves), f6, false));
        let rook = reach(&[HexMove::ride(HexAtom::Orthogonal)]);
        assert_eq!(rook.len(), 30);
        let bishop = reach(&[HexMove::ride(HexAtom::Diagonal)]);
        assert_eq!(bishop, sorted("h5 k4 d5 b4 g7 h8 e7 d8 g4 h2 e4 d2"));
        assert!(
            bishop
                .iter()
                .all(|l| g.colour(g.cell_by_label(l).unwrap()) == 2)
        );
        let knight = reach(&[HexMove::step(HexAtom::Knight)]);
        assert_eq!(knight, sorted("c4 c5 d3 d7 e3 e8 g3 g8 h3 h7 i4 i5"));
        for l in &knight {
            assert_ne!(g.colour(g.cell_by_label(l).unwrap()), g.colour(f6));
        }
        let queen = reach(&[
            HexMove::ride(HexAtom::Orthogonal),
            HexMove::ride(HexAtom::Diagonal),
        ]);
        assert_eq!(queen.len(), 42);
        let e4 = g.cell_by_label("e4").unwrap();
        let king = resolve(&[
            HexMove::step(HexAtom::Orthogonal),
            HexMove::step(HexAtom::Diagonal),
        ]);
        assert_eq!(
            labels(&g, &reach_on_empty_board(&g, &king, e4, false)),
            sorted("e5 e3 f5 f4 d4 d3 g4 c3 f6 f3 d5 d2")
        );
    }

    #[test]
    fn pawn_moves_for_both_players() {
        let g = board();
        let pawn = [
            HexMove::step(HexAtom::Orthogonal)
                .only(HexDirections::Ahead)
                .move_only(),
            HexMove::ride_up_to(HexAtom::Orthogonal, 2)
                .only(HexDirections::Ahead)
                .move_only()
                .initial(),
            HexMove::step(HexAtom::Orthogonal)
                .only(HexDirections::ForwardSideways)
                .capture_only()
                .en_passant(),
        ];
        let resolved = resolve(&pawn);
        let targets = |label: &str, orient: fn(Vector) -> Vector| {
            let cell = g.cell_by_label(label).unwrap();
            let mut quiet = Vec::new();
            let mut captures = Vec::new();
            for CompiledMove { reach, capture, .. } in compile_at(&g, &resolved, cell, orient) {
                let cells = match reach {
                    Reach::Leap { to, .. } => vec![to],
                    Reach::Ride { ray } => ray,
                    _ => unreachable!("pawns leap and ride"),
                };
                if capture {
                    captures.extend(cells);
                } else {
                    quiet.extend(cells);
                }
            }
            let mut quiet = labels(&g, &quiet);
            quiet.dedup();
            (quiet, labels(&g, &captures))
        };
        // Scenario 7: White e4 to e5, e6; captures d4, f5. Black c7 to c6, c5; b6, d7.
        assert_eq!(targets("e4", |v| v), (sorted("e5 e6"), sorted("d4 f5")));
        assert_eq!(
            targets("c7", Vector::reversed),
            (sorted("c6 c5"), sorted("b6 d7"))
        );
        assert_eq!(
            describe(&pawn),
            "straight ahead orthogonal move step; initial straight ahead orthogonal move rider up to 2; forward-sideways orthogonal capture step, en passant"
        );
    }
}
