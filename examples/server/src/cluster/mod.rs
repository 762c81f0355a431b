//! Several server nodes sharing matching, invites and rooms through Redis (`--redis URL`).
//!
//! Without `--redis` none of this runs: the node is the single server of `online.rs`.
//!
//! With it, the node's online commands go to one task of this module (the node's actor) instead
//! of the lobby:
//!
//! - Guests are global: player numbers (and room numbers) are random below 2^53, so that none
//!   is handed out twice whatever Redis forgets; tokens are kept
//!   as `{prefix}:token:<token>`, and `{prefix}:at:<player>` names the node the player is
//!   connected to. Reconnection with the token works on any node.
//! - The random-match queue is one Redis list, popped and pushed by one Lua script (atomic);
//!   invite codes are keys with the invite's lifetime as their expiry, taken with `GETDEL` by
//!   the node of the player who joins. The node that makes the match creates the room and owns
//!   it.
//! - Each room is owned by one node, under `{prefix}:lease:<room>` (the owner's id, with an
//!   expiry of `--lease-ms`, renewed while the node lives). The owner keeps the [`Room`] in
//!   memory, applies every command, and saves the room's record (`{prefix}:room:<room>`: the
//!   room state as the SQLite store writes it, and its kind) with a Lua script that writes only
//!   while the lease is the owner's, before anyone is told. A command from a player connected to
//!   another node is published on the owner's channel `{prefix}:node:<id>`; the owner publishes
//!   the states back to the players' nodes.
//! - When a node dies its leases expire; every node sweeps the live rooms (`{prefix}:rooms`)
//!   every quarter lease, and the first to take an expired lease (`SET NX`) loads the record,
//!   marks disconnected the players whose node is gone, moves the clocks on by wall time
//!   (`handle_timeout`) and serves the room from then on. A command that found no owner
//!   listening waits on its node and is sent again at each sweep.
//! - Every key expires but the generation `{prefix}:gen` (a random value: when it is gone or
//!   changed, Redis lost its data, and each node puts back its rooms, the tokens it handed out,
//!   its players and the games that ended on it): tokens 25 h after their
//!   last use, a player's node and current room and a live room's record 3 h after their last
//!   refresh; an ended room deletes its keys. A finished game's record (the SQLite `games` row as
//!   JSON, `{prefix}:game:<room>:<n>`) and each player's list of them (`{prefix}:played:<player>`)
//!   last 25 h, so that `record` and `games` answer on any node.
//! - Rematch offers are keys in Redis (`{prefix}:rematch:<room>`): the room crate's
//!   `RematchOffer` as JSON, to which a node applies the rule and writes the result back only if
//!   the key did not change meanwhile (a compare-and-set script); the offerer's node makes the
//!   new game. Hosted rooms are served by the node's own single-node task, for
//!   the cluster's guests, and only for players connected to that node.
//! - A node never stops for Redis: its connections (`link.rs`) open again with a backoff, its
//!   subscription is made again, and its players sync with their rooms' owners afterwards.
//!
//!
//! The files: `node.rs` (the node's actor: its state, start, event loop and dispatch of inputs),
//! and the rest of its `impl Node` by concern: `players.rs` (guests, tokens, reconnection, the
//! queue, invites, hosted rooms, client commands), `pairing.rs` (the room crate's `MatchQueue` and
//! `Invite` applied to their JSON in Redis), `rematch.rs`, `owned.rs` (the rooms the node
//! owns: made, saved, told, recorded), `forward.rs` (commands to a room's owner, messages between
//! nodes), `leases.rs` (renewal, sweep, takeover) and `recovery.rs` (Redis lost its data, the
//! subscription dropped, a change not saved). Beside them: `keys.rs` (key names), `io.rs` (the I/O
//! task, the subscription, the watch on the links), `link.rs` (a Redis connection that reopens),
//! `reads.rs` (finished games), `wire.rs` (messages between nodes) and `scripts.rs` (the Lua
//! scripts).
//!
//! [`Room`]: reversi::room::Room

mod forward;
mod io;
mod keys;
mod leases;
mod link;
mod node;
mod owned;
mod pairing;
mod players;
mod reads;
mod recovery;
mod rematch;
mod scripts;
mod wire;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use reversi::room::{LobbySettings, PlayerId};
use tokio::sync::mpsc;

use crate::common::Out;
use crate::db::{Db, Reader};
use crate::protocol::ClientMsg;

/// A boxed future, for the [`Hosted`] trait's methods.
pub type BoxFuture<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// The node's own single-node task for hosted rooms, as the cluster sees it. The layer above
/// (the hub and its lobby) implements it, so that the cluster never depends on that layer.
pub trait Hosted: Send + Sync + 'static {
    /// Hands a hosted-room command (or, with `msg` `None`, a new hosted room) of a cluster
    /// guest to the single-node task; `bind` binds the connection to the player there.
    fn hosted<'a>(
        &'a self,
        conn: u64,
        out: &'a Out,
        player: PlayerId,
        msg: Option<ClientMsg>,
        bind: bool,
    ) -> BoxFuture<'a>;
    /// A connection bound to the single-node task closed.
    fn hosted_gone(&self, conn: u64) -> BoxFuture<'_>;
}

/// What a node needs from the rest of the server.
pub struct Parts {
    /// The lobby's settings (rooms, queue wait, invite lifetime).
    pub lobby: LobbySettings,
    /// The database writer.
    pub db: Db,
    /// The database reader (finished games).
    pub reader: Arc<Reader>,
    /// The single-node task for hosted rooms.
    pub hosted: Arc<dyn Hosted>,
}

/// Why a node could not join the cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// The address given is not a Redis URL.
    #[error("--redis {url}: {source}")]
    Url {
        /// The address given.
        url: String,
        /// What the Redis client said of it.
        source: redis::RedisError,
    },
    /// Redis did not answer.
    #[error("cannot reach Redis at {url}: {source}")]
    Unreachable {
        /// The address given.
        url: String,
        /// What the Redis client said.
        source: redis::RedisError,
    },
    /// A step of joining (reading the generation, restoring, taking back rooms, the first
    /// heartbeat) failed.
    #[error("joining the cluster failed at {step}: {message}")]
    Joining {
        /// The step that failed.
        step: &'static str,
        /// Why.
        message: String,
    },
}

/// How a node joins a cluster.
///
/// ```
/// use reversi_server::ClusterConfig;
/// let c = ClusterConfig::new("redis://127.0.0.1:6379/".to_owned());
/// assert_eq!(c.lease, std::time::Duration::from_secs(10));
/// assert_eq!(c.prefix, "reversi");
/// ```
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// The Redis URL (`redis://host:port/db`).
    pub url: String,
    /// How long a room's lease lasts without renewal: after the owner dies, another node takes
    /// the room over within about this time (plus a quarter of it, the sweep).
    pub lease: Duration,
    /// The prefix of every key and channel, so that several clusters can share one Redis.
    pub prefix: String,
}

impl ClusterConfig {
    /// A 10 s lease under the prefix `reversi`.
    pub fn new(url: String) -> ClusterConfig {
        ClusterConfig {
            url,
            lease: Duration::from_secs(10),
            prefix: "reversi".to_owned(),
        }
    }
}

/// A message to the node's actor.
enum Input {
    Client {
        conn: u64,
        out: Out,
        msg: ClientMsg,
    },
    Gone {
        conn: u64,
    },
    Wire(wire::Wire),
    /// A command published to an owner that nobody received: it waits for the next sweep.
    Undelivered(wire::Forward),
    /// A room whose save found the lease held by another node.
    Lost(String),
    /// A job whose save failed (Redis unreachable): saved and told again at the next sweep;
    /// `true` when the save surely did not reach Redis (its connection was down).
    Unsaved(io::Job, bool),
    /// A command that could not be published for want of Redis: its sender is told.
    Unsent(wire::Forward),
    /// The node's subscription dropped (`false`) or is back (`true`).
    Listening(bool),
    /// Redis answers again after it was out of reach.
    RedisBack,
}

/// A node's handle on the cluster.
pub struct Cluster {
    tx: mpsc::Sender<Input>,
    /// The node's id (random at each start).
    pub node: String,
    /// For reads of finished games (`record`, `games`).
    reads: reads::Reads,
}

impl Cluster {
    /// Connects to Redis, subscribes to the node's channel and starts the node's tasks.
    ///
    /// # Errors
    ///
    /// [`ClusterError::Url`] when the URL is not a Redis URL, [`ClusterError::Unreachable`]
    /// when Redis cannot be reached, [`ClusterError::Joining`] when a step of joining failed.
    pub async fn start(cfg: &ClusterConfig, parts: Parts) -> Result<Cluster, ClusterError> {
        node::start(cfg, parts).await
    }

    /// Hands a client command to the node's actor.
    pub async fn command(&self, conn: u64, out: &Out, msg: ClientMsg) {
        let _ = self
            .tx
            .send(Input::Client {
                conn,
                out: out.clone(),
                msg,
            })
            .await;
    }

    /// Answers `record` and `games`: the node's own database first, then the records every
    /// node writes to Redis when a game ends (so a game is found on any node).
    pub async fn finished(
        &self,
        reader: Arc<Reader>,
        msg: &ClientMsg,
    ) -> Result<crate::protocol::ServerMsg, crate::protocol::Refusal> {
        self.reads.answer(reader, msg).await
    }

    /// A connection closed.
    pub async fn disconnected(&self, conn: u64) {
        let _ = self.tx.send(Input::Gone { conn }).await;
    }
}
