"""Tests of the AlphaChess adapter that need no harness: the board and history
translation, and the player against a real jiang ($JIANG, else target/release/jiang),
including the harness's way of calling it in a forked child that may be killed.

    JIANG=target/release/jiang python3 -m unittest discover -s adapters/alphachess
"""

import io
import multiprocessing
import os
import sys
import types
import unittest
from contextlib import redirect_stderr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import player_jiang as pj  # noqa: E402

ENGINE = os.environ.get("JIANG") or os.path.join(HERE, "..", "..", "target", "release", "jiang")
os.environ["JIANG"] = ENGINE
os.environ[pj.MOVETIME_ENV] = "100"


def start_board():
    """The harness's initial board (utils.init_board), written out."""
    return [
        [-6, -4, -3, -2, -7, -2, -3, -4, -6],
        [0] * 9,
        [0, -5, 0, 0, 0, 0, 0, -5, 0],
        [-1, 0, -1, 0, -1, 0, -1, 0, -1],
        [0] * 9,
        [0] * 9,
        [1, 0, 1, 0, 1, 0, 1, 0, 1],
        [0, 5, 0, 0, 0, 0, 0, 5, 0],
        [0] * 9,
        [6, 4, 3, 2, 7, 2, 3, 4, 6],
    ]


LETTER_IDS = {"p": 1, "a": 2, "b": 3, "n": 4, "c": 5, "r": 6, "k": 7}


def board_of_fen(fen):
    board = []
    for rank in fen.split()[0].split("/"):
        row = []
        for ch in rank:
            if ch.isdigit():
                row += [0] * int(ch)
            else:
                piece = LETTER_IDS[ch.lower()]
                row.append(piece if ch.isupper() else -piece)
        board.append(row)
    return board


def play(board, moves):
    """Plays ICCS moves on a harness board; returns the harness history."""
    history = []
    for m in moves.split():
        ox, oy, nx, ny = pj.action_of(m)
        history.append((ox, oy, nx, ny, board[nx][ny]))
        board[nx][ny], board[ox][oy] = board[ox][oy], 0
    return history


def engine_moves(position):
    engine = pj.Engine(ENGINE)
    try:
        engine.send(position)
        engine.send("moves")
        line = engine.read_until("", 5)[0]
        while " legal moves:" not in line:
            line = engine.read_until("", 5)[0]
        return set(line.split(":", 1)[1].split())
    finally:
        engine.close()


def fake_utils(legal):
    """A stand-in for the harness's utils module whose get_legal_actions returns `legal`."""
    module = types.ModuleType("utils")
    module.get_legal_actions = lambda board, side, history: list(legal)
    return module


class Translation(unittest.TestCase):
    def test_iccs_matches_the_harness_coordinates(self):
        # docs/games.md (AlphaChess): h2e2 is (7, 7, 7, 4); file = "abcdefghi"[y], rank = 9 - x.
        self.assertEqual(pj.iccs((7, 7, 7, 4)), "h2e2")
        self.assertEqual(pj.action_of("h2e2"), (7, 7, 7, 4))
        self.assertEqual(pj.iccs((0, 0, 9, 8)), "a9i0")
        for text in ["a0a1", "i9i0", "e3e4", "b9c7"]:
            self.assertEqual(pj.iccs(pj.action_of(text)), text)
        for bad in ["", "(none)", "j0a1", "a0a", "a0aa"]:
            self.assertIsNone(pj.action_of(bad))

    def test_the_start_board_is_the_start_fen(self):
        self.assertEqual(pj.board_fen(start_board(), "red"), pj.START_FEN)
        self.assertEqual(pj.position_command(start_board(), "red", []), "position startpos")

    def test_the_history_is_replayed_from_the_start(self):
        board = start_board()
        history = play(board, "h2e2 h9g7 e2e6 c6c5 e6a6")  # e2e6, e6a6 capture
        self.assertEqual(history[2][4], -1)
        self.assertEqual(pj.initial_board(board, history), start_board())
        self.assertEqual(
            pj.position_command(board, "black", history),
            "position startpos moves h2e2 h9g7 e2e6 c6c5 e6a6",
        )

    def test_another_start_is_sent_as_a_fen_with_its_side(self):
        fen = "RR1k5/9/8b/9/2b6/9/9/5A3/8C/5K3 b - - 0 1"
        board = board_of_fen(fen)
        self.assertEqual(pj.board_fen(board, "black"), fen)
        history = play(board, "d9d8 b9d9 d8e8")
        self.assertEqual(
            pj.position_command(board, "red", history),
            f"position fen {fen} moves d9d8 b9d9 d8e8",
        )

    def test_a_history_that_does_not_fit_sends_the_board_alone(self):
        board = start_board()
        history = [(7, 7, 7, 4, 0)]  # claims h2e2, but the board is the start
        with redirect_stderr(io.StringIO()) as err:
            command = pj.position_command(board, "black", history)
        self.assertEqual(command, "position fen " + pj.board_fen(board, "black"))
        self.assertIn("does not fit", err.getvalue())


class WithEngine(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(ENGINE, os.X_OK):
            raise unittest.SkipTest(f"no jiang at {ENGINE}: build it (cargo build --release)")

    def setUp(self):
        sys.modules.pop("utils", None)

    def test_the_history_rule_reaches_the_engine(self):
        # docs/games.md (AlphaChess), 1st worked example: d7d8 refused after 7 plies, not 6.
        fen = "RR1k5/9/8b/9/2b6/9/9/5A3/8C/5K3 b - - 0 1"
        board = board_of_fen(fen)
        history = play(board, "d9d8 b9d9 d8e8 d9d8 e8e7 d8d7 e7e8")
        moves = engine_moves(pj.position_command(board, "red", history))
        self.assertNotIn("d7d8", moves)
        self.assertIn("d7d6", moves)
        short = board_of_fen("RR7/3k5/8b/9/2b6/9/9/5A3/8C/5K3 w - - 1 2")
        history = play(short, "b9d9 d8e8 d9d8 e8e7 d8d7 e7e8")
        self.assertIn("d7d8", engine_moves(pj.position_command(short, "red", history)))

    def test_the_player_answers_a_tuple_of_jiangs_legal_moves(self):
        for side, moves in [("red", ""), ("black", "h2e2"), ("red", "h2e2 h9g7")]:
            board = start_board()
            player = pj.Player(side)
            player.update_history(play(board, moves))
            action = player.policy(board)
            self.assertIsInstance(action, tuple)
            self.assertTrue(all(isinstance(v, int) for v in action))
            legal = engine_moves(pj.position_command(board, side, player.history))
            self.assertIn(pj.iccs(action), legal)
            player.engine.close()

    def test_forked_children_share_the_engine_and_survive_a_killed_one(self):
        if "fork" not in multiprocessing.get_all_start_methods():
            self.skipTest("no fork on this system")
        ctx = multiprocessing.get_context("fork")
        player = pj.Player("red")
        pid = player.engine.proc.pid
        player.movetime_ms = 2000
        # A child killed in mid-search, as the harness does at its timeout.
        child = ctx.Process(target=player.policy, args=(start_board(),))
        child.start()
        child.join(0.5)
        child.terminate()
        child.join()
        player.movetime_ms = 100
        queue = ctx.Queue()
        child = ctx.Process(target=lambda: queue.put(player.policy(start_board())))
        child.start()
        child.join(5)
        action = queue.get(timeout=1)
        self.assertIn(pj.iccs(action), engine_moves("position startpos"))
        self.assertIsNone(player.engine.proc.poll(), "the shared engine is still running")
        self.assertEqual(player.engine.proc.pid, pid)
        player.engine.close()
        self.assertIsNotNone(player.engine.proc.poll())

    def test_a_pickled_player_starts_its_own_engine(self):
        import pickle

        player = pj.Player("red")
        copy = pickle.loads(pickle.dumps(player))
        self.assertIsNone(copy.engine)
        action = copy.policy(start_board())
        self.assertIn(pj.iccs(action), engine_moves("position startpos"))
        self.assertNotEqual(copy.engine.proc.pid, player.engine.proc.pid)
        copy.engine.close()
        player.engine.close()

    def test_a_move_the_harness_refuses_is_replaced_by_one_of_its_list(self):
        sys.modules["utils"] = fake_utils([(6, 0, 5, 0)])  # only a3a4
        try:
            player = pj.Player("red")
            with redirect_stderr(io.StringIO()) as err:
                action = player.policy(start_board())
            player.engine.close()
        finally:
            sys.modules.pop("utils", None)
        self.assertEqual(action, (6, 0, 5, 0))
        self.assertIn("not among the harness's legal actions", err.getvalue())

    def test_without_an_engine_the_harness_list_is_used(self):
        saved = os.environ["JIANG"]
        os.environ["JIANG"] = os.path.join(HERE, "no-such-jiang")
        sys.modules["utils"] = fake_utils([(9, 1, 7, 2)])
        try:
            with redirect_stderr(io.StringIO()) as err:
                player = pj.Player("red")
                action = player.policy(start_board())
        finally:
            os.environ["JIANG"] = saved
            sys.modules.pop("utils", None)
        self.assertEqual(action, (9, 1, 7, 2))
        self.assertIn("cannot start jiang", err.getvalue())


if __name__ == "__main__":
    unittest.main()
