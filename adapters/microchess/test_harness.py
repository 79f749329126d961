"""TeamJiang inside the real CO 456 Tournament (zoetian/CO456), fetched outside the
repository: $JIANG_HARNESSES/CO456, or $MICROCHESS_HARNESS. Skipped, saying so, when it
is absent (or java is). A short tournament (one board pair per series) against Monkey
and Nihilist: it must finish with no fallback move and no time-limit violation.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.environ.get("JIANG") or os.path.join(HERE, "..", "..", "target", "release", "jiang")


def harness_dir():
    explicit = os.environ.get("MICROCHESS_HARNESS")
    if explicit:
        return explicit
    root = os.environ.get("JIANG_HARNESSES")
    return os.path.join(root, "CO456") if root else None


HARNESS = harness_dir()


@unittest.skipUnless(
    HARNESS and os.path.isfile(os.path.join(HARNESS, "Tournament.java")),
    "CO 456 harness absent: set JIANG_HARNESSES to a folder holding a checkout of "
    "zoetian/CO456 named CO456 (or MICROCHESS_HARNESS to the checkout)",
)
@unittest.skipUnless(shutil.which("javac") and shutil.which("java"), "no javac/java")
class InTheTournament(unittest.TestCase):
    def test_a_short_tournament_against_monkey_and_nihilist(self):
        with tempfile.TemporaryDirectory() as work:
            run = subprocess.run(
                [sys.executable, os.path.join(HERE, "run_tournament.py"), HARNESS, work,
                 "--boards", "1", "--players", "TeamMonkey,TeamNihilist"],
                env=dict(os.environ, JIANG=ENGINE), capture_output=True, text=True, timeout=300,
            )
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("| TeamMonkey |", run.stdout)
        self.assertIn("| TeamNihilist |", run.stdout)
        self.assertIn("TeamJiang fallbacks 0, time-limit violations 0", run.stdout)


if __name__ == "__main__":
    unittest.main()
