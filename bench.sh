#!/usr/bin/env bash
# Speed and signature benchmarks, release build, one thread.
#
#   ./bench.sh                 perft 6 of the start position (nodes/s) + search bench
#   ./bench.sh --perft-only    only the perft figure
#   ./bench.sh --bench-only    only the search bench
#   ./bench.sh SIGNATURE       also check the bench node count against SIGNATURE
#
# The search bench prints "Bench: <nodes> nodes <nps> nps"; <nodes> is the signature that
# changes only when search or evaluation behaviour changes. The full perft suite is in
# perft/run.sh.
set -euo pipefail
cd "$(dirname "$0")"

mode=all
expected=""
for arg in "$@"; do
  case "$arg" in
    --perft-only) mode=perft ;;
    --bench-only) mode=bench ;;
    [0-9]*) expected="$arg" ;;
    *) echo "unknown argument: $arg" >&2; exit 2 ;;
  esac
done

cargo build --release --quiet
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
  if [ -n "$expected" ] && [ "$signature" != "$expected" ]; then
    echo "bench signature $signature differs from expected $expected" >&2
    exit 1
  fi
fi
