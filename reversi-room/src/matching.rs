//! The rules of pairing two guests, as pure values with no clock and no IO: the random-match
//! queue, invites, and the colour draw. [`Lobby`](crate::Lobby) applies them to its own state; a
//! host that keeps its guests elsewhere (a cluster on a shared store, say) stores their
//! serialised form and applies the same operations to it, so that the rules exist once.

use std::collections::VecDeque;

use reversi_clock::Millis;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::{InviteCode, PlayerId, RoomError, RoomId};

/// One guest waiting in a [`MatchQueue`], until its wait expires.
///
/// # Examples
///
/// ```
/// use reversi_clock::Millis;
/// use reversi_room::{MatchQueue, PlayerId, QueueEntry};
/// let mut q = MatchQueue::new();
/// q.offer(Millis(0), PlayerId(4), Millis(120_000));
/// assert_eq!(q.entries().next(), Some(&QueueEntry { player: PlayerId(4), until: Millis(120_000) }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct QueueEntry {
    /// The guest.
    pub player: PlayerId,
    /// When its wait expires (at this instant it is no longer matched).
    pub until: Millis,
}

/// What [`MatchQueue::offer`] did.
///
/// # Examples
///
/// See [`MatchQueue`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "offer", rename_all = "snake_case"))]
pub enum QueueOffer {
    /// Nobody else was waiting: the guest now waits, until `until`.
    Waiting {
        /// When its wait expires.
        until: Millis,
    },
    /// Paired with `other`, who had waited longest; `other` left the queue.
    Matched {
        /// The guest who was waiting.
        other: PlayerId,
    },
}

/// The random-match queue of one game kind: first come, first matched.
///
/// - [`offer`](MatchQueue::offer) pairs the guest with the one who has waited longest, or puts
///   it at the back of the queue. A wait that ran out is never matched, and a guest never meets
///   itself (its own older entry is replaced).
/// - [`cancel`](MatchQueue::cancel) takes a guest out; [`expire`](MatchQueue::expire) takes out
///   every wait that ran out. A wait that ran out stays in the queue (skipped) until one of the
///   two takes it out: whoever keeps the queue learns from `cancel` whether the wait was still
///   there (it expired) or not (it was matched), and tells the guest.
///
/// # Examples
///
/// ```
/// use reversi_clock::Millis;
/// use reversi_room::{MatchQueue, PlayerId, QueueOffer};
/// let (a, b, c) = (PlayerId(1), PlayerId(2), PlayerId(3));
/// let mut q = MatchQueue::new();
/// assert_eq!(q.offer(Millis(0), a, Millis(1_000)), QueueOffer::Waiting { until: Millis(1_000) });
/// assert_eq!(q.offer(Millis(10), b, Millis(1_010)), QueueOffer::Matched { other: a });
/// assert!(q.is_empty());
/// // A wait that ran out is never matched; it stays until taken out.
/// q.offer(Millis(20), a, Millis(1_020));
/// assert_eq!(q.offer(Millis(1_020), c, Millis(2_020)), QueueOffer::Waiting { until: Millis(2_020) });
/// assert_eq!(q.len(), 2);
/// assert!(q.cancel(a));
/// assert_eq!(q.offer(Millis(1_030), b, Millis(2_030)), QueueOffer::Matched { other: c });
/// ```
///
/// It serialises (the `serde` feature) as the list of its entries, oldest first:
///
/// ```
/// use reversi_clock::Millis;
/// use reversi_room::{MatchQueue, PlayerId};
/// let mut q = MatchQueue::new();
/// q.offer(Millis(0), PlayerId(5), Millis(900));
/// let text = serde_json::to_string(&q).unwrap();
/// assert_eq!(text, r#"[{"player":5,"until":900}]"#);
/// assert_eq!(serde_json::from_str::<MatchQueue>(&text).unwrap(), q);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct MatchQueue {
    entries: VecDeque<QueueEntry>,
}

impl MatchQueue {
    /// An empty queue.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(reversi_room::MatchQueue::new().is_empty());
    /// ```
    #[must_use]
    pub fn new() -> MatchQueue {
        MatchQueue::default()
    }

    /// `player` asks for a match at `now`, ready to wait until `until`: paired with the guest who
    /// has waited longest (whose wait has not run out at `now`), or queued.
    ///
    /// # Examples
    ///
    /// See [`MatchQueue`].
    pub fn offer(&mut self, now: Millis, player: PlayerId, until: Millis) -> QueueOffer {
        self.entries.retain(|e| e.player != player);
        if let Some(at) = self.entries.iter().position(|e| e.until > now) {
            if let Some(e) = self.entries.remove(at) {
                return QueueOffer::Matched { other: e.player };
            }
        }
        self.entries.push_back(QueueEntry { player, until });
        QueueOffer::Waiting { until }
    }

    /// Takes `player` out of the queue; whether it was in it.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Millis;
    /// use reversi_room::{MatchQueue, PlayerId};
    /// let mut q = MatchQueue::new();
    /// q.offer(Millis(0), PlayerId(1), Millis(50));
    /// assert!(q.cancel(PlayerId(1)));
    /// assert!(!q.cancel(PlayerId(1)));
    /// ```
    pub fn cancel(&mut self, player: PlayerId) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.player != player);
        self.entries.len() != before
    }

    /// Takes out every wait that has run out at `now`, and returns those guests, oldest first.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Millis;
    /// use reversi_room::{MatchQueue, PlayerId};
    /// let mut q = MatchQueue::new();
    /// q.offer(Millis(0), PlayerId(1), Millis(50));
    /// assert_eq!(q.expire(Millis(49)), []);
    /// assert_eq!(q.expire(Millis(50)), [PlayerId(1)]);
    /// assert!(q.is_empty());
    /// ```
    pub fn expire(&mut self, now: Millis) -> Vec<PlayerId> {
        let gone = self
            .entries
            .iter()
            .filter(|e| e.until <= now)
            .map(|e| e.player)
            .collect();
        self.entries.retain(|e| e.until > now);
        gone
    }

    /// Puts back a guest's wait as it was (a host restoring lost state), unless the guest is
    /// already in the queue; whether it was put back. The entry goes where its expiry places it
    /// among the others, which approximates its place in the line.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Millis;
    /// use reversi_room::{MatchQueue, PlayerId, QueueEntry};
    /// let mut q = MatchQueue::new();
    /// q.offer(Millis(0), PlayerId(2), Millis(90));
    /// assert!(q.restore(QueueEntry { player: PlayerId(1), until: Millis(60) }));
    /// assert!(!q.restore(QueueEntry { player: PlayerId(2), until: Millis(90) }));
    /// assert_eq!(q.entries().map(|e| e.player).collect::<Vec<_>>(), [PlayerId(1), PlayerId(2)]);
    /// ```
    pub fn restore(&mut self, entry: QueueEntry) -> bool {
        if self.contains(entry.player) {
            return false;
        }
        let at = self.entries.partition_point(|e| e.until <= entry.until);
        self.entries.insert(at, entry);
        true
    }

    /// Appends a wait as it is (the lobby reading its own serialised queues, oldest first).
    pub(crate) fn push_back(&mut self, entry: QueueEntry) {
        self.entries.push_back(entry);
    }

    /// Whether `player` waits in the queue.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Millis;
    /// use reversi_room::{MatchQueue, PlayerId};
    /// let mut q = MatchQueue::new();
    /// q.offer(Millis(0), PlayerId(1), Millis(50));
    /// assert!(q.contains(PlayerId(1)) && !q.contains(PlayerId(2)));
    /// ```
    #[must_use]
    pub fn contains(&self, player: PlayerId) -> bool {
        self.entries.iter().any(|e| e.player == player)
    }

    /// The waits, oldest first.
    ///
    /// # Examples
    ///
    /// See [`QueueEntry`].
    pub fn entries(&self) -> impl ExactSizeIterator<Item = &QueueEntry> + '_ {
        self.entries.iter()
    }

    /// How many guests wait.
    ///
    /// # Examples
    ///
    /// See [`MatchQueue`].
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nobody waits.
    ///
    /// # Examples
    ///
    /// See [`MatchQueue`].
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Where an [`Invite`] is in its life.
///
/// # Examples
///
/// ```
/// use reversi_room::{InviteStatus, RoomId};
/// assert_eq!(serde_json::to_string(&InviteStatus::Used { room: RoomId(3) }).unwrap(), r#"{"status":"used","room":3}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "status", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum InviteStatus {
    /// Waiting for someone to join.
    Open,
    /// It ran out before anyone joined.
    Expired,
    /// Its creator took it back (or left).
    Cancelled,
    /// Someone joined; the game is in `room`.
    Used {
        /// The room of the game it started.
        room: RoomId,
    },
}

/// An invite to a game: who made it, until when it can be joined, and whether it still can.
///
/// - [`check_join`](Invite::check_join) is the rule of who may join: not the creator, not after
///   it expired, was cancelled or was used.
/// - [`cancel`](Invite::cancel) is its creator's, while it is open.
///
/// # Examples
///
/// ```
/// use reversi_clock::Millis;
/// use reversi_room::{Invite, InviteCode, PlayerId, RoomError, RoomId};
/// let code: InviteCode = "ABCDEFGH".parse()?;
/// let (alice, bob, carol) = (PlayerId(1), PlayerId(2), PlayerId(3));
/// let mut invite = Invite::new("reversi", alice, Millis(600_000));
/// assert_eq!(invite.check_join(Millis(5), alice, &code), Err(RoomError::OwnInvite { player: alice }));
/// assert_eq!(invite.check_join(Millis(600_000), bob, &code), Err(RoomError::InviteExpired { code: code.clone() }));
/// invite.check_join(Millis(5), bob, &code)?;
/// invite.use_for(RoomId(9));
/// assert_eq!(invite.check_join(Millis(6), carol, &code), Err(RoomError::InviteFull { code }));
/// # Ok::<(), RoomError>(())
/// ```
///
/// It serialises (the `serde` feature):
///
/// ```
/// use reversi_clock::Millis;
/// use reversi_room::{Invite, PlayerId};
/// let invite = Invite::new("reversi", PlayerId(1), Millis(60));
/// let text = serde_json::to_string(&invite).unwrap();
/// assert_eq!(text, r#"{"kind":"reversi","creator":1,"expires_at":60,"status":{"status":"open"}}"#);
/// assert_eq!(serde_json::from_str::<Invite>(&text).unwrap(), invite);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Invite {
    /// The game kind.
    pub kind: String,
    /// Who made it.
    pub creator: PlayerId,
    /// When it expires (from this instant nobody can join).
    pub expires_at: Millis,
    /// Where it is in its life.
    pub status: InviteStatus,
}

impl Invite {
    /// An open invite of `creator` to a game of `kind`, until `expires_at`.
    ///
    /// # Examples
    ///
    /// See [`Invite`].
    #[must_use]
    pub fn new(kind: &str, creator: PlayerId, expires_at: Millis) -> Invite {
        Invite {
            kind: kind.to_owned(),
            creator,
            expires_at,
            status: InviteStatus::Open,
        }
    }

    /// Whether it can still be joined at `now`: open and not past its expiry.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Millis;
    /// use reversi_room::{Invite, PlayerId};
    /// let invite = Invite::new("reversi", PlayerId(1), Millis(60));
    /// assert!(invite.is_open(Millis(59)) && !invite.is_open(Millis(60)));
    /// ```
    #[must_use]
    pub fn is_open(&self, now: Millis) -> bool {
        self.status == InviteStatus::Open && now < self.expires_at
    }

    /// Whether `player` may join this invite (whose code is `code`) at `now`.
    ///
    /// # Errors
    ///
    /// [`RoomError::InviteExpired`] (expired, or open past its expiry),
    /// [`RoomError::InviteCancelled`], [`RoomError::InviteFull`] (used),
    /// [`RoomError::OwnInvite`] for its creator.
    ///
    /// # Examples
    ///
    /// See [`Invite`].
    pub fn check_join(
        &self,
        now: Millis,
        player: PlayerId,
        code: &InviteCode,
    ) -> Result<(), RoomError> {
        match self.status {
            InviteStatus::Open if self.is_open(now) => {}
            InviteStatus::Open | InviteStatus::Expired => {
                return Err(RoomError::InviteExpired { code: code.clone() })
            }
            InviteStatus::Cancelled => {
                return Err(RoomError::InviteCancelled { code: code.clone() })
            }
            InviteStatus::Used { .. } => return Err(RoomError::InviteFull { code: code.clone() }),
        }
        if self.creator == player {
            return Err(RoomError::OwnInvite { player });
        }
        Ok(())
    }

    /// Marks the invite used for the game in `room` (after [`check_join`](Invite::check_join)
    /// allowed the join).
    ///
    /// # Examples
    ///
    /// See [`Invite`].
    pub fn use_for(&mut self, room: RoomId) {
        self.status = InviteStatus::Used { room };
    }

    /// Ends an open invite whose time ran out at `now`; whether it did (`false` when it was
    /// used, cancelled or already expired, or its time has not come).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Millis;
    /// use reversi_room::{Invite, InviteStatus, PlayerId};
    /// let mut invite = Invite::new("reversi", PlayerId(1), Millis(60));
    /// assert!(!invite.expire(Millis(59)));
    /// assert!(invite.expire(Millis(60)));
    /// assert_eq!(invite.status, InviteStatus::Expired);
    /// assert!(!invite.expire(Millis(61)));
    /// ```
    pub fn expire(&mut self, now: Millis) -> bool {
        if self.status == InviteStatus::Open && now >= self.expires_at {
            self.status = InviteStatus::Expired;
            true
        } else {
            false
        }
    }

    /// Its creator takes it back.
    ///
    /// # Errors
    ///
    /// [`RoomError::NoOpenInvite`] when `player` is not its creator or it is no longer open.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Millis;
    /// use reversi_room::{Invite, InviteStatus, PlayerId, RoomError};
    /// let mut invite = Invite::new("reversi", PlayerId(1), Millis(60));
    /// assert_eq!(invite.cancel(PlayerId(2)), Err(RoomError::NoOpenInvite { player: PlayerId(2) }));
    /// invite.cancel(PlayerId(1))?;
    /// assert_eq!(invite.status, InviteStatus::Cancelled);
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn cancel(&mut self, player: PlayerId) -> Result<(), RoomError> {
        if self.creator != player || self.status != InviteStatus::Open {
            return Err(RoomError::NoOpenInvite { player });
        }
        self.status = InviteStatus::Cancelled;
        Ok(())
    }
}

/// The colour draw of a new game between two guests: `players` in seat order (seat 0 moves
/// first), swapped when the random `bit` is 1 (only its lowest bit counts).
///
/// # Examples
///
/// ```
/// use reversi_room::{draw_seats, PlayerId};
/// let (a, b) = (PlayerId(1), PlayerId(2));
/// assert_eq!(draw_seats([a, b], 0), [a, b]);
/// assert_eq!(draw_seats([a, b], 3), [b, a]);
/// ```
#[must_use]
pub fn draw_seats(mut players: [PlayerId; 2], bit: u64) -> [PlayerId; 2] {
    if bit & 1 == 1 {
        players.swap(0, 1);
    }
    players
}
