//! The committed WebAssembly module (`examples/server/static/reversi.wasm`), run under node with
//! the page's own wrapper (`static/engine.js`), answers exactly as the native build of the same
//! code: perft 1-8 from the start, and exact endgame scores, best moves and node counts.
//!
//! Needs `node` on the PATH. A module older than the sources fails here too (`.ci/run` also checks
//! that the committed module is what the sources build).

use std::io::Write;
use std::process::{Command, Stdio};

use reversi_core::{Game, Position};
use serde_json::{json, Value};

const STATIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../server/static");

/// Positions of one deterministic game, taken at the given numbers of empty squares.
fn endgames(empties: &[u32]) -> Vec<Position> {
    let mut game = Game::new();
    let mut out = Vec::new();
    let mut i = 0usize;
    while !game.is_over() {
        let p = *game.position();
        if empties.contains(&p.empty().count()) && !p.must_pass() {
            out.push(p);
        }
        let moves = p.legal_moves();
        // A spread of moves: the i-th legal one, cycling.
        let m = moves.iter().nth(i % moves.count() as usize).unwrap();
        game.play(m).unwrap();
        i += 7;
    }
    out
}

fn run_in_node(requests: &[Value]) -> Vec<Value> {
    let mut child = Command::new("node")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/run_wasm.mjs"))
        .arg(format!("{STATIC}/reversi.wasm"))
        .arg(format!("{STATIC}/engine.js"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("node must be installed to run the WebAssembly module");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(requests).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "node failed: {:?}", out.status);
    serde_json::from_slice(&out.stdout).expect("node prints a JSON array")
}

#[test]
fn wasm_module_answers_as_the_native_build() {
    let mut requests: Vec<Value> = (1..=8)
        .map(|d| json!({"type": "perft", "depth": d}))
        .collect();
    let positions = endgames(&[10, 12, 14, 16]);
    assert_eq!(positions.len(), 4);
    requests.extend(
        positions
            .iter()
            .map(|p| json!({"type": "solve", "board": p.to_board_string()})),
    );
    requests.push(json!({"type": "perft", "depth": 2, "board": "not a board"}));
    let native: Vec<Value> = requests
        .iter()
        .map(|r| serde_json::from_str(&reversi_web::call(&r.to_string())).unwrap())
        .collect();
    // The known counts of OEIS A124004, so that both builds are checked, not only their agreement.
    let counts = [4, 12, 56, 244, 1396, 8200, 55092, 390216];
    for (answer, want) in native.iter().zip(counts) {
        assert_eq!(answer["count"], want);
    }
    assert!(native[8..12].iter().all(|a| a["type"] == "solve"));
    assert_eq!(native[12]["code"], "bad_board");
    let wasm = run_in_node(&requests);
    assert_eq!(wasm, native);
}
