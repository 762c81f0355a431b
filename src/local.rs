//! One local game, whole: against the computer or between two people at one device.
//!
//! [`LocalMatch`] is a state machine in the sans-IO style of the crates, built on the room
//! crate's game-and-clock machine, [`TimedGame`], which a room's games use too: the game record
//! ([`Game`], as a [`ReversiGame`]), the clock ([`Clock`], side 0 black, side 1 white, as the
//! seats of [`seat_of`]), the [`Settings`] and the [`MatchResult`], whose reason is the rooms'
//! [`EndReason`]. Every call that changes it takes `now`, the wall-clock time in [`Millis`];
//! [`LocalMatch::poll_timeout`] says when [`LocalMatch::handle_timeout`] must be called next.
//! A refused call ([`LocalError`]) leaves the match unchanged. With the `serde` feature it saves
//! to JSON ([`LocalMatch::save_json`]) and loads back ([`LocalMatch::load_json`]), checked.
//!
//! ```
//! use reversi::local::{LocalMatch, Opponent, Settings, LocalError};
//! use reversi::ai::{Level, Limits};
//! use reversi::clock::{Millis, Span, TimeControl};
//! use reversi::core::{Color, Square};
//!
//! let settings = Settings::new(Opponent::Computer(Level::Easy), Color::Black,
//!     TimeControl::total(Span::from_mins(5)), 7);
//! let mut m = LocalMatch::new(settings, Millis(0));
//! m.play(Square::F5, Millis(2_000)).unwrap();
//! // The computer is to move: the person must wait.
//! assert_eq!(m.play(Square::F6, Millis(2_500)), Err(LocalError::NotYourTurn));
//! m.computer_move(&Limits::none(), Millis(3_000)).unwrap();
//! // Undo takes back the pair, and the clock with it.
//! assert_eq!(m.undo(Millis(4_000)), Ok(2));
//! assert_eq!(m.remaining(Color::Black, Millis(4_000)), Some(Span::from_mins(5)));
//! ```

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use reversi_ai::{AiError, Engine, Level, Limits};
use reversi_clock::{Clock, Millis, Span, TimeControl};
use reversi_core::{Color, Game, Move, PlayError, Position, Square, Turn};
use reversi_room::{GameResult, TimedGame};

use crate::room_adapters::{color_of, seat_of, ReversiGame};

/// Why a match ended: the rooms' reason. A local match ends by [`EndReason::Board`],
/// [`EndReason::Timeout`] or [`EndReason::Resigned`], the seat being the colour's
/// ([`seat_of`]: black 0, white 1).
pub use reversi_room::EndReason;

/// Who plays against the person at the device.
///
/// # Examples
///
/// ```
/// use reversi::local::Opponent;
/// use reversi::ai::Level;
/// assert_eq!("hard".parse::<Opponent>(), Ok(Opponent::Computer(Level::Hard)));
/// assert_eq!("human".parse::<Opponent>(), Ok(Opponent::Person));
/// assert_eq!(Opponent::Computer(Level::Easy).to_string(), "easy");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Opponent {
    /// A second person at the same device.
    Person,
    /// The computer at a level.
    Computer(Level),
}

impl Opponent {
    /// The computer's level, if the computer plays.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::Opponent;
    /// assert_eq!(Opponent::Person.level(), None);
    /// ```
    #[must_use]
    pub fn level(self) -> Option<Level> {
        match self {
            Opponent::Person => None,
            Opponent::Computer(level) => Some(level),
        }
    }
}

impl fmt::Display for Opponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Opponent::Person => f.write_str("person"),
            Opponent::Computer(level) => write!(f, "{level}"),
        }
    }
}

/// An opponent's name that is not `person`, `human`, `easy`, `normal` or `hard`.
///
/// # Examples
///
/// ```
/// let e = "grandmaster".parse::<reversi::local::Opponent>().unwrap_err();
/// assert!(e.to_string().contains("grandmaster"));
/// ```
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{0:?} is not an opponent (expected person, easy, normal or hard)")]
pub struct OpponentNameError(pub String);

impl std::str::FromStr for Opponent {
    type Err = OpponentNameError;

    /// Reads `person` (or `human`), or a level's name, in any case.
    fn from_str(s: &str) -> Result<Self, OpponentNameError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "person" | "human" => Ok(Opponent::Person),
            other => other
                .parse::<Level>()
                .map(Opponent::Computer)
                .map_err(|_| OpponentNameError(s.to_string())),
        }
    }
}

/// The settings of a local match: chosen before it starts, never changed.
///
/// # Examples
///
/// ```
/// use reversi::local::{Opponent, Settings};
/// use reversi::ai::Level;
/// use reversi::clock::TimeControl;
/// use reversi::core::Color;
/// let s = Settings::new(Opponent::Computer(Level::Normal), Color::White, TimeControl::Unlimited, 1);
/// assert!(s.is_computer(Color::Black));
/// assert!(!s.is_computer(Color::White));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Settings {
    /// Who plays the other colour.
    pub opponent: Opponent,
    /// The colour of the person against the computer (ignored between two people).
    pub human: Color,
    /// The time control of both sides.
    pub time: TimeControl,
    /// The seed of the computer's choices.
    pub seed: u64,
}

impl Settings {
    /// Settings from their parts.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{Opponent, Settings};
    /// use reversi::clock::TimeControl;
    /// use reversi::core::Color;
    /// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 0);
    /// assert_eq!(s.opponent.level(), None);
    /// ```
    #[must_use]
    pub fn new(opponent: Opponent, human: Color, time: TimeControl, seed: u64) -> Settings {
        Settings {
            opponent,
            human,
            time,
            seed,
        }
    }

    /// Whether `color` is played by the computer.
    ///
    /// # Examples
    ///
    /// See [`Settings`].
    #[must_use]
    pub fn is_computer(&self, color: Color) -> bool {
        matches!(self.opponent, Opponent::Computer(_)) && color != self.human
    }
}

/// How and when a match ended.
///
/// # Examples
///
/// ```
/// use reversi::local::{EndReason, MatchResult};
/// use reversi::clock::Millis;
/// use reversi::core::Color;
/// let r = MatchResult::new(Some(Color::White), EndReason::Resigned { seat: 0 }, Millis(5));
/// assert_eq!(r.winner, Some(Color::White));
/// ```
///
/// With the `serde` feature it serialises as it always has in saved matches: the reason as
/// `"board"`, `"timeout"` or `"resignation"` (the seat is the loser's, the winner's opponent),
/// any other reason as the rooms' form (`{"reason": "time_limit"}`); both are read.
///
/// ```
/// use reversi::local::{EndReason, MatchResult};
/// use reversi::clock::Millis;
/// use reversi::core::Color;
/// let r = MatchResult::new(Some(Color::Black), EndReason::Timeout { seat: 1 }, Millis(7));
/// let json = serde_json::to_string(&r).unwrap();
/// assert_eq!(json, r#"{"winner":"black","reason":"timeout","at":7}"#);
/// assert_eq!(serde_json::from_str::<MatchResult>(&json).unwrap(), r);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct MatchResult {
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended: for a local match, [`EndReason::Board`], [`EndReason::Timeout`] or
    /// [`EndReason::Resigned`] (the seat is the losing colour's).
    pub reason: EndReason,
    /// When it ended (wall-clock milliseconds).
    pub at: Millis,
}

impl MatchResult {
    /// A result (for frontends that restore or test results; a match makes its own).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{EndReason, MatchResult};
    /// use reversi::clock::Millis;
    /// let r = MatchResult::new(None, EndReason::Board, Millis(8));
    /// assert_eq!((r.winner, r.at), (None, Millis(8)));
    /// ```
    pub fn new(winner: Option<Color>, reason: EndReason, at: Millis) -> MatchResult {
        MatchResult { winner, reason, at }
    }
}

/// Why a call to a [`LocalMatch`] was refused; the match is unchanged.
///
/// # Examples
///
/// ```
/// use reversi::local::{LocalError, LocalMatch, Opponent, Settings};
/// use reversi::clock::{Millis, TimeControl};
/// use reversi::core::{Color, Square};
/// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 0);
/// let mut m = LocalMatch::new(s, Millis(0));
/// assert!(matches!(m.play(Square::A1, Millis(1)), Err(LocalError::IllegalMove(_))));
/// assert_eq!(m.undo(Millis(1)), Err(LocalError::NothingToUndo));
/// ```
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LocalError {
    /// The match is over.
    #[error("the game is over")]
    GameOver,
    /// A person's move while the computer is to move.
    #[error("it is the computer's turn")]
    NotYourTurn,
    /// The computer was asked to move while it is a person's turn (or there is no computer).
    #[error("it is not the computer's turn")]
    NotComputersTurn,
    /// The rules refuse the move.
    #[error("{0}")]
    IllegalMove(#[source] PlayError),
    /// There is no move to take back.
    #[error("nothing to undo")]
    NothingToUndo,
    /// The engine could not choose a move.
    #[error("the computer could not choose a move: {0}")]
    Engine(#[source] AiError),
}

/// Why a saved match was refused.
///
/// # Examples
///
/// ```
/// use reversi::local::{LoadError, LocalMatch};
/// use reversi::clock::Millis;
/// assert!(matches!(LocalMatch::load_json("{}", Millis(0)), Err(LoadError::Format(_))));
/// assert_eq!(
///     LocalMatch::load_json(r#"{"version":99}"#, Millis(0)).unwrap_err(),
///     LoadError::Version(99),
/// );
/// ```
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// Not the JSON of a saved match.
    #[error("not a saved game: {0}")]
    Format(String),
    /// A version of the saved format this build does not read.
    #[error(
        "a saved game of format version {0}, which this version does not read (it reads 1 and 2)"
    )]
    Version(u64),
    /// The parts do not agree with each other.
    #[error("the saved game is inconsistent: {0}")]
    Inconsistent(String),
}

/// A local match: settings, and the game-and-clock machine (record, clock, result, version).
/// See the [module](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalMatch {
    settings: Settings,
    /// Game number 1; its turn version is the match's state version.
    timed: TimedGame<ReversiGame>,
}

/// The clock side of a colour: its seat, black 0, white 1.
fn side(color: Color) -> usize {
    seat_of(color)
}

fn placements(game: &Game) -> usize {
    game.plies().iter().filter(|p| p.mv != Move::Pass).count()
}

/// A local result from the machine's: a seat's win is its colour's.
fn match_result(r: GameResult) -> MatchResult {
    MatchResult {
        winner: r.outcome.winner().and_then(color_of),
        reason: r.reason,
        at: r.at,
    }
}

/// The machine's result from a local one.
#[cfg(feature = "serde")]
fn game_result(r: MatchResult) -> GameResult {
    let outcome = match r.winner {
        Some(color) => reversi_room::SeatOutcome::Winner(seat_of(color)),
        None => reversi_room::SeatOutcome::Draw,
    };
    GameResult::new(1, outcome, r.reason, r.at)
}

impl LocalMatch {
    /// A new match from the start position; black's clock runs from `now`.
    ///
    /// # Examples
    ///
    /// See the [module](self).
    #[must_use]
    pub fn new(settings: Settings, now: Millis) -> LocalMatch {
        LocalMatch::from_position(settings, Position::initial(), now)
    }

    /// A new match from `start`. A side to move with no move passes at once; a finished
    /// position gives a finished match.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{EndReason, LocalMatch, Opponent, Settings};
    /// use reversi::clock::{Millis, TimeControl};
    /// use reversi::core::{Color, Position};
    /// let full: Position = format!("{} X", "X".repeat(64)).parse().unwrap();
    /// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 0);
    /// let m = LocalMatch::from_position(s, full, Millis(0));
    /// assert_eq!(m.result().unwrap().reason, EndReason::Board);
    /// assert_eq!(m.result().unwrap().winner, Some(Color::Black));
    /// ```
    #[must_use]
    pub fn from_position(settings: Settings, start: Position, now: Millis) -> LocalMatch {
        let game = ReversiGame::from(Game::from_position(start));
        let mut timed = TimedGame::new(1, game, settings.time, now);
        timed.set_turn_version(1);
        LocalMatch { settings, timed }
    }

    /// The core game record.
    fn record(&self) -> &Game {
        self.timed.state().record()
    }

    /// One more change: the state version goes up.
    fn changed(&mut self) {
        let version = self.timed.turn_version() + 1;
        self.timed.set_turn_version(version);
    }

    /// The settings.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{LocalMatch, Opponent, Settings};
    /// use reversi::clock::{Millis, TimeControl};
    /// use reversi::core::Color;
    /// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 0);
    /// assert_eq!(LocalMatch::new(s, Millis(0)).settings(), &s);
    /// ```
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The game record.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{LocalMatch, Opponent, Settings};
    /// use reversi::clock::{Millis, TimeControl};
    /// use reversi::core::{Color, Square};
    /// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 0);
    /// let mut m = LocalMatch::new(s, Millis(0));
    /// m.play(Square::F5, Millis(1)).unwrap();
    /// assert_eq!(m.game().transcript(), "f5");
    /// ```
    #[must_use]
    pub fn game(&self) -> &Game {
        self.record()
    }

    /// The clock: side 0 is black, side 1 white.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{LocalMatch, Opponent, Settings};
    /// use reversi::clock::{Millis, TimeControl};
    /// use reversi::core::Color;
    /// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 0);
    /// assert_eq!(LocalMatch::new(s, Millis(0)).clock().running_side(), Some(0));
    /// ```
    #[must_use]
    pub fn clock(&self) -> &Clock {
        self.timed.clock()
    }

    /// How the match ended, once it has.
    ///
    /// # Examples
    ///
    /// See [`LocalMatch::resign`].
    #[must_use]
    pub fn result(&self) -> Option<MatchResult> {
        self.timed.result().map(match_result)
    }

    /// Whether the match is over.
    ///
    /// # Examples
    ///
    /// See [`LocalMatch::handle_timeout`].
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.timed.is_over()
    }

    /// The state version: 1 for a new match, one more after every change (a move, an undo, a
    /// resignation, a time-out). A client can send it with a command to detect stale views.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{LocalMatch, Opponent, Settings};
    /// use reversi::clock::{Millis, TimeControl};
    /// use reversi::core::{Color, Square};
    /// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 0);
    /// let mut m = LocalMatch::new(s, Millis(0));
    /// assert_eq!(m.version(), 1);
    /// m.play(Square::F5, Millis(1)).unwrap();
    /// assert_eq!(m.version(), 2);
    /// ```
    #[must_use]
    pub fn version(&self) -> u64 {
        self.timed.turn_version()
    }

    /// The side to move, `None` once the match is over.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{LocalMatch, Opponent, Settings};
    /// use reversi::clock::{Millis, TimeControl};
    /// use reversi::core::Color;
    /// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 0);
    /// assert_eq!(LocalMatch::new(s, Millis(0)).to_move(), Some(Color::Black));
    /// ```
    #[must_use]
    pub fn to_move(&self) -> Option<Color> {
        (!self.timed.is_over()).then(|| self.record().position().side_to_move())
    }

    /// Whether the computer is to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{LocalMatch, Opponent, Settings};
    /// use reversi::ai::Level;
    /// use reversi::clock::{Millis, TimeControl};
    /// use reversi::core::Color;
    /// let s = Settings::new(Opponent::Computer(Level::Easy), Color::White, TimeControl::Unlimited, 0);
    /// assert!(LocalMatch::new(s, Millis(0)).computer_to_move());
    /// ```
    #[must_use]
    pub fn computer_to_move(&self) -> bool {
        self.to_move().is_some_and(|c| self.settings.is_computer(c))
    }

    /// Time left for `color` at `now`, `None` without a time limit.
    ///
    /// # Examples
    ///
    /// See the [module](self).
    #[must_use]
    pub fn remaining(&self, color: Color, now: Millis) -> Option<Span> {
        self.timed.clock().remaining(side(color), now)
    }

    /// When [`handle_timeout`](Self::handle_timeout) must be called next, if a flag can fall.
    ///
    /// # Examples
    ///
    /// See [`LocalMatch::handle_timeout`].
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Millis> {
        self.timed.poll_timeout()
    }

    /// Notices a flag that fell at or before `now`: the side to move loses on time. Returns
    /// whether the match changed (it ended). Calling it early or more than once is harmless.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{EndReason, LocalMatch, Opponent, Settings};
    /// use reversi::clock::{Millis, Span, TimeControl};
    /// use reversi::core::Color;
    /// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::per_move(Span::from_secs(15)), 0);
    /// let mut m = LocalMatch::new(s, Millis(0));
    /// assert_eq!(m.poll_timeout(), Some(Millis(15_000)));
    /// assert!(!m.handle_timeout(Millis(14_999)));
    /// assert!(m.handle_timeout(Millis(15_000)));
    /// assert!(m.is_over());
    /// assert_eq!(m.result().unwrap().reason, EndReason::Timeout { seat: 0 });
    /// assert_eq!(m.result().unwrap().winner, Some(Color::White));
    /// ```
    pub fn handle_timeout(&mut self, now: Millis) -> bool {
        let ended = self.timed.handle_timeout(now);
        if ended {
            self.changed();
        }
        ended
    }

    /// Plays a person's move at `square` for the side to move at `now`, switching the clock.
    /// A flag that fell by `now` ends the match first (see
    /// [`handle_timeout`](Self::handle_timeout)) and the move is refused.
    ///
    /// # Errors
    ///
    /// [`LocalError::GameOver`], [`LocalError::NotYourTurn`] (the computer is to move),
    /// [`LocalError::IllegalMove`]; the match is then unchanged (but for a time-out).
    ///
    /// # Examples
    ///
    /// See the [module](self).
    pub fn play(&mut self, square: Square, now: Millis) -> Result<Turn, LocalError> {
        self.handle_timeout(now);
        if self.computer_to_move() {
            return Err(LocalError::NotYourTurn);
        }
        self.place(square, now)
    }

    /// Plays the computer's move at `square` (chosen by [`think`](Self::think) or by an engine
    /// from [`computer_engine`](Self::computer_engine), maybe on another thread) at `now`.
    ///
    /// # Errors
    ///
    /// [`LocalError::GameOver`], [`LocalError::NotComputersTurn`],
    /// [`LocalError::IllegalMove`]; the match is then unchanged (but for a time-out).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{LocalError, LocalMatch, Opponent, Settings};
    /// use reversi::ai::{Level, Limits};
    /// use reversi::clock::{Millis, TimeControl};
    /// use reversi::core::{Color, Square};
    /// let s = Settings::new(Opponent::Computer(Level::Normal), Color::White, TimeControl::Unlimited, 3);
    /// let mut m = LocalMatch::new(s, Millis(0));
    /// let square = m.think(&Limits::none()).unwrap();
    /// m.play_computer(square, Millis(100)).unwrap();
    /// assert_eq!(m.play_computer(Square::F6, Millis(200)), Err(LocalError::NotComputersTurn));
    /// ```
    pub fn play_computer(&mut self, square: Square, now: Millis) -> Result<Turn, LocalError> {
        self.handle_timeout(now);
        if self.is_over() {
            return Err(LocalError::GameOver);
        }
        if !self.computer_to_move() {
            return Err(LocalError::NotComputersTurn);
        }
        self.place(square, now)
    }

    /// The side to move's move at `now`, through the machine (which switches the clock and
    /// ends the game by the board); the caller noticed the time-outs up to `now` first.
    fn place(&mut self, square: Square, now: Millis) -> Result<Turn, LocalError> {
        let Some(color) = self.to_move() else {
            return Err(LocalError::GameOver);
        };
        // The core says what the move does (flips, pass, outcome), or why it is illegal; the
        // machine then plays it, which the rules accept as the core did.
        let turn = self
            .record()
            .clone()
            .play(square)
            .map_err(LocalError::IllegalMove)?;
        self.timed
            .act(now, seat_of(color), &square)
            .map_err(|_| LocalError::GameOver)?;
        self.changed();
        Ok(turn)
    }

    /// The seed of the computer's engine for the current turn: the settings' seed mixed with
    /// the number of plies, so that each move draws afresh and a saved game goes on the same way.
    fn turn_seed(&self) -> u64 {
        self.settings.seed ^ (self.record().plies().len() as u64)
    }

    /// The computer's engine for this turn (seeded from the settings) and the position to think
    /// about, when the computer is to move: for callers that search on a thread of their own and
    /// then call [`play_computer`](Self::play_computer).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{LocalMatch, Opponent, Settings};
    /// use reversi::ai::{Level, Limits};
    /// use reversi::clock::{Millis, TimeControl};
    /// use reversi::core::Color;
    /// use std::sync::atomic::AtomicBool;
    /// let s = Settings::new(Opponent::Computer(Level::Easy), Color::White, TimeControl::Unlimited, 3);
    /// let mut m = LocalMatch::new(s, Millis(0));
    /// let (mut engine, pos) = m.computer_engine().unwrap();
    /// let r = engine.choose(&pos, &Limits::none(), &AtomicBool::new(false)).unwrap();
    /// m.play_computer(r.best_move.square().unwrap(), Millis(10)).unwrap();
    /// assert!(m.computer_engine().is_none());
    /// ```
    #[must_use]
    pub fn computer_engine(&self) -> Option<(Box<dyn Engine>, Position)> {
        if !self.computer_to_move() {
            return None;
        }
        let level = self.settings.opponent.level()?;
        Some((level.engine(self.turn_seed()), *self.record().position()))
    }

    /// The computer's choice for this turn within `limits` (which may carry a time source), not
    /// yet played. The search runs on the caller's thread.
    ///
    /// # Errors
    ///
    /// [`LocalError::GameOver`], [`LocalError::NotComputersTurn`], [`LocalError::Engine`].
    ///
    /// # Examples
    ///
    /// See [`LocalMatch::play_computer`].
    pub fn think(&self, limits: &Limits) -> Result<Square, LocalError> {
        if self.is_over() {
            return Err(LocalError::GameOver);
        }
        let (mut engine, pos) = self.computer_engine().ok_or(LocalError::NotComputersTurn)?;
        let r = engine
            .choose(&pos, limits, &AtomicBool::new(false))
            .map_err(LocalError::Engine)?;
        r.best_move
            .square()
            .ok_or(LocalError::Engine(AiError::GameOver))
    }

    /// Chooses the computer's move within `limits` ([`think`](Self::think)) and plays it at
    /// `now` ([`play_computer`](Self::play_computer)).
    ///
    /// # Errors
    ///
    /// As [`think`](Self::think) and [`play_computer`](Self::play_computer); the match is then
    /// unchanged.
    ///
    /// # Examples
    ///
    /// See the [module](self).
    pub fn computer_move(&mut self, limits: &Limits, now: Millis) -> Result<Turn, LocalError> {
        self.handle_timeout(now);
        let square = self.think(limits)?;
        self.play_computer(square, now)
    }

    /// How long the computer may think at `now` without losing on time; `None` without a time
    /// limit or when it is not the computer's turn. The caller adds it to the search's
    /// [`Limits`].
    ///
    /// What a move gets on its own is used, a bank is shared out over the computer's moves left
    /// (half the empty squares), and a quarter of a second (or a quarter of the time to the flag,
    /// if less) is kept back ([`reversi_ai::time::think_time`], which the NBoard engine uses
    /// too):
    /// - per move: the limit;
    /// - total: the bank's share;
    /// - per move and total: the bank's share, within the move's limit;
    /// - Fischer increment and simple delay: the bank's share, plus three quarters of the
    ///   increment or the delay (which come back after the move);
    /// - byo-yomi: the main time's share, plus three quarters of a period (a move made within a
    ///   period keeps it).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{LocalMatch, Opponent, Settings};
    /// use reversi::ai::Level;
    /// use reversi::clock::{Millis, Span, TimeControl};
    /// use reversi::core::Color;
    /// let s = Settings::new(Opponent::Computer(Level::Hard), Color::White,
    ///     TimeControl::per_move(Span::from_secs(15)), 0);
    /// let m = LocalMatch::new(s, Millis(0));
    /// assert_eq!(m.think_budget(Millis(0)), Some(std::time::Duration::from_millis(14_750)));
    /// ```
    #[must_use]
    pub fn think_budget(&self, now: Millis) -> Option<Duration> {
        if !self.computer_to_move() {
            return None;
        }
        let color = self.record().position().side_to_move();
        let left = Duration::from(self.remaining(color, now)?);
        let empties = self.record().position().empty().count();
        let bank = self
            .timed
            .clock()
            .bank(side(color), now)
            .map_or(Duration::ZERO, Duration::from);
        let (bank, returned) = match self.settings.time {
            TimeControl::PerMove { .. } => (None, Duration::ZERO),
            TimeControl::Fischer {
                increment: free, ..
            }
            | TimeControl::Delay { delay: free, .. }
            | TimeControl::ByoYomi { period: free, .. } => (Some(bank), Duration::from(free)),
            _ => (Some(bank), Duration::ZERO),
        };
        Some(reversi_ai::time::think_time(left, bank, returned, empties))
    }

    fn undone_game(&self) -> Result<Game, LocalError> {
        if self.is_over() {
            return Err(LocalError::GameOver);
        }
        let mut game = self.record().clone();
        match self.settings.opponent {
            Opponent::Computer(_) => game.undo_turn(self.settings.human).map(|_| ()),
            Opponent::Person => game.undo(),
        }
        .map_err(|_| LocalError::NothingToUndo)?;
        Ok(game)
    }

    /// Whether [`undo`](Self::undo) would be accepted now.
    ///
    /// # Examples
    ///
    /// See [`LocalMatch::undo`].
    #[must_use]
    pub fn can_undo(&self) -> bool {
        self.undone_game().is_ok()
    }

    /// Takes back moves at `now`: against the computer, the person's last move with the
    /// computer's reply (a pair), back to the person's turn; between people, the last move. The
    /// clock goes back to what it was before the undone moves, the side to move running from
    /// `now`. Returns the number of placements taken back.
    ///
    /// # Errors
    ///
    /// [`LocalError::GameOver`], [`LocalError::NothingToUndo`]; the match is then unchanged
    /// (but for a time-out).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{LocalMatch, Opponent, Settings};
    /// use reversi::clock::{Millis, Span, TimeControl};
    /// use reversi::core::{Color, Square};
    /// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::total(Span::from_secs(60)), 0);
    /// let mut m = LocalMatch::new(s, Millis(0));
    /// assert!(!m.can_undo());
    /// m.play(Square::F5, Millis(5_000)).unwrap();
    /// m.play(Square::F6, Millis(9_000)).unwrap();
    /// assert_eq!(m.undo(Millis(12_000)), Ok(1));
    /// assert_eq!(m.game().transcript(), "f5");
    /// assert_eq!(m.remaining(Color::White, Millis(12_000)), Some(Span::from_secs(60)));
    /// assert_eq!(m.remaining(Color::Black, Millis(12_000)), Some(Span::from_secs(55)));
    /// ```
    pub fn undo(&mut self, now: Millis) -> Result<usize, LocalError> {
        self.handle_timeout(now);
        let game = self.undone_game()?;
        // One clock switch per placement: passes are not the clock's turns.
        let undone = placements(self.record()) - placements(&game);
        self.timed
            .undo(now, ReversiGame::from(game), undone)
            .map_err(|_| LocalError::NothingToUndo)?;
        self.changed();
        Ok(undone)
    }

    /// Resigns at `now`: against the computer, the person; between people, the side to move.
    ///
    /// # Errors
    ///
    /// [`LocalError::GameOver`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::local::{EndReason, LocalMatch, Opponent, Settings, LocalError};
    /// use reversi::clock::{Millis, TimeControl};
    /// use reversi::core::Color;
    /// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 0);
    /// let mut m = LocalMatch::new(s, Millis(0));
    /// m.resign(Millis(10)).unwrap();
    /// let r = m.result().unwrap();
    /// assert_eq!((r.winner, r.reason, r.at), (Some(Color::White), EndReason::Resigned { seat: 0 }, Millis(10)));
    /// assert_eq!(m.resign(Millis(11)), Err(LocalError::GameOver));
    /// ```
    pub fn resign(&mut self, now: Millis) -> Result<(), LocalError> {
        self.handle_timeout(now);
        if self.is_over() {
            return Err(LocalError::GameOver);
        }
        let loser = match self.settings.opponent {
            Opponent::Computer(_) => self.settings.human,
            Opponent::Person => self.record().position().side_to_move(),
        };
        self.timed
            .resign(now, seat_of(loser))
            .map_err(|_| LocalError::GameOver)?;
        self.changed();
        Ok(())
    }
}

#[cfg(feature = "serde")]
mod saved {
    use super::*;
    use serde::{Deserialize, Serialize};

    /// The current version of the saved format.
    pub const SAVE_VERSION: u64 = 2;

    /// [`Opponent`] in a saved match: `"person"` (also read: `"human"`) or
    /// `{"computer": "<level>"}`.
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum OpponentData {
        #[serde(alias = "human")]
        Person,
        Computer(String),
    }

    impl Serialize for Opponent {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                Opponent::Person => OpponentData::Person,
                Opponent::Computer(level) => OpponentData::Computer(level.to_string()),
            }
            .serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for Opponent {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            match OpponentData::deserialize(d)? {
                OpponentData::Person => Ok(Opponent::Person),
                OpponentData::Computer(name) => name
                    .parse::<Level>()
                    .map(Opponent::Computer)
                    .map_err(serde::de::Error::custom),
            }
        }
    }

    /// [`Settings`] in a saved match.
    #[derive(Serialize, Deserialize)]
    pub(super) struct SettingsData {
        opponent: Opponent,
        human: Color,
        time: TimeControl,
        seed: u64,
    }

    impl Serialize for Settings {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            SettingsData {
                opponent: self.opponent,
                human: self.human,
                time: self.time,
                seed: self.seed,
            }
            .serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for Settings {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let s = SettingsData::deserialize(d)?;
            Ok(Settings::new(s.opponent, s.human, s.time, s.seed))
        }
    }

    /// A reason as saved matches have always written it: one of the three names of the
    /// facade's former `EndReason` (the seat is the loser's, the winner's opponent), or the
    /// rooms' form for any other.
    #[derive(Serialize)]
    #[serde(untagged)]
    enum ReasonOut {
        Name(&'static str),
        Room(EndReason),
    }

    /// [`MatchResult`] as saved.
    #[derive(Serialize)]
    struct MatchResultOut {
        winner: Option<Color>,
        reason: ReasonOut,
        at: Millis,
    }

    /// A reason as read: a name, or the rooms' form (`{"reason": "timeout", "seat": 1}`), read
    /// by hand rather than through an untagged enum, whose buffering the WebAssembly module
    /// would carry for nothing.
    enum ReasonIn {
        Name(String),
        Room { tag: String, seat: Option<usize> },
    }

    impl<'de> Deserialize<'de> for ReasonIn {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Reason;
            impl<'de> serde::de::Visitor<'de> for Reason {
                type Value = ReasonIn;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a reason: a name or a map with `reason` and `seat`")
                }
                fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ReasonIn, E> {
                    Ok(ReasonIn::Name(v.to_owned()))
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> Result<ReasonIn, A::Error> {
                    use serde::de::Error;
                    let (mut tag, mut seat) = (None, None);
                    while let Some(key) = map.next_key::<String>()? {
                        match key.as_str() {
                            "reason" => tag = Some(map.next_value::<String>()?),
                            "seat" => seat = Some(map.next_value::<usize>()?),
                            other => {
                                return Err(A::Error::unknown_field(other, &["reason", "seat"]))
                            }
                        }
                    }
                    let tag = tag.ok_or_else(|| A::Error::missing_field("reason"))?;
                    Ok(ReasonIn::Room { tag, seat })
                }
            }
            d.deserialize_any(Reason)
        }
    }

    /// [`MatchResult`] as read.
    #[derive(Deserialize)]
    struct MatchResultIn {
        winner: Option<Color>,
        reason: ReasonIn,
        at: Millis,
    }

    impl Serialize for MatchResult {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let loser = self.winner.map(|w| seat_of(!w));
            let reason = match self.reason {
                EndReason::Board => ReasonOut::Name("board"),
                EndReason::Timeout { seat } if Some(seat) == loser => ReasonOut::Name("timeout"),
                EndReason::Resigned { seat } if Some(seat) == loser => {
                    ReasonOut::Name("resignation")
                }
                other => ReasonOut::Room(other),
            };
            MatchResultOut {
                winner: self.winner,
                reason,
                at: self.at,
            }
            .serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for MatchResult {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            use serde::de::Error;
            let data = MatchResultIn::deserialize(d)?;
            let loser = || {
                data.winner
                    .map(|w| seat_of(!w))
                    .ok_or_else(|| D::Error::custom("a time-out or resignation needs a winner"))
            };
            let reason = match &data.reason {
                ReasonIn::Name(name) => match name.as_str() {
                    "board" => EndReason::Board,
                    "timeout" => EndReason::Timeout { seat: loser()? },
                    "resignation" => EndReason::Resigned { seat: loser()? },
                    _ => {
                        return Err(D::Error::custom(
                            "a reason is board, timeout or resignation",
                        ))
                    }
                },
                ReasonIn::Room { tag, seat } => {
                    EndReason::from_parts(tag, *seat).map_err(D::Error::custom)?
                }
            };
            Ok(MatchResult::new(data.winner, reason, data.at))
        }
    }

    /// The saved form: version 2 has every field; version 1 (the terminal game's saves before
    /// the facade's machine) lacks `result` and `state_version`.
    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct SavedMatch {
        version: u64,
        settings: Settings,
        game: Game,
        clock: Clock,
        #[serde(default)]
        result: Option<MatchResult>,
        #[serde(default = "one")]
        state_version: u64,
    }

    fn one() -> u64 {
        1
    }

    impl LocalMatch {
        /// The match as JSON: a versioned record (`"version": 2`) of the settings, the moves, the
        /// clock (timestamps in wall-clock milliseconds, so time away counts when loaded), the
        /// result and the state version. `pretty` indents it.
        ///
        /// # Examples
        ///
        /// ```
        /// use reversi::local::{LocalMatch, Opponent, Settings};
        /// use reversi::ai::Level;
        /// use reversi::clock::{Millis, TimeControl};
        /// use reversi::core::{Color, Square};
        /// let s = Settings::new(Opponent::Computer(Level::Hard), Color::Black, TimeControl::Unlimited, 9);
        /// let mut m = LocalMatch::new(s, Millis(0));
        /// m.play(Square::F5, Millis(1)).unwrap();
        /// let json = m.save_json(false);
        /// assert!(json.contains(r#""version":2"#) && json.contains(r#""computer":"hard""#));
        /// assert_eq!(LocalMatch::load_json(&json, Millis(1)).unwrap(), m);
        /// ```
        #[must_use]
        pub fn save_json(&self, pretty: bool) -> String {
            let saved = self.saved();
            if pretty {
                serde_json::to_string_pretty(&saved)
            } else {
                serde_json::to_string(&saved)
            }
            .expect("a match serialises")
        }

        /// The match as a JSON value (see [`save_json`](Self::save_json)).
        ///
        /// # Examples
        ///
        /// ```
        /// use reversi::local::{LocalMatch, Opponent, Settings};
        /// use reversi::clock::{Millis, TimeControl};
        /// use reversi::core::Color;
        /// let s = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 0);
        /// let m = LocalMatch::new(s, Millis(0));
        /// assert_eq!(LocalMatch::load_value(m.save_value(), Millis(0)).unwrap(), m);
        /// ```
        #[must_use]
        pub fn save_value(&self) -> serde_json::Value {
            serde_json::to_value(self.saved()).expect("a match serialises")
        }

        fn saved(&self) -> SavedMatch {
            SavedMatch {
                version: SAVE_VERSION,
                settings: self.settings,
                game: self.record().clone(),
                clock: self.clock().clone(),
                result: self.result(),
                state_version: self.version(),
            }
        }

        /// Loads a match saved by [`save_json`](Self::save_json) (or by the terminal game's
        /// version-1 saves) and continues it at `now`: a flag that fell while away ends it on
        /// time.
        ///
        /// # Errors
        ///
        /// [`LoadError::Format`] when it is not a saved match, [`LoadError::Version`] for an
        /// unknown format version, [`LoadError::Inconsistent`] when the record, the clock and the
        /// result disagree.
        ///
        /// # Examples
        ///
        /// See [`save_json`](Self::save_json) and [`LoadError`].
        pub fn load_json(text: &str, now: Millis) -> Result<LocalMatch, LoadError> {
            let value: serde_json::Value =
                serde_json::from_str(text).map_err(|e| LoadError::Format(e.to_string()))?;
            LocalMatch::load_value(value, now)
        }

        /// Loads a match from a JSON value (see [`load_json`](Self::load_json)).
        ///
        /// # Errors
        ///
        /// As [`load_json`](Self::load_json).
        ///
        /// # Examples
        ///
        /// See [`save_value`](Self::save_value).
        pub fn load_value(value: serde_json::Value, now: Millis) -> Result<LocalMatch, LoadError> {
            // Read by hand: a second deserializer type would double the code of the module.
            let version = value
                .get("version")
                .and_then(serde_json::Value::as_u64)
                .ok_or_else(|| LoadError::Format("no numeric `version` field".to_string()))?;
            if version != 1 && version != SAVE_VERSION {
                return Err(LoadError::Version(version));
            }
            let saved =
                SavedMatch::deserialize(value).map_err(|e| LoadError::Format(e.to_string()))?;
            let bad = |what: &str| Err(LoadError::Inconsistent(what.to_string()));
            if saved.clock.sides() != 2 {
                return bad("the clock does not have two sides");
            }
            if saved.clock.control() != saved.settings.time {
                return bad("the clock's time control is not the settings'");
            }
            if saved.clock.switches() != placements(&saved.game) {
                return bad("the clock's moves do not match the record's");
            }
            let to_move = saved.game.position().side_to_move();
            let mut result = saved.result;
            if version == 1 && result.is_none() {
                // The terminal game's old saves: a finished game was not kept, but be lenient.
                if let Some(outcome) = saved.game.outcome() {
                    result = Some(MatchResult {
                        winner: outcome.winner(),
                        reason: EndReason::Board,
                        at: saved.clock.last_seen(),
                    });
                }
            }
            match result {
                None => {
                    if saved.game.is_over() {
                        return bad("the game is over but has no result");
                    }
                    let running = saved.clock.running_side().or(saved.clock.side_to_move());
                    let flagged = saved.clock.flagged().map(|(s, _)| s);
                    if running != Some(side(to_move)) && flagged != Some(side(to_move)) {
                        return bad("the clock runs for the side not to move");
                    }
                }
                Some(r) => {
                    match r.reason {
                        EndReason::Board => {
                            let outcome = saved.game.outcome();
                            if outcome.map(|o| o.winner()) != Some(r.winner) {
                                return bad("the result does not match the final position");
                            }
                        }
                        EndReason::Timeout { seat } | EndReason::Resigned { seat } => {
                            let loser = r.winner.map(|w| seat_of(!w));
                            if loser != Some(seat) || saved.game.is_over() {
                                return bad("a time-out or resignation needs a winner and a game in progress");
                            }
                        }
                        other => {
                            return bad(&format!("a local match does not end by {other}"));
                        }
                    }
                }
            }
            if saved.state_version == 0 {
                return bad("the state version is 0");
            }
            let timed = TimedGame::from_parts(
                1,
                ReversiGame::from(saved.game),
                saved.clock,
                saved.state_version,
                result.map(game_result),
            )
            .map_err(|_| {
                LoadError::Inconsistent("the clock does not have two sides".to_string())
            })?;
            let mut m = LocalMatch {
                settings: saved.settings,
                timed,
            };
            m.handle_timeout(now);
            Ok(m)
        }
    }
}
