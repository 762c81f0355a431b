//! Batch helpers on NumPy arrays, for training pipelines. A batch of boards is an array of
//! shape `(N, 2)` and dtype uint64: `[i, 0]` the discs of the side to move, `[i, 1]` the
//! other side's (bit k is square k, `a1` = bit 0, `h1` = bit 7, `a8` = bit 56). Planes are
//! `(N, 2, 8, 8)` uint8 in the same order, `planes[i, c, row, column]` with row 0 = rank 1.
//! The computing part of each call runs with the GIL released.

use crate::errors::{ai_err, bad, core_err, SearchStopped};
use crate::position::PyPosition;
use crate::run::{blocking, StopToken};
use crate::search::{eval_discs, scoring, weights};
use numpy::{
    PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray4,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use reversi_ai::{Scoring, SolveOptions, Solver};
use reversi_core::{
    Bitboard, Color, Error, Move, ParseSquareError, Position, PositionError, Square, Symmetry,
};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Writes the 128 plane cells of (`p`, `o`) into `out`.
pub fn fill_planes(p: u64, o: u64, out: &mut [u8]) {
    for k in 0..64 {
        out[k] = ((p >> k) & 1) as u8;
        out[64 + k] = ((o >> k) & 1) as u8;
    }
}

/// Reads a `(N, 2)` uint64 batch, checking that no row has a disc of both sides on a square.
fn read_masks(masks: &PyReadonlyArray2<'_, u64>) -> PyResult<Vec<(u64, u64)>> {
    let shape = masks.shape();
    if shape[1] != 2 {
        return Err(bad(format!(
            "a batch of boards has shape (N, 2), found ({}, {})",
            shape[0], shape[1]
        )));
    }
    let a = masks.as_array();
    let mut out = Vec::with_capacity(shape[0]);
    for (i, row) in a.outer_iter().enumerate() {
        let (p, o) = (row[0], row[1]);
        if let Some(sq) = Bitboard(p & o).first() {
            return Err(bad(format!("row {i}: {}", PositionError::Overlap(sq))));
        }
        out.push((p, o));
    }
    Ok(out)
}

/// A `(N, 2)` uint64 array from pairs.
fn masks_array<'py>(py: Python<'py>, rows: &[(u64, u64)]) -> PyResult<Bound<'py, PyAny>> {
    let flat: Vec<u64> = rows.iter().flat_map(|&(p, o)| [p, o]).collect();
    Ok(PyArray1::from_vec(py, flat)
        .reshape([rows.len(), 2])?
        .into_any())
}

/// Planes ``(N, 2, 8, 8)`` uint8 from masks ``(N, 2)`` uint64.
#[pyfunction]
pub fn masks_to_planes<'py>(
    py: Python<'py>,
    masks: PyReadonlyArray2<'py, u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows = read_masks(&masks)?;
    let v = py.detach(|| {
        let mut v = vec![0u8; rows.len() * 128];
        for (i, &(p, o)) in rows.iter().enumerate() {
            fill_planes(p, o, &mut v[i * 128..(i + 1) * 128]);
        }
        v
    });
    Ok(PyArray1::from_vec(py, v)
        .reshape([rows.len(), 2, 8, 8])?
        .into_any())
}

/// Masks ``(N, 2)`` uint64 from planes ``(N, 2, 8, 8)`` uint8 (any non-zero cell is a disc).
#[pyfunction]
pub fn planes_to_masks<'py>(
    py: Python<'py>,
    planes: PyReadonlyArray4<'py, u8>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = planes.shape();
    if s[1..] != [2, 8, 8] {
        return Err(bad(format!(
            "planes have shape (N, 2, 8, 8), found ({}, {}, {}, {})",
            s[0], s[1], s[2], s[3]
        )));
    }
    let a = planes.as_array();
    let mut rows = Vec::with_capacity(s[0]);
    for (i, board) in a.outer_iter().enumerate() {
        let mut m = [0u64; 2];
        for c in 0..2 {
            for r in 0..8 {
                for col in 0..8 {
                    if board[[c, r, col]] != 0 {
                        m[c] |= 1 << (r * 8 + col);
                    }
                }
            }
        }
        if let Some(sq) = Bitboard(m[0] & m[1]).first() {
            return Err(bad(format!("row {i}: {}", PositionError::Overlap(sq))));
        }
        rows.push((m[0], m[1]));
    }
    masks_array(py, &rows)
}

/// Masks ``(N, 2)`` uint64 (side to move first) of a sequence of positions.
#[pyfunction]
pub fn positions_to_masks<'py>(
    py: Python<'py>,
    positions: Vec<PyRef<'py, PyPosition>>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows: Vec<(u64, u64)> = positions
        .iter()
        .map(|p| (p.inner.player().0, p.inner.opponent().0))
        .collect();
    masks_array(py, &rows)
}

/// The legal moves of each board as a mask, ``(N,)`` uint64.
#[pyfunction]
pub fn legal_moves_batch<'py>(
    py: Python<'py>,
    masks: PyReadonlyArray2<'py, u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows = read_masks(&masks)?;
    let v: Vec<u64> = py.detach(|| {
        rows.iter()
            .map(|&(p, o)| reversi_core::movegen::legal_moves(p, o))
            .collect()
    });
    Ok(PyArray1::from_vec(py, v).into_any())
}

/// The boards after one move each: ``moves`` ``(N,)`` int64 holds square indices 0-63, or -1
/// for a pass (legal only when the side to move has no move and the other side has one). The
/// result is ``(N, 2)`` uint64 from the new side to move. Raises :class:`IllegalMoveError` or
/// :class:`GameOverError` naming the first bad row.
#[pyfunction]
pub fn play_batch<'py>(
    py: Python<'py>,
    masks: PyReadonlyArray2<'py, u64>,
    moves: PyReadonlyArray1<'py, i64>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows = read_masks(&masks)?;
    let moves = moves.as_array();
    if moves.len() != rows.len() {
        return Err(bad(format!(
            "{} boards but {} moves",
            rows.len(),
            moves.len()
        )));
    }
    let moves: Vec<i64> = moves.iter().copied().collect();
    let out: Result<Vec<(u64, u64)>, (usize, Error)> = py.detach(|| {
        rows.iter()
            .zip(&moves)
            .enumerate()
            .map(|(i, (&(p, o), &m))| {
                let mv = match m {
                    -1 => Move::Pass,
                    m => Move::Place(
                        u8::try_from(m)
                            .ok()
                            .and_then(Square::from_index)
                            .ok_or((i, ParseSquareError::Index(m.clamp(0, 255) as u8).into()))?,
                    ),
                };
                let pos = Position::from_player_opponent(Bitboard(p), Bitboard(o), Color::Black);
                let next = pos.play(mv).map_err(|e| (i, e.into()))?;
                Ok((next.player().0, next.opponent().0))
            })
            .collect()
    });
    match out {
        Ok(rows) => masks_array(py, &rows),
        Err((i, e)) => {
            let err = core_err(e);
            let msg = format!("row {i}: {}", err.value(py));
            // Same exception class, the row in front of the message.
            Err(PyErr::from_type(err.get_type(py), msg))
        }
    }
}

/// The trained evaluation of each board in discs for its side to move, ``(N,)`` float32 (what
/// :func:`evaluate` gives one position).
#[pyfunction]
pub fn evaluate_batch<'py>(
    py: Python<'py>,
    masks: PyReadonlyArray2<'py, u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows = read_masks(&masks)?;
    let w = weights()?;
    let v: Vec<f32> = py.detach(|| rows.iter().map(|&(p, o)| eval_discs(w, p, o)).collect());
    Ok(PyArray1::from_vec(py, v).into_any())
}

/// The eight symmetric images of each board, ``(N, 8, 2)`` uint64, in the order of
/// :data:`SYMMETRIES` (identity first), for data augmentation.
#[pyfunction]
pub fn symmetries_batch<'py>(
    py: Python<'py>,
    masks: PyReadonlyArray2<'py, u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows = read_masks(&masks)?;
    let v: Vec<u64> = py.detach(|| {
        rows.iter()
            .flat_map(|&(p, o)| {
                Symmetry::ALL
                    .into_iter()
                    .flat_map(move |s| [s.bitboard(Bitboard(p)).0, s.bitboard(Bitboard(o)).0])
            })
            .collect()
    });
    Ok(PyArray1::from_vec(py, v)
        .reshape([rows.len(), 8, 2])?
        .into_any())
}

/// The final score of a finished board for its side to move.
fn final_score(p: u64, o: u64, scoring: Scoring) -> i32 {
    let diff = p.count_ones() as i32 - o.count_ones() as i32;
    let empties = 64 - (p | o).count_ones() as i32;
    match scoring {
        Scoring::Wof if diff != 0 => diff + diff.signum() * empties,
        _ => diff,
    }
}

/// Exact scores of each board for its side to move, ``(N,)`` int32 (training targets for
/// endgame positions): ``scoring`` ``"wof"`` or ``"disc"``, ``wld=True`` for -1/0/+1, on
/// ``threads`` threads each with a solver of 2^``table_bits`` entries. A finished board scores
/// its final result. Releases the GIL; ``stop`` raises :class:`SearchStopped`, Ctrl-C
/// ``KeyboardInterrupt``.
#[pyfunction]
#[pyo3(signature = (masks, scoring = "wof", wld = false, threads = 1, table_bits = 20, stop = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve_batch<'py>(
    py: Python<'py>,
    masks: PyReadonlyArray2<'py, u64>,
    scoring: &str,
    wld: bool,
    threads: usize,
    table_bits: u32,
    stop: Option<&StopToken>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows = read_masks(&masks)?;
    let sc = self::scoring(scoring)?;
    let opts = SolveOptions::exact(sc).with_wld(wld);
    let out = Mutex::new(vec![0i32; rows.len()]);
    let failed = Mutex::new(None);
    let stopped = blocking(py, stop, |flag| {
        let next = AtomicUsize::new(0);
        let work = || {
            let mut solver = Solver::with_table_bits(table_bits);
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(p, o)) = rows.get(i) else { break };
                let pos = Position::from_player_opponent(Bitboard(p), Bitboard(o), Color::Black);
                let score = if pos.is_game_over() {
                    let s = final_score(p, o, sc);
                    if wld {
                        s.signum()
                    } else {
                        s
                    }
                } else {
                    match solver.solve_with(&pos, &opts, &reversi_ai::Limits::NONE, flag) {
                        Ok(s) => s.score,
                        Err(e) => {
                            failed.lock().expect("lock").get_or_insert((i, e));
                            flag.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                };
                out.lock().expect("lock")[i] = score;
            }
        };
        let threads = threads.clamp(1, rows.len().max(1));
        std::thread::scope(|s| {
            for _ in 1..threads {
                s.spawn(work);
            }
            work();
        });
        flag.load(Ordering::Relaxed)
    })?;
    if let Some((i, e)) = failed.into_inner().expect("lock") {
        let err = ai_err(e);
        let msg = format!("row {i}: {}", err.value(py));
        return Err(PyErr::from_type(err.get_type(py), msg));
    }
    if stopped {
        return Err(SearchStopped::new_err(
            "the batch solve was stopped before it finished",
        ));
    }
    Ok(PyArray1::from_vec(py, out.into_inner().expect("lock")).into_any())
}
