//! The Expert level: the search core's trained, selective midgame search
//! ([`crate::search`], Multi-ProbCut with the parameters stored with the weights) on the
//! trained pattern evaluation ([`crate::pattern`]), iterative deepening within about a second,
//! and an exact solve of the endgame as early as the time allows.

use crate::bits::{flips, legal};
use crate::pattern::{Weights, UNITS_PER_DISC};
use crate::search::{Search, SearchKernel};
use crate::time::Deadline;
use crate::tt::{TransTable, NO_MOVE};
use crate::{AiError, Engine, Limits, SearchResult};
use reversi_core::movegen::Kernel;
use reversi_core::{Move, Position, Square};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The time budget of the Expert level per move.
pub const EXPERT_TIME: Duration = Duration::from_millis(950);

/// From this many empties down, the endgame is always solved exactly.
const SOLVE_ALWAYS: u32 = 16;
/// From this many empties down, an exact solve is tried with the time left after the midgame
/// search.
const SOLVE_TRY: u32 = 22;
/// From this many empties down to [`SOLVE_ALWAYS`] (not included), a selective solve (the
/// solver's presearch) is tried with the time left after the midgame search, before any exact
/// one.
const SELECT_TRY: u32 = 24;
/// The selectivity of that solve (the solver's presearch's).
const SELECT_LEVEL: u8 = 1;

/// Where the weights come from.
#[derive(Clone)]
enum Source {
    Embedded(&'static Weights),
    Owned(Arc<Weights>),
}

impl Source {
    fn get(&self) -> &Weights {
        match self {
            Source::Embedded(w) => w,
            Source::Owned(w) => w,
        }
    }
}

/// The Expert engine: the trained pattern evaluation, iterative deepening with a transposition
/// table (about 0.95 s a move by default, [`EXPERT_TIME`]) and an exact endgame (always at 16
/// empties or fewer, from 22 empties when the time allows). Its scores are in discs.
///
/// Under a depth or node limit every move starts from empty tables, so that the same position
/// and limits give the same move; under a time limit alone the tables carry over from one move
/// to the next (an engine playing a game reaches deeper for what its earlier moves stored).
///
/// # Examples
///
/// ```
/// use reversi_ai::{Engine, Expert, Limits};
/// use reversi_core::Position;
/// use std::sync::atomic::AtomicBool;
/// let mut e = Expert::new().with_limits(Limits::depth(4));
/// let r = e.choose(&Position::initial(), &Limits::NONE, &AtomicBool::new(false)).unwrap();
/// assert_eq!(r.depth, 4);
/// assert!(Position::initial().play(r.best_move).is_ok());
/// ```
pub struct Expert {
    /// `None` in a build without embedded weights before any were installed or given.
    weights: Option<Source>,
    limits: Limits,
    /// Multi-ProbCut on (when the weights have its parameters).
    selective: bool,
    /// Standard deviations a cut needs.
    confidence: f32,
    /// The move generation kernel of the search.
    kernel: SearchKernel,
    tt: TransTable,
    end_tt: TransTable,
}

impl std::fmt::Debug for Expert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Expert")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Default for Expert {
    fn default() -> Self {
        Expert::new()
    }
}

impl Expert {
    /// The Expert level with the active weights ([`Weights::active`]: those installed at run
    /// time with [`Weights::install`], else the ones built into the library). With none
    /// (feature `embedded-weights` off and nothing installed) until [`Expert::with_weights`]
    /// gives some, [`Engine::choose`] answers [`AiError::NoWeights`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Engine, Expert};
    /// use reversi_core::Position;
    /// let e = Expert::new();
    /// assert_eq!(e.name(), "expert");
    /// // The start position is symmetric: any weights score it near a draw.
    /// assert!(e.evaluate(&Position::initial()).abs() < 10.0);
    /// ```
    #[must_use]
    pub fn new() -> Expert {
        Expert {
            weights: Weights::active().ok().map(Source::Embedded),
            limits: Limits::time(EXPERT_TIME),
            selective: true,
            confidence: crate::probcut::DEFAULT_T,
            kernel: SearchKernel::best(),
            tt: TransTable::new(19),
            end_tt: TransTable::new(19),
        }
    }

    /// This engine with other weights (for instance read with [`Weights::from_bytes`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{pattern::Weights, Expert};
    /// use reversi_core::Position;
    /// use std::sync::Arc;
    /// let e = Expert::new().with_weights(Arc::new(Weights::zero()));
    /// assert_eq!(e.evaluate(&Position::initial()), 0.0);
    /// ```
    #[must_use]
    pub fn with_weights(mut self, weights: Arc<Weights>) -> Expert {
        self.weights = Some(Source::Owned(weights));
        self.forget();
        self
    }

    /// This engine with its own limits instead of [`EXPERT_TIME`] a move (a caller's limits
    /// passed to [`Engine::choose`] still apply on top).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Engine, Expert, Limits};
    /// use reversi_core::Position;
    /// use std::sync::atomic::AtomicBool;
    /// let mut e = Expert::new().with_limits(Limits::depth(2));
    /// let r = e.choose(&Position::initial(), &Limits::NONE, &AtomicBool::new(false)).unwrap();
    /// assert!(r.depth <= 2);
    /// assert!(Position::initial().play(r.best_move).is_ok());
    /// ```
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Expert {
        self.limits = limits;
        self
    }

    /// This engine searching full width (`false`) or selectively (`true`, the default: with
    /// Multi-ProbCut when its weights carry the parameters, [`Weights::probcut`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Engine, Expert, Limits};
    /// use reversi_core::Position;
    /// use std::sync::atomic::AtomicBool;
    /// let mut e = Expert::new().with_selectivity(false).with_limits(Limits::depth(3));
    /// let r = e.choose(&Position::initial(), &Limits::NONE, &AtomicBool::new(false));
    /// assert!(r.is_ok() || !cfg!(feature = "embedded-weights"));
    /// ```
    #[must_use]
    pub fn with_selectivity(mut self, selective: bool) -> Expert {
        self.selective = selective;
        self.forget();
        self
    }

    /// This engine with another confidence for its cuts: a node is cut when the shallow
    /// search's prediction clears the bound by `t` standard deviations (default
    /// [`crate::probcut::DEFAULT_T`]; higher is safer and slower, lower prunes more). `t` is
    /// taken between 0.5 and 8.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Engine, Expert, Limits};
    /// use reversi_core::Position;
    /// use std::sync::atomic::AtomicBool;
    /// let mut e = Expert::new().with_confidence(2.0).with_limits(Limits::depth(3));
    /// let r = e.choose(&Position::initial(), &Limits::NONE, &AtomicBool::new(false));
    /// assert!(r.is_ok() || !cfg!(feature = "embedded-weights"));
    /// ```
    #[must_use]
    pub fn with_confidence(mut self, t: f32) -> Expert {
        self.confidence = if t.is_nan() {
            crate::probcut::DEFAULT_T
        } else {
            t.clamp(0.5, 8.0)
        };
        self.forget();
        self
    }

    /// Empties the tables, whose entries hold the scores of other weights or cuts.
    fn forget(&mut self) {
        self.tt.clear();
        self.end_tt.clear();
    }

    /// This engine on another move generation kernel than the fastest one of the CPU (the
    /// default): the moves and scores are the same on every kernel, only the speed differs.
    ///
    /// # Errors
    ///
    /// [`AiError::KernelUnavailable`] when the CPU (or this build: WebAssembly with SIMD leaves
    /// the portable kernel out) does not have it; the engine is then dropped, make another.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::Expert;
    /// use reversi_core::movegen::Kernel;
    /// assert!(Expert::new().with_kernel(Kernel::Portable).is_ok());
    /// for k in [Kernel::Avx2, Kernel::Avx512, Kernel::Simd128] {
    ///     assert_eq!(Expert::new().with_kernel(k).is_ok(), k.is_available());
    /// }
    /// ```
    pub fn with_kernel(mut self, kernel: Kernel) -> Result<Expert, AiError> {
        self.kernel = SearchKernel::of(kernel).ok_or(AiError::KernelUnavailable(kernel))?;
        Ok(self)
    }

    /// The evaluation of a position in discs for the side to move (trained weights; 0 without
    /// any).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::Expert;
    /// use reversi_core::Position;
    /// let v = Expert::new().evaluate(&Position::initial());
    /// assert!(v.abs() < 10.0);
    /// ```
    #[must_use]
    pub fn evaluate(&self, pos: &Position) -> f64 {
        self.weights.as_ref().map_or(0.0, |w| {
            f64::from(w.get().eval(pos.player().0, pos.opponent().0)) / f64::from(UNITS_PER_DISC)
        })
    }
}

fn sq(i: u8) -> Move {
    Move::Place(Square::from_index(i).expect("square index below 64"))
}

impl Engine for Expert {
    fn name(&self) -> String {
        "expert".into()
    }

    fn choose(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<SearchResult, AiError> {
        if pos.is_game_over() {
            return Err(AiError::GameOver);
        }
        if pos.must_pass() {
            return Ok(SearchResult::new(Move::Pass));
        }
        let Some(weights) = self.weights.clone() else {
            return Err(AiError::NoWeights);
        };
        let lim = self.limits.min(*limits);
        let deadline = lim.deadline();
        let (p, o) = (pos.player().0, pos.opponent().0);
        let empties = pos.empty().count();
        let w = weights.get();
        if lim.nodes.is_some() || lim.depth.is_some() {
            // Fresh tables every move: the same position and limits give the same move.
            self.forget();
        } else {
            // On time alone the move depends on the machine anyway: the tables keep what the
            // earlier moves found (an entry depends on its position alone, not on the path to
            // it), in an older generation that the new entries replace first.
            self.tt.new_search();
            self.end_tt.new_search();
        }
        // Threads that the searches may split onto besides this one (young brothers wait, in
        // the midgame from `MID_SPLIT_MIN` plies to go, in the exact phase from 12 empties).
        let helpers =
            std::sync::atomic::AtomicIsize::new(lim.threads.unwrap_or(1).max(1) as isize - 1);
        let mut s = Search::new(&self.tt, &self.end_tt, stop, lim.nodes, deadline);
        s.kernel = self.kernel;
        s.weights = Some(w);
        s.probcut = if self.selective { w.probcut() } else { None };
        s.probcut_t = self.confidence;
        let mut order: Vec<(u8, i32)> = Vec::new();
        let mut mm = legal(p, o);
        while mm != 0 {
            let q = mm.trailing_zeros();
            mm &= mm - 1;
            let f = flips(p, o, q);
            order.push((q as u8, -w.eval(o ^ f, p ^ f ^ (1 << q))));
        }
        order.sort_by_key(|m| std::cmp::Reverse(m.1));
        let mut result = SearchResult {
            best_move: sq(order[0].0),
            score: to_discs(order[0].1),
            exact: false,
            depth: 0,
            nodes: 0,
            pv: vec![sq(order[0].0)],
        };
        if order.len() == 1 && lim.nodes.is_none() && lim.depth.is_none() {
            return Ok(result);
        }
        let solve_always = empties <= SOLVE_ALWAYS && lim.depth.is_none();
        let solve_try = empties <= SOLVE_TRY && lim.depth.is_none();
        let select_try = empties <= SELECT_TRY
            && !solve_always
            && lim.depth.is_none()
            && self.selective
            && w.probcut().is_some_and(crate::probcut::ProbCut::has_end);
        let max_depth = lim.depth.unwrap_or(60).min(empties).max(1);
        let mid_max = if solve_always {
            max_depth.min(8)
        } else {
            max_depth
        };
        if lim.threads.unwrap_or(1) > 1 {
            s.helpers = Some(&helpers);
        }
        // How long each iteration took, to predict the next one.
        let mut last = (Duration::ZERO, Duration::ZERO);
        for depth in 1..=mid_max {
            let sqs: Vec<u8> = order.iter().map(|m| m.0).collect();
            let began = deadline.map(|d| d.elapsed());
            let Some(r) = s.trained_root(p, o, depth, &sqs, false) else {
                break;
            };
            let complete = !s.aborted;
            order = r;
            result.best_move = sq(order[0].0);
            result.pv = vec![result.best_move];
            result.score = to_discs(order[0].1);
            if !complete {
                break;
            }
            result.depth = depth;
            if let (Some(t), Some(d), Some(began)) = (lim.time, deadline, began) {
                let elapsed = d.elapsed();
                last = (last.1, elapsed - began);
                if !next_iteration(t, elapsed, last, solve_try || select_try) {
                    break;
                }
            }
        }
        if select_try && !s.aborted {
            // Solved selectively, as the endgame's cuts were fitted: their shallow searches
            // full width.
            s.end_level = SELECT_LEVEL;
            s.probcut = None;
            let (score, mv) = s.end_root(p, o, -64, 64);
            s.end_level = crate::search::EXACT;
            if !s.aborted && mv != NO_MOVE {
                result.best_move = sq(mv);
                result.pv = vec![result.best_move];
                result.score = score;
                result.depth = empties;
                s.root_hint = Some((score, mv));
            }
        }
        if solve_try && !s.aborted {
            let (score, mv) = s.end_root(p, o, -64, 64);
            if !s.aborted && mv != NO_MOVE {
                result.best_move = sq(mv);
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

/// Whether the next iteration of the midgame search is worth starting, `elapsed` into a move
/// of `budget`, the last two iterations having taken `last`. The next one is predicted from
/// their ratio (the effective branching factor, taken between 2 and 6; 4 with too little to go
/// on). It starts when less than [`SOFT_SHARE`] of the budget is spent, or when half of it fits
/// in the time left: a stopped iteration still counts (its first move, the best so far, is
/// searched first, and a move that beats it is kept). From 24 empties (22 without the
/// endgame's cuts) the search stops at a fifth of the budget, leaving the rest to a selective
/// solve, then an exact one from 22.
fn next_iteration(
    budget: Duration,
    elapsed: Duration,
    last: (Duration, Duration),
    solve_try: bool,
) -> bool {
    if solve_try {
        return elapsed * 5 <= budget;
    }
    let ratio = if last.0 >= Duration::from_micros(200) {
        (last.1.as_secs_f64() / last.0.as_secs_f64()).clamp(2.0, 6.0)
    } else {
        4.0
    };
    let next = last.1.as_secs_f64() * ratio;
    let (elapsed, budget) = (elapsed.as_secs_f64(), budget.as_secs_f64());
    elapsed <= SOFT_SHARE * budget || elapsed + next / 2.0 <= budget
}

/// Within this share of its budget Expert always starts another midgame iteration (the
/// deadline stops it; what it finished counts).
const SOFT_SHARE: f64 = 0.6;

/// A score in 1/256 disc as whole discs (rounded), within the board's -64..=64.
fn to_discs(units: i32) -> i32 {
    ((units + UNITS_PER_DISC / 2).div_euclid(UNITS_PER_DISC)).clamp(-64, 64)
}

/// Midgame scores of the root moves `order` of `(p, o)`, each searched with a full window to
/// `depth` plies (the move included) on `w` (full width), in discs (rounded, within -64..=64),
/// best first; `None` when the limits or `stop` end the search first. `nodes` counts the nodes
/// searched.
#[allow(clippy::too_many_arguments)]
pub(crate) fn mid_scores(
    w: &Weights,
    tt: &mut TransTable,
    p: u64,
    o: u64,
    depth: u32,
    order: &[u8],
    node_limit: Option<u64>,
    deadline: Option<Deadline>,
    stop: &AtomicBool,
    nodes: &mut u64,
) -> Option<Vec<(u8, i32)>> {
    let end_tt = TransTable::new(4);
    let mut s = Search::new(
        tt,
        &end_tt,
        stop,
        node_limit.map(|n| n.saturating_sub(*nodes)),
        deadline,
    );
    s.weights = Some(w);
    let r = s.trained_root(p, o, depth, order, true);
    *nodes += s.nodes;
    if s.aborted {
        return None;
    }
    r.map(|v| v.into_iter().map(|(q, x)| (q, to_discs(x))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expert as a build without embedded weights makes it before any are installed.
    fn without_weights() -> Expert {
        Expert {
            weights: None,
            ..Expert::new()
        }
    }

    #[test]
    fn without_weights_expert_says_so_and_with_them_it_plays() {
        let stop = AtomicBool::new(false);
        let pos = Position::initial();
        let mut e = without_weights();
        assert_eq!(
            e.choose(&pos, &Limits::depth(2), &stop),
            Err(AiError::NoWeights)
        );
        assert_eq!(e.evaluate(&pos), 0.0);
        let mut e = without_weights().with_weights(Arc::new(Weights::zero()));
        let r = e.choose(&pos, &Limits::depth(2), &stop).unwrap();
        assert!(pos.play(r.best_move).is_ok());
    }

    #[test]
    fn every_kernel_searches_the_same_tree() {
        // A midgame search (24 empties, depth 6 through the selective search) and a solve (14
        // empties, no limit).
        let stop = AtomicBool::new(false);
        for (plies, limits) in [(36, Limits::depth(6)), (46, Limits::NONE)] {
            let mut pos = Position::initial();
            for i in 0..plies {
                let moves = pos.legal_move_list();
                pos = pos.play(moves[(i * 7) % moves.len()]).unwrap();
            }
            let run = |k: Kernel| {
                let mut e = Expert::new()
                    .with_weights(Arc::new(Weights::zero()))
                    .with_limits(Limits::NONE)
                    .with_kernel(k)
                    .unwrap();
                let r = e.choose(&pos, &limits, &stop).unwrap();
                (r.best_move, r.score, r.nodes, r.exact)
            };
            let want = run(Kernel::Portable);
            assert_eq!(want.3, limits.depth.is_none());
            for k in Kernel::available() {
                assert_eq!(run(k), want, "{k} at {limits:?}");
            }
        }
        assert_eq!(
            Expert::new().with_kernel(Kernel::Simd128).err(),
            (!Kernel::Simd128.is_available())
                .then_some(AiError::KernelUnavailable(Kernel::Simd128))
        );
    }

    #[test]
    fn scores_in_discs_stay_on_the_board() {
        assert_eq!(to_discs(90 * UNITS_PER_DISC), 64);
        assert_eq!(to_discs(-88 * UNITS_PER_DISC - 3), -64);
        assert_eq!(to_discs(5 * UNITS_PER_DISC + 100), 5);
        assert_eq!(to_discs(5 * UNITS_PER_DISC + 128), 6);
    }

    #[test]
    fn the_next_iteration_starts_early_or_when_half_of_it_fits() {
        let ms = Duration::from_millis;
        // 100 ms into 950: the last iterations took 20 and 80 ms (ratio 4): 320 ms predicted.
        assert!(next_iteration(ms(950), ms(100), (ms(20), ms(80)), false));
        // 800 ms in: half of 320 does not fit.
        assert!(!next_iteration(ms(950), ms(800), (ms(20), ms(80)), false));
        // 500 ms in, a long iteration predicted: still within the soft share.
        assert!(next_iteration(ms(950), ms(500), (ms(100), ms(400)), false));
        assert!(!next_iteration(ms(950), ms(600), (ms(100), ms(400)), false));
        // Near the solve, a fifth of the budget only.
        assert!(!next_iteration(ms(950), ms(200), (ms(1), ms(1)), true));
        assert!(next_iteration(ms(950), ms(150), (ms(1), ms(1)), true));
    }

    thread_local! {
        static TICKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// A clock that moves on a millisecond each time it is read: a search on it is the same on
    /// every machine.
    fn ticking() -> Duration {
        TICKS.with(|t| {
            t.set(t.get() + 1);
            Duration::from_millis(t.get())
        })
    }

    #[cfg(feature = "embedded-weights")]
    #[test]
    fn on_time_alone_the_tables_carry_over_to_the_next_move() {
        let stop = AtomicBool::new(false);
        let mut pos = Position::initial();
        for m in ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"] {
            pos = pos.play(m.parse().unwrap()).unwrap();
        }
        let timed = Limits::time(Duration::from_millis(150))
            .with_time_source(crate::TimeSource::new(ticking));
        let short = Limits::time(Duration::from_millis(75))
            .with_time_source(crate::TimeSource::new(ticking));
        let mut e = Expert::new();
        let first = e.choose(&pos, &timed, &stop).unwrap();
        // Half the budget on the same position: the search starts from what the
        // first one stored and gets at least as deep; a fresh engine does not.
        let kept = e.choose(&pos, &short, &stop).unwrap();
        let fresh = Expert::new().choose(&pos, &short, &stop).unwrap();
        assert!(
            kept.depth >= first.depth && fresh.depth < first.depth,
            "depth {} in the whole budget, in half of it {} with the tables, {} without",
            first.depth,
            kept.depth,
            fresh.depth
        );
        // Under a node limit the tables start empty: the same move, depth and nodes.
        let nodes = Limits::nodes(200_000);
        let a = e.choose(&pos, &nodes, &stop).unwrap();
        let b = e.choose(&pos, &nodes, &stop).unwrap();
        assert_eq!(
            (a.best_move, a.depth, a.nodes),
            (b.best_move, b.depth, b.nodes)
        );
    }

    #[cfg(feature = "embedded-weights")]
    #[test]
    fn two_threads_play_legal_moves_within_the_limits() {
        let stop = AtomicBool::new(false);
        let mut pos = Position::initial();
        let mut e = Expert::new();
        for _ in 0..12 {
            let lim = Limits::time(Duration::from_millis(60)).with_threads(2);
            let r = e.choose(&pos, &lim, &stop).unwrap();
            pos = pos.play(r.best_move).unwrap();
        }
        // Under a depth limit the threads stop with the first one.
        let r = e
            .choose(&pos, &Limits::depth(6).with_threads(2), &stop)
            .unwrap();
        assert_eq!(r.depth, 6);
        let one = Expert::new()
            .choose(&pos, &Limits::depth(6), &stop)
            .unwrap();
        assert!(
            r.nodes >= one.nodes / 2,
            "{} nodes with 2 threads, {} with one",
            r.nodes,
            one.nodes
        );
        // A stop set beforehand still gives a legal move at once.
        let stopped = AtomicBool::new(true);
        let r = e
            .choose(&pos, &Limits::NONE.with_threads(2), &stopped)
            .unwrap();
        assert!(pos.play(r.best_move).is_ok());
    }
}
