#!/usr/bin/env python3
"""Piece values measured from game results: a logistic fit of each game's result on the
material imbalance at its start.

Reads self-play games (`FEN|moves|result` lines, as `cargo run --release -p
jiang-lab -- tune fairychess selfplay GAMES NODES SEED imbalanced` writes them: random-army starts with
one or two pieces taken from a random side). For each game, x = (White's count - Black's
count) per kind (R B N S C) at the start, y = White's score (1, 1/2, 0). The model is
E[y] = 1 / (1 + exp(-(b0 + sum_k b_k x_k))), fitted by maximum likelihood (Newton's
method; y = 1/2 counts as half a win and half a loss). b_k is the worth of one piece of
kind k in log-odds of the game; values are reported on the scale that makes the knight 3
(and in centipawns on the scale of the engine's rook, 500). 95 % intervals by bootstrap
over games.

  python3 tools/fairychess/material_fit.py GAMESFILE [--boot 200] [--seed 1]
"""

import argparse
import math
import random

KINDS = "RBNSC"


def parse(path):
    rows = []
    for line in open(path):
        parts = line.strip().split("|")
        if len(parts) != 3:
            continue
        fen, _moves, result = parts
        y = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result.strip())
        if y is None:
            continue
        board = fen.split()[0]
        x = [board.count(k) - board.count(k.lower()) for k in KINDS]
        rows.append((x, y))
    return rows


def solve(a, b):
    """Gaussian elimination for a small dense system a x = b."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            raise ZeroDivisionError("singular")
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows, ridge=1e-3):
    """Logistic regression with intercept; returns [b0, bR, bB, bN, bS, bC]."""
    n = len(KINDS) + 1
    beta = [0.0] * n
    for _ in range(50):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for x, y in rows:
            z = [1.0] + x
            t = sum(bi * zi for bi, zi in zip(beta, z))
            p = 1.0 / (1.0 + math.exp(-t))
            w = p * (1.0 - p)
            for i in range(n):
                grad[i] += (y - p) * z[i]
                for j in range(n):
                    hess[i][j] += w * z[i] * z[j]
        for i in range(n):
            grad[i] -= ridge * beta[i]
            hess[i][i] += ridge
        step = solve(hess, grad)
        beta = [b + s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return beta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("games")
    ap.add_argument("--boot", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rows = parse(a.games)
    imbalanced = [r for r in rows if any(r[0])]
    wins = sum(1 for _, y in rows if y == 1.0)
    losses = sum(1 for _, y in rows if y == 0.0)
    print(f"{len(rows)} games ({len(imbalanced)} with a material imbalance at the start): "
          f"White +{wins} ={len(rows) - wins - losses} -{losses}")
    beta = fit(rows)
    rng = random.Random(a.seed)
    boots = []
    for _ in range(a.boot):
        sample = [rows[rng.randrange(len(rows))] for _ in rows]
        try:
            boots.append(fit(sample))
        except ZeroDivisionError:
            continue

    def interval(values):
        values = sorted(values)
        return values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1]

    print(f"intercept (White moves first) {beta[0]:+.3f} log-odds")
    print(f"{'kind':<10} {'log-odds':>9} {'95% interval':>18} {'knight = 3':>11} {'95% interval':>16}"
          f" {'rook = 500 cp':>14}")
    kn = KINDS.index("N") + 1
    rk = KINDS.index("R") + 1
    for i, k in enumerate(KINDS, start=1):
        lo, hi = interval([b[i] for b in boots])
        rel = 3 * beta[i] / beta[kn]
        rlo, rhi = interval([3 * b[i] / b[kn] for b in boots if b[kn] > 0])
        cp = 500 * beta[i] / beta[rk]
        name = {"R": "Rook", "B": "Bishop", "N": "Knight", "S": "Squire", "C": "Combatant"}[k]
        print(f"{name:<10} {beta[i]:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>18} {rel:>11.2f}"
              f" {f'[{rlo:.2f}, {rhi:.2f}]':>16} {cp:>14.0f}")


if __name__ == "__main__":
    main()
