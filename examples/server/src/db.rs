//! SQLite persistence: one writer thread that commits every batch of writes in one transaction
//! (group commit) and acknowledges each write once it is committed. Callers wait for the
//! acknowledgement before they tell anyone about the change, so a change a client has seen is
//! on disk: the database is in WAL mode, whose committed transactions survive a SIGKILL of the
//! process.
//!
//! The store is versioned: the database's `user_version` is the store version
//! ([`STORE_VERSION`]), and every live row, log entry and snapshot carries the format of its record
//! (`format`). Opening an older store migrates it in one transaction; a store or a record of a
//! newer version, or a record that cannot be read, stops the start with a [`StoreError`] naming
//! it: nothing is ever dropped silently.

use std::path::Path;
use std::sync::mpsc as std_mpsc;
use std::sync::Arc;
use std::thread;

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::oneshot;

/// The store version this server writes (the database's `user_version`). Versions 1 (the
/// server before record versions; `user_version` 0) and 2 (rooms and the lobby as the room
/// crate's serialised structs) are migrated when opened.
pub const STORE_VERSION: i64 = 3;

/// The record format this server reads and writes: the stable records of
/// [`crate::records`] (version 3). Older formats are migrated with the store.
pub const RECORD_FORMAT: i64 = crate::records::RECORD_VERSION as i64;

/// Why the database cannot be used: the server does not start.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused (the file is not a database, is locked, the disk is full…).
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The database was written by a newer server.
    #[error(
        "the database is store version {found}, written by a newer server; this server reads \
         versions 1 to {STORE_VERSION}: run the newer server, or restore a backup"
    )]
    NewerStore {
        /// The store version found.
        found: i64,
    },
    /// A record of a format newer than this server reads.
    #[error(
        "{what} has record format {found}, written by a newer server; this server reads formats \
         1 to {RECORD_FORMAT}"
    )]
    NewerRecord {
        /// Which record.
        what: String,
        /// Its format.
        found: i64,
    },
    /// A record that cannot be read: the server stops rather than drop it.
    #[error(
        "{what} cannot be read ({cause}); the server does not start rather than drop it: \
         restore a backup, or run the server version that wrote it"
    )]
    Unreadable {
        /// Which record.
        what: String,
        /// What is wrong with it.
        cause: String,
    },
}

/// Why a write to the database did not happen.
#[derive(Debug, Clone, thiserror::Error)]
pub enum WriteError {
    /// The transaction that held the write failed and was rolled back (shared by the writes
    /// committed together).
    #[error("the database write failed: {0}")]
    Sqlite(Arc<rusqlite::Error>),
    /// The writer thread has stopped (the server is shutting down).
    #[error("the database writer has stopped")]
    WriterGone,
}

/// A finished game, as recorded (cluster nodes also keep it in Redis, as this struct in JSON).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    /// The room or game id.
    pub game: String,
    /// The number of the game in its room.
    pub game_no: u64,
    /// `random`, `invite`, `hosted` (databases written before local games left the server may
    /// also hold `local_computer` and `local_two_players` records).
    pub kind: String,
    /// Who held black.
    pub black: String,
    /// Who held white.
    pub white: String,
    /// The start position's board string.
    pub start_board: String,
    /// The moves, passes included and written `pass` (`f5d6…pass…`; store version 1 wrote `PS`,
    /// migrated).
    pub transcript: String,
    /// Why it ended.
    pub reason: String,
    /// `black`, `white`, or `None` for a draw or no result.
    pub winner: Option<String>,
    /// Discs at the end.
    pub black_discs: u32,
    /// Discs at the end.
    pub white_discs: u32,
    /// Wall-clock milliseconds.
    pub started_ms: u64,
    /// Wall-clock milliseconds.
    pub ended_ms: u64,
    /// The clocks at the end (null when unlimited).
    pub black_clock_ms: Option<u64>,
    /// The clocks at the end (null when unlimited).
    pub white_clock_ms: Option<u64>,
}

/// One write.
#[derive(Debug, Clone)]
pub enum Write {
    /// Insert or replace the live state of a room or game.
    Save {
        /// Its id.
        id: String,
        /// `hosted`, or a cluster node's online room (`cluster_random`, `cluster_invite`).
        kind: &'static str,
        /// Its record ([`crate::records::encode_room`]).
        state: String,
        /// Wall-clock time of the change.
        at: u64,
    },
    /// Forget a live room or game.
    Delete {
        /// Its id.
        id: String,
    },
    /// Record a finished game (idempotent: a game recorded twice is kept once).
    Finish(Box<GameRecord>),
    /// Remember a guest's token, so that its finished games stay readable with it.
    Guest {
        /// The token.
        token: String,
        /// The guest.
        player: u64,
        /// Wall-clock time.
        at: u64,
    },
    /// Append an accepted lobby command to the log.
    Log {
        /// Its sequence number.
        seq: u64,
        /// Its `now`.
        at: u64,
        /// The command ([`crate::records::encode_op`]).
        op: String,
    },
    /// Replace the lobby snapshot, which covers the log up to `seq` (then dropped).
    Snapshot {
        /// The last log entry it covers.
        seq: u64,
        /// The lobby's record ([`crate::records::encode_lobby`]).
        state: String,
    },
}

/// What the database held at start-up.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Hosted and online rooms.
    pub live: Vec<LiveRow>,
    /// The lobby snapshot: the last log entry it covers, and its JSON.
    pub snapshot: Option<(u64, String)>,
    /// The lobby log after the snapshot: sequence, `now`, command.
    pub log: Vec<(u64, u64, String)>,
    /// The store version the database had before it was opened (1 or 2 when migrated from
    /// them; [`STORE_VERSION`] when it was current or new).
    pub from_version: i64,
    /// The highest online room number any finished game recorded (`R<n>`), 0 if none.
    pub max_online_room: u64,
}

struct Request {
    writes: Vec<Write>,
    ack: Option<oneshot::Sender<Result<(), WriteError>>>,
}

/// The handle to the writer thread. Cheap to clone.
#[derive(Clone)]
pub struct Db {
    tx: std_mpsc::Sender<Request>,
}

/// A live row read at start-up.
#[derive(Debug, Clone)]
pub struct LiveRow {
    /// Its id.
    pub id: String,
    /// `hosted`.
    pub kind: String,
    /// Its record ([`crate::records::RoomRecord`] as JSON).
    pub state: String,
}

/// The store, version 3: live rows hold room records, the snapshot a lobby record, the log lobby
/// commands ([`crate::records`]).
const SCHEMA: &str = "
CREATE TABLE live (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    updated_ms INTEGER NOT NULL,
    format INTEGER NOT NULL DEFAULT 3
);
CREATE TABLE lobby_log (
    seq INTEGER PRIMARY KEY,
    at_ms INTEGER NOT NULL,
    op TEXT NOT NULL,
    format INTEGER NOT NULL DEFAULT 3
);
CREATE TABLE lobby_snapshot (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    format INTEGER NOT NULL DEFAULT 3
);
CREATE TABLE guests (
    token TEXT PRIMARY KEY,
    player INTEGER NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE INDEX games_black ON games (black, seq);
CREATE INDEX games_white ON games (white, seq);
PRAGMA user_version = 3;
";

/// Store version 1 to 2: record formats on every live row, log entry and snapshot; the guests'
/// tokens (filled from the lobby when it is restored); the games by player; and the games'
/// names made one with the protocol's (`resignation`, passes written `pass`).
const MIGRATE_1_TO_2: &str = "
ALTER TABLE live ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
ALTER TABLE lobby_log ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
ALTER TABLE lobby_snapshot ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
CREATE TABLE guests (
    token TEXT PRIMARY KEY,
    player INTEGER NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE INDEX games_black ON games (black, seq);
CREATE INDEX games_white ON games (white, seq);
UPDATE games SET reason = 'resignation' WHERE reason = 'resigned';
UPDATE games SET transcript = replace(transcript, 'PS', 'pass');
UPDATE live SET format = 2;
UPDATE lobby_log SET format = 2;
UPDATE lobby_snapshot SET format = 2;
PRAGMA user_version = 2;
";

/// The games table, the same in versions 1 to 3.
const GAMES: &str = "
CREATE TABLE IF NOT EXISTS games (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    kind TEXT NOT NULL,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    start_board TEXT NOT NULL,
    transcript TEXT NOT NULL,
    reason TEXT NOT NULL,
    winner TEXT,
    black_discs INTEGER NOT NULL,
    white_discs INTEGER NOT NULL,
    started_ms INTEGER NOT NULL,
    ended_ms INTEGER NOT NULL,
    black_clock_ms INTEGER,
    white_clock_ms INTEGER,
    UNIQUE (game, game_no)
);
";

impl Db {
    /// Opens (creating if needed) the database at `path`, migrates an older store to
    /// [`STORE_VERSION`], reads the live rows, the lobby's snapshot and log, and starts the writer
    /// thread.
    ///
    /// # Errors
    ///
    /// [`StoreError::NewerStore`] for a database of a newer server, [`StoreError::NewerRecord`]
    /// for a record of a newer format, and any SQLite error while opening, migrating or reading
    /// (the migration is one transaction: on error the file is left as it was).
    pub fn open(path: &Path) -> Result<(Db, Loaded), StoreError> {
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")?;
        let from_version = migrate(&mut conn)?;
        let rows = {
            let mut stmt = conn.prepare("SELECT id, kind, state, format FROM live ORDER BY id")?;
            let rows = stmt
                .query_map([], |r| {
                    Ok((
                        LiveRow {
                            id: r.get(0)?,
                            kind: r.get(1)?,
                            state: r.get(2)?,
                        },
                        r.get::<_, i64>(3)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            rows
        };
        for (row, format) in &rows {
            check_format(&format!("the live {} row {:?}", row.kind, row.id), *format)?;
        }
        let snapshot = conn
            .query_row(
                "SELECT seq, state, format FROM lobby_snapshot WHERE id = 1",
                [],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)? as u64,
                        r.get::<_, String>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                },
            )
            .optional()?;
        if let Some((_, _, format)) = &snapshot {
            check_format("the lobby snapshot", *format)?;
        }
        let log = {
            let mut stmt =
                conn.prepare("SELECT seq, at_ms, op, format FROM lobby_log ORDER BY seq")?;
            let rows = stmt
                .query_map([], |r| {
                    Ok((
                        r.get::<_, i64>(0)? as u64,
                        r.get::<_, i64>(1)? as u64,
                        r.get::<_, String>(2)?,
                        r.get::<_, i64>(3)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            rows
        };
        for (seq, _, _, format) in &log {
            check_format(&format!("the lobby log entry {seq}"), *format)?;
        }
        let max_online_room = conn.query_row(
            "SELECT COALESCE(MAX(CAST(substr(game, 2) AS INTEGER)), 0) FROM games
             WHERE game LIKE 'R%'",
            [],
            |r| r.get::<_, i64>(0),
        )?;
        let (tx, rx) = std_mpsc::channel::<Request>();
        thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || writer(conn, rx))
            .map_err(|e| StoreError::Unreadable {
                what: "the database writer thread".into(),
                cause: e.to_string(),
            })?;
        Ok((
            Db { tx },
            Loaded {
                live: rows.into_iter().map(|(r, _)| r).collect(),
                snapshot: snapshot.map(|(seq, state, _)| (seq, state)),
                log: log
                    .into_iter()
                    .map(|(seq, at, op, _)| (seq, at, op))
                    .collect(),
                from_version,
                max_online_room: u64::try_from(max_online_room).unwrap_or(0),
            },
        ))
    }

    /// Commits `writes` in one transaction (possibly with others) and returns once committed.
    ///
    /// # Errors
    ///
    /// [`WriteError::Sqlite`] when the transaction failed (nothing of it was written), or
    /// [`WriteError::WriterGone`] when the writer thread has stopped.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), WriteError> {
        if writes.is_empty() {
            return Ok(());
        }
        self.submit(writes)
            .await
            .map_err(|_| WriteError::WriterGone)?
    }

    /// Queues `writes` and returns the receiver of their acknowledgement, which fails (the
    /// sender dropped) when the writer thread is gone.
    pub fn submit(&self, writes: Vec<Write>) -> oneshot::Receiver<Result<(), WriteError>> {
        let (ack, done) = oneshot::channel();
        let _ = self.tx.send(Request {
            writes,
            ack: Some(ack),
        });
        done
    }

    /// Reads the finished games (for tests and tools), oldest first.
    ///
    /// # Errors
    ///
    /// Any SQLite error.
    pub fn finished_games(path: &Path) -> Result<Vec<GameRecord>, rusqlite::Error> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let mut stmt = conn.prepare(&format!("SELECT {GAME_COLUMNS} FROM games ORDER BY seq"))?;
        let rows = stmt
            .query_map([], game_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }
}

const GAME_COLUMNS: &str = "game, game_no, kind, black, white, start_board, transcript, reason,
    winner, black_discs, white_discs, started_ms, ended_ms, black_clock_ms, white_clock_ms";

fn game_row(r: &rusqlite::Row<'_>) -> Result<GameRecord, rusqlite::Error> {
    Ok(GameRecord {
        game: r.get(0)?,
        game_no: r.get(1)?,
        kind: r.get(2)?,
        black: r.get(3)?,
        white: r.get(4)?,
        start_board: r.get(5)?,
        transcript: r.get(6)?,
        reason: r.get(7)?,
        winner: r.get(8)?,
        black_discs: r.get(9)?,
        white_discs: r.get(10)?,
        started_ms: r.get(11)?,
        ended_ms: r.get(12)?,
        black_clock_ms: r.get(13)?,
        white_clock_ms: r.get(14)?,
    })
}

/// A reading connection for the players' finished games, beside the writer (WAL lets it read
/// what is committed while the writer writes). Its calls block: run them on the blocking pool.
pub struct Reader {
    conn: std::sync::Mutex<Connection>,
}

impl Reader {
    /// Opens a reading connection to a database that [`Db::open`] has opened (and migrated).
    ///
    /// # Errors
    ///
    /// Any SQLite error.
    pub fn open(path: &Path) -> Result<Reader, rusqlite::Error> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        Ok(Reader {
            conn: std::sync::Mutex::new(conn),
        })
    }

    /// The guest a token was handed to, if any.
    ///
    /// # Errors
    ///
    /// Any SQLite error.
    pub fn player_of(&self, token: &str) -> Result<Option<u64>, rusqlite::Error> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached("SELECT player FROM guests WHERE token = ?1")?;
        let player = stmt
            .query_row(params![token], |r| r.get::<_, i64>(0))
            .optional()?;
        Ok(player.map(|p| p as u64))
    }

    /// The live rows of one kind (id and record), oldest id first.
    ///
    /// # Errors
    ///
    /// Any SQLite error.
    pub fn live_of_kind(&self, kind: &str) -> Result<Vec<(String, String)>, rusqlite::Error> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt =
            conn.prepare_cached("SELECT id, state FROM live WHERE kind = ?1 ORDER BY id")?;
        let rows = stmt
            .query_map(params![kind], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// The tokens handed out since `since_ms` (wall time), with their players: what a cluster
    /// node puts back in Redis when Redis lost its data.
    ///
    /// # Errors
    ///
    /// Any SQLite error.
    pub fn guests_since(&self, since_ms: u64) -> Result<Vec<(String, u64)>, rusqlite::Error> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(
            "SELECT token, player FROM guests WHERE created_ms >= ?1 ORDER BY created_ms DESC",
        )?;
        let rows = stmt
            .query_map(params![since_ms as i64], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// The games of `kind` that ended since `since_ms` (wall time), oldest first: what a
    /// cluster node puts back in Redis when Redis lost its data.
    ///
    /// # Errors
    ///
    /// Any SQLite error.
    pub fn games_since(
        &self,
        kind: &str,
        since_ms: u64,
    ) -> Result<Vec<GameRecord>, rusqlite::Error> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE kind = ?1 AND ended_ms >= ?2 ORDER BY seq"
        ))?;
        let rows = stmt
            .query_map(params![kind, since_ms as i64], game_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// A player's finished games, newest first: all of them up to `limit`, or those of one room
    /// (and one game of it).
    ///
    /// # Errors
    ///
    /// Any SQLite error.
    pub fn games_of(
        &self,
        player: u64,
        game: Option<&str>,
        game_no: Option<u64>,
        limit: u32,
    ) -> Result<Vec<GameRecord>, rusqlite::Error> {
        let name = format!("guest:{player}");
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {GAME_COLUMNS} FROM games
             WHERE (black = ?1 OR white = ?1) AND (?2 IS NULL OR game = ?2)
                   AND (?3 IS NULL OR game_no = ?3)
             ORDER BY seq DESC LIMIT ?4"
        ))?;
        let rows = stmt
            .query_map(
                params![name, game, game_no.map(|n| n as i64), i64::from(limit)],
                game_row,
            )?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }
}

/// Brings the store to [`STORE_VERSION`]; returns the version it had.
fn migrate(conn: &mut Connection) -> Result<i64, StoreError> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let has_live: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'live')",
        [],
        |r| r.get(0),
    )?;
    match (version, has_live) {
        (0, false) => {
            let tx = conn.transaction()?;
            tx.execute_batch(GAMES)?;
            tx.execute_batch(SCHEMA)?;
            tx.commit()?;
            Ok(STORE_VERSION)
        }
        (0, true) => {
            let tx = conn.transaction()?;
            tx.execute_batch(GAMES)?;
            // Local games left the server with protocol version 2: their live rows cannot be
            // played any more (their finished records stay).
            let dropped = tx.execute("DELETE FROM live WHERE kind = 'local'", [])?;
            if dropped > 0 {
                tracing::info!(
                    dropped,
                    "dropped the live local games of an older server: local games run in the page"
                );
            }
            tx.execute_batch(MIGRATE_1_TO_2)?;
            migrate_2_to_3(&tx)?;
            tx.commit()?;
            tracing::info!("migrated the database from store version 1 to {STORE_VERSION}");
            Ok(1)
        }
        (2, _) => {
            let tx = conn.transaction()?;
            migrate_2_to_3(&tx)?;
            tx.commit()?;
            tracing::info!("migrated the database from store version 2 to {STORE_VERSION}");
            Ok(2)
        }
        (STORE_VERSION, _) => Ok(STORE_VERSION),
        (found, _) if found > STORE_VERSION => Err(StoreError::NewerStore { found }),
        (found, _) => Err(StoreError::Unreadable {
            what: "the database".into(),
            cause: format!("unknown store version {found}"),
        }),
    }
}

/// Store version 2 to 3: every hosted room and the lobby snapshot rewritten from the room
/// crate's serialised structs to the stable records; the log's commands are already records.
/// The online rooms' rows (copies of what the lobby holds) go. A row that cannot be read stops
/// the migration (and the start) with its name; the transaction leaves the file as it was.
fn migrate_2_to_3(tx: &rusqlite::Transaction<'_>) -> Result<(), StoreError> {
    use reversi::room::{Lobby, Room};
    use reversi::room_adapters::ReversiGame;
    let unreadable = |what: String, cause: String| StoreError::Unreadable { what, cause };
    tx.execute("DELETE FROM live WHERE kind = 'online_room'", [])?;
    let rows = {
        let mut stmt = tx.prepare("SELECT id, kind, state FROM live ORDER BY id")?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows
    };
    for (id, kind, state) in rows {
        if kind != "hosted" {
            return Err(unreadable(
                format!("the live row {id:?}"),
                format!("unknown kind {kind:?}"),
            ));
        }
        let room: Room<ReversiGame> = serde_json::from_str(&state)
            .map_err(|e| unreadable(format!("the hosted room {id:?}"), e.to_string()))?;
        tx.execute(
            "UPDATE live SET state = ?2, format = ?3 WHERE id = ?1",
            params![id, crate::records::encode_room(&room), RECORD_FORMAT],
        )?;
    }
    let snapshot: Option<String> = tx
        .query_row("SELECT state FROM lobby_snapshot WHERE id = 1", [], |r| {
            r.get(0)
        })
        .optional()?;
    if let Some(state) = snapshot {
        let lobby: Lobby<ReversiGame> = serde_json::from_str(&state)
            .map_err(|e| unreadable("the lobby snapshot".into(), e.to_string()))?;
        tx.execute(
            "UPDATE lobby_snapshot SET state = ?1, format = ?2 WHERE id = 1",
            params![crate::records::encode_lobby(&lobby), RECORD_FORMAT],
        )?;
    }
    tx.execute("UPDATE lobby_log SET format = ?1", params![RECORD_FORMAT])?;
    tx.execute_batch("PRAGMA user_version = 3;")?;
    Ok(())
}

fn check_format(what: &str, format: i64) -> Result<(), StoreError> {
    match format {
        RECORD_FORMAT => Ok(()),
        f if f > RECORD_FORMAT => Err(StoreError::NewerRecord {
            what: what.to_owned(),
            found: format,
        }),
        f => Err(StoreError::Unreadable {
            what: what.to_owned(),
            cause: format!(
                "record format {f} in a store of version {STORE_VERSION} (formats older than \
                 {RECORD_FORMAT} are migrated with the store)"
            ),
        }),
    }
}

fn apply(tx: &rusqlite::Transaction<'_>, w: &Write) -> Result<(), rusqlite::Error> {
    match w {
        Write::Save {
            id,
            kind,
            state,
            at,
        } => {
            tx.prepare_cached(
                "INSERT INTO live (id, kind, state, updated_ms, format) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT(id) DO UPDATE SET kind = ?2, state = ?3, updated_ms = ?4, format = ?5",
            )?
            .execute(params![id, kind, state, *at as i64, RECORD_FORMAT])?;
        }
        Write::Delete { id } => {
            tx.prepare_cached("DELETE FROM live WHERE id = ?1")?
                .execute(params![id])?;
        }
        Write::Finish(r) => {
            tx.prepare_cached(
                "INSERT OR IGNORE INTO games (game, game_no, kind, black, white, start_board,
                    transcript, reason, winner, black_discs, white_discs, started_ms, ended_ms,
                    black_clock_ms, white_clock_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
            )?
            .execute(params![
                r.game,
                r.game_no as i64,
                r.kind,
                r.black,
                r.white,
                r.start_board,
                r.transcript,
                r.reason,
                r.winner,
                r.black_discs,
                r.white_discs,
                r.started_ms as i64,
                r.ended_ms as i64,
                r.black_clock_ms.map(|v| v as i64),
                r.white_clock_ms.map(|v| v as i64),
            ])?;
        }
        Write::Guest { token, player, at } => {
            tx.prepare_cached(
                "INSERT OR IGNORE INTO guests (token, player, created_ms) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![token, *player as i64, *at as i64])?;
        }
        Write::Log { seq, at, op } => {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO lobby_log (seq, at_ms, op, format) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![*seq as i64, *at as i64, op, RECORD_FORMAT])?;
        }
        Write::Snapshot { seq, state } => {
            tx.prepare_cached(
                "INSERT INTO lobby_snapshot (id, seq, state, format) VALUES (1, ?1, ?2, ?3)
                 ON CONFLICT(id) DO UPDATE SET seq = ?1, state = ?2, format = ?3",
            )?
            .execute(params![*seq as i64, state, RECORD_FORMAT])?;
            tx.prepare_cached("DELETE FROM lobby_log WHERE seq <= ?1")?
                .execute(params![*seq as i64])?;
        }
    }
    Ok(())
}

fn writer(mut conn: Connection, rx: std_mpsc::Receiver<Request>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < 2048 {
            match rx.try_recv() {
                Ok(r) => batch.push(r),
                Err(_) => break,
            }
        }
        let result = (|| -> Result<(), rusqlite::Error> {
            let tx = conn.transaction()?;
            for req in &batch {
                for w in &req.writes {
                    apply(&tx, w)?;
                }
            }
            tx.commit()
        })();
        let result = result.map_err(|e| {
            tracing::error!(error = %e, "database write failed");
            WriteError::Sqlite(Arc::new(e))
        });
        for req in batch {
            if let Some(ack) = req.ack {
                let _ = ack.send(result.clone());
            }
        }
    }
}
