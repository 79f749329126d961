"""AB.py on the course's public test cases (awpbash/CS3243, Projects/Project 3), fetched
outside the repository: $JIANG_HARNESSES/CS3243, or $CS3243_HARNESS (the repository's
root). Skipped, saying so, when they are absent or jiang does not play fairychess.
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_public_tests  # noqa: E402
from test_ab import plays_fairychess  # noqa: E402


def project_dir():
    root = os.environ.get("CS3243_HARNESS") or (
        os.path.join(os.environ["JIANG_HARNESSES"], "CS3243") if os.environ.get("JIANG_HARNESSES") else None)
    return os.path.join(root, "Projects", "Project 3") if root else None


PROJECT = project_dir()


@unittest.skipUnless(
    PROJECT and os.path.isfile(os.path.join(PROJECT, "Project3_PublicTestCases.py")),
    "CS3243 public test cases absent: set JIANG_HARNESSES to a folder holding a checkout of "
    "awpbash/CS3243 named CS3243 (or CS3243_HARNESS to the checkout)",
)
class PublicTestCases(unittest.TestCase):
    def test_every_public_case_passes(self):
        if not plays_fairychess():
            self.skipTest("jiang does not play fairychess (not built, or a jiang before it)")
        rows, failures = run_public_tests.run(PROJECT)
        self.assertEqual(len(rows), 9)
        self.assertEqual(failures, 0, rows)


if __name__ == "__main__":
    unittest.main()
