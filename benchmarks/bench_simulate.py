"""Scaling of 'riftscript simulate' over worker processes: games/s for 1 and 2 workers (or any
counts) on the same seeded Duel games, the speed-up, and the memory of each worker process.

    python3 benchmarks/bench_simulate.py [--games 2000] [--workers 1 2] [--rounds 1]

Each round plays the same games once per worker count, side by side, and checks that every count gave
the same records (winner, length, log hash).  CPU time per game (this process and its workers) is
measured too: on a busy machine the wall-clock speed-up says little, while the CPU cost per game
with N workers against one says what N idle cores would give (N x cost(1) / cost(N)).  The target on the 2-core reference machine is a speed-up
of at least 1.8 with 2 workers; measure on an idle machine (other processes take cores away).
"""
from __future__ import annotations

import argparse
import statistics
from typing import Any

from riftscript.core.script.decks import load_deck
from riftscript.tools.lab.backends import Options, cpu_seconds
from riftscript.tools.lab.engine import FixedPlan, Job, Record, Source, catalog_for
from riftscript.tools.lab.run import run


def measure(job: Job, workers: int) -> tuple[float, float, int, int, list[tuple[Any, ...]]]:
    """games/s, CPU seconds per game (all processes), worker memory, and each game's result."""
    records: list[Record] = []
    before = cpu_seconds()
    outcome = run(job, Source(), Options(workers=workers), records.append, lambda: "", quiet=True)
    used = (cpu_seconds() - before) / max(1, outcome.done)
    keys = [(r["index"], tuple(r["winners"]), r["turns"], r["actions"], r["hash"]) for r in records]
    return outcome.rate, used, outcome.rss, outcome.uss, keys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--decks", nargs=2, default=["Jinx Champion Deck", "Viktor Champion Deck"])
    args = parser.parse_args()
    catalog = catalog_for(Source())
    decks = tuple(load_deck(catalog, d) for d in args.decks)
    job = Job(FixedPlan("duel", decks, tuple(args.decks), ("random", "random"), 0, args.games))
    rates: dict[int, list[float]] = {w: [] for w in args.workers}
    costs: dict[int, list[float]] = {w: [] for w in args.workers}
    for round_ in range(args.rounds):
        reference = None
        for workers in args.workers:
            rate, cost, rss, uss, keys = measure(job, workers)
            rates[workers].append(rate)
            costs[workers].append(cost)
            reference = reference or keys
            same = "same records" if keys == reference else "RECORDS DIFFER"
            memory = f", worker memory {rss / 1024:.0f} MB resident ({uss / 1024:.0f} MB own)" if rss else ""
            print(f"round {round_ + 1}: {workers} worker{'s' if workers > 1 else ''}: {args.games} games at "
                  f"{rate:.1f} games/s, {1000 * cost:.1f} ms CPU per game{memory}; {same}", flush=True)
    base = statistics.median(rates[args.workers[0]])
    for workers in args.workers[1:]:
        ratios = [r / b for r, b in zip(rates[workers], rates[args.workers[0]])]
        # with every worker on a core of its own, the speed-up is the workers times the CPU cost ratio
        projected = workers * statistics.median(costs[args.workers[0]]) / statistics.median(costs[workers])
        print(f"{workers} workers vs {args.workers[0]}: median speed-up {statistics.median(ratios):.2f}x "
              f"(median {statistics.median(rates[workers]):.1f} vs {base:.1f} games/s); CPU per game "
              f"{1000 * statistics.median(costs[workers]):.1f} vs {1000 * statistics.median(costs[args.workers[0]]):.1f} "
              f"ms, so {projected:.2f}x with {workers} idle cores")


if __name__ == "__main__":
    main()
