//! Chu and dai shogi: the large shogi variants with lions, lion power along one line, two
//! royal pieces, the lion-trading rules and their own promotion rules. Their move in two
//! steps and the rule that a move may not leave *all* royal pieces capturable do not fit the
//! standard position, so they share this position type; ordinary movement still comes from
//! Betza through the shared tables.

use crate::shogi_family as sf;
use chaturanga_geometry::{Cell, CellSet};
use chaturanga_rules::PieceStyle;
use chaturanga_rules::board::{Board, MAX_FULLMOVE, no_more_fields, read_counter, read_turn};
use chaturanga_rules::legend::{DiagramLattice, Mark, MarkKind, MoveDiagram};
use chaturanga_rules::options::cached;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{MoveShape, Scene, Viewer};
use chaturanga_rules::standard::{
    FenError, MAX_FEN_LEN, SetupError, SetupProblem, Spec, SpecBuilder, SpecError,
    board_evaluation, board_features, parse_board, pieces_text, scene_men, write_board,
};
use chaturanga_rules::tables::{PieceBoard, attacked};
use chaturanga_rules::weights::EvalWeights;
use chaturanga_rules::{
    DrawRules, Kind, MoveError, MoveValue, OptionSpec, OptionValues, Outcome, Piece, PieceType,
    Player, Position, Reason, RuleOptions, Ruleset,
};
use std::fmt::Debug;
use std::marker::PhantomData;

mod western;

pub use western::Abbreviation;

/// How a ruleset promotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionStyle {
    /// Chu shogi's seed rule: on entering the zone, by a capture made by a move starting in the
    /// zone (not for pawns), and a pawn on the last rank; never compulsory.
    Chu,
    /// Shogi's rule: any move starting or ending in the zone; compulsory where the piece
    /// could never move again.
    Shogi,
}

/// What a large shogi ruleset supplies.
pub trait LargeShogi: 'static + Copy + Default + Send + Sync + Debug {
    /// Ruleset id.
    const ID: &'static str;
    /// Files and ranks of the square board.
    const SIZE: i32;
    /// Depth of the promotion zone.
    const ZONE: i32;
    /// The start position.
    const START: &'static str;
    /// Promotion rule.
    const PROMOTION: PromotionStyle;
    /// Symbols of the lions (lion and promoted kirin), the horned falcon, the soaring eagle,
    /// the pawn and the go-between.
    const ROLES: Roles;
    /// Rule options.
    fn option_specs() -> &'static [OptionSpec];
    /// Every piece's abbreviation in Western (Hodges) notation, by symbol
    /// ([`Abbreviation`]; the notation is described in `large_shogi/western.rs`).
    const WESTERN: &'static [Abbreviation];
    /// Piece types; promotions are given with `promotes_in_zone("zone", ..)` and compulsory
    /// ones with `must_promote_in`.
    fn pieces() -> Result<Vec<PieceType>, SpecError>;
    /// Material values from the literature, by symbol, in centipawns; pieces not listed are
    /// valued by their mobility.
    fn values() -> &'static [(&'static str, i32)] {
        &[]
    }
    /// The evaluation weights ([`crate::weights::family`]); the defaults unless the ruleset
    /// has a family of fitted ones.
    fn weights() -> Result<EvalWeights, SpecError> {
        Ok(EvalWeights::default())
    }
}

/// Symbols of the pieces with special roles.
#[derive(Clone, Copy, Debug)]
pub struct Roles {
    /// Lion-type pieces (lion power in every direction, subject to the lion-trading rules).
    pub lions: &'static [&'static str],
    /// Lion power straight forward.
    pub falcon: &'static str,
    /// Lion power along both forward diagonals.
    pub eagle: &'static str,
    /// The pawn.
    pub pawn: &'static str,
    /// The go-between.
    pub go_between: &'static str,
    /// The lance.
    pub lance: &'static str,
}

/// What the lion-trading option's values mean to a player.
const LION_TRADING_WORDS: &[(&str, &str)] = &[
    (
        "on",
        "A lion may take a distant lion only if it is unprotected, and a lion taken by another \
         man may not be avenged on a lion at once",
    ),
    ("off", "Lions may be taken like any other man"),
];

/// Option shared by chu and dai: lion-trading with its default.
pub const fn lion_trading(default: &'static str) -> OptionSpec {
    OptionSpec::switch(
        "lion-trading",
        default,
        "on: a lion may take a distant lion only if unprotected, and the counter-strike rule applies",
    )
    .explained("Lion trading", LION_TRADING_WORDS)
}

/// Option: the bare-king win.
pub const BARE_KING: OptionSpec = OptionSpec::switch(
    "bare-king",
    "off",
    "on: reducing the opponent to a lone royal piece wins (Japanese Chu Shogi Association)",
)
.explained(
    "Bare king",
    &[
        (
            "on",
            "Leaving the opponent a lone royal man wins (Japanese Chu Shogi Association)",
        ),
        ("off", "A bare king does not end the game"),
    ],
);

/// Option: the repetition rule.
pub const REPETITION: OptionSpec = OptionSpec {
    name: "repetition",
    values: OptionValues::Choice(&["shogi", "attack", "strict"]),
    default: "shogi",
    help: "shogi: perpetual check loses at the fourth occurrence; attack: perpetual attack loses; strict: recreating a position is illegal unless in check",
    label: "Repetition",
    words: &[
        ("shogi", "A perpetual check loses at the fourth repetition"),
        ("attack", "A perpetual attack loses"),
        (
            "strict",
            "Making a position again is illegal, unless in check",
        ),
    ],
};

const NO_CELL: u16 = u16::MAX;
/// Fewest men (royal pieces included) with which a side may pass in the search.
const NULL_MOVE_MIN_MEN: u32 = 4;

/// The compiled ruleset with the roles resolved.
#[derive(Debug)]
pub struct LargeData<const W: usize> {
    /// Tables and board.
    pub spec: Spec<W>,
    lions: u64,
    falcon: Kind,
    eagle: Kind,
    pawn: Kind,
    go_between: Kind,
    lance: Kind,
    promoted: Vec<Option<Kind>>,
    /// Per player: promotion zone, last rank.
    zone: [CellSet<W>; 2],
    last_rank: [CellSet<W>; 2],
    /// Per (player, kind): cells where a move ending there must promote (dai).
    forced: Vec<CellSet<W>>,
    neighbours: Vec<CellSet<W>>,
    /// The pieces' abbreviations in Western notation.
    western: western::Abbreviations,
    lion_trading: bool,
    lishogi_promotion: bool,
    bare_king: bool,
    repetition: &'static str,
}

/// Lion power is code, not table Betza (the table has only the single leaps), so the legend
/// of the pieces that have it says in words what their moves are, and their diagrams mark the
/// cells lion power reaches as such.
fn with_lion_power(piece: PieceType, roles: &Roles) -> PieceType {
    let (words, lion_cells): (&str, Vec<(i8, i8)>) = if roles.lions.contains(&piece.symbol.as_str())
    {
        (
            "lion: two king steps in one move (capturing on either or both, returning to the start, or passing), or a leap to any cell two away",
            (-2..=2)
                .flat_map(|dy| (-2..=2).map(move |dx| (dx, dy)))
                .filter(|&cell| cell != (0, 0))
                .collect(),
        )
    } else if piece.symbol == roles.falcon {
        (
            "any distance diagonally, sideways or straight back; straight forward lion power: one step, a leap two, or two steps capturing on either (or passing)",
            lion_line(&[(0, 1)]),
        )
    } else if piece.symbol == roles.eagle {
        (
            "any distance orthogonally or diagonally back; along each forward diagonal lion power: one step, a leap two, or two steps capturing on either (or passing)",
            lion_line(&[(-1, 1), (1, 1)]),
        )
    } else {
        return piece;
    };
    // The table's single steps and leaps to the lion-power cells are drawn as lion power
    // instead; the rest of the piece's moves (the falcon's and eagle's slides) as they are.
    let drawn = MoveDiagram::of_piece(&piece).map(|mut diagram| {
        diagram
            .marks
            .retain(|m| !lion_cells.contains(&(m.dx, m.dy)));
        diagram
    });
    let diagram = drawn
        .unwrap_or_else(|| MoveDiagram::new(DiagramLattice::Square))
        .with_marks(
            lion_cells
                .into_iter()
                .map(|(dx, dy)| Mark::new(dx, dy, MarkKind::Lion)),
        );
    piece.in_words(words).with_diagram(diagram)
}

/// The cells of lion power along lines: one and two cells along each direction.
fn lion_line(directions: &[(i8, i8)]) -> Vec<(i8, i8)> {
    directions
        .iter()
        .flat_map(|&(dx, dy)| [(dx, dy), (2 * dx, 2 * dy)])
        .collect()
}

fn data<const W: usize, R: LargeShogi>(
    options: &RuleOptions,
) -> Result<&'static LargeData<W>, SetupError> {
    cached::<R, LargeData<W>, SpecError>(options, || {
        let geometry = sf::usi_board(R::SIZE, R::SIZE, R::ZONE)
            .build()
            .map_err(crate::family::board_error)?;
        let mut builder = SpecBuilder::new(R::ID, geometry)
            .style(PieceStyle::Shogi)
            .options(options.clone())
            .draw_rules(DrawRules {
                repetition: Some((4, Reason::Sennichite)),
                repetition_claim: None,
                quiet_plies: None,
                quiet_plies_claim: None,
                ply_cap: None,
            })
            .notation(chaturanga_rules::standard::Notation::Shogi)
            .values(R::values())
            .weights(R::weights()?)
            .start(R::START);
        for p in R::pieces()? {
            builder = builder.piece(with_lion_power(p, &R::ROLES));
        }
        let spec: Spec<W> = builder.build()?;
        let kind = |s: &str| {
            spec.pieces
                .iter()
                .position(|p| p.symbol == s)
                .map(|k| k as Kind)
                .ok_or_else(|| SpecError::UnknownPiece(s.to_string()))
        };
        let mut lions = 0u64;
        for s in R::ROLES.lions {
            lions |= 1 << kind(s)?;
        }
        let promoted = spec
            .pieces
            .iter()
            .map(|p| match p.promotions.first() {
                Some(rule) => kind(&rule.choices[0]).map(Some),
                None => Ok(None),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let region = |name: &str, player: usize| {
            spec.geometry
                .region(name)
                .map(|r| CellSet::from_cells(r.cells[player].iter().copied()))
                .unwrap_or_default()
        };
        let kinds = spec.pieces.len();
        let mut forced = vec![CellSet::EMPTY; 2 * kinds];
        for player in 0..2 {
            for k in 0..kinds {
                if let Some(p) = spec.promotion(player as u8, k as Kind) {
                    forced[player * kinds + k] = p.forced;
                }
            }
        }
        let neighbours = spec
            .geometry
            .cells()
            .map(|c| {
                let (x, y) = spec.geometry.coords(c);
                let mut n = CellSet::EMPTY;
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        if (dx, dy) != (0, 0)
                            && let Some(o) = spec.geometry.at(x + dx, y + dy)
                        {
                            n.insert(o);
                        }
                    }
                }
                n
            })
            .collect();
        let western = western::abbreviations(&spec.pieces, R::WESTERN)?;
        Ok(LargeData {
            western,
            lions,
            falcon: kind(R::ROLES.falcon)?,
            eagle: kind(R::ROLES.eagle)?,
            pawn: kind(R::ROLES.pawn)?,
            go_between: kind(R::ROLES.go_between)?,
            lance: kind(R::ROLES.lance)?,
            promoted,
            zone: [region("zone", 0), region("zone", 1)],
            last_rank: [region("last-rank", 0), region("last-rank", 1)],
            forced,
            neighbours,
            lion_trading: options.is_on("lion-trading"),
            lishogi_promotion: options.get("promotion") == Some("lishogi"),
            bare_king: options.is_on("bare-king"),
            repetition: match options.get("repetition") {
                Some("attack") => "attack",
                Some("strict") => "strict",
                _ => "shogi",
            },
            spec,
        })
    })
    .map_err(|e| SetupError::Spec(e.clone()))
}

/// A move of a large shogi variant: one step, or two (`via` is the first step's cell; igui
/// and the pass come back to `from`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LargeMove {
    /// Start cell.
    pub from: Cell,
    via: u16,
    /// Final cell.
    pub to: Cell,
    /// Whether the piece promotes.
    pub promote: bool,
}

impl LargeMove {
    /// The first step's cell of a move in two steps.
    pub fn via(&self) -> Option<Cell> {
        (self.via != NO_CELL).then_some(Cell(self.via))
    }
}

/// The pieces one move captures (at most two: lion power), first victim first.
#[derive(Clone, Copy, Debug)]
struct Victims {
    list: [(Cell, Piece); 2],
    len: usize,
}

impl Default for Victims {
    fn default() -> Self {
        Victims {
            list: [(Cell(NO_CELL), Piece::NONE); 2],
            len: 0,
        }
    }
}

impl Victims {
    fn push(&mut self, cell: Cell, piece: Piece) {
        self.list[self.len] = (cell, piece);
        self.len += 1;
    }

    fn as_slice(&self) -> &[(Cell, Piece)] {
        &self.list[..self.len]
    }
}

/// The board after a move, seen through the position before it: legality tests ask whether
/// a cell is attacked there, and building that board for every candidate move would cost
/// more than the test.
struct AfterMove<'p, const W: usize, const K: usize, R> {
    before: &'p LargeShogiPosition<W, K, R>,
    /// The start cell and the victims' cells.
    vacated: CellSet<W>,
    to: Cell,
    mover: Piece,
    occupied: CellSet<W>,
}

impl<'p, const W: usize, const K: usize, R: LargeShogi> AfterMove<'p, W, K, R> {
    fn new(before: &'p LargeShogiPosition<W, K, R>, mv: &LargeMove, victims: &Victims) -> Self {
        let mut vacated = CellSet::from_cell(mv.from);
        for &(c, _) in victims.as_slice() {
            vacated.insert(c);
        }
        let to = CellSet::from_cell(mv.to);
        AfterMove {
            before,
            vacated,
            to: mv.to,
            mover: before.moved_piece(mv),
            occupied: before.occupied().without(vacated) | to,
        }
    }

    fn attacked(&self, cell: Cell, by: Player) -> bool {
        let spec = self.before.spec();
        attacked(&spec.moves, &spec.attacks, self, cell, by, self.occupied)
    }

    /// `cells` (of the board before) as they are after the move for pieces matching `ours`.
    fn adjust(&self, cells: CellSet<W>, ours: bool) -> CellSet<W> {
        let moved = cells
            .without(self.vacated)
            .without(CellSet::from_cell(self.to));
        if ours {
            moved | CellSet::from_cell(self.to)
        } else {
            moved
        }
    }
}

impl<const W: usize, const K: usize, R: LargeShogi> PieceBoard<W> for AfterMove<'_, W, K, R> {
    fn piece_at(&self, cell: Cell) -> Piece {
        if cell == self.to {
            self.mover
        } else if self.vacated.contains(cell) {
            Piece::NONE
        } else {
            self.before.piece_at(cell)
        }
    }
    fn cells_of_kind(&self, kind: Kind) -> CellSet<W> {
        self.adjust(self.before.board.of_kind(kind), self.mover.kind() == kind)
    }
    fn cells_of_player(&self, player: Player) -> CellSet<W> {
        self.adjust(
            self.before.board.of_player(player),
            self.mover.player() == player,
        )
    }
}

/// A position of chu or dai shogi.
#[derive(Clone, Debug)]
pub struct LargeShogiPosition<const W: usize, const K: usize, R> {
    data: &'static LargeData<W>,
    /// The men (no plies-without-progress count: the large shogis have no such rule).
    board: Board<W, 2, K>,
    counter_strike: Option<Cell>,
    rules: PhantomData<R>,
}

impl<const W: usize, const K: usize, R> PieceBoard<W> for LargeShogiPosition<W, K, R> {
    fn piece_at(&self, cell: Cell) -> Piece {
        self.board.piece_at(cell)
    }
    fn cells_of_kind(&self, kind: Kind) -> CellSet<W> {
        self.board.of_kind(kind)
    }
    fn cells_of_player(&self, player: Player) -> CellSet<W> {
        self.board.of_player(player)
    }
}

impl<const W: usize, const K: usize, R: LargeShogi> LargeShogiPosition<W, K, R> {
    fn spec(&self) -> &'static Spec<W> {
        &self.data.spec
    }

    fn occupied(&self) -> CellSet<W> {
        self.board.occupied()
    }

    fn put(&mut self, cell: Cell, piece: Piece) {
        self.board.put(&self.data.spec.zobrist, cell, piece);
    }

    fn take(&mut self, cell: Cell) -> Piece {
        self.board.take(&self.data.spec.zobrist, cell)
    }

    fn set_counter_strike(&mut self, cell: Option<Cell>) {
        let keys = &self.spec().zobrist.en_passant;
        if let Some(c) = self.counter_strike {
            self.board.toggle_hash(keys[c.index()]);
        }
        if let Some(c) = cell {
            self.board.toggle_hash(keys[c.index()]);
        }
        self.counter_strike = cell;
    }

    fn is_lion(&self, kind: Kind) -> bool {
        self.data.lions & (1 << kind) != 0
    }

    fn royals(&self, player: Player) -> CellSet<W> {
        let mut r = CellSet::EMPTY;
        for &k in &self.spec().royal_kinds {
            r |= self.board.of_kind(k);
        }
        r & self.board.of_player(player)
    }

    fn attacks(&self, cell: Cell, by: Player) -> bool {
        attacked(
            &self.spec().moves,
            &self.spec().attacks,
            self,
            cell,
            by,
            self.occupied(),
        )
    }

    fn offset(&self, cell: Cell, dx: i32, dy: i32) -> Option<Cell> {
        let (x, y) = self.spec().geometry.coords(cell);
        self.spec().geometry.at(x + dx, y + dy)
    }

    /// The directions of lion power for `kind` of `player`: every king step for lions, the
    /// forward step for the falcon, the forward diagonals for the eagle.
    fn lion_lines(&self, kind: Kind, player: Player) -> &'static [(i32, i32)] {
        const FORWARD: [(i32, i32); 1] = [(0, 1)];
        const BACKWARD: [(i32, i32); 1] = [(0, -1)];
        const FORWARD_DIAGONALS: [(i32, i32); 2] = [(-1, 1), (1, 1)];
        const BACKWARD_DIAGONALS: [(i32, i32); 2] = [(-1, -1), (1, -1)];
        let up = player == 0;
        if kind == self.data.falcon {
            if up { &FORWARD } else { &BACKWARD }
        } else if kind == self.data.eagle {
            if up {
                &FORWARD_DIAGONALS
            } else {
                &BACKWARD_DIAGONALS
            }
        } else {
            &[]
        }
    }

    /// Whether a move may and must promote: (may, must).
    fn promotion(&self, kind: Kind, from: Cell, to: Cell, captures: u32) -> (bool, bool) {
        let d = self.data;
        if d.promoted[kind as usize].is_none() {
            return (false, false);
        }
        let us = self.board.turn() as usize;
        let zone = d.zone[us];
        match R::PROMOTION {
            PromotionStyle::Shogi => {
                let may = zone.contains(from) || zone.contains(to);
                let must = may && d.forced[us * K + kind as usize].contains(to);
                (may, must)
            }
            PromotionStyle::Chu => {
                let entering = !zone.contains(from) && zone.contains(to);
                let pawn = kind == d.pawn;
                let capture_inside =
                    zone.contains(from) && captures > 0 && (!pawn || d.lishogi_promotion);
                let pawn_last = pawn && d.last_rank[us].contains(to);
                let lance_last =
                    d.lishogi_promotion && kind == d.lance && d.last_rank[us].contains(to);
                (entering || capture_inside || pawn_last || lance_last, false)
            }
        }
    }

    fn push(
        &self,
        out: &mut Vec<LargeMove>,
        kind: Kind,
        from: Cell,
        via: Option<Cell>,
        to: Cell,
        captures: u32,
    ) {
        let (may, must) = self.promotion(kind, from, to, captures);
        let mv = LargeMove {
            from,
            via: via.map_or(NO_CELL, |c| c.0),
            to,
            promote: false,
        };
        if !must {
            out.push(mv);
        }
        if may {
            out.push(LargeMove {
                promote: true,
                ..mv
            });
        }
    }

    /// The pseudo-legal moves; with `tactical`, only those that capture or promote (the
    /// quiescence search's, which would otherwise generate a hundred quiet moves a node and
    /// throw them away).
    fn pseudo_moves(&self, out: &mut Vec<LargeMove>, tactical: bool) {
        let us = self.board.turn();
        let occupied = self.occupied();
        let empty = self.spec().cells.without(occupied);
        let enemy = self.board.of_player(1 - us);
        for from in self.board.of_player(us) {
            let kind = self.piece_at(from).kind();
            let (quiet, captures) = self
                .spec()
                .moves
                .reach(us, kind, from, occupied, empty, enemy);
            if tactical {
                if self.data.promoted[kind as usize].is_some() {
                    for to in quiet {
                        if self.promotion(kind, from, to, 0).0 {
                            out.push(LargeMove {
                                from,
                                via: NO_CELL,
                                to,
                                promote: true,
                            });
                        }
                    }
                }
            } else {
                for to in quiet {
                    self.push(out, kind, from, None, to, 0);
                }
            }
            for to in captures {
                self.push(out, kind, from, None, to, 1);
            }
            if self.is_lion(kind) {
                let near = self.data.neighbours[from.index()];
                for a in near & enemy {
                    for b in self.data.neighbours[a.index()] {
                        if b == from {
                            self.push(out, kind, from, Some(a), from, 1);
                        } else if empty.contains(b) {
                            self.push(out, kind, from, Some(a), b, 1);
                        } else if enemy.contains(b) {
                            self.push(out, kind, from, Some(a), b, 2);
                        }
                    }
                }
                if let Some(e) = (near & empty).first()
                    && !tactical
                {
                    out.push(LargeMove {
                        from,
                        via: e.0,
                        to: from,
                        promote: false,
                    });
                }
            } else {
                let mut pass = None;
                for &(dx, dy) in self.lion_lines(kind, us) {
                    let Some(a) = self.offset(from, dx, dy) else {
                        continue;
                    };
                    if enemy.contains(a) {
                        self.push(out, kind, from, Some(a), from, 1);
                        if let Some(b) = self.offset(from, 2 * dx, 2 * dy) {
                            if empty.contains(b) {
                                self.push(out, kind, from, Some(a), b, 1);
                            } else if enemy.contains(b) {
                                self.push(out, kind, from, Some(a), b, 2);
                            }
                        }
                    } else if empty.contains(a) && pass.is_none() {
                        pass = Some(a);
                    }
                }
                if let Some(a) = pass
                    && !tactical
                {
                    out.push(LargeMove {
                        from,
                        via: a.0,
                        to: from,
                        promote: false,
                    });
                }
            }
        }
    }

    /// The empty cells a person may also pass through to make `mv` in two clicks: for a
    /// lion, any empty neighbour next to its step's or leap's end, or for its pass any empty
    /// neighbour; for lion power along a line, the empty cell a leap passes over, or for its
    /// pass any other empty first cell of those lines. A path through a man is another move.
    fn routes(&self, mv: &LargeMove) -> Vec<Cell> {
        let mover = self.piece_at(mv.from);
        if mover.is_none() {
            return Vec::new();
        }
        let (kind, us) = (mover.kind(), mover.player());
        let empty = |c: Cell| self.piece_at(c).is_none();
        let pass = mv.to == mv.from && mv.via().is_some_and(empty);
        let plain = mv.via().is_none() && mv.to != mv.from;
        if !pass && !plain {
            return Vec::new();
        }
        if self.is_lion(kind) {
            let near = self.data.neighbours[mv.from.index()];
            return near
                .into_iter()
                .filter(|&x| empty(x) && x != mv.to && Some(x) != mv.via())
                .filter(|&x| pass || self.data.neighbours[x.index()].contains(mv.to))
                .collect();
        }
        let mut through = Vec::new();
        for &(dx, dy) in self.lion_lines(kind, us) {
            let Some(a) = self.offset(mv.from, dx, dy) else {
                continue;
            };
            if !empty(a) || Some(a) == mv.via() {
                continue;
            }
            if pass || self.offset(mv.from, 2 * dx, 2 * dy) == Some(mv.to) {
                through.push(a);
            }
        }
        through
    }

    /// The pieces a move captures, first victim first.
    fn victims(&self, mv: &LargeMove) -> Victims {
        let mut v = Victims::default();
        if let Some(a) = mv.via()
            && self.piece_at(a).is_some()
            && self.piece_at(a).player() != self.board.turn()
        {
            v.push(a, self.piece_at(a));
        }
        if mv.to != mv.from && self.piece_at(mv.to).is_some() {
            v.push(mv.to, self.piece_at(mv.to));
        }
        v
    }

    /// The piece standing on `mv.to` after the move.
    fn moved_piece(&self, mv: &LargeMove) -> Piece {
        let piece = self.piece_at(mv.from);
        match self.data.promoted[piece.kind() as usize] {
            Some(p) if mv.promote => Piece::new(piece.player(), p),
            _ => piece,
        }
    }

    fn apply(&mut self, mv: &LargeMove) -> Victims {
        let victims = self.victims(mv);
        for &(c, _) in victims.as_slice() {
            self.take(c);
        }
        let piece = self.moved_piece(mv);
        self.take(mv.from);
        self.put(mv.to, piece);
        victims
    }

    /// Whether the opponent could capture both of `player`'s royal pieces with one move (a
    /// double capture by lion power).
    fn both_royals_capturable(&self, player: Player, royals: CellSet<W>) -> bool {
        let them = 1 - player;
        for from in self.board.of_player(them) {
            let kind = self.piece_at(from).kind();
            if self.is_lion(kind) {
                for first in self.data.neighbours[from.index()] & royals {
                    if (self.data.neighbours[first.index()] & royals)
                        .without(CellSet::from_cell(first))
                        .any()
                    {
                        return true;
                    }
                }
            } else {
                for &(dx, dy) in self.lion_lines(kind, them) {
                    let (a, b) = (self.offset(from, dx, dy), self.offset(from, 2 * dx, 2 * dy));
                    if let (Some(a), Some(b)) = (a, b)
                        && royals.contains(a)
                        && royals.contains(b)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether `mv` (pseudo-legal) is legal: royal safety, lion trading, counter-strike.
    fn legal(&self, mv: &LargeMove) -> bool {
        let us = self.board.turn();
        let mover = self.piece_at(mv.from);
        let victims = self.victims(mv);
        let after = AfterMove::new(self, mv, &victims);
        let royals = self.royals(us);
        let becomes_royal =
            self.spec().royal_kinds.contains(&after.mover.kind()) && !royals.contains(mv.from);
        let safe = if royals.count() == 1 && !becomes_royal {
            // One royal piece (the usual case): test its cell on the board after the move
            // without building that board.
            let royal = if royals.contains(mv.from) {
                mv.to
            } else {
                royals.first().expect("one royal")
            };
            !after.attacked(royal, 1 - us)
        } else {
            let mut next = self.clone();
            next.apply(mv);
            let royals = next.royals(us);
            match royals.count() {
                0 => false,
                1 => !next.attacks(royals.first().expect("one royal"), 1 - us),
                _ => !next.both_royals_capturable(us, royals),
            }
        };
        if !safe {
            return false;
        }
        if !self.data.lion_trading {
            return true;
        }
        let victims = victims.as_slice();
        for (i, &(cell, victim)) in victims.iter().enumerate() {
            if !self.is_lion(victim.kind()) {
                continue;
            }
            if !self.is_lion(mover.kind()) {
                // Counter-strike: our lion was just taken by a non-lion piece.
                if self.counter_strike.is_some() {
                    return false;
                }
                continue;
            }
            if self.data.neighbours[mv.from.index()].contains(cell) {
                continue;
            }
            // A distant lion: only if unprotected, unless the first victim was worth it.
            let first = (i == 1).then(|| victims[0].1);
            let bridge = first
                .is_some_and(|f| f.kind() != self.data.pawn && f.kind() != self.data.go_between);
            if bridge {
                continue;
            }
            if after.attacked(cell, 1 - us) {
                return false;
            }
            if let Some(f) = first {
                // A captured pawn or go-between still protects.
                let from = victims[0].0;
                let reach =
                    self.spec()
                        .moves
                        .capture_reach(f.player(), f.kind(), from, self.occupied());
                if reach.contains(cell) {
                    return false;
                }
            }
        }
        true
    }

    /// The bare-king result under `bare-king=on`, judged on this position.
    fn bare_king_result(&self) -> Option<Outcome> {
        if !self.data.bare_king {
            return None;
        }
        for bared in 0..2u8 {
            let other = 1 - bared;
            let dead = |p: Player| {
                (self.board.of_kind(self.data.pawn) | self.board.of_kind(self.data.lance))
                    & self.board.of_player(p)
                    & self.data.last_rank[p as usize]
            };
            let bared_men = self.board.of_player(bared).without(dead(bared));
            let bared_royals = self.royals(bared);
            if bared_men.count() != 1 || bared_royals.count() != 1 {
                continue;
            }
            let other_royals = self.royals(other);
            if other_royals.is_empty() {
                continue;
            }
            let weak =
                self.board.of_kind(self.data.pawn) | self.board.of_kind(self.data.go_between);
            let further = self
                .board
                .of_player(other)
                .without(other_royals)
                .without(dead(other))
                .without(weak);
            if further.is_empty() {
                continue;
            }
            let bared_royal = bared_royals.first().expect("one royal");
            let reach = self.spec().moves.capture_reach(
                bared,
                self.piece_at(bared_royal).kind(),
                bared_royal,
                self.occupied(),
            );
            if reach.intersects(other_royals) {
                continue;
            }
            let near = self.data.neighbours[bared_royal.index()];
            if further.count() == 1 && (near.intersects(further) || near.intersects(other_royals)) {
                continue;
            }
            return Some(Outcome::win(2, other as usize, Reason::BareKing));
        }
        None
    }

    /// Reads the SFEN-style position: board, side, counter-strike cell or `-`, move number.
    pub fn from_fen(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        if fen.len() > MAX_FEN_LEN {
            return Err(FenError::TooLong(fen.len()).into());
        }
        let data = data::<W, R>(options)?;
        let spec = &data.spec;
        if spec.kinds() != K {
            return Err(SetupError::Spec(SpecError::Size(format!(
                "{} kinds, not {K}",
                spec.kinds()
            ))));
        }
        let mut fields = fen.split_whitespace();
        let pieces = parse_board(spec, fields.next().ok_or(FenError::Empty)?)?;
        let turn = read_turn(fields.next(), "b", "w")?;
        let counter_strike = match fields.next() {
            None | Some("-") => None,
            Some(c) => Some(
                spec.geometry
                    .cell_by_label(c)
                    .ok_or_else(|| FenError::EnPassant(excerpt(c)))?,
            ),
        };
        let fullmove = read_counter(fields.next(), 1, MAX_FULLMOVE)?.max(1);
        no_more_fields(fields)?;
        let mut position = LargeShogiPosition {
            data,
            board: Board::empty(spec.zobrist.turn[0]),
            counter_strike: None,
            rules: PhantomData,
        };
        for (cell, piece) in pieces {
            position.put(cell, piece);
        }
        position.board.set_turn(&spec.zobrist, turn);
        position.board.fullmove = fullmove;
        if data.lion_trading {
            position.set_counter_strike(counter_strike);
        }
        let mut problems = Vec::new();
        for p in 0..2u8 {
            if position.royals(p).is_empty() {
                problems.push(SetupProblem::MissingRoyal(p));
            }
        }
        let them = 1 - position.board.turn();
        let their_royals = position.royals(them);
        let exposed = match their_royals.count() {
            1 => position.attacks(their_royals.first().expect("one"), position.board.turn()),
            0 => false,
            _ => position.both_royals_capturable(them, their_royals),
        };
        if exposed {
            problems.push(SetupProblem::OpponentInCheck);
        }
        for cell in position.occupied() {
            let piece = position.piece_at(cell);
            if data.forced[piece.player() as usize * K + piece.kind() as usize].contains(cell) {
                problems.push(SetupProblem::UnpromotedPiece(
                    spec.geometry.label(cell).to_string(),
                ));
            }
        }
        if !problems.is_empty() {
            return Err(SetupError::Invalid(problems));
        }
        Ok(position)
    }
}

impl<const W: usize, const K: usize, R: LargeShogi> Position for LargeShogiPosition<W, K, R> {
    type Move = LargeMove;

    fn side_to_move(&self) -> usize {
        self.board.turn() as usize
    }

    fn legal_moves(&self, moves: &mut Vec<LargeMove>) {
        if self.bare_king_result().is_some() {
            return;
        }
        let start = moves.len();
        self.pseudo_moves(moves, false);
        let mut keep = start;
        for i in start..moves.len() {
            if self.legal(&moves[i]) {
                moves[keep] = moves[i];
                keep += 1;
            }
        }
        moves.truncate(keep);
    }

    fn candidate_moves(&self, moves: &mut Vec<LargeMove>) {
        if self.bare_king_result().is_none() {
            self.pseudo_moves(moves, false);
        }
    }

    fn tactical_candidates(&self, moves: &mut Vec<LargeMove>) {
        if self.bare_king_result().is_none() {
            self.pseudo_moves(moves, true);
        }
    }

    fn is_legal(&self, mv: LargeMove) -> bool {
        self.legal(&mv)
    }

    fn null_move(&self) -> Option<Self> {
        // A side down to a few men may have to give ground; passing would mislead there.
        if self.board.of_player(self.board.turn()).count() <= NULL_MOVE_MIN_MEN || self.is_check() {
            return None;
        }
        let mut next = self.clone();
        next.set_counter_strike(None);
        next.board
            .set_turn(&self.spec().zobrist, 1 - self.board.turn());
        Some(next)
    }

    fn exchange_loses(&self, mv: LargeMove) -> bool {
        let value = self.move_value(mv);
        if value.gain == 0 || value.gain >= value.mover {
            return false;
        }
        let victims = self.victims(&mv);
        AfterMove::new(self, &mv, &victims).attacked(mv.to, 1 - self.board.turn())
    }

    fn play_unchecked(&mut self, mv: LargeMove) {
        let us = self.board.turn();
        let mover = self.piece_at(mv.from);
        let victims = self.apply(&mv);
        let victims = victims.as_slice();
        // Counter-strike: a lion taken by a non-lion piece (not as the second victim after a
        // worthwhile first one).
        let mut strike = None;
        if self.data.lion_trading && !self.is_lion(mover.kind()) {
            for (i, &(cell, victim)) in victims.iter().enumerate() {
                let after_worthwhile = i == 1
                    && victims[0].1.kind() != self.data.pawn
                    && victims[0].1.kind() != self.data.go_between;
                if self.is_lion(victim.kind()) && !after_worthwhile {
                    strike = Some(cell);
                }
            }
        }
        self.set_counter_strike(strike);
        self.board.fullmove += 1;
        self.board.set_turn(&self.data.spec.zobrist, 1 - us);
    }

    fn player_name(&self, player: usize) -> &'static str {
        ["black", "white"][player]
    }

    fn board_geometry(&self) -> Option<&'static chaturanga_geometry::Geometry> {
        Some(&self.spec().geometry)
    }

    fn scene(&self, _viewer: Viewer) -> Scene {
        let mut board = scene_men(self.spec(), |cell| self.piece_at(cell));
        if self.is_check() {
            let g = &self.spec().geometry;
            board.check.extend(
                self.royals(self.board.turn())
                    .iter()
                    .map(|c| g.label(c).to_string()),
            );
        }
        Scene::single(board)
    }

    fn legend(&self) -> chaturanga_rules::Legend {
        let spec = self.spec();
        chaturanga_rules::Legend::of_pieces(spec.style, &spec.pieces)
    }

    /// A move in two steps passes through its first step's cell (a pass: out and back).
    fn move_shape(&self, mv: LargeMove) -> MoveShape {
        let g = &self.spec().geometry;
        MoveShape {
            from: Some(g.label(mv.from).to_string()),
            to: Some(g.label(mv.to).to_string()),
            via: mv
                .via()
                .map(|c| g.label(c).to_string())
                .into_iter()
                .collect(),
            promotion: mv.promote.then(|| "+".to_string()),
            routes: self
                .routes(&mv)
                .into_iter()
                .map(|c| vec![g.label(c).to_string()])
                .collect(),
            ..MoveShape::default()
        }
    }

    fn diagram(&self) -> String {
        let board = pieces_text(self.spec(), |cell| self.piece_at(cell));
        format!(
            "{board}{} to move\n",
            self.player_name(self.board.turn() as usize)
        )
    }

    fn evaluate(&self, player: usize) -> i32 {
        board_evaluation(self.spec(), self, player as Player, self.board.turn())
    }

    fn eval_features(&self) -> Option<chaturanga_rules::EvalFeatures> {
        Some(board_features(self.spec(), self, self.board.turn()))
    }

    fn move_value(&self, mv: LargeMove) -> MoveValue {
        let values = &self.spec().eval.values;
        let value_at = |cell: Cell| {
            let piece = self.piece_at(cell);
            if piece.is_some() && piece.player() != self.board.turn() {
                values[piece.kind() as usize]
            } else {
                0
            }
        };
        let mover = self.piece_at(mv.from).kind();
        let mut gain = value_at(mv.to);
        if let Some(via) = mv.via()
            && via != mv.to
        {
            gain += value_at(via);
        }
        if mv.promote
            && let Some(promoted) = self.data.promoted[mover as usize]
        {
            gain += (values[promoted as usize] - values[mover as usize]).max(0);
        }
        MoveValue {
            gain,
            mover: values[mover as usize],
        }
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn is_check(&self) -> bool {
        let them = 1 - self.board.turn();
        self.royals(self.board.turn())
            .iter()
            .any(|r| self.attacks(r, them))
    }

    fn outcome_without_moves(&self) -> Outcome {
        if let Some(o) = self.bare_king_result() {
            return o;
        }
        let reason = if self.is_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        Outcome::loss(2, self.side_to_move(), reason)
    }

    fn decided_outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.bare_king_result() {
            return Some(o);
        }
        let lone =
            (0..2u8).all(|p| self.board.of_player(p).count() == 1 && self.royals(p).count() == 1);
        lone.then(|| Outcome::draw(2, Reason::InsufficientMaterial))
    }

    /// No rule counts plies without progress here.
    fn quiet_plies(&self) -> u32 {
        self.board.quiet_plies
    }

    fn repetition_window(&self) -> u32 {
        // Any position may repeat: there are no irreversible moves to shorten the window
        // other than captures, which change the material and so the key anyway.
        self.board.fullmove
    }

    fn draw_rules(&self) -> DrawRules {
        self.spec().draw_rules
    }

    fn ply(&self) -> u32 {
        self.board.fullmove.saturating_sub(1)
    }

    fn move_number(&self) -> u32 {
        self.board.fullmove
    }

    fn judge_repetition(cycle: &[Self], moves: &[LargeMove]) -> Option<Outcome> {
        if cycle[0].data.repetition != "attack" {
            return sf::judge_sennichite(cycle, moves, sf::PlainRepetition::Draw);
        }
        // Perpetual attack: after each of the player's moves the opponent's royal piece is
        // attacked, or the moved piece attacks an enemy piece.
        let mut attacking = [true, true];
        let mut moved = [false, false];
        for (i, mv) in moves.iter().enumerate() {
            let player = cycle[i].board.turn();
            moved[player as usize] = true;
            let after = &cycle[i + 1];
            let piece = after.piece_at(mv.to);
            let reach =
                after
                    .spec()
                    .moves
                    .capture_reach(player, piece.kind(), mv.to, after.occupied());
            if !(after.is_check() || reach.intersects(after.board.of_player(1 - player))) {
                attacking[player as usize] = false;
            }
        }
        match [attacking[0] && moved[0], attacking[1] && moved[1]] {
            [true, false] => Some(Outcome::loss(2, 0, Reason::PerpetualCheck)),
            [false, true] => Some(Outcome::loss(2, 1, Reason::PerpetualCheck)),
            _ => None,
        }
    }

    /// Sennichite's perpetual check; a perpetual attack (`repetition=attack`) needs the
    /// cycle's moves, which the search does not keep, so it stays a draw there.
    fn judge_repetition_in_search(&self, perpetual: [bool; 2]) -> Option<Outcome> {
        if self.data.repetition == "attack" {
            return None;
        }
        sf::sennichite_in_search(self, perpetual, sf::PlainRepetition::Draw)
    }

    fn forbids_repeating(&self) -> bool {
        self.data.repetition == "strict"
    }

    fn fen(&self) -> String {
        let cs = self.counter_strike.map_or("-".to_string(), |c| {
            self.spec().geometry.label(c).to_string()
        });
        format!(
            "{} {} {} {}",
            write_board(self.spec(), |c| self.piece_at(c)),
            if self.board.turn() == 0 { 'b' } else { 'w' },
            cs,
            self.board.fullmove
        )
    }

    fn move_text(&self, mv: LargeMove) -> String {
        let g = &self.spec().geometry;
        let mut s = g.label(mv.from).to_string();
        if let Some(v) = mv.via() {
            s.push_str(g.label(v));
        }
        s.push_str(g.label(mv.to));
        if mv.promote {
            s.push('+');
        }
        s
    }

    fn parse_move(&self, text: &str) -> Result<LargeMove, MoveError> {
        if text.len() < 4 || text.len() > 12 || !text.is_ascii() {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        let g = &self.spec().geometry;
        // Read two or three cells (labels like `12a` need every split tried).
        fn cells<'t>(
            g: &chaturanga_geometry::Geometry,
            rest: &'t str,
            acc: &mut Vec<Cell>,
            out: &mut Vec<(Vec<Cell>, &'t str)>,
        ) {
            if acc.len() >= 2 {
                out.push((acc.clone(), rest));
            }
            if acc.len() == 3 {
                return;
            }
            for (c, tail) in g.label_prefixes(rest) {
                acc.push(c);
                cells(g, tail, acc, out);
                acc.pop();
            }
        }
        let mut readings = Vec::new();
        cells(g, text, &mut Vec::new(), &mut readings);
        let readings: Vec<(Vec<Cell>, bool)> = readings
            .into_iter()
            .filter(|(_, rest)| rest.is_empty() || *rest == "+")
            .map(|(c, rest)| (c, rest == "+"))
            .collect();
        if readings.is_empty() {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        for (cells, promote) in readings {
            let (from, via, to) = match cells.as_slice() {
                [a, b] => (*a, None, *b),
                [a, v, b] => (*a, Some(*v), *b),
                _ => continue,
            };
            let found = legal.iter().find(|m| {
                m.from == from
                    && m.to == to
                    && m.promote == promote
                    && (m.via() == via
                        // Any pass through an empty neighbour is the same pass.
                        || (from == to && m.from == m.to && via.is_some_and(|v| self.piece_at(v).is_none()) && m.via().is_some_and(|mv| self.piece_at(mv).is_none())))
            });
            if let Some(m) = found {
                return Ok(*m);
            }
        }
        Err(MoveError::Illegal(excerpt(text)))
    }

    /// Western (Hodges) notation (`large_shogi/western.rs`).
    fn notations(&self) -> &'static [&'static str] {
        &[sf::WESTERN]
    }

    fn write_move(&self, notation: &str, mv: LargeMove) -> Option<String> {
        (notation == sf::WESTERN).then(|| self.to_western(mv))
    }

    fn read_move(&self, notation: &str, text: &str) -> Result<LargeMove, MoveError> {
        if notation != sf::WESTERN {
            return Err(MoveError::Malformed(format!(
                "no {} notation here",
                excerpt(notation)
            )));
        }
        self.parse_western(text)
    }
}

impl<const W: usize, const K: usize, R: LargeShogi> Ruleset for LargeShogiPosition<W, K, R> {
    const ID: &'static str = R::ID;

    fn option_specs() -> &'static [OptionSpec] {
        R::option_specs()
    }

    fn start_position(options: &RuleOptions) -> Result<Self, SetupError> {
        Self::from_fen(options, R::START)
    }

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        Self::from_fen(options, fen)
    }
}
