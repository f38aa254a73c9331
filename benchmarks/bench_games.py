"""Duel games per second and applied actions per second on one core.

Plays seeded games between the Jinx and Viktor Champion Decks for a fixed time with the random
agent and with the first-legal-action agent, and prints the figures.  Usage:

    python3 benchmarks/bench_games.py [--seconds 30] [--decks A B]
"""
from __future__ import annotations

import argparse
import time

from riftscript.core.agents import play_out
from riftscript.core.catalog import load_catalog
from riftscript.core.game import Game


def run(catalog, decks: list[str], agent: str, seconds: float) -> tuple[int, int, float]:
    specs = catalog.plugins.agents()
    games = actions = 0
    started = time.perf_counter()
    seed = 0
    while time.perf_counter() - started < seconds:
        game = Game.new(catalog, decks, seed=seed)
        actions += play_out(game, [specs[agent].factory(seed), specs[agent].factory(seed + 1)])
        games += 1
        seed += 1
    return games, actions, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--decks", nargs=2, default=["Jinx Champion Deck", "Viktor Champion Deck"])
    args = parser.parse_args()
    catalog = load_catalog()
    for agent in ("random", "first"):
        games, actions, elapsed = run(catalog, args.decks, agent, args.seconds)
        print(f"{agent:>6} agent: {games} games in {elapsed:.1f} s = {games / elapsed:.1f} games/s, "
              f"{actions / elapsed:.0f} actions/s ({actions / max(1, games):.0f} actions/game)")


if __name__ == "__main__":
    main()
