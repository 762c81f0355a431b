//! The traits a game implements to be played in a room.

use std::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// How a game ended, by seat.
///
/// [`TurnGame::outcome`] and [`TurnGame::adjudicate`] return [`SeatOutcome::Winner`] or [`SeatOutcome::Draw`];
/// the room uses [`SeatOutcome::NoResult`] for a game the host ended or a room that closed.
///
/// # Examples
///
/// ```
/// use reversi_room::SeatOutcome;
/// assert_eq!(SeatOutcome::Winner(1).winner(), Some(1));
/// assert_eq!(SeatOutcome::Draw.winner(), None);
/// assert_eq!(serde_json::to_string(&SeatOutcome::Winner(0)).unwrap(), r#"{"winner":0}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SeatOutcome {
    /// The player in this seat won.
    Winner(usize),
    /// No one won.
    Draw,
    /// The game was stopped without a result (ended by the host, or the room closed).
    NoResult,
}

impl SeatOutcome {
    /// The winning seat, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::SeatOutcome;
    /// assert_eq!(SeatOutcome::NoResult.winner(), None);
    /// ```
    #[must_use]
    pub const fn winner(self) -> Option<usize> {
        match self {
            SeatOutcome::Winner(seat) => Some(seat),
            SeatOutcome::Draw | SeatOutcome::NoResult => None,
        }
    }
}

/// A turn-based game that a [`Room`](crate::Room) can host without knowing its rules.
///
/// A value of the type is the whole state of one game, from which the room clones a fresh game
/// at every start. Seats are numbered `0..seats()`. The room asks [`to_act`](TurnGame::to_act) whose
/// action is due, gives each action its own deadline, and applies actions only through the
/// checked [`apply`](TurnGame::apply). A game where a side may have to pass without choosing applies
/// the pass itself, inside `apply`: `to_act` only ever names a seat that has something to decide.
///
/// # Examples
///
/// `Nim` of the [crate examples](crate#examples):
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_room::{TurnGame, SeatOutcome};
///
/// let mut game = Nim::new(5, 2);
/// assert_eq!(game.seats(), 2);
/// assert_eq!(game.to_act(), Some(0));
/// game.apply(0, &3).unwrap();
/// assert!(game.apply(0, &1).is_err()); // out of turn
/// game.apply(1, &2).unwrap(); // takes the last pebbles
/// assert_eq!(game.to_act(), None);
/// assert_eq!(game.outcome(), Some(SeatOutcome::Winner(1)));
/// ```
///
/// With the `serde` feature (on by default), a [`Room`](crate::Room) or
/// [`Lobby`](crate::Lobby) of the game serialises when the game and its action do.
pub trait TurnGame: Clone + fmt::Debug + PartialEq {
    /// One action of a seat: a move, a dice roll...
    type Action: Clone + fmt::Debug + PartialEq;
    /// Why an action was refused.
    type Error: fmt::Display;

    /// The number of seats, fixed for the game.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_room::TurnGame;
    /// assert_eq!(Nim::new(10, 3).seats(), 3);
    /// ```
    fn seats(&self) -> usize;

    /// The seat whose action is due, or `None` once the game is over.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_room::TurnGame;
    /// assert_eq!(Nim::new(1, 2).to_act(), Some(0));
    /// assert_eq!(Nim::new(0, 2).to_act(), None);
    /// ```
    fn to_act(&self) -> Option<usize>;

    /// Applies `seat`'s action, checking everything (the seat's turn, the action's legality).
    ///
    /// # Errors
    ///
    /// Any refusal, and the state must then be exactly as it was.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_room::TurnGame;
    /// let mut game = Nim::new(2, 2);
    /// assert!(game.apply(0, &3).is_err()); // more than the pile
    /// assert_eq!(game, Nim::new(2, 2));
    /// ```
    fn apply(&mut self, seat: usize, action: &Self::Action) -> Result<(), Self::Error>;

    /// The result once the game is over by its rules, `None` before.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_room::{TurnGame, SeatOutcome};
    /// let mut game = Nim::new(1, 2);
    /// assert_eq!(game.outcome(), None);
    /// game.apply(0, &1).unwrap();
    /// assert_eq!(game.outcome(), Some(SeatOutcome::Winner(0)));
    /// ```
    fn outcome(&self) -> Option<SeatOutcome>;

    /// The result if the game had to stop now, as at a game-length limit: for Reversi, the disc
    /// count. It returns [`SeatOutcome::Winner`] or [`SeatOutcome::Draw`].
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_room::{TurnGame, SeatOutcome};
    /// let mut game = Nim::new(10, 2);
    /// game.apply(0, &3).unwrap();
    /// assert_eq!(game.adjudicate(), SeatOutcome::Winner(0)); // took more pebbles so far
    /// ```
    fn adjudicate(&self) -> SeatOutcome;

    /// The result when `loser` forfeits (time-out, resignation, abandonment, disconnection). By
    /// default the other seat of a two-seat game wins; with more seats there is no result.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_room::{TurnGame, SeatOutcome};
    /// assert_eq!(Nim::new(10, 2).forfeit(0), SeatOutcome::Winner(1));
    /// assert_eq!(Nim::new(10, 3).forfeit(0), SeatOutcome::NoResult);
    /// ```
    fn forfeit(&self, loser: usize) -> SeatOutcome {
        if self.seats() == 2 && loser < 2 {
            SeatOutcome::Winner(1 - loser)
        } else {
            SeatOutcome::NoResult
        }
    }
}

/// A computer player for a [`TurnGame`].
///
/// The room never calls a bot: it says when a bot is to act
/// ([`Room::bot_to_act`](crate::Room::bot_to_act), [`EventKind::ActionDue`](crate::EventKind)),
/// and the application asks its `Bot` (off its async runtime or UI thread) and submits the answer
/// with [`Room::bot_act`](crate::Room::bot_act), through the same checked path as people.
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_room::{Bot, TurnGame};
///
/// /// Takes one pebble, always.
/// struct Timid;
/// impl Bot<Nim> for Timid {
///     fn choose(&mut self, game: &Nim) -> Option<u32> {
///         game.to_act().map(|_| 1)
///     }
/// }
/// assert_eq!(Timid.choose(&Nim::new(3, 2)), Some(1));
/// assert_eq!(Timid.choose(&Nim::new(0, 2)), None);
/// ```
pub trait Bot<G: TurnGame> {
    /// The action for the seat whose action is due, or `None` if the game is over.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_room::Bot;
    /// assert_eq!(NimBot.choose(&Nim::new(5, 2)), Some(1)); // leaves a multiple of four
    /// ```
    fn choose(&mut self, game: &G) -> Option<G::Action>;
}
