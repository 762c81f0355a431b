//! `Position`: an immutable board with the side to move, and the conversions of squares,
//! moves, colours and symmetries from Python values.

use crate::errors::{bad, core_err};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString, PyTuple};
use reversi_core::{Bitboard, Color, Game, Move, Outcome, Position, Square, Symmetry};

/// Symmetry names, in the order of `Symmetry::ALL`.
pub const SYMMETRY_NAMES: [&str; 8] = [
    "identity",
    "rotate90",
    "rotate180",
    "rotate270",
    "flip_vertical",
    "flip_horizontal",
    "flip_diagonal",
    "flip_antidiagonal",
];

/// A symmetry from its name or its index in `SYMMETRIES`.
pub fn parse_symmetry(obj: &Bound<'_, PyAny>) -> PyResult<Symmetry> {
    if let Ok(i) = obj.extract::<i64>() {
        return usize::try_from(i)
            .ok()
            .and_then(|i| Symmetry::ALL.get(i).copied())
            .ok_or_else(|| bad(format!("{i} is not a symmetry index (expected 0 to 7)")));
    }
    let name: String = obj.extract()?;
    let key = name.trim().to_ascii_lowercase().replace('-', "_");
    SYMMETRY_NAMES
        .iter()
        .position(|n| *n == key)
        .map(|i| Symmetry::ALL[i])
        .ok_or_else(|| {
            bad(format!(
                "{name:?} is not a symmetry (expected one of {})",
                SYMMETRY_NAMES.join(", ")
            ))
        })
}

/// A square from its name (`"d3"`) or index (0-63).
pub fn parse_square(obj: &Bound<'_, PyAny>) -> PyResult<Square> {
    if obj.is_instance_of::<PyString>() {
        let s: String = obj.extract()?;
        return s.parse::<Square>().map_err(core_err);
    }
    if obj.is_instance_of::<PyInt>() {
        let i: i64 = obj.extract()?;
        return match u8::try_from(i) {
            Ok(i) => Square::try_from(i).map_err(core_err),
            Err(_) => Err(bad(format!("{i} is not a square index (expected 0 to 63)"))),
        };
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "a square is a name such as 'd3' or an index 0-63",
    ))
}

/// A move from a square (name or index) or `"pass"`/`"ps"`.
pub fn parse_move(obj: &Bound<'_, PyAny>) -> PyResult<Move> {
    if obj.is_instance_of::<PyString>() {
        let s: String = obj.extract()?;
        return s.parse::<Move>().map_err(core_err);
    }
    if obj.is_instance_of::<PyInt>() {
        return parse_square(obj).map(Move::Place);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "a move is a square name such as 'd3', an index 0-63, or 'pass'",
    ))
}

/// A colour from `"black"`/`"white"` (also `"X"`/`"O"`, `"b"`/`"w"`).
pub fn parse_color(s: &str) -> PyResult<Color> {
    s.parse::<Color>().map_err(core_err)
}

/// `"black"` or `"white"`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// `"black"`, `"white"` (the winner) or `"draw"`.
pub fn outcome_name(o: Outcome) -> &'static str {
    match o.winner() {
        Some(c) => color_name(c),
        None => "draw",
    }
}

/// The names of a set of squares, `a1` first.
pub fn square_names(b: Bitboard) -> Vec<String> {
    b.iter().map(|s| s.to_string()).collect()
}

/// An Othello position: the discs of both colours and the side to move. Immutable and
/// hashable; :meth:`play` returns the next position.
///
/// ``Position()`` is the start position; ``Position(board)`` parses a board string of 64 cells
/// (``X`` black, ``O`` white, ``-`` empty, ``a1`` first, row by row) and the side to move
/// (``X`` or ``O``), as in OBF files and :attr:`board`.
#[pyclass(name = "Position", module = "reversi", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPosition {
    pub inner: Position,
}

impl From<Position> for PyPosition {
    fn from(inner: Position) -> Self {
        PyPosition { inner }
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (board = None))]
    fn new(board: Option<&str>) -> PyResult<Self> {
        match board {
            None => Ok(Position::initial().into()),
            Some(s) => Position::from_board_string(s)
                .map(Into::into)
                .map_err(core_err),
        }
    }

    /// The start position (white d4 e5, black e4 d5, black to move).
    #[staticmethod]
    fn initial() -> Self {
        Position::initial().into()
    }

    /// Parses a board string (see the class docstring).
    #[staticmethod]
    fn from_board(board: &str) -> PyResult<Self> {
        Self::new(Some(board))
    }

    /// The position after a transcript such as ``"f5d6c3d3"`` (passes optional), played from
    /// ``start`` (default: the start position).
    #[staticmethod]
    #[pyo3(signature = (transcript, start = None))]
    fn from_transcript(transcript: &str, start: Option<&PyPosition>) -> PyResult<Self> {
        let start = start.map_or_else(Position::initial, |p| p.inner);
        Game::transcript_from(start, transcript)
            .map(|g| (*g.position()).into())
            .map_err(core_err)
    }

    /// A position from the black and white masks (bit i is square i, ``a1`` = bit 0).
    #[staticmethod]
    #[pyo3(signature = (black, white, side_to_move = "black"))]
    fn from_masks(black: u64, white: u64, side_to_move: &str) -> PyResult<Self> {
        let side = parse_color(side_to_move)?;
        Position::new(Bitboard(black), Bitboard(white), side)
            .map(Into::into)
            .map_err(core_err)
    }

    /// A position from the masks of the side to move (``player``) and of the other side.
    #[staticmethod]
    #[pyo3(signature = (player, opponent, side_to_move = "black"))]
    fn from_player_opponent(player: u64, opponent: u64, side_to_move: &str) -> PyResult<Self> {
        let side = parse_color(side_to_move)?;
        let (black, white) = match side {
            Color::Black => (player, opponent),
            Color::White => (opponent, player),
        };
        Self::from_masks(black, white, color_name(side))
    }

    /// The board string: 64 cells (``X``, ``O``, ``-``), a space, the side to move.
    #[getter]
    fn board(&self) -> String {
        self.inner.to_board_string()
    }

    /// ``"black"`` or ``"white"``.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.inner.side_to_move())
    }

    /// The mask of black discs.
    #[getter]
    fn black(&self) -> u64 {
        self.inner.black().0
    }

    /// The mask of white discs.
    #[getter]
    fn white(&self) -> u64 {
        self.inner.white().0
    }

    /// The mask of the side to move's discs.
    #[getter]
    fn player(&self) -> u64 {
        self.inner.player().0
    }

    /// The mask of the other side's discs.
    #[getter]
    fn opponent(&self) -> u64 {
        self.inner.opponent().0
    }

    /// The number of empty squares.
    #[getter]
    fn empties(&self) -> u32 {
        self.inner.empty().count()
    }

    /// The number of discs of a colour.
    fn count(&self, color: &str) -> PyResult<u32> {
        Ok(self.inner.count(parse_color(color)?))
    }

    /// The legal moves of the side to move, as square names (``a1`` first). Empty when the side
    /// to move must pass or the game is over.
    fn legal_moves(&self) -> Vec<String> {
        square_names(self.inner.legal_moves())
    }

    /// The legal moves as a mask.
    #[getter]
    fn legal_mask(&self) -> u64 {
        self.inner.legal_moves().0
    }

    /// Whether a move (square or ``"pass"``) is legal.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.play(parse_move(r#move)?).is_ok())
    }

    /// The discs a move would flip, nearest first along each line (empty if not legal).
    fn flips(&self, square: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let sq = parse_square(square)?;
        if !self.inner.is_legal(sq) {
            return Ok(Vec::new());
        }
        Ok(self
            .inner
            .flips_in_order(sq)
            .iter()
            .map(|s| s.to_string())
            .collect())
    }

    /// The position after a move (a square, or ``"pass"`` when the side to move has none).
    /// Raises :class:`IllegalMoveError` or :class:`GameOverError`.
    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.inner
            .play(parse_move(r#move)?)
            .map(Into::into)
            .map_err(core_err)
    }

    /// Whether the side to move has no legal move while the other side has one.
    #[getter]
    fn must_pass(&self) -> bool {
        self.inner.must_pass()
    }

    /// Whether neither side can move.
    #[getter]
    fn is_game_over(&self) -> bool {
        self.inner.is_game_over()
    }

    /// ``"black"``, ``"white"`` (the winner) or ``"draw"`` once the game is over, else ``None``.
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        self.inner.outcome().map(outcome_name)
    }

    /// The final disc counts ``(black, white)``: as on the board, or with ``wof=True`` by the
    /// World Othello Federation rule (empty squares to the winner, shared on a draw).
    #[pyo3(signature = (wof = false))]
    fn final_counts(&self, wof: bool) -> (u32, u32) {
        if wof {
            self.inner.wof_tournament_counts()
        } else {
            (
                self.inner.count(Color::Black),
                self.inner.count(Color::White),
            )
        }
    }

    /// The image under a symmetry (a name of :data:`SYMMETRIES` or its index).
    fn symmetry(&self, symmetry: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(parse_symmetry(symmetry)?.position(&self.inner).into())
    }

    /// The eight images, in the order of :data:`SYMMETRIES` (identity first).
    fn symmetries(&self) -> Vec<Self> {
        Symmetry::ALL
            .iter()
            .map(|s| s.position(&self.inner).into())
            .collect()
    }

    /// ``(player, opponent)`` masks, side to move first.
    fn to_masks(&self) -> (u64, u64) {
        (self.inner.player().0, self.inner.opponent().0)
    }

    /// Planes of shape ``(2, 8, 8)``, dtype uint8: ``[0]`` the side to move's discs, ``[1]`` the
    /// other side's; ``planes[c, row, column]``, row 0 is rank 1 (``a1`` at ``[c, 0, 0]``).
    fn to_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut v = vec![0u8; 128];
        crate::batch::fill_planes(self.inner.player().0, self.inner.opponent().0, &mut v);
        Ok(PyArray1::from_vec(py, v).reshape([2, 8, 8])?.into_any())
    }

    /// The square's disc: ``"black"``, ``"white"`` or ``None``.
    fn __getitem__(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
        Ok(self.inner.color_at(parse_square(square)?).map(color_name))
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.inner.to_board_string())
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let board = slf.get().inner.to_board_string();
        Ok((slf.get_type().into_any(), PyTuple::new(slf.py(), [board])?))
    }
}

/// The image of a square under a symmetry, as a name.
#[pyfunction]
pub fn symmetry_square(symmetry: &Bound<'_, PyAny>, square: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(parse_symmetry(symmetry)?
        .square(parse_square(square)?)
        .to_string())
}
