//! The kit every position type is built from: a hashed board of men and the fields every FEN
//! ends with.
//!
//! [`StandardPosition`](crate::standard::StandardPosition) and the own position types of the
//! variants crate (Congo, Taktika, Makarenko, three-player chess, the large shogis) keep their
//! men in a [`Board`]; those that read their own FEN read its side to move and counters with
//! [`read_turn`], [`read_counter`] and [`no_more_fields`], so that a new position type writes only
//! its rules.

use crate::geometry::{Cell, CellSet};
use crate::piece::{Kind, Piece, Player};
use crate::position::excerpt;
use crate::standard::FenError;
use crate::tables::PieceBoard;
use crate::zobrist::ZobristKeys;

/// The men of a position on a board of up to `64·W` cells for `P` players and `K` kinds, kept
/// three ways (per cell, by player, by kind), with the side to move, the two counters of a FEN and
/// the Zobrist hash of it all.
///
/// With `K = 0` it keeps no sets by kind: for positions whose kinds are too many to set apart
/// (Makarenko's tower heights); [`Board::of_kind`] is then empty.
///
/// The hash covers the men and the side to move; a position adds what else it hashes (castling
/// rights, en passant targets, hands) with [`Board::toggle_hash`], so the one number stays its
/// whole identity.
#[derive(Clone, Debug)]
pub struct Board<const W: usize, const P: usize, const K: usize> {
    cells: [[Piece; 64]; W],
    by_player: [CellSet<W>; P],
    by_kind: [CellSet<W>; K],
    turn: Player,
    /// Plies since the last move the ruleset counts as progress (capture, pawn move, …).
    pub quiet_plies: u32,
    /// The move number, as FEN counts it.
    pub fullmove: u32,
    hash: u64,
}

impl<const W: usize, const P: usize, const K: usize> Board<W, P, K> {
    /// An empty board, the first player to move, move 1; its hash is `hash` (a position type
    /// starts from the key of the first player's turn, or from zero if it hashes no turn).
    pub fn empty(hash: u64) -> Self {
        Board {
            cells: [[Piece::NONE; 64]; W],
            by_player: [CellSet::EMPTY; P],
            by_kind: [CellSet::EMPTY; K],
            turn: 0,
            quiet_plies: 0,
            fullmove: 1,
            hash,
        }
    }

    /// The man on `cell` ([`Piece::NONE`] if it is empty).
    #[inline(always)]
    pub fn piece_at(&self, cell: Cell) -> Piece {
        self.cells.as_flattened()[cell.index()]
    }

    /// The cells of `player`'s men.
    #[inline(always)]
    pub fn of_player(&self, player: Player) -> CellSet<W> {
        self.by_player[player as usize]
    }

    /// The cells of the men of `kind`, whoever owns them.
    #[inline(always)]
    pub fn of_kind(&self, kind: Kind) -> CellSet<W> {
        if K == 0 {
            return CellSet::EMPTY;
        }
        self.by_kind[kind as usize]
    }

    /// The cells of `player`'s men of `kind`.
    #[inline(always)]
    pub fn of(&self, player: Player, kind: Kind) -> CellSet<W> {
        self.by_player[player as usize] & self.of_kind(kind)
    }

    /// Every occupied cell.
    #[inline(always)]
    pub fn occupied(&self) -> CellSet<W> {
        let mut all = CellSet::EMPTY;
        for set in &self.by_player {
            all |= *set;
        }
        all
    }

    /// The player to move.
    #[inline(always)]
    pub fn turn(&self) -> Player {
        self.turn
    }

    /// The Zobrist hash of the men, the turn and whatever the position has added.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Puts `piece` on the empty `cell`.
    #[inline(always)]
    pub fn put(&mut self, keys: &ZobristKeys, cell: Cell, piece: Piece) {
        let (player, kind) = (piece.player(), piece.kind());
        self.cells.as_flattened_mut()[cell.index()] = piece;
        self.by_player[player as usize].insert(cell);
        if K > 0 {
            self.by_kind[kind as usize].insert(cell);
        }
        self.hash ^= keys.piece(player, kind, cell.index());
    }

    /// Takes the man off the occupied `cell` and returns it.
    #[inline(always)]
    pub fn take(&mut self, keys: &ZobristKeys, cell: Cell) -> Piece {
        let piece = self.piece_at(cell);
        let (player, kind) = (piece.player(), piece.kind());
        self.cells.as_flattened_mut()[cell.index()] = Piece::NONE;
        self.by_player[player as usize].remove(cell);
        if K > 0 {
            self.by_kind[kind as usize].remove(cell);
        }
        self.hash ^= keys.piece(player, kind, cell.index());
        piece
    }

    /// Hands the move to `player`.
    #[inline(always)]
    pub fn set_turn(&mut self, keys: &ZobristKeys, player: Player) {
        self.hash ^= keys.turn[self.turn as usize] ^ keys.turn[player as usize];
        self.turn = player;
    }

    /// Adds `key` to the hash, or takes it out if it is in (castling rights, en passant
    /// targets, hands: what the position hashes beyond the men and the turn).
    #[inline(always)]
    pub fn toggle_hash(&mut self, key: u64) {
        self.hash ^= key;
    }
}

impl<const W: usize, const P: usize, const K: usize> PieceBoard<W> for Board<W, P, K> {
    #[inline(always)]
    fn piece_at(&self, cell: Cell) -> Piece {
        Board::piece_at(self, cell)
    }
    #[inline(always)]
    fn cells_of_kind(&self, kind: Kind) -> CellSet<W> {
        self.of_kind(kind)
    }
    #[inline(always)]
    fn cells_of_player(&self, player: Player) -> CellSet<W> {
        self.of_player(player)
    }
}

/// Reads FEN's side-to-move field: `first` names the first player (`w` in FEN, `b` in SFEN)
/// and `second` the second; an absent field is the first player.
pub fn read_turn(field: Option<&str>, first: &str, second: &str) -> Result<Player, FenError> {
    match field {
        None => Ok(0),
        Some(t) if t == first => Ok(0),
        Some(t) if t == second => Ok(1),
        Some(t) => Err(FenError::Turn(excerpt(t))),
    }
}

/// Reads one of FEN's counters: `default` when the field is absent, an error above `max`.
pub fn read_counter(field: Option<&str>, default: u32, max: u32) -> Result<u32, FenError> {
    match field {
        None => Ok(default),
        Some(n) => n
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= max)
            .ok_or_else(|| FenError::Counter(excerpt(n))),
    }
}

/// Most plies without progress a FEN may claim.
pub const MAX_QUIET_PLIES: u32 = 100_000;

/// Highest move number a FEN may give.
pub const MAX_FULLMOVE: u32 = 1_000_000;

/// Reads FEN's last two fields, the plies without progress (default 0) and the move number
/// (default 1; 0 reads as 1).
pub fn read_counters<'a>(
    fields: &mut impl Iterator<Item = &'a str>,
) -> Result<(u32, u32), FenError> {
    let quiet_plies = read_counter(fields.next(), 0, MAX_QUIET_PLIES)?;
    let fullmove = read_counter(fields.next(), 1, MAX_FULLMOVE)?.max(1);
    Ok((quiet_plies, fullmove))
}

/// Refuses a FEN with fields after its last.
pub fn no_more_fields<'a>(mut fields: impl Iterator<Item = &'a str>) -> Result<(), FenError> {
    match fields.next() {
        Some(extra) => Err(FenError::TrailingFields(excerpt(extra))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> ZobristKeys {
        ZobristKeys::new(7, 2, 3, 64, 0)
    }

    #[test]
    fn putting_and_taking_a_man_restores_the_hash_and_the_sets() {
        let keys = keys();
        let mut board: Board<1, 2, 3> = Board::empty(keys.turn[0]);
        let start = board.hash();
        let knight = Piece::new(1, 2);
        board.put(&keys, Cell(10), knight);
        assert_ne!(board.hash(), start);
        assert_eq!(board.piece_at(Cell(10)), knight);
        assert!(board.of(1, 2).contains(Cell(10)));
        assert!(!board.of_player(0).contains(Cell(10)));
        assert_eq!(board.occupied().count(), 1);
        assert_eq!(board.take(&keys, Cell(10)), knight);
        assert_eq!(board.hash(), start);
        assert!(board.occupied().is_empty());
    }

    #[test]
    fn the_same_men_in_another_order_hash_the_same() {
        let keys = keys();
        let mut a: Board<1, 2, 3> = Board::empty(0);
        let mut b: Board<1, 2, 3> = Board::empty(0);
        a.put(&keys, Cell(1), Piece::new(0, 0));
        a.put(&keys, Cell(2), Piece::new(1, 1));
        b.put(&keys, Cell(2), Piece::new(1, 1));
        b.put(&keys, Cell(1), Piece::new(0, 0));
        assert_eq!(a.hash(), b.hash());
        a.set_turn(&keys, 1);
        assert_ne!(a.hash(), b.hash());
        assert_eq!(a.turn(), 1);
        a.set_turn(&keys, 0);
        assert_eq!(a.hash(), b.hash());
    }

    #[test]
    fn fen_fields_read_with_their_defaults_and_limits() {
        assert_eq!(read_turn(None, "w", "b"), Ok(0));
        assert_eq!(read_turn(Some("b"), "w", "b"), Ok(1));
        assert_eq!(read_turn(Some("b"), "b", "w"), Ok(0));
        assert_eq!(
            read_turn(Some("x"), "w", "b"),
            Err(FenError::Turn("x".into()))
        );
        let mut fields = "12 0".split_whitespace();
        assert_eq!(read_counters(&mut fields), Ok((12, 1)));
        let mut fields = "".split_whitespace();
        assert_eq!(read_counters(&mut fields), Ok((0, 1)));
        let mut fields = "1 99999999999".split_whitespace();
        assert!(matches!(
            read_counters(&mut fields),
            Err(FenError::Counter(_))
        ));
        assert_eq!(
            read_counter(Some("-3"), 0, 9),
            Err(FenError::Counter("-3".into()))
        );
        assert_eq!(no_more_fields("".split_whitespace()), Ok(()));
        let long = "x".repeat(100);
        assert_eq!(
            no_more_fields([long.as_str()].into_iter()),
            Err(FenError::TrailingFields("x".repeat(40)))
        );
    }
}
