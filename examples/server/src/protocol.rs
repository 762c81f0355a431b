//! The JSON protocol over the WebSocket: what clients send, what the server answers, and the
//! refusals. `PROTOCOL.md` at the repository root documents every message; keep the two in step.

use std::borrow::Cow;

use reversi::core::{Color, Square};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

mod server;
pub use server::{
    ClockView, Count, GameRecordView, HistoryPly, LegalMove, MemberView, Placement, Rate,
    ResultView, SeatView, ServerMsg, State, StateKind,
};

/// The protocol version, sent in `welcome`. Bumped on any incompatible change (version 2 dropped
/// the games of one connection: local games run in the page and never reach the server; version
/// 3 names a resignation `resignation`, ends an online room `over` rather than `closed`, and
/// refuses commands in a finished game with `game_over`).
pub const PROTOCOL_VERSION: u32 = 3;

/// The largest text message the server reads, in bytes. A longer one is refused with
/// `too_large` and the connection goes on.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// Messages larger than this are not even buffered: the WebSocket layer closes the connection
/// (close code 1009).
pub const HARD_MESSAGE_BYTES: usize = 64 * 1024;

/// A refused command: a stable machine-readable `code` and a sentence for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// Stable error code, listed in `PROTOCOL.md`.
    pub code: Cow<'static, str>,
    /// What went wrong, for people.
    pub message: String,
}

impl Refusal {
    /// A refusal with its code and message.
    pub fn new(code: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Refusal {
        Refusal {
            code: code.into(),
            message: message.into(),
        }
    }

    /// The `error` message a client receives.
    pub fn to_json(&self, request: Option<&str>, rid: Option<&Value>) -> Value {
        let mut v = json!({"type": "error", "code": self.code, "message": self.message});
        if let Some(r) = request {
            v["request"] = json!(r);
        }
        if let Some(rid) = rid {
            v["rid"] = rid.clone();
        }
        v
    }
}

/// A bot's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The name used on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }
}

/// Everything a client may send. Each message is a JSON object with a `"type"`; any message may
/// carry a `"rid"` (any JSON value) that the direct answer or error echoes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Keep-alive: answered by `pong`.
    Ping {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// Play a move in an online or hosted room, made on state `version`.
    Move {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
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
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id (`R…` online, `H…` hosted).
        game: String,
        /// The state version the client saw when it decided.
        version: u64,
    },
    /// Resign a game.
    Resign {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id (`R…` online, `H…` hosted).
        game: String,
    },
    /// Ask for the full state of a game.
    Sync {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id (`R…` online, `H…` hosted).
        game: String,
    },
    /// Online: wait for a random opponent.
    Queue {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// Online: stop waiting.
    CancelQueue {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// Online: create an invite code.
    InviteCreate {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// Online: cancel one's invite.
    InviteCancel {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// Online: join with a code.
    InviteJoin {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The invite code.
        code: String,
    },
    /// Online: come back with the token handed out at join.
    Reconnect {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The token handed out by `guest`.
        token: String,
    },
    /// Hosted rooms: create one (the sender is its host).
    RoomCreate {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// Seconds per action: 30, 60 or 90 (default 30).
        #[serde(default)]
        action_secs: Option<u64>,
    },
    /// Hosted rooms: enter a room.
    RoomJoin {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: sit in a seat (0 black, 1 white).
    Sit {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id.
        room: String,
        /// The seat: 0 black, 1 white.
        seat: usize,
    },
    /// Hosted rooms: stand up.
    Stand {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: the host seats a bot.
    AddBot {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
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
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: reserve the bot's seat, taken over at the end of the game.
    Reserve {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: the host starts a game.
    Start {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: the host pauses.
    Pause {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: the host resumes.
    Resume {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Hosted rooms: the host ends the game without a result.
    End {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Online: offer a rematch after a finished game, or accept the opponent's offer; when both
    /// have sent it, a new game between them starts.
    Rematch {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The finished online game's room id (`R…`).
        room: String,
    },
    /// Leave a room (abandonment if seated in a game).
    Leave {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
    /// Read a finished game with the token of one of its players: answered by `record`.
    Record {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id (`R…` online, `H…` hosted).
        game: String,
        /// The token `guest` handed out.
        token: String,
        /// Hosted rooms: which game of the room (default: the last one the player played).
        #[serde(default)]
        game_no: Option<u64>,
    },
    /// A player's recent finished games, with their moves: answered by `games`.
    Games {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The token `guest` handed out.
        token: String,
        /// How many, newest first: 1 to 50 (default 20).
        #[serde(default)]
        limit: Option<u32>,
    },
}

impl ClientMsg {
    /// The message's `type`, for logs and error replies.
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
}

/// All message types a client may send, for `unknown_type` errors.
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

/// Parses one text frame into a message, or the refusal naming what is wrong with it, with the
/// message type and request id when they could be read.
pub fn parse(text: &str) -> Result<ClientMsg, (Refusal, Option<String>, Option<Value>)> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err((
            Refusal::new(
                "too_large",
                format!(
                    "a message may have at most {MAX_MESSAGE_BYTES} bytes, this one has {}",
                    text.len()
                ),
            ),
            None,
            None,
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        (
            Refusal::new("bad_json", format!("not valid JSON: {e}")),
            None,
            None,
        )
    })?;
    let Some(obj) = value.as_object() else {
        return Err((
            Refusal::new("not_an_object", "a message must be a JSON object"),
            None,
            None,
        ));
    };
    let rid = obj.get("rid").cloned();
    let Some(kind) = obj.get("type") else {
        return Err((
            Refusal::new("missing_type", "a message needs a \"type\" field"),
            None,
            rid,
        ));
    };
    let Some(kind) = kind.as_str() else {
        return Err((
            Refusal::new("missing_type", "the \"type\" field must be a string"),
            None,
            rid,
        ));
    };
    if !CLIENT_TYPES.contains(&kind) {
        let shown: String = kind.chars().take(40).collect();
        return Err((
            Refusal::new("unknown_type", format!("unknown message type {shown:?}")),
            None,
            rid,
        ));
    }
    let kind = kind.to_owned();
    serde_json::from_value::<ClientMsg>(value).map_err(|e| {
        (
            Refusal::new("bad_message", format!("bad {kind} message: {e}")),
            Some(kind.clone()),
            rid,
        )
    })
}

/// The `welcome` message sent when a connection opens.
pub fn welcome(conn: u64, test_endpoints: bool, rate_per_sec: u32, burst: u32) -> Value {
    json!({
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "connection": conn,
        "max_message_bytes": MAX_MESSAGE_BYTES,
        "rate": {"per_second": rate_per_sec, "burst": burst},
        "test_endpoints": test_endpoints,
    })
}

/// The name of a colour on the wire.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}
