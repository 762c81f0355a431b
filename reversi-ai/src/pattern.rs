//! The trained pattern evaluation of the Expert level: weights per game stage for pattern
//! features (edges with X-squares, corners 3x3 and 2x5, diagonals of 4 to 8 squares, rows and
//! columns 2 to 4) and a mobility term, giving a score in discs for the side to move.
//!
//! Every orientation of a pattern shares one table of weights: the board is reflected and turned
//! so that each instance of a pattern reads its squares in the same order. A pattern instance's
//! index is its squares read in base 3 (0 empty, 1 the mover's, 2 the opponent's).
//!
//! A weights file is a header (magic `RVPW`, format version, stage count, weights per stage), the
//! weights as little-endian `i16` in 1/[`UNITS_PER_DISC`] disc, and an FNV-1a 64-bit checksum of
//! all the bytes before it. [`Weights::from_bytes`] checks every part and gives a typed
//! [`WeightsError`].
//!
//! Where the Expert level and the hints find their weights: [`Weights::active`], the weights a
//! program installed at run time with [`Weights::install`] (a WebAssembly module, built without
//! the 5 MB file, is handed the bytes by its host), else the ones built into the library
//! ([`Weights::embedded`], feature `embedded-weights`).

use crate::bits::{legal, TERNARY};
use crate::probcut::ProbCut;

/// Weights are stored and scores computed in 1/`UNITS_PER_DISC` of a disc.
pub const UNITS_PER_DISC: i32 = 256;

/// The bound of [`Weights::eval`]: 64 discs, a whole board, in 1/[`UNITS_PER_DISC`] disc.
/// The sum of the weights can go beyond it in positions far from any the weights were fitted
/// on (a side with a few discs left), where it would mean more than a finished game can give
/// and, in a search, more than its infinite window.
pub const EVAL_BOUND: i32 = 64 * UNITS_PER_DISC;

/// Game stages: stage `s` holds the positions with `4s..=4s+3` empty squares (59 and 60 share
/// the last stage).
pub const STAGES: usize = 15;

/// The stage of a position with `empties` empty squares.
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::{stage, STAGES};
/// assert_eq!(stage(0), 0);
/// assert_eq!(stage(13), 3);
/// assert_eq!(stage(60), STAGES - 1);
/// ```
#[must_use]
pub const fn stage(empties: u32) -> usize {
    let e = if empties > 59 { 59 } else { empties };
    (e / 4) as usize
}

/// The newest format version of a weights file: version 2 adds the Multi-ProbCut parameters
/// ([`ProbCut`]) after the weights, version 3 the shallow depth that each depth's parameters
/// were fitted for ([`ProbCut::shallow`]), version 4 the endgame's cuts ([`ProbCut::end`]);
/// files of versions 1 (weights alone), 2 (paired by
/// [`crate::probcut::legacy_shallow_depth`]) and 3 are still read.
pub const FORMAT_VERSION: u32 = 4;
const MAGIC: &[u8; 4] = b"RVPW";
const HEADER: usize = 16;

/// The pattern kinds: squares in reading order (on the canonical orientation).
const fn kind_squares() -> [&'static [u8]; KINDS] {
    [
        // Rows 2, 3 and 4 (each read a to h).
        &[8, 9, 10, 11, 12, 13, 14, 15],
        &[16, 17, 18, 19, 20, 21, 22, 23],
        &[24, 25, 26, 27, 28, 29, 30, 31],
        // Diagonals of 8, 7, 6, 5 and 4 squares (read by column).
        &[0, 9, 18, 27, 36, 45, 54, 63],
        &[1, 10, 19, 28, 37, 46, 55],
        &[2, 11, 20, 29, 38, 47],
        &[3, 12, 21, 30, 39],
        &[4, 13, 22, 31],
        // The edge with its two X-squares.
        &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        // The corner 3x3.
        &[0, 1, 2, 8, 9, 10, 16, 17, 18],
        // The corner 2x5.
        &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    ]
}

/// Number of pattern kinds.
pub const KINDS: usize = 11;
const SQUARES: [&[u8]; KINDS] = kind_squares();

const fn pow3(n: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

/// Offsets of each kind's table within a stage, then the dense terms.
const OFFSETS: [usize; KINDS + 1] = {
    let mut o = [0usize; KINDS + 1];
    let mut k = 0;
    while k < KINDS {
        o[k + 1] = o[k] + pow3(SQUARES[k].len());
        k += 1;
    }
    o
};

/// Index of the mobility weight (per move of difference) within a stage.
const MOBILITY: usize = OFFSETS[KINDS];
/// Index of the constant term within a stage.
const BIAS: usize = MOBILITY + 1;
/// Number of weights of one stage.
pub const PER_STAGE: usize = BIAS + 1;
/// Number of pattern instances on a board.
pub const INSTANCES: usize = 46;

#[inline(always)]
fn mirror_columns(mut x: u64) -> u64 {
    x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
    x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
    ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

#[inline(always)]
fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The eight orientations of a board: identity, rows reversed, columns reversed, both; and the
/// same four of the transposed board.
#[inline(always)]
fn orientations(b: u64) -> [u64; 8] {
    let v = b.swap_bytes();
    let h = mirror_columns(b);
    let vh = h.swap_bytes();
    let t = transpose(b);
    let tv = t.swap_bytes();
    let th = mirror_columns(t);
    let tvh = th.swap_bytes();
    [b, v, h, vh, t, tv, th, tvh]
}

const MAIN_DIAG: u64 = 0x8040_2010_0804_0201;
const BYTE_GATHER: u64 = 0x0101_0101_0101_0101;

/// The squares of a diagonal with one square per column, gathered by column into one byte.
#[inline(always)]
fn gather_diag(b: u64, mask: u64) -> u32 {
    ((b & mask).wrapping_mul(BYTE_GATHER) >> 56) as u32
}

/// The diagonal `k` columns to the right of the main one (`col = row + k`).
const fn upper(k: u32) -> u64 {
    let mut m = 0u64;
    let mut r = 0;
    while r + k < 8 {
        m |= 1 << (r * 8 + r + k);
        r += 1;
    }
    m
}

/// The diagonal `k` rows below the main one (`row = col + k`).
const fn lower(k: u32) -> u64 {
    let mut m = 0u64;
    let mut c = 0;
    while c + k < 8 {
        m |= 1 << ((c + k) * 8 + c);
        c += 1;
    }
    m
}

const UPPER: [u64; 5] = [MAIN_DIAG, upper(1), upper(2), upper(3), upper(4)];
const LOWER: [u64; 5] = [MAIN_DIAG, lower(1), lower(2), lower(3), lower(4)];

/// Calls `f(kind, bits)` for each of the [`INSTANCES`] pattern instances of board `b`, `bits`
/// holding the instance's squares in reading order (bit `i` = square `i` of the kind).
#[cfg(test)]
fn for_each_instance(b: u64, mut f: impl FnMut(usize, u32)) {
    let s = orientations(b);
    // Rows 2-4: the row on the board, its mirror row, and the two columns.
    for &x in &[s[0], s[1], s[4], s[5]] {
        f(0, ((x >> 8) & 0xFF) as u32);
        f(1, ((x >> 16) & 0xFF) as u32);
        f(2, ((x >> 24) & 0xFF) as u32);
        // The edge and its X-squares.
        f(
            8,
            (x & 0xFF) as u32 | (((x >> 9) & 1) << 8) as u32 | (((x >> 14) & 1) << 9) as u32,
        );
    }
    // Diagonals: on the board and on its mirror (the anti-diagonals become main diagonals).
    for &x in &[s[0], s[2]] {
        f(3, gather_diag(x, MAIN_DIAG));
        for k in 1..5usize {
            f(3 + k, gather_diag(x, UPPER[k]) >> k);
            f(3 + k, gather_diag(x, LOWER[k]));
        }
    }
    // Corners 3x3: the four corners brought to a1.
    for &x in &s[..4] {
        f(
            9,
            (x & 7) as u32 | (((x >> 8) & 7) << 3) as u32 | (((x >> 16) & 7) << 6) as u32,
        );
    }
    // Corners 2x5: along the rows and, transposed, along the columns.
    for &x in &s {
        f(10, (x & 0x1F) as u32 | (((x >> 8) & 0x1F) << 5) as u32);
    }
}

/// Calls `f(index)` for each of the [`INSTANCES`] pattern instances of the position (`p` the
/// mover's discs, `o` the opponent's), `index` being the instance's weight within a stage. The
/// same instances in the same order as [`for_each_instance`] reads them, both boards at once.
#[inline(always)]
fn for_each_index(p: u64, o: u64, mut f: impl FnMut(usize)) {
    #[inline(always)]
    fn t(k: usize, pb: u64, ob: u64) -> usize {
        OFFSETS[k] + TERNARY[pb as usize] as usize + 2 * TERNARY[ob as usize] as usize
    }
    #[inline(always)]
    fn edge(x: u64) -> u64 {
        (x & 0xFF) | (((x >> 9) & 1) << 8) | (((x >> 14) & 1) << 9)
    }
    #[inline(always)]
    fn c33(x: u64) -> u64 {
        (x & 7) | (((x >> 8) & 7) << 3) | (((x >> 16) & 7) << 6)
    }
    #[inline(always)]
    fn c25(x: u64) -> u64 {
        (x & 0x1F) | (((x >> 8) & 0x1F) << 5)
    }
    let sp = orientations(p);
    let so = orientations(o);
    for i in [0, 1, 4, 5] {
        let (x, y) = (sp[i], so[i]);
        f(t(0, (x >> 8) & 0xFF, (y >> 8) & 0xFF));
        f(t(1, (x >> 16) & 0xFF, (y >> 16) & 0xFF));
        f(t(2, (x >> 24) & 0xFF, (y >> 24) & 0xFF));
        f(t(8, edge(x), edge(y)));
    }
    for i in [0, 2] {
        let (x, y) = (sp[i], so[i]);
        f(t(
            3,
            u64::from(gather_diag(x, MAIN_DIAG)),
            u64::from(gather_diag(y, MAIN_DIAG)),
        ));
        for k in 1..5usize {
            f(t(
                3 + k,
                u64::from(gather_diag(x, UPPER[k]) >> k),
                u64::from(gather_diag(y, UPPER[k]) >> k),
            ));
            f(t(
                3 + k,
                u64::from(gather_diag(x, LOWER[k])),
                u64::from(gather_diag(y, LOWER[k])),
            ));
        }
    }
    for i in 0..4 {
        f(t(9, c33(sp[i]), c33(so[i])));
    }
    for i in 0..8 {
        f(t(10, c25(sp[i]), c25(so[i])));
    }
}

/// The feature indices of a position (`p` the mover's discs, `o` the opponent's) within a
/// stage's weights: one per pattern instance. Training code uses them; the evaluation sums the
/// weights at these indices.
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::{features, INSTANCES, PER_STAGE};
/// use reversi_core::Position;
/// let pos = Position::initial();
/// let f = features(pos.player().0, pos.opponent().0);
/// assert_eq!(f.len(), INSTANCES);
/// assert!(f.iter().all(|&i| (i as usize) < PER_STAGE));
/// ```
#[must_use]
pub fn features(p: u64, o: u64) -> [u32; INSTANCES] {
    let mut out = [0u32; INSTANCES];
    out.copy_from_slice(&view(p, o)[..INSTANCES]);
    out
}

/// Pattern instances padded to a whole number of vector lanes (the padding lanes stay 0).
pub(crate) const LANES: usize = 48;
const _: () = assert!(LANES >= INSTANCES);

/// The feature indices of a position ([`features`]) padded to [`LANES`]: the view of the
/// position from the side owning `p`.
pub(crate) type View = [u32; LANES];

/// [`features`] of (`p`, `o`) as a [`View`].
#[inline(always)]
pub(crate) fn view(p: u64, o: u64) -> View {
    let mut out = [0u32; LANES];
    let mut n = 0;
    for_each_index(p, o, |i| {
        out[n] = i as u32;
        n += 1;
    });
    out
}

/// For each square, how every instance's index grows when the square's digit grows by one:
/// `3^i` at the instances holding the square as their `i`-th square, 0 elsewhere.
pub(crate) struct SquareDeltas([View; 64]);

/// The [`SquareDeltas`] of the patterns, computed once.
pub(crate) fn square_deltas() -> &'static SquareDeltas {
    static D: std::sync::OnceLock<Box<SquareDeltas>> = std::sync::OnceLock::new();
    D.get_or_init(|| {
        let base = view(0, 0);
        let mut d = Box::new(SquareDeltas([[0; LANES]; 64]));
        for (sq, row) in d.0.iter_mut().enumerate() {
            let v = view(1 << sq, 0);
            for j in 0..LANES {
                row[j] = v[j] - base[j];
            }
        }
        d
    })
}

/// How a symmetry of the board reorders the squares of an instance of kind `k`: the board's
/// symmetries map every instance onto an instance of the same kind, read either in the same
/// order or in this one (lines and diagonals reversed, the edge mirrored with its X-squares
/// swapped, the corner 3x3 transposed; the corner 2x5 has no such twin, its eight orientations
/// being instances of their own). `TWIN_ORDER[k][j]` is the square read `j`-th in the twin.
const TWIN_ORDER: [[u8; 10]; KINDS] = {
    let mut t = [[0u8; 10]; KINDS];
    let mut k = 0;
    while k < KINDS {
        let n = SQUARES[k].len();
        let mut j = 0;
        while j < n {
            t[k][j] = match k {
                0..=7 => (n - 1 - j) as u8,
                8 => [7, 6, 5, 4, 3, 2, 1, 0, 9, 8][j],
                9 => [0, 3, 6, 1, 4, 7, 2, 5, 8][j],
                _ => j as u8,
            };
            j += 1;
        }
        k += 1;
    }
    t
};

/// For each weight of a stage, the smallest index of the weights that the board's symmetries
/// tie to it: an instance's configuration and its twin (the same squares read in the order a
/// symmetry gives them: a line or a diagonal reversed, the edge mirrored with its X-squares
/// swapped, the corner 3x3 transposed) occur on symmetric boards, so weights equal on each tied
/// pair make the evaluation the same on all eight symmetries of a position. The dense terms
/// tie to themselves.
///
/// The training (feature `train`) fits one weight per tied pair.
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::{features, tied_index, PER_STAGE};
/// use reversi_core::Position;
/// assert_eq!(tied_index(PER_STAGE - 1), PER_STAGE - 1);
/// // The starting position is symmetric, so its instances come in tied pairs.
/// let pos = Position::initial();
/// let f = features(pos.player().0, pos.opponent().0);
/// assert!(f.iter().all(|&i| tied_index(tied_index(i as usize)) == tied_index(i as usize)));
/// ```
///
/// # Panics
///
/// When `index >= PER_STAGE`.
#[must_use]
pub fn tied_index(index: usize) -> usize {
    tie_table()[index] as usize
}

fn tie_table() -> &'static [u32] {
    static T: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t: Vec<u32> = (0..PER_STAGE as u32).collect();
        for k in 0..KINDS {
            let n = SQUARES[k].len();
            for (local, slot) in t[OFFSETS[k]..OFFSETS[k + 1]].iter_mut().enumerate() {
                let mut digits = [0usize; 10];
                let mut x = local;
                for d in digits.iter_mut().take(n) {
                    *d = x % 3;
                    x /= 3;
                }
                let twin: usize = (0..n)
                    .rev()
                    .fold(0, |acc, j| acc * 3 + digits[TWIN_ORDER[k][j] as usize]);
                *slot = (OFFSETS[k] + local.min(twin)) as u32;
            }
        }
        t
    })
}

/// The dense terms of a position: the mobility difference (moves of the mover minus moves of
/// the opponent) and the constant 1, with their indices in a stage.
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::dense;
/// use reversi_core::Position;
/// let pos = Position::initial();
/// let d = dense(pos.player().0, pos.opponent().0);
/// assert_eq!(d[0].1, 0.0); // four moves each
/// assert_eq!(d[1].1, 1.0);
/// ```
#[must_use]
pub fn dense(p: u64, o: u64) -> [(u32, f32); 2] {
    let mob = legal(p, o).count_ones() as f32 - legal(o, p).count_ones() as f32;
    [(MOBILITY as u32, mob), (BIAS as u32, 1.0)]
}

/// What is wrong with a weights file.
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::{Weights, WeightsError};
/// assert!(matches!(Weights::from_bytes(b"RVPW"), Err(WeightsError::Truncated { .. })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WeightsError {
    /// The file is shorter than its header says.
    #[error("the weights file is truncated: {len} bytes, {expected} expected")]
    Truncated {
        /// Bytes found.
        len: usize,
        /// Bytes the header promises (at least the header itself).
        expected: usize,
    },
    /// The file is longer than its header says.
    #[error("the weights file has {extra} bytes after its end")]
    TrailingBytes {
        /// Bytes in excess.
        extra: usize,
    },
    /// The file does not start with the magic `RVPW`.
    #[error("not a weights file (magic {found:?}, expected \"RVPW\")")]
    BadMagic {
        /// The first four bytes.
        found: [u8; 4],
    },
    /// A format version this library does not read.
    #[error("weights format version {found} (this library reads versions 1 to {expected})")]
    Version {
        /// Version in the file.
        found: u32,
        /// Version read by this library.
        expected: u32,
    },
    /// Stage count or weights per stage differ from this library's patterns.
    #[error(
        "the weights are for {stages} stages of {per_stage} weights \
         ({expected_stages} of {expected_per_stage} expected)"
    )]
    Shape {
        /// Stages in the file.
        stages: u32,
        /// Weights per stage in the file.
        per_stage: u32,
        /// Stages expected.
        expected_stages: u32,
        /// Weights per stage expected.
        expected_per_stage: u32,
    },
    /// The checksum does not match the content (a corrupt file).
    #[error(
        "the weights file is corrupt: checksum {found:#018x}, content hashes to {computed:#018x}"
    )]
    Checksum {
        /// Checksum stored in the file.
        found: u64,
        /// Checksum of the content.
        computed: u64,
    },
    /// The Multi-ProbCut section of a version 2 or 3 file holds a value out of range.
    #[error("the weights file's ProbCut parameters are invalid")]
    ProbCut,
    /// The library was built without embedded weights (feature `embedded-weights`).
    #[error("this build has no embedded weights (feature embedded-weights is off)")]
    NotEmbedded,
    /// [`Weights::install`] was called before with other weights: a process installs its
    /// weights once.
    #[error("other weights are already installed (weights are installed once per process)")]
    AlreadyInstalled,
}

/// The weights installed at run time by [`Weights::install`].
static INSTALLED: std::sync::OnceLock<Weights> = std::sync::OnceLock::new();

/// FNV-1a, 64 bits.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// The weights of the pattern evaluation: [`STAGES`] stages of [`PER_STAGE`] weights.
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::Weights;
/// use reversi_core::Position;
/// let w = Weights::zero();
/// let bytes = w.to_bytes();
/// let back = Weights::from_bytes(&bytes).unwrap();
/// let pos = Position::initial();
/// assert_eq!(back.eval(pos.player().0, pos.opponent().0), 0);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    w: Vec<i16>,
    probcut: Option<ProbCut>,
}

impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Weights")
            .field("stages", &STAGES)
            .field("per_stage", &PER_STAGE)
            .finish_non_exhaustive()
    }
}

impl Weights {
    /// All weights zero (every position evaluates to 0).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::pattern::Weights::zero().stage(0)[0], 0);
    /// ```
    #[must_use]
    pub fn zero() -> Weights {
        Weights {
            w: vec![0; STAGES * PER_STAGE],
            probcut: None,
        }
    }

    /// The weights of one stage, in 1/[`UNITS_PER_DISC`] disc.
    ///
    /// # Panics
    ///
    /// When `stage >= STAGES`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::pattern::{Weights, PER_STAGE};
    /// assert_eq!(Weights::zero().stage(3).len(), PER_STAGE);
    /// ```
    #[must_use]
    pub fn stage(&self, stage: usize) -> &[i16] {
        &self.w[stage * PER_STAGE..(stage + 1) * PER_STAGE]
    }

    /// Sets the weights of one stage from weights in discs (rounded, clamped to the `i16`
    /// range).
    ///
    /// # Panics
    ///
    /// When `stage >= STAGES` or `discs.len() != PER_STAGE`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::pattern::{Weights, PER_STAGE, UNITS_PER_DISC};
    /// let mut w = Weights::zero();
    /// w.set_stage(0, &vec![0.5; PER_STAGE]);
    /// assert_eq!(w.stage(0)[7] as i32, UNITS_PER_DISC / 2);
    /// ```
    pub fn set_stage(&mut self, stage: usize, discs: &[f32]) {
        assert_eq!(discs.len(), PER_STAGE, "one weight per feature");
        for (d, &x) in self.w[stage * PER_STAGE..(stage + 1) * PER_STAGE]
            .iter_mut()
            .zip(discs)
        {
            *d = (x * UNITS_PER_DISC as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        }
    }

    /// The Multi-ProbCut parameters stored with these weights (fitted by the `train` example's
    /// `--fit-probcut`), if any: without them the Expert level searches full width.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(reversi_ai::pattern::Weights::zero().probcut().is_none());
    /// ```
    #[must_use]
    pub fn probcut(&self) -> Option<&ProbCut> {
        self.probcut.as_ref()
    }

    /// These weights with Multi-ProbCut parameters (written with them by
    /// [`Weights::to_bytes`], format version 3, or 4 with endgame cuts).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::pattern::Weights;
    /// use reversi_ai::probcut::{Cut, ProbCut};
    /// let pc = ProbCut::uniform(Cut { a: 1.0, b: 0.0, sigma: 2.5 });
    /// let w = Weights::zero().with_probcut(Some(pc.clone()));
    /// let back = Weights::from_bytes(&w.to_bytes()).unwrap();
    /// assert_eq!(back.probcut(), Some(&pc));
    /// ```
    #[must_use]
    pub fn with_probcut(mut self, probcut: Option<ProbCut>) -> Weights {
        self.probcut = probcut;
        self
    }

    /// The file form: header, weights, the ProbCut parameters when there are (version 3, or 4
    /// when they have endgame cuts), checksum.
    ///
    /// # Examples
    ///
    /// ```
    /// let b = reversi_ai::pattern::Weights::zero().to_bytes();
    /// assert_eq!(&b[..4], b"RVPW");
    /// ```
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 2 * self.w.len() + ProbCut::END_BYTES + 8);
        out.extend_from_slice(MAGIC);
        let version: u32 = match &self.probcut {
            Some(pc) if pc.has_end() => 4,
            Some(_) => 3,
            None => 1,
        };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(STAGES as u32).to_le_bytes());
        out.extend_from_slice(&(PER_STAGE as u32).to_le_bytes());
        for &x in &self.w {
            out.extend_from_slice(&x.to_le_bytes());
        }
        if let Some(pc) = &self.probcut {
            out.extend_from_slice(&pc.to_bytes());
        }
        let h = fnv1a(&out);
        out.extend_from_slice(&h.to_le_bytes());
        out
    }

    /// Reads a weights file, checking its magic, version, shape, length and checksum.
    ///
    /// # Errors
    ///
    /// A [`WeightsError`] saying what is wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::pattern::{Weights, WeightsError};
    /// let mut b = Weights::zero().to_bytes();
    /// b[100] ^= 1;
    /// assert!(matches!(Weights::from_bytes(&b), Err(WeightsError::Checksum { .. })));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if bytes.len() < HEADER {
            return Err(WeightsError::Truncated {
                len: bytes.len(),
                expected: HEADER,
            });
        }
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let magic = [bytes[0], bytes[1], bytes[2], bytes[3]];
        if &magic != MAGIC {
            return Err(WeightsError::BadMagic { found: magic });
        }
        let version = word(4);
        if version == 0 || version > FORMAT_VERSION {
            return Err(WeightsError::Version {
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let (stages, per_stage) = (word(8), word(12));
        if stages as usize != STAGES || per_stage as usize != PER_STAGE {
            return Err(WeightsError::Shape {
                stages,
                per_stage,
                expected_stages: STAGES as u32,
                expected_per_stage: PER_STAGE as u32,
            });
        }
        let n = STAGES * PER_STAGE;
        let extra = match version {
            1 => 0,
            2 => ProbCut::LEGACY_BYTES,
            3 => ProbCut::BYTES,
            _ => ProbCut::END_BYTES,
        };
        let expected = HEADER + 2 * n + extra + 8;
        if bytes.len() < expected {
            return Err(WeightsError::Truncated {
                len: bytes.len(),
                expected,
            });
        }
        if bytes.len() > expected {
            return Err(WeightsError::TrailingBytes {
                extra: bytes.len() - expected,
            });
        }
        let body = &bytes[..expected - 8];
        let tail = &bytes[expected - 8..];
        let mut f = [0u8; 8];
        f.copy_from_slice(tail);
        let found = u64::from_le_bytes(f);
        let computed = fnv1a(body);
        if found != computed {
            return Err(WeightsError::Checksum { found, computed });
        }
        let w = body[HEADER..HEADER + 2 * n]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let probcut = if version >= 2 {
            Some(ProbCut::from_bytes(&body[HEADER + 2 * n..]).ok_or(WeightsError::ProbCut)?)
        } else {
            None
        };
        Ok(Weights { w, probcut })
    }

    /// The weights shipped with the library (trained by the `train` example), read once.
    ///
    /// # Errors
    ///
    /// [`WeightsError::NotEmbedded`] when the library was built without the feature
    /// `embedded-weights` (the WebAssembly module is), or the file's error if it were corrupt.
    ///
    /// # Examples
    ///
    /// ```
    /// let w = reversi_ai::pattern::Weights::embedded();
    /// assert!(w.is_ok() || cfg!(not(feature = "embedded-weights")));
    /// ```
    pub fn embedded() -> Result<&'static Weights, WeightsError> {
        #[cfg(feature = "embedded-weights")]
        {
            static W: std::sync::OnceLock<Result<Weights, WeightsError>> =
                std::sync::OnceLock::new();
            W.get_or_init(|| Weights::from_bytes(Weights::embedded_bytes()?))
                .as_ref()
                .map_err(Clone::clone)
        }
        #[cfg(not(feature = "embedded-weights"))]
        {
            Err(WeightsError::NotEmbedded)
        }
    }

    /// The bytes of the weights file built into the library (`weights/expert.bin`, about 5 MB),
    /// for a program that hands them on (a server serving them to a page's WebAssembly module).
    ///
    /// # Errors
    ///
    /// [`WeightsError::NotEmbedded`] when the library was built without the feature
    /// `embedded-weights`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::pattern::Weights;
    /// if let Ok(bytes) = Weights::embedded_bytes() {
    ///     assert!(Weights::from_bytes(bytes).is_ok());
    /// }
    /// ```
    pub fn embedded_bytes() -> Result<&'static [u8], WeightsError> {
        #[cfg(feature = "embedded-weights")]
        {
            Ok(include_bytes!("../weights/expert.bin"))
        }
        #[cfg(not(feature = "embedded-weights"))]
        {
            Err(WeightsError::NotEmbedded)
        }
    }

    /// Installs `weights` for the whole process: from then on [`Weights::active`] gives them,
    /// so [`Level::Expert`](crate::Level::Expert) engines made afterwards ([`crate::Expert::new`])
    /// and [`crate::hints`] use them, even in a build without embedded weights (a WebAssembly
    /// module is handed the file's bytes by its host and reads them with
    /// [`Weights::from_bytes`]). Installed weights take precedence over the embedded ones.
    ///
    /// Weights are installed once: installing the same weights again is accepted and changes
    /// nothing.
    ///
    /// # Errors
    ///
    /// [`WeightsError::AlreadyInstalled`] when other weights were installed before (the
    /// installed weights stay).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::pattern::{Weights, WeightsError};
    /// let bytes = Weights::zero().to_bytes(); // a host would fetch the file's bytes
    /// let w = Weights::from_bytes(&bytes)?;
    /// let installed = Weights::install(w.clone())?;
    /// assert_eq!(installed, &w);
    /// assert_eq!(Weights::active()?, &w);
    /// // The same weights again: accepted. Other weights: refused.
    /// assert!(Weights::install(w).is_ok());
    /// let mut other = Weights::zero();
    /// other.set_stage(0, &vec![1.0; reversi_ai::pattern::PER_STAGE]);
    /// assert_eq!(Weights::install(other), Err(WeightsError::AlreadyInstalled));
    /// # Ok::<(), WeightsError>(())
    /// ```
    pub fn install(weights: Weights) -> Result<&'static Weights, WeightsError> {
        let mut weights = Some(weights);
        let installed = INSTALLED.get_or_init(|| weights.take().unwrap_or_else(Weights::zero));
        match weights {
            Some(w) if w != *installed => Err(WeightsError::AlreadyInstalled),
            _ => Ok(installed),
        }
    }

    /// The weights installed with [`Weights::install`], if any.
    ///
    /// # Examples
    ///
    /// ```
    /// // Nothing is installed in this program.
    /// assert!(reversi_ai::pattern::Weights::installed().is_none());
    /// ```
    #[must_use]
    pub fn installed() -> Option<&'static Weights> {
        INSTALLED.get()
    }

    /// The weights the Expert level and the hints use: the installed ones
    /// ([`Weights::install`]), else the embedded ones ([`Weights::embedded`]).
    ///
    /// # Errors
    ///
    /// The error of [`Weights::embedded`] when nothing is installed and the library has no
    /// usable embedded weights ([`WeightsError::NotEmbedded`] in a build without them).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::pattern::Weights;
    /// let active = Weights::active();
    /// assert_eq!(active.is_ok(), cfg!(feature = "embedded-weights"));
    /// ```
    pub fn active() -> Result<&'static Weights, WeightsError> {
        match INSTALLED.get() {
            Some(w) => Ok(w),
            None => Weights::embedded(),
        }
    }

    /// The evaluation of a position for the mover `p` against `o`, in 1/[`UNITS_PER_DISC`]
    /// disc (positive: good for the mover), within ±[`EVAL_BOUND`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::pattern::Weights;
    /// use reversi_core::Position;
    /// let pos = Position::initial();
    /// assert_eq!(Weights::zero().eval(pos.player().0, pos.opponent().0), 0);
    /// ```
    #[must_use]
    pub fn eval(&self, p: u64, o: u64) -> i32 {
        self.eval_with_mobility(
            p,
            o,
            legal(p, o).count_ones() as i32 - legal(o, p).count_ones() as i32,
        )
    }

    /// [`Weights::eval`] given the mobility difference (the mover's moves minus the opponent's).
    #[inline(always)]
    pub(crate) fn eval_with_mobility(&self, p: u64, o: u64, mob: i32) -> i32 {
        let empties = (!(p | o)).count_ones();
        let w = self.stage(stage(empties));
        let mut s = i32::from(w[MOBILITY]) * mob + i32::from(w[BIAS]);
        for_each_index(p, o, |i| s += i32::from(w[i]));
        s.clamp(-EVAL_BOUND, EVAL_BOUND)
    }

    /// The evaluation of a child for its mover, in 1/[`UNITS_PER_DISC`] disc, as
    /// [`Weights::eval_with_mobility`] gives it, computed from its parent without reading the
    /// board again. The parent's mover plays `sq`, flipping `flips`; `parent_view` is the
    /// parent's [`view`] from its opponent's side (`view(o, p)`), which is the child's mover;
    /// `empties` counts the child's empty squares and `mob` is the child's mobility difference.
    #[inline(always)]
    pub(crate) fn eval_child(
        &self,
        parent_view: &View,
        deltas: &SquareDeltas,
        sq: u32,
        flips: u64,
        empties: u32,
        mob: i32,
    ) -> i32 {
        // For the child's mover the played square goes from empty (0) to the opponent's (2),
        // each flipped disc from its own (1) to the opponent's (2).
        let mut idx = *parent_view;
        let d = &deltas.0[sq as usize];
        for j in 0..LANES {
            idx[j] += 2 * d[j];
        }
        let mut f = flips;
        while f != 0 {
            let d = &deltas.0[f.trailing_zeros() as usize];
            f &= f - 1;
            for j in 0..LANES {
                idx[j] += d[j];
            }
        }
        let w = self.stage(stage(empties));
        let mut s = i32::from(w[MOBILITY]) * mob + i32::from(w[BIAS]);
        for &i in &idx[..INSTANCES] {
            s += i32::from(w[i as usize]);
        }
        s.clamp(-EVAL_BOUND, EVAL_BOUND)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square-by-square reading of every instance, to check the bit tricks.
    fn slow_instances(b: u64) -> Vec<(usize, u32)> {
        let sym = |x: u64| orientations(x);
        let mut v = Vec::new();
        for_each_instance(b, |k, bits| v.push((k, bits)));
        // Recompute by reading squares of each orientation directly.
        let s = sym(b);
        let read = |x: u64, sqs: &[u8]| -> u32 {
            sqs.iter()
                .enumerate()
                .map(|(i, &q)| (((x >> q) & 1) as u32) << i)
                .sum()
        };
        let mut w = Vec::new();
        for &x in &[s[0], s[1], s[4], s[5]] {
            for k in [0, 1, 2, 8] {
                w.push((k, read(x, SQUARES[k])));
            }
        }
        // Reorder w to match the fast order (rows 0,1,2,8 per orientation).
        let mut fast_rows: Vec<(usize, u32)> = v[..16].to_vec();
        fast_rows.sort_unstable();
        w.sort_unstable();
        assert_eq!(fast_rows, w);
        // Diagonals: compare with reading lower diagonals through the transpose.
        for (j, &x) in [s[0], s[2]].iter().enumerate() {
            let base = 16 + j * 9;
            assert_eq!(v[base], (3, read(x, SQUARES[3])));
            for k in 1..5 {
                assert_eq!(v[base + 2 * k - 1], (3 + k, read(x, SQUARES[3 + k])));
                assert_eq!(v[base + 2 * k], (3 + k, read(transpose(x), SQUARES[3 + k])));
            }
        }
        for (j, &x) in s[..4].iter().enumerate() {
            assert_eq!(v[34 + j], (9, read(x, SQUARES[9])));
        }
        for (j, &x) in s.iter().enumerate() {
            assert_eq!(v[38 + j], (10, read(x, SQUARES[10])));
        }
        v
    }

    #[test]
    fn features_are_the_ternary_readings_of_the_instances() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..200 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let p = x & 0x00FF_F0F0_5A5A_3C3C;
            let o = !p & x.rotate_left(29);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for_each_instance(p, |k, bits| a.push((k, bits)));
            for_each_instance(o, |_, bits| b.push(bits));
            let slow: Vec<u32> = a
                .iter()
                .zip(&b)
                .map(|(&(k, pb), &ob)| {
                    (OFFSETS[k] + TERNARY[pb as usize] as usize + 2 * TERNARY[ob as usize] as usize)
                        as u32
                })
                .collect();
            assert_eq!(features(p, o).to_vec(), slow);
        }
    }

    /// Weights with every entry drawn at random, so that any wrong index changes the sum.
    /// Weights of -128 to 127, whose sums stay within [`EVAL_BOUND`] (46 instances, the
    /// mobility term at most 30 moves of difference, the constant).
    fn random_weights(mut x: u64) -> Weights {
        let mut w = Weights::zero();
        for v in &mut w.w {
            crate::bits::tests::xorshift(&mut x);
            *v = (x >> 20) as i16 >> 8;
        }
        w
    }

    #[test]
    fn evaluations_stay_within_the_bound() {
        let pos = reversi_core::Position::initial();
        let (p, o) = (pos.player().0, pos.opponent().0);
        let mut w = Weights::zero();
        w.w.fill(i16::MAX);
        assert_eq!(w.eval(p, o), EVAL_BOUND);
        w.w.fill(i16::MIN);
        assert_eq!(w.eval(p, o), -EVAL_BOUND);
        // And from a parent's view, as the searches compute their children's.
        let (deltas, view) = (square_deltas(), view(o, p));
        let sq = legal(p, o).trailing_zeros();
        let f = crate::bits::flips(p, o, sq);
        assert_eq!(w.eval_child(&view, deltas, sq, f, 59, 0), -EVAL_BOUND);
    }

    #[test]
    fn child_evaluations_equal_the_evaluation_from_scratch() {
        let w = random_weights(0x9E37_79B9_7F4A_7C15);
        let d = square_deltas();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for _game in 0..40 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            loop {
                let moves = legal(p, o);
                if moves == 0 {
                    if legal(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    continue;
                }
                // Every child of this position, against the evaluation from scratch.
                let parent_view = view(o, p);
                let mut mm = moves;
                while mm != 0 {
                    let sq = mm.trailing_zeros();
                    mm &= mm - 1;
                    let f = crate::bits::flips(p, o, sq);
                    let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                    let mob = 3 - (sq as i32 % 7);
                    let empties = (!(np | no)).count_ones();
                    assert_eq!(
                        w.eval_child(&parent_view, d, sq, f, empties, mob),
                        w.eval_with_mobility(np, no, mob),
                        "{p:#x} {o:#x} move {sq}"
                    );
                    assert_eq!(&view(np, no)[..INSTANCES], &features(np, no)[..]);
                    checked += 1;
                }
                // On with a random move.
                crate::bits::tests::xorshift(&mut x);
                let mut mm = moves;
                for _ in 0..(x % u64::from(moves.count_ones())) {
                    mm &= mm - 1;
                }
                let sq = mm.trailing_zeros();
                let f = crate::bits::flips(p, o, sq);
                (p, o) = (o ^ f, p ^ f ^ (1 << sq));
            }
        }
        assert!(checked > 10_000, "{checked} children");
    }

    #[test]
    fn tied_weights_give_the_same_evaluation_on_every_symmetry() {
        use reversi_core::{Bitboard, Symmetry};
        let mut w = random_weights(0x5851_F42D_4C95_7F2D);
        let untied = w.clone();
        for s in 0..STAGES {
            for i in 0..PER_STAGE {
                w.w[s * PER_STAGE + i] = w.w[s * PER_STAGE + tied_index(i)];
            }
        }
        let mut x = 0x0DDB_1A5E_5BAD_5EEDu64;
        let mut untied_differ = 0;
        for _ in 0..300 {
            crate::bits::tests::xorshift(&mut x);
            let occupied = x | 0x0000_0018_1800_0000;
            crate::bits::tests::xorshift(&mut x);
            let (p, o) = (occupied & x, occupied & !x);
            let e = w.eval(p, o);
            for sym in Symmetry::ALL {
                let (sp, so) = (sym.bitboard(Bitboard(p)).0, sym.bitboard(Bitboard(o)).0);
                assert_eq!(w.eval(sp, so), e, "{p:#x} {o:#x} {sym:?}");
                untied_differ += usize::from(untied.eval(sp, so) != untied.eval(p, o));
            }
        }
        // Without the ties the symmetric positions do get other scores.
        assert!(untied_differ > 1000, "{untied_differ}");
        // Ties are pairs: the tied index ties to itself.
        for i in 0..PER_STAGE {
            assert_eq!(tied_index(tied_index(i)), tied_index(i));
            assert!(tied_index(i) <= i);
        }
    }

    #[test]
    fn instances_read_their_squares() {
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..200 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            assert_eq!(slow_instances(x).len(), INSTANCES);
        }
    }
}
