//! Zeroed memory for large tables (transposition tables, perft's tables), backed by huge pages
//! where the system offers them.
//!
//! A table of hundreds of MiB probed at random misses the TLB at nearly every probe when it lies
//! in 4 KiB pages. On 64-bit Linux, [`ZeroedSlice`] maps its memory fresh, aligned to 2 MiB, and
//! asks the kernel to back it with transparent huge pages (`madvise`: where the system's
//! setting is `madvise`, as on the machine these tables were measured on, only memory that asks
//! gets them). Elsewhere (other systems, WebAssembly) it is a plain zeroed allocation.

use core::ptr::NonNull;

/// A type for which all-zero bytes are a valid value, with no drop glue: what a
/// [`ZeroedSlice`] may hold.
///
/// # Safety
///
/// Implement it only for types whose all-zero bit pattern is a valid, initialised value and that
/// need no `Drop` (integers, atomic integers, arrays and tuples of such types).
///
/// # Examples
///
/// ```
/// use reversi_core::mem::{Zeroable, ZeroedSlice};
/// #[derive(Clone, Copy)]
/// struct Entry {
///     key: u64,
///     count: u64,
/// }
/// // SAFETY: two integers; zero bytes are the entry (0, 0), and nothing is dropped.
/// unsafe impl Zeroable for Entry {}
/// let table = ZeroedSlice::<Entry>::new(1024).unwrap();
/// assert!(table.iter().all(|e| e.key == 0 && e.count == 0));
/// ```
pub unsafe trait Zeroable: Sized {}

macro_rules! zeroable {
    ($($t:ty),*) => {
        $(
            // SAFETY: zero bytes are the value 0 (or false), and the type has no drop glue.
            unsafe impl Zeroable for $t {}
        )*
    };
}

zeroable!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
zeroable!(
    core::sync::atomic::AtomicU8,
    core::sync::atomic::AtomicU16,
    core::sync::atomic::AtomicU32,
    core::sync::atomic::AtomicU64,
    core::sync::atomic::AtomicUsize,
    core::sync::atomic::AtomicBool
);

// SAFETY: an array of zeroable elements is zeroable.
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}
// SAFETY: a tuple of zeroable fields is zeroable.
unsafe impl<A: Zeroable, B: Zeroable> Zeroable for (A, B) {}
// SAFETY: as above.
unsafe impl<A: Zeroable, B: Zeroable, C: Zeroable> Zeroable for (A, B, C) {}

/// A fixed-length slice of zeroed `T`, owned, on huge pages where the system offers them (see
/// the [module](self)). It dereferences to `[T]`.
///
/// # Examples
///
/// ```
/// use reversi_core::mem::ZeroedSlice;
/// let mut t = ZeroedSlice::<u64>::new(1 << 20).unwrap();
/// assert_eq!(t.len(), 1 << 20);
/// t[12] = 7;
/// assert_eq!(t.iter().sum::<u64>(), 7);
/// assert!(ZeroedSlice::<u64>::new(usize::MAX).is_none());
/// ```
pub struct ZeroedSlice<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    /// How the memory was had, to give it back on drop.
    from: Source,
}

/// Where a [`ZeroedSlice`]'s memory came from.
enum Source {
    /// Nothing allocated (an empty slice or a zero-sized type).
    Nothing,
    /// The global allocator, with this layout.
    Alloc(std::alloc::Layout),
    /// A mapping (start, length) of its own.
    #[cfg_attr(
        not(all(target_os = "linux", target_pointer_width = "64")),
        allow(dead_code)
    )]
    Map(usize, usize),
}

// SAFETY: the slice owns its elements exclusively, as a `Box<[T]>` does.
unsafe impl<T: Zeroable + Send> Send for ZeroedSlice<T> {}
// SAFETY: shared access gives `&[T]` only, as a `Box<[T]>` does.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedSlice<T> {}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
mod sys {
    /// A huge page of x86-64 and of most 64-bit Linux systems.
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

impl<T: Zeroable> ZeroedSlice<T> {
    /// `len` zeroed elements, or `None` when that much memory cannot be had (beyond the address
    /// space, or refused by the system). Large slices (2 MiB and more) are mapped on huge pages
    /// on 64-bit Linux; the memory is touched only as it is used.
    #[must_use]
    pub fn new(len: usize) -> Option<ZeroedSlice<T>> {
        let layout = std::alloc::Layout::array::<T>(len).ok()?;
        if layout.size() == 0 {
            return Some(ZeroedSlice {
                ptr: NonNull::dangling(),
                len,
                from: Source::Nothing,
            });
        }
        #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
        if layout.size() >= sys::HUGE_PAGE && layout.align() <= sys::HUGE_PAGE {
            if let Some((start, base, map_len)) = sys::map(layout.size()) {
                if let Some(ptr) = NonNull::new(start as *mut T) {
                    // Fresh anonymous memory reads as zeros, a valid `T` each.
                    return Some(ZeroedSlice {
                        ptr,
                        len,
                        from: Source::Map(base, map_len),
                    });
                }
            }
        }
        // SAFETY: the layout has a non-zero size; all-zero bytes are valid `T`s (`Zeroable`).
        let raw = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
        Some(ZeroedSlice {
            ptr: NonNull::new(raw)?,
            len,
            from: Source::Alloc(layout),
        })
    }

    /// Sets every element back to zero.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::mem::ZeroedSlice;
    /// let mut t = ZeroedSlice::<u32>::new(8).unwrap();
    /// t[3] = 9;
    /// t.clear();
    /// assert_eq!(&t[..], &[0; 8]);
    /// ```
    pub fn clear(&mut self) {
        // SAFETY: `&mut self` is exclusive; the slice holds `len` elements, and all-zero bytes
        // are a valid `T`.
        unsafe { core::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) };
    }
}

impl<T: Zeroable> core::ops::Deref for ZeroedSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised elements owned by `self` (dangling and
        // well aligned when nothing was allocated).
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> core::ops::DerefMut for ZeroedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is exclusive.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> core::fmt::Debug for ZeroedSlice<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ZeroedSlice")
            .field("len", &self.len)
            .field("mapped", &matches!(self.from, Source::Map(..)))
            .finish()
    }
}

impl<T: Zeroable> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        match self.from {
            Source::Nothing => {}
            // SAFETY: allocated in `new` with this layout, and no longer referenced.
            Source::Alloc(layout) => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr().cast(), layout);
            },
            #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
            Source::Map(base, len) => sys::unmap(base, len),
            #[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
            Source::Map(..) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_of_every_size_start_zeroed_and_keep_what_is_written() {
        for len in [0usize, 1, 7, 4096, (1 << 21) / 8 + 3, 1 << 22] {
            let mut t = ZeroedSlice::<u64>::new(len).unwrap();
            assert_eq!(t.len(), len);
            assert!(t.iter().all(|&x| x == 0));
            if len > 0 {
                t[len - 1] = 5;
                t[0] = 3;
                assert_eq!(t.iter().sum::<u64>(), if len == 1 { 3 } else { 8 });
                t.clear();
                assert!(t.iter().all(|&x| x == 0));
            }
        }
    }

    #[test]
    fn large_slices_are_aligned_to_a_huge_page_on_linux() {
        let t = ZeroedSlice::<[u64; 8]>::new(1 << 16).unwrap();
        let aligned = (t.as_ptr() as usize).is_multiple_of(1 << 21);
        assert_eq!(
            aligned,
            cfg!(all(target_os = "linux", target_pointer_width = "64"))
        );
    }

    #[test]
    fn impossible_sizes_are_refused() {
        assert!(ZeroedSlice::<u64>::new(usize::MAX / 4).is_none());
        assert!(ZeroedSlice::<[u8; 64]>::new(usize::MAX / 32).is_none());
    }
}
