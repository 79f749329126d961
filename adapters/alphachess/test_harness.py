"""The AlphaChess adapter inside the real harness (LUNAA77/Alpha_Chess), fetched outside
the repository: $JIANG_HARNESSES/Alpha_Chess, or $ALPHACHESS_HARNESS. Skipped, saying
so, when it is absent.

It checks jiang's `Rules alphachess` against the harness's `get_legal_actions` at every
ply of a few random games, and plays a game against the harness's random player with
the harness's timeout on.
"""

import os
import random
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import player_jiang as pj  # noqa: E402
import validate_rules  # noqa: E402


def harness_dir():
    explicit = os.environ.get("ALPHACHESS_HARNESS")
    if explicit:
        return explicit
    root = os.environ.get("JIANG_HARNESSES")
    return os.path.join(root, "Alpha_Chess") if root else None


HARNESS = harness_dir()
ENGINE = os.environ.get("JIANG") or os.path.join(HERE, "..", "..", "target", "release", "jiang")


@unittest.skipUnless(
    HARNESS and os.path.isfile(os.path.join(HARNESS, "utils.py")),
    "AlphaChess harness absent: set JIANG_HARNESSES to a folder holding a checkout of "
    "LUNAA77/Alpha_Chess named Alpha_Chess (or ALPHACHESS_HARNESS to the checkout)",
)
class InTheHarness(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(ENGINE, os.X_OK):
            raise unittest.SkipTest(f"no jiang at {ENGINE}: build it (cargo build --release)")
        os.environ["JIANG"] = ENGINE
        sys.path.insert(0, os.path.abspath(HARNESS))
        sys.modules.pop("utils", None)

    def test_jiangs_moves_are_the_harness_legal_actions(self):
        import utils

        engine = pj.Engine(ENGINE)
        stats = {"plies": 0, "refusing positions": 0, "no move": 0, "120-ply draw": 0}
        failures = []
        rng = random.Random(15)
        for game in range(3):
            failures += validate_rules.play_one(utils, engine, rng, stats, game)
        engine.close()
        self.assertEqual(failures, [])
        self.assertGreater(stats["plies"], 100)

    def test_a_game_against_the_random_player_with_the_timeout_on(self):
        from headless_game import play_headless_game
        from player_1 import player_1

        os.environ[pj.MOVETIME_ENV] = "200"
        red, black = pj.Player("red"), player_1.Player("black")
        winner, text, history = play_headless_game(red, black, timeout=True)
        red.engine.close()
        self.assertNotIn("Red moves illegally", text)
        self.assertNotIn("Red timeout", text)
        self.assertIn(winner, ("red", "black", "draw"))
        self.assertGreater(len(history), 0)


if __name__ == "__main__":
    unittest.main()
