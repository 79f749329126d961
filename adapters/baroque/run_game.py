"""Plays jiang against a player of the CSE 473 Baroque Chess game master, in a copy of
the harness (HongjianYu/baroque-chess: BaroqueGameMaster_V02.py, BC_state_etc.py,
PlayerSkeletonA.py, …) fetched outside the repository.

    python3 adapters/baroque/run_game.py HARNESS_DIR WORK_DIR [--opponent PlayerSkeletonA]
        [--time 1.0] [--games 2]

WORK_DIR receives a copy of the harness with jiang_BC_Player.py beside the master and
BC_checker.py replaced by local_referee.py (the course's validator is a web service that
is not reachable from here; the stand-in validates every move, both players', with the
repository's independent Python referee, tools/baroque/referee.py, copied beside it). Games alternate
colours, jiang White first. Each game's master output is kept in WORK_DIR/game-N.txt; a
table of results is printed. The engine is $JIANG or target/release/jiang.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def prepare(harness, work):
    copy = os.path.join(work, "harness")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(harness, copy, ignore=shutil.ignore_patterns(".git", "__pycache__"))
    shutil.copy(os.path.join(HERE, "jiang_BC_Player.py"), copy)
    shutil.copy(os.path.join(HERE, "local_referee.py"), os.path.join(copy, "BC_checker.py"))
    shutil.copy(os.path.join(HERE, "..", "..", "tools", "baroque", "referee.py"),
                os.path.join(copy, "baroque_referee.py"))
    return copy


def summary(output):
    """(winner line, turns, illegal-move report, slowest jiang move, jiang's moves)."""
    winner = re.findall(r"(Congratulations to the winner: \w+|The outcome is a DRAW.*|Stalemate.*|"
                        r"Took too long.*|No move returned by \w+)", output)
    turns = re.findall(r"Turn (\d+): Move is by", output)
    illegal = re.findall(r"Illegal move by (\w+)", output)
    return winner, int(turns[-1]) if turns else 0, illegal


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("harness")
    parser.add_argument("work")
    parser.add_argument("--opponent", default="PlayerSkeletonA")
    parser.add_argument("--time", default="1.0", help="the master's time per move, seconds")
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    copy = prepare(os.path.abspath(args.harness), os.path.abspath(args.work))
    env = dict(os.environ)
    env.setdefault("JIANG", os.path.abspath(os.path.join(HERE, "..", "..", "target", "release", "jiang")))
    print(f"jiang {env['JIANG']}, {args.time} s per move, opponent {args.opponent}")
    print("| game | White | Black | result | turns | illegal moves | jiang's slowest move (s) |")
    print("|---|---|---|---|---|---|---|")
    bad = 0
    for game in range(args.games):
        players = ["jiang_BC_Player", args.opponent] if game % 2 == 0 else [args.opponent, "jiang_BC_Player"]
        start = time.monotonic()
        run = subprocess.run([sys.executable, "BaroqueGameMaster_V02.py", *players, args.time], cwd=copy,
                             env=env, capture_output=True, text=True, timeout=4 * 3600)
        with open(os.path.join(args.work, f"game-{game + 1}.txt"), "w") as f:
            f.write(run.stdout + "\n--- stderr\n" + run.stderr)
        winner, turns, illegal = summary(run.stdout)
        side = "WHITE" if game % 2 == 0 else "BLACK"
        # The master prints the time of every makeMove, White's first.
        used = [float(x) for x in re.findall(r"Time used in makeMove: ([\d.]+)", run.stdout)]
        jiang_times = used[0::2] if side == "WHITE" else used[1::2]
        slowest = max(jiang_times) if jiang_times else 0.0
        bad += bool(illegal) or "Took too long" in " ".join(winner) or "[jiang_BC_Player]" in run.stderr
        print(f"| {game + 1} | {players[0]} | {players[1]} | {'; '.join(winner) or run.stderr[-200:]} | {turns} "
              f"| {', '.join(illegal) or 0} | {slowest:.2f} |", flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
