//! Plays two engines against each other:
//! `cargo run --release --example arena -- --a ENGINE --b ENGINE --games N
//! [--openings FILE | --random-openings PLIES] [--seed S] [--record FILE] [--jobs N]`.
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
//!
//! `--jobs N` plays N games at a time, each job with engines of its own (an `nboard:` engine is
//! started N times): the same games as one job when the engines' moves depend on the position
//! alone (`depth:N`, `nodes:N`), in the order they end. Engines that play on time
//! share the machine's cores, so give each job a core of its own (`--jobs 2` on two cores, with
//! engines on one thread) or their moves get less search; Easy's random moves follow the job.

use reversi_ai::nboard::{Client, NBoardError, Reply};
use reversi_ai::{engine_from_name, AiError, Engine, Expert, Limits, SearchResult};
use reversi_core::{Game, Move, Position};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::ExitCode;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn usage() -> ExitCode {
    eprintln!(
        "usage: arena --a ENGINE --b ENGINE --games N [--openings FILE | --random-openings PLIES] [--seed S] [--record FILE] [--jobs N]\n\
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

/// A game of the match, played.
struct Finished {
    /// Its number from 0: openings in order, each played by A first, then by B first.
    number: usize,
    /// Whether A moved first.
    a_first: bool,
    /// The final disc difference for A.
    diff_for_a: i32,
    /// The opening and the moves played from it.
    game: Game,
    /// The time of each move of A and of B.
    times: [Vec<Duration>; 2],
}

/// Plays game number `g` of the match from `opening` between `a` and `b`.
fn play_numbered(
    g: usize,
    mut game: Game,
    a: &mut Box<dyn Engine>,
    b: &mut Box<dyn Engine>,
) -> Result<Finished, String> {
    let a_first = g.is_multiple_of(2);
    let mut t: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let r = if a_first {
        play([a, b], &mut game, &mut t)
    } else {
        play([b, a], &mut game, &mut t)
    };
    let diff = r.map_err(|e| format!("game {}: {e}", g + 1))?;
    let [first, second] = t;
    let (times, diff_for_a) = if a_first {
        ([first, second], diff)
    } else {
        ([second, first], -diff)
    };
    Ok(Finished {
        number: g,
        a_first,
        diff_for_a,
        game,
        times,
    })
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
    let mut jobs = 1usize;
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
            "--jobs" => match val().and_then(|j| j.parse::<usize>().ok()) {
                Some(j) if j > 0 => jobs = j,
                _ => return bad_value("--jobs", "a positive number of games at a time"),
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
    // Each job's own engines, all started before the first game so that a bad name or command
    // is reported at once; job 0's are seeded as a match of one job always was.
    let mut engines = Vec::with_capacity(jobs);
    for job in 0..jobs as u64 {
        let job_seed = seed.wrapping_add(job.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        match (make_engine(&a, job_seed), make_engine(&b, job_seed ^ 0xB)) {
            (Ok(ea), Ok(eb)) => engines.push((ea, eb)),
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("arena: {e}");
                return usage();
            }
        }
    }
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
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<Finished, String>>();
    std::thread::scope(|scope| {
        for (mut ea, mut eb) in engines {
            let (tx, next, openings) = (tx.clone(), &next, &openings);
            scope.spawn(move || loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= total {
                    break;
                }
                let opening = openings[(g / 2) % openings.len()].clone();
                let r = play_numbered(g, opening, &mut ea, &mut eb);
                let failed = r.is_err();
                if tx.send(r).is_err() || failed {
                    break;
                }
            });
        }
        drop(tx);
        // Each game as it ends, whichever job played it; a failure ends the match at once (the
        // games under way are not waited for).
        for (done, r) in rx.into_iter().enumerate() {
            let f = r.unwrap_or_else(|e| {
                eprintln!("\narena: {e}");
                std::process::exit(1)
            });
            if let Some(out) = record.as_mut() {
                let line = format!(
                    "{} {} {:+} {} {}",
                    f.number + 1,
                    if f.a_first { 'a' } else { 'b' },
                    f.diff_for_a,
                    f.game.start().to_board_string(),
                    f.game.transcript_with_passes()
                );
                if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                    eprintln!("\narena: cannot write the record: {e}");
                    std::process::exit(1)
                }
            }
            let [ta, tb] = f.times;
            times[0].extend(ta);
            times[1].extend(tb);
            match f.diff_for_a.cmp(&0) {
                std::cmp::Ordering::Greater => w += 1,
                std::cmp::Ordering::Equal => d += 1,
                std::cmp::Ordering::Less => l += 1,
            }
            let done = done + 1;
            let width = 40;
            let filled = done * width / total;
            eprint!(
                "\r[{}{}] {done}/{total}  {a} +{w} ={d} -{l}",
                "#".repeat(filled),
                "-".repeat(width - filled)
            );
            let _ = std::io::stderr().flush();
        }
    });
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
