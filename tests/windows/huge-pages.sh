#!/usr/bin/env bash
# jiang.exe under Wine on Linux asks the Linux kernel for transparent huge pages for its
# hash table (src/memory.rs), as the native build does: this runs `jiang.exe bench` and
# reads the process's AnonHugePages while it searches. Fails when the system offers huge
# pages (/sys/kernel/mm/transparent_hugepage/enabled is not [never]) and the table got
# none; skips, saying so, where the system has none to give.
#
#   tests/windows/huge-pages.sh [PATH/TO/jiang.exe]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
exe="${1:-$repo/target/x86_64-pc-windows-gnu/release/jiang.exe}"
policy_file=/sys/kernel/mm/transparent_hugepage/enabled
if [ ! -r "$policy_file" ] || grep -q '\[never\]' "$policy_file"; then
  echo "huge-pages.sh: this system offers no transparent huge pages: not checked"
  exit 0
fi
if [ ! -r "/proc/$$/smaps_rollup" ]; then
  echo "huge-pages.sh: this kernel shows no /proc/PID/smaps_rollup: not checked"
  exit 0
fi
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
"$here/wine-jiang.sh" "$exe" bench >"$out" 2>/dev/null &
runner=$!
most=0
seen=0
while kill -0 "$runner" 2>/dev/null; do
  # Wine may run the exe as a process of its own (start.exe /exec): find it by name.
  for pid in $(pgrep -f 'jiang\.exe bench' || true); do
    kb="$(awk '/^AnonHugePages:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0)"
    [ -n "$kb" ] || kb=0
    seen=1
    [ "$kb" -gt "$most" ] && most="$kb"
  done
  sleep 0.2
done
wait "$runner"
grep -q '^Bench:' "$out" || { echo "huge-pages.sh: jiang.exe bench printed no signature" >&2; exit 1; }
if [ "$seen" = 0 ]; then
  echo "huge-pages.sh: the jiang.exe process was never seen running" >&2
  exit 1
fi
echo "jiang.exe under Wine: at most $most kB of the process on transparent huge pages during bench"
if [ "$most" -eq 0 ]; then
  echo "huge-pages.sh: the hash table of jiang.exe got no huge pages under Wine ($(cat "$policy_file"))" >&2
  exit 1
fi
