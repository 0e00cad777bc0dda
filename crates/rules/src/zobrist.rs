//! Zobrist hashing keys.

/// A small deterministic generator (SplitMix64) so keys are the same in every run.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next pseudo-random number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

/// Keys for every component of a position's identity.
#[derive(Clone, Debug)]
pub struct ZobristKeys {
    cells: usize,
    kinds: usize,
    pieces: Vec<u64>,
    /// Key of each player to move.
    pub turn: Vec<u64>,
    /// Key of each castling right.
    pub castling: Vec<u64>,
    /// Key of each en passant target cell.
    pub en_passant: Vec<u64>,
    hands: Vec<u64>,
}

/// Most pieces of one kind a hand can hold, as far as hashing distinguishes.
pub const MAX_HAND_COUNT: usize = 64;

impl ZobristKeys {
    /// Keys for a board of `cells` cells, `kinds` kinds, `players` players, `castlings` rights.
    pub fn new(seed: u64, players: usize, kinds: usize, cells: usize, castlings: usize) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut take = |n: usize| (0..n).map(|_| rng.next_u64()).collect::<Vec<_>>();
        ZobristKeys {
            cells,
            kinds,
            pieces: take(players * kinds * cells),
            turn: take(players),
            castling: take(castlings),
            en_passant: take(cells),
            hands: take(players * kinds * MAX_HAND_COUNT),
        }
    }

    /// Key of `player`'s `kind` on `cell`.
    #[inline(always)]
    pub fn piece(&self, player: u8, kind: u8, cell: usize) -> u64 {
        self.pieces[(player as usize * self.kinds + kind as usize) * self.cells + cell]
    }

    /// Key of `player` holding `count` pieces of `kind` in hand (`count` saturates).
    #[inline(always)]
    pub fn hand(&self, player: u8, kind: u8, count: usize) -> u64 {
        self.hands[(player as usize * self.kinds + kind as usize) * MAX_HAND_COUNT
            + count.min(MAX_HAND_COUNT - 1)]
    }
}

/// A seed derived from a ruleset id, so different rulesets get unrelated keys.
pub fn seed_for(id: &str) -> u64 {
    id.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01B3)
    })
}
