//! One error type for every request, mapped to a response in one place.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chaturanga_session::SessionError;

/// What went wrong with a request: a status and one line naming it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (4xx for the caller's mistakes, 5xx for ours).
    pub status: StatusCode,
    /// One line naming what is wrong.
    pub message: String,
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
            message: line,
        }
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
        match e {
            SessionError::Variant(m) => ApiError::not_found(m),
            SessionError::Setup(m) => ApiError::bad_request(m),
            SessionError::Move(m) => ApiError::unprocessable(m),
            SessionError::TooLong(what) => {
                ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("{what} is too long"))
            }
        }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        match e {
            crate::store::StoreError::Stale => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, format!("store: {e}"))
            }
            crate::store::StoreError::Backend(_) => ApiError::internal(format!("store: {e}")),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}
