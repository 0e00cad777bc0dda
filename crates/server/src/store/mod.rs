//! The store: games, seats, moves and events, behind one [`Backend`] trait with two
//! implementations — the embedded SQLite file (the default, for one server process) and a
//! PostgreSQL server (for several nodes sharing the games).
//!
//! Every change of a live game is one transaction ([`Store::commit`]); the game's task
//! answers and broadcasts only after it returns, so whatever a client was told survives a
//! crash at any instant. Backends are used from blocking threads only.

mod migrations;
pub mod postgres;
pub mod sqlite;

use std::path::PathBuf;
use std::sync::Arc;

/// A stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Its id.
    pub id: String,
    /// The ruleset id.
    pub variant: String,
    /// Rule options as given at creation (`name=value`).
    pub options: Vec<String>,
    /// The start FEN given at creation, if any.
    pub fen: Option<String>,
    /// The clock settings as JSON, if the game has a clock.
    pub clock: Option<String>,
    /// `live`, `finished` or `aborted`.
    pub status: String,
    /// The result (`1-0`), once finished.
    pub result: Option<String>,
    /// Each player's score in quarter points, comma-separated, once finished.
    pub quarters: Option<String>,
    /// Why it ended.
    pub reason: Option<String>,
    /// The version: the number of the last event.
    pub version: u64,
    /// The clocks' state as JSON (each seat's time at the start of its turn).
    pub clock_state: Option<String>,
    /// The offers waiting for an answer, as JSON.
    pub offers: Option<String>,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// Shown in the lobby's listings (games for a friend by link are not).
    pub listed: bool,
    /// The seats in order.
    pub seats: Vec<SeatRow>,
    /// The moves (turn parts) played, in order.
    pub moves: Vec<StoredMove>,
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
    /// `human` or `engine`.
    pub kind: String,
    /// The engine's level (1-8).
    pub level: Option<u8>,
    /// The SHA-256 of the seat's token, hex, once claimed.
    pub token_hash: Option<String>,
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

/// One change of a game, written in one transaction.
#[derive(Clone, Debug, Default)]
pub struct Change {
    /// Moves are cut back to this many first (a takeback).
    pub truncate_to: Option<usize>,
    /// Moves appended, with their plies (0 = the first move).
    pub moves: Vec<(usize, StoredMove)>,
    /// The new status.
    pub status: Option<String>,
    /// The result, quarters and reason, when the game ends.
    pub result: Option<(String, String, String)>,
    /// The clocks' new state.
    pub clock_state: Option<String>,
    /// The offers' new state.
    pub offers: Option<String>,
    /// A seat claimed: its index and token hash.
    pub seat: Option<(usize, String)>,
    /// Events appended (their versions follow the stored version).
    pub events: Vec<EventRow>,
}

/// A game in a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Its id.
    pub id: String,
    /// The ruleset.
    pub variant: String,
    /// `live`, `finished` or `aborted`.
    pub status: String,
    /// The result, once finished.
    pub result: Option<String>,
    /// Why it ended.
    pub reason: Option<String>,
    /// Moves played.
    pub plies: usize,
    /// The seats.
    pub seats: Vec<SeatRow>,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
}

/// Which games a listing shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Live games with a human seat nobody has claimed.
    Open,
    /// Live games.
    Live,
    /// Finished games, the newest first.
    Finished,
}

/// A failure of the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The stored version was not the one the change was made on (another writer got there
    /// first), or this node no longer holds the game's lease: nothing was written.
    Stale,
    /// The database failed; the message says how.
    Backend(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Stale => f.write_str("the game was changed elsewhere; try again"),
            StoreError::Backend(message) => f.write_str(message),
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

    /// Games for the lobby or the archive, at most `limit`, the newest first.
    fn list(&self, listing: Listing, limit: usize) -> StoreResult<Vec<Summary>>;

    /// Ids of the games that are live.
    fn live_ids(&self) -> StoreResult<Vec<String>>;

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

    /// Games for the lobby or the archive, at most `limit`, the newest first.
    pub fn list(&self, listing: Listing, limit: usize) -> StoreResult<Vec<Summary>> {
        self.backend.list(listing, limit)
    }

    /// Ids of the games that are live (to resume their clocks after a restart).
    pub fn live_ids(&self) -> StoreResult<Vec<String>> {
        self.backend.live_ids()
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

    fn game(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            variant: "chess".into(),
            options: vec![],
            fen: None,
            clock: None,
            status: "live".into(),
            result: None,
            quarters: None,
            reason: None,
            version: 1,
            clock_state: None,
            offers: None,
            created_ms: now_ms(),
            listed: true,
            seats: vec![
                SeatRow {
                    kind: "human".into(),
                    level: None,
                    token_hash: Some("aa".into()),
                },
                SeatRow {
                    kind: "engine".into(),
                    level: Some(3),
                    token_hash: None,
                },
            ],
            moves: vec![],
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
        assert_eq!(store.list(Listing::Live, 10).unwrap().len(), 1);
        assert!(store.list(Listing::Open, 10).unwrap().is_empty());
        let end = Change {
            status: Some("finished".into()),
            result: Some(("1-0".into(), "4,0".into(), "resignation".into())),
            events: vec![event(4)],
            ..Change::default()
        };
        store.commit("g1", 3, &end).unwrap();
        assert_eq!(store.list(Listing::Finished, 10).unwrap()[0].plies, 1);
        assert!(store.load("nope").unwrap().is_none());
    }
}
