//! A set of squares as a 64-bit integer.

use crate::Square;
use core::fmt;
use core::iter::FusedIterator;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares: bit `i` is the square with index `i` (bit 0 is `a1`, bit 63 is `h8`).
///
/// The `Debug` form draws the board, `X` for a member and `.` for the rest, row 1 on top.
///
/// # Examples
///
/// ```
/// use reversi_core::{Bitboard, Square};
/// let b = Bitboard::EMPTY.with(Square::D3).with(Square::E4);
/// assert_eq!(b.count(), 2);
/// assert!(b.contains(Square::D3));
/// assert_eq!(b.iter().collect::<Vec<_>>(), vec![Square::D3, Square::E4]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(reversi_core::Bitboard::EMPTY.is_empty());
    /// ```
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_core::Bitboard::FULL.count(), 64);
    /// ```
    pub const FULL: Bitboard = Bitboard(!0);
    /// The four corners.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Bitboard, Square};
    /// assert!(Bitboard::CORNERS.contains(Square::H8));
    /// ```
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

    /// Whether the set has no square.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Bitboard, Square};
    /// assert!(Bitboard::EMPTY.is_empty());
    /// assert!(!Bitboard::EMPTY.with(Square::H8).is_empty());
    /// ```
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of squares in the set.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_core::Bitboard(0b1011).count(), 3);
    /// ```
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `sq` is in the set.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Bitboard, Square};
    /// assert!(Bitboard(1).contains(Square::A1));
    /// ```
    #[must_use]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq as u8 & 1 != 0
    }

    /// The set with `sq` added.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Bitboard, Square};
    /// assert_eq!(Bitboard::EMPTY.with(Square::B1), Bitboard(2));
    /// ```
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u64 << sq as u8)
    }

    /// The set with `sq` removed.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Bitboard, Square};
    /// assert_eq!(Bitboard(3).without(Square::A1), Bitboard(2));
    /// ```
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u64 << sq as u8))
    }

    /// The lowest square of the set, or `None` when empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Bitboard, Square};
    /// assert_eq!(Bitboard(0b1100).first(), Some(Square::C1));
    /// ```
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::ALL[self.0.trailing_zeros() as usize])
        }
    }

    /// An iterator over the squares of the set in index order.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Bitboard, Square};
    /// let mut it = Bitboard(0b101).iter();
    /// assert_eq!(it.len(), 2);
    /// assert_eq!(it.next_back(), Some(Square::C1));
    /// assert_eq!(it.next(), Some(Square::A1));
    /// assert_eq!(it.next(), None);
    /// ```
    #[must_use]
    pub const fn iter(self) -> Squares {
        Squares(self.0)
    }
}

/// The iterator of [`Bitboard::iter`]: the squares of a set, lowest index first.
///
/// # Examples
///
/// ```
/// use reversi_core::Bitboard;
/// let squares: Vec<_> = Bitboard(0x8000_0000_0000_0001).iter().map(|s| s.to_string()).collect();
/// assert_eq!(squares, ["a1", "h8"]);
/// ```
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Square::ALL[i as usize])
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Squares {
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = 63 - self.0.leading_zeros();
            self.0 &= !(1u64 << i);
            Some(Square::ALL[i as usize])
        }
    }
}

impl ExactSizeIterator for Squares {}
impl FusedIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    fn into_iter(self) -> Squares {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Self {
        sq.bitboard()
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference: the squares of `self` that are not in `rhs`.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for row in 0..8 {
            for col in 0..8 {
                let c = if self.0 >> (row * 8 + col) & 1 != 0 {
                    'X'
                } else {
                    '.'
                };
                if col > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Builds a [`Bitboard`] from a picture of eight rows: `X` for a member, `-` or `.` for the rest,
/// row 1 first.
///
/// # Panics
///
/// Panics when the picture does not hold exactly 64 cells of `X`, `-` or `.` (a programmer error
/// in a literal).
///
/// # Examples
///
/// ```
/// use reversi_core::{bitboard, Square};
/// let b = bitboard! {
///     X - - - - - - -
///     - - - - - - - -
///     - - - - - - - -
///     - - - - - - - -
///     - - - - - - - -
///     - - - - - - - -
///     - - - - - - - -
///     - - - - - - - X
/// };
/// assert_eq!(b.iter().collect::<Vec<_>>(), vec![Square::A1, Square::H8]);
/// ```
#[macro_export]
macro_rules! bitboard {
    ($($t:tt)+) => {
        $crate::Bitboard::from_picture(concat!($(stringify!($t)),+))
            .expect("a bitboard picture has 64 cells of X, - or .")
    };
}

impl Bitboard {
    /// Parses a picture of 64 cells, `X` for a member and `-` or `.` for the rest, ignoring white
    /// space; the first cell is `a1`. Used by the [`bitboard!`](crate::bitboard) macro.
    ///
    /// # Errors
    ///
    /// [`ParseBoardError::Length`](crate::ParseBoardError::Length) when there are not 64 cells,
    /// [`ParseBoardError::Char`](crate::ParseBoardError::Char) for a
    /// character other than `X`, `-`, `.` or white space.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Bitboard;
    /// assert_eq!(Bitboard::from_picture(&format!("X{}", "-".repeat(63))).unwrap(), Bitboard(1));
    /// assert!(Bitboard::from_picture("X").is_err());
    /// ```
    pub fn from_picture(s: &str) -> Result<Bitboard, crate::ParseBoardError> {
        let mut bits = 0u64;
        let mut n = 0usize;
        for (i, ch) in s.chars().enumerate() {
            match ch {
                c if c.is_whitespace() => continue,
                'X' | 'x' | '-' | '.' => {
                    if n < 64 && matches!(ch, 'X' | 'x') {
                        bits |= 1 << n;
                    }
                    n += 1;
                }
                _ => {
                    return Err(crate::ParseBoardError::Char {
                        index: i,
                        found: ch,
                    })
                }
            }
        }
        if n != 64 {
            return Err(crate::ParseBoardError::Length(n));
        }
        Ok(Bitboard(bits))
    }
}
