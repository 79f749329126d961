"""Plays AgentJiang inside the reference ThreeChess harness (drtnf/threeChess), fetched
outside the repository, against the harness's RandomAgent and a GreedyAgent written for
the test (adapters/threechess/test/).

    python3 adapters/threechess/run_games.py HARNESS_DIR WORK_DIR [--games 3] [--seconds 300]
        [--tournament]

HARNESS_DIR is the checkout (it holds src/threeChess/Board.java). The harness's sources,
AgentJiang.java and the test files are compiled together in WORK_DIR; the games are
played by the harness's own ThreeChess.play (its rules, its whole-game clock). The engine
is $JIANG or target/release/jiang. With --tournament, the harness's own
ThreeChess.tournament runs instead with jiang, RandomAgent and GreedyAgent (one game, colours
drawn by the harness), printing its game log and table.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("harness")
    parser.add_argument("work")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=300)
    parser.add_argument("--tournament", action="store_true")
    args = parser.parse_args()
    src = os.path.join(args.work, "src")
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(os.path.join(args.harness, "src"), src)
    agents = os.path.join(src, "threeChess", "agents")
    for f in [os.path.join(HERE, "AgentJiang.java")] + glob.glob(os.path.join(HERE, "test", "*.java")):
        shutil.copy(f, agents)
    classes = os.path.join(args.work, "classes")
    os.makedirs(classes, exist_ok=True)
    sources = glob.glob(os.path.join(src, "threeChess", "*.java")) + glob.glob(os.path.join(agents, "*.java"))
    subprocess.run(["javac", "-nowarn", "-d", classes] + sources, check=True)
    engine = os.environ.get("JIANG") or os.path.join(HERE, "..", "..", "target", "release", "jiang")
    first = "tournament" if args.tournament else str(args.games)
    run = subprocess.run(
        ["java", "-Djava.awt.headless=true", "-cp", classes, "threeChess.agents.PlayGames",
         first, str(args.seconds)],
        env=dict(os.environ, JIANG=os.path.abspath(engine)), text=True, capture_output=True)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
