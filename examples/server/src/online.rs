//! Online play through `reversi-room`: guests with reconnection tokens, random matching, invite
//! codes and their online rooms (one [`Lobby`]), and hosted rooms with a bot (one [`Room`] each).
//!
//! One task owns all of it. It applies each command with the wall-clock `now`, drains the
//! events, persists, then delivers. Its tokio timer sleeps until the earliest `poll_timeout` of
//! the lobby and the hosted rooms, and then calls `handle_timeout`.
//!
//! Persistence: the lobby holds every online room, so rewriting it whole after each command would
//! cost as much as all the rooms together. Instead every accepted lobby command is appended to a
//! log (with its `now`), and the whole lobby is snapshotted
//! now and then; restoring replays the log on the last snapshot, through the same code as the
//! live commands. The lobby draws tokens, codes and colours from its own generator, seeded from
//! the operating system's entropy when the lobby is new and saved with it in every snapshot (a
//! new lobby is snapshotted at once), so a replay draws what the live commands drew. Hosted rooms are saved whole after each
//! accepted command. Snapshots, log entries and hosted rooms are the stable records of
//! [`crate::records`]. Deliveries wait for the commit.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use rand::{Rng, RngExt};
use reversi::clock::{Millis, Span};
use reversi::core::Square;
use reversi::room::{
    Bot, Event, EventKind, InviteCode, Lobby, LobbyEventKind, LobbySettings, Occupant, PlayerId,
    Room, RoomActionLimit, RoomCommand, RoomError, RoomId, RoomSettings, Token,
};
use reversi::room_adapters::{EngineBot, ReversiGame, REVERSI};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::db::{Db, Loaded, StoreError, Write, WriteError};
use crate::hub::{sleep_until_deadline, wall_now, Hub, Out};
use crate::protocol::{
    text_of, ClientMsg, ErrorCode, Refusal, ServerMsg, State as StateMsg, StateKind,
};
use crate::records;
pub use crate::records::LobbyOp;
use crate::rooms::{
    game_over, log_end, matched, not_online_for_rematch, occupant_name, online_id, parse_online_id,
    record, rematch_refusal, room_refusal, state_msg, state_text,
};
use crate::Config;

/// The game kind of the lobby.
const KIND: &str = REVERSI;

/// The durations of the online rules (shortened in tests).
#[derive(Debug, Clone)]
pub struct Durations {
    /// Matching, invites, reconnection, and the online rooms' rules.
    pub lobby: LobbySettings,
    /// Overrides the hosted rooms' time per action (tests only).
    pub hosted_action: Option<Span>,
    /// How often the lobby is snapshotted (when it changed).
    pub snapshot_every: Duration,
}

impl Durations {
    /// Limits for tests: 10 s per move (tests that time out set their own); the rest as in
    /// production.
    pub fn for_tests() -> Durations {
        let mut d = Durations::default();
        d.lobby.room.action_limit = Span::from_secs(10);
        d
    }
}

impl Default for Durations {
    fn default() -> Durations {
        Durations {
            lobby: LobbySettings::default(),
            hosted_action: None,
            snapshot_every: Duration::from_secs(30),
        }
    }
}

/// What a lobby command gave back.
enum OpOut {
    Nothing,
    Guest(PlayerId, Token),
    Player(PlayerId),
}

fn apply_op(lobby: &mut Lobby<ReversiGame>, at: Millis, op: &LobbyOp) -> Result<OpOut, RoomError> {
    match op {
        LobbyOp::AddGuest => {
            let (p, t) = lobby.add_guest(at);
            Ok(OpOut::Guest(p, t))
        }
        LobbyOp::Queue { player } => lobby.queue(at, *player, KIND).map(|_| OpOut::Nothing),
        LobbyOp::CancelQueue { player } => lobby.cancel_queue(at, *player).map(|()| OpOut::Nothing),
        LobbyOp::CreateInvite { player } => lobby
            .create_invite(at, *player, KIND)
            .map(|_| OpOut::Nothing),
        LobbyOp::CancelInvite { player } => {
            lobby.cancel_invite(at, *player).map(|()| OpOut::Nothing)
        }
        LobbyOp::JoinInvite { player, code } => {
            lobby.join_invite(at, *player, code).map(|_| OpOut::Nothing)
        }
        LobbyOp::Act {
            player,
            version,
            square,
        } => lobby
            .act(at, *player, *version, *square)
            .map(|()| OpOut::Nothing),
        LobbyOp::Resign { player } => lobby.resign(at, *player).map(|()| OpOut::Nothing),
        LobbyOp::Disconnect { player } => lobby.disconnect(at, *player).map(|()| OpOut::Nothing),
        LobbyOp::Reconnect { token } => lobby.reconnect(at, token).map(OpOut::Player),
        LobbyOp::Leave { player } => lobby.leave(at, *player).map(|()| OpOut::Nothing),
        LobbyOp::RemoveRoom { room } => lobby.remove_room(*room).map(|_| OpOut::Nothing),
        LobbyOp::Rematch { player, room } => {
            lobby.rematch(at, *player, *room).map(|_| OpOut::Nothing)
        }
    }
}

/// A message to the online task.
pub enum OnlineCmd {
    /// A command from a connection.
    Client { conn: u64, out: Out, msg: ClientMsg },
    /// A connection closed.
    Gone { conn: u64 },
    /// On a cluster node: the connection is the cluster's guest `player` (its hosted-room
    /// commands come next); a member of a hosted room here who was disconnected is back.
    Bound {
        conn: u64,
        out: Out,
        player: PlayerId,
    },
    /// A bot's answer for a hosted room, computed at `version`.
    Bot {
        room: String,
        seat: usize,
        version: u64,
        square: Option<Square>,
    },
}

/// The online part of the server: a handle to its task.
pub struct Online {
    tx: mpsc::Sender<OnlineCmd>,
    init: std::sync::Mutex<Option<(State, mpsc::Receiver<OnlineCmd>)>>,
    /// With `--redis`: the cluster node that takes the online commands instead of the lobby.
    cluster: std::sync::OnceLock<crate::cluster::Cluster>,
}

struct State {
    lobby: Lobby<ReversiGame>,
    /// Whether the lobby was made anew (its generator's seed is not saved yet).
    new_lobby: bool,
    seq: u64,
    hosted: BTreeMap<String, Room<ReversiGame>>,
    durations: Durations,
    /// Guests' tokens to (re)write to the guests table at start.
    guest_tokens: Vec<(String, u64)>,
    /// The highest online room number ever used.
    max_room: u64,
}

impl Online {
    /// Rebuilds the lobby from its snapshot and log, and the hosted rooms from their rows.
    ///
    /// # Errors
    ///
    /// [`StoreError::Unreadable`] naming the first record that cannot be read (the snapshot, a
    /// log entry, a hosted room): the server does not start rather than drop a live game.
    pub fn restore(cfg: &Config, loaded: &Loaded) -> Result<Online, StoreError> {
        let d = cfg.online.clone();
        let unreadable = |what: String, e: &dyn std::fmt::Display| StoreError::Unreadable {
            what,
            cause: e.to_string(),
        };
        let mut new_lobby = false;
        let mut lobby = match &loaded.snapshot {
            Some((_, s)) => {
                records::decode_lobby(s).map_err(|e| unreadable("the lobby snapshot".into(), &e))?
            }
            None => {
                new_lobby = true;
                // 256 bits from the OS-seeded generator: tokens must not be guessable.
                let mut seed = [0u8; 32];
                rand::rng().fill_bytes(&mut seed);
                Lobby::with_settings(d.lobby, [(KIND.to_owned(), ReversiGame::new())], seed)
            }
        };
        let mut seq = loaded.snapshot.as_ref().map_or(0, |(s, _)| *s);
        let mut replayed = 0;
        let mut new_guests = Vec::new();
        for (s, at, op) in &loaded.log {
            if *s <= seq {
                continue;
            }
            let op = records::decode_op(op)
                .map_err(|e| unreadable(format!("the lobby log entry {s}"), &e))?;
            match apply_op(&mut lobby, Millis(*at), &op) {
                Ok(OpOut::Guest(p, t)) => new_guests.push((p, t, *at)),
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(seq = s, error = %e, "a logged command was refused on replay")
                }
            }
            replayed += 1;
            seq = *s;
        }
        while lobby.poll_event().is_some() {}
        if replayed > 0 {
            tracing::info!(replayed, "replayed the lobby log");
        }
        let mut hosted = BTreeMap::new();
        for row in &loaded.live {
            match row.kind.as_str() {
                "hosted" => {
                    let mut r = records::decode_room(&row.state)
                        .map_err(|e| unreadable(format!("the hosted room {:?}", row.id), &e))?;
                    while r.poll_event().is_some() {}
                    hosted.insert(row.id.clone(), r);
                }
                // The lobby's snapshot and log hold the online rooms; their rows are copies.
                "online_room" => {}
                // A cluster node's online rooms: its cluster part reads them (`cluster::node`).
                k if k.starts_with("cluster_") => {}
                other => {
                    return Err(unreadable(
                        format!("the live row {:?}", row.id),
                        &format!("unknown kind {other:?}"),
                    ))
                }
            }
        }
        let mut guest_tokens = Vec::new();
        if loaded.from_version < 2 {
            // Store version 1 kept the tokens only in the lobby: copy them to the guests table.
            guest_tokens.extend(
                lobby
                    .snapshot()
                    .guests
                    .into_iter()
                    .map(|g| (g.token.as_str().to_owned(), g.player.0)),
            );
        } else {
            guest_tokens.extend(
                new_guests
                    .into_iter()
                    .map(|(p, t, _)| (t.as_str().to_owned(), p.0)),
            );
        }
        let max_room = lobby
            .rooms()
            .map(|(r, _)| r.0)
            .max()
            .unwrap_or(0)
            .max(loaded.max_online_room);
        let (tx, rx) = mpsc::channel(4096);
        Ok(Online {
            tx,
            cluster: std::sync::OnceLock::new(),
            init: std::sync::Mutex::new(Some((
                State {
                    lobby,
                    new_lobby,
                    seq,
                    hosted,
                    durations: d,
                    guest_tokens,
                    max_room,
                },
                rx,
            ))),
        })
    }

    /// The lobby and the hosted rooms as restored, before the task starts (and before the
    /// deadlines that fell while the server was down run).
    #[cfg(test)]
    #[allow(clippy::type_complexity)]
    pub fn restored(&self) -> Option<(Lobby<ReversiGame>, BTreeMap<String, Room<ReversiGame>>)> {
        let init = self.init.lock().expect("init lock");
        init.as_ref()
            .map(|(s, _)| (s.lobby.clone(), s.hosted.clone()))
    }

    /// Starts the online task, after the restart's own step: the players who were connected
    /// are disconnected, and the deadlines that fell while the server was down run (their
    /// games ended and recorded). Returns once that step's writes are committed, so that
    /// [`crate::Server::start`] serves nobody before a record they may ask for is written.
    /// Started already, it does nothing.
    ///
    /// # Errors
    ///
    /// The [`WriteError`] of that step's writes (or of the writes queued before them); the
    /// task is not started then.
    pub async fn start(&self, hub: &Arc<Hub>) -> Result<(), WriteError> {
        let Some((state, rx)) = self.init.lock().expect("init lock").take() else {
            return Ok(());
        };
        let (outbox, outq) = mpsc::unbounded_channel();
        tokio::spawn(deliver(outq));
        let mut actor = Actor {
            hub: hub.clone(),
            db: hub.db.clone(),
            lobby: state.lobby,
            seq: state.seq,
            snapshot_seq: state.seq,
            hosted: state.hosted,
            durations: state.durations,
            conns: HashMap::new(),
            player_conn: HashMap::new(),
            invites: HashMap::new(),
            room_kinds: HashMap::new(),
            thinking: HashSet::new(),
            game_seats: HashMap::new(),
            max_room: state.max_room,
            me: self.tx.clone(),
            outbox,
        };
        if !state.guest_tokens.is_empty() {
            let at = wall_now().0;
            let writes = state
                .guest_tokens
                .into_iter()
                .map(|(token, player)| Write::Guest { token, player, at })
                .collect();
            let ack = actor.db.submit(writes);
            let _ = actor.outbox.send((Some(ack), Vec::new()));
        }
        if state.new_lobby {
            // Its generator's seed must be saved before the first logged command draws from it.
            actor.snapshot_at_once();
        }
        actor
            .restart()
            .await
            .map_err(|_| WriteError::WriterGone)??;
        tokio::spawn(actor.run(rx));
        Ok(())
    }

    /// Makes this node a cluster member: from now on its online commands go to the cluster.
    pub fn join_cluster(&self, cluster: crate::cluster::Cluster) {
        let _ = self.cluster.set(cluster);
    }

    /// The cluster this node is a member of (`--redis`), if any.
    pub fn cluster(&self) -> Option<&crate::cluster::Cluster> {
        self.cluster.get()
    }

    /// Hands an online command to the task (or to the cluster node).
    pub async fn command(&self, conn: u64, out: &Out, msg: ClientMsg) {
        if let Some(c) = self.cluster.get() {
            return c.command(conn, out, msg).await;
        }
        self.to_task(conn, out, msg).await;
    }

    /// Sends a client command to this server's task.
    async fn to_task(&self, conn: u64, out: &Out, msg: ClientMsg) {
        let _ = self
            .tx
            .send(OnlineCmd::Client {
                conn,
                out: out.clone(),
                msg,
            })
            .await;
    }

    /// On a cluster node: a hosted-room command of the cluster's guest `player`, served by
    /// this node's task (`bind`: the first of this connection, or after a reconnection).
    pub(crate) async fn hosted(
        &self,
        conn: u64,
        out: &Out,
        player: PlayerId,
        msg: Option<ClientMsg>,
        bind: bool,
    ) {
        if bind {
            let _ = self
                .tx
                .send(OnlineCmd::Bound {
                    conn,
                    out: out.clone(),
                    player,
                })
                .await;
        }
        if let Some(msg) = msg {
            self.to_task(conn, out, msg).await;
        }
    }

    /// On a cluster node: a connection bound with [`Online::hosted`] closed.
    pub(crate) async fn hosted_gone(&self, conn: u64) {
        let _ = self.tx.send(OnlineCmd::Gone { conn }).await;
    }

    /// A connection closed.
    pub async fn disconnected(&self, conn: u64) {
        if let Some(c) = self.cluster.get() {
            return c.disconnected(conn).await;
        }
        let _ = self.tx.send(OnlineCmd::Gone { conn }).await;
    }
}

/// Messages that wait for a commit before they go out.
type Delivery = (
    Option<oneshot::Receiver<Result<(), WriteError>>>,
    Vec<(Out, Utf8Bytes)>,
);

async fn deliver(mut q: mpsc::UnboundedReceiver<Delivery>) {
    while let Some((ack, msgs)) = q.recv().await {
        if let Some(ack) = ack {
            match ack.await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::error!(error = %e, "online state not saved"),
                Err(_) => tracing::error!("the database writer has stopped"),
            }
        }
        for (out, text) in msgs {
            let _ = out.try_send(text);
        }
    }
}

struct ConnInfo {
    out: Out,
    player: Option<PlayerId>,
}

struct Actor {
    hub: Arc<Hub>,
    db: Db,
    lobby: Lobby<ReversiGame>,
    seq: u64,
    snapshot_seq: u64,
    hosted: BTreeMap<String, Room<ReversiGame>>,
    durations: Durations,
    conns: HashMap<u64, ConnInfo>,
    player_conn: HashMap<PlayerId, u64>,
    invites: HashMap<String, PlayerId>,
    room_kinds: HashMap<RoomId, &'static str>,
    thinking: HashSet<(String, u64)>,
    game_seats: HashMap<String, Vec<Occupant>>,
    /// The highest online room number used: a lower one that is not live is over.
    max_room: u64,
    me: mpsc::Sender<OnlineCmd>,
    outbox: mpsc::UnboundedSender<Delivery>,
}

/// What one step produced: writes to commit, then messages to deliver.
#[derive(Default)]
struct Step {
    writes: Vec<Write>,
    msgs: Vec<(Out, Utf8Bytes)>,
    dirty_online: Vec<RoomId>,
    dirty_hosted: Vec<String>,
    /// The connection whose request this step answers, and the request's `rid`: every message
    /// the step sends to that connection echoes it.
    req: Option<(u64, Value)>,
}

impl Step {
    /// The text of `msg` for connection `conn`: with the request's `rid` when `conn` sent it.
    fn text_for(&self, conn: u64, msg: &ServerMsg) -> Utf8Bytes {
        match &self.req {
            Some((c, rid)) if *c == conn => text_of(msg, Some(rid)),
            _ => text_of(msg, None),
        }
    }
}

impl Actor {
    /// The restart's own step, before anyone is served: everyone who was connected has lost
    /// their connection with the restart, and the deadlines that fell while the server was
    /// down (a clock run out, a reconnection window closed) run now, their games ended and
    /// recorded.
    /// Returns the acknowledgement of its writes, which comes after every write queued before
    /// them is committed too (the writer commits requests in the order they come).
    fn restart(&mut self) -> oneshot::Receiver<Result<(), WriteError>> {
        let now = wall_now();
        let mut step = Step::default();
        let connected: Vec<PlayerId> = self
            .lobby
            .guests()
            .filter(|p| self.lobby.is_connected(*p) == Some(true))
            .collect();
        for p in connected {
            let _ = self.lobby_op(now, LobbyOp::Disconnect { player: p }, &mut step);
        }
        let ids: Vec<String> = self.hosted.keys().cloned().collect();
        for id in ids {
            let room = self.hosted.get_mut(&id).expect("listed");
            let members: Vec<PlayerId> = room
                .members()
                .filter(|(_, m)| m.connected())
                .map(|(p, _)| p)
                .collect();
            for p in members {
                let _ = room.handle(now, p, RoomCommand::Disconnect);
            }
            room.handle_timeout(now);
            step.dirty_hosted.push(id);
        }
        self.lobby.handle_timeout(now);
        let (writes, msgs) = self.settle(now, step);
        let ack = self.db.submit(writes);
        if !msgs.is_empty() {
            let _ = self.outbox.send((None, msgs));
        }
        ack
    }

    async fn run(mut self, mut rx: mpsc::Receiver<OnlineCmd>) {
        let mut snapshot = tokio::time::interval(self.durations.snapshot_every);
        snapshot.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        snapshot.tick().await;
        loop {
            let deadline = self.next_deadline();
            let timer = sleep_until_deadline(deadline);
            tokio::select! {
                cmd = rx.recv() => {
                    let Some(cmd) = cmd else { break };
                    self.handle(cmd);
                    // Take what else is waiting, up to a bound, before the next timer check.
                    for _ in 0..64 {
                        match rx.try_recv() {
                            Ok(cmd) => self.handle(cmd),
                            Err(_) => break,
                        }
                    }
                }
                () = timer => {
                    let now = wall_now();
                    let mut step = Step::default();
                    self.lobby.handle_timeout(now);
                    for (id, room) in &mut self.hosted {
                        if room.poll_timeout().is_some_and(|t| t <= now) {
                            room.handle_timeout(now);
                            step.dirty_hosted.push(id.clone());
                        }
                    }
                    self.finish(now, step);
                }
                _ = snapshot.tick() => self.snapshot(),
            }
        }
    }

    fn next_deadline(&self) -> Option<Millis> {
        let hosted = self.hosted.values().filter_map(Room::poll_timeout).min();
        match (self.lobby.poll_timeout(), hosted) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Snapshots the lobby if it changed. The lobby is cloned here and serialised on the
    /// blocking pool, so that the task goes on serving meanwhile (with 10,000 games the text is
    /// megabytes long). The snapshot covers the log up to the sequence number at the clone; log
    /// entries written before it lands are after that number, and stay.
    fn snapshot(&mut self) {
        if self.seq == self.snapshot_seq {
            return;
        }
        let lobby = self.lobby.clone();
        let seq = self.seq;
        self.snapshot_seq = seq;
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || {
            let state = records::encode_lobby(&lobby);
            drop(lobby);
            let ack = db.submit(vec![Write::Snapshot { seq, state }]);
            if let Ok(Err(e)) = ack.blocking_recv() {
                tracing::error!(error = %e, seq, "the lobby snapshot was not saved");
            }
        });
    }

    /// Snapshots the lobby, changed or not, before anything else is saved (a new lobby: its
    /// generator's seed).
    fn snapshot_at_once(&mut self) {
        let state = records::encode_lobby(&self.lobby);
        self.snapshot_seq = self.seq;
        let ack = self.db.submit(vec![Write::Snapshot {
            seq: self.seq,
            state,
        }]);
        let _ = self.outbox.send((Some(ack), Vec::new()));
    }

    /// Applies a lobby command, logging it when accepted.
    fn lobby_op(&mut self, now: Millis, op: LobbyOp, step: &mut Step) -> Result<OpOut, RoomError> {
        let r = apply_op(&mut self.lobby, now, &op);
        if r.is_ok() {
            self.seq += 1;
            step.writes.push(Write::Log {
                seq: self.seq,
                at: now.0,
                op: records::encode_op(&op),
            });
        }
        r
    }

    fn player_of(&self, conn: u64) -> Option<PlayerId> {
        self.conns.get(&conn).and_then(|c| c.player)
    }

    fn to_player(&self, p: PlayerId, msg: &ServerMsg, step: &mut Step) {
        let Some(&id) = self.player_conn.get(&p) else {
            return;
        };
        if let Some(c) = self.conns.get(&id) {
            let text = step.text_for(id, msg);
            step.msgs.push((c.out.clone(), text));
        }
    }

    /// A direct answer to the request the step handles (it echoes the request's `rid`).
    fn reply(out: &Out, msg: &ServerMsg, step: &mut Step) {
        let text = text_of(msg, step.req.as_ref().map(|(_, rid)| rid));
        step.msgs.push((out.clone(), text));
    }

    /// Sends a room's state to its connected members (the requester's copy echoes its `rid`).
    fn fan_out(&self, room: &Room<ReversiGame>, state: &mut StateMsg, step: &mut Step) {
        let text = state_text(state);
        for (p, m) in room.members() {
            if !m.connected() {
                continue;
            }
            let Some(&id) = self.player_conn.get(&p) else {
                continue;
            };
            if let Some(c) = self.conns.get(&id) {
                let t = match &step.req {
                    Some((rc, rid)) if *rc == id => {
                        state.rid = Some(rid.clone());
                        let t = state_text(state);
                        state.rid = None;
                        t
                    }
                    _ => text.clone(),
                };
                step.msgs.push((c.out.clone(), t));
            }
        }
    }

    fn refuse(out: &Out, r: &Refusal, kind: &str, rid: Option<&Value>, step: &mut Step) {
        tracing::debug!(code = %r.code, request = kind, "refused");
        let text = text_of(&r.to_msg(Some(kind), rid), None);
        step.msgs.push((out.clone(), text));
    }

    /// The connection's guest, created on first use.
    fn guest(&mut self, now: Millis, conn: u64, out: &Out, step: &mut Step) -> PlayerId {
        if let Some(p) = self.player_of(conn) {
            return p;
        }
        let Ok(OpOut::Guest(p, token)) = self.lobby_op(now, LobbyOp::AddGuest, step) else {
            unreachable!("adding a guest always works")
        };
        step.writes.push(Write::Guest {
            token: token.as_str().to_owned(),
            player: p.0,
            at: now.0,
        });
        self.bind(conn, p);
        Self::reply(
            out,
            &ServerMsg::Guest {
                player: p.0,
                token: token.as_str().to_owned(),
                rid: None,
            },
            step,
        );
        p
    }

    fn bind(&mut self, conn: u64, p: PlayerId) {
        if let Some(c) = self.conns.get_mut(&conn) {
            c.player = Some(p);
        }
        self.player_conn.insert(p, conn);
    }

    fn handle(&mut self, cmd: OnlineCmd) {
        let now = wall_now();
        let mut step = Step::default();
        match cmd {
            OnlineCmd::Client { conn, out, msg } => {
                self.conns.entry(conn).or_insert_with(|| ConnInfo {
                    out: out.clone(),
                    player: None,
                });
                let kind = msg.kind();
                let rid = msg.rid().cloned();
                step.req = rid.clone().map(|r| (conn, r));
                match self.client(now, conn, &out, msg, &mut step) {
                    Ok(()) => {
                        tracing::info!(conn, player = ?self.player_of(conn).map(|p| p.0), command = kind, "accepted");
                    }
                    Err(r) => Self::refuse(&out, &r, kind, rid.as_ref(), &mut step),
                }
            }
            OnlineCmd::Gone { conn } => {
                if let Some(info) = self.conns.remove(&conn) {
                    if let Some(p) = info.player {
                        if self.player_conn.get(&p) == Some(&conn) {
                            self.player_conn.remove(&p);
                            let _ =
                                self.lobby_op(now, LobbyOp::Disconnect { player: p }, &mut step);
                            for (id, room) in &mut self.hosted {
                                if room.member(p).is_some_and(|m| m.connected())
                                    && room.handle(now, p, RoomCommand::Disconnect).is_ok()
                                {
                                    step.dirty_hosted.push(id.clone());
                                }
                            }
                            tracing::info!(conn, player = p.0, "accepted disconnect");
                        }
                    }
                }
            }
            OnlineCmd::Bound { conn, out, player } => {
                self.conns.entry(conn).or_insert_with(|| ConnInfo {
                    out: out.clone(),
                    player: None,
                });
                if let Some(old) = self.player_conn.get(&player).copied() {
                    if old != conn {
                        if let Some(c) = self.conns.get_mut(&old) {
                            c.player = None;
                        }
                    }
                }
                self.bind(conn, player);
                for (id, room) in &mut self.hosted {
                    if room.member(player).is_some_and(|m| !m.connected())
                        && room.handle(now, player, RoomCommand::Reconnect).is_ok()
                    {
                        step.dirty_hosted.push(id.clone());
                    }
                }
            }
            OnlineCmd::Bot {
                room,
                seat,
                version,
                square,
            } => {
                self.thinking.remove(&(room.clone(), version));
                if let (Some(r), Some(sq)) = (self.hosted.get_mut(&room), square) {
                    match r.bot_act(now, seat, version, sq) {
                        Ok(()) => {
                            tracing::info!(room = %room, seat, square = %sq, "accepted bot move")
                        }
                        Err(e) => tracing::debug!(room = %room, error = %e, "bot move dropped"),
                    }
                    step.dirty_hosted.push(room);
                }
            }
        }
        self.finish(now, step);
    }

    /// Whether an online room's game is over: the room is closed, or it is gone (a number the
    /// lobby used, no longer live).
    fn online_over(&self, r: RoomId) -> bool {
        match self.lobby.room(r) {
            Some(room) => room.closed().is_some() || (!room.in_game() && room.result().is_some()),
            None => r.0 >= 1 && r.0 <= self.max_room,
        }
    }

    /// The refusal of a move or a resignation in online room `rid`: `game_over` when the game
    /// is over (a move that arrives after the deadline finds it lost on time), the room's error
    /// otherwise.
    fn online_refusal(&self, rid: RoomId, game: &str, e: &RoomError) -> Refusal {
        let over = self.online_over(rid)
            && matches!(
                e,
                RoomError::NoGameInProgress
                    | RoomError::NotInRoom { .. }
                    | RoomError::NotSeated { .. }
                    | RoomError::RoomClosed
            );
        if over {
            game_over(game)
        } else {
            room_refusal(e)
        }
    }

    /// Refuses a command naming an online room the player is not playing in now (the lobby
    /// applies moves and resignations to the player's current room).
    fn in_online_room(&self, p: PlayerId, rid: RoomId, game: &str) -> Result<(), Refusal> {
        if self.lobby.room_of(p) == Some(rid) {
            Ok(())
        } else if self.online_over(rid) {
            Err(game_over(game))
        } else {
            Err(room_refusal(&RoomError::NotInRoom { player: p }))
        }
    }

    fn hosted_room(&mut self, id: &str) -> Result<&mut Room<ReversiGame>, Refusal> {
        self.hosted
            .get_mut(id)
            .ok_or_else(|| crate::hub::no_such_game(id))
    }

    /// A hosted-room command by the connection's guest.
    fn room_cmd(
        &mut self,
        now: Millis,
        conn: u64,
        out: &Out,
        id: &str,
        cmd: RoomCommand<Square>,
        step: &mut Step,
    ) -> Result<(), Refusal> {
        let p = self.guest(now, conn, out, step);
        let room = self.hosted_room(id)?;
        let r = room.handle(now, p, cmd);
        step.dirty_hosted.push(id.to_owned());
        r.map_err(|e| room_refusal(&e))
    }

    fn client(
        &mut self,
        now: Millis,
        conn: u64,
        out: &Out,
        msg: ClientMsg,
        step: &mut Step,
    ) -> Result<(), Refusal> {
        match msg {
            ClientMsg::Queue { .. } => {
                let p = self.guest(now, conn, out, step);
                self.lobby_op(now, LobbyOp::Queue { player: p }, step)
                    .map_err(|e| room_refusal(&e))?;
            }
            ClientMsg::CancelQueue { .. } => {
                let p = self.guest(now, conn, out, step);
                self.lobby_op(now, LobbyOp::CancelQueue { player: p }, step)
                    .map_err(|e| room_refusal(&e))?;
            }
            ClientMsg::InviteCreate { .. } => {
                let p = self.guest(now, conn, out, step);
                self.lobby_op(now, LobbyOp::CreateInvite { player: p }, step)
                    .map_err(|e| room_refusal(&e))?;
            }
            ClientMsg::InviteCancel { .. } => {
                let p = self.guest(now, conn, out, step);
                self.lobby_op(now, LobbyOp::CancelInvite { player: p }, step)
                    .map_err(|e| room_refusal(&e))?;
            }
            ClientMsg::InviteJoin { code, .. } => {
                let code = InviteCode::from_link(&code).map_err(|e| room_refusal(&e))?;
                let p = self.guest(now, conn, out, step);
                self.lobby_op(now, LobbyOp::JoinInvite { player: p, code }, step)
                    .map_err(|e| room_refusal(&e))?;
            }
            ClientMsg::Reconnect { token, .. } => {
                if self.player_of(conn).is_some() {
                    return Err(Refusal::new(
                        ErrorCode::AlreadyIdentified,
                        "this connection already has a guest: reconnect on a new connection",
                    ));
                }
                let token = Token::from(token);
                let mut r = self.lobby_op(
                    now,
                    LobbyOp::Reconnect {
                        token: token.clone(),
                    },
                    step,
                );
                if let Err(RoomError::AlreadyConnected { player }) = r {
                    // The token proves who it is: the old connection is replaced.
                    if let Some(old) = self.player_conn.remove(&player) {
                        if let Some(c) = self.conns.get_mut(&old) {
                            c.player = None;
                        }
                    }
                    let _ = self.lobby_op(now, LobbyOp::Disconnect { player }, step);
                    r = self.lobby_op(
                        now,
                        LobbyOp::Reconnect {
                            token: token.clone(),
                        },
                        step,
                    );
                }
                let OpOut::Player(p) = r.map_err(|e| room_refusal(&e))? else {
                    unreachable!("reconnect gives a player")
                };
                self.bind(conn, p);
                Self::reply(
                    out,
                    &ServerMsg::Guest {
                        player: p.0,
                        token: token.as_str().to_owned(),
                        rid: None,
                    },
                    step,
                );
                if let Some(room) = self.lobby.room_of(p) {
                    step.dirty_online.push(room);
                    if let Some(r) = self.lobby.room(room) {
                        let seat = r.seat_of(p).unwrap_or(0);
                        Self::reply(out, &matched(online_id(room), seat), step);
                    }
                }
                for (id, room) in &mut self.hosted {
                    if room.member(p).is_some() {
                        let _ = room.handle(now, p, RoomCommand::Reconnect);
                        step.dirty_hosted.push(id.clone());
                    }
                }
            }
            ClientMsg::Move {
                game,
                square,
                version,
                ..
            } => {
                let p = self.guest(now, conn, out, step);
                if let Some(rid) = parse_online_id(&game) {
                    self.in_online_room(p, rid, &game)?;
                    self.lobby_op(
                        now,
                        LobbyOp::Act {
                            player: p,
                            version,
                            square,
                        },
                        step,
                    )
                    .map_err(|e| self.online_refusal(rid, &game, &e))?;
                } else {
                    let room = self.hosted_room(&game)?;
                    if !room.in_game() && room.result().is_some() {
                        return Err(game_over(&game));
                    }
                    let seat = room
                        .seat_of(p)
                        .ok_or_else(|| room_refusal(&RoomError::NotSeated { player: p }))?;
                    self.room_cmd(
                        now,
                        conn,
                        out,
                        &game,
                        RoomCommand::Act {
                            seat,
                            version,
                            action: square,
                        },
                        step,
                    )?;
                }
            }
            ClientMsg::Undo { .. } => {
                return Err(Refusal::new(
                    ErrorCode::NoUndoOnline,
                    "there is no undo in online and hosted games",
                ))
            }
            ClientMsg::Resign { game, .. } => {
                let p = self.guest(now, conn, out, step);
                if let Some(rid) = parse_online_id(&game) {
                    self.in_online_room(p, rid, &game)?;
                    self.lobby_op(now, LobbyOp::Resign { player: p }, step)
                        .map_err(|e| self.online_refusal(rid, &game, &e))?;
                } else {
                    let room = self.hosted_room(&game)?;
                    if !room.in_game() && room.result().is_some() {
                        return Err(game_over(&game));
                    }
                    self.room_cmd(now, conn, out, &game, RoomCommand::Resign, step)?;
                }
            }
            ClientMsg::Sync { game, .. } => {
                let state = match parse_online_id(&game) {
                    Some(r) => self
                        .lobby
                        .room(r)
                        .map(|room| state_msg(StateKind::Online, &game, room, now)),
                    None => self
                        .hosted
                        .get(&game)
                        .map(|room| state_msg(StateKind::Hosted, &game, room, now)),
                };
                let s = match state {
                    Some(s) => s,
                    None if parse_online_id(&game).is_some_and(|r| self.online_over(r)) => {
                        return Err(game_over(&game))
                    }
                    None => return Err(crate::hub::no_such_game(&game)),
                };
                Self::reply(out, &ServerMsg::State(Box::new(s)), step);
            }
            ClientMsg::RoomCreate { action_secs, .. } => {
                let p = self.guest(now, conn, out, step);
                let limit = RoomActionLimit::from_secs(action_secs.unwrap_or(30))
                    .map_err(|e| Refusal::new(ErrorCode::BadTime, e.to_string()))?;
                let mut settings = RoomSettings::hosted(limit);
                if let Some(a) = self.durations.hosted_action {
                    settings.action_limit = a;
                }
                let id = format!("H{:012x}", rand::rng().random::<u64>() >> 16);
                let room = Room::hosted(now, p, settings, ReversiGame::new());
                self.hosted.insert(id.clone(), room);
                step.dirty_hosted.push(id.clone());
                Self::reply(
                    out,
                    &ServerMsg::RoomCreated {
                        room: id.clone(),
                        rid: None,
                    },
                    step,
                );
            }
            ClientMsg::RoomJoin { room, .. } => {
                self.room_cmd(now, conn, out, &room, RoomCommand::Join, step)?
            }
            ClientMsg::Sit { room, seat, .. } => {
                self.room_cmd(now, conn, out, &room, RoomCommand::Sit { seat }, step)?
            }
            ClientMsg::Stand { room, .. } => {
                self.room_cmd(now, conn, out, &room, RoomCommand::Stand, step)?
            }
            ClientMsg::AddBot {
                room, seat, level, ..
            } => self.room_cmd(
                now,
                conn,
                out,
                &room,
                RoomCommand::AddBot {
                    seat,
                    level: level.name().to_owned(),
                },
                step,
            )?,
            ClientMsg::RemoveBot { room, .. } => {
                self.room_cmd(now, conn, out, &room, RoomCommand::RemoveBot, step)?
            }
            ClientMsg::Reserve { room, .. } => {
                self.room_cmd(now, conn, out, &room, RoomCommand::ReserveBotSeat, step)?
            }
            ClientMsg::Start { room, .. } => {
                self.room_cmd(now, conn, out, &room, RoomCommand::Start, step)?
            }
            ClientMsg::Pause { room, .. } => {
                self.room_cmd(now, conn, out, &room, RoomCommand::Pause, step)?
            }
            ClientMsg::Resume { room, .. } => {
                self.room_cmd(now, conn, out, &room, RoomCommand::Resume, step)?
            }
            ClientMsg::End { room, .. } => {
                self.room_cmd(now, conn, out, &room, RoomCommand::End, step)?
            }
            ClientMsg::Leave { room, .. } => {
                if parse_online_id(&room).is_some() {
                    let p = self.guest(now, conn, out, step);
                    self.lobby_op(now, LobbyOp::Leave { player: p }, step)
                        .map_err(|e| room_refusal(&e))?;
                    self.player_conn.remove(&p);
                    if let Some(c) = self.conns.get_mut(&conn) {
                        c.player = None;
                    }
                } else {
                    self.room_cmd(now, conn, out, &room, RoomCommand::Leave, step)?
                }
            }
            ClientMsg::Rematch { room, .. } => {
                let p = self.guest(now, conn, out, step);
                self.rematch(now, p, &room, step)?;
            }
            // Answered by the connection (reads of the database, not commands).
            ClientMsg::Ping { .. } | ClientMsg::Record { .. } | ClientMsg::Games { .. } => {}
        }
        Ok(())
    }

    /// A rematch offer (or its acceptance) by `p` after the online game `room`, by the lobby's
    /// rule ([`Lobby::rematch`]): the first offer is passed on to the opponent
    /// (`rematch_offered`, from the lobby's event); when both have offered, the lobby starts the
    /// new game (`matched` and `state` to both, colours drawn as for any invite).
    fn rematch(
        &mut self,
        now: Millis,
        p: PlayerId,
        room: &str,
        step: &mut Step,
    ) -> Result<(), Refusal> {
        let id = parse_online_id(room).ok_or_else(|| not_online_for_rematch(room))?;
        self.lobby_op(
            now,
            LobbyOp::Rematch {
                player: p,
                room: id,
            },
            step,
        )
        .map_err(|e| rematch_refusal(room, &e))?;
        Ok(())
    }

    /// Drains the events, records finished games, saves the affected rooms, starts bots, and
    /// queues the deliveries behind the commit.
    fn finish(&mut self, now: Millis, step: Step) {
        let (writes, msgs) = self.settle(now, step);
        if writes.is_empty() && msgs.is_empty() {
            return;
        }
        let ack = (!writes.is_empty()).then(|| self.db.submit(writes));
        let _ = self.outbox.send((ack, msgs));
    }

    /// What a step leaves to do once its commands ran: the rooms' and the lobby's events turned
    /// into messages and writes (records of ended games, saved or deleted rooms).
    fn settle(&mut self, now: Millis, mut step: Step) -> (Vec<Write>, Vec<(Out, Utf8Bytes)>) {
        while let Some(ev) = self.lobby.poll_event() {
            self.lobby_event(ev.kind, &mut step);
        }
        let mut hosted_ids = std::mem::take(&mut step.dirty_hosted);
        hosted_ids.sort();
        hosted_ids.dedup();
        for id in &hosted_ids {
            let Some(room) = self.hosted.get_mut(id) else {
                continue;
            };
            let mut closed = false;
            let mut ended = Vec::new();
            while let Some(Event { kind, .. }) = room.poll_event() {
                match kind {
                    EventKind::GameStarted { seats, .. } => {
                        self.game_seats.insert(id.clone(), seats);
                    }
                    EventKind::GameEnded { result } => ended.push(result),
                    EventKind::Closed { .. } => closed = true,
                    _ => {}
                }
            }
            let room = self.hosted.get(id).expect("present");
            for result in ended {
                let mut rec = record(id, "hosted", room, &result);
                if let Some(seats) = self.game_seats.get(id) {
                    // Who sat where during the game (a reservation may have changed it since).
                    rec.black = occupant_name(&seats.first().cloned());
                    rec.white = occupant_name(&seats.get(1).cloned());
                }
                step.writes.push(Write::Finish(Box::new(rec)));
                log_end(id, &result);
            }
            let mut state = state_msg(StateKind::Hosted, id, room, now);
            self.fan_out(room, &mut state, &mut step);
            if closed {
                self.hosted.remove(id);
                self.game_seats.remove(id);
                step.writes.push(Write::Delete { id: id.clone() });
            } else {
                step.writes.push(Write::Save {
                    id: id.clone(),
                    kind: "hosted",
                    state: records::encode_room(room),
                    at: now.0,
                });
                self.maybe_think(id);
            }
        }
        let mut online = std::mem::take(&mut step.dirty_online);
        online.sort();
        online.dedup();
        let mut closed_rooms = Vec::new();
        for rid in online {
            let Some(room) = self.lobby.room(rid) else {
                continue;
            };
            let id = online_id(rid);
            let mut state = state_msg(StateKind::Online, &id, room, now);
            self.fan_out(room, &mut state, &mut step);
            // The lobby's log and snapshot hold the online rooms: nothing more to save.
            if room.closed().is_some() {
                closed_rooms.push(rid);
            }
        }
        for rid in closed_rooms {
            let _ = self.lobby_op(now, LobbyOp::RemoveRoom { room: rid }, &mut step);
            self.room_kinds.remove(&rid);
            step.writes.push(Write::Delete { id: online_id(rid) });
        }
        while self.lobby.poll_event().is_some() {}
        (step.writes, step.msgs)
    }

    fn lobby_event(&mut self, kind: LobbyEventKind<Square>, step: &mut Step) {
        match kind {
            LobbyEventKind::Waiting { player, until, .. } => {
                let msg = ServerMsg::Queued {
                    until: until.0,
                    rid: None,
                };
                self.to_player(player, &msg, step);
            }
            LobbyEventKind::WaitExpired { player } => {
                self.to_player(player, &ServerMsg::QueueExpired, step);
            }
            LobbyEventKind::WaitCancelled { player } => {
                self.to_player(player, &ServerMsg::QueueCancelled { rid: None }, step);
            }
            LobbyEventKind::InviteCreated {
                code,
                player,
                expires_at,
                ..
            } => {
                self.invites.insert(code.to_string(), player);
                let msg = ServerMsg::Invite {
                    code: code.as_str().to_owned(),
                    link: code.link(""),
                    expires_at: expires_at.0,
                    rid: None,
                };
                self.to_player(player, &msg, step);
            }
            LobbyEventKind::InviteExpired { code } => {
                if let Some(p) = self.invites.remove(code.as_str()) {
                    self.to_player(
                        p,
                        &ServerMsg::InviteExpired {
                            code: code.as_str().to_owned(),
                        },
                        step,
                    );
                }
            }
            LobbyEventKind::InviteCancelled { code } => {
                if let Some(p) = self.invites.remove(code.as_str()) {
                    self.to_player(
                        p,
                        &ServerMsg::InviteCancelled {
                            code: code.as_str().to_owned(),
                            rid: None,
                        },
                        step,
                    );
                }
            }
            LobbyEventKind::Matched {
                room,
                seats,
                invite,
                rematch_of,
                ..
            } => {
                if let Some(code) = &invite {
                    self.invites.remove(code.as_str());
                }
                // A rematch is recorded as the invite game it was before the lobby made them.
                let by_invite = invite.is_some() || rematch_of.is_some();
                self.room_kinds
                    .insert(room, if by_invite { "invite" } else { "random" });
                self.max_room = self.max_room.max(room.0);
                for (seat, p) in seats.iter().enumerate() {
                    self.to_player(*p, &matched(online_id(room), seat), step);
                }
                tracing::info!(room = %online_id(room), black = seats[0].0, white = seats.get(1).map(|p| p.0), invite = invite.is_some(), "matched");
                step.dirty_online.push(room);
            }
            LobbyEventKind::RematchOffered { room, by, to } => {
                let room = online_id(room);
                let offered = ServerMsg::RematchOffered { room: room.clone() };
                self.to_player(to, &offered, step);
                self.to_player(by, &ServerMsg::RematchWaiting { room, rid: None }, step);
            }
            LobbyEventKind::Room { room, event } => {
                if let EventKind::GameEnded { result } = event.kind {
                    if let Some(r) = self.lobby.room(room) {
                        let id = online_id(room);
                        let kind = self.room_kinds.get(&room).copied().unwrap_or("online");
                        step.writes
                            .push(Write::Finish(Box::new(record(&id, kind, r, &result))));
                        log_end(&id, &result);
                    }
                }
                step.dirty_online.push(room);
            }
            _ => {}
        }
    }

    fn maybe_think(&mut self, id: &str) {
        let Some(room) = self.hosted.get(id) else {
            return;
        };
        let Some(turn) = room.bot_to_act() else {
            return;
        };
        let key = (id.to_owned(), turn.version);
        if self.thinking.contains(&key) {
            return;
        }
        let Some(game) = room.game().cloned() else {
            return;
        };
        self.thinking.insert(key);
        let level = turn.level.clone();
        let permits = self.hub.think.clone();
        let me = self.me.clone();
        let delay = self.hub.cfg.computer_delay;
        let seed = rand::rng().random::<u64>();
        let room_id = id.to_owned();
        tokio::spawn(async move {
            let pause = tokio::time::sleep(delay);
            let square = {
                let _permit = permits.acquire_owned().await;
                // The facade's bot over the reversi-ai engines, on the blocking pool.
                tokio::task::spawn_blocking(move || {
                    EngineBot::for_level(&level, seed)
                        .ok()
                        .and_then(|mut bot| bot.choose(&game))
                })
                .await
                .ok()
                .flatten()
            };
            pause.await;
            let _ = me
                .send(OnlineCmd::Bot {
                    room: room_id,
                    seat: turn.seat,
                    version: turn.version,
                    square,
                })
                .await;
        });
    }
}
