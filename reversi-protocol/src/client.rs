//! Client → server: what clients send, and the parser of the frames the server receives.

use std::fmt;

use reversi_core::Square;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{ErrorCode, ServerMsg, MAX_MESSAGE_BYTES};

/// A bot's level (`add_bot`'s `level`, and a bot's seat in a state).
///
/// ```
/// use reversi_protocol::Level;
/// assert_eq!(serde_json::to_string(&Level::Hard).unwrap(), r#""hard""#);
/// assert_eq!(Level::from_name("normal"), Some(Level::Normal));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Random moves, sometimes greedy.
    Easy,
    /// A shallow search.
    Normal,
    /// A deep search with an exact endgame.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    ///
    /// ```
    /// assert_eq!(reversi_protocol::Level::ALL.len(), 3);
    /// ```
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// The name used on the wire.
    ///
    /// ```
    /// assert_eq!(reversi_protocol::Level::Easy.name(), "easy");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    /// The level of a name on the wire.
    ///
    /// ```
    /// use reversi_protocol::Level;
    /// assert_eq!(Level::from_name("hard"), Some(Level::Hard));
    /// assert_eq!(Level::from_name("expert"), None);
    /// ```
    #[must_use]
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// Everything a client may send. Each message is a JSON object with a `"type"`; any message may
/// carry a `"rid"` (any JSON value) that the direct answer or error echoes. Unknown fields are
/// refused (`bad_message`); absent optional fields are left out when serialising.
///
/// ```
/// use reversi_protocol::{ClientMsg, Level};
///
/// let msg = ClientMsg::AddBot { rid: Some(7.into()), room: "H3".into(), seat: 1, level: Level::Easy };
/// let text = msg.to_text();
/// let v: serde_json::Value = serde_json::from_str(&text).unwrap();
/// assert_eq!(v, serde_json::json!({"type":"add_bot","rid":7,"room":"H3","seat":1,"level":"easy"}));
/// assert_eq!(serde_json::from_str::<ClientMsg>(&text).unwrap(), msg);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Keep-alive: answered by `pong`.
    Ping {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// Play a move in an online or hosted room, made on state `version`.
    Move {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id (`R…` online, `H…` hosted).
        game: String,
        /// The square played.
        square: Square,
        /// The state version the client saw when it decided.
        version: u64,
    },
    /// Take back a move: always refused (`no_undo_online`), there is no undo in online or hosted
    /// rooms.
    Undo {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id (`R…` online, `H…` hosted).
        game: String,
        /// The state version the client saw when it decided.
        version: u64,
    },
    /// Resign a game.
    Resign {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id (`R…` online, `H…` hosted).
        game: String,
    },
    /// Ask for the full state of a game.
    Sync {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id (`R…` online, `H…` hosted).
        game: String,
    },
    /// Online: wait for a random opponent.
    Queue {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// Online: stop waiting.
    CancelQueue {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// Online: create an invite code.
    InviteCreate {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// Online: cancel one's invite.
    InviteCancel {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// Online: join with a code.
    InviteJoin {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The invite code.
        code: String,
    },
    /// Online: come back with the token handed out at join.
    Reconnect {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The token handed out by `guest`.
        token: String,
    },
    /// Hosted rooms: create one (the sender is its host).
    RoomCreate {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// Seconds per action: 30, 60 or 90 (default 30).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        action_secs: Option<u64>,
    },
    /// Hosted rooms: enter a room.
    RoomJoin {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: sit in a seat (0 black, 1 white).
    Sit {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id.
        room: String,
        /// The seat: 0 black, 1 white.
        seat: usize,
    },
    /// Hosted rooms: stand up.
    Stand {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: the host seats a bot.
    AddBot {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id.
        room: String,
        /// The seat: 0 black, 1 white.
        seat: usize,
        /// The bot's level.
        level: Level,
    },
    /// Hosted rooms: the host removes the bot.
    RemoveBot {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: reserve the bot's seat, taken over at the end of the game.
    Reserve {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: the host starts a game.
    Start {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: the host pauses.
    Pause {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: the host resumes.
    Resume {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: the host ends the game without a result.
    End {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Online: offer a rematch after a finished game, or accept the opponent's offer; when both
    /// have sent it, a new game between them starts.
    Rematch {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The finished online game's room id (`R…`).
        room: String,
    },
    /// Leave a room (abandonment if seated in a game).
    Leave {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Read a finished game with the token of one of its players: answered by `record`.
    Record {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The room's id (`R…` online, `H…` hosted).
        game: String,
        /// The token `guest` handed out.
        token: String,
        /// Hosted rooms: which game of the room (default: the last one the player played).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game_no: Option<u64>,
    },
    /// A player's recent finished games, with their moves: answered by `games`.
    Games {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
        /// The token `guest` handed out.
        token: String,
        /// How many, newest first: 1 to 50 (default 20).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<u32>,
    },
}

impl ClientMsg {
    /// The message's `type`, for logs and error replies.
    ///
    /// ```
    /// use reversi_protocol::ClientMsg;
    /// assert_eq!(ClientMsg::CancelQueue { rid: None }.kind(), "cancel_queue");
    /// ```
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            ClientMsg::Ping { .. } => "ping",
            ClientMsg::Move { .. } => "move",
            ClientMsg::Undo { .. } => "undo",
            ClientMsg::Resign { .. } => "resign",
            ClientMsg::Sync { .. } => "sync",
            ClientMsg::Queue { .. } => "queue",
            ClientMsg::CancelQueue { .. } => "cancel_queue",
            ClientMsg::InviteCreate { .. } => "invite_create",
            ClientMsg::InviteCancel { .. } => "invite_cancel",
            ClientMsg::InviteJoin { .. } => "invite_join",
            ClientMsg::Reconnect { .. } => "reconnect",
            ClientMsg::RoomCreate { .. } => "room_create",
            ClientMsg::RoomJoin { .. } => "room_join",
            ClientMsg::Sit { .. } => "sit",
            ClientMsg::Stand { .. } => "stand",
            ClientMsg::AddBot { .. } => "add_bot",
            ClientMsg::RemoveBot { .. } => "remove_bot",
            ClientMsg::Reserve { .. } => "reserve",
            ClientMsg::Start { .. } => "start",
            ClientMsg::Pause { .. } => "pause",
            ClientMsg::Resume { .. } => "resume",
            ClientMsg::End { .. } => "end",
            ClientMsg::Rematch { .. } => "rematch",
            ClientMsg::Leave { .. } => "leave",
            ClientMsg::Record { .. } => "record",
            ClientMsg::Games { .. } => "games",
        }
    }

    /// The request id the client attached, if any.
    ///
    /// ```
    /// use reversi_protocol::ClientMsg;
    /// assert_eq!(ClientMsg::Ping { rid: Some("a".into()) }.rid(), Some(&"a".into()));
    /// ```
    #[must_use]
    pub fn rid(&self) -> Option<&Value> {
        match self {
            ClientMsg::Ping { rid }
            | ClientMsg::Move { rid, .. }
            | ClientMsg::Undo { rid, .. }
            | ClientMsg::Resign { rid, .. }
            | ClientMsg::Sync { rid, .. }
            | ClientMsg::Queue { rid }
            | ClientMsg::CancelQueue { rid }
            | ClientMsg::InviteCreate { rid }
            | ClientMsg::InviteCancel { rid }
            | ClientMsg::InviteJoin { rid, .. }
            | ClientMsg::Reconnect { rid, .. }
            | ClientMsg::RoomCreate { rid, .. }
            | ClientMsg::RoomJoin { rid, .. }
            | ClientMsg::Sit { rid, .. }
            | ClientMsg::Stand { rid, .. }
            | ClientMsg::AddBot { rid, .. }
            | ClientMsg::RemoveBot { rid, .. }
            | ClientMsg::Reserve { rid, .. }
            | ClientMsg::Start { rid, .. }
            | ClientMsg::Pause { rid, .. }
            | ClientMsg::Resume { rid, .. }
            | ClientMsg::End { rid, .. }
            | ClientMsg::Rematch { rid, .. }
            | ClientMsg::Leave { rid, .. }
            | ClientMsg::Record { rid, .. }
            | ClientMsg::Games { rid, .. } => rid.as_ref(),
        }
    }

    /// The message as the text of one WebSocket frame.
    ///
    /// ```
    /// use reversi_protocol::ClientMsg;
    /// assert_eq!(ClientMsg::Ping { rid: Some(1.into()) }.to_text(), r#"{"type":"ping","rid":1}"#);
    /// ```
    #[must_use]
    pub fn to_text(&self) -> String {
        // Serialising cannot fail: every field is a string, a number, a list or a JSON value,
        // and every map has string keys.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// All message types a client may send, for `unknown_type` errors.
///
/// ```
/// assert!(reversi_protocol::CLIENT_TYPES.contains(&"room_create"));
/// ```
pub const CLIENT_TYPES: &[&str] = &[
    "ping",
    "move",
    "undo",
    "resign",
    "sync",
    "queue",
    "cancel_queue",
    "invite_create",
    "invite_cancel",
    "invite_join",
    "reconnect",
    "room_create",
    "room_join",
    "sit",
    "stand",
    "add_bot",
    "remove_bot",
    "reserve",
    "start",
    "pause",
    "resume",
    "end",
    "rematch",
    "leave",
    "record",
    "games",
];

/// Why a text frame is not a client message: the refusal's code and sentence, with the message
/// type and request id when they could be read (the `error` answer echoes them).
///
/// ```
/// use reversi_protocol::{parse_client, ErrorCode};
///
/// let e = parse_client(r#"{"type":"move","game":"R1","rid":4}"#).unwrap_err();
/// assert_eq!(e.code, ErrorCode::BadMessage);
/// assert_eq!((e.request.as_deref(), e.rid), (Some("move"), Some(4.into())));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ParseError {
    /// The refusal's code: `too_large`, `bad_json`, `not_an_object`, `missing_type`,
    /// `unknown_type` or `bad_message`.
    pub code: ErrorCode,
    /// What is wrong, for people.
    pub message: String,
    /// The message's type, when it is one of [`CLIENT_TYPES`].
    pub request: Option<String>,
    /// The message's `rid`, when the frame is a JSON object that has one.
    pub rid: Option<Value>,
}

impl ParseError {
    /// The `error` message that answers the frame.
    ///
    /// ```
    /// use reversi_protocol::{parse_client, ServerMsg};
    ///
    /// let e = parse_client(r#"{"type":"dance","rid":"x"}"#).unwrap_err();
    /// let ServerMsg::Error { code, request, rid, .. } = e.to_msg() else { unreachable!() };
    /// assert_eq!((code.as_str(), request, rid), ("unknown_type", None, Some("x".into())));
    /// ```
    #[must_use]
    pub fn to_msg(&self) -> ServerMsg {
        ServerMsg::Error {
            code: self.code.as_str().to_owned(),
            message: self.message.clone(),
            request: self.request.clone(),
            rid: self.rid.clone(),
        }
    }
}

impl fmt::Display for ParseError {
    /// The code and the sentence.
    ///
    /// ```
    /// let e = reversi_protocol::parse_client("[]").unwrap_err();
    /// assert_eq!(e.to_string(), "not_an_object: a message must be a JSON object");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses one text frame into a client message, or the refusal naming what is wrong with it
/// (the checks in order: size, JSON, object, `type`, known type, fields). Never panics, whatever
/// the text.
///
/// ```
/// use reversi_protocol::{parse_client, ClientMsg, ErrorCode};
///
/// assert_eq!(parse_client(r#"{"type":"ping","rid":1}"#), Ok(ClientMsg::Ping { rid: Some(1.into()) }));
/// assert_eq!(parse_client("{").unwrap_err().code, ErrorCode::BadJson);
/// assert_eq!(parse_client(r#"{"rid":1}"#).unwrap_err().code, ErrorCode::MissingType);
/// assert_eq!(parse_client(r#"{"type":"ping","x":1}"#).unwrap_err().code, ErrorCode::BadMessage);
/// ```
pub fn parse_client(text: &str) -> Result<ClientMsg, ParseError> {
    let refuse = |code, message: String, request: Option<String>, rid: Option<Value>| ParseError {
        code,
        message,
        request,
        rid,
    };
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(refuse(
            ErrorCode::TooLarge,
            format!(
                "a message may have at most {MAX_MESSAGE_BYTES} bytes, this one has {}",
                text.len()
            ),
            None,
            None,
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        refuse(
            ErrorCode::BadJson,
            format!("not valid JSON: {e}"),
            None,
            None,
        )
    })?;
    let Some(obj) = value.as_object() else {
        return Err(refuse(
            ErrorCode::NotAnObject,
            "a message must be a JSON object".to_owned(),
            None,
            None,
        ));
    };
    let rid = obj.get("rid").cloned();
    let Some(kind) = obj.get("type") else {
        return Err(refuse(
            ErrorCode::MissingType,
            "a message needs a \"type\" field".to_owned(),
            None,
            rid,
        ));
    };
    let Some(kind) = kind.as_str() else {
        return Err(refuse(
            ErrorCode::MissingType,
            "the \"type\" field must be a string".to_owned(),
            None,
            rid,
        ));
    };
    if !CLIENT_TYPES.contains(&kind) {
        let shown: String = kind.chars().take(40).collect();
        return Err(refuse(
            ErrorCode::UnknownType,
            format!("unknown message type {shown:?}"),
            None,
            rid,
        ));
    }
    let kind = kind.to_owned();
    serde_json::from_value::<ClientMsg>(value).map_err(|e| {
        refuse(
            ErrorCode::BadMessage,
            format!("bad {kind} message: {e}"),
            Some(kind.clone()),
            rid,
        )
    })
}
