//! Move ordering: the hash move, then captures by value, killers, quiet moves by history, and
//! last the captures that lose the exchange. A quiet move's history is the sum of how it did
//! on its own and how it did as the answer to the move before it and as the follow-up to the
//! mover's own move before that (continuation history).

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
/// Slots of each continuation history table (a power of two): pairs of moves are many more.
const CONTINUATION_SLOTS: usize = 1 << 16;

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

fn pair_slot<M: Hash>(mover: usize, before: &M, mv: &M) -> usize {
    let mut h = MoveHasher(mover as u64);
    before.hash(&mut h);
    mv.hash(&mut h);
    (h.finish() >> 48) as usize & (CONTINUATION_SLOTS - 1)
}

/// The moves that led to a node: the one just made and the one before it (`None` at the
/// root's first plies and after a pass).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Context<M> {
    pub previous: Option<M>,
    pub before_previous: Option<M>,
}

impl<M> Context<M> {
    /// No moves known (the root).
    pub fn none() -> Self {
        Context {
            previous: None,
            before_previous: None,
        }
    }
}

/// Killer moves per ply, history scores per (player, move), and continuation history per
/// (player, move before, move).
pub(crate) struct Ordering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
    /// Indexed by the move just made (the answer's history).
    answers: Vec<i32>,
    /// Indexed by the move made two plies before (the follow-up's history).
    follow_ups: Vec<i32>,
}

impl<M: Copy + Eq + Hash> Ordering<M> {
    pub fn new(max_ply: usize) -> Self {
        Ordering {
            killers: vec![[None, None]; max_ply + 1],
            history: vec![0; HISTORY_SLOTS],
            answers: vec![0; CONTINUATION_SLOTS],
            follow_ups: vec![0; CONTINUATION_SLOTS],
        }
    }

    fn tables(&mut self) -> impl Iterator<Item = &mut i32> {
        self.history
            .iter_mut()
            .chain(self.answers.iter_mut())
            .chain(self.follow_ups.iter_mut())
    }

    /// Forgets killers and ages history between searches.
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        self.tables().for_each(|h| *h /= 8);
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        self.tables().for_each(|h| *h = 0);
    }

    /// The ordering key of a move made after the moves of `context`.
    pub fn key(
        &self,
        mover: usize,
        ply: usize,
        mv: &M,
        gain: i32,
        risk: i32,
        context: &Context<M>,
    ) -> i32 {
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
        let mut score = self.history[slot(mover, mv)];
        if let Some(before) = &context.previous {
            score += self.answers[pair_slot(mover, before, mv)];
        }
        if let Some(before) = &context.before_previous {
            score += self.follow_ups[pair_slot(mover, before, mv)];
        }
        score
    }

    /// A quiet move caused a cut-off at `depth` after the moves of `context`: it becomes a
    /// killer, and gains history; the quiet moves tried before it lose some.
    pub fn reward(
        &mut self,
        mover: usize,
        ply: usize,
        mv: M,
        depth: i32,
        tried: &[M],
        context: &Context<M>,
    ) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        self.adjust(mover, &mv, bonus, context);
        for m in tried {
            if *m != mv {
                self.adjust(mover, m, -bonus, context);
            }
        }
    }

    fn adjust(&mut self, mover: usize, mv: &M, bonus: i32, context: &Context<M>) {
        gravity(&mut self.history[slot(mover, mv)], bonus);
        if let Some(before) = &context.previous {
            gravity(&mut self.answers[pair_slot(mover, before, mv)], bonus);
        }
        if let Some(before) = &context.before_previous {
            gravity(&mut self.follow_ups[pair_slot(mover, before, mv)], bonus);
        }
    }
}

/// Scores approach the limit and decay towards zero when contradicted.
fn gravity(h: &mut i32, bonus: i32) {
    *h += bonus * 32 - *h * bonus.abs() / 512;
    *h = (*h).clamp(-HISTORY_LIMIT, HISTORY_LIMIT);
}
