//! This node's players and their commands: guests and tokens, reconnection, the random queue,
//! invites, hosted rooms, and what happens when a connection closes.

use std::collections::HashMap;

use rand::RngExt;
use reversi::clock::Millis;
use reversi::room::{Activity, InviteCode, PlayerId, QueueOffer, RoomError, RoomId, Token};
use serde_json::Value;

use super::io::*;
use super::keys::*;
use super::node::{fresh_number, is_hosted, Away, Local, Node};
use super::wire::*;
use crate::common::{no_such_game, wall_now, Out};
use crate::db::Write;
use crate::finished;
use crate::protocol::{text_of, ClientMsg, ErrorCode, Refusal, ServerMsg, StateKind};
use crate::rooms::{parse_online_id, room_refusal, state_msg};

impl Node {
    pub(super) fn player_of(&self, conn: u64) -> Option<PlayerId> {
        self.conns.get(&conn).and_then(|c| c.1)
    }

    pub(super) fn bind(&mut self, conn: u64, out: &Out, p: PlayerId, token: String) {
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
    pub(super) async fn guest(
        &mut self,
        conn: u64,
        out: &Out,
        rid: Option<&Value>,
    ) -> Res<PlayerId> {
        if let Some(p) = self.player_of(conn) {
            return Ok(p);
        }
        let n = fresh_number();
        let token = {
            let mut rng = rand::rng();
            Token::from_random(|| rng.random::<u64>())
        }
        .as_str()
        .to_owned();
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
    pub(super) async fn own_token(&mut self, token: &str) -> Res<Option<u64>> {
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
    pub(super) async fn check_idle(&mut self, p: PlayerId) -> Res<()> {
        // The lobby's rule (one thing at a time), on what this node and Redis know of `p`.
        let activity = match self.players.get(&p).map(|l| &l.act) {
            Some(Act::Waiting { .. }) => Activity::Waiting {
                kind: String::new(),
                until: Millis(0),
            },
            Some(Act::Inviting { code, .. }) => Activity::Inviting {
                code: code.parse().map_err(|e| room_refusal(&e))?,
            },
            _ => match self.get(self.keys.proom(p.0)).await? {
                Some(room) => Activity::Playing {
                    room: parse_online_id(&room).unwrap_or(RoomId(0)),
                },
                None => Activity::Idle,
            },
        };
        activity.require_idle(p).map_err(|e| room_refusal(&e))
    }

    pub(super) fn set_act(&mut self, p: PlayerId, act: Act) {
        if let Some(l) = self.players.get_mut(&p) {
            l.act = act;
        }
    }

    /// Refreshes the expiry of the keys of this node's players (their tokens and where they are).
    pub(super) async fn refresh(&mut self) {
        if self.players.is_empty() && self.away.is_empty() {
            return;
        }
        let mut pipe = redis::pipe();
        // A disconnected guest with an open invite is still this node's through its grace.
        for p in self.away.keys() {
            pipe.cmd("PEXPIRE")
                .arg(self.keys.at(p.0))
                .arg(LIVE_TTL_MS)
                .ignore();
        }
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

    pub(super) async fn client(&mut self, conn: u64, out: &Out, msg: ClientMsg) -> Res<()> {
        let now = wall_now();
        let kind = msg.kind();
        let rid = msg.rid().cloned();
        let rid = rid.as_ref();
        match msg {
            ClientMsg::Queue { .. } => {
                let p = self.guest(conn, out, rid).await?;
                self.check_idle(p).await?;
                let until = now.0.saturating_add(self.queue_wait);
                match self.queue_offer(now, p, Millis(until)).await? {
                    QueueOffer::Matched { other } => {
                        // Where the other waits: `create_room` asks Redis.
                        self.create_room(
                            now,
                            RoomId(fresh_number()),
                            "random",
                            (other, String::new()),
                            p,
                            rid.map(|r| (p, r)),
                        )
                        .await?;
                    }
                    QueueOffer::Waiting { .. } => {
                        self.set_act(p, Act::Waiting { until });
                        self.local_timers.insert((until, p.0));
                        let _ = out.try_send(text_of(&ServerMsg::Queued { until, rid: None }, rid));
                    }
                }
            }
            ClientMsg::CancelQueue { .. } => {
                let p = self.guest(conn, out, rid).await?;
                let Some(Act::Waiting { .. }) = self.players.get(&p).map(|l| l.act.clone()) else {
                    return Err(room_refusal(&RoomError::NotWaiting { player: p }));
                };
                if !self.queue_cancel(p).await? {
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
                let code = loop {
                    let code = {
                        let mut rng = rand::rng();
                        InviteCode::from_random(|| rng.random::<u64>())
                    };
                    if self.invite_store(&code, p, Millis(until)).await? {
                        break code;
                    }
                };
                self.set_act(
                    p,
                    Act::Inviting {
                        code: code.as_str().to_owned(),
                        until,
                    },
                );
                self.local_timers.insert((until, p.0));
                let msg = ServerMsg::Invite {
                    link: code.link(""),
                    code: code.as_str().to_owned(),
                    expires_at: until,
                    rid: None,
                };
                let _ = out.try_send(text_of(&msg, rid));
            }
            ClientMsg::InviteCancel { .. } => {
                let p = self.guest(conn, out, rid).await?;
                let Some(Act::Inviting { code, .. }) = self.players.get(&p).map(|l| l.act.clone())
                else {
                    return Err(room_refusal(&RoomError::NoOpenInvite { player: p }));
                };
                self.invite_cancel(p, &code).await?;
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
                let room = RoomId(fresh_number());
                let stored = self.invite_join(now, p, &code, room).await?;
                self.create_room(
                    now,
                    room,
                    "invite",
                    (stored.invite.creator, stored.node),
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
                self.check_grace(p, now).await?;
                if let Some(old) = self.players.remove(&p) {
                    // The token proves who it is: the old connection is replaced.
                    if let Some(c) = self.conns.get_mut(&old.conn) {
                        c.1 = None;
                    }
                    if let Act::Waiting { .. } = old.act {
                        let _ = self.queue_cancel(p).await;
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
                    let me = Some(self.me.clone());
                    self.publish(
                        node,
                        &Wire::Drop {
                            player: n,
                            node: me,
                        },
                    );
                }
                self.bind(conn, out, p, token.clone());
                self.back_from_away(p, now).await;
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
    pub(super) async fn hosted(
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

    /// The lobby's rule for coming back ([`reversi::room::Lobby::reconnect`]): a guest who was
    /// away longer than its reconnection grace while not in a game was forgotten, and its token
    /// no longer reconnects (it still reads its finished games). In a game, the room decides.
    async fn check_grace(&mut self, p: PlayerId, now: Millis) -> Res<()> {
        let until: Option<u64> = self
            .get(self.keys.away(p.0))
            .await?
            .and_then(|s| s.parse().ok());
        let Some(until) = until else {
            return Ok(());
        };
        if now.0 >= until && self.get(self.keys.proom(p.0)).await?.is_none() {
            return Err(room_refusal(&RoomError::WrongToken));
        }
        self.q::<()>(redis::cmd("DEL").arg(self.keys.away(p.0)))
            .await
    }

    /// A player's connection to this node closed, as [`reversi::room::Lobby::disconnect`] has
    /// it: its wait ends, its open invite stays until its reconnection grace ends, after which
    /// (out of a game) it is forgotten.
    async fn disconnected(&mut self, p: PlayerId, now: Millis) {
        let Some(l) = self.players.remove(&p) else {
            return;
        };
        let grace_until = now.0.saturating_add(self.reconnect_grace);
        let mut c = redis::cmd("SET");
        c.arg(self.keys.away(p.0))
            .arg(grace_until)
            .arg("PX")
            .arg(TOKEN_TTL_MS);
        if let Err(e) = self.q::<()>(&c).await {
            tracing::warn!(error = %e.message, "a guest's grace not recorded");
        }
        match l.act {
            Act::Waiting { .. } => {
                let _ = self.queue_cancel(p).await;
            }
            Act::Inviting { code, until } if until > now.0 => {
                self.local_timers.insert((until.min(grace_until), p.0));
                self.away.insert(
                    p,
                    Away {
                        code,
                        until,
                        grace_until,
                    },
                );
            }
            Act::Inviting { .. } | Act::Idle => {}
        }
    }

    /// A guest reconnected to this node within its grace: its invite, if still open, is its
    /// again.
    async fn back_from_away(&mut self, p: PlayerId, now: Millis) {
        let Some(a) = self.away.remove(&p) else {
            return;
        };
        if self.invite_open_of(p, &a.code, now).await.unwrap_or(false) {
            self.set_act(
                p,
                Act::Inviting {
                    code: a.code,
                    until: a.until,
                },
            );
            self.local_timers.insert((a.until, p.0));
        }
    }

    /// The deadline of a disconnected guest's invite: it expired, or the grace ended and the
    /// invite is cancelled (nobody to tell: the guest is gone).
    pub(super) async fn away_timeout(&mut self, p: PlayerId, now: Millis) {
        let Some(a) = self.away.get(&p) else {
            return;
        };
        if now.0 < a.until.min(a.grace_until) {
            return;
        }
        let a = self.away.remove(&p).expect("just read");
        if now.0 >= a.until {
            let _ = self.invite_expire(now, &a.code).await;
        } else {
            let _ = self.invite_cancel(p, &a.code).await;
        }
    }

    /// A player leaves this node: its wait and its invite end.
    pub(super) async fn forget_local(&mut self, p: PlayerId) {
        let Some(l) = self.players.remove(&p) else {
            return;
        };
        match l.act {
            Act::Waiting { .. } => {
                let _ = self.queue_cancel(p).await;
            }
            Act::Inviting { code, .. } => {
                let _ = self.invite_cancel(p, &code).await;
            }
            Act::Idle => {}
        }
    }

    pub(super) async fn gone(&mut self, conn: u64) {
        if self.hosted_conns.remove(&conn) {
            self.hosted.hosted_gone(conn).await;
        }
        let Some((_, Some(p))) = self.conns.remove(&conn) else {
            return;
        };
        if self.players.get(&p).map(|l| l.conn) != Some(conn) {
            return;
        }
        let now = wall_now();
        self.disconnected(p, now).await;
        if let Ok(Some(room)) = self.get(self.keys.proom(p.0)).await {
            let _ = self
                .forward(now, p, &room, "disconnect", None, Op::Disconnect)
                .await;
        }
    }
}

/// The online room a command names.
fn online_room(game: &str) -> Res<RoomId> {
    parse_online_id(game).ok_or_else(|| no_such_game(game))
}
