//! What the tests of the committed WebAssembly module share: running a script of this directory
//! under node on the module.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

const STATIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../server/static");

/// Runs `run_wasm.mjs` on the committed module with `requests`; returns its answers.
pub fn run_in_node(requests: &[Value]) -> Vec<Value> {
    node("run_wasm.mjs", requests)
}

/// Runs `script` of the tests directory under node on the committed module, with `input` as
/// JSON on its stdin; returns what it prints.
pub fn node(script: &str, input: &[Value]) -> Vec<Value> {
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
