#!/usr/bin/env python3
"""Runs a UCI engine on a mate set (see mate_set.py) and checks that it finds the
shortest mate: the last `info` before `bestmove` must say `score mate N` with the set's N,
and the best move must start a mate in N (checked with pyffish against the set's line
only when it is the same move; otherwise the engine's own PV is replayed).

Usage:
    python3 mate_test.py SET ENGINE [--movetime MS | --nodes N] [--option NAME=VALUE ...]
Prints one line per position and a summary; exits 1 if any position failed.
"""

import argparse
import os
import sys
import time

import pyffish

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from uci_engine import Engine  # noqa: E402


def to_ranks1(m):
    return m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)


def pv_mates(fen, pv, n):
    if len(pv) < 2 * n - 1:
        return False
    moves = []
    for m in pv[: 2 * n - 1]:
        if to_ranks1(m) not in pyffish.legal_moves("xiangqi", fen, moves):
            return False
        moves.append(to_ranks1(m))
    return not pyffish.legal_moves("xiangqi", fen, moves)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set")
    ap.add_argument("engine")
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--nodes", type=int, default=0,
                    help="search this many nodes instead of --movetime (load-independent)")
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args()
    engine = Engine(a.engine)
    send, until = engine.send, engine.until

    send("uci")
    until("uciok")
    for o in a.option:
        k, v = o.split("=", 1)
        send(f"setoption name {k} value {v}")
    total = ok = 0
    by_n = {}
    for line in open(a.set):
        if not line.strip() or line.startswith("#"):
            continue
        fen, mate, _ = [x.strip() for x in line.split(";")]
        n = int(mate.split()[1])
        send("ucinewgame")
        send("isready")
        until("readyok")
        send(f"position fen {fen}")
        t0 = time.monotonic()
        send(f"go nodes {a.nodes}" if a.nodes else f"go movetime {a.movetime}")
        lines = until("bestmove")
        ms = (time.monotonic() - t0) * 1000
        got, pv, first_ms = None, [], None
        for ln in lines:
            t = ln.split()
            if t[:1] == ["info"] and "score" in t and "pv" in t:
                i = t.index("score")
                got = int(t[i + 2]) if t[i + 1] == "mate" else None
                pv = t[t.index("pv") + 1:]
                if got == n and first_ms is None and "time" in t:
                    first_ms = int(t[t.index("time") + 1])
        good = got == n and pv_mates(fen, pv, n)
        total += 1
        ok += good
        s = by_n.setdefault(n, [0, 0])
        s[0] += 1
        s[1] += good
        print(f"{'ok  ' if good else 'FAIL'} mate {n}: engine {got} in {ms:.0f} ms "
              f"(found at {first_ms} ms) pv {' '.join(pv[:2 * n - 1])} | {fen}")
    engine.quit()
    print(f"{ok}/{total} shortest mates found; by N: "
          + ", ".join(f"mate {k}: {v[1]}/{v[0]}" for k, v in sorted(by_n.items())))
    sys.exit(0 if ok == total else 1)


if __name__ == "__main__":
    main()
