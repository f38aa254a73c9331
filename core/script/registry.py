"""The typed records plugins contribute (``SetSpec``, ``EffectType``, ``ModeSpec``, ...) and
``Plugins``, the registered plugins as the catalog reads them; finding them is ``discovery``.
"""
from __future__ import annotations

import importlib
import importlib.metadata
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, cast

import pluggy

from . import hookspecs
from ..errors import PluginError

if TYPE_CHECKING:
    from ..engine.agents import Agent
    from ..engine.effects import EffectContext

GROUPS = ("riftscript.keywords", "riftscript.effects", "riftscript.sets", "riftscript.agents", "riftscript.modes")
WORD_KINDS = ("filter", "state", "amount", "event", "hook")
DISABLE_ENV = "RIFTSCRIPT_DISABLE_PLUGINS"


class PluginWarning(UserWarning):
    """A plugin could not be loaded; the others were."""


@dataclass(frozen=True)
class SetSpec:
    """A card set: its manifest file and the folders holding its files."""

    manifest: Path
    cards: Path
    decks: Path | None = None
    scenarios: Path | None = None
    plugin: str = ""
    # tokens with no printed card of the set (181: token cards are optional): loaded like cards,
    # so effects can create them by name, but not counted among the set's cards
    tokens: Path | None = None


@dataclass(frozen=True)
class KeywordSource:
    """A folder or file of keyword definitions."""

    path: Path
    plugin: str = ""


@dataclass(frozen=True)
class EffectType:
    """An effect primitive usable as ``type:`` in effect scripts."""

    name: str
    run: Callable[["EffectContext", dict[str, Any]], None]
    schema: dict[str, Any] | None = None
    emits: tuple[str, ...] = ()
    may_kill: bool = False
    decides: bool = False
    plugin: str = ""
    # English for the card text renderer: fields in braces ("swap the Might of {a} and {b}{duration}")
    text: str = ""


@dataclass(frozen=True)
class LanguageWord:
    """A word a plugin adds to the script language, beside the built-in ones (``core/engine/effects.py``).

    ``kind`` says where it goes: ``filter`` (a key of ``where:``; ``run(ctx, oid, obj, card, want)``),
    ``state`` (``{type: is, state: NAME}``; ``run(ctx, oid, obj)``), ``amount`` (``{type: NAME}``;
    ``run(ctx, node, subject)``, its fields in ``schema``) or ``event`` (a trigger's ``event:``, emitted
    by the plugin's own primitives; no ``run``) or ``hook`` (the name of a ``hook`` modifier the plugin's own
    code reads; English only, no ``run``).  ``schema`` is the JSON Schema of a filter key's value
    or of an amount's fields (``{"properties": ..., "required": ...}``).  ``text`` is how the renderer
    words it: a state's or boolean filter's adjective, an amount's noun phrase with ``{of}``, an event's
    verb phrase for the object it happens to ("become [Empowered]"), a hook's sentence with ``{subject}``
    and ``{value}``, and ``active`` the verb for the player who makes it happen ("empower").
    """

    kind: str
    name: str
    run: Callable[..., Any] | None = None
    schema: dict[str, Any] | None = None
    text: str = ""
    active: str = ""
    plugin: str = ""


@dataclass(frozen=True)
class AgentSpec:
    """A named agent factory: ``factory(seed)`` returns an agent."""

    name: str
    factory: Callable[[int], "Agent"]
    description: str = ""


@dataclass(frozen=True)
class ModeSpec:
    """A mode of play and the numbers that define it (rules 487-491)."""

    name: str
    players: int
    victory_score: int = 8
    # seats of each team; seats of one team never sit together, so turn order alternates (491.5.c.1)
    teams: tuple[tuple[int, ...], ...] = ()
    battlefields_per_player: int = 1
    # "random": each player's battlefield is picked at random (487.5, 489.5, 490.5);
    # "choose": each player chooses theirs (488.5)
    battlefield_choice: str = "random"
    # the player taking the first turn puts no battlefield into play (490.4.b, 491.5.a)
    first_player_battlefields_unused: bool = False
    extra_channel_last_player_first_turn: int = 0
    first_player_skips_draw: bool = False
    # games in a match: 1 for a single game, 3 or 5 for a best-of match (488.6)
    best_of: int = 1
    rule: str = ""
    description: str = ""


@dataclass
class LoadedPlugin:
    name: str
    group: str
    module: str
    error: str | None = None


@dataclass
class Plugins:
    """The plugin manager with a typed view of its hooks (as tox does)."""

    pm: pluggy.PluginManager
    loaded: list[LoadedPlugin] = field(default_factory=list)

    def sets(self) -> list[SetSpec]:
        return [s for part in self.pm.hook.riftscript_sets() for s in part]

    def keywords(self) -> list[KeywordSource]:
        return [k for part in self.pm.hook.riftscript_keywords() for k in part]

    def effect_types(self) -> list[EffectType]:
        return [e for part in self.pm.hook.riftscript_effect_types() for e in part]

    def words(self) -> list[LanguageWord]:
        return [w for part in self.pm.hook.riftscript_language() for w in part]

    def agents(self) -> dict[str, AgentSpec]:
        return {a.name: a for part in self.pm.hook.riftscript_agents() for a in part}

    def modes(self) -> dict[str, ModeSpec]:
        """Every installed mode by name; a mode that can't be played, or one name registered by two
        plugins, is an error naming the plugin."""
        found: dict[str, ModeSpec] = {}
        owner: dict[str, str] = {}
        for impl in reversed(self.pm.hook.riftscript_modes.get_hookimpls()):
            specs: list[object] = list(cast(Iterable[object], impl.function()))
            for spec in specs:
                if not isinstance(spec, ModeSpec):
                    raise PluginError(f"plugin {impl.plugin_name}: riftscript_modes must return ModeSpec records, "
                                      f"got {type(spec).__name__}")
                if spec.name in owner:
                    raise PluginError(f"mode {spec.name!r} is registered by two plugins: {owner[spec.name]} and "
                                      f"{impl.plugin_name}")
                problem = _mode_problem(spec)
                if problem:
                    raise PluginError(f"plugin {impl.plugin_name}: mode {spec.name!r} {problem}")
                found[spec.name] = spec
                owner[spec.name] = impl.plugin_name
        return found


def _mode_problem(spec: ModeSpec) -> str:
    """Why a mode can't be played, or ''."""
    if not 2 <= spec.players <= 4:
        return f"has {spec.players} players; Riftbound is played by 2 to 4 (487-491)"
    if spec.victory_score < 1:
        return f"has Victory Score {spec.victory_score}; it must be at least 1"
    seats = sorted(s for team in spec.teams for s in team)
    if spec.teams and seats != list(range(spec.players)):
        return f"has teams {spec.teams} that don't seat each of its {spec.players} players exactly once"
    if spec.battlefield_choice not in ("random", "choose"):
        return f"chooses battlefields by {spec.battlefield_choice!r}; expected 'random' or 'choose'"
    if spec.best_of < 1 or spec.best_of % 2 == 0:
        return f"is best of {spec.best_of}; a match is best of an odd number of games"
    return ""


