#!/usr/bin/env python3
"""Engine-against-engine Xiangqi matches on a Dask cluster, a pair of games per task.

    python3 tools/cluster/match.py --games 200 --nodes 2000 \\
        --engine name=nnue cmd=target/release/jiang \\
        --engine name=hce cmd=target/release/jiang option.UseNNUE=false \\
        --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --json match.json

Each task is one opening played twice with colours swapped (game 2i+1: engine A red, game
2i+2: engine B red, opening i of --openings, cycling, after --opening-offset), run on a worker
by the project's match runner (`jiang-lab match --games 2` on a one-line openings file), which
referees every move with jiang's rules library and counts forfeits. So a match here plays
exactly the games `jiang-lab match` plays with the same openings and settings; every game uses
fresh engine processes (`restart=on` is added unless an engine says otherwise), so a game's
moves do not depend on the games played before it by the same process.

Results are counted as pairs arrive; with --sprt the stop rule (GSPRT, trinomial, logistic
Elo) is checked after each pair, and when it decides the pairs not finished are cancelled
(their games are not counted). The report: W/D/L of engine A, Elo (A - B) with its 95 % error,
illegal moves, time losses, crashes, bad replies, the longest move; --json writes it with every
game.

What travels to the workers: the jiang-lab binary (--lab, default this checkout's release
build) and each engine command's program when it is a file here (cached on the workers by
SHA-256; --worker-lab PATH and --no-ship run what the workers have instead). Workers need
Python with `distributed`.
"""

import argparse
import json
import math
import os
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_common as cc  # noqa: E402

DEFAULT_LAB = os.path.join(cc.REPO, "target", "release", "jiang-lab")
DEFAULT_OPENINGS = os.path.join(cc.REPO, "tools", "match", "openings.epd")


def run_pair(pair, fen, lab, engines, limit, extra, lab_data, *bins):
    """On a worker: plays opening `fen` twice (A red, then B red) with `jiang-lab match`. `lab`
    is the shipped binary's SHA-256 (its bytes in `lab_data`) or, with `lab_data` None, a path
    or name on the worker."""
    import tempfile

    path = cc.worker_file(lab_data, lab, "jiang-lab") if lab_data is not None else lab
    argv = [path, "match"]
    for items, ship in engines:
        if ship is not None:
            idx, sha, name, rest = ship
            path = cc.worker_file(bins[idx], sha, name)
            items = [*items, "cmd=" + shlex.join([path, *rest])]
        argv += ["--engine", *items]
    with tempfile.TemporaryDirectory(prefix="jiang-match-") as td:
        openings = os.path.join(td, "opening.epd")
        with open(openings, "w", encoding="utf-8") as f:
            f.write(fen + "\n")
        out = os.path.join(td, "pair.json")
        argv += ["--games", "2", "--openings", openings, "--json", out, "--quiet"]
        argv += [*limit, *extra]
        rc, stdout, err = cc.run_child(argv, cwd=td)
        if rc != 0 or not os.path.exists(out):
            tail = (err or stdout.decode("utf-8", "replace")).strip().splitlines()[-4:]
            raise RuntimeError(f"pair {pair}: jiang-lab match exited with {rc}: {' | '.join(tail)}")
        with open(out, encoding="utf-8") as f:
            d = json.load(f)
    games = []
    for g in d["game_list"]:
        moves = g.get("moves", [])
        longest = max(moves, key=lambda m: m.get("ms") or 0, default=None)
        games.append(
            {
                "game": 2 * pair + g["game"],
                "opening": pair,
                "fen": g["fen"],
                "red": g["red"],
                "black": g["black"],
                "result": g["result"],
                "reason": g["reason"],
                "kind": g.get("kind"),
                "forfeit": g.get("forfeit"),
                "plies": g["plies"],
                "longest_ms": longest.get("ms") if longest else None,
                "longest_side": longest.get("side") if longest else None,
                "moves": [m["move"] for m in moves],
            }
        )
    return {
        "pair": pair,
        "result_A": d["result_A"],
        "per_engine": d["per_engine"],
        "aborted_games": d.get("aborted_games", 0),
        "games": games,
    }


# --- statistics (logistic Elo, trinomial model) ---


def score_of(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of(s):
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def elo_interval(w, d, l):
    """(Elo, lower, upper) of the 95 % interval; None when no game was played."""
    n = w + d + l
    if n == 0:
        return None
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    half = 1.959964 * math.sqrt(var / n)
    return elo_of(s), elo_of(s - half), elo_of(s + half)


def sprt_llr(w, d, l, elo0, elo1):
    """GSPRT log-likelihood ratio (normal approximation, trinomial); None before a win, a draw
    and a loss (the variance is not known)."""
    n = w + d + l
    if w == 0 or d == 0 or l == 0:
        return None
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    s0, s1 = score_of(elo0), score_of(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


def parse_sprt(items):
    v = {"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05}
    for it in items:
        k, sep, x = it.partition("=")
        if not sep or k not in v:
            raise SystemExit(f"match.py: bad --sprt item {it!r} (elo0= elo1= alpha= beta=)")
        v[k] = float(x)
    v["lower"] = math.log(v["beta"] / (1 - v["alpha"]))
    v["upper"] = math.log((1 - v["beta"]) / v["alpha"])
    return v


def fmt_elo(e):
    if e is None:
        return "-"
    elo, lo, hi = e
    if math.isinf(elo):
        return f"{elo:+}"
    err = (hi - lo) / 2 if not (math.isinf(lo) or math.isinf(hi)) else math.inf
    return f"{elo:+.1f} +/- {err:.1f}"


# --- the client ---


def load_openings(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if s and not s.startswith("#"):
                out.append(s)
    if not out:
        raise SystemExit(f"match.py: no openings in {path}")
    return out


def parse_args(argv):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[1:3]),
    )
    p.add_argument(
        "--engine",
        nargs="+",
        action="append",
        required=True,
        metavar="KEY=VALUE",
        help="an engine as jiang-lab match takes it (name=, cmd=, option.NAME=VALUE, proto=, ...); twice",
    )
    p.add_argument("--each", nargs="+", default=[], metavar="KEY=VALUE", help="items for both")
    p.add_argument("--games", type=int, required=True, help="games (even: pairs of games)")
    lim = p.add_mutually_exclusive_group(required=True)
    lim.add_argument("--nodes", type=int, help="fixed nodes per move")
    lim.add_argument("--depth", type=int, help="fixed depth per move")
    lim.add_argument("--movetime", type=int, metavar="MS", help="fixed time per move")
    lim.add_argument("--tc", help="Fischer clock BASE+INC in seconds")
    p.add_argument("--openings", default=DEFAULT_OPENINGS,
                   help="one FEN a line (default tools/match/openings.epd)")
    p.add_argument("--opening-offset", type=int, default=0, help="skip this many openings first")
    p.add_argument("--sprt", nargs="+", metavar="K=V", help="elo0= elo1= alpha= beta= (stop rule)")
    p.add_argument(
        "--match-args",
        default="",
        metavar="ARGS",
        help="more jiang-lab match arguments for every pair, e.g. '--draw-plies 200 --max-move-ms 5000'",
    )
    p.add_argument("--lab", default=DEFAULT_LAB, help="the jiang-lab binary shipped to the workers "
                   "(default: this checkout's release build)")
    p.add_argument("--worker-lab", help="do not ship jiang-lab: run this path/name on the workers")
    p.add_argument("--no-ship", action="store_true", help="run engine commands as the workers find them")
    p.add_argument("--json", help="write the report and every game to this file")
    p.add_argument("--retries", type=int, default=2, help="reruns of a failed pair (default 2)")
    cc.add_cluster_args(p)
    a = p.parse_args(argv)
    if len(a.engine) != 2:
        p.error("give exactly two --engine")
    if a.games < 2 or a.games % 2:
        p.error("--games must be even and positive (games come in pairs)")
    return a


def engine_spec(items, no_ship, shipped):
    """Splits an engine's items: its program (cmd='s first word) is shipped when it is a file
    here. Returns (items without cmd=, ship or None) and appends to `shipped` (path list)."""
    keep, cmd = [], None
    for it in items:
        k, sep, v = it.partition("=")
        if not sep:
            raise SystemExit(f"match.py: bad engine item {it!r} (KEY=VALUE)")
        if k == "cmd":
            cmd = v
        else:
            keep.append(it)
    if not any(it.startswith("restart=") for it in keep):
        keep.append("restart=on")
    if cmd is None:
        raise SystemExit("match.py: an engine needs cmd=")
    words = shlex.split(cmd)
    prog = words[0] if words else ""
    if no_ship or not os.path.isfile(prog):
        return keep + ["cmd=" + cmd], None
    prog = os.path.abspath(prog)
    if prog not in shipped:
        shipped.append(prog)
    return keep, (shipped.index(prog), None, os.path.basename(prog), words[1:])


def main(argv=None):
    a = parse_args(argv)
    if not a.worker_lab and not os.path.isfile(a.lab):
        raise SystemExit(f"match.py: no {a.lab}: cargo build --release -p jiang-lab (or --lab, --worker-lab)")
    openings = load_openings(a.openings)
    limit = (
        ["--nodes", str(a.nodes)]
        if a.nodes
        else ["--depth", str(a.depth)]
        if a.depth
        else ["--movetime", str(a.movetime)]
        if a.movetime
        else ["--tc", a.tc]
    )
    extra = a.match_args.split()
    if a.each:
        extra += ["--each", *a.each]
    sprt = parse_sprt(a.sprt) if a.sprt else None
    shipped = []
    engines = [engine_spec(e, a.no_ship, shipped) for e in a.engine]
    npairs = a.games // 2

    cc.by_value()
    client, cluster = cc.start_client(a)
    if a.worker_lab:
        lab, lab_fut = a.worker_lab, None
    else:
        with open(a.lab, "rb") as f:
            lab_bytes = f.read()
        lab = cc.sha256(lab_bytes)
        lab_fut = cc.ship(client, lab_bytes, "jiang-lab")
        print(f"match: shipping {a.lab} (sha256 {lab[:16]}) to the workers", file=sys.stderr)
    bin_futs = []
    for i, path in enumerate(shipped):
        with open(path, "rb") as f:
            data = f.read()
        sha = cc.sha256(data)
        bin_futs.append(cc.ship(client, data, f"engine{i}"))
        for j, (items, ship) in enumerate(engines):
            if ship is not None and ship[0] == i:
                engines[j] = (items, (i, sha, ship[2], ship[3]))
        print(f"match: shipping {path} (sha256 {sha[:16]}) to the workers", file=sys.stderr)
    nworkers = len(client.scheduler_info().get("workers", {})) or 1
    print(
        f"match: {a.games} games ({npairs} pairs), {' '.join(limit)}, {len(openings)} openings "
        f"from offset {a.opening_offset}; {nworkers} workers ({a.scheduler or 'local cluster'})",
        file=sys.stderr,
    )

    from dask.distributed import as_completed

    stamp = time.time_ns()
    futures = {}
    for p in range(npairs):
        fen = openings[(a.opening_offset + p) % len(openings)]
        f = client.submit(
            run_pair,
            p,
            fen,
            lab,
            engines,
            limit,
            extra,
            lab_fut,
            *bin_futs,
            key=f"match-pair-{p}-{stamp}",
            pure=False,
            retries=a.retries,
        )
        futures[f] = p

    bar = cc.Progress(a.games, "games", "games")
    w = d = l = 0
    per = {"A": {}, "B": {}}
    names = {}
    games = []
    failed = []
    stop_reason = None
    llr = None
    counted = ("illegal_moves", "time_losses", "crashes", "bad_replies", "resignations", "moves")
    longest = {"A": (0.0, None), "B": (0.0, None)}
    for fut in as_completed(list(futures)):
        p = futures[fut]
        if fut.status != "finished":
            if fut.status != "cancelled":
                failed.append(p)
                print(f"\nmatch: pair {p} failed: {fut.exception()}", file=sys.stderr)
            continue
        if stop_reason is not None:
            continue  # finished after the SPRT decided: not counted
        r = fut.result()
        w += r["result_A"]["wins"]
        d += r["result_A"]["draws"]
        l += r["result_A"]["losses"]
        for side in ("A", "B"):
            pe = r["per_engine"][side]
            names[side] = pe["name"]
            for k in counted:
                per[side][k] = per[side].get(k, 0) + pe.get(k, 0)
        for g in r["games"]:
            games.append(g)
            if g["longest_ms"] is not None and g["longest_side"] is not None:
                name = g[g["longest_side"]]
                side = "A" if name == names.get("A") else "B"
                if g["longest_ms"] > longest[side][0]:
                    longest[side] = (g["longest_ms"], g["game"])
        e = elo_interval(w, d, l)
        extra_txt = f"  A: +{w} ={d} -{l}  Elo {fmt_elo(e)}"
        if sprt:
            llr = sprt_llr(w, d, l, sprt["elo0"], sprt["elo1"])
            if llr is not None:
                extra_txt += f"  LLR {llr:.2f} [{sprt['lower']:.2f}, {sprt['upper']:.2f}]"
                if llr >= sprt["upper"] or llr <= sprt["lower"]:
                    stop_reason = "SPRT: H1 accepted" if llr >= sprt["upper"] else "SPRT: H0 accepted"
                    left = [f for f in futures if not f.done()]
                    client.cancel(left)
                    extra_txt += f"  {stop_reason}, {len(left)} pairs cancelled"
        bar.update(w + d + l, w + d + l, extra_txt)
    bar.close()
    elapsed = time.monotonic() - bar.start
    client.close()
    if cluster is not None:
        cluster.close()

    games.sort(key=lambda g: g["game"])
    n = w + d + l
    e = elo_interval(w, d, l)
    lines = [
        "=== cluster match ===",
        f"A: {names.get('A', '?')}   B: {names.get('B', '?')}   ({' '.join(limit)})",
        f"Games: {n} finished of {a.games} requested in {elapsed:.1f} s"
        + (f" ({stop_reason})" if stop_reason else "")
        + (f"; {len(failed)} pairs failed" if failed else ""),
        f"Result for A: W {w} / D {d} / L {l}   score {100 * (w + d / 2) / n if n else 0:.1f}%",
        f"Elo A - B: {fmt_elo(e)} (95%)",
    ]
    if sprt:
        lines.append(
            f"SPRT elo0={sprt['elo0']:g} elo1={sprt['elo1']:g} alpha={sprt['alpha']:g} "
            f"beta={sprt['beta']:g}: LLR {'-' if llr is None else f'{llr:.2f}'} "
            f"[{sprt['lower']:.2f}, {sprt['upper']:.2f}] {stop_reason or 'no decision'}"
        )
    lines.append(f"{'per engine':<22}{names.get('A', 'A'):>14}{names.get('B', 'B'):>14}")
    for k in counted:
        lines.append(f"{k.replace('_', ' '):<22}{per['A'].get(k, 0):>14}{per['B'].get(k, 0):>14}")
    lm = [f"{longest[s][0]:.0f} (game {longest[s][1]})" if longest[s][1] else "-" for s in "AB"]
    lines.append(f"{'longest move (ms)':<22}{lm[0]:>14}{lm[1]:>14}")
    print("\n".join(lines))
    if a.json:
        report = {
            "tool": "jiang tools/cluster/match.py",
            "settings": {
                "games_requested": a.games,
                "limit": limit,
                "openings": a.openings,
                "opening_offset": a.opening_offset,
                "match_args": extra,
                "engines": a.engine,
                "workers": nworkers,
                "scheduler": a.scheduler,
            },
            "elapsed_s": round(elapsed, 1),
            "stop_reason": stop_reason,
            "failed_pairs": failed,
            "result_A": {"wins": w, "draws": d, "losses": l},
            "elo_A_minus_B": None if e is None else e[0],
            "elo_interval95": None if e is None else [e[1], e[2]],
            "sprt": None if not sprt else {**sprt, "llr": llr},
            "per_engine": {
                s: {"name": names.get(s), **per[s], "longest_move_ms": longest[s][0]} for s in "AB"
            },
            "game_list": games,
        }
        cc.atomic_write(a.json, json.dumps(report, indent=1, default=str).encode())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
