//! # reversi-web
//!
//! The engine of the web page's local games: the rules, the levels and the clock of the workspace,
//! compiled to WebAssembly and driven from a Web Worker, so that a local game never touches the
//! server. The page keeps no rules of its own.
//!
//! The interface is one function, [`call`]: a JSON request in, a JSON answer out. The WebAssembly
//! module exports it as plain C functions (see [`ffi`]) that a small hand-written JavaScript
//! wrapper (`static/engine.js` of the server package) calls.
//!
//! ```
//! let answer = reversi_web::call(r#"{"type":"perft","depth":3}"#);
//! assert_eq!(answer, r#"{"count":56,"depth":3,"type":"perft"}"#);
//! ```
//!
//! The module is built without the Expert level's trained weights (5 MB): the worker fetches
//! the file from the server and hands its bytes to [`install_weights`] (through
//! [`ffi::rv_weights`]). From then on the Expert level plays on them and midgame hints are in
//! discs.

use std::sync::atomic::AtomicBool;

use reversi_ai::pattern::Weights;
use reversi_ai::{hints, midgame_hints_in_discs, Limits, Scoring, SolveOptions, Solver};
use reversi_core::perft::{perft, Convention};
use reversi_core::Position;
use serde_json::{json, Value};

pub mod ffi;
mod local;

/// A request to [`call`], by its `type`. Read by hand ([`Request::read`]): a derived reader of
/// a tagged enum costs the module kilobytes.
#[derive(Debug)]
enum Request {
    /// Perft in the OEIS A124004 convention, from the start or from `board`.
    Perft { depth: u32, board: Option<String> },
    /// The exact score (WOF convention) and a best move of `board`.
    Solve { board: String },
    /// Every legal move of `board` scored for the side to move, best first.
    Hints { board: String },
}

impl Request {
    fn read(v: &Value) -> Result<Request, String> {
        match v.get("type").and_then(Value::as_str) {
            Some("perft") => {
                let f = local::Fields::new(v, &["type", "depth", "board"])?;
                Ok(Request::Perft {
                    depth: f.req("depth")?,
                    board: f.opt("board")?,
                })
            }
            Some("solve") => {
                let f = local::Fields::new(v, &["type", "board"])?;
                Ok(Request::Solve {
                    board: f.req("board")?,
                })
            }
            Some("hints") => {
                let f = local::Fields::new(v, &["type", "board"])?;
                Ok(Request::Hints {
                    board: f.req("board")?,
                })
            }
            Some(other) => Err(format!(
                "unknown request type {other:?}, expected perft, solve, hints, local, local_load, local_tick or local_think"
            )),
            None => Err("the request has no string `type`".to_string()),
        }
    }
}

/// The search nodes a `hints` request may spend: a fraction of a second in a browser, and the
/// same scores on every run (a node limit, not a time limit).
pub const HINT_NODES: u64 = 300_000;

/// Reads a weights file (the Expert level's trained evaluation, `weights/expert.bin` of
/// `reversi-ai`) and installs it for the module ([`Weights::install`]): the Expert level then
/// plays on it and midgame hints are in discs. Answers `{"type":"weights","installed":true}`,
/// or `{"type":"error","code":"bad_weights","message":..}` saying what is wrong with the bytes
/// (nothing is installed then), never with a panic.
///
/// # Examples
///
/// ```
/// let a = reversi_web::install_weights(b"RVPW not really");
/// assert!(a.contains(r#""code":"bad_weights""#), "{a}");
/// ```
#[must_use]
pub fn install_weights(bytes: &[u8]) -> String {
    match Weights::from_bytes(bytes).and_then(Weights::install) {
        Ok(_) => json!({"type": "weights", "installed": true}).to_string(),
        Err(e) => {
            json!({"type": "error", "code": "bad_weights", "message": e.to_string()}).to_string()
        }
    }
}

/// Whether the Expert level has its weights (installed with [`install_weights`], or built in).
pub(crate) fn have_weights() -> bool {
    Weights::active().is_ok()
}

/// The deepest perft a request may ask for: deeper counts take minutes in a browser.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Answers one JSON request with one JSON answer.
///
/// Requests: `{"type":"perft","depth":D}` (optionally `"board":"<board string>"`), `{"type":"solve",
/// "board":"<board string>"}`, `{"type":"hints","board":"<board string>"}` (every legal move
/// scored for the side to move, best first: `{"type":"hints","moves":[{"square":"d3","score":0,
/// "exact":false},..],"unit":"discs"}`; an exact score is the final disc difference with perfect
/// play, any other is the engine's estimate: in discs (`"unit":"discs"`) once the Expert level's
/// weights are installed ([`install_weights`]), else in the evaluation's own points
/// (`"unit":"points"`)), and the local games' `local`, `local_load`, `local_tick` and
/// `local_think` (the contract between the page's worker and the module; they answer
/// `{"type":"local",...}`, errors included). Any other request that cannot be read or carried
/// out is answered `{"type":"error","code":..,"message":..}`, never with a panic.
///
/// # Examples
///
/// ```
/// let bad = reversi_web::call(r#"{"type":"perft","depth":99}"#);
/// assert!(bad.contains(r#""code":"bad_request""#));
///
/// let start = "---------------------------OX------XO--------------------------- X";
/// let hints = reversi_web::call(&format!(r#"{{"type":"hints","board":"{start}"}}"#));
/// assert!(hints.starts_with(r#"{"moves":[{"#), "{hints}");
/// ```
#[must_use]
pub fn call(request: &str) -> String {
    let error = |code: &str, message: String| {
        json!({"type": "error", "code": code, "message": message}).to_string()
    };
    let value: Value = match serde_json::from_str(request) {
        Ok(v) => v,
        Err(e) => return error("bad_request", e.to_string()),
    };
    let kind = value
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if local::is_local(kind) {
        return local::answer(&value).to_string();
    }
    answer(&value).unwrap_or_else(|(code, message)| error(code, message))
}

fn answer(request: &Value) -> Result<String, (&'static str, String)> {
    let request = Request::read(request).map_err(|e| ("bad_request", e))?;
    let position = |board: Option<&str>| -> Result<Position, (&'static str, String)> {
        match board {
            None => Ok(Position::initial()),
            Some(b) => b.parse().map_err(|e| ("bad_board", format!("{b:?}: {e}"))),
        }
    };
    match request {
        Request::Perft { depth, board } => {
            if depth > MAX_PERFT_DEPTH {
                return Err((
                    "bad_request",
                    format!("perft depth {depth} is above {MAX_PERFT_DEPTH}"),
                ));
            }
            let p = position(board.as_deref())?;
            Ok(
                json!({"type": "perft", "depth": depth, "count": perft(&p, depth, Convention::Oeis)})
                    .to_string(),
            )
        }
        Request::Solve { board } => {
            let p = position(Some(&board))?;
            // Ordered by the trained evaluation only once the page installed it, so that the
            // module answers the same natively (where the library may embed the weights) and
            // in the browser.
            let mut solver = if Weights::installed().is_some() {
                Solver::new()
            } else {
                Solver::new().without_weights()
            };
            let s = solver
                .solve(&p, &SolveOptions::default())
                .map_err(|e| ("game_over", e.to_string()))?;
            Ok(
                json!({"type": "solve", "score": s.score, "move": s.best_move, "nodes": s.nodes})
                    .to_string(),
            )
        }
        Request::Hints { board } => {
            let p = position(Some(&board))?;
            let list = hints(
                &p,
                &Limits::nodes(HINT_NODES),
                Scoring::DiscDifference,
                &AtomicBool::new(false),
            )
            .map_err(|e| ("game_over", e.to_string()))?;
            let moves: Vec<_> = list
                .iter()
                .filter_map(|h| {
                    let sq = h.mv.square()?;
                    Some(json!({"square": sq.to_string(), "score": h.score, "exact": h.exact}))
                })
                .collect();
            let unit = if midgame_hints_in_discs() {
                "discs"
            } else {
                "points"
            };
            Ok(json!({"type": "hints", "moves": moves, "unit": unit}).to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::call;
    use serde_json::Value;

    fn hints(board: &str) -> Value {
        let a = call(&serde_json::json!({"type": "hints", "board": board}).to_string());
        serde_json::from_str(&a).expect("JSON")
    }

    #[test]
    fn hints_rank_every_legal_move_best_first() {
        let h = hints("---------------------------OX------XO--------------------------- X");
        assert_eq!(h["type"], "hints", "{h}");
        let moves = h["moves"].as_array().expect("moves");
        let mut squares: Vec<&str> = moves
            .iter()
            .map(|m| m["square"].as_str().unwrap())
            .collect();
        squares.sort_unstable();
        assert_eq!(squares, ["c4", "d3", "e6", "f5"]);
        let scores: Vec<i64> = moves.iter().map(|m| m["score"].as_i64().unwrap()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        assert!(moves.iter().all(|m| m["exact"] == false));
    }

    #[test]
    fn hints_near_the_end_are_exact_disc_differences() {
        // Few empties: the scores are exact final disc differences.
        let board = "OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X";
        let h = hints(board);
        let moves = h["moves"].as_array().expect("moves");
        assert!(!moves.is_empty());
        assert!(moves.iter().all(|m| m["exact"] == true), "{h}");
        assert!(moves
            .iter()
            .all(|m| m["score"].as_i64().unwrap().abs() <= 64));
    }

    #[test]
    fn hints_refuse_a_bad_board_and_a_finished_game() {
        let bad = hints("not a board");
        assert_eq!(bad["code"], "bad_board", "{bad}");
        let full = format!("{} X", "X".repeat(64));
        assert_eq!(hints(&full)["code"], "game_over");
        let missing = call(r#"{"type":"hints"}"#);
        assert!(missing.contains("bad_request"), "{missing}");
    }
}
