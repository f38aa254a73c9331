"""Soak: random games in every installed mode and every seating of the installed decks, with every
invariant checked after every action (riftscript.core.engine.invariants).  Reports failures, stuck games and
games/s per core; each failing game is written to a records file that ``riftscript replay`` reproduces.

    python3 benchmarks/soak.py [--games 1000] [--workers N] [--seed 0] [--failures soak-failures.jsonl]
    nice -n 19 python3 benchmarks/soak.py --games 1000000 --workers 2 --quiet
    python3 benchmarks/soak.py --random-decks --games 2000   # every installed card, not only the decks'

Game i plays mode i mod M (M installed modes; a best-of mode plays a whole match) with the seating
(i div M) mod S of that mode: in two-player modes every ordered pair of decks, mirrors included; in
multiplayer modes every ordered choice of distinct decks (in 2v2, those whose teammates may play
together: 491.8.h, 491.8.i).  With ``--random-decks``, each seat plays a legal deck drawn at random from every
installed card instead (``decks.random_deck``, seeded from the game's seed): the installed decks hold a fraction
of the cards, and the rest were otherwise only played in their own scenarios; a failing game's decks are
written as deck files next to the failures file, which its record names, so ``riftscript replay`` plays it
again.  Game i is seeded seed + i.  A game is stuck when it passes 30,000 actions
or uses 120 s of CPU.  Ctrl-C stops within a second with the summary of the games finished.
"""
from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from dataclasses import dataclass

from riftscript.core.script.catalog import Catalog
import json
from pathlib import Path
from random import Random

from riftscript.core.script.decks import Deck, deck_document, load_deck, random_seating, team_violations
from riftscript.tools.lab.backends import Options, cpu_seconds, default_workers, memory
from riftscript.tools.lab.engine import GameSpec, Job, Record, Source, catalog_for
from riftscript.tools.lab.records import open_writer
from riftscript.tools.lab.run import run

MAX_ACTIONS = 30_000
TIME_LIMIT = 120.0


@dataclass(frozen=True)
class SoakPlan:
    modes: tuple[str, ...]
    seatings: tuple[tuple[tuple[int, ...], ...], ...]  # per mode: deck numbers by seat
    decks: tuple[Deck, ...]
    refs: tuple[str, ...]
    seed: int
    games: int

    @property
    def total(self) -> int:
        return self.games

    def spec(self, index: int) -> GameSpec:
        m = index % len(self.modes)
        seats = self.seatings[m][(index // len(self.modes)) % len(self.seatings[m])]
        return GameSpec(index, self.seed + index, self.modes[m], tuple(self.decks[d] for d in seats),
                        tuple(self.refs[d] for d in seats), ("random",) * len(seats))


@dataclass(frozen=True)
class RandomDeckPlan:
    """Game i: mode i mod M, each seat a random legal deck drawn from the game's seed (2v2: teammates
    drawn again until they may play together)."""

    catalog: Catalog
    plan: SoakPlan  # the modes, the seed and the number of games of the soak of the installed decks

    @property
    def total(self) -> int:
        return self.plan.games

    @property
    def modes(self) -> tuple[str, ...]:
        return self.plan.modes

    def spec(self, index: int) -> GameSpec:
        assert self.catalog.plugins is not None
        name = self.modes[index % len(self.modes)]
        mode = self.catalog.plugins.modes()[name]
        seed = self.plan.seed + index
        decks = random_seating(self.catalog, Random(seed), mode.players, mode.teams, f"R{seed}")
        return GameSpec(index, seed, name, decks, tuple(d.name for d in decks), ("random",) * len(decks))


def write_decks(plan: RandomDeckPlan, record: Record, folder: Path) -> None:
    """A failing game's random decks as deck files, and its record naming them (for ``riftscript replay``)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for deck in plan.spec(int(record["index"])).decks:
        path = folder / f"{deck.name}.yaml"
        path.write_text(json.dumps(deck_document(deck), indent=1) + "\n", encoding="utf-8")  # JSON is YAML
        paths.append(str(path))
    record["decks"] = paths


def make_plan(catalog: Catalog, games: int, seed: int, only: list[str] | None) -> SoakPlan:
    assert catalog.plugins is not None
    refs = tuple(sorted(catalog.decks))
    decks = tuple(load_deck(catalog, r) for r in refs)
    modes, seatings = [], []
    for name, mode in sorted(catalog.plugins.modes().items()):
        if only and name not in only:
            continue
        if mode.players == 2:
            options = list(itertools.product(range(len(decks)), repeat=2))
        else:
            options = [seats for seats in itertools.permutations(range(len(decks)), mode.players)
                       if not mode.teams or not team_violations(catalog, [decks[d] for d in seats], mode.teams,
                                                                [refs[d] for d in seats])]
        modes.append(name)
        seatings.append(tuple(options))
    return SoakPlan(tuple(modes), tuple(seatings), decks, refs, seed, games)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--modes", nargs="+", metavar="MODE", help="only these modes (default: every installed one)")
    parser.add_argument("--failures", default="soak-failures.jsonl",
                        help="records of the failing games (default: soak-failures.jsonl)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--random-decks", action="store_true",
                        help="each seat plays a random legal deck of the installed cards (written out for failures)")
    args = parser.parse_args()
    source = Source()
    catalog = catalog_for(source)
    installed = make_plan(catalog, args.games, args.seed, args.modes)
    plan = RandomDeckPlan(catalog, installed) if args.random_decks else installed
    job = Job(plan, checked=True, max_actions=MAX_ACTIONS, time_limit=TIME_LIMIT)
    games: Counter[str] = Counter()
    draws: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    actions = 0
    writer = open_writer(args.failures, flush=True)  # a failure is on disk as soon as it is found
    failures: list[Record] = []

    def consume(record: Record) -> None:
        nonlocal actions
        games[record["mode"]] += 1
        actions += record["actions"]
        draws[record["mode"]] += not record["winners"] and not record.get("error")
        if record.get("error"):
            failed[record["mode"]] += 1
            if isinstance(plan, RandomDeckPlan):
                write_decks(plan, record, Path(args.failures + ".decks"))
            failures.append(record)
            writer.write(record)

    def status() -> str:
        return f"{sum(failed.values())} failures"

    started = time.strftime("%Y-%m-%d %H:%M")
    cpu = cpu_seconds()
    try:
        outcome = run(job, source, Options(workers=args.workers), consume, status, label="soak", quiet=args.quiet)
    finally:
        writer.close()
    cpu = cpu_seconds() - cpu
    done = sum(games.values())
    stuck = sum(1 for r in failures if r["error"].startswith("stuck"))
    cores = max(1, args.workers)
    if outcome.interrupted:
        print(outcome.interruption())
    # one worker plays in this process, which reports no batch memory: read this process's own
    rss, uss = (outcome.rss, outcome.uss) if outcome.rss else memory()
    where = "worker memory up to" if outcome.rss else "this process's memory at the end:"
    print(f"soak started {started}: {done} games in {outcome.elapsed:.0f} s on {args.workers} workers: "
          f"{outcome.rate:.1f} games/s, {outcome.rate / cores:.1f} games/s per core, {actions / outcome.elapsed:.0f} "
          f"actions/s; {done / max(cpu, 1e-9):.1f} games per CPU-second (what an idle core does); {where} "
          f"{rss / 1024:.0f} MB resident ({uss / 1024:.0f} MB own)")
    for mode in plan.modes:
        print(f"  {mode:<14} {games[mode]:>8} games  {draws[mode]:>6} draws  {failed[mode]:>4} failures")
    print(f"{len(failures)} failures ({stuck} stuck) of {done} games")
    for record in failures[:20]:
        print(f"  game {record['index']} {record['mode']} seed {record['seed']} {record['decks']}: {record['error'][:300]}\n"
              f"    riftscript replay {args.failures} --index {record['index']}")
    return 130 if outcome.interrupted else (1 if failures else 0)


if __name__ == "__main__":
    sys.exit(main())
