//! Static evaluations by position hash: the search evaluates the same positions again and
//! again (transpositions, re-searches, each iteration's new tree over the last one's), and on
//! the large boards one evaluation costs as much as generating every move of both sides.

/// A direct-mapped table of evaluations, each for the root player it was computed for.
pub(crate) struct EvalCache {
    slots: Vec<Slot>,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    /// The position's hash; 0 marks an empty slot (a position hashing to 0 is just never
    /// cached).
    key: u64,
    value: i32,
    root: u8,
}

impl EvalCache {
    /// A table of about `megabytes` MiB (at least one slot).
    pub fn new(megabytes: usize) -> Self {
        let slots = (megabytes * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1);
        EvalCache {
            slots: vec![Slot::default(); slots],
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
    }

    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The evaluation stored for the position hashing to `key`, as seen by `root`.
    #[inline]
    pub fn get(&self, key: u64, root: usize) -> Option<i32> {
        let slot = self.slots[self.index(key)];
        (key != 0 && slot.key == key && slot.root as usize == root).then_some(slot.value)
    }

    /// Stores an evaluation, replacing whatever the slot held.
    #[inline]
    pub fn put(&mut self, key: u64, root: usize, value: i32) {
        let index = self.index(key);
        self.slots[index] = Slot {
            key,
            value,
            root: root as u8,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_a_value_per_position_and_root_player() {
        let mut cache = EvalCache::new(1);
        assert_eq!(cache.get(12345, 0), None);
        cache.put(12345, 0, -70);
        assert_eq!(cache.get(12345, 0), Some(-70));
        assert_eq!(cache.get(12345, 1), None, "another root player's view");
        assert_eq!(cache.get(12346, 0), None, "another position");
        // A position sharing the slot replaces the first.
        let same_slot = 12345 + 1;
        assert_eq!(cache.index(same_slot), cache.index(12345));
        cache.put(same_slot, 0, 5);
        assert_eq!(cache.get(12345, 0), None);
        assert_eq!(cache.get(same_slot, 0), Some(5));
        cache.clear();
        assert_eq!(cache.get(same_slot, 0), None);
    }
}
