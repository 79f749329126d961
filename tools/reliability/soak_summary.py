#!/usr/bin/env python3
"""Combines match JSON files (soak runs of jiang-lab match --json) into one table: per run
and in total, jiang's W/D/L, illegal moves, time losses, crashes, bad replies, and the
longest move (with the game and ply it was in).

    python3 tools/reliability/soak_summary.py target/soak/fsf/*.json
"""
import json
import sys


def main(paths):
    rows = []
    total = dict(games=0, w=0, d=0, l=0, illegal=0, time=0, crash=0, bad=0, aborted=0)
    longest = (0.0, None)
    for path in paths:
        with open(path) as f:
            d = json.load(f)
        s = d["settings"]
        eng = d["engines"]
        # jiang is the engine whose name is 'jiang' (A by convention).
        key = "A" if eng["A"]["name"].startswith("jiang") else "B"
        p = d["per_engine"][key]
        control = s.get("time_control", "?")
        row = dict(
            run=path.rsplit("/", 1)[-1].removesuffix(".json"),
            control=control,
            proto=eng[key]["proto"],
            games=d["games"],
            w=p["wins"], d=p["draws"], l=p["losses"],
            illegal=p["illegal_moves"], time=p["time_losses"], crash=p["crashes"],
            bad=p["bad_replies"], aborted=d.get("aborted_games", 0),
            max_ms=p["max_move_ms"], median_ms=p["median_move_ms"],
            depth=p["avg_depth"],
        )
        rows.append(row)
        for k in total:
            total[k] += row[k]
        name = eng[key]["name"]
        for g in d["game_list"]:
            colour = "red" if g["red"] == name else "black"
            for ply, m in enumerate(g["moves"], 1):
                if m.get("side") == colour and m.get("ms") is not None and m["ms"] > longest[0]:
                    longest = (m["ms"], f"{row['run']} game {g['game']} ply {ply} ({m['move']}, "
                                        f"depth {m.get('depth')}) fen {g['fen']}")
    head = ("run", "control", "proto", "games", "W", "D", "L", "illegal", "time loss",
            "crash", "bad reply", "max ms", "median ms", "avg depth")
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for r in rows:
        print(f"| {r['run']} | {r['control']} | {r['proto']} | {r['games']} | {r['w']} | {r['d']} "
              f"| {r['l']} | {r['illegal']} | {r['time']} | {r['crash']} | {r['bad']} "
              f"| {r['max_ms']:.0f} | {r['median_ms']:.0f} | {r['depth']:.1f} |")
    t = total
    print(f"| total | | | {t['games']} | {t['w']} | {t['d']} | {t['l']} | {t['illegal']} "
          f"| {t['time']} | {t['crash']} | {t['bad']} | {max((r['max_ms'] for r in rows), default=0):.0f} | | |")
    if t["aborted"]:
        print(f"aborted (unscored) games: {t['aborted']}")
    print(f"longest jiang move: {longest[0]:.0f} ms: {longest[1]}")
    return 0 if t["illegal"] + t["time"] + t["crash"] + t["bad"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
