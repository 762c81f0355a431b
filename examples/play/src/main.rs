//! `play`: Reversi in a terminal, against the computer or between two people at one keyboard.
//!
//! ```sh
//! cargo run --release -p reversi-play                      # start screen (or resume a saved game)
//! cargo run --release -p reversi-play -- --opponent hard --color white --time 5:00
//! cargo run --release -p reversi-play -- --plain           # line mode for screen readers and scripts
//! ```
//!
//! The program is a host in the sense of the workspace design: it owns real time and IO. The
//! rules come from `reversi-core`, the clocks from `reversi-clock` (a sans-IO state machine that
//! this program feeds with wall-clock milliseconds), and the computer's moves and hints from
//! `reversi-ai`, searched on a background thread.

mod engine;
mod plain;
mod session;
mod tui;

use std::path::PathBuf;
use std::process::ExitCode;

use reversi::clock::TimeControl;
use reversi::core::Color;

use session::{LocalMatch, Opponent, Settings};

const USAGE: &str = "\
usage: play [options]

  --opponent human|easy|normal|hard   who plays the other colour (default: normal)
  --color black|white                 your colour against the computer (default: black)
  --time unlimited|15|30|60|TOTAL|PERMOVE+TOTAL
                                      15, 30, 60: seconds a move; TOTAL: each side's time for
                                      the game, as 10, 10:00, 5:30 or 5.5 (minutes);
                                      PERMOVE+TOTAL: both, as 30+10:00 (default: unlimited)
  --seed S                            seed of the computer's choices
  --no-hints                          start with the legal-move marks off
  --reduced-motion                    turn discs without animation
  --mute                              start without the sound
  --save FILE                         save and resume the game in FILE
                                      (default: $XDG_DATA_HOME/reversi/game.json)
  --new                               ignore a saved game and start a new one
  --plain                             line mode: no cursor addressing, no colour
  -h, --help                          this help

Keys: arrows move the cursor, Enter or Space plays, u takes back (your move and the computer's
reply as a pair; one move between two people), h shows hints, l turns the legal-move marks on
and off, m turns the sound on and off, n offers a new game, q saves and quits.

Plain mode commands: a square such as d3, pass, undo, hint, board, describe d3, moves, help, quit.

A game in progress is saved after every move and resumed when the program starts again without
--opponent, --color, --time, --seed or --new. Without those flags and without a saved game, a
start screen lets you choose.";

/// The command line.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--opponent`.
    pub opponent: Option<Opponent>,
    /// `--color`.
    pub color: Option<Color>,
    /// `--time`.
    pub time: Option<TimeControl>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--no-hints`: legal-move marks start off.
    pub no_hints: bool,
    /// `--reduced-motion`.
    pub reduced_motion: bool,
    /// `--mute`.
    pub mute: bool,
    /// `--new`.
    pub new: bool,
    /// `--plain`.
    pub plain: bool,
    /// Where the game is saved.
    pub save_path: PathBuf,
}

impl Options {
    /// Parses the arguments after the program name.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let mut o = Options::default();
        let mut save = None;
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
                _ => (arg.clone(), None),
            };
            let mut value = |name: &str| {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            match flag.as_str() {
                "--opponent" => {
                    o.opponent = Some(value("--opponent")?.parse().map_err(|e| format!("{e}"))?)
                }
                "--color" | "--colour" => {
                    o.color = Some(value("--color")?.parse().map_err(|e| format!("{e}"))?)
                }
                "--time" => o.time = Some(session::parse_time(&value("--time")?)?),
                "--seed" => {
                    let v = value("--seed")?;
                    o.seed = Some(
                        v.parse()
                            .map_err(|_| format!("{v:?} is not a seed (a whole number)"))?,
                    );
                }
                "--save" => save = Some(PathBuf::from(value("--save")?)),
                "--no-hints" => o.no_hints = true,
                "--reduced-motion" => o.reduced_motion = true,
                "--mute" => o.mute = true,
                "--new" => o.new = true,
                "--plain" => o.plain = true,
                "-h" | "--help" => return Err(String::new()),
                other => return Err(format!("unknown option {other:?}")),
            }
        }
        o.save_path = save.unwrap_or_else(session::default_save_path);
        Ok(o)
    }

    /// Whether a flag chose something about the game (so a new game starts).
    pub fn chooses_game(&self) -> bool {
        self.opponent.is_some()
            || self.color.is_some()
            || self.time.is_some()
            || self.seed.is_some()
    }

    /// The settings of a new game from the flags, with defaults for the rest.
    pub fn settings(&self) -> Settings {
        Settings::new(
            self.opponent
                .unwrap_or(Opponent::Computer(engine::Level::Normal)),
            self.color.unwrap_or(Color::Black),
            self.time.unwrap_or(TimeControl::Unlimited),
            self.seed.unwrap_or_else(random_seed),
        )
    }
}

/// A seed from the system clock, for games without `--seed`.
pub fn random_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (t.as_nanos() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(std::process::id())
}

fn main() -> ExitCode {
    let opts = match Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("play: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let now = session::now();
    let resumed = if opts.new || opts.chooses_game() {
        None
    } else {
        match session::load(&opts.save_path, now) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("play: {e}; starting a new game");
                None
            }
        }
    };
    let result = if opts.plain {
        let m = resumed.unwrap_or_else(|| LocalMatch::new(opts.settings(), now));
        plain::run(m, &opts)
    } else {
        let start = match resumed {
            Some(m) => tui::Start::Resume(Box::new(m)),
            None if opts.chooses_game() => tui::Start::New(opts.settings()),
            None => tui::Start::Screen(opts.settings()),
        };
        tui::run(start, &opts)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("play: {e}");
            ExitCode::FAILURE
        }
    }
}
