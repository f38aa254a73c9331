"""Built-in agents: uniform random, first legal action, greedy, and the search agent's levels (plugins/mcts.py)."""
from __future__ import annotations

import functools
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
    pool that expires.  Moves are chosen among each unit alone and all of them together: the
    other groups of units (listed too, 144.3) would otherwise outnumber every other action.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.state = rng.seed_state(seed ^ 0x5EED)

    def choose(self, game: "Game", actions: list[dict[str, Any]]) -> dict[str, Any]:
        # rune abilities (negative indexes) are resources without asking
        meaningful = [a for a in _single_or_all(actions, game) if a["type"] != "activate"
                      or (a.get("ability", 0) >= 0 and not decisions.is_resource_action(game, a))] or actions
        self.state, i = rng.below(self.state, len(meaningful))
        return meaningful[i]


def _single_or_all(actions: list[dict[str, Any]], game: "Game | None" = None) -> list[dict[str, Any]]:
    """The actions without the moves of some but not all of the units that may go somewhere,
    without the combat assignments that split excess damage among several units, and recycling
    the first cards of the trash when a cost recycles some."""
    d = game.pending_decision() if game is not None else None
    if d is not None and d.kind == "assign" and "whole" in d.context:
        return actions[:int(d.context["whole"])]
    biggest: dict[Any, int] = {}
    for a in actions:
        if a["type"] == "move":
            biggest[a["to"]] = max(biggest.get(a["to"], 0), len(a["units"]))
    if not biggest:
        return [a for a in actions if "recycle_from_trash" not in a.get("pay_with", {})]
    return [a for a in actions if (a["type"] != "move" or len(a["units"]) in (1, biggest[a["to"]]))
            and "recycle_from_trash" not in a.get("pay_with", {})]


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


class GreedyAgent:
    """A simple eager player for demos: plays its most expensive card, then attacks, then ends.

    Spells that choose units prefer enemy units when the card allows any; everything else takes
    the first option.  Like the random agent, it moves units one at a time or all together.  Ties are broken by its own seeded chance, so games stay reproducible.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.state = rng.seed_state(seed ^ 0x6EED)

    def score(self, game: "Game", player: int, action: dict[str, Any]) -> float:
        """How eager it is to take the action (higher first); search agents use it as a prior."""
        kind = action.get("type")
        if kind == "play":
            card = game.card(int(action["card"]))
            targets = [t for slot in action.get("targets", []) for t in slot]
            enemy = sum(1 for t in targets if t in game.state.objs and game.obj(t).controller != player)
            friendly = len(targets) - enemy
            hostile = _harms(card.abilities)
            aim = (enemy - friendly) if hostile else (friendly - enemy)
            return 100 + card.energy * 5 + aim * 3 + len(action.get("costs", []))
        if kind == "move":
            to = int(action["to"])
            units = len(action["units"])
            return (60 + units) if to >= 10 else 5
        if kind == "hide":
            return 20
        if kind == "activate":
            return 30
        return 0

    def choose(self, game: "Game", actions: list[dict[str, Any]]) -> dict[str, Any]:
        decision = game.pending_decision()
        player = decision.player if decision is not None else 0
        meaningful = [a for a in _single_or_all(actions, game) if not decisions.is_resource_action(game, a)] or actions
        if decision is not None and decision.kind == "mulligan":
            return meaningful[0]
        if decision is not None and decision.kind == "choose":
            answers = [a for a in meaningful if a.get("value") not in (-1, False)]
            return (answers or meaningful)[0]
        scored = [(self.score(game, player, a), i) for i, a in enumerate(meaningful)]
        best = max(score for score, _ in scored)
        top = [i for score, i in scored if score == best]
        self.state, pick = rng.below(self.state, len(top))
        return meaningful[top[pick]]


HARMFUL = {"deal_damage", "kill", "stun", "return_to_hand", "banish", "counter", "mutual_damage"}


def _harms(abilities: Any) -> bool:
    """Whether a card's script mostly hurts what it targets (damage, kill, stun, bounce)."""
    stack: list[Any] = [a.body for a in abilities]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("type") in HARMFUL or node.get("negative"):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


# the search agent's difficulty levels: iterations per decision (deterministic for a seed)
MCTS_LEVELS = {"mcts-easy": 30, "mcts": 100, "mcts-hard": 300}


@hookimpl
def riftscript_agents() -> list[AgentSpec]:
    from riftscript.plugins.mcts import MCTSAgent  # it builds on the greedy agent above

    return [AgentSpec("random", RandomAgent, "uniform random over the legal actions"),
            AgentSpec("first", FirstAgent, "always the first legal action"),
            AgentSpec("greedy", GreedyAgent, "plays its most expensive card, then attacks"),
            *(AgentSpec(name, functools.partial(MCTSAgent, iterations=budget),
                        f"information-set Monte Carlo tree search, {budget} iterations a decision")
              for name, budget in MCTS_LEVELS.items())]
