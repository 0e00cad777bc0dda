//! The HTTP API: JSON in, JSON out, errors as `{"error": "...", "code": "..."}` with a 4xx
//! status (`error`: the one place statuses are chosen).

mod compressed;
pub mod error;
mod listing;
mod lobby;

pub(crate) use listing::summary_json;
pub mod socket;
mod variants;
pub mod web;

pub use variants::warm as warm_variants;

use crate::app::AppState;
use crate::clock::ClockSpec;
use crate::connections::Client;
use crate::live::{self, Answer, Who};
use crate::quota::{Quotas, Refusal, Spend};
use crate::referee::GameError;
use crate::referee::NewGame;
use crate::store::SeatKind;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use error::ApiError;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// Largest request body accepted.
pub const MAX_BODY: usize = 16 * 1024;
/// Most rule options in a request.
const MAX_OPTIONS: usize = 16;

/// The API's routes over `state`, within its quotas.
pub fn router(state: AppState) -> Router {
    let limits = state.quotas().limits().clone();
    Router::new()
        .route("/api/variants", get(variants::list))
        .route("/api/games", post(create_game).get(listing::list_games))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/seats/{n}/join", post(join))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/positions/{ply}", get(position))
        .route("/api/games/{id}/socket", get(socket::upgrade))
        .route("/api/lobby/socket", get(lobby::upgrade))
        .merge(web::router())
        .fallback(web::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            limits.body_timeout,
        ))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            limits.answer_timeout,
        ))
        .layer(axum::middleware::from_fn_with_state(state.clone(), admit))
        .layer(axum::middleware::map_response(json_refusals))
        .layer(axum::middleware::map_response(safety_headers))
        .with_state(state)
}

/// Lets a request in if its client has requests left and its body is not announced longer
/// than any the server reads (refused before a byte of it is read).
async fn admit(
    State(state): State<AppState>,
    client: Client,
    request: Request,
    next: Next,
) -> Response {
    if let Err(refusal) = state.quotas().spend(client.0, Spend::Request) {
        return ApiError::from(refusal).into_response();
    }
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().parse::<u64>());
    match announced {
        Some(Ok(length)) if length > MAX_BODY as u64 => {
            return too_large().into_response();
        }
        Some(Err(_)) => {
            return ApiError::bad_request("bad-length", "Content-Length is not a number")
                .into_response();
        }
        _ => {}
    }
    next.run(request).await
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "body-too-large",
        format!("the body is larger than {MAX_BODY} bytes"),
    )
}

/// Headers every answer carries: no type sniffing, and no address of ours in other sites'
/// logs.
async fn safety_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    response
}

/// Makes every refusal JSON: axum's own (a path or query string that does not parse, a
/// method a route does not take) are plain text or empty. Found by the `server` fuzz target.
async fn json_refusals(response: Response) -> Response {
    let status = response.status();
    // JSON already, or the page itself for a browser at an unknown address.
    let typed = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| {
            v.as_bytes().starts_with(b"application/json") || v.as_bytes().starts_with(b"text/html")
        });
    if typed || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let message = match text.trim() {
        "" => status.canonical_reason().unwrap_or("refused"),
        text => text,
    };
    let json = ApiError::of_status(status, message).into_response();
    // Keep what the refusal says in its headers (`Allow` after a 405).
    parts.headers.remove(header::CONTENT_LENGTH);
    let (json_parts, json_body) = json.into_parts();
    parts.headers.extend(json_parts.headers);
    Response::from_parts(parts, json_body)
}

/// A JSON body read by our rules: a size cap and every failure as an [`ApiError`].
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        // A form of another site may post text/plain anywhere without asking; JSON it may not.
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported-media-type",
                "the body must be JSON, sent with Content-Type: application/json",
            ));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                too_large()
            } else if came_too_slowly(&e) {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "timeout",
                    "the body came too slowly",
                )
            } else {
                ApiError::bad_request("bad-body", format!("unreadable body: {e}"))
            }
        })?;
        parse_json(&bytes).map(Body)
    }
}

/// Whether a body could not be read because it did not come in time.
fn came_too_slowly(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if e.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        cause = e.source();
    }
    false
}

/// Reads JSON, naming what is wrong with it.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad_request("bad-json", format!("bad JSON: {e}")))
}

/// 128 random bits as hex.
pub fn new_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::internal(format!("no randomness: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The stored form of a token.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Who a request's token says the caller is: the holder of a token (which the game's task
/// finds the seat of), or a spectator without one.
pub fn who(token: Option<&str>) -> Result<Who, ApiError> {
    match token {
        None => Ok(Who::Spectator),
        Some(token) if token.len() > 128 => Err(GameError::NotASeat.into()),
        Some(token) => Ok(Who::Token(token_hash(token))),
    }
}

fn bearer(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value.to_str().map_err(|_| {
        ApiError::unauthorized("bad-authorization", "the Authorization header is not text")
    })?;
    value
        .strip_prefix("Bearer ")
        .map(|t| Some(t.trim()))
        .ok_or_else(|| {
            ApiError::unauthorized(
                "bad-authorization",
                "the Authorization header must be `Bearer TOKEN`",
            )
        })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateGame {
    variant: String,
    #[serde(default)]
    options: Vec<String>,
    fen: Option<String>,
    clock: Option<ClockSpec>,
    seats: Vec<SeatSpec>,
    me: Option<usize>,
    /// In the lobby's listings (default); `false` for a game shared by link only.
    listed: Option<bool>,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum SeatSpec {
    Human,
    Engine { level: u8 },
}

async fn create_game(
    State(state): State<AppState>,
    client: Client,
    Body(request): Body<CreateGame>,
) -> Result<Response, ApiError> {
    if request.options.len() > MAX_OPTIONS || request.options.iter().any(|o| o.len() > 200) {
        return Err(ApiError::bad_request(
            "too-many-options",
            format!("at most {MAX_OPTIONS} options of at most 200 characters"),
        ));
    }
    if request.variant.len() > 64 {
        return Err(ApiError::not_found("unknown-variant", "no such ruleset"));
    }
    let seats = request
        .seats
        .iter()
        .map(|s| match *s {
            SeatSpec::Human => Ok(SeatKind::Human),
            SeatSpec::Engine { level } if (1..=8).contains(&level) => Ok(SeatKind::Engine(level)),
            SeatSpec::Engine { level } => Err(ApiError::bad_request(
                "bad-level",
                format!("engine level {level} is not 1-8"),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let quotas = state.quotas();
    let engines_only = !seats.is_empty() && seats.iter().all(|s| *s != SeatKind::Human);
    // A game the server will not make spends nothing: the refusals come first.
    if engines_only {
        let cap = quotas.limits().engine_only_games;
        if cap == 0 {
            return Err(ApiError::forbidden(
                "engines-only-off",
                "games of engines only are off on this server (chaturanga serve \
                 --engine-only-games N turns them on)",
            ));
        }
        let running = state
            .running_games()
            .iter()
            .filter(|g| g.is_live_engines_only())
            .count();
        if running >= cap {
            return Err(ApiError::from(Refusal::TooMany {
                what: "games of engines only",
                cap,
                total: true,
            }));
        }
    }
    quotas.spend(client.0, Spend::Game)?;
    if seats.iter().any(|s| *s != SeatKind::Human) {
        quotas.spend(client.0, Spend::EngineGame)?;
    }
    // The token of the seat its creator takes, or, for a game of engines only, the one
    // that may stop it.
    let token = match (request.me, engines_only) {
        (Some(_), _) | (None, true) => Some(new_token()?),
        (None, false) => None,
    };
    let spec = NewGame {
        variant: request.variant,
        options: request.options,
        fen: request.fen,
        clock: request.clock,
        seats,
        me: request.me.zip(token.as_deref().map(token_hash)),
        listed: request.listed.unwrap_or(true),
        creator: Some(client.0.digest()),
        owner_hash: token.as_deref().filter(|_| engines_only).map(token_hash),
    };
    let fresh = crate::live::fresh()?;
    let store = state.store().clone();
    let id = tokio::task::spawn_blocking(move || {
        let row = crate::referee::new_game(spec, &fresh)?;
        store.create(&row.game, &row.events)?;
        Ok::<_, ApiError>(row.game.id)
    })
    .await
    .map_err(|e| ApiError::internal(format!("store task: {e}")))??;
    // Start its task now, so that its clocks and engines go on without a visitor.
    state.game(&id).await?;
    let mut answer = json!({ "id": id });
    if let Some(token) = token {
        answer["token"] = json!(token);
    }
    Ok((StatusCode::CREATED, axum::Json(answer)).into_response())
}

async fn game_state(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<axum::Json<Value>, ApiError> {
    let who = who(bearer(&headers)?)?;
    let game = state.game(&id).await?;
    let value = game
        .ask(|reply| live::Request::State { who, reply })
        .await?;
    Ok(axum::Json(value))
}

async fn join(
    State(state): State<AppState>,
    client: Client,
    Path((id, seat)): Path<(String, String)>,
) -> Result<axum::Json<Value>, ApiError> {
    state.quotas().spend(client.0, Spend::Join)?;
    let game = state.game(&id).await?;
    let seat: usize = seat.parse().map_err(|_| {
        ApiError::not_found(
            "no-such-seat",
            format!("no seat {:?}", seat.chars().take(10).collect::<String>()),
        )
    })?;
    let token = new_token()?;
    let hash = token_hash(&token);
    game.ask(|reply| live::Request::Join {
        seat,
        token_hash: hash,
        reply,
    })
    .await?;
    Ok(axum::Json(json!({ "token": token, "seat": seat })))
}

/// A move as the HTTP API takes it (the socket's move message has the same fields and an
/// `ack`, read with the same types).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move.
    #[serde(rename = "move")]
    pub text: String,
    /// The ply it is meant for: a whole number, or none.
    pub ply: Option<usize>,
    /// How long the player thought, in milliseconds (lag compensation).
    pub think_ms: Option<u64>,
}

async fn play(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(request): Body<MoveRequest>,
) -> Result<axum::Json<Value>, ApiError> {
    let who = who(bearer(&headers)?)?;
    let game = state.game(&id).await?;
    let value = game
        .ask(|reply| live::Request::Move {
            who,
            text: request.text,
            ply: request.ply,
            thought: request.think_ms.map(std::time::Duration::from_millis),
            // Nothing is measured on a request of its own: the margin alone is forgiven.
            measured_lag: None,
            answer: Answer::State,
            reply,
        })
        .await?;
    Ok(axum::Json(value.unwrap_or(Value::Null)))
}

/// An action as the HTTP API and the socket take it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// Its name.
    pub action: String,
}

/// Spends what an action costs its client: an action, and a new game where it may make one
/// (a rematch is created by the offer or the answer that completes it).
pub fn spend_on_action(quotas: &Quotas, client: Client, action: &str) -> Result<(), Refusal> {
    quotas.spend(client.0, Spend::Action)?;
    if matches!(action, "rematch-offer" | "rematch-accept") {
        quotas.spend(client.0, Spend::Game)?;
    }
    Ok(())
}

/// Longest action name read.
pub const MAX_ACTION: usize = 64;

async fn act(
    State(state): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(request): Body<ActionRequest>,
) -> Result<axum::Json<Value>, ApiError> {
    spend_on_action(state.quotas(), client, &request.action)?;
    let who = who(bearer(&headers)?)?;
    let game = state.game(&id).await?;
    let action: String = request.action.chars().take(MAX_ACTION).collect();
    let value = game
        .ask(|reply| live::Request::Act {
            who,
            action,
            answer: Answer::State,
            reply,
        })
        .await?;
    Ok(axum::Json(value.unwrap_or(Value::Null)))
}

#[derive(Deserialize)]
struct RecordQuery {
    format: Option<String>,
    /// The language of the event (`hu`); English for any other value.
    lang: Option<String>,
}

async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<RecordQuery>,
) -> Result<Response, ApiError> {
    let who = who(bearer(&headers)?)?;
    let game = state.game(&id).await?;
    let base = base_url(&headers);
    let lang = query
        .lang
        .as_deref()
        .and_then(chaturanga_variants::words::language)
        .unwrap_or("en");
    let (text, extension) = game
        .ask(|reply| live::Request::Record {
            who,
            format: query.format,
            base,
            lang,
            reply,
        })
        .await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_LANGUAGE, lang.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{id}.{extension}\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// Longest `Host` header taken for a record's site.
const MAX_HOST: usize = 255;

/// The server's address as the client reached it, for the site of its records:
/// `scheme://host` from the `Host` header, the scheme `https` where `X-Forwarded-Proto` says so
/// (a proxy that ends TLS: docs/deployment.md) and `http` otherwise; `None` for a host that is
/// no plain name, address or port (what a client sends is only ever written into its own
/// record, but never verbatim).
fn base_url(headers: &HeaderMap) -> Option<String> {
    let host = headers.get(header::HOST)?.to_str().ok()?.trim();
    let plausible = !host.is_empty()
        && host.len() <= MAX_HOST
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b));
    if !plausible {
        return None;
    }
    // A chain of proxies lists the first one's first.
    let https = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https"));
    let scheme = if https { "https" } else { "http" };
    Some(format!("{scheme}://{}", host.to_ascii_lowercase()))
}

/// `GET /api/games/{id}/positions/{ply}`: the position after `ply` moves, as the caller may
/// see it, for stepping through a game.
async fn position(
    State(state): State<AppState>,
    Path((id, ply)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<axum::Json<Value>, ApiError> {
    let ply: usize = ply.parse().map_err(|_| {
        ApiError::bad_request(
            "bad-ply",
            format!(
                "not a ply number: {}",
                chaturanga_rules::position::excerpt(&ply)
            ),
        )
    })?;
    let who = who(bearer(&headers)?)?;
    let game = state.game(&id).await?;
    let value = game
        .ask(|reply| live::Request::Position { who, ply, reply })
        .await?;
    Ok(axum::Json(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn the_base_url_of_records_comes_from_the_host() {
        let base = |pairs: &[(&'static str, &str)]| base_url(&headers(pairs));
        assert_eq!(
            base(&[("host", "Chess.Example.org")]).as_deref(),
            Some("http://chess.example.org")
        );
        assert_eq!(
            base(&[("host", "127.0.0.1:8080")]).as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(
            base(&[("host", "[::1]:80")]).as_deref(),
            Some("http://[::1]:80")
        );
        assert_eq!(
            base(&[("host", "example.org"), ("x-forwarded-proto", "HTTPS")]).as_deref(),
            Some("https://example.org")
        );
        assert_eq!(
            base(&[
                ("host", "example.org"),
                ("x-forwarded-proto", "https, http")
            ])
            .as_deref(),
            Some("https://example.org")
        );
        assert_eq!(
            base(&[("host", "example.org"), ("x-forwarded-proto", "gopher")]).as_deref(),
            Some("http://example.org")
        );
        // No host, or one that is no plain name: no address.
        assert_eq!(base(&[]), None);
        for host in [
            "",
            "a b",
            "evil\"]",
            "x/y",
            "user@host",
            &"a".repeat(MAX_HOST + 1),
        ] {
            assert_eq!(base(&[("host", host)]), None, "{host:?}");
        }
    }
}
