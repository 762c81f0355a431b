//! Perft, the exact solver, hints, the levels and the evaluation: every long call runs through
//! `run::blocking` (GIL released, stoppable).

use crate::errors::{ai_err, bad, core_err, SearchStopped};
use crate::game::move_name;
use crate::position::PyPosition;
use crate::run::{blocking, StopToken};
use pyo3::prelude::*;
use reversi_ai::pattern::{Weights, UNITS_PER_DISC};
use reversi_ai::{engine_from_name, Engine, Limits, Scoring, SolveOptions, Solver};
use reversi_core::movegen;
use reversi_core::perft::{perft_raw, Convention, Kernel, PerftHash};
use reversi_core::Position;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// Limits from the optional keyword arguments.
pub fn limits(depth: Option<u32>, nodes: Option<u64>, time: Option<f64>) -> PyResult<Limits> {
    let mut l = Limits::none();
    if let Some(d) = depth {
        l = l.with_depth(d);
    }
    if let Some(n) = nodes {
        l = l.with_nodes(n);
    }
    if let Some(t) = time {
        let t = Duration::try_from_secs_f64(t)
            .map_err(|_| bad(format!("{t} is not a time in seconds (expected 0 or more)")))?;
        l = l.with_time(t);
    }
    Ok(l)
}

/// A scoring rule from `"disc"` or `"wof"`.
pub fn scoring(s: &str) -> PyResult<Scoring> {
    s.parse::<Scoring>().map_err(ai_err)
}

/// The subtrees `plies` below `(p, o)`, as `reversi_core::perft::perft_with` splits: a position
/// without a move is a subtree of its own (the count handles passes in every convention).
fn split(p: u64, o: u64, depth: u32, plies: u32, out: &mut Vec<(u64, u64, u32)>) {
    let mut moves = movegen::legal_moves(p, o);
    if plies == 0 || depth == 0 || moves == 0 {
        out.push((p, o, depth));
        return;
    }
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        let x = 1u64 << sq;
        moves ^= x;
        let f = movegen::flips(p, o, sq);
        split(o ^ f, p ^ f ^ x, depth - 1, plies - 1, out);
    }
}

/// The number of leaves ``depth`` plies below ``position``.
///
/// ``convention`` is ``"oeis"`` (OEIS A124004: a pass is a ply, a finished game counts at
/// every deeper ply), ``"edax"`` (a pass is a ply, a finished game counts only where it ends)
/// or ``"no-pass"`` (a pass is not a ply). ``threads`` workers share the subtrees a few plies
/// down; ``hash_mb`` adds a transposition table of that many MiB (keyed up to symmetry);
/// ``kernel`` forces ``"portable"``, ``"avx2"`` or ``"avx512"`` move generation. Releases the
/// GIL; ``stop`` (or Ctrl-C) ends the count between subtrees with :class:`SearchStopped`
/// (``KeyboardInterrupt`` for Ctrl-C).
#[pyfunction]
#[pyo3(signature = (position, depth, convention = "oeis", threads = 1, hash_mb = None, kernel = None, stop = None))]
#[allow(clippy::too_many_arguments)]
pub fn perft(
    py: Python<'_>,
    position: &PyPosition,
    depth: u32,
    convention: &str,
    threads: usize,
    hash_mb: Option<usize>,
    kernel: Option<&str>,
    stop: Option<&StopToken>,
) -> PyResult<u64> {
    let convention: Convention = convention.parse().map_err(core_err)?;
    if depth > 60 {
        return Err(bad(format!(
            "{depth} is not a perft depth (expected 0 to 60)"
        )));
    }
    let kernel = match kernel {
        None => Kernel::best(),
        Some(k) => {
            let k: Kernel = k.parse().map_err(core_err)?;
            if !k.is_available() {
                return Err(bad(format!("this CPU cannot run the {k:?} kernel")));
            }
            k
        }
    };
    let hash = match hash_mb {
        Some(0) => return Err(bad("hash_mb must be at least 1")),
        Some(mb) => Some(PerftHash::try_new(mb).map_err(core_err)?),
        None => None,
    };
    let (p, o) = (position.inner.player().0, position.inner.opponent().0);
    let mut tasks = Vec::new();
    split(p, o, depth, depth.saturating_sub(6).min(4), &mut tasks);
    let total = tasks.len();
    let result = blocking(py, stop, |flag: &AtomicBool| {
        let next = AtomicUsize::new(0);
        let leaves = std::sync::atomic::AtomicU64::new(0);
        let work = || loop {
            if flag.load(Ordering::Relaxed) {
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(p, o, d)) = tasks.get(i) else {
                break;
            };
            let n = perft_raw(p, o, d, convention, kernel, hash.as_ref());
            leaves.fetch_add(n, Ordering::Relaxed);
        };
        let threads = threads.clamp(1, total.max(1));
        if threads == 1 {
            work();
        } else {
            std::thread::scope(|s| {
                for _ in 0..threads {
                    s.spawn(work);
                }
            });
        }
        (!flag.load(Ordering::Relaxed)).then(|| leaves.into_inner())
    })?;
    result.ok_or_else(|| SearchStopped::new_err("the perft count was stopped before it finished"))
}

/// The result of an exact solve.
#[pyclass(name = "Solution", module = "reversi", frozen, get_all)]
pub struct PySolution {
    /// The final score for the side to move with perfect play (-1/0/+1 when ``wld``).
    score: i32,
    /// A best move (``"pass"`` when the side to move must pass).
    best_move: String,
    /// A principal variation to the end, passes included.
    pv: Vec<String>,
    /// Nodes searched.
    nodes: u64,
}

#[pymethods]
impl PySolution {
    fn __repr__(&self) -> String {
        format!(
            "Solution(score={:+}, best_move={:?}, pv={:?}, nodes={})",
            self.score, self.best_move, self.pv, self.nodes
        )
    }
}

fn solution(s: reversi_ai::Solution) -> PySolution {
    PySolution {
        score: s.score,
        best_move: move_name(s.best_move),
        pv: s.pv.into_iter().map(move_name).collect(),
        nodes: s.nodes,
    }
}

/// An exact endgame solver whose transposition tables are kept between solves (faster over a
/// series of positions, as ``examples/solve.rs`` does). ``table_bits`` sizes the endgame table
/// (2^bits entries, clamped to 4..30; 22 is 128 MiB); ``weights=False`` orders moves without the
/// trained evaluation (same scores, slower).
#[pyclass(name = "Solver", module = "reversi")]
pub struct PySolver {
    inner: Solver,
}

#[pymethods]
impl PySolver {
    #[new]
    #[pyo3(signature = (table_bits = 22, weights = true))]
    fn new(table_bits: u32, weights: bool) -> Self {
        let s = Solver::with_table_bits(table_bits);
        PySolver {
            inner: if weights { s } else { s.without_weights() },
        }
    }

    /// Solves ``position`` exactly; see :func:`solve`.
    #[pyo3(signature = (position, scoring = "wof", wld = false, nodes = None, time = None, stop = None))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &mut self,
        py: Python<'_>,
        position: &PyPosition,
        scoring: &str,
        wld: bool,
        nodes: Option<u64>,
        time: Option<f64>,
        stop: Option<&StopToken>,
    ) -> PyResult<PySolution> {
        let opts = SolveOptions::exact(self::scoring(scoring)?).with_wld(wld);
        let lim = limits(None, nodes, time)?;
        let pos = position.inner;
        let solver = &mut self.inner;
        blocking(py, stop, move |flag| {
            solver.solve_with(&pos, &opts, &lim, flag)
        })?
        .map(solution)
        .map_err(ai_err)
    }
}

/// Solves ``position`` exactly with a fresh solver: the final score for the side to move with
/// perfect play, a best move, a principal variation and the node count.
///
/// ``scoring`` is ``"wof"`` (empty squares to the winner, as FFO files count) or ``"disc"``
/// (the disc difference on the board); ``wld=True`` asks only for win/draw/loss (-1/0/+1).
/// ``nodes``/``time`` (seconds) limit the search and ``stop`` ends it from another thread: all
/// three raise :class:`SearchStopped` when they end it; Ctrl-C raises ``KeyboardInterrupt``.
/// A finished game raises :class:`GameOverError`. Releases the GIL.
#[pyfunction]
#[pyo3(signature = (position, scoring = "wof", wld = false, nodes = None, time = None, stop = None))]
pub fn solve(
    py: Python<'_>,
    position: &PyPosition,
    scoring: &str,
    wld: bool,
    nodes: Option<u64>,
    time: Option<f64>,
    stop: Option<&StopToken>,
) -> PyResult<PySolution> {
    let bits = (position.inner.empty().count() + 2).clamp(10, 21);
    let mut s = PySolver {
        inner: Solver::with_table_bits(bits),
    };
    s.solve(py, position, scoring, wld, nodes, time, stop)
}

/// The score of one legal move.
#[pyclass(name = "Hint", module = "reversi", frozen, get_all)]
pub struct PyHint {
    /// The move (``"pass"`` when the side to move must pass).
    r#move: String,
    /// Its score for the side to move: exact final margin when ``exact``, else an estimate in
    /// discs (the trained evaluation) from a search ``depth`` plies deep.
    score: i32,
    /// Whether the score is exact.
    exact: bool,
    /// The depth of the search that scored the move, the move included.
    depth: u32,
}

#[pymethods]
impl PyHint {
    fn __repr__(&self) -> String {
        format!(
            "Hint(move={:?}, score={:+}, exact={}, depth={})",
            self.r#move,
            self.score,
            if self.exact { "True" } else { "False" },
            self.depth
        )
    }
}

/// A score for every legal move, best first.
///
/// The search deepens to ``depth`` plies (default: none) within ``nodes`` and ``time``
/// (seconds); when no depth is given or it reaches the end, the moves are then solved exactly
/// in ``scoring`` (``"disc"`` or ``"wof"``). If the exact solve does not finish within the limits
/// (or ``stop`` is set), the deepest midgame scores are returned. With no limit at all the result
/// is exact, which can take long with many empties. Releases the GIL; Ctrl-C raises
/// ``KeyboardInterrupt``.
#[pyfunction]
#[pyo3(signature = (position, scoring = "disc", depth = None, nodes = None, time = None, stop = None))]
pub fn hints(
    py: Python<'_>,
    position: &PyPosition,
    scoring: &str,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    stop: Option<&StopToken>,
) -> PyResult<Vec<PyHint>> {
    let scoring = self::scoring(scoring)?;
    let lim = limits(depth, nodes, time)?;
    let pos = position.inner;
    let h = blocking(py, stop, move |flag| {
        reversi_ai::hints(&pos, &lim, scoring, flag)
    })?
    .map_err(ai_err)?;
    Ok(h.into_iter()
        .map(|h| PyHint {
            r#move: move_name(h.mv),
            score: h.score,
            exact: h.exact,
            depth: h.depth,
        })
        .collect())
}

/// A level's choice of move.
#[pyclass(name = "SearchResult", module = "reversi", frozen, get_all)]
pub struct PySearchResult {
    /// The move to play (``"pass"`` only when the side to move must pass).
    best_move: String,
    /// The score for the side to move: the exact final disc difference when ``exact``, else the
    /// engine's evaluation (in discs for Expert, in the engine's own units for the others; 0 for
    /// moves chosen without search).
    score: i32,
    /// Whether ``score`` is exact.
    exact: bool,
    /// The deepest completed midgame depth.
    depth: u32,
    /// Nodes searched.
    nodes: u64,
    /// The principal variation, starting with ``best_move``.
    pv: Vec<String>,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(best_move={:?}, score={}, exact={}, depth={}, nodes={}, pv={:?})",
            self.best_move,
            self.score,
            if self.exact { "True" } else { "False" },
            self.depth,
            self.nodes,
            self.pv
        )
    }
}

/// A computer player: ``"easy"``, ``"normal"``, ``"hard"`` or ``"expert"`` (also ``"depth:N"``,
/// a search N plies deep, and ``"nodes:N"``, a search within N nodes). ``seed`` drives the
/// randomness of Easy and Normal. The engine keeps its tables between moves.
#[pyclass(name = "Engine", module = "reversi")]
pub struct PyEngine {
    // A Mutex only to make the class Sync; `&mut self` methods reach it with `get_mut`, so it is
    // never locked (PyO3's borrow flag already keeps two calls from running at once).
    inner: std::sync::Mutex<Box<dyn Engine>>,
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (level = "hard", seed = 0))]
    fn new(level: &str, seed: u64) -> PyResult<Self> {
        Ok(PyEngine {
            inner: std::sync::Mutex::new(engine_from_name(level, seed).map_err(ai_err)?),
        })
    }

    /// The engine's name (``"hard"``, ``"depth:6"``, ...).
    #[getter]
    fn name(&mut self) -> String {
        self.engine().name()
    }

    /// Chooses a move for the side to move within the tighter of the level's own limits (Hard
    /// about 0.85 s, Expert about 0.95 s a move) and ``depth``/``nodes``/``time``; a node
    /// limit makes the choice reproducible. ``stop`` (or Ctrl-C) makes it return its best move
    /// so far (Ctrl-C then raises ``KeyboardInterrupt``). Raises :class:`GameOverError` on a
    /// finished game. Releases the GIL.
    #[pyo3(signature = (position, depth = None, nodes = None, time = None, stop = None))]
    fn choose(
        &mut self,
        py: Python<'_>,
        position: &PyPosition,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
        stop: Option<&StopToken>,
    ) -> PyResult<PySearchResult> {
        let lim = limits(depth, nodes, time)?;
        let pos = position.inner;
        let engine = self.engine();
        let r = blocking(py, stop, move |flag| engine.choose(&pos, &lim, flag))?.map_err(ai_err)?;
        Ok(PySearchResult {
            best_move: move_name(r.best_move),
            score: r.score,
            exact: r.exact,
            depth: r.depth,
            nodes: r.nodes,
            pv: r.pv.into_iter().map(move_name).collect(),
        })
    }

    fn __repr__(&mut self) -> String {
        format!("Engine({:?})", self.engine().name())
    }
}

impl PyEngine {
    fn engine(&mut self) -> &mut Box<dyn Engine> {
        self.inner.get_mut().unwrap_or_else(|e| e.into_inner())
    }
}

/// A level's move for ``position`` with a fresh engine: ``Engine(level, seed).choose(...)``.
#[pyfunction]
#[pyo3(signature = (position, level = "hard", seed = 0, depth = None, nodes = None, time = None, stop = None))]
#[allow(clippy::too_many_arguments)]
pub fn choose_move(
    py: Python<'_>,
    position: &PyPosition,
    level: &str,
    seed: u64,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    stop: Option<&StopToken>,
) -> PyResult<PySearchResult> {
    PyEngine::new(level, seed)?.choose(py, position, depth, nodes, time, stop)
}

/// The trained weights of the Expert level (built into the module).
pub fn weights() -> PyResult<&'static Weights> {
    Weights::active().map_err(|e| bad(e.to_string()))
}

/// The static evaluation in discs for (`p`, `o`), side to move `p`.
pub fn eval_discs(w: &Weights, p: u64, o: u64) -> f32 {
    w.eval(p, o) as f32 / UNITS_PER_DISC as f32
}

/// The trained evaluation of ``position`` in discs, for the side to move (positive: good for
/// it): the Expert level's pattern evaluation, without search. For a searched estimate use
/// :func:`hints` with a depth; for the exact value, :func:`solve`.
#[pyfunction]
pub fn evaluate(position: &PyPosition) -> PyResult<f32> {
    let p: &Position = &position.inner;
    Ok(eval_discs(weights()?, p.player().0, p.opponent().0))
}
