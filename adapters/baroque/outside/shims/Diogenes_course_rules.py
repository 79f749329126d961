"""Diogenes (sarthakturkhia/BaroqueChess, CSE 415 Autumn 2017) under the course's pincer rule.

Diogenes pinches in all 8 directions and only with a non-pincer partner; the course's
rules (the starter code's docstring, and adapters/baroque's rule book) pinch only in the 4
orthogonal directions, only after an orthogonal move, with any friendly piece as partner.
Its other captures are the course's. This module replaces Diogenes's pincer capture
routine (its CAPTURES table, which its imitator reads too) by the course's rule and then
offers Diogenes's own player functions to the game master, unchanged.

A player module for the game master, not a script: run alone (`--help`), it says so.
"""

if __name__ == "__main__":
    import sys

    print(__doc__)
    sys.exit(0)

import Diogenes_BC_module_capture as _captures  # noqa: E402

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


def course_pincer(state, start, end):
    """Enemy pieces orthogonally next to END with a friendly piece just beyond, after an
    orthogonal move from START (state is the position before the move)."""
    if start[0] != end[0] and start[1] != end[1]:
        return [[]]
    x, y = end
    found = []
    for dx, dy in ORTHOGONAL:
        vx, vy, px, py = x + dx, y + dy, x + 2 * dx, y + 2 * dy
        if not (0 <= px < 8 and 0 <= py < 8) or (px, py) == tuple(start):
            continue
        if state.squareBelongsTo(state.getPlayer(), px, py) and state.squareBelongsTo(state.getOpponent(), vx, vy):
            found.append((vx, vy))
    return [found]


_captures.CAPTURES["PINCER"] = course_pincer

from Diogenes_BC_Player import introduce, makeMove, nickname, prepare  # noqa: E402,F401
