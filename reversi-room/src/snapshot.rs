//! Public, versioned snapshots of rooms and lobbies: plain data that a host stores (in a file, a
//! database, Redis) and gives back to go on where it was.
//!
//! A snapshot holds everything a [`Room`] or a [`Lobby`] needs to go on, as public fields of
//! public types, and its format version in `format` ([`SNAPSHOT_FORMAT`]). Unlike the rooms'
//! own serde form, which follows their private fields, a snapshot's shape only changes with a new
//! format version. [`Room::from_snapshot`] and [`Lobby::from_snapshot`] check everything they are
//! given and say what is wrong in a [`SnapshotError`]; what they accept behaves as the room or
//! lobby that was saved, and gives the same snapshot back.
//!
//! Not in a snapshot: events not yet drained (drain them first), and the per-turn history a
//! [`Clock`] keeps for [`Clock::undo`], which rooms never use.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;

use reversi_clock::{Clock, ClockStatus, Millis, Span, TimeControl};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::LobbyRng;
use crate::lobby::{Guest, Index, Rematch};
use crate::matching::{Invite, InviteStatus};
use crate::room::Table;
use crate::{
    Activity, CloseReason, GameResult, InviteCode, Lobby, LobbySettings, Member, Occupant,
    PlayerId, RematchOffer, RematchState, Room, RoomId, RoomSettings, TimedGame, Token, TurnGame,
};

/// The format version of the snapshots this crate writes, and the only one it reads. A change to
/// the fields of the snapshot types comes with a new format version, except a field added with a
/// default that older snapshots are read with (such as [`LobbySnapshot::rematches`]).
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{PlayerId, Room, RoomSettings, SNAPSHOT_FORMAT};
/// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
/// assert_eq!(room.snapshot().format, SNAPSHOT_FORMAT);
/// # Ok::<(), reversi_room::RoomError>(())
/// ```
pub const SNAPSHOT_FORMAT: u32 = 1;

/// Why a snapshot cannot become a room or a lobby.
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{PlayerId, Room, RoomSettings, SnapshotError};
/// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
/// let mut snapshot = room.snapshot();
/// snapshot.format = 99;
/// let err = Room::from_snapshot(snapshot).unwrap_err();
/// assert_eq!(err, SnapshotError::UnsupportedFormat { found: 99 });
/// assert_eq!(err.to_string(), "snapshot format 99, and this version of the crate reads format 1");
/// # Ok::<(), reversi_room::RoomError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// A format version other than [`SNAPSHOT_FORMAT`].
    #[error(
        "snapshot format {found}, and this version of the crate reads format {SNAPSHOT_FORMAT}"
    )]
    UnsupportedFormat {
        /// The version found.
        found: u32,
    },
    /// A room's seats, its game or its clock do not have the game's number of seats.
    #[error("{what} has {found} seats, the game {seats}")]
    SeatCount {
        /// What has the wrong number: `"the room"`, `"the game"`.
        what: &'static str,
        /// How many it has.
        found: usize,
        /// How many the game has.
        seats: usize,
    },
    /// A player listed twice (a room's member, a seat, a lobby's guest or queue).
    #[error("{player} is listed twice in {list}")]
    DuplicatePlayer {
        /// Who.
        player: PlayerId,
        /// Where: `"the members"`, `"the seats"`, `"the guests"`, `"the queues"`.
        list: &'static str,
    },
    /// A room listed twice in a lobby.
    #[error("{room} is listed twice")]
    DuplicateRoom {
        /// Which.
        room: RoomId,
    },
    /// An invite listed twice in a lobby.
    #[error("the invite {code} is listed twice")]
    DuplicateInvite {
        /// Its code.
        code: InviteCode,
    },
    /// A game kind listed twice in a lobby.
    #[error("the game kind {kind:?} is listed twice")]
    DuplicateKind {
        /// The kind.
        kind: String,
    },
    /// A game kind a lobby does not have, or one that is not a two-seat game.
    #[error("game kind {kind:?}: {problem}")]
    BadKind {
        /// The kind.
        kind: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A guest's reconnection token is empty, or another guest's too (the token itself is a
    /// secret, and is not repeated here).
    #[error("{player}'s reconnection token is {problem}")]
    BadToken {
        /// The guest.
        player: PlayerId,
        /// `"empty"` or `"another guest's"`.
        problem: &'static str,
    },
    /// A guest's number or a room's not below the lobby's next number, which would be handed
    /// out again.
    #[error("{what} {id} is not below the next number {next}")]
    NumberAhead {
        /// `"guest"`, `"room"` or `"rematch's room"`.
        what: &'static str,
        /// Its number.
        id: u64,
        /// The lobby's next number.
        next: u64,
    },
    /// A counter (a room's version or games, a lobby's next numbers) too close to `u64::MAX` to
    /// count on from (the limit is 2^63).
    #[error("{what} {value} leaves no room to count on")]
    CounterTooLarge {
        /// Which counter: `"version"`, `"games started"`, `"next guest"`, `"next room"`.
        what: &'static str,
        /// Its value.
        value: u64,
    },
    /// A generator position that ChaCha20 cannot take (positions have 68 bits).
    #[error("the generator's position {word_pos} is out of range")]
    BadGenerator {
        /// The position given.
        word_pos: u128,
    },
    /// Anything else that does not hold together, said in words (a seat, a clock, a game that
    /// does not agree with the rest).
    #[error("{0}")]
    Inconsistent(String),
    /// An online room of a lobby is wrong.
    #[error("{room}: {error}")]
    InRoom {
        /// Which room.
        room: RoomId,
        /// What is wrong with it.
        error: Box<SnapshotError>,
    },
}

fn inconsistent<T>(what: impl Into<String>) -> Result<T, SnapshotError> {
    Err(SnapshotError::Inconsistent(what.into()))
}

/// Counters count on from a snapshot: they must be far from overflowing.
fn check_counter(what: &'static str, value: u64) -> Result<(), SnapshotError> {
    if value < 1 << 63 {
        Ok(())
    } else {
        Err(SnapshotError::CounterTooLarge { what, value })
    }
}

fn check_format(found: u32) -> Result<(), SnapshotError> {
    if found == SNAPSHOT_FORMAT {
        Ok(())
    } else {
        Err(SnapshotError::UnsupportedFormat { found })
    }
}

// ---- the room ----

/// A [`Room`] as plain data: made by [`Room::snapshot`], made a room again by
/// [`Room::from_snapshot`]. With the `serde` feature it serialises when the game does.
///
/// [`Room::snapshot`] lists the members by id ([`Room::from_snapshot`] takes them in any order);
/// instants are wall-clock milliseconds.
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{PlayerId, Room, RoomSettings};
/// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
/// let snapshot = room.snapshot();
/// assert_eq!(snapshot.members.len(), 2);
/// assert_eq!(snapshot.game.as_ref().unwrap().number, 1);
/// let text = serde_json::to_string(&snapshot).unwrap();
/// let back = Room::from_snapshot(serde_json::from_str(&text).unwrap()).unwrap();
/// assert_eq!(back.snapshot(), snapshot);
/// # Ok::<(), reversi_room::RoomError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct RoomSnapshot<G> {
    /// The snapshot's format version, [`SNAPSHOT_FORMAT`].
    pub format: u32,
    /// The room's settings.
    pub settings: RoomSettings,
    /// The host, if the room has one (they may have left it).
    pub host: Option<PlayerId>,
    /// The state every game of the room starts from.
    pub initial: G,
    /// The people in the room, by id.
    pub members: Vec<MemberSnapshot>,
    /// Who sits in each seat.
    pub seats: Vec<Option<Occupant>>,
    /// Who reserved the bot's seat, if anyone.
    pub reservation: Option<PlayerId>,
    /// Whether the bot leaves at the end of the game.
    pub bot_leaving: bool,
    /// The number of games started in the room.
    pub games_started: u64,
    /// The game in progress, or the last one once over.
    pub game: Option<GameSnapshot<G>>,
    /// When the room closes unless someone comes back.
    pub closes_at: Option<Millis>,
    /// Why the room closed, if it did.
    pub closed: Option<CloseReason>,
    /// The room's state version ([`Room::version`]).
    pub version: u64,
    /// The latest instant the room has seen.
    pub last_seen: Millis,
}

/// A person in a room, in a [`RoomSnapshot`].
///
/// # Examples
///
/// ```
/// use reversi_clock::Millis;
/// use reversi_room::{MemberSnapshot, PlayerId};
/// let away = MemberSnapshot { player: PlayerId(3), disconnected_at: Some(Millis(5)), grace_until: Some(Millis(60_005)) };
/// assert_eq!(away.player, PlayerId(3));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MemberSnapshot {
    /// Who.
    pub player: PlayerId,
    /// When they disconnected, if they are disconnected.
    pub disconnected_at: Option<Millis>,
    /// When their grace ends, if they are disconnected.
    pub grace_until: Option<Millis>,
}

/// The game of a room, in a [`RoomSnapshot`].
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::{Millis, Span};
/// use reversi_room::{ClockPhase, PlayerId, Room, RoomSettings};
/// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
/// let game = room.snapshot().game.unwrap();
/// assert_eq!(game.state, Nim::new(9, 2));
/// assert_eq!(game.clock.phase, ClockPhase::Running { side: 0, used: Span::ZERO });
/// # Ok::<(), reversi_room::RoomError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct GameSnapshot<G> {
    /// Its number in the room, from 1: the room's [`RoomSnapshot::games_started`].
    pub number: u64,
    /// The game's state.
    pub state: G,
    /// When it started.
    pub started_at: Millis,
    /// When it reaches the game-length limit, if the room has one.
    pub limit_at: Option<Millis>,
    /// The version at which the current turn began.
    pub turn_version: u64,
    /// Whether the host paused it.
    pub paused_by_host: bool,
    /// Whether it paused because no person was connected (the host's pause may hold too).
    pub paused_nobody_connected: bool,
    /// Its result, once over.
    pub result: Option<GameResult>,
    /// Its per-action clock.
    pub clock: ClockSnapshot,
}

/// A room's per-action clock (its control is the room's
/// [`action_limit`](RoomSettings::action_limit) per move): where the current turn stands at the
/// instant `seen`.
///
/// # Examples
///
/// ```
/// use reversi_clock::{Millis, Span};
/// use reversi_room::{ClockPhase, ClockSnapshot};
/// // Seat 1's turn, 12 s of it used at 100 s.
/// let clock = ClockSnapshot { seen: Millis(100_000), phase: ClockPhase::Running { side: 1, used: Span::from_secs(12) } };
/// assert_eq!(clock.phase.side(), Some(1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ClockSnapshot {
    /// The latest instant the clock has seen.
    pub seen: Millis,
    /// Where the turn stands then.
    pub phase: ClockPhase,
}

/// Where the current turn of a room's clock stands, in a [`ClockSnapshot`]. `used` is the time
/// the turn has used at the snapshot's instant.
///
/// # Examples
///
/// See [`ClockSnapshot`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "phase", rename_all = "snake_case"))]
pub enum ClockPhase {
    /// `side`'s time runs.
    Running {
        /// Whose turn.
        side: usize,
        /// The time used in the turn.
        used: Span,
    },
    /// `side`'s turn, its time frozen.
    Paused {
        /// Whose turn.
        side: usize,
        /// The time used in the turn.
        used: Span,
    },
    /// `side` ran out of time at `at`.
    Flagged {
        /// Who.
        side: usize,
        /// When.
        at: Millis,
    },
    /// Stopped (the game ended) on `side`'s turn, or before any turn.
    Stopped {
        /// Whose turn it was.
        side: Option<usize>,
        /// The time used in that turn.
        used: Span,
    },
}

impl ClockPhase {
    /// The side the phase names, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// use reversi_room::ClockPhase;
    /// assert_eq!(ClockPhase::Stopped { side: None, used: Span::ZERO }.side(), None);
    /// ```
    #[must_use]
    pub fn side(&self) -> Option<usize> {
        match *self {
            ClockPhase::Running { side, .. }
            | ClockPhase::Paused { side, .. }
            | ClockPhase::Flagged { side, .. } => Some(side),
            ClockPhase::Stopped { side, .. } => side,
        }
    }
}

/// A room's clock as a [`ClockSnapshot`].
fn clock_snapshot(clock: &Clock) -> ClockSnapshot {
    let seen = clock.last_seen();
    let used = |side: usize| match clock.control() {
        TimeControl::PerMove { limit } => {
            limit.saturating_sub(clock.remaining(side, seen).unwrap_or(limit))
        }
        _ => Span::ZERO,
    };
    let phase = match clock.status() {
        ClockStatus::Running { side } => ClockPhase::Running {
            side,
            used: used(side),
        },
        ClockStatus::Paused { side } => ClockPhase::Paused {
            side,
            used: used(side),
        },
        ClockStatus::Flagged { side, at } => ClockPhase::Flagged { side, at },
        ClockStatus::Stopped { side } => ClockPhase::Stopped {
            side,
            used: side.map_or(Span::ZERO, used),
        },
        // A room's clock is started with its game (a game over from the start stops it at once).
        _ => ClockPhase::Stopped {
            side: None,
            used: Span::ZERO,
        },
    };
    ClockSnapshot { seen, phase }
}

/// The room's clock from its snapshot, made with the clock's public operations, and checked to
/// give the same snapshot back.
fn clock_from(c: &ClockSnapshot, limit: Span, sides: usize) -> Result<Clock, SnapshotError> {
    if let Some(side) = c.phase.side().filter(|&s| s >= sides) {
        return inconsistent(format!(
            "the clock names side {side}, and the game has {sides} seats"
        ));
    }
    let seen = c.seen;
    // The instant the turn began, as if it had run unpaused; the turn must not be over.
    let began = |used: Span| -> Result<Millis, SnapshotError> {
        if used >= limit {
            return inconsistent(format!(
                "the clock's turn used {used}, as much as its limit of {limit}, without a flag"
            ));
        }
        match seen.0.checked_sub(used.as_millis()) {
            Some(t) => Ok(Millis(t)),
            None => inconsistent(format!(
                "the clock's turn used {used} by the instant {seen}"
            )),
        }
    };
    let mut clock = Clock::new(TimeControl::per_move(limit), sides);
    let ok = match c.phase {
        ClockPhase::Running { side, used } => clock.start(began(used)?, side),
        ClockPhase::Paused { side, used } => clock
            .start(began(used)?, side)
            .and_then(|()| clock.pause(seen)),
        ClockPhase::Flagged { side, at } => {
            if at > seen {
                return inconsistent(format!(
                    "the clock flagged at {at}, after the instant {seen} it has seen"
                ));
            }
            let Some(start) = at.0.checked_sub(limit.as_millis()) else {
                return inconsistent(format!("the clock flagged at {at}, before its limit"));
            };
            let started = clock.start(Millis(start), side);
            clock.handle_timeout(at);
            while clock.poll_event().is_some() {}
            started
        }
        ClockPhase::Stopped {
            side: Some(side),
            used,
        } => clock
            .start(began(used)?, side)
            .and_then(|()| clock.stop(seen)),
        ClockPhase::Stopped { side: None, used } => {
            if !used.is_zero() {
                return inconsistent("a clock stopped before any turn has used time");
            }
            clock.stop(seen)
        }
    };
    clock.handle_timeout(seen);
    if let Err(e) = ok {
        return inconsistent(format!("the clock cannot be set up: {e}"));
    }
    let back = clock_snapshot(&clock);
    if back != *c {
        return inconsistent(format!(
            "the clock does not hold together: {c:?} is read as {back:?}"
        ));
    }
    Ok(clock)
}

impl<G: TurnGame> Room<G> {
    /// The room as plain data, to store and to give to [`Room::from_snapshot`] later. Events
    /// not yet drained are not in it.
    ///
    /// # Examples
    ///
    /// A room saved, and loaded again:
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::Millis;
    /// use reversi_room::{PlayerId, Room, RoomActionLimit, RoomCommand, RoomSettings};
    /// let host = PlayerId(1);
    /// let mut room = Room::hosted(Millis(0), host, RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(9, 2));
    /// room.handle(Millis(0), host, RoomCommand::Sit { seat: 0 })?;
    /// room.handle(Millis(0), host, RoomCommand::AddBot { seat: 1, level: "easy".into() })?;
    /// room.handle(Millis(0), host, RoomCommand::Start)?;
    /// let mut back = Room::from_snapshot(room.snapshot()).unwrap();
    /// assert_eq!(back.snapshot(), room.snapshot());
    /// assert_eq!(back.poll_timeout(), Some(Millis(30_000)));
    /// assert_eq!(back.poll_event(), None); // the events were not saved
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn snapshot(&self) -> RoomSnapshot<G> {
        RoomSnapshot {
            format: SNAPSHOT_FORMAT,
            settings: self.settings,
            host: self.host,
            initial: self.initial.clone(),
            members: self
                .members
                .iter()
                .map(|(&player, m)| MemberSnapshot {
                    player,
                    disconnected_at: m.disconnected_at,
                    grace_until: m.grace_until,
                })
                .collect(),
            seats: self.seats.clone(),
            reservation: self.reservation,
            bot_leaving: self.bot_leaving,
            games_started: self.games,
            game: self.table.as_ref().map(|t| GameSnapshot {
                number: t.game.number(),
                state: t.game.state().clone(),
                started_at: t.started_at,
                limit_at: t.limit_at,
                turn_version: t.game.turn_version(),
                paused_by_host: t.host_paused,
                paused_nobody_connected: t.auto_paused,
                result: t.game.result(),
                clock: clock_snapshot(t.game.clock()),
            }),
            closes_at: self.close_at,
            closed: self.closed,
            version: self.version,
            last_seen: self.last_now,
        }
    }

    /// A room from its snapshot, checked: the format, the seats against the game, the members,
    /// the one bot and its reservation, the game against its clock and result, the closing.
    /// The room goes on as the one saved did (the deadlines that passed since `last_seen` run
    /// at the next call that takes `now`).
    ///
    /// # Errors
    ///
    /// A [`SnapshotError`] saying what is wrong; no input makes it panic.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::Millis;
    /// use reversi_room::{Occupant, PlayerId, Room, RoomSettings, SnapshotError};
    /// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// let mut snapshot = room.snapshot();
    /// snapshot.seats[1] = Some(Occupant::Person { player: PlayerId(1) });
    /// assert_eq!(
    ///     Room::from_snapshot(snapshot),
    ///     Err(SnapshotError::DuplicatePlayer { player: PlayerId(1), list: "the seats" }),
    /// );
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    pub fn from_snapshot(mut s: RoomSnapshot<G>) -> Result<Room<G>, SnapshotError> {
        check_format(s.format)?;
        check_counter("version", s.version)?;
        check_counter("games started", s.games_started)?;
        let seats = s.initial.seats();
        if seats == 0 {
            return inconsistent("the game has no seat");
        }
        if s.seats.len() != seats {
            return Err(SnapshotError::SeatCount {
                what: "the room",
                found: s.seats.len(),
                seats,
            });
        }
        let mut members = BTreeMap::new();
        for m in &s.members {
            if m.disconnected_at.is_some() != m.grace_until.is_some() {
                return inconsistent(format!(
                    "{} has a disconnection without a grace, or a grace without a disconnection",
                    m.player
                ));
            }
            let member = Member {
                disconnected_at: m.disconnected_at,
                grace_until: m.grace_until,
            };
            if members.insert(m.player, member).is_some() {
                return Err(SnapshotError::DuplicatePlayer {
                    player: m.player,
                    list: "the members",
                });
            }
        }
        let mut seated = BTreeSet::new();
        let mut bot = None;
        for (seat, o) in s.seats.iter().enumerate() {
            match o {
                Some(Occupant::Person { player }) => {
                    if !members.contains_key(player) {
                        return inconsistent(format!(
                            "{player} sits in seat {seat} but is not in the room"
                        ));
                    }
                    if !seated.insert(*player) {
                        return Err(SnapshotError::DuplicatePlayer {
                            player: *player,
                            list: "the seats",
                        });
                    }
                }
                Some(Occupant::Bot { .. }) => {
                    if bot.is_some() {
                        return inconsistent(format!("a second bot sits in seat {seat}"));
                    }
                    bot = Some(seat);
                }
                None => {}
            }
        }
        let table = match s.game.take() {
            None => {
                if s.games_started != 0 {
                    return inconsistent(format!(
                        "{} games started, and there is no game",
                        s.games_started
                    ));
                }
                None
            }
            Some(g) => Some(table_from(g, &s)?),
        };
        let live = table.as_ref().is_some_and(Table::in_progress);
        if live && s.seats.iter().any(Option::is_none) {
            return inconsistent("a game is in progress with a free seat");
        }
        if let Some(player) = s.reservation {
            if !live || bot.is_none() {
                return inconsistent(format!(
                    "{player} reserved the bot's seat, and no bot plays a game"
                ));
            }
            if !members.contains_key(&player) || seated.contains(&player) {
                return inconsistent(format!(
                    "{player} reserved the bot's seat, and is not in the room or is seated"
                ));
            }
        }
        if s.bot_leaving && (!live || bot.is_none()) {
            return inconsistent("the bot is leaving after a game, and no bot plays a game");
        }
        if s.closed.is_some() && (live || s.closes_at.is_some()) {
            return inconsistent("the room is closed, and a game or its closing is pending");
        }
        Ok(Room {
            settings: s.settings,
            host: s.host,
            initial: s.initial,
            members,
            seats: s.seats,
            reservation: s.reservation,
            bot_leaving: s.bot_leaving,
            table,
            games: s.games_started,
            close_at: s.closes_at,
            closed: s.closed,
            version: s.version,
            last_now: s.last_seen,
            events: VecDeque::new(),
        })
    }
}

/// A room's game from its snapshot, checked against the room.
fn table_from<G: TurnGame>(
    g: GameSnapshot<G>,
    room: &RoomSnapshot<G>,
) -> Result<Table<G>, SnapshotError> {
    let seats = room.seats.len();
    if g.state.seats() != seats {
        return Err(SnapshotError::SeatCount {
            what: "the game",
            found: g.state.seats(),
            seats,
        });
    }
    if g.number == 0 || g.number != room.games_started {
        return inconsistent(format!(
            "the game is number {}, and the room started {}",
            g.number, room.games_started
        ));
    }
    if g.turn_version > room.version {
        return inconsistent(format!(
            "the turn began at version {}, after the room's version {}",
            g.turn_version, room.version
        ));
    }
    if g.clock.seen > room.last_seen || g.started_at > room.last_seen {
        return inconsistent(format!(
            "the game or its clock has seen an instant after the room's last, {}",
            room.last_seen
        ));
    }
    let clock = clock_from(&g.clock, room.settings.action_limit, seats)?;
    match (&g.result, g.clock.phase) {
        (None, ClockPhase::Running { side, .. } | ClockPhase::Paused { side, .. }) => {
            let paused = g.paused_by_host || g.paused_nobody_connected;
            if paused != matches!(g.clock.phase, ClockPhase::Paused { .. }) {
                return inconsistent("the game's pause and its clock's do not agree");
            }
            if g.paused_nobody_connected && room.settings.close_when_empty.is_none() {
                return inconsistent(
                    "the game paused with no one connected in a room that does not pause",
                );
            }
            if g.state.to_act() != Some(side) {
                return inconsistent(format!(
                    "the clock runs for seat {side}, and the game has {:?} to act",
                    g.state.to_act()
                ));
            }
        }
        (None, _) => return inconsistent("a game in progress with its clock stopped"),
        (Some(r), ClockPhase::Flagged { .. } | ClockPhase::Stopped { .. }) => {
            if r.game != g.number {
                return inconsistent(format!(
                    "the result is game {}'s, and the game is number {}",
                    r.game, g.number
                ));
            }
            if g.paused_by_host || g.paused_nobody_connected {
                return inconsistent("a finished game is paused");
            }
        }
        (Some(_), _) => return inconsistent("a finished game with its clock running"),
    }
    Ok(Table {
        game: TimedGame::from_parts(g.number, g.state, clock, g.turn_version, g.result)?,
        started_at: g.started_at,
        limit_at: g.limit_at,
        host_paused: g.paused_by_host,
        auto_paused: g.paused_nobody_connected,
    })
}

// ---- the lobby ----

/// A [`Lobby`] as plain data: made by [`Lobby::snapshot`], made a lobby again by
/// [`Lobby::from_snapshot`]. It holds the guests' reconnection tokens and the generator's seed:
/// keep it as secret as they are. With the `serde` feature it serialises when the game does.
///
/// [`Lobby::snapshot`] lists the kinds by name, the guests and rooms by number and the invites by
/// code ([`Lobby::from_snapshot`] takes them in any order); the queues keep their order, first
/// come first.
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{Activity, Lobby};
/// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(10, 2))], [7; 32]);
/// let (alice, token) = lobby.add_guest(Millis(0));
/// lobby.queue(Millis(0), alice, "nim")?;
/// let snapshot = lobby.snapshot();
/// assert_eq!(snapshot.guests[0].token, token);
/// assert_eq!(snapshot.queues["nim"], [alice]);
/// let mut back = Lobby::from_snapshot(snapshot.clone()).unwrap();
/// assert_eq!(back.snapshot(), snapshot);
/// // The generator goes on where it was: the next guest gets the same token in both.
/// assert_eq!(back.add_guest(Millis(1)), lobby.add_guest(Millis(1)));
/// # Ok::<(), reversi_room::RoomError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct LobbySnapshot<G> {
    /// The snapshot's format version, [`SNAPSHOT_FORMAT`].
    pub format: u32,
    /// The lobby's settings.
    pub settings: LobbySettings,
    /// The game kinds: a name and the state each game starts from.
    pub kinds: Vec<(String, G)>,
    /// The guests.
    pub guests: Vec<GuestSnapshot>,
    /// The guests waiting for a random match, by game kind, first come first.
    pub queues: BTreeMap<String, Vec<PlayerId>>,
    /// The invites, open or not.
    pub invites: Vec<InviteSnapshot>,
    /// The online rooms, in progress or closed.
    pub rooms: Vec<LobbyRoomSnapshot<G>>,
    /// The next guest's number.
    pub next_player: u64,
    /// The next room's number.
    pub next_room: u64,
    /// The lobby's generator.
    pub generator: GeneratorSnapshot,
    /// The latest instant the lobby has seen.
    pub last_seen: Millis,
    /// The rematches that can be played, by room ([`Lobby::rematch`]). Snapshots written before
    /// lobbies kept rematches have none, and are read with none.
    #[cfg_attr(feature = "serde", serde(default))]
    pub rematches: Vec<RematchSnapshot>,
}

/// The rematch of a lobby's finished game, in a [`LobbySnapshot`]: the rule's state and the game
/// kind to play it in.
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{Lobby, QueueOutcome, RematchState};
/// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(10, 2))], [7; 32]);
/// let (a, _) = lobby.add_guest(Millis(0));
/// let (b, _) = lobby.add_guest(Millis(0));
/// lobby.queue(Millis(0), a, "nim")?;
/// let QueueOutcome::Matched { room } = lobby.queue(Millis(0), b, "nim")? else { panic!() };
/// lobby.resign(Millis(1_000), b)?;
/// lobby.rematch(Millis(2_000), a, room)?;
/// let snapshot = lobby.snapshot();
/// assert_eq!(snapshot.rematches[0].kind, "nim");
/// assert_eq!(snapshot.rematches[0].offer.room(), room);
/// assert_eq!(snapshot.rematches[0].offer.state(), RematchState::Offered { by: a });
/// assert_eq!(Lobby::from_snapshot(snapshot.clone()).unwrap().snapshot(), snapshot);
/// # Ok::<(), reversi_room::RoomError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct RematchSnapshot {
    /// The game kind of the finished game, which the rematch plays.
    pub kind: String,
    /// The rule's state: the finished game's room, its two players, who offered.
    pub offer: RematchOffer,
}

/// A guest of a lobby, in a [`LobbySnapshot`].
///
/// # Examples
///
/// ```
/// use reversi_room::{Activity, GuestSnapshot, PlayerId, Token};
/// let guest = GuestSnapshot {
///     player: PlayerId(1),
///     token: Token::from("0123456789abcdef0123456789abcdef".to_owned()),
///     activity: Activity::Idle,
///     disconnected_at: None,
/// };
/// assert_eq!(format!("{:?}", guest.token), "Token(…)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct GuestSnapshot {
    /// Its number.
    pub player: PlayerId,
    /// Its secret reconnection token.
    pub token: Token,
    /// What it is doing.
    pub activity: Activity,
    /// When it disconnected, if it is disconnected.
    pub disconnected_at: Option<Millis>,
}

/// An invite of a lobby, in a [`LobbySnapshot`].
///
/// # Examples
///
/// ```
/// use reversi_clock::Millis;
/// use reversi_room::{InviteSnapshot, InviteState, PlayerId, RoomId};
/// let invite = InviteSnapshot {
///     code: "ABCDEFGH".parse()?,
///     kind: "nim".into(),
///     creator: PlayerId(1),
///     expires_at: Millis(600_000),
///     state: InviteState::Used { room: RoomId(4) },
/// };
/// assert_eq!(invite.state, InviteState::Used { room: RoomId(4) });
/// # Ok::<(), reversi_room::RoomError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct InviteSnapshot {
    /// Its code.
    pub code: InviteCode,
    /// Its game kind.
    pub kind: String,
    /// Who created it.
    pub creator: PlayerId,
    /// When it expires without an opponent.
    pub expires_at: Millis,
    /// Where it is in its life.
    pub state: InviteState,
}

/// Where an invite is in its life, in an [`InviteSnapshot`].
///
/// # Examples
///
/// See [`InviteSnapshot`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "state", rename_all = "snake_case"))]
pub enum InviteState {
    /// Waiting for an opponent.
    Open,
    /// Its time ran out without one.
    Expired,
    /// Its creator cancelled it.
    Cancelled,
    /// Joined: its game is in `room`.
    Used {
        /// The room it made.
        room: RoomId,
    },
}

/// An online room of a lobby, in a [`LobbySnapshot`].
///
/// # Examples
///
/// See [`LobbySnapshot`]; a lobby's rooms have two seats:
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{Lobby, QueueOutcome};
/// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(10, 2))], [7; 32]);
/// let (a, _) = lobby.add_guest(Millis(0));
/// let (b, _) = lobby.add_guest(Millis(0));
/// lobby.queue(Millis(0), a, "nim")?;
/// let QueueOutcome::Matched { room } = lobby.queue(Millis(0), b, "nim")? else { panic!() };
/// let snapshot = lobby.snapshot();
/// assert_eq!((snapshot.rooms[0].id, snapshot.rooms[0].kind.as_str()), (room, "nim"));
/// assert_eq!(snapshot.rooms[0].room.seats.len(), 2);
/// # Ok::<(), reversi_room::RoomError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct LobbyRoomSnapshot<G> {
    /// Its number.
    pub id: RoomId,
    /// Its game kind.
    pub kind: String,
    /// The room.
    pub room: RoomSnapshot<G>,
}

/// A lobby's generator (ChaCha20): its seed, stream and position, from which it draws the same
/// numbers as the lobby saved would have. Its `Debug` form hides the seed.
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::Lobby;
/// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(10, 2))], [7; 32]);
/// assert_eq!(lobby.snapshot().generator.seed, [7; 32]);
/// lobby.add_guest(Millis(0)); // draws a token
/// assert!(lobby.snapshot().generator.word_pos > 0);
/// assert_eq!(format!("{:?}", lobby.snapshot().generator), "GeneratorSnapshot(…)");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct GeneratorSnapshot {
    /// The seed, 256 bits.
    pub seed: [u8; 32],
    /// The stream.
    pub stream: u64,
    /// The position in the stream, in 32-bit words (68 bits at most).
    pub word_pos: u128,
}

impl fmt::Debug for GeneratorSnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GeneratorSnapshot(…)")
    }
}

impl<G: TurnGame> Lobby<G> {
    /// The lobby as plain data, to store and to give to [`Lobby::from_snapshot`] later. Events
    /// not yet drained (the lobby's and its rooms') are not in it.
    ///
    /// # Examples
    ///
    /// See [`LobbySnapshot`].
    #[must_use]
    pub fn snapshot(&self) -> LobbySnapshot<G> {
        let (seed, stream, word_pos) = self.rng.parts();
        LobbySnapshot {
            format: SNAPSHOT_FORMAT,
            settings: self.settings,
            kinds: self
                .kinds
                .iter()
                .map(|(k, g)| (k.clone(), g.clone()))
                .collect(),
            guests: self
                .guests
                .iter()
                .map(|(&player, g)| GuestSnapshot {
                    player,
                    token: g.token.clone(),
                    activity: g.activity.clone(),
                    disconnected_at: g.disconnected_at,
                })
                .collect(),
            queues: self
                .queues
                .iter()
                .filter(|(_, q)| !q.is_empty())
                .map(|(k, q)| (k.clone(), q.entries().map(|e| e.player).collect()))
                .collect(),
            invites: self
                .invites
                .iter()
                .map(|(code, i)| InviteSnapshot {
                    code: code.clone(),
                    kind: i.kind.clone(),
                    creator: i.creator,
                    expires_at: i.expires_at,
                    state: match i.status {
                        InviteStatus::Open => InviteState::Open,
                        InviteStatus::Expired => InviteState::Expired,
                        InviteStatus::Cancelled => InviteState::Cancelled,
                        InviteStatus::Used { room } => InviteState::Used { room },
                    },
                })
                .collect(),
            rooms: self
                .rooms
                .iter()
                .map(|(&id, r)| LobbyRoomSnapshot {
                    id,
                    kind: self.room_kinds.get(&id).cloned().unwrap_or_default(),
                    room: r.snapshot(),
                })
                .collect(),
            next_player: self.next_player,
            next_room: self.next_room,
            generator: GeneratorSnapshot {
                seed,
                stream,
                word_pos,
            },
            last_seen: self.last_now,
            rematches: self
                .rematches
                .values()
                .map(|r| RematchSnapshot {
                    kind: r.kind.clone(),
                    offer: r.offer,
                })
                .collect(),
        }
    }

    /// A lobby from its snapshot, checked: the format, the kinds (two seats each), every guest
    /// (one token each, an activity that the queues, invites and rooms agree with), every
    /// invite, every room ([`Room::from_snapshot`], and its seated players are its guests while
    /// its game goes on), the next numbers and the generator.
    ///
    /// # Errors
    ///
    /// A [`SnapshotError`] saying what is wrong (a room's as [`SnapshotError::InRoom`]); no
    /// input makes it panic.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::Millis;
    /// use reversi_room::{Lobby, SnapshotError};
    /// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(10, 2))], [7; 32]);
    /// let (a, _) = lobby.add_guest(Millis(0));
    /// let (b, _) = lobby.add_guest(Millis(0));
    /// let mut snapshot = lobby.snapshot();
    /// snapshot.guests[1].token = snapshot.guests[0].token.clone();
    /// assert_eq!(
    ///     Lobby::from_snapshot(snapshot),
    ///     Err(SnapshotError::BadToken { player: b, problem: "another guest's" }),
    /// );
    /// ```
    pub fn from_snapshot(s: LobbySnapshot<G>) -> Result<Lobby<G>, SnapshotError> {
        check_format(s.format)?;
        check_counter("next guest", s.next_player)?;
        check_counter("next room", s.next_room)?;
        let mut kinds = BTreeMap::new();
        for (kind, game) in s.kinds {
            if game.seats() != 2 {
                return Err(SnapshotError::BadKind {
                    problem: format!("{} seats: a lobby plays two-seat games", game.seats()),
                    kind,
                });
            }
            if kinds.contains_key(&kind) {
                return Err(SnapshotError::DuplicateKind { kind });
            }
            kinds.insert(kind, game);
        }
        let known_kind = |kind: &str| -> Result<(), SnapshotError> {
            if kinds.contains_key(kind) {
                Ok(())
            } else {
                Err(SnapshotError::BadKind {
                    kind: kind.to_owned(),
                    problem: "not a kind of the lobby".into(),
                })
            }
        };
        // The rooms first: the guests' activities name them.
        let mut rooms = BTreeMap::new();
        let mut room_kinds = BTreeMap::new();
        for r in s.rooms {
            if r.id.0 >= s.next_room {
                return Err(SnapshotError::NumberAhead {
                    what: "room",
                    id: r.id.0,
                    next: s.next_room,
                });
            }
            known_kind(&r.kind)?;
            let room = Room::from_snapshot(r.room).map_err(|e| SnapshotError::InRoom {
                room: r.id,
                error: Box::new(e),
            })?;
            if room.host().is_some() || room.seats().len() != 2 {
                return Err(SnapshotError::InRoom {
                    room: r.id,
                    error: Box::new(SnapshotError::Inconsistent(
                        "a lobby's room has no host and two seats".into(),
                    )),
                });
            }
            if rooms.insert(r.id, room).is_some() {
                return Err(SnapshotError::DuplicateRoom { room: r.id });
            }
            room_kinds.insert(r.id, r.kind);
        }
        let mut invites = BTreeMap::new();
        for i in s.invites {
            known_kind(&i.kind)?;
            let status = match i.state {
                InviteState::Open => InviteStatus::Open,
                InviteState::Expired => InviteStatus::Expired,
                InviteState::Cancelled => InviteStatus::Cancelled,
                InviteState::Used { room } => InviteStatus::Used { room },
            };
            let invite = Invite {
                kind: i.kind,
                creator: i.creator,
                expires_at: i.expires_at,
                status,
            };
            if invites.insert(i.code.clone(), invite).is_some() {
                return Err(SnapshotError::DuplicateInvite { code: i.code });
            }
        }
        let mut guests = BTreeMap::new();
        let mut tokens = BTreeSet::new();
        for g in s.guests {
            let player = g.player;
            if player.0 >= s.next_player {
                return Err(SnapshotError::NumberAhead {
                    what: "guest",
                    id: player.0,
                    next: s.next_player,
                });
            }
            if g.token.as_str().is_empty() {
                return Err(SnapshotError::BadToken {
                    player,
                    problem: "empty",
                });
            }
            if !tokens.insert(g.token.clone()) {
                return Err(SnapshotError::BadToken {
                    player,
                    problem: "another guest's",
                });
            }
            let guest = Guest {
                token: g.token,
                activity: g.activity,
                disconnected_at: g.disconnected_at,
            };
            if guests.insert(player, guest).is_some() {
                return Err(SnapshotError::DuplicatePlayer {
                    player,
                    list: "the guests",
                });
            }
        }
        let mut lists = Vec::new();
        let mut queued = BTreeSet::new();
        for (kind, q) in s.queues {
            known_kind(&kind)?;
            for &p in &q {
                if !queued.insert(p) {
                    return Err(SnapshotError::DuplicatePlayer {
                        player: p,
                        list: "the queues",
                    });
                }
                let waits_here = guests.get(&p).is_some_and(
                    |g| matches!(&g.activity, Activity::Waiting { kind: k, .. } if *k == kind),
                );
                if !waits_here {
                    return inconsistent(format!(
                        "{p} is in the queue of {kind:?} without waiting for a match of it"
                    ));
                }
            }
            lists.push((kind, q));
        }
        let queues = crate::lobby::queues_of(lists, &guests)
            .map_err(|p| SnapshotError::Inconsistent(format!("{p} waits in no queue")))?;
        for (&player, g) in &guests {
            check_activity(player, g, &queued, &invites, &rooms)?;
        }
        for (code, i) in &invites {
            if i.status == InviteStatus::Open {
                let creator_invites = guests.get(&i.creator).is_some_and(
                    |g| matches!(&g.activity, Activity::Inviting { code: c } if c == code),
                );
                if !creator_invites {
                    return inconsistent(format!(
                        "the invite {code} is open, and its creator {} is not inviting with it",
                        i.creator
                    ));
                }
            }
        }
        // A game in progress is played by guests who play in it.
        for (&id, room) in &rooms {
            if !room.in_game() {
                continue;
            }
            for o in room.seats().iter().flatten() {
                let Some(p) = o.person() else {
                    return Err(SnapshotError::InRoom {
                        room: id,
                        error: Box::new(SnapshotError::Inconsistent(
                            "a bot sits in a lobby's room".into(),
                        )),
                    });
                };
                let plays = guests
                    .get(&p)
                    .is_some_and(|g| g.activity == Activity::Playing { room: id });
                if !plays {
                    return inconsistent(format!(
                        "{p} sits in {id}, whose game goes on, and is not a guest playing in it"
                    ));
                }
            }
        }
        let mut rematches = BTreeMap::new();
        for r in s.rematches {
            let room = r.offer.room();
            if room.0 >= s.next_room {
                return Err(SnapshotError::NumberAhead {
                    what: "rematch's room",
                    id: room.0,
                    next: s.next_room,
                });
            }
            known_kind(&r.kind)?;
            if let Some(p) = r
                .offer
                .players()
                .into_iter()
                .find(|p| !guests.contains_key(p))
            {
                return inconsistent(format!(
                    "the rematch of {room} is for {p}, who is not a guest"
                ));
            }
            if r.offer.state() == RematchState::Spent {
                return inconsistent(format!(
                    "the rematch of {room} is spent: a lobby does not keep it"
                ));
            }
            let rematch = Rematch {
                kind: r.kind,
                offer: r.offer,
            };
            if rematches.insert(room, rematch).is_some() {
                return inconsistent(format!("two rematches of {room}"));
            }
        }
        let g = s.generator;
        let rng = LobbyRng::from_parts(g.seed, g.stream, g.word_pos).ok_or(
            SnapshotError::BadGenerator {
                word_pos: g.word_pos,
            },
        )?;
        let mut lobby = Lobby {
            settings: s.settings,
            kinds,
            guests,
            queues,
            invites,
            rooms,
            room_kinds,
            rematches,
            next_player: s.next_player,
            next_room: s.next_room,
            rng,
            last_now: s.last_seen,
            events: VecDeque::new(),
            index: Index::default(),
        };
        lobby.index = lobby.rebuilt_index();
        Ok(lobby)
    }
}

/// A guest's activity against the queues, the invites and the rooms.
fn check_activity<G: TurnGame>(
    player: PlayerId,
    g: &Guest,
    queued: &BTreeSet<PlayerId>,
    invites: &BTreeMap<InviteCode, Invite>,
    rooms: &BTreeMap<RoomId, Room<G>>,
) -> Result<(), SnapshotError> {
    match &g.activity {
        Activity::Idle => Ok(()),
        Activity::Waiting { kind, .. } => {
            if queued.contains(&player) {
                Ok(())
            } else {
                inconsistent(format!(
                    "{player} waits for a match of {kind:?} and is not in its queue"
                ))
            }
        }
        Activity::Inviting { code } => match invites.get(code) {
            Some(i) if i.creator == player && i.status == InviteStatus::Open => Ok(()),
            _ => inconsistent(format!(
                "{player} is inviting with {code}, which is not an open invite of theirs"
            )),
        },
        Activity::Playing { room } => match rooms.get(room) {
            Some(r) if r.in_game() && r.seat_of(player).is_some() => Ok(()),
            _ => inconsistent(format!(
                "{player} plays in {room}, which has no game going on with them seated"
            )),
        },
    }
}
