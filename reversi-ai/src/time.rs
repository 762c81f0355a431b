//! Where a search reads the time (the system's monotonic clock, or a source the host hands in),
//! and how long a move may think on a clock ([`think_time`]).

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

/// How long a move may think on a clock without losing on time: the rule that the local
/// games' computer (the facade's `LocalMatch::think_budget`) and the NBoard engine share.
///
/// - `left`: the time to the flag for this move (under a per-move limit and a bank, the
///   smaller of the two);
/// - `bank`: the time to be shared over the mover's moves left, `None` when each move has its
///   own limit (then the move may use all of `left`);
/// - `returned`: what comes back after the move (a Fischer increment, a delay, a byo-yomi
///   period kept by a move made within it), of which three quarters are spent;
/// - `empties`: the empty squares, half of which are taken as the mover's moves left (at
///   least 3).
///
/// A quarter of a second (or a quarter of `left`, if less) is kept back, and the answer is at
/// least 20 ms and at most `left` less that margin. Times are counted in whole milliseconds.
///
/// # Examples
///
/// ```
/// use reversi_ai::time::think_time;
/// use std::time::Duration;
/// let ms = Duration::from_millis;
/// // 15 s a move: all of it but the margin.
/// assert_eq!(think_time(ms(15_000), None, Duration::ZERO, 60), ms(14_750));
/// // A 5-minute bank at 40 empties: 20 moves left.
/// assert_eq!(think_time(ms(300_000), Some(ms(300_000)), Duration::ZERO, 40), ms(14_987));
/// // Two seconds a move come back: 1.5 s of them are spent too.
/// assert_eq!(think_time(ms(10_000), Some(ms(10_000)), ms(2_000), 40), ms(1_987));
/// // Almost flagged: never more than the time left.
/// assert!(think_time(ms(100), Some(ms(100)), ms(2_000), 40) < ms(100));
/// ```
#[must_use]
pub fn think_time(
    left: Duration,
    bank: Option<Duration>,
    returned: Duration,
    empties: u32,
) -> Duration {
    let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    let left = ms(left);
    let margin = 250.min(left / 4);
    let usable = left.saturating_sub(margin).max(20);
    let share = match bank {
        None => usable,
        Some(bank) => {
            let moves = (u64::from(empties) / 2).max(3);
            (ms(bank).saturating_sub(margin) / moves).saturating_add(ms(returned) / 4 * 3)
        }
    };
    Duration::from_millis(share.clamp(20, usable))
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
