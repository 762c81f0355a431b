//! The game-and-clock machine: one game, its clock, its turn version and its result.

use reversi_clock::{Clock, Millis, TimeControl};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::{EndReason, GameResult, RoomError, SeatOutcome, SnapshotError, TurnGame};

/// One game and its clock, whole: the game's state, a [`Clock`] with one side per seat, the
/// version at which the current turn began, and the [`GameResult`] once it is over. A sans-IO
/// state machine: every call that changes it takes `now`, [`poll_timeout`](TimedGame::poll_timeout)
/// says when [`handle_timeout`](TimedGame::handle_timeout) must be called next.
///
/// It keeps the rules that every timed game shares, whoever hosts it:
///
/// - only the seat to act acts ([`act`](TimedGame::act)), through the game's checked
///   [`TurnGame::apply`]; the clock switches to the next seat; a refused action leaves
///   everything as it was;
/// - the seat to act loses on time when its deadline falls ([`EndReason::Timeout`]), and any
///   call at `now` notices a deadline that fell by then before doing anything else;
/// - a seat may resign ([`EndReason::Resigned`]);
/// - the game ends by its rules when no seat is left to act ([`EndReason::Board`]);
/// - the owner may end it for its own reasons ([`end`](TimedGame::end)) and pause its clock;
/// - moves can be taken back ([`undo`](TimedGame::undo)), for owners that offer it.
///
/// A [`Room`](crate::Room) plays each of its games in one (its pauses, game-length limit, seats
/// and bots are its own, and it never takes moves back); the `reversi` facade's local match
/// (`reversi::local::LocalMatch`) is one, with undo. The owner numbers its states: it gives each
/// turn the version it began at ([`set_turn_version`](TimedGame::set_turn_version)), against
/// which [`check_version`](TimedGame::check_version) tells a stale action.
///
/// With the `serde` feature it serialises when the game does; its serde form follows its
/// private fields (a host stores a room through [`Room::snapshot`](crate::Room::snapshot)).
///
/// # Examples
///
/// `Nim` of the [crate examples](crate#examples), 10 seconds a move:
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::{Millis, Span, TimeControl};
/// use reversi_room::{EndReason, RoomError, SeatOutcome, TimedGame};
///
/// let mut g = TimedGame::new(1, Nim::new(5, 2), TimeControl::per_move(Span::from_secs(10)), Millis(0));
/// assert_eq!(g.to_act(), Some(0));
/// g.act(Millis(4_000), 0, &3)?;
/// // Out of turn, or against the rules: refused, and nothing changed.
/// let before = g.clone();
/// assert_eq!(g.act(Millis(5_000), 0, &1), Err(RoomError::NotYourTurn { seat: 0, to_act: 1 }));
/// assert!(matches!(g.act(Millis(5_000), 1, &3), Err(RoomError::IllegalAction { seat: 1, .. })));
/// assert_eq!(g, before);
/// // Seat 1's deadline is 10 s after seat 0's action.
/// assert_eq!(g.poll_timeout(), Some(Millis(14_000)));
/// assert!(g.handle_timeout(Millis(14_000)));
/// let r = g.result().unwrap();
/// assert_eq!((r.outcome, r.reason, r.at), (SeatOutcome::Winner(0), EndReason::Timeout { seat: 1 }, Millis(14_000)));
/// # Ok::<(), RoomError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "G: Serialize",
        deserialize = "G: serde::de::DeserializeOwned"
    ))
)]
pub struct TimedGame<G: TurnGame> {
    number: u64,
    state: G,
    clock: Clock,
    turn_version: u64,
    result: Option<GameResult>,
}

impl<G: TurnGame> TimedGame<G> {
    /// Game number `number` (a room counts its games from 1; a lone game is number 1) from
    /// `state`, each seat timed by `control`; the clock of the seat to act runs from `now`. A
    /// state with no seat to act gives a game over at once, by [`EndReason::Board`] (the game's
    /// [`outcome`](TurnGame::outcome), or else its [`adjudicate`](TurnGame::adjudicate)).
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Millis, TimeControl};
    /// use reversi_room::{EndReason, TimedGame};
    /// let g = TimedGame::new(1, Nim::new(0, 2), TimeControl::Unlimited, Millis(3));
    /// assert_eq!(g.result().unwrap().reason, EndReason::Board);
    /// assert_eq!(g.to_act(), None);
    /// ```
    #[must_use]
    pub fn new(number: u64, state: G, control: TimeControl, now: Millis) -> TimedGame<G> {
        let mut clock = Clock::new(control, state.seats());
        let mut result = None;
        match state.to_act() {
            // A seat beyond the game's count cannot start: the clock then stays as it is.
            Some(seat) => {
                let _ = clock.start(now, seat);
            }
            None => {
                let _ = clock.stop(now);
                result = Some(GameResult {
                    game: number,
                    outcome: state.outcome().unwrap_or_else(|| state.adjudicate()),
                    reason: EndReason::Board,
                    at: now,
                });
            }
        }
        TimedGame {
            number,
            state,
            clock,
            turn_version: 0,
            result,
        }
    }

    /// A game put back together from its parts, as its owner stored them: the owner checks that
    /// they agree (a [`Room`](crate::Room) in
    /// [`Room::from_snapshot`](crate::Room::from_snapshot), the local match when it loads); this
    /// checks only that the clock has one side per seat. A result whose game number is not
    /// `number` takes `number`.
    ///
    /// # Errors
    ///
    /// [`SnapshotError::SeatCount`] when the clock's sides are not the game's seats.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Clock, Millis, TimeControl};
    /// use reversi_room::{SnapshotError, TimedGame};
    /// let g = TimedGame::new(1, Nim::new(5, 2), TimeControl::Unlimited, Millis(0));
    /// let back = TimedGame::from_parts(1, g.state().clone(), g.clock().clone(), 0, None)?;
    /// assert_eq!(back, g);
    /// let three = Clock::new(TimeControl::Unlimited, 3);
    /// assert!(matches!(
    ///     TimedGame::from_parts(1, Nim::new(5, 2), three, 0, None),
    ///     Err(SnapshotError::SeatCount { found: 3, seats: 2, .. })
    /// ));
    /// # Ok::<(), SnapshotError>(())
    /// ```
    pub fn from_parts(
        number: u64,
        state: G,
        clock: Clock,
        turn_version: u64,
        result: Option<GameResult>,
    ) -> Result<TimedGame<G>, SnapshotError> {
        if clock.sides() != state.seats() {
            return Err(SnapshotError::SeatCount {
                what: "the clock",
                found: clock.sides(),
                seats: state.seats(),
            });
        }
        Ok(TimedGame {
            number,
            state,
            clock,
            turn_version,
            result: result.map(|r| GameResult { game: number, ..r }),
        })
    }

    /// The game's number, as given to [`new`](TimedGame::new).
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Millis, TimeControl};
    /// use reversi_room::TimedGame;
    /// assert_eq!(TimedGame::new(4, Nim::new(5, 2), TimeControl::Unlimited, Millis(0)).number(), 4);
    /// ```
    #[must_use]
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The game's state.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Millis, TimeControl};
    /// use reversi_room::TimedGame;
    /// let mut g = TimedGame::new(1, Nim::new(5, 2), TimeControl::Unlimited, Millis(0));
    /// g.act(Millis(1), 0, &2).unwrap();
    /// assert_eq!(g.state().pile(), 3);
    /// ```
    #[must_use]
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The clock: side `n` is seat `n`.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Millis, TimeControl};
    /// use reversi_room::TimedGame;
    /// let g = TimedGame::new(1, Nim::new(5, 3), TimeControl::Unlimited, Millis(0));
    /// assert_eq!((g.clock().sides(), g.clock().running_side()), (3, Some(0)));
    /// ```
    #[must_use]
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// How the game ended, once it has.
    ///
    /// # Examples
    ///
    /// See [`TimedGame::resign`].
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Whether the game is over.
    ///
    /// # Examples
    ///
    /// See [`TimedGame::end`].
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The seat to act, `None` once the game is over (paused or not).
    ///
    /// # Examples
    ///
    /// See [`TimedGame`].
    #[must_use]
    pub fn to_act(&self) -> Option<usize> {
        if self.result.is_some() {
            None
        } else {
            self.state.to_act()
        }
    }

    /// The owner's state version at which the current turn began (0 until the owner sets one).
    ///
    /// # Examples
    ///
    /// See [`TimedGame::check_version`].
    #[must_use]
    pub fn turn_version(&self) -> u64 {
        self.turn_version
    }

    /// Marks the owner's state version at which the current turn began: a room sets its own
    /// version when it announces a turn; a local match numbers every change.
    ///
    /// # Examples
    ///
    /// See [`TimedGame::check_version`].
    pub fn set_turn_version(&mut self, version: u64) {
        self.turn_version = version;
    }

    /// Checks that an action made on the owner's state version `got` is not stale: from the
    /// turn's version to `current`, the owner's version now.
    ///
    /// # Errors
    ///
    /// [`RoomError::StaleVersion`] for a version older than the turn (an action on a state
    /// that has moved on, or one already applied) or newer than `current`.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Millis, TimeControl};
    /// use reversi_room::{RoomError, TimedGame};
    /// let mut g = TimedGame::new(1, Nim::new(5, 2), TimeControl::Unlimited, Millis(0));
    /// g.set_turn_version(7);
    /// assert_eq!(g.turn_version(), 7);
    /// assert_eq!(g.check_version(8, 9), Ok(()));
    /// assert_eq!(g.check_version(6, 9), Err(RoomError::StaleVersion { got: 6, turn: 7, current: 9 }));
    /// assert!(g.check_version(10, 9).is_err());
    /// ```
    pub fn check_version(&self, got: u64, current: u64) -> Result<(), RoomError> {
        if got < self.turn_version || got > current {
            return Err(RoomError::StaleVersion {
                got,
                turn: self.turn_version,
                current,
            });
        }
        Ok(())
    }

    /// Checks that `seat` may act now (the game's seat to act), without acting.
    ///
    /// # Errors
    ///
    /// [`RoomError::NoGameInProgress`] once the game is over, [`RoomError::NotYourTurn`].
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Millis, TimeControl};
    /// use reversi_room::{RoomError, TimedGame};
    /// let g = TimedGame::new(1, Nim::new(5, 2), TimeControl::Unlimited, Millis(0));
    /// assert_eq!(g.check_turn(0), Ok(()));
    /// assert_eq!(g.check_turn(1), Err(RoomError::NotYourTurn { seat: 1, to_act: 0 }));
    /// ```
    pub fn check_turn(&self, seat: usize) -> Result<(), RoomError> {
        let to_act = self.to_act().ok_or(RoomError::NoGameInProgress)?;
        if to_act != seat {
            return Err(RoomError::NotYourTurn { seat, to_act });
        }
        Ok(())
    }

    /// When [`handle_timeout`](TimedGame::handle_timeout) must be called next: the running
    /// seat's deadline; `None` once over, while paused, or without a time limit.
    ///
    /// # Examples
    ///
    /// See [`TimedGame`].
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Millis> {
        if self.result.is_some() {
            None
        } else {
            self.clock.poll_timeout()
        }
    }

    /// Notices a deadline that fell at or before `now`: the seat to act loses on time
    /// ([`TurnGame::forfeit`], [`EndReason::Timeout`], at the deadline itself). Returns whether
    /// the game ended. Calling it early or more than once is harmless.
    ///
    /// # Examples
    ///
    /// See [`TimedGame`].
    pub fn handle_timeout(&mut self, now: Millis) -> bool {
        if self.result.is_some() {
            return false;
        }
        self.clock.handle_timeout(now);
        while self.clock.poll_event().is_some() {}
        let Some((seat, at)) = self.clock.flagged() else {
            return false;
        };
        self.result = Some(GameResult {
            game: self.number,
            outcome: self.state.forfeit(seat),
            reason: EndReason::Timeout { seat },
            at,
        });
        true
    }

    /// `seat`'s action at `now`: a deadline that fell by `now` ends the game first (see
    /// [`handle_timeout`](TimedGame::handle_timeout)) and the action is refused. Otherwise the
    /// game applies it, the clock switches to the next seat to act, and with none left the game
    /// is over by its rules ([`EndReason::Board`]).
    ///
    /// # Errors
    ///
    /// [`RoomError::NoGameInProgress`] once over, [`RoomError::Paused`] while the clock is
    /// paused, [`RoomError::NotYourTurn`], [`RoomError::IllegalAction`] with the game's reason;
    /// the game is then as it was (but for a time-out).
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Millis, TimeControl};
    /// use reversi_room::{EndReason, SeatOutcome, TimedGame};
    /// let mut g = TimedGame::new(1, Nim::new(4, 2), TimeControl::Unlimited, Millis(0));
    /// g.act(Millis(1), 0, &3)?;
    /// g.act(Millis(2), 1, &1)?; // the last pebble
    /// let r = g.result().unwrap();
    /// assert_eq!((r.outcome, r.reason, r.at), (SeatOutcome::Winner(1), EndReason::Board, Millis(2)));
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    pub fn act(&mut self, now: Millis, seat: usize, action: &G::Action) -> Result<(), RoomError> {
        self.notice_deadline(now);
        self.check_turn(seat)?;
        if self.clock.is_paused() {
            return Err(RoomError::Paused);
        }
        if self.clock.running_side() != Some(seat) {
            // Parts put together that disagree: the clock runs for nobody, or someone else.
            return Err(RoomError::NoGameInProgress);
        }
        // `TurnGame::apply` leaves a refused state as it was: no copy to fall back on is needed.
        self.state
            .apply(seat, action)
            .map_err(|e| RoomError::IllegalAction {
                seat,
                reason: e.to_string(),
            })?;
        let next = self.state.to_act();
        // The deadline ran first and the clock runs for `seat`: the switch cannot flag.
        let _ = self.clock.switch(now, next.unwrap_or(seat));
        if next.is_none() {
            let outcome = self
                .state
                .outcome()
                .unwrap_or_else(|| self.state.adjudicate());
            self.close(now, outcome, EndReason::Board);
        }
        Ok(())
    }

    /// `seat` resigns at `now`: a deadline that fell by then ends the game first; otherwise
    /// it ends with [`EndReason::Resigned`] and the game's [`forfeit`](TurnGame::forfeit).
    /// Returns the result.
    ///
    /// # Errors
    ///
    /// [`RoomError::NoGameInProgress`] once over, [`RoomError::NoSuchSeat`]; the game is then
    /// as it was (but for a time-out).
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Millis, TimeControl};
    /// use reversi_room::{EndReason, RoomError, SeatOutcome, TimedGame};
    /// let mut g = TimedGame::new(1, Nim::new(5, 2), TimeControl::Unlimited, Millis(0));
    /// let r = g.resign(Millis(8), 1)?; // not its turn: anyone seated may resign
    /// assert_eq!((r.outcome, r.reason, r.at), (SeatOutcome::Winner(0), EndReason::Resigned { seat: 1 }, Millis(8)));
    /// assert_eq!(g.result(), Some(r));
    /// assert_eq!(g.resign(Millis(9), 0), Err(RoomError::NoGameInProgress));
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn resign(&mut self, now: Millis, seat: usize) -> Result<GameResult, RoomError> {
        self.notice_deadline(now);
        if self.result.is_some() {
            return Err(RoomError::NoGameInProgress);
        }
        let seats = self.state.seats();
        if seat >= seats {
            return Err(RoomError::NoSuchSeat { seat, seats });
        }
        let outcome = self.state.forfeit(seat);
        Ok(self.close(now, outcome, EndReason::Resigned { seat }))
    }

    /// Ends the game at `at` with `outcome` for a reason of the owner's (a seat abandoned, the
    /// host ended it, a game-length limit...): the clock stops. No deadline is noticed first:
    /// the owner runs its deadlines in its own order. Returns the result.
    ///
    /// # Errors
    ///
    /// [`RoomError::NoGameInProgress`] once over; the game is then unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Millis, TimeControl};
    /// use reversi_room::{EndReason, RoomError, SeatOutcome, TimedGame};
    /// let mut g = TimedGame::new(1, Nim::new(5, 2), TimeControl::Unlimited, Millis(0));
    /// g.end(Millis(5), SeatOutcome::NoResult, EndReason::EndedByHost)?;
    /// assert!(g.is_over());
    /// assert_eq!(g.end(Millis(6), SeatOutcome::Draw, EndReason::TimeLimit), Err(RoomError::NoGameInProgress));
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn end(
        &mut self,
        at: Millis,
        outcome: SeatOutcome,
        reason: EndReason,
    ) -> Result<GameResult, RoomError> {
        if self.result.is_some() {
            return Err(RoomError::NoGameInProgress);
        }
        Ok(self.close(at, outcome, reason))
    }

    /// Pauses the clock at `now` (for the owner's pauses: a host's, nobody connected).
    ///
    /// # Errors
    ///
    /// [`RoomError::NoGameInProgress`] once over (or with the clock not running),
    /// [`RoomError::Paused`] when already paused; the game is then unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Millis, Span, TimeControl};
    /// use reversi_room::{RoomError, TimedGame};
    /// let mut g = TimedGame::new(1, Nim::new(5, 2), TimeControl::per_move(Span::from_secs(10)), Millis(0));
    /// g.pause(Millis(4_000))?;
    /// assert_eq!(g.poll_timeout(), None);
    /// assert_eq!(g.act(Millis(5_000), 0, &1), Err(RoomError::Paused));
    /// g.resume(Millis(60_000))?;
    /// assert_eq!(g.poll_timeout(), Some(Millis(66_000)));
    /// assert_eq!(g.resume(Millis(60_000)), Err(RoomError::NotPaused));
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn pause(&mut self, now: Millis) -> Result<(), RoomError> {
        if self.result.is_some() {
            return Err(RoomError::NoGameInProgress);
        }
        if self.clock.is_paused() {
            return Err(RoomError::Paused);
        }
        self.clock
            .pause(now)
            .map_err(|_| RoomError::NoGameInProgress)
    }

    /// Resumes a paused clock at `now`.
    ///
    /// # Errors
    ///
    /// [`RoomError::NoGameInProgress`] once over, [`RoomError::NotPaused`]; the game is then
    /// unchanged.
    ///
    /// # Examples
    ///
    /// See [`TimedGame::pause`].
    pub fn resume(&mut self, now: Millis) -> Result<(), RoomError> {
        if self.result.is_some() {
            return Err(RoomError::NoGameInProgress);
        }
        if !self.clock.is_paused() {
            return Err(RoomError::NotPaused);
        }
        self.clock
            .resume(now)
            .map_err(|_| RoomError::NoGameInProgress)
    }

    /// Takes actions back at `now`: the game goes back to `earlier`, a state of this game
    /// `switches` actions ago (the owner knows the game's rules, and which state that is), and
    /// the clock to what it was then, the seat to act running from `now` (or paused, if the
    /// clock is). A deadline that fell by `now` ends the game first. A [`Room`](crate::Room)
    /// never calls it: online games take nothing back.
    ///
    /// # Errors
    ///
    /// [`RoomError::NoGameInProgress`] once over; [`RoomError::NothingToUndo`] when the clock
    /// has fewer than `switches` turns to take back, or the seat to act in `earlier` is not the
    /// one the clock goes back to. The game is then as it was (but for a time-out).
    ///
    /// # Examples
    ///
    /// ```
    /// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
    /// use reversi_clock::{Millis, Span, TimeControl};
    /// use reversi_room::{RoomError, TimedGame};
    /// let mut g = TimedGame::new(1, Nim::new(5, 2), TimeControl::total(Span::from_secs(60)), Millis(0));
    /// let start = g.state().clone();
    /// g.act(Millis(5_000), 0, &2)?;
    /// assert_eq!(g.undo(Millis(9_000), start.clone(), 2), Err(RoomError::NothingToUndo));
    /// g.undo(Millis(9_000), start.clone(), 1)?;
    /// assert_eq!(g.state(), &start);
    /// assert_eq!(g.clock().remaining(0, Millis(9_000)), Some(Span::from_secs(60)));
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn undo(&mut self, now: Millis, earlier: G, switches: usize) -> Result<(), RoomError> {
        self.notice_deadline(now);
        if self.result.is_some() {
            return Err(RoomError::NoGameInProgress);
        }
        let mut clock = self.clock.clone();
        clock
            .undo(now, switches)
            .map_err(|_| RoomError::NothingToUndo)?;
        let clock_side = clock.side_to_move();
        if earlier.to_act().is_none() || earlier.to_act() != clock_side {
            return Err(RoomError::NothingToUndo);
        }
        self.state = earlier;
        self.clock = clock;
        Ok(())
    }

    /// Runs [`handle_timeout`](TimedGame::handle_timeout) only when a deadline fell by `now`, so
    /// that a refused call leaves even the clock's latest instant as it was.
    fn notice_deadline(&mut self, now: Millis) {
        if self.poll_timeout().is_some_and(|deadline| deadline <= now) {
            self.handle_timeout(now);
        }
    }

    /// Stops the clock and records the result.
    fn close(&mut self, at: Millis, outcome: SeatOutcome, reason: EndReason) -> GameResult {
        let _ = self.clock.stop(at);
        let result = GameResult {
            game: self.number,
            outcome,
            reason,
            at,
        };
        self.result = Some(result);
        result
    }
}
