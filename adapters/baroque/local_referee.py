"""A stand-in for the CSE 473 game master's BC_checker (its validation web service at
lamprocles.cs.washington.edu, not reachable from here), used by run_game.py: copied
beside the game master as BC_checker.py, it answers the same two questions with the
repository's independent Python referee (tools/baroque/referee.py, written from the rule
book without jiang's code; run_game.py copies it beside as baroque_referee.py). So
neither jiang's moves nor jiang's move-to-state translation are judged by jiang: a
player's new state must be the board after one of the referee's legal moves from the
square the master names.
"""

import os
import sys

if __name__ == "__main__":  # not a program: run_game.py installs it as BC_checker.py
    print(__doc__)
    sys.exit(0)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import baroque_referee as R  # noqa: E402

# The course's piece codes (BC_state_etc): Black even, White odd, 0 empty.
CODE_TO_LETTER = {2: "p", 3: "P", 4: "c", 5: "C", 6: "l", 7: "L", 8: "i", 9: "I",
                  10: "w", 11: "W", 12: "k", 13: "K", 14: "f", 15: "F"}
LETTERS = {"-": None, **{v: v for v in CODE_TO_LETTER.values()}}


def _position(board_string, side):
    """The referee's position of a board string (eight rows of initials, rank 8 first)."""
    rows = [line.split() for line in board_string.strip("\n").split("\n")][:8]
    if len(rows) != 8 or any(len(row) != 8 for row in rows):
        raise ValueError("not an 8x8 board")
    # The referee's board[r][f] has r = 0 on rank 1.
    board = [[LETTERS[cell] for cell in rows[7 - r]] for r in range(8)]
    return R.Position(board, side)


def validate_move(starting_square, board1_string, board2_string):
    try:
        row = 8 - int(starting_square[1])
        col = "abcdefgh".index(starting_square[0])
        rows = [line.split() for line in board1_string.strip("\n").split("\n")][:8]
        piece = rows[row][col]
        if piece == "-":
            return (False, f"no piece on {starting_square} (local referee)")
        side = "w" if piece.isupper() else "b"
        before = _position(board1_string, side)
        after = _position(board2_string, "b" if side == "w" else "w")
    except (ValueError, IndexError, KeyError) as e:
        return (False, f"unreadable board or square ({e}) (local referee)")
    for move in R.generate(before):
        if R.square_name(*move.frm) == starting_square and R.apply(before, move).board == after.board:
            return (True, f"{move} (local referee: tools/baroque/referee.py)")
    return (False, f"no legal move from {starting_square} gives that board (local referee: tools/baroque/referee.py)")


def any_moves(board_string, whose_move=0):
    moves = R.generate(_position(board_string, "w" if whose_move == 1 else "b"))
    return (bool(moves), f"{len(moves)} legal moves (local referee: tools/baroque/referee.py)")


def board_only(state):
    """As the course's helper: the board part of the state's text."""
    text = state.__repr__()
    text = text[:text.rfind("\n")]
    text = text[:text.rfind("\n")]
    return text + "\n"
