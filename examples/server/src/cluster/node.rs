//! The node's actor: its connected players, the rooms it owns, and its talk with Redis.
//!
//! This file holds the node's state, its start, its event loop and the dispatch of its inputs;
//! the rest of `impl Node` is in the sibling files, by concern: `players.rs` (guests, tokens,
//! the queue, invites, client commands), `rematch.rs`, `owned.rs` (the rooms it owns: made,
//! saved, told, recorded), `forward.rs` (commands to a room's owner, messages between nodes),
//! `leases.rs` (renewal, sweep, takeover) and `recovery.rs` (Redis lost its data, the
//! subscription dropped, a change not saved).

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use rand::RngExt;
use reversi::clock::Millis;
use reversi::room::{PlayerId, Room, RoomSettings};
use reversi::room_adapters::ReversiGame;
use tokio::sync::mpsc;

use super::io::*;
use super::keys::*;
use super::link::Link;
use super::reads::*;
use super::wire::*;
use super::{Cluster, ClusterConfig, ClusterError, Hosted, Input, Parts};
use crate::common::{sleep_until_deadline, wall_now, Out};
use crate::db::{Db, Reader};
use crate::protocol::{text_of, ClientMsg, Refusal, ServerMsg};

/// A player connected to this node.
pub(super) struct Local {
    pub(super) conn: u64,
    pub(super) out: Out,
    pub(super) act: Act,
    /// The player's token (its key's expiry is refreshed while the player is here).
    pub(super) token: String,
}

/// A room this node owns.
pub(super) struct Owned {
    pub(super) room: Room<ReversiGame>,
    pub(super) kind: String,
    pub(super) deadline: Option<u64>,
}

/// A disconnected guest's open invite, kept through its reconnection grace as the lobby keeps
/// it ([`reversi::room::Lobby::disconnect`]).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Away {
    pub(super) code: String,
    pub(super) until: u64,
    pub(super) grace_until: u64,
}

/// The node's actor.
pub(super) struct Node {
    pub(super) db: Db,
    pub(super) reader: Arc<Reader>,
    pub(super) hosted: Arc<dyn Hosted>,
    pub(super) me: String,
    pub(super) keys: Arc<Keys>,
    pub(super) link: Link,
    pub(super) lease_ms: u64,
    pub(super) settings: RoomSettings,
    pub(super) queue_wait: u64,
    pub(super) invite_ttl: u64,
    /// How long a disconnected guest keeps its open invite (the lobby's reconnection grace).
    pub(super) reconnect_grace: u64,
    /// This node's disconnected guests whose invite stays open through their grace: the code,
    /// when the invite expires, and when the grace ends.
    pub(super) away: HashMap<PlayerId, Away>,
    pub(super) io: mpsc::UnboundedSender<Job>,
    pub(super) conns: HashMap<u64, (Out, Option<PlayerId>)>,
    pub(super) players: HashMap<PlayerId, Local>,
    pub(super) rooms: HashMap<String, Owned>,
    pub(super) timers: BTreeSet<(u64, String)>,
    pub(super) local_timers: BTreeSet<(u64, u64)>,
    /// The node of each member of the rooms this node owns.
    pub(super) locs: HashMap<PlayerId, String>,
    /// The owner of a room, as last seen.
    pub(super) owners: HashMap<String, String>,
    pub(super) pending: Vec<Forward>,
    /// Rooms whose last save failed: saved and told again at the next sweep.
    pub(super) unsaved: BTreeSet<String>,
    /// Closed rooms whose deletion failed: deleted again at the next sweep.
    pub(super) undeleted: Vec<Job>,
    /// Whether the node's subscription is up.
    pub(super) listening: bool,
    /// The connections bound to this node's own task for hosted rooms.
    pub(super) hosted_conns: BTreeSet<u64>,
    /// The I/O task's connection (whether it is down counts too).
    pub(super) io_link: Link,
    /// The generation of Redis's data this node last saw ([`Keys::gen`]).
    pub(super) gen: String,
    /// When this node last saw that Redis lost its data (wall ms; 0: never).
    pub(super) reset_at: u64,
    /// The ids of the last commands applied here (a command published twice is applied once).
    pub(super) applied: HashSet<u64>,
    pub(super) applied_order: VecDeque<u64>,
    /// Members of rooms this node owns whose node is not known yet (looked for at each sweep).
    pub(super) unlocated: Vec<(String, PlayerId)>,
}

pub(super) async fn start(cfg: &ClusterConfig, parts: Parts) -> Result<Cluster, ClusterError> {
    let client = redis::Client::open(cfg.url.as_str()).map_err(|source| ClusterError::Url {
        url: cfg.url.clone(),
        source,
    })?;
    let fail = |source: redis::RedisError| ClusterError::Unreachable {
        url: cfg.url.clone(),
        source,
    };
    let link = Link::open(client.clone()).await.map_err(fail)?;
    let io_link = Link::open(client.clone()).await.map_err(fail)?;
    let me = format!("n{:016x}", rand::rng().random::<u64>());
    let keys = Arc::new(Keys(cfg.prefix.clone()));
    let channel = keys.channel(&me);
    let pubsub = subscribe(&client, &channel).await.map_err(fail)?;
    let (tx, rx) = mpsc::channel(4096);
    let (back, back_rx) = mpsc::unbounded_channel();
    let (io, io_rx) = mpsc::unbounded_channel();
    let lease_ms = u64::try_from(cfg.lease.as_millis()).unwrap_or(u64::MAX);
    tokio::spawn(io_task(
        io_link.clone(),
        keys.clone(),
        me.clone(),
        lease_ms,
        io_rx,
        back.clone(),
    ));
    tokio::spawn(listen(client, channel, pubsub, back.clone()));
    tokio::spawn(watch(vec![link.clone(), io_link.clone()], back));
    let Parts {
        lobby,
        db,
        reader,
        hosted,
    } = parts;
    let mut node = Node {
        settings: lobby.room,
        queue_wait: lobby.queue_wait.as_millis(),
        invite_ttl: lobby.invite_ttl.as_millis(),
        reconnect_grace: lobby.reconnect_grace.as_millis(),
        away: HashMap::new(),
        db,
        reader,
        hosted,
        me: me.clone(),
        keys: keys.clone(),
        link: link.clone(),
        lease_ms,
        io,
        conns: HashMap::new(),
        players: HashMap::new(),
        rooms: HashMap::new(),
        timers: BTreeSet::new(),
        local_timers: BTreeSet::new(),
        locs: HashMap::new(),
        owners: HashMap::new(),
        pending: Vec::new(),
        unsaved: BTreeSet::new(),
        undeleted: Vec::new(),
        listening: true,
        hosted_conns: BTreeSet::new(),
        io_link,
        gen: String::new(),
        reset_at: 0,
        applied: HashSet::new(),
        applied_order: VecDeque::new(),
        unlocated: Vec::new(),
    };
    let failed = |step: &'static str| {
        move |r: Refusal| ClusterError::Joining {
            step,
            message: r.message,
        }
    };
    let (gen, created) = node
        .generation()
        .await
        .map_err(failed("reading the generation"))?;
    node.gen = gen;
    if created {
        // An empty Redis (a new cluster, or one that lost its data while this node was down):
        // this node's tokens and day's games go back, and so do the rooms it owned.
        node.restore()
            .await
            .map_err(failed("putting back its data in an empty Redis"))?;
    }
    node.adopt_own_rooms()
        .await
        .map_err(failed("taking back its rooms"))?;
    node.heartbeat()
        .await
        .map_err(failed("its first heartbeat"))?;
    tracing::info!(node = %me, lease_ms, prefix = %cfg.prefix, "joined the cluster");
    tokio::spawn(node.run(rx, back_rx));
    Ok(Cluster {
        tx,
        node: me,
        reads: Reads { link, keys },
    })
}

impl Node {
    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Input>,
        mut back: mpsc::UnboundedReceiver<Input>,
    ) {
        let quarter = Duration::from_millis((self.lease_ms / 4).max(50));
        let mut renew = tokio::time::interval(Duration::from_millis((self.lease_ms / 3).max(50)));
        renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut sweep = tokio::time::interval(quarter);
        sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut refresh = tokio::time::interval(REFRESH);
        refresh.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let deadline = [self.timers.first(), None]
                .into_iter()
                .flatten()
                .map(|(t, _)| *t)
                .chain(self.local_timers.first().map(|(t, _)| *t))
                .min()
                .map(Millis);
            tokio::select! {
                inp = rx.recv() => {
                    let Some(inp) = inp else { break };
                    self.handle(inp).await;
                }
                Some(inp) = back.recv() => {
                    self.handle(inp).await;
                    for _ in 0..256 {
                        match back.try_recv() {
                            Ok(inp) => self.handle(inp).await,
                            Err(_) => break,
                        }
                    }
                }
                () = sleep_until_deadline(deadline) => self.timeouts().await,
                _ = renew.tick() => {
                    if let Err(e) = self.heartbeat().await {
                        tracing::error!(error = %e.message, "leases not renewed");
                    }
                }
                _ = sweep.tick() => self.sweep().await,
                _ = refresh.tick() => self.refresh().await,
            }
        }
    }

    async fn handle(&mut self, inp: Input) {
        match inp {
            Input::Client { conn, out, msg } => {
                self.conns
                    .entry(conn)
                    .or_insert_with(|| (out.clone(), None));
                let kind = msg.kind();
                let rid = msg.rid().cloned();
                let refused =
                    if needs_redis(&msg) && (self.link.is_down() || self.io_link.is_down()) {
                        // Never silence: refused at once, nothing changed.
                        Err(store_err("Redis is out of reach; the node is reconnecting"))
                    } else {
                        self.client(conn, &out, msg).await
                    };
                if let Err(r) = refused {
                    tracing::debug!(code = %r.code, request = kind, "refused");
                    let _ = out.try_send(text_of(&r.to_msg(Some(kind), rid.as_ref()), None));
                }
            }
            Input::Gone { conn } => self.gone(conn).await,
            Input::Wire(w) => self.on_wire(w).await,
            Input::Undelivered(f) => {
                self.owners.remove(&f.room);
                self.pending.push(f);
            }
            Input::Unsaved(job, surely) => match &job.save {
                Some(Save::Put { room, .. }) => {
                    let room = room.clone();
                    if let (true, Some(r)) = (surely, job.revert) {
                        self.revert(&room, *r);
                    }
                    self.unsaved.insert(room);
                }
                Some(Save::Delete { .. }) => self.undeleted.push(job),
                None => {}
            },
            Input::Unsent(f) => {
                if let Some(l) = self.players.get(&PlayerId(f.player)) {
                    let r = store_err("Redis is out of reach; the node is reconnecting");
                    let _ = l
                        .out
                        .try_send(text_of(&r.to_msg(Some(&f.kind), f.rid.as_ref()), None));
                }
            }
            Input::RedisBack => {
                tracing::info!("Redis answers again");
                if let Err(e) = self.heartbeat().await {
                    tracing::error!(error = %e.message, "leases not renewed");
                }
            }
            Input::Listening(up) => {
                let was = std::mem::replace(&mut self.listening, up);
                if up && !was {
                    self.resync().await;
                }
            }
            Input::Lost(room) => self.lost(room),
        }
    }

    // ---- Redis helpers ----

    pub(super) async fn q<T: redis::FromRedisValue>(&mut self, c: &redis::Cmd) -> Res<T> {
        self.link.query(c).await.map_err(|e| store_err(&e))
    }

    pub(super) async fn qp<T: redis::FromRedisValue>(&mut self, p: &redis::Pipeline) -> Res<T> {
        self.link.pipe(p).await.map_err(|e| store_err(&e))
    }

    pub(super) async fn get(&mut self, key: String) -> Res<Option<String>> {
        self.q(redis::cmd("GET").arg(key)).await
    }

    /// Rooms and local waits whose time came.
    async fn timeouts(&mut self) {
        let now = wall_now();
        while let Some((t, id)) = self.timers.first().cloned() {
            if t > now.0 {
                break;
            }
            self.timers.remove(&(t, id.clone()));
            if let Some(o) = self.rooms.get_mut(&id) {
                o.deadline = None;
                o.room.handle_timeout(now);
                self.finish_room(&id, now, None, Vec::new());
            }
        }
        while let Some((t, p)) = self.local_timers.first().copied() {
            if t > now.0 {
                break;
            }
            self.local_timers.remove(&(t, p));
            let p = PlayerId(p);
            let Some(l) = self.players.get(&p) else {
                self.away_timeout(p, now).await;
                continue;
            };
            let out = l.out.clone();
            // A wait still in the queue, an invite still open: it expired. Otherwise it was
            // matched, and the `matched` is on its way. (Redis out of reach: told as expired.)
            let expired = match l.act.clone() {
                Act::Waiting { until } if until <= now.0 => self
                    .queue_cancel(p)
                    .await
                    .unwrap_or(true)
                    .then_some(ServerMsg::QueueExpired),
                Act::Inviting { code, until } if until <= now.0 => self
                    .invite_expire(now, &code)
                    .await
                    .unwrap_or(true)
                    .then_some(ServerMsg::InviteExpired { code }),
                _ => None,
            };
            if let Some(msg) = expired {
                self.set_act(p, Act::Idle);
                let _ = out.try_send(text_of(&msg, None));
            }
        }
    }
}

/// Whether a client command needs Redis on a cluster node (hosted rooms live on the node; a
/// ping, `undo` and the reads of finished games answer without it).
fn needs_redis(msg: &ClientMsg) -> bool {
    match msg {
        ClientMsg::Ping { .. }
        | ClientMsg::Undo { .. }
        | ClientMsg::Record { .. }
        | ClientMsg::Games { .. } => false,
        ClientMsg::Move { game, .. }
        | ClientMsg::Resign { game, .. }
        | ClientMsg::Sync { game, .. } => !is_hosted(game),
        ClientMsg::Leave { room, .. } => !is_hosted(room),
        ClientMsg::Queue { .. }
        | ClientMsg::CancelQueue { .. }
        | ClientMsg::InviteCreate { .. }
        | ClientMsg::InviteCancel { .. }
        | ClientMsg::InviteJoin { .. }
        | ClientMsg::Reconnect { .. }
        | ClientMsg::Rematch { .. } => true,
        _ => false,
    }
}

/// A fresh player number or room number: random below 2^53 (a number JavaScript reads
/// exactly), never 0, so that no number is handed out twice, whatever Redis forgets (a counter
/// in Redis would start again at 1 after Redis lost its data).
pub(super) fn fresh_number() -> u64 {
    rand::rng().random_range(1..(1u64 << 53))
}

/// Whether a game id names a hosted room (served by the node's own task).
pub(super) fn is_hosted(id: &str) -> bool {
    id.starts_with('H')
}
