//! Server → client: the messages the server sends. Unknown fields are ignored when reading, so
//! that a client keeps working when the server adds one; serialising writes exactly what the
//! server sends (fields that a message carries only sometimes, such as `rid`, are left out when
//! absent).

use reversi_clock::TimeControl;
use reversi_core::{Color, Move, Square};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use crate::{ErrorCode, Level};

/// Everything the server sends, as a Rust client reads it. `PROTOCOL.md` describes each message.
///
/// ```
/// use reversi_protocol::ServerMsg;
///
/// let text = r#"{"type":"matched","room":"R12","seat":0,"color":"black"}"#;
/// let msg: ServerMsg = serde_json::from_str(text).unwrap();
/// assert_eq!(
///     msg,
///     ServerMsg::Matched { room: "R12".into(), seat: 0, color: reversi_protocol::Color::Black, rid: None }
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Sent first on every connection.
    Welcome {
        /// The protocol version ([`PROTOCOL_VERSION`](crate::PROTOCOL_VERSION)).
        protocol: u32,
        /// The connection's number, for logs.
        connection: u64,
        /// The largest message the server reads ([`MAX_MESSAGE_BYTES`](crate::MAX_MESSAGE_BYTES)).
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
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request: Option<String>,
        /// The `rid` of the refused message, when it could be read.
        #[serde(default, skip_serializing_if = "Option::is_none")]
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
        #[serde(default, skip_serializing_if = "Option::is_none")]
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
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// Your rematch offer after the online game `room` went to the opponent.
    RematchWaiting {
        /// The finished game's room id.
        room: String,
        /// The `rid` of the request.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rid: Option<Value>,
    },
    /// The opponent of the online game `room` offers a rematch: `rematch` with that room accepts.
    RematchOffered {
        /// The finished game's room id.
        room: String,
    },
}

impl ServerMsg {
    /// The message's `type`.
    ///
    /// ```
    /// use reversi_protocol::ServerMsg;
    /// assert_eq!(ServerMsg::QueueExpired.kind(), "queue_expired");
    /// ```
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            ServerMsg::Welcome { .. } => "welcome",
            ServerMsg::Pong { .. } => "pong",
            ServerMsg::Error { .. } => "error",
            ServerMsg::State(_) => "state",
            ServerMsg::Guest { .. } => "guest",
            ServerMsg::Queued { .. } => "queued",
            ServerMsg::QueueExpired => "queue_expired",
            ServerMsg::QueueCancelled { .. } => "queue_cancelled",
            ServerMsg::Invite { .. } => "invite",
            ServerMsg::InviteExpired { .. } => "invite_expired",
            ServerMsg::InviteCancelled { .. } => "invite_cancelled",
            ServerMsg::Matched { .. } => "matched",
            ServerMsg::Record(_) => "record",
            ServerMsg::Games { .. } => "games",
            ServerMsg::RoomCreated { .. } => "room_created",
            ServerMsg::RematchWaiting { .. } => "rematch_waiting",
            ServerMsg::RematchOffered { .. } => "rematch_offered",
        }
    }

    /// The `rid` the message echoes, if any.
    ///
    /// ```
    /// use reversi_protocol::ServerMsg;
    /// let msg = ServerMsg::RoomCreated { room: "H1".into(), rid: Some(5.into()) };
    /// assert_eq!(msg.rid(), Some(&5.into()));
    /// ```
    #[must_use]
    pub fn rid(&self) -> Option<&Value> {
        match self {
            ServerMsg::Pong { rid }
            | ServerMsg::Error { rid, .. }
            | ServerMsg::Guest { rid, .. }
            | ServerMsg::Queued { rid, .. }
            | ServerMsg::QueueCancelled { rid }
            | ServerMsg::Invite { rid, .. }
            | ServerMsg::InviteCancelled { rid, .. }
            | ServerMsg::Matched { rid, .. }
            | ServerMsg::Games { rid, .. }
            | ServerMsg::RoomCreated { rid, .. }
            | ServerMsg::RematchWaiting { rid, .. } => rid.as_ref(),
            ServerMsg::State(s) => s.rid.as_ref(),
            ServerMsg::Record(r) => r.rid.as_ref(),
            ServerMsg::Welcome { .. }
            | ServerMsg::QueueExpired
            | ServerMsg::InviteExpired { .. }
            | ServerMsg::RematchOffered { .. } => None,
        }
    }

    /// The message with its `rid` set to `rid` (the answer to a request echoes the request's).
    /// Messages the server only sends on its own (`welcome`, `queue_expired`,
    /// `invite_expired`, `rematch_offered`) carry no `rid` and are returned as they are.
    ///
    /// ```
    /// use reversi_protocol::ServerMsg;
    ///
    /// let msg = ServerMsg::Queued { until: 9, rid: None }.with_rid(Some("q".into()));
    /// assert_eq!(msg.to_text(), r#"{"type":"queued","until":9,"rid":"q"}"#);
    /// assert_eq!(ServerMsg::QueueExpired.with_rid(Some(1.into())).rid(), None);
    /// ```
    #[must_use]
    pub fn with_rid(mut self, rid: Option<Value>) -> ServerMsg {
        match &mut self {
            ServerMsg::Pong { rid: r }
            | ServerMsg::Error { rid: r, .. }
            | ServerMsg::Guest { rid: r, .. }
            | ServerMsg::Queued { rid: r, .. }
            | ServerMsg::QueueCancelled { rid: r }
            | ServerMsg::Invite { rid: r, .. }
            | ServerMsg::InviteCancelled { rid: r, .. }
            | ServerMsg::Matched { rid: r, .. }
            | ServerMsg::Games { rid: r, .. }
            | ServerMsg::RoomCreated { rid: r, .. }
            | ServerMsg::RematchWaiting { rid: r, .. } => *r = rid,
            ServerMsg::State(s) => s.rid = rid,
            ServerMsg::Record(r) => r.rid = rid,
            ServerMsg::Welcome { .. }
            | ServerMsg::QueueExpired
            | ServerMsg::InviteExpired { .. }
            | ServerMsg::RematchOffered { .. } => {}
        }
        self
    }

    /// The code of an `error` message, typed, when it is one of this protocol version's (a
    /// newer server may send others: the string stays in [`ServerMsg::Error`]).
    ///
    /// ```
    /// use reversi_protocol::{ErrorCode, ServerMsg};
    ///
    /// let text = r#"{"type":"error","code":"not_your_turn","message":"wait"}"#;
    /// let msg: ServerMsg = serde_json::from_str(text).unwrap();
    /// assert_eq!(msg.error_code(), Some(ErrorCode::NotYourTurn));
    /// assert_eq!(ServerMsg::QueueExpired.error_code(), None);
    /// ```
    #[must_use]
    pub fn error_code(&self) -> Option<ErrorCode> {
        match self {
            ServerMsg::Error { code, .. } => ErrorCode::from_name(code),
            _ => None,
        }
    }

    /// The message as the text of one WebSocket frame, as the server sends it.
    ///
    /// ```
    /// use reversi_protocol::ServerMsg;
    /// let msg = ServerMsg::InviteExpired { code: "ABCD2345".into() };
    /// assert_eq!(msg.to_text(), r#"{"type":"invite_expired","code":"ABCD2345"}"#);
    /// ```
    #[must_use]
    pub fn to_text(&self) -> String {
        // Serialising cannot fail: every field is a string, a number, a list, a JSON value or a
        // struct of those, and every map has string keys.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The rate limit stated in `welcome`.
///
/// ```
/// let r: reversi_protocol::Rate = serde_json::from_str(r#"{"per_second":20,"burst":40}"#).unwrap();
/// assert_eq!(r.burst, 40);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rate {
    /// Messages a connection may send per second, sustained.
    pub per_second: u32,
    /// Messages a connection may send in a burst.
    pub burst: u32,
}

/// What a state message is about.
///
/// ```
/// use reversi_protocol::StateKind;
/// assert_eq!(serde_json::to_string(&StateKind::Hosted).unwrap(), r#""hosted""#);
/// ```
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
/// use reversi_protocol::{ServerMsg, StateKind};
///
/// let text = r#"{"type":"state","kind":"online","room":"R1","game":"R1","version":1,
///     "status":"waiting","board":null,"legal":[],"result":null,"seats":[],"members":[]}"#;
/// let ServerMsg::State(state) = serde_json::from_str(text).unwrap() else { panic!() };
/// assert_eq!(state.kind, StateKind::Online);
/// assert!(state.board.is_none() && state.legal.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
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

impl State {
    /// The `state` message as the text of one WebSocket frame, without boxing it into a
    /// [`ServerMsg`] (the server sends a state to every member of a room).
    ///
    /// ```
    /// use reversi_protocol::{ServerMsg, State};
    ///
    /// let text = r#"{"type":"state","kind":"online","room":"R1","game":"R1","version":1,
    ///     "status":"waiting","board":null,"legal":[],"result":null,"seats":[],"members":[]}"#;
    /// let ServerMsg::State(state) = serde_json::from_str(text).unwrap() else { panic!() };
    /// assert_eq!(state.to_text(), ServerMsg::State(state.clone()).to_text());
    /// assert!(state.to_text().starts_with(r#"{"type":"state","kind":"online""#));
    /// ```
    #[must_use]
    pub fn to_text(&self) -> String {
        #[derive(Serialize)]
        struct Tagged<'a> {
            #[serde(rename = "type")]
            tag: &'static str,
            #[serde(flatten)]
            state: &'a State,
        }
        // As `ServerMsg::to_text`: serialising cannot fail.
        serde_json::to_string(&Tagged {
            tag: "state",
            state: self,
        })
        .unwrap_or_default()
    }
}

impl Serialize for State {
    /// Writes the fields the server sends: every header and room field (`null` when absent,
    /// `rid` left out when absent), and the board's fields after the first game, or only
    /// `board: null` and `legal: []` before it.
    ///
    /// ```
    /// use reversi_protocol::{ServerMsg, State};
    ///
    /// let text = r#"{"type":"state","kind":"hosted","room":"H1","game":"H1","version":1,
    ///     "turn_version":null,"status":"waiting","host":3,"seats":[],"members":[],
    ///     "reservation":null,"bot_leaving":false,"paused":null,"game_no":0,
    ///     "action_limit_ms":30000,"deadline":null,"game_limit_at":null,"server_time":5,
    ///     "result":null,"clock":null,"board":null,"legal":[]}"#;
    /// let msg: ServerMsg = serde_json::from_str(text).unwrap();
    /// let again: serde_json::Value = serde_json::from_str(&msg.to_text()).unwrap();
    /// assert_eq!(again, serde_json::from_str::<serde_json::Value>(text).unwrap());
    /// ```
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut m = serializer.serialize_map(None)?;
        m.serialize_entry("kind", &self.kind)?;
        m.serialize_entry("room", &self.room)?;
        m.serialize_entry("game", &self.game)?;
        m.serialize_entry("version", &self.version)?;
        m.serialize_entry("turn_version", &self.turn_version)?;
        m.serialize_entry("status", &self.status)?;
        m.serialize_entry("host", &self.host)?;
        m.serialize_entry("seats", &self.seats)?;
        m.serialize_entry("members", &self.members)?;
        m.serialize_entry("reservation", &self.reservation)?;
        m.serialize_entry("bot_leaving", &self.bot_leaving)?;
        m.serialize_entry("paused", &self.paused)?;
        m.serialize_entry("game_no", &self.game_no)?;
        m.serialize_entry("action_limit_ms", &self.action_limit_ms)?;
        m.serialize_entry("deadline", &self.deadline)?;
        m.serialize_entry("game_limit_at", &self.game_limit_at)?;
        m.serialize_entry("server_time", &self.server_time)?;
        m.serialize_entry("result", &self.result)?;
        m.serialize_entry("clock", &self.clock)?;
        m.serialize_entry("board", &self.board)?;
        if self.board.is_some() {
            m.serialize_entry("to_move", &self.to_move)?;
            m.serialize_entry("count", &self.count)?;
            m.serialize_entry("legal", &self.legal)?;
            m.serialize_entry("squares", &self.squares)?;
            m.serialize_entry("last", &self.last)?;
            m.serialize_entry("passed", &self.passed)?;
            m.serialize_entry("history", &self.history)?;
        } else {
            m.serialize_entry("legal", &self.legal)?;
        }
        if let Some(rid) = &self.rid {
            m.serialize_entry("rid", rid)?;
        }
        m.end()
    }
}

/// A finished game as recorded: who played, how it ended, and its moves.
///
/// ```
/// use reversi_protocol::{GameRecordView, ServerMsg};
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
///
/// ```
/// use reversi_protocol::{Color, ResultView};
/// let r: ResultView =
///     serde_json::from_str(r#"{"game":1,"winner":"white","reason":"timeout","seat":0}"#).unwrap();
/// assert_eq!((r.winner, r.seat), (Some(Color::White), Some(0)));
/// ```
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

/// The clock part of a state: each side's time left at `server_time`, so that a client can
/// count down.
///
/// ```
/// use reversi_protocol::{ClockView, Color};
/// let text = r#"{"control":{"kind":"per_move","limit":30000},"black_ms":30000,"white_ms":30000,
///     "running":"black","paused":false,"server_time":1767225600000}"#;
/// let c: ClockView = serde_json::from_str(text).unwrap();
/// assert_eq!((c.black_ms, c.running), (Some(30_000), Some(Color::Black)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// The time control.
    pub control: TimeControl,
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
///
/// ```
/// use reversi_protocol::{Color, Level, SeatView};
/// let s: SeatView = serde_json::from_str(r#"{"kind":"bot","level":"easy","color":"white"}"#).unwrap();
/// assert_eq!(s, SeatView::Bot { level: Level::Easy, color: Color::White });
/// ```
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
///
/// ```
/// use reversi_protocol::MemberView;
/// let m = MemberView { player: 3, connected: true, grace_until: None };
/// assert_eq!(
///     serde_json::to_string(&m).unwrap(),
///     r#"{"player":3,"connected":true,"grace_until":null}"#
/// );
/// ```
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

/// The discs of each colour.
///
/// ```
/// let c = reversi_protocol::Count { black: 2, white: 2 };
/// assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"black":2,"white":2}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    /// Black discs.
    pub black: u32,
    /// White discs.
    pub white: u32,
}

/// A legal move and the discs it flips, nearest first (in animation order).
///
/// ```
/// use reversi_protocol::{LegalMove, Square};
/// let m: LegalMove = serde_json::from_str(r#"{"square":"d3","flips":["d4"]}"#).unwrap();
/// assert_eq!(m, LegalMove { square: Square::D3, flips: vec![Square::D4] });
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalMove {
    /// Where to play.
    pub square: Square,
    /// The discs it flips, in animation order.
    pub flips: Vec<Square>,
}

/// A placement and the discs it flipped.
///
/// ```
/// use reversi_protocol::{Color, Placement, Square};
/// let p: Placement =
///     serde_json::from_str(r#"{"color":"white","square":"c5","flips":["d5"]}"#).unwrap();
/// assert_eq!(p, Placement { color: Color::White, square: Square::C5, flips: vec![Square::D5] });
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// Who played.
    pub color: Color,
    /// Where.
    pub square: Square,
    /// The discs it flipped, in animation order.
    pub flips: Vec<Square>,
}

/// One move of a history: a square or a pass.
///
/// ```
/// use reversi_protocol::{Color, HistoryPly, Move};
/// let p: HistoryPly = serde_json::from_str(r#"{"color":"white","move":"pass"}"#).unwrap();
/// assert_eq!(p, HistoryPly { color: Color::White, mv: Move::Pass });
/// assert_eq!(serde_json::to_string(&p).unwrap(), r#"{"color":"white","move":"pass"}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryPly {
    /// Who moved.
    pub color: Color,
    /// The move: a square or `pass`.
    #[serde(rename = "move")]
    pub mv: Move,
}
