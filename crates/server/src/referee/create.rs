//! New games: what a client asks for, checked, as the row to store.

use super::{Event, Fresh, GameError};
use crate::clock::{ClockSpec, GameClock};
use crate::store::{GameRow, GameStatus, NewGameRow, Pending, SeatKind, SeatRow};
use chaturanga_rules::{OptionValues, SeedValue};
use chaturanga_session::{open_table, option_specs};

/// A new game as asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The ruleset.
    pub variant: String,
    /// Rule options (`name=value`); the secret ones are drawn here.
    pub options: Vec<String>,
    /// The start position, if not the ruleset's.
    pub fen: Option<String>,
    /// The clock; without one, the ruleset's own where it prescribes one (bughouse).
    pub clock: Option<ClockSpec>,
    /// Each seat's kind.
    pub seats: Vec<SeatKind>,
    /// The seat its creator takes, with his token's hash.
    pub me: Option<(usize, String)>,
    /// In the lobby's listings and the archive; `false` for a game shared by link only.
    pub listed: bool,
    /// Who creates it: a digest of the client's address.
    pub creator: Option<String>,
    /// For a game of engines only, the hash of the token that may stop it.
    pub owner_hash: Option<String>,
}

/// The names of the options of `variant` that the server draws at random and keeps secret.
pub fn secret_option_specs(variant: &str) -> Result<Vec<&'static str>, GameError> {
    Ok(option_specs(variant)?
        .iter()
        .filter(|spec| spec.values == OptionValues::Seed)
        .map(|spec| spec.name)
        .collect())
}

/// Letters of game ids: no look-alikes (`l`, `1`, `0`, `O`, `I`).
const ID_LETTERS: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// The game asked for as the row to store with its first event, or why it cannot be made: a
/// ruleset, options, position or clock the rules refuse, seats that do not fit, or a start
/// position where the game is already over. Its id and secret options come from `fresh`.
pub fn new_game(spec: NewGame, fresh: &Fresh) -> Result<NewGameRow, GameError> {
    let secrets = secret_option_specs(&spec.variant)?;
    if let Some(given) = spec
        .options
        .iter()
        .find(|o| secrets.iter().any(|name| o.split('=').next() == Some(name)))
    {
        return Err(GameError::BadGame(format!(
            "{} is drawn at random by the server and kept secret until the game ends",
            given.split('=').next().unwrap_or(given)
        )));
    }
    // A key of its own for each secret; never a number, which could be found by trying them
    // all (numbers stay readable for the games stored with them). Too many secrets is
    // unreachable while every ruleset fits, which a test checks.
    if secrets.len() > fresh.secrets.len() {
        return Err(GameError::BadGame(format!(
            "{} has {} secret options, more than the server draws keys for",
            spec.variant,
            secrets.len()
        )));
    }
    let secret_options: Vec<String> = secrets
        .iter()
        .zip(&fresh.secrets)
        .map(|(name, &key)| format!("{name}={}", SeedValue::Key(key)))
        .collect();
    let options: Vec<String> = spec
        .options
        .iter()
        .chain(&secret_options)
        .cloned()
        .collect();
    let table = open_table(&spec.variant, &options, spec.fen.as_deref())?;
    let players = table.players();
    if spec.seats.len() != players {
        return Err(GameError::BadGame(format!(
            "{} needs {players} seats, not {}",
            spec.variant,
            spec.seats.len()
        )));
    }
    if let Some((me, _)) = &spec.me
        && spec.seats.get(*me) != Some(&SeatKind::Human)
    {
        return Err(GameError::BadGame(format!(
            "seat {me} is not a human seat of this game"
        )));
    }
    if let Some(finished) = table.finished() {
        return Err(GameError::FinishedPosition(format!(
            "the game is over in this position ({} by {})",
            finished.result,
            finished.reason.as_str()
        )));
    }
    if table
        .movers()
        .iter()
        .all(|&m| table.legal_for(m).is_empty())
    {
        return Err(GameError::FinishedPosition(
            "no one can move in this position".into(),
        ));
    }
    // A game given no clock keeps the one its ruleset prescribes (bughouse's options).
    let clock = spec
        .clock
        .or_else(|| table.own_clock().and_then(ClockSpec::of));
    let clock_state = match &clock {
        Some(clock) => {
            let control = clock.control().map_err(GameError::BadGame)?;
            Some(GameClock::new(control, players).stored())
        }
        None => None,
    };
    let id: String = fresh
        .id
        .iter()
        .map(|&b| ID_LETTERS[b as usize % ID_LETTERS.len()] as char)
        .collect();
    let seats = spec
        .seats
        .iter()
        .enumerate()
        .map(|(n, &kind)| SeatRow {
            kind,
            token_hash: spec
                .me
                .as_ref()
                .filter(|(me, _)| *me == n)
                .map(|(_, hash)| hash.clone()),
            arrived: false,
        })
        .collect();
    let created = Event::Created {
        variant: spec.variant.clone(),
        secret: secret_options.len(),
    };
    Ok(NewGameRow {
        game: GameRow {
            id,
            variant: spec.variant,
            options,
            fen: spec.fen,
            clock,
            status: GameStatus::Live,
            ending: None,
            version: 1,
            clock_state,
            pending: Pending::default(),
            created_ms: fresh.unix_ms,
            active_ms: fresh.unix_ms,
            listed: spec.listed,
            rematch: None,
            creator: spec.creator,
            owner_hash: spec.owner_hash,
            seats,
            moves: Vec::new(),
        },
        events: vec![created.row(1, None)],
    })
}
