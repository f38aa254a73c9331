"""One run of a job as a command makes it: feedback while it plays, Ctrl-C honoured, and every
finished game handed on in the order of the plan (whatever order the workers finished them in)."""
from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import Callable

from riftscript.tools.lab.backends import BACKENDS, Options, default_workers, execute
from riftscript.tools.lab.engine import Job, Record, Source
from riftscript.tools.lab.progress import Interrupt, feedback

INTERRUPTED = 130  # the exit status of a run stopped by Ctrl-C (128 + SIGINT)


@dataclass
class Outcome:
    """How a run went: games finished of those planned, whether Ctrl-C stopped it, its time, and the
    largest resident / own memory of any worker process (kB)."""

    done: int
    total: int
    interrupted: bool
    elapsed: float
    workers: int
    rss: int = 0
    uss: int = 0
    pids: set[int] = field(default_factory=set)

    @property
    def rate(self) -> float:
        return self.done / max(self.elapsed, 1e-9)

    def interruption(self, unit: str = "games") -> str:
        return f"interrupted after {self.done} of {self.total} {unit}"


class InOrder:
    """Hands records on by their index, holding back the ones that finished early."""

    def __init__(self, consume: Callable[[Record], None], start: int = 0) -> None:
        self.consume = consume
        self.next = start
        self.waiting: dict[int, Record] = {}

    def add(self, records: list[Record]) -> None:
        for record in records:
            self.waiting[record["index"]] = record
        while self.next in self.waiting:
            self.consume(self.waiting.pop(self.next))
            self.next += 1

    def flush(self) -> None:
        """After a stop: the finished games past a gap, still in order."""
        for index in sorted(self.waiting):
            self.consume(self.waiting.pop(index))


def run(job: Job, source: Source, options: Options, consume: Callable[[Record], None],
        status: Callable[[], str], label: str = "simulate", quiet: bool = False, unit: str = "games") -> Outcome:
    """Play the job; each finished game's record goes to ``consume`` in plan order."""
    total = job.plan.total
    order = InOrder(consume)
    outcome = Outcome(0, total, False, 0.0, options.workers if options.backend == "local" else 0)
    started = time.perf_counter()
    with Interrupt() as interrupt:
        shown = feedback(total, label, quiet, unit=unit)
        try:
            for batch in execute(job, source, options, interrupt):
                outcome.done += len(batch.records)
                outcome.rss = max(outcome.rss, batch.rss)
                outcome.uss = max(outcome.uss, batch.uss)
                outcome.pids.add(batch.pid)
                order.add(batch.records)
                shown.update(outcome.done, status())
        finally:
            shown.close()
            order.flush()
        outcome.interrupted = interrupt.requested
    outcome.elapsed = time.perf_counter() - started
    return outcome


def count(text: str) -> int:
    """An argument that counts something: a whole number of at least 1 (else a usage error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options every lab command shares: where and how the games run, and feedback."""
    parser.add_argument("--workers", type=count, default=None, metavar="N",
                        help="worker processes (default: every core; 1 plays in this process)")
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="local processes (default) or Ray tasks (pip install 'riftscript[cluster]')")
    parser.add_argument("--address", metavar="ADDR",
                        help="with --backend ray: the cluster to use, e.g. auto or ray://head:10001 "
                             "(default: $RAY_ADDRESS, else a cluster started here by 'ray start', else a new local "
                             "Ray instance)")
    parser.add_argument("--batch", type=count, default=0, metavar="N",
                        help="games per task (default: chosen from the games and workers)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or progress lines")


def options_of(args: argparse.Namespace) -> Options:
    workers = default_workers() if args.workers is None else args.workers
    return Options(backend=args.backend, workers=workers, batch=args.batch, address=args.address)


def source_of(args: argparse.Namespace) -> Source:
    """The catalog the command line asked for: --plugin modules and --no-cache."""
    return Source(tuple(getattr(args, "plugin", ()) or ()), not getattr(args, "no_cache", False))
