#!/usr/bin/env bash
# Browser tests of the web page against the real server.
#
# Installs Debian's Chromium if it is missing, installs playwright-core (npm ci, no browser
# download), builds the server (package reversi-server, debug profile: much faster to build than
# the LTO release profile, and fast enough to serve), and runs the tests with node's test runner. Exits non-zero
# on any failure. Honours CARGO_TARGET_DIR (default: the repository's target/). Screenshots go
# to target/screenshots/ at the repository root.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ ! -x "$CHROMIUM_PATH" ]; then
  echo "web-tests: installing chromium from Debian's packages" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi

cd "$HERE"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error

echo "web-tests: building the server (debug profile) in $CARGO_TARGET_DIR" >&2
(cd "$ROOT" && cargo build -p reversi-server --bin server)
export REVERSI_SERVER_BIN="$CARGO_TARGET_DIR/debug/server"

echo "web-tests: running the browser tests" >&2
node --test --test-concurrency=1 --test-reporter=spec tests/*.test.js
