//! When Redis fails the node: the generation that tells Redis lost its data and what the node
//! puts back then, the resync after its subscription dropped, and the undoing of a change
//! that could not be saved.

use rand::RngExt;
use reversi::clock::Millis;
use reversi::room::{Invite, PlayerId, QueueEntry};
use reversi::room_adapters::REVERSI;

use super::io::*;
use super::keys::*;
use super::node::Node;
use super::pairing::StoredInvite;
use super::wire::*;
use crate::common::wall_now;
use crate::protocol::{ErrorCode, Refusal};

impl Node {
    /// The generation of Redis's data, set by this node when it is missing: the value, and
    /// whether this node set it.
    pub(super) async fn generation(&mut self) -> Res<(String, bool)> {
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

    /// After Redis lost its data: this node's players (their tokens, where they are, their
    /// waits and invites), the tokens it handed out and the games that ended on it within a
    /// day go back into Redis; its rooms are saved again (which takes their leases back and
    /// tells their players).
    pub(super) async fn restore(&mut self) -> Res<()> {
        let now = wall_now().0;
        let mut pipe = redis::pipe();
        let mut waits = Vec::new();
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
                Act::Waiting { until } if *until > now => waits.push(QueueEntry {
                    player: *p,
                    until: Millis(*until),
                }),
                Act::Inviting { code, until } if *until > now => {
                    let stored = StoredInvite {
                        node: self.me.clone(),
                        invite: Invite::new(REVERSI, *p, Millis(*until)),
                    };
                    pipe.cmd("SET")
                        .arg(self.keys.invite(code))
                        .arg(serde_json::to_string(&stored).map_err(store_err)?)
                        .arg("NX")
                        .arg("PX")
                        .arg((until - now).saturating_add(self.invite_ttl))
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
        self.queue_restore(waits).await?;
        let ids: Vec<String> = self.rooms.keys().cloned().collect();
        for id in ids {
            self.finish_room(&id, wall_now(), None, Vec::new());
        }
        Ok(())
    }

    /// After the subscription came back: the states and matches published to this node
    /// meanwhile were lost, so each of its players in a room asks the room's owner again.
    pub(super) async fn resync(&mut self) {
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

    /// Undoes a command whose change surely was not saved (Redis out of reach), while nothing
    /// came after it, and tells its sender `unavailable`: nothing changed.
    pub(super) fn revert(&mut self, id: &str, r: Revert) {
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
}
