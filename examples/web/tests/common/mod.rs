//! What the tests of the committed WebAssembly module share: running a script of this directory
//! under node on the module.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

const STATIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../server/static");

/// Whether `node` can be run. Where it cannot, the tests of the module skip themselves, saying so
/// once on stderr; under `REVERSI_REQUIRE_NODE` (which `.ci/run` sets) a missing node fails them.
pub fn node_here() -> bool {
    static HERE: OnceLock<bool> = OnceLock::new();
    *HERE.get_or_init(|| {
        let found = Command::new("node")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            assert!(
                std::env::var_os("REVERSI_REQUIRE_NODE").is_none(),
                "REVERSI_REQUIRE_NODE is set but node is not installed"
            );
            // Straight to stderr: the harness holds back the output of a test that passes.
            let _ = writeln!(
                std::io::stderr(),
                "WebAssembly module tests skipped: node is not installed (install Node.js; \
                 .ci/run sets REVERSI_REQUIRE_NODE, so that they always run there)"
            );
        }
        found
    })
}

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
