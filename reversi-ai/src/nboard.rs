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
//! with `*` for black, `O` for white and `-` for empty.

use crate::{hints, AiError, Engine, Expert, Limits, Scoring};
use reversi_core::{Color, Move, Position, Square};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

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
        cause: reversi_core::Error,
    },
    /// The engine could not search (for instance the game is over).
    #[error(transparent)]
    Engine(#[from] AiError),
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
    /// `move MOVE[/EVAL[/TIME]]`: a move was played.
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
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "nboard" => rest.parse().map(Command::NBoard).map_err(|_| bad(line)),
            "set" => {
                let (what, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                let arg = arg.trim();
                match what {
                    "depth" => arg
                        .parse::<u32>()
                        .ok()
                        .filter(|d| (1..=60).contains(d))
                        .map(Command::SetDepth)
                        .ok_or_else(|| bad(line)),
                    "game" => parse_ggf(arg).map(Command::SetGame),
                    "contempt" => arg.parse().map(Command::SetContempt).map_err(|_| bad(line)),
                    _ => Err(NBoardError::UnknownCommand(line.to_string())),
                }
            }
            "move" => parse_move(rest).map(Command::Move),
            "hint" => rest
                .parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .map(Command::Hint)
                .ok_or_else(|| bad(line)),
            "go" => Ok(Command::Go),
            "ping" => rest.parse().map(Command::Ping).map_err(|_| bad(line)),
            "learn" => Ok(Command::Learn),
            "analyze" => Ok(Command::Analyze),
            _ => Err(NBoardError::UnknownCommand(line.to_string())),
        }
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
    let props = ggf_properties(s)?;
    let mut pos: Option<Position> = None;
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
            "B" | "W" => {
                let cur =
                    pos.ok_or_else(|| NBoardError::Ggf("a move before the board (BO)".into()))?;
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
            }
            _ => {}
        }
    }
    pos.ok_or_else(|| NBoardError::Ggf("no board (BO property)".into()))
}

/// The engine side of an NBoard session: the current position, the depth set by the GUI and
/// the engine (Expert, its time limit replaced by the depth when the GUI sets one).
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
    engine: Expert,
    stop: AtomicBool,
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
    /// let _d = reversi_ai::nboard::Driver::new();
    /// ```
    #[must_use]
    pub fn new() -> Driver {
        Driver {
            pos: Position::initial(),
            depth: None,
            engine: Expert::new(),
            stop: AtomicBool::new(false),
        }
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

    fn limits(&self) -> Limits {
        match self.depth {
            Some(d) => Limits::depth(d).with_time(crate::EXPERT_TIME * 10),
            None => Limits::NONE,
        }
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
        let cmd: Command = line.parse()?;
        Ok(match cmd {
            Command::NBoard(_) => vec!["set myname reversi-expert".into()],
            Command::SetDepth(d) => {
                self.depth = Some(d);
                Vec::new()
            }
            Command::SetGame(p) => {
                self.pos = p;
                Vec::new()
            }
            Command::SetContempt(_) => Vec::new(),
            Command::Move(m) => {
                let cur = if m != Move::Pass && self.pos.must_pass() {
                    self.pos.pass()
                } else {
                    self.pos
                };
                self.pos = cur.play(m).map_err(|cause| NBoardError::IllegalMove {
                    mv: move_name(m),
                    cause,
                })?;
                Vec::new()
            }
            Command::Ping(n) => vec![format!("pong {n}")],
            Command::Learn => vec!["learned".into()],
            Command::Analyze => vec!["status analysis is not supported".into()],
            Command::Go => {
                let start = Instant::now();
                let r = self.engine.choose(&self.pos, &self.limits(), &self.stop)?;
                let secs = start.elapsed().as_secs_f64();
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
