#!/usr/bin/env python3
"""Checks the project's match runner (`jiang-lab match`) against an independent one, xqmatch.

NEEDS xqmatch, a Python match runner with a pyffish (Fairy-Stockfish) referee that is NOT
part of this repository (a testing aid: on the project's machines it lies in the shared
folder beside the checkout, tools/xqmatch): give its folder with --xqmatch PATH or
XQMATCH=PATH. It needs pyffish (pip install pyffish). Nothing documented needs xqmatch; this
script exists to check one runner with another.

Two checks, both with concurrency 1 and fixed nodes (deterministic: jiang with one thread
plays the same move at the same node budget):

  games     the same N-game match (default 20) played by both runners from the same
            openings (default: xqmatch's openings.epd from the 100th) between two jiangs
            (default: the hand-written evaluation with and without its repetition judge at
            600 nodes, a pairing whose games end in every way: mates, stalemate,
            repetition, perpetual check, the ply and no-capture limits; --engine-a /
            --engine-b give other KEY=VALUE items, e.g. two builds): game by game the same
            colours, moves, result and number of plies, and the same W/D/L
  forfeits  a deliberately bad engine (lab/tests/fake_engine.py) that plays an illegal move,
            one that hangs past its time, one that crashes: both runners forfeit the same
            games in the same category after the same moves

    cargo build --release --workspace
    python3 tools/match/compare_xqmatch.py                       # both checks
    python3 tools/match/compare_xqmatch.py games --games 40 --nodes 2000 --opening-offset 0

Exit 0 when everything agrees, 1 otherwise (each difference is printed). The reasons the two
runners give are compared through a table of equivalent wordings (xqmatch says "perpetual
check/chase by red", jiang-lab "perpetual check by red"); a game that both end by a rule both
implement (mate, repetition, perpetual check, the adjudications) must agree exactly. The rules
differ in one documented place: Fairy-Stockfish draws after 100 plies without capture,
jiang's Asian rules after 120 (checks beyond the tenth not counted); --no-capture-plies N
(default 100) makes both runners adjudicate at the same count.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
LAB = os.path.join(REPO, "target", "release", "jiang-lab")
JIANG = os.path.join(REPO, "target", "release", "jiang")
FAKE = os.path.join(REPO, "lab", "tests", "fake_engine.py")
DEFAULT_XQMATCH = os.environ.get("XQMATCH")


def run(cmd, what):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        tail = (r.stderr or r.stdout).strip().splitlines()[-5:]
        raise SystemExit(f"{what} failed (exit {r.returncode}): {' | '.join(tail)}")
    return r.stdout


def play_both(args, engines, rest, tmp, tag):
    """Runs the same match with both runners; returns (ours, theirs) JSON."""
    ours, theirs = os.path.join(tmp, f"{tag}-lab.json"), os.path.join(tmp, f"{tag}-xq.json")
    engine_args = []
    for e in engines:
        engine_args += ["--engine", *e]
    run([args.lab, "match", *engine_args, *rest, "--json", ours], f"jiang-lab match ({tag})")
    run([sys.executable, os.path.join(args.xqmatch, "xqmatch.py"), *engine_args, *rest, "--json", theirs],
        f"xqmatch ({tag})")
    with open(ours) as f, open(theirs) as g:
        return json.load(f), json.load(g)


def reason_key(text):
    """The same ending in either runner's words."""
    text = text.split(" (")[0]
    if text.startswith("perpetual check by black") or text.startswith("perpetual chase by black"):
        return "perpetual check/chase by black"
    if text.startswith("perpetual"):
        return "perpetual check/chase by red"
    if text.startswith("60-move rule") or text.startswith("no-capture"):
        return "no-capture"
    return text


def compare(ours, theirs, label, keys=("red", "black", "result", "plies")):
    """Prints the differences; returns their number."""
    diff = 0
    ga = {g["game"]: g for g in ours["game_list"]}
    gb = {g["game"]: g for g in theirs["game_list"]}
    if sorted(ga) != sorted(gb):
        print(f"  {label}: different games: {sorted(ga)} against {sorted(gb)}")
        return 1
    for n in sorted(ga):
        a, b = ga[n], gb[n]
        problems = [f"{k} {a[k]!r} / {b[k]!r}" for k in keys if a[k] != b[k]]
        ma = [m["move"] for m in a["moves"]]
        mb = [m["move"] for m in b["moves"]]
        if ma != mb:
            first = next((i for i, (x, y) in enumerate(zip(ma, mb)) if x != y), min(len(ma), len(mb)))
            problems.append(f"moves differ from ply {first + 1}")
        if a["fen"].split()[:2] != b["fen"].split()[:2]:
            problems.append("different start positions")
        if reason_key(a["reason"]) != reason_key(b["reason"]):
            problems.append(f"reason {a['reason']!r} / {b['reason']!r}")
        fa = (a.get("forfeit") or {}).get("category")
        fb = (b.get("forfeit") or {}).get("category")
        if fa != fb:
            problems.append(f"forfeit {fa} / {fb}")
        status = "same" if not problems else "DIFFERENT: " + "; ".join(problems)
        print(f"  game {n:3}: {a['red']} - {a['black']} {a['result']:7} {a['plies']:3} plies, "
              f"{a['reason']} | xqmatch: {b['result']} {b['plies']} plies, {b['reason']}  {status}")
        diff += bool(problems)
    wa = [ours["result_A"][k] for k in ("wins", "draws", "losses")]
    wb = [theirs["result_A"][k] for k in ("wins", "draws", "losses")]
    print(f"  {label}: W/D/L jiang-lab {wa[0]}/{wa[1]}/{wa[2]}, xqmatch {wb[0]}/{wb[1]}/{wb[2]}; "
          f"{len(ga) - diff} of {len(ga)} games identical")
    if wa != wb:
        diff += 1
    for side in "AB":
        for k in ("illegal_moves", "time_losses", "crashes", "bad_replies", "resignations"):
            if ours["per_engine"][side][k] != theirs["per_engine"][side][k]:
                print(f"  {label}: engine {side} {k}: {ours['per_engine'][side][k]} / "
                      f"{theirs['per_engine'][side][k]}")
                diff += 1
    return diff


def check_games(args, tmp):
    openings = args.openings or os.path.join(args.xqmatch, "openings.epd")
    a = args.engine_a or ["name=judge", f"cmd={JIANG}", "option.UseNNUE=false"]
    b = args.engine_b or ["name=nojudge", f"cmd={JIANG}", "option.UseNNUE=false", "option.RepetitionJudge=false"]
    rest = ["--games", str(args.games), "--nodes", str(args.nodes), "--openings", openings,
            "--opening-offset", str(args.opening_offset), "--concurrency", "1", "--quiet"]
    if args.no_capture_plies:
        rest += ["--no-capture-plies", str(args.no_capture_plies)]
    print(f"games: {args.games} games at {args.nodes} nodes, openings {openings} from {args.opening_offset}")
    ours, theirs = play_both(args, [a, b], rest, tmp, "games")
    return compare(ours, theirs, "games")


def check_forfeits(args, tmp):
    diff = 0
    good = ["name=good", f"cmd={sys.executable} {FAKE} --mode legal"]
    for mode, extra, limit in [
        ("illegal", "--after 1", ["--nodes", "100"]),
        ("hang", "", ["--movetime", "100", "--margin-ms", "100", "--stop-grace-ms", "200"]),
        ("crash", "--after 2", ["--nodes", "100"]),
        ("garbage", "--after 1", ["--nodes", "100"]),
    ]:
        bad = [f"name={mode}", f"cmd={sys.executable} {FAKE} --mode {mode} {extra}"]
        print(f"forfeits: fake engine '{mode}' against a legal one, 2 games")
        ours, theirs = play_both(args, [bad, good], ["--games", "2", "--quiet", *limit], tmp, mode)
        diff += compare(ours, theirs, mode)
    return diff


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    p.add_argument("check", nargs="?", choices=("all", "games", "forfeits"), default="all")
    p.add_argument("--xqmatch", default=DEFAULT_XQMATCH, help="xqmatch's folder (default: $XQMATCH)")
    p.add_argument("--lab", default=LAB, help="the jiang-lab binary (default %(default)s)")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--nodes", type=int, default=600)
    p.add_argument("--openings", help="openings file (default: xqmatch's openings.epd)")
    p.add_argument("--opening-offset", type=int, default=100)
    p.add_argument("--no-capture-plies", type=int, default=100,
                   help="both runners adjudicate a draw after N plies without capture (default 100, "
                        "Fairy-Stockfish's own rule; 0: each runner's rules)")
    p.add_argument("--engine-a", nargs="+", metavar="KEY=VALUE",
                   help="engine A (default jiang, UseNNUE=false)")
    p.add_argument("--engine-b", nargs="+", metavar="KEY=VALUE",
                   help="engine B (default jiang, UseNNUE=false RepetitionJudge=false)")
    args = p.parse_args()
    if not args.xqmatch or not os.path.isfile(os.path.join(args.xqmatch, "xqmatch.py")):
        raise SystemExit(f"no xqmatch.py in {args.xqmatch}: this check needs xqmatch (see --xqmatch)")
    for path in (args.lab, JIANG):
        if not os.path.exists(path):
            raise SystemExit(f"{path} is missing: cargo build --release --workspace first")
    diff = 0
    with tempfile.TemporaryDirectory(prefix="jiang-compare-") as tmp:
        if args.check in ("all", "games"):
            diff += check_games(args, tmp)
        if args.check in ("all", "forfeits"):
            diff += check_forfeits(args, tmp)
    print("AGREE: the two runners played the same games" if diff == 0 else f"DISAGREE: {diff} differences")
    return 0 if diff == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
