"""Running a job's games: in process, on a pool of worker processes, or as Ray tasks.

Every backend plays the games of a plan in ranges (batches) and yields what each range gave; the
games themselves depend only on the plan, so the records are the same for every backend and any
number of workers.  A stop request (Ctrl-C) reaches the games being played within a few actions: a
game cut short is dropped, every finished game is kept.
"""
from __future__ import annotations

import gc
import importlib
import logging
import multiprocessing
import os
import resource
import signal
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Iterator

from riftscript.core.errors import RiftScriptError
from riftscript.tools.lab.engine import Job, Record, Source, Stop, catalog_for, never, play, play_range, Abandoned

BACKENDS = ("local", "ray")
STOP_GRACE = 0.8  # seconds the games being played get to notice a stop before their workers are ended


@dataclass
class Batch:
    """What one range of games gave, and the memory of the process that played it (kB; 0: unknown)."""

    records: list[Record]
    rss: int = 0
    uss: int = 0
    pid: int = 0


@dataclass(frozen=True)
class Options:
    """How to run: the backend, worker processes (local), games per task, a Ray cluster's address."""

    backend: str = "local"
    workers: int = 1
    batch: int = 0  # 0: chosen from the number of games and workers
    address: str | None = None


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def batch_size(total: int, workers: int) -> int:
    """Games per task: small enough for frequent progress and a quick stop, big enough that the
    cost of a task (about a millisecond) stays far below its games' (about 25 ms each)."""
    return max(1, min(25, total // max(1, workers * 4)))


def ranges(total: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(total, start + size)


def memory() -> tuple[int, int]:
    """This process's resident memory and the part of it that is its own (not shared with the parent
    it was forked from), in kB, from /proc (0 where there is none)."""
    rss = uss = 0
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        with open("/proc/self/smaps_rollup", encoding="ascii") as rollup:
            for line in rollup:
                if line.startswith(("Private_Clean:", "Private_Dirty:")):
                    uss += int(line.split()[1])
    except OSError:
        pass
    return rss, uss


def cpu_seconds() -> float:
    """CPU time used so far by this process and its finished children (a pool's workers, once the pool
    is shut down): on a busy machine, games per CPU-second say what an idle core would do."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def execute(job: Job, source: Source, options: Options, stop: Stop = never) -> Iterator[Batch]:
    """Play every game of the job's plan with the chosen backend, yielding batches as they finish
    (in any order); once ``stop()`` is true, no new game starts."""
    total = job.plan.total
    size = options.batch or batch_size(total, options.workers)
    if options.backend == "ray":
        return _run_ray(job, source, ranges(total, size), options.address, stop)
    if options.backend != "local":
        raise RiftScriptError(f"unknown backend {options.backend!r}; choose one of {', '.join(BACKENDS)}")
    workers = min(options.workers, -(-total // size))  # no more workers than tasks
    if workers <= 1:
        return _run_here(job, source, total, stop)
    return _run_pool(job, source, ranges(total, size), workers, stop)


def _run_here(job: Job, source: Source, total: int, stop: Stop) -> Iterator[Batch]:
    """In this process, one game at a time (so progress is per game)."""
    catalog = catalog_for(source)
    for index in range(total):
        if stop():
            return
        try:
            record = play(catalog, job, job.plan.spec(index), stop)
        except Abandoned:
            return
        yield Batch([record], pid=os.getpid())


# --- worker processes -------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(source: Source, job: Job, stopping: Any) -> None:
    # Ctrl-C reaches the whole process group: the parent decides, and tells workers through ``stopping``
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER.update(catalog=catalog_for(source), job=job, stopping=stopping)
    # A worker only plays games, and what it holds now (the catalog, the modules) it holds until it ends: out
    # of the cyclic collector's reach, a full collection no longer walks them (about 5% of a compiled engine's
    # game time, benchmarks/gc_share.py).  Only here: in any other process it would freeze the caller's objects too.
    gc.freeze()


def _worker_range(start: int, end: int) -> Batch:
    records = play_range(_WORKER["catalog"], _WORKER["job"], start, end, _WORKER["stopping"].is_set)
    return Batch(records, *memory(), pid=os.getpid())


def _run_pool(job: Job, source: Source, todo: Iterator[tuple[int, int]], workers: int, stop: Stop) -> Iterator[Batch]:
    """On a process pool; a few tasks per worker in flight, so a stop cancels the rest at once.
    The catalog is loaded in this process first: forked workers inherit it (others load it once,
    through the validation cache)."""
    catalog_for(source)
    context = multiprocessing.get_context()
    stopping = context.Event()
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                               initargs=(source, job, stopping))
    running: set[Future[Batch]] = set()
    try:
        while True:
            while len(running) < workers * 3 and not stop():
                task = next(todo, None)
                if task is None:
                    break
                running.add(pool.submit(_worker_range, *task))
            if not running:
                return
            done, running = wait(running, timeout=0.1, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
            if stop():
                stopping.set()
                for future in running:
                    future.cancel()
                deadline = time.monotonic() + STOP_GRACE
                while running and time.monotonic() < deadline:
                    done, running = wait(running, timeout=deadline - time.monotonic(), return_when=FIRST_COMPLETED)
                    for future in done:
                        if not future.cancelled():
                            yield future.result()
                return
    finally:
        stopping.set()
        if any(not f.done() for f in running):
            # a game still running after the grace period: end its worker rather than wait
            for process in list(pool._processes.values()):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


# --- Ray --------------------------------------------------------------------------------------

def _ray_range(payload: tuple[Source, Job], start: int, end: int) -> Batch:
    """A Ray task: the catalog is loaded once per Ray worker process (through the validation cache)."""
    source, job = payload
    return Batch(play_range(catalog_for(source), job, start, end), *memory(), pid=os.getpid())


def _run_ray(job: Job, source: Source, todo: Iterator[tuple[int, int]], address: str | None,
             stop: Stop) -> Iterator[Batch]:
    """As Ray tasks, on the cluster at ``address`` (or $RAY_ADDRESS), or on a Ray instance started
    here; a Ray instance already initialised in this process (e.g. by a test) is used as it is."""
    try:
        ray: Any = importlib.import_module("ray")  # an optional extra: typed as Any here
    except ImportError:
        raise RiftScriptError("--backend ray needs Ray: pip install 'riftscript[cluster]'") from None
    started = not ray.is_initialized()
    if started:
        quiet = {"log_to_driver": False, "logging_level": logging.WARNING}  # our progress, not Ray's
        if address or os.environ.get("RAY_ADDRESS"):
            ray.init(address=address, **quiet)
        else:
            ray.init(include_dashboard=False, **quiet)
    try:
        payload = ray.put((source, job))
        task = ray.remote(num_cpus=1)(_ray_range)
        in_flight = max(2, int(ray.cluster_resources().get("CPU", 1)) * 2)
        running: list[Any] = []
        while True:
            while len(running) < in_flight and not stop():
                work = next(todo, None)
                if work is None:
                    break
                running.append(task.remote(payload, *work))
            if not running:
                return
            done, running = ray.wait(running, num_returns=1, timeout=0.1)
            for ref in done:
                yield ray.get(ref)
            if stop():
                for ref in running:
                    ray.cancel(ref)
                return
    finally:
        if started:
            ray.shutdown()
