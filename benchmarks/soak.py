"""Soak: many random games across all pairs of the installed official decks, invariants checked
after every action (riftscript.core.invariants).  Reports failures, stuck games and games/s.

    python3 benchmarks/soak.py [--games 1000] [--workers 2] [--seed 0]
"""
from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from riftscript.core.catalog import load_catalog
from riftscript.core.game import Game
from riftscript.core.invariants import baseline, check
from riftscript.plugins.agents import RandomAgent

MAX_ACTIONS = 20_000
_CATALOG: list[Any] = []


def _catalog() -> Any:
    if not _CATALOG:
        _CATALOG.append(load_catalog())
    return _CATALOG[0]


def play(task: tuple[str, str, int]) -> dict[str, Any]:
    a, b, seed = task
    cat = _catalog()
    game = Game.new(cat, [a, b], seed=seed)
    cards, counts = baseline(game)
    agents = [RandomAgent(seed * 2 + 1), RandomAgent(seed * 2 + 2)]
    actions = 0
    try:
        while not game.over and actions < MAX_ACTIONS:
            decision = game.pending_decision()
            if decision is None:
                return {"error": "no decision but not over", "seed": seed, "decks": [a, b]}
            game.apply(agents[decision.player].choose(game, game.legal_actions()))
            actions += 1
            problems = check(game, cards, counts)
            if problems:
                return {"error": f"invariant: {problems[0]}", "seed": seed, "decks": [a, b], "actions": actions}
    except Exception as exc:  # a soak reports crashes instead of stopping
        return {"error": f"{type(exc).__name__}: {exc}", "seed": seed, "decks": [a, b], "actions": actions}
    if not game.over:
        return {"error": "stuck: no end", "seed": seed, "decks": [a, b], "actions": actions}
    return {"result": game.state.result, "actions": actions, "turns": game.state.turn}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    decks = sorted(load_catalog().decks)
    pairs = list(itertools.combinations(decks, 2))
    tasks = [(*pairs[i % len(pairs)], args.seed + i) for i in range(args.games)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(play, tasks, chunksize=10))
    elapsed = time.perf_counter() - started
    errors = [r for r in results if "error" in r]
    outcome = Counter(r.get("result", "error") for r in results)
    actions = sum(r.get("actions", 0) for r in results)
    print(f"{args.games} games over {len(pairs)} deck pairs in {elapsed:.1f} s with {args.workers} workers: "
          f"{args.games / elapsed:.1f} games/s, {actions / elapsed:.0f} actions/s; results {dict(outcome)}")
    for r in errors[:20]:
        print("  ERROR", r)
    print(f"{len(errors)} failures")


if __name__ == "__main__":
    main()
