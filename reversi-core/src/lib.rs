//! # reversi-core
//!
//! The rules of Othello/Reversi as the World Othello Federation plays them, on bitboards: an 8×8
//! board, the fixed start (white on d4 and e5, black on e4 and d5, black first), moves that flip
//! every bracketed line, a forced pass when the side to move has no move, and the end when
//! neither side can move.
//!
//! ```
//! use reversi_core::{Color, Game, Outcome, Position, Square};
//!
//! // Legal moves and flips of a position.
//! let start = Position::initial();
//! assert_eq!(start.legal_moves().count(), 4);
//! assert_eq!(start.flips_in_order(Square::D3), [Square::D4]);
//!
//! // A game record with automatic passes and undo.
//! let mut game = Game::new();
//! for sq in ["e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5"] {
//!     game.play(sq.parse::<Square>().unwrap()).unwrap();
//! }
//! let turn = game.play(Square::C5).unwrap();
//! assert_eq!(turn.outcome, Some(Outcome::Win(Color::Black))); // white has no disc left
//! game.undo().unwrap();
//! assert!(!game.is_over());
//!
//! // Perft, OEIS A124004.
//! use reversi_core::perft::{perft, Convention};
//! assert_eq!(perft(&start, 5, Convention::Oeis), 1396);
//! ```
//!
//! Squares are named `a1`–`h8` with columns `a`–`h` from left to right and rows `1`–`8` from top
//! to bottom; bit 0 of a [`Bitboard`] is `a1`.
//!
//! With the `serde` feature (on by default), [`Square`], [`Move`], [`Color`], [`Position`] and
//! [`Game`] serialise: squares and moves as their names, a position as its board string, a game
//! as its start position and moves (validated again when read).
#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod bitboard;
mod color;
mod error;
mod game;
pub mod mem;
pub mod movegen;
mod moves;
pub mod notation;
pub mod perft;
mod perft_hash;
mod position;
mod square;
mod symmetry;

pub use bitboard::{Bitboard, Squares};
pub use color::Color;
pub use error::{
    Error, ObfError, ObfLineError, ParseBoardError, ParseColorError, ParseConventionError,
    ParseKernelError, ParseMoveError, ParseSquareError, PlayError, PositionError, TableSizeError,
    TranscriptCause, TranscriptError, UndoError,
};
pub use game::{Game, Ply, Turn};
pub use moves::Move;
pub use position::{Disc, Outcome, Position, SquareInfo};
pub use square::Square;
pub use symmetry::Symmetry;
