"""A stand-in for the CSE 473 game master's BC_checker (its validation web service at
lamprocles.cs.washington.edu, not reachable from here), used by run_game.py: copied
beside the game master as BC_checker.py, it answers the same two questions with jiang's
rules, so it is no independent referee. It checks that a player's new state is the result
of one of jiang's legal moves from the square the master names (every move of the
skeleton player, and jiang's move-to-state translation), and whether a side has moves.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jiang_BC_Player as J  # noqa: E402

_engine = None
CHECKS = {"validated": 0, "refused": 0}


def _jiang():
    global _engine
    if _engine is None:
        _engine = J.Engine(os.environ.get("JIANG", "jiang"))
    return _engine


def _board(board_string):
    rows = [line.split() for line in board_string.strip("\n").split("\n")][:8]
    return [[J.LETTER_TO_CODE.get(cell, 0) for cell in row] for row in rows]


def _legal_moves(fen):
    e = _jiang()
    e.position(fen)
    e.send("moves")
    line = e.read_until("", 2.0)[-1]
    while " legal moves:" not in line:
        line = e.read_until("", 2.0)[-1]
    return line.split(":", 1)[1].split()


def validate_move(starting_square, board1_string, board2_string):
    before, after = _board(board1_string), _board(board2_string)
    row, col = J.coordinates(starting_square)
    piece = before[row][col]
    if piece == 0:
        CHECKS["refused"] += 1
        return (False, f"no piece on {starting_square} (local referee: jiang's rules)")
    fen = J.board_fen(before, piece % 2)
    e = _jiang()
    for move in _legal_moves(fen):
        if move.startswith(starting_square) and J.board_of_fen(e.fen_after(fen, move)) == after:
            CHECKS["validated"] += 1
            return (True, f"{move} (local referee: jiang's rules)")
    CHECKS["refused"] += 1
    return (False, f"no legal move from {starting_square} gives that board (local referee: jiang's rules)")


def any_moves(board_string, whose_move=0):
    moves = _legal_moves(J.board_fen(_board(board_string), whose_move))
    return (bool(moves), f"{len(moves)} legal moves (local referee: jiang's rules)")


def board_only(state):
    """As the course's helper: the board part of the state's text."""
    text = state.__repr__()
    text = text[:text.rfind("\n")]
    text = text[:text.rfind("\n")]
    return text + "\n"
