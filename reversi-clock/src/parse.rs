//! Parsing a total time typed by a user.

use thiserror::Error;

use crate::Span;

/// Why a typed time was refused by [`parse_total_time`].
///
/// # Examples
///
/// ```
/// use reversi_clock::{parse_total_time, ParseTimeError};
/// assert_eq!(parse_total_time("5:75"), Err(ParseTimeError::SecondsOutOfRange { seconds: 75 }));
/// assert_eq!(parse_total_time("5:75").unwrap_err().to_string(), "seconds must be below 60, not 75");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Error)]
#[non_exhaustive]
pub enum ParseTimeError {
    /// Nothing but spaces was typed.
    #[error("no time was given")]
    Empty,
    /// The time is negative or zero.
    #[error("the time must be more than zero")]
    NotPositive,
    /// Seconds of 60 or more in `m:ss` or `h:mm:ss`.
    #[error("seconds must be below 60, not {seconds}")]
    SecondsOutOfRange {
        /// The whole seconds typed.
        seconds: u64,
    },
    /// Minutes of 60 or more in `h:mm:ss`.
    #[error("minutes must be below 60 in h:mm:ss, not {minutes}")]
    MinutesOutOfRange {
        /// The minutes typed.
        minutes: u64,
    },
    /// A part is not a number (empty, or not made of ASCII digits and one decimal point).
    #[error("{part:?} is not a number")]
    NonNumeric {
        /// The offending part, as typed.
        part: String,
    },
    /// More than three `:`-separated parts.
    #[error("too many parts: {parts} (at most h:mm:ss)")]
    TooManyParts {
        /// How many parts were typed.
        parts: usize,
    },
    /// The time does not fit in `u64` milliseconds.
    #[error("the time is too long")]
    Overflow,
}

/// Parses a total time as a user types it.
///
/// - `10` and `10:00` mean 10 minutes; `5:30` and `5.5` mean 5 minutes 30 seconds;
/// - `1:30:00` (`h:mm:ss`) means an hour and a half;
/// - the seconds may have a fraction (`0:09.5`), so that every nonzero [`Span`]'s `Display`
///   parses back (zero, `0:00`, is refused);
/// - surrounding spaces are ignored.
///
/// Decimals are converted with integer arithmetic, rounding down to whole milliseconds.
///
/// # Errors
///
/// A [`ParseTimeError`] naming the problem: [`Empty`](ParseTimeError::Empty),
/// [`NotPositive`](ParseTimeError::NotPositive) (negative or zero, such as `-5` or `0:00`),
/// [`SecondsOutOfRange`](ParseTimeError::SecondsOutOfRange) (`5:60`),
/// [`MinutesOutOfRange`](ParseTimeError::MinutesOutOfRange) (`1:60:00`),
/// [`NonNumeric`](ParseTimeError::NonNumeric) (`ten`, `5:`, `1.2.3`),
/// [`TooManyParts`](ParseTimeError::TooManyParts) (`1:2:3:4`),
/// [`Overflow`](ParseTimeError::Overflow).
///
/// # Examples
///
/// ```
/// use reversi_clock::{parse_total_time, ParseTimeError, Span};
///
/// assert_eq!(parse_total_time("10"), Ok(Span::from_mins(10)));
/// assert_eq!(parse_total_time(" 10:00 "), Ok(Span::from_mins(10)));
/// assert_eq!(parse_total_time("5:30"), Ok(Span::from_secs(330)));
/// assert_eq!(parse_total_time("5.5"), Ok(Span::from_secs(330)));
/// assert_eq!(parse_total_time("1:30:00"), Ok(Span::from_mins(90)));
/// assert_eq!(parse_total_time(""), Err(ParseTimeError::Empty));
/// assert_eq!(parse_total_time("-3"), Err(ParseTimeError::NotPositive));
/// assert_eq!(parse_total_time("1:2:3:4"), Err(ParseTimeError::TooManyParts { parts: 4 }));
/// ```
pub fn parse_total_time(input: &str) -> Result<Span, ParseTimeError> {
    let s = input.trim();
    if s.is_empty() {
        return Err(ParseTimeError::Empty);
    }
    if let Some(rest) = s.strip_prefix('-') {
        // A negative time: say so if the rest is a time (or zero), else say what is wrong.
        return match parse_unsigned(rest.trim_start()) {
            Ok(_) | Err(ParseTimeError::NotPositive) => Err(ParseTimeError::NotPositive),
            Err(ParseTimeError::Empty) => Err(ParseTimeError::NonNumeric { part: s.to_owned() }),
            Err(e) => Err(e),
        };
    }
    parse_unsigned(s)
}

fn parse_unsigned(s: &str) -> Result<Span, ParseTimeError> {
    if s.is_empty() {
        return Err(ParseTimeError::Empty);
    }
    let parts: Vec<&str> = s.split(':').collect();
    let ms = match parts.as_slice() {
        [mins] => decimal(mins, 60_000)?,
        [mins, secs] => {
            let m = whole(mins)?;
            let sec = seconds(secs)?;
            m.checked_mul(60_000)
                .and_then(|m| m.checked_add(sec))
                .ok_or(ParseTimeError::Overflow)?
        }
        [hours, mins, secs] => {
            let h = whole(hours)?;
            let m = whole(mins)?;
            let sec = seconds(secs)?;
            if m >= 60 {
                return Err(ParseTimeError::MinutesOutOfRange { minutes: m });
            }
            h.checked_mul(3_600_000)
                .and_then(|h| h.checked_add(m * 60_000))
                .and_then(|t| t.checked_add(sec))
                .ok_or(ParseTimeError::Overflow)?
        }
        _ => {
            return Err(ParseTimeError::TooManyParts { parts: parts.len() });
        }
    };
    if ms == 0 {
        return Err(ParseTimeError::NotPositive);
    }
    Ok(Span(ms))
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// A whole number of ASCII digits.
fn whole(part: &str) -> Result<u64, ParseTimeError> {
    if !is_digits(part) {
        return Err(ParseTimeError::NonNumeric {
            part: part.to_owned(),
        });
    }
    // Only digits: the one failure left is overflow.
    part.parse().map_err(|_| ParseTimeError::Overflow)
}

/// Seconds below 60, possibly with a fraction, in milliseconds.
fn seconds(part: &str) -> Result<u64, ParseTimeError> {
    let ms = decimal(part, 1_000)?;
    let whole_secs = ms / 1_000;
    if whole_secs >= 60 {
        return Err(ParseTimeError::SecondsOutOfRange {
            seconds: whole_secs,
        });
    }
    Ok(ms)
}

/// `digits[.digits]` times `unit` milliseconds, rounded down, in integers only.
fn decimal(part: &str, unit: u64) -> Result<u64, ParseTimeError> {
    let non_numeric = || ParseTimeError::NonNumeric {
        part: part.to_owned(),
    };
    let (int, frac) = match part.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (part, None),
    };
    if !is_digits(int) {
        return Err(non_numeric());
    }
    let int_ms = whole(int)?
        .checked_mul(unit)
        .ok_or(ParseTimeError::Overflow)?;
    let Some(frac) = frac else {
        return Ok(int_ms);
    };
    if !is_digits(frac) {
        return Err(non_numeric());
    }
    // Exact for any number of digits: with g the rounded-down product of `unit` and the digits
    // after d, the one for d and its followers is (unit * d + g) / 10 rounded down. Every value
    // stays below 10 * unit.
    let frac_ms = frac
        .bytes()
        .rev()
        .fold(0, |g, d| (unit * u64::from(d - b'0') + g) / 10);
    int_ms.checked_add(frac_ms).ok_or(ParseTimeError::Overflow)
}
