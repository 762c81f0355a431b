//! The committed WebAssembly module (`examples/server/static/reversi.wasm`), run under node with
//! the page's own wrapper (`static/engine.js`), answers exactly as the native build of the same
//! code: perft 1-8 from the start, and exact endgame scores, best moves and node counts.
//!
//! Needs `node` on the PATH (skipped, saying so, where it is missing). A module older than the sources fails here too (`.ci/run` also checks
//! that the committed module is what the sources build).

use reversi_core::{Color, Game, Move, Position};
use serde_json::{json, Value};

mod common;
use common::{node, run_in_node};

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

#[test]
fn wasm_module_answers_as_the_native_build() {
    if !common::node_here() {
        return;
    }
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
    // The review's calls: the positions after some moves, and exact evaluations of the endgames
    // at 14, 12 and 10 empties (the game goes forward: 16 empties first).
    requests.push(json!({"type": "replay", "moves": ["f5", "d6", "c3", "d3", "c4"]}));
    requests.extend(
        positions[1..]
            .iter()
            .map(|p| json!({"type": "eval", "board": p.to_board_string()})),
    );
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
    assert_eq!(native[13]["boards"].as_array().map(Vec::len), Some(6));
    for a in &native[14..17] {
        assert_eq!(a["exact"], true, "{a}");
        assert!(a["score"].as_i64().is_some_and(|s| s.abs() <= 64), "{a}");
    }
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
    if !common::node_here() {
        return;
    }
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
    if !common::node_here() {
        return;
    }
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

/// The module's perft (its move generation kernel: WebAssembly SIMD in the page's build) against
/// the counts of every random position of reversi-core's test data, to depth 6 (OEIS convention,
/// as the module counts), passes and finished games among them.
#[test]
fn wasm_perft_agrees_with_the_random_positions_data() {
    if !common::node_here() {
        return;
    }
    let data = include_str!("../../../reversi-core/tests/data/random.perft");
    let mut requests = Vec::new();
    let mut want = Vec::new();
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (board, counts) = line.split_once('\t').unwrap();
        let counts: Vec<u64> = counts.split(' ').map(|c| c.parse().unwrap()).collect();
        // Every position at depth 6, and a spread of depths, so that each ply is the last.
        let depth = 6 - requests.len() % 6;
        requests.push(json!({"type": "perft", "depth": depth, "board": board}));
        want.push(counts[depth - 1]);
        requests.push(json!({"type": "perft", "depth": 6, "board": board}));
        want.push(counts[5]);
    }
    assert!(requests.len() > 5000);
    let answers = run_in_node(&requests);
    assert_eq!(answers.len(), requests.len());
    for ((a, w), r) in answers.iter().zip(&want).zip(&requests) {
        assert_eq!(a["count"], *w, "{r} answered {a}");
    }
}
