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
#![deny(missing_docs)]

pub use reversi_ai as ai;
pub use reversi_clock as clock;
pub use reversi_core as core;
pub use reversi_room as room;

pub mod room_adapters;
