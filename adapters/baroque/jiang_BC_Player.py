"""jiang as a Baroque Chess player for the UW CSE 473 game master (BaroqueGameMaster).

Put this file beside the game master and name it on its command line:
``python3 BaroqueGameMaster_V02.py jiang_BC_Player PlayerSkeletonA 1.0``. It implements the
course's player API (``makeMove``, ``nickname``, ``introduce``, ``prepare``) with the
``jiang`` engine (``UCI_Variant baroque``), started by ``prepare`` (path from the ``JIANG``
environment variable, else ``jiang`` next to this file).

``makeMove(currentState, currentRemark, timelimit)`` returns ``[[move, newState], remark]``:
``move`` is ``((from_row, from_col), (to_row, to_col))`` with row 0 = rank 8 and column 0 =
file a, and ``newState`` is the position after it (captures made, the other side to move),
as jiang computes it. jiang searches ``JIANG_MOVETIME_MS`` if set, else ``timelimit``
less 300 ms, cut to 70% of ``timelimit`` at most so that the answer is back in time. The
game master's clock is wall time from the call: on a loaded machine jiang's answer can come
late, so if no ``bestmove`` has come at 80% of ``timelimit`` the player sends ``stop`` (jiang
answers at once with the best move found so far) and gives up waiting at 90%.

If jiang is missing, fails or is late, the player says so on stderr and makes a move that
captures nothing (a king step or a freezer slide to an empty square, when the piece is not
frozen), so that its new state is certain without a rule engine.
"""

import os
import select
import subprocess
import sys
import time

ENGINE_ENV = "JIANG"
MOVETIME_ENV = "JIANG_MOVETIME_MS"
HANDSHAKE_TIMEOUT_S = 5.0
ANSWER_GRACE_S = 0.2
# Fractions of the master's time limit, counted from the call of makeMove: when to send
# `stop` if jiang has not answered, and when to stop waiting for the move and the state.
STOP_AT = 0.8
GIVE_UP_AT = 0.9
NO_MOVES = "I believe I have no legal moves."

BLACK, WHITE = 0, 1
# The course's piece codes (BC_state_etc): Black even, White odd, 0 empty.
CODE_TO_LETTER = {2: "p", 3: "P", 4: "c", 5: "C", 6: "l", 7: "L", 8: "i", 9: "I",
                  10: "w", 11: "W", 12: "k", 13: "K", 14: "f", 15: "F"}
LETTER_TO_CODE = {v: k for k, v in CODE_TO_LETTER.items()}
KING_CODES = {12, 13}
FREEZER_CODES = {14, 15}
IMITATOR_CODES = {8, 9}


def log(message):
    print(f"[jiang_BC_Player] {message}", file=sys.stderr, flush=True)


def square(row, col):
    return "abcdefgh"[col] + str(8 - row)


def coordinates(name):
    return (8 - int(name[1]), "abcdefgh".index(name[0]))


def move_tuple(text):
    """jiang's move (e.g. d2d5, or d4d2c with an imitator's suffix) as the course's
    ((from_row, from_col), (to_row, to_col))."""
    return (coordinates(text[0:2]), coordinates(text[2:4]))


def board_fen(board, whose_move, fullmove=1):
    ranks = []
    for row in board:
        text, empty = "", 0
        for code in row:
            if code == 0:
                empty += 1
                continue
            text += (str(empty) if empty else "") + CODE_TO_LETTER[code]
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    side = "w" if whose_move == WHITE else "b"
    return f"{'/'.join(ranks)} {side} - - 0 {fullmove}"


def board_of_fen(fen):
    board = []
    for rank in fen.split()[0].split("/"):
        row = []
        for ch in rank:
            row += [0] * int(ch) if ch.isdigit() else [LETTER_TO_CODE[ch]]
        board.append(row)
    if len(board) != 8 or any(len(row) != 8 for row in board):
        raise ValueError(f"not an 8x8 board: {fen}")
    return board


def new_state(board, whose_move):
    """A state of the harness's class (BC_state_etc.BC_state) when it is importable."""
    try:
        import BC_state_etc as BC
    except ImportError:
        return _State(board, whose_move)
    return BC.BC_state(board, whose_move)


class _State:
    def __init__(self, board, whose_move):
        self.board = [list(row) for row in board]
        self.whose_move = whose_move


class EngineError(Exception):
    pass


class Engine:
    """One jiang process over UCI, read with timeouts (select on the pipe)."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.pending = b""
        try:
            self.send("uci")
            options = self.read_until("uciok", HANDSHAKE_TIMEOUT_S)
            if not any(l.startswith("option name UCI_Variant") and " var baroque" in l for l in options):
                raise EngineError(f"{path} does not play baroque (UCI_Variant)")
            self.send("setoption name UCI_Variant value baroque")
            self.sync(HANDSHAKE_TIMEOUT_S)
        except EngineError:
            self.proc.kill()
            self.proc.wait()
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

    def sync(self, timeout=1.0):
        self.send("stop")
        self.send("isready")
        self.read_until("readyok", timeout)

    def position(self, fen, moves=""):
        self.send(f"position fen {fen}" + (f" moves {moves}" if moves else ""))

    def check_refusal(self, lines):
        refused = [l for l in lines if l.startswith("info string position refused")]
        if refused:
            raise EngineError(refused[0])

    def best_move(self, fen, movetime_ms, stop_at=None, give_up_at=None):
        """jiang's move after `go movetime`; if none has come by the monotonic time
        STOP_AT, `stop` is sent and the answer awaited until GIVE_UP_AT."""
        self.sync()
        self.position(fen)
        self.send(f"go movetime {movetime_ms}")
        deadline = time.monotonic() + movetime_ms / 1000 + ANSWER_GRACE_S
        if stop_at is not None:
            deadline = min(deadline, stop_at)
        lines = []
        try:
            lines.append(self.read_line(deadline))
            while not lines[-1].startswith("bestmove"):
                lines.append(self.read_line(deadline))
        except EngineError as late:
            if give_up_at is None or "in time" not in str(late):
                raise
            self.send("stop")
            lines.append(self.read_line(give_up_at))
            while not lines[-1].startswith("bestmove"):
                lines.append(self.read_line(give_up_at))
            log(f"jiang answered only after stop ({movetime_ms} ms asked)")
        self.check_refusal(lines)
        return lines[-1].split()[1] if len(lines[-1].split()) > 1 else "(none)"

    def fen_after(self, fen, move, give_up_at=None):
        """The FEN after `move` (jiang's `d` command prints it)."""
        self.position(fen, move)
        self.send("d")
        timeout = 1.0 if give_up_at is None else max(0.0, give_up_at - time.monotonic())
        lines = self.read_until("FEN:", timeout)
        self.check_refusal(lines)
        return lines[-1].split(":", 1)[1].strip()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=2)
            except (EngineError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


_engine = None
_moves_made = {WHITE: 0, BLACK: 0}
_opponent = "my opponent"


def engine():
    global _engine
    if _engine is None:
        path = os.environ.get(ENGINE_ENV) or os.path.join(os.path.dirname(os.path.abspath(__file__)), "jiang")
        try:
            _engine = Engine(path)
        except (EngineError, OSError) as e:
            log(f"cannot start jiang ({path}): {e}")
    return _engine


def nickname():
    return "jiang"


def introduce():
    return "I am jiang, a game engine written in Rust, here to play Baroque chess by its UW rule book."


def prepare(player2Nickname):
    global _opponent
    _opponent = player2Nickname
    _moves_made[WHITE] = _moves_made[BLACK] = 0
    engine()
    return "OK"


def movetime_ms(timelimit):
    budget = int(timelimit * 1000)
    chosen = int(os.environ.get(MOVETIME_ENV, budget - 300))
    return max(20, min(chosen, int(budget * 0.7)))


def makeMove(currentState, currentRemark, timelimit=1.0):
    global _engine
    called = time.monotonic()
    side = currentState.whose_move
    # The game's plies so far, for the 5000-ply limit: this side's moves made before.
    fen = board_fen(currentState.board, side, _moves_made[side] + 1)
    _moves_made[side] += 1
    e = engine()
    if e is not None:
        try:
            give_up_at = called + GIVE_UP_AT * timelimit
            move = e.best_move(fen, movetime_ms(timelimit), called + STOP_AT * timelimit, give_up_at)
            if move == "(none)":
                return [[((0, 0), (0, 0)), currentState], NO_MOVES]
            after = e.fen_after(fen, move, give_up_at)
            state = new_state(board_of_fen(after), 1 - side)
            return [[move_tuple(move), state], f"{move}, {_opponent}."]
        except (EngineError, ValueError) as err:
            log(f"jiang failed ({err}) in {fen}")
            _engine.proc.kill()
            _engine = None
    return fallback(currentState)


def fallback(state):
    """A move that captures nothing: a king step, else a freezer slide, to an empty
    square, by a piece no enemy freezer (or, for a freezer, enemy imitator) touches."""
    side = state.whose_move
    board = state.board

    def inside(r, c):
        return 0 <= r < 8 and 0 <= c < 8

    def touched_by(r, c, codes):
        return any(inside(r + dr, c + dc) and board[r + dr][c + dc] in codes and board[r + dr][c + dc] % 2 != side
                   for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)

    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
    for r in range(8):
        for c in range(8):
            code = board[r][c]
            if code == 0 or code % 2 != side:
                continue
            if code in KING_CODES and not touched_by(r, c, FREEZER_CODES):
                targets = [(r + dr, c + dc) for dr, dc in steps]
            elif code in FREEZER_CODES and not touched_by(r, c, FREEZER_CODES | IMITATOR_CODES):
                targets = [(r + dr, c + dc) for dr, dc in steps]
            else:
                continue
            for tr, tc in targets:
                if inside(tr, tc) and board[tr][tc] == 0:
                    after = [list(row) for row in board]
                    after[tr][tc], after[r][c] = code, 0
                    log(f"playing {square(r, c)}{square(tr, tc)}, a move that captures nothing")
                    return [[((r, c), (tr, tc)), new_state(after, 1 - side)], "jiang is not answering."]
    log("no safe move found without jiang")
    return [[((0, 0), (0, 0)), state], NO_MOVES]


if __name__ == "__main__":  # a module for the course's harness, not a program
    print(__doc__)
