"""Overhead of the Python package against the Rust examples, on the same work.

    cargo build --release --example perft --example solve        # at the repository root
    cd python && maturin build --profile dist --out target/wheels-dist   # LTO, as the examples
    pip install --force-reinstall target/wheels-dist/reversi-*.whl
    python bench.py [--repeat 5] [--perft-depth 10]

Runs, interleaved so that a shared machine's drift spreads over both sides:

- perft 10 of the start position, one thread: ``target/release/examples/perft 10 --depth-only``
  (its own ``time_s``) against ``reversi.perft(Position(), 10)`` (``time.perf_counter`` around
  the call);
- FFO #40-#44, exact WOF scores, one solver with a 2^22 table reused over the five positions:
  ``target/release/examples/solve reversi-core/tests/data/ffo-40-59.obf --range 40-44`` (its
  per-position ``time_s``) against ``reversi.Solver(table_bits=22).solve(...)``.

Prints the minimum and median of each side and the overhead of Python (min against min, median
against median). The Rust examples are built with the root's release profile (LTO, one codegen
unit); the `dist` profile of python/Cargo.toml builds the wheel the same way, so that the figure
is the binding's cost alone (a `--release` wheel, as CI builds, has no LTO).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import reversi

ROOT = Path(__file__).resolve().parent.parent
OBF = ROOT / "reversi-core" / "tests" / "data" / "ffo-40-59.obf"
EXAMPLES = ROOT / "target" / "release" / "examples"


def rust_perft(depth: int) -> tuple[int, float]:
    out = subprocess.run(
        [str(EXAMPLES / "perft"), str(depth), "--depth-only"], check=True, capture_output=True, text=True
    ).stdout
    m = re.search(r"count=(\d+) time_s=([\d.]+)", out)
    assert m, out
    return int(m.group(1)), float(m.group(2))


def py_perft(depth: int) -> tuple[int, float]:
    t = time.perf_counter()
    n = reversi.perft(reversi.Position(), depth)
    return n, time.perf_counter() - t


def rust_solve() -> list[tuple[int, int, float]]:
    out = subprocess.run(
        [str(EXAMPLES / "solve"), str(OBF), "--range", "40-44"], check=True, capture_output=True, text=True
    ).stdout
    rows = re.findall(r"#(\d+) empties=\d+ score=([+-]?\d+) move=\w+ nodes=\d+ time_s=([\d.]+)", out)
    assert len(rows) == 5, out
    return sorted((int(n), int(s), float(t)) for n, s, t in rows)


def ffo_positions() -> list[tuple[int, reversi.Position]]:
    lines = [line for line in OBF.read_text().splitlines() if line.strip()]
    return [(40 + i, reversi.Position(line.split(";")[0])) for i, line in enumerate(lines)][:5]


def py_solve() -> list[tuple[int, int, float]]:
    solver = reversi.Solver(table_bits=22)
    rows = []
    for n, pos in ffo_positions():
        t = time.perf_counter()
        s = solver.solve(pos, scoring="wof")
        rows.append((n, s.score, time.perf_counter() - t))
    return rows


def summary(name: str, rust: list[float], py: list[float]) -> None:
    rmin, pmin = min(rust), min(py)
    print(
        f"{name:<22} rust min {rmin:8.4f} s  median {statistics.median(rust):8.4f} s | "
        f"python min {pmin:8.4f} s  median {statistics.median(py):8.4f} s | "
        f"overhead {100 * (pmin / rmin - 1):+6.1f} % (min), {100 * (statistics.median(py) / statistics.median(rust) - 1):+6.1f} % (median)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="runs of each side (default 5)")
    ap.add_argument("--perft-depth", type=int, default=10)
    args = ap.parse_args()
    for exe in ("perft", "solve"):
        if not (EXAMPLES / exe).exists():
            print(f"missing {EXAMPLES / exe}: cargo build --release --example perft --example solve", file=sys.stderr)
            return 2

    rp, pp = [], []
    for _ in range(args.repeat):
        n1, t1 = rust_perft(args.perft_depth)
        n2, t2 = py_perft(args.perft_depth)
        assert n1 == n2, (n1, n2)
        rp.append(t1)
        pp.append(t2)
    print(f"perft {args.perft_depth}: {n1} leaves, {args.repeat} runs each")
    summary(f"perft {args.perft_depth}", rp, pp)

    rs: list[list[float]] = []
    ps: list[list[float]] = []
    for _ in range(args.repeat):
        r = rust_solve()
        p = py_solve()
        assert [(n, s) for n, s, _ in r] == [(n, s) for n, s, _ in p], (r, p)
        rs.append([t for *_, t in r])
        ps.append([t for *_, t in p])
    print(f"FFO #40-#44 scores {[s for _, s, _ in r]}, {args.repeat} runs each")
    for i, (n, _) in enumerate(ffo_positions()):
        summary(f"  #{n}", [x[i] for x in rs], [x[i] for x in ps])
    summary("FFO #40-#44 total", [sum(x) for x in rs], [sum(x) for x in ps])
    return 0


if __name__ == "__main__":
    sys.exit(main())
