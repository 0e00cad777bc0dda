//! `GET /api/games`: the lobby's open and live games and the archive of finished ones,
//! filtered by ruleset and opponent, the archive paged by a cursor (`before`, from the `next`
//! of the page before).

use super::error::ApiError;
use super::variants::{is_ruleset, player_names};
use crate::app::AppState;
use crate::referee::lifecycle;
use crate::store::{Cursor, Filter, Listing, Opponent, Page, SeatKind, Summary, now_ms};
use axum::extract::{Query, State};
use chaturanga_rules::position::excerpt;
use serde::Deserialize;
use serde_json::{Value, json};

/// Most games in a listing.
pub const MAX_LISTING: usize = 100;
/// Games in a listing that asks for no number.
const DEFAULT_LISTING: usize = 50;

/// A listing's query string as it came: every field is read by [`ListQuery::read`], so that
/// each refusal is a [`ListingError`] with its code.
#[derive(Deserialize)]
pub(super) struct ListQuery {
    status: Option<String>,
    limit: Option<String>,
    before: Option<String>,
    variant: Option<String>,
    opponent: Option<String>,
}

/// A listing's query that cannot be answered (400, each with its code).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListingError {
    /// `status` is not `open`, `live` or `finished`.
    Status(String),
    /// `limit` is not a whole number.
    Limit(String),
    /// `before` is not a cursor this server wrote.
    Cursor(String),
    /// `before` was given to a listing that is not paged (only the finished games are).
    Unpaged,
    /// `variant` names no ruleset of this server.
    Variant(String),
    /// `opponent` is not `engine` or `people`.
    Opponent(String),
}

impl ListingError {
    /// Every code, for the list of this server's codes.
    pub const CODES: [&str; 5] = [
        "bad-status",
        "bad-limit",
        "bad-cursor",
        "unknown-variant",
        "bad-opponent",
    ];

    /// The stable code of the refusal.
    pub fn code(&self) -> &'static str {
        match self {
            ListingError::Status(_) => "bad-status",
            ListingError::Limit(_) => "bad-limit",
            ListingError::Cursor(_) | ListingError::Unpaged => "bad-cursor",
            ListingError::Variant(_) => "unknown-variant",
            ListingError::Opponent(_) => "bad-opponent",
        }
    }
}

impl std::fmt::Display for ListingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListingError::Status(given) => {
                write!(f, "status must be open, live or finished, not {given:?}")
            }
            ListingError::Limit(given) => {
                write!(f, "limit must be a whole number of games, not {given:?}")
            }
            ListingError::Cursor(given) => write!(
                f,
                "before must be the `next` of an earlier page of this listing, not {given:?}"
            ),
            ListingError::Unpaged => {
                f.write_str("only the finished games are paged: before goes with status=finished")
            }
            ListingError::Variant(given) => write!(f, "no ruleset {given:?}"),
            ListingError::Opponent(given) => {
                write!(f, "opponent must be engine or people, not {given:?}")
            }
        }
    }
}

impl std::error::Error for ListingError {}

/// A parameter's value, where it has one: an empty value (a form's "any" choice) is none.
fn given(value: Option<&String>) -> Option<&str> {
    value.map(String::as_str).filter(|v| !v.is_empty())
}

impl ListQuery {
    /// The listing, its filter and the number of games asked for, at `now_ms`.
    fn read(&self, now_ms: i64) -> Result<(Listing, Filter, usize), ListingError> {
        let before = given(self.before.as_ref())
            .map(|text| Cursor::parse(text).ok_or_else(|| ListingError::Cursor(excerpt(text))))
            .transpose()?;
        let listing = match given(self.status.as_ref()) {
            None | Some("live") => Listing::Live {
                active_since_ms: now_ms - lifecycle::ADJOURN_AFTER.as_millis() as i64,
            },
            Some("open") => Listing::Open,
            Some("finished") => Listing::Finished { before: None },
            Some(other) => return Err(ListingError::Status(excerpt(other))),
        };
        let listing = match (listing, before) {
            (Listing::Finished { .. }, before) => Listing::Finished { before },
            (_, Some(_)) => return Err(ListingError::Unpaged),
            (listing, None) => listing,
        };
        let variant = given(self.variant.as_ref())
            .map(|id| {
                is_ruleset(id)
                    .then(|| id.to_string())
                    .ok_or_else(|| ListingError::Variant(excerpt(id)))
            })
            .transpose()?;
        let opponent = given(self.opponent.as_ref())
            .map(|word| Opponent::parse(word).ok_or_else(|| ListingError::Opponent(excerpt(word))))
            .transpose()?;
        let limit = match given(self.limit.as_ref()) {
            None => DEFAULT_LISTING,
            // A number too long for a machine word asks for more than the cap, not nonsense.
            Some(digits) if digits.bytes().all(|b| b.is_ascii_digit()) => {
                digits.parse::<usize>().unwrap_or(usize::MAX)
            }
            Some(other) => return Err(ListingError::Limit(excerpt(other))),
        };
        Ok((
            listing,
            Filter { variant, opponent },
            limit.clamp(1, MAX_LISTING),
        ))
    }
}

/// A game as the listings show it: the seats with their players' names, the result with the
/// scores, and the times.
pub(crate) fn summary_json(s: &Summary) -> Value {
    let names = player_names(&s.variant);
    json!({
        "id": s.id,
        "variant": s.variant,
        "status": s.status.as_str(),
        "result": s.result,
        "reason": s.reason,
        "scores": s.scores,
        "ply": s.plies,
        "created_ms": s.created_ms,
        "finished_ms": s.finished_ms,
        "player_names": names,
        "seats": s.seats.iter().enumerate().map(|(n, seat)| json!({
            "seat": n,
            "player": names.get(n),
            "kind": seat.kind.word(),
            "level": seat.kind.level(),
            "joined": seat.kind != SeatKind::Human || seat.token_hash.is_some(),
        })).collect::<Vec<_>>(),
    })
}

fn page_json(page: &Page) -> Value {
    json!({
        "games": page.games.iter().map(summary_json).collect::<Vec<_>>(),
        "next": page.next.as_ref().map(Cursor::to_string),
    })
}

/// `GET /api/games?status=&limit=&before=&variant=&opponent=`.
pub(super) async fn list_games(
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> Result<axum::Json<Value>, ApiError> {
    let (listing, filter, limit) = query.read(now_ms())?;
    let store = state.store().clone();
    // The players' names of a ruleset are read from its table the first time: off the
    // runtime's threads, with the store's query.
    let page = tokio::task::spawn_blocking(move || {
        let page = store.list(&listing, &filter, limit)?;
        Ok::<_, ApiError>(page_json(&page))
    })
    .await
    .map_err(|e| ApiError::internal(format!("store task: {e}")))??;
    Ok(axum::Json(page))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> ListQuery {
        let get = |key: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.to_string())
        };
        ListQuery {
            status: get("status"),
            limit: get("limit"),
            before: get("before"),
            variant: get("variant"),
            opponent: get("opponent"),
        }
    }

    #[test]
    fn a_listing_query_reads_each_field_or_names_what_is_wrong() {
        let read = |pairs: &[(&str, &str)]| query(pairs).read(1_000_000_000);
        let (listing, filter, limit) = read(&[
            ("status", "finished"),
            ("before", "12.abc"),
            ("variant", "shogi"),
            ("opponent", "engine"),
            ("limit", "7"),
        ])
        .unwrap();
        assert_eq!(
            listing,
            Listing::Finished {
                before: Some(Cursor {
                    finished_ms: 12,
                    id: "abc".into()
                })
            }
        );
        assert_eq!(filter.variant.as_deref(), Some("shogi"));
        assert_eq!(filter.opponent, Some(Opponent::Engine));
        assert_eq!(limit, 7);
        // Empty values are no filter; limits are capped either way.
        let (_, filter, limit) =
            read(&[("variant", ""), ("opponent", ""), ("limit", "0")]).unwrap();
        assert_eq!(filter, Filter::default());
        assert_eq!(limit, 1);
        assert_eq!(read(&[]).unwrap().2, DEFAULT_LISTING);
        assert_eq!(read(&[("limit", "1000")]).unwrap().2, MAX_LISTING);
        assert_eq!(
            read(&[("limit", "99999999999999999999999999")]).unwrap().2,
            MAX_LISTING
        );
        let refused = |pairs: &[(&str, &str)]| read(pairs).unwrap_err().code();
        assert_eq!(refused(&[("status", "everything")]), "bad-status");
        assert_eq!(refused(&[("limit", "-1")]), "bad-limit");
        assert_eq!(refused(&[("limit", "many")]), "bad-limit");
        assert_eq!(
            refused(&[("status", "finished"), ("before", "yesterday")]),
            "bad-cursor"
        );
        assert_eq!(
            refused(&[("status", "live"), ("before", "12.abc")]),
            "bad-cursor"
        );
        assert_eq!(refused(&[("variant", "tictactoe")]), "unknown-variant");
        assert_eq!(refused(&[("opponent", "robots")]), "bad-opponent");
        let long = "x".repeat(10_000);
        let message = read(&[("opponent", &long)]).unwrap_err().to_string();
        assert!(message.len() < 100, "{message}");
    }
}
