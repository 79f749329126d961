#!/usr/bin/env python3
"""Reads game records with jiang (`jiang-lab records dump`) and with the `cchess` package
(PyPI `cchess`, walker8088/cchess: an independent reader of XQF, CBR, CBL, CBF, PGN and, in
its newer versions, DhtmlXQ) and compares what they read: the start position, every line
of moves (variations in depth-first order, the main line first) and the comments.

Usage:
    python3 tools/record/compare_cchess.py [--lab target/release/jiang-lab] [-v] FILE...

For each file it prints `agree` or the differences; at the end `N files, G games: A agree,
D disagree, E not read by cchess`. Exit status 1 when a game disagrees or cchess cannot
read a file (2 when cchess is not installed).
"""

import argparse
import json
import os
import subprocess
import sys

try:
    import cchess
except ImportError:
    print("cchess is not installed (pip install cchess)", file=sys.stderr)
    sys.exit(2)


def siblings(move):
    """A move and its alternatives, in order (the package's two APIs)."""
    if hasattr(move, "get_variations"):
        return list(move.get_variations(include_me=True))
    return list(move.get_siblings(include_me=True))


def children(node, game):
    first = game.first_move if node is None else node.next_move
    return [] if first is None else siblings(first)


def iccs(move):
    return move.to_iccs() if hasattr(move, "to_iccs") else str(move)


def clean(text):
    return (text or "").replace("\r\n", "\n").strip()


def cchess_view(game):
    """Start, lines and comments of a cchess game, as jiang's dump writes them."""
    lines, comments = [], []
    if clean(getattr(game, "annote", None)):
        comments.append({"path": "", "text": clean(game.annote)})
    # Depth-first, children in order, without recursion.
    stack = [(None, [])]
    while stack:
        node, path = stack.pop()
        if node is not None and clean(getattr(node, "annote", None)):
            comments.append({"path": " ".join(path), "text": clean(node.annote)})
        kids = children(node, game)
        if not kids and path:
            lines.append(path)
        for kid in reversed(kids):
            stack.append((kid, path + [iccs(kid)]))
    fen = game.init_board.to_fen().split()
    return {"fen": fen[:2], "lines": lines, "comments": comments}


def cchess_read(path):
    ext = os.path.splitext(path)[1].lower()
    if ext == ".cbl":
        lib = cchess.Game.read_from_lib(path)
        return list(lib["games"])
    if ext in (".txt", ".ubb", ".dhtmlxq") and hasattr(cchess.Game, "from_ubb_dhtml"):
        with open(path, encoding="utf-8") as f:
            return [cchess.Game.from_ubb_dhtml(f.read())]
    game = cchess.Game.read_from(path)
    return [] if game is None else [game]


def jiang_read(lab, path):
    out = subprocess.run([lab, "records", "dump", path], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def jiang_view(dump):
    fen = dump["fen"].split()
    comments = [{"path": c["path"], "text": clean(c["text"])} for c in dump["comments"]]
    return {"fen": fen[:2], "lines": dump["lines"], "comments": comments}


def differences(j, c):
    out = []
    if j["fen"] != c["fen"]:
        out.append("start: jiang %s, cchess %s" % (" ".join(j["fen"]), " ".join(c["fen"])))
    if j["lines"] != c["lines"]:
        out.append(
            "lines: jiang %d (%d moves in the main line), cchess %d (%d)"
            % (len(j["lines"]), len(j["lines"][0]) if j["lines"] else 0,
               len(c["lines"]), len(c["lines"][0]) if c["lines"] else 0))
        for k, (a, b) in enumerate(zip(j["lines"], c["lines"])):
            if a != b:
                at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                out.append("  first differing line %d at ply %d: jiang %s, cchess %s"
                           % (k + 1, at + 1, a[at:at + 3], b[at:at + 3]))
                break
    if j["comments"] != c["comments"]:
        jc = {x["path"]: x["text"] for x in j["comments"]}
        cc = {x["path"]: x["text"] for x in c["comments"]}
        diff = [p for p in sorted(set(jc) | set(cc)) if jc.get(p) != cc.get(p)]
        out.append("comments: %d differ, first at [%s]: jiang %r, cchess %r"
                   % (len(diff), diff[0], jc.get(diff[0], "")[:40], cc.get(diff[0], "")[:40]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lab", default="target/release/jiang-lab")
    ap.add_argument("-v", action="store_true", help="print jiang's warnings too")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    games = agree = disagree = unread = 0
    for path in args.files:
        name = os.path.basename(path)
        try:
            ours = jiang_read(args.lab, path)
        except Exception as e:  # noqa: BLE001 - reported, counted
            print("%s: jiang-lab failed: %s" % (name, e))
            disagree += 1
            continue
        try:
            theirs = cchess_read(path)
        except Exception as e:  # noqa: BLE001 - the other reader's failure is a finding
            print("%s: cchess cannot read it: %s: %s" % (name, type(e).__name__, e))
            unread += 1
            continue
        ok_ours = [g for g in ours if g.get("ok")]
        if len(ours) == len(theirs) and len(ok_ours) != len(ours):
            # Same count: jiang refused some that cchess read; compare the others in place.
            for i, g in enumerate(ours):
                if not g.get("ok"):
                    print("%s game %d: refused by jiang (cchess read it): %s" % (name, i + 1, g["error"]))
                    disagree += 1
                    games += 1
            pairs = [(j, c) for j, c in zip(ours, theirs) if j.get("ok")]
            indexes = [i for i, j in enumerate(ours) if j.get("ok")]
        else:
            pairs = list(zip(ok_ours, theirs))
            indexes = list(range(len(pairs)))
        if len(ok_ours) != len(theirs):
            print("%s: jiang read %d game(s) (%d refused), cchess %d"
                  % (name, len(ok_ours), len(ours) - len(ok_ours), len(theirs)))
            for g in ours:
                if not g.get("ok"):
                    print("  jiang: %s" % g["error"])
        for i, (j, c) in zip(indexes, pairs):
            games += 1
            diff = differences(jiang_view(j), cchess_view(c))
            label = name if len(theirs) == 1 else "%s game %d" % (name, i + 1)
            if diff:
                disagree += 1
                print("%s: DISAGREE" % label)
                for d in diff:
                    print("  " + d)
                for w in j["warnings"]:
                    print("  jiang warning: " + w)
            else:
                agree += 1
                if args.v or len(theirs) == 1:
                    print("%s: agree (%d lines, %d comments)%s"
                          % (label, len(j["lines"]), len(j["comments"]),
                             "".join("\n  jiang warning: " + w for w in j["warnings"]) if args.v else ""))
    print("%d files, %d games: %d agree, %d disagree, %d not read by cchess"
          % (len(args.files), games, agree, disagree, unread))
    return 1 if disagree or unread else 0


if __name__ == "__main__":
    sys.exit(main())
