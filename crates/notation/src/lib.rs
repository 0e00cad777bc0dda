//! Move and game notation above the rules: SAN in and out, PGN export and import, and the
//! shogi game records KIF and CSA (for rulesets offering the `kif`/`csa` move notations), and
//! BPGN, the bughouse record.
//!
//! Everything is generic over [`Position`](chaturanga_rules::Position); rulesets opt into SAN
//! by describing their moves ([`Position::describe`](chaturanga_rules::Position::describe)).

pub mod bpgn;
pub mod csa;
pub mod kif;
pub mod pgn;
pub mod record;
pub mod san;
