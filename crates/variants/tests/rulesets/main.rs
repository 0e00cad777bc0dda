//! The rulesets' integration tests, one binary (linking one per file cost minutes on two
//! cores): `scenarios` has each ruleset's scenarios from its rules page, `oracles` the
//! differential tests against independent programs, `properties` the invariants every
//! ruleset keeps (perft fixtures, FEN round trips, option properties, evaluations).

mod common;
mod oracles;
mod properties;
mod scenarios;
