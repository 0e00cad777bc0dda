//! Rules core: Betza pieces compiled against a geometry, positions, moves, outcomes, hashing
//! and perft.
//!
//! Ruleset modules (in the variants crate) describe their board and pieces as data and plug
//! small hooks into the shared position types here; the engine and front ends use only the
//! [`Position`] trait.

pub mod betza;
pub mod board;
pub mod clock;
pub mod eval;
pub mod hex;
pub mod legend;
pub mod options;
pub mod outcome;
pub mod piece;
pub mod position;
pub mod scene;
pub mod standard;
pub mod structure;
pub mod tables;
pub mod weights;
pub mod zobrist;

pub use chaturanga_geometry as geometry;
pub use clock::{Clock, FlagFall, TimeControl};
pub use eval::{EvalTables, MoveValue, Tapered};
pub use legend::{KindLegend, Legend, PieceStyle};
pub use options::{OptionError, OptionSpec, OptionValues, RuleOptions, SeedValue};
pub use outcome::{Outcome, Reason};
pub use piece::{Kind, Piece, PieceType, Player};
pub use position::{
    BoardPieces, DrawRules, Game, MoveDescription, MoveError, OwnGame, OwnRecord, Position,
    RecordError, RecordHeader, Ruleset, Status, ViewError, legal_turn_texts, legal_turns, perft,
    perft_divide, perft_turns, perft_turns_divide,
};
pub use scene::{MoveShape, Scene, SceneBoard, Viewer};
pub use standard::EvalFeatures;
pub use standard::{FenError, SetupError, SetupProblem};
pub use weights::EvalWeights;
