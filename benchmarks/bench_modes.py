"""Games per second and applied actions per second in every installed mode, on one core.

Random agents for every seat; decks seated so teammates may play together (491.8.h, 491.8.i).
Match modes count games (a match is 2 to 5 games).  Usage:

    python3 benchmarks/bench_modes.py [--seconds 10] [--modes duel war ...]
"""
from __future__ import annotations

import argparse
import itertools
import time
from typing import Any

from riftscript.core.engine.agents import play_out
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.script.decks import load_deck, team_violations
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match


def seatings(catalog: Catalog, players: int, teams: tuple[tuple[int, ...], ...]) -> list[tuple[str, ...]]:
    decks = sorted(catalog.decks)
    loaded = {d: load_deck(catalog, d) for d in decks}
    return [s for s in itertools.permutations(decks, players)
            if not team_violations(catalog, [loaded[d] for d in s], teams, list(s))]


def run(catalog: Catalog, mode: str, seconds: float) -> tuple[int, int, float]:
    assert catalog.plugins is not None
    spec = catalog.plugins.modes()[mode]
    random_agent = catalog.plugins.agents()["random"]
    options = seatings(catalog, spec.players, spec.teams)
    games = actions = seed = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        decks = list(options[(seed * 97) % len(options)])
        agents = [random_agent.factory(seed * 8 + i) for i in range(spec.players)]
        played: Any
        if spec.best_of > 1:
            played = Match.new(catalog, decks, mode=mode, seed=seed)
            actions += play_out(played, agents)
            games += played.result["games"]
        else:
            played = Game.new(catalog, decks, mode=mode, seed=seed)
            actions += play_out(played, agents)
            games += 1
        seed += 1
    return games, actions, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--modes", nargs="+")
    args = parser.parse_args()
    catalog = load_catalog()
    assert catalog.plugins is not None
    modes = args.modes or sorted(catalog.plugins.modes(), key=lambda m: (catalog.plugins.modes()[m].players, m))
    for mode in modes:
        games, actions, elapsed = run(catalog, mode, args.seconds)
        print(f"{mode:>14}: {games} games in {elapsed:.1f} s = {games / elapsed:.1f} games/s, "
              f"{actions / elapsed:.0f} actions/s ({actions / max(1, games):.0f} actions/game)")


if __name__ == "__main__":
    main()
