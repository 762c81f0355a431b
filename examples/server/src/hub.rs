//! The server's shared state and the actors of the games of one connection.
//!
//! Each game runs as one tokio task that owns its state: commands arrive on its mailbox, its
//! timer sleeps until the game's `poll_timeout`, and every accepted change is committed to the
//! database before the new state goes out to the connections that follow the game.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use axum::extract::ws::Utf8Bytes;
use rand::{Rng, RngExt};
use reversi::clock::Millis;
use reversi::core::{Color, Position, Square};
use serde_json::{json, Value};
use tokio::sync::{mpsc, Semaphore};
use tokio::time::Instant;

use crate::db::{Db, GameRecord, Write};
use crate::local::{Actor, LocalGame};
use crate::protocol::{color_name, ClientMsg, Level, LocalMode, Refusal, TimeSpec};
use crate::Config;

/// A connection's outgoing queue.
pub type Out = mpsc::Sender<Utf8Bytes>;

/// The wall-clock time, read only where a command is applied or a timer fires.
pub fn wall_now() -> Millis {
    Millis::from_system_time(SystemTime::now())
}

/// A tokio deadline for a wall-clock instant (a year away at most: a deadline too far for the
/// clock type to add is as good as never).
fn instant_of(deadline: Millis, now: Millis) -> Instant {
    const FAR: Duration = Duration::from_secs(365 * 24 * 3600);
    let wait = Duration::from(deadline.saturating_since(now)).min(FAR);
    Instant::now() + wait
}

/// Sleeps until a `poll_timeout` deadline, or forever when there is none.
pub async fn sleep_until_deadline(deadline: Option<Millis>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(instant_of(d, wall_now())).await,
        None => std::future::pending().await,
    }
}

/// Sends `v` to a connection, without waiting. Returns false when the connection is gone or
/// too far behind to keep up.
pub fn send(out: &Out, v: &Value) -> bool {
    out.try_send(Utf8Bytes::from(v.to_string())).is_ok()
}

/// Sends a refusal.
pub fn send_refusal(out: &Out, r: &Refusal, request: &str, rid: Option<&Value>) {
    tracing::debug!(code = %r.code, request, message = %r.message, "refused");
    send(out, &r.to_json(Some(request), rid));
}

/// What the whole server shares.
pub struct Hub {
    /// The configuration.
    pub cfg: Config,
    /// The database writer.
    pub db: Db,
    local: Mutex<HashMap<String, mpsc::Sender<LocalCmd>>>,
    next_conn: AtomicU64,
    /// Bounds how many computer moves are computed at once (one per core).
    pub think: Arc<Semaphore>,
    /// The online part (rooms, matching, invites).
    pub online: crate::online::Online,
}

/// A secret: 32 lowercase hex digits from the OS-seeded generator.
pub fn new_token() -> String {
    let mut b = [0u8; 16];
    rand::rng().fill_bytes(&mut b);
    b.iter().map(|x| format!("{x:02x}")).collect()
}

impl Hub {
    /// A hub over an opened database.
    pub fn new(cfg: Config, db: Db, online: crate::online::Online) -> Hub {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Hub {
            cfg,
            db,
            local: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
            think: Arc::new(Semaphore::new(cores)),
            online,
        }
    }

    /// A new connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    fn local_sender(&self, id: &str) -> Option<mpsc::Sender<LocalCmd>> {
        self.local.lock().expect("hub lock").get(id).cloned()
    }

    /// The number of games of one connection in memory.
    pub fn local_count(&self) -> usize {
        self.local.lock().expect("hub lock").len()
    }

    /// Starts the actor of a restored game.
    pub fn restore_local(self: &Arc<Hub>, state: &str) -> Result<(), String> {
        let g: LocalGame = serde_json::from_str(state).map_err(|e| e.to_string())?;
        spawn_local(self, g, None);
        Ok(())
    }

    /// Handles a command about games of one connection. Returns the ids of games the
    /// connection may now follow.
    pub async fn local_command(
        self: &Arc<Hub>,
        conn: u64,
        out: &Out,
        msg: ClientMsg,
    ) -> Option<String> {
        let kind = msg.kind();
        let rid = msg.rid().cloned();
        match msg {
            ClientMsg::LocalNew {
                mode,
                color,
                level,
                time,
                board,
                ..
            } => match self.new_local(mode, color, level, time, board) {
                Ok(g) => {
                    let id = g.id.clone();
                    spawn_local(self, g, Some((conn, out.clone(), rid)));
                    Some(id)
                }
                Err(r) => {
                    send_refusal(out, &r, kind, rid.as_ref());
                    None
                }
            },
            ClientMsg::LocalResume { game, token, .. } => {
                let Some(tx) = self.local_sender(&game) else {
                    send_refusal(out, &no_such_game(&game), kind, rid.as_ref());
                    return None;
                };
                let cmd = LocalCmd::Attach {
                    conn,
                    out: out.clone(),
                    token,
                    rid: rid.clone(),
                };
                if tx.send(cmd).await.is_err() {
                    send_refusal(out, &no_such_game(&game), kind, rid.as_ref());
                    return None;
                }
                Some(game)
            }
            ClientMsg::Move { ref game, .. }
            | ClientMsg::Undo { ref game, .. }
            | ClientMsg::Resign { ref game, .. }
            | ClientMsg::Sync { ref game, .. }
            | ClientMsg::LocalClose { ref game, .. } => {
                let Some(tx) = self.local_sender(game) else {
                    send_refusal(out, &no_such_game(game), kind, rid.as_ref());
                    return None;
                };
                let game = game.clone();
                let cmd = LocalCmd::Client {
                    conn,
                    out: out.clone(),
                    msg,
                };
                if tx.send(cmd).await.is_err() {
                    send_refusal(out, &no_such_game(&game), kind, rid.as_ref());
                }
                None
            }
            _ => None,
        }
    }

    /// Tells a game that a connection went away.
    pub async fn local_detach(&self, conn: u64, game: &str) {
        if let Some(tx) = self.local_sender(game) {
            let _ = tx.send(LocalCmd::Detach { conn }).await;
        }
    }

    fn new_local(
        &self,
        mode: LocalMode,
        color: Option<Color>,
        level: Option<Level>,
        time: Option<TimeSpec>,
        board: Option<String>,
    ) -> Result<LocalGame, Refusal> {
        let time = time.unwrap_or(TimeSpec::Unlimited);
        let control = crate::local::control_of(&time, self.cfg.test_endpoints)?;
        let start = match board {
            None => Position::initial(),
            Some(_) if !self.cfg.test_endpoints => {
                return Err(Refusal::new(
                    "test_endpoints_disabled",
                    "starting from a board needs a server started with --test-endpoints",
                ))
            }
            Some(b) => Position::from_board_string(&b)
                .map_err(|e| Refusal::new("bad_board", format!("bad board string: {e}")))?,
        };
        let id = format!("L{:012x}", rand::rng().random::<u64>() >> 16);
        Ok(LocalGame::new(
            id,
            new_token(),
            mode,
            color.unwrap_or(Color::Black),
            level.unwrap_or(Level::Easy),
            time,
            control,
            start,
            wall_now(),
        ))
    }
}

/// The refusal for an unknown game id.
pub fn no_such_game(id: &str) -> Refusal {
    let shown: String = id.chars().take(40).collect();
    Refusal::new("no_such_game", format!("no game {shown:?}"))
}

/// A message to a game's actor.
pub enum LocalCmd {
    /// Follow the game, proving it with its token.
    Attach {
        conn: u64,
        out: Out,
        token: String,
        rid: Option<Value>,
    },
    /// A command from a connection.
    Client { conn: u64, out: Out, msg: ClientMsg },
    /// A connection went away.
    Detach { conn: u64 },
    /// The computer's answer, computed for `version`.
    Computer {
        version: u64,
        square: Option<Square>,
    },
}

fn spawn_local(hub: &Arc<Hub>, g: LocalGame, creator: Option<(u64, Out, Option<Value>)>) {
    let (tx, rx) = mpsc::channel(64);
    hub.local
        .lock()
        .expect("hub lock")
        .insert(g.id.clone(), tx.clone());
    tokio::spawn(run_local(hub.clone(), g, rx, tx, creator));
}

struct LocalActor {
    hub: Arc<Hub>,
    g: LocalGame,
    subs: Vec<(u64, Out)>,
    /// The version the computer is thinking about.
    thinking: Option<u64>,
    me: mpsc::Sender<LocalCmd>,
}

impl LocalActor {
    fn state(&self, now: Millis) -> Value {
        self.g
            .state_json(now, self.thinking == Some(self.g.version))
    }

    fn broadcast(&mut self, now: Millis) {
        let text = Utf8Bytes::from(self.state(now).to_string());
        self.subs
            .retain(|(_, out)| out.try_send(text.clone()).is_ok());
    }

    /// Persists the state (and the record if the game just ended), then tells the followers.
    async fn commit(&mut self, now: Millis, was_over: bool) {
        let mut writes = vec![Write::Save {
            id: self.g.id.clone(),
            kind: "local",
            state: serde_json::to_string(&self.g).expect("a game serialises"),
            at: now.0,
        }];
        let ended = !was_over && self.g.result.is_some();
        if ended {
            writes.push(Write::Finish(Box::new(self.record())));
        }
        if let Err(e) = self.hub.db.write(writes).await {
            tracing::error!(game = %self.g.id, error = %e, "could not save the game");
        }
        if ended {
            let r = self.g.result.expect("ended");
            let pos = self.g.game.position();
            tracing::info!(
                game = %self.g.id,
                reason = r.reason.name(),
                winner = r.winner.map_or("none", color_name),
                black = pos.count(Color::Black),
                white = pos.count(Color::White),
                "game over"
            );
        }
        self.maybe_think();
        self.broadcast(now);
    }

    fn record(&self) -> GameRecord {
        let r = self.g.result.expect("a finished game");
        let pos = self.g.game.position();
        let (black, white) = self.g.seat_names();
        GameRecord {
            game: self.g.id.clone(),
            game_no: 1,
            kind: match self.g.mode {
                LocalMode::Computer => "local_computer",
                LocalMode::TwoPlayers => "local_two_players",
            }
            .into(),
            black,
            white,
            start_board: self.g.game.start().to_board_string(),
            transcript: self.g.game.transcript_with_passes(),
            reason: r.reason.name().into(),
            winner: r.winner.map(|c| color_name(c).to_string()),
            black_discs: pos.count(Color::Black),
            white_discs: pos.count(Color::White),
            started_ms: self.g.created.0,
            ended_ms: r.at.0,
            black_clock_ms: self.g.clock.remaining(0, r.at).map(|s| s.as_millis()),
            white_clock_ms: self.g.clock.remaining(1, r.at).map(|s| s.as_millis()),
        }
    }

    /// Starts the computer thinking if it is its turn and it is not already.
    fn maybe_think(&mut self) {
        let Some((pos, level)) = self.g.computer_to_move() else {
            return;
        };
        if self.thinking == Some(self.g.version) {
            return;
        }
        let version = self.g.version;
        self.thinking = Some(version);
        let permits = self.hub.think.clone();
        let me = self.me.clone();
        let delay = self.hub.cfg.computer_delay;
        let seed = rand::rng().random::<u64>();
        tokio::spawn(async move {
            let pause = tokio::time::sleep(delay);
            let square = {
                let _permit = permits.acquire_owned().await;
                tokio::task::spawn_blocking(move || crate::engine::choose(level, &pos, seed))
                    .await
                    .ok()
                    .flatten()
            };
            pause.await;
            let _ = me.send(LocalCmd::Computer { version, square }).await;
        });
    }

    async fn handle(&mut self, cmd: LocalCmd) {
        let now = wall_now();
        let was_over = self.g.result.is_some();
        let ticked = self.g.tick(now);
        match cmd {
            LocalCmd::Attach {
                conn,
                out,
                token,
                rid,
            } => {
                if token != self.g.token {
                    send_refusal(
                        &out,
                        &Refusal::new("bad_token", "wrong token for this game"),
                        "local_resume",
                        rid.as_ref(),
                    );
                } else {
                    self.subs.retain(|(c, _)| *c != conn);
                    send(
                        &out,
                        &json!({"type": "local_started", "game": self.g.id, "token": self.g.token, "rid": rid}),
                    );
                    send(&out, &self.state(now));
                    self.subs.push((conn, out));
                    tracing::info!(game = %self.g.id, conn, "accepted local_resume");
                }
            }
            LocalCmd::Detach { conn } => self.subs.retain(|(c, _)| *c != conn),
            LocalCmd::Computer { version, square } => {
                if self.thinking == Some(version) {
                    self.thinking = None;
                }
                if let Some(sq) = square {
                    match self.g.play(Actor::Computer, sq, version, now) {
                        Ok(()) => {
                            tracing::info!(game = %self.g.id, square = %sq, version = self.g.version, "accepted computer move");
                            self.commit(now, was_over).await;
                            return;
                        }
                        Err(r) => {
                            tracing::debug!(game = %self.g.id, code = %r.code, "computer move dropped")
                        }
                    }
                }
            }
            LocalCmd::Client { conn, out, msg } => {
                let kind = msg.kind();
                let rid = msg.rid().cloned();
                if let ClientMsg::Sync { .. } = msg {
                    // Anyone may look; only followers may act.
                    let mut s = self.state(now);
                    s["rid"] = rid.clone().unwrap_or(Value::Null);
                    send(&out, &s);
                } else if !self.subs.iter().any(|(c, _)| *c == conn) {
                    send_refusal(
                        &out,
                        &Refusal::new(
                            "not_attached",
                            "this connection does not follow the game: resume it with its token",
                        ),
                        kind,
                        rid.as_ref(),
                    );
                } else {
                    let result = match msg {
                        ClientMsg::Move {
                            square, version, ..
                        } => self.g.play(Actor::Person, square, version, now),
                        ClientMsg::Undo { version, .. } => self.g.undo(version, now),
                        ClientMsg::Resign { .. } => self.g.resign(now),
                        ClientMsg::LocalClose { .. } => {
                            self.subs.retain(|(c, _)| *c != conn);
                            send(
                                &out,
                                &json!({"type": "local_closed", "game": self.g.id, "rid": rid}),
                            );
                            if self.g.abandon(now) {
                                Ok(())
                            } else {
                                Err(Refusal::new("game_over", "the game is over"))
                            }
                        }
                        _ => Err(Refusal::new("unsupported", "not a command for this game")),
                    };
                    match result {
                        Ok(()) => {
                            tracing::info!(game = %self.g.id, conn, command = kind, version = self.g.version, "accepted");
                            self.commit(now, was_over).await;
                            return;
                        }
                        Err(_) if kind == "local_close" => {}
                        Err(r) => send_refusal(&out, &r, kind, rid.as_ref()),
                    }
                }
            }
        }
        if ticked {
            self.commit(now, was_over).await;
        }
    }
}

async fn run_local(
    hub: Arc<Hub>,
    g: LocalGame,
    mut rx: mpsc::Receiver<LocalCmd>,
    me: mpsc::Sender<LocalCmd>,
    creator: Option<(u64, Out, Option<Value>)>,
) {
    let idle_after = hub.cfg.local_idle;
    let mut a = LocalActor {
        hub,
        g,
        subs: Vec::new(),
        thinking: None,
        me,
    };
    let now = wall_now();
    if let Some((conn, out, rid)) = creator {
        // A new game: saved before anyone hears of it.
        tracing::info!(game = %a.g.id, conn, mode = ?a.g.mode, "accepted local_new");
        send(
            &out,
            &json!({"type": "local_started", "game": a.g.id, "token": a.g.token, "rid": rid}),
        );
        a.subs.push((conn, out));
        a.commit(now, false).await;
    } else {
        // Restored after a restart: the clock goes on by wall time.
        let was_over = a.g.result.is_some();
        if a.g.tick(now) {
            a.commit(now, was_over).await;
        }
        a.maybe_think();
    }
    let idle = tokio::time::sleep(idle_after);
    tokio::pin!(idle);
    let mut idle_armed = a.subs.is_empty();
    loop {
        let deadline = a.g.poll_timeout();
        let timer = sleep_until_deadline(deadline);
        tokio::select! {
            cmd = rx.recv() => {
                let Some(cmd) = cmd else { break };
                a.handle(cmd).await;
                if a.subs.is_empty() && !idle_armed {
                    idle.as_mut().reset(Instant::now() + idle_after);
                    idle_armed = true;
                } else if !a.subs.is_empty() {
                    idle_armed = false;
                }
            }
            () = timer => {
                let now = wall_now();
                let was_over = a.g.result.is_some();
                if a.g.tick(now) {
                    a.commit(now, was_over).await;
                }
            }
            () = &mut idle, if idle_armed => {
                // Nobody has followed the game for a while: it ends, and is forgotten.
                let now = wall_now();
                let was_over = a.g.result.is_some();
                a.g.tick(now);
                a.g.abandon(now);
                let mut writes = Vec::new();
                if !was_over {
                    writes.push(Write::Finish(Box::new(a.record())));
                }
                writes.push(Write::Delete { id: a.g.id.clone() });
                a.hub.local.lock().expect("hub lock").remove(&a.g.id);
                if let Err(e) = a.hub.db.write(writes).await {
                    tracing::error!(game = %a.g.id, error = %e, "could not close the game");
                }
                tracing::info!(game = %a.g.id, "closed after idling");
                break;
            }
        }
    }
}
