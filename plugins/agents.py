"""Built-in agents: a uniform random agent and a first-legal-action agent."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from riftscript.core import decisions, rng
from riftscript.core.hookspecs import hookimpl
from riftscript.core.registry import AgentSpec

if TYPE_CHECKING:
    from riftscript.core.game import Game


class RandomAgent:
    """Picks uniformly among the legal actions, with its own seeded chance.

    Rune and other Add abilities are left out when anything else is possible: playing a card
    already pays through them, so a random agent would otherwise mostly empty its runes into a
    pool that expires.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.state = rng.seed_state(seed ^ 0x5EED)

    def choose(self, game: "Game", actions: list[dict[str, Any]]) -> dict[str, Any]:
        meaningful = [a for a in actions if not decisions.is_resource_action(game, a)] or actions
        self.state, i = rng.below(self.state, len(meaningful))
        return meaningful[i]


class FirstAgent:
    """Takes the first legal action (cheap and deterministic; useful for benchmarks)."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: "Game", actions: list[dict[str, Any]]) -> dict[str, Any]:
        for action in actions:
            if not decisions.is_resource_action(game, action):
                return action
        return actions[0]


@hookimpl
def riftscript_agents() -> list[AgentSpec]:
    return [AgentSpec("random", RandomAgent, "uniform random over the legal actions"),
            AgentSpec("first", FirstAgent, "always the first legal action")]
