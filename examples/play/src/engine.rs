//! The computer opponent as the game sees it: a level, a search on a background thread that the
//! UI polls (and can stop), and move hints.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use reversi::ai;
use reversi::core::{Position, Square};
use reversi::local::{LocalMatch, Opponent};

/// The computer's level: `reversi-ai`'s, with its names (`easy`, `normal`, `hard`, `expert`).
pub use reversi::ai::Level;

/// Threads of the computer's search (`--threads`; set once at start).
static THREADS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

/// Sets the threads of the computer's searches from now on (at least one).
pub fn set_threads(n: u32) {
    THREADS.store(n.max(1), std::sync::atomic::Ordering::Relaxed);
}

/// The computer thinking about one move on a background thread ([`ai::SearchHandle`]). The
/// UI polls it; dropping it stops the search and forgets its result.
pub struct Thinking {
    handle: Option<ai::SearchHandle<Box<dyn ai::Engine>>>,
}

impl Thinking {
    /// Starts the computer's search for its turn in `m` (its engine seeded by the match), or
    /// `None` when it is not the computer's turn. `budget` is the most time the computer's clock
    /// allows, if it has a limit. With `reproducible`, the search is bounded by nodes rather than
    /// by time, so that the same seed gives the same game on any machine (as far as the level's
    /// own time limit allows).
    pub fn start(m: &LocalMatch, budget: Option<Duration>, reproducible: bool) -> Option<Thinking> {
        let (engine, pos) = m.computer_engine()?;
        let mut limits = ai::Limits::NONE;
        if reproducible
            && matches!(
                m.settings().opponent,
                Opponent::Computer(Level::Hard | Level::Expert)
            )
        {
            limits = limits.with_nodes(REPRODUCIBLE_NODES);
        } else {
            // More threads make the moves depend on the machine: never in a reproducible game.
            limits = limits.with_threads(THREADS.load(std::sync::atomic::Ordering::Relaxed));
        }
        if let Some(budget) = budget {
            limits = limits.with_time(budget);
        }
        Some(Thinking {
            handle: Some(ai::SearchHandle::spawn(engine, pos, limits)),
        })
    }

    /// The chosen move once the search is over: `Some(Ok(square))`, `Some(Err(message))` if the
    /// engine failed, `None` while it is still thinking.
    pub fn poll(&mut self) -> Option<Result<Square, String>> {
        if !self.handle.as_ref()?.is_finished() {
            return None;
        }
        let (_, result) = self.handle.take()?.join();
        Some(match result {
            Ok(r) => r
                .best_move
                .square()
                .ok_or_else(|| "the engine passed although a move exists".to_string()),
            Err(e) => Err(e.to_string()),
        })
    }

    /// Waits up to `timeout` for the move (see [`Thinking::poll`]).
    pub fn wait(&mut self, timeout: Duration) -> Option<Result<Square, String>> {
        let until = Instant::now() + timeout;
        loop {
            if let Some(r) = self.poll() {
                return Some(r);
            }
            let now = Instant::now();
            if now >= until {
                return None;
            }
            std::thread::sleep((until - now).min(Duration::from_millis(2)));
        }
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        if let Some(h) = &self.handle {
            h.stop();
        }
    }
}

/// The node limit of Hard's and Expert's searches in reproducible (scripted) games.
const REPRODUCIBLE_NODES: u64 = 400_000;

/// One hint: a legal move and its score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The move.
    pub square: Square,
    /// Its score: the final disc difference when `exact`, else the engine's evaluation (see
    /// [`ESTIMATE_UNIT`]).
    pub score: i32,
    /// Whether the score is the exact result of perfect play.
    pub exact: bool,
}

/// What a score that is not exact counts: discs when `reversi-ai` has its trained evaluation
/// built in (it estimates the final disc margin), otherwise the Hard evaluation's own points,
/// which weigh corners, mobility and discs together and are not discs; the label says which.
pub const ESTIMATE_UNIT: &str = if ai::MIDGAME_HINTS_IN_DISCS {
    "estimated discs"
} else {
    "evaluation points (not discs)"
};

/// Scores from this far out are a win or loss the midgame search found (reversi-ai scores a
/// finished game ±10000 plus the disc difference), by a margin it did not solve exactly.
const FOUND_RESULT: i32 = 9_900;

impl Hint {
    /// The score as shown after the move's square: `+4` (discs when exact, else
    /// [`ESTIMATE_UNIT`]), `win` or `loss` for a result found but not solved exactly, and a
    /// trailing `!` on exact scores when `mark_exact` (a list that mixes both kinds).
    pub fn score_text(&self, mark_exact: bool) -> String {
        let text = if !self.exact && self.score >= FOUND_RESULT {
            "win".to_string()
        } else if !self.exact && self.score <= -FOUND_RESULT {
            "loss".to_string()
        } else {
            format!("{:+}", self.score)
        };
        if mark_exact && self.exact {
            text + "!"
        } else {
            text
        }
    }
}

/// What the scores of a list of hints mean, to follow "best first, ": exact disc margins when
/// every one is exact, the evaluation's unit when none is, both (with `!` marking the exact
/// ones) otherwise. The second value says whether the items mark exact scores with `!`.
pub fn hint_scale(hints: &[Hint]) -> (String, bool) {
    let exact = hints.iter().filter(|h| h.exact).count();
    if !hints.is_empty() && exact == hints.len() {
        ("exact final disc margins".to_string(), false)
    } else if exact == 0 {
        (format!("in {ESTIMATE_UNIT}"), false)
    } else {
        (format!("in {ESTIMATE_UNIT}, ! exact disc margins"), true)
    }
}

/// Scores for every legal move, best first, from `reversi-ai`'s hint API, computed on a
/// background thread. Dropping the job stops it.
pub struct Hints {
    stop: Arc<AtomicBool>,
    rx: Receiver<Vec<Hint>>,
}

impl Hints {
    /// Starts scoring the moves of `pos`: a search that deepens for about a second, exact near
    /// the end of the game.
    pub fn start(pos: Position) -> Hints {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let limits = ai::Limits::nodes(3_000_000).with_time(Duration::from_millis(1000));
            let hints = ai::hints(&pos, &limits, ai::Scoring::DiscDifference, &flag)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|h| {
                    Some(Hint {
                        square: h.mv.square()?,
                        score: h.score,
                        exact: h.exact,
                    })
                })
                .collect();
            let _ = tx.send(hints);
        });
        Hints { stop, rx }
    }

    /// The hints once ready.
    pub fn poll(&self) -> Option<Vec<Hint>> {
        self.rx.try_recv().ok()
    }

    /// Waits for the hints (empty if the thread failed).
    pub fn wait(self) -> Vec<Hint> {
        self.rx.recv().unwrap_or_default()
    }
}

impl Drop for Hints {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(score: i32, exact: bool) -> Hint {
        Hint {
            square: Square::D3,
            score,
            exact,
        }
    }

    #[test]
    fn scores_read_as_what_they_are() {
        assert_eq!(hint(12, false).score_text(false), "+12");
        assert_eq!(hint(-254, false).score_text(true), "-254");
        assert_eq!(hint(0, true).score_text(false), "+0");
        assert_eq!(hint(-4, true).score_text(true), "-4!");
        // A result the midgame search found (±10000 and the disc difference) is not a score.
        assert_eq!(hint(10_012, false).score_text(false), "win");
        assert_eq!(hint(-10_002, false).score_text(true), "loss");
        assert_eq!(hint(64, true).score_text(false), "+64");
    }

    #[test]
    fn the_scale_names_the_unit_and_exact_only_when_exact() {
        let none = [hint(5, false), hint(-3, false)];
        assert_eq!(hint_scale(&none), (format!("in {ESTIMATE_UNIT}"), false));
        assert!(!hint_scale(&none).0.contains("exact"));
        let all = [hint(4, true), hint(-2, true)];
        assert_eq!(
            hint_scale(&all),
            ("exact final disc margins".to_string(), false)
        );
        let mixed = [hint(4, true), hint(-20, false)];
        let (scale, mark) = hint_scale(&mixed);
        assert!(mark);
        assert!(scale.contains(ESTIMATE_UNIT) && scale.contains("! exact disc margins"));
    }
}
