//! A bounded transposition table: two-entry buckets aligned to a cache line, full-key
//! verification, replacement by generation then depth.

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

/// No move stored.
pub(crate) const NO_MOVE: u8 = 64;

/// Two entries in one 64-byte cache line (a probe costs one memory access).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; 2]);

pub(crate) struct TransTable {
    buckets: Vec<Bucket>,
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
        TransTable {
            buckets: vec![Bucket::default(); n],
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
        self.buckets.fill(Bucket::default());
    }

    /// Starts loading the bucket of a position into the cache.
    #[inline(always)]
    pub fn prefetch(&self, p: u64, o: u64) {
        let i = hash(p, o) as usize & self.mask;
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let ptr = self.buckets[i].0.as_ptr().cast::<i8>();
            // SAFETY: a prefetch has no effect on the program's state; SSE is part of x86-64.
            #[allow(unused_unsafe)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(ptr)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    #[inline(always)]
    pub fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let i = hash(p, o) as usize & self.mask;
        let b = &self.buckets[i].0;
        if b[0].p == p && b[0].o == o {
            Some(b[0])
        } else if b[1].p == p && b[1].o == o {
            Some(b[1])
        } else {
            None
        }
    }

    /// Stores the result `score` of a search of window (`alpha`, `beta`) at `depth`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32, score: i32, mv: u8) {
        let i = hash(p, o) as usize & self.mask;
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
        let b = &mut self.buckets[i].0;
        for e in b.iter_mut() {
            if e.p == p && e.o == o {
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
                return;
            }
        }
        // Replace: an entry of an older search first, else the shallower one.
        let score_of = |e: &Entry| (e.gen == gen) as u32 * 256 + e.depth as u32;
        let k = if score_of(&b[0]) <= score_of(&b[1]) {
            0
        } else {
            1
        };
        b[k] = Entry {
            p,
            o,
            lower,
            upper,
            depth,
            mv,
            gen,
        };
    }
}
