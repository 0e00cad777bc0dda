//! Schema migrations, applied in order on open. Each backend has the same steps in its own
//! dialect (`tests::both_backends_have_the_same_schema` checks that they end with the same
//! tables and columns); SQLite counts those applied in `PRAGMA user_version`, PostgreSQL in
//! the `schema_version` table.

use rusqlite::Connection;

/// Each SQLite migration's SQL, in order. Append only: a released migration never changes.
pub const SQLITE: &[&str] = &[
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
    // 3: which server node runs a live game, until when (used by PostgreSQL's several nodes;
    // kept here so that both schemas are one).
    "CREATE TABLE leases (
        game_id TEXT PRIMARY KEY REFERENCES games (id),
        node TEXT NOT NULL,
        expires TEXT NOT NULL
    );",
    // 4: the offers waiting for an answer (draw, takeback, a ruleset action), so that they
    // survive a restart and other nodes see them.
    "ALTER TABLE games ADD COLUMN offers TEXT;",
    // 5: who played each move, which its text alone does not say where several players move
    // at once (bughouse).
    "ALTER TABLE moves ADD COLUMN mover INTEGER;",
    // 6: the referee's lifecycle: whether each seat's player has come (claimed seats of games
    // stored before count as come), when a game was last played on (idle games without a
    // clock are adjourned), and the rematch its players agreed.
    "ALTER TABLE seats ADD COLUMN arrived INTEGER NOT NULL DEFAULT 0;
    UPDATE seats SET arrived = 1 WHERE token_hash IS NOT NULL;
    ALTER TABLE games ADD COLUMN active_ms INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET active_ms = created_ms;
    ALTER TABLE games ADD COLUMN rematch TEXT;",
    // 7: who created a game (a digest of the client's address: its engine's turn among
    // clients), and the hash of the token that may stop a game of engines only.
    "ALTER TABLE games ADD COLUMN creator TEXT;
    ALTER TABLE games ADD COLUMN owner_hash TEXT;",
    // 8: the archive, paged by finish time and id and filtered by ruleset and opponent:
    // whether a seat is the engine's (seats never change kind), a finish time for every
    // game that ended, and one index per combination of filters, over the archive's games
    // only, so that a page reads its own rows and no others. The conditions are written as
    // the listing's query writes them (`store::listing`). The status leads, though it is
    // the same in every row: without statistics SQLite prefers an index with an equality
    // on its first column (`games_by_status`), and then sorts.
    "ALTER TABLE games ADD COLUMN with_engine INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET with_engine = 1 WHERE EXISTS (
        SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.kind = 'engine');
    UPDATE games SET finished_ms = active_ms WHERE status <> 'live' AND finished_ms IS NULL;
    CREATE INDEX games_archive ON games (status, finished_ms, id)
        WHERE status = 'finished' AND listed = 1;
    CREATE INDEX games_archive_by_variant ON games (status, variant, finished_ms, id)
        WHERE status = 'finished' AND listed = 1;
    CREATE INDEX games_archive_by_opponent ON games (status, with_engine, finished_ms, id)
        WHERE status = 'finished' AND listed = 1;
    CREATE INDEX games_archive_by_both ON games (status, variant, with_engine, finished_ms, id)
        WHERE status = 'finished' AND listed = 1;",
];

/// The same migrations for PostgreSQL, in order. Append only.
pub const POSTGRES: &[&str] = &[
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
        version BIGINT NOT NULL,
        clock_state TEXT,
        created_ms BIGINT NOT NULL,
        finished_ms BIGINT
    );
    CREATE INDEX games_by_status ON games (status, created_ms);
    CREATE TABLE seats (
        game_id TEXT NOT NULL REFERENCES games (id),
        n BIGINT NOT NULL,
        kind TEXT NOT NULL,
        level BIGINT,
        token_hash TEXT,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games (id),
        ply BIGINT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE TABLE events (
        game_id TEXT NOT NULL REFERENCES games (id),
        v BIGINT NOT NULL,
        t TEXT NOT NULL,
        data TEXT NOT NULL,
        only_seat BIGINT,
        PRIMARY KEY (game_id, v)
    );",
    // 2: games made for friends by link are not listed in the lobby.
    "ALTER TABLE games ADD COLUMN listed BOOLEAN NOT NULL DEFAULT TRUE;",
    // 3: which server node runs a live game, until when (in the database's time, so that the
    // nodes' clocks need not agree).
    "CREATE TABLE leases (
        game_id TEXT PRIMARY KEY REFERENCES games (id),
        node TEXT NOT NULL,
        expires TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX leases_by_node ON leases (node);",
    // 4: the offers waiting for an answer.
    "ALTER TABLE games ADD COLUMN offers TEXT;",
    // 5: who played each move.
    "ALTER TABLE moves ADD COLUMN mover BIGINT;",
    // 6: arrivals, the last activity, the rematch.
    "ALTER TABLE seats ADD COLUMN arrived BOOLEAN NOT NULL DEFAULT FALSE;
    UPDATE seats SET arrived = TRUE WHERE token_hash IS NOT NULL;
    ALTER TABLE games ADD COLUMN active_ms BIGINT NOT NULL DEFAULT 0;
    UPDATE games SET active_ms = created_ms;
    ALTER TABLE games ADD COLUMN rematch TEXT;",
    // 7: the creator's digest and the owner's token hash.
    "ALTER TABLE games ADD COLUMN creator TEXT;
    ALTER TABLE games ADD COLUMN owner_hash TEXT;",
    // 8: the archive's engine flag, finish times and indexes. Without the status, which the
    // planner leaves out of the conditions it seeks by where an index's own condition says
    // it: a status in front would leave nothing to seek the cursor by, and a page deep in
    // the archive would read every index entry before it.
    "ALTER TABLE games ADD COLUMN with_engine BOOLEAN NOT NULL DEFAULT FALSE;
    UPDATE games SET with_engine = TRUE WHERE EXISTS (
        SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.kind = 'engine');
    UPDATE games SET finished_ms = active_ms WHERE status <> 'live' AND finished_ms IS NULL;
    CREATE INDEX games_archive ON games (finished_ms, id)
        WHERE status = 'finished' AND listed;
    CREATE INDEX games_archive_by_variant ON games (variant, finished_ms, id)
        WHERE status = 'finished' AND listed;
    CREATE INDEX games_archive_by_opponent ON games (with_engine, finished_ms, id)
        WHERE status = 'finished' AND listed;
    CREATE INDEX games_archive_by_both ON games (variant, with_engine, finished_ms, id)
        WHERE status = 'finished' AND listed;",
];

/// Applies the SQLite migrations not yet applied, each in its own transaction.
pub fn migrate_sqlite(connection: &mut Connection) -> rusqlite::Result<()> {
    let applied: usize =
        connection.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))? as usize;
    for (i, sql) in SQLITE.iter().enumerate().skip(applied) {
        let tx = connection.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}
