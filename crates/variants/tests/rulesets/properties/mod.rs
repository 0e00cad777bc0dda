//! Invariants every ruleset keeps: perft fixtures, FEN and move round trips, option
//! properties, evaluations.
mod evaluation;
mod exchange;
mod invariants;
mod options;
mod perft;
mod structure;
