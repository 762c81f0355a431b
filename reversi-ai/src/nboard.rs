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
            engine: Expert::new(),
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

    fn limits(&self) -> Limits {
        match self.depth {
            Some(d) => Limits::depth(d).with_time(crate::EXPERT_TIME * 10),
            None => Limits::NONE,
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
