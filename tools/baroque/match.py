#!/usr/bin/env python3
"""Baroque matches refereed by the independent Python referee (referee.py).

Players:
  jiang     the engine over UCI (setoption name UCI_Variant value baroque), `go movetime MS`
  random    a uniformly random legal move (the referee's generator)
  ab2       a 2-ply alpha-beta on material (the referee's generator; king capture wins)
  jiang:PATH  another jiang build (e.g. the previous one, to measure a change)

Every move of every player is checked by the referee: a move that is not among the
referee's legal moves loses the game for its player and is counted as illegal; an engine
that dies, answers nothing in time or answers garbage loses and is counted as a crash.
The game ends only by a rule of the book, as the referee sees it (king captured, no legal
move, 5000-ply limit).

Usage:
  match.py --white jiang --black random --games 100 [--movetime 200] [--engine PATH]
           [--alternate] [--random-plies N] [--seed S] [--log FILE]
With --alternate the players swap colours every game (the first named takes White in
game 1). Prints one line per game and a summary table.
"""

import argparse
import collections
import json
import os
import queue
import random
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import referee  # noqa: E402

VALUES = {"P": 1, "C": 3, "L": 4, "I": 4, "W": 4, "F": 4, "K": 0}
WIN = 1000


class EngineError(Exception):
    pass


class UciEngine:
    """A UCI engine playing Baroque."""

    def __init__(self, path, movetime, name="jiang"):
        self.path = path
        self.movetime = movetime
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait_for("uciok", 10)
        self.send("setoption name UCI_Variant value baroque")
        self.send("isready")
        self.wait_for("readyok", 10)
        self.name = name

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError("engine pipe closed: %s" % e)

    def _read(self):
        """Reader thread: every output line into the queue, None at the end."""
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def wait_for(self, prefix, timeout):
        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            if left <= 0:
                raise EngineError("no '%s' within %.1f s" % (prefix, timeout))
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EngineError("engine exited (code %s)" % self.proc.poll())
            if line.startswith(prefix):
                return line

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok", 10)

    def choose(self, start_fen, moves, pos):
        cmd = "position fen " + start_fen
        if moves:
            cmd += " moves " + " ".join(moves)
        self.send(cmd)
        self.send("go movetime %d" % self.movetime)
        line = self.wait_for("bestmove", self.movetime / 1000.0 * 10 + 5)
        parts = line.split()
        if len(parts) < 2:
            raise EngineError("empty bestmove line")
        return parts[1]

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


class RandomPlayer:
    def __init__(self, rng):
        self.rng = rng
        self.name = "random"

    def new_game(self):
        pass

    def choose(self, start_fen, moves, pos):
        return self.rng.choice(referee.generate(pos)).text

    def close(self):
        pass


def material(pos, side):
    """Material of `side` minus the opponent's (pincer = 1)."""
    score = 0
    for row in pos.board:
        for p in row:
            if p is not None:
                v = VALUES[p.upper()]
                score += v if referee.colour_of(p) == side else -v
    return score


class AlphaBeta2:
    """Negamax alpha-beta, 2 plies, on material; a captured king is a win. Ties are broken
    at random (the moves are shuffled), so games vary."""

    def __init__(self, rng):
        self.rng = rng
        self.name = "ab2"

    def new_game(self):
        pass

    def value(self, pos, depth, alpha, beta):
        me = pos.side
        if pos.find_king(me) is None:
            return -WIN
        if depth == 0:
            return material(pos, me)
        moves = referee.generate(pos)
        if not moves:
            res = referee.result(pos, moves)
            return 0 if res and res[0] == "1/2-1/2" else -WIN
        # Captures first: better cut-offs.
        moves.sort(key=lambda m: -len(m.captured))
        best = -WIN - 1
        for m in moves:
            v = -self.value(referee.apply(pos, m), depth - 1, -beta, -alpha)
            if v > best:
                best = v
            if v > alpha:
                alpha = v
            if alpha >= beta:
                break
        return best

    def choose(self, start_fen, moves, pos):
        candidates = referee.generate(pos)
        self.rng.shuffle(candidates)
        candidates.sort(key=lambda m: -len(m.captured))
        best, best_v = None, -WIN - 2
        alpha, beta = -WIN - 2, WIN + 2
        for m in candidates:
            v = -self.value(referee.apply(pos, m), 1, -beta, -alpha)
            if v > best_v:
                best, best_v = m, v
            if v > alpha:
                alpha = v
        return best.text

    def close(self):
        pass


def make_player(kind, args, rng):
    if kind == "jiang":
        return UciEngine(args.engine, args.movetime)
    if kind.startswith("jiang:"):
        # Another build, to measure a change against: jiang:PATH.
        path = kind.split(":", 1)[1]
        return UciEngine(path, args.movetime, "jiang:" + os.path.basename(path))
    if kind == "random":
        return RandomPlayer(rng)
    if kind == "ab2":
        return AlphaBeta2(rng)
    raise SystemExit("unknown player " + kind)


def play_game(white, black, rng, random_plies):
    """Plays one game; returns a dict with the result, reason and counters."""
    start = referee.Position.from_fen(referee.START_FEN)
    pos = start
    texts = []
    # Optional random opening plies, played by the referee for variety.
    for _ in range(random_plies):
        ms = referee.generate(pos)
        if not ms:
            break
        m = rng.choice(ms)
        texts.append(m.text)
        pos = referee.apply(pos, m)
    players = {"w": white, "b": black}
    illegal = crash = None
    times = {"w": 0.0, "b": 0.0}
    counts = {"w": 0, "b": 0}
    while True:
        moves = referee.generate(pos)
        res = referee.result(pos, moves)
        if res is not None:
            break
        side = pos.side
        player = players[side]
        t0 = time.time()
        try:
            text = player.choose(referee.START_FEN, texts, pos)
        except EngineError as e:
            crash = (side, str(e))
            res = ("0-1" if side == "w" else "1-0", "%s crashed: %s" % (player.name, e))
            break
        times[side] += time.time() - t0
        counts[side] += 1
        m = referee.find_move(pos, text, moves)
        if m is None:
            illegal = (side, text, pos.fen())
            res = ("0-1" if side == "w" else "1-0", "%s played an illegal move %s" % (player.name, text))
            break
        texts.append(m.text)
        pos = referee.apply(pos, m)
    return {
        "result": res[0],
        "reason": res[1],
        "plies": len(texts),
        "moves": texts,
        "illegal": illegal,
        "crash": crash,
        "avg_ms": {s: (1000 * times[s] / counts[s] if counts[s] else 0) for s in "wb"},
        "final_fen": pos.fen(),
    }


def reason_class(reason):
    """Buckets a reason for the summary table."""
    for key in ("captures the king", "no legal move", "5000-ply limit", "illegal", "crashed"):
        if key in reason:
            return key
    return reason


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--white", required=True)
    ap.add_argument("--black", required=True)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--movetime", type=int, default=200)
    ap.add_argument("--engine", default=os.path.join(os.path.dirname(__file__), "../../target/release/jiang"))
    ap.add_argument("--alternate", action="store_true")
    ap.add_argument("--random-plies", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    first = make_player(args.white, args, rng)
    second = make_player(args.black, args, rng)
    if first is second:
        raise SystemExit("two distinct players needed")
    score = collections.Counter()
    endings = collections.Counter()
    illegal = crashes = 0
    plies = []
    log = open(args.log, "a") if args.log else None
    for g in range(args.games):
        swap = args.alternate and g % 2 == 1
        white, black = (second, first) if swap else (first, second)
        wname = args.black if swap else args.white
        bname = args.white if swap else args.black
        for p in (white, black):
            p.new_game()
        r = play_game(white, black, rng, args.random_plies)
        if r["result"] == "1-0":
            winner = ("first" if not swap else "second")
        elif r["result"] == "0-1":
            winner = ("second" if not swap else "first")
        else:
            winner = "draw"
        score[winner] += 1
        endings[(r["result"], reason_class(r["reason"]))] += 1
        illegal += r["illegal"] is not None
        crashes += r["crash"] is not None
        plies.append(r["plies"])
        print("game %3d  %-6s (W) vs %-6s (B)  %-7s %-45s %4d plies  ms/move W %.0f B %.0f" % (
            g + 1, wname, bname, r["result"], r["reason"], r["plies"], r["avg_ms"]["w"], r["avg_ms"]["b"]),
            flush=True)
        if r["illegal"]:
            print("   illegal: %s" % (r["illegal"],), flush=True)
        if r["crash"]:
            print("   crash: %s" % (r["crash"],), flush=True)
        if log:
            r.update({"game": g + 1, "white": wname, "black": bname})
            log.write(json.dumps(r) + "\n")
            log.flush()
    first.close()
    second.close()
    n = args.games
    print()
    print("first = %s, second = %s, %d games, %d ms/move for jiang, random opening plies %d" % (
        args.white, args.black, n, args.movetime, args.random_plies))
    print("first wins %d, second wins %d, draws %d  (first scores %.1f %%)" % (
        score["first"], score["second"], score["draw"], 100.0 * (score["first"] + 0.5 * score["draw"]) / n))
    print("illegal moves %d, crashes %d" % (illegal, crashes))
    plies.sort()
    print("plies: min %d, median %d, max %d" % (plies[0], plies[len(plies) // 2], plies[-1]))
    print("endings:")
    for (res, why), k in sorted(endings.items(), key=lambda kv: -kv[1]):
        print("  %-8s %-22s %4d" % (res, why, k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
