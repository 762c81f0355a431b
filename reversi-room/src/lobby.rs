//! Online play: guests, random matching, invite codes, reconnection, and the rooms they fill.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use reversi_clock::{Millis, Span};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::ids::LobbyRng;
use crate::matching::{draw_seats, Invite, InviteStatus, MatchQueue, QueueEntry, QueueOffer};
use crate::{
    Event, EventKind, InviteCode, PlayerId, RematchOffer, RematchStep, Room, RoomCommand,
    RoomError, RoomId, RoomSettings, Token, TurnGame,
};

/// The timings of a [`Lobby`].
///
/// # Examples
///
/// ```
/// use reversi_clock::Span;
/// use reversi_room::LobbySettings;
/// let s = LobbySettings::default();
/// assert_eq!(s.queue_wait, Span::from_mins(2));
/// assert_eq!(s.invite_ttl, Span::from_mins(10));
/// assert_eq!(s.reconnect_grace, Span::from_secs(60));
/// let quick = LobbySettings::default().with_queue_wait(Span::from_secs(30));
/// assert_eq!(quick.queue_wait, Span::from_secs(30));
/// ```
///
/// The struct may gain fields: build it from [`LobbySettings::default`] with the `with_*`
/// methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[non_exhaustive]
pub struct LobbySettings {
    /// How long a wait for a random match lasts without a match.
    pub queue_wait: Span,
    /// How long an invite stays open without an opponent.
    pub invite_ttl: Span,
    /// How long a disconnected guest who is not playing is kept, so that its token still works.
    /// (A guest who is playing has the room's own grace: [`RoomSettings::disconnect_grace`].)
    pub reconnect_grace: Span,
    /// The settings of the rooms the lobby creates.
    pub room: RoomSettings,
}

impl Default for LobbySettings {
    /// Two minutes of wait, ten minutes for an invite, 60 s to reconnect,
    /// [`RoomSettings::ONLINE`] rooms.
    fn default() -> LobbySettings {
        LobbySettings {
            queue_wait: Span::from_mins(2),
            invite_ttl: Span::from_mins(10),
            reconnect_grace: Span::from_secs(60),
            room: RoomSettings::ONLINE,
        }
    }
}

impl LobbySettings {
    /// These settings with another wait for a random match.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// use reversi_room::LobbySettings;
    /// let s = LobbySettings::default().with_queue_wait(Span::from_secs(10));
    /// assert_eq!(s.queue_wait, Span::from_secs(10));
    /// ```
    #[must_use]
    pub const fn with_queue_wait(mut self, wait: Span) -> LobbySettings {
        self.queue_wait = wait;
        self
    }

    /// These settings with another lifetime for an unanswered invite.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// use reversi_room::LobbySettings;
    /// let s = LobbySettings::default().with_invite_ttl(Span::from_mins(1));
    /// assert_eq!(s.invite_ttl, Span::from_mins(1));
    /// ```
    #[must_use]
    pub const fn with_invite_ttl(mut self, ttl: Span) -> LobbySettings {
        self.invite_ttl = ttl;
        self
    }

    /// These settings with another grace for a disconnected guest who is not playing.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// use reversi_room::LobbySettings;
    /// let s = LobbySettings::default().with_reconnect_grace(Span::from_secs(5));
    /// assert_eq!(s.reconnect_grace, Span::from_secs(5));
    /// ```
    #[must_use]
    pub const fn with_reconnect_grace(mut self, grace: Span) -> LobbySettings {
        self.reconnect_grace = grace;
        self
    }

    /// These settings with other settings for the rooms the lobby creates.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// use reversi_room::{LobbySettings, RoomSettings};
    /// let rooms = RoomSettings::ONLINE.with_action_limit(Span::from_secs(10));
    /// assert_eq!(LobbySettings::default().with_room(rooms).room, rooms);
    /// ```
    #[must_use]
    pub const fn with_room(mut self, room: RoomSettings) -> LobbySettings {
        self.room = room;
        self
    }
}

/// What a guest is doing. A guest does one thing at a time: to change, it cancels its wait or
/// invite, or resigns its game.
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{Activity, Lobby};
/// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
/// let (p, _) = lobby.add_guest(Millis(0));
/// assert_eq!(lobby.activity(p), Some(&Activity::Idle));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "activity", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Activity {
    /// Nothing.
    Idle,
    /// Waiting for a random match.
    Waiting {
        /// The game kind.
        kind: String,
        /// When the wait expires.
        until: Millis,
    },
    /// Waiting for someone to join its invite.
    Inviting {
        /// The invite's code.
        code: InviteCode,
    },
    /// Seated in an online game in progress.
    Playing {
        /// The room.
        room: RoomId,
    },
}

impl Activity {
    /// The rule that a guest does one thing at a time: `Ok` when idle, else the refusal that
    /// names what `player` is doing (waiting, inviting, or playing). [`Lobby::queue`],
    /// [`Lobby::create_invite`], [`Lobby::join_invite`] and [`Lobby::rematch`] check it; a host
    /// that keeps guests elsewhere (the server's cluster) checks it the same way.
    ///
    /// # Errors
    ///
    /// [`RoomError::AlreadyWaiting`], [`RoomError::InviteOpen`] or
    /// [`RoomError::MustResignFirst`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::{Activity, PlayerId, RoomError, RoomId};
    /// let p = PlayerId(1);
    /// assert_eq!(Activity::Idle.require_idle(p), Ok(()));
    /// assert_eq!(
    ///     Activity::Playing { room: RoomId(4) }.require_idle(p),
    ///     Err(RoomError::MustResignFirst { player: p, room: RoomId(4) })
    /// );
    /// ```
    pub fn require_idle(&self, player: PlayerId) -> Result<(), RoomError> {
        match self {
            Activity::Idle => Ok(()),
            Activity::Waiting { .. } => Err(RoomError::AlreadyWaiting { player }),
            Activity::Inviting { code } => Err(RoomError::InviteOpen {
                player,
                code: code.clone(),
            }),
            Activity::Playing { room } => Err(RoomError::MustResignFirst {
                player,
                room: *room,
            }),
        }
    }
}

/// What [`Lobby::queue`] did.
///
/// # Examples
///
/// See the [crate] example.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "outcome", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum QueueOutcome {
    /// No one was waiting: the guest waits until `until`.
    Waiting {
        /// When the wait expires.
        until: Millis,
    },
    /// Paired with a waiting guest; the game has started in `room`.
    Matched {
        /// The new room.
        room: RoomId,
    },
}

/// What [`Lobby::rematch`] did.
///
/// # Examples
///
/// See [`Lobby::rematch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "outcome", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum RematchOutcome {
    /// The first offer: it waits for the opponent, `to` (told by a
    /// [`LobbyEventKind::RematchOffered`] event).
    Offered {
        /// The opponent.
        to: PlayerId,
    },
    /// The opponent had offered: the new game has started in `room`.
    Started {
        /// The new room.
        room: RoomId,
    },
}

/// What happened in a [`Lobby`], as drained by [`Lobby::poll_event`].
///
/// # Examples
///
/// ```
/// use reversi_clock::Millis;
/// use reversi_room::{LobbyEvent, LobbyEventKind, PlayerId};
/// let e: LobbyEvent<u32> = LobbyEvent::new(Millis(1), LobbyEventKind::GuestJoined { player: PlayerId(1) });
/// assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"at":1,"kind":{"type":"guest_joined","player":1}}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[non_exhaustive]
pub struct LobbyEvent<A> {
    /// When it happened.
    pub at: Millis,
    /// What happened.
    pub kind: LobbyEventKind<A>,
}

impl<A> LobbyEvent<A> {
    /// An event of kind `kind` at `at` (for hosts that replay or test events; the lobby makes
    /// its own).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Millis;
    /// use reversi_room::{LobbyEvent, LobbyEventKind, PlayerId};
    /// let e: LobbyEvent<u32> = LobbyEvent::new(Millis(7), LobbyEventKind::GuestJoined { player: PlayerId(3) });
    /// assert_eq!(e.at, Millis(7));
    /// assert!(matches!(e.kind, LobbyEventKind::GuestJoined { player: PlayerId(3) }));
    /// ```
    pub fn new(at: Millis, kind: LobbyEventKind<A>) -> LobbyEvent<A> {
        LobbyEvent { at, kind }
    }
}

/// The kinds of [`LobbyEvent`].
///
/// # Examples
///
/// See [`LobbyEvent`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum LobbyEventKind<A> {
    /// A guest arrived.
    GuestJoined {
        /// Who.
        player: PlayerId,
    },
    /// A guest left for good.
    GuestLeft {
        /// Who.
        player: PlayerId,
    },
    /// A disconnected guest was forgotten after its grace; its token no longer works.
    GuestDropped {
        /// Who.
        player: PlayerId,
    },
    /// A guest's connection was lost.
    GuestDisconnected {
        /// Who.
        player: PlayerId,
    },
    /// A guest reconnected with its token.
    GuestReconnected {
        /// Who.
        player: PlayerId,
    },
    /// A guest waits for a random match.
    Waiting {
        /// Who.
        player: PlayerId,
        /// For which game kind.
        kind: String,
        /// Until when.
        until: Millis,
    },
    /// A wait ran out without a match.
    WaitExpired {
        /// Who.
        player: PlayerId,
    },
    /// A wait was cancelled (by the guest, or because it disconnected or left).
    WaitCancelled {
        /// Who.
        player: PlayerId,
    },
    /// An invite was created.
    InviteCreated {
        /// Its code.
        code: InviteCode,
        /// Its creator.
        player: PlayerId,
        /// Its game kind.
        kind: String,
        /// When it expires without an opponent.
        expires_at: Millis,
    },
    /// An invite ran out without an opponent.
    InviteExpired {
        /// Its code.
        code: InviteCode,
    },
    /// An invite was cancelled (by its creator, or because it left).
    InviteCancelled {
        /// Its code.
        code: InviteCode,
    },
    /// Two guests were paired (by the queue or an invite) and their game started.
    Matched {
        /// The new room.
        room: RoomId,
        /// The game kind.
        kind: String,
        /// The players in seat order (seat 0 moves first: black in Reversi).
        seats: Vec<PlayerId>,
        /// The invite, if the match came from one.
        invite: Option<InviteCode>,
        /// The room of the finished game, if the match is its rematch ([`Lobby::rematch`]).
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        rematch_of: Option<RoomId>,
    },
    /// A player of the finished game in `room` offered its rematch to the other, `to`, who
    /// accepts it with [`Lobby::rematch`].
    RematchOffered {
        /// The room of the finished game.
        room: RoomId,
        /// Who offered.
        by: PlayerId,
        /// The opponent, to tell.
        to: PlayerId,
    },
    /// Something happened in one of the lobby's rooms.
    Room {
        /// The room.
        room: RoomId,
        /// The room's event.
        event: Event<A>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub(crate) struct Guest {
    pub(crate) token: Token,
    pub(crate) activity: Activity,
    pub(crate) disconnected_at: Option<Millis>,
}

/// The rematch of a finished game of two guests, and the game kind to play it in.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub(crate) struct Rematch {
    pub(crate) kind: String,
    pub(crate) offer: RematchOffer,
}

/// The online service: guests, a random-matching queue per game kind, invite codes, reconnection
/// tokens, and the online [`Room`]s (one game each, [`RoomSettings::ONLINE`] by default) that
/// matches create. A sans-IO state machine like [`Room`]: every call takes `now`, runs the
/// deadlines up to it first, and a refused call leaves the state as they left it.
///
/// Randomness (reconnection tokens, invite codes, colours) comes from the lobby's own
/// cryptographic generator (ChaCha20), seeded by the caller with 256 bits: a server seeds it
/// from the operating system's entropy, a test or a replay with a constant. The generator is part
/// of the state: the whole state, tokens and generator included, serialises with serde, and a
/// lobby loaded from its saved form draws the same numbers as the one saved. Its `Debug` form
/// hides the generator.
///
/// # Examples
///
/// An invite, joined; then the creator drops its connection and comes back with its token:
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{Activity, Lobby, RoomError};
///
/// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(10, 2))], [1; 32]);
/// let (alice, alice_token) = lobby.add_guest(Millis(0));
/// let (bob, _) = lobby.add_guest(Millis(0));
/// let code = lobby.create_invite(Millis(0), alice, "nim")?;
/// let link = code.link("http://127.0.0.1:8080");
/// let room = lobby.join_invite(Millis(5_000), bob, &reversi_room::InviteCode::from_link(&link)?)?;
/// assert_eq!(lobby.activity(alice), Some(&Activity::Playing { room }));
///
/// lobby.disconnect(Millis(6_000), alice)?;
/// assert_eq!(lobby.reconnect(Millis(7_000), &"not it".to_owned().into()), Err(RoomError::WrongToken));
/// assert_eq!(lobby.reconnect(Millis(8_000), &alice_token), Ok(alice));
/// # Ok::<(), RoomError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        bound(
            serialize = "G: Serialize, G::Action: Serialize",
            deserialize = "G: serde::de::DeserializeOwned, G::Action: serde::de::DeserializeOwned"
        ),
        try_from = "LobbyData<G>"
    )
)]
pub struct Lobby<G: TurnGame> {
    pub(crate) settings: LobbySettings,
    pub(crate) kinds: BTreeMap<String, G>,
    pub(crate) guests: BTreeMap<PlayerId, Guest>,
    #[cfg_attr(feature = "serde", serde(serialize_with = "queue_players"))]
    pub(crate) queues: BTreeMap<String, MatchQueue>,
    pub(crate) invites: BTreeMap<InviteCode, Invite>,
    pub(crate) rooms: BTreeMap<RoomId, Room<G>>,
    pub(crate) room_kinds: BTreeMap<RoomId, String>,
    /// The rematches of finished games, by the finished game's room (which may be removed).
    pub(crate) rematches: BTreeMap<RoomId, Rematch>,
    pub(crate) next_player: u64,
    pub(crate) next_room: u64,
    pub(crate) rng: LobbyRng,
    pub(crate) last_now: Millis,
    pub(crate) events: VecDeque<LobbyEvent<G::Action>>,
    /// Every pending deadline, derived from the rest and rebuilt when loaded.
    #[cfg_attr(feature = "serde", serde(skip_serializing))]
    pub(crate) index: Index,
}

/// The serialised shape of a [`Lobby`], whose deadline index is rebuilt when it is read, and whose
/// game kinds are checked as [`Lobby::with_settings`] checks them.
#[cfg(feature = "serde")]
#[derive(Deserialize)]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "G: Serialize, G::Action: Serialize",
        deserialize = "G: serde::de::DeserializeOwned, G::Action: serde::de::DeserializeOwned"
    ))
)]
struct LobbyData<G: TurnGame> {
    settings: LobbySettings,
    kinds: BTreeMap<String, G>,
    guests: BTreeMap<PlayerId, Guest>,
    queues: BTreeMap<String, VecDeque<PlayerId>>,
    invites: BTreeMap<InviteCode, Invite>,
    rooms: BTreeMap<RoomId, Room<G>>,
    room_kinds: BTreeMap<RoomId, String>,
    #[serde(default)]
    rematches: BTreeMap<RoomId, Rematch>,
    next_player: u64,
    next_room: u64,
    rng: LobbyRng,
    last_now: Millis,
    events: VecDeque<LobbyEvent<G::Action>>,
}

#[cfg(feature = "serde")]
impl<G: TurnGame> TryFrom<LobbyData<G>> for Lobby<G> {
    type Error = String;

    fn try_from(d: LobbyData<G>) -> Result<Lobby<G>, String> {
        two_seat_kinds(&d.kinds)?;
        let queues = queues_of(d.queues, &d.guests)
            .map_err(|p| format!("{p} is in a queue without waiting for a match of its kind"))?;
        let mut lobby = Lobby {
            settings: d.settings,
            kinds: d.kinds,
            guests: d.guests,
            queues,
            invites: d.invites,
            rooms: d.rooms,
            room_kinds: d.room_kinds,
            rematches: d.rematches,
            next_player: d.next_player,
            next_room: d.next_room,
            rng: d.rng,
            last_now: d.last_now,
            events: d.events,
            index: Index::default(),
        };
        lobby.index = lobby.rebuilt_index();
        Ok(lobby)
    }
}

/// The queues as lists of players, oldest first (the lobby's serialised shape: each wait's
/// expiry is in its guest's activity).
#[cfg(feature = "serde")]
fn queue_players<S: serde::Serializer>(
    queues: &BTreeMap<String, MatchQueue>,
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(queues.len()))?;
    for (kind, q) in queues {
        let players: Vec<PlayerId> = q.entries().map(|e| e.player).collect();
        m.serialize_entry(kind, &players)?;
    }
    m.end()
}

/// Queues from lists of players, oldest first, each wait's expiry taken from its guest's
/// activity; the first player who does not wait for a match of that kind is the error.
pub(crate) fn queues_of(
    lists: impl IntoIterator<Item = (String, impl IntoIterator<Item = PlayerId>)>,
    guests: &BTreeMap<PlayerId, Guest>,
) -> Result<BTreeMap<String, MatchQueue>, PlayerId> {
    let mut queues = BTreeMap::new();
    for (kind, players) in lists {
        let mut q = MatchQueue::new();
        for p in players {
            match guests.get(&p).map(|g| &g.activity) {
                Some(Activity::Waiting { kind: k, until }) if *k == kind => {
                    q.push_back(QueueEntry {
                        player: p,
                        until: *until,
                    });
                }
                _ => return Err(p),
            }
        }
        if !q.is_empty() {
            queues.insert(kind, q);
        }
    }
    Ok(queues)
}

/// Every game kind of a lobby must have two seats: matches pair two guests.
fn two_seat_kinds<G: TurnGame>(kinds: &BTreeMap<String, G>) -> Result<(), String> {
    match kinds.iter().find(|(_, game)| game.seats() != 2) {
        Some((name, game)) => Err(format!(
            "game kind {name:?} has {} seats: a lobby plays two-seat games",
            game.seats()
        )),
        None => Ok(()),
    }
}

/// The pending deadlines by time, so that finding the next one costs a logarithm, not a scan
/// of every room and guest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Index {
    by_time: BTreeSet<(Millis, Due)>,
    by_key: BTreeMap<Due, Millis>,
}

impl Index {
    fn set(&mut self, key: Due, at: Option<Millis>) {
        if let Some(old) = self.by_key.remove(&key) {
            self.by_time.remove(&(old, key.clone()));
        }
        if let Some(at) = at {
            self.by_key.insert(key.clone(), at);
            self.by_time.insert((at, key));
        }
    }

    fn first(&self) -> Option<(Millis, Due)> {
        self.by_time.first().cloned()
    }
}

/// A kind of lobby deadline. At the same instant rooms go first, then waits, invites and drops.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Due {
    Room(RoomId),
    Wait(PlayerId),
    Invite(InviteCode),
    Drop(PlayerId),
}

impl<G: TurnGame> Lobby<G> {
    /// A lobby for the given game kinds (a name and the state each game starts from), with the
    /// default [`LobbySettings`], its generator seeded with `seed` (256 bits: take them from the
    /// operating system's entropy, except to replay).
    ///
    /// # Panics
    ///
    /// If a kind is not a two-seat game: matches pair two guests.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_room::Lobby;
    /// let lobby = Lobby::new([("nim".to_owned(), Nim::new(10, 2))], [0; 32]);
    /// assert_eq!(lobby.kinds().collect::<Vec<_>>(), ["nim"]);
    /// ```
    pub fn new(kinds: impl IntoIterator<Item = (String, G)>, seed: [u8; 32]) -> Lobby<G> {
        Lobby::with_settings(LobbySettings::default(), kinds, seed)
    }

    /// A lobby with the given settings (see [`Lobby::new`]).
    ///
    /// # Panics
    ///
    /// If a kind is not a two-seat game: matches pair two guests.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::Span;
    /// use reversi_room::{Lobby, LobbySettings};
    /// let settings = LobbySettings::default().with_queue_wait(Span::from_secs(30));
    /// let lobby = Lobby::with_settings(settings, [("nim".to_owned(), Nim::new(10, 2))], [0; 32]);
    /// assert_eq!(lobby.settings().queue_wait, Span::from_secs(30));
    /// ```
    pub fn with_settings(
        settings: LobbySettings,
        kinds: impl IntoIterator<Item = (String, G)>,
        seed: [u8; 32],
    ) -> Lobby<G> {
        let kinds: BTreeMap<String, G> = kinds.into_iter().collect();
        // Checked here, not when a guest's queue or invite first creates a room of the kind.
        if let Err(why) = two_seat_kinds(&kinds) {
            panic!("{why}");
        }
        Lobby {
            settings,
            kinds,
            guests: BTreeMap::new(),
            queues: BTreeMap::new(),
            invites: BTreeMap::new(),
            rooms: BTreeMap::new(),
            room_kinds: BTreeMap::new(),
            rematches: BTreeMap::new(),
            next_player: 1,
            next_room: 1,
            rng: LobbyRng::from_seed(seed),
            last_now: Millis::EPOCH,
            events: VecDeque::new(),
            index: Index::default(),
        }
    }

    // ---- accessors ----

    /// The settings.
    ///
    /// # Examples
    ///
    /// See [`Lobby::with_settings`].
    #[must_use]
    pub fn settings(&self) -> &LobbySettings {
        &self.settings
    }

    /// The game kinds, by name.
    ///
    /// # Examples
    ///
    /// See [`Lobby::new`].
    pub fn kinds(&self) -> impl Iterator<Item = &str> + '_ {
        self.kinds.keys().map(String::as_str)
    }

    /// What a guest is doing; `None` for someone who is not a guest.
    ///
    /// # Examples
    ///
    /// See [`Activity`].
    #[must_use]
    pub fn activity(&self, player: PlayerId) -> Option<&Activity> {
        self.guests.get(&player).map(|g| &g.activity)
    }

    /// Whether a guest is connected; `None` for someone who is not a guest.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::Lobby;
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (p, _) = lobby.add_guest(Millis(0));
    /// lobby.disconnect(Millis(1), p)?;
    /// assert_eq!(lobby.is_connected(p), Some(false));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn is_connected(&self, player: PlayerId) -> Option<bool> {
        self.guests
            .get(&player)
            .map(|g| g.disconnected_at.is_none())
    }

    /// The guests, by id.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::Lobby;
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (p, _) = lobby.add_guest(Millis(0));
    /// assert_eq!(lobby.guests().collect::<Vec<_>>(), [p]);
    /// ```
    pub fn guests(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.guests.keys().copied()
    }

    /// The room of the game a guest is playing.
    ///
    /// # Examples
    ///
    /// See the [crate] example.
    #[must_use]
    pub fn room_of(&self, player: PlayerId) -> Option<RoomId> {
        match self.guests.get(&player)?.activity {
            Activity::Playing { room } => Some(room),
            _ => None,
        }
    }

    /// A room, in progress or closed (until [`remove_room`](Lobby::remove_room)).
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{Lobby, QueueOutcome, RoomId};
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// let (b, _) = lobby.add_guest(Millis(0));
    /// lobby.queue(Millis(0), a, "nim")?;
    /// let QueueOutcome::Matched { room } = lobby.queue(Millis(0), b, "nim")? else { panic!() };
    /// assert!(lobby.room(room).unwrap().in_game());
    /// assert!(lobby.room(RoomId(99)).is_none());
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn room(&self, room: RoomId) -> Option<&Room<G>> {
        self.rooms.get(&room)
    }

    /// Every room, by id.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_room::Lobby;
    /// let lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// assert_eq!(lobby.rooms().count(), 0);
    /// ```
    pub fn rooms(&self) -> impl Iterator<Item = (RoomId, &Room<G>)> + '_ {
        self.rooms.iter().map(|(id, r)| (*id, r))
    }

    /// The game kind of a room.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_room::{Lobby, RoomId};
    /// let lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// assert_eq!(lobby.room_kind(RoomId(1)), None);
    /// ```
    #[must_use]
    pub fn room_kind(&self, room: RoomId) -> Option<&str> {
        self.room_kinds.get(&room).map(String::as_str)
    }

    /// The rematch of the finished game in `room`, while it can be played: from the end of a
    /// game of two guests until it starts or one of them leaves (or is forgotten after its
    /// grace). It outlives [`remove_room`](Lobby::remove_room).
    ///
    /// # Examples
    ///
    /// See [`Lobby::rematch`].
    #[must_use]
    pub fn rematch_offer(&self, room: RoomId) -> Option<&RematchOffer> {
        self.rematches.get(&room).map(|r| &r.offer)
    }

    /// Every rematch that can be played, by the room of its finished game.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{Lobby, QueueOutcome};
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// let (b, _) = lobby.add_guest(Millis(0));
    /// lobby.queue(Millis(0), a, "nim")?;
    /// let QueueOutcome::Matched { room } = lobby.queue(Millis(0), b, "nim")? else { panic!() };
    /// assert_eq!(lobby.rematch_offers().count(), 0);
    /// lobby.resign(Millis(1_000), a)?;
    /// let rooms: Vec<_> = lobby.rematch_offers().map(|o| o.room()).collect();
    /// assert_eq!(rooms, [room]);
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    pub fn rematch_offers(&self) -> impl Iterator<Item = &RematchOffer> + '_ {
        self.rematches.values().map(|r| &r.offer)
    }

    /// Forgets a closed room (once the application has recorded its result), returning it.
    ///
    /// # Errors
    ///
    /// [`RoomError::NoSuchRoom`] for an unknown room; [`RoomError::GameInProgress`] for a room
    /// that is not closed.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{Lobby, QueueOutcome, RoomError};
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// let (b, _) = lobby.add_guest(Millis(0));
    /// lobby.queue(Millis(0), a, "nim")?;
    /// let QueueOutcome::Matched { room } = lobby.queue(Millis(0), b, "nim")? else { panic!() };
    /// assert_eq!(lobby.remove_room(room).unwrap_err(), RoomError::GameInProgress);
    /// lobby.resign(Millis(1_000), a)?;
    /// assert!(lobby.remove_room(room)?.result().is_some());
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn remove_room(&mut self, room: RoomId) -> Result<Room<G>, RoomError> {
        let r = self
            .rooms
            .get(&room)
            .ok_or(RoomError::NoSuchRoom { room })?;
        if r.closed().is_none() {
            return Err(RoomError::GameInProgress);
        }
        self.room_kinds.remove(&room);
        let removed = self.rooms.remove(&room).expect("checked");
        self.touch(Due::Room(room));
        Ok(removed)
    }

    /// The latest instant the lobby has seen.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::Lobby;
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// lobby.handle_timeout(Millis(9));
    /// assert_eq!(lobby.last_seen(), Millis(9));
    /// ```
    #[must_use]
    pub fn last_seen(&self) -> Millis {
        self.last_now
    }

    // ---- time ----

    /// The next instant at which something happens if no call comes first: a room's deadline,
    /// a wait or an invite expiring, a disconnected guest being forgotten.
    ///
    /// The deadlines are indexed: this costs a lookup, not a scan of the rooms.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::Lobby;
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// lobby.queue(Millis(1_000), a, "nim")?;
    /// assert_eq!(lobby.poll_timeout(), Some(Millis(121_000)));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Millis> {
        self.next_deadline().map(|(t, _)| t)
    }

    /// Runs every deadline at or before `now`, in time order. Harmless to call at any time.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{Activity, Lobby, LobbyEventKind};
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// lobby.queue(Millis(0), a, "nim")?;
    /// lobby.handle_timeout(Millis(200_000));
    /// assert_eq!(lobby.activity(a), Some(&Activity::Idle));
    /// let last = std::iter::from_fn(|| lobby.poll_event()).last().unwrap();
    /// assert_eq!(last.kind, LobbyEventKind::WaitExpired { player: a });
    /// assert_eq!(last.at, Millis(120_000));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    pub fn handle_timeout(&mut self, now: Millis) {
        self.last_now = self.last_now.max(now);
        let now = self.last_now;
        while let Some((at, due)) = self.next_deadline() {
            if at > now {
                break;
            }
            self.fire(at, due);
        }
    }

    /// The oldest event not yet drained (room events included, tagged with their room).
    ///
    /// # Examples
    ///
    /// See [`Lobby::handle_timeout`].
    pub fn poll_event(&mut self) -> Option<LobbyEvent<G::Action>> {
        self.events.pop_front()
    }

    // ---- commands ----

    /// A new guest: its id and its secret reconnection token (to hand to the client only).
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::Lobby;
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, ta) = lobby.add_guest(Millis(0));
    /// let (b, tb) = lobby.add_guest(Millis(0));
    /// assert_ne!(a, b);
    /// assert_ne!(ta, tb);
    /// ```
    pub fn add_guest(&mut self, now: Millis) -> (PlayerId, Token) {
        let now = self.begin(now);
        let token = loop {
            let rng = &mut self.rng;
            let t = Token::from_random(|| rng.next_u64());
            if !self.guests.values().any(|g| g.token == t) {
                break t;
            }
        };
        let player = PlayerId(self.next_player);
        self.next_player += 1;
        self.guests.insert(
            player,
            Guest {
                token: token.clone(),
                activity: Activity::Idle,
                disconnected_at: None,
            },
        );
        self.emit(now, LobbyEventKind::GuestJoined { player });
        (player, token)
    }

    /// Waits for a random match of game `kind`, or pairs the guest at once with one who waits.
    /// Colours (seats) are drawn at random.
    ///
    /// # Errors
    ///
    /// [`RoomError::NotInRoom`] for an unknown guest; [`RoomError::Disconnected`];
    /// [`RoomError::UnknownGameKind`]; [`RoomError::MustResignFirst`] while playing;
    /// [`RoomError::AlreadyWaiting`]; [`RoomError::InviteOpen`].
    ///
    /// # Examples
    ///
    /// See the [crate] example.
    pub fn queue(
        &mut self,
        now: Millis,
        player: PlayerId,
        kind: &str,
    ) -> Result<QueueOutcome, RoomError> {
        let now = self.begin(now);
        self.check_idle(player)?;
        if !self.kinds.contains_key(kind) {
            return Err(RoomError::UnknownGameKind {
                kind: kind.to_owned(),
            });
        }
        let until = now + self.settings.queue_wait;
        let queue = self.queues.entry(kind.to_owned()).or_default();
        let offer = queue.offer(now, player, until);
        if queue.is_empty() {
            self.queues.remove(kind);
        }
        if let QueueOffer::Matched { other } = offer {
            let room = self.create_room(now, kind, [other, player], None, None);
            return Ok(QueueOutcome::Matched { room });
        }
        self.guest_mut(player).activity = Activity::Waiting {
            kind: kind.to_owned(),
            until,
        };
        self.touch_guest(player);
        self.emit(
            now,
            LobbyEventKind::Waiting {
                player,
                kind: kind.to_owned(),
                until,
            },
        );
        Ok(QueueOutcome::Waiting { until })
    }

    /// Cancels the guest's wait for a random match.
    ///
    /// # Errors
    ///
    /// [`RoomError::NotInRoom`]; [`RoomError::Disconnected`]; [`RoomError::NotWaiting`].
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{Activity, Lobby, RoomError};
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// assert_eq!(lobby.cancel_queue(Millis(0), a), Err(RoomError::NotWaiting { player: a }));
    /// lobby.queue(Millis(0), a, "nim")?;
    /// lobby.cancel_queue(Millis(1), a)?;
    /// assert_eq!(lobby.activity(a), Some(&Activity::Idle));
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn cancel_queue(&mut self, now: Millis, player: PlayerId) -> Result<(), RoomError> {
        let now = self.begin(now);
        let guest = self.check_connected(player)?;
        if !matches!(guest.activity, Activity::Waiting { .. }) {
            return Err(RoomError::NotWaiting { player });
        }
        self.stop_waiting(now, player, LobbyEventKind::WaitCancelled { player });
        Ok(())
    }

    /// Creates an invite for game `kind`, with a fresh random code.
    ///
    /// # Errors
    ///
    /// As [`queue`](Lobby::queue).
    ///
    /// # Examples
    ///
    /// See [`Lobby`].
    pub fn create_invite(
        &mut self,
        now: Millis,
        player: PlayerId,
        kind: &str,
    ) -> Result<InviteCode, RoomError> {
        let now = self.begin(now);
        self.check_idle(player)?;
        if !self.kinds.contains_key(kind) {
            return Err(RoomError::UnknownGameKind {
                kind: kind.to_owned(),
            });
        }
        let code = loop {
            let c = InviteCode::generate(&mut self.rng);
            if !self.invites.contains_key(&c) {
                break c;
            }
        };
        let expires_at = now + self.settings.invite_ttl;
        self.invites
            .insert(code.clone(), Invite::new(kind, player, expires_at));
        self.guest_mut(player).activity = Activity::Inviting { code: code.clone() };
        self.touch(Due::Invite(code.clone()));
        self.touch_guest(player);
        self.emit(
            now,
            LobbyEventKind::InviteCreated {
                code: code.clone(),
                player,
                kind: kind.to_owned(),
                expires_at,
            },
        );
        Ok(code)
    }

    /// Cancels the guest's open invite.
    ///
    /// # Errors
    ///
    /// [`RoomError::NotInRoom`]; [`RoomError::Disconnected`]; [`RoomError::NoOpenInvite`].
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{Lobby, RoomError};
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// let (b, _) = lobby.add_guest(Millis(0));
    /// let code = lobby.create_invite(Millis(0), a, "nim")?;
    /// lobby.cancel_invite(Millis(1), a)?;
    /// assert_eq!(lobby.join_invite(Millis(2), b, &code), Err(RoomError::InviteCancelled { code }));
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn cancel_invite(&mut self, now: Millis, player: PlayerId) -> Result<(), RoomError> {
        let now = self.begin(now);
        let guest = self.check_connected(player)?;
        let Activity::Inviting { code } = guest.activity.clone() else {
            return Err(RoomError::NoOpenInvite { player });
        };
        self.invites
            .get_mut(&code)
            .ok_or(RoomError::NoOpenInvite { player })?
            .cancel(player)?;
        self.end_invite(now, &code);
        Ok(())
    }

    /// Joins an invite: the game starts at once, colours drawn at random.
    ///
    /// # Errors
    ///
    /// As [`queue`](Lobby::queue), and [`RoomError::UnknownInvite`],
    /// [`RoomError::InviteExpired`], [`RoomError::InviteCancelled`], [`RoomError::InviteFull`],
    /// [`RoomError::OwnInvite`].
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{InviteCode, Lobby, RoomError};
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// let (b, _) = lobby.add_guest(Millis(0));
    /// let (c, _) = lobby.add_guest(Millis(0));
    /// let code = lobby.create_invite(Millis(0), a, "nim")?;
    /// let unknown: InviteCode = "ABCDEFGH".parse()?;
    /// assert_eq!(lobby.join_invite(Millis(1), b, &unknown), Err(RoomError::UnknownInvite { code: unknown }));
    /// lobby.join_invite(Millis(1), b, &code)?;
    /// assert_eq!(lobby.join_invite(Millis(2), c, &code), Err(RoomError::InviteFull { code }));
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn join_invite(
        &mut self,
        now: Millis,
        player: PlayerId,
        code: &InviteCode,
    ) -> Result<RoomId, RoomError> {
        let now = self.begin(now);
        self.check_idle(player)?;
        let invite = self
            .invites
            .get(code)
            .ok_or_else(|| RoomError::UnknownInvite { code: code.clone() })?;
        invite.check_join(now, player, code)?;
        let (creator, kind) = (invite.creator, invite.kind.clone());
        let room = self.create_room(now, &kind, [creator, player], Some(code.clone()), None);
        self.invites.get_mut(code).expect("checked").use_for(room);
        self.touch(Due::Invite(code.clone()));
        Ok(room)
    }

    /// Plays an action in the guest's game, naming the room state version it was made on.
    ///
    /// # Errors
    ///
    /// [`RoomError::NotInRoom`]; [`RoomError::Disconnected`]; [`RoomError::NoGameInProgress`]
    /// if the guest is not playing (or its game just ended on time); and the room's refusals
    /// ([`RoomError::NotYourTurn`], [`RoomError::StaleVersion`], [`RoomError::IllegalAction`]).
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{Lobby, QueueOutcome, RoomError};
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// let (b, _) = lobby.add_guest(Millis(0));
    /// lobby.queue(Millis(0), a, "nim")?;
    /// let QueueOutcome::Matched { room } = lobby.queue(Millis(0), b, "nim")? else { panic!() };
    /// let first = if lobby.room(room).unwrap().seat_of(a) == Some(0) { a } else { b };
    /// let version = lobby.room(room).unwrap().version();
    /// lobby.act(Millis(1_000), first, version, 2)?;
    /// // The same move again: a duplicate, refused.
    /// assert!(matches!(lobby.act(Millis(1_100), first, version, 2), Err(RoomError::NotYourTurn { .. })));
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn act(
        &mut self,
        now: Millis,
        player: PlayerId,
        version: u64,
        action: G::Action,
    ) -> Result<(), RoomError> {
        let now = self.begin(now);
        let room = self.playing(player)?;
        let r = self
            .rooms
            .get(&room)
            .ok_or(RoomError::NoSuchRoom { room })?;
        let seat = r.seat_of(player).ok_or(RoomError::NotSeated { player })?;
        self.room_command(
            now,
            room,
            player,
            RoomCommand::Act {
                seat,
                version,
                action,
            },
        )
    }

    /// Resigns the guest's game: the opponent wins.
    ///
    /// # Errors
    ///
    /// [`RoomError::NotInRoom`]; [`RoomError::Disconnected`]; [`RoomError::NoGameInProgress`].
    ///
    /// # Examples
    ///
    /// See [`Lobby::remove_room`].
    pub fn resign(&mut self, now: Millis, player: PlayerId) -> Result<(), RoomError> {
        let now = self.begin(now);
        let room = self.playing(player)?;
        self.room_command(now, room, player, RoomCommand::Resign)
    }

    /// Offers the rematch of the finished game in `room`, or accepts the opponent's offer (the
    /// rule is [`RematchOffer::offer`]). Every game of two guests that ends has a rematch, kept
    /// until it is played or one of the two leaves (or is forgotten after its grace).
    ///
    /// The first offer gives [`RematchOutcome::Offered`] and a
    /// [`LobbyEventKind::RematchOffered`] event, for the host to tell the opponent. The
    /// opponent's offer starts the new game between the two, as an invite game would: colours
    /// drawn at random, a [`LobbyEventKind::Matched`] event naming the finished game in
    /// `rematch_of`; the rematch is then used up.
    ///
    /// # Errors
    ///
    /// [`RoomError::NoRematch`] for a room with no rematch (its game is not over, was not
    /// played by two guests, one of them left, or its rematch started);
    /// [`RoomError::NotRematchPlayer`] for someone who did not play it;
    /// [`RoomError::RematchOffered`] for a second offer; as [`queue`](Lobby::queue) when the
    /// player cannot play now; [`RoomError::RematchOpponentBusy`] when accepting while the
    /// player who offered cannot (the offer stays).
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::Millis;
    /// use reversi_room::{Lobby, LobbyEventKind, QueueOutcome, RematchOutcome, RoomError};
    ///
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// let (b, _) = lobby.add_guest(Millis(0));
    /// lobby.queue(Millis(0), a, "nim")?;
    /// let QueueOutcome::Matched { room } = lobby.queue(Millis(0), b, "nim")? else { panic!() };
    /// assert_eq!(lobby.rematch(Millis(500), a, room), Err(RoomError::NoRematch { room }));
    /// lobby.resign(Millis(1_000), a)?;
    /// while lobby.poll_event().is_some() {}
    ///
    /// assert_eq!(lobby.rematch(Millis(2_000), b, room)?, RematchOutcome::Offered { to: a });
    /// assert_eq!(
    ///     lobby.poll_event().unwrap().kind,
    ///     LobbyEventKind::RematchOffered { room, by: b, to: a },
    /// );
    /// assert_eq!(lobby.rematch(Millis(2_500), b, room), Err(RoomError::RematchOffered { player: b, room }));
    ///
    /// let RematchOutcome::Started { room: again } = lobby.rematch(Millis(3_000), a, room)? else { panic!() };
    /// assert_eq!(lobby.room_of(a), Some(again));
    /// assert_eq!(lobby.room_of(b), Some(again));
    /// assert!(matches!(
    ///     lobby.poll_event().unwrap().kind,
    ///     LobbyEventKind::Matched { room: r, rematch_of: Some(old), .. } if r == again && old == room
    /// ));
    /// // Used up.
    /// assert_eq!(lobby.rematch_offer(room), None);
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn rematch(
        &mut self,
        now: Millis,
        player: PlayerId,
        room: RoomId,
    ) -> Result<RematchOutcome, RoomError> {
        let now = self.begin(now);
        let entry = self
            .rematches
            .get(&room)
            .ok_or(RoomError::NoRematch { room })?;
        // The rule is applied to a copy: the lobby keeps it only if the rest agrees.
        let mut offer = entry.offer;
        let step = offer.offer(player)?;
        self.check_idle(player)?;
        match step {
            RematchStep::Offered { to } => {
                self.rematches.get_mut(&room).expect("checked").offer = offer;
                self.emit(
                    now,
                    LobbyEventKind::RematchOffered {
                        room,
                        by: player,
                        to,
                    },
                );
                Ok(RematchOutcome::Offered { to })
            }
            RematchStep::Accepted { offerer } => {
                if self.check_idle(offerer).is_err() {
                    return Err(RoomError::RematchOpponentBusy {
                        room,
                        opponent: offerer,
                    });
                }
                let kind = self.rematches.remove(&room).expect("checked").kind;
                let new = self.create_room(now, &kind, [offerer, player], None, Some(room));
                Ok(RematchOutcome::Started { room: new })
            }
        }
    }

    /// The application lost the guest's connection. A wait is cancelled; an invite stays open; in
    /// a game the guest has the room's grace (60 s online) while its clock keeps running. A guest
    /// that is not playing is forgotten after [`LobbySettings::reconnect_grace`].
    ///
    /// # Errors
    ///
    /// [`RoomError::NotInRoom`]; [`RoomError::Disconnected`] if already disconnected.
    ///
    /// # Examples
    ///
    /// See [`Lobby`].
    pub fn disconnect(&mut self, now: Millis, player: PlayerId) -> Result<(), RoomError> {
        let now = self.begin(now);
        let guest = self.check_connected(player)?;
        let activity = guest.activity.clone();
        self.guest_mut(player).disconnected_at = Some(now);
        self.touch_guest(player);
        self.emit(now, LobbyEventKind::GuestDisconnected { player });
        match activity {
            Activity::Waiting { .. } => {
                self.stop_waiting(now, player, LobbyEventKind::WaitCancelled { player });
            }
            Activity::Playing { room } => {
                let _ = self.room_command(now, room, player, RoomCommand::Disconnect);
            }
            Activity::Idle | Activity::Inviting { .. } => {}
        }
        Ok(())
    }

    /// A guest comes back with the token it got at [`add_guest`](Lobby::add_guest); returns its
    /// id. It finds its game where the clock left it.
    ///
    /// # Errors
    ///
    /// [`RoomError::WrongToken`] if no guest has the token (never issued, or the guest was
    /// forgotten); [`RoomError::AlreadyConnected`].
    ///
    /// # Examples
    ///
    /// See [`Lobby`].
    pub fn reconnect(&mut self, now: Millis, token: &Token) -> Result<PlayerId, RoomError> {
        let now = self.begin(now);
        let (&player, guest) = self
            .guests
            .iter()
            .find(|(_, g)| &g.token == token)
            .ok_or(RoomError::WrongToken)?;
        if guest.disconnected_at.is_none() {
            return Err(RoomError::AlreadyConnected { player });
        }
        let activity = guest.activity.clone();
        self.guest_mut(player).disconnected_at = None;
        self.touch_guest(player);
        self.emit(now, LobbyEventKind::GuestReconnected { player });
        if let Activity::Playing { room } = activity {
            let _ = self.room_command(now, room, player, RoomCommand::Reconnect);
        }
        Ok(player)
    }

    /// The guest leaves for good: its wait or invite is cancelled, its game is abandoned (the
    /// opponent wins), and its token stops working.
    ///
    /// # Errors
    ///
    /// [`RoomError::NotInRoom`] for an unknown guest.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{EndReason, Lobby, SeatOutcome, QueueOutcome};
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [0; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// let (b, _) = lobby.add_guest(Millis(0));
    /// lobby.queue(Millis(0), a, "nim")?;
    /// let QueueOutcome::Matched { room } = lobby.queue(Millis(0), b, "nim")? else { panic!() };
    /// lobby.leave(Millis(3_000), a)?;
    /// let r = lobby.room(room).unwrap();
    /// let seat_a = r.seats().iter().position(|o| o.as_ref().is_none()).unwrap();
    /// let result = r.result().unwrap();
    /// assert_eq!(result.reason, EndReason::Abandoned { seat: seat_a });
    /// assert_eq!(result.outcome, SeatOutcome::Winner(1 - seat_a));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    pub fn leave(&mut self, now: Millis, player: PlayerId) -> Result<(), RoomError> {
        let now = self.begin(now);
        let guest = self
            .guests
            .get(&player)
            .ok_or(RoomError::NotInRoom { player })?;
        let activity = guest.activity.clone();
        self.forget(now, player, activity, LobbyEventKind::GuestLeft { player });
        Ok(())
    }

    // ---- internals ----

    fn begin(&mut self, now: Millis) -> Millis {
        debug_assert_eq!(
            self.index,
            self.rebuilt_index(),
            "the deadline index is stale"
        );
        self.handle_timeout(now);
        self.last_now
    }

    /// The deadline of one entity, from its state.
    fn due(&self, key: &Due) -> Option<Millis> {
        match key {
            Due::Room(id) => self.rooms.get(id)?.poll_timeout(),
            Due::Wait(p) => match self.guests.get(p)?.activity {
                Activity::Waiting { until, .. } => Some(until),
                _ => None,
            },
            Due::Drop(p) => {
                let g = self.guests.get(p)?;
                match g.activity {
                    Activity::Playing { .. } => None,
                    _ => g.disconnected_at.map(|t| t + self.settings.reconnect_grace),
                }
            }
            // An open invite expires; a closed one is forgotten one lifetime after its expiry
            // (until then a late joiner learns why it is closed).
            Due::Invite(code) => {
                let i = self.invites.get(code)?;
                Some(if i.status == InviteStatus::Open {
                    i.expires_at
                } else {
                    i.expires_at + self.settings.invite_ttl
                })
            }
        }
    }

    fn touch(&mut self, key: Due) {
        let at = self.due(&key);
        self.index.set(key, at);
    }

    fn touch_guest(&mut self, p: PlayerId) {
        self.touch(Due::Wait(p));
        self.touch(Due::Drop(p));
    }

    /// The index as a full scan computes it.
    pub(crate) fn rebuilt_index(&self) -> Index {
        let mut index = Index::default();
        let keys = self
            .rooms
            .keys()
            .map(|&r| Due::Room(r))
            .chain(
                self.guests
                    .keys()
                    .flat_map(|&p| [Due::Wait(p), Due::Drop(p)]),
            )
            .chain(self.invites.keys().map(|c| Due::Invite(c.clone())));
        for key in keys {
            let at = self.due(&key);
            index.set(key, at);
        }
        index
    }

    fn emit(&mut self, at: Millis, kind: LobbyEventKind<G::Action>) {
        self.events.push_back(LobbyEvent { at, kind });
    }

    fn guest_mut(&mut self, player: PlayerId) -> &mut Guest {
        self.guests.get_mut(&player).expect("a known guest")
    }

    fn check_connected(&self, player: PlayerId) -> Result<&Guest, RoomError> {
        let guest = self
            .guests
            .get(&player)
            .ok_or(RoomError::NotInRoom { player })?;
        if guest.disconnected_at.is_some() {
            return Err(RoomError::Disconnected { player });
        }
        Ok(guest)
    }

    fn check_idle(&self, player: PlayerId) -> Result<(), RoomError> {
        self.check_connected(player)?.activity.require_idle(player)
    }

    fn playing(&self, player: PlayerId) -> Result<RoomId, RoomError> {
        match self.check_connected(player)?.activity {
            Activity::Playing { room } => Ok(room),
            _ => Err(RoomError::NoGameInProgress),
        }
    }

    fn stop_waiting(&mut self, now: Millis, player: PlayerId, event: LobbyEventKind<G::Action>) {
        let guest = self.guest_mut(player);
        if let Activity::Waiting { kind, .. } =
            std::mem::replace(&mut guest.activity, Activity::Idle)
        {
            if let Some(q) = self.queues.get_mut(&kind) {
                q.cancel(player);
                if q.is_empty() {
                    self.queues.remove(&kind);
                }
            }
        }
        self.touch_guest(player);
        self.emit(now, event);
    }

    /// An invite that its rule just closed (cancelled or expired): its creator is idle again.
    fn end_invite(&mut self, now: Millis, code: &InviteCode) {
        let invite = &self.invites[code];
        let (creator, status) = (invite.creator, invite.status);
        if let Some(g) = self.guests.get_mut(&creator) {
            if matches!(&g.activity, Activity::Inviting { code: c } if c == code) {
                g.activity = Activity::Idle;
            }
        }
        self.touch(Due::Invite(code.clone()));
        self.touch_guest(creator);
        let kind = match status {
            InviteStatus::Expired => LobbyEventKind::InviteExpired { code: code.clone() },
            _ => LobbyEventKind::InviteCancelled { code: code.clone() },
        };
        self.emit(now, kind);
    }

    fn forget(
        &mut self,
        now: Millis,
        player: PlayerId,
        activity: Activity,
        event: LobbyEventKind<G::Action>,
    ) {
        match activity {
            Activity::Waiting { .. } => {
                self.stop_waiting(now, player, LobbyEventKind::WaitCancelled { player });
            }
            Activity::Inviting { code } => {
                if self
                    .invites
                    .get_mut(&code)
                    .is_some_and(|i| i.cancel(player).is_ok())
                {
                    self.end_invite(now, &code);
                }
            }
            Activity::Playing { room } => {
                let _ = self.room_command(now, room, player, RoomCommand::Leave);
            }
            Activity::Idle => {}
        }
        // Its rematches can no longer be played.
        self.rematches
            .retain(|_, r| r.offer.opponent_of(player).is_none());
        self.guests.remove(&player);
        self.touch_guest(player);
        self.emit(now, event);
    }

    fn create_room(
        &mut self,
        now: Millis,
        kind: &str,
        players: [PlayerId; 2],
        invite: Option<InviteCode>,
        rematch_of: Option<RoomId>,
    ) -> RoomId {
        let players = draw_seats(players, self.rng.next_u64());
        let initial = self.kinds[kind].clone();
        let id = RoomId(self.next_room);
        self.next_room += 1;
        let room = Room::online(now, &players, self.settings.room, initial)
            .expect("two distinct players, and every kind has two seats");
        self.rooms.insert(id, room);
        self.room_kinds.insert(id, kind.to_owned());
        for p in players {
            self.guest_mut(p).activity = Activity::Playing { room: id };
            self.touch_guest(p);
        }
        self.emit(
            now,
            LobbyEventKind::Matched {
                room: id,
                kind: kind.to_owned(),
                seats: players.to_vec(),
                invite,
                rematch_of,
            },
        );
        self.pump(id);
        id
    }

    fn room_command(
        &mut self,
        now: Millis,
        room: RoomId,
        player: PlayerId,
        command: RoomCommand<G::Action>,
    ) -> Result<(), RoomError> {
        let r = self
            .rooms
            .get_mut(&room)
            .ok_or(RoomError::NoSuchRoom { room })?;
        let seen = r.last_seen();
        let result = r.handle(now, player, command);
        if result.is_err() {
            // The lobby ran the room's deadlines already: the refused command only moved the
            // room's clock reading, which is put back so that the lobby is exactly as it was.
            r.restore_last_seen(seen);
        }
        self.pump(room);
        result
    }

    /// Moves a room's events out, and frees its players once the game is over.
    fn pump(&mut self, room: RoomId) {
        let Some(r) = self.rooms.get_mut(&room) else {
            return;
        };
        let mut over = false;
        let mut ended = false;
        while let Some(event) = r.poll_event() {
            over |= matches!(
                event.kind,
                EventKind::GameEnded { .. } | EventKind::Closed { .. }
            );
            ended |= matches!(event.kind, EventKind::GameEnded { .. });
            self.events.push_back(LobbyEvent {
                at: event.at,
                kind: LobbyEventKind::Room { room, event },
            });
        }
        if ended {
            self.open_rematch(room);
        }
        if over {
            let players: Vec<PlayerId> = self
                .guests
                .iter()
                .filter(|(_, g)| g.activity == (Activity::Playing { room }))
                .map(|(&p, _)| p)
                .collect();
            for p in players {
                self.guest_mut(p).activity = Activity::Idle;
                self.touch_guest(p);
            }
        }
        self.touch(Due::Room(room));
    }

    /// The rematch of a game that ended, when two guests played it.
    fn open_rematch(&mut self, room: RoomId) {
        let (Some(r), Some(kind)) = (self.rooms.get(&room), self.room_kinds.get(&room)) else {
            return;
        };
        let people: Vec<PlayerId> = r
            .seats()
            .iter()
            .filter_map(|s| s.as_ref()?.person())
            .filter(|p| self.guests.contains_key(p))
            .collect();
        if let [a, b] = people[..] {
            if let Ok(offer) = RematchOffer::new(room, [a, b]) {
                let kind = kind.clone();
                // A player's last game is the one to play again: older offers that involve
                // either player go, so there is at most one offer per guest.
                self.rematches.retain(|_, r| {
                    r.offer.opponent_of(a).is_none() && r.offer.opponent_of(b).is_none()
                });
                self.rematches.insert(room, Rematch { kind, offer });
            }
        }
    }

    fn next_deadline(&self) -> Option<(Millis, Due)> {
        self.index.first()
    }

    fn fire(&mut self, at: Millis, due: Due) {
        match due {
            Due::Room(id) => {
                if let Some(r) = self.rooms.get_mut(&id) {
                    r.handle_timeout(at);
                }
                self.pump(id);
            }
            Due::Wait(player) => {
                self.stop_waiting(at, player, LobbyEventKind::WaitExpired { player });
            }
            Due::Invite(code) => {
                let open = self.invites.get(&code).map(|i| i.status) == Some(InviteStatus::Open);
                if open {
                    if self.invites.get_mut(&code).is_some_and(|i| i.expire(at)) {
                        self.end_invite(at, &code);
                    }
                } else {
                    self.invites.remove(&code);
                    self.touch(Due::Invite(code));
                }
            }
            Due::Drop(player) => {
                let activity = self.guests[&player].activity.clone();
                self.forget(
                    at,
                    player,
                    activity,
                    LobbyEventKind::GuestDropped { player },
                );
            }
        }
    }
}
