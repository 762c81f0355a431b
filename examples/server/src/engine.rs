//! The computer's moves, computed on the blocking thread pool (never on the async runtime).

use std::sync::atomic::AtomicBool;

use reversi::ai::{Engine, Limits};
use reversi::core::{Move, Position, Square};

use crate::protocol::Level;

/// The level's move in `pos`, or `None` when the side to move has no placement.
///
/// Blocking: call it from `spawn_blocking`.
pub fn choose(level: Level, pos: &Position, seed: u64) -> Option<Square> {
    let level = match level {
        Level::Easy => reversi::ai::Level::Easy,
        Level::Normal => reversi::ai::Level::Normal,
        Level::Hard => reversi::ai::Level::Hard,
    };
    let mut engine = level.engine(seed);
    let stop = AtomicBool::new(false);
    match engine.choose(pos, &Limits::NONE, &stop) {
        Ok(r) => match r.best_move {
            Move::Place(sq) => Some(sq),
            Move::Pass => None,
        },
        Err(_) => None,
    }
}
