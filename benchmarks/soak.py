"""Soak: many random games across all pairs of the installed decks, invariants checked
after every action (riftscript.core.invariants).  Reports failures, stuck games and games/s.

    python3 benchmarks/soak.py [--games 1000] [--workers 2] [--seed 0] [--modes duel war ...|all]

With ``--modes``, games cycle through those modes (``all``: every installed mode; a best-of mode
plays each game as a game of its Match would be played - one game per task), each with decks seated
so that teammates may play together (491.8.h, 491.8.i).
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


def play(task: tuple[tuple[str, ...], int, str]) -> dict[str, Any]:
    decks, seed, mode = task
    cat = _catalog()
    game = Game.new(cat, list(decks), mode=mode, seed=seed)
    cards, counts = baseline(game)
    agents = [RandomAgent(seed * len(decks) + 1 + i) for i in range(len(decks))]
    actions = 0
    try:
        while not game.over and actions < MAX_ACTIONS:
            decision = game.pending_decision()
            if decision is None:
                return {"error": "no decision but not over", "seed": seed, "decks": decks, "mode": mode}
            game.apply(agents[decision.player].choose(game, game.legal_actions()))
            actions += 1
            problems = check(game, cards, counts)
            if problems:
                return {"error": f"invariant: {problems[0]}", "seed": seed, "decks": decks, "mode": mode, "actions": actions}
    except Exception as exc:  # a soak reports crashes instead of stopping
        return {"error": f"{type(exc).__name__}: {exc}", "seed": seed, "decks": decks, "mode": mode, "actions": actions}
    if not game.over:
        return {"error": "stuck: no end", "seed": seed, "decks": decks, "mode": mode, "actions": actions}
    return {"result": game.state.result, "actions": actions, "turns": game.state.turn, "mode": mode}


def seatings(cat: Any, mode: str) -> list[tuple[str, ...]]:
    """Deck seatings for a mode: every pair in 1v1; for more players, permutations whose teammates
    may play together (a sample, in a fixed order)."""
    from riftscript.core.decks import load_deck, team_violations

    spec = cat.plugins.modes()[mode]
    decks = sorted(cat.decks)
    if spec.players == 2:
        return list(itertools.combinations(decks, 2))
    loaded = {d: load_deck(cat, d) for d in decks}
    return [s for s in itertools.permutations(decks, spec.players)
            if not team_violations(cat, [loaded[d] for d in s], spec.teams, list(s))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--modes", nargs="+", default=["duel"])
    args = parser.parse_args()
    cat = load_catalog()
    assert cat.plugins is not None
    modes = sorted(cat.plugins.modes()) if args.modes == ["all"] else args.modes
    seats = {m: seatings(cat, m) for m in modes}
    pairs = seats[modes[0]]
    tasks = []
    for i in range(args.games):
        mode = modes[i % len(modes)]
        options = seats[mode]
        tasks.append((options[(i // len(modes) * 7919) % len(options)], args.seed + i, mode))
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(play, tasks, chunksize=10))
    elapsed = time.perf_counter() - started
    errors = [r for r in results if "error" in r]
    outcome = Counter(r.get("result", "error") for r in results)
    per_mode = Counter(r.get("mode", "?") for r in results if "error" not in r)
    actions = sum(r.get("actions", 0) for r in results)
    print(f"{args.games} games ({', '.join(modes)}; {len(cat.decks)} decks, {len(pairs)} {modes[0]} seatings) "
          f"in {elapsed:.1f} s with {args.workers} workers: "
          f"{args.games / elapsed:.1f} games/s, {actions / elapsed:.0f} actions/s; results {dict(outcome)}; "
          f"finished per mode {dict(per_mode)}")
    for r in errors[:20]:
        print("  ERROR", r)
    print(f"{len(errors)} failures")


if __name__ == "__main__":
    main()
