//! The search core: midgame alpha-beta (PVS) on the Hard evaluation, and the exact endgame
//! solver (PVS with transposition table, fastest-first/parity ordering, stability cutoff,
//! enhanced transposition cutoff and special-cased last four empties).
#![allow(clippy::needless_range_loop)]

use crate::bits::{count_last_flip, edge_stable, odd_empties, stable, CORNERS, NEIGHBOUR};
use crate::eval;
use crate::pattern::{self, Weights, UNITS_PER_DISC};
use crate::probcut::{self, ProbCut};
use crate::time::Deadline;
use crate::tt::{TransTable, NO_MOVE};
use reversi_core::movegen::{Avx2, Avx512, MoveGen, Portable, Simd128};
use std::sync::atomic::{AtomicBool, Ordering};

pub(crate) const INF: i32 = 30000;
/// Midgame scores of finished games: `WIN + disc difference`.
pub(crate) const WIN: i32 = 10000;

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
    pub mid_tt: &'a TransTable,
    pub end_tt: &'a TransTable,
    /// The move generation kernel, detected once when the search is made.
    pub kernel: SearchKernel,
    /// Trained weights for the endgame's ordering searches; without them those searches use
    /// [`order_eval`].
    pub weights: Option<&'a Weights>,
    /// Multi-ProbCut parameters of the trained search; `None` searches full width.
    pub probcut: Option<&'a ProbCut>,
    /// How many standard deviations of the prediction a cut needs (the search's selectivity).
    pub probcut_t: f32,
    /// The endgame's selectivity: [`endgame::EXACT`] for an exact search, lower levels cut by
    /// [`endgame::END_CUT_T`] standard deviations of a shallow search's prediction.
    pub end_level: u8,
    /// A known score and best move of the root (from a search at a lower level) that the
    /// endgame root tries first.
    pub root_hint: Option<(i32, u8)>,
    /// Helper threads free for the exact search's splits (`threads - 1` at the start); `None`
    /// searches on this thread alone.
    pub helpers: Option<&'a std::sync::atomic::AtomicIsize>,
    /// The split this search is a thread of: its cutoff stops this search.
    cut: Option<&'a split::SplitFlag<'a>>,
    /// The endgame table's near-end region of this thread (see [`TransTable::end_slot`]): the
    /// two threads of a split use two, each in its own core's cache.
    pub near_region: usize,
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

    /// The search on `kernel`, when this CPU (and this build) has it.
    pub(crate) fn of(kernel: reversi_core::movegen::Kernel) -> Option<SearchKernel> {
        use reversi_core::movegen::Kernel;
        match kernel {
            #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
            Kernel::Portable => Some(SearchKernel::Portable(Portable)),
            Kernel::Avx2 => Avx2::detect().map(SearchKernel::Avx2),
            Kernel::Avx512 => Avx512::detect().map(SearchKernel::Avx512),
            Kernel::Simd128 => Simd128::detect().map(SearchKernel::Simd128),
            _ => None,
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

/// Runs `$body` with `$g` bound to the search's kernel (`$sr.kernel`), compiled once per kernel:
/// the entry points' one dispatch.
macro_rules! on_kernel {
    ($sr:ident, $g:ident => $body:expr) => {
        match $sr.kernel {
            #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
            SearchKernel::Portable($g) => $body,
            SearchKernel::Avx2($g) => $body,
            SearchKernel::Avx512($g) => $body,
            SearchKernel::Simd128($g) => $body,
        }
    };
}

impl<'a> Search<'a> {
    pub fn new(
        mid_tt: &'a TransTable,
        end_tt: &'a TransTable,
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
            // The first node checks the budget: a stop already set, or no time at all, is
            // seen before any search.
            next_check: 0,
            aborted: false,
            wof: false,
            mid_tt,
            end_tt,
            kernel: SearchKernel::best(),
            weights: None,
            probcut: None,
            probcut_t: probcut::DEFAULT_T,
            end_level: endgame::EXACT,
            root_hint: None,
            helpers: None,
            cut: None,
            near_region: 0,
        }
    }

    /// Counts a node; true when the search must stop.
    #[inline(always)]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        self.spent()
    }

    /// Whether the search must stop, the nodes counted so far being spent (the Normal level
    /// checks before it counts a node, so that a budget of `n` nodes visits at most `n`).
    #[inline(always)]
    fn spent(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.check()
        } else {
            self.aborted
        }
    }

    /// The one place where a search's budget is read: the node limit (exactly: the checks
    /// fall on it), the caller's stop flag, the deadline and an enclosing split's cutoff (every
    /// 2048 nodes, and at the first).
    #[cold]
    fn check(&mut self) -> bool {
        if self.nodes >= self.node_limit
            || self.stop.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| d.passed())
            || self.cut.is_some_and(split::SplitFlag::is_cut)
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

    /// Midgame search of each root move on the Hard evaluation; returns the moves with their
    /// scores, best first (the scores of moves after the first are bounds unless `all_exact`).
    pub fn mid_root(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        order: &[u8],
        all_exact: bool,
    ) -> Option<Vec<(u8, i32)>> {
        self.root_scores::<HARD>(p, o, depth, order, all_exact, false)
    }

    /// Midgame search of each root move on the trained evaluation ([`Search::weights`] must be
    /// set), selective with [`Search::probcut`]: the moves with their scores in 1/256 disc,
    /// best first (bounds after the first unless `all_exact`). Stopped before the end, the
    /// moves searched so far come first and the rest score `-INF`; `None` when none was.
    pub fn trained_root(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        order: &[u8],
        all_exact: bool,
    ) -> Option<Vec<(u8, i32)>> {
        self.root_scores::<TRAINED>(p, o, depth, order, all_exact, !all_exact)
    }

    /// `root::mid_root` of kind `K` on this search's kernel.
    fn root_scores<const K: u8>(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        order: &[u8],
        all_exact: bool,
        partial: bool,
    ) -> Option<Vec<(u8, i32)>> {
        on_kernel!(self, g => mid_root::<_, K>(g, self, p, o, depth, order, all_exact, partial))
    }

    /// The value of `(p, o)` searched `depth` plies on the square table of the Normal level
    /// ([`eval::table`], a pass costing a ply), in the window `(alpha, beta)` (fail-soft);
    /// meaningless once the search is [`aborted`](Search::aborted).
    pub fn table_value(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        on_kernel!(self, g => g.run(move |g| mid::<_, TABLE>(g, self, p, o, depth, alpha, beta)))
    }

    #[cfg(feature = "train")]
    /// The trained search's score of the position itself, `depth` plies, full window (used to
    /// fit the cut parameters).
    pub fn trained_score(&mut self, p: u64, o: u64, depth: u32) -> i32 {
        on_kernel!(self, g => g.run(move |g| mid::<_, TRAINED>(g, self, p, o, depth, -INF, INF)))
    }

    /// Exact score of a position by any number of empties.
    pub fn exact(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        on_kernel!(self, g => exact(g, self, p, o, alpha, beta))
    }

    /// Exact solve of the root within (`alpha`, `beta`): (score, best move or `NO_MOVE` on a
    /// pass or finished game).
    pub fn end_root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, u8) {
        on_kernel!(self, g => end_root(g, self, p, o, alpha, beta))
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

// The parts of the search, by concern (they use `pvs_loop!`, defined above).
mod endgame;
mod midgame;
mod movelist;
mod root;
mod split;

pub(crate) use endgame::EXACT;
use endgame::*;
use midgame::*;
pub(crate) use midgame::{HARD, ORDERING, TRAINED};
use movelist::*;
use root::*;

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
const MID_TRAINED: u8 = 7;
const MID_TABLE: u8 = 8;

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
        MID => mid_body::<G, HARD>(g, sr, p, o, a, alpha, beta),
        MID_ORD => mid_body::<G, ORDERING>(g, sr, p, o, a, alpha, beta),
        MID_TRAINED => mid_body::<G, TRAINED>(g, sr, p, o, a, alpha, beta),
        MID_TABLE => mid_body::<G, TABLE>(g, sr, p, o, a, alpha, beta),
        END => end_body(g, sr, p, o, alpha, beta, a, b != 0),
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
                let (mid_tt, end_tt) = (TransTable::new(12), TransTable::new(16));
                let mut s = Search::new(&mid_tt, &end_tt, &stop, None, None);
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
                let (mid_tt, end_tt) = (TransTable::new(12), TransTable::new(12));
                let mut s = Search::new(&mid_tt, &end_tt, &stop, None, None);
                mid::<_, HARD>(Portable, &mut s, p, o, 5, -INF, INF)
            };
            let (mid_tt, end_tt) = (TransTable::new(12), TransTable::new(12));
            let mut s = Search::new(&mid_tt, &end_tt, &stop, None, None);
            let ordering = mid::<_, ORDERING>(Portable, &mut s, p, o, 5, -INF, INF);
            let after = mid::<_, HARD>(Portable, &mut s, p, o, 5, -INF, INF);
            assert_eq!(after, hard_only, "ordering score {ordering} leaked");
        }
    }

    #[cfg(feature = "embedded-weights")]
    #[test]
    fn probcut_prunes_and_a_wide_margin_changes_nothing() {
        use crate::probcut::{Cut, ProbCut};
        let w = Weights::embedded().unwrap();
        let stop = AtomicBool::new(false);
        let never = ProbCut::uniform(Cut {
            a: 1.0,
            b: 0.0,
            sigma: 1000.0,
        });
        let tight = ProbCut::uniform(Cut {
            a: 1.0,
            b: 0.0,
            sigma: 2.0,
        });
        let (mut full_nodes, mut cut_nodes) = (0, 0);
        for (p, o) in random_positions(8, 36, 0x1234_5678_9abc_def1) {
            let order: Vec<u8> = (0..64).filter(|&i| legal(p, o) >> i & 1 == 1).collect();
            let run = |pc: Option<&ProbCut>| {
                let (mid_tt, end_tt) = (TransTable::new(16), TransTable::new(4));
                let mut s = Search::new(&mid_tt, &end_tt, &stop, None, None);
                s.weights = Some(w);
                s.probcut = pc;
                let r = s.trained_root(p, o, 7, &order, true).unwrap();
                (r, s.nodes)
            };
            let (full, n_full) = run(None);
            let (wide, n_wide) = run(Some(&never));
            let (tight_r, n_tight) = run(Some(&tight));
            assert_eq!(full, wide, "a cut that never happens changes the scores");
            assert!(n_wide >= n_full);
            assert_eq!(tight_r.len(), full.len());
            full_nodes += n_full;
            cut_nodes += n_tight;
        }
        assert!(
            cut_nodes * 2 < full_nodes,
            "{cut_nodes} nodes with cuts, {full_nodes} without"
        );
    }

    #[cfg(feature = "embedded-weights")]
    #[test]
    fn selective_endgame_bounds_never_reach_an_exact_search() {
        let w = Weights::embedded().unwrap();
        let stop = AtomicBool::new(false);
        let mut wrong = 0;
        for (p, o) in random_positions(40, 15, 0x5851_f42d_4c95_7f2d) {
            let exact = {
                let (mid_tt, end_tt) = (TransTable::new(14), TransTable::new(16));
                let mut s = Search::new(&mid_tt, &end_tt, &stop, None, None);
                s.weights = Some(w);
                s.end_root(p, o, -64, 64).0
            };
            // The least selective level, then an exact search on the same tables.
            let (mid_tt, end_tt) = (TransTable::new(14), TransTable::new(16));
            let mut s = Search::new(&mid_tt, &end_tt, &stop, None, None);
            s.weights = Some(w);
            s.end_level = 0;
            let (selective, mv) = s.end_root(p, o, -64, 64);
            assert!(legal(p, o) >> mv & 1 == 1);
            wrong += usize::from(selective != exact);
            s.end_level = EXACT;
            s.root_hint = Some((selective, mv));
            assert_eq!(s.end_root(p, o, -64, 64).0, exact, "selective {selective}");
        }
        // The selective search did cut somewhere: its bounds, had they been taken, would have
        // changed exact scores.
        assert!(
            wrong >= 3,
            "{wrong} selective scores differ from the exact ones"
        );
    }
}
