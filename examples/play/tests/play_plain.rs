//! Whole games through `play --plain` with piped stdin: two people, each computer level, bad
//! input, saving and resuming, and a loss on time.
//!
//! The tests run the `play` binary that cargo builds for them (`CARGO_BIN_EXE_play`).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use reversi::core::{Color, Game};

/// The path of the `play` program, built by cargo for this test.
fn program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_play"))
}

/// A fresh save path in a temporary directory, so that no test resumes another's game or
/// touches the user's data directory.
fn temp_save(tag: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "reversi-play-test-{}-{tag}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("game.json")
}

fn command(save: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(program());
    cmd.arg("--plain")
        .arg("--save")
        .arg(save)
        .args(args)
        // Keep the user's data directory out of it even if --save were ignored.
        .env("XDG_DATA_HOME", save.parent().unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Runs the program with all of `input` piped at once; returns its standard output.
fn run_script(save: &Path, args: &[&str], input: &str) -> String {
    let mut child = command(save, args).spawn().expect("the program starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The single `result:` line of an output.
fn result_line(out: &str) -> &str {
    let results: Vec<&str> = out.lines().filter(|l| l.starts_with("result: ")).collect();
    assert_eq!(results.len(), 1, "one result line expected in:\n{out}");
    results[0]
}

/// A conversation with a running program: send a line, read up to the next prompt.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    transcript: String,
}

impl Session {
    fn start(save: &Path, args: &[&str]) -> Session {
        let mut child = command(save, args).spawn().expect("the program starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session {
            child,
            stdin,
            stdout,
            transcript: String::new(),
        }
    }

    /// Reads lines until a prompt (`... (legal: ...)`) or the result. Returns the legal moves
    /// of the prompt, or `None` at the result.
    fn read_to_prompt(&mut self) -> Option<Vec<String>> {
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(n > 0, "the program ended early:\n{}", self.transcript);
            self.transcript.push_str(&line);
            if line.starts_with("result: ") {
                return None;
            }
            if let Some(i) = line.find("(legal: ") {
                let list = line[i + 8..].trim_end().trim_end_matches(')');
                return Some(list.split_whitespace().map(str::to_string).collect());
            }
        }
    }

    fn send(&mut self, line: &str) {
        self.transcript.push_str(&format!("> {line}\n"));
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn finish(mut self) -> String {
        drop(self.stdin);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        self.transcript.push_str(&rest);
        assert!(self.child.wait().unwrap().success(), "{}", self.transcript);
        self.transcript
    }
}

/// Plays a whole game against a level, the person always taking the first legal move listed.
fn game_against(level: &str, color: &str, seed: &str) -> String {
    let save = temp_save(level);
    let mut s = Session::start(
        &save,
        &["--opponent", level, "--color", color, "--seed", seed],
    );
    let mut moves = 0;
    while let Some(legal) = s.read_to_prompt() {
        assert!(!legal.is_empty(), "a prompt lists moves:\n{}", s.transcript);
        s.send(&legal[0]);
        moves += 1;
        assert!(moves <= 64, "too many moves:\n{}", s.transcript);
    }
    let out = s.finish();
    assert!(!save.exists(), "a finished game leaves no save");
    out
}

/// Checks a result line against the final board the program printed.
fn check_result(out: &str) -> (u32, u32) {
    let line = result_line(out);
    let parts: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(parts.len(), 6, "{line}");
    assert_eq!((parts[1], parts[3]), ("black", "white"), "{line}");
    let b: u32 = parts[2].parse().unwrap();
    let w: u32 = parts[4].parse().unwrap();
    let verdict = match b.cmp(&w) {
        std::cmp::Ordering::Greater => "black-wins",
        std::cmp::Ordering::Less => "white-wins",
        std::cmp::Ordering::Equal => "draw",
    };
    assert_eq!(parts[5], verdict, "{line}");
    assert!(b + w <= 64);
    (b, w)
}

/// A full game between two people (random legal moves from a fixed seed, found once with
/// `reversi-core`), in which white passes once near the end. Its final counts are fixed here.
const FULL_GAME: &str = "f5d6c7f4c5g6d3b8g4d2e7g3g5d7c2b6b5b2h7h6g2f6h5d8f7b4a5h4f8g7c3a3e1f2b3g1b1e6g8h8c8d1c6a4a6a7c4a2a8b7e8f3e2e3h2h3c1f1h1a1";

#[test]
fn two_people_play_a_full_transcript() {
    let game = Game::from_transcript(FULL_GAME).unwrap();
    assert!(game.is_over());
    assert!(game.passes().count() > 0, "the transcript has a pass");
    let pos = game.position();
    // The exact counts of this game.
    assert_eq!((pos.count(Color::Black), pos.count(Color::White)), (43, 21));

    let save = temp_save("people");
    let mut input = String::new();
    for ply in game.plies() {
        if let Some(sq) = ply.mv.square() {
            input += &format!("{sq}\n");
        }
    }
    let out = run_script(&save, &["--opponent", "human"], &input);
    assert_eq!(result_line(&out), "result: black 43 white 21 black-wins");
    assert_eq!(check_result(&out), (43, 21));
    assert!(out.contains("black plays f5, flips e5\n"), "{out}");
    let (_, passer) = game.passes().next().unwrap();
    assert!(
        out.contains(&format!(
            "{passer} passes: no legal move; {} moves again",
            !passer
        )),
        "{out}"
    );
    assert!(!out.contains("error"), "{out}");
    assert!(!save.exists(), "a finished game leaves no save");
}

#[test]
fn the_shortest_game_wipes_white_out() {
    let save = temp_save("short");
    let out = run_script(
        &save,
        &["--opponent", "human"],
        "e6\nf4\ne3\nf6\ng5\nd6\ne7\nf5\nc5\n",
    );
    assert!(out.contains("game over: black wins\n"), "{out}");
    assert_eq!(result_line(&out), "result: black 13 white 0 black-wins");
}

/// A board as the program prints it: the column letters, then the rows numbered 1 to 8.
fn board(rows: &[&str; 8]) -> String {
    let mut s = "  a b c d e f g h\n".to_string();
    for (i, row) in rows.iter().enumerate() {
        s += &format!("{} {row}\n", i + 1);
    }
    s
}

#[test]
fn bad_input_leaves_the_game_unchanged() {
    let save = temp_save("bad");
    let input = "board\nz9\na1\n\nd4\nd3 e3\npass\ndescribe\ndescribe q0\nboard\ndescribe d3\ndescribe d4\ndescribe a1\nd3\nboard\nquit\n";
    let out = run_script(&save, &["--opponent", "human"], input);
    let lines: Vec<&str> = out.lines().collect();
    let errors: Vec<&&str> = lines.iter().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 8, "{out}");
    assert!(out.contains("error: \"z9\" is not a square (a1 to h8) or a command; type help\n"));
    assert!(
        out.contains("error: a1 flips no disc, so it is not a legal move\n"),
        "{out}"
    );
    assert!(
        out.contains("error: empty line; type a square such as d3, or help\n"),
        "{out}"
    );
    assert!(out.contains("error: square d4 is occupied\n"), "{out}");
    assert!(
        out.contains("error: black cannot pass: a legal move exists"),
        "{out}"
    );
    assert!(out.contains("d3, empty, legal, flips 1\n"), "{out}");
    assert!(out.contains("d4, white\n"), "{out}");
    assert!(out.contains("a1, empty, not legal\n"), "{out}");
    // Every board before d3 is the start position; then d3 flips d4.
    let start = board(&[
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . O X . . .",
        ". . . X O . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
    ]) + "  X black 2, O white 2, . empty\n";
    let after = board(&[
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . X . . . .",
        ". . . X X . . .",
        ". . . X O . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
    ]) + "  X black 4, O white 1, . empty\n";
    assert_eq!(out.matches(&start).count(), 3, "{out}");
    // Once after the move, once asked for.
    assert_eq!(out.matches(&after).count(), 2, "{out}");
    assert!(out.contains("black plays d3, flips d4\n"));
    assert!(!out.contains("result:"), "quit is not the end of the game");
    assert!(save.exists(), "quit saves the game");
}

#[test]
fn undo_takes_back_one_move_between_people_and_a_pair_against_the_computer() {
    let save = temp_save("undo-people");
    let out = run_script(
        &save,
        &["--opponent", "human"],
        "undo\nf5\nf6\nundo\nboard\nquit\n",
    );
    assert!(out.contains("error: nothing to undo\n"), "{out}");
    assert!(out.contains("took back 1 move\n"), "{out}");
    assert!(out.contains("white to move, black 4 white 1"), "{out}");

    let save = temp_save("undo-computer");
    let mut s = Session::start(&save, &["--opponent", "easy", "--seed", "3"]);
    let legal = s.read_to_prompt().unwrap();
    assert_eq!(legal, ["d3", "c4", "f5", "e6"]);
    s.send("f5");
    s.read_to_prompt().unwrap();
    s.send("undo");
    let again = s.read_to_prompt().unwrap();
    assert_eq!(again, legal, "back at the start, black to move");
    s.send("quit");
    let out = s.finish();
    assert!(out.contains("took back 2 moves\n"), "{out}");
}

#[test]
fn a_game_is_saved_and_resumed() {
    let save = temp_save("resume");
    let out = run_script(&save, &["--opponent", "human"], "f5\nd6\nquit\n");
    assert!(out.contains("the game is saved to"), "{out}");
    let json = std::fs::read_to_string(&save).unwrap();
    assert!(json.contains("\"moves\""), "{json}");
    assert!(json.contains("\"clock\""), "{json}");

    // No game flag: the saved game goes on.
    let out = run_script(&save, &[], "board\nquit\n");
    assert!(
        out.contains("resumed the saved game after 2 moves: f5d6\n"),
        "{out}"
    );
    assert!(out.contains("reversi: two players"), "{out}");
    assert!(out.contains("black to move, black 3 white 3"), "{out}");

    // --new ignores it.
    let out = run_script(&save, &["--new", "--opponent", "human"], "quit\n");
    assert!(!out.contains("resumed"), "{out}");
}

#[test]
fn a_game_against_the_computer_is_resumed_at_its_level() {
    let save = temp_save("resume-level");
    run_script(&save, &["--opponent", "hard", "--seed", "5"], "quit\n");
    let json = std::fs::read_to_string(&save).unwrap();
    assert!(json.contains("\"computer\": \"hard\""), "{json}");

    let out = run_script(&save, &[], "quit\n");
    assert!(
        out.contains("reversi: you (black) against the computer (hard)"),
        "{out}"
    );
}

#[test]
fn a_player_loses_on_time() {
    let save = temp_save("time");
    // One second each: black does not move, and the program says so by itself.
    let mut s = Session::start(&save, &["--opponent", "human", "--total", "0:01"]);
    s.read_to_prompt().unwrap();
    assert!(s.read_to_prompt().is_none());
    let out = s.finish();
    assert!(out.contains("black ran out of time: white wins\n"), "{out}");
    assert_eq!(result_line(&out), "result: black 2 white 2 white-wins");
}

#[test]
fn time_controls_are_read_as_typed() {
    for (flags, shown) in [
        (&[][..], "no time limit"),
        (&["--per-move", "15"], "15 s a move"),
        (&["--per-move", "0:30"], "30 s a move"),
        (&["--per-move", "60"], "60 s a move"),
        (&["--per-move", "90"], "1:30 a move"),
        (&["--per-move=20"], "20 s a move"),
        (&["--total", "10"], "10:00 each"),
        (&["--total", "20"], "20:00 each"),
        (&["--total", "15"], "15:00 each"),
        (&["--total", "10:00"], "10:00 each"),
        (&["--total", "5:30"], "5:30 each"),
        (&["--total", "5.5"], "5:30 each"),
        (
            &["--per-move", "30", "--total", "10:00"],
            "30 s a move, 10:00 each",
        ),
        (
            &["--total", "5", "--per-move", "15"],
            "15 s a move, 5:00 each",
        ),
    ] {
        let save = temp_save("time-flag");
        let mut args = vec!["--opponent", "human"];
        args.extend_from_slice(flags);
        let out = run_script(&save, &args, "quit\n");
        assert!(
            out.starts_with(&format!("reversi: two players, {shown}\n")),
            "{flags:?}: {out}"
        );
    }
}

/// Runs the program expecting it to refuse its flags; returns the standard error.
fn refused(save: &Path, args: &[&str]) -> String {
    let out = command(save, args).stdin(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    stderr
}

#[test]
fn bad_flags_are_refused() {
    for args in [
        &["--opponent", "grandmaster"][..],
        &["--per-move", "ten"],
        &["--per-move", "1.5"],
        &["--total", "5:60"],
        &["--total", "ten"],
        &["--per-move"],
        &["--seed", "x"],
        &["--color", "green"],
        &["--frobnicate"],
    ] {
        // In a temporary directory too: a flag wrongly accepted would start (and save) a game.
        let save = temp_save("flags");
        let err = refused(&save, args);
        assert!(err.starts_with("play: "), "{err}");
        assert!(!save.exists());
    }
}

#[test]
fn zero_time_is_refused_with_a_message() {
    for (args, says) in [
        (
            &["--per-move", "0"][..],
            "--per-move \"0\": the time for a move must be more than zero; leave --per-move out for no limit",
        ),
        (
            &["--per-move", "0:00"],
            "--per-move \"0:00\": the time must be more than zero",
        ),
        (
            &["--total", "0"],
            "--total \"0\": the time must be more than zero; leave --total out for no limit",
        ),
        (
            &["--total", "0:00", "--per-move", "10"],
            "--total \"0:00\": the time must be more than zero",
        ),
    ] {
        let save = temp_save("zero");
        let err = refused(&save, args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn the_old_time_flag_is_refused_naming_the_new_ones() {
    for value in ["15", "20", "0", "unlimited"] {
        let err = refused(&temp_save("old-time"), &["--time", value]);
        assert!(err.contains("--time is gone"), "{err}");
        assert!(err.contains("--per-move SECONDS"), "{err}");
        assert!(err.contains("--total TIME"), "{err}");
    }
}

#[test]
fn a_saved_game_is_not_replaced_without_new() {
    let save = temp_save("protect");
    run_script(&save, &["--opponent", "human"], "f5\nd6\nquit\n");
    let saved = std::fs::read_to_string(&save).unwrap();
    for args in [
        &["--opponent", "easy"][..],
        &["--color", "white"],
        &["--per-move", "15"],
        &["--total", "5"],
        &["--seed", "4"],
    ] {
        let err = refused(&save, args);
        assert!(err.contains("a game is saved in"), "{err}");
        assert!(
            err.contains("two players, no time limit, 2 moves played"),
            "{err}"
        );
        assert!(err.contains(args[0]), "{err}");
        assert!(err.contains("add --new to replace it"), "{err}");
        assert_eq!(std::fs::read_to_string(&save).unwrap(), saved, "{args:?}");
    }
    // Without game flags it goes on; with --new it is replaced.
    let out = run_script(&save, &["--quiet"], "quit\n");
    assert!(
        out.contains("resumed the saved game after 2 moves"),
        "{out}"
    );
    let out = run_script(
        &save,
        &["--new", "--opponent", "easy", "--seed", "1"],
        "quit\n",
    );
    assert!(!out.contains("resumed"), "{out}");
    assert!(
        out.starts_with("reversi: you (black) against the computer (easy)"),
        "{out}"
    );
    let json = std::fs::read_to_string(&save).unwrap();
    assert!(json.contains("\"computer\": \"easy\""), "{json}");
}

#[test]
fn a_finished_or_unreadable_save_is_handled() {
    // A save that cannot be read is not replaced either: the message names --new.
    let save = temp_save("unreadable");
    std::fs::write(&save, "{ not json").unwrap();
    for args in [&[][..], &["--opponent", "human"]] {
        let out = command(&save, args).stdin(Stdio::null()).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("cannot read the saved game"), "{err}");
        assert!(err.contains("start with --new to replace it"), "{err}");
        assert_eq!(std::fs::read_to_string(&save).unwrap(), "{ not json");
    }
    let out = run_script(&save, &["--new", "--opponent", "human"], "f5\nquit\n");
    assert!(out.contains("black plays f5"), "{out}");
    assert!(std::fs::read_to_string(&save)
        .unwrap()
        .contains("\"moves\""));
}

#[test]
fn the_board_has_coordinates_and_a_legend_and_follows_every_move() {
    let save = temp_save("board");
    let out = run_script(&save, &["--opponent", "human"], "f5\nf4\nquit\n");
    let after_f5 = board(&[
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . O X . . .",
        ". . . X X X . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
    ]) + "  X black 4, O white 1, . empty\n";
    let after_f4 = board(&[
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . O O O . .",
        ". . . X X X . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
    ]) + "  X black 3, O white 3, . empty\n";
    let f5 = out.find("black plays f5, flips e5\n").unwrap();
    let f4 = out.find("white plays f4, flips e4\n").unwrap();
    assert_eq!(
        out[f5..].find(&after_f5),
        Some("black plays f5, flips e5\n".len()),
        "{out}"
    );
    assert_eq!(
        out[f4..].find(&after_f4),
        Some("white plays f4, flips e4\n".len()),
        "{out}"
    );
    assert_eq!(out.matches("  a b c d e f g h\n").count(), 3, "{out}");

    // --quiet: the board at the start only (and when asked).
    let save = temp_save("quiet");
    let out = run_script(&save, &["--opponent", "human", "--quiet"], "f5\nf4\nquit\n");
    assert_eq!(out.matches("  a b c d e f g h\n").count(), 1, "{out}");
    assert!(out.contains("white plays f4, flips e4\n"), "{out}");
    let out = run_script(&save, &["--quiet"], "board\nquit\n");
    assert_eq!(out.matches("  a b c d e f g h\n").count(), 2, "{out}");
    assert!(out.contains(&after_f4), "{out}");
}

#[test]
fn the_computer_s_moves_are_followed_by_the_board_too() {
    let save = temp_save("board-computer");
    let mut s = Session::start(&save, &["--opponent", "easy", "--seed", "9"]);
    s.read_to_prompt().unwrap();
    s.send("f5");
    s.read_to_prompt().unwrap();
    s.send("quit");
    let out = s.finish();
    let reply = out
        .find("white (computer) plays ")
        .expect("the computer replied");
    let rest = &out[reply..];
    let board_at = rest.find("  a b c d e f g h\n").unwrap();
    assert_eq!(rest[..board_at].lines().count(), 1, "{rest}");
    assert!(rest.contains("  X black 3, O white 3, . empty\n"), "{rest}");
}

#[test]
fn hints_name_their_unit_and_are_exact_only_near_the_end() {
    let save = temp_save("hints");
    let out = run_script(&save, &["--opponent", "human"], "hint\nquit\n");
    let line = out.lines().find(|l| l.starts_with("hints")).unwrap();
    assert!(
        line.starts_with("hints for black, best first, in estimated discs: "),
        "{line}"
    );
    assert!(!line.contains("exact"), "{line}");
    for sq in ["d3", "c4", "f5", "e6"] {
        assert!(line.contains(&format!("{sq} ")), "{line}");
    }
    // Estimated discs: a final margin can be no more than 64 either way.
    let (_, list) = line.split_once(": ").unwrap();
    for item in list.split(", ") {
        let score: i32 = item.split(' ').nth(1).unwrap().parse().unwrap();
        assert!(score.abs() <= 64, "{line}");
    }

    // Six empty squares left: every score is an exact disc margin.
    let game = Game::from_transcript(FULL_GAME).unwrap();
    let squares: Vec<String> = game
        .plies()
        .iter()
        .filter_map(|p| p.mv.square())
        .map(|s| s.to_string())
        .collect();
    let n = squares.len() - 4;
    let input = squares[..n].join("\n") + "\nhint\nquit\n";
    let save = temp_save("hints-end");
    let out = run_script(&save, &["--opponent", "human"], &input);
    let line = out.lines().find(|l| l.starts_with("hints")).unwrap();
    assert!(
        line.contains(", best first, exact final disc margins: "),
        "{line}"
    );
    assert!(!line.contains("evaluation"), "{line}");
}
#[test]
fn a_game_against_easy_to_the_end() {
    check_result(&game_against("easy", "black", "1"));
}

#[test]
fn a_game_against_normal_to_the_end() {
    check_result(&game_against("normal", "white", "2"));
}

#[test]
fn a_game_against_hard_to_the_end() {
    check_result(&game_against("hard", "black", "3"));
}

#[test]
fn a_seeded_game_is_repeatable() {
    let a = game_against("easy", "white", "42");
    let b = game_against("easy", "white", "42");
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("reversi:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&a), strip(&b));
}
