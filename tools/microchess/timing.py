#!/usr/bin/env python3
"""Microchess on the real engine over UCI: how long the solution takes and how fast `go`
answers once it is there. A benchmark, not a test.

Each run starts a fresh engine, sends `uci`, then `setoption name UCI_Variant value
microchess` (which starts solving on a thread of its own) and at once `isready`: the time
to `readyok` is the solve as the protocol sees it (`isready` waits for the solution).
Then, for each of a few positions, `position fen …` and `go movetime 100` (the course
allows 0.1 s): the time from `go` to `bestmove`, the move and the `info string payoff …`
line.

Usage: python3 tools/microchess/timing.py [ENGINE] [--runs 5]
ENGINE defaults to target/release/jiang.
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from uci_engine import Engine  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POSITIONS = [
    "2R1/3r/Kk2/4 w - - 0 1",   # the handout position: Kxb2 wins outright
    "4/3k/1K2/R3 w - - 0 1",    # K b2, R a1, k d3: a forced White win
    "4/3k/1K2/R3 b - - 0 1",    # the same, Black to move
    "4/R3/K1k1/4 w - - 0 1",    # K a2, R a3, k c2: a forced White win
    "r3/1k2/2K1/3R b - - 0 5",  # Black to move at ply 9
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine", nargs="?", default=os.path.join(ROOT, "target", "release", "jiang"))
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    solve, answers = [], []
    for run in range(a.runs):
        engine = Engine(a.engine)
        send, until = engine.send, engine.until

        send("uci")
        until("uciok")
        t0 = time.perf_counter()
        send("setoption name UCI_Variant value microchess")
        send("isready")
        until("readyok")
        solve.append((time.perf_counter() - t0) * 1000)
        for fen in POSITIONS:
            send(f"position fen {fen}")
            t0 = time.perf_counter()
            send("go movetime 100")
            lines = until("bestmove")
            ms = (time.perf_counter() - t0) * 1000
            answers.append(ms)
            if run == 0:
                payoff = next((l for l in lines if "payoff" in l), "")
                print(f"{fen:<26} {lines[-1]:<16} {ms:6.2f} ms  {payoff}")
        engine.quit()
    print(f"solve (setoption to readyok), {a.runs} fresh engines: median {statistics.median(solve):.0f} ms,"
          f" min {min(solve):.0f}, max {max(solve):.0f}")
    print(f"go to bestmove, {len(answers)} answers: median {statistics.median(answers):.2f} ms,"
          f" max {max(answers):.2f} ms")


if __name__ == "__main__":
    main()
