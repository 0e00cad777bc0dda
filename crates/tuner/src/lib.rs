//! Texel-style tuning of the shared evaluation's weights: positions from self-play games
//! labelled with the games' results ([`generate`]), then the weights that best predict those
//! results through a logistic curve of the evaluation ([`fit`]), written as a family's
//! weights file (`crates/variants/weights/`). `docs/tuning.md` tells how to rerun it.
//!
//! The shared evaluation is linear in the weights the tuner fits once a position's terms are
//! known ([`chaturanga_rules::EvalFeatures`]), so the fit is a gradient descent over a table
//! of coefficients, not a search that re-evaluates every position per step.

mod fit;
mod generate;

pub use fit::{FitReport, FitSettings, fit};
pub use generate::{GenerateReport, GenerateSettings, generate};

use std::fmt;

/// Why tuning failed.
#[derive(Debug)]
pub enum TuneError {
    /// The ruleset, its options or a game could not be set up.
    Session(chaturanga_session::SessionError),
    /// No ruleset of that id.
    Variant(chaturanga_variants::VariantError),
    /// The ruleset's evaluation is not the shared weighted one: nothing to fit.
    NotTunable(&'static str),
    /// A line of the positions file does not read.
    Sample {
        /// The line, from 1.
        line: usize,
        /// Why.
        message: String,
    },
    /// Too few positions to fit.
    TooFewSamples(usize),
    /// A piece to keep the value of is not one whose value is fitted.
    UnknownPiece(String),
    /// The ruleset evaluates with the default weights, which no family's file holds.
    NoFamily(String),
    /// The linear model of the evaluation is not the evaluation (a term is missing from the
    /// features: a bug).
    ModelMismatch {
        /// How far they disagree, in centipawns.
        difference: f64,
    },
    /// Reading or writing failed.
    Io(std::io::Error),
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::Session(e) => write!(f, "{e}"),
            TuneError::Variant(e) => write!(f, "{e}"),
            TuneError::NotTunable(id) => write!(
                f,
                "{id} does not evaluate with the shared weighted evaluation: nothing to tune"
            ),
            TuneError::Sample { line, message } => write!(f, "positions line {line}: {message}"),
            TuneError::TooFewSamples(n) => write!(
                f,
                "{n} usable positions: too few to fit (at least {} are needed)",
                fit::MIN_SAMPLES
            ),
            TuneError::UnknownPiece(symbol) => write!(
                f,
                "no piece {:?} with a fitted value (royal pieces have none)",
                symbol.chars().take(20).collect::<String>()
            ),
            TuneError::NoFamily(id) => write!(
                f,
                "{id} evaluates with the default weights: give it a family in \
                 crates/variants/weights (see docs/tuning.md) to tune them"
            ),
            TuneError::ModelMismatch { difference } => write!(
                f,
                "the features miss the evaluation by {difference:.0} cp: a term is missing"
            ),
            TuneError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TuneError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TuneError::Session(e) => Some(e),
            TuneError::Variant(e) => Some(e),
            TuneError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for TuneError {
    fn from(e: std::io::Error) -> Self {
        TuneError::Io(e)
    }
}

impl From<chaturanga_session::SessionError> for TuneError {
    fn from(e: chaturanga_session::SessionError) -> Self {
        TuneError::Session(e)
    }
}
