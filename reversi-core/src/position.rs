//! A position: the discs of the side to move and of its opponent, and who is to move.

use crate::movegen;
use crate::{Bitboard, Color, Move, ParseBoardError, PlayError, PositionError, Square};
use core::fmt;
use core::str::FromStr;

/// A position in mover-relative form: the discs of the side to move (`player`), those of the
/// other side (`opponent`), and the colour of the side to move.
///
/// Playing a move is a flip and two XORs; passing swaps the two boards.
///
/// # Examples
///
/// ```
/// use reversi_core::{Color, Move, Position, Square};
/// let start = Position::initial();
/// assert_eq!(start.side_to_move(), Color::Black);
/// let next = start.play(Move::Place(Square::F5)).unwrap();
/// assert_eq!(next.side_to_move(), Color::White);
/// assert_eq!(next.count(Color::Black), 4);
/// assert_eq!(next.count(Color::White), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    player: Bitboard,
    opponent: Bitboard,
    side: Color,
}

/// How a finished game ended.
///
/// # Examples
///
/// ```
/// use reversi_core::{Color, Outcome};
/// assert_eq!(Outcome::Win(Color::Black).winner(), Some(Color::Black));
/// assert_eq!(Outcome::Draw.winner(), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Outcome {
    /// The colour with more discs on the board won.
    Win(Color),
    /// Both colours have the same number of discs.
    Draw,
}

impl Outcome {
    /// The winning colour, `None` for a draw.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Color, Outcome};
    /// assert_eq!(Outcome::Win(Color::White).winner(), Some(Color::White));
    /// ```
    #[must_use]
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win(c) => Some(c),
            Outcome::Draw => None,
        }
    }
}

/// What a square holds.
///
/// # Examples
///
/// ```
/// use reversi_core::{Color, Disc, Position, Square};
/// assert_eq!(Position::initial().disc(Square::D4), Disc::White);
/// assert_eq!(Disc::from(Some(Color::Black)), Disc::Black);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Disc {
    /// No disc.
    None,
    /// A black disc.
    Black,
    /// A white disc.
    White,
}

impl From<Option<Color>> for Disc {
    fn from(c: Option<Color>) -> Disc {
        match c {
            None => Disc::None,
            Some(Color::Black) => Disc::Black,
            Some(Color::White) => Disc::White,
        }
    }
}

/// The description of one square for assistive technology, from
/// [`Position::describe_squares`].
///
/// Its `Display` reads as a sentence fragment: `d3, empty, legal, flips 1`.
///
/// # Examples
///
/// ```
/// use reversi_core::{Disc, Position, Square};
/// let info = Position::initial().describe_squares()[Square::D3.index() as usize];
/// assert_eq!(info.square, Square::D3);
/// assert_eq!(info.disc, Disc::None);
/// assert!(info.legal);
/// assert_eq!(info.flips, 1);
/// assert_eq!(info.to_string(), "d3, empty, legal, flips 1");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SquareInfo {
    /// The square.
    pub square: Square,
    /// Its disc.
    pub disc: Disc,
    /// Whether the side to move may play there.
    pub legal: bool,
    /// How many discs a move there would flip (0 when not legal).
    pub flips: u8,
}

impl fmt::Display for SquareInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let disc = match self.disc {
            Disc::None => "empty",
            Disc::Black => "black",
            Disc::White => "white",
        };
        write!(f, "{}, {disc}", self.square)?;
        if self.legal {
            write!(f, ", legal, flips {}", self.flips)?;
        } else if self.disc == Disc::None {
            f.write_str(", not legal")?;
        }
        Ok(())
    }
}

/// The eight directions, clockwise from north (towards row 1), as (column step, row step).
const DIRECTIONS: [(i8, i8); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

impl Position {
    /// The start position: white on d4 and e5, black on e4 and d5, black to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Color, Position, Square};
    /// let p = Position::initial();
    /// assert_eq!(p.color_at(Square::D4), Some(Color::White));
    /// assert_eq!(p.color_at(Square::E4), Some(Color::Black));
    /// ```
    #[must_use]
    pub const fn initial() -> Position {
        Position {
            player: Bitboard(Square::E4.bitboard().0 | Square::D5.bitboard().0),
            opponent: Bitboard(Square::D4.bitboard().0 | Square::E5.bitboard().0),
            side: Color::Black,
        }
    }

    /// A position from the discs of each colour and the side to move.
    ///
    /// # Errors
    ///
    /// [`PositionError::Overlap`] when a square holds both colours.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Bitboard, Color, Position};
    /// let p = Position::new(Bitboard(1), Bitboard(2), Color::White).unwrap();
    /// assert_eq!(p.player(), Bitboard(2));
    /// assert!(Position::new(Bitboard(1), Bitboard(1), Color::Black).is_err());
    /// ```
    pub fn new(
        black: Bitboard,
        white: Bitboard,
        side_to_move: Color,
    ) -> Result<Position, PositionError> {
        if let Some(sq) = (black & white).first() {
            return Err(PositionError::Overlap(sq));
        }
        Ok(match side_to_move {
            Color::Black => Position {
                player: black,
                opponent: white,
                side: Color::Black,
            },
            Color::White => Position {
                player: white,
                opponent: black,
                side: Color::White,
            },
        })
    }

    /// A position from mover-relative boards, for engines that work on raw bitboards.
    ///
    /// # Panics
    ///
    /// In debug builds, when `player` and `opponent` overlap (a programmer error).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Bitboard, Color, Position};
    /// let p = Position::from_player_opponent(Bitboard(1), Bitboard(2), Color::White);
    /// assert_eq!(p.white(), Bitboard(1));
    /// ```
    #[must_use]
    pub fn from_player_opponent(
        player: Bitboard,
        opponent: Bitboard,
        side_to_move: Color,
    ) -> Position {
        debug_assert!(
            (player & opponent).is_empty(),
            "player and opponent overlap"
        );
        Position {
            player,
            opponent,
            side: side_to_move,
        }
    }

    /// The discs of the side to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Position;
    /// assert_eq!(Position::initial().player().count(), 2);
    /// ```
    #[must_use]
    pub const fn player(&self) -> Bitboard {
        self.player
    }

    /// The discs of the side not to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Position;
    /// assert_eq!(Position::initial().opponent().count(), 2);
    /// ```
    #[must_use]
    pub const fn opponent(&self) -> Bitboard {
        self.opponent
    }

    /// The colour to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Color, Position};
    /// assert_eq!(Position::initial().side_to_move(), Color::Black);
    /// ```
    #[must_use]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The discs of `color`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Color, Position, Square};
    /// assert!(Position::initial().discs(Color::White).contains(Square::E5));
    /// ```
    #[must_use]
    pub fn discs(&self, color: Color) -> Bitboard {
        if color == self.side {
            self.player
        } else {
            self.opponent
        }
    }

    /// The black discs.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Position, Square};
    /// assert!(Position::initial().black().contains(Square::D5));
    /// ```
    #[must_use]
    pub fn black(&self) -> Bitboard {
        self.discs(Color::Black)
    }

    /// The white discs.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Position, Square};
    /// assert!(Position::initial().white().contains(Square::D4));
    /// ```
    #[must_use]
    pub fn white(&self) -> Bitboard {
        self.discs(Color::White)
    }

    /// The empty squares.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Position;
    /// assert_eq!(Position::initial().empty().count(), 60);
    /// ```
    #[must_use]
    pub const fn empty(&self) -> Bitboard {
        Bitboard(!(self.player.0 | self.opponent.0))
    }

    /// The colour of the disc on `sq`, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Position, Square};
    /// assert_eq!(Position::initial().color_at(Square::A1), None);
    /// ```
    #[must_use]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.player.contains(sq) {
            Some(self.side)
        } else if self.opponent.contains(sq) {
            Some(!self.side)
        } else {
            None
        }
    }

    /// What `sq` holds.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Disc, Position, Square};
    /// assert_eq!(Position::initial().disc(Square::E4), Disc::Black);
    /// ```
    #[must_use]
    pub fn disc(&self, sq: Square) -> Disc {
        Disc::from(self.color_at(sq))
    }

    /// The number of discs of `color`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Color, Position};
    /// assert_eq!(Position::initial().count(Color::Black), 2);
    /// ```
    #[must_use]
    pub fn count(&self, color: Color) -> u32 {
        self.discs(color).count()
    }

    /// The squares where the side to move may place a disc (empty when it must pass or the game is
    /// over).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Position, Square};
    /// let moves = Position::initial().legal_moves();
    /// assert_eq!(moves.iter().collect::<Vec<_>>(), [Square::D3, Square::C4, Square::F5, Square::E6]);
    /// ```
    #[inline]
    #[must_use]
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(movegen::legal_moves(self.player.0, self.opponent.0))
    }

    /// The legal moves as a list: the placements, or `[Move::Pass]` when the side to move must
    /// pass, or nothing when the game is over.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Move, Position};
    /// assert_eq!(Position::initial().legal_move_list().len(), 4);
    /// assert!(Position::initial().legal_move_list().iter().all(|m| *m != Move::Pass));
    /// ```
    #[must_use]
    pub fn legal_move_list(&self) -> Vec<Move> {
        let moves = self.legal_moves();
        if !moves.is_empty() {
            moves.iter().map(Move::Place).collect()
        } else if self.opponent_can_move() {
            vec![Move::Pass]
        } else {
            Vec::new()
        }
    }

    /// Whether the side to move has a placement.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(reversi_core::Position::initial().can_move());
    /// ```
    #[must_use]
    pub fn can_move(&self) -> bool {
        movegen::legal_moves(self.player.0, self.opponent.0) != 0
    }

    fn opponent_can_move(&self) -> bool {
        movegen::legal_moves(self.opponent.0, self.player.0) != 0
    }

    /// Whether the side to move must pass: it has no placement and the opponent has one.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(!reversi_core::Position::initial().must_pass());
    /// ```
    #[must_use]
    pub fn must_pass(&self) -> bool {
        !self.can_move() && self.opponent_can_move()
    }

    /// Whether the game is over: neither side can move (empty squares may remain).
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(!reversi_core::Position::initial().is_game_over());
    /// ```
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        !self.can_move() && !self.opponent_can_move()
    }

    /// The outcome by the discs on the board, when the game is over; `None` while it goes on.
    /// Empty squares give no bonus.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Position;
    /// assert_eq!(Position::initial().outcome(), None);
    /// ```
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.is_game_over() {
            Some(self.outcome_by_count())
        } else {
            None
        }
    }

    /// The outcome the board would give if the game ended now (more discs wins), whether or not it
    /// is over; used for games stopped by a time limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Outcome, Position};
    /// assert_eq!(Position::initial().outcome_by_count(), Outcome::Draw);
    /// ```
    #[must_use]
    pub fn outcome_by_count(&self) -> Outcome {
        let b = self.count(Color::Black);
        let w = self.count(Color::White);
        match b.cmp(&w) {
            core::cmp::Ordering::Greater => Outcome::Win(Color::Black),
            core::cmp::Ordering::Less => Outcome::Win(Color::White),
            core::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// The disc counts (black, white) under the World Othello Federation tournament rule: the
    /// empty squares left at the end go to the winner, and are shared equally on a draw. This is
    /// the score FFO files and most engines report; the plain board count is [`Position::count`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{bitboard, Color, Position};
    /// // Black 3, white 1, and neither can move: black wins 63 to 1 under the WOF rule.
    /// let p = Position::new(bitboard! {
    ///     X X X - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    /// }, bitboard! {
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - X
    /// }, Color::White).unwrap();
    /// assert!(p.is_game_over());
    /// assert_eq!(p.wof_tournament_counts(), (63, 1));
    /// ```
    #[must_use]
    pub fn wof_tournament_counts(&self) -> (u32, u32) {
        let b = self.count(Color::Black);
        let w = self.count(Color::White);
        let e = 64 - b - w;
        match b.cmp(&w) {
            core::cmp::Ordering::Greater => (b + e, w),
            core::cmp::Ordering::Less => (b, w + e),
            core::cmp::Ordering::Equal => (b + e / 2, w + e - e / 2),
        }
    }

    /// The discs a move on `sq` would flip (empty when it is not a legal move).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Position, Square};
    /// let f = Position::initial().flips(Square::F5);
    /// assert_eq!(f.iter().collect::<Vec<_>>(), [Square::E5]);
    /// assert!(Position::initial().flips(Square::D4).is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if !self.empty().contains(sq) {
            return Bitboard::EMPTY;
        }
        Bitboard(movegen::flips(self.player.0, self.opponent.0, sq.index()))
    }

    /// The discs a move on `sq` would flip, in animation order: nearest to the placed disc first,
    /// all directions interleaved by distance (clockwise from north within one distance). Empty
    /// when the move is not legal.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{position, Square};
    /// let p = position!(Black;
    ///     - - - X - - - -
    ///     - - - O - - - -
    ///     - - - O - - - -
    ///     - - - - O X - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    ///     - - - - - - - -
    /// );
    /// assert_eq!(p.flips_in_order(Square::D4), [Square::D3, Square::E4, Square::D2]);
    /// ```
    #[must_use]
    pub fn flips_in_order(&self, sq: Square) -> Vec<Square> {
        let flips = self.flips(sq);
        let mut out = Vec::with_capacity(flips.count() as usize);
        for dist in 1..8i8 {
            for (dc, dr) in DIRECTIONS {
                let c = sq.column() as i8 + dc * dist;
                let r = sq.row() as i8 + dr * dist;
                if (0..8).contains(&c) && (0..8).contains(&r) {
                    let s = Square::ALL[(r * 8 + c) as usize];
                    if flips.contains(s) {
                        out.push(s);
                    }
                }
            }
        }
        out
    }

    /// Whether a placement on `sq` is legal.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Position, Square};
    /// assert!(Position::initial().is_legal(Square::C4));
    /// assert!(!Position::initial().is_legal(Square::C3));
    /// ```
    #[must_use]
    pub fn is_legal(&self, sq: Square) -> bool {
        !self.flips(sq).is_empty()
    }

    /// Plays a move checked against the rules, for anything that came from a user or the network.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] when neither side can move, [`PlayError::Occupied`] or
    /// [`PlayError::NoFlips`] for an illegal placement, [`PlayError::PassWithMoves`] for a pass
    /// while a placement exists.
    /// `self` is not changed.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Color, Move, PlayError, Position, Square};
    /// let p = Position::initial();
    /// assert!(p.play(Move::Place(Square::D3)).is_ok());
    /// assert_eq!(p.play(Move::Place(Square::D4)), Err(PlayError::Occupied(Square::D4)));
    /// assert_eq!(p.play(Move::Pass), Err(PlayError::PassWithMoves(Color::Black)));
    /// ```
    pub fn play(&self, m: Move) -> Result<Position, PlayError> {
        match m {
            Move::Place(sq) => {
                if !self.empty().contains(sq) {
                    return Err(if self.is_game_over() {
                        PlayError::GameOver
                    } else {
                        PlayError::Occupied(sq)
                    });
                }
                let f = self.flips(sq);
                if f.is_empty() {
                    return Err(if self.is_game_over() {
                        PlayError::GameOver
                    } else {
                        PlayError::NoFlips(sq)
                    });
                }
                Ok(self.make_move(sq, f))
            }
            Move::Pass => {
                if self.can_move() {
                    Err(PlayError::PassWithMoves(self.side))
                } else if !self.opponent_can_move() {
                    Err(PlayError::GameOver)
                } else {
                    Ok(self.pass())
                }
            }
        }
    }

    /// Plays a move without checking it, for search and perft. In debug builds the move is
    /// checked and an illegal one panics; in release builds an illegal placement gives a position
    /// that is consistent (no overlapping discs) but not reachable by the rules.
    ///
    /// # Panics
    ///
    /// In debug builds, when the move is illegal (a programmer error).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Move, Position, Square};
    /// let p = Position::initial().play_unchecked(Move::Place(Square::E6));
    /// assert_eq!(p.empty().count(), 59);
    /// ```
    #[must_use]
    pub fn play_unchecked(&self, m: Move) -> Position {
        debug_assert!(self.play(m).is_ok(), "illegal move {m} in play_unchecked");
        match m {
            Move::Place(sq) => self.make_move(sq, self.flips(sq)),
            Move::Pass => self.pass(),
        }
    }

    /// Places a disc on `sq` and flips `flips`, the result of [`Position::flips`]; the fastest
    /// way to play when the flips are already known.
    ///
    /// # Panics
    ///
    /// In debug builds, when `flips` are not the flips of `sq` or `sq` is occupied.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Position, Square};
    /// let p = Position::initial();
    /// let next = p.make_move(Square::C4, p.flips(Square::C4));
    /// assert_eq!(next.opponent().count(), 4);
    /// ```
    #[inline]
    #[must_use]
    pub fn make_move(&self, sq: Square, flips: Bitboard) -> Position {
        debug_assert!(self.empty().contains(sq), "{sq} is occupied");
        debug_assert_eq!(flips, self.flips(sq), "wrong flips for {sq}");
        Position {
            player: self.opponent ^ flips,
            opponent: self.player ^ flips ^ sq.bitboard(),
            side: !self.side,
        }
    }

    /// The position with the turn passed to the other side and no disc changed.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Color, Position};
    /// assert_eq!(Position::initial().pass().side_to_move(), Color::White);
    /// ```
    #[inline]
    #[must_use]
    pub const fn pass(&self) -> Position {
        Position {
            player: self.opponent,
            opponent: self.player,
            side: self.side.opposite(),
        }
    }

    /// The description of all 64 squares, in index order, for assistive technology: name, disc,
    /// whether the side to move may play there and how many discs that would flip.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Position;
    /// let all = Position::initial().describe_squares();
    /// assert_eq!(all.iter().filter(|s| s.legal).count(), 4);
    /// ```
    #[must_use]
    pub fn describe_squares(&self) -> [SquareInfo; 64] {
        let moves = self.legal_moves();
        Square::ALL.map(|square| {
            let legal = moves.contains(square);
            SquareInfo {
                square,
                disc: self.disc(square),
                legal,
                flips: if legal {
                    self.flips(square).count() as u8
                } else {
                    0
                },
            }
        })
    }

    /// The 64-character board string of OBF files (`X` black, `O` white, `-` empty, `a1` first)
    /// followed by a space and the side to move (`X` or `O`).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Position;
    /// let s = Position::initial().to_board_string();
    /// assert_eq!(&s[24..40], "---OX------XO---");
    /// assert!(s.ends_with(" X"));
    /// ```
    #[must_use]
    pub fn to_board_string(&self) -> String {
        let mut s = String::with_capacity(66);
        for sq in Square::ALL {
            s.push(self.color_at(sq).map_or('-', Color::to_char));
        }
        s.push(' ');
        s.push(self.side.to_char());
        s
    }

    /// Parses a board string: 64 cells (`X`/`x`/`*` black, `O`/`o` white, `-`/`.` empty, `a1`
    /// first), white space, then the side to move (`X` or `O`). Anything after the side to move
    /// must be white space.
    ///
    /// # Errors
    ///
    /// [`ParseBoardError::Length`] when there are not 64 cells, [`ParseBoardError::Char`] for a
    /// foreign character, [`ParseBoardError::SideToMove`] when the side to move is missing or not `X`/`O`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{ParseBoardError, Position};
    /// let s = Position::initial().to_board_string();
    /// assert_eq!(s.parse::<Position>().unwrap(), Position::initial());
    /// assert_eq!("X-O".parse::<Position>(), Err(ParseBoardError::Length(3)));
    /// ```
    pub fn from_board_string(s: &str) -> Result<Position, ParseBoardError> {
        // `ParseBoardError::Char` counts characters from the start of the input, so the leading white
        // space trimmed here is added back to its index. Every character before a reported one
        // is an ASCII cell, so the byte offsets below are character offsets too.
        let lead = s.chars().take_while(|c| c.is_whitespace()).count();
        let s = s.trim();
        let mut black = 0u64;
        let mut white = 0u64;
        let mut chars = s.char_indices();
        let mut n = 0usize;
        for (i, ch) in chars.by_ref() {
            match ch {
                'X' | 'x' | '*' => black |= 1 << n,
                'O' | 'o' => white |= 1 << n,
                '-' | '.' => {}
                c if c.is_whitespace() => {
                    return Err(ParseBoardError::Length(n));
                }
                found => {
                    return Err(ParseBoardError::Char {
                        index: lead + i,
                        found,
                    })
                }
            }
            n += 1;
            if n == 64 {
                break;
            }
        }
        if n < 64 {
            return Err(ParseBoardError::Length(n));
        }
        let rest: &str = chars.as_str();
        if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
            // A 65th board character rather than a separator.
            let found = rest.chars().next().unwrap_or(' ');
            return Err(if "XxOo*-.".contains(found) {
                ParseBoardError::Length(
                    64 + rest.chars().take_while(|c| !c.is_whitespace()).count(),
                )
            } else {
                ParseBoardError::Char {
                    index: lead + s.len() - rest.len(),
                    found,
                }
            });
        }
        let side = match rest.trim() {
            "X" | "x" | "*" => Color::Black,
            "O" | "o" => Color::White,
            other => return Err(ParseBoardError::SideToMove(other.to_string())),
        };
        // One character per cell: a square cannot hold both colours.
        Ok(Position::new(Bitboard(black), Bitboard(white), side)
            .expect("a board string has one colour per cell"))
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::initial()
    }
}

impl FromStr for Position {
    type Err = ParseBoardError;
    fn from_str(s: &str) -> Result<Self, ParseBoardError> {
        Position::from_board_string(s)
    }
}

impl fmt::Display for Position {
    /// Draws the board with column letters and row numbers, `X` black, `O` white, `.` empty, and
    /// the side to move below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  a b c d e f g h")?;
        for row in 0..8u8 {
            write!(f, "{}", row + 1)?;
            for col in 0..8u8 {
                let sq = Square::ALL[(row * 8 + col) as usize];
                let c = self.color_at(sq).map_or('.', Color::to_char);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "{} to move", self.side)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({:?})", self.to_board_string())
    }
}

/// Builds a [`Position`] from the side to move and a picture of eight rows of `X` (black),
/// `O` (white) and `-` or `.` (empty), row 1 first.
///
/// # Panics
///
/// Panics when the picture does not hold exactly 64 such cells (a programmer error in a literal).
///
/// # Examples
///
/// ```
/// use reversi_core::{position, Color, Position};
/// let p = position!(Black;
///     - - - - - - - -
///     - - - - - - - -
///     - - - - - - - -
///     - - - O X - - -
///     - - - X O - - -
///     - - - - - - - -
///     - - - - - - - -
///     - - - - - - - -
/// );
/// assert_eq!(p, Position::initial());
/// ```
#[macro_export]
macro_rules! position {
    ($side:ident; $($t:tt)+) => {
        $crate::Position::from_board_string(&::std::format!(
            "{} {}",
            concat!($(stringify!($t)),+),
            $crate::Color::$side.to_char()
        ))
        .expect("a position picture has 64 cells of X, O, - or .")
    };
}

#[cfg(feature = "serde")]
impl serde::Serialize for Position {
    /// Serialises as the board string of [`Position::to_board_string`].
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_board_string())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Position {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
