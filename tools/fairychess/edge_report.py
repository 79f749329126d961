#!/usr/bin/env python3
"""Splits a fairychess match on edge openings (tools/fairychess/edge_openings.py) into
conversion and defence: for the engine named, its results with the side that starts ahead
in material (course values R 5, B N S 3, C 1.5) and with the side that starts behind, and
how the games ended.

    python3 tools/fairychess/edge_report.py MATCH.json [MATCH.json ...] [--engine NAME]

MATCH.json: xqmatch `--json` files (`--variant fairychess`). NAME defaults to the first
engine of the first file. Standard library only.
"""

import argparse
import collections
import json
import sys

VALUES = {"r": 5.0, "b": 3.0, "n": 3.0, "s": 3.0, "c": 1.5}


def lead_of_white(fen):
    total = 0.0
    for ch in fen.split()[0]:
        if ch.lower() in VALUES:
            total += VALUES[ch.lower()] * (1 if ch.isupper() else -1)
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--engine")
    args = parser.parse_args()
    games = []
    name = args.engine
    for path in args.files:
        with open(path) as f:
            data = json.load(f)
        name = name or data["engines"]["A"]["name"]
        games += data["game_list"]
    rows = {"ahead": collections.Counter(), "behind": collections.Counter(), "level": collections.Counter()}
    plies = collections.defaultdict(list)
    for g in games:
        if name not in (g["red"], g["black"]):
            sys.exit(f"engine {name} is not in game {g['game']}")
        white = g["red"] == name
        lead = lead_of_white(g["fen"]) * (1 if white else -1)
        kind = "ahead" if lead > 0 else "behind" if lead < 0 else "level"
        score = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
        score = score if white else 1.0 - score
        outcome = {1.0: "won", 0.5: "drawn", 0.0: "lost"}[score]
        rows[kind][outcome] += 1
        rows[kind]["score"] += score
        rows[kind]["n"] += 1
        if outcome == "drawn":
            rows[kind]["draw: " + g["reason"]] += 1
        if outcome == "won":
            plies[kind].append(g["plies"])
    print(f"{name}: {len(games)} games")
    print("| side at the start | games | won | drawn | lost | score | draws by reason | plies to win (median) |")
    print("|---|---|---|---|---|---|---|---|")
    for kind in ("ahead", "behind", "level"):
        r = rows[kind]
        if not r["n"]:
            continue
        draws = ", ".join(f"{k[6:]} {v}" for k, v in sorted(r.items()) if k.startswith("draw: "))
        won = sorted(plies[kind])
        median = won[len(won) // 2] if won else "-"
        print(f"| {kind} | {r['n']} | {r['won']} | {r['drawn']} | {r['lost']} | {100 * r['score'] / r['n']:.1f} % "
              f"| {draws or '-'} | {median} |")


if __name__ == "__main__":
    main()
