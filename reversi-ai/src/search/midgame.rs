//! The midgame search: PVS to a depth on an evaluation (the Hard one, the ordering one of the
//! endgame, or the trained one), with its own table keys.

use super::*;

#[inline(always)]
pub(super) fn weighted_mobility<G: SearchGen>(g: G, p: u64, o: u64) -> i32 {
    let m = legal(g, p, o);
    (m.count_ones() + (m & CORNERS).count_ones()) as i32
}

/// The Hard evaluation (see [`eval::hard_with_mobility`]).
#[inline(always)]
pub(super) fn hard<G: SearchGen>(g: G, p: u64, o: u64) -> i32 {
    eval::hard_with_mobility(p, o, legal(g, p, o), legal(g, o, p))
}

/// The evaluation of the endgame's ordering searches, from the mover's view: mobility
/// (corners counted twice), potential mobility, corners and stable edge discs. Unlike the
/// Hard evaluation it has no square table: X- and C-square moves, often the best ones late
/// in the game, are not put last.
#[inline(always)]
pub(super) fn order_eval<G: SearchGen>(g: G, p: u64, o: u64) -> i32 {
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
pub(super) fn leaf<G: SearchGen, const ORD: bool>(g: G, sr: &Search<'_>, p: u64, o: u64) -> i32 {
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
pub(super) fn mid_end<const ORD: bool>(sr: &Search<'_>, p: u64, o: u64) -> i32 {
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
pub(super) fn mid<G: SearchGen, const ORD: bool>(
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
pub(super) fn mid_body<G: SearchGen, const ORD: bool>(
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
pub(super) fn mid_key<const ORD: bool>(p: u64, o: u64) -> (u64, u64) {
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
pub(super) fn pattern_children<G: SearchGen>(
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

/// Weights of [`order_eval`]: mobility, potential mobility, corners and stable edge discs.
pub(super) const ORDER_EVAL: [i32; 4] = [16, 4, 20, 20];
