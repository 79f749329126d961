#!/usr/bin/env bash
# A refereed match of jiang.exe under Wine against the native jiang, that fails on any
# illegal move, time loss, crash or bad reply of either side.
#
#   tests/windows/match.sh [GAMES] [MOVETIME_MS] [OUT.json]
#
# Defaults: 2 games at 200 ms a move, target/windows-match.json. The referee is the
# project's match runner, `jiang-lab match` (jiang's rules library), built here if
# missing, on tools/match/openings.epd; an independent check of that runner against
# xqmatch is tools/match/compare_xqmatch.py.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
games="${1:-2}"
movetime="${2:-200}"
out="${3:-$repo/target/windows-match.json}"
native="$repo/target/release/jiang"
exe="$repo/target/x86_64-pc-windows-gnu/release/jiang.exe"
runner="$repo/target/release/jiang-lab"
for f in "$native" "$exe"; do
  [ -f "$f" ] || { echo "match.sh: $f is missing (build it first)" >&2; exit 1; }
done
[ -x "$runner" ] || (cd "$repo" && cargo build --release -p jiang-lab)
"$here/wine-prefix.sh" >/dev/null
"$runner" match \
  --engine name=windows cmd="$here/wine-jiang.sh $exe" proto=uci \
  --engine name=linux cmd="$native" proto=uci \
  --games "$games" --movetime "$movetime" --concurrency 1 \
  --openings "$repo/tools/match/openings.epd" --json "$out"
python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
for side in d["per_engine"].values():
    for key in ("illegal_moves", "time_losses", "crashes", "bad_replies"):
        if side[key]:
            bad.append(f"{side['name']}: {side[key]} {key.replace('_', ' ')}")
played = sum(d["result_A"].values())
if d["aborted_games"] or played != d["settings"]["games_requested"]:
    bad.append(f"{played} of {d['settings']['games_requested']} games played, {d['aborted_games']} aborted")
w = d["per_engine"]["A"]
print(f"match: {played} games, windows {d['result_A']}, max move {w['max_move_ms']} ms; "
      f"forfeits: {'; '.join(bad) or 'none'}")
sys.exit(1 if bad else 0)
PY
