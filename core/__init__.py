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
  ``EffectType``, ``LanguageWord``, ``AgentSpec``, ``ModeSpec``); the hooks themselves are documented in
  ``riftscript.core.script.hookspecs``;
- what crosses the API: ``Action`` (a ``TypedDict``: what ``legal_actions`` lists and ``apply``
  takes, with ``ActionKind``, ``PayWith``, ``Target``), the event log's ``Event`` (a dict: why events
  are not typed field by field is in ``riftscript.core.engine.vocabulary``), ``log_hash``; zones:
  ``Zone`` (with the names scripts use);
- every exception raised on purpose (``riftscript.core.errors``).

Names are imported when first used (PEP 562), so ``from riftscript.core import hookimpl`` in a
plugin does not load the rules engine.

The package has two layers a reader meets in the folder listing: ``core/script/`` reads, checks and
compiles scripts (YAML, schemas, the catalog, plugins, decks) and ``core/engine/`` plays the rules,
its modules in dependency order in ``core/engine/__init__.py``.  The module paths of the flat
layout before (``riftscript.core.script.catalog``, ``riftscript.core.script.folders``, ...) still import, as
documented aliases (``core/old_paths.py``).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import old_paths

old_paths.install()

if TYPE_CHECKING:
    from .engine.agents import Agent, play_out
    from .engine.builder import Builder
    from .script.catalog import Catalog, load_catalog
    from .script.decks import Deck, load_deck
    from .errors import (BuildError, CorruptStateError, DeckError, EngineError, GameOverError,
                         IllegalActionError, NeedDecision, PluginError, Problem, RiftScriptError, ScriptError,
                         TeamDeckError)
    from .engine.events import Event, log_hash
    from .engine.game import Game
    from .script.hookspecs import hookimpl
    from .engine.match import Match
    from .script.registry import AgentSpec, EffectType, KeywordSource, LanguageWord, ModeSpec, SetSpec
    from .engine.state import Zone
    from .engine.vocabulary import Action, ActionKind, PayWith, Target
    from .version import ENGINE_VERSION, SCHEMA_VERSION

_MODULE_OF = {
    "Agent": "engine.agents", "play_out": "engine.agents",
    "Builder": "engine.builder",
    "Catalog": "script.catalog", "load_catalog": "script.catalog",
    "Deck": "script.decks", "load_deck": "script.decks",
    **{name: "errors" for name in ("BuildError", "CorruptStateError", "DeckError", "EngineError", "GameOverError",
                                   "IllegalActionError", "NeedDecision", "PluginError", "Problem",
                                   "RiftScriptError", "ScriptError", "TeamDeckError")},
    "Event": "engine.events", "log_hash": "engine.events",
    "Game": "engine.game",
    "hookimpl": "script.hookspecs",
    "Match": "engine.match",
    **{name: "script.registry" for name in ("AgentSpec", "EffectType", "KeywordSource", "LanguageWord", "ModeSpec",
                                            "SetSpec")},
    "Zone": "engine.state",
    **{name: "engine.vocabulary" for name in ("Action", "ActionKind", "PayWith", "Target")},
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
