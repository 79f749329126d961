"""Cross-checks jiang's `Rules alphachess` with the AlphaChess harness's own rules.

Plays random games with the harness's `get_legal_actions` (biased towards repeated checks
by one piece, so that the history rule comes up, and towards quiet moves, so that the
120-ply draw does) and, at every ply, compares jiang's `moves` with the harness's legal
actions for the same history, and jiang's `result` with how the harness ends the game.

    python3 adapters/alphachess/validate_rules.py HARNESS_DIR [--games N] [--seed S]

HARNESS_DIR is a checkout of the harness (LUNAA77/Alpha_Chess, with utils.py); the engine
is $JIANG or target/release/jiang. Exit status 1 on any disagreement, each one printed
with the position command that shows it.
"""

import argparse
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import player_jiang as pj  # noqa: E402


def engine_moves_and_result(engine, position):
    engine.send(position)
    engine.send("moves")
    engine.send("result")
    deadline = time.monotonic() + 10
    moves = None
    while True:
        line = engine.read_line(deadline)
        if line.startswith("info string position refused"):
            raise pj.EngineError(line)
        if " legal moves:" in line:
            moves = set(line.split(":", 1)[1].split())
        elif moves is not None:
            return moves, line


def gives_direct_check(utils, board, action, side):
    ox, oy, nx, ny = action
    piece = board[ox][oy]
    captured = board[nx][ny]
    board[nx][ny], board[ox][oy] = piece, 0
    kx, ky = utils.get_King_location(board, pj.other(side))
    checks = utils.rule(board, piece, nx, ny, kx, ky)
    board[ox][oy], board[nx][ny] = piece, captured
    return checks


def pick(utils, rng, board, side, history, legal, style):
    """A random legal action; the style biases it towards checks and quiet moves."""
    if style["check"] > rng.random():
        checks = [a for a in legal if gives_direct_check(utils, board, a, side)]
        if history and len(history) >= 2:
            last = history[-2]
            same = [a for a in checks if (a[0], a[1]) == (last[2], last[3])]
            if same and rng.random() < 0.8:
                return rng.choice(same)
        if checks:
            return rng.choice(checks)
    if style["quiet"] > rng.random():
        quiet = [a for a in legal if board[a[2]][a[3]] == 0]
        if quiet:
            return rng.choice(quiet)
    return rng.choice(legal)


def expected_result(side_to_move):
    return "0-1" if side_to_move == "red" else "1-0"


def play_one(utils, engine, rng, stats, game_no):
    board = [list(r) for r in utils.init_board()]
    history, side, step = [], "red", 0
    style = {"check": rng.choice([0.0, 0.5, 0.9]), "quiet": rng.choice([0.0, 0.7, 0.95])}
    failures = []
    while True:
        position = pj.position_command(board, side, history)
        moves, result = engine_moves_and_result(engine, position)
        legal = utils.get_legal_actions([list(r) for r in board], side, history)
        stats["plies"] += 1
        if len(history) > 6:
            free = utils.get_legal_actions([list(r) for r in board], side, [])
            if len(free) != len(legal):
                stats["refusing positions"] += 1
        if not legal:
            want = expected_result(side)
            if not result.startswith(want):
                failures.append(f"game {game_no}: harness: no move, {want}; jiang: {result}")
            stats["no move"] += 1
            return failures
        harness = {pj.iccs(a) for a in legal}
        if harness != moves:
            failures.append(
                f"game {game_no} ply {len(history)}: harness only {sorted(harness - moves)}, "
                f"jiang only {sorted(moves - harness)}\n  {position}"
            )
            return failures
        if not result.startswith("*"):
            failures.append(f"game {game_no} ply {len(history)}: jiang ends it: {result}\n  {position}")
            return failures
        action = pick(utils, rng, board, side, history, legal, style)
        captured = board[action[2]][action[3]]
        history.append((*action, captured))
        board[action[2]][action[3]], board[action[0]][action[1]] = board[action[0]][action[1]], 0
        step = 0 if captured else step + 1
        side = pj.other(side)
        if step == 120:
            position = pj.position_command(board, side, history)
            _, result = engine_moves_and_result(engine, position)
            if not result.startswith("1/2-1/2"):
                failures.append(f"game {game_no}: harness draws (120 plies); jiang: {result}\n  {position}")
            stats["120-ply draw"] += 1
            return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("harness")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.path.insert(0, os.path.abspath(args.harness))
    import utils  # the harness's

    if "JIANG" not in os.environ:
        os.environ["JIANG"] = os.path.join(HERE, "..", "..", "target", "release", "jiang")
    engine = pj.Engine(pj.engine_path())
    rng = random.Random(args.seed)
    stats = {"plies": 0, "refusing positions": 0, "no move": 0, "120-ply draw": 0}
    failures = []
    for g in range(args.games):
        failures += play_one(utils, engine, rng, stats, g)
        if (g + 1) % 100 == 0:
            print(f"after {g + 1} games: {stats}, disagreements {len(failures)}", flush=True)
    engine.close()
    print(f"games {args.games} (seed {args.seed}): " + ", ".join(f"{k} {v}" for k, v in stats.items()))
    for f in failures:
        print("DISAGREE", f)
    print(f"disagreements: {len(failures)}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
