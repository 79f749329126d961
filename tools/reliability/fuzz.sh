#!/usr/bin/env bash
# The long protocol fuzz run (issue 14): N lines (default 1,000,000) of every dialect and
# game, mutated, against the release binary; goes on after a finding and prints each
# (with its seed and session, to reproduce it) and a summary. Niced: the machine is shared.
#
#   tools/reliability/fuzz.sh [LINES] [SEED]
#     LINES  default 1000000; SEED default the long run's own (hex 0x… or decimal)
# Environment: FUZZ_WORKERS (engines side by side, default 3), FUZZ_MANY_THREADS=1
# (let Threads values above 8 stand), FUZZ_SLOW_MS (print batches slower than that).
# To replay one session of a finding:
#   FUZZ_SEED=… FUZZ_SESSION=… cargo test --release --test fuzz_protocol long_run -- --ignored --nocapture
set -euo pipefail
cd "$(dirname "$0")/../.."
lines="${1:-1000000}"
export FUZZ_LINES="$lines"
[ -n "${2:-}" ] && export FUZZ_SEED="$2"
cargo build --release --tests >/dev/null 2>&1 || cargo build --release --tests
start=$(date +%s)
status=0
nice -n 10 cargo test --release --test fuzz_protocol long_run -- --ignored --nocapture || status=$?
echo "fuzz.sh: $lines lines requested, $(( $(date +%s) - start )) s wall, exit status $status"
exit $status
