//! One error type for every answer, and the one place where every refusal — the referee's,
//! the store's, the machinery's — gets its HTTP status, its stable code and its line. The
//! socket answers with the same line and code. Every error has a code (a constructor takes
//! one), and [`codes`] lists them all, as `docs/server.md` explains them.

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

/// What went wrong with a request: a status, a stable code and one line naming it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (4xx for the caller's mistakes, 5xx for ours).
    pub status: StatusCode,
    /// The stable code of the refusal (`not-your-turn`), for clients that word it themselves:
    /// one of [`codes`], each explained in `docs/server.md`.
    pub code: &'static str,
    /// One line naming what is wrong, in English.
    pub message: String,
    /// When to try again (a `Retry-After` header), for refusals of too much too soon.
    pub retry_after: Option<std::time::Duration>,
}

impl ApiError {
    /// 400: a malformed or invalid request.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 401: no token, or one that is not a seat's.
    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, code, message)
    }

    /// 403: the caller may not do this.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }

    /// 404: no such game, seat or ruleset.
    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, message)
    }

    /// 500: the server failed; the message says where. Its code is `internal`: a client can
    /// only say that the server failed.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    /// An error with any status and code.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
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
            code,
            message: line,
            retry_after: None,
        }
    }

    /// A refusal the server's own code did not word, by its status alone (axum's refusals: a
    /// query string that does not parse, a method a route does not take; the answer timeout):
    /// the code names the status.
    pub fn of_status(status: StatusCode, message: impl Into<String>) -> Self {
        Self::new(status, code_of_status(status), message)
    }

    /// The same error telling when to try again.
    pub fn with_retry_after(mut self, wait: std::time::Duration) -> Self {
        self.retry_after = Some(wait);
        self
    }
}

/// The code of a refusal known only by its status.
fn code_of_status(status: StatusCode) -> &'static str {
    match status.as_u16() {
        401 => "bad-token",
        403 => "forbidden",
        404 => "not-found",
        405 => "method-not-allowed",
        408 => "timeout",
        409 => "conflict",
        413 => "body-too-large",
        414 => "uri-too-long",
        415 => "unsupported-media-type",
        422 => "unprocessable",
        426 => "upgrade-required",
        429 => "rate-limited",
        503 => "unavailable",
        // 400, and any other refusal of the request.
        400..=499 => "bad-request",
        _ => "internal",
    }
}

/// The codes of this module's refusals and of the request plumbing (`api`, `web`), beside
/// the referee's ([`GameError::CODES`]) and the listings' ([`ListingError::CODES`]).
const OTHER_CODES: [&str; 33] = [
    // The store and the game's task.
    "try-again",
    "store",
    "internal",
    "no-such-game",
    "no-such-position",
    "version-ahead",
    "record-hidden",
    "record-format",
    // Quotas and limits.
    "rate-limited",
    "too-many",
    "server-busy",
    "unsupported-media-type",
    "body-too-large",
    "timeout",
    "bad-length",
    // Requests the handlers refuse.
    "bad-body",
    "bad-json",
    "bad-authorization",
    "too-many-options",
    "bad-level",
    "engines-only-off",
    "bad-ply",
    "bad-message",
    "no-such-page",
    "no-such-file",
    // Refusals known by their status (`code_of_status`) beyond the codes above.
    "bad-request",
    "forbidden",
    "not-found",
    "method-not-allowed",
    "conflict",
    "unprocessable",
    "upgrade-required",
    "unavailable",
];

/// Every code an answer of this server may carry, the referee's first. The connection layer
/// (`connections`) answers a few before a request is read, with codes of its own:
/// [`CONNECTION_CODES`].
pub fn codes() -> impl Iterator<Item = &'static str> {
    GameError::CODES
        .into_iter()
        .chain(ListingError::CODES)
        .chain(OTHER_CODES)
        .chain(CONNECTION_CODES)
}

/// The codes of the answers written before a request is read (`connections`): a head too
/// large, an address too long, a version not served, bytes that are no request; and the
/// connection caps' `too-many` and `server-busy`, which are above.
pub const CONNECTION_CODES: [&str; 3] = ["head-too-large", "uri-too-long", "bad-version"];

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
        let error = ApiError::new(status, e.code(), e.to_string());
        match e {
            G::RateLimited(wait) => error.with_retry_after(wait),
            _ => error,
        }
    }
}

impl From<ListingError> for ApiError {
    fn from(e: ListingError) -> Self {
        ApiError::bad_request(e.code(), e.to_string())
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
            } => ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate-limited", message)
                .with_retry_after(retry_after),
            Refusal::TooFast {
                total: true,
                retry_after,
                ..
            } => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server-busy", message)
                .with_retry_after(retry_after),
            Refusal::TooMany { total: false, .. } => {
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too-many", message)
            }
            Refusal::TooMany { total: true, .. } => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server-busy", message)
                    .with_retry_after(std::time::Duration::from_secs(5))
            }
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Stale => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "try-again",
                format!("store: {e}"),
            ),
            StoreError::Backend(_) | StoreError::InUse(_) => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "store",
                format!("store: {e}"),
            ),
        }
    }
}

impl From<LiveError> for ApiError {
    fn from(e: LiveError) -> Self {
        match e {
            LiveError::Game(e) => e.into(),
            LiveError::Store(e) => e.into(),
            LiveError::NoGame(id) => ApiError::not_found("no-such-game", format!("no game {id:?}")),
            LiveError::NoPosition { ply, plies } => ApiError::not_found(
                "no-such-position",
                format!("no position after {ply} moves: the game has {plies}"),
            ),
            LiveError::AheadOf { given, version } => ApiError::bad_request(
                "version-ahead",
                format!("version {given} is ahead of the game's {version}"),
            ),
            LiveError::Record(RecordRefusal::Hidden) => ApiError::forbidden(
                "record-hidden",
                "the record of a game with hidden men is shown when the game is over",
            ),
            LiveError::Record(RecordRefusal::Format(why)) => {
                ApiError::bad_request("record-format", why)
            }
            LiveError::Stopped => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "try-again",
                "the game's task has stopped; try again",
            ),
            LiveError::Moved => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "try-again",
                "the node running this game is gone or did not answer; another takes it over \
                 in a few seconds: try again",
            ),
            LiveError::Remote(RemoteError {
                status,
                code,
                message,
            }) => {
                let status =
                    StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                // The codes are this server's own words, so the other node's is one of them;
                // a node of another version may have one this one does not know, or none.
                match code.and_then(|c| known_code(&c)) {
                    Some(code) => ApiError::new(status, code, message),
                    None => ApiError::of_status(status, message),
                }
            }
        }
    }
}

/// The code `code` as this server spells it, if it is one of its codes.
fn known_code(code: &str) -> Option<&'static str> {
    codes().find(|c| *c == code)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(serde_json::json!({ "error": self.message, "code": self.code })),
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_code_is_explained_in_the_docs_and_the_docs_explain_no_other() {
        let docs = include_str!("../../../../docs/server.md");
        let explained: BTreeSet<&str> = docs
            .lines()
            .filter_map(|line| line.strip_prefix("| `"))
            .filter_map(|rest| rest.split('`').next())
            .collect();
        let codes: BTreeSet<&str> = codes().collect();
        assert_eq!(explained, codes);
        for code in &codes {
            assert!(
                code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{code}"
            );
        }
    }

    #[test]
    fn a_refusal_known_by_its_status_alone_still_has_a_code_of_the_list() {
        for status in [
            400, 401, 403, 404, 405, 408, 409, 413, 414, 415, 418, 422, 426, 429, 500, 502, 503,
        ] {
            let status = StatusCode::from_u16(status).unwrap();
            let error = ApiError::of_status(status, "");
            assert!(known_code(error.code).is_some(), "{status}: {}", error.code);
            assert_eq!(error.message, status.canonical_reason().unwrap());
        }
        // A code of another node is kept where this node knows it, else its status speaks.
        let remote = |code: Option<&str>| {
            ApiError::from(LiveError::Remote(RemoteError {
                status: 409,
                code: code.map(str::to_string),
                message: "no".into(),
            }))
            .code
        };
        assert_eq!(remote(Some("not-your-turn")), "not-your-turn");
        assert_eq!(remote(Some("brand-new-code")), "conflict");
        assert_eq!(remote(None), "conflict");
    }
}
