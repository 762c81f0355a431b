//! # reversi-ai
//!
//! Evaluation and search for Othello/Reversi on top of `reversi-core`: an [`Engine`] trait that
//! any frontend drives the same way, the levels [`Level::Easy`], [`Level::Normal`],
//! [`Level::Hard`] and [`Level::Expert`] (on the trained [`pattern`] evaluation, made by the
//! `train` module of the feature `train`, off by default), a background [`SearchHandle`], move
//! [`hints`], an exact endgame [`Solver`] and an NBoard protocol driver ([`nboard`]).
//!
//! ```
//! use reversi_ai::{hints, solve, Scoring, Engine, Level, Limits, SearchHandle, SolveOptions};
//! use reversi_core::Position;
//! use std::sync::atomic::AtomicBool;
//!
//! // A level chooses a move; a node limit makes it reproducible.
//! let stop = AtomicBool::new(false);
//! let mut hard = Level::Hard.engine(0);
//! let r = hard.choose(&Position::initial(), &Limits::nodes(50_000), &stop).unwrap();
//! assert!(Position::initial().play(r.best_move).is_ok());
//!
//! // A UI runs the search on a thread and may stop it at any time.
//! let handle = SearchHandle::spawn(Level::Hard.engine(0), Position::initial(), Limits::NONE);
//! handle.stop();
//! assert!(handle.join().1.is_ok());
//!
//! // Exact endgame: score, best move, principal variation and node count.
//! let pos: Position = "OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X".parse().unwrap();
//! let s = solve(&pos, &SolveOptions::exact(Scoring::Wof)).unwrap();
//! let h = hints(&pos, &Limits::NONE, Scoring::Wof, &stop).unwrap();
//! assert_eq!(h[0].score, s.score);
//! ```
//!
//! Scores are for the side to move. Exact scores are final disc differences, counted on the
//! board ([`Scoring::DiscDifference`], what the game shows) or with the empty squares given
//! to the winner ([`Scoring::Wof`], what FFO files report).
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(clippy::undocumented_unsafe_blocks)]

mod bits;
mod engine;
mod error;
mod eval;
mod expert;
mod handle;
mod hints;
mod limits;
pub mod nboard;
pub mod pattern;
pub mod probcut;
mod rng;
mod search;
mod solver;
pub mod time;
#[cfg(feature = "train")]
#[cfg_attr(docsrs, doc(cfg(feature = "train")))]
pub mod train;
mod tt;

pub use engine::{engine_from_name, Easy, Engine, Level, Normal, SearchEngine, HARD_TIME};
pub use error::AiError;
pub use eval::SQUARE_TABLE;
pub use expert::{Expert, EXPERT_TIME};
pub use handle::SearchHandle;
pub use hints::{hints, midgame_hints_in_discs, Hint, MIDGAME_HINTS_IN_DISCS};
pub use limits::{Limits, SearchResult};
pub use solver::{solve, Scoring, Solution, SolveOptions, Solver};
pub use time::TimeSource;
