//! Gess (`gess`): stones on an 18x18 area inside a 20x20 grid, moved as 3x3 footprints whose
//! stones give the directions and range; rings as kings; see `docs/rules/gess.md`.
//!
//! # Representation
//!
//! The board is the shared 20x20 [`Geometry`](chaturanga_geometry::Geometry) (labels `a1` to
//! `t20`, a `border` region for the outer ring of 76 cells), and FEN board text and Zobrist keys
//! come from a [`Spec`] with a single piece type, the stone `S`, which has no moves of its own.
//! Footprints are not pieces of the table kind (a piece is whatever stones a 3x3 block holds,
//! different for every centre), so the position keeps each player's stones as 20 row bit masks
//! (bit `x` of row `y`): a footprint is three 3-bit windows, a ring test is a few shifts per
//! row, and a move shifts a 9-bit pattern.
//!
//! Players: 0 is Black, who moves first and is written `s`; 1 is White, `S` (the rules file's
//! one exception to "upper case moves first", Decision 11). The shared FEN board reader gives
//! upper case to player 0, so the two are swapped when reading and writing.
//!
//! # Decisions where the rules file leaves a choice
//!
//! - **Rule option `movement`** (not in the rules file, which lists no options: issue 8 asks
//!   for standard Gess as an option). `seed` (default) is the file's step-by-step movement with
//!   the own-stone collision stop; `standard` is standard Gess as the file's Decision 4
//!   describes it: a piece stops at the first step where its footprint touches any other stone,
//!   and at the end every stone in the final footprint that is not the piece's, friend or foe,
//!   is removed.
//! - **Reason** for the ring rule's results: `royal-captured` (the ring is the royal piece).
//! - **Reading FENs**: stones on the border are refused; the side is `b` (Black) or `w`;
//!   missing trailing fields take `b 1`. The 100-move counter starts at 0 (the file: it is not
//!   part of the FEN).
//! - A position in which either player has no ring is decided (the player who has just moved
//!   loses if he has none, otherwise his opponent does), so it has no legal moves; this also
//!   covers such a position read from a FEN.

use crate::family;
use chaturanga_geometry::{Cell, GeometryBuilder};
use chaturanga_rules::PieceStyle;
use chaturanga_rules::board::{MAX_FULLMOVE, no_more_fields, read_counter, read_turn};
use chaturanga_rules::options::{OptionValues, cached};
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{self, Scene, Viewer};
use chaturanga_rules::standard::{
    FenError, MAX_FEN_LEN, SetupError, SetupProblem, Spec, SpecBuilder, SpecError, parse_board,
    write_board,
};
use chaturanga_rules::{
    DrawRules, MoveError, MoveValue, OptionSpec, Outcome, Piece, Player, Position, Reason,
    RuleOptions, Ruleset,
};

/// Files and ranks of the grid, border included.
const SIZE: usize = 20;
/// Bits of a row that are on the playing area (files b to s).
const INNER: u32 = ((1 << (SIZE - 1)) - 1) & !1;
/// Bit of a 3x3 pattern for the centre (bit `3 * (dy + 1) + (dx + 1)` for offset (dx, dy)).
const CENTRE: u16 = 1 << 4;
/// Range of a piece with an empty centre.
const SHORT_RANGE: usize = 3;
/// The start position.
pub const START_FEN: &str = "20/2s1s1ssssssss1s1s2/1sss1s1ssss1s1s1sss1/2s1s1ssssssss1s1s2/20/20/2s2s2s2s2s2s2/20/20/20/20/20/20/2S2S2S2S2S2S2/20/20/2S1S1SSSSSSSS1S1S2/1SSS1S1SSSS1S1S1SSS1/2S1S1SSSSSSSS1S1S2/20 b 1";

const MOVEMENT: OptionSpec = OptionSpec {
    name: "movement",
    values: OptionValues::Choice(&["seed", "standard"]),
    default: "seed",
    help: "seed: a piece stops before its own stones, which then stay (rules file); standard: it stops on touching any stone and removes every stone under its final footprint",
    label: "Movement",
    words: &[
        ("seed", "A piece stops before its own stones, which stay"),
        (
            "standard",
            "A piece stops on touching any stone and removes every stone under where it ends",
        ),
    ],
};

fn build_spec(options: &RuleOptions) -> Result<Spec<7>, SpecError> {
    let size = SIZE as i32;
    let border: Vec<(i32, i32)> = (0..size)
        .flat_map(|y| (0..size).map(move |x| (x, y)))
        .filter(|&(x, y)| x == 0 || y == 0 || x == size - 1 || y == size - 1)
        .collect();
    let geometry = GeometryBuilder::rectangle(size, size)
        .region("border", vec![border.clone(), border])
        .build()
        .map_err(family::board_error)?;
    // The row masks rely on cell (x, y) being number 20 * y + x.
    for y in 0..size {
        for x in 0..size {
            if geometry.at(x, y) != Some(Cell((y * size + x) as u16)) {
                return Err(SpecError::Size("gess: unexpected cell numbering".into()));
            }
        }
    }
    SpecBuilder::new("gess", geometry)
        .style(PieceStyle::Stones)
        .options(options.clone())
        .draw_rules(DrawRules {
            repetition: Some((3, Reason::ThreefoldRepetition)),
            repetition_claim: None,
            quiet_plies: Some((100, Reason::NoProgress)),
            quiet_plies_claim: None,
            ply_cap: None,
        })
        // A stone's movement is the footprint code's, so the legend says it in words. It has
        // no diagram: a stone alone never moves, and what a footprint does depends on which of
        // its nine cells hold stones, which no single picture of a man can show.
        .piece(family::piece("S", "stone", "")?.in_words(
            "moves only in a 3x3 footprint of own stones (no enemy stone): each outer stone opens its direction; a centre stone gives any distance, else 1-3 cells; a ring of 8 stones round an empty centre is a king",
        ))
        .start(START_FEN)
        .build()
}

/// The compiled ruleset for an option set (built once per setting).
fn spec(options: &RuleOptions) -> Result<&'static Spec<7>, SetupError> {
    cached::<GessPosition, Spec<7>, SpecError>(options, || build_spec(options))
        .map_err(|e| SetupError::Spec(e.clone()))
}

/// Centipawns per stone: the material of Gess.
const STONE: i32 = 100;
/// Value of each ring beyond the first (a spare king), counted up to two.
const SPARE_RING: i32 = 500;
/// Centipawns per move a side has (footprints that can move are pieces that play).
const MOBILITY: i32 = 2;
/// Bonus for having the move.
const TEMPO: i32 = 10;
/// Penalty when the opponent, to move, can break a side's only ring.
const LAST_RING_LOST: i32 = 3000;
/// Penalty when the side to move has its only ring attacked (it may still save it).
const LAST_RING_ATTACKED: i32 = 300;

/// What one side's moves reach from a position: the evaluation's view of its activity.
#[derive(Clone, Copy, Default, Debug)]
struct Reach {
    /// Number of moves.
    moves: u32,
    /// Moves whose footprint lands on an enemy ring.
    ring_hits: u32,
}

/// A Gess move: the footprint centre before and after.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GessMove {
    /// Centre of the footprint before the move.
    pub from: Cell,
    /// Centre after the move.
    pub to: Cell,
}

/// A Gess position.
#[derive(Clone, Debug)]
pub struct GessPosition {
    spec: &'static Spec<7>,
    /// Standard Gess movement (option `movement=standard`).
    standard: bool,
    /// Stones by player (0 Black, 1 White): bit `x` of row `y`.
    stones: [[u32; SIZE]; 2],
    /// Rings per player.
    rings: [u32; 2],
    turn: Player,
    /// Plies since a stone last left the board.
    quiet_plies: u32,
    fullmove: u32,
    hash: u64,
}

/// The 3x3 window of `rows` around (x, y), as a 9-bit pattern; (x, y) must not be on the
/// outer ring of the grid.
#[inline(always)]
fn window(rows: &[u32; SIZE], x: usize, y: usize) -> u16 {
    let s = x - 1;
    (((rows[y - 1] >> s) & 7) | (((rows[y] >> s) & 7) << 3) | (((rows[y + 1] >> s) & 7) << 6))
        as u16
}

/// Rows with the 3x3 block around (x, y) cleared.
#[inline(always)]
fn without_block(rows: &[u32; SIZE], x: usize, y: usize) -> [u32; SIZE] {
    let mut out = *rows;
    let mask = !(7u32 << (x - 1));
    out[y - 1] &= mask;
    out[y] &= mask;
    out[y + 1] &= mask;
    out
}

/// Whether (x, y) is on the playing area (b2-s19), where every footprint centre must be.
#[inline(always)]
fn inside(x: i32, y: i32) -> bool {
    (1..SIZE as i32 - 1).contains(&x) && (1..SIZE as i32 - 1).contains(&y)
}

impl GessPosition {
    /// A cell by label (`l18`).
    pub fn cell(&self, label: &str) -> Option<Cell> {
        self.spec.cell(label)
    }

    /// The owner of the stone on `cell` (0 Black, 1 White), if any.
    pub fn stone_at(&self, cell: Cell) -> Option<Player> {
        let (x, y) = (cell.index() % SIZE, cell.index() / SIZE);
        (0..2u8).find(|&p| self.stones[p as usize][y] >> x & 1 == 1)
    }

    /// Number of stones `player` has.
    pub fn stone_count(&self, player: Player) -> u32 {
        self.stones[player as usize]
            .iter()
            .map(|r| r.count_ones())
            .sum()
    }

    /// Number of rings `player` owns.
    pub fn ring_count(&self, player: Player) -> u32 {
        self.rings[player as usize]
    }

    /// The centres of `player`'s rings.
    pub fn ring_centres(&self, player: Player) -> Vec<Cell> {
        let mut out = Vec::new();
        for y in 1..SIZE - 1 {
            let mut row = self.ring_row(player, y);
            while row != 0 {
                let x = row.trailing_zeros() as usize;
                out.push(Cell((y * SIZE + x) as u16));
                row &= row - 1;
            }
        }
        out
    }

    /// Ring centres of `player` on row `y` (1..=18) as a bit mask: an empty cell whose eight
    /// neighbours all hold the player's stones.
    #[inline(always)]
    fn ring_row(&self, player: Player, y: usize) -> u32 {
        let s = &self.stones[player as usize];
        let full3 = |r: u32| r & (r << 1) & (r >> 1);
        let empty = !(self.stones[0][y] | self.stones[1][y]);
        full3(s[y - 1]) & full3(s[y + 1]) & (s[y] << 1) & (s[y] >> 1) & empty & INNER
    }

    fn count_rings(&self, player: Player) -> u32 {
        (1..SIZE - 1)
            .map(|y| self.ring_row(player, y).count_ones())
            .sum()
    }

    /// The result decided by the rings, if either player has none: the player who has just
    /// moved loses if he has no ring, otherwise his opponent does.
    fn ring_outcome(&self) -> Option<Outcome> {
        let mover = 1 - self.turn;
        if self.rings[mover as usize] == 0 {
            Some(Outcome::loss(2, mover as usize, Reason::RoyalCaptured))
        } else if self.rings[self.turn as usize] == 0 {
            Some(Outcome::loss(2, self.turn as usize, Reason::RoyalCaptured))
        } else {
            None
        }
    }

    /// Calls `found` with the (from, to) centre coordinates of every legal move.
    #[inline(always)]
    fn for_each_move(&self, found: impl FnMut(usize, usize, usize, usize)) {
        if self.ring_outcome().is_some() {
            return;
        }
        self.for_each_move_of(self.turn, found);
    }

    /// Calls `found` with the (from, to) centre coordinates of every move `side` would have
    /// if it were his turn.
    #[inline(always)]
    fn for_each_move_of(&self, side: Player, mut found: impl FnMut(usize, usize, usize, usize)) {
        let us = &self.stones[side as usize];
        let them = &self.stones[1 - side as usize];
        for y in 1..SIZE - 1 {
            // Centres whose footprint may hold one of our stones.
            let near = us[y - 1] | us[y] | us[y + 1];
            let mut candidates = (near | near << 1 | near >> 1) & INNER;
            while candidates != 0 {
                let x = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                let own = window(us, x, y);
                if own == 0 || window(them, x, y) != 0 {
                    continue;
                }
                let range = if own & CENTRE != 0 { SIZE } else { SHORT_RANGE };
                let rest = without_block(us, x, y);
                // The steps run row by row like the window's bits, which skip the centre's.
                for (i, &(dx, dy)) in family::KING_STEPS.iter().enumerate() {
                    let bit = if i < 4 { i } else { i + 1 };
                    if own & (1 << bit) == 0 {
                        continue;
                    }
                    for k in 1..=range as i32 {
                        let (nx, ny) = (x as i32 + k * dx, y as i32 + k * dy);
                        if !inside(nx, ny) {
                            break;
                        }
                        let (nx, ny) = (nx as usize, ny as usize);
                        let other_own = window(&rest, nx, ny);
                        let other_enemy = window(them, nx, ny);
                        // The seed's collision: a moved stone may not land on an own stone.
                        if !self.standard && other_own & own != 0 {
                            break;
                        }
                        found(x, y, nx, ny);
                        // Contact: the piece may stop here but go no further.
                        if other_own | other_enemy != 0 {
                            break;
                        }
                    }
                }
            }
        }
    }

    fn generate(&self, moves: &mut Vec<GessMove>) {
        self.for_each_move(|x, y, nx, ny| {
            moves.push(GessMove {
                from: Cell((y * SIZE + x) as u16),
                to: Cell((ny * SIZE + nx) as u16),
            })
        });
    }

    /// Rows of the centres where a footprint overlaps one of `player`'s rings (within two
    /// cells of a ring centre both ways): a piece landing there removes ring stones or fills
    /// the ring's centre, so the ring is gone.
    fn ring_zone(&self, player: Player) -> [u32; SIZE] {
        let mut zone = [0u32; SIZE];
        for y in 1..SIZE - 1 {
            let row = self.ring_row(player, y);
            if row == 0 {
                continue;
            }
            let wide = row | row << 1 | row >> 1 | row << 2 | row >> 2;
            for z in zone
                .iter_mut()
                .take((y + 3).min(SIZE))
                .skip(y.saturating_sub(2))
            {
                *z |= wide & INNER;
            }
        }
        zone
    }

    /// What `side`'s moves would do if it were his turn: see [`Reach`].
    fn reach(&self, side: Player) -> Reach {
        let zone = self.ring_zone(1 - side);
        let mut reach = Reach::default();
        self.for_each_move_of(side, |_, _, nx, ny| {
            reach.moves += 1;
            reach.ring_hits += zone[ny] >> nx & 1;
        });
        reach
    }

    /// One side's share of the evaluation, `to_move` saying whether it has the move. `own`
    /// is what its moves reach, `enemy` what the opponent's moves reach.
    fn side_score(&self, side: Player, to_move: bool, own: &Reach, enemy: &Reach) -> i32 {
        let rings = self.rings[side as usize] as i32;
        let mut score = self.stone_count(side) as i32 * STONE
            + (rings - 1).clamp(0, 2) * SPARE_RING
            + own.moves as i32 * MOBILITY;
        if to_move {
            score += TEMPO;
        }
        if enemy.ring_hits > 0 {
            score -= match (rings, to_move) {
                // The opponent breaks the last ring on his move: as good as lost.
                (1, false) => LAST_RING_LOST,
                // The last ring is attacked but there is a move to save it.
                (1, true) => LAST_RING_ATTACKED,
                // A spare ring will go.
                (_, false) => SPARE_RING,
                (_, true) => SPARE_RING / 4,
            };
        }
        score
    }

    fn recompute_hash(&self) -> u64 {
        let keys = &self.spec.zobrist;
        let mut hash = keys.turn[self.turn as usize];
        for p in 0..2u8 {
            for y in 0..SIZE {
                let mut row = self.stones[p as usize][y];
                while row != 0 {
                    let x = row.trailing_zeros() as usize;
                    row &= row - 1;
                    hash ^= keys.piece(p, 0, y * SIZE + x);
                }
            }
        }
        hash
    }

    /// Reads a Gess FEN: 20 ranks from rank 20 down (`s` Black, `S` White), the side to move
    /// (`b`/`w`) and the move number.
    pub fn from_fen(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        if fen.len() > MAX_FEN_LEN {
            return Err(FenError::TooLong(fen.len()).into());
        }
        let spec = spec(options)?;
        let mut fields = fen.split_whitespace();
        let board = parse_board(spec, fields.next().ok_or(FenError::Empty)?)?;
        let turn = read_turn(fields.next(), "b", "w")?;
        let fullmove = read_counter(fields.next(), 1, MAX_FULLMOVE)?.max(1);
        no_more_fields(fields)?;
        let mut stones = [[0u32; SIZE]; 2];
        let mut problems = Vec::new();
        for (cell, piece) in board {
            let (x, y) = (cell.index() % SIZE, cell.index() / SIZE);
            if !inside(x as i32, y as i32) {
                problems.push(SetupProblem::Other(format!(
                    "a stone on the border cell {}",
                    spec.geometry.label(cell)
                )));
                continue;
            }
            // The board reader gives upper case (White) to player 0; Black is player 0 here.
            stones[1 - piece.player() as usize][y] |= 1 << x;
        }
        if !problems.is_empty() {
            return Err(SetupError::Invalid(problems));
        }
        let mut position = GessPosition {
            spec,
            standard: options.get("movement") == Some("standard"),
            stones,
            rings: [0; 2],
            turn,
            quiet_plies: 0,
            fullmove,
            hash: 0,
        };
        position.rings = [position.count_rings(0), position.count_rings(1)];
        position.hash = position.recompute_hash();
        Ok(position)
    }
}

impl Position for GessPosition {
    type Move = GessMove;

    fn side_to_move(&self) -> usize {
        self.turn as usize
    }

    fn legal_moves(&self, moves: &mut Vec<GessMove>) {
        self.generate(moves);
    }

    fn count_legal_moves(&self) -> u64 {
        let mut n = 0;
        self.for_each_move(|_, _, _, _| n += 1);
        n
    }

    fn play_unchecked(&mut self, mv: GessMove) {
        let us = self.turn as usize;
        let them = 1 - us;
        let (x, y) = (mv.from.index() % SIZE, mv.from.index() / SIZE);
        let (nx, ny) = (mv.to.index() % SIZE, mv.to.index() / SIZE);
        let before = self.stones;
        let piece = window(&self.stones[us], x, y);
        let count =
            |s: &[[u32; SIZE]; 2]| -> u32 { s.iter().flatten().map(|r| r.count_ones()).sum() };
        let stones_before = count(&self.stones);
        // Lift the piece, clear the enemy stones (and, in standard Gess, our own) under the
        // final footprint, put the piece down shifted.
        self.stones[us] = without_block(&self.stones[us], x, y);
        self.stones[them] = without_block(&self.stones[them], nx, ny);
        if self.standard {
            self.stones[us] = without_block(&self.stones[us], nx, ny);
        }
        for j in 0..3 {
            let bits = (piece >> (3 * j)) as u32 & 7;
            self.stones[us][ny - 1 + j] |= bits << (nx - 1);
        }
        // Edge rule: stones on the border leave the game.
        for p in 0..2 {
            self.stones[p][0] = 0;
            self.stones[p][SIZE - 1] = 0;
            for row in self.stones[p].iter_mut() {
                *row &= INNER;
            }
        }
        let keys = &self.spec.zobrist;
        for (p, (old_rows, new_rows)) in before.iter().zip(&self.stones).enumerate() {
            for (yy, (old, new)) in old_rows.iter().zip(new_rows).enumerate() {
                let mut diff = old ^ new;
                while diff != 0 {
                    let xx = diff.trailing_zeros() as usize;
                    diff &= diff - 1;
                    self.hash ^= keys.piece(p as u8, 0, yy * SIZE + xx);
                }
            }
        }
        self.quiet_plies = if count(&self.stones) < stones_before {
            0
        } else {
            self.quiet_plies + 1
        };
        self.rings = [self.count_rings(0), self.count_rings(1)];
        if us == 1 {
            self.fullmove += 1;
        }
        self.hash ^= keys.turn[us] ^ keys.turn[them];
        self.turn = them as Player;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn is_check(&self) -> bool {
        false
    }

    fn outcome_without_moves(&self) -> Outcome {
        self.ring_outcome()
            .unwrap_or_else(|| Outcome::loss(2, self.turn as usize, Reason::NoLegalMoves))
    }

    fn decided_outcome(&self) -> Option<Outcome> {
        self.ring_outcome()
    }

    fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// Stones, spare rings and mobility, and the danger to rings that the opponent's
    /// footprints reach. Captures at hand are left to the quiescence search, which
    /// [`Position::move_value`] lets see them.
    fn evaluate(&self, player: usize) -> i32 {
        let reach = [self.reach(0), self.reach(1)];
        let score = |side: usize| {
            self.side_score(
                side as Player,
                self.turn as usize == side,
                &reach[side],
                &reach[1 - side],
            )
        };
        score(player) - score(1 - player)
    }

    /// Passing, for the search's null-move test (Gess has no zugzwang to speak of while
    /// both sides have rings and pieces to move).
    fn null_move(&self) -> Option<Self> {
        if self.ring_outcome().is_some() {
            return None;
        }
        let mut next = self.clone();
        let keys = &self.spec.zobrist;
        let (us, them) = (self.turn as usize, 1 - self.turn as usize);
        next.hash ^= keys.turn[us] ^ keys.turn[them];
        next.turn = them as Player;
        Some(next)
    }

    /// For quiescence: a capture that takes fewer stones than its piece holds is assumed to
    /// lose the piece back. Nearly every move that touches the enemy captures something, so
    /// without this the capture search of a Gess middle game does not end; the full-width
    /// search still tries these moves.
    fn exchange_loses(&self, mv: GessMove) -> bool {
        let value = self.move_value(mv);
        value.gain > 0 && value.gain < value.mover
    }

    /// Enemy stones removed from under the final footprint (and a broken ring) are the gain;
    /// the piece's own stones are what it risks.
    fn move_value(&self, mv: GessMove) -> MoveValue {
        let us = self.turn as usize;
        let (x, y) = (mv.from.index() % SIZE, mv.from.index() / SIZE);
        let (nx, ny) = (mv.to.index() % SIZE, mv.to.index() / SIZE);
        let taken = window(&self.stones[1 - us], nx, ny).count_ones() as i32;
        let near = (0x1Fu32 << nx) >> 2;
        let breaks_ring = (ny.saturating_sub(2)..(ny + 3).min(SIZE - 1))
            .filter(|&row| row >= 1)
            .any(|row| self.ring_row(1 - us as Player, row) & near != 0);
        MoveValue {
            gain: taken * STONE + if breaks_ring { SPARE_RING } else { 0 },
            mover: window(&self.stones[us], x, y).count_ones() as i32 * STONE,
        }
    }

    fn draw_rules(&self) -> DrawRules {
        self.spec.draw_rules
    }

    fn move_number(&self) -> u32 {
        self.fullmove
    }

    fn fen(&self) -> String {
        let board = write_board(self.spec, |c| match self.stone_at(c) {
            // Upper case (the board writer's player 0) is White, player 1 here.
            Some(p) => Piece::new(1 - p, 0),
            None => Piece::NONE,
        });
        format!(
            "{board} {} {}",
            if self.turn == 0 { 'b' } else { 'w' },
            self.fullmove
        )
    }

    /// Stones are `S`, owned by the player (0 = Black, who moves first). White's stones
    /// start on the low ranks: White sits at the bottom of the drawing.
    fn scene(&self, _viewer: Viewer) -> Scene {
        let g = &self.spec.geometry;
        let mut board = scene::board_scene(
            g,
            g.cells().filter_map(|cell| {
                self.stone_at(cell)
                    .map(|p| (cell, "S".to_string(), p as usize))
            }),
        );
        board.bottom = Some(1);
        Scene::single(board)
    }

    /// Black (player 0) moves first, as the FEN's side field says (`b`).
    fn player_name(&self, player: usize) -> &'static str {
        ["black", "white"].get(player).copied().unwrap_or("player")
    }

    fn legend(&self) -> chaturanga_rules::Legend {
        chaturanga_rules::Legend::of_pieces(self.spec.style, &self.spec.pieces)
    }

    /// A move picks the footprint's centre and the centre's destination; the footprint is
    /// its area.
    fn move_shape(&self, mv: GessMove) -> scene::MoveShape {
        let g = &self.spec.geometry;
        let (x, y) = g.coords(mv.from);
        let area = (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| (x + dx, y + dy)))
            .filter_map(|(x, y)| g.at(x, y))
            .map(|cell| g.label(cell).to_string())
            .collect();
        scene::MoveShape {
            from: Some(g.label(mv.from).to_string()),
            to: Some(g.label(mv.to).to_string()),
            area,
            ..scene::MoveShape::default()
        }
    }

    fn move_text(&self, mv: GessMove) -> String {
        let g = &self.spec.geometry;
        format!("{}{}", g.label(mv.from), g.label(mv.to))
    }

    fn parse_move(&self, text: &str) -> Result<GessMove, MoveError> {
        if text.is_empty() || text.len() > 8 || !text.is_ascii() {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        // Scenario prose writes `c18-c16`; accept the hyphen.
        let compact: String = text.chars().filter(|&c| c != '-').collect();
        let Some((from, to)) = self.spec.geometry.cell_pair(&compact) else {
            return Err(MoveError::Malformed(excerpt(text)));
        };
        let mut moves = Vec::new();
        self.generate(&mut moves);
        moves
            .into_iter()
            .find(|m| m.from == from && m.to == to)
            .ok_or_else(|| MoveError::Illegal(excerpt(text)))
    }
}

impl Ruleset for GessPosition {
    const ID: &'static str = "gess";

    fn option_specs() -> &'static [OptionSpec] {
        &[MOVEMENT]
    }

    const START_FEN: Option<&'static str> = Some(START_FEN);

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        Self::from_fen(options, fen)
    }
}
