#!/usr/bin/env python3
"""Run a UCI/UCCI engine with every `go` replaced by a fixed limit.

A match runner sends both engines the same `go`; a reference opponent of the strength
ladder (see ladder.py) must search to its own fixed depth or node count instead. This
wrapper sits between the runner and the engine and rewrites each `go ...` line into
`go depth D` (or `go nodes N`); everything else passes through unchanged, both ways.

    fixed_limit.py --depth 3 -- target/release/jiang
"""

import argparse
import os
import sys

# The relay itself is node_odds.py's (one folder up): only the rewrite differs.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from node_odds import relay  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    limit = p.add_mutually_exclusive_group(required=True)
    limit.add_argument("--depth", type=int, help="search this many plies every move")
    limit.add_argument("--nodes", type=int, help="search this many nodes every move")
    p.add_argument("engine", nargs=argparse.REMAINDER, help="-- the engine's command line")
    args = p.parse_args()
    cmd = [a for a in args.engine if a != "--"]
    if not cmd:
        p.error("give the engine's command after --")
    go = f"go depth {args.depth}\n" if args.depth is not None else f"go nodes {args.nodes}\n"

    def rewrite(line: str) -> str:
        words = line.split()
        if words[:1] == ["go"] and "ponder" not in words and "infinite" not in words:
            return go
        return line

    return relay(cmd, rewrite)


if __name__ == "__main__":
    sys.exit(main())
