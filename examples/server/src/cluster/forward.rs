//! Between nodes: a player's room command sent to the room's owner (over pub/sub when another
//! node owns it), applied there, and the messages of other nodes handled.

use axum::extract::ws::Utf8Bytes;
use rand::RngExt;
use reversi::clock::Millis;
use reversi::room::{PlayerId, RoomCommand, RoomError};
use serde_json::Value;

use super::io::*;
use super::node::Node;
use super::wire::*;
use crate::common::{no_such_game, wall_now};
use crate::protocol::{text_of, ErrorCode, Refusal, StateKind};
use crate::rooms::{game_over, matched, room_refusal, state_msg, state_text};

/// How many applied commands' ids a node remembers.
const APPLIED_MAX: usize = 4096;

impl Node {
    /// How long a command waits for a room's owner before it is refused (`unavailable`).
    pub(super) fn give_up(&self) -> u64 {
        self.lease_ms.saturating_mul(3).saturating_add(10_000)
    }

    /// Publishes `wire` to `node` (behind the saves already queued).
    pub(super) fn publish(&self, node: String, wire: &Wire) {
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
    pub(super) async fn pass_on(&mut self, player: u64, text: String, matched: bool) {
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

    /// A message to player `p` wherever it is connected (as far as this node knows).
    pub(super) fn to_player(&self, p: PlayerId, text: Utf8Bytes, matched: bool) -> Option<Out2> {
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
    pub(super) async fn forward(
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

    pub(super) async fn send_forward(&mut self, f: Forward) -> Res<()> {
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

    /// A message from another node (or from this node to itself), received on its channel.
    pub(super) async fn on_wire(&mut self, w: Wire) {
        match w {
            Wire::Cmd(f) => self.apply(f),
            Wire::Deliver {
                player,
                text,
                matched,
                hop,
            } => {
                if matched {
                    // A disconnected creator's invite was used: it is in a game now.
                    self.away.remove(&PlayerId(player));
                }
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
            Wire::Drop { player, node } => {
                let p = PlayerId(player);
                // The player reconnected on another node: as on one node, its old connection
                // is replaced (its wait ends), and its open invite goes on at the new node (it
                // is matched, cancelled or expires there).
                let invite = if let Some(l) = self.players.remove(&p) {
                    if let Some(c) = self.conns.get_mut(&l.conn) {
                        c.1 = None;
                    }
                    match l.act {
                        Act::Waiting { .. } => {
                            let _ = self.queue_cancel(p).await;
                            None
                        }
                        Act::Inviting { code, until } => Some((code, until)),
                        Act::Idle => None,
                    }
                } else {
                    self.away.remove(&p).map(|a| (a.code, a.until))
                };
                if let (Some(node), Some((code, until))) = (node, invite) {
                    self.publish(
                        node,
                        &Wire::Adopt {
                            player,
                            act: Act::Inviting { code, until },
                        },
                    );
                }
            }
            Wire::Adopt { player, act } => {
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
            Wire::Moved { room, players } => {
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
            Wire::Rematch {
                room,
                offerer,
                accepter,
                node,
                rid,
            } => {
                let (o, a) = (PlayerId(offerer), PlayerId(accepter));
                if let Err(r) = self.rematch_game(o, (a, node.clone()), rid.as_ref()).await {
                    let text = text_of(&r.to_msg(Some("rematch"), rid.as_ref()), None);
                    tracing::debug!(room = %room, code = %r.code, "rematch not made");
                    let wire = Wire::Deliver {
                        player: accepter,
                        text: text.as_str().to_owned(),
                        matched: false,
                        hop: false,
                    };
                    self.publish(node, &wire);
                }
            }
        }
    }

    /// A forwarded command, at the owner.
    pub(super) fn apply(&mut self, f: Forward) {
        let now = wall_now();
        let p = PlayerId(f.player);
        let rid = f.rid.as_ref();
        let refuse = |r: &Refusal| text_of(&r.to_msg(Some(&f.kind), rid), None);
        let Some(o) = self.rooms.get_mut(&f.room) else {
            // Not ours (any more): the sender asks again at its next sweep.
            self.owners.remove(&f.room);
            let text = refuse(&Refusal::new(
                ErrorCode::Unavailable,
                "the room is moving to another node: send it again",
            ));
            let wire = Wire::Deliver {
                player: f.player,
                text: text.as_str().to_owned(),
                matched: false,
                hop: false,
            };
            self.publish(f.node.clone(), &wire);
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

    /// The refusal for a room that has no record: over when it ended (its tombstone or its
    /// finished record is in Redis, or this node recorded it), unknown otherwise.
    pub(super) async fn gone_room(&mut self, game: &str) -> Res<Refusal> {
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
}
