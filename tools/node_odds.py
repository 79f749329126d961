#!/usr/bin/env python3
"""Node odds for a UCI engine: runs ENGINE, passing every line through, except that
`go ... nodes N` becomes `go ... nodes N*FACTOR`.

A match runner gives both engines the same `--nodes`; wrapping one side in this gives it
FACTOR times as many. MEASUREMENTS.md's fairy chess section measures how far a 60 % score is with
it: jiang or Fairy-Stockfish at ten times the nodes of Fairy-Stockfish, e.g.

  python3 xqmatch.py --variant fairychess \\
    --engine name=odds cmd="python3 tools/node_odds.py 10 <Fairy-Stockfish>" \\
    --engine name=fsf cmd=<Fairy-Stockfish> --nodes 100000 --games 40

  python3 tools/node_odds.py FACTOR ENGINE [ARG ...]
"""

import subprocess
import sys
import threading


def scaled(line, factor):
    """The line with its `go ... nodes N` count multiplied; any other line as it is."""
    words = line.split()
    if not words or words[0] != "go" or "nodes" not in words:
        return line
    i = words.index("nodes")
    if i + 1 < len(words) and words[i + 1].isdigit():
        words[i + 1] = str(int(int(words[i + 1]) * factor))
    return " ".join(words) + "\n"


def relay(command, rewrite):
    """Runs COMMAND (a list) with stdin and stdout relayed, each input line through
    REWRITE (line -> line), until `quit` or end of input; returns the engine's exit code.
    Also the wrapper that tools/xiangqi/fixed_limit.py builds on."""
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def relay_output():
        for out in engine.stdout:
            sys.stdout.write(out)
            sys.stdout.flush()

    relayed = threading.Thread(target=relay_output, daemon=True)
    relayed.start()
    try:
        for line in sys.stdin:
            engine.stdin.write(rewrite(line))
            engine.stdin.flush()
            if line.split()[:1] == ["quit"]:
                break
        engine.stdin.close()
    except BrokenPipeError:
        pass
    code = engine.wait()
    relayed.join(timeout=5)
    return code


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    try:
        factor = float(sys.argv[1])
    except ValueError:
        sys.exit("node_odds: FACTOR must be a number, not %r" % sys.argv[1])
    return relay(sys.argv[2:], lambda line: scaled(line, factor))


if __name__ == "__main__":
    sys.exit(main())
