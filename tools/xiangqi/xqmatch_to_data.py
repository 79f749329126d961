#!/usr/bin/env python3
"""Turns xqmatch JSON files of jiang games into training data lines `FEN | score | result`
(score from Red's view, result Red's 1/0.5/0), for `jiang-lab train`. Keeps positions where the
side to move is not in check, its engine is jiang (score known), the move played is quiet and
the score is not a mate. Games ended by forfeit are skipped."""
import json, sys
import pyffish

def to1(m):  # jiang ranks 0-9 -> pyffish 1-10
    return m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3:]) + 1) if len(m) == 4 else None

out = sys.stdout
only = None
args = sys.argv[1:]
if args and args[0].startswith('--engine='):
    only = args[0].split('=', 1)[1]; args = args[1:]
n = 0
for f in args:
    d = json.load(open(f))
    for g in d['game_list']:
        if g.get('kind') == 'forfeit' or g['result'] not in ('1-0', '0-1', '1/2-1/2'):
            continue
        res = {'1-0': '1', '0-1': '0', '1/2-1/2': '0.5'}[g['result']]
        fen = g['fen']
        for mv in g['moves']:
            m = mv.get('move')
            if not m:
                break
            m1 = to1(m)
            eng = g['red'] if mv['side'] == 'red' else g['black']
            sc = mv.get('score_cp')
            keep = sc is not None and abs(sc) < 10000 and (only is None or eng == only)
            if keep:
                if pyffish.gives_check('xiangqi', fen, []) or pyffish.is_capture('xiangqi', fen, [], m1):
                    keep = False
            if keep:
                red_score = sc if mv['side'] == 'red' else -sc
                out.write(f"{fen} | {red_score} | {res}\n"); n += 1
            fen = pyffish.get_fen('xiangqi', fen, [m1])
print(f"{n} positions", file=sys.stderr)
