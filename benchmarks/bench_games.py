"""Duel games per second and applied actions per second on one core.

Plays seeded games between the Jinx and Viktor Champion Decks for a fixed time with the random
agent and with the first-legal-action agent, and prints the figures.  Usage:

    python3 benchmarks/bench_games.py [--seconds 30] [--decks A B]
    python3 benchmarks/bench_games.py --games 40   # the same 40 seeded games, also timing apply alone

``--games`` plays a fixed set of games, so two revisions can be compared side by side (run both in
turn a few times on the same machine and compare the medians): it prints the seconds spent in all,
and in ``Game.apply`` alone.
"""
from __future__ import annotations

import argparse
import time

from riftscript.core.engine.agents import play_out
from riftscript.core.script.catalog import load_catalog
from riftscript.core.engine.game import Game


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


def fixed(catalog, decks: list[str], agent: str, count: int) -> tuple[int, float, float]:
    """Seeds 0..count-1: (actions, seconds in all, seconds in Game.apply)."""
    specs = catalog.plugins.agents()
    actions = 0
    in_apply = 0.0
    started = time.perf_counter()
    for seed in range(count):
        game = Game.new(catalog, decks, seed=seed)
        agents = [specs[agent].factory(seed), specs[agent].factory(seed + 1)]
        while not game.over:
            decision = game.pending_decision()
            action = agents[decision.player].choose(game, game.legal_actions())
            t = time.perf_counter()
            game.apply(action)
            in_apply += time.perf_counter() - t
            actions += 1
    return actions, time.perf_counter() - started, in_apply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--decks", nargs=2, default=["Jinx Champion Deck", "Viktor Champion Deck"])
    parser.add_argument("--games", type=int, default=0, help="play this many seeded games instead of a fixed time")
    args = parser.parse_args()
    catalog = load_catalog()
    if args.games:
        for agent in ("random", "first"):
            actions, elapsed, in_apply = fixed(catalog, args.decks, agent, args.games)
            print(f"{agent:>6} agent: {args.games} games, {actions} actions in {elapsed:.2f} s "
                  f"({in_apply:.2f} s in apply, {in_apply / actions * 1e6:.0f} us per apply)")
        return
    for agent in ("random", "first"):
        games, actions, elapsed = run(catalog, args.decks, agent, args.seconds)
        print(f"{agent:>6} agent: {games} games in {elapsed:.1f} s = {games / elapsed:.1f} games/s, "
              f"{actions / elapsed:.0f} actions/s ({actions / max(1, games):.0f} actions/game)")


if __name__ == "__main__":
    main()
