#!/usr/bin/env bash
# ThreeChess perft from the start position, checked against the reference's counts
# (docs/games.md, Perft: 20, 400, 8,000, 178,080, 3,961,256 for plies 1-5), with speed.
#
# Usage: perft/threechess.sh [DEPTH]   (default 5; deeper depths are printed unchecked)
#
# Runs `jiang-lab threechess-match perft DEPTH` (the lab/ workspace member, release build): bulk-counted
# perft with make/unmake through jiang's ThreeChess move generator. Exits 1 on a wrong
# count.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
depth="${1:-5}"
[[ "$depth" =~ ^[0-9]+$ && "$depth" -ge 1 ]] || { echo "DEPTH must be a positive number" >&2; exit 2; }
expected=(0 20 400 8000 178080 3961256)

cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p jiang-lab
bin="$root/target/release/jiang-lab"

status=0
while read -r _ d nodes _ secs _ nps _; do
    if (( d < ${#expected[@]} )); then
        if [[ "$nodes" == "${expected[$d]}" ]]; then verdict="OK"; else verdict="FAIL (expected ${expected[$d]})"; status=1; fi
    else
        verdict="(no reference count)"
    fi
    printf 'perft %d: %12d nodes %8.3f s %12d nodes/s  %s\n' "$d" "$nodes" "$secs" "$nps" "$verdict"
done < <("$bin" threechess-match perft "$depth")
exit $status
