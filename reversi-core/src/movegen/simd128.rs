//! The WebAssembly SIMD kernel's algorithm (128-bit vectors of two 64-bit lanes), written once
//! over [`Lanes`]: [`Wasm`] runs it on `core::arch::wasm32` (`simd128`), and [`Emulated`], plain
//! `[u64; 2]`, runs the same lane logic natively so that the tests of any target check it.
//!
//! WebAssembly has no per-lane shift amounts, so the two lanes cannot hold two directions of the
//! same board. They hold the board and its vertical mirror (`swap_bytes`, one byte shuffle)
//! instead: a shift towards higher bits by 8, 7 or 9 is the direction `+8`, `+7` or `+9` in the
//! first lane and `-8`, `-9` or `-7` in the second, so three vectors cover six directions. The
//! horizontal pair (`+1`, `-1`), which the mirror leaves unchanged, is plain 64-bit code that
//! runs alongside.

use super::{moves_row, INNER, INNER_COLS, INNER_ROWS};

/// Two 64-bit lanes: the operations the kernel needs.
pub(crate) trait Lanes: Copy {
    /// `[x, x.swap_bytes()]`: the board and its vertical mirror.
    fn mirror(x: u64) -> Self;
    /// `[x, x]`.
    fn splat(x: u64) -> Self;
    /// `[a, b]`.
    fn new(a: u64, b: u64) -> Self;
    /// Lane-wise `self & !b`.
    fn and_not(self, b: Self) -> Self;
    /// Lane-wise `self & -self`: the lowest set bit.
    fn lowest(self) -> Self;
    /// Lane-wise `self - 1` (wrapping).
    fn dec(self) -> Self;
    /// Lane-wise `self + b` (wrapping).
    fn add(self, b: Self) -> Self;
    /// Lane-wise `self & b`.
    fn and(self, b: Self) -> Self;
    /// Lane-wise `self | b`.
    fn or(self, b: Self) -> Self;
    /// Lane-wise `self << D`.
    fn shl<const D: u32>(self) -> Self;
    /// Lane-wise `self >> D`.
    fn shr<const D: u32>(self) -> Self;
    /// The two lanes.
    fn lanes(self) -> (u64, u64);
    /// Lane-wise `self` where that lane of `t` is not zero, else 0.
    fn keep_if_nonzero(self, t: Self) -> Self;
    /// `lane0 | lane1.swap_bytes()`: both lanes back in the board's own orientation.
    fn fold(self) -> u64;
}

/// The moves of `p` over inner opponent discs `mo` along `+D` in each lane (a doubling fill
/// of runs of up to six discs, as [`moves_dir`] does along both directions).
#[inline(always)]
fn moves_up<V: Lanes, const D: u32, const D2: u32>(p: V, mo: V) -> V {
    let mut l = mo.and(p.shl::<D>());
    l = l.or(mo.and(l.shl::<D>()));
    let pre = mo.and(mo.shl::<D>());
    l = l.or(pre.and(l.shl::<D2>()));
    l = l.or(pre.and(l.shl::<D2>()));
    l.shl::<D>()
}

/// The discs flipped along `+D` in each lane by the move `x`: the run of inner opponent discs
/// `mo` next to it, kept when a disc of `p` closes it.
#[cfg(test)]
#[inline(always)]
fn flips_up<V: Lanes, const D: u32, const D2: u32>(p: V, mo: V, x: V) -> V {
    let mut f = mo.and(x.shl::<D>());
    f = f.or(mo.and(f.shl::<D>()));
    let pre = mo.and(mo.shl::<D>());
    f = f.or(pre.and(f.shl::<D2>()));
    f = f.or(pre.and(f.shl::<D2>()));
    f.keep_if_nonzero(f.shl::<D>().and(p))
}

/// The legal moves of `p` against `o` (as [`super::legal_moves`]).
#[inline(always)]
pub(crate) fn moves<V: Lanes>(p: u64, o: u64) -> u64 {
    let pp = V::mirror(p);
    let oo = V::mirror(o);
    // Both masks are their own vertical mirror.
    let mv = oo.and(V::splat(INNER_ROWS));
    let md = oo.and(V::splat(INNER));
    let m = moves_up::<V, 8, 16>(pp, mv)
        .or(moves_up::<V, 7, 14>(pp, md))
        .or(moves_up::<V, 9, 18>(pp, md));
    (m.fold() | moves_row(p, o & INNER_COLS)) & !(p | o)
}

/// The discs that `p` flips by playing on `sq` against `o` (as [`super::flips`]), by fills
/// (the first version; [`flips`] is faster).
#[cfg(test)]
#[inline(always)]
pub(crate) fn flips_by_fills<V: Lanes>(p: u64, o: u64, sq: u8) -> u64 {
    use super::{line_left, line_right};
    let x = 1u64 << (sq & 63);
    let (pp, oo, xx) = (V::mirror(p), V::mirror(o), V::mirror(x));
    let mv = oo.and(V::splat(INNER_ROWS));
    let md = oo.and(V::splat(INNER));
    let f = flips_up::<V, 8, 16>(pp, mv, xx)
        .or(flips_up::<V, 7, 14>(pp, md, xx))
        .or(flips_up::<V, 9, 18>(pp, md, xx));
    let oh = o & INNER_COLS;
    f.fold() | line_left(p, oh, x, 1) | line_right(p, oh, x, 1)
}

/// The diagonal rays of each square, `[+7, +9]` (towards higher bits), clipped at the edges.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut t = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let (mut b7, mut b9) = (0u64, 0u64);
        let mut k = 1;
        while r + k < 8 {
            if c - k >= 0 {
                b7 |= 1 << ((r + k) * 8 + c - k);
            }
            if c + k < 8 {
                b9 |= 1 << ((r + k) * 8 + c + k);
            }
            k += 1;
        }
        t[sq] = [b7, b9];
        sq += 1;
    }
    t
};

/// The flips along each lane's ray `ray` (towards higher bits): the ray below its first square
/// that is not an opponent disc, when that square is the mover's.
#[inline(always)]
fn flips_ray<V: Lanes>(p: V, o: V, ray: V) -> V {
    let outflank = ray.and_not(o).lowest();
    ray.and(outflank.dec()).keep_if_nonzero(outflank.and(p))
}

/// The discs that `p` flips by playing on `sq` against `o` (as [`super::flips`]): the
/// outflanking square of each ray is its first that is not an opponent disc. In the mirrored
/// lane every vertical and diagonal ray runs towards higher bits, where that square is the
/// lowest set bit (`t & -t`).
#[inline(always)]
pub(crate) fn flips<V: Lanes>(p: u64, o: u64, sq: u8) -> u64 {
    let sq = usize::from(sq & 63);
    // The same square in the mirrored board.
    let ms = sq ^ 56;
    let (pp, oo) = (V::mirror(p), V::mirror(o));
    const FILE: u64 = 0x0101_0101_0101_0100;
    let (d, md) = (&DIAGONALS[sq], &DIAGONALS[ms]);
    let f = flips_ray(pp, oo, V::new(FILE << sq, FILE << ms))
        .or(flips_ray(pp, oo, V::new(d[0], md[0])))
        .or(flips_ray(pp, oo, V::new(d[1], md[1])));
    // The row: rightwards the lowest bit again, leftwards the highest.
    let row = 0xFFu64 << (sq & 56);
    let right = (0xFEu64 << sq) & row;
    let of = right & !o;
    let of = of & of.wrapping_neg();
    let fr = if of & p != 0 { right & (of - 1) } else { 0 };
    let left = ((1u64 << sq) - 1) & row;
    let t = left & !o;
    let of = (1u64 << 63).wrapping_shr(t.leading_zeros()) & t;
    let fl = if of & p != 0 {
        left & !(of.wrapping_shl(1).wrapping_sub(1))
    } else {
        0
    };
    f.fold() | fr | fl
}

/// The moves along `+D` and `-D` of two positions, one per lane (`mo`: inner opponent discs).
#[inline(always)]
fn moves_pair<V: Lanes, const D: u32, const D2: u32>(p: V, mo: V) -> V {
    let mut r = mo.and(p.shr::<D>());
    r = r.or(mo.and(r.shr::<D>()));
    let pre_r = mo.and(mo.shr::<D>());
    r = r.or(pre_r.and(r.shr::<D2>()));
    r = r.or(pre_r.and(r.shr::<D2>()));
    let l = if D == 1 {
        // Along a row towards higher bits an addition: each run of opponent discs that follows
        // a mover's disc carries into the square after it (inner columns only, so the carry
        // stays in its row). Not every such square is empty: the caller keeps the empty ones.
        mo.add(mo.and(p.add(p))).and_not(mo)
    } else {
        // `mo & mo << D`, one shift of `pre_r` (whose low bits were `mo`'s).
        let pre = pre_r.shl::<D>();
        let mut l = mo.and(p.shl::<D>());
        l = l.or(mo.and(l.shl::<D>()));
        l = l.or(pre.and(l.shl::<D2>()));
        l = l.or(pre.and(l.shl::<D2>()));
        l.shl::<D>()
    };
    l.or(r.shr::<D>())
}

/// The legal moves of two positions, one per lane: no mirror, all eight directions by shifts
/// both ways.
#[inline(always)]
pub(crate) fn moves2<V: Lanes>(p: V, o: V) -> V {
    let od = o.and(V::splat(INNER));
    moves_pair::<V, 1, 2>(p, o.and(V::splat(INNER_COLS)))
        .or(moves_pair::<V, 8, 16>(p, o.and(V::splat(INNER_ROWS))))
        .or(moves_pair::<V, 7, 14>(p, od))
        .or(moves_pair::<V, 9, 18>(p, od))
        .and_not(p.or(o))
}

/// The child of `(p, o)` by the lowest move of `moves`, which is taken out of it.
#[inline(always)]
fn next_child<V: Lanes>(p: u64, o: u64, moves: &mut u64) -> (u64, u64) {
    let x = *moves & moves.wrapping_neg();
    *moves ^= x;
    let f = flips::<V>(p, o, x.trailing_zeros() as u8);
    (o ^ f, p ^ f ^ x)
}

/// Perft's leaves two plies below `(p, o)`, whose moves `moves` are not empty (as the
/// default `PerftGen::bulk2`), with this kernel inlined: the search calls the kernel out of line
/// to keep the module small, the last plies of perft are where the time goes.
#[inline(always)]
pub(crate) fn bulk2<V: Lanes>(
    p: u64,
    o: u64,
    mut moves: u64,
    no_move: impl Fn(u64, u64) -> u64,
) -> u64 {
    let child = |moves: &mut u64| next_child::<V>(p, o, moves);
    let count = |m: u64, cp: u64, co: u64| {
        if m != 0 {
            u64::from(m.count_ones())
        } else {
            no_move(cp, co)
        }
    };
    let mut n = 0;
    // Two children at a time, their mobility in one pair of lanes; an odd last child has an
    // empty board beside it (every child has discs).
    while moves != 0 {
        let (p0, o0) = child(&mut moves);
        let (p1, o1) = if moves != 0 {
            child(&mut moves)
        } else {
            (0, 0)
        };
        let (m0, m1) = moves2(V::new(p0, p1), V::new(o0, o1)).lanes();
        n += count(m0, p0, o0);
        if p1 | o1 != 0 {
            n += count(m1, p1, o1);
        }
    }
    n
}

/// Perft's leaves three plies below `(p, o)`, whose moves `moves` are not empty: the children
/// two at a time, their moves in one pair of lanes, then each child's last two plies by
/// [`bulk2`], all inlined. A child without a move is counted by `count2`, a grandchild without
/// one by `no_move`.
#[inline(always)]
pub(crate) fn bulk3<V: Lanes>(
    p: u64,
    o: u64,
    mut moves: u64,
    no_move: impl Fn(u64, u64) -> u64,
    count2: impl Fn(u64, u64) -> u64,
) -> u64 {
    let child = |moves: &mut u64| next_child::<V>(p, o, moves);
    let mut n = 0;
    let mut count = |cp: u64, co: u64, m: u64| {
        n += if m != 0 {
            bulk2::<V>(cp, co, m, &no_move)
        } else {
            count2(cp, co)
        };
    };
    while moves != 0 {
        let (p0, o0) = child(&mut moves);
        if moves == 0 {
            count(p0, o0, moves2(V::splat(p0), V::splat(o0)).lanes().0);
            break;
        }
        let (p1, o1) = child(&mut moves);
        let (m0, m1) = moves2(V::new(p0, p1), V::new(o0, o1)).lanes();
        count(p0, o0, m0);
        count(p1, o1, m1);
    }
    n
}

/// The lanes as two `u64`: the same logic as [`Wasm`], on any target (for the tests).
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Emulated([u64; 2]);

#[cfg(test)]
impl Lanes for Emulated {
    fn mirror(x: u64) -> Self {
        Emulated([x, x.swap_bytes()])
    }
    fn splat(x: u64) -> Self {
        Emulated([x, x])
    }
    fn new(a: u64, b: u64) -> Self {
        Emulated([a, b])
    }
    fn and_not(self, b: Self) -> Self {
        Emulated([self.0[0] & !b.0[0], self.0[1] & !b.0[1]])
    }
    fn lowest(self) -> Self {
        Emulated([
            self.0[0] & self.0[0].wrapping_neg(),
            self.0[1] & self.0[1].wrapping_neg(),
        ])
    }
    fn dec(self) -> Self {
        Emulated([self.0[0].wrapping_sub(1), self.0[1].wrapping_sub(1)])
    }
    fn add(self, b: Self) -> Self {
        Emulated([
            self.0[0].wrapping_add(b.0[0]),
            self.0[1].wrapping_add(b.0[1]),
        ])
    }
    fn and(self, b: Self) -> Self {
        Emulated([self.0[0] & b.0[0], self.0[1] & b.0[1]])
    }
    fn or(self, b: Self) -> Self {
        Emulated([self.0[0] | b.0[0], self.0[1] | b.0[1]])
    }
    fn shl<const D: u32>(self) -> Self {
        Emulated([self.0[0] << D, self.0[1] << D])
    }
    fn shr<const D: u32>(self) -> Self {
        Emulated([self.0[0] >> D, self.0[1] >> D])
    }
    fn lanes(self) -> (u64, u64) {
        (self.0[0], self.0[1])
    }
    fn keep_if_nonzero(self, t: Self) -> Self {
        let k = |v: u64, t: u64| if t != 0 { v } else { 0 };
        Emulated([k(self.0[0], t.0[0]), k(self.0[1], t.0[1])])
    }
    fn fold(self) -> u64 {
        self.0[0] | self.0[1].swap_bytes()
    }
}

/// A `v128` of `core::arch::wasm32`, built with `-C target-feature=+simd128`.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Wasm(core::arch::wasm32::v128);

/// [`moves`] on [`Wasm`], never inlined: the optimiser inlined it into every call of the
/// search, which made the module 34 KB larger. Perft's last plies inline [`moves`] itself.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(never)]
pub(crate) fn wasm_moves(p: u64, o: u64) -> u64 {
    moves::<Wasm>(p, o)
}

/// [`flips`] on [`Wasm`], never inlined (as [`wasm_moves`]).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(never)]
pub(crate) fn wasm_flips(p: u64, o: u64, sq: u8) -> u64 {
    flips::<Wasm>(p, o, sq)
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
impl Lanes for Wasm {
    #[inline(always)]
    fn mirror(x: u64) -> Self {
        use core::arch::wasm32::*;
        let v = u64x2_splat(x);
        Wasm(i8x16_shuffle::<
            0,
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            15,
            14,
            13,
            12,
            11,
            10,
            9,
            8,
        >(v, v))
    }
    #[inline(always)]
    fn splat(x: u64) -> Self {
        Wasm(core::arch::wasm32::u64x2_splat(x))
    }
    #[inline(always)]
    fn new(a: u64, b: u64) -> Self {
        Wasm(core::arch::wasm32::u64x2(a, b))
    }
    #[inline(always)]
    fn and_not(self, b: Self) -> Self {
        Wasm(core::arch::wasm32::v128_andnot(self.0, b.0))
    }
    #[inline(always)]
    fn lowest(self) -> Self {
        use core::arch::wasm32::*;
        Wasm(v128_and(self.0, i64x2_neg(self.0)))
    }
    #[inline(always)]
    fn dec(self) -> Self {
        use core::arch::wasm32::*;
        Wasm(i64x2_sub(self.0, i64x2_splat(1)))
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        Wasm(core::arch::wasm32::i64x2_add(self.0, b.0))
    }
    #[inline(always)]
    fn and(self, b: Self) -> Self {
        Wasm(core::arch::wasm32::v128_and(self.0, b.0))
    }
    #[inline(always)]
    fn or(self, b: Self) -> Self {
        Wasm(core::arch::wasm32::v128_or(self.0, b.0))
    }
    #[inline(always)]
    fn shl<const D: u32>(self) -> Self {
        Wasm(core::arch::wasm32::i64x2_shl(self.0, D))
    }
    #[inline(always)]
    fn shr<const D: u32>(self) -> Self {
        Wasm(core::arch::wasm32::u64x2_shr(self.0, D))
    }
    #[inline(always)]
    fn lanes(self) -> (u64, u64) {
        use core::arch::wasm32::*;
        (
            u64x2_extract_lane::<0>(self.0),
            u64x2_extract_lane::<1>(self.0),
        )
    }
    #[inline(always)]
    fn keep_if_nonzero(self, t: Self) -> Self {
        use core::arch::wasm32::*;
        // `andnot(a, b)` is `a & !b`.
        Wasm(v128_andnot(self.0, i64x2_eq(t.0, i64x2_splat(0))))
    }
    #[inline(always)]
    fn fold(self) -> u64 {
        use core::arch::wasm32::*;
        let v = self.0;
        let m = i8x16_shuffle::<15, 14, 13, 12, 11, 10, 9, 8, 0, 1, 2, 3, 4, 5, 6, 7>(v, v);
        u64x2_extract_lane::<0>(v128_or(v, m))
    }
}

#[cfg(test)]
mod tests {
    use super::{bulk2, bulk3, flips, flips_by_fills, moves, moves2, Emulated, Lanes};
    use crate::movegen as portable;

    /// The positions of the test data (`tests/data/random.perft`) and their children.
    fn positions() -> Vec<(u64, u64)> {
        let data = include_str!("../../tests/data/random.perft");
        let mut out = Vec::new();
        for line in data
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let board = line.split('\t').next().unwrap();
            let pos: crate::Position = board.parse().unwrap();
            let (p, o) = (pos.player().0, pos.opponent().0);
            out.push((p, o));
            out.push((o, p));
        }
        assert!(out.len() > 5000);
        out
    }

    #[test]
    fn the_emulated_lanes_agree_with_the_portable_kernel() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut boards = positions();
        for _ in 0..20_000 {
            let (a, b, c) = (next(), next(), next());
            let occupied = a | b;
            boards.push((occupied & c, occupied & !c));
            boards.push((a & b & c, a & b & !c));
        }
        let mut idle_children = 0;
        for (p, o) in boards {
            assert_eq!(
                moves::<Emulated>(p, o),
                portable::legal_moves(p, o),
                "{p:x} {o:x}"
            );
            let both = moves2(Emulated::new(p, o), Emulated::new(o, p)).lanes();
            let want = (portable::legal_moves(p, o), portable::legal_moves(o, p));
            assert_eq!(both, want, "{p:x} {o:x}");
            let mut empty = !(p | o);
            while empty != 0 {
                let sq = empty.trailing_zeros() as u8;
                empty &= empty - 1;
                let want = portable::flips(p, o, sq);
                assert_eq!(flips::<Emulated>(p, o, sq), want, "{p:x} {o:x} {sq}");
                assert_eq!(
                    flips_by_fills::<Emulated>(p, o, sq),
                    want,
                    "{p:x} {o:x} {sq}"
                );
            }
            // Perft's last plies: children's mobility, 1000 for a child without a move.
            let m = portable::legal_moves(p, o);
            if m != 0 {
                let mut want = 0;
                let mut rest = m;
                while rest != 0 {
                    let sq = rest.trailing_zeros() as u8;
                    rest &= rest - 1;
                    let f = portable::flips(p, o, sq);
                    let n = portable::legal_moves(o ^ f, p ^ f ^ (1 << sq)).count_ones();
                    want += if n == 0 { 1000 } else { u64::from(n) };
                }
                assert_eq!(bulk2::<Emulated>(p, o, m, |_, _| 1000), want, "{p:x} {o:x}");
                // Three plies: each child's two-ply count as above, a child without a move
                // counted as 10^6 plus its number of discs.
                let mut want3 = 0;
                let mut rest = m;
                while rest != 0 {
                    let sq = rest.trailing_zeros() as u8;
                    rest &= rest - 1;
                    let f = portable::flips(p, o, sq);
                    let (cp, co) = (o ^ f, p ^ f ^ (1 << sq));
                    let cm = portable::legal_moves(cp, co);
                    want3 += if cm == 0 {
                        1_000_000 + u64::from((cp | co).count_ones())
                    } else {
                        bulk2::<Emulated>(cp, co, cm, |_, _| 1000)
                    };
                }
                let idle = |cp: u64, co: u64| 1_000_000 + u64::from((cp | co).count_ones());
                let got = bulk3::<Emulated>(p, o, m, |_, _| 1000, idle);
                assert_eq!(got, want3, "{p:x} {o:x}");
                idle_children += usize::from(want3 >= 1_000_000);
            }
        }
        // Some of the boards have a child without a move.
        assert!(idle_children >= 20, "{idle_children}");
    }
}
