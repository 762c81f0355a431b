//! Evaluations: the square table of Normal, and the richer evaluation of Hard.

use crate::bits::{legal, neighbours, CORNERS};

/// The square table of the Normal level, from black's view (the same for white: it is symmetric).
pub const SQUARE_TABLE: [i32; 64] = [
    120, -20, 20, 5, 5, 20, -20, 120, //
    -20, -40, -5, -5, -5, -5, -40, -20, //
    20, -5, 15, 3, 3, 15, -5, 20, //
    5, -5, 3, 3, 3, 3, -5, 5, //
    5, -5, 3, 3, 3, 3, -5, 5, //
    20, -5, 15, 3, 3, 15, -5, 20, //
    -20, -40, -5, -5, -5, -5, -40, -20, //
    120, -20, 20, 5, 5, 20, -20, 120, //
];

/// Squares grouped by table value, so that the table sum is a few popcounts.
const GROUPS: [(i32, u64); 8] = {
    let vals = [120, -20, 20, 5, -40, -5, 15, 3];
    let mut g = [(0i32, 0u64); 8];
    let mut k = 0;
    while k < 8 {
        let mut m = 0u64;
        let mut i = 0;
        while i < 64 {
            if SQUARE_TABLE[i] == vals[k] {
                m |= 1 << i;
            }
            i += 1;
        }
        g[k] = (vals[k], m);
        k += 1;
    }
    g
};

/// The square-table score of `p` minus that of `o`.
#[inline(always)]
pub(crate) fn table(p: u64, o: u64) -> i32 {
    let mut s = 0;
    for (v, m) in GROUPS {
        s += v * ((p & m).count_ones() as i32 - (o & m).count_ones() as i32);
    }
    s
}

/// For each corner: the corner, its X-square and its two C-squares.
const CORNER_ZONES: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, 1 << 1 | 1 << 8),
    (1 << 7, 1 << 14, 1 << 6 | 1 << 15),
    (1 << 56, 1 << 49, 1 << 57 | 1 << 48),
    (1 << 63, 1 << 54, 1 << 62 | 1 << 55),
];

/// Weights of the Hard evaluation.
pub(crate) const W_TABLE: i32 = 1;
pub(crate) const W_MOBILITY: i32 = 12;
pub(crate) const W_POTENTIAL: i32 = 4;
pub(crate) const W_CORNER: i32 = 40;

/// Evaluation bounds (midgame scores stay inside; wins and losses are outside).
pub(crate) const EVAL_MAX: i32 = 9000;

/// The Hard evaluation of the position for the mover `p`: square table (X- and C-square
/// penalties dropped once the corner is taken), mobility difference, potential mobility (the
/// opponent's discs next to empty squares minus the mover's) and corner count.
#[inline]
pub(crate) fn hard(p: u64, o: u64) -> i32 {
    hard_with_mobility(p, o, legal(p, o), legal(o, p))
}

/// [`hard`] given the legal moves of each side (`mp` of `p`, `mo` of `o`).
#[inline(always)]
pub(crate) fn hard_with_mobility(p: u64, o: u64, mp: u64, mo: u64) -> i32 {
    let mut t = table(p, o);
    let filled = p | o;
    for (c, x, cs) in CORNER_ZONES {
        if filled & c != 0 {
            // Remove the -40 / -20 penalties: add them back.
            t += 40 * ((p & x).count_ones() as i32 - (o & x).count_ones() as i32);
            t += 20 * ((p & cs).count_ones() as i32 - (o & cs).count_ones() as i32);
        }
    }
    let mob = mp.count_ones() as i32 - mo.count_ones() as i32;
    let near_empty = neighbours(!filled);
    let pot = (o & near_empty).count_ones() as i32 - (p & near_empty).count_ones() as i32;
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    (W_TABLE * t + W_MOBILITY * mob + W_POTENTIAL * pot + W_CORNER * corners)
        .clamp(-EVAL_MAX, EVAL_MAX)
}
