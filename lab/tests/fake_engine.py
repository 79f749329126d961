#!/usr/bin/env python3
"""A deliberately bad Xiangqi engine for the match runner's tests (lab/tests/match_runner.rs).

It speaks UCI or UCCI (whichever it is greeted with) and plays the only moves it knows:
each side's right horse out and back (Red h0g2, g2h0; Black h9g7, g7h9), legal from the
start position whatever the other side does with the same moves. On its move number
--after (0 = its first move of the game) it misbehaves as --mode says:

  legal    never (plays the horse moves)
  illegal  a well-formed illegal move (a chariot jumping its own soldier: a0a5 / a9a4)
  late     sleeps --sleep-ms, then answers the horse move
  hang     never answers, ignores `stop` (the runner must kill it)
  crash    exits at once (exit code 3)
  garbage  `bestmove xyz`
  nomove   `bestmove (none)`
  ranks1   writes its moves with ranks 1-10 (h1g3): illegal for a runner expecting 0-9
  resign   `bestmove MOVE resign` (UCCI)
  weak     an illegal move while its option `Skill Level` is below 10, legal moves from 10
           up (the tuner's tests: a parameter whose right direction is known)

--pidfile FILE appends its process id to FILE at start (the tests check that no engine
is left running).
"""

import argparse
import os
import sys
import time


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", default="legal")
    p.add_argument("--after", type=int, default=0)
    p.add_argument("--sleep-ms", type=int, default=1000)
    p.add_argument("--pidfile")
    a = p.parse_args()
    if a.pidfile:
        with open(a.pidfile, "a") as f:
            f.write("%d\n" % os.getpid())
    red_to_move, own_moves = True, 0
    skill = 20

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            say("id name fake-engine")
            say("option name Hash type spin default 16 min 1 max 1024")
            say("option name Skill Level type spin default 20 min 0 max 20")
            say("uciok")
        elif cmd == "ucci":
            say("id name fake-engine")
            say("option usemillisec type check default false")
            say("option newgame type button")
            say("ucciok")
        elif cmd == "setoption" and "Skill" in words and "value" in words:
            skill = int(words[words.index("value") + 1])
        elif cmd == "isready":
            say("readyok")
        elif cmd == "position":
            moves = words[words.index("moves") + 1:] if "moves" in words else []
            if "startpos" in words:
                red_first = True
            else:
                fen = words[words.index("fen") + 1:]
                red_first = len(fen) < 2 or fen[1] in ("w", "r")
            red_to_move = red_first == (len(moves) % 2 == 0)
            mine = [m for i, m in enumerate(moves) if (i % 2 == 0) == (red_to_move == red_first)]
            own_moves = len(mine)
        elif cmd == "go":
            out = ("h0g2", "g2h0") if red_to_move else ("h9g7", "g7h9")
            move = out[own_moves % 2]
            mode = a.mode if own_moves >= a.after else "legal"
            if mode == "weak":
                mode = "illegal" if skill < 10 else "legal"
            if mode == "illegal":
                say("bestmove " + ("a0a5" if red_to_move else "a9a4"))
            elif mode == "late":
                time.sleep(a.sleep_ms / 1000.0)
                say("bestmove " + move)
            elif mode == "hang":
                while True:
                    time.sleep(10)
            elif mode == "crash":
                sys.exit(3)
            elif mode == "garbage":
                say("bestmove xyz")
            elif mode == "nomove":
                say("bestmove (none)")
            elif mode == "ranks1":
                say("bestmove %s%d%s%d" % (move[0], int(move[1]) + 1, move[2], int(move[3]) + 1))
            elif mode == "resign":
                say("bestmove %s resign" % move)
            else:
                say("info depth 1 score cp 0 nodes 1 time 1")
                say("bestmove " + move)
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
