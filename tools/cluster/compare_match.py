#!/usr/bin/env python3
"""Compares a cluster match (match.py --json) with one run of the same games on one machine
(jiang-lab match --json): W/D/L of engine A, and every game (colours, result, reason, plies,
moves).

    python3 tools/cluster/compare_match.py CLUSTER.json MATCH.json

Prints both W/D/L and the games that differ; exit 0 when they are the same games, 1 otherwise.
"""

import json
import sys


def games(d):
    out = {}
    for g in d["game_list"]:
        moves = [m["move"] if isinstance(m, dict) else m for m in g.get("moves", [])]
        out[g["game"]] = (g["red"], g["black"], g["result"], g["reason"], g["plies"], moves)
    return out


def main(argv):
    if len(argv) != 2 or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    with open(argv[0], encoding="utf-8") as f:
        ours = json.load(f)
    with open(argv[1], encoding="utf-8") as f:
        theirs = json.load(f)
    wdl = [ours["result_A"][k] for k in ("wins", "draws", "losses")]
    xwdl = [theirs["result_A"][k] for k in ("wins", "draws", "losses")]
    print(f"cluster W/D/L {wdl[0]}/{wdl[1]}/{wdl[2]}   one machine W/D/L {xwdl[0]}/{xwdl[1]}/{xwdl[2]}")
    a, b = games(ours), games(theirs)
    diff = 0
    for n in sorted(set(a) | set(b)):
        if a.get(n) != b.get(n):
            diff += 1
            if diff <= 10:
                ga, gb = a.get(n), b.get(n)
                print(f"game {n}: cluster {ga[:5] if ga else None}  one machine {gb[:5] if gb else None}")
    same_moves = sum(1 for n in a if n in b and a[n] == b[n])
    print(f"{len(a)} and {len(b)} games; {same_moves} identical move for move; {diff} differ")
    return 0 if wdl == xwdl and diff == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
