//! The embedded store: games, seats, moves and events in one SQLite file (WAL mode), the
//! default, for one server process.

use super::listing::{self, Arg, Dialect, Listed};
use super::{
    Backend, Change, Ending, EventRow, Filter, GameRow, GameStatus, Listing, SeatKind, SeatRow,
    StoreError, StoreResult, StoredMove, Summary, migrations, now_ms,
};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How often the write-ahead log is copied into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(500);
/// A log longer than this is copied whole and cut at the next checkpoint.
pub const WAL_TRUNCATE_ABOVE_BYTES: u64 = 16 << 20;
/// How long a cut of the log waits for readers, as a rule (readers' transactions are short).
const READERS_WAITED: std::time::Duration = std::time::Duration::from_millis(25);
/// Past this the cut waits for readers to move on rather than try again later.
const WAL_WAIT_ABOVE_BYTES: u64 = 4 * WAL_TRUNCATE_ABOVE_BYTES;
/// The size SQLite cuts the log back to when it starts it over.
const WAL_KEPT_BYTES: i64 = 4 << 20;
/// Read-only connections.
const READERS: usize = 4;

/// The embedded store: one connection that writes, a few that read, shared by blocking
/// tasks.
pub struct Sqlite {
    connection: Arc<Mutex<Connection>>,
    /// Read-only connections (none in memory, where the writer reads too).
    readers: Vec<Mutex<Connection>>,
    next_reader: AtomicUsize,
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
        let mut store = Self::prepare(connection)?;
        // A log left long by a crash (or by an older server) is copied and cut at once.
        store.with(|c| {
            c.pragma_update(None, "journal_size_limit", WAL_KEPT_BYTES)?;
            c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
            // Checkpoints copy the log into the database. Left to SQLite, one runs inside
            // the commit that fills the log, and that move's acknowledgement waits for it;
            // here a thread of its own does them, on its own connection, while commits go
            // on.
            Ok(c.pragma_update(None, "wal_autocheckpoint", 0)?)
        })?;
        // Readers have connections of their own: in WAL mode they never wait for the
        // writer, nor it for them.
        store.readers = (0..READERS)
            .map(|_| {
                let reader = Connection::open(path)?;
                reader.busy_timeout(std::time::Duration::from_secs(5))?;
                reader.pragma_update(None, "query_only", true)?;
                Ok(Mutex::new(reader))
            })
            .collect::<StoreResult<_>>()?;
        let checkpoints = Connection::open(path)?;
        let wal = wal_path(path);
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
                    let size = std::fs::metadata(&wal).map_or(0, |m| m.len());
                    // A failure here costs only log size, never a commit.
                    let _ = checkpoint(&checkpoints, size);
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
            readers: Vec::new(),
            next_reader: AtomicUsize::new(0),
        })
    }

    /// Runs `f` on a reader's connection (the writer's in memory): a free one if any, else
    /// the next in turn.
    fn read<T>(&self, f: impl FnOnce(&mut Connection) -> StoreResult<T>) -> StoreResult<T> {
        if self.readers.is_empty() {
            return self.with(f);
        }
        let start = self.next_reader.fetch_add(1, Ordering::Relaxed);
        let n = self.readers.len();
        let free = (0..n).find_map(|i| self.readers[(start + i) % n].try_lock().ok());
        let mut guard = match free {
            Some(guard) => guard,
            None => self.readers[start % n]
                .lock()
                .unwrap_or_else(|p| p.into_inner()),
        };
        f(&mut guard)
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

/// Copies the write-ahead log (`size` bytes long now) into the database, and cuts it when it
/// is long.
///
/// PASSIVE never waits for a writer, but under a steady stream of commits it never catches up
/// either (each commit adds to the log while it copies, and SQLite starts the log over only
/// once all of it is copied): the log grows without end. Past [`WAL_TRUNCATE_ABOVE_BYTES`]
/// a TRUNCATE follows at once, which holds the commits while it copies what the PASSIVE
/// left (little) and cuts the file. It waits for readers to move on only briefly (that wait
/// holds the commits too), [`READERS_WAITED`], and then tries again on the next round,
/// unless the log is past [`WAL_WAIT_ABOVE_BYTES`], when it waits as long as it takes.
fn checkpoint(connection: &Connection, size: u64) -> rusqlite::Result<()> {
    connection.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
    if size <= WAL_TRUNCATE_ABOVE_BYTES {
        return Ok(());
    }
    let wait = if size > WAL_WAIT_ABOVE_BYTES {
        std::time::Duration::from_secs(5)
    } else {
        READERS_WAITED
    };
    connection.busy_timeout(wait)?;
    connection.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
}

/// The write-ahead log of the database at `path`.
fn wal_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// The file whose lock says a server writes the database at `path`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the lock that makes a server the one writer of the database at `path`, held while
/// the returned file is open (the system lets it go when the process ends, however it ends).
pub fn lock_for_writing(path: &Path) -> StoreResult<std::fs::File> {
    let lock = lock_path(path);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .map_err(|e| StoreError::Backend(format!("cannot open {}: {e}", lock.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::InUse(path.to_path_buf())),
        Err(std::fs::TryLockError::Error(e)) => Err(StoreError::Backend(format!(
            "cannot lock {}: {e}",
            lock.display()
        ))),
    }
}

/// Reads a stored JSON column, naming it when it does not parse.
fn json_column<T: serde::de::DeserializeOwned>(
    what: &str,
    text: Option<String>,
) -> StoreResult<Option<T>> {
    text.map(|t| {
        serde_json::from_str(&t)
            .map_err(|e| StoreError::Backend(format!("stored {what} does not read: {e}")))
    })
    .transpose()
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Inserts a new game with its seats and first events.
fn insert_game(
    tx: &rusqlite::Transaction<'_>,
    game: &GameRow,
    events: &[EventRow],
) -> StoreResult<()> {
    tx.prepare_cached(
        "INSERT INTO games (id, variant, options, fen, clock, status, version, clock_state, \
         created_ms, active_ms, listed, offers, creator, owner_hash, with_engine) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?
    .execute(params![
        game.id,
        game.variant,
        to_json(&game.options),
        game.fen,
        game.clock.as_ref().map(to_json),
        game.status.as_str(),
        game.version as i64,
        game.clock_state.as_ref().map(to_json),
        game.created_ms,
        game.active_ms,
        game.listed,
        to_json(&game.pending),
        game.creator,
        game.owner_hash,
        game.with_engine(),
    ])?;
    for (n, seat) in game.seats.iter().enumerate() {
        tx.prepare_cached(
            "INSERT INTO seats (game_id, n, kind, level, token_hash, arrived) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            game.id,
            n as i64,
            seat.kind.word(),
            seat.kind.level(),
            seat.token_hash,
            seat.arrived
        ])?;
    }
    insert_events(tx, &game.id, events)
}

impl Backend for Sqlite {
    /// Stores a new game with its seats and first events.
    fn create(&self, game: &GameRow, events: &[EventRow]) -> StoreResult<()> {
        self.with(|c| {
            let tx = c.transaction()?;
            insert_game(&tx, game, events)?;
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
                   offers = COALESCE(?6, offers), \
                   active_ms = CASE WHEN ?7 THEN ?8 ELSE active_ms END, \
                   rematch = COALESCE(?9, rematch) \
                 WHERE id = ?1 AND version = ?2",
            )?
            .execute(params![
                    id,
                    version as i64,
                    new_version as i64,
                    change.status.map(GameStatus::as_str),
                    change.clock_state.as_ref().map(to_json),
                    change.pending.as_ref().map(to_json),
                    change.active,
                    now_ms(),
                    change.rematch.as_ref().map(|r| r.game.id.as_str()),
                ])?;
            if updated != 1 {
                return Err(StoreError::Stale);
            }
            if let Some(ending) = &change.ending {
                tx.prepare_cached(
                    "UPDATE games SET result = ?2, quarters = ?3, reason = ?4, finished_ms = ?5 WHERE id = ?1",
                )?
                .execute(params![
                    id,
                    ending.result,
                    ending.quarters_text(),
                    ending.reason.as_str(),
                    now_ms()
                ])?;
            } else if change.status.is_some_and(|s| s != GameStatus::Live) {
                tx.prepare_cached("UPDATE games SET finished_ms = ?2 WHERE id = ?1")?
                    .execute(params![id, now_ms()])?;
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
            if let Some(n) = change.arrived {
                tx.prepare_cached("UPDATE seats SET arrived = 1 WHERE game_id = ?1 AND n = ?2")?
                    .execute(params![id, n as i64])?;
            }
            insert_events(&tx, id, &change.events)?;
            if let Some(rematch) = &change.rematch {
                insert_game(&tx, &rematch.game, &rematch.events)?;
            }
            Ok(tx.commit()?)
        })
    }

    /// A stored game with its seats and moves.
    fn load(&self, id: &str) -> StoreResult<Option<GameRow>> {
        self.read(|c| {
            type Columns = (
                String,
                String,
                String,
                Option<String>,
                Option<String>,
                String,
                Option<String>,
                Option<String>,
                Option<String>,
                i64,
                Option<String>,
                i64,
                bool,
                Option<String>,
                i64,
                Option<String>,
                Option<String>,
                Option<String>,
            );
            let columns: Option<Columns> = c
                .query_row(
                    "SELECT id, variant, options, fen, clock, status, result, quarters, reason, \
                     version, clock_state, created_ms, listed, offers, active_ms, rematch, \
                     creator, owner_hash FROM games WHERE id = ?1",
                    params![id],
                    |r| {
                        Ok((
                            r.get(0)?,
                            r.get(1)?,
                            r.get(2)?,
                            r.get(3)?,
                            r.get(4)?,
                            r.get(5)?,
                            r.get(6)?,
                            r.get(7)?,
                            r.get(8)?,
                            r.get(9)?,
                            r.get(10)?,
                            r.get(11)?,
                            r.get(12)?,
                            r.get(13)?,
                            r.get(14)?,
                            r.get(15)?,
                            r.get(16)?,
                            r.get(17)?,
                        ))
                    },
                )
                .optional()?;
            let Some((
                id,
                variant,
                options,
                fen,
                clock,
                status,
                result,
                quarters,
                reason,
                version,
                clock_state,
                created_ms,
                listed,
                offers,
                active_ms,
                rematch,
                creator,
                owner_hash,
            )) = columns
            else {
                return Ok(None);
            };
            let ending = match (result, quarters, reason) {
                (Some(result), Some(quarters), Some(reason)) => {
                    Some(Ending::parse(result, &quarters, &reason)?)
                }
                _ => None,
            };
            let mut row = GameRow {
                options: json_column("options", Some(options))?.unwrap_or_default(),
                fen,
                clock: json_column("clock", clock)?,
                status: GameStatus::parse(&status)?,
                ending,
                version: version as u64,
                clock_state: json_column("clock state", clock_state)?,
                pending: json_column("offers", offers)?.unwrap_or_default(),
                created_ms,
                active_ms,
                listed,
                rematch,
                creator,
                owner_hash,
                seats: seats(c, &id)?,
                moves: Vec::new(),
                id,
                variant,
            };
            let mut statement =
                c.prepare_cached("SELECT text, mover FROM moves WHERE game_id = ?1 ORDER BY ply")?;
            row.moves = statement
                .query_map(params![row.id], |r| {
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
        self.read(|c| {
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

    fn list(&self, listing: &Listing, filter: &Filter, limit: usize) -> StoreResult<Vec<Summary>> {
        let (sql, args) = listing::query(listing, filter, limit, Dialect::Sqlite);
        let args = args.into_iter().map(|arg| match arg {
            Arg::Int(n) => rusqlite::types::Value::Integer(n),
            Arg::Text(text) => rusqlite::types::Value::Text(text),
            Arg::Bool(b) => rusqlite::types::Value::Integer(b.into()),
        });
        self.read(|c| {
            let mut statement = c.prepare_cached(&sql)?;
            let rows = statement
                .query_map(rusqlite::params_from_iter(args), |r| {
                    Ok(Listed {
                        id: r.get(0)?,
                        variant: r.get(1)?,
                        status: r.get(2)?,
                        result: r.get(3)?,
                        reason: r.get(4)?,
                        quarters: r.get(5)?,
                        created_ms: r.get(6)?,
                        finished_ms: r.get(7)?,
                        plies: r.get(8)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            drop(statement);
            rows.into_iter()
                .map(|row| {
                    let seats = seats(c, &row.id)?;
                    row.summary(seats)
                })
                .collect()
        })
    }

    fn live_ids(&self, active_since_ms: i64) -> StoreResult<Vec<String>> {
        self.read(|c| {
            let mut statement = c.prepare_cached(
                "SELECT id FROM games WHERE status = 'live' \
                 AND (clock IS NOT NULL OR active_ms >= ?1)",
            )?;
            Ok(statement
                .query_map(params![active_since_ms], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?)
        })
    }
}

fn seats(c: &Connection, id: &str) -> StoreResult<Vec<SeatRow>> {
    let mut statement = c.prepare_cached(
        "SELECT kind, level, token_hash, arrived FROM seats WHERE game_id = ?1 ORDER BY n",
    )?;
    let rows = statement
        .query_map(params![id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<i64>>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, bool>(3)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter()
        .map(|(kind, level, token_hash, arrived)| {
            Ok(SeatRow {
                kind: SeatKind::parse(&kind, level)?,
                token_hash,
                arrived,
            })
        })
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
