"""A Gymnasium environment: one seat of a game, the other seats played by installed agents."""
from __future__ import annotations

import copy
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from riftscript.core.engine.agents import Agent
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.errors import IllegalActionError
from riftscript.core.engine.game import Game
from riftscript.core.engine.vocabulary import Action
from riftscript.tools.play import make_agents

from . import encoding
from .aec import one_game, play_by_play


class SingleAgentEnv(gym.Env[dict[str, Any], np.int64]):
    """Play ``seat`` against ``opponent`` (an agent name from ``riftscript.agents``, e.g. ``greedy`` or
    ``mcts-easy``) in the other seats.  Observation, action encoding and mask are the AEC
    environment's; ``action_masks()`` returns the mask (for maskable policies).  The reward is 1 for a
    win, -1 for a loss, 0 for a draw, at the end of the game.  An action outside the mask ends the
    episode as a loss with ``info["illegal"]`` set (``illegal="lose"``, as PettingZoo's
    TerminateIllegalWrapper does) or raises IllegalActionError (``illegal="raise"``)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, mode: str = "duel", decks: list[str] | None = None, seat: int = 0, opponent: str = "greedy",
                 render_mode: str | None = None, max_steps: int = 5000, catalog: Catalog | None = None,
                 illegal: str = "lose") -> None:
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', got {illegal!r}")
        self.illegal = illegal
        self.catalog = catalog or load_catalog()
        spec, self.decks = one_game(self.catalog, mode, decks)
        players = spec.players
        self.mode = mode
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0-{players - 1}, got {seat}")
        self.seat = seat
        self.opponent = opponent
        make_agents(self.catalog, [opponent], 0)  # an unknown agent name is an error now, not at reset
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.action_space = spaces.Discrete(encoding.ACTION_SIZE)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (encoding.OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (encoding.ACTION_SIZE,), np.int8)})
        self.game: Game | None = None
        self._agents: list[Agent] = []
        self._table: dict[int, Action] = {}
        self._legal: list[Action] = []
        self._rendered = 0
        self.steps = 0

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**31))
        self.game = Game.new(self.catalog, self.decks, mode=self.mode, seed=game_seed,
                             names=[d.split()[0] for d in self.decks])
        self._agents = make_agents(self.catalog, [self.opponent] * len(self.decks), game_seed)
        self.steps = 0
        self._rendered = 0
        self._play_others()
        return self._observe(), self._info()

    def _play_others(self) -> None:
        """Let the other seats act until this seat decides or the game ends."""
        assert self.game is not None
        while not self.game.over:
            decision = self.game.pending_decision()
            assert decision is not None
            legal = self.game.legal_actions()
            if decision.player == self.seat:
                self._legal = legal
                self._table = encoding.encode_actions(self.game, self.seat, legal)
                return
            self.game.apply(self._agents[decision.player].choose(self.game, legal))
        self._legal, self._table = [], {}

    def _observe(self) -> dict[str, np.ndarray]:
        assert self.game is not None
        return {"observation": encoding.observe(self.game, self.seat, self._legal),
                "action_mask": encoding.action_mask(self._table)}

    def _info(self) -> dict[str, Any]:
        assert self.game is not None
        return {"observation": self.game.observation(self.seat), "legal_actions": copy.deepcopy(self._table)}

    def action_masks(self) -> np.ndarray:
        return encoding.action_mask(self._table)

    def step(self, action: int | np.integer[Any]) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        assert self.game is not None
        if int(action) not in self._table:
            if self.illegal == "raise" or self.game.over:
                raise IllegalActionError(f"action {action!r} is not in the action mask")
            return self._observe(), -1.0, True, False, {**self._info(), "illegal": True}
        self.game.apply(self._table[int(action)])
        self.steps += 1
        self._play_others()
        reward = 0.0
        s = self.game.state
        if self.game.over and s.winners:
            reward = 1.0 if any(self.game.friendly(w, self.seat) for w in s.winners) else -1.0
        truncated = not self.game.over and self.steps >= self.max_steps
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self.game.over, truncated, self._info()

    def render(self) -> str | None:
        """The play-by-play since the last call: printed ('human') or returned ('ansi')."""
        if self.game is None or self.render_mode is None:
            return None
        text, self._rendered = play_by_play(self.game, self._rendered, self.render_mode)
        return text
