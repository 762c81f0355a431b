//! The game as the terminal keeps it: the facade's local match ([`reversi::local::LocalMatch`]:
//! record, clock, settings, result), with what only the terminal needs around it: how settings
//! and times read on screen, and the save file. No IO here except [`load`] and [`store`].

use std::fmt;
use std::path::{Path, PathBuf};

use reversi::clock::{Millis, Span, TimeControl};
use reversi::local::LoadError;

pub use reversi::local::{EndReason, LocalError, LocalMatch, MatchResult, Opponent, Settings};

/// A one-line description of the settings: `you (black) against the computer (normal), 30 s a
/// move`, or `two players, no time limit`.
pub fn describe(settings: &Settings) -> String {
    let time = describe_control(settings.time);
    match settings.opponent {
        Opponent::Person => format!("two players, {time}"),
        Opponent::Computer(level) => {
            format!(
                "you ({}) against the computer ({level}), {time}",
                settings.human
            )
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

/// The number of placements made (passes not counted).
pub fn placements(m: &LocalMatch) -> usize {
    m.game()
        .plies()
        .iter()
        .filter(|p| p.mv != reversi::core::Move::Pass)
        .count()
}

/// Reads the save at `path` and continues its game at `now` (a flag that fell while away ends
/// it on time); `Ok(None)` when there is none.
pub fn load(path: &Path, now: Millis) -> Result<Option<LocalMatch>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => match LocalMatch::load_json(&text, now) {
            Ok(m) => Ok(Some(m)),
            Err(e @ LoadError::Version(_)) => Err(format!(
                "cannot resume the saved game {}: {e}; delete it or start with --new",
                path.display()
            )),
            Err(e) => Err(format!(
                "cannot read the saved game {}: {e}",
                path.display()
            )),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Writes the save of `m` atomically (a temporary file renamed over the old one).
pub fn store(m: &LocalMatch, path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let json = m.save_json(true);
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, json)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot save the game to {}: {e}", path.display()))
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
