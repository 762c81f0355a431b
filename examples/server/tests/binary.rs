//! The `server` binary as users start it, driven by a client written with the library's protocol
//! types; and the protocol types' round trip through the server's parser.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use reversi::core::{Color, Square};
use reversi_server::protocol::{
    self, ClientMsg, Level, ServerMsg, StateKind, CLIENT_TYPES, PROTOCOL_VERSION,
};
use serde_json::json;

mod common;
use common::Client;

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
        let (child, addr) = common::spawn_server(
            Command::new(env!("CARGO_BIN_EXE_server"))
                .args(["--addr", "127.0.0.1:0", "--db"])
                .arg(db)
                .stderr(Stdio::null()),
        );
        Running { child, addr }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_serves_an_online_match_to_typed_clients() {
    let server = Running::start(&temp_db("game"));
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    for c in [&mut a, &mut b] {
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
    }

    a.send(&ClientMsg::Ping {
        rid: Some(json!(7)),
    })
    .await;
    assert_eq!(
        a.recv().await,
        ServerMsg::Pong {
            rid: Some(json!(7))
        }
    );

    // Local games run in the page: the server refuses them as an unknown type.
    a.send_text(r#"{"type":"local_new","mode":"two_players","rid":"l"}"#)
        .await;
    match a.recv().await {
        ServerMsg::Error { code, rid, .. } => {
            assert_eq!(code, "unknown_type");
            assert_eq!(rid, Some(json!("l")));
        }
        other => panic!("expected a refusal, got {other:?}"),
    }

    // A random match of the two clients.
    a.send(&ClientMsg::Queue {
        rid: Some(json!("q")),
    })
    .await;
    a.until("queued", |m| {
        matches!(m, ServerMsg::Queued { .. }).then_some(())
    })
    .await;
    b.send(&ClientMsg::Queue { rid: None }).await;
    let (room, a_color) = a.matched().await;
    let (room_b, b_color) = b.matched().await;
    assert_eq!(room, room_b);
    assert_ne!(a_color, b_color);
    let state = a.state_after(0).await;
    assert_eq!(state.kind, StateKind::Online);
    assert_eq!(state.game, room);
    assert_eq!(state.to_move, Some(Color::Black));
    assert_eq!(state.legal.len(), 4);
    assert!(state.history.is_empty());

    // Black's first move reaches both players.
    let (black, white) = if a_color == Color::Black {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let mv = state.legal[0].square;
    black
        .send(&ClientMsg::Move {
            rid: None,
            game: room.clone(),
            square: mv,
            version: state.version,
        })
        .await;
    let after = white.state_after(state.version).await;
    assert_eq!(after.to_move, Some(Color::White));
    assert_eq!(after.history.len(), 1);
    assert_eq!(after.last.as_ref().map(|p| p.square), Some(mv));
    let seen = black.state_after(state.version).await;
    assert_eq!(seen.version, after.version);

    // White's answer made on the version before black's move: refused, nothing changes.
    white
        .send(&ClientMsg::Move {
            rid: Some(json!(9)),
            game: room.clone(),
            square: after.legal[0].square,
            version: state.version,
        })
        .await;
    match white.recv().await {
        ServerMsg::Error {
            code, request, rid, ..
        } => {
            assert_eq!(code, "stale_version");
            assert_eq!(request.as_deref(), Some("move"));
            assert_eq!(rid, Some(json!(9)));
        }
        other => panic!("expected a refusal, got {other:?}"),
    }

    // The match is played out to the end of the board.
    let mut s = after;
    while s.result.is_none() {
        let mover = if s.to_move == Some(Color::Black) {
            &mut *black
        } else {
            &mut *white
        };
        let square = s.legal.first().expect("a legal move").square;
        mover
            .send(&ClientMsg::Move {
                rid: None,
                game: room.clone(),
                square,
                version: s.version,
            })
            .await;
        s = mover.state_after(s.version).await;
    }
    let result = s.result.expect("over");
    assert_eq!(result.reason, "board");
    let count = s.count.expect("a count");
    let winner = match count.black.cmp(&count.white) {
        std::cmp::Ordering::Greater => Some(Color::Black),
        std::cmp::Ordering::Less => Some(Color::White),
        std::cmp::Ordering::Equal => None,
    };
    assert_eq!(result.winner, winner);
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
    let game = || "R1".to_string();
    let room = || "R1".to_string();
    let d3: Square = "d3".parse().unwrap();
    vec![
        ClientMsg::Ping { rid: rid.clone() },
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
        ClientMsg::Rematch {
            rid: None,
            room: room(),
        },
        ClientMsg::Leave {
            rid: None,
            room: room(),
        },
        ClientMsg::Record {
            rid: Some(json!(3)),
            game: game(),
            token: "t".into(),
            game_no: Some(2),
        },
        ClientMsg::Games {
            rid: None,
            token: "t".into(),
            limit: Some(5),
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
