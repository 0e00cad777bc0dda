//! The store: games, seats, moves and events, behind one [`Backend`] trait with two
//! implementations — the embedded SQLite file (the default, for one server process) and a
//! PostgreSQL server (for several nodes sharing the games).
//!
//! Every change of a live game is one transaction ([`Store::commit`]); the game's task
//! answers and broadcasts only after it returns, so whatever a client was told survives a
//! crash at any instant. Backends are used from blocking threads only.

mod listing;
mod migrations;
pub mod postgres;
pub mod sqlite;

pub use listing::{Cursor, Filter, Listing, Opponent, Page, Summary};

use crate::clock::{ClockSpec, StoredTimes};
use chaturanga_rules::Reason;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

/// A stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Its id.
    pub id: String,
    /// The ruleset id.
    pub variant: String,
    /// Rule options as given at creation (`name=value`), secret ones included.
    pub options: Vec<String>,
    /// The start FEN given at creation, if any.
    pub fen: Option<String>,
    /// The time control, if the game has a clock.
    pub clock: Option<ClockSpec>,
    /// Whether it goes on, ended with a result, or ended without one.
    pub status: GameStatus,
    /// The result, once finished.
    pub ending: Option<Ending>,
    /// The version: the number of the last event.
    pub version: u64,
    /// The clocks' state (each seat's time at the start of its turn).
    pub clock_state: Option<StoredTimes>,
    /// What waits for an answer: offers, claims.
    pub pending: Pending,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// When a move was last played or a seat claimed (ms since the epoch): games without a
    /// clock left alone for long are adjourned, out of the live listing.
    pub active_ms: i64,
    /// Shown in the lobby's listings and the archive (games for a friend by link are not).
    pub listed: bool,
    /// The game its players went on to, once they agreed a rematch.
    pub rematch: Option<String>,
    /// Who created it: a digest of the client's address (its engine's turn among clients).
    pub creator: Option<String>,
    /// The hash of the token that may stop it (games of engines only, which have no seat
    /// to hold one).
    pub owner_hash: Option<String>,
    /// The seats in order.
    pub seats: Vec<SeatRow>,
    /// The moves (turn parts) played, in order.
    pub moves: Vec<StoredMove>,
}

impl GameRow {
    /// Whether a seat is the engine's (the archive's filter by opponent).
    pub fn with_engine(&self) -> bool {
        self.seats
            .iter()
            .any(|s| matches!(s.kind, SeatKind::Engine(_)))
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// In progress (or waiting for its players).
    Live,
    /// Ended with a result.
    Finished,
    /// Ended without a result: aborted before it was under way.
    Aborted,
}

impl GameStatus {
    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Live => "live",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
        }
    }

    /// Reads the stored word.
    pub fn parse(word: &str) -> StoreResult<GameStatus> {
        match word {
            "live" => Ok(GameStatus::Live),
            "finished" => Ok(GameStatus::Finished),
            "aborted" => Ok(GameStatus::Aborted),
            other => Err(StoreError::Backend(format!(
                "a stored game's status is {other:?}"
            ))),
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result as PGN writes it (`1-0`).
    pub result: String,
    /// Each player's score in quarter points.
    pub quarters: Vec<u8>,
    /// Why it ended.
    pub reason: Reason,
}

impl Ending {
    /// The scores as stored: quarter points, comma-separated.
    pub fn quarters_text(&self) -> String {
        let quarters: Vec<String> = self.quarters.iter().map(u8::to_string).collect();
        quarters.join(",")
    }

    /// Reads a stored ending back.
    pub fn parse(result: String, quarters: &str, reason: &str) -> StoreResult<Ending> {
        let quarters = parse_quarters(quarters)?;
        let reason = Reason::from_name(reason)
            .ok_or_else(|| StoreError::Backend(format!("stored reason {reason:?}")))?;
        Ok(Ending {
            result,
            quarters,
            reason,
        })
    }
}

/// Reads stored scores: quarter points, comma-separated.
fn parse_quarters(quarters: &str) -> StoreResult<Vec<u8>> {
    quarters
        .split(',')
        .map(|q| q.trim().parse::<u8>())
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|_| StoreError::Backend(format!("stored scores {quarters:?}")))
}

/// What kind of seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A person.
    Human,
    /// The engine at a level (1-8).
    Engine(u8),
}

impl SeatKind {
    /// The stored word (`human`, `engine`).
    pub fn word(self) -> &'static str {
        match self {
            SeatKind::Human => "human",
            SeatKind::Engine(_) => "engine",
        }
    }

    /// The engine's level.
    pub fn level(self) -> Option<u8> {
        match self {
            SeatKind::Engine(level) => Some(level),
            SeatKind::Human => None,
        }
    }

    /// Reads the stored word and level.
    pub fn parse(word: &str, level: Option<i64>) -> StoreResult<SeatKind> {
        match (word, level.and_then(|l| u8::try_from(l).ok())) {
            ("human", _) => Ok(SeatKind::Human),
            ("engine", Some(level)) => Ok(SeatKind::Engine(level)),
            _ => Err(StoreError::Backend(format!(
                "a stored seat is {word:?} at level {level:?}"
            ))),
        }
    }
}

/// What waits for an answer, stored with every change so that it survives a restart and
/// every node shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Seats that offered or accepted a draw.
    #[serde(default)]
    pub draw: BTreeSet<usize>,
    /// The seat that asked for a takeback.
    #[serde(default)]
    pub takeback: Option<usize>,
    /// A ruleset action waiting for a seat's consent.
    #[serde(default)]
    pub action: Option<ActionOffer>,
    /// Seats that asked for a rematch of the finished game.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub rematch: BTreeSet<usize>,
    /// Seats whose players left the game in progress: the others may claim it.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub gone: BTreeSet<usize>,
}

/// A ruleset action waiting for a seat's consent (three-player chess's resignations in
/// another's favour). Stored as `[by, action, consent]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "(usize, String, usize)", into = "(usize, String, usize)")]
pub struct ActionOffer {
    /// Who asked.
    pub by: usize,
    /// The action.
    pub action: String,
    /// Who must consent.
    pub consent: usize,
}

impl From<(usize, String, usize)> for ActionOffer {
    fn from((by, action, consent): (usize, String, usize)) -> Self {
        ActionOffer {
            by,
            action,
            consent,
        }
    }
}

impl From<ActionOffer> for (usize, String, usize) {
    fn from(offer: ActionOffer) -> Self {
        (offer.by, offer.action, offer.consent)
    }
}

/// A stored move (one part of a turn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    /// Its text in coordinate notation, as the mover's view of the position writes it.
    pub text: String,
    /// The seat that played it. A text alone may not say whose move it was where several
    /// players move at once (bughouse's two boards): `e2e4` is legal on either board.
    /// `None` in rows stored before the column existed, replayed for the side to move.
    pub mover: Option<usize>,
}

impl StoredMove {
    /// The move `text` played by `mover`.
    pub fn new(text: impl Into<String>, mover: usize) -> Self {
        StoredMove {
            text: text.into(),
            mover: Some(mover),
        }
    }
}

/// A stored seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// A person's or the engine's.
    pub kind: SeatKind,
    /// The SHA-256 of the seat's token, hex, once claimed.
    pub token_hash: Option<String>,
    /// Whether its player has come to the game (made a request with the seat's token).
    pub arrived: bool,
}

/// A stored event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// Its version (contiguous per game, from 1).
    pub v: u64,
    /// Its type (`move`, `end`, `join`, ...).
    pub t: String,
    /// Its data as JSON.
    pub data: String,
    /// The only seat that may see its data, where it is hidden from the others.
    pub only_seat: Option<usize>,
}

/// One change of a game, written in one transaction: what the referee decided.
#[derive(Clone, Debug, Default)]
pub struct Change {
    /// Moves are cut back to this many first (a takeback).
    pub truncate_to: Option<usize>,
    /// Moves appended, with their plies (0 = the first move).
    pub moves: Vec<(usize, StoredMove)>,
    /// The new status.
    pub status: Option<GameStatus>,
    /// The result, when the game ends with one.
    pub ending: Option<Ending>,
    /// The clocks' new state.
    pub clock_state: Option<StoredTimes>,
    /// What now waits for an answer.
    pub pending: Option<Pending>,
    /// A seat claimed: its index and token hash.
    pub seat: Option<(usize, String)>,
    /// A seat whose player arrived.
    pub arrived: Option<usize>,
    /// Whether the game was played on (a move, a claimed seat): it is not idle.
    pub active: bool,
    /// The rematch the players agreed, created in the same transaction.
    pub rematch: Option<Box<NewGameRow>>,
    /// Events appended (their versions follow the stored version).
    pub events: Vec<EventRow>,
}

/// A game to create, with its first events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGameRow {
    /// The game.
    pub game: GameRow,
    /// Its first events (`created`).
    pub events: Vec<EventRow>,
}

/// A failure of the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The stored version was not the one the change was made on (another writer got there
    /// first), or this node no longer holds the game's lease: nothing was written.
    Stale,
    /// The database failed; the message says how.
    Backend(String),
    /// Another server writes this SQLite file.
    InUse(std::path::PathBuf),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Stale => f.write_str("the game was changed elsewhere; try again"),
            StoreError::Backend(message) => f.write_str(message),
            StoreError::InUse(path) => write!(
                f,
                "another server is using {} (it holds {}); one SQLite file has one server: \
                 run several servers on one PostgreSQL database (--db postgres://...)",
                path.display(),
                sqlite::lock_path(path).display()
            ),
        }
    }
}

impl std::error::Error for StoreError {}

/// A result of the store.
pub type StoreResult<T> = Result<T, StoreError>;

/// What a store keeps and finds. Every method is one transaction, called from a blocking
/// thread.
pub trait Backend: Send + Sync {
    /// Stores a new game with its seats and first events.
    fn create(&self, game: &GameRow, events: &[EventRow]) -> StoreResult<()>;

    /// Writes one change of a game atomically; fails with [`StoreError::Stale`] (writing
    /// nothing) if the stored version is not `version`.
    fn commit(&self, id: &str, version: u64, change: &Change) -> StoreResult<()>;

    /// A stored game with its seats and moves.
    fn load(&self, id: &str) -> StoreResult<Option<GameRow>>;

    /// The events of a game after version `after`, in order.
    fn events_after(&self, id: &str, after: u64) -> StoreResult<Vec<EventRow>>;

    /// Games for the lobby or the archive that pass `filter`, at most `limit`, in the
    /// listing's order (the newest first).
    fn list(&self, listing: &Listing, filter: &Filter, limit: usize) -> StoreResult<Vec<Summary>>;

    /// Ids of the live games that need running: those with a clock, and those without one
    /// played on since `active_since_ms`.
    fn live_ids(&self, active_since_ms: i64) -> StoreResult<Vec<String>>;

    /// The leases and the bus of several server nodes, where the store has them.
    fn cluster(&self) -> Option<&dyn Cluster> {
        None
    }
}

/// What several server nodes on one store share: who runs each live game (a lease, in the
/// database's time) and a bus of small notices between the nodes.
pub trait Cluster: Send + Sync {
    /// This node's id (random, new at each start).
    fn node(&self) -> &str;

    /// Takes game `id`'s lease for this node if no other node holds an unexpired one; answers
    /// the holder otherwise.
    fn acquire(&self, id: &str) -> StoreResult<Result<(), String>>;

    /// The node holding game `id`'s unexpired lease, if any.
    fn owner(&self, id: &str) -> StoreResult<Option<String>>;

    /// Extends every lease this node holds; answers the games whose leases it still holds.
    fn renew(&self) -> StoreResult<Vec<String>>;

    /// Gives up game `id`'s lease (the game ended, or its task stopped).
    fn release(&self, id: &str) -> StoreResult<()>;

    /// Live games whose leases are missing or expired: their nodes died.
    fn orphans(&self, limit: usize) -> StoreResult<Vec<String>>;

    /// Sends `payload` to the node `node` (its channel), or to every node when `None`.
    fn notify(&self, node: Option<&str>, payload: &str) -> StoreResult<()>;

    /// The notices for this node and for all nodes, as they arrive; `None` once the listening
    /// connection was lost and came back (notices may have been missed meanwhile). Taken once.
    fn listen(&self) -> Option<std::sync::mpsc::Receiver<Option<String>>>;
}

/// Where the games are kept: an SQLite file, or a PostgreSQL server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file at this path (created on first start).
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://user@host/db`).
    Postgres(String),
}

impl Database {
    /// A `--db` argument: a `postgres://` or `postgresql://` URL, or else a file path.
    pub fn parse(text: &str) -> Database {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Database::Postgres(text.to_string())
        } else {
            Database::Sqlite(PathBuf::from(text))
        }
    }
}

impl std::fmt::Display for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            // The URL may hold a password: show only where it points.
            Database::Postgres(url) => {
                let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
                let host = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
                write!(f, "postgres://{host}")
            }
        }
    }
}

/// The store: a backend shared by the server's tasks.
#[derive(Clone)]
pub struct Store {
    backend: Arc<dyn Backend>,
}

impl Store {
    /// Opens (creating and migrating) the database. Blocking: call it off the async runtime.
    pub fn open(database: &Database) -> StoreResult<Store> {
        let backend: Arc<dyn Backend> = match database {
            Database::Sqlite(path) => Arc::new(sqlite::Sqlite::open(path)?),
            Database::Postgres(url) => Arc::new(postgres::Postgres::open(url)?),
        };
        Ok(Store { backend })
    }

    /// An SQLite database in memory (tests of the store itself).
    pub fn in_memory() -> StoreResult<Store> {
        Ok(Store {
            backend: Arc::new(sqlite::Sqlite::in_memory()?),
        })
    }

    /// Stores a new game with its seats and first events.
    pub fn create(&self, game: &GameRow, events: &[EventRow]) -> StoreResult<()> {
        self.backend.create(game, events)
    }

    /// Writes one change of a game atomically (see [`Backend::commit`]).
    pub fn commit(&self, id: &str, version: u64, change: &Change) -> StoreResult<()> {
        self.backend.commit(id, version, change)
    }

    /// A stored game with its seats and moves.
    pub fn load(&self, id: &str) -> StoreResult<Option<GameRow>> {
        self.backend.load(id)
    }

    /// The events of a game after version `after`, in order.
    pub fn events_after(&self, id: &str, after: u64) -> StoreResult<Vec<EventRow>> {
        self.backend.events_after(id, after)
    }

    /// A page of games for the lobby or the archive that pass `filter`, at most `limit`, in
    /// the listing's order (the newest first); for the archive, where the next page starts.
    pub fn list(&self, listing: &Listing, filter: &Filter, limit: usize) -> StoreResult<Page> {
        // One more than shown says whether there are more.
        let mut games = self
            .backend
            .list(listing, filter, limit.saturating_add(1))?;
        let more = games.len() > limit;
        games.truncate(limit);
        let next = match listing {
            Listing::Finished { .. } if more => games.last().and_then(Cursor::after),
            _ => None,
        };
        Ok(Page { games, next })
    }

    /// Ids of the live games that need running (to resume their clocks and engines after a
    /// restart): those with a clock, and those without one played on since `active_since_ms`.
    pub fn live_ids(&self, active_since_ms: i64) -> StoreResult<Vec<String>> {
        self.backend.live_ids(active_since_ms)
    }

    /// The leases and bus of several nodes, where the backend has them.
    pub fn cluster(&self) -> Option<&dyn Cluster> {
        self.backend.cluster()
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PostgreSQL database of its own on the server `CHATURANGA_TEST_POSTGRES` names.
    fn fresh_postgres(name: &str) -> String {
        let admin = std::env::var("CHATURANGA_TEST_POSTGRES")
            .expect("CHATURANGA_TEST_POSTGRES must name a PostgreSQL server (scripts/postgres)");
        let name = format!("chaturanga_unit_{}_{name}", std::process::id());
        postgres::create_database(&admin, &name).expect("a test database")
    }

    /// The store under test: SQLite in memory, or with `CHATURANGA_TEST_BACKEND=postgres` a
    /// fresh PostgreSQL database (`scripts/test` runs both).
    fn test_store(name: &str) -> Store {
        match std::env::var("CHATURANGA_TEST_BACKEND").as_deref() {
            Ok("postgres") => Store::open(&Database::Postgres(fresh_postgres(name))).unwrap(),
            _ => Store::in_memory().unwrap(),
        }
    }

    /// The store under test with its database, which a test may also change by hand: a file
    /// for SQLite (other connections see it), or a fresh PostgreSQL database.
    fn test_database(name: &str) -> (Store, Database) {
        let database = match std::env::var("CHATURANGA_TEST_BACKEND").as_deref() {
            Ok("postgres") => Database::Postgres(fresh_postgres(name)),
            _ => {
                let dir = std::env::temp_dir()
                    .join(format!("chaturanga-store-{}-{name}", std::process::id()));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).unwrap();
                Database::Sqlite(dir.join("games.db"))
            }
        };
        (Store::open(&database).unwrap(), database)
    }

    /// Runs `sql` on `database` beside the store.
    fn execute(database: &Database, sql: &str) {
        match database {
            Database::Sqlite(path) => {
                rusqlite::Connection::open(path)
                    .unwrap()
                    .execute_batch(sql)
                    .unwrap();
            }
            Database::Postgres(url) => {
                ::postgres::Client::connect(url, ::postgres::NoTls)
                    .unwrap()
                    .batch_execute(sql)
                    .unwrap();
            }
        }
    }

    #[test]
    fn both_backends_have_the_same_schema() {
        let url = fresh_postgres("schema");
        let _store = Store::open(&Database::Postgres(url.clone())).unwrap();
        let mut pg = ::postgres::Client::connect(&url, ::postgres::NoTls).unwrap();
        let mut postgres_columns: Vec<(String, String)> = pg
            .query(
                "SELECT table_name::text, column_name::text FROM information_schema.columns \
                 WHERE table_schema = 'public' AND table_name <> 'schema_version'",
                &[],
            )
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        let mut sqlite = rusqlite::Connection::open_in_memory().unwrap();
        migrations::migrate_sqlite(&mut sqlite).unwrap();
        let mut sqlite_columns: Vec<(String, String)> = sqlite
            .prepare(
                "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p \
                 WHERE m.type = 'table'",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        postgres_columns.sort();
        sqlite_columns.sort();
        assert_eq!(postgres_columns, sqlite_columns);
        assert_eq!(migrations::SQLITE.len(), migrations::POSTGRES.len());
    }

    #[test]
    fn migration_8_marks_the_games_against_the_engine_and_dates_every_ended_one() {
        const BEFORE: usize = 7;
        let rows = "INSERT INTO games (id, variant, options, status, version, created_ms, \
                    active_ms, finished_ms) VALUES \
                    ('engine', 'chess', '[]', 'finished', 2, 1, 50, NULL), \
                    ('people', 'chess', '[]', 'aborted', 2, 1, 60, NULL), \
                    ('dated', 'chess', '[]', 'finished', 2, 1, 70, 65), \
                    ('live', 'chess', '[]', 'live', 1, 1, 80, NULL); \
                    INSERT INTO seats (game_id, n, kind, level) VALUES \
                    ('engine', 0, 'human', NULL), ('engine', 1, 'engine', 3), \
                    ('people', 0, 'human', NULL), ('people', 1, 'human', NULL)";
        // The second column says whether the flag is right: only `engine` has an engine seat.
        let query = "SELECT id, with_engine = (id = 'engine'), finished_ms FROM games ORDER BY id";
        let found: Vec<(String, bool, Option<i64>)> =
            match std::env::var("CHATURANGA_TEST_BACKEND").as_deref() {
                Ok("postgres") => {
                    let url = fresh_postgres("migration_8");
                    let mut pg = ::postgres::Client::connect(&url, ::postgres::NoTls).unwrap();
                    pg.batch_execute(
                        "CREATE TABLE schema_version (version BIGINT NOT NULL); \
                         INSERT INTO schema_version (version) VALUES (7)",
                    )
                    .unwrap();
                    for sql in &migrations::POSTGRES[..BEFORE] {
                        pg.batch_execute(sql).unwrap();
                    }
                    pg.batch_execute(rows).unwrap();
                    drop(Store::open(&Database::Postgres(url)).unwrap());
                    pg.query(query, &[])
                        .unwrap()
                        .iter()
                        .map(|r| (r.get(0), r.get(1), r.get(2)))
                        .collect()
                }
                _ => {
                    let mut c = rusqlite::Connection::open_in_memory().unwrap();
                    for sql in &migrations::SQLITE[..BEFORE] {
                        c.execute_batch(sql).unwrap();
                    }
                    c.pragma_update(None, "user_version", BEFORE as i64)
                        .unwrap();
                    c.execute_batch(rows).unwrap();
                    migrations::migrate_sqlite(&mut c).unwrap();
                    c.prepare(query)
                        .unwrap()
                        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                        .unwrap()
                        .collect::<Result<_, _>>()
                        .unwrap()
                }
            };
        // The games that ended and had no finish time get their last activity's.
        assert_eq!(
            found,
            [
                ("dated".to_string(), true, Some(65)),
                ("engine".to_string(), true, Some(50)),
                ("live".to_string(), true, None),
                ("people".to_string(), true, Some(60)),
            ]
        );
    }

    fn game(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            variant: "chess".into(),
            options: vec![],
            fen: None,
            clock: None,
            status: GameStatus::Live,
            ending: None,
            version: 1,
            clock_state: None,
            pending: Pending::default(),
            created_ms: now_ms(),
            active_ms: now_ms(),
            listed: true,
            rematch: None,
            creator: Some("c0ffee".into()),
            owner_hash: Some("0a".into()),
            seats: vec![
                SeatRow {
                    kind: SeatKind::Human,
                    token_hash: Some("aa".into()),
                    arrived: false,
                },
                SeatRow {
                    kind: SeatKind::Engine(3),
                    token_hash: None,
                    arrived: false,
                },
            ],
            moves: vec![],
        }
    }

    /// The archive's first page.
    const ARCHIVE: Listing = Listing::Finished { before: None };

    /// The change that ends a game by the first seat's resignation, as event `v`.
    fn resigned(v: u64) -> Change {
        Change {
            status: Some(GameStatus::Finished),
            ending: Some(Ending {
                result: "0-1".into(),
                quarters: vec![0, 4],
                reason: Reason::Resignation,
            }),
            events: vec![event(v)],
            ..Change::default()
        }
    }

    fn event(v: u64) -> EventRow {
        EventRow {
            v,
            t: "move".into(),
            data: "{}".into(),
            only_seat: None,
        }
    }

    /// The attack of issue 43, cut down: commits as fast as one writer makes them, while a
    /// reader reads all along. With PASSIVE checkpoints alone the log never caught up and
    /// grew by the size of every commit.
    #[test]
    fn the_sqlite_log_stays_bounded_under_a_stream_of_commits() {
        let dir = std::env::temp_dir().join(format!("chaturanga-wal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.db");
        let store = Store::open(&Database::Sqlite(path.clone())).unwrap();
        store.create(&game("g1"), &[event(1)]).unwrap();
        let wal = dir.join("games.db-wal");
        let reading = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let reader = {
            let (store, reading) = (store.clone(), reading.clone());
            std::thread::spawn(move || {
                while reading.load(std::sync::atomic::Ordering::Relaxed) {
                    store.load("g1").unwrap();
                }
            })
        };
        let pad = "x".repeat(3_000);
        let mut longest = 0;
        // Shown, not asserted (timings belong to benchmarks): what the cut costs a commit.
        let mut slowest_commit = std::time::Duration::ZERO;
        let mut written = 0u64;
        let started = std::time::Instant::now();
        let mut version = 1;
        // Five times the size past which the log is cut, in about as many seconds.
        while written < 5 * sqlite::WAL_TRUNCATE_ABOVE_BYTES
            || started.elapsed() < std::time::Duration::from_secs(2)
        {
            let change = Change {
                events: vec![EventRow {
                    v: version + 1,
                    t: "pad".into(),
                    data: format!("\"{pad}\""),
                    only_seat: None,
                }],
                ..Change::default()
            };
            let commit_started = std::time::Instant::now();
            store.commit("g1", version, &change).unwrap();
            slowest_commit = slowest_commit.max(commit_started.elapsed());
            version += 1;
            written += 4 * 4096;
            longest = longest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
            // About 10 MB of log a second: more than any real load, slow enough that the
            // checkpoints, twice a second, see it grow.
            std::thread::sleep(std::time::Duration::from_micros(1_500));
        }
        reading.store(false, std::sync::atomic::Ordering::Relaxed);
        reader.join().unwrap();
        eprintln!("log at most {longest} bytes; slowest commit {slowest_commit:?}");
        let bound = sqlite::WAL_TRUNCATE_ABOVE_BYTES + (12 << 20);
        assert!(longest < bound, "the log reached {longest} bytes");
        std::thread::sleep(std::time::Duration::from_millis(1_200));
        let settled = std::fs::metadata(&wal).map_or(0, |m| m.len());
        assert!(
            settled <= sqlite::WAL_TRUNCATE_ABOVE_BYTES,
            "{settled} bytes at rest"
        );
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_commit_with_a_stale_version_writes_nothing() {
        let store = test_store("stale");
        store.create(&game("g1"), &[event(1)]).unwrap();
        let change = Change {
            moves: vec![(0, StoredMove::new("e2e4", 0))],
            events: vec![event(2)],
            ..Change::default()
        };
        store.commit("g1", 1, &change).unwrap();
        assert!(store.commit("g1", 1, &change).is_err());
        let row = store.load("g1").unwrap().unwrap();
        assert_eq!(row.moves, vec![StoredMove::new("e2e4", 0)]);
        assert_eq!(row.version, 2);
        assert_eq!(store.events_after("g1", 0).unwrap().len(), 2);
        assert_eq!(store.events_after("g1", 1).unwrap()[0].v, 2);
    }

    #[test]
    fn takebacks_cut_the_moves_and_listings_filter() {
        let store = test_store("takebacks");
        store.create(&game("g1"), &[event(1)]).unwrap();
        let moves = Change {
            moves: vec![
                (0, StoredMove::new("e2e4", 0)),
                (1, StoredMove::new("e7e5", 1)),
            ],
            events: vec![event(2)],
            ..Change::default()
        };
        store.commit("g1", 1, &moves).unwrap();
        let back = Change {
            truncate_to: Some(1),
            events: vec![event(3)],
            ..Change::default()
        };
        store.commit("g1", 2, &back).unwrap();
        assert_eq!(
            store.load("g1").unwrap().unwrap().moves,
            vec![StoredMove::new("e2e4", 0)]
        );
        let live = Listing::Live { active_since_ms: 0 };
        let all = Filter::default();
        assert_eq!(store.list(&live, &all, 10).unwrap().games.len(), 1);
        assert!(
            store
                .list(&Listing::Open, &all, 10)
                .unwrap()
                .games
                .is_empty()
        );
        let end = Change {
            status: Some(GameStatus::Finished),
            ending: Some(Ending {
                result: "1-0".into(),
                quarters: vec![4, 0],
                reason: Reason::Resignation,
            }),
            events: vec![event(4)],
            ..Change::default()
        };
        store.commit("g1", 3, &end).unwrap();
        let archive = store.list(&ARCHIVE, &all, 10).unwrap();
        assert_eq!(archive.games[0].plies, 1);
        assert_eq!(archive.games[0].scores, Some(vec![4, 0]));
        assert!(archive.games[0].finished_ms.is_some());
        assert_eq!(archive.next, None);
        let row = store.load("g1").unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Finished);
        assert_eq!(row.ending, end.ending);
        assert!(store.load("nope").unwrap().is_none());
    }

    #[test]
    fn typed_rows_round_trip_with_arrivals_offers_and_a_rematch_made_in_one_commit() {
        let store = test_store("typed");
        let mut first = game("g1");
        first.clock = Some(ClockSpec::Byoyomi {
            base: 60,
            period: 10,
            periods: 2,
        });
        first.clock_state = Some(StoredTimes {
            main_ms: vec![60_000, 60_000],
            periods: vec![2, 2],
            lag_quota_ms: vec![],
        });
        store.create(&first, &[event(1)]).unwrap();
        assert_eq!(store.load("g1").unwrap().unwrap(), first);
        let mut pending = Pending::default();
        pending.draw.insert(0);
        pending.gone.insert(1);
        pending.action = Some(ActionOffer {
            by: 0,
            action: "resign-to-red".into(),
            consent: 1,
        });
        let mut next = game("g2");
        next.seats[0].token_hash = None;
        next.seats[1] = SeatRow {
            kind: SeatKind::Human,
            token_hash: Some("aa".into()),
            arrived: false,
        };
        let change = Change {
            arrived: Some(0),
            pending: Some(pending.clone()),
            rematch: Some(Box::new(NewGameRow {
                game: next.clone(),
                events: vec![event(1)],
            })),
            events: vec![event(2)],
            ..Change::default()
        };
        store.commit("g1", 1, &change).unwrap();
        let row = store.load("g1").unwrap().unwrap();
        assert!(row.seats[0].arrived && !row.seats[1].arrived);
        assert_eq!(row.pending, pending);
        assert_eq!(row.rematch.as_deref(), Some("g2"));
        assert_eq!(store.load("g2").unwrap().unwrap(), next);
        assert_eq!(store.events_after("g2", 0).unwrap().len(), 1);
        // A rematch that cannot be created (its id is taken) leaves the first game as it was.
        let again = Change {
            rematch: Some(Box::new(NewGameRow {
                game: next,
                events: vec![event(1)],
            })),
            events: vec![event(3)],
            ..Change::default()
        };
        assert!(store.commit("g1", 2, &again).is_err());
        assert_eq!(store.load("g1").unwrap().unwrap().version, 2);
    }

    #[test]
    fn unlisted_and_idle_games_stay_out_of_the_listings() {
        let store = test_store("listings");
        let mut hidden = game("hidden");
        hidden.listed = false;
        let mut idle = game("idle");
        idle.active_ms = 1_000;
        let mut clocked = game("clocked");
        clocked.active_ms = 1_000;
        clocked.clock = Some(ClockSpec::Move { seconds: 30 });
        for row in [&hidden, &idle, &clocked] {
            store.create(row, &[event(1)]).unwrap();
        }
        let live = |since| {
            let mut ids: Vec<String> = store
                .list(
                    &Listing::Live {
                        active_since_ms: since,
                    },
                    &Filter::default(),
                    10,
                )
                .unwrap()
                .games
                .into_iter()
                .map(|s| s.id)
                .collect();
            ids.sort();
            ids
        };
        assert_eq!(live(0), vec!["clocked", "idle"]);
        assert_eq!(live(2_000), vec!["clocked"]);
        let mut running = store.live_ids(2_000).unwrap();
        running.sort();
        assert_eq!(running, vec!["clocked", "hidden"]);
        // The archive holds the listed games that ended with a result: not the aborted ones.
        for id in ["hidden", "idle"] {
            store.commit(id, 1, &resigned(2)).unwrap();
        }
        let aborted = Change {
            status: Some(GameStatus::Aborted),
            events: vec![event(2)],
            ..Change::default()
        };
        store.commit("clocked", 1, &aborted).unwrap();
        let archive: Vec<String> = store
            .list(&ARCHIVE, &Filter::default(), 10)
            .unwrap()
            .games
            .into_iter()
            .map(|s| s.id)
            .collect();
        assert_eq!(archive, vec!["idle"]);
    }

    /// Game `n` of the archive tests: chess, shogi or xiangqi by turns, against the engine
    /// when `n` is even.
    fn archive_game(n: usize) -> GameRow {
        let mut row = game(&format!("g{n:02}"));
        row.variant = ["chess", "shogi", "xiangqi"][n % 3].into();
        if n % 2 == 1 {
            row.seats[1].kind = SeatKind::Human;
        }
        row
    }

    /// The ids of the archive's games under `filter` from `first` on, read a page of `limit`
    /// at a time, each page from the cursor of the one before.
    fn every_page(
        store: &Store,
        filter: &Filter,
        limit: usize,
        first: Option<Cursor>,
    ) -> Vec<String> {
        let mut ids = Vec::new();
        let mut before = first;
        for _ in 0..100 {
            let page = store
                .list(&Listing::Finished { before }, filter, limit)
                .unwrap();
            assert!(page.games.len() <= limit);
            ids.extend(page.games.iter().map(|g| g.id.clone()));
            match page.next {
                Some(next) => {
                    assert_eq!(page.games.len(), limit, "a page before the last is full");
                    before = Some(next);
                }
                None => return ids,
            }
        }
        panic!("the pages never end");
    }

    #[test]
    fn the_archive_pages_through_every_finished_game_once_in_order() {
        let (store, database) = test_database("archive");
        // 30 games: 24 end with a result, of which one is unlisted; 3 are aborted, 3 go on.
        for n in 0..30 {
            let mut row = archive_game(n);
            row.listed = n != 7;
            store.create(&row, &[event(1)]).unwrap();
            let end = match n % 10 {
                3 => Change {
                    status: Some(GameStatus::Aborted),
                    events: vec![event(2)],
                    ..Change::default()
                },
                9 => continue,
                _ => resigned(2),
            };
            store.commit(&row.id, 1, &end).unwrap();
        }
        // Four games end in each millisecond, so that the ids order them there.
        let mut finished: Vec<(i64, String)> = Vec::new();
        for n in (0..30).filter(|n| n % 10 != 3 && n % 10 != 9) {
            let ms = 1_000 + (n as i64 * 7 % 24) / 4;
            execute(
                &database,
                &format!("UPDATE games SET finished_ms = {ms} WHERE id = 'g{n:02}'"),
            );
            if n != 7 {
                finished.push((ms, format!("g{n:02}")));
            }
        }
        finished.sort();
        finished.reverse();
        let expected = |filter: &Filter| -> Vec<String> {
            finished
                .iter()
                .filter(|(_, id)| {
                    let n: usize = id[1..].parse().unwrap();
                    let row = archive_game(n);
                    filter.variant.as_ref().is_none_or(|v| *v == row.variant)
                        && filter
                            .opponent
                            .is_none_or(|o| (o == Opponent::Engine) == row.with_engine())
                })
                .map(|(_, id)| id.clone())
                .collect()
        };
        let filters = [
            Filter::default(),
            Filter {
                variant: Some("shogi".into()),
                opponent: None,
            },
            Filter {
                variant: None,
                opponent: Some(Opponent::People),
            },
            Filter {
                variant: None,
                opponent: Some(Opponent::Engine),
            },
            Filter {
                variant: Some("chess".into()),
                opponent: Some(Opponent::Engine),
            },
            Filter {
                variant: Some("xiangqi".into()),
                opponent: Some(Opponent::People),
            },
            Filter {
                variant: Some("makruk".into()),
                opponent: None,
            },
        ];
        for filter in &filters {
            let want = expected(filter);
            for limit in [1, 3, 4, 7, 100] {
                assert_eq!(
                    every_page(&store, filter, limit, None),
                    want,
                    "{filter:?} by {limit}"
                );
            }
        }
        assert_eq!(expected(&Filter::default()).len(), 23);
        // The summaries say what the page shows.
        let first = store.list(&ARCHIVE, &Filter::default(), 1).unwrap();
        let game = &first.games[0];
        assert_eq!(game.id, finished[0].1);
        assert_eq!(game.finished_ms, Some(finished[0].0));
        assert_eq!(
            first.next.as_ref().map(|c| c.id.as_str()),
            Some(game.id.as_str())
        );
        assert_eq!(game.status, GameStatus::Finished);
        assert_eq!(game.reason.as_deref(), Some("resignation"));
        assert_eq!(game.scores, Some(vec![0, 4]));

        // Games ending while someone pages (later than any shown) do not move the pages.
        let all = Filter::default();
        let page = store.list(&ARCHIVE, &all, 5).unwrap();
        for n in (0..30).filter(|n| n % 10 == 9) {
            store.commit(&format!("g{n:02}"), 1, &resigned(2)).unwrap();
        }
        store.create(&archive_game(30), &[event(1)]).unwrap();
        let mut ids: Vec<String> = page.games.iter().map(|g| g.id.clone()).collect();
        ids.extend(every_page(&store, &all, 5, page.next));
        assert_eq!(ids, expected(&all));
        let now = every_page(&store, &all, 100, None);
        assert_eq!(now.len(), 26);
        assert_eq!(&now[3..], &expected(&all)[..]);
    }

    /// The plan of a query of the archive, one line per step: SQLite's plan, or
    /// PostgreSQL's as it ran (with the rows each step dropped and the pages it read).
    fn plan(database: &Database, sql: &str, args: &[listing::Arg]) -> Vec<String> {
        use listing::Arg;
        match database {
            Database::Sqlite(path) => {
                let c = rusqlite::Connection::open(path).unwrap();
                let args = args.iter().map(|a| match a {
                    Arg::Int(n) => rusqlite::types::Value::Integer(*n),
                    Arg::Text(t) => rusqlite::types::Value::Text(t.clone()),
                    Arg::Bool(b) => rusqlite::types::Value::Integer((*b).into()),
                });
                let mut statement = c.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
                statement
                    .query_map(rusqlite::params_from_iter(args), |r| r.get::<_, String>(3))
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap()
            }
            Database::Postgres(url) => {
                let mut c = ::postgres::Client::connect(url, ::postgres::NoTls).unwrap();
                let boxed: Vec<Box<dyn ::postgres::types::ToSql + Sync>> = args
                    .iter()
                    .map(|a| -> Box<dyn ::postgres::types::ToSql + Sync> {
                        match a {
                            Arg::Int(n) => Box::new(*n),
                            Arg::Text(t) => Box::new(t.clone()),
                            Arg::Bool(b) => Box::new(*b),
                        }
                    })
                    .collect();
                let params: Vec<&(dyn ::postgres::types::ToSql + Sync)> =
                    boxed.iter().map(AsRef::as_ref).collect();
                c.query(
                    &format!("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {sql}"),
                    &params,
                )
                .unwrap()
                .iter()
                .map(|r| r.get(0))
                .collect()
            }
        }
    }

    /// 50,000 finished games straight into the tables, as an archive holds them: chess, but
    /// for 1% of shogi (half of them against the engine), four in five against the engine;
    /// then PostgreSQL's statistics, which its planner chooses by (with a few thousand games
    /// it rightly reads them all for a rare filter: it takes no time).
    fn fill_the_archive(database: &Database) {
        let games = "INSERT INTO games (id, variant, options, status, result, quarters, \
                     reason, version, created_ms, finished_ms, with_engine) \
                     SELECT 'bulk' || n, \
                       CASE WHEN n % 100 IN (3, 5) THEN 'shogi' ELSE 'chess' END, \
                       '[]', 'finished', '1-0', '4,0', 'resignation', 2, n, 1000000 + n, \
                       n % 5 <> 0";
        match database {
            Database::Sqlite(_) => execute(
                database,
                &format!(
                    "WITH RECURSIVE series(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM series \
                     WHERE n < 50000) {games} FROM series"
                ),
            ),
            Database::Postgres(_) => execute(
                database,
                &format!("{games} FROM generate_series(1, 50000) AS n; ANALYZE games"),
            ),
        }
    }

    #[test]
    fn every_page_of_the_archive_reads_its_index_in_order() {
        let (_store, database) = test_database("archive_plans");
        fill_the_archive(&database);
        let dialect = match database {
            Database::Sqlite(_) => listing::Dialect::Sqlite,
            Database::Postgres(_) => listing::Dialect::Postgres,
        };
        let middle = Cursor {
            finished_ms: 1_025_000,
            id: "bulk25000".into(),
        };
        let limit = 10;
        for variant in [None, Some("shogi".to_string())] {
            for opponent in [None, Some(Opponent::Engine), Some(Opponent::People)] {
                let index = match (&variant, opponent) {
                    (None, None) => "games_archive",
                    (Some(_), None) => "games_archive_by_variant",
                    (None, Some(_)) => "games_archive_by_opponent",
                    (Some(_), Some(_)) => "games_archive_by_both",
                };
                let filter = Filter {
                    variant: variant.clone(),
                    opponent,
                };
                let mut pages_read = Vec::new();
                for before in [None, Some(middle.clone())] {
                    let listing = Listing::Finished { before };
                    let (sql, args) = listing::query(&listing, &filter, limit, dialect);
                    let plan = plan(&database, &sql, &args);
                    let text = plan.join("\n");
                    // No sort (an index gives the order) and no scan of every game.
                    for step in &plan {
                        assert!(!step.contains("TEMP B-TREE"), "{filter:?}: {text}");
                        assert!(!step.contains("Sort"), "{filter:?}: {text}");
                        assert!(!step.contains("Seq Scan on games"), "{filter:?}: {text}");
                        assert!(step != "SCAN g", "{filter:?}: {text}");
                    }
                    if dialect == listing::Dialect::Sqlite {
                        // Without statistics SQLite goes by the query's shape: the index of
                        // its filters, which holds exactly the games shown, sought by the
                        // status and the filters, then the cursor.
                        let named = text
                            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                            .any(|word| word == index);
                        assert!(named, "{filter:?}: {text}");
                        if listing != ARCHIVE {
                            assert!(text.contains("(finished_ms,id)<(?,?))"), "{text}");
                        }
                        continue;
                    }
                    // PostgreSQL goes by statistics: a common filter may be read through the
                    // index of all games (a 5% one was: 167 games read and dropped for 10
                    // shown), a rare one must have its own, and either way a page reads a
                    // few games more than it shows, not thousands.
                    let dropped: usize = plan
                        .iter()
                        .filter_map(|step| step.trim().strip_prefix("Rows Removed by Filter: "))
                        .map(|n| n.parse::<usize>().unwrap())
                        .sum();
                    assert!(dropped <= 10 * limit, "{filter:?}: {text}");
                    // The pages the whole query read (its first step counts its steps').
                    let read: usize = plan
                        .iter()
                        .find_map(|step| step.trim().strip_prefix("Buffers: shared "))
                        .unwrap_or_else(|| panic!("{text}"))
                        .split(' ')
                        .filter_map(|part| part.split_once('=')?.1.parse::<usize>().ok())
                        .sum();
                    pages_read.push(read);
                }
                // A page from the middle of the archive costs what the first one does: the
                // cursor is sought, not reached by reading every game before it.
                if let [first, middle] = pages_read[..] {
                    assert!(
                        middle <= first + 10,
                        "{filter:?}: {first} then {middle} pages"
                    );
                }
            }
        }
    }
}
