#!/usr/bin/env python3
"""A fairychess (NUS CS3243) measure that two strong engines do not draw away: deep king
hunts solved against the clock.

At 200 ms a move the edge openings (edge_openings.py) hardly separate two engines that see
every short tactic: 89 of their 100 pairs are decided by the position alone. What the
course's games reward, converting an edge within the 100 plies, comes down in the end to
finding a forced king capture that is many plies deep. This measure asks exactly that:

  collect  positions from decisive games (xqmatch `--json` files, `--variant fairychess`):
           the winner to move, PLIES_MIN..PLIES_MAX plies before the king capture, at
           least MIN_PIECES pieces on the board (jiang's tables solve a king and one piece
           against a king at once, which would measure the tables, not the search),
           duplicates removed, optionally a random sample; the move counters are reset
           (fullmove 1), so the 100-ply limit is 100 plies away.
  verify   keeps the candidates where every engine given (at NODES nodes each) reports a
           forced king capture for the side to move ("two engines agreeing") and the
           shorter of their mates is at least MIN_PLIES plies; writes an EPD suite with the
           mate length (`dm`, in moves) and each engine's first move.
  solve    one engine on every position of a suite, `go movetime MS` or `go nodes N`, or
           FACTOR times the nodes another engine's results file searched at each position
           (`--nodes-of FILE --factor 10`: the "ten times the nodes" of the resolution check);
           writes its results (score, move, nodes, time) as JSON.
  score    two results files head to head: a position is solved when the engine reported a
           forced king capture (`score mate N`, N > 0) and its move keeps the capture forced
           (checked by the verifiers' own search of the position after it, at NODES nodes;
           a move that takes the king is solved by itself). Per position the engine that
           solved it scores 1 against one that did not, and 1/2 each when both or neither
           did; the score is the average, with the solved counts.

    python3 tools/fairychess/hunts.py collect OUT.epd MATCH.json [...] [--plies 9-41]
        [--min-pieces 4] [--sample N] [--seed S]
    python3 tools/fairychess/hunts.py verify CANDIDATES.epd --engine CMD [--engine CMD]
        [--nodes 5000000] [--min-plies 9] [--limit N] > SUITE.epd
    python3 tools/fairychess/hunts.py solve SUITE.epd --engine CMD --out A.json
        (--movetime 200 | --nodes N | --nodes-of B.json --factor 10)
    python3 tools/fairychess/hunts.py score A.json B.json --engine CMD [--engine CMD]
        [--nodes 5000000] [--cache CACHE.json]

An engine CMD is a UCI fairychess engine: jiang (`target/release/jiang`; told
`UCI_Variant fairychess`) or Fairy-Stockfish (told `VariantPath` = perft/fairychess_variant.ini
first). Every position starts from `ucinewgame`: no hash carries over. Needs pyffish
(`pip install pyffish`) for the rules.
"""

import argparse
import json
import os
import random
import sys

import pyffish

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from uci_engine import Engine  # noqa: E402

VARIANT_INI = os.path.join(ROOT, "perft", "fairychess_variant.ini")
VARIANT = "fairychess"


def load_rules():
    with open(VARIANT_INI) as f:
        pyffish.load_variant_config(f.read())


def fresh_counters(fen):
    """The FEN with its move counters reset, so that the 100-ply limit is 100 plies away."""
    fields = fen.split()
    return " ".join(fields[:4] + ["0", "1"])


class Player:
    """A UCI fairychess engine, one position at a time."""

    def __init__(self, command, hash_mb=64):
        self.engine = Engine(command)
        self.engine.send("uci")
        lines = self.engine.until("uciok")
        self.name = next((ln[len("id name "):] for ln in lines if ln.startswith("id name ")), command)
        options = " ".join(ln for ln in lines if ln.startswith("option "))
        if "name VariantPath " in options:
            self.engine.send(f"setoption name VariantPath value {VARIANT_INI}")
        self.engine.send(f"setoption name UCI_Variant value {VARIANT}")
        self.engine.send(f"setoption name Hash value {hash_mb}")
        self.engine.send("setoption name Threads value 1")

    def think(self, fen, go):
        """(mate in moves or None, centipawns or None, bestmove, nodes, ms) for `go GO`,
        from the last `info` line with a score. A mate score bounded the wrong way proves
        nothing and is returned as None: `score mate N upperbound` with N > 0 (at best a
        mate) or `score mate -N lowerbound` (at worst mated)."""
        self.engine.send("ucinewgame")
        self.engine.send("isready")
        self.engine.until("readyok")
        self.engine.send(f"position fen {fen}")
        self.engine.send(f"go {go}")
        mate = cp = None
        nodes = ms = 0
        for line in self.engine.until("bestmove"):
            words = line.split()
            if not words or words[0] != "info":
                continue
            if "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
            if "time" in words:
                ms = int(words[words.index("time") + 1])
            if "score" in words:
                i = words.index("score")
                if words[i + 1] == "mate":
                    mate, cp = int(words[i + 2]), None
                    bound = words[i + 3] if len(words) > i + 3 else ""
                    if (mate > 0 and bound == "upperbound") or (mate < 0 and bound == "lowerbound"):
                        mate = None
                elif words[i + 1] == "cp":
                    mate, cp = None, int(words[i + 2])
        best = line.split()[1] if len(line.split()) > 1 else "(none)"
        return mate, cp, best, nodes, ms

    def quit(self):
        self.engine.quit()


def read_suite(path):
    """[(fen, fields)] of an EPD file: FEN (four fields) and its `op value;` pairs."""
    positions = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            words = line.split()
            fen = " ".join(words[:4]) + " 0 1"
            fields = {}
            for op in " ".join(words[4:]).split(";"):
                op = op.strip()
                if op:
                    key, _, value = op.partition(" ")
                    fields[key] = value.strip().strip('"')
            positions.append((fen, fields))
    return positions


def collect(args):
    lo, _, hi = args.plies.partition("-")
    lo, hi = int(lo), int(hi or lo)
    seen, out = set(), []
    for path in args.matches:
        with open(path) as f:
            match = json.load(f)
        for game in match["game_list"]:
            if game["result"] not in ("1-0", "0-1") or game["kind"] != "rules":
                continue
            moves = [m["move"] for m in game["moves"] if m.get("move")]
            winner_white = game["result"] == "1-0"
            for before in range(lo, min(hi, len(moves)) + 1):
                ply = len(moves) - before
                fen = pyffish.get_fen(VARIANT, game["fen"], moves[:ply])
                if (fen.split()[1] == "w") != winner_white:
                    continue
                fen = fresh_counters(fen)
                key = " ".join(fen.split()[:2])
                if key in seen or not pyffish.legal_moves(VARIANT, fen, []):
                    continue
                if sum(ch.isalpha() for ch in fen.split()[0]) < args.min_pieces:
                    continue
                seen.add(key)
                out.append((fen, f'c0 "{os.path.basename(path)} game {game["game"]} {before} plies before the end";'))
    if args.sample and args.sample < len(out):
        out = random.Random(args.seed).sample(out, args.sample)
    with open(args.out, "w") as f:
        for fen, comment in out:
            f.write(" ".join(fen.split()[:4]) + " " + comment + "\n")
    print(f"{len(out)} candidates", file=sys.stderr)


def verify(args):
    players = [Player(cmd) for cmd in args.engine]
    kept = 0
    try:
        for n, (fen, fields) in enumerate(read_suite(args.candidates)):
            if args.limit and n >= args.limit:
                break
            mates, moves = [], []
            for p in players:
                mate, _cp, best, _nodes, _ms = p.think(fen, f"nodes {args.nodes}")
                mates.append(mate)
                moves.append(best)
                if mate is None or mate <= 0:
                    break
            if len(mates) < len(players) or any(m is None or m <= 0 for m in mates):
                continue
            dm = min(mates)
            if 2 * dm - 1 < args.min_plies:
                continue
            kept += 1
            firsts = " ".join(sorted(set(moves)))
            print(" ".join(fen.split()[:4]) + f' dm {dm}; c1 "{firsts}"; c0 "{fields.get("c0", "")}";',
                  flush=True)
    finally:
        for p in players:
            p.quit()
    print(f"{kept} positions kept", file=sys.stderr)


def solve(args):
    suite = read_suite(args.suite)
    budget = None
    if args.nodes_of:
        with open(args.nodes_of) as f:
            budget = {r["fen"]: r["nodes"] for r in json.load(f)["results"]}
    player = Player(args.engine)
    results = []
    try:
        for fen, fields in suite:
            if args.movetime:
                go = f"movetime {args.movetime}"
            elif budget is not None:
                go = f"nodes {max(1, int(budget[fen] * args.factor))}"
            else:
                go = f"nodes {args.nodes}"
            mate, cp, best, nodes, ms = player.think(fen, go)
            results.append({"fen": fen, "dm": int(fields.get("dm", 0)), "go": go, "mate": mate,
                            "cp": cp, "move": best, "nodes": nodes, "ms": ms})
    finally:
        player.quit()
    with open(args.out, "w") as f:
        json.dump({"engine": player.name, "command": args.engine, "suite": args.suite,
                   "results": results}, f, indent=1)
    found = sum(map(announces_mate, results))
    print(f"{player.name}: {found} of {len(results)} reported a forced king capture", file=sys.stderr)


class MoveCheck:
    """Whether a move keeps a king capture forced: the verifiers' search of the position
    after it (the defender to move) must report the defender captured. Cached on disk."""

    def __init__(self, commands, nodes, cache_path):
        self.commands, self.nodes, self.cache_path = commands, nodes, cache_path
        self.players = None
        self.cache = {}
        if cache_path and os.path.exists(cache_path):
            with open(cache_path) as f:
                self.cache = json.load(f)

    def keeps_mate(self, fen, move):
        key = f"{fen}|{move}|{self.nodes}"
        if key in self.cache:
            return self.cache[key]
        if move not in pyffish.legal_moves(VARIANT, fen, []):
            verdict = False
        else:
            ended, result = pyffish.is_immediate_game_end(VARIANT, fen, [move])
            if not ended and not pyffish.legal_moves(VARIANT, fen, [move]):
                ended, result = True, pyffish.game_result(VARIANT, fen, [move])
            if ended:
                # The result is the defender's (the side to move after the move).
                verdict = result < 0
            else:
                if self.players is None:
                    self.players = [Player(cmd) for cmd in self.commands]
                after = pyffish.get_fen(VARIANT, fen, [move])
                verdict = False
                for p in self.players:
                    mate, _cp, _best, _nodes, _ms = p.think(after, f"nodes {self.nodes}")
                    if mate is not None and mate < 0:
                        verdict = True
                        break
        self.cache[key] = verdict
        if self.cache_path:
            with open(self.cache_path, "w") as f:
                json.dump(self.cache, f)
        return verdict

    def close(self):
        for p in self.players or []:
            p.quit()


def announces_mate(result):
    return result["mate"] is not None and result["mate"] > 0


def solved_flags(results, check):
    return [announces_mate(r) and check.keeps_mate(r["fen"], r["move"]) for r in results]


def score(args):
    with open(args.a) as f:
        a = json.load(f)
    with open(args.b) as f:
        b = json.load(f)
    if [r["fen"] for r in a["results"]] != [r["fen"] for r in b["results"]]:
        sys.exit("the two results files are not of the same suite")
    check = MoveCheck(args.engine, args.nodes, args.cache)
    try:
        fa = solved_flags(a["results"], check)
        fb = solved_flags(b["results"], check)
    finally:
        check.close()
    n = len(fa)
    only_a = sum(1 for x, y in zip(fa, fb) if x and not y)
    only_b = sum(1 for x, y in zip(fa, fb) if y and not x)
    both = sum(1 for x, y in zip(fa, fb) if x and y)
    claimed_a = sum(map(announces_mate, a["results"]))
    claimed_b = sum(map(announces_mate, b["results"]))
    pts = only_a + 0.5 * (n - only_a - only_b)
    print(f"{args.a}: {a['engine']} solved {sum(fa)} of {n} (claimed {claimed_a}), "
          f"median nodes {sorted(r['nodes'] for r in a['results'])[n // 2]}")
    print(f"{args.b}: {b['engine']} solved {sum(fb)} of {n} (claimed {claimed_b}), "
          f"median nodes {sorted(r['nodes'] for r in b['results'])[n // 2]}")
    print(f"both {both}, only the first {only_a}, only the second {only_b}, neither {n - both - only_a - only_b}")
    print(f"the first scores {pts:.1f} of {n}: {100 * pts / n:.1f} %")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="candidate positions from decisive games")
    c.add_argument("out")
    c.add_argument("matches", nargs="+")
    c.add_argument("--plies", default="9-41", help="plies before the king capture (LO-HI)")
    c.add_argument("--min-pieces", type=int, default=4,
                   help="pieces on the board, kings included (jiang solves three from its tables)")
    c.add_argument("--sample", type=int, default=0, help="keep SAMPLE of them, drawn at random")
    c.add_argument("--seed", type=int, default=1)
    v = sub.add_parser("verify", help="keep the candidates every engine proves a forced capture in")
    v.add_argument("candidates")
    v.add_argument("--engine", action="append", required=True)
    v.add_argument("--nodes", type=int, default=5_000_000)
    v.add_argument("--min-plies", type=int, default=9)
    v.add_argument("--limit", type=int, default=0, help="look at the first LIMIT candidates only")
    s = sub.add_parser("solve", help="one engine on every position of a suite")
    s.add_argument("suite")
    s.add_argument("--engine", required=True)
    s.add_argument("--out", required=True)
    g = s.add_mutually_exclusive_group(required=True)
    g.add_argument("--movetime", type=int)
    g.add_argument("--nodes", type=int)
    g.add_argument("--nodes-of", help="another engine's results: FACTOR times its nodes at each position")
    s.add_argument("--factor", type=float, default=10.0)
    k = sub.add_parser("score", help="two results files head to head")
    k.add_argument("a")
    k.add_argument("b")
    k.add_argument("--engine", action="append", required=True, help="verifier(s) of the moves")
    k.add_argument("--nodes", type=int, default=5_000_000)
    k.add_argument("--cache")
    args = parser.parse_args()
    load_rules()
    {"collect": collect, "verify": verify, "solve": solve, "score": score}[args.command](args)


if __name__ == "__main__":
    main()
