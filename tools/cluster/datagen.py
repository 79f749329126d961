#!/usr/bin/env python3
"""Xiangqi self-play training data on a Dask cluster: `jiang-lab datagen` shards, one seed each.

    python3 tools/cluster/datagen.py --games 400 --shard-games 10 --nodes 5000 --seed 1 --out data/run1
    python3 tools/cluster/datagen.py --positions 1000000 --scheduler tcp://HOST:8786 --out data/run2

The work is split into shards: shard k runs `jiang-lab datagen SHARD_GAMES --nodes N --seed
BASE+k --eval E` (deterministic for its seed). Each finished shard is written atomically to
OUT/shard-SEED.txt; a shard already there is never run again, so an interrupted run resumes
where it stopped, and a run never holds a shard twice. A shard whose worker dies (or whose
process fails) is run again (Dask retries). At the end the shards are joined in ascending seed
order into OUT/data.txt (or --merged FILE): byte for byte what the same seeds give when run
one after another on one machine.

--games TOTAL makes ceil(TOTAL / SHARD_GAMES) shards. --positions TOTAL runs shards until the
shards of the first K seeds hold at least TOTAL positions (whole shards; shards of later seeds
finished meanwhile stay in OUT and are used by a later, larger run).

The jiang-lab binary (--lab, default target/release/jiang-lab) is shipped to the workers as
bytes and cached there by its SHA-256; --worker-lab PATH runs a binary found on the workers
instead (a path or a name on their PATH).
"""

import argparse
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_common as cc  # noqa: E402

MANIFEST = "manifest.json"


def shard_name(seed):
    return f"shard-{seed}.txt"


def run_shard(lab, lab_data, games, nodes, seed, extra):
    """On a worker: one shard. `lab` is the shipped binary's SHA-256 (its bytes in `lab_data`)
    or, with `lab_data` None, a path or name on the worker."""
    import socket
    import time as t

    path = cc.worker_file(lab_data, lab, "jiang-lab") if lab_data is not None else lab
    start = t.monotonic()
    argv = [path, "datagen", str(games), "--nodes", str(nodes), "--seed", str(seed), *extra]
    rc, out, err = cc.run_child(argv)
    if rc != 0:
        tail = err.strip().splitlines()[-3:]
        raise RuntimeError(f"shard {seed}: jiang-lab exited with {rc}: {' | '.join(tail)}")
    return {
        "seed": seed,
        "data": out,
        "seconds": t.monotonic() - start,
        "host": socket.gethostname(),
        "pid": os.getpid(),
    }


def parse_args(argv):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Example (local cluster, one worker a core): python3 tools/cluster/datagen.py "
        "--games 400 --shard-games 10 --out data/run1",
    )
    total = p.add_mutually_exclusive_group(required=True)
    total.add_argument("--games", type=int, help="total games (rounded up to whole shards)")
    total.add_argument("--positions", type=int, help="at least this many positions")
    p.add_argument("--shard-games", type=int, default=10, help="games per shard (default 10)")
    p.add_argument("--nodes", type=int, default=5000, help="nodes per move (default 5000)")
    p.add_argument("--seed", type=int, default=1, help="base seed: shard k has seed BASE+k")
    p.add_argument("--eval", choices=("nnue", "hce"), default="nnue", help="default nnue")
    p.add_argument(
        "--datagen-args",
        default="",
        metavar="ARGS",
        help="more jiang-lab datagen arguments, e.g. '--random-plies 4-8 --hash 16'",
    )
    p.add_argument("--out", required=True, help="folder for the shards and the merged file")
    p.add_argument("--merged", help="merged data file (default OUT/data.txt)")
    p.add_argument(
        "--lab",
        default=os.path.join(cc.REPO, "target", "release", "jiang-lab"),
        help="the jiang-lab binary shipped to the workers (default: this checkout's release build)",
    )
    p.add_argument("--worker-lab", help="do not ship: run this jiang-lab path/name on the workers")
    p.add_argument("--retries", type=int, default=3, help="reruns of a failed shard (default 3)")
    p.add_argument("--no-merge", action="store_true", help="leave the shards, write no merged file")
    cc.add_cluster_args(p)
    a = p.parse_args(argv)
    if a.shard_games < 1 or a.nodes < 1 or (a.games or a.positions or 0) < 1:
        p.error("--games/--positions, --shard-games and --nodes must be positive")
    return a


def check_manifest(out, settings):
    """The settings shards in OUT were made with must be these: otherwise refuse."""
    path = os.path.join(out, MANIFEST)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = json.load(f)
        if old != settings:
            sys.exit(
                f"datagen.py: {out} holds shards made with other settings: {old} (now {settings});"
                " use another --out"
            )
    else:
        cc.atomic_write(path, (json.dumps(settings, sort_keys=True) + "\n").encode())


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def main(argv=None):
    a = parse_args(argv)
    extra = ["--eval", a.eval, *a.datagen_args.split()]
    settings = {"shard_games": a.shard_games, "nodes": a.nodes, "datagen_args": extra}
    os.makedirs(a.out, exist_ok=True)
    check_manifest(a.out, settings)
    merged = a.merged or os.path.join(a.out, "data.txt")

    present = {}  # seed -> positions, shards already in OUT
    for name in os.listdir(a.out):
        if name.startswith("shard-") and name.endswith(".txt"):
            try:
                seed = int(name[len("shard-") : -len(".txt")])
            except ValueError:
                continue
            present[seed] = count_lines(os.path.join(a.out, name))

    if a.games:
        nshards = math.ceil(a.games / a.shard_games)
        wanted = list(range(a.seed, a.seed + nshards))
    else:
        nshards = None
        wanted = None

    def prefix():
        """(K, positions) of the complete prefix base..base+K-1 of shards present."""
        k, pos = 0, 0
        while a.seed + k in present:
            pos += present[a.seed + k]
            k += 1
            if a.positions and pos >= a.positions:
                break
        return k, pos

    def finished():
        if wanted is not None:
            return all(s in present for s in wanted)
        return prefix()[1] >= a.positions

    todo = [] if wanted is None else [s for s in wanted if s not in present]
    skipped = len(wanted) - len(todo) if wanted is not None else len(present)
    cc.by_value()
    client, cluster = cc.start_client(a)
    nworkers = len(client.scheduler_info().get("workers", {})) or 1
    print(
        f"datagen: {nshards if nshards else '?'} shards of {a.shard_games} games, {a.nodes} nodes, "
        f"seeds from {a.seed}; {skipped} shards already in {a.out}; {nworkers} workers "
        f"({a.scheduler or 'local cluster'})",
        file=sys.stderr,
    )
    if a.worker_lab:
        lab, lab_data = a.worker_lab, None
        print(f"datagen: workers run {lab} (not shipped)", file=sys.stderr)
    else:
        with open(a.lab, "rb") as f:
            data = f.read()
        lab, lab_data = cc.sha256(data), cc.ship(client, data, "jiang-lab")
        print(f"datagen: shipping {a.lab} (sha256 {lab[:16]}) to the workers", file=sys.stderr)

    from dask.distributed import as_completed

    def submit(seed):
        return client.submit(
            run_shard,
            lab,
            lab_data,
            a.shard_games,
            a.nodes,
            seed,
            extra,
            key=f"datagen-shard-{seed}-{time.time_ns()}",
            pure=False,
            retries=a.retries,
        )

    pending = {}
    next_seed = a.seed
    if wanted is not None:
        for s in todo:
            pending[submit(s)] = s
    else:
        # --positions: keep two shards a worker in flight until the prefix is long enough.
        while len(pending) < 2 * nworkers:
            while next_seed in present:
                next_seed += 1
            if finished():
                break
            pending[submit(next_seed)] = next_seed
            next_seed += 1

    if wanted is not None:
        bar = cc.Progress(nshards, "shards", "positions")
        done = skipped
        bar.update(done, 0, force=True)
    else:  # --positions: the bar counts the positions of the complete prefix of seeds
        bar = cc.Progress(a.positions, "positions", "new positions")
        done = len(present)
        bar.update(min(prefix()[1], a.positions), 0, force=True)
    made = 0
    failed = []
    stream = as_completed(list(pending))
    for fut in stream:
        seed = pending.pop(fut)
        if fut.status != "finished":
            if fut.status == "cancelled":
                continue
            failed.append((seed, repr(fut.exception())))
            print(f"\ndatagen: shard {seed} failed: {fut.exception()}", file=sys.stderr)
            continue
        r = fut.result()
        if seed in present:  # cannot happen: each seed is submitted once
            raise RuntimeError(f"shard {seed} arrived twice")
        cc.atomic_write(os.path.join(a.out, shard_name(seed)), r["data"])
        lines = r["data"].count(b"\n")
        present[seed] = lines
        made += lines
        done += 1
        if wanted is not None:
            bar.update(done, made)
            continue
        if finished():
            for f in list(pending):
                f.cancel()
        else:
            while next_seed in present:
                next_seed += 1
            nf = submit(next_seed)
            pending[nf] = next_seed
            stream.add(nf)
            next_seed += 1
        k, pos = prefix()
        bar.update(min(pos, a.positions), made, f"  [{done} shards, seeds {a.seed}..{a.seed + k - 1} complete]")
    bar.close()
    elapsed = time.monotonic() - bar.start
    client.close()
    if cluster is not None:
        cluster.close()
    print(
        f"datagen: {done} shards, {made} new positions in {elapsed:.1f} s "
        f"({made / elapsed if elapsed else 0:.1f} positions/s)",
        file=sys.stderr,
    )
    if failed or not finished():
        print(
            f"datagen: {len(failed)} shards failed ({', '.join(str(s) for s, _ in failed)}); "
            "run the same command again to finish (finished shards are kept)",
            file=sys.stderr,
        )
        return 1
    if a.no_merge:
        return 0
    seeds = wanted if wanted is not None else list(range(a.seed, a.seed + prefix()[0]))
    tmp = f"{merged}.tmp{os.getpid()}"
    with open(tmp, "wb") as out:
        for s in seeds:
            with open(os.path.join(a.out, shard_name(s)), "rb") as f:
                out.write(f.read())
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, merged)
    npos = sum(present[s] for s in seeds)
    print(
        f"datagen: merged {len(seeds)} shards (seeds {seeds[0]}..{seeds[-1]}, ascending) "
        f"into {merged}: {npos} positions",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
