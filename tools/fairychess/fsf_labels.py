#!/usr/bin/env python3
"""Positions from fairychess games against Fairy-Stockfish, labelled with its own scores.

Reads xqmatch JSON files (`xqmatch.py --variant fairychess ... --json FILE`, one engine
named `fsf`) and writes, for each position where Fairy-Stockfish was to move and reported
a centipawn score from depth 8 or more, `FEN|p` with p = 1 / (1 + 10^(-cp/400)) from
White's view: the labelled-position input of the evaluation fit
(`cargo run --release -p jiang-lab -- tune fairychess fit FILE ITERATIONS`, which fits its own
scale K, so the 400 only has to be monotone). Duplicate positions and the first four plies
are skipped; mate scores are left out (they say nothing about the weights).

Why these positions: they are the ones jiang meets against its sparring partner, and the
label is a depth-12-to-16 search, not a game result that is a draw 95 % of the time.

  python3 tools/fairychess/fsf_labels.py OUT.txt MATCH.json [MATCH.json ...]

Needs pyffish (`pip install pyffish`) to replay the games.
"""

import json
import os
import sys

import pyffish

# The rules for pyffish (one file, shared with perft/fairychess_crosscheck.py and cases.py).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(os.path.join(ROOT, "perft", "fairychess_variant.ini")) as _f:
    DEFINITION = _f.read()


def labelled_positions(paths, engine="fsf", min_depth=8):
    """Yields (fen, p) for every new position the engine scored, p White's expected score."""
    seen = set()
    for path in paths:
        with open(path) as f:
            match = json.load(f)
        for game in match["game_list"]:
            engine_is_white = game["red"] == engine
            moves = [m["move"] for m in game["moves"]]
            for i, m in enumerate(game["moves"]):
                if (m["side"] == "red") != engine_is_white or i < 4:
                    continue
                if "score_cp" not in m or (m.get("depth") or 0) < min_depth:
                    continue
                fen = pyffish.get_fen("fairychess", game["fen"], moves[:i])
                if fen in seen:
                    continue
                seen.add(fen)
                white_to_move = fen.split()[1] == "w"
                cp = m["score_cp"] if white_to_move else -m["score_cp"]
                yield fen, 1 / (1 + 10 ** (-cp / 400))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    pyffish.load_variant_config(DEFINITION)
    n = 0
    with open(sys.argv[1], "w") as out:
        for fen, p in labelled_positions(sys.argv[2:]):
            out.write("%s|%.4f\n" % (fen, p))
            n += 1
    print("%d positions" % n, file=sys.stderr)


if __name__ == "__main__":
    main()
