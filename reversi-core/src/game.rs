//! The game record: moves and automatic passes from a start position, with undo.

use crate::{
    Bitboard, Color, Move, Outcome, ParseMoveError, PlayError, Position, Square, TranscriptError,
    UndoError,
};

/// One ply of a game record: a placement, or a pass made automatically because the side to move
/// had no legal move.
///
/// # Examples
///
/// ```
/// use reversi_core::{Color, Game, Move, Square};
/// let mut game = Game::new();
/// game.play(Square::F5).unwrap();
/// let ply = game.plies()[0];
/// assert_eq!(ply.color, Color::Black);
/// assert_eq!(ply.mv, Move::Place(Square::F5));
/// assert_eq!(ply.flips.count(), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub struct Ply {
    /// Who played or passed.
    pub color: Color,
    /// The placement, or [`Move::Pass`].
    pub mv: Move,
    /// The discs it flipped (empty for a pass).
    pub flips: Bitboard,
}

/// What [`Game::play`] did: the placement, its flips in animation order, the automatic pass
/// that followed (if any), and the outcome if the game ended.
///
/// # Examples
///
/// ```
/// use reversi_core::{Color, Game, Square};
/// let mut game = Game::new();
/// let turn = game.play(Square::D3).unwrap();
/// assert_eq!(turn.color, Color::Black);
/// assert_eq!(turn.flips, [Square::D4]);
/// assert_eq!(turn.passed, None);
/// assert_eq!(turn.outcome, None);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct Turn {
    /// Who placed the disc.
    pub color: Color,
    /// Where.
    pub square: Square,
    /// The flipped discs, nearest first, as [`Position::flips_in_order`] gives them.
    pub flips: Vec<Square>,
    /// The colour that then had to pass, if the turn passed automatically.
    pub passed: Option<Color>,
    /// The outcome, if the game ended with this move.
    pub outcome: Option<Outcome>,
}

/// A game record from a start position (normally [`Position::initial`]): placements and the
/// automatic passes between them, in order, with undo.
///
/// When a move leaves the next side with no legal move while the other side has one, the pass is
/// made at once and recorded as a [`Ply`] of its own, so the current position always has a legal
/// move for the side to move, unless the game is over.
///
/// # Examples
///
/// ```
/// use reversi_core::{Color, Game, Square};
/// let mut game = Game::from_transcript("f5d6c3d3c4").unwrap();
/// assert_eq!(game.plies().len(), 5);
/// assert_eq!(game.position().side_to_move(), Color::White);
/// game.undo().unwrap();
/// assert_eq!(game.transcript(), "f5d6c3d3");
/// game.undo_turn(Color::Black).unwrap();
/// assert_eq!(game.transcript(), "f5d6");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    plies: Vec<Ply>,
    /// `positions[i]` is the position before ply `i`; the last one is the current position.
    positions: Vec<Position>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A new game from the start position.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Game, Position};
    /// assert_eq!(*Game::new().position(), Position::initial());
    /// ```
    #[must_use]
    pub fn new() -> Game {
        Game::from_position(Position::initial())
    }

    /// A game from any position. If its side to move must pass, the pass is recorded at once as
    /// the first ply.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Game, Position};
    /// let game = Game::from_position(Position::initial());
    /// assert!(game.plies().is_empty());
    /// ```
    #[must_use]
    pub fn from_position(start: Position) -> Game {
        let mut game = Game {
            plies: Vec::new(),
            positions: vec![start],
        };
        game.auto_pass();
        game
    }

    fn auto_pass(&mut self) -> Option<Color> {
        let pos = *self.position();
        if pos.must_pass() {
            self.plies.push(Ply {
                color: pos.side_to_move(),
                mv: Move::Pass,
                flips: Bitboard::EMPTY,
            });
            self.positions.push(pos.pass());
            Some(pos.side_to_move())
        } else {
            None
        }
    }

    /// The position the game started from.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Game, Position};
    /// assert_eq!(*Game::new().start(), Position::initial());
    /// ```
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Game, Square};
    /// let mut game = Game::new();
    /// game.play(Square::C4).unwrap();
    /// assert_eq!(game.position().empty().count(), 59);
    /// ```
    #[must_use]
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game always holds its start position")
    }

    /// The positions of the game: the start, then the position after each ply.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Game, Square};
    /// let mut game = Game::new();
    /// game.play(Square::C4).unwrap();
    /// assert_eq!(game.positions().len(), 2);
    /// ```
    #[must_use]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The record: every placement and pass, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Game;
    /// assert!(Game::new().plies().is_empty());
    /// ```
    #[must_use]
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The last placement, with its colour, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Color, Game, Square};
    /// let mut game = Game::new();
    /// assert_eq!(game.last_move(), None);
    /// game.play(Square::E6).unwrap();
    /// assert_eq!(game.last_move(), Some((Color::Black, Square::E6)));
    /// ```
    #[must_use]
    pub fn last_move(&self) -> Option<(Color, Square)> {
        self.plies
            .iter()
            .rev()
            .find_map(|p| p.mv.square().map(|s| (p.color, s)))
    }

    /// The passes of the record: who passed, and at which ply (0-based index into
    /// [`Game::plies`]).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_core::Game::new().passes().count(), 0);
    /// ```
    pub fn passes(&self) -> impl Iterator<Item = (usize, Color)> + '_ {
        self.plies
            .iter()
            .enumerate()
            .filter(|(_, p)| p.mv == Move::Pass)
            .map(|(i, p)| (i, p.color))
    }

    /// Whether the game is over.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(!reversi_core::Game::new().is_over());
    /// ```
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.position().is_game_over()
    }

    /// The outcome by the discs on the board, once the game is over.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Color, Game, Outcome};
    /// // The shortest game: black wipes white out after nine moves.
    /// let game = Game::from_transcript("e6f4e3f6g5d6e7f5c5").unwrap();
    /// assert_eq!(game.outcome(), Some(Outcome::Win(Color::Black)));
    /// ```
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome()
    }

    /// Plays a placement for the side to move, checked against the rules, then makes the
    /// automatic pass if the next side has no move.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`], [`PlayError::Occupied`], [`PlayError::NoFlips`], or
    /// [`PlayError::PassWithMoves`] for a [`Move::Pass`] (passes are made automatically, so a pass
    /// asked for is always refused). The game is not changed.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Game, PlayError, Square};
    /// let mut game = Game::new();
    /// assert_eq!(game.play(Square::A1), Err(PlayError::NoFlips(Square::A1)));
    /// assert!(game.plies().is_empty());
    /// ```
    pub fn play(&mut self, mv: impl Into<Move>) -> Result<Turn, PlayError> {
        let mv = mv.into();
        let pos = *self.position();
        if pos.is_game_over() {
            return Err(PlayError::GameOver);
        }
        let next = pos.play(mv)?;
        let Move::Place(square) = mv else {
            // `Position::play` refuses a pass here: the current position always has a move.
            return Err(PlayError::PassWithMoves(pos.side_to_move()));
        };
        let flips = pos.flips(square);
        let order = pos.flips_in_order(square);
        self.plies.push(Ply {
            color: pos.side_to_move(),
            mv,
            flips,
        });
        self.positions.push(next);
        let passed = self.auto_pass();
        Ok(Turn {
            color: pos.side_to_move(),
            square,
            flips: order,
            passed,
            outcome: self.outcome(),
        })
    }

    /// Takes back the last placement, with the automatic pass that followed it, if any.
    ///
    /// # Errors
    ///
    /// [`UndoError::NothingToUndo`] when no placement has been made; the game is not changed.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Game, Position, Square, UndoError};
    /// let mut game = Game::new();
    /// assert_eq!(game.undo(), Err(UndoError::NothingToUndo));
    /// game.play(Square::D3).unwrap();
    /// game.undo().unwrap();
    /// assert_eq!(*game.position(), Position::initial());
    /// ```
    pub fn undo(&mut self) -> Result<(), UndoError> {
        let last = self
            .plies
            .iter()
            .rposition(|p| p.mv != Move::Pass)
            .ok_or(UndoError::NothingToUndo)?;
        self.truncate(last);
        Ok(())
    }

    /// Takes back plies until `color` is to move again at the last position where it moved
    /// before now: against a computer, the player's move and the computer's reply are undone as a
    /// pair. Returns the number of plies taken back (passes included).
    ///
    /// # Errors
    ///
    /// [`UndoError::NoPlacementBy`] when `color` has made no placement yet; the game is not changed.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Color, Game, Position, Square};
    /// let mut game = Game::new();
    /// game.play(Square::F5).unwrap(); // the player (black)
    /// game.play(Square::F6).unwrap(); // the computer's reply
    /// assert_eq!(game.undo_turn(Color::Black), Ok(2));
    /// assert_eq!(*game.position(), Position::initial());
    /// ```
    pub fn undo_turn(&mut self, color: Color) -> Result<usize, UndoError> {
        let at = self
            .plies
            .iter()
            .rposition(|p| p.color == color && p.mv != Move::Pass)
            .ok_or(UndoError::NoPlacementBy(color))?;
        let n = self.plies.len() - at;
        self.truncate(at);
        Ok(n)
    }

    fn truncate(&mut self, plies: usize) {
        self.plies.truncate(plies);
        self.positions.truncate(plies + 1);
    }

    /// Replays `moves` from `start`: placements are played with [`Game::play`]; a
    /// [`Move::Pass`] is accepted only where the record made an automatic pass that no earlier
    /// pass acknowledged.
    ///
    /// # Errors
    ///
    /// [`TranscriptError`] naming the ply (1-based, passes counted), the move and the cause (a
    /// [`PlayError`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Game, Move, Position, Square};
    /// let game = Game::replay(Position::initial(), [Move::Place(Square::F5), Move::Place(Square::D6)]).unwrap();
    /// assert_eq!(game.transcript(), "f5d6");
    /// ```
    pub fn replay(
        start: Position,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<Game, TranscriptError> {
        Game::replay_tokens(start, moves.into_iter().map(|m| (m.to_string(), Ok(m))))
    }

    fn replay_tokens(
        start: Position,
        tokens: impl IntoIterator<Item = (String, Result<Move, ParseMoveError>)>,
    ) -> Result<Game, TranscriptError> {
        let mut game = Game::from_position(start);
        // Automatic passes that an explicit pass token may still acknowledge.
        let mut unacknowledged = usize::from(game.plies.last().is_some_and(|p| p.mv == Move::Pass));
        for (token, parsed) in tokens {
            let ply = game.plies.len() + 1;
            let fail = |cause: crate::TranscriptCause| TranscriptError {
                ply,
                token: token.clone(),
                cause,
            };
            match parsed.map_err(|e| fail(e.into()))? {
                Move::Pass if unacknowledged > 0 => unacknowledged -= 1,
                Move::Pass => {
                    let pos = game.position();
                    return Err(fail(
                        if pos.is_game_over() {
                            PlayError::GameOver
                        } else {
                            PlayError::PassWithMoves(pos.side_to_move())
                        }
                        .into(),
                    ));
                }
                mv => {
                    let turn = game.play(mv).map_err(|e| fail(e.into()))?;
                    unacknowledged = usize::from(turn.passed.is_some());
                }
            }
        }
        Ok(game)
    }

    /// Replays a transcript such as `f5d6c3d3c4` from the start position. Squares may be upper or
    /// lower case; passes may be left implicit or written `pass` or `PS`; white space between
    /// moves is ignored.
    ///
    /// # Errors
    ///
    /// [`TranscriptError`] with the ply (1-based, passes counted), the offending token and the
    /// cause: a bad square name, an illegal move, a pass while a move exists, a move after the end.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Game, TranscriptCause};
    /// assert_eq!(Game::from_transcript("F5 d6 C3").unwrap().transcript(), "f5d6c3");
    /// let err = Game::from_transcript("f5d6z9").unwrap_err();
    /// assert_eq!((err.ply, err.token.as_str()), (3, "z9"));
    /// assert!(matches!(err.cause, TranscriptCause::Parse(_)));
    /// ```
    pub fn from_transcript(s: &str) -> Result<Game, TranscriptError> {
        Game::transcript_from(Position::initial(), s)
    }

    /// Replays a transcript from any start position; see [`Game::from_transcript`].
    ///
    /// # Errors
    ///
    /// As [`Game::from_transcript`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::{Game, Position};
    /// let g = Game::transcript_from(Position::initial(), "c4").unwrap();
    /// assert_eq!(g.plies().len(), 1);
    /// ```
    pub fn transcript_from(start: Position, s: &str) -> Result<Game, TranscriptError> {
        Game::replay_tokens(start, crate::notation::tokenize(s))
    }

    /// The transcript of the placements, lower case, passes implicit: `f5d6c3`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Game;
    /// assert_eq!(Game::from_transcript("F5D6").unwrap().transcript(), "f5d6");
    /// ```
    #[must_use]
    pub fn transcript(&self) -> String {
        self.plies
            .iter()
            .filter_map(|p| p.mv.square())
            .map(|s| s.to_string())
            .collect()
    }

    /// The transcript with every pass written as `PS`: `f5d6…PSa1`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Game;
    /// let g = Game::from_transcript("f5d6").unwrap();
    /// assert_eq!(g.transcript_with_passes(), "f5d6");
    /// assert_eq!(Game::from_transcript(&g.transcript_with_passes()).unwrap(), g);
    /// ```
    #[must_use]
    pub fn transcript_with_passes(&self) -> String {
        self.plies
            .iter()
            .map(|p| match p.mv {
                Move::Place(s) => s.to_string(),
                Move::Pass => "PS".to_string(),
            })
            .collect()
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::*;

    /// The serialised form: the start position and every ply's move, passes included.
    #[derive(serde::Serialize, serde::Deserialize)]
    struct GameRecord {
        start: Position,
        moves: Vec<Move>,
    }

    impl serde::Serialize for Game {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            GameRecord {
                start: *self.start(),
                moves: self.plies.iter().map(|p| p.mv).collect(),
            }
            .serialize(s)
        }
    }

    impl<'de> serde::Deserialize<'de> for Game {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let r = GameRecord::deserialize(d)?;
            Game::replay(r.start, r.moves).map_err(serde::de::Error::custom)
        }
    }
}
