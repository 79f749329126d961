"""Tests of outside/run_agents.py's reading of the game master's output, of the
Diogenes shim's pincer rule, and of the player's answer when jiang is late (a stand-in
engine; no agent, harness or jiang needed)."""

import os
import stat
import sys
import tempfile
import time
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "outside"))
import run_agents  # noqa: E402

TIMEOUT = """Turn 6: Move is by WHITE
Time used in makeMove: 1.0012 seconds out of  1.0
Took too long.
We are now terminating the game.
Player 0 loses.
"""

ILLEGAL = """Turn 4: Move is by BLACK
WHITE's move: the P at (6, 6) to (5, 6).
Illegal move by WHITE
Game over.
Congratulations to the winner: BLACK
"""

KING = """Turn 29: Move is by WHITE
Win for WHITE
Game over.
Congratulations to the winner: WHITE
"""

STALEMATE = """Turn 70: Move is by BLACK
Stalemate: WHITE has no moves!
Game over.
The outcome is a DRAW.  Nobody wins.
"""


class Verdict(unittest.TestCase):
    def test_timeout_names_the_side_by_its_code(self):
        # Player 0 is Black in the course's codes.
        self.assertEqual(run_agents.verdict(TIMEOUT, "WHITE")[:6], (1.0, "BLACK took too long", 0, 0, 0, 1))
        self.assertEqual(run_agents.verdict(TIMEOUT, "BLACK")[:6], (0.0, "BLACK took too long", 0, 0, 1, 0))

    def test_illegal_move_counts_for_the_mover(self):
        score, why, ji, ai, jt, at, turns = run_agents.verdict(ILLEGAL, "BLACK")
        self.assertEqual((score, why, ji, ai, jt, at, turns), (1.0, "Illegal move by WHITE", 0, 1, 0, 0, 4))
        self.assertEqual(run_agents.verdict(ILLEGAL, "WHITE")[:4], (0.0, "Illegal move by WHITE", 1, 0))

    def test_king_capture_and_draw(self):
        self.assertEqual(run_agents.verdict(KING, "WHITE")[:2], (1.0, "Win for WHITE"))
        self.assertEqual(run_agents.verdict(KING, "BLACK")[0], 0.0)
        self.assertEqual(run_agents.verdict(STALEMATE, "BLACK")[:2], (0.5, "Stalemate: WHITE has no moves!"))

    def test_no_result_is_none(self):
        self.assertIsNone(run_agents.verdict("Turn 3: Move is by WHITE\n", "WHITE")[0])


class DiogenesPincer(unittest.TestCase):
    """The shim's course pincer rule on a stand-in of Diogenes's state interface."""

    @classmethod
    def setUpClass(cls):
        # The shim patches Diogenes's capture table and imports its player; stand-ins here.
        captures = types.ModuleType("Diogenes_BC_module_capture")
        captures.CAPTURES = {}
        player = types.ModuleType("Diogenes_BC_Player")
        for name in ("introduce", "makeMove", "nickname", "prepare"):
            setattr(player, name, lambda *a: None)
        sys.modules["Diogenes_BC_module_capture"] = captures
        sys.modules["Diogenes_BC_Player"] = player
        sys.path.insert(0, os.path.join(HERE, "outside", "shims"))
        import Diogenes_course_rules as shim
        cls.shim, cls.captures = shim, captures

    @classmethod
    def tearDownClass(cls):
        for name in ("Diogenes_BC_module_capture", "Diogenes_BC_Player", "Diogenes_course_rules"):
            sys.modules.pop(name, None)
        sys.path.remove(os.path.join(HERE, "outside", "shims"))

    def state(self, mine, theirs):
        s = types.SimpleNamespace()
        s.getPlayer = lambda: "me"
        s.getOpponent = lambda: "them"
        s.squareBelongsTo = lambda who, x, y: (x, y) in (mine if who == "me" else theirs)
        return s

    def test_table_is_patched(self):
        self.assertIs(self.captures.CAPTURES["PINCER"], self.shim.course_pincer)

    def test_orthogonal_pinch_with_any_partner(self):
        s = self.state(mine={(4, 6)}, theirs={(4, 5)})
        self.assertEqual(self.shim.course_pincer(s, (0, 4), (4, 4)), [[(4, 5)]])

    def test_no_diagonal_pinch(self):
        s = self.state(mine={(3, 4)}, theirs={(4, 5)})
        self.assertEqual(self.shim.course_pincer(s, (6, 6), (5, 6)), [[]])

    def test_no_pinch_after_a_diagonal_move(self):
        s = self.state(mine={(4, 6)}, theirs={(4, 5)})
        self.assertEqual(self.shim.course_pincer(s, (2, 2), (4, 4)), [[]])


# A UCI engine that never ends a search by itself: it answers `go` only on `stop`, the way
# a process that the machine's load keeps from running would answer late.
LATE_ENGINE = r"""#!/usr/bin/env python3
import sys
searching = False
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("option name UCI_Variant type combo default baroque var baroque")
        print("uciok")
    elif words[0] == "isready":
        print("readyok")
    elif words[0] == "go":
        searching = True
    elif words[0] == "stop" and searching:
        searching = False
        print("bestmove e1d2")
    elif words[0] == "d":
        print("FEN: fliwkilc/pppppppp/8/8/8/8/PPPPPPPP/FLIWKILC b - - 0 1")
    elif words[0] == "quit":
        break
    sys.stdout.flush()
"""


class LateEngine(unittest.TestCase):
    def test_stop_is_sent_in_time(self):
        sys.path.insert(0, HERE)
        import jiang_BC_Player as player
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "late-engine")
            with open(path, "w") as f:
                f.write(LATE_ENGINE)
            os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
            old = os.environ.get("JIANG")
            os.environ["JIANG"] = path
            try:
                player._engine = None
                player.prepare("a test")
                board = player.board_of_fen("fliwkilc/pppppppp/8/8/8/8/PPPPPPPP/FLIWKILC w - - 0 1")
                start = time.monotonic()
                (move, state), remark = player.makeMove(player._State(board, player.WHITE), "", 1.0)
                took = time.monotonic() - start
            finally:
                if player._engine is not None:
                    player._engine.close()
                player._engine = None
                if old is None:
                    del os.environ["JIANG"]
                else:
                    os.environ["JIANG"] = old
        # The engine's own move, got by `stop` at 80 % of the second, not the fallback's.
        self.assertEqual(move, ((7, 4), (6, 3)))
        self.assertEqual(remark, "e1d2, a test.")
        self.assertGreaterEqual(took, 0.75)
        self.assertLess(took, 0.95)


if __name__ == "__main__":
    unittest.main()
