//! The store on a PostgreSQL server, for several server nodes sharing the games: the same
//! tables as SQLite's, plus the leases that say which node runs each live game and the bus
//! (`LISTEN`/`NOTIFY`) that tells the other nodes when a game changed.
//!
//! A commit is fenced by the lease: it writes only while this node holds the game's unexpired
//! lease and the stored version is the one the change was made on, so a node that lost a game
//! (paused past its lease, or cut off) can never write over the node that took it over. The
//! notice of a change (`{"v":1,"game":ID,"version":N}`) is sent inside the same transaction,
//! so it is delivered exactly when the change is visible.

use super::listing::{self, Arg, Dialect, Listed};
use super::{
    Backend, Change, Cluster, Ending, EventRow, Filter, GameRow, GameStatus, Listing, SeatKind,
    SeatRow, StoreError, StoreResult, StoredMove, Summary, migrations, now_ms,
};
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::ToSql;
use postgres::{Client, NoTls, Row, Statement};
use std::collections::HashMap;
use std::sync::{Condvar, Mutex, mpsc};
use std::time::Duration;

/// Connections kept open for requests (the listener has one more of its own).
const POOL_SIZE: usize = 8;
/// How long a lease lasts without renewal: a dead node's games wait this long for another.
pub const LEASE: Duration = Duration::from_secs(5);
/// The channel every node listens on (notices of changed games).
const ALL_NODES: &str = "chaturanga";
/// A lock id for migrations, so that nodes starting at once migrate one after another.
const MIGRATION_LOCK: i64 = 0x6368_6174_7572;
/// How long a statement may wait for a lock before it fails (SQLite's busy timeout).
const LOCK_TIMEOUT: &str = "5s";

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> Self {
        // The server's own message says more than the client's summary.
        let message = match e.as_db_error() {
            Some(db) => format!("postgres: {}", db.message()),
            None => format!("postgres: {e}"),
        };
        StoreError::Backend(message)
    }
}

/// The store on a PostgreSQL server.
pub struct Postgres {
    url: String,
    node: String,
    idle: Mutex<Vec<Conn>>,
    returned: Condvar,
    open: Mutex<usize>,
    notices: Mutex<Option<mpsc::Receiver<Option<String>>>>,
}

impl Postgres {
    /// Connects to `url`, migrates the schema and starts listening for notices, as a new node
    /// with a random id.
    pub fn open(url: &str) -> StoreResult<Postgres> {
        let mut client = connect(url)?;
        migrate(&mut client)?;
        let node = random_node_id()?;
        let (sender, receiver) = mpsc::channel();
        let listener = connect(url)?;
        spawn_listener(url.to_string(), node.clone(), listener, sender)?;
        Ok(Postgres {
            url: url.to_string(),
            node,
            idle: Mutex::new(vec![Conn {
                client,
                statements: HashMap::new(),
            }]),
            returned: Condvar::new(),
            open: Mutex::new(1),
            notices: Mutex::new(Some(receiver)),
        })
    }

    /// Runs `f` on a pooled connection (opening one if fewer than [`POOL_SIZE`] are open,
    /// waiting for one otherwise). A connection that broke is closed, not returned.
    fn with<T>(&self, f: impl FnOnce(&mut Conn) -> StoreResult<T>) -> StoreResult<T> {
        let mut client = self.take()?;
        let result = f(&mut client);
        if client.client.is_closed() {
            *lock(&self.open) -= 1;
        } else {
            lock(&self.idle).push(client);
        }
        self.returned.notify_one();
        result
    }

    fn take(&self) -> StoreResult<Conn> {
        let mut idle = lock(&self.idle);
        loop {
            if let Some(client) = idle.pop() {
                return Ok(client);
            }
            {
                let mut open = lock(&self.open);
                if *open < POOL_SIZE {
                    *open += 1;
                    drop(open);
                    drop(idle);
                    return connect(&self.url)
                        .map(|client| Conn {
                            client,
                            statements: HashMap::new(),
                        })
                        .inspect_err(|_| *lock(&self.open) -= 1);
                }
            }
            idle = self
                .returned
                .wait(idle)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

/// A pooled connection with its prepared statements: each statement is parsed once per
/// connection, not once per use, which halves the round trips of a commit.
struct Conn {
    client: Client,
    statements: HashMap<String, Statement>,
}

type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

/// The statement for `sql` on this connection, prepared the first time.
fn prepared(
    statements: &mut HashMap<String, Statement>,
    client: &mut impl postgres::GenericClient,
    sql: &str,
) -> StoreResult<Statement> {
    if let Some(statement) = statements.get(sql) {
        return Ok(statement.clone());
    }
    // Prepared statements belong to the session, not the transaction: they outlive it.
    let statement = client.prepare(sql)?;
    statements.insert(sql.to_string(), statement.clone());
    Ok(statement)
}

/// Runs `sql` (prepared once per connection) in a transaction.
fn exec(
    statements: &mut HashMap<String, Statement>,
    tx: &mut postgres::Transaction<'_>,
    sql: &str,
    params: Params<'_>,
) -> StoreResult<u64> {
    let statement = prepared(statements, tx, sql)?;
    Ok(tx.execute(&statement, params)?)
}

impl Conn {
    fn query(&mut self, sql: &str, params: Params<'_>) -> StoreResult<Vec<Row>> {
        let statement = prepared(&mut self.statements, &mut self.client, sql)?;
        Ok(self.client.query(&statement, params)?)
    }

    fn query_opt(&mut self, sql: &str, params: Params<'_>) -> StoreResult<Option<Row>> {
        let statement = prepared(&mut self.statements, &mut self.client, sql)?;
        Ok(self.client.query_opt(&statement, params)?)
    }

    fn execute(&mut self, sql: &str, params: Params<'_>) -> StoreResult<u64> {
        let statement = prepared(&mut self.statements, &mut self.client, sql)?;
        Ok(self.client.execute(&statement, params)?)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // A client closes its connection by blocking on a runtime of its own, which cannot
        // happen on a thread of the server's runtime, where the last store may be dropped.
        let clients = std::mem::take(&mut *lock(&self.idle));
        let _ = std::thread::Builder::new()
            .name("postgres-close".into())
            .spawn(move || drop(clients));
    }
}

/// Creates the database `name` (dropping an old one of that name) on the server `admin`
/// reaches, and answers `admin` with its database replaced by `name`: a database of its own
/// for a test or a benchmark. `name` must be a plain identifier.
pub fn create_database(admin: &str, name: &str) -> StoreResult<String> {
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(StoreError::Backend(format!(
            "not a plain database name: {name:?}"
        )));
    }
    // The URL comes from a test's environment, where a stray line in it is the usual fault.
    let mut client = Client::connect(admin, NoTls).map_err(|e| match StoreError::from(e) {
        StoreError::Backend(message) => StoreError::Backend(format!("{message} (in {admin:?})")),
        other => other,
    })?;
    // One statement per call: a batch would be one transaction, where these cannot run.
    client.batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))?;
    client.batch_execute(&format!("CREATE DATABASE {name}"))?;
    let (base, query) = admin
        .split_once('?')
        .map_or((admin, None), |(b, q)| (b, Some(q)));
    let (scheme, rest) = base.split_once("://").unwrap_or(("postgres", base));
    let authority = rest.split('/').next().unwrap_or(rest);
    Ok(match query {
        Some(query) => format!("{scheme}://{authority}/{name}?{query}"),
        None => format!("{scheme}://{authority}/{name}"),
    })
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn connect(url: &str) -> StoreResult<Client> {
    let mut client = Client::connect(url, NoTls)?;
    client.batch_execute(&format!("SET lock_timeout = '{LOCK_TIMEOUT}'"))?;
    Ok(client)
}

fn random_node_id() -> StoreResult<String> {
    let mut bytes = [0u8; 6];
    getrandom::fill(&mut bytes).map_err(|e| StoreError::Backend(format!("random: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A node's own channel (node ids are hex, so the name needs no quoting).
fn node_channel(node: &str) -> String {
    format!("chaturanga_{node}")
}

/// Applies the migrations not yet applied, under a lock that other nodes starting at the same
/// moment wait for.
fn migrate(client: &mut Client) -> StoreResult<()> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")?;
    let applied: Option<i64> = tx
        .query_opt("SELECT version FROM schema_version", &[])?
        .map(|row| row.get(0));
    if applied.is_none() {
        tx.execute("INSERT INTO schema_version (version) VALUES (0)", &[])?;
    }
    let applied = applied.unwrap_or(0) as usize;
    for (i, sql) in migrations::POSTGRES.iter().enumerate().skip(applied) {
        tx.batch_execute(sql)?;
        tx.execute(
            "UPDATE schema_version SET version = $1",
            &[&((i + 1) as i64)],
        )?;
    }
    tx.commit()?;
    Ok(())
}

/// Listens on a connection of its own for notices to all nodes and to this one, forwarding
/// them to `sender`; when the connection breaks it reconnects (sending `None`: notices may
/// have been missed) until the receiver is gone.
fn spawn_listener(
    url: String,
    node: String,
    first: Client,
    sender: mpsc::Sender<Option<String>>,
) -> StoreResult<()> {
    let listen = format!("LISTEN {ALL_NODES}; LISTEN {}", node_channel(&node));
    let mut client = first;
    client.batch_execute(&listen)?;
    std::thread::Builder::new()
        .name("postgres-listen".into())
        .spawn(move || {
            loop {
                // A timeout iterator ends for good once it timed out, so each quiet second
                // starts a new one.
                let broken = {
                    let mut notifications = client.notifications();
                    let mut iter = notifications.timeout_iter(Duration::from_secs(1));
                    loop {
                        match iter.next() {
                            Ok(Some(notice)) => {
                                if sender.send(Some(notice.payload().to_string())).is_err() {
                                    return;
                                }
                            }
                            Ok(None) => break false,
                            Err(_) => break true,
                        }
                    }
                };
                if !broken {
                    // A quiet second: go on while someone still listens.
                    if sender.send(Some(String::new())).is_err() {
                        return;
                    }
                    continue;
                }
                // The connection broke: reconnect, then say that notices may be lost.
                loop {
                    std::thread::sleep(Duration::from_millis(500));
                    if let Ok(mut fresh) = connect(&url)
                        && fresh.batch_execute(&listen).is_ok()
                    {
                        client = fresh;
                        break;
                    }
                }
                if sender.send(None).is_err() {
                    return;
                }
            }
        })
        .map_err(|e| StoreError::Backend(format!("listener thread: {e}")))?;
    Ok(())
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

/// Inserts a new game with its seats and first events, and this node's lease on it (the
/// node that creates a game runs it).
fn insert_game(
    statements: &mut HashMap<String, Statement>,
    tx: &mut postgres::Transaction<'_>,
    node: &str,
    game: &GameRow,
    events: &[EventRow],
) -> StoreResult<()> {
    exec(
        statements,
        tx,
        "INSERT INTO games (id, variant, options, fen, clock, status, version, clock_state, \
         created_ms, active_ms, listed, offers, creator, owner_hash, with_engine) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        &[
            &game.id,
            &game.variant,
            &to_json(&game.options),
            &game.fen,
            &game.clock.as_ref().map(to_json),
            &game.status.as_str(),
            &(game.version as i64),
            &game.clock_state.as_ref().map(to_json),
            &game.created_ms,
            &game.active_ms,
            &game.listed,
            &to_json(&game.pending),
            &game.creator,
            &game.owner_hash,
            &game.with_engine(),
        ],
    )?;
    for (n, seat) in game.seats.iter().enumerate() {
        exec(
            statements,
            tx,
            "INSERT INTO seats (game_id, n, kind, level, token_hash, arrived) \
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &game.id,
                &(n as i64),
                &seat.kind.word(),
                &seat.kind.level().map(i64::from),
                &seat.token_hash,
                &seat.arrived,
            ],
        )?;
    }
    exec(
        statements,
        tx,
        "INSERT INTO leases (game_id, node, expires) \
         VALUES ($1, $2, now() + make_interval(secs => $3))",
        &[&game.id, &node, &LEASE.as_secs_f64()],
    )?;
    insert_events(statements, tx, &game.id, events)
}

impl Backend for Postgres {
    fn create(&self, game: &GameRow, events: &[EventRow]) -> StoreResult<()> {
        self.with(|c| {
            let Conn { client, statements } = c;
            let mut tx = client.transaction()?;
            insert_game(statements, &mut tx, &self.node, game, events)?;
            tx.commit()?;
            Ok(())
        })
    }

    fn commit(&self, id: &str, version: u64, change: &Change) -> StoreResult<()> {
        self.with(|c| {
            let Conn { client, statements } = c;
            let mut tx = client.transaction()?;
            let new_version = version + change.events.len() as u64;
            // A live game is written only by the node holding its lease.
            let updated = exec(
                statements,
                &mut tx,
                "UPDATE games SET version = $3, \
                   status = COALESCE($4, status), \
                   clock_state = COALESCE($5, clock_state), \
                   offers = COALESCE($7, offers), \
                   active_ms = CASE WHEN $8 THEN $9 ELSE active_ms END, \
                   rematch = COALESCE($10, rematch) \
                 WHERE id = $1 AND version = $2 AND (status <> 'live' OR EXISTS ( \
                   SELECT 1 FROM leases l WHERE l.game_id = $1 AND l.node = $6 AND l.expires > now()))",
                &[
                    &id,
                    &(version as i64),
                    &(new_version as i64),
                    &change.status.map(GameStatus::as_str),
                    &change.clock_state.as_ref().map(to_json),
                    &self.node,
                    &change.pending.as_ref().map(to_json),
                    &change.active,
                    &now_ms(),
                    &change.rematch.as_ref().map(|r| r.game.id.as_str()),
                ],
            )?;
            if updated != 1 {
                return Err(StoreError::Stale);
            }
            if let Some(ending) = &change.ending {
                exec(
                    statements,
                    &mut tx,
                    "UPDATE games SET result = $2, quarters = $3, reason = $4, finished_ms = $5 WHERE id = $1",
                    &[
                        &id,
                        &ending.result,
                        &ending.quarters_text(),
                        &ending.reason.as_str(),
                        &now_ms(),
                    ],
                )?;
            } else if change.status.is_some_and(|s| s != GameStatus::Live) {
                exec(
                    statements,
                    &mut tx,
                    "UPDATE games SET finished_ms = $2 WHERE id = $1",
                    &[&id, &now_ms()],
                )?;
            }
            if let Some(keep) = change.truncate_to {
                exec(
                    statements,
                    &mut tx,
                    "DELETE FROM moves WHERE game_id = $1 AND ply >= $2",
                    &[&id, &(keep as i64)],
                )?;
            }
            for (ply, stored) in &change.moves {
                exec(
                    statements,
                    &mut tx,
                    "INSERT INTO moves (game_id, ply, text, mover) VALUES ($1, $2, $3, $4)",
                    &[
                        &id,
                        &(*ply as i64),
                        &stored.text,
                        &stored.mover.map(|m| m as i64),
                    ],
                )?;
            }
            if let Some((n, hash)) = &change.seat {
                exec(
                    statements,
                    &mut tx,
                    "UPDATE seats SET token_hash = $3 WHERE game_id = $1 AND n = $2",
                    &[&id, &(*n as i64), hash],
                )?;
            }
            if let Some(n) = change.arrived {
                exec(
                    statements,
                    &mut tx,
                    "UPDATE seats SET arrived = TRUE WHERE game_id = $1 AND n = $2",
                    &[&id, &(n as i64)],
                )?;
            }
            insert_events(statements, &mut tx, id, &change.events)?;
            if let Some(rematch) = &change.rematch {
                insert_game(statements, &mut tx, &self.node, &rematch.game, &rematch.events)?;
            }
            let notice = serde_json::json!({ "v": 1, "game": id, "version": new_version });
            exec(
                statements,
                &mut tx,
                "SELECT pg_notify($1, $2)",
                &[&ALL_NODES, &notice.to_string()],
            )?;
            tx.commit()?;
            Ok(())
        })
    }

    fn load(&self, id: &str) -> StoreResult<Option<GameRow>> {
        self.with(|c| {
            let Some(r) = c.query_opt(
                "SELECT id, variant, options, fen, clock, status, result, quarters, reason, \
                 version, clock_state, created_ms, listed, offers, active_ms, rematch, \
                 creator, owner_hash FROM games WHERE id = $1",
                &[&id],
            )?
            else {
                return Ok(None);
            };
            let ending = match (
                r.get::<_, Option<String>>(6),
                r.get::<_, Option<String>>(7),
                r.get::<_, Option<String>>(8),
            ) {
                (Some(result), Some(quarters), Some(reason)) => {
                    Some(Ending::parse(result, &quarters, &reason)?)
                }
                _ => None,
            };
            let mut row = GameRow {
                id: r.get(0),
                variant: r.get(1),
                options: json_column("options", Some(r.get(2)))?.unwrap_or_default(),
                fen: r.get(3),
                clock: json_column("clock", r.get(4))?,
                status: GameStatus::parse(r.get(5))?,
                ending,
                version: r.get::<_, i64>(9) as u64,
                clock_state: json_column("clock state", r.get(10))?,
                pending: json_column("offers", r.get(13))?.unwrap_or_default(),
                created_ms: r.get(11),
                active_ms: r.get(14),
                listed: r.get(12),
                rematch: r.get(15),
                creator: r.get(16),
                owner_hash: r.get(17),
                seats: Vec::new(),
                moves: Vec::new(),
            };
            row.seats = seats(c, id)?;
            row.moves = c
                .query(
                    "SELECT text, mover FROM moves WHERE game_id = $1 ORDER BY ply",
                    &[&id],
                )?
                .iter()
                .map(|r| StoredMove {
                    text: r.get(0),
                    mover: r.get::<_, Option<i64>>(1).map(|m| m as usize),
                })
                .collect();
            Ok(Some(row))
        })
    }

    fn events_after(&self, id: &str, after: u64) -> StoreResult<Vec<EventRow>> {
        self.with(|c| {
            Ok(c.query(
                "SELECT v, t, data, only_seat FROM events WHERE game_id = $1 AND v > $2 ORDER BY v",
                &[&id, &(after as i64)],
            )?
            .iter()
            .map(|r| EventRow {
                v: r.get::<_, i64>(0) as u64,
                t: r.get(1),
                data: r.get(2),
                only_seat: r.get::<_, Option<i64>>(3).map(|s| s as usize),
            })
            .collect())
        })
    }

    fn list(&self, listing: &Listing, filter: &Filter, limit: usize) -> StoreResult<Vec<Summary>> {
        let (sql, args) = listing::query(listing, filter, limit, Dialect::Postgres);
        let args: Vec<Box<dyn ToSql + Sync>> = args
            .into_iter()
            .map(|arg| -> Box<dyn ToSql + Sync> {
                match arg {
                    Arg::Int(n) => Box::new(n),
                    Arg::Text(text) => Box::new(text),
                    Arg::Bool(b) => Box::new(b),
                }
            })
            .collect();
        let params: Vec<&(dyn ToSql + Sync)> = args.iter().map(AsRef::as_ref).collect();
        self.with(|c| {
            let rows = c.query(&sql, &params)?;
            let mut games = Vec::with_capacity(rows.len());
            for r in &rows {
                let row = Listed {
                    id: r.get(0),
                    variant: r.get(1),
                    status: r.get(2),
                    result: r.get(3),
                    reason: r.get(4),
                    quarters: r.get(5),
                    created_ms: r.get(6),
                    finished_ms: r.get(7),
                    plies: r.get(8),
                };
                let seats = seats(c, &row.id)?;
                games.push(row.summary(seats)?);
            }
            Ok(games)
        })
    }

    fn live_ids(&self, active_since_ms: i64) -> StoreResult<Vec<String>> {
        self.with(|c| {
            Ok(c.query(
                "SELECT id FROM games WHERE status = 'live' \
                 AND (clock IS NOT NULL OR active_ms >= $1)",
                &[&active_since_ms],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect())
        })
    }

    fn cluster(&self) -> Option<&dyn Cluster> {
        Some(self)
    }
}

impl Cluster for Postgres {
    fn node(&self) -> &str {
        &self.node
    }

    fn acquire(&self, id: &str) -> StoreResult<Result<(), String>> {
        self.with(|c| {
            // No row comes back when another node holds an unexpired lease.
            let taken = c.query_opt(
                "INSERT INTO leases (game_id, node, expires) \
                 VALUES ($1, $2, now() + make_interval(secs => $3)) \
                 ON CONFLICT (game_id) DO UPDATE SET node = EXCLUDED.node, expires = EXCLUDED.expires \
                   WHERE leases.node = EXCLUDED.node OR leases.expires <= now() \
                 RETURNING node",
                &[&id, &self.node, &LEASE.as_secs_f64()],
            )?;
            if taken.is_some() {
                return Ok(Ok(()));
            }
            let owner: Option<String> = c
                .query_opt(
                    "SELECT node FROM leases WHERE game_id = $1 AND expires > now()",
                    &[&id],
                )?
                .map(|r| r.get(0));
            Ok(Err(owner.unwrap_or_default()))
        })
    }

    fn owner(&self, id: &str) -> StoreResult<Option<String>> {
        self.with(|c| {
            Ok(c.query_opt(
                "SELECT node FROM leases WHERE game_id = $1 AND expires > now()",
                &[&id],
            )?
            .map(|r| r.get(0)))
        })
    }

    fn renew(&self) -> StoreResult<Vec<String>> {
        self.with(|c| {
            Ok(c.query(
                "UPDATE leases SET expires = now() + make_interval(secs => $2) \
                 WHERE node = $1 AND expires > now() RETURNING game_id",
                &[&self.node, &LEASE.as_secs_f64()],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect())
        })
    }

    fn release(&self, id: &str) -> StoreResult<()> {
        self.with(|c| {
            c.execute(
                "DELETE FROM leases WHERE game_id = $1 AND node = $2",
                &[&id, &self.node],
            )?;
            Ok(())
        })
    }

    fn orphans(&self, limit: usize) -> StoreResult<Vec<String>> {
        self.with(|c| {
            Ok(c.query(
                "SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id \
                 WHERE g.status = 'live' AND (l.game_id IS NULL OR l.expires <= now()) \
                 ORDER BY g.created_ms LIMIT $1",
                &[&(limit as i64)],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect())
        })
    }

    fn notify(&self, node: Option<&str>, payload: &str) -> StoreResult<()> {
        let channel = node.map_or_else(|| ALL_NODES.to_string(), node_channel);
        self.with(|c| {
            c.execute("SELECT pg_notify($1, $2)", &[&channel, &payload])?;
            Ok(())
        })
    }

    fn listen(&self) -> Option<mpsc::Receiver<Option<String>>> {
        lock(&self.notices).take()
    }
}

fn seats(c: &mut Conn, id: &str) -> StoreResult<Vec<SeatRow>> {
    c.query(
        "SELECT kind, level, token_hash, arrived FROM seats WHERE game_id = $1 ORDER BY n",
        &[&id],
    )?
    .iter()
    .map(|r| {
        Ok(SeatRow {
            kind: SeatKind::parse(r.get(0), r.get(1))?,
            token_hash: r.get(2),
            arrived: r.get(3),
        })
    })
    .collect()
}

fn insert_events(
    statements: &mut HashMap<String, Statement>,
    tx: &mut postgres::Transaction<'_>,
    id: &str,
    events: &[EventRow],
) -> StoreResult<()> {
    if events.is_empty() {
        return Ok(());
    }
    let statement = prepared(
        statements,
        tx,
        "INSERT INTO events (game_id, v, t, data, only_seat) VALUES ($1, $2, $3, $4, $5)",
    )?;
    for e in events {
        tx.execute(
            &statement,
            &[
                &id,
                &(e.v as i64),
                &e.t,
                &e.data,
                &e.only_seat.map(|s| s as i64),
            ],
        )?;
    }
    Ok(())
}
