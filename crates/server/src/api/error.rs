//! One error type for every answer, and the one place where every refusal — the referee's,
//! the store's, the machinery's — gets its HTTP status, its stable code and its line. The
//! socket answers with the same line and code.

use super::listing::ListingError;
use crate::bus::RemoteError;
use crate::live::LiveError;
use crate::quota::Refusal;
use crate::referee::GameError;
use crate::render::RecordRefusal;
use crate::store::StoreError;
use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chaturanga_session::SessionError;

/// What went wrong with a request: a status, a stable code where the refusal has one, and
/// one line naming it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (4xx for the caller's mistakes, 5xx for ours).
    pub status: StatusCode,
    /// The stable code of the refusal (`not-your-turn`), for clients that word it themselves.
    pub code: Option<&'static str>,
    /// One line naming what is wrong.
    pub message: String,
    /// When to try again (a `Retry-After` header), for refusals of too much too soon.
    pub retry_after: Option<std::time::Duration>,
}

impl ApiError {
    /// 400: a malformed or invalid request.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 401: no token, or one that is not a seat's.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message)
    }

    /// 403: the caller may not do this.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }

    /// 404: no such game, seat or ruleset.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: the request conflicts with the game's state (stale ply, seat taken, not your
    /// turn, game over).
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, message)
    }

    /// 422: a well-formed move or action the rules refuse.
    pub fn unprocessable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 500: the server failed (the store); the message says where.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    /// An error with any status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        let message: String = message.into();
        // One line, of bounded length: messages may quote the caller's input.
        let mut line: String = message
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(300)
            .collect();
        if line.is_empty() {
            line = status.canonical_reason().unwrap_or("error").to_string();
        }
        ApiError {
            status,
            code: None,
            message: line,
            retry_after: None,
        }
    }

    /// The same error telling when to try again.
    pub fn with_retry_after(mut self, wait: std::time::Duration) -> Self {
        self.retry_after = Some(wait);
        self
    }

    /// The same error with a stable code.
    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.status.as_u16())
    }
}

impl std::error::Error for ApiError {}

impl From<SessionError> for ApiError {
    fn from(e: SessionError) -> Self {
        ApiError::from(GameError::Rules(e))
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> Self {
        use GameError as G;
        let status = match &e {
            G::Spectator | G::NotASeat => StatusCode::UNAUTHORIZED,
            G::EngineMovesItself => StatusCode::FORBIDDEN,
            G::NoSuchSeat(_) | G::Rules(SessionError::Variant(_)) => StatusCode::NOT_FOUND,
            G::Rules(SessionError::TooLong(_)) => StatusCode::PAYLOAD_TOO_LARGE,
            G::Rules(SessionError::Setup(_)) | G::UnknownAction { .. } | G::BadGame(_) => {
                StatusCode::BAD_REQUEST
            }
            G::Rules(SessionError::Move(_))
            | G::NoDrawToClaim
            | G::ResignInFavour(_)
            | G::FinishedPosition(_) => StatusCode::UNPROCESSABLE_ENTITY,
            G::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            G::Stored(_) => StatusCode::INTERNAL_SERVER_ERROR,
            G::EngineSeat(_)
            | G::SeatTaken(_)
            | G::Over
            | G::WaitingForSeats(_)
            | G::WaitingForPlayers
            | G::NotYourTurn(_)
            | G::StalePly { .. }
            | G::TimeRanOut
            | G::NoOffer(_)
            | G::OfferPending(_)
            | G::OwnOffer(_)
            | G::EngineDeclinesDraws
            | G::TooLateToAbort
            | G::NoMoveToTakeBack
            | G::OnlySideToMove
            | G::NotOver
            | G::RematchMade(_)
            | G::NotAbandoned => StatusCode::CONFLICT,
        };
        let error = ApiError::new(status, e.to_string()).with_code(e.code());
        match e {
            G::RateLimited(wait) => error.with_retry_after(wait),
            _ => error,
        }
    }
}

impl From<ListingError> for ApiError {
    fn from(e: ListingError) -> Self {
        ApiError::bad_request(e.to_string()).with_code(e.code())
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        let message = refusal.to_string();
        match refusal {
            Refusal::TooFast {
                total: false,
                retry_after,
                ..
            } => ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
                .with_code("rate-limited")
                .with_retry_after(retry_after),
            Refusal::TooFast {
                total: true,
                retry_after,
                ..
            } => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
                .with_code("server-busy")
                .with_retry_after(retry_after),
            Refusal::TooMany { total: false, .. } => {
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, message).with_code("too-many")
            }
            Refusal::TooMany { total: true, .. } => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
                    .with_code("server-busy")
                    .with_retry_after(std::time::Duration::from_secs(5))
            }
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Stale => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, format!("store: {e}"))
                    .with_code("try-again")
            }
            StoreError::Backend(_) | StoreError::InUse(_) => {
                ApiError::internal(format!("store: {e}")).with_code("store")
            }
        }
    }
}

impl From<LiveError> for ApiError {
    fn from(e: LiveError) -> Self {
        match e {
            LiveError::Game(e) => e.into(),
            LiveError::Store(e) => e.into(),
            LiveError::NoGame(id) => {
                ApiError::not_found(format!("no game {id:?}")).with_code("no-such-game")
            }
            LiveError::NoPosition { ply, plies } => ApiError::not_found(format!(
                "no position after {ply} moves: the game has {plies}"
            ))
            .with_code("no-such-position"),
            LiveError::AheadOf { given, version } => {
                ApiError::bad_request(format!("version {given} is ahead of the game's {version}"))
                    .with_code("version-ahead")
            }
            LiveError::Record(RecordRefusal::Hidden) => ApiError::forbidden(
                "the record of a game with hidden men is shown when the game is over",
            )
            .with_code("record-hidden"),
            LiveError::Record(RecordRefusal::Format(why)) => {
                ApiError::bad_request(why).with_code("record-format")
            }
            LiveError::Stopped => {
                ApiError::internal("the game's task has stopped; try again").with_code("try-again")
            }
            LiveError::Moved => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the node running this game is gone or did not answer; another takes it over \
                 in a few seconds: try again",
            )
            .with_code("try-again"),
            LiveError::Remote(RemoteError {
                status,
                code,
                message,
            }) => {
                let status =
                    StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                let mut error = ApiError::new(status, message);
                // The codes are this server's own words, so the other node's is one of them.
                error.code = code.and_then(|c| known_code(&c));
                error
            }
        }
    }
}

/// The code `code` as this server spells it, if it is one of its codes.
fn known_code(code: &str) -> Option<&'static str> {
    const OTHERS: [&str; 13] = [
        "try-again",
        "store",
        "no-such-game",
        "no-such-position",
        "version-ahead",
        "record-hidden",
        "record-format",
        "rate-limited",
        "too-many",
        "server-busy",
        "unsupported-media-type",
        "body-too-large",
        "timeout",
    ];
    GameError::CODES
        .iter()
        .chain(&OTHERS)
        .chain(&ListingError::CODES)
        .find(|c| **c == code)
        .copied()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            match self.code {
                Some(code) => Json(serde_json::json!({ "error": self.message, "code": code })),
                None => Json(serde_json::json!({ "error": self.message })),
            },
        )
            .into_response();
        if let Some(wait) = self.retry_after {
            // Whole seconds, rounded up: a client waiting that long is let in.
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
        }
        response
    }
}
