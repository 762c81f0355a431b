//! The room state machine: seats, host, one bot, games, deadlines and connections.

use std::collections::{BTreeMap, VecDeque};

use reversi_clock::{Clock, Millis, Span, TimeControl};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::{PlayerId, RoomActionLimit, RoomError, SeatOutcome, TimedGame, TurnGame};

/// How a room behaves. [`RoomSettings::hosted`] and [`RoomSettings::ONLINE`] are the two kinds
/// the rules describe; other combinations are allowed.
///
/// # Examples
///
/// ```
/// use reversi_clock::Span;
/// use reversi_room::RoomActionLimit;
/// use reversi_room::RoomSettings;
///
/// let hosted = RoomSettings::hosted(RoomActionLimit::Secs60);
/// assert_eq!(hosted.action_limit, Span::from_secs(60));
/// assert_eq!(hosted.disconnect_grace, Span::from_mins(2));
/// assert_eq!(hosted.close_when_empty, Some(Span::from_mins(2)));
/// assert_eq!(RoomSettings::ONLINE.game_limit, Some(Span::from_mins(120)));
///
/// // Other combinations, built from one of the two.
/// let quick = RoomSettings::ONLINE.with_action_limit(Span::from_secs(10)).with_game_limit(None);
/// assert_eq!(quick.action_limit, Span::from_secs(10));
/// ```
///
/// The struct may gain fields: build it from [`RoomSettings::hosted`] or
/// [`RoomSettings::ONLINE`] with the `with_*` methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[non_exhaustive]
pub struct RoomSettings {
    /// The time allowed for each action; missing it loses the game.
    pub action_limit: Span,
    /// How long a disconnected person may stay away before it counts as abandonment (a loss if
    /// they are seated in a game) and they are dropped from the room. Their action deadline keeps
    /// running meanwhile.
    pub disconnect_grace: Span,
    /// With `Some(d)`: when no person is connected the game pauses, and the room closes after
    /// `d` unless someone returns. With `None` nothing pauses (online games).
    pub close_when_empty: Option<Span>,
    /// The longest a game may last; at the limit it ends by [`TurnGame::adjudicate`] with
    /// [`EndReason::TimeLimit`]. The limit is wall time: pauses do not stop it.
    pub game_limit: Option<Span>,
    /// Whether the room closes when its game ends (online rooms play one game).
    pub single_game: bool,
}

impl RoomSettings {
    /// A hosted room with the given time per action: two minutes of grace for a disconnection,
    /// pause and close after two minutes when no person is connected, no game-length limit, any
    /// number of games.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// use reversi_room::RoomActionLimit;
    /// use reversi_room::RoomSettings;
    /// assert_eq!(RoomSettings::hosted(RoomActionLimit::Secs30).action_limit, Span::from_secs(30));
    /// ```
    #[must_use]
    pub const fn hosted(limit: RoomActionLimit) -> RoomSettings {
        RoomSettings {
            action_limit: limit.limit(),
            disconnect_grace: Span::from_mins(2),
            close_when_empty: Some(Span::from_mins(2)),
            game_limit: None,
            single_game: false,
        }
    }

    /// An online game: 30 s per move, 60 s to reconnect, a 2-hour limit, no pause, one game.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// use reversi_room::RoomSettings;
    /// assert_eq!(RoomSettings::ONLINE.action_limit, Span::from_secs(30));
    /// assert_eq!(RoomSettings::ONLINE.disconnect_grace, Span::from_secs(60));
    /// assert!(RoomSettings::ONLINE.single_game);
    /// ```
    pub const ONLINE: RoomSettings = RoomSettings {
        action_limit: Span::from_secs(30),
        disconnect_grace: Span::from_secs(60),
        close_when_empty: None,
        game_limit: Some(Span::from_mins(120)),
        single_game: true,
    };

    /// These settings with another time per action.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// use reversi_room::RoomSettings;
    /// let s = RoomSettings::ONLINE.with_action_limit(Span::from_secs(5));
    /// assert_eq!(s.action_limit, Span::from_secs(5));
    /// ```
    #[must_use]
    pub const fn with_action_limit(mut self, limit: Span) -> RoomSettings {
        self.action_limit = limit;
        self
    }

    /// These settings with another grace for a disconnection.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// use reversi_room::RoomSettings;
    /// let s = RoomSettings::ONLINE.with_disconnect_grace(Span::from_secs(5));
    /// assert_eq!(s.disconnect_grace, Span::from_secs(5));
    /// ```
    #[must_use]
    pub const fn with_disconnect_grace(mut self, grace: Span) -> RoomSettings {
        self.disconnect_grace = grace;
        self
    }

    /// These settings with another pause-and-close rule for a room without a connected person.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// use reversi_room::RoomSettings;
    /// let s = RoomSettings::ONLINE.with_close_when_empty(Some(Span::from_mins(1)));
    /// assert_eq!(s.close_when_empty, Some(Span::from_mins(1)));
    /// ```
    #[must_use]
    pub const fn with_close_when_empty(mut self, close: Option<Span>) -> RoomSettings {
        self.close_when_empty = close;
        self
    }

    /// These settings with another game-length limit (`None`: no limit).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::RoomSettings;
    /// assert_eq!(RoomSettings::ONLINE.with_game_limit(None).game_limit, None);
    /// ```
    #[must_use]
    pub const fn with_game_limit(mut self, limit: Option<Span>) -> RoomSettings {
        self.game_limit = limit;
        self
    }

    /// These settings with the room closing when its game ends, or not.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::RoomSettings;
    /// assert!(!RoomSettings::ONLINE.with_single_game(false).single_game);
    /// ```
    #[must_use]
    pub const fn with_single_game(mut self, single: bool) -> RoomSettings {
        self.single_game = single;
        self
    }
}

/// Who holds a seat.
///
/// # Examples
///
/// ```
/// use reversi_room::{Occupant, PlayerId};
/// let o = Occupant::Person { player: PlayerId(1) };
/// assert_eq!(o.person(), Some(PlayerId(1)));
/// assert_eq!(serde_json::to_string(&o).unwrap(), r#"{"kind":"person","player":1}"#);
/// assert!(Occupant::Bot { level: "easy".into() }.is_bot());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
pub enum Occupant {
    /// A person.
    Person {
        /// Who.
        player: PlayerId,
    },
    /// The room's bot, with a level the application understands (say `"hard"`).
    Bot {
        /// The bot's level or kind.
        level: String,
    },
}

impl Occupant {
    /// The person, if a person.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::Occupant;
    /// assert_eq!(Occupant::Bot { level: "x".into() }.person(), None);
    /// ```
    #[must_use]
    pub fn person(&self) -> Option<PlayerId> {
        match self {
            Occupant::Person { player } => Some(*player),
            Occupant::Bot { .. } => None,
        }
    }

    /// Whether a bot.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::{Occupant, PlayerId};
    /// assert!(!Occupant::Person { player: PlayerId(0) }.is_bot());
    /// ```
    #[must_use]
    pub fn is_bot(&self) -> bool {
        matches!(self, Occupant::Bot { .. })
    }
}

/// A person in the room, seated or not.
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{PlayerId, Room, RoomActionLimit, RoomSettings};
///
/// let room = Room::hosted(Millis(0), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(5, 2));
/// let host = room.member(PlayerId(1)).unwrap();
/// assert!(host.connected());
/// assert_eq!(host.grace_until(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[non_exhaustive]
pub struct Member {
    /// When the person disconnected, if they are disconnected.
    pub(crate) disconnected_at: Option<Millis>,
    /// When their grace ends, if they are disconnected.
    pub(crate) grace_until: Option<Millis>,
}

impl Member {
    /// Whether the person is connected.
    ///
    /// # Examples
    ///
    /// See [`Member`].
    #[must_use]
    pub fn connected(&self) -> bool {
        self.disconnected_at.is_none()
    }

    /// When the person disconnected, if disconnected.
    ///
    /// # Examples
    ///
    /// See [`Member`].
    #[must_use]
    pub fn disconnected_at(&self) -> Option<Millis> {
        self.disconnected_at
    }

    /// The instant past which a disconnected person is dropped (abandonment), if disconnected.
    ///
    /// # Examples
    ///
    /// See [`Member`].
    #[must_use]
    pub fn grace_until(&self) -> Option<Millis> {
        self.grace_until
    }
}

/// Why a game ended. Every game ends exactly once, with exactly one reason.
///
/// # Examples
///
/// ```
/// use reversi_room::EndReason;
/// assert_eq!(serde_json::to_string(&EndReason::Timeout { seat: 1 }).unwrap(), r#"{"reason":"timeout","seat":1}"#);
/// assert_eq!(EndReason::TimeLimit.to_string(), "time limit");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "reason", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum EndReason {
    /// The game ended by its rules (for Reversi, the board).
    Board,
    /// The seat missed its action deadline.
    Timeout {
        /// The seat that ran out of time.
        seat: usize,
    },
    /// The seat resigned.
    Resigned {
        /// The seat that resigned.
        seat: usize,
    },
    /// The person in the seat left it (stood up or left the room) during the game.
    Abandoned {
        /// The seat left.
        seat: usize,
    },
    /// The person in the seat stayed disconnected past their grace.
    Disconnected {
        /// The seat of the disconnected person.
        seat: usize,
    },
    /// The game reached the room's game-length limit and was decided by [`TurnGame::adjudicate`].
    TimeLimit,
    /// The host ended the game; there is no winner.
    EndedByHost,
    /// The room closed (no person came back in time); there is no winner.
    RoomClosed,
}

impl EndReason {
    /// Its name, as it serialises (`board`, `timeout`, `resigned`, `abandoned`, `disconnected`,
    /// `time_limit`, `ended_by_host`, `room_closed`).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::EndReason;
    /// assert_eq!(EndReason::Resigned { seat: 0 }.name(), "resigned");
    /// assert_eq!(EndReason::TimeLimit.name(), "time_limit");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Board => "board",
            EndReason::Timeout { .. } => "timeout",
            EndReason::Resigned { .. } => "resigned",
            EndReason::Abandoned { .. } => "abandoned",
            EndReason::Disconnected { .. } => "disconnected",
            EndReason::TimeLimit => "time_limit",
            EndReason::EndedByHost => "ended_by_host",
            EndReason::RoomClosed => "room_closed",
        }
    }

    /// The seat it names (the one that timed out, resigned, left or stayed away), if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::EndReason;
    /// assert_eq!(EndReason::Timeout { seat: 1 }.seat(), Some(1));
    /// assert_eq!(EndReason::Board.seat(), None);
    /// ```
    #[must_use]
    pub fn seat(self) -> Option<usize> {
        match self {
            EndReason::Timeout { seat }
            | EndReason::Resigned { seat }
            | EndReason::Abandoned { seat }
            | EndReason::Disconnected { seat } => Some(seat),
            EndReason::Board
            | EndReason::TimeLimit
            | EndReason::EndedByHost
            | EndReason::RoomClosed => None,
        }
    }

    /// The reason of a [`name`](EndReason::name) and a [`seat`](EndReason::seat), for hosts
    /// that store the two apart; a seat given to a reason without one is ignored.
    ///
    /// # Errors
    ///
    /// [`EndReasonError::Unknown`] for a name that is no reason, [`EndReasonError::NoSeat`] for a
    /// reason that needs a seat without one.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::{EndReason, EndReasonError};
    /// let r = EndReason::Abandoned { seat: 1 };
    /// assert_eq!(EndReason::from_parts(r.name(), r.seat()), Ok(r));
    /// assert_eq!(EndReason::from_parts("timeout", None), Err(EndReasonError::NoSeat { name: "timeout".into() }));
    /// assert!(EndReason::from_parts("draw", None).is_err());
    /// ```
    pub fn from_parts(name: &str, seat: Option<usize>) -> Result<EndReason, EndReasonError> {
        let seat = || {
            seat.ok_or_else(|| EndReasonError::NoSeat {
                name: name.to_owned(),
            })
        };
        Ok(match name {
            "board" => EndReason::Board,
            "timeout" => EndReason::Timeout { seat: seat()? },
            "resigned" => EndReason::Resigned { seat: seat()? },
            "abandoned" => EndReason::Abandoned { seat: seat()? },
            "disconnected" => EndReason::Disconnected { seat: seat()? },
            "time_limit" => EndReason::TimeLimit,
            "ended_by_host" => EndReason::EndedByHost,
            "room_closed" => EndReason::RoomClosed,
            _ => {
                return Err(EndReasonError::Unknown {
                    name: name.to_owned(),
                })
            }
        })
    }
}

/// Why [`EndReason::from_parts`] found no reason.
///
/// # Examples
///
/// ```
/// use reversi_room::{EndReason, EndReasonError};
/// let e = EndReason::from_parts("draw", None).unwrap_err();
/// assert_eq!(e, EndReasonError::Unknown { name: "draw".into() });
/// assert_eq!(e.to_string(), "\"draw\" is not a reason a game ends for");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EndReasonError {
    /// The name is no reason.
    #[error("{name:?} is not a reason a game ends for")]
    Unknown {
        /// The name given.
        name: String,
    },
    /// The reason names a seat, and none was given.
    #[error("the reason {name:?} needs a seat")]
    NoSeat {
        /// The reason's name.
        name: String,
    },
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::Board => write!(f, "the board"),
            EndReason::Timeout { seat } => write!(f, "time-out of seat {seat}"),
            EndReason::Resigned { seat } => write!(f, "resignation of seat {seat}"),
            EndReason::Abandoned { seat } => write!(f, "seat {seat} abandoned"),
            EndReason::Disconnected { seat } => write!(f, "disconnection of seat {seat}"),
            EndReason::TimeLimit => write!(f, "time limit"),
            EndReason::EndedByHost => write!(f, "ended by the host"),
            EndReason::RoomClosed => write!(f, "the room closed"),
        }
    }
}

/// The result of a finished game.
///
/// # Examples
///
/// ```
/// use reversi_clock::Millis;
/// use reversi_room::{EndReason, GameResult, SeatOutcome};
/// let r = GameResult::new(1, SeatOutcome::NoResult, EndReason::EndedByHost, Millis(5));
/// assert_eq!(r.outcome.winner(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[non_exhaustive]
pub struct GameResult {
    /// The game's number in the room, from 1.
    pub game: u64,
    /// Who won.
    pub outcome: SeatOutcome,
    /// Why it ended.
    pub reason: EndReason,
    /// When it ended (for a deadline, the deadline itself).
    pub at: Millis,
}

impl GameResult {
    /// The result of game number `game` (for hosts that replay or test results; a room makes
    /// its own).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Millis;
    /// use reversi_room::{EndReason, GameResult, SeatOutcome};
    /// let r = GameResult::new(2, SeatOutcome::NoResult, EndReason::EndedByHost, Millis(9));
    /// assert_eq!((r.game, r.at), (2, Millis(9)));
    /// ```
    pub fn new(game: u64, outcome: SeatOutcome, reason: EndReason, at: Millis) -> GameResult {
        GameResult {
            game,
            outcome,
            reason,
            at,
        }
    }
}

/// What paused a game.
///
/// # Examples
///
/// ```
/// use reversi_room::PauseCause;
/// assert_eq!(serde_json::to_string(&PauseCause::Host).unwrap(), r#""host""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum PauseCause {
    /// The host paused (or resumed).
    Host,
    /// No person was connected (or someone came back).
    NobodyConnected,
}

/// Why a room closed.
///
/// # Examples
///
/// ```
/// use reversi_room::CloseReason;
/// assert_eq!(serde_json::to_string(&CloseReason::Empty).unwrap(), r#""empty""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum CloseReason {
    /// No person was connected for the room's closing delay.
    Empty,
    /// The room's single game is over.
    GameOver,
}

/// What happened in a room, as drained by [`Room::poll_event`].
///
/// # Examples
///
/// ```
/// use reversi_room::{EventKind, PlayerId};
/// let e: EventKind<u32> = EventKind::Sat { player: PlayerId(1), seat: 0 };
/// assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"event":"sat","player":1,"seat":0}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "event", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum EventKind<A> {
    /// A person entered the room (the host, at creation).
    Joined {
        /// Who.
        player: PlayerId,
    },
    /// A person left the room.
    Left {
        /// Who.
        player: PlayerId,
    },
    /// A disconnected person's grace ran out: they were dropped from the room.
    Dropped {
        /// Who.
        player: PlayerId,
    },
    /// A person sat down.
    Sat {
        /// Who.
        player: PlayerId,
        /// Where.
        seat: usize,
    },
    /// A person stood up (or was unseated by leaving).
    Stood {
        /// Who.
        player: PlayerId,
        /// The seat freed.
        seat: usize,
    },
    /// The host seated the bot.
    BotSeated {
        /// Its seat.
        seat: usize,
        /// Its level.
        level: String,
    },
    /// The bot left its seat.
    BotRemoved {
        /// The seat freed.
        seat: usize,
    },
    /// The host asked for the bot to leave; it will at the end of the game.
    BotLeavingAfterGame {
        /// Its seat.
        seat: usize,
    },
    /// A person reserved the bot's seat; they take it over when the result comes in.
    SeatReserved {
        /// Who.
        player: PlayerId,
        /// The bot's seat.
        seat: usize,
    },
    /// A reservation was dropped because the person left.
    ReservationDropped {
        /// Who.
        player: PlayerId,
    },
    /// A game began.
    GameStarted {
        /// Its number in the room, from 1.
        game: u64,
        /// Who sits where.
        seats: Vec<Occupant>,
    },
    /// A seat's action is due by `deadline`. `bot` says the application must ask its bot and
    /// submit the answer with [`Room::bot_act`]. Sent at each turn and again on resume.
    ActionDue {
        /// The seat to act.
        seat: usize,
        /// Its deadline.
        deadline: Millis,
        /// Whether the seat is the bot's.
        bot: bool,
    },
    /// A seat acted.
    Acted {
        /// The seat.
        seat: usize,
        /// What it did.
        action: A,
    },
    /// The game was paused: clocks and bots stop.
    Paused {
        /// By whom or what.
        cause: PauseCause,
    },
    /// The game went on.
    Resumed {
        /// By whom or what.
        cause: PauseCause,
    },
    /// A person disconnected; past `grace_until` it counts as abandonment.
    Disconnected {
        /// Who.
        player: PlayerId,
        /// The end of their grace.
        grace_until: Millis,
    },
    /// A disconnected person came back.
    Reconnected {
        /// Who.
        player: PlayerId,
    },
    /// No person is connected any more: the room closes at `closes_at` unless someone returns.
    Emptied {
        /// When it will close.
        closes_at: Millis,
    },
    /// The game ended.
    GameEnded {
        /// How.
        result: GameResult,
    },
    /// The room closed for good; it accepts nothing more.
    Closed {
        /// Why.
        reason: CloseReason,
    },
}

/// One event: when it happened, the room's state version after it, and what it was.
///
/// Every state change emits at least one event, and every event bumps the version by one.
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{EventKind, PlayerId, Room, RoomActionLimit, RoomSettings};
///
/// let mut room = Room::hosted(Millis(10), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(5, 2));
/// let e = room.poll_event().unwrap();
/// assert_eq!((e.at, e.version), (Millis(10), 1));
/// assert_eq!(e.kind, EventKind::Joined { player: PlayerId(1) });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[non_exhaustive]
pub struct Event<A> {
    /// When it happened (for a deadline, the deadline itself).
    pub at: Millis,
    /// The room's state version once it happened.
    pub version: u64,
    /// What happened.
    pub kind: EventKind<A>,
}

/// A command to a room, sent by a person (see [`Room::handle`]). Bots act through
/// [`Room::bot_act`].
///
/// # Examples
///
/// ```
/// use reversi_room::RoomCommand;
/// let c: RoomCommand<u32> = RoomCommand::Act { seat: 0, version: 4, action: 2 };
/// assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"command":"act","seat":0,"version":4,"action":2}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "command", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum RoomCommand<A> {
    /// Enter the room.
    Join,
    /// Leave the room (abandoning a game one is seated in).
    Leave,
    /// Sit in a free seat.
    Sit {
        /// The seat.
        seat: usize,
    },
    /// Stand up (abandoning a game in progress).
    Stand,
    /// Host: seat the room's one bot in a free seat.
    AddBot {
        /// The seat.
        seat: usize,
        /// The bot's level, for the application.
        level: String,
    },
    /// Host: remove the bot (at the end of the game if it is playing).
    RemoveBot,
    /// Reserve the bot's seat during a game, to take it over at the result.
    ReserveBotSeat,
    /// Seated host: start a game.
    Start,
    /// Seated host: pause the game.
    Pause,
    /// Seated host: resume the game.
    Resume,
    /// Seated host: end the game without a winner.
    End,
    /// Act for one's seat, naming the state version the action was made on.
    Act {
        /// The sender's seat.
        seat: usize,
        /// The state version the action was made on.
        version: u64,
        /// The action.
        action: A,
    },
    /// Resign the game one is seated in.
    Resign,
    /// The application lost the person's connection.
    Disconnect,
    /// The person is back.
    Reconnect,
}

/// Whose action a bot owes, as returned by [`Room::bot_to_act`].
///
/// # Examples
///
/// See [`Room::bot_to_act`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[non_exhaustive]
pub struct BotTurn {
    /// The bot's seat.
    pub seat: usize,
    /// The version to submit the answer with.
    pub version: u64,
    /// The bot's level.
    pub level: String,
    /// The deadline of the action.
    pub deadline: Millis,
}

/// A game being played or just finished: the game and its clock in the shared machine, and
/// what only a room has (when it started, its game-length limit, its pauses). The machine's
/// fields are flattened, so that the room's serde form is what it was before the machine.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "G: Serialize, G::Action: Serialize",
        deserialize = "G: serde::de::DeserializeOwned, G::Action: serde::de::DeserializeOwned"
    ))
)]
pub(crate) struct Table<G: TurnGame> {
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub(crate) game: TimedGame<G>,
    pub(crate) started_at: Millis,
    pub(crate) limit_at: Option<Millis>,
    pub(crate) host_paused: bool,
    pub(crate) auto_paused: bool,
}

impl<G: TurnGame> Table<G> {
    pub(crate) fn in_progress(&self) -> bool {
        !self.game.is_over()
    }
    pub(crate) fn paused(&self) -> bool {
        self.host_paused || self.auto_paused
    }
}

/// A game room: seats, an optional host, at most one bot, one game at a time, every deadline, and
/// the connections of the people in it. A sans-IO state machine.
///
/// Commands and `now` go in ([`handle`](Room::handle), [`bot_act`](Room::bot_act)); events come
/// out ([`poll_event`](Room::poll_event)); [`poll_timeout`](Room::poll_timeout) says when to call
/// [`handle_timeout`](Room::handle_timeout). Every call first runs the deadlines that fell at or
/// before `now`, in time order, at their own instants, so a move that arrives after its deadline
/// finds the game already lost. A refused command leaves the state exactly as that left it. Time
/// that goes backwards is treated as the latest instant seen.
///
/// The whole state (including undrained events) serialises with serde and compares with `==`.
///
/// # Examples
///
/// A person plays the bot and wins:
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{Bot, EndReason, EventKind, PlayerId, Room, RoomActionLimit, RoomCommand, RoomSettings, SeatOutcome};
///
/// let host = PlayerId(1);
/// let settings = RoomSettings::hosted(RoomActionLimit::Secs30);
/// let mut room = Room::hosted(Millis(0), host, settings, Nim::new(6, 2));
/// room.handle(Millis(0), host, RoomCommand::Sit { seat: 0 })?;
/// room.handle(Millis(0), host, RoomCommand::AddBot { seat: 1, level: "perfect".into() })?;
/// room.handle(Millis(0), host, RoomCommand::Start)?;
/// let version = room.version();
/// room.handle(Millis(1_000), host, RoomCommand::Act { seat: 0, version, action: 2 })?; // leaves 4
/// // The bot is to act: the application asks it and submits its answer.
/// let turn = room.bot_to_act().unwrap();
/// let answer = NimBot.choose(room.game().unwrap()).unwrap();
/// room.bot_act(Millis(1_500), turn.seat, turn.version, answer)?;
/// let version = room.version();
/// room.handle(Millis(2_000), host, RoomCommand::Act { seat: 0, version, action: 3 })?;
/// let result = room.result().unwrap();
/// assert_eq!((result.outcome, result.reason), (SeatOutcome::Winner(0), EndReason::Board));
/// # Ok::<(), reversi_room::RoomError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "G: Serialize, G::Action: Serialize",
        deserialize = "G: serde::de::DeserializeOwned, G::Action: serde::de::DeserializeOwned"
    ))
)]
pub struct Room<G: TurnGame> {
    pub(crate) settings: RoomSettings,
    pub(crate) host: Option<PlayerId>,
    pub(crate) initial: G,
    pub(crate) members: BTreeMap<PlayerId, Member>,
    pub(crate) seats: Vec<Option<Occupant>>,
    pub(crate) reservation: Option<PlayerId>,
    pub(crate) bot_leaving: bool,
    pub(crate) table: Option<Table<G>>,
    pub(crate) games: u64,
    pub(crate) close_at: Option<Millis>,
    pub(crate) closed: Option<CloseReason>,
    pub(crate) version: u64,
    pub(crate) last_now: Millis,
    pub(crate) events: VecDeque<Event<G::Action>>,
}

impl<G: TurnGame> Room<G> {
    /// A hosted room: the host is in the room, connected, and not seated; every seat is free.
    /// `initial` is the game state every game starts from.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::Millis;
    /// use reversi_room::{PlayerId, Room, RoomActionLimit, RoomSettings};
    /// let room = Room::hosted(Millis(0), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs90), Nim::new(9, 2));
    /// assert_eq!(room.host(), Some(PlayerId(1)));
    /// assert_eq!(room.seats(), &[None, None]);
    /// ```
    #[must_use]
    pub fn hosted(now: Millis, host: PlayerId, settings: RoomSettings, initial: G) -> Room<G> {
        let mut room = Room::empty(now, Some(host), settings, initial);
        room.members.insert(host, Member::connected_now());
        room.emit(now, EventKind::Joined { player: host });
        room
    }

    /// An online room: `players` in seat order, all connected and seated, and the game started at
    /// `now`. There is no host.
    ///
    /// # Errors
    ///
    /// [`RoomError::WrongPlayerCount`] unless there is one player per seat and no one twice.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::Millis;
    /// use reversi_room::{PlayerId, Room, RoomSettings};
    /// let room = Room::online(Millis(0), &[PlayerId(4), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// assert!(room.in_game());
    /// assert_eq!(room.seat_of(PlayerId(2)), Some(1));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    pub fn online(
        now: Millis,
        players: &[PlayerId],
        settings: RoomSettings,
        initial: G,
    ) -> Result<Room<G>, RoomError> {
        let seats = initial.seats();
        let distinct = players
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        if players.len() != seats || distinct != seats {
            // With the right length but someone twice, the number that is wrong is the distinct
            // players' ("needs 2 players, not 1"), not the length ("not 2").
            let players = if players.len() == seats {
                distinct
            } else {
                players.len()
            };
            return Err(RoomError::WrongPlayerCount { seats, players });
        }
        let mut room = Room::empty(now, None, settings, initial);
        for (seat, &player) in players.iter().enumerate() {
            room.members.insert(player, Member::connected_now());
            room.emit(now, EventKind::Joined { player });
            room.seats[seat] = Some(Occupant::Person { player });
            room.emit(now, EventKind::Sat { player, seat });
        }
        room.start_game(now);
        room.close_if_done(now);
        Ok(room)
    }

    fn empty(now: Millis, host: Option<PlayerId>, settings: RoomSettings, initial: G) -> Room<G> {
        let seats = initial.seats();
        Room {
            settings,
            host,
            initial,
            members: BTreeMap::new(),
            seats: vec![None; seats],
            reservation: None,
            bot_leaving: false,
            table: None,
            games: 0,
            close_at: None,
            closed: None,
            version: 0,
            last_now: now,
            events: VecDeque::new(),
        }
    }

    // ---- accessors ----

    /// The room's settings.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomActionLimit, RoomSettings};
    /// let room = Room::hosted(Millis(0), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs60), Nim::new(9, 2));
    /// assert_eq!(room.settings(), &RoomSettings::hosted(RoomActionLimit::Secs60));
    /// ```
    #[must_use]
    pub fn settings(&self) -> &RoomSettings {
        &self.settings
    }

    /// The host, if the room has one.
    ///
    /// # Examples
    ///
    /// See [`Room::hosted`].
    #[must_use]
    pub fn host(&self) -> Option<PlayerId> {
        self.host
    }

    /// The state version: it goes up by one with every event, so with every state change.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomActionLimit, RoomCommand, RoomSettings};
    /// let mut room = Room::hosted(Millis(0), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(9, 2));
    /// let v = room.version();
    /// room.handle(Millis(0), PlayerId(1), RoomCommand::Sit { seat: 1 }).unwrap();
    /// assert_eq!(room.version(), v + 1);
    /// ```
    #[must_use]
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The version at which the current turn began: an action naming a version from this one
    /// to [`version`](Room::version) is accepted, an older one is stale.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomSettings};
    /// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// assert_eq!(room.turn_version(), Some(room.version()));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn turn_version(&self) -> Option<u64> {
        self.live().map(|t| t.game.turn_version())
    }

    /// Who sits in each seat.
    ///
    /// # Examples
    ///
    /// See [`Room::hosted`].
    #[must_use]
    pub fn seats(&self) -> &[Option<Occupant>] {
        &self.seats
    }

    /// The seat a person holds.
    ///
    /// # Examples
    ///
    /// See [`Room::online`].
    #[must_use]
    pub fn seat_of(&self, player: PlayerId) -> Option<usize> {
        self.seats
            .iter()
            .position(|o| o.as_ref().and_then(Occupant::person) == Some(player))
    }

    /// The bot's seat, if the room has a bot.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomActionLimit, RoomCommand, RoomSettings};
    /// let mut room = Room::hosted(Millis(0), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(9, 2));
    /// room.handle(Millis(0), PlayerId(1), RoomCommand::AddBot { seat: 1, level: "easy".into() })?;
    /// assert_eq!(room.bot_seat(), Some(1));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn bot_seat(&self) -> Option<usize> {
        self.seats
            .iter()
            .position(|o| o.as_ref().is_some_and(Occupant::is_bot))
    }

    /// A person in the room.
    ///
    /// # Examples
    ///
    /// See [`Member`].
    #[must_use]
    pub fn member(&self, player: PlayerId) -> Option<&Member> {
        self.members.get(&player)
    }

    /// Everyone in the room, by id.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomActionLimit, RoomSettings};
    /// let room = Room::hosted(Millis(0), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(9, 2));
    /// assert_eq!(room.members().map(|(p, _)| p).collect::<Vec<_>>(), [PlayerId(1)]);
    /// ```
    pub fn members(&self) -> impl Iterator<Item = (PlayerId, &Member)> + '_ {
        self.members.iter().map(|(p, m)| (*p, m))
    }

    /// Who reserved the bot's seat, if anyone.
    ///
    /// # Examples
    ///
    /// See the crate's scenario tests; `None` in a new room:
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomActionLimit, RoomSettings};
    /// let room = Room::hosted(Millis(0), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(9, 2));
    /// assert_eq!(room.reservation(), None);
    /// ```
    #[must_use]
    pub fn reservation(&self) -> Option<PlayerId> {
        self.reservation
    }

    /// Whether the bot leaves at the end of the game.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomActionLimit, RoomSettings};
    /// let room = Room::hosted(Millis(0), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(9, 2));
    /// assert!(!room.bot_leaving());
    /// ```
    #[must_use]
    pub fn bot_leaving(&self) -> bool {
        self.bot_leaving
    }

    /// The current game, or the last one once it is over; `None` before the first game.
    ///
    /// # Examples
    ///
    /// See [`Room`].
    #[must_use]
    pub fn game(&self) -> Option<&G> {
        self.table.as_ref().map(|t| t.game.state())
    }

    /// The number of games started in the room.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomSettings};
    /// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// assert_eq!(room.games_started(), 1);
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn games_started(&self) -> u64 {
        self.games
    }

    /// The per-action clock of the current or last game.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::{Millis, Span};
    /// # use reversi_room::{PlayerId, Room, RoomSettings};
    /// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// assert_eq!(room.clock().unwrap().remaining(0, Millis(10_000)), Some(Span::from_secs(20)));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn clock(&self) -> Option<&Clock> {
        self.table.as_ref().map(|t| t.game.clock())
    }

    /// When the current game started.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomSettings};
    /// let room = Room::online(Millis(7), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// assert_eq!(room.game_started_at(), Some(Millis(7)));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn game_started_at(&self) -> Option<Millis> {
        self.table.as_ref().map(|t| t.started_at)
    }

    /// Whether a game is in progress (paused or not).
    ///
    /// # Examples
    ///
    /// See [`Room::online`].
    #[must_use]
    pub fn in_game(&self) -> bool {
        self.live().is_some()
    }

    /// Whether the game in progress is paused, and by what (the host's pause first).
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomSettings};
    /// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// assert_eq!(room.paused(), None);
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn paused(&self) -> Option<PauseCause> {
        let t = self.live()?;
        if t.host_paused {
            Some(PauseCause::Host)
        } else if t.auto_paused {
            Some(PauseCause::NobodyConnected)
        } else {
            None
        }
    }

    /// The seat whose action is due in the game in progress, paused or not.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomSettings};
    /// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// assert_eq!(room.to_act(), Some(0));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn to_act(&self) -> Option<usize> {
        self.live().and_then(|t| t.game.to_act())
    }

    /// The deadline of the action due, unless the game is paused or over.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomSettings};
    /// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// assert_eq!(room.action_deadline(), Some(Millis(30_000)));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn action_deadline(&self) -> Option<Millis> {
        self.live().and_then(|t| t.game.poll_timeout())
    }

    /// When the game in progress reaches the game-length limit, if the room has one.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomSettings};
    /// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// assert_eq!(room.game_limit_at(), Some(Millis(7_200_000)));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn game_limit_at(&self) -> Option<Millis> {
        self.live().and_then(|t| t.limit_at)
    }

    /// The bot's pending action: set when the bot's seat is to act and the game is not paused.
    /// The application asks its [`Bot`](crate::Bot) and answers with [`bot_act`](Room::bot_act).
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomActionLimit, RoomCommand, RoomSettings};
    /// let host = PlayerId(1);
    /// let mut room = Room::hosted(Millis(0), host, RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(9, 2));
    /// room.handle(Millis(0), host, RoomCommand::Sit { seat: 1 })?;
    /// room.handle(Millis(0), host, RoomCommand::AddBot { seat: 0, level: "easy".into() })?;
    /// room.handle(Millis(0), host, RoomCommand::Start)?;
    /// let turn = room.bot_to_act().unwrap();
    /// assert_eq!((turn.seat, turn.deadline), (0, Millis(30_000)));
    /// room.handle(Millis(5), host, RoomCommand::Pause)?;
    /// assert_eq!(room.bot_to_act(), None); // a pause stops the bots
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn bot_to_act(&self) -> Option<BotTurn> {
        let t = self.live()?;
        if t.paused() {
            return None;
        }
        let seat = t.game.to_act()?;
        let Some(Occupant::Bot { level }) = &self.seats[seat] else {
            return None;
        };
        Some(BotTurn {
            seat,
            version: self.version,
            level: level.clone(),
            deadline: t.game.poll_timeout()?,
        })
    }

    /// The result of the last game, once over.
    ///
    /// # Examples
    ///
    /// See [`Room`].
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        self.table.as_ref().and_then(|t| t.game.result())
    }

    /// Why the room closed, if it did.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{CloseReason, PlayerId, Room, RoomActionLimit, RoomCommand, RoomSettings};
    /// let mut room = Room::hosted(Millis(0), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(9, 2));
    /// room.handle(Millis(0), PlayerId(1), RoomCommand::Leave)?;
    /// assert_eq!(room.poll_timeout(), Some(Millis(120_000)));
    /// room.handle_timeout(Millis(120_000));
    /// assert_eq!(room.closed(), Some(CloseReason::Empty));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn closed(&self) -> Option<CloseReason> {
        self.closed
    }

    /// When the room will close if no one returns.
    ///
    /// # Examples
    ///
    /// See [`Room::closed`].
    #[must_use]
    pub fn closes_at(&self) -> Option<Millis> {
        self.close_at
    }

    /// The latest instant the room has seen.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomActionLimit, RoomSettings};
    /// let mut room = Room::hosted(Millis(50), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(9, 2));
    /// room.handle_timeout(Millis(10)); // backwards: saturates
    /// assert_eq!(room.last_seen(), Millis(50));
    /// ```
    #[must_use]
    pub fn last_seen(&self) -> Millis {
        self.last_now
    }

    /// Puts back the latest instant seen, for a [`Lobby`](crate::Lobby) whose own clock reading
    /// is authoritative and which undoes the observation of a refused command.
    pub(crate) fn restore_last_seen(&mut self, seen: Millis) {
        self.last_now = seen;
    }

    // ---- time ----

    /// The next instant at which something happens if no command comes first: an action
    /// deadline, the end of a disconnection grace, the game-length limit or the room's closing.
    /// `None` when nothing is pending or the room is closed.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomSettings};
    /// let room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// assert_eq!(room.poll_timeout(), Some(Millis(30_000)));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Millis> {
        self.next_deadline().map(|(t, _)| t)
    }

    /// Runs every deadline at or before `now`, in time order. Calling it early, late or more
    /// than once is harmless.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{EndReason, SeatOutcome, PlayerId, Room, RoomSettings};
    /// let mut room = Room::online(Millis(0), &[PlayerId(1), PlayerId(2)], RoomSettings::ONLINE, Nim::new(9, 2))?;
    /// room.handle_timeout(Millis(29_999));
    /// assert!(room.in_game());
    /// room.handle_timeout(Millis(45_000));
    /// let r = room.result().unwrap();
    /// assert_eq!((r.outcome, r.reason, r.at), (SeatOutcome::Winner(1), EndReason::Timeout { seat: 0 }, Millis(30_000)));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    pub fn handle_timeout(&mut self, now: Millis) {
        let now = self.observe(now);
        while let Some((at, due)) = self.next_deadline() {
            if at > now {
                break;
            }
            self.fire(at, due);
        }
    }

    /// The oldest event not yet drained.
    ///
    /// # Examples
    ///
    /// See [`Event`].
    pub fn poll_event(&mut self) -> Option<Event<G::Action>> {
        self.events.pop_front()
    }

    // ---- commands ----

    /// Runs a person's command. Deadlines up to `now` run first (see
    /// [`handle_timeout`](Room::handle_timeout)).
    ///
    /// # Errors
    ///
    /// A [`RoomError`] saying why the command was refused; the state is then exactly as the
    /// deadlines left it. Among them: [`RoomError::RoomClosed`] for anything sent to a closed
    /// room; [`RoomError::NotInRoom`] for anyone but [`Join`](RoomCommand::Join) from outside;
    /// [`RoomError::Disconnected`] for anything but [`Reconnect`](RoomCommand::Reconnect) and
    /// [`Leave`](RoomCommand::Leave) from a disconnected person; [`RoomError::NotHost`] and
    /// [`RoomError::HostNotSeated`] for host commands; [`RoomError::NoGameInProgress`] for game
    /// commands to a finished game; for actions [`RoomError::NotYourSeat`],
    /// [`RoomError::Paused`], [`RoomError::NotYourTurn`], [`RoomError::StaleVersion`] and
    /// [`RoomError::IllegalAction`]; [`RoomError::SecondBot`]; [`RoomError::EmptySeat`] for a
    /// start with a free seat.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// # use reversi_clock::Millis;
    /// # use reversi_room::{PlayerId, Room, RoomActionLimit, RoomCommand, RoomError, RoomSettings};
    /// let mut room = Room::hosted(Millis(0), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(9, 2));
    /// let before = room.clone();
    /// assert_eq!(room.handle(Millis(0), PlayerId(2), RoomCommand::Start), Err(RoomError::NotInRoom { player: PlayerId(2) }));
    /// assert_eq!(room.handle(Millis(0), PlayerId(1), RoomCommand::Start), Err(RoomError::HostNotSeated { player: PlayerId(1) }));
    /// assert_eq!(room, before);
    /// ```
    pub fn handle(
        &mut self,
        now: Millis,
        by: PlayerId,
        command: RoomCommand<G::Action>,
    ) -> Result<(), RoomError> {
        let now = self.begin(now)?;
        let result = self.dispatch(now, by, command);
        if result.is_ok() {
            self.close_if_done(now);
        }
        result
    }

    fn dispatch(
        &mut self,
        now: Millis,
        by: PlayerId,
        command: RoomCommand<G::Action>,
    ) -> Result<(), RoomError> {
        if let RoomCommand::Join = command {
            return self.join(now, by);
        }
        let member = *self
            .members
            .get(&by)
            .ok_or(RoomError::NotInRoom { player: by })?;
        match command {
            RoomCommand::Leave => return self.leave(now, by),
            RoomCommand::Reconnect => return self.reconnect(now, by, member),
            _ if !member.connected() => return Err(RoomError::Disconnected { player: by }),
            _ => {}
        }
        match command {
            RoomCommand::Join | RoomCommand::Leave | RoomCommand::Reconnect => {
                unreachable!("handled above")
            }
            RoomCommand::Disconnect => self.disconnect(now, by),
            RoomCommand::Sit { seat } => self.sit(now, by, seat),
            RoomCommand::Stand => self.stand(now, by),
            RoomCommand::AddBot { seat, level } => self.add_bot(now, by, seat, level),
            RoomCommand::RemoveBot => self.remove_bot(now, by),
            RoomCommand::ReserveBotSeat => self.reserve(now, by),
            RoomCommand::Start => self.start(now, by),
            RoomCommand::Pause => self.pause(now, by),
            RoomCommand::Resume => self.resume(now, by),
            RoomCommand::End => self.end(now, by),
            RoomCommand::Act {
                seat,
                version,
                action,
            } => {
                let occupant = self.check_seat(seat)?;
                if occupant.and_then(Occupant::person) != Some(by) {
                    return Err(RoomError::NotYourSeat { player: by, seat });
                }
                self.act(now, seat, version, action)
            }
            RoomCommand::Resign => self.resign(now, by),
        }
    }

    /// Submits the bot's action for its seat, through the same checks as a person's.
    ///
    /// # Errors
    ///
    /// [`RoomError::RoomClosed`], [`RoomError::NoSuchSeat`], [`RoomError::NotABot`],
    /// [`RoomError::NoGameInProgress`], [`RoomError::Paused`], [`RoomError::NotYourTurn`],
    /// [`RoomError::StaleVersion`], [`RoomError::IllegalAction`]; the state is then unchanged.
    ///
    /// # Examples
    ///
    /// See [`Room`].
    pub fn bot_act(
        &mut self,
        now: Millis,
        seat: usize,
        version: u64,
        action: G::Action,
    ) -> Result<(), RoomError> {
        let now = self.begin(now)?;
        if !self.check_seat(seat)?.is_some_and(Occupant::is_bot) {
            return Err(RoomError::NotABot { seat });
        }
        self.act(now, seat, version, action)?;
        self.close_if_done(now);
        Ok(())
    }

    fn join(&mut self, now: Millis, by: PlayerId) -> Result<(), RoomError> {
        if self.members.contains_key(&by) {
            return Err(RoomError::AlreadyInRoom { player: by });
        }
        self.members.insert(by, Member::connected_now());
        self.emit(now, EventKind::Joined { player: by });
        self.someone_connected(now);
        Ok(())
    }

    fn leave(&mut self, now: Millis, by: PlayerId) -> Result<(), RoomError> {
        self.remove_member(now, by, EventKind::Left { player: by }, |seat| {
            EndReason::Abandoned { seat }
        });
        Ok(())
    }

    /// Unseats (abandoning a game), drops a reservation, removes the member, emits `event`, and
    /// starts the empty-room countdown if no one connected is left.
    fn remove_member(
        &mut self,
        now: Millis,
        by: PlayerId,
        event: EventKind<G::Action>,
        reason: impl Fn(usize) -> EndReason,
    ) {
        if let Some(seat) = self.seat_of(by) {
            self.unseat(now, by, seat, reason(seat));
        }
        if self.reservation == Some(by) {
            self.reservation = None;
            self.emit(now, EventKind::ReservationDropped { player: by });
        }
        let was_connected = self.members.remove(&by).is_some_and(|m| m.connected());
        self.emit(now, event);
        if was_connected {
            self.maybe_empty(now);
        }
    }

    /// Frees `seat`, ending the game first if the seat plays in it.
    fn unseat(&mut self, now: Millis, player: PlayerId, seat: usize, reason: EndReason) {
        if let Some(t) = self.live() {
            let outcome = t.game.state().forfeit(seat);
            self.finish(now, outcome, reason);
        }
        // A reservation may have seated someone else here at the result.
        if self.seats[seat].as_ref().and_then(Occupant::person) == Some(player) {
            self.seats[seat] = None;
            self.emit(now, EventKind::Stood { player, seat });
        }
    }

    fn disconnect(&mut self, now: Millis, by: PlayerId) -> Result<(), RoomError> {
        let grace_until = now + self.settings.disconnect_grace;
        let m = self.members.get_mut(&by).expect("checked member");
        m.disconnected_at = Some(now);
        m.grace_until = Some(grace_until);
        self.emit(
            now,
            EventKind::Disconnected {
                player: by,
                grace_until,
            },
        );
        self.maybe_empty(now);
        Ok(())
    }

    fn reconnect(&mut self, now: Millis, by: PlayerId, member: Member) -> Result<(), RoomError> {
        if member.connected() {
            return Err(RoomError::AlreadyConnected { player: by });
        }
        let m = self.members.get_mut(&by).expect("checked member");
        *m = Member::connected_now();
        self.emit(now, EventKind::Reconnected { player: by });
        self.someone_connected(now);
        Ok(())
    }

    fn sit(&mut self, now: Millis, by: PlayerId, seat: usize) -> Result<(), RoomError> {
        if self.check_seat(seat)?.is_some() {
            return Err(RoomError::SeatTaken { seat });
        }
        if let Some(held) = self.seat_of(by) {
            return Err(RoomError::AlreadySeated {
                player: by,
                seat: held,
            });
        }
        self.seats[seat] = Some(Occupant::Person { player: by });
        self.emit(now, EventKind::Sat { player: by, seat });
        Ok(())
    }

    fn stand(&mut self, now: Millis, by: PlayerId) -> Result<(), RoomError> {
        let seat = self
            .seat_of(by)
            .ok_or(RoomError::NotSeated { player: by })?;
        self.unseat(now, by, seat, EndReason::Abandoned { seat });
        Ok(())
    }

    fn add_bot(
        &mut self,
        now: Millis,
        by: PlayerId,
        seat: usize,
        level: String,
    ) -> Result<(), RoomError> {
        self.check_host(by)?;
        if let Some(existing) = self.bot_seat() {
            return Err(RoomError::SecondBot { seat: existing });
        }
        if self.check_seat(seat)?.is_some() {
            return Err(RoomError::SeatTaken { seat });
        }
        self.seats[seat] = Some(Occupant::Bot {
            level: level.clone(),
        });
        self.emit(now, EventKind::BotSeated { seat, level });
        Ok(())
    }

    fn remove_bot(&mut self, now: Millis, by: PlayerId) -> Result<(), RoomError> {
        self.check_host(by)?;
        let seat = self.bot_seat().ok_or(RoomError::NoBot)?;
        if self.in_game() {
            if self.bot_leaving {
                return Err(RoomError::BotAlreadyLeaving);
            }
            self.bot_leaving = true;
            self.emit(now, EventKind::BotLeavingAfterGame { seat });
        } else {
            self.seats[seat] = None;
            self.emit(now, EventKind::BotRemoved { seat });
        }
        Ok(())
    }

    fn reserve(&mut self, now: Millis, by: PlayerId) -> Result<(), RoomError> {
        if let Some(seat) = self.seat_of(by) {
            return Err(RoomError::AlreadySeated { player: by, seat });
        }
        if !self.in_game() {
            return Err(RoomError::NoGameInProgress);
        }
        let seat = self.bot_seat().ok_or(RoomError::NoBot)?;
        if let Some(player) = self.reservation {
            return Err(RoomError::AlreadyReserved { player });
        }
        self.reservation = Some(by);
        self.emit(now, EventKind::SeatReserved { player: by, seat });
        Ok(())
    }

    fn start(&mut self, now: Millis, by: PlayerId) -> Result<(), RoomError> {
        self.check_seated_host(by)?;
        if self.in_game() {
            return Err(RoomError::GameInProgress);
        }
        // The seated host is the person every game needs.
        if let Some(seat) = self.seats.iter().position(Option::is_none) {
            return Err(RoomError::EmptySeat { seat });
        }
        self.start_game(now);
        Ok(())
    }

    fn pause(&mut self, now: Millis, by: PlayerId) -> Result<(), RoomError> {
        self.check_seated_host(by)?;
        let t = self.live().ok_or(RoomError::NoGameInProgress)?;
        if t.host_paused {
            return Err(RoomError::Paused);
        }
        let t = self.live_mut().expect("in game");
        if !t.auto_paused {
            let _ = t.game.pause(now);
        }
        t.host_paused = true;
        self.emit(
            now,
            EventKind::Paused {
                cause: PauseCause::Host,
            },
        );
        Ok(())
    }

    fn resume(&mut self, now: Millis, by: PlayerId) -> Result<(), RoomError> {
        self.check_seated_host(by)?;
        let t = self.live().ok_or(RoomError::NoGameInProgress)?;
        if !t.host_paused {
            return Err(RoomError::NotPaused);
        }
        let t = self.live_mut().expect("in game");
        t.host_paused = false;
        let goes_on = !t.auto_paused;
        if goes_on {
            let _ = t.game.resume(now);
        }
        self.emit(
            now,
            EventKind::Resumed {
                cause: PauseCause::Host,
            },
        );
        if goes_on {
            self.announce_turn(now);
        }
        Ok(())
    }

    fn end(&mut self, now: Millis, by: PlayerId) -> Result<(), RoomError> {
        self.check_seated_host(by)?;
        if !self.in_game() {
            return Err(RoomError::NoGameInProgress);
        }
        self.finish(now, SeatOutcome::NoResult, EndReason::EndedByHost);
        Ok(())
    }

    fn resign(&mut self, now: Millis, by: PlayerId) -> Result<(), RoomError> {
        let seat = self
            .seat_of(by)
            .ok_or(RoomError::NotSeated { player: by })?;
        let t = self.live_mut().ok_or(RoomError::NoGameInProgress)?;
        t.game.resign(now, seat)?;
        self.ended();
        Ok(())
    }

    fn act(
        &mut self,
        now: Millis,
        seat: usize,
        version: u64,
        action: G::Action,
    ) -> Result<(), RoomError> {
        let current = self.version;
        let t = self.live().ok_or(RoomError::NoGameInProgress)?;
        if t.paused() {
            return Err(RoomError::Paused);
        }
        t.game.check_turn(seat)?;
        t.game.check_version(version, current)?;
        // Deadlines up to `now` ran first: the machine's own look at the clock finds none.
        let t = self.live_mut().expect("in game");
        t.game.act(now, seat, &action)?;
        let over = t.game.is_over();
        self.emit(now, EventKind::Acted { seat, action });
        if over {
            self.ended();
        } else {
            self.announce_turn(now);
        }
        Ok(())
    }

    // ---- internals ----

    fn observe(&mut self, now: Millis) -> Millis {
        self.last_now = self.last_now.max(now);
        self.last_now
    }

    /// Runs the deadlines up to `now` and refuses everything once closed.
    fn begin(&mut self, now: Millis) -> Result<Millis, RoomError> {
        self.handle_timeout(now);
        if self.closed.is_some() {
            return Err(RoomError::RoomClosed);
        }
        Ok(self.last_now)
    }

    fn emit(&mut self, at: Millis, kind: EventKind<G::Action>) {
        self.version += 1;
        self.events.push_back(Event {
            at,
            version: self.version,
            kind,
        });
    }

    fn live(&self) -> Option<&Table<G>> {
        self.table.as_ref().filter(|t| t.in_progress())
    }

    fn live_mut(&mut self) -> Option<&mut Table<G>> {
        self.table.as_mut().filter(|t| t.in_progress())
    }

    fn check_seat(&self, seat: usize) -> Result<Option<&Occupant>, RoomError> {
        self.seats
            .get(seat)
            .map(Option::as_ref)
            .ok_or(RoomError::NoSuchSeat {
                seat,
                seats: self.seats.len(),
            })
    }

    fn check_host(&self, by: PlayerId) -> Result<(), RoomError> {
        if self.host == Some(by) {
            Ok(())
        } else {
            Err(RoomError::NotHost { player: by })
        }
    }

    fn check_seated_host(&self, by: PlayerId) -> Result<(), RoomError> {
        self.check_host(by)?;
        if self.seat_of(by).is_none() {
            return Err(RoomError::HostNotSeated { player: by });
        }
        Ok(())
    }

    fn anyone_connected(&self) -> bool {
        self.members.values().any(Member::connected)
    }

    fn start_game(&mut self, now: Millis) {
        self.games += 1;
        let game = TimedGame::new(
            self.games,
            self.initial.clone(),
            TimeControl::per_move(self.settings.action_limit),
            now,
        );
        let over = game.is_over();
        self.table = Some(Table {
            game,
            started_at: now,
            limit_at: self.settings.game_limit.map(|l| now + l),
            host_paused: false,
            auto_paused: false,
        });
        let seats = self.seats.iter().flatten().cloned().collect();
        self.emit(
            now,
            EventKind::GameStarted {
                game: self.games,
                seats,
            },
        );
        if over {
            // Nobody has anything to decide: the game is over by its rules at once.
            self.ended();
        } else {
            if self.settings.close_when_empty.is_some() && !self.anyone_connected() {
                self.auto_pause(now);
            }
            self.announce_turn(now);
        }
    }

    /// Emits `ActionDue` for the seat to act (if the game runs) and marks the turn's version.
    fn announce_turn(&mut self, now: Millis) {
        let Some(t) = self.live() else { return };
        if t.paused() {
            return;
        }
        let (Some(seat), Some(deadline)) = (t.game.to_act(), t.game.poll_timeout()) else {
            return;
        };
        let bot = self.seats[seat].as_ref().is_some_and(Occupant::is_bot);
        self.emit(
            now,
            EventKind::ActionDue {
                seat,
                deadline,
                bot,
            },
        );
        let version = self.version;
        self.live_mut()
            .expect("in game")
            .game
            .set_turn_version(version);
    }

    /// The game ends for a reason of the room's: the machine records the result and stops the
    /// clock, then the room follows ([`ended`](Room::ended)).
    fn finish(&mut self, at: Millis, outcome: SeatOutcome, reason: EndReason) {
        let t = self.live_mut().expect("finish needs a game in progress");
        let _ = t.game.end(at, outcome, reason);
        self.ended();
    }

    /// After the machine recorded the game's result (by the rules, a time-out, a resignation or
    /// the room's `finish`): no more pauses, `GameEnded`, then the bot changes that waited for
    /// the result, all at the result's instant.
    fn ended(&mut self) {
        let Some(t) = self.table.as_mut() else { return };
        let Some(result) = t.game.result() else {
            return;
        };
        let at = result.at;
        t.host_paused = false;
        t.auto_paused = false;
        self.emit(at, EventKind::GameEnded { result });
        if let Some(seat) = self.bot_seat() {
            let reserved = self.reservation.take();
            if self.bot_leaving || reserved.is_some() {
                self.seats[seat] = None;
                self.emit(at, EventKind::BotRemoved { seat });
            }
            if let Some(player) = reserved {
                self.seats[seat] = Some(Occupant::Person { player });
                self.emit(at, EventKind::Sat { player, seat });
            }
        }
        self.bot_leaving = false;
        self.reservation = None;
    }

    /// A single-game room closes once its game is over, after the rest of the step that ended
    /// it (a player leaving is unseated first), so that `Closed` is always the last event.
    fn close_if_done(&mut self, at: Millis) {
        let over = self.table.as_ref().is_some_and(|t| !t.in_progress());
        if self.settings.single_game && over {
            self.close(at, CloseReason::GameOver);
        }
    }

    fn close(&mut self, at: Millis, reason: CloseReason) {
        if self.closed.is_some() {
            return;
        }
        if self.in_game() {
            self.finish(at, SeatOutcome::NoResult, EndReason::RoomClosed);
        }
        self.close_at = None;
        self.closed = Some(reason);
        self.emit(at, EventKind::Closed { reason });
    }

    fn auto_pause(&mut self, now: Millis) {
        let Some(t) = self.live_mut() else { return };
        if t.auto_paused {
            return;
        }
        t.auto_paused = true;
        if !t.host_paused {
            let _ = t.game.pause(now);
            self.emit(
                now,
                EventKind::Paused {
                    cause: PauseCause::NobodyConnected,
                },
            );
        }
    }

    /// After someone left or disconnected: with no person connected, pause and count down.
    fn maybe_empty(&mut self, now: Millis) {
        let Some(delay) = self.settings.close_when_empty else {
            return;
        };
        if self.anyone_connected() || self.close_at.is_some() || self.closed.is_some() {
            return;
        }
        self.auto_pause(now);
        let closes_at = now + delay;
        self.close_at = Some(closes_at);
        self.emit(now, EventKind::Emptied { closes_at });
    }

    /// After someone joined or reconnected: stop the countdown and go on.
    fn someone_connected(&mut self, now: Millis) {
        self.close_at = None;
        let Some(t) = self.live_mut() else { return };
        if !t.auto_paused {
            return;
        }
        t.auto_paused = false;
        if !t.host_paused {
            let _ = t.game.resume(now);
            self.emit(
                now,
                EventKind::Resumed {
                    cause: PauseCause::NobodyConnected,
                },
            );
            self.announce_turn(now);
        }
    }

    /// The earliest pending deadline. Ties go to the action deadline, then the game-length
    /// limit, then disconnections (by player id), then the room's closing.
    fn next_deadline(&self) -> Option<(Millis, Due)> {
        if self.closed.is_some() {
            return None;
        }
        let mut best: Option<(Millis, Due)> = None;
        let mut consider = |at: Option<Millis>, due: Due| {
            if let Some(at) = at {
                let earlier = match &best {
                    Some((b, _)) => at < *b,
                    None => true,
                };
                if earlier {
                    best = Some((at, due));
                }
            }
        };
        if let Some(t) = self.live() {
            consider(t.game.poll_timeout(), Due::Action);
            consider(t.limit_at, Due::GameLimit);
        }
        for (&player, m) in &self.members {
            consider(m.grace_until, Due::Grace(player));
        }
        consider(self.close_at, Due::Close);
        best
    }

    fn fire(&mut self, at: Millis, due: Due) {
        match due {
            Due::Action => {
                let t = self.live_mut().expect("an action deadline needs a game");
                if t.game.handle_timeout(at) {
                    self.ended();
                }
            }
            Due::GameLimit => {
                let outcome = self
                    .live()
                    .expect("a limit needs a game")
                    .game
                    .state()
                    .adjudicate();
                self.finish(at, outcome, EndReason::TimeLimit);
            }
            Due::Grace(player) => {
                self.remove_member(at, player, EventKind::Dropped { player }, |seat| {
                    EndReason::Disconnected { seat }
                });
            }
            Due::Close => self.close(at, CloseReason::Empty),
        }
        self.close_if_done(at);
    }
}

/// A kind of deadline.
#[derive(Debug, Clone, Copy)]
enum Due {
    Action,
    GameLimit,
    Grace(PlayerId),
    Close,
}

impl Member {
    fn connected_now() -> Member {
        Member {
            disconnected_at: None,
            grace_until: None,
        }
    }
}
