"""Reinforcement-learning interfaces (optional extra ``rl``: pettingzoo, gymnasium, numpy).

``env()`` / ``RiftboundEnv``: a PettingZoo AEC environment whose agents are the seats of a game of any
installed mode; ``SingleAgentEnv``: a Gymnasium environment playing one seat against an installed
agent.  The action and observation encodings are described in ``riftscript.env.encoding``.
"""
from __future__ import annotations

from .aec import RiftboundEnv, env
from .encoding import ACTION_SIZE, OBS_SIZE
from .single import SingleAgentEnv

__all__ = ["ACTION_SIZE", "OBS_SIZE", "RiftboundEnv", "SingleAgentEnv", "env"]
