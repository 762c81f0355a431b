//! The server's shared state ([`Hub`]). The helpers every part uses (the wall clock, deadlines,
//! sending to a connection) live in [`crate::common`] and are re-exported here.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::sync::Semaphore;

pub use crate::common::{no_such_game, send, sleep_until_deadline, wall_now, Out};
use crate::db::{Db, Reader};
use crate::Config;

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

impl crate::cluster::Hosted for Hub {
    fn hosted<'a>(
        &'a self,
        conn: u64,
        out: &'a Out,
        player: reversi::room::PlayerId,
        msg: Option<crate::protocol::ClientMsg>,
        bind: bool,
    ) -> crate::cluster::BoxFuture<'a> {
        Box::pin(self.online.hosted(conn, out, player, msg, bind))
    }

    fn hosted_gone(&self, conn: u64) -> crate::cluster::BoxFuture<'_> {
        Box::pin(self.online.hosted_gone(conn))
    }
}
