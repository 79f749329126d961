"""Runs TeamJiang in the CO 456 Microchess Tournament (a copy of the harness, fetched
outside the repository) and summarises jiang's series.

    python3 adapters/microchess/run_tournament.py HARNESS_DIR WORK_DIR [--boards N]
        [--players TeamMonkey,TeamNihilist,...] [--time-scale K]

HARNESS_DIR is a checkout of the harness (zoetian/CO456: Tournament.java, Player.java…).
WORK_DIR receives a fresh copy with TeamJiang.java added and registered in
Tournament.registerPlayers (the one line a student adds), a playermanifest.txt with
TeamJiang and the players given (default: the Horde), and a small RunTournament class
that sets the number of boards per series (the harness's default is 38 plus a
geometric number) before calling Tournament.main. On a loaded machine, --time-scale K
multiplies the copy's time limits (Parameters.TIME_LIMIT_*, 0.1 s a move) and TeamJiang's
wait for an answer (JIANG_ANSWER_TIMEOUT_MS, 60 ms) by K: no player's moves depend on
time, so the payoffs are those of the real limits, without the fallbacks and aborted
matches that a starved process causes. The engine is $JIANG or
target/release/jiang. Prints the tournament's ranking and, for each of jiang's series,
its results and average payoffs; then every match jiang lost, each with jiang's guaranteed
(maximin) payoff at its start, asked from the engine: a loss from a start whose guarantee
is 0 is lost under perfect play, any other is a mistake and listed as unexplained (and
counted with every match where jiang got less than its guarantee; with RiskTies, which
TeamJiang sets unless JIANG_RISK_TIES=false, less than a draw where a tie was
guaranteed), and what became of the starts jiang was guaranteed a tie from. Exit status 1
if TeamJiang fell back on its own moves, broke a time limit, got less than that in a
match, or the tournament failed.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HORDE = [
    "TeamMonkey",
    "TeamNihilist",
    "TeamRationalOptimist",
    "TeamRationalPessimist",
    "TeamRationalQueller",
    "TeamRationalRealist",
    "TeamRationalScrapper",
    "TeamRationalTruster",
    "TeamRationalUtilitarian",
]
REGISTER = 'playerFactory.registerPlayer("TeamJiang", i -> new TeamJiang(i));'
DRIVER = """public class RunTournament {
    public static void main(String[] args) throws Exception {
        Parameters.MIN_NUM_DIFFERENT_BOARDS = Integer.parseInt(args[0]);
        Tournament.main(new String[0]);
    }
}
"""


def prepare(harness, work, players, boards, time_scale=1.0):
    copy = os.path.join(work, "harness")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(harness, copy, ignore=shutil.ignore_patterns(".git", "*.class"))
    shutil.copy(os.path.join(HERE, "TeamJiang.java"), copy)
    tournament = os.path.join(copy, "Tournament.java")
    with open(tournament) as f:
        text = f.read()
    marker = "private void registerPlayers() {"
    if marker not in text:
        sys.exit(f"{tournament}: no registerPlayers() to add TeamJiang to")
    text = text.replace(marker, marker + "\n\t\t" + REGISTER, 1)
    with open(tournament, "w") as f:
        f.write(text)
    if time_scale != 1.0:
        parameters = os.path.join(copy, "Parameters.java")
        with open(parameters) as f:
            text = f.read()
        text = re.sub(r"(TIME_LIMIT_\w+\s*=\s*)([\d.]+)",
                      lambda m: f"{m.group(1)}{float(m.group(2)) * time_scale}", text)
        with open(parameters, "w") as f:
            f.write(text)
    with open(os.path.join(copy, "playermanifest.txt"), "w") as f:
        f.write("".join(f"{name}\n1\n" for name in ["TeamJiang"] + players))
    with open(os.path.join(copy, "RunTournament.java"), "w") as f:
        f.write(DRIVER)
    sources = sorted(n for n in os.listdir(copy) if n.endswith(".java"))
    subprocess.run(["javac", "-nowarn", *sources], cwd=copy, check=True, capture_output=True)
    return copy


def jiang_series(output):
    """(opponent, results W/L/T/D counts, jiang's average, the opponent's average) of
    every series TeamJiang played."""
    series = []
    for block in output.split("Starting new series:")[1:]:
        teams = dict(re.findall(r"Team (\d): (\S+)", block))
        if "TeamJiang" not in teams.values():
            continue
        us = next(k for k, v in teams.items() if v == "TeamJiang")
        opponent = teams["1" if us == "0" else "0"]
        outcome = re.search(r"Outcome:\s+(.*)", block).group(1).replace(" ", "")
        counts = {"W": 0, "L": 0, "T": 0, "D": 0, "A": 0}
        for c in outcome:
            counts["W" if c == us else "L" if c.isdigit() else c] += 1
        payoff = dict(re.findall(r"Average payoff of player (\S+): ([\d.]+)", block))
        series.append((opponent, counts, float(payoff["TeamJiang"]), float(payoff[opponent])))
    return series


def jiang_matches(logs):
    """(white, black, start FEN, payoffs) of every match of the harness's match log
    (logs/logs.tex: each match's players, its boards as LaTeX `setpieces` and payoffs)."""
    matches = []
    for block in logs.split("Starting match:")[1:]:
        white = re.search(r"White player: (\S+)", block).group(1)
        black = re.search(r"Black player: (\S+)", block).group(1)
        payoffs = re.search(r"Payoffs \(white, black\): \(([\d.]+), ([\d.]+)\)", block)
        pieces = re.search(r"setpieces=\{([^}]*)\}", block)
        if "TeamJiang" not in (white, black) or not payoffs or not pieces:
            continue
        board = [["1"] * 4 for _ in range(4)]
        for piece in pieces.group(1).split(","):
            piece = piece.strip()
            board[int(piece[2]) - 1]["abcd".index(piece[1])] = piece[0]
        ranks = []
        for rank in reversed(board):
            text = re.sub(r"1+", lambda m: str(len(m.group(0))), "".join(rank))
            ranks.append(text)
        fen = "/".join(ranks) + " w - - 0 1"
        matches.append((white, black, fen, (float(payoffs.group(1)), float(payoffs.group(2)))))
    return matches


def guarantees(engine, fens):
    """jiang's guaranteed payoffs (White's, Black's) of each start FEN."""
    script = "uci\nsetoption name UCI_Variant value microchess\nisready\n"
    script += "".join(f"position fen {fen}\ngo\n" for fen in fens) + "quit\n"
    out = subprocess.run([engine], input=script, capture_output=True, text=True, timeout=600).stdout
    found = [tuple(int(x) for x in m) for m in re.findall(r"payoff guaranteed (\d) (\d)", out)]
    if len(found) != len(fens):
        sys.exit(f"the engine answered {len(found)} of {len(fens)} positions")
    return found


def risks_ties(env):
    """Whether TeamJiang sets RiskTies (its default; JIANG_RISK_TIES=false turns it off)."""
    return env.get("JIANG_RISK_TIES", "true").strip().lower() not in ("false", "0", "no")


def least_allowed(sure, risk_ties):
    """The least payoff jiang may end with from a start whose guarantee is `sure`: the
    guarantee, or with RiskTies a draw (1) from a guaranteed tie (2)."""
    return 1 if risk_ties and sure == 2 else sure


def explain_losses(engine, logs, risk_ties):
    """Prints jiang's lost matches with the guarantee at their start, and what became of
    the starts jiang was guaranteed a tie from; returns the number of matches where jiang
    got less than it may (its guarantee; with RiskTies a draw where a tie was guaranteed)."""
    matches = jiang_matches(logs)
    if not matches:
        print("\n(no match log: nothing to explain)")
        return 0
    values = guarantees(engine, sorted({fen for _, _, fen, _ in matches}))
    value = dict(zip(sorted({fen for _, _, fen, _ in matches}), values))
    below, lost, from_ties = 0, [], {0: 0, 1: 0, 2: 0, 3: 0}
    for white, black, fen, payoffs in matches:
        side = 0 if white == "TeamJiang" else 1
        got, sure = payoffs[side], value[fen][side]
        below += got < least_allowed(sure, risk_ties)
        if sure == 2:
            from_ties[int(got)] += 1
        if got == 0:
            lost.append((black if side == 0 else white, "White" if side == 0 else "Black", fen, sure))
    forced = sum(sure == 0 for *_, sure in lost)
    print(f"\n{len(matches)} matches of jiang in the log; {len(lost)} lost, {forced} of them from a start "
          f"jiang's guarantee is 0 (lost under perfect play); jiang got less than it may in {below}")
    print(f"from the {sum(from_ties.values())} starts with a guaranteed tie: {from_ties[3]} won, "
          f"{from_ties[2]} tied, {from_ties[1]} drawn, {from_ties[0]} lost"
          + (" (RiskTies: a tie may be traded for a line that wins or draws)" if risk_ties else ""))
    if lost:
        print("\n| opponent | jiang | start | jiang's guarantee | explanation |")
        print("|---|---|---|---|---|")
        for opponent, colour, fen, sure in sorted(lost):
            why = "lost under perfect play" if sure == 0 else "NOT explained: jiang could have kept more"
            print(f"| {opponent} | {colour} | `{fen}` | {sure} | {why} |")
    return below + sum(sure > 0 for *_, sure in lost)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("harness")
    parser.add_argument("work")
    parser.add_argument("--boards", type=int, default=38)
    parser.add_argument("--players", default=",".join(HORDE))
    parser.add_argument("--time-scale", type=float, default=1.0,
                        help="multiply the harness's time limits and TeamJiang's wait by this (loaded machines)")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    copy = prepare(os.path.abspath(args.harness), os.path.abspath(args.work),
                   args.players.split(","), args.boards, args.time_scale)
    env = dict(os.environ)
    env.setdefault("JIANG", os.path.join(HERE, "..", "..", "target", "release", "jiang"))
    if args.time_scale != 1.0:
        env["JIANG_ANSWER_TIMEOUT_MS"] = str(int(60 * args.time_scale))
    run = subprocess.run(["java", "-Xmx2g", "RunTournament", str(args.boards)], cwd=copy, env=env,
                         capture_output=True, text=True)
    with open(os.path.join(args.work, "tournament.out"), "w") as f:
        f.write(run.stdout)
    with open(os.path.join(args.work, "tournament.err"), "w") as f:
        f.write(run.stderr)
    ranking = run.stdout[run.stdout.find("Final ranking:"):]
    print(ranking.strip() or "(no ranking: the tournament failed)")
    print("\n| opponent | matches | jiang W | L | T | D | aborted | jiang avg | opponent avg |")
    print("|---|---|---|---|---|---|---|---|---|")
    for opponent, c, ours, theirs in jiang_series(run.stdout):
        n = sum(c.values())
        print(f"| {opponent} | {n} | {c['W']} | {c['L']} | {c['T']} | {c['D']} | {c['A']} | {ours:.3f} | {theirs:.3f} |")
    fallbacks = run.stderr.count("[TeamJiang] playing")
    late = run.stdout.count("Offending player: TeamJiang")
    print(f"\nTeamJiang fallbacks {fallbacks}, time-limit violations {late}, exit status {run.returncode}")
    if run.stderr.strip():
        print("stderr:", run.stderr.strip()[:2000])
    unexplained = 0
    log_path = os.path.join(os.path.dirname(copy), "logs", "logs.tex")  # the harness writes ../logs
    if os.path.exists(log_path):
        with open(log_path) as f:
            unexplained = explain_losses(env["JIANG"], f.read(), risks_ties(env))
    ok = run.returncode == 0 and "Final ranking:" in run.stdout and not fallbacks and not late
    sys.exit(0 if ok and not unexplained else 1)


if __name__ == "__main__":
    main()
