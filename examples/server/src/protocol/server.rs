//! Server → client: the messages the server sends, as a Rust client reads them. The server
//! builds these messages as JSON values; its tests check that every message they receive parses
//! into [`ServerMsg`]. Unknown fields are ignored, so that a client keeps working when the server
//! adds one.

use reversi::core::Color;
/// The board view's parts, shared with the facade's [`reversi::view`] (the one place that builds them).
pub use reversi::view::{Count, HistoryPly, LegalMove, Placement};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Level;

/// Everything the server sends, as a Rust client reads it. `PROTOCOL.md` describes each message.
///
/// ```
/// use reversi_server::protocol::ServerMsg;
///
/// let text = r#"{"type":"matched","room":"R12","seat":0,"color":"black"}"#;
/// let msg: ServerMsg = serde_json::from_str(text).unwrap();
/// assert_eq!(
///     msg,
///     ServerMsg::Matched { room: "R12".into(), seat: 0, color: reversi::core::Color::Black, rid: None }
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Sent first on every connection.
    Welcome {
        /// The protocol version ([`PROTOCOL_VERSION`](super::PROTOCOL_VERSION)).
        protocol: u32,
        /// The connection's number, for logs.
        connection: u64,
        /// The largest message the server reads ([`MAX_MESSAGE_BYTES`](super::MAX_MESSAGE_BYTES)).
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
    /// The full state of an online or hosted room.
    State(Box<State>),
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
        /// The `rid` of the request it answers, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// The wait for an opponent ran out.
    QueueExpired,
    /// The wait for an opponent was cancelled.
    QueueCancelled {
        /// The `rid` of the request it answers, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// An invite was created.
    Invite {
        /// The code to give the opponent.
        code: String,
        /// The page's path that joins it (`/join/<code>`).
        link: String,
        /// When it runs out (wall-clock milliseconds).
        expires_at: u64,
        /// The `rid` of the request it answers, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
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
        /// The `rid` of the request it answers, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// An online game started (or was reconnected to).
    Matched {
        /// The room's id.
        room: String,
        /// The player's seat: 0 black, 1 white.
        seat: usize,
        /// The player's colour.
        color: Color,
        /// The `rid` of the request it answers, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// A finished game, read with the token of one of its players (the answer to `record`).
    Record(Box<GameRecordView>),
    /// A player's recent finished games, newest first (the answer to `games`).
    Games {
        /// The player the token belongs to.
        player: u64,
        /// The games, newest first.
        games: Vec<GameRecordView>,
        /// The `rid` of the request it answers, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// A hosted room was created.
    RoomCreated {
        /// The room's id.
        room: String,
        /// The `rid` of the request.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// Your rematch offer after the online game `room` went to the opponent.
    RematchWaiting {
        /// The finished game's room id.
        room: String,
        /// The `rid` of the request.
        #[serde(default)]
        rid: Option<Value>,
    },
    /// The opponent of the online game `room` offers a rematch: `rematch` with that room accepts.
    RematchOffered {
        /// The finished game's room id.
        room: String,
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
    /// An online room (random match or invite).
    Online,
    /// A hosted room.
    Hosted,
}

/// A full `state` message of a room: the common header, the board, and the room's fields.
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
    /// An online or a hosted room.
    pub kind: StateKind,
    /// The room's id (the game's id is the room's).
    pub game: String,
    /// The room's id.
    #[serde(default)]
    pub room: Option<String>,
    /// The state version: it goes up with every change.
    pub version: u64,
    /// `waiting`, `playing`, `paused`, `over` or `closed`.
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
    /// Rooms: the time per action, in milliseconds.
    #[serde(default)]
    pub action_limit_ms: Option<u64>,
    /// Rooms: when the seat to act loses on time (wall-clock milliseconds).
    #[serde(default)]
    pub deadline: Option<u64>,
    /// Rooms: when the game ends by the disc count (wall-clock milliseconds).
    #[serde(default)]
    pub game_limit_at: Option<u64>,
    /// Rooms: the server's time when it sent the state (wall-clock milliseconds).
    #[serde(default)]
    pub server_time: Option<u64>,
    /// The `rid` of the request this state answers, if any (only in the requester's copy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rid: Option<Value>,
}

/// A finished game as recorded: who played, how it ended, and its moves.
///
/// ```
/// use reversi_server::protocol::{GameRecordView, ServerMsg};
///
/// let text = r#"{"type":"record","game":"R3","game_no":1,"kind":"random","black":"guest:1",
///     "white":"guest:2","winner":"white","reason":"resignation","count":{"black":3,"white":1},
///     "moves":[{"color":"black","move":"f5"}],"transcript":"f5","started_at":1,"ended_at":2,
///     "black_ms":null,"white_ms":null,"rid":7}"#;
/// let ServerMsg::Record(r) = serde_json::from_str(text).unwrap() else { panic!() };
/// assert_eq!(r.reason, "resignation");
/// assert_eq!(r.moves.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecordView {
    /// The room's id (`R…` online, `H…` hosted).
    pub game: String,
    /// The game's number in its room.
    pub game_no: u64,
    /// `random`, `invite` or `hosted`.
    pub kind: String,
    /// Who held black: `guest:<player>` or `bot:<level>`.
    pub black: String,
    /// Who held white: `guest:<player>` or `bot:<level>`.
    pub white: String,
    /// The winner, `None` for a draw or a game ended without a result.
    #[serde(default)]
    pub winner: Option<Color>,
    /// Why it ended (the `result.reason` names of a state).
    pub reason: String,
    /// The discs at the end.
    pub count: Count,
    /// The moves, passes included.
    pub moves: Vec<HistoryPly>,
    /// The same moves as one string, a pass written `pass` (`f5d6…pass…`).
    pub transcript: String,
    /// When it started (wall-clock milliseconds).
    pub started_at: u64,
    /// When it ended (wall-clock milliseconds).
    pub ended_at: u64,
    /// Black's time left at the end (`None` when unlimited).
    #[serde(default)]
    pub black_ms: Option<u64>,
    /// White's time left at the end (`None` when unlimited).
    #[serde(default)]
    pub white_ms: Option<u64>,
    /// The `rid` of the `record` request it answers (absent inside `games`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rid: Option<Value>,
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
