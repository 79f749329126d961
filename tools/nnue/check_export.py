#!/usr/bin/env python3
"""Checks that a network file written by train_torch.py is the one the engine reads.

    python3 tools/nnue/check_export.py NET.nnue DATA.txt [--engine target/release/jiang] [--lab target/release/jiang-lab]

Needs numpy only. Four checks, each printed with PASS or FAIL (exit status 1 on a FAIL):

1. round trip: reading NET and writing it again gives the same bytes (the reader and the
   quantisation agree with the file layout; run on src/xiangqi/nnue/default.nnue this
   checks the writer against a file the engine's own trainer wrote);
2. quantisation: on the first --positions positions of DATA, the engine's integer
   evaluation (reproduced exactly: i16 weights, i64 sums, divisions towards zero) agrees
   with the float forward pass of the same weights within 2 units (the rounding of the
   two divisions);
3. the engine loads NET: `JIANG_EVALFILE=NET RUST_LOG=info jiang` logs "network loaded";
4. the engine computes the same function: `jiang-lab train` started from NET (`--init`)
   prints its validation loss before training ("epoch 0") on the second half of the same
   positions; it must equal this script's float loss of NET on them (6 decimals).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_torch as tt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("net")
    ap.add_argument("data", help="a `jiang-lab datagen` file (FEN | score | result)")
    ap.add_argument("--engine", default="target/release/jiang")
    ap.add_argument("--lab", default="target/release/jiang-lab", help="the offline jobs' binary (train)")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.75)
    args = ap.parse_args()
    ok = True

    def report(name, good, detail):
        nonlocal ok
        ok &= bool(good)
        print(f"{'PASS' if good else 'FAIL'} {name}: {detail}")

    q = tt.read_net(args.net)
    with open(args.net, "rb") as f:
        raw = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        again = os.path.join(tmp, "again.nnue")
        tt.write_net(again, *tt.quantise(*tt.dequantise(*q)))
        with open(again, "rb") as f:
            same = f.read() == raw
        report("round trip", same, f"{len(raw)} bytes {'identical' if same else 'DIFFER'}")

        feats, score, result = tt.load_data([args.data], args.positions, cache=False)
        ints = tt.engine_eval(*q, feats)
        floats = tt.float_output(*tt.dequantise(*q), feats) * tt.SCALE
        diff = np.abs(ints - floats)
        report(
            "quantisation",
            diff.max() <= 2.0,
            f"{len(feats)} positions, integer vs float evaluation: max |diff| {diff.max():.2f}, "
            f"mean {diff.mean():.2f} (evaluations from {ints.min()} to {ints.max()}, mean |eval| {np.abs(ints).mean():.0f})",
        )

        env = dict(os.environ, JIANG_EVALFILE=os.path.abspath(args.net), RUST_LOG="info")
        run = subprocess.run([args.engine], input="uci\nposition startpos\ngo depth 1\nisready\nquit\n", env=env, capture_output=True, text=True, timeout=60)
        loaded = "network loaded" in run.stderr
        report("engine loads it", loaded, (run.stderr.strip().splitlines() or ["(no log)"])[-1])

        # The engine's trainer holds out the last --val fraction: with 0.5, the second half.
        out = os.path.join(tmp, "out.nnue")
        cmd = [args.lab, "train", out, args.data, "--init", args.net, "--epochs", "1", "--val", "0.5",
               "--max-positions", str(len(feats)), "--lambda", str(args.lam), "--batch", "256",
               "--output-buckets", str(len(q[3]))]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        m = re.search(r"epoch 0: validation loss ([0-9.]+)", run.stderr)
        n_val = min(int(len(feats) * 0.5), len(feats) // 2)
        vf = feats[len(feats) - n_val :]
        t = tt.targets(score[len(feats) - n_val :], result[len(feats) - n_val :], args.lam)
        mine = tt.mse(tt.float_output(*tt.dequantise(*q), vf), t)
        theirs = float(m.group(1)) if m else float("nan")
        report(
            "engine's loss",
            m is not None and abs(mine - theirs) < 2e-6,
            f"jiang-lab train --init: {theirs:.6f}, this script: {mine:.6f} ({n_val} positions)",
        )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
