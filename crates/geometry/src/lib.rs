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
//!
//! Hexagonal boards ([`GeometryBuilder::hexagon`], Gliński's 91 cells) use doubled
//! coordinates (see [`Lattice::Hex`]), in which every line is again a constant step, so the
//! same numbering and the same tables serve them. [`Geometry::drawing`] and
//! [`Geometry::to_json`] picture any board for terminals and browsers.

mod cellset;
mod geometry;
#[cfg(test)]
mod hex_tests;
mod linked;
mod render;
#[cfg(test)]
mod three_player_tests;

pub use cellset::{CellSet, CellSetIter};
pub use geometry::{
    Cell, Geometry, GeometryBuilder, GeometryError, HEX_DIAGONAL, HEX_ORTHOGONAL, Lattice,
    Markings, Region, Vector,
};
