//! The error type of the crate.

use crate::{Color, Square};

/// Everything that can go wrong in `reversi-core`: an illegal move, a bad square name, a bad
/// transcript or board string. A failed call leaves its position or game exactly as it was.
///
/// # Examples
///
/// ```
/// use reversi_core::{Error, Move, Position, Square};
/// let err = Position::initial().play(Move::Place(Square::A1)).unwrap_err();
/// assert_eq!(err, Error::NoFlips(Square::A1));
/// assert_eq!(err.to_string(), "a1 flips no disc, so it is not a legal move");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The square of a move already holds a disc.
    #[error("square {0} is occupied")]
    Occupied(Square),
    /// The square of a move is empty but brackets no line of opponent discs.
    #[error("{0} flips no disc, so it is not a legal move")]
    NoFlips(Square),
    /// A pass was asked for while the side to move has a legal move.
    #[error("{0} cannot pass: a legal move exists")]
    PassWithMoves(Color),
    /// A move or pass was asked for after the end of the game.
    #[error("the game is over")]
    GameOver,
    /// An undo was asked for but there is nothing to take back.
    #[error("nothing to undo")]
    NothingToUndo,
    /// A square name that is not a column `a`–`h` followed by a row `1`–`8`.
    #[error("{0:?} is not a square name (expected a1 to h8)")]
    SquareName(String),
    /// A square index of 64 or more.
    #[error("{0} is not a square index (expected 0 to 63)")]
    SquareIndex(u8),
    /// A move that is neither a square name nor `pass`/`ps`.
    #[error("{0:?} is not a move (expected a square such as d3, or pass)")]
    MoveName(String),
    /// A colour name that is not black or white.
    #[error("{0:?} is not a colour (expected black or white)")]
    ColorName(String),
    /// A transcript token that failed, with the ply (1-based, passes counted) where it failed.
    #[error("transcript ply {ply}, token {token:?}: {cause}")]
    Transcript {
        /// The ply of the game record at which the token was to be played, counting from 1 and
        /// counting passes.
        ply: usize,
        /// The offending token as written.
        token: String,
        /// What was wrong with it.
        cause: Box<Error>,
    },
    /// A board string or picture with other than 64 cells.
    #[error("a board has 64 squares, found {0}")]
    BoardLength(usize),
    /// A foreign character in a board string or picture.
    #[error("unexpected character {found:?} at position {index} of the board string")]
    BoardChar {
        /// The character offset in the input.
        index: usize,
        /// The character found.
        found: char,
    },
    /// A side to move other than `X` or `O` after a board string.
    #[error("expected the side to move (X or O), found {0:?}")]
    SideToMove(String),
    /// Black and white discs on the same square.
    #[error("black and white discs overlap on {0}")]
    Overlap(Square),
    /// A `MOVE:SCORE` part of an OBF line that does not parse.
    #[error("OBF: {0}")]
    Obf(String),
    /// A line of an OBF file that does not parse, with its 1-based number.
    #[error("OBF line {line}: {cause}")]
    ObfLine {
        /// The 1-based line number.
        line: usize,
        /// What was wrong with it.
        cause: Box<Error>,
    },
    /// A counting convention name that is not `oeis`, `edax` or `no-pass`.
    #[error("{0:?} is not a perft convention (expected oeis, edax or no-pass)")]
    Convention(String),
    /// A perft table size (in MiB) that cannot be allocated on this machine.
    #[error("a perft table of {0} MiB cannot be allocated here")]
    TableSize(usize),
    /// A move generation kernel name that is not `portable`, `avx2` or `avx512`.
    #[error("{0:?} is not a kernel (expected portable, avx2 or avx512)")]
    Kernel(String),
}
