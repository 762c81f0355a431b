#!/usr/bin/env bash
# Builds the WebAssembly module of the page's local games (package reversi-web) and puts it where
# the server serves it: examples/server/static/reversi.wasm. The built module is committed, so that
# `cargo run --release -p reversi-server` serves a working page on a fresh clone with no wasm
# toolchain; `.ci/run` calls this script with --check, which rebuilds the module and fails when the
# committed one differs from what the sources build.
#
# rustup's toolchain here has no wasm32 standard library, so the module is built with Debian's
# Rust for the web (packages rustc-web, cargo-web, rust-web-src, lld), which this script installs
# when missing, compiling the standard library from its source (-Zbuild-std); Binaryen's wasm-opt
# (package binaryen) then optimises the linked module.
#
#   bash scripts/build-wasm.sh           build and copy the module
#   bash scripts/build-wasm.sh --check   build and compare with the committed module
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/examples/server/static/reversi.wasm"
CARGO=/usr/bin/cargo
RUSTC=/usr/bin/rustc

have_toolchain() {
  [ -x "$CARGO" ] && [ -x "$RUSTC" ] && command -v wasm-ld >/dev/null &&
    command -v wasm-opt >/dev/null &&
    [ -d "$("$RUSTC" --print sysroot)/lib/rustlib/src/rust/library" ]
}

if ! have_toolchain; then
  echo "build-wasm: installing Debian's rustc-web, cargo-web, rust-web-src, lld and binaryen" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q rustc-web cargo-web rust-web-src lld binaryen
fi

# Size: the page loads the module, which must stay under 400 KB. The engine (reversi-core,
# reversi-ai) is optimised for speed (opt-level 3); everything else (serde, the JSON glue, the
# standard library) for size (opt-level z), and panics abort at once without formatting their
# messages (panic_immediate_abort: nobody would see them in a worker), which drops most of the
# formatting code.
# Speed: the module is built with WebAssembly SIMD (-Ctarget-feature=+simd128, in every browser
# since 2021), which selects reversi-core's Simd128 move generation kernel at build time.
# A target directory of its own: Debian's rustc must not mix its artefacts with rustup's.
TARGET_DIR="$ROOT/target/wasm"
cd "$ROOT"
# Source paths end up in the module (panic locations the optimiser keeps): they are remapped, so
# that the module is the same whatever the checkout's and cargo's directories.
CARGO_DIR="${CARGO_HOME:-$HOME/.cargo}"
# Immediate-abort panics: a feature of the standard library up to Rust 1.90 or so, a panic strategy
# of its own since (the library's source says which applies).
PANIC_FLAGS=""
BUILD_STD_FEATURES="-Zbuild-std-features=panic_immediate_abort"
if grep -q "panic_immediate_abort is now a real panic strategy" \
  "$("$RUSTC" --print sysroot)/lib/rustlib/src/rust/library/core/src/panicking.rs" 2>/dev/null; then
  PANIC_FLAGS="-Zunstable-options -Cpanic=immediate-abort"
  BUILD_STD_FEATURES=""
fi
env -u CARGO_BUILD_RUSTFLAGS \
  RUSTFLAGS="--remap-path-prefix=$ROOT=/reversi --remap-path-prefix=$CARGO_DIR=/cargo $PANIC_FLAGS -Ctarget-feature=+simd128" \
  RUSTC_BOOTSTRAP=1 RUSTC="$RUSTC" \
  CARGO_TARGET_DIR="$TARGET_DIR" \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld \
  CARGO_PROFILE_RELEASE_OPT_LEVEL=z \
  CARGO_PROFILE_RELEASE_PANIC=abort \
  CARGO_PROFILE_RELEASE_STRIP=true \
  "$CARGO" build --release --locked --ignore-rust-version \
  --config 'profile.release.package.reversi-core.opt-level=3' \
  --config 'profile.release.package.reversi-ai.opt-level=3' \
  --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort \
  ${BUILD_STD_FEATURES:+"$BUILD_STD_FEATURES"} \
  -p reversi-web
LINKED="$TARGET_DIR/wasm32-unknown-unknown/release/reversi_web.wasm"
# Binaryen's optimiser (Debian's binaryen) then works on the whole module: -Os makes it both
# faster and smaller than what the linker wrote (about 15 % smaller here). -Os rather than -O3
# since the SIMD kernel (simd128, below) came in: 4 KB smaller, and as fast on perft and the
# endgame solver under node.
BUILT="$TARGET_DIR/reversi_web.opt.wasm"
wasm-opt -Os --enable-simd --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
  --enable-nontrapping-float-to-int "$LINKED" -o "$BUILT"
SIZE="$(wc -c <"$BUILT")"
echo "build-wasm: $SIZE bytes" >&2
if [ "$SIZE" -ge 409600 ]; then
  echo "build-wasm: the module is over 400 KB" >&2
  exit 1
fi

if [ "${1:-}" = "--check" ]; then
  if ! cmp -s "$BUILT" "$OUT"; then
    echo "build-wasm: $OUT is stale: run bash scripts/build-wasm.sh and commit the module" >&2
    exit 1
  fi
  echo "build-wasm: the committed module is up to date" >&2
else
  cp "$BUILT" "$OUT"
  echo "build-wasm: wrote $OUT" >&2
fi
