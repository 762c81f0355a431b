//! The clock state machine.

use std::collections::VecDeque;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::{ClockError, Millis, Span, TimeControl};

/// Something that happened on the clock, drained with [`Clock::poll_event`].
///
/// # Examples
///
/// ```
/// use reversi_clock::{Clock, ClockEvent, Millis, Span, TimeControl};
///
/// let mut clock = Clock::new(TimeControl::per_move(Span::from_secs(5)), 2);
/// clock.start(Millis(0), 0).unwrap();
/// clock.handle_timeout(Millis(9_000));
/// assert_eq!(clock.poll_event(), Some(ClockEvent::Flagged { side: 0, at: Millis(5_000) }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[non_exhaustive]
pub enum ClockEvent {
    /// `side` ran out of time at the instant `at` (exactly its deadline, even if the clock learnt
    /// of it later). The clock is then stopped.
    Flagged {
        /// The side that lost on time.
        side: usize,
        /// The instant its time reached zero.
        at: Millis,
    },
}

/// Where the clock is in its life, as returned by [`Clock::status`].
///
/// # Examples
///
/// ```
/// use reversi_clock::{Clock, ClockStatus, Millis, TimeControl};
///
/// let mut clock = Clock::new(TimeControl::ONLINE, 2);
/// assert_eq!(clock.status(), ClockStatus::NotStarted);
/// clock.start(Millis(0), 1).unwrap();
/// assert_eq!(clock.status(), ClockStatus::Running { side: 1 });
/// clock.pause(Millis(10)).unwrap();
/// assert_eq!(clock.status(), ClockStatus::Paused { side: 1 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ClockStatus {
    /// [`Clock::start`] has not been called yet.
    NotStarted,
    /// It is `side`'s turn and its time is running.
    Running {
        /// The side whose turn it is.
        side: usize,
    },
    /// It is `side`'s turn, and every side's time is frozen.
    Paused {
        /// The side whose turn it is.
        side: usize,
    },
    /// `side` lost on time at `at`; the clock is stopped.
    Flagged {
        /// The side that lost on time.
        side: usize,
        /// The instant its time reached zero.
        at: Millis,
    },
    /// [`Clock::stop`] ended the game. `side` is the side whose turn it was, if the clock had
    /// been started.
    Stopped {
        /// The side whose turn it was when the clock stopped.
        side: Option<usize>,
    },
}

/// The time state of one side between its turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
struct SideTime {
    /// The bank (main time for byo-yomi; unused by per-move and unlimited controls).
    bank: Span,
    /// Byo-yomi periods left (zero for every other control).
    periods: u32,
}

/// The clock's phase. Only the current turn's time is kept here: the side banks in
/// [`Clock::sides`] are settled when a turn ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "phase", rename_all = "snake_case"))]
enum Phase {
    NotStarted,
    /// `used` is the time spent in this turn before `since`.
    Running {
        side: usize,
        used: Span,
        since: Millis,
    },
    Paused {
        side: usize,
        used: Span,
    },
    Flagged {
        side: usize,
        at: Millis,
    },
    Stopped {
        side: Option<usize>,
        used: Span,
    },
}

/// What a switch recorded, so that [`Clock::undo`] can take it back.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
struct Record {
    /// The side whose turn ended with the switch.
    side: usize,
    /// Every side's time at the start of that turn.
    sides: Vec<SideTime>,
}

/// The clocks of one game: N sides, one time control, a sans-IO state machine.
///
/// The clock never reads the system clock: every call that changes state takes `now`, the
/// wall-clock instant in milliseconds. A `now` earlier than the latest one seen is treated as that
/// latest one. The host asks [`poll_timeout`](Clock::poll_timeout) when someone would flag, calls
/// [`handle_timeout`](Clock::handle_timeout) then, and drains [`poll_event`](Clock::poll_event).
/// A call that changes state also notices a flag that fell before `now`, so a move made after the
/// deadline is refused even if `handle_timeout` was late.
///
/// The whole state serialises with serde. Since the timestamps are wall-clock, a clock loaded
/// again after a restart counts the time away as spent by the side that was running.
///
/// # Examples
///
/// ```
/// use reversi_clock::{Clock, ClockEvent, Millis, Span, TimeControl};
///
/// let mut clock = Clock::new(TimeControl::total(Span::from_mins(1)), 2);
/// clock.start(Millis(0), 0).unwrap();
/// clock.switch(Millis(20_000), 1).unwrap(); // side 0 thought for 20 s
/// assert_eq!(clock.remaining(0, Millis(20_000)), Some(Span::from_secs(40)));
///
/// // Save, and load again 5 s later: side 1 was running all along.
/// let saved = serde_json::to_string(&clock).unwrap();
/// let mut clock: Clock = serde_json::from_str(&saved).unwrap();
/// assert_eq!(clock.remaining(1, Millis(25_000)), Some(Span::from_secs(55)));
///
/// // Side 1 lets its time run out.
/// assert_eq!(clock.poll_timeout(), Some(Millis(80_000)));
/// clock.handle_timeout(Millis(80_000));
/// assert_eq!(clock.poll_event(), Some(ClockEvent::Flagged { side: 1, at: Millis(80_000) }));
/// assert_eq!(clock.remaining(1, Millis(90_000)), Some(Span::ZERO));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "ClockData"))]
pub struct Clock {
    control: TimeControl,
    sides: Vec<SideTime>,
    phase: Phase,
    last_now: Millis,
    history: Vec<Record>,
    events: VecDeque<ClockEvent>,
}

/// The unchecked shape of a serialised [`Clock`]; checked before it becomes one.
#[cfg(feature = "serde")]
#[derive(Deserialize)]
struct ClockData {
    control: TimeControl,
    sides: Vec<SideTime>,
    phase: Phase,
    last_now: Millis,
    history: Vec<Record>,
    events: VecDeque<ClockEvent>,
}

#[cfg(feature = "serde")]
impl TryFrom<ClockData> for Clock {
    type Error = ClockError;

    fn try_from(d: ClockData) -> Result<Clock, ClockError> {
        let n = d.sides.len();
        let invalid = |what: String| Err(ClockError::InvalidState(what));
        if n == 0 {
            return invalid("a clock needs at least one side".to_owned());
        }
        let phase_side = match d.phase {
            Phase::NotStarted | Phase::Stopped { side: None, .. } => None,
            Phase::Running { side, .. }
            | Phase::Paused { side, .. }
            | Phase::Flagged { side, .. }
            | Phase::Stopped {
                side: Some(side), ..
            } => Some(side),
        };
        if let Some(side) = phase_side.filter(|&s| s >= n) {
            return invalid(format!(
                "the phase names side {side} on a clock of {n} sides"
            ));
        }
        let mismatch = |r: &&Record| r.side >= n || r.sides.len() != n;
        if let Some((i, r)) = d.history.iter().enumerate().find(|(_, r)| mismatch(r)) {
            return invalid(format!(
                "switch {i} of the history names side {} with the times of {} sides, on a \
                 clock of {n} sides",
                r.side,
                r.sides.len()
            ));
        }
        Ok(Clock {
            control: d.control,
            sides: d.sides,
            phase: d.phase,
            last_now: d.last_now,
            history: d.history,
            events: d.events,
        })
    }
}

impl Clock {
    /// A clock for `sides` sides under `control`, not started yet. Each side has its own bank.
    ///
    /// # Panics
    ///
    /// If `sides` is zero.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, Span, TimeControl};
    ///
    /// let clock = Clock::new(TimeControl::total(Span::from_mins(5)), 2);
    /// assert_eq!(clock.sides(), 2);
    /// assert_eq!(clock.remaining(1, Millis(0)), Some(Span::from_mins(5)));
    /// ```
    #[must_use]
    pub fn new(control: TimeControl, sides: usize) -> Clock {
        assert!(sides > 0, "a clock needs at least one side");
        let start = match control {
            TimeControl::Unlimited | TimeControl::PerMove { .. } => SideTime {
                bank: Span::ZERO,
                periods: 0,
            },
            TimeControl::Total { bank }
            | TimeControl::Combined { bank, .. }
            | TimeControl::Fischer { bank, .. }
            | TimeControl::Delay { bank, .. } => SideTime { bank, periods: 0 },
            TimeControl::ByoYomi { main, periods, .. } => SideTime {
                bank: main,
                periods,
            },
        };
        Clock {
            control,
            sides: vec![start; sides],
            phase: Phase::NotStarted,
            last_now: Millis::EPOCH,
            history: Vec::new(),
            events: VecDeque::new(),
        }
    }

    /// The time control.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, TimeControl};
    /// assert_eq!(Clock::new(TimeControl::ONLINE, 2).control(), TimeControl::ONLINE);
    /// ```
    #[must_use]
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The number of sides.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, TimeControl};
    /// assert_eq!(Clock::new(TimeControl::Unlimited, 4).sides(), 4);
    /// ```
    #[must_use]
    pub fn sides(&self) -> usize {
        self.sides.len()
    }

    /// Where the clock is in its life.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, ClockStatus, Millis, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// clock.stop(Millis(1)).unwrap();
    /// assert_eq!(clock.status(), ClockStatus::Stopped { side: Some(0) });
    /// ```
    #[must_use]
    pub fn status(&self) -> ClockStatus {
        match self.phase {
            Phase::NotStarted => ClockStatus::NotStarted,
            Phase::Running { side, .. } => ClockStatus::Running { side },
            Phase::Paused { side, .. } => ClockStatus::Paused { side },
            Phase::Flagged { side, at } => ClockStatus::Flagged { side, at },
            Phase::Stopped { side, .. } => ClockStatus::Stopped { side },
        }
    }

    /// The side whose time is running now, if any (`None` when paused, not started, flagged or
    /// stopped).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// clock.start(Millis(0), 1).unwrap();
    /// assert_eq!(clock.running_side(), Some(1));
    /// clock.pause(Millis(5)).unwrap();
    /// assert_eq!(clock.running_side(), None);
    /// ```
    #[must_use]
    pub fn running_side(&self) -> Option<usize> {
        match self.phase {
            Phase::Running { side, .. } => Some(side),
            _ => None,
        }
    }

    /// The side whose turn it is, running or paused (`None` before the start and once the game
    /// is over).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// clock.start(Millis(0), 1).unwrap();
    /// clock.pause(Millis(5)).unwrap();
    /// assert_eq!(clock.side_to_move(), Some(1));
    /// ```
    #[must_use]
    pub fn side_to_move(&self) -> Option<usize> {
        match self.phase {
            Phase::Running { side, .. } | Phase::Paused { side, .. } => Some(side),
            _ => None,
        }
    }

    /// Whether the clock is paused.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// clock.pause(Millis(1)).unwrap();
    /// assert!(clock.is_paused());
    /// ```
    #[must_use]
    pub fn is_paused(&self) -> bool {
        matches!(self.phase, Phase::Paused { .. })
    }

    /// The side that lost on time and when, once the clock has noticed it.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, Span, TimeControl};
    /// let mut clock = Clock::new(TimeControl::per_move(Span::from_secs(1)), 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// assert_eq!(clock.flagged(), None);
    /// clock.handle_timeout(Millis(1_000));
    /// assert_eq!(clock.flagged(), Some((0, Millis(1_000))));
    /// ```
    #[must_use]
    pub fn flagged(&self) -> Option<(usize, Millis)> {
        match self.phase {
            Phase::Flagged { side, at } => Some((side, at)),
            _ => None,
        }
    }

    /// Whether the game is over for the clock: flagged or stopped.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// assert!(!clock.is_over());
    /// clock.stop(Millis(1)).unwrap();
    /// assert!(clock.is_over());
    /// ```
    #[must_use]
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Flagged { .. } | Phase::Stopped { .. })
    }

    /// The latest instant the clock has seen; earlier `now`s are treated as this one.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// clock.start(Millis(500), 0).unwrap();
    /// clock.handle_timeout(Millis(100)); // earlier: saturates
    /// assert_eq!(clock.last_seen(), Millis(500));
    /// ```
    #[must_use]
    pub fn last_seen(&self) -> Millis {
        self.last_now
    }

    /// How many switches are recorded and can be undone.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// clock.switch(Millis(10), 1).unwrap();
    /// assert_eq!(clock.switches(), 1);
    /// ```
    #[must_use]
    pub fn switches(&self) -> usize {
        self.history.len()
    }

    /// The time `side` has left at `now`, or `None` under [`TimeControl::Unlimited`].
    ///
    /// This is the time until the side would flag if it started (or went on with) its turn now
    /// and did not move: for per-move controls a side that is not to move shows the full limit;
    /// for byo-yomi it counts the main time and every period left. It is never below zero, and it
    /// is zero for a side that flagged. A `now` earlier than [`last_seen`](Clock::last_seen)
    /// is treated as that.
    ///
    /// # Panics
    ///
    /// If `side >= self.sides()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, Span, TimeControl};
    ///
    /// let mut clock = Clock::new(TimeControl::combined(Span::from_secs(30), Span::from_secs(40)), 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// assert_eq!(clock.remaining(0, Millis(10_000)), Some(Span::from_secs(20)));
    /// clock.switch(Millis(25_000), 1).unwrap();
    /// // 15 s left in the bank, which is now less than a move's 30 s.
    /// assert_eq!(clock.remaining(0, Millis(25_000)), Some(Span::from_secs(15)));
    /// assert_eq!(clock.remaining(1, Millis(25_000)), Some(Span::from_secs(30)));
    /// ```
    #[must_use]
    pub fn remaining(&self, side: usize, now: Millis) -> Option<Span> {
        assert!(side < self.sides.len(), "side {side} does not exist");
        let budget = self.budget(side)?;
        let Some(used) = self.turn_used(side, now) else {
            return Some(Span::ZERO);
        };
        Some(budget.saturating_sub(used))
    }

    /// The time left in `side`'s bank at `now`, apart from what a move gets on its own: the bank
    /// under [`TimeControl::Total`], [`TimeControl::Combined`], [`TimeControl::Fischer`] and
    /// [`TimeControl::Delay`] (before a delay or an increment is given), the main time under
    /// [`TimeControl::ByoYomi`]; `None` under [`TimeControl::Unlimited`] and
    /// [`TimeControl::PerMove`], which have none. A player (or an engine) shares it out over
    /// the moves to come.
    ///
    /// # Panics
    ///
    /// If `side >= self.sides()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, Span, TimeControl};
    ///
    /// let mut clock = Clock::new(TimeControl::combined(Span::from_secs(10), Span::from_secs(60)), 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// assert_eq!(clock.remaining(0, Millis(4_000)), Some(Span::from_secs(6)));
    /// assert_eq!(clock.bank(0, Millis(4_000)), Some(Span::from_secs(56)));
    /// let byo = TimeControl::ByoYomi { main: Span::from_secs(10), periods: 3, period: Span::from_secs(5) };
    /// let mut clock = Clock::new(byo, 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// assert_eq!(clock.bank(0, Millis(4_000)), Some(Span::from_secs(6)));
    /// assert_eq!(clock.bank(0, Millis(12_000)), Some(Span::ZERO)); // in the first period
    /// assert_eq!(Clock::new(TimeControl::ONLINE, 2).bank(0, Millis(0)), None);
    /// ```
    #[must_use]
    pub fn bank(&self, side: usize, now: Millis) -> Option<Span> {
        assert!(side < self.sides.len(), "side {side} does not exist");
        match self.control {
            TimeControl::Unlimited | TimeControl::PerMove { .. } => return None,
            _ => {}
        }
        let Some(used) = self.turn_used(side, now) else {
            return Some(Span::ZERO);
        };
        Some(self.sides[side].bank.saturating_sub(used))
    }

    /// For byo-yomi, the periods `side` has left at `now` (counting the one it may be in);
    /// `None` under any other control.
    ///
    /// # Panics
    ///
    /// If `side >= self.sides()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, Span, TimeControl};
    ///
    /// let control = TimeControl::ByoYomi { main: Span::from_secs(10), periods: 3, period: Span::from_secs(5) };
    /// let mut clock = Clock::new(control, 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// assert_eq!(clock.periods_left(0, Millis(9_000)), Some(3));
    /// assert_eq!(clock.periods_left(0, Millis(16_000)), Some(2)); // one period ran out
    /// ```
    #[must_use]
    pub fn periods_left(&self, side: usize, now: Millis) -> Option<u32> {
        let TimeControl::ByoYomi { period, .. } = self.control else {
            return None;
        };
        let remaining = self.remaining(side, now)?;
        if period.is_zero() {
            return Some(0);
        }
        let periods = self.sides[side].periods;
        // Periods are used up last: as long as `remaining` covers k full periods or a part of
        // one, that many are left.
        let left = remaining.as_millis().div_ceil(period.as_millis());
        Some(u32::try_from(left).unwrap_or(u32::MAX).min(periods))
    }

    /// Starts the game with `side`'s turn. Its time runs from `now`.
    ///
    /// # Errors
    ///
    /// [`ClockError::NoSuchSide`] for a side out of range; [`ClockError::AlreadyStarted`] if the
    /// clock was started; [`ClockError::Stopped`] if it was stopped before it started. The state
    /// is then unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, ClockError, Millis, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// assert_eq!(clock.start(Millis(0), 2), Err(ClockError::NoSuchSide { side: 2, sides: 2 }));
    /// clock.start(Millis(0), 0).unwrap();
    /// assert_eq!(clock.start(Millis(0), 0), Err(ClockError::AlreadyStarted));
    /// ```
    pub fn start(&mut self, now: Millis, side: usize) -> Result<(), ClockError> {
        self.check_side(side)?;
        match self.phase {
            Phase::NotStarted => {}
            Phase::Stopped { .. } => return Err(ClockError::Stopped),
            _ => return Err(ClockError::AlreadyStarted),
        }
        let now = self.observe(now);
        self.phase = Phase::Running {
            side,
            used: Span::ZERO,
            since: now,
        };
        Ok(())
    }

    /// Ends the current turn (an action was made) and starts `next`'s turn at `now`.
    ///
    /// `next` may be the side that just moved, as in Backgammon where a dice roll and a move are
    /// each an action; every turn gets a fresh per-move limit. The side that moved is settled by
    /// the control: its bank loses the time used, then gets its increment (Fischer), its delay
    /// back (Bronstein), or keeps its byo-yomi period.
    ///
    /// # Errors
    ///
    /// [`ClockError::NoSuchSide`]; [`ClockError::NotStarted`]; [`ClockError::Paused`] (resume
    /// first); [`ClockError::Flagged`] if the side to move ran out of time at or before `now`
    /// (the flag is then recorded and its event queued); [`ClockError::Stopped`]. Otherwise on
    /// error the state is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, ClockError, Millis, Span, TimeControl};
    ///
    /// let control = TimeControl::Fischer { bank: Span::from_secs(60), increment: Span::from_secs(5), cap: None };
    /// let mut clock = Clock::new(control, 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// clock.switch(Millis(20_000), 1).unwrap();
    /// assert_eq!(clock.remaining(0, Millis(20_000)), Some(Span::from_secs(45)));
    /// // Side 1 takes too long: the flag falls first.
    /// assert_eq!(
    ///     clock.switch(Millis(90_000), 0),
    ///     Err(ClockError::Flagged { side: 1, at: Millis(80_000) }),
    /// );
    /// ```
    pub fn switch(&mut self, now: Millis, next: usize) -> Result<(), ClockError> {
        self.check_side(next)?;
        self.check_turn_phase()?;
        let now = self.advance(now);
        let Phase::Running { side, used, since } = self.phase else {
            // advance() only ever leaves Running for Flagged.
            return self.check_turn_phase();
        };
        let used = used.saturating_add(now.saturating_since(since));
        self.history.push(Record {
            side,
            sides: self.sides.clone(),
        });
        self.sides[side] = self.settle(self.sides[side], used);
        self.phase = Phase::Running {
            side: next,
            used: Span::ZERO,
            since: now,
        };
        Ok(())
    }

    /// Pauses the clock: every side's time is frozen until [`resume`](Clock::resume).
    ///
    /// # Errors
    ///
    /// [`ClockError::NotStarted`]; [`ClockError::Paused`] if already paused;
    /// [`ClockError::Flagged`] if the side to move ran out of time at or before `now`;
    /// [`ClockError::Stopped`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, Span, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// clock.pause(Millis(10_000)).unwrap();
    /// assert_eq!(clock.poll_timeout(), None);
    /// assert_eq!(clock.remaining(0, Millis(500_000)), Some(Span::from_secs(20)));
    /// clock.resume(Millis(500_000)).unwrap();
    /// assert_eq!(clock.poll_timeout(), Some(Millis(520_000)));
    /// ```
    pub fn pause(&mut self, now: Millis) -> Result<(), ClockError> {
        self.check_turn_phase()?;
        let now = self.advance(now);
        let Phase::Running { side, used, since } = self.phase else {
            return self.check_turn_phase();
        };
        self.phase = Phase::Paused {
            side,
            used: used.saturating_add(now.saturating_since(since)),
        };
        Ok(())
    }

    /// Resumes a paused clock: the side to move runs again from `now`.
    ///
    /// # Errors
    ///
    /// [`ClockError::NotPaused`] if the clock is running; [`ClockError::NotStarted`];
    /// [`ClockError::Flagged`]; [`ClockError::Stopped`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, ClockError, Millis, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// assert_eq!(clock.resume(Millis(1)), Err(ClockError::NotPaused));
    /// ```
    pub fn resume(&mut self, now: Millis) -> Result<(), ClockError> {
        match self.phase {
            Phase::Paused { side, used } => {
                let now = self.observe(now);
                self.phase = Phase::Running {
                    side,
                    used,
                    since: now,
                };
                Ok(())
            }
            Phase::Running { .. } => Err(ClockError::NotPaused),
            _ => self.check_turn_phase(),
        }
    }

    /// Stops the clock for good: the game is over. The side to move keeps the time it had at
    /// `now` (no increment); stopping does not count as a switch. To be able to undo a
    /// game-ending move, [`switch`](Clock::switch) first and then stop.
    ///
    /// Stopping a clock that was never started, or is already stopped, is fine.
    ///
    /// # Errors
    ///
    /// [`ClockError::Flagged`] if a side ran out of time at or before `now`: the game was lost on
    /// time first (the flag is recorded and its event queued).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, Span, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// clock.stop(Millis(12_000)).unwrap();
    /// assert_eq!(clock.poll_timeout(), None);
    /// assert_eq!(clock.remaining(0, Millis(99_000)), Some(Span::from_secs(18)));
    /// ```
    pub fn stop(&mut self, now: Millis) -> Result<(), ClockError> {
        let now = self.advance(now);
        self.phase = match self.phase {
            Phase::NotStarted => Phase::Stopped {
                side: None,
                used: Span::ZERO,
            },
            Phase::Running { side, used, since } => Phase::Stopped {
                side: Some(side),
                used: used.saturating_add(now.saturating_since(since)),
            },
            Phase::Paused { side, used } => Phase::Stopped {
                side: Some(side),
                used,
            },
            Phase::Flagged { side, at } => return Err(ClockError::Flagged { side, at }),
            stopped @ Phase::Stopped { .. } => stopped,
        };
        Ok(())
    }

    /// Takes back the last `n` switches (one move, or a pair), restoring every side's time to
    /// what it was at the start of the oldest undone turn, as lichess does. The side whose turn
    /// it becomes again runs from `now` (or stays frozen if the clock is paused). Undoing after a
    /// flag or a stop sets the clock going again; a deadline that passed unnoticed before `now`
    /// is taken back with the turn, without a flag. `n == 0` changes nothing.
    ///
    /// # Errors
    ///
    /// [`ClockError::NotEnoughHistory`] if fewer than `n` switches are recorded; the state is
    /// then unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, ClockError, Millis, Span, TimeControl};
    ///
    /// let mut clock = Clock::new(TimeControl::total(Span::from_secs(60)), 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// clock.switch(Millis(10_000), 1).unwrap(); // side 0 used 10 s
    /// clock.switch(Millis(30_000), 0).unwrap(); // side 1 used 20 s
    /// clock.undo(Millis(35_000), 2).unwrap(); // take back both moves
    /// assert_eq!(clock.running_side(), Some(0));
    /// assert_eq!(clock.remaining(0, Millis(35_000)), Some(Span::from_secs(60)));
    /// assert_eq!(clock.remaining(1, Millis(35_000)), Some(Span::from_secs(60)));
    /// assert_eq!(
    ///     clock.undo(Millis(35_000), 1),
    ///     Err(ClockError::NotEnoughHistory { requested: 1, available: 0 }),
    /// );
    /// ```
    pub fn undo(&mut self, now: Millis, n: usize) -> Result<(), ClockError> {
        let available = self.history.len();
        if n > available {
            return Err(ClockError::NotEnoughHistory {
                requested: n,
                available,
            });
        }
        if n == 0 {
            return Ok(());
        }
        // No flag is noticed here: the host takes the turn back, deadline and all.
        let now = self.observe(now);
        let paused = self.is_paused();
        let record = self
            .history
            .drain(available - n..)
            .next()
            .expect("n >= 1 records were drained");
        self.sides = record.sides;
        self.phase = if paused {
            Phase::Paused {
                side: record.side,
                used: Span::ZERO,
            }
        } else {
            Phase::Running {
                side: record.side,
                used: Span::ZERO,
                since: now,
            }
        };
        Ok(())
    }

    /// The next instant at which the side to move flags, if nothing happens before: the host
    /// should call [`handle_timeout`](Clock::handle_timeout) then. `None` when no time is
    /// running (not started, paused, flagged, stopped) or under [`TimeControl::Unlimited`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// assert_eq!(clock.poll_timeout(), None);
    /// clock.start(Millis(1_000), 0).unwrap();
    /// assert_eq!(clock.poll_timeout(), Some(Millis(31_000)));
    /// ```
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Millis> {
        let Phase::Running { side, used, since } = self.phase else {
            return None;
        };
        let budget = self.budget(side)?;
        Some(since.saturating_add(budget.saturating_sub(used)))
    }

    /// Notices the flag of the side to move if its deadline is at or before `now`, queuing a
    /// [`ClockEvent::Flagged`]. Calling it early, late or more than once is harmless.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, ClockEvent, Millis, Span, TimeControl};
    /// let mut clock = Clock::new(TimeControl::per_move(Span::from_secs(2)), 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// clock.handle_timeout(Millis(1_999));
    /// assert_eq!(clock.poll_event(), None);
    /// clock.handle_timeout(Millis(2_000));
    /// clock.handle_timeout(Millis(2_001));
    /// assert_eq!(clock.poll_event(), Some(ClockEvent::Flagged { side: 0, at: Millis(2_000) }));
    /// assert_eq!(clock.poll_event(), None);
    /// ```
    pub fn handle_timeout(&mut self, now: Millis) {
        self.advance(now);
    }

    /// The oldest event not yet drained.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Clock, Millis, TimeControl};
    /// let mut clock = Clock::new(TimeControl::ONLINE, 2);
    /// clock.start(Millis(0), 0).unwrap();
    /// assert_eq!(clock.poll_event(), None);
    /// ```
    pub fn poll_event(&mut self) -> Option<ClockEvent> {
        self.events.pop_front()
    }

    // ---- internals ----

    /// Saturates `now` against the latest instant seen and records it.
    fn observe(&mut self, now: Millis) -> Millis {
        self.last_now = self.last_now.max(now);
        self.last_now
    }

    /// Observes `now` and flags the running side if its deadline has passed.
    fn advance(&mut self, now: Millis) -> Millis {
        let now = self.observe(now);
        if let Some(deadline) = self.poll_timeout() {
            if now >= deadline {
                let side = self
                    .running_side()
                    .expect("a deadline implies a running side");
                self.phase = Phase::Flagged { side, at: deadline };
                self.events
                    .push_back(ClockEvent::Flagged { side, at: deadline });
            }
        }
        now
    }

    fn check_side(&self, side: usize) -> Result<(), ClockError> {
        if side < self.sides.len() {
            Ok(())
        } else {
            Err(ClockError::NoSuchSide {
                side,
                sides: self.sides.len(),
            })
        }
    }

    /// Ok when a turn is running; otherwise the error that says why not.
    fn check_turn_phase(&self) -> Result<(), ClockError> {
        match self.phase {
            Phase::Running { .. } => Ok(()),
            Phase::NotStarted => Err(ClockError::NotStarted),
            Phase::Paused { .. } => Err(ClockError::Paused),
            Phase::Flagged { side, at } => Err(ClockError::Flagged { side, at }),
            Phase::Stopped { .. } => Err(ClockError::Stopped),
        }
    }

    /// The time `side` may use in a turn started from its settled state before it flags.
    fn budget(&self, side: usize) -> Option<Span> {
        let st = self.sides[side];
        match self.control {
            TimeControl::Unlimited => None,
            TimeControl::PerMove { limit } => Some(limit),
            TimeControl::Total { .. } | TimeControl::Fischer { .. } | TimeControl::Delay { .. } => {
                Some(st.bank)
            }
            TimeControl::Combined { per_move, .. } => Some(per_move.min(st.bank)),
            TimeControl::ByoYomi { period, .. } => {
                Some(st.bank + period.saturating_mul(u64::from(st.periods)))
            }
        }
    }

    /// The time `side` has used of its current turn at `now` (zero when it is not its turn);
    /// `None` when it flagged.
    fn turn_used(&self, side: usize, now: Millis) -> Option<Span> {
        let now = now.max(self.last_now);
        Some(match self.phase {
            Phase::Running {
                side: s,
                used,
                since,
            } if s == side => used.saturating_add(now.saturating_since(since)),
            Phase::Paused { side: s, used }
            | Phase::Stopped {
                side: Some(s),
                used,
            } if s == side => used,
            Phase::Flagged { side: s, .. } if s == side => return None,
            _ => Span::ZERO,
        })
    }

    /// A side's time after a turn in which it used `used` (less than its budget).
    fn settle(&self, st: SideTime, used: Span) -> SideTime {
        match self.control {
            TimeControl::Unlimited | TimeControl::PerMove { .. } => st,
            TimeControl::Total { .. } | TimeControl::Combined { .. } => SideTime {
                bank: st.bank - used,
                ..st
            },
            TimeControl::Fischer { increment, cap, .. } => {
                let left = st.bank - used;
                let mut bank = left + increment;
                if let Some(cap) = cap {
                    bank = bank.min(cap.max(left));
                }
                SideTime { bank, ..st }
            }
            TimeControl::Delay { delay, .. } => SideTime {
                bank: st.bank - (used - delay),
                ..st
            },
            TimeControl::ByoYomi { period, .. } => {
                if used <= st.bank {
                    SideTime {
                        bank: st.bank - used,
                        ..st
                    }
                } else {
                    let over = (used - st.bank).as_millis();
                    let spent = if period.is_zero() {
                        u64::from(st.periods)
                    } else {
                        over / period.as_millis()
                    };
                    let spent = u32::try_from(spent).unwrap_or(u32::MAX);
                    SideTime {
                        bank: Span::ZERO,
                        periods: st.periods.saturating_sub(spent),
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> Span {
        Span::from_secs(secs)
    }

    fn settle(control: TimeControl, bank: Span, periods: u32, used: Span) -> (Span, u32) {
        let clock = Clock::new(control, 1);
        let st = clock.settle(SideTime { bank, periods }, used);
        (st.bank, st.periods)
    }

    #[test]
    fn settle_per_control() {
        let fischer = |cap| TimeControl::Fischer {
            bank: s(60),
            increment: s(5),
            cap,
        };
        let delay = TimeControl::Delay {
            bank: s(60),
            delay: s(5),
        };
        let byo = TimeControl::ByoYomi {
            main: s(10),
            periods: 3,
            period: s(5),
        };
        let cases = [
            (TimeControl::total(s(60)), s(60), 0, s(7), (s(53), 0)),
            (
                TimeControl::combined(s(10), s(60)),
                s(60),
                0,
                s(7),
                (s(53), 0),
            ),
            (fischer(None), s(60), 0, s(7), (s(58), 0)),
            (fischer(Some(s(56))), s(60), 0, s(7), (s(56), 0)),
            (fischer(Some(s(50))), s(60), 0, s(7), (s(53), 0)),
            (delay, s(60), 0, s(3), (s(60), 0)),
            (delay, s(60), 0, s(7), (s(58), 0)),
            (byo, s(10), 3, s(10), (s(0), 3)),
            (byo, s(10), 3, s(14), (s(0), 3)),
            (byo, s(10), 3, s(15), (s(0), 2)),
            (byo, s(10), 3, s(24), (s(0), 1)),
            (byo, s(0), 2, s(9), (s(0), 1)),
        ];
        for (control, bank, periods, used, expected) in cases {
            assert_eq!(
                settle(control, bank, periods, used),
                expected,
                "{control:?} bank {bank} periods {periods} used {used}"
            );
        }
    }

    #[test]
    fn budget_per_control() {
        let budget = |control| Clock::new(control, 1).budget(0);
        assert_eq!(budget(TimeControl::Unlimited), None);
        assert_eq!(budget(TimeControl::ONLINE), Some(s(30)));
        assert_eq!(budget(TimeControl::combined(s(30), s(20))), Some(s(20)));
        assert_eq!(
            budget(TimeControl::ByoYomi {
                main: s(10),
                periods: 3,
                period: s(5)
            }),
            Some(s(25))
        );
        // Saturates instead of overflowing.
        assert_eq!(
            budget(TimeControl::ByoYomi {
                main: Span::MAX,
                periods: u32::MAX,
                period: Span::MAX
            }),
            Some(Span::MAX)
        );
    }

    #[test]
    fn deadline_saturates_at_the_end_of_time() {
        let mut clock = Clock::new(TimeControl::total(Span::MAX), 2);
        clock.start(Millis(u64::MAX - 5), 0).unwrap();
        assert_eq!(clock.poll_timeout(), Some(Millis(u64::MAX)));
        assert_eq!(
            clock.remaining(0, Millis(u64::MAX)),
            Some(Span(u64::MAX - 5))
        );
    }
}
