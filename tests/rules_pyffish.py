#!/usr/bin/env python3
"""Cross-checks tests/rules_cases.txt with pyffish (Fairy-Stockfish's Python binding).

For every case it asks pyffish what the game result is after the moves, the way a referee
does (see ../shared/tools/xqmatch/xqm/referee.py):

1. no legal move: ``game_result`` (the side to move loses, also when stalemated);
2. ``is_optional_game_end``: repetition (third occurrence; perpetual check / chase rulings)
   and the n-move rule;
3. ``has_insufficient_material`` for both sides: a draw.

pyffish's n-move rule is 100 plies (+2 per check beyond a side's tenth) where ours is 120,
so the FEN's halfmove clock is lowered by 20 before asking pyffish (cases starting below 20
must not reach 100 plies). Moves are converted from ranks 0-9 to pyffish's 1-10.

The result must equal the case's expected result when its pyffish field is '=', and the
given result otherwise (an intended difference, explained in docs/games.md, "Xiangqi rules").

Usage: python3 tests/rules_pyffish.py [-v]      (exit status 1 on any mismatch)
"""

import os
import sys

import pyffish as sf

VARIANT = "xiangqi"
SHIFT = 20
CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules_cases.txt")


def to_ffish(move):
    return "%s%d%s%d" % (move[0], int(move[1]) + 1, move[2], int(move[3]) + 1)


def result_for(stm_red, value):
    if value == 0:
        return "1/2-1/2"
    red_wins = (value > 0) == stm_red
    return "1-0" if red_wins else "0-1"


def pyffish_result(fen, moves):
    ff = [to_ffish(m) for m in moves]
    stm_red = (fen.split()[1] != "b") == (len(moves) % 2 == 0)
    if not sf.legal_moves(VARIANT, fen, ff):
        return result_for(stm_red, sf.game_result(VARIANT, fen, ff))
    fields = fen.split()
    half = int(fields[4])
    if half >= SHIFT:
        fields[4] = str(half - SHIFT)
    elif half + len(moves) >= 100:
        raise ValueError("case starts below %d plies and reaches pyffish's limit" % SHIFT)
    ended, value = sf.is_optional_game_end(VARIANT, " ".join(fields), ff)
    if ended:
        return result_for(stm_red, value)
    red, black = sf.has_insufficient_material(VARIANT, fen, ff)
    if red and black:
        return "1/2-1/2"
    return "*"


def read_cases(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            if len(fields) != 5:
                raise ValueError("%s:%d: expected 5 fields" % (path, lineno))
            name, fen, moves, expected, ff = fields
            moves = [] if moves == "-" else moves.split()
            cases.append((name, fen, moves, expected.split()[0], ff))
    return cases


def main():
    verbose = "-v" in sys.argv[1:]
    cases = read_cases(CASES)
    agree, intended, bad = 0, 0, []
    for name, fen, moves, ours, ff in cases:
        want = ours if ff == "=" else ff
        got = pyffish_result(fen, moves)
        if got != want:
            bad.append((name, ours, want, got))
        elif ff == "=":
            agree += 1
        else:
            intended += 1
        if verbose:
            print("%-36s ours %-8s pyffish %-8s %s" % (name, ours, got, "" if ff == "=" else "(intended difference)"))
    print("pyffish agrees on %d of %d cases; %d intended differences as listed; %d mismatches"
          % (agree, len(cases), intended, len(bad)))
    for name, ours, want, got in bad:
        print("MISMATCH %s: ours %s, expected pyffish %s, pyffish says %s" % (name, ours, want, got))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
