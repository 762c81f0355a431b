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
use reversi_ai::{
    hints, midgame_hints_in_discs, Engine, Expert, Limits, Scoring, SolveOptions, Solver,
};
use reversi_core::perft::{perft, Convention};
use reversi_core::{Move, Position};
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
    /// The positions after each of `moves` (square names or `pass`), from the start or `board`.
    Replay {
        moves: Vec<String>,
        board: Option<String>,
    },
    /// The Expert level's evaluation of `board` for the side to move, in discs.
    Eval { board: String, nodes: Option<u64> },
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
            Some("replay") => {
                let f = local::Fields::new(v, &["type", "moves", "board"])?;
                Ok(Request::Replay {
                    moves: f.req("moves")?,
                    board: f.opt("board")?,
                })
            }
            Some("eval") => {
                let f = local::Fields::new(v, &["type", "board", "nodes"])?;
                Ok(Request::Eval {
                    board: f.req("board")?,
                    nodes: f.opt("nodes")?,
                })
            }
            Some(other) => Err(format!(
                "unknown request type {other:?}, expected perft, solve, hints, replay, eval, local, local_load, local_tick or local_think"
            )),
            None => Err("the request has no string `type`".to_string()),
        }
    }
}

/// The search nodes a `hints` request may spend: a fraction of a second in a browser, and the
/// same scores on every run (a node limit, not a time limit).
pub const HINT_NODES: u64 = 300_000;

/// The search nodes an `eval` request spends by default on a midgame position.
pub const EVAL_NODES: u64 = 200_000;

/// From this many empties down, `eval` solves the position exactly.
pub const EVAL_EXACT_EMPTIES: u32 = 14;

/// The final disc difference can be no larger than this, either way.
const MAX_DISCS: i32 = 64;

/// The Expert level's view of `p` for the side to move: `(score in discs, exact)`. Exact when the
/// game is over or at [`EVAL_EXACT_EMPTIES`] or fewer; otherwise a search of `nodes` nodes on the
/// trained evaluation (which must be installed). `None` without weights in the midgame.
fn evaluate(p: &Position, nodes: u64) -> Option<(i32, bool)> {
    let (me, them) = (p.player().0.count_ones(), p.opponent().0.count_ones());
    if p.is_game_over() {
        return Some((me as i32 - them as i32, true));
    }
    if p.must_pass() {
        return evaluate(&p.pass(), nodes).map(|(s, e)| (-s, e));
    }
    let empties = p.empty().count();
    if empties <= EVAL_EXACT_EMPTIES {
        let solver = Solver::with_table_bits((empties + 2).clamp(10, 21));
        let mut solver = if Weights::installed().is_some() {
            solver
        } else {
            solver.without_weights()
        };
        let s = solver
            .solve(p, &SolveOptions::exact(Scoring::DiscDifference))
            .ok()?;
        return Some((s.score.clamp(-MAX_DISCS, MAX_DISCS), true));
    }
    if !have_weights() {
        return None;
    }
    let r = Expert::new()
        .with_limits(Limits::nodes(nodes))
        .choose(p, &Limits::NONE, &AtomicBool::new(false))
        .ok()?;
    Some((r.score.clamp(-MAX_DISCS, MAX_DISCS), r.exact))
}

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
/// (`"unit":"points"`); every score within -64..64), `{"type":"replay","moves":["f5","pass",..]}`
/// (optionally `"board"`: the positions after each move, the start first:
/// `{"type":"replay","boards":[..]}`), `{"type":"eval","board":..}` (optionally `"nodes"`: the
/// Expert level's evaluation for the side to move in discs, `{"type":"eval","score":..,
/// "exact":..,"empties":..}`, exact at [`EVAL_EXACT_EMPTIES`] empties or fewer; midgame positions
/// need the weights installed, else `no_weights`), and the local games' `local`, `local_load`, `local_tick` and
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
                    // A score is a disc margin: never beyond 64 either way.
                    let score = h.score.clamp(-MAX_DISCS, MAX_DISCS);
                    Some(json!({"square": sq.to_string(), "score": score, "exact": h.exact}))
                })
                .collect();
            let unit = if midgame_hints_in_discs() {
                "discs"
            } else {
                "points"
            };
            Ok(json!({"type": "hints", "moves": moves, "unit": unit}).to_string())
        }
        Request::Replay { moves, board } => {
            let mut p = position(board.as_deref())?;
            let mut boards = vec![p.to_board_string()];
            for (i, name) in moves.iter().enumerate() {
                let bad = |why: String| ("bad_move", format!("move {} ({name:?}): {why}", i + 1));
                let m: Move = name.parse().map_err(|e| bad(format!("{e}")))?;
                // A placement where the side to move must pass: the pass was implied.
                if m != Move::Pass && p.must_pass() {
                    p = p.pass();
                }
                p = p.play(m).map_err(|e| bad(format!("{e}")))?;
                boards.push(p.to_board_string());
            }
            Ok(json!({"type": "replay", "boards": boards}).to_string())
        }
        Request::Eval { board, nodes } => {
            let p = position(Some(&board))?;
            let nodes = nodes.unwrap_or(EVAL_NODES).clamp(1_000, 5_000_000);
            match evaluate(&p, nodes) {
                Some((score, exact)) => Ok(json!({"type": "eval", "score": score, "exact": exact, "empties": p.empty().count()}).to_string()),
                None => Err((
                    "no_weights",
                    "the Expert level's evaluation is not installed".to_string(),
                )),
            }
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
    fn replay_gives_the_position_after_each_move() {
        let a: Value =
            serde_json::from_str(&call(r#"{"type":"replay","moves":["f5","d6"]}"#)).unwrap();
        let boards = a["boards"].as_array().expect("boards");
        assert_eq!(boards.len(), 3);
        assert!(boards[0].as_str().unwrap().ends_with(" X"));
        assert!(boards[1].as_str().unwrap().ends_with(" O"));
        let bad = call(r#"{"type":"replay","moves":["a1"]}"#);
        assert!(bad.contains("bad_move"), "{bad}");
    }

    #[test]
    fn eval_is_exact_near_the_end_and_in_range() {
        let board = "OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X";
        let a: Value = serde_json::from_str(&call(
            &serde_json::json!({"type": "eval", "board": board}).to_string(),
        ))
        .unwrap();
        assert_eq!(a["exact"], true, "{a}");
        assert!(a["score"].as_i64().unwrap().abs() <= 64);
        let over = format!("{} X", "X".repeat(64));
        let b: Value = serde_json::from_str(&call(
            &serde_json::json!({"type": "eval", "board": over}).to_string(),
        ))
        .unwrap();
        assert_eq!(b["score"], 64, "{b}");
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
