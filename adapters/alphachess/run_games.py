"""Plays jiang in the AlphaChess harness with its timeout on, and reports every game.

    python3 adapters/alphachess/run_games.py HARNESS_DIR --opponent random|jiang
        [--games N] [--movetime MS] [--log FILE]

HARNESS_DIR is a checkout of the harness (LUNAA77/Alpha_Chess). Games go through the
harness's own `play_headless_game(red, black, timeout=True)`: each move in a child process
with 10.5 s of wall time, an illegal action or a timeout losing at once. Against the
random player (the harness's player_1) jiang takes Red in even-numbered games and Black in
odd ones. The wall time of each of jiang's moves is measured around the harness's
`get_player_action_with_timeout` (process start to result, what its limit applies to).
The engine is $JIANG or target/release/jiang; the movetime sets JIANG_MOVETIME_MS.
"""

import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def adapter_notes(fd, start):
    """The adapter's notes (`[player_jiang] ...` lines: jiang failed, was late or proposed
    a move the harness refuses, and a move of the harness's list was played) written to
    the log since offset `start`."""
    end = os.lseek(fd, 0, os.SEEK_END)
    text = os.pread(fd, end - start, start).decode(errors="replace")
    return [line for line in text.splitlines() if line.startswith("[player_jiang]")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("harness")
    parser.add_argument("--opponent", choices=["random", "jiang"], default="random")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--movetime", type=int, default=None)
    parser.add_argument("--log", help="file for the adapter's stderr (its notes; default: a temporary file)")
    args = parser.parse_args()

    # Children inherit descriptor 2: the adapter's notes from every move land in the log,
    # where each game's are counted (a note means jiang's own move was not played).
    if args.log:
        log_fd = os.open(args.log, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    else:
        log_fd, log_path = tempfile.mkstemp(prefix="player_jiang-", suffix=".log")
        os.unlink(log_path)
    os.dup2(log_fd, 2)
    if args.movetime is not None:
        os.environ["JIANG_MOVETIME_MS"] = str(args.movetime)
    os.environ.setdefault("JIANG", os.path.abspath(os.path.join(HERE, "..", "..", "target", "release", "jiang")))
    harness = os.path.abspath(args.harness)
    sys.path.insert(0, HERE)
    sys.path.insert(0, harness)
    os.chdir(harness)
    import headless_game
    import player_jiang as pj
    from player_1 import player_1

    times = []
    original = headless_game.get_player_action_with_timeout

    def timed(board, player):
        start = time.monotonic()
        action = original(board, player)
        if isinstance(player, pj.Player):
            times.append(time.monotonic() - start)
        return action

    headless_game.get_player_action_with_timeout = timed

    movetime = os.environ.get("JIANG_MOVETIME_MS", pj.DEFAULT_MOVETIME_MS)
    print(f"jiang {os.environ['JIANG']}, movetime {movetime} ms, opponent {args.opponent}", flush=True)
    print("| game | red | black | winner | plies | jiang moves | slowest jiang move (s) | adapter notes | harness's text |")
    print("|---|---|---|---|---|---|---|---|---|", flush=True)
    totals = {"red won": 0, "black won": 0, "draw": 0, "jiang lost by illegal action": 0,
              "jiang lost by timeout": 0, "adapter notes": 0}
    all_times = []
    for game in range(args.games):
        if args.opponent == "jiang":
            red, black = pj.Player("red"), pj.Player("black")
            names = ("jiang", "jiang")
        elif game % 2 == 0:
            red, black = pj.Player("red"), player_1.Player("black")
            names = ("jiang", "random")
        else:
            red, black = player_1.Player("red"), pj.Player("black")
            names = ("random", "jiang")
        times.clear()
        log_start = os.lseek(log_fd, 0, os.SEEK_END)
        winner, text, history = headless_game.play_headless_game(red, black, timeout=True)
        for p in (red, black):
            if isinstance(p, pj.Player) and p.engine is not None:
                p.engine.close()
        all_times += times
        loser_name = {"red": names[1], "black": names[0]}.get(winner)
        if "illegally" in text and loser_name == "jiang":
            totals["jiang lost by illegal action"] += 1
        if "timeout" in text and loser_name == "jiang":
            totals["jiang lost by timeout"] += 1
        totals["draw" if winner == "draw" else f"{winner} won"] += 1
        if args.opponent == "random" and winner != "draw":
            key = "jiang won" if names[("red", "black").index(winner)] == "jiang" else "jiang lost"
            totals[key] = totals.get(key, 0) + 1
        notes = adapter_notes(log_fd, log_start)
        totals["adapter notes"] += len(notes)
        slowest = max(times) if times else 0.0
        print(f"| {game + 1} | {names[0]} | {names[1]} | {winner} | {len(history)} | {len(times)} "
              f"| {slowest:.2f} | {len(notes)} | {text} |", flush=True)
        for note in notes:
            print(f"    {note}", flush=True)
    all_times.sort()
    n = len(all_times)
    print(f"\ntotals: {totals}")
    if n:
        print(f"jiang moves {n}: median {all_times[n // 2]:.2f} s, slowest {all_times[-1]:.2f} s, "
              f"over 9 s: {sum(t > 9 for t in all_times)}")


if __name__ == "__main__":
    main()
