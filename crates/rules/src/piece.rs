//! Piece types and their compilation against a board.

use crate::betza::{self, Betza, BetzaError, Hop, Range};
use chaturanga_geometry::{Cell, Geometry, Vector};

/// A player number: 0 moves first.
pub type Player = u8;

/// A piece kind: an index into the variant's list of piece types.
pub type Kind = u8;

/// A man on the board: player and kind packed in one byte; 0 is "no piece".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug, PartialOrd, Ord)]
pub struct Piece(pub u8);

impl Piece {
    /// No piece.
    pub const NONE: Piece = Piece(0);

    /// The piece of `player` and `kind` (`kind < 63`, `player < 4`).
    #[inline(always)]
    pub const fn new(player: Player, kind: Kind) -> Piece {
        Piece((player << 6) | (kind + 1))
    }

    /// Whether this is "no piece".
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Whether there is a piece.
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// The owner (meaningless for [`Piece::NONE`]).
    #[inline(always)]
    pub const fn player(self) -> Player {
        self.0 >> 6
    }

    /// The kind (meaningless for [`Piece::NONE`]).
    #[inline(always)]
    pub const fn kind(self) -> Kind {
        (self.0 & 63).wrapping_sub(1)
    }
}

/// How a piece may promote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotionRule {
    /// Name of the geometry region where promotion is possible (per player).
    pub zone: String,
    /// Name of the region where a move ending there must promote (`None`: never forced).
    pub forced: Option<String>,
    /// Symbols of the piece types it may become.
    pub choices: Vec<String>,
}

/// A piece type of a variant: names, symbol, movement and roles.
#[derive(Clone, Debug)]
pub struct PieceType {
    /// English name.
    pub name: String,
    /// Symbol as written for the first player in FEN, upper case, with a `+` prefix for
    /// promoted shogi pieces (`P`, `+R`).
    pub symbol: String,
    /// Movement in Betza notation, as given.
    pub betza: String,
    /// Movement, parsed.
    pub moves: Betza,
    /// Capturing all of these (or checkmating one) decides the game.
    pub royal: bool,
    /// Moves of this kind are irreversible (reset the fifty-move counter).
    pub pawn: bool,
    /// Region whose cells allow the `i` (initial) moves.
    pub initial_region: Option<String>,
    /// Promotion, if the piece promotes.
    pub promotion: Option<PromotionRule>,
}

impl PieceType {
    /// A piece type from its symbol, name and Betza string.
    pub fn new(symbol: &str, name: &str, betza: &str) -> Result<PieceType, BetzaError> {
        Ok(PieceType {
            name: name.to_string(),
            symbol: symbol.to_string(),
            betza: betza.to_string(),
            moves: betza::parse(betza)?,
            royal: false,
            pawn: false,
            initial_region: None,
            promotion: None,
        })
    }

    /// Marks the piece royal.
    pub fn royal(mut self) -> Self {
        self.royal = true;
        self
    }

    /// Marks the piece a pawn: its moves are irreversible.
    pub fn pawn(mut self) -> Self {
        self.pawn = true;
        self
    }

    /// Sets the region where initial (`i`) moves are allowed.
    pub fn initial(mut self, region: &str) -> Self {
        self.initial_region = Some(region.to_string());
        self
    }

    /// Sets a promotion rule.
    pub fn promotes(mut self, zone: &str, forced: Option<&str>, choices: &[&str]) -> Self {
        self.promotion = Some(PromotionRule {
            zone: zone.to_string(),
            forced: forced.map(str::to_string),
            choices: choices.iter().map(|s| s.to_string()).collect(),
        });
        self
    }

    /// Whether any move of the piece may capture en passant.
    pub fn captures_en_passant(&self) -> bool {
        self.moves.moves.iter().any(|m| m.en_passant)
    }
}

/// Where a compiled move goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    /// A single displacement; `path` are the cells passed (empty for a plain leap).
    Leap {
        /// Destination.
        to: Cell,
        /// Cells that must be empty (lame leaps only).
        path: Vec<Cell>,
    },
    /// A line of cells, nearest first.
    Ride {
        /// The cells.
        ray: Vec<Cell>,
    },
    /// A line of cells to hop along, nearest first.
    Hop {
        /// The cells.
        ray: Vec<Cell>,
        /// Cannon or grasshopper.
        hop: Hop,
    },
}

/// One compiled move family of a piece on one cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledMove {
    /// Where it goes.
    pub reach: Reach,
    /// May go to an empty cell.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
    /// Initial-only move.
    pub initial: bool,
    /// The capture may be en passant.
    pub en_passant: bool,
}

/// The lattice points passed by a lame leap of `(dx, dy)`: first straight along the longer
/// axis, then diagonally (the xiangqi horse's leg, the elephant's eye).
fn lame_path(dx: i16, dy: i16) -> Vec<(i16, i16)> {
    let (ax, ay) = (dx.abs(), dy.abs());
    let (sx, sy) = (dx.signum(), dy.signum());
    let straight = (ax - ay).abs();
    let diagonal = ax.min(ay);
    let mut out = Vec::new();
    let (mut x, mut y) = (0, 0);
    for _ in 0..straight {
        if ax > ay {
            x += sx;
        } else {
            y += sy;
        }
        out.push((x, y));
    }
    for _ in 0..diagonal {
        x += sx;
        y += sy;
        out.push((x, y));
    }
    out.pop();
    out
}

/// Compiles the moves of `piece` for a piece standing on `cell`, with the owner's directions
/// turned by `orient`.
pub fn compile_at(
    geometry: &Geometry,
    moves: &Betza,
    cell: Cell,
    orient: impl Fn(Vector) -> Vector,
) -> Vec<CompiledMove> {
    let mut out = Vec::new();
    let (x0, y0) = geometry.coords(cell);
    for m in &moves.moves {
        for &(dx, dy) in &m.vectors {
            let v = orient(Vector::new(dx, dy));
            let reach = match (m.range, m.hop) {
                (Range::Leap, _) => {
                    let Some(to) = geometry.offset(cell, v) else {
                        continue;
                    };
                    let mut path = Vec::new();
                    if m.lame {
                        let mut ok = true;
                        for (px, py) in lame_path(v.dx, v.dy) {
                            match geometry.at(x0 + px as i32, y0 + py as i32) {
                                Some(c) => path.push(c),
                                None => ok = false,
                            }
                        }
                        if !ok {
                            continue;
                        }
                    }
                    Reach::Leap { to, path }
                }
                (Range::Ride { max }, hop) => {
                    for ray in geometry.rays(cell, v, max.map(usize::from)) {
                        if ray.is_empty() {
                            continue;
                        }
                        let reach = if hop == Hop::None {
                            Reach::Ride { ray }
                        } else {
                            Reach::Hop { ray, hop }
                        };
                        out.push(CompiledMove {
                            reach,
                            quiet: m.quiet,
                            capture: m.capture,
                            initial: m.initial,
                            en_passant: m.en_passant,
                        });
                    }
                    continue;
                }
            };
            out.push(CompiledMove {
                reach,
                quiet: m.quiet,
                capture: m.capture,
                initial: m.initial,
                en_passant: m.en_passant,
            });
        }
    }
    out
}

/// The set of cells a piece reaches from `cell` on an otherwise empty board (for tests and
/// documentation of pieces).
pub fn reach_on_empty_board(
    geometry: &Geometry,
    moves: &Betza,
    cell: Cell,
    include_initial: bool,
) -> Vec<Cell> {
    let mut cells = Vec::new();
    for m in compile_at(geometry, moves, cell, |v| v) {
        if m.initial && !include_initial {
            continue;
        }
        match m.reach {
            Reach::Leap { to, .. } => cells.push(to),
            Reach::Ride { ray } => cells.extend(ray),
            // A hopper needs a screen; on an empty board it goes nowhere.
            Reach::Hop { .. } => {}
        }
    }
    cells.sort();
    cells.dedup();
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaturanga_geometry::GeometryBuilder;

    #[test]
    fn piece_packing() {
        let p = Piece::new(1, 5);
        assert_eq!((p.player(), p.kind()), (1, 5));
        assert!(p.is_some());
        assert!(Piece::NONE.is_none());
        let q = Piece::new(2, 61);
        assert_eq!((q.player(), q.kind()), (2, 61));
    }

    #[test]
    fn lame_paths() {
        assert_eq!(lame_path(1, 2), vec![(0, 1)]);
        assert_eq!(lame_path(-2, 1), vec![(-1, 0)]);
        assert_eq!(lame_path(2, 2), vec![(1, 1)]);
        assert_eq!(lame_path(0, 2), vec![(0, 1)]);
        assert_eq!(lame_path(0, 3), vec![(0, 1), (0, 2)]);
        assert!(lame_path(1, 1).is_empty());
    }

    /// Cells reached from the centre of an empty 15x15 board, for pieces of the rules files.
    #[test]
    fn known_pieces_on_an_empty_board() {
        let g = GeometryBuilder::rectangle(15, 15).build().unwrap();
        let centre = g.cell_by_label("h8").unwrap();
        let table: &[(&str, &str, usize)] = &[
            // chess
            ("king", "K", 8),
            ("queen", "Q", 56),
            ("rook", "R", 28),
            ("bishop", "B", 28),
            ("knight", "N", 8),
            ("pawn (no initial move)", "fmWfceF", 3),
            // capablanca / grand / renaissance compounds
            ("chancellor", "RN", 36),
            ("archbishop", "BN", 36),
            ("amazon / prince", "QN", 64),
            // omega, outer, renaissance leapers
            ("champion", "WAD", 12),
            ("wizard", "CF", 12),
            ("squire", "KAD", 16),
            ("castle", "NAD", 16),
            ("general (camel)", "C", 8),
            ("page", "KN", 16),
            // chu shogi
            ("drunk elephant", "FsfW", 7),
            ("gold general", "WfF", 6),
            ("silver general", "FfW", 5),
            ("copper general", "fFvW", 4),
            ("ferocious leopard", "FvW", 6),
            ("blind tiger", "FsbW", 7),
            ("go-between", "vW", 2),
            ("chu pawn", "fW", 1),
            ("lance", "fR", 7),
            ("reverse chariot", "vR", 14),
            ("kirin", "FD", 8),
            ("phoenix", "WA", 8),
            ("side mover", "vWsR", 16),
            ("vertical mover", "sWvR", 16),
            ("dragon horse", "BW", 32),
            ("dragon king", "RF", 32),
            ("lion (as leaper)", "KNAD", 24),
            ("flying stag", "FsWvR", 20),
            ("white horse", "vRfB", 28),
            ("whale", "vRbB", 28),
            ("free boar", "BsR", 42),
            ("flying ox", "BvR", 42),
            ("horned falcon", "BsRbRfWfD", 51),
            ("soaring eagle", "RbBfFfA", 46),
            // shogi
            ("shogi knight", "ffN", 2),
            ("shogi silver", "FfW", 5),
            // xiangqi
            ("horse", "nN", 8),
            ("elephant", "nA", 4),
            ("soldier beyond the river", "fsW", 3),
            ("cannon (moves)", "mRcpR", 28),
            // yari shogi
            ("yari knight", "fRffN", 9),
            ("yari bishop", "fRfF", 9),
            ("yari rook", "fRbW", 8),
            // misc ranges
            ("short rook", "W4", 16),
            ("nightrider", "NN", 24),
        ];
        for &(name, betza, expected) in table {
            let parsed = betza::parse(betza).unwrap_or_else(|e| panic!("{name}: {e}"));
            let n = reach_on_empty_board(&g, &parsed, centre, false).len();
            assert_eq!(n, expected, "{name} ({betza}) from h8 on 15x15");
        }
    }

    #[test]
    fn pawn_double_step_is_initial_and_lame() {
        let g = GeometryBuilder::rectangle(8, 8).build().unwrap();
        let e2 = g.cell_by_label("e2").unwrap();
        let pawn = betza::parse("fmWfceFifmnD").unwrap();
        let reach = reach_on_empty_board(&g, &pawn, e2, true);
        let labels: Vec<_> = reach.iter().map(|&c| g.label(c)).collect();
        assert_eq!(labels, ["d3", "e3", "f3", "e4"]);
        let double = compile_at(&g, &pawn, e2, |v| v)
            .into_iter()
            .find(|m| m.initial)
            .unwrap();
        assert_eq!(
            double.reach,
            Reach::Leap {
                to: g.cell_by_label("e4").unwrap(),
                path: vec![g.cell_by_label("e3").unwrap()]
            }
        );
        // The second player's pawn moves the other way.
        let e7 = g.cell_by_label("e7").unwrap();
        let black: Vec<_> = compile_at(&g, &pawn, e7, Vector::reversed)
            .into_iter()
            .filter_map(|m| match m.reach {
                Reach::Leap { to, .. } => Some(g.label(to).to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(black, ["e6", "d6", "f6", "e5"]);
    }
}
