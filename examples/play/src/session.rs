//! The state of one game as a frontend keeps it: the game record, the clock, who plays which
//! colour, and how the game ended. No IO here except [`Saved::load`] and [`Saved::store`].

use std::fmt;
use std::path::{Path, PathBuf};

use reversi::clock::{Clock, Millis, Span, TimeControl};
use reversi::core::{Color, Error, Game, Move, Outcome, Square, Turn};
use serde::{Deserialize, Serialize};

use crate::engine::Level;

/// Who plays against the person at the keyboard.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    /// A second person at the same keyboard.
    Human,
    /// The computer at a level.
    Computer(#[serde(with = "level_name")] Level),
}

/// A level in a save file: its name, written and read by `reversi-ai`'s `Display` and `FromStr`.
mod level_name {
    use super::Level;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    /// Writes the level's name.
    pub fn serialize<S: Serializer>(level: &Level, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(level)
    }

    /// Reads a level's name.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Level, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

impl fmt::Display for Opponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Opponent::Human => f.write_str("human"),
            Opponent::Computer(level) => write!(f, "{level}"),
        }
    }
}

impl std::str::FromStr for Opponent {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "human" => Ok(Opponent::Human),
            other => other.parse::<Level>().map(Opponent::Computer).map_err(|_| {
                format!("{s:?} is not an opponent (expected human, easy, normal or hard)")
            }),
        }
    }
}

/// The settings of a game, chosen on the start screen or with flags.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Settings {
    /// Who plays the other colour.
    pub opponent: Opponent,
    /// The colour of the person at the keyboard (against the computer).
    pub human: Color,
    /// The time control of both sides.
    pub time: TimeControl,
    /// The seed of the computer's choices.
    pub seed: u64,
}

impl Settings {
    /// Whether `color` is played by the computer.
    pub fn is_computer(&self, color: Color) -> bool {
        matches!(self.opponent, Opponent::Computer(_)) && color != self.human
    }

    /// The computer's level, if there is a computer.
    pub fn level(&self) -> Option<Level> {
        match self.opponent {
            Opponent::Computer(level) => Some(level),
            Opponent::Human => None,
        }
    }

    /// A one-line description: `you (black) against the computer (normal), 30 s a move`.
    pub fn describe(&self) -> String {
        let time = describe_control(self.time);
        match self.opponent {
            Opponent::Human => format!("two players, {time}"),
            Opponent::Computer(level) => {
                format!(
                    "you ({}) against the computer ({level}), {time}",
                    self.human
                )
            }
        }
    }
}

/// How a time control reads on screen.
pub fn describe_control(time: TimeControl) -> String {
    match time {
        TimeControl::Unlimited => "no time limit".to_string(),
        TimeControl::PerMove { limit } => format!("{} s a move", limit.as_secs()),
        TimeControl::Total { bank } => format!("{bank} each"),
        TimeControl::Combined { per_move, bank } => {
            format!("{} s a move, {bank} each", per_move.as_secs())
        }
        other => format!("{other:?}"),
    }
}

/// Parses a `--time` value: `unlimited`, `15`/`30`/`60` (seconds a move), a total time as
/// [`parse_total_time`](reversi::clock::parse_total_time) reads it (`10`, `10:00`, `5:30`,
/// `5.5` minutes), or `PERMOVE+TOTAL` (seconds a move, then the total).
pub fn parse_time(s: &str) -> Result<TimeControl, String> {
    let s = s.trim();
    let bad = |e: &dyn fmt::Display| format!("{s:?} is not a time control: {e}");
    match s {
        "unlimited" | "none" | "0" => return Ok(TimeControl::Unlimited),
        "15" | "30" | "60" => {
            let secs: u64 = s.parse().expect("a literal number");
            return Ok(TimeControl::per_move(Span::from_secs(secs)));
        }
        _ => {}
    }
    if let Some((per_move, total)) = s.split_once('+') {
        let secs: u64 = per_move
            .trim()
            .parse()
            .map_err(|_| bad(&"the part before + is whole seconds a move"))?;
        if secs == 0 {
            return Err(bad(&"the seconds a move must be positive"));
        }
        let bank = reversi::clock::parse_total_time(total).map_err(|e| bad(&e))?;
        return Ok(TimeControl::combined(Span::from_secs(secs), bank));
    }
    reversi::clock::parse_total_time(s)
        .map(TimeControl::total)
        .map_err(|e| bad(&e))
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum End {
    /// Neither side can move: the discs decide.
    Board(Outcome),
    /// `loser` ran out of time.
    Time {
        /// The side whose time ran out.
        loser: Color,
    },
}

impl End {
    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            End::Board(outcome) => outcome.winner(),
            End::Time { loser } => Some(!loser),
        }
    }
}

/// Why a move was refused. The game is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Refused {
    /// The rules refused it.
    Rules(Error),
    /// The game is already over.
    Over,
    /// It is the computer's turn.
    NotYourTurn,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Rules(e) => write!(f, "{e}"),
            Refused::Over => f.write_str("the game is over"),
            Refused::NotYourTurn => f.write_str("it is the computer's turn"),
        }
    }
}

/// One game in progress: record, clock and settings.
#[derive(Clone, Debug)]
pub struct Match {
    /// The settings it was started with.
    pub settings: Settings,
    /// The record of moves and passes.
    pub game: Game,
    /// Both sides' clocks: side 0 is black, side 1 white.
    pub clock: Clock,
    /// How it ended, once it has.
    pub end: Option<End>,
}

/// The clock side of a colour.
pub fn side(color: Color) -> usize {
    color.index()
}

/// The colour of a clock side.
fn color_of(side: usize) -> Color {
    if side == 0 {
        Color::Black
    } else {
        Color::White
    }
}

impl Match {
    /// A new game from the start position; black's clock runs from `now`.
    pub fn new(settings: Settings, now: Millis) -> Match {
        let mut clock = Clock::new(settings.time, 2);
        clock
            .start(now, side(Color::Black))
            .expect("a new clock starts");
        Match {
            settings,
            game: Game::new(),
            clock,
            end: None,
        }
    }

    /// The side to move, `None` once the game is over.
    pub fn to_move(&self) -> Option<Color> {
        (self.end.is_none()).then(|| self.game.position().side_to_move())
    }

    /// Whether the computer is to move.
    pub fn computer_to_move(&self) -> bool {
        self.to_move().is_some_and(|c| self.settings.is_computer(c))
    }

    /// Time left for `color`, `None` without a time limit.
    pub fn remaining(&self, color: Color, now: Millis) -> Option<Span> {
        self.clock.remaining(side(color), now)
    }

    /// Notices a flag that fell by `now`; returns the end it caused, if it is new.
    pub fn tick(&mut self, now: Millis) -> Option<End> {
        if self.end.is_some() {
            return None;
        }
        self.clock.handle_timeout(now);
        // A flag that falls now is also the clock's state: the events add nothing to it.
        while self.clock.poll_event().is_some() {}
        let (flagged, _) = self.clock.flagged()?;
        let end = End::Time {
            loser: color_of(flagged),
        };
        self.end = Some(end);
        Some(end)
    }

    /// Plays `square` for the side to move at `now` (the computer's move, or a person's),
    /// switching the clock. A flag that fell before `now` ends the game first and refuses the
    /// move.
    pub fn play(&mut self, square: Square, now: Millis) -> Result<Turn, Refused> {
        self.tick(now);
        if self.end.is_some() {
            return Err(Refused::Over);
        }
        let turn = self.game.play(square).map_err(Refused::Rules)?;
        let next = self.game.position().side_to_move();
        // Cannot flag after tick() at the same instant; end on time if it does all the same.
        if let Err(reversi::clock::ClockError::Flagged { side, .. }) =
            self.clock.switch(now, side(next))
        {
            let _ = self.game.undo();
            self.end = Some(End::Time {
                loser: color_of(side),
            });
            return Err(Refused::Over);
        }
        if let Some(outcome) = turn.outcome {
            let _ = self.clock.stop(now);
            self.end = Some(End::Board(outcome));
        }
        Ok(turn)
    }

    /// Plays a person's move: refused while it is the computer's turn.
    pub fn play_human(&mut self, square: Square, now: Millis) -> Result<Turn, Refused> {
        if self.computer_to_move() {
            return Err(Refused::NotYourTurn);
        }
        self.play(square, now)
    }

    /// Takes back a move: against the computer, the person's last move with the computer's
    /// reply (a pair); between two people, the last move. The clocks go back to what they were
    /// then. Returns how many placements were taken back.
    pub fn undo(&mut self, now: Millis) -> Result<usize, Error> {
        let before = self.placements();
        match self.settings.opponent {
            Opponent::Computer(_) => self.game.undo_turn(self.settings.human).map(|_| ())?,
            Opponent::Human => self.game.undo()?,
        }
        let undone = before - self.placements();
        let undone_clock = undone.min(self.clock.switches());
        if self.clock.undo(now, undone_clock).is_err() || !self.clock_matches() {
            // The clock and the record disagree (a save edited by hand): start the turn afresh.
            self.restart_clock(now);
        }
        self.end = None;
        Ok(undone)
    }

    fn clock_matches(&self) -> bool {
        self.clock.running_side() == Some(side(self.game.position().side_to_move()))
            || self.clock.is_paused()
    }

    fn restart_clock(&mut self, now: Millis) {
        let mut clock = Clock::new(self.settings.time, 2);
        let _ = clock.start(now, side(self.game.position().side_to_move()));
        self.clock = clock;
    }

    /// The number of placements (passes not counted).
    pub fn placements(&self) -> usize {
        self.game
            .plies()
            .iter()
            .filter(|p| p.mv != Move::Pass)
            .count()
    }

    /// The end of a game loaded from a save: a finished record or a flag while away.
    pub fn settle_loaded(&mut self, now: Millis) {
        if let Some(outcome) = self.game.outcome() {
            self.end = Some(End::Board(outcome));
            return;
        }
        if !self.clock_matches() && self.clock.flagged().is_none() {
            self.restart_clock(now);
        }
        self.tick(now);
    }

    /// The save of this game.
    pub fn to_saved(&self) -> Saved {
        Saved {
            version: 1,
            settings: self.settings,
            game: self.game.clone(),
            clock: self.clock.clone(),
        }
    }
}

/// What a save file holds: the settings, the moves and the clock state, as JSON.
#[derive(Serialize, Deserialize)]
pub struct Saved {
    /// The format version, 1.
    pub version: u32,
    /// The settings.
    pub settings: Settings,
    /// The moves (with passes).
    pub game: Game,
    /// The clock, timestamps in wall-clock milliseconds: the time away counts when loaded.
    pub clock: Clock,
}

impl Saved {
    /// Reads a save; `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<Saved>, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| format!("cannot read the saved game {}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        }
    }

    /// Writes the save atomically (a temporary file renamed over the old one).
    pub fn store(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let json = serde_json::to_string_pretty(self).expect("a save serialises");
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, json)
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot save the game to {}: {e}", path.display()))
    }

    /// The game it holds, continued at `now`.
    pub fn into_match(self, now: Millis) -> Match {
        let mut m = Match {
            settings: self.settings,
            game: self.game,
            clock: self.clock,
            end: None,
        };
        m.settle_loaded(now);
        m
    }
}

/// Deletes a save (a finished game is not resumed).
pub fn remove_save(path: &Path) {
    let _ = std::fs::remove_file(path);
}

/// The default save file: `$XDG_DATA_HOME/reversi/game.json`, else
/// `~/.local/share/reversi/game.json` (`%APPDATA%\reversi\game.json` on Windows).
pub fn default_save_path() -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = env("XDG_DATA_HOME")
        .or_else(|| env("APPDATA"))
        .or_else(|| env("HOME").map(|h| h.join(".local").join("share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("reversi").join("game.json")
}

/// The wall clock now, in the clock crate's milliseconds.
pub fn now() -> Millis {
    Millis::from_system_time(std::time::SystemTime::now())
}

/// A clock reading for screens: `1:05`, `0:09.4` under ten seconds, `--` without a limit.
pub fn show_time(left: Option<Span>) -> String {
    match left {
        None => "--".to_string(),
        Some(span) if span.as_millis() < 10_000 => {
            format!(
                "0:{:02}.{}",
                span.as_secs(),
                (span.as_millis() % 1000) / 100
            )
        }
        Some(span) => {
            let s = span.as_secs();
            format!("{}:{:02}", s / 60, s % 60)
        }
    }
}
