//! The `server` binary as users start it, driven by a client written with the library's protocol
//! types; and the protocol types' round trip through the server's parser.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reversi::core::{Color, Square};
use reversi_server::protocol::{
    self, ClientMsg, Level, LocalMode, ServerMsg, StateKind, TimeSpec, CLIENT_TYPES,
    PROTOCOL_VERSION,
};
use serde_json::json;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

/// How long the test waits for any one message before failing.
const WAIT: Duration = Duration::from_secs(20);

/// A fresh database path under the temporary directory.
fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "reversi-server-bin-tests-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join("reversi.db")
}

/// The `server` binary running on a free loopback port; killed when dropped.
struct Running {
    child: std::process::Child,
    addr: SocketAddr,
}

impl Running {
    fn start(db: &std::path::Path) -> Running {
        let mut child = Command::new(env!("CARGO_BIN_EXE_server"))
            .args(["--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
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
        // Keep draining the log so that the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Running { child, addr }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    async fn connect(addr: SocketAddr) -> Client {
        let (ws, _) = connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("connect");
        Client { ws }
    }

    async fn send(&mut self, msg: &ClientMsg) {
        let text = serde_json::to_string(msg).expect("a client message serialises");
        self.ws.send(Message::text(text)).await.expect("send");
    }

    async fn recv(&mut self) -> ServerMsg {
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
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_serves_a_game_to_a_typed_client() {
    let server = Running::start(&temp_db("game"));
    let mut c = Client::connect(server.addr).await;
    match c.recv().await {
        ServerMsg::Welcome {
            protocol,
            test_endpoints,
            ..
        } => {
            assert_eq!(protocol, PROTOCOL_VERSION);
            assert!(!test_endpoints, "test endpoints are off unless asked for");
        }
        other => panic!("expected welcome, got {other:?}"),
    }

    c.send(&ClientMsg::Ping {
        rid: Some(json!(7)),
    })
    .await;
    assert_eq!(
        c.recv().await,
        ServerMsg::Pong {
            rid: Some(json!(7))
        }
    );

    c.send(&ClientMsg::LocalNew {
        rid: Some(json!("new")),
        mode: LocalMode::TwoPlayers,
        color: None,
        level: None,
        time: None,
        board: None,
    })
    .await;
    let ServerMsg::LocalStarted { game, rid, .. } = c.recv().await else {
        panic!("expected local_started");
    };
    assert_eq!(rid, Some(json!("new")));
    let ServerMsg::State(state) = c.recv().await else {
        panic!("expected the first state");
    };
    assert_eq!(state.kind, StateKind::Local);
    assert_eq!(state.game, game);
    assert_eq!(state.to_move, Some(Color::Black));
    assert_eq!(state.legal.len(), 4);
    assert!(state.history.is_empty());

    let mv = state.legal[0].square;
    c.send(&ClientMsg::Move {
        rid: None,
        game: game.clone(),
        square: mv,
        version: state.version,
    })
    .await;
    let ServerMsg::State(after) = c.recv().await else {
        panic!("expected the state after the move");
    };
    assert!(after.version > state.version);
    assert_eq!(after.to_move, Some(Color::White));
    assert_eq!(after.history.len(), 1);
    assert_eq!(after.last.as_ref().map(|p| p.square), Some(mv));

    // The same move again is made on a stale version: refused, nothing changes.
    c.send(&ClientMsg::Move {
        rid: Some(json!(9)),
        game,
        square: mv,
        version: state.version,
    })
    .await;
    match c.recv().await {
        ServerMsg::Error {
            code, request, rid, ..
        } => {
            assert_eq!(code, "stale_version");
            assert_eq!(request.as_deref(), Some("move"));
            assert_eq!(rid, Some(json!(9)));
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_bad_argument_is_refused_with_the_usage() {
    let out = Command::new(env!("CARGO_BIN_EXE_server"))
        .arg("--no-such-flag")
        .output()
        .expect("the server runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("usage: server"), "{err}");
}

/// One message of every type a client may send.
fn every_client_message() -> Vec<ClientMsg> {
    let rid = Some(json!({"n": 1}));
    let game = || "L1".to_string();
    let room = || "R1".to_string();
    let d3: Square = "d3".parse().unwrap();
    vec![
        ClientMsg::Ping { rid: rid.clone() },
        ClientMsg::LocalNew {
            rid: None,
            mode: LocalMode::Computer,
            color: Some(Color::White),
            level: Some(Level::Hard),
            time: Some(TimeSpec::Combined {
                secs: 30,
                input: "5:00".into(),
            }),
            board: None,
        },
        ClientMsg::LocalResume {
            rid: None,
            game: game(),
            token: "t".into(),
        },
        ClientMsg::Move {
            rid: rid.clone(),
            game: game(),
            square: d3,
            version: 3,
        },
        ClientMsg::Undo {
            rid: None,
            game: game(),
            version: 4,
        },
        ClientMsg::Resign {
            rid: None,
            game: game(),
        },
        ClientMsg::Sync {
            rid: None,
            game: game(),
        },
        ClientMsg::LocalClose {
            rid: None,
            game: game(),
        },
        ClientMsg::Queue { rid: None },
        ClientMsg::CancelQueue { rid: None },
        ClientMsg::InviteCreate { rid: None },
        ClientMsg::InviteCancel { rid: None },
        ClientMsg::InviteJoin {
            rid: None,
            code: "ABCD".into(),
        },
        ClientMsg::Reconnect {
            rid: None,
            token: "t".into(),
        },
        ClientMsg::RoomCreate {
            rid: None,
            action_secs: Some(60),
        },
        ClientMsg::RoomJoin {
            rid: None,
            room: room(),
        },
        ClientMsg::Sit {
            rid: None,
            room: room(),
            seat: 1,
        },
        ClientMsg::Stand {
            rid: None,
            room: room(),
        },
        ClientMsg::AddBot {
            rid: None,
            room: room(),
            seat: 0,
            level: Level::Easy,
        },
        ClientMsg::RemoveBot {
            rid: None,
            room: room(),
        },
        ClientMsg::Reserve {
            rid: None,
            room: room(),
        },
        ClientMsg::Start {
            rid: None,
            room: room(),
        },
        ClientMsg::Pause {
            rid: None,
            room: room(),
        },
        ClientMsg::Resume {
            rid: None,
            room: room(),
        },
        ClientMsg::End {
            rid: None,
            room: room(),
        },
        ClientMsg::Leave {
            rid: None,
            room: room(),
        },
    ]
}

#[test]
fn every_client_message_survives_the_servers_parser() {
    let all = every_client_message();
    let mut kinds: Vec<&str> = all.iter().map(ClientMsg::kind).collect();
    kinds.sort_unstable();
    let mut expected = CLIENT_TYPES.to_vec();
    expected.sort_unstable();
    assert_eq!(kinds, expected, "one sample of every client message type");
    for msg in all {
        let text = serde_json::to_string(&msg).unwrap();
        let back = protocol::parse(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(back, msg, "{text}");
    }
}
