"""The games a profile-guided build of the engine plays to learn which way its branches go (setup.py).

A regular install compiles the engine with mypyc, and with GCC it compiles it twice: first instrumented,
then, after these games, with the counts they left (``-fprofile-use``), so the C compiler lays out the
hot paths and inlines where the games spend their time.  The games are chosen not to be the
benchmark's: every mode a game of which can be made directly (duel, skirmish, Magma Chamber, war),
every built-in deck in turn, the random and the greedy agent, seeds from 10,000 up
(``benchmarks/compare.py`` plays Jinx against Viktor from seed 0).

Run by setup.py from the build folder, before the package is installed: so the plugins are not found
through entry points (there are none yet) but named on the command line, as the modules pyproject.toml's
entry points name, and no validation cache is read or written.

    python -m riftscript.tools.profile_training --require-compiled riftscript.plugins.keywords ...
"""
from __future__ import annotations

import argparse
import importlib
import sys

from riftscript.core.engine import state
from riftscript.core.engine.agents import play_out
from riftscript.core.errors import RiftScriptError
from riftscript.core.engine.game import Game
from riftscript.core.script.catalog import load_catalog
from riftscript.core.script.discovery import load_plugins

# modes whose games Game.new makes on their own (a Match is a series of duels)
MODES = ("duel", "skirmish", "magma-chamber", "war")
AGENTS = ("random", "greedy")
GAMES = 12  # per mode and agent
FIRST_SEED = 10_000
MAX_ACTIONS = 5_000  # a game longer than this stops (none is: the rules draw it before)


def train(modules: list[str], games_each: int = GAMES) -> tuple[int, int]:
    """Play the training games; returns how many games and actions were played."""
    plugins = load_plugins(extra=[importlib.import_module(name) for name in modules], entry_points=False)
    catalog = load_catalog(plugins, cache=False)
    agents = plugins.agents()
    modes = plugins.modes()
    decks = sorted(catalog.decks)
    games = actions = 0
    seed = FIRST_SEED
    for mode in MODES:
        seats = modes[mode].players
        for agent in AGENTS:
            for n in range(games_each):
                seed += 1
                chosen = [decks[(n * seats + k) % len(decks)] for k in range(seats)]
                try:
                    game = Game.new(catalog, chosen, mode=mode, seed=seed)
                except RiftScriptError:
                    continue  # decks this mode doesn't allow together (2v2 teammates share a legend)
                actions += play_out(game, [agents[agent].factory(seed + k) for k in range(seats)], MAX_ACTIONS)
                games += 1
    return games, actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m riftscript.tools.profile_training",
                                     description="Play the games a profile-guided build of the engine trains on.")
    parser.add_argument("modules", nargs="+", help="the built-in plugins' modules (pyproject.toml's entry points)")
    parser.add_argument("--games", type=int, default=GAMES, help="games per mode and agent")
    parser.add_argument("--require-compiled", action="store_true",
                        help="fail unless the engine imported is the compiled one (the build being trained)")
    args = parser.parse_args(argv)
    if args.require_compiled and not state.COMPILED:
        print(f"profile training: the engine imported ({state.__file__}) is not compiled", file=sys.stderr)
        return 1
    games, actions = train(args.modules, args.games)
    if games == 0:
        print("profile training: no game could be made", file=sys.stderr)
        return 1
    print(f"profile training: {games} games, {actions} actions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
