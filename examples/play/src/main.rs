//! `play`: Reversi in a terminal, against the computer or between two people at one keyboard.
//!
//! ```sh
//! cargo run --release -p reversi-play                      # start screen (or resume a saved game)
//! cargo run --release -p reversi-play -- --opponent hard --color white --total 5:00
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

use reversi::clock::{Span, TimeControl};
use reversi::core::Color;

use session::{LocalMatch, Opponent, Settings};

const USAGE: &str = "\
usage: play [options]

  --opponent human|easy|normal|hard|expert
                                      who plays the other colour (default: normal)
  --color black|white                 your colour against the computer (default: black)
  --per-move SECONDS                  time for each move: 15 or 0:15 (seconds, or m:ss)
  --total TIME                        each side's time for the whole game: 10 or 10:00
                                      (minutes), 5:30, 5.5 or 1:30:00
                                      Both flags together: a combined control (each move
                                      within SECONDS, the game within TIME). Neither: no
                                      time limit. Zero is refused: leave the flag out.
  --seed S                            seed of the computer's choices
  --threads N                         threads of the Expert level's search (default: the
                                      machine's cores; always one when the game is
                                      reproducible)
  --no-hints                          start with the legal-move marks off
  --reduced-motion                    turn discs without animation
  --mute                              start without the sound
  --save FILE                         save and resume the game in FILE
                                      (default: $XDG_DATA_HOME/reversi/game.json)
  --new                               ignore a saved game and start a new one
  --plain                             line mode: no cursor addressing, no colour
  --quiet                             in line mode, print the board only at the start and
                                      when asked (board), not after every move
  -h, --help                          this help

Keys: arrows move the cursor, Enter or Space plays, u takes back (your move and the computer's
reply as a pair; one move between two people), h shows hints, l turns the legal-move marks on
and off, m turns the sound on and off, n offers a new game, q saves and quits.

Plain mode commands: a square such as d3, pass, undo, hint, board, describe d3, moves, help, quit.

A game in progress is saved after every move and resumed when the program starts again without
--opponent, --color, --per-move, --total, --seed or --new. With one of those flags while a game
is saved, the program stops and says so rather than discarding it: add --new to start the new
game (the saved one is then replaced). Without those flags and without a saved game, a start
screen lets you choose.

The board: [ ] the cursor, + a legal move (or 1, 2, ... the hints' ranks), * a disc that the
move at the cursor turns, the last move underlined (and named under the board). NO_COLOR (set
and not empty) draws it without colours, with X for black and O for white.

--time (15, 30, 60 meant seconds a move, other numbers minutes each) is gone: use --per-move and
--total, which say what they mean.";

/// The command line.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--opponent`.
    pub opponent: Option<Opponent>,
    /// `--color`.
    pub color: Option<Color>,
    /// `--per-move`: the time for each move.
    pub per_move: Option<Span>,
    /// `--total`: each side's time for the game.
    pub total: Option<Span>,
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
    /// `--quiet`: in line mode, no board after every move.
    pub quiet: bool,
    /// `--threads`: the computer's search threads (default: the machine's cores).
    pub threads: Option<u32>,
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
                "--per-move" => o.per_move = Some(session::parse_per_move(&value("--per-move")?)?),
                "--total" => o.total = Some(session::parse_total(&value("--total")?)?),
                "--time" => {
                    return Err(
                        "--time is gone (15, 30 and 60 meant seconds a move, other numbers \
                                minutes each): use --per-move SECONDS for a limit on each move, \
                                --total TIME for each side's time for the game, or both"
                            .to_string(),
                    )
                }
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
                "--quiet" => o.quiet = true,
                "--threads" => {
                    let v = value("--threads")?;
                    o.threads = Some(
                        v.parse()
                            .ok()
                            .filter(|&n: &u32| (1..=256).contains(&n))
                            .ok_or_else(|| format!("--threads: {v:?} is not 1 to 256"))?,
                    );
                }
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
            || self.per_move.is_some()
            || self.total.is_some()
            || self.seed.is_some()
    }

    /// The time control that `--per-move` and `--total` choose: per move, total, both
    /// (combined), or unlimited without either.
    pub fn time_control(&self) -> TimeControl {
        match (self.per_move, self.total) {
            (None, None) => TimeControl::Unlimited,
            (Some(limit), None) => TimeControl::per_move(limit),
            (None, Some(bank)) => TimeControl::total(bank),
            (Some(per_move), Some(bank)) => TimeControl::combined(per_move, bank),
        }
    }

    /// The settings of a new game from the flags, with defaults for the rest.
    pub fn settings(&self) -> Settings {
        Settings::new(
            self.opponent
                .unwrap_or(Opponent::Computer(engine::Level::Normal)),
            self.color.unwrap_or(Color::Black),
            self.time_control(),
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

/// Why the program stops rather than replace the saved game `saved` with the game that the
/// flags choose.
pub fn protect_message(opts: &Options, saved: &LocalMatch) -> String {
    let flags: Vec<&str> = [
        (opts.opponent.is_some(), "--opponent"),
        (opts.color.is_some(), "--color"),
        (opts.per_move.is_some(), "--per-move"),
        (opts.total.is_some(), "--total"),
        (opts.seed.is_some(), "--seed"),
    ]
    .into_iter()
    .filter_map(|(given, flag)| given.then_some(flag))
    .collect();
    format!(
        "a game is saved in {} ({}, {} moves played); {} would start a new game and replace it. \
         Run without {} to resume the saved game, or add --new to replace it.",
        opts.save_path.display(),
        session::describe(saved.settings()),
        session::placements(saved),
        flags.join(", "),
        if flags.len() == 1 { "it" } else { "them" },
    )
}

fn main() -> ExitCode {
    let opts = match Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("play: {e}\n(play --help lists the options)");
            return ExitCode::from(2);
        }
    };
    // The machine's cores unless asked (docs/engine.md, "Threads").
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get().min(256) as u32);
    engine::set_threads(opts.threads.unwrap_or(cores));
    let now = session::now();
    let resumed = if opts.new {
        None
    } else {
        match session::load(&opts.save_path, now) {
            // A finished game (a flag fell while away) is shown unless a new game is asked for.
            Ok(Some(m)) if m.is_over() && opts.chooses_game() => None,
            Ok(Some(m)) if opts.chooses_game() => {
                eprintln!("play: {}", protect_message(&opts, &m));
                return ExitCode::from(2);
            }
            Ok(m) => m,
            Err(e) => {
                eprintln!("play: {e}");
                return ExitCode::FAILURE;
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
