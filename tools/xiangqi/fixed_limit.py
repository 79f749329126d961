#!/usr/bin/env python3
"""Run a UCI/UCCI engine with every `go` replaced by a fixed limit.

A match runner sends both engines the same `go`; a reference opponent of the strength
ladder (see ladder.py) must search to its own fixed depth or node count instead. This
wrapper sits between the runner and the engine and rewrites each `go ...` line into
`go depth D` (or `go nodes N`); everything else passes through unchanged, both ways.

    fixed_limit.py --depth 3 -- target/release/jiang
"""

import argparse
import subprocess
import sys
import threading


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
    go = f"go depth {args.depth}" if args.depth is not None else f"go nodes {args.nodes}"

    engine = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def pump_out() -> None:
        assert engine.stdout is not None
        for line in engine.stdout:
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()

    reader = threading.Thread(target=pump_out, daemon=True)
    reader.start()
    assert engine.stdin is not None
    try:
        for line in sys.stdin:
            words = line.split()
            if words[:1] == ["go"] and "ponder" not in words and "infinite" not in words:
                line = go + "\n"
            engine.stdin.write(line.encode())
            engine.stdin.flush()
            if words[:1] == ["quit"]:
                break
    except BrokenPipeError:
        pass
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    code = engine.wait()
    reader.join(timeout=1)
    return code


if __name__ == "__main__":
    sys.exit(main())
