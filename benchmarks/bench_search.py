"""What search costs: copying and rewinding games, dealing determinizations, MCTS iterations.

Positions are taken from seeded greedy games between the Jinx and Viktor Champion Decks (the deciding
player's Main Phase decisions with a choice, from several turns).  Prints, per second of this process's
processor time (what the work costs, whatever else runs on the machine; on an idle machine the same as
wall-clock time on one core):

- ``Game.copy()`` (snapshot machinery) next to a ``to_json``/``from_json`` round trip, the way a
  search could copy a game without it;
- ``snapshot()`` + ``restore()`` of a game, the rewind a search does between iterations;
- ``Determinizer.deal``: a rewind with the hidden cards re-dealt, what one MCTS iteration starts with;
- MCTS iterations and decisions at each level.

Usage: ``python3 benchmarks/bench_search.py [--seconds 5] [--positions 12]``
"""
from __future__ import annotations

import argparse
import time
from typing import Any, Callable

from riftscript.core.script.catalog import load_catalog
from riftscript.core.engine.game import Game
from riftscript.plugins.agents import MCTS_LEVELS, GreedyAgent
from riftscript.plugins.mcts import Determinizer, MCTSAgent, _meaningful


def positions(catalog: Any, count: int) -> list[Game]:
    """Main Phase decisions with a choice, spread over the turns of several greedy games."""
    out: list[Game] = []
    seed = 0
    while len(out) < count:
        game = Game.new(catalog, ["Jinx Champion Deck", "Viktor Champion Deck"], seed=seed)
        agents = [GreedyAgent(seed), GreedyAgent(seed + 1)]
        taken_turns: set[int] = set()
        while not game.over and len(out) < count:
            decision = game.pending_decision()
            assert decision is not None
            actions = game.legal_actions()
            if decision.kind == "priority" and game.state.turn >= 2 and game.state.turn not in taken_turns \
                    and len(_meaningful(game, actions)) > 2:
                taken_turns.add(game.state.turn)
                out.append(game.copy())
            game.apply(agents[decision.player].choose(game, actions))
        seed += 1
    return out


def rate(work: Callable[[Game], None], games: list[Game], seconds: float) -> float:
    """Calls per second of ``work`` over the positions, for about ``seconds``."""
    done = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        for game in games:
            work(game)
        done += len(games)
    return done / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time for each measurement")
    parser.add_argument("--positions", type=int, default=12)
    args = parser.parse_args()
    catalog = load_catalog()
    games = positions(catalog, args.positions)
    objects = sum(len(g.state.objs) for g in games) / len(games)
    print(f"{len(games)} positions, {objects:.0f} objects each on average")
    copy = rate(lambda g: g.copy() and None, games, args.seconds)
    json_copy = rate(lambda g: Game.from_json(catalog, g.to_json()) and None, games, args.seconds)
    print(f"  Game.copy():            {copy:8.0f}/s   (to_json + from_json: {json_copy:.0f}/s, "
          f"{copy / json_copy:.0f}x slower)")
    snaps = {id(g): g.snapshot() for g in games}
    rewind = rate(lambda g: g.restore(snaps[id(g)]), games, args.seconds)
    print(f"  snapshot restore:       {rewind:8.0f}/s")
    snapshot = rate(lambda g: g.snapshot() and None, games, args.seconds)
    print(f"  snapshot taken:         {snapshot:8.0f}/s")
    determinizers = {id(g): Determinizer(g, g.state.decision.player if g.state.decision else 0) for g in games}
    deal = rate(lambda g: determinizers[id(g)].deal(1) and None, games, args.seconds)
    print(f"  determinization dealt:  {deal:8.0f}/s")
    for name, (iterations, work) in MCTS_LEVELS.items():
        decided = searched = 0
        slowest = 0.0
        started = time.process_time()
        for i, game in enumerate(games):
            agent = MCTSAgent(seed=i, iterations=iterations, work=work)
            before = time.process_time()
            agent.choose(game, game.legal_actions())
            slowest = max(slowest, time.process_time() - before)
            decided += 1
            searched += agent.searched
            if time.process_time() - started > args.seconds * 4:
                break
        elapsed = time.process_time() - started
        per_second = searched / elapsed
        print(f"  {name:<10} ({iterations:>3} iterations{'' if work is None else f', work {work:,}'}): "
              f"{per_second:6.0f} iterations/s, {searched / decided:.0f} iterations and {elapsed / decided:.3f} s "
              f"a decision (slowest {slowest:.3f} s); "
              f"dealing is {per_second / deal:.0%} of an iteration")


if __name__ == "__main__":
    main()
