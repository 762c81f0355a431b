//! The `Engine` trait and the three levels.

use crate::bits::{flips, legal};
use crate::eval;
use crate::rng::Rng;
use crate::search::{Search, INF, WIN};
use crate::tt::{TransTable, NEAR_END_LEVELS, NO_MOVE};
use crate::{AiError, Limits, SearchResult};
use reversi_core::{Move, Position, Square};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A move chooser that any frontend drives the same way: give it a position, limits and a stop
/// flag; it returns a legal move (a pass only when the side to move must pass).
///
/// Each level is an implementation; `Box<dyn Engine>` is one too.
///
/// # Examples
///
/// ```
/// use reversi_ai::{Engine, Level, Limits};
/// use reversi_core::Position;
/// use std::sync::atomic::{AtomicBool, Ordering};
/// let stop = AtomicBool::new(false);
/// let mut pos = Position::initial();
/// let mut engines = [Level::Easy.engine(7), Level::Normal.engine(7)];
/// let mut turn = 0;
/// while !pos.is_game_over() {
///     let r = engines[turn % 2].choose(&pos, &Limits::NONE, &stop).unwrap();
///     pos = pos.play(r.best_move).unwrap();
///     turn += 1;
/// }
/// // A whole game: at least the 60 placements that fill the board, or fewer when a side is
/// // wiped out or both are blocked; passes count as turns.
/// assert!(pos.outcome().is_some());
/// assert!(turn >= pos.black().count() as usize + pos.white().count() as usize - 4);
/// assert!(!stop.load(Ordering::Relaxed));
/// ```
pub trait Engine: Send {
    /// A short name for display, such as `hard` or `depth:6`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::Level;
    /// assert_eq!(Level::Hard.engine(0).name(), "hard");
    /// ```
    fn name(&self) -> String;

    /// Chooses a move for the side to move, within the tighter of the engine's own limits and
    /// `limits`, returning early with a legal move when `stop` is set.
    ///
    /// # Errors
    ///
    /// [`AiError::GameOver`] when neither side can move.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Engine, Level, Limits};
    /// use reversi_core::Position;
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// let r = Level::Hard.engine(0).choose(&Position::initial(), &Limits::nodes(20_000), &AtomicBool::new(false)).unwrap();
    /// assert!(Position::initial().play(r.best_move).is_ok());
    /// ```
    fn choose(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<SearchResult, AiError>;
}

impl<E: Engine + ?Sized> Engine for Box<E> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn choose(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<SearchResult, AiError> {
        (**self).choose(pos, limits, stop)
    }
}

/// Handles the cases without a choice: a finished game (error), a forced pass.
fn forced(pos: &Position) -> Option<Result<SearchResult, AiError>> {
    if pos.is_game_over() {
        Some(Err(AiError::GameOver))
    } else if pos.must_pass() {
        Some(Ok(SearchResult::new(Move::Pass)))
    } else {
        None
    }
}

fn sq(i: u8) -> Square {
    Square::from_index(i).expect("square index below 64")
}

/// The levels promised to players.
///
/// # Examples
///
/// ```
/// use reversi_ai::Level;
/// assert_eq!("normal".parse::<Level>().unwrap(), Level::Normal);
/// assert_eq!(Level::Easy.to_string(), "easy");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Level {
    /// A random legal move; one time in three, the move that flips the most discs.
    Easy,
    /// Alpha-beta three plies deep on the square table.
    Normal,
    /// Iterative deepening within about 0.85 s on a richer evaluation, exact at 14 empties.
    Hard,
    /// The trained pattern evaluation ([`crate::pattern`]) with a deeper search, about 1 s a
    /// move, exact from 16 to 22 empties ([`crate::Expert`]).
    Expert,
}

impl Level {
    /// An engine of this level; `seed` drives its randomness.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::Level;
    /// assert_eq!(Level::Normal.engine(3).name(), "normal");
    /// ```
    #[must_use]
    pub fn engine(self, seed: u64) -> Box<dyn Engine> {
        match self {
            Level::Easy => Box::new(Easy::new(seed)),
            Level::Normal => Box::new(Normal::new(seed)),
            Level::Hard => Box::new(SearchEngine::hard()),
            Level::Expert => Box::new(crate::Expert::new()),
        }
    }
}

impl core::fmt::Display for Level {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
            Level::Expert => "expert",
        })
    }
}

impl core::str::FromStr for Level {
    type Err = AiError;
    /// Parses `easy`, `normal`, `hard` or `expert` (any case).
    ///
    /// # Errors
    ///
    /// [`AiError::EngineName`] otherwise.
    fn from_str(s: &str) -> Result<Self, AiError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "easy" => Ok(Level::Easy),
            "normal" => Ok(Level::Normal),
            "hard" => Ok(Level::Hard),
            "expert" => Ok(Level::Expert),
            _ => Err(AiError::EngineName(s.to_string())),
        }
    }
}

/// Builds an engine from its name: `easy`, `normal`, `hard`, `expert`, `depth:N` (a midgame search N
/// plies deep, exact at 14 empties) or `nodes:N` (iterative deepening within N nodes, exact at 14
/// empties when the budget allows).
///
/// # Errors
///
/// [`AiError::EngineName`] for any other name.
///
/// # Examples
///
/// ```
/// use reversi_ai::engine_from_name;
/// assert_eq!(engine_from_name("depth:4", 1).unwrap().name(), "depth:4");
/// assert!(engine_from_name("grandmaster", 1).is_err());
/// ```
pub fn engine_from_name(name: &str, seed: u64) -> Result<Box<dyn Engine>, AiError> {
    if let Ok(level) = name.parse::<Level>() {
        return Ok(level.engine(seed));
    }
    let bad = || AiError::EngineName(name.to_string());
    let (kind, n) = name.split_once(':').ok_or_else(bad)?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    match kind.trim().to_ascii_lowercase().as_str() {
        "depth" if (1..=60).contains(&n) => Ok(Box::new(SearchEngine::new(
            format!("depth:{n}"),
            Limits::depth(n as u32),
            14,
        ))),
        "nodes" if n > 0 => Ok(Box::new(SearchEngine::new(
            format!("nodes:{n}"),
            Limits::nodes(n),
            14,
        ))),
        _ => Err(bad()),
    }
}

/// The Easy level: a random legal move, or with probability 1/3 the move that flips the most
/// discs (ties broken at random). It pays no attention to corners or X-squares.
///
/// It does not search: it answers at once with its move, so within any node or time limit, and
/// whether `stop` is set or not (its result reports 0 nodes).
///
/// # Examples
///
/// ```
/// use reversi_ai::{Easy, Engine, Limits};
/// use reversi_core::Position;
/// use std::sync::atomic::{AtomicBool, Ordering};
/// let stop = AtomicBool::new(false);
/// let a = Easy::new(42).choose(&Position::initial(), &Limits::NONE, &stop).unwrap();
/// let b = Easy::new(42).choose(&Position::initial(), &Limits::NONE, &stop).unwrap();
/// assert_eq!(a.best_move, b.best_move); // same seed, same move
/// ```
#[derive(Clone, Debug)]
pub struct Easy {
    rng: Rng,
}

impl Easy {
    /// An Easy engine with a seed.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Easy, Engine, Limits};
    /// use reversi_core::Position;
    /// use std::sync::atomic::AtomicBool;
    /// let stop = AtomicBool::new(false);
    /// let pos = Position::initial();
    /// let a = Easy::new(1).choose(&pos, &Limits::NONE, &stop).unwrap();
    /// let b = Easy::new(1).choose(&pos, &Limits::NONE, &stop).unwrap();
    /// assert_eq!(a.best_move, b.best_move); // the same seed, the same move
    /// assert!(pos.play(a.best_move).is_ok());
    /// assert_eq!(Easy::new(1).name(), "easy");
    /// ```
    #[must_use]
    pub fn new(seed: u64) -> Easy {
        Easy {
            rng: Rng::new(seed),
        }
    }
}

impl Engine for Easy {
    fn name(&self) -> String {
        "easy".into()
    }

    fn choose(
        &mut self,
        pos: &Position,
        _limits: &Limits,
        _stop: &AtomicBool,
    ) -> Result<SearchResult, AiError> {
        if let Some(r) = forced(pos) {
            return r;
        }
        let moves: Vec<Square> = pos.legal_moves().iter().collect();
        let pick = if self.rng.below(3) == 0 {
            let most = moves
                .iter()
                .map(|&s| pos.flips(s).count())
                .max()
                .unwrap_or(0);
            let best: Vec<Square> = moves
                .iter()
                .copied()
                .filter(|&s| pos.flips(s).count() == most)
                .collect();
            best[self.rng.below(best.len() as u64) as usize]
        } else {
            moves[self.rng.below(moves.len() as u64) as usize]
        };
        Ok(SearchResult::new(Move::Place(pick)))
    }
}

/// The Normal level: alpha-beta three plies deep (its move, the reply, its move) on the square
/// table [`crate::SQUARE_TABLE`]; equal best moves are broken at random by the seed.
///
/// A caller's depth limit below three makes the search shallower. When `stop` is set, or the
/// node or time limit is reached, it returns at once the best of the moves searched to the end
/// (or, if none was, the move with the best square-table value after it).
///
/// # Examples
///
/// ```
/// use reversi_ai::{Engine, Limits, Normal};
/// use reversi_core::{Move, Position, Square};
/// use std::sync::atomic::{AtomicBool, Ordering};
/// // Black can take the a1 corner.
/// let pos: Position = format!("-OOX{} X", "-".repeat(60)).parse().unwrap();
/// let r = Normal::new(0).choose(&pos, &Limits::NONE, &AtomicBool::new(false)).unwrap();
/// assert_eq!(r.best_move, Move::Place(Square::A1));
///
/// // Within ten nodes: a legal move all the same.
/// let r = Normal::new(0).choose(&Position::initial(), &Limits::nodes(10), &AtomicBool::new(false)).unwrap();
/// assert!(r.nodes <= 10 && Position::initial().play(r.best_move).is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct Normal {
    rng: Rng,
}

/// The depth of the Normal level, in plies.
const NORMAL_DEPTH: u32 = 3;

/// The size of the Normal level's transposition table (2^`NORMAL_TT_BITS` entries at most):
/// its searches are three plies deep.
const NORMAL_TT_BITS: u32 = 10;

impl Normal {
    /// A Normal engine with a seed.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Engine, Limits, Normal};
    /// use reversi_core::Position;
    /// use std::sync::atomic::AtomicBool;
    /// let mut normal = Normal::new(1);
    /// let r = normal.choose(&Position::initial(), &Limits::NONE, &AtomicBool::new(false)).unwrap();
    /// assert!(Position::initial().is_legal(r.best_move.square().unwrap()));
    /// assert_eq!(normal.name(), "normal");
    /// ```
    #[must_use]
    pub fn new(seed: u64) -> Normal {
        Normal {
            rng: Rng::new(seed),
        }
    }
}

impl Engine for Normal {
    fn name(&self) -> String {
        "normal".into()
    }

    fn choose(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<SearchResult, AiError> {
        if let Some(r) = forced(pos) {
            return r;
        }
        let depth = limits
            .depth
            .map_or(NORMAL_DEPTH, |d| d.clamp(1, NORMAL_DEPTH));
        // The search core, on the square table, with the caller's budget (nodes, clock, stop).
        let tt = TransTable::new(NORMAL_TT_BITS).with_near_end(NEAR_END_LEVELS);
        let mut search = Search::new(&tt, &tt, stop, limits.nodes, limits.deadline());
        let (p, o) = (pos.player().0, pos.opponent().0);
        let mut best = -INF;
        let mut ties: Vec<u8> = Vec::new();
        let mut mm = legal(p, o);
        while mm != 0 {
            let s = mm.trailing_zeros();
            mm &= mm - 1;
            let f = flips(p, o, s);
            // Exact score of each root move (window just below the best), so ties are seen.
            let v = -search.table_value(o ^ f, p ^ f ^ (1 << s), depth - 1, -INF, -(best - 1));
            if search.aborted {
                break; // this move's score is unknown
            }
            if v > best {
                best = v;
                ties.clear();
            }
            if v == best {
                ties.push(s as u8);
            }
        }
        let (pick, score, depth) = if ties.is_empty() {
            // Stopped before any move was searched: the best square-table value after the move.
            let (q, v) = static_best(p, o);
            (q, v, 0)
        } else {
            (
                ties[self.rng.below(ties.len() as u64) as usize],
                best,
                depth,
            )
        };
        Ok(SearchResult {
            best_move: Move::Place(sq(pick)),
            score,
            exact: false,
            depth,
            nodes: search.nodes,
            pv: vec![Move::Place(sq(pick))],
        })
    }
}

/// The legal move of `(p, o)` (which has one) with the best square-table value after it, the
/// first in square order among equals, and that value.
fn static_best(p: u64, o: u64) -> (u8, i32) {
    let mut best = (0, -INF);
    let mut mm = legal(p, o);
    while mm != 0 {
        let s = mm.trailing_zeros();
        mm &= mm - 1;
        let f = flips(p, o, s);
        let v = -eval::table(o ^ f, p ^ f ^ (1 << s));
        if v > best.1 {
            best = (s as u8, v);
        }
    }
    best
}

/// A searching engine: iterative deepening on the Hard evaluation within its limits, and an
/// exact solve from a number of empties on (falling back to the deepest completed midgame result
/// when the solve does not finish in time). [`SearchEngine::hard`] is the Hard level.
///
/// # Examples
///
/// ```
/// use reversi_ai::{Engine, Limits, SearchEngine};
/// use reversi_core::Position;
/// use std::sync::atomic::{AtomicBool, Ordering};
/// let mut e = SearchEngine::new("depth:4".into(), Limits::depth(4), 14);
/// let r = e.choose(&Position::initial(), &Limits::NONE, &AtomicBool::new(false)).unwrap();
/// assert_eq!(r.depth, 4);
/// ```
pub struct SearchEngine {
    name: String,
    limits: Limits,
    solve_empties: u32,
    mid_tt: TransTable,
    end_tt: TransTable,
}

impl std::fmt::Debug for SearchEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchEngine")
            .field("name", &self.name)
            .field("limits", &self.limits)
            .field("solve_empties", &self.solve_empties)
            .finish_non_exhaustive()
    }
}

/// The time budget of the Hard level.
pub const HARD_TIME: Duration = Duration::from_millis(850);

impl SearchEngine {
    /// An engine with its own limits, solving exactly from `solve_empties` empties down.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Engine, Limits, SearchEngine};
    /// use reversi_core::Position;
    /// use std::sync::atomic::AtomicBool;
    /// let mut e = SearchEngine::new("nodes:100000".into(), Limits::nodes(100_000), 14);
    /// assert_eq!(e.name(), "nodes:100000");
    /// let r = e.choose(&Position::initial(), &Limits::NONE, &AtomicBool::new(false)).unwrap();
    /// assert!(r.nodes > 0 && r.nodes <= 110_000, "{} nodes", r.nodes);
    /// ```
    #[must_use]
    pub fn new(name: String, limits: Limits, solve_empties: u32) -> SearchEngine {
        SearchEngine {
            name,
            limits,
            solve_empties,
            mid_tt: TransTable::new(18).with_near_end(NEAR_END_LEVELS),
            end_tt: TransTable::new(18).with_near_end(NEAR_END_LEVELS),
        }
    }

    /// The Hard level: about 0.85 s a move ([`HARD_TIME`]), exact at 14 empties or fewer.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::SearchEngine::hard().name_str(), "hard");
    /// ```
    #[must_use]
    pub fn hard() -> SearchEngine {
        SearchEngine::new("hard".into(), Limits::time(HARD_TIME), 14)
    }

    /// The name of the engine.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::SearchEngine::hard().name_str(), "hard");
    /// ```
    #[must_use]
    pub fn name_str(&self) -> &str {
        &self.name
    }
}

impl Engine for SearchEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<SearchResult, AiError> {
        if let Some(r) = forced(pos) {
            return r;
        }
        let lim = self.limits.min(*limits);
        let deadline = lim.deadline();
        let (p, o) = (pos.player().0, pos.opponent().0);
        let empties = pos.empty().count();
        let moves = legal(p, o);
        // Fresh tables every move: the same position and limits give the same move.
        self.mid_tt.clear();
        self.end_tt.clear();
        let mut s = Search::new(&self.mid_tt, &self.end_tt, stop, lim.nodes, deadline);
        // Initial order: by the evaluation after each move.
        let mut order: Vec<(u8, i32)> = Vec::new();
        let mut mm = moves;
        while mm != 0 {
            let q = mm.trailing_zeros();
            mm &= mm - 1;
            let f = flips(p, o, q);
            order.push((q as u8, -eval::hard(o ^ f, p ^ f ^ (1 << q))));
        }
        order.sort_by_key(|m| std::cmp::Reverse(m.1));
        let mut result = SearchResult {
            best_move: Move::Place(sq(order[0].0)),
            score: order[0].1,
            exact: false,
            depth: 0,
            nodes: 0,
            pv: vec![Move::Place(sq(order[0].0))],
        };
        if order.len() == 1 && lim.nodes.is_none() && lim.depth.is_none() {
            return Ok(result);
        }
        let solving = empties <= self.solve_empties;
        let max_depth = lim.depth.unwrap_or(60).min(empties).max(1);
        // Before an exact solve, a short midgame search is enough (ordering and fallback).
        let mid_max = if solving { max_depth.min(6) } else { max_depth };
        for depth in 1..=mid_max {
            let sqs: Vec<u8> = order.iter().map(|m| m.0).collect();
            let Some(r) = s.mid_root(p, o, depth, &sqs, false) else {
                break;
            };
            order = r;
            result.best_move = Move::Place(sq(order[0].0));
            result.pv = vec![result.best_move];
            result.score = order[0].1;
            result.depth = depth;
            if order[0].1.abs() >= WIN {
                break; // a proven result
            }
            if let (Some(t), false) = (lim.time, solving) {
                // The next iteration would most likely not finish in time.
                if deadline.is_some_and(|d| d.elapsed() * 3 > t) {
                    break;
                }
            }
        }
        if solving && !s.aborted {
            let (score, mv) = s.end_root(p, o, -64, 64);
            if !s.aborted && mv != NO_MOVE {
                result.best_move = Move::Place(sq(mv));
                result.pv = vec![result.best_move];
                result.score = score;
                result.exact = true;
                result.depth = empties;
            }
        }
        result.nodes = s.nodes;
        Ok(result)
    }
}
