"""The typed records plugins contribute (``SetSpec``, ``EffectType``, ``ModeSpec``, ...) and
``Plugins``, the registered plugins as the catalog reads them; finding them is ``discovery``.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

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
    """A plugin as discovery found it; ``error`` says why it, or part of what it contributes, was left
    out (``riftscript info`` shows it)."""

    name: str
    group: str
    module: str
    error: str | None = None

    def note(self, problem: str) -> None:
        """Add a problem to ``error``: a plugin may lose several of its records, each for its own reason."""
        self.error = f"{self.error}; {problem}" if self.error else problem


@dataclass
class Plugins:
    """The plugin manager with a typed view of its hooks (as tox does).

    A broken installed plugin must not stop every command: a hook that raises or returns something else
    than its records, and a record that can't be used or whose name an earlier plugin took (the built-in
    ones come first), is left out with one warning naming the plugin and why.  A plugin the caller passed
    in itself (``--plugin``, ``load_plugins(extra=...)``) gets a ``PluginError`` for a record it can't use
    instead, since the command was asked to run with it.
    """

    pm: pluggy.PluginManager
    loaded: list[LoadedPlugin] = field(default_factory=list)
    # the warnings given so far: modes() and agents() run for every game, and warn once
    _reported: set[str] = field(default_factory=set, init=False, repr=False, compare=False)
    # modes() as last found, with the hook implementations it came from
    _modes: tuple[tuple[Any, ...], dict[str, ModeSpec]] | None = field(default=None, init=False, repr=False,
                                                                       compare=False)

    def sets(self) -> list[SetSpec]:
        return [s for s, _ in self.collect("riftscript_sets", SetSpec)]

    def keywords(self) -> list[KeywordSource]:
        return [k for k, _ in self.collect("riftscript_keywords", KeywordSource)]

    def effect_types(self) -> list[EffectType]:
        return [e for e, _ in self.collect("riftscript_effect_types", EffectType)]

    def words(self) -> list[LanguageWord]:
        return [w for w, _ in self.collect("riftscript_language", LanguageWord)]

    def agents(self) -> dict[str, AgentSpec]:
        """Every usable agent by name; one without a name or factory, or whose name an earlier plugin
        took, is skipped with a warning (an error naming the plugin if the caller passed it in)."""
        def problem(spec: AgentSpec) -> str:
            usable = isinstance(spec.name, str) and spec.name and callable(spec.factory)
            return "" if usable else "needs a name and a factory(seed) returning the agent"
        return self.keep_named(self.collect("riftscript_agents", AgentSpec), "agent", _plainly(problem))

    def modes(self) -> dict[str, ModeSpec]:
        """Every playable mode by name; one that can't be played, or whose name an earlier plugin took,
        is skipped with a warning (an error naming the plugin if the caller passed it in).  Every game
        asks when it starts, so the answer is kept while the hook's implementations are the same ones:
        registering or unregistering a plugin asks the plugins again."""
        impls = tuple(impl.function for impl in self.pm.hook.riftscript_modes.get_hookimpls())
        kept = self._modes
        if kept is not None and kept[0] == impls:
            return dict(kept[1])
        found: dict[str, ModeSpec] = self.keep_named(self.collect("riftscript_modes", ModeSpec), "mode",
                                                     _plainly(_mode_problem))
        self._modes = (impls, found)
        return dict(found)

    def keep_named(self, found: list[tuple[Any, str]], noun: str,
                   problem_of: Callable[[Any, str, str], tuple[str, str] | None]) -> dict[str, Any]:
        """The named records (agents, modes, effect types) to keep, by name, the built-in plugins' first: one
        ``problem_of(record, plugin, what)`` refuses - (the warning's reason, the strict error) - or whose name
        an earlier plugin took is skipped (``skip``)."""
        kept: dict[str, Any] = {}
        owner: dict[str, str] = {}
        for record, plugin in self.builtin_first(found):
            what = f"{noun} {record.name!r}"
            problem = problem_of(record, plugin, what)
            if problem is not None:
                self.skip(plugin, what, problem[0], error=problem[1])
            elif record.name in owner:
                self.skip(plugin, what, name_taken(owner[record.name]),
                          error=f"{what} is registered by two plugins: {owner[record.name]} and {plugin}")
            else:
                kept[record.name] = record
                owner[record.name] = plugin
        return kept

    def collect(self, hook: str, record: type[Any]) -> list[tuple[Any, str]]:
        """Every record a hook returns, with the name of the plugin that returned it.

        Calls each implementation itself (in pluggy's order) instead of ``pm.hook.NAME()``, so that
        a plugin whose hook raises (even ``SystemExit``) or returns something else than a list of
        ``record`` is skipped with a warning naming it and the cause, and conflicts can name the
        plugins involved.
        """
        out: list[tuple[Any, str]] = []
        for impl in reversed(getattr(self.pm.hook, hook).get_hookimpls()):
            try:
                records = list(impl.function())
                bad = [r for r in records if not isinstance(r, record)]
                if bad:
                    raise TypeError(f"expected {record.__name__} records, got {type(bad[0]).__name__}")
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # a broken plugin must not stop the others
                self.skip(impl.plugin_name, hook, f"{type(exc).__name__}: {exc}")
                continue
            out.extend((r, impl.plugin_name) for r in records)
        return out

    def builtin(self, plugin: str) -> bool:
        """Is it one of RiftScript's own plugins (which win a name another plugin repeats)?"""
        return getattr(self.pm.get_plugin(plugin), "__name__", "").startswith("riftscript.")

    def builtin_first(self, found: list[tuple[Any, str]]) -> list[tuple[Any, str]]:
        """``collect``'s records with the built-in plugins' first, each group in pluggy's order."""
        return sorted(found, key=lambda item: not self.builtin(item[1]))

    def skip(self, plugin: str, what: str, reason: str, error: str | None = None) -> None:
        """Leave out ``what`` a plugin contributes: warn once, and note it for ``riftscript info``.

        With ``error``, a plugin the caller passed in gets ``PluginError(error)`` instead.
        """
        if error is not None and any(p.name == plugin and p.group == "extra" for p in self.loaded):
            raise PluginError(error)
        message = f"skipping {what} of plugin {plugin}: {reason}"
        if message in self._reported:
            return
        self._reported.add(message)
        for record in self.loaded:
            if record.name == plugin:
                record.note(f"{what} skipped: {reason}")
        warnings.warn(message, PluginWarning, stacklevel=3)


def _plainly(problem: Callable[[Any], str]) -> Callable[[Any, str, str], tuple[str, str] | None]:
    """A record's problem ('' for none) as ``keep_named`` takes it: "it ..." to warn, "plugin P: what ..." to raise."""
    def check(record: Any, plugin: str, what: str) -> tuple[str, str] | None:
        found = problem(record)
        return (f"it {found}", f"plugin {plugin}: {what} {found}") if found else None
    return check


def name_taken(owner: str) -> str:
    """Why a record is skipped whose name an earlier plugin registered."""
    return f"plugin {owner} registers that name too, and the first one is kept (built-in plugins come first)"


def _mode_problem(spec: ModeSpec) -> str:
    """Why a mode can't be played, or ''."""
    if not isinstance(spec.name, str) or not spec.name:
        return "has no name"
    numbers = {"players": spec.players, "victory_score": spec.victory_score, "best_of": spec.best_of,
               "battlefields_per_player": spec.battlefields_per_player,
               "extra_channel_last_player_first_turn": spec.extra_channel_last_player_first_turn}
    for key, value in numbers.items():
        if not isinstance(value, int) or isinstance(value, bool):
            return f"has {key} {value!r}; it must be a whole number"
    if not isinstance(spec.teams, (tuple, list)) or not all(
            isinstance(team, (tuple, list)) and all(isinstance(s, int) for s in team) for team in spec.teams):
        return f"has teams {spec.teams!r}; they must be tuples of seat numbers"
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


