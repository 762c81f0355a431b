//! The two sides.

use crate::ParseColorError;
use core::fmt;
use core::ops::Not;
use core::str::FromStr;

/// A side: black moves first.
///
/// # Examples
///
/// ```
/// use reversi_core::Color;
/// assert_eq!(!Color::Black, Color::White);
/// assert_eq!("white".parse::<Color>().unwrap(), Color::White);
/// assert_eq!(Color::Black.to_string(), "black");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Color {
    /// Black, `X` in board strings; moves first.
    Black,
    /// White, `O` in board strings.
    White,
}

impl Color {
    /// Both colours, black first.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_core::Color::BOTH.len(), 2);
    /// ```
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Color;
    /// assert_eq!(Color::White.opposite(), Color::Black);
    /// ```
    #[must_use]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The character of board strings: `X` for black, `O` for white.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_core::Color::White.to_char(), 'O');
    /// ```
    #[must_use]
    pub const fn to_char(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// 0 for black, 1 for white.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_core::Color::White.index(), 1);
    /// ```
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.opposite()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

impl FromStr for Color {
    type Err = ParseColorError;

    /// Parses `black`/`white`, `b`/`w` or `X`/`O`, in any case.
    ///
    /// # Errors
    ///
    /// [`ParseColorError`] for anything else.
    fn from_str(s: &str) -> Result<Self, ParseColorError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Color::Black),
            "white" | "w" | "o" => Ok(Color::White),
            _ => Err(ParseColorError {
                input: s.to_string(),
            }),
        }
    }
}
