//! The server's shared state and the helpers every part uses: the wall clock, deadlines for
//! tokio timers, and sending to a connection.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use axum::extract::ws::Utf8Bytes;
use reversi::clock::Millis;
use tokio::sync::{mpsc, Semaphore};
use tokio::time::Instant;

use crate::db::{Db, Reader};
use crate::protocol::{ErrorCode, Refusal, ServerMsg};
use crate::Config;

/// A connection's outgoing queue.
pub type Out = mpsc::Sender<Utf8Bytes>;

/// The wall-clock time, read only where a command is applied or a timer fires.
pub fn wall_now() -> Millis {
    Millis::from_system_time(SystemTime::now())
}

/// A tokio deadline for a wall-clock instant (a year away at most: a deadline too far for the
/// clock type to add is as good as never).
fn instant_of(deadline: Millis, now: Millis) -> Instant {
    const FAR: Duration = Duration::from_secs(365 * 24 * 3600);
    let wait = Duration::from(deadline.saturating_since(now)).min(FAR);
    Instant::now() + wait
}

/// Sleeps until a `poll_timeout` deadline, or forever when there is none.
pub async fn sleep_until_deadline(deadline: Option<Millis>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(instant_of(d, wall_now())).await,
        None => std::future::pending().await,
    }
}

/// Sends `msg` to a connection, without waiting. Returns false when the connection is gone or
/// too far behind to keep up.
pub fn send(out: &Out, msg: &ServerMsg) -> bool {
    out.try_send(Utf8Bytes::from(msg.to_text())).is_ok()
}

/// What the whole server shares.
pub struct Hub {
    /// The configuration.
    pub cfg: Config,
    /// The database writer.
    pub db: Db,
    /// The database reader (finished games), used on the blocking pool.
    pub reader: Arc<Reader>,
    next_conn: AtomicU64,
    /// Bounds how many bot moves are computed at once (one per core).
    pub think: Arc<Semaphore>,
    /// The online part (rooms, matching, invites).
    pub online: crate::online::Online,
}

impl Hub {
    /// A hub over an opened database.
    pub fn new(cfg: Config, db: Db, reader: Reader, online: crate::online::Online) -> Hub {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Hub {
            cfg,
            db,
            reader: Arc::new(reader),
            next_conn: AtomicU64::new(1),
            think: Arc::new(Semaphore::new(cores)),
            online,
        }
    }

    /// A new connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }
}

/// The refusal for an unknown game id.
pub fn no_such_game(id: &str) -> Refusal {
    let shown: String = id.chars().take(40).collect();
    Refusal::new(ErrorCode::NoSuchGame, format!("no game {shown:?}"))
}
