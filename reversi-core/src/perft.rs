//! Perft: counting the games of a given length, in the three conventions in public use.

use crate::{Error, Position};
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
    type Err = Error;
    /// Parses `oeis`, `edax` or `no-pass` (also `no_pass`, `nopass`).
    ///
    /// # Errors
    ///
    /// [`Error::Convention`] for anything else.
    fn from_str(s: &str) -> Result<Self, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "oeis" => Ok(Convention::Oeis),
            "edax" => Ok(Convention::Edax),
            "no-pass" | "no_pass" | "nopass" => Ok(Convention::NoPass),
            _ => Err(Error::Convention(s.to_string())),
        }
    }
}

/// The number of leaves `depth` plies below `pos` under `convention` (1 at depth 0).
///
/// One thread, no hash table, on the fastest kernel of this CPU ([`Kernel::best`], AVX-512 or
/// AVX2 on x86-64 CPUs that have them), chosen at run time. See [`perft_with`] for threads,
/// progress and a transposition table.
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

/// Which implementation of move generation a count runs on.
///
/// # Examples
///
/// ```
/// use reversi_core::perft::Kernel;
/// assert!(Kernel::available().contains(&Kernel::Portable));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Kernel {
    /// Plain 64-bit code, on every target.
    Portable,
    /// AVX2 and BMI2 (x86-64), chosen at run time.
    Avx2,
    /// AVX-512 (x86-64), chosen at run time.
    Avx512,
}

impl Kernel {
    /// The fastest kernel this CPU supports.
    ///
    /// # Examples
    ///
    /// ```
    /// let _k = reversi_core::perft::Kernel::best();
    /// ```
    #[must_use]
    pub fn best() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if crate::movegen::avx512::available() {
            return Kernel::Avx512;
        }
        #[cfg(target_arch = "x86_64")]
        if crate::movegen::avx2::available() {
            return Kernel::Avx2;
        }
        Kernel::Portable
    }

    /// The kernels this CPU supports, portable first.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::perft::Kernel;
    /// assert_eq!(Kernel::available()[0], Kernel::Portable);
    /// ```
    #[must_use]
    pub fn available() -> Vec<Kernel> {
        let mut v = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if crate::movegen::avx2::available() {
                v.push(Kernel::Avx2);
            }
            if crate::movegen::avx512::available() {
                v.push(Kernel::Avx512);
            }
        }
        v
    }
}

/// [`perft`] of the raw pair (mover `p`, opponent `o`) on a chosen [`Kernel`], optionally with a
/// transposition table.
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
        Kernel::available().contains(&kernel),
        "kernel {kernel:?} is not supported by this CPU"
    );
    count(p, o, depth, convention, hash, kernel)
}

pub(crate) const OEIS: u8 = 0;
pub(crate) const EDAX: u8 = 1;
pub(crate) const NOPASS: u8 = 2;

/// Counts with a kernel known to be available.
pub(crate) fn count(
    p: u64,
    o: u64,
    depth: u32,
    convention: Convention,
    hash: Option<&PerftHash>,
    kernel: Kernel,
) -> u64 {
    macro_rules! go {
        ($m:ident) => {
            match (convention, hash) {
                (Convention::Oeis, None) => $m::count::<OEIS>(p, o, depth),
                (Convention::Edax, None) => $m::count::<EDAX>(p, o, depth),
                (Convention::NoPass, None) => $m::count::<NOPASS>(p, o, depth),
                (Convention::Oeis, Some(h)) => $m::count_hash::<OEIS>(p, o, depth, h),
                (Convention::Edax, Some(h)) => $m::count_hash::<EDAX>(p, o, depth, h),
                (Convention::NoPass, Some(h)) => $m::count_hash::<NOPASS>(p, o, depth, h),
            }
        };
    }
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: callers only pass kernels from `Kernel::best`/`Kernel::available`, which
        // checked the CPU features.
        Kernel::Avx2 => unsafe { go!(avx2_kernel) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Avx512 => unsafe { go!(avx512_kernel) },
        _ => go!(portable_kernel),
    }
}

/// The recursion of perft, written once and compiled per kernel: `$moves`/`$flips` are the move
/// generation, `$($tf)*` the target features of the functions.
macro_rules! perft_kernel {
    ($modname:ident, $moves:path, $flips:path, lanes: $lanes:literal, unsafe: $($unsafety:ident)?, $(#[$tf:meta])*) => {
        mod $modname {
            #![allow(unused_unsafe)]
            use super::{PerftHash, EDAX, NOPASS, OEIS};

            /// Leaves of a child that has no move, one ply above the leaves.
            #[inline]
            $(#[$tf])*
            $($unsafety)? fn leaf_no_move<const C: u8>(p: u64, o: u64) -> u64 {
                if C == OEIS {
                    1
                } else {
                    let m = unsafe { $moves(o, p) };
                    if C == EDAX {
                        u64::from(m != 0)
                    } else if m != 0 {
                        u64::from(m.count_ones())
                    } else {
                        1
                    }
                }
            }

            /// The leaves two plies below `(p, o)`, whose moves `moves` are not empty: for each
            /// move, the child's mobility is counted without building the grandchildren.
            #[inline]
            $(#[$tf])*
            $($unsafety)? fn bulk2<const C: u8>(p: u64, o: u64, mut moves: u64) -> u64 {
                #[cfg(target_arch = "x86_64")]
                if $lanes {
                    return unsafe {
                        crate::movegen::avx512_lanes::bulk2(p, o, moves, |p, o| leaf_no_move::<C>(p, o))
                    };
                }
                let mut n = 0;
                while moves != 0 {
                    let sq = moves.trailing_zeros() as u8;
                    let x = moves & moves.wrapping_neg();
                    moves ^= x;
                    let f = unsafe { $flips(p, o, sq) };
                    let (cp, co) = (o ^ f, p ^ f ^ x);
                    let m = unsafe { $moves(cp, co) };
                    n += if m != 0 {
                        u64::from(m.count_ones())
                    } else {
                        unsafe { leaf_no_move::<C>(cp, co) }
                    };
                }
                n
            }

            /// The position has no move: a pass or the end of the game.
            #[inline]
            $(#[$tf])*
            $($unsafety)? fn no_move<const C: u8>(p: u64, o: u64, depth: u32) -> Option<(u64, u64, u32)> {
                let _ = p;
                if unsafe { $moves(o, p) } == 0 {
                    None
                } else if C == NOPASS {
                    Some((o, p, depth))
                } else {
                    Some((o, p, depth - 1))
                }
            }

            /// Perft without a table.
            $(#[$tf])*
            pub(super) $($unsafety)? fn count<const C: u8>(p: u64, o: u64, depth: u32) -> u64 {
                if depth == 0 {
                    return 1;
                }
                let mut moves = unsafe { $moves(p, o) };
                if moves == 0 {
                    return match unsafe { no_move::<C>(p, o, depth) } {
                        Some((p, o, d)) => unsafe { count::<C>(p, o, d) },
                        None => u64::from(C != EDAX),
                    };
                }
                #[cfg(target_arch = "x86_64")]
                if $lanes && depth == 3 {
                    return unsafe {
                        crate::movegen::avx512_lanes::bulk3(
                            p,
                            o,
                            moves,
                            |p, o| leaf_no_move::<C>(p, o),
                            |p, o| count::<C>(p, o, 2),
                        )
                    };
                }
                match depth {
                    1 => u64::from(moves.count_ones()),
                    2 => unsafe { bulk2::<C>(p, o, moves) },
                    _ => {
                        let mut n = 0;
                        while moves != 0 {
                            let sq = moves.trailing_zeros() as u8;
                            let x = moves & moves.wrapping_neg();
                            moves ^= x;
                            let f = unsafe { $flips(p, o, sq) };
                            n += unsafe { count::<C>(o ^ f, p ^ f ^ x, depth - 1) };
                        }
                        n
                    }
                }
            }

            /// Perft with a transposition table for the nodes at least
            /// [`PerftHash::MIN_DEPTH`] plies above the leaves.
            $(#[$tf])*
            pub(super) $($unsafety)? fn count_hash<const C: u8>(p: u64, o: u64, depth: u32, h: &PerftHash) -> u64 {
                if depth < PerftHash::MIN_DEPTH {
                    return unsafe { count::<C>(p, o, depth) };
                }
                let key = crate::perft_hash::normalize(p, o);
                if let Some(n) = h.get(key, depth) {
                    return n;
                }
                let mut moves = unsafe { $moves(p, o) };
                let n = if moves == 0 {
                    match unsafe { no_move::<C>(p, o, depth) } {
                        Some((p, o, d)) => unsafe { count_hash::<C>(p, o, d, h) },
                        None => u64::from(C != EDAX),
                    }
                } else {
                    let mut n = 0;
                    while moves != 0 {
                        let sq = moves.trailing_zeros() as u8;
                        let x = moves & moves.wrapping_neg();
                        moves ^= x;
                        let f = unsafe { $flips(p, o, sq) };
                        n += unsafe { count_hash::<C>(o ^ f, p ^ f ^ x, depth - 1, h) };
                    }
                    n
                };
                h.put(key, depth, n);
                n
            }
        }
    };
}

perft_kernel!(portable_kernel, crate::movegen::legal_moves, crate::movegen::flips, lanes: false, unsafe:,);
#[cfg(target_arch = "x86_64")]
perft_kernel!(
    avx2_kernel,
    crate::movegen::avx2::moves,
    crate::movegen::avx2::flip,
    lanes: false,
    unsafe: unsafe,
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
);

#[cfg(target_arch = "x86_64")]
perft_kernel!(
    avx512_kernel,
    crate::movegen::avx512::moves,
    crate::movegen::avx512::flip,
    lanes: true,
    unsafe: unsafe,
    #[target_feature(enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt")]
);

pub use crate::perft_hash::PerftHash;

/// How [`perft_with`] counts: threads, transposition table, kernel.
///
/// # Examples
///
/// ```
/// use reversi_core::perft::PerftOptions;
/// let opts = PerftOptions { threads: 2, ..PerftOptions::default() };
/// assert!(opts.hash.is_none());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PerftOptions<'a> {
    /// Worker threads (0 counts as 1).
    pub threads: usize,
    /// A transposition table shared by the workers, or none.
    pub hash: Option<&'a PerftHash>,
    /// The move generation; it must be in [`Kernel::available`].
    pub kernel: Kernel,
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
/// which the workers take in turn. `progress` is called by the workers after each subtree.
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
/// let opts = PerftOptions { threads: 2, hash: Some(&hash), ..PerftOptions::default() };
/// assert_eq!(perft_with(&Position::initial(), 10, Convention::Edax, &opts, &|_| ()), 24571056);
/// ```
pub fn perft_with(
    pos: &Position,
    depth: u32,
    convention: Convention,
    opts: &PerftOptions<'_>,
    progress: &(dyn Fn(&Progress) + Sync),
) -> u64 {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    assert!(
        Kernel::available().contains(&opts.kernel),
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
    let done = AtomicUsize::new(0);
    let leaves = AtomicU64::new(0);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&(p, o, d, times)) = tasks.get(i) else {
            break;
        };
        let n = count(p, o, d, convention, opts.hash, opts.kernel) * times;
        let leaves = leaves.fetch_add(n, Ordering::Relaxed) + n;
        let done = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress(&Progress {
            done,
            total,
            leaves,
            elapsed: start.elapsed(),
        });
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
    leaves.into_inner()
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
