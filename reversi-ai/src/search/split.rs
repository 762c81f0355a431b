//! The searches on several threads: young brothers wait. At a node of the exact search with
//! at least [`SPLIT_MIN`] empties, or of the trained midgame search with at least
//! [`MID_SPLIT_MIN`] plies to go, once its first move is searched without a cutoff, the other
//! moves are searched with null windows ([`younger`]) and shared with a helper thread, when one
//! is free: both take the next move from a common counter until none is left or one of them
//! cuts off, which stops the other. The threads share the tables; each counts its own nodes.
//!
//! A split may start a thread while fewer than `threads` are running ([`Search::helpers`] counts
//! the free ones). A helper gives its place back as soon as it finds no move left, so that the
//! thread still searching its last move can split again further down; a thread waiting for its
//! helper's last move gives its place too, so that the helper's subtree can split meanwhile.
//! The root's ordering searches, which run before any node can split, are shared the same way
//! ([`each`]).

use super::*;
use std::sync::atomic::AtomicUsize;
use std::sync::Mutex;

/// The fewest empties at which a node is split: below, a subtree is too small for a thread.
pub(super) const SPLIT_MIN: u32 = 12;

/// The fewest plies to go at which a node of the trained midgame search is split.
pub(super) const MID_SPLIT_MIN: u32 = 8;

/// One split node's cutoff flag, and the flag of the split that the node is in (a cutoff there
/// stops this one too).
pub(crate) struct SplitFlag<'a> {
    cut: AtomicBool,
    parent: Option<&'a SplitFlag<'a>>,
}

impl SplitFlag<'_> {
    /// Whether this split or one it is in has cut off.
    pub(super) fn is_cut(&self) -> bool {
        let mut f = Some(self);
        while let Some(s) = f {
            if s.cut.load(Ordering::Relaxed) {
                return true;
            }
            f = s.parent;
        }
        false
    }
}

impl<'a> Search<'a> {
    /// A search for one thread of a split at this node: same tables, limits and settings, its
    /// own counters, stopped by `cut` as well.
    fn fork<'b>(&self, cut: &'b SplitFlag<'b>) -> Search<'b>
    where
        'a: 'b,
    {
        let mut s = Search::new(
            self.mid_tt,
            self.end_tt,
            self.stop,
            Some(self.node_limit.saturating_sub(self.nodes)),
            self.deadline,
        );
        s.wof = self.wof;
        s.kernel = self.kernel;
        s.weights = self.weights;
        s.probcut = self.probcut;
        s.probcut_t = self.probcut_t;
        s.end_level = self.end_level;
        s.helpers = self.helpers;
        s.cut = Some(cut);
        s.near_region = self.near_region;
        s
    }
}

/// A free helper thread for `n` pieces of work (at least two), taken from the count of free
/// ones: `None` when there is none, when the search runs alone, or in WebAssembly (no threads
/// there: the page runs one worker).
fn take_helper<'a>(sr: &Search<'a>, n: usize) -> Option<&'a std::sync::atomic::AtomicIsize> {
    sr.helpers.filter(|h| {
        !cfg!(target_arch = "wasm32")
            && n >= 2
            && h.fetch_update(Ordering::Acquire, Ordering::Relaxed, |k| {
                (k > 0).then(|| k - 1)
            })
            .is_ok()
    })
}

/// Runs `work` on this thread and on the helper taken by [`take_helper`] (whose place goes
/// back to `helpers` when it is done), each with its own search forked from `sr` under
/// `flag`, and adds their nodes to `sr`'s. With `lend`, this thread gives its place while it
/// waits for the helper's last piece of work, so that the helper's subtree may split onto
/// another thread meanwhile (the count may go below zero for a moment). Returns whether
/// either search was stopped.
fn two_threads(
    sr: &mut Search<'_>,
    flag: &SplitFlag<'_>,
    helpers: &std::sync::atomic::AtomicIsize,
    lend: bool,
    work: impl Fn(&mut Search<'_>) + Sync,
) -> bool {
    #[cfg(test)]
    tests::SPLITS.with(|n| n.set(n.get() + 1));
    let (mut mine, mut theirs) = (sr.fork(flag), sr.fork(flag));
    // Two threads at once, two near-end regions: the helper takes the other one.
    theirs.near_region = sr.near_region ^ 1;
    let work = &work;
    let (theirs_nodes, theirs_aborted) = std::thread::scope(|scope| {
        // The helper's search moves onto its own thread's stack: beside this thread's, the
        // counters that both write at every node would share a cache line (about 15 % more
        // time a node on two cores).
        let helper = scope.spawn(move || {
            let mut theirs = theirs;
            work(&mut theirs);
            helpers.fetch_add(1, Ordering::Release);
            (theirs.nodes, theirs.aborted)
        });
        work(&mut mine);
        if lend {
            helpers.fetch_add(1, Ordering::Release);
        }
        let joined = helper.join();
        if lend {
            helpers.fetch_sub(1, Ordering::Acquire);
        }
        joined.unwrap_or_else(|e| std::panic::resume_unwind(e))
    });
    sr.nodes += mine.nodes + theirs_nodes;
    mine.aborted || theirs_aborted
}

/// The moves `moves` (best first) of a node searched against the null window just below `beta`,
/// whose first move was searched without a cutoff: on two threads when a helper is free, else
/// one after the other; the first score at or above `beta` ends it.
/// `search(s, m)` is move `m`'s score for this node's mover against that window (the child
/// searched on `s`), whether in the endgame or the midgame. Returns the best score and move
/// (`-INF` when the search was stopped first).
pub(super) fn rest(
    sr: &mut Search<'_>,
    moves: &[Mv],
    beta: i32,
    search: impl Fn(&mut Search<'_>, &Mv) -> i32 + Sync,
) -> (i32, u8) {
    let Some(helpers) = take_helper(sr, moves.len()) else {
        let (mut best, mut best_mv) = (-INF, NO_MOVE);
        for m in moves {
            let s = search(sr, m);
            if sr.aborted {
                return (-INF, NO_MOVE);
            }
            if s > best {
                (best, best_mv) = (s, m.sq);
                if s >= beta {
                    break;
                }
            }
        }
        return (best, best_mv);
    };
    let flag = SplitFlag {
        cut: AtomicBool::new(false),
        parent: sr.cut,
    };
    let (next, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let found = Mutex::new((-INF, NO_MOVE));
    let work = |s: &mut Search<'_>| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= moves.len() || flag.is_cut() {
            break;
        }
        let m = &moves[i];
        let v = search(s, m);
        if s.aborted {
            break;
        }
        let mut f = found
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if v > f.0 {
            *f = (v, m.sq);
        }
        done.fetch_add(1, Ordering::Relaxed);
        if v >= beta {
            flag.cut.store(true, Ordering::Relaxed);
            break;
        }
    };
    two_threads(sr, &flag, helpers, true, work);
    if !flag.cut.load(Ordering::Relaxed) && done.into_inner() < moves.len() {
        // Stopped from outside this split (the limits, the stop flag, or an enclosing split's
        // cutoff) before every move was searched: so is this node, whose partial best must
        // not reach the table.
        sr.aborted = true;
        return (-INF, NO_MOVE);
    }
    found
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The younger brothers `moves` (best first) of a node whose elders are searched: while alpha
/// is below beta, the moves left are searched against the null window at alpha (by [`rest`],
/// on two threads when a helper is free; `null(s, m, a)` is move `m`'s score against the window
/// `(a, a + 1)`); at a PV node a move that beats it is taken out and searched again with the
/// window from its score to beta (`full(s, m, alpha, beta)`), then the others go on against the
/// new alpha. `best` is the elders' best score and move. Returns the node's best score and
/// move, or `None` when the search was stopped first.
#[allow(clippy::too_many_arguments)]
pub(super) fn younger(
    sr: &mut Search<'_>,
    mut moves: Vec<Mv>,
    mut alpha: i32,
    beta: i32,
    pv_node: bool,
    (mut best, mut best_mv): (i32, u8),
    null: impl Fn(&mut Search<'_>, &Mv, i32) -> i32 + Sync,
    full: impl Fn(&mut Search<'_>, &Mv, i32, i32) -> i32,
) -> Option<(i32, u8)> {
    while alpha < beta && !moves.is_empty() {
        let a = alpha;
        let (s, mv) = rest(sr, &moves, a + 1, |s, m| null(s, m, a));
        if sr.aborted {
            return None;
        }
        if s > best {
            (best, best_mv) = (s, mv);
        }
        if s <= alpha || !pv_node {
            break;
        }
        // Above alpha against the null window: its exact place in the window.
        let i = moves.iter().position(|m| m.sq == mv).unwrap_or(0);
        let m = moves.remove(i);
        alpha = s;
        if s < beta {
            let v = full(sr, &m, alpha, beta);
            if sr.aborted {
                return None;
            }
            if v > best {
                (best, best_mv) = (v, m.sq);
            }
            alpha = alpha.max(v);
        }
    }
    Some((best, best_mv))
}

/// `search(s, i)` for each `i` below `n`, on two threads when a helper is free (each taking
/// the next `i` from a common counter), else one after the other: the scores by `i`. For work
/// that runs before any split can, such as the root's ordering searches (about 7 % of the time
/// of FFO #40-#49, which one thread would otherwise do alone). The search is marked aborted
/// when either thread was stopped.
pub(super) fn each(
    sr: &mut Search<'_>,
    n: usize,
    search: impl Fn(&mut Search<'_>, usize) -> i32 + Sync,
) -> Vec<i32> {
    let Some(helpers) = take_helper(sr, n) else {
        return (0..n).map(|i| search(sr, i)).collect();
    };
    let flag = SplitFlag {
        cut: AtomicBool::new(false),
        parent: sr.cut,
    };
    let next = AtomicUsize::new(0);
    let scores: Vec<std::sync::atomic::AtomicI32> = (0..n)
        .map(|_| std::sync::atomic::AtomicI32::new(0))
        .collect();
    let work = |s: &mut Search<'_>| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= n || s.aborted {
            break;
        }
        scores[i].store(search(s, i), Ordering::Relaxed);
    };
    sr.aborted |= two_threads(sr, &flag, helpers, false, work);
    scores.into_iter().map(|s| s.into_inner()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicIsize;

    std::thread_local! {
        /// The splits begun on this thread (each test counts its own).
        pub(super) static SPLITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// A full-width search of the trained kind keeps its depth through a pass, so every path
    /// to a position leaves it the same plies to go and a table entry always holds the value of
    /// the depth needed: each root move's score is then the exact minimax value, on any number
    /// of threads. Two threads, splitting the midgame from [`MID_SPLIT_MIN`] plies to go, must
    /// give one thread's scores.
    #[cfg(feature = "embedded-weights")]
    #[test]
    fn the_midgame_on_two_threads_scores_as_on_one() {
        let w = Weights::embedded().expect("embedded weights");
        let stop = AtomicBool::new(false);
        let depth = MID_SPLIT_MIN + 1;
        // Positions of a game where each side plays the move whose evaluation is best for it,
        // at 60, 50, 40 and 30 empties.
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let mut positions = Vec::new();
        while (!(p | o)).count_ones() > 29 {
            let m = legal(Portable, p, o);
            if m == 0 {
                (p, o) = (o, p);
                continue;
            }
            if (!(p | o)).count_ones() % 10 == 0 {
                positions.push((p, o));
            }
            let child = |sq: u32| {
                let f = flips(Portable, p, o, sq);
                (o ^ f, p ^ f ^ (1 << sq))
            };
            let sq = (0..64)
                .filter(|&sq| m >> sq & 1 == 1)
                .min_by_key(|&sq| {
                    let (np, no) = child(sq);
                    w.eval(np, no)
                })
                .unwrap_or(0);
            (p, o) = child(sq);
        }
        assert_eq!(positions.len(), 4);
        for (p, o) in positions {
            let order: Vec<u8> = (0..64)
                .filter(|&i| legal(Portable, p, o) >> i & 1 == 1)
                .collect();
            let scores = |threads: isize| {
                let (mid, end) = (TransTable::new(16), TransTable::new(8));
                let free = AtomicIsize::new(threads - 1);
                let mut sr = Search::new(&mid, &end, &stop, None, None);
                sr.weights = Some(w);
                sr.probcut = None;
                sr.helpers = Some(&free);
                let before = SPLITS.with(std::cell::Cell::get);
                let r = sr
                    .trained_root(p, o, depth, &order, true)
                    .expect("not stopped");
                assert_eq!(free.load(Ordering::Relaxed), threads - 1);
                (r, SPLITS.with(std::cell::Cell::get) - before)
            };
            let (one, no_split) = scores(1);
            let (two, splits) = scores(2);
            assert_eq!(no_split, 0);
            assert!(splits > 0, "two threads split");
            assert_eq!(one, two, "{splits} splits");
        }
    }

    #[test]
    fn each_gives_every_score_in_its_place_on_two_threads() {
        let (mid, end) = (TransTable::new(8), TransTable::new(8));
        let stop = AtomicBool::new(false);
        let free = AtomicIsize::new(1);
        let mut sr = Search::new(&mid, &end, &stop, None, None);
        sr.helpers = Some(&free);
        // Every call's thread and the near-end region it searched in.
        let seen = Mutex::new(Vec::new());
        let threads = || {
            let seen = seen.lock().unwrap();
            let ids: std::collections::HashSet<_> = seen.iter().map(|&(id, _)| id).collect();
            ids.len()
        };
        let began = std::time::Instant::now();
        let scores = each(&mut sr, 12, |s, i| {
            seen.lock()
                .unwrap()
                .push((std::thread::current().id(), s.near_region));
            // Each thread's work waits (2 s at most) until the other thread has some too, so
            // that a helper slow to start on a loaded machine still takes part.
            while threads() < 2 && began.elapsed() < std::time::Duration::from_secs(2) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            s.nodes += 1;
            3 * i as i32 - 7
        });
        assert_eq!(scores, (0..12).map(|i| 3 * i - 7).collect::<Vec<_>>());
        assert_eq!(sr.nodes, 12, "both threads' nodes are counted");
        assert_eq!(threads(), 2, "the helper took part");
        assert_eq!(free.load(Ordering::Relaxed), 1, "the helper is free again");
        assert!(!sr.aborted);
        // This thread searches in the near-end region it had, the helper in the other one.
        let here = std::thread::current().id();
        for (id, region) in seen.into_inner().unwrap() {
            assert_eq!(region, usize::from(id != here), "{id:?} in region {region}");
        }
        assert_eq!(sr.near_region, 0);

        // Without a free helper, in order on this thread.
        let none = AtomicIsize::new(0);
        sr.helpers = Some(&none);
        let order = Mutex::new(Vec::new());
        let scores = each(&mut sr, 5, |_, i| {
            order.lock().unwrap().push((i, std::thread::current().id()));
            i as i32
        });
        assert_eq!(scores, vec![0, 1, 2, 3, 4]);
        let me = std::thread::current().id();
        assert_eq!(
            order.into_inner().unwrap(),
            (0..5).map(|i| (i, me)).collect::<Vec<_>>()
        );
    }
}
