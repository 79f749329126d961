"""jiang_BC_Player inside the CSE 473 Baroque game master (HongjianYu/baroque-chess),
fetched outside the repository: $JIANG_HARNESSES/baroque-chess, or $BAROQUE_HARNESS.
Skipped, saying so, when it is absent or jiang does not play baroque. One game against
the course's PlayerSkeletonA at 1 s a move: it must end with a winner or a draw the master
announces, with no illegal move.
"""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.environ.get("JIANG") or os.path.join(HERE, "..", "..", "target", "release", "jiang")


def harness_dir():
    explicit = os.environ.get("BAROQUE_HARNESS")
    if explicit:
        return explicit
    root = os.environ.get("JIANG_HARNESSES")
    return os.path.join(root, "baroque-chess") if root else None


HARNESS = harness_dir()


def plays_baroque():
    try:
        out = subprocess.run([ENGINE], input="uci\nquit\n", capture_output=True, text=True, timeout=10)
    except OSError:
        return False
    return " var baroque" in out.stdout


@unittest.skipUnless(
    HARNESS and os.path.isfile(os.path.join(HARNESS, "BaroqueGameMaster_V02.py")),
    "Baroque game master absent: set JIANG_HARNESSES to a folder holding a checkout of "
    "HongjianYu/baroque-chess named baroque-chess (or BAROQUE_HARNESS to the checkout)",
)
class WithTheGameMaster(unittest.TestCase):
    def test_a_game_against_the_skeleton_player(self):
        if not plays_baroque():
            self.skipTest("jiang does not play baroque (not built, or a jiang before it)")
        with tempfile.TemporaryDirectory() as work:
            run = subprocess.run(
                [sys.executable, os.path.join(HERE, "run_game.py"), HARNESS, work,
                 "--opponent", "PlayerSkeletonA", "--time", "1.0", "--games", "1"],
                env=dict(os.environ, JIANG=ENGINE), capture_output=True, text=True, timeout=600)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        rows = [line for line in run.stdout.splitlines() if line.startswith("| 1 |")]
        self.assertEqual(len(rows), 1, run.stdout)
        cells = [c.strip() for c in rows[0].strip("|").split("|")]
        self.assertTrue(cells[3].startswith(("Congratulations", "The outcome is a DRAW")), rows[0])
        self.assertEqual(cells[5], "0", "illegal moves: " + rows[0])


if __name__ == "__main__":
    unittest.main()
