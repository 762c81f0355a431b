//! OBF files (`BOARD SIDE; MOVE:SCORE; …` a line): never a panic, an error names its line, and
//! what parses prints back to lines that parse to the same thing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::core::notation::{parse_obf, ObfLine};
use reversi::core::ObfError;

fn print(line: &ObfLine) -> String {
    let mut s = line.position.to_board_string();
    for (mv, score) in &line.scores {
        s.push_str(&format!("; {mv}:{score:+}"));
    }
    s.push(';');
    s
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    match parse_obf(s) {
        Ok(lines) => {
            let text: String = lines.iter().map(|l| print(l) + "\n").collect();
            assert_eq!(parse_obf(&text).as_ref(), Ok(&lines));
            for l in &lines {
                assert!(l.scores.iter().all(|&(_, sc)| (-64..=64).contains(&sc)));
                assert_eq!(l.best_score(), l.scores.iter().map(|&(_, sc)| sc).max());
            }
        }
        Err(ObfError { line, .. }) => {
            assert!(line >= 1 && line <= s.lines().count(), "line {line}");
        }
    }
    if let Ok(l) = s.parse::<ObfLine>() {
        assert_eq!(print(&l).parse::<ObfLine>().as_ref(), Ok(&l));
    }
});
