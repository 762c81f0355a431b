//! The eight symmetries of the board.

use crate::{Bitboard, Position, Square};

/// One of the eight symmetries of the square board (the dihedral group of order 8).
///
/// Rotations turn clockwise as the board is drawn (`a1` top left, row 1 on top).
///
/// # Examples
///
/// ```
/// use reversi_core::{Position, Square, Symmetry};
/// assert_eq!(Symmetry::Rotate90.square(Square::A1), Square::H1);
/// // The start position is symmetric under the half turn and both diagonal reflections.
/// let start = Position::initial();
/// assert_eq!(Symmetry::Rotate180.position(&start), start);
/// assert_eq!(Symmetry::ALL.iter().filter(|s| s.position(&start) == start).count(), 4);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Symmetry {
    /// No change.
    Identity,
    /// A quarter turn clockwise: `(column, row)` → `(7 - row, column)`.
    Rotate90,
    /// A half turn: `(column, row)` → `(7 - column, 7 - row)`.
    Rotate180,
    /// Three quarter turns clockwise: `(column, row)` → `(row, 7 - column)`.
    Rotate270,
    /// Rows reversed (top and bottom swap): `(column, row)` → `(column, 7 - row)`.
    FlipVertical,
    /// Columns reversed (left and right swap): `(column, row)` → `(7 - column, row)`.
    FlipHorizontal,
    /// Reflection in the `a1`–`h8` diagonal: `(column, row)` → `(row, column)`.
    FlipDiagonal,
    /// Reflection in the `h1`–`a8` diagonal: `(column, row)` → `(7 - row, 7 - column)`.
    FlipAntiDiagonal,
}

/// Reverses the columns of each row (a ↔ h).
#[inline]
pub(crate) fn mirror_columns(mut x: u64) -> u64 {
    x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
    x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
    ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// Reflects in the a1–h8 diagonal.
#[inline]
pub(crate) fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

impl Symmetry {
    /// All eight, identity first.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_core::Symmetry::ALL.len(), 8);
    /// ```
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipVertical,
        Symmetry::FlipHorizontal,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
    ];

    /// The symmetry that undoes this one.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Square, Symmetry};
    /// let s = Symmetry::Rotate90;
    /// assert_eq!(s.inverse().square(s.square(Square::B7)), Square::B7);
    /// ```
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// The image of a square.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Square, Symmetry};
    /// assert_eq!(Symmetry::FlipDiagonal.square(Square::B1), Square::A2);
    /// ```
    #[must_use]
    pub const fn square(self, sq: Square) -> Square {
        let (c, r) = (sq.column(), sq.row());
        let (c2, r2) = match self {
            Symmetry::Identity => (c, r),
            Symmetry::Rotate90 => (7 - r, c),
            Symmetry::Rotate180 => (7 - c, 7 - r),
            Symmetry::Rotate270 => (r, 7 - c),
            Symmetry::FlipVertical => (c, 7 - r),
            Symmetry::FlipHorizontal => (7 - c, r),
            Symmetry::FlipDiagonal => (r, c),
            Symmetry::FlipAntiDiagonal => (7 - r, 7 - c),
        };
        Square::ALL[(r2 * 8 + c2) as usize]
    }

    /// The image of a set of squares.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Bitboard, Square, Symmetry};
    /// let b = Bitboard::EMPTY.with(Square::A1);
    /// assert_eq!(Symmetry::FlipVertical.bitboard(b), Bitboard::EMPTY.with(Square::A8));
    /// ```
    #[must_use]
    pub fn bitboard(self, b: Bitboard) -> Bitboard {
        let x = b.0;
        Bitboard(match self {
            Symmetry::Identity => x,
            Symmetry::Rotate90 => mirror_columns(transpose(x)),
            Symmetry::Rotate180 => x.reverse_bits(),
            Symmetry::Rotate270 => transpose(x).swap_bytes(),
            Symmetry::FlipVertical => x.swap_bytes(),
            Symmetry::FlipHorizontal => mirror_columns(x),
            Symmetry::FlipDiagonal => transpose(x),
            Symmetry::FlipAntiDiagonal => transpose(x).reverse_bits(),
        })
    }

    /// The image of a position (same side to move).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Position, Square, Symmetry};
    /// let p = Position::initial().play_unchecked(Square::F5.into());
    /// let q = Symmetry::Rotate180.position(&p);
    /// assert_eq!(q.empty().count(), 59);
    /// assert!(q.color_at(Square::C4).is_some());
    /// ```
    #[must_use]
    pub fn position(self, p: &Position) -> Position {
        Position::from_player_opponent(
            self.bitboard(p.player()),
            self.bitboard(p.opponent()),
            p.side_to_move(),
        )
    }
}
