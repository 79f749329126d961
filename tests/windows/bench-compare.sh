#!/usr/bin/env bash
# jiang.exe under Wine against the native build on `bench`: the same node signature, and
# the speed of each, measured back to back ROUNDS times (alternating, so a change in the
# machine's load falls on both).
#
#   tests/windows/bench-compare.sh [ROUNDS] [NATIVE] [EXE]
#
# Defaults: 3 rounds, target/release/jiang, target/x86_64-pc-windows-gnu/release/jiang.exe.
# Prints per run: nodes, nodes/s of the wall clock (what bench reports) and nodes per CPU
# second (user + system time of the process, less sensitive to a shared machine), then
# the medians and the Windows/native ratio. Fails only when the signatures differ: speed
# is reported, not asserted.
#
# NO_THP=1 adds a third build to each round: the native binary with transparent huge
# pages switched off for its process (prctl PR_SET_THP_DISABLE, kept across exec), so
# that its hash table has 4 KiB pages (as jiang.exe's had before it asked the Linux
# kernel under Wine for huge pages, src/memory.rs): it separates the cost of the page
# size from that of the build.
#
# The CPU time is that of the process /usr/bin/time starts. Wine may run jiang.exe in
# a process of its own (start.exe /exec), outside it: such a run's CPU figure is
# reported as n/a (a one-thread bench cannot use more CPU than wall time).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
rounds="${1:-3}"
native="${2:-$repo/target/release/jiang}"
exe="${3:-$repo/target/x86_64-pc-windows-gnu/release/jiang.exe}"
for f in "$native" "$exe"; do
  [ -f "$f" ] || { echo "bench-compare.sh: $f is missing (build it first)" >&2; exit 1; }
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# run NAME CMD...: appends "NAME nodes wall_nps cpu_nps" to $tmp/runs.
run() {
  local name="$1"; shift
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" bench >"$tmp/out" 2>/dev/null
  local nodes nps cpu
  read -r nodes nps < <(awk '/^Bench:/ {print $2, $4}' "$tmp/out")
  cpu="$(awk '{print $1 + $2}' "$tmp/time")"
  echo "$name $nodes $nps $(awk -v n="$nodes" -v c="$cpu" -v w="$nps" \
    'BEGIN {x = (c > 0 ? n / c : 0); printf "%d", (x > 2 * w ? 0 : x)}')" >>"$tmp/runs"
  printf '%-8s nodes %s  nps(wall) %s  nps(cpu) %s\n' "$name" "$nodes" "$nps" "$(tail -1 "$tmp/runs" | cut -d' ' -f4)"
}

"$here/wine-prefix.sh" >/dev/null
no_thp=(python3 -c 'import ctypes, os, sys
if ctypes.CDLL(None).prctl(41, 1, 0, 0, 0):  # PR_SET_THP_DISABLE
    sys.exit("prctl(PR_SET_THP_DISABLE) failed")
os.execv(sys.argv[1], sys.argv[1:])')
for _ in $(seq "$rounds"); do
  run native "$native"
  run windows "$here/wine-jiang.sh" "$exe"
  if [ "${NO_THP:-0}" = 1 ]; then run native4k "${no_thp[@]}" "$native"; fi
done

python3 - "$tmp/runs" <<'PY'
import statistics, sys
runs = [line.split() for line in open(sys.argv[1])]
by = {}
for name, nodes, wall, cpu in runs:
    by.setdefault(name, []).append((int(nodes), int(wall), int(cpu)))
sigs = {name: {r[0] for r in rs} for name, rs in by.items()}
med = {name: (statistics.median(r[1] for r in rs), statistics.median(r[2] for r in rs))
       for name, rs in by.items()}
n, w = med["native"], med["windows"]
def ratio(a, b):
    return f"{a / b:.1%}" if a and b else "n/a"
def nps(x):
    return f"{x:.0f}" if x else "n/a"
print(f"median nps(wall): native {n[0]:.0f}, windows {w[0]:.0f}: windows/native {ratio(w[0], n[0])}")
print(f"median nps(cpu):  native {nps(n[1])}, windows {nps(w[1])}: windows/native {ratio(w[1], n[1])}")
if "native4k" in med:
    k = med["native4k"]
    print(f"native with 4 KiB pages: median nps(wall) {k[0]:.0f}, nps(cpu) {nps(k[1])}: "
          f"windows/native4k {ratio(w[0], k[0])} (wall), {ratio(w[1], k[1])} (cpu)")
if len(sigs["native"] | sigs["windows"]) != 1:
    print(f"SIGNATURES DIFFER: native {sorted(sigs['native'])}, windows {sorted(sigs['windows'])}")
    sys.exit(1)
print(f"signature: {sigs['native'].pop()} (both)")
PY
