//! Fixed-width bit sets of cells.

use crate::Cell;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells on a board of at most `64 * W` cells.
///
/// `W` is chosen per board size class at compile time (1 for 8x8 and smaller, 2 for up to 128
/// cells, ...), so an 8x8 variant pays for exactly one machine word per set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellSet<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for CellSet<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> CellSet<W> {
    /// The empty set.
    pub const EMPTY: Self = CellSet([0; W]);
    /// Every index representable in this width (not only the cells of a board).
    pub const ALL: Self = CellSet([u64::MAX; W]);
    /// Largest number of cells a set of this width can hold.
    pub const CAPACITY: usize = 64 * W;

    /// The set holding just `cell`.
    #[inline(always)]
    pub fn from_cell(cell: Cell) -> Self {
        let mut s = Self::EMPTY;
        s.insert(cell);
        s
    }

    /// The set of the given cells.
    pub fn from_cells(cells: impl IntoIterator<Item = Cell>) -> Self {
        let mut s = Self::EMPTY;
        for c in cells {
            s.insert(c);
        }
        s
    }

    /// Whether the set has no cells.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        if W == 1 {
            return self.0[0] == 0;
        }
        self.0.iter().all(|&w| w == 0)
    }

    /// Whether the set has at least one cell.
    #[inline(always)]
    pub fn any(self) -> bool {
        !self.is_empty()
    }

    /// Number of cells in the set.
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set holds more than one cell.
    #[inline(always)]
    pub fn more_than_one(self) -> bool {
        if W == 1 {
            return self.0[0] & self.0[0].wrapping_sub(1) != 0;
        }
        self.count() > 1
    }

    /// Whether `cell` is in the set.
    #[inline(always)]
    pub fn contains(self, cell: Cell) -> bool {
        let i = cell.index();
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }

    /// Adds `cell`.
    #[inline(always)]
    pub fn insert(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// Removes `cell`.
    #[inline(always)]
    pub fn remove(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// Flips membership of `cell`.
    #[inline(always)]
    pub fn toggle(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i >> 6] ^= 1 << (i & 63);
    }

    /// The cell with the lowest index, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Cell> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(Cell((i * 64 + w.trailing_zeros() as usize) as u16));
            }
        }
        None
    }

    /// The cell with the highest index, if any.
    #[inline(always)]
    pub fn last(self) -> Option<Cell> {
        for i in (0..W).rev() {
            let w = self.0[i];
            if w != 0 {
                return Some(Cell((i * 64 + 63 - w.leading_zeros() as usize) as u16));
            }
        }
        None
    }

    /// Removes and returns the lowest cell.
    #[inline(always)]
    pub fn pop_first(&mut self) -> Option<Cell> {
        for i in 0..W {
            let w = self.0[i];
            if w != 0 {
                self.0[i] = w & (w - 1);
                return Some(Cell((i * 64 + w.trailing_zeros() as usize) as u16));
            }
        }
        None
    }

    /// All indices up to and including `cell`.
    #[inline(always)]
    pub fn up_to(cell: Cell) -> Self {
        let i = cell.index();
        let mut s = Self::EMPTY;
        let word = i >> 6;
        for w in s.0.iter_mut().take(word) {
            *w = u64::MAX;
        }
        s.0[word] = u64::MAX >> (63 - (i & 63));
        s
    }

    /// All indices from `cell` (inclusive) upwards.
    #[inline(always)]
    pub fn from(cell: Cell) -> Self {
        let i = cell.index();
        let mut s = Self::EMPTY;
        let word = i >> 6;
        s.0[word] = u64::MAX << (i & 63);
        for w in s.0.iter_mut().skip(word + 1) {
            *w = u64::MAX;
        }
        s
    }

    /// Cells in `self` but not in `other`.
    #[inline(always)]
    pub fn without(self, other: Self) -> Self {
        let mut r = self;
        for i in 0..W {
            r.0[i] &= !other.0[i];
        }
        r
    }

    /// Whether the two sets share a cell.
    #[inline(always)]
    pub fn intersects(self, other: Self) -> bool {
        (self & other).any()
    }

    /// Iterates the cells in increasing index order.
    #[inline(always)]
    pub fn iter(self) -> CellSetIter<W> {
        CellSetIter(self)
    }
}

/// Iterator over the cells of a [`CellSet`], lowest index first.
#[derive(Clone)]
pub struct CellSetIter<const W: usize>(CellSet<W>);

impl<const W: usize> Iterator for CellSetIter<W> {
    type Item = Cell;
    #[inline(always)]
    fn next(&mut self) -> Option<Cell> {
        self.0.pop_first()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<const W: usize> IntoIterator for CellSet<W> {
    type Item = Cell;
    type IntoIter = CellSetIter<W>;
    fn into_iter(self) -> CellSetIter<W> {
        self.iter()
    }
}

impl<const W: usize> FromIterator<Cell> for CellSet<W> {
    fn from_iter<T: IntoIterator<Item = Cell>>(iter: T) -> Self {
        Self::from_cells(iter)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> $tr for CellSet<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                let mut r = self;
                for i in 0..W {
                    r.0[i] = self.0[i] $op rhs.0[i];
                }
                r
            }
        }
        impl<const W: usize> $tra for CellSet<W> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Self) {
                for i in 0..W {
                    self.0[i] = self.0[i] $op rhs.0[i];
                }
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const W: usize> Not for CellSet<W> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        let mut r = self;
        for w in r.0.iter_mut() {
            *w = !*w;
        }
        r
    }
}

impl<const W: usize> fmt::Debug for CellSet<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|c| c.0)).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_width<const W: usize>() {
        let cells: Vec<Cell> = [0u16, 1, 63, 64, 65, 127]
            .into_iter()
            .filter(|&i| (i as usize) < CellSet::<W>::CAPACITY)
            .map(Cell)
            .collect();
        let s = CellSet::<W>::from_cells(cells.iter().copied());
        assert_eq!(s.count() as usize, cells.len());
        assert_eq!(s.iter().collect::<Vec<_>>(), cells);
        assert_eq!(s.first(), cells.first().copied());
        assert_eq!(s.last(), cells.last().copied());
        for &c in &cells {
            assert!(s.contains(c));
            let up = CellSet::<W>::up_to(c);
            let from = CellSet::<W>::from(c);
            assert_eq!(up.count() as usize, c.index() + 1);
            assert_eq!(from.count() as usize, CellSet::<W>::CAPACITY - c.index());
            assert_eq!((up & from), CellSet::from_cell(c));
            assert_eq!(up | from, CellSet::ALL);
        }
        let mut t = s;
        t.remove(cells[0]);
        assert!(!t.contains(cells[0]));
        assert_eq!(s.without(t), CellSet::from_cell(cells[0]));
        assert!(s.more_than_one());
        assert!(!CellSet::<W>::from_cell(cells[0]).more_than_one());
        assert!(CellSet::<W>::EMPTY.is_empty());
        assert_eq!(!CellSet::<W>::EMPTY, CellSet::ALL);
    }

    #[test]
    fn set_operations_in_every_width() {
        check_width::<1>();
        check_width::<2>();
        check_width::<3>();
        check_width::<7>();
    }
}
