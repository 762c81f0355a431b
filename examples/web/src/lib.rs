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

use reversi_ai::{SolveOptions, Solver};
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
            Some(other) => Err(format!(
                "unknown request type {other:?}, expected perft, solve, local, local_load, local_tick or local_think"
            )),
            None => Err("the request has no string `type`".to_string()),
        }
    }
}

/// The deepest perft a request may ask for: deeper counts take minutes in a browser.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Answers one JSON request with one JSON answer.
///
/// Requests: `{"type":"perft","depth":D}` (optionally `"board":"<board string>"`), `{"type":"solve",
/// "board":"<board string>"}`, and the local games' `local`, `local_load`, `local_tick` and
/// `local_think` (the contract between the page's worker and the module; they answer
/// `{"type":"local",...}`, errors included). Any other request that cannot be read or carried
/// out is answered `{"type":"error","code":..,"message":..}`, never with a panic.
///
/// # Examples
///
/// ```
/// let bad = reversi_web::call(r#"{"type":"perft","depth":99}"#);
/// assert!(bad.contains(r#""code":"bad_request""#));
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
            let s = Solver::new()
                .solve(&p, &SolveOptions::default())
                .map_err(|e| ("game_over", e.to_string()))?;
            Ok(
                json!({"type": "solve", "score": s.score, "move": s.best_move, "nodes": s.nodes})
                    .to_string(),
            )
        }
    }
}
