//! The typed WebSocket test client of the integration tests (`binary.rs`, `cluster.rs`): the
//! library's protocol types over a real connection. (The library's own tests, `src/tests.rs`,
//! keep their JSON-level client: they send malformed input too.)

// Each test binary uses its own part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reversi::core::Color;
use reversi_server::protocol::{ClientMsg, ServerMsg, State};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

/// Starts the real `server` binary with `cmd`'s arguments (and its stderr as the caller set it),
/// waits until it logs the address it listens on, and keeps draining its log so that it never
/// blocks on a full pipe.
pub fn spawn_server(cmd: &mut Command) -> (Child, SocketAddr) {
    let mut child = cmd
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut lines = BufReader::new(child.stdout.take().expect("its stdout")).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server logs where it listens")
            .expect("a line");
        if let Some(i) = line.find("open http://") {
            let rest = &line[i + "open http://".len()..];
            let end = rest.find('/').expect("the address ends with /");
            break rest[..end].parse().expect("an address");
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    (child, addr)
}

/// How long a test waits for any one message before failing.
pub const WAIT: Duration = Duration::from_secs(20);

/// A client on one WebSocket connection.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    /// Connects to the server at `addr`.
    pub async fn connect(addr: SocketAddr) -> Client {
        let (ws, _) = connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("connect");
        Client { ws }
    }

    /// Sends a command.
    pub async fn send(&mut self, msg: &ClientMsg) {
        let text = serde_json::to_string(msg).expect("a client message serialises");
        self.ws.send(Message::text(text)).await.expect("send");
    }

    /// Sends a text frame as it is (for input the protocol types cannot express).
    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.expect("send");
    }

    /// The next message (any type, errors included).
    pub async fn recv(&mut self) -> ServerMsg {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message in time")
                .expect("the connection is open")
                .expect("a frame");
            if let Message::Text(t) = m {
                return serde_json::from_str(t.as_str())
                    .unwrap_or_else(|e| panic!("{e}: {}", t.as_str()));
            }
        }
    }

    /// Skips messages until `pick` takes one. An `error` that `pick` does not take fails the
    /// test (so an expected refusal is picked like any message, and an unexpected one is not
    /// skipped silently).
    pub async fn until<T>(&mut self, what: &str, pick: impl Fn(ServerMsg) -> Option<T>) -> T {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let msg = tokio::time::timeout(left, self.recv())
                .await
                .unwrap_or_else(|_| panic!("timed out waiting for {what}"));
            let error = match &msg {
                ServerMsg::Error { code, message, .. } => Some(format!("{code}: {message}")),
                _ => None,
            };
            if let Some(t) = pick(msg) {
                return t;
            }
            if let Some(e) = error {
                panic!("waiting for {what}: refused {e}");
            }
        }
    }

    /// The code of the next `error` (other messages are skipped).
    pub async fn refused(&mut self) -> String {
        self.until("a refusal", |m| match m {
            ServerMsg::Error { code, .. } => Some(code),
            _ => None,
        })
        .await
    }

    /// The next `guest`: the player and the token.
    pub async fn guest(&mut self) -> (u64, String) {
        self.until("guest", |m| match m {
            ServerMsg::Guest { player, token, .. } => Some((player, token)),
            _ => None,
        })
        .await
    }

    /// The next `matched`: the room and the colour.
    pub async fn matched(&mut self) -> (String, Color) {
        self.until("matched", |m| match m {
            ServerMsg::Matched { room, color, .. } => Some((room, color)),
            _ => None,
        })
        .await
    }

    /// The next state whose history has `moves` moves.
    pub async fn state_with(&mut self, moves: usize) -> State {
        self.until(&format!("a state with {moves} moves"), |m| match m {
            ServerMsg::State(s) if s.history.len() == moves => Some(*s),
            _ => None,
        })
        .await
    }

    /// The next state with a version above `after`.
    pub async fn state_after(&mut self, after: u64) -> State {
        self.until("a newer state", |m| match m {
            ServerMsg::State(s) if s.version > after => Some(*s),
            _ => None,
        })
        .await
    }

    /// Plays the first legal move of `s` (the client's turn).
    pub async fn play_first(&mut self, s: &State) {
        let square = s.legal.first().expect("a legal move").square;
        self.send(&ClientMsg::Move {
            rid: None,
            game: s.game.clone(),
            square,
            version: s.version,
        })
        .await;
    }
}
