//! The embedded store: games, seats, moves and events in one SQLite file (WAL mode), the
//! default, for one server process.

use super::{
    Backend, Change, EventRow, GameRow, Listing, SeatRow, StoreError, StoreResult, StoredMove,
    Summary, migrations, now_ms,
};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// How often the write-ahead log is copied into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// The embedded store: one SQLite connection shared by blocking tasks.
pub struct Sqlite {
    connection: Arc<Mutex<Connection>>,
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Backend(format!("sqlite: {e}"))
    }
}

impl Sqlite {
    /// Opens (creating and migrating) the database at `path`.
    pub fn open(path: &Path) -> StoreResult<Sqlite> {
        let connection = Connection::open(path)?;
        let store = Self::prepare(connection)?;
        // Checkpoints copy the log into the database. Left to SQLite, one runs inside the
        // commit that fills the log, and that move's acknowledgement waits for it; here a
        // thread of its own does them, on its own connection, while commits go on.
        store.with(|c| Ok(c.pragma_update(None, "wal_autocheckpoint", 0)?))?;
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
            .map_err(|e| StoreError::Backend(format!("checkpoint thread: {e}")))?;
        Ok(store)
    }

    /// A database in memory (tests of the store itself).
    pub fn in_memory() -> StoreResult<Sqlite> {
        Self::prepare(Connection::open_in_memory()?)
    }

    fn prepare(mut connection: Connection) -> StoreResult<Sqlite> {
        // WAL with synchronous=NORMAL: a committed transaction survives the death of the
        // process (only a power loss may take the last ones back).
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection.pragma_update(None, "foreign_keys", "ON")?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        migrations::migrate_sqlite(&mut connection)?;
        Ok(Sqlite {
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
}

impl Backend for Sqlite {
    /// Stores a new game with its seats and first events.
    fn create(&self, game: &GameRow, events: &[EventRow]) -> StoreResult<()> {
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
            Ok(tx.commit()?)
        })
    }

    /// Writes one change of a game atomically; fails (writing nothing) if the stored version
    /// is not `version` (another writer got there first).
    fn commit(&self, id: &str, version: u64, change: &Change) -> StoreResult<()> {
        self.with(|c| {
            let tx = c.transaction()?;
            let new_version = version + change.events.len() as u64;
            let updated = tx.prepare_cached(
                "UPDATE games SET version = ?3, \
                   status = COALESCE(?4, status), \
                   clock_state = COALESCE(?5, clock_state), \
                   offers = COALESCE(?6, offers) \
                 WHERE id = ?1 AND version = ?2",
            )?
            .execute(params![
                    id,
                    version as i64,
                    new_version as i64,
                    change.status,
                    change.clock_state,
                    change.offers
                ])?;
            if updated != 1 {
                return Err(StoreError::Stale);
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
            for (ply, stored) in &change.moves {
                tx.prepare_cached(
                    "INSERT INTO moves (game_id, ply, text, mover) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![
                    id,
                    *ply as i64,
                    stored.text,
                    stored.mover.map(|m| m as i64)
                ])?;
            }
            if let Some((n, hash)) = &change.seat {
                tx.prepare_cached(
                    "UPDATE seats SET token_hash = ?3 WHERE game_id = ?1 AND n = ?2",
                )?
                .execute(params![id, *n as i64, hash])?;
            }
            insert_events(&tx, id, &change.events)?;
            Ok(tx.commit()?)
        })
    }

    /// A stored game with its seats and moves.
    fn load(&self, id: &str) -> StoreResult<Option<GameRow>> {
        self.with(|c| {
            let row = c
                .query_row(
                    "SELECT id, variant, options, fen, clock, status, result, quarters, reason, \
                     version, clock_state, created_ms, listed, offers FROM games WHERE id = ?1",
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
                            offers: r.get(13)?,
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
                c.prepare_cached("SELECT text, mover FROM moves WHERE game_id = ?1 ORDER BY ply")?;
            row.moves = statement
                .query_map(params![id], |r| {
                    Ok(StoredMove {
                        text: r.get(0)?,
                        mover: r.get::<_, Option<i64>>(1)?.map(|m| m as usize),
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            Ok(Some(row))
        })
    }

    /// The events of a game after version `after`, in order.
    fn events_after(&self, id: &str, after: u64) -> StoreResult<Vec<EventRow>> {
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
                .collect::<rusqlite::Result<_>>()
                .map_err(StoreError::from)
        })
    }

    /// Games for the lobby or the archive, at most `limit`, the newest first.
    fn list(&self, listing: Listing, limit: usize) -> StoreResult<Vec<Summary>> {
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
                .collect::<rusqlite::Result<Vec<_>>>()?;
            drop(statement);
            for game in &mut games {
                game.seats = seats(c, &game.id)?;
            }
            Ok(games)
        })
    }

    /// Ids of the games that are live (to resume their clocks after a restart).
    fn live_ids(&self) -> StoreResult<Vec<String>> {
        self.with(|c| {
            let mut statement = c.prepare_cached("SELECT id FROM games WHERE status = 'live'")?;
            Ok(statement
                .query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?)
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
        .collect::<rusqlite::Result<_>>()
        .map_err(StoreError::from)
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
