//! Load test of the server: N concurrent online games between bots on loopback.
//!
//! ```text
//! cargo run --release -p reversi-server --bin server -- --db /tmp/load.db &
//! cargo run --release -p reversi-server --bin load -- [--addr 127.0.0.1:8080] [--games 1000] [--think-ms 1000] [--seconds 90]
//! ```
//!
//! It speaks the protocol through the `reversi-protocol` package's types (the only part of the
//! server it uses): it sends [`ClientMsg`]s. It reads each message for the fields it acts on only
//! (type, room, colour, version, side to move, legal squares, history length, result; the same
//! names and types as [`ServerMsg`]'s), without building the rest (the squares' descriptions,
//! the flips, the plies): the client shares the machine with the server, and building whole
//! states was most of its time. With `--strict` it also reads every message as a [`ServerMsg`],
//! so that a message the protocol's types cannot read counts as an error.
//!
//! Each game is two WebSocket clients that queue for a random match and then play random legal
//! moves (from the moves the server lists), each after a think time drawn between half and one
//! and a half times `--think-ms`. The latency of a move is measured from the moment its player
//! sends it to the moment the opponent receives the state that contains it. At the end it reports
//! the moves per second, the latency percentiles and every error. Moves and latencies are counted
//! only once every connection is open (the ramp excluded), so that they describe all the games
//! going at once. With `--server-pid`, it reads the server's resident memory (Linux `/proc`) before
//! the first connection and once all games are going, and states the memory per game. It only ever
//! connects to the address given, which must be a loopback address, and stops by itself after
//! `--seconds`.
//!
//! Several nodes of a cluster (`server --redis`): `--addr a,b,c` (or `--addr` repeated). The
//! connections go to the nodes in turn, so that players matched at random are often on
//! different nodes; with `--invites` each game is paired by an invite instead of the queue, its
//! creator on one node and its joiner on the next, so that every game spans two nodes and both
//! players are in this process; `--same-node` puts the joiner on its creator's node instead (no
//! game crosses nodes: the placement of a front that sends an invite's link to the node that made
//! it). One process may hold 20,000 open files on the project's
//! machine: for 10,000 games and more, run two (or more) `load --invites` processes side by
//! side, each with part of the games (see `LOAD.md`).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::{RngExt, SeedableRng};
use reversi_protocol::{ClientMsg, Color, ServerMsg, Square};
use tokio_tungstenite::tungstenite::Message;

/// The load client's allocator: mimalloc. With thousands of connections parsing states, glibc's
/// malloc (its consolidation of freed chunks above all) was a fifth of the client's time
/// (`perf record`, see `LOAD.md`). The server keeps the system's: mimalloc did not lower its CPU
/// time per move, and raised its memory per game.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Args {
    addrs: Vec<SocketAddr>,
    invites: bool,
    same_node: bool,
    games: usize,
    think: Duration,
    seconds: u64,
    ramp_per_sec: u64,
    server_pid: Option<u32>,
    strict: bool,
}

/// What was wrong with the command line.
#[derive(Debug, thiserror::Error)]
enum ArgsError {
    #[error("{0} needs a value")]
    Missing(String),
    #[error("{flag} {value}: {why}")]
    Bad {
        flag: &'static str,
        value: String,
        why: String,
    },
    #[error("--same-node places an invite's joiner: it needs --invites\n{USAGE}")]
    SameNodeWithoutInvites,
    #[error("{0} is not a loopback address")]
    NotLoopback(SocketAddr),
    #[error("unknown argument {0:?}\n{USAGE}")]
    Unknown(String),
    #[error("{USAGE}")]
    Help,
}

/// Why one client's game stopped before the end of the run.
#[derive(Debug, thiserror::Error)]
enum ClientError {
    #[error("connect: {0}")]
    Connect(tokio_tungstenite::tungstenite::Error),
    #[error("send: {0}")]
    Send(tokio_tungstenite::tungstenite::Error),
    #[error("read: {0}")]
    Read(tokio_tungstenite::tungstenite::Error),
    #[error("the invite's creator failed")]
    CreatorFailed,
    #[error("no message for 60 s")]
    Silent,
    #[error("connection closed")]
    Closed,
    #[error("unreadable message {text:?}: {source}")]
    Unreadable {
        text: String,
        source: serde_json::Error,
    },
    #[error("server error {code}: {message}")]
    Refused { code: String, message: String },
}

const USAGE: &str = "usage: load [--addr 127.0.0.1:8080[,ADDR...]]... [--invites [--same-node]] [--games N] [--think-ms MS] [--seconds S] [--ramp CONNS_PER_S] [--server-pid PID] [--strict]";

fn parse_args() -> Result<Args, ArgsError> {
    let mut a = Args {
        addrs: Vec::new(),
        invites: false,
        same_node: false,
        games: 1000,
        think: Duration::from_millis(1000),
        seconds: 90,
        ramp_per_sec: 400,
        server_pid: None,
        strict: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().ok_or_else(|| ArgsError::Missing(flag.clone()));
        let bad = |flag: &'static str, value: &str, why: &dyn std::fmt::Display| ArgsError::Bad {
            flag,
            value: value.to_owned(),
            why: why.to_string(),
        };
        match flag.as_str() {
            "--addr" => {
                for one in val()?.split(',').filter(|s| !s.is_empty()) {
                    a.addrs
                        .push(one.parse().map_err(|e| bad("--addr", one, &e))?);
                }
            }
            "--invites" => a.invites = true,
            "--same-node" => a.same_node = true,
            "--games" => {
                let v = val()?;
                a.games = v.parse().map_err(|e| bad("--games", &v, &e))?
            }
            "--think-ms" => {
                let v = val()?;
                a.think = Duration::from_millis(v.parse().map_err(|e| bad("--think-ms", &v, &e))?)
            }
            "--seconds" => {
                let v = val()?;
                a.seconds = v.parse().map_err(|e| bad("--seconds", &v, &e))?
            }
            "--ramp" => {
                let v = val()?;
                a.ramp_per_sec = v.parse().map_err(|e| bad("--ramp", &v, &e))?
            }
            "--strict" => a.strict = true,
            "--server-pid" => {
                let v = val()?;
                a.server_pid = Some(v.parse().map_err(|e| bad("--server-pid", &v, &e))?)
            }
            "-h" | "--help" => return Err(ArgsError::Help),
            other => return Err(ArgsError::Unknown(other.to_owned())),
        }
    }
    if a.same_node && !a.invites {
        return Err(ArgsError::SameNodeWithoutInvites);
    }
    if a.addrs.is_empty() {
        a.addrs.push("127.0.0.1:8080".parse().expect("an address"));
    }
    if let Some(bad) = a.addrs.iter().find(|x| !x.ip().is_loopback()) {
        return Err(ArgsError::NotLoopback(*bad));
    }
    Ok(a)
}

/// The resident memory of a process in KiB (Linux), if it can be read.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The CPU time (user + system) a process has used, in seconds (Linux `/proc/PID/stat`, at the
/// kernel's usual 100 ticks a second), if it can be read.
fn cpu_secs(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

#[derive(Default)]
struct Stats {
    /// Set once every connection is open: moves and latencies are counted from then on.
    steady: std::sync::atomic::AtomicBool,
    moves: AtomicU64,
    games_done: AtomicU64,
    errors: AtomicU64,
    matched: AtomicU64,
    latencies_us: Mutex<Vec<u64>>,
    first_move: Mutex<Option<Instant>>,
    last_move: Mutex<Option<Instant>>,
    reasons: Mutex<HashMap<String, u64>>,
    error_samples: Mutex<Vec<String>>,
}

impl Stats {
    fn error(&self, e: ClientError) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut s = self.error_samples.lock().unwrap();
        if s.len() < 10 {
            s.push(e.to_string());
        }
    }
}

/// The move each room waits to see: the history length it makes, its mover, when it was sent, and
/// whether it counts (sent once all games were going).
type InFlight = Arc<Mutex<HashMap<String, (usize, Color, Instant, bool)>>>;

/// The parts of a server message a player acts on. The rest of the text is skipped, not built:
/// `history` is only counted, `legal` keeps only the squares.
#[derive(serde::Deserialize)]
struct Lean<'a> {
    #[serde(rename = "type", borrow)]
    tag: std::borrow::Cow<'a, str>,
    #[serde(default, borrow)]
    room: Option<std::borrow::Cow<'a, str>>,
    #[serde(default)]
    color: Option<Color>,
    #[serde(default)]
    version: u64,
    #[serde(default)]
    to_move: Option<Color>,
    #[serde(default)]
    legal: Vec<LeanLegal>,
    #[serde(default)]
    history: Vec<serde::de::IgnoredAny>,
    #[serde(default)]
    result: Option<LeanResult>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

#[derive(serde::Deserialize)]
struct LeanLegal {
    square: Square,
}

#[derive(serde::Deserialize)]
struct LeanResult {
    reason: String,
}

/// A client message as a WebSocket text frame.
fn frame(msg: &ClientMsg) -> Message {
    Message::text(msg.to_text())
}

/// How a player finds its opponent.
enum Pairing {
    /// The random-match queue.
    Queue,
    /// Creates an invite and hands its code to the joiner.
    Create(tokio::sync::oneshot::Sender<String>),
    /// Joins the invite whose code the creator hands over.
    Join(tokio::sync::oneshot::Receiver<String>),
}

/// What every player of a run shares: its think time, when it stops, whether messages are
/// checked whole.
#[derive(Clone, Copy)]
struct Pace {
    think: Duration,
    stop_at: Instant,
    strict: bool,
}

async fn player(
    addr: SocketAddr,
    pairing: Pairing,
    stats: Arc<Stats>,
    inflight: InFlight,
    pace: Pace,
    seed: u64,
) {
    if let Err(e) = play(addr, pairing, &stats, &inflight, pace, seed).await {
        stats.error(e);
    }
}

async fn play(
    addr: SocketAddr,
    pairing: Pairing,
    stats: &Stats,
    inflight: &InFlight,
    pace: Pace,
    seed: u64,
) -> Result<(), ClientError> {
    let Pace {
        think,
        stop_at,
        strict,
    } = pace;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    // Small buffers, as the server's: thousands of connections share the machine.
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(
        format!("ws://{addr}/ws"),
        Some(config),
        false,
    )
    .await
    .map_err(ClientError::Connect)?;
    let mut hand_over = None;
    let first = match pairing {
        Pairing::Queue => ClientMsg::Queue { rid: None },
        Pairing::Create(tx) => {
            hand_over = Some(tx);
            ClientMsg::InviteCreate { rid: None }
        }
        Pairing::Join(rx) => {
            let left = stop_at.saturating_duration_since(Instant::now());
            let code = match tokio::time::timeout(left, rx).await {
                Ok(Ok(code)) => code,
                Ok(Err(_)) => return Err(ClientError::CreatorFailed),
                Err(_) => return Ok(()),
            };
            ClientMsg::InviteJoin { rid: None, code }
        }
    };
    ws.send(frame(&first)).await.map_err(ClientError::Send)?;
    let mut room = String::new();
    let mut color = None;
    let mut moved_at_version = 0u64;
    loop {
        let left = stop_at.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(());
        }
        let msg = match tokio::time::timeout(left.min(Duration::from_secs(60)), ws.next()).await {
            Err(_) if Instant::now() >= stop_at => return Ok(()),
            Err(_) => return Err(ClientError::Silent),
            Ok(None) => return Err(ClientError::Closed),
            Ok(Some(Err(e))) => return Err(ClientError::Read(e)),
            Ok(Some(Ok(m))) => m,
        };
        let Message::Text(text) = msg else { continue };
        if strict {
            serde_json::from_str::<ServerMsg>(text.as_str()).map_err(|e| {
                ClientError::Unreadable {
                    text: text.as_str().to_owned(),
                    source: e,
                }
            })?;
        }
        let v: Lean = serde_json::from_str(text.as_str()).map_err(|e| ClientError::Unreadable {
            text: text.as_str().to_owned(),
            source: e,
        })?;
        match v.tag.as_ref() {
            "invite" => {
                if let Some(tx) = hand_over.take() {
                    let _ = tx.send(v.code.clone().unwrap_or_default());
                }
            }
            "matched" => {
                room = v.room.map(|r| r.into_owned()).unwrap_or_default();
                color = v.color;
                stats.matched.fetch_add(1, Ordering::Relaxed);
            }
            "state" if v.room.as_deref() == Some(room.as_str()) => {
                let Some(color) = color else { continue };
                let history = v.history.len();
                let received = Instant::now();
                {
                    let mut f = inflight.lock().unwrap();
                    if let Some((len, mover, sent, counted)) = f.get(&room) {
                        if *mover != color && history >= *len {
                            let us = received.duration_since(*sent).as_micros() as u64;
                            if *counted {
                                stats.latencies_us.lock().unwrap().push(us);
                            }
                            f.remove(&room);
                        }
                    }
                }
                if let Some(result) = &v.result {
                    if color == Color::Black {
                        stats.games_done.fetch_add(1, Ordering::Relaxed);
                        let reason = result.reason.clone();
                        *stats.reasons.lock().unwrap().entry(reason).or_default() += 1;
                    }
                    let _ = ws.close(None).await;
                    return Ok(());
                }
                let version = v.version;
                let legal = &v.legal;
                if v.to_move == Some(color) && version > moved_at_version && !legal.is_empty() {
                    let ms = think.as_millis() as u64;
                    let wait = rng.random_range(ms / 2..=ms.saturating_add(ms / 2));
                    tokio::time::sleep(Duration::from_millis(wait)).await;
                    if Instant::now() >= stop_at {
                        return Ok(());
                    }
                    let square = legal[rng.random_range(0..legal.len())].square;
                    moved_at_version = version;
                    let sent = Instant::now();
                    let counted = stats.steady.load(Ordering::Relaxed);
                    inflight
                        .lock()
                        .unwrap()
                        .insert(room.clone(), (history + 1, color, sent, counted));
                    ws.send(frame(&ClientMsg::Move {
                        rid: None,
                        game: room.clone(),
                        square,
                        version,
                    }))
                    .await
                    .map_err(ClientError::Send)?;
                    if counted {
                        stats.moves.fetch_add(1, Ordering::Relaxed);
                        let mut first = stats.first_move.lock().unwrap();
                        first.get_or_insert(sent);
                        *stats.last_move.lock().unwrap() = Some(sent);
                    }
                }
            }
            "error" => {
                return Err(ClientError::Refused {
                    code: v.code.unwrap_or_default(),
                    message: v.message.unwrap_or_default(),
                })
            }
            _ => {}
        }
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(ArgsError::Help) => {
            println!("{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async move {
        let stats = Arc::new(Stats::default());
        let inflight: InFlight = Arc::new(Mutex::new(HashMap::new()));
        let start = Instant::now();
        let Some(stop_at) = start.checked_add(Duration::from_secs(args.seconds)) else {
            eprintln!("--seconds {}: too long", args.seconds);
            std::process::exit(2);
        };
        let clients = args.games.saturating_mul(2);
        println!(
            "load: {} games ({} connections) against {} ({}), think {} ms, at most {} s",
            args.games,
            clients,
            args.addrs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(","),
            match (args.invites, args.same_node) {
                (true, false) => "paired by invites across nodes",
                (true, true) => "paired by invites on one node",
                (false, _) => "random matching",
            },
            args.think.as_millis(),
            args.seconds
        );
        let rss_before = args.server_pid.and_then(rss_kib);
        let mut tasks = Vec::new();
        let gap = Duration::from_micros(1_000_000 / args.ramp_per_sec.max(1));
        let n = args.addrs.len();
        let mut joiner = None;
        for i in 0..clients {
            let (addr, pairing) = if args.invites {
                // Game i/2: its creator on one node, its joiner on the next (or the same).
                let g = i / 2;
                if i % 2 == 0 {
                    let (tx, rx) = tokio::sync::oneshot::channel();
                    joiner = Some(rx);
                    (args.addrs[g % n], Pairing::Create(tx))
                } else {
                    let rx = joiner.take().expect("the creator came first");
                    let node = if args.same_node { g % n } else { (g + 1) % n };
                    (args.addrs[node], Pairing::Join(rx))
                }
            } else {
                (args.addrs[i % n], Pairing::Queue)
            };
            tasks.push(tokio::spawn(player(
                addr,
                pairing,
                stats.clone(),
                inflight.clone(),
                Pace {
                    think: args.think,
                    stop_at,
                    strict: args.strict,
                },
                i as u64,
            )));
            tokio::time::sleep(gap).await;
        }
        let ramped = start.elapsed();
        println!(
            "load: all {clients} connections opened in {:.1} s",
            ramped.as_secs_f64()
        );
        // Let the last games be matched, then measure.
        tokio::time::sleep(Duration::from_secs(2)).await;
        stats.steady.store(true, Ordering::Relaxed);
        let server_pid = args.server_pid.map(|p| p.to_string());
        let cpu_before = (
            server_pid.as_deref().and_then(cpu_secs),
            cpu_secs("self"),
        );
        let playing = stats.matched.load(Ordering::Relaxed) / 2 - stats.games_done.load(Ordering::Relaxed);
        if let (Some(pid), Some(before)) = (args.server_pid, rss_before) {
            if let Some(after) = rss_kib(pid) {
                println!(
                    "load: server memory {:.1} MiB before, {:.1} MiB with {playing} games going: {:.1} KiB per game (its two connections included)",
                    before as f64 / 1024.0,
                    after as f64 / 1024.0,
                    after.saturating_sub(before) as f64 / playing.max(1) as f64
                );
            }
        }
        for t in tasks {
            let _ = t.await;
        }
        let elapsed = start.elapsed();
        let cpu_after = (
            server_pid.as_deref().and_then(cpu_secs),
            cpu_secs("self"),
        );
        let mut lat = std::mem::take(&mut *stats.latencies_us.lock().unwrap());
        lat.sort_unstable();
        let moves = stats.moves.load(Ordering::Relaxed);
        let window = match (
            *stats.first_move.lock().unwrap(),
            *stats.last_move.lock().unwrap(),
        ) {
            (Some(a), Some(b)) if b > a => b.duration_since(a).as_secs_f64(),
            _ => f64::NAN,
        };
        println!("load: finished in {:.1} s", elapsed.as_secs_f64());
        println!(
            "load: games matched {} of {}, finished {} ({:?})",
            stats.matched.load(Ordering::Relaxed) / 2,
            args.games,
            stats.games_done.load(Ordering::Relaxed),
            stats.reasons.lock().unwrap()
        );
        println!(
            "load: {moves} moves in {window:.1} s = {:.0} moves/s",
            moves as f64 / window
        );
        println!(
            "load: move latency (send -> opponent's update) over {} moves: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            lat.len(),
            percentile(&lat, 0.50),
            percentile(&lat, 0.90),
            percentile(&lat, 0.99),
            percentile(&lat, 1.0)
        );
        let per_1000 = |before: Option<f64>, after: Option<f64>| match (before, after) {
            (Some(b), Some(a)) if moves > 0 => format!(
                "{:.1} s, {:.3} s per 1,000 moves",
                a - b,
                (a - b) * 1000.0 / moves as f64
            ),
            _ => "unknown".to_owned(),
        };
        println!(
            "load: CPU (user + system) over the measured moves: server {}; load client {}",
            per_1000(cpu_before.0, cpu_after.0),
            per_1000(cpu_before.1, cpu_after.1)
        );
        let errors = stats.errors.load(Ordering::Relaxed);
        println!("load: errors {errors}");
        for e in stats.error_samples.lock().unwrap().iter() {
            println!("load:   {e}");
        }
        if errors > 0 {
            std::process::exit(1);
        }
    });
}
