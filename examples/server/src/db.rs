//! SQLite persistence: one writer thread that commits every batch of writes in one transaction
//! (group commit) and acknowledges each write once it is committed. Callers wait for the
//! acknowledgement before they tell anyone about the change, so a change a client has seen is
//! on disk: the database is in WAL mode, whose committed transactions survive a SIGKILL of the
//! process.

use std::path::Path;
use std::sync::mpsc as std_mpsc;
use std::thread;

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::oneshot;

/// A finished game, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// The moves, passes included (`f5d6pass…`).
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
        /// `hosted` or `online_room`.
        kind: &'static str,
        /// Its serialised state.
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
    /// Append an accepted lobby command to the log.
    Log {
        /// Its sequence number.
        seq: u64,
        /// Its `now`.
        at: u64,
        /// The command, as JSON.
        op: String,
    },
    /// Replace the lobby snapshot, which covers the log up to `seq` (then dropped).
    Snapshot {
        /// The last log entry it covers.
        seq: u64,
        /// The lobby, as JSON.
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
}

struct Request {
    writes: Vec<Write>,
    ack: Option<oneshot::Sender<Result<(), String>>>,
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
    /// `hosted` or `online_room`.
    pub kind: String,
    /// Its serialised state.
    pub state: String,
}

const SCHEMA: &str = "
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS live (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS lobby_log (
    seq INTEGER PRIMARY KEY,
    at_ms INTEGER NOT NULL,
    op TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS lobby_snapshot (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL,
    state TEXT NOT NULL
);
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
    /// Opens (creating if needed) the database at `path`, drops the live games of one connection
    /// that a server older than protocol version 2 may have left (local games now run only in the
    /// page), reads the live rows, and starts the writer thread.
    ///
    /// # Errors
    ///
    /// Any SQLite error while opening or reading.
    pub fn open(path: &Path) -> Result<(Db, Loaded), rusqlite::Error> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        let dropped = conn.execute("DELETE FROM live WHERE kind = 'local'", [])?;
        if dropped > 0 {
            tracing::info!(
                dropped,
                "dropped the live local games of an older server: local games run in the page"
            );
        }
        let rows = {
            let mut stmt = conn.prepare("SELECT id, kind, state FROM live ORDER BY id")?;
            let rows = stmt
                .query_map([], |r| {
                    Ok(LiveRow {
                        id: r.get(0)?,
                        kind: r.get(1)?,
                        state: r.get(2)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            rows
        };
        let snapshot = conn
            .query_row(
                "SELECT seq, state FROM lobby_snapshot WHERE id = 1",
                [],
                |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, String>(1)?)),
            )
            .optional()?;
        let log = {
            let mut stmt = conn.prepare("SELECT seq, at_ms, op FROM lobby_log ORDER BY seq")?;
            let rows = stmt
                .query_map([], |r| {
                    Ok((
                        r.get::<_, i64>(0)? as u64,
                        r.get::<_, i64>(1)? as u64,
                        r.get::<_, String>(2)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            rows
        };
        let (tx, rx) = std_mpsc::channel::<Request>();
        thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || writer(conn, rx))
            .expect("spawn the SQLite writer thread");
        Ok((
            Db { tx },
            Loaded {
                live: rows,
                snapshot,
                log,
            },
        ))
    }

    /// Commits `writes` in one transaction (possibly with others) and returns once committed.
    ///
    /// # Errors
    ///
    /// The SQLite error, as text, or that the writer thread is gone.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), String> {
        if writes.is_empty() {
            return Ok(());
        }
        self.submit(writes)
            .await
            .map_err(|_| "the database writer has stopped".to_string())?
    }

    /// Queues `writes` and returns the receiver of their acknowledgement, which fails (the
    /// sender dropped) when the writer thread is gone.
    pub fn submit(&self, writes: Vec<Write>) -> oneshot::Receiver<Result<(), String>> {
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
        let mut stmt = conn.prepare(
            "SELECT game, game_no, kind, black, white, start_board, transcript, reason, winner,
                    black_discs, white_discs, started_ms, ended_ms, black_clock_ms, white_clock_ms
             FROM games ORDER BY seq",
        )?;
        let rows = stmt
            .query_map([], |r| {
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
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
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
                "INSERT INTO live (id, kind, state, updated_ms) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(id) DO UPDATE SET kind = ?2, state = ?3, updated_ms = ?4",
            )?
            .execute(params![id, kind, state, *at as i64])?;
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
        Write::Log { seq, at, op } => {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO lobby_log (seq, at_ms, op) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![*seq as i64, *at as i64, op])?;
        }
        Write::Snapshot { seq, state } => {
            tx.prepare_cached(
                "INSERT INTO lobby_snapshot (id, seq, state) VALUES (1, ?1, ?2)
                 ON CONFLICT(id) DO UPDATE SET seq = ?1, state = ?2",
            )?
            .execute(params![*seq as i64, state])?;
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
            e.to_string()
        });
        for req in batch {
            if let Some(ack) = req.ack {
                let _ = ack.send(result.clone());
            }
        }
    }
}
