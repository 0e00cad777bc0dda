//! The embedded store: games, seats, moves and events in one SQLite file (WAL mode).
//!
//! Every change of a live game is one transaction ([`Store::commit`]); the game's task
//! answers and broadcasts only after it returns, so whatever a client was told survives a
//! crash at any instant. The connection is used from blocking threads only.

mod migrations;

use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::{Arc, Mutex};

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
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// Shown in the lobby's listings (games for a friend by link are not).
    pub listed: bool,
    /// The seats in order.
    pub seats: Vec<SeatRow>,
    /// The moves (turn parts) played, in coordinate notation.
    pub moves: Vec<String>,
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
    pub moves: Vec<(usize, String)>,
    /// The new status.
    pub status: Option<String>,
    /// The result, quarters and reason, when the game ends.
    pub result: Option<(String, String, String)>,
    /// The clocks' new state.
    pub clock_state: Option<String>,
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

/// How often the write-ahead log is copied into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// The store: one SQLite connection shared by blocking tasks.
#[derive(Clone)]
pub struct Store {
    connection: Arc<Mutex<Connection>>,
}

/// A failure of the store.
pub type StoreResult<T> = Result<T, rusqlite::Error>;

impl Store {
    /// Opens (creating and migrating) the database at `path`.
    pub fn open(path: &Path) -> StoreResult<Store> {
        let connection = Connection::open(path)?;
        let store = Self::prepare(connection)?;
        // Checkpoints copy the log into the database. Left to SQLite, one runs inside the
        // commit that fills the log, and that move's acknowledgement waits for it; here a
        // thread of its own does them, on its own connection, while commits go on.
        store.with(|c| c.pragma_update(None, "wal_autocheckpoint", 0))?;
        let checkpoints = Connection::open(path)?;
        checkpoints.busy_timeout(std::time::Duration::from_secs(5))?;
        // The thread ends with the store.
        let alive = Arc::downgrade(&store.connection);
        std::thread::Builder::new()
            .name("wal-checkpoint".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(CHECKPOINT_EVERY);
                    if alive.strong_count() == 0 {
                        return;
                    }
                    // PASSIVE never waits for a writer; what it cannot copy now, the next
                    // one will. A failure here costs only log size, never a commit.
                    let _ = checkpoints.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                }
            })
            .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        Ok(store)
    }

    /// A database in memory (tests of the store itself).
    pub fn in_memory() -> StoreResult<Store> {
        Self::prepare(Connection::open_in_memory()?)
    }

    fn prepare(mut connection: Connection) -> StoreResult<Store> {
        // WAL with synchronous=NORMAL: a committed transaction survives the death of the
        // process (only a power loss may take the last ones back).
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection.pragma_update(None, "foreign_keys", "ON")?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        migrations::migrate(&mut connection)?;
        Ok(Store {
            connection: Arc::new(Mutex::new(connection)),
        })
    }

    fn with<T>(&self, f: impl FnOnce(&mut Connection) -> StoreResult<T>) -> StoreResult<T> {
        let mut guard = match self.connection.lock() {
            Ok(guard) => guard,
            // A panic while holding the lock left no transaction open (rusqlite rolls back
            // on drop), so the connection is still good.
            Err(poisoned) => poisoned.into_inner(),
        };
        f(&mut guard)
    }

    /// Stores a new game with its seats and first events.
    pub fn create(&self, game: &GameRow, events: &[EventRow]) -> StoreResult<()> {
        self.with(|c| {
            let tx = c.transaction()?;
            tx.execute(
                "INSERT INTO games (id, variant, options, fen, clock, status, version, \
                 clock_state, created_ms, listed) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    game.id,
                    game.variant,
                    serde_json::to_string(&game.options).unwrap_or_else(|_| "[]".into()),
                    game.fen,
                    game.clock,
                    game.status,
                    game.version as i64,
                    game.clock_state,
                    game.created_ms,
                    game.listed,
                ],
            )?;
            for (n, seat) in game.seats.iter().enumerate() {
                tx.execute(
                    "INSERT INTO seats (game_id, n, kind, level, token_hash) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![game.id, n as i64, seat.kind, seat.level, seat.token_hash],
                )?;
            }
            insert_events(&tx, &game.id, events)?;
            tx.commit()
        })
    }

    /// Writes one change of a game atomically; fails (writing nothing) if the stored version
    /// is not `version` (another writer got there first).
    pub fn commit(&self, id: &str, version: u64, change: &Change) -> StoreResult<()> {
        self.with(|c| {
            let tx = c.transaction()?;
            let new_version = version + change.events.len() as u64;
            let updated = tx.prepare_cached(
                "UPDATE games SET version = ?3, \
                   status = COALESCE(?4, status), \
                   clock_state = COALESCE(?5, clock_state) \
                 WHERE id = ?1 AND version = ?2",
            )?
            .execute(params![
                    id,
                    version as i64,
                    new_version as i64,
                    change.status,
                    change.clock_state
                ])?;
            if updated != 1 {
                return Err(rusqlite::Error::QueryReturnedNoRows);
            }
            if let Some((result, quarters, reason)) = &change.result {
                tx.prepare_cached(
                    "UPDATE games SET result = ?2, quarters = ?3, reason = ?4, finished_ms = ?5 WHERE id = ?1",
                )?
                .execute(params![id, result, quarters, reason, now_ms()])?;
            }
            if let Some(keep) = change.truncate_to {
                tx.prepare_cached(
                    "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                )?
                .execute(params![id, keep as i64])?;
            }
            for (ply, text) in &change.moves {
                tx.prepare_cached(
                    "INSERT INTO moves (game_id, ply, text) VALUES (?1, ?2, ?3)",
                )?
                .execute(params![id, *ply as i64, text])?;
            }
            if let Some((n, hash)) = &change.seat {
                tx.prepare_cached(
                    "UPDATE seats SET token_hash = ?3 WHERE game_id = ?1 AND n = ?2",
                )?
                .execute(params![id, *n as i64, hash])?;
            }
            insert_events(&tx, id, &change.events)?;
            tx.commit()
        })
    }

    /// A stored game with its seats and moves.
    pub fn load(&self, id: &str) -> StoreResult<Option<GameRow>> {
        self.with(|c| {
            let row = c
                .query_row(
                    "SELECT id, variant, options, fen, clock, status, result, quarters, reason, \
                     version, clock_state, created_ms, listed FROM games WHERE id = ?1",
                    params![id],
                    |r| {
                        let options: String = r.get(2)?;
                        Ok(GameRow {
                            id: r.get(0)?,
                            variant: r.get(1)?,
                            options: serde_json::from_str(&options).unwrap_or_default(),
                            fen: r.get(3)?,
                            clock: r.get(4)?,
                            status: r.get(5)?,
                            result: r.get(6)?,
                            quarters: r.get(7)?,
                            reason: r.get(8)?,
                            version: r.get::<_, i64>(9)? as u64,
                            clock_state: r.get(10)?,
                            created_ms: r.get(11)?,
                            listed: r.get(12)?,
                            seats: Vec::new(),
                            moves: Vec::new(),
                        })
                    },
                )
                .optional()?;
            let Some(mut row) = row else {
                return Ok(None);
            };
            row.seats = seats(c, id)?;
            let mut statement =
                c.prepare_cached("SELECT text FROM moves WHERE game_id = ?1 ORDER BY ply")?;
            row.moves = statement
                .query_map(params![id], |r| r.get(0))?
                .collect::<StoreResult<_>>()?;
            Ok(Some(row))
        })
    }

    /// The events of a game after version `after`, in order.
    pub fn events_after(&self, id: &str, after: u64) -> StoreResult<Vec<EventRow>> {
        self.with(|c| {
            let mut statement = c.prepare_cached(
                "SELECT v, t, data, only_seat FROM events WHERE game_id = ?1 AND v > ?2 ORDER BY v",
            )?;
            statement
                .query_map(params![id, after as i64], |r| {
                    Ok(EventRow {
                        v: r.get::<_, i64>(0)? as u64,
                        t: r.get(1)?,
                        data: r.get(2)?,
                        only_seat: r.get::<_, Option<i64>>(3)?.map(|s| s as usize),
                    })
                })?
                .collect()
        })
    }

    /// Games for the lobby or the archive, at most `limit`, the newest first.
    pub fn list(&self, listing: Listing, limit: usize) -> StoreResult<Vec<Summary>> {
        self.with(|c| {
            let filter = match listing {
                Listing::Open => {
                    "status = 'live' AND listed = 1 AND EXISTS (SELECT 1 FROM seats s \
                     WHERE s.game_id = g.id AND s.kind = 'human' AND s.token_hash IS NULL)"
                }
                Listing::Live => "status = 'live' AND listed = 1",
                Listing::Finished => "status IN ('finished', 'aborted')",
            };
            let order = match listing {
                Listing::Finished => "finished_ms DESC, created_ms DESC",
                _ => "created_ms DESC",
            };
            let sql = format!(
                "SELECT id, variant, status, result, reason, created_ms, \
                 (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) \
                 FROM games g WHERE {filter} ORDER BY {order} LIMIT ?1"
            );
            let mut statement = c.prepare_cached(&sql)?;
            let mut games = statement
                .query_map(params![limit as i64], |r| {
                    Ok(Summary {
                        id: r.get(0)?,
                        variant: r.get(1)?,
                        status: r.get(2)?,
                        result: r.get(3)?,
                        reason: r.get(4)?,
                        created_ms: r.get(5)?,
                        plies: r.get::<_, i64>(6)? as usize,
                        seats: Vec::new(),
                    })
                })?
                .collect::<StoreResult<Vec<_>>>()?;
            drop(statement);
            for game in &mut games {
                game.seats = seats(c, &game.id)?;
            }
            Ok(games)
        })
    }

    /// Ids of the games that are live (to resume their clocks after a restart).
    pub fn live_ids(&self) -> StoreResult<Vec<String>> {
        self.with(|c| {
            let mut statement = c.prepare_cached("SELECT id FROM games WHERE status = 'live'")?;
            statement.query_map([], |r| r.get(0))?.collect()
        })
    }
}

fn seats(c: &Connection, id: &str) -> StoreResult<Vec<SeatRow>> {
    let mut statement = c.prepare_cached(
        "SELECT kind, level, token_hash FROM seats WHERE game_id = ?1 ORDER BY n",
    )?;
    statement
        .query_map(params![id], |r| {
            Ok(SeatRow {
                kind: r.get(0)?,
                level: r.get(1)?,
                token_hash: r.get(2)?,
            })
        })?
        .collect()
}

fn insert_events(tx: &rusqlite::Transaction<'_>, id: &str, events: &[EventRow]) -> StoreResult<()> {
    let mut statement = tx.prepare_cached(
        "INSERT INTO events (game_id, v, t, data, only_seat) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for e in events {
        statement.execute(params![
            id,
            e.v as i64,
            e.t,
            e.data,
            e.only_seat.map(|s| s as i64)
        ])?;
    }
    Ok(())
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
        let store = Store::in_memory().unwrap();
        store.create(&game("g1"), &[event(1)]).unwrap();
        let change = Change {
            moves: vec![(0, "e2e4".into())],
            events: vec![event(2)],
            ..Change::default()
        };
        store.commit("g1", 1, &change).unwrap();
        assert!(store.commit("g1", 1, &change).is_err());
        let row = store.load("g1").unwrap().unwrap();
        assert_eq!(row.moves, vec!["e2e4".to_string()]);
        assert_eq!(row.version, 2);
        assert_eq!(store.events_after("g1", 0).unwrap().len(), 2);
        assert_eq!(store.events_after("g1", 1).unwrap()[0].v, 2);
    }

    #[test]
    fn takebacks_cut_the_moves_and_listings_filter() {
        let store = Store::in_memory().unwrap();
        store.create(&game("g1"), &[event(1)]).unwrap();
        let moves = Change {
            moves: vec![(0, "e2e4".into()), (1, "e7e5".into())],
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
        assert_eq!(store.load("g1").unwrap().unwrap().moves, vec!["e2e4"]);
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
