#!/usr/bin/env python3
"""Cross-check jiang's perft against Fairy-Stockfish (and make perft records).

Subcommands:
  record NAME FEN [--budget S] [--max-depth D]
      Runs depth 1, 2, ... through both `target/release/jiang perft D FEN` and
      Fairy-Stockfish `go perft D` (UCI_Variant xiangqi), comparing totals and the
      divide (per root move counts). Stops once the next depth is predicted to take
      Fairy-Stockfish longer than S seconds (default 60). Prints a record in the
      xiangqi.perft format, or exits 1 with both divides on any disagreement.
  verify [--file F] [--max-nodes N] [--id-prefix P]
      Checks every entry of the perft file (default perft/xiangqi.perft) with
      NODES <= N (and id starting with P) against Fairy-Stockfish only (no jiang run).
  playout SEED PLIES
      Prints the FEN reached after PLIES uniformly random legal moves from the start
      position (pyffish, Python's random.Random(SEED)); stops early at a game end.

Fairy-Stockfish prints ranks 1-10; they are converted to jiang's 0-9 before comparing.
Run after `cargo build --release`; JIANG=path overrides target/release/jiang, FSF=path
overrides /usr/games/fairy-stockfish.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from uci_engine import Engine  # noqa: E402

JIANG = os.environ.get("JIANG", os.path.join(ROOT, "target", "release", "jiang"))
FSF = os.environ.get("FSF", "/usr/games/fairy-stockfish")
# Fairy-Stockfish 11.1 perft speed on this machine, leaf nodes per second (estimate).
FSF_NPS = 13e6
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

DIVIDE_LINE = re.compile(r"^([a-i][0-9][a-i][0-9]): (\d+)$")
FSF_MOVE = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")


def fsf_to_jiang(move):
    m = FSF_MOVE.match(move)
    if not m:
        raise ValueError(f"unexpected Fairy-Stockfish move {move!r}")
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


class Fsf(Engine):
    """A Fairy-Stockfish process in xiangqi mode."""

    def __init__(self):
        super().__init__(FSF)
        self.send("uci")
        self.until("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("isready")
        self.until("readyok")

    def divide(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        start = time.time()
        lines = self.until("Nodes searched")
        secs = time.time() - start
        div = {}
        for line in lines[:-1]:
            if ":" in line:
                mv, n = line.split(":")
                div[fsf_to_jiang(mv.strip())] = int(n)
        total = int(lines[-1].split()[2])
        return div, total, secs

    def close(self):
        self.quit()


def jiang_divide(fen, depth):
    out = subprocess.run(
        [JIANG, "perft", str(depth), fen], capture_output=True, text=True, check=True
    ).stdout
    div, total = {}, None
    for line in out.splitlines():
        if line.startswith("Nodes searched"):
            total = int(line.split()[2])
        elif DIVIDE_LINE.match(line):
            mv, n = line.split(":")
            div[mv] = int(n)
    if total is None:
        raise RuntimeError(f"no 'Nodes searched' line from jiang for {fen}")
    return div, total


def show_divides(jd, fd):
    moves = sorted(set(jd) | set(fd))
    print("move    jiang        fsf", file=sys.stderr)
    for m in moves:
        a, b = jd.get(m), fd.get(m)
        mark = "" if a == b else "   <-- differs"
        print(f"{m:6} {str(a):>10} {str(b):>10}{mark}", file=sys.stderr)


def cmd_record(args):
    fsf = Fsf()
    lines = []
    prev_prev = prev_total = 1
    depth = 1
    while depth <= args.max_depth:
        if depth > 1:
            # Predict the next count from the last branching factor (at least 1) and
            # Fairy-Stockfish's perft speed; stop when it would exceed the budget.
            branching = max(prev_total / max(prev_prev, 1), 1.0)
            if prev_total * branching / FSF_NPS > args.budget:
                break
        fd, ft, secs = fsf.divide(args.fen, depth)
        jd, jt = jiang_divide(args.fen, depth)
        if ft != jt or fd != jd:
            print(f"MISMATCH {args.name} depth {depth}: jiang {jt} fsf {ft}", file=sys.stderr)
            print(f"fen {args.fen}", file=sys.stderr)
            show_divides(jd, fd)
            fsf.close()
            return 1
        print(f"  {args.name} depth {depth}: {ft} ({secs:.1f} s)", file=sys.stderr)
        lines.append(f"perft {depth} {ft}")
        if ft == 0:
            break
        prev_prev, prev_total = prev_total, ft
        depth += 1
    fsf.close()
    print(f"id {args.name}")
    print(f"epd {args.fen}")
    print(f"# source: jiang, cross-checked with Fairy-Stockfish (go perft, total and divide) d1-d{len(lines)}")
    for line in lines:
        print(line)
    return 0


def read_records(path):
    recs, cur = [], None
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if not line:
                cur = None
                continue
            if line.startswith("#"):
                continue
            key, _, rest = line.partition(" ")
            if key == "id":
                cur = {"id": rest, "perft": []}
                recs.append(cur)
            elif key == "epd":
                cur["epd"] = rest
            elif key == "perft":
                d, n = rest.split()
                cur["perft"].append((int(d), int(n)))
    return recs


def cmd_verify(args):
    fsf = Fsf()
    bad = 0
    for r in read_records(args.file):
        if not r["id"].startswith(args.id_prefix):
            continue
        for d, n in r["perft"]:
            if n > args.max_nodes:
                continue
            _, got, secs = fsf.divide(r["epd"], d)
            ok = got == n
            bad += not ok
            print(f"{'OK  ' if ok else 'FAIL'} {r['id']} d{d} {n} fsf {got} ({secs:.1f} s)")
    fsf.close()
    return 1 if bad else 0


def cmd_playout(args):
    import pyffish

    rng = random.Random(args.seed)
    moves = []
    for _ in range(args.plies):
        legal = pyffish.legal_moves("xiangqi", START_FEN, moves)
        if not legal:
            break
        moves.append(rng.choice(sorted(legal)))
    print(pyffish.get_fen("xiangqi", START_FEN, moves))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("name")
    r.add_argument("fen")
    r.add_argument("--budget", type=float, default=60.0)
    r.add_argument("--max-depth", type=int, default=8)
    v = sub.add_parser("verify")
    v.add_argument("--file", default=os.path.join(ROOT, "perft", "xiangqi.perft"))
    v.add_argument("--max-nodes", type=int, default=10**9)
    v.add_argument("--id-prefix", default="", help="only records whose id starts so")
    p = sub.add_parser("playout")
    p.add_argument("seed", type=int)
    p.add_argument("plies", type=int)
    args = ap.parse_args()
    return {"record": cmd_record, "verify": cmd_verify, "playout": cmd_playout}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
