//! The store version 3 (stable records): loading databases written by store versions 2 and 1,
//! and refusing records that cannot be read with their names.

use serde_json::{json, Value};

use reversi::clock::{ClockStatus, Millis};
use reversi::room::{
    Activity, Lobby, Occupant, PauseCause, PlayerId, RematchOffer, RematchState, Room, RoomId,
};
use reversi::room_adapters::ReversiGame;

use crate::contract_tests::fixture;
use crate::db::{Db, RECORD_FORMAT, STORE_VERSION};
use crate::online::Online;
use crate::records::{self, LobbyRecord, RoomRecord};
use crate::tests::{start, temp_db, test_cfg, Client};

type Hosted = std::collections::BTreeMap<String, Room<ReversiGame>>;

/// The store version 2 fixture (see `tests/fixtures/make-fixture-v2.mjs`) and its tokens.
fn fixture_v2() -> (std::path::PathBuf, Value) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let db = temp_db("fixture-v2");
    std::fs::copy(format!("{dir}/store_v2.db"), &db).expect("the fixture database");
    let tokens = std::fs::read_to_string(format!("{dir}/store_v2.json")).expect("its tokens");
    (db, serde_json::from_str(&tokens).expect("JSON"))
}

/// Asks for the record of `game` with `token`; the answer, a record or an error.
async fn ask_record(c: &mut Client, game: &Value, token: &Value) -> Value {
    c.send(json!({"type": "record", "game": game, "token": token}))
        .await;
    c.until("an answer", |v| {
        v["type"] == "record" || v["type"] == "error"
    })
    .await
}

fn user_version(db: &std::path::Path) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap()
}

/// Opens (migrating) the database and restores the lobby and the hosted rooms, as a start does,
/// without running the deadlines that fell since.
fn restore(db: &std::path::Path) -> (Lobby<ReversiGame>, Hosted) {
    let (_db, loaded) = Db::open(db).expect("the store opens");
    let online = Online::restore(&test_cfg(db.to_owned()), &loaded).expect("it is restored");
    online.restored().expect("not started")
}

/// The guest of a token, from the lobby's record.
fn player_of(lobby: &Lobby<ReversiGame>, token: &Value) -> PlayerId {
    let rec = records::lobby_record(lobby);
    let g = rec
        .guests
        .iter()
        .find(|g| Some(g.token.as_str()) == token.as_str())
        .unwrap_or_else(|| panic!("a guest has token {token}"));
    PlayerId(g.player)
}

fn moves(room: &Room<ReversiGame>) -> usize {
    room.game().map_or(0, |g| g.record().plies().len())
}

#[test]
fn a_store_version_2_database_is_migrated_and_every_game_comes_back() {
    let (db, t) = fixture_v2();
    assert_eq!(user_version(&db), 2, "the fixture is a version 2 store");
    let (lobby, hosted) = restore(&db);
    assert_eq!(user_version(&db), STORE_VERSION);
    // Every row is now a stable record.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (live, formats): (i64, i64) = conn
        .query_row(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE format = ?1) FROM live",
            [RECORD_FORMAT],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((live, formats), (2, 2));
    let state: String = conn
        .query_row("SELECT state FROM live LIMIT 1", [], |r| r.get(0))
        .unwrap();
    let rec: RoomRecord = serde_json::from_str(&state).expect("a room record");
    assert_eq!(rec.v, records::RECORD_VERSION);
    let snap: String = conn
        .query_row("SELECT state FROM lobby_snapshot", [], |r| r.get(0))
        .unwrap();
    let rec: LobbyRecord = serde_json::from_str(&snap).expect("a lobby record");
    assert_eq!(
        rec.rooms.len(),
        1,
        "the snapshot holds the game in progress"
    );
    drop(conn);

    // The online game in progress: its 4 moves from the snapshot and 2 from the log, its two
    // players in their seats, its clock running for the side to move.
    let (a, b) = (player_of(&lobby, &t["a"]), player_of(&lobby, &t["b"]));
    let rid = lobby.room_of(a).expect("a plays");
    assert_eq!(format!("R{}", rid.0), t["live_room"]);
    assert_eq!(lobby.room_of(b), Some(rid));
    let room = lobby.room(rid).unwrap();
    assert_eq!(moves(room), 6);
    let seated: Vec<PlayerId> = room
        .seats()
        .iter()
        .filter_map(|s| s.as_ref()?.person())
        .collect();
    assert!(seated.contains(&a) && seated.contains(&b), "{seated:?}");
    let clock = room.clock().unwrap();
    assert_eq!(
        clock.status(),
        ClockStatus::Running {
            side: room.to_act().unwrap()
        }
    );
    let left = clock.remaining(room.to_act().unwrap(), clock.last_seen());
    assert!(left.is_some_and(|l| l.as_millis() <= 30_000 && l.as_millis() > 0));
    // The pending invite and the queued guest.
    let g = player_of(&lobby, &t["g"]);
    match lobby.activity(g) {
        Some(Activity::Inviting { code }) => assert_eq!(code.as_str(), t["invite"]),
        other => panic!("the inviting guest is {other:?}"),
    }
    let f = player_of(&lobby, &t["f"]);
    assert!(matches!(lobby.activity(f), Some(Activity::Waiting { .. })));
    // The finished invite game is gone from the lobby (its record is in the games table).
    let (c, d) = (player_of(&lobby, &t["c"]), player_of(&lobby, &t["d"]));
    assert_eq!(lobby.activity(c), Some(&Activity::Idle));
    assert_eq!(lobby.activity(d), Some(&Activity::Idle));

    // The hosted room with a bot, mid-game.
    let h = &hosted[t["hosted_room"].as_str().unwrap()];
    assert!(h.in_game() && h.paused().is_none());
    assert!(moves(h) >= 2);
    assert_eq!(
        h.seats()[1],
        Some(Occupant::Bot {
            level: "easy".into()
        })
    );
    assert_eq!(
        h.seats()[0].as_ref().and_then(Occupant::person),
        h.host(),
        "the host sits black"
    );
    // The paused hosted room: its second game, paused by the host, clock frozen.
    let p = &hosted[t["paused_room"].as_str().unwrap()];
    assert_eq!(p.paused(), Some(PauseCause::Host));
    assert_eq!(p.games_started(), 2);
    assert_eq!(moves(p), 2);
    let pc = p.clock().unwrap();
    assert!(matches!(pc.status(), ClockStatus::Paused { side: 0 }));
    let frozen = pc.remaining(0, Millis(pc.last_seen().0 + 3_600_000));
    assert_eq!(
        frozen,
        pc.remaining(0, pc.last_seen()),
        "a paused clock stands"
    );

    // The finished games.
    let games = Db::finished_games(&db).unwrap();
    let r2 = games.iter().find(|g| g.game == t["finished_room"]).unwrap();
    assert_eq!(
        (r2.reason.as_str(), r2.transcript.as_str()),
        ("resignation", "d3c3b3")
    );
    let first = games.iter().find(|g| g.game == t["paused_room"]).unwrap();
    assert_eq!((first.game_no, first.reason.as_str()), (1, "resignation"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_started_on_a_version_2_database_serves_its_tokens_and_records() {
    let (db, t) = fixture_v2();
    let server = start(test_cfg(db.clone())).await;
    let mut c = Client::connect(server.addr).await;
    c.send(json!({"type": "record", "game": t["finished_room"], "token": t["d"]}))
        .await;
    let rec = c.until("record", |v| v["type"] == "record").await;
    assert_eq!(rec["reason"], "resignation", "{rec}");
    assert_eq!(rec["moves"].as_array().map(Vec::len), Some(3));
    // The game in progress went on by wall time while the server was down: lost on time, and
    // recorded with its 6 moves before the server serves anyone.
    let rec = ask_record(&mut c, &t["live_room"], &t["a"]).await;
    assert_eq!(rec["reason"], "timeout", "{rec}");
    assert_eq!(rec["moves"].as_array().map(Vec::len), Some(6), "{rec}");
    // The inviting guest's token still works.
    let mut g = Client::connect(server.addr).await;
    g.send(json!({"type": "reconnect", "token": t["g"]})).await;
    let back = g
        .until("an answer", |v| {
            v["type"] == "guest" || v["type"] == "error"
        })
        .await;
    assert_eq!(back["type"], "guest", "{back}");
    server.task.abort();
}

/// The record of a game that ended while the server was down is there for the first request
/// after the start: the start writes it before it serves. Before, the online task wrote it
/// just after the start while reads went to the database directly, and a request in between
/// was answered "no such game" (seen on a loaded machine). The database is read the moment the
/// start returns (that failed on every start without the fix), and the start is repeated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_ended_while_the_server_was_down_is_recorded_before_anyone_asks() {
    for attempt in 0..5 {
        let (db, t) = fixture_v2();
        let server = start(test_cfg(db.clone())).await;
        // In the database the moment the start returns...
        let live = t["live_room"].as_str().expect("the live room's id");
        let games = Db::finished_games(&db).expect("the games read");
        assert!(
            games
                .iter()
                .any(|g| g.game == live && g.reason == "timeout"),
            "start {attempt}: not recorded when the start returned"
        );
        // ...and so for the first request.
        let mut c = Client::connect(server.addr).await;
        let v = ask_record(&mut c, &t["live_room"], &t["a"]).await;
        assert_eq!(v["type"], "record", "start {attempt}: {v}");
        assert_eq!(v["reason"], "timeout", "start {attempt}: {v}");
        server.task.abort();
    }
}

#[test]
fn a_store_version_1_database_is_migrated_through_version_2_to_records() {
    let (db, t) = fixture();
    assert_eq!(user_version(&db), 0);
    let (lobby, hosted) = restore(&db);
    assert_eq!(user_version(&db), STORE_VERSION);
    let a = player_of(&lobby, &t["a"]);
    let room = lobby.room(lobby.room_of(a).expect("a plays")).unwrap();
    assert_eq!(moves(room), 4);
    let h = &hosted[t["hosted_room"].as_str().unwrap()];
    assert!(moves(h) >= 2);
    assert!(lobby.activity(player_of(&lobby, &t["f"])).is_some());
}

/// Rewrites the record of `id` in the live table with `edit`.
fn corrupt_room(db: &std::path::Path, id: &str, edit: impl FnOnce(&mut Value)) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let state: String = conn
        .query_row("SELECT state FROM live WHERE id = ?1", [id], |r| r.get(0))
        .unwrap();
    let mut v: Value = serde_json::from_str(&state).unwrap();
    edit(&mut v);
    conn.execute(
        "UPDATE live SET state = ?2 WHERE id = ?1",
        rusqlite::params![id, v.to_string()],
    )
    .unwrap();
}

async fn start_error(db: &std::path::Path) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let err = crate::Server::start(test_cfg(db.to_owned()), listener)
        .await
        .err()
        .expect("the start is refused");
    assert!(
        matches!(&err, crate::StartError::Store { path, .. } if path == db),
        "{err:?}"
    );
    err.to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupted_record_stops_the_start_naming_the_room_and_what_is_wrong() {
    let (db, t) = fixture_v2();
    drop(Db::open(&db).expect("migrated"));
    let hosted = t["hosted_room"].as_str().unwrap();
    // An illegal move in a hosted room's game.
    corrupt_room(&db, hosted, |v| {
        v["game"]["moves"].as_array_mut().unwrap().push(json!("a1"))
    });
    let err = start_error(&db).await;
    assert!(
        err.contains(&format!("the hosted room {hosted:?} cannot be read")),
        "{err}"
    );
    assert!(err.contains("do not replay"), "{err}");
    // The row is kept as it was, and nothing else was dropped.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = conn
        .query_row("SELECT COUNT(*) FROM live", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 2);
    drop(conn);
    corrupt_room(&db, hosted, |v| {
        v["game"]["moves"].as_array_mut().unwrap().pop();
    });
    // A seat that names someone not in the room.
    corrupt_room(&db, hosted, |v| {
        v["seats"][0] = json!({"kind": "person", "player": 999})
    });
    let err = start_error(&db).await;
    assert!(
        err.contains("guest 999 is seated but not in the room"),
        "{err}"
    );
    corrupt_room(&db, hosted, |v| v["seats"][1] = json!({"kind": "alien"}));
    let err = start_error(&db).await;
    assert!(err.contains(&format!("{hosted:?}")), "{err}");
    assert!(err.contains("alien"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupted_online_room_in_the_lobby_record_is_named() {
    let (db, t) = fixture_v2();
    drop(Db::open(&db).expect("migrated"));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let snap: String = conn
        .query_row("SELECT state FROM lobby_snapshot", [], |r| r.get(0))
        .unwrap();
    let mut v: Value = serde_json::from_str(&snap).unwrap();
    v["rooms"][0]["room"]["game"]["clock"]["turn"] = json!({"state": "running", "side": 7});
    conn.execute("UPDATE lobby_snapshot SET state = ?1", [v.to_string()])
        .unwrap();
    drop(conn);
    let err = start_error(&db).await;
    let live = t["live_room"].as_str().unwrap();
    assert!(err.contains("the lobby snapshot cannot be read"), "{err}");
    assert!(err.contains(&format!("online room {live}")), "{err}");
    assert!(err.contains("side 7"), "{err}");
}

#[test]
fn a_version_2_row_that_cannot_be_read_stops_the_migration_and_leaves_the_file() {
    let (db, _) = fixture_v2();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "INSERT INTO live (id, kind, state, updated_ms, format) VALUES ('Hbad', 'hosted', '{\"settings\": 1}', 0, 2)",
        [],
    )
    .unwrap();
    drop(conn);
    let err = Db::open(&db).err().expect("refused").to_string();
    assert!(
        err.contains("the hosted room \"Hbad\" cannot be read"),
        "{err}"
    );
    assert_eq!(user_version(&db), 2, "the migration is undone");
}

#[test]
fn a_record_of_an_older_format_in_a_current_store_is_refused_by_name() {
    let db = temp_db("older-record");
    drop(Db::open(&db).expect("a new database"));
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "INSERT INTO live (id, kind, state, updated_ms, format) VALUES ('Hold', 'hosted', '{}', 0, 2)",
        [],
    )
    .unwrap();
    drop(conn);
    let err = Db::open(&db).err().expect("refused").to_string();
    assert!(err.contains("\"Hold\""), "{err}");
    assert!(err.contains("record format 2"), "{err}");
}

/// A rematch offer is kept with the lobby: a restart (the lobby's snapshot and log) brings it
/// back, offered by the one who offered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_offer_is_restored_with_the_lobby() {
    let db = temp_db("rematch-restored");
    let server = start(test_cfg(db.clone())).await;
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    a.send(json!({"type": "invite_create"})).await;
    let inv = a.until("invite", |v| v["type"] == "invite").await;
    b.send(json!({"type": "invite_join", "code": inv["code"]}))
        .await;
    let guest = b.until("guest", |v| v["type"] == "guest").await;
    let b_id = PlayerId(guest["player"].as_u64().unwrap());
    let (room, _) = crate::tests::matched(&mut a).await;
    crate::tests::matched(&mut b).await;
    a.send(json!({"type": "resign", "game": room})).await;
    b.state_where(&room, |s| s["status"] == "closed" || s["status"] == "over")
        .await;
    b.send(json!({"type": "rematch", "room": room})).await;
    // Answered once the offer is logged.
    b.until("rematch_waiting", |v| v["type"] == "rematch_waiting")
        .await;
    server.task.abort();
    let (lobby, _) = restore(&db);
    let offers: Vec<RematchOffer> = lobby.rematch_offers().copied().collect();
    assert_eq!(offers.len(), 1, "{offers:?}");
    let id = RoomId(room.trim_start_matches('R').parse().unwrap());
    assert_eq!(offers[0].room(), id);
    assert_eq!(offers[0].state(), RematchState::Offered { by: b_id });
    assert!(offers[0].opponent_of(b_id).is_some());
}
