//! The Expert level in the committed WebAssembly module: it waits for its weights, refuses bad
//! files in words, then plays; hints are in discs and match the native build.
//!
//! In its own test binary (its own process) because it installs the weights natively, which would
//! change how the other tests' native answers are ordered.

mod common;
use common::run_in_node;
use serde_json::{json, Value};

/// The Expert level's weights file of the repository, which the server serves to the page.
const WEIGHTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../reversi-ai/weights/expert.bin"
);

#[test]
fn expert_waits_for_its_weights_then_plays_and_hints_are_in_discs() {
    if !common::node_here() {
        return;
    }
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
