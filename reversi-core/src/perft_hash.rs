//! The transposition table of perft: subtree counts keyed by the position, normalised under the
//! eight symmetries of the board.

use crate::mem::{Zeroable, ZeroedSlice};
use crate::symmetry::{mirror_columns, transpose};
use crate::TableSizeError;
use core::sync::atomic::{fence, AtomicU64, Ordering};

/// A fixed-size transposition table of perft counts, shared by threads without locks.
///
/// Each entry holds a position normalised under the eight symmetries (its smallest image), the
/// number of plies counted below it and the count. Entries are guarded by a per-entry sequence
/// number (a seqlock), so a reader never sees half of a concurrent write: a count read back is
/// always one that was stored for that position and depth. The memory is allocated once, in
/// [`PerftHash::new`], and never grows. A table must only be used with one convention.
///
/// # Examples
///
/// ```
/// use reversi_core::perft::{perft_raw, Convention, Kernel, PerftHash};
/// use reversi_core::Position;
/// let hash = PerftHash::new(1);
/// let s = Position::initial();
/// let n = perft_raw(s.player().0, s.opponent().0, 9, Convention::Oeis, Kernel::best(), Some(&hash));
/// assert_eq!(n, 3005288);
/// assert!(hash.bytes() <= 1 << 20);
/// ```
pub struct PerftHash {
    buckets: ZeroedSlice<Bucket>,
}

/// Two entries in one cache line: the first keeps the deeper count, the second the latest.
#[repr(C, align(64))]
#[derive(Default)]
struct Bucket([Entry; 2]);

// SAFETY: atomic integers only; zero bytes are two empty entries.
unsafe impl Zeroable for Bucket {}

#[repr(C)]
#[derive(Default)]
struct Entry {
    /// Even when stable, odd while a writer owns the entry.
    seq: AtomicU64,
    p: AtomicU64,
    o: AtomicU64,
    /// `count << 8 | depth`; 0 when empty.
    data: AtomicU64,
}

impl core::fmt::Debug for PerftHash {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PerftHash")
            .field("buckets", &self.buckets.len())
            .finish()
    }
}

impl PerftHash {
    /// Nodes with fewer plies below them than this are counted directly, without the table.
    pub const MIN_DEPTH: u32 = 4;

    /// A table of at most `mb` MiB (at least one bucket of 64 bytes).
    ///
    /// # Panics
    ///
    /// When `mb` MiB exceed the address space; an allocation that fails aborts the process, as
    /// `Box::new` does.
    ///
    /// # Examples
    ///
    /// ```
    /// let h = reversi_core::perft::PerftHash::new(64);
    /// assert_eq!(h.bytes(), 64 << 20);
    /// ```
    #[must_use]
    pub fn new(mb: usize) -> PerftHash {
        let Some(layout) = Self::layout(mb) else {
            panic!("a perft table of {mb} MiB exceeds the address space")
        };
        Self::try_new(mb).unwrap_or_else(|_| std::alloc::handle_alloc_error(layout))
    }

    /// A table of at most `mb` MiB, or an error when the memory cannot be had: the size to
    /// choose for sizes that come from a user.
    ///
    /// # Errors
    ///
    /// [`TableSizeError`] when `mb` MiB exceed the address space or the allocator refuses them.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::perft::PerftHash;
    /// assert_eq!(PerftHash::try_new(1).unwrap().bytes(), 1 << 20);
    /// assert_eq!(PerftHash::try_new(usize::MAX).unwrap_err().mib, usize::MAX);
    /// ```
    pub fn try_new(mb: usize) -> Result<PerftHash, TableSizeError> {
        let layout = Self::layout(mb).ok_or(TableSizeError { mib: mb })?;
        let n = layout.size() / core::mem::size_of::<Bucket>();
        // Mapped lazily (on huge pages where the system offers them), so a large table costs
        // nothing until it is used.
        let buckets = ZeroedSlice::new(n).ok_or(TableSizeError { mib: mb })?;
        Ok(PerftHash { buckets })
    }

    /// The layout of a table of at most `mb` MiB; `None` beyond the address space.
    fn layout(mb: usize) -> Option<std::alloc::Layout> {
        let n = (mb.saturating_mul(1 << 20) / core::mem::size_of::<Bucket>()).max(1);
        std::alloc::Layout::array::<Bucket>(n).ok()
    }

    /// The memory used by the entries, in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_core::perft::PerftHash::new(1).bytes(), 1 << 20);
    /// ```
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * core::mem::size_of::<Bucket>()
    }

    /// A default size: an eighth of the physical memory, at most 4 GiB, at least 64 MiB (64
    /// MiB when the memory size is unknown), in MiB.
    ///
    /// # Examples
    ///
    /// ```
    /// let mb = reversi_core::perft::PerftHash::default_mb();
    /// assert!((64..=4096).contains(&mb));
    /// ```
    #[must_use]
    pub fn default_mb() -> usize {
        let total_kb = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("MemTotal:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
            })
            .unwrap_or(0);
        (total_kb / 1024 / 8).clamp(64, 4096)
    }

    /// A size for a count `depth` plies deep from the start position, in MiB: room for twice
    /// the positions (up to symmetry) that the table can hold at that depth, a power of two, at
    /// most [`PerftHash::default_mb`]. A table much larger than what it holds costs time for
    /// nothing: every page of it is touched, and the probes miss the TLB more often.
    ///
    /// The positions are those at least [`PerftHash::MIN_DEPTH`] plies above the leaves: the
    /// distinct positions up to symmetry after `n` plies (3 after 2 plies, 2 958 555 after
    /// 10, 19 786 249 after 11, counted by this crate), and about 6.7 times as many for each
    /// ply beyond.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::perft::PerftHash;
    /// assert_eq!(PerftHash::mb_for_depth(8), 1);
    /// assert_eq!(PerftHash::mb_for_depth(14), 256);
    /// assert!(PerftHash::mb_for_depth(30) <= PerftHash::default_mb());
    /// ```
    #[must_use]
    pub fn mb_for_depth(depth: u32) -> usize {
        /// Distinct positions up to the eight symmetries after 0, 1, 2, ... plies.
        const DISTINCT: [u64; 12] = [
            1, 1, 3, 14, 60, 322, 1_773, 10_649, 67_245, 434_021, 2_958_555, 19_786_249,
        ];
        let deepest = depth.saturating_sub(Self::MIN_DEPTH);
        let mut positions = 0u64;
        let mut last = 1u64;
        for ply in 0..=deepest {
            last = match DISTINCT.get(ply as usize) {
                Some(&n) => n,
                None => last.saturating_mul(67) / 10,
            };
            positions = positions.saturating_add(last);
        }
        let entry = core::mem::size_of::<Entry>() as u64;
        let bytes = positions.saturating_mul(2 * entry);
        let mb = bytes.div_ceil(1 << 20).max(1).checked_next_power_of_two();
        let mb = usize::try_from(mb.unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
        mb.min(Self::default_mb())
    }

    fn bucket(&self, key: (u64, u64)) -> &Bucket {
        let h = (key.0 ^ key.1.rotate_left(23))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29)
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let i = ((u128::from(h) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the CPU to bring the bucket of the normalised `key` into the cache, so that a
    /// [`PerftHash::get`] a little later does not wait for memory.
    #[inline]
    pub(crate) fn prefetch(&self, key: (u64, u64)) {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let ptr = core::ptr::from_ref(self.bucket(key)).cast::<i8>();
            // SAFETY: a prefetch has no effect on the program's state; SSE is part of x86-64.
            #[allow(unused_unsafe)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(ptr)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The count stored for the normalised `key` at `depth`.
    pub(crate) fn get(&self, key: (u64, u64), depth: u32) -> Option<u64> {
        for e in &self.bucket(key).0 {
            let s1 = e.seq.load(Ordering::Acquire);
            if s1 & 1 != 0 {
                continue;
            }
            let p = e.p.load(Ordering::Relaxed);
            let o = e.o.load(Ordering::Relaxed);
            let data = e.data.load(Ordering::Relaxed);
            fence(Ordering::Acquire);
            if e.seq.load(Ordering::Relaxed) != s1 {
                continue;
            }
            if data != 0 && p == key.0 && o == key.1 && (data & 0xFF) as u32 == depth {
                return Some(data >> 8);
            }
        }
        None
    }

    /// Stores a count; a busy entry (another thread writing it) is skipped.
    pub(crate) fn put(&self, key: (u64, u64), depth: u32, count: u64) {
        let b = &self.bucket(key).0;
        let d0 = b[0].data.load(Ordering::Relaxed);
        let same =
            b[0].p.load(Ordering::Relaxed) == key.0 && b[0].o.load(Ordering::Relaxed) == key.1;
        let e = if (d0 & 0xFF) as u32 <= depth || same {
            &b[0]
        } else {
            &b[1]
        };
        let s = e.seq.load(Ordering::Relaxed);
        if s & 1 != 0
            || e.seq
                .compare_exchange(s, s + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        fence(Ordering::Release);
        e.p.store(key.0, Ordering::Relaxed);
        e.o.store(key.1, Ordering::Relaxed);
        e.data
            .store(count << 8 | u64::from(depth & 0xFF), Ordering::Relaxed);
        e.seq.store(s + 2, Ordering::Release);
    }
}

/// The smallest of the eight symmetric images of `(p, o)` (perft counts are invariant under the
/// symmetries of the board).
#[inline]
pub(crate) fn normalize(p: u64, o: u64) -> (u64, u64) {
    let mut best = (p, o);
    let (tp, to) = (transpose(p), transpose(o));
    for (a, b) in [(p, o), (tp, to)] {
        let (ma, mb) = (mirror_columns(a), mirror_columns(b));
        for c in [
            (a, b),
            (a.swap_bytes(), b.swap_bytes()),
            (ma, mb),
            (ma.swap_bytes(), mb.swap_bytes()),
        ] {
            if c < best {
                best = c;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_is_invariant_under_the_symmetries() {
        let (p, o) = (0x0000_0818_3000_0000u64, 0x0000_1000_0C00_0000u64);
        let n = normalize(p, o);
        for (a, b) in [
            (transpose(p), transpose(o)),
            (p.swap_bytes(), o.swap_bytes()),
            (mirror_columns(p), mirror_columns(o)),
        ] {
            assert_eq!(normalize(a, b), n);
        }
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    #[should_panic(expected = "exceeds the address space")]
    fn a_size_beyond_the_address_space_is_refused() {
        // 2^44 MiB is 2^64 bytes: the size must not wrap around to a one-bucket table.
        let _ = PerftHash::new(1 << 44);
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn sizes_that_cannot_be_allocated_are_errors() {
        // 2^44 MiB is 2^64 bytes: beyond the address space, as is usize::MAX MiB.
        for mb in [1usize << 44, usize::MAX] {
            assert_eq!(
                PerftHash::try_new(mb).err(),
                Some(TableSizeError { mib: mb })
            );
        }
        assert_eq!(PerftHash::try_new(2).map(|h| h.bytes()), Ok(2 << 20));
    }

    #[test]
    fn put_then_get() {
        let h = PerftHash::new(1);
        h.put((1, 2), 5, 1234);
        assert_eq!(h.get((1, 2), 5), Some(1234));
        assert_eq!(h.get((1, 2), 6), None);
        assert_eq!(h.get((1, 3), 5), None);
    }
}
