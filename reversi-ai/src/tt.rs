//! A bounded transposition table: two-entry buckets aligned to a cache line, full-key
//! verification, replacement by generation then depth. Threads may share one (`&TransTable`):
//! an entry is four relaxed atomic words, the last the exclusive or of the other three, so that
//! an entry torn by two threads writing it at once is seen as empty rather than wrong.

use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

#[derive(Clone, Copy, Default)]
pub(crate) struct Entry {
    pub p: u64,
    pub o: u64,
    pub lower: i16,
    pub upper: i16,
    pub depth: u8,
    pub mv: u8,
    gen: u8,
}

/// Buckets of the region for nodes close to the end (see [`TransTable::slot`]).
pub(crate) const NEAR_END_BUCKETS: usize = 1 << 15;

/// A bucket's index, computed once per node for its probe and its store.
#[derive(Clone, Copy, Default)]
pub(crate) struct Slot(usize);

/// No move stored.
pub(crate) const NO_MOVE: u8 = 64;

/// An entry as stored: the position (`p`, `o`), the packed bounds, depth, move and generation,
/// and a check word, `p ^ o ^ data`.
#[repr(C)]
struct Stored([AtomicU64; 4]);

impl Entry {
    #[inline(always)]
    fn data(&self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.depth) << 32
            | u64::from(self.mv) << 40
            | u64::from(self.gen) << 48
    }
}

impl Stored {
    /// The entry, when its words agree (an entry written by two threads at once may not).
    #[inline(always)]
    fn load(&self) -> Option<Entry> {
        let [p, o, d, c] = [
            self.0[0].load(Relaxed),
            self.0[1].load(Relaxed),
            self.0[2].load(Relaxed),
            self.0[3].load(Relaxed),
        ];
        (p ^ o ^ d == c).then_some(Entry {
            p,
            o,
            lower: d as u16 as i16,
            upper: (d >> 16) as u16 as i16,
            depth: (d >> 32) as u8,
            mv: (d >> 40) as u8,
            gen: (d >> 48) as u8,
        })
    }

    /// The position's words alone (a cheap first test of a probe).
    #[inline(always)]
    fn holds(&self, p: u64, o: u64) -> bool {
        self.0[0].load(Relaxed) == p && self.0[1].load(Relaxed) == o
    }

    #[inline(always)]
    fn store(&self, e: &Entry) {
        let d = e.data();
        self.0[0].store(e.p, Relaxed);
        self.0[1].store(e.o, Relaxed);
        self.0[2].store(d, Relaxed);
        self.0[3].store(e.p ^ e.o ^ d, Relaxed);
    }
}

/// Two entries in one 64-byte cache line (a probe costs one memory access). All-zero bytes are
/// two empty entries (position 0, 0, which no search probes).
#[repr(C, align(64))]
struct Bucket([Stored; 2]);

pub(crate) struct TransTable {
    buckets: Buckets,
    mask: usize,
    gen: u8,
}

#[inline(always)]
fn hash(p: u64, o: u64) -> u64 {
    let h = (p ^ o.rotate_left(23)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^ (h >> 31)
}

impl TransTable {
    /// A table of `2^bits` entries (32 bytes each, in buckets of two).
    pub fn new(bits: u32) -> TransTable {
        let n = 1usize << (bits.clamp(4, 30) - 1);
        let buckets = Buckets::new(n);
        TransTable {
            buckets,
            mask: n - 1,
            gen: 1,
        }
    }

    /// Starts a new search: older entries are replaced first.
    pub fn new_search(&mut self) {
        self.gen = self.gen.wrapping_add(1).max(1);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        let n = self.buckets.len();
        // SAFETY: `&mut self` is exclusive; the buckets are `n` valid ones, and all-zero bytes
        // are a valid empty bucket.
        unsafe { core::ptr::write_bytes(self.buckets.ptr.as_ptr(), 0, n) };
    }

    /// The bucket of a position: anywhere in the table, or when `near_end`, in its first
    /// [`NEAR_END_BUCKETS`] buckets (2 MiB, which stay in the core's cache: the nodes close to
    /// the end are the most numerous and the least worth keeping).
    #[inline(always)]
    pub fn slot(&self, p: u64, o: u64, near_end: bool) -> Slot {
        let mask = if near_end {
            self.mask.min(NEAR_END_BUCKETS - 1)
        } else {
            self.mask
        };
        Slot(hash(p, o) as usize & mask)
    }

    /// Starts loading a bucket into the cache.
    #[inline(always)]
    pub fn prefetch(&self, slot: Slot) {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let ptr = self.buckets[slot.0].0.as_ptr().cast::<i8>();
            // SAFETY: a prefetch has no effect on the program's state; SSE is part of x86-64.
            #[allow(unused_unsafe)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(ptr)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// The entry of a position anywhere in the table.
    #[inline(always)]
    pub fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        self.probe_slot(self.slot(p, o, false), p, o)
    }

    /// The entry of a position in its bucket `slot`.
    #[inline(always)]
    pub fn probe_slot(&self, slot: Slot, p: u64, o: u64) -> Option<Entry> {
        let b = &self.buckets[slot.0].0;
        if b[0].holds(p, o) {
            b[0].load().filter(|e| e.p == p && e.o == o)
        } else if b[1].holds(p, o) {
            b[1].load().filter(|e| e.p == p && e.o == o)
        } else {
            None
        }
    }

    /// Stores the result `score` of a search of window (`alpha`, `beta`) at `depth`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32, score: i32, mv: u8) {
        self.store_slot(self.slot(p, o, false), p, o, depth, alpha, beta, score, mv)
    }

    /// As [`TransTable::store`], in the bucket `slot` of the position.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store_slot(
        &self,
        slot: Slot,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        score: i32,
        mv: u8,
    ) {
        let i = slot.0;
        let gen = self.gen;
        let depth = depth.min(255) as u8;
        let (mut lower, mut upper) = (i16::MIN, i16::MAX);
        let s = score.clamp(-32000, 32000) as i16;
        if score > alpha {
            lower = s;
        }
        if score < beta {
            upper = s;
        }
        let b = &self.buckets[i].0;
        // Each entry read once, for the update and for the replacement.
        let found = [b[0].load(), b[1].load()];
        for (st, e) in b.iter().zip(found) {
            let Some(mut e) = e.filter(|e| e.p == p && e.o == o) else {
                continue;
            };
            if e.depth == depth {
                e.lower = e.lower.max(lower);
                e.upper = e.upper.min(upper);
                if e.lower > e.upper {
                    e.lower = lower;
                    e.upper = upper;
                }
            } else if depth > e.depth {
                e.depth = depth;
                e.lower = lower;
                e.upper = upper;
            } else {
                return;
            }
            if mv != NO_MOVE {
                e.mv = mv;
            }
            e.gen = gen;
            st.store(&e);
            return;
        }
        // Replace: an entry of an older search first, else the shallower one (an entry torn by
        // another thread, first of all).
        let score_of =
            |e: Option<Entry>| e.map_or(0, |e| (e.gen == gen) as u32 * 256 + e.depth as u32 + 1);
        let k = usize::from(score_of(found[0]) > score_of(found[1]));
        b[k].store(&Entry {
            p,
            o,
            lower,
            upper,
            depth,
            mv,
            gen,
        });
    }
}

/// The bucket array: zeroed memory that, on Linux, is mapped fresh and aligned to 2 MiB, with the
/// kernel asked to back it with transparent huge pages (a probe then rarely misses the TLB).
struct Buckets {
    ptr: core::ptr::NonNull<Bucket>,
    len: usize,
    /// The mapping to release on drop (start, length), when the memory came from `mmap`.
    map: Option<(usize, usize)>,
}

// SAFETY: `Buckets` owns its memory exclusively, as a `Vec` would.
unsafe impl Send for Buckets {}
// SAFETY: shared access goes through atomic words only.
unsafe impl Sync for Buckets {}

/// Huge-page backed mappings through `libc` on 64-bit Linux; elsewhere (wasm32, other systems)
/// the table is a plain zeroed allocation.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
mod sys {
    pub const HUGE_PAGE: usize = 1 << 21;

    /// Maps `size` zeroed bytes aligned to a huge page: (aligned start, mapping start, mapping
    /// length), or `None` when the kernel refuses.
    pub fn map(size: usize) -> Option<(usize, usize, usize)> {
        let len = size.checked_add(HUGE_PAGE)?;
        // SAFETY: an anonymous private mapping with no address hint touches no existing memory.
        let base = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED || base.is_null() {
            return None;
        }
        let start = (base as usize + HUGE_PAGE - 1) & !(HUGE_PAGE - 1);
        // SAFETY: the range lies inside the mapping just made; the advice changes no content and
        // its failure only costs speed.
        let _ = unsafe { libc::madvise(start as *mut libc::c_void, size, libc::MADV_HUGEPAGE) };
        Some((start, base as usize, len))
    }

    /// Releases a mapping made by [`map`].
    pub fn unmap(base: usize, len: usize) {
        // SAFETY: (`base`, `len`) is a mapping made by `map` and no longer referenced.
        let _ = unsafe { libc::munmap(base as *mut libc::c_void, len) };
    }
}

impl Buckets {
    fn layout(len: usize) -> std::alloc::Layout {
        std::alloc::Layout::array::<Bucket>(len).expect("table size fits memory")
    }

    fn new(len: usize) -> Buckets {
        let layout = Self::layout(len);
        #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
        if layout.size() >= sys::HUGE_PAGE {
            if let Some((start, base, map_len)) = sys::map(layout.size()) {
                if let Some(ptr) = core::ptr::NonNull::new(start as *mut Bucket) {
                    // Fresh anonymous memory reads as zeros: all buckets are empty.
                    return Buckets {
                        ptr,
                        len,
                        map: Some((base, map_len)),
                    };
                }
            }
        }
        // SAFETY: the layout has a non-zero size (at least 8 buckets); all-zero bytes are a valid
        // empty `Bucket`.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Bucket>();
        let Some(ptr) = core::ptr::NonNull::new(raw) else {
            std::alloc::handle_alloc_error(layout)
        };
        Buckets {
            ptr,
            len,
            map: None,
        }
    }
}

impl core::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` points to `len` initialised buckets owned by `self`.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        match self.map {
            #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
            Some((base, len)) => sys::unmap(base, len),
            #[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
            Some(_) => {}
            // SAFETY: allocated in `new` with this layout.
            None => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr().cast(), Self::layout(self.len))
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_end_slots_lie_in_the_region_and_keep_their_entries() {
        let tt = TransTable::new(22);
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut far_outside = false;
        for i in 0..2000u32 {
            crate::bits::tests::xorshift(&mut x);
            let (p, o) = (
                x & 0x00FF_00FF_00FF_00FF,
                x & 0xFF00_FF00_FF00_FF00 & !(x >> 3),
            );
            let near = tt.slot(p, o, true);
            let far = tt.slot(p, o, false);
            assert!(near.0 < NEAR_END_BUCKETS);
            far_outside |= far.0 >= NEAR_END_BUCKETS;
            // What is stored in a slot is found in that slot, with its bounds and move.
            let s = (i % 21) as i32 - 10;
            tt.store_slot(near, p, o, 6, -64, 64, s, (i % 64) as u8);
            let e = tt.probe_slot(near, p, o).expect("stored");
            assert_eq!(
                (e.lower, e.upper, e.mv),
                (s as i16, s as i16, (i % 64) as u8)
            );
        }
        assert!(far_outside, "the whole table is used for the other nodes");
        // A failed-low search stores an upper bound only.
        let s = tt.slot(1, 2, false);
        tt.store_slot(s, 1, 2, 10, 0, 5, -3, NO_MOVE);
        let e = tt.probe(1, 2).expect("stored");
        assert_eq!((e.lower, e.upper), (i16::MIN, -3));
    }
}
