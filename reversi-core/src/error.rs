//! The error types of the crate: one per operation, each carrying what was wrong.
//!
//! | Operation | Error |
//! |---|---|
//! | [`Position::play`](crate::Position::play), [`Game::play`](crate::Game::play) | [`PlayError`] |
//! | [`Game::undo`](crate::Game::undo), [`Game::undo_turn`](crate::Game::undo_turn) | [`UndoError`] |
//! | [`Position::new`](crate::Position::new) | [`PositionError`] |
//! | `Square` from a name or an index | [`ParseSquareError`] |
//! | `Move` from a name | [`ParseMoveError`] |
//! | `Color` from a name | [`ParseColorError`] |
//! | [`Position::from_board_string`](crate::Position::from_board_string), [`Bitboard::from_picture`](crate::Bitboard::from_picture) | [`ParseBoardError`] |
//! | [`Game::from_transcript`](crate::Game::from_transcript), [`Game::replay`](crate::Game::replay) | [`TranscriptError`] |
//! | [`ObfLine`](crate::notation::ObfLine) from a line | [`ObfLineError`] |
//! | [`parse_obf`](crate::notation::parse_obf) | [`ObfError`] |
//! | [`Convention`](crate::perft::Convention) from a name | [`ParseConventionError`] |
//! | [`PerftHash::try_new`](crate::perft::PerftHash::try_new) | [`TableSizeError`] |
//! | [`Kernel`](crate::movegen::Kernel) from a name | [`ParseKernelError`] |
//!
//! [`enum@Error`] gathers them all (each converts into it with `From`), for code that uses `?`
//! across several operations.

use crate::{Color, Square};

/// A move that the rules refuse. A failed call leaves its position or game exactly as it was.
///
/// # Examples
///
/// ```
/// use reversi_core::{Move, PlayError, Position, Square};
/// let err = Position::initial().play(Move::Place(Square::A1)).unwrap_err();
/// assert_eq!(err, PlayError::NoFlips(Square::A1));
/// assert_eq!(err.to_string(), "a1 flips no disc, so it is not a legal move");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The square of a placement already holds a disc.
    #[error("square {0} is occupied")]
    Occupied(Square),
    /// The square of a placement is empty but brackets no line of opponent discs.
    #[error("{0} flips no disc, so it is not a legal move")]
    NoFlips(Square),
    /// A pass was asked for while the side to move (this colour) has a legal move.
    #[error("{0} cannot pass: a legal move exists")]
    PassWithMoves(Color),
    /// A move or pass was asked for after the end of the game.
    #[error("the game is over")]
    GameOver,
}

impl PlayError {
    /// The square of the refused placement, if the error is about one.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{PlayError, Square};
    /// assert_eq!(PlayError::Occupied(Square::D4).square(), Some(Square::D4));
    /// assert_eq!(PlayError::GameOver.square(), None);
    /// ```
    #[must_use]
    pub fn square(&self) -> Option<Square> {
        match *self {
            PlayError::Occupied(sq) | PlayError::NoFlips(sq) => Some(sq),
            PlayError::PassWithMoves(_) | PlayError::GameOver => None,
        }
    }
}

/// An undo with nothing to take back; the game is not changed.
///
/// # Examples
///
/// ```
/// use reversi_core::{Color, Game, UndoError};
/// let mut game = Game::new();
/// assert_eq!(game.undo(), Err(UndoError::NothingToUndo));
/// assert_eq!(game.undo_turn(Color::White), Err(UndoError::NoPlacementBy(Color::White)));
/// assert_eq!(UndoError::NoPlacementBy(Color::White).to_string(), "white has made no placement to undo");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum UndoError {
    /// No placement has been made ([`Game::undo`](crate::Game::undo)).
    #[error("nothing to undo")]
    NothingToUndo,
    /// This colour has made no placement ([`Game::undo_turn`](crate::Game::undo_turn)).
    #[error("{0} has made no placement to undo")]
    NoPlacementBy(Color),
}

/// Discs of each colour that cannot make a position.
///
/// # Examples
///
/// ```
/// use reversi_core::{Bitboard, Color, Position, PositionError, Square};
/// let err = Position::new(Bitboard(1), Bitboard(3), Color::Black).unwrap_err();
/// assert_eq!(err, PositionError::Overlap(Square::A1));
/// assert_eq!(err.to_string(), "black and white discs overlap on a1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// Black and white discs on the same square (the first such square).
    #[error("black and white discs overlap on {0}")]
    Overlap(Square),
}

/// A square that could not be made from a name or an index.
///
/// # Examples
///
/// ```
/// use reversi_core::{ParseSquareError, Square};
/// assert_eq!("i9".parse::<Square>(), Err(ParseSquareError::Name("i9".into())));
/// assert_eq!(Square::try_from(64u8), Err(ParseSquareError::Index(64)));
/// assert_eq!(ParseSquareError::Index(64).to_string(), "64 is not a square index (expected 0 to 63)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseSquareError {
    /// A name that is not a column `a`–`h` followed by a row `1`–`8`, as written.
    #[error("{0:?} is not a square name (expected a1 to h8)")]
    Name(String),
    /// An index of 64 or more.
    #[error("{0} is not a square index (expected 0 to 63)")]
    Index(u8),
}

/// A move that is neither a square name nor `pass`/`ps`.
///
/// # Examples
///
/// ```
/// use reversi_core::{Move, ParseMoveError};
/// let err = "pas".parse::<Move>().unwrap_err();
/// assert_eq!(err.input, "pas");
/// assert_eq!(err.to_string(), r#""pas" is not a move (expected a square such as d3, or pass)"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
#[error("{input:?} is not a move (expected a square such as d3, or pass)")]
pub struct ParseMoveError {
    /// The input as written.
    pub input: String,
}

/// A colour name that is not black or white.
///
/// # Examples
///
/// ```
/// use reversi_core::Color;
/// let err = "red".parse::<Color>().unwrap_err();
/// assert_eq!(err.input, "red");
/// assert_eq!(err.to_string(), r#""red" is not a colour (expected black or white)"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
#[error("{input:?} is not a colour (expected black or white)")]
pub struct ParseColorError {
    /// The input as written.
    pub input: String,
}

/// A board string or bitboard picture that does not parse.
///
/// # Examples
///
/// ```
/// use reversi_core::{ParseBoardError, Position};
/// assert_eq!("X-O".parse::<Position>(), Err(ParseBoardError::Length(3)));
/// let err = format!("{}? X", "-".repeat(63)).parse::<Position>().unwrap_err();
/// assert_eq!(err, ParseBoardError::Char { index: 63, found: '?' });
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseBoardError {
    /// Other than 64 cells; the number found (cells up to the first white space for a board
    /// string, all cells for a picture).
    #[error("a board has 64 squares, found {0}")]
    Length(usize),
    /// A foreign character.
    #[error("unexpected character {found:?} at position {index} of the board string")]
    Char {
        /// The character offset in the input (counting from 0).
        index: usize,
        /// The character found.
        found: char,
    },
    /// A side to move other than `X` or `O` after the board, as written (empty if missing).
    #[error("expected the side to move (X or O), found {0:?}")]
    SideToMove(String),
}

/// Why a transcript token failed: it is not a move, or the rules refuse it.
///
/// # Examples
///
/// ```
/// use reversi_core::{Game, PlayError, Square, TranscriptCause};
/// let err = Game::from_transcript("f5a1").unwrap_err();
/// assert_eq!(err.cause, TranscriptCause::Play(PlayError::NoFlips(Square::A1)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum TranscriptCause {
    /// The token is not a square name or a pass.
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    /// The move is not legal there.
    #[error(transparent)]
    Play(#[from] PlayError),
}

/// A transcript or move list that does not replay, at the first bad token.
///
/// # Examples
///
/// ```
/// use reversi_core::Game;
/// let err = Game::from_transcript("f5d6z9").unwrap_err();
/// assert_eq!((err.ply, err.token.as_str()), (3, "z9"));
/// assert_eq!(err.to_string(), r#"transcript ply 3, token "z9": "z9" is not a move (expected a square such as d3, or pass)"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
#[error("transcript ply {ply}, token {token:?}: {cause}")]
pub struct TranscriptError {
    /// The ply of the game record at which the token was to be played, counting from 1 and
    /// counting passes.
    pub ply: usize,
    /// The offending token as written.
    pub token: String,
    /// What was wrong with it.
    #[source]
    pub cause: TranscriptCause,
}

/// A line of an OBF file that does not parse.
///
/// # Examples
///
/// ```
/// use reversi_core::notation::ObfLine;
/// use reversi_core::ObfLineError;
/// let err = format!("{} X; F5:+99", "-".repeat(64)).parse::<ObfLine>().unwrap_err();
/// assert_eq!(err, ObfLineError::ScoreRange(99));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ObfLineError {
    /// The board string before the first `;`.
    #[error(transparent)]
    Board(#[from] ParseBoardError),
    /// A part that is not `MOVE:SCORE`, as written.
    #[error("expected MOVE:SCORE, found {0:?}")]
    Pair(String),
    /// The move of a `MOVE:SCORE` part.
    #[error(transparent)]
    Move(#[from] ParseMoveError),
    /// The score of a `MOVE:SCORE` part that is not a number, as written.
    #[error("{0:?} is not a score")]
    Score(String),
    /// A score outside -64..=64.
    #[error("score {0} is outside -64..=64")]
    ScoreRange(i32),
}

/// An OBF file with a bad line: the first one.
///
/// # Examples
///
/// ```
/// use reversi_core::notation::parse_obf;
/// use reversi_core::{ObfLineError, ParseBoardError};
/// let err = parse_obf("\nXO X\n").unwrap_err();
/// assert_eq!(err.line, 2);
/// assert_eq!(err.cause, ObfLineError::Board(ParseBoardError::Length(2)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
#[error("OBF line {line}: {cause}")]
pub struct ObfError {
    /// The 1-based line number.
    pub line: usize,
    /// What was wrong with it.
    #[source]
    pub cause: ObfLineError,
}

/// A counting convention name that is not `oeis`, `edax` or `no-pass`.
///
/// # Examples
///
/// ```
/// use reversi_core::perft::Convention;
/// let err = "wof".parse::<Convention>().unwrap_err();
/// assert_eq!(err.input, "wof");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
#[error("{input:?} is not a perft convention (expected oeis, edax or no-pass)")]
pub struct ParseConventionError {
    /// The input as written.
    pub input: String,
}

/// A perft table size (in MiB) that cannot be allocated on this machine.
///
/// # Examples
///
/// ```
/// use reversi_core::perft::PerftHash;
/// let err = PerftHash::try_new(usize::MAX).unwrap_err();
/// assert_eq!(err.mib, usize::MAX);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
#[error("a perft table of {mib} MiB cannot be allocated here")]
pub struct TableSizeError {
    /// The size asked for, in MiB.
    pub mib: usize,
}

/// A move generation kernel name that is not `portable`, `avx2`, `avx512` or `simd128`.
///
/// # Examples
///
/// ```
/// use reversi_core::movegen::Kernel;
/// let err = "neon".parse::<Kernel>().unwrap_err();
/// assert_eq!(err.input, "neon");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
#[error("{input:?} is not a kernel (expected portable, avx2, avx512 or simd128)")]
pub struct ParseKernelError {
    /// The input as written.
    pub input: String,
}

/// Any error of `reversi-core`, for code that uses `?` across operations: every error type of
/// the crate converts into it. The functions themselves return their own types.
///
/// # Examples
///
/// ```
/// use reversi_core::{Error, Game, PlayError, Square};
/// fn first_move(name: &str) -> Result<Game, Error> {
///     let mut game = Game::new();
///     game.play(name.parse::<Square>()?)?;
///     Ok(game)
/// }
/// assert!(first_move("d3").is_ok());
/// assert!(matches!(first_move("z9"), Err(Error::ParseSquare(_))));
/// assert_eq!(first_move("a1").unwrap_err(), Error::Play(PlayError::NoFlips(Square::A1)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// See [`PlayError`].
    #[error(transparent)]
    Play(#[from] PlayError),
    /// See [`UndoError`].
    #[error(transparent)]
    Undo(#[from] UndoError),
    /// See [`PositionError`].
    #[error(transparent)]
    Position(#[from] PositionError),
    /// See [`ParseSquareError`].
    #[error(transparent)]
    ParseSquare(#[from] ParseSquareError),
    /// See [`ParseMoveError`].
    #[error(transparent)]
    ParseMove(#[from] ParseMoveError),
    /// See [`ParseColorError`].
    #[error(transparent)]
    ParseColor(#[from] ParseColorError),
    /// See [`ParseBoardError`].
    #[error(transparent)]
    ParseBoard(#[from] ParseBoardError),
    /// See [`TranscriptError`].
    #[error(transparent)]
    Transcript(#[from] TranscriptError),
    /// See [`ObfLineError`].
    #[error(transparent)]
    ObfLine(#[from] ObfLineError),
    /// See [`ObfError`].
    #[error(transparent)]
    Obf(#[from] ObfError),
    /// See [`ParseConventionError`].
    #[error(transparent)]
    ParseConvention(#[from] ParseConventionError),
    /// See [`TableSizeError`].
    #[error(transparent)]
    TableSize(#[from] TableSizeError),
    /// See [`ParseKernelError`].
    #[error(transparent)]
    ParseKernel(#[from] ParseKernelError),
}
