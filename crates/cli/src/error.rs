//! The one error type of the command line and its commands.

use chaturanga_arena::ArenaError;
use chaturanga_rules::{MoveError, OptionError, Outcome, SetupError};
use chaturanga_session::load::LoadError;
use chaturanga_session::{RecordFormat, SessionError};
use chaturanga_variants::VariantError;
use std::error::Error;
use std::fmt;

/// Why a command failed. Every variant that wraps another error keeps it as its
/// [`Error::source`].
#[derive(Debug)]
pub enum CliError {
    /// The command line does not say what to do; the message is one line.
    Usage(String),
    /// No ruleset of that id.
    Variant(VariantError),
    /// Bad rule options.
    Options(OptionError),
    /// A start position the ruleset cannot set up.
    Setup(SetupError),
    /// The game refused a FEN or could not be written.
    Session(SessionError),
    /// One of `--moves` (`index` from 1) was refused.
    Move {
        /// Which move, from 1.
        index: usize,
        /// Why.
        source: SessionError,
    },
    /// A legal move has no SAN.
    San(MoveError),
    /// `moves --notation NAME` with a notation the ruleset does not have.
    UnknownNotation {
        /// The notation asked for.
        notation: String,
        /// Ruleset id.
        variant: &'static str,
        /// The notations it has.
        known: Vec<&'static str>,
    },
    /// The ruleset lists whole turns, which only coordinate notation writes.
    WholeTurns(&'static str),
    /// `view` for a player the ruleset does not have.
    NoSuchPlayer {
        /// Ruleset id.
        variant: &'static str,
        /// Its players.
        players: usize,
    },
    /// `view` in a ruleset where everyone sees everything.
    NoHiddenInformation(&'static str),
    /// `record --format` with a format the ruleset has no records in.
    NoRecord {
        /// Ruleset id.
        variant: &'static str,
        /// The format asked for.
        format: RecordFormat,
        /// The rulesets that do have such records.
        offered_by: Vec<&'static str>,
    },
    /// `search` in a finished game.
    GameOver(Outcome),
    /// `--engine-plays` names no player.
    NoPlayerNamed {
        /// The word given.
        word: String,
        /// The words known.
        known: Vec<&'static str>,
    },
    /// The game server stopped with an error.
    Serve(Box<dyn Error>),
    /// A match could not be played.
    Match(ArenaError),
    /// Tuning the evaluation failed.
    Tune(chaturanga_tuner::TuneError),
    /// A file could not be created or written.
    WriteFile {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// A record file could not be read.
    ReadFile {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// A record file is not a game we can replay (its first bad move named in `source`).
    Load {
        /// The file.
        file: String,
        /// Why.
        source: LoadError,
    },
    /// Writing the output failed.
    Io(std::io::Error),
}

impl CliError {
    /// Process exit code for this error: 2 for the command line, 74 for output, else 1.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Io(_) | CliError::WriteFile { .. } | CliError::Match(ArenaError::Io(_)) => 74,
            _ => 1,
        }
    }
}

fn excerpt(text: &str) -> String {
    text.chars().take(20).collect()
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => write!(f, "{m}"),
            CliError::Variant(e) => write!(f, "{e}"),
            CliError::Options(e) => write!(f, "{e}"),
            CliError::Setup(e) => write!(f, "{e}"),
            CliError::Session(e) => write!(f, "{e}"),
            CliError::Move { index, source } => write!(f, "move {index}: {source}"),
            CliError::San(e) => write!(f, "{e}"),
            CliError::UnknownNotation {
                notation,
                variant,
                known,
            } => write!(
                f,
                "unknown notation {:?} for {variant} (known: {})",
                excerpt(notation),
                known.join(", ")
            ),
            CliError::WholeTurns(variant) => {
                write!(f, "{variant} lists whole turns in coordinate notation only")
            }
            CliError::NoSuchPlayer { variant, players } => {
                write!(f, "{variant} has {players} players")
            }
            CliError::NoHiddenInformation(variant) => write!(
                f,
                "{variant} has no hidden information: every player sees the whole position (fen)"
            ),
            CliError::NoRecord {
                variant,
                format,
                offered_by,
            } => {
                let name = format.extension().to_uppercase();
                write!(f, "{variant} has no {name} records")?;
                if !offered_by.is_empty() {
                    write!(f, " ({} has)", offered_by.join(", "))?;
                }
                Ok(())
            }
            CliError::GameOver(outcome) => write!(f, "the game is over: {outcome}"),
            CliError::NoPlayerNamed { word, known } => write!(
                f,
                "--engine-plays: no player {:?} (known: {})",
                excerpt(word),
                known.join(", ")
            ),
            CliError::Serve(e) => write!(f, "serve: {e}"),
            CliError::Match(e) => write!(f, "{e}"),
            CliError::Tune(e) => write!(f, "{e}"),
            CliError::Io(e) => write!(f, "cannot write output: {e}"),
            CliError::ReadFile { file, source } => write!(f, "cannot read {file}: {source}"),
            CliError::WriteFile { file, source } => write!(f, "cannot write {file}: {source}"),
            CliError::Load { file, source } => write!(f, "{file}: {source}"),
        }
    }
}

impl Error for CliError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            CliError::Variant(e) => Some(e),
            CliError::Options(e) => Some(e),
            CliError::Setup(e) => Some(e),
            CliError::Session(e) | CliError::Move { source: e, .. } => Some(e),
            CliError::San(e) => Some(e),
            CliError::Serve(e) => Some(e.as_ref()),
            CliError::Match(e) => Some(e),
            CliError::Tune(e) => Some(e),
            CliError::Io(e) => Some(e),
            CliError::ReadFile { source, .. } | CliError::WriteFile { source, .. } => Some(source),
            CliError::Load { source, .. } => Some(source),
            CliError::Usage(_)
            | CliError::UnknownNotation { .. }
            | CliError::WholeTurns(_)
            | CliError::NoSuchPlayer { .. }
            | CliError::NoHiddenInformation(_)
            | CliError::NoRecord { .. }
            | CliError::GameOver(_)
            | CliError::NoPlayerNamed { .. } => None,
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Io(e)
    }
}

impl From<VariantError> for CliError {
    fn from(e: VariantError) -> Self {
        CliError::Variant(e)
    }
}

impl From<OptionError> for CliError {
    fn from(e: OptionError) -> Self {
        CliError::Options(e)
    }
}

impl From<SetupError> for CliError {
    fn from(e: SetupError) -> Self {
        CliError::Setup(e)
    }
}

impl From<SessionError> for CliError {
    fn from(e: SessionError) -> Self {
        CliError::Session(e)
    }
}

impl From<chaturanga_tuner::TuneError> for CliError {
    fn from(e: chaturanga_tuner::TuneError) -> Self {
        CliError::Tune(e)
    }
}

impl From<ArenaError> for CliError {
    fn from(e: ArenaError) -> Self {
        CliError::Match(e)
    }
}
