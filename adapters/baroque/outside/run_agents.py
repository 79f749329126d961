"""Plays jiang against Baroque Chess agents that students published for the UW CSE 415/473
assignment, in the course's game master (HongjianYu/baroque-chess), and prints per agent
W/D/L, illegal moves and timeouts.

    python3 adapters/baroque/outside/run_agents.py CACHE WORK [--agents Diogenes,DeepPurple]
        [--games 20] [--time 1.0] [--concurrency 1] [--list]

CACHE holds one checkout per repository, CACHE/OWNER+NAME (the harness and every agent's
repository); a missing one is cloned from GitHub at the commit pinned below (needs git and
network once). WORK receives, per agent, a copy of the harness with jiang's player
(jiang_BC_Player.py), the local referee in place of the course's web validator (see
adapters/baroque/README.md: run_game.py's preparation is reused) and the agent's own
Python files beside the master; the harness's BC_state_etc.py, winTester.py and master
win over the agent's copies, so the course's rules referee every game. Games alternate
colours, jiang White in odd games. Each game's master output is kept in
WORK/AGENT/game-N.txt (the harness copies in WORK/AGENT/copy-K/harness). The engine is $JIANG or target/release/jiang. Exit status 1 when
jiang made an illegal move, timed out or failed to answer.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import run_game  # noqa: E402  (adapters/baroque/run_game.py: harness copy with the local referee)

HARNESS = ("HongjianYu/baroque-chess", "76555d44bae5d055a990bc3a714405d961649368")
# The harness's own files: never taken from an agent's repository.
HARNESS_FILES = {"BC_state_etc.py", "BC_checker.py", "winTester.py", "PlayerSkeletonA.py",
                 "PlayerSkeletonB.py", "PlayerTest.py", "PlayerSkeletonA_OtherTeam.py"}

# name: (repository, commit, module the master loads, what to know about it). A module
# from shims/ (ours) is copied beside the agent's files; see README.md for why each exists.
AGENTS = {
    "Diogenes": ("sarthakturkhia/BaroqueChess", "b1f7e1932af1b6634eac0dbc257cd3305788706d",
                 "Diogenes_course_rules", "iterative-deepening alpha-beta; its pincer rule replaced by the course's"),
    "Diogenes-own-rules": ("sarthakturkhia/BaroqueChess", "b1f7e1932af1b6634eac0dbc257cd3305788706d",
                           "Diogenes_BC_Player", "as published: pinches diagonally too (illegal here)"),
    "Kasparov": ("sarthakturkhia/BaroqueChess", "b1f7e1932af1b6634eac0dbc257cd3305788706d",
                 "Kasparov_BC_Player", "alpha-beta"),
    "DeepPurple": ("har1kaush1k/A5BaroqueChess", "ddc839e88fce680e3a240448dd3490e909557924",
                   "DeepPurple_BC_Player", "alpha-beta with Zobrist hashing"),
    "Jungkook": ("har1kaush1k/A5BaroqueChess", "ddc839e88fce680e3a240448dd3490e909557924",
                 "Jungkook_BC_Player", "minimax"),
    "Pablo": ("har1kaush1k/A5BaroqueChess", "ddc839e88fce680e3a240448dd3490e909557924",
              "Pablo_BC_Player", ""),
    "PLACEHOLDER": ("uwn73d8g/BaroqueChessAgent", "dd80d18f5d1131cdc901f1904b828e61d0e1ea41",
                    "PLACEHOLDER_BC_Player", "alpha-beta with Zobrist hashing"),
    "Lowply": ("mmb1995/baroque_chess_player", "0de005ad85c9299822b23fb989da975e2f8ebff6",
               "Lowply_BC_player", ""),
    "BaroqueMemes": ("VidhyaR28/BaroqueChess", "ee7a28d2ad758cde46abb7be5ea71423247f46f5",
                     "BaroqueMemes_BC_Player", ""),
    "terminator": ("kuo22/baroque-chess-ai", "4927a5f8ed337423842f0725730173d023a97b9f",
                   "terminator_BC_Player", "alpha-beta with Zobrist hashing"),
}


def checkout(cache, repo, commit):
    """CACHE/OWNER+NAME, cloned at COMMIT when absent."""
    path = os.path.join(cache, repo.replace("/", "+"))
    if not os.path.isdir(path):
        os.makedirs(path)
        url = f"https://github.com/{repo}"
        for cmd in (["git", "init", "-q"], ["git", "fetch", "-q", "--depth", "1", url, commit],
                    ["git", "checkout", "-q", "FETCH_HEAD"]):
            if subprocess.run(cmd, cwd=path).returncode != 0:
                shutil.rmtree(path, ignore_errors=True)
                sys.exit(f"cannot fetch {url} at {commit}: {' '.join(cmd)} failed")
    return path


def prepare(cache, work, name):
    repo, commit, module, _ = AGENTS[name]
    harness = checkout(cache, *HARNESS)
    agent = checkout(cache, repo, commit)
    copy = run_game.prepare(harness, work)
    for entry in sorted(os.listdir(agent)):
        if entry.endswith(".py") and entry not in HARNESS_FILES and not entry.startswith("BaroqueGameMaster"):
            shutil.copy(os.path.join(agent, entry), copy)
    for entry in sorted(os.listdir(os.path.join(HERE, "shims"))):
        if entry.endswith(".py"):
            shutil.copy(os.path.join(HERE, "shims", entry), copy)
    if not os.path.exists(os.path.join(copy, module + ".py")):
        sys.exit(f"{name}: {module}.py is not in {agent}")
    return copy


def verdict(output, jiang_side):
    """(score for jiang 1/0.5/0, reason, jiang's illegal moves, agent's illegal moves,
    jiang timeouts, agent timeouts, turns)."""
    other = "BLACK" if jiang_side == "WHITE" else "WHITE"
    turns = re.findall(r"Turn (\d+): Move is by", output)
    turns = int(turns[-1]) if turns else 0
    illegal = re.findall(r"Illegal move by (WHITE|BLACK)", output)
    timeout = re.search(r"Took too long\.\s*\n.*\n\s*Player (\d) loses", output)
    timed_out = None
    if timeout:  # the master names the side by its code: 1 White, 0 Black
        timed_out = "WHITE" if timeout.group(1) == "1" else "BLACK"
    counts = (illegal.count(jiang_side), illegal.count(other),
              int(timed_out == jiang_side), int(timed_out == other))
    won = re.search(r"Congratulations to the winner: (WHITE|BLACK)", output)
    if timed_out:
        return (0.0 if timed_out == jiang_side else 1.0, f"{timed_out} took too long", *counts, turns)
    if won:
        why = re.search(r"(Win for \w+|Illegal move by \w+|No move returned by \w+|claim there are no legal moves"
                        r"|did not have the proper form)", output)
        return (1.0 if won.group(1) == jiang_side else 0.0, why.group(1) if why else "win", *counts, turns)
    if "The outcome is a DRAW" in output:
        why = re.search(r"(Stalemate: \w+ has no moves!|TURN_LIMIT exceeded)", output)
        return (0.5, why.group(1) if why else "draw", *counts, turns)
    return (None, "no result: " + output.strip()[-200:].replace("\n", " | "), *counts, turns)


def play(copy, module, game, seconds, env, wall, logs):
    jiang_white = game % 2 == 0
    players = ["jiang_BC_Player", module] if jiang_white else [module, "jiang_BC_Player"]
    start = time.monotonic()
    try:
        run = subprocess.run([sys.executable, "BaroqueGameMaster_V02.py", *players, str(seconds)], cwd=copy,
                             env=env, capture_output=True, text=True, timeout=wall)
        out, err = run.stdout, run.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = f"game stopped after {wall} s of wall time"
    with open(os.path.join(logs, f"game-{game + 1}.txt"), "w") as f:
        f.write(out + "\n--- stderr\n" + err)
    side = "WHITE" if jiang_white else "BLACK"
    used = [float(x) for x in re.findall(r"Time used in makeMove: ([\d.]+)", out)]
    jiang_times = used[0::2] if jiang_white else used[1::2]
    return (game, side, verdict(out, side), max(jiang_times, default=0.0), time.monotonic() - start,
            "[jiang_BC_Player]" in err)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("cache", help="folder of the checkouts (OWNER+NAME), cloned when missing")
    parser.add_argument("work", help="folder for the harness copies and game logs")
    parser.add_argument("--agents", default="Diogenes,DeepPurple,PLACEHOLDER",
                        help=f"comma-separated, of: {', '.join(AGENTS)}")
    parser.add_argument("--games", type=int, default=20, help="games per agent (colours alternate)")
    parser.add_argument("--time", type=float, default=1.0, help="the master's time per move, seconds")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at once")
    parser.add_argument("--wall", type=int, default=3600, help="seconds of wall time after which a game is stopped")
    parser.add_argument("--list", action="store_true", help="list the agents and exit")
    args = parser.parse_args()
    if args.list:
        for name, (repo, commit, module, note) in AGENTS.items():
            print(f"{name:13} {repo}@{commit[:10]} {module}.py  {note}")
        return
    names = [n for n in args.agents.split(",") if n]
    for n in names:
        if n not in AGENTS:
            sys.exit(f"unknown agent {n}; --list shows them")
    env = dict(os.environ)
    env.setdefault("JIANG", os.path.abspath(os.path.join(HERE, "..", "..", "..", "target", "release", "jiang")))
    print(f"jiang {env['JIANG']}, {args.time} s per move, {args.games} games per agent")
    bad = 0
    totals = []
    for name in names:
        # One harness copy per concurrent game: the agents keep state in module globals and files.
        logs = os.path.abspath(os.path.join(args.work, name))
        copies = [prepare(os.path.abspath(args.cache), os.path.join(logs, f"copy-{k}"), name)
                  for k in range(args.concurrency)]
        module = AGENTS[name][2]
        print(f"\n{name} ({AGENTS[name][0]})")
        print("| game | jiang | result | why | turns | jiang's slowest move (s) |")
        print("|---|---|---|---|---|---|")
        results = []
        with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
            free = list(copies)
            futures = {}
            pending = list(range(args.games))
            while pending or futures:
                while pending and free:
                    copy = free.pop()
                    futures[pool.submit(play, copy, module, pending.pop(0), args.time, env, args.wall,
                                          logs)] = copy
                done, _ = concurrent.futures.wait(futures, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in done:
                    free.append(futures.pop(fut))
                    game, side, v, slowest, wall, jiang_err = fut.result()
                    score, why, ji, ai, jt, at, turns = v
                    results.append(v)
                    bad += bool(ji or jt or jiang_err or score is None)
                    shown = {1.0: "jiang wins", 0.5: "draw", 0.0: "jiang loses", None: "?"}[score]
                    print(f"| {game + 1} | {side} | {shown} | {why} | {turns} | {slowest:.2f} |", flush=True)
        w = sum(r[0] == 1.0 for r in results)
        d = sum(r[0] == 0.5 for r in results)
        lost = sum(r[0] == 0.0 for r in results)
        sums = [sum(r[i] for r in results) for i in range(2, 6)]
        pct = 100.0 * (w + 0.5 * d) / max(1, w + d + lost)
        totals.append((name, w, d, lost, pct, *sums))
    print("\n| agent | W | D | L | jiang's score | illegal moves jiang/agent | timeouts jiang/agent |")
    print("|---|---|---|---|---|---|---|")
    for name, w, d, lost, pct, ji, ai, jt, at in totals:
        print(f"| {name} | {w} | {d} | {lost} | {pct:.1f} % | {ji}/{ai} | {jt}/{at} |")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
