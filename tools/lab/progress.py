"""Feedback while a run plays: a progress bar on a terminal, plain periodic lines otherwise, or
nothing (``--quiet``); and Ctrl-C as a request to stop that the run honours within a second."""
from __future__ import annotations

import signal
import sys
import threading
import time
from types import FrameType
from typing import Any, Protocol, TextIO

LINE_EVERY = 10.0  # seconds between plain progress lines


def clock(seconds: float) -> str:
    """1:02:03 or 2:03."""
    seconds = max(0, int(seconds + 0.5))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Feedback(Protocol):
    def update(self, done: int, status: str) -> None: ...

    def close(self) -> None: ...


class Silent:
    def update(self, done: int, status: str) -> None:
        pass

    def close(self) -> None:
        pass


class Lines:
    """One line every ``every`` seconds: done of total, games/s, time left, wins so far."""

    def __init__(self, total: int, label: str, stream: TextIO, every: float | None = None, unit: str = "games") -> None:
        self.total, self.label, self.stream, self.unit = total, label, stream, unit
        self.every = LINE_EVERY if every is None else every
        self.started = self.last = time.monotonic()

    def update(self, done: int, status: str) -> None:
        now = time.monotonic()
        if now - self.last < self.every:
            return
        self.last = now
        rate = done / max(now - self.started, 1e-9)
        left = clock((self.total - done) / rate) if rate > 0 else "?"
        print(f"{self.label}: {done}/{self.total} {self.unit} ({100 * done / max(1, self.total):.0f}%), "
              f"{rate:.1f} {self.unit}/s, {left} left; {status}", file=self.stream, flush=True)

    def close(self) -> None:
        pass


class Bar:
    """A rich progress bar: games done, games/s, time left and wins so far; redrawn by ``update``
    (no drawing thread, so worker processes are never forked while one holds a lock)."""

    def __init__(self, total: int, label: str, stream: TextIO, unit: str = "games") -> None:
        self.unit = unit
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                                 TextColumn("{task.fields[status]}"),
                                 console=Console(file=stream), auto_refresh=False,
                                 # lines printed to the same terminal (--json) go above the bar
                                 redirect_stdout=sys.stdout.isatty() and stream.isatty(), redirect_stderr=False)
        self.task = self.progress.add_task(label, total=total, rate="", status="")
        self.started = self.last = time.monotonic()
        self.progress.start()

    def update(self, done: int, status: str) -> None:
        now = time.monotonic()
        rate = done / max(now - self.started, 1e-9)
        self.progress.update(self.task, completed=done, rate=f"{rate:.1f} {self.unit}/s", status=status)
        if now - self.last >= 0.1:
            self.last = now
            self.progress.refresh()

    def close(self) -> None:
        self.progress.refresh()
        self.progress.stop()


def feedback(total: int, label: str, quiet: bool, stream: TextIO | None = None, unit: str = "games") -> Feedback:
    """The feedback that fits where the output goes."""
    stream = stream or sys.stderr
    if quiet:
        return Silent()
    if stream.isatty():
        return Bar(total, label, stream, unit)
    return Lines(total, label, stream, unit=unit)


class Interrupt:
    """Ctrl-C sets a flag that the run checks between games and every few actions; a second Ctrl-C
    raises KeyboardInterrupt at once.  Outside the main thread Ctrl-C keeps Python's behaviour."""

    def __init__(self) -> None:
        self.requested = False
        self.previous: Any = None

    def __call__(self) -> bool:
        return self.requested

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __enter__(self) -> "Interrupt":
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
