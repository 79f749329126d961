#!/usr/bin/env python3
"""Tests of the cluster jobs on a local cluster of 2 workers, with small shards and a short
match (under two minutes on 2 cores). Run from anywhere, after `cargo build --release
--workspace` and `pip install -r tools/cluster/requirements.txt`:

    python3 -m unittest tools/cluster/test_cluster.py -v     (or: python3 tools/cluster/test_cluster.py)

The match test plays a 6-game match on the cluster and the same games with `jiang-lab match`
on this machine, and compares them move for move. Without the release build of jiang and
jiang-lab these tests fail (they are not skipped).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
LAB = os.path.join(REPO, "target", "release", "jiang-lab")
JIANG = os.path.join(REPO, "target", "release", "jiang")
OPENINGS = os.path.join(REPO, "tools", "match", "openings.epd")
sys.path.insert(0, HERE)

SHARD_GAMES, NODES, SEED, SHARDS = 1, 600, 11, 6


def sequential(seeds):
    out = b""
    for s in seeds:
        out += subprocess.run(
            [LAB, "datagen", str(SHARD_GAMES), "--nodes", str(NODES), "--seed", str(s), "--eval", "nnue"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            check=True,
        ).stdout
    return out


def datagen(out, games=SHARDS * SHARD_GAMES, extra=()):
    cmd = [sys.executable, os.path.join(HERE, "datagen.py"), "--games", str(games), "--shard-games",
           str(SHARD_GAMES), "--nodes", str(NODES), "--seed", str(SEED), "--out", out, "--workers", "2",
           *extra]
    return subprocess.run(cmd, stderr=subprocess.PIPE, text=True)


def read(path):
    with open(path, "rb") as f:
        return f.read()


@unittest.skipUnless(os.path.exists(LAB), f"{LAB} missing: cargo build --release --workspace first")
class Datagen(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="jiang-cluster-test-")
        cls.reference = sequential(range(SEED, SEED + SHARDS))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_cluster_equals_sequential_and_resume_skips_finished_shards(self):
        out = os.path.join(self.tmp, "run")
        r = datagen(out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(self.reference)
        self.assertEqual(read(os.path.join(out, "data.txt")), self.reference)
        for s in range(SEED, SEED + SHARDS):
            self.assertTrue(os.path.exists(os.path.join(out, f"shard-{s}.txt")))
        self.assertIn("0 shards already", r.stderr)

        # Resume: one shard gone (rerun), one shard marked (kept as it is, not run again).
        os.remove(os.path.join(out, f"shard-{SEED + 2}.txt"))
        marked = os.path.join(out, f"shard-{SEED + 4}.txt")
        original = read(marked)
        with open(marked, "wb") as f:
            f.write(b"marker line: a finished shard is never run again\n")
        r = datagen(out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"{SHARDS - 1} shards already", r.stderr)
        merged = read(os.path.join(out, "data.txt"))
        self.assertIn(b"marker line", merged)
        self.assertEqual(merged.replace(b"marker line: a finished shard is never run again\n", original),
                         self.reference)

        # Other settings into the same folder are refused (its shards would not belong together).
        r = datagen(out, extra=("--datagen-args", "--hash 8"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("other settings", r.stderr)

    def test_positions_total_takes_the_first_seeds(self):
        out = os.path.join(self.tmp, "positions")
        want = len(self.reference.splitlines()) - 1  # needs every one of the SHARDS seeds
        cmd = [sys.executable, os.path.join(HERE, "datagen.py"), "--positions", str(want), "--shard-games",
               str(SHARD_GAMES), "--nodes", str(NODES), "--seed", str(SEED), "--out", out, "--workers", "2"]
        r = subprocess.run(cmd, stderr=subprocess.PIPE, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        merged = read(os.path.join(out, "data.txt"))
        # The smallest prefix of seeds holding `want` positions: the reference itself, unless
        # its last shard is not needed.
        prefix, k = b"", 0
        while len(prefix.splitlines()) < want:
            prefix += sequential([SEED + k])
            k += 1
        self.assertEqual(merged, prefix)


class Statistics(unittest.TestCase):
    def test_elo_and_sprt(self):
        import match

        elo, lo, hi = match.elo_interval(60, 20, 20)
        self.assertAlmostEqual(elo, 147.19, places=1)  # score 0.7
        self.assertLess(lo, elo)
        self.assertGreater(hi, elo)
        self.assertEqual(match.elo_interval(10, 0, 10)[0], 0.0)
        self.assertIsNone(match.sprt_llr(5, 0, 3, 0, 10))  # no draw yet: no decision
        self.assertGreater(match.sprt_llr(300, 100, 100, 0, 10), 2.94)  # clearly stronger: H1
        self.assertLess(match.sprt_llr(100, 100, 300, 0, 10), -2.94)


class Match(unittest.TestCase):
    def test_same_games_as_one_machine(self):
        for path in (JIANG, LAB):
            self.assertTrue(os.path.exists(path), f"{path} missing: cargo build --release --workspace first")
        tmp = tempfile.mkdtemp(prefix="jiang-cluster-match-")
        try:
            ours, theirs = os.path.join(tmp, "ours.json"), os.path.join(tmp, "one.json")
            eng = [["name=nnue", f"cmd={JIANG}"], ["name=hce", f"cmd={JIANG}", "option.UseNNUE=false"]]
            cmd = [sys.executable, os.path.join(HERE, "match.py"), "--games", "6", "--nodes", "600",
                   "--opening-offset", "20", "--workers", "2", "--json", ours]
            for e in eng:
                cmd += ["--engine", *e]
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("Result for A: W", r.stdout)
            self.assertIn("shipping", r.stderr)  # jiang-lab and the engine travel to the workers
            cmd = [LAB, "match", "--games", "6", "--nodes", "600", "--openings", OPENINGS,
                   "--opening-offset", "20", "--quiet", "--json", theirs]
            for e in eng:
                cmd += ["--engine", *e, "restart=on"]
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            with open(ours) as f:
                a = json.load(f)
            with open(theirs) as f:
                b = json.load(f)
            self.assertEqual(a["result_A"], b["result_A"])
            self.assertEqual(len(a["game_list"]), 6)
            for ga, gb in zip(a["game_list"], b["game_list"]):
                self.assertEqual((ga["game"], ga["red"], ga["result"], ga["plies"]),
                                 (gb["game"], gb["red"], gb["result"], gb["plies"]))
                self.assertEqual(ga["moves"], [m["move"] for m in gb["moves"]])
                self.assertTrue(ga["moves"], "games were played")
            for side in "AB":
                self.assertEqual(a["per_engine"][side]["illegal_moves"], 0)
            r = subprocess.run([sys.executable, os.path.join(HERE, "compare_match.py"), ours, theirs],
                               stdout=subprocess.PIPE, text=True)
            self.assertEqual(r.returncode, 0, r.stdout)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
