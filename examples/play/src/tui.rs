//! The board in a terminal, drawn with crossterm: a start screen, the game with cursor,
//! legal-move marks, move preview, animated flips, clocks, move history and hints, and the
//! result screen. Laid out for 80x24 first; bigger terminals get a bigger board and more
//! history. Everything that matters is told by text and attributes as well as by colour, so
//! that `NO_COLOR` loses nothing.

use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};

use crossterm::cursor::{Hide, MoveTo, Show};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{
    Attribute, Color as Tc, Print, ResetColor, SetAttribute, SetBackgroundColor, SetForegroundColor,
};
use crossterm::terminal::{self, Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{execute, queue};
use reversi::clock::{Span, TimeControl};
use reversi::core::{Color, Move, Square, Turn};

use crate::engine::{hint_scale, Hint, Hints, Level, Thinking};
use crate::session::{self, EndReason, LocalError, LocalMatch, Opponent, Settings};
use crate::Options;

/// How the UI begins.
pub enum Start {
    /// Go on with a saved game.
    Resume(Box<LocalMatch>),
    /// Start a game with these settings at once.
    New(Settings),
    /// Show the start screen, with these settings chosen at first.
    Screen(Settings),
}

/// Runs the terminal UI until the player quits.
pub fn run(start: Start, opts: &Options) -> io::Result<()> {
    let mut stdout = io::stdout();
    terminal::enable_raw_mode()?;
    execute!(stdout, EnterAlternateScreen, Hide)?;
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = restore();
        default_hook(info);
    }));
    let result = App::new(start, opts).run();
    restore()?;
    if let Ok(Some(msg)) = &result {
        println!("{msg}");
    }
    result.map(|_| ())
}

fn restore() -> io::Result<()> {
    let mut stdout = io::stdout();
    execute!(stdout, ResetColor, Show, LeaveAlternateScreen)?;
    terminal::disable_raw_mode()
}

/// Time for one disc to turn in the flip animation.
const FLIP_STEP: Duration = Duration::from_millis(90);

/// The time controls offered on the start screen.
fn time_choices() -> Vec<TimeControl> {
    vec![
        TimeControl::Unlimited,
        TimeControl::per_move(Span::from_secs(15)),
        TimeControl::per_move(Span::from_secs(30)),
        TimeControl::per_move(Span::from_secs(60)),
        TimeControl::total(Span::from_mins(5)),
        TimeControl::total(Span::from_mins(10)),
        TimeControl::combined(Span::from_secs(30), Span::from_mins(10)),
    ]
}

/// The opponents offered on the start screen, in their order there (a table: a new level is
/// one more entry).
const OPPONENTS: [Opponent; 5] = [
    Opponent::Computer(Level::Easy),
    Opponent::Computer(Level::Normal),
    Opponent::Computer(Level::Hard),
    Opponent::Computer(Level::Expert),
    Opponent::Person,
];

/// Discs turning one by one after a move: `squares[shown..]` still show the old colour.
struct Anim {
    squares: Vec<Square>,
    shown: usize,
    old: Color,
    next: Instant,
}

/// The start screen's choices.
struct Menu {
    row: usize,
    opponent: usize,
    color: Color,
    times: Vec<TimeControl>,
    time: usize,
    seed: u64,
}

impl Menu {
    fn new(s: Settings) -> Menu {
        let mut times = time_choices();
        let time = match times.iter().position(|t| *t == s.time) {
            Some(i) => i,
            None => {
                times.push(s.time);
                times.len() - 1
            }
        };
        Menu {
            row: 0,
            opponent: OPPONENTS.iter().position(|o| *o == s.opponent).unwrap_or(1),
            color: s.human,
            times,
            time,
            seed: s.seed,
        }
    }

    fn settings(&self) -> Settings {
        Settings {
            opponent: OPPONENTS[self.opponent],
            human: self.color,
            time: self.times[self.time],
            seed: self.seed,
        }
    }

    /// Moves the selection `step` rows down (up if negative), over the four rows (opponent,
    /// colour, time, start); the colour row is skipped between two people, who play both.
    fn step_row(&mut self, step: isize) {
        loop {
            self.row = (self.row as isize + step).rem_euclid(4) as usize;
            if !(self.row == 1 && OPPONENTS[self.opponent] == Opponent::Person) {
                break;
            }
        }
    }

    fn change(&mut self, step: isize) {
        let turn = |i: usize, n: usize| (i as isize + step).rem_euclid(n as isize) as usize;
        match self.row {
            0 => self.opponent = turn(self.opponent, OPPONENTS.len()),
            1 if OPPONENTS[self.opponent] != Opponent::Person => self.color = !self.color,
            2 => self.time = turn(self.time, self.times.len()),
            _ => {}
        }
    }
}

enum Screen {
    Menu(Menu),
    Game,
}

/// A line under the board, in a colour.
struct Note {
    text: String,
    color: Tc,
}

struct App<'a> {
    opts: &'a Options,
    /// Whether to draw in colour (not when `NO_COLOR` is set and not empty).
    color: bool,
    screen: Screen,
    m: LocalMatch,
    cursor: (u8, u8),
    show_legal: bool,
    muted: bool,
    thinking: Option<Thinking>,
    think_started: Option<Instant>,
    hints_on: bool,
    hints_job: Option<Hints>,
    hints: Option<(usize, Vec<Hint>)>,
    anim: Option<Anim>,
    notes: Vec<Note>,
    /// A bell to ring on the next frame.
    bell: bool,
}

impl<'a> App<'a> {
    fn new(start: Start, opts: &'a Options) -> App<'a> {
        let now = session::now();
        let (screen, m, notes) = match start {
            Start::Resume(m) => {
                let note = Note {
                    text: format!(
                        "Resumed your saved game ({} moves). Press n for a new game.",
                        session::placements(&m)
                    ),
                    color: Tc::Cyan,
                };
                (Screen::Game, *m, vec![note])
            }
            Start::New(s) => (Screen::Game, LocalMatch::new(s, now), Vec::new()),
            Start::Screen(s) => (
                Screen::Menu(Menu::new(s)),
                LocalMatch::new(s, now),
                Vec::new(),
            ),
        };
        App {
            opts,
            color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            screen,
            m,
            cursor: (3, 2),
            show_legal: !opts.no_hints,
            muted: opts.mute,
            thinking: None,
            think_started: None,
            hints_on: false,
            hints_job: None,
            hints: None,
            anim: None,
            notes,
            bell: false,
        }
    }

    /// The main loop; returns a message to print after the terminal is restored.
    fn run(&mut self) -> io::Result<Option<String>> {
        let mut out = BufWriter::new(io::stdout());
        loop {
            self.update();
            let (width, height) = terminal::size().unwrap_or((80, 24));
            self.draw(&mut out, width, height)?;
            let busy = self.anim.is_some() || self.thinking.is_some() || self.hints_job.is_some();
            let timeout = if busy {
                Duration::from_millis(30)
            } else if self.m.settings().time.is_timed() && !self.m.is_over() {
                Duration::from_millis(100)
            } else {
                Duration::from_millis(500)
            };
            if event::poll(timeout)? {
                match event::read()? {
                    Event::Key(key) if key.kind != KeyEventKind::Release => {
                        if let Some(exit) = self.key(key) {
                            return Ok(exit);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    // ---- state ----

    fn save(&mut self) {
        if !matches!(self.screen, Screen::Game) {
            return;
        }
        if self.m.is_over() {
            session::remove_save(&self.opts.save_path);
        } else if let Err(e) = session::store(&self.m, &self.opts.save_path) {
            self.note(e, Tc::Red);
        }
    }

    fn note(&mut self, text: impl Into<String>, color: Tc) {
        self.notes.push(Note {
            text: text.into(),
            color,
        });
        if self.notes.len() > 2 {
            self.notes.remove(0);
        }
    }

    fn update(&mut self) {
        if !matches!(self.screen, Screen::Game) {
            return;
        }
        let now = session::now();
        if self.m.handle_timeout(now) {
            // The result line says who ran out of time.
            self.thinking = None;
            self.bell = !self.muted;
            self.save();
        }
        if let Some(anim) = &mut self.anim {
            while anim.shown < anim.squares.len() && Instant::now() >= anim.next {
                anim.shown += 1;
                anim.next += FLIP_STEP;
            }
            if anim.shown >= anim.squares.len() {
                self.anim = None;
            }
        }
        if let Some(job) = &self.hints_job {
            if let Some(h) = job.poll() {
                self.hints = Some((self.m.game().plies().len(), h));
                self.hints_job = None;
            }
        }
        if self.m.computer_to_move() {
            if self.thinking.is_none() {
                let budget = self.m.think_budget(now);
                self.thinking = Thinking::start(&self.m, budget, false);
                self.think_started = Some(Instant::now());
            }
            // The reply waits for the last move's discs to finish turning.
            let ready = self.anim.is_none()
                && self
                    .think_started
                    .is_some_and(|t| t.elapsed() > Duration::from_millis(250));
            if ready {
                if let Some(result) = self.thinking.as_mut().and_then(Thinking::poll) {
                    self.thinking = None;
                    match result {
                        Ok(square) => {
                            let played = self.m.play_computer(square, session::now());
                            if let Ok(turn) = played {
                                self.after_move(&turn);
                            }
                        }
                        Err(e) => self.note(format!("The computer failed: {e}"), Tc::Red),
                    }
                }
            }
        }
        if self.hints_on
            && self.hints_job.is_none()
            && !self.m.is_over()
            && !self.m.computer_to_move()
            && self.hints.as_ref().map(|h| h.0) != Some(self.m.game().plies().len())
        {
            self.hints = None;
            self.hints_job = Some(Hints::start(*self.m.game().position()));
        }
    }

    fn after_move(&mut self, turn: &Turn) {
        self.notes.clear();
        self.bell = !self.muted;
        if !self.opts.reduced_motion && !turn.flips.is_empty() {
            self.anim = Some(Anim {
                squares: turn.flips.clone(),
                shown: 0,
                old: !turn.color,
                next: Instant::now() + FLIP_STEP,
            });
        }
        if let Some(passer) = turn.passed {
            let name = self.player_name(passer);
            self.note(
                format!(
                    "{name} {} no legal move and {}: {} moves again.",
                    if name == "You" { "have" } else { "has" },
                    if name == "You" { "pass" } else { "passes" },
                    title(!passer)
                ),
                Tc::Yellow,
            );
        }
        if self.m.is_over() {
            self.thinking = None;
        }
        self.save();
    }

    fn player_name(&self, color: Color) -> String {
        match self.m.settings().opponent {
            Opponent::Person => title(color).to_string(),
            Opponent::Computer(_) if color == self.m.settings().human => "You".to_string(),
            Opponent::Computer(_) => "The computer".to_string(),
        }
    }

    fn new_game(&mut self, settings: Settings) {
        self.thinking = None;
        self.hints_job = None;
        self.hints = None;
        self.anim = None;
        self.notes.clear();
        self.m = LocalMatch::new(settings, session::now());
        self.screen = Screen::Game;
        self.cursor = (3, 2);
        self.save();
    }

    // ---- keys ----

    /// Handles a key; `Some` to leave the program with a message.
    fn key(&mut self, key: KeyEvent) -> Option<Option<String>> {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.save();
            return Some(None);
        }
        match &mut self.screen {
            Screen::Menu(menu) => match key.code {
                KeyCode::Up => menu.step_row(-1),
                KeyCode::Down | KeyCode::Tab => menu.step_row(1),
                KeyCode::Left => menu.change(-1),
                KeyCode::Right => menu.change(1),
                KeyCode::Enter | KeyCode::Char(' ') => {
                    if menu.row == 3 || key.code == KeyCode::Enter {
                        let s = menu.settings();
                        self.new_game(s);
                    } else {
                        menu.change(1);
                    }
                }
                KeyCode::Char('q') | KeyCode::Esc => return Some(None),
                _ => {}
            },
            Screen::Game => return self.game_key(key),
        }
        None
    }

    fn game_key(&mut self, key: KeyEvent) -> Option<Option<String>> {
        let (c, r) = self.cursor;
        match key.code {
            KeyCode::Left => self.cursor.0 = c.saturating_sub(1),
            KeyCode::Right => self.cursor.0 = (c + 1).min(7),
            KeyCode::Up => self.cursor.1 = r.saturating_sub(1),
            KeyCode::Down => self.cursor.1 = (r + 1).min(7),
            KeyCode::Enter | KeyCode::Char(' ') => self.play_cursor(),
            KeyCode::Char('u') | KeyCode::Backspace => self.undo(),
            KeyCode::Char('h') => {
                self.hints_on = !self.hints_on;
                if !self.hints_on {
                    self.hints_job = None;
                }
            }
            KeyCode::Char('l') | KeyCode::Char('d') => self.show_legal = !self.show_legal,
            KeyCode::Char('m') => {
                self.muted = !self.muted;
                let text = if self.muted {
                    "Sound off."
                } else {
                    "Sound on."
                };
                self.note(text, Tc::Cyan);
            }
            KeyCode::Char('n') => {
                let settings = Settings {
                    seed: crate::random_seed(),
                    ..*self.m.settings()
                };
                self.thinking = None;
                self.hints_job = None;
                self.screen = Screen::Menu(Menu::new(settings));
            }
            KeyCode::Char('q') | KeyCode::Esc => {
                self.save();
                let msg = if !self.m.is_over() {
                    format!(
                        "The game is saved to {}; run the program again to resume it.",
                        self.opts.save_path.display()
                    )
                } else {
                    "Thanks for playing.".to_string()
                };
                return Some(Some(msg));
            }
            _ => {}
        }
        None
    }

    fn cursor_square(&self) -> Square {
        Square::from_coords(self.cursor.0, self.cursor.1).expect("the cursor is on the board")
    }

    fn play_cursor(&mut self) {
        let square = self.cursor_square();
        if self.anim.is_some() {
            self.anim = None; // finish turning at once
        }
        match self.m.play(square, session::now()) {
            Ok(turn) => self.after_move(&turn),
            Err(LocalError::IllegalMove(e)) => self.note(format!("Not there: {e}."), Tc::Red),
            Err(LocalError::NotYourTurn) => self.note("Wait: the computer is thinking.", Tc::Red),
            Err(LocalError::GameOver) => {
                self.note("The game is over: n for a new game, q to quit.", Tc::Red)
            }
            Err(e) => self.note(format!("Not now: {e}."), Tc::Red),
        }
    }

    fn undo(&mut self) {
        self.thinking = None;
        self.anim = None;
        self.hints = None;
        self.hints_job = None;
        match self.m.undo(session::now()) {
            Ok(n) => {
                self.notes.clear();
                let moves = if n == 1 { "move" } else { "moves" };
                self.note(format!("Took back {n} {moves}."), Tc::Cyan);
                self.save();
            }
            Err(e) => self.note(format!("Cannot undo: {e}."), Tc::Red),
        }
    }

    // ---- drawing ----

    /// Draws the screen for a terminal of `width` by `height` on `out`.
    fn draw(&mut self, out: &mut impl Write, width: u16, height: u16) -> io::Result<()> {
        let lines = self.frame(usize::from(width), usize::from(height));
        for (y, line) in lines.iter().enumerate() {
            queue!(out, MoveTo(0, y as u16))?;
            for span in line {
                if self.color {
                    queue!(
                        out,
                        SetForegroundColor(span.fg),
                        SetBackgroundColor(span.bg)
                    )?;
                }
                for (on, attr) in [
                    (span.bold, Attribute::Bold),
                    (span.underline, Attribute::Underlined),
                    (span.reverse && !self.color, Attribute::Reverse),
                    (span.dim && !self.color, Attribute::Dim),
                ] {
                    if on {
                        queue!(out, SetAttribute(attr))?;
                    }
                }
                queue!(
                    out,
                    Print(&span.text),
                    SetAttribute(Attribute::Reset),
                    ResetColor
                )?;
            }
            queue!(out, Clear(ClearType::UntilNewLine))?;
        }
        // Below the last line (MoveTo past the bottom would stay on it and clear it).
        if lines.len() < usize::from(height) {
            queue!(
                out,
                MoveTo(0, lines.len() as u16),
                Clear(ClearType::FromCursorDown)
            )?;
        }
        if std::mem::take(&mut self.bell) {
            queue!(out, Print("\x07"))?;
        }
        out.flush()
    }

    /// The screen for a terminal of `width` columns and `height` lines: laid out for 80x24
    /// first, with blank lines and more history and hints where there is room; no line is
    /// longer than `width` and there are at most `height` lines.
    fn frame(&self, width: usize, height: usize) -> Vec<Vec<Span2>> {
        let mut lines = match &self.screen {
            Screen::Menu(menu) => self.menu_lines(menu, width),
            Screen::Game => self.game_lines(width, height),
        };
        lines.truncate(height);
        for line in &mut lines {
            clip(line, width);
        }
        lines
    }

    fn menu_lines(&self, menu: &Menu, width: usize) -> Vec<Vec<Span2>> {
        let mut lines = vec![vec![], vec![Span2::bold("   REVERSI", Tc::Green)]];
        let intro = "Black moves first. Place a disc so that it brackets a line of the other \
                     colour; the bracketed discs turn.";
        for text in wrap_words(intro, width, "   ") {
            lines.push(vec![Span2::plain(text)]);
        }
        lines.push(vec![]);
        let two_people = OPPONENTS[menu.opponent] == Opponent::Person;
        let opponent = match OPPONENTS[menu.opponent] {
            Opponent::Person => "a second person at this keyboard".to_string(),
            Opponent::Computer(level) => format!("the computer, {level}"),
        };
        let colour = if two_people {
            (
                "Colours",
                "Black moves first, then White: take turns".to_string(),
            )
        } else {
            ("Your colour", title(menu.color).to_string())
        };
        let rows = [
            ("Opponent", opponent),
            colour,
            ("Time", session::describe_control(menu.times[menu.time])),
        ];
        for (i, (label, value)) in rows.iter().enumerate() {
            let selected = menu.row == i;
            let mut line = vec![Span2::plain(format!(
                "  {} {label:<12}",
                if selected { ">" } else { " " }
            ))];
            if two_people && i == 1 {
                // Nothing to choose: both colours are played at this keyboard.
                line.push(Span2::plain(format!("   {value}")));
            } else {
                let value = format!(" < {value} > ");
                line.push(if selected {
                    Span2::reverse(value, Tc::Black, Tc::Cyan)
                } else {
                    Span2::plain(value)
                });
            }
            lines.push(line);
        }
        lines.push(vec![]);
        let start = " Start the game ";
        lines.push(vec![
            Span2::plain(format!("  {} ", if menu.row == 3 { ">" } else { " " })),
            if menu.row == 3 {
                Span2::reverse(start, Tc::Black, Tc::Green)
            } else {
                Span2::plain(start)
            },
        ]);
        lines.push(vec![]);
        for text in wrap_items(
            &["↑↓ choose", "←→ change", "Enter start", "q quit"],
            width,
            "   ",
        ) {
            lines.push(vec![Span2::dim(text)]);
        }
        let game_keys = [
            "In the game: arrows move",
            "Enter or Space plays",
            "u undo",
            "h hints",
            "l legal marks",
            "m sound",
            "n new game",
            "q quit",
        ];
        for text in wrap_items(&game_keys, width, "   ") {
            lines.push(vec![Span2::dim(text)]);
        }
        lines
    }

    fn game_lines(&self, width: usize, height: usize) -> Vec<Vec<Span2>> {
        let m = &self.m;
        let now = session::now();
        let to_move = m.to_move();
        // Title.
        let title_line = vec![
            Span2::bold(" REVERSI ", Tc::Green),
            Span2::dim(format!(" {}", session::describe(m.settings()))),
        ];
        // Counts and clocks above the board; the discs shown as on the board (a legend).
        let mut counts = vec![Span2::plain(" ")];
        for color in Color::BOTH {
            let active = to_move == Some(color);
            counts.push(Span2::plain(if active { " ▶ " } else { "   " }));
            counts.push(self.chip(color));
            let text = format!(" {} {:>2} ", title(color), self.shown_count(color));
            counts.push(if active {
                Span2::reverse(text, Tc::Black, Tc::White)
            } else {
                Span2::plain(text)
            });
            if m.settings().time.is_timed() {
                let left = m.remaining(color, now);
                let low = left.is_some_and(|l| l.as_millis() < 10_000);
                counts.push(Span2 {
                    bold: active,
                    ..Span2::styled(
                        format!(" {} ", session::show_time(left)),
                        if low { Tc::Red } else { Tc::Reset },
                        Tc::Reset,
                    )
                });
            }
            counts.push(Span2::plain(" "));
        }
        // The board, with the history beside it (as many columns as fit, newest last).
        // A big board where it fits with room for the rest (the history beside it needs
        // three columns at least).
        // Only in colour: without it, the big squares would have no edges to see.
        let big = self.color && width >= 100 && height >= 36;
        let mut board = self.board_lines(big);
        let board_width = board.iter().map(|l| line_width(l)).max().unwrap_or(0) + 2;
        let history = self.history_lines(width.saturating_sub(board_width), board.len() - 1);
        for (i, line) in board.iter_mut().enumerate() {
            if let Some(h) = history.get(i) {
                let pad = board_width.saturating_sub(line_width(line));
                line.push(Span2::plain(" ".repeat(pad)));
                line.extend(h.iter().cloned());
            }
        }
        let under = vec![Span2::dim(self.under_board())];
        // Status and notes.
        let mut status = Vec::new();
        if let (Some(line), None) = (self.result_line(), &self.anim) {
            status.push(vec![Span2::bold(line, Tc::Green)]);
            status.push(vec![Span2::plain(" Press n for a new game, q to quit.")]);
        } else if let Some(color) = to_move {
            let text = if m.settings().is_computer(color) {
                let secs = self
                    .think_started
                    .map_or(0.0, |t| t.elapsed().as_secs_f32());
                format!(" The computer ({}) is thinking… {secs:.1} s", title(color))
            } else if m.settings().opponent == Opponent::Person {
                format!(" {} to move.", title(color))
            } else {
                format!(" Your move ({}).", title(color))
            };
            status.push(vec![Span2::plain(text)]);
        }
        for note in &self.notes {
            status.push(vec![Span2::styled(
                format!(" {}", note.text),
                note.color,
                Tc::Reset,
            )]);
        }
        let hints: Vec<Vec<Span2>> = self
            .hint_texts(width)
            .into_iter()
            .map(|t| vec![Span2::styled(t, Tc::Magenta, Tc::Reset)])
            .collect();
        let onoff = |b: bool| if b { "on" } else { "off" };
        let keys = [
            "arrows move".to_string(),
            "Enter/Space play".to_string(),
            "u undo".to_string(),
            format!("h hints ({})", onoff(self.hints_on)),
            format!("l legal marks ({})", onoff(self.show_legal)),
            format!("m sound ({})", onoff(!self.muted)),
            "n new".to_string(),
            "q quit".to_string(),
        ];
        let help: Vec<Vec<Span2>> = wrap_items(&keys, width, " ")
            .into_iter()
            .map(|t| vec![Span2::dim(t)])
            .collect();
        // Blank lines between the parts where the height allows, the most useful first.
        let mut needed = 2 + board.len() + 1 + status.len() + hints.len() + help.len();
        let spare = height.saturating_sub(needed);
        let gap = |k: usize| if spare > k { vec![vec![]] } else { vec![] };
        // Too little height: the title goes first, then hints from the end (the best stay),
        // then the oldest notes, so that the board, the status and the keys stay in view.
        let mut title_line = Some(title_line);
        let mut hints = hints;
        if needed > height {
            title_line = None;
            needed -= 1;
        }
        while needed > height && hints.len() > 2 {
            hints.pop();
            needed -= 1;
            if let Some(last) = hints.last_mut() {
                last.push(Span2::dim(" …"));
            }
        }
        while needed > height && status.len() > 1 {
            status.remove(1);
            needed -= 1;
        }
        let mut lines: Vec<Vec<Span2>> = title_line.into_iter().collect();
        lines.extend(gap(1));
        lines.push(counts);
        lines.extend(gap(0));
        lines.extend(board);
        lines.push(under);
        lines.extend(gap(3));
        lines.extend(status);
        lines.extend(hints);
        lines.extend(gap(2));
        lines.extend(help);
        lines
    }

    /// The line under the board: the cursor, what playing there flips, and the last move.
    fn under_board(&self) -> String {
        let cursor = self.cursor_square();
        let flips = self.preview().count();
        let mut text = format!("    cursor {cursor}");
        if flips > 0 {
            text += &format!(": flips {flips} (marked *)");
        }
        if let Some((color, square)) = self.m.game().last_move() {
            text += &format!("   last move: {} {square}", title(color));
        }
        text
    }

    /// The result line once the game is over.
    fn result_line(&self) -> Option<String> {
        let m = &self.m;
        let end = m.result()?;
        let pos = m.game().position();
        let (b, w) = (pos.count(Color::Black), pos.count(Color::White));
        let verdict = match end.winner {
            Some(c) if m.settings().opponent != Opponent::Person => {
                if c == m.settings().human {
                    "You win!".to_string()
                } else {
                    "The computer wins.".to_string()
                }
            }
            Some(c) => format!("{} wins!", title(c)),
            None => "A draw.".to_string(),
        };
        let how = match (end.reason, end.winner) {
            (EndReason::Timeout { .. }, Some(winner)) => {
                format!("{} ran out of time. ", title(!winner))
            }
            (EndReason::Resigned { .. }, Some(winner)) => format!("{} resigned. ", title(!winner)),
            _ => String::new(),
        };
        Some(format!(" Game over. {how}Black {b}, White {w}. {verdict}"))
    }

    /// The hints' lines: a heading saying what the scores are, then the moves best first,
    /// wrapped to `width`.
    fn hint_texts(&self, width: usize) -> Vec<String> {
        if !self.hints_on || self.m.is_over() {
            return Vec::new();
        }
        match &self.hints {
            Some((_, h)) if !h.is_empty() => {
                let (scale, mark) = hint_scale(h);
                let mover = title(self.m.game().position().side_to_move());
                let list: Vec<String> = h
                    .iter()
                    .map(|h| format!("{} {}", h.square, h.score_text(mark)))
                    .collect();
                let mut texts = wrap_words(
                    &format!("Hints for {mover}, best first, {scale}:"),
                    width,
                    " ",
                );
                texts.extend(wrap_items(&list, width, "   "));
                texts
            }
            _ if self.hints_job.is_some() => vec![" Hints: thinking…".to_string()],
            _ => vec![" Hints: on".to_string()],
        }
    }

    /// The count shown while discs are still turning.
    fn shown_count(&self, color: Color) -> u32 {
        let count = self.m.game().position().count(color);
        match &self.anim {
            Some(a) => {
                let pending = (a.squares.len() - a.shown) as u32;
                if color == a.old {
                    count + pending
                } else {
                    count - pending
                }
            }
            None => count,
        }
    }

    /// A disc of `color` as it looks on the board, for the counts and the history.
    fn chip(&self, color: Color) -> Span2 {
        Span2 {
            bold: true,
            ..Span2::styled(self.glyph(color), disc_color(color), BOARD_DARK)
        }
    }

    /// The disc of a colour as text: `●` in both colours with colour, `X` and `O` without.
    fn glyph(&self, c: Color) -> &'static str {
        match (self.color, c) {
            (true, _) => "●",
            (false, Color::Black) => "X",
            (false, Color::White) => "O",
        }
    }

    /// Whether the person at the keyboard is to move (not the computer, not over).
    fn human_turn(&self) -> bool {
        !self.m.is_over() && !self.m.computer_to_move()
    }

    /// The discs that playing at the cursor would turn.
    fn preview(&self) -> reversi::core::Bitboard {
        let pos = self.m.game().position();
        let cursor = self.cursor_square();
        if matches!(self.screen, Screen::Game)
            && self.human_turn()
            && self.anim.is_none()
            && pos.legal_moves().contains(cursor)
        {
            pos.flips(cursor)
        } else {
            reversi::core::Bitboard::EMPTY
        }
    }

    /// One square of the board, three characters wide: the cursor is `[` `]` around the
    /// square; the middle is the disc, a legal mark `+` or a hint rank; a disc that the move
    /// at the cursor would turn has a `*` after it; the last move is underlined. With colour,
    /// the last move and the discs to turn have backgrounds of their own as well.
    fn cell(&self, sq: Square) -> Span2 {
        let m = &self.m;
        let pos = m.game().position();
        let legal = pos.legal_moves();
        let human_turn = self.human_turn();
        let on_cursor = sq == self.cursor_square() && matches!(self.screen, Screen::Game);
        let turning = self.preview().contains(sq);
        let last = m.game().last_move().map(|(_, s)| s) == Some(sq);
        let hints: &[Hint] = match (&self.hints, self.hints_on) {
            (Some((n, h)), true) if *n == m.game().plies().len() => h,
            _ => &[],
        };
        let mut disc = pos.color_at(sq);
        if let Some(a) = &self.anim {
            if a.squares[a.shown..].contains(&sq) {
                disc = Some(a.old);
            }
        }
        let (col, row) = (sq.index() % 8, sq.index() / 8);
        let mut bg = if (row + col) % 2 == 0 {
            BOARD_LIGHT
        } else {
            BOARD_DARK
        };
        if last {
            bg = LAST_MOVE;
        }
        if turning {
            bg = TURNING;
        }
        let (middle, fg) = match disc {
            Some(c) => (self.glyph(c).to_string(), disc_color(c)),
            None if human_turn && legal.contains(sq) => {
                match hints.iter().position(|h| h.square == sq) {
                    // The rank of the move, 1 for the best; the scores are listed below.
                    Some(rank) if rank < 9 => (
                        (rank + 1).to_string(),
                        if rank == 0 { Tc::Yellow } else { Tc::White },
                    ),
                    _ if self.show_legal || !hints.is_empty() || on_cursor => {
                        ("+".to_string(), LEGAL_MARK)
                    }
                    _ => (" ".to_string(), Tc::Reset),
                }
            }
            None => (" ".to_string(), Tc::Reset),
        };
        let (left, right) = if on_cursor {
            ("[", "]")
        } else if turning {
            (" ", "*")
        } else {
            (" ", " ")
        };
        Span2 {
            bold: true,
            underline: last,
            ..Span2::styled(format!("{left}{middle}{right}"), fg, bg)
        }
    }

    /// The board: a header of column letters and the rows, each square [`App::cell`]; with
    /// `big`, each square is 7 columns by 3 lines (about square on a terminal) with the cell
    /// in the middle.
    fn board_lines(&self, big: bool) -> Vec<Vec<Span2>> {
        let (pad, tall) = if big { (2, 3) } else { (0, 1) };
        let mut lines = Vec::new();
        let mut header = vec![Span2::plain("    ")];
        for c in b'a'..=b'h' {
            let side = " ".repeat(pad);
            header.push(Span2::plain(format!("{side} {} {side}", c as char)));
        }
        lines.push(header);
        for row in 0..8u8 {
            for part in 0..tall {
                let middle = part == tall / 2;
                let label = |before: &str| {
                    if middle {
                        format!("{before}{}", row + 1)
                    } else {
                        " ".repeat(before.len() + 1)
                    }
                };
                let mut line = vec![Span2::plain(label("  ") + " ")];
                for col in 0..8u8 {
                    let sq = Square::from_coords(col, row).expect("on the board");
                    let mut cell = self.cell(sq);
                    let padding = |n: usize| Span2::styled(" ".repeat(n), Tc::Reset, cell.bg);
                    let chars: Vec<char> = cell.text.chars().collect();
                    // On the big board a disc is drawn round: ▄▄▄ over █████ over ▀▀▀.
                    let disc = pad > 0 && self.color && chars[1] == '●';
                    if !middle {
                        if disc {
                            let shape = if part == 0 { "▄▄▄" } else { "▀▀▀" };
                            line.push(padding(2));
                            line.push(Span2::styled(shape, cell.fg, cell.bg));
                            line.push(padding(2));
                        } else {
                            line.push(padding(3 + 2 * pad));
                        }
                        continue;
                    }
                    if disc {
                        cell.text = format!("{}█████{}", chars[0], chars[2]);
                    } else if pad > 0 {
                        line.push(padding(pad));
                    }
                    // The cursor's brackets stand out in colour too.
                    if cell.text.starts_with('[') {
                        let n = cell.text.chars().count();
                        let inner: String = cell.text.chars().skip(1).take(n - 2).collect();
                        let bracket = |t: &str| Span2 {
                            bold: true,
                            underline: cell.underline,
                            ..Span2::styled(t, CURSOR, cell.bg)
                        };
                        line.push(bracket("["));
                        cell.text = inner;
                        line.push(cell.clone());
                        line.push(bracket("]"));
                    } else {
                        line.push(cell.clone());
                    }
                    if pad > 0 && !disc {
                        line.push(padding(pad));
                    }
                }
                line.push(Span2::plain(label(" ")));
                lines.push(line);
            }
        }
        lines
    }

    /// The move history: a heading and `rows` rows of numbered plies in columns (passes
    /// included), as many columns as fit in `width`, scrolled so that the newest are shown.
    fn history_lines(&self, width: usize, rows: usize) -> Vec<Vec<Span2>> {
        let plies = self.m.game().plies();
        let max_cols = (width / HISTORY_COLUMN).max(1);
        let first = if plies.len() > rows * max_cols {
            (plies.len() - rows * max_cols).div_ceil(rows) * rows
        } else {
            0
        };
        let heading = if first > 0 {
            format!("Moves (from {})", first + 1)
        } else {
            "Moves".to_string()
        };
        let mut lines: Vec<Vec<Span2>> = vec![vec![Span2::bold(heading, Tc::Reset)]];
        for r in 0..rows {
            let mut line = Vec::new();
            let mut i = first + r;
            while i < plies.len() {
                let p = plies[i];
                let mv = match p.mv {
                    Move::Place(s) => s.to_string(),
                    Move::Pass => "pass".to_string(),
                };
                line.push(Span2::plain(format!("{:>2} ", i + 1)));
                line.push(self.chip(p.color));
                line.push(Span2::styled(
                    format!(" {mv:<4}  "),
                    if p.mv == Move::Pass {
                        Tc::Yellow
                    } else {
                        Tc::Reset
                    },
                    Tc::Reset,
                ));
                i += rows;
            }
            lines.push(line);
        }
        lines
    }
}

/// The width of one column of the history: `33 ● pass  `.
const HISTORY_COLUMN: usize = 11;

/// The board's squares, two greens.
const BOARD_LIGHT: Tc = Tc::Rgb {
    r: 20,
    g: 135,
    b: 70,
};
const BOARD_DARK: Tc = Tc::Rgb {
    r: 10,
    g: 115,
    b: 58,
};
/// The square of the last move.
const LAST_MOVE: Tc = Tc::Rgb {
    r: 205,
    g: 90,
    b: 70,
};
/// The discs that the move at the cursor would turn.
const TURNING: Tc = Tc::Rgb {
    r: 200,
    g: 170,
    b: 40,
};
/// The legal-move marks.
const LEGAL_MARK: Tc = Tc::Rgb {
    r: 235,
    g: 230,
    b: 140,
};
/// The cursor's brackets.
const CURSOR: Tc = Tc::Rgb {
    r: 90,
    g: 200,
    b: 255,
};

/// The colour of a disc on screen: pure black and pure white (not the terminal's palette,
/// whose "black" may be grey).
fn disc_color(c: Color) -> Tc {
    match c {
        Color::Black => Tc::Rgb { r: 0, g: 0, b: 0 },
        Color::White => Tc::Rgb {
            r: 255,
            g: 255,
            b: 255,
        },
    }
}

/// `Black` or `White`.
fn title(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The number of columns a line takes (every character used here is one column wide).
fn line_width(line: &[Span2]) -> usize {
    line.iter().map(|s| s.text.chars().count()).sum()
}

/// Cuts a line to `width` columns, ending with `…` when something was cut.
fn clip(line: &mut Vec<Span2>, width: usize) {
    if line_width(line) <= width {
        return;
    }
    let mut left = width.saturating_sub(1);
    let mut kept = Vec::new();
    for mut span in line.drain(..) {
        let n = span.text.chars().count();
        if n <= left {
            left -= n;
            kept.push(span);
        } else {
            span.text = span.text.chars().take(left).collect();
            kept.push(span);
            break;
        }
    }
    if width > 0 {
        kept.push(Span2::dim("…"));
    }
    *line = kept;
}

/// Items joined by ` · ` into lines of at most `width` columns, each starting with `indent`.
fn wrap_items<S: AsRef<str>>(items: &[S], width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for item in items {
        let item = item.as_ref();
        if line.is_empty() {
            line = format!("{indent}{item}");
        } else if line.chars().count() + 3 + item.chars().count() <= width {
            line = format!("{line} · {item}");
        } else {
            lines.push(std::mem::take(&mut line));
            line = format!("{indent}{item}");
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Words into lines of at most `width` columns (a longer word is cut later), each starting
/// with `indent`.
fn wrap_words(text: &str, width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if line.is_empty() {
            line = format!("{indent}{word}");
        } else if line.chars().count() + 1 + word.chars().count() <= width {
            line = format!("{line} {word}");
        } else {
            lines.push(std::mem::take(&mut line));
            line = format!("{indent}{word}");
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A piece of text in colours and attributes. Without colour (`NO_COLOR`) only the text and
/// the attributes are drawn, so that everything that matters is told by them.
#[derive(Clone, Debug)]
struct Span2 {
    text: String,
    fg: Tc,
    bg: Tc,
    bold: bool,
    underline: bool,
    /// Drawn in reverse video without colour (the colours show it with colour).
    reverse: bool,
    dim: bool,
}

impl Span2 {
    fn plain(text: impl Into<String>) -> Span2 {
        Span2::styled(text, Tc::Reset, Tc::Reset)
    }

    fn dim(text: impl Into<String>) -> Span2 {
        Span2 {
            dim: true,
            ..Span2::styled(text, Tc::DarkGrey, Tc::Reset)
        }
    }

    fn bold(text: impl Into<String>, fg: Tc) -> Span2 {
        Span2 {
            bold: true,
            ..Span2::styled(text, fg, Tc::Reset)
        }
    }

    /// Highlighted: these colours, or reverse video without colour.
    fn reverse(text: impl Into<String>, fg: Tc, bg: Tc) -> Span2 {
        Span2 {
            reverse: true,
            ..Span2::styled(text, fg, bg)
        }
    }

    fn styled(text: impl Into<String>, fg: Tc, bg: Tc) -> Span2 {
        Span2 {
            text: text.into(),
            fg,
            bg,
            bold: false,
            underline: false,
            reverse: false,
            dim: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game between two people with random legal moves found once with `reversi-core`, in
    /// which white passes once near the end (the same game as the line-mode tests play).
    const GAME: &str = "f5d6c7f4c5g6d3b8g4d2e7g3g5d7c2b6b5b2h7h6g2f6h5d8f7b4a5h4f8g7c3a3e1f2b3g1b1e6g8h8c8d1c6a4a6a7c4a2a8b7e8f3e2e3h2h3c1f1h1a1";

    fn options() -> Options {
        Options {
            save_path: std::env::temp_dir().join("reversi-play-tui-test-unused.json"),
            ..Options::default()
        }
    }

    /// An app in a game between two people after the first `placements` moves of [`GAME`],
    /// drawn in colour or not.
    fn app(opts: &Options, placements: usize, color: bool) -> App<'_> {
        let settings = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 1);
        let mut app = App::new(Start::New(settings), opts);
        app.color = color;
        let game = reversi::core::Game::from_transcript(GAME).unwrap();
        let squares: Vec<Square> = game.plies().iter().filter_map(|p| p.mv.square()).collect();
        for sq in &squares[..placements] {
            app.m.play(*sq, session::now()).unwrap();
        }
        app
    }

    /// The screen as text, one string per line.
    fn text(app: &App, width: usize, height: usize) -> Vec<String> {
        app.frame(width, height)
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect())
            .collect()
    }

    /// Shows hints as the game computes them (for the position now), so that the screen has
    /// them as a player sees them.
    fn with_hints(app: &mut App) {
        app.hints_on = true;
        let h = Hints::start(*app.m.game().position()).wait();
        assert!(!h.is_empty());
        app.hints = Some((app.m.game().plies().len(), h));
    }

    fn check_size(screen: &[String], width: usize, height: usize) {
        assert!(
            screen.len() <= height,
            "{} lines:\n{}",
            screen.len(),
            screen.join("\n")
        );
        for line in screen {
            assert!(line.chars().count() <= width, "too wide: {line:?}");
        }
    }

    #[test]
    fn at_80x24_the_newest_moves_the_hints_and_every_key_are_shown() {
        let opts = options();
        for color in [true, false] {
            let mut app = app(&opts, 44, color);
            with_hints(&mut app);
            app.note("Took back 1 move.", Tc::Cyan);
            app.note("Sound off.", Tc::Cyan);
            let screen = text(&app, 80, 24);
            check_size(&screen, 80, 24);
            let all = screen.join("\n");
            // The newest ply, with its number, disc and square; the oldest scrolled away.
            let plies = app.m.game().plies();
            let n = plies.len();
            let newest = plies[n - 1];
            let entry = format!(
                "{n} {} {}",
                app.glyph(newest.color),
                newest.mv.square().unwrap()
            );
            assert!(all.contains(&entry), "{entry:?} missing:\n{all}");
            assert!(all.contains("Moves (from "), "{all}");
            // No line was cut.
            assert!(!all.contains('…'), "{all}");
            // Every key of the help, the notes, the hints with their unit.
            for key in [
                "arrows move",
                "u undo",
                "h hints (on)",
                "l legal marks (on)",
                "m sound (on)",
                "n new",
                "q quit",
                "Took back 1 move.",
                "Sound off.",
                "Hints for",
                "to move.",
            ] {
                assert!(all.contains(key), "{key:?} missing:\n{all}");
            }
            // Every hint is listed.
            let (_, h) = app.hints.as_ref().unwrap();
            for hint in h {
                assert!(
                    all.contains(&format!("{} {}", hint.square, hint.score_text(false))),
                    "{hint:?}:\n{all}"
                );
            }
            // The board: a header and 8 numbered rows.
            assert!(screen
                .iter()
                .any(|l| l.starts_with("     a  b  c  d  e  f  g  h")));
            for row in 1..=8 {
                assert!(screen.iter().any(|l| l.starts_with(&format!("  {row} "))));
            }
        }
    }

    #[test]
    fn when_the_height_is_short_the_board_status_and_keys_stay() {
        let opts = options();
        let mut app = app(&opts, 12, true);
        with_hints(&mut app);
        app.note("Took back 1 move.", Tc::Cyan);
        app.note("Sound off.", Tc::Cyan);
        for height in (19..=24).rev() {
            let screen = text(&app, 80, height);
            check_size(&screen, 80, height);
            let all = screen.join("\n");
            assert!(all.contains("q quit"), "{height}:\n{all}");
            assert!(all.contains("to move."), "{height}:\n{all}");
            assert!(all.contains("Hints for"), "{height}:\n{all}");
            assert!(
                screen.iter().any(|l| l.starts_with("  8 ")),
                "{height}:\n{all}"
            );
            // The title goes first when something must.
            match height {
                19 => assert!(!all.contains("REVERSI"), "{all}"),
                24 => assert!(all.contains("REVERSI"), "{all}"),
                _ => {}
            }
        }
    }

    #[test]
    fn drawing_a_full_screen_keeps_its_last_line() {
        let opts = options();
        for color in [true, false] {
            let mut app = app(&opts, 12, color);
            with_hints(&mut app);
            // A height that the screen fills exactly.
            let height = (10..=24)
                .rev()
                .find(|&h| app.frame(80, h).len() == h)
                .expect("some height is filled");
            let mut out = Vec::new();
            app.draw(&mut out, 80, height as u16).unwrap();
            let out = String::from_utf8(out).unwrap();
            // Every line is placed, nothing is moved to or cleared from below the last one
            // (a cursor move past the bottom lands on it).
            for row in 1..=height {
                assert!(out.contains(&format!("\x1b[{row};1H")), "row {row}");
            }
            assert!(!out.contains(&format!("\x1b[{};1H", height + 1)), "{out:?}");
            assert!(!out.contains("\x1b[J"), "{out:?}");
            let last = out.rfind(&format!("\x1b[{height};1H")).unwrap();
            assert!(out[last..].contains("q quit"), "{:?}", &out[last..]);
            // Without colour, no colour is sent.
            assert_eq!(out.contains("\x1b[38;"), color);
            assert_eq!(out.contains("\x1b[48;"), color);
        }
    }

    #[test]
    fn larger_terminals_show_the_whole_history_and_one_help_line() {
        let opts = options();
        let mut app = app(&opts, 58, false);
        with_hints(&mut app);
        let screen = text(&app, 120, 40);
        check_size(&screen, 120, 40);
        let all = screen.join("\n");
        assert!(!all.contains("Moves (from"), "{all}");
        let plies = app.m.game().plies();
        for (i, p) in plies.iter().enumerate() {
            let mv = match p.mv {
                Move::Place(s) => s.to_string(),
                Move::Pass => "pass".to_string(),
            };
            let entry = format!("{:>2} {} {mv}", i + 1, app.glyph(p.color));
            assert!(all.contains(&entry), "{entry:?} missing:\n{all}");
        }
        let help: Vec<&String> = screen.iter().filter(|l| l.contains("q quit")).collect();
        assert_eq!(help.len(), 1);
        assert!(help[0].contains("arrows move"), "{all}");
        // The extra height separates the parts.
        assert!(screen.iter().filter(|l| l.is_empty()).count() >= 3, "{all}");
        // At 80x24 the same game needs the history scrolled.
        assert!(text(&app, 80, 24).join("\n").contains("Moves (from "));
        // In colour the board is bigger there: squares of 7 columns by 3 lines.
        app.color = true;
        let screen = text(&app, 120, 40);
        check_size(&screen, 120, 40);
        let header = screen
            .iter()
            .position(|l| l.starts_with("       a      b      c"))
            .unwrap_or_else(|| panic!("{}", screen.join("\n")));
        assert!(
            screen[header + 2].starts_with("  1 "),
            "{}",
            screen.join("\n")
        );
        assert!(
            screen[header + 23].starts_with("  8 "),
            "{}",
            screen.join("\n")
        );
        let all = screen.join("\n");
        assert!(all.contains(" 1 ● f5"), "{all}");
        assert!(!all.contains("Moves (from"), "{all}");
        assert!(all.contains("q quit") && all.contains("Hints for"), "{all}");
        // Row 1's discs, drawn round in their 7 columns by 3 lines.
        let pos = app.m.game().position();
        for (line, shape) in [(1, "  ▄▄▄  "), (2, " █████ "), (3, "  ▀▀▀  ")]
        {
            let board_row: Vec<char> = screen[header + line].chars().collect();
            for col in 0..8u8 {
                let sq = Square::from_coords(col, 0).unwrap();
                let at = 4 + 7 * usize::from(col);
                let shown: String = board_row[at..at + 7].iter().collect();
                // Empty squares may have a mark in the middle line (a legal move, a rank).
                if pos.color_at(sq).is_some() {
                    assert_eq!(shown, shape, "{sq}: {board_row:?}");
                } else if line != 2 {
                    assert_eq!(shown, "       ", "{sq}: {board_row:?}");
                }
            }
        }
    }

    #[test]
    fn the_start_screen_fits_80_columns_and_speaks_to_two_people() {
        let opts = options();
        let settings = Settings::new(Opponent::Person, Color::Black, TimeControl::Unlimited, 1);
        let app = App::new(Start::Screen(settings), &opts);
        let screen = text(&app, 80, 24);
        check_size(&screen, 80, 24);
        let all = screen.join("\n");
        assert!(!all.contains("Your colour"), "{all}");
        assert!(all.contains("Colours"), "{all}");
        assert!(all.contains("a second person at this keyboard"), "{all}");
        assert!(all.contains("q quit"), "{all}");
        assert!(!all.contains('…'), "{all}");
        let Screen::Menu(mut menu) = app.screen else {
            panic!("the start screen")
        };
        // The colour row is skipped both ways, and cannot be changed.
        menu.row = 0;
        menu.step_row(1);
        assert_eq!(menu.row, 2);
        menu.step_row(-1);
        assert_eq!(menu.row, 0);
        menu.row = 1;
        menu.change(1);
        assert_eq!(menu.color, Color::Black);

        let settings = Settings::new(
            Opponent::Computer(Level::Hard),
            Color::White,
            TimeControl::Unlimited,
            1,
        );
        let app = App::new(Start::Screen(settings), &opts);
        let all = text(&app, 80, 24).join("\n");
        assert!(all.contains("Your colour"), "{all}");
        assert!(all.contains("White"), "{all}");
        let Screen::Menu(mut menu) = app.screen else {
            panic!("the start screen")
        };
        menu.step_row(1);
        assert_eq!(menu.row, 1);
        menu.change(1);
        assert_eq!(menu.color, Color::Black);
    }

    /// The cell of `square` and the line under the board.
    fn cell(app: &App, square: &str) -> Span2 {
        app.cell(square.parse().unwrap())
    }

    /// A legal move other than c3 (the cursor's square in these tests).
    fn other_legal(app: &App) -> Square {
        let legal = app.m.game().position().legal_moves();
        legal.into_iter().find(|s| *s != Square::C3).unwrap()
    }

    /// A text with its runs of spaces and line breaks as single spaces.
    fn flat(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn without_colour_discs_marks_cursor_preview_and_last_move_differ_in_text() {
        let opts = options();
        // After f5 d6: black to move; d6 (white) is the last move.
        let mut app = app(&opts, 2, false);
        app.cursor = (2, 2); // c3: legal for black, flips d4
        assert!(app.m.game().position().legal_moves().contains(Square::C3));
        let black = cell(&app, "e4");
        let white = cell(&app, "d4"); // turns if black plays c3
        let still_white = cell(&app, "d6"); // the last move
        let other = other_legal(&app);
        let legal = app.cell(other);
        let cursor = cell(&app, "c3");
        let empty = cell(&app, "a1");
        assert_eq!(black.text, " X ");
        assert_eq!(white.text, " O*");
        assert_eq!(still_white.text, " O ");
        assert_eq!(legal.text, " + ");
        assert_eq!(cursor.text, "[+]");
        assert_eq!(empty.text, "   ");
        let texts = [&black, &white, &legal, &cursor, &empty, &still_white];
        for (i, a) in texts.iter().enumerate() {
            for b in &texts[i + 1..] {
                assert!(
                    a.text != b.text || a.underline != b.underline,
                    "{a:?} {b:?}"
                );
            }
        }
        // The last move: underlined, and named under the board.
        assert!(still_white.underline && !black.underline && !legal.underline);
        assert!(
            app.under_board().contains("last move: White d6"),
            "{}",
            app.under_board()
        );
        assert!(app.under_board().contains("flips 1 (marked *)"));
        // The cursor on the last move does not hide it.
        app.cursor = (3, 5);
        let both = cell(&app, "d6");
        assert_eq!(both.text, "[O]");
        assert!(both.underline);
        // Legal marks off: no mark but under the cursor.
        app.show_legal = false;
        assert_eq!(app.cell(other).text, "   ");
        // The legend above the board says which letter is which colour.
        let screen = text(&app, 80, 24).join("\n");
        assert!(screen.contains("X Black  3"), "{screen}");
        assert!(screen.contains("O White  3"), "{screen}");
    }

    #[test]
    fn with_colour_discs_marks_cursor_preview_and_last_move_differ_in_colour() {
        let opts = options();
        let mut app = app(&opts, 2, true);
        app.cursor = (2, 2);
        let black = cell(&app, "e4");
        let white = cell(&app, "d5");
        let turning = cell(&app, "d4");
        let last = cell(&app, "d6");
        let legal = app.cell(other_legal(&app));
        let empty = cell(&app, "a1");
        // Both discs solid, told apart by pure black and pure white, never the board's colour.
        assert_eq!(black.text, " ● ");
        assert_eq!(white.text, " ● ");
        assert_ne!(black.fg, white.fg);
        for disc in [&black, &white] {
            assert!(disc.fg != BOARD_LIGHT && disc.fg != BOARD_DARK);
        }
        // The legal mark is not a disc, and has its own colour.
        assert_eq!(legal.text, " + ");
        assert!(legal.fg != black.fg && legal.fg != white.fg);
        // The discs to turn, the last move and plain squares have different backgrounds.
        let board = [BOARD_LIGHT, BOARD_DARK];
        assert!(board.contains(&empty.bg) && board.contains(&black.bg));
        assert_eq!(turning.bg, TURNING);
        assert_eq!(turning.text, " ●*");
        assert_eq!(last.bg, LAST_MOVE);
        assert!(last.underline);
        // The cursor: brackets in their own colour, over the square's own background, so that
        // the last move shows under it.
        app.cursor = (3, 5);
        let row: Vec<Span2> = app.board_lines(false)[6].clone();
        let i = row.iter().position(|s| s.text == "[").unwrap();
        assert_eq!(row[i].fg, CURSOR);
        assert_eq!(row[i].bg, LAST_MOVE);
        assert_eq!(row[i + 1].text, "●");
        assert_eq!(row[i + 1].bg, LAST_MOVE);
        assert_eq!(row[i + 2].text, "]");
    }

    #[test]
    fn hint_headings_name_the_unit_and_mark_exact_scores_only_when_exact() {
        let opts = options();
        // The opening: nothing is exact.
        let mut app = app(&opts, 0, false);
        with_hints(&mut app);
        let all = flat(&text(&app, 80, 24).join("\n"));
        assert!(all.contains(crate::engine::ESTIMATE_UNIT), "{all}");
        assert!(!all.contains("exact"), "{all}");
        assert!(!all.contains('!'), "{all}");
        // Near the end every score is exact: disc margins, and no `!` is needed.
        let mut app = self::app(&opts, 54, false);
        with_hints(&mut app);
        let (_, h) = app.hints.as_ref().unwrap();
        assert!(h.iter().all(|h| h.exact), "{h:?}");
        let all = flat(&text(&app, 80, 24).join("\n"));
        assert!(all.contains("exact final disc margins"), "{all}");
        assert!(!all.contains(crate::engine::ESTIMATE_UNIT), "{all}");
        // A list that mixes both marks the exact ones.
        let mut mixed = h.clone();
        mixed[0].exact = false;
        app.hints = Some((app.m.game().plies().len(), mixed.clone()));
        let all = flat(&text(&app, 80, 24).join("\n"));
        assert!(all.contains("! exact disc margins"), "{all}");
        assert!(all.contains(&format!("{} {:+}!", mixed[1].square, mixed[1].score)));
        assert!(!all.contains(&format!("{} {:+}!", mixed[0].square, mixed[0].score)));
    }

    #[test]
    fn lines_are_cut_to_the_width_and_items_wrap() {
        let mut line = vec![Span2::plain("abcdef"), Span2::plain("ghij")];
        clip(&mut line, 8);
        assert_eq!(line_width(&line), 8);
        let s: String = line.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(s, "abcdefg…");
        let lines = wrap_items(&["aaaa", "bbbb", "cccc"], 12, " ");
        assert_eq!(lines, [" aaaa · bbbb", " cccc"]);
        let lines = wrap_words("one two three four", 10, " ");
        assert_eq!(lines, [" one two", " three", " four"]);
    }
}
