//! Integration tests: the server runs in-process on a free loopback port (or as a child process,
//! for the SIGKILL test) and is driven by `tokio-tungstenite` clients.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

use super::{Config, Server};
use crate::db::Db;

/// How long a test waits for any one expected message before failing.
pub(crate) const WAIT: Duration = Duration::from_secs(20);

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh database path under the temporary directory.
pub fn temp_db(name: &str) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "reversi-server-tests-{}-{name}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join("reversi.db")
}

/// The test configuration: test endpoints on, an instant computer, short online limits.
pub fn test_cfg(db: PathBuf) -> Config {
    let mut cfg = Config::new(db);
    cfg.test_endpoints = true;
    cfg.computer_delay = Duration::ZERO;
    cfg.online = crate::online::Durations::for_tests();
    cfg
}

/// Starts a server on a free loopback port.
pub async fn start(cfg: Config) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    Server::start(cfg, listener).await.expect("start")
}

/// A WebSocket client.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The `welcome` message.
    pub welcome: Value,
}

impl Client {
    pub async fn connect(addr: std::net::SocketAddr) -> Client {
        let (ws, _) = connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("connect");
        let mut c = Client {
            ws,
            welcome: Value::Null,
        };
        c.welcome = c.recv().await;
        assert_eq!(c.welcome["type"], "welcome");
        c
    }

    pub async fn send(&mut self, v: Value) {
        self.ws
            .send(Message::text(v.to_string()))
            .await
            .expect("send");
    }

    pub async fn send_raw(&mut self, m: Message) {
        self.ws.send(m).await.expect("send");
    }

    /// The next text message.
    pub async fn recv(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message in time")
                .expect("the connection is open")
                .expect("a frame");
            if let Message::Text(t) = m {
                // Every message a client receives is readable with the protocol's types.
                let typed = serde_json::from_str::<crate::protocol::ServerMsg>(t.as_str());
                assert!(typed.is_ok(), "{typed:?}: {}", t.as_str());
                return serde_json::from_str(t.as_str()).expect("JSON from the server");
            }
        }
    }

    /// Skips messages until one satisfies `pred`.
    pub async fn until(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let v = tokio::time::timeout(left, self.recv())
                .await
                .unwrap_or_else(|_| panic!("timed out waiting for {what}"));
            if pred(&v) {
                return v;
            }
        }
    }

    /// The next error with this code (other messages skipped).
    pub async fn error(&mut self, code: &str) -> Value {
        let v = self
            .until(&format!("error {code}"), |v| v["type"] == "error")
            .await;
        assert_eq!(v["code"], code, "{v}");
        v
    }

    /// The next state of `game`.
    pub async fn state(&mut self, game: &str) -> Value {
        self.until(&format!("a state of {game}"), |v| {
            v["type"] == "state" && (v["game"] == game || v["room"] == game)
        })
        .await
    }

    /// The next state of `game` that satisfies `pred`.
    pub async fn state_where(&mut self, game: &str, pred: impl Fn(&Value) -> bool) -> Value {
        self.until(&format!("a state of {game}"), |v| {
            v["type"] == "state" && (v["game"] == game || v["room"] == game) && pred(v)
        })
        .await
    }

    /// Reads until the server closes the connection: the close code it sent, if any.
    pub async fn close_code(
        &mut self,
    ) -> Option<tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode> {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("the connection closes in time");
            match m {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return None,
            }
        }
    }

    pub async fn ping(&mut self) {
        self.send(json!({"type": "ping", "rid": "p"})).await;
        self.until("pong", |v| v["type"] == "pong").await;
    }
}

/// The first legal move of a state.
pub fn first_legal(state: &Value) -> String {
    state["legal"][0]["square"]
        .as_str()
        .expect("a legal move")
        .to_string()
}

/// The room id of the `room_created` answer that `c` waits for.
pub async fn created_room(c: &mut Client) -> String {
    let created = c
        .until("room_created", |v| v["type"] == "room_created")
        .await;
    created["room"].as_str().unwrap().to_owned()
}

/// A hosted room made by `c`, who sits on seat 0, with an Easy bot on seat 1: its id.
pub async fn hosted_with_easy_bot(c: &mut Client) -> String {
    c.send(json!({"type": "room_create"})).await;
    let room = created_room(c).await;
    c.send(json!({"type": "sit", "room": room, "seat": 0}))
        .await;
    c.send(json!({"type": "add_bot", "room": room, "seat": 1, "level": "easy"}))
        .await;
    room
}

/// Two guests matched at random: both clients, the room, and the first client's colour.
pub async fn a_match(addr: std::net::SocketAddr) -> (Client, Client, String, String) {
    let mut a = Client::connect(addr).await;
    let mut b = Client::connect(addr).await;
    a.send(json!({"type": "queue"})).await;
    a.until("queued", |v| v["type"] == "queued").await;
    b.send(json!({"type": "queue"})).await;
    let (room, a_color) = matched(&mut a).await;
    matched(&mut b).await;
    (a, b, room, a_color)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_hosted_game_against_an_easy_bot_is_played_and_recorded() {
    let db = temp_db("easy");
    let server = start(test_cfg(db.clone())).await;
    let mut c = Client::connect(server.addr).await;
    let room = hosted_with_easy_bot(&mut c).await;
    c.state_where(&room, |s| s["seats"][1]["kind"] == "bot")
        .await;
    c.send(json!({"type": "start", "room": room})).await;
    let mut s = c.state_where(&room, |s| s["status"] == "playing").await;
    let mut last_version = 0;
    while s["result"] == Value::Null {
        let v = s["version"].as_u64().unwrap();
        assert!(v > last_version, "versions only go up");
        last_version = v;
        if s["to_move"] == "black" {
            let sq = first_legal(&s);
            c.send(json!({"type": "move", "game": room, "square": sq, "version": v}))
                .await;
        }
        s = c
            .state_where(&room, |n| n["version"].as_u64() > Some(v))
            .await;
    }
    assert_eq!(s["result"]["reason"], "board", "{s}");
    let (b, w) = (
        s["count"]["black"].as_u64().unwrap(),
        s["count"]["white"].as_u64().unwrap(),
    );
    let winner = match b.cmp(&w) {
        std::cmp::Ordering::Greater => json!("black"),
        std::cmp::Ordering::Less => json!("white"),
        std::cmp::Ordering::Equal => Value::Null,
    };
    assert_eq!(s["result"]["winner"], winner);
    let records = Db::finished_games(&db).unwrap();
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.game, room);
    assert_eq!(r.kind, "hosted");
    assert_eq!(r.reason, "board");
    assert_eq!((r.black_discs as u64, r.white_discs as u64), (b, w));
    assert!(r.black.starts_with("guest:"), "{}", r.black);
    assert_eq!(r.white, "bot:easy");
    let replayed = reversi::core::Game::from_transcript(&r.transcript).unwrap();
    assert!(replayed.is_over());
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_game_serves_the_rules_and_refuses_bad_moves() {
    let server = start(test_cfg(temp_db("rules"))).await;
    let (mut a, mut b, room, a_color) = a_match(server.addr).await;
    let (black, white) = if a_color == "black" {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let s = black.state(&room).await;
    assert_eq!(s["kind"], "online");
    let v = s["version"].as_u64().unwrap();
    // The rules come from the server: legal moves with their flips in animation order.
    let legal: Vec<_> = s["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["square"].as_str().unwrap())
        .collect();
    assert_eq!(legal, ["d3", "c4", "f5", "e6"]);
    assert_eq!(s["legal"][0]["flips"], json!(["d4"]));
    assert_eq!(s["squares"][19], "d3, empty, legal, flips 1");
    // An illegal move, a stale version, the wrong player, a room that does not exist, an undo.
    black
        .send(json!({"type": "move", "game": room, "square": "a1", "version": v}))
        .await;
    black.error("illegal_action").await;
    black
        .send(json!({"type": "move", "game": room, "square": "d3", "version": v + 7}))
        .await;
    black.error("stale_version").await;
    white
        .send(json!({"type": "move", "game": room, "square": "d3", "version": v}))
        .await;
    white.error("not_your_turn").await;
    black
        .send(json!({"type": "move", "game": "Hnope", "square": "d3", "version": v}))
        .await;
    black.error("no_such_game").await;
    black
        .send(json!({"type": "undo", "game": room, "version": v}))
        .await;
    black.error("no_undo_online").await;
    // A move goes to both players.
    black
        .send(json!({"type": "move", "game": room, "square": "d3", "version": v}))
        .await;
    let s2 = white
        .state_where(&room, |s| s["version"].as_u64() > Some(v))
        .await;
    let v2 = s2["version"].as_u64().unwrap();
    assert_eq!(
        s2["last"],
        json!({"color": "black", "square": "d3", "flips": ["d4"]})
    );
    assert_eq!(s2["to_move"], "white");
    assert_eq!(s2["history"], json!([{"color": "black", "move": "d3"}]));
    // Another connection can look but not play.
    let mut other = Client::connect(server.addr).await;
    other
        .send(json!({"type": "sync", "game": room, "rid": 5}))
        .await;
    let synced = other.state(&room).await;
    assert_eq!(
        (synced["version"].clone(), synced["rid"].clone()),
        (json!(v2), json!(5))
    );
    other
        .send(json!({"type": "move", "game": room, "square": "c3", "version": v2}))
        .await;
    other.until("an error", |v| v["type"] == "error").await;
    // Resigning ends it; nothing more is accepted.
    white.send(json!({"type": "resign", "game": room})).await;
    let over = black
        .state_where(&room, |s| s["result"] != Value::Null)
        .await;
    assert_eq!(over["result"]["winner"], "black", "{over}");
    assert_eq!(over["result"]["reason"], "resignation");
    white
        .send(json!({"type": "move", "game": room, "square": "c3", "version": over["version"]}))
        .await;
    white.until("an error", |v| v["type"] == "error").await;
    server.task.abort();
}

/// Black to move; after c1 (the first legal move, which flips b1) white has no move and passes,
/// and black can still play c5.
pub const PASS_BOARD: &str = concat!(
    "XO------", "--------", "O-------", "--------", "XO------", "--------", "--------", "--------",
    " X"
);

#[test]
fn a_state_shows_the_last_placement_and_the_pass_that_followed_it() {
    use reversi::core::{Game, Position};
    let start = Position::from_board_string(PASS_BOARD).unwrap();
    let before = crate::view::board_json(&Game::replay(start, []).unwrap());
    assert_eq!(before["to_move"], "black");
    assert_eq!(before["passed"], Value::Null);
    assert_eq!(before["last"], Value::Null);
    assert_eq!(first_legal(&before), "c1");
    let game = Game::replay(start, ["c1".parse().unwrap(), "pass".parse().unwrap()]).unwrap();
    let s = crate::view::board_json(&game);
    assert_eq!(s["passed"], "white", "{s}");
    assert_eq!(s["to_move"], "black");
    assert_eq!(
        s["last"],
        json!({"color": "black", "square": "c1", "flips": ["b1"]})
    );
    assert_eq!(s["history"][1], json!({"color": "white", "move": "pass"}));
    assert_eq!(first_legal(&s), "c5");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_games_are_refused_and_never_written_to_the_database() {
    let db = temp_db("no-local");
    let mut cfg = test_cfg(db.clone());
    cfg.test_endpoints = false;
    let server = start(cfg).await;
    let mut c = Client::connect(server.addr).await;
    assert_eq!(c.welcome["protocol"], 3);
    assert_eq!(c.welcome["test_endpoints"], false);
    // Local games run in the page: the server does not know their messages.
    for (i, msg) in [
        json!({"type": "local_new", "mode": "computer", "color": "black", "level": "easy"}),
        json!({"type": "local_new", "mode": "two_players", "time": {"kind": "total", "input": "5:30"}}),
        json!({"type": "local_resume", "game": "L0123456789ab", "token": "00"}),
        json!({"type": "local_close", "game": "L0123456789ab"}),
    ]
    .into_iter()
    .enumerate()
    {
        let kind = msg["type"].as_str().unwrap().to_owned();
        let mut msg = msg;
        msg["rid"] = json!(i);
        c.send(msg).await;
        let e = c.error("unknown_type").await;
        assert_eq!(e["rid"], i, "{e}");
        assert!(
            e["message"].as_str().unwrap().contains(&kind),
            "the error names the type: {e}"
        );
        assert_eq!(e["request"], Value::Null);
    }
    // Game commands on a local-looking id find no game.
    for msg in [
        json!({"type": "move", "game": "L0123456789ab", "square": "d3", "version": 1}),
        json!({"type": "resign", "game": "L0123456789ab"}),
        json!({"type": "sync", "game": "L0123456789ab"}),
    ] {
        c.send(msg).await;
        c.error("no_such_game").await;
    }
    c.ping().await;
    server.task.abort();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let live: i64 = conn
        .query_row("SELECT COUNT(*) FROM live WHERE kind = 'local'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(live, 0);
    let records = Db::finished_games(&db).unwrap();
    assert!(records.is_empty(), "{records:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_with_old_local_games_starts_and_never_resurrects_them() {
    // A store of version 1 (the fixture), with what a server with local games left behind.
    let (db, _) = crate::contract_tests::fixture();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let before = Db::finished_games(&db).unwrap().len();
    // What a server with local games left behind: a live game and a finished one.
    conn.execute(
        "INSERT INTO live (id, kind, state, updated_ms) VALUES ('L00000000abcd', 'local', ?1, 1)",
        [r#"{"id":"L00000000abcd","token":"00","mode":"two_players","version":3}"#],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO games (game, game_no, kind, black, white, start_board, transcript, reason,
            winner, black_discs, white_discs, started_ms, ended_ms)
         VALUES ('L00000000beef', 1, 'local_computer', 'person', 'computer:easy', ?1, 'f5', 'resignation',
            'white', 4, 1, 1, 2)",
        [reversi::core::Position::initial().to_board_string()],
    )
    .unwrap();
    drop(conn);
    let server = start(test_cfg(db.clone())).await;
    let mut c = Client::connect(server.addr).await;
    c.send(json!({"type": "sync", "game": "L00000000abcd"}))
        .await;
    c.error("no_such_game").await;
    c.send(json!({"type": "local_resume", "game": "L00000000abcd", "token": "00"}))
        .await;
    c.error("unknown_type").await;
    // Online play works on it.
    c.send(json!({"type": "queue"})).await;
    c.until("queued", |v| v["type"] == "queued").await;
    server.task.abort();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let live: i64 = conn
        .query_row("SELECT COUNT(*) FROM live WHERE kind = 'local'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(live, 0, "the old live local game was dropped");
    // Old finished records stay readable.
    let records = Db::finished_games(&db).unwrap();
    assert!(records.len() > before);
    assert!(records.iter().any(|r| r.kind == "local_computer"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_and_the_connection_goes_on() {
    let server = start(test_cfg(temp_db("bad"))).await;
    let mut c = Client::connect(server.addr).await;
    assert_eq!(c.welcome["protocol"], 3);
    assert_eq!(c.welcome["max_message_bytes"], 4096);
    c.send_raw(Message::text("{not json")).await;
    c.error("bad_json").await;
    c.send_raw(Message::text("[1,2]")).await;
    c.error("not_an_object").await;
    c.send(json!({"kind": "move"})).await;
    c.error("missing_type").await;
    c.send(json!({"type": "teleport", "rid": 9})).await;
    let e = c.error("unknown_type").await;
    assert_eq!(e["rid"], 9);
    c.send(json!({"type": "move", "game": "R1", "square": "z9", "version": 1}))
        .await;
    let e = c.error("bad_message").await;
    assert_eq!(e["request"], "move");
    c.send(json!({"type": "room_create", "action_secs": 30, "extra": 1}))
        .await;
    c.error("bad_message").await;
    c.send(json!({"type": "room_create", "action_secs": 20}))
        .await;
    c.error("bad_time").await;
    c.send_raw(Message::text(format!(
        "{{\"type\":\"ping\",\"pad\":\"{}\"}}",
        "x".repeat(5000)
    )))
    .await;
    c.error("too_large").await;
    c.send_raw(Message::binary(vec![1u8, 2, 3])).await;
    c.error("binary_frame").await;
    c.ping().await;
    // A flood: the bucket empties, one warning comes, the rest is dropped; later the connection
    // works again.
    for i in 0..200 {
        c.send(json!({"type": "ping", "rid": i})).await;
    }
    c.error("rate_limited").await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    c.ping().await;
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_served() {
    let server = start(test_cfg(temp_db("page"))).await;
    let mut s = TcpStream::connect(server.addr).await.unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut body = String::new();
    s.read_to_string(&mut body).await.unwrap();
    assert!(body.starts_with("HTTP/1.1 200"), "{body}");
    assert!(body.contains("text/html"));
    assert!(body.contains("/app.js"));
    server.task.abort();
}

/// The files of local games: the worker, the engine's wrapper and the module, each with its type.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_local_engine_is_served() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = start(test_cfg(temp_db("engine-files"))).await;
    for (path, ctype) in [
        ("/worker.js", "text/javascript"),
        ("/engine.js", "text/javascript"),
        ("/reversi.wasm", "application/wasm"),
    ] {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        let req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).await.unwrap();
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{path}: {head}");
        assert!(
            head.contains(&format!("content-type: {ctype}")),
            "{path}: {head}"
        );
        let body = &raw[split + 4..];
        if path.ends_with(".wasm") {
            assert_eq!(&body[..4], b"\0asm", "{path} is a WebAssembly module");
        } else {
            assert!(!body.is_empty(), "{path} is empty");
        }
    }
    server.task.abort();
}

/// The Expert level's weights for the page's worker: the library's embedded file, binary, with
/// cache headers; a request with its entity tag is answered 304 without the body.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_expert_weights_are_served() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = start(test_cfg(temp_db("weights"))).await;
    let addr = server.addr;
    let get = |extra: String| async move {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let req = format!(
            "GET /weights/expert.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}Connection: close\r\n\r\n"
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).await.unwrap();
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
        (head, raw[split + 4..].to_vec())
    };
    let (head, body) = get(String::new()).await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(
        head.contains("content-type: application/octet-stream"),
        "{head}"
    );
    assert!(
        head.contains("cache-control: public, max-age=86400"),
        "{head}"
    );
    let embedded = reversi::ai::pattern::Weights::embedded_bytes().unwrap();
    assert_eq!(body, embedded, "the embedded weights file, byte for byte");
    assert!(reversi::ai::pattern::Weights::from_bytes(&body).is_ok());
    let etag = head
        .lines()
        .find_map(|l| l.strip_prefix("etag: "))
        .expect("an entity tag")
        .trim()
        .to_string();
    assert_eq!(etag.len(), 18, "{etag}");
    let (head, body) = get(format!("If-None-Match: {etag}\r\n")).await;
    assert!(head.starts_with("http/1.1 304"), "{head}");
    assert!(body.is_empty());
    let (head, body) = get("If-None-Match: \"0000000000000000\"\r\n".to_string()).await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert_eq!(body.len(), embedded.len());
    server.task.abort();
}

/// The page's icon (under both names browsers ask for) and a hosted room's link, which serves the
/// page (the page then joins the room).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_icon_and_room_links_are_served() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = start(test_cfg(temp_db("icon"))).await;
    for (path, ctype) in [
        ("/favicon.svg", "image/svg+xml"),
        ("/favicon.ico", "image/svg+xml"),
        ("/join/H0123456789ab", "text/html"),
    ] {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        let req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).await.unwrap();
        let mut raw = String::new();
        s.read_to_string(&mut raw).await.unwrap();
        let head = raw.to_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{path}: {head}");
        assert!(
            head.contains(&format!("content-type: {ctype}")),
            "{path}: {head}"
        );
        if ctype == "image/svg+xml" {
            assert!(raw.contains("<svg"), "{path}");
        }
    }
    server.task.abort();
}

/// Run as a child process by the SIGKILL test: serves until killed.
#[test]
#[ignore = "started by the SIGKILL tests as a child process"]
fn child_server() {
    let Ok(db) = std::env::var("REVERSI_CHILD_DB") else {
        return;
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let mut cfg = test_cfg(PathBuf::from(db));
        cfg.online.lobby.room.action_limit = reversi::clock::Span::from_secs(30);
        let server = start(cfg).await;
        println!("LISTENING {}", server.addr);
        std::future::pending::<()>().await;
    });
}

/// A server in a child process, killed with SIGKILL.
pub struct Child {
    child: std::process::Child,
    /// Where it listens.
    pub addr: std::net::SocketAddr,
}

impl Child {
    pub fn spawn(db: &std::path::Path) -> Child {
        use std::io::BufRead;
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "tests::child_server",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("REVERSI_CHILD_DB", db)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn the server");
        let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let addr = loop {
            let line = lines.next().expect("the child prints its address").unwrap();
            if let Some(i) = line.find("LISTENING ") {
                break line[i + "LISTENING ".len()..].trim().parse().unwrap();
            }
        };
        Child { child, addr }
    }

    /// SIGKILL: no clean shutdown of any kind.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_token_survives_a_sigkill_before_the_first_lobby_snapshot() {
    // A new lobby's generator seed is saved at once: replaying the log after a kill draws the
    // same tokens as the live commands did.
    let db = temp_db("kill-online");
    let server = Child::spawn(&db);
    let mut a = Client::connect(server.addr).await;
    a.send(json!({"type": "invite_create"})).await;
    let token = guest_token(&mut a).await;
    a.until("invite", |v| v["type"] == "invite").await;
    server.kill();
    tokio::time::sleep(Duration::from_millis(500)).await;

    let server = Child::spawn(&db);
    let mut a = Client::connect(server.addr).await;
    a.send(json!({"type": "reconnect", "token": token, "rid": 5}))
        .await;
    let g = a.until("guest", |v| v["type"] == "guest").await;
    assert_eq!(g["rid"], 5, "{g}");
    server.kill();
}

// ---- online ----

/// Plays the first legal move whenever it is `me`'s turn, until the game is over; returns the
/// final state.
pub async fn play_out(a: &mut Client, b: &mut Client, room: &str, a_color: &str) -> Value {
    a.send(json!({"type": "sync", "game": room, "rid": "play_out"}))
        .await;
    let mut s = a
        .until("the state", |v| {
            v["type"] == "state" && v["rid"] == "play_out"
        })
        .await;
    loop {
        if s["result"] != Value::Null {
            return s;
        }
        let v = s["version"].as_u64().unwrap();
        let mover = if s["to_move"] == a_color {
            &mut *a
        } else {
            &mut *b
        };
        mover
            .send(json!({"type": "move", "game": room, "square": first_legal(&s), "version": v}))
            .await;
        s = a
            .state_where(room, |n| n["version"].as_u64() > Some(v))
            .await;
    }
}

pub async fn matched(c: &mut Client) -> (String, String) {
    let m = c.until("matched", |v| v["type"] == "matched").await;
    (
        m["room"].as_str().unwrap().to_owned(),
        m["color"].as_str().unwrap().to_owned(),
    )
}

pub async fn guest_token(c: &mut Client) -> String {
    let g = c.until("guest", |v| v["type"] == "guest").await;
    g["token"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_guests_matched_play_a_whole_game() {
    let db = temp_db("match");
    let server = start(test_cfg(db.clone())).await;
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    a.send(json!({"type": "queue"})).await;
    a.until("queued", |v| v["type"] == "queued").await;
    a.send(json!({"type": "queue"})).await;
    a.error("already_waiting").await;
    b.send(json!({"type": "queue"})).await;
    let (room, a_color) = matched(&mut a).await;
    let (room_b, b_color) = matched(&mut b).await;
    assert_eq!(room, room_b);
    assert_ne!(a_color, b_color);
    // Undo and changing mode are refused online.
    a.send(json!({"type": "undo", "game": room, "version": 1}))
        .await;
    a.error("no_undo_online").await;
    a.send(json!({"type": "queue"})).await;
    a.error("must_resign_first").await;
    let end = play_out(&mut a, &mut b, &room, &a_color).await;
    assert_eq!(end["result"]["reason"], "board", "{end}");
    let records = Db::finished_games(&db).unwrap();
    let r = records.iter().find(|r| r.game == room).expect("recorded");
    assert_eq!(r.kind, "random");
    assert_eq!(r.reason, "board");
    assert!(reversi::core::Game::from_transcript(&r.transcript)
        .unwrap()
        .is_over());
    assert_eq!(
        r.winner.as_deref(),
        end["result"]["winner"].as_str(),
        "the record agrees with the state"
    );
    server.task.abort();
}

/// After an online game, a rematch starts only when both players have offered it, and only
/// they may.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_needs_both_players() {
    let server = start(test_cfg(temp_db("rematch"))).await;
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    let mut c = Client::connect(server.addr).await;
    a.send(json!({"type": "invite_create"})).await;
    let inv = a.until("invite", |v| v["type"] == "invite").await;
    b.send(json!({"type": "invite_join", "code": inv["code"]}))
        .await;
    let (room, _) = matched(&mut a).await;
    matched(&mut b).await;
    // No rematch while the game is on.
    a.send(json!({"type": "rematch", "room": room})).await;
    a.error("no_rematch").await;
    a.send(json!({"type": "resign", "game": room})).await;
    b.state_where(&room, |s| s["status"] == "closed" || s["status"] == "over")
        .await;
    // Someone else may not ask; nor may a hosted room or a made-up id be named.
    c.send(json!({"type": "rematch", "room": room})).await;
    c.error("no_rematch").await;
    c.send(json!({"type": "rematch", "room": "H0123456789ab"}))
        .await;
    c.error("no_rematch").await;
    // a offers: b is told, a waits; offering twice is refused.
    a.send(json!({"type": "rematch", "room": room, "rid": 7}))
        .await;
    let waiting = a
        .until("rematch_waiting", |v| v["type"] == "rematch_waiting")
        .await;
    assert_eq!(waiting["rid"], 7, "{waiting}");
    assert_eq!(waiting["room"], room.as_str());
    let offered = b
        .until("rematch_offered", |v| v["type"] == "rematch_offered")
        .await;
    assert_eq!(offered["room"], room.as_str());
    a.send(json!({"type": "rematch", "room": room})).await;
    a.error("rematch_offered").await;
    // b accepts: a new game between the two.
    b.send(json!({"type": "rematch", "room": room})).await;
    let (again, a_color) = matched(&mut a).await;
    let (again_b, b_color) = matched(&mut b).await;
    assert_eq!(again, again_b);
    assert_ne!(again, room, "a new game");
    assert_ne!(a_color, b_color);
    let s = a.state(&again).await;
    assert_eq!(s["status"], "playing", "{s}");
    // The offer is spent.
    b.send(json!({"type": "rematch", "room": room})).await;
    b.error("no_rematch").await;
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_is_joined_then_one_expires() {
    let mut cfg = test_cfg(temp_db("invite"));
    cfg.online.lobby.invite_ttl = reversi::clock::Span::from_secs(3);
    let server = start(cfg).await;
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    a.send(json!({"type": "invite_create"})).await;
    let inv = a.until("invite", |v| v["type"] == "invite").await;
    let link = inv["link"].as_str().unwrap().to_owned();
    assert!(link.starts_with("/join/"), "{inv}");
    b.send(json!({"type": "invite_join", "code": "not a code"}))
        .await;
    b.error("bad_invite_code").await;
    b.send(json!({"type": "invite_join", "code": format!("http://127.0.0.1{link}")}))
        .await;
    let (room, _) = matched(&mut b).await;
    let (room_a, _) = matched(&mut a).await;
    assert_eq!(room, room_a);
    a.state(&room).await;
    // A third guest's invite runs out; joining it then is refused.
    let mut c = Client::connect(server.addr).await;
    c.send(json!({"type": "invite_create"})).await;
    let inv = c.until("invite", |v| v["type"] == "invite").await;
    let code = inv["code"].as_str().unwrap().to_owned();
    let expired = c
        .until("invite_expired", |v| v["type"] == "invite_expired")
        .await;
    assert_eq!(expired["code"], code.as_str());
    let mut d = Client::connect(server.addr).await;
    d.send(json!({"type": "invite_join", "code": code})).await;
    d.error("invite_expired").await;
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosted_room_with_a_bot_is_paused_and_resumed() {
    let db = temp_db("hosted");
    let server = start(test_cfg(db.clone())).await;
    let mut host = Client::connect(server.addr).await;
    host.send(json!({"type": "room_create", "action_secs": 45}))
        .await;
    host.error("bad_time").await;
    host.send(json!({"type": "room_create", "action_secs": 60, "rid": 1}))
        .await;
    let created = host
        .until("room_created", |v| v["type"] == "room_created")
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    host.send(json!({"type": "start", "room": room})).await;
    host.error("host_not_seated").await;
    host.send(json!({"type": "sit", "room": room, "seat": 0}))
        .await;
    host.send(json!({"type": "add_bot", "room": room, "seat": 1, "level": "easy"}))
        .await;
    let with_bot = host
        .state_where(&room, |s| s["seats"][1]["kind"] == "bot")
        .await;
    // The room's time per action, before any game (and any clock).
    assert_eq!(with_bot["action_limit_ms"], 60_000, "{with_bot}");
    assert!(with_bot["clock"].is_null(), "{with_bot}");
    host.send(json!({"type": "add_bot", "room": room, "seat": 1, "level": "hard"}))
        .await;
    host.error("second_bot").await;
    // A visitor may not start, and reserves the bot's seat once the game runs.
    let mut guest = Client::connect(server.addr).await;
    guest.send(json!({"type": "room_join", "room": room})).await;
    guest.state(&room).await;
    guest.send(json!({"type": "start", "room": room})).await;
    guest.error("not_host").await;
    host.send(json!({"type": "start", "room": room})).await;
    let s = host.state_where(&room, |s| s["status"] == "playing").await;
    guest.send(json!({"type": "reserve", "room": room})).await;
    host.state_where(&room, |s| s["reservation"] != Value::Null)
        .await;
    // The host plays black; the bot answers through the same checked path.
    let v = s["version"].as_u64().unwrap();
    host.send(json!({"type": "move", "game": room, "square": first_legal(&s), "version": v}))
        .await;
    let s = host
        .state_where(&room, |s| {
            s["to_move"] == "black" && s["history"].as_array().is_some_and(|h| h.len() >= 2)
        })
        .await;
    // Pause: no legal moves offered, moves refused, the clock stops.
    host.send(json!({"type": "pause", "room": room})).await;
    let p = host.state_where(&room, |s| s["status"] == "paused").await;
    assert_eq!(p["legal"], json!([]));
    assert_eq!(p["clock"]["paused"], true);
    host.send(
        json!({"type": "move", "game": room, "square": first_legal(&s), "version": p["version"]}),
    )
    .await;
    host.error("paused").await;
    host.send(json!({"type": "resume", "room": room})).await;
    let r = host.state_where(&room, |s| s["status"] == "playing").await;
    let v = r["version"].as_u64().unwrap();
    host.send(json!({"type": "move", "game": room, "square": first_legal(&r), "version": v}))
        .await;
    host.state_where(&room, |s| {
        s["history"].as_array().is_some_and(|h| h.len() >= 4)
    })
    .await;
    // The host ends it: no winner; the reservation takes the bot's seat.
    host.send(json!({"type": "end", "room": room})).await;
    let end = host
        .state_where(&room, |s| s["result"] != Value::Null)
        .await;
    assert_eq!(end["result"]["reason"], "ended_by_host");
    assert_eq!(end["result"]["winner"], Value::Null);
    assert_eq!(end["seats"][1]["kind"], "person", "{end}");
    assert_eq!(end["reservation"], Value::Null);
    let records = Db::finished_games(&db).unwrap();
    assert!(records
        .iter()
        .any(|r| r.game == room && r.reason == "ended_by_host" && r.white == "bot:easy"));
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disconnected_player_reconnects_with_its_token() {
    let mut cfg = test_cfg(temp_db("reconnect"));
    cfg.online.lobby.room.action_limit = reversi::clock::Span::from_secs(30);
    let server = start(cfg).await;
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    a.send(json!({"type": "queue"})).await;
    let token = guest_token(&mut a).await;
    b.send(json!({"type": "queue"})).await;
    let (room, a_color) = matched(&mut a).await;
    matched(&mut b).await;
    let s = b.state(&room).await;
    drop(a);
    let gone = b
        .state_where(&room, |s| {
            s["seats"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["connected"] == false)
        })
        .await;
    assert!(gone["members"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["grace_until"].is_u64()));
    let mut a = Client::connect(server.addr).await;
    a.send(json!({"type": "reconnect", "token": "0123456789abcdef0123456789abcdef"}))
        .await;
    a.error("wrong_token").await;
    a.send(json!({"type": "reconnect", "token": token, "rid": 2}))
        .await;
    let g = a.until("guest", |v| v["type"] == "guest").await;
    assert_eq!(g["rid"], 2);
    let (room2, color2) = matched(&mut a).await;
    assert_eq!(
        (room2.as_str(), color2.as_str()),
        (room.as_str(), a_color.as_str())
    );
    let back = a.state(&room).await;
    assert_eq!(back["board"], s["board"]);
    // The game goes on.
    play_out(&mut a, &mut b, &room, &a_color).await;
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_game_is_lost_on_time() {
    let db = temp_db("online-time");
    let mut cfg = test_cfg(db.clone());
    cfg.online.lobby.room.action_limit = reversi::clock::Span::from_millis(800);
    let server = start(cfg).await;
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    a.send(json!({"type": "queue"})).await;
    b.send(json!({"type": "queue"})).await;
    let (room, _) = matched(&mut a).await;
    let end = a.state_where(&room, |s| s["result"] != Value::Null).await;
    assert_eq!(end["result"]["reason"], "timeout");
    assert_eq!(end["result"]["winner"], "white");
    assert_eq!(end["result"]["seat"], 0);
    // A move after the deadline is refused: the game is already over.
    a.send(json!({"type": "move", "game": room, "square": "d3", "version": end["version"]}))
        .await;
    a.until("an error", |v| v["type"] == "error").await;
    let records = Db::finished_games(&db).unwrap();
    assert!(records
        .iter()
        .any(|r| r.game == room && r.reason == "timeout"));
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_in_an_online_game_loses_nothing() {
    let db = temp_db("kill-online");
    let server = Child::spawn(&db);
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    a.send(json!({"type": "queue"})).await;
    let ta = guest_token(&mut a).await;
    b.send(json!({"type": "queue"})).await;
    let tb = guest_token(&mut b).await;
    let (room, a_color) = matched(&mut a).await;
    matched(&mut b).await;
    let mut s = a.state(&room).await;
    for _ in 0..5 {
        let v = s["version"].as_u64().unwrap();
        let mover = if s["to_move"] == a_color.as_str() {
            &mut a
        } else {
            &mut b
        };
        mover
            .send(json!({"type": "move", "game": room, "square": first_legal(&s), "version": v}))
            .await;
        s = a
            .state_where(&room, |n| n["version"].as_u64() > Some(v))
            .await;
    }
    // A finished game too: it must still be recorded after the kill.
    let (mut c, _d, quick, _) = a_match(server.addr).await;
    c.send(json!({"type": "resign", "game": quick})).await;
    c.state_where(&quick, |s| s["result"] != Value::Null).await;
    server.kill();
    let records = Db::finished_games(&db).unwrap();
    assert!(records
        .iter()
        .any(|r| r.game == quick && r.reason == "resignation"));
    let server = Child::spawn(&db);
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    a.send(json!({"type": "reconnect", "token": ta})).await;
    b.send(json!({"type": "reconnect", "token": tb})).await;
    matched(&mut a).await;
    let back = a.state(&room).await;
    assert_eq!(back["board"], s["board"]);
    assert_eq!(back["history"], s["history"]);
    assert_eq!(back["result"], Value::Null);
    let end = play_out(&mut a, &mut b, &room, &a_color).await;
    assert_eq!(end["result"]["reason"], "board");
    server.kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_and_malformed_messages_never_break_the_server() {
    use rand::{RngExt, SeedableRng};
    let mut cfg = test_cfg(temp_db("fuzz"));
    cfg.rate_per_sec = 100_000;
    cfg.rate_burst = 100_000;
    let server = start(cfg).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5eed);
    // Two guests in a game, and a hosted room with a bot, so that commands have something to
    // hit; the message types include the local ones the server no longer knows.
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    a.send(json!({"type": "queue"})).await;
    b.send(json!({"type": "queue"})).await;
    let (room, _) = matched(&mut a).await;
    let mut h = Client::connect(server.addr).await;
    let hosted = hosted_with_easy_bot(&mut h).await;
    h.send(json!({"type": "start", "room": hosted})).await;
    h.state_where(&hosted, |s| s["status"] == "playing").await;
    let mut types = crate::protocol::CLIENT_TYPES.to_vec();
    types.extend(["local_new", "local_resume", "local_close"]);
    let squares = ["a1", "d3", "c4", "f5", "e6", "z9", "", "pass"];
    let games = [room.as_str(), hosted.as_str(), "R999", "Lx", "H1", ""];
    for i in 0..1500 {
        let text = match rng.random_range(0..6) {
            0 => {
                let n = rng.random_range(0..64);
                (0..n)
                    .map(|_| rng.random_range(0x20u8..0x7f) as char)
                    .collect::<String>()
            }
            1 => "{\"type\":".to_string() + &"[".repeat(rng.random_range(0..200)),
            _ => {
                let mut m = serde_json::Map::new();
                m.insert(
                    "type".into(),
                    json!(types[rng.random_range(0..types.len())]),
                );
                for (k, vals) in [
                    ("game", games.iter().map(|g| json!(g)).collect::<Vec<_>>()),
                    ("room", games.iter().map(|g| json!(g)).collect()),
                    ("square", squares.iter().map(|s| json!(s)).collect()),
                    (
                        "version",
                        vec![json!(0), json!(1), json!(-1), json!(u64::MAX), json!("x")],
                    ),
                    ("seat", vec![json!(0), json!(1), json!(7)]),
                    ("level", vec![json!("easy"), json!("godlike")]),
                    (
                        "mode",
                        vec![json!("computer"), json!("two_players"), json!(3)],
                    ),
                    ("code", vec![json!("ABCD-EFGH"), json!("")]),
                    ("token", vec![json!("00"), json!(null)]),
                    ("action_secs", vec![json!(30), json!(31)]),
                ] {
                    if rng.random_bool(0.4) {
                        m.insert(k.into(), vals[rng.random_range(0..vals.len())].clone());
                    }
                }
                Value::Object(m).to_string()
            }
        };
        let c = match i % 3 {
            0 => &mut a,
            1 => &mut b,
            _ => &mut h,
        };
        c.send_raw(Message::text(text)).await;
    }
    // Everyone still answers, and the game states are consistent.
    for c in [&mut a, &mut b, &mut h] {
        c.ping().await;
    }
    for game in [&room, &hosted] {
        a.send(json!({"type": "sync", "game": game, "rid": "final"}))
            .await;
        let s = a
            .until("the final state", |v| {
                v["type"] == "state" && v["rid"] == "final"
            })
            .await;
        let board = s["board"].as_str().unwrap();
        let (x, o) = (board.matches('X').count(), board.matches('O').count());
        assert_eq!(s["count"]["black"], x);
        assert_eq!(s["count"]["white"], o);
        assert_eq!(
            x + o,
            4 + s["history"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|h| h["move"] != "pass")
                .count()
        );
        let replay = reversi::core::Game::replay(
            reversi::core::Position::initial(),
            s["history"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["move"].as_str().unwrap().parse().unwrap()),
        )
        .expect("the history is a legal game");
        assert_eq!(replay.position().to_board_string()[..64], *board);
        for l in s["legal"].as_array().unwrap() {
            let sq: reversi::core::Square = l["square"].as_str().unwrap().parse().unwrap();
            assert!(replay.position().is_legal(sq));
        }
    }
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extreme_numbers_are_refused_or_served_without_breaking_the_server() {
    let server = start(test_cfg(temp_db("extreme"))).await;
    let mut c = Client::connect(server.addr).await;
    c.send(json!({"type": "room_create", "action_secs": u64::MAX}))
        .await;
    c.error("bad_time").await;
    c.send(json!({"type": "room_create"})).await;
    let room = created_room(&mut c).await;
    c.send(json!({"type": "sit", "room": room, "seat": u64::MAX}))
        .await;
    c.error("no_such_seat").await;
    c.send(json!({"type": "move", "game": room, "square": "d3", "version": u64::MAX}))
        .await;
    c.until("an error", |v| v["type"] == "error").await;
    c.ping().await;
    server.task.abort();
}

#[test]
fn an_unreadable_lobby_snapshot_stops_the_start_with_the_error() {
    let db = temp_db("bad-snapshot");
    drop(Db::open(&db).expect("a new database"));
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "INSERT INTO lobby_snapshot (id, seq, state) VALUES (1, 3, X'00ff')",
        [],
    )
    .unwrap();
    drop(conn);
    let err = Db::open(&db).err().expect("the snapshot cannot be read");
    assert!(err.to_string().contains("state"), "{err}");
}

/// The head of the answer to a plain HTTP request, in lower case.
async fn http_head(addr: std::net::SocketAddr, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(raw.len());
    String::from_utf8_lossy(&raw[..split]).to_lowercase()
}

/// Every HTTP answer (the page, its files, the weights, a 404, a refused WebSocket upgrade)
/// carries the security headers, the CSP allowing exactly what the page uses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_security_headers() {
    let server = start(test_cfg(temp_db("headers"))).await;
    for path in [
        "/",
        "/index.html",
        "/join/R12",
        "/app.js",
        "/worker.js",
        "/reversi.wasm",
        "/weights/expert.bin",
        "/no-such-file",
        "/../Cargo.toml",
        "/ws",
    ] {
        let req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        let head = http_head(server.addr, &req).await;
        assert!(head.starts_with("http/1.1 "), "{path}: {head}");
        let csp = head
            .lines()
            .find_map(|l| l.strip_prefix("content-security-policy: "))
            .unwrap_or_else(|| panic!("{path}: no CSP in {head}"));
        for part in [
            "default-src 'self'",
            "script-src 'self' 'wasm-unsafe-eval'",
            "worker-src 'self'",
            "connect-src 'self'",
            "style-src 'self'",
            "object-src 'none'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(part), "{path}: {part} missing from {csp}");
        }
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert!(!csp.contains("'unsafe-eval'"), "{path}: {csp}");
        assert!(
            head.contains("\r\nx-content-type-options: nosniff"),
            "{path}: {head}"
        );
        assert!(head.contains("\r\nx-frame-options: deny"), "{path}: {head}");
        assert!(
            head.contains("\r\nreferrer-policy: no-referrer"),
            "{path}: {head}"
        );
    }
    server.task.abort();
}

/// The accepted connections of this process whose local port is `port` (sockets with a peer).
fn accepted_nodelay(port: u16) -> Vec<bool> {
    use std::mem::ManuallyDrop;
    use std::os::fd::{FromRawFd, RawFd};
    let mut seen = Vec::new();
    for entry in std::fs::read_dir("/proc/self/fd").expect("/proc/self/fd") {
        let Ok(entry) = entry else { continue };
        let Ok(fd) = entry.file_name().to_string_lossy().parse::<RawFd>() else {
            continue;
        };
        let is_socket = std::fs::read_link(entry.path())
            .is_ok_and(|l| l.to_string_lossy().starts_with("socket:"));
        if !is_socket {
            continue;
        }
        // SAFETY: the descriptor is open (listed above) and is only borrowed: ManuallyDrop
        // never closes it. A descriptor closed meanwhile makes the calls below fail, nothing
        // worse.
        let s = ManuallyDrop::new(unsafe { std::net::TcpStream::from_raw_fd(fd) });
        let local = s.local_addr().map(|a| a.port()).ok();
        if local == Some(port) && s.peer_addr().is_ok() {
            seen.push(s.nodelay().unwrap_or(false));
        }
    }
    seen
}

/// The server sets `TCP_NODELAY` on every connection it accepts, so that back-to-back moves
/// are not held back by Nagle's algorithm and delayed acknowledgements (about 40 ms each).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accepted_connections_have_tcp_nodelay() {
    let server = start(test_cfg(temp_db("nodelay"))).await;
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    a.ping().await;
    b.ping().await;
    let flags = accepted_nodelay(server.addr.port());
    assert_eq!(flags.len(), 2, "two accepted connections: {flags:?}");
    assert!(flags.iter().all(|&on| on), "TCP_NODELAY off: {flags:?}");
    server.task.abort();
}
