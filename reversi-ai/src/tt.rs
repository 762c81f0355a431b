//! A bounded transposition table: two-entry buckets aligned to a cache line, full-key
//! verification, replacement by generation then depth. Threads may share one (`&TransTable`):
//! an entry is four relaxed atomic words, the last the exclusive or of the other three, so that
//! an entry torn by two threads writing it at once is seen as empty rather than wrong.

use core::sync::atomic::{AtomicU64, Ordering::Relaxed};
use reversi_core::mem::{Zeroable, ZeroedSlice};

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

/// Where a table keeps the entries of the endgame's nodes close to the end: those of up to
/// `max_empties` empty squares go to its first `buckets` buckets, a region that stays in the
/// core's cache (these nodes are the most numerous and the least worth keeping; elsewhere in
/// the table most probes wait for main memory). See [`TransTable::end_slot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NearEnd {
    pub buckets: usize,
    pub max_empties: u32,
}

/// The near-end region of a new table: 512 KiB for the nodes of up to 9 empties. Against 2 MiB
/// for up to 6 ([`NEAR_END_LEVELS`]), FFO #40-#49 took 3.6 % more nodes (596.7 M) and about 7 %
/// less time on one thread and on two (AMD EPYC Zen 4, 2026-12-06: runs of the two builds side
/// by side, one on each core, their places swapped).
pub(crate) const NEAR_END: NearEnd = NearEnd {
    buckets: 1 << 13,
    max_empties: 9,
};

/// The near-end region with which Easy, Normal and Hard recorded their moves (2 MiB, nodes of
/// up to 6 empties): their tables keep it, so that their moves and node counts stay the same.
pub(crate) const NEAR_END_LEVELS: NearEnd = NearEnd {
    buckets: 1 << 15,
    max_empties: 6,
};

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

// SAFETY: atomic words only; zero bytes are two empty entries.
unsafe impl Zeroable for Bucket {}

pub(crate) struct TransTable {
    /// The bucket array: zeroed memory, on huge pages where the system offers them (a probe
    /// then rarely misses the TLB; see [`reversi_core::mem`]).
    buckets: ZeroedSlice<Bucket>,
    mask: usize,
    gen: u8,
    /// The near-end region's mask and its nodes' most empties ([`NearEnd`]).
    near_mask: usize,
    near_max: u32,
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
        let Some(buckets) = ZeroedSlice::new(n) else {
            std::alloc::handle_alloc_error(
                std::alloc::Layout::array::<Bucket>(n)
                    .unwrap_or(std::alloc::Layout::new::<Bucket>()),
            )
        };
        TransTable {
            buckets,
            mask: n - 1,
            gen: 1,
            near_mask: 0,
            near_max: 0,
        }
        .with_near_end(NEAR_END)
    }

    /// This table with the near-end region `near` (within the table, however small).
    pub fn with_near_end(mut self, near: NearEnd) -> TransTable {
        self.near_mask = self.mask.min(near.buckets.max(1) - 1);
        self.near_max = near.max_empties;
        self
    }

    /// Starts a new search: older entries are replaced first.
    pub fn new_search(&mut self) {
        self.gen = self.gen.wrapping_add(1).max(1);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.clear();
    }

    /// The bucket of an endgame node of `empties` empty squares: in the near-end region number
    /// `region` ([`NearEnd`]; each thread of a split search has its own) when it has few enough
    /// empties, else anywhere.
    #[inline(always)]
    pub fn end_slot(&self, p: u64, o: u64, empties: u32, region: usize) -> Slot {
        let h = hash(p, o) as usize;
        if empties <= self.near_max {
            Slot(((h & self.near_mask) + region * (self.near_mask + 1)) & self.mask)
        } else {
            Slot(h & self.mask)
        }
    }

    /// The bucket of a position, anywhere in the table (the endgame's nodes use
    /// [`TransTable::end_slot`]).
    #[inline(always)]
    pub fn slot(&self, p: u64, o: u64) -> Slot {
        Slot(hash(p, o) as usize & self.mask)
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
        self.probe_slot(self.slot(p, o), p, o)
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
        self.store_slot(self.slot(p, o), p, o, depth, alpha, beta, score, mv)
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
            let near = tt.end_slot(p, o, 9, 0);
            let far = tt.slot(p, o);
            assert!(near.0 < NEAR_END.buckets);
            far_outside |= far.0 >= NEAR_END.buckets;
            assert_eq!(near.0, far.0 & (NEAR_END.buckets - 1));
            assert_eq!(tt.end_slot(p, o, 9, 1).0, near.0 + NEAR_END.buckets);
            assert_eq!(tt.end_slot(p, o, 10, 1).0, far.0);
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
        let s = tt.slot(1, 2);
        tt.store_slot(s, 1, 2, 10, 0, 5, -3, NO_MOVE);
        let e = tt.probe(1, 2).expect("stored");
        assert_eq!((e.lower, e.upper), (i16::MIN, -3));
    }
}
