#!/usr/bin/env python3
"""Cross-check jiang's fairychess move generation against pyffish (Fairy-Stockfish).

Makes random positions (random armies anywhere on the board or on the two back ranks,
either side to move, sometimes a move number near the 100-ply limit, then random plies
played with pyffish) and compares, for each position, jiang's legal move set with
pyffish's and, for every legal move, the number of legal moves after it (a perft 2 with
full divide: every child's move count must agree too).

pyffish loads the game's definition (perft/fairychess_variant.ini; the rules are in
docs/games.md, "Fairy chess"). It knows the
king capture (extinction) and "no legal move loses", not the two draws, so they are
applied here on top of it, as xqmatch's referee does: a position with only the two kings,
or with 100 plies played (2*(fullmove-1) + 1 if Black to move), has no moves.

jiang is reached through the lab's fairychess helpers (`cargo build --release -p
jiang-lab`, then `jiang-lab tune fairychess moves`; JIANG=path overrides
target/release/jiang-lab), which read FENs on stdin and print `FEN|moves|child counts`
per line.

  python3 perft/fairychess_crosscheck.py [--positions 1000] [--seed 1] [--verbose]
      [--fsf PATH [--fsf-depth 4] [--fsf-positions 200]]

With --fsf (a Fairy-Stockfish with custom pieces, e.g. built from source with
largeboards=yes), deeper perft totals are compared too: `go perft D` after loading the
definition through VariantPath against `fairychess perft D FEN`, on the first
--fsf-positions positions where the draws cannot occur within D plies (more than D
pieces besides the kings, and the 100-ply limit more than D plies away).

Exit status 0 when everything agrees, 1 on any difference (printed in full).
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from uci_engine import Engine  # noqa: E402

JIANG = os.environ.get("JIANG", os.path.join(ROOT, "target", "release", "jiang-lab"))
# The helpers' subcommand of jiang-lab.
FAIRYCHESS = [JIANG, "tune", "fairychess"]

# The rules for pyffish (one file, shared with tools/fairychess/cases.py).
with open(os.path.join(ROOT, "perft", "fairychess_variant.ini")) as _f:
    DEFINITION = _f.read()
VARIANT = "fairychess"
PLY_LIMIT = 100
FIXED = [
    # The course's public cases b1-b4 and xqmatch's two probe positions.
    "1c2CNk1/rB6/n7/4B3/C1b3N1/cR1Cn1c1/1b6/1C3c1K w - - 0 1",
    "kr1b3s/3S2Sb/2C1N3/1n3c2/2B5/4B1Nn/3R2c1/4KC1s w - - 0 1",
    "k2B2b1/7C/1Cc5/3B1cS1/3s1c2/6C1/1b5R/1KC3rc w - - 0 1",
    "kb5N/1Cc1Cs2/2C4C/4N3/1B6/1c6/1S2c3/1c2n1Kn w - - 0 1",
    "1k1r1n2/1cs1b1c1/8/3S4/2s5/8/1CB1N1C1/2RK3S b - - 0 1",
]


def board_of(fen):
    """{(file, rank): letter} of a FEN's board (file 0-7, rank 0-7)."""
    squares = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                squares[(f, 7 - i)] = ch
                f += 1
    return squares


def ply_of(fen):
    fields = fen.split()
    return 2 * (int(fields[5]) - 1) + (1 if fields[1] == "b" else 0)


def over_by_draw(squares, ply):
    """The two draws pyffish does not know."""
    return ply >= PLY_LIMIT or (len(squares) == 2 and set(squares.values()) == {"K", "k"})


def square_name(f, r):
    return "abcdefgh"[f] + str(r + 1)


def parse_sq(text):
    return ("abcdefgh".index(text[0]), int(text[1]) - 1)


def reference(fen):
    """pyffish's legal moves and, per move, the legal move count after it, with the
    draws applied."""
    squares = board_of(fen)
    ply = ply_of(fen)
    if over_by_draw(squares, ply):
        return {}
    moves = sf.legal_moves(VARIANT, fen, [])
    counts = {}
    for m in moves:
        child = dict(squares)
        piece = child.pop(parse_sq(m[:2]))
        child[parse_sq(m[2:4])] = piece
        if over_by_draw(child, ply + 1):
            counts[m] = 0
        else:
            counts[m] = len(sf.legal_moves(VARIANT, fen, [m]))
    return counts


def random_position(rng):
    """A random army position (both kings, any material), then random plies."""
    squares = {}
    back_ranks = rng.random() < 0.35
    free = [(f, r) for f in range(8) for r in range(8)]
    rng.shuffle(free)
    for color in "wb":
        n = rng.choice([0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 12, 14])
        letters = ["K"] + [rng.choice("RBNSC") for _ in range(n)]
        for letter in letters:
            if back_ranks:
                allowed = (0, 1) if color == "w" else (6, 7)
                cands = [s for s in free if s[1] in allowed]
                if not cands:
                    cands = free
            else:
                cands = free
            sq = cands[0]
            free.remove(sq)
            squares[sq] = letter if color == "w" else letter.lower()
    rows = []
    for r in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            p = squares.get((f, r))
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    side = rng.choice("wb")
    fullmove = 1 if rng.random() < 0.8 else rng.randint(40, 51)
    fen = "/".join(rows) + f" {side} - - 0 {fullmove}"
    for _ in range(rng.randint(0, 24)):
        sqs = board_of(fen)
        if over_by_draw(sqs, ply_of(fen)):
            break
        legal = sf.legal_moves(VARIANT, fen, [])
        if not legal:
            break
        nxt = sf.get_fen(VARIANT, fen, [rng.choice(sorted(legal))])
        b = board_of(nxt)
        if "K" not in b.values() or "k" not in b.values():
            break  # a king was captured: keep the last position with both kings
        fen = nxt
    return fen


class Fsf(Engine):
    """A Fairy-Stockfish process playing fairychess from the definition."""

    def __init__(self, path):
        fd, self.ini = tempfile.mkstemp(suffix=".ini")
        with os.fdopen(fd, "w") as f:
            f.write(DEFINITION)
        super().__init__(path)
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name VariantPath value {self.ini}")
        self.send("setoption name UCI_Variant value fairychess")
        self.send("isready")
        self.until("readyok")

    def perft(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        return int(self.until("Nodes searched")[-1].split()[2])

    def close(self):
        self.quit()
        os.unlink(self.ini)


def jiang_perft(fen, depth):
    out = subprocess.run(FAIRYCHESS + ["perft", str(depth), fen], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        if line.startswith("Nodes searched"):
            return int(line.split()[2])
    raise RuntimeError(f"no 'Nodes searched' from jiang for {fen}")


def deep_perft(fens, path, depth, limit):
    """Compares perft totals at `depth` with Fairy-Stockfish; returns the mismatches."""
    fsf = Fsf(path)
    checked = bad = nodes = 0
    for fen in fens:
        if checked >= limit:
            break
        squares = board_of(fen)
        if len(squares) - 2 <= depth or ply_of(fen) + depth >= PLY_LIMIT:
            continue
        want = fsf.perft(fen, depth)
        got = jiang_perft(fen, depth)
        checked += 1
        nodes += want
        if want != got:
            bad += 1
            print(f"PERFT MISMATCH d{depth} {fen}: jiang {got} Fairy-Stockfish {want}")
    fsf.close()
    print(f"perft {depth}: {checked} positions, {checked - bad} agree, {bad} differ "
          f"({nodes} leaves in all)")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--fsf", help="Fairy-Stockfish with custom pieces, for deeper perft")
    ap.add_argument("--fsf-depth", type=int, default=4)
    ap.add_argument("--fsf-positions", type=int, default=200)
    args = ap.parse_args()
    sf.load_variant_config(DEFINITION)
    rng = random.Random(args.seed)
    start = time.time()
    fens = list(FIXED)
    while len(fens) < args.positions:
        fens.append(random_position(rng))
    proc = subprocess.run(FAIRYCHESS + ["moves"], input="\n".join(fens) + "\n",
                          capture_output=True, text=True, check=True)
    lines = proc.stdout.splitlines()
    if len(lines) != len(fens):
        print(f"jiang answered {len(lines)} lines for {len(fens)} FENs", file=sys.stderr)
        return 1
    stats = dict(positions=0, agree=0, root_moves=0, child_moves=0, captures_of_king=0,
                 no_move_children=0, kings_only=0, ply_limit=0)
    bad = 0
    for fen, line in zip(fens, lines):
        jfen, jmoves, jcounts = line.split("|")
        if jfen != fen or jmoves.startswith("ERROR"):
            print(f"MISMATCH {fen}: jiang says {jmoves}")
            bad += 1
            continue
        mine = dict(zip(jmoves.split(), map(int, jcounts.split())))
        ref = reference(fen)
        stats["positions"] += 1
        stats["root_moves"] += len(ref)
        stats["child_moves"] += sum(ref.values())
        sqs = board_of(fen)
        if over_by_draw(sqs, ply_of(fen)):
            stats["kings_only" if ply_of(fen) < PLY_LIMIT else "ply_limit"] += 1
        for m, n in ref.items():
            if n == 0:
                stats["no_move_children"] += 1
            if sqs.get(parse_sq(m[2:4])) in ("K", "k"):
                stats["captures_of_king"] += 1
        if mine == ref:
            stats["agree"] += 1
            if args.verbose:
                print(f"ok {len(ref):3} {sum(ref.values()):6} {fen}")
        else:
            bad += 1
            print(f"MISMATCH {fen}")
            for m in sorted(set(mine) | set(ref)):
                if mine.get(m) != ref.get(m):
                    print(f"  {m}: jiang {mine.get(m)} pyffish {ref.get(m)}")
    if args.fsf:
        bad += deep_perft(fens, args.fsf, args.fsf_depth, args.fsf_positions)
    secs = time.time() - start
    print(f"positions {stats['positions']}, agree {stats['agree']}, differ {bad}; "
          f"moves compared {stats['root_moves']}, child moves compared {stats['child_moves']} "
          f"(perft 2 total); king captures among them {stats['captures_of_king']}, "
          f"children without moves {stats['no_move_children']}; positions drawn by rule: "
          f"kings only {stats['kings_only']}, 100-ply limit {stats['ply_limit']}; {secs:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
