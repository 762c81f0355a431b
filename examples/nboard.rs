//! An NBoard engine: the Expert level speaking the NBoard protocol on stdin/stdout, so that
//! the NBoard GUI (or `arena --b "nboard:COMMAND"`) can drive it. It thinks 0.95 s a move, or
//! on the game's clock when `set game` sends a time control (GGF `TI`, `TB`, `TW`; see
//! `reversi::ai::nboard::Driver`).
//!
//! ```text
//! cargo build --release --example nboard
//! target/release/examples/nboard      # then type: nboard 2 / set depth 8 / go / ping 1
//! target/release/examples/nboard --depth 4   # as if the GUI had sent `set depth 4`
//! target/release/examples/nboard --threads 1 # one search thread (default: the machine's cores)
//! ```
//!
//! Unknown or malformed lines are reported on stderr and otherwise ignored, as the protocol
//! asks; the session goes on.

use reversi::ai::nboard::Driver;
use std::io::{BufRead, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    // The machine's cores unless asked (docs/engine.md, "Threads").
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get().min(256) as u32);
    let mut driver = Driver::new().with_threads(cores);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let n = args.next().unwrap_or_default();
        match flag.as_str() {
            "--depth" => {
                let set = format!("set depth {n}");
                if n.parse::<u32>().is_err() || driver.handle(&set).is_err() {
                    eprintln!("nboard: --depth needs a number of plies, not {n:?}");
                    return ExitCode::from(2);
                }
            }
            "--threads" => match n.parse::<u32>() {
                Ok(t) if (1..=256).contains(&t) => driver = driver.with_threads(t),
                _ => {
                    eprintln!("nboard: --threads needs a number from 1 to 256, not {n:?}");
                    return ExitCode::from(2);
                }
            },
            _ => {
                eprintln!("usage: nboard [--depth PLIES] [--threads N]");
                return ExitCode::from(2);
            }
        }
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim() == "quit" {
            break;
        }
        match driver.handle(&line) {
            Ok(answers) => {
                for a in answers {
                    if writeln!(out, "{a}").is_err() {
                        return ExitCode::SUCCESS;
                    }
                }
                if out.flush().is_err() {
                    return ExitCode::SUCCESS;
                }
            }
            Err(e) => eprintln!("nboard: {e}"),
        }
    }
    ExitCode::SUCCESS
}
