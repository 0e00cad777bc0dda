//! Chex (`chex`): the chess men as tiles on a board without fixed size; each turn a player
//! places a man drawn from his face-down stack next to the group or makes a chess move that
//! keeps every man connected; capturing the king wins; see `docs/rules/chex.md`.
//!
//! # Representation
//!
//! The board has no fixed cells, so men are kept at absolute integer coordinates (the first man
//! of the game at (0, 0)), at most 32 of them. Everything that names cells is derived from the
//! frame, the men's bounding box widened by one empty cell: files `a`..`z`, `aa`, `ab`, ...
//! from its left, ranks from 1 at its bottom, recomputed after every turn. Absolute coordinates
//! are what stays stable as the board grows: moves are stored with them, repetition and
//! hashing use them, and the FEN records the frame's origin. The geometry core's fixed cell
//! numbering does not fit a board that moves, so this position has no `Geometry`; its hash
//! keys are computed from the coordinates with the same SplitMix64 generator the core's
//! Zobrist tables use.
//!
//! # Draws from the stack
//!
//! A position read from a FEN knows only which men each stack holds (the FEN carries the
//! unordered multiset), so its placements include the draw: `N@b2` for every distinct letter
//! still in the mover's stack (the rules file, "Moves and perft from a FEN"). A live game
//! starts from [`ChexPosition::live`] with a seed (or the rule option `draw-seed`, which the
//! front ends pass on): each stack is shuffled from that seed (reproducible, recorded by the
//! seed), a placement turn is a `draw` move that reveals the top tile (the same player stays to
//! move) followed by a placement of that man only, and a king that cannot be placed on an
//! unattacked cell ends the game in a draw.
//!
//! The seed is a [`SeedValue`]. A key (256 bits, what the game server draws from the operating
//! system) keys ChaCha20, whose output does not give the key away. A number (32 bits) seeds
//! SplitMix64, as every game did before keys: games stored with a number replay as they were
//! played, but a player who sees a few draws can try every number, so nothing new should
//! draw one where the order must stay hidden.
//!
//! # What a player knows of a live game
//!
//! The draw order is hidden from both players (the rules file: "the order is hidden from both
//! players"), their own stacks included; everything else is public: the board, each stack's
//! contents (each side starts with the same sixteen men, so what is left follows from what
//! was placed) and a drawn man, which is face up until it is placed. So the view
//! ([`Position::player_view`]) is the same text for both players: the FEN and the drawn man.
//! [`Position::determinize`] builds a live position from it whose undrawn tiles are in a
//! random order, so the engine searches guesses of the order, never the true one.
//!
//! # Decisions where the rules file leaves a choice
//!
//! - The reason given for "no legal turn" and for an unplaceable king is `no-legal-moves`
//!   (both draws); a captured king gives `royal-captured`.
//! - FEN reading refuses men that are not all connected (they never arise in play), more men of
//!   a kind than a side owns (board and stack together), frames over 128 cells wide or high,
//!   coordinates beyond +-1,000,000, and an origin that is given for an empty board or missing
//!   for a non-empty one.
//! - Fifty-move rule: 100 plies without a capture, a pawn move or a placement (the file); the
//!   draw move of a live game does not count as a ply.
//! - The draw move is written `draw`.
//! - A drawn man waiting to be placed is part of the hash (the position after the draw differs
//!   from the one before it, whose FEN is the same).
//! - `draw-seed=N` read with a FEN shuffles the men its stacks hold; `draw-seed=0`, the
//!   default, keeps the FEN's rule that a placement names its man (`ChexPosition::live(0)`
//!   is a live game like any other number's).

use crate::family::KING_STEPS;
use chacha20::ChaCha20Rng;
use chacha20::rand_core::{Rng, SeedableRng};
use chaturanga_geometry::{Geometry, GeometryBuilder};
use chaturanga_rules::board::{no_more_fields, read_counters, read_turn};
use chaturanga_rules::legend::MoveDiagram;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{self, BoardShape, Scene, SceneBoard, SceneHand, SceneMan, Viewer};
use chaturanga_rules::standard::{FenError, MAX_FEN_LEN, SetupError, SetupProblem};
use chaturanga_rules::zobrist::SplitMix64;
use chaturanga_rules::{
    DrawRules, MoveValue, OptionSpec, OptionValues, Outcome, Piece, Player, Position, Reason,
    RuleOptions, Ruleset, SeedValue, ViewError,
};

/// Kinds, in the FEN's stack order.
pub const KING: u8 = 0;
const QUEEN: u8 = 1;
const ROOK: u8 = 2;
const BISHOP: u8 = 3;
const KNIGHT: u8 = 4;
const PAWN: u8 = 5;
const LETTERS: [char; 6] = ['K', 'Q', 'R', 'B', 'N', 'P'];
/// Name, movement and the Betza its diagram is drawn from, of each kind, for the legend (the
/// moves are code, not tables: the board has no fixed cells, but on it the men move as these
/// say).
const LEGEND: [(&str, &str, &str); 6] = [
    (
        "king",
        "one step in any direction; not royal in the check sense, but losing it loses",
        "K",
    ),
    ("queen", "any distance along a rank, file or diagonal", "Q"),
    ("rook", "any distance along a rank or file", "R"),
    ("bishop", "any distance diagonally", "B"),
    ("knight", "leaps as a chess knight", "N"),
    (
        "pawn",
        "one cell forward to an empty cell, captures one cell diagonally forward; no double step, no promotion",
        "fmWfcF",
    ),
];
/// Men of each kind a side owns.
const FULL: [u8; 6] = [1, 1, 2, 2, 2, 8];
/// Most men on the board.
const MAX_MEN: usize = 32;
/// Largest frame side a FEN may describe.
const MAX_FRAME: usize = 128;
/// Largest absolute coordinate a FEN may give.
const MAX_COORD: i32 = 1_000_000;

const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The start position: an empty board, full stacks, White to move.
pub const START_FEN: &str = "- [KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - 0 1";

/// The rule options: the seed of a live game's draws.
const OPTIONS: &[OptionSpec] = &[OptionSpec {
    name: "draw-seed",
    values: OptionValues::Seed,
    default: "0",
    help: "a live game: each stack shuffled from this seed, 64 hex digits (a ChaCha20 key, \
           what the game server draws) or a number (SplitMix64, games stored before keys); a \
           placement turn is `draw` and the revealed man's placement (0: no draw order, a \
           placement names its man)",
    label: "Draw seed",
    words: &[("*", "The seed the stacks are shuffled from")],
}];

/// What a Chex move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChexAction {
    /// A chess move of the man on `from` to `to` (capturing there if an enemy stands there).
    Board,
    /// A man of this kind placed on `to` (from a FEN: the draw is part of the move).
    Place(u8),
    /// A live game's draw of the top tile of the mover's stack; a placement of it follows.
    Draw,
}

/// A Chex move, in absolute coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChexMove {
    /// What the move does.
    pub action: ChexAction,
    /// Start cell of a board move.
    pub from: (i32, i32),
    /// Destination of a board move or placement.
    pub to: (i32, i32),
}

/// The frame: the men's bounding box widened by one cell (origin = its a1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Absolute coordinates of the frame's a1.
    pub x0: i32,
    /// Absolute coordinates of the frame's a1.
    pub y0: i32,
    /// Files.
    pub width: i32,
    /// Ranks.
    pub height: i32,
}

impl Frame {
    fn contains(&self, (x, y): (i32, i32)) -> bool {
        x >= self.x0 && y >= self.y0 && x < self.x0 + self.width && y < self.y0 + self.height
    }

    /// The display name of an absolute cell in this frame (`b2`, `aa10`).
    pub fn label(&self, (x, y): (i32, i32)) -> String {
        format!("{}{}", file_name((x - self.x0) as u32), y - self.y0 + 1)
    }
}

/// The cells of `frame` as a square board with its labels; a cell's colour follows its
/// absolute coordinates, so it keeps its colour when the frame grows.
fn frame_geometry(frame: Frame) -> std::sync::Arc<Geometry> {
    let Frame { x0, y0, .. } = frame;
    let geometry = GeometryBuilder::rectangle(frame.width, frame.height)
        .labels(move |x, y| frame.label((x0 + x, y0 + y)))
        .colours(move |x, y| ((x0 + x + y0 + y) & 1) as u8)
        .build()
        .expect("a rectangle of distinct labels");
    std::sync::Arc::new(geometry)
}

/// Files `a`..`z`, `aa`, `ab`, ... (bijective base 26) for 0-based index `i`.
fn file_name(mut i: u32) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'a' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).expect("ascii")
}

/// A Chex position.
#[derive(Clone, Debug)]
pub struct ChexPosition {
    men: [((i32, i32), Piece); MAX_MEN],
    count: usize,
    /// Unplaced men per player and kind.
    stacks: [[u8; 6]; 2],
    /// A live game's draw order per player (kinds, top first) and how many were drawn.
    order: Option<[[u8; 16]; 2]>,
    drawn_count: [u8; 2],
    /// The tile a live game's draw revealed, to be placed now.
    drawn: Option<u8>,
    seed: Option<SeedValue>,
    turn: Player,
    quiet_plies: u32,
    fullmove: u32,
    hash: u64,
}

/// A number in `0..n` (`n > 0`), every one equally likely: multiplying alone (SplitMix64's
/// `below`) favours some by up to `n` in 2^64, which a keyed order has no reason to allow.
fn uniform_below(rng: &mut ChaCha20Rng, n: u64) -> u64 {
    // Products whose low half falls under 2^64 mod n are the surplus that would favour the
    // small results; drawing again instead leaves exactly as many products for each.
    let surplus = n.wrapping_neg() % n;
    loop {
        let product = u128::from(rng.next_u64()) * u128::from(n);
        if product as u64 >= surplus {
            return (product >> 64) as u64;
        }
    }
}

fn mix(key: u64) -> u64 {
    SplitMix64::new(key ^ 0xC4E7_0000_0000_0001).next_u64()
}

fn man_key((x, y): (i32, i32), piece: Piece) -> u64 {
    let cx = (x as i64 as u64) & 0xFF_FFFF;
    let cy = (y as i64 as u64) & 0xFF_FFFF;
    mix(cx | cy << 24 | (piece.player() as u64) << 48 | (piece.kind() as u64) << 50)
}

fn stack_key(player: Player, kind: u8, count: u8) -> u64 {
    mix(1 << 60 | (player as u64) << 16 | (kind as u64) << 8 | count as u64)
}

fn turn_key(player: Player) -> u64 {
    mix(2 << 60 | player as u64)
}

fn drawn_key(kind: u8) -> u64 {
    mix(3 << 60 | kind as u64)
}

impl ChexPosition {
    /// The men on the board: absolute cell and piece (kind `0..6` = K Q R B N P).
    pub fn men(&self) -> &[((i32, i32), Piece)] {
        &self.men[..self.count]
    }

    /// Unplaced men of `player` of each kind (K Q R B N P).
    pub fn stack(&self, player: Player) -> [u8; 6] {
        self.stacks[player as usize]
    }

    /// The seed of a live game's draws; `None` without a draw order and for a position
    /// drawn from a view (whose order came from the sampler's generator).
    pub fn draw_seed(&self) -> Option<SeedValue> {
        self.seed
    }

    /// The men a live game's `player` has still to draw, top first (`None` without a draw
    /// order): the arbiter's knowledge, which no player may see.
    pub fn undrawn(&self, player: Player) -> Option<String> {
        let order = self.order?;
        let p = usize::from(player);
        let drawn_count = usize::from(*self.drawn_count.get(p)?);
        // The stack counts a drawn man until he is placed.
        let pending = usize::from(self.drawn.is_some() && self.turn == player);
        let left = self.stacks[p]
            .iter()
            .map(|&n| usize::from(n))
            .sum::<usize>()
            - pending;
        Some(
            order[p][drawn_count..drawn_count + left]
                .iter()
                .map(|&k| LETTERS[k as usize])
                .collect(),
        )
    }

    /// The tile a live game's draw has revealed and that must be placed now.
    pub fn drawn(&self) -> Option<char> {
        self.drawn.map(|k| LETTERS[k as usize])
    }

    /// The man on an absolute cell.
    pub fn man_at(&self, cell: (i32, i32)) -> Option<Piece> {
        self.men().iter().find(|(c, _)| *c == cell).map(|&(_, p)| p)
    }

    /// The frame moves are named in: the men's frame, or before the first placement the
    /// 3x3 frame round the first man's cell.
    fn display_frame(&self) -> Frame {
        self.frame().unwrap_or(Frame {
            x0: -1,
            y0: -1,
            width: 3,
            height: 3,
        })
    }

    /// The frame (bounding box plus one cell), or `None` on an empty board.
    pub fn frame(&self) -> Option<Frame> {
        let men = self.men();
        let first = men.first()?.0;
        let (mut x0, mut y0, mut x1, mut y1) = (first.0, first.1, first.0, first.1);
        for &((x, y), _) in men {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        Some(Frame {
            x0: x0 - 1,
            y0: y0 - 1,
            width: x1 - x0 + 3,
            height: y1 - y0 + 3,
        })
    }

    /// The absolute cell of a display name in the current frame.
    pub fn cell(&self, label: &str) -> Option<(i32, i32)> {
        let frame = self.frame()?;
        parse_label(label).map(|(f, r)| (frame.x0 + f, frame.y0 + r))
    }

    /// A live game from the empty board: each stack shuffled by a generator seeded with
    /// `seed` (the same seed gives the same draws).
    pub fn live(seed: impl Into<SeedValue>) -> Self {
        Self::from_fen(START_FEN)
            .expect("the start FEN is valid")
            .with_draw_order(seed)
    }

    /// This position as a live game: the men left in each stack (less a drawn man waiting to
    /// be placed, who stays on top) shuffled by a generator seeded with `seed`. From the start
    /// position this is [`ChexPosition::live`].
    pub fn with_draw_order(mut self, seed: impl Into<SeedValue>) -> Self {
        let seed = seed.into();
        match seed {
            SeedValue::Number(n) => {
                let mut rng = SplitMix64::new(u64::from(n));
                self.shuffle_undrawn(|n| rng.below(n));
            }
            SeedValue::Key(key) => {
                let mut rng = ChaCha20Rng::from_seed(key);
                self.shuffle_undrawn(|n| uniform_below(&mut rng, n));
            }
        }
        self.seed = Some(seed);
        self
    }

    /// Deals every player's undrawn tiles in a random order (the drawn man, if any, stays the
    /// one drawn); `below(n)` gives a number in `0..n`.
    fn shuffle_undrawn(&mut self, mut below: impl FnMut(u64) -> u64) {
        let mut order = [[0u8; 16]; 2];
        let mut drawn_count = [0u8; 2];
        for (player, tiles) in order.iter_mut().enumerate() {
            let mut left = self.stacks[player];
            let mut n = 0;
            if let Some(kind) = self.drawn.filter(|_| self.turn as usize == player) {
                // The stack still counts the drawn man until he is placed.
                tiles[0] = kind;
                left[kind as usize] -= 1;
                drawn_count[player] = 1;
                n = 1;
            }
            let first = n;
            for kind in 0..6u8 {
                for _ in 0..left[kind as usize] {
                    tiles[n] = kind;
                    n += 1;
                }
            }
            // Fisher-Yates.
            let undrawn = &mut tiles[first..n];
            for i in (1..undrawn.len()).rev() {
                let j = below(i as u64 + 1) as usize;
                undrawn.swap(i, j);
            }
        }
        self.order = Some(order);
        self.drawn_count = drawn_count;
        self.seed = None;
    }

    /// Sets the man drawn and waiting to be placed, keeping the hash.
    fn set_drawn(&mut self, kind: Option<u8>) {
        if let Some(old) = self.drawn {
            self.hash ^= drawn_key(old);
        }
        if let Some(new) = kind {
            self.hash ^= drawn_key(new);
        }
        self.drawn = kind;
    }

    /// A live position from a view's text (see [`Position::player_view`]): the FEN line and
    /// the `drawn` line, the undrawn tiles in an order from `rng`.
    fn from_view(view: &str, rng: &mut SplitMix64) -> Result<Self, ViewError> {
        let mut lines = view.lines();
        let fen = lines
            .next()
            .ok_or_else(|| ViewError::Malformed("empty".to_string()))?;
        let mut position = Self::from_fen(fen).map_err(|e| ViewError::Malformed(e.to_string()))?;
        let drawn = lines
            .next()
            .and_then(|line| line.strip_prefix("drawn "))
            .ok_or_else(|| ViewError::Malformed("no `drawn` line".to_string()))?;
        if let Some(extra) = lines.next() {
            return Err(ViewError::Malformed(excerpt(extra)));
        }
        let drawn = match drawn {
            "-" => None,
            letter => Some(
                LETTERS
                    .iter()
                    .position(|&l| letter.len() == 1 && letter.starts_with(l))
                    .ok_or_else(|| ViewError::Malformed(format!("drawn {}", excerpt(letter))))?
                    as u8,
            ),
        };
        if let Some(kind) = drawn {
            if position.stacks[position.turn as usize][kind as usize] == 0 {
                return Err(ViewError::NoFit(format!(
                    "the drawn {} is not in the stack",
                    LETTERS[kind as usize]
                )));
            }
            position.set_drawn(Some(kind));
        }
        position.shuffle_undrawn(|n| rng.below(n));
        Ok(position)
    }

    fn king_gone(&self, player: Player) -> bool {
        self.stacks[player as usize][KING as usize] == 0
            && !self
                .men()
                .iter()
                .any(|&(_, p)| p.player() == player && p.kind() == KING)
    }

    /// Whether `by` attacks `cell` by movement pattern alone (connectivity ignored).
    pub fn attacked(&self, cell: (i32, i32), by: Player) -> bool {
        self.men().iter().any(|&((x, y), p)| {
            if p.player() != by {
                return false;
            }
            let (dx, dy) = (cell.0 - x, cell.1 - y);
            let line = |dirs: &[(i32, i32)]| {
                dirs.iter().any(|&(ux, uy)| {
                    let n = if ux != 0 { dx / ux } else { dy / uy };
                    n > 0
                        && (ux * n, uy * n) == (dx, dy)
                        && (1..n).all(|k| self.man_at((x + ux * k, y + uy * k)).is_none())
                })
            };
            match p.kind() {
                KING => dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0),
                KNIGHT => KNIGHT_JUMPS.contains(&(dx, dy)),
                PAWN => dx.abs() == 1 && dy == if by == 0 { 1 } else { -1 },
                ROOK => line(&ORTHOGONAL),
                BISHOP => line(&DIAGONAL),
                QUEEN => line(&ORTHOGONAL) || line(&DIAGONAL),
                _ => false,
            }
        })
    }

    /// Whether the men, after `from` moves to `to` (capturing there), are all connected.
    fn connected_after(&self, from: (i32, i32), to: (i32, i32)) -> bool {
        let mut cells: Vec<(i32, i32)> = self
            .men()
            .iter()
            .map(|&(c, _)| c)
            .filter(|&c| c != from && c != to)
            .collect();
        cells.push(to);
        connected(&cells)
    }

    /// Empty cells next to at least one man ((0, 0) on an empty board).
    fn placement_cells(&self) -> Vec<(i32, i32)> {
        if self.count == 0 {
            return vec![(0, 0)];
        }
        let mut out: Vec<(i32, i32)> = Vec::new();
        for &((x, y), _) in self.men() {
            for (dx, dy) in KING_STEPS {
                let c = (x + dx, y + dy);
                if self.man_at(c).is_none() && !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        out
    }

    fn placements(&self, kind: u8, moves: &mut Vec<ChexMove>) {
        let them = 1 - self.turn;
        for cell in self.placement_cells() {
            if kind == KING && self.attacked(cell, them) {
                continue;
            }
            moves.push(ChexMove {
                action: ChexAction::Place(kind),
                from: cell,
                to: cell,
            });
        }
    }

    fn board_moves(&self, moves: &mut Vec<ChexMove>) {
        let Some(frame) = self.frame() else {
            return;
        };
        let us = self.turn;
        for &(from, piece) in self.men() {
            if piece.player() != us {
                continue;
            }
            let (x, y) = from;
            let mut targets: Vec<(i32, i32)> = Vec::new();
            let open = |c: (i32, i32)| match self.man_at(c) {
                None => true,
                Some(p) => p.player() != us,
            };
            match piece.kind() {
                KING => targets.extend(KING_STEPS.iter().map(|&(dx, dy)| (x + dx, y + dy))),
                KNIGHT => targets.extend(KNIGHT_JUMPS.iter().map(|&(dx, dy)| (x + dx, y + dy))),
                PAWN => {
                    let dy = if us == 0 { 1 } else { -1 };
                    if self.man_at((x, y + dy)).is_none() {
                        targets.push((x, y + dy));
                    }
                    for dx in [-1, 1] {
                        if matches!(self.man_at((x + dx, y + dy)), Some(p) if p.player() != us) {
                            targets.push((x + dx, y + dy));
                        }
                    }
                }
                kind => {
                    let dirs: &[(i32, i32)] = match kind {
                        ROOK => &ORTHOGONAL,
                        BISHOP => &DIAGONAL,
                        _ => &KING_STEPS,
                    };
                    for &(dx, dy) in dirs {
                        let mut c = (x + dx, y + dy);
                        // Slides stay inside the frame of the position before the move.
                        while frame.contains(c) {
                            targets.push(c);
                            if self.man_at(c).is_some() {
                                break;
                            }
                            c = (c.0 + dx, c.1 + dy);
                        }
                    }
                }
            }
            for to in targets {
                if open(to) && self.connected_after(from, to) {
                    moves.push(ChexMove {
                        action: ChexAction::Board,
                        from,
                        to,
                    });
                }
            }
        }
    }

    /// A live game's drawn king that has no unattacked cell: the game is drawn.
    fn unplaceable_king(&self) -> bool {
        self.drawn == Some(KING) && {
            let mut moves = Vec::new();
            self.placements(KING, &mut moves);
            moves.is_empty()
        }
    }

    fn generate(&self, moves: &mut Vec<ChexMove>) {
        if self.king_gone(0) || self.king_gone(1) {
            return;
        }
        if let Some(kind) = self.drawn {
            self.placements(kind, moves);
            return;
        }
        self.board_moves(moves);
        let stack = self.stacks[self.turn as usize];
        if self.order.is_some() {
            if stack.iter().any(|&n| n > 0) {
                moves.push(ChexMove {
                    action: ChexAction::Draw,
                    from: (0, 0),
                    to: (0, 0),
                });
            }
        } else {
            for kind in 0..6u8 {
                if stack[kind as usize] > 0 {
                    self.placements(kind, moves);
                }
            }
        }
    }

    fn add(&mut self, cell: (i32, i32), piece: Piece) {
        self.men[self.count] = (cell, piece);
        self.count += 1;
        self.hash ^= man_key(cell, piece);
    }

    fn remove(&mut self, cell: (i32, i32)) -> Option<Piece> {
        let i = self.men().iter().position(|&(c, _)| c == cell)?;
        let (_, piece) = self.men[i];
        self.men[i] = self.men[self.count - 1];
        self.count -= 1;
        self.hash ^= man_key(cell, piece);
        Some(piece)
    }

    fn set_stack(&mut self, player: Player, kind: u8, count: u8) {
        let old = self.stacks[player as usize][kind as usize];
        self.hash ^= stack_key(player, kind, old) ^ stack_key(player, kind, count);
        self.stacks[player as usize][kind as usize] = count;
    }

    /// Reads a Chex FEN: frame rows (or `-`), `[stacks]`, side, origin `x,y` (or `-`),
    /// half-move clock, move number.
    pub fn from_fen(fen: &str) -> Result<Self, SetupError> {
        if fen.len() > MAX_FEN_LEN {
            return Err(FenError::TooLong(fen.len()).into());
        }
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let stack_field = fields
            .next()
            .ok_or_else(|| FenError::UnknownPiece("missing stacks".into()))?;
        let inside = stack_field
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .ok_or_else(|| FenError::UnknownPiece(excerpt(stack_field)))?;
        let turn = match fields.next() {
            Some(field) => read_turn(Some(field), "w", "b")?,
            None => return Err(FenError::Turn(String::new()).into()),
        };
        let origin = fields.next().unwrap_or("-");
        let (quiet_plies, fullmove) = read_counters(&mut fields)?;
        no_more_fields(fields)?;
        let letter = |c: char| -> Option<Piece> {
            let kind = LETTERS.iter().position(|&l| l == c.to_ascii_uppercase())? as u8;
            Some(Piece::new(if c.is_ascii_uppercase() { 0 } else { 1 }, kind))
        };
        let mut placed: Vec<((i32, i32), Piece)> = Vec::new();
        if board == "-" {
            if origin != "-" {
                return Err(invalid("an origin for an empty board"));
            }
        } else {
            let (ox, oy) = origin
                .split_once(',')
                .and_then(|(a, b)| Some((a.parse::<i32>().ok()?, b.parse::<i32>().ok()?)))
                .filter(|&(a, b)| a.abs() <= MAX_COORD && b.abs() <= MAX_COORD)
                .ok_or_else(|| invalid(&format!("origin {:?}", excerpt(origin))))?;
            let rows: Vec<&str> = board.split('/').collect();
            if rows.len() > MAX_FRAME {
                return Err(FenError::RowCount {
                    expected: MAX_FRAME,
                    found: rows.len(),
                }
                .into());
            }
            let height = rows.len() as i32;
            let mut width = None;
            for (r, row) in rows.iter().enumerate() {
                let y = oy + height - 1 - r as i32;
                let mut x = 0usize;
                let mut run = 0usize;
                for c in row.chars() {
                    if let Some(d) = c.to_digit(10) {
                        run = run * 10 + d as usize;
                        if run > MAX_FRAME {
                            return Err(FenError::Wall { row: r + 1 }.into());
                        }
                        continue;
                    }
                    x += run;
                    run = 0;
                    let piece = letter(c).ok_or_else(|| FenError::UnknownPiece(c.to_string()))?;
                    if x >= MAX_FRAME || placed.len() == MAX_MEN {
                        return Err(FenError::Wall { row: r + 1 }.into());
                    }
                    placed.push(((ox + x as i32, y), piece));
                    x += 1;
                }
                x += run;
                match width {
                    None => width = Some(x),
                    Some(w) if w != x => {
                        return Err(FenError::RowLength {
                            row: r + 1,
                            expected: w,
                            found: x,
                        }
                        .into());
                    }
                    _ => {}
                }
            }
            if width == Some(0) {
                return Err(FenError::Wall { row: 1 }.into());
            }
        }
        let mut stacks = [[0u8; 6]; 2];
        for c in inside.chars() {
            let piece = letter(c).ok_or_else(|| FenError::UnknownPiece(c.to_string()))?;
            let n = &mut stacks[piece.player() as usize][piece.kind() as usize];
            *n = n.saturating_add(1).min(99);
        }
        let mut problems = Vec::new();
        for player in 0..2u8 {
            for kind in 0..6u8 {
                let on_board = placed
                    .iter()
                    .filter(|&&(_, p)| p.player() == player && p.kind() == kind)
                    .count();
                if on_board + stacks[player as usize][kind as usize] as usize
                    > FULL[kind as usize] as usize
                {
                    problems.push(SetupProblem::Other(format!(
                        "player {} has more than {} {}",
                        player + 1,
                        FULL[kind as usize],
                        LETTERS[kind as usize]
                    )));
                }
            }
        }
        let cells: Vec<(i32, i32)> = placed.iter().map(|&(c, _)| c).collect();
        if !connected(&cells) {
            problems.push(SetupProblem::Other("the men are not connected".into()));
        }
        if !problems.is_empty() {
            return Err(SetupError::Invalid(problems));
        }
        let mut position = ChexPosition {
            men: [((0, 0), Piece::NONE); MAX_MEN],
            count: 0,
            stacks: [[0; 6]; 2],
            order: None,
            drawn_count: [0; 2],
            drawn: None,
            seed: None,
            turn,
            quiet_plies,
            fullmove,
            hash: turn_key(turn),
        };
        for player in 0..2u8 {
            for kind in 0..6u8 {
                position.hash ^= stack_key(player, kind, 0);
                position.set_stack(player, kind, stacks[player as usize][kind as usize]);
            }
        }
        for (cell, piece) in placed {
            position.add(cell, piece);
        }
        Ok(position)
    }
}

fn invalid(what: &str) -> SetupError {
    SetupError::Invalid(vec![SetupProblem::Other(what.to_string())])
}

/// Whether the cells form one group under king-step adjacency (true for none or one).
fn connected(cells: &[(i32, i32)]) -> bool {
    if cells.len() <= 1 {
        return true;
    }
    let mut reached = vec![false; cells.len()];
    let mut stack = vec![0];
    reached[0] = true;
    let mut seen = 1;
    while let Some(i) = stack.pop() {
        let (x, y) = cells[i];
        for (j, &(u, v)) in cells.iter().enumerate() {
            if !reached[j] && (u - x).abs() <= 1 && (v - y).abs() <= 1 {
                reached[j] = true;
                seen += 1;
                stack.push(j);
            }
        }
    }
    seen == cells.len()
}

/// Reads a display name (`b2`, `aa10`) as 0-based (file, rank) in a frame.
fn parse_label(label: &str) -> Option<(i32, i32)> {
    let split = label.find(|c: char| c.is_ascii_digit())?;
    let (letters, digits) = label.split_at(split);
    if letters.is_empty()
        || letters.len() > 3
        || !letters.bytes().all(|b| b.is_ascii_lowercase())
        || digits.is_empty()
        || digits.len() > 4
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || digits.starts_with('0')
    {
        return None;
    }
    let mut file: i32 = 0;
    for b in letters.bytes() {
        file = file * 26 + (b - b'a') as i32 + 1;
    }
    Some((file - 1, digits.parse::<i32>().ok()? - 1))
}

/// Piece values in centipawns, by kind (the king at a royal value: losing it loses).
const VALUES: [i32; 6] = [2_000, 950, 500, 330, 320, 100];
/// Bonus for having the move.
const TEMPO: i32 = 10;

impl ChexPosition {
    /// Material of `player`: men on the board and men still in the stack (they all come
    /// into play in time; only captures take material away).
    fn material(&self, player: Player) -> i32 {
        let on_board: i32 = self.men[..self.count]
            .iter()
            .filter(|(_, p)| p.player() == player)
            .map(|(_, p)| VALUES[p.kind() as usize])
            .sum();
        let in_stack: i32 = self.stacks[player as usize]
            .iter()
            .zip(VALUES)
            .map(|(&n, v)| n as i32 * v)
            .sum();
        let drawn = self
            .drawn
            .filter(|_| self.turn == player)
            .map_or(0, |k| VALUES[k as usize]);
        on_board + in_stack + drawn
    }
}

impl Position for ChexPosition {
    type Move = ChexMove;

    fn side_to_move(&self) -> usize {
        self.turn as usize
    }

    fn legal_moves(&self, moves: &mut Vec<ChexMove>) {
        self.generate(moves);
    }

    fn play_unchecked(&mut self, mv: ChexMove) {
        let us = self.turn;
        let progress = match mv.action {
            ChexAction::Draw => {
                let order = self.order.expect("draws only in live games");
                let kind = order[us as usize][self.drawn_count[us as usize] as usize];
                self.drawn_count[us as usize] += 1;
                self.set_drawn(Some(kind));
                // The same player places the revealed man.
                return;
            }
            ChexAction::Place(kind) => {
                let left = self.stacks[us as usize][kind as usize] - 1;
                self.set_stack(us, kind, left);
                self.add(mv.to, Piece::new(us, kind));
                self.set_drawn(None);
                true
            }
            ChexAction::Board => {
                let captured = self.remove(mv.to).is_some();
                let piece = self.remove(mv.from).expect("a man on the start cell");
                self.add(mv.to, piece);
                captured || piece.kind() == PAWN
            }
        };
        self.quiet_plies = if progress { 0 } else { self.quiet_plies + 1 };
        if us == 1 {
            self.fullmove += 1;
        }
        self.hash ^= turn_key(us) ^ turn_key(1 - us);
        self.turn = 1 - us;
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        if let Some(frame) = self.frame() {
            let rank_width = frame.height.to_string().len();
            for row in (0..frame.height).rev() {
                out.push_str(&format!("{:>rank_width$} ", row + 1));
                for column in 0..frame.width {
                    let cell = (frame.x0 + column, frame.y0 + row);
                    let text = match self.man_at(cell) {
                        Some(p) if p.player() == 0 => LETTERS[p.kind() as usize],
                        Some(p) => LETTERS[p.kind() as usize].to_ascii_lowercase(),
                        None => '.',
                    };
                    out.push_str(&format!(" {text:>2}"));
                }
                out.push('\n');
            }
            out.push_str(&" ".repeat(rank_width + 1));
            for column in 0..frame.width {
                out.push_str(&format!(" {:>2}", file_name(column as u32)));
            }
            out.push('\n');
        } else {
            out.push_str("(no men on the board yet)\n");
        }
        for player in 0..2u8 {
            let stack: String = (0..6)
                .flat_map(|k| {
                    std::iter::repeat_n(LETTERS[k], self.stacks[player as usize][k] as usize)
                })
                .collect();
            let name = self.player_name(player as usize);
            out.push_str(&format!("{name}'s stack: {stack}\n"));
        }
        if let Some(kind) = self.drawn {
            out.push_str(&format!(
                "drawn, to be placed: {}\n",
                LETTERS[kind as usize]
            ));
        }
        out.push_str(&format!(
            "{} to move\n",
            self.player_name(self.turn as usize)
        ));
        out
    }

    fn evaluate(&self, player: usize) -> i32 {
        let us = player as Player;
        let tempo = if self.turn == us { TEMPO } else { -TEMPO };
        self.material(us) - self.material(1 - us) + tempo
    }

    fn move_value(&self, mv: ChexMove) -> MoveValue {
        let captured = match mv.action {
            ChexAction::Board => self
                .man_at(mv.to)
                .filter(|p| p.player() != self.turn)
                .map_or(0, |p| VALUES[p.kind() as usize]),
            _ => 0,
        };
        let mover = match mv.action {
            ChexAction::Board => self
                .man_at(mv.from)
                .map_or(0, |p| VALUES[p.kind() as usize]),
            _ => 0,
        };
        MoveValue {
            gain: captured,
            mover,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn is_check(&self) -> bool {
        false
    }

    fn outcome_without_moves(&self) -> Outcome {
        self.decided_outcome()
            .unwrap_or_else(|| Outcome::draw(2, Reason::NoLegalMoves))
    }

    fn decided_outcome(&self) -> Option<Outcome> {
        for player in 0..2u8 {
            if self.king_gone(player) {
                return Some(Outcome::loss(2, player as usize, Reason::RoyalCaptured));
            }
        }
        self.unplaceable_king()
            .then(|| Outcome::draw(2, Reason::NoLegalMoves))
    }

    fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    fn draw_rules(&self) -> DrawRules {
        DrawRules {
            repetition: Some((3, Reason::ThreefoldRepetition)),
            repetition_claim: None,
            quiet_plies: Some((100, Reason::FiftyMoveRule)),
            quiet_plies_claim: None,
            ply_cap: None,
        }
    }

    fn repetition_point(&self) -> bool {
        self.drawn.is_none()
    }

    /// In a live game: the FEN, then `drawn <letter>` (the man drawn and waiting to be placed)
    /// or `drawn -`; the same for both players, since the draw order is hidden from both and
    /// the rest is public. `None` without a draw order, where nothing is hidden.
    fn player_view(&self, player: usize) -> Option<String> {
        if player >= 2 || self.order.is_none() {
            return None;
        }
        let drawn = self.drawn.map_or('-', |k| LETTERS[k as usize]);
        Some(format!("{}\ndrawn {drawn}", self.fen()))
    }

    fn determinize(view: &str, rng: &mut SplitMix64) -> Result<Self, ViewError> {
        Self::from_view(view, rng)
    }

    fn move_number(&self) -> u32 {
        self.fullmove
    }

    fn fen(&self) -> String {
        let mut stacks = String::new();
        for player in 0..2u8 {
            for kind in 0..6u8 {
                let c = LETTERS[kind as usize];
                let c = if player == 0 {
                    c
                } else {
                    c.to_ascii_lowercase()
                };
                for _ in 0..self.stacks[player as usize][kind as usize] {
                    stacks.push(c);
                }
            }
        }
        let side = if self.turn == 0 { 'w' } else { 'b' };
        let Some(frame) = self.frame() else {
            return format!(
                "- [{stacks}] {side} - {} {}",
                self.quiet_plies, self.fullmove
            );
        };
        let mut rows = Vec::new();
        for r in (0..frame.height).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for f in 0..frame.width {
                match self.man_at((frame.x0 + f, frame.y0 + r)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let c = LETTERS[p.kind() as usize];
                        row.push(if p.player() == 0 {
                            c
                        } else {
                            c.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        format!(
            "{} [{stacks}] {side} {},{} {} {}",
            rows.join("/"),
            frame.x0,
            frame.y0,
            self.quiet_plies,
            self.fullmove
        )
    }

    /// The frame as a board of its own (cells keep their colour as the board grows), the
    /// unplaced men as hands, and the man a draw revealed.
    fn scene(&self, _viewer: Viewer) -> Scene {
        let frame = self.display_frame();
        let shape = frame_geometry(frame);
        let mut board = SceneBoard::new(BoardShape::Built(shape));
        board.men = self
            .men()
            .iter()
            .map(|&(at, piece)| SceneMan {
                cell: frame.label(at),
                piece: LETTERS[piece.kind() as usize].to_string(),
                owner: piece.player() as usize,
                height: None,
            })
            .collect();
        // The men still to be drawn and placed.
        board.has_hands = true;
        for owner in 0..2 {
            for (kind, &count) in self.stacks[owner].iter().enumerate() {
                if count > 0 {
                    board.hands.push(SceneHand {
                        owner,
                        piece: LETTERS[kind].to_string(),
                        count: u32::from(count),
                    });
                }
            }
        }
        Scene {
            boards: vec![board],
            complete: true,
            note: self.drawn.map(|k| format!("drawn {}", LETTERS[k as usize])),
        }
    }

    fn legend(&self) -> chaturanga_rules::Legend {
        chaturanga_rules::Legend {
            style: chaturanga_rules::PieceStyle::Western,
            kinds: LETTERS
                .iter()
                .zip(LEGEND)
                .map(
                    |(letter, (name, moves, betza))| chaturanga_rules::KindLegend {
                        diagram: MoveDiagram::of_betza(betza).ok().flatten(),
                        ..chaturanga_rules::KindLegend::new(&letter.to_string(), name, moves)
                    },
                )
                .collect(),
        }
    }

    fn move_shape(&self, mv: ChexMove) -> scene::MoveShape {
        let frame = self.display_frame();
        match mv.action {
            ChexAction::Draw => scene::MoveShape {
                part: Some("draw"),
                ..scene::MoveShape::default()
            },
            ChexAction::Place(kind) => scene::MoveShape {
                to: Some(frame.label(mv.to)),
                drop: Some(LETTERS[kind as usize].to_string()),
                part: Some("place"),
                ..scene::MoveShape::default()
            },
            ChexAction::Board => scene::MoveShape {
                from: Some(frame.label(mv.from)),
                to: Some(frame.label(mv.to)),
                ..scene::MoveShape::default()
            },
        }
    }

    fn move_text(&self, mv: ChexMove) -> String {
        // Names come from the frame before the move; the first placement of the game, with no
        // frame yet, is named in the frame that follows it (`b2`).
        let frame = self.frame().unwrap_or(Frame {
            x0: mv.to.0 - 1,
            y0: mv.to.1 - 1,
            width: 3,
            height: 3,
        });
        match mv.action {
            ChexAction::Draw => "draw".to_string(),
            ChexAction::Place(kind) => format!("{}@{}", LETTERS[kind as usize], frame.label(mv.to)),
            ChexAction::Board => format!("{}{}", frame.label(mv.from), frame.label(mv.to)),
        }
    }
}

impl Ruleset for ChexPosition {
    const ID: &'static str = "chex";

    fn option_specs() -> &'static [OptionSpec] {
        OPTIONS
    }

    const START_FEN: Option<&'static str> = Some(START_FEN);

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        let position = Self::from_fen(fen)?;
        Ok(match options.seed("draw-seed") {
            None | Some(SeedValue::Number(0)) => position,
            Some(seed) => position.with_draw_order(seed),
        })
    }
}
