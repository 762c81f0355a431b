//! An NBoard engine: the Expert level speaking the NBoard protocol on stdin/stdout, so that
//! the NBoard GUI (or `arena --b "nboard:COMMAND"`) can drive it.
//!
//! ```text
//! cargo build --release --example nboard
//! target/release/examples/nboard      # then type: nboard 2 / set depth 8 / go / ping 1
//! ```
//!
//! Unknown or malformed lines are reported on stderr and otherwise ignored, as the protocol
//! asks; the session goes on.

use reversi::ai::nboard::Driver;
use std::io::{BufRead, Write};

fn main() {
    let mut driver = Driver::new();
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
                        return;
                    }
                }
                if out.flush().is_err() {
                    return;
                }
            }
            Err(e) => eprintln!("nboard: {e}"),
        }
    }
}
