"""What datagen.py and match.py share: the cluster (a local one or a scheduler's address),
shipping files to the workers, running a child process on a worker, atomic writes and the
progress bar on stderr.

The functions that run on workers are sent there by value (cloudpickle), so a worker needs
only Python with the `distributed` package: no checkout, no shared file system. Files a job
needs (the jiang-lab binary, the engine binaries) travel as bytes inside a task of their own
and are written once per worker machine into a cache folder named by their SHA-256, which is
checked before every use.
"""

import hashlib
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def add_cluster_args(p):
    """--scheduler and --workers, the same for every job."""
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="a running Dask scheduler: its address (tcp://HOST:8786) or its scheduler file "
        "(dask scheduler --scheduler-file FILE); default: start a local cluster on this machine",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="workers of the local cluster, one thread each (default: one per core, %(default)s "
        "here); ignored with --scheduler",
    )


def start_client(args):
    """A Dask client on the scheduler at args.scheduler, or on a new local cluster of
    args.workers single-threaded worker processes. Returns (client, cluster or None)."""
    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        if os.path.isfile(args.scheduler):
            return Client(scheduler_file=args.scheduler), None
        return Client(args.scheduler), None
    cluster = LocalCluster(
        n_workers=max(1, args.workers),
        threads_per_worker=1,
        processes=True,
        # no memory limit: a shard or a pair needs little, and the nannies' memory monitor
        # (a psutil poll every 100 ms each) is then not started
        memory_limit=0,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    return Client(cluster), cluster


def by_value():
    """Sends this module's functions to workers (and to the scheduler, which unpickles task
    graphs) by value, as if the calling script had defined them: they need not have this
    file. Dask pickles a graph with plain pickle first, which would name the module, and
    cloudpickle's by-value registry is not consulted then; functions of `__main__` that
    pickle cannot find by name go to cloudpickle, which sends their code."""
    import inspect

    import cloudpickle

    # the scripts' functions name this module as a global `cc`: the module object itself
    # then travels by value too
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    for v in list(vars(sys.modules[__name__]).values()):
        if inspect.isfunction(v) and v.__module__ == __name__:
            v.__module__ = "__main__"


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def _identity(x):
    return x


def ship(client, data, what):
    """Makes `data` (bytes) available to tasks: a future to pass to them. It is a task
    holding the bytes, so the scheduler can run it again when the workers holding it die
    (scattered data could not be recomputed)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "large object in the task graph": meant
        return client.submit(_identity, data, key=f"ship-{what}-{sha256(data)[:16]}", pure=False)


def _cache_dir(sha):
    d = os.path.join(tempfile.gettempdir(), "jiang-cluster", sha[:32])
    os.makedirs(d, exist_ok=True)
    return d


def _file_sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def worker_file(data, sha, name, mode=0o755):
    """On a worker: the path of `data` written to the cache (once per machine; the content is
    checked against `sha` before every use and written again when it differs)."""
    path = os.path.join(_cache_dir(sha), name)
    if not (os.path.exists(path) and _file_sha(path) == sha):
        if sha256(data) != sha:
            raise RuntimeError(f"{name}: the shipped bytes do not match their SHA-256")
        tmp = f"{path}.tmp{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    return path


def _die_with_parent():
    # Linux: the child gets SIGKILL when the worker thread that started it dies, so a killed
    # worker leaves no engine or datagen process running on.
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def run_child(argv, cwd=None):
    """Runs a child process on a worker; returns (returncode, stdout bytes, stderr text)."""
    p = subprocess.run(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        preexec_fn=_die_with_parent,
    )
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def atomic_write(path, data):
    """Writes bytes to path so that the path either is absent or holds all of them."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def duration(s):
    s = int(max(0, s))
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 60}m{s % 60:02d}s"


class Progress:
    """A one-line progress bar on stderr (redrawn in place on a terminal, a line every
    `every` seconds otherwise): units done of total, a rate, time left."""

    def __init__(self, total, unit, rate_unit, every=10.0, stream=sys.stderr):
        self.total = total
        self.unit = unit
        self.rate_unit = rate_unit
        self.every = every
        self.stream = stream
        self.tty = stream.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.done = 0
        self.amount = 0
        self.extra = ""

    def update(self, done, amount, extra="", force=False):
        self.done, self.amount, self.extra = done, amount, extra
        now = time.monotonic()
        if not force and not self.tty and now - self.last < self.every:
            return
        self.last = now
        self.stream.write(("\r" if self.tty else "") + self.line() + ("" if self.tty else "\n"))
        self.stream.flush()

    def line(self):
        el = time.monotonic() - self.start
        frac = min(1.0, self.done / self.total) if self.total else 1.0
        bar = "#" * int(frac * 24)
        rate = self.amount / el if el > 0 else 0.0
        left = el / frac * (1 - frac) if frac > 0 else float("nan")
        eta = duration(left) if frac > 0 else "?"
        return (
            f"[{bar:<24}] {self.done}/{self.total} {self.unit}  {self.amount} {self.rate_unit} "
            f"({rate:.1f}/s)  {duration(el)} elapsed, {eta} left{self.extra}"
        )

    def close(self):
        self.update(self.done, self.amount, self.extra, force=True)
        if self.tty:
            self.stream.write("\n")
