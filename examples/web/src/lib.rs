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
use serde::Deserialize;
use serde_json::{json, Value};

pub mod ffi;
mod local;

/// A request to [`call`], by its `type`.
#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    /// Perft in the OEIS A124004 convention, from the start or from `board`.
    Perft {
        depth: u32,
        #[serde(default)]
        board: Option<String>,
    },
    /// The exact score (WOF convention) and a best move of `board`.
    Solve { board: String },
}

/// The deepest perft a request may ask for: deeper counts take minutes in a browser.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Answers one JSON request with one JSON answer.
///
/// Requests: `{"type":"perft","depth":D}` (optionally `"board":"<board string>"`), `{"type":"solve",
/// "board":"<board string>"}`, and the local games' `local`, `local_load`, `local_tick` and
/// `local_think` (see the contract in the server's `static/worker.js` and [`local`]'s tests). A request that cannot be read or carried out is answered
/// `{"type":"error","code":..,"message":..}`, never with a panic.
///
/// # Examples
///
/// ```
/// let bad = reversi_web::call(r#"{"type":"perft","depth":99}"#);
/// assert!(bad.contains(r#""code":"bad_request""#));
/// ```
#[must_use]
pub fn call(request: &str) -> String {
    if let Ok(value) = serde_json::from_str::<Value>(request) {
        if let Some(kind) = value.get("type").and_then(Value::as_str) {
            if local::is_local(kind) {
                return local::answer(&value).to_string();
            }
        }
    }
    answer(request)
        .unwrap_or_else(
            |(code, message)| json!({"type": "error", "code": code, "message": message}),
        )
        .to_string()
}

fn answer(request: &str) -> Result<Value, (&'static str, String)> {
    let request: Request =
        serde_json::from_str(request).map_err(|e| ("bad_request", e.to_string()))?;
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
                json!({"type": "perft", "depth": depth, "count": perft(&p, depth, Convention::Oeis)}),
            )
        }
        Request::Solve { board } => {
            let p = position(Some(&board))?;
            let s = Solver::new()
                .solve(&p, &SolveOptions::default())
                .map_err(|e| ("game_over", e.to_string()))?;
            Ok(json!({"type": "solve", "score": s.score, "move": s.best_move, "nodes": s.nodes}))
        }
    }
}
