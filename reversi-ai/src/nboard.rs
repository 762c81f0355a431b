//! The NBoard protocol (engine side), sans IO: a GUI sends one command a line; [`Driver::handle`]
//! takes a line and returns the lines to answer. The host (a program reading stdin and writing
//! stdout, see the facade's `nboard` example) owns the IO.
//!
//! Commands understood: `nboard VERSION`, `set depth N`, `set game GGF`, `set contempt N`
//! (accepted, ignored), `move MOVE[/EVAL[/TIME]]`, `hint N`, `go`, `ping N`, `learn`,
//! `analyze` (answered with a status only). Answers: `set myname NAME`, `pong N`,
//! `status TEXT`, `search MOVE EVAL 0 DEPTH` (hints), `nodestats NODES SECONDS`,
//! `=== MOVE/EVAL/SECONDS` (the move chosen by `go`), `learned`. Moves are written as squares
//! such as `F5` or `PA` for a pass; evaluations in discs for the side to move.
//!
//! Game records come in GGF: `(;GM[Othello]...BO[8 <64 squares> <side>]B[F5]W[F6//0.1];)`
//! with `*` for black, `O` for white and `-` for empty; a game's time control (`TI`, `TB`,
//! `TW`) and its moves' times make its clock ([`GgfClock`]), on which `go` shares out its time.
//!
//! The other side, sans IO too: [`Client`] drives an external NBoard engine (the `arena`
//! example's `nboard:COMMAND`), giving the lines to send and reading the engine's lines back.
//! A client and a [`Driver`] talk to each other in-process:
//!
//! ```
//! use reversi_ai::nboard::{Client, Driver, Reply};
//! use reversi_core::Position;
//! let (mut client, mut engine) = (Client::new(Some(2)), Driver::new());
//! // Sends the client's lines to the engine and its answers back, until a reply that is not
//! // `Reply::Pending`.
//! let mut talk = |lines: Vec<String>, client: &mut Client| {
//!     let mut last = Reply::Pending;
//!     for line in lines {
//!         for answer in engine.handle(&line).unwrap() {
//!             let r = client.read(&answer).unwrap();
//!             if r != Reply::Pending {
//!                 last = r;
//!             }
//!         }
//!     }
//!     last
//! };
//! let start = client.start();
//! assert_eq!(talk(start, &mut client), Reply::Ready);
//! let pos = Position::initial();
//! let ask = client.ask(&pos).unwrap();
//! let Reply::Move(mv) = talk(ask, &mut client) else { panic!("no move") };
//! assert!(pos.play(mv).is_ok());
//! ```

use crate::{hints, AiError, Engine, Expert, Limits, Scoring};
use reversi_core::{Color, Move, Position, Square};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What is wrong with a line or a game record.
///
/// # Examples
///
/// ```
/// use reversi_ai::nboard::{parse_ggf, NBoardError};
/// assert!(matches!(parse_ggf("(;GM[Chess];)"), Err(NBoardError::Ggf(_))));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NBoardError {
    /// A command this driver does not know.
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    /// A command with a missing or malformed argument.
    #[error("bad argument in {0:?}")]
    BadArgument(String),
    /// A game record that is not valid GGF for an 8x8 Othello game.
    #[error("bad GGF game: {0}")]
    Ggf(String),
    /// A move that is not legal in the current position.
    #[error("illegal move {mv} in the position: {cause}")]
    IllegalMove {
        /// The move as written.
        mv: String,
        /// Why it is illegal.
        cause: reversi_core::PlayError,
    },
    /// The engine could not search (for instance the game is over).
    #[error(transparent)]
    Engine(#[from] AiError),
    /// A line from an engine ([`Client::read`]) that is not what the protocol allows there.
    #[error("unexpected line from the engine: {0:?}")]
    Unexpected(String),
}

/// One command from the GUI.
///
/// # Examples
///
/// ```
/// use reversi_ai::nboard::Command;
/// assert_eq!("ping 3".parse::<Command>().unwrap(), Command::Ping(3));
/// assert_eq!("set depth 12".parse::<Command>().unwrap(), Command::SetDepth(12));
/// assert!("jump".parse::<Command>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Command {
    /// `nboard VERSION`: the session starts.
    NBoard(u32),
    /// `set depth N`: the midgame search depth.
    SetDepth(u32),
    /// `set game GGF`: the game so far (the position at its end is the current one).
    SetGame(Position),
    /// `set contempt N` (ignored).
    SetContempt(i32),
    /// `move MOVE[/EVAL[/TIME]]`: a move was played (a `TIME` written must be a time: seconds,
    /// or `[[H:]M:]S`).
    Move(Move),
    /// `hint N`: scores of the N best moves.
    Hint(u32),
    /// `go`: choose a move.
    Go,
    /// `ping N`: answered by `pong N` once everything before it is done.
    Ping(i64),
    /// `learn`: learn from the game (answered `learned`; this engine does not learn).
    Learn,
    /// `analyze`: analyse the game (answered with a status only).
    Analyze,
}

fn bad(line: &str) -> NBoardError {
    NBoardError::BadArgument(line.to_string())
}

/// Parses a move as NBoard and GGF write it: a square (`F5`, `f5`) or a pass (`PA`, `PASS`,
/// `PS`), optionally followed by `/EVAL/TIME` which is ignored.
///
/// # Errors
///
/// [`NBoardError::BadArgument`] for anything else.
///
/// # Examples
///
/// ```
/// use reversi_ai::nboard::parse_move;
/// use reversi_core::{Move, Square};
/// assert_eq!(parse_move("F5/1.5/0.2").unwrap(), Move::Place(Square::F5));
/// assert_eq!(parse_move("PA").unwrap(), Move::Pass);
/// assert!(parse_move("Z9").is_err());
/// ```
pub fn parse_move(s: &str) -> Result<Move, NBoardError> {
    let m = s.split('/').next().unwrap_or("").trim();
    if m.eq_ignore_ascii_case("pa") {
        return Ok(Move::Pass);
    }
    m.parse::<Move>().map_err(|_| bad(s))
}

/// The time a move took, from `MOVE/EVAL/TIME` (seconds, or `[[H:]M:]S`); `None` when it is not
/// written.
fn move_seconds(s: &str) -> Result<Option<Duration>, String> {
    match s.split('/').nth(2).map(str::trim) {
        None | Some("") => Ok(None),
        Some(t) => clock_value(t)
            .map(Some)
            .ok_or_else(|| format!("bad time {t:?}")),
    }
}

/// Non-negative seconds, as a decimal number.
fn seconds(t: &str) -> Option<Duration> {
    let x: f64 = t.parse().ok()?;
    (x.is_finite() && (0.0..1e9).contains(&x)).then(|| Duration::from_secs_f64(x))
}

/// A GGF clock value `[[H:]M:]S`, options after a comma ignored.
fn clock_value(t: &str) -> Option<Duration> {
    let t = t.split(',').next().unwrap_or("").trim();
    if t.is_empty() {
        return Some(Duration::ZERO);
    }
    let parts: Vec<&str> = t.split(':').collect();
    let (last, rest) = parts.split_last()?;
    if rest.len() > 2 {
        return None;
    }
    let mut total = seconds(last)?;
    for (i, p) in rest.iter().rev().enumerate() {
        let n: u64 = p.trim().parse().ok()?;
        let unit = if i == 0 { 60 } else { 3600 };
        total = total.checked_add(Duration::from_secs(n.checked_mul(unit)?))?;
    }
    Some(total)
}

/// The clocks of a GGF game: for each colour the main time and the increment of its time
/// control (`TI[MAIN/INCREMENT/EXTENSION]` for both, `TB` and `TW` for one colour; clock values
/// `[[H:]M:]S`; the extension is not counted on), and the time its recorded moves took (the
/// `TIME` of `B[MOVE/EVAL/TIME]`). A game without a time control has no clock
/// ([`GgfClock::left`] is `None`).
///
/// # Examples
///
/// ```
/// use reversi_ai::nboard::parse_ggf_clock;
/// use reversi_core::Color;
/// use std::time::Duration;
/// let start = "---------------------------O*------*O--------------------------- *";
/// let c = parse_ggf_clock(&format!("(;GM[Othello]TI[5:00/2]BO[8 {start}]B[F5//12.5]W[F6//3];)")).unwrap();
/// // Black: 300 s, 2 s back after its move, 12.5 s used.
/// assert_eq!(c.left(Color::Black), Some(Duration::from_millis(289_500)));
/// assert_eq!(c.left(Color::White), Some(Duration::from_secs(299)));
/// assert_eq!(c.increment(Color::Black), Duration::from_secs(2));
/// assert_eq!(parse_ggf_clock(&format!("(;GM[Othello]BO[8 {start}];)")).unwrap().left(Color::Black), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GgfClock {
    main: [Option<Duration>; 2],
    increment: [Duration; 2],
    used: [Duration; 2],
    moves: [u32; 2],
}

impl GgfClock {
    /// The time `colour` has left for its next move (its main time, plus its increment for each
    /// move it made, less what its moves took), or `None` without a time control.
    ///
    /// # Examples
    ///
    /// See [`GgfClock`].
    #[must_use]
    pub fn left(&self, colour: Color) -> Option<Duration> {
        let i = colour.index();
        let main = self.main[i]?;
        let given = self.increment[i]
            .checked_mul(self.moves[i])
            .and_then(|inc| inc.checked_add(main))
            .unwrap_or(Duration::MAX);
        Some(given.saturating_sub(self.used[i]))
    }

    /// What comes back to `colour` after each of its moves.
    ///
    /// # Examples
    ///
    /// See [`GgfClock`].
    #[must_use]
    pub fn increment(&self, colour: Color) -> Duration {
        self.increment[colour.index()]
    }

    /// Counts a move of `colour` that took `took`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::nboard::parse_ggf_clock;
    /// use reversi_core::Color;
    /// use std::time::Duration;
    /// let start = "---------------------------O*------*O--------------------------- *";
    /// let mut c = parse_ggf_clock(&format!("(;GM[Othello]TI[1:00]BO[8 {start}];)")).unwrap();
    /// c.record(Color::Black, Duration::from_secs(10));
    /// assert_eq!(c.left(Color::Black), Some(Duration::from_secs(50)));
    /// ```
    pub fn record(&mut self, colour: Color, took: Duration) {
        let i = colour.index();
        self.used[i] = self.used[i].saturating_add(took);
        self.moves[i] = self.moves[i].saturating_add(1);
    }

    /// How long the side to move of `pos` may think on this clock without losing on time
    /// ([`crate::time::think_time`]: its time left shared over its moves left, with three
    /// quarters of the increment); `None` without a time control.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::nboard::parse_ggf_clock;
    /// use reversi_core::Position;
    /// use std::time::Duration;
    /// let start = "---------------------------O*------*O--------------------------- *";
    /// let c = parse_ggf_clock(&format!("(;GM[Othello]TI[1:00]BO[8 {start}];)")).unwrap();
    /// // A minute for 30 moves: just under two seconds.
    /// assert_eq!(c.think_time(&Position::initial()), Some(Duration::from_millis(1_991)));
    /// ```
    #[must_use]
    pub fn think_time(&self, pos: &Position) -> Option<Duration> {
        let colour = pos.side_to_move();
        let left = self.left(colour)?;
        Some(crate::time::think_time(
            left,
            Some(left),
            self.increment(colour),
            pos.empty().count(),
        ))
    }

    /// Reads a GGF time control into `who`'s entries.
    fn set_control(&mut self, who: &[Color], value: &str) -> Result<(), NBoardError> {
        let bad = || NBoardError::Ggf(format!("bad time control {value:?}"));
        let parts: Vec<&str> = value.split('/').collect();
        if parts.len() > 3 {
            return Err(bad());
        }
        let main = clock_value(parts[0]).ok_or_else(bad)?;
        let inc = match parts.get(1) {
            Some(p) => clock_value(p).ok_or_else(bad)?,
            None => Duration::ZERO,
        };
        if let Some(p) = parts.get(2) {
            clock_value(p).ok_or_else(bad)?;
        }
        for i in who.iter().map(|c| c.index()) {
            // No time at all is no time control.
            self.main[i] = (main > Duration::ZERO || inc > Duration::ZERO).then_some(main);
            self.increment[i] = inc;
        }
        Ok(())
    }
}

/// Writes a move as NBoard does: `F5`, or `PA` for a pass.
///
/// # Examples
///
/// ```
/// use reversi_ai::nboard::move_name;
/// use reversi_core::{Move, Square};
/// assert_eq!(move_name(Move::Place(Square::F5)), "F5");
/// assert_eq!(move_name(Move::Pass), "PA");
/// ```
#[must_use]
pub fn move_name(m: Move) -> String {
    match m {
        Move::Place(s) => s.to_string().to_ascii_uppercase(),
        Move::Pass => "PA".into(),
    }
}

impl core::str::FromStr for Command {
    type Err = NBoardError;

    fn from_str(line: &str) -> Result<Command, NBoardError> {
        parse_line(line).map(|(cmd, _)| cmd)
    }
}

/// What a line carries besides its [`Command`], for the driver's clock: the clock of the game
/// that `set game` sends, the time that a `move` took.
#[derive(Default)]
struct Timing {
    clock: GgfClock,
    took: Option<Duration>,
}

/// Parses a line once, into its command and its timing.
fn parse_line(line: &str) -> Result<(Command, Timing), NBoardError> {
    let none = |cmd| (cmd, Timing::default());
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    match word {
        "nboard" => rest
            .parse()
            .map(|v| none(Command::NBoard(v)))
            .map_err(|_| bad(line)),
        "set" => {
            let (what, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let arg = arg.trim();
            match what {
                "depth" => arg
                    .parse::<u32>()
                    .ok()
                    .filter(|d| (1..=60).contains(d))
                    .map(|d| none(Command::SetDepth(d)))
                    .ok_or_else(|| bad(line)),
                "game" => parse_ggf_game(arg).map(|(pos, clock)| {
                    let timing = Timing { clock, took: None };
                    (Command::SetGame(pos), timing)
                }),
                "contempt" => arg
                    .parse()
                    .map(|c| none(Command::SetContempt(c)))
                    .map_err(|_| bad(line)),
                _ => Err(NBoardError::UnknownCommand(line.to_string())),
            }
        }
        "move" => {
            // The time, when written, must be one (the driver counts it on the clock).
            let took = move_seconds(rest).map_err(|_| bad(line))?;
            let timing = Timing {
                took,
                ..Timing::default()
            };
            parse_move(rest).map(|m| (Command::Move(m), timing))
        }
        "hint" => rest
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .map(|n| none(Command::Hint(n)))
            .ok_or_else(|| bad(line)),
        "go" => Ok(none(Command::Go)),
        "ping" => rest
            .parse()
            .map(|n| none(Command::Ping(n)))
            .map_err(|_| bad(line)),
        "learn" => Ok(none(Command::Learn)),
        "analyze" => Ok(none(Command::Analyze)),
        _ => Err(NBoardError::UnknownCommand(line.to_string())),
    }
}

/// The value of each `KEY[value]` property of a GGF record, in order.
fn ggf_properties(s: &str) -> Result<Vec<(String, String)>, NBoardError> {
    let s = s.trim();
    let body = s
        .strip_prefix("(;")
        .and_then(|b| b.strip_suffix(";)"))
        .ok_or_else(|| NBoardError::Ggf("a game is written (; ... ;)".into()))?;
    let mut out = Vec::new();
    let mut rest = body;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(out);
        }
        let open = rest
            .find('[')
            .ok_or_else(|| NBoardError::Ggf(format!("property without a value at {rest:?}")))?;
        let key = rest[..open].trim();
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_uppercase()) {
            return Err(NBoardError::Ggf(format!("bad property name {key:?}")));
        }
        let close = rest[open..]
            .find(']')
            .ok_or_else(|| NBoardError::Ggf(format!("unclosed value of {key}")))?
            + open;
        out.push((key.to_string(), rest[open + 1..close].to_string()));
        rest = &rest[close + 1..];
    }
}

/// Parses a GGF game record and returns the position at its end.
///
/// # Errors
///
/// [`NBoardError::Ggf`] for a malformed record, a game other than 8x8 Othello, a bad board, or
/// a move that is not legal where it is played.
///
/// # Examples
///
/// ```
/// use reversi_ai::nboard::parse_ggf;
/// use reversi_core::Position;
/// let start = "---------------------------O*------*O--------------------------- *";
/// let pos = parse_ggf(&format!("(;GM[Othello]PC[NBoard]BO[8 {start}]B[F5]W[F6//0.1];)")).unwrap();
/// assert_eq!(pos.empty().count(), 58);
/// assert!(parse_ggf(&format!("(;GM[Othello]BO[8 {start}]B[A1];)")).is_err());
/// ```
pub fn parse_ggf(s: &str) -> Result<Position, NBoardError> {
    parse_ggf_game(s).map(|(pos, _)| pos)
}

/// Reads the clocks of a GGF game record ([`GgfClock`]): its time controls and the times its
/// moves took.
///
/// # Errors
///
/// As [`parse_ggf`], and [`NBoardError::Ggf`] for a time control or a move's time that is not
/// a time.
///
/// # Examples
///
/// See [`GgfClock`].
pub fn parse_ggf_clock(s: &str) -> Result<GgfClock, NBoardError> {
    parse_ggf_game(s).map(|(_, clock)| clock)
}

fn parse_ggf_game(s: &str) -> Result<(Position, GgfClock), NBoardError> {
    let props = ggf_properties(s)?;
    let mut pos: Option<Position> = None;
    let mut clock = GgfClock::default();
    for (key, value) in props {
        match key.as_str() {
            "GM" if !value.eq_ignore_ascii_case("othello") => {
                return Err(NBoardError::Ggf(format!("game {value:?} is not Othello")));
            }
            "BO" => {
                let mut parts = value.split_whitespace();
                if parts.next() != Some("8") {
                    return Err(NBoardError::Ggf(format!("board {value:?} is not 8x8")));
                }
                let cells: String = parts.next().unwrap_or("").to_string();
                let side = parts.next().unwrap_or("");
                if cells.chars().count() != 64 || parts.next().is_some() {
                    return Err(NBoardError::Ggf(format!(
                        "board {value:?} has not 64 squares and a side"
                    )));
                }
                let mut board = String::with_capacity(67);
                for c in cells.chars() {
                    board.push(match c {
                        '*' | 'X' | 'x' | '#' => 'X',
                        'O' | 'o' => 'O',
                        '-' | '.' => '-',
                        _ => {
                            return Err(NBoardError::Ggf(format!("bad square {c:?} in the board")))
                        }
                    });
                }
                board.push(' ');
                board.push(match side {
                    "*" | "X" | "x" | "#" => 'X',
                    "O" | "o" => 'O',
                    _ => return Err(NBoardError::Ggf(format!("bad side to move {side:?}"))),
                });
                pos = Some(
                    Position::from_board_string(&board)
                        .map_err(|e| NBoardError::Ggf(format!("bad board: {e}")))?,
                );
            }
            "TI" => clock.set_control(&[Color::Black, Color::White], &value)?,
            "TB" => clock.set_control(&[Color::Black], &value)?,
            "TW" => clock.set_control(&[Color::White], &value)?,
            "B" | "W" => {
                let cur =
                    pos.ok_or_else(|| NBoardError::Ggf("a move before the board (BO)".into()))?;
                let took = move_seconds(&value)
                    .map_err(|e| NBoardError::Ggf(format!("{key}[{value}]: {e}")))?;
                let colour = if key == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let m = parse_move(&value)
                    .map_err(|_| NBoardError::Ggf(format!("bad move {value:?}")))?;
                // A side that must pass may be skipped by the record.
                let cur = if cur.side_to_move() != colour && cur.must_pass() {
                    cur.pass()
                } else {
                    cur
                };
                if cur.side_to_move() != colour {
                    return Err(NBoardError::Ggf(format!("{key}[{value}] out of turn")));
                }
                pos = Some(
                    cur.play(m)
                        .map_err(|e| NBoardError::Ggf(format!("{key}[{value}]: {e}")))?,
                );
                clock.record(colour, took.unwrap_or_default());
            }
            _ => {}
        }
    }
    let pos = pos.ok_or_else(|| NBoardError::Ggf("no board (BO property)".into()))?;
    Ok((pos, clock))
}

/// The engine side of an NBoard session: the current position, the depth set by the GUI, the
/// game's clock and the engine (Expert).
///
/// How long a move thinks: when the game that `set game` sent has a time control (GGF `TI`,
/// `TB`, `TW`), the share of the mover's time left that [`GgfClock::think_time`] gives (the time
/// left counts the times written in the record and with the later `move` commands, or for a
/// move of this engine written without one, the time its `go` took); otherwise Expert's
/// [`EXPERT_TIME`](crate::EXPERT_TIME). A depth set by the GUI replaces that time, within ten
/// times Expert's time and the clock's share.
///
/// # Examples
///
/// ```
/// use reversi_ai::nboard::Driver;
/// let mut d = Driver::new();
/// assert_eq!(d.handle("nboard 2").unwrap(), vec!["set myname reversi-expert".to_string()]);
/// assert_eq!(d.handle("ping 7").unwrap(), vec!["pong 7".to_string()]);
/// d.handle("set depth 2").unwrap();
/// let out = d.handle("go").unwrap();
/// assert!(out.iter().any(|l| l.starts_with("=== ")));
/// ```
#[derive(Debug)]
pub struct Driver {
    pos: Position,
    depth: Option<u32>,
    clock: GgfClock,
    /// The last `go`: its position, its move and the time it took.
    last_go: Option<(Position, Move, Duration)>,
    engine: Expert,
    stop: AtomicBool,
    threads: u32,
}

impl Default for Driver {
    fn default() -> Self {
        Driver::new()
    }
}

impl Driver {
    /// A session at the start position, with the Expert engine and its default time.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Position;
    /// let mut d = reversi_ai::nboard::Driver::new();
    /// assert_eq!(*d.position(), Position::initial());
    /// assert_eq!(d.handle("ping 1").unwrap(), ["pong 1"]);
    /// ```
    #[must_use]
    pub fn new() -> Driver {
        Driver {
            pos: Position::initial(),
            depth: None,
            clock: GgfClock::default(),
            last_go: None,
            // The time comes with each move's limits (`Driver::limits`).
            engine: Expert::new().with_limits(Limits::NONE),
            stop: AtomicBool::new(false),
            threads: 1,
        }
    }

    /// This session with `threads` search threads for its moves (at least one; default one,
    /// [`Limits::with_threads`]).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut d = reversi_ai::nboard::Driver::new().with_threads(2);
    /// assert_eq!(d.handle("ping 3").unwrap(), ["pong 3"]);
    /// ```
    #[must_use]
    pub fn with_threads(mut self, threads: u32) -> Driver {
        self.threads = threads.max(1);
        self
    }

    /// The current position.
    ///
    /// # Examples
    ///
    /// ```
    /// let d = reversi_ai::nboard::Driver::new();
    /// assert_eq!(d.position(), &reversi_core::Position::initial());
    /// ```
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The game's clock as `set game` and the moves since set it.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::nboard::Driver;
    /// use reversi_core::Color;
    /// use std::time::Duration;
    /// let start = "---------------------------O*------*O--------------------------- *";
    /// let mut d = Driver::new();
    /// d.handle(&format!("set game (;GM[Othello]TI[2:00]BO[8 {start}];)")).unwrap();
    /// d.handle("move F5/0.5/7.25").unwrap();
    /// assert_eq!(d.clock().left(Color::Black), Some(Duration::from_millis(112_750)));
    /// assert_eq!(d.clock().left(Color::White), Some(Duration::from_secs(120)));
    /// ```
    #[must_use]
    pub fn clock(&self) -> &GgfClock {
        &self.clock
    }

    /// How long the next `go` may think (see [`Driver`]): the clock's share, or Expert's time
    /// without a clock; under a depth set by the GUI, the most the search may take.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::nboard::Driver;
    /// use std::time::Duration;
    /// let start = "---------------------------O*------*O--------------------------- *";
    /// let mut d = Driver::new();
    /// assert_eq!(d.think_time(), reversi_ai::EXPERT_TIME);
    /// // Twenty seconds for the whole game: 30 moves to make.
    /// d.handle(&format!("set game (;GM[Othello]TI[0:20]BO[8 {start}];)")).unwrap();
    /// assert_eq!(d.think_time(), Duration::from_millis(658));
    /// ```
    #[must_use]
    pub fn think_time(&self) -> Duration {
        let clock = self.clock.think_time(&self.pos);
        match self.depth {
            Some(_) => {
                let cap = crate::EXPERT_TIME * 10;
                clock.map_or(cap, |c| c.min(cap))
            }
            None => clock.unwrap_or(crate::EXPERT_TIME),
        }
    }

    fn limits(&self) -> Limits {
        match self.depth {
            Some(d) => Limits::depth(d).with_time(self.think_time()),
            None => Limits::time(self.think_time()),
        }
        .with_threads(self.threads)
    }

    /// Handles one line from the GUI and returns the lines to send back. An empty line gives
    /// no answer.
    ///
    /// # Errors
    ///
    /// An [`NBoardError`] for an unknown command, a bad argument, a bad game record or an
    /// illegal move; the session state is then unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::nboard::{Driver, NBoardError};
    /// let mut d = Driver::new();
    /// assert!(matches!(d.handle("move Z9"), Err(NBoardError::BadArgument(_))));
    /// assert!(d.handle("move F5").is_ok());
    /// assert_eq!(d.position().empty().count(), 59);
    /// ```
    pub fn handle(&mut self, line: &str) -> Result<Vec<String>, NBoardError> {
        if line.trim().is_empty() {
            return Ok(Vec::new());
        }
        let (cmd, timing) = parse_line(line)?;
        Ok(match cmd {
            Command::NBoard(_) => vec!["set myname reversi-expert".into()],
            Command::SetDepth(d) => {
                self.depth = Some(d);
                Vec::new()
            }
            Command::SetGame(p) => {
                self.pos = p;
                self.clock = timing.clock;
                self.last_go = None;
                Vec::new()
            }
            Command::SetContempt(_) => Vec::new(),
            Command::Move(m) => {
                let cur = if m != Move::Pass && self.pos.must_pass() {
                    self.pos.pass()
                } else {
                    self.pos
                };
                let next = cur.play(m).map_err(|cause| NBoardError::IllegalMove {
                    mv: move_name(m),
                    cause,
                })?;
                // A move of this engine sent back without its time took what its `go` took.
                let took = timing.took.or_else(|| {
                    self.last_go
                        .filter(|&(at, mv, _)| at == cur && mv == m)
                        .map(|(_, _, t)| t)
                });
                self.clock
                    .record(cur.side_to_move(), took.unwrap_or_default());
                self.pos = next;
                self.last_go = None;
                Vec::new()
            }
            Command::Ping(n) => vec![format!("pong {n}")],
            Command::Learn => vec!["learned".into()],
            Command::Analyze => vec!["status analysis is not supported".into()],
            Command::Go => {
                let start = Instant::now();
                let r = self.engine.choose(&self.pos, &self.limits(), &self.stop)?;
                let took = start.elapsed();
                self.last_go = Some((self.pos, r.best_move, took));
                let secs = took.as_secs_f64();
                let eval = r.score as f64;
                vec![
                    "status thinking".into(),
                    format!("nodestats {} {:.2}", r.nodes, secs),
                    format!("=== {}/{:.2}/{:.2}", move_name(r.best_move), eval, secs),
                    "status".into(),
                ]
            }
            Command::Hint(n) => {
                let limits = self.limits();
                let limits = if self.depth.is_none() {
                    Limits::time(crate::EXPERT_TIME)
                } else {
                    limits
                };
                let h = hints(&self.pos, &limits, Scoring::DiscDifference, &self.stop)?;
                let mut out = vec!["status thinking".to_string()];
                for x in h.iter().take(n as usize) {
                    let depth = if x.exact {
                        "100%".to_string()
                    } else {
                        x.depth.to_string()
                    };
                    out.push(format!(
                        "search {} {} 0 {}",
                        move_name(x.mv),
                        x.score,
                        depth
                    ));
                }
                out.push("status".into());
                out
            }
        })
    }
}

/// A square index in NBoard notation (`A1` .. `H8`).
///
/// # Examples
///
/// ```
/// use reversi_ai::nboard::square_name;
/// assert_eq!(square_name(reversi_core::Square::D3), "D3");
/// ```
#[must_use]
pub fn square_name(s: Square) -> String {
    s.to_string().to_ascii_uppercase()
}

/// The position as a GGF game record without moves (`*` black, `O` white, `-` empty), as
/// [`parse_ggf`] reads it and `set game` sends it.
///
/// # Examples
///
/// ```
/// use reversi_ai::nboard::{parse_ggf, write_ggf};
/// use reversi_core::Position;
/// let pos = Position::initial().play("f5".parse().unwrap()).unwrap();
/// assert_eq!(parse_ggf(&write_ggf(&pos)).unwrap(), pos);
/// ```
#[must_use]
pub fn write_ggf(pos: &Position) -> String {
    let (b, w) = (pos.black().0, pos.white().0);
    let cells: String = (0..64)
        .map(|i| {
            if b >> i & 1 != 0 {
                '*'
            } else if w >> i & 1 != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    let side = if pos.side_to_move() == Color::Black {
        '*'
    } else {
        'O'
    };
    format!("(;GM[Othello]PC[reversi]TY[8]BO[8 {cells} {side}];)")
}

/// What a line from the engine meant to a [`Client`].
///
/// # Examples
///
/// ```
/// use reversi_ai::nboard::{Client, Reply};
/// let mut c = Client::new(None);
/// let _ = c.start();
/// assert_eq!(c.read("set myname edax").unwrap(), Reply::Pending);
/// assert_eq!(c.read("pong 1").unwrap(), Reply::Ready);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reply {
    /// Nothing the client waits for (a status, node counts, a name, an old pong).
    Pending,
    /// The engine answered the ping of [`Client::start`]: the session is ready.
    Ready,
    /// The engine's move in the position of [`Client::ask`], checked legal there.
    Move(Move),
}

/// What a [`Client`] waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Waiting {
    Nothing,
    Pong(i64),
    Move(Position),
}

/// The GUI side of the NBoard protocol, sans IO: drives an external engine. The host sends
/// the lines [`Client::start`] and [`Client::ask`] give, one a line, and hands every line the
/// engine writes to [`Client::read`], which says when the session is ready and which move the
/// engine chose (checked legal). See the [module](self) for a whole exchange.
///
/// # Examples
///
/// ```
/// use reversi_ai::nboard::Client;
/// let mut c = Client::new(Some(6));
/// assert_eq!(c.start(), ["nboard 2", "set depth 6", "ping 1"]);
/// ```
#[derive(Debug, Clone)]
pub struct Client {
    depth: Option<u32>,
    pings: i64,
    waiting: Waiting,
}

impl Client {
    /// A client that asks the engine for `depth` plies of midgame search (`set depth`), or
    /// leaves it at its own settings with `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// let c = reversi_ai::nboard::Client::new(None);
    /// assert!(!c.is_waiting());
    /// ```
    #[must_use]
    pub fn new(depth: Option<u32>) -> Client {
        Client {
            depth,
            pings: 0,
            waiting: Waiting::Nothing,
        }
    }

    /// The lines that open the session: `nboard 2`, `set depth N` if asked, and a ping whose
    /// pong makes [`Client::read`] answer [`Reply::Ready`].
    ///
    /// # Examples
    ///
    /// ```
    /// let mut c = reversi_ai::nboard::Client::new(None);
    /// assert_eq!(c.start(), ["nboard 2", "ping 1"]);
    /// assert!(c.is_waiting());
    /// ```
    pub fn start(&mut self) -> Vec<String> {
        let mut out = vec!["nboard 2".to_string()];
        if let Some(d) = self.depth {
            out.push(format!("set depth {d}"));
        }
        self.pings += 1;
        out.push(format!("ping {}", self.pings));
        self.waiting = Waiting::Pong(self.pings);
        out
    }

    /// The lines that ask the engine for its move in `pos`: the position as a game record
    /// (`set game`) and `go`. [`Client::read`] then answers [`Reply::Move`] with the move.
    ///
    /// # Errors
    ///
    /// [`NBoardError::Engine`] with [`AiError::GameOver`] when neither side can move (nothing
    /// is sent then, the client is unchanged).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::Position;
    /// let mut c = reversi_ai::nboard::Client::new(None);
    /// let lines = c.ask(&Position::initial()).unwrap();
    /// assert!(lines[0].starts_with("set game (;GM[Othello]"));
    /// assert_eq!(lines[1], "go");
    /// ```
    pub fn ask(&mut self, pos: &Position) -> Result<Vec<String>, NBoardError> {
        if pos.is_game_over() {
            return Err(AiError::GameOver.into());
        }
        self.waiting = Waiting::Move(*pos);
        Ok(vec![
            format!("set game {}", write_ggf(pos)),
            "go".to_string(),
        ])
    }

    /// Whether the client waits for a pong or a move.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut c = reversi_ai::nboard::Client::new(None);
    /// let _ = c.start();
    /// assert!(c.is_waiting());
    /// c.read("pong 1").unwrap();
    /// assert!(!c.is_waiting());
    /// ```
    #[must_use]
    pub fn is_waiting(&self) -> bool {
        self.waiting != Waiting::Nothing
    }

    /// Reads one line from the engine.
    ///
    /// # Errors
    ///
    /// When a move is awaited: [`NBoardError::BadArgument`] for a `===` line whose move does
    /// not read, [`NBoardError::IllegalMove`] for a move that is not legal in the position
    /// asked about (a pass while moves exist included). A `===` line when no move was asked
    /// for is [`NBoardError::Unexpected`]. The client then waits for nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::nboard::{Client, NBoardError, Reply};
    /// use reversi_core::{Move, Position, Square};
    /// let mut c = Client::new(None);
    /// let _ = c.ask(&Position::initial()).unwrap();
    /// assert_eq!(c.read("status thinking").unwrap(), Reply::Pending);
    /// assert!(matches!(c.read("=== A1/0.5/1.0"), Err(NBoardError::IllegalMove { .. })));
    /// let _ = c.ask(&Position::initial()).unwrap();
    /// assert_eq!(c.read("=== F5/0.5/1.0").unwrap(), Reply::Move(Move::Place(Square::F5)));
    /// ```
    pub fn read(&mut self, line: &str) -> Result<Reply, NBoardError> {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("===") {
            let Waiting::Move(pos) = self.waiting else {
                return Err(NBoardError::Unexpected(line.to_string()));
            };
            self.waiting = Waiting::Nothing;
            let word = rest.split_whitespace().next().unwrap_or("");
            let mv = parse_move(word)?;
            return match pos.play(mv) {
                Ok(_) => Ok(Reply::Move(mv)),
                Err(cause) => Err(NBoardError::IllegalMove {
                    mv: word.to_string(),
                    cause,
                }),
            };
        }
        if let Waiting::Pong(n) = self.waiting {
            if line.strip_prefix("pong ").map(str::trim) == Some(n.to_string().as_str()) {
                self.waiting = Waiting::Nothing;
                return Ok(Reply::Ready);
            }
        }
        Ok(Reply::Pending)
    }
}
