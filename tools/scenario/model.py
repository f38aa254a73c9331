"""What a scenario is: its file, its parts, and the references its steps use (``A.hand.0``,
aliases); the exception a failing scenario raises."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from riftscript.core.script.loader import Loader
from riftscript.core.errors import Problem, RiftScriptError, ScriptError
from riftscript.core.engine.game import Game
from riftscript.core.script.schema import Schemas
from riftscript.core.engine.state import is_battlefield
from riftscript.core.script.suggest import did_you_mean
from riftscript.core.script import yamlio

Json = dict[str, Any]


OBJECT_FIELDS = {"obj", "source", "unit", "item_obj"}
# zones as card scripts name them (effect.schema.json): the engine's own names differ for these
PLAYER_FIELDS = {"player", "attacker", "defender", "controller", "killer", "winner", "teammate", "inviter"}
LOCATION_FIELDS = {"loc", "to", "from", "bf", "location"}


class ScenarioFailure(RiftScriptError):
    """A scenario's expectation did not hold, or a step could not be carried out."""


@dataclass
class Scenario:
    name: str
    data: Json
    file: str
    line: int | None
    base_path: list[str | int] = field(default_factory=list)

    @property
    def rules(self) -> list[str]:
        return [str(r) for r in self.data.get("rules", [])]

    @property
    def cards(self) -> list[str]:
        return [str(c) for c in self.data.get("cards", [])]

    @property
    def pending(self) -> str | None:
        value = self.data.get("pending")
        return str(value) if value else None

    def where(self, path: list[str | int]) -> str:
        try:
            text = Path(self.file).read_text(encoding="utf-8")
            pos = yamlio.locate(text, self.base_path + path)
        except OSError:
            pos = None
        return f"{self.file}:{pos[0]}" if pos else self.file


def load_file(path: Path, schemas: Schemas) -> list[Scenario]:
    """Read and check a scenario file; every schema problem raises ScriptError with positions."""
    data, _, problems = Loader(schemas).read(path, "scenario")
    if problems:
        raise ScriptError(problems)
    text = path.read_text(encoding="utf-8")
    out: list[Scenario] = []
    if "scenarios" in data:
        for i, item in enumerate(data["scenarios"]):
            pos = yamlio.locate(text, ["scenarios", i])
            out.append(Scenario(item["name"], item, str(path), pos[0] if pos else None, ["scenarios", i]))
    else:
        if "name" not in data or ("setup" not in data and "deck" not in data):
            raise ScriptError([Problem(str(path), 1, 1, "a scenario needs 'name', 'setup' and 'steps'")])
        out.append(Scenario(data["name"], data, str(path), 1, []))
    return out


class Refs:
    """Names in a scenario: aliases, card names, players (A, B), locations (A.base, battlefields)."""

    def __init__(self, game: Game, players: list[str]) -> None:
        self.game = game
        self.players = players
        self.aliases: dict[str, int] = {}
        self.locations: dict[str, int] = {}

    def player(self, name: Any) -> int:
        if isinstance(name, int):
            return name
        if name not in self.players:
            raise ScenarioFailure(f"unknown player {name!r} (players: {', '.join(self.players)})")
        return self.players.index(name)

    def location(self, name: Any) -> int:
        if isinstance(name, int):
            return name
        text = str(name)
        if text.endswith(".base"):
            return self.player(text[: -len(".base")])
        if text in self.locations:
            return self.locations[text]
        for bf in self.game.state.battlefields:
            card = self.game.card(bf.card)
            if text in (card.name, card.code):
                return bf.loc
        raise ScenarioFailure(f"unknown location {name!r} (use A.base or a battlefield's alias or name)")

    def obj(self, name: Any) -> int:
        if isinstance(name, int):
            return name
        text = str(name)
        if text in self.aliases:
            return self.aliases[text]
        if "." in text:
            who, zone = text.split(".", 1)
            if who in self.players and zone == "legend":
                return self.game.player(self.player(who)).legend
            if who in self.players:
                found = self.positional(self.game.player(self.player(who)), zone)
                if found is not None:
                    return found
        matches = [oid for oid, o in self.game.state.objs.items()
                   if o.zone != "gone" and text in (self.game.card(oid).name, o.code)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            names = {self.game.card(oid).name for oid in self.game.state.objs}
            raise ScenarioFailure(f"no object called {text!r}{did_you_mean(text, [*self.aliases, *names])}")
        raise ScenarioFailure(f"{text!r} is ambiguous ({len(matches)} objects); give them aliases with 'as:'")

    def card_obj(self, name: Any) -> int:
        """An object, or the card of a battlefield named by its alias (an event's ``obj``)."""
        try:
            return self.obj(name)
        except ScenarioFailure:
            loc = self.locations.get(str(name))
            if loc is not None and is_battlefield(loc):
                return self.game.bf_at(loc).card
            raise

    ZONES = {"hand": "hand", "deck": "main_deck", "trash": "trash", "runes": "runes",
             "rune_deck": "rune_deck", "champion": "champion", "base": "base"}

    def positional(self, player: Any, zone: str) -> int | None:
        """``hand.0``, ``deck.-1``, ``champion`` ...: the card at that position now."""
        name, _, index = zone.partition(".")
        if name not in self.ZONES or (not index and name != "champion"):
            return None
        if name == "base":  # the units and gear in the player's base, in the order they arrived
            cards = list(player.base)
        else:
            cards = getattr(player, self.ZONES[name])
        try:
            return int(cards[int(index or 0)])
        except (ValueError, IndexError):
            raise ScenarioFailure(f"no card at {player.name}.{zone} ({len(cards)} there)") from None

    def any(self, name: Any) -> int:
        """An object or a location, whichever the name denotes."""
        try:
            return self.obj(name)
        except ScenarioFailure as not_object:
            try:
                return self.location(name)
            except ScenarioFailure:
                raise not_object from None

    def name_of_obj(self, oid: int) -> str:
        for alias, value in self.aliases.items():
            if value == oid:
                return alias
        return f"{self.game.name(oid)} #{oid}" if oid in self.game.state.objs else f"#{oid}"
