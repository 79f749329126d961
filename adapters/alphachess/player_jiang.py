"""jiang as a player for the AlphaChess Xiangqi harness (SJTU CS3317, 2023).

Drop this file into the harness (see README.md beside it) and use ``Player("red")`` or
``Player("black")`` like any student player. It starts the ``jiang`` engine once (path from
the ``JIANG`` environment variable, else ``jiang`` next to this file), plays by the
harness's own rules (``setoption name Rules value alphachess``) and answers each
``policy(board)`` with ``go movetime`` (``JIANG_MOVETIME_MS``, default 6000 ms: the harness
allows 10 s plus 0.5 s, which leaves room for Python, forking and a loaded machine).

The harness runs ``policy`` in a child process per move when ``timeout=True``. Forked
children share the engine started in ``__init__`` through its pipes (each call first
resynchronises with ``isready``); where the child cannot reach it (the ``spawn`` start
method, or the engine died) the call starts its own engine, which ends with the child.

Every answer is checked against the harness's ``get_legal_actions`` when its ``utils``
module can be imported; if jiang fails, times out or proposes a move the harness would
refuse, the player says so on stderr and plays a legal move of the harness's list.
"""

import copy
import os
import random
import select
import subprocess
import sys
import time

ENGINE_ENV = "JIANG"
MOVETIME_ENV = "JIANG_MOVETIME_MS"
DEFAULT_MOVETIME_MS = 6000
# What one policy() call may take in all, the harness's 10.5 s less room for its fork and
# queue; the movetime is cut to fit it.
CALL_BUDGET_S = 9.0
# Extra wait for `bestmove` beyond the movetime before giving up on the engine.
BESTMOVE_GRACE_S = 1.5
HANDSHAKE_TIMEOUT_S = 3.0
SYNC_TIMEOUT_S = 1.5

FILES = "abcdefghi"
# The harness's piece ids (positive Red, negative Black) and jiang's FEN letters.
LETTERS = {1: "P", 2: "A", 3: "B", 4: "N", 5: "C", 6: "R", 7: "K"}
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def log(message):
    print(f"[player_jiang] {message}", file=sys.stderr, flush=True)


def other(side):
    return "black" if side == "red" else "red"


def iccs(action):
    """The harness action (old_x, old_y, new_x, new_y) as an ICCS move such as h2e2."""
    ox, oy, nx, ny = action[:4]
    return f"{FILES[oy]}{9 - ox}{FILES[ny]}{9 - nx}"


def action_of(move):
    """The ICCS move text as a harness action tuple, or None if it is not a move."""
    if len(move) != 4 or move[0] not in FILES or move[2] not in FILES:
        return None
    if not (move[1].isdigit() and move[3].isdigit()):
        return None
    return (9 - int(move[1]), FILES.index(move[0]), 9 - int(move[3]), FILES.index(move[2]))


def board_fen(board, side):
    """The FEN of a harness board (board[x][y], x = 0 on Black's back rank)."""
    ranks = []
    for x in range(10):
        text, empty = "", 0
        for y in range(9):
            piece = board[x][y]
            if piece == 0:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            letter = LETTERS[abs(piece)]
            text += letter if piece > 0 else letter.lower()
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks) + (" w" if side == "red" else " b") + " - - 0 1"


def initial_board(board, history):
    """The board before the first move of `history`, undoing it from `board`; None if
    the history does not fit the board (an entry moves from an occupied square, or
    from an empty one)."""
    start = [list(row) for row in board]
    for ox, oy, nx, ny, captured in reversed(history):
        if start[nx][ny] == 0 or start[ox][oy] != 0:
            return None
        start[ox][oy] = start[nx][ny]
        start[nx][ny] = captured
    return start


def position_command(board, side, history):
    """`position …` for jiang: the game's first position and every move since, so that
    the history rule and the 120-ply count see the harness's whole history."""
    start_side = side if len(history) % 2 == 0 else other(side)
    start = initial_board(board, history)
    if start is None:
        log("the history does not fit the board: sending the board alone")
        return f"position fen {board_fen(board, side)}"
    fen = board_fen(start, start_side)
    base = "position startpos" if fen == START_FEN else f"position fen {fen}"
    if not history:
        return base
    return base + " moves " + " ".join(iccs(h) for h in history)


class EngineError(Exception):
    pass


class Engine:
    """One jiang process over UCI, read with timeouts (POSIX select on the pipe) so that
    a hung or dead engine never blocks the harness."""

    def __init__(self, path, timeout=HANDSHAKE_TIMEOUT_S):
        self.path = path
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
        )
        self.owner = os.getpid()
        self.pending = b""
        try:
            self.send("uci")
            options = self.read_until("uciok", timeout)
            if not any(l.startswith("option name Rules") and " var alphachess" in l for l in options):
                raise EngineError(f"{path} has no 'Rules alphachess' option")
            self.send("setoption name Rules value alphachess")
            self.sync(timeout)
        except EngineError:
            self.kill()
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
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EngineError("jiang closed its output")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode(errors="replace").strip()

    def read_until(self, prefix, timeout):
        """Lines up to and including the first that starts with `prefix`."""
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            line = self.read_line(deadline)
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def sync(self, timeout=SYNC_TIMEOUT_S):
        """Stops a search a killed caller may have left running and drops its output."""
        self.pending = b""
        self.send("stop")
        self.send("isready")
        self.read_until("readyok", timeout)

    def best_move(self, position, movetime_ms):
        self.sync()
        self.send(position)
        self.send(f"go movetime {movetime_ms}")
        lines = self.read_until("bestmove", movetime_ms / 1000 + BESTMOVE_GRACE_S)
        refused = [l for l in lines if l.startswith("info string position refused")]
        if refused:
            raise EngineError(refused[0])
        return lines[-1].split()[1]

    def close(self):
        """Ends the process; only the process that started it does (forked children
        share it)."""
        if os.getpid() != self.owner:
            return
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.stdin.close()
                self.proc.wait(timeout=2)
            except (EngineError, OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.proc.stdin.close()
        self.proc.stdout.close()

    def kill(self):
        try:
            os.kill(self.proc.pid, 9)
        except OSError:
            pass
        if os.getpid() == self.owner:
            self.proc.wait()
            self.proc.stdin.close()
            self.proc.stdout.close()


def engine_path():
    path = os.environ.get(ENGINE_ENV)
    if path:
        return path
    here = os.path.dirname(os.path.abspath(__file__))
    name = "jiang.exe" if os.name == "nt" else "jiang"
    return os.path.join(here, name)


def harness_legal_actions(board, side, history):
    """The harness's own legal actions, or None when its utils module is not importable."""
    try:
        from utils import get_legal_actions
    except ImportError:
        return None
    return get_legal_actions(copy.deepcopy(board), side, copy.deepcopy(history))


class Player:
    """jiang as an AlphaChess player (the harness's Player interface)."""

    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "jiang"
        self.movetime_ms = int(os.environ.get(MOVETIME_ENV, DEFAULT_MOVETIME_MS))
        self.engine = None
        try:
            self.engine = Engine(engine_path())
        except (EngineError, OSError) as e:
            log(f"cannot start jiang ({engine_path()}): {e}; will retry per move")

    def __getstate__(self):
        # A spawned child gets no engine (a process handle cannot be pickled): it
        # starts its own.
        state = dict(self.__dict__)
        state["engine"] = None
        return state

    def __del__(self):
        if getattr(self, "engine", None) is not None:
            self.engine.close()

    def policy(self, board: tuple):
        position = position_command(board, self.side, self.history)
        move = self.ask_engine(position)
        action = action_of(move) if move else None
        legal = harness_legal_actions(board, self.side, self.history)
        if legal is None or action in legal:
            if action is None:
                log("no move from jiang and no harness to ask for one")
            return action
        if action is not None:
            log(f"jiang's {move} is not among the harness's legal actions: {position}")
        choice = random.choice(legal)
        log(f"playing the harness's legal {iccs(choice)} instead")
        return choice

    def ask_engine(self, position):
        """jiang's move for `position`, or None (said on stderr) if it failed: a second
        engine is tried if the first fails and time is left."""
        deadline = time.monotonic() + CALL_BUDGET_S
        for attempt in (1, 2):
            if self.engine is None:
                try:
                    self.engine = Engine(engine_path())
                except (EngineError, OSError) as e:
                    log(f"cannot start jiang ({engine_path()}): {e}")
                    return None
            left_ms = int((deadline - time.monotonic() - BESTMOVE_GRACE_S) * 1000)
            if left_ms < 100:
                break
            try:
                return self.engine.best_move(position, min(self.movetime_ms, left_ms))
            except (EngineError, OSError) as e:
                log(f"jiang failed ({e}), attempt {attempt}")
                self.engine.kill()
                self.engine = None
        return None

    # The harness template's helpers, unchanged in behaviour.
    def move(self, board, old_x, old_y, new_x, new_y):
        eaten_id = board[new_x][new_y]
        board[new_x][new_y] = board[old_x][old_y]
        board[old_x][old_y] = 0
        self.history.append((old_x, old_y, new_x, new_y, eaten_id))

    def move_back(self, board, old_x, old_y, new_x, new_y):
        board[old_x][old_y] = board[new_x][new_y]
        board[new_x][new_y] = self.history[-1][4]
        self.history.pop()

    def update_history(self, current_game_history: list):
        self.history = current_game_history

    def get_name(self):
        return self.name


if __name__ == "__main__":  # a module for the course's harness, not a program
    print(__doc__)
