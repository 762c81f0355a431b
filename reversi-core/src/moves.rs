//! A move: a placement or a pass.

use crate::{ParseMoveError, Square};
use core::fmt;
use core::str::FromStr;

/// A move: a disc placed on a square, or a pass.
///
/// Written `d3` (or `D3`) and `pass` (or `ps`).
///
/// # Examples
///
/// ```
/// use reversi_core::{Move, Square};
/// assert_eq!("D3".parse::<Move>().unwrap(), Move::Place(Square::D3));
/// assert_eq!("PS".parse::<Move>().unwrap(), Move::Pass);
/// assert_eq!(Move::Pass.to_string(), "pass");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Move {
    /// A disc placed on the square.
    Place(Square),
    /// A forced pass.
    Pass,
}

impl Move {
    /// The square of a placement, `None` for a pass.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Move, Square};
    /// assert_eq!(Move::Place(Square::C4).square(), Some(Square::C4));
    /// assert_eq!(Move::Pass.square(), None);
    /// ```
    #[must_use]
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Place(s) => Some(s),
            Move::Pass => None,
        }
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Move {
        Move::Place(sq)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(s) => fmt::Display::fmt(s, f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses a square name or `pass`/`ps` (any case, surrounding spaces ignored).
    ///
    /// # Errors
    ///
    /// [`ParseMoveError`] for anything else.
    fn from_str(s: &str) -> Result<Self, ParseMoveError> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("ps") {
            return Ok(Move::Pass);
        }
        t.parse::<Square>()
            .map(Move::Place)
            .map_err(|_| ParseMoveError {
                input: s.to_string(),
            })
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
