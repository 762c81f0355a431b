#!/usr/bin/env bash
# Type-checks the engine crates (reversi-core, reversi-ai) for 64-bit ARM Linux
# (aarch64-unknown-linux-gnu), where only the portable move generation exists: the paths of
# `cfg(not(target_arch = "x86_64"))` compile, with no warning. rustup's toolchain here has no
# aarch64 standard library, so this uses Debian's Rust for the web (the toolchain of
# scripts/build-wasm.sh, which that script installs) and compiles the standard library from its
# source (-Zbuild-std); `cargo check` needs no linker for the target.
#
#   bash scripts/check-aarch64.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
env -u CARGO_BUILD_RUSTFLAGS RUSTFLAGS="-D warnings" \
  RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc CARGO_TARGET_DIR="$ROOT/target/aarch64" \
  /usr/bin/cargo check --locked --ignore-rust-version -p reversi-core -p reversi-ai \
  --target aarch64-unknown-linux-gnu -Zbuild-std=core,alloc,std
echo "check-aarch64: reversi-core and reversi-ai compile for aarch64-unknown-linux-gnu" >&2
