//! The transposition table: search results by position hash, one entry per slot, replaced by
//! depth and age.

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (a move reached beta).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<M> {
    pub key: u64,
    pub best: Option<M>,
    /// Score from the view of the mover's team, mate scores relative to this node.
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    generation: u8,
    /// The root player the score was computed for (scores of games with more than two
    /// players depend on who searches).
    pub root: u8,
}

/// A fixed-size table of entries indexed by hash.
pub(crate) struct TranspositionTable<M> {
    slots: Vec<Option<Entry<M>>>,
    generation: u8,
    used: usize,
}

/// Entries of an older search are replaced even by shallower ones.
const AGE_PREFERENCE: i16 = 3;

impl<M: Copy> TranspositionTable<M> {
    /// A table of about `megabytes` MiB (at least one entry).
    pub fn new(megabytes: usize) -> Self {
        let entry = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let slots = (megabytes.max(1) * 1024 * 1024 / entry).max(1);
        TranspositionTable {
            slots: vec![None; slots],
            generation: 0,
            used: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.used = 0;
    }

    /// Marks the start of a new search (older entries become cheaper to replace).
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        self.slots[self.index(key)]
            .as_ref()
            .filter(|e| e.key == key)
    }

    /// Stores a result, keeping a deeper entry of the same search for another position.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        best: Option<M>,
        score: i32,
        depth: i16,
        bound: Bound,
        root: u8,
    ) {
        let generation = self.generation;
        let i = self.index(key);
        let slot = &mut self.slots[i];
        if let Some(old) = slot {
            let stale = old.generation != generation;
            if old.key != key && !stale && old.depth > depth + AGE_PREFERENCE {
                return;
            }
            // Keep the old best move when this result has none (a fail-low).
            let best = if old.key == key {
                best.or(old.best)
            } else {
                best
            };
            *old = Entry {
                key,
                best,
                score,
                depth,
                bound,
                generation,
                root,
            };
        } else {
            self.used += 1;
            *slot = Some(Entry {
                key,
                best,
                score,
                depth,
                bound,
                generation,
                root,
            });
        }
    }

    /// Filled share in permille, as UCI's `hashfull`.
    pub fn permille_used(&self) -> u32 {
        (self.used as u64 * 1000 / self.slots.len() as u64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_key() {
        let mut tt = TranspositionTable::<u16>::new(1);
        tt.store(42, Some(7), 15, 3, Bound::Exact, 0);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.best, e.score, e.depth, e.bound),
            (Some(7), 15, 3, Bound::Exact)
        );
        assert!(tt.probe(43).is_none());
    }

    #[test]
    fn a_fail_low_keeps_the_best_move() {
        let mut tt = TranspositionTable::<u16>::new(1);
        tt.store(42, Some(7), 15, 3, Bound::Exact, 0);
        tt.store(42, None, -5, 4, Bound::Upper, 0);
        assert_eq!(tt.probe(42).unwrap().best, Some(7));
    }

    #[test]
    fn clear_forgets() {
        let mut tt = TranspositionTable::<u16>::new(1);
        tt.store(1, None, 0, 1, Bound::Lower, 0);
        assert!(tt.permille_used() < 1000);
        tt.clear();
        assert!(tt.probe(1).is_none());
        assert_eq!(tt.permille_used(), 0);
    }
}
