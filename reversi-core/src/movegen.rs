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

/// The rays of each square, as `[+1, +8, +7, +9]` (towards higher bits) and `[-1, -8, -7, -9]`
/// (towards lower bits), excluding the square itself and clipped at the edges of the board.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(crate) struct Rays(pub(crate) [u64; 4]);

const fn ray(sq: usize, dc: i32, dr: i32) -> u64 {
    let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
    let mut b = 0u64;
    while c >= 0 && c < 8 && r >= 0 && r < 8 {
        b |= 1 << (r * 8 + c);
        c += dc;
        r += dr;
    }
    b
}

const fn rays(up: bool) -> [Rays; 64] {
    let mut t = [Rays([0; 4]); 64];
    let s = if up { 1 } else { -1 };
    let mut sq = 0;
    while sq < 64 {
        // +1: next column; +8: next row; +7: next row, previous column; +9: next row and column.
        t[sq] = Rays([ray(sq, s, 0), ray(sq, 0, s), ray(sq, -s, s), ray(sq, s, s)]);
        sq += 1;
    }
    t
}

/// Rays towards higher bits.
pub(crate) static RAYS_UP: [Rays; 64] = rays(true);
/// Rays towards lower bits.
pub(crate) static RAYS_DOWN: [Rays; 64] = rays(false);

/// Fast paths for x86-64 CPUs with AVX2 and BMI2, chosen at run time.
///
/// The functions of this module give exactly the results of the portable [`legal_moves`] and
/// [`flips`]; the crate's perft and the safe wrappers here use them when the CPU has the
/// features ([`available`]).
///
/// # Examples
///
/// ```
/// use reversi_core::movegen;
/// # #[cfg(target_arch = "x86_64")] {
/// if movegen::avx2::available() {
///     assert_eq!(movegen::avx2::legal_moves(0x0000_0008_1000_0000, 0x0000_0010_0800_0000),
///                movegen::legal_moves(0x0000_0008_1000_0000, 0x0000_0010_0800_0000));
/// }
/// # }
/// ```
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use core::arch::x86_64::*;

    /// Whether this CPU has the features of this module (AVX2, BMI1, BMI2, POPCNT, LZCNT).
    ///
    /// The detection runs once and is cached.
    ///
    /// # Examples
    ///
    /// ```
    /// let _fast = reversi_core::movegen::avx2::available();
    /// ```
    #[must_use]
    pub fn available() -> bool {
        std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
    }

    /// [`super::legal_moves`] on AVX2.
    ///
    /// # Panics
    ///
    /// If the CPU lacks the features ([`available`] is false).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::movegen::avx2;
    /// if avx2::available() {
    ///     assert_eq!(avx2::legal_moves(0x0000_0008_1000_0000, 0x0000_0010_0800_0000).count_ones(), 4);
    /// }
    /// ```
    #[must_use]
    pub fn legal_moves(p: u64, o: u64) -> u64 {
        assert!(available(), "the CPU lacks AVX2/BMI2");
        // SAFETY: the features were detected just above.
        unsafe { moves(p, o) }
    }

    /// [`super::flips`] on AVX2.
    ///
    /// # Panics
    ///
    /// If the CPU lacks the features ([`available`] is false).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::movegen::avx2;
    /// if avx2::available() {
    ///     assert_eq!(avx2::flips(0x0000_0008_1000_0000, 0x0000_0010_0800_0000, 19), 1 << 27);
    /// }
    /// ```
    #[must_use]
    pub fn flips(p: u64, o: u64, sq: u8) -> u64 {
        assert!(available(), "the CPU lacks AVX2/BMI2");
        // SAFETY: the features were detected just above.
        unsafe { flip(p, o, sq) }
    }

    /// Shifts of the four directions `[1, 8, 7, 9]`.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn shifts(k: i64) -> __m256i {
        _mm256_set_epi64x(9 * k, 7 * k, 8 * k, k)
    }

    /// Opponent discs that can be inside a line, per direction `[1, 8, 7, 9]`.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn inner() -> __m256i {
        _mm256_set_epi64x(
            0x007E_7E7E_7E7E_7E00,
            0x007E_7E7E_7E7E_7E00,
            0x00FF_FFFF_FFFF_FF00,
            0x7E7E_7E7E_7E7E_7E7E,
        )
    }

    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn or_lanes(v: __m256i) -> u64 {
        let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
        _mm_cvtsi128_si64(x) as u64
    }

    /// Legal moves, four directions per vector (the Kogge-Stone doubling fill of the portable
    /// version, with `+d` and `-d` in two vectors).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(crate) fn moves(p: u64, o: u64) -> u64 {
        let pp = _mm256_set1_epi64x(p as i64);
        let mo = _mm256_and_si256(_mm256_set1_epi64x(o as i64), inner());
        let s1 = shifts(1);
        let s2 = shifts(2);
        let mut l = _mm256_and_si256(mo, _mm256_sllv_epi64(pp, s1));
        let mut r = _mm256_and_si256(mo, _mm256_srlv_epi64(pp, s1));
        l = _mm256_or_si256(l, _mm256_and_si256(mo, _mm256_sllv_epi64(l, s1)));
        r = _mm256_or_si256(r, _mm256_and_si256(mo, _mm256_srlv_epi64(r, s1)));
        let pre_l = _mm256_and_si256(mo, _mm256_sllv_epi64(mo, s1));
        let pre_r = _mm256_srlv_epi64(pre_l, s1);
        l = _mm256_or_si256(l, _mm256_and_si256(pre_l, _mm256_sllv_epi64(l, s2)));
        r = _mm256_or_si256(r, _mm256_and_si256(pre_r, _mm256_srlv_epi64(r, s2)));
        l = _mm256_or_si256(l, _mm256_and_si256(pre_l, _mm256_sllv_epi64(l, s2)));
        r = _mm256_or_si256(r, _mm256_and_si256(pre_r, _mm256_srlv_epi64(r, s2)));
        let m = _mm256_or_si256(_mm256_sllv_epi64(l, s1), _mm256_srlv_epi64(r, s1));
        or_lanes(m) & !(p | o)
    }

    /// Flips, four directions per vector. Towards higher bits the outflank is the lowest
    /// non-opponent square of the ray (`t & -t`); towards lower bits the ray is cut below its
    /// highest non-opponent square by a fill.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(crate) fn flip(p: u64, o: u64, sq: u8) -> u64 {
        let sq = usize::from(sq & 63);
        let pp = _mm256_set1_epi64x(p as i64);
        let mo = _mm256_and_si256(_mm256_set1_epi64x(o as i64), inner());
        let zero = _mm256_setzero_si256();
        // SAFETY: `Rays` is 32 bytes aligned to 32, and `sq` is in bounds.
        let up = unsafe { _mm256_load_si256(super::RAYS_UP[sq].0.as_ptr().cast()) };
        let down = unsafe { _mm256_load_si256(super::RAYS_DOWN[sq].0.as_ptr().cast()) };

        // Upward: the lowest square of the ray that is not an inner opponent disc.
        let t = _mm256_andnot_si256(mo, up);
        let low = _mm256_and_si256(t, _mm256_sub_epi64(zero, t));
        let ok = _mm256_cmpeq_epi64(_mm256_and_si256(low, pp), low);
        let fu = _mm256_and_si256(
            _mm256_and_si256(ok, up),
            _mm256_add_epi64(low, _mm256_cmpeq_epi64(zero, zero)),
        );

        // Downward: everything of the ray above its highest non-opponent square.
        let s1 = shifts(1);
        let e = _mm256_andnot_si256(mo, down);
        let mut s = _mm256_or_si256(e, _mm256_srlv_epi64(e, s1));
        s = _mm256_or_si256(s, _mm256_srlv_epi64(s, shifts(2)));
        s = _mm256_or_si256(s, _mm256_srlv_epi64(s, shifts(4)));
        let run = _mm256_andnot_si256(s, down);
        let bad = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_srlv_epi64(run, s1), pp), zero);
        let fd = _mm256_andnot_si256(bad, run);

        or_lanes(_mm256_or_si256(fu, fd))
    }
}
