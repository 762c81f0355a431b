//! Plays two engines against each other:
//! `cargo run --release --example arena -- --a ENGINE --b ENGINE --games N
//! [--openings FILE | --random-openings PLIES] [--seed S] [--record FILE]`.
//!
//! An engine is `easy`, `normal`, `hard`, `expert`, `depth:N`, `nodes:N`, `expert:MS[:T]`
//! (Expert with MS milliseconds a move instead of its own 950, and its cuts' confidence T,
//! `Expert::with_confidence`), `expert-full:MS` (the same searching full width, without
//! Multi-ProbCut), or
//! `nboard:COMMAND`: an external program speaking the NBoard protocol, started with COMMAND
//! (split on spaces; for instance `nboard:target/release/examples/nboard` or
//! `nboard:edax -q -n 1 -l 18 -nboard`). It is told the position of each move as a GGF
//! game and answers `go`. Each opening is played twice,
//! with the colours swapped, so `--games` is rounded up to an even number. Openings come from a
//! file (one board per line in OBF, `BOARD SIDE`, scores ignored; or one transcript per line such
//! as `f5d6c3`) or are random legal moves from the start (`--random-openings`, default 6 plies),
//! drawn from the seed. A progress bar goes to stderr; the result goes to stdout: wins, draws and
//! losses of A, its points percentage, the Elo difference with a 95 % interval, and the longest
//! and median time per move of each engine. `--record FILE` writes each game as it ends, one
//! line each: the game's number, the engine that moved first (`a` or `b`), the disc difference
//! for A, the start position in OBF (`BOARD SIDE`) and the moves from it, passes written `PS`
//! (`Game::transcript_from` reads them back).

use reversi_ai::nboard::{Client, NBoardError, Reply};
use reversi_ai::{engine_from_name, AiError, Engine, Expert, Limits, SearchResult};
use reversi_core::{Game, Move, Position};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::ExitCode;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn usage() -> ExitCode {
    eprintln!(
        "usage: arena --a ENGINE --b ENGINE --games N [--openings FILE | --random-openings PLIES] [--seed S] [--record FILE]\n\
         ENGINE: easy | normal | hard | expert | depth:N | nodes:N | expert:MS[:T] | expert-full:MS | nboard:COMMAND"
    );
    ExitCode::from(2)
}

/// An external engine driven through the NBoard protocol: the library's sans-IO
/// [`Client`] says what to send and reads the engine's lines (checking its moves); this owns the
/// process and its pipes.
struct NBoardEngine {
    name: String,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    client: Client,
}

impl NBoardEngine {
    fn start(command: &str) -> Result<NBoardEngine, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("nboard: needs a command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {command:?}: {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut e = NBoardEngine {
            name: format!("nboard:{command}"),
            child,
            input,
            output,
            client: Client::new(None),
        };
        let lines = e.client.start();
        match e.exchange(lines)? {
            Reply::Ready => Ok(e),
            other => Err(format!("{}: answered {other:?} to its ping", e.name)),
        }
    }

    /// Sends `lines`, then reads the engine's lines until the client has its answer.
    fn exchange(&mut self, lines: Vec<String>) -> Result<Reply, String> {
        for line in lines {
            writeln!(self.input, "{line}")
                .and_then(|()| self.input.flush())
                .map_err(|e| format!("{}: cannot write: {e}", self.name))?;
        }
        loop {
            let mut line = String::new();
            match self.output.read_line(&mut line) {
                Ok(0) => return Err(format!("{}: the engine closed its output", self.name)),
                Ok(_) => {}
                Err(e) => return Err(format!("{}: cannot read: {e}", self.name)),
            }
            match self.client.read(&line) {
                Ok(Reply::Pending) => {}
                Ok(r) => return Ok(r),
                Err(e) => return Err(format!("{}: {e}", self.name)),
            }
        }
    }
}

impl Drop for NBoardEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Engine for NBoardEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &mut self,
        pos: &Position,
        _limits: &Limits,
        _stop: &AtomicBool,
    ) -> Result<SearchResult, AiError> {
        let lines = self.client.ask(pos).map_err(|e| match e {
            NBoardError::Engine(e) => e,
            _ => AiError::GameOver,
        })?;
        // The trait's error type has no room for IO or protocol failures: they end the match.
        match self.exchange(lines) {
            Ok(Reply::Move(mv)) => Ok(SearchResult::new(mv)),
            Ok(other) => {
                eprintln!("\narena: {}: answered {other:?} to go", self.name);
                std::process::exit(1)
            }
            Err(e) => {
                eprintln!("\narena: {e}");
                std::process::exit(1)
            }
        }
    }
}

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Tries for a random opening of `plies` plies (passes count as plies).
const OPENING_TRIES: u32 = 10_000;

/// A game of `plies` random legal plies from the start, still going; `None` when
/// [`OPENING_TRIES`] random games all ended first (too many plies).
fn random_opening(rng: &mut SplitMix, plies: u32) -> Option<Game> {
    'retry: for _ in 0..OPENING_TRIES {
        let mut game = Game::new();
        for _ in 0..plies {
            let moves = game.position().legal_move_list();
            if moves.is_empty() {
                continue 'retry;
            }
            game.play(moves[(rng.next() % moves.len() as u64) as usize])
                .expect("legal");
        }
        if !game.is_over() {
            return Some(game);
        }
    }
    None
}

fn read_openings(file: &str) -> Result<Vec<Game>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('%') || t.starts_with('#') {
            continue;
        }
        let game = if t.len() >= 64 && t.contains(' ') {
            t.parse::<reversi_core::notation::ObfLine>()
                .map(|l| Game::from_position(l.position))
                .map_err(|e| format!("{file}: line {}: {e}", i + 1))?
        } else {
            Game::from_transcript(t).map_err(|e| format!("{file}: line {}: {e}", i + 1))?
        };
        if game.is_over() {
            return Err(format!("{file}: line {}: the game is already over", i + 1));
        }
        out.push(game);
    }
    if out.is_empty() {
        return Err(format!("{file}: no opening"));
    }
    Ok(out)
}

/// Plays one game on from `game` (the opening), adding its moves to it; returns the disc
/// difference for `first` (the engine moving first) and the time of each move of each engine.
fn play(
    engines: [&mut Box<dyn Engine>; 2],
    game: &mut Game,
    times: &mut [Vec<Duration>; 2],
) -> Result<i32, String> {
    let stop = AtomicBool::new(false);
    let first_color = game.position().side_to_move();
    let mut turn = 0usize;
    let [a, b] = engines;
    let engines = [a, b];
    while !game.is_over() {
        let i = turn % 2;
        let pos = *game.position();
        let t = Instant::now();
        let r = engines[i]
            .choose(&pos, &Limits::NONE, &stop)
            .map_err(|e| format!("{}: {e}", engines[i].name()))?;
        if r.best_move != Move::Pass {
            times[i].push(t.elapsed());
        }
        game.play(r.best_move)
            .map_err(|e| format!("{} played an illegal move: {e}", engines[i].name()))?;
        turn += 1;
    }
    let pos = game.position();
    let d = pos.count(first_color) as i32 - pos.count(!first_color) as i32;
    Ok(d)
}

/// An engine of this library by name, or an external NBoard engine (`nboard:COMMAND`).
fn make_engine(name: &str, seed: u64) -> Result<Box<dyn Engine>, String> {
    for (prefix, selective) in [("expert:", true), ("expert-full:", false)] {
        if let Some(rest) = name.strip_prefix(prefix) {
            let bad = || format!("{name}: expected {prefix}MILLISECONDS[:CONFIDENCE]");
            let (ms, t) = match rest.split_once(':') {
                Some((ms, t)) => (ms, Some(t.parse::<f32>().map_err(|_| bad())?)),
                None => (rest, None),
            };
            let ms: u64 = ms.parse().ok().filter(|&ms| ms > 0).ok_or_else(bad)?;
            let mut e = Expert::new()
                .with_limits(Limits::time(Duration::from_millis(ms)))
                .with_selectivity(selective);
            if let Some(t) = t {
                e = e.with_confidence(t);
            }
            return Ok(Box::new(e));
        }
    }
    match name.strip_prefix("nboard:") {
        Some(cmd) => Ok(Box::new(NBoardEngine::start(cmd)?)),
        None => engine_from_name(name, seed).map_err(|e| e.to_string()),
    }
}

fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Reports an option without a valid value, then the usage.
fn bad_value(option: &str, expected: &str) -> ExitCode {
    eprintln!("arena: {option} needs {expected}");
    usage()
}

fn main() -> ExitCode {
    let (mut a, mut b, mut games, mut openings_file, mut random_plies, mut seed) =
        (None, None, None, None, 6u32, 1u64);
    let mut record_file: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut val = || args.next();
        match arg.as_str() {
            "--a" => a = val(),
            "--b" => b = val(),
            "--games" => match val().and_then(|g| g.parse::<usize>().ok()) {
                Some(g) if g > 0 => games = Some(g),
                _ => return bad_value("--games", "a positive number of games"),
            },
            "--openings" => openings_file = val(),
            "--record" => match val() {
                Some(f) => record_file = Some(f),
                None => return bad_value("--record", "a file name"),
            },
            "--random-openings" => match val().and_then(|g| g.parse().ok()) {
                Some(p) => random_plies = p,
                None => return bad_value("--random-openings", "a number of plies"),
            },
            "--seed" => match val().and_then(|g| g.parse().ok()) {
                Some(s) => seed = s,
                None => return bad_value("--seed", "a number from 0 to 2^64 - 1"),
            },
            other => {
                eprintln!("arena: unknown argument {other:?}");
                return usage();
            }
        }
    }
    let (Some(a), Some(b), Some(games)) = (a, b, games) else {
        eprintln!("arena: --a, --b and --games are required");
        return usage();
    };
    let mut ea = match make_engine(&a, seed) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("arena: {e}");
            return usage();
        }
    };
    let mut eb = match make_engine(&b, seed ^ 0xB) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("arena: {e}");
            return usage();
        }
    };
    let pairs = games.div_ceil(2);
    let mut rng = SplitMix(seed);
    let openings: Vec<Game> = match &openings_file {
        Some(f) => match read_openings(f) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("arena: {e}");
                return ExitCode::from(2);
            }
        },
        None => match (0..pairs)
            .map(|_| random_opening(&mut rng, random_plies))
            .collect::<Option<Vec<_>>>()
        {
            Some(o) => o,
            None => {
                eprintln!(
                    "arena: no game was still going after {random_plies} random plies in \
                     {OPENING_TRIES} tries; ask for fewer --random-openings plies"
                );
                return ExitCode::from(2);
            }
        },
    };
    let mut record = match &record_file {
        Some(f) => match File::create(f) {
            Ok(file) => Some(std::io::BufWriter::new(file)),
            Err(e) => {
                eprintln!("arena: cannot create {f}: {e}");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let total = pairs * 2;
    for g in 0..total {
        let mut game = openings[(g / 2) % openings.len()].clone();
        let a_first = g % 2 == 0;
        let mut t2: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
        let r = if a_first {
            play([&mut ea, &mut eb], &mut game, &mut t2)
        } else {
            play([&mut eb, &mut ea], &mut game, &mut t2)
        };
        let diff = match r {
            Ok(x) => x,
            Err(e) => {
                eprintln!("\narena: game {}: {e}", g + 1);
                return ExitCode::from(1);
            }
        };
        let (ta, tb, da) = if a_first {
            (std::mem::take(&mut t2[0]), std::mem::take(&mut t2[1]), diff)
        } else {
            (
                std::mem::take(&mut t2[1]),
                std::mem::take(&mut t2[0]),
                -diff,
            )
        };
        times[0].extend(ta);
        times[1].extend(tb);
        if let Some(out) = record.as_mut() {
            let line = format!(
                "{} {} {da:+} {} {}",
                g + 1,
                if a_first { 'a' } else { 'b' },
                game.start().to_board_string(),
                game.transcript_with_passes()
            );
            if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                eprintln!("\narena: cannot write the record: {e}");
                return ExitCode::from(1);
            }
        }
        match da.cmp(&0) {
            std::cmp::Ordering::Greater => w += 1,
            std::cmp::Ordering::Equal => d += 1,
            std::cmp::Ordering::Less => l += 1,
        }
        let done = g + 1;
        let width = 40;
        let filled = done * width / total;
        eprint!(
            "\r[{}{}] {done}/{total}  {a} +{w} ={d} -{l}",
            "#".repeat(filled),
            "-".repeat(width - filled)
        );
        let _ = std::io::stderr().flush();
    }
    eprintln!();
    let n = f64::from(w + d + l);
    let score = (f64::from(w) + 0.5 * f64::from(d)) / n;
    // 95 % interval from the variance of the per-game score.
    let var = (f64::from(w) * (1.0 - score).powi(2)
        + f64::from(d) * (0.5 - score).powi(2)
        + f64::from(l) * score.powi(2))
        / n;
    let se = (var / n).sqrt();
    let (lo, hi) = (elo(score - 1.96 * se), elo(score + 1.96 * se));
    println!(
        "{a} vs {b}: games={} openings={}",
        w + d + l,
        pairs.min(openings.len())
    );
    println!(
        "{a}: wins={w} draws={d} losses={l} points={:.1}%",
        100.0 * score
    );
    println!(
        "elo_diff={:+.0} interval95=[{lo:+.0}, {hi:+.0}]",
        elo(score)
    );
    let [ta, tb] = &mut times;
    for (name, t) in [(&a, ta), (&b, tb)] {
        t.sort();
        let med = t.get(t.len() / 2).copied().unwrap_or_default();
        let max = t.last().copied().unwrap_or_default();
        println!(
            "{name}: moves={} longest_move_s={:.3} median_move_s={:.4}",
            t.len(),
            max.as_secs_f64(),
            med.as_secs_f64()
        );
    }
    ExitCode::SUCCESS
}
