#!/usr/bin/env python3
"""The strength ladder: measures the Elo of jiang's playing levels by matches.

Players are named by a short code:

    L<n>   jiang at `Skill Level` n (0-19), told `go depth 30` (its level caps the depth)
    D<d>   the reference opponents: jiang at full strength searching exactly d plies a
           move (through fixed_limit.py), so a reference's strength never depends on the
           machine or its load

A pairing `A:B:G` plays G games between A and B with `jiang-lab match` (colours alternating,
openings from --openings starting at --opening-offset). Each pairing's result is
stored in --out as JSON and reused on a rerun, so an interrupted ladder resumes.

The Elo of every player is then fitted together (Bradley-Terry on the logistic Elo
curve, a draw counting half, by maximum likelihood; one virtual draw is added to each
pairing so that a 100 % score stays finite) with one player fixed by convention:
--anchor (default D1 = 1000, jiang's one-ply search), or several (the references, as
rated by an earlier run, to measure the levels alone). The 95 % error bars come from
the fit's Fisher information.

    python3 tools/xiangqi/ladder.py --engine target/release/jiang \
        --lab target/release/jiang-lab --out ladder-runs \
        --pair L0:L4:100 --pair L4:D1:100 ...
    python3 tools/xiangqi/ladder.py --out ladder-runs --fit-only
"""

import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ELO_K = math.log(10) / 400


def engine_item(code: str, engine: str, python: str) -> list:
    kind, n = code[0], int(code[1:])
    if kind == "L":
        return [f"name={code}", f"cmd={engine}", f"option.Skill Level={n}"]
    if kind == "D":
        wrapper = os.path.join(HERE, "fixed_limit.py")
        return [f"name={code}", f"cmd={python} {wrapper} --depth {n} -- {engine}"]
    raise SystemExit(f"unknown player {code!r}: use L<level> or D<depth>")


def run_pairing(args, a: str, b: str, games: int) -> dict:
    path = os.path.join(args.out, f"{a}-{b}-{games}.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    cmd = [args.lab, "match", "--engine", *engine_item(a, args.engine, args.python)]
    cmd += ["--engine", *engine_item(b, args.engine, args.python)]
    cmd += ["--depth", "30", "--games", str(games), "--concurrency", str(args.concurrency)]
    cmd += ["--openings", args.openings, "--opening-offset", str(args.opening_offset)]
    cmd += ["--json", path + ".part", "--quiet"]
    print(f"{a} vs {b}: {games} games ...", file=sys.stderr, flush=True)
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL)
    if done.returncode != 0:
        raise SystemExit(f"jiang-lab match failed ({done.returncode}) for {a} vs {b}")
    os.replace(path + ".part", path)
    with open(path) as f:
        return json.load(f)


def load_results(out: str) -> list:
    """(a, b, wins of a, draws, losses of a, illegal moves, time losses) per stored run."""
    rows = []
    for name in sorted(os.listdir(out)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(out, name)) as f:
            d = json.load(f)
        a, b = d["engines"]["A"]["name"], d["engines"]["B"]["name"]
        r = d["result_A"]
        pe = d["per_engine"]
        faults = sum(pe[s]["illegal_moves"] + pe[s]["time_losses"] + pe[s]["crashes"] for s in "AB")
        rows.append((a, b, r["wins"], r["draws"], r["losses"], faults))
    return rows


def solve(m: list, v: list) -> list:
    """Gaussian elimination (the systems here are a few dozen unknowns)."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c and a[c][c] != 0:
                f = a[r][c] / a[c][c]
                for k in range(c, n + 1):
                    a[r][k] -= f * a[c][k]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit(rows: list, anchors: dict, prior_draws: float):
    players = sorted({p for r in rows for p in r[:2]}, key=lambda s: (s[0], int(s[1:])))
    anchors = {a: e for a, e in anchors.items() if a in players}
    if not anchors:
        raise SystemExit("none of the anchors played a game")
    reached, frontier = set(anchors), list(anchors)
    while frontier:
        q = frontier.pop()
        for a, b, *_ in rows:
            for x, y in ((a, b), (b, a)):
                if x == q and y not in reached:
                    reached.add(y)
                    frontier.append(y)
    if len(reached) < len(players):
        raise SystemExit(f"no chain of games links {sorted(set(players) - reached)} to the anchor")
    # A few virtual draws per pairing (as BayesElo's prior does) keep a 100 % score finite.
    rows = [(a, b, w, d + prior_draws, l, f) for a, b, w, d, l, f in rows]
    free = [p for p in players if p not in anchors]
    idx = {p: i for i, p in enumerate(free)}
    start = sum(anchors.values()) / len(anchors)
    elo = {p: anchors.get(p, start) for p in players}
    for _ in range(200):  # Newton steps on the log-likelihood
        grad = [0.0] * len(free)
        hess = [[0.0] * len(free) for _ in free]
        for a, b, w, d, l, _ in rows:
            n = w + d + l
            if n == 0:
                continue
            p = 1 / (1 + math.exp(-ELO_K * (elo[a] - elo[b])))
            g = ELO_K * (w + d / 2 - n * p)
            h = ELO_K * ELO_K * n * p * (1 - p)
            for x, sign in ((a, 1), (b, -1)):
                if x in idx:
                    grad[idx[x]] += sign * g
                    hess[idx[x]][idx[x]] += h
            if a in idx and b in idx:
                hess[idx[a]][idx[b]] -= h
                hess[idx[b]][idx[a]] -= h
        step = solve([r[:] for r in hess], grad)
        for p, s in zip(free, step):
            elo[p] += max(-400.0, min(400.0, s))
        if max(abs(s) for s in step) < 1e-6:
            break
    # Variances: the diagonal of the inverse Fisher information.
    err = {a: 0.0 for a in anchors}
    for p in free:
        e = [0.0] * len(free)
        e[idx[p]] = 1.0
        col = solve([r[:] for r in hess], e)
        err[p] = 1.96 * math.sqrt(max(col[idx[p]], 0.0))
    return players, elo, err


def main() -> int:
    p = argparse.ArgumentParser(description="Measure jiang's playing levels on a ladder of fixed-depth references.")
    p.add_argument("--engine", default="target/release/jiang", help="the jiang binary")
    p.add_argument("--lab", default="target/release/jiang-lab", help="the jiang-lab binary (its match runner)")
    p.add_argument("--python", default=sys.executable, help="the Python that runs the fixed-depth wrapper")
    p.add_argument("--openings", default=os.path.join(HERE, "..", "match", "openings.epd"),
                   help="openings file (default: tools/match/openings.epd)")
    p.add_argument("--opening-offset", type=int, default=0, help="first opening used")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--out", required=True, help="folder of the pairings' results (reused on a rerun)")
    p.add_argument("--pair", action="append", default=[], help="A:B:GAMES, e.g. L4:D2:100 (repeatable)")
    p.add_argument(
        "--anchor",
        default="D1=1000",
        help="the players whose Elo is fixed: NAME=ELO[,NAME=ELO...] (the ladder's convention is "
        "D1=1000; to measure levels against references rated earlier, fix all of those)",
    )
    p.add_argument("--prior-draws", type=float, default=1.0, help="virtual draws added to each pairing")
    p.add_argument("--fit-only", action="store_true", help="fit what --out holds, play nothing")
    p.add_argument("--json", help="write the fitted ratings here")
    args = p.parse_args()
    args.engine = os.path.abspath(args.engine)
    args.lab = os.path.abspath(args.lab)
    args.openings = os.path.abspath(args.openings)
    os.makedirs(args.out, exist_ok=True)
    if not args.fit_only:
        for spec in args.pair:
            try:
                a, b, games = spec.split(":")
                run_pairing(args, a, b, int(games))
            except ValueError:
                raise SystemExit(f"bad --pair {spec!r}: want A:B:GAMES")
    rows = load_results(args.out)
    if not rows:
        raise SystemExit("no results to fit")
    try:
        anchors = {a: float(e) for a, e in (item.split("=") for item in args.anchor.split(","))}
    except ValueError:
        raise SystemExit(f"bad --anchor {args.anchor!r}: want NAME=ELO[,NAME=ELO...]")
    players, elo, err = fit(rows, anchors, args.prior_draws)
    print("pairing            W    D    L   score  faults")
    for a, b, w, d, l, faults in rows:
        n = w + d + l
        print(f"{a:>5} - {b:<5}  {w:4} {d:4} {l:4}  {(w + d / 2) / n:6.3f}  {faults}")
    print("\nplayer    Elo    ±95%   games")
    games = {q: sum(r[2] + r[3] + r[4] for r in rows if q in r[:2]) for q in players}
    for q in players:
        print(f"{q:<6} {elo[q]:6.0f}  {err[q]:6.0f}   {games[q]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({q: {"elo": round(elo[q], 1), "err95": round(err[q], 1), "games": games[q]} for q in players}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
