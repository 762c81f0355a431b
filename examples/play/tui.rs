//! The board in a terminal (work in progress).

use crate::session::{Match, Settings};
use crate::Options;

/// How the UI begins.
pub enum Start {
    /// Go on with a saved game.
    Resume(Box<Match>),
    /// Start a game with these settings at once.
    New(Settings),
    /// Show the start screen, with these settings chosen at first.
    Screen(Settings),
}

/// Runs the terminal UI.
pub fn run(_start: Start, _opts: &Options) -> std::io::Result<()> {
    Ok(())
}
