//! The JSON protocol over the WebSocket: what clients send, what the server answers, and the
//! refusals. `PROTOCOL.md` at the repository root documents every message; keep the two in step.

use std::borrow::Cow;

use reversi::core::{Color, Square};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The protocol version, sent in `welcome`. Bumped on any incompatible change.
pub const PROTOCOL_VERSION: u32 = 1;

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

/// A computer level.
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

/// The time control of a game of one connection, as the client asks for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeSpec {
    /// No clock.
    Unlimited,
    /// `secs` per move: 15, 30 or 60.
    PerMove {
        /// Seconds per move.
        secs: u64,
    },
    /// A total per side, typed as `10`, `10:00`, `5:30` or `5.5` (minutes).
    Total {
        /// The text the player typed.
        input: String,
    },
    /// Per move and total together.
    Combined {
        /// Seconds per move: 15, 30 or 60.
        secs: u64,
        /// The total per side, as typed.
        input: String,
    },
    /// Test endpoints only: any per-move limit in milliseconds.
    PerMoveMs {
        /// Milliseconds per move.
        ms: u64,
    },
}

/// Who plays a game of one connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LocalMode {
    /// Against the computer.
    Computer,
    /// Both seats held by the one connection.
    TwoPlayers,
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
    /// A new game of one connection.
    LocalNew {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// Who plays.
        mode: LocalMode,
        /// The human's colour against the computer (default black).
        #[serde(default)]
        color: Option<Color>,
        /// The computer's level (default easy).
        #[serde(default)]
        level: Option<Level>,
        /// The time control (default unlimited).
        #[serde(default)]
        time: Option<TimeSpec>,
        /// Test endpoints only: a board string to start from.
        #[serde(default)]
        board: Option<String>,
    },
    /// Re-attach to a game of one connection after a refresh or a restart.
    LocalResume {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The game's id: a game of one connection, or an online or hosted room.
        game: String,
        /// The token handed out by `local_started`.
        token: String,
    },
    /// Play a move in a game (local or online), made on state `version`.
    Move {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The game's id: a game of one connection, or an online or hosted room.
        game: String,
        /// The square played.
        square: Square,
        /// The state version the client saw when it decided.
        version: u64,
    },
    /// Take back a move (two players) or a pair (against the computer).
    Undo {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The game's id: a game of one connection, or an online or hosted room.
        game: String,
        /// The state version the client saw when it decided.
        version: u64,
    },
    /// Resign a game.
    Resign {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The game's id: a game of one connection, or an online or hosted room.
        game: String,
    },
    /// Ask for the full state of a game.
    Sync {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The game's id: a game of one connection, or an online or hosted room.
        game: String,
    },
    /// Stop following a game of one connection (it is ended as abandoned when local).
    LocalClose {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The game's id: a game of one connection, or an online or hosted room.
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
    /// Leave a room (abandonment if seated in a game).
    Leave {
        /// The request id, echoed by the direct answer and by any error about this message.
        #[serde(default)]
        rid: Option<Value>,
        /// The room's id.
        room: String,
    },
}

impl ClientMsg {
    /// The message's `type`, for logs and error replies.
    pub fn kind(&self) -> &'static str {
        match self {
            ClientMsg::Ping { .. } => "ping",
            ClientMsg::LocalNew { .. } => "local_new",
            ClientMsg::LocalResume { .. } => "local_resume",
            ClientMsg::Move { .. } => "move",
            ClientMsg::Undo { .. } => "undo",
            ClientMsg::Resign { .. } => "resign",
            ClientMsg::Sync { .. } => "sync",
            ClientMsg::LocalClose { .. } => "local_close",
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
            ClientMsg::Leave { .. } => "leave",
        }
    }

    /// The request id the client attached, if any.
    pub fn rid(&self) -> Option<&Value> {
        match self {
            ClientMsg::Ping { rid }
            | ClientMsg::LocalNew { rid, .. }
            | ClientMsg::LocalResume { rid, .. }
            | ClientMsg::Move { rid, .. }
            | ClientMsg::Undo { rid, .. }
            | ClientMsg::Resign { rid, .. }
            | ClientMsg::Sync { rid, .. }
            | ClientMsg::LocalClose { rid, .. }
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
            | ClientMsg::Leave { rid, .. } => rid.as_ref(),
        }
    }
}

/// All message types a client may send, for `unknown_type` errors.
pub const CLIENT_TYPES: &[&str] = &[
    "ping",
    "local_new",
    "local_resume",
    "move",
    "undo",
    "resign",
    "sync",
    "local_close",
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
    "leave",
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

// ---------------------------------------------------------------------------------------------
// Server → client. The server builds these messages as JSON values; the types below are how a
// Rust client reads them (the server's tests check that every message they receive parses).
// Unknown fields are ignored, so that a client keeps working when the server adds one.

/// Everything the server sends, as a Rust client reads it. `PROTOCOL.md` describes each message.
///
/// ```
/// use reversi_server::protocol::ServerMsg;
///
/// let text = r#"{"type":"matched","room":"R12","seat":0,"color":"black"}"#;
/// let msg: ServerMsg = serde_json::from_str(text).unwrap();
/// assert_eq!(
///     msg,
///     ServerMsg::Matched { room: "R12".into(), seat: 0, color: reversi::core::Color::Black }
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Sent first on every connection.
    Welcome {
        /// The protocol version ([`PROTOCOL_VERSION`]).
        protocol: u32,
        /// The connection's number, for logs.
        connection: u64,
        /// The largest message the server reads ([`MAX_MESSAGE_BYTES`]).
        max_message_bytes: usize,
        /// The rate limit.
        rate: Rate,
        /// Whether the test-only commands are enabled.
        test_endpoints: bool,
    },
    /// The answer to `ping`.
    Pong {
        /// The `rid` of the `ping`.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// A refusal: nothing changed.
    Error {
        /// The stable error code (see `PROTOCOL.md`).
        code: String,
        /// What went wrong, for people.
        message: String,
        /// The type of the refused message, when it could be read.
        #[serde(default)]
        request: Option<String>,
        /// The `rid` of the refused message, when it could be read.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// The full state of a game of one connection or of a room.
    State(Box<State>),
    /// A game of one connection was created or resumed.
    LocalStarted {
        /// The game's id.
        game: String,
        /// The token to resume it with (`local_resume`).
        token: String,
        /// The `rid` of the request.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// The answer to `local_close`.
    LocalClosed {
        /// The game's id.
        game: String,
        /// The `rid` of the request.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// The connection's online identity.
    Guest {
        /// The player's id.
        player: u64,
        /// The token to `reconnect` with.
        token: String,
        /// The `rid` of the request that created or recovered it.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// Waiting for a random opponent.
    Queued {
        /// Until when (wall-clock milliseconds).
        until: u64,
    },
    /// The wait for an opponent ran out.
    QueueExpired,
    /// The wait for an opponent was cancelled.
    QueueCancelled,
    /// An invite was created.
    Invite {
        /// The code to give the opponent.
        code: String,
        /// The page's path that joins it (`/join/<code>`).
        link: String,
        /// When it runs out (wall-clock milliseconds).
        expires_at: u64,
    },
    /// The invite ran out.
    InviteExpired {
        /// Its code.
        code: String,
    },
    /// The invite was cancelled.
    InviteCancelled {
        /// Its code.
        code: String,
    },
    /// An online game started (or was reconnected to).
    Matched {
        /// The room's id.
        room: String,
        /// The player's seat: 0 black, 1 white.
        seat: usize,
        /// The player's colour.
        color: Color,
    },
    /// A hosted room was created.
    RoomCreated {
        /// The room's id.
        room: String,
        /// The `rid` of the request.
        #[serde(default)]
        rid: Option<Value>,
    },
}

/// The rate limit stated in `welcome`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rate {
    /// Messages a connection may send per second, sustained.
    pub per_second: u32,
    /// Messages a connection may send in a burst.
    pub burst: u32,
}

/// What a state message is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateKind {
    /// A game of one connection.
    Local,
    /// An online room (random match or invite).
    Online,
    /// A hosted room.
    Hosted,
}

/// A full `state` message: the common header, the board, and the fields of its kind (those of the
/// other kind are `None` or empty).
///
/// ```
/// use reversi_server::protocol::{ServerMsg, StateKind};
///
/// let text = r#"{"type":"state","kind":"online","room":"R1","game":"R1","version":1,
///     "status":"waiting","board":null,"legal":[],"result":null,"seats":[],"members":[]}"#;
/// let ServerMsg::State(state) = serde_json::from_str(text).unwrap() else { panic!() };
/// assert_eq!(state.kind, StateKind::Online);
/// assert!(state.board.is_none() && state.legal.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// A game of one connection or a room.
    pub kind: StateKind,
    /// The game's id (a room's id for rooms).
    pub game: String,
    /// The room's id (rooms only).
    #[serde(default)]
    pub room: Option<String>,
    /// The state version: it goes up with every change.
    pub version: u64,
    /// `playing` or `over` for a game of one connection; `waiting`, `playing`, `paused`, `over`
    /// or `closed` for a room.
    pub status: String,
    /// How the (last) game ended, if it did.
    #[serde(default)]
    pub result: Option<ResultView>,
    /// 64 characters, `a1` first: `X` black, `O` white, `-` empty; `None` before a room's first
    /// game.
    #[serde(default)]
    pub board: Option<String>,
    /// Who moves next; `None` once over or before the first game.
    #[serde(default)]
    pub to_move: Option<Color>,
    /// The discs of each colour.
    #[serde(default)]
    pub count: Option<Count>,
    /// The legal moves with the discs each flips, in animation order (empty when nobody may
    /// move).
    #[serde(default)]
    pub legal: Vec<LegalMove>,
    /// The accessible description of each square, `a1` first.
    #[serde(default)]
    pub squares: Vec<String>,
    /// The last placement.
    #[serde(default)]
    pub last: Option<Placement>,
    /// The colour whose automatic pass followed the last placement.
    #[serde(default)]
    pub passed: Option<Color>,
    /// The moves so far.
    #[serde(default)]
    pub history: Vec<HistoryPly>,
    /// The clock; `None` for a room without a game.
    #[serde(default)]
    pub clock: Option<ClockView>,
    /// Games of one connection: who plays.
    #[serde(default)]
    pub mode: Option<LocalMode>,
    /// Games of one connection against the computer: the person's colour.
    #[serde(default)]
    pub human: Option<Color>,
    /// Games of one connection against the computer: its level.
    #[serde(default)]
    pub level: Option<Level>,
    /// Games of one connection: the time control as asked for.
    #[serde(default)]
    pub time: Option<TimeSpec>,
    /// Games of one connection: whether `undo` would be accepted now.
    #[serde(default)]
    pub can_undo: Option<bool>,
    /// Games of one connection: whether the computer is computing its move.
    #[serde(default)]
    pub thinking: Option<bool>,
    /// Rooms: the version of the current turn.
    #[serde(default)]
    pub turn_version: Option<u64>,
    /// Hosted rooms: the host's player id.
    #[serde(default)]
    pub host: Option<u64>,
    /// Rooms: the seats, black first.
    #[serde(default)]
    pub seats: Vec<SeatView>,
    /// Rooms: the people in the room.
    #[serde(default)]
    pub members: Vec<MemberView>,
    /// Rooms: the player who reserved the bot's seat.
    #[serde(default)]
    pub reservation: Option<u64>,
    /// Rooms: whether the bot leaves at the end of the game.
    #[serde(default)]
    pub bot_leaving: Option<bool>,
    /// Rooms: why the game is paused (`host`, `nobody_connected`), if it is.
    #[serde(default)]
    pub paused: Option<String>,
    /// Rooms: how many games were started.
    #[serde(default)]
    pub game_no: Option<u64>,
    /// Rooms: when the seat to act loses on time (wall-clock milliseconds).
    #[serde(default)]
    pub deadline: Option<u64>,
    /// Rooms: when the game ends by the disc count (wall-clock milliseconds).
    #[serde(default)]
    pub game_limit_at: Option<u64>,
    /// Rooms: the server's time when it sent the state (wall-clock milliseconds).
    #[serde(default)]
    pub server_time: Option<u64>,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultView {
    /// The winner, `None` for a draw or a game ended without a result.
    #[serde(default)]
    pub winner: Option<Color>,
    /// Why it ended (`board`, `timeout`, `resignation`, `abandoned`, … see `PROTOCOL.md`).
    pub reason: String,
    /// Rooms: the game's number in the room.
    #[serde(default)]
    pub game: Option<u64>,
    /// Rooms: the seat concerned, when there is one.
    #[serde(default)]
    pub seat: Option<usize>,
}

/// The discs of each colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    /// Black discs.
    pub black: u32,
    /// White discs.
    pub white: u32,
}

/// A legal move and the discs it flips, nearest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalMove {
    /// Where to play.
    pub square: Square,
    /// The discs it flips, in animation order.
    pub flips: Vec<Square>,
}

/// A placement and the discs it flipped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// Who played.
    pub color: Color,
    /// Where.
    pub square: Square,
    /// The discs it flipped, in animation order.
    pub flips: Vec<Square>,
}

/// One move of the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryPly {
    /// Who moved.
    pub color: Color,
    /// The move: a square or `pass`.
    #[serde(rename = "move")]
    pub mv: reversi::core::Move,
}

/// The clock part of a state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// The time control.
    pub control: reversi::clock::TimeControl,
    /// Black's time left at `server_time` in milliseconds (`None` when unlimited).
    #[serde(default)]
    pub black_ms: Option<u64>,
    /// White's time left at `server_time` in milliseconds (`None` when unlimited).
    #[serde(default)]
    pub white_ms: Option<u64>,
    /// The colour whose time is running.
    #[serde(default)]
    pub running: Option<Color>,
    /// Whether the clock is paused.
    pub paused: bool,
    /// The server's time (wall-clock milliseconds).
    pub server_time: u64,
}

/// A seat of a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatView {
    /// A person sits there.
    Person {
        /// The player's id.
        player: u64,
        /// Whether the player is connected.
        connected: bool,
        /// The seat's colour.
        color: Color,
    },
    /// A bot sits there.
    Bot {
        /// Its level.
        level: Level,
        /// The seat's colour.
        color: Color,
    },
    /// Nobody sits there.
    Empty {
        /// The seat's colour.
        color: Color,
    },
}

/// A person in a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberView {
    /// The player's id.
    pub player: u64,
    /// Whether the player is connected.
    pub connected: bool,
    /// Until when a disconnected player may come back (wall-clock milliseconds).
    #[serde(default)]
    pub grace_until: Option<u64>,
}
