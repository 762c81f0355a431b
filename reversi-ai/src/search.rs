//! The search core: midgame alpha-beta (PVS) on the Hard evaluation, and the exact endgame
//! solver (PVS with transposition table, fastest-first/parity ordering, stability cutoff,
//! enhanced transposition cutoff and special-cased last four empties).
#![allow(clippy::needless_range_loop)]

use crate::bits::{count_last_flip, edge_stable, odd_empties, stable, CORNERS, NEIGHBOUR};
use crate::eval;
use crate::pattern::{self, Weights, UNITS_PER_DISC};
use crate::time::Deadline;
use crate::tt::{Slot, TransTable, NO_MOVE};
use reversi_core::movegen::{Avx2, Avx512, MoveGen, Portable, Simd128};
use std::sync::atomic::{AtomicBool, Ordering};

pub(crate) const INF: i32 = 30000;
/// Midgame scores of finished games: `WIN + disc difference`.
pub(crate) const WIN: i32 = 10000;

/// Below this many empties the endgame uses the parity-ordered shallow search.
const END_MIN: u32 = 6;
/// Below this many empties the endgame orders its moves by [`order_end_cheap`] (at 6 empties:
/// FFO #40-#49 in 0.7 % more nodes and about 5 % less time).
const END_FULL_ORDER_MIN: u32 = 7;
/// Below this many empties the endgame uses no transposition table (from 6 instead of 7:
/// 7 % fewer nodes on FFO #42-#45, the same time).
const END_TT_MIN: u32 = 6;
/// Up to this many empties the endgame's table entries go to the table's near-end region
/// (see [`end_slot`]).
const END_NEAR_MAX: u32 = 6;
/// From this many empties the endgame tries enhanced transposition cutoffs (from 10 instead
/// of 12: 2 % fewer nodes).
const END_ETC_MIN: u32 = 10;

/// Corners and the A/B-squares of the edges: tried first at low empties.
const GOOD: u64 = 0x8100_0000_0000_0081 | 0x3C00_8181_8181_003C;
/// X-squares and C-squares: tried last at low empties.
const BAD: u64 = 0x42C3_0000_0000_C342;

/// Minimum alpha for a stability cutoff test, by empties.
const STAB_THRESHOLD: [i32; 65] = {
    let mut t = [99i32; 65];
    let mut e = 5;
    while e < 65 {
        let v = 2 * e as i32 - 2;
        t[e] = if v > 64 { 64 } else { v };
        e += 1;
    }
    t
};

/// A move in a [`MoveList`]. Its 16 bytes hold no padding (`_pad` fills them), so that a new
/// list's zeroing is a plain fill with wide stores: with 3 bytes of padding the compiler wrote
/// each field of the 36 moves separately, 72 stores for every node (about 7 % of the solver's
/// time on FFO #40-#49).
#[derive(Clone, Copy, Default)]
struct Mv {
    sq: u8,
    _pad: [u8; 3],
    score: i32,
    flips: u64,
}

const _: () = assert!(core::mem::size_of::<Mv>() == 16);

/// A move list on the stack.
struct MoveList {
    n: usize,
    m: [Mv; 36],
}

impl MoveList {
    /// Moves the best-scored move from `i..` to `i` (the first best wins). The search loop
    /// starts picking at the second move: the orderings score through
    /// [`MoveList::score_best_first`], and most nodes of the exact search stop at their first
    /// move.
    #[inline(always)]
    fn pick(&mut self, i: usize) {
        // Selects without branches (the comparisons are unpredictable): the first best wins.
        let (mut b, mut best) = (i, self.m[i].score);
        for (j, m) in self.m[..self.n].iter().enumerate().skip(i + 1) {
            let better = m.score > best;
            b = if better { j } else { b };
            best = if better { m.score } else { best };
        }
        self.m.swap(i, b);
    }

    /// Scores every move with `score` and puts the best first (the first best, as
    /// [`MoveList::pick`] chooses), found while scoring: the search loop then picks only from
    /// the second move on.
    #[inline(always)]
    fn score_best_first(&mut self, mut score: impl FnMut(&Mv) -> i32) {
        let mut top = (0, i32::MIN);
        for (i, m) in self.m[..self.n].iter_mut().enumerate() {
            m.score = score(m);
            top = if m.score > top.1 { (i, m.score) } else { top };
        }
        self.m.swap(0, top.0);
    }

    fn sort(&mut self) {
        self.m[..self.n].sort_by_key(|m| std::cmp::Reverse(m.score));
    }
}

/// The state of one search: counters, limits and tables.
pub(crate) struct Search<'a> {
    pub nodes: u64,
    node_limit: u64,
    deadline: Option<Deadline>,
    stop: &'a AtomicBool,
    next_check: u64,
    pub aborted: bool,
    /// Endgame scores under the WOF convention (empties to the winner).
    pub wof: bool,
    pub mid_tt: &'a mut TransTable,
    pub end_tt: &'a mut TransTable,
    /// The move generation kernel, detected once when the search is made.
    kernel: SearchKernel,
    /// Trained weights for the endgame's ordering searches; without them those searches use
    /// [`order_eval`].
    pub weights: Option<&'a Weights>,
}

/// A move generation kernel that this CPU has (the value proves it), as the search runs it.
///
/// WebAssembly built with `simd128` has no portable variant: its SIMD kernel is compiled in, and
/// leaving the portable one out keeps a single copy of the search in the module (its size is
/// bounded).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(dead_code, reason = "no x86 kernel is ever made there")
)]
pub(crate) enum SearchKernel {
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    Portable(Portable),
    Avx2(Avx2),
    Avx512(Avx512),
    Simd128(Simd128),
}

impl SearchKernel {
    /// The fastest kernel of this CPU for the search.
    pub(crate) fn best() -> SearchKernel {
        if let Some(g) = Simd128::detect() {
            return SearchKernel::Simd128(g);
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        unreachable!("a simd128 build has the SIMD kernel");
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        if let Some(g) = Avx512::detect() {
            SearchKernel::Avx512(g)
        } else if let Some(g) = Avx2::detect() {
            SearchKernel::Avx2(g)
        } else {
            SearchKernel::Portable(Portable)
        }
    }

    /// Every kernel this CPU has, portable first.
    #[cfg(test)]
    pub(crate) fn available() -> Vec<SearchKernel> {
        let mut v = vec![SearchKernel::Portable(Portable)];
        v.extend(Avx2::detect().map(SearchKernel::Avx2));
        v.extend(Avx512::detect().map(SearchKernel::Avx512));
        v.extend(Simd128::detect().map(SearchKernel::Simd128));
        v
    }
}

#[inline(always)]
fn child(p: u64, o: u64, m: &Mv) -> (u64, u64) {
    (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq))
}

impl<'a> Search<'a> {
    pub fn new(
        mid_tt: &'a mut TransTable,
        end_tt: &'a mut TransTable,
        stop: &'a AtomicBool,
        node_limit: Option<u64>,
        deadline: Option<Deadline>,
    ) -> Search<'a> {
        let node_limit = node_limit.unwrap_or(u64::MAX);
        Search {
            nodes: 0,
            node_limit,
            deadline,
            stop,
            next_check: node_limit.min(1024),
            aborted: false,
            wof: false,
            mid_tt,
            end_tt,
            kernel: SearchKernel::best(),
            weights: None,
        }
    }

    /// Counts a node; true when the search must stop.
    #[inline(always)]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check()
        } else {
            self.aborted
        }
    }

    #[cold]
    fn check(&mut self) -> bool {
        if self.nodes >= self.node_limit
            || self.stop.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| d.passed())
        {
            self.aborted = true;
        }
        self.next_check = self.nodes.saturating_add(2048).min(self.node_limit);
        self.aborted
    }

    // ------------------------------------------------------------------ midgame

    /// Score of a finished game in midgame units (board convention).
    #[inline]
    pub(crate) fn mid_terminal(p: u64, o: u64) -> i32 {
        let d = p.count_ones() as i32 - o.count_ones() as i32;
        match d.cmp(&0) {
            std::cmp::Ordering::Greater => WIN + d,
            std::cmp::Ordering::Less => -WIN + d,
            std::cmp::Ordering::Equal => 0,
        }
    }

    // ------------------------------------------------------------------ endgame

    /// Final score of a finished game in the chosen convention.
    #[inline(always)]
    fn terminal(&self, p: u64, o: u64) -> i32 {
        let pc = p.count_ones() as i32;
        let oc = o.count_ones() as i32;
        let d = pc - oc;
        if self.wof {
            let e = 64 - pc - oc;
            match d.cmp(&0) {
                std::cmp::Ordering::Greater => d + e,
                std::cmp::Ordering::Less => d - e,
                std::cmp::Ordering::Equal => 0,
            }
        } else {
            d
        }
    }

    /// Midgame search of each root move; returns the moves with their scores, best first (the
    /// scores of moves after the first are bounds unless `all_exact`).
    pub fn mid_root(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        order: &[u8],
        all_exact: bool,
    ) -> Option<Vec<(u8, i32)>> {
        match self.kernel {
            #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
            SearchKernel::Portable(g) => mid_root(g, self, p, o, depth, order, all_exact),
            SearchKernel::Avx2(g) => mid_root(g, self, p, o, depth, order, all_exact),
            SearchKernel::Avx512(g) => mid_root(g, self, p, o, depth, order, all_exact),
            SearchKernel::Simd128(g) => mid_root(g, self, p, o, depth, order, all_exact),
        }
    }

    /// Exact score of a position by any number of empties.
    pub fn exact(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        match self.kernel {
            #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
            SearchKernel::Portable(g) => exact(g, self, p, o, alpha, beta),
            SearchKernel::Avx2(g) => exact(g, self, p, o, alpha, beta),
            SearchKernel::Avx512(g) => exact(g, self, p, o, alpha, beta),
            SearchKernel::Simd128(g) => exact(g, self, p, o, alpha, beta),
        }
    }

    /// Exact solve of the root within (`alpha`, `beta`): (score, best move or `NO_MOVE` on a
    /// pass or finished game).
    pub fn end_root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, u8) {
        match self.kernel {
            #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
            SearchKernel::Portable(g) => end_root(g, self, p, o, alpha, beta),
            SearchKernel::Avx2(g) => end_root(g, self, p, o, alpha, beta),
            SearchKernel::Avx512(g) => end_root(g, self, p, o, alpha, beta),
            SearchKernel::Simd128(g) => end_root(g, self, p, o, alpha, beta),
        }
    }
}

/// The principal-variation loop over an ordered move list, shared by the midgame and endgame
/// searches: a move is searched with the full window when `$full(i)` holds, otherwise with a null
/// window first and again with the full window if it lands inside. `$search(np, no, a, b)` is
/// the negated child search. Updates `$best`, `$best_mv` and `$alpha`, stops at a beta cutoff,
/// and makes the enclosing function return 0 once the search is aborted.
macro_rules! pvs_loop {
    ($sr:ident, $list:ident, $p:ident, $o:ident, $alpha:ident, $beta:ident, $best:ident, $best_mv:ident,
     |$i:ident| $full:expr, |$np:ident, $no:ident, $a:ident, $b:ident| $search:expr) => {
        for $i in 0..$list.n {
            // The scoring put the best move first (`MoveList::score_best_first`).
            if $i > 0 {
                $list.pick($i);
            }
            let m = $list.m[$i];
            let ($np, $no) = child($p, $o, &m);
            let s = if $full {
                let ($a, $b) = (-$beta, -$alpha);
                $search
            } else {
                let s = {
                    let ($a, $b) = (-$alpha - 1, -$alpha);
                    $search
                };
                if s > $alpha && s < $beta && !$sr.aborted {
                    let ($a, $b) = (-$beta, -$alpha);
                    $search
                } else {
                    s
                }
            };
            if $sr.aborted {
                return 0;
            }
            if s > $best {
                $best = s;
                $best_mv = m.sq;
                if s > $alpha {
                    $alpha = s;
                    if s >= $beta {
                        break;
                    }
                }
            }
        }
    };
}

// The search routines, written once and compiled per movegen kernel (`G`). A routine that is
// not inlined (`name`) runs its body (`name_body`) compiled with the kernel's CPU features, so
// that the kernel's operations inline into it: the recursive ones through `SearchGen::call` (its
// arguments stay in registers), the others through `MoveGen::run`. The CPU is checked once, at
// the entry (`Search::mid_root`, `exact`, `end_root`).

/// The recursive routines of the search, as `SearchGen::call` selects them.
const MID: u8 = 0;
const MID_ORD: u8 = 1;
const END: u8 = 2;
const SHALLOW: u8 = 3;
const SOLVE4: u8 = 4;
const SOLVE3: u8 = 5;
const SOLVE2: u8 = 6;

/// The recursive routine `R` with its arguments: the window, and `a`, `b` as the routine needs
/// (the depth or the empties in `a`; the squares of `solve2` in `a` and `b`; those of `solve3`
/// in the bytes of `a` and in `b`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn routine<G: SearchGen, const R: u8>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    a: u32,
    b: u32,
) -> i32 {
    match R {
        MID => mid_body::<G, false>(g, sr, p, o, a, alpha, beta),
        MID_ORD => mid_body::<G, true>(g, sr, p, o, a, alpha, beta),
        END => end_body(g, sr, p, o, alpha, beta, a),
        SHALLOW => shallow_body(g, sr, p, o, alpha, beta, a),
        SOLVE4 => solve4_body(g, sr, p, o, alpha, beta),
        SOLVE3 => solve3_body(g, sr, p, o, alpha, beta, [a & 0xFF, a >> 8, b]),
        _ => solve2_body(g, sr, p, o, alpha, beta, a, b),
    }
}

/// A kernel as the search runs it: [`MoveGen`], and the entry to the recursive routines
/// compiled with the kernel's CPU features (one function per routine and kernel, taking its
/// arguments in registers, unlike a closure through [`MoveGen::run`]).
pub(crate) trait SearchGen: MoveGen {
    /// Runs the routine `R` (see [`routine`]).
    #[allow(clippy::too_many_arguments)]
    fn call<const R: u8>(
        self,
        sr: &mut Search<'_>,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        a: u32,
        b: u32,
    ) -> i32;
}

impl SearchGen for Portable {
    #[inline(always)]
    fn call<const R: u8>(
        self,
        sr: &mut Search<'_>,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        a: u32,
        b: u32,
    ) -> i32 {
        #[allow(clippy::too_many_arguments)]
        fn entry<const R: u8>(
            g: Portable,
            sr: &mut Search<'_>,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            a: u32,
            b: u32,
        ) -> i32 {
            routine::<Portable, R>(g, sr, p, o, alpha, beta, a, b)
        }
        entry::<R>(self, sr, p, o, alpha, beta, a, b)
    }
}

impl SearchGen for Simd128 {
    #[inline(always)]
    fn call<const R: u8>(
        self,
        sr: &mut Search<'_>,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        a: u32,
        b: u32,
    ) -> i32 {
        #[allow(clippy::too_many_arguments)]
        fn entry<const R: u8>(
            g: Simd128,
            sr: &mut Search<'_>,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            a: u32,
            b: u32,
        ) -> i32 {
            routine::<Simd128, R>(g, sr, p, o, alpha, beta, a, b)
        }
        entry::<R>(self, sr, p, o, alpha, beta, a, b)
    }
}

impl SearchGen for Avx2 {
    #[inline(always)]
    fn call<const R: u8>(
        self,
        sr: &mut Search<'_>,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        a: u32,
        b: u32,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
            #[allow(clippy::too_many_arguments)]
            fn entry<const R: u8>(
                g: Avx2,
                sr: &mut Search<'_>,
                p: u64,
                o: u64,
                alpha: i32,
                beta: i32,
                a: u32,
                b: u32,
            ) -> i32 {
                routine::<Avx2, R>(g, sr, p, o, alpha, beta, a, b)
            }
            // SAFETY: an `Avx2` exists only when `Avx2::detect` found these CPU features.
            unsafe { entry::<R>(self, sr, p, o, alpha, beta, a, b) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.run(move |g| routine::<Avx2, R>(g, sr, p, o, alpha, beta, a, b))
    }
}

impl SearchGen for Avx512 {
    #[inline(always)]
    fn call<const R: u8>(
        self,
        sr: &mut Search<'_>,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        a: u32,
        b: u32,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(
                enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt"
            )]
            #[allow(clippy::too_many_arguments)]
            fn entry<const R: u8>(
                g: Avx512,
                sr: &mut Search<'_>,
                p: u64,
                o: u64,
                alpha: i32,
                beta: i32,
                a: u32,
                b: u32,
            ) -> i32 {
                routine::<Avx512, R>(g, sr, p, o, alpha, beta, a, b)
            }
            // SAFETY: an `Avx512` exists only when `Avx512::detect` found these CPU features.
            unsafe { entry::<R>(self, sr, p, o, alpha, beta, a, b) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.run(move |g| routine::<Avx512, R>(g, sr, p, o, alpha, beta, a, b))
    }
}

/// Legal moves of `p` against `o`.
#[inline(always)]
fn legal<G: SearchGen>(g: G, p: u64, o: u64) -> u64 {
    g.legal_moves(p, o)
}

#[inline(always)]
fn flips<G: SearchGen>(g: G, p: u64, o: u64, sq: u32) -> u64 {
    g.flips(p, o, sq as u8)
}

#[inline(always)]
fn weighted_mobility<G: SearchGen>(g: G, p: u64, o: u64) -> i32 {
    let m = legal(g, p, o);
    (m.count_ones() + (m & CORNERS).count_ones()) as i32
}

/// The Hard evaluation (see [`eval::hard_with_mobility`]).
#[inline(always)]
fn hard<G: SearchGen>(g: G, p: u64, o: u64) -> i32 {
    eval::hard_with_mobility(p, o, legal(g, p, o), legal(g, o, p))
}

#[inline(always)]
fn move_list<G: SearchGen>(g: G, p: u64, o: u64, mut moves: u64) -> MoveList {
    let mut l = MoveList {
        n: 0,
        m: [Mv::default(); 36],
    };
    while moves != 0 && l.n < 36 {
        let sq = moves.trailing_zeros();
        moves &= moves - 1;
        l.m[l.n] = Mv {
            sq: sq as u8,
            flips: flips(g, p, o, sq),
            ..Mv::default()
        };
        l.n += 1;
    }
    l
}

/// The evaluation of the endgame's ordering searches, from the mover's view: mobility
/// (corners counted twice), potential mobility, corners and stable edge discs. Unlike the
/// Hard evaluation it has no square table: X- and C-square moves, often the best ones late
/// in the game, are not put last.
#[inline(always)]
fn order_eval<G: SearchGen>(g: G, p: u64, o: u64) -> i32 {
    let filled = p | o;
    let mob = weighted_mobility(g, p, o) - weighted_mobility(g, o, p);
    let near_empty = crate::bits::neighbours(!filled);
    let pot = (o & near_empty).count_ones() as i32 - (p & near_empty).count_ones() as i32;
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    let stable = if filled & CORNERS != 0 {
        edge_stable(p, o).count_ones() as i32 - edge_stable(o, p).count_ones() as i32
    } else {
        0
    };
    let [wm, wp, wc, ws] = ORDER_EVAL;
    wm * mob + wp * pot + wc * corners + ws * stable
}

/// The evaluation at the leaves of [`mid`]: the Hard evaluation, or in the endgame's ordering
/// searches (`ORD`) the trained evaluation when the search has weights, else [`order_eval`].
#[inline(always)]
fn leaf<G: SearchGen, const ORD: bool>(g: G, sr: &Search<'_>, p: u64, o: u64) -> i32 {
    if ORD {
        match sr.weights {
            Some(w) => {
                let mob = legal(g, p, o).count_ones() as i32 - legal(g, o, p).count_ones() as i32;
                w.eval_with_mobility(p, o, mob)
            }
            None => order_eval(g, p, o),
        }
    } else {
        hard(g, p, o)
    }
}

/// The score of a finished game in [`mid`]: the disc difference in the units of the trained
/// evaluation when an ordering search runs on it, else [`Search::mid_terminal`].
#[inline(always)]
fn mid_end<const ORD: bool>(sr: &Search<'_>, p: u64, o: u64) -> i32 {
    if ORD && sr.weights.is_some() {
        (p.count_ones() as i32 - o.count_ones() as i32) * UNITS_PER_DISC
    } else {
        Search::mid_terminal(p, o)
    }
}

/// Alpha-beta (PVS), `depth` plies, on the Hard evaluation, or on [`order_eval`] when `ORD`
/// (the endgame's ordering searches). The two kinds keep their scores apart in the table:
/// an ordering search files a position (`p`, `o`) under the key (`p | o`, `o`), which no
/// position has.
#[inline(always)]
fn mid<G: SearchGen, const ORD: bool>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    if ORD {
        g.call::<MID_ORD>(sr, p, o, alpha, beta, depth, 0)
    } else {
        g.call::<MID>(sr, p, o, alpha, beta, depth, 0)
    }
}

#[inline(always)]
fn mid_body<G: SearchGen, const ORD: bool>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    if sr.tick() {
        return 0;
    }
    if depth == 0 {
        return leaf::<G, ORD>(g, sr, p, o);
    }
    let moves = legal(g, p, o);
    if moves == 0 {
        if legal(g, o, p) == 0 {
            return mid_end::<ORD>(sr, p, o);
        }
        return -mid::<G, ORD>(g, sr, o, p, depth - 1, -beta, -alpha);
    }
    if depth == 1 {
        if ORD {
            if let Some(w) = sr.weights {
                return pattern_children(g, sr, w, p, o, moves, beta);
            }
        }
        let mut best = -INF;
        let mut mm = moves;
        while mm != 0 {
            let sq = mm.trailing_zeros();
            mm &= mm - 1;
            let f = flips(g, p, o, sq);
            sr.nodes += 1;
            let s = -leaf::<G, ORD>(g, sr, o ^ f, p ^ f ^ (1 << sq));
            if s > best {
                best = s;
                if s >= beta {
                    break;
                }
            }
        }
        return best;
    }
    let key = mid_key::<ORD>(p, o);
    let mut tt_mv = NO_MOVE;
    if let Some(e) = sr.mid_tt.probe(key.0, key.1) {
        tt_mv = e.mv;
        if u32::from(e.depth) >= depth {
            let (l, u) = (i32::from(e.lower), i32::from(e.upper));
            if l >= beta {
                return l;
            }
            if u <= alpha {
                return u;
            }
            if l == u {
                return l;
            }
        }
    }
    let mut list = move_list(g, p, o, moves);
    if depth >= 3 {
        // The children probe the table too (from 2 plies): their buckets load while the moves
        // are ordered.
        for m in &list.m[..list.n] {
            let (np, no) = child(p, o, m);
            let key = mid_key::<ORD>(np, no);
            sr.mid_tt.prefetch(sr.mid_tt.slot(key.0, key.1, false));
        }
    }
    // The ordering searches order by mobility at every depth: the Hard evaluation costs more
    // and orders them worse (FFO #40-#49: 13 M more nodes with it).
    list.score_best_first(|m| {
        let (np, no) = child(p, o, m);
        if m.sq == tt_mv {
            1 << 30
        } else if depth >= 4 && !ORD {
            -hard(g, np, no) - 8 * weighted_mobility(g, np, no)
        } else {
            -weighted_mobility(g, np, no) * 16 + eval::SQUARE_TABLE[m.sq as usize]
        }
    });
    let alpha0 = alpha;
    let mut best = -INF;
    let mut best_mv = NO_MOVE;
    pvs_loop!(
        sr,
        list,
        p,
        o,
        alpha,
        beta,
        best,
        best_mv,
        |i| i == 0,
        |np, no, a, b| -mid::<G, ORD>(g, sr, np, no, depth - 1, a, b)
    );
    sr.mid_tt
        .store(key.0, key.1, depth, alpha0, beta, best, best_mv);
    best
}

/// The table key of a position in [`mid`]: an ordering search (`ORD`) files (`p`, `o`) under
/// (`p | o`, `o`), which no position has, so that the two kinds of search keep apart.
#[inline(always)]
fn mid_key<const ORD: bool>(p: u64, o: u64) -> (u64, u64) {
    if ORD {
        (p | o, o)
    } else {
        (p, o)
    }
}

/// The best of the children's trained evaluations (one ply of an ordering search on the
/// weights `w`), stopping at the first at or above `beta`: the children's evaluations come
/// from the parent's pattern indices, updated by each move's squares.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn pattern_children<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    w: &Weights,
    p: u64,
    o: u64,
    moves: u64,
    beta: i32,
) -> i32 {
    let view = pattern::view(o, p);
    let deltas = pattern::square_deltas();
    let empties = (!(p | o)).count_ones() - 1;
    let mut best = -INF;
    let mut mm = moves;
    while mm != 0 {
        let sq = mm.trailing_zeros();
        mm &= mm - 1;
        let f = flips(g, p, o, sq);
        sr.nodes += 1;
        let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
        let mob = legal(g, np, no).count_ones() as i32 - legal(g, no, np).count_ones() as i32;
        let s = -w.eval_child(&view, deltas, sq, f, empties, mob);
        if s > best {
            best = s;
            if s >= beta {
                break;
            }
        }
    }
    best
}

/// Midgame search of each root move; returns the moves with their scores, best first (the
/// scores of moves after the first are bounds unless `all_exact`).
#[inline(always)]
fn mid_root<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    depth: u32,
    order: &[u8],
    all_exact: bool,
) -> Option<Vec<(u8, i32)>> {
    g.run(
        #[inline(always)]
        move |g| mid_root_body::<G>(g, sr, p, o, depth, order, all_exact),
    )
}

#[inline(always)]
fn mid_root_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    depth: u32,
    order: &[u8],
    all_exact: bool,
) -> Option<Vec<(u8, i32)>> {
    let mut out = Vec::with_capacity(order.len());
    let mut alpha = -INF;
    for (i, &sq) in order.iter().enumerate() {
        let f = flips(g, p, o, u32::from(sq));
        let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
        let s = if all_exact || i == 0 {
            -mid::<G, false>(g, sr, np, no, depth - 1, -INF, INF)
        } else {
            let s = -mid::<G, false>(g, sr, np, no, depth - 1, -alpha - 1, -alpha);
            if s > alpha && !sr.aborted {
                -mid::<G, false>(g, sr, np, no, depth - 1, -INF, -alpha)
            } else {
                s
            }
        };
        if sr.aborted {
            return None;
        }
        alpha = alpha.max(s);
        out.push((sq, s));
    }
    out.sort_by_key(|m| std::cmp::Reverse(m.1));
    Some(out)
}

/// Exact score of the position with one empty square `x`, the mover owning `p`.
#[inline(always)]
fn solve1(sr: &mut Search<'_>, p: u64, x: u32) -> i32 {
    sr.nodes += 1;
    let n = p.count_ones() as i32;
    let f = count_last_flip(x, p);
    if f > 0 {
        return 2 * (n + f + 1) - 64;
    }
    let o = !p & !(1u64 << x);
    let f = count_last_flip(x, o);
    if f > 0 {
        return 2 * (n - f) - 64;
    }
    let d = 2 * n - 63;
    if sr.wof {
        if d > 0 {
            d + 1
        } else {
            d - 1
        }
    } else {
        d
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn solve2<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    x1: u32,
    x2: u32,
) -> i32 {
    g.call::<SOLVE2>(sr, p, o, alpha, beta, x1, x2)
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn solve2_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    x1: u32,
    x2: u32,
) -> i32 {
    sr.nodes += 1;
    let mut best = -INF;
    if NEIGHBOUR[x1 as usize] & o != 0 {
        let f = flips(g, p, o, x1);
        if f != 0 {
            best = -solve1(sr, o ^ f, x2);
            if best >= beta {
                return best;
            }
        }
    }
    if NEIGHBOUR[x2 as usize] & o != 0 {
        let f = flips(g, p, o, x2);
        if f != 0 {
            let s = -solve1(sr, o ^ f, x1);
            return s.max(best);
        }
    }
    if best > -INF {
        return best;
    }
    // pass
    let mut best = INF;
    if NEIGHBOUR[x1 as usize] & p != 0 {
        let f = flips(g, o, p, x1);
        if f != 0 {
            best = solve1(sr, p ^ f, x2);
            if best <= alpha {
                return best;
            }
        }
    }
    if NEIGHBOUR[x2 as usize] & p != 0 {
        let f = flips(g, o, p, x2);
        if f != 0 {
            let s = solve1(sr, p ^ f, x1);
            return s.min(best);
        }
    }
    if best < INF {
        return best;
    }
    sr.terminal(p, o)
}

#[inline(always)]
fn solve3<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    x: [u32; 3],
) -> i32 {
    g.call::<SOLVE3>(sr, p, o, alpha, beta, x[0] | x[1] << 8, x[2])
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn solve3_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    x: [u32; 3],
) -> i32 {
    sr.nodes += 1;
    let mut best = -INF;
    let rest = [(x[1], x[2]), (x[0], x[2]), (x[0], x[1])];
    for i in 0..3 {
        let sq = x[i];
        if NEIGHBOUR[sq as usize] & o == 0 {
            continue;
        }
        let f = flips(g, p, o, sq);
        if f == 0 {
            continue;
        }
        let (a, b) = rest[i];
        let s = -solve2(g, sr, o ^ f, p ^ f ^ (1 << sq), -beta, -alpha, a, b);
        if s > best {
            best = s;
            if s >= beta {
                return s;
            }
            if s > alpha {
                alpha = s;
            }
        }
    }
    if best > -INF {
        return best;
    }
    // pass: the opponent moves, minimising
    let mut best = INF;
    let mut beta = beta;
    for i in 0..3 {
        let sq = x[i];
        if NEIGHBOUR[sq as usize] & p == 0 {
            continue;
        }
        let f = flips(g, o, p, sq);
        if f == 0 {
            continue;
        }
        let (a, b) = rest[i];
        let s = solve2(g, sr, p ^ f, o ^ f ^ (1 << sq), alpha, beta, a, b);
        if s < best {
            best = s;
            if s <= alpha {
                return s;
            }
            if s < beta {
                beta = s;
            }
        }
    }
    if best < INF {
        return best;
    }
    sr.terminal(p, o)
}

#[inline(always)]
fn solve4<G: SearchGen>(g: G, sr: &mut Search<'_>, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
    g.call::<SOLVE4>(sr, p, o, alpha, beta, 0, 0)
}

#[inline(always)]
fn solve4_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    sr.nodes += 1;
    let empty = !(p | o);
    // Squares in odd quadrants first (parity), X- and C-squares after the others, then by
    // square: each square's key is its class (0-3) above its index, sorted without branches.
    debug_assert_eq!(empty.count_ones(), 4);
    let odd = odd_empties(empty);
    let mut e = empty;
    let mut x = [0u32; 4];
    for k in &mut x {
        let sq = e.trailing_zeros() & 63;
        e &= e.wrapping_sub(1);
        let class = ((!odd >> sq) & 1) << 1 | ((BAD >> sq) & 1);
        *k = (class as u32) << 6 | sq;
    }
    for (a, b) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        let (lo, hi) = (x[a].min(x[b]), x[a].max(x[b]));
        x[a] = lo;
        x[b] = hi;
    }
    for k in &mut x {
        *k &= 63;
    }
    let rest = [
        [x[1], x[2], x[3]],
        [x[0], x[2], x[3]],
        [x[0], x[1], x[3]],
        [x[0], x[1], x[2]],
    ];
    let mut best = -INF;
    for i in 0..4 {
        let sq = x[i];
        if NEIGHBOUR[sq as usize] & o == 0 {
            continue;
        }
        let f = flips(g, p, o, sq);
        if f == 0 {
            continue;
        }
        let s = -solve3(g, sr, o ^ f, p ^ f ^ (1 << sq), -beta, -alpha, rest[i]);
        if s > best {
            best = s;
            if s >= beta {
                return s;
            }
            if s > alpha {
                alpha = s;
            }
        }
    }
    if best > -INF {
        return best;
    }
    if legal(g, o, p) != 0 {
        return -solve4(g, sr, o, p, -beta, -alpha);
    }
    sr.terminal(p, o)
}

/// Alpha-beta at 5 empties (and below, by dispatch): parity and square-class ordering,
/// stability cutoff, no table.
#[inline(always)]
fn shallow<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    empties: u32,
) -> i32 {
    g.call::<SHALLOW>(sr, p, o, alpha, beta, empties, 0)
}

#[inline(always)]
fn shallow_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    empties: u32,
) -> i32 {
    if empties <= 4 {
        return match empties {
            4 => solve4(g, sr, p, o, alpha, beta),
            3 => {
                let e = !(p | o);
                let a = e.trailing_zeros();
                let e = e & (e - 1);
                let b = e.trailing_zeros();
                let e = e & (e - 1);
                solve3(g, sr, p, o, alpha, beta, [a, b, e.trailing_zeros()])
            }
            2 => {
                let e = !(p | o);
                let a = e.trailing_zeros();
                let e = e & (e - 1);
                solve2(g, sr, p, o, alpha, beta, a, e.trailing_zeros())
            }
            1 => solve1(sr, p, (!(p | o)).trailing_zeros()),
            _ => sr.terminal(p, o),
        };
    }
    sr.nodes += 1;
    if alpha >= STAB_THRESHOLD[empties as usize] {
        let s = 64 - 2 * stable(o, p).count_ones() as i32;
        if s <= alpha {
            return s;
        }
    }
    let moves = legal(g, p, o);
    if moves == 0 {
        if legal(g, o, p) == 0 {
            return sr.terminal(p, o);
        }
        return -shallow(g, sr, o, p, -beta, -alpha, empties);
    }
    let odd = odd_empties(!(p | o));
    let mut best = -INF;
    for set in [
        moves & odd & GOOD,
        moves & odd & !GOOD & !BAD,
        moves & odd & BAD,
        moves & !odd & GOOD,
        moves & !odd & !GOOD & !BAD,
        moves & !odd & BAD,
    ] {
        let mut mm = set;
        while mm != 0 {
            let sq = mm.trailing_zeros();
            mm &= mm - 1;
            let f = flips(g, p, o, sq);
            let s = -shallow(g, sr, o ^ f, p ^ f ^ (1 << sq), -beta, -alpha, empties - 1);
            if s > best {
                best = s;
                if s >= beta {
                    return s;
                }
                if s > alpha {
                    alpha = s;
                }
            }
        }
    }
    best
}

/// Scores moves for ordering in the endgame (the table move, tried before any ordering, is not
/// in the list).
#[inline(always)]
fn order_end<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    list: &mut MoveList,
    empties: u32,
) {
    g.run(
        #[inline(always)]
        move |g| order_end_body::<G>(g, sr, p, o, list, empties),
    )
}

#[inline(always)]
fn order_end_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    list: &mut MoveList,
    empties: u32,
) {
    let odd = odd_empties(!(p | o));
    let pattern = sr.weights.is_some();
    let search_min = ordering_search_min(sr);
    let search_max = if pattern {
        PATTERN_ORDER_SEARCH_MAX
    } else {
        ORDER_SEARCH_MAX
    };
    let sort_depth = if empties >= search_min {
        (empties - search_min + 1).min(search_max)
    } else {
        0
    };
    let [w_mob, w_stable, w_pot, w_parity, w_search] = if pattern {
        PATTERN_ORDER_WEIGHTS
    } else {
        ORDER_WEIGHTS
    };
    // One-ply ordering searches on the weights evaluate the children from this node's
    // pattern indices.
    let one_ply = match sr.weights {
        Some(w) if sort_depth == 1 => Some((w, pattern::view(o, p), pattern::square_deltas())),
        _ => None,
    };
    let mut same_edges = None;
    // Potential mobility counts the mover's discs next to an empty square of this node, once
    // for all moves (next to the child's empty squares only, it took more time and, on FFO
    // #40-#49, no fewer nodes).
    let near_empty = crate::bits::neighbours(!(p | o));
    list.score_best_first(|m| {
        let (np, no) = child(p, o, m);
        if np == 0 {
            return 1 << 29; // wipe-out
        }
        let mob = weighted_mobility(g, np, no);
        let mut s = -mob * w_mob;
        // A move that neither lands on nor flips an edge square leaves the edges, and so
        // the mover's stable edge discs, as they were: computed once for all such moves.
        let edge_stable = if (m.flips | 1u64 << m.sq) & EDGES == 0 {
            *same_edges.get_or_insert_with(|| stable_corner_edge(p, o))
        } else {
            stable_corner_edge(no, np)
        };
        s += edge_stable * w_stable;
        s -= (no & near_empty).count_ones() as i32 * w_pot;
        if odd >> m.sq & 1 == 1 {
            s += w_parity;
        }
        if let Some((w, view, deltas)) = &one_ply {
            // As `mid` at depth 0: a node, then the leaf's evaluation.
            let v = if sr.tick() {
                0
            } else {
                let mob =
                    legal(g, np, no).count_ones() as i32 - legal(g, no, np).count_ones() as i32;
                -w.eval_child(view, deltas, u32::from(m.sq), m.flips, empties - 1, mob)
            };
            s += v * w_search;
        } else if sort_depth > 0 {
            let v = -mid::<G, true>(g, sr, np, no, sort_depth - 1, -INF, INF);
            s += v * w_search;
        }
        s
    });
}

/// Orders moves just above the shallow search: a wipe-out first, then the opponent's mobility
/// (corners twice), then parity, then corners and A/B-squares before X/C-squares. The
/// stability and potential mobility terms of [`order_end`] cost more than they save this
/// close to the end.
#[inline(always)]
fn order_end_cheap<G: SearchGen>(g: G, p: u64, o: u64, list: &mut MoveList) {
    let odd = odd_empties(!(p | o));
    list.score_best_first(|m| {
        let (np, no) = child(p, o, m);
        if np == 0 {
            return 1 << 29; // wipe-out
        }
        let sq = 1u64 << m.sq;
        let mut s = -16 * weighted_mobility(g, np, no);
        if odd & sq != 0 {
            s += 8;
        }
        if GOOD & sq != 0 {
            s += 4;
        } else if BAD & sq != 0 {
            s -= 4;
        }
        s
    });
}

/// Exact alpha-beta (PVS) from 6 empties up: fastest-first ordering (with shallow ordering
/// searches from 14 empties, or from 16 on the trained evaluation), transposition table from
/// 6, ETC from 10.
#[inline(always)]
fn end<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    empties: u32,
) -> i32 {
    g.call::<END>(sr, p, o, alpha, beta, empties, 0)
}

/// [`end`] for a child of `end_body`: below `END_MIN` empties straight to [`shallow`], without
/// passing through `end`'s entry.
#[inline(always)]
fn end_child<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    empties: u32,
) -> i32 {
    if empties < END_MIN {
        shallow(g, sr, p, o, alpha, beta, empties)
    } else {
        end(g, sr, p, o, alpha, beta, empties)
    }
}

#[inline(always)]
fn end_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    empties: u32,
) -> i32 {
    if empties < END_MIN {
        return shallow(g, sr, p, o, alpha, beta, empties);
    }
    if sr.tick() {
        return 0;
    }
    if alpha >= STAB_THRESHOLD[empties as usize] {
        let s = 64 - 2 * stable(o, p).count_ones() as i32;
        if s <= alpha {
            return s;
        }
    }
    let mut tt_mv = NO_MOVE;
    let use_tt = empties >= END_TT_MIN;
    let slot = end_slot(sr.end_tt, p, o, empties);
    if let Some(e) = if use_tt {
        sr.end_tt.probe_slot(slot, p, o)
    } else {
        None
    } {
        tt_mv = e.mv;
        let (l, u) = (i32::from(e.lower), i32::from(e.upper));
        if l >= beta {
            return l;
        }
        if u <= alpha {
            return u;
        }
        if l == u {
            return l;
        }
    }
    let moves = legal(g, p, o);
    if moves == 0 {
        if legal(g, o, p) == 0 {
            return sr.terminal(p, o);
        }
        return -end(g, sr, o, p, -beta, -alpha, empties);
    }
    let alpha0 = alpha;
    let mut best = -INF;
    let mut best_mv = NO_MOVE;
    let pv_node = beta > alpha + 1;
    let mut moves = moves;
    let mut first = true;
    if tt_mv != NO_MOVE && moves >> tt_mv & 1 == 1 {
        // The table's move first, before any ordering work: it often cuts.
        let f = flips(g, p, o, u32::from(tt_mv));
        let s = -end_child(
            g,
            sr,
            o ^ f,
            p ^ f ^ (1 << tt_mv),
            -beta,
            -alpha,
            empties - 1,
        );
        if sr.aborted {
            return 0;
        }
        best = s;
        best_mv = tt_mv;
        if s > alpha {
            alpha = s;
            if s >= beta {
                if use_tt {
                    sr.end_tt
                        .store_slot(slot, p, o, empties, alpha0, beta, best, best_mv);
                }
                return best;
            }
        }
        moves &= !(1u64 << tt_mv);
        first = false;
    }
    if moves != 0 {
        let mut list = move_list(g, p, o, moves);
        // The children's buckets are prefetched here (not at 6 empties, whose children have
        // no table), for the ETC probes and the children's own. Where the ordering runs
        // shallow searches, the ETC probes come first: a cutoff then saves those searches.
        // Below that, they come after the ordering, during which the buckets load (FFO
        // #40-#49: 688.8 M nodes either way, about 4 % less time on a machine whose memory
        // answers in about 200 ns).
        let etc = empties >= END_ETC_MIN;
        let etc_first = etc && empties >= ordering_search_min(sr);
        if empties > END_TT_MIN {
            for m in &list.m[..list.n] {
                let (np, no) = child(p, o, m);
                sr.end_tt.prefetch(end_slot(sr.end_tt, np, no, empties - 1));
            }
        }
        if etc_first {
            if let Some((s, mv)) = etc_cut(sr.end_tt, &list, p, o, empties, beta) {
                sr.end_tt
                    .store_slot(slot, p, o, empties, alpha0, beta, s, mv);
                return s;
            }
        }
        if empties < END_FULL_ORDER_MIN {
            order_end_cheap(g, p, o, &mut list);
        } else {
            order_end(g, sr, p, o, &mut list, empties);
        }
        if etc && !etc_first {
            if let Some((s, mv)) = etc_cut(sr.end_tt, &list, p, o, empties, beta) {
                sr.end_tt
                    .store_slot(slot, p, o, empties, alpha0, beta, s, mv);
                return s;
            }
        }
        pvs_loop!(
            sr,
            list,
            p,
            o,
            alpha,
            beta,
            best,
            best_mv,
            |i| (i == 0 && first) || !pv_node,
            |np, no, a, b| -end_child(g, sr, np, no, a, b, empties - 1)
        );
    }
    if use_tt {
        sr.end_tt
            .store_slot(slot, p, o, empties, alpha0, beta, best, best_mv);
    }
    best
}

/// Enhanced transposition cutoff: the first child (of `empties - 1` empty squares) in `list`
/// whose table entry bounds its score at or below `-beta`, which proves at least `beta` for
/// this node: that score and its move.
#[inline(always)]
fn etc_cut(
    tt: &TransTable,
    list: &MoveList,
    p: u64,
    o: u64,
    empties: u32,
    beta: i32,
) -> Option<(i32, u8)> {
    for m in &list.m[..list.n] {
        let (np, no) = child(p, o, m);
        if let Some(e) = tt.probe_slot(end_slot(tt, np, no, empties - 1), np, no) {
            let s = -i32::from(e.upper);
            if s >= beta {
                return Some((s, m.sq));
            }
        }
    }
    None
}

/// The fewest empties at which [`order_end`] orders by shallow searches: with trained weights
/// or without.
#[inline(always)]
fn ordering_search_min(sr: &Search<'_>) -> u32 {
    if sr.weights.is_some() {
        PATTERN_ORDER_SEARCH_MIN
    } else {
        ORDER_SEARCH_MIN
    }
}

/// The endgame table's bucket for a position of `empties` empty squares: the nodes of up to
/// `END_NEAR_MAX` empties share a region that stays in the cache (FFO #40-#49: 0.5 % more
/// nodes, fewer memory stalls).
#[inline(always)]
pub(crate) fn end_slot(tt: &TransTable, p: u64, o: u64, empties: u32) -> Slot {
    tt.slot(p, o, empties <= END_NEAR_MAX)
}

/// Exact score of a position by any number of empties (dispatches to the right routine).
#[inline(always)]
fn exact<G: SearchGen>(g: G, sr: &mut Search<'_>, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
    g.run(
        #[inline(always)]
        move |g| exact_body::<G>(g, sr, p, o, alpha, beta),
    )
}

#[inline(always)]
fn exact_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
) -> i32 {
    let empties = (!(p | o)).count_ones();
    end(g, sr, p, o, alpha, beta, empties)
}

/// Orders root moves for the endgame by an ordering search ([`mid`] on the trained evaluation
/// or [`order_eval`]) of moderate depth (up to 12 plies on the trained evaluation, 8 on the
/// other); with weights, the best score in discs is returned to center the first aspiration
/// window on (0 without).
#[inline(always)]
fn order_root_end<G: SearchGen>(g: G, sr: &mut Search<'_>, p: u64, o: u64) -> (Vec<u8>, i32) {
    g.run(
        #[inline(always)]
        move |g| order_root_end_body::<G>(g, sr, p, o),
    )
}

#[inline(always)]
fn order_root_end_body<G: SearchGen>(g: G, sr: &mut Search<'_>, p: u64, o: u64) -> (Vec<u8>, i32) {
    let empties = (!(p | o)).count_ones();
    let moves = legal(g, p, o);
    let mut list = move_list(g, p, o, moves);
    let depth = if sr.weights.is_some() {
        empties.saturating_sub(12).clamp(1, 12)
    } else {
        empties.saturating_sub(12).clamp(1, 8)
    };
    let mut best = -INF;
    for m in &mut list.m[..list.n] {
        let (np, no) = child(p, o, m);
        let v = -mid::<G, true>(g, sr, np, no, depth - 1, -INF, INF);
        best = best.max(v);
        m.score = v * 8 - weighted_mobility(g, np, no);
    }
    list.sort();
    // The trained evaluation's score, in discs, guesses the exact one.
    let guess = if sr.weights.is_some() {
        (best + UNITS_PER_DISC / 2)
            .div_euclid(UNITS_PER_DISC)
            .clamp(-64, 64)
    } else {
        0
    };
    (list.m[..list.n].iter().map(|m| m.sq).collect(), guess)
}

/// The score of the move to (`np`, `no`) within (`alpha`, `beta`), found by aspiration
/// windows that start around `guess` and widen by 2 on each failure: narrow windows prune far
/// more than one wide window. Fail-soft: a score at or below `alpha` (at or above `beta`)
/// is an upper (lower) bound, as for a search of the whole window.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn aspire<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    np: u64,
    no: u64,
    alpha: i32,
    beta: i32,
    guess: i32,
    empties: u32,
) -> i32 {
    g.run(
        #[inline(always)]
        move |g| aspire_body::<G>(g, sr, np, no, alpha, beta, guess, empties),
    )
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn aspire_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    np: u64,
    no: u64,
    alpha: i32,
    beta: i32,
    guess: i32,
    empties: u32,
) -> i32 {
    let mut w = 2;
    let (mut a, mut b) = ((guess - w).max(alpha), (guess + w).min(beta));
    if a >= b {
        (a, b) = (alpha, beta);
    }
    loop {
        let s = -end(g, sr, np, no, -b, -a, empties);
        if sr.aborted {
            return s;
        }
        if s <= a && a > alpha {
            // The score is at most s.
            w += 2;
            (a, b) = ((s - w).max(alpha), s + 1);
        } else if s >= b && b < beta {
            // The score is at least s.
            w += 2;
            (a, b) = (s - 1, (s + w).min(beta));
        } else {
            return s;
        }
    }
}

/// Exact solve of the root within (`alpha`, `beta`): (score, best move or `NO_MOVE` on a
/// pass or finished game).
#[inline(always)]
fn end_root<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha0: i32,
    beta: i32,
) -> (i32, u8) {
    g.run(
        #[inline(always)]
        move |g| end_root_body::<G>(g, sr, p, o, alpha0, beta),
    )
}

#[inline(always)]
fn end_root_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha0: i32,
    beta: i32,
) -> (i32, u8) {
    let empties = (!(p | o)).count_ones();
    if legal(g, p, o) == 0 {
        return (exact(g, sr, p, o, alpha0, beta), NO_MOVE);
    }
    let (order, guess) = order_root_end(g, sr, p, o);
    let mut alpha = alpha0;
    let mut best = -INF;
    let mut best_mv = order[0];
    for (i, &sq) in order.iter().enumerate() {
        let f = flips(g, p, o, u32::from(sq));
        let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
        let s = if i == 0 {
            aspire(g, sr, np, no, alpha, beta, guess, empties - 1)
        } else {
            let s = -end(g, sr, np, no, -alpha - 1, -alpha, empties - 1);
            if s > alpha && s < beta && !sr.aborted {
                aspire(g, sr, np, no, alpha, beta, s, empties - 1)
            } else {
                s
            }
        };
        if sr.aborted {
            return (0, NO_MOVE);
        }
        if s > best {
            best = s;
            best_mv = sq;
            if s > alpha {
                alpha = s;
                if s >= beta {
                    break;
                }
            }
        }
    }
    (best, best_mv)
}
/// The squares of the four edges.
const EDGES: u64 = 0xFF81_8181_8181_81FF;

/// Corners and stable edge discs of `p` (a cheap stability measure for ordering).
#[inline(always)]
fn stable_corner_edge(p: u64, o: u64) -> i32 {
    if (p | o) & CORNERS == 0 {
        return 0;
    }
    crate::bits::edge_stable_count(p, o)
}

/// From this many empties, endgame moves are also ordered by a shallow ordering search, one ply
/// at `ORDER_SEARCH_MIN` empties and one more per extra empty...
const ORDER_SEARCH_MIN: u32 = 14;
/// ... from this many with the trained evaluation (its leaves cost more)...
const PATTERN_ORDER_SEARCH_MIN: u32 = 16;
/// ... up to this many plies...
const ORDER_SEARCH_MAX: u32 = 4;
/// ... or this many with the trained evaluation (from 16 empties up to 5 plies, with the table
/// from 6 and ETC from 10: FFO #40-#49 in 684 M nodes; up to 4 plies: #49 260 M nodes instead
/// of 209 M; from 15 empties: 2 % fewer nodes, 8 % more time; see docs/strength.md).
const PATTERN_ORDER_SEARCH_MAX: u32 = 5;
/// Weights of endgame move ordering: the opponent's mobility, own stable edge discs, potential
/// mobility, parity and the ordering search's score.
const ORDER_WEIGHTS: [i32; 5] = [1 << 12, 1 << 9, 1 << 5, 1 << 6, 192];
/// The same weights when the ordering searches run on the trained evaluation (its scores in
/// 1/256 disc: one disc of the search's score weighs 6/16 of a move of the opponent's mobility).
const PATTERN_ORDER_WEIGHTS: [i32; 5] = [1 << 12, 1 << 9, 1 << 5, 1 << 6, 6];

/// Weights of [`order_eval`]: mobility, potential mobility, corners and stable edge discs.
const ORDER_EVAL: [i32; 4] = [16, 4, 20, 20];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::{flips, legal};

    /// Random positions with `empties` empty squares (the mover to move has a legal move).
    fn random_positions(n: usize, empties: u32, mut x: u64) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        while out.len() < n {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            loop {
                if (!(p | o)).count_ones() == empties {
                    if legal(p, o) != 0 {
                        out.push((p, o));
                    }
                    break;
                }
                let m = legal(p, o);
                if m == 0 {
                    if legal(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    continue;
                }
                crate::bits::tests::xorshift(&mut x);
                let mut mm = m;
                for _ in 0..(x % u64::from(m.count_ones())) {
                    mm &= mm - 1;
                }
                let sq = mm.trailing_zeros();
                let f = flips(p, o, sq);
                (p, o) = (o ^ f, p ^ f ^ (1 << sq));
            }
        }
        out
    }

    #[test]
    fn kernels_agree_on_scores_moves_and_nodes() {
        let stop = AtomicBool::new(false);
        for (p, o) in random_positions(12, 13, 0x2545_f491_4f6c_dd1d) {
            let mut results = Vec::new();
            for kernel in SearchKernel::available() {
                let (mut mid_tt, mut end_tt) = (TransTable::new(12), TransTable::new(16));
                let mut s = Search::new(&mut mid_tt, &mut end_tt, &stop, None, None);
                s.kernel = kernel;
                let r = s.end_root(p, o, -64, 64);
                let order: Vec<u8> = (0..64).filter(|&i| legal(p, o) >> i & 1 == 1).collect();
                let m = s.mid_root(p, o, 5, &order, true);
                results.push((r, m, s.nodes));
            }
            assert!(results.windows(2).all(|w| w[0] == w[1]), "{results:?}");
        }
    }

    #[test]
    fn ordering_searches_do_not_leak_into_hard_searches() {
        let stop = AtomicBool::new(false);
        for (p, o) in random_positions(6, 30, 0x9e37_79b9_7f4a_7c15) {
            let hard_only = {
                let (mut mid_tt, mut end_tt) = (TransTable::new(12), TransTable::new(12));
                let mut s = Search::new(&mut mid_tt, &mut end_tt, &stop, None, None);
                mid::<_, false>(Portable, &mut s, p, o, 5, -INF, INF)
            };
            let (mut mid_tt, mut end_tt) = (TransTable::new(12), TransTable::new(12));
            let mut s = Search::new(&mut mid_tt, &mut end_tt, &stop, None, None);
            let ordering = mid::<_, true>(Portable, &mut s, p, o, 5, -INF, INF);
            let after = mid::<_, false>(Portable, &mut s, p, o, 5, -INF, INF);
            assert_eq!(after, hard_only, "ordering score {ordering} leaked");
        }
    }
}
