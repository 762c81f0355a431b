//! What a client sees of a Reversi game, as serialisable data: the board, the legal moves with
//! the discs each would flip in animation order, the squares' accessible descriptions, the last
//! move and any pass, the history ([`BoardView`]); and a clock's readings at an instant
//! ([`ClockView`]). All of it comes from the rules of `reversi-core`, so a client holds no rules.
//! The server's state messages and the WebAssembly module's both embed these.
//!
//! ```
//! use reversi::view::BoardView;
//! use reversi::core::Game;
//! let v = serde_json::to_value(BoardView::of(&Game::new())).unwrap();
//! assert_eq!(v["to_move"], "black");
//! assert_eq!(v["legal"].as_array().unwrap().len(), 4);
//! assert_eq!(v["count"]["white"], 2);
//! ```

use reversi_clock::{Clock, Millis, TimeControl};
use reversi_core::{Color, Game, Move, Square};
use serde::{Deserialize, Serialize};

/// The discs of each colour.
///
/// # Examples
///
/// ```
/// let c = reversi::view::Count { black: 2, white: 2 };
/// assert_eq!(c.black + c.white, 4);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    /// Black discs.
    pub black: u32,
    /// White discs.
    pub white: u32,
}

/// A legal move and the discs it flips, nearest first.
///
/// # Examples
///
/// ```
/// use reversi::core::Game;
/// let v = reversi::view::BoardView::of(&Game::new());
/// assert!(v.legal.iter().all(|m| m.flips.len() == 1));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LegalMove {
    /// Where to play.
    pub square: Square,
    /// The discs it flips, in animation order.
    pub flips: Vec<Square>,
}

/// A placement and the discs it flipped.
///
/// # Examples
///
/// ```
/// use reversi::core::{Color, Game, Square};
/// let v = reversi::view::BoardView::of(&Game::from_transcript("f5").unwrap());
/// let last = v.last.unwrap();
/// assert_eq!((last.color, last.square, last.flips), (Color::Black, Square::F5, vec![Square::E5]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Placement {
    /// Who played.
    pub color: Color,
    /// Where.
    pub square: Square,
    /// The discs it flipped, in animation order.
    pub flips: Vec<Square>,
}

/// One move of the history.
///
/// # Examples
///
/// ```
/// use reversi::core::Game;
/// let v = reversi::view::BoardView::of(&Game::from_transcript("f5d6").unwrap());
/// assert_eq!(serde_json::to_string(&v.history[1]).unwrap(), r#"{"color":"white","move":"d6"}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct HistoryPly {
    /// Who moved.
    pub color: Color,
    /// The move: a square or `pass`.
    #[serde(rename = "move")]
    pub mv: Move,
}

/// The board part of a state message.
///
/// # Examples
///
/// See the [module](self).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BoardView {
    /// 64 characters, `a1` first: `X` black, `O` white, `-` empty.
    pub board: String,
    /// Who moves next; `None` once the game is over.
    pub to_move: Option<Color>,
    /// The discs of each colour.
    pub count: Count,
    /// The legal moves with the discs each flips (empty once the game is over).
    pub legal: Vec<LegalMove>,
    /// The accessible description of each square, `a1` first.
    pub squares: Vec<String>,
    /// The last placement.
    pub last: Option<Placement>,
    /// The colour whose automatic pass followed the last placement (or opened the game).
    pub passed: Option<Color>,
    /// The moves so far, passes included.
    pub history: Vec<HistoryPly>,
}

impl BoardView {
    /// The view of a game record.
    ///
    /// # Examples
    ///
    /// See the [module](self).
    #[must_use]
    pub fn of(game: &Game) -> BoardView {
        let pos = game.position();
        let over = game.is_over();
        let legal = if over {
            Vec::new()
        } else {
            pos.legal_moves()
                .iter()
                .map(|square| LegalMove {
                    square,
                    flips: pos.flips_in_order(square),
                })
                .collect()
        };
        let squares = pos
            .describe_squares()
            .iter()
            .map(ToString::to_string)
            .collect();
        let board: String = pos.to_board_string().chars().take(64).collect();
        let history = game
            .plies()
            .iter()
            .map(|p| HistoryPly {
                color: p.color,
                mv: p.mv,
            })
            .collect();
        // The last placement, with its flips in animation order from the position before it.
        let last = game
            .plies()
            .iter()
            .rposition(|p| p.mv != Move::Pass)
            .and_then(|i| {
                let ply = game.plies()[i];
                let before = game.positions()[i];
                ply.mv.square().map(|square| Placement {
                    color: ply.color,
                    square,
                    flips: before.flips_in_order(square),
                })
            });
        // The automatic pass that followed the last placement (or opened a prepared position).
        let passed = game
            .plies()
            .last()
            .filter(|p| p.mv == Move::Pass)
            .map(|p| p.color);
        BoardView {
            board,
            to_move: (!over).then(|| pos.side_to_move()),
            count: Count {
                black: pos.count(Color::Black),
                white: pos.count(Color::White),
            },
            legal,
            squares,
            last,
            passed,
            history,
        }
    }
}

/// The clock part of a state message: each side's time left at `server_time` (`None` when
/// unlimited), who is running, and that instant, so a client can count down.
///
/// # Examples
///
/// ```
/// use reversi::view::ClockView;
/// use reversi::clock::{Clock, Millis, Span, TimeControl};
/// use reversi::core::Color;
/// let mut clock = Clock::new(TimeControl::per_move(Span::from_secs(30)), 2);
/// clock.start(Millis(1_000), 0).unwrap();
/// let v = ClockView::of(&clock, Millis(3_000));
/// assert_eq!((v.black_ms, v.running, v.server_time), (Some(28_000), Some(Color::Black), 3_000));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ClockView {
    /// The time control.
    pub control: TimeControl,
    /// Black's time left at `server_time` in milliseconds (`None` when unlimited).
    pub black_ms: Option<u64>,
    /// White's time left at `server_time` in milliseconds (`None` when unlimited).
    pub white_ms: Option<u64>,
    /// The colour whose time is running.
    pub running: Option<Color>,
    /// Whether the clock is paused.
    pub paused: bool,
    /// The instant of the readings (wall-clock milliseconds).
    pub server_time: u64,
}

impl ClockView {
    /// The readings of a two-sided clock (side 0 black) at `now`.
    ///
    /// # Examples
    ///
    /// See [`ClockView`].
    #[must_use]
    pub fn of(clock: &Clock, now: Millis) -> ClockView {
        let side = |i: usize| clock.remaining(i, now).map(|s| s.as_millis());
        ClockView {
            control: clock.control(),
            black_ms: side(0),
            white_ms: side(1),
            running: clock
                .running_side()
                .map(|s| if s == 0 { Color::Black } else { Color::White }),
            paused: clock.is_paused(),
            server_time: now.0,
        }
    }
}
