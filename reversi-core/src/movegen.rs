//! Move generation and flips on raw `u64` boards (mover `p`, opponent `o`).
//!
//! These are the hot paths of perft and search. They take the mover-relative pair of bitboards
//! and never allocate.

/// Opponent discs that can be inside a horizontal line: columns a and h can never be flipped
/// horizontally, and masking them stops shifts from wrapping into the next row.
const INNER_COLS: u64 = 0x7E7E_7E7E_7E7E_7E7E;
/// Opponent discs that can be inside a vertical line.
const INNER_ROWS: u64 = 0x00FF_FFFF_FFFF_FF00;
/// Opponent discs that can be inside a diagonal line.
const INNER: u64 = 0x007E_7E7E_7E7E_7E00;

/// Moves along one direction pair (`+d` and `-d`), by doubling fills: runs of up to six
/// opponent discs starting next to a mover disc, then the square beyond them.
#[inline(always)]
fn moves_dir(p: u64, mo: u64, d: u32) -> u64 {
    let mut l = mo & (p << d);
    l |= mo & (l << d);
    let pre_l = mo & (mo << d);
    l |= pre_l & (l << (2 * d));
    l |= pre_l & (l << (2 * d));

    let mut r = mo & (p >> d);
    r |= mo & (r >> d);
    let pre_r = mo & (mo >> d);
    r |= pre_r & (r >> (2 * d));
    r |= pre_r & (r >> (2 * d));

    (l << d) | (r >> d)
}

/// The squares where the mover `p` may play against the opponent `o`.
///
/// # Examples
///
/// ```
/// use reversi_core::movegen::legal_moves;
/// use reversi_core::Position;
/// let start = Position::initial();
/// assert_eq!(legal_moves(start.player().0, start.opponent().0).count_ones(), 4);
/// ```
#[inline]
#[must_use]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    let m = moves_dir(p, o & INNER_COLS, 1)
        | moves_dir(p, o & INNER_ROWS, 8)
        | moves_dir(p, o & INNER, 7)
        | moves_dir(p, o & INNER, 9);
    m & !(p | o)
}

/// The discs that the mover `p` flips by playing on square `sq` (0–63) against `o`; 0 when the
/// move flips nothing. The square is assumed empty.
///
/// # Examples
///
/// ```
/// use reversi_core::movegen::flips;
/// use reversi_core::{Position, Square};
/// let start = Position::initial();
/// let f = flips(start.player().0, start.opponent().0, Square::D3.index());
/// assert_eq!(f, Square::D4.bitboard().0);
/// ```
#[inline]
#[must_use]
pub fn flips(p: u64, o: u64, sq: u8) -> u64 {
    let x = 1u64 << (sq & 63);
    let oh = o & INNER_COLS;
    let ov = o & INNER_ROWS;
    let od = o & INNER;
    line_left(p, oh, x, 1)
        | line_right(p, oh, x, 1)
        | line_left(p, ov, x, 8)
        | line_right(p, ov, x, 8)
        | line_left(p, od, x, 7)
        | line_right(p, od, x, 7)
        | line_left(p, od, x, 9)
        | line_right(p, od, x, 9)
}

#[inline(always)]
fn line_left(p: u64, mo: u64, x: u64, d: u32) -> u64 {
    let mut f = mo & (x << d);
    f |= mo & (f << d);
    f |= mo & (f << d);
    f |= mo & (f << d);
    f |= mo & (f << d);
    f |= mo & (f << d);
    if (f << d) & p != 0 {
        f
    } else {
        0
    }
}

#[inline(always)]
fn line_right(p: u64, mo: u64, x: u64, d: u32) -> u64 {
    let mut f = mo & (x >> d);
    f |= mo & (f >> d);
    f |= mo & (f >> d);
    f |= mo & (f >> d);
    f |= mo & (f >> d);
    f |= mo & (f >> d);
    if (f >> d) & p != 0 {
        f
    } else {
        0
    }
}
