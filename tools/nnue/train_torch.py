#!/usr/bin/env python3
"""Train jiang's Xiangqi network with PyTorch (on a GPU when there is one).

The same network, data, loss and file format as `jiang-lab train` (lab/src/xiangqi/train.rs,
src/xiangqi/nnue/mod.rs), so that validation losses of the two trainers compare and the
engine loads the result (`JIANG_EVALFILE=net.nnue jiang`):

* data: `FEN | score | result` lines from `jiang-lab datagen` (score: Red's view, clamped to
  +-20000; result: Red's 1, 0.5, 0 or `-` for "no game", then trained on the score alone);
* features: per point of view (side to move first), one per piece: (own/enemy, kind,
  square seen from that side), 2 x 7 x 90 = 1260; every training draw mirrors the board
  left to right with probability 1/2;
* network: 1260 -> 256 (shared by both views, squared clipped ReLU) -> 1, or with
  `--output-buckets 8` one output per piece-count bucket, min((pieces - 2) // 4, 7);
* loss: mean of (sigmoid(out) - target)^2, target = lambda * sigmoid(score / 400)
  + (1 - lambda) * result from the side to move's view; AdamW; weights clipped to what the
  quantisation allows; learning rate times --lr-drop at 50 %, 75 % and 90 % of the run;
  the last --val fraction of the data (in file order) held out, not mirrored;
* output: `JIANGNN1`, u32 hidden size, i16 first-layer weights (x 255, feature-major), i16
  biases (x 255), i16 output weights (x 64, side to move's half first), i32 output bias
  (x 255 * 64), little endian; with output buckets `JIANGNN2`, u32 hidden size, u32 bucket
  count, the same first layer, each bucket's output weights, each bucket's i32 bias.

Parsing, features, quantisation and export need only numpy, so `--export-only` and
`check_export.py` run without PyTorch. The parsed data is cached beside each data file
(`FILE.npz`) and reused while the file is unchanged (size and mtime in the name check).
"""

import argparse
import math
import os
import sys
import time

import numpy as np

INPUTS = 2 * 7 * 90
HIDDEN = 256
QA = 255
QB = 64
SCALE = 400
MAGIC = b"JIANGNN1"
MAGIC_BUCKETS = b"JIANGNN2"
OUTPUT_BUCKETS = 8
W1_LIMIT = 1.98
W2_LIMIT = 127.0 / QB
BIAS_LIMIT = 60.0
PAD = INPUTS  # feature index of an empty slot: a zero row after the real ones
UNKNOWN = -1.0  # result of positions without a game
KINDS = {"K": 0, "A": 1, "B": 2, "E": 2, "N": 3, "H": 3, "R": 4, "C": 5, "P": 6}


# ----------------------------------------------------------------------------- data


def parse_line(line):
    """(pieces [(rank, file, color, kind)], stm, red score, red result) or None."""
    parts = line.split("|")
    if len(parts) < 3:
        return None
    try:
        score = int(parts[1].strip())
    except ValueError:
        return None
    r = parts[2].strip()
    result = {"1": 1.0, "1.0": 1.0, "0.5": 0.5, "0": 0.0, "0.0": 0.0, "-": UNKNOWN}.get(r)
    if result is None:
        return None
    fields = parts[0].split()
    if len(fields) < 2 or fields[1] not in ("w", "r", "b"):
        return None
    stm = 1 if fields[1] == "b" else 0
    pieces = []
    rank, file = 9, 0
    for c in fields[0]:
        if c == "/":
            rank -= 1
            file = 0
        elif "1" <= c <= "9":
            file += ord(c) - ord("0")
        else:
            kind = KINDS.get(c.upper())
            if kind is None or not (0 <= file < 9 and 0 <= rank < 10) or len(pieces) >= 32:
                return None
            pieces.append((rank, file, 1 if c.islower() else 0, kind))
            file += 1
    if rank != 0:
        return None
    return pieces, stm, max(-20000, min(20000, score)), result


def features_of(pieces, view):
    """Feature indices of `pieces` seen from `view` (0 Red, 1 Black), as in mod.rs."""
    out = []
    for rank, file, color, kind in pieces:
        r = rank if view == 0 else 9 - rank
        own = 1 if color != view else 0
        out.append((own * 7 + kind) * 90 + r * 9 + file)
    return out


def parse_file(path, limit=0):
    """Arrays of one data file: features (N, 2, 32) uint16 (side to move's view first,
    padded with PAD), score and result from the side to move's view (float32)."""
    feats, scores, results = [], [], []
    bad = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            s = parse_line(line)
            if s is None:
                bad += 1
                continue
            pieces, stm, score, result = s
            row = np.full((2, 32), PAD, dtype=np.uint16)
            for h, view in enumerate((stm, 1 - stm)):
                fs = features_of(pieces, view)
                row[h, : len(fs)] = fs
            feats.append(row)
            if stm == 0:
                scores.append(score)
                results.append(result)
            else:
                scores.append(-score)
                results.append(result if result == UNKNOWN else 1.0 - result)
            if limit and len(feats) >= limit:
                break
    if bad:
        print(f"{path}: skipped {bad} malformed lines", file=sys.stderr)
    feats = np.stack(feats) if feats else np.zeros((0, 2, 32), np.uint16)
    return feats, np.array(scores, np.float32), np.array(results, np.float32)


def load_data(paths, limit=0, cache=True):
    """Concatenated arrays of `paths` (in order), from `.npz` caches where present.
    A path ending in `.npz` is read as such a cache directly."""
    parts = [None] * len(paths)
    todo = []
    for i, path in enumerate(paths):
        cpath = path
        if not path.endswith(".npz"):
            st = os.stat(path)
            cpath = f"{path}.{st.st_size}.{int(st.st_mtime)}.npz"
        if path.endswith(".npz") or (cache and not limit and os.path.exists(cpath)):
            z = np.load(cpath)
            parts[i] = (z["feats"], z["score"], z["result"])
        else:
            todo.append((i, path, cpath))
    t = time.time()
    if len(todo) > 1 and not limit:
        # Parsing is the slow part in Python: one process per file.
        from multiprocessing import Pool

        with Pool(min(len(todo), os.cpu_count() or 1)) as pool:
            done = pool.map(parse_file, [p for _, p, _ in todo])
    else:
        done = [parse_file(p, limit) for _, p, _ in todo]
    for (i, path, cpath), data in zip(todo, done):
        print(f"{path}: {len(data[0])} positions parsed ({time.time() - t:.1f} s)", file=sys.stderr)
        if cache and not limit:
            try:
                np.savez_compressed(cpath, feats=data[0], score=data[1], result=data[2])
            except OSError as e:
                print(f"{cpath}: not cached ({e})", file=sys.stderr)
        parts[i] = data
    feats = np.concatenate([p[0] for p in parts])
    score = np.concatenate([p[1] for p in parts])
    result = np.concatenate([p[2] for p in parts])
    if limit:
        feats, score, result = feats[:limit], score[:limit], result[:limit]
    return feats, score, result


def targets(score, result, lam):
    """The blend of score and result that sigmoid(output) is trained towards."""
    s = 1.0 / (1.0 + np.exp(-score.astype(np.float64) / SCALE))
    # Positions without a game (result `-`) are trained on the score alone.
    return np.where(result == UNKNOWN, s, lam * s + (1.0 - lam) * result).astype(np.float32)


def mirror_table():
    """Feature index -> the same feature mirrored left to right (PAD stays PAD)."""
    f = np.arange(INPUTS + 1)
    sq = f % 90
    m = f - sq + (sq // 9) * 9 + (8 - sq % 9)
    m[PAD] = PAD
    return m


# ------------------------------------------------------------------ network file


def rust_round(x):
    """f32::round: half away from zero (numpy's rint rounds half to even)."""
    r = np.rint(x)
    half = np.abs(x - np.trunc(x)) == 0.5
    return np.where(half, np.trunc(x) + np.sign(x), r)


def buckets_of(feats, n_buckets):
    """Output bucket of each position of (N, 2, 32) features (mod.rs `output_bucket`)."""
    if n_buckets == 1:
        return np.zeros(len(feats), np.int64)
    pieces = (feats[:, 0] != PAD).sum(1).astype(np.int64)
    return np.clip((pieces - 2) // 4, 0, OUTPUT_BUCKETS - 1)


def quantise(w1, b1, w2, b2):
    """Float weights (w1 (1260, 256), b1 (256,), w2 (buckets, 2, 256), b2 (buckets,)) ->
    integers, as train.rs's `Params::quantise` (f32 products, rounding half away from zero)."""
    f32 = np.float32
    q = lambda v, s, lim: np.clip(rust_round(np.asarray(v, f32) * f32(s)), -lim, lim).astype(np.int16)
    qb2 = rust_round(np.asarray(b2, f32).reshape(-1) * f32(QA * QB)).astype(np.int64)
    return q(w1, QA, 32767), q(b1, QA, 32767), q(w2, QB, 127), qb2


def dequantise(qw1, qb1, qw2, qb2):
    """Integers -> float weights, as train.rs's `Params::from_network` (f32 divisions)."""
    f32 = np.float32
    return (
        qw1.astype(f32) / f32(QA),
        qb1.astype(f32) / f32(QA),
        qw2.astype(f32) / f32(QB),
        qb2.astype(f32) / f32(QA * QB),
    )


def write_net(path, qw1, qb1, qw2, qb2):
    n_buckets = len(qb2)
    header = MAGIC + np.uint32(HIDDEN).astype("<u4").tobytes()
    if n_buckets != 1:
        header = MAGIC_BUCKETS + np.uint32(HIDDEN).astype("<u4").tobytes() + np.uint32(n_buckets).astype("<u4").tobytes()
    body = (
        header
        + qw1.astype("<i2").tobytes()
        + qb1.astype("<i2").tobytes()
        + qw2.astype("<i2").tobytes()
        + qb2.astype("<i4").tobytes()
    )
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(body)
    os.replace(tmp, path)


def read_net(path):
    with open(path, "rb") as f:
        b = f.read()
    if b.startswith(MAGIC):
        n_buckets, header = 1, len(MAGIC) + 4
    elif b.startswith(MAGIC_BUCKETS) and len(b) >= 16:
        n_buckets, header = int(np.frombuffer(b, "<u4", 1, 12)[0]), len(MAGIC) + 8
        if n_buckets != OUTPUT_BUCKETS:
            raise ValueError(f"{path}: {n_buckets} output buckets, {OUTPUT_BUCKETS} expected")
    else:
        raise ValueError(f"{path}: not a jiang network (bad magic)")
    expected = header + 2 * (INPUTS * HIDDEN + HIDDEN + n_buckets * 2 * HIDDEN) + 4 * n_buckets
    if len(b) != expected:
        raise ValueError(f"{path}: {len(b)} bytes, {expected} expected")
    hidden = int(np.frombuffer(b, "<u4", 1, 8)[0])
    if hidden != HIDDEN:
        raise ValueError(f"{path}: {hidden} hidden neurons, {HIDDEN} expected")
    end = len(b) - 4 * n_buckets
    w = np.frombuffer(b, "<i2", (end - header) // 2, header).astype(np.int16)
    qw1 = w[: INPUTS * HIDDEN].reshape(INPUTS, HIDDEN)
    qb1 = w[INPUTS * HIDDEN : INPUTS * HIDDEN + HIDDEN]
    qw2 = w[INPUTS * HIDDEN + HIDDEN :].reshape(n_buckets, 2, HIDDEN)
    qb2 = np.frombuffer(b, "<i4", n_buckets, end).astype(np.int64)
    return qw1, qb1, qw2, qb2


# ------------------------------------------------------------- numpy inference


def float_output(w1, b1, w2, b2, feats):
    """The float network's output o (sigmoid(o) is the predicted score) for (N, 2, 32)."""
    w1p = np.vstack([w1, np.zeros((1, HIDDEN), w1.dtype)]).astype(np.float64)
    bk = buckets_of(feats, len(b2))
    out = np.asarray(b2, np.float64)[bk]
    for h in range(2):
        acc = w1p[feats[:, h].astype(np.int64)].sum(1) + b1
        c = np.clip(acc, 0.0, 1.0)
        out += ((c * c) * w2[bk, h].astype(np.float64)).sum(1)
    return out


def engine_eval(qw1, qb1, qw2, qb2, feats):
    """The engine's integer evaluation (mod.rs `Network::evaluate`, before the clamp to
    the hand-written evaluation's bounds), exactly: i64 sums, divisions towards zero."""
    w1p = np.vstack([qw1, np.zeros((1, HIDDEN), np.int16)]).astype(np.int64)
    bk = buckets_of(feats, len(qb2))
    total = np.zeros(len(feats), np.int64)
    for h in range(2):
        acc = w1p[feats[:, h].astype(np.int64)].sum(1) + qb1.astype(np.int64)
        if np.abs(acc).max(initial=0) > 32767:
            raise ValueError("accumulator overflows i16")
        v = np.clip(acc, 0, QA)
        total += (v * v * qw2[bk, h].astype(np.int64)).sum(1)

    def tdiv(a, b):  # Rust's integer division: towards zero
        return np.sign(a) * (np.abs(a) // b)

    out = tdiv(total, QA) + qb2[bk]
    return tdiv(out * SCALE, QA * QB)


def mse(out, t):
    p = 1.0 / (1.0 + np.exp(-out))
    return float(np.mean((p - t) ** 2))


# -------------------------------------------------------------------- training


def train(args, feats, score, result):
    import torch

    dev = torch.device(args.device if args.device != "auto" else ("cuda" if torch.cuda.is_available() else "cpu"))
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else f"cpu ({torch.get_num_threads()} threads)"
    log(args, f"device {dev} {name}; torch {torch.__version__}")
    g = torch.Generator().manual_seed(args.seed)
    torch.manual_seed(args.seed)

    n = len(feats)
    n_val = min(int(n * args.val), n // 2)
    n_train = n - n_val
    t_all = targets(score, result, args.lam)
    F = torch.from_numpy(feats.astype(np.int64)).to(dev)  # (N, 2, 32)
    T = torch.from_numpy(t_all).to(dev)
    mirror = torch.from_numpy(mirror_table()).to(dev)
    # The bucket never changes under mirroring (the same pieces).
    BK = torch.from_numpy(buckets_of(feats, args.output_buckets)).to(dev)

    nb = args.output_buckets
    if args.init:
        w1, b1, w2, b2 = dequantise(*read_net(args.init))
        if len(b2) == 1 and nb > 1:
            # A one-output network seeds every bucket with its output.
            w2, b2 = np.repeat(w2, nb, axis=0), np.repeat(b2, nb)
        elif len(b2) != nb:
            sys.exit(f"{args.init} has {len(b2)} output buckets, the run {nb}")
    else:
        rng = np.random.default_rng(args.seed)
        w1 = rng.uniform(-0.15, 0.15, (INPUTS, HIDDEN)).astype(np.float32)
        b1 = np.zeros(HIDDEN, np.float32)
        w2 = rng.uniform(-1, 1, (nb, 2, HIDDEN)).astype(np.float32) / math.sqrt(2 * HIDDEN)
        b2 = np.zeros(nb, np.float32)
    P = {
        "w1": torch.tensor(w1, device=dev, requires_grad=True),
        "b1": torch.tensor(b1, device=dev, requires_grad=True),
        "w2": torch.tensor(w2, device=dev, requires_grad=True),
        "b2": torch.tensor(b2, device=dev, requires_grad=True),
    }
    limits = {"w1": W1_LIMIT, "b1": BIAS_LIMIT, "w2": W2_LIMIT, "b2": BIAS_LIMIT}
    opt = torch.optim.AdamW(P.values(), lr=args.lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=args.wd)
    zero_row = torch.zeros(1, HIDDEN, device=dev)

    dense = args.first_layer == "dense" or (args.first_layer == "auto" and dev.type == "cuda")
    log(args, f"first layer: {'one-hot matrix product' if dense else 'embedding bag'}")

    def first_layer(f):
        """Sum of the active features' rows, (B, 32) indices -> (B, HIDDEN)."""
        if dense:
            # On a GPU a one-hot (B, 1261) matrix times w1 is one dense product each
            # way; gathering rows instead makes the backward pass add thousands of
            # gradients into the same few rows (every position has both kings).
            x = torch.zeros(len(f), INPUTS + 1, device=dev)
            x.scatter_(1, f, 1.0)
            return x[:, :INPUTS] @ P["w1"]
        return torch.nn.functional.embedding_bag(f, torch.cat([P["w1"], zero_row]), mode="sum", padding_idx=PAD)

    def forward(idx, flip=None):
        f = F[idx]
        if flip is not None:
            f = torch.where(flip[:, None, None], mirror[f], f)
        bk = BK[idx]
        out = P["b2"][bk]
        for h in range(2):
            acc = first_layer(f[:, h]) + P["b1"]
            c = acc.clamp(0.0, 1.0)
            out = out + ((c * c) * P["w2"][bk, h]).sum(1)
        return out

    def loss_of(out, idx):
        return ((torch.sigmoid(out) - T[idx]) ** 2).sum()

    @torch.no_grad()
    def validate():
        if n_val == 0:
            return float("nan")
        tot = 0.0
        for s in range(n_train, n, 65536):
            idx = torch.arange(s, min(s + 65536, n), device=dev)
            tot += float(loss_of(forward(idx), idx))
        return tot / n_val

    @torch.no_grad()
    def export(path):
        q = quantise(*(P[k].detach().cpu().numpy() for k in ("w1", "b1", "w2", "b2")))
        write_net(path, *q)
        return q

    log(args, f"{n} positions ({n_train} training, {n_val} validation); epoch 0: validation loss {validate():.6f}")
    drops = (0.5, 0.75, 0.9)
    t0 = time.time()
    best = None
    for epoch in range(args.epochs):
        progress = epoch / args.epochs
        lr = args.lr * args.lr_drop ** sum(progress >= d for d in drops)
        for grp in opt.param_groups:
            grp["lr"] = lr
        te = time.time()
        order = torch.randperm(n_train, generator=g).to(dev)
        flips = (torch.rand(n_train, generator=g) < 0.5).to(dev)
        tl = torch.zeros((), device=dev)
        for s in range(0, n_train, args.batch):
            idx = order[s : s + args.batch]
            loss = loss_of(forward(idx, flips[s : s + args.batch]), idx)
            opt.zero_grad(set_to_none=True)
            (loss / len(idx)).backward()
            opt.step()
            with torch.no_grad():
                for k, p in P.items():
                    p.clamp_(-limits[k], limits[k])
            tl += loss.detach()
        val = validate()
        if dev.type == "cuda":
            torch.cuda.synchronize()
        secs = time.time() - te
        log(
            args,
            f"epoch {epoch + 1}: lr {lr:.6f} training loss {float(tl) / n_train:.6f} validation loss {val:.6f} "
            f"({secs:.2f} s, {n_train / secs:.0f} positions/s)",
        )
        export(args.out)
        if args.keep_best and (best is None or val < best):
            best = val
            export(args.out + ".best")
    q = export(args.out)
    if n_val:
        vf = feats[n_train:]
        qv = mse(float_output(*dequantise(*q), vf), t_all[n_train:])
        log(args, f"quantised network's validation loss {qv:.6f}")
    log(args, f"network written to {args.out} ({time.time() - t0:.1f} s of training)")


def log(args, msg):
    print(msg, file=sys.stderr, flush=True)
    if args.log:
        with open(args.log, "a") as f:
            f.write(msg + "\n")


def main():
    global HIDDEN  # --hidden sets the width for the whole run
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="network file to write (the engine's format)")
    ap.add_argument("data", nargs="+", help="`jiang-lab datagen` files (FEN | score | result) or their .npz caches")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=0.001)
    ap.add_argument("--lr-drop", type=float, default=0.3, help="lr factor at 50, 75 and 90 %% of the run")
    ap.add_argument("--batch", type=int, default=16384)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.75, help="weight of the score in the target")
    ap.add_argument("--val", type=float, default=0.02, help="fraction held out (the data's end)")
    ap.add_argument("--wd", type=float, default=0.0, help="decoupled weight decay")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--init", help="network to start from instead of random weights")
    ap.add_argument("--max-positions", type=int, default=0, help="keep at most this many (0: all)")
    ap.add_argument("--device", default="auto", help="auto (cuda when available), cuda or cpu")
    ap.add_argument("--first-layer", choices=("auto", "dense", "bag"), default="auto",
                    help="one-hot matrix product (auto: on a GPU) or embedding bag (auto: on the CPU)")
    ap.add_argument("--no-cache", action="store_true", help="do not read or write FILE.*.npz caches")
    ap.add_argument("--keep-best", action="store_true", help="also write OUT.best at the lowest validation loss")
    ap.add_argument("--log", help="append the progress lines to this file too")
    ap.add_argument("--hidden", type=int, default=HIDDEN,
                    help="hidden neurons per view; the engine loads only 256 (other widths: measurements of validation loss)")
    ap.add_argument("--export-only", action="store_true", help="no training: write --init's weights to OUT (round trip)")
    ap.add_argument("--output-buckets", type=int, choices=(1, OUTPUT_BUCKETS), default=1,
                    help="outputs chosen by the number of pieces (from a one-output --init: copies of its output)")
    args = ap.parse_args()
    if args.hidden < 1 or args.hidden % 16:
        ap.error("--hidden must be a positive multiple of 16")
    if args.hidden != HIDDEN and (args.init or args.export_only):
        ap.error("--init and --export-only read the engine's 256-wide networks")
    HIDDEN = args.hidden
    args.lam = min(max(args.lam, 0.0), 1.0)
    args.val = min(max(args.val, 0.0), 0.5)

    if args.export_only:
        if not args.init:
            ap.error("--export-only needs --init")
        write_net(args.out, *quantise(*dequantise(*read_net(args.init))))
        return
    t = time.time()
    feats, score, result = load_data(args.data, args.max_positions, not args.no_cache)
    if len(feats) < 100:
        sys.exit(f"only {len(feats)} positions: too few")
    log(args, f"{len(feats)} positions loaded in {time.time() - t:.1f} s; {vars(args)}")
    train(args, feats, score, result)


if __name__ == "__main__":
    main()
