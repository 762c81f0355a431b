//! Squares of the 8×8 board.

use crate::{Bitboard, ParseSquareError};
use core::fmt;
use core::str::FromStr;

macro_rules! squares {
    ($($name:ident = $idx:expr),* $(,)?) => {
        /// A square of the board, `A1` (top left, bit 0) to `H8` (bottom right, bit 63).
        ///
        /// Columns `a`–`h` run from left to right and rows `1`–`8` from top to bottom, so the
        /// index of a square is `row * 8 + column`.
        ///
        /// # Examples
        ///
        /// ```
        /// use reversi_core::Square;
        /// let sq: Square = "d3".parse().unwrap();
        /// assert_eq!(sq, Square::D3);
        /// assert_eq!(sq.index(), 19);
        /// assert_eq!(sq.to_string(), "d3");
        /// ```
        #[repr(u8)]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        #[allow(missing_docs)]
        pub enum Square {
            $($name = $idx),*
        }

        impl Square {
            /// All 64 squares in index order (`A1`, `B1`, …, `H8`).
            ///
            /// # Examples
            ///
            /// ```
            /// use reversi_core::Square;
            /// assert_eq!(Square::ALL.len(), 64);
            /// assert_eq!(Square::ALL[63], Square::H8);
            /// ```
            pub const ALL: [Square; 64] = [$(Square::$name),*];
        }
    };
}

squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square at `index` (0–63), or `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Square;
    /// assert_eq!(Square::from_index(27), Some(Square::D4));
    /// assert_eq!(Square::from_index(64), None);
    /// ```
    #[must_use]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square::ALL[index as usize])
        } else {
            None
        }
    }

    /// The square at `column` (0 = a … 7 = h) and `row` (0 = row 1 … 7 = row 8), or `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Square;
    /// assert_eq!(Square::from_coords(3, 2), Some(Square::D3));
    /// assert_eq!(Square::from_coords(8, 0), None);
    /// ```
    #[must_use]
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Square::ALL[(row * 8 + column) as usize])
        } else {
            None
        }
    }

    /// The index of the square, 0 (`A1`) to 63 (`H8`).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Square;
    /// assert_eq!(Square::H1.index(), 7);
    /// ```
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The column, 0 (`a`) to 7 (`h`).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Square;
    /// assert_eq!(Square::D3.column(), 3);
    /// ```
    #[must_use]
    pub const fn column(self) -> u8 {
        self as u8 % 8
    }

    /// The row, 0 (row `1`, top) to 7 (row `8`, bottom).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Square;
    /// assert_eq!(Square::D3.row(), 2);
    /// ```
    #[must_use]
    pub const fn row(self) -> u8 {
        self as u8 / 8
    }

    /// The bitboard holding only this square.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Square;
    /// assert_eq!(Square::C1.bitboard().0, 1 << 2);
    /// ```
    #[must_use]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1u64 << self as u8)
    }
}

impl TryFrom<u8> for Square {
    type Error = ParseSquareError;

    /// # Examples
    ///
    /// ```
    /// use reversi_core::Square;
    /// assert_eq!(Square::try_from(63u8).unwrap(), Square::H8);
    /// assert!(Square::try_from(64u8).is_err());
    /// ```
    fn try_from(value: u8) -> Result<Self, ParseSquareError> {
        Square::from_index(value).ok_or(ParseSquareError::Index(value))
    }
}

impl From<Square> for u8 {
    fn from(sq: Square) -> u8 {
        sq.index()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = (b'a' + self.column()) as char;
        let r = (b'1' + self.row()) as char;
        write!(f, "{c}{r}")
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses a square name such as `d3` or `D3`.
    ///
    /// # Errors
    ///
    /// [`ParseSquareError::Name`] for anything other than a column `a`–`h` (either case) followed by a
    /// row `1`–`8`, such as `i9`, `a0` or the empty string.
    fn from_str(s: &str) -> Result<Self, ParseSquareError> {
        let b = s.as_bytes();
        if b.len() == 2 {
            let c = b[0].to_ascii_lowercase();
            let r = b[1];
            if (b'a'..=b'h').contains(&c) && (b'1'..=b'8').contains(&r) {
                return Ok(Square::ALL[((r - b'1') * 8 + (c - b'a')) as usize]);
            }
        }
        Err(ParseSquareError::Name(s.to_string()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
