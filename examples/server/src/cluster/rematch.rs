//! Rematches after an online game, by the room crate's rule, with the offer kept in Redis.

use reversi::room::{PlayerId, RematchOffer, RematchStep, RoomError, RoomId};
use serde_json::Value;

use super::io::*;
use super::keys::*;
use super::node::{fresh_number, Node};
use super::scripts;
use super::wire::*;
use crate::common::{wall_now, Out};
use crate::db::GameRecord;
use crate::protocol::{text_of, ErrorCode, Refusal, ServerMsg};
use crate::rooms::{not_online_for_rematch, parse_online_id, rematch_refusal};

impl Node {
    /// A rematch offer (or its acceptance) by `p` after the online game `room`, by the room
    /// crate's rule ([`RematchOffer::offer`]) as on a single node: the first offer goes to the
    /// opponent (`rematch_offered`) wherever it is connected; when the opponent offers too, the
    /// first one's node makes the new game (an invite game).
    ///
    /// The rule's state is kept in Redis as JSON, and replaced only if nobody changed it since
    /// it was read (`scripts::SWAP`; otherwise it is read and the rule applied again): for an
    /// invite's lifetime while offered, as long as the game's record once spent.
    pub(super) async fn rematch(
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
                let wire = Wire::Rematch {
                    room: room.to_owned(),
                    offerer: other.0,
                    accepter: p.0,
                    node: self.me.clone(),
                    rid: rid.cloned(),
                };
                self.publish(node, &wire);
                Ok(())
            }
            // A step a newer rule may add: nothing to do here.
            _ => Ok(()),
        }
    }

    /// Makes the rematch game on the offerer's node: the offerer must be here and free.
    pub(super) async fn rematch_game(
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
        let room = RoomId(fresh_number());
        self.create_room(
            wall_now(),
            room,
            "invite",
            accepter,
            offerer,
            rid.map(|r| (a, r)),
        )
        .await
    }
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
    use reversi::room::{RematchState, RoomId};

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
