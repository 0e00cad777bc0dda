//! Three-player chess (`threeplayer`); see `docs/rules/threeplayer.md`.
//!
//! The board is the geometry crate's linked three-player board (96 cells in three half-boards,
//! lines across the seams, diagonals forking at the centre); the men are the chess pieces in
//! Betza, compiled by the shared tables with a direction that depends on the cell: inside his
//! own half a man uses its owner's frame, inside an opponent's half it is turned round, so a
//! pawn goes forward "towards the back rank of the half it stands in" (rules file, Pawn
//! direction; Decision 5). The pawn's capture is the diagonal beside the cell ahead of it
//! ([`chaturanga_rules::betza::BetzaMove::beside_ahead`]), the knight is the rules file's knight.
//!
//! Three players need a position of their own: a side to move among three, check by either
//! opponent, castling rights per player, en passant rights that last until the double-stepping
//! player moves again (one per player), the capturable-king rule, mate scoring with the
//! turn-order tie-break, and results with a score for each player. Legality is decided by
//! playing each candidate on a copy and asking whether the mover's king is attacked: pins and
//! checks come from two opponents, and lines bend at the centre.

use chaturanga_rules::board::{Board, no_more_fields, read_counters};
use chaturanga_rules::geometry::{Cell, CellSet, Geometry, GeometryBuilder, Vector};
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{self, Scene, Viewer};
use chaturanga_rules::standard::{FenError, SpecError};
use chaturanga_rules::tables::{
    AttackTables, KindSource, MoveTables, PieceBoard, attacked, build_tables_oriented,
};
use chaturanga_rules::zobrist::{ZobristKeys, seed_for};
use chaturanga_rules::{
    DrawRules, Kind, MoveError, MoveValue, OptionSpec, Outcome, Piece, PieceType, Player, Position,
    Reason, RuleOptions, Ruleset, SetupError, SetupProblem,
};
use std::sync::OnceLock;

/// Cells: 96, in two words.
const W: usize = 2;
/// Players in turn order: White, Red, Black.
const PLAYERS: usize = 3;
/// Colour letters in turn order.
const COLOURS: [char; 3] = ['w', 'r', 'b'];
/// Piece kinds, in table order.
const PAWN: Kind = 0;
const KNIGHT: Kind = 1;
const BISHOP: Kind = 2;
const ROOK: Kind = 3;
const QUEEN: Kind = 4;
const KING: Kind = 5;
const SYMBOLS: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];
/// Promotion choices, in the order moves are listed.
const PROMOTIONS: [Kind; 4] = [QUEEN, ROOK, BISHOP, KNIGHT];

/// Each player's local files a..h and local ranks 1..4 in global coordinates (rules file,
/// Coordinates).
const LOCAL: [(&str, [u32; 4]); 3] = [
    ("ABCDEFGH", [1, 2, 3, 4]),
    ("HGFEIJKL", [12, 11, 10, 9]),
    ("LKJIDCBA", [8, 7, 6, 5]),
];

/// The start position (rules file, Setup).
pub const START_FEN: &str = "rQrBrNrRrKrBrNrR/rPrPrPrPrPrPrPrP/8/8/bRbNbBbKbQbBbNbR/bPbPbPbPbPbPbPbP/8/8/8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR w wKQ,rKQ,bKQ - 0 1";

/// A castling of one player: king and rook from and to, cells that must be empty, cells the
/// king must not find attacked (its start, the cell it crosses and the one it lands on).
#[derive(Clone, Debug)]
struct Castling {
    king_from: Cell,
    king_to: Cell,
    rook_from: Cell,
    rook_to: Cell,
    empty: CellSet<W>,
    safe: Vec<Cell>,
}

/// Everything compiled once: the board, the tables, the keys and the cells of each rule.
struct Data {
    geometry: Geometry,
    /// Every cell.
    all: CellSet<W>,
    moves: MoveTables<W>,
    attacks: AttackTables<W>,
    keys: ZobristKeys,
    /// Per player: where his pawns promote (both opponents' back ranks).
    promotion: [CellSet<W>; 3],
    /// Per player and cell of his local rank 2: the double step's landing and skipped cells.
    double_step: Vec<Option<(Cell, Cell)>>,
    /// Per player: kingside (index 0) and queenside (1) castling.
    castlings: [[Castling; 2]; 3],
    /// The piece types, by kind (for the legend).
    pieces: Vec<PieceType>,
}

/// A cell of `player`'s local coordinates (`file` 0 = a, `rank` 0 = local rank 1).
fn local_label(player: usize, file: usize, rank: usize) -> String {
    let (files, ranks) = LOCAL[player];
    format!("{}{}", &files[file..file + 1], ranks[rank])
}

fn build_data() -> Result<Data, SpecError> {
    let geometry = GeometryBuilder::three_player()
        .build()
        .map_err(crate::family::board_error)?;
    let cell = |label: &str| {
        geometry
            .cell_by_label(label)
            .ok_or_else(|| SpecError::UnknownCell(label.to_string()))
    };
    let local = |p: usize, f: usize, r: usize| cell(&local_label(p, f, r));
    let mut half = [CellSet::<W>::EMPTY; 3];
    let mut back_rank = [CellSet::EMPTY; 3];
    let mut second_rank: [Vec<Cell>; 3] = Default::default();
    for p in 0..PLAYERS {
        for f in 0..8 {
            for r in 0..4 {
                half[p].insert(local(p, f, r)?);
            }
            back_rank[p].insert(local(p, f, 0)?);
            second_rank[p].push(local(p, f, 1)?);
        }
    }
    let promotion = [
        back_rank[1] | back_rank[2],
        back_rank[0] | back_rank[2],
        back_rank[0] | back_rank[1],
    ];
    let mut pawn =
        PieceType::new("P", "pawn", "fmWfceFifmnD").map_err(crate::family::betza_error)?;
    for m in &mut pawn.moves.moves {
        // The capture goes to the diagonal neighbour beside the cell ahead (rules file,
        // Pieces): at the centre, not the other way round the corner.
        if m.capture && !m.quiet {
            m.beside_ahead = true;
        }
    }
    // Forward turns round across the seams, which the pawn's Betza cannot say.
    let pawn = pawn.in_words(
        "one cell forward to an empty cell, two from its second rank, captures to the diagonal beside the cell ahead, en passant; forward turns towards an opponent in his half; promotes on either opponent's back rank",
    );
    let mut pieces = vec![pawn.pawn()];
    for (symbol, name, betza) in [
        ("N", "knight", "N"),
        ("B", "bishop", "B"),
        ("R", "rook", "R"),
        ("Q", "queen", "Q"),
        ("K", "king", "K"),
    ] {
        pieces.push(PieceType::new(symbol, name, betza).map_err(crate::family::betza_error)?);
    }
    let kings = pieces.len() - 1;
    pieces[kings] = pieces[kings].clone().royal();
    let sources: Vec<KindSource<'_>> = pieces
        .iter()
        .enumerate()
        .map(|(k, piece)| KindSource {
            moves: &piece.moves,
            zone_moves: Vec::new(),
            bent: &piece.bent,
            initial_cells: if k == PAWN as usize {
                second_rank.to_vec()
            } else {
                vec![Vec::new(); PLAYERS]
            },
            confine: None,
            check_only: None,
            initial_only_unmoved: false,
        })
        .collect();
    // A man uses his owner's frame in the owner's half and is turned round elsewhere.
    let orient = |p: usize, c: Cell, v: Vector| {
        if half[p].contains(c) { v } else { v.reversed() }
    };
    let (moves, attacks) = build_tables_oriented::<W>(&geometry, &sources, PLAYERS, &orient)?;
    let mut double_step = vec![None; PLAYERS * geometry.len()];
    for (p, cells) in second_rank.iter().enumerate() {
        for &from in cells {
            let leaps = geometry.linked_leaps(from, Vector::new(0, 2), false);
            if let [(to, passed)] = leaps.as_slice()
                && let [skipped] = passed.as_slice()
            {
                double_step[p * geometry.len() + from.index()] = Some((*to, *skipped));
            }
        }
    }
    let castling = |p: usize,
                    king_to: usize,
                    rook_from: usize,
                    rook_to: usize|
     -> Result<Castling, SpecError> {
        let (lo, hi) = (4.min(rook_from), 4.max(rook_from));
        let mut empty = CellSet::EMPTY;
        for f in lo + 1..hi {
            empty.insert(local(p, f, 0)?);
        }
        let (klo, khi) = (4.min(king_to), 4.max(king_to));
        let safe = (klo..=khi)
            .map(|f| local(p, f, 0))
            .collect::<Result<_, _>>()?;
        Ok(Castling {
            king_from: local(p, 4, 0)?,
            king_to: local(p, king_to, 0)?,
            rook_from: local(p, rook_from, 0)?,
            rook_to: local(p, rook_to, 0)?,
            empty,
            safe,
        })
    };
    let castlings = [
        [castling(0, 6, 7, 5)?, castling(0, 2, 0, 3)?],
        [castling(1, 6, 7, 5)?, castling(1, 2, 0, 3)?],
        [castling(2, 6, 7, 5)?, castling(2, 2, 0, 3)?],
    ];
    let keys = ZobristKeys::new(
        seed_for("threeplayer"),
        PLAYERS,
        pieces.len(),
        geometry.len(),
        6,
    );
    Ok(Data {
        all: CellSet::from_cells(geometry.cells()),
        geometry,
        moves,
        attacks,
        keys,
        promotion,
        double_step,
        castlings,
        pieces,
    })
}

impl std::fmt::Debug for Data {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The tables are large; a position's Debug shows its men, not them.
        write!(f, "threeplayer data")
    }
}

/// The compiled data, built on first use.
fn data() -> Result<&'static Data, SetupError> {
    static DATA: OnceLock<Result<Data, SpecError>> = OnceLock::new();
    DATA.get_or_init(build_data)
        .as_ref()
        .map_err(|e| SetupError::Spec(e.clone()))
}

/// What a move does besides moving a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// An ordinary move or capture (promotion included).
    Normal,
    /// A pawn's double step: opens an en passant right.
    DoubleStep,
    /// An en passant capture of the double-stepped pawn standing on `cell`.
    EnPassant {
        /// The double-stepped pawn's cell.
        cell: Cell,
    },
    /// Castling: the rook goes too (kingside 0, queenside 1).
    Castle(u8),
}

/// A move of three-player chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreePlayerMove {
    /// The cell the man leaves.
    pub from: Cell,
    /// The cell it goes to (the king's cell for castling).
    pub to: Cell,
    /// The kind a pawn promotes to.
    pub promotion: Option<Kind>,
    /// Double step, en passant, castling.
    pub special: Special,
}

/// An en passant right: the cell a pawn skipped and the cell it landed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct EnPassant {
    skipped: Cell,
    landing: Cell,
}

/// A three-player chess position.
#[derive(Clone, Debug)]
pub struct ThreePlayerPosition {
    data: &'static Data,
    /// The men; its turn is the side to move, its move number the round.
    board: Board<W, 3, 6>,
    /// Bit `2·player + side` (kingside 0, queenside 1).
    castling: u8,
    /// Per player: his en passant right, from his double step until his next turn.
    en_passant: [Option<EnPassant>; 3],
}

impl PieceBoard<W> for ThreePlayerPosition {
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

/// Key of an en passant right (skipped cell, owner).
fn en_passant_key(keys: &ZobristKeys, right: EnPassant, owner: usize) -> u64 {
    keys.en_passant[right.skipped.index()].rotate_left(17 * (owner as u32 + 1))
}

impl ThreePlayerPosition {
    fn empty(data: &'static Data) -> Self {
        ThreePlayerPosition {
            data,
            board: Board::empty(0),
            castling: 0,
            en_passant: [None; 3],
        }
    }

    /// The board's geometry.
    pub fn geometry(&self) -> &'static Geometry {
        &self.data.geometry
    }

    /// The man on a cell.
    pub fn man(&self, cell: Cell) -> Piece {
        self.board.piece_at(cell)
    }

    fn put(&mut self, cell: Cell, piece: Piece) {
        self.board.put(&self.data.keys, cell, piece);
    }

    /// Takes the man on `cell` off, if there is one.
    fn take(&mut self, cell: Cell) -> Piece {
        if self.board.piece_at(cell).is_none() {
            return Piece::NONE;
        }
        self.board.take(&self.data.keys, cell)
    }

    fn occupied(&self) -> CellSet<W> {
        self.board.occupied()
    }

    /// The king of `player`, if on the board.
    fn king(&self, player: usize) -> Option<Cell> {
        (self.board.of_player(player as Player) & self.board.of_kind(KING)).first()
    }

    /// Whether `by` attacks `cell` (could capture there were it his turn, pins ignored).
    pub fn attacked_by(&self, cell: Cell, by: usize) -> bool {
        attacked(
            &self.data.moves,
            &self.data.attacks,
            self,
            cell,
            by as Player,
            self.occupied(),
        )
    }

    /// The opponents of `player` who attack his king.
    pub fn king_attackers(&self, player: usize) -> Vec<usize> {
        let Some(king) = self.king(player) else {
            return Vec::new();
        };
        [(player + 1) % 3, (player + 2) % 3]
            .into_iter()
            .filter(|&o| self.attacked_by(king, o))
            .collect()
    }

    fn in_check(&self, player: usize) -> bool {
        !self.king_attackers(player).is_empty()
    }

    fn set_castling(&mut self, rights: u8) {
        for bit in 0..6 {
            if (self.castling ^ rights) & (1 << bit) != 0 {
                self.board.toggle_hash(self.data.keys.castling[bit]);
            }
        }
        self.castling = rights;
    }

    fn set_en_passant(&mut self, owner: usize, right: Option<EnPassant>) {
        if let Some(old) = self.en_passant[owner] {
            self.board
                .toggle_hash(en_passant_key(&self.data.keys, old, owner));
        }
        if let Some(new) = right {
            self.board
                .toggle_hash(en_passant_key(&self.data.keys, new, owner));
        }
        self.en_passant[owner] = right;
    }

    fn set_side(&mut self, side: u8) {
        self.board.set_turn(&self.data.keys, side);
    }

    /// Drops rights that can no longer be used: castling whose king or rook left home, en
    /// passant whose pawn left its landing cell or whose skipped cell is occupied.
    fn drop_dead_rights(&mut self) {
        let mut rights = self.castling;
        for p in 0..PLAYERS {
            for s in 0..2 {
                let c = &self.data.castlings[p][s];
                let king = Piece::new(p as Player, KING);
                let rook = Piece::new(p as Player, ROOK);
                if self.man(c.king_from) != king || self.man(c.rook_from) != rook {
                    rights &= !(1 << (2 * p + s));
                }
            }
        }
        self.set_castling(rights);
        for owner in 0..PLAYERS {
            if let Some(r) = self.en_passant[owner]
                && (self.man(r.landing) != Piece::new(owner as Player, PAWN)
                    || self.occupied().contains(r.skipped))
            {
                self.set_en_passant(owner, None);
            }
        }
    }

    /// Candidate moves of the player to move, before the king-safety test.
    fn candidates(&self, out: &mut Vec<ThreePlayerMove>) {
        let d = self.data;
        let me = self.board.turn() as usize;
        let occupied = self.occupied();
        let empty = d.all.without(occupied);
        let enemy = occupied & !self.board.of_player(me as Player);
        for from in self.board.of_player(me as Player) {
            let kind = self.man(from).kind();
            let (quiet, captures) = d
                .moves
                .reach(me as Player, kind, from, occupied, empty, enemy);
            for to in quiet | captures {
                if kind == PAWN && d.promotion[me].contains(to) {
                    for k in PROMOTIONS {
                        out.push(ThreePlayerMove {
                            from,
                            to,
                            promotion: Some(k),
                            special: Special::Normal,
                        });
                    }
                    continue;
                }
                let double = kind == PAWN
                    && d.double_step[me * d.geometry.len() + from.index()]
                        .is_some_and(|(landing, _)| landing == to);
                out.push(ThreePlayerMove {
                    from,
                    to,
                    promotion: None,
                    special: if double {
                        Special::DoubleStep
                    } else {
                        Special::Normal
                    },
                });
            }
        }
        // En passant: onto a skipped cell of an opponent's right, by a pawn that attacks it.
        for owner in 0..PLAYERS {
            let Some(right) = self.en_passant[owner] else {
                continue;
            };
            if owner == me {
                continue;
            }
            for from in self.board.of_player(me as Player) & self.board.of_kind(PAWN) {
                if d.moves
                    .get(me as Player, PAWN, from)
                    .ep_capture
                    .contains(right.skipped)
                {
                    out.push(ThreePlayerMove {
                        from,
                        to: right.skipped,
                        promotion: None,
                        special: Special::EnPassant {
                            cell: right.landing,
                        },
                    });
                }
            }
        }
        // Castling, as in chess against both opponents.
        for s in 0..2u8 {
            if self.castling & (1 << (2 * me + s as usize)) == 0 {
                continue;
            }
            let c = &d.castlings[me][s as usize];
            if c.empty.intersects(occupied) {
                continue;
            }
            let safe = c
                .safe
                .iter()
                .all(|&cell| (1..3).all(|o| !self.attacked_by(cell, (me + o) % 3)));
            if safe {
                out.push(ThreePlayerMove {
                    from: c.king_from,
                    to: c.king_to,
                    promotion: None,
                    special: Special::Castle(s),
                });
            }
        }
    }

    /// The capturable-king rule: the player to move can capture the king of the player after
    /// him (the rules file, Special rules).
    fn capturable_king(&self) -> Option<Outcome> {
        let me = self.board.turn() as usize;
        let next = (me + 1) % 3;
        let king = self.king(next)?;
        self.attacked_by(king, me).then(|| {
            let mut quarters = vec![2; 3];
            quarters[me] = 4;
            quarters[next] = 0;
            Outcome {
                quarters,
                reason: Reason::RoyalCaptured,
            }
        })
    }

    /// Reads a position (rules file, Setup: FEN).
    pub fn from_fen(fen: &str) -> Result<Self, SetupError> {
        let d = data()?;
        if fen.trim().is_empty() {
            return Err(FenError::Empty.into());
        }
        if fen.len() > 4096 {
            return Err(FenError::TooLong(fen.len()).into());
        }
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mut p = ThreePlayerPosition::empty(d);
        p.board.toggle_hash(d.keys.turn[0]);
        let rows = d.geometry.rows_from_top();
        let given: Vec<&str> = fields[0].split('/').collect();
        if given.len() != rows.len() {
            return Err(FenError::RowCount {
                expected: rows.len(),
                found: given.len(),
            }
            .into());
        }
        for (i, (text, row)) in given.iter().zip(&rows).enumerate() {
            let cells: Vec<Cell> = row.iter().flatten().copied().collect();
            let mut at = 0usize;
            let mut chars = text.chars().peekable();
            while let Some(ch) = chars.next() {
                if ch.is_ascii_digit() {
                    let mut n = ch.to_digit(10).unwrap_or(0) as usize;
                    while let Some(&next) = chars.peek()
                        && next.is_ascii_digit()
                    {
                        n = (n * 10 + next.to_digit(10).unwrap_or(0) as usize).min(1000);
                        chars.next();
                    }
                    at += n;
                    continue;
                }
                let colour = COLOURS
                    .iter()
                    .position(|&c| c == ch)
                    .ok_or_else(|| FenError::UnknownPiece(ch.to_string()))?;
                let letter = chars
                    .next()
                    .ok_or_else(|| FenError::UnknownPiece(ch.to_string()))?;
                let kind = SYMBOLS
                    .iter()
                    .position(|&s| s == letter)
                    .ok_or_else(|| FenError::UnknownPiece(format!("{ch}{letter}")))?;
                if at >= cells.len() {
                    at += 1;
                    break;
                }
                p.put(cells[at], Piece::new(colour as Player, kind as Kind));
                at += 1;
            }
            if at != cells.len() {
                return Err(FenError::RowLength {
                    row: i + 1,
                    expected: cells.len(),
                    found: at,
                }
                .into());
            }
        }
        let field = |i: usize| fields.get(i).copied();
        let side = field(1).ok_or_else(|| FenError::Turn(String::new()))?;
        let side = match side {
            "w" => 0,
            "r" => 1,
            "b" => 2,
            other => return Err(FenError::Turn(excerpt(other)).into()),
        };
        p.set_side(side);
        let castling = field(2).unwrap_or("-");
        let mut rights = 0u8;
        if castling != "-" {
            for part in castling.split(',') {
                let mut chars = part.chars();
                let colour = chars
                    .next()
                    .and_then(|c| COLOURS.iter().position(|&x| x == c))
                    .ok_or_else(|| FenError::Castling(excerpt(castling)))?;
                for c in chars {
                    let s = match c {
                        'K' => 0,
                        'Q' => 1,
                        _ => return Err(FenError::Castling(excerpt(castling)).into()),
                    };
                    rights |= 1 << (2 * colour + s);
                }
            }
        }
        p.set_castling(rights);
        let en_passant = field(3).unwrap_or("-");
        if en_passant != "-" {
            for part in en_passant.split(',') {
                let bad = || FenError::EnPassant(excerpt(en_passant));
                let colour = part
                    .chars()
                    .last()
                    .and_then(|c| COLOURS.iter().position(|&x| x == c))
                    .ok_or_else(bad)?;
                let skipped = d
                    .geometry
                    .cell_by_label(&part[..part.len() - 1])
                    .ok_or_else(bad)?;
                // The skipped cell of one of the owner's double steps; otherwise malformed.
                let landing = (0..d.geometry.len())
                    .filter_map(|i| d.double_step[colour * d.geometry.len() + i])
                    .find(|&(_, s)| s == skipped)
                    .map(|(l, _)| l)
                    .ok_or_else(bad)?;
                // A right ends when its owner's turn begins.
                if colour != side as usize {
                    p.set_en_passant(colour, Some(EnPassant { skipped, landing }));
                }
            }
        }
        let mut counters = fields.iter().skip(4).copied();
        (p.board.quiet_plies, p.board.fullmove) = read_counters(&mut counters)?;
        no_more_fields(counters)?;
        p.drop_dead_rights();
        let mut problems = Vec::new();
        for player in 0..PLAYERS {
            let kings = (p.board.of_player(player as Player) & p.board.of_kind(KING)).count();
            if kings == 0 {
                problems.push(SetupProblem::MissingRoyal(player as Player));
            } else if kings > 1 {
                problems.push(SetupProblem::TooManyRoyals(player as Player));
            }
            for cell in
                p.board.of_player(player as Player) & p.board.of_kind(PAWN) & d.promotion[player]
            {
                problems.push(SetupProblem::UnpromotedPiece(
                    d.geometry.label(cell).to_string(),
                ));
            }
        }
        // The player who moved last cannot have left his king attacked.
        if problems.is_empty() && p.in_check((side as usize + 2) % 3) {
            problems.push(SetupProblem::OpponentInCheck);
        }
        if problems.is_empty() {
            Ok(p)
        } else {
            Err(SetupError::Invalid(problems))
        }
    }

    /// Ends the game by resignation in favour of `beneficiary` (rules file, Resignation):
    /// with the third player's confirmation the resigning player scores 0, the beneficiary 1
    /// and the confirming player 1/2; without it (`confirmed == false`) nothing happens and
    /// `Ok(None)` is returned. Any player may resign, whoever is to move.
    pub fn resignation(
        &self,
        resigning: usize,
        beneficiary: usize,
        confirmed: bool,
    ) -> Result<Option<Outcome>, MoveError> {
        if resigning >= PLAYERS || beneficiary >= PLAYERS || resigning == beneficiary {
            return Err(MoveError::Illegal(format!(
                "player {} cannot resign in favour of player {}",
                resigning + 1,
                beneficiary + 1
            )));
        }
        if !confirmed {
            return Ok(None);
        }
        let mut quarters = vec![2; 3];
        quarters[resigning] = 0;
        quarters[beneficiary] = 4;
        Ok(Some(Outcome {
            quarters,
            reason: Reason::Resignation,
        }))
    }
}

/// The action that resigns in favour of each player, in turn order.
const RESIGN_TO: [&str; PLAYERS] = ["resign white", "resign red", "resign black"];

impl ThreePlayerPosition {
    /// The opponent of the player to move that a `resign <opponent>` action names.
    fn resignation_to(&self, action: &str) -> Result<usize, MoveError> {
        RESIGN_TO
            .iter()
            .position(|&a| a == action)
            .filter(|&p| p != self.board.turn() as usize)
            .ok_or_else(|| MoveError::Illegal(excerpt(action)))
    }
}

/// Piece values in centipawns (the orthodox chess values; the king's is never gained or lost).
const VALUES: [i32; 6] = [100, 320, 330, 500, 950, 0];
/// Centipawns per cell a knight, bishop, rook or queen can move to.
const MOBILITY: i32 = 3;

impl ThreePlayerPosition {
    /// Material and mobility of `player`.
    fn strength(&self, player: usize) -> i32 {
        let data = self.data;
        let occupied = self.board.occupied();
        let empty = data.all.without(occupied);
        let enemy = occupied.without(self.board.of_player(player as Player));
        let mut total = 0;
        for cell in self.board.of_player(player as Player) {
            let kind = self.board.piece_at(cell).kind();
            total += VALUES[kind as usize];
            if kind != PAWN && kind != KING {
                let (quiet, captures) =
                    data.moves
                        .reach(player as Player, kind, cell, occupied, empty, enemy);
                total += MOBILITY * (quiet | captures).count() as i32;
            }
        }
        total
    }
}

impl Position for ThreePlayerPosition {
    type Move = ThreePlayerMove;

    fn player_name(&self, player: usize) -> &'static str {
        ["white", "red", "black"][player]
    }

    fn diagram(&self) -> String {
        format!(
            "{}{} to move\n",
            drawing(self),
            self.player_name(self.board.turn() as usize)
        )
    }

    /// `resign <opponent>`: the player to move resigns in favour of that opponent, which
    /// the third player must confirm ([`Position::action_consent`]).
    fn actions(&self) -> Vec<&'static str> {
        (0..PLAYERS)
            .filter(|&p| p != self.board.turn() as usize)
            .map(|p| RESIGN_TO[p])
            .collect()
    }

    fn perform(&self, action: &str) -> Result<Outcome, MoveError> {
        let beneficiary = self.resignation_to(action)?;
        self.resignation(self.board.turn() as usize, beneficiary, true)?
            .ok_or_else(|| MoveError::Illegal(excerpt(action)))
    }

    fn action_consent(&self, action: &str) -> Option<usize> {
        let beneficiary = self.resignation_to(action).ok()?;
        (0..PLAYERS).find(|&p| p != beneficiary && p != self.board.turn() as usize)
    }

    /// Own strength against the opponents' average: a paranoid search sees both opponents
    /// as one side, and neither opponent's gain is good for us.
    fn evaluate(&self, player: usize) -> i32 {
        let others: i32 = (0..PLAYERS)
            .filter(|&p| p != player)
            .map(|p| self.strength(p))
            .sum();
        self.strength(player) - others / 2
    }

    fn move_value(&self, mv: ThreePlayerMove) -> MoveValue {
        let mover = self.board.piece_at(mv.from).kind();
        let target = self.board.piece_at(mv.to);
        let mut gain = match mv.special {
            Special::EnPassant { .. } => VALUES[PAWN as usize],
            Special::Castle(_) => 0,
            _ if target.is_some() && target.player() as usize != self.board.turn() as usize => {
                VALUES[target.kind() as usize]
            }
            _ => 0,
        };
        if let Some(p) = mv.promotion {
            gain += VALUES[p as usize] - VALUES[PAWN as usize];
        }
        MoveValue {
            gain,
            mover: VALUES[mover as usize],
        }
    }

    fn players(&self) -> usize {
        PLAYERS
    }

    fn side_to_move(&self) -> usize {
        self.board.turn() as usize
    }

    fn legal_moves(&self, moves: &mut Vec<ThreePlayerMove>) {
        // A game decided by the capturable-king rule has no moves (overview, Perft).
        if self.capturable_king().is_some() {
            return;
        }
        let me = self.board.turn() as usize;
        let mut candidates = Vec::with_capacity(128);
        self.candidates(&mut candidates);
        for mv in candidates {
            let mut after = self.clone();
            after.apply(mv);
            if !after.in_check(me) {
                moves.push(mv);
            }
        }
    }

    fn play_unchecked(&mut self, mv: ThreePlayerMove) {
        self.apply(mv);
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn is_check(&self) -> bool {
        self.in_check(self.board.turn() as usize)
    }

    /// Checkmate: the mated player 0, the attacker 1 (of two attackers the one who moves
    /// next after him), the third 1/2; stalemate: 1/2 each. A capturable king decides first.
    fn outcome_without_moves(&self) -> Outcome {
        if let Some(o) = self.capturable_king() {
            return o;
        }
        let me = self.board.turn() as usize;
        let attackers = self.king_attackers(me);
        match attackers.first() {
            None => Outcome::draw(PLAYERS, Reason::Stalemate),
            Some(&winner) => {
                let mut quarters = vec![2; 3];
                quarters[me] = 0;
                quarters[winner] = 4;
                Outcome {
                    quarters,
                    reason: Reason::Checkmate,
                }
            }
        }
    }

    fn decided_outcome(&self) -> Option<Outcome> {
        self.capturable_king()
    }

    /// Only three bare kings (rules file, Decision 9).
    fn is_dead(&self) -> bool {
        self.occupied() == self.board.of_kind(KING)
    }

    fn quiet_plies(&self) -> u32 {
        self.board.quiet_plies
    }

    /// Threefold repetition and the fifty-round rule (150 moves), both automatic.
    fn draw_rules(&self) -> DrawRules {
        DrawRules {
            repetition: Some((3, Reason::ThreefoldRepetition)),
            repetition_claim: None,
            quiet_plies: Some((150, Reason::FiftyMoveRule)),
            quiet_plies_claim: None,
            ply_cap: None,
        }
    }

    fn ply(&self) -> u32 {
        3 * (self.board.fullmove - 1) + self.board.turn() as u32
    }

    fn move_number(&self) -> u32 {
        self.board.fullmove
    }

    fn fen(&self) -> String {
        let d = self.data;
        let mut rows = Vec::new();
        for row in d.geometry.rows_from_top() {
            let mut text = String::new();
            let mut run = 0;
            for cell in row.into_iter().flatten() {
                let man = self.man(cell);
                if man.is_none() {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    text.push_str(&run.to_string());
                    run = 0;
                }
                text.push(COLOURS[man.player() as usize]);
                text.push(SYMBOLS[man.kind() as usize]);
            }
            if run > 0 {
                text.push_str(&run.to_string());
            }
            rows.push(text);
        }
        let mut castling = Vec::new();
        for (p, colour) in COLOURS.iter().enumerate() {
            let mut part = String::new();
            for (s, letter) in ['K', 'Q'].into_iter().enumerate() {
                if self.castling & (1 << (2 * p + s)) != 0 {
                    part.push(letter);
                }
            }
            if !part.is_empty() {
                castling.push(format!("{colour}{part}"));
            }
        }
        let castling = if castling.is_empty() {
            "-".to_string()
        } else {
            castling.join(",")
        };
        let rights: Vec<String> = (0..PLAYERS)
            .filter_map(|p| {
                self.en_passant[p].map(|r| format!("{}{}", d.geometry.label(r.skipped), COLOURS[p]))
            })
            .collect();
        let en_passant = if rights.is_empty() {
            "-".to_string()
        } else {
            rights.join(",")
        };
        format!(
            "{} {} {castling} {en_passant} {} {}",
            rows.join("/"),
            COLOURS[self.board.turn() as usize],
            self.board.quiet_plies,
            self.board.fullmove
        )
    }

    fn scene(&self, _viewer: Viewer) -> Scene {
        let g = self.geometry();
        let mut board = scene::board_scene(
            g,
            g.cells().filter_map(|cell| {
                let man = self.board.piece_at(cell);
                man.is_some().then(|| {
                    (
                        cell,
                        SYMBOLS[man.kind() as usize].to_string(),
                        man.player() as usize,
                    )
                })
            }),
        );
        if self.is_check()
            && let Some(king) = self.king(self.side_to_move())
        {
            board.check.push(g.label(king).to_string());
        }
        Scene::single(board)
    }

    fn legend(&self) -> chaturanga_rules::Legend {
        chaturanga_rules::Legend::of_pieces(
            chaturanga_rules::PieceStyle::Western,
            &self.data.pieces,
        )
    }

    fn move_shape(&self, mv: ThreePlayerMove) -> scene::MoveShape {
        let g = self.geometry();
        scene::MoveShape {
            from: Some(g.label(mv.from).to_string()),
            to: Some(g.label(mv.to).to_string()),
            promotion: mv.promotion.map(|k| SYMBOLS[k as usize].to_string()),
            ..scene::MoveShape::default()
        }
    }

    fn move_text(&self, mv: ThreePlayerMove) -> String {
        let g = &self.data.geometry;
        let mut text = format!("{}{}", g.label(mv.from), g.label(mv.to));
        if let Some(k) = mv.promotion {
            text.push(SYMBOLS[k as usize].to_ascii_lowercase());
        }
        text
    }
}

impl ThreePlayerPosition {
    /// Plays a move known to be a candidate (legal or not: the legality test plays them).
    fn apply(&mut self, mv: ThreePlayerMove) {
        let d = self.data;
        let me = self.board.turn() as usize;
        let moving = self.take(mv.from);
        let mut irreversible = moving.kind() == PAWN;
        match mv.special {
            Special::EnPassant { cell } => {
                self.take(cell);
                irreversible = true;
            }
            Special::Castle(s) => {
                let c = &d.castlings[me][s as usize];
                let rook = self.take(c.rook_from);
                self.put(c.rook_to, rook);
            }
            Special::Normal | Special::DoubleStep => {}
        }
        if self.take(mv.to).is_some() {
            irreversible = true;
        }
        let placed = match mv.promotion {
            Some(k) => Piece::new(me as Player, k),
            None => moving,
        };
        self.put(mv.to, placed);
        let mut rights = self.castling;
        if moving.kind() == KING {
            rights &= !(3 << (2 * me));
        }
        self.set_castling(rights);
        if mv.special == Special::DoubleStep
            && let Some((landing, skipped)) = d.double_step[me * d.geometry.len() + mv.from.index()]
        {
            self.set_en_passant(me, Some(EnPassant { skipped, landing }));
        }
        self.board.quiet_plies = if irreversible {
            0
        } else {
            self.board.quiet_plies + 1
        };
        let next = ((me + 1) % PLAYERS) as u8;
        if next == 0 {
            self.board.fullmove += 1;
        }
        self.set_side(next);
        // The next player's own right ends as his turn begins.
        self.set_en_passant(next as usize, None);
        self.drop_dead_rights();
    }
}

impl Ruleset for ThreePlayerPosition {
    const ID: &'static str = "threeplayer";

    fn option_specs() -> &'static [OptionSpec] {
        &[]
    }

    fn start_position(_options: &RuleOptions) -> Result<Self, SetupError> {
        ThreePlayerPosition::from_fen(START_FEN)
    }

    fn from_fen_with(_options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        ThreePlayerPosition::from_fen(fen)
    }
}

/// A text drawing of the position for a terminal: the board's chart (see
/// [`Geometry::drawing`]), each man as colour letter and piece letter (`wK`, `rP`, `bQ`),
/// empty cells as dots, rank numbers at both sides and file letters underneath.
pub fn drawing(position: &ThreePlayerPosition) -> String {
    position.geometry().drawing(|cell| {
        let man = position.man(cell);
        if man.is_none() {
            ".".to_string()
        } else {
            format!(
                "{}{}",
                COLOURS[man.player() as usize],
                SYMBOLS[man.kind() as usize]
            )
        }
    })
}
