#!/usr/bin/env bash
# Speed and signature benchmarks, release build, one thread.
#
#   ./bench.sh                 perft 6 of the start position (nodes/s) + search bench
#   ./bench.sh --perft-only    only the perft figure
#   ./bench.sh --bench-only    only the search bench
#   ./bench.sh --tune          the search bench of the `tune` build (parameters as UCI
#                              options, src/search/params.rs): the same signature
#   ./bench.sh SIGNATURE       check the bench node count against SIGNATURE instead
#
# The search bench prints "Bench: <nodes> nodes <nps> nps"; <nodes> is the signature that
# changes only when search or evaluation behaviour changes. It is pinned below and CI
# checks it: a commit that changes it on purpose changes PINNED_BENCH and ends its
# message with "Bench: <nodes>" and why. The full perft suite is in perft/run.sh.
set -euo pipefail
cd "$(dirname "$0")"

PINNED_BENCH=7543118

mode=all
expected=$PINNED_BENCH
features=()
for arg in "$@"; do
  case "$arg" in
    --perft-only) mode=perft ;;
    --bench-only) mode=bench ;;
    --tune) mode=bench; features=(--features tune) ;;
    [0-9]*) expected="$arg" ;;
    *) echo "unknown argument: $arg" >&2; exit 2 ;;
  esac
done

cargo build --release --quiet "${features[@]}"
bin=target/release/jiang

if [ "$mode" != bench ]; then
  echo "== perft 6, start position (5,392,831,844 leaves expected)"
  out=$("$bin" perft 6)
  nodes=$(echo "$out" | awk '/^Nodes searched:/ {print $3}')
  echo "$out" | tail -2
  if [ "$nodes" != 5392831844 ]; then
    echo "perft 6 mismatch: got $nodes" >&2
    exit 1
  fi
fi

if [ "$mode" != perft ]; then
  echo "== search bench (fixed depth, 1 thread, 16 MiB hash per position)"
  out=$("$bin" bench 2>/dev/null)
  echo "$out"
  signature=$(echo "$out" | awk '/^Bench:/ {print $2}')
  if [ "$signature" != "$expected" ]; then
    echo "bench signature $signature differs from the expected $expected" >&2
    exit 1
  fi
  echo "bench signature $signature as expected"
fi
