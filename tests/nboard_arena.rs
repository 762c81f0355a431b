//! The `arena` example against an external engine through the NBoard protocol
//! (`--b "nboard:COMMAND"`), with the real programs: `arena` starts the `nboard` example as a
//! separate process and plays it; an engine that answers an illegal move ends the match with an
//! error.
//!
//! The examples are built by `cargo test` (as by `cargo build --examples`) beside this test's
//! binary: `target/<profile>/examples/`.

use std::path::PathBuf;
use std::process::Command;

/// An example program built with this test.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps")
        .join("examples");
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: `cargo test` builds the examples (or run `cargo build --examples` first)",
        path.display()
    );
    path
}

#[test]
fn arena_plays_the_nboard_program_through_the_protocol() {
    let nboard = example("nboard");
    let out = Command::new(example("arena"))
        .args(["--a", "depth:2", "--games", "2", "--seed", "3"])
        .arg("--b")
        .arg(format!("nboard:{} --depth 2", nboard.display()))
        .output()
        .expect("arena runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "arena failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("games=2"), "{stdout}");
    // Both engines moved: the external one's line counts its moves.
    let line = stdout
        .lines()
        .find(|l| l.starts_with("nboard:"))
        .unwrap_or_else(|| panic!("no line of the NBoard engine:\n{stdout}"));
    let moves: usize = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("moves="))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(moves >= 20, "{line}");
}

#[cfg(unix)]
#[test]
fn an_engine_answering_an_illegal_move_ends_the_match() {
    use std::os::unix::fs::PermissionsExt;
    // A fake NBoard engine: answers pings, and always plays A1 (never legal early on).
    let dir = std::env::temp_dir().join(format!("nboard-fake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("fake-engine.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read -r l; do case \"$l\" in ping*) echo \"pong ${l#ping }\";; go) echo '=== A1/0/0';; esac; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = Command::new(example("arena"))
        .args(["--a", "depth:1", "--games", "2"])
        .arg("--b")
        .arg(format!("nboard:{}", script.display()))
        .output()
        .expect("arena runs");
    std::fs::remove_dir_all(&dir).ok();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "arena accepted an illegal move");
    assert!(stderr.contains("illegal move"), "{stderr}");
}

/// The record (`arena --record`) of a match of `a` against `b`: four games, two openings.
fn recorded_match(a: &str, b: &str, seed: &str, name: &str) -> String {
    recorded_match_with(a, b, seed, name, &["--games", "4"]).1
}

/// The standard output and the record of a match of `a` against `b` with `extra` arguments.
fn recorded_match_with(
    a: &str,
    b: &str,
    seed: &str,
    name: &str,
    extra: &[&str],
) -> (String, String) {
    let path = std::env::temp_dir().join(format!("{name}-{}.txt", std::process::id()));
    let out = Command::new(example("arena"))
        .args(["--a", a, "--b", b, "--seed", seed])
        .args(extra)
        .arg("--record")
        .arg(&path)
        .output()
        .expect("arena runs");
    let text = std::fs::read_to_string(&path);
    std::fs::remove_file(&path).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        text.expect("the record"),
    )
}

#[test]
fn games_played_at_a_time_are_the_games_of_one_job() {
    // Deterministic engines: three jobs play the same ten games as one, only their order of
    // ending may differ, and the result is the same.
    let games = ["--games", "10", "--random-openings", "4"];
    let (out1, rec1) = recorded_match_with("depth:3", "nodes:3000", "17", "arena-jobs1", &games);
    let jobs = [&games[..], &["--jobs", "3"]].concat();
    let (out3, rec3) = recorded_match_with("depth:3", "nodes:3000", "17", "arena-jobs3", &jobs);
    let sorted = |r: &str| {
        let mut lines: Vec<String> = r.lines().map(str::to_string).collect();
        lines.sort_by_key(|l| l.split_whitespace().next().unwrap().parse::<u32>().unwrap());
        lines
    };
    let (one, three) = (sorted(&rec1), sorted(&rec3));
    assert_eq!(one.len(), 10, "{rec1}");
    assert_eq!(one, three);
    // The result lines (all but the times, which are measured) agree.
    let result = |o: &str| -> Vec<String> {
        o.lines()
            .filter(|l| !l.contains("_move_s="))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(result(&out1), result(&out3));
    assert!(out3.contains("games=10"), "{out3}");
}

#[test]
fn zero_jobs_is_refused() {
    let out = Command::new(example("arena"))
        .args([
            "--a", "depth:1", "--b", "depth:1", "--games", "2", "--jobs", "0",
        ])
        .output()
        .expect("arena runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--jobs"), "{stderr}");
}

/// A record line's fields, its start position, its game and the colour of engine A.
fn replay(
    line: &str,
) -> (
    Vec<&str>,
    reversi::core::Position,
    reversi::core::Game,
    reversi::core::Color,
) {
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(f.len(), 6, "{line}");
    let start: reversi::core::Position = format!("{} {}", f[3], f[4]).parse().expect("OBF");
    let game = reversi::core::Game::transcript_from(start, f[5]).expect("legal moves");
    let first = start.side_to_move();
    let a = if f[1] == "a" { first } else { !first };
    (f, start, game, a)
}

#[test]
fn the_record_replays_each_game_to_its_result() {
    let text = recorded_match("depth:2", "depth:1", "9", "arena-record");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for (i, line) in lines.iter().enumerate() {
        let (f, start, game, a) = replay(line);
        assert_eq!(f[0], (i + 1).to_string());
        // Games alternate the first mover; each opening is the start plus 6 random plies.
        assert_eq!(f[1], if i % 2 == 0 { "a" } else { "b" });
        assert_eq!(start, reversi::core::Position::initial());
        assert!(game.is_over(), "{line}");
        let end = game.position();
        let diff = end.count(a) as i32 - end.count(!a) as i32;
        assert_eq!(f[2].parse::<i32>().unwrap(), diff, "{line}");
    }
    // Both games of an opening start with the same six plies.
    let opening = |l: &str| l.split_whitespace().nth(5).unwrap()[..12].to_string();
    assert_eq!(opening(lines[0]), opening(lines[1]));
}

#[test]
fn review_solves_each_recorded_game_where_asked() {
    use reversi::ai::{Limits, Scoring, SolveOptions, Solver};
    use std::sync::atomic::AtomicBool;
    let path = std::env::temp_dir().join(format!("arena-review-{}.txt", std::process::id()));
    std::fs::write(
        &path,
        recorded_match("depth:1", "depth:3", "11", "arena-review-match"),
    )
    .expect("the record is written");
    let out = Command::new(example("review"))
        .arg(&path)
        .args(["--at", "14"])
        .output()
        .expect("review runs");
    let record = std::fs::read_to_string(&path).expect("the record");
    std::fs::remove_file(&path).ok();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut solver = Solver::new();
    let wld = SolveOptions::exact(Scoring::Wof).with_wld(true);
    let (mut lines, mut counted) = (0, 0);
    for (game, line) in record.lines().zip(stdout.lines()) {
        // The record's game again, by hand: the value for A at 14 empties.
        let (f, _, g, a) = replay(game);
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[1], f[0], "{line}");
        let at = g.positions().iter().find(|p| p.empty().count() == 14);
        let Some(pos) = at.filter(|p| !p.is_game_over()) else {
            assert_eq!(words.last(), Some(&"-"), "{line}");
            continue;
        };
        let v = solver
            .solve_with(pos, &wld, &Limits::NONE, &AtomicBool::new(false))
            .unwrap()
            .score;
        let v = if pos.side_to_move() == a { v } else { -v };
        let shown = ["L", "D", "W"][(v + 1) as usize];
        assert_eq!(words.last(), Some(&shown), "{line} against {game}");
        lines += 1;
    }
    assert!(lines >= 3, "{stdout}");
    // The summary counts each of those games once.
    for l in stdout
        .lines()
        .filter(|l| l.len() < 12 && l.contains(" -> "))
    {
        counted += l.rsplit(' ').next().unwrap().parse::<u32>().unwrap();
    }
    assert_eq!(counted, lines, "{stdout}");
}
