//! Perft: counting the games of a given length, in the three conventions in public use.

use crate::movegen::{Avx2, Avx512, MoveGen, Portable, Simd128};
use crate::{ParseConventionError, Position};
use core::fmt;
use core::str::FromStr;

/// How passes and finished games are counted by [`perft`].
///
/// # Examples
///
/// ```
/// use reversi_core::perft::Convention;
/// assert_eq!("no-pass".parse::<Convention>().unwrap(), Convention::NoPass);
/// assert_eq!(Convention::Oeis.to_string(), "oeis");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Convention {
    /// OEIS A124004: a forced pass is a ply, and a finished game counts as one leaf at every
    /// deeper ply.
    #[default]
    Oeis,
    /// Edax's `perft`: a forced pass is a ply, and a finished game counts at the ply where it ends
    /// and 0 at every deeper ply.
    Edax,
    /// A forced pass is not a ply: the side to move after the pass plays within the same ply. A
    /// finished game counts as one leaf at every deeper ply.
    NoPass,
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Convention::Oeis => "oeis",
            Convention::Edax => "edax",
            Convention::NoPass => "no-pass",
        })
    }
}

impl FromStr for Convention {
    type Err = ParseConventionError;
    /// Parses `oeis`, `edax` or `no-pass` (also `no_pass`, `nopass`).
    ///
    /// # Errors
    ///
    /// [`ParseConventionError`] for anything else.
    fn from_str(s: &str) -> Result<Self, ParseConventionError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "oeis" => Ok(Convention::Oeis),
            "edax" => Ok(Convention::Edax),
            "no-pass" | "no_pass" | "nopass" => Ok(Convention::NoPass),
            _ => Err(ParseConventionError {
                input: s.to_string(),
            }),
        }
    }
}

/// The number of leaves `depth` plies below `pos` under `convention` (1 at depth 0).
///
/// One thread, no hash table, on the fastest kernel of this CPU ([`Kernel::best`]: AVX-512 or
/// AVX2 on x86-64 CPUs that have them, chosen at run time; WebAssembly SIMD in a `simd128`
/// build). See [`perft_with`] for threads, progress and a transposition table.
///
/// # Examples
///
/// ```
/// use reversi_core::perft::{perft, Convention};
/// use reversi_core::Position;
/// assert_eq!(perft(&Position::initial(), 6, Convention::Oeis), 8200);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32, convention: Convention) -> u64 {
    count(
        pos.player().0,
        pos.opponent().0,
        depth,
        convention,
        None,
        Kernel::best(),
    )
}

pub use crate::movegen::Kernel;

/// [`perft`] of the raw pair (mover `p`, opponent `o`) on a chosen [`Kernel`], optionally with a
/// transposition table. With a table, the count also keeps an exact table of the nodes just
/// below the shared one, of `2^(2 depth - 6)` entries of 24 bytes (at least 1 024, at most 2^22:
/// 96 MiB from depth 14), for the time of the call.
///
/// # Panics
///
/// If `kernel` is not supported by this CPU (see [`Kernel::available`]).
///
/// # Examples
///
/// ```
/// use reversi_core::perft::{perft_raw, Convention, Kernel};
/// use reversi_core::Position;
/// let s = Position::initial();
/// for k in Kernel::available() {
///     assert_eq!(perft_raw(s.player().0, s.opponent().0, 7, Convention::Edax, k, None), 55092);
/// }
/// ```
#[must_use]
pub fn perft_raw(
    p: u64,
    o: u64,
    depth: u32,
    convention: Convention,
    kernel: Kernel,
    hash: Option<&PerftHash>,
) -> u64 {
    assert!(
        kernel.is_available(),
        "kernel {kernel:?} is not supported by this CPU"
    );
    let mut near = hash.map(|_| Near::for_depth(depth));
    count(p, o, depth, convention, hash.zip(near.as_mut()), kernel)
}

pub(crate) const OEIS: u8 = 0;
pub(crate) const EDAX: u8 = 1;
pub(crate) const NOPASS: u8 = 2;

/// Counts with a kernel known to be available: the one dispatch of a count, to the recursion
/// compiled for that kernel.
pub(crate) fn count(
    p: u64,
    o: u64,
    depth: u32,
    convention: Convention,
    hash: Option<(&PerftHash, &mut Near)>,
    kernel: Kernel,
) -> u64 {
    fn on<G: PerftGen>(
        g: G,
        p: u64,
        o: u64,
        depth: u32,
        convention: Convention,
        hash: Option<(&PerftHash, &mut Near)>,
    ) -> u64 {
        match (convention, hash) {
            (Convention::Oeis, None) => count_plain::<G, OEIS>(g, p, o, depth),
            (Convention::Edax, None) => count_plain::<G, EDAX>(g, p, o, depth),
            (Convention::NoPass, None) => count_plain::<G, NOPASS>(g, p, o, depth),
            (Convention::Oeis, Some((h, near))) => count_hash::<G, OEIS>(g, p, o, depth, h, near),
            (Convention::Edax, Some((h, near))) => count_hash::<G, EDAX>(g, p, o, depth, h, near),
            (Convention::NoPass, Some((h, near))) => {
                count_hash::<G, NOPASS>(g, p, o, depth, h, near)
            }
        }
    }
    let unavailable = || panic!("kernel {kernel:?} is not supported by this CPU");
    match kernel {
        Kernel::Portable => on(Portable, p, o, depth, convention, hash),
        Kernel::Avx2 => match Avx2::detect() {
            Some(g) => on(g, p, o, depth, convention, hash),
            None => unavailable(),
        },
        Kernel::Avx512 => match Avx512::detect() {
            Some(g) => on(g, p, o, depth, convention, hash),
            None => unavailable(),
        },
        Kernel::Simd128 => match Simd128::detect() {
            Some(g) => on(g, p, o, depth, convention, hash),
            None => unavailable(),
        },
    }
}

/// A kernel as perft uses it: [`MoveGen`] and the counts of the last plies, which the AVX-512
/// kernel does eight children at a time.
trait PerftGen: MoveGen {
    /// The leaves two plies below `(p, o)`, whose moves `moves` are not empty: for each move,
    /// the child's mobility is counted without building the grandchildren. A child without a
    /// move is counted by `no_move(child_p, child_o)`.
    #[inline(always)]
    fn bulk2(self, p: u64, o: u64, mut moves: u64, no_move: impl Fn(u64, u64) -> u64) -> u64 {
        let mut n = 0;
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            let x = moves & moves.wrapping_neg();
            moves ^= x;
            let f = self.flips(p, o, sq);
            let (cp, co) = (o ^ f, p ^ f ^ x);
            let m = self.legal_moves(cp, co);
            n += if m != 0 {
                u64::from(m.count_ones())
            } else {
                no_move(cp, co)
            };
        }
        n
    }

    /// The leaves three plies below `(p, o)` (whose moves `moves` are not empty) when the
    /// kernel has a batched count of them, with `count2` counting a child two plies down.
    #[inline(always)]
    fn bulk3(
        self,
        p: u64,
        o: u64,
        moves: u64,
        no_move: impl Fn(u64, u64) -> u64,
        count2: impl Fn(u64, u64) -> u64,
    ) -> Option<u64> {
        let _ = (p, o, moves, no_move, count2);
        None
    }

    /// The leaves four plies below `(p, o)` (whose moves `moves` are not empty) when the
    /// kernel has a batched count of them, with `count3` counting a child three plies down
    /// and `count2` a grandchild two plies down.
    #[inline(always)]
    fn bulk4(
        self,
        p: u64,
        o: u64,
        moves: u64,
        no_move: impl Fn(u64, u64) -> u64,
        count2: impl Fn(u64, u64) -> u64,
        count3: impl Fn(u64, u64) -> u64,
    ) -> Option<u64> {
        let _ = (p, o, moves, no_move, count2, count3);
        None
    }
}

impl PerftGen for Portable {}

impl PerftGen for Avx2 {
    #[inline(always)]
    fn bulk2(self, p: u64, o: u64, moves: u64, no_move: impl Fn(u64, u64) -> u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: an `Avx2` exists only when `Avx2::detect` found the CPU features that
        // `avx2` is compiled with.
        unsafe {
            crate::movegen::avx2::bulk2(p, o, moves, no_move)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (p, o, moves, no_move);
            match self.0 {}
        }
    }

    #[inline(always)]
    fn bulk3(
        self,
        p: u64,
        o: u64,
        moves: u64,
        no_move: impl Fn(u64, u64) -> u64,
        count2: impl Fn(u64, u64) -> u64,
    ) -> Option<u64> {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `bulk2`.
        unsafe {
            Some(crate::movegen::avx2::bulk3(p, o, moves, no_move, count2))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (p, o, moves, no_move, count2);
            match self.0 {}
        }
    }
}

impl PerftGen for Simd128 {
    #[inline(always)]
    fn bulk2(self, p: u64, o: u64, moves: u64, no_move: impl Fn(u64, u64) -> u64) -> u64 {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return crate::movegen::simd128_bulk2(p, o, moves, no_move);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        {
            let _ = (p, o, moves, no_move);
            match self.0 {}
        }
    }

    #[inline(always)]
    fn bulk3(
        self,
        p: u64,
        o: u64,
        moves: u64,
        no_move: impl Fn(u64, u64) -> u64,
        count2: impl Fn(u64, u64) -> u64,
    ) -> Option<u64> {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return Some(crate::movegen::simd128_bulk3(p, o, moves, no_move, count2));
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        {
            let _ = (p, o, moves, no_move, count2);
            match self.0 {}
        }
    }
}

impl PerftGen for Avx512 {
    #[inline(always)]
    fn bulk2(self, p: u64, o: u64, moves: u64, no_move: impl Fn(u64, u64) -> u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: an `Avx512` exists only when `Avx512::detect` found the CPU features that
        // `avx512_lanes` is compiled with.
        unsafe {
            crate::movegen::avx512_lanes::bulk2(p, o, moves, no_move)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (p, o, moves, no_move);
            match self.0 {}
        }
    }

    #[inline(always)]
    fn bulk3(
        self,
        p: u64,
        o: u64,
        moves: u64,
        no_move: impl Fn(u64, u64) -> u64,
        count2: impl Fn(u64, u64) -> u64,
    ) -> Option<u64> {
        #[cfg(target_arch = "x86_64")]
        if crate::movegen::avx512_lanes::vbmi2() {
            // SAFETY: as in `bulk2`, and the CPU has VBMI and VBMI2 as well.
            unsafe {
                Some(crate::movegen::avx512_lanes::bulk3_vbmi2(
                    p, o, moves, no_move, count2,
                ))
            }
        } else {
            // SAFETY: as in `bulk2`.
            unsafe {
                Some(crate::movegen::avx512_lanes::bulk3(
                    p, o, moves, no_move, count2,
                ))
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (p, o, moves, no_move, count2);
            match self.0 {}
        }
    }

    #[inline(always)]
    fn bulk4(
        self,
        p: u64,
        o: u64,
        moves: u64,
        no_move: impl Fn(u64, u64) -> u64,
        count2: impl Fn(u64, u64) -> u64,
        count3: impl Fn(u64, u64) -> u64,
    ) -> Option<u64> {
        #[cfg(target_arch = "x86_64")]
        if crate::movegen::avx512_lanes::vbmi2() {
            // SAFETY: as in `bulk2`, and the CPU has VBMI and VBMI2 as well.
            unsafe {
                Some(crate::movegen::avx512_lanes::bulk4_vbmi2(
                    p, o, moves, no_move, count2, count3,
                ))
            }
        } else {
            None
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (p, o, moves, no_move, count2, count3);
            match self.0 {}
        }
    }
}

/// Leaves of a child that has no move, one ply above the leaves.
#[inline(always)]
fn leaf_no_move<G: MoveGen, const C: u8>(g: G, p: u64, o: u64) -> u64 {
    if C == OEIS {
        1
    } else {
        let m = g.legal_moves(o, p);
        if C == EDAX {
            u64::from(m != 0)
        } else if m != 0 {
            u64::from(m.count_ones())
        } else {
            1
        }
    }
}

/// The position has no move: a pass (the position and depth to count instead) or the end of
/// the game (`None`).
#[inline(always)]
fn no_move<G: MoveGen, const C: u8>(g: G, p: u64, o: u64, depth: u32) -> Option<(u64, u64, u32)> {
    if g.legal_moves(o, p) == 0 {
        None
    } else if C == NOPASS {
        Some((o, p, depth))
    } else {
        Some((o, p, depth - 1))
    }
}

/// Perft without a table, compiled with the kernel's CPU features (see [`MoveGen::run`]).
#[inline(always)]
fn count_plain<G: PerftGen, const C: u8>(g: G, p: u64, o: u64, depth: u32) -> u64 {
    g.run(
        #[inline(always)]
        |g| count_body::<G, C>(g, p, o, depth),
    )
}

#[inline(always)]
fn count_body<G: PerftGen, const C: u8>(g: G, p: u64, o: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = g.legal_moves(p, o);
    if moves == 0 {
        return match no_move::<G, C>(g, p, o, depth) {
            Some((p, o, d)) => count_plain::<G, C>(g, p, o, d),
            None => u64::from(C != EDAX),
        };
    }
    if depth == 4 {
        if let Some(n) = g.bulk4(
            p,
            o,
            moves,
            |p, o| leaf_no_move::<G, C>(g, p, o),
            |p, o| count_plain::<G, C>(g, p, o, 2),
            |p, o| count_plain::<G, C>(g, p, o, 3),
        ) {
            return n;
        }
    }
    if depth == 3 {
        if let Some(n) = g.bulk3(
            p,
            o,
            moves,
            |p, o| leaf_no_move::<G, C>(g, p, o),
            |p, o| count_plain::<G, C>(g, p, o, 2),
        ) {
            return n;
        }
    }
    match depth {
        1 => u64::from(moves.count_ones()),
        2 => g.bulk2(p, o, moves, |p, o| leaf_no_move::<G, C>(g, p, o)),
        _ => {
            let mut n = 0;
            while moves != 0 {
                let sq = moves.trailing_zeros() as u8;
                let x = moves & moves.wrapping_neg();
                moves ^= x;
                let f = g.flips(p, o, sq);
                n += count_plain::<G, C>(g, o ^ f, p ^ f ^ x, depth - 1);
            }
            n
        }
    }
}

/// Perft with a transposition table for the nodes at least [`PerftHash::MIN_DEPTH`] plies
/// above the leaves.
#[inline(always)]
fn count_hash<G: PerftGen, const C: u8>(
    g: G,
    p: u64,
    o: u64,
    depth: u32,
    h: &PerftHash,
    near: &mut Near,
) -> u64 {
    g.run(
        #[inline(always)]
        |g| {
            if depth < PerftHash::MIN_DEPTH {
                return count_body::<G, C>(g, p, o, depth);
            }
            let key = crate::perft_hash::normalize(p, o);
            match h.get(key, depth) {
                Some(n) => n,
                None => count_hash_miss::<G, C>(g, p, o, depth, key, h, near),
            }
        },
    )
}

/// [`count_hash_miss`] compiled with the kernel's CPU features (see [`MoveGen::run`]): the
/// recursion of the hashed count goes through here.
#[inline(always)]
fn count_hash_missed<G: PerftGen, const C: u8>(
    g: G,
    p: u64,
    o: u64,
    depth: u32,
    key: (u64, u64),
    h: &PerftHash,
    near: &mut Near,
) -> u64 {
    g.run(
        #[inline(always)]
        |g| count_hash_miss::<G, C>(g, p, o, depth, key, h, near),
    )
}

/// [`count_hash`] of a node whose count is not in the table (`key` is its normalised position):
/// counts it and stores the count. When the children are hashed too, they are all made first and
/// their buckets prefetched, so that their probes overlap instead of waiting for memory one by
/// one.
#[inline(always)]
fn count_hash_miss<G: PerftGen, const C: u8>(
    g: G,
    p: u64,
    o: u64,
    depth: u32,
    key: (u64, u64),
    h: &PerftHash,
    near: &mut Near,
) -> u64 {
    let mut moves = g.legal_moves(p, o);
    let n = if moves == 0 {
        match no_move::<G, C>(g, p, o, depth) {
            Some((p, o, d)) => count_hash::<G, C>(g, p, o, d, h, near),
            None => u64::from(C != EDAX),
        }
    } else if depth - 1 < PerftHash::MIN_DEPTH {
        // The children are below the table: the near table catches the transpositions among
        // them. The children are made first and their entries prefetched, so that the probes
        // overlap instead of waiting for memory one by one.
        let mut n = 0;
        while moves != 0 {
            let mut kids = [(0u64, 0u64); KIDS];
            let k = next_kids(g, p, o, &mut moves, &mut kids, |cp, co| {
                near.prefetch(cp, co);
                (cp, co)
            });
            for &(cp, co) in &kids[..k] {
                n += near.count(cp, co, depth - 1, || {
                    count_body::<G, C>(g, cp, co, depth - 1)
                });
            }
        }
        n
    } else {
        // The children with their normalised keys, whose buckets are prefetched.
        let mut n = 0;
        while moves != 0 {
            let mut kids = [(0u64, 0u64, (0u64, 0u64)); KIDS];
            let k = next_kids(g, p, o, &mut moves, &mut kids, |cp, co| {
                let key = crate::perft_hash::normalize(cp, co);
                h.prefetch(key);
                (cp, co, key)
            });
            for &(cp, co, key) in &kids[..k] {
                n += match h.get(key, depth - 1) {
                    Some(c) => c,
                    None => count_hash_missed::<G, C>(g, cp, co, depth - 1, key, h, near),
                };
            }
        }
        n
    };
    h.put(key, depth, n);
    n
}

/// The children a hashed node makes at a time: every position of a game has fewer moves (33 at
/// most), a made-up one may have more, which then come in several rounds.
const KIDS: usize = 34;

/// Makes the children of `(p, o)` by the lowest moves of `moves` (taken out of it) into `kids`,
/// each as `make(child_p, child_o)`, until `kids` is full or no move is left: how many.
#[inline(always)]
fn next_kids<G: MoveGen, T>(
    g: G,
    p: u64,
    o: u64,
    moves: &mut u64,
    kids: &mut [T],
    mut make: impl FnMut(u64, u64) -> T,
) -> usize {
    let mut k = 0;
    while *moves != 0 && k < kids.len() {
        let sq = moves.trailing_zeros() as u8;
        let x = *moves & moves.wrapping_neg();
        *moves ^= x;
        let f = g.flips(p, o, sq);
        kids[k] = make(o ^ f, p ^ f ^ x);
        k += 1;
    }
    k
}

pub use crate::perft_hash::PerftHash;

/// A table of the subtrees just below [`PerftHash::MIN_DEPTH`], keyed by the exact position (no
/// symmetry), one per thread of a count: the nodes there are the most numerous of the hashed
/// count and each is cheap to count again, so the table keeps a plain array without locks and
/// spares them the normalisation under the symmetries and the shared table's entry guards.
pub(crate) struct Near {
    /// `(p, o, depth << 56 | count)`; `p == o == 0` when empty (no position has no disc).
    entries: crate::mem::ZeroedSlice<(u64, u64, u64)>,
    /// `64 - log2(entries.len())`: an index is a hash's top bits.
    shift: u32,
}

impl Near {
    /// A table of `1 << bits` entries (24 bytes each), or of 1 024 when the memory for that
    /// many cannot be had.
    fn new(bits: u32) -> Near {
        let table = |bits: u32| crate::mem::ZeroedSlice::new(1 << bits).map(|e| (e, bits));
        let Some((entries, bits)) = table(bits).or_else(|| table(10)) else {
            std::alloc::handle_alloc_error(std::alloc::Layout::new::<[(u64, u64, u64); 1024]>())
        };
        Near {
            entries,
            shift: 64 - bits,
        }
    }

    /// A table for a count `depth` plies deep, whose nodes here lie `depth - 3` plies down
    /// (about 6.7 times as many at each ply: 19.8 million up to symmetry after 11 plies): 2^22
    /// entries (96 MiB) at most, from depth 14, where 2^24 caught 10 % more of them (5.07
    /// against 4.62 million hits) but ran slower in the one run made.
    fn for_depth(depth: u32) -> Near {
        Near::new((2 * depth).saturating_sub(6).clamp(10, 22))
    }

    #[inline(always)]
    fn slot(&self, p: u64, o: u64) -> usize {
        let h = (p ^ o.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> self.shift) as usize
    }

    /// Asks the CPU to bring the entry of `(p, o)` into the cache.
    #[inline(always)]
    fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let ptr = core::ptr::from_ref(&self.entries[self.slot(p, o)]).cast::<i8>();
            // SAFETY: a prefetch has no effect on the program's state; SSE is part of x86-64.
            #[allow(unused_unsafe)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(ptr)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o);
    }

    /// The count of `(p, o)` at `depth` (below 256, and the count below 2^56), from the table
    /// or from `count`, which is then stored.
    #[inline(always)]
    fn count(&mut self, p: u64, o: u64, depth: u32, count: impl FnOnce() -> u64) -> u64 {
        let d = u64::from(depth) << 56;
        let i = self.slot(p, o);
        let e = &mut self.entries[i];
        if e.0 == p && e.1 == o && e.2 >> 56 == d >> 56 {
            return e.2 & ((1 << 56) - 1);
        }
        let n = count();
        if n < 1 << 56 {
            *e = (p, o, d | n);
        }
        n
    }
}

/// How [`perft_with`] counts: threads, transposition table, kernel. Made by
/// [`PerftOptions::new`] (or `default`) and the `with_` methods, so that it can grow.
///
/// # Examples
///
/// ```
/// use reversi_core::perft::{Kernel, PerftHash, PerftOptions};
/// let hash = PerftHash::new(1);
/// let opts = PerftOptions::new().with_threads(2).with_hash(&hash).with_kernel(Kernel::Portable);
/// assert_eq!(opts.threads(), 2);
/// assert!(opts.hash().is_some());
/// assert_eq!(PerftOptions::default().kernel(), Kernel::best());
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct PerftOptions<'a> {
    threads: usize,
    hash: Option<&'a PerftHash>,
    kernel: Kernel,
}

impl Default for PerftOptions<'_> {
    /// One thread, no table, the best kernel.
    fn default() -> Self {
        PerftOptions {
            threads: 1,
            hash: None,
            kernel: Kernel::best(),
        }
    }
}

impl<'a> PerftOptions<'a> {
    /// One thread, no table, the best kernel of this CPU ([`Kernel::best`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::perft::PerftOptions;
    /// assert_eq!(PerftOptions::new().threads(), 1);
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// With `threads` worker threads (0 counts as 1).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::perft::PerftOptions;
    /// assert_eq!(PerftOptions::new().with_threads(4).threads(), 4);
    /// ```
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// With a transposition table shared by the workers.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::perft::{PerftHash, PerftOptions};
    /// let hash = PerftHash::new(1);
    /// assert!(PerftOptions::new().with_hash(&hash).hash().is_some());
    /// ```
    #[must_use]
    pub fn with_hash(mut self, hash: &'a PerftHash) -> Self {
        self.hash = Some(hash);
        self
    }

    /// With a transposition table or none.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::perft::PerftOptions;
    /// assert!(PerftOptions::new().with_hash_opt(None).hash().is_none());
    /// ```
    #[must_use]
    pub fn with_hash_opt(mut self, hash: Option<&'a PerftHash>) -> Self {
        self.hash = hash;
        self
    }

    /// On the move generation `kernel`, which must be in [`Kernel::available`] when counting.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::perft::{Kernel, PerftOptions};
    /// assert_eq!(PerftOptions::new().with_kernel(Kernel::Portable).kernel(), Kernel::Portable);
    /// ```
    #[must_use]
    pub fn with_kernel(mut self, kernel: Kernel) -> Self {
        self.kernel = kernel;
        self
    }

    /// The number of worker threads (0 counts as 1).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_core::perft::PerftOptions::new().threads(), 1);
    /// ```
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The transposition table, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(reversi_core::perft::PerftOptions::new().hash().is_none());
    /// ```
    #[must_use]
    pub fn hash(&self) -> Option<&'a PerftHash> {
        self.hash
    }

    /// The move generation kernel.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::perft::{Kernel, PerftOptions};
    /// assert_eq!(PerftOptions::new().kernel(), Kernel::best());
    /// ```
    #[must_use]
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }
}

/// Progress of a [`perft_with`] count, reported after each subtree.
///
/// # Examples
///
/// ```
/// use reversi_core::perft::{perft_with, Convention, PerftOptions, Progress};
/// use reversi_core::Position;
/// use std::sync::Mutex;
/// let last = Mutex::new(None::<Progress>);
/// let n = perft_with(&Position::initial(), 8, Convention::Oeis, &PerftOptions::default(), &|p| {
///     *last.lock().unwrap() = Some(*p);
/// });
/// let last = last.into_inner().unwrap().unwrap();
/// assert_eq!((last.done, last.leaves), (last.total, n));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Progress {
    /// Subtrees counted.
    pub done: usize,
    /// Subtrees in all.
    pub total: usize,
    /// Leaves counted so far.
    pub leaves: u64,
    /// Time since the count started.
    pub elapsed: std::time::Duration,
}

/// [`perft`] on several threads, with an optional transposition table, reporting progress.
///
/// The tree is split at the root into subtrees (the positions a few plies down; with a table,
/// transpositions and symmetric positions among them are counted once, times their number),
/// which the workers take in turn. `progress` is called by the workers after each subtree, one
/// call at a time and in order: the `n`-th call has `done == n` and the leaves of those `n`
/// subtrees, so the last has `done == total` and all the leaves. (A slow callback holds back
/// the workers that finish a subtree meanwhile.) With a table, each worker also keeps an exact table as [`perft_raw`] does, for all its
/// subtrees.
///
/// # Panics
///
/// If `opts.kernel` is not supported by this CPU (see [`Kernel::available`]).
///
/// # Examples
///
/// ```
/// use reversi_core::perft::{perft_with, Convention, PerftHash, PerftOptions};
/// use reversi_core::Position;
/// let hash = PerftHash::new(16);
/// let opts = PerftOptions::new().with_threads(2).with_hash(&hash);
/// assert_eq!(perft_with(&Position::initial(), 10, Convention::Edax, &opts, &|_| ()), 24571056);
/// ```
pub fn perft_with(
    pos: &Position,
    depth: u32,
    convention: Convention,
    opts: &PerftOptions<'_>,
    progress: &(dyn Fn(&Progress) + Sync),
) -> u64 {
    use std::sync::atomic::{AtomicUsize, Ordering};
    assert!(
        opts.kernel.is_available(),
        "kernel {:?} is not supported by this CPU",
        opts.kernel
    );
    let start = std::time::Instant::now();
    let (p, o) = (pos.player().0, pos.opponent().0);
    let plies = depth.saturating_sub(5).min(6);
    let mut tasks = Vec::new();
    split(p, o, depth, plies, &mut tasks);
    if opts.hash.is_some() {
        // Count each transposition (up to symmetry) once, times its number.
        let mut seen: std::collections::HashMap<_, usize> = std::collections::HashMap::new();
        let mut unique: Vec<(u64, u64, u32, u64)> = Vec::new();
        for &(p, o, d, _) in &tasks {
            let key = (crate::perft_hash::normalize(p, o), d);
            match seen.get(&key) {
                Some(&i) => unique[i].3 += 1,
                None => {
                    seen.insert(key, unique.len());
                    unique.push((p, o, d, 1));
                }
            }
        }
        tasks = unique;
    }
    let total = tasks.len();
    let next = AtomicUsize::new(0);
    // Subtrees done and leaves counted, updated together and reported under the lock: the
    // reports come one at a time, in order, each with every leaf counted before it.
    let tally = std::sync::Mutex::new((0usize, 0u64));
    let work = || {
        // Each thread's near table serves all its subtrees.
        let mut near = opts.hash.map(|_| Near::for_depth(depth));
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(p, o, d, times)) = tasks.get(i) else {
                break;
            };
            let n = count(
                p,
                o,
                d,
                convention,
                opts.hash.zip(near.as_mut()),
                opts.kernel,
            ) * times;
            // Once a subtree, off the counting's hot path. A callback that panicked poisons
            // the lock; the tally in it is still whole.
            let mut t = tally
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            t.0 += 1;
            t.1 += n;
            progress(&Progress {
                done: t.0,
                total,
                leaves: t.1,
                elapsed: start.elapsed(),
            });
        }
    };
    let threads = opts.threads.clamp(1, total.max(1));
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
    tally
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .1
}

/// The subtrees `plies` below `(p, o)`: positions with the plies left below them, each once per
/// path. A position without a move is a subtree of its own (the counting handles passes).
fn split(p: u64, o: u64, depth: u32, plies: u32, out: &mut Vec<(u64, u64, u32, u64)>) {
    let mut moves = crate::movegen::legal_moves(p, o);
    if plies == 0 || depth == 0 || moves == 0 {
        out.push((p, o, depth, 1));
        return;
    }
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        let x = moves & moves.wrapping_neg();
        moves ^= x;
        let f = crate::movegen::flips(p, o, sq);
        split(o ^ f, p ^ f ^ x, depth - 1, plies - 1, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of random games (xorshift), the first ones with moves to make.
    fn random_positions(n: usize) -> Vec<(u64, u64)> {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut out = Vec::new();
        while out.len() < n {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            loop {
                let mut m = crate::movegen::legal_moves(p, o);
                if m == 0 {
                    if crate::movegen::legal_moves(o, p) == 0 {
                        break;
                    }
                    (p, o) = (o, p);
                    continue;
                }
                out.push((p, o));
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                for _ in 0..(x % u64::from(m.count_ones())) {
                    m &= m - 1;
                }
                let f = crate::movegen::flips(p, o, m.trailing_zeros() as u8);
                let y = m & m.wrapping_neg();
                (p, o) = (o ^ f, p ^ f ^ y);
            }
        }
        out
    }

    /// The children of `(p, o)`, by the portable kernel.
    fn children(p: u64, o: u64) -> Vec<(u64, u64)> {
        let mut m = crate::movegen::legal_moves(p, o);
        let mut out = Vec::new();
        while m != 0 {
            let x = m & m.wrapping_neg();
            m ^= x;
            let f = crate::movegen::flips(p, o, x.trailing_zeros() as u8);
            out.push((o ^ f, p ^ f ^ x));
        }
        out
    }

    /// How many of `positions` have a child without a move (which the batched counts set
    /// aside and count after their loops): the tests below must meet some.
    fn with_idle_child(positions: &[(u64, u64)]) -> usize {
        positions
            .iter()
            .filter(|&&(p, o)| {
                children(p, o)
                    .iter()
                    .any(|&(cp, co)| crate::movegen::legal_moves(cp, co) == 0)
            })
            .count()
    }

    /// Every way the AVX-512 kernel counts the last three plies (with and without VBMI2) agrees
    /// with the portable recursion, in the three conventions, on positions of random games.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_batched_last_plies_agree_with_the_portable_count() {
        fn check<const C: u8>(p: u64, o: u64) {
            let expected = count_plain::<Portable, C>(Portable, p, o, 3);
            let moves = crate::movegen::legal_moves(p, o);
            let Some(g) = Avx512::detect() else {
                return;
            };
            let no_move = |p, o| leaf_no_move::<Portable, C>(Portable, p, o);
            let count2 = |p, o| count_plain::<Portable, C>(Portable, p, o, 2);
            // SAFETY: `Avx512::detect` found the features of `avx512_lanes`.
            let plain =
                unsafe { crate::movegen::avx512_lanes::bulk3(p, o, moves, no_move, count2) };
            assert_eq!(plain, expected, "bulk3 of {p:#x} {o:#x}, convention {C}");
            if crate::movegen::avx512_lanes::vbmi2() {
                // SAFETY: as above, and the CPU has VBMI and VBMI2.
                let vb = unsafe {
                    crate::movegen::avx512_lanes::bulk3_vbmi2(p, o, moves, no_move, count2)
                };
                assert_eq!(vb, expected, "bulk3_vbmi2 of {p:#x} {o:#x}, convention {C}");
            }
            let two = count_plain::<Portable, C>(Portable, p, o, 2);
            assert_eq!(g.bulk2(p, o, moves, no_move), two);
            let count3 = |p, o| count_plain::<Portable, C>(Portable, p, o, 3);
            if let Some(four) = g.bulk4(p, o, moves, no_move, count2, count3) {
                let expected = count_plain::<Portable, C>(Portable, p, o, 4);
                assert_eq!(four, expected, "bulk4 of {p:#x} {o:#x}, convention {C}");
            }
        }
        let positions = random_positions(3000);
        assert!(with_idle_child(&positions) >= 20);
        // Positions whose grandchildren include one without a move, for the four-ply count.
        let grand = positions
            .iter()
            .filter(|&&(p, o)| with_idle_child(&children(p, o)) > 0)
            .count();
        assert!(
            grand >= 20,
            "{grand} positions with a grandchild without a move"
        );
        for &(p, o) in &positions {
            check::<OEIS>(p, o);
            check::<EDAX>(p, o);
            check::<NOPASS>(p, o);
        }
    }

    /// The AVX2 kernel's last two plies agree with the portable recursion.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx2_last_plies_agree_with_the_portable_count() {
        let Some(g) = Avx2::detect() else {
            return;
        };
        fn check<const C: u8>(g: Avx2, p: u64, o: u64) {
            let moves = crate::movegen::legal_moves(p, o);
            let no_move = |p, o| leaf_no_move::<Portable, C>(Portable, p, o);
            let count2 = |p, o| count_plain::<Portable, C>(Portable, p, o, 2);
            assert_eq!(
                g.bulk2(p, o, moves, no_move),
                count_plain::<Portable, C>(Portable, p, o, 2)
            );
            assert_eq!(
                g.bulk3(p, o, moves, no_move, count2),
                Some(count_plain::<Portable, C>(Portable, p, o, 3)),
                "bulk3 of {p:#x} {o:#x}, convention {C}"
            );
        }
        let positions = random_positions(3000);
        assert!(with_idle_child(&positions) >= 20);
        for &(p, o) in &positions {
            check::<OEIS>(g, p, o);
            check::<EDAX>(g, p, o);
            check::<NOPASS>(g, p, o);
        }
    }

    /// A made-up position with 35 moves (more than a game ever reaches) is counted with the
    /// table as without it: the children of a node are made in chunks, never past an array.
    #[test]
    fn a_made_up_position_with_35_moves_is_counted_with_the_table() {
        let (p, o) = (0x0008_6c84_2638_0001u64, 0x0076_004a_0046_7400u64);
        assert_eq!(p & o, 0);
        assert_eq!(crate::movegen::legal_moves(p, o).count_ones(), 35);
        for depth in [4, 5] {
            let plain = perft_raw(p, o, depth, Convention::Oeis, Kernel::best(), None);
            for kernel in Kernel::available() {
                let hash = PerftHash::new(1);
                let hashed = perft_raw(p, o, depth, Convention::Oeis, kernel, Some(&hash));
                assert_eq!(hashed, plain, "depth {depth}, {kernel:?}");
            }
        }
    }

    /// The near table gives back what it stored, for the same position and depth only.
    #[test]
    fn the_near_table_keeps_position_and_depth_apart() {
        let mut near = Near::new(4);
        assert_eq!(near.count(1, 2, 3, || 40), 40);
        assert_eq!(near.count(1, 2, 3, || unreachable!()), 40);
        assert_eq!(near.count(1, 2, 2, || 7), 7);
        assert_eq!(near.count(2, 1, 2, || 9), 9);
        assert_eq!(near.count(1, 2, 2, || unreachable!()), 7);
    }
}
