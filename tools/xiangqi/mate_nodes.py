#!/usr/bin/env python3
"""Nodes to the shortest mate: a measure of a mate set with more resolution than the
count of mates found at a fixed budget (mate_test.py), which moves by a few positions
with any small change of the search.

For each position (`SET` as written by mate_set.py) the engine searches `go nodes CAP`
from a fresh game; the position's count is the nodes of the first report from which on
every report says `score mate N` (N the set's). A position never settled there counts
2 * CAP. Prints one line per position, then the number found and the geometric mean.
Node counts do not depend on the machine's load; two engines run at a time.

Usage:
    python3 mate_nodes.py SET ENGINE [--nodes CAP] [--option NAME=VALUE ...] [--jobs 2]
"""

import argparse
import math
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from uci_engine import Engine  # noqa: E402


def settled_at(lines, n):
    """Nodes of the first report from which on every report is a mate in n, or None."""
    first = None
    for ln in lines:
        t = ln.split()
        if t[:1] == ["info"] and "score" in t and "nodes" in t and "pv" in t:
            i = t.index("score")
            got = int(t[i + 2]) if t[i + 1] == "mate" else None
            if got == n:
                if first is None:
                    first = int(t[t.index("nodes") + 1])
            else:
                first = None
    return first


def run(cmd, items, cap, options, out):
    engine = Engine(cmd)
    engine.send("uci")
    engine.until("uciok")
    for o in options:
        k, v = o.split("=", 1)
        engine.send(f"setoption name {k} value {v}")
    for idx, fen, n in items:
        engine.send("ucinewgame")
        engine.send("isready")
        engine.until("readyok")
        engine.send(f"position fen {fen}")
        engine.send(f"go nodes {cap}")
        out[idx] = (n, settled_at(engine.until("bestmove"), n), fen)
    engine.quit()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set")
    ap.add_argument("engine")
    ap.add_argument("--nodes", type=int, default=4_000_000)
    ap.add_argument("--option", action="append", default=["OwnBook=false"])
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    items = []
    for line in open(a.set):
        if not line.strip() or line.startswith("#"):
            continue
        fen, mate, _ = [x.strip() for x in line.split(";")]
        items.append((len(items), fen, int(mate.split()[1])))
    out = {}
    jobs = [
        threading.Thread(target=run, args=(a.engine, items[k:: a.jobs], a.nodes, a.option, out))
        for k in range(a.jobs)
    ]
    for j in jobs:
        j.start()
    for j in jobs:
        j.join()
    found, log_sum = 0, 0.0
    for i in range(len(items)):
        n, nodes, fen = out[i]
        found += nodes is not None
        log_sum += math.log(max(nodes if nodes is not None else 2 * a.nodes, 1))
        print(f"mate {n}: nodes {nodes} | {fen}")
    print(f"found {found}/{len(items)} within {a.nodes} nodes; "
          f"geometric mean {math.exp(log_sum / max(len(items), 1)):.0f} nodes")


if __name__ == "__main__":
    main()
