//! The exact endgame: PVS with a transposition table from 6 empties, fastest-first and parity
//! ordering, stability and enhanced transposition cutoffs, the last four empties special-cased.

use super::*;

/// Below this many empties the endgame uses the parity-ordered shallow search.
pub(super) const END_MIN: u32 = 6;
/// Below this many empties the endgame orders its moves by [`order_end_cheap`] (at 6 empties:
/// FFO #40-#49 in 0.7 % more nodes and about 5 % less time).
pub(super) const END_FULL_ORDER_MIN: u32 = 7;
/// Below this many empties the endgame uses no transposition table (from 6 instead of 7:
/// 7 % fewer nodes on FFO #42-#45, the same time).
pub(super) const END_TT_MIN: u32 = 6;
/// From this many empties the endgame tries enhanced transposition cutoffs (from 10 instead
/// of 12: 2 % fewer nodes).
pub(super) const END_ETC_MIN: u32 = 10;

/// The endgame's exact level of selectivity (table entries of a lower level give their move,
/// not their bounds, to an exact search).
pub(crate) const EXACT: u8 = 3;
/// The margin of a selective endgame cut, in standard deviations of the prediction
/// ([`crate::probcut::ProbCut::end`]), by level.
pub(super) const END_CUT_T: [f32; 3] = [1.6, 2.4, 3.2];

/// How many moves a node expected to cut off searches alone before it splits (on two
/// threads, FFO #40-#49 in 816-831 M nodes against 838-849 M with one, the cores as busy).
pub(super) const CUT_ELDERS: usize = 3;

/// Corners and the A/B-squares of the edges: tried first at low empties.
pub(super) const GOOD: u64 = 0x8100_0000_0000_0081 | 0x3C00_8181_8181_003C;
/// X-squares and C-squares: tried last at low empties.
pub(super) const BAD: u64 = 0x42C3_0000_0000_C342;

/// Minimum alpha for a stability cutoff test, by empties.
pub(super) const STAB_THRESHOLD: [i32; 65] = {
    let mut t = [99i32; 65];
    let mut e = 5;
    while e < 65 {
        let v = 2 * e as i32 - 2;
        t[e] = if v > 64 { 64 } else { v };
        e += 1;
    }
    t
};

/// Exact score of the position with one empty square `x`, the mover owning `p`.
#[inline(always)]
pub(super) fn solve1(sr: &mut Search<'_>, p: u64, x: u32) -> i32 {
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
pub(super) fn solve2<G: SearchGen>(
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
pub(super) fn solve2_body<G: SearchGen>(
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
pub(super) fn solve3<G: SearchGen>(
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
pub(super) fn solve3_body<G: SearchGen>(
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
pub(super) fn solve4<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
) -> i32 {
    g.call::<SOLVE4>(sr, p, o, alpha, beta, 0, 0)
}

#[inline(always)]
pub(super) fn solve4_body<G: SearchGen>(
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
pub(super) fn shallow<G: SearchGen>(
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
pub(super) fn shallow_body<G: SearchGen>(
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
pub(super) fn order_end<G: SearchGen>(
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
pub(super) fn order_end_body<G: SearchGen>(
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
            let v = -mid::<G, ORDERING>(g, sr, np, no, sort_depth - 1, -INF, INF);
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
pub(super) fn order_end_cheap<G: SearchGen>(g: G, p: u64, o: u64, list: &mut MoveList) {
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
/// 6, ETC from 10. `cut` says whether the node is expected to cut off (from the kinds of the
/// nodes above it); only the splits on several threads use it.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn end<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    empties: u32,
    cut: bool,
) -> i32 {
    g.call::<END>(sr, p, o, alpha, beta, empties, u32::from(cut))
}

/// [`end`] for a child of `end_body`: below `END_MIN` empties straight to [`shallow`], without
/// passing through `end`'s entry.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn end_child<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    empties: u32,
    cut: bool,
) -> i32 {
    if empties < END_MIN {
        shallow(g, sr, p, o, alpha, beta, empties)
    } else {
        end(g, sr, p, o, alpha, beta, empties, cut)
    }
}

/// Whether a child searched in the window (`a`, `b`) is expected to cut off: a null-window
/// child of a PV node or of a node expected to fail low (whose moves are expected to cut).
#[inline(always)]
pub(super) fn child_cut(a: i32, b: i32, pv_node: bool, cut: bool) -> bool {
    b - a == 1 && (pv_node || !cut)
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn end_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    empties: u32,
    cut: bool,
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
    let slot = sr.end_tt.end_slot(p, o, empties, sr.near_region);
    let level = if empties >= probcut::END_MIN_EMPTIES {
        sr.end_level
    } else {
        EXACT
    };
    let code = empties * 4 + u32::from(level);
    if let Some(e) = if use_tt {
        sr.end_tt.probe_slot(slot, p, o)
    } else {
        None
    } {
        tt_mv = e.mv;
        let (l, u) = if e.depth & 3 >= level {
            (i32::from(e.lower), i32::from(e.upper))
        } else {
            (-INF, INF)
        };
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
    if level < EXACT {
        if let Some(s) = end_cut_test(g, sr, p, o, alpha, beta, empties, level) {
            return s;
        }
    }
    let moves = legal(g, p, o);
    if moves == 0 {
        if legal(g, o, p) == 0 {
            return sr.terminal(p, o);
        }
        let c = child_cut(-beta, -alpha, beta > alpha + 1, cut);
        return -end(g, sr, o, p, -beta, -alpha, empties, c);
    }
    let alpha0 = alpha;
    let mut best = -INF;
    let mut best_mv = NO_MOVE;
    let pv_node = beta > alpha + 1;
    // The children's expected kind in a null window (a PV node's first child gets the full one).
    let null_child_cut = pv_node || !cut;
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
            child_cut(-beta, -alpha, pv_node, cut),
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
                        .store_slot(slot, p, o, code, alpha0, beta, best, best_mv);
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
                sr.end_tt
                    .prefetch(sr.end_tt.end_slot(np, no, empties - 1, sr.near_region));
            }
        }
        if etc_first {
            if let Some((s, mv)) =
                etc_cut(sr.end_tt, sr.near_region, &list, p, o, empties, beta, level)
            {
                sr.end_tt.store_slot(slot, p, o, code, alpha0, beta, s, mv);
                return s;
            }
        }
        if empties < END_FULL_ORDER_MIN {
            order_end_cheap(g, p, o, &mut list);
        } else {
            order_end(g, sr, p, o, &mut list, empties);
        }
        if etc && !etc_first {
            if let Some((s, mv)) =
                etc_cut(sr.end_tt, sr.near_region, &list, p, o, empties, beta, level)
            {
                sr.end_tt.store_slot(slot, p, o, code, alpha0, beta, s, mv);
                return s;
            }
        }
        if empties >= super::split::SPLIT_MIN && sr.helpers.is_some() {
            // Young brothers wait: the first move alone (the table's move counts), or the first
            // `CUT_ELDERS` at a node expected to cut off, where a later move often still cuts
            // and a split would be wasted work; the others maybe on two threads, with a null
            // window. At a PV node a move that beats alpha there is searched again with the
            // full window, then the others are tried against the new alpha. In a selective
            // search the node's own cut test has already failed, and the elders wait no more.
            let elders = if cut && !pv_node && level == EXACT {
                CUT_ELDERS
            } else {
                1
            };
            let mut from = 0;
            let mut alone = usize::from(!first);
            while alone < elders && from < list.n && alpha < beta {
                list.pick(from);
                let (np, no) = child(p, o, &list.m[from]);
                let c = child_cut(-beta, -alpha, pv_node, cut);
                let s = -end_child(g, sr, np, no, -beta, -alpha, empties - 1, c);
                if sr.aborted {
                    return 0;
                }
                if s > best {
                    (best, best_mv) = (s, list.m[from].sq);
                }
                alpha = alpha.max(s);
                from += 1;
                alone += 1;
            }
            for i in from..list.n {
                list.pick(i);
            }
            let younger = super::split::younger(
                sr,
                list.m[from..list.n].to_vec(),
                alpha,
                beta,
                pv_node,
                (best, best_mv),
                |s, m, a| {
                    let (np, no) = child(p, o, m);
                    -end_child(g, s, np, no, -a - 1, -a, empties - 1, null_child_cut)
                },
                |s, m, alpha, beta| {
                    let (np, no) = child(p, o, m);
                    let c = child_cut(-beta, -alpha, pv_node, cut);
                    -end_child(g, s, np, no, -beta, -alpha, empties - 1, c)
                },
            );
            let Some(found) = younger else {
                return 0;
            };
            (best, best_mv) = found;
        } else {
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
                |np, no, a, b| -end_child(
                    g,
                    sr,
                    np,
                    no,
                    a,
                    b,
                    empties - 1,
                    child_cut(a, b, pv_node, cut)
                )
            );
        }
    }
    if use_tt {
        sr.end_tt
            .store_slot(slot, p, o, code, alpha0, beta, best, best_mv);
    }
    best
}

/// A selective endgame cut at a node of `level` below [`EXACT`]: when a shallow trained search
/// predicts the exact score at or above `beta` (at or below `alpha`) by [`END_CUT_T`] standard
/// deviations, that bound; `None` without trained weights that have endgame cuts.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn end_cut_test<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    empties: u32,
    level: u8,
) -> Option<i32> {
    let cut = sr.weights?.probcut()?.end(empties)?;
    let depth = probcut::end_shallow_depth(empties);
    let margin = END_CUT_T[usize::from(level)] * cut.sigma;
    let unit = UNITS_PER_DISC as f32;
    let limit = 64 * UNITS_PER_DISC;
    // exact ~ a * shallow + b: at least `beta` is likely when shallow >= (beta + t s - b) / a.
    let bound =
        |v: i32, m: f32| -> i32 { (((v as f32 + m - cut.b) / cut.a) * unit).round() as i32 };
    if beta < 64 {
        let hi = bound(beta, margin);
        if hi < limit && mid::<G, TRAINED>(g, sr, p, o, depth, hi - 1, hi) >= hi {
            return Some(beta);
        }
    }
    if alpha > -64 && !sr.aborted {
        let lo = bound(alpha, -margin);
        if lo > -limit && mid::<G, TRAINED>(g, sr, p, o, depth, lo, lo + 1) <= lo {
            return Some(alpha);
        }
    }
    None
}

/// Enhanced transposition cutoff: the first child (of `empties - 1` empty squares) in `list`
/// whose table entry bounds its score at or below `-beta`, which proves at least `beta` for
/// this node: that score and its move. `region` is the searching thread's near-end region.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn etc_cut(
    tt: &TransTable,
    region: usize,
    list: &MoveList,
    p: u64,
    o: u64,
    empties: u32,
    beta: i32,
    level: u8,
) -> Option<(i32, u8)> {
    for m in &list.m[..list.n] {
        let (np, no) = child(p, o, m);
        if let Some(e) = tt.probe_slot(tt.end_slot(np, no, empties - 1, region), np, no) {
            if e.depth & 3 < level {
                continue;
            }
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
pub(super) fn ordering_search_min(sr: &Search<'_>) -> u32 {
    if sr.weights.is_some() {
        PATTERN_ORDER_SEARCH_MIN
    } else {
        ORDER_SEARCH_MIN
    }
}

/// Exact score of a position by any number of empties (dispatches to the right routine).
#[inline(always)]
pub(super) fn exact<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
) -> i32 {
    g.run(
        #[inline(always)]
        move |g| exact_body::<G>(g, sr, p, o, alpha, beta),
    )
}

#[inline(always)]
pub(super) fn exact_body<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
) -> i32 {
    let empties = (!(p | o)).count_ones();
    end(g, sr, p, o, alpha, beta, empties, false)
}

/// The squares of the four edges.
pub(super) const EDGES: u64 = 0xFF81_8181_8181_81FF;

/// Corners and stable edge discs of `p` (a cheap stability measure for ordering).
#[inline(always)]
pub(super) fn stable_corner_edge(p: u64, o: u64) -> i32 {
    if (p | o) & CORNERS == 0 {
        return 0;
    }
    crate::bits::edge_stable_count(p, o)
}

/// From this many empties, endgame moves are also ordered by a shallow ordering search, one ply
/// at `ORDER_SEARCH_MIN` empties and one more per extra empty...
pub(super) const ORDER_SEARCH_MIN: u32 = 14;
/// ... from this many with the trained evaluation (its leaves cost more)...
pub(super) const PATTERN_ORDER_SEARCH_MIN: u32 = 16;
/// ... up to this many plies...
pub(super) const ORDER_SEARCH_MAX: u32 = 4;
/// ... or this many with the trained evaluation (from 16 empties up to 5 plies, with the table
/// from 6 and ETC from 10: FFO #40-#49 in 684 M nodes; up to 4 plies: #49 260 M nodes instead
/// of 209 M; from 15 empties: 2 % fewer nodes, 8 % more time; see docs/strength.md).
pub(super) const PATTERN_ORDER_SEARCH_MAX: u32 = 5;
/// Weights of endgame move ordering: the opponent's mobility, own stable edge discs, potential
/// mobility, parity and the ordering search's score.
pub(super) const ORDER_WEIGHTS: [i32; 5] = [1 << 12, 1 << 9, 1 << 5, 1 << 6, 192];
/// The same weights when the ordering searches run on the trained evaluation (its scores in
/// 1/256 disc: one disc of the search's score weighs 6/16 of a move of the opponent's mobility).
pub(super) const PATTERN_ORDER_WEIGHTS: [i32; 5] = [1 << 12, 1 << 9, 1 << 5, 1 << 6, 6];
