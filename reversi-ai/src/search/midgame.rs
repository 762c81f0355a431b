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

/// What a midgame search ([`mid`]) evaluates with: the Hard evaluation (points)...
pub(crate) const HARD: u8 = 0;
/// ... the endgame's ordering searches (the trained evaluation when the search has weights,
/// else [`order_eval`])...
pub(crate) const ORDERING: u8 = 1;
/// ... or the trained evaluation of the Expert level, in 1/256 disc, selective (Multi-ProbCut)
/// when the search has cut parameters ([`Search::probcut`]).
pub(crate) const TRAINED: u8 = 2;
/// ... or the square table of the Normal level ([`eval::table`]), whose search is plain: every
/// node counted and checked, a pass costing a ply.
pub(crate) const TABLE: u8 = 3;

/// The evaluation at the leaves of [`mid`] of kind `K` (the trained kinds fall back to
/// [`order_eval`] without weights).
#[inline(always)]
pub(super) fn leaf<G: SearchGen, const K: u8>(g: G, sr: &Search<'_>, p: u64, o: u64) -> i32 {
    if K == HARD {
        return hard(g, p, o);
    }
    if K == TABLE {
        return eval::table(p, o);
    }
    match sr.weights {
        Some(w) => {
            let (mine, theirs) = (legal(g, p, o), legal(g, o, p));
            if K == TRAINED && mine == 0 && theirs == 0 {
                return (p.count_ones() as i32 - o.count_ones() as i32) * UNITS_PER_DISC;
            }
            w.eval_with_mobility(p, o, mine.count_ones() as i32 - theirs.count_ones() as i32)
        }
        None => order_eval(g, p, o),
    }
}

/// The score of a finished game in [`mid`]: the disc difference in the units of the trained
/// evaluation when a search runs on it, else [`Search::mid_terminal`].
#[inline(always)]
pub(super) fn mid_end<const K: u8>(sr: &Search<'_>, p: u64, o: u64) -> i32 {
    if K != HARD && K != TABLE && sr.weights.is_some() {
        (p.count_ones() as i32 - o.count_ones() as i32) * UNITS_PER_DISC
    } else {
        Search::mid_terminal(p, o)
    }
}

/// Alpha-beta (PVS), `depth` plies, on the evaluation of kind `K` ([`HARD`], [`ORDERING`],
/// [`TRAINED`]). The ordering searches keep their scores apart in the table: they file a
/// position (`p`, `o`) under the key (`p | o`, `o`), which no position has.
#[inline(always)]
pub(super) fn mid<G: SearchGen, const K: u8>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    match K {
        HARD => g.call::<MID>(sr, p, o, alpha, beta, depth, 0),
        ORDERING => g.call::<MID_ORD>(sr, p, o, alpha, beta, depth, 0),
        TABLE => g.call::<MID_TABLE>(sr, p, o, alpha, beta, depth, 0),
        _ => g.call::<MID_TRAINED>(sr, p, o, alpha, beta, depth, 0),
    }
}

/// Weights of squares for the trained search's ordering at low depth: corners first,
/// X-squares last.
const X_SQUARES: u64 = 0x4200_0000_0000_4200;

#[inline(always)]
pub(super) fn mid_body<G: SearchGen, const K: u8>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    if K == TABLE {
        if sr.spent() {
            return 0;
        }
        sr.nodes += 1;
    } else if sr.tick() {
        return 0;
    }
    if depth == 0 {
        return leaf::<G, K>(g, sr, p, o);
    }
    let moves = legal(g, p, o);
    if moves == 0 {
        if legal(g, o, p) == 0 {
            return mid_end::<K>(sr, p, o);
        }
        // A pass costs the Hard and ordering searches a ply; the trained search keeps it.
        let d = if K == TRAINED { depth } else { depth - 1 };
        return -mid::<G, K>(g, sr, o, p, d, -beta, -alpha);
    }
    // The table's search counts (and checks the budget at) every leaf as a node.
    if depth == 1 && K != TABLE {
        if K != HARD {
            if let Some(w) = sr.weights {
                return if K == TRAINED {
                    pattern_children::<G, true>(g, sr, w, p, o, moves, beta)
                } else {
                    pattern_children::<G, false>(g, sr, w, p, o, moves, beta)
                };
            }
        }
        let mut best = -INF;
        let mut mm = moves;
        while mm != 0 {
            let sq = mm.trailing_zeros();
            mm &= mm - 1;
            let f = flips(g, p, o, sq);
            sr.nodes += 1;
            let s = -leaf::<G, K>(g, sr, o ^ f, p ^ f ^ (1 << sq));
            if s > best {
                best = s;
                if s >= beta {
                    break;
                }
            }
        }
        return best;
    }
    let key = mid_key::<K>(p, o);
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
    if K == TRAINED && depth >= probcut::MIN_DEPTH {
        if let Some(cut) = probcut_test::<G>(g, sr, p, o, depth, alpha, beta) {
            return cut;
        }
        if sr.aborted {
            return 0;
        }
    }
    let mut list = move_list(g, p, o, moves);
    if depth >= 3 {
        // The children probe the table too (from 2 plies): their buckets load while the moves
        // are ordered.
        for m in &list.m[..list.n] {
            let (np, no) = child(p, o, m);
            let key = mid_key::<K>(np, no);
            sr.mid_tt.prefetch(sr.mid_tt.slot(key.0, key.1));
        }
    }
    if K == TRAINED {
        order_trained(g, sr, p, o, depth, tt_mv, &mut list);
    } else {
        // The ordering searches order by mobility at every depth: the Hard evaluation costs
        // more and orders them worse (FFO #40-#49: 13 M more nodes with it).
        list.score_best_first(|m| {
            let (np, no) = child(p, o, m);
            if m.sq == tt_mv {
                1 << 30
            } else if depth >= 4 && K == HARD {
                -hard(g, np, no) - 8 * weighted_mobility(g, np, no)
            } else {
                -weighted_mobility(g, np, no) * 16 + eval::SQUARE_TABLE[m.sq as usize]
            }
        });
    }
    let alpha0 = alpha;
    let mut best = -INF;
    let mut best_mv = NO_MOVE;
    if K == TRAINED && depth >= super::split::MID_SPLIT_MIN && sr.helpers.is_some() && list.n > 1 {
        // Young brothers wait, as in the endgame: the first move alone, then the others
        // maybe on two threads with a null window; at a PV node a move that beats alpha there
        // is searched again with the full window, and the rest against the new alpha.
        let (np, no) = child(p, o, &list.m[0]);
        best = -mid::<G, K>(g, sr, np, no, depth - 1, -beta, -alpha);
        if sr.aborted {
            return 0;
        }
        best_mv = list.m[0].sq;
        alpha = alpha.max(best);
        for i in 1..list.n {
            list.pick(i);
        }
        let younger = super::split::younger(
            sr,
            list.m[1..list.n].to_vec(),
            alpha,
            beta,
            beta > alpha0 + 1,
            (best, best_mv),
            |s, m, a| {
                let (np, no) = child(p, o, m);
                -mid::<G, K>(g, s, np, no, depth - 1, -a - 1, -a)
            },
            |s, m, alpha, beta| {
                let (np, no) = child(p, o, m);
                -mid::<G, K>(g, s, np, no, depth - 1, -beta, -alpha)
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
            |i| i == 0,
            |np, no, a, b| -mid::<G, K>(g, sr, np, no, depth - 1, a, b)
        );
    }
    sr.mid_tt
        .store(key.0, key.1, depth, alpha0, beta, best, best_mv);
    best
}

/// Orders the moves of a node of the trained search: the table's move first; from 4 plies by
/// the children's trained evaluation (from the parent's pattern indices) and the opponent's
/// mobility; below, corners first, X-squares last, then the fewest replies.
#[inline(always)]
fn order_trained<G: SearchGen>(
    g: G,
    sr: &Search<'_>,
    p: u64,
    o: u64,
    depth: u32,
    tt_mv: u8,
    list: &mut MoveList,
) {
    match (depth >= 4, sr.weights) {
        (true, Some(w)) => {
            let view = pattern::view(o, p);
            let deltas = pattern::square_deltas();
            let empties = (!(p | o)).count_ones() - 1;
            list.score_best_first(|m| {
                if m.sq == tt_mv {
                    return 1 << 30;
                }
                let (np, no) = child(p, o, m);
                let mine = legal(g, np, no);
                let mob = mine.count_ones() as i32 - legal(g, no, np).count_ones() as i32;
                -w.eval_child(&view, deltas, u32::from(m.sq), m.flips, empties, mob)
                    - 64 * mine.count_ones() as i32
            });
        }
        _ => list.score_best_first(|m| {
            if m.sq == tt_mv {
                return 1 << 30;
            }
            let (np, no) = child(p, o, m);
            let bonus = if CORNERS >> m.sq & 1 != 0 {
                4
            } else if X_SQUARES >> m.sq & 1 != 0 {
                -4
            } else {
                0
            };
            bonus - legal(g, np, no).count_ones() as i32
        }),
    }
}

/// Multi-ProbCut at a node of the trained search: when a shallow search says, with the
/// confidence of the search's cut parameters, that a full-depth search would fail high (at or
/// above `beta`) or low (at or below `alpha`), that bound; `None` when neither is likely (or
/// the search has no parameters).
#[inline(always)]
fn probcut_test<G: SearchGen>(
    g: G,
    sr: &mut Search<'_>,
    p: u64,
    o: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> Option<i32> {
    let pc = sr.probcut?;
    let empties = (!(p | o)).count_ones();
    let cut = pc.cut(empties, depth);
    let shallow = pc.shallow(depth);
    let unit = UNITS_PER_DISC as f32;
    let margin = sr.probcut_t * cut.sigma;
    // deep ~ a * shallow + b: deep >= beta is likely when shallow >= (beta + t s - b) / a.
    let bound =
        |v: i32, m: f32| -> i32 { (((v as f32 / unit + m - cut.b) / cut.a) * unit).round() as i32 };
    let limit = 64 * UNITS_PER_DISC;
    if beta < limit {
        let hi = bound(beta, margin).clamp(-limit, limit);
        if hi > -limit && mid::<G, TRAINED>(g, sr, p, o, shallow, hi - 1, hi) >= hi {
            return Some(beta);
        }
    }
    if alpha > -limit && !sr.aborted {
        let lo = bound(alpha, -margin).clamp(-limit, limit);
        if lo < limit && mid::<G, TRAINED>(g, sr, p, o, shallow, lo, lo + 1) <= lo {
            return Some(alpha);
        }
    }
    None
}

/// The table key of a position in [`mid`]: an ordering search ([`ORDERING`]) files (`p`, `o`)
/// under (`p | o`, `o`), which no position has, so that the kinds of search keep apart.
#[inline(always)]
pub(super) fn mid_key<const K: u8>(p: u64, o: u64) -> (u64, u64) {
    if K == ORDERING {
        (p | o, o)
    } else {
        (p, o)
    }
}

/// The best of the children's trained evaluations (one ply of an ordering search on the
/// weights `w`), stopping at the first at or above `beta`: the children's evaluations come
/// from the parent's pattern indices, updated by each move's squares. With `TERMINAL`, a
/// child where neither side can move scores its disc difference.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn pattern_children<G: SearchGen, const TERMINAL: bool>(
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
        let (mine, theirs) = (legal(g, np, no), legal(g, no, np));
        let s = if TERMINAL && mine == 0 && theirs == 0 {
            (np.count_ones() as i32 - no.count_ones() as i32) * -UNITS_PER_DISC
        } else {
            let mob = mine.count_ones() as i32 - theirs.count_ones() as i32;
            -w.eval_child(&view, deltas, sq, f, empties, mob)
        };
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
