#!/usr/bin/env bash
# Baroque start-position perft at depth 4 (or BAROQUE_PERFT_DEPTH), with nodes/s.
# Runs the ignored test `perft_depth_4_speed` of tests/baroque.rs in a release build;
# at depth 4 it also checks the count (1,847,014, rule book section 12 in docs/games.md).
#
# Usage: perft/baroque.sh [DEPTH]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
depth="${1:-4}"
[[ "$depth" =~ ^[0-9]+$ ]] || { echo "depth must be a number" >&2; exit 2; }
cd "$root"
BAROQUE_PERFT_DEPTH="$depth" cargo test --release --quiet --test baroque -- \
    --ignored --nocapture --exact perft_depth_4_speed 2>&1 | grep -E '^perft|test result|panicked'
