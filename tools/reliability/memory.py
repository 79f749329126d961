#!/usr/bin/env python3
"""Resident memory of the engine against its hash size (issue 14).

For each size (MiB): a fresh engine gets `uci`, `setoption name Hash value N`, `isready`
(the time to `readyok` is reported), then searches (`go movetime MS`, enough to write all
over the table), and its resident set (`VmRSS`, and the peak `VmHWM`) is read from
/proc after the `bestmove`. The overhead is the peak less the hash size.

Usage: tools/reliability/memory.py [--engine PATH] [--sizes 16,256,4096] [--movetime MS]
                                   [--threads N]
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from uci_engine import Engine  # noqa: E402


def status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024.0  # kB -> MiB
    return out


def measure(engine_path, size, movetime, threads):
    engine = Engine(engine_path)
    try:
        engine.send("uci")
        engine.until("uciok")
        base = status(engine.pid)
        engine.send(f"setoption name Threads value {threads}")
        engine.send(f"setoption name Hash value {size}")
        t0 = time.monotonic()
        engine.send("isready")
        engine.until("readyok")
        ready_ms = (time.monotonic() - t0) * 1000
        engine.send("position startpos")
        engine.send(f"go movetime {movetime}")
        engine.until("bestmove")
        after = status(engine.pid)
        return base, ready_ms, after
    finally:
        engine.quit()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/jiang")
    ap.add_argument("--sizes", default="16,256,4096")
    ap.add_argument("--movetime", type=int, default=5000)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    if not os.path.exists(args.engine):
        sys.exit(f"no engine at {args.engine} (cargo build --release)")
    print(f"engine {args.engine}, Threads {args.threads}, go movetime {args.movetime}")
    print("| Hash (MiB) | RSS before Hash (MiB) | readyok (ms) | RSS after search (MiB) "
          "| peak RSS (MiB) | peak - Hash (MiB) |")
    print("|---|---|---|---|---|---|")
    for size in (int(s) for s in args.sizes.split(",")):
        base, ready_ms, after = measure(args.engine, size, args.movetime, args.threads)
        print(f"| {size} | {base['VmRSS']:.1f} | {ready_ms:.1f} | {after['VmRSS']:.1f} "
              f"| {after['VmHWM']:.1f} | {after['VmHWM'] - size:.1f} |")


if __name__ == "__main__":
    main()
