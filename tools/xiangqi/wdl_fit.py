#!/usr/bin/env python3
"""Fits jiang's win/draw/loss model (`src/xiangqi/wdl.rs`) to self-play outcomes.

Input: `jiang datagen` output, one position a line, `FEN | score | result`, with the
search score and the game's result (1, 0.5, 0) both from Red's view. Lines whose result
is `-` (perturbed positions, from no game) are skipped.

The model (the shape Stockfish uses for its `UCI_ShowWDL`): for a score s from one
side's view and a material measure m of the position,

    W = logistic((s - a(x)) / b(x)),   L = logistic((-s - a(x)) / b(x)),   D = 1 - W - L

with x = m / 58 (58 = the material of the start position) and a, b cubic polynomials
in x. m counts both sides' attacking pieces: chariot 6, horse 3, cannon 3, soldier 1
(kings, advisors and elephants do not count). a is the score at which a win is as
likely as not; b how quickly the chance of a win grows with the score.

The fit maximises the likelihood of the results over all positions (Adam on the mean
log-loss, from a start fitted per material bin). It prints the coefficients (highest
power first, as the Rust module writes them) and the log-loss of the model against a
constant (the overall frequencies of win, draw, loss).

    head -n 98000 data.txt | python3 tools/xiangqi/wdl_fit.py
"""

import sys

import numpy as np

WEIGHTS = {"r": 6, "n": 3, "h": 3, "c": 3, "p": 1}
START_MATERIAL = 58.0
SCORE_CLIP = 4000.0


def material(fen):
    board = fen.split()[0]
    return sum(WEIGHTS.get(ch.lower(), 0) for ch in board)


def read(stream):
    scores, mats, results = [], [], []
    for line in stream:
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3 or parts[2] not in ("0", "0.5", "1"):
            continue
        try:
            s = float(parts[1])
        except ValueError:
            continue
        scores.append(s)
        mats.append(material(parts[0]))
        results.append({"1": 0, "0.5": 1, "0": 2}[parts[2]])
    return (
        np.clip(np.array(scores), -SCORE_CLIP, SCORE_CLIP),
        np.array(mats, dtype=float),
        np.array(results),
    )


def logistic(z):
    return 1.0 / (1.0 + np.exp(-z))


def probabilities(s, a, b):
    w = logistic((s - a) / b)
    l = logistic((-s - a) / b)
    d = np.clip(1.0 - w - l, 1e-12, 1.0)
    return np.clip(w, 1e-12, 1.0), d, np.clip(l, 1e-12, 1.0)


def nll_and_grad(s, r, a, b):
    """Mean negative log-likelihood and its gradient with respect to each a and b."""
    w = logistic((s - a) / b)
    l = logistic((-s - a) / b)
    d = 1.0 - w - l
    dw_da = -w * (1 - w) / b
    dw_db = -w * (1 - w) * (s - a) / b**2
    dl_da = -l * (1 - l) / b
    dl_db = -l * (1 - l) * (-s - a) / b**2
    p = np.select([r == 0, r == 1], [w, d], l)
    dp_da = np.select([r == 0, r == 1], [dw_da, -dw_da - dl_da], dl_da)
    dp_db = np.select([r == 0, r == 1], [dw_db, -dw_db - dl_db], dl_db)
    p = np.clip(p, 1e-12, 1.0)
    n = len(s)
    return -np.mean(np.log(p)), -dp_da / p / n, -dp_db / p / n


def fit_constant_ab(s, r):
    """a, b for one bin, by a coarse grid then Adam."""
    best = None
    for a in np.linspace(50, 1500, 30):
        for b in np.linspace(50, 1500, 30):
            loss = nll_and_grad(s, r, a, b)[0]
            if best is None or loss < best[0]:
                best = (loss, a, b)
    return best[1], best[2]


def fit(s, m, r, steps=4000):
    x = m / START_MATERIAL
    # Start: a and b per material bin, then cubic polynomials through them.
    edges = np.quantile(x, np.linspace(0, 1, 9))
    xs, as_, bs = [], [], []
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (x >= lo) & (x <= hi)
        if sel.sum() < 500:
            continue
        a, b = fit_constant_ab(s[sel], r[sel])
        xs.append(x[sel].mean())
        as_.append(a)
        bs.append(b)
    theta = np.concatenate([np.polyfit(xs, as_, 3), np.polyfit(xs, bs, 3)])
    powers = np.vstack([x**3, x**2, x, np.ones_like(x)])  # highest power first
    lr, beta1, beta2 = 2.0, 0.9, 0.999
    mom = np.zeros_like(theta)
    vel = np.zeros_like(theta)
    for t in range(1, steps + 1):
        a = np.maximum(theta[:4] @ powers, 1.0)
        b = np.maximum(theta[4:] @ powers, 1.0)
        loss, ga, gb = nll_and_grad(s, r, a, b)
        grad = np.concatenate([powers @ ga, powers @ gb])
        mom = beta1 * mom + (1 - beta1) * grad
        vel = beta2 * vel + (1 - beta2) * grad**2
        theta -= lr * (mom / (1 - beta1**t)) / (np.sqrt(vel / (1 - beta2**t)) + 1e-9)
    a = np.maximum(theta[:4] @ powers, 1.0)
    b = np.maximum(theta[4:] @ powers, 1.0)
    return theta, nll_and_grad(s, r, a, b)[0]


def main():
    s, m, r = read(sys.stdin)
    n = len(s)
    if n < 1000:
        sys.exit(f"only {n} positions with a result: too few to fit")
    freq = np.bincount(r, minlength=3) / n
    constant = -np.mean(np.log(freq[r]))
    theta, loss = fit(s, m, r)
    print(f"positions {n}  (red wins {freq[0]:.3f}, draws {freq[1]:.3f}, red losses {freq[2]:.3f})")
    print(f"log-loss: constant {constant:.4f}, model {loss:.4f}")
    print("a (highest power first): " + ", ".join(f"{c:.3f}" for c in theta[:4]))
    print("b (highest power first): " + ", ".join(f"{c:.3f}" for c in theta[4:]))
    # A few values, to check the Rust module against.
    powers = lambda x: np.array([x**3, x**2, x, 1.0])
    for mat in (58, 40, 20):
        xx = mat / START_MATERIAL
        a, b = theta[:4] @ powers(xx), theta[4:] @ powers(xx)
        for score in (0, 100, 300, 800):
            w, d, l = probabilities(score, a, b)
            print(f"material {mat} score {score}: W {w * 1000:.0f} D {d * 1000:.0f} L {l * 1000:.0f}")


if __name__ == "__main__":
    main()
