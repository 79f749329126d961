"""Plays jiang (AgentJiang) against ThreeChess agents that students published for UWA
CITS3001, in the reference harness (drtnf/threeChess), every seat order.

    python3 adapters/threechess/outside/run_table.py fetch SOURCES
    python3 adapters/threechess/outside/run_table.py play SOURCES WORK \\
        --table jiang,michsarg-mcts,michsarg-mcts --seconds 10 --games 6

`fetch` clones the reference harness and the agents' repositories (listed below, each
at the commit measured) into SOURCES; nothing of theirs enters this repository. `play`
copies the harness's sources into WORK, adds each agent of the table (its class renamed
after its label, so that two repositories' `MCTSAgent`s can meet), AgentJiang and the
table driver PlayTable.java, compiles them and plays GAMES games through the harness's
own `ThreeChess.play` with SECONDS on each player's whole-game clock, cycling over every
distinct seat order. It prints a line per game and, per table slot, the average score
(+1 win, -1 loss, 0 otherwise; -2 for an illegal move), wins, losses, the average in
each seat, illegal moves, timeouts and the most clock used in a game. `list` prints the
labels. The engine is $JIANG or target/release/jiang.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ADAPTER = os.path.dirname(HERE)

HARNESS = ("drtnf/threeChess", "3c695d143a0a343221e82f2593207a3ed255f8db")
# label: (repository, commit, file, class in it, what it is)
AGENTS = {
    "michsarg-mcts": ("michsarg/ThreeChessAgents", "fe6ba6d13bac779f4e20116f8c0fad40259ce615",
                      "MCTSAgent.java", "MCTSAgent",
                      "Monte Carlo tree search, a share of the clock left per move (the README: its best, with MaxN)"),
    "michsarg-maxn": ("michsarg/ThreeChessAgents", "fe6ba6d13bac779f4e20116f8c0fad40259ce615",
                      "MaxNAgent.java", "MaxNAgent", "MaxN search to a fixed depth"),
    "skyheat-mcts": ("skyheat/ThreeChess-Monte-Carlo-Tree-Search", "b1b1dcbee90a657bf9c37423b4f723da4f2be213",
                     "src/threeChess/agents/MCTSAgent.java", "MCTSAgent", "Monte Carlo tree search, 200 ms a move"),
    "skyheat-paranoid": ("skyheat/ThreeChess-Monte-Carlo-Tree-Search", "b1b1dcbee90a657bf9c37423b4f723da4f2be213",
                         "src/threeChess/agents/ParanoidAgentPruning.java", "ParanoidAgentPruning",
                         "Paranoid alpha-beta to a fixed depth"),
    "skyheat-maxn": ("skyheat/ThreeChess-Monte-Carlo-Tree-Search", "b1b1dcbee90a657bf9c37423b4f723da4f2be213",
                     "src/threeChess/agents/MaxNAgent.java", "MaxNAgent", "MaxN to a fixed depth"),
    "extrosoph-uct": ("Extrosoph/ThreeChessAgents", "56fd684130b19178dde2bd97bc08f7c217d05fae",
                      "src/threeChess/agents/Agent22764884.java", "Agent22764884", "UCT tree search"),
    "extrosoph-mcts": ("Extrosoph/ThreeChessAgents", "56fd684130b19178dde2bd97bc08f7c217d05fae",
                       "src/threeChess/agents/Agent22234922.java", "Agent22234922",
                       "Monte Carlo search, the clock left shared over the moves expected"),
}


def checkout_dir(sources, repo):
    return os.path.join(sources, repo.replace("/", "+"))


def fetch(sources):
    os.makedirs(sources, exist_ok=True)
    wanted = {HARNESS[0]: HARNESS[1]}
    wanted.update({repo: commit for repo, commit, *_ in AGENTS.values()})
    for repo, commit in wanted.items():
        target = checkout_dir(sources, repo)
        if not os.path.isdir(target):
            subprocess.run(["git", "clone", "-q", f"https://github.com/{repo}", target], check=True)
        subprocess.run(["git", "-C", target, "checkout", "-q", commit], check=True)
        print(f"{repo} at {commit}: {target}")


def class_name(label):
    return "Out_" + re.sub(r"\W", "_", label)


def build(sources, work, labels):
    src = os.path.join(work, "src")
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(os.path.join(checkout_dir(sources, HARNESS[0]), "src"), src)
    agents = os.path.join(src, "threeChess", "agents")
    shutil.copy(os.path.join(ADAPTER, "AgentJiang.java"), agents)
    shutil.copy(os.path.join(HERE, "PlayTable.java"), agents)
    for label in sorted(set(labels) - {"jiang"}):
        repo, _commit, path, cls, _what = AGENTS[label]
        with open(os.path.join(checkout_dir(sources, repo), path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        new = class_name(label)
        with open(os.path.join(agents, new + ".java"), "w", encoding="utf-8") as f:
            f.write(re.sub(rf"\b{cls}\b", new, text))
    classes = os.path.join(work, "classes")
    shutil.rmtree(classes, ignore_errors=True)
    os.makedirs(classes)
    files = [os.path.join(d, f) for d in (os.path.join(src, "threeChess"), agents)
             for f in sorted(os.listdir(d)) if f.endswith(".java")]
    subprocess.run(["javac", "-nowarn", "-encoding", "UTF-8", "-d", classes] + files, check=True,
                   stdout=subprocess.DEVNULL)
    return classes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 2)[2])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the agents' labels and sources")
    f = sub.add_parser("fetch", help="clone the harness and the agents into SOURCES")
    f.add_argument("sources")
    p = sub.add_parser("play", help="build in WORK and play a table")
    p.add_argument("sources")
    p.add_argument("work")
    p.add_argument("--table", default="jiang,michsarg-mcts,michsarg-mcts",
                   help="three labels, comma-separated ('jiang' or one of `list`)")
    p.add_argument("--seconds", type=int, default=10, help="each player's whole-game clock")
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--first-order", type=int, default=0,
                   help="start at this seat order of the cycle (0-based); two runs side by side "
                        "with --first-order 0 and 3 share the six orders of a mixed table equally")
    args = parser.parse_args()
    if args.command == "list":
        for label, (repo, commit, path, _cls, what) in AGENTS.items():
            print(f"{label}: {repo}@{commit[:7]} {path}: {what}")
        return 0
    if args.command == "fetch":
        fetch(args.sources)
        return 0
    labels = args.table.split(",")
    unknown = [x for x in labels if x != "jiang" and x not in AGENTS]
    if len(labels) != 3 or unknown:
        parser.error(f"--table needs three labels of: jiang {' '.join(AGENTS)}")
    os.makedirs(args.work, exist_ok=True)
    classes = build(args.sources, args.work, labels)
    names = ["AgentJiang" if x == "jiang" else class_name(x) for x in labels]
    engine = os.environ.get("JIANG") or os.path.join(ADAPTER, "..", "..", "target", "release", "jiang")
    if args.first_order < 0:
        parser.error("--first-order must be 0 or more")
    print(f"table {args.table}, {args.seconds} s per player, {args.games} games, "
          f"from seat order {args.first_order}", flush=True)
    run = subprocess.run(["java", "-Djava.awt.headless=true", "-cp", classes, "threeChess.agents.PlayTable",
                          str(args.seconds), str(args.games), *names, str(args.first_order)],
                         env=dict(os.environ, JIANG=os.path.abspath(engine)))
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
