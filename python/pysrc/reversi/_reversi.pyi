"""Type stubs of the native module ``reversi._reversi`` (re-exported by ``reversi``)."""

from typing import Any, Literal, Optional, Union, final

import numpy as np
import numpy.typing as npt

Color = Literal["black", "white"]
OutcomeName = Literal["black", "white", "draw"]
SquareLike = Union[str, int]
"""A square name such as ``"d3"`` or an index 0-63 (``a1`` = 0, ``h1`` = 7, ``a8`` = 56)."""
MoveLike = Union[str, int]
"""A square, or ``"pass"``/``"ps"``."""
SymmetryLike = Union[str, int]
"""A name of :data:`SYMMETRIES` or its index."""

SYMMETRIES: list[str]
"""``identity, rotate90, rotate180, rotate270, flip_vertical, flip_horizontal, flip_diagonal,
flip_antidiagonal``."""
LEVELS: list[str]
"""``easy, normal, hard, expert``."""
PERFT_CONVENTIONS: list[str]
"""``oeis, edax, no-pass``."""

class ReversiError(ValueError):
    """Bad input: a square, move, colour, board string, transcript or array that does not
    parse, or an illegal move. The message is the Rust error's."""

class IllegalMoveError(ReversiError):
    """A move that is not legal (occupied square, no flips, a pass while a move exists)."""

class GameOverError(ReversiError):
    """A move, search or solve asked of a finished game."""

class SearchStopped(RuntimeError):
    """A search or count ended by a stop token, a node or a time limit before its result."""

@final
class StopToken:
    """A flag that stops running calls from any thread: pass it as ``stop=``, then call
    :meth:`stop`. It stays set until :meth:`reset`."""
    def __init__(self) -> None: ...
    def stop(self) -> None:
        """Asks every call holding this token to stop."""
    def reset(self) -> None:
        """Clears the token."""
    @property
    def is_set(self) -> bool:
        """Whether :meth:`stop` was called since the last :meth:`reset`."""

@final
class Position:
    """An immutable, hashable, picklable position. ``Position()`` is the start position;
    ``Position(board)`` parses a board string: 64 cells (``X`` black, ``O`` white, ``-``
    empty, ``a1`` first, row by row), a space, the side to move (``X``/``O``)."""
    def __init__(self, board: Optional[str] = None) -> None: ...
    @staticmethod
    def initial() -> Position:
        """The start position."""
    @staticmethod
    def from_board(board: str) -> Position:
        """Parses a board string."""
    @staticmethod
    def from_transcript(transcript: str, start: Optional[Position] = None) -> Position:
        """The position after a transcript such as ``"f5d6c3"``."""
    @staticmethod
    def from_masks(black: int, white: int, side_to_move: Color = "black") -> Position:
        """From the black and white masks (bit k is square k)."""
    @staticmethod
    def from_player_opponent(
        player: int, opponent: int, side_to_move: Color = "black"
    ) -> Position:
        """From the masks of the side to move and of the other side."""
    @property
    def board(self) -> str:
        """The board string."""
    @property
    def side_to_move(self) -> Color: ...
    @property
    def black(self) -> int: ...
    @property
    def white(self) -> int: ...
    @property
    def player(self) -> int:
        """The side to move's discs as a mask."""
    @property
    def opponent(self) -> int: ...
    @property
    def empties(self) -> int: ...
    @property
    def legal_mask(self) -> int: ...
    @property
    def must_pass(self) -> bool: ...
    @property
    def is_game_over(self) -> bool: ...
    @property
    def outcome(self) -> Optional[OutcomeName]:
        """The winner or ``"draw"`` once the game is over, else ``None``."""
    def count(self, color: Color) -> int: ...
    def legal_moves(self) -> list[str]:
        """Legal moves as square names, ``a1`` first (empty when passing or over)."""
    def is_legal(self, move: MoveLike) -> bool: ...
    def flips(self, square: SquareLike) -> list[str]:
        """The discs a move would flip, nearest first (empty if not legal)."""
    def play(self, move: MoveLike) -> Position:
        """The next position. Raises :class:`IllegalMoveError` or :class:`GameOverError`."""
    def final_counts(self, wof: bool = False) -> tuple[int, int]:
        """``(black, white)``; with ``wof`` empty squares go to the winner."""
    def symmetry(self, symmetry: SymmetryLike) -> Position: ...
    def symmetries(self) -> list[Position]:
        """The eight images in the order of :data:`SYMMETRIES`."""
    def to_masks(self) -> tuple[int, int]:
        """``(player, opponent)``."""
    def to_planes(self) -> npt.NDArray[np.uint8]:
        """``(2, 8, 8)`` uint8, side to move first, ``[c, row, column]``."""
    def __getitem__(self, square: SquareLike) -> Optional[Color]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Turn:
    """What :meth:`Game.play` did."""
    @property
    def color(self) -> Color: ...
    @property
    def square(self) -> str: ...
    @property
    def flips(self) -> list[str]: ...
    @property
    def passed(self) -> Optional[Color]:
        """The colour that then had to pass, if any."""
    @property
    def outcome(self) -> Optional[OutcomeName]: ...

@final
class Game:
    """A game record with automatic passes and undo."""
    def __init__(self, start: Optional[Position] = None) -> None: ...
    @staticmethod
    def from_transcript(transcript: str, start: Optional[Position] = None) -> Game: ...
    def play(self, move: MoveLike) -> Turn:
        """Plays a move; on error nothing changes."""
    def undo(self) -> None:
        """Takes back the last ply (with the move before an automatic pass)."""
    def undo_turn(self, color: Color) -> int:
        """Takes back plies until ``color`` is to move at a move it made; returns how many."""
    @property
    def position(self) -> Position: ...
    @property
    def start(self) -> Position: ...
    @property
    def positions(self) -> list[Position]: ...
    @property
    def moves(self) -> list[str]:
        """The plies, passes as ``"pass"``."""
    @property
    def colors(self) -> list[Color]: ...
    @property
    def passes(self) -> list[tuple[int, Color]]: ...
    @property
    def last_move(self) -> Optional[tuple[Color, str]]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def outcome(self) -> Optional[OutcomeName]: ...
    def transcript(self, passes: bool = False) -> str: ...
    def legal_moves(self) -> list[str]: ...
    def copy(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __len__(self) -> int: ...

@final
class Solution:
    """The result of an exact solve."""
    @property
    def score(self) -> int: ...
    @property
    def best_move(self) -> str: ...
    @property
    def pv(self) -> list[str]: ...
    @property
    def nodes(self) -> int: ...

@final
class Solver:
    """An exact solver that keeps its tables between solves."""
    def __init__(self, table_bits: int = 22, weights: bool = True) -> None: ...
    def solve(
        self,
        position: Position,
        scoring: Literal["wof", "disc"] = "wof",
        wld: bool = False,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        stop: Optional[StopToken] = None,
    ) -> Solution: ...

@final
class Hint:
    """The score of one legal move."""
    @property
    def move(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def depth(self) -> int: ...

@final
class SearchResult:
    """A level's choice of move."""
    @property
    def best_move(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def depth(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def pv(self) -> list[str]: ...

@final
class Engine:
    """A computer player: ``easy``, ``normal``, ``hard``, ``expert``, ``depth:N``, ``nodes:N``."""
    def __init__(self, level: str = "hard", seed: int = 0) -> None: ...
    @property
    def name(self) -> str: ...
    def choose(
        self,
        position: Position,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        stop: Optional[StopToken] = None,
    ) -> SearchResult: ...

def symmetry_square(symmetry: SymmetryLike, square: SquareLike) -> str: ...
def perft(
    position: Position,
    depth: int,
    convention: Literal["oeis", "edax", "no-pass"] = "oeis",
    threads: int = 1,
    hash_mb: Optional[int] = None,
    kernel: Optional[Literal["portable", "avx2", "avx512"]] = None,
    stop: Optional[StopToken] = None,
) -> int: ...
def solve(
    position: Position,
    scoring: Literal["wof", "disc"] = "wof",
    wld: bool = False,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    stop: Optional[StopToken] = None,
) -> Solution: ...
def hints(
    position: Position,
    scoring: Literal["wof", "disc"] = "disc",
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    stop: Optional[StopToken] = None,
) -> list[Hint]: ...
def choose_move(
    position: Position,
    level: str = "hard",
    seed: int = 0,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    stop: Optional[StopToken] = None,
) -> SearchResult: ...
def evaluate(position: Position) -> float: ...
def masks_to_planes(masks: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint8]: ...
def planes_to_masks(planes: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint64]: ...
def positions_to_masks(positions: list[Position]) -> npt.NDArray[np.uint64]: ...
def legal_moves_batch(masks: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]: ...
def play_batch(
    masks: npt.NDArray[np.uint64], moves: npt.NDArray[np.int64]
) -> npt.NDArray[np.uint64]: ...
def evaluate_batch(masks: npt.NDArray[np.uint64]) -> npt.NDArray[np.float32]: ...
def symmetries_batch(masks: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]: ...
def solve_batch(
    masks: npt.NDArray[np.uint64],
    scoring: str = "wof",
    wld: bool = False,
    threads: int = 1,
    table_bits: int = 20,
    stop: Optional[StopToken] = None,
) -> npt.NDArray[np.int32]: ...
