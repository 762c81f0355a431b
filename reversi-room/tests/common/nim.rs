// `Nim`, the tiny game of this crate's tests and examples (not part of the crate's API):
// players in turn take 1 to 3 pebbles from a pile, and whoever takes the last one wins. At a
// game-length limit the player who took the most wins. `NimBot` plays it perfectly.
//
// The integration tests load it with `#[path]`, and the crate's doc examples include it
// (hidden) with `include!`, so it is written against the crate's public API only.

use reversi_room::{Bot, SeatOutcome, TurnGame};
use serde::{Deserialize, Serialize};

/// A tiny game: players in turn take 1 to 3 pebbles from a pile, and
/// whoever takes the last one wins. At a game-length limit the player who took the most wins.
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
    #[must_use]
    pub fn pile(&self) -> u32 {
        self.pile
    }
}

/// Why a [`Nim`] action was refused.
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
