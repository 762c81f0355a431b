//! The Expert level: principal variation search with a transposition table on the trained
//! pattern evaluation ([`crate::pattern`]), iterative deepening within about a second, and an
//! exact solve of the endgame as early as the time allows.

use crate::bits::{flips, legal};
use crate::pattern::{Weights, UNITS_PER_DISC};
use crate::search::{Search, SearchKernel};
use crate::time::Deadline;
use crate::tt::{TransTable, NO_MOVE};
use crate::{AiError, Engine, Limits, SearchResult};
use reversi_core::movegen::MoveGen;
use reversi_core::{Move, Position, Square};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The time budget of the Expert level per move.
pub const EXPERT_TIME: Duration = Duration::from_millis(950);

/// Bound beyond every score (scores are in 1/256 disc, finished games `disc difference * 256`).
const INF: i32 = 100 * UNITS_PER_DISC;

/// From this many empties down, the endgame is always solved exactly.
const SOLVE_ALWAYS: u32 = 16;
/// From this many empties down, an exact solve is tried with the time left after the midgame
/// search.
const SOLVE_TRY: u32 = 22;

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
    weights: Source,
    /// Whether `weights` are trained ones (not the all-zero stand-in of a build without
    /// embedded weights): only those order the endgame solver's moves.
    trained: bool,
    limits: Limits,
    tt: TransTable,
    mid_tt: TransTable,
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

/// What a search keeps while it runs.
struct State<'a> {
    w: &'a Weights,
    tt: &'a mut TransTable,
    nodes: u64,
    node_limit: u64,
    next_check: u64,
    deadline: Option<Deadline>,
    stop: &'a AtomicBool,
    aborted: bool,
}

impl Expert {
    /// The Expert level with the active weights ([`Weights::active`]: those installed at run
    /// time with [`Weights::install`], else the ones built into the library), or, with none
    /// (feature `embedded-weights` off and nothing installed), all-zero weights until
    /// [`Expert::with_weights`] gives some: the search then plays on mobility alone.
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
        let (weights, trained) = match Weights::active() {
            Ok(w) => (Source::Embedded(w), true),
            Err(_) => (Source::Owned(Arc::new(Weights::zero())), false),
        };
        Expert {
            weights,
            trained,
            limits: Limits::time(EXPERT_TIME),
            tt: TransTable::new(19),
            mid_tt: TransTable::new(16),
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
        self.weights = Source::Owned(weights);
        self.trained = true;
        self.mid_tt.clear();
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

    /// The evaluation of a position in discs for the side to move (trained weights).
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
        f64::from(self.weights.get().eval(pos.player().0, pos.opponent().0))
            / f64::from(UNITS_PER_DISC)
    }
}

impl State<'_> {
    #[inline(always)]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            if self.nodes >= self.node_limit
                || self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| d.passed())
            {
                self.aborted = true;
            }
            self.next_check = self.nodes.saturating_add(1024).min(self.node_limit);
        }
        self.aborted
    }
}

/// Final disc difference in evaluation units.
#[inline]
fn terminal(p: u64, o: u64) -> i32 {
    (p.count_ones() as i32 - o.count_ones() as i32) * UNITS_PER_DISC
}

/// Weights of squares for ordering at low depth: corners first, X-squares last.
const CORNERS: u64 = 0x8100_0000_0000_0081;
const X_SQUARES: u64 = 0x4200_0000_0000_4200;

/// Principal variation search `depth` plies deep; meaningless once `st.aborted`.
#[inline(always)]
fn pvs<G: MoveGen>(
    g: G,
    st: &mut State<'_>,
    p: u64,
    o: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    g.run(
        #[inline(always)]
        move |g| pvs_body(g, st, p, o, depth, alpha, beta),
    )
}

#[inline(always)]
fn pvs_body<G: MoveGen>(
    g: G,
    st: &mut State<'_>,
    p: u64,
    o: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    if st.tick() {
        return 0;
    }
    let moves = g.legal_moves(p, o);
    if depth == 0 {
        let theirs = g.legal_moves(o, p);
        if moves == 0 && theirs == 0 {
            return terminal(p, o);
        }
        return st.w.eval_with_mobility(
            p,
            o,
            moves.count_ones() as i32 - theirs.count_ones() as i32,
        );
    }
    if moves == 0 {
        if g.legal_moves(o, p) == 0 {
            return terminal(p, o);
        }
        return -pvs(g, st, o, p, depth, -beta, -alpha);
    }
    if depth == 1 {
        return last_ply(g, st, p, o, moves, alpha, beta);
    }
    let alpha0 = alpha;
    let mut tt_move = NO_MOVE;
    if let Some(e) = st.tt.probe(p, o) {
        tt_move = e.mv;
        if u32::from(e.depth) >= depth {
            let (lo, hi) = (i32::from(e.lower), i32::from(e.upper));
            if lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            if lo == hi {
                return lo;
            }
        }
    }
    // Move list with ordering keys.
    let mut list: [(i32, u8, u64); 34] = [(0, 0, 0); 34];
    let mut n = 0;
    let mut mm = moves;
    while mm != 0 {
        let s = mm.trailing_zeros();
        mm &= mm - 1;
        let f = g.flips(p, o, s as u8);
        let (np, no) = (o ^ f, p ^ f ^ (1 << s));
        let key = if s as u8 == tt_move {
            i32::MAX
        } else if depth >= 4 {
            {
                let (mine, theirs) = (g.legal_moves(np, no), g.legal_moves(no, np));
                let mob = mine.count_ones() as i32 - theirs.count_ones() as i32;
                -st.w.eval_with_mobility(np, no, mob) - 64 * mine.count_ones() as i32
            }
        } else {
            let bonus = if CORNERS >> s & 1 != 0 {
                4
            } else if X_SQUARES >> s & 1 != 0 {
                -4
            } else {
                0
            };
            bonus - g.legal_moves(np, no).count_ones() as i32
        };
        list[n] = (key, s as u8, f);
        n += 1;
    }
    list[..n].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
    let mut best = -INF;
    let mut best_mv = list[0].1;
    for (i, &(_, s, f)) in list[..n].iter().enumerate() {
        let (np, no) = (o ^ f, p ^ f ^ (1 << s));
        let v = if i == 0 {
            -pvs(g, st, np, no, depth - 1, -beta, -alpha)
        } else {
            let v = -pvs(g, st, np, no, depth - 1, -alpha - 1, -alpha);
            if v > alpha && v < beta && !st.aborted {
                -pvs(g, st, np, no, depth - 1, -beta, -alpha)
            } else {
                v
            }
        };
        if st.aborted {
            return 0;
        }
        if v > best {
            best = v;
            best_mv = s;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    st.tt.store(p, o, depth, alpha0, beta, best, best_mv);
    best
}

/// The last ply of a search: each move's position evaluated (corners tried first), without
/// the transposition table.
#[inline(always)]
fn last_ply<G: MoveGen>(
    g: G,
    st: &mut State<'_>,
    p: u64,
    o: u64,
    moves: u64,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let mut best = -INF;
    for part in [moves & CORNERS, moves & !CORNERS] {
        let mut mm = part;
        while mm != 0 {
            let s = mm.trailing_zeros();
            mm &= mm - 1;
            if st.tick() {
                return 0;
            }
            let f = g.flips(p, o, s as u8);
            let (np, no) = (o ^ f, p ^ f ^ (1 << s));
            let mine = g.legal_moves(np, no);
            let theirs = g.legal_moves(no, np);
            let v = if mine == 0 && theirs == 0 {
                -terminal(np, no)
            } else {
                -st.w.eval_with_mobility(
                    np,
                    no,
                    mine.count_ones() as i32 - theirs.count_ones() as i32,
                )
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        return best;
                    }
                }
            }
        }
    }
    best
}

/// One iteration at the root over `order`: the moves with their scores, best first (scores
/// after the first are bounds). `None` when stopped before the first move was searched; when
/// stopped later, the moves searched so far.
fn root(st: &mut State<'_>, p: u64, o: u64, depth: u32, order: &[u8]) -> Option<Vec<(u8, i32)>> {
    match SearchKernel::best() {
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        SearchKernel::Portable(g) => root_with(g, st, p, o, depth, order),
        SearchKernel::Avx2(g) => root_with(g, st, p, o, depth, order),
        SearchKernel::Avx512(g) => root_with(g, st, p, o, depth, order),
        SearchKernel::Simd128(g) => root_with(g, st, p, o, depth, order),
    }
}

fn root_with<G: MoveGen>(
    g: G,
    st: &mut State<'_>,
    p: u64,
    o: u64,
    depth: u32,
    order: &[u8],
) -> Option<Vec<(u8, i32)>> {
    let mut alpha = -INF;
    let mut out: Vec<(u8, i32)> = Vec::with_capacity(order.len());
    for (i, &s) in order.iter().enumerate() {
        let f = flips(p, o, u32::from(s));
        let (np, no) = (o ^ f, p ^ f ^ (1 << s));
        let v = if i == 0 {
            -pvs(g, st, np, no, depth - 1, -INF, INF)
        } else {
            let v = -pvs(g, st, np, no, depth - 1, -alpha - 1, -alpha);
            if v > alpha && !st.aborted {
                -pvs(g, st, np, no, depth - 1, -INF, -alpha)
            } else {
                v
            }
        };
        if st.aborted {
            break;
        }
        alpha = alpha.max(v);
        out.push((s, v));
    }
    if out.is_empty() {
        return None;
    }
    // Stable sort: among equal scores, the earlier (better ordered) move stays first.
    out.sort_by_key(|m| std::cmp::Reverse(m.1));
    if st.aborted {
        // Only a move that beat the first one counts; the rest were not searched.
        let searched: Vec<u8> = out.iter().map(|m| m.0).collect();
        let mut rest: Vec<(u8, i32)> = order
            .iter()
            .filter(|s| !searched.contains(s))
            .map(|&s| (s, -INF))
            .collect();
        out.append(&mut rest);
    }
    Some(out)
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
        let lim = self.limits.min(*limits);
        let deadline = lim.deadline();
        let (p, o) = (pos.player().0, pos.opponent().0);
        let empties = pos.empty().count();
        let weights = self.weights.clone();
        // Fresh tables every move: the same position and limits give the same move.
        self.tt.clear();
        let mut st = State {
            w: weights.get(),
            tt: &mut self.tt,
            nodes: 0,
            node_limit: lim.nodes.unwrap_or(u64::MAX),
            next_check: 1024,
            deadline,
            stop,
            aborted: false,
        };
        let mut order: Vec<(u8, i32)> = Vec::new();
        let mut mm = legal(p, o);
        while mm != 0 {
            let s = mm.trailing_zeros();
            mm &= mm - 1;
            let f = flips(p, o, s);
            order.push((s as u8, -st.w.eval(o ^ f, p ^ f ^ (1 << s))));
        }
        order.sort_by_key(|m| std::cmp::Reverse(m.1));
        let mut result = SearchResult {
            best_move: sq(order[0].0),
            score: (order[0].1 + UNITS_PER_DISC / 2).div_euclid(UNITS_PER_DISC),
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
        let max_depth = lim.depth.unwrap_or(60).min(empties).max(1);
        let mid_max = if solve_always {
            max_depth.min(8)
        } else {
            max_depth
        };
        for depth in 1..=mid_max {
            let sqs: Vec<u8> = order.iter().map(|m| m.0).collect();
            let Some(r) = root(&mut st, p, o, depth, &sqs) else {
                break;
            };
            let complete = !st.aborted;
            order = r;
            result.best_move = sq(order[0].0);
            result.pv = vec![result.best_move];
            result.score = (order[0].1 + UNITS_PER_DISC / 2).div_euclid(UNITS_PER_DISC);
            if !complete {
                break;
            }
            result.depth = depth;
            if let (Some(t), Some(d)) = (lim.time, deadline) {
                // Leave time for an exact solve, or stop when the next depth would not finish.
                let share = if solve_try { 5 } else { 2 };
                if d.elapsed() * share > t {
                    break;
                }
            }
        }
        let nodes = st.nodes;
        let aborted = st.aborted;
        if solve_try && (solve_always || !aborted) {
            self.end_tt.clear();
            let mut s = Search::new(
                &mut self.mid_tt,
                &mut self.end_tt,
                stop,
                lim.nodes.map(|n| n.saturating_sub(nodes)),
                deadline,
            );
            if self.trained {
                s.weights = Some(weights.get());
            }
            let (score, mv) = s.end_root(p, o, -64, 64);
            if !s.aborted && mv != NO_MOVE {
                result.best_move = sq(mv);
                result.pv = vec![result.best_move];
                result.score = score;
                result.exact = true;
                result.depth = empties;
            }
            result.nodes = nodes + s.nodes;
        } else {
            result.nodes = nodes;
        }
        Ok(result)
    }
}

/// Midgame scores of the root moves `order` of `(p, o)`, each searched with a full window to
/// `depth` plies (the move included) on `w`, in discs (rounded), best first; `None` when the
/// limits or `stop` end the search first. `nodes` counts the nodes searched.
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
    let mut st = State {
        w,
        tt,
        nodes: *nodes,
        node_limit: node_limit.unwrap_or(u64::MAX),
        next_check: (*nodes + 1024).min(node_limit.unwrap_or(u64::MAX)),
        deadline,
        stop,
        aborted: false,
    };
    let mut out = Vec::with_capacity(order.len());
    for &s in order {
        let f = flips(p, o, u32::from(s));
        let (np, no) = (o ^ f, p ^ f ^ (1 << s));
        let v = match SearchKernel::best() {
            #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
            SearchKernel::Portable(g) => -pvs(g, &mut st, np, no, depth - 1, -INF, INF),
            SearchKernel::Avx2(g) => -pvs(g, &mut st, np, no, depth - 1, -INF, INF),
            SearchKernel::Avx512(g) => -pvs(g, &mut st, np, no, depth - 1, -INF, INF),
            SearchKernel::Simd128(g) => -pvs(g, &mut st, np, no, depth - 1, -INF, INF),
        };
        if st.aborted {
            *nodes = st.nodes;
            return None;
        }
        out.push((s, (v + UNITS_PER_DISC / 2).div_euclid(UNITS_PER_DISC)));
    }
    *nodes = st.nodes;
    out.sort_by_key(|m| std::cmp::Reverse(m.1));
    Some(out)
}
