//! Local games in the browser: the requests `local`, `local_load`, `local_tick` and
//! `local_think` of the contract between the page's worker and this module, over the facade's
//! [`LocalMatch`]. The module holds one game at a time; the messages it produces for the page are
//! those the server sent for games of one connection (see `PROTOCOL.md`): `local_started`,
//! `state` with `"kind":"local"`, `local_closed` and `error`.
//!
//! Every answer is `{"type":"local","out":[..],"saved":..,"timeout":..,"think":..}`: the
//! messages for the page, the game's saved form when it changed (`null` once closed), when to
//! send `local_tick` next (wall-clock milliseconds), and whether to send `local_think` (the
//! computer is to move).
//!
//! ```
//! let a: serde_json::Value = serde_json::from_str(&reversi_web::call(
//!     r#"{"type":"local","now":1000,"msg":{"type":"local_new","mode":"two_players","rid":1}}"#,
//! )).unwrap();
//! assert_eq!(a["out"][0]["type"], "local_started");
//! assert_eq!(a["out"][1]["status"], "playing");
//! assert_eq!(a["think"], false);
//! ```

use std::cell::RefCell;

use reversi::ai::{Level, Limits, TimeSource};
use reversi::clock::{parse_total_time, Millis, Span, TimeControl};
use reversi::core::{Color, Position, Square};
use reversi::local::{EndReason, LocalError, LocalMatch, Opponent, Settings};
use reversi::view::{BoardView, ClockView};
use serde::Serialize;
use serde_json::{json, Value};

/// The page's name of why a game ended: `board`, `timeout` or `resignation` (the names the
/// saved matches use too); a local match ends in no other way.
fn reason_name(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Timeout { .. } => "timeout",
        EndReason::Resigned { .. } => "resignation",
        _ => "board",
    }
}

/// The time control of a local game, as the page asks for it (and shows it back). Read by hand
/// ([`TimeSpec::read`]): derived readers of tagged enums cost the module tens of kilobytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum TimeSpec {
    Unlimited,
    PerMove {
        secs: u64,
    },
    Total {
        input: String,
    },
    Combined {
        secs: u64,
        input: String,
    },
    /// Any per-move limit in milliseconds (the server allowed it for tests only).
    PerMoveMs {
        ms: u64,
    },
}

/// Who plays a local game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Computer,
    TwoPlayers,
}

/// The client messages of local games, as the page sends them to the server today (`rid` is
/// read apart, so that errors about messages that do not parse echo it too).
#[derive(Debug)]
enum ClientMsg {
    LocalNew {
        mode: Mode,
        color: Option<Color>,
        level: Option<String>,
        time: Option<TimeSpec>,
        board: Option<String>,
    },
    Move {
        game: String,
        square: Square,
        version: u64,
    },
    Undo {
        game: String,
        version: u64,
    },
    Resign {
        game: String,
    },
    Sync {
        game: String,
    },
    LocalClose {
        game: String,
    },
}

/// The fields of a JSON object, read by hand with the error messages of a derived reader.
pub(crate) struct Fields<'a> {
    obj: &'a serde_json::Map<String, Value>,
}

impl<'a> Fields<'a> {
    /// The object, refused if it has a field not in `allowed`.
    pub(crate) fn new(v: &'a Value, allowed: &[&str]) -> Result<Fields<'a>, String> {
        let obj = v.as_object().ok_or("expected an object")?;
        if let Some(k) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(format!("unknown field `{k}`, expected one of {allowed:?}"));
        }
        Ok(Fields { obj })
    }

    pub(crate) fn opt<T: serde::de::DeserializeOwned>(
        &self,
        name: &str,
    ) -> Result<Option<T>, String> {
        match self.obj.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => T::deserialize(v.clone())
                .map(Some)
                .map_err(|e| format!("field `{name}`: {e}")),
        }
    }

    pub(crate) fn req<T: serde::de::DeserializeOwned>(&self, name: &str) -> Result<T, String> {
        self.opt(name)?
            .ok_or_else(|| format!("missing field `{name}`"))
    }
}

impl TimeSpec {
    fn read(v: &Value) -> Result<TimeSpec, String> {
        let kind = v.get("kind").and_then(Value::as_str).unwrap_or_default();
        let allowed: &[&str] = match kind {
            "unlimited" => &["kind"],
            "per_move" => &["kind", "secs"],
            "total" => &["kind", "input"],
            "combined" => &["kind", "secs", "input"],
            "per_move_ms" => &["kind", "ms"],
            _ => {
                return Err(format!(
                    "time: unknown kind {kind:?}, expected unlimited, per_move, total, combined or per_move_ms"
                ))
            }
        };
        let f = Fields::new(v, allowed).map_err(|e| format!("time: {e}"))?;
        Ok(match kind {
            "unlimited" => TimeSpec::Unlimited,
            "per_move" => TimeSpec::PerMove {
                secs: f.req("secs")?,
            },
            "total" => TimeSpec::Total {
                input: f.req("input")?,
            },
            "combined" => TimeSpec::Combined {
                secs: f.req("secs")?,
                input: f.req("input")?,
            },
            _ => TimeSpec::PerMoveMs { ms: f.req("ms")? },
        })
    }
}

impl ClientMsg {
    /// Reads a message of type `kind` (one of [`KNOWN`]).
    fn read(kind: &str, v: &Value) -> Result<ClientMsg, String> {
        let with = |extra: &[&'static str]| {
            let mut allowed = vec!["type", "rid"];
            allowed.extend_from_slice(extra);
            Fields::new(v, &allowed)
        };
        Ok(match kind {
            "local_new" => {
                let f = with(&["mode", "color", "level", "time", "board"])?;
                let mode = match f.req::<String>("mode")?.as_str() {
                    "computer" => Mode::Computer,
                    "two_players" => Mode::TwoPlayers,
                    other => {
                        return Err(format!(
                        "field `mode`: unknown variant {other:?}, expected computer or two_players"
                    ))
                    }
                };
                ClientMsg::LocalNew {
                    mode,
                    color: f.opt("color")?,
                    level: f.opt("level")?,
                    time: match f.obj.get("time") {
                        None | Some(Value::Null) => None,
                        Some(t) => Some(TimeSpec::read(t)?),
                    },
                    board: f.opt("board")?,
                }
            }
            "move" => {
                let f = with(&["game", "square", "version"])?;
                ClientMsg::Move {
                    game: f.req("game")?,
                    square: f.req("square")?,
                    version: f.req("version")?,
                }
            }
            "undo" => {
                let f = with(&["game", "version"])?;
                ClientMsg::Undo {
                    game: f.req("game")?,
                    version: f.req("version")?,
                }
            }
            "resign" => ClientMsg::Resign {
                game: with(&["game"])?.req("game")?,
            },
            "sync" => ClientMsg::Sync {
                game: with(&["game"])?.req("game")?,
            },
            _ => ClientMsg::LocalClose {
                game: with(&["game"])?.req("game")?,
            },
        })
    }
}

/// The message types this module answers.
const KNOWN: [&str; 6] = ["local_new", "move", "undo", "resign", "sync", "local_close"];

/// A refusal: its code and message, as the server's.
struct Refusal {
    code: &'static str,
    message: String,
}

fn refusal(code: &'static str, message: impl Into<String>) -> Refusal {
    Refusal {
        code,
        message: message.into(),
    }
}

fn error_json(r: &Refusal, request: Option<&str>, rid: Option<&Value>) -> Value {
    let mut v = json!({"type": "error", "code": r.code, "message": r.message});
    if let Some(request) = request {
        v["request"] = json!(request);
    }
    if let Some(rid) = rid {
        v["rid"] = rid.clone();
    }
    v
}

fn local_refusal(e: &LocalError, m: &LocalMatch) -> Refusal {
    match e {
        LocalError::GameOver => refusal("game_over", "the game is over"),
        LocalError::NotYourTurn => refusal(
            "not_your_turn",
            format!(
                "it is the computer's turn ({})",
                m.game().position().side_to_move()
            ),
        ),
        LocalError::NotComputersTurn => refusal("not_your_turn", "it is the person's turn"),
        LocalError::IllegalMove(e) => refusal("illegal_move", e.to_string()),
        LocalError::NothingToUndo => refusal("nothing_to_undo", "there is no move to undo"),
        other => refusal("engine_failed", other.to_string()),
    }
}

/// The clock of a time spec; the per-move choices are those of the page (15, 30, 60 s).
fn control_of(spec: &TimeSpec) -> Result<TimeControl, Refusal> {
    let per_move = |secs: u64| {
        if matches!(secs, 15 | 30 | 60) {
            Ok(Span::from_secs(secs))
        } else {
            Err(refusal(
                "bad_time",
                format!("time per move must be 15, 30 or 60 seconds, not {secs}"),
            ))
        }
    };
    let total = |input: &str| {
        parse_total_time(input)
            .map_err(|e| refusal("bad_time", format!("total time {input:?}: {e}")))
    };
    Ok(match spec {
        TimeSpec::Unlimited => TimeControl::Unlimited,
        TimeSpec::PerMove { secs } => TimeControl::per_move(per_move(*secs)?),
        TimeSpec::Total { input } => TimeControl::total(total(input)?),
        TimeSpec::Combined { secs, input } => {
            TimeControl::combined(per_move(*secs)?, total(input)?)
        }
        TimeSpec::PerMoveMs { ms } => {
            if *ms == 0 {
                return Err(refusal("bad_time", "per_move_ms must be positive"));
            }
            TimeControl::per_move(Span::from_millis(*ms))
        }
    })
}

/// The game the module holds: the match, and what the page knows it by.
#[derive(Debug, Clone)]
struct WebGame {
    id: String,
    token: String,
    time: TimeSpec,
    m: LocalMatch,
}

/// The saved form handed to the page (`saved`), and read back by `local_load`.
#[derive(Serialize)]
struct SavedGame {
    /// The format of this wrapper: 1.
    version: u32,
    game: String,
    token: String,
    time: TimeSpec,
    /// The facade's saved match.
    #[serde(rename = "match")]
    m: Value,
}

impl WebGame {
    fn saved(&self) -> Value {
        serde_json::to_value(SavedGame {
            version: 1,
            game: self.id.clone(),
            token: self.token.clone(),
            time: self.time.clone(),
            m: self.m.save_value(),
        })
        .expect("a game serialises")
    }

    fn load(data: Value, now: Millis) -> Result<WebGame, Refusal> {
        let bad = |m: String| refusal("bad_saved_game", m);
        let f = Fields::new(&data, &["version", "game", "token", "time", "match"])
            .map_err(|e| bad(format!("not a saved game: {e}")))?;
        let read = || -> Result<SavedGame, String> {
            Ok(SavedGame {
                version: f.req("version")?,
                game: f.req("game")?,
                token: f.req("token")?,
                time: TimeSpec::read(f.obj.get("time").unwrap_or(&Value::Null))?,
                m: f.obj.get("match").cloned().unwrap_or(Value::Null),
            })
        };
        let saved = read().map_err(|e| bad(format!("not a saved game: {e}")))?;
        if saved.version != 1 {
            return Err(bad(format!(
                "a saved game of format {}, which this version does not read",
                saved.version
            )));
        }
        let m = LocalMatch::load_value(saved.m, now).map_err(|e| bad(e.to_string()))?;
        let control = control_of(&saved.time).map_err(|r| bad(r.message))?;
        if control != m.settings().time {
            return Err(bad(
                "the saved time control does not match the clock's".to_string()
            ));
        }
        if !saved.game.starts_with('L') || saved.game.len() > 40 {
            return Err(bad(format!("{:?} is not a local game id", saved.game)));
        }
        Ok(WebGame {
            id: saved.game,
            token: saved.token,
            time: saved.time,
            m,
        })
    }

    fn mode(&self) -> Mode {
        match self.m.settings().opponent {
            Opponent::Person => Mode::TwoPlayers,
            Opponent::Computer(_) => Mode::Computer,
        }
    }

    /// The full `state` message, as the server's for games of one connection.
    fn state(&self, now: Millis) -> Value {
        let m = &self.m;
        let level = m.settings().opponent.level();
        let mut v = json!({
            "type": "state",
            "kind": "local",
            "game": self.id,
            "version": m.version(),
            "mode": self.mode(),
            "human": level.map(|_| m.settings().human),
            "level": level.map(|l| l.to_string()),
            "time": self.time,
            "status": if m.is_over() { "over" } else { "playing" },
            "result": m.result().map(|r| json!({
                "winner": r.winner,
                "reason": reason_name(r.reason),
            })),
            "clock": ClockView::of(m.clock(), now),
            "can_undo": m.can_undo(),
            "thinking": m.computer_to_move(),
        });
        if let (Value::Object(dst), Ok(Value::Object(src))) =
            (&mut v, serde_json::to_value(BoardView::of(m.game())))
        {
            dst.extend(src);
        }
        v
    }

    /// Whether the computer is to move and can: the Expert level waits for its weights
    /// (installed with [`crate::install_weights`]), it does not play without them.
    fn may_think(&self) -> bool {
        self.m.computer_to_move()
            && (self.m.settings().opponent.level() != Some(Level::Expert) || crate::have_weights())
    }

    fn check_version(&self, version: u64) -> Result<(), Refusal> {
        if version != self.m.version() {
            return Err(refusal(
                "stale_version",
                format!(
                    "the move was made on version {version}, the game is at version {}: ask for the state with sync",
                    self.m.version()
                ),
            ));
        }
        Ok(())
    }

    fn check_playing(&self) -> Result<(), Refusal> {
        if self.m.is_over() {
            return Err(refusal("game_over", "the game is over"));
        }
        Ok(())
    }
}

thread_local! {
    /// The game in progress, if any.
    static GAME: RefCell<Option<WebGame>> = const { RefCell::new(None) };
    /// Requests answered, to vary ids and seeds made in the same millisecond.
    static COUNTER: RefCell<u64> = const { RefCell::new(0) };
}

/// What a request does to the module's game.
struct Answer {
    out: Vec<Value>,
    /// `Some(None)`: the game is gone; `Some(Some(v))`: its new saved form.
    saved: Option<Option<Value>>,
}

impl Answer {
    fn new() -> Answer {
        Answer {
            out: Vec::new(),
            saved: None,
        }
    }

    fn finish(self) -> Value {
        GAME.with(|g| {
            let g = g.borrow();
            let (timeout, think) = match g.as_ref() {
                Some(g) => (g.m.poll_timeout().map(|t| t.0), g.may_think()),
                None => (None, false),
            };
            let mut v =
                json!({"type": "local", "out": self.out, "timeout": timeout, "think": think});
            if let Some(saved) = self.saved {
                v["saved"] = saved.unwrap_or(Value::Null);
            }
            v
        })
    }
}

/// A 64-bit mix (SplitMix64's finaliser), for ids, tokens and seeds.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Fresh randomness from the wall clock, the search's clock and a counter.
fn fresh(now: Millis) -> u64 {
    let n = COUNTER.with(|c| {
        let mut c = c.borrow_mut();
        *c += 1;
        *c
    });
    let t = time_source().now().as_nanos() as u64;
    mix(now.0 ^ mix(n) ^ mix(t.rotate_left(17)))
}

/// Where the search reads the time: the page's `performance.now()` in the module, the system
/// clock natively.
fn time_source() -> TimeSource {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        TimeSource::new(crate::ffi::now)
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        TimeSource::system()
    }
}

/// The request types handled here.
pub(crate) fn is_local(kind: &str) -> bool {
    matches!(kind, "local" | "local_load" | "local_tick" | "local_think")
}

/// Answers a local request (`request["type"]` is one of [`is_local`]'s).
pub(crate) fn answer(request: &Value) -> Value {
    let mut a = Answer::new();
    let bad = |m: String| error_json(&refusal("bad_request", m), None, None);
    let now = match request.get("now").and_then(Value::as_u64) {
        Some(n) => Millis(n),
        None => {
            a.out.push(bad(
                "a local request needs `now`, wall-clock milliseconds".into()
            ));
            return a.finish();
        }
    };
    let kind = request["type"].as_str().unwrap_or_default();
    let fields_ok = |allowed: &[&str]| {
        request
            .as_object()
            .is_some_and(|o| o.keys().all(|k| allowed.contains(&k.as_str())))
    };
    match kind {
        "local" if fields_ok(&["type", "now", "msg"]) => {
            client(&mut a, request.get("msg").unwrap_or(&Value::Null), now);
        }
        "local_load" if fields_ok(&["type", "now", "data"]) => {
            let data = request.get("data").cloned().unwrap_or(Value::Null);
            match WebGame::load(data, now) {
                Ok(g) => {
                    a.out.push(g.state(now));
                    a.saved = Some(Some(g.saved()));
                    GAME.with(|slot| *slot.borrow_mut() = Some(g));
                }
                Err(r) => a.out.push(error_json(&r, Some("local_load"), None)),
            }
        }
        "local_tick" if fields_ok(&["type", "now"]) => GAME.with(|slot| {
            if let Some(g) = slot.borrow_mut().as_mut() {
                if g.m.handle_timeout(now) {
                    a.out.push(g.state(now));
                    a.saved = Some(Some(g.saved()));
                }
            }
        }),
        "local_think" if fields_ok(&["type", "now"]) => GAME.with(|slot| {
            if let Some(g) = slot.borrow_mut().as_mut() {
                think(&mut a, g, now);
            }
        }),
        _ => a.out.push(bad(format!(
            "unknown fields in a {kind} request (see the contract)"
        ))),
    }
    a.finish()
}

/// The computer's move: searched here, with the page's clock as the search's time source, and
/// played at `now` plus the time the search took.
fn think(a: &mut Answer, g: &mut WebGame, now: Millis) {
    let was = g.m.version();
    g.m.handle_timeout(now);
    if g.may_think() {
        let source = time_source();
        let mut limits = Limits::none().with_time_source(source);
        if let Some(budget) = g.m.think_budget(now) {
            limits = limits.with_time(budget);
        }
        let started = source.now();
        match g.m.think(&limits) {
            Ok(square) => {
                let took = source.now().saturating_sub(started).as_millis() as u64;
                let at = Millis(now.0.saturating_add(took));
                if let Err(e) = g.m.play_computer(square, at) {
                    let r = local_refusal(&e, &g.m);
                    a.out.push(error_json(&r, Some("local_think"), None));
                }
            }
            Err(e) => {
                let r = local_refusal(&e, &g.m);
                a.out.push(error_json(&r, Some("local_think"), None));
            }
        }
    }
    if g.m.version() != was {
        let at = Millis(now.0.max(g.m.clock().last_seen().0));
        a.out.push(g.state(at));
        a.saved = Some(Some(g.saved()));
    }
}

/// A client message, as the server handled it for games of one connection.
fn client(a: &mut Answer, msg: &Value, now: Millis) {
    let rid = msg.get("rid").cloned();
    let Some(obj) = msg.as_object() else {
        a.out.push(error_json(
            &refusal("not_an_object", "the message is not a JSON object"),
            None,
            None,
        ));
        return;
    };
    let Some(kind) = obj.get("type").and_then(Value::as_str) else {
        a.out.push(error_json(
            &refusal("missing_type", "the message has no string `type`"),
            None,
            rid.as_ref(),
        ));
        return;
    };
    let kind = KNOWN.iter().find(|k| **k == kind).copied();
    let Some(kind) = kind else {
        let shown: String = obj["type"]
            .as_str()
            .unwrap_or_default()
            .chars()
            .take(40)
            .collect();
        a.out.push(error_json(
            &refusal(
                "unknown_type",
                format!("{shown:?} is not a message of local games"),
            ),
            None,
            rid.as_ref(),
        ));
        return;
    };
    let msg = match ClientMsg::read(kind, msg) {
        Ok(m) => m,
        Err(e) => {
            a.out.push(error_json(
                &refusal("bad_message", e),
                Some(kind),
                rid.as_ref(),
            ));
            return;
        }
    };
    if let ClientMsg::LocalNew {
        mode,
        color,
        level,
        time,
        board,
        ..
    } = msg
    {
        match new_game(mode, color, level, time, board, now) {
            Ok(g) => {
                a.out.push(
                    json!({"type": "local_started", "game": g.id, "token": g.token, "rid": rid}),
                );
                a.out.push(g.state(now));
                a.saved = Some(Some(g.saved()));
                GAME.with(|slot| *slot.borrow_mut() = Some(g));
            }
            Err(r) => a.out.push(error_json(&r, Some(kind), rid.as_ref())),
        }
        return;
    }
    GAME.with(|slot| {
        let mut slot = slot.borrow_mut();
        let game_id = match &msg {
            ClientMsg::Move { game, .. }
            | ClientMsg::Undo { game, .. }
            | ClientMsg::Resign { game, .. }
            | ClientMsg::Sync { game, .. }
            | ClientMsg::LocalClose { game, .. } => game.as_str(),
            ClientMsg::LocalNew { .. } => unreachable!("handled above"),
        };
        let Some(g) = slot.as_mut().filter(|g| g.id == game_id) else {
            let shown: String = game_id.chars().take(40).collect();
            a.out.push(error_json(
                &refusal("no_such_game", format!("no game {shown:?}")),
                Some(kind),
                rid.as_ref(),
            ));
            return;
        };
        // Time passes first: a flag that fell by now ends the game before the command.
        let ticked = g.m.handle_timeout(now);
        let result = match msg {
            ClientMsg::Sync { .. } => {
                let mut s = g.state(now);
                s["rid"] = rid.clone().unwrap_or(Value::Null);
                a.out.push(s);
                Err(None)
            }
            ClientMsg::LocalClose { .. } => {
                a.out
                    .push(json!({"type": "local_closed", "game": g.id, "rid": rid}));
                a.saved = Some(None);
                *slot = None;
                return;
            }
            ClientMsg::Move {
                square, version, ..
            } => g
                .check_playing()
                .and_then(|()| g.check_version(version))
                .and_then(|()| {
                    g.m.play(square, now)
                        .map(|_| ())
                        .map_err(|e| local_refusal(&e, &g.m))
                })
                .map_err(Some),
            ClientMsg::Undo { version, .. } => g
                .check_playing()
                .and_then(|()| g.check_version(version))
                .and_then(|()| {
                    g.m.undo(now)
                        .map(|_| ())
                        .map_err(|e| local_refusal(&e, &g.m))
                })
                .map_err(Some),
            ClientMsg::Resign { .. } => g.m.resign(now).map_err(|e| Some(local_refusal(&e, &g.m))),
            ClientMsg::LocalNew { .. } => unreachable!("handled above"),
        };
        match result {
            Ok(()) => {}
            Err(Some(r)) => {
                a.out.push(error_json(&r, Some(kind), rid.as_ref()));
                if !ticked {
                    return;
                }
            }
            Err(None) => {
                if !ticked {
                    return;
                }
            }
        }
        a.out.push(g.state(now));
        a.saved = Some(Some(g.saved()));
    });
}

fn new_game(
    mode: Mode,
    color: Option<Color>,
    level: Option<String>,
    time: Option<TimeSpec>,
    board: Option<String>,
    now: Millis,
) -> Result<WebGame, Refusal> {
    let time = time.unwrap_or(TimeSpec::Unlimited);
    let control = control_of(&time)?;
    let level = match level.as_deref() {
        None => Level::Easy,
        Some(name @ ("easy" | "normal" | "hard" | "expert")) => {
            name.parse().expect("a level's name")
        }
        Some(other) => {
            return Err(refusal(
                "bad_message",
                format!("{other:?} is not a level (expected easy, normal, hard or expert)"),
            ))
        }
    };
    let start = match board {
        None => Position::initial(),
        Some(b) => Position::from_board_string(&b)
            .map_err(|e| refusal("bad_board", format!("bad board string: {e}")))?,
    };
    let opponent = match mode {
        Mode::Computer => Opponent::Computer(level),
        Mode::TwoPlayers => Opponent::Person,
    };
    let seed = fresh(now);
    let settings = Settings::new(opponent, color.unwrap_or(Color::Black), control, seed);
    Ok(WebGame {
        id: format!("L{:012x}", fresh(now) >> 16),
        token: format!("{:016x}{:016x}", fresh(now), fresh(now)),
        time,
        m: LocalMatch::from_position(settings, start, now),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(v: Value) -> Value {
        serde_json::from_str(&crate::call(&v.to_string())).unwrap()
    }

    fn local(msg: Value, now: u64) -> Value {
        call(json!({"type": "local", "msg": msg, "now": now}))
    }

    fn new_game(msg: Value, now: u64) -> (String, Value) {
        let a = local(msg, now);
        assert_eq!(a["out"][0]["type"], "local_started", "{a}");
        (a["out"][0]["game"].as_str().unwrap().to_string(), a)
    }

    #[test]
    fn a_new_game_answers_started_then_state() {
        let (id, a) = new_game(
            json!({"type": "local_new", "mode": "computer", "color": "white", "level": "normal",
                   "time": {"kind": "per_move", "secs": 15}, "rid": 7}),
            1_000,
        );
        assert!(id.starts_with('L') && id.len() == 13, "{id}");
        assert_eq!(a["out"][0]["rid"], 7);
        assert_eq!(a["out"][0]["token"].as_str().unwrap().len(), 32);
        let s = &a["out"][1];
        assert_eq!(s["type"], "state");
        assert_eq!(s["kind"], "local");
        assert_eq!(s["version"], 1);
        assert_eq!(s["mode"], "computer");
        assert_eq!(s["human"], "white");
        assert_eq!(s["level"], "normal");
        assert_eq!(s["time"], json!({"kind": "per_move", "secs": 15}));
        assert_eq!(s["status"], "playing");
        assert_eq!(s["result"], Value::Null);
        assert_eq!(s["clock"]["black_ms"], 15_000);
        assert_eq!(s["clock"]["running"], "black");
        assert_eq!(s["clock"]["server_time"], 1_000);
        assert_eq!(s["can_undo"], false);
        assert_eq!(s["thinking"], true);
        assert_eq!(s["to_move"], "black");
        assert_eq!(s["count"], json!({"black": 2, "white": 2}));
        assert_eq!(s["legal"].as_array().unwrap().len(), 4);
        assert_eq!(s["squares"].as_array().unwrap().len(), 64);
        assert_eq!(s["history"], json!([]));
        assert_eq!(a["timeout"], 16_000);
        assert_eq!(a["think"], true);
        assert!(a["saved"].is_object());

        // The computer moves.
        let t = call(json!({"type": "local_think", "now": 2_000}));
        let s = &t["out"][0];
        assert_eq!(s["version"], 2);
        assert_eq!(s["thinking"], false);
        assert_eq!(s["to_move"], "white");
        assert_eq!(s["last"]["color"], "black");
        assert_eq!(t["think"], false);
        assert!(t["saved"].is_object());
        // Nothing more to think about.
        let t = call(json!({"type": "local_think", "now": 2_100}));
        assert_eq!(t["out"], json!([]));
        assert!(t.get("saved").is_none());
    }

    #[test]
    fn moves_undo_resign_and_their_refusals() {
        let (id, _) = new_game(json!({"type": "local_new", "mode": "two_players"}), 0);
        let a = local(
            json!({"type": "move", "game": id, "square": "f5", "version": 1}),
            10,
        );
        assert_eq!(a["out"][0]["version"], 2);
        assert_eq!(a["out"][0]["last"]["square"], "f5");
        assert_eq!(a["out"][0]["can_undo"], true);
        let a = local(
            json!({"type": "move", "game": id, "square": "f6", "version": 1, "rid": "r"}),
            20,
        );
        assert_eq!(a["out"][0]["code"], "stale_version");
        assert_eq!(a["out"][0]["rid"], "r");
        assert_eq!(a["out"][0]["request"], "move");
        assert!(a.get("saved").is_none());
        let a = local(
            json!({"type": "move", "game": id, "square": "a1", "version": 2}),
            20,
        );
        assert_eq!(a["out"][0]["code"], "illegal_move");
        let a = local(
            json!({"type": "move", "game": "Lnope", "square": "f6", "version": 2}),
            20,
        );
        assert_eq!(a["out"][0]["code"], "no_such_game");
        let a = local(json!({"type": "undo", "game": id, "version": 2}), 30);
        assert_eq!(a["out"][0]["version"], 3);
        assert_eq!(a["out"][0]["history"], json!([]));
        let a = local(json!({"type": "undo", "game": id, "version": 3}), 30);
        assert_eq!(a["out"][0]["code"], "nothing_to_undo");
        let a = local(json!({"type": "sync", "game": id, "rid": 5}), 40);
        assert_eq!(a["out"][0]["rid"], 5);
        assert_eq!(a["out"][0]["version"], 3);
        let a = local(json!({"type": "resign", "game": id}), 50);
        assert_eq!(a["out"][0]["status"], "over");
        assert_eq!(
            a["out"][0]["result"],
            json!({"winner": "white", "reason": "resignation"})
        );
        let a = local(json!({"type": "resign", "game": id}), 60);
        assert_eq!(a["out"][0]["code"], "game_over");
        let a = local(json!({"type": "undo", "game": id, "version": 4}), 60);
        assert_eq!(a["out"][0]["code"], "game_over");
        let a = local(json!({"type": "local_close", "game": id, "rid": 9}), 70);
        assert_eq!(
            a["out"],
            json!([{"type": "local_closed", "game": id, "rid": 9}])
        );
        assert_eq!(a["saved"], Value::Null);
        let a = local(json!({"type": "sync", "game": id}), 80);
        assert_eq!(a["out"][0]["code"], "no_such_game");
    }

    #[test]
    fn the_person_waits_for_the_computer_and_undoes_a_pair() {
        let (id, _) = new_game(
            json!({"type": "local_new", "mode": "computer", "level": "easy"}),
            0,
        );
        let a = local(
            json!({"type": "move", "game": id, "square": "f5", "version": 1}),
            10,
        );
        assert_eq!(a["think"], true);
        assert_eq!(a["out"][0]["thinking"], true);
        let a = local(
            json!({"type": "move", "game": id, "square": "f6", "version": 2}),
            11,
        );
        assert_eq!(a["out"][0]["code"], "not_your_turn");
        call(json!({"type": "local_think", "now": 12}));
        let a = local(json!({"type": "undo", "game": id, "version": 3}), 13);
        let s = &a["out"][0];
        assert_eq!(s["history"], json!([]));
        assert_eq!(s["to_move"], "black");
        assert_eq!(s["can_undo"], false);
        assert_eq!(a["think"], false);
    }

    #[test]
    fn time_runs_out_on_tick_and_while_away() {
        let (id, a) = new_game(
            json!({"type": "local_new", "mode": "two_players",
                   "time": {"kind": "per_move_ms", "ms": 300}}),
            1_000,
        );
        assert_eq!(a["timeout"], 1_300);
        let saved = a["saved"].clone();
        let t = call(json!({"type": "local_tick", "now": 1_299}));
        assert_eq!(t["out"], json!([]));
        assert_eq!(t["timeout"], 1_300);
        let t = call(json!({"type": "local_tick", "now": 1_300}));
        let s = &t["out"][0];
        assert_eq!(s["status"], "over");
        assert_eq!(s["result"], json!({"winner": "white", "reason": "timeout"}));
        assert_eq!(t["timeout"], Value::Null);
        // A move that comes late finds the game lost.
        let a = local(
            json!({"type": "move", "game": id, "square": "f5", "version": 2}),
            1_400,
        );
        assert_eq!(a["out"][0]["code"], "game_over");

        // The saved game, loaded later: lost on time while away.
        let l = call(json!({"type": "local_load", "data": saved, "now": 5_000}));
        let s = &l["out"][0];
        assert_eq!(s["type"], "state");
        assert_eq!(s["game"], id);
        assert_eq!(s["result"]["reason"], "timeout");
        // Loaded in time: it goes on.
        let l = call(json!({"type": "local_load", "data": saved, "now": 1_100}));
        assert_eq!(l["out"][0]["status"], "playing");
        assert_eq!(l["out"][0]["clock"]["black_ms"], 200);
        assert_eq!(l["timeout"], 1_300);
    }

    #[test]
    fn bad_saved_data_and_bad_requests_are_refused() {
        for data in [
            json!(null),
            json!({"version": 1}),
            json!({"version": 2, "game": "L1", "token": "t", "time": {"kind": "unlimited"}, "match": {}}),
        ] {
            let l = call(json!({"type": "local_load", "data": data, "now": 0}));
            assert_eq!(l["out"][0]["code"], "bad_saved_game", "{l}");
            assert!(l.get("saved").is_none());
        }
        // A saved game whose time spec does not match its clock.
        let (_, a) = new_game(json!({"type": "local_new", "mode": "two_players"}), 0);
        let mut saved = a["saved"].clone();
        saved["time"] = json!({"kind": "per_move", "secs": 30});
        let l = call(json!({"type": "local_load", "data": saved, "now": 0}));
        assert_eq!(l["out"][0]["code"], "bad_saved_game");

        let l = call(json!({"type": "local_tick"}));
        assert_eq!(l["out"][0]["code"], "bad_request");
        let l = call(json!({"type": "local", "now": 1, "msg": [1]}));
        assert_eq!(l["out"][0]["code"], "not_an_object");
        let l = call(json!({"type": "local", "now": 1, "msg": {"rid": 3}}));
        assert_eq!(l["out"][0]["code"], "missing_type");
        let l = call(json!({"type": "local", "now": 1, "msg": {"type": "queue"}}));
        assert_eq!(l["out"][0]["code"], "unknown_type");
        let l = call(json!({"type": "local", "now": 1, "msg": {"type": "move", "game": "L1"}}));
        assert_eq!(l["out"][0]["code"], "bad_message");
        for time in [
            json!({"kind": "per_move", "secs": 20}),
            json!({"kind": "total", "input": "ten"}),
        ] {
            let l = local(
                json!({"type": "local_new", "mode": "two_players", "time": time}),
                1,
            );
            assert_eq!(l["out"][0]["code"], "bad_time");
        }
        let l = local(
            json!({"type": "local_new", "mode": "computer", "level": "grandmaster"}),
            1,
        );
        assert_eq!(l["out"][0]["code"], "bad_message");
        let l = local(
            json!({"type": "local_new", "mode": "two_players", "board": "XO"}),
            1,
        );
        assert_eq!(l["out"][0]["code"], "bad_board");
    }

    #[test]
    fn a_board_where_black_must_pass_starts_with_the_pass() {
        let board = format!("{}X- X", "O".repeat(62));
        let (_, a) = new_game(
            json!({"type": "local_new", "mode": "computer", "level": "hard", "board": board}),
            0,
        );
        let s = &a["out"][1];
        assert_eq!(s["passed"], "black");
        assert_eq!(s["to_move"], "white");
        assert_eq!(s["history"], json!([{"color": "black", "move": "pass"}]));
        assert_eq!(a["think"], true);
        let t = call(json!({"type": "local_think", "now": 10}));
        let s = &t["out"][0];
        assert_eq!(s["status"], "over");
        assert_eq!(s["result"], json!({"winner": "white", "reason": "board"}));
        assert_eq!(s["count"], json!({"black": 0, "white": 64}));
    }
}
