//! The room crate's pairing rules ([`MatchQueue`], [`Invite`]) applied to their JSON in Redis:
//! read, apply the rule in Rust, and write back only if nobody changed the value meanwhile
//! (`scripts::SWAP`), else read and apply again. No rule is written here a second time.

use reversi::clock::Millis;
use reversi::room::{Invite, InviteCode, MatchQueue, PlayerId, QueueEntry, QueueOffer, RoomId};
use reversi::room_adapters::REVERSI;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::io::*;
use super::node::Node;
use super::scripts;
use crate::protocol::{ErrorCode, Refusal};
use crate::rooms::room_refusal;

/// How many times an update reads and applies its rule again when others keep changing the value.
const TRIES: usize = 16;

/// An invite as the cluster keeps it: the room crate's [`Invite`] and the node its creator was
/// on when it was made (where to tell the creator if Redis no longer knows where it is).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct StoredInvite {
    pub(super) node: String,
    #[serde(flatten)]
    pub(super) invite: Invite,
}

impl Node {
    /// Applies `rule` to the JSON value at `key` (`None` when there is none) and stores what it
    /// leaves (`None` deletes the key) for `ttl_ms`, if the key still holds what was read; an
    /// error of the rule changes nothing. A value that does not read as `T` is an internal error
    /// unless `lenient` (then it counts as none: a queue must not stay stuck on a bad value).
    pub(super) async fn update_json<T, R>(
        &mut self,
        key: &str,
        ttl_ms: u64,
        lenient: bool,
        mut rule: impl FnMut(Option<T>) -> Res<(Option<T>, R)>,
    ) -> Res<R>
    where
        T: Serialize + DeserializeOwned,
    {
        for _ in 0..TRIES {
            let stored = self.get(key.to_owned()).await?;
            let value = match stored.as_deref().map(serde_json::from_str::<T>) {
                None => None,
                Some(Ok(v)) => Some(v),
                Some(Err(_)) if lenient => None,
                Some(Err(e)) => {
                    return Err(Refusal::new(
                        ErrorCode::Internal,
                        format!("an unreadable value in the store: {e}"),
                    ))
                }
            };
            let (next, out) = rule(value)?;
            let text = match next {
                Some(v) => serde_json::to_string(&v).map_err(store_err)?,
                None => String::new(),
            };
            let mut c = redis::cmd("EVAL");
            c.arg(scripts::SWAP)
                .arg(1)
                .arg(key)
                .arg(stored.as_deref().unwrap_or(""))
                .arg(text)
                .arg(ttl_ms.max(1));
            if self.q::<i64>(&c).await? == 1 {
                return Ok(out);
            }
        }
        Err(store_err("the value kept changing: send the command again"))
    }

    /// [`MatchQueue::offer`] on the shared queue. Waits that ran out long ago (their node did
    /// not take them out: it is gone) are dropped on the way.
    pub(super) async fn queue_offer(
        &mut self,
        now: Millis,
        p: PlayerId,
        until: Millis,
    ) -> Res<QueueOffer> {
        let key = self.keys.k("queue");
        let stale = Millis(now.0.saturating_sub(self.queue_wait.max(STALE_WAIT_MS)));
        self.update_json(&key, self.queue_keep_ms(), true, |q: Option<MatchQueue>| {
            let mut q = q.unwrap_or_default();
            q.expire(stale);
            let offer = q.offer(now, p, until);
            Ok(((!q.is_empty()).then_some(q), offer))
        })
        .await
    }

    /// [`MatchQueue::cancel`] on the shared queue: whether `p` was still in it.
    pub(super) async fn queue_cancel(&mut self, p: PlayerId) -> Res<bool> {
        let key = self.keys.k("queue");
        self.update_json(&key, self.queue_keep_ms(), true, |q: Option<MatchQueue>| {
            let mut q = q.unwrap_or_default();
            let was = q.cancel(p);
            Ok(((!q.is_empty()).then_some(q), was))
        })
        .await
    }

    /// [`MatchQueue::restore`] of this node's waits, after Redis lost them.
    pub(super) async fn queue_restore(&mut self, waits: Vec<QueueEntry>) -> Res<()> {
        if waits.is_empty() {
            return Ok(());
        }
        let key = self.keys.k("queue");
        self.update_json(&key, self.queue_keep_ms(), true, |q: Option<MatchQueue>| {
            let mut q = q.unwrap_or_default();
            for &e in &waits {
                q.restore(e);
            }
            Ok((Some(q), ()))
        })
        .await
    }

    /// How long the queue's key is kept after its last change: a wait's life, and as long as a
    /// wait that ran out stays for its node to take it out.
    fn queue_keep_ms(&self) -> u64 {
        self.queue_wait.saturating_add(STALE_WAIT_MS)
    }

    /// How long an invite's key is kept: its life, then as long again, so that a late joiner
    /// learns it expired, was used or was cancelled rather than that it never existed.
    fn invite_keep_ms(&self) -> u64 {
        self.invite_ttl.saturating_mul(2)
    }

    /// A new invite of `p` under a fresh `code`, unless the code is taken; whether it was stored.
    pub(super) async fn invite_store(
        &mut self,
        code: &InviteCode,
        p: PlayerId,
        until: Millis,
    ) -> Res<bool> {
        let stored = StoredInvite {
            node: self.me.clone(),
            invite: Invite::new(REVERSI, p, until),
        };
        let set: Option<String> = self
            .q(redis::cmd("SET")
                .arg(self.keys.invite(code.as_str()))
                .arg(serde_json::to_string(&stored).map_err(store_err)?)
                .arg("NX")
                .arg("PX")
                .arg(self.invite_keep_ms().max(1)))
            .await?;
        Ok(set.is_some())
    }

    /// [`Invite::check_join`] then [`Invite::use_for`] the room `room`: the invite as it was
    /// (its creator and node).
    pub(super) async fn invite_join(
        &mut self,
        now: Millis,
        p: PlayerId,
        code: &InviteCode,
        room: RoomId,
    ) -> Res<StoredInvite> {
        let key = self.keys.invite(code.as_str());
        let keep = self.invite_keep_ms();
        self.update_json(&key, keep, false, |s: Option<StoredInvite>| {
            let mut s = s.ok_or_else(|| {
                room_refusal(&reversi::room::RoomError::UnknownInvite { code: code.clone() })
            })?;
            s.invite
                .check_join(now, p, code)
                .map_err(|e| room_refusal(&e))?;
            s.invite.use_for(room);
            Ok((Some(s.clone()), s))
        })
        .await
    }

    /// [`Invite::cancel`] by `p`.
    pub(super) async fn invite_cancel(&mut self, p: PlayerId, code: &str) -> Res<()> {
        let key = self.keys.invite(code);
        let keep = self.invite_keep_ms();
        self.update_json(&key, keep, false, |s: Option<StoredInvite>| {
            let mut s = s.ok_or_else(|| {
                room_refusal(&reversi::room::RoomError::NoOpenInvite { player: p })
            })?;
            s.invite.cancel(p).map_err(|e| room_refusal(&e))?;
            Ok((Some(s), ()))
        })
        .await
    }

    /// Whether `p`'s invite `code` is still open at `now` ([`Invite::is_open`]: not expired,
    /// cancelled or used).
    pub(super) async fn invite_open_of(
        &mut self,
        p: PlayerId,
        code: &str,
        now: Millis,
    ) -> Res<bool> {
        let Some(text) = self.get(self.keys.invite(code)).await? else {
            return Ok(false);
        };
        let Ok(s) = serde_json::from_str::<StoredInvite>(&text) else {
            return Ok(false);
        };
        Ok(s.invite.creator == p && s.invite.is_open(now))
    }

    /// [`Invite::expire`] at `now`: whether it ended now (an invite Redis lost counts as ended).
    pub(super) async fn invite_expire(&mut self, now: Millis, code: &str) -> Res<bool> {
        let key = self.keys.invite(code);
        let keep = self.invite_keep_ms();
        self.update_json(&key, keep, false, |s: Option<StoredInvite>| match s {
            Some(mut s) => {
                let ended = s.invite.expire(now);
                Ok((Some(s), ended))
            }
            None => Ok((None, true)),
        })
        .await
    }
}

/// A wait that ran out this long ago (or the queue's wait, if longer) is dropped from the
/// shared queue by any node: the node that kept it would have taken it out.
const STALE_WAIT_MS: u64 = 60_000;
