"""A PettingZoo AEC environment: the seats of one game of any installed mode are the agents."""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # PettingZoo ships no type information
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.errors import IllegalActionError, RiftScriptError
from riftscript.core.engine.game import Game
from riftscript.core.engine.vocabulary import Action
from riftscript.core.script.registry import ModeSpec
from riftscript.tools.play import narrate, seating

from . import encoding

DEFAULT_DECKS = ["Jinx Champion Deck", "Viktor Champion Deck", "Lee Sin Champion Deck", "Garen Starter Deck"]


def one_game(catalog: Catalog, mode: str, decks: list[str] | None) -> tuple[ModeSpec, list[str]]:
    """The installed mode and the decks of its seats (by default the first of ``DEFAULT_DECKS``), or an
    error saying what's wrong; a match of several games is refused (an episode is one game)."""
    assert catalog.plugins is not None
    known = catalog.plugins.modes().get(mode)
    chosen = list(decks) if decks is not None else DEFAULT_DECKS[:known.players if known is not None else 2]
    spec, chosen = seating(catalog, mode, chosen)
    if spec.best_of > 1:
        raise RiftScriptError(f"{mode} is a match of several games; the environment plays one game at a time")
    return spec, chosen


class RiftboundEnv(AECEnv):  # type: ignore[misc]  # an untyped base class
    """One game of Riftbound per episode; ``player_0`` ... are the seats in seat order.

    Observations are ``{"observation": vector, "action_mask": mask}`` (see ``encoding``; the mask is
    all zeros for an agent that is not deciding); ``infos[agent]`` holds ``observation``, the
    engine's structured observation of that seat, and for the deciding agent ``legal_actions``, the
    engine's actions by index.  Rewards come at the end of a game: 1 to the winners, -1 to the
    others, 0 to all in a draw; a game cut at ``max_steps`` actions is truncated.
    """

    metadata: dict[str, Any] = {"name": "riftscript_v0", "render_modes": ["human", "ansi"],
                                "is_parallelizable": False}

    def __init__(self, mode: str = "duel", decks: list[str] | None = None, render_mode: str | None = None,
                 max_steps: int = 5000, catalog: Catalog | None = None) -> None:
        super().__init__()
        self.catalog = catalog or load_catalog()
        spec, self.decks = one_game(self.catalog, mode, decks)
        self.mode = mode
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.possible_agents = [f"player_{i}" for i in range(spec.players)]
        self._observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (encoding.OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (encoding.ACTION_SIZE,), np.int8)}) for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(encoding.ACTION_SIZE) for agent in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.game: Game | None = None
        self._table: dict[int, Action] = {}
        self._rendered = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; the same seed gives the same game."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(self._seeds.integers(0, 2**31)) if seed is None else seed
        self.game = Game.new(self.catalog, self.decks, mode=self.mode, seed=game_seed,
                             names=[d.split()[0] for d in self.decks])
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.steps = 0
        self._rendered = 0
        self._next()

    def _next(self) -> None:
        """Select the deciding agent and describe the game to every agent."""
        assert self.game is not None
        decision = self.game.pending_decision()
        legal = self.game.legal_actions()
        if decision is not None:
            self.agent_selection = self.possible_agents[decision.player]
            self._table = encoding.encode_actions(self.game, decision.player, legal)
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]
        self._legal = legal
        for agent in self.agents:
            self.infos[agent] = {"observation": self.game.observation(self.possible_agents.index(agent))}
        if decision is not None and not self.game.over:
            self.infos[self.agent_selection]["legal_actions"] = dict(self._table)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None
        seat = self.possible_agents.index(agent)
        deciding = agent == self.agent_selection and not self.game.over
        mask = encoding.action_mask(self._table) if deciding else np.zeros(encoding.ACTION_SIZE, np.int8)
        return {"observation": encoding.observe(self.game, seat, self._legal if deciding else None),
                "action_mask": mask}

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        if action is None or int(action) not in self._table:
            raise IllegalActionError(f"action {action!r} is not in the action mask of {self.agent_selection}")
        self._cumulative_rewards[self.agent_selection] = 0.0
        self._clear_rewards()
        self.game.apply(self._table[int(action)])
        self.steps += 1
        s = self.game.state
        if self.game.over:
            winners = {self.possible_agents[w] for w in s.winners or []}
            for agent in self.agents:
                self.rewards[agent] = 0.0 if not winners else (1.0 if agent in winners else -1.0)
                self.terminations[agent] = True
        elif self.steps >= self.max_steps:
            for agent in self.agents:
                self.truncations[agent] = True
        self._accumulate_rewards()
        self._next()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The play-by-play since the last call: printed ('human') or returned ('ansi')."""
        if self.game is None or self.render_mode is None:
            return None
        text, self._rendered = play_by_play(self.game, self._rendered, self.render_mode)
        return text

    def close(self) -> None:
        self.game = None


def play_by_play(game: Game, shown: int, render_mode: str) -> tuple[str | None, int]:
    """The play-by-play after its first ``shown`` lines, printed ('human') or returned ('ansi'), and
    the number of lines shown now."""
    lines = narrate(game)
    text = "\n".join(lines[shown:])
    if render_mode == "human":
        if text:
            print(text)
        return None, len(lines)
    return text, len(lines)


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's order checks (``step`` before ``reset`` is an error)."""
    return wrappers.OrderEnforcingWrapper(RiftboundEnv(**kwargs))
