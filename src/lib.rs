//! # reversi
//!
//! The facade of the Reversi workspace: it re-exports the crates so that an application can depend
//! on one package, and it holds the adapters that connect Reversi to the game-agnostic room crate.
//!
//! ```
//! use reversi::core::Position;
//! let start = Position::initial();
//! assert_eq!(start.legal_moves().count(), 4);
//! ```
//!
//! No two crates export the same name, so they can all be glob-imported together:
//!
//! ```
//! use reversi::ai::*;
//! use reversi::clock::*;
//! use reversi::core::*;
//! use reversi::room::*;
//!
//! // The Reversi record and outcome, the room's game trait and outcome by seat, the solver's
//! // scoring rule, and each crate's error.
//! let game = Game::new();
//! assert_eq!(game.outcome(), None::<Outcome>);
//! assert_eq!(SeatOutcome::Winner(1).winner(), Some(1));
//! assert_eq!(Scoring::default(), Scoring::DiscDifference);
//! fn seats<G: TurnGame>(game: &G) -> usize {
//!     game.seats()
//! }
//! assert_eq!(seats(&reversi::room_adapters::ReversiGame::new()), 2);
//! let _no_error: Option<(Error, AiError, ClockError, RoomError)> = None;
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use reversi_ai as ai;
pub use reversi_clock as clock;
pub use reversi_core as core;
pub use reversi_room as room;

pub mod local;
pub mod room_adapters;
#[cfg(feature = "serde")]
pub mod view;

/// The Rust examples of `README.md`, compiled and run as doc tests (`cargo test --doc -p reversi`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
