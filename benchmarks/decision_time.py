"""How long the search agent takes per decision, on chosen ladder games, measured in one process.

The ladder (``benchmarks/ladder.py``) records decision times while it plays for hours at low priority; this
script replays some of its games (the same seeds, decks, seats and agent seeds as ``ladder.play``, so the
same decisions) and times each decision with a choice in processor seconds, with nothing else in the
process.  It prints the distribution (mean, 50th/95th/99th percentile, maximum, decisions over one second)
and the slowest decisions with the number of objects on the board, so a change to the engine's speed can be
checked against the issue's target (a decision at the default level within 1 s) by running this script on
each revision, one after the other, in one sitting.  Usage:

    python3 benchmarks/decision_time.py [--pairing greedy mcts] [--agent mcts] [--as mcts@100,100000]
                                        [--games 0 1 18 75]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ladder  # noqa: E402  (the ladder's seeding, decks and agents)


def replay(a: str, b: str, agent: str, index: int, timed_as: str | None = None) -> list[tuple[float, int, int]]:
    """(processor seconds, legal actions, board objects) of each of the agent's decisions with a choice
    in ladder game ``index`` of the pairing a-b (seed 0; the ladder names a pairing in its agents' order)."""
    from riftscript.core.engine.game import Game

    catalog = ladder._catalog()
    seed = index // 2
    decks = list(ladder.DECK_PAIRS[seed % len(ladder.DECK_PAIRS)])
    seats = [a, b] if index % 2 == 0 else [b, a]
    game = Game.new(catalog, decks, seed=seed, names=[d.split()[0] for d in decks])
    agents = [ladder._agent(catalog, timed_as if timed_as and name == agent else name, seed * 7919 + i)
              for i, name in enumerate(seats)]
    out: list[tuple[float, int, int]] = []
    while not game.over:
        decision = game.pending_decision()
        if decision is None:
            break
        legal = game.legal_actions()
        started = time.process_time()
        action = agents[decision.player].choose(game, legal)
        spent = time.process_time() - started
        if seats[decision.player] == agent and len(legal) > 1:
            out.append((spent, len(legal), len(game.board_objects())))
        game.apply(action)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairing", nargs=2, default=["greedy", "mcts"], metavar=("A", "B"),
                        help="the ladder's pairing, in its order (greedy mcts: greedy vs the default level)")
    parser.add_argument("--agent", default=None, help="the agent timed (default: B)")
    parser.add_argument("--as", dest="timed_as", default=None,
                        help="play the timed agent's seat with this agent instead (mcts@100,100000: another budget)")
    parser.add_argument("--games", nargs="+", type=int, default=[0, 1, 18, 75],
                        help="ladder game indexes (18 and 75 hold the slowest decisions the ladder saw)")
    args = parser.parse_args()
    a, b = args.pairing
    agent = args.agent or b
    times: list[tuple[float, int, int, int]] = []
    for index in args.games:
        rows = replay(a, b, agent, index, args.timed_as)
        times += [(spent, legal, board, index) for spent, legal, board in rows]
        print(f"game {index}: {len(rows)} decisions, slowest {max((r[0] for r in rows), default=0):.3f} s",
              flush=True)
    spent = sorted(t[0] for t in times)
    if not spent:
        sys.exit("no decisions with a choice were played")

    def pct(p: float) -> float:
        return spent[min(len(spent) - 1, int(p * len(spent)))]

    print(f"{agent} in {a} vs {b}, {len(spent)} decisions with a choice, processor seconds: "
          f"mean {statistics.mean(spent):.3f}, p50 {pct(0.5):.3f}, p95 {pct(0.95):.3f}, p99 {pct(0.99):.3f}, "
          f"max {spent[-1]:.3f}; over 1 s: {sum(t > 1 for t in spent)}")
    for seconds, legal, board, index in sorted(times, reverse=True)[:5]:
        print(f"  {seconds:.3f} s  game {index}, {legal} legal actions, {board} objects on the board")


if __name__ == "__main__":
    main()
