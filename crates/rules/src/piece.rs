//! Piece types and their compilation against a board.

use crate::betza::{self, Betza, BetzaError, Hop, Range};
use crate::hex::{self, HexMove};
use crate::legend::{DiagramLattice, MoveDiagram};
use chaturanga_geometry::{Cell, Geometry, Lattice, Vector};

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

/// One way a piece may promote: on moves ending in `zone` (or starting there, when
/// `from_zone` is set, as in shogi), into one of `choices`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotionRule {
    /// Name of the geometry region (per player) where a move may promote.
    pub zone: String,
    /// A move starting in the zone may promote too.
    pub from_zone: bool,
    /// Symbols of the piece types it may become.
    pub choices: Vec<String>,
    /// Only to kinds of which the player has fewer on the board than the ruleset's limit
    /// (Grand Chess, Speed chess: "only to a captured piece").
    pub limited: bool,
}

/// A bent rider: one step of `step`, then any number of `slide` steps outward (sharing a
/// component with the first step) — or the slide first and the step last; either path may be
/// used. Renaissance's duke (`W` then `F`) and cavalier (`F` then `W`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BentRider {
    /// Atom letter of the single step.
    pub step: char,
    /// Atom letter of the slide.
    pub slide: char,
}

/// A piece type of a variant: names, symbol, movement and roles.
#[derive(Clone, Debug)]
pub struct PieceType {
    /// English name.
    pub name: String,
    /// Symbol as written for the first player in FEN, upper case, with a `+` prefix for
    /// promoted shogi pieces (`P`, `+R`).
    pub symbol: String,
    /// Movement in Betza notation, as given; for pieces described otherwise (hexagonal
    /// moves, [`PieceType::hex`]) the description in words.
    pub betza: String,
    /// Movement, parsed.
    pub moves: Betza,
    /// Movement from cells of a region, replacing `moves` there (zone-dependent pieces),
    /// first matching region wins.
    pub zone_moves: Vec<(String, Betza)>,
    /// The zone moves as given, (region, Betza text), in the order of `zone_moves`: what a
    /// legend shows of them.
    pub zone_betza: Vec<(String, String)>,
    /// Bent riders, beside the Betza moves.
    pub bent: Vec<BentRider>,
    /// Region the piece may never leave (the xiangqi palace, the elephant's own half).
    pub confined_to: Option<String>,
    /// Moves that only give check: they attack but are never played (the xiangqi general
    /// facing the other general along a file).
    pub check_only: Option<Betza>,
    /// Capturing all of these (or checkmating one) decides the game.
    pub royal: bool,
    /// Moves of this kind are irreversible (reset the fifty-move counter).
    pub pawn: bool,
    /// Region whose cells allow the `i` (initial) moves.
    pub initial_region: Option<String>,
    /// The `i` moves also need the piece not to have moved yet in this game (a piece read
    /// from a FEN counts as unmoved). Only needed where a piece can reach another cell of its
    /// initial region by moving: Gliński's pawn capturing onto another pawn's starting cell.
    pub initial_only_unmoved: bool,
    /// Ways to promote.
    pub promotions: Vec<PromotionRule>,
    /// Region where a move that ends there must promote.
    pub must_promote_in: Option<String>,
    /// Every move that may promote must (Tori shogi).
    pub promotion_compulsory: bool,
    /// The kind a captured piece of this kind becomes in the captor's hand (its unpromoted
    /// form), by symbol; itself when `None`.
    pub demotes_to: Option<String>,
    /// Lengths (in cells) of quiet straight advances after which the skipped cells may be
    /// captured onto en passant (pieces with `e` captures only).
    pub en_passant_advances: (u8, u8),
    /// How the piece moves in words, for legends, where the Betza and the other fields do not
    /// say it all because part of the movement is code (a lion's double moves, a monkey's
    /// capture chains); `None` where they do.
    pub moves_in_words: Option<String>,
    /// The picture of its moves for legends where the one its moves draw
    /// ([`MoveDiagram::of_piece`]) would be wrong: movement that is code (lion power), and
    /// hexagonal moves, which that reads on the square lattice. `None`: that one.
    pub diagram: Option<MoveDiagram>,
}

impl PieceType {
    /// A piece type from its symbol, name and Betza string.
    pub fn new(symbol: &str, name: &str, betza: &str) -> Result<PieceType, BetzaError> {
        Ok(PieceType {
            name: name.to_string(),
            symbol: symbol.to_string(),
            betza: betza.to_string(),
            moves: betza::parse(betza)?,
            ..PieceType::blank()
        })
    }

    /// A piece type on a hexagonal board from its symbol, name and moves as data (see
    /// [`crate::hex`]); its `betza` field holds the moves in words, and its diagram is drawn
    /// on the hex lattice.
    pub fn hex(symbol: &str, name: &str, moves: &[HexMove]) -> PieceType {
        let resolved = hex::resolve(moves);
        PieceType {
            name: name.to_string(),
            symbol: symbol.to_string(),
            betza: hex::describe(moves),
            diagram: MoveDiagram::of_moves(DiagramLattice::Hex, &resolved),
            moves: resolved,
            ..PieceType::blank()
        }
    }

    /// A piece without moves or roles (the base the constructors fill in).
    fn blank() -> PieceType {
        PieceType {
            name: String::new(),
            symbol: String::new(),
            betza: String::new(),
            moves: Betza::default(),
            zone_moves: Vec::new(),
            zone_betza: Vec::new(),
            bent: Vec::new(),
            confined_to: None,
            check_only: None,
            royal: false,
            pawn: false,
            initial_region: None,
            initial_only_unmoved: false,
            promotions: Vec::new(),
            must_promote_in: None,
            promotion_compulsory: false,
            demotes_to: None,
            en_passant_advances: (2, 2),
            moves_in_words: None,
            diagram: None,
        }
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

    /// The initial moves also need the piece not to have moved yet in the game (see
    /// [`PieceType::initial_only_unmoved`]). Such initial moves must not capture: the attack
    /// tables do not follow a piece's history.
    pub fn initial_only_while_unmoved(mut self) -> Self {
        self.initial_only_unmoved = true;
        self
    }

    /// Moves differently from the cells of `region`.
    pub fn in_zone(mut self, region: &str, betza: &str) -> Result<Self, BetzaError> {
        self.zone_moves
            .push((region.to_string(), betza::parse(betza)?));
        self.zone_betza
            .push((region.to_string(), betza.to_string()));
        Ok(self)
    }

    /// Describes the piece's movement in words for legends (see
    /// [`PieceType::moves_in_words`]); the moves themselves stay those compiled.
    pub fn in_words(mut self, words: &str) -> Self {
        self.moves_in_words = Some(words.to_string());
        self
    }

    /// Gives the picture of the piece's moves for legends, where the one its moves draw
    /// would not say them (see [`PieceType::diagram`]).
    pub fn with_diagram(mut self, diagram: MoveDiagram) -> Self {
        self.diagram = Some(diagram);
        self
    }

    /// Confines the piece to a region.
    pub fn confined(mut self, region: &str) -> Self {
        self.confined_to = Some(region.to_string());
        self
    }

    /// Adds moves that attack (give check) but are never played.
    pub fn checks_by(mut self, betza: &str) -> Result<Self, BetzaError> {
        self.check_only = Some(betza::parse(betza)?);
        Ok(self)
    }

    /// Adds a bent rider move.
    pub fn with_bent(mut self, step: char, slide: char) -> Self {
        self.bent.push(BentRider { step, slide });
        self
    }

    /// Adds a way to promote on moves ending in `zone`.
    pub fn promotes(mut self, zone: &str, choices: &[&str]) -> Self {
        self.promotions.push(PromotionRule {
            zone: zone.to_string(),
            from_zone: false,
            choices: choices.iter().map(|s| s.to_string()).collect(),
            limited: false,
        });
        self
    }

    /// Adds a way to promote limited by the ruleset's piece-count limits.
    pub fn promotes_limited(mut self, zone: &str, choices: &[&str]) -> Self {
        self = self.promotes(zone, choices);
        if let Some(rule) = self.promotions.last_mut() {
            rule.limited = true;
        }
        self
    }

    /// A move ending in `region` must promote (and is impossible if it cannot).
    pub fn must_promote_in(mut self, region: &str) -> Self {
        self.must_promote_in = Some(region.to_string());
        self
    }

    /// Adds a shogi-style promotion: moves starting or ending in `zone` may promote to
    /// `promoted`.
    pub fn promotes_in_zone(mut self, zone: &str, promoted: &str) -> Self {
        self.promotions.push(PromotionRule {
            zone: zone.to_string(),
            from_zone: true,
            choices: vec![promoted.to_string()],
            limited: false,
        });
        self
    }

    /// Every move that may promote must promote.
    pub fn promotion_compulsory(mut self) -> Self {
        self.promotion_compulsory = true;
        self
    }

    /// Goes to the captor's hand as `symbol` (a promoted shogi piece reverts).
    pub fn demotes_to(mut self, symbol: &str) -> Self {
        self.demotes_to = Some(symbol.to_string());
        self
    }

    /// Sets which advance lengths create en passant targets (2..=2 by default).
    pub fn en_passant_after(mut self, min: u8, max: u8) -> Self {
        self.en_passant_advances = (min, max);
        self
    }

    /// Whether any move of the piece may capture en passant.
    pub fn captures_en_passant(&self) -> bool {
        self.moves.moves.iter().any(|m| m.en_passant)
            || self
                .zone_moves
                .iter()
                .any(|(_, b)| b.moves.iter().any(|m| m.en_passant))
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
    /// A destination reachable along either of two paths (bent riders).
    Bent {
        /// Destination.
        to: Cell,
        /// The paths (cells that must be empty); one or two.
        paths: Vec<Vec<Cell>>,
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
///
/// On a [`Lattice::Linked`] board (three-player chess) the geometry says what a vector means
/// from each cell ([`Geometry::linked_leaps`], [`Geometry::rays`]): a diagonal step may fork,
/// and the knight's shape is the rules file's knight; a lame leap needs the cells passed on
/// its way empty.
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
                (Range::Leap, _) if geometry.lattice() == Lattice::Linked => {
                    for (to, passed) in geometry.linked_leaps(cell, v, m.beside_ahead) {
                        let path = if m.lame { passed } else { Vec::new() };
                        out.push(CompiledMove {
                            reach: Reach::Leap { to, path },
                            quiet: m.quiet,
                            capture: m.capture,
                            initial: m.initial,
                            en_passant: m.en_passant,
                        });
                    }
                    continue;
                }
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

/// Compiles bent riders for a piece on `cell` (quiet and capturing moves).
pub fn compile_bent(
    geometry: &Geometry,
    bent: &[BentRider],
    cell: Cell,
    orient: impl Fn(Vector) -> Vector,
) -> Vec<CompiledMove> {
    let images = |letter: char| -> Vec<Vector> {
        let parsed = betza::parse(&letter.to_string()).unwrap_or_default();
        parsed
            .moves
            .iter()
            .flat_map(|m| {
                m.vectors
                    .iter()
                    .map(|&(dx, dy)| orient(Vector::new(dx, dy)))
            })
            .collect()
    };
    let (x0, y0) = geometry.coords(cell);
    let at = |v: (i32, i32)| geometry.at(x0 + v.0, y0 + v.1);
    let mut out = Vec::new();
    for rider in bent {
        for a in images(rider.step) {
            for b in images(rider.slide) {
                if a.dx * b.dx + a.dy * b.dy <= 0 {
                    continue;
                }
                let (a, b) = ((a.dx as i32, a.dy as i32), (b.dx as i32, b.dy as i32));
                for n in 1.. {
                    let target = (a.0 + n * b.0, a.1 + n * b.1);
                    let step_first: Option<Vec<Cell>> =
                        (0..n).map(|i| at((a.0 + i * b.0, a.1 + i * b.1))).collect();
                    let slide_first: Option<Vec<Cell>> =
                        (1..=n).map(|i| at((i * b.0, i * b.1))).collect();
                    let paths: Vec<Vec<Cell>> =
                        [step_first, slide_first].into_iter().flatten().collect();
                    if paths.is_empty() {
                        break;
                    }
                    let Some(to) = at(target) else {
                        continue;
                    };
                    out.push(CompiledMove {
                        reach: Reach::Bent { to, paths },
                        quiet: true,
                        capture: true,
                        initial: false,
                        en_passant: false,
                    });
                }
            }
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
            Reach::Bent { to, .. } => cells.push(to),
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

#[cfg(test)]
mod bent_tests {
    use super::*;
    use chaturanga_geometry::GeometryBuilder;

    fn labels(g: &Geometry, moves: &[CompiledMove]) -> Vec<String> {
        let mut v: Vec<String> = moves
            .iter()
            .filter_map(|m| match &m.reach {
                Reach::Bent { to, .. } => Some(g.label(*to).to_string()),
                _ => None,
            })
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Renaissance scenarios 1 and 3: duke and cavalier alone on e4 of the 12x10 board.
    #[test]
    fn duke_and_cavalier_destinations() {
        let g = GeometryBuilder::rectangle(12, 10).build().unwrap();
        let e4 = g.cell_by_label("e4").unwrap();
        let duke = compile_bent(
            &g,
            &[BentRider {
                step: 'W',
                slide: 'F',
            }],
            e4,
            |v| v,
        );
        let mut expected: Vec<&str> =
            "a1 a7 a9 b2 b6 b8 c1 c3 c5 c7 d2 d6 f2 f6 g1 g3 g5 g7 h2 h6 h8 i1 i7 i9 j8 j10 k9 l10"
                .split(' ')
                .collect();
        expected.sort();
        assert_eq!(labels(&g, &duke), expected);
        let cavalier = compile_bent(
            &g,
            &[BentRider {
                step: 'F',
                slide: 'W',
            }],
            e4,
            |v| v,
        );
        let mut expected: Vec<&str> = "a3 a5 b3 b5 c3 c5 d1 d2 d6 d7 d8 d9 d10 f1 f2 f6 f7 f8 f9 f10 g3 g5 h3 h5 i3 i5 j3 j5 k3 k5 l3 l5"
            .split(' ')
            .collect();
        expected.sort();
        assert_eq!(labels(&g, &cavalier), expected);
        // Duke e4 -> g7: paths e5-f6 (step first) and f5-g6 (slide first).
        let c = |l| g.cell_by_label(l).unwrap();
        let to_g7: Vec<&Vec<Vec<Cell>>> = duke
            .iter()
            .filter_map(|m| match &m.reach {
                Reach::Bent { to, paths } if *to == c("g7") => Some(paths),
                _ => None,
            })
            .collect();
        assert_eq!(to_g7.len(), 1);
        let mut paths = to_g7[0].clone();
        paths.sort();
        assert_eq!(paths, vec![vec![c("e5"), c("f6")], vec![c("f5"), c("g6")]]);
    }
}
