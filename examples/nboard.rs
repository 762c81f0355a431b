//! An NBoard engine: the Expert level speaking the NBoard protocol on stdin/stdout, so that
//! the NBoard GUI (or `arena --b "nboard:COMMAND"`) can drive it.
//!
//! ```text
//! cargo build --release --example nboard
//! target/release/examples/nboard      # then type: nboard 2 / set depth 8 / go / ping 1
//! target/release/examples/nboard --depth 4   # as if the GUI had sent `set depth 4`
//! ```
//!
//! Unknown or malformed lines are reported on stderr and otherwise ignored, as the protocol
//! asks; the session goes on.

use reversi::ai::nboard::Driver;
use std::io::{BufRead, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut driver = Driver::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => {}
        [flag, n] if flag == "--depth" => {
            let set = format!("set depth {n}");
            if n.parse::<u32>().is_err() || driver.handle(&set).is_err() {
                eprintln!("nboard: --depth needs a number of plies, not {n:?}");
                return ExitCode::from(2);
            }
        }
        _ => {
            eprintln!("usage: nboard [--depth PLIES]");
            return ExitCode::from(2);
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
