//! Where the games of a match were decided: reads the records that `arena --record FILE`
//! writes and looks at each game's position when `--at E` empty squares were left:
//! `cargo run --release --example review -- RECORD... [--at E] [--threads N] [--eval-ms MS]`.
//!
//! - Without `--eval-ms`: the position is solved exactly (win, draw or loss for the side to
//!   move), and the table says, for engine A, what the position was worth and how the game
//!   ended: a game lost from a won position at 24 empties was lost in the endgame, one lost
//!   from a lost position earlier.
//! - With `--eval-ms MS`: the position is searched by Expert for MS milliseconds instead (an
//!   estimate in discs; `--at 54` after six random plies says how even each opening was), and
//!   the table groups the openings (the two games of a pair, colours swapped) by how far from
//!   even their first game's position was, with the pairs' results for A.
//!
//! Each game prints one line: the record file, the game's number, the engine that moved first,
//! A's disc difference, and the value for A at `E` empties (`W`, `D` or `L`; or discs; `-` for
//! a game that ended with more than `E` empties left, which the table leaves out).

use reversi_ai::{Engine, Expert, Limits, Scoring, SolveOptions, Solver};
use reversi_core::{Game, Position};
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn usage() -> ExitCode {
    eprintln!("usage: review RECORD... [--at EMPTIES] [--threads N] [--eval-ms MS]");
    ExitCode::from(2)
}

/// One recorded game.
struct Record {
    file: String,
    number: u32,
    a_first: bool,
    diff: i32,
    game: Game,
}

/// Reads a record file of `arena --record`.
fn read(file: &str) -> Result<Vec<Record>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |what: &str| format!("{file}: line {}: {what}", i + 1);
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.is_empty() {
            continue;
        }
        let [number, first, diff, board, side, rest @ ..] = f.as_slice() else {
            return Err(bad("expected NUMBER a|b DIFF BOARD SIDE MOVES"));
        };
        let number = number.parse().map_err(|_| bad("a bad game number"))?;
        let a_first = match *first {
            "a" => true,
            "b" => false,
            _ => return Err(bad("the first mover is not a or b")),
        };
        let diff = diff.parse().map_err(|_| bad("a bad disc difference"))?;
        let start: Position = format!("{board} {side}")
            .parse()
            .map_err(|e| bad(&format!("{e}")))?;
        let moves = rest.first().copied().unwrap_or("");
        let game = Game::transcript_from(start, moves).map_err(|e| bad(&format!("{e}")))?;
        out.push(Record {
            file: file.to_string(),
            number,
            a_first,
            diff,
            game,
        });
    }
    Ok(out)
}

/// The first position of the game with `empties` empty squares, and whether A is to move there.
fn at(r: &Record, empties: u32) -> Option<(Position, bool)> {
    let start = *r.game.start();
    let a = if r.a_first {
        start.side_to_move()
    } else {
        !start.side_to_move()
    };
    r.game
        .positions()
        .iter()
        .find(|p| p.empty().count() == empties && !p.is_game_over())
        .map(|p| (*p, p.side_to_move() == a))
}

fn wdl(v: i32) -> &'static str {
    match v.signum() {
        1 => "W",
        0 => "D",
        _ => "L",
    }
}

fn main() -> ExitCode {
    let (mut files, mut empties, mut threads, mut eval_ms) = (Vec::new(), 24u32, 1u32, None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |name: &str| match args.next().and_then(|n| n.parse::<u64>().ok()) {
            Some(n) if n >= 1 => Ok(n),
            _ => {
                eprintln!("review: {name} needs a positive number");
                Err(usage())
            }
        };
        match a.as_str() {
            "--at" => match num("--at") {
                Ok(n) if n <= 60 => empties = n as u32,
                Ok(_) => {
                    eprintln!("review: --at needs 1 to 60 empties");
                    return usage();
                }
                Err(e) => return e,
            },
            "--threads" => match num("--threads") {
                Ok(n) => threads = n.min(256) as u32,
                Err(e) => return e,
            },
            "--eval-ms" => match num("--eval-ms") {
                Ok(n) => eval_ms = Some(n),
                Err(e) => return e,
            },
            "-h" | "--help" => return usage(),
            f if !f.starts_with("--") => files.push(f.to_string()),
            other => {
                eprintln!("review: unexpected argument {other:?}");
                return usage();
            }
        }
    }
    if files.is_empty() {
        return usage();
    }
    let mut records = Vec::new();
    for f in &files {
        match read(f) {
            Ok(r) => records.extend(r),
            Err(e) => {
                eprintln!("review: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let stop = AtomicBool::new(false);
    let limits = Limits::NONE.with_threads(threads);
    let mut solver = Solver::new();
    let wld = SolveOptions::exact(Scoring::Wof).with_wld(true);
    // Values already found, by position: both games of an opening share their first ones.
    let mut known: BTreeMap<String, i32> = BTreeMap::new();
    let mut values = Vec::new();
    for r in &records {
        let value = match at(r, empties) {
            None => None,
            Some((pos, a_to_move)) => {
                let key = pos.to_board_string();
                let v = match known.get(&key) {
                    Some(&v) => v,
                    None => {
                        let v = match eval_ms {
                            None => solver
                                .solve_with(&pos, &wld, &limits, &stop)
                                .map(|s| s.score),
                            Some(ms) => Expert::new()
                                .with_limits(
                                    Limits::time(Duration::from_millis(ms)).with_threads(threads),
                                )
                                .choose(&pos, &Limits::NONE, &stop)
                                .map(|s| s.score),
                        };
                        match v {
                            Ok(v) => {
                                known.insert(key, v);
                                v
                            }
                            Err(e) => {
                                eprintln!("review: {} game {}: {e}", r.file, r.number);
                                return ExitCode::from(1);
                            }
                        }
                    }
                };
                Some(if a_to_move { v } else { -v })
            }
        };
        let shown = match (value, eval_ms) {
            (None, _) => "-".to_string(),
            (Some(v), None) => wdl(v).to_string(),
            (Some(v), Some(_)) => format!("{v:+}"),
        };
        println!(
            "{} {} {} {:+} {shown}",
            r.file,
            r.number,
            if r.a_first { 'a' } else { 'b' },
            r.diff
        );
        values.push(value);
    }
    let ended_before = values.iter().filter(|v| v.is_none()).count();
    match eval_ms {
        None => {
            // (value for A at E empties, result for A) -> games
            let mut table: BTreeMap<(&str, &str), u32> = BTreeMap::new();
            for (r, v) in records.iter().zip(&values) {
                if let Some(v) = v {
                    *table.entry((wdl(*v), wdl(r.diff))).or_default() += 1;
                }
            }
            println!("value for A at {empties} empties -> result for A: games");
            for ((v, res), n) in table {
                println!("{v} -> {res}: {n}");
            }
        }
        Some(_) => {
            // Pairs: consecutive games of one file on the same opening.
            let mut buckets: BTreeMap<u32, (u32, f64, BTreeMap<String, u32>)> = BTreeMap::new();
            for (i, pair) in records.chunks(2).enumerate() {
                // arena plays each opening twice in a row, games 2k - 1 and 2k.
                let [g1, g2] = pair else { continue };
                let same = g1.file == g2.file && g1.number % 2 == 1 && g2.number == g1.number + 1;
                let Some(v) = values[2 * i].filter(|_| same) else {
                    continue;
                };
                let bucket = (v.unsigned_abs() / 4).min(3);
                let e = buckets.entry(bucket).or_default();
                e.0 += 1;
                let mut res: Vec<&str> = pair.iter().map(|g| wdl(g.diff)).collect();
                res.sort_unstable();
                for g in pair {
                    e.1 += match g.diff.signum() {
                        1 => 1.0,
                        0 => 0.5,
                        _ => 0.0,
                    };
                }
                *e.2.entry(res.concat()).or_default() += 1;
            }
            println!("|estimate| at {empties} empties: openings, pairs' results for A, A's points");
            for (b, (n, points, results)) in buckets {
                let range = if b == 3 {
                    "12+".to_string()
                } else {
                    format!("{}-{}", 4 * b, 4 * b + 3)
                };
                let results: Vec<String> =
                    results.iter().map(|(k, v)| format!("{k} {v}")).collect();
                println!(
                    "{range}: {n} openings, {}, {:.1} %",
                    results.join(", "),
                    100.0 * points / (2.0 * f64::from(n))
                );
            }
        }
    }
    if ended_before > 0 {
        println!("{ended_before} games ended with more than {empties} empties left");
    }
    ExitCode::SUCCESS
}
