#!/usr/bin/env python3
"""The CS3243 course's best-move cases (docs/games.md, "Fairy chess") timed on
the real engine over UCI: a benchmark, not a test (tests/fairychess.rs checks the moves
with a node budget; this says how long they take).

For each case: `ucinewgame` (an empty hash), `position fen`, `go nodes N` (default
300,000, the unit test's budget) or `go movetime MS`. From the `info` lines it reports
when the case was *found*: the first iteration from which every later one has the
course's move first in its PV (and, for the forced king captures, `score mate N` with the
course's N: m1 = mate 1, m3 = mate 2, m5 = mate 3, the shortest); the engine's own `time`
field there, the wall time from `go` to reading that line, and the wall time to
`bestmove` of the whole budget. The mating PVs are replayed with pyffish (the definition
in perft/fairychess_variant.ini): every move legal, and the last one captures the king.

Usage:
    python3 tools/fairychess/cases.py [ENGINE] [--nodes N | --movetime MS] [--repeat R]
ENGINE defaults to target/release/jiang. Exit status 1 if a case is not solved.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from uci_engine import Engine  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CASES = [
    # id, FEN, the course's move, mate in N moves (None: win material or draw)
    ("m1_1", "5C2/1R2CkCS/5C2/8/3r4/2K5/5R2/b2b4 w - - 0 1", "h7f7", 1),
    ("m3_1", "k7/8/8/8/8/1R6/1R3rr1/7K w - - 0 1", "b3a3", 2),
    ("m5_1", "4k3/4C3/3K1C2/8/8/8/8/c7 w - - 0 1", "d6e6", 3),
    ("e3_1", "4k3/8/2SK4/8/4r3/8/8/8 w - - 0 1", "c6e6", None),
    ("e3_2", "2R5/2K5/8/r7/8/8/2k1r3/8 w - - 0 1", "c7b6", None),
]

# The rules for pyffish (the same file as perft/fairychess_crosscheck.py).
with open(os.path.join(ROOT, "perft", "fairychess_variant.ini")) as _f:
    DEFINITION = _f.read()


LOADED = False


def pv_captures_king(fen, pv, n):
    """pyffish: the first 2n-1 PV moves are legal and the last one takes the king."""
    global LOADED
    try:
        import pyffish
    except ImportError:
        return None
    if not LOADED:
        pyffish.load_variant_config(DEFINITION)
        LOADED = True
    played = []
    for m in pv[: 2 * n - 1]:
        if m not in pyffish.legal_moves("fairychess", fen, played):
            return False
        played.append(m)
    after = pyffish.get_fen("fairychess", fen, played)
    board = after.split()[0]
    return len(played) == 2 * n - 1 and "k" not in board


def parse_info(line):
    t = line.split()
    info = {"pv": []}
    i = 1
    while i < len(t):
        if t[i] == "pv":
            info["pv"] = t[i + 1:]
            break
        if t[i] == "score" and i + 2 < len(t):
            info["score"] = (t[i + 1], int(t[i + 2]))
            i += 3
            continue
        if t[i] in ("depth", "time", "nodes") and i + 1 < len(t):
            info[t[i]] = int(t[i + 1])
            i += 2
            continue
        i += 1
    return info


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine", nargs="?", default=os.path.join(ROOT, "target", "release", "jiang"))
    ap.add_argument("--nodes", type=int, default=300_000)
    ap.add_argument("--movetime", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="runs per case; the median is shown")
    a = ap.parse_args()
    engine = Engine(a.engine)
    send, read = engine.send, engine.readline

    send("uci")
    while read() != "uciok":
        pass
    send("setoption name UCI_Variant value fairychess")
    send("isready")
    while read() != "readyok":
        pass
    limit = f"movetime {a.movetime}" if a.movetime else f"nodes {a.nodes}"
    print(f"engine {a.engine}, go {limit}, median of {a.repeat} runs")
    print(f"{'case':<5} {'move':<5} {'want':<7} {'found at':>8} {'engine ms':>9} {'wall ms':>8}"
          f" {'nodes':>8} {'total ms':>8}  result")
    failed = 0
    for cid, fen, best, mate in CASES:
        runs = []
        for _ in range(a.repeat):
            send("ucinewgame")
            send(f"position fen {fen}")
            send("isready")
            while read() != "readyok":
                pass
            t0 = time.perf_counter()
            send(f"go {limit}")
            infos = []
            while True:
                line = read()
                now = (time.perf_counter() - t0) * 1000
                if line.startswith("info") and " pv " in line:
                    infos.append((now, parse_info(line)))
                elif line.startswith("bestmove"):
                    bestmove = line.split()[1]
                    total = now
                    break

            def good(info):
                if not info["pv"] or info["pv"][0] != best:
                    return False
                return mate is None or info.get("score") == ("mate", mate)

            found = None
            for i in range(len(infos)):
                if all(good(x) for _, x in infos[i:]):
                    found = infos[i]
                    break
            last = infos[-1][1] if infos else {"pv": []}
            runs.append((found, total, bestmove, last))
        runs.sort(key=lambda r: (r[0] is None, r[0][0] if r[0] else 0))
        found, total, bestmove, last = runs[len(runs) // 2]
        totals = sorted(r[1] for r in runs)
        ok = bestmove == best and found is not None
        score = last.get("score", ("?", 0))
        verdict = f"bestmove {bestmove}, score {score[0]} {score[1]}"
        if mate is not None and found is not None:
            replay = pv_captures_king(fen, found[1]["pv"], mate)
            verdict += {True: ", pv takes the king (pyffish)", False: ", PV NOT A KING CAPTURE",
                        None: ""}[replay]
            ok = ok and replay is not False
        if not ok:
            failed += 1
            verdict += "  FAILED"
        want = f"mate {mate}" if mate else "-"
        if found:
            now, info = found
            print(f"{cid:<5} {best:<5} {want:<7} {'d' + str(info.get('depth', '?')):>8}"
                  f" {info.get('time', 0):>9} {now:>8.1f} {info.get('nodes', 0):>8}"
                  f" {totals[len(totals) // 2]:>8.1f}  {verdict}")
        else:
            print(f"{cid:<5} {best:<5} {want:<7} {'never':>8} {'-':>9} {'-':>8} {'-':>8}"
                  f" {totals[len(totals) // 2]:>8.1f}  {verdict}")
    engine.quit()
    print(f"{len(CASES) - failed}/{len(CASES)} solved")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
