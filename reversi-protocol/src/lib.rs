//! The Reversi server's WebSocket protocol as typed Rust values: every message a client sends
//! ([`ClientMsg`]) and every message the server sends ([`ServerMsg`]), the limits the server
//! states in `welcome`, and the refusal codes ([`ErrorCode`]). `PROTOCOL.md` at the repository
//! root describes each message; its examples are this crate's tests.
//!
//! Every message is one JSON object with a `"type"` field, in one WebSocket text frame. Both
//! kinds of message serialise and deserialise, so that the server, a bot or a load tester
//! builds and reads them through the same types:
//!
//! ```
//! use reversi_protocol::{parse_client, ClientMsg, ServerMsg, Square};
//!
//! // A client builds a move; the server reads it back (with the refusals it would send).
//! let text = ClientMsg::Move { rid: None, game: "R12".into(), square: Square::D3, version: 8 }.to_text();
//! assert_eq!(text, r#"{"type":"move","game":"R12","square":"d3","version":8}"#);
//! assert!(matches!(parse_client(&text), Ok(ClientMsg::Move { version: 8, .. })));
//!
//! // A server message, read by a client.
//! let msg: ServerMsg = serde_json::from_str(r#"{"type":"queued","until":1767225720000}"#).unwrap();
//! assert_eq!(msg, ServerMsg::Queued { until: 1_767_225_720_000, rid: None });
//! ```
//!
//! The crate depends on `serde`, `serde_json` (request ids are any JSON value) and the serde
//! types of `reversi-core` (squares, colours, moves) and `reversi-clock` (time controls), re-exported
//! here; nothing else.

#![forbid(unsafe_code)]

mod client;
mod code;
mod server;

pub use client::{parse_client, ClientMsg, Level, ParseError, CLIENT_TYPES};
pub use code::{ErrorCode, UnknownCode};
pub use reversi_clock::TimeControl;
pub use reversi_core::{Color, Move, Square};
pub use server::{
    ClockView, Count, GameRecordView, HistoryPly, LegalMove, MemberView, Placement, Rate,
    ResultView, SeatView, ServerMsg, State, StateKind,
};

/// The protocol version, sent in `welcome`. Bumped on any incompatible change (version 2 dropped
/// the games of one connection: local games run in the page and never reach the server; version
/// 3 names a resignation `resignation`, ends an online room `over` rather than `closed`, and
/// refuses commands in a finished game with `game_over`).
///
/// ```
/// assert_eq!(reversi_protocol::PROTOCOL_VERSION, 3);
/// ```
pub const PROTOCOL_VERSION: u32 = 3;

/// The largest text message the server reads, in bytes. A longer one is refused with
/// `too_large` and the connection goes on.
///
/// ```
/// use reversi_protocol::{parse_client, ErrorCode, MAX_MESSAGE_BYTES};
///
/// let long = format!(r#"{{"type":"ping","rid":"{}"}}"#, "x".repeat(MAX_MESSAGE_BYTES));
/// assert_eq!(parse_client(&long).unwrap_err().code, ErrorCode::TooLarge);
/// ```
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// Messages larger than this are not even buffered: the WebSocket layer closes the connection
/// (close code 1009).
///
/// ```
/// assert!(reversi_protocol::HARD_MESSAGE_BYTES > reversi_protocol::MAX_MESSAGE_BYTES);
/// ```
pub const HARD_MESSAGE_BYTES: usize = 64 * 1024;

/// The close code of a connection that sent a frame over [`HARD_MESSAGE_BYTES`] (message too
/// big).
///
/// ```
/// assert_eq!(reversi_protocol::CLOSE_TOO_BIG, 1009);
/// ```
pub const CLOSE_TOO_BIG: u16 = 1009;

/// The messages a connection may send per second, sustained (the server's default, stated in
/// `welcome`'s [`Rate`]).
///
/// ```
/// use reversi_protocol::{Rate, RATE_BURST, RATE_PER_SECOND};
/// let rate = Rate { per_second: RATE_PER_SECOND, burst: RATE_BURST };
/// assert_eq!((rate.per_second, rate.burst), (20, 40));
/// ```
pub const RATE_PER_SECOND: u32 = 20;

/// The messages a connection may send in a burst (the server's default, stated in `welcome`'s
/// [`Rate`]).
///
/// ```
/// assert!(reversi_protocol::RATE_BURST >= reversi_protocol::RATE_PER_SECOND);
/// ```
pub const RATE_BURST: u32 = 40;

/// The server messages buffered for a connection that does not read; what does not fit is lost
/// (the client then sends `sync`).
///
/// ```
/// assert_eq!(reversi_protocol::OUT_QUEUE, 1024);
/// ```
pub const OUT_QUEUE: usize = 1024;
