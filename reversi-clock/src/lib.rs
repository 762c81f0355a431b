//! Game clocks for every common time control, as pure sans-IO state machines.
//!
//! The crate knows no game: a [`Clock`] has N sides, numbered `0..N`, that take turns. It never
//! reads the system clock, sleeps or spawns: every call that changes state takes `now`, a
//! wall-clock [`Millis`] timestamp; [`Clock::poll_timeout`] says when someone would flag,
//! [`Clock::handle_timeout`] notices it, and [`Clock::poll_event`] drains the
//! [`ClockEvent`]s. Time is integer milliseconds throughout ([`Span`] for durations), and the
//! whole state serialises with serde (the `serde` feature, on by default), so a clock saved before a restart and loaded after it goes
//! on from what absolute time says.
//!
//! Time controls ([`TimeControl`]) are plain data: unlimited, per move, total, combined, Fischer
//! increment (with an optional cap), Bronstein delay and byo-yomi, with the presets of local games
//! ([`PerMovePreset`]) and online games ([`TimeControl::ONLINE`]).
//! [`parse_total_time`] reads a total time as a user types it.
//!
//! # Examples
//!
//! A per-move game (the "normal" preset, 30 s a move) and a combined game (30 s a move out of
//! a 2-minute bank each):
//!
//! ```
//! use reversi_clock::{Clock, ClockEvent, Millis, PerMovePreset, Span, TimeControl};
//!
//! // Per move: each turn starts a fresh 30 s, whatever the last one used.
//! let mut clock = Clock::new(TimeControl::preset(PerMovePreset::Normal), 2);
//! clock.start(Millis(0), 0)?;
//! clock.switch(Millis(25_000), 1)?; // side 0 moves after 25 s
//! assert_eq!(clock.remaining(0, Millis(25_000)), Some(Span::from_secs(30)));
//! assert_eq!(clock.remaining(1, Millis(35_000)), Some(Span::from_secs(20)));
//! // Side 1 does not move: it flags exactly 30 s after its turn began.
//! assert_eq!(clock.poll_timeout(), Some(Millis(55_000)));
//! clock.handle_timeout(Millis(55_000));
//! assert_eq!(clock.poll_event(), Some(ClockEvent::Flagged { side: 1, at: Millis(55_000) }));
//!
//! // Combined: a side loses on whichever of the move limit and its bank runs out first,
//! // and time a move leaves unused is not banked.
//! let control = TimeControl::combined(Span::from_secs(30), Span::from_mins(2));
//! let mut clock = Clock::new(control, 2);
//! let mut now = Millis(1_000_000);
//! clock.start(now, 0)?;
//! for _ in 0..8 {
//!     // Each side makes four moves of 25 s each: 100 s of its 120 s bank.
//!     now = now + Span::from_secs(25);
//!     clock.switch(now, 1 - clock.running_side().unwrap())?;
//! }
//! // Side 0 is to move with 20 s left in its bank, less than the move limit.
//! assert_eq!(clock.running_side(), Some(0));
//! assert_eq!(clock.remaining(0, now), Some(Span::from_secs(20)));
//! assert_eq!(clock.poll_timeout(), Some(now + Span::from_secs(20)));
//! # Ok::<(), reversi_clock::ClockError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod clock;
mod control;
mod parse;
mod time;

pub use clock::{Clock, ClockEvent, ClockStatus};
pub use control::{PerMovePreset, TimeControl};
pub use parse::{parse_total_time, ParseTimeError};
pub use time::{Millis, Span};

use thiserror::Error;

/// Why a clock operation was refused. Bad input leaves the clock exactly as it was, except that a
/// flag which fell before `now` is recorded ([`ClockError::Flagged`]).
///
/// # Examples
///
/// ```
/// use reversi_clock::{Clock, ClockError, Millis, TimeControl};
///
/// let mut clock = Clock::new(TimeControl::ONLINE, 2);
/// let err = clock.switch(Millis(0), 1).unwrap_err();
/// assert_eq!(err, ClockError::NotStarted);
/// assert_eq!(err.to_string(), "the clock has not been started");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Error)]
#[non_exhaustive]
pub enum ClockError {
    /// A side index out of range.
    #[error("side {side} does not exist on a clock of {sides} sides")]
    NoSuchSide {
        /// The side asked for.
        side: usize,
        /// How many sides the clock has.
        sides: usize,
    },
    /// The operation needs a started clock.
    #[error("the clock has not been started")]
    NotStarted,
    /// [`Clock::start`] on a clock already started.
    #[error("the clock has already been started")]
    AlreadyStarted,
    /// The operation is not allowed while paused (resume first), or the clock is already paused.
    #[error("the clock is paused")]
    Paused,
    /// [`Clock::resume`] on a clock that is running.
    #[error("the clock is not paused")]
    NotPaused,
    /// `side` lost on time at `at`: the game is over on time.
    #[error("side {side} ran out of time at {at}")]
    Flagged {
        /// The side that lost on time.
        side: usize,
        /// The instant its time reached zero.
        at: Millis,
    },
    /// The clock was stopped: the game is over.
    #[error("the clock is stopped")]
    Stopped,
    /// [`Clock::undo`] asked for more switches than were recorded.
    #[error("cannot undo {requested} switches: only {available} recorded")]
    NotEnoughHistory {
        /// How many switches were to be undone.
        requested: usize,
        /// How many are recorded.
        available: usize,
    },
    /// A deserialised clock state is inconsistent (say, a side index out of range).
    #[error("invalid clock state: {0}")]
    InvalidState(String),
}
