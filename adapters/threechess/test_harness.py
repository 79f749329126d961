"""AgentJiang inside the reference ThreeChess harness (drtnf/threeChess), fetched outside
the repository: $JIANG_HARNESSES/threeChess, or $THREECHESS_HARNESS. Skipped, saying so,
when it is absent, java is missing or jiang does not play threechess. One game on the
harness's 300 s whole-game clock against RandomAgent and GreedyAgent: it must end with a
king captured (the harness scores +1/0/-1; an illegal move would score -2) and jiang
must not run out of time.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.environ.get("JIANG") or os.path.join(HERE, "..", "..", "target", "release", "jiang")


def harness_dir():
    explicit = os.environ.get("THREECHESS_HARNESS")
    if explicit:
        return explicit
    root = os.environ.get("JIANG_HARNESSES")
    return os.path.join(root, "threeChess") if root else None


HARNESS = harness_dir()


def plays_threechess():
    try:
        out = subprocess.run([ENGINE], input="uci\nquit\n", capture_output=True, text=True, timeout=10)
    except OSError:
        return False
    return " var threechess" in out.stdout


@unittest.skipUnless(
    HARNESS and os.path.isfile(os.path.join(HARNESS, "src", "threeChess", "Board.java")),
    "ThreeChess harness absent: set JIANG_HARNESSES to a folder holding a checkout of "
    "drtnf/threeChess named threeChess (or THREECHESS_HARNESS to the checkout)",
)
@unittest.skipUnless(shutil.which("javac") and shutil.which("java"), "no javac/java")
class InTheHarness(unittest.TestCase):
    def test_a_game_with_random_and_greedy(self):
        if not plays_threechess():
            self.skipTest("jiang does not play threechess (not built, or a jiang before it)")
        with tempfile.TemporaryDirectory() as work:
            run = subprocess.run(
                [sys.executable, os.path.join(HERE, "run_games.py"), HARNESS, work, "--games", "1"],
                env=dict(os.environ, JIANG=ENGINE), capture_output=True, text=True, timeout=400)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        game = re.search(r"scores blue (-?\d+) green (-?\d+) red (-?\d+), jiang ([+-]\d+)", run.stdout)
        self.assertIsNotNone(game, run.stdout)
        scores = sorted(int(game.group(i)) for i in (1, 2, 3))
        self.assertEqual(scores, [-1, 0, 1], "a king capture ends the game: " + run.stdout)
        self.assertNotIn("fallback", run.stderr, run.stderr)
        used = float(re.search(r"most clock jiang used ([\d.]+) s", run.stdout).group(1))
        self.assertLess(used, 300.0, run.stdout)


if __name__ == "__main__":
    unittest.main()
