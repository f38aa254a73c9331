"""The hooks a RiftScript plugin may implement, documented in one place.

Plugins are found through entry points (groups ``riftscript.sets``, ``riftscript.keywords``,
``riftscript.effects``, ``riftscript.agents``, ``riftscript.modes``; a plugin adding words to the
script language implements ``riftscript_language`` in its ``riftscript.effects`` module); the built-in keywords,
effect primitives, sets, agents and modes load through exactly these hooks, like any
third-party plugin.  Every hook takes no arguments and returns a list of records; the engine
collects the lists of all plugins.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from .registry import AgentSpec, EffectType, LanguageWord, ModeSpec, SetSpec, KeywordSource

PROJECT = "riftscript"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def riftscript_sets() -> list[SetSpec]:
    """Card sets this plugin ships: a manifest (``set.yaml``) and folders of card, deck and
    scenario files.  Two plugins shipping the same set code or card code is an error."""
    raise NotImplementedError


@hookspec
def riftscript_keywords() -> list[KeywordSource]:
    """Keyword definition files (YAML, checked against ``keyword.schema.json``)."""
    raise NotImplementedError


@hookspec
def riftscript_effect_types() -> list[EffectType]:
    """Effect primitives: a ``type`` name usable in effect scripts, the JSON Schema of its
    parameters (``None`` for the built-ins described in ``effect.schema.json``), the events
    it can cause, and the Python function that performs it."""
    raise NotImplementedError


@hookspec
def riftscript_language() -> list[LanguageWord]:
    """Words of the script language beyond the built-in ones: filter keys, object states, amounts
    and trigger events, each with its handler, the JSON Schema of its value or fields, and the
    English the renderer gives it.  Scripts using them are checked like the built-in words; a word
    may not redefine a built-in one, and two plugins may not define the same word.  It is how a set
    adds a status of its own (an object that is "Empowered") that conditions and filters read."""
    raise NotImplementedError


@hookspec
def riftscript_agents() -> list[AgentSpec]:
    """Agents (players) that choose actions, e.g. the uniform random agent."""
    raise NotImplementedError


@hookspec
def riftscript_modes() -> list[ModeSpec]:
    """Modes of play (Duel, ...): players, Victory Score, battlefields, first-turn process."""
    raise NotImplementedError
