#!/usr/bin/env python3
"""Builds a set of mate-in-N Xiangqi positions that two engines and pyffish agree on.

Candidates (one FEN per line, anything after ' | ' or ';' ignored) are searched by
Pikafish-HCE and by Fairy-Stockfish (Debian's 11.1); a position is kept when both report
the same "mate N" for the side to move with 1 <= N <= MAX_N, and pyffish confirms the
first engine's principal variation: every move legal and the side to move at the end has
no legal move (2N-1 plies). Output lines:

    FEN ; mate N ; pv m1 m2 ...      (moves in ICCS, ranks 0-9)

Usage:
    python3 mate_set.py CANDIDATES OUT --pikafish PATH [--fsf PATH] [--max-n 5]
                        [--min-n 1] [--movetime MS] [--screen-ms MS] [--verify-ms MS]
                        [--limit K]

With --screen-ms, Pikafish-HCE first looks at each candidate that long and only the
positions where it sees a mate of at most MAX_N + 2 moves are searched at --movetime by
both engines (deep mates are rare among candidates: this saves most of the time).
With --verify-ms, a position both engines agree on is searched again by Pikafish-HCE
that long and kept only if it still reports the same N: two engines can agree on a
mate in 7 at 2 s where a longer search finds a mate in 6.
"""

import argparse
import os
import sys

import pyffish

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from uci_engine import Engine  # noqa: E402


class Player(Engine):
    """A UCI engine with options set, that tells its ranks."""

    def __init__(self, cmd, options):
        super().__init__(cmd)
        self.send("uci")
        self.name = ""
        for line in self.until("uciok"):
            if line.startswith("id name"):
                self.name = line[8:]
        for k, v in options.items():
            self.send(f"setoption name {k} value {v}")
        self.send("isready")
        self.until("readyok")
        # Fairy-Stockfish in UCI mode numbers ranks 1-10.
        self.ranks1 = "Fairy-Stockfish" in self.name

    def mate(self, fen, movetime):
        """(mate N or None, pv in ranks 0-9)."""
        self.send("ucinewgame")
        self.send("isready")
        self.until("readyok")
        self.send(f"position fen {fen}")
        self.send(f"go movetime {movetime}")
        mate, pv = None, []
        for line in self.until("bestmove"):
            t = line.split()
            if t[:1] == ["info"] and "score" in t and "pv" in t:
                i = t.index("score")
                if t[i + 1] == "mate":
                    mate = int(t[i + 2])
                else:
                    mate = None
                pv = t[t.index("pv") + 1 :]
        if self.ranks1:
            pv = [to_ranks0(m) for m in pv]
        return mate, pv


def to_ranks0(m):
    """Fairy-Stockfish's b10c8 (ranks 1-10) to ICCS b9c7."""
    i = 1
    while m[i].isdigit():
        i += 1
    return m[0] + str(int(m[1:i]) - 1) + m[i] + str(int(m[i + 1 :]) - 1)


def to_ranks1(m):
    return m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)


def pv_mates(fen, pv, n):
    """Whether pv (ranks 0-9) is 2n-1 legal plies ending in a position without moves."""
    if len(pv) < 2 * n - 1:
        return False
    moves = []
    for m in pv[: 2 * n - 1]:
        legal = pyffish.legal_moves("xiangqi", fen, moves)
        if to_ranks1(m) not in legal:
            return False
        moves.append(to_ranks1(m))
    return not pyffish.legal_moves("xiangqi", fen, moves)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("candidates")
    ap.add_argument("out")
    ap.add_argument("--pikafish", required=True)
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--max-n", type=int, default=5)
    ap.add_argument("--min-n", type=int, default=1)
    ap.add_argument("--screen-ms", type=int, default=0)
    ap.add_argument("--verify-ms", type=int, default=0)
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--limit", type=int, default=0, help="stop after this many kept")
    a = ap.parse_args()
    pika = Player(a.pikafish, {"Threads": 1, "Hash": 64})
    fsf = Player(a.fsf, {"Threads": 1, "Hash": 64, "UCI_Variant": "xiangqi"})
    kept, seen = 0, set()
    with open(a.candidates) as f, open(a.out, "w") as out:
        for line in f:
            fen = line.split(" | ")[0].split(";")[0].strip()
            if not fen or fen.startswith("#") or fen in seen:
                continue
            seen.add(fen)
            if a.screen_ms:
                m0, _ = pika.mate(fen, a.screen_ms)
                if m0 is None or not 1 <= m0 <= a.max_n + 2:
                    continue
            m1, pv = pika.mate(fen, a.movetime)
            if m1 is None or not a.min_n <= m1 <= a.max_n:
                continue
            m2, _ = fsf.mate(fen, a.movetime)
            ok = m2 == m1 and pv_mates(fen, pv, m1)
            m3 = None
            if ok and a.verify_ms:
                m3, _ = pika.mate(fen, a.verify_ms)
                ok = m3 == m1
            print(f"{fen}: pikafish mate {m1}, fsf {m2}"
                  + (f", pikafish longer {m3}" if a.verify_ms else "")
                  + f", {'kept' if ok else 'dropped'}",
                  file=sys.stderr)
            if ok:
                out.write(f"{fen} ; mate {m1} ; pv {' '.join(pv[:2 * m1 - 1])}\n")
                out.flush()
                kept += 1
                if a.limit and kept >= a.limit:
                    break
    pika.quit()
    fsf.quit()


if __name__ == "__main__":
    main()
