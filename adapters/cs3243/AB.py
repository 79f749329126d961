"""jiang as the agent of NUS CS3243's fairy chess project (AB.py).

The grader imports this file and calls ``studentAgent(gameboard)`` (White's move, as
``((r1, c1), (r2, c2))``) and ``get_legal_moves(gameboard, colour)``; ``gameboard`` is a
list of ``(piece_name, colour, (row, col))`` with row 0 at the top (rank 8) and column 0
at the left (file a). Both questions go to the ``jiang`` engine (``UCI_Variant
fairychess``), started once on the first call (path from the ``JIANG`` environment
variable, else ``jiang`` next to this file) and kept for the following tests.
``studentAgent`` searches ``JIANG_MOVETIME_MS`` (default 1000 ms; the course allows
about 2 s per test).

If jiang is missing, fails or times out, a small move generator here answers instead
(the enemy king if it can be taken, else a random legal move) and says so on stderr.
"""

import atexit
import os
import random
import select
import subprocess
import sys
import time

ENGINE_ENV = "JIANG"
MOVETIME_ENV = "JIANG_MOVETIME_MS"
DEFAULT_MOVETIME_MS = 1000
BESTMOVE_GRACE_S = 0.5
HANDSHAKE_TIMEOUT_S = 3.0

LETTERS = {"King": "K", "Rook": "R", "Bishop": "B", "Knight": "N", "Squire": "S", "Combatant": "C"}


def log(message):
    print(f"[AB.py/jiang] {message}", file=sys.stderr, flush=True)


def square(pos):
    """The course's (row, col) as a square name: (7, 7) is h1, (0, 0) is a8."""
    r, c = pos
    return f"{chr(ord('a') + c)}{8 - r}"


def position_of(name):
    return (8 - int(name[1]), ord(name[0]) - ord("a"))


def move_text(move):
    return square(move[0]) + square(move[1])


def move_of(text):
    """jiang's move text (e.g. h7f7) as ((r1, c1), (r2, c2)), or None."""
    if len(text) != 4 or not all("a" <= text[i] <= "h" and "1" <= text[i + 1] <= "8" for i in (0, 2)):
        return None
    return (position_of(text[:2]), position_of(text[2:]))


def board_fen(gameboard, colour):
    """The FEN of a gameboard with `colour` to move; the game counted from its start."""
    grid = [[None] * 8 for _ in range(8)]
    for name, piece_colour, (r, c) in gameboard:
        letter = LETTERS[name]
        grid[r][c] = letter if piece_colour == "white" else letter.lower()
    ranks = []
    for row in grid:
        text, empty = "", 0
        for cell in row:
            if cell is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + cell
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks) + (" w" if colour == "white" else " b") + " - - 0 1"


class EngineError(Exception):
    pass


class PositionRefused(EngineError):
    """jiang does not take the position (say, a king is missing); the engine is fine."""


class Engine:
    """One jiang process over UCI, read with timeouts (select on the pipe)."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.pending = b""
        try:
            self.send("uci")
            options = self.read_until("uciok", HANDSHAKE_TIMEOUT_S)
            if not any(l.startswith("option name UCI_Variant") and " var fairychess" in l for l in options):
                raise EngineError(f"{path} does not play fairychess (UCI_Variant)")
            self.send("setoption name UCI_Variant value fairychess")
            self.send("isready")
            self.read_until("readyok", HANDSHAKE_TIMEOUT_S)
        except EngineError:
            self.proc.kill()
            self.proc.wait()
            self.proc.stdin.close()
            self.proc.stdout.close()
            raise

    def send(self, line):
        try:
            os.write(self.proc.stdin.fileno(), (line + "\n").encode())
        except OSError as e:
            raise EngineError(f"cannot write to jiang: {e}") from e

    def read_line(self, deadline):
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError("jiang did not answer in time")
            fd = self.proc.stdout.fileno()
            if select.select([fd], [], [], left)[0]:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise EngineError("jiang closed its output")
                self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode(errors="replace").strip()

    def read_until(self, prefix, timeout):
        deadline = time.monotonic() + timeout
        lines = [self.read_line(deadline)]
        while not lines[-1].startswith(prefix):
            lines.append(self.read_line(deadline))
        return lines

    def ask(self, fen, command, answer_prefix, timeout):
        """Sends the position and `command`; the lines up to the answer. Raises if
        jiang refuses the position."""
        self.send("stop")
        self.send("isready")
        self.read_until("readyok", HANDSHAKE_TIMEOUT_S)
        self.send(f"position fen {fen}")
        self.send(command)
        lines = self.read_until(answer_prefix, timeout)
        refused = [l for l in lines if l.startswith("info string position refused")]
        if refused:
            raise PositionRefused(refused[0])
        return lines[-1]

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=2)
            except (EngineError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.proc.stdin.close()
        self.proc.stdout.close()


_engine = None


def engine():
    """The engine, started on first use; None (said on stderr) if it cannot start."""
    global _engine
    if _engine is None:
        path = os.environ.get(ENGINE_ENV) or os.path.join(os.path.dirname(os.path.abspath(__file__)), "jiang")
        try:
            _engine = Engine(path)
            atexit.register(_engine.close)
        except (EngineError, OSError) as e:
            log(f"cannot start jiang ({path}): {e}")
    return _engine


def _drop_engine():
    global _engine
    if _engine is not None:
        _engine.proc.kill()
        _engine = None


# The fallback: the course's moves, for when jiang cannot answer.
KING_STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
KNIGHT_JUMPS = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
SQUIRE_JUMPS = [(2, 0), (-2, 0), (0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ROOK_LINES = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_LINES = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def python_legal_moves(gameboard, colour):
    at = {tuple(pos): piece_colour for _, piece_colour, pos in gameboard}
    moves = []
    for name, piece_colour, pos in gameboard:
        if piece_colour != colour:
            continue
        r, c = pos

        def free_or_enemy(t):
            return 0 <= t[0] < 8 and 0 <= t[1] < 8 and at.get(t) != colour

        if name in ("King", "Knight", "Squire"):
            jumps = {"King": KING_STEPS, "Knight": KNIGHT_JUMPS, "Squire": SQUIRE_JUMPS}[name]
            moves += [((r, c), t) for t in ((r + dr, c + dc) for dr, dc in jumps) if free_or_enemy(t)]
        elif name in ("Rook", "Bishop"):
            for dr, dc in ROOK_LINES if name == "Rook" else BISHOP_LINES:
                t = (r + dr, c + dc)
                while free_or_enemy(t):
                    moves.append(((r, c), t))
                    if t in at:
                        break
                    t = (t[0] + dr, t[1] + dc)
        elif name == "Combatant":
            for dr, dc in ROOK_LINES:
                t = (r + dr, c + dc)
                if 0 <= t[0] < 8 and 0 <= t[1] < 8 and t not in at:
                    moves.append(((r, c), t))
            for dr, dc in BISHOP_LINES:
                t = (r + dr, c + dc)
                if at.get(t) not in (None, colour):
                    moves.append(((r, c), t))
    return moves


def fallback_move(gameboard, colour):
    moves = python_legal_moves(gameboard, colour)
    kings = {tuple(pos) for name, piece_colour, pos in gameboard if name == "King" and piece_colour != colour}
    takes_king = [m for m in moves if m[1] in kings]
    move = takes_king[0] if takes_king else (random.choice(moves) if moves else None)
    log(f"playing {move_text(move) if move else 'nothing'} from the fallback generator")
    return move


def best_move(gameboard, colour="white"):
    """jiang's move for `colour`, or the fallback's."""
    fen = board_fen(gameboard, colour)
    movetime = int(os.environ.get(MOVETIME_ENV, DEFAULT_MOVETIME_MS))
    e = engine()
    if e is not None:
        try:
            answer = e.ask(fen, f"go movetime {movetime}", "bestmove", movetime / 1000 + BESTMOVE_GRACE_S)
            move = move_of(answer.split()[1]) if len(answer.split()) > 1 else None
            if move in python_legal_moves(gameboard, colour):
                return move
            log(f"jiang's answer '{answer}' is not a legal move in {fen}")
        except PositionRefused as err:
            log(f"{err}: {fen}")
        except EngineError as err:
            log(f"jiang failed ({err}) in {fen}")
            _drop_engine()
    return fallback_move(gameboard, colour)


def studentAgent(gameboard):
    """White's move in `gameboard`: ((r1, c1), (r2, c2))."""
    return best_move(gameboard, "white")


def get_legal_moves(gameboard, colour):
    """Every legal move of `colour`: a list of ((r1, c1), (r2, c2))."""
    e = engine()
    if e is not None:
        try:
            answer = e.ask(board_fen(gameboard, colour), "moves", "", HANDSHAKE_TIMEOUT_S)
            while " legal moves:" not in answer:
                answer = e.read_until("", HANDSHAKE_TIMEOUT_S)[-1]
            moves = [move_of(m) for m in answer.split(":", 1)[1].split()]
            # A finished game (only the kings left) has no moves for jiang; the course's
            # function still lists the pieces' moves.
            if moves:
                return moves
        except PositionRefused as err:
            log(f"{err}; listing the moves with the fallback generator")
        except EngineError as err:
            log(f"jiang failed ({err}); listing the moves with the fallback generator")
            _drop_engine()
    return python_legal_moves(gameboard, colour)


if __name__ == "__main__":  # a module for the course's harness, not a program
    print(__doc__)
