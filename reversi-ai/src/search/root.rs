//! The root of a search: each root move's midgame score, and the exact solve of the root
//! (ordering searches, aspiration windows).

use super::*;

/// Midgame search of kind `K` of each root move; returns the moves with their scores, best
/// first (the scores of moves after the first are bounds unless `all_exact`). Stopped before
/// the end: `None`, or with `partial`, the moves searched so far (when there is one) ahead of
/// the others, which score `-INF`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn mid_root<G: SearchGen, const K: u8>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    depth: u32,
    order: &[u8],
    all_exact: bool,
    partial: bool,
) -> Option<Vec<(u8, i32)>> {
    g.run(
        #[inline(always)]
        move |g| mid_root_body::<G, K>(g, sr, p, o, depth, order, all_exact, partial),
    )
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn mid_root_body<G: SearchGen, const K: u8>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    depth: u32,
    order: &[u8],
    all_exact: bool,
    partial: bool,
) -> Option<Vec<(u8, i32)>> {
    let mut out = Vec::with_capacity(order.len());
    let mut alpha = -INF;
    for (i, &sq) in order.iter().enumerate() {
        let f = flips(g, p, o, u32::from(sq));
        let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
        let s = if all_exact || i == 0 {
            -mid::<G, K>(g, sr, np, no, depth - 1, -INF, INF)
        } else {
            let s = -mid::<G, K>(g, sr, np, no, depth - 1, -alpha - 1, -alpha);
            if s > alpha && !sr.aborted {
                -mid::<G, K>(g, sr, np, no, depth - 1, -INF, -alpha)
            } else {
                s
            }
        };
        if sr.aborted {
            break;
        }
        alpha = alpha.max(s);
        out.push((sq, s));
    }
    if sr.aborted && (!partial || out.is_empty()) {
        return None;
    }
    // Stable sort: among equal scores, the earlier (better ordered) move stays first.
    out.sort_by_key(|m| std::cmp::Reverse(m.1));
    if sr.aborted {
        // Only a move that beat the first one counts; the rest were not searched.
        let rest: Vec<(u8, i32)> = order
            .iter()
            .filter(|q| !out.iter().any(|m| m.0 == **q))
            .map(|&q| (q, -INF))
            .collect();
        out.extend(rest);
    }
    Some(out)
}

/// Orders root moves for the endgame by an ordering search ([`mid`] on the trained evaluation
/// or [`order_eval`]) of moderate depth (up to 12 plies on the trained evaluation, 8 on the
/// other); with weights, the best score in discs is returned to center the first aspiration
/// window on (0 without).
#[inline(always)]
pub(super) fn order_root_end<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
) -> (Vec<u8>, i32) {
    g.run(
        #[inline(always)]
        move |g| order_root_end_body::<G>(g, sr, p, o),
    )
}

#[inline(always)]
pub(super) fn order_root_end_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
) -> (Vec<u8>, i32) {
    let empties = (!(p | o)).count_ones();
    let moves = legal(g, p, o);
    let mut list = move_list(g, p, o, moves);
    let depth = if sr.weights.is_some() {
        empties.saturating_sub(12).clamp(1, 12)
    } else {
        empties.saturating_sub(12).clamp(1, 8)
    };
    let children: Vec<(u64, u64)> = list.m[..list.n].iter().map(|m| child(p, o, m)).collect();
    let scores = super::split::each(sr, list.n, |s, i| {
        let (np, no) = children[i];
        -mid::<G, ORDERING>(g, s, np, no, depth - 1, -INF, INF)
    });
    let mut best = -INF;
    for (m, (&v, &(np, no))) in list.m[..list.n]
        .iter_mut()
        .zip(scores.iter().zip(&children))
    {
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
/// windows: narrow windows prune far more than one wide window. After a selective search
/// ([`Search::root_hint`]), and in one, first `guess` ± 1, then, after a failure at `s`,
/// `s` ± 1 on the side the score lies (an even score is then proven), wider by 2 on each
/// further failure; otherwise `guess` ± 2, wider by 2 on each failure. Fail-soft: a score at
/// or below `alpha` (at or above `beta`) is an upper (lower) bound, as for a search of the
/// whole window. (Only a selective search can contradict itself, which ends the loop; an
/// exact one never does.)
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn aspire<G: SearchGen>(
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
pub(super) fn aspire_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    np: u64,
    no: u64,
    alpha: i32,
    beta: i32,
    guess: i32,
    empties: u32,
) -> i32 {
    // A guess from a selective search (`root_hint`) is most often right, and a failure's score
    // then most often the exact one: its windows are narrower, as are those of the selective
    // search itself (FFO #40-#49: 575.9 M nodes against 585.1 M).
    let hinted = sr.root_hint.is_some() || sr.end_level < EXACT;
    let mut w = if hinted { 1 } else { 2 };
    let (mut a, mut b) = ((guess - w).max(alpha), (guess + w).min(beta));
    if a >= b {
        (a, b) = (alpha, beta);
    }
    // What the searches so far proved: a selective search may contradict itself (fail low
    // after failing high around the same score), and then its last score stands.
    let (mut lo, mut hi) = (alpha, beta);
    loop {
        let s = -end(g, sr, np, no, -b, -a, empties, b - a == 1);
        if sr.aborted {
            return s;
        }
        if s <= a && a > alpha {
            // The score is at most s.
            hi = hi.min(s);
            if hi <= lo {
                return s;
            }
            if !hinted {
                w += 2;
            }
            (a, b) = ((s - w).max(alpha), s + 1);
            if hinted {
                w += 2;
            }
        } else if s >= b && b < beta {
            // The score is at least s.
            lo = lo.max(s);
            if hi <= lo {
                return s;
            }
            if !hinted {
                w += 2;
            }
            (a, b) = (s - 1, (s + w).min(beta));
            if hinted {
                w += 2;
            }
        } else {
            return s;
        }
    }
}

/// Exact solve of the root within (`alpha`, `beta`): (score, best move or `NO_MOVE` on a
/// pass or finished game).
#[inline(always)]
pub(super) fn end_root<G: SearchGen>(
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
pub(super) fn end_root_body<G: SearchGen>(
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
    let (mut order, mut guess) = order_root_end(g, sr, p, o);
    if let Some((score, mv)) = sr.root_hint {
        guess = score;
        if let Some(i) = order.iter().position(|&m| m == mv) {
            order[..=i].rotate_right(1);
        }
    }
    let mut alpha = alpha0;
    let mut best = -INF;
    let mut best_mv = order[0];
    for (i, &sq) in order.iter().enumerate() {
        let f = flips(g, p, o, u32::from(sq));
        let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
        let s = if i == 0 {
            aspire(g, sr, np, no, alpha, beta, guess, empties - 1)
        } else {
            let s = -end(g, sr, np, no, -alpha - 1, -alpha, empties - 1, true);
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
