//! Makarenko Chess (`makarenko`): towers of disks whose height decides the piece they are,
//! split moves, merging, several kings that can be captured, and four ways to deal with
//! towers taller than eight disks; see `docs/rules/makarenko.md`.
//!
//! # Representation
//!
//! The height of a tower is its piece kind: the spec has one piece type per height (kind
//! `h - 1` is a tower of `h` disks) with the Betza of the piece that height gives
//! (1-2 pawn `fmWfceFifmnD`, 3 rook, 4 knight, 5-6 bishop, 7 queen, 8 and more king). So the
//! compiled tables answer "where can `k` disks go from here" for every `k`, the Zobrist keys
//! tell towers of different heights apart, and the FEN board is the shared one: every
//! height has exactly one symbol (`P`, `P{2}`, `R`, `N`, `B`, `B{6}`, `Q`, `K`, then `K{9}`
//! ... `K{47}` under `tall=king`). Heights above eight exist only under `tall=king`; since
//! disks are never created, no tower can exceed a side's 47 disks.
//!
//! A move takes `k` disks off a tower of height `h` (all of them: a whole-tower move; fewer:
//! a split) and moves them as the piece of height `k`: to an empty cell, capturing an enemy
//! tower, or merging onto a friendly tower where they could capture. There is no check, so
//! legality is only about kings (the split rule, and a king-creating move for a player who
//! lost his last king) and, by default, the eight-disk limit.
//!
//! # FEN and moves
//!
//! FEN: the chess FEN with the tower symbols above (`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR
//! w KQkq - 0 1`); under `tall=reserve` the reserve counts follow the board, always written,
//! `[W2B0]` (readers also accept `[W2 B0]`, and a missing field as both reserves empty). The
//! en passant field names the cell skipped by a double step, written only when the player to
//! move can legally capture onto it. Moves: `d4f5` (whole tower), `d4f5/4` (four disks split
//! off), castling as the king's move `e1g1`, en passant as the capturing part's move (`d4e3`,
//! `d4e3/1`), reserve placement `D@e4` (both players write `D`).
//!
//! # Decisions where the rules file leaves a choice
//!
//! - **Reading FENs.** A side may not own more than 47 disks (board and reserve): disks are
//!   never created. The player who is not to move must own a king (he has just moved, and
//!   must own one at the end of his move); the player to move may have none (his last king was
//!   just captured). Each height has one spelling: `P{1}` or `R{4}` are refused, as are
//!   heights above eight except under `tall=king`, and a reserve field except under
//!   `tall=reserve`. Castling rights whose original towers (8 disks on e1/e8, 3 disks on the
//!   rook's corner) are not at home are dropped, as are unusable en passant targets.
//! - **Check** (announced only): the player to move is in check when one of his kings stands
//!   on a cell the opponent attacks in the castling sense, by a whole-tower or a legal split
//!   capture.
//! - **Splitting a king under `tall=king`**: with no other king, only splits leaving eight or
//!   more disks behind are legal, even when the part split off would itself be a king (the
//!   file's wording: the other king must already exist, or the part left behind must stay a
//!   king).
//! - **Castling rights** are lost for good by any move that starts or ends on the king's or
//!   the rook's original cell (moving, splitting, being merged onto, being captured, a
//!   reserve disk placed there).
//! - **Fifty-move counter**: reset by captures (en passant included) and by every move of one
//!   or two disks (a pawn-type mover, merging or not). Castling, merges of larger parts, the
//!   excess disks that `tall=discard` removes and reserve placements do not reset it (the
//!   file: only captures and pawn-type movement count; merges without them do not).
//! - **Reserve placement** (`tall=reserve`) may use any empty cell, the last and first ranks
//!   included (a pawn tower there just cannot move, as the file says of stranded pawns).
//! - **End of game**: a player to move without a king and without a king-creating move has
//!   no legal move and loses (reason `royal-captured`); with a king and no move it is
//!   stalemate. There is no dead-position rule.

use crate::family;
use chaturanga_geometry::{Cell, CellSet};
use chaturanga_rules::board::{Board, no_more_fields, read_counters, read_turn};
use chaturanga_rules::options::{OptionValues, cached};
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{self, Scene, Viewer};
use chaturanga_rules::standard::board_text;
use chaturanga_rules::standard::{
    FenError, MAX_FEN_LEN, SetupError, SetupProblem, Spec, SpecError, parse_board,
    parse_en_passant, write_board,
};
use chaturanga_rules::tables::{self, PieceBoard};
use chaturanga_rules::{
    Kind, MoveError, MoveValue, OptionSpec, Outcome, Piece, PieceType, Player, Position, Reason,
    RuleOptions, Ruleset, Tapered,
};

/// Disks each side starts with; disks are never created, so no tower is taller.
pub const DISKS_PER_SIDE: u8 = 47;
/// The height from which a tower is a king (exactly this height except under `tall=king`).
const KING_HEIGHT: u8 = 8;
/// The tallest tower under every option but `tall=king`.
const LIMIT: u8 = 8;
/// What the evaluation counts a king tower as (see `evaluate`): more than the queen and pawn
/// its eight disks could split into (950 + 100), the rest the insurance a spare king gives.
/// At 500 the engine split and traded its kings for material and lost to the build before
/// issue 23's work by 215 Elo; in fixed-node matches against that build (60 games each)
/// 900 scored +70, 1,200 +313, 1,400 +458, 1,600 +325, 3,000 +183 and the royal value +140
/// (docs/performance.md).
const KING_TOWER: i32 = 1400;
/// Fewest towers with which the search may try passing (fewer: zugzwang becomes likely).
const NULL_MOVE_MIN_TOWERS: u32 = 4;
/// A kind no piece has: attack views give it to towers that cannot act as the piece asked
/// about, so they block lines without attacking along them.
const NO_KIND: Kind = 62;
/// The smallest height of each piece (pawn, rook, knight, bishop, queen, king): a tower can
/// capture as that piece when it is that piece or can split off that many disks.
const PIECE_HEIGHTS: [u8; 6] = [1, 3, 4, 5, 7, 8];

/// The start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const TALL: OptionSpec = OptionSpec {
    name: "tall",
    values: OptionValues::Choice(&["forbid", "king", "discard", "reserve"]),
    default: "forbid",
    help: "towers over 8 disks: forbid (illegal), king (allowed, kings), discard (kept at 8, excess leave the game), reserve (kept at 8, excess to a reserve placed back one disk a turn)",
    label: "Towers over 8",
    words: &[
        ("forbid", "A tower may not grow past 8 disks"),
        (
            "king",
            "Towers of 8 or more disks are allowed and are kings",
        ),
        (
            "discard",
            "A merged tower keeps 8 disks; the rest leave the game",
        ),
        (
            "reserve",
            "A merged tower keeps 8 disks; the rest go to a reserve, placed back one disk a turn",
        ),
    ],
};

/// How towers taller than eight disks are treated (option `tall`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tall {
    /// A move making a tower of more than eight disks is illegal.
    Forbid,
    /// Towers of eight or more disks are allowed and are kings.
    King,
    /// The merged tower keeps eight disks; the excess leave the game.
    Discard,
    /// The merged tower keeps eight disks; the excess go to the owner's reserve.
    Reserve,
}

impl Tall {
    fn from_options(options: &RuleOptions) -> Tall {
        match options.get("tall") {
            Some("king") => Tall::King,
            Some("discard") => Tall::Discard,
            Some("reserve") => Tall::Reserve,
            _ => Tall::Forbid,
        }
    }

    /// The tallest tower that can exist.
    fn max_height(self) -> u8 {
        if self == Tall::King {
            DISKS_PER_SIDE
        } else {
            LIMIT
        }
    }
}

/// The piece letter of a tower of `height` disks.
pub fn piece_letter(height: u8) -> char {
    match height {
        1 | 2 => 'P',
        3 => 'R',
        4 => 'N',
        5 | 6 => 'B',
        7 => 'Q',
        _ => 'K',
    }
}

/// The FEN symbol of a tower of `height` disks: the letter alone at the piece's canonical
/// height, otherwise the letter with the height in braces (`P{2}`, `K{10}`).
pub fn tower_symbol(height: u8) -> String {
    let letter = piece_letter(height);
    if matches!(height, 1 | 3 | 4 | 5 | 7 | 8) {
        letter.to_string()
    } else {
        format!("{letter}{{{height}}}")
    }
}

/// What every tower may do besides moving whole, said once in each legend entry.
const TOWER_WORDS: &str = "whole, or split: k disks move off as the piece of k disks; may merge onto a friendly tower where it could capture";

fn tower_type(height: u8) -> Result<PieceType, SpecError> {
    let symbol = tower_symbol(height);
    let disks = if height == 1 { "disk" } else { "disks" };
    let (piece, moves) = match piece_letter(height) {
        'P' => (
            "pawn",
            "one cell forward, two from its second rank, captures diagonally forward, en passant",
        ),
        'R' => ("rook", "as a chess rook"),
        'N' => ("knight", "as a chess knight"),
        'B' => ("bishop", "as a chess bishop"),
        'Q' => ("queen", "as a chess queen"),
        _ => (
            "king",
            "as a chess king (the untouched original towers castle); can be captured",
        ),
    };
    let name = format!("{piece} ({height} {disks})");
    let words = format!("{moves}; {TOWER_WORDS}");
    Ok(match piece_letter(height) {
        // Forward is always towards the opponent; the double step from the second rank is
        // an initial move of that rank, whatever tower the disks came from.
        'P' => family::piece(&symbol, &name, "fmWfceFifmnD")?
            .pawn()
            .initial("pawn-start"),
        'K' => family::piece(&symbol, &name, "K")?.royal(),
        letter => family::piece(&symbol, &name, &letter.to_string())?,
    }
    .in_words(&words))
}

fn build_spec(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
    let tall = Tall::from_options(options);
    let geometry = family::chess_board(8, 8)
        .build()
        .map_err(family::board_error)?;
    let mut pieces = Vec::new();
    for height in 1..=tall.max_height() {
        pieces.push(tower_type(height)?);
    }
    // The castlings' king and rook are the kinds of symbols `K` and `R`: the 8- and 3-disk
    // towers, as the original towers must be.
    let builder = family::builder("makarenko", geometry, options).start(START_FEN);
    family::with(
        builder,
        pieces,
        family::corner_castlings(8, 8, 'e', 'g', 'c'),
    )
    .build()
}

/// The compiled ruleset for an option set (built once per setting).
fn spec(options: &RuleOptions) -> Result<&'static Spec<1>, SetupError> {
    cached::<MakarenkoPosition, Spec<1>, SpecError>(options, || build_spec(options))
        .map_err(|e| SetupError::Spec(e.clone()))
}

/// What a move does besides moving disks from one cell to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveShape {
    /// A whole-tower or split move: to an empty cell, capturing, or merging.
    Tower,
    /// An en passant capture: the double-stepped tower beside `from` is removed.
    EnPassant,
    /// Castling number `n` of the spec's list (the move is the king's).
    Castle(u8),
    /// A reserve disk placed on `to` (`from` is meaningless).
    Drop,
}

/// A Makarenko move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MakarenkoMove {
    /// Start cell (the king's for castling; equal to `to` for a reserve placement).
    pub from: Cell,
    /// Destination.
    pub to: Cell,
    /// Disks moved: they move as the piece of this height.
    pub disks: u8,
    /// Whether disks stay behind on `from` (a split move).
    pub split: bool,
    /// Castling, en passant, reserve placement.
    pub shape: MoveShape,
}

impl MakarenkoMove {
    fn tower(from: Cell, to: Cell, disks: u8, split: bool) -> Self {
        MakarenkoMove {
            from,
            to,
            disks,
            split,
            shape: MoveShape::Tower,
        }
    }
}

/// A Makarenko position.
#[derive(Clone, Debug)]
pub struct MakarenkoPosition {
    spec: &'static Spec<1>,
    tall: Tall,
    /// The towers, each as a piece whose kind is its height minus one (too many heights to keep
    /// sets by kind).
    board: Board<1, 2, 0>,
    /// Towers of king height, per player.
    kings: [CellSet<1>; 2],
    /// Reserve disks per player (`tall=reserve`).
    reserve: [u8; 2],
    /// A bit per castling of the spec's list.
    castling: u8,
    /// The cell an en passant capture may land on (empty set: none), and the tower it takes.
    ep_target: CellSet<1>,
    ep_victim: Cell,
}

/// The board as the attack tables see it when asking whether a player's towers could capture
/// as one piece (given by its smallest height): towers able to act as that piece, by a whole
/// move or a legal split, count as that piece; the others only block.
struct AsPiece<'a> {
    position: &'a MakarenkoPosition,
    by: Player,
    kind: Kind,
    able: CellSet<1>,
}

impl PieceBoard<1> for AsPiece<'_> {
    fn piece_at(&self, cell: Cell) -> Piece {
        let piece = self.position.board.piece_at(cell);
        if piece.is_none() || piece.player() != self.by {
            piece
        } else if self.able.contains(cell) {
            Piece::new(self.by, self.kind)
        } else {
            Piece::new(self.by, NO_KIND)
        }
    }

    fn cells_of_kind(&self, kind: Kind) -> CellSet<1> {
        if kind == self.kind {
            self.able
        } else {
            CellSet::EMPTY
        }
    }

    fn cells_of_player(&self, player: Player) -> CellSet<1> {
        self.position.board.of_player(player)
    }
}

impl MakarenkoPosition {
    /// The rule for towers over eight disks in force.
    pub fn tall(&self) -> Tall {
        self.tall
    }

    /// A cell by label (`e4`).
    pub fn cell(&self, label: &str) -> Option<Cell> {
        self.spec.cell(label)
    }

    /// The tower on `cell`: its owner and height, or `None` for an empty cell.
    pub fn tower_at(&self, cell: Cell) -> Option<(Player, u8)> {
        let p = self.board.piece_at(cell);
        p.is_some().then(|| (p.player(), p.kind() + 1))
    }

    /// Height of the tower on `cell` (0 if empty).
    /// What the evaluation counts a tower of `height` disks of `owner` as (0 for none): the
    /// tables' value of its piece, a king tower [`KING_TOWER`] unless it is `owner`'s only
    /// king (then the royal value: losing it loses the game).
    fn height_value(&self, owner: Player, height: u8) -> i32 {
        let Some(kind) = (height as usize).checked_sub(1) else {
            return 0;
        };
        let values = &self.spec.eval.values;
        let kind = kind.min(values.len() - 1);
        if self.spec.is_royal(kind as Kind) && self.kings[owner as usize].more_than_one() {
            KING_TOWER
        } else {
            values[kind]
        }
    }

    /// The value of the enemy tower on `cell` for the player to move (0 if none).
    fn captured_value(&self, cell: Cell) -> i32 {
        let piece = self.board.piece_at(cell);
        if piece.is_none() || piece.player() == self.board.turn() {
            0
        } else {
            self.height_value(piece.player(), piece.kind() + 1)
        }
    }

    fn height(&self, cell: Cell) -> u8 {
        let p = self.board.piece_at(cell);
        if p.is_none() { 0 } else { p.kind() + 1 }
    }

    /// How many king towers `player` owns.
    pub fn king_count(&self, player: Player) -> u32 {
        self.kings[player as usize].count()
    }

    /// Reserve disks of `player` (always 0 except under `tall=reserve`).
    pub fn reserve(&self, player: Player) -> u8 {
        self.reserve[player as usize]
    }

    /// Disks `player` has in play: on the board and in reserve.
    pub fn disks(&self, player: Player) -> u32 {
        self.board
            .of_player(player)
            .iter()
            .map(|c| self.height(c) as u32)
            .sum::<u32>()
            + self.reserve[player as usize] as u32
    }

    fn occupied(&self) -> CellSet<1> {
        self.board.occupied()
    }

    fn put(&mut self, cell: Cell, player: Player, height: u8) {
        let kind = height - 1;
        self.board
            .put(&self.spec.zobrist, cell, Piece::new(player, kind));
        if height >= KING_HEIGHT {
            self.kings[player as usize].insert(cell);
        }
    }

    fn take(&mut self, cell: Cell) -> (Player, u8) {
        let piece = self.board.take(&self.spec.zobrist, cell);
        let (player, kind) = (piece.player(), piece.kind());
        self.kings[player as usize].remove(cell);
        (player, kind + 1)
    }

    /// Makes `cell` hold `player`'s tower of `height` disks (empty for 0).
    fn set_tower(&mut self, cell: Cell, player: Player, height: u8) {
        if self.board.piece_at(cell).is_some() {
            self.take(cell);
        }
        if height > 0 {
            self.put(cell, player, height);
        }
    }

    fn set_reserve(&mut self, player: Player, count: u8) {
        let keys = &self.spec.zobrist;
        let old = self.reserve[player as usize];
        if old > 0 {
            self.board.toggle_hash(keys.hand(player, 0, old as usize));
        }
        if count > 0 {
            self.board.toggle_hash(keys.hand(player, 0, count as usize));
        }
        self.reserve[player as usize] = count;
    }

    fn set_castling(&mut self, rights: u8) {
        let mut changed = self.castling ^ rights;
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            self.board.toggle_hash(self.spec.zobrist.castling[i]);
            changed &= changed - 1;
        }
        self.castling = rights;
    }

    fn set_ep(&mut self, target: Option<(Cell, Cell)>) {
        for c in self.ep_target {
            self.board
                .toggle_hash(self.spec.zobrist.en_passant[c.index()]);
        }
        self.ep_target = CellSet::EMPTY;
        if let Some((target, victim)) = target {
            self.ep_target.insert(target);
            self.ep_victim = victim;
            self.board
                .toggle_hash(self.spec.zobrist.en_passant[target.index()]);
        }
    }

    /// The most disks `player` may split off a tower of `height` disks: all but one, except
    /// from a king tower, which may split only when its owner has another king (or, under
    /// `tall=king`, as far as the part left behind stays a king).
    fn max_split(&self, player: Player, height: u8) -> u8 {
        if height < KING_HEIGHT || self.kings[player as usize].more_than_one() {
            height - 1
        } else if self.tall == Tall::King {
            height - KING_HEIGHT
        } else {
            0
        }
    }

    /// The height of a tower of `moving` disks merged onto one of `standing` disks, or `None`
    /// if the merge is illegal (over eight disks under `tall=forbid`). Under `discard` and
    /// `reserve` the tower keeps eight disks.
    fn merged_height(&self, moving: u8, standing: u8) -> Option<u8> {
        let sum = moving + standing;
        match self.tall {
            Tall::Forbid => (sum <= LIMIT).then_some(sum),
            Tall::King => Some(sum),
            Tall::Discard | Tall::Reserve => Some(sum.min(LIMIT)),
        }
    }

    /// The sizes (1 or 2) of pawn-type parts the tower of `height` disks may send, as
    /// (disks, split) pairs.
    fn pawn_parts(&self, player: Player, height: u8) -> impl Iterator<Item = (u8, bool)> {
        let max_split = self.max_split(player, height);
        (1..=2u8).filter_map(move |k| {
            if k == height {
                Some((k, false))
            } else if k < height && k <= max_split {
                Some((k, true))
            } else {
                None
            }
        })
    }

    /// Whether the player to move has a legal en passant capture onto `target`.
    fn ep_usable(&self, target: Cell) -> bool {
        let us = self.board.turn();
        if self.kings[us as usize].is_empty() {
            // Only a king-creating move is legal, and an en passant capture creates none.
            return false;
        }
        self.board.of_player(us).iter().any(|from| {
            self.spec.moves.get(us, 0, from).ep_capture.contains(target)
                && self.pawn_parts(us, self.height(from)).next().is_some()
        })
    }

    /// The towers of `by` that could capture as the piece of smallest height `least`, by a
    /// whole-tower move or a legal split.
    fn able_as(&self, by: Player, least: u8) -> CellSet<1> {
        let letter = piece_letter(least);
        self.board
            .of_player(by)
            .iter()
            .filter(|&c| {
                let h = self.height(c);
                piece_letter(h) == letter || least <= self.max_split(by, h)
            })
            .collect()
    }

    /// Whether `by` attacks `cell`: some tower of `by` could capture there with a whole-tower
    /// move or a legal split (the rules' definition for castling, used for check too).
    pub fn attacked(&self, cell: Cell, by: Player) -> bool {
        let occupied = self.occupied();
        PIECE_HEIGHTS.iter().any(|&least| {
            let view = AsPiece {
                position: self,
                by,
                kind: least - 1,
                able: self.able_as(by, least),
            };
            view.able.any()
                && tables::attacked(
                    &self.spec.moves,
                    &self.spec.attacks,
                    &view,
                    cell,
                    by,
                    occupied,
                )
        })
    }

    fn castling_moves(&self, moves: &mut Vec<MakarenkoMove>) {
        let us = self.board.turn();
        let them = 1 - us;
        let occupied = self.occupied();
        for (i, c) in self.spec.castlings.iter().enumerate() {
            if self.castling & (1 << i) == 0 || c.player != us {
                continue;
            }
            if c.must_be_empty.intersects(occupied)
                || c.king_path.iter().any(|cell| self.attacked(cell, them))
            {
                continue;
            }
            moves.push(MakarenkoMove {
                from: c.king_from,
                to: c.king_to,
                disks: KING_HEIGHT,
                split: false,
                shape: MoveShape::Castle(i as u8),
            });
        }
    }

    fn generate(&self, moves: &mut Vec<MakarenkoMove>) {
        let us = self.board.turn();
        let kingless = self.kings[us as usize].is_empty();
        let occupied = self.occupied();
        let empty = self.spec.cells.without(occupied);
        let own = self.board.of_player(us);
        let enemy = self.board.of_player(1 - us);
        for from in own {
            let height = self.height(from);
            let max_split = self.max_split(us, height);
            for disks in (1..=max_split).chain(std::iter::once(height)) {
                let split = disks < height;
                // Everything occupied is a target: captures on enemy towers, merges on own.
                let (quiet, targets) =
                    self.spec
                        .moves
                        .reach(us, disks - 1, from, occupied, empty, occupied);
                // A player who lost his last king must make one: only merges can.
                if !kingless {
                    for to in quiet | (targets & enemy) {
                        moves.push(MakarenkoMove::tower(from, to, disks, split));
                    }
                }
                for to in targets & own {
                    if let Some(result) = self.merged_height(disks, self.height(to))
                        && (!kingless || result >= KING_HEIGHT)
                    {
                        moves.push(MakarenkoMove::tower(from, to, disks, split));
                    }
                }
            }
        }
        if !kingless {
            if let Some(target) = self.ep_target.first() {
                for from in own {
                    if self.spec.moves.get(us, 0, from).ep_capture.contains(target) {
                        for (disks, split) in self.pawn_parts(us, self.height(from)) {
                            moves.push(MakarenkoMove {
                                from,
                                to: target,
                                disks,
                                split,
                                shape: MoveShape::EnPassant,
                            });
                        }
                    }
                }
            }
            self.castling_moves(moves);
        }
        if self.reserve[us as usize] > 0 {
            let targets = if kingless {
                own.iter()
                    .filter(|&c| self.height(c) == KING_HEIGHT - 1)
                    .collect()
            } else {
                empty | own.iter().filter(|&c| self.height(c) < LIMIT).collect()
            };
            for to in targets {
                moves.push(MakarenkoMove {
                    from: to,
                    to,
                    disks: 1,
                    split: false,
                    shape: MoveShape::Drop,
                });
            }
        }
    }

    /// Whether `by` could capture on `cell` by trying every tower and every legal part
    /// size with the forward tables (the slow test the reference generator uses).
    fn attacked_slow(&self, cell: Cell, by: Player) -> bool {
        let occupied = self.occupied();
        self.board.of_player(by).iter().any(|from| {
            let height = self.height(from);
            let max_split = self.max_split(by, height);
            (1..=max_split).chain(std::iter::once(height)).any(|k| {
                self.spec
                    .moves
                    .capture_reach(by, k - 1, from, occupied)
                    .contains(cell)
            })
        })
    }

    /// Reads a Makarenko FEN under `options`; see the module documentation.
    pub fn from_fen(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        if fen.len() > MAX_FEN_LEN {
            return Err(FenError::TooLong(fen.len()).into());
        }
        let spec = spec(options)?;
        let tall = Tall::from_options(options);
        // Readers accept spaces inside the reserve brackets (`[W2 B0]`).
        let text: String = match fen.find('[') {
            Some(open) => match fen[open..].find(']') {
                Some(len) => {
                    let inside: String = fen[open..open + len]
                        .chars()
                        .filter(|c| !c.is_whitespace())
                        .collect();
                    format!("{}{inside}{}", &fen[..open], &fen[open + len..])
                }
                None => fen.to_string(),
            },
            None => fen.to_string(),
        };
        let mut fields = text.split_whitespace();
        let first = fields.next().ok_or(FenError::Empty)?;
        let (board, reserve) = match first.split_once('[') {
            Some((board, rest)) => {
                let inside = rest
                    .strip_suffix(']')
                    .filter(|_| tall == Tall::Reserve)
                    .ok_or_else(|| FenError::UnknownPiece(excerpt(rest)))?;
                (board, parse_reserve(inside)?)
            }
            None => (first, [0, 0]),
        };
        let pieces = parse_board(spec, board)?;
        let turn = read_turn(fields.next(), "w", "b")?;
        let mut rights_given = 0u8;
        if let Some(field) = fields.next()
            && field != "-"
        {
            for ch in field.chars() {
                let i = spec
                    .castlings
                    .iter()
                    .position(|c| c.symbol == ch)
                    .filter(|&i| rights_given & (1 << i) == 0)
                    .ok_or_else(|| FenError::Castling(excerpt(field)))?;
                rights_given |= 1 << i;
            }
        }
        let ep_given = match fields.next() {
            None | Some("-") => Vec::new(),
            Some(field) => parse_en_passant(spec, field)?,
        };
        let (quiet_plies, fullmove) = read_counters(&mut fields)?;
        no_more_fields(fields)?;

        let mut position = MakarenkoPosition {
            spec,
            tall,
            board: Board::empty(spec.zobrist.turn[0]),
            kings: [CellSet::EMPTY; 2],
            reserve: [0, 0],
            castling: 0,
            ep_target: CellSet::EMPTY,
            ep_victim: Cell(0),
        };
        position.board.quiet_plies = quiet_plies;
        position.board.fullmove = fullmove;
        for (cell, piece) in pieces {
            position.put(cell, piece.player(), piece.kind() + 1);
        }
        for player in 0..2u8 {
            position.set_reserve(player, reserve[player as usize]);
        }
        position.board.set_turn(&spec.zobrist, turn);
        let mut problems = Vec::new();
        for player in 0..2u8 {
            if position.disks(player) > DISKS_PER_SIDE as u32 {
                problems.push(SetupProblem::Other(format!(
                    "player {} has {} disks, more than the {DISKS_PER_SIDE} a side owns",
                    player + 1,
                    position.disks(player)
                )));
            }
        }
        // The player who has just moved must own a king at the end of his move.
        let them = 1 - turn;
        if position.kings[them as usize].is_empty() {
            problems.push(SetupProblem::MissingRoyal(them));
        }
        if !problems.is_empty() {
            return Err(SetupError::Invalid(problems));
        }
        let mut rights = 0u8;
        for (i, c) in spec.castlings.iter().enumerate() {
            let home = |cell: Cell, height: u8| position.tower_at(cell) == Some((c.player, height));
            if rights_given & (1 << i) != 0
                && home(c.king_from, KING_HEIGHT)
                && home(c.rook_from, 3)
            {
                rights |= 1 << i;
            }
        }
        position.set_castling(rights);
        // An en passant target counts only behind a tower that has just double-stepped and
        // when the player to move can take it; anything else is dropped.
        let g = &spec.geometry;
        let ahead: i32 = if them == 0 { 1 } else { -1 };
        for target in ep_given {
            let (x, y) = g.coords(target);
            let (Some(origin), Some(victim)) = (g.at(x, y - ahead), g.at(x, y + ahead)) else {
                continue;
            };
            let stepped = spec.skipped_cells(them, origin, victim) == CellSet::from_cell(target)
                && position.board.piece_at(target).is_none()
                && matches!(position.tower_at(victim), Some((p, 1..=2)) if p == them);
            if stepped && position.ep_usable(target) {
                position.set_ep(Some((target, victim)));
                break;
            }
        }
        Ok(position)
    }
}

/// Reads the inside of a reserve field: `W<n>B<n>`.
fn parse_reserve(text: &str) -> Result<[u8; 2], FenError> {
    let bad = || FenError::UnknownPiece(excerpt(text));
    let rest = text.strip_prefix('W').ok_or_else(bad)?;
    let (white, black) = rest.split_once('B').ok_or_else(bad)?;
    let count = |s: &str| {
        s.parse::<u8>()
            .ok()
            .filter(|&n| n <= DISKS_PER_SIDE && !s.is_empty() && s.len() <= 2)
            .ok_or_else(bad)
    };
    Ok([count(white)?, count(black)?])
}

impl Position for MakarenkoPosition {
    type Move = MakarenkoMove;

    fn side_to_move(&self) -> usize {
        self.board.turn() as usize
    }

    fn legal_moves(&self, moves: &mut Vec<MakarenkoMove>) {
        self.generate(moves);
    }

    /// Tries every part of every tower towards every cell its piece reaches, plays it on a
    /// copy and keeps it if the rules hold afterwards: the split rule for kings, the
    /// eight-disk limit under `tall=forbid`, and that the mover owns a king at the end of his
    /// move (which is also what makes a kingless player create one). Castling is tested
    /// with `MakarenkoPosition::attacked_slow`.
    fn reference_legal_moves(&self, moves: &mut Vec<MakarenkoMove>) {
        let us = self.board.turn();
        let occupied = self.occupied();
        let empty = self.spec.cells.without(occupied);
        let own = self.board.of_player(us);
        let mut candidates = Vec::new();
        for from in own {
            let height = self.height(from);
            for disks in 1..=height {
                let split = disks < height;
                let king_tower = height >= KING_HEIGHT;
                let other_king = (self.kings[us as usize].without(CellSet::from_cell(from))).any();
                let stays_king = self.tall == Tall::King && height - disks >= KING_HEIGHT;
                if split && king_tower && !other_king && !stays_king {
                    continue;
                }
                let (quiet, targets) =
                    self.spec
                        .moves
                        .reach(us, disks - 1, from, occupied, empty, occupied);
                for to in quiet | targets {
                    if own.contains(to)
                        && self.tall == Tall::Forbid
                        && disks + self.height(to) > LIMIT
                    {
                        continue;
                    }
                    candidates.push(MakarenkoMove::tower(from, to, disks, split));
                }
                if disks <= 2
                    && let Some(target) = self.ep_target.first()
                    && self
                        .spec
                        .moves
                        .get(us, disks - 1, from)
                        .ep_capture
                        .contains(target)
                {
                    candidates.push(MakarenkoMove {
                        from,
                        to: target,
                        disks,
                        split,
                        shape: MoveShape::EnPassant,
                    });
                }
            }
        }
        for (i, c) in self.spec.castlings.iter().enumerate() {
            if self.castling & (1 << i) != 0
                && c.player == us
                && !c.must_be_empty.intersects(occupied)
                && !c
                    .king_path
                    .iter()
                    .any(|cell| self.attacked_slow(cell, 1 - us))
            {
                candidates.push(MakarenkoMove {
                    from: c.king_from,
                    to: c.king_to,
                    disks: KING_HEIGHT,
                    split: false,
                    shape: MoveShape::Castle(i as u8),
                });
            }
        }
        if self.reserve[us as usize] > 0 {
            for to in self.spec.cells {
                let fits = match self.tower_at(to) {
                    None => true,
                    Some((p, h)) => p == us && h < LIMIT,
                };
                if fits {
                    candidates.push(MakarenkoMove {
                        from: to,
                        to,
                        disks: 1,
                        split: false,
                        shape: MoveShape::Drop,
                    });
                }
            }
        }
        for mv in candidates {
            let mut child = self.clone();
            child.play_unchecked(mv);
            if child.kings[us as usize].any() {
                moves.push(mv);
            }
        }
    }

    fn play_unchecked(&mut self, mv: MakarenkoMove) {
        let us = self.board.turn();
        let them = 1 - us;
        let mut progress = false;
        let mut double_step = None;
        let victim = self.ep_victim;
        self.set_ep(None);
        let loss = &self.spec.castlings.loss;
        let lost = (loss[mv.from.index()] | loss[mv.to.index()]) as u8;
        match mv.shape {
            MoveShape::Drop => {
                self.set_reserve(us, self.reserve[us as usize] - 1);
                let height = self.height(mv.to);
                self.set_tower(mv.to, us, height + 1);
            }
            MoveShape::Castle(i) => {
                let c = &self.spec.castlings[i as usize];
                let (king_from, king_to, rook_from, rook_to) =
                    (c.king_from, c.king_to, c.rook_from, c.rook_to);
                let (_, king) = self.take(king_from);
                let (_, rook) = self.take(rook_from);
                self.put(king_to, us, king);
                self.put(rook_to, us, rook);
            }
            MoveShape::Tower | MoveShape::EnPassant => {
                let height = self.height(mv.from);
                self.set_tower(mv.from, us, height - mv.disks);
                if mv.shape == MoveShape::EnPassant {
                    self.take(victim);
                    progress = true;
                }
                match self.tower_at(mv.to) {
                    None => self.put(mv.to, us, mv.disks),
                    Some((owner, _)) if owner == them => {
                        self.take(mv.to);
                        self.put(mv.to, us, mv.disks);
                        progress = true;
                    }
                    Some((_, standing)) => {
                        let sum = mv.disks + standing;
                        let kept = self.merged_height(mv.disks, standing).unwrap_or(sum);
                        if self.tall == Tall::Reserve && sum > kept {
                            self.set_reserve(us, self.reserve[us as usize] + (sum - kept));
                        }
                        self.set_tower(mv.to, us, kept);
                    }
                }
                if mv.disks <= 2 {
                    progress = true;
                    let skipped = self.spec.skipped_cells(us, mv.from, mv.to);
                    if let Some(target) = skipped.first()
                        && mv.shape == MoveShape::Tower
                    {
                        double_step = Some((target, mv.to));
                    }
                }
            }
        }
        self.set_castling(self.castling & !lost);
        self.board.quiet_plies = if progress {
            0
        } else {
            self.board.quiet_plies + 1
        };
        if us == 1 {
            self.board.fullmove += 1;
        }
        self.board.set_turn(&self.spec.zobrist, them);
        if let Some((target, landed)) = double_step
            && self.ep_usable(target)
        {
            self.set_ep(Some((target, landed)));
        }
    }

    /// Towers with their heights; each shows the piece its height makes. Reserve disks are
    /// a hand of `D`.
    fn scene(&self, _viewer: Viewer) -> Scene {
        let g = &self.spec.geometry;
        let mut board = scene::SceneBoard::new(scene::BoardShape::Fixed(g));
        board.men = g
            .cells()
            .filter_map(|cell| {
                self.tower_at(cell).map(|(player, height)| scene::SceneMan {
                    cell: g.label(cell).to_string(),
                    piece: tower_symbol(height),
                    owner: player as usize,
                    height: Some(u32::from(height)),
                })
            })
            .collect();
        if self.tall == Tall::Reserve {
            board.has_hands = true;
            for owner in 0..2 {
                if self.reserve[owner] > 0 {
                    board.hands.push(scene::SceneHand {
                        owner,
                        piece: "D".to_string(),
                        count: u32::from(self.reserve[owner]),
                    });
                }
            }
        }
        Scene::single(board)
    }

    /// The towers of every height the options allow, and the reserve disk where there is a
    /// reserve.
    fn legend(&self) -> chaturanga_rules::Legend {
        let mut legend = chaturanga_rules::Legend::of_pieces(self.spec.style, &self.spec.pieces);
        if self.tall == Tall::Reserve {
            // No diagram: a disk in reserve is placed, never moved. The towers have theirs:
            // whole, each moves as its piece, which is what a split-off part moves as too.
            legend.kinds.push(chaturanga_rules::KindLegend::new(
                "D",
                "disk (in reserve)",
                "placed as a turn on an empty cell (a new pawn) or on a friendly tower of 7 disks or fewer",
            ));
        }
        legend
    }

    /// A split names how many disks move; a reserve placement drops a disk.
    fn move_shape(&self, mv: MakarenkoMove) -> scene::MoveShape {
        let g = &self.spec.geometry;
        let drop = mv.shape == MoveShape::Drop;
        scene::MoveShape {
            from: (!drop).then(|| g.label(mv.from).to_string()),
            to: Some(g.label(mv.to).to_string()),
            drop: drop.then(|| "D".to_string()),
            split: mv.split.then_some(u32::from(mv.disks)),
            ..scene::MoveShape::default()
        }
    }

    fn diagram(&self) -> String {
        let board = board_text(&self.spec.geometry, |cell| {
            self.tower_at(cell).map(|(player, height)| {
                let symbol = tower_symbol(height);
                if player == 0 {
                    symbol
                } else {
                    symbol.to_ascii_lowercase()
                }
            })
        });
        let mut out = board;
        if self.tall == Tall::Reserve {
            out.push_str(&format!(
                "reserve: white {}, black {}\n",
                self.reserve[0], self.reserve[1]
            ));
        }
        out.push_str(&format!(
            "{} to move\n",
            self.player_name(self.board.turn() as usize)
        ));
        out
    }

    /// Towers by the value of the piece their height makes, placement from the spec's
    /// tables, and disks in reserve. A king tower counts [`KING_TOWER`], not the tables'
    /// royal value: a side may own several kings, and the last one's capture ends the game,
    /// which the search sees as a result. At the royal value, merging two towers into a
    /// second king would look like winning a queen and more, and every search would swing
    /// by that much between plies.
    fn evaluate(&self, player: usize) -> i32 {
        let tables = &self.spec.eval;
        let mut score = [Tapered::default(); 2];
        let mut phase = 0;
        for cell in self.occupied() {
            let piece = self.board.piece_at(cell);
            let side = piece.player();
            let kind = piece.kind();
            score[side as usize] += tables.square(side, kind, cell);
            if self.spec.is_royal(kind) {
                score[side as usize] -= Tapered::flat(tables.values[kind as usize] - KING_TOWER);
            }
            phase += tables.phase_weights[kind as usize];
        }
        let mut total = score[player];
        total -= score[1 - player];
        let reserve =
            (self.reserve[player] as i32 - self.reserve[1 - player] as i32) * tables.values[0];
        let tempo = if self.board.turn() as usize == player {
            10
        } else {
            -10
        };
        total.blend(phase, tables.full_phase) + reserve + tempo
    }

    /// A capture's gain is the material it changes, not only what it takes: a split leaves a
    /// different piece behind (one disk off a queen leaves a bishop) and a merge makes
    /// another piece of the two, so taking a pawn by splitting a queen loses material. Quiet
    /// moves count no gain, so quiescence stays with captures.
    fn move_value(&self, mv: MakarenkoMove) -> MoveValue {
        let mover = self.height_value(self.board.turn(), mv.disks);
        let captured = match mv.shape {
            MoveShape::Tower => self.captured_value(mv.to),
            MoveShape::EnPassant => self.captured_value(self.ep_victim),
            MoveShape::Castle(_) | MoveShape::Drop => 0,
        };
        if captured == 0 {
            return MoveValue { gain: 0, mover };
        }
        let us = self.board.turn();
        let height = self.height(mv.from);
        let before = self.height_value(us, height);
        let after = self.height_value(us, height - mv.disks) + mover;
        MoveValue {
            gain: captured + after - before,
            mover,
        }
    }

    /// A capture loses the exchange when the capturing piece is worth more than what it
    /// takes and the opponent can take back on that cell.
    fn exchange_loses(&self, mv: MakarenkoMove) -> bool {
        let target = match mv.shape {
            MoveShape::Tower => mv.to,
            MoveShape::EnPassant => self.ep_victim,
            MoveShape::Castle(_) | MoveShape::Drop => return false,
        };
        let captured = self.captured_value(target);
        captured > 0
            && self.height_value(self.board.turn(), mv.disks) > captured
            && self.attacked(mv.to, 1 - self.board.turn())
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn is_check(&self) -> bool {
        let us = self.board.turn();
        self.kings[us as usize]
            .iter()
            .any(|k| self.attacked(k, 1 - us))
    }

    /// Passing, for the search's null-move test: with many towers and no zugzwang in the
    /// opening and middle game, a side that passes and still stands above beta is far ahead.
    fn null_move(&self) -> Option<Self> {
        // Without a king the side to move must make one or lose: it cannot pass.
        if self.board.of_player(self.board.turn()).count() <= NULL_MOVE_MIN_TOWERS
            || self.kings[self.board.turn() as usize].is_empty()
            || self.must_answer_check()
        {
            return None;
        }
        let mut next = self.clone();
        next.set_ep(None);
        let them = 1 - self.board.turn();
        next.board.set_turn(&self.spec.zobrist, them);
        Some(next)
    }

    /// Only the last king's check must be answered: a spare king may be left to its fate.
    /// A player left without a king must answer too, by making one (his only legal moves, or
    /// the game is lost): a search must not stand pat there.
    fn must_answer_check(&self) -> bool {
        let kings = self.kings[self.board.turn() as usize];
        kings.is_empty() || (!kings.more_than_one() && self.is_check())
    }

    fn outcome_without_moves(&self) -> Outcome {
        let mover = self.board.turn() as usize;
        if self.kings[mover].is_empty() {
            Outcome::loss(2, mover, Reason::RoyalCaptured)
        } else {
            Outcome::draw(2, Reason::Stalemate)
        }
    }

    fn quiet_plies(&self) -> u32 {
        self.board.quiet_plies
    }

    fn draw_rules(&self) -> chaturanga_rules::DrawRules {
        self.spec.draw_rules
    }

    fn move_number(&self) -> u32 {
        self.board.fullmove
    }

    fn fen(&self) -> String {
        let g = &self.spec.geometry;
        let mut out = write_board(self.spec, |c| self.board.piece_at(c));
        if self.tall == Tall::Reserve {
            out.push_str(&format!("[W{}B{}]", self.reserve[0], self.reserve[1]));
        }
        out.push_str(if self.board.turn() == 0 { " w " } else { " b " });
        if self.castling == 0 {
            out.push('-');
        }
        for (i, c) in self.spec.castlings.iter().enumerate() {
            if self.castling & (1 << i) != 0 {
                out.push(c.symbol);
            }
        }
        out.push(' ');
        match self.ep_target.first() {
            Some(target) => out.push_str(g.label(target)),
            None => out.push('-'),
        }
        out.push_str(&format!(
            " {} {}",
            self.board.quiet_plies, self.board.fullmove
        ));
        out
    }

    fn move_text(&self, mv: MakarenkoMove) -> String {
        let g = &self.spec.geometry;
        match mv.shape {
            MoveShape::Drop => format!("D@{}", g.label(mv.to)),
            _ if mv.split => format!("{}{}/{}", g.label(mv.from), g.label(mv.to), mv.disks),
            _ => format!("{}{}", g.label(mv.from), g.label(mv.to)),
        }
    }

    fn parse_move(&self, text: &str) -> Result<MakarenkoMove, MoveError> {
        if !well_formed(self.spec, text) {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        let mut moves = Vec::new();
        self.generate(&mut moves);
        moves
            .into_iter()
            .find(|&m| self.move_text(m) == text)
            .ok_or_else(|| MoveError::Illegal(excerpt(text)))
    }
}

/// Whether `text` has the shape of a Makarenko move: `D@e4`, `d4f5`, or `d4f5/4`.
fn well_formed(spec: &Spec<1>, text: &str) -> bool {
    if text.is_empty() || text.len() > 12 || !text.is_ascii() {
        return false;
    }
    if let Some(cell) = text.strip_prefix("D@") {
        return spec.cell(cell).is_some();
    }
    let (cells, disks) = match text.split_once('/') {
        Some((cells, n)) => (cells, Some(n)),
        None => (text, None),
    };
    let disks_ok = disks
        .is_none_or(|n| !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit()));
    disks_ok && spec.geometry.cell_pair(cells).is_some()
}

impl Ruleset for MakarenkoPosition {
    const ID: &'static str = "makarenko";

    fn option_specs() -> &'static [OptionSpec] {
        &[TALL, family::FIDE_CLAIMS]
    }

    const START_FEN: Option<&'static str> = Some(START_FEN);

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        Self::from_fen(options, fen)
    }
}
