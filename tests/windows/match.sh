#!/usr/bin/env bash
# A refereed match of jiang.exe under Wine against the native jiang, that fails on any
# illegal move, time loss, crash or bad reply of either side.
#
#   tests/windows/match.sh [GAMES] [MOVETIME_MS] [OUT.json]
#
# Defaults: 2 games at 200 ms a move, target/windows-match.json. The referee is xqmatch
# (pyffish's rules) from ../shared/tools/xqmatch, a testing aid beside the repository
# (XQMATCH=FOLDER for another copy, as tools/cluster takes it); the openings are its
# openings.epd.
# This file is the one place that calls the referee: another match runner replaces it here.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
games="${1:-2}"
movetime="${2:-200}"
out="${3:-$repo/target/windows-match.json}"
native="$repo/target/release/jiang"
exe="$repo/target/x86_64-pc-windows-gnu/release/jiang.exe"
xqmatch="${XQMATCH:-$repo/../shared/tools/xqmatch}/xqmatch.py"
for f in "$native" "$exe"; do
  [ -f "$f" ] || { echo "match.sh: $f is missing (build it first)" >&2; exit 1; }
done
if [ ! -f "$xqmatch" ]; then
  echo "match.sh: the referee $xqmatch is missing (../shared beside the repository, or XQMATCH=the xqmatch folder)" >&2
  exit 1
fi
# xqmatch needs pyffish: the machine's python3, else a virtual environment under target/.
python=python3
if ! python3 -c "import pyffish" 2>/dev/null; then
  venv="$repo/target/xqmatch-venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "pyffish==0.0.90"
  python="$venv/bin/python"
fi
openings="$(dirname "$xqmatch")/openings.epd"
"$here/wine-prefix.sh" >/dev/null
"$python" "$xqmatch" \
  --engine name=windows cmd="$here/wine-jiang.sh $exe" proto=uci \
  --engine name=linux cmd="$native" proto=uci \
  --games "$games" --movetime "$movetime" --concurrency 1 \
  --openings "$openings" --json "$out"
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
