#!/usr/bin/env python3
"""The measured checks of the cluster jobs (run from the repository root, after
`cargo build --release --workspace`; they take minutes, not part of the test suite):

  equal       datagen of SHARDS shards on a local cluster of 2 workers against the same seeds
              run by two sequential processes (odd and even seeds, one shell loop each, at the
              same time): byte equality of the merged file, and the wall time of both, ROUNDS
              times back to back (baseline first) so both sides see the same machine load
  kill        datagen on a cluster started by hand (a scheduler and 2 workers without nannies,
              the commands of README.md), one worker killed (SIGKILL) while it runs a shard:
              the run must complete with every shard once, the merged file equal to the
              sequential one
  match       a GAMES-game match on a local cluster of 2 workers and the same games by
              `jiang-lab match --concurrency 2` on this machine: the same W/D/L and the same
              games (compare_match.py), and the wall time of both

    python3 tools/cluster/bars.py equal --shards 40 --shard-games 4 --nodes 5000 --rounds 2
    python3 tools/cluster/bars.py kill --shards 40 --shard-games 4 --nodes 5000
    python3 tools/cluster/bars.py match --games 200 --nodes 2000

Work files go to --work (default target/cluster-bars). Exit 1 when a check fails.
"""

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
LAB = os.path.join(REPO, "target", "release", "jiang-lab")
JIANG = os.path.join(REPO, "target", "release", "jiang")


def child_cpu():
    """CPU seconds (user + system) of every descendant process waited for so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def sequential(args, out):
    """The reference: shards run one after another by two processes (odd and even seeds) at
    the same time; returns the wall time. out gets the shards joined in seed order."""
    work = os.path.join(args.work, "seq")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    seeds = range(args.seed, args.seed + args.shards)
    loops = []
    for part in (0, 1):
        mine = " ".join(str(s) for s in seeds if (s - args.seed) % 2 == part)
        loops.append(
            f"for s in {mine}; do {LAB} datagen {args.shard_games} --nodes {args.nodes} "
            f"--seed $s --eval nnue > {work}/$s.txt 2>/dev/null || exit 1; done"
        )
    t = time.monotonic()
    procs = [subprocess.Popen(["bash", "-c", loop]) for loop in loops]
    rcs = [p.wait() for p in procs]
    wall = time.monotonic() - t
    if any(rcs):
        raise SystemExit(f"sequential loops failed: {rcs}")
    with open(out, "wb") as o:
        for s in seeds:
            with open(f"{work}/{s}.txt", "rb") as f:
                o.write(f.read())
    return wall


def cluster_datagen(args, out_dir, scheduler=None, log=None):
    shutil.rmtree(out_dir, ignore_errors=True)
    cmd = [sys.executable, os.path.join(HERE, "datagen.py"), "--games",
           str(args.shards * args.shard_games), "--shard-games", str(args.shard_games),
           "--nodes", str(args.nodes), "--seed", str(args.seed), "--out", out_dir]
    cmd += ["--scheduler", scheduler] if scheduler else ["--workers", "2"]
    t = time.monotonic()
    p = subprocess.Popen(cmd, stderr=log or None)
    return p, t


def reference(args):
    return os.path.join(
        args.work, f"sequential-{args.seed}-{args.shards}x{args.shard_games}-{args.nodes}.txt"
    )


def same(a, b):
    with open(a, "rb") as f, open(b, "rb") as g:
        return f.read() == g.read()


def lines(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def cmd_equal(args):
    os.makedirs(args.work, exist_ok=True)
    ok = True
    rows = []
    for r in range(args.rounds):
        ref = reference(args)
        c0 = child_cpu()
        la0 = os.getloadavg()[0]
        ws = sequential(args, ref)
        c1 = child_cpu()
        out = os.path.join(args.work, "cluster")
        p, t = cluster_datagen(args, out)
        rc = p.wait()
        wc = time.monotonic() - t
        c2 = child_cpu()
        la1 = os.getloadavg()[0]
        eq = rc == 0 and same(ref, os.path.join(out, "data.txt"))
        ok &= eq
        n = lines(ref)
        rows.append((ws, wc))
        print(
            f"round {r + 1}: {args.shards} shards, {n} positions: two sequential processes "
            f"{ws:.1f} s ({n / ws:.1f} positions/s), cluster of 2 workers {wc:.1f} s "
            f"({n / wc:.1f} positions/s, {100 * (ws / wc - 1):+.1f} %); merged file "
            f"{'byte-identical' if eq else 'DIFFERENT'}; CPU time: sequential {c1 - c0:.1f} s, "
            f"cluster (datagen.py, scheduler, workers, jiang-lab) {c2 - c1:.1f} s "
            f"({100 * ((c2 - c1) / (c1 - c0) - 1):+.1f} %); load average {la0:.1f} before, "
            f"{la1:.1f} after",
            flush=True,
        )
    ts, tc = sum(r[0] for r in rows), sum(r[1] for r in rows)
    print(f"all rounds: sequential {ts:.1f} s, cluster {tc:.1f} s: cluster throughput "
          f"{100 * (ts / tc - 1):+.1f} % against two sequential processes")
    return 0 if ok else 1


def cmd_kill(args):
    os.makedirs(args.work, exist_ok=True)
    ref = reference(args)
    if not os.path.exists(ref) or args.fresh_reference:
        sequential(args, ref)
    bindir = os.path.dirname(sys.executable)
    dask = [os.path.join(bindir, "dask")] if os.path.exists(os.path.join(bindir, "dask")) else ["dask"]
    sfile = os.path.join(args.work, "scheduler.json")
    if os.path.exists(sfile):
        os.remove(sfile)
    logf = open(os.path.join(args.work, "kill-cluster.log"), "w")
    sched = subprocess.Popen([*dask, "scheduler", "--scheduler-file", sfile, "--host", "127.0.0.1",
                              "--port", "0", "--dashboard-address", ":0"], stdout=logf, stderr=logf)
    procs = [sched]
    try:
        for _ in range(300):
            if os.path.exists(sfile):
                break
            time.sleep(0.1)
        workers = [subprocess.Popen([*dask, "worker", "--scheduler-file", sfile, "--nthreads", "1",
                                     "--no-nanny", "--no-dashboard"], stdout=logf, stderr=logf)
                   for _ in range(2)]
        procs += workers
        with open(sfile) as f:
            address = json.load(f)["address"]
        out = os.path.join(args.work, "kill")
        dlog = open(os.path.join(args.work, "kill-datagen.log"), "w")
        p, t = cluster_datagen(args, out, scheduler=address, log=dlog)
        victim = workers[0].pid
        killed_seed = killed_kid = None
        while p.poll() is None:
            done = [n for n in os.listdir(out) if n.startswith("shard-")] if os.path.isdir(out) else []
            if len(done) >= args.kill_after:
                kids = children(victim)
                seeds = [seed_of(k) for k in kids]
                seeds = [s for s in seeds if s is not None]
                if seeds:
                    killed_seed, killed_kid = seeds[0], kids[0]
                    os.kill(victim, signal.SIGKILL)
                    print(f"killed worker pid {victim} (SIGKILL) after {len(done)} shards, while it "
                          f"ran shard seed {killed_seed} (jiang-lab pid {kids[0]})", flush=True)
                    break
            time.sleep(0.05)
        rc = p.wait()
        wall = time.monotonic() - t
        merged = os.path.join(out, "data.txt")
        shards = sorted(n for n in os.listdir(out) if n.startswith("shard-") and ".tmp" not in n)
        tmp = [n for n in os.listdir(out) if ".tmp" in n]
        eq = rc == 0 and os.path.exists(merged) and same(ref, merged)
        # the killed worker's jiang-lab must not run on (it dies with its parent)
        orphans = killed_kid is not None and os.path.exists(f"/proc/{killed_kid}")
        print(f"datagen exit {rc} in {wall:.1f} s; {len(shards)} shard files (want {args.shards}), "
              f"{len(tmp)} partial files; merged file "
              f"{'byte-identical to the sequential one' if eq else 'DIFFERENT'}; "
              f"{'killed shard seed %s rerun and present' % killed_seed if killed_seed else 'NO WORKER KILLED'}"
              f"; its jiang-lab process {'STILL RUNS' if orphans else 'ended with it'}")
        ok = eq and len(shards) == args.shards and not tmp and killed_seed is not None and not orphans
        return 0 if ok else 1
    finally:
        for q in reversed(procs):
            if q.poll() is None:
                q.terminate()
                try:
                    q.wait(10)
                except subprocess.TimeoutExpired:
                    q.kill()


def children(pid):
    """Direct children of pid (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            direct = [int(x) for x in f.read().split()]
    except OSError:
        return []
    # threads other than the main one start the children
    out = list(direct)
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split() if int(x) not in out]
    except OSError:
        pass
    return out


def seed_of(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        return None
    if b"datagen" in argv and b"--seed" in argv:
        return int(argv[argv.index(b"--seed") + 1])
    return None


def cmd_match(args):
    os.makedirs(args.work, exist_ok=True)
    ours = os.path.join(args.work, "match-cluster.json")
    theirs = os.path.join(args.work, "match-one-machine.json")
    eng = [["name=nnue", f"cmd={JIANG}"], ["name=hce", f"cmd={JIANG}", "option.UseNNUE=false"]]
    t = time.monotonic()
    cmd = [sys.executable, os.path.join(HERE, "match.py"), "--games", str(args.games), "--nodes",
           str(args.nodes), "--workers", "2", "--json", ours]
    for e in eng:
        cmd += ["--engine", *e]
    rc = subprocess.call(cmd)
    wc = time.monotonic() - t
    t = time.monotonic()
    cmd = [LAB, "match", "--games", str(args.games), "--nodes", str(args.nodes), "--openings",
           os.path.join(REPO, "tools", "match", "openings.epd"), "--concurrency", "2", "--quiet",
           "--json", theirs]
    for e in eng:
        cmd += ["--engine", *e, "restart=on"]
    rx = subprocess.call(cmd, stdout=subprocess.DEVNULL)
    wx = time.monotonic() - t
    print(f"cluster match {wc:.1f} s (exit {rc}), jiang-lab match concurrency 2 {wx:.1f} s (exit {rx})")
    same_games = subprocess.call([sys.executable, os.path.join(HERE, "compare_match.py"), ours, theirs])
    return 1 if rc or rx or same_games else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("check", choices=("equal", "kill", "match"))
    p.add_argument("--shards", type=int, default=40)
    p.add_argument("--shard-games", type=int, default=4)
    p.add_argument("--nodes", type=int, default=None, help="default 5000 (datagen), 2000 (match)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--kill-after", type=int, default=8, help="shards done before the kill")
    p.add_argument("--fresh-reference", action="store_true")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--work", default=os.path.join(REPO, "target", "cluster-bars"))
    args = p.parse_args()
    if args.nodes is None:
        args.nodes = 2000 if args.check == "match" else 5000
    return {"equal": cmd_equal, "kill": cmd_kill, "match": cmd_match}[args.check](args)


if __name__ == "__main__":
    sys.exit(main())
