"""Agents choose actions for a player; the engine never asks them anything else."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .game import Game


class Agent(Protocol):
    name: str

    def choose(self, game: "Game", actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Pick one of the legal actions for the deciding player."""
        ...


def play_out(game: "Game", agents: list[Agent], max_actions: int = 100_000) -> int:
    """Let agents play until the game ends; returns the number of actions applied."""
    applied = 0
    while not game.over and applied < max_actions:
        decision = game.pending_decision()
        if decision is None:
            break
        actions = game.legal_actions()
        action = agents[decision.player].choose(game, actions)
        game.apply(action)
        applied += 1
    return applied
