#!/usr/bin/env bash
# Deep perft: runs every entry of perft/xiangqi.perft through the release binary
# (`jiang perft DEPTH FEN`) and compares the node count with the expected one.
#
# Usage: perft/run.sh [--max-nodes N] [--file PATH]
#   --max-nodes N  skip entries whose expected count exceeds N (default: run all,
#                  including the 5.4-billion-node start position at depth 6)
#   --file PATH    perft file to run (default: perft/xiangqi.perft)
#
# Prints one OK/FAIL line per entry with its speed, then the totals. Exits 1 if any
# entry fails (wrong count, or the binary refused the FEN), 2 on bad usage or input.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
file="$root/perft/xiangqi.perft"
max_nodes=""

usage() {
    sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [[ $# -gt 0 ]]; do
    case "$1" in
    --max-nodes)
        [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || { echo "--max-nodes needs a number" >&2; exit 2; }
        max_nodes="$2"
        shift 2
        ;;
    --file)
        [[ $# -ge 2 ]] || { echo "--file needs a path" >&2; exit 2; }
        file="$2"
        shift 2
        ;;
    -h | --help)
        usage
        exit 0
        ;;
    *)
        echo "unknown argument: $1" >&2
        usage >&2
        exit 2
        ;;
    esac
done

[[ -r "$file" ]] || { echo "cannot read $file" >&2; exit 2; }

(cd "$root" && cargo build --release --quiet)
bin="$root/target/release/jiang"

now_ns() { date +%s%N; }

# nodes/s from a node count and nanoseconds (integer arithmetic, no overflow below 9e18/1e9).
nps() {
    local nodes=$1 ns=$2
    if ((ns > 0)); then
        echo $((nodes * 1000 / (ns / 1000000 > 0 ? ns / 1000000 : 1)))
    else
        echo 0
    fi
}

total_nodes=0
total_ns=0
ok=0
failed=0
skipped=0
id=""
fen=""
lineno=0

while IFS= read -r line || [[ -n "$line" ]]; do
    lineno=$((lineno + 1))
    line="${line%$'\r'}"
    case "$line" in
    '' )
        id=""
        fen=""
        continue
        ;;
    '#'*) continue ;;
    'id '*)
        id="${line#id }"
        fen=""
        ;;
    'epd '*)
        [[ -n "$id" ]] || { echo "$file:$lineno: epd before id" >&2; exit 2; }
        fen="${line#epd }"
        ;;
    'perft '*)
        [[ -n "$fen" ]] || { echo "$file:$lineno: perft line before epd" >&2; exit 2; }
        read -r _ depth expected extra <<<"$line"
        if [[ ! "$depth" =~ ^[0-9]+$ || ! "$expected" =~ ^[0-9]+$ || -n "${extra:-}" ]]; then
            echo "$file:$lineno: malformed perft line: $line" >&2
            exit 2
        fi
        if [[ -n "$max_nodes" ]] && ((expected > max_nodes)); then
            skipped=$((skipped + 1))
            continue
        fi
        start=$(now_ns)
        got=""
        if out=$("$bin" perft "$depth" "$fen" 2>&1); then
            got=$(awk '/^Nodes searched/ { print $3; exit }' <<<"$out")
        fi
        ns=$(($(now_ns) - start))
        if [[ "$got" == "$expected" ]]; then
            ok=$((ok + 1))
            total_nodes=$((total_nodes + expected))
            total_ns=$((total_ns + ns))
            printf 'OK   %-34s d%-2s %13s  %8.3f s  %12s nps\n' \
                "$id" "$depth" "$expected" "$(awk -v n="$ns" 'BEGIN { printf "%.3f", n / 1e9 }')" \
                "$(nps "$expected" "$ns")"
        else
            failed=$((failed + 1))
            printf 'FAIL %-34s d%-2s expected %s, got %s\n' "$id" "$depth" "$expected" "${got:-nothing}"
            printf '     fen: %s\n' "$fen"
            if [[ -z "$got" ]]; then
                printf '     output: %s\n' "$(tail -n 3 <<<"$out")"
            fi
        fi
        ;;
    *)
        echo "$file:$lineno: unrecognised line: $line" >&2
        exit 2
        ;;
    esac
done <"$file"

secs=$(awk -v n="$total_ns" 'BEGIN { printf "%.3f", n / 1e9 }')
echo "----"
echo "entries: $ok OK, $failed FAIL, $skipped skipped${max_nodes:+ (over $max_nodes nodes)}"
echo "total: $total_nodes nodes in $secs s, $(nps "$total_nodes" "$total_ns") nodes/s"
if ((failed > 0)); then
    exit 1
fi
