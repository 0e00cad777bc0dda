//! Why the referee refuses a command: one typed error per rule, each with a stable code. The
//! HTTP status and the socket answer of each are chosen in one place, `api::error`.

use chaturanga_session::SessionError;
use std::fmt;
use std::time::Duration;

/// A command the referee refuses. A refused command changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// A write without a seat's token.
    Spectator,
    /// A token that is no seat's of this game.
    NotASeat,
    /// No seat of that number.
    NoSuchSeat(usize),
    /// A claim of a seat the engine holds.
    EngineSeat(usize),
    /// A move sent for an engine's seat.
    EngineMovesItself,
    /// A claim of a seat someone holds.
    SeatTaken(usize),
    /// The game has ended.
    Over,
    /// Human seats nobody has claimed yet.
    WaitingForSeats(Vec<usize>),
    /// An engine's move before every person has come.
    WaitingForPlayers,
    /// Not this seat's turn: the seats to move, with their players' names.
    NotYourTurn(Vec<(usize, &'static str)>),
    /// A move meant for another ply.
    StalePly {
        /// The ply the move was for.
        sent: usize,
        /// The game's ply.
        now: usize,
    },
    /// The mover's time ran out before the move arrived.
    TimeRanOut,
    /// The rules refuse the move or action (or its text is too long).
    Rules(SessionError),
    /// An answer to an offer nobody made (`draw`, `takeback`, `action`, `rematch`).
    NoOffer(&'static str),
    /// Another seat's offer of that kind waits for an answer first.
    OfferPending(&'static str),
    /// An answer to one's own offer.
    OwnOffer(&'static str),
    /// A draw offer to the engine.
    EngineDeclinesDraws,
    /// An abort after every side has moved.
    TooLateToAbort,
    /// A takeback by a seat that has not moved.
    NoMoveToTakeBack,
    /// Something only the player to move may do.
    OnlySideToMove,
    /// A draw claim no rule allows now.
    NoDrawToClaim,
    /// A resignation where more than two sides play: resign in favour of one of them.
    ResignInFavour(Vec<&'static str>),
    /// An action this game does not have now.
    UnknownAction {
        /// What was asked (cut short).
        given: String,
        /// The ruleset's actions available now.
        available: Vec<&'static str>,
    },
    /// A rematch of a game still in progress.
    NotOver,
    /// The rematch was made already: the game it made.
    RematchMade(String),
    /// A claim over an abandoned game where no other side has left.
    NotAbandoned,
    /// Too many actions: the next one is allowed after this long.
    RateLimited(Duration),
    /// A game that cannot be created as asked (seats, clock, options).
    BadGame(String),
    /// A start position where the game is already over, or nobody can move.
    FinishedPosition(String),
    /// A stored game that does not replay: the server's fault.
    Stored(String),
}

impl GameError {
    /// Every code [`GameError::code`] gives.
    pub const CODES: [&'static str; 33] = [
        "needs-seat",
        "bad-token",
        "no-such-seat",
        "engine-seat",
        "engine-moves-itself",
        "seat-taken",
        "game-over",
        "waiting-for-seats",
        "waiting-for-players",
        "not-your-turn",
        "stale-ply",
        "time-ran-out",
        "too-long",
        "unknown-variant",
        "bad-setup",
        "illegal",
        "no-offer",
        "offer-pending",
        "own-offer",
        "engine-declines-draws",
        "too-late-to-abort",
        "no-move-to-take-back",
        "only-side-to-move",
        "no-draw-to-claim",
        "resign-in-favour",
        "unknown-action",
        "not-over",
        "rematch-made",
        "not-abandoned",
        "rate-limited",
        "bad-game",
        "finished-position",
        "stored-game",
    ];

    /// The stable code of the error, for clients that show their own words for it.
    pub fn code(&self) -> &'static str {
        match self {
            GameError::Spectator => "needs-seat",
            GameError::NotASeat => "bad-token",
            GameError::NoSuchSeat(_) => "no-such-seat",
            GameError::EngineSeat(_) => "engine-seat",
            GameError::EngineMovesItself => "engine-moves-itself",
            GameError::SeatTaken(_) => "seat-taken",
            GameError::Over => "game-over",
            GameError::WaitingForSeats(_) => "waiting-for-seats",
            GameError::WaitingForPlayers => "waiting-for-players",
            GameError::NotYourTurn(_) => "not-your-turn",
            GameError::StalePly { .. } => "stale-ply",
            GameError::TimeRanOut => "time-ran-out",
            GameError::Rules(SessionError::TooLong(_)) => "too-long",
            GameError::Rules(SessionError::Variant(_)) => "unknown-variant",
            GameError::Rules(SessionError::Setup(_)) => "bad-setup",
            GameError::Rules(SessionError::Move(_)) => "illegal",
            GameError::NoOffer(_) => "no-offer",
            GameError::OfferPending(_) => "offer-pending",
            GameError::OwnOffer(_) => "own-offer",
            GameError::EngineDeclinesDraws => "engine-declines-draws",
            GameError::TooLateToAbort => "too-late-to-abort",
            GameError::NoMoveToTakeBack => "no-move-to-take-back",
            GameError::OnlySideToMove => "only-side-to-move",
            GameError::NoDrawToClaim => "no-draw-to-claim",
            GameError::ResignInFavour(_) => "resign-in-favour",
            GameError::UnknownAction { .. } => "unknown-action",
            GameError::NotOver => "not-over",
            GameError::RematchMade(_) => "rematch-made",
            GameError::NotAbandoned => "not-abandoned",
            GameError::RateLimited(_) => "rate-limited",
            GameError::BadGame(_) => "bad-game",
            GameError::FinishedPosition(_) => "finished-position",
            GameError::Stored(_) => "stored-game",
        }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Spectator => {
                write!(f, "this needs a seat's token (Authorization: Bearer TOKEN)")
            }
            GameError::NotASeat => write!(f, "the token is not a seat's of this game"),
            GameError::NoSuchSeat(seat) => write!(f, "the game has no seat {seat}"),
            GameError::EngineSeat(seat) => write!(f, "seat {seat} is the engine's"),
            GameError::EngineMovesItself => write!(f, "an engine seat moves by itself"),
            GameError::SeatTaken(seat) => write!(f, "seat {seat} is taken"),
            GameError::Over => write!(f, "the game is over"),
            GameError::WaitingForSeats(open) => {
                write!(f, "the game waits for seat(s) {open:?} to be claimed")
            }
            GameError::WaitingForPlayers => {
                write!(f, "the engine waits until every player has come")
            }
            GameError::NotYourTurn(movers) => {
                let names: Vec<String> = movers
                    .iter()
                    .map(|(seat, name)| format!("seat {seat} ({name})"))
                    .collect();
                write!(f, "not your turn: {} to move", names.join(" and "))
            }
            GameError::StalePly { sent, now } => write!(
                f,
                "the move is for ply {sent}, but the game is at ply {now}"
            ),
            GameError::TimeRanOut => write!(f, "your time ran out before the move arrived"),
            GameError::Rules(e) => write!(f, "{e}"),
            GameError::NoOffer(kind) => write!(f, "there is no {kind} offer to answer"),
            GameError::OfferPending(kind) => write!(
                f,
                "another seat's {kind} offer waits for an answer: accept or decline it first"
            ),
            GameError::OwnOffer(kind) => write!(f, "the other side must answer your {kind} offer"),
            GameError::EngineDeclinesDraws => write!(f, "the engine does not take draw offers"),
            GameError::TooLateToAbort => write!(
                f,
                "a game can be aborted only before every player has moved; resign instead"
            ),
            GameError::NoMoveToTakeBack => write!(f, "you have no move to take back"),
            GameError::OnlySideToMove => write!(f, "only the player to move may do that"),
            GameError::NoDrawToClaim => write!(f, "no draw can be claimed now"),
            GameError::ResignInFavour(actions) => write!(
                f,
                "with more than two sides, resign in favour of a player: {}",
                actions.join(", ")
            ),
            GameError::UnknownAction { given, available } => write!(
                f,
                "unknown action {given:?} (resign, draw-offer, draw-accept, draw-decline, \
                 draw-claim, takeback-offer, takeback-accept, takeback-decline, abort, \
                 rematch-offer, rematch-accept, rematch-decline, claim-victory, call-draw{})",
                available
                    .iter()
                    .map(|a| format!(", {a}"))
                    .collect::<String>()
            ),
            GameError::NotOver => write!(f, "a rematch can be asked for once the game is over"),
            GameError::RematchMade(id) => write!(f, "the rematch was made: game {id}"),
            GameError::NotAbandoned => {
                write!(f, "no other side has left the game long enough for a claim")
            }
            GameError::RateLimited(wait) => write!(
                f,
                "too many actions; try again in {:.1} s",
                wait.as_secs_f64()
            ),
            GameError::BadGame(why) | GameError::FinishedPosition(why) => write!(f, "{why}"),
            GameError::Stored(why) => write!(f, "the stored game does not replay: {why}"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<SessionError> for GameError {
    fn from(e: SessionError) -> Self {
        GameError::Rules(e)
    }
}
