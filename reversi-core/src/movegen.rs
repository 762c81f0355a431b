//! Low-level move generation and flips on raw `u64` boards (mover `p`, opponent `o`).
//!
//! These are the hot paths of perft and search; most code wants [`Position`](crate::Position)
//! instead. They take the mover-relative pair of bitboards and never allocate.
//!
//! [`legal_moves`] and [`flips`] are the portable code. The [`MoveGen`] trait is the same two
//! operations on a chosen kernel: [`Portable`] everywhere, on x86-64 [`Avx2`] and [`Avx512`],
//! whose values exist only once the CPU was found to have their features
//! ([`Avx2::detect`], [`Avx512::detect`]), and on WebAssembly built with the `simd128` target
//! feature [`Simd128`], chosen at build time ([`Simd128::detect`]). Code generic over `G: MoveGen` is compiled once per
//! kernel; [`MoveGen::run`] runs a closure compiled with the kernel's CPU features, so that the
//! kernel is inlined into a whole search and the CPU is checked once, at its entry.
//!
//! ```
//! use reversi_core::movegen::{self, Kernel, MoveGen, Portable};
//!
//! /// The number of moves of the mover and of the opponent, on any kernel.
//! fn mobility<G: MoveGen>(g: G, p: u64, o: u64) -> (u32, u32) {
//!     g.run(|g| (g.legal_moves(p, o).count_ones(), g.legal_moves(o, p).count_ones()))
//! }
//!
//! let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
//! assert_eq!(mobility(Portable, p, o), (4, 4));
//! if let Some(avx2) = movegen::Avx2::detect() {
//!     assert_eq!(mobility(avx2, p, o), (4, 4));
//! }
//! assert_eq!(movegen::legal_moves(p, o).count_ones(), 4);
//! assert!(Kernel::available().contains(&Kernel::best()));
//! ```

use core::fmt;

/// The WebAssembly SIMD kernel's lane logic, tested natively on any target.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
mod simd128;

mod sealed {
    /// Only this crate's kernels implement [`MoveGen`](super::MoveGen).
    pub trait Sealed {}
}

/// Move generation on one kernel: the squares where the mover can play and the discs a move
/// flips, with the results of the portable [`legal_moves`] and [`flips`].
///
/// Implemented by [`Portable`], [`Avx2`], [`Avx512`] and [`Simd128`] (sealed). A value of an
/// x86 or WebAssembly kernel type proves that the CPU or the build has its features, so the
/// methods are safe to call.
///
/// # Examples
///
/// ```
/// use reversi_core::movegen::{Avx512, MoveGen, Portable};
/// let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
/// assert_eq!(Portable.flips(p, o, 19), 1 << 27);
/// if let Some(k) = Avx512::detect() {
///     assert_eq!(k.flips(p, o, 19), 1 << 27);
/// }
/// ```
pub trait MoveGen: Copy + Send + Sync + fmt::Debug + 'static + sealed::Sealed {
    /// The kernel this type runs.
    const KERNEL: Kernel;

    /// The squares where the mover `p` may play against the opponent `o` (see
    /// [`legal_moves`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::movegen::{MoveGen, Portable};
    /// assert_eq!(Portable.legal_moves(0x0000_0008_1000_0000, 0x0000_0010_0800_0000).count_ones(), 4);
    /// ```
    #[must_use]
    fn legal_moves(self, p: u64, o: u64) -> u64;

    /// The discs that `p` flips by playing on the empty square `sq` (0–63) against `o` (see
    /// [`flips`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::movegen::{MoveGen, Portable};
    /// assert_eq!(Portable.flips(0x0000_0008_1000_0000, 0x0000_0010_0800_0000, 19), 1 << 27);
    /// ```
    #[must_use]
    fn flips(self, p: u64, o: u64, sq: u8) -> u64;

    /// Calls `f` from a function compiled with this kernel's CPU features, so that the kernel's
    /// operations inline into `f` and into the `#[inline]` code it calls. A recursive search
    /// calls its recursion through `run` to keep every level compiled with the features.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::movegen::{MoveGen, Portable};
    /// assert_eq!(Portable.run(|g| g.legal_moves(0x0000_0008_1000_0000, 0x0000_0010_0800_0000)), 0x0000_1020_0408_0000);
    /// ```
    fn run<R, F: FnOnce(Self) -> R>(self, f: F) -> R;
}

/// The portable kernel: plain 64-bit code, on every target.
///
/// # Examples
///
/// ```
/// use reversi_core::movegen::{MoveGen, Portable};
/// assert_eq!(Portable.legal_moves(0x0000_0008_1000_0000, 0x0000_0010_0800_0000).count_ones(), 4);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Portable;

impl sealed::Sealed for Portable {}

impl MoveGen for Portable {
    const KERNEL: Kernel = Kernel::Portable;

    #[inline(always)]
    fn legal_moves(self, p: u64, o: u64) -> u64 {
        legal_moves(p, o)
    }

    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u8) -> u64 {
        flips(p, o, sq)
    }

    #[inline(always)]
    fn run<R, F: FnOnce(Self) -> R>(self, f: F) -> R {
        f(self)
    }
}

/// Proof that the CPU has an x86 kernel's features: it can only be made by `detect`. On other
/// targets it has no value at all, so that no x86 code is reachable there.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Detected(());

/// Proof that the CPU has an x86 kernel's features: none on this target.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Detected {}

/// The AVX2 kernel (x86-64 CPUs with AVX2, BMI1, BMI2, POPCNT and LZCNT): four directions per
/// 256-bit vector.
///
/// A value exists only when [`Avx2::detect`] found the features.
///
/// # Examples
///
/// ```
/// use reversi_core::movegen::{self, Avx2, MoveGen};
/// if let Some(k) = Avx2::detect() {
///     let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
///     assert_eq!(k.legal_moves(p, o), movegen::legal_moves(p, o));
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Avx2(pub(crate) Detected);

impl Avx2 {
    /// The kernel, if this CPU has its features (always `None` off x86-64). The detection is
    /// cached by the standard library.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::movegen::{Avx2, Kernel, MoveGen, Portable};
    /// assert_eq!(Avx2::detect().is_some(), Kernel::Avx2.is_available());
    /// if let Some(k) = Avx2::detect() {
    ///     let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
    ///     assert_eq!(k.legal_moves(p, o), Portable.legal_moves(p, o));
    /// }
    /// ```
    #[must_use]
    pub fn detect() -> Option<Avx2> {
        #[cfg(target_arch = "x86_64")]
        if avx2::available() {
            return Some(Avx2(Detected(())));
        }
        None
    }
}

impl sealed::Sealed for Avx2 {}

impl MoveGen for Avx2 {
    const KERNEL: Kernel = Kernel::Avx2;

    #[inline(always)]
    fn legal_moves(self, p: u64, o: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: an `Avx2` exists only when `Avx2::detect` found the features of `avx2`.
        unsafe {
            avx2::moves(p, o)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (p, o);
            match self.0 {}
        }
    }

    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u8) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `legal_moves`.
        unsafe {
            avx2::flip(p, o, sq)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (p, o, sq);
            match self.0 {}
        }
    }

    #[inline(always)]
    fn run<R, F: FnOnce(Self) -> R>(self, f: F) -> R {
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
            fn with_features<R, F: FnOnce(Avx2) -> R>(g: Avx2, f: F) -> R {
                f(g)
            }
            // SAFETY: as in `legal_moves`: the CPU has the features enabled here.
            unsafe { with_features(self, f) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = f;
            match self.0 {}
        }
    }
}

/// The AVX-512 kernel (x86-64 CPUs with the features of [`Avx2`] and AVX-512 F, VL, CD, BW,
/// DQ and VPOPCNTDQ): the eight directions in one 512-bit vector.
///
/// A value exists only when [`Avx512::detect`] found the features.
///
/// # Examples
///
/// ```
/// use reversi_core::movegen::{self, Avx512, MoveGen};
/// if let Some(k) = Avx512::detect() {
///     let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
///     assert_eq!(k.flips(p, o, 19), movegen::flips(p, o, 19));
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Avx512(pub(crate) Detected);

impl Avx512 {
    /// The kernel, if this CPU has its features (always `None` off x86-64).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::movegen::{Avx512, Kernel, MoveGen, Portable};
    /// assert_eq!(Avx512::detect().is_some(), Kernel::Avx512.is_available());
    /// if let Some(k) = Avx512::detect() {
    ///     let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
    ///     assert_eq!(k.flips(p, o, 19), Portable.flips(p, o, 19));
    /// }
    /// ```
    #[must_use]
    pub fn detect() -> Option<Avx512> {
        #[cfg(target_arch = "x86_64")]
        if avx512::available() {
            return Some(Avx512(Detected(())));
        }
        None
    }

    /// The AVX2 kernel, which this CPU has too.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::movegen::{Avx2, Avx512};
    /// if let Some(k) = Avx512::detect() {
    ///     assert_eq!(Some(k.avx2()), Avx2::detect());
    /// }
    /// ```
    #[must_use]
    pub fn avx2(self) -> Avx2 {
        Avx2(self.0)
    }
}

impl sealed::Sealed for Avx512 {}

impl MoveGen for Avx512 {
    const KERNEL: Kernel = Kernel::Avx512;

    #[inline(always)]
    fn legal_moves(self, p: u64, o: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: an `Avx512` exists only when `Avx512::detect` found the features of `avx512`.
        unsafe {
            avx512::moves(p, o)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (p, o);
            match self.0 {}
        }
    }

    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u8) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `legal_moves`.
        unsafe {
            avx512::flip(p, o, sq)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (p, o, sq);
            match self.0 {}
        }
    }

    #[inline(always)]
    fn run<R, F: FnOnce(Self) -> R>(self, f: F) -> R {
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(
                enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt"
            )]
            fn with_features<R, F: FnOnce(Avx512) -> R>(g: Avx512, f: F) -> R {
                f(g)
            }
            // SAFETY: as in `legal_moves`: the CPU has the features enabled here.
            unsafe { with_features(self, f) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = f;
            match self.0 {}
        }
    }
}

/// Proof that the module was built with WebAssembly's `simd128` target feature.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Built(());

/// Proof that the module was built with WebAssembly's `simd128`: none on this target or build.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Built {}

/// The WebAssembly SIMD kernel (`wasm32` built with `-C target-feature=+simd128`): three
/// 128-bit vectors of the board and its vertical mirror cover six directions, and 64-bit code
/// the horizontal two.
///
/// A value exists only in such a build ([`Simd128::detect`]); WebAssembly has no run-time
/// feature detection, so the choice is made when the module is built (the web page's module
/// is, by `scripts/build-wasm.sh`).
///
/// # Examples
///
/// ```
/// use reversi_core::movegen::{self, MoveGen, Simd128};
/// if let Some(k) = Simd128::detect() {
///     let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
///     assert_eq!(k.flips(p, o, 19), movegen::flips(p, o, 19));
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Simd128(pub(crate) Built);

impl Simd128 {
    /// The kernel, if this is WebAssembly built with `simd128` (always `None` elsewhere).
    ///
    /// # Examples
    ///
    /// ```
    /// let k = reversi_core::movegen::Simd128::detect();
    /// assert_eq!(k.is_some(), cfg!(all(target_arch = "wasm32", target_feature = "simd128")));
    /// ```
    #[must_use]
    pub fn detect() -> Option<Simd128> {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return Some(Simd128(Built(())));
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        None
    }
}

impl sealed::Sealed for Simd128 {}

impl MoveGen for Simd128 {
    const KERNEL: Kernel = Kernel::Simd128;

    #[inline(always)]
    fn legal_moves(self, p: u64, o: u64) -> u64 {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return simd128::wasm_moves(p, o);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        {
            let _ = (p, o);
            match self.0 {}
        }
    }

    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u8) -> u64 {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return simd128::wasm_flips(p, o, sq);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        {
            let _ = (p, o, sq);
            match self.0 {}
        }
    }

    #[inline(always)]
    fn run<R, F: FnOnce(Self) -> R>(self, f: F) -> R {
        // The feature is on for the whole build: nothing to enable.
        f(self)
    }
}

/// Perft's last two plies on the WebAssembly SIMD kernel, inlined (see `PerftGen::bulk2`).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
pub(crate) fn simd128_bulk2(p: u64, o: u64, moves: u64, no_move: impl Fn(u64, u64) -> u64) -> u64 {
    simd128::bulk2::<simd128::Wasm>(p, o, moves, no_move)
}

/// Perft's last three plies on the WebAssembly SIMD kernel, inlined (see `PerftGen::bulk3`).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
pub(crate) fn simd128_bulk3(
    p: u64,
    o: u64,
    moves: u64,
    no_move: impl Fn(u64, u64) -> u64,
    count2: impl Fn(u64, u64) -> u64,
) -> u64 {
    simd128::bulk3::<simd128::Wasm>(p, o, moves, no_move, count2)
}

/// Which implementation of move generation a count or a search runs on (the names of the
/// [`MoveGen`] types).
///
/// # Examples
///
/// ```
/// use reversi_core::movegen::Kernel;
/// assert!(Kernel::available().contains(&Kernel::Portable));
/// assert_eq!("avx2".parse::<Kernel>().unwrap(), Kernel::Avx2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Kernel {
    /// Plain 64-bit code, on every target ([`Portable`]).
    Portable,
    /// AVX2 and BMI2 (x86-64), chosen at run time ([`Avx2`]).
    Avx2,
    /// AVX-512 (x86-64), chosen at run time ([`Avx512`]).
    Avx512,
    /// WebAssembly SIMD (`wasm32` with `simd128`), chosen at build time ([`Simd128`]).
    Simd128,
}

impl Kernel {
    /// The fastest kernel this CPU supports for perft.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::movegen::Kernel;
    /// let best = Kernel::best();
    /// assert!(best.is_available());
    /// assert_eq!(Some(&best), Kernel::available().last()); // the last is the fastest
    /// ```
    #[must_use]
    pub fn best() -> Kernel {
        if Simd128::detect().is_some() {
            Kernel::Simd128
        } else if Avx512::detect().is_some() {
            Kernel::Avx512
        } else if Avx2::detect().is_some() {
            Kernel::Avx2
        } else {
            Kernel::Portable
        }
    }

    /// Whether this CPU supports the kernel.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(reversi_core::movegen::Kernel::Portable.is_available());
    /// ```
    #[must_use]
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Portable => true,
            Kernel::Avx2 => Avx2::detect().is_some(),
            Kernel::Avx512 => Avx512::detect().is_some(),
            Kernel::Simd128 => Simd128::detect().is_some(),
        }
    }

    /// The kernels this CPU supports, portable first.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::movegen::Kernel;
    /// assert_eq!(Kernel::available()[0], Kernel::Portable);
    /// ```
    #[must_use]
    pub fn available() -> Vec<Kernel> {
        [
            Kernel::Portable,
            Kernel::Avx2,
            Kernel::Avx512,
            Kernel::Simd128,
        ]
        .into_iter()
        .filter(|k| k.is_available())
        .collect()
    }

    /// Its name: `portable`, `avx2`, `avx512` or `simd128`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_core::movegen::Kernel::Avx512.name(), "avx512");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Simd128 => "simd128",
        }
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Kernel {
    type Err = crate::ParseKernelError;
    /// Parses `portable`, `avx2`, `avx512` or `simd128` (whether or not this CPU has it).
    ///
    /// # Errors
    ///
    /// [`ParseKernelError`](crate::ParseKernelError) for anything else.
    fn from_str(s: &str) -> Result<Self, crate::ParseKernelError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "portable" => Ok(Kernel::Portable),
            "avx2" => Ok(Kernel::Avx2),
            "avx512" | "avx-512" => Ok(Kernel::Avx512),
            "simd128" => Ok(Kernel::Simd128),
            _ => Err(crate::ParseKernelError {
                input: s.to_string(),
            }),
        }
    }
}

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

/// [`moves_dir`] along rows (`d = 1`), for inner opponent discs `mo` (no disc of column a or
/// h): towards higher bits an addition does the fill, as each run of opponent discs that
/// follows a mover's disc carries into the square after it without leaving its row.
#[inline(always)]
pub(crate) fn moves_row(p: u64, mo: u64) -> u64 {
    let l = mo.wrapping_add(mo & (p << 1)) & !mo;
    let mut r = mo & (p >> 1);
    r |= mo & (r >> 1);
    let pre_r = mo & (mo >> 1);
    r |= pre_r & (r >> 2);
    r |= pre_r & (r >> 2);
    l | (r >> 1)
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
    let m = moves_row(p, o & INNER_COLS)
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
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(crate) struct Rays(pub(crate) [u64; 4]);

#[cfg(target_arch = "x86_64")]
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

#[cfg(target_arch = "x86_64")]
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
#[cfg(target_arch = "x86_64")]
pub(crate) static RAYS_UP: [Rays; 64] = rays(true);
/// Rays towards lower bits.
#[cfg(target_arch = "x86_64")]
pub(crate) static RAYS_DOWN: [Rays; 64] = rays(false);

/// The `N` lowest moves of `moves`, one bit each, taken out of it (0 for each missing one).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn take_lowest<const N: usize>(moves: &mut u64) -> [u64; N] {
    let mut xs = [0u64; N];
    for x in &mut xs {
        *x = *moves & moves.wrapping_neg();
        *moves ^= *x;
    }
    xs
}

/// The moves of a node whose children have no move, met by a three-ply count and counted
/// after its loop: a call inside the loop (rare as it is) made the compiler keep the pending
/// lanes in memory rather than in registers, and reload them at every child (on Zen 4 a 512-bit
/// reload of a 512-bit store waits for the store). Used by the AVX2 and AVX-512 kernels.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Default)]
pub(crate) struct Idle(u64);

#[cfg(target_arch = "x86_64")]
impl Idle {
    /// Keeps the move `x` (one bit).
    #[inline(always)]
    pub(crate) fn push(&mut self, x: u64) {
        self.0 |= x;
    }

    /// The leaves of the kept moves' children of `(p, o)`, each two plies down, by `count2`.
    #[inline(always)]
    pub(crate) fn count(&self, p: u64, o: u64, count2: impl Fn(u64, u64) -> u64) -> u64 {
        let mut n = 0;
        let mut m = self.0;
        while m != 0 {
            let x = m & m.wrapping_neg();
            m ^= x;
            let f = flips(p, o, x.trailing_zeros() as u8);
            n += count2(o ^ f, p ^ f ^ x);
        }
        n
    }
}

/// The AVX2 kernel (x86-64 with AVX2, BMI1, BMI2, POPCNT and LZCNT): four directions per
/// 256-bit vector. Reached only through [`Avx2`].
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2 {
    use core::arch::x86_64::*;

    /// Whether this CPU has the features of this module (AVX2, BMI1, BMI2, POPCNT, LZCNT).
    pub(crate) fn available() -> bool {
        std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
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

    /// Every lane of `v` set to the OR of its four lanes, without leaving the vector unit.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn or_all(v: __m256i) -> __m256i {
        let v = _mm256_or_si256(v, _mm256_permute4x64_epi64::<0x4E>(v));
        _mm256_or_si256(v, _mm256_shuffle_epi32::<0x4E>(v))
    }

    /// Legal moves, four directions per vector (the Kogge-Stone doubling fill of the portable
    /// version, with `+d` and `-d` in two vectors).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(crate) fn moves(p: u64, o: u64) -> u64 {
        moves_v(_mm256_set1_epi64x(p as i64), _mm256_set1_epi64x(o as i64)) & !(p | o)
    }

    /// The squares next to a line of `o` that ends in `p` (the legal moves before the empty
    /// squares are kept), for `p` and `o` broadcast to all four lanes.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn moves_v(pp: __m256i, oo: __m256i) -> u64 {
        let mo = _mm256_and_si256(oo, inner());
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
        or_lanes(m)
    }

    /// Flips, four directions per vector. Towards higher bits the outflank is the lowest
    /// non-opponent square of the ray (`t & -t`); towards lower bits the ray is cut below its
    /// highest non-opponent square by a fill.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(crate) fn flip(p: u64, o: u64, sq: u8) -> u64 {
        let pp = _mm256_set1_epi64x(p as i64);
        let mo = _mm256_and_si256(_mm256_set1_epi64x(o as i64), inner());
        _mm_cvtsi128_si64(_mm256_castsi256_si128(flip_v(pp, mo, sq))) as u64
    }

    /// [`flip`] with the mover `pp` broadcast and the inner opponent discs `mo` per direction,
    /// the flips returned in every lane.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn flip_v(pp: __m256i, mo: __m256i, sq: u8) -> __m256i {
        or_all(flip_dirs(pp, mo, sq))
    }

    /// [`flip_v`] before its lanes are joined: the flips of each direction in its lane.
    /// Upwards, the outflank is the lowest non-opponent square of the ray (`t & -t`);
    /// downwards the ray is cut below its highest non-opponent square by a fill.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn flip_dirs(pp: __m256i, mo: __m256i, sq: u8) -> __m256i {
        let sq = usize::from(sq & 63);
        let zero = _mm256_setzero_si256();
        // SAFETY: `Rays` is 32 bytes aligned to 32, and `sq` is in bounds.
        let up = unsafe { _mm256_load_si256(super::RAYS_UP[sq].0.as_ptr().cast()) };
        // SAFETY: as above.
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
        _mm256_or_si256(fu, _mm256_andnot_si256(bad, run))
    }

    /// The moves along `+S` and `-S` of movers `p` against inner opponent discs `mo`, one
    /// position per lane (the doubling fill; along a row towards higher bits an addition, as in
    /// the AVX-512 lanes).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn moves_pair4<const S: i32, const S2: i32>(p: __m256i, mo: __m256i) -> __m256i {
        let mut r = _mm256_and_si256(mo, _mm256_srli_epi64::<S>(p));
        let pre_r = _mm256_and_si256(mo, _mm256_srli_epi64::<S>(mo));
        r = _mm256_or_si256(r, _mm256_and_si256(mo, _mm256_srli_epi64::<S>(r)));
        r = _mm256_or_si256(r, _mm256_and_si256(pre_r, _mm256_srli_epi64::<S2>(r)));
        r = _mm256_or_si256(r, _mm256_and_si256(pre_r, _mm256_srli_epi64::<S2>(r)));
        let l = if S == 1 {
            let starts = _mm256_and_si256(mo, _mm256_add_epi64(p, p));
            _mm256_andnot_si256(mo, _mm256_add_epi64(mo, starts))
        } else {
            let pre = _mm256_slli_epi64::<S>(pre_r);
            let mut l = _mm256_and_si256(mo, _mm256_slli_epi64::<S>(p));
            l = _mm256_or_si256(l, _mm256_and_si256(mo, _mm256_slli_epi64::<S>(l)));
            l = _mm256_or_si256(l, _mm256_and_si256(pre, _mm256_slli_epi64::<S2>(l)));
            l = _mm256_or_si256(l, _mm256_and_si256(pre, _mm256_slli_epi64::<S2>(l)));
            _mm256_slli_epi64::<S>(l)
        };
        _mm256_or_si256(l, _mm256_srli_epi64::<S>(r))
    }

    /// The legal moves of four positions, one per lane.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn moves4(p: __m256i, o: __m256i) -> __m256i {
        let h = moves_pair4::<1, 2>(
            p,
            _mm256_and_si256(o, _mm256_set1_epi64x(super::INNER_COLS as i64)),
        );
        let v = moves_pair4::<8, 16>(
            p,
            _mm256_and_si256(o, _mm256_set1_epi64x(super::INNER_ROWS as i64)),
        );
        let od = _mm256_and_si256(o, _mm256_set1_epi64x(super::INNER as i64));
        let d7 = moves_pair4::<7, 14>(p, od);
        let d9 = moves_pair4::<9, 18>(p, od);
        let m = _mm256_or_si256(_mm256_or_si256(h, v), _mm256_or_si256(d7, d9));
        _mm256_andnot_si256(_mm256_or_si256(p, o), m)
    }

    /// The leaves below four children of `(p, o)` (broadcast in `pp` and `oo`, `mo` its inner
    /// opponent discs), made by the four lowest moves of `moves` (which are taken out of it):
    /// their flips one by one, then their mobility one child per lane.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn children4(
        p: u64,
        o: u64,
        pp: __m256i,
        oo: __m256i,
        mo: __m256i,
        moves: &mut u64,
        no_move: &impl Fn(u64, u64) -> u64,
    ) -> u64 {
        let xs = super::take_lowest::<4>(moves);
        let v = xs.map(|x| flip_dirs(pp, mo, x.trailing_zeros() as u8));
        // Lane i gets the OR of `v[i]`'s lanes, child i's flips (a transpose of sorts).
        let a = _mm256_or_si256(
            _mm256_unpacklo_epi64(v[0], v[1]),
            _mm256_unpackhi_epi64(v[0], v[1]),
        );
        let b = _mm256_or_si256(
            _mm256_unpacklo_epi64(v[2], v[3]),
            _mm256_unpackhi_epi64(v[2], v[3]),
        );
        let f = _mm256_or_si256(
            _mm256_permute2x128_si256::<0x20>(a, b),
            _mm256_permute2x128_si256::<0x31>(a, b),
        );
        // SAFETY: `xs` is 32 readable bytes.
        let x = unsafe { _mm256_loadu_si256(xs.as_ptr().cast()) };
        let cp = _mm256_xor_si256(oo, f);
        let co = _mm256_xor_si256(pp, _mm256_or_si256(f, x));
        let mut ms = [0u64; 4];
        // SAFETY: `ms` is 32 writable bytes.
        unsafe { _mm256_storeu_si256(ms.as_mut_ptr().cast(), moves4(cp, co)) };
        let mut n = 0;
        for i in 0..4 {
            n += if ms[i] != 0 {
                u64::from(ms[i].count_ones())
            } else {
                let mut fs = [0u64; 4];
                // SAFETY: `fs` is 32 writable bytes.
                unsafe { _mm256_storeu_si256(fs.as_mut_ptr().cast(), f) };
                no_move(o ^ fs[i], p ^ fs[i] ^ xs[i])
            };
        }
        n
    }

    /// The leaves below `N` children of `(p, o)` (broadcast in `pp` and `oo`, `mo` its inner
    /// opponent discs), made by the `N` lowest moves of `moves`, which are taken out of it.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn children_v<const N: usize>(
        p: u64,
        o: u64,
        pp: __m256i,
        oo: __m256i,
        mo: __m256i,
        moves: &mut u64,
        no_move: &impl Fn(u64, u64) -> u64,
    ) -> u64 {
        let empty = !(p | o);
        let xs = super::take_lowest::<N>(moves);
        let fs = xs.map(|x| flip_v(pp, mo, x.trailing_zeros() as u8));
        let mut ms = [0u64; N];
        for i in 0..N {
            let cp = _mm256_xor_si256(oo, fs[i]);
            let co = _mm256_xor_si256(pp, _mm256_or_si256(fs[i], _mm256_set1_epi64x(xs[i] as i64)));
            ms[i] = moves_v(cp, co) & empty & !xs[i];
        }
        let mut n = 0;
        for i in 0..N {
            n += if ms[i] != 0 {
                u64::from(ms[i].count_ones())
            } else {
                let f = _mm_cvtsi128_si64(_mm256_castsi256_si128(fs[i])) as u64;
                no_move(o ^ f, p ^ f ^ xs[i])
            };
        }
        n
    }

    /// Perft's leaves two plies below `(p, o)`, whose moves `moves` are not empty: each child
    /// stays in vector registers from its flips to its mobility. A child without a move is
    /// counted by `no_move(child_p, child_o)`.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(crate) fn bulk2(p: u64, o: u64, moves: u64, no_move: impl Fn(u64, u64) -> u64) -> u64 {
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        bulk2_v(p, o, pp, oo, moves, &no_move)
    }

    /// Perft's leaves three plies below `(p, o)`, whose moves `moves` are not empty: the
    /// children are made four at a time (their flips and mobility interleave), then counted by
    /// [`bulk2_v`] from their vectors. A child without a move is counted by `count2`, a
    /// grandchild without one by `no_move`.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(crate) fn bulk3(
        p: u64,
        o: u64,
        mut moves: u64,
        no_move: impl Fn(u64, u64) -> u64,
        count2: impl Fn(u64, u64) -> u64,
    ) -> u64 {
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let mo = _mm256_and_si256(oo, inner());
        let empty = !(p | o);
        let mut n = 0;
        let mut idle = super::Idle::default();
        while moves != 0 {
            let xs = super::take_lowest::<4>(&mut moves);
            // A missing child (x = 0) gets the flips of a1, never used.
            let fs = xs.map(|x| flip_v(pp, mo, x.trailing_zeros() as u8));
            let mut kids = [(_mm256_setzero_si256(), _mm256_setzero_si256(), 0u64); 4];
            for i in 0..4 {
                let cp = _mm256_xor_si256(oo, fs[i]);
                let co =
                    _mm256_xor_si256(pp, _mm256_or_si256(fs[i], _mm256_set1_epi64x(xs[i] as i64)));
                kids[i] = (cp, co, moves_v(cp, co) & empty & !xs[i]);
            }
            for i in 0..4 {
                if xs[i] == 0 {
                    break;
                }
                let (cp, co, m) = kids[i];
                let f = _mm_cvtsi128_si64(_mm256_castsi256_si128(fs[i])) as u64;
                let (a, b) = (o ^ f, p ^ f ^ xs[i]);
                if m == 0 {
                    idle.push(xs[i]);
                } else {
                    n += bulk2_v(a, b, cp, co, m, &no_move);
                }
            }
        }
        n + idle.count(p, o, count2)
    }

    /// [`bulk2`] with `p` and `o` also broadcast in `pp` and `oo`.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn bulk2_v(
        p: u64,
        o: u64,
        pp: __m256i,
        oo: __m256i,
        mut moves: u64,
        no_move: &impl Fn(u64, u64) -> u64,
    ) -> u64 {
        let mo = _mm256_and_si256(oo, inner());
        let empty = !(p | o);
        let mut n = 0;
        // Four children at a time, then two: their dependency chains (flips, then mobility)
        // interleave.
        while moves.count_ones() >= 4 {
            n += children4(p, o, pp, oo, mo, &mut moves, no_move);
        }
        if moves.count_ones() >= 2 {
            n += children_v::<2>(p, o, pp, oo, mo, &mut moves, no_move);
        }
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            let x = moves & moves.wrapping_neg();
            moves ^= x;
            let f = flip_v(pp, mo, sq);
            let cp = _mm256_xor_si256(oo, f);
            let co = _mm256_xor_si256(pp, _mm256_or_si256(f, _mm256_set1_epi64x(x as i64)));
            let m = moves_v(cp, co) & empty & !x;
            n += if m != 0 {
                u64::from(m.count_ones())
            } else {
                let f = _mm_cvtsi128_si64(_mm256_castsi256_si128(f)) as u64;
                no_move(o ^ f, p ^ f ^ x)
            };
        }
        n
    }
}

/// Rays in all eight directions: `[+1, +8, +7, +9, -1, -8, -7, -9]`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct Rays8(pub(crate) [u64; 8]);

#[cfg(target_arch = "x86_64")]
const fn rays8() -> [Rays8; 64] {
    let (up, down) = (rays(true), rays(false));
    let mut t = [Rays8([0; 8]); 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 4 {
            t[sq].0[i] = up[sq].0[i];
            t[sq].0[i + 4] = down[sq].0[i];
            i += 1;
        }
        sq += 1;
    }
    t
}

/// Rays in all eight directions of each square.
#[cfg(target_arch = "x86_64")]
pub(crate) static RAYS8: [Rays8; 64] = rays8();

/// The AVX-512 kernel (x86-64 with the features of [`avx2`] and AVX-512 F, VL, CD, BW, DQ,
/// VPOPCNTDQ): legal moves with the eight directions in one 512-bit vector, flips in two
/// 256-bit ones. Reached only through [`Avx512`].
// The AVX-512 intrinsics are stable since Rust 1.89 (and safe `#[target_feature]` functions
// since 1.86): these modules are why the workspace's `rust-version` is 1.89.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use core::arch::x86_64::*;

    /// Whether this CPU has the features of this module.
    pub(crate) fn available() -> bool {
        super::avx2::available()
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512cd")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512vpopcntdq")
    }

    /// Opponent discs that can be inside a line, per direction `[1, 8, 7, 9]` twice.
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt"
    )]
    fn inner() -> __m512i {
        const D: i64 = 0x007E_7E7E_7E7E_7E00;
        const V: i64 = 0x00FF_FFFF_FFFF_FF00;
        const H: i64 = 0x7E7E_7E7E_7E7E_7E7E;
        _mm512_set_epi64(D, D, V, H, D, D, V, H)
    }

    /// Legal moves: the doubling fill of the portable version in all eight directions at once,
    /// with rotations (the masks of inner discs stop every wrapped bit).
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt"
    )]
    pub(crate) fn moves(p: u64, o: u64) -> u64 {
        let pp = _mm512_set1_epi64(p as i64);
        let mo = _mm512_and_si512(_mm512_set1_epi64(o as i64), inner());
        // Rotations left by [1, 8, 7, 9] and right by the same.
        let d1 = _mm512_set_epi64(55, 57, 56, 63, 9, 7, 8, 1);
        let d2 = _mm512_set_epi64(46, 50, 48, 62, 18, 14, 16, 2);
        // 0xF8: a | (b & c).
        let mut l = _mm512_and_si512(mo, _mm512_rolv_epi64(pp, d1));
        l = _mm512_ternarylogic_epi64::<0xF8>(l, mo, _mm512_rolv_epi64(l, d1));
        let pre = _mm512_and_si512(mo, _mm512_rolv_epi64(mo, d1));
        l = _mm512_ternarylogic_epi64::<0xF8>(l, pre, _mm512_rolv_epi64(l, d2));
        l = _mm512_ternarylogic_epi64::<0xF8>(l, pre, _mm512_rolv_epi64(l, d2));
        let m = _mm512_rolv_epi64(l, d1);
        (_mm512_reduce_or_epi64(m) as u64) & !(p | o)
    }

    /// Flips: the outflanking square of each ray is its lowest (upward rays, `t & -t`) or
    /// highest (downward rays, by `lzcnt`) square that is not an inner opponent disc. The
    /// four upward and the four downward rays are two 256-bit vectors (AVX-512 VL and CD
    /// give `lzcnt` and masks on them): on the Xeon where this was measured, 2.3 ns a flip
    /// against 4.2 ns with one 512-bit vector in a loop of independent flips, 6.9 against
    /// 9.3 ns in a chain of dependent ones (the 512-bit reduction is longer).
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt"
    )]
    pub(crate) fn flip(p: u64, o: u64, sq: u8) -> u64 {
        let r = &super::RAYS8[usize::from(sq & 63)].0;
        // SAFETY: `r` is 64 readable bytes aligned to 64.
        let (up, down) = unsafe {
            (
                _mm256_load_si256(r.as_ptr().cast()),
                _mm256_load_si256(r.as_ptr().add(4).cast()),
            )
        };
        let pp = _mm256_set1_epi64x(p as i64);
        let mo = _mm256_and_si256(
            _mm256_set1_epi64x(o as i64),
            _mm512_castsi512_si256(inner()),
        );
        // Upward: the outflank is the lowest square that is not an inner opponent disc; the
        // flips are the ray below it.
        let t = _mm256_andnot_si256(mo, up);
        let of = _mm256_and_si256(t, _mm256_sub_epi64(_mm256_setzero_si256(), t));
        let f_up = _mm256_maskz_and_epi64(
            _mm256_test_epi64_mask(of, pp),
            up,
            _mm256_add_epi64(of, _mm256_set1_epi64x(-1)),
        );
        // Downward: the outflank is the highest such square; the flips are the ray above it
        // (`!(2 * of - 1)`).
        let t = _mm256_andnot_si256(mo, down);
        let of = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(t));
        let f_down = _mm256_maskz_andnot_epi64(
            _mm256_test_epi64_mask(of, pp),
            _mm256_sub_epi64(_mm256_add_epi64(of, of), _mm256_set1_epi64x(1)),
            down,
        );
        let f = _mm256_or_si256(f_up, f_down);
        let x = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
        _mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x))) as u64
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512_lanes {
    //! Perft's last two plies with one child position per 64-bit lane: eight children of a
    //! node get their flips and their own mobility at once.
    use core::arch::x86_64::*;

    const H: u64 = super::INNER_COLS;
    const V: u64 = super::INNER_ROWS;
    const D: u64 = super::INNER;

    /// `a | (b & c)`.
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt"
    )]
    fn or_and(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        _mm512_ternarylogic_epi64::<0xF8>(a, b, c)
    }

    /// The moves along `+S` and `-S` of movers `p` against inner opponent discs `mo`, per lane.
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt"
    )]
    fn moves_pair<const S: u32, const S2: u32>(p: __m512i, mo: __m512i) -> __m512i {
        let mut r = _mm512_and_si512(mo, _mm512_srli_epi64::<S>(p));
        let pre_r = _mm512_and_si512(mo, _mm512_srli_epi64::<S>(mo));
        r = or_and(r, mo, _mm512_srli_epi64::<S>(r));
        r = or_and(r, pre_r, _mm512_srli_epi64::<S2>(r));
        r = or_and(r, pre_r, _mm512_srli_epi64::<S2>(r));
        let l = if S == 1 {
            // Towards higher bits along a row, an addition: each run of opponent discs that
            // follows a mover's disc carries into the square after it (inner columns only, so
            // the carry stays in its row). Not every such square is empty: the caller keeps
            // the empty ones.
            let starts = _mm512_and_si512(mo, _mm512_add_epi64(p, p));
            _mm512_andnot_si512(mo, _mm512_add_epi64(mo, starts))
        } else {
            let mut l = _mm512_and_si512(mo, _mm512_slli_epi64::<S>(p));
            // `mo & mo << S`, one shift of `pre_r` (whose low bits were `mo`'s).
            let pre = _mm512_slli_epi64::<S>(pre_r);
            l = or_and(l, mo, _mm512_slli_epi64::<S>(l));
            l = or_and(l, pre, _mm512_slli_epi64::<S2>(l));
            l = or_and(l, pre, _mm512_slli_epi64::<S2>(l));
            _mm512_slli_epi64::<S>(l)
        };
        _mm512_or_si512(l, _mm512_srli_epi64::<S>(r))
    }

    /// The legal moves of eight positions, one per lane.
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt"
    )]
    fn moves8(p: __m512i, o: __m512i) -> __m512i {
        let h = moves_pair::<1, 2>(p, _mm512_and_si512(o, _mm512_set1_epi64(H as i64)));
        let v = moves_pair::<8, 16>(p, _mm512_and_si512(o, _mm512_set1_epi64(V as i64)));
        let od = _mm512_and_si512(o, _mm512_set1_epi64(D as i64));
        let d7 = moves_pair::<7, 14>(p, od);
        let d9 = moves_pair::<9, 18>(p, od);
        // 0xFE: a | b | c; then 0x02: !a & !b & c, the empty squares among the moves.
        let m = _mm512_ternarylogic_epi64::<0xFE>(h, v, _mm512_or_si512(d7, d9));
        _mm512_ternarylogic_epi64::<0x02>(p, o, m)
    }

    /// Perft's leaves two plies below `(p, o)`, whose moves `moves` are not empty. A child
    /// without a move is counted by `no_move(child_p, child_o)`.
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt"
    )]
    pub(crate) fn bulk2(p: u64, o: u64, mut moves: u64, no_move: impl Fn(u64, u64) -> u64) -> u64 {
        let pp = _mm512_set1_epi64(p as i64);
        let oo = _mm512_set1_epi64(o as i64);
        let mut total = _mm512_setzero_si512();
        let mut extra = 0;
        while moves != 0 {
            let xs = super::take_lowest::<8>(&mut moves);
            // SAFETY: `xs` is 64 readable bytes.
            let x = unsafe { _mm512_loadu_si512(xs.as_ptr().cast()) };
            let valid = _mm512_test_epi64_mask(x, x);
            // SAFETY: this function has the features.
            extra += unsafe { lanes8(&mut total, pp, oo, x, valid, &no_move) };
        }
        _mm512_reduce_add_epi64(total) as u64 + extra
    }

    /// The lines through the squares, 64-byte aligned, for lookups by lane from a move's
    /// leading-zero count `z = 63 - square` (so `z >> 3 = 7 - row`, `z & 7 = 7 - col`): rows
    /// by `z >> 3`, columns by `z & 7`, then the diagonals along `+9` by `row - col` modulo 16
    /// and those along `+7` by `14 - row - col` (a permute reads only the index bits it needs).
    #[repr(C, align(64))]
    struct Lines([[u64; 8]; 6]);

    static LINES: Lines = {
        let mut t = [[0u64; 8]; 6];
        let mut sq = 0;
        while sq < 64 {
            let (row, col) = (sq / 8, sq % 8);
            let bit = 1u64 << sq;
            t[0][7 - row] |= bit;
            t[1][7 - col] |= bit;
            let d9 = (row + 16 - col) % 16;
            t[2 + d9 / 8][d9 % 8] |= bit;
            let d7 = 14 - row - col;
            t[4 + d7 / 8][d7 % 8] |= bit;
            sq += 1;
        }
        Lines(t)
    };

    /// The flips along the ray `up` (the squares of a line above the move, towards higher
    /// bits), added to `f` where they are flips: the ray's lowest square that is not the
    /// opponent's, if the mover's, ends the run.
    #[inline(always)]
    unsafe fn flips_up(f: __m512i, up: __m512i, p: __m512i, o: __m512i) -> __m512i {
        // SAFETY: the caller's CPU has the features.
        unsafe {
            let t = _mm512_andnot_si512(o, up);
            let low = _mm512_and_si512(t, _mm512_sub_epi64(_mm512_setzero_si512(), t));
            let k = _mm512_test_epi64_mask(low, p);
            let run = _mm512_and_si512(up, _mm512_sub_epi64(low, _mm512_set1_epi64(1)));
            _mm512_mask_or_epi64(f, k, f, run)
        }
    }

    /// As [`flips_up`] for the ray `down` (towards lower bits): its highest square that is
    /// not the opponent's (found by a leading-zero count) ends the run.
    #[inline(always)]
    unsafe fn flips_down(f: __m512i, down: __m512i, p: __m512i, o: __m512i) -> __m512i {
        // SAFETY: the caller's CPU has the features.
        unsafe {
            let t = _mm512_andnot_si512(o, down);
            let high = _mm512_srlv_epi64(_mm512_set1_epi64(i64::MIN), _mm512_lzcnt_epi64(t));
            let k = _mm512_test_epi64_mask(high, p);
            let above = _mm512_sub_epi64(_mm512_setzero_si512(), _mm512_add_epi64(high, high));
            _mm512_mask_or_epi64(f, k, f, _mm512_and_si512(down, above))
        }
    }

    /// The flips of the moves `x` (one bit per lane, 0 in an unused lane) of movers `p`
    /// against opponents `o`: each lane's four lines through its move are looked up, and each
    /// ray is cut at its first square that is not the opponent's.
    #[inline(always)]
    unsafe fn flips8(p: __m512i, o: __m512i, x: __m512i) -> __m512i {
        // SAFETY: the caller's CPU has the features; `LINES` is 384 bytes aligned to 64.
        unsafe {
            let t = LINES.0.as_ptr();
            let z = _mm512_lzcnt_epi64(x);
            let (r, c) = (
                _mm512_srli_epi64::<3>(z),
                _mm512_and_si512(z, _mm512_set1_epi64(7)),
            );
            let rows = _mm512_permutexvar_epi64(r, _mm512_load_si512(t.cast()));
            let cols = _mm512_permutexvar_epi64(z, _mm512_load_si512(t.add(1).cast()));
            let d9 = _mm512_permutex2var_epi64(
                _mm512_load_si512(t.add(2).cast()),
                _mm512_sub_epi64(c, r),
                _mm512_load_si512(t.add(3).cast()),
            );
            let d7 = _mm512_permutex2var_epi64(
                _mm512_load_si512(t.add(4).cast()),
                _mm512_add_epi64(c, r),
                _mm512_load_si512(t.add(5).cast()),
            );
            let above = _mm512_sub_epi64(_mm512_setzero_si512(), _mm512_add_epi64(x, x));
            let below = _mm512_sub_epi64(x, _mm512_set1_epi64(1));
            let mut f = _mm512_setzero_si512();
            f = flips_up(f, _mm512_and_si512(rows, above), p, o);
            f = flips_up(f, _mm512_and_si512(cols, above), p, o);
            f = flips_up(f, _mm512_and_si512(d9, above), p, o);
            f = flips_up(f, _mm512_and_si512(d7, above), p, o);
            f = flips_down(f, _mm512_and_si512(rows, below), p, o);
            f = flips_down(f, _mm512_and_si512(cols, below), p, o);
            f = flips_down(f, _mm512_and_si512(d9, below), p, o);
            flips_down(f, _mm512_and_si512(d7, below), p, o)
        }
    }

    /// The children of eight (node, move) pairs, one per lane (`x` holds one move bit per lane,
    /// 0 in an unused lane): the children's movers, their opponents and their legal moves.
    ///
    /// # Safety
    ///
    /// The CPU has the features of [`available`]. (No `target_feature` here, so that it can be
    /// `inline(always)`: its callers have the features, and it is inlined into them. Left to
    /// itself the compiler calls it, passing and returning its vectors through memory.)
    #[inline(always)]
    unsafe fn children8(p: __m512i, o: __m512i, x: __m512i) -> (__m512i, __m512i, __m512i) {
        // SAFETY: the caller's CPU has the features.
        unsafe {
            let f = flips8(p, o, x);
            let cp = _mm512_xor_si512(o, f);
            let co = _mm512_ternarylogic_epi64::<0x96>(p, f, x);
            (cp, co, moves8(cp, co))
        }
    }

    /// The children made by the (up to) eight lowest moves of `moves` from the node broadcast in
    /// `pp` and `oo`, which are taken out of `moves`: their moves, movers, opponents and legal
    /// moves, one array each (a move of 0 marks the end when fewer than eight were left).
    ///
    /// # Safety
    ///
    /// As for [`children8`].
    #[inline(always)]
    unsafe fn next_children8(pp: __m512i, oo: __m512i, moves: &mut u64) -> [[u64; 8]; 4] {
        // SAFETY: the caller's CPU has the features.
        unsafe {
            let xs = super::take_lowest::<8>(moves);
            // SAFETY: `xs` is 64 readable bytes.
            let x = _mm512_loadu_si512(xs.as_ptr().cast());
            let (cp, co, cm) = children8(pp, oo, x);
            [xs, lanes_of(cp), lanes_of(co), lanes_of(cm)]
        }
    }

    /// Flips, children and their mobility for eight (node, move) pairs, one per lane: adds the
    /// children's move counts to `total` and returns the count of the children without a move.
    ///
    /// # Safety
    ///
    /// As for [`children8`].
    #[inline(always)]
    unsafe fn lanes8(
        total: &mut __m512i,
        p: __m512i,
        o: __m512i,
        x: __m512i,
        valid: __mmask8,
        no_move: &impl Fn(u64, u64) -> u64,
    ) -> u64 {
        // SAFETY: the caller's CPU has the features.
        unsafe {
            let (cp, co, m) = children8(p, o, x);
            *total = _mm512_mask_add_epi64(*total, valid, *total, _mm512_popcnt_epi64(m));
            let stuck = _mm512_mask_testn_epi64_mask(valid, m, m);
            let mut extra = 0;
            if stuck != 0 {
                let (ps, os) = (lanes_of(cp), lanes_of(co));
                each_lane(stuck, |i| extra += no_move(ps[i], os[i]));
            }
            extra
        }
    }

    /// The eight lanes of `v`.
    ///
    /// # Safety
    ///
    /// As for [`children8`].
    #[inline(always)]
    unsafe fn lanes_of(v: __m512i) -> [u64; 8] {
        let mut a = [0u64; 8];
        // SAFETY: the caller's CPU has the features; `a` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(a.as_mut_ptr().cast(), v) };
        a
    }

    /// Calls `f` with the index of each lane of `mask`, lowest first.
    #[inline(always)]
    fn each_lane(mask: __mmask8, mut f: impl FnMut(usize)) {
        let mut k = mask;
        while k != 0 {
            f(k.trailing_zeros() as usize);
            k &= k - 1;
        }
    }

    /// Whether this CPU also has AVX-512 VBMI and VBMI2, which [`bulk3_vbmi2`] needs.
    pub(crate) fn vbmi2() -> bool {
        std::is_x86_feature_detected!("avx512vbmi") && std::is_x86_feature_detected!("avx512vbmi2")
    }

    /// The squares 0 to 63, one per byte.
    static SQUARES: [u8; 64] = {
        let mut t = [0u8; 64];
        let mut i = 0;
        while i < 64 {
            t[i] = i as u8;
            i += 1;
        }
        t
    };

    /// (Position, move) pairs waiting for a batch of eight lanes, on CPUs with AVX-512 VBMI2:
    /// a position's moves enter the lanes eight at a time (their squares compressed out of its
    /// move mask, then expanded into the free lanes). Lanes below `lane` are filled; each lane
    /// also carries a tag, `vj`, which the caller gives with the position (where it came from).
    #[derive(Clone, Copy)]
    struct Pending {
        vp: __m512i,
        vo: __m512i,
        vx: __m512i,
        vj: __m512i,
        lane: u32,
    }

    impl Pending {
        /// No pair waiting.
        ///
        /// # Safety
        ///
        /// The CPU has the features of [`bulk3_vbmi2`].
        #[inline(always)]
        unsafe fn new() -> Pending {
            // SAFETY: the caller's CPU has the features.
            let zero = unsafe { _mm512_setzero_si512() };
            Pending {
                vp: zero,
                vo: zero,
                vx: zero,
                vj: zero,
                lane: 0,
            }
        }

        /// Puts the moves `ma` (not empty) of the position `(a, b)`, tagged `j`, into the
        /// lanes; whenever all eight are filled, hands them to `batch` (mask `0xFF`).
        /// `squares` holds [`SQUARES`].
        ///
        /// # Safety
        ///
        /// As for [`Pending::new`].
        #[inline(always)]
        unsafe fn feed(
            &mut self,
            a: u64,
            b: u64,
            ma: u64,
            j: u64,
            squares: __m512i,
            batch: &mut impl Batch,
        ) {
            // SAFETY: the caller's CPU has the features.
            unsafe {
                let one = _mm512_set1_epi64(1);
                let (va, vb) = (_mm512_set1_epi64(a as i64), _mm512_set1_epi64(b as i64));
                let vt = _mm512_set1_epi64(j as i64);
                // The position's move squares in order, one per byte; eight at a time below.
                let mut sqs = _mm512_maskz_compress_epi8(ma, squares);
                let mut left = ma.count_ones();
                loop {
                    let ys =
                        _mm512_sllv_epi64(one, _mm512_cvtepu8_epi64(_mm512_castsi512_si128(sqs)));
                    let t = left.min(8);
                    let room = 8 - self.lane;
                    let k = ((((1u32 << t) - 1) << self.lane) & 0xFF) as __mmask8;
                    self.vx = _mm512_mask_expand_epi64(self.vx, k, ys);
                    self.vp = _mm512_mask_mov_epi64(self.vp, k, va);
                    self.vo = _mm512_mask_mov_epi64(self.vo, k, vb);
                    self.vj = _mm512_mask_mov_epi64(self.vj, k, vt);
                    if t >= room {
                        batch.lanes(self.vp, self.vo, self.vx, self.vj, 0xFF);
                        // The moves of this chunk that did not fit start the next batch.
                        self.vx =
                            _mm512_maskz_compress_epi64(((0xFFu32 << room) & 0xFF) as __mmask8, ys);
                        self.vp = va;
                        self.vo = vb;
                        self.vj = vt;
                        self.lane = t - room;
                    } else {
                        self.lane += t;
                    }
                    if left <= 8 {
                        break;
                    }
                    left -= 8;
                    sqs = _mm512_alignr_epi64::<1>(_mm512_setzero_si512(), sqs);
                }
            }
        }

        /// Hands the lanes still filled, if any, to `batch` with the mask of those lanes.
        ///
        /// # Safety
        ///
        /// As for [`Pending::new`].
        #[inline(always)]
        unsafe fn finish(self, batch: &mut impl Batch) {
            if self.lane > 0 {
                let valid = ((1u32 << self.lane) - 1) as __mmask8;
                // SAFETY: the caller's CPU has the features.
                unsafe { batch.lanes(self.vp, self.vo, self.vx, self.vj, valid) };
            }
        }
    }

    /// What is done with a batch of (position, move) pairs, one per lane.
    trait Batch {
        /// Takes the lanes of `valid` (the lowest ones): movers `vp`, opponents `vo`, one move
        /// bit each in `vx`, and the tags `vj`.
        ///
        /// # Safety
        ///
        /// As for [`Pending::new`].
        unsafe fn lanes(
            &mut self,
            vp: __m512i,
            vo: __m512i,
            vx: __m512i,
            vj: __m512i,
            valid: __mmask8,
        );
    }

    /// The last ply's batch: counts the children's moves into `total` (a child without a move
    /// by `no_move`, into `extra`).
    struct Count<F> {
        total: __m512i,
        extra: u64,
        no_move: F,
    }

    impl<F: Fn(u64, u64) -> u64> Count<F> {
        /// Nothing counted yet.
        ///
        /// # Safety
        ///
        /// As for [`Pending::new`].
        #[inline(always)]
        unsafe fn new(no_move: F) -> Self {
            Count {
                // SAFETY: the caller's CPU has the features.
                total: unsafe { _mm512_setzero_si512() },
                extra: 0,
                no_move,
            }
        }

        /// All that was counted.
        ///
        /// # Safety
        ///
        /// As for [`Pending::new`].
        #[inline(always)]
        unsafe fn sum(&self) -> u64 {
            // SAFETY: the caller's CPU has the features.
            unsafe { _mm512_reduce_add_epi64(self.total) as u64 + self.extra }
        }
    }

    impl<F: Fn(u64, u64) -> u64> Batch for Count<F> {
        #[inline(always)]
        unsafe fn lanes(&mut self, vp: __m512i, vo: __m512i, vx: __m512i, _: __m512i, v: __mmask8) {
            // SAFETY: the caller's CPU has the features.
            self.extra += unsafe { lanes8(&mut self.total, vp, vo, vx, v, &self.no_move) };
        }
    }

    /// The batch one ply above the last in [`bulk4_vbmi2`]: makes the children and hands
    /// their (child, move) pairs to `last`. The moves whose children have no move are kept in
    /// `idle`, by the tag of their parent.
    struct Make<F> {
        last: Pending,
        count: Count<F>,
        squares: __m512i,
        idle: [super::Idle; 64],
    }

    impl<F: Fn(u64, u64) -> u64> Batch for Make<F> {
        #[inline(always)]
        unsafe fn lanes(
            &mut self,
            vp: __m512i,
            vo: __m512i,
            vx: __m512i,
            vj: __m512i,
            v: __mmask8,
        ) {
            // SAFETY: the caller's CPU has the features.
            unsafe {
                let (cp, co, cm) = children8(vp, vo, vx);
                let (ps, os, ms) = (lanes_of(cp), lanes_of(co), lanes_of(cm));
                let stuck = _mm512_mask_testn_epi64_mask(v, cm, cm);
                if stuck != 0 {
                    let (xs, js) = (lanes_of(vx), lanes_of(vj));
                    each_lane(stuck, |i| self.idle[js[i] as usize & 63].push(xs[i]));
                }
                for i in 0..v.count_ones() as usize {
                    if ms[i] != 0 {
                        self.last
                            .feed(ps[i], os[i], ms[i], 0, self.squares, &mut self.count);
                    }
                }
            }
        }
    }

    /// [`bulk3`] on CPUs with AVX-512 VBMI2, which fill the lanes eight moves at a time (see
    /// [`Pending`]), where [`bulk3`] places each (grandchild, move) pair with three masked
    /// broadcasts.
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx512vbmi,avx512vbmi2,avx2,bmi1,bmi2,popcnt,lzcnt"
    )]
    pub(crate) fn bulk3_vbmi2(
        p: u64,
        o: u64,
        moves: u64,
        no_move: impl Fn(u64, u64) -> u64,
        count2: impl Fn(u64, u64) -> u64,
    ) -> u64 {
        let (pp, oo) = (_mm512_set1_epi64(p as i64), _mm512_set1_epi64(o as i64));
        // SAFETY: `SQUARES` is 64 readable bytes.
        let squares = unsafe { _mm512_loadu_si512(SQUARES.as_ptr().cast()) };
        // SAFETY: this function has the features (for the block's every call).
        unsafe {
            let mut pending = Pending::new();
            let mut count = Count::new(no_move);
            let idle = feed_children(pp, oo, moves, squares, &mut pending, &mut count, |_, _| 0);
            pending.finish(&mut count);
            count.sum() + idle.count(p, o, count2)
        }
    }

    /// Feeds the (child, move) pairs of every child of the node broadcast in `pp` and `oo`
    /// (whose moves are `moves`) into `pending`, which hands its full batches to `batch`; each
    /// child's pairs are tagged `tag(child_p, child_o)`. The moves whose children have no move
    /// are returned instead.
    ///
    /// # Safety
    ///
    /// As for [`Pending::new`].
    #[inline(always)]
    unsafe fn feed_children(
        pp: __m512i,
        oo: __m512i,
        mut moves: u64,
        squares: __m512i,
        pending: &mut Pending,
        batch: &mut impl Batch,
        mut tag: impl FnMut(u64, u64) -> u64,
    ) -> super::Idle {
        let mut idle = super::Idle::default();
        // SAFETY: the caller's CPU has the features.
        unsafe {
            while moves != 0 {
                let [xs, ps, os, ms] = next_children8(pp, oo, &mut moves);
                for i in 0..8 {
                    if xs[i] == 0 {
                        break;
                    }
                    if ms[i] == 0 {
                        idle.push(xs[i]);
                    } else {
                        let j = tag(ps[i], os[i]);
                        pending.feed(ps[i], os[i], ms[i], j, squares, batch);
                    }
                }
            }
        }
        idle
    }

    /// Perft's leaves four plies below `(p, o)`, whose moves `moves` are not empty, on CPUs
    /// with AVX-512 VBMI2: the lanes stay full across the children. The (grandchild, move)
    /// pairs of all children fill one set of lanes, which makes the grandchildren's children;
    /// their (great-grandchild, move) pairs fill a second set, which counts their moves. A
    /// child without a move is counted by `count3` (its leaves three plies down), a grandchild
    /// without one by `count2`, a great-grandchild without one by `no_move`.
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx512vbmi,avx512vbmi2,avx2,bmi1,bmi2,popcnt,lzcnt"
    )]
    pub(crate) fn bulk4_vbmi2(
        p: u64,
        o: u64,
        moves: u64,
        no_move: impl Fn(u64, u64) -> u64,
        count2: impl Fn(u64, u64) -> u64,
        count3: impl Fn(u64, u64) -> u64,
    ) -> u64 {
        let (pp, oo) = (_mm512_set1_epi64(p as i64), _mm512_set1_epi64(o as i64));
        // SAFETY: `SQUARES` is 64 readable bytes.
        let squares = unsafe { _mm512_loadu_si512(SQUARES.as_ptr().cast()) };
        // The children with moves (at most 64, one per move), whose index tags their moves in
        // the lanes.
        let mut kids = [(0u64, 0u64); 64];
        let mut n_kids = 0;
        // SAFETY: this function has the features (for the block's every call).
        unsafe {
            let mut first = Pending::new();
            let mut make = Make {
                last: Pending::new(),
                count: Count::new(no_move),
                squares,
                idle: [super::Idle::default(); 64],
            };
            let idle = feed_children(pp, oo, moves, squares, &mut first, &mut make, |a, b| {
                kids[n_kids & 63] = (a, b);
                n_kids += 1;
                n_kids as u64 - 1
            });
            first.finish(&mut make);
            make.last.finish(&mut make.count);
            let mut n = make.count.sum() + idle.count(p, o, count3);
            for (&(a, b), idle) in kids.iter().zip(&make.idle).take(n_kids) {
                n += idle.count(a, b, &count2);
            }
            n
        }
    }

    /// Perft's leaves three plies below `(p, o)`, whose moves `moves` are not empty: the
    /// (grandchild, move) pairs of all children fill the lanes. A child without a move is
    /// counted by `count2` (its leaves two plies down), a grandchild without one by `no_move`.
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt"
    )]
    pub(crate) fn bulk3(
        p: u64,
        o: u64,
        mut moves: u64,
        no_move: impl Fn(u64, u64) -> u64,
        count2: impl Fn(u64, u64) -> u64,
    ) -> u64 {
        let (pp, oo) = (_mm512_set1_epi64(p as i64), _mm512_set1_epi64(o as i64));
        let (mut vp, mut vo, mut vx) = (
            _mm512_setzero_si512(),
            _mm512_setzero_si512(),
            _mm512_setzero_si512(),
        );
        let mut total = _mm512_setzero_si512();
        let mut lane = 0u32;
        let mut extra = 0;
        let mut idle = super::Idle::default();
        while moves != 0 {
            // Eight children at a time, then their (grandchild, move) pairs into the lanes.
            // SAFETY: this function has the features.
            let [xs, ps, os, ms] = unsafe { next_children8(pp, oo, &mut moves) };
            for i in 0..8 {
                if xs[i] == 0 {
                    break;
                }
                let (a, b, mut ma) = (ps[i], os[i], ms[i]);
                if ma == 0 {
                    idle.push(xs[i]);
                    continue;
                }
                while ma != 0 {
                    let y = ma & ma.wrapping_neg();
                    ma ^= y;
                    let k: __mmask8 = 1 << lane;
                    vp = _mm512_mask_set1_epi64(vp, k, a as i64);
                    vo = _mm512_mask_set1_epi64(vo, k, b as i64);
                    vx = _mm512_mask_set1_epi64(vx, k, y as i64);
                    lane += 1;
                    if lane == 8 {
                        // SAFETY: this function has the features.
                        extra += unsafe { lanes8(&mut total, vp, vo, vx, 0xFF, &no_move) };
                        lane = 0;
                    }
                }
            }
        }
        if lane > 0 {
            // SAFETY: this function has the features.
            extra +=
                unsafe { lanes8(&mut total, vp, vo, vx, ((1u32 << lane) - 1) as u8, &no_move) };
        }
        _mm512_reduce_add_epi64(total) as u64 + extra + idle.count(p, o, count2)
    }
}
