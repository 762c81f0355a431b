//! Search limits and results, as plain data.

use crate::time::{Deadline, TimeSource};
use reversi_core::Move;
use std::time::Duration;

/// Limits of a search: depth in plies, nodes, and wall time. `None` means no limit.
///
/// A node limit is the deterministic clock: the same engine, seed, position and node limit give
/// the same move on any machine. An engine obeys the tighter of its own limits (Hard's 0.85 s)
/// and the caller's.
///
/// # Examples
///
/// ```
/// use reversi_ai::Limits;
/// use std::time::Duration;
/// let l = Limits::nodes(100_000).min(Limits::time(Duration::from_millis(500)));
/// assert_eq!(l, Limits::none().with_nodes(100_000).with_time(Duration::from_millis(500)));
/// assert_eq!(l.depth, None);
/// assert_eq!(Limits::depth(6).min(Limits::depth(4)).depth, Some(4));
/// ```
///
/// The struct may gain fields: build it with [`Limits::none`], [`Limits::depth`],
/// [`Limits::nodes`] or [`Limits::time`] and the `with_*` methods.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Limits {
    /// Maximum midgame depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Maximum wall time.
    pub time: Option<Duration>,
    /// Where the time is read; `None` is [`TimeSource::system`].
    pub time_source: Option<TimeSource>,
    /// Threads of the search; `None` is one. Expert searches its midgame on all of them
    /// (they share one table; the first thread's result is the answer), so its moves under
    /// more than one thread are not reproducible; its exact phase and the [`crate::Solver`]
    /// split the exact search among them (young brothers wait: the other moves of a node are
    /// shared once its first is searched; the scores are the same as on one thread, the node
    /// counts are not). The other levels use one. WebAssembly builds search on one thread.
    pub threads: Option<u32>,
}

fn min_opt<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

impl Limits {
    /// No limit.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::Limits::NONE, reversi_ai::Limits::default());
    /// ```
    pub const NONE: Limits = Limits {
        depth: None,
        nodes: None,
        time: None,
        time_source: None,
        threads: None,
    };

    /// No limit, same as [`Limits::NONE`]: the start of a builder.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::Limits;
    /// let l = Limits::none().with_depth(8).with_nodes(1_000_000);
    /// assert_eq!((l.depth, l.nodes, l.time), (Some(8), Some(1_000_000), None));
    /// ```
    #[must_use]
    pub const fn none() -> Limits {
        Limits::NONE
    }

    /// These limits with a depth limit of `depth` plies (replacing any depth limit).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::Limits::nodes(10).with_depth(3).depth, Some(3));
    /// ```
    #[must_use]
    pub const fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    /// These limits with a node limit (replacing any node limit).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::Limits::depth(4).with_nodes(500).nodes, Some(500));
    /// ```
    #[must_use]
    pub const fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// These limits with a wall-time limit (replacing any time limit).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// let l = reversi_ai::Limits::depth(4).with_time(Duration::from_millis(250));
    /// assert_eq!(l.time, Some(Duration::from_millis(250)));
    /// ```
    #[must_use]
    pub const fn with_time(mut self, time: Duration) -> Limits {
        self.time = Some(time);
        self
    }

    /// A depth limit only.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::Limits::depth(5).depth, Some(5));
    /// ```
    #[must_use]
    pub const fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            nodes: None,
            time: None,
            time_source: None,
            threads: None,
        }
    }

    /// A node limit only.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::Limits::nodes(10).nodes, Some(10));
    /// ```
    #[must_use]
    pub const fn nodes(nodes: u64) -> Limits {
        Limits {
            depth: None,
            nodes: Some(nodes),
            time: None,
            time_source: None,
            threads: None,
        }
    }

    /// A time limit only.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// assert_eq!(reversi_ai::Limits::time(Duration::from_secs(1)).time, Some(Duration::from_secs(1)));
    /// ```
    #[must_use]
    pub const fn time(time: Duration) -> Limits {
        Limits {
            depth: None,
            nodes: None,
            time: Some(time),
            time_source: None,
            threads: None,
        }
    }

    /// The tighter of two limits, field by field.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::Limits;
    /// assert_eq!(Limits::depth(3).min(Limits::NONE), Limits::depth(3));
    /// ```
    #[must_use]
    pub fn min(self, other: Limits) -> Limits {
        Limits {
            depth: min_opt(self.depth, other.depth),
            nodes: min_opt(self.nodes, other.nodes),
            time: min_opt(self.time, other.time),
            time_source: self.time_source.or(other.time_source),
            threads: min_opt(self.threads, other.threads),
        }
    }

    /// These limits with `threads` search threads (at least one; replacing any thread count).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::Limits;
    /// assert_eq!(Limits::NONE.with_threads(2).threads, Some(2));
    /// assert_eq!(Limits::NONE.with_threads(0).threads, Some(1));
    /// assert_eq!(Limits::NONE.with_threads(4).min(Limits::NONE.with_threads(2)).threads, Some(2));
    /// ```
    #[must_use]
    pub const fn with_threads(mut self, threads: u32) -> Limits {
        self.threads = Some(if threads == 0 { 1 } else { threads });
        self
    }

    /// These limits with the time read from `source` (replacing any source).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Limits, TimeSource};
    /// let l = Limits::NONE.with_time_source(TimeSource::system());
    /// assert_eq!(l.time_source, Some(TimeSource::system()));
    /// ```
    #[must_use]
    pub const fn with_time_source(mut self, source: TimeSource) -> Limits {
        self.time_source = Some(source);
        self
    }

    /// The deadline of the time limit, counted from now on the time source.
    pub(crate) fn deadline(&self) -> Option<Deadline> {
        self.time
            .map(|t| Deadline::after(self.time_source.unwrap_or_default(), t))
    }
}

/// The result of [`crate::Engine::choose`].
///
/// # Examples
///
/// ```
/// use reversi_ai::{Engine, Level, Limits};
/// use reversi_core::Position;
/// use std::sync::atomic::AtomicBool;
/// let r = Level::Normal.engine(0).choose(&Position::initial(), &Limits::NONE, &AtomicBool::new(false)).unwrap();
/// assert!(Position::initial().play(r.best_move).is_ok());
/// assert_eq!(r.pv.first(), Some(&r.best_move));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchResult {
    /// The move to play: always legal, and a pass only when the side to move must pass.
    pub best_move: Move,
    /// The score for the side to move: the exact final disc difference when `exact`, otherwise
    /// the engine's heuristic evaluation (positive favours the side to move; finished games in a
    /// midgame search score ±10000 plus the disc difference). 0 for moves chosen without search.
    pub score: i32,
    /// Whether `score` is the exact result of perfect play.
    pub exact: bool,
    /// The deepest completed midgame depth (the number of empties when exact, 0 without search).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation, starting with `best_move` (may be just that move).
    pub pv: Vec<Move>,
}

impl SearchResult {
    /// A move chosen without search (what an [`crate::Engine`] of its own, such as one that
    /// asks a program or a person, returns): score 0, not exact, depth 0, no nodes, and the
    /// move as the whole principal variation. The `with_*` methods add what a search knows.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::SearchResult;
    /// use reversi_core::{Move, Square};
    /// let r = SearchResult::new(Move::Place(Square::D3));
    /// assert_eq!((r.score, r.exact, r.depth, r.nodes), (0, false, 0, 0));
    /// assert_eq!(r.pv, [Move::Place(Square::D3)]);
    /// ```
    #[must_use]
    pub fn new(best_move: Move) -> SearchResult {
        SearchResult {
            best_move,
            score: 0,
            exact: false,
            depth: 0,
            nodes: 0,
            pv: vec![best_move],
        }
    }

    /// This result with a score, exact or not.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::SearchResult;
    /// use reversi_core::Move;
    /// let r = SearchResult::new(Move::Pass).with_score(-6, true);
    /// assert_eq!((r.score, r.exact), (-6, true));
    /// ```
    #[must_use]
    pub fn with_score(mut self, score: i32, exact: bool) -> SearchResult {
        self.score = score;
        self.exact = exact;
        self
    }

    /// This result with the deepest completed depth.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::SearchResult;
    /// use reversi_core::Move;
    /// assert_eq!(SearchResult::new(Move::Pass).with_depth(9).depth, 9);
    /// ```
    #[must_use]
    pub fn with_depth(mut self, depth: u32) -> SearchResult {
        self.depth = depth;
        self
    }

    /// This result with a node count.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::SearchResult;
    /// use reversi_core::Move;
    /// assert_eq!(SearchResult::new(Move::Pass).with_nodes(1234).nodes, 1234);
    /// ```
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> SearchResult {
        self.nodes = nodes;
        self
    }

    /// This result with a principal variation; it should start with the best move.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::SearchResult;
    /// use reversi_core::{Move, Square};
    /// let pv = vec![Move::Place(Square::D3), Move::Place(Square::C5)];
    /// let r = SearchResult::new(Move::Place(Square::D3)).with_pv(pv.clone());
    /// assert_eq!(r.pv, pv);
    /// ```
    #[must_use]
    pub fn with_pv(mut self, pv: Vec<Move>) -> SearchResult {
        self.pv = pv;
        self
    }
}
