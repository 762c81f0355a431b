//! The protocol as `PROTOCOL.md` writes it, each point checked over a real WebSocket against an
//! in-process server: the points where server and document once disagreed, finished games read
//! with a token, and the versioned store (a database written by store version 1, migrated).

use std::time::Duration;

use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

use crate::db::Db;
use crate::tests::{
    a_match, created_room, first_legal, guest_token, hosted_with_easy_bot, matched, start, temp_db,
    test_cfg, Client, PASS_BOARD,
};

/// The state `c` gets for its `sync` of `game` (with a fresh `rid`).
async fn synced(c: &mut Client, game: &str, rid: &str) -> Value {
    c.send(json!({"type": "sync", "game": game, "rid": rid}))
        .await;
    c.until("the synced state", |v| {
        v["type"] == "state" && v["rid"] == rid
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illegal_move_is_refused_with_illegal_action_and_changes_nothing() {
    let server = start(test_cfg(temp_db("illegal"))).await;
    let (mut a, mut b, room, a_color) = a_match(server.addr).await;
    let s = synced(&mut a, &room, "s1").await;
    let mover = if s["to_move"] == a_color.as_str() {
        &mut a
    } else {
        &mut b
    };
    let v = s["version"].clone();
    // d4 is occupied; a1 flips nothing.
    for (i, square) in ["d4", "a1"].into_iter().enumerate() {
        mover
            .send(json!({"type": "move", "game": room, "square": square, "version": v, "rid": i}))
            .await;
        let e = mover.error("illegal_action").await;
        assert_eq!(e["rid"], i, "{e}");
        assert_eq!(e["request"], "move");
    }
    let after = synced(mover, &room, "s2").await;
    assert_eq!(after["version"], v, "nothing changed");
    assert_eq!(after["board"], s["board"]);
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_over_the_hard_limit_closes_the_connection_with_1009() {
    let server = start(test_cfg(temp_db("big-frame"))).await;
    let mut c = Client::connect(server.addr).await;
    let big = format!(
        "{{\"type\":\"ping\",\"pad\":\"{}\"}}",
        "x".repeat(100 * 1024)
    );
    c.send_raw(Message::text(big)).await;
    let code = c.close_code().await;
    assert_eq!(code, Some(CloseCode::Size), "close code 1009");
    // A message over the soft limit only is refused, and the connection goes on.
    let mut d = Client::connect(server.addr).await;
    let medium = format!(
        "{{\"type\":\"ping\",\"pad\":\"{}\"}}",
        "x".repeat(10 * 1024)
    );
    d.send_raw(Message::text(medium)).await;
    d.error("too_large").await;
    d.ping().await;
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_online_game_shows_over_resignation_and_nobody_to_move() {
    let server = start(test_cfg(temp_db("over"))).await;
    let (mut a, mut b, room, a_color) = a_match(server.addr).await;
    let s = synced(&mut a, &room, "s").await;
    assert_eq!(s["status"], "playing");
    assert!(s["to_move"].is_string(), "{s}");
    a.send(json!({"type": "resign", "game": room})).await;
    for c in [&mut a, &mut b] {
        let end = c.state_where(&room, |s| s["result"] != Value::Null).await;
        assert_eq!(
            end["status"], "over",
            "an online room ends `over`, not `closed`: {end}"
        );
        assert_eq!(end["to_move"], Value::Null, "{end}");
        assert_eq!(end["legal"], json!([]));
        assert_eq!(end["result"]["reason"], "resignation");
        assert_ne!(end["result"]["winner"], a_color.as_str());
    }
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_after_an_online_time_out_is_refused_with_game_over() {
    let mut cfg = test_cfg(temp_db("late-move"));
    cfg.online.lobby.room.action_limit = reversi::clock::Span::from_millis(600);
    let server = start(cfg).await;
    let (mut a, _b, room, a_color) = a_match(server.addr).await;
    let end = a.state_where(&room, |s| s["result"] != Value::Null).await;
    assert_eq!(end["result"]["reason"], "timeout");
    assert_eq!(end["to_move"], Value::Null, "{end}");
    let _ = a_color;
    for (i, msg) in [
        json!({"type": "move", "game": room, "square": "d3", "version": end["version"], "rid": 1}),
        json!({"type": "resign", "game": room, "rid": 2}),
        json!({"type": "sync", "game": room, "rid": 3}),
    ]
    .into_iter()
    .enumerate()
    {
        a.send(msg).await;
        let e = a.error("game_over").await;
        assert_eq!(e["rid"], i + 1, "{e}");
    }
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_on_the_turn_version_is_accepted_after_other_changes_and_older_is_stale() {
    let server = start(test_cfg(temp_db("turn-version"))).await;
    let (mut a, b, room, a_color) = a_match(server.addr).await;
    let s = synced(&mut a, &room, "s").await;
    let turn = s["turn_version"].as_u64().expect("a turn version");
    assert_eq!(s["version"].as_u64(), Some(turn));
    // The player not to move drops its connection and comes back: the version moves on, the
    // turn does not.
    let a_moves = s["to_move"] == a_color.as_str();
    let (mut mover, waiter) = if a_moves { (a, b) } else { (b, a) };
    drop(waiter);
    let s2 = mover
        .state_where(&room, |n| {
            n["members"]
                .as_array()
                .is_some_and(|m| m.iter().any(|m| m["connected"] == false))
        })
        .await;
    assert!(s2["version"].as_u64() > Some(turn), "{s2}");
    assert_eq!(s2["turn_version"].as_u64(), Some(turn));
    mover
        .send(json!({"type": "move", "game": room, "square": first_legal(&s), "version": turn, "rid": "m"}))
        .await;
    let moved = mover
        .until("the move's state", |v| {
            v["type"] == "state" && v["rid"] == "m"
        })
        .await;
    assert_eq!(
        moved["history"].as_array().map(Vec::len),
        Some(1),
        "accepted: {moved}"
    );
    let new_turn = moved["turn_version"].as_u64().unwrap();
    assert!(new_turn > turn);
    assert_eq!(moved["turn_version"], moved["version"]);
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_older_than_the_turn_is_refused_as_stale() {
    let server = start(test_cfg(temp_db("stale"))).await;
    let (mut a, mut b, room, a_color) = a_match(server.addr).await;
    let s = synced(&mut a, &room, "s").await;
    let v0 = s["version"].as_u64().unwrap();
    let (first, second) = if s["to_move"] == a_color.as_str() {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    first
        .send(json!({"type": "move", "game": room, "square": first_legal(&s), "version": v0}))
        .await;
    let s1 = second
        .state_where(&room, |n| n["version"].as_u64() > Some(v0))
        .await;
    // The second player names the version before the first move: stale, nothing changes.
    second
        .send(json!({"type": "move", "game": room, "square": first_legal(&s1), "version": v0, "rid": 9}))
        .await;
    let e = second.error("stale_version").await;
    assert_eq!(e["rid"], 9);
    let again = synced(second, &room, "again").await;
    assert_eq!(again["version"], s1["version"]);
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_may_skip_but_every_state_is_full_and_nothing_is_missed() {
    let server = start(test_cfg(temp_db("versions"))).await;
    let mut c = Client::connect(server.addr).await;
    let room = hosted_with_easy_bot(&mut c).await;
    c.state_where(&room, |s| s["seats"][1]["kind"] == "bot")
        .await;
    c.send(json!({"type": "start", "room": room})).await;
    let playing = c.state_where(&room, |s| s["status"] == "playing").await;
    c.send(json!({"type": "pause", "room": room, "rid": "p"}))
        .await;
    let paused = c
        .until("paused", |v| v["type"] == "state" && v["rid"] == "p")
        .await;
    c.send(json!({"type": "resume", "room": room, "rid": "r"}))
        .await;
    let resumed = c
        .until("resumed", |v| v["type"] == "state" && v["rid"] == "r")
        .await;
    let (v0, v1, v2) = (
        playing["version"].as_u64().unwrap(),
        paused["version"].as_u64().unwrap(),
        resumed["version"].as_u64().unwrap(),
    );
    assert!(v0 < v1 && v1 < v2, "versions go up: {v0} {v1} {v2}");
    assert_eq!(paused["status"], "paused");
    assert_eq!(resumed["status"], "playing");
    // The last state seen is the server's: a gap did not hide a change.
    let s = synced(&mut c, &room, "sync").await;
    assert_eq!(s["version"].as_u64(), Some(v2), "{s}");
    // And the move decided on it is accepted.
    c.send(
        json!({"type": "move", "game": room, "square": first_legal(&s), "version": v2, "rid": "m"}),
    )
    .await;
    let moved = c
        .until("the move", |v| v["type"] == "state" && v["rid"] == "m")
        .await;
    assert!(!moved["history"].as_array().unwrap().is_empty(), "{moved}");
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_to_a_request_echoes_its_rid_and_only_to_the_requester() {
    let server = start(test_cfg(temp_db("rid"))).await;
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    a.send(json!({"type": "queue", "rid": 1})).await;
    let g = a.until("guest", |v| v["type"] == "guest").await;
    assert_eq!(g["rid"], 1, "{g}");
    let q = a.until("queued", |v| v["type"] == "queued").await;
    assert_eq!(q["rid"], 1, "{q}");
    a.send(json!({"type": "cancel_queue", "rid": 2})).await;
    let c = a
        .until("cancelled", |v| v["type"] == "queue_cancelled")
        .await;
    assert_eq!(c["rid"], 2, "{c}");
    a.send(json!({"type": "invite_create", "rid": 3})).await;
    let inv = a.until("invite", |v| v["type"] == "invite").await;
    assert_eq!(inv["rid"], 3, "{inv}");
    a.send(json!({"type": "invite_cancel", "rid": 4})).await;
    let ic = a
        .until("invite cancelled", |v| v["type"] == "invite_cancelled")
        .await;
    assert_eq!(ic["rid"], 4, "{ic}");
    a.send(json!({"type": "invite_create"})).await;
    let inv = a.until("invite", |v| v["type"] == "invite").await;
    assert!(inv.get("rid").is_none(), "no rid sent, none echoed: {inv}");
    b.send(json!({"type": "invite_join", "code": inv["code"], "rid": "join"}))
        .await;
    let bm = b.until("matched", |v| v["type"] == "matched").await;
    assert_eq!(bm["rid"], "join", "{bm}");
    let bs = b.until("state", |v| v["type"] == "state").await;
    assert_eq!(bs["rid"], "join", "{bs}");
    let am = a.until("matched", |v| v["type"] == "matched").await;
    assert!(
        am.get("rid").is_none(),
        "the other player's copy has no rid: {am}"
    );
    let a_state = a.until("state", |v| v["type"] == "state").await;
    assert!(a_state.get("rid").is_none(), "{a_state}");
    let room = am["room"].as_str().unwrap().to_owned();
    let (mover, other) = if a_state["to_move"] == am["color"] {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let v = a_state["version"].clone();
    mover
        .send(json!({"type": "move", "game": room, "square": first_legal(&a_state), "version": v, "rid": 7}))
        .await;
    let mine = mover
        .state_where(&room, |s| s["version"].as_u64() > v.as_u64())
        .await;
    assert_eq!(mine["rid"], 7, "{mine}");
    let theirs = other
        .state_where(&room, |s| s["version"].as_u64() > v.as_u64())
        .await;
    assert!(theirs.get("rid").is_none(), "{theirs}");
    // Hosted rooms: room_created and the states the command caused.
    let mut h = Client::connect(server.addr).await;
    h.send(json!({"type": "room_create", "rid": "h"})).await;
    let created = h
        .until("room_created", |v| v["type"] == "room_created")
        .await;
    assert_eq!(created["rid"], "h");
    let hs = h.until("state", |v| v["type"] == "state").await;
    assert_eq!(hs["rid"], "h", "{hs}");
    let hroom = created["room"].as_str().unwrap().to_owned();
    h.send(json!({"type": "sit", "room": hroom, "seat": 0, "rid": "sit"}))
        .await;
    let sat = h
        .state_where(&hroom, |s| s["seats"][0]["kind"] == "person")
        .await;
    assert_eq!(sat["rid"], "sit", "{sat}");
    server.task.abort();
}

#[test]
fn the_games_table_writes_a_pass_as_pass_and_reads_it_back_as_moves() {
    use reversi::core::{Game, Position};
    let start = Position::from_board_string(PASS_BOARD).unwrap();
    let game = Game::replay(start, ["c1".parse().unwrap(), "pass".parse().unwrap()]).unwrap();
    let t = crate::rooms::transcript(&game);
    assert_eq!(t, "c1pass");
    let rec = crate::db::GameRecord {
        game: "R1".into(),
        game_no: 1,
        kind: "random".into(),
        black: "guest:1".into(),
        white: "guest:2".into(),
        start_board: start.to_board_string(),
        transcript: t,
        reason: "resignation".into(),
        winner: Some("black".into()),
        black_discs: 4,
        white_discs: 1,
        started_ms: 1,
        ended_ms: 2,
        black_clock_ms: None,
        white_clock_ms: None,
    };
    let v = serde_json::to_value(crate::finished::view(&rec)).unwrap();
    assert_eq!(
        v["moves"],
        json!([{"color": "black", "move": "c1"}, {"color": "white", "move": "pass"}])
    );
}

// ---- finished games, read with a token ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_read_with_a_token_after_the_guest_is_forgotten() {
    let mut cfg = test_cfg(temp_db("records"));
    cfg.online.lobby.reconnect_grace = reversi::clock::Span::from_millis(300);
    let server = start(cfg).await;
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    a.send(json!({"type": "queue"})).await;
    let token = guest_token(&mut a).await;
    b.send(json!({"type": "queue"})).await;
    let (room, _) = matched(&mut a).await;
    let (_, b_color) = matched(&mut b).await;
    // A few moves, then b resigns while a is away.
    let mut s = synced(&mut a, &room, "s").await;
    for ply in 1..=3usize {
        let v = s["version"].as_u64().unwrap();
        let mover = if s["to_move"] == b_color.as_str() {
            &mut b
        } else {
            &mut a
        };
        mover
            .send(json!({"type": "move", "game": room, "square": first_legal(&s), "version": v}))
            .await;
        s = b
            .state_where(&room, |n| {
                n["history"].as_array().map(Vec::len) == Some(ply)
            })
            .await;
    }
    drop(a);
    b.send(json!({"type": "resign", "game": room})).await;
    let end = b.state_where(&room, |s| s["result"] != Value::Null).await;
    // Past the guest's grace (300 ms here), the guest is forgotten: its token no longer
    // reconnects…
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut c = Client::connect(server.addr).await;
    c.send(json!({"type": "reconnect", "token": token})).await;
    c.error("wrong_token").await;
    // …but still reads the game.
    let mut c = Client::connect(server.addr).await;
    c.send(json!({"type": "record", "game": room, "token": token, "rid": "r"}))
        .await;
    let rec = c.until("record", |v| v["type"] == "record").await;
    assert_eq!(rec["rid"], "r");
    assert_eq!(rec["game"], room.as_str());
    assert_eq!(rec["reason"], "resignation");
    assert_eq!(rec["winner"], end["result"]["winner"]);
    assert_eq!(rec["moves"], end["history"], "{rec}");
    assert_eq!(rec["moves"].as_array().map(Vec::len), Some(3));
    c.send(json!({"type": "games", "token": token, "rid": "g"}))
        .await;
    let games = c.until("games", |v| v["type"] == "games").await;
    assert_eq!(games["rid"], "g");
    assert_eq!(games["games"].as_array().map(Vec::len), Some(1), "{games}");
    assert_eq!(games["games"][0]["moves"], rec["moves"]);
    assert!(games["games"][0].get("rid").is_none());
    // A wrong token, someone else's game, a bad limit.
    c.send(json!({"type": "record", "game": room, "token": "nope"}))
        .await;
    c.error("wrong_token").await;
    c.send(json!({"type": "games", "token": token, "limit": 0}))
        .await;
    c.error("bad_message").await;
    let mut d = Client::connect(server.addr).await;
    d.send(json!({"type": "queue"})).await;
    let other = guest_token(&mut d).await;
    d.send(json!({"type": "record", "game": room, "token": other}))
        .await;
    d.error("no_such_game").await;
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_recent_games_list_hosted_games_newest_first() {
    let server = start(test_cfg(temp_db("recent"))).await;
    let mut c = Client::connect(server.addr).await;
    c.send(json!({"type": "room_create"})).await;
    let token = guest_token(&mut c).await;
    let room = created_room(&mut c).await;
    c.send(json!({"type": "sit", "room": room, "seat": 0}))
        .await;
    c.send(json!({"type": "add_bot", "room": room, "seat": 1, "level": "easy"}))
        .await;
    c.state_where(&room, |s| s["seats"][1]["kind"] == "bot")
        .await;
    for game in 1..=2u64 {
        c.send(json!({"type": "start", "room": room})).await;
        c.state_where(&room, |s| s["status"] == "playing" && s["game_no"] == game)
            .await;
        c.send(json!({"type": "resign", "game": room})).await;
        let over = c
            .state_where(&room, |s| s["status"] == "over" && s["game_no"] == game)
            .await;
        assert_eq!(over["to_move"], Value::Null);
        // Between games, a move is refused: the game is over.
        c.send(json!({"type": "move", "game": room, "square": "d3", "version": over["version"]}))
            .await;
        c.error("game_over").await;
    }
    c.send(json!({"type": "games", "token": token})).await;
    let games = c.until("games", |v| v["type"] == "games").await;
    let list = games["games"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{games}");
    assert_eq!(list[0]["game_no"], 2, "newest first");
    assert_eq!(list[1]["game_no"], 1);
    assert_eq!(list[0]["black"], format!("guest:{}", games["player"]));
    assert_eq!(list[0]["white"], "bot:easy");
    c.send(json!({"type": "record", "game": room, "token": token, "game_no": 1}))
        .await;
    let one = c.until("record", |v| v["type"] == "record").await;
    assert_eq!(one["game_no"], 1);
    server.task.abort();
}

// ---- the versioned store ----

/// The fixture database written by store version 1 (see `tests/fixtures/make-fixture.mjs`) and
/// the tokens and rooms it holds.
pub fn fixture() -> (std::path::PathBuf, Value) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let db = temp_db("fixture");
    std::fs::copy(format!("{dir}/store_v1.db"), &db).expect("the fixture database");
    let tokens = std::fs::read_to_string(format!("{dir}/store_v1.json")).expect("its tokens");
    (db, serde_json::from_str(&tokens).expect("JSON"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_written_by_store_version_1_is_migrated_and_nothing_is_lost() {
    let (db, t) = fixture();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let v1_live: i64 = conn
        .query_row("SELECT COUNT(*) FROM live", [], |r| r.get(0))
        .unwrap();
    let v1: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v1, 0, "the fixture is a version 1 store");
    drop(conn);
    assert!(v1_live >= 2, "the fixture holds live rooms");
    let server = start(test_cfg(db.clone())).await;
    let conn = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, crate::db::STORE_VERSION);
    drop(conn);
    let live = t["live_room"].as_str().unwrap();
    let finished = t["finished_room"].as_str().unwrap();
    let hosted = t["hosted_room"].as_str().unwrap();
    let mut c = Client::connect(server.addr).await;
    // The game finished under version 1: its record is migrated to the protocol's names and
    // read with the token of either player.
    for who in ["c", "d"] {
        c.send(json!({"type": "record", "game": finished, "token": t[who]}))
            .await;
        let rec = c.until("record", |v| v["type"] == "record").await;
        assert_eq!(rec["reason"], "resignation", "{rec}");
        assert_eq!(rec["moves"].as_array().map(Vec::len), Some(3), "{rec}");
        assert_eq!(rec["kind"], "invite");
    }
    // The live online game came back and went on by wall time: it was lost on time while the
    // server was down (the fixture is older than 30 s), and is recorded, not dropped.
    c.send(json!({"type": "record", "game": live, "token": t["a"]}))
        .await;
    let rec = c.until("record", |v| v["type"] == "record").await;
    assert_eq!(rec["reason"], "timeout", "{rec}");
    assert_eq!(rec["moves"].as_array().map(Vec::len), Some(4), "{rec}");
    // The hosted room came back too, and its game went on by wall time: the host, to move, lost
    // on time while the server was down; the game is recorded.
    c.send(json!({"type": "games", "token": t["e"]})).await;
    let games = c.until("games", |v| v["type"] == "games").await;
    let g = &games["games"][0];
    assert_eq!(g["game"], hosted, "{games}");
    assert_eq!(g["reason"], "timeout");
    assert_eq!(g["white"], "bot:easy");
    assert_eq!(g["winner"], "white");
    assert!(g["moves"].as_array().is_some_and(|m| m.len() >= 2), "{g}");
    // The queued guest's token still works.
    let mut f = Client::connect(server.addr).await;
    f.send(json!({"type": "reconnect", "token": t["f"]})).await;
    let back = f
        .until("an answer", |v| {
            v["type"] == "guest" || v["type"] == "error"
        })
        .await;
    assert_eq!(back["type"], "guest", "{back}");
    // A new game after the migration gets the next room number.
    let (_a, _b, room, _) = a_match(server.addr).await;
    let n: u64 = room[1..].parse().unwrap();
    assert!(n > live[1..].parse::<u64>().unwrap() && n > finished[1..].parse::<u64>().unwrap());
    server.task.abort();
}

#[test]
fn a_store_of_a_newer_version_stops_the_start_with_a_clear_error() {
    let db = temp_db("newer");
    drop(Db::open(&db).expect("a new database"));
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("PRAGMA user_version = 9").unwrap();
    drop(conn);
    let err = Db::open(&db).err().expect("refused");
    assert!(err.to_string().contains("store version 9"), "{err}");
    assert!(err.to_string().contains("newer server"), "{err}");
}

#[test]
fn a_record_of_a_newer_format_stops_the_start_with_its_name() {
    let db = temp_db("newer-record");
    drop(Db::open(&db).expect("a new database"));
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "INSERT INTO live (id, kind, state, updated_ms, format) VALUES ('Habc', 'hosted', '{}', 0, 4)",
        [],
    )
    .unwrap();
    drop(conn);
    let err = Db::open(&db).err().expect("refused");
    assert!(err.to_string().contains("\"Habc\""), "{err}");
    assert!(err.to_string().contains("format 4"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_record_stops_the_start_and_is_kept() {
    let (db, _) = fixture();
    // Break one log entry of the version 1 database.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let seq: i64 = conn
        .query_row("SELECT MAX(seq) FROM lobby_log", [], |r| r.get(0))
        .unwrap();
    conn.execute(
        "UPDATE lobby_log SET op = '{\"op\":\"teleport\"}' WHERE seq = ?1",
        [seq],
    )
    .unwrap();
    drop(conn);
    let err = unreadable_start(&db).await;
    assert!(
        err.contains(&format!("the lobby log entry {seq} cannot be read")),
        "{err}"
    );
    let conn = rusqlite::Connection::open(&db).unwrap();
    let op: String = conn
        .query_row("SELECT op FROM lobby_log WHERE seq = ?1", [seq], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(op.contains("teleport"), "the entry is kept as it was");
    // A hosted room that cannot be read is named too.
    conn.execute("DELETE FROM lobby_log WHERE seq = ?1", [seq])
        .unwrap();
    conn.execute(
        "INSERT INTO live (id, kind, state, updated_ms, format) VALUES ('Hbroken', 'hosted', 'not json', 0, ?1)",
        [crate::db::RECORD_FORMAT],
    )
    .unwrap();
    drop(conn);
    let err = unreadable_start(&db).await;
    assert!(
        err.contains("the hosted room \"Hbroken\" cannot be read"),
        "{err}"
    );
}

/// Starts a server on `db`, which must be refused as holding a record it cannot read; returns
/// the error's message.
async fn unreadable_start(db: &std::path::Path) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let err = crate::Server::start(test_cfg(db.to_owned()), listener)
        .await
        .err()
        .expect("the start is refused");
    assert!(
        matches!(
            &err,
            crate::StartError::Store {
                source: crate::StoreError::Unreadable { .. },
                ..
            }
        ),
        "{err:?}"
    );
    err.to_string()
}
