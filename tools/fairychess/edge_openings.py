#!/usr/bin/env python3
"""Openings for a fairychess (NUS CS3243) measure with resolution: few pieces, one side
clearly ahead.

The balanced random armies of the old measure end at the 100-ply limit nine games in ten
whoever plays them (Fairy-Stockfish with ten times the nodes scored 52.5 % against itself
there). Here each side has a king and a few pieces scattered over its own half, and one
side (White or Black, at random) is EDGE_MIN..EDGE_MAX points ahead in the course's
values (R 5, B 3, N 3, S 3, C 1.5). A match plays every position with both colours, so
an engine scores by converting the edge within the 100 plies and by holding the worse
side longer than the other engine does.

Rejected: a king that can be captured at once, a position where either side can capture
anything at once (no game is decided by a hanging piece on move one), the two kings
adjacent, duplicates. White is to move. The rules are read from perft/fairychess_variant.ini
(pyffish: `pip install pyffish`).

    python3 tools/fairychess/edge_openings.py [--count 100] [--seed 27] [--pieces 1-4]
        [--edge 3-6] > openings.epd
"""

import argparse
import os
import random
import sys

import pyffish

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VALUES = {"r": 5.0, "b": 3.0, "n": 3.0, "s": 3.0, "c": 1.5}


def span(text):
    lo, _, hi = text.partition("-")
    return (float(lo), float(hi or lo))


def fen_of(board, side):
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = board.get((file, rank))
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {side} - - 0 1"


def any_capture(fen):
    moves = pyffish.legal_moves("fairychess", fen, [])
    return any(pyffish.is_capture("fairychess", fen, [], m) for m in moves)


def candidate(rng, pieces, edge):
    """(board, strong side) or None: armies drawn until their difference is in EDGE."""
    lo, hi = int(pieces[0]), int(pieces[1])
    strong = rng.choice("wb")
    for _ in range(200):
        a = [rng.choice("rbnsc") for _ in range(rng.randint(lo, hi))]
        b = [rng.choice("rbnsc") for _ in range(rng.randint(max(0, lo - 1), hi))]
        diff = sum(VALUES[p] for p in a) - sum(VALUES[p] for p in b)
        if edge[0] <= diff <= edge[1]:
            break
    else:
        return None
    armies = {strong: a, ("b" if strong == "w" else "w"): b}
    board = {}
    for side, army in armies.items():
        ranks = range(0, 4) if side == "w" else range(4, 8)
        free = [(f, r) for f in range(8) for r in ranks if (f, r) not in board]
        squares = rng.sample(free, len(army) + 1)
        for piece, sq in zip(["k"] + army, squares):
            board[sq] = piece.upper() if side == "w" else piece
    return board, strong


def acceptable(board):
    kings = [sq for sq, p in board.items() if p in "kK"]
    (f1, r1), (f2, r2) = kings
    if max(abs(f1 - f2), abs(r1 - r2)) <= 1:
        return None
    fen = fen_of(board, "w")
    if pyffish.validate_fen(fen, "fairychess") != pyffish.FEN_OK:
        return None
    if any_capture(fen) or any_capture(fen_of(board, "b")):
        return None
    return fen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--pieces", default="1-4", help="pieces besides the king, stronger side (weaker: one fewer at least)")
    parser.add_argument("--edge", default="3-6", help="material lead of the stronger side, course values")
    args = parser.parse_args()
    with open(os.path.join(ROOT, "perft", "fairychess_variant.ini")) as f:
        pyffish.load_variant_config(f.read())
    rng = random.Random(args.seed)
    pieces, edge = span(args.pieces), span(args.edge)
    seen, tries = set(), 0
    while len(seen) < args.count:
        tries += 1
        if tries > 1000 * args.count:
            sys.exit(f"only {len(seen)} positions after {tries} candidates")
        got = candidate(rng, pieces, edge)
        if got is None:
            continue
        fen = acceptable(got[0])
        if fen is None or fen in seen:
            continue
        seen.add(fen)
        print(fen)
    print(f"{len(seen)} positions from {tries} candidates (seed {args.seed}, pieces {args.pieces}, "
          f"edge {args.edge})", file=sys.stderr)


if __name__ == "__main__":
    main()
