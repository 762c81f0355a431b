//! The rooms this node owns: made when two players are matched, and after each change saved,
//! told to their members and, when a game ends, recorded.

use axum::extract::ws::Utf8Bytes;
use rand::RngExt;
use reversi::clock::Millis;
use reversi::room::{draw_seats, EventKind, PlayerId, Room, RoomId};
use reversi::room_adapters::ReversiGame;
use serde_json::Value;

use super::io::*;
use super::keys::*;
use super::node::{Node, Owned};
use super::wire::*;
use crate::db::Write;
use crate::protocol::{text_of, StateKind};
use crate::rooms::{log_end, matched, online_id, record, room_refusal, state_msg, state_text};

impl Node {
    /// Matches two players: the room is made, saved and owned by this node.
    pub(super) async fn create_room(
        &mut self,
        now: Millis,
        room: RoomId,
        kind: &str,
        first: (PlayerId, String),
        second: PlayerId,
        rid: Option<(PlayerId, &Value)>,
    ) -> Res<()> {
        let id = online_id(room);
        // Where each player is connected now (a player may have moved since it queued or
        // made its invite); as the entry says when Redis does not know.
        let first = match self.get(self.keys.at(first.0 .0)).await? {
            Some(n) => (first.0, n),
            None => first,
        };
        let seats = draw_seats([first.0, second], rand::rng().random::<u64>());
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

    /// Drains a room's events, records a finished game, saves (or forgets) the room and sends
    /// its state to its connected members, behind the save.
    pub(super) fn finish_room(
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
    pub(super) fn finish_room_or(
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
