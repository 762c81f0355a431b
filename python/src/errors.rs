//! Python exceptions for the typed errors of the Rust crates.
//!
//! `ReversiError` (a `ValueError`) is every bad input: a square, move, colour, board string,
//! transcript or array that does not parse or is not legal. `IllegalMoveError` and
//! `GameOverError` are the two kinds a caller most often wants to tell apart. `SearchStopped` (a
//! `RuntimeError`) is a search that a stop token, a node limit or a time limit ended before it
//! had an exact result. The message is always the `Display` of the Rust error.

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::PyErr;
use reversi_ai::AiError;
use reversi_core::{Error, PlayError};

create_exception!(
    reversi,
    ReversiError,
    PyValueError,
    "Bad input: a square, move, colour, board string, transcript or array that does not parse, or an illegal move."
);
create_exception!(
    reversi,
    IllegalMoveError,
    ReversiError,
    "A move that is not legal in the position (occupied square, no flips, a pass with moves)."
);
create_exception!(
    reversi,
    GameOverError,
    ReversiError,
    "A move, a search or a solve asked of a finished game."
);
create_exception!(
    reversi,
    SearchStopped,
    PyRuntimeError,
    "A search or count stopped (stop token, node or time limit) before its exact result."
);

/// The Python exception of a `reversi-core` error (any of its error types).
pub fn core_err(e: impl Into<Error>) -> PyErr {
    let e = e.into();
    let msg = e.to_string();
    match e {
        Error::Play(PlayError::GameOver) => GameOverError::new_err(msg),
        Error::Play(_) => IllegalMoveError::new_err(msg),
        _ => ReversiError::new_err(msg),
    }
}

/// The Python exception of a `reversi-ai` error.
pub fn ai_err(e: AiError) -> PyErr {
    match e {
        AiError::Play(e) => core_err(e),
        AiError::GameOver => GameOverError::new_err(e.to_string()),
        AiError::Interrupted { .. } => SearchStopped::new_err(e.to_string()),
        _ => ReversiError::new_err(e.to_string()),
    }
}

/// A `ReversiError` with a message of the bindings' own (for input the Rust crates take typed).
pub fn bad(msg: impl Into<String>) -> PyErr {
    ReversiError::new_err(msg.into())
}
