//! The committed WebAssembly module (`examples/server/static/reversi.wasm`), run under node with
//! the page's own wrapper (`static/engine.js`), answers exactly as the native build of the same
//! code: perft 1-8 from the start, and exact endgame scores, best moves and node counts.
//!
//! Needs `node` on the PATH. A module older than the sources fails here too (`.ci/run` also checks
//! that the committed module is what the sources build).

use std::io::Write;
use std::process::{Command, Stdio};

use reversi_core::{Color, Game, Move, Position};
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
    node("run_wasm.mjs", requests)
}

/// Runs `script` of the tests directory under node on the committed module, with `input` as
/// JSON on its stdin; returns what it prints.
fn node(script: &str, input: &[Value]) -> Vec<Value> {
    let mut child = Command::new("node")
        .arg(format!("{}/tests/{script}", env!("CARGO_MANIFEST_DIR")))
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
        .write_all(serde_json::to_string(input).unwrap().as_bytes())
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

/// Checks one local game as `play_local.mjs` played it: every state follows from the last by
/// legal moves, and the game ends by the board.
fn check_local_game(answers: &[Value], human: Color) -> Value {
    let started = &answers[0]["out"][0];
    assert_eq!(started["type"], "local_started", "{started}");
    let mut last = answers[0]["out"][1].clone();
    for a in &answers[1..] {
        assert_eq!(a["type"], "local");
        let states: Vec<&Value> = a["out"].as_array().unwrap().iter().collect();
        assert_eq!(states.len(), 1, "one state per answer: {a}");
        let s = states[0];
        assert_eq!(s["type"], "state", "{s}");
        assert_eq!(s["version"], last["version"].as_u64().unwrap() + 1);
        assert!(a["saved"].is_object());
        last = s.clone();
    }
    assert_eq!(last["status"], "over", "{last}");
    assert_eq!(last["result"]["reason"], "board");
    // The history replays by the rules, and the computer played its own colour.
    let moves: Vec<Move> = last["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| serde_json::from_value(p["move"].clone()).unwrap())
        .collect();
    let game = Game::replay(Position::initial(), moves).unwrap();
    assert!(game.is_over());
    for (ply, p) in game.plies().iter().zip(last["history"].as_array().unwrap()) {
        assert_eq!(p["color"], serde_json::to_value(ply.color).unwrap());
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(
        last["result"]["winner"],
        serde_json::to_value(outcome.winner()).unwrap()
    );
    assert_eq!(last["board"], game.position().to_board_string()[..64]);
    let _ = human;
    last
}

#[test]
fn local_games_against_easy_run_to_the_end_in_the_module() {
    let games = [
        json!({"type": "local_new", "mode": "computer", "level": "easy", "color": "black"}),
        json!({"type": "local_new", "mode": "computer", "level": "easy", "color": "white",
               "time": {"kind": "total", "input": "5"}}),
    ];
    let played = node("play_local.mjs", &games);
    assert_eq!(played.len(), 2);
    for (answers, human) in played.iter().zip([Color::Black, Color::White]) {
        let answers = answers.as_array().unwrap();
        let last = check_local_game(answers, human);
        assert_eq!(last["mode"], "computer");
        assert_eq!(last["level"], "easy");
        assert_eq!(last["human"], serde_json::to_value(human).unwrap());
    }
    // The timed game's clock ran and stopped at the end.
    let last = played[1].as_array().unwrap().last().unwrap()["out"][0].clone();
    assert_eq!(last["clock"]["running"], Value::Null);
    assert!(last["clock"]["black_ms"].as_u64().unwrap() < 300_000);
}

#[test]
fn hard_thinks_in_the_module_with_the_pages_clock() {
    // Hard plays black against a person: its first move is searched under the page's clock
    // (the module's env.rv_now_ms import), then the person answers.
    let requests = [
        json!({"type": "local", "now": 1000, "msg": {"type": "local_new", "mode": "computer",
               "level": "hard", "color": "white"}}),
        json!({"type": "local_think", "now": 1010}),
    ];
    let answers = run_in_node(&requests);
    assert_eq!(answers[0]["think"], true);
    let s = &answers[1]["out"][0];
    assert_eq!(s["type"], "state", "{}", answers[1]);
    assert_eq!(s["history"].as_array().unwrap().len(), 1);
    assert_eq!(s["to_move"], "white");
    assert_eq!(answers[1]["think"], false);
}

/// The Expert level's weights file of the repository, which the server serves to the page.
const WEIGHTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../reversi-ai/weights/expert.bin"
);

#[test]
fn expert_waits_for_its_weights_then_plays_and_hints_are_in_discs() {
    // The module is built without the weights: Expert waits for them (no think), a corrupt or
    // truncated file is refused in words, the real one is installed; Expert then plays, and
    // midgame hints are in discs and match the native build with the same weights.
    let start = "---------------------------OX------XO--------------------------- X";
    let requests = [
        json!({"type": "hints", "board": start}),
        json!({"type": "local", "now": 1000, "msg": {"type": "local_new", "mode": "computer",
               "level": "expert", "color": "white"}}),
        json!({"type": "local_think", "now": 1010}),
        json!({"$weights": WEIGHTS, "flip": 1000}),
        json!({"$weights": concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")}),
        json!({"type": "local_think", "now": 1020}),
        json!({"$weights": WEIGHTS}),
        json!({"type": "local_think", "now": 1030}),
        json!({"type": "hints", "board": start}),
    ];
    let a = run_in_node(&requests);
    assert_eq!(a[0]["unit"], "points", "{}", a[0]);
    let s = &a[1]["out"][1];
    assert_eq!(s["level"], "expert", "{}", a[1]);
    assert_eq!(s["thinking"], true);
    assert_eq!(a[1]["think"], false, "Expert waits for its weights");
    assert_eq!(a[2]["out"], json!([]), "no move without weights: {}", a[2]);
    assert_eq!(a[3]["code"], "bad_weights");
    assert!(
        a[3]["message"].as_str().unwrap().contains("corrupt"),
        "{}",
        a[3]
    );
    assert_eq!(a[4]["code"], "bad_weights");
    assert!(
        a[4]["message"]
            .as_str()
            .unwrap()
            .contains("not a weights file"),
        "{}",
        a[4]
    );
    assert_eq!(a[5]["out"], json!([]), "still no weights: {}", a[5]);
    assert_eq!(a[6], json!({"type": "weights", "installed": true}));
    let s = &a[7]["out"][0];
    assert_eq!(s["type"], "state", "{}", a[7]);
    assert_eq!(s["history"].as_array().unwrap().len(), 1);
    assert_eq!(s["last"]["color"], "black");
    assert_eq!(s["to_move"], "white");
    assert_eq!(a[8]["unit"], "discs", "{}", a[8]);

    // The native build with the same weights installed gives the same hints.
    let bytes = std::fs::read(WEIGHTS).unwrap();
    let installed: Value = serde_json::from_str(&reversi_web::install_weights(&bytes)).unwrap();
    assert_eq!(installed, a[6]);
    let native: Value = serde_json::from_str(&reversi_web::call(&requests[8].to_string())).unwrap();
    assert_eq!(native, a[8]);
    // Scores in discs: an opening's are small.
    let moves = a[8]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert!(moves
        .iter()
        .all(|m| m["exact"] == false && m["score"].as_i64().unwrap().abs() <= 10));
}
