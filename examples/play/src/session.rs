//! The game as the terminal keeps it: the facade's local match ([`reversi::local::LocalMatch`]:
//! record, clock, settings, result), with what only the terminal needs around it: how settings
//! and times read on screen, and the save file. No IO here except [`load`] and [`store`].

use std::fmt;
use std::path::{Path, PathBuf};

use reversi::clock::{Millis, ParseTimeError, Span, TimeControl};
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
        TimeControl::PerMove { limit } => format!("{} a move", per_move(limit)),
        TimeControl::Total { bank } => format!("{bank} each"),
        TimeControl::Combined { per_move, bank } => {
            format!("{} a move, {bank} each", self::per_move(per_move))
        }
        other => format!("{other:?}"),
    }
}

/// A time for one move: `15 s`, or `1:30` from a minute on.
fn per_move(limit: Span) -> String {
    if limit.as_millis() <= 60_000 && limit.as_millis().is_multiple_of(1000) {
        format!("{} s", limit.as_secs())
    } else {
        limit.to_string()
    }
}

/// Parses a `--per-move` value: whole seconds (`15`), or `m:ss` (`0:15`, `1:30`). Zero is
/// refused (no flag means no limit).
pub fn parse_per_move(s: &str) -> Result<Span, String> {
    let t = s.trim();
    let bad = |e: &dyn fmt::Display| format!("--per-move {t:?}: {e}");
    if t.contains(':') {
        return reversi::clock::parse_total_time(t).map_err(|e| bad(&e));
    }
    let secs: u64 = t
        .parse()
        .map_err(|_| bad(&"give whole seconds a move, such as 15, or m:ss, such as 1:30"))?;
    if secs == 0 {
        return Err(bad(
            &"the time for a move must be more than zero; leave --per-move out for no limit",
        ));
    }
    Ok(Span::from_secs(secs))
}

/// Parses a `--total` value as [`parse_total_time`](reversi::clock::parse_total_time) reads it:
/// `10` or `10:00` (minutes), `5:30`, `5.5`, `1:30:00`. Zero is refused (no flag means no
/// limit).
pub fn parse_total(s: &str) -> Result<Span, String> {
    let t = s.trim();
    reversi::clock::parse_total_time(t).map_err(|e| {
        let hint = if e == ParseTimeError::NotPositive {
            "; leave --total out for no limit"
        } else {
            ""
        };
        format!("--total {t:?}: {e}{hint}")
    })
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
                "cannot resume the saved game {}: {e}; start with --new to replace it",
                path.display()
            )),
            Err(e) => Err(format!(
                "cannot read the saved game {}: {e}; start with --new to replace it",
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
