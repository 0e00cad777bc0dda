//! Game-tree search over any [`Position`](chaturanga_rules::Position): iterative deepening,
//! alpha-beta with a transposition table, quiescence, move ordering and time management.
//!
//! The search never asks which ruleset it plays. Turns that consist of several moves (a
//! player moving again) and games of more than two players are handled by scoring every node
//! for the *team* of its mover: the root player's side against everyone else (a paranoid
//! search with three players; plain negamax with two).
//!
//! Rulesets with hidden information are searched through the player's view only
//! ([`Engine::search_hidden`]): positions are drawn from the view, searched one by one, and
//! their choices put to a vote.

mod eval_cache;
mod hidden;
mod level;
mod limits;
mod maxn;
mod ordering;
mod score;
mod search;
mod tt;

pub use hidden::{DEFAULT_SAMPLES, Sampling};
pub use level::Level;
pub use limits::{Clock, Limits};
pub use score::Score;
pub use search::{Engine, MAX_MULTI_PV, Multiplayer, SearchInfo, SearchResult};
