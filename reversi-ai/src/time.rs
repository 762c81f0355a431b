//! Where a search reads the time: the system's monotonic clock, or a source the host hands in.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::time::Duration;

/// A monotonic clock for search deadlines: a function giving the time elapsed since any fixed
/// origin.
///
/// Searches read the time only through a `TimeSource`, which [`Limits`](crate::Limits) carries
/// ([`Limits::with_time_source`](crate::Limits::with_time_source)); without one they use
/// [`TimeSource::system`]. A host with no system clock hands its own: a Web Worker running the
/// engine compiled to WebAssembly passes `performance.now()`.
///
/// # Examples
///
/// ```
/// use reversi_ai::{Engine, Level, Limits, TimeSource};
/// use reversi_core::Position;
/// use std::sync::atomic::AtomicBool;
/// use std::time::Duration;
///
/// // A clock that stands still at zero: the deadline never passes, the depth limit ends the search.
/// fn frozen() -> Duration {
///     Duration::ZERO
/// }
/// let limits = Limits::depth(2)
///     .with_time(Duration::from_millis(1))
///     .with_time_source(TimeSource::new(frozen));
/// let r = Level::Hard.engine(0).choose(&Position::initial(), &limits, &AtomicBool::new(false)).unwrap();
/// assert_eq!(r.depth, 2);
/// ```
#[derive(Clone, Copy)]
pub struct TimeSource {
    now: fn() -> Duration,
}

impl TimeSource {
    /// A source that calls `now`, which must never go backwards.
    ///
    /// # Examples
    ///
    /// ```
    /// fn since_start() -> std::time::Duration {
    ///     std::time::Duration::from_millis(5)
    /// }
    /// let t = reversi_ai::TimeSource::new(since_start);
    /// assert_eq!(t.now().as_millis(), 5);
    /// ```
    #[must_use]
    pub const fn new(now: fn() -> Duration) -> TimeSource {
        TimeSource { now }
    }

    /// The system's monotonic clock (`std::time::Instant`), measured from the first time any
    /// system source is read in this process.
    ///
    /// On `wasm32-unknown-unknown`, which has no clock, it is a virtual clock that moves on one
    /// millisecond each time it is read, so that a time limit still ends a search there (at a
    /// pace that depends on the machine); hand a real source with [`TimeSource::new`].
    ///
    /// # Examples
    ///
    /// ```
    /// let t = reversi_ai::TimeSource::system();
    /// assert!(t.now() <= t.now());
    /// ```
    #[must_use]
    pub fn system() -> TimeSource {
        TimeSource::new(system_now)
    }

    /// The time elapsed since the source's origin.
    ///
    /// # Examples
    ///
    /// ```
    /// let t = reversi_ai::TimeSource::system();
    /// let a = t.now();
    /// assert!(t.now() >= a);
    /// ```
    #[must_use]
    pub fn now(self) -> Duration {
        (self.now)()
    }
}

impl Default for TimeSource {
    /// [`TimeSource::system`].
    fn default() -> TimeSource {
        TimeSource::system()
    }
}

impl PartialEq for TimeSource {
    /// The same function.
    fn eq(&self, other: &TimeSource) -> bool {
        std::ptr::fn_addr_eq(self.now, other.now)
    }
}

impl Eq for TimeSource {}

impl Hash for TimeSource {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.now as usize).hash(state);
    }
}

impl fmt::Debug for TimeSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == TimeSource::system() {
            f.write_str("TimeSource::system()")
        } else {
            f.write_str("TimeSource::new(..)")
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn system_now() -> Duration {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed()
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn system_now() -> Duration {
    use std::sync::atomic::{AtomicU64, Ordering};
    static READS: AtomicU64 = AtomicU64::new(0);
    Duration::from_millis(READS.fetch_add(1, Ordering::Relaxed))
}

/// A point in time on a source, after which a search gives up.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    source: TimeSource,
    start: Duration,
    at: Duration,
}

impl Deadline {
    /// `budget` from now on `source`.
    pub(crate) fn after(source: TimeSource, budget: Duration) -> Deadline {
        let start = source.now();
        Deadline {
            source,
            start,
            at: start.saturating_add(budget),
        }
    }

    /// Whether the deadline has passed.
    #[inline]
    pub(crate) fn passed(&self) -> bool {
        self.source.now() >= self.at
    }

    /// The time since the deadline was set.
    pub(crate) fn elapsed(&self) -> Duration {
        self.source.now().saturating_sub(self.start)
    }
}
