"""RiftScript's public API: what plugins, tools, the README and set authors import.

Everything a user of the engine needs is importable from here, and only what is listed in
``__all__`` is promised to stay (modules inside ``riftscript.core`` may move; these names won't):

    from riftscript.core import Game, load_catalog

    catalog = load_catalog()
    game = Game.new(catalog, ["Jinx Champion Deck", "Viktor Champion Deck"], seed=1)
    while not game.over:
        game.apply(game.legal_actions()[0])

- games: ``Game`` (one game: ``legal_actions``, ``apply``, ``observation``, ``to_json``), ``Match``
  (best of three), ``Builder`` (a game in a chosen position), ``Agent`` and ``play_out``;
- cards: ``load_catalog`` and ``Catalog``, ``load_deck`` and ``Deck``;
- plugins: ``hookimpl`` and the records the hooks return (``SetSpec``, ``KeywordSource``,
  ``EffectType``, ``AgentSpec``, ``ModeSpec``); the hooks themselves are documented in
  ``riftscript.core.hookspecs``;
- the event log: ``Event``, ``log_hash``; zones: ``Zone`` (with the names scripts use);
- every exception raised on purpose (``riftscript.core.errors``).

Names are imported when first used (PEP 562), so ``from riftscript.core import hookimpl`` in a
plugin does not load the rules engine.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .agents import Agent, play_out
    from .builder import Builder
    from .catalog import Catalog, load_catalog
    from .decks import Deck, load_deck
    from .errors import (BuildError, CorruptStateError, DeckError, EngineError, GameOverError,
                         IllegalActionError, NeedDecision, PluginError, Problem, RiftScriptError, ScriptError,
                         TeamDeckError)
    from .events import Event, log_hash
    from .game import Game
    from .hookspecs import hookimpl
    from .match import Match
    from .registry import AgentSpec, EffectType, KeywordSource, ModeSpec, SetSpec
    from .state import Zone
    from .version import ENGINE_VERSION, SCHEMA_VERSION

_MODULE_OF = {
    "Agent": "agents", "play_out": "agents",
    "Builder": "builder",
    "Catalog": "catalog", "load_catalog": "catalog",
    "Deck": "decks", "load_deck": "decks",
    **{name: "errors" for name in ("BuildError", "CorruptStateError", "DeckError", "EngineError", "GameOverError",
                                   "IllegalActionError", "NeedDecision", "PluginError", "Problem",
                                   "RiftScriptError", "ScriptError", "TeamDeckError")},
    "Event": "events", "log_hash": "events",
    "Game": "game",
    "hookimpl": "hookspecs",
    "Match": "match",
    **{name: "registry" for name in ("AgentSpec", "EffectType", "KeywordSource", "ModeSpec", "SetSpec")},
    "Zone": "state",
    "ENGINE_VERSION": "version", "SCHEMA_VERSION": "version",
}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use (PEP 562)."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
