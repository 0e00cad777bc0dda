//! Boards as graphs.
//!
//! A board is a set of cells with dense indices ([`Cell`]), each placed on an integer lattice
//! (square or hexagonal), with a label for notation, a colour, and named regions per player.
//! Pieces and rules never look at coordinates directly: they ask the [`Geometry`] for the rays
//! and leaps of a lattice vector from a cell, and keep the answers as [`CellSet`]s sized to the
//! board (one 64-bit word per 64 cells, chosen at compile time).
//!
//! Cells are numbered in lexicographic (rank, file) order of their lattice coordinates. That
//! makes every straight line monotone in cell index, which lets ray attacks find the first
//! blocker with a single bit scan on any board shape.

mod cellset;
mod geometry;

pub use cellset::{CellSet, CellSetIter};
pub use geometry::{Cell, Geometry, GeometryBuilder, GeometryError, Lattice, Region, Vector};
