//! The computer opponent as the game sees it: a level, a search on a background thread that the
//! UI polls (and can stop), and move hints.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use reversi::core::{Position, Square};
use serde::{Deserialize, Serialize};

/// The computer's level.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Easy.
    Easy,
    /// Normal.
    Normal,
    /// Hard.
    Hard,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        })
    }
}

impl std::str::FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "easy" => Ok(Level::Easy),
            "normal" => Ok(Level::Normal),
            "hard" => Ok(Level::Hard),
            _ => Err(format!(
                "{s:?} is not a level (expected easy, normal or hard)"
            )),
        }
    }
}

/// Work running on a background thread: poll it, wait for it, or stop it.
///
/// Dropping a job asks it to stop and forgets its result.
pub struct Job<T> {
    rx: Receiver<T>,
    stop: Arc<AtomicBool>,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on a new thread; it should return soon after its flag is set.
    pub fn spawn(work: impl FnOnce(&AtomicBool) -> T + Send + 'static) -> Job<T> {
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        thread::Builder::new()
            .name("reversi-engine".into())
            .spawn(move || {
                let _ = tx.send(work(&flag));
            })
            .expect("a thread starts");
        Job { rx, stop }
    }

    /// The result if it is ready.
    pub fn poll(&self) -> Option<T> {
        self.rx.try_recv().ok()
    }

    /// Waits up to `timeout` for the result. `Err(())` if the thread died.
    pub fn wait(&self, timeout: Duration) -> Result<Option<T>, ()> {
        match self.rx.recv_timeout(timeout) {
            Ok(v) => Ok(Some(v)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(()),
        }
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Starts the computer's search for `pos` at `level`. `budget` is the most thinking time its
/// clock allows, if it has a limit. The result is `None` only if the side to move has no move.
pub fn think(
    level: Level,
    seed: u64,
    pos: Position,
    budget: Option<Duration>,
) -> Job<Option<Square>> {
    Job::spawn(move |stop| placeholder::choose(level, seed, &pos, budget, stop))
}

/// Scores of every legal move for the side to move, best first (the engine's hint API).
pub fn hints(level: Level, pos: Position) -> Job<Vec<(Square, i32)>> {
    Job::spawn(move |stop| placeholder::hints(level, &pos, stop))
}

/// THROWAWAY stand-in until `reversi-ai` exposes its engines: a seeded random legal move.
mod placeholder {
    use super::*;
    use std::sync::atomic::AtomicBool;

    pub fn choose(
        _level: Level,
        seed: u64,
        pos: &Position,
        _budget: Option<Duration>,
        _stop: &AtomicBool,
    ) -> Option<Square> {
        let moves: Vec<Square> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            return None;
        }
        let mut x = seed ^ pos.black().0.rotate_left(7) ^ pos.white().0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        Some(moves[(x % moves.len() as u64) as usize])
    }

    pub fn hints(_level: Level, pos: &Position, _stop: &AtomicBool) -> Vec<(Square, i32)> {
        let mut v: Vec<(Square, i32)> = pos
            .legal_moves()
            .into_iter()
            .map(|sq| (sq, pos.flips(sq).count() as i32))
            .collect();
        v.sort_by_key(|&(sq, s)| (-s, sq.index()));
        v
    }
}
