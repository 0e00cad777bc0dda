//! Move ordering: the hash move, then captures by value, killers, quiet moves by history, and
//! last the captures that lose the exchange.

use std::hash::{Hash, Hasher};

/// Ordering keys: higher first.
pub(crate) const HASH_MOVE: i32 = 1 << 30;
const WINNING_TACTIC: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
/// Captures that lose the exchange come after every quiet move (history scores stay above
/// this); the exchange value, negative, orders them among themselves.
pub(crate) const LOSING_TACTIC: i32 = -(1 << 24);
/// History scores stay below killers.
const HISTORY_LIMIT: i32 = 1 << 20;
/// Slots of the history table (a power of two).
const HISTORY_SLOTS: usize = 1 << 14;

/// A cheap hash of a move for the history table (FxHash's multiply-rotate).
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(i as u64);
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

fn slot<M: Hash>(mover: usize, mv: &M) -> usize {
    let mut h = MoveHasher(mover as u64);
    mv.hash(&mut h);
    (h.finish() >> 50) as usize & (HISTORY_SLOTS - 1)
}

/// Killer moves per ply and history scores per (player, move).
pub(crate) struct Ordering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
}

impl<M: Copy + Eq + Hash> Ordering<M> {
    pub fn new(max_ply: usize) -> Self {
        Ordering {
            killers: vec![[None, None]; max_ply + 1],
            history: vec![0; HISTORY_SLOTS],
        }
    }

    /// Forgets killers and ages history between searches.
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        self.history.iter_mut().for_each(|h| *h /= 8);
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// The ordering key of a move.
    pub fn key(&self, mover: usize, ply: usize, mv: &M, gain: i32, risk: i32) -> i32 {
        if gain > 0 {
            // Most valuable victim first, least valuable attacker among equals.
            return WINNING_TACTIC + gain * 16 - risk / 16;
        }
        let k = &self.killers[ply];
        if k[0] == Some(*mv) {
            return KILLER + 1;
        }
        if k[1] == Some(*mv) {
            return KILLER;
        }
        self.history[slot(mover, mv)]
    }

    /// A quiet move caused a cut-off at `depth`: it becomes a killer, and gains history;
    /// the quiet moves tried before it lose some.
    pub fn reward(&mut self, mover: usize, ply: usize, mv: M, depth: i32, tried: &[M]) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        self.adjust(mover, &mv, bonus);
        for m in tried {
            if *m != mv {
                self.adjust(mover, m, -bonus);
            }
        }
    }

    fn adjust(&mut self, mover: usize, mv: &M, bonus: i32) {
        let h = &mut self.history[slot(mover, mv)];
        // Gravity: scores approach the limit and decay towards zero when contradicted.
        *h += bonus * 32 - *h * bonus.abs() / 512;
        *h = (*h).clamp(-HISTORY_LIMIT, HISTORY_LIMIT);
    }
}
