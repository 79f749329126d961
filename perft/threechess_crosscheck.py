#!/usr/bin/env python3
"""Cross-check jiang's ThreeChess perft against the reference code (drtnf/threeChess).

Usage:
  perft/threechess_crosscheck.py REF [--start-depth D] [--games N] [--depths 2,3]
                                 [--deep N] [--deep-depth D] [--seed S] [--record FILE]

REF is your own checkout of https://github.com/drtnf/threeChess (its `src/threeChess`
Java package). The script compiles perft/ThreeChessPerft.java (ours: it only calls the
reference's public Board API) against it into a temporary folder, then compares totals and
the whole divide (count per first move) of the reference and `target/release/jiang`
(UCI, `UCI_Variant threechess`, `position startpos moves ...`, `go perft D`) on:

* the start position, depths 1..D (default 4; depth 5 takes the reference ~15 minutes);
* the position of issue 25 (a king capture at the first ply), depth 2;
* N positions (default 100) reached by uniformly random play on the reference
  (`ThreeChessPerft playout SEED PLIES`, SEED = S, S+1, ...; 40-160 plies), at the
  depths of --depths, and the first --deep of them also at --deep-depth (default 4).

Both count by the standard definition: move sequences of exactly D plies, and a game that
is over (a king captured) has no moves. The reference also reports how many finished games
lie inside each tree (above the last ply), where a different convention would show.
--record FILE appends, for positions with such finished games, `moves ...` and
`perft D N` lines in the format of tests/threechess_perft_reference.txt.
Exits 1 on any disagreement. Run after `cargo build --release`; JIANG=path overrides
target/release/jiang; needs `javac` and `java` (JDK 11 or newer).
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from uci_engine import Engine  # noqa: E402

JIANG = os.environ.get("JIANG", os.path.join(ROOT, "target", "release", "jiang"))
CHECKER = os.path.join(ROOT, "perft", "ThreeChessPerft.java")
ISSUE_25 = (
    "BB2BB4 GG1GF3 RB2RB4 BC1BB2 GF3BB4 RB1RA3 BB2RA1 BB4BC2 RG1RF3 BD1BC2 GB1GA3 RC1RB2 "
    "RA1RB2 GA1GB1 RD1RA1 RB2RA1 GB2GB3 RH1RG1 BC2RA2 GB1GB2 RG1RH1 RA2RA3 GB2GB1 RH1RG1 "
    "RA3RB4 GB1GB2 RG1RH1 RB4RD2 GH1GG1 RF3RD2 BE2BE4 GC2GC3 RD2RB3 RA1GC3 GD2GC3 RC2RC3 "
    "BB1BA3 GC1BA3 RE2RE3 BA1BC1 BA3BC1 RF1BG4 BE1BD1 GD1RE3"
)
DIVIDE_LINE = re.compile(r"^([BGR][A-H][1-4][BGR][A-H][1-4]): (\d+)$")


class Reference:
    """The compiled checker: counts and playouts with the reference Board."""

    def __init__(self, ref):
        self.dir = tempfile.mkdtemp(prefix="threechess-perft-")
        src = os.path.join(ref, "src", "threeChess")
        java = [os.path.join(src, f) for f in sorted(os.listdir(src)) if f.endswith(".java")]
        subprocess.run(["javac", "-nowarn", "-d", self.dir, "-cp", os.path.join(ref, "src"),
                        CHECKER, *java], check=True, stderr=subprocess.DEVNULL)

    def java(self, *args, stdin=""):
        return subprocess.run(["java", "-cp", self.dir, "ThreeChessPerft", *args],
                              input=stdin, capture_output=True, text=True, check=True).stdout

    def playout(self, seed, plies):
        return self.java("playout", str(seed), str(plies)).strip()

    def count(self, positions, depth):
        """(total, finished games inside, divide) for each move list."""
        out = self.java("count", str(depth), stdin="".join(p + "\n" for p in positions))
        rows = []
        for line in out.splitlines():
            f = line.split()
            divide = dict((m, int(n)) for m, n in (x.split(":") for x in f[5:]))
            rows.append((int(f[1]), int(f[3]), divide))
        return rows


class Jiang(Engine):
    def __init__(self):
        super().__init__(JIANG)
        self.send("uci")
        self.until("uciok")
        self.send("setoption name UCI_Variant value threechess")

    def count(self, moves, depth):
        self.send(f"position startpos moves {moves}" if moves else "position startpos")
        self.send(f"go perft {depth}")
        divide, total = {}, None
        for line in self.until("Nodes searched"):
            m = DIVIDE_LINE.match(line)
            if m:
                divide[m[1]] = int(m[2])
            elif line.startswith("Nodes searched"):
                total = int(line.split()[-1])
        return total, divide


def compare(ref, jiang, label, positions, depth, record):
    bad = inside = 0
    for moves, (total, over, divide) in zip(positions, ref.count(positions, depth)):
        mine, my_divide = jiang.count(moves, depth)
        inside += over > 0
        if (mine, my_divide) != (total, divide):
            bad += 1
            diff = {m: (divide.get(m), my_divide.get(m)) for m in set(divide) | set(my_divide)
                    if divide.get(m) != my_divide.get(m)}
            print(f"DIFF {label} depth {depth}: reference {total}, jiang {mine}; "
                  f"moves {moves!r}; per move (reference, jiang): {diff}")
        elif over and record is not None:
            record.append((moves, depth, total))
    print(f"{label}: {len(positions)} positions at depth {depth}, {inside} with finished "
          f"games inside the tree, {bad} disagreements")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ref")
    ap.add_argument("--start-depth", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--depths", default="2,3")
    ap.add_argument("--deep", type=int, default=10)
    ap.add_argument("--deep-depth", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--record")
    a = ap.parse_args()
    ref, jiang = Reference(a.ref), Jiang()
    record = [] if a.record else None
    bad = 0
    for d in range(1, a.start_depth + 1):
        bad += compare(ref, jiang, "start position", [""], d, None)
    bad += compare(ref, jiang, "issue 25 position", [ISSUE_25], 2, record)
    positions = []
    for g in range(a.games):
        seed = a.seed + g
        positions.append(ref.playout(seed, random.Random(seed).randint(40, 160)))
    for d in [int(x) for x in a.depths.split(",") if x]:
        bad += compare(ref, jiang, "random positions", positions, d, record)
    if a.deep:
        bad += compare(ref, jiang, "random positions", positions[:a.deep], a.deep_depth, record)
    jiang.quit()
    if record:
        with open(a.record, "a") as f:
            for moves, depth, total in record:
                f.write(f"\nmoves {moves}\nperft {depth} {total}\n")
    print("FAIL" if bad else "OK: every count and divide agrees")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
