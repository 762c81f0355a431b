//! The Python module `reversi._reversi`: the workspace's rules, perft, solver, hints, levels and
//! NumPy batch helpers, wrapped with PyO3. The Python package `reversi` (pysrc/) re-exports it and
//! adds the dtype handling of the batch helpers.
//!
//! Conventions kept throughout: squares are names (`"d3"`) or indices 0-63 (`a1` = 0, `h1` = 7,
//! `a8` = 56, the bit of a mask); a move is a square or `"pass"`; colours are `"black"` and
//! `"white"`; every error of user input is a Python exception carrying the message of the typed
//! Rust error; long calls release the GIL and can be stopped (a `StopToken`, a node or time
//! limit, or Ctrl-C).

mod batch;
mod errors;
mod game;
mod position;
mod run;
mod search;

use pyo3::prelude::*;

#[pymodule]
fn _reversi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ReversiError", py.get_type::<errors::ReversiError>())?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("GameOverError", py.get_type::<errors::GameOverError>())?;
    m.add("SearchStopped", py.get_type::<errors::SearchStopped>())?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PyTurn>()?;
    m.add_class::<run::StopToken>()?;
    m.add_class::<search::PySolver>()?;
    m.add_class::<search::PySolution>()?;
    m.add_class::<search::PyHint>()?;
    m.add_class::<search::PyEngine>()?;
    m.add_class::<search::PySearchResult>()?;
    m.add_function(wrap_pyfunction!(position::symmetry_square, m)?)?;
    m.add_function(wrap_pyfunction!(search::perft, m)?)?;
    m.add_function(wrap_pyfunction!(search::solve, m)?)?;
    m.add_function(wrap_pyfunction!(search::hints, m)?)?;
    m.add_function(wrap_pyfunction!(search::choose_move, m)?)?;
    m.add_function(wrap_pyfunction!(search::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(batch::masks_to_planes, m)?)?;
    m.add_function(wrap_pyfunction!(batch::planes_to_masks, m)?)?;
    m.add_function(wrap_pyfunction!(batch::positions_to_masks, m)?)?;
    m.add_function(wrap_pyfunction!(batch::legal_moves_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::play_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::evaluate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::symmetries_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::solve_batch, m)?)?;
    m.add(
        "SYMMETRIES",
        position::SYMMETRY_NAMES
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    )?;
    m.add("LEVELS", vec!["easy", "normal", "hard", "expert"])?;
    m.add("PERFT_CONVENTIONS", vec!["oeis", "edax", "no-pass"])?;
    Ok(())
}
