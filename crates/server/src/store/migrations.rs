//! Schema migrations, applied in order on open; `PRAGMA user_version` counts those applied.

use rusqlite::Connection;

/// Each migration's SQL, in order. Append only: a released migration never changes.
const MIGRATIONS: &[&str] = &[
    // 1: games, seats, moves and events.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        options TEXT NOT NULL,
        fen TEXT,
        clock TEXT,
        status TEXT NOT NULL,
        result TEXT,
        quarters TEXT,
        reason TEXT,
        version INTEGER NOT NULL,
        clock_state TEXT,
        created_ms INTEGER NOT NULL,
        finished_ms INTEGER
    );
    CREATE INDEX games_by_status ON games (status, created_ms);
    CREATE TABLE seats (
        game_id TEXT NOT NULL REFERENCES games (id),
        n INTEGER NOT NULL,
        kind TEXT NOT NULL,
        level INTEGER,
        token_hash TEXT,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE TABLE events (
        game_id TEXT NOT NULL REFERENCES games (id),
        v INTEGER NOT NULL,
        t TEXT NOT NULL,
        data TEXT NOT NULL,
        only_seat INTEGER,
        PRIMARY KEY (game_id, v)
    );",
    // 2: games made for friends by link are not listed in the lobby.
    "ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 1;",
];

/// Applies the migrations not yet applied, each in its own transaction.
pub fn migrate(connection: &mut Connection) -> rusqlite::Result<()> {
    let applied: usize =
        connection.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))? as usize;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(applied) {
        let tx = connection.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}
