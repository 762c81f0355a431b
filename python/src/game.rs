//! `Game`: a game record with automatic passes and undo.

use crate::errors::core_err;
use crate::position::{color_name, outcome_name, parse_color, parse_move, PyPosition};
use pyo3::prelude::*;
use reversi_core::{Game, Move, Position};

/// What :meth:`Game.play` did.
#[pyclass(name = "Turn", module = "reversi", frozen, get_all)]
pub struct PyTurn {
    /// Who placed the disc: ``"black"`` or ``"white"``.
    color: &'static str,
    /// Where, as a square name.
    square: String,
    /// The flipped discs, nearest first.
    flips: Vec<String>,
    /// The colour that then had to pass, if any.
    passed: Option<&'static str>,
    /// ``"black"``, ``"white"`` or ``"draw"`` if the game ended with this move.
    outcome: Option<&'static str>,
}

#[pymethods]
impl PyTurn {
    fn __repr__(&self) -> String {
        format!(
            "Turn(color={:?}, square={:?}, flips={:?}, passed={:?}, outcome={:?})",
            self.color, self.square, self.flips, self.passed, self.outcome
        )
    }
}

/// A game record from a start position: moves, the automatic passes between them, and undo.
///
/// When a move leaves the next side without a legal move while the other side has one, the
/// pass is recorded at once, so the current position always has a move unless the game is over.
#[pyclass(name = "Game", module = "reversi")]
#[derive(Clone)]
pub struct PyGame {
    inner: Game,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (start = None))]
    fn new(start: Option<&PyPosition>) -> Self {
        PyGame {
            inner: start.map_or_else(Game::new, |p| Game::from_position(p.inner)),
        }
    }

    /// A game from a transcript such as ``"f5d6c3d3"`` (``pass``/``ps`` tokens optional),
    /// played from ``start`` (default: the start position).
    #[staticmethod]
    #[pyo3(signature = (transcript, start = None))]
    fn from_transcript(transcript: &str, start: Option<&PyPosition>) -> PyResult<Self> {
        let start = start.map_or_else(Position::initial, |p| p.inner);
        Game::transcript_from(start, transcript)
            .map(|inner| PyGame { inner })
            .map_err(core_err)
    }

    /// Plays a move for the side to move (a square name or index). Raises
    /// :class:`IllegalMoveError` or :class:`GameOverError`, and then changes nothing.
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<PyTurn> {
        let t = self.inner.play(parse_move(r#move)?).map_err(core_err)?;
        Ok(PyTurn {
            color: color_name(t.color),
            square: t.square.to_string(),
            flips: t.flips.iter().map(|s| s.to_string()).collect(),
            passed: t.passed.map(color_name),
            outcome: t.outcome.map(outcome_name),
        })
    }

    /// Takes back the last ply (a move, or an automatic pass with the move before it).
    fn undo(&mut self) -> PyResult<()> {
        self.inner.undo().map_err(core_err)
    }

    /// Takes back plies until it is ``color``'s turn at a move it made; returns how many.
    fn undo_turn(&mut self, color: &str) -> PyResult<usize> {
        self.inner.undo_turn(parse_color(color)?).map_err(core_err)
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PyPosition {
        (*self.inner.position()).into()
    }

    /// The start position.
    #[getter]
    fn start(&self) -> PyPosition {
        (*self.inner.start()).into()
    }

    /// Every position from the start to the current one (one more than the plies).
    #[getter]
    fn positions(&self) -> Vec<PyPosition> {
        self.inner.positions().iter().map(|&p| p.into()).collect()
    }

    /// The plies as move names, passes included (``"pass"``).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.inner
            .plies()
            .iter()
            .map(|p| p.mv.to_string())
            .collect()
    }

    /// The plies' colours, in order (``"black"``/``"white"``), passes included.
    #[getter]
    fn colors(&self) -> Vec<&'static str> {
        self.inner
            .plies()
            .iter()
            .map(|p| color_name(p.color))
            .collect()
    }

    /// ``(ply index, colour)`` of each pass.
    #[getter]
    fn passes(&self) -> Vec<(usize, &'static str)> {
        self.inner
            .passes()
            .map(|(i, c)| (i, color_name(c)))
            .collect()
    }

    /// ``(colour, square)`` of the last disc placed, or ``None``.
    #[getter]
    fn last_move(&self) -> Option<(&'static str, String)> {
        self.inner
            .last_move()
            .map(|(c, s)| (color_name(c), s.to_string()))
    }

    /// The transcript (``"f5d6c3"``), with ``pass`` tokens if ``passes`` is true.
    #[pyo3(signature = (passes = false))]
    fn transcript(&self, passes: bool) -> String {
        if passes {
            self.inner.transcript_with_passes()
        } else {
            self.inner.transcript()
        }
    }

    /// The legal moves of the side to move.
    fn legal_moves(&self) -> Vec<String> {
        crate::position::square_names(self.inner.position().legal_moves())
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// ``"black"``, ``"white"`` or ``"draw"`` once over, else ``None``.
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        self.inner.outcome().map(outcome_name)
    }

    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __len__(&self) -> usize {
        self.inner.plies().len()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGame>()
            .is_ok_and(|o| o.borrow().inner == self.inner)
    }

    fn __repr__(&self) -> String {
        let t = self.inner.transcript_with_passes();
        if *self.inner.start() == Position::initial() {
            format!("Game.from_transcript('{t}')")
        } else {
            format!(
                "Game.from_transcript('{t}', start=Position('{}'))",
                self.inner.start().to_board_string()
            )
        }
    }
}

/// A pass as a move name, for the result types.
pub fn move_name(m: Move) -> String {
    m.to_string()
}
