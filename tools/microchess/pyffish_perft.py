#!/usr/bin/env python3
"""Records perft counts of Microchess positions from pyffish, an independent move
generator, for tests/microchess_rules.rs to compare with jiang's.

pyffish (Fairy-Stockfish) plays the 4x4 king+rook game as an extinction game: it ends as
soon as a king is captured, WITHOUT Microchess's last rook move. The test therefore
compares these counts with jiang's tree cut at king captures; the last-move rule itself
is checked against the handout's published counts.

Usage: python3 tools/microchess/pyffish_perft.py > tests/microchess_pyffish_perft.txt
Output: comment lines, then one line per position: `FEN;n1,n2,...` (leaf counts at
depths 1, 2, ...). Deterministic: a fixed seed.
"""

import random
import sys

import pyffish as sf

VARIANT = """
[microchess]
maxRank = 4
maxFile = d
king = -
customPiece1 = k:K
rook = r
startFen = 2R1/3r/Kk2/4 w - - 0 1
extinctionValue = loss
extinctionPieceTypes = k
castling = false
checking = false
doubleStep = false
promotionPieceTypes = -
"""

SEED = 456
POSITIONS = 60
DEPTH = 4
HANDOUT = "2R1/3r/Kk2/4 w - - 0 1"


def perft(fen, moves, depth):
    if depth == 0:
        return 1
    legal = sf.legal_moves("microchess", fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(fen, moves + [m], depth - 1) for m in legal)


def fen_of(placement, black_to_move, fullmove):
    """placement: {square index 0..15 (a1 = 0): letter}."""
    ranks = []
    for rank in range(3, -1, -1):
        row, empty = "", 0
        for file in range(4):
            letter = placement.get(rank * 4 + file)
            if letter is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + letter
                empty = 0
        ranks.append(row + (str(empty) if empty else ""))
    side = "b" if black_to_move else "w"
    return f"{'/'.join(ranks)} {side} - - 0 {fullmove}"


def main():
    sf.load_variant_config(VARIANT)
    rng = random.Random(SEED)
    fens = [HANDOUT]
    while len(fens) < POSITIONS:
        letters = ["K", "k"]
        # Mostly both rooks; sometimes one or none (captured earlier).
        for rook in "Rr":
            if rng.random() < 0.8:
                letters.append(rook)
        squares = rng.sample(range(16), len(letters))
        fen = fen_of(dict(zip(squares, letters)), rng.random() < 0.5, rng.randint(1, 5))
        if fen not in fens:
            fens.append(fen)
    print(f"# pyffish {'.'.join(map(str, sf.version()))} perft of the 4x4 king+rook extinction game")
    print("# (no last rook move after a king capture), from tools/microchess/pyffish_perft.py,")
    print(f"# seed {SEED}: the handout position to depth 5, {POSITIONS - 1} random ones to depth {DEPTH}.")
    print("# FEN;leaves at depth 1,2,...")
    for i, fen in enumerate(fens):
        depth = 5 if i == 0 else DEPTH
        counts = [perft(fen, [], d) for d in range(1, depth + 1)]
        print(f"{fen};{','.join(map(str, counts))}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
