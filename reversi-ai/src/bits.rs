//! Bit tricks on raw mover-relative boards: flips, neighbours, last-move flip counts, stability.

use reversi_core::movegen;

/// The four corners.
pub(crate) const CORNERS: u64 = 0x8100_0000_0000_0081;
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// All squares but columns a and h.
const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// Legal moves of `p` against `o` (portable: for the code outside the search, which runs on
/// the kernel chosen at its entry).
#[inline(always)]
pub(crate) fn legal(p: u64, o: u64) -> u64 {
    movegen::legal_moves(p, o)
}

/// Discs flipped by `p` playing `sq` (portable, as [`legal`]).
#[inline(always)]
pub(crate) fn flips(p: u64, o: u64, sq: u32) -> u64 {
    movegen::flips(p, o, sq as u8)
}

/// The squares next to any square of `b` (not including `b` itself unless adjacent).
#[inline(always)]
pub(crate) fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let hb = h | b;
    h | (hb << 8) | (hb >> 8)
}

/// The neighbours of each square.
pub(crate) static NEIGHBOUR: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let b = 1u64 << i;
        let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
        let hb = h | b;
        t[i] = h | (hb << 8) | (hb >> 8);
        i += 1;
    }
    t
};

/// Number of discs flipped along an 8-square line by a move at `pos`, when the mover owns the
/// squares of `line` and the opponent all the others.
static COUNT_FLIP: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            // to the left (lower columns)
            let mut k = pos as i32 - 1;
            let mut c = 0;
            while k >= 0 && line >> k & 1 == 0 {
                c += 1;
                k -= 1;
            }
            if k >= 0 {
                n += c;
            }
            let mut k = pos + 1;
            let mut c = 0;
            while k < 8 && line >> k & 1 == 0 {
                c += 1;
                k += 1;
            }
            if k < 8 {
                n += c;
            }
            t[pos][line] = n as u8;
            line += 1;
        }
        pos += 1;
    }
    t
};

/// Diagonal masks through each square: (a1–h8 direction, h1–a8 direction).
static DIAGS: [(u64, u64); 64] = {
    let mut t = [(0u64, 0u64); 64];
    let mut sq = 0;
    while sq < 64 {
        let r = (sq / 8) as i32;
        let c = (sq % 8) as i32;
        let mut d9 = 0u64;
        let mut d7 = 0u64;
        let mut rr = 0;
        while rr < 8 {
            let c9 = c + (rr - r);
            if c9 >= 0 && c9 < 8 {
                d9 |= 1u64 << (rr * 8 + c9);
            }
            let c7 = c - (rr - r);
            if c7 >= 0 && c7 < 8 {
                d7 |= 1u64 << (rr * 8 + c7);
            }
            rr += 1;
        }
        t[sq] = (d9, d7);
        sq += 1;
    }
    t
};

/// Discs flipped by the last move on the empty square `sq` of an otherwise full board where the
/// mover owns `p`.
#[inline(always)]
pub(crate) fn count_last_flip(sq: u32, p: u64) -> i32 {
    let r = (sq >> 3) as usize;
    let c = (sq & 7) as usize;
    let (d9, d7) = DIAGS[sq as usize];
    let row = (p >> (r * 8)) as u8 as usize;
    let col = (((p >> c) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let a = ((p & d9).wrapping_mul(FILE_A) >> 56) as usize;
    let b = ((p & d7).wrapping_mul(FILE_A) >> 56) as usize;
    (COUNT_FLIP[c][row] as i32)
        + (COUNT_FLIP[r][col] as i32)
        + (COUNT_FLIP[c][a] as i32)
        + (COUNT_FLIP[c][b] as i32)
}

/// The empty squares that lie in quadrants with an odd number of empty squares.
#[inline(always)]
pub(crate) fn odd_empties(empty: u64) -> u64 {
    // Without branches: each nibble's parity folds into its lowest bit, then the four rows of
    // each half into the half's first row; the quadrants' parities (bits 0, 4, 32 and 36) then
    // spread to their nibbles and rows.
    let mut x = empty;
    x ^= x >> 2;
    x ^= x >> 1;
    x &= 0x1111_1111_1111_1111;
    x ^= x >> 16;
    x ^= x >> 8;
    let bits = x & 0x0000_0011_0000_0011;
    (bits * 0xF).wrapping_mul(0x0101_0101) & empty
}

const fn line_flips8(p: u32, o: u32, x: u32) -> u32 {
    let mut f = 0;
    // left
    let mut k = x as i32 - 1;
    let mut acc = 0;
    while k >= 0 && o >> k & 1 == 1 {
        acc |= 1 << k;
        k -= 1;
    }
    if k >= 0 && p >> k & 1 == 1 {
        f |= acc;
    }
    let mut k = x + 1;
    let mut acc = 0;
    while k < 8 && o >> k & 1 == 1 {
        acc |= 1 << k;
        k += 1;
    }
    if k < 8 && p >> k & 1 == 1 {
        f |= acc;
    }
    f
}

/// The base-3 value of a 10-bit binary number (each bit a digit 0/1, bit `i` worth `3^i`): a
/// line of disjoint bits (`p`, `o`) has the index `TERNARY[p] + 2 * TERNARY[o]` among its
/// `3^n` states, a dense index for small tables (the edge tables here, the pattern weights).
pub(crate) static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut p = 1u32;
        let mut i = 0;
        while i < 10 {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

#[inline(always)]
const fn line_index(p: usize, o: usize) -> usize {
    TERNARY[p & 0xFF] as usize + 2 * TERNARY[o & 0xFF] as usize
}

/// Edge stability: for a mover/opponent pair on one 8-square edge, by [`line_index`], the mover
/// discs that no sequence of moves can flip; built when the crate compiles (6.4 KiB, where a table
/// indexed by `p * 256 + o` took 64 KiB, mostly unused, and missed the first-level cache).
static EDGE_STABLE: [u8; 6561] = edge_tables();

/// Builds [`EDGE_STABLE`] on a table indexed by `p * 256 + o`, from full lines to empty ones: a
/// line's stability is that of all the lines a move on it can lead to.
const fn edge_tables() -> [u8; 6561] {
    let mut t = [0u8; 65536];
    let mut out = [0u8; 6561];
    let mut filled = 9;
    while filled > 0 {
        filled -= 1;
        // Every line with `filled` discs: the occupied squares, then each split of them.
        let mut occ = 0u32;
        while occ < 256 {
            if occ.count_ones() == filled {
                let mut p = occ;
                loop {
                    let o = occ & !p;
                    let mut s = p;
                    let e = !occ & 0xFF;
                    let mut x = 0;
                    while x < 8 {
                        if e >> x & 1 == 1 {
                            let f = line_flips8(p, o, x);
                            s &= t[((p | f | 1 << x) * 256 + (o & !f)) as usize] as u32;
                            let f = line_flips8(o, p, x);
                            s &= t[((p & !f) * 256 + (o | f | 1 << x)) as usize] as u32;
                        }
                        x += 1;
                    }
                    t[(p * 256 + o) as usize] = s as u8;
                    out[line_index(p as usize, o as usize)] = s as u8;
                    if p == 0 {
                        break;
                    }
                    p = (p - 1) & occ;
                }
            }
            occ += 1;
        }
    }
    out
}

#[inline(always)]
fn col_a_byte(b: u64) -> usize {
    ((b & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// Bit `r` of the index spread to bit `8r`: a byte to column a.
static BYTE_TO_COL_A: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut r = 0;
        while r < 8 {
            if x >> r & 1 == 1 {
                t[x] |= 1 << (8 * r);
            }
            r += 1;
        }
        x += 1;
    }
    t
};

#[inline(always)]
fn byte_to_col_a(x: usize) -> u64 {
    BYTE_TO_COL_A[x & 0xFF]
}

/// Stable discs of `p` on the four edges.
#[inline]
pub(crate) fn edge_stable(p: u64, o: u64) -> u64 {
    let t = &EDGE_STABLE;
    let top = t[line_index(p as usize, o as usize)] as u64;
    let bottom = t[line_index((p >> 56) as usize, (o >> 56) as usize)] as u64;
    let left = t[line_index(col_a_byte(p), col_a_byte(o))] as usize;
    let right = t[line_index(col_a_byte(p >> 7), col_a_byte(o >> 7))] as usize;
    top | bottom << 56 | byte_to_col_a(left) | byte_to_col_a(right) << 7
}

/// The number of stable discs of `p` on the four edges: `edge_stable(p, o).count_ones()`.
#[inline(always)]
pub(crate) fn edge_stable_count(p: u64, o: u64) -> i32 {
    let t = &EDGE_STABLE;
    let top = u32::from(t[line_index(p as usize, o as usize)]);
    let bottom = u32::from(t[line_index((p >> 56) as usize, (o >> 56) as usize)]);
    // The columns without their ends: the corners are counted with the rows.
    let left = u32::from(t[line_index(col_a_byte(p), col_a_byte(o))] & 0x7E);
    let right = u32::from(t[line_index(col_a_byte(p >> 7), col_a_byte(o >> 7))] & 0x7E);
    (top | bottom << 8 | left << 16 | right << 24).count_ones() as i32
}

#[cfg(test)]
static DIAG_LINES: ([u64; 15], [u64; 15]) = {
    let mut d9 = [0u64; 15];
    let mut d7 = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let r = sq / 8;
        let c = sq % 8;
        d9[7 + c - r] |= 1u64 << sq;
        d7[r + c] |= 1u64 << sq;
        sq += 1;
    }
    (d9, d7)
};

/// Squares whose line is completely filled, in each of the four directions.
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    let mut t = filled;
    t &= t >> 1;
    t &= t >> 2;
    t &= t >> 4;
    let h = (t & FILE_A).wrapping_mul(0xFF);
    let mut v = filled;
    v &= v >> 32;
    v &= v >> 16;
    v &= v >> 8;
    let v = (v & 0xFF).wrapping_mul(FILE_A);
    // A square's diagonal is full when the fill of filled squares along it reaches both edges:
    // `e9`/`e7` mark the squares whose next square along the direction is off the board.
    const E9: u64 = 0xFF80_8080_8080_8080; // top row or column h (towards +9)
    const W9: u64 = 0x0101_0101_0101_01FF; // bottom row or column a (towards -9)
    const E7: u64 = 0xFF01_0101_0101_0101; // top row or column a (towards +7)
    const W7: u64 = 0x8080_8080_8080_80FF; // bottom row or column h (towards -7)
    let mut u9 = filled;
    let mut u7 = filled;
    let mut g9 = filled;
    let mut g7 = filled;
    for _ in 0..7 {
        u9 &= (u9 >> 9) | E9;
        g9 &= (g9 << 9) | W9;
        u7 &= (u7 >> 7) | E7;
        g7 &= (g7 << 7) | W7;
    }
    let d9 = u9 & g9;
    let d7 = u7 & g7;
    [h, v, d9, d7]
}

/// A lower bound of the discs of `p` that can never be flipped.
pub(crate) fn stable(p: u64, o: u64) -> u64 {
    let filled = p | o;
    let [h, v, d9, d7] = full_lines(filled);
    let central = p & 0x007E_7E7E_7E7E_7E00;
    let mut st = edge_stable(p, o) | (central & h & v & d9 & d7);
    if st == 0 {
        return 0;
    }
    loop {
        let old = st;
        let sh = (st >> 1) | (st << 1) | h;
        let sv = (st >> 8) | (st << 8) | v;
        let s9 = (st >> 9) | (st << 9) | d9;
        let s7 = (st >> 7) | (st << 7) | d7;
        st |= sh & sv & s9 & s7 & central;
        if st == old {
            return st;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The next value of a xorshift sequence (test data, the same on every run).
    pub(crate) fn xorshift(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    #[test]
    fn full_diagonals_match_the_lines() {
        let mut x = 0x0bad_cafe_dead_beefu64;
        for _ in 0..20000 {
            xorshift(&mut x);
            let filled = x | x.rotate_left(17) | x.rotate_left(31);
            let [_, _, d9, d7] = full_lines(filled);
            let (mut r9, mut r7) = (0, 0);
            for i in 0..15 {
                let m = DIAG_LINES.0[i];
                if filled & m == m {
                    r9 |= m;
                }
                let m = DIAG_LINES.1[i];
                if filled & m == m {
                    r7 |= m;
                }
            }
            assert_eq!((d9, d7), (r9, r7), "{filled:#x}");
        }
    }

    #[test]
    fn edge_stability_counts_and_known_lines() {
        // The count tables agree with the discs of the mask table.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20000 {
            xorshift(&mut x);
            let filled = x | x.rotate_left(11);
            let p = filled & x.rotate_left(29);
            let o = filled & !p;
            assert_eq!(
                edge_stable_count(p, o),
                edge_stable(p, o).count_ones() as i32
            );
        }
        // A full row of one colour is stable; so are corners and discs held by them.
        assert_eq!(edge_stable(0xFF, 0), 0xFF);
        assert_eq!(edge_stable(0x01, 0), 0x01);
        assert_eq!(edge_stable(0x07, 0x08), 0x07);
        // A disc off the corner on an open edge is not; nor is a corner's neighbour held by
        // the opponent's corner.
        assert_eq!(edge_stable(0x08, 0), 0);
        assert_eq!(edge_stable(0x02, 0x01), 0);
        // Columns a and h read the same way as the rows (top-left corner and its column).
        assert_eq!(edge_stable(0x0101_0101_0101_0101, 0), 0x0101_0101_0101_0101);
        assert_eq!(edge_stable_count(0x0101_0101_0101_0101 | 0xFF, 0), 15);
    }

    #[test]
    fn odd_empties_are_the_empties_of_odd_quadrants() {
        const QUADRANTS: [u64; 4] = [
            0x0000_0000_0F0F_0F0F,
            0x0000_0000_F0F0_F0F0,
            0x0F0F_0F0F_0000_0000,
            0xF0F0_F0F0_0000_0000,
        ];
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        for i in 0..20_000 {
            xorshift(&mut x);
            // Sparse and dense sets of empty squares both.
            let empty = if i % 2 == 0 {
                x
            } else {
                x & (x >> 7) & (x >> 13)
            };
            let mut want = 0;
            for q in QUADRANTS {
                if (empty & q).count_ones() % 2 == 1 {
                    want |= empty & q;
                }
            }
            assert_eq!(odd_empties(empty), want, "{empty:#x}");
        }
        assert_eq!(odd_empties(1 << 63), 1 << 63);
        assert_eq!(odd_empties(0b11), 0);
    }

    #[test]
    fn last_flip_matches_flips() {
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..20000 {
            xorshift(&mut x);
            let sq = (x >> 58) as u32;
            let p = x & !(1 << sq);
            let o = !p & !(1 << sq);
            assert_eq!(count_last_flip(sq, p), flips(p, o, sq).count_ones() as i32);
        }
    }

    #[test]
    fn stable_discs_are_never_flipped_in_random_play() {
        // Play random games; discs found stable must never be flipped later.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..300 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut history: Vec<(u64, u64)> = Vec::new(); // (stable of p-side, of o-side)  by colour
            let mut black_to_move = true;
            loop {
                let (b, w) = if black_to_move { (p, o) } else { (o, p) };
                history.push((stable(b, w), stable(w, b)));
                for &(sb, sw) in &history {
                    assert_eq!(sb & b, sb, "a stable black disc was flipped");
                    assert_eq!(sw & w, sw, "a stable white disc was flipped");
                }
                let m = legal(p, o);
                if m == 0 {
                    if legal(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    black_to_move = !black_to_move;
                    continue;
                }
                xorshift(&mut x);
                let k = (x % u64::from(m.count_ones())) as usize;
                let mut mm = m;
                for _ in 0..k {
                    mm &= mm - 1;
                }
                let sq = mm.trailing_zeros();
                let f = flips(p, o, sq);
                let np = o ^ f;
                let no = p ^ f ^ (1 << sq);
                p = np;
                o = no;
                black_to_move = !black_to_move;
            }
        }
    }
}
