"""Agents choose actions for a player; the engine never asks them anything else."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .vocabulary import Action
    from .game import Game
    from .match import Match


class Agent(Protocol):
    """What ``play_out``, ``simulate`` and the web app need of an agent: a name and a choice among the
    legal actions.  Agents are registered through the ``riftscript_agents`` hook (``AgentSpec``)."""

    name: str

    def choose(self, game: "Game", actions: list[Action]) -> Action:
        """Pick one of the legal actions for the deciding player."""
        ...


def play_out(game: "Game | Match", agents: list[Agent], max_actions: int = 100_000) -> int:
    """Let agents play until the game (or the match) ends; returns the number of actions applied.
    In a match each agent is shown the game being played."""
    from .match import Match

    applied = 0
    while not game.over and applied < max_actions:
        decision = game.pending_decision()
        if decision is None:
            break
        actions = game.legal_actions()
        current = game.game if isinstance(game, Match) else game
        action = agents[decision.player].choose(current, actions)
        game.apply(action)
        applied += 1
    return applied
