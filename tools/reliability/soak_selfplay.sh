#!/usr/bin/env bash
# Soak part 2: jiang against jiang over UCI, every game jiang plays, random settings per
# engine and game (Threads 1-2, Hash 1-256, MultiPV 1-3, Ponder), mixed controls; refereed
# with jiang's own rules (tests/soak.rs says what is counted). Niced.
#
#   tools/reliability/soak_selfplay.sh [GAMES] [SEED]
# Environment: SOAK_VARIANTS, SOAK_ENGINE, SOAK_OUT, SOAK_MAX_PLIES (see tests/soak.rs).
set -euo pipefail
cd "$(dirname "$0")/../.."
export SOAK_GAMES="${1:-1000}"
[ -n "${2:-}" ] && export SOAK_SEED="$2"
cargo build --release --tests >/dev/null 2>&1 || cargo build --release --tests
start=$(date +%s)
status=0
nice -n 10 cargo test --release --test soak -- --ignored --nocapture || status=$?
echo "soak_selfplay.sh: $SOAK_GAMES games, $(( $(date +%s) - start )) s wall, exit status $status"
exit $status
