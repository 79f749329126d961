#!/usr/bin/env bash
# Soak part 1: Xiangqi games of jiang against Fairy-Stockfish, played and refereed by the
# project's match runner (jiang-lab match: jiang's rules library judges every move).
# Mixed fast time controls (--tc 2+0.05, --movetime 50, --depth 6), jiang over UCI and
# over UCCI in turn, one game at a time, niced. Writes one JSON/PGN per run into OUT and
# prints the combined table (soak_summary.py) at the end.
#
#   tools/reliability/soak_fsf.sh [GAMES] [OUT] [JIANG]
#     GAMES  total games (default 1000), split evenly over the 6 runs (3 controls x 2 protocols)
#     OUT    output folder (default target/soak/fsf)
#     JIANG  engine binary (default target/release/jiang; copy it first if you keep building)
# Environment: LAB (default target/release/jiang-lab), FSF (default
# /usr/games/fairy-stockfish), OPENINGS (default tools/match/openings.epd), OPENING_OFFSET
# (first opening, default 0: give a later part of a soak other openings than the first part).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
games="${1:-1000}"
out="${2:-$root/target/soak/fsf}"
jiang="$(realpath "${3:-$root/target/release/jiang}")"
lab="${LAB:-$root/target/release/jiang-lab}"
[ -x "$lab" ] || { echo "no $lab: cargo build --release -p jiang-lab" >&2; exit 2; }
fsf="${FSF:-/usr/games/fairy-stockfish}"
openings="${OPENINGS:-$root/tools/match/openings.epd}"
count_openings=$(grep -cv '^\s*\(#\|$\)' "$openings")
mkdir -p "$out"
runs=("tc:2+0.05:uci" "tc:2+0.05:ucci" "movetime:50:uci" "movetime:50:ucci" "depth:6:uci" "depth:6:ucci")
n=${#runs[@]}
offset=$(( ${OPENING_OFFSET:-0} % count_openings ))
start=$(date +%s)
for i in "${!runs[@]}"; do
  IFS=: read -r mode value proto <<<"${runs[$i]}"
  # Even counts (each opening is played with both colours); the first runs take the rest.
  base=$(( games / n / 2 * 2 ))
  extra=$(( games - base * n ))
  count=$(( base + (2 * i < extra ? (extra - 2 * i >= 2 ? 2 : 1) : 0) ))
  [ "$count" -gt 0 ] || continue
  name="$i-$mode-$value-$proto"
  echo "== run $name: $count games (openings from $offset) $(date -Is)"
  nice -n 10 "$lab" match \
    --engine name=jiang "cmd=$jiang" "proto=$proto" \
    --engine name=fsf "cmd=$fsf" proto=uci \
    --games "$count" "--$mode" "$value" --openings "$openings" --opening-offset "$offset" \
    --concurrency 1 --quiet --pgn "$out/$name.pgn" --json "$out/$name.json" \
    | tee "$out/$name.txt"
  offset=$(( (offset + (count + 1) / 2) % count_openings ))
done
echo "== all runs done in $(( $(date +%s) - start )) s"
python3 "$(dirname "$0")/soak_summary.py" "$out"/*.json
