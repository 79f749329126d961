"""Runs the course's public test cases (Project3_PublicTestCases.py of the CS3243 project
3 folder, fetched outside the repository) through AB.py, as the grader calls it.

    python3 adapters/cs3243/run_public_tests.py "PROJECT_3_DIR"

Each case's expected answer is the one the file gives after it: a legal-move list for
`get_legal_moves(bN, 'white')` (compared as sets), a move for `studentAgent(case)`.
Prints a table with the time of each call; exit status 1 if any case fails. The engine is
$JIANG or target/release/jiang.
"""

import argparse
import ast
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def cases(project_dir):
    """(kind, name, gameboard, expected) of every public case of the file."""
    path = os.path.join(project_dir, "Project3_PublicTestCases.py")
    with open(path) as f:
        text = f.read()
    namespace = {}
    exec(compile(text, path, "exec"), namespace)
    found = []
    for name, expected in re.findall(r"get_legal_moves\((\w+), 'white'\) = (\[.*?\])\s*\n", text):
        found.append(("get_legal_moves", name, namespace[name], ast.literal_eval(expected)))
    for name, expected in re.findall(r"studentAgent\((\w+)\) = (.*?)\s*\n", text):
        found.append(("studentAgent", name, namespace[name], ast.literal_eval(expected)))
    return found


def run(project_dir):
    sys.path.insert(0, HERE)
    os.environ.setdefault("JIANG", os.path.join(HERE, "..", "..", "target", "release", "jiang"))
    import AB

    rows, failures = [], 0
    for kind, name, board, expected in cases(project_dir):
        start = time.monotonic()
        if kind == "get_legal_moves":
            got = AB.get_legal_moves(board, "white")
            ok = sorted(got) == sorted(expected) and len(got) == len(expected)
            shown = f"{len(got)} moves"
            want = f"{len(expected)} moves"
        else:
            got = AB.studentAgent(board)
            ok = got == expected
            shown, want = str(got), str(expected)
        seconds = time.monotonic() - start
        failures += not ok
        rows.append((kind, name, want, shown, ok, seconds))
    return rows, failures


def main():
    parser = argparse.ArgumentParser(
        description="Runs the CS3243 project 3 public test cases through AB.py (jiang).",
        epilog="The engine is $JIANG, else target/release/jiang; JIANG_MOVETIME_MS sets "
        "studentAgent's search time (default 1000 ms). Exit status 1 if a case fails.",
    )
    parser.add_argument(
        "project_dir",
        help="the course's 'Projects/Project 3' folder (holding Project3_PublicTestCases.py), "
        "fetched outside this repository",
    )
    args = parser.parse_args()
    if not os.path.isfile(os.path.join(args.project_dir, "Project3_PublicTestCases.py")):
        parser.error(f"{args.project_dir} holds no Project3_PublicTestCases.py")
    rows, failures = run(args.project_dir)
    print(f"jiang {os.environ['JIANG']}, movetime {os.environ.get('JIANG_MOVETIME_MS', 1000)} ms")
    print("| call | case | expected | AB.py | pass | time (s) |")
    print("|---|---|---|---|---|---|")
    for kind, name, want, shown, ok, seconds in rows:
        print(f"| {kind} | {name} | {want} | {shown} | {'yes' if ok else 'NO'} | {seconds:.2f} |")
    print(f"\n{len(rows) - failures} of {len(rows)} cases pass")
    sys.exit(1 if failures or not rows else 0)


if __name__ == "__main__":
    main()
