//! A node's leases on the rooms it owns: their renewal (the heartbeat), the rooms it loses,
//! and the sweep that takes over the rooms of a node that died (and its own rooms at start).

use std::collections::HashMap;

use reversi::clock::Millis;
use reversi::room::{PlayerId, Room, RoomCommand};
use reversi::room_adapters::ReversiGame;

use super::io::*;
use super::node::{Node, Owned};
use super::scripts;
use super::wire::*;
use crate::common::wall_now;
use crate::db::Write;
use crate::finished;
use crate::protocol::{text_of, ErrorCode, Refusal};

impl Node {
    /// Renews this node's life key and its rooms' leases; drops the rooms it lost; puts back
    /// what Redis forgot when it lost its data.
    pub(super) async fn heartbeat(&mut self) -> Res<()> {
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

    /// Another node owns room `room` now: this node forgets it (its copy in SQLite too).
    pub(super) fn lost(&mut self, room: String) {
        self.owners.remove(&room);
        drop(self.db.submit(vec![Write::Delete { id: room.clone() }]));
        if let Some(o) = self.rooms.remove(&room) {
            if let Some(d) = o.deadline {
                self.timers.remove(&(d, room));
            }
        }
    }

    /// Takes room `id` over if its lease is free and it has a record: the owner afterwards
    /// (this node or the one that was quicker), or `None` when there is no such room.
    pub(super) async fn take_over(&mut self, id: &str) -> Res<Option<String>> {
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
    pub(super) async fn adopt(
        &mut self,
        id: &str,
        mut room: Room<ReversiGame>,
        kind: String,
    ) -> Res<()> {
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
    pub(super) async fn adopt_own_rooms(&mut self) -> Res<()> {
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

    /// Sends again the commands that found no owner, and takes over the rooms whose lease
    /// expired.
    pub(super) async fn sweep(&mut self) {
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
