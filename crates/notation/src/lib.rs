//! Move and game notation above the rules: SAN in and out, PGN export and import, and the
//! shogi game records KIF and CSA (for rulesets offering the `kif`/`csa` move notations), and
//! record files (`files`: formats by name or text, UTF-8 and Shift_JIS); what a front end
//! knows of a game besides its rules (`occasion`: players, event, site, start, clock), which
//! each format writes in its own headers.
//! BPGN, the bughouse record, is the bughouse module's (`chaturanga_variants::bughouse::bpgn`):
//! it needs the linked position, and the ruleset offers it through `Ruleset::own_record`.
//!
//! Everything is generic over [`Position`](chaturanga_rules::Position); rulesets opt into SAN
//! by describing their moves ([`Position::describe`](chaturanga_rules::Position::describe)).

pub mod csa;
pub mod files;
pub mod kif;
pub mod occasion;
pub mod pgn;
pub mod record;
pub mod san;
