//! The node's actor: its connected players, the rooms it owns, and its talk with Redis.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use rand::RngExt;
use reversi::clock::Millis;
use reversi::room::{
    EventKind, InviteCode, PlayerId, RematchOffer, RematchStep, Room, RoomCommand, RoomError,
    RoomId, RoomSettings,
};
use reversi::room_adapters::ReversiGame;
use serde_json::Value;
use tokio::sync::mpsc;

use super::io::*;
use super::keys::*;
use super::link::Link;
use super::reads::*;
use super::wire::*;
use super::{scripts, Cluster, ClusterConfig, ClusterError, Hosted, Input, Parts};
use crate::common::{no_such_game, sleep_until_deadline, wall_now, Out};
use crate::db::{Db, GameRecord, Reader, Write};
use crate::finished;
use crate::protocol::{text_of, ClientMsg, ErrorCode, Refusal, ServerMsg, StateKind};
use crate::rooms::{
    game_over, log_end, matched, not_online_for_rematch, online_id, parse_online_id, record,
    rematch_refusal, room_refusal, state_msg, state_text,
};

struct Local {
    conn: u64,
    out: Out,
    act: Act,
    /// The player's token (its key's expiry is refreshed while the player is here).
    token: String,
}

struct Owned {
    room: Room<ReversiGame>,
    kind: String,
    deadline: Option<u64>,
}

struct Node {
    db: Db,
    reader: Arc<Reader>,
    hosted: Arc<dyn Hosted>,
    me: String,
    keys: Arc<Keys>,
    link: Link,
    lease_ms: u64,
    settings: RoomSettings,
    queue_wait: u64,
    invite_ttl: u64,
    io: mpsc::UnboundedSender<Job>,
    conns: HashMap<u64, (Out, Option<PlayerId>)>,
    players: HashMap<PlayerId, Local>,
    rooms: HashMap<String, Owned>,
    timers: BTreeSet<(u64, String)>,
    local_timers: BTreeSet<(u64, u64)>,
    /// The node of each member of the rooms this node owns.
    locs: HashMap<PlayerId, String>,
    /// The owner of a room, as last seen.
    owners: HashMap<String, String>,
    pending: Vec<Forward>,
    /// Rooms whose last save failed: saved and told again at the next sweep.
    unsaved: BTreeSet<String>,
    /// Closed rooms whose deletion failed: deleted again at the next sweep.
    undeleted: Vec<Job>,
    /// Whether the node's subscription is up.
    listening: bool,
    /// The connections bound to this node's own task for hosted rooms.
    hosted_conns: BTreeSet<u64>,
    /// The I/O task's connection (whether it is down counts too).
    io_link: Link,
    /// The generation of Redis's data this node last saw ([`Keys::gen`]).
    gen: String,
    /// When this node last saw that Redis lost its data (wall ms; 0: never).
    reset_at: u64,
    /// The ids of the last commands applied here (a command published twice is applied once).
    applied: HashSet<u64>,
    applied_order: VecDeque<u64>,
    /// Members of rooms this node owns whose node is not known yet (looked for at each sweep).
    unlocated: Vec<(String, PlayerId)>,
}

/// How many applied commands' ids a node remembers.
const APPLIED_MAX: usize = 4096;

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
            Input::Wire(Wire::Cmd(f)) => self.apply(f),
            Input::Wire(Wire::Deliver {
                player,
                text,
                matched,
                hop,
            }) => {
                if let Some(l) = self.players.get_mut(&PlayerId(player)) {
                    if matched {
                        l.act = Act::Idle;
                    }
                    let _ = l.out.try_send(Utf8Bytes::from(text));
                } else if !hop {
                    // The player moved to another node after the sender last saw it: passed on
                    // once, to the node Redis names now.
                    self.pass_on(player, text, matched).await;
                }
            }
            Input::Wire(Wire::Drop { player, node }) => {
                if let Some(l) = self.players.remove(&PlayerId(player)) {
                    if let Some(c) = self.conns.get_mut(&l.conn) {
                        c.1 = None;
                    }
                    // A wait or an invite goes on at the player's new node (it ends there,
                    // is matched there, or expires there).
                    if let (Some(node), Act::Waiting { .. } | Act::Inviting { .. }) = (node, &l.act)
                    {
                        self.publish(node, &Wire::Adopt { player, act: l.act });
                    }
                }
            }
            Input::Wire(Wire::Adopt { player, act }) => {
                let p = PlayerId(player);
                if let Some(l) = self.players.get_mut(&p) {
                    if l.act == Act::Idle {
                        let until = match &act {
                            Act::Waiting { until, .. } | Act::Inviting { until, .. } => {
                                Some(*until)
                            }
                            Act::Idle => None,
                        };
                        l.act = act;
                        if let Some(u) = until {
                            self.local_timers.insert((u, player));
                        }
                    }
                }
            }
            Input::Wire(Wire::Moved { room, players }) => {
                self.owners.remove(&room);
                let now = wall_now();
                for p in players {
                    let p = PlayerId(p);
                    if !self.players.contains_key(&p) {
                        continue;
                    }
                    if let Err(e) = self
                        .forward(now, p, &room, "reconnect", None, Op::Reconnect)
                        .await
                    {
                        tracing::warn!(error = %e.message, room = %room, "not resynced");
                    }
                }
            }
            Input::Wire(Wire::Rematch {
                room,
                offerer,
                accepter,
                node,
                rid,
            }) => {
                let (o, a) = (PlayerId(offerer), PlayerId(accepter));
                if let Err(r) = self.rematch_game(o, (a, node.clone()), rid.as_ref()).await {
                    let text = text_of(&r.to_msg(Some("rematch"), rid.as_ref()), None);
                    let payload = serde_json::to_string(&Wire::Deliver {
                        player: accepter,
                        text: text.as_str().to_owned(),
                        matched: false,
                        hop: false,
                    })
                    .expect("a message serialises");
                    tracing::debug!(room = %room, code = %r.code, "rematch not made");
                    let _ = self.io.send(Job {
                        sends: vec![Out2::Publish {
                            node,
                            payload,
                            forward: None,
                        }],
                        ..Job::default()
                    });
                }
            }
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

    /// Another node owns room `room` now: this node forgets it (its copy in SQLite too).
    fn lost(&mut self, room: String) {
        self.owners.remove(&room);
        drop(self.db.submit(vec![Write::Delete { id: room.clone() }]));
        if let Some(o) = self.rooms.remove(&room) {
            if let Some(d) = o.deadline {
                self.timers.remove(&(d, room));
            }
        }
    }

    /// Undoes a command whose change surely was not saved (Redis out of reach), while nothing
    /// came after it, and tells its sender `unavailable`: nothing changed.
    fn revert(&mut self, id: &str, r: Revert) {
        let Some(o) = self.rooms.get_mut(id) else {
            return;
        };
        if o.room.version() != r.after {
            return;
        }
        o.room = r.before;
        let deadline = o.room.poll_timeout().map(|t| t.0);
        let old = std::mem::replace(&mut o.deadline, deadline);
        if let Some(d) = old {
            self.timers.remove(&(d, id.to_owned()));
        }
        if let Some(d) = deadline {
            self.timers.insert((d, id.to_owned()));
        }
        tracing::info!(room = %id, "a change not saved for want of Redis was undone; its sender is told");
        let (p, text) = r.refusal;
        if let Some(s) = self.to_player(p, text, false) {
            let _ = self.io.send(Job {
                sends: vec![s],
                ..Job::default()
            });
        }
    }

    /// How long a command waits for a room's owner before it is refused (`unavailable`).
    fn give_up(&self) -> u64 {
        self.lease_ms.saturating_mul(3).saturating_add(10_000)
    }

    /// Publishes `wire` to `node` (behind the saves already queued).
    fn publish(&self, node: String, wire: &Wire) {
        let payload = serde_json::to_string(wire).expect("a message serialises");
        let _ = self.io.send(Job {
            sends: vec![Out2::Publish {
                node,
                payload,
                forward: None,
            }],
            ..Job::default()
        });
    }

    /// Passes a message on to the node where `player` is connected now, if another.
    async fn pass_on(&mut self, player: u64, text: String, matched: bool) {
        let node = match self.get(self.keys.at(player)).await {
            Ok(Some(n)) if n != self.me => n,
            _ => return,
        };
        self.publish(
            node,
            &Wire::Deliver {
                player,
                text,
                matched,
                hop: true,
            },
        );
    }

    // ---- Redis helpers ----

    async fn q<T: redis::FromRedisValue>(&mut self, c: &redis::Cmd) -> Res<T> {
        self.link.query(c).await.map_err(|e| store_err(&e))
    }

    async fn qp<T: redis::FromRedisValue>(&mut self, p: &redis::Pipeline) -> Res<T> {
        self.link.pipe(p).await.map_err(|e| store_err(&e))
    }

    /// After the subscription came back: the states and matches published to this node
    /// meanwhile were lost, so each of its players in a room asks the room's owner again.
    async fn resync(&mut self) {
        let now = wall_now();
        let ps: Vec<PlayerId> = self.players.keys().copied().collect();
        for p in ps {
            let room = match self.get(self.keys.proom(p.0)).await {
                Ok(Some(r)) => r,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(error = %e.message, "not resynced");
                    continue;
                }
            };
            // A wait or an invite that ended in a match while this node was not listening.
            self.set_act(p, Act::Idle);
            if let Err(e) = self
                .forward(now, p, &room, "reconnect", None, Op::Reconnect)
                .await
            {
                tracing::warn!(error = %e.message, room = %room, "not resynced");
            }
        }
    }

    /// Refreshes the expiry of the keys of this node's players (their tokens and where they are).
    async fn refresh(&mut self) {
        if self.players.is_empty() {
            return;
        }
        let mut pipe = redis::pipe();
        for (p, l) in &self.players {
            pipe.cmd("PEXPIRE")
                .arg(self.keys.token(&l.token))
                .arg(TOKEN_TTL_MS)
                .ignore()
                .cmd("PEXPIRE")
                .arg(self.keys.at(p.0))
                .arg(LIVE_TTL_MS)
                .ignore();
        }
        if let Err(e) = self.qp::<()>(&pipe).await {
            tracing::warn!(error = %e.message, "players' keys not refreshed");
        }
    }

    async fn get(&mut self, key: String) -> Res<Option<String>> {
        self.q(redis::cmd("GET").arg(key)).await
    }

    /// The generation of Redis's data, set by this node when it is missing: the value, and
    /// whether this node set it.
    async fn generation(&mut self) -> Res<(String, bool)> {
        let mut bits = [0u8; 8];
        rand::rng().fill(&mut bits);
        let mine: String = bits.iter().map(|b| format!("{b:02x}")).collect();
        let before: Option<String> = self
            .q(redis::cmd("SET")
                .arg(self.keys.gen())
                .arg(&mine)
                .arg("NX")
                .arg("GET"))
            .await?;
        Ok(match before {
            Some(g) => (g, false),
            None => (mine, true),
        })
    }

    /// Renews this node's life key and its rooms' leases; drops the rooms it lost; puts back
    /// what Redis forgot when it lost its data.
    async fn heartbeat(&mut self) -> Res<()> {
        let (gen, _) = self.generation().await?;
        if gen != self.gen {
            tracing::warn!(before = %self.gen, now = %gen, "Redis lost its data: putting this node's rooms, guests and games back");
            self.gen = gen;
            self.reset_at = wall_now().0;
            self.restore().await?;
        }
        let alive = self.keys.alive(&self.me);
        let me = self.me.clone();
        let lease = self.lease_ms;
        self.q::<()>(redis::cmd("SET").arg(alive).arg(&me).arg("PX").arg(lease))
            .await?;
        let ids: Vec<String> = self.rooms.keys().cloned().collect();
        for chunk in ids.chunks(1000) {
            let mut c = redis::cmd("EVAL");
            c.arg(scripts::RENEW).arg(chunk.len());
            for id in chunk {
                c.arg(self.keys.lease(id));
            }
            c.arg(&me).arg(lease);
            let (lost, free): (Vec<usize>, Vec<usize>) = self.q(&c).await?;
            for i in lost {
                if let Some(id) = chunk.get(i.wrapping_sub(1)) {
                    tracing::warn!(room = %id, "the room's lease was lost");
                    self.lost(id.clone());
                }
            }
            for i in free {
                if let Some(id) = chunk.get(i.wrapping_sub(1)) {
                    // Saved again: the save takes the lease back unless the room moved on.
                    tracing::warn!(room = %id, "the room's lease was gone: saving the room again");
                    self.finish_room(id, wall_now(), None, Vec::new());
                }
            }
        }
        Ok(())
    }

    /// After Redis lost its data: this node's players (their tokens, where they are, their
    /// waits and invites), the tokens it handed out and the games that ended on it within a
    /// day go back into Redis; its rooms are saved again (which takes their leases back and
    /// tells their players).
    async fn restore(&mut self) -> Res<()> {
        let now = wall_now().0;
        let mut pipe = redis::pipe();
        for (p, l) in &self.players {
            pipe.cmd("SET")
                .arg(self.keys.token(&l.token))
                .arg(p.0)
                .arg("PX")
                .arg(TOKEN_TTL_MS)
                .ignore()
                .cmd("SET")
                .arg(self.keys.at(p.0))
                .arg(&self.me)
                .arg("PX")
                .arg(LIVE_TTL_MS)
                .ignore();
            match &l.act {
                Act::Waiting { entry, until } if *until > now => {
                    pipe.cmd("RPUSH")
                        .arg(self.keys.k("queue"))
                        .arg(entry)
                        .ignore();
                }
                Act::Inviting { code, value, until } if *until > now => {
                    pipe.cmd("SET")
                        .arg(self.keys.invite(code))
                        .arg(value)
                        .arg("NX")
                        .arg("PX")
                        .arg(until - now)
                        .ignore();
                }
                _ => {}
            }
        }
        let reader = self.reader.clone();
        let since = now.saturating_sub(GUESTS_KEPT_MS);
        let games_since = now.saturating_sub(RECORD_TTL_MS);
        let read = tokio::task::spawn_blocking(move || {
            let guests = reader.guests_since(since)?;
            let mut games = reader.games_since("random", games_since)?;
            games.extend(reader.games_since("invite", games_since)?);
            games.sort_by_key(|g| g.ended_ms);
            Ok::<_, rusqlite::Error>((guests, games))
        })
        .await
        .map_err(|e| Refusal::new(ErrorCode::Internal, format!("the read failed: {e}")))?;
        match read {
            Ok((guests, games)) => {
                for (token, player) in guests {
                    pipe.cmd("SET")
                        .arg(self.keys.token(&token))
                        .arg(player)
                        .arg("NX")
                        .arg("PX")
                        .arg(TOKEN_TTL_MS)
                        .ignore();
                }
                for g in &games {
                    finished_cmds(&mut pipe, &self.keys, g);
                }
            }
            Err(e) => tracing::error!(error = %e, "this node's guests and games not put back"),
        }
        if pipe.cmd_iter().next().is_some() {
            self.qp::<()>(&pipe).await?;
        }
        let ids: Vec<String> = self.rooms.keys().cloned().collect();
        for id in ids {
            self.finish_room(&id, wall_now(), None, Vec::new());
        }
        Ok(())
    }

    // ---- this node's players ----

    fn player_of(&self, conn: u64) -> Option<PlayerId> {
        self.conns.get(&conn).and_then(|c| c.1)
    }

    fn bind(&mut self, conn: u64, out: &Out, p: PlayerId, token: String) {
        if let Some(c) = self.conns.get_mut(&conn) {
            c.1 = Some(p);
        }
        self.players.insert(
            p,
            Local {
                conn,
                out: out.clone(),
                act: Act::Idle,
                token,
            },
        );
    }

    /// The connection's guest, created on first use.
    async fn guest(&mut self, conn: u64, out: &Out, rid: Option<&Value>) -> Res<PlayerId> {
        if let Some(p) = self.player_of(conn) {
            return Ok(p);
        }
        let n = fresh_number();
        let mut bits = [0u8; 16];
        rand::rng().fill(&mut bits);
        let token: String = bits.iter().map(|b| format!("{b:02x}")).collect();
        let mut pipe = redis::pipe();
        pipe.cmd("SET")
            .arg(self.keys.token(&token))
            .arg(n)
            .arg("PX")
            .arg(TOKEN_TTL_MS)
            .ignore()
            .cmd("SET")
            .arg(self.keys.at(n))
            .arg(&self.me)
            .arg("PX")
            .arg(LIVE_TTL_MS)
            .ignore();
        self.qp::<()>(&pipe).await?;
        // The node's own database knows the token too (`games` and `record` on this node).
        // The writer commits whether or not its answer is awaited.
        drop(self.db.submit(vec![Write::Guest {
            token: token.clone(),
            player: n,
            at: wall_now().0,
        }]));
        let p = PlayerId(n);
        self.bind(conn, out, p, token.clone());
        let guest = ServerMsg::Guest {
            player: n,
            token,
            rid: None,
        };
        let _ = out.try_send(text_of(&guest, rid));
        Ok(p)
    }

    /// The player of a token this node handed out (its own database), put back in Redis.
    async fn own_token(&mut self, token: &str) -> Res<Option<u64>> {
        let reader = self.reader.clone();
        let t = token.to_owned();
        let player = tokio::task::spawn_blocking(move || reader.player_of(&t))
            .await
            .map_err(|e| Refusal::new(ErrorCode::Internal, format!("the read failed: {e}")))?
            .map_err(finished::db_err)?;
        if let Some(n) = player {
            self.q::<()>(
                redis::cmd("SET")
                    .arg(self.keys.token(token))
                    .arg(n)
                    .arg("NX")
                    .arg("PX")
                    .arg(TOKEN_TTL_MS),
            )
            .await?;
        }
        Ok(player)
    }

    /// Refuses a lobby command of a player who is busy (waiting, inviting or playing).
    async fn check_idle(&mut self, p: PlayerId) -> Res<()> {
        match self.players.get(&p).map(|l| &l.act) {
            Some(Act::Waiting { .. }) => {
                return Err(room_refusal(&RoomError::AlreadyWaiting { player: p }))
            }
            Some(Act::Inviting { code, .. }) => {
                let code: InviteCode = code.parse().map_err(|e| room_refusal(&e))?;
                return Err(room_refusal(&RoomError::InviteOpen { player: p, code }));
            }
            _ => {}
        }
        if let Some(room) = self.get(self.keys.proom(p.0)).await? {
            let room = parse_online_id(&room).unwrap_or(RoomId(0));
            return Err(room_refusal(&RoomError::MustResignFirst {
                player: p,
                room,
            }));
        }
        Ok(())
    }

    fn set_act(&mut self, p: PlayerId, act: Act) {
        if let Some(l) = self.players.get_mut(&p) {
            l.act = act;
        }
    }

    async fn client(&mut self, conn: u64, out: &Out, msg: ClientMsg) -> Res<()> {
        let now = wall_now();
        let kind = msg.kind();
        let rid = msg.rid().cloned();
        let rid = rid.as_ref();
        match msg {
            ClientMsg::Queue { .. } => {
                let p = self.guest(conn, out, rid).await?;
                self.check_idle(p).await?;
                let until = now.0.saturating_add(self.queue_wait);
                let entry = format!("{}|{}|{until}", p.0, self.me);
                let mut c = redis::cmd("EVAL");
                c.arg(scripts::QUEUE)
                    .arg(1)
                    .arg(self.keys.k("queue"))
                    .arg(&entry)
                    .arg(now.0)
                    .arg(p.0);
                let other: Option<String> = self.q(&c).await?;
                match other.as_deref().and_then(parse_entry) {
                    Some((o, node)) => {
                        self.create_room(
                            now,
                            "random",
                            (PlayerId(o), node),
                            p,
                            rid.map(|r| (p, r)),
                        )
                        .await?;
                    }
                    None => {
                        self.set_act(p, Act::Waiting { entry, until });
                        self.local_timers.insert((until, p.0));
                        let _ = out.try_send(text_of(&ServerMsg::Queued { until, rid: None }, rid));
                    }
                }
            }
            ClientMsg::CancelQueue { .. } => {
                let p = self.guest(conn, out, rid).await?;
                let Some(Act::Waiting { entry, .. }) = self.players.get(&p).map(|l| l.act.clone())
                else {
                    return Err(room_refusal(&RoomError::NotWaiting { player: p }));
                };
                let removed: i64 = self
                    .q(redis::cmd("LREM")
                        .arg(self.keys.k("queue"))
                        .arg(1)
                        .arg(&entry))
                    .await?;
                if removed == 0 {
                    // Matched meanwhile: the `matched` is on its way.
                    return Err(room_refusal(&RoomError::NotWaiting { player: p }));
                }
                self.set_act(p, Act::Idle);
                let _ = out.try_send(text_of(&ServerMsg::QueueCancelled { rid: None }, rid));
            }
            ClientMsg::InviteCreate { .. } => {
                let p = self.guest(conn, out, rid).await?;
                self.check_idle(p).await?;
                let until = now.0.saturating_add(self.invite_ttl);
                let value = format!("{}|{}|{until}", p.0, self.me);
                let code = loop {
                    let code: String = (0..InviteCode::LEN)
                        .map(|_| {
                            let i = rand::rng().random_range(0..InviteCode::ALPHABET.len());
                            char::from(InviteCode::ALPHABET[i])
                        })
                        .collect();
                    let set: Option<String> = self
                        .q(redis::cmd("SET")
                            .arg(self.keys.invite(&code))
                            .arg(&value)
                            .arg("NX")
                            .arg("PX")
                            .arg(self.invite_ttl.max(1)))
                        .await?;
                    if set.is_some() {
                        break code;
                    }
                };
                let parsed: InviteCode = code.parse().map_err(|e| room_refusal(&e))?;
                self.set_act(
                    p,
                    Act::Inviting {
                        code: code.clone(),
                        value,
                        until,
                    },
                );
                self.local_timers.insert((until, p.0));
                let msg = ServerMsg::Invite {
                    link: parsed.link(""),
                    code,
                    expires_at: until,
                    rid: None,
                };
                let _ = out.try_send(text_of(&msg, rid));
            }
            ClientMsg::InviteCancel { .. } => {
                let p = self.guest(conn, out, rid).await?;
                let Some(Act::Inviting { code, value, .. }) =
                    self.players.get(&p).map(|l| l.act.clone())
                else {
                    return Err(room_refusal(&RoomError::NoOpenInvite { player: p }));
                };
                if !self.take_invite(&code, &value).await? {
                    return Err(room_refusal(&RoomError::NoOpenInvite { player: p }));
                }
                self.set_act(p, Act::Idle);
                let _ = out.try_send(text_of(
                    &ServerMsg::InviteCancelled { code, rid: None },
                    rid,
                ));
            }
            ClientMsg::InviteJoin { code, .. } => {
                let code = InviteCode::from_link(&code).map_err(|e| room_refusal(&e))?;
                let p = self.guest(conn, out, rid).await?;
                self.check_idle(p).await?;
                let value = self
                    .get(self.keys.invite(code.as_str()))
                    .await?
                    .ok_or_else(|| {
                        room_refusal(&RoomError::UnknownInvite { code: code.clone() })
                    })?;
                let (creator, node) = parse_entry(&value)
                    .ok_or_else(|| Refusal::new(ErrorCode::Internal, "an unreadable invite"))?;
                if creator == p.0 {
                    return Err(room_refusal(&RoomError::OwnInvite { player: p }));
                }
                if !self.take_invite(code.as_str(), &value).await? {
                    return Err(room_refusal(&RoomError::InviteFull { code }));
                }
                self.create_room(
                    now,
                    "invite",
                    (PlayerId(creator), node),
                    p,
                    rid.map(|r| (p, r)),
                )
                .await?;
            }
            ClientMsg::Reconnect { token, .. } => {
                if self.player_of(conn).is_some() {
                    return Err(Refusal::new(
                        ErrorCode::AlreadyIdentified,
                        "this connection already has a guest: reconnect on a new connection",
                    ));
                }
                let known: Option<u64> = self
                    .get(self.keys.token(&token))
                    .await?
                    .and_then(|s| s.parse().ok());
                let n = match known {
                    Some(n) => n,
                    // Not in Redis (it lost its data, say): a token this node handed out is
                    // in its own database, and goes back into Redis.
                    None => self
                        .own_token(&token)
                        .await?
                        .ok_or_else(|| room_refusal(&RoomError::WrongToken))?,
                };
                let p = PlayerId(n);
                if let Some(old) = self.players.remove(&p) {
                    // The token proves who it is: the old connection is replaced.
                    if let Some(c) = self.conns.get_mut(&old.conn) {
                        c.1 = None;
                    }
                    if let Act::Waiting { entry, .. } = old.act {
                        let _ = self
                            .q::<i64>(
                                redis::cmd("LREM")
                                    .arg(self.keys.k("queue"))
                                    .arg(1)
                                    .arg(entry),
                            )
                            .await;
                    }
                }
                let mut pipe = redis::pipe();
                pipe.cmd("SET")
                    .arg(self.keys.at(n))
                    .arg(&self.me)
                    .arg("PX")
                    .arg(LIVE_TTL_MS)
                    .arg("GET")
                    .cmd("PEXPIRE")
                    .arg(self.keys.token(&token))
                    .arg(TOKEN_TTL_MS)
                    .ignore();
                let (before,): (Option<String>,) = self.qp(&pipe).await?;
                if let Some(node) = before.filter(|n| *n != self.me) {
                    let payload = serde_json::to_string(&Wire::Drop {
                        player: n,
                        node: Some(self.me.clone()),
                    })
                    .expect("a message serialises");
                    let _ = self.io.send(Job {
                        save: None,
                        sends: vec![Out2::Publish {
                            node,
                            payload,
                            forward: None,
                        }],
                        ..Job::default()
                    });
                }
                self.bind(conn, out, p, token.clone());
                let _ = out.try_send(text_of(
                    &ServerMsg::Guest {
                        player: n,
                        token: token.clone(),
                        rid: None,
                    },
                    rid,
                ));
                // A member of a hosted room of this node is back in it.
                self.hosted_conns.insert(conn);
                self.hosted.hosted(conn, out, p, None, true).await;
                if let Some(room) = self.get(self.keys.proom(n)).await? {
                    self.forward(now, p, &room, kind, rid, Op::Reconnect)
                        .await?;
                }
            }
            ClientMsg::Move { ref game, .. }
            | ClientMsg::Resign { ref game, .. }
            | ClientMsg::Sync { ref game, .. }
                if is_hosted(game) =>
            {
                self.hosted(conn, out, rid, msg).await?;
            }
            ClientMsg::Leave { ref room, .. } if is_hosted(room) => {
                self.hosted(conn, out, rid, msg).await?;
            }
            ClientMsg::Move {
                game,
                square,
                version,
                ..
            } => {
                let p = self.guest(conn, out, rid).await?;
                let _ = online_room(&game)?;
                self.forward(now, p, &game, kind, rid, Op::Move { version, square })
                    .await?;
            }
            ClientMsg::Resign { game, .. } => {
                let p = self.guest(conn, out, rid).await?;
                let _ = online_room(&game)?;
                self.forward(now, p, &game, kind, rid, Op::Resign).await?;
            }
            ClientMsg::Sync { game, .. } => {
                let _ = online_room(&game)?;
                // The record is what was last told: read it where it is kept.
                let rec: HashMap<String, String> = self
                    .q(redis::cmd("HGETALL").arg(self.keys.room(&game)))
                    .await?;
                match rec.get("state") {
                    Some(state) => {
                        let room = crate::records::decode_room(state).map_err(|e| {
                            Refusal::new(ErrorCode::Internal, format!("the room's record: {e}"))
                        })?;
                        let state = state_msg(StateKind::Online, &game, &room, now);
                        let _ = out.try_send(text_of(&ServerMsg::State(Box::new(state)), rid));
                    }
                    None => return Err(self.gone_room(&game).await?),
                }
            }
            ClientMsg::Leave { room, .. } => {
                let _ = online_room(&room)?;
                let p = self.guest(conn, out, rid).await?;
                self.forget_local(p).await;
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.1 = None;
                }
                if self.get(self.keys.proom(p.0)).await?.as_deref() == Some(room.as_str()) {
                    self.forward(now, p, &room, kind, None, Op::Leave).await?;
                }
            }
            ClientMsg::Rematch { room, .. } => {
                let p = self.guest(conn, out, rid).await?;
                self.rematch(p, out, &room, rid).await?;
            }
            ClientMsg::Undo { .. } => {
                return Err(Refusal::new(
                    ErrorCode::NoUndoOnline,
                    "there is no undo in online and hosted games",
                ))
            }
            ClientMsg::Ping { .. } | ClientMsg::Record { .. } | ClientMsg::Games { .. } => {}
            // The hosted-room commands.
            _ => self.hosted(conn, out, rid, msg).await?,
        }
        Ok(())
    }

    /// A hosted-room command: served by this node's own task, as on a single node, for the
    /// cluster's guest of the connection. A hosted room lives on the node that made it, and
    /// only players connected to that node reach it.
    async fn hosted(
        &mut self,
        conn: u64,
        out: &Out,
        rid: Option<&Value>,
        msg: ClientMsg,
    ) -> Res<()> {
        let p = self.guest(conn, out, rid).await?;
        let bind = self.hosted_conns.insert(conn);
        self.hosted.hosted(conn, out, p, Some(msg), bind).await;
        Ok(())
    }

    /// A rematch offer (or its acceptance) by `p` after the online game `room`, by the room
    /// crate's rule ([`RematchOffer::offer`]) as on a single node: the first offer goes to the
    /// opponent (`rematch_offered`) wherever it is connected; when the opponent offers too, the
    /// first one's node makes the new game (an invite game).
    ///
    /// The rule's state is kept in Redis as JSON, and replaced only if nobody changed it since
    /// it was read (`scripts::SWAP`; otherwise it is read and the rule applied again): for an
    /// invite's lifetime while offered, as long as the game's record once spent.
    async fn rematch(
        &mut self,
        p: PlayerId,
        out: &Out,
        room: &str,
        rid: Option<&Value>,
    ) -> Res<()> {
        let id = parse_online_id(room).ok_or_else(|| not_online_for_rematch(room))?;
        let none = || rematch_refusal(room, &RoomError::NoRematch { room: id });
        let text: Option<String> = self.get(self.keys.game(room, 1)).await?;
        let rec = text
            .and_then(|t| serde_json::from_str::<GameRecord>(&t).ok())
            .ok_or_else(none)?;
        let guest = |n: &str| n.strip_prefix("guest:").and_then(|n| n.parse::<u64>().ok());
        let fresh = match (guest(&rec.black), guest(&rec.white)) {
            (Some(b), Some(w)) => RematchOffer::new(id, [PlayerId(b), PlayerId(w)]).ok(),
            _ => None,
        }
        .ok_or_else(none)?;
        let key = self.keys.rematch(room);
        let mut idle = false;
        let mut tries = 0;
        let step = loop {
            let stored = self.get(key.clone()).await?;
            let mut offer = stored.as_deref().map_or(fresh, |t| stored_offer(t, fresh));
            let step = offer.offer(p).map_err(|e| rematch_refusal(room, &e))?;
            if !idle {
                self.check_idle(p).await?;
                idle = true;
            }
            let ttl = match step {
                RematchStep::Offered { .. } => self.invite_ttl.max(1),
                _ => RECORD_TTL_MS,
            };
            let mut c = redis::cmd("EVAL");
            c.arg(scripts::SWAP)
                .arg(1)
                .arg(&key)
                .arg(stored.as_deref().unwrap_or(""))
                .arg(serde_json::to_string(&offer).expect("an offer serialises"))
                .arg(ttl);
            if self.q::<i64>(&c).await? == 1 {
                break step;
            }
            tries += 1;
            if tries == 8 {
                return Err(store_err("the rematch offer kept changing: send it again"));
            }
        };
        match step {
            RematchStep::Offered { to: other } => {
                let v = ServerMsg::RematchOffered {
                    room: room.to_owned(),
                };
                if let Some(n) = self.get(self.keys.at(other.0)).await? {
                    self.locs.insert(other, n);
                    if let Some(s) = self.to_player(other, text_of(&v, None), false) {
                        let _ = self.io.send(Job {
                            sends: vec![s],
                            ..Job::default()
                        });
                    }
                }
                let _ = out.try_send(text_of(
                    &ServerMsg::RematchWaiting {
                        room: room.to_owned(),
                        rid: None,
                    },
                    rid,
                ));
                Ok(())
            }
            RematchStep::Accepted { offerer: other } => {
                let busy = RoomError::RematchOpponentBusy {
                    room: id,
                    opponent: other,
                };
                let node = self
                    .get(self.keys.at(other.0))
                    .await?
                    .ok_or_else(|| rematch_refusal(room, &busy))?;
                if node == self.me {
                    return self.rematch_game(other, (p, self.me.clone()), rid).await;
                }
                let payload = serde_json::to_string(&Wire::Rematch {
                    room: room.to_owned(),
                    offerer: other.0,
                    accepter: p.0,
                    node: self.me.clone(),
                    rid: rid.cloned(),
                })
                .expect("a message serialises");
                let _ = self.io.send(Job {
                    sends: vec![Out2::Publish {
                        node,
                        payload,
                        forward: None,
                    }],
                    ..Job::default()
                });
                Ok(())
            }
            // A step a newer rule may add: nothing to do here.
            _ => Ok(()),
        }
    }

    /// Makes the rematch game on the offerer's node: the offerer must be here and free.
    async fn rematch_game(
        &mut self,
        offerer: PlayerId,
        accepter: (PlayerId, String),
        rid: Option<&Value>,
    ) -> Res<()> {
        let busy = || {
            Refusal::new(
                ErrorCode::NoRematch,
                "your opponent is busy with another game",
            )
        };
        match self.players.get(&offerer).map(|l| &l.act) {
            None => {
                return Err(Refusal::new(
                    ErrorCode::NoRematch,
                    "your opponent is not connected",
                ))
            }
            Some(Act::Idle) => {}
            Some(_) => return Err(busy()),
        }
        if self.get(self.keys.proom(offerer.0)).await?.is_some() {
            return Err(busy());
        }
        let a = accepter.0;
        self.create_room(wall_now(), "invite", accepter, offerer, rid.map(|r| (a, r)))
            .await
    }

    /// The refusal for a room that has no record: over when it ended (its tombstone or its
    /// finished record is in Redis, or this node recorded it), unknown otherwise.
    async fn gone_room(&mut self, game: &str) -> Res<Refusal> {
        let mut pipe = redis::pipe();
        pipe.cmd("EXISTS")
            .arg(self.keys.tomb(game))
            .arg(self.keys.game(game, 1));
        let (n,): (i64,) = self.qp(&pipe).await?;
        Ok(if n > 0 {
            game_over(game)
        } else {
            no_such_game(game)
        })
    }

    /// Deletes the invite `code` if it still holds `value`; whether it did.
    async fn take_invite(&mut self, code: &str, value: &str) -> Res<bool> {
        let mut c = redis::cmd("EVAL");
        c.arg(scripts::TAKE)
            .arg(1)
            .arg(self.keys.invite(code))
            .arg(value);
        Ok(self.q::<i64>(&c).await? == 1)
    }

    /// A player leaves this node: its wait and its invite end.
    async fn forget_local(&mut self, p: PlayerId) {
        let Some(l) = self.players.remove(&p) else {
            return;
        };
        match l.act {
            Act::Waiting { entry, .. } => {
                let _ = self
                    .q::<i64>(
                        redis::cmd("LREM")
                            .arg(self.keys.k("queue"))
                            .arg(1)
                            .arg(entry),
                    )
                    .await;
            }
            Act::Inviting { code, value, .. } => {
                let _ = self.take_invite(&code, &value).await;
            }
            Act::Idle => {}
        }
    }

    async fn gone(&mut self, conn: u64) {
        if self.hosted_conns.remove(&conn) {
            self.hosted.hosted_gone(conn).await;
        }
        let Some((_, Some(p))) = self.conns.remove(&conn) else {
            return;
        };
        if self.players.get(&p).map(|l| l.conn) != Some(conn) {
            return;
        }
        self.forget_local(p).await;
        let now = wall_now();
        if let Ok(Some(room)) = self.get(self.keys.proom(p.0)).await {
            let _ = self
                .forward(now, p, &room, "disconnect", None, Op::Disconnect)
                .await;
        }
    }

    /// Matches two players: the room is made, saved and owned by this node.
    async fn create_room(
        &mut self,
        now: Millis,
        kind: &str,
        first: (PlayerId, String),
        second: PlayerId,
        rid: Option<(PlayerId, &Value)>,
    ) -> Res<()> {
        let id = online_id(RoomId(fresh_number()));
        // Where each player is connected now (a player may have moved since it queued or
        // made its invite); as the entry says when Redis does not know.
        let first = match self.get(self.keys.at(first.0 .0)).await? {
            Some(n) => (first.0, n),
            None => first,
        };
        let mut seats = [first.0, second];
        if rand::rng().random::<bool>() {
            seats.swap(0, 1);
        }
        let mut room = Room::online(now, &seats, self.settings, ReversiGame::new())
            .map_err(|e| room_refusal(&e))?;
        while room.poll_event().is_some() {}
        let state = crate::records::encode_room(&room);
        let mut pipe = redis::pipe();
        pipe.cmd("SET")
            .arg(self.keys.lease(&id))
            .arg(&self.me)
            .arg("PX")
            .arg(self.lease_ms)
            .ignore()
            .cmd("HSET")
            .arg(self.keys.room(&id))
            .arg("state")
            .arg(state)
            .arg("kind")
            .arg(kind)
            .arg("v")
            .arg(room.version())
            .ignore()
            .cmd("PEXPIRE")
            .arg(self.keys.room(&id))
            .arg(LIVE_TTL_MS)
            .ignore()
            .cmd("SADD")
            .arg(self.keys.k("rooms"))
            .arg(&id)
            .ignore();
        for p in seats {
            pipe.cmd("SET")
                .arg(self.keys.proom(p.0))
                .arg(&id)
                .arg("PX")
                .arg(LIVE_TTL_MS)
                .ignore();
        }
        self.qp::<()>(&pipe).await?;
        self.locs.insert(first.0, first.1);
        self.locs.insert(second, self.me.clone());
        self.set_act(first.0, Act::Idle);
        self.set_act(second, Act::Idle);
        tracing::info!(room = %id, black = seats[0].0, white = seats[1].0, kind, node = %self.me, "matched");
        let mut job = Job::default();
        for (seat, p) in seats.iter().enumerate() {
            let v = matched(id.clone(), seat);
            let r = rid.filter(|(rp, _)| rp == p).map(|(_, r)| r);
            if let Some(s) = self.to_player(*p, text_of(&v, r), true) {
                job.sends.push(s);
            }
        }
        let _ = self.io.send(job);
        self.rooms.insert(
            id.clone(),
            Owned {
                room,
                kind: kind.to_owned(),
                deadline: None,
            },
        );
        self.owners.insert(id.clone(), self.me.clone());
        self.finish_room(&id, now, None, Vec::new());
        Ok(())
    }

    /// A message to player `p` wherever it is connected (as far as this node knows).
    fn to_player(&self, p: PlayerId, text: Utf8Bytes, matched: bool) -> Option<Out2> {
        let node = self.locs.get(&p)?;
        if *node == self.me {
            let l = self.players.get(&p)?;
            return Some(Out2::Local(l.out.clone(), text));
        }
        let payload = serde_json::to_string(&Wire::Deliver {
            player: p.0,
            text: text.as_str().to_owned(),
            matched,
            hop: false,
        })
        .expect("a message serialises");
        Some(Out2::Publish {
            node: node.clone(),
            payload,
            forward: None,
        })
    }

    /// Sends a player's room command to the room's owner (this node included), taking the room
    /// over when its lease has expired.
    async fn forward(
        &mut self,
        now: Millis,
        p: PlayerId,
        room: &str,
        kind: &str,
        rid: Option<&Value>,
        op: Op,
    ) -> Res<()> {
        let f = Forward {
            room: room.to_owned(),
            player: p.0,
            node: self.me.clone(),
            kind: kind.to_owned(),
            rid: rid.cloned(),
            op,
            since: now.0,
            id: rand::rng().random_range(1..u64::MAX),
        };
        self.send_forward(f).await
    }

    async fn send_forward(&mut self, f: Forward) -> Res<()> {
        let owner = match self.owners.get(&f.room) {
            Some(o) => Some(o.clone()),
            None => self.get(self.keys.lease(&f.room)).await?,
        };
        let owner = match owner {
            Some(o) => o,
            None => match self.take_over(&f.room).await? {
                Some(o) => o,
                None => {
                    // No record: the room is over (or never was), or Redis lost its data
                    // lately and the owner has not put it back yet: the command waits for
                    // the next sweep then.
                    let recent = wall_now().0.saturating_sub(self.reset_at) <= self.give_up();
                    if self.reset_at > 0 && recent {
                        self.pending.push(f);
                        return Ok(());
                    }
                    if matches!(f.op, Op::Move { .. } | Op::Resign) {
                        return Err(self.gone_room(&f.room).await?);
                    }
                    return Ok(());
                }
            },
        };
        self.owners.insert(f.room.clone(), owner.clone());
        if owner == self.me {
            self.apply(f);
        } else {
            let payload =
                serde_json::to_string(&Wire::Cmd(f.clone())).expect("a message serialises");
            let _ = self.io.send(Job {
                save: None,
                sends: vec![Out2::Publish {
                    node: owner,
                    payload,
                    forward: Some(f),
                }],
                ..Job::default()
            });
        }
        Ok(())
    }

    /// Takes room `id` over if its lease is free and it has a record: the owner afterwards
    /// (this node or the one that was quicker), or `None` when there is no such room.
    async fn take_over(&mut self, id: &str) -> Res<Option<String>> {
        // No record, no room: the lease is left alone (taking it would make a live owner that
        // is putting the room back after Redis lost its data believe it lost the room).
        let exists: i64 = self.q(redis::cmd("EXISTS").arg(self.keys.room(id))).await?;
        if exists == 0 {
            return Ok(None);
        }
        let took: Option<String> = self
            .q(redis::cmd("SET")
                .arg(self.keys.lease(id))
                .arg(&self.me)
                .arg("NX")
                .arg("PX")
                .arg(self.lease_ms))
            .await?;
        if took.is_none() {
            return self.get(self.keys.lease(id)).await;
        }
        let rec: HashMap<String, String> = self
            .q(redis::cmd("HGETALL").arg(self.keys.room(id)))
            .await?;
        let Some(state) = rec.get("state") else {
            let mut pipe = redis::pipe();
            pipe.cmd("DEL")
                .arg(self.keys.lease(id))
                .ignore()
                .cmd("SREM")
                .arg(self.keys.k("rooms"))
                .arg(id)
                .ignore();
            let _ = self.qp::<()>(&pipe).await;
            return Ok(None);
        };
        let room = match crate::records::decode_room(state) {
            Ok(r) => r,
            Err(e) => {
                // Kept as it is (the lease expires again): never dropped.
                tracing::error!(room = %id, error = %e, "an unreadable room record");
                return Err(Refusal::new(
                    ErrorCode::Internal,
                    format!("the record of {id} cannot be read: {e}"),
                ));
            }
        };
        let kind = rec.get("kind").cloned().unwrap_or_else(|| "online".into());
        self.adopt(id, room, kind).await?;
        tracing::info!(room = %id, node = %self.me, "took the room over");
        Ok(Some(self.me.clone()))
    }

    /// Serves room `id` from now on: the members whose node is gone count as disconnected
    /// (they have the room's grace to come back), the clocks go on by wall time, the room is
    /// saved (which takes its lease when nobody holds it) and the members' nodes are told, so
    /// that their players sync.
    async fn adopt(&mut self, id: &str, mut room: Room<ReversiGame>, kind: String) -> Res<()> {
        let now = wall_now();
        let members: Vec<PlayerId> = room.members().map(|(p, _)| p).collect();
        for p in members {
            let node = self.get(self.keys.at(p.0)).await?;
            let alive = match &node {
                Some(n) if *n == self.me => self.players.contains_key(&p),
                Some(n) => {
                    self.q::<i64>(redis::cmd("EXISTS").arg(self.keys.alive(n)))
                        .await?
                        == 1
                }
                None => false,
            };
            if !alive && room.member(p).is_some_and(|m| m.connected()) {
                let _ = room.handle(now, p, RoomCommand::Disconnect);
            }
            match node {
                Some(n) => {
                    self.locs.insert(p, n);
                }
                // Not known yet (Redis lost it, and the player's node has not put it back):
                // looked for again at each sweep.
                None => self.unlocated.push((id.to_owned(), p)),
            }
        }
        // The clocks go on by wall time: what fell due while nobody owned the room happens now.
        room.handle_timeout(now);
        self.rooms.insert(
            id.to_owned(),
            Owned {
                room,
                kind,
                deadline: None,
            },
        );
        self.owners.insert(id.to_owned(), self.me.clone());
        // The members' nodes are told: those that lost touch meanwhile (the room took their
        // players for gone) have their players sync with the new owner.
        let mut by_node: HashMap<String, Vec<u64>> = HashMap::new();
        for (p, n) in &self.locs {
            if *n != self.me && self.rooms[id].room.member(*p).is_some() {
                by_node.entry(n.clone()).or_default().push(p.0);
            }
        }
        let mut job = Job::default();
        for (node, players) in by_node {
            let payload = serde_json::to_string(&Wire::Moved {
                room: id.to_owned(),
                players,
            })
            .expect("a message serialises");
            job.sends.push(Out2::Publish {
                node,
                payload,
                forward: None,
            });
        }
        self.finish_room(id, now, None, Vec::new());
        let _ = self.io.send(job);
        Ok(())
    }

    /// At start: the online rooms this node owned when it stopped (its SQLite copies). A room
    /// Redis still knows (another node took it over, or it ended) is forgotten here; a room
    /// Redis lost with its data is served again by this node.
    async fn adopt_own_rooms(&mut self) -> Res<()> {
        let reader = self.reader.clone();
        let rows = tokio::task::spawn_blocking(move || {
            let mut rows = Vec::new();
            for (kind, k) in [("random", "cluster_random"), ("invite", "cluster_invite")] {
                for (id, state) in reader.live_of_kind(k)? {
                    rows.push((id, kind.to_owned(), state));
                }
            }
            Ok::<_, rusqlite::Error>(rows)
        })
        .await
        .map_err(|e| Refusal::new(ErrorCode::Internal, format!("the read failed: {e}")))?
        .map_err(finished::db_err)?;
        for (id, kind, state) in rows {
            let mut pipe = redis::pipe();
            pipe.cmd("EXISTS")
                .arg(self.keys.room(&id))
                .arg(self.keys.tomb(&id));
            let (known,): (i64,) = self.qp(&pipe).await?;
            if known > 0 {
                drop(self.db.submit(vec![Write::Delete { id }]));
                continue;
            }
            let mut room = match crate::records::decode_room(&state) {
                Ok(r) => r,
                Err(e) => {
                    tracing::error!(room = %id, error = %e, "an unreadable room of this node: kept, not served");
                    continue;
                }
            };
            while room.poll_event().is_some() {}
            tracing::warn!(room = %id, "Redis lost this node's room: serving it again from the node's database");
            self.adopt(&id, room, kind).await?;
        }
        Ok(())
    }

    /// A forwarded command, at the owner.
    fn apply(&mut self, f: Forward) {
        let now = wall_now();
        let p = PlayerId(f.player);
        let rid = f.rid.as_ref();
        let refuse = |r: &Refusal| text_of(&r.to_msg(Some(&f.kind), rid), None);
        let Some(o) = self.rooms.get_mut(&f.room) else {
            // Not ours (any more): the sender asks again at its next sweep.
            self.owners.remove(&f.room);
            let payload = serde_json::to_string(&Wire::Deliver {
                player: f.player,
                text: refuse(&Refusal::new(
                    ErrorCode::Unavailable,
                    "the room is moving to another node: send it again",
                ))
                .as_str()
                .to_owned(),
                matched: false,
                hop: false,
            })
            .expect("a message serialises");
            let _ = self.io.send(Job {
                save: None,
                sends: vec![Out2::Publish {
                    node: f.node.clone(),
                    payload,
                    forward: None,
                }],
                ..Job::default()
            });
            return;
        };
        if f.id != 0 {
            if !self.applied.insert(f.id) {
                tracing::debug!(room = %f.room, "a command published twice: applied once");
                return;
            }
            self.applied_order.push_back(f.id);
            while self.applied_order.len() > APPLIED_MAX {
                if let Some(old) = self.applied_order.pop_front() {
                    self.applied.remove(&old);
                }
            }
        }
        let mut extra = Vec::new();
        let known = self.locs.get(&p).cloned();
        let moved = known.as_ref().is_some_and(|n| *n != f.node);
        if !matches!(f.op, Op::Disconnect) {
            self.locs.insert(p, f.node.clone());
        }
        let room = &mut o.room;
        let before = matches!(f.op, Op::Move { .. } | Op::Resign | Op::Leave).then(|| room.clone());
        // A command from the player's node says the player is there: a player the room took
        // for gone (its node was out of reach when the room was taken over) is back.
        if matches!(f.op, Op::Move { .. } | Op::Resign | Op::Leave)
            && room.member(p).is_some_and(|m| !m.connected())
        {
            let _ = room.handle(now, p, RoomCommand::Reconnect);
        }
        let result = match &f.op {
            Op::Move { version, square } => match room.seat_of(p) {
                Some(seat) => room.handle(
                    now,
                    p,
                    RoomCommand::Act {
                        seat,
                        version: *version,
                        action: *square,
                    },
                ),
                None => Err(RoomError::NotInRoom { player: p }),
            },
            Op::Resign => room.handle(now, p, RoomCommand::Resign),
            Op::Leave => room.handle(now, p, RoomCommand::Leave),
            // A disconnection from a node the player has left already changes nothing.
            Op::Disconnect if moved => Ok(()),
            Op::Disconnect => {
                if room.member(p).is_some_and(|m| m.connected()) {
                    room.handle(now, p, RoomCommand::Disconnect)
                } else {
                    Ok(())
                }
            }
            Op::Reconnect => {
                let r = if room.member(p).is_some_and(|m| !m.connected()) {
                    room.handle(now, p, RoomCommand::Reconnect)
                } else {
                    Ok(())
                };
                if let Some(seat) = room.seat_of(p) {
                    let v = matched(f.room.clone(), seat);
                    extra.push((p, text_of(&v, rid)));
                }
                r
            }
        };
        if let Err(e) = &result {
            let over = room.closed().is_some() || (!room.in_game() && room.result().is_some());
            let r = if over
                && matches!(
                    e,
                    RoomError::NoGameInProgress
                        | RoomError::NotInRoom { .. }
                        | RoomError::NotSeated { .. }
                        | RoomError::RoomClosed
                ) {
                game_over(&f.room)
            } else {
                room_refusal(e)
            };
            extra.push((p, refuse(&r)));
        }
        let req = rid.map(|r| (p, r.clone()));
        // Reconnect's state goes to the player even if it was connected already.
        if matches!(f.op, Op::Reconnect) {
            let state = state_msg(StateKind::Online, &f.room, room, now);
            extra.push((p, state_text(&state)));
        }
        let lost = refuse(&Refusal::new(
            ErrorCode::Unavailable,
            "the room moved to another node before this was saved: nothing changed, send it again",
        ));
        let revert = match (result.is_ok(), before) {
            (true, Some(before)) => Some(Box::new(Revert {
                before,
                after: room.version(),
                refusal: (
                    p,
                    refuse(&store_err(
                        "Redis is out of reach, the change was not saved: nothing changed, send it again",
                    )),
                ),
            })),
            _ => None,
        };
        self.finish_room_or(&f.room, now, req, extra, Some((p, lost)), revert);
    }

    /// Drains a room's events, records a finished game, saves (or forgets) the room and sends
    /// its state to its connected members, behind the save.
    fn finish_room(
        &mut self,
        id: &str,
        now: Millis,
        req: Option<(PlayerId, Value)>,
        extra: Vec<(PlayerId, Utf8Bytes)>,
    ) {
        self.finish_room_or(id, now, req, extra, None, None);
    }

    /// [`Node::finish_room`], with the refusal its requester gets if the save finds the room
    /// is another node's now.
    fn finish_room_or(
        &mut self,
        id: &str,
        now: Millis,
        req: Option<(PlayerId, Value)>,
        extra: Vec<(PlayerId, Utf8Bytes)>,
        on_lost: Option<(PlayerId, Utf8Bytes)>,
        revert: Option<Box<Revert>>,
    ) {
        let Some(o) = self.rooms.get_mut(id) else {
            return;
        };
        let mut closed = false;
        let mut writes = Vec::new();
        let mut ended = Vec::new();
        while let Some(ev) = o.room.poll_event() {
            match ev.kind {
                EventKind::GameEnded { result } => {
                    let r = record(id, &o.kind, &o.room, &result);
                    ended.push(r.clone());
                    writes.push(Write::Finish(Box::new(r)));
                    log_end(id, &result);
                }
                EventKind::Closed { .. } => closed = true,
                _ => {}
            }
        }
        let mut state = state_msg(StateKind::Online, id, &o.room, now);
        let text = state_text(&state);
        let members: Vec<PlayerId> = o
            .room
            .members()
            .filter(|(_, m)| m.connected())
            .map(|(p, _)| p)
            .collect();
        let mut texts = Vec::new();
        for p in members {
            let t = match &req {
                Some((rp, rid)) if *rp == p => {
                    state.rid = Some(rid.clone());
                    let t = state_text(&state);
                    state.rid = None;
                    t
                }
                _ => text.clone(),
            };
            texts.push((p, t));
        }
        let save = if closed {
            let players = seated(&o.room);
            Save::Delete {
                room: id.to_owned(),
                players,
            }
        } else {
            Save::Put {
                room: id.to_owned(),
                state: crate::records::encode_room(&o.room),
                kind: o.kind.clone(),
                version: o.room.version(),
                players: seated(&o.room),
            }
        };
        // The node's own durable copy of the rooms it owns (put back in Redis if Redis loses
        // its data while this node is down).
        writes.push(match &save {
            Save::Put { state, .. } => Write::Save {
                id: id.to_owned(),
                kind: if o.kind == "invite" {
                    "cluster_invite"
                } else {
                    "cluster_random"
                },
                state: state.clone(),
                at: now.0,
            },
            Save::Delete { .. } => Write::Delete { id: id.to_owned() },
        });
        drop(self.db.submit(writes));
        let deadline = if closed {
            None
        } else {
            o.room.poll_timeout().map(|t| t.0)
        };
        let old = std::mem::replace(&mut o.deadline, deadline);
        if let Some(d) = old {
            self.timers.remove(&(d, id.to_owned()));
        }
        if let Some(d) = deadline {
            self.timers.insert((d, id.to_owned()));
        }
        let job_ended = !ended.is_empty();
        let mut job = Job {
            save: Some(save),
            finished: ended,
            sends: Vec::new(),
            on_lost: Vec::new(),
            // A change that ended a game (recorded at once) or closed the room is not undone.
            revert: if job_ended || closed { None } else { revert },
        };
        if let Some((p, t)) = on_lost {
            if let Some(s) = self.to_player(p, t, false) {
                job.on_lost.push(s);
            }
        }
        for (p, t) in extra.into_iter().chain(texts) {
            if let Some(s) = self.to_player(p, t, false) {
                job.sends.push(s);
            }
        }
        if closed {
            self.rooms.remove(id);
            self.owners.remove(id);
        }
        let _ = self.io.send(job);
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
                continue;
            };
            let out = l.out.clone();
            match l.act.clone() {
                Act::Waiting { entry, until } if until <= now.0 => {
                    let removed = self
                        .q::<i64>(
                            redis::cmd("LREM")
                                .arg(self.keys.k("queue"))
                                .arg(1)
                                .arg(entry),
                        )
                        .await
                        .unwrap_or(0);
                    if removed == 1 {
                        self.set_act(p, Act::Idle);
                        let _ = out.try_send(text_of(&ServerMsg::QueueExpired, None));
                    }
                }
                Act::Inviting { code, value, until } if until <= now.0 => {
                    // The key expired with the invite; nobody took it meanwhile.
                    let _ = self.take_invite(&code, &value).await;
                    self.set_act(p, Act::Idle);
                    let _ = out.try_send(text_of(&ServerMsg::InviteExpired { code }, None));
                }
                _ => {}
            }
        }
    }

    /// Sends again the commands that found no owner, and takes over the rooms whose lease
    /// expired.
    async fn sweep(&mut self) {
        let now = wall_now().0;
        // Members of this node's rooms whose node was not known: told to sync once it is.
        for (room, p) in std::mem::take(&mut self.unlocated) {
            if self
                .rooms
                .get(&room)
                .is_none_or(|o| o.room.member(p).is_none())
            {
                continue;
            }
            match self.get(self.keys.at(p.0)).await {
                Ok(Some(node)) => {
                    self.locs.insert(p, node.clone());
                    if node == self.me {
                        continue;
                    }
                    self.publish(
                        node,
                        &Wire::Moved {
                            room,
                            players: vec![p.0],
                        },
                    );
                }
                _ => self.unlocated.push((room, p)),
            }
        }
        // Saves that failed for want of Redis: the room's state now, told to its players.
        for id in std::mem::take(&mut self.unsaved) {
            if self.rooms.contains_key(&id) {
                self.finish_room(&id, Millis(now), None, Vec::new());
            }
        }
        for job in std::mem::take(&mut self.undeleted) {
            let _ = self.io.send(job);
        }
        let give_up = self.give_up();
        for f in std::mem::take(&mut self.pending) {
            if now.saturating_sub(f.since) > give_up {
                if let Some(l) = self.players.get(&PlayerId(f.player)) {
                    let r =
                        Refusal::new(ErrorCode::Unavailable, "the room's node is not answering");
                    let _ = l
                        .out
                        .try_send(text_of(&r.to_msg(Some(&f.kind), f.rid.as_ref()), None));
                }
                continue;
            }
            self.owners.remove(&f.room);
            let again = f.clone();
            if let Err(e) = self.send_forward(f).await {
                tracing::debug!(error = %e.message, "a waiting command failed again");
                self.pending.push(again);
            }
        }
        let ids: Vec<String> = match self
            .q(redis::cmd("SMEMBERS").arg(self.keys.k("rooms")))
            .await
        {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e.message, "no sweep");
                return;
            }
        };
        let others: Vec<String> = ids
            .into_iter()
            .filter(|id| !self.rooms.contains_key(id))
            .collect();
        for chunk in others.chunks(1000) {
            let mut c = redis::cmd("MGET");
            for id in chunk {
                c.arg(self.keys.lease(id));
            }
            let Ok(leases) = self.q::<Vec<Option<String>>>(&c).await else {
                return;
            };
            for (id, lease) in chunk.iter().zip(leases) {
                if lease.is_none() {
                    if let Err(e) = self.take_over(id).await {
                        tracing::warn!(room = %id, error = %e.message, "not taken over");
                    }
                }
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

/// The players seated in a room.
fn seated(room: &Room<ReversiGame>) -> Vec<u64> {
    room.seats()
        .iter()
        .flatten()
        .filter_map(|s| s.person())
        .map(|p| p.0)
        .collect()
}

/// A fresh player number or room number: random below 2^53 (a number JavaScript reads
/// exactly), never 0, so that no number is handed out twice, whatever Redis forgets (a counter
/// in Redis would start again at 1 after Redis lost its data).
fn fresh_number() -> u64 {
    rand::rng().random_range(1..(1u64 << 53))
}

/// The online room a command names.
fn online_room(game: &str) -> Res<RoomId> {
    parse_online_id(game).ok_or_else(|| no_such_game(game))
}

/// Whether a game id names a hosted room (served by the node's own task).
fn is_hosted(id: &str) -> bool {
    id.starts_with('H')
}

/// The rematch offer stored in Redis for the game of `fresh`: the rule's state as JSON or, as
/// nodes of an earlier version wrote it, the offerer's number or `spent`. Anything else (or an
/// offer of other players) is read as the fresh offer, and replaced.
fn stored_offer(text: &str, fresh: RematchOffer) -> RematchOffer {
    if let Ok(o) = serde_json::from_str::<RematchOffer>(text) {
        if o.room() == fresh.room() && o.players() == fresh.players() {
            return o;
        }
    }
    let mut o = fresh;
    if text == "spent" {
        for p in o.players() {
            let _ = o.offer(p);
        }
    } else if let Ok(n) = text.parse::<u64>() {
        let _ = o.offer(PlayerId(n));
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi::room::RematchState;

    #[test]
    fn a_stored_offer_is_read_as_json_or_as_earlier_nodes_wrote_it() {
        let (a, b) = (PlayerId(4), PlayerId(9));
        let fresh = RematchOffer::new(RoomId(3), [a, b]).unwrap();
        let mut offered = fresh;
        offered.offer(b).unwrap();
        let json = serde_json::to_string(&offered).unwrap();
        assert_eq!(stored_offer(&json, fresh), offered);
        assert_eq!(
            stored_offer("9", fresh).state(),
            RematchState::Offered { by: b }
        );
        assert_eq!(stored_offer("spent", fresh).state(), RematchState::Spent);
        // Garbage, a stranger's number, or another game's offer: a fresh offer, replaced.
        assert_eq!(stored_offer("{", fresh), fresh);
        assert_eq!(stored_offer("77", fresh), fresh);
        let other = RematchOffer::new(RoomId(5), [a, b]).unwrap();
        let json = serde_json::to_string(&other).unwrap();
        assert_eq!(stored_offer(&json, fresh), fresh);
    }
}
