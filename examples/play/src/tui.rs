//! The board in a terminal, drawn with crossterm: a start screen, the game with cursor,
//! legal-move dots, move preview, animated flips, clocks, move history and hints, and the
//! result screen.

use std::io::{self, BufWriter, Stdout, Write};
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

use crate::engine::{Hint, Hints, Level, Thinking};
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

/// The opponents offered on the start screen.
const OPPONENTS: [Opponent; 4] = [
    Opponent::Computer(Level::Easy),
    Opponent::Computer(Level::Normal),
    Opponent::Computer(Level::Hard),
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

    fn change(&mut self, step: isize) {
        let turn = |i: usize, n: usize| (i as isize + step).rem_euclid(n as isize) as usize;
        match self.row {
            0 => self.opponent = turn(self.opponent, OPPONENTS.len()),
            1 => self.color = !self.color,
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
            self.draw(&mut out)?;
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
                KeyCode::Up => menu.row = (menu.row + 3) % 4,
                KeyCode::Down | KeyCode::Tab => menu.row = (menu.row + 1) % 4,
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

    fn draw(&mut self, out: &mut BufWriter<Stdout>) -> io::Result<()> {
        queue!(out, MoveTo(0, 0))?;
        let mut lines: Vec<Vec<Span2>> = Vec::new();
        match &self.screen {
            Screen::Menu(menu) => self.menu_lines(menu, &mut lines),
            Screen::Game => self.game_lines(&mut lines),
        }
        for (y, line) in lines.iter().enumerate() {
            queue!(out, MoveTo(0, y as u16))?;
            for span in line {
                queue!(
                    out,
                    SetForegroundColor(span.fg),
                    SetBackgroundColor(span.bg)
                )?;
                if span.bold {
                    queue!(out, SetAttribute(Attribute::Bold))?;
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
        queue!(
            out,
            MoveTo(0, lines.len() as u16),
            Clear(ClearType::FromCursorDown)
        )?;
        if std::mem::take(&mut self.bell) {
            queue!(out, Print("\x07"))?;
        }
        out.flush()
    }

    fn menu_lines(&self, menu: &Menu, lines: &mut Vec<Vec<Span2>>) {
        lines.push(vec![]);
        lines.push(vec![Span2::bold("   REVERSI", Tc::Green)]);
        lines.push(vec![Span2::plain(
            "   Black moves first. Place a disc so that it brackets a line of the other colour.",
        )]);
        lines.push(vec![]);
        let opponent = match OPPONENTS[menu.opponent] {
            Opponent::Person => "a second player at this keyboard".to_string(),
            Opponent::Computer(level) => format!("the computer, {level}"),
        };
        let rows = [
            ("Opponent", opponent),
            ("Your colour", title(menu.color).to_string()),
            ("Time", session::describe_control(menu.times[menu.time])),
        ];
        for (i, (label, value)) in rows.iter().enumerate() {
            let selected = menu.row == i;
            let mut line = vec![Span2::plain(format!(
                "  {} {label:<12}",
                if selected { ">" } else { " " }
            ))];
            let value = format!(" ◀ {value} ▶ ");
            line.push(if selected {
                Span2::styled(value, Tc::Black, Tc::Cyan)
            } else {
                Span2::plain(value)
            });
            lines.push(line);
        }
        lines.push(vec![]);
        let start = " Start the game ";
        lines.push(vec![
            Span2::plain(format!("  {} ", if menu.row == 3 { ">" } else { " " })),
            if menu.row == 3 {
                Span2::styled(start, Tc::Black, Tc::Green)
            } else {
                Span2::plain(start)
            },
        ]);
        lines.push(vec![]);
        lines.push(vec![Span2::dim(
            "   ↑↓ choose   ←→ change   Enter start   q quit",
        )]);
        lines.push(vec![Span2::dim(
            "   In the game: arrows move, Enter or Space plays, u undo, h hints, l legal marks, m sound, n new game, q quit",
        )]);
    }

    fn game_lines(&self, lines: &mut Vec<Vec<Span2>>) {
        let m = &self.m;
        let pos = m.game().position();
        let now = session::now();
        let to_move = m.to_move();
        // Title.
        lines.push(vec![
            Span2::bold(" REVERSI ", Tc::Green),
            Span2::dim(format!(" {}", session::describe(m.settings()))),
        ]);
        lines.push(vec![]);
        // Counts and clocks above the board.
        let mut counts = vec![Span2::plain(" ")];
        for color in Color::BOTH {
            let active = to_move == Some(color);
            let text = format!(
                " {} {} {:>2} ",
                if active { "▶" } else { " " },
                title(color),
                self.shown_count(color)
            );
            counts.push(if active {
                Span2::styled(text, Tc::Black, Tc::White)
            } else {
                Span2::plain(text)
            });
            if m.settings().time.is_timed() {
                let left = m.remaining(color, now);
                let low = left.is_some_and(|l| l.as_millis() < 10_000);
                counts.push(Span2 {
                    text: format!(" {} ", session::show_time(left)),
                    fg: if low { Tc::Red } else { Tc::Reset },
                    bg: Tc::Reset,
                    bold: active,
                });
            }
            counts.push(Span2::plain("   "));
        }
        lines.push(counts);
        lines.push(vec![]);
        // The board, with the history beside it.
        let history = self.history_lines();
        let mut board_lines = self.board_lines();
        for (i, line) in board_lines.iter_mut().enumerate() {
            line.push(Span2::plain("    "));
            if let Some(h) = history.get(i) {
                line.extend(h.iter().cloned());
            }
        }
        lines.extend(board_lines);
        lines.push(vec![]);
        // Status.
        if let (Some(end), None) = (m.result(), &self.anim) {
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
                (EndReason::Timeout, Some(winner)) => {
                    format!("{} ran out of time. ", title(!winner))
                }
                (EndReason::Resignation, Some(winner)) => format!("{} resigned. ", title(!winner)),
                _ => String::new(),
            };
            lines.push(vec![Span2::bold(
                format!(" Game over. {how}Black {b}, White {w}. {verdict}"),
                Tc::Green,
            )]);
            lines.push(vec![Span2::plain(" Press n for a new game, q to quit.")]);
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
            lines.push(vec![Span2::plain(text)]);
        }
        for note in &self.notes {
            lines.push(vec![Span2 {
                text: format!(" {}", note.text),
                fg: note.color,
                bg: Tc::Reset,
                bold: false,
            }]);
        }
        if self.hints_on && !m.is_over() {
            let texts: Vec<String> = match &self.hints {
                Some((_, h)) if !h.is_empty() => {
                    let list: Vec<String> = h
                        .iter()
                        .map(|h| {
                            format!(
                                "{} {:+}{}",
                                h.square,
                                h.score,
                                if h.exact { "!" } else { "" }
                            )
                        })
                        .collect();
                    let mut texts =
                        vec![" Hints, best first (ranks on the board; ! exact score):".to_string()];
                    for chunk in list.chunks(8) {
                        texts.push(format!("   {}", chunk.join("   ")));
                    }
                    texts
                }
                _ if self.hints_job.is_some() => vec![" Hints: thinking…".to_string()],
                _ => vec![" Hints: on".to_string()],
            };
            for text in texts {
                lines.push(vec![Span2 {
                    text,
                    fg: Tc::Magenta,
                    bg: Tc::Reset,
                    bold: false,
                }]);
            }
        }
        lines.push(vec![]);
        let onoff = |b: bool| if b { "on" } else { "off" };
        lines.push(vec![Span2::dim(format!(
            " arrows move · Enter/Space play · u undo · h hints ({}) · l legal marks ({}) · m sound ({}) · n new · q quit",
            onoff(self.hints_on),
            onoff(self.show_legal),
            onoff(!self.muted)
        ))]);
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

    fn board_lines(&self) -> Vec<Vec<Span2>> {
        let m = &self.m;
        let pos = m.game().position();
        let mover = pos.side_to_move();
        let human_turn = !m.is_over() && !m.computer_to_move();
        let legal = pos.legal_moves();
        let cursor = self.cursor_square();
        let preview = if human_turn && legal.contains(cursor) && self.anim.is_none() {
            pos.flips(cursor)
        } else {
            reversi::core::Bitboard::EMPTY
        };
        let last = m.game().last_move().map(|(_, s)| s);
        let hints: &[Hint] = match (&self.hints, self.hints_on) {
            (Some((n, h)), true) if *n == m.game().plies().len() => h,
            _ => &[],
        };
        let mut lines = Vec::new();
        let mut header = vec![Span2::plain("    ")];
        for c in b'a'..=b'h' {
            header.push(Span2::plain(format!(" {} ", c as char)));
        }
        lines.push(header);
        for row in 0..8u8 {
            let mut line = vec![Span2::plain(format!("  {} ", row + 1))];
            for col in 0..8u8 {
                let sq = Square::from_coords(col, row).expect("on the board");
                let mut disc = pos.color_at(sq);
                if let Some(a) = &self.anim {
                    if a.squares[a.shown..].contains(&sq) {
                        disc = Some(a.old);
                    }
                }
                let mut bg = if (row + col) % 2 == 0 {
                    Tc::Rgb {
                        r: 0,
                        g: 120,
                        b: 60,
                    }
                } else {
                    Tc::Rgb {
                        r: 0,
                        g: 105,
                        b: 52,
                    }
                };
                if Some(sq) == last {
                    bg = Tc::Rgb {
                        r: 190,
                        g: 30,
                        b: 30,
                    };
                }
                if preview.contains(sq) {
                    bg = Tc::Rgb {
                        r: 170,
                        g: 140,
                        b: 20,
                    };
                }
                if sq == cursor && matches!(self.screen, Screen::Game) {
                    bg = Tc::Rgb {
                        r: 40,
                        g: 90,
                        b: 200,
                    };
                }
                let (text, fg) = match disc {
                    Some(c) => (format!(" {} ", glyph(c)), disc_color(c)),
                    None if sq == cursor && human_turn && legal.contains(sq) => {
                        (format!(" {} ", glyph(mover)), Tc::Grey)
                    }
                    None if human_turn && legal.contains(sq) => {
                        match hints.iter().position(|h| h.square == sq) {
                            // The rank of the move, 1 for the best; the scores are listed below.
                            Some(rank) => (
                                format!("{:^3}", rank + 1),
                                if rank == 0 { Tc::Yellow } else { Tc::White },
                            ),
                            None if self.show_legal => (
                                " · ".to_string(),
                                Tc::Rgb {
                                    r: 190,
                                    g: 230,
                                    b: 190,
                                },
                            ),
                            None => ("   ".to_string(), Tc::Reset),
                        }
                    }
                    None => ("   ".to_string(), Tc::Reset),
                };
                line.push(Span2 {
                    text,
                    fg,
                    bg,
                    bold: true,
                });
            }
            lines.push(line);
        }
        lines.push(vec![Span2::dim(format!(
            "    cursor {cursor}{}",
            if preview.count() > 0 {
                format!(": flips {}", preview.count())
            } else {
                String::new()
            }
        ))]);
        lines
    }

    /// The move history: numbered plies in columns of eight, passes included.
    fn history_lines(&self) -> Vec<Vec<Span2>> {
        let plies = self.m.game().plies();
        let rows = 8;
        let mut lines: Vec<Vec<Span2>> = vec![vec![Span2::bold("Moves", Tc::Reset)]];
        let max_cols = 6;
        let first = if plies.len() > rows * max_cols {
            (plies.len() - rows * max_cols).div_ceil(rows) * rows
        } else {
            0
        };
        for r in 0..rows {
            let mut line = Vec::new();
            let mut i = first + r;
            while i < plies.len() {
                let p = plies[i];
                let glyph = glyph(p.color);
                let mv = match p.mv {
                    Move::Place(s) => s.to_string(),
                    Move::Pass => "pass".to_string(),
                };
                line.push(Span2 {
                    text: format!("{:>2} {glyph} {mv:<4}  ", i + 1),
                    fg: if p.mv == Move::Pass {
                        Tc::Yellow
                    } else {
                        Tc::Reset
                    },
                    bg: Tc::Reset,
                    bold: false,
                });
                i += rows;
            }
            lines.push(line);
        }
        lines
    }
}

/// The colour of a disc on screen.
fn disc_color(c: Color) -> Tc {
    match c {
        Color::Black => Tc::Black,
        Color::White => Tc::White,
    }
}

/// The disc of a colour as text: `●` black, `○` white (told apart without colour too).
fn glyph(c: Color) -> &'static str {
    match c {
        Color::Black => "●",
        Color::White => "○",
    }
}

/// `Black` or `White`.
fn title(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A piece of text in colours.
#[derive(Clone)]
struct Span2 {
    text: String,
    fg: Tc,
    bg: Tc,
    bold: bool,
}

impl Span2 {
    fn plain(text: impl Into<String>) -> Span2 {
        Span2::styled(text, Tc::Reset, Tc::Reset)
    }

    fn dim(text: impl Into<String>) -> Span2 {
        Span2::styled(text, Tc::DarkGrey, Tc::Reset)
    }

    fn bold(text: impl Into<String>, fg: Tc) -> Span2 {
        Span2 {
            bold: true,
            ..Span2::styled(text, fg, Tc::Reset)
        }
    }

    fn styled(text: impl Into<String>, fg: Tc, bg: Tc) -> Span2 {
        Span2 {
            text: text.into(),
            fg,
            bg,
            bold: false,
        }
    }
}
