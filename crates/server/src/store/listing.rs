//! The listings: the lobby's open and live games and the archive's finished ones, filtered by
//! ruleset and opponent, the archive paged by a cursor. The query is written here once for
//! both backends, so that they cannot disagree on what a page holds.

use super::{GameStatus, SeatRow, StoreError, StoreResult, parse_quarters};

/// A game in a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Its id.
    pub id: String,
    /// The ruleset.
    pub variant: String,
    /// Where it stands.
    pub status: GameStatus,
    /// The result, once finished.
    pub result: Option<String>,
    /// Why it ended.
    pub reason: Option<String>,
    /// Each player's score in quarter points, once finished with a result.
    pub scores: Option<Vec<u8>>,
    /// Moves played.
    pub plies: usize,
    /// The seats.
    pub seats: Vec<SeatRow>,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
    /// When it ended (ms since the epoch), once it did.
    pub finished_ms: Option<i64>,
}

/// Which games a listing shows (only listed games: one made for a friend stays unlisted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Live games with a human seat nobody has claimed.
    Open,
    /// Live games that are played: with a clock, or played on since `active_since_ms`
    /// (older games without a clock are adjourned).
    Live {
        /// The earliest last activity of a game without a clock that is still listed.
        active_since_ms: i64,
    },
    /// Games that ended with a result (not the aborted ones), the last to end first.
    Finished {
        /// Only games that come after this one in that order (the next page).
        before: Option<Cursor>,
    },
}

/// Whom a game was played against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// At least one seat is the engine's.
    Engine,
    /// Every seat is a person's.
    People,
}

impl Opponent {
    /// Reads the word of the API (`engine`, `people`).
    pub fn parse(word: &str) -> Option<Opponent> {
        match word {
            "engine" => Some(Opponent::Engine),
            "people" => Some(Opponent::People),
            _ => None,
        }
    }
}

/// What a listing is narrowed to, besides its kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only games of this ruleset (an id of the catalogue).
    pub variant: Option<String>,
    /// Only games against the engine, or only between people.
    pub opponent: Option<Opponent>,
}

/// Where a page of the archive ends: its last game, by finish time, then id (two games may
/// end in the same millisecond). Written as `<ms>.<id>`: clients only hand it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// When the last game shown ended (ms since the epoch).
    pub finished_ms: i64,
    /// Its id.
    pub id: String,
}

impl Cursor {
    /// Longest id a cursor may carry; game ids are much shorter.
    const MAX_ID: usize = 64;

    /// The cursor after `game`, if it ended.
    pub fn after(game: &Summary) -> Option<Cursor> {
        Some(Cursor {
            finished_ms: game.finished_ms?,
            id: game.id.clone(),
        })
    }

    /// Reads a cursor as [`Display`](std::fmt::Display) writes it; `None` for anything else.
    pub fn parse(text: &str) -> Option<Cursor> {
        let (ms, id) = text.split_once('.')?;
        // Digits only: `parse` would take a sign.
        if ms.is_empty() || ms.len() > 18 || !ms.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let id_ok = !id.is_empty()
            && id.len() <= Self::MAX_ID
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        id_ok.then(|| Cursor {
            finished_ms: ms.parse().unwrap_or_default(),
            id: id.to_string(),
        })
    }
}

impl std::fmt::Display for Cursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.finished_ms, self.id)
    }
}

/// One page of a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// The games, in the listing's order.
    pub games: Vec<Summary>,
    /// Where the next page starts, when there are more finished games.
    pub next: Option<Cursor>,
}

/// The SQL a backend speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    /// SQLite: `?N` parameters, booleans as integers.
    Sqlite,
    /// PostgreSQL: `$N` parameters, booleans.
    Postgres,
}

impl Dialect {
    fn param(self, n: usize) -> String {
        match self {
            Dialect::Sqlite => format!("?{n}"),
            Dialect::Postgres => format!("${n}"),
        }
    }

    /// The test for listed games, exactly as the archive's partial indexes say it (SQLite
    /// uses such an index only for a query that repeats its condition).
    fn listed(self) -> &'static str {
        match self {
            Dialect::Sqlite => "listed = 1",
            Dialect::Postgres => "listed",
        }
    }
}

/// A parameter of a listing's query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Arg {
    /// A whole number.
    Int(i64),
    /// Text.
    Text(String),
    /// A truth value.
    Bool(bool),
}

/// The columns a listing's query selects, in order; [`Listed`] reads them.
const COLUMNS: &str = "id, variant, status, result, reason, quarters, created_ms, finished_ms, \
                       (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)";

/// The query of a listing, at most `limit` games, and its parameters. Only the conditions
/// asked for are written, so that each combination of filters is a statement of its own
/// that the planner matches with its index (`games_archive*`, migration 8).
pub(super) fn query(
    listing: &Listing,
    filter: &Filter,
    limit: usize,
    dialect: Dialect,
) -> (String, Vec<Arg>) {
    let mut args = Vec::new();
    let mut param = |arg: Arg| {
        args.push(arg);
        dialect.param(args.len())
    };
    let listed = dialect.listed();
    let mut conditions = match listing {
        Listing::Open => vec![format!(
            "status = 'live' AND {listed} AND EXISTS (SELECT 1 FROM seats s \
             WHERE s.game_id = g.id AND s.kind = 'human' AND s.token_hash IS NULL)"
        )],
        Listing::Live { active_since_ms } => vec![format!(
            "status = 'live' AND {listed} AND (clock IS NOT NULL OR active_ms >= {})",
            param(Arg::Int(*active_since_ms))
        )],
        Listing::Finished { .. } => vec![format!("status = 'finished' AND {listed}")],
    };
    if let Some(variant) = &filter.variant {
        conditions.push(format!("variant = {}", param(Arg::Text(variant.clone()))));
    }
    if let Some(opponent) = filter.opponent {
        let engine = opponent == Opponent::Engine;
        conditions.push(format!("with_engine = {}", param(Arg::Bool(engine))));
    }
    if let Listing::Finished {
        before: Some(cursor),
    } = listing
    {
        let ms = param(Arg::Int(cursor.finished_ms));
        let id = param(Arg::Text(cursor.id.clone()));
        conditions.push(format!("(finished_ms, id) < ({ms}, {id})"));
    }
    let order = match listing {
        Listing::Finished { .. } => "finished_ms DESC, id DESC",
        _ => "created_ms DESC, id DESC",
    };
    let limit = param(Arg::Int(i64::try_from(limit).unwrap_or(i64::MAX)));
    let sql = format!(
        "SELECT {COLUMNS} FROM games g WHERE {} ORDER BY {order} LIMIT {limit}",
        conditions.join(" AND ")
    );
    (sql, args)
}

/// A row of a listing's query ([`COLUMNS`]), before its seats are read.
pub(super) struct Listed {
    pub id: String,
    pub variant: String,
    pub status: String,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub quarters: Option<String>,
    pub created_ms: i64,
    pub finished_ms: Option<i64>,
    pub plies: i64,
}

impl Listed {
    /// The summary of this game, with its seats.
    pub fn summary(self, seats: Vec<SeatRow>) -> StoreResult<Summary> {
        Ok(Summary {
            status: GameStatus::parse(&self.status)?,
            scores: self.quarters.as_deref().map(parse_quarters).transpose()?,
            plies: usize::try_from(self.plies)
                .map_err(|_| StoreError::Backend(format!("{} moves", self.plies)))?,
            id: self.id,
            variant: self.variant,
            result: self.result,
            reason: self.reason,
            seats,
            created_ms: self.created_ms,
            finished_ms: self.finished_ms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_read_back_what_they_write_and_nothing_else() {
        let cursor = Cursor {
            finished_ms: 1_767_225_600_123,
            id: "aZ09xyzQ".into(),
        };
        assert_eq!(cursor.to_string(), "1767225600123.aZ09xyzQ");
        assert_eq!(Cursor::parse(&cursor.to_string()), Some(cursor));
        let long = format!("1.{}", "a".repeat(65));
        let huge = format!("{}.a", "9".repeat(19));
        for bad in [
            "", ".", "1.", ".abc", "abc", "-1.abc", "+1.abc", "1.ab c", "1.ab'c", "1.2.3",
            "0x10.abc", "1.é", &long, &huge,
        ] {
            assert_eq!(Cursor::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn each_filter_is_a_condition_of_its_own_with_its_parameter() {
        let filter = Filter {
            variant: Some("shogi".into()),
            opponent: Some(Opponent::People),
        };
        let before = Some(Cursor {
            finished_ms: 5,
            id: "x".into(),
        });
        let (sql, args) = query(
            &Listing::Finished { before },
            &filter,
            10,
            Dialect::Postgres,
        );
        assert!(
            sql.contains(
                "WHERE status = 'finished' AND listed AND variant = $1 AND with_engine = $2 \
                 AND (finished_ms, id) < ($3, $4) ORDER BY finished_ms DESC, id DESC LIMIT $5"
            ),
            "{sql}"
        );
        assert_eq!(
            args,
            vec![
                Arg::Text("shogi".into()),
                Arg::Bool(false),
                Arg::Int(5),
                Arg::Text("x".into()),
                Arg::Int(10)
            ]
        );
        let (sql, args) = query(
            &Listing::Finished { before: None },
            &Filter::default(),
            3,
            Dialect::Sqlite,
        );
        assert!(
            sql.ends_with(
                "WHERE status = 'finished' AND listed = 1 ORDER BY finished_ms DESC, id DESC LIMIT ?1"
            ),
            "{sql}"
        );
        assert_eq!(args, vec![Arg::Int(3)]);
    }
}
