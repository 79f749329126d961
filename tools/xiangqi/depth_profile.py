#!/usr/bin/env python3
"""Where the search's depth goes: nodes to complete each depth, per engine, on a fixed set
of positions (issue 24, item 1).

For each UCI engine and each position, `go depth D` with a fresh hash (`ucinewgame`),
reading every `info depth N ... nodes M` line: the nodes spent when depth N was first
reported complete. Prints, per depth, the geometric mean of the nodes over the positions
and the effective branching factor (the ratio of successive depths' means), so two
engines' trees can be compared at the same depth.

    python3 tools/xiangqi/depth_profile.py --depth 14 \\
        --engine jiang=target/release/jiang --engine pikafish=/path/to/pikafish \\
        [--fens FILE] [--positions 16]

FENs default to the search bench's positions 2-24 (middlegames and openings); one thread
and 64 MiB of hash for every engine. Nothing here is timed: node counts only, so the
machine's load does not matter.
"""

import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from uci_engine import Engine  # noqa: E402


def bench_fens():
    """The FENs of `src/bench.rs`, in order."""
    here = os.path.dirname(os.path.abspath(__file__))
    text = open(os.path.join(here, "..", "..", "src", "bench.rs")).read()
    return re.findall(r'^\s*"([^"]+ [wb] [^"]*)",\s*$', text, re.M)


def profile(path, fens, depth):
    """{fen: {depth: nodes}} for one engine."""
    e = Engine(path)
    e.send("uci")
    e.until("uciok")
    for opt in ("setoption name Threads value 1", "setoption name Hash value 64"):
        e.send(opt)
    out = {}
    for fen in fens:
        e.send("ucinewgame")
        e.send(f"position fen {fen}")
        e.send("isready")
        e.until("readyok")
        e.send(f"go depth {depth}")
        nodes = {}
        for line in e.until("bestmove"):
            w = line.split()
            if w[:1] != ["info"] or "depth" not in w or "nodes" not in w or "pv" not in w:
                continue
            if "lowerbound" in w or "upperbound" in w:
                continue
            d = int(w[w.index("depth") + 1])
            nodes.setdefault(d, int(w[w.index("nodes") + 1]))
        out[fen] = nodes
    e.quit()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", action="append", required=True, help="NAME=PATH")
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--fens", help="a file with one FEN per line")
    ap.add_argument("--positions", type=int, default=16)
    a = ap.parse_args()
    fens = [l.strip() for l in open(a.fens)] if a.fens else bench_fens()[1:24]
    fens = [f for f in fens if f][: a.positions]
    results = {}
    for spec in a.engine:
        name, path = spec.split("=", 1)
        results[name] = profile(path, fens, a.depth)
    names = list(results)
    print(f"{len(fens)} positions; geometric mean of the nodes to complete each depth; "
          "EBF = ratio to the depth before")
    print("depth " + " ".join(f"{n + ' nodes':>16} {'EBF':>5}" for n in names))
    prev = {n: None for n in names}
    for d in range(1, a.depth + 1):
        row = [f"{d:5}"]
        for n in names:
            counts = [r[d] for r in results[n].values() if d in r and r[d] > 0]
            if len(counts) < len(fens):
                row.append(f"{'-':>16} {'':>5}")
                continue
            g = math.exp(sum(math.log(c) for c in counts) / len(counts))
            ebf = f"{g / prev[n]:5.2f}" if prev[n] else f"{'':>5}"
            row.append(f"{g:16,.0f} {ebf}")
            prev[n] = g
        print(" ".join(row))


if __name__ == "__main__":
    main()
