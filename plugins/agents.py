"""Built-in agents: uniform random, first legal action, greedy (plugins/policies.py) and the search agent's
levels (plugins/mcts.py), registered through the same hook as a third-party agent."""
from __future__ import annotations

import functools

from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import AgentSpec
from riftscript.plugins.policies import FirstAgent as FirstAgent, GreedyAgent as GreedyAgent
from riftscript.plugins.policies import RandomAgent as RandomAgent


# The search agent's difficulty levels: iterations per decision, and for the default level a work budget
# too (the work of the engine steps its playouts take, see MCTSAgent), so a decision stays under a second
# even on a crowded board.  Both budgets are counts, so a level plays the same for a seed on any machine.
MCTS_LEVELS: dict[str, tuple[int, int | None]] = {
    "mcts-easy": (30, None), "mcts": (100, 120_000), "mcts-hard": (300, None)}


def _level_description(iterations: int, work: int | None) -> str:
    budget = f"{iterations} iterations" + (f" or {work:,} units of work" if work is not None else "")
    return f"information-set Monte Carlo tree search, {budget} a decision"


@hookimpl
def riftscript_agents() -> list[AgentSpec]:
    from riftscript.plugins.mcts import MCTSAgent  # it builds on the greedy agent above

    return [AgentSpec("random", RandomAgent, "uniform random over the legal actions"),
            AgentSpec("first", FirstAgent, "always the first legal action"),
            AgentSpec("greedy", GreedyAgent,
                      "plays its most expensive card, attacks what it can win, aims spells where they help"),
            *(AgentSpec(name, functools.partial(MCTSAgent, iterations=iterations, work=work),
                        _level_description(iterations, work))
              for name, (iterations, work) in MCTS_LEVELS.items())]
