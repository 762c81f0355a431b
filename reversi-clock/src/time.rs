//! Integer-millisecond time: wall-clock instants ([`Millis`]) and durations ([`Span`]).

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A wall-clock instant: whole milliseconds since the Unix epoch.
///
/// The clock never reads the system clock itself: the host passes `now` to every call that
/// changes state. Because the value is wall-clock time, a serialised clock that is loaded again
/// after a restart goes on from what absolute time says.
///
/// # Examples
///
/// ```
/// use reversi_clock::{Millis, Span};
///
/// let t = Millis(1_000);
/// assert_eq!(t + Span::from_secs(2), Millis(3_000));
/// assert_eq!(Millis(3_000).saturating_since(t), Span::from_secs(2));
/// assert_eq!(t.saturating_since(Millis(3_000)), Span::ZERO);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Millis(pub u64);

impl Millis {
    /// The Unix epoch, `Millis(0)`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_clock::Millis::EPOCH.0, 0);
    /// ```
    pub const EPOCH: Millis = Millis(0);

    /// Converts a [`SystemTime`] (as read by a host) to milliseconds since the epoch.
    ///
    /// Times before the epoch become [`Millis::EPOCH`]; times too far in the future saturate.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use reversi_clock::Millis;
    ///
    /// let t = UNIX_EPOCH + Duration::from_millis(1_234);
    /// assert_eq!(Millis::from_system_time(t), Millis(1_234));
    /// ```
    #[must_use]
    pub fn from_system_time(t: SystemTime) -> Millis {
        match t.duration_since(UNIX_EPOCH) {
            Ok(d) => Millis::EPOCH + Span::from(d),
            Err(_) => Millis::EPOCH,
        }
    }

    /// The span from `earlier` to `self`, or [`Span::ZERO`] if `earlier` is later.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Millis, Span};
    /// assert_eq!(Millis(10).saturating_since(Millis(4)), Span(6));
    /// assert_eq!(Millis(4).saturating_since(Millis(10)), Span::ZERO);
    /// ```
    #[must_use]
    pub const fn saturating_since(self, earlier: Millis) -> Span {
        Span(self.0.saturating_sub(earlier.0))
    }

    /// `self + span`, saturating at `u64::MAX` milliseconds.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Millis, Span};
    /// assert_eq!(Millis(u64::MAX).saturating_add(Span(1)), Millis(u64::MAX));
    /// ```
    #[must_use]
    pub const fn saturating_add(self, span: Span) -> Millis {
        Millis(self.0.saturating_add(span.0))
    }
}

impl std::ops::Add<Span> for Millis {
    type Output = Millis;
    /// Saturating addition (never panics).
    fn add(self, rhs: Span) -> Millis {
        self.saturating_add(rhs)
    }
}

impl fmt::Display for Millis {
    /// Writes the raw count, e.g. `1234ms`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}ms", self.0)
    }
}

/// A duration in whole milliseconds.
///
/// Arithmetic through the operators saturates: a span never goes below zero and never panics.
/// It displays as a clock face: `m:ss`, or `h:mm:ss` from one hour on, followed by `.mmm` when
/// the milliseconds are not zero.
///
/// # Examples
///
/// ```
/// use reversi_clock::Span;
///
/// let t = Span::from_mins(5) + Span::from_secs(30);
/// assert_eq!(t.as_millis(), 330_000);
/// assert_eq!(t.to_string(), "5:30");
/// assert_eq!((Span::from_secs(1) - Span::from_secs(3)), Span::ZERO);
/// assert_eq!(Span(61_500).to_string(), "1:01.500");
/// assert_eq!(Span::from_mins(90).to_string(), "1:30:00");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Span(pub u64);

impl Span {
    /// No time at all.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_clock::Span::ZERO.as_millis(), 0);
    /// ```
    pub const ZERO: Span = Span(0);

    /// The longest span, `u64::MAX` milliseconds.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// assert_eq!(Span::MAX + Span(1), Span::MAX);
    /// ```
    pub const MAX: Span = Span(u64::MAX);

    /// A span of `ms` milliseconds.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_clock::Span::from_millis(250).0, 250);
    /// ```
    #[must_use]
    pub const fn from_millis(ms: u64) -> Span {
        Span(ms)
    }

    /// A span of `s` seconds (saturating).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_clock::Span::from_secs(2).as_millis(), 2_000);
    /// ```
    #[must_use]
    pub const fn from_secs(s: u64) -> Span {
        Span(s.saturating_mul(1_000))
    }

    /// A span of `m` minutes (saturating).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_clock::Span::from_mins(1).as_millis(), 60_000);
    /// ```
    #[must_use]
    pub const fn from_mins(m: u64) -> Span {
        Span(m.saturating_mul(60_000))
    }

    /// The number of whole milliseconds.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_clock::Span(42).as_millis(), 42);
    /// ```
    #[must_use]
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// The number of whole seconds (rounded down).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_clock::Span(1_999).as_secs(), 1);
    /// ```
    #[must_use]
    pub const fn as_secs(self) -> u64 {
        self.0 / 1_000
    }

    /// Whether the span is zero.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(reversi_clock::Span::ZERO.is_zero());
    /// ```
    #[must_use]
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// `self + rhs`, saturating at [`Span::MAX`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// assert_eq!(Span(1).saturating_add(Span(2)), Span(3));
    /// ```
    #[must_use]
    pub const fn saturating_add(self, rhs: Span) -> Span {
        Span(self.0.saturating_add(rhs.0))
    }

    /// `self - rhs`, saturating at [`Span::ZERO`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// assert_eq!(Span(1).saturating_sub(Span(2)), Span::ZERO);
    /// ```
    #[must_use]
    pub const fn saturating_sub(self, rhs: Span) -> Span {
        Span(self.0.saturating_sub(rhs.0))
    }

    /// `self - rhs`, or `None` if `rhs` is longer.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// assert_eq!(Span(5).checked_sub(Span(2)), Some(Span(3)));
    /// assert_eq!(Span(1).checked_sub(Span(2)), None);
    /// ```
    #[must_use]
    pub const fn checked_sub(self, rhs: Span) -> Option<Span> {
        match self.0.checked_sub(rhs.0) {
            Some(v) => Some(Span(v)),
            None => None,
        }
    }

    /// `self * n`, saturating at [`Span::MAX`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// assert_eq!(Span::from_secs(30).saturating_mul(3), Span::from_secs(90));
    /// ```
    #[must_use]
    pub const fn saturating_mul(self, n: u64) -> Span {
        Span(self.0.saturating_mul(n))
    }
}

impl std::ops::Add for Span {
    type Output = Span;
    /// Saturating addition.
    fn add(self, rhs: Span) -> Span {
        self.saturating_add(rhs)
    }
}

impl std::ops::Sub for Span {
    type Output = Span;
    /// Saturating subtraction: never below zero.
    fn sub(self, rhs: Span) -> Span {
        self.saturating_sub(rhs)
    }
}

impl From<Span> for Duration {
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use reversi_clock::Span;
    /// assert_eq!(Duration::from(Span(1_500)), Duration::from_millis(1_500));
    /// ```
    fn from(s: Span) -> Duration {
        Duration::from_millis(s.0)
    }
}

impl From<Duration> for Span {
    /// Truncates to whole milliseconds and saturates at [`Span::MAX`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use reversi_clock::Span;
    /// assert_eq!(Span::from(Duration::from_micros(1_999)), Span(1));
    /// ```
    fn from(d: Duration) -> Span {
        Span(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0 % 1_000;
        let total_secs = self.0 / 1_000;
        let s = total_secs % 60;
        let total_mins = total_secs / 60;
        if total_mins >= 60 {
            write!(f, "{}:{:02}:{:02}", total_mins / 60, total_mins % 60, s)?;
        } else {
            write!(f, "{total_mins}:{s:02}")?;
        }
        if ms != 0 {
            write!(f, ".{ms:03}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_faces() {
        let cases = [
            (0, "0:00"),
            (999, "0:00.999"),
            (1_000, "0:01"),
            (59_999, "0:59.999"),
            (60_000, "1:00"),
            (3_599_000, "59:59"),
            (3_600_000, "1:00:00"),
            (3_600_001, "1:00:00.001"),
            (360_000_000, "100:00:00"),
        ];
        for (ms, face) in cases {
            assert_eq!(Span(ms).to_string(), face);
        }
    }

    #[test]
    fn system_time_before_the_epoch_is_the_epoch() {
        let before = UNIX_EPOCH - Duration::from_secs(5);
        assert_eq!(Millis::from_system_time(before), Millis::EPOCH);
    }

    /// Unix's SystemTime counts seconds in an i64: it reaches past `u64::MAX` milliseconds.
    #[test]
    #[cfg(unix)]
    fn system_time_past_the_last_millisecond_saturates() {
        let past = UNIX_EPOCH
            .checked_add(Duration::from_millis(u64::MAX) + Duration::from_millis(1))
            .expect("a Unix SystemTime reaches 2^64 ms after the epoch");
        assert_eq!(Millis::from_system_time(past), Millis(u64::MAX));
    }

    #[test]
    fn serde_is_a_bare_number() {
        assert_eq!(serde_json::to_string(&Span(5)).unwrap(), "5");
        assert_eq!(serde_json::from_str::<Millis>("7").unwrap(), Millis(7));
    }
}
