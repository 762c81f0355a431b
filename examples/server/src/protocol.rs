//! The JSON protocol over the WebSocket. Its messages, limits and refusal codes are the
//! `reversi-protocol` package's, re-exported here (`PROTOCOL.md` at the repository root documents
//! every message, and that package's tests read its examples); this module adds what belongs to
//! the server: its refusals ([`Refusal`], whose codes also come from the rooms' errors) and the
//! messages it makes as text.

use std::borrow::Cow;

use axum::extract::ws::Utf8Bytes;
pub use reversi_protocol::*;
use serde_json::Value;

/// A refused command: a stable machine-readable `code` and a sentence for people.
///
/// ```
/// use reversi_server::protocol::{ErrorCode, Refusal, ServerMsg};
///
/// let r = Refusal::new(ErrorCode::NoSuchGame, "no room \"R9\"");
/// let ServerMsg::Error { code, request, .. } = r.to_msg(Some("sync"), None) else { panic!() };
/// assert_eq!((code.as_str(), request.as_deref()), ("no_such_game", Some("sync")));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// Stable error code, listed in `PROTOCOL.md` ([`ErrorCode`], or a room error's name).
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
    pub fn to_msg(&self, request: Option<&str>, rid: Option<&Value>) -> ServerMsg {
        ServerMsg::Error {
            code: self.code.clone().into_owned(),
            message: self.message.clone(),
            request: request.map(str::to_owned),
            rid: rid.cloned(),
        }
    }
}

impl From<ParseError> for Refusal {
    fn from(e: ParseError) -> Refusal {
        Refusal::new(e.code, e.message)
    }
}

/// Parses one text frame into a message, or the refusal naming what is wrong with it, with the
/// message type and request id when they could be read (`reversi-protocol`'s parser).
pub fn parse(text: &str) -> Result<ClientMsg, ParseError> {
    parse_client(text)
}

/// The `welcome` message sent when a connection opens.
pub fn welcome(conn: u64, test_endpoints: bool, rate_per_sec: u32, burst: u32) -> ServerMsg {
    ServerMsg::Welcome {
        protocol: PROTOCOL_VERSION,
        connection: conn,
        max_message_bytes: MAX_MESSAGE_BYTES,
        rate: Rate {
            per_second: rate_per_sec,
            burst,
        },
        test_endpoints,
    }
}

/// A server message as the text of a frame, echoing `rid` when given (the answer to a request).
pub(crate) fn text_of(msg: &ServerMsg, rid: Option<&Value>) -> Utf8Bytes {
    match rid {
        Some(r) => Utf8Bytes::from(msg.clone().with_rid(Some(r.clone())).to_text()),
        None => Utf8Bytes::from(msg.to_text()),
    }
}

/// The name of a colour on the wire.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}
