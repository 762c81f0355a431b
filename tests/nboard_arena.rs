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
