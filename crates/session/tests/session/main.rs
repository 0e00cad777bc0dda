//! The session layer's integration tests, one binary.

mod hidden;
mod legend;
mod notations;
mod records;
