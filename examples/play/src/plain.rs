//! `--plain`: a line mode for screen readers, scripts and tests. No cursor addressing, no
//! colour; it reads commands line by line and works with piped stdin.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use reversi::core::{Color, Move, Position, Square, Turn};

use crate::engine;
use crate::session::{self, EndReason, LocalError, LocalMatch, MatchResult};
use crate::Options;

/// Runs a game in line mode until it ends, the input ends, or `quit`.
pub fn run(mut m: LocalMatch, opts: &Options) -> std::io::Result<()> {
    let mut ui = Plain {
        out: std::io::stdout().lock(),
        bell: !opts.mute && std::io::stdout().is_terminal(),
        show_legal: !opts.no_hints,
        reproducible: !std::io::stdin().is_terminal(),
        opts,
    };
    let lines = spawn_reader();
    writeln!(ui.out, "reversi: {}", session::describe(m.settings()))?;
    if !m.game().plies().is_empty() {
        writeln!(
            ui.out,
            "resumed the saved game after {} moves: {}",
            session::placements(&m),
            m.game().transcript()
        )?;
    }
    writeln!(
        ui.out,
        "type a square such as d3 to play, or help for the commands"
    )?;
    ui.board(m.game().position())?;
    loop {
        if let Some(end) = m.result() {
            session::remove_save(&opts.save_path);
            return ui.result(&m, end);
        }
        if m.computer_to_move() {
            ui.computer_turn(&mut m)?;
            continue;
        }
        ui.prompt(&m)?;
        let line = loop {
            let timeout = until_deadline(&m);
            match lines.recv_timeout(timeout) {
                Ok(line) => break Some(line),
                Err(RecvTimeoutError::Timeout) => {
                    if m.handle_timeout(session::now()) {
                        break None;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break Some(None),
            }
        };
        let Some(line) = line else {
            continue; // the flag fell: the loop reports the end
        };
        let Some(line) = line else {
            // End of input: keep the game for next time.
            ui.save(&m)?;
            writeln!(ui.out, "input closed; the game is saved")?;
            return Ok(());
        };
        if !ui.command(&mut m, line.trim())? {
            return Ok(());
        }
    }
}

/// How long the main loop may wait before it must look at the clock.
fn until_deadline(m: &LocalMatch) -> Duration {
    match m.clock().poll_timeout() {
        Some(deadline) => {
            let ms = deadline.saturating_since(session::now()).as_millis();
            Duration::from_millis(ms.clamp(1, 1000))
        }
        None => Duration::from_secs(3600),
    }
}

/// Reads stdin on a thread: `Some(line)` per line, then `None` at the end of input.
fn spawn_reader() -> Receiver<Option<String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            match line {
                Ok(l) => {
                    if tx.send(Some(l)).is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = tx.send(None);
    });
    rx
}

struct Plain<'a, W: Write> {
    out: W,
    bell: bool,
    show_legal: bool,
    reproducible: bool,
    opts: &'a Options,
}

/// The board as text: a header of columns, 8 rows numbered 1 to 8 of `X` (black), `O` (white)
/// and `.` (empty), and a legend line.
pub fn board_rows(pos: &Position) -> String {
    let mut s = String::with_capacity(220);
    s.push_str("  a b c d e f g h\n");
    for row in 0..8u8 {
        s.push_str(&format!("{} ", row + 1));
        for col in 0..8u8 {
            let sq = Square::from_coords(col, row).expect("on the board");
            s.push(pos.color_at(sq).map_or('.', Color::to_char));
            s.push(if col < 7 { ' ' } else { '\n' });
        }
    }
    s.push_str(&format!(
        "  X black {}, O white {}, . empty\n",
        pos.count(Color::Black),
        pos.count(Color::White)
    ));
    s
}

/// The `hint` command's answer: `hints for black, best first, in estimated discs: d3 +2, ...`
/// (the unit is [`engine::ESTIMATE_UNIT`]), or exact disc margins near the end.
pub fn hints_line(mover: Color, hints: &[engine::Hint]) -> String {
    if hints.is_empty() {
        return "hints: none (no move to score)".to_string();
    }
    let (scale, mark) = engine::hint_scale(hints);
    let list: Vec<String> = hints
        .iter()
        .map(|h| {
            let exact = if mark && h.exact { " exact" } else { "" };
            format!("{} {}{exact}", h.square, h.score_text(false))
        })
        .collect();
    format!(
        "hints for {mover}, best first, {scale}: {}",
        list.join(", ")
    )
}

fn legal_list(pos: &Position) -> String {
    let moves: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    moves.join(" ")
}

impl<W: Write> Plain<'_, W> {
    fn board(&mut self, pos: &Position) -> std::io::Result<()> {
        write!(self.out, "{}", board_rows(pos))
    }

    fn prompt(&mut self, m: &LocalMatch) -> std::io::Result<()> {
        let pos = m.game().position();
        let color = pos.side_to_move();
        let mut line = format!(
            "{color} to move, black {} white {}",
            pos.count(Color::Black),
            pos.count(Color::White)
        );
        if m.settings().time.is_timed() {
            let now = session::now();
            line += &format!(
                ", clocks black {} white {}",
                session::show_time(m.remaining(Color::Black, now)),
                session::show_time(m.remaining(Color::White, now))
            );
        }
        if self.show_legal {
            line += &format!(" (legal: {})", legal_list(pos));
        }
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn save(&mut self, m: &LocalMatch) -> std::io::Result<()> {
        if !m.is_over() {
            if let Err(e) = session::store(m, &self.opts.save_path) {
                writeln!(self.out, "warning: {e}")?;
            }
        }
        Ok(())
    }

    fn turn(&mut self, m: &LocalMatch, turn: &Turn) -> std::io::Result<()> {
        let who = if m.settings().is_computer(turn.color) {
            " (computer)"
        } else {
            ""
        };
        let flips: Vec<String> = turn.flips.iter().map(|s| s.to_string()).collect();
        writeln!(
            self.out,
            "{}{who} plays {}, flips {}",
            turn.color,
            turn.square,
            flips.join(" ")
        )?;
        if let Some(passer) = turn.passed {
            writeln!(
                self.out,
                "{passer} passes: no legal move; {} moves again",
                !passer
            )?;
        }
        if !self.opts.quiet {
            self.board(m.game().position())?;
        }
        if self.bell {
            write!(self.out, "\x07")?;
        }
        self.save(m)
    }

    fn result(&mut self, m: &LocalMatch, end: MatchResult) -> std::io::Result<()> {
        let pos = m.game().position();
        let (b, w) = (pos.count(Color::Black), pos.count(Color::White));
        match (end.reason, end.winner) {
            (EndReason::Timeout { .. }, Some(winner)) => {
                writeln!(self.out, "{} ran out of time: {winner} wins", !winner)?;
            }
            (EndReason::Resigned { .. }, Some(winner)) => {
                writeln!(self.out, "{} resigns: {winner} wins", !winner)?;
            }
            (_, Some(c)) => writeln!(self.out, "game over: {c} wins")?,
            (_, None) => writeln!(self.out, "game over: a draw")?,
        }
        let verdict = match end.winner {
            Some(Color::Black) => "black-wins",
            Some(Color::White) => "white-wins",
            None => "draw",
        };
        writeln!(self.out, "result: black {b} white {w} {verdict}")?;
        self.out.flush()
    }

    fn computer_turn(&mut self, m: &mut LocalMatch) -> std::io::Result<()> {
        let now = session::now();
        let Some(mut thinking) = engine::Thinking::start(m, m.think_budget(now), self.reproducible)
        else {
            return Ok(());
        };
        loop {
            match thinking.wait(until_deadline(m).min(Duration::from_millis(200))) {
                Some(Ok(square)) => {
                    match m.play_computer(square, session::now()) {
                        Ok(turn) => self.turn(m, &turn)?,
                        Err(LocalError::GameOver) => {}
                        Err(e) => writeln!(self.out, "error: the computer's move {square}: {e}")?,
                    }
                    return Ok(());
                }
                Some(Err(e)) => {
                    writeln!(self.out, "error: the computer failed: {e}")?;
                    std::process::exit(2);
                }
                None => {
                    if m.handle_timeout(session::now()) {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Runs one command; `false` to leave.
    fn command(&mut self, m: &mut LocalMatch, line: &str) -> std::io::Result<bool> {
        let mut words = line.split_whitespace();
        let Some(word) = words.next() else {
            writeln!(
                self.out,
                "error: empty line; type a square such as d3, or help"
            )?;
            return Ok(true);
        };
        let rest: Vec<&str> = words.collect();
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => {
                self.save(m)?;
                writeln!(
                    self.out,
                    "the game is saved to {}; run again to resume it",
                    self.opts.save_path.display()
                )?;
                return Ok(false);
            }
            "help" | "?" => writeln!(
                self.out,
                "commands: a square such as d3 plays there; pass; undo; hint; board; \
                 describe d3; moves; quit"
            )?,
            "board" => self.board(m.game().position())?,
            "moves" | "legal" => writeln!(self.out, "legal: {}", legal_list(m.game().position()))?,
            "pass" | "ps" => {
                let pos = m.game().position();
                let e = pos.play(Move::Pass).err();
                match e {
                    Some(e) => writeln!(
                        self.out,
                        "error: {e} (passes are made for you when you have no move)"
                    )?,
                    None => writeln!(self.out, "passes are made automatically")?,
                }
            }
            "undo" => match m.undo(session::now()) {
                Ok(n) => {
                    let moves = if n == 1 { "move" } else { "moves" };
                    writeln!(self.out, "took back {n} {moves}")?;
                    self.board(m.game().position())?;
                    self.save(m)?;
                }
                Err(e) => writeln!(self.out, "error: {e}")?,
            },
            "hint" | "hints" => {
                let pos = *m.game().position();
                let hints = engine::Hints::start(pos).wait();
                writeln!(self.out, "{}", hints_line(pos.side_to_move(), &hints))?;
            }
            "describe" => match rest.first().map(|s| s.parse::<Square>()) {
                Some(Ok(sq)) => {
                    let info = m.game().position().describe_squares()[sq.index() as usize];
                    writeln!(self.out, "{info}")?;
                }
                Some(Err(e)) => writeln!(self.out, "error: {e}")?,
                None => writeln!(
                    self.out,
                    "error: describe needs a square, such as describe d3"
                )?,
            },
            _ => match word.parse::<Square>() {
                Ok(sq) if rest.is_empty() => match m.play(sq, session::now()) {
                    Ok(turn) => self.turn(m, &turn)?,
                    Err(e) => writeln!(self.out, "error: {e}")?,
                },
                Ok(_) => writeln!(self.out, "error: one square at a time, such as d3")?,
                Err(_) => writeln!(
                    self.out,
                    "error: {word:?} is not a square (a1 to h8) or a command; type help"
                )?,
            },
        }
        Ok(true)
    }
}
