//! Three `server` nodes on one Redis (`--redis`): matching, invites, reconnection, rematches and
//! finished games' records across nodes; a game taken over by another node after its owner is
//! killed with SIGKILL; Redis keys that expire; nodes that outlive their Redis connections and a
//! Redis restart; hosted rooms on the node that made them.
//!
//! Redis: `REVERSI_TEST_REDIS` (a `redis://` URL, as `.ci/run` exports it) or, when it is
//! unset, a `redis-server` started here on a free loopback port. Where `redis-server` is not
//! installed the tests are skipped, said once on stderr, unless `REVERSI_REQUIRE_REDIS` is set
//! (`.ci/run` sets it), when they fail. Every test keeps its keys under
//! its own prefix, so tests can share one Redis; the test that kills Redis's connections and
//! restarts it always starts a `redis-server` of its own.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use reversi::core::Color;
use reversi_server::protocol::{ClientMsg, SeatView, ServerMsg, State};

mod common;
use common::{Client, WAIT};

/// The lease of the rooms in these tests (`--lease-ms`).
const LEASE_MS: u64 = 1500;

/// A `redis-server` this test binary started (stopped when the binary ends: it dies with its
/// parent's pipe closing is not guaranteed, so it is also told to stop at exit).
struct OwnRedis {
    url: String,
}

fn redis_url() -> &'static str {
    static URL: OnceLock<OwnRedis> = OnceLock::new();
    &URL.get_or_init(|| {
        if let Ok(url) = std::env::var("REVERSI_TEST_REDIS") {
            return OwnRedis { url };
        }
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
            l.local_addr().expect("an address").port()
        };
        let child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "REVERSI_TEST_REDIS is unset and redis-server cannot be started ({e}): \
                     install it (apt-get install redis-server) or export REVERSI_TEST_REDIS=redis://..."
                )
            });
        let pid = child.id();
        // The server is stopped when the test binary exits.
        std::thread::spawn(move || {
            let mut child = child;
            let _ = child.wait();
        });
        extern "C" fn stop() {
            if let Some(pid) = REDIS_PID.get() {
                let _ = Command::new("kill").arg(pid.to_string()).status();
            }
        }
        static REDIS_PID: OnceLock<u32> = OnceLock::new();
        let _ = REDIS_PID.set(pid);
        extern "C" {
            fn atexit(f: extern "C" fn()) -> i32;
        }
        // SAFETY: `stop` is a plain function that lives as long as the program.
        unsafe {
            atexit(stop);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start on port {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        OwnRedis {
            url: format!("redis://127.0.0.1:{port}/"),
        }
    })
    .url
}

/// Whether these tests can run here: `redis-server` is installed (the tests that restart Redis
/// start their own even when `REVERSI_TEST_REDIS` names one). Without it they are skipped, said
/// once on stderr, so that `cargo test --workspace` passes on a machine without Redis; with
/// `REVERSI_REQUIRE_REDIS` set (as `.ci/run` sets it) a missing `redis-server` fails them.
fn redis_here() -> bool {
    static HERE: OnceLock<bool> = OnceLock::new();
    *HERE.get_or_init(|| {
        let found = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            assert!(
                std::env::var_os("REVERSI_REQUIRE_REDIS").is_none(),
                "REVERSI_REQUIRE_REDIS is set but redis-server is not installed"
            );
            // Straight to stderr: the test harness would hold back `eprintln!` of a test
            // that passes.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "cluster tests skipped: redis-server is not installed \
                 (apt-get install redis-server; .ci/run installs it and sets \
                 REVERSI_REQUIRE_REDIS, so that they always run there)"
            );
        }
        found
    })
}

/// A temporary directory for a node's database, emptied.
fn temp_db(test: &str, node: usize) -> PathBuf {
    let db = temp_db_path(test, node);
    let dir = db.parent().expect("a directory");
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("a temporary directory");
    db
}

/// Where a node's database is.
fn temp_db_path(test: &str, node: usize) -> PathBuf {
    std::env::temp_dir()
        .join(format!(
            "reversi-cluster-tests-{}-{test}-{node}",
            std::process::id()
        ))
        .join("reversi.db")
}

/// A `server` node of the test's cluster; killed (SIGKILL) when dropped.
struct Node {
    child: Child,
    addr: SocketAddr,
}

/// The prefix of a test's keys.
fn prefix(test: &str) -> String {
    format!("t{}-{test}", std::process::id())
}

impl Node {
    fn start(test: &str, n: usize) -> Node {
        Node::start_on(redis_url(), test, n)
    }

    /// A node on the Redis at `url`.
    fn start_on(url: &str, test: &str, n: usize) -> Node {
        Node::start_leased(url, test, n, LEASE_MS)
    }

    /// A node on the Redis at `url` whose rooms' lease is `lease_ms`.
    fn start_leased(url: &str, test: &str, n: usize, lease_ms: u64) -> Node {
        Node::spawn(url, test, lease_ms, temp_db(test, n))
    }

    /// Node `n` started again on the database it had (after a kill).
    fn restart_on(url: &str, test: &str, n: usize) -> Node {
        let db = temp_db_path(test, n);
        assert!(db.exists(), "node {n} of {test} had no database");
        Node::spawn(url, test, LEASE_MS, db)
    }

    fn spawn(url: &str, test: &str, lease_ms: u64, db: PathBuf) -> Node {
        Node::spawn_with(url, test, lease_ms, db, &[])
    }

    /// A node started with `extra` arguments as well.
    fn spawn_with(url: &str, test: &str, lease_ms: u64, db: PathBuf, extra: &[&str]) -> Node {
        let prefix = prefix(test);
        let (child, addr) = common::spawn_server(
            Command::new(env!("CARGO_BIN_EXE_server"))
                .args(["--addr", "127.0.0.1:0", "--db"])
                .arg(db)
                .args(["--redis", url, "--redis-prefix", &prefix])
                .args(["--lease-ms", &lease_ms.to_string()])
                .args(extra)
                .stderr(Stdio::inherit()),
        );
        Node { child, addr }
    }

    /// Three nodes of one cluster.
    fn three(test: &str) -> [Node; 3] {
        [
            Node::start(test, 0),
            Node::start(test, 1),
            Node::start(test, 2),
        ]
    }

    /// Whether the process still runs.
    fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// SIGKILL, as a crash.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Two clients matched at random on nodes `a` and `b`: (client, colour) of each, the room, and
/// the two tokens.
async fn match_two(
    a: SocketAddr,
    b: SocketAddr,
) -> ((Client, Color), (Client, Color), String, [String; 2]) {
    let mut x = Client::connect(a).await;
    let mut y = Client::connect(b).await;
    x.send(&ClientMsg::Queue { rid: None }).await;
    let (_, xt) = x.guest().await;
    x.until("queued", |m| {
        matches!(m, ServerMsg::Queued { .. }).then_some(())
    })
    .await;
    y.send(&ClientMsg::Queue { rid: None }).await;
    let (_, yt) = y.guest().await;
    let (room, xc) = x.matched().await;
    let (room_y, yc) = y.matched().await;
    assert_eq!(room, room_y, "both players are told the same room");
    assert_ne!(xc, yc);
    ((x, xc), (y, yc), room, [xt, yt])
}

/// Plays `n` moves from the start, each by the player to move; returns the last state both saw.
async fn play_moves(x: &mut (Client, Color), y: &mut (Client, Color), n: usize) -> State {
    let mut sx = x.0.state_with(0).await;
    let mut sy = y.0.state_with(0).await;
    for i in 0..n {
        let (mover, s) = if sx.to_move == Some(x.1) {
            (&mut x.0, &sx)
        } else {
            (&mut y.0, &sy)
        };
        mover.play_first(s).await;
        sx = x.0.state_with(i + 1).await;
        sy = y.0.state_with(i + 1).await;
        assert_eq!(sx.history, sy.history, "both see the same game");
    }
    sx
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_on_different_nodes_are_matched_and_play() {
    if !redis_here() {
        return;
    }
    let nodes = Node::three("match");
    let (mut x, mut y, room, _) = match_two(nodes[0].addr, nodes[1].addr).await;
    let s = play_moves(&mut x, &mut y, 3).await;
    assert_eq!(s.game, room);
    // A third node reads the same room.
    let mut z = Client::connect(nodes[2].addr).await;
    z.send(&ClientMsg::Sync {
        rid: None,
        game: room.clone(),
    })
    .await;
    let synced = z
        .until("the synced state", |m| match m {
            ServerMsg::State(s) => Some(*s),
            _ => None,
        })
        .await;
    assert_eq!(synced.history, s.history);
    assert_eq!(synced.version, s.version);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_made_on_one_node_is_joined_on_another() {
    if !redis_here() {
        return;
    }
    let nodes = Node::three("invite");
    let mut x = Client::connect(nodes[0].addr).await;
    x.send(&ClientMsg::InviteCreate { rid: None }).await;
    let code = x
        .until("invite", |m| match m {
            ServerMsg::Invite { code, .. } => Some(code),
            _ => None,
        })
        .await;
    let mut y = Client::connect(nodes[2].addr).await;
    y.send(&ClientMsg::InviteJoin {
        rid: None,
        code: format!("http://elsewhere.invalid/join/{code}"),
    })
    .await;
    let (room, xc) = x.matched().await;
    let (room_y, yc) = y.matched().await;
    assert_eq!(room, room_y);
    assert_ne!(xc, yc);
    let mut x = (x, xc);
    let mut y = (y, yc);
    play_moves(&mut x, &mut y, 2).await;
    // The code is used up: a third player on the second node is refused, as a single server
    // refuses it (the room crate's rule).
    let mut z = Client::connect(nodes[1].addr).await;
    z.send(&ClientMsg::InviteJoin {
        rid: None,
        code: code.clone(),
    })
    .await;
    loop {
        match z.recv().await {
            ServerMsg::Error { code, .. } => {
                assert_eq!(code, "invite_full");
                break;
            }
            ServerMsg::Welcome { .. } | ServerMsg::Guest { .. } => {}
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
}

/// The refusal `c` gets next (its guest's welcome skipped).
async fn refusal(c: &mut Client) -> String {
    loop {
        match c.recv().await {
            ServerMsg::Error { code, .. } => return code,
            ServerMsg::Welcome { .. } | ServerMsg::Guest { .. } => {}
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
}

/// The code of a new invite of `c`.
async fn invite_of(c: &mut Client) -> String {
    c.send(&ClientMsg::InviteCreate { rid: None }).await;
    c.until("invite", |m| match m {
        ServerMsg::Invite { code, .. } => Some(code),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invites_are_refused_across_nodes_by_the_rules_of_a_single_server() {
    if !redis_here() {
        return;
    }
    let nodes = Node::three("invite-rules");
    let mut x = Client::connect(nodes[0].addr).await;
    let code = invite_of(&mut x).await;
    // Its creator cannot join it, nor make a second one.
    x.send(&ClientMsg::InviteJoin {
        rid: None,
        code: code.clone(),
    })
    .await;
    assert_eq!(refusal(&mut x).await, "invite_open");
    x.send(&ClientMsg::InviteCreate { rid: None }).await;
    assert_eq!(refusal(&mut x).await, "invite_open");
    // Cancelled: a joiner on another node learns that it was.
    x.send(&ClientMsg::InviteCancel { rid: None }).await;
    x.until("invite_cancelled", |m| match m {
        ServerMsg::InviteCancelled { .. } => Some(()),
        _ => None,
    })
    .await;
    let mut y = Client::connect(nodes[1].addr).await;
    y.send(&ClientMsg::InviteJoin {
        rid: None,
        code: code.clone(),
    })
    .await;
    assert_eq!(refusal(&mut y).await, "invite_cancelled");
    x.send(&ClientMsg::InviteCancel { rid: None }).await;
    assert_eq!(refusal(&mut x).await, "no_open_invite");
    // A code nobody made.
    y.send(&ClientMsg::InviteJoin {
        rid: None,
        code: "ABCDEFGH".to_owned(),
    })
    .await;
    assert_eq!(refusal(&mut y).await, "unknown_invite");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waits_and_invites_expire_on_time_and_their_players_are_told() {
    if !redis_here() {
        return;
    }
    let test = "expiry";
    let short = ["--queue-wait-secs", "1", "--invite-secs", "1"];
    let a = Node::spawn_with(redis_url(), test, LEASE_MS, temp_db(test, 0), &short);
    let b = Node::spawn_with(redis_url(), test, LEASE_MS, temp_db(test, 1), &short);
    let mut x = Client::connect(a.addr).await;
    x.send(&ClientMsg::Queue { rid: None }).await;
    x.until("queued", |m| match m {
        ServerMsg::Queued { .. } => Some(()),
        _ => None,
    })
    .await;
    let mut y = Client::connect(b.addr).await;
    let code = invite_of(&mut y).await;
    x.until("queue_expired", |m| match m {
        ServerMsg::QueueExpired => Some(()),
        _ => None,
    })
    .await;
    y.until("invite_expired", |m| match m {
        ServerMsg::InviteExpired { .. } => Some(()),
        _ => None,
    })
    .await;
    // The expired wait is never matched: a newcomer waits.
    let mut z = Client::connect(b.addr).await;
    z.send(&ClientMsg::Queue { rid: None }).await;
    z.until("queued", |m| match m {
        ServerMsg::Queued { .. } => Some(()),
        _ => None,
    })
    .await;
    // The expired invite says so to a late joiner on the other node.
    x.send(&ClientMsg::InviteJoin {
        rid: None,
        code: code.clone(),
    })
    .await;
    assert_eq!(refusal(&mut x).await, "invite_expired");
    // Both are idle again: they can wait for a match, and meet.
    x.send(&ClientMsg::Queue { rid: None }).await;
    let (room, _) = x.matched().await;
    let (room_z, _) = z.matched().await;
    assert_eq!(room, room_z);
}

/// As on a single server, a guest whose connection drops keeps its open invite through its
/// reconnection grace: joined meanwhile, the game starts and the creator finds it when it comes
/// back (on another node); past the grace, the invite is cancelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_stays_open_through_its_creators_reconnection_grace() {
    if !redis_here() {
        return;
    }
    let test = "away";
    let grace = ["--reconnect-secs", "2"];
    let n: Vec<Node> = (0..3)
        .map(|i| Node::spawn_with(redis_url(), test, LEASE_MS, temp_db(test, i), &grace))
        .collect();
    // Joined while its creator is away.
    let mut x = Client::connect(n[0].addr).await;
    x.send(&ClientMsg::InviteCreate { rid: None }).await;
    let (_, token) = x.guest().await;
    let code = x
        .until("invite", |m| match m {
            ServerMsg::Invite { code, .. } => Some(code),
            _ => None,
        })
        .await;
    drop(x);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut y = Client::connect(n[1].addr).await;
    y.send(&ClientMsg::InviteJoin {
        rid: None,
        code: code.clone(),
    })
    .await;
    let (room, yc) = y.matched().await;
    let (mut back, _) = reconnected(n[2].addr, &token).await;
    let (room_back, xc) = back.matched().await;
    assert_eq!(room_back, room);
    assert_ne!(xc, yc);
    // Away past the grace: the invite is cancelled.
    let mut z = Client::connect(n[0].addr).await;
    let code = invite_of(&mut z).await;
    drop(z);
    tokio::time::sleep(Duration::from_millis(2_600)).await;
    let mut w = Client::connect(n[1].addr).await;
    w.send(&ClientMsg::InviteJoin { rid: None, code }).await;
    assert_eq!(refusal(&mut w).await, "invite_cancelled");
}

/// As on a single server, a guest who stays away past its reconnection grace out of a game is
/// forgotten: its token no longer reconnects, on any node; within the grace it does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_away_past_its_grace_is_forgotten_on_every_node() {
    if !redis_here() {
        return;
    }
    let test = "forgotten";
    let grace = ["--reconnect-secs", "1"];
    let a = Node::spawn_with(redis_url(), test, LEASE_MS, temp_db(test, 0), &grace);
    let b = Node::spawn_with(redis_url(), test, LEASE_MS, temp_db(test, 1), &grace);
    let mut x = Client::connect(a.addr).await;
    x.send(&ClientMsg::Queue { rid: None }).await;
    let (_, tx) = x.guest().await;
    drop(x);
    let mut y = Client::connect(a.addr).await;
    y.send(&ClientMsg::Queue { rid: None }).await;
    let (py, ty) = y.guest().await;
    // y comes back at once on the other node; x after its grace.
    drop(y);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut back = Client::connect(b.addr).await;
    back.send(&ClientMsg::Reconnect {
        rid: None,
        token: ty.clone(),
    })
    .await;
    assert_eq!(back.guest().await, (py, ty));
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let mut late = Client::connect(b.addr).await;
    late.send(&ClientMsg::Reconnect {
        rid: None,
        token: tx.clone(),
    })
    .await;
    let answer = late
        .until("guest or a refusal", |m| match m {
            ServerMsg::Guest { player, .. } => Some(Ok(player)),
            ServerMsg::Error { code, .. } => Some(Err(code)),
            _ => None,
        })
        .await;
    assert_eq!(answer, Err("wrong_token".to_owned()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_reconnects_with_the_token_on_another_node() {
    if !redis_here() {
        return;
    }
    let nodes = Node::three("reconnect");
    let (mut x, mut y, room, [token, _]) = match_two(nodes[0].addr, nodes[1].addr).await;
    let before = play_moves(&mut x, &mut y, 2).await;
    // The first node's client goes away; the player comes back on the third node.
    let color = x.1;
    drop(x);
    let mut back = Client::connect(nodes[2].addr).await;
    back.send(&ClientMsg::Reconnect {
        rid: None,
        token: token.clone(),
    })
    .await;
    let (_, again) = back.guest().await;
    assert_eq!(again, token, "the token names the same player");
    let (room_again, color_again) = back.matched().await;
    assert_eq!((room_again.as_str(), color_again), (room.as_str(), color));
    let s = back.state_with(2).await;
    assert_eq!(s.history, before.history);
    // The game goes on between the third and the second node.
    let sy = y.0.state_with(2).await;
    let s3 = if s.to_move == Some(color) {
        back.play_first(&s).await;
        y.0.state_with(3).await
    } else {
        y.0.play_first(&sy).await;
        back.state_with(3).await
    };
    assert_eq!(&s3.history[..2], &before.history[..]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_goes_on_on_another_node_after_its_owner_is_killed() {
    if !redis_here() {
        return;
    }
    let mut nodes = Node::three("kill");
    // The node of the second player to queue makes the match and owns the room: node 1.
    let (mut x, mut y, room, [_, token]) = match_two(nodes[0].addr, nodes[1].addr).await;
    let before = play_moves(&mut x, &mut y, 4).await;
    let clock = before.clock.clone().expect("online games have clocks");
    let to_move = before.to_move.expect("someone is to move");
    nodes[1].kill();
    let killed = Instant::now();
    drop(y.0);
    // The player of the dead node comes back on node 2.
    let mut back = Client::connect(nodes[2].addr).await;
    back.send(&ClientMsg::Reconnect {
        rid: None,
        token: token.clone(),
    })
    .await;
    back.guest().await;
    let (room_again, color) = back.matched().await;
    let resumed = back.state_with(4).await;
    let took = killed.elapsed();
    assert_eq!(room_again, room);
    assert_eq!(color, y.1);
    assert!(
        took <= Duration::from_millis(LEASE_MS) + Duration::from_secs(5),
        "resumed after {took:?}"
    );
    assert_eq!(resumed.history, before.history, "the same moves");
    assert_eq!(resumed.to_move, Some(to_move));
    // The clocks: the player who was not to move kept their time; the one to move lost the
    // wall time that passed, no more.
    let after = resumed.clock.clone().expect("a clock");
    let (waiting_before, waiting_after, running_before, running_after) = match to_move {
        Color::Black => (
            clock.white_ms,
            after.white_ms,
            clock.black_ms,
            after.black_ms,
        ),
        Color::White => (
            clock.black_ms,
            after.black_ms,
            clock.white_ms,
            after.white_ms,
        ),
    };
    assert_eq!(waiting_after, waiting_before);
    let (rb, ra) = (
        running_before.expect("a time"),
        running_after.expect("a time"),
    );
    let passed = after.server_time.saturating_sub(clock.server_time);
    assert!(ra <= rb, "the running clock went on: {rb} -> {ra}");
    assert!(
        rb - ra <= passed + 50,
        "the running clock lost {} ms in {passed} ms of wall time",
        rb - ra
    );
    assert!(
        rb - ra + 1000 >= passed,
        "the running clock lost only {} ms in {passed} ms of wall time",
        rb - ra
    );
    // The player on node 0 is told by the new owner too, and the game goes on.
    let sx = x.0.state_with(4).await;
    assert_eq!(sx.version, resumed.version);
    let mut y = (back, color);
    let s5 = if to_move == x.1 {
        x.0.play_first(&sx).await;
        y.0.state_with(5).await
    } else {
        y.0.play_first(&resumed).await;
        x.0.state_with(5).await
    };
    assert_eq!(&s5.history[..4], &before.history[..]);
}

// ---- Redis as the tests see it ----

async fn redis_con(url: &str) -> redis::aio::MultiplexedConnection {
    redis::Client::open(url)
        .expect("a Redis URL")
        .get_multiplexed_async_connection()
        .await
        .expect("the test reaches Redis")
}

/// Every key under the test's prefix, with its time to live in ms (`-1`: none).
async fn keys_with_ttl(
    con: &mut redis::aio::MultiplexedConnection,
    test: &str,
) -> Vec<(String, i64)> {
    let pattern = format!("{}:*", prefix(test));
    let mut cursor = 0u64;
    let mut keys = Vec::new();
    loop {
        let (next, batch): (u64, Vec<String>) = redis::cmd("SCAN")
            .arg(cursor)
            .arg("MATCH")
            .arg(&pattern)
            .arg("COUNT")
            .arg(1000)
            .query_async(con)
            .await
            .expect("SCAN");
        keys.extend(batch);
        if next == 0 {
            break;
        }
        cursor = next;
    }
    let mut out = Vec::new();
    for k in keys {
        let ttl: i64 = redis::cmd("PTTL")
            .arg(&k)
            .query_async(con)
            .await
            .expect("PTTL");
        // -2: gone meanwhile.
        if ttl != -2 {
            out.push((k, ttl));
        }
    }
    out
}

/// Waits until none of room `room`'s keys (its record, lease and players' current room) is
/// left, then checks that every key of the test but the generation expires.
async fn assert_nothing_left_forever(
    con: &mut redis::aio::MultiplexedConnection,
    test: &str,
    room: &str,
    within: Duration,
) {
    let p = prefix(test);
    let deadline = Instant::now() + within;
    let keys = loop {
        let keys = keys_with_ttl(con, test).await;
        let of_room: Vec<&String> = keys
            .iter()
            .map(|(k, _)| k)
            .filter(|k| {
                **k == format!("{p}:room:{room}")
                    || **k == format!("{p}:lease:{room}")
                    || k.starts_with(&format!("{p}:proom:"))
            })
            .collect();
        if of_room.is_empty() {
            break keys;
        }
        assert!(
            Instant::now() < deadline,
            "the ended room's keys are still there: {of_room:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let rooms: Vec<String> = redis::cmd("SMEMBERS")
        .arg(format!("{p}:rooms"))
        .query_async(con)
        .await
        .expect("SMEMBERS");
    assert!(
        !rooms.contains(&room.to_owned()),
        "the room is still live: {rooms:?}"
    );
    // The generation of the cluster's data alone has no expiry (one key, whatever the load).
    let gen = format!("{p}:gen");
    let forever: Vec<&String> = keys
        .iter()
        .filter(|(k, ttl)| *ttl < 0 && **k != gen)
        .map(|(k, _)| k)
        .collect();
    assert!(forever.is_empty(), "keys without an expiry: {forever:?}");
    // Tokens outlive the longest game and its reconnection grace.
    let tokens: Vec<i64> = keys
        .iter()
        .filter(|(k, _)| k.starts_with(&format!("{p}:token:")))
        .map(|(_, t)| *t)
        .collect();
    assert!(!tokens.is_empty(), "the players' tokens are kept");
    for t in tokens {
        assert!(t > (2 * 3600 + 60) * 1000, "a token expires in {t} ms");
    }
}

/// Waits for a state that ended (has a result).
async fn ended(c: &mut Client) -> State {
    c.until("the end of the game", |m| match m {
        ServerMsg::State(s) if s.result.is_some() => Some(*s),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_and_an_abandoned_game_leave_no_key_without_expiry() {
    if !redis_here() {
        return;
    }
    let nodes = Node::three("keys");
    let mut con = redis_con(redis_url()).await;
    // A game that ends: one player resigns.
    let (mut x, mut y, room, _) = match_two(nodes[0].addr, nodes[1].addr).await;
    let s = play_moves(&mut x, &mut y, 2).await;
    x.0.send(&ClientMsg::Resign {
        rid: None,
        game: s.game.clone(),
    })
    .await;
    ended(&mut x.0).await;
    ended(&mut y.0).await;
    assert_nothing_left_forever(&mut con, "keys", &room, Duration::from_secs(10)).await;
    // A game both players leave: it ends on the clock (30 s a move) and is forgotten too.
    let (mut x, mut y, room, _) = match_two(nodes[1].addr, nodes[2].addr).await;
    play_moves(&mut x, &mut y, 1).await;
    drop(x);
    drop(y);
    assert_nothing_left_forever(&mut con, "keys", &room, Duration::from_secs(60)).await;
}

/// A `record` or `games` answer (errors fail the test).
async fn ask(c: &mut Client, msg: ClientMsg) -> ServerMsg {
    c.send(&msg).await;
    c.until("the answer", |m| match m {
        m @ (ServerMsg::Record(_) | ServerMsg::Games { .. }) => Some(m),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_read_on_any_node() {
    if !redis_here() {
        return;
    }
    let nodes = Node::three("records");
    // Node 1 owns the room (see the kill test); the players' guests were made on nodes 0 and 1.
    let (mut x, mut y, room, [xt, yt]) = match_two(nodes[0].addr, nodes[1].addr).await;
    let s = play_moves(&mut x, &mut y, 3).await;
    x.0.send(&ClientMsg::Resign {
        rid: None,
        game: room.clone(),
    })
    .await;
    let end = ended(&mut x.0).await;
    let moves: Vec<_> = s.history.clone();
    // Node 2 neither owned the game nor made either guest.
    let mut z = Client::connect(nodes[2].addr).await;
    let ServerMsg::Record(r) = ask(
        &mut z,
        ClientMsg::Record {
            rid: None,
            game: room.clone(),
            token: xt.clone(),
            game_no: None,
        },
    )
    .await
    else {
        unreachable!()
    };
    assert_eq!(r.game, room);
    assert_eq!(r.moves, moves, "the recorded moves");
    assert_eq!(r.reason, end.result.as_ref().expect("a result").reason);
    // Node 0 made x's guest but did not own the game; y's games read on node 0 and node 2.
    for addr in [nodes[0].addr, nodes[2].addr] {
        let mut c = Client::connect(addr).await;
        let ServerMsg::Games { games, .. } = ask(
            &mut c,
            ClientMsg::Games {
                rid: None,
                token: yt.clone(),
                limit: None,
            },
        )
        .await
        else {
            unreachable!()
        };
        assert_eq!(games.len(), 1, "the one game, once");
        assert_eq!(games[0].game, room);
        assert_eq!(games[0].moves, moves);
    }
    // A token nobody was given is refused on a cluster node too.
    z.send(&ClientMsg::Games {
        rid: None,
        token: "0".repeat(32),
        limit: None,
    })
    .await;
    loop {
        if let ServerMsg::Error { code, .. } = z.recv().await {
            assert_eq!(code, "wrong_token");
            break;
        }
    }
}

/// A `redis-server` of one test alone, with its data in an append-only file so that it can be
/// stopped and started again with its keys (killed when dropped).
struct PrivateRedis {
    child: Option<Child>,
    port: u16,
    dir: PathBuf,
}

impl PrivateRedis {
    fn start(test: &str) -> PrivateRedis {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
            l.local_addr().expect("an address").port()
        };
        let dir = std::env::temp_dir().join(format!(
            "reversi-cluster-tests-{}-{test}-redis",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let mut r = PrivateRedis {
            child: None,
            port,
            dir,
        };
        r.run();
        r
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    fn run(&mut self) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .arg("--dir")
            .arg(&self.dir)
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("redis-server cannot be started ({e}): install it"));
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGKILL, then a start with no data at all (its files removed): Redis lost everything.
    fn restart_empty(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
        std::fs::create_dir_all(&self.dir).expect("a temporary directory");
        self.run();
    }

    /// SIGKILL: every connection drops (the append-only file has every write).
    fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for PrivateRedis {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Waits until `n` nodes of the test listen on their channels again.
async fn subscribed(url: &str, test: &str, n: usize) {
    let deadline = Instant::now() + WAIT;
    loop {
        if let Ok(client) = redis::Client::open(url) {
            if let Ok(mut con) = client.get_multiplexed_async_connection().await {
                let chans: Result<Vec<String>, _> = redis::cmd("PUBSUB")
                    .arg("CHANNELS")
                    .arg(format!("{}:node:*", prefix(test)))
                    .query_async(&mut con)
                    .await;
                if chans.is_ok_and(|c| c.len() == n) {
                    return;
                }
            }
        }
        assert!(
            Instant::now() < deadline,
            "the nodes did not subscribe again"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Plays the next move (the game has `n` moves) and waits until both players see it; a move
/// refused with `unavailable` (the node could not reach Redis: nothing changed) is sent again.
async fn play_next(x: &mut (Client, Color), y: &mut (Client, Color), last: &State) -> State {
    let n = last.history.len();
    let mover_is_x = last.to_move == Some(x.1);
    let deadline = tokio::time::Instant::now() + WAIT;
    'send: loop {
        {
            let mover = if mover_is_x { &mut x.0 } else { &mut y.0 };
            mover.play_first(last).await;
        }
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let mover = if mover_is_x { &mut x.0 } else { &mut y.0 };
            let m = tokio::time::timeout(left, mover.recv())
                .await
                .unwrap_or_else(|_| panic!("the move {} was not played in time", n + 1));
            match m {
                ServerMsg::Error { code, .. } if code == "unavailable" => {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue 'send;
                }
                ServerMsg::Error { code, message, .. } => panic!("refused {code}: {message}"),
                ServerMsg::State(s) if s.history.len() == n + 1 => break 'send,
                _ => {}
            }
        }
    }
    let other = if mover_is_x { &mut y.0 } else { &mut x.0 };
    let s = other.state_with(n + 1).await;
    assert_eq!(&s.history[..n], &last.history[..]);
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_goes_on_when_the_redis_connections_drop_and_redis_restarts() {
    if !redis_here() {
        return;
    }
    let mut redis = PrivateRedis::start("relink");
    let url = redis.url();
    let mut nodes = [0, 1, 2].map(|n| Node::start_on(&url, "relink", n));
    let (mut x, mut y, _room, _) = match_two(nodes[0].addr, nodes[1].addr).await;
    let mut s = play_moves(&mut x, &mut y, 2).await;
    let mut con = redis_con(&url).await;
    // Every node's subscription is killed: the nodes subscribe again and the game goes on.
    let killed: i64 = redis::cmd("CLIENT")
        .arg("KILL")
        .arg("TYPE")
        .arg("pubsub")
        .query_async(&mut con)
        .await
        .expect("CLIENT KILL");
    assert_eq!(killed, 3, "one subscription a node");
    subscribed(&url, "relink", 3).await;
    s = play_next(&mut x, &mut y, &s).await;
    // Every other connection too (the test's own is spared).
    let killed: i64 = redis::cmd("CLIENT")
        .arg("KILL")
        .arg("TYPE")
        .arg("normal")
        .query_async(&mut con)
        .await
        .expect("CLIENT KILL");
    assert!(killed >= 6, "two connections a node, {killed} killed");
    s = play_next(&mut x, &mut y, &s).await;
    // Redis stops: a request that needs it is refused with `unavailable`, nobody exits.
    drop(con);
    redis.stop();
    let mut z = Client::connect(nodes[2].addr).await;
    z.send(&ClientMsg::Queue { rid: None }).await;
    loop {
        match z.recv().await {
            ServerMsg::Error { code, .. } => {
                assert_eq!(code, "unavailable");
                break;
            }
            ServerMsg::Welcome { .. } => {}
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
    // It starts again with its data: the nodes come back to it and the game goes on.
    redis.run();
    subscribed(&url, "relink", 3).await;
    s = play_next(&mut x, &mut y, &s).await;
    s = play_next(&mut x, &mut y, &s).await;
    assert_eq!(s.history.len(), 6);
    for n in &mut nodes {
        assert!(n.running(), "a node exited");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_offered_and_accepted_across_nodes() {
    if !redis_here() {
        return;
    }
    let nodes = Node::three("rematch");
    let (mut x, mut y, room, _) = match_two(nodes[0].addr, nodes[1].addr).await;
    play_moves(&mut x, &mut y, 2).await;
    x.0.send(&ClientMsg::Resign {
        rid: None,
        game: room.clone(),
    })
    .await;
    ended(&mut x.0).await;
    ended(&mut y.0).await;
    // A player of another game cannot offer it.
    let mut z = Client::connect(nodes[2].addr).await;
    z.send(&ClientMsg::Rematch {
        rid: None,
        room: room.clone(),
    })
    .await;
    assert_eq!(z.refused().await, "no_rematch");
    // The offer goes from node 0 to the opponent on node 1.
    let rematch = ClientMsg::Rematch {
        rid: None,
        room: room.clone(),
    };
    x.0.send(&rematch).await;
    let waiting =
        x.0.until("rematch_waiting", |m| match m {
            ServerMsg::RematchWaiting { room, .. } => Some(room),
            _ => None,
        })
        .await;
    assert_eq!(waiting, room);
    let offered =
        y.0.until("rematch_offered", |m| match m {
            ServerMsg::RematchOffered { room } => Some(room),
            _ => None,
        })
        .await;
    assert_eq!(offered, room);
    x.0.send(&rematch).await;
    assert_eq!(x.0.refused().await, "rematch_offered");
    // Accepted on node 1: a new game for both, on either side of the board.
    y.0.send(&rematch).await;
    let (again, xc) = x.0.matched().await;
    let (again_y, yc) = y.0.matched().await;
    assert_eq!(again, again_y);
    assert_ne!(again, room, "a new room");
    assert_ne!(xc, yc);
    let mut x = (x.0, xc);
    let mut y = (y.0, yc);
    let s = play_moves(&mut x, &mut y, 1).await;
    assert_eq!(s.game, again);
    // The rematch is spent.
    z.send(&rematch).await;
    assert_eq!(z.refused().await, "no_rematch");
    x.0.send(&ClientMsg::Resign {
        rid: None,
        game: again.clone(),
    })
    .await;
    ended(&mut x.0).await;
    x.0.send(&rematch).await;
    assert_eq!(x.0.refused().await, "no_rematch");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosted_room_is_played_on_the_node_that_made_it() {
    if !redis_here() {
        return;
    }
    let nodes = Node::three("hosted");
    let mut host = Client::connect(nodes[0].addr).await;
    host.send(&ClientMsg::RoomCreate {
        rid: None,
        action_secs: None,
    })
    .await;
    let (player, token) = host.guest().await;
    let room = host
        .until("room_created", |m| match m {
            ServerMsg::RoomCreated { room, .. } => Some(room),
            _ => None,
        })
        .await;
    let mut guest = Client::connect(nodes[0].addr).await;
    guest
        .send(&ClientMsg::RoomJoin {
            rid: None,
            room: room.clone(),
        })
        .await;
    guest.guest().await;
    // The host holds black, the guest white; the seated host starts.
    for (c, seat) in [(&mut host, 0), (&mut guest, 1)] {
        c.send(&ClientMsg::Sit {
            rid: None,
            room: room.clone(),
            seat,
        })
        .await;
        // Seated before the start (the two connections' commands are not ordered otherwise).
        c.until("the seat taken", |m| match m {
            ServerMsg::State(s) => {
                matches!(s.seats.get(seat), Some(SeatView::Person { .. })).then_some(())
            }
            _ => None,
        })
        .await;
    }
    host.send(&ClientMsg::Start {
        rid: None,
        room: room.clone(),
    })
    .await;
    let mut h = (host, Color::Black);
    let mut g = (guest, Color::White);
    let started = |m: ServerMsg| match m {
        ServerMsg::State(s) if s.to_move.is_some() && s.history.is_empty() => Some(*s),
        _ => None,
    };
    let s0 = h.0.until("the game's start", started).await;
    g.0.until("the game's start", started).await;
    let s1 = play_next(&mut h, &mut g, &s0).await;
    let s = play_next(&mut h, &mut g, &s1).await;
    assert_eq!(s.game, room);
    // The host's state names the cluster's guest: one identity for matching and rooms.
    assert!(
        matches!(s.seats.first(), Some(SeatView::Person { player: p, .. }) if *p == player),
        "the host sits as the cluster's guest {player}: {:?}",
        s.seats
    );
    // The host's connection drops and comes back on the same node with the token.
    drop(h.0);
    let mut back = Client::connect(nodes[0].addr).await;
    back.send(&ClientMsg::Reconnect {
        rid: None,
        token: token.clone(),
    })
    .await;
    back.guest().await;
    back.send(&ClientMsg::Sync {
        rid: None,
        game: room.clone(),
    })
    .await;
    let synced = back.state_with(2).await;
    assert_eq!(synced.history, s.history);
    let mut h = (back, Color::Black);
    let s3 = play_next(&mut h, &mut g, &synced).await;
    assert_eq!(s3.history.len(), 3);
    // Another node does not serve it.
    let mut z = Client::connect(nodes[1].addr).await;
    z.send(&ClientMsg::RoomJoin {
        rid: None,
        room: room.clone(),
    })
    .await;
    assert_eq!(z.refused().await, "no_such_game");
}

/// The player seated at a seat, if a person.
fn person(v: &SeatView) -> Option<u64> {
    match v {
        SeatView::Person { player, .. } => Some(*player),
        _ => None,
    }
}

/// The player number of a `guest` answer to `reconnect` with `token` on `addr`, once the
/// token is known there (after Redis lost its data, the nodes put their tokens back).
async fn reconnected(addr: SocketAddr, token: &str) -> (Client, u64) {
    let deadline = Instant::now() + WAIT;
    loop {
        let mut c = Client::connect(addr).await;
        c.send(&ClientMsg::Reconnect {
            rid: None,
            token: token.to_owned(),
        })
        .await;
        let got = c
            .until("guest or a refusal", |m| match m {
                ServerMsg::Guest { player, .. } => Some(Ok(player)),
                ServerMsg::Error { code, .. } => Some(Err(code)),
                _ => None,
            })
            .await;
        match got {
            Ok(p) => return (c, p),
            Err(code) => {
                assert!(
                    code == "wrong_token" || code == "unavailable",
                    "reconnect refused with {code}"
                );
                assert!(Instant::now() < deadline, "the token was never known again");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// Redis restarts with no data in the middle of a game: the owner puts the room (and its
/// lease), its guests' tokens and its players back, and the game goes on; new guests and
/// rooms get numbers never handed out before; the tokens from before still work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_goes_on_after_redis_restarts_empty() {
    if !redis_here() {
        return;
    }
    let mut redis = PrivateRedis::start("empty");
    let url = redis.url();
    let nodes = [0, 1, 2].map(|n| Node::start_on(&url, "empty", n));
    let (mut x, mut y, room, [xt, yt]) = match_two(nodes[0].addr, nodes[1].addr).await;
    let mut s = play_moves(&mut x, &mut y, 2).await;
    let players_before: Vec<u64> = s.seats.iter().filter_map(person).collect();
    assert_eq!(players_before.len(), 2, "{:?}", s.seats);
    redis.restart_empty();
    let back = Instant::now();
    subscribed(&url, "empty", 3).await;
    s = play_next(&mut x, &mut y, &s).await;
    eprintln!(
        "empty-restart: the first move after Redis came back empty was seen by both players {} ms after Redis started",
        back.elapsed().as_millis()
    );
    s = play_next(&mut x, &mut y, &s).await;
    assert_eq!(s.game, room);
    assert_eq!(s.history.len(), 4);
    // New guests on the node that owns the room: other numbers, another room.
    let (mut z, mut w, room2, _) = match_two(nodes[1].addr, nodes[2].addr).await;
    assert_ne!(room2, room, "a room id is never handed out twice");
    let s2 = play_moves(&mut z, &mut w, 1).await;
    for v in &s2.seats {
        let p = person(v).expect("a seated guest");
        assert!(!players_before.contains(&p), "player {p} handed out twice");
    }
    // The tokens from before the restart still name their players, on any node.
    for (token, addr) in [(&xt, nodes[2].addr), (&yt, nodes[0].addr)] {
        let (_c, p) = reconnected(addr, token).await;
        assert!(players_before.contains(&p));
    }
}

/// A finished game, then Redis loses its data: a new guest's token reads no game of anyone
/// else (`record` refused, `games` empty) on any node, while the players' own tokens still
/// read it on every node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_stay_with_their_players_across_an_empty_redis_restart() {
    if !redis_here() {
        return;
    }
    let mut redis = PrivateRedis::start("leak");
    let url = redis.url();
    let nodes = [0, 1, 2].map(|n| Node::start_on(&url, "leak", n));
    let (mut x, mut y, room, [xt, _yt]) = match_two(nodes[0].addr, nodes[1].addr).await;
    play_moves(&mut x, &mut y, 2).await;
    x.0.send(&ClientMsg::Resign {
        rid: None,
        game: room.clone(),
    })
    .await;
    ended(&mut x.0).await;
    ended(&mut y.0).await;
    redis.restart_empty();
    subscribed(&url, "leak", 3).await;
    // New guests, one on each node that held a player of the old game.
    let (mut z, mut w, room2, [zt, wt]) = match_two(nodes[0].addr, nodes[1].addr).await;
    assert_ne!(room2, room);
    play_moves(&mut z, &mut w, 1).await;
    for token in [&zt, &wt] {
        for n in &nodes {
            let mut c = Client::connect(n.addr).await;
            c.send(&ClientMsg::Record {
                rid: None,
                game: room.clone(),
                token: token.clone(),
                game_no: None,
            })
            .await;
            match c.recv().await {
                ServerMsg::Welcome { .. } => {}
                other => panic!("expected welcome, got {other:?}"),
            }
            match c.recv().await {
                ServerMsg::Error { .. } => {}
                other => panic!("another player's game was read: {other:?}"),
            }
            let ServerMsg::Games { games, .. } = ask(
                &mut c,
                ClientMsg::Games {
                    rid: None,
                    token: token.clone(),
                    limit: None,
                },
            )
            .await
            else {
                unreachable!()
            };
            assert!(games.is_empty(), "a new guest reads {games:?}");
        }
    }
    // The old player's token reads its game on every node (its node put the token back).
    for n in &nodes {
        reconnected(n.addr, &xt).await;
        // The node that owned the game puts its record back at its next heartbeat.
        let deadline = Instant::now() + WAIT;
        loop {
            let mut c = Client::connect(n.addr).await;
            let ServerMsg::Games { games, .. } = ask(
                &mut c,
                ClientMsg::Games {
                    rid: None,
                    token: xt.clone(),
                    limit: None,
                },
            )
            .await
            else {
                unreachable!()
            };
            assert!(games.len() <= 1, "{games:?}");
            if let Some(g) = games.first() {
                assert_eq!(g.game, room);
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the player's game is not read again"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// Redis stalls (`CLIENT PAUSE 6000 ALL`) while the side to move plays: the move is saved when
/// Redis answers again and both players are told, each time (the owner's player and the other
/// node's player).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_made_while_redis_stalls_is_told_to_both_players() {
    if !redis_here() {
        return;
    }
    let redis = PrivateRedis::start("pause");
    let url = redis.url();
    // The default lease (10 s): a 6 s stall is shorter than a lease, as in production.
    let _nodes = [0, 1, 2].map(|n| Node::start_leased(&url, "pause", n, 10_000));
    let (mut x, mut y, _room, _) = match_two(_nodes[0].addr, _nodes[1].addr).await;
    let mut s = play_moves(&mut x, &mut y, 2).await;
    let mut con = redis_con(&url).await;
    for _ in 0..2 {
        let n = s.history.len();
        let () = redis::cmd("CLIENT")
            .arg("PAUSE")
            .arg(6000)
            .arg("ALL")
            .query_async(&mut con)
            .await
            .expect("CLIENT PAUSE");
        let paused = Instant::now();
        if s.to_move == Some(x.1) {
            x.0.play_first(&s).await;
        } else {
            y.0.play_first(&s).await;
        }
        let sx = x.0.state_with(n + 1).await;
        let sy = y.0.state_with(n + 1).await;
        assert_eq!(sx.history, sy.history);
        eprintln!(
            "pause: move {} told to both {} ms after the pause began",
            n + 1,
            paused.elapsed().as_millis()
        );
        s = sx;
    }
}

/// Redis is stopped: a move by a player on the room's owner gets `unavailable` (nothing
/// changed) instead of silence, and the game goes on once Redis is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_while_redis_is_down_is_refused_then_played() {
    if !redis_here() {
        return;
    }
    let mut redis = PrivateRedis::start("down");
    let url = redis.url();
    let nodes = [0, 1, 2].map(|n| Node::start_on(&url, "down", n));
    // The second player's node makes the match and owns the room.
    let (mut x, mut y, _room, _) = match_two(nodes[0].addr, nodes[1].addr).await;
    let s = play_moves(&mut x, &mut y, 2).await;
    redis.stop();
    let mover_is_y = s.to_move == Some(y.1);
    let mover = if mover_is_y { &mut y.0 } else { &mut x.0 };
    let sent = Instant::now();
    mover.play_first(&s).await;
    let code = mover.refused().await;
    assert_eq!(code, "unavailable");
    eprintln!(
        "down: the move was refused with unavailable after {} ms",
        sent.elapsed().as_millis()
    );
    redis.run();
    subscribed(&url, "down", 3).await;
    let s = play_next(&mut x, &mut y, &s).await;
    assert_eq!(s.history.len(), 3);
}

/// An invite's creator who reconnected with its token on another node is told the game
/// started there (`matched`, the states), and plays it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_creator_who_moved_to_another_node_is_told_of_the_game() {
    if !redis_here() {
        return;
    }
    let nodes = Node::three("moved");
    let mut d = Client::connect(nodes[2].addr).await;
    d.send(&ClientMsg::InviteCreate { rid: None }).await;
    let (_, token) = d.guest().await;
    let code = d
        .until("invite", |m| match m {
            ServerMsg::Invite { code, .. } => Some(code),
            _ => None,
        })
        .await;
    let (mut d2, _) = reconnected(nodes[1].addr, &token).await;
    let mut e = Client::connect(nodes[0].addr).await;
    e.send(&ClientMsg::InviteJoin {
        rid: None,
        code: code.clone(),
    })
    .await;
    let (room, ec) = e.matched().await;
    let (room_d, dc) = d2.matched().await;
    assert_eq!(room, room_d);
    assert_ne!(ec, dc);
    let mut dd = (d2, dc);
    let mut ee = (e, ec);
    let s = play_moves(&mut dd, &mut ee, 2).await;
    assert_eq!(s.game, room);
    drop(d);
}

/// A game's owner is killed, and Redis restarts with no data while it is down: started again
/// on its database, the node serves the game from its own copy, its players are told (the one
/// still connected elsewhere, and the one who reconnects with its token), and the game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_restarted_after_redis_lost_its_data_serves_its_game_again() {
    if !redis_here() {
        return;
    }
    let mut redis = PrivateRedis::start("durable");
    let url = redis.url();
    let mut nodes = [0, 1, 2].map(|n| Node::start_on(&url, "durable", n));
    // The second player's node (node 1) makes the match and owns the room.
    let (mut x, y, room, [_, yt]) = match_two(nodes[0].addr, nodes[1].addr).await;
    let mut x_only = (x.0, x.1);
    let y_color = y.1;
    let s = {
        let mut y = y;
        play_moves(&mut x_only, &mut y, 2).await
    };
    nodes[1].kill();
    redis.restart_empty();
    nodes[1] = Node::restart_on(&url, "durable", 1);
    let (mut y2, _) = reconnected(nodes[1].addr, &yt).await;
    let (room_y, color_y) = y2.matched().await;
    assert_eq!((room_y.as_str(), color_y), (room.as_str(), y_color));
    let sy = y2.state_with(2).await;
    assert_eq!(sy.history, s.history);
    let sx = x_only.0.state_with(2).await;
    assert_eq!(sx.history, s.history);
    x = x_only;
    let mut y = (y2, color_y);
    let s = play_next(&mut x, &mut y, &sy).await;
    let s = play_next(&mut x, &mut y, &s).await;
    assert_eq!(s.history.len(), 4);
    assert_eq!(s.game, room);
}
