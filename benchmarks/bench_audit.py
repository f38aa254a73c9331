"""Benchmark: the interaction audit of every installed set (target: under 2 s).

Usage: ``python3 benchmarks/bench_audit.py [--repeat 5]``

Times, in one process, each stage of ``riftscript audit``: loading the catalog (validation cache
warm, as after a first run), reading the kernel's event sources, building the graph, the
analyses (loops, dead triggers, keyword interactions, unread keys) and rendering the text; the
in-memory caches are cleared before each repeat.  Then the whole command in a fresh process,
interpreter start-up and imports included.  Not a test: nothing here asserts.
"""
from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Callable

from riftscript.core.script.catalog import load_catalog
from riftscript.tools import audit


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def once() -> dict[str, float]:
    audit.kernel_sources.cache_clear()
    load, catalog = _timed(load_catalog)
    kernel, _ = _timed(audit.kernel_sources)
    build, G = _timed(lambda: audit.build_graph(catalog))
    analyse, report = _timed(lambda: audit.audit(catalog, G))
    render, _ = _timed(lambda: audit.render_text(report, G, io.StringIO()))
    return {"load catalog": load, "kernel sources": kernel, "build graph": build,
            "analyses": analyse, "render text": render, "total": load + kernel + build + analyse + render,
            "nodes": G.number_of_nodes(), "edges": G.number_of_edges()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    load_catalog()  # fill the validation cache
    runs = [once() for _ in range(args.repeat)]
    print(f"audit of all installed sets: {int(runs[0]['nodes'])} nodes, {int(runs[0]['edges'])} edges; "
          f"median of {args.repeat} runs")
    for stage in ("load catalog", "kernel sources", "build graph", "analyses", "render text", "total"):
        print(f"  {stage:<15} {statistics.median(r[stage] for r in runs) * 1000:8.1f} ms")
    wall, cpu = [], []
    for _ in range(max(1, args.repeat // 2)):
        before = os.times()
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "riftscript.tools.audit"], check=True, stdout=subprocess.DEVNULL)
        wall.append(time.perf_counter() - start)
        after = os.times()
        cpu.append(after.children_user + after.children_system - before.children_user - before.children_system)
    print(f"  'riftscript audit' in a fresh process: {statistics.median(wall) * 1000:.0f} ms wall, "
          f"{statistics.median(cpu) * 1000:.0f} ms CPU (target < 2000 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
