"""Othello/Reversi for people who benchmark engines and train models.

The rules on bitboards (:class:`Position`, :class:`Game`), perft in three conventions
(:func:`perft`), the exact endgame solver (:func:`solve`, :class:`Solver`), move hints
(:func:`hints`), the levels Easy, Normal, Hard and Expert (:class:`Engine`), the trained
evaluation in discs (:func:`evaluate`), and batch helpers on NumPy arrays for training
pipelines. Built from the Rust workspace with PyO3; long calls release the GIL and can be
stopped with a :class:`StopToken`, a node or time limit, or Ctrl-C.

Squares are names (``"d3"``) or indices 0-63 (``a1`` = 0, ``h1`` = 7, ``a8`` = 56: bit k of a
mask). A batch of boards is either masks, shape ``(N, 2)`` uint64 (``[:, 0]`` the side to move's
discs, ``[:, 1]`` the other side's), or planes, shape ``(N, 2, 8, 8)`` in the same order with
``planes[i, c, row, column]`` and row 0 = rank 1; the batch functions take either.

>>> import reversi
>>> pos = reversi.Position.from_transcript("f5d6c3")
>>> pos.legal_moves()
['d3', 'f3', 'f4', 'g5']
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import numpy.typing as npt

from . import _reversi
from ._reversi import (
    LEVELS,
    PERFT_CONVENTIONS,
    SYMMETRIES,
    Engine,
    Game,
    GameOverError,
    Hint,
    IllegalMoveError,
    Position,
    ReversiError,
    SearchResult,
    SearchStopped,
    Solution,
    Solver,
    StopToken,
    Turn,
    choose_move,
    evaluate,
    hints,
    perft,
    solve,
    symmetry_square,
)

__all__ = [
    "LEVELS",
    "PERFT_CONVENTIONS",
    "SYMMETRIES",
    "Engine",
    "Game",
    "GameOverError",
    "Hint",
    "IllegalMoveError",
    "Position",
    "ReversiError",
    "SearchResult",
    "SearchStopped",
    "Solution",
    "Solver",
    "StopToken",
    "Turn",
    "choose_move",
    "evaluate",
    "evaluate_batch",
    "hints",
    "legal_moves_batch",
    "masks_to_planes",
    "perft",
    "planes_to_masks",
    "play_batch",
    "positions_to_masks",
    "solve",
    "solve_batch",
    "symmetries_batch",
    "symmetry_square",
    "to_masks",
]

__version__ = "0.1.0"


def _is_planes(a: np.ndarray) -> bool:
    return a.ndim == 4 and a.shape[1:] == (2, 8, 8)


def to_masks(boards: Any) -> npt.NDArray[np.uint64]:
    """Masks ``(N, 2)`` uint64 from masks, planes ``(N, 2, 8, 8)`` of any dtype (non-zero is a
    disc), or a sequence of :class:`Position`."""
    if isinstance(boards, (list, tuple)) and boards and isinstance(boards[0], Position):
        return _reversi.positions_to_masks(list(boards))
    a = np.asarray(boards)
    if _is_planes(a):
        return _reversi.planes_to_masks(np.ascontiguousarray(a != 0, dtype=np.uint8))
    if a.ndim == 2 and a.shape[1] == 2:
        if a.dtype.kind == "i" and a.size and a.min() < 0:
            # Masks written as signed 64-bit integers: the same bits.
            a = a.astype(np.int64).view(np.uint64)
        return np.ascontiguousarray(a, dtype=np.uint64)
    raise ReversiError(
        f"a batch of boards is masks of shape (N, 2) or planes of shape (N, 2, 8, 8), found shape {a.shape}"
    )


def positions_to_masks(positions: list[Position]) -> npt.NDArray[np.uint64]:
    """Masks ``(N, 2)`` uint64 (side to move first) of a list of positions."""
    return _reversi.positions_to_masks(list(positions))


def masks_to_planes(boards: Any, dtype: npt.DTypeLike = np.uint8) -> npt.NDArray[Any]:
    """Planes ``(N, 2, 8, 8)`` (default uint8; e.g. ``dtype=np.float32`` for a network) of a batch."""
    planes = _reversi.masks_to_planes(to_masks(boards))
    return planes if np.dtype(dtype) == np.uint8 else planes.astype(dtype)


def planes_to_masks(planes: Any) -> npt.NDArray[np.uint64]:
    """Masks ``(N, 2)`` uint64 of planes ``(N, 2, 8, 8)`` of any dtype (non-zero is a disc)."""
    a = np.asarray(planes)
    if not _is_planes(a):
        raise ReversiError(f"planes have shape (N, 2, 8, 8), found shape {a.shape}")
    return _reversi.planes_to_masks(np.ascontiguousarray(a != 0, dtype=np.uint8))


def legal_moves_batch(boards: Any, planes: bool = False) -> npt.NDArray[Any]:
    """The legal moves of each board: masks ``(N,)`` uint64, or with ``planes=True`` a
    ``(N, 8, 8)`` uint8 array (1 on each legal square)."""
    moves = _reversi.legal_moves_batch(to_masks(boards))
    if not planes:
        return moves
    bits = (moves[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    return bits.astype(np.uint8).reshape(-1, 8, 8)


def play_batch(boards: Any, moves: Any) -> npt.NDArray[np.uint64]:
    """The boards after one move each (``moves``: square indices 0-63, -1 for a pass), as masks
    ``(N, 2)`` uint64 from the new side to move. Raises :class:`IllegalMoveError` or
    :class:`GameOverError` naming the first bad row."""
    m = np.ascontiguousarray(np.asarray(moves).reshape(-1), dtype=np.int64)
    return _reversi.play_batch(to_masks(boards), m)


def evaluate_batch(boards: Any) -> npt.NDArray[np.float32]:
    """The trained evaluation of each board in discs for its side to move, ``(N,)`` float32
    (the same as :func:`evaluate` per position). Releases the GIL."""
    return _reversi.evaluate_batch(to_masks(boards))


def symmetries_batch(boards: Any) -> npt.NDArray[np.uint64]:
    """The eight images of each board, ``(N, 8, 2)`` uint64 in the order of :data:`SYMMETRIES`."""
    return _reversi.symmetries_batch(to_masks(boards))


def solve_batch(
    boards: Any,
    scoring: str = "wof",
    wld: bool = False,
    threads: int = 1,
    table_bits: int = 20,
    stop: Optional[StopToken] = None,
) -> npt.NDArray[np.int32]:
    """Exact scores ``(N,)`` int32 of each board for its side to move (finished boards score
    their result), on ``threads`` threads. Releases the GIL; see :func:`solve`."""
    return _reversi.solve_batch(to_masks(boards), scoring, wld, threads, table_bits, stop)
