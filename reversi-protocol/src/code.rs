//! The refusal codes of the `error` message.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The stable code of a refusal (`error`'s `code`), as listed in `PROTOCOL.md`'s table of error
/// codes: the protocol's own, then those of the rooms and the lobby by their snake-case name.
///
/// [`ServerMsg::Error`](crate::ServerMsg::Error) keeps its code as a string, so that a client
/// reads a code that a newer server added; [`ErrorCode::from_name`] types it.
///
/// ```
/// use reversi_protocol::ErrorCode;
///
/// assert_eq!(ErrorCode::StaleVersion.as_str(), "stale_version");
/// assert_eq!("stale_version".parse::<ErrorCode>(), Ok(ErrorCode::StaleVersion));
/// assert_eq!(serde_json::to_string(&ErrorCode::GameOver).unwrap(), r#""game_over""#);
/// assert!(ErrorCode::from_name("no_such_code").is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// The frame is not JSON.
    BadJson,
    /// The JSON is not an object.
    NotAnObject,
    /// No string `type` field.
    MissingType,
    /// A `type` the server does not know.
    UnknownType,
    /// A field is missing, unknown, or of the wrong kind (the message says which).
    BadMessage,
    /// Over [`MAX_MESSAGE_BYTES`](crate::MAX_MESSAGE_BYTES).
    TooLarge,
    /// A binary frame.
    BinaryFrame,
    /// Over the rate; messages are dropped until it falls.
    RateLimited,
    /// No room (or finished game) with that id.
    NoSuchGame,
    /// A room time other than 30, 60 or 90 s.
    BadTime,
    /// Undo in an online or hosted game.
    NoUndoOnline,
    /// `reconnect` on a connection that already has a guest.
    AlreadyIdentified,
    /// No finished online game of the player's with that id to play again.
    NoRematch,
    /// The player offered this rematch already: it is up to the opponent.
    RematchOffered,
    /// A `move` or `resign` in a game that is over, or a `sync` of a finished online room.
    GameOver,
    /// The server could not read its database; nothing changed.
    Internal,
    /// A cluster node could not reach Redis or the room's node: nothing changed, send it again.
    Unavailable,
    /// Room: the player is not in the room.
    NotInRoom,
    /// Room: the player is in the room already.
    AlreadyInRoom,
    /// Room: only the host may do that.
    NotHost,
    /// Room: the host must be seated to do that.
    HostNotSeated,
    /// Room: no seat with that number.
    NoSuchSeat,
    /// Room: the seat is taken.
    SeatTaken,
    /// Room: the player is seated already.
    AlreadySeated,
    /// Room: the player is not seated.
    NotSeated,
    /// Room: a room has at most one bot.
    SecondBot,
    /// Room: the room has no bot.
    NoBot,
    /// Room: the seat is not a bot's.
    NotABot,
    /// Room: the bot is leaving already.
    BotAlreadyLeaving,
    /// Room: the bot's seat is reserved already.
    AlreadyReserved,
    /// Room: a seat is empty.
    EmptySeat,
    /// Room: nobody is seated.
    NoPerson,
    /// Room: a game is in progress.
    GameInProgress,
    /// Room: no game is in progress.
    NoGameInProgress,
    /// Room: the game is paused.
    Paused,
    /// Room: the game is not paused.
    NotPaused,
    /// Room: the seat is not the player's.
    NotYourSeat,
    /// Room: it is not the player's turn.
    NotYourTurn,
    /// Room: an illegal move (an occupied square, or one that flips nothing).
    IllegalAction,
    /// Room: the move was decided on a version older than `turn_version`.
    StaleVersion,
    /// Room: the player is disconnected.
    Disconnected,
    /// Room: the player is connected already.
    AlreadyConnected,
    /// Room: the room is closed.
    RoomClosed,
    /// Lobby: a game kind the lobby does not know.
    UnknownGameKind,
    /// Lobby: the player must resign its game first.
    MustResignFirst,
    /// Lobby: the player is waiting for an opponent already.
    AlreadyWaiting,
    /// Lobby: the player has an open invite.
    InviteOpen,
    /// Lobby: the player is not waiting for an opponent.
    NotWaiting,
    /// Lobby: the player has no open invite.
    NoOpenInvite,
    /// Lobby: not an invite code (nor its link).
    BadInviteCode,
    /// Lobby: no invite with that code.
    UnknownInvite,
    /// Lobby: the invite ran out.
    InviteExpired,
    /// Lobby: the invite was cancelled.
    InviteCancelled,
    /// Lobby: the invite's game has its players already.
    InviteFull,
    /// Lobby: a player cannot join its own invite.
    OwnInvite,
    /// No guest was ever given this token.
    WrongToken,
    /// Lobby: no room with that id.
    NoSuchRoom,
}

impl ErrorCode {
    /// Every code, in the order of `PROTOCOL.md`'s table.
    ///
    /// ```
    /// use reversi_protocol::ErrorCode;
    /// assert!(ErrorCode::ALL.iter().all(|c| ErrorCode::from_name(c.as_str()) == Some(*c)));
    /// ```
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::BadJson,
        ErrorCode::NotAnObject,
        ErrorCode::MissingType,
        ErrorCode::UnknownType,
        ErrorCode::BadMessage,
        ErrorCode::TooLarge,
        ErrorCode::BinaryFrame,
        ErrorCode::RateLimited,
        ErrorCode::NoSuchGame,
        ErrorCode::BadTime,
        ErrorCode::NoUndoOnline,
        ErrorCode::AlreadyIdentified,
        ErrorCode::NoRematch,
        ErrorCode::RematchOffered,
        ErrorCode::GameOver,
        ErrorCode::Internal,
        ErrorCode::Unavailable,
        ErrorCode::NotInRoom,
        ErrorCode::AlreadyInRoom,
        ErrorCode::NotHost,
        ErrorCode::HostNotSeated,
        ErrorCode::NoSuchSeat,
        ErrorCode::SeatTaken,
        ErrorCode::AlreadySeated,
        ErrorCode::NotSeated,
        ErrorCode::SecondBot,
        ErrorCode::NoBot,
        ErrorCode::NotABot,
        ErrorCode::BotAlreadyLeaving,
        ErrorCode::AlreadyReserved,
        ErrorCode::EmptySeat,
        ErrorCode::NoPerson,
        ErrorCode::GameInProgress,
        ErrorCode::NoGameInProgress,
        ErrorCode::Paused,
        ErrorCode::NotPaused,
        ErrorCode::NotYourSeat,
        ErrorCode::NotYourTurn,
        ErrorCode::IllegalAction,
        ErrorCode::StaleVersion,
        ErrorCode::Disconnected,
        ErrorCode::AlreadyConnected,
        ErrorCode::RoomClosed,
        ErrorCode::UnknownGameKind,
        ErrorCode::MustResignFirst,
        ErrorCode::AlreadyWaiting,
        ErrorCode::InviteOpen,
        ErrorCode::NotWaiting,
        ErrorCode::NoOpenInvite,
        ErrorCode::BadInviteCode,
        ErrorCode::UnknownInvite,
        ErrorCode::InviteExpired,
        ErrorCode::InviteCancelled,
        ErrorCode::InviteFull,
        ErrorCode::OwnInvite,
        ErrorCode::WrongToken,
        ErrorCode::NoSuchRoom,
    ];

    /// The code's name on the wire.
    ///
    /// ```
    /// assert_eq!(reversi_protocol::ErrorCode::BadJson.as_str(), "bad_json");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadJson => "bad_json",
            ErrorCode::NotAnObject => "not_an_object",
            ErrorCode::MissingType => "missing_type",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::BinaryFrame => "binary_frame",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::NoSuchGame => "no_such_game",
            ErrorCode::BadTime => "bad_time",
            ErrorCode::NoUndoOnline => "no_undo_online",
            ErrorCode::AlreadyIdentified => "already_identified",
            ErrorCode::NoRematch => "no_rematch",
            ErrorCode::RematchOffered => "rematch_offered",
            ErrorCode::GameOver => "game_over",
            ErrorCode::Internal => "internal",
            ErrorCode::Unavailable => "unavailable",
            ErrorCode::NotInRoom => "not_in_room",
            ErrorCode::AlreadyInRoom => "already_in_room",
            ErrorCode::NotHost => "not_host",
            ErrorCode::HostNotSeated => "host_not_seated",
            ErrorCode::NoSuchSeat => "no_such_seat",
            ErrorCode::SeatTaken => "seat_taken",
            ErrorCode::AlreadySeated => "already_seated",
            ErrorCode::NotSeated => "not_seated",
            ErrorCode::SecondBot => "second_bot",
            ErrorCode::NoBot => "no_bot",
            ErrorCode::NotABot => "not_a_bot",
            ErrorCode::BotAlreadyLeaving => "bot_already_leaving",
            ErrorCode::AlreadyReserved => "already_reserved",
            ErrorCode::EmptySeat => "empty_seat",
            ErrorCode::NoPerson => "no_person",
            ErrorCode::GameInProgress => "game_in_progress",
            ErrorCode::NoGameInProgress => "no_game_in_progress",
            ErrorCode::Paused => "paused",
            ErrorCode::NotPaused => "not_paused",
            ErrorCode::NotYourSeat => "not_your_seat",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::IllegalAction => "illegal_action",
            ErrorCode::StaleVersion => "stale_version",
            ErrorCode::Disconnected => "disconnected",
            ErrorCode::AlreadyConnected => "already_connected",
            ErrorCode::RoomClosed => "room_closed",
            ErrorCode::UnknownGameKind => "unknown_game_kind",
            ErrorCode::MustResignFirst => "must_resign_first",
            ErrorCode::AlreadyWaiting => "already_waiting",
            ErrorCode::InviteOpen => "invite_open",
            ErrorCode::NotWaiting => "not_waiting",
            ErrorCode::NoOpenInvite => "no_open_invite",
            ErrorCode::BadInviteCode => "bad_invite_code",
            ErrorCode::UnknownInvite => "unknown_invite",
            ErrorCode::InviteExpired => "invite_expired",
            ErrorCode::InviteCancelled => "invite_cancelled",
            ErrorCode::InviteFull => "invite_full",
            ErrorCode::OwnInvite => "own_invite",
            ErrorCode::WrongToken => "wrong_token",
            ErrorCode::NoSuchRoom => "no_such_room",
        }
    }

    /// The code of a name on the wire, if it is one of this version's.
    ///
    /// ```
    /// use reversi_protocol::ErrorCode;
    /// assert_eq!(ErrorCode::from_name("too_large"), Some(ErrorCode::TooLarge));
    /// assert_eq!(ErrorCode::from_name("Too_Large"), None);
    /// ```
    #[must_use]
    pub fn from_name(name: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for ErrorCode {
    /// The code's name on the wire.
    ///
    /// ```
    /// assert_eq!(reversi_protocol::ErrorCode::NoSuchGame.to_string(), "no_such_game");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not a refusal code of this protocol version.
///
/// ```
/// use reversi_protocol::{ErrorCode, UnknownCode};
/// assert_eq!("nope".parse::<ErrorCode>(), Err(UnknownCode("nope".into())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCode(pub String);

impl fmt::Display for UnknownCode {
    /// Names the code.
    ///
    /// ```
    /// let e = "nope".parse::<reversi_protocol::ErrorCode>().unwrap_err();
    /// assert_eq!(e.to_string(), "unknown error code \"nope\"");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown error code {:?}", self.0)
    }
}

impl std::error::Error for UnknownCode {}

impl FromStr for ErrorCode {
    type Err = UnknownCode;

    /// The code of a name on the wire.
    ///
    /// ```
    /// assert!("illegal_action".parse::<reversi_protocol::ErrorCode>().is_ok());
    /// ```
    fn from_str(s: &str) -> Result<ErrorCode, UnknownCode> {
        ErrorCode::from_name(s).ok_or_else(|| UnknownCode(s.chars().take(40).collect()))
    }
}

impl From<ErrorCode> for Cow<'static, str> {
    /// The code's name, for APIs that take any code as a string.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// let c: Cow<'static, str> = reversi_protocol::ErrorCode::Internal.into();
    /// assert_eq!(c, "internal");
    /// ```
    fn from(c: ErrorCode) -> Cow<'static, str> {
        Cow::Borrowed(c.as_str())
    }
}

impl From<ErrorCode> for String {
    /// The code's name.
    ///
    /// ```
    /// let s: String = reversi_protocol::ErrorCode::Internal.into();
    /// assert_eq!(s, "internal");
    /// ```
    fn from(c: ErrorCode) -> String {
        c.as_str().to_owned()
    }
}
