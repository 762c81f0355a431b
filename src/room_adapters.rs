//! Reversi in the game-agnostic rooms: [`ReversiGame`] implements the room's [`TurnGame`] trait with
//! the rules of `reversi-core`, and [`EngineBot`] implements its [`Bot`] trait with the engines
//! of `reversi-ai`.
//!
//! Seat 0 plays black (and moves first), seat 1 plays white. An action is the [`Square`] where
//! the disc goes: passes are automatic, so the seat named by [`TurnGame::to_act`] always has a move.
//!
//! # Examples
//!
//! A person (seat 0) plays the Easy bot in a hosted room to the end:
//!
//! ```
//! use reversi::clock::{Millis, Span};
//! use reversi::room::{Bot, EndReason, PlayerId, Room, RoomActionLimit, RoomCommand, RoomSettings};
//! use reversi::room_adapters::{EngineBot, ReversiGame};
//!
//! let host = PlayerId(1);
//! let mut room = Room::hosted(Millis(0), host, RoomSettings::hosted(RoomActionLimit::Secs30), ReversiGame::new());
//! room.handle(Millis(0), host, RoomCommand::Sit { seat: 0 })?;
//! room.handle(Millis(0), host, RoomCommand::AddBot { seat: 1, level: "easy".into() })?;
//! room.handle(Millis(0), host, RoomCommand::Start)?;
//!
//! let mut bot = EngineBot::for_level("easy", 1).unwrap();
//! let mut person = EngineBot::for_level("easy", 2).unwrap(); // stands in for the person's clicks
//! let mut now = Millis(0);
//! while room.in_game() {
//!     now = now + Span::from_secs(2);
//!     let answer_for = |b: &mut EngineBot<_>, room: &Room<ReversiGame>| b.choose(room.game().unwrap()).unwrap();
//!     if let Some(turn) = room.bot_to_act() {
//!         let square = answer_for(&mut bot, &room);
//!         room.bot_act(now, turn.seat, turn.version, square)?;
//!     } else {
//!         let square = answer_for(&mut person, &room);
//!         let version = room.version();
//!         room.handle(now, host, RoomCommand::Act { seat: 0, version, action: square })?;
//!     }
//! }
//! assert_eq!(room.result().unwrap().reason, EndReason::Board);
//! # Ok::<(), reversi::room::RoomError>(())
//! ```

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use reversi_ai::{Engine, Limits};
use reversi_clock::Millis;
use reversi_core::{Color, Square};
use reversi_room::{Bot, Lobby, PlayerId, Room, RoomSettings, SeatOutcome, TurnGame};
#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The game kind under which [`reversi_lobby`] registers Reversi.
///
/// # Examples
///
/// ```
/// assert_eq!(reversi::room_adapters::REVERSI, "reversi");
/// ```
pub const REVERSI: &str = "reversi";

/// The seat of a colour: black 0, white 1.
///
/// # Examples
///
/// ```
/// use reversi::core::Color;
/// use reversi::room_adapters::{color_of, seat_of};
/// assert_eq!(seat_of(Color::Black), 0);
/// assert_eq!(color_of(1), Some(Color::White));
/// assert_eq!(color_of(2), None);
/// ```
#[must_use]
pub const fn seat_of(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The colour of a seat, if the seat exists.
///
/// # Examples
///
/// See [`seat_of`].
#[must_use]
pub const fn color_of(seat: usize) -> Option<Color> {
    match seat {
        0 => Some(Color::Black),
        1 => Some(Color::White),
        _ => None,
    }
}

/// Why a Reversi action was refused in a room.
///
/// # Examples
///
/// ```
/// use reversi::core::Square;
/// use reversi::room::TurnGame;
/// use reversi::room_adapters::{ReversiActionError, ReversiGame};
///
/// let mut game = ReversiGame::new();
/// assert_eq!(game.apply(1, &Square::D3), Err(ReversiActionError::NotYourTurn { seat: 1 }));
/// let err = game.apply(0, &Square::A1).unwrap_err();
/// assert_eq!(err.to_string(), "a1 flips no disc, so it is not a legal move");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReversiActionError {
    /// The seat is not the side to move (or does not exist, or the game is over).
    NotYourTurn {
        /// The seat that tried to act.
        seat: usize,
    },
    /// The rules refused the move.
    Illegal(reversi_core::PlayError),
}

impl fmt::Display for ReversiActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReversiActionError::NotYourTurn { seat } => write!(f, "seat {seat} is not to move"),
            ReversiActionError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReversiActionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReversiActionError::Illegal(e) => Some(e),
            ReversiActionError::NotYourTurn { .. } => None,
        }
    }
}

/// A Reversi game record as a room [`TurnGame`]: two seats, automatic passes, the disc count at a
/// game-length limit. It serialises as the core's game record (start position and moves, checked
/// again when read).
///
/// # Examples
///
/// ```
/// use reversi::core::Square;
/// use reversi::room::{TurnGame, SeatOutcome};
/// use reversi::room_adapters::ReversiGame;
///
/// let mut game = ReversiGame::new();
/// assert_eq!((game.seats(), game.to_act()), (2, Some(0)));
/// game.apply(0, &Square::D3).unwrap();
/// assert_eq!(game.to_act(), Some(1));
/// assert_eq!(game.adjudicate(), SeatOutcome::Winner(0)); // 4 discs to 1
/// assert_eq!(game.record().transcript(), "d3");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReversiGame(reversi_core::Game);

impl ReversiGame {
    /// A game from the standard start.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::room_adapters::ReversiGame;
    /// assert!(ReversiGame::new().record().plies().is_empty());
    /// ```
    #[must_use]
    pub fn new() -> ReversiGame {
        ReversiGame(reversi_core::Game::new())
    }

    /// The game record: position, plies (passes included), transcript.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::core::Position;
    /// use reversi::room_adapters::ReversiGame;
    /// assert_eq!(*ReversiGame::new().record().position(), Position::initial());
    /// ```
    #[must_use]
    pub fn record(&self) -> &reversi_core::Game {
        &self.0
    }
}

impl From<reversi_core::Game> for ReversiGame {
    /// A room game from a record (a prepared position, a game in progress).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::room::TurnGame;
    /// use reversi::room_adapters::ReversiGame;
    /// let game = ReversiGame::from(reversi::core::Game::from_transcript("f5d6").unwrap());
    /// assert_eq!(game.to_act(), Some(0));
    /// ```
    fn from(game: reversi_core::Game) -> ReversiGame {
        ReversiGame(game)
    }
}

#[cfg(feature = "serde")]
impl Serialize for ReversiGame {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for ReversiGame {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ReversiGame, D::Error> {
        reversi_core::Game::deserialize(d).map(ReversiGame)
    }
}

fn outcome(o: reversi_core::Outcome) -> SeatOutcome {
    match o {
        reversi_core::Outcome::Win(color) => SeatOutcome::Winner(seat_of(color)),
        reversi_core::Outcome::Draw => SeatOutcome::Draw,
    }
}

impl TurnGame for ReversiGame {
    type Action = Square;
    type Error = ReversiActionError;

    fn seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> Option<usize> {
        (!self.0.is_over()).then(|| seat_of(self.0.position().side_to_move()))
    }

    fn apply(&mut self, seat: usize, square: &Square) -> Result<(), ReversiActionError> {
        if self.to_act() != Some(seat) {
            return Err(ReversiActionError::NotYourTurn { seat });
        }
        self.0
            .play(*square)
            .map(drop)
            .map_err(ReversiActionError::Illegal)
    }

    fn outcome(&self) -> Option<SeatOutcome> {
        self.0.outcome().map(outcome)
    }

    fn adjudicate(&self) -> SeatOutcome {
        outcome(self.0.position().outcome_by_count())
    }
}

/// A `reversi-ai` engine as a room [`Bot`]. The room never calls it: the application does, off
/// its async runtime or UI thread, when [`Room::bot_to_act`] says so, and submits the square with
/// [`Room::bot_act`].
///
/// # Examples
///
/// ```
/// use reversi::room::Bot;
/// use reversi::room_adapters::{EngineBot, ReversiGame};
///
/// let mut bot = EngineBot::for_level("normal", 0).unwrap();
/// let square = bot.choose(&ReversiGame::new()).unwrap();
/// assert!(reversi::core::Position::initial().play(square.into()).is_ok());
/// ```
pub struct EngineBot<E> {
    engine: E,
    limits: Limits,
    stop: Arc<AtomicBool>,
}

impl<E: Engine> fmt::Debug for EngineBot<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EngineBot")
            .field("engine", &self.engine.name())
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl<E: Engine> EngineBot<E> {
    /// A bot that searches within `limits` (and the engine's own).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::ai::{Easy, Limits};
    /// use reversi::room_adapters::EngineBot;
    /// let bot = EngineBot::new(Easy::new(3), Limits::NONE);
    /// assert_eq!(bot.name(), "easy");
    /// ```
    pub fn new(engine: E, limits: Limits) -> EngineBot<E> {
        EngineBot {
            engine,
            limits,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The engine's name.
    ///
    /// # Examples
    ///
    /// See [`EngineBot::new`].
    pub fn name(&self) -> String {
        self.engine.name()
    }

    /// A flag that stops a search in progress early (it still returns a legal move), for an
    /// application that pauses or shuts down while the bot thinks. It stays set until cleared.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::atomic::Ordering;
    /// use reversi::room::Bot;
    /// use reversi::room_adapters::{EngineBot, ReversiGame};
    /// let mut bot = EngineBot::for_level("hard", 0).unwrap();
    /// bot.stop_flag().store(true, Ordering::Relaxed);
    /// assert!(bot.choose(&ReversiGame::new()).is_some()); // returns at once, with a legal move
    /// ```
    #[must_use]
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }
}

impl EngineBot<Box<dyn Engine>> {
    /// The bot for a room's bot level (`"easy"`, `"normal"`, `"hard"`, or any name that
    /// [`reversi_ai::engine_from_name`] knows); `seed` drives its randomness.
    ///
    /// # Errors
    ///
    /// The engine's error for an unknown name.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi::room_adapters::EngineBot;
    /// assert_eq!(EngineBot::for_level("easy", 1).unwrap().name(), "easy");
    /// assert!(EngineBot::for_level("grandmaster", 1).is_err());
    /// ```
    pub fn for_level(level: &str, seed: u64) -> Result<Self, reversi_ai::AiError> {
        Ok(EngineBot::new(
            reversi_ai::engine_from_name(level, seed)?,
            Limits::NONE,
        ))
    }
}

impl<E: Engine> Bot<ReversiGame> for EngineBot<E> {
    fn choose(&mut self, game: &ReversiGame) -> Option<Square> {
        game.to_act()?;
        let result = self
            .engine
            .choose(game.record().position(), &self.limits, &self.stop)
            .ok()?;
        result.best_move.square()
    }
}

/// A hosted Reversi room with the given time per action (see [`Room::hosted`]).
///
/// # Examples
///
/// ```
/// use reversi::clock::Millis;
/// use reversi::room::RoomActionLimit;
/// use reversi::room::PlayerId;
/// let room = reversi::room_adapters::hosted_room(Millis(0), PlayerId(1), RoomActionLimit::Secs60);
/// assert_eq!(room.seats().len(), 2);
/// ```
#[must_use]
pub fn hosted_room(
    now: Millis,
    host: PlayerId,
    limit: reversi_room::RoomActionLimit,
) -> Room<ReversiGame> {
    Room::hosted(now, host, RoomSettings::hosted(limit), ReversiGame::new())
}

/// The online lobby for Reversi: one game kind, [`REVERSI`], from the standard start; `seed`
/// seeds its generator of tokens, invite codes and colours (see [`Lobby::new`]).
///
/// # Examples
///
/// ```
/// let lobby = reversi::room_adapters::reversi_lobby([7; 32]);
/// assert_eq!(lobby.kinds().collect::<Vec<_>>(), ["reversi"]);
/// ```
#[must_use]
pub fn reversi_lobby(seed: [u8; 32]) -> Lobby<ReversiGame> {
    Lobby::new([(REVERSI.to_owned(), ReversiGame::new())], seed)
}
