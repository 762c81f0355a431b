#!/usr/bin/env bash
# Trains the Expert level's weights from nothing, as the shipped reversi-ai/weights/expert.bin was
# made (docs/engine.md, "Training"): one command and a seed.
#
#   bash scripts/train-expert.sh [SEED] [DIR]     # SEED 1 and DIR train-out by default
#
# Seven steps, each the `train` example (feature `train`), each writing its file to DIR:
#   1. weights trained on self-play games with 6-ply full-width labels (l6.bin, and the plot
#      eval-validation.png of held-back endgame positions);
#   2. their Multi-ProbCut parameters (l6-pc.bin), 3. their endgame cuts (l6-cuts.bin);
#   4. weights trained again on the same games, labelled exactly up to 20 empties (the solves
#      ordered by the weights of step 3) and above by 8-ply searches, selective with the cuts of
#      step 3 (l8.bin);
#   5. their stages' constants calibrated against exact scores and 8- and 7-ply searches
#      (l8c.bin);
#   6. their Multi-ProbCut parameters (l8c-pc.bin), 7. their endgame cuts: expert.bin, the
#      result.
# Stopped (a killed process, the end of a working day), the same command goes on: finished
# steps are skipped and the two trainings resume after their last finished stage (step 4 also
# within a stage, after its last batch of LABEL_BATCH labels, default 50000).
# GAMES (default 200000), THREADS (2), POSITIONS (3000, the cut fits' positions) and PER_EMPTIES
# (150, at least 30: the endgame cut fits' positions at each number of empties) may be set in the
# environment (small values make a trial run: GAMES=100 POSITIONS=400 PER_EMPTIES=30 THREADS=1
# ran the seven steps in about 17 minutes at the lowest priority beside other work, the calibration,
# whose 200 positions a stage do not shrink, taking half of it); the same seed and settings give
# the same files. With
# the defaults steps 1 to 3 take about 40 minutes on two cores (AMD EPYC Zen 4, 2026-12), step 4
# with exact labels up to 16 empties took about 8 000 s; its exact solves from 17 to 20 empties
# add about 5 hours (docs/engine.md, "Training"), so it runs over several sittings.
set -euo pipefail

SEED="${1:-1}"
DIR="${2:-train-out}"
GAMES="${GAMES:-200000}"
THREADS="${THREADS:-2}"
POSITIONS="${POSITIONS:-3000}"
PER_EMPTIES="${PER_EMPTIES:-150}"
LABEL_BATCH="${LABEL_BATCH:-50000}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"
cd "$ROOT"
cargo build --release --features train --example train
TRAIN="$ROOT/target/release/examples/train"

# Runs one step, whose output is $1, unless that file exists: run again after a stop, the
# script goes on where it was. The two training steps save their state after every stage
# (--checkpoint) and resume from it. A step writes its output aside and renames it at the end.
step() {
  local out="$1"
  shift
  if [ -e "$out" ]; then
    echo "== $out exists: step skipped" >&2
    return
  fi
  echo "== $out: $*" >&2
  "$TRAIN" "$@" --out "$out.part"
  mv "$out.part" "$out"
}

COMMON=(--seed "$SEED" --games "$GAMES" --threads "$THREADS")
step "$DIR/l6.bin" "${COMMON[@]}" --solve-empties 16 --label-depth 6 \
  --plot "$DIR/eval-validation.png" --checkpoint "$DIR/l6.state"
step "$DIR/l6-pc.bin" --fit-probcut "$DIR/l6.bin" --seed "$SEED" --positions "$POSITIONS" \
  --max-depth 12 --threads "$THREADS"
step "$DIR/l6-cuts.bin" --fit-endcut "$DIR/l6-pc.bin" --seed "$SEED" \
  --per-empties "$PER_EMPTIES" --threads "$THREADS"
step "$DIR/l8.bin" "${COMMON[@]}" --solve-empties 20 --label-depth 8 \
  --label-cuts "$DIR/l6-cuts.bin" --solve-weights "$DIR/l6-cuts.bin" \
  --label-batch "$LABEL_BATCH" --checkpoint "$DIR/l8.state"
step "$DIR/l8c.bin" --calibrate "$DIR/l8.bin" --seed "$SEED" --threads "$THREADS"
step "$DIR/l8c-pc.bin" --fit-probcut "$DIR/l8c.bin" --seed "$SEED" --positions "$POSITIONS" \
  --max-depth 12 --threads "$THREADS"
step "$DIR/expert.bin" --fit-endcut "$DIR/l8c-pc.bin" --seed "$SEED" \
  --per-empties "$PER_EMPTIES" --threads "$THREADS"
echo "weights written to $DIR/expert.bin" >&2
