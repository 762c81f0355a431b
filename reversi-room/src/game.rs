//! The traits a game implements to be played in a room, and a tiny game for examples and tests.

use std::fmt;

use serde::de::DeserializeOwned;
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
/// The crate's own [`Nim`]:
///
/// ```
/// use reversi_room::{TurnGame, Nim, SeatOutcome};
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
pub trait TurnGame: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned {
    /// One action of a seat: a move, a dice roll...
    type Action: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// Why an action was refused.
    type Error: fmt::Display;

    /// The number of seats, fixed for the game.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::{TurnGame, Nim};
    /// assert_eq!(Nim::new(10, 3).seats(), 3);
    /// ```
    fn seats(&self) -> usize;

    /// The seat whose action is due, or `None` once the game is over.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::{TurnGame, Nim};
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
    /// use reversi_room::{TurnGame, Nim};
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
    /// use reversi_room::{TurnGame, Nim, SeatOutcome};
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
    /// use reversi_room::{TurnGame, Nim, SeatOutcome};
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
    /// use reversi_room::{TurnGame, Nim, SeatOutcome};
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
/// use reversi_room::{Bot, TurnGame, Nim};
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
    /// use reversi_room::{Bot, Nim, NimBot};
    /// assert_eq!(NimBot.choose(&Nim::new(5, 2)), Some(1)); // leaves a multiple of four
    /// ```
    fn choose(&mut self, game: &G) -> Option<G::Action>;
}

/// A tiny game for examples and tests: players in turn take 1 to 3 pebbles from a pile, and
/// whoever takes the last one wins. At a game-length limit the player who took the most wins.
///
/// # Examples
///
/// ```
/// use reversi_room::{TurnGame, Nim};
/// let mut game = Nim::new(4, 2);
/// game.apply(0, &1).unwrap();
/// assert_eq!(game.pile(), 3);
/// assert_eq!(game.to_act(), Some(1));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Nim {
    pile: u32,
    next: usize,
    taken: Vec<u32>,
}

impl Nim {
    /// A pile of `pebbles` for `seats` players (at least one); seat 0 plays first.
    ///
    /// # Panics
    ///
    /// If `seats` is zero.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::{TurnGame, Nim};
    /// assert_eq!(Nim::new(7, 2).pile(), 7);
    /// ```
    #[must_use]
    pub fn new(pebbles: u32, seats: usize) -> Nim {
        assert!(seats > 0, "a game needs a seat");
        Nim {
            pile: pebbles,
            next: 0,
            taken: vec![0; seats],
        }
    }

    /// The pebbles left.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_room::Nim::new(3, 2).pile(), 3);
    /// ```
    #[must_use]
    pub fn pile(&self) -> u32 {
        self.pile
    }
}

/// Why a [`Nim`] action was refused.
///
/// # Examples
///
/// ```
/// use reversi_room::{TurnGame, Nim, NimError};
/// assert_eq!(Nim::new(5, 2).apply(1, &1), Err(NimError::NotYourTurn(1)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum NimError {
    /// The seat is not the one to act.
    #[error("it is not seat {0}'s turn")]
    NotYourTurn(usize),
    /// Not 1, 2 or 3 pebbles, or more than the pile.
    #[error("cannot take {0} pebbles")]
    BadTake(u32),
}

impl TurnGame for Nim {
    type Action = u32;
    type Error = NimError;

    fn seats(&self) -> usize {
        self.taken.len()
    }

    fn to_act(&self) -> Option<usize> {
        (self.pile > 0).then_some(self.next)
    }

    fn apply(&mut self, seat: usize, take: &u32) -> Result<(), NimError> {
        if self.to_act() != Some(seat) {
            return Err(NimError::NotYourTurn(seat));
        }
        if !(1..=3).contains(take) || *take > self.pile {
            return Err(NimError::BadTake(*take));
        }
        self.pile -= take;
        self.taken[seat] += take;
        if self.pile > 0 {
            self.next = (seat + 1) % self.taken.len();
        }
        Ok(())
    }

    fn outcome(&self) -> Option<SeatOutcome> {
        // The last taker is `next`, which stops advancing once the pile is empty. A game set up
        // with an empty pile has no taker: a draw.
        (self.pile == 0).then(|| {
            if self.taken.iter().all(|&t| t == 0) {
                SeatOutcome::Draw
            } else {
                SeatOutcome::Winner(self.next)
            }
        })
    }

    fn adjudicate(&self) -> SeatOutcome {
        if let Some(outcome) = self.outcome() {
            return outcome;
        }
        let best = self.taken.iter().copied().max().unwrap_or(0);
        let mut leaders = self.taken.iter().enumerate().filter(|&(_, &t)| t == best);
        match (leaders.next(), leaders.next()) {
            (Some((seat, _)), None) => SeatOutcome::Winner(seat),
            _ => SeatOutcome::Draw,
        }
    }
}

/// A perfect [`Nim`] player: it leaves a multiple of four when it can, else takes one.
///
/// # Examples
///
/// ```
/// use reversi_room::{Bot, Nim, NimBot};
/// assert_eq!(NimBot.choose(&Nim::new(7, 2)), Some(3));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NimBot;

impl Bot<Nim> for NimBot {
    fn choose(&mut self, game: &Nim) -> Option<u32> {
        game.to_act()?;
        Some(match game.pile % 4 {
            0 => 1,
            r => r,
        })
    }
}
