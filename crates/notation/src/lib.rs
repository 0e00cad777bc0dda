//! Move and game notation above the rules: SAN in and out, PGN export and import.
//!
//! Everything is generic over [`Position`](chaturanga_rules::Position); rulesets opt into SAN
//! by describing their moves ([`Position::describe`](chaturanga_rules::Position::describe)).

pub mod pgn;
pub mod san;
