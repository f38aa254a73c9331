"""Setting a scenario up: a built position (``setup``) or a game from decks, and a match."""
from __future__ import annotations

from typing import Any

from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import Catalog
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match
from riftscript.core.engine.state import BF0, NOWHERE
from riftscript.tools.scenario.model import Json, Refs, Scenario, ScenarioFailure



# ---------------------------------------------------------------------- setting up
def build(catalog: Catalog, scenario: Scenario) -> tuple[Game, Refs]:
    setup = scenario.data["setup"]
    if "decks" in setup:
        from riftscript.core.script.decks import Deck

        names = [chr(ord("A") + i) for i in range(len(setup["decks"]))]
        # an installed deck's name, or a deck-file body (named after its seat: "A's deck")
        decks = [d if isinstance(d, str) else Deck.from_data({"name": f"{names[i]}'s deck", **d}, catalog)
                 for i, d in enumerate(setup["decks"])]
        game = Game.new(catalog, decks, mode=setup.get("mode", "duel"), seed=int(setup.get("seed", 0)), names=names)
        return game, Refs(game, names)
    names = sorted(k for k in setup if len(k) == 1 and k.isupper()) or ["A", "B"]
    if len(names) < 2:
        names = ["A", "B"]
    mode = str(setup.get("mode", "duel"))
    modes = catalog.plugins.modes() if catalog.plugins else {}
    if mode not in modes:
        raise ScenarioFailure(f"unknown mode {mode!r}; installed modes: {', '.join(sorted(modes))}")
    if "mode" in setup and len(names) < modes[mode].players:
        names = [chr(ord("A") + i) for i in range(modes[mode].players)]  # every seat of the mode plays
    builder = Builder(catalog, players=len(names), seed=int(setup.get("seed", 0)), names=names, mode=mode)
    placed = _Placer(builder, names)
    for bf in setup.get("battlefields", []):
        controller = placed.player(bf["controller"]) if "controller" in bf else NOWHERE
        owner = placed.player(bf.get("owner", names[0]))
        loc = builder.battlefield(bf["card"], controller=controller, owner=owner)
        if "as" in bf:
            placed.locations[bf["as"]] = loc
        for player in bf.get("scored_by", []):
            builder.scored_this_turn(placed.player(player), loc)
    for name in names:
        p = placed.player(name)
        ps = setup.get(name, {})
        if "legend" in ps:
            builder.legend(p, ps["legend"])
        if "champion" in ps:
            builder.champion(p, ps["champion"])
        for zone in ("hand", "deck", "trash", "rune_deck", "runes", "base"):
            for item in ps.get(zone, []):
                owner = p
                if isinstance(item, dict) and "owner" in item:
                    if zone != "base":  # a hand, deck, trash or rune pool holds its own player's cards only
                        raise ScenarioFailure(f"setup.{name}.{zone}: 'owner' is for a card in a base or at a "
                                              f"battlefield; a card in {name}'s {zone} is {name}'s")
                    owner = placed.player(item["owner"])  # another player's card in this base: controlled here
                    item = {"controller": name, **item}
                placed.add(item, owner, {"deck": "main_deck", "base": "board"}.get(zone, zone), p)
        if "points" in ps:
            builder.set_points(p, int(ps["points"]))
        if "pool" in ps:
            builder.set_pool(p, int(ps["pool"].get("energy", 0)), ps["pool"].get("power", {}))
        if "turns_taken" in ps:
            builder.set_turns_taken(p, int(ps["turns_taken"]))
    for bf_index, bf in enumerate(setup.get("battlefields", [])):
        loc = BF0 + bf_index
        for zone in ("units", "facedown"):
            for item in bf.get(zone, []):
                default = placed.player(item["controller"]) if isinstance(item, dict) and "controller" in item \
                    else placed.player(bf.get("controller", names[0]))
                owner = placed.player(item["owner"]) if isinstance(item, dict) and "owner" in item else default
                placed.add(item, owner, "board" if zone == "units" else "facedown", loc)
    for item in setup.get("chain", []):
        placed.chain_item(item)
    if "priority" in setup:
        builder.give_priority(placed.player(setup["priority"]))
    placed.finish()
    turn = setup.get("turn", {})
    builder.at_turn(placed.player(turn.get("player", names[0])), turn.get("step", "main"), int(turn.get("number", 3)))
    game, ids = builder.build()
    for name in names:
        xp = setup.get(name, {}).get("xp")
        if xp is not None:
            game.player(placed.player(name)).xp = int(xp)
    refs = Refs(game, names)
    refs.aliases = {alias: ids[index] for alias, index in placed.aliases.items()}
    refs.locations = dict(placed.locations)
    return game, refs


class _Placer:
    """Puts a built position's cards in place with the Builder: their state, aliases, attachments,
    effects already applied to them ("this turn" and granted keywords) and items on the chain."""

    STATUS = ("exhausted", "damage", "buffs", "stunned")

    def __init__(self, builder: Builder, names: list[str]) -> None:
        self.builder = builder
        self.names = names
        self.aliases: dict[str, int] = {}  # alias -> the Builder's index of the placed card
        self.locations: dict[str, int] = {}
        self.attach: list[tuple[int, str]] = []

    def player(self, name: Any) -> int:
        if name not in self.names:
            raise ScenarioFailure(f"unknown player {name!r} (players: {', '.join(self.names)})")
        return self.names.index(name)

    def add(self, item: Any, owner: int, zone: str, at: int) -> int:
        if isinstance(item, str):
            return self.builder.add(owner, item, zone=zone, at=at)
        status: dict[str, Any] = {k: item[k] for k in self.STATUS if k in item}
        if "controller" in item:
            status["controller"] = self.player(item["controller"])
        index = self.builder.add(owner, item["card"], zone=zone, at=at, **status)
        if "as" in item:
            self.aliases[item["as"]] = index
        if "attached_to" in item:
            self.attach.append((index, str(item["attached_to"])))
        for use in item.get("gains", []):
            self.builder.grant(index, *_keyword_use(use), duration="permanent")
        later = item.get("this_turn", {})
        if later.get("might"):
            self.builder.modify_might(index, int(later["might"]), duration="this_turn")
        for use in later.get("gains", []):
            self.builder.grant(index, *_keyword_use(use), duration="this_turn")
        return index

    def target(self, ref: Any) -> tuple[str, int]:
        text = str(ref)
        if text in self.aliases:
            return "obj", self.aliases[text]
        if text in self.locations:
            return "loc", self.locations[text]
        if text.endswith(".base"):
            return "loc", self.player(text[: -len(".base")])
        raise ScenarioFailure(f"a chain item's target must be an alias or a location (A.base, a battlefield's alias), "
                              f"not {ref!r}")

    def chain_item(self, item: Json) -> None:
        player = self.player(item["player"])
        if "card" in item:
            index = self.builder.add(player, item["card"], zone="chain")
            if "as" in item:
                self.aliases[item["as"]] = index
            ability = -1
        else:
            source = str(item["source"])
            if source not in self.aliases:
                raise ScenarioFailure(f"a chain item's source must be an alias given in the setup, not {source!r}")
            index, ability = self.aliases[source], int(item.get("ability", 0))
        targets = [[self.target(t) for t in slot] for slot in item.get("targets", [])]
        self.builder.on_chain(player, index, ability, targets)

    def finish(self) -> None:
        for index, unit in self.attach:
            if unit not in self.aliases:
                raise ScenarioFailure(f"attached_to names no alias of the setup: {unit!r}")
            self.builder.attach(index, self.aliases[unit])


def _keyword_use(use: Any) -> tuple[str, Any]:
    """``Tank`` or ``{Assault: 2}`` (a card file's keyword form) as (keyword, value)."""
    if isinstance(use, dict):
        ((name, value),) = use.items()
        return str(name), value
    return str(use), None


def plays_match(catalog: Catalog, setup: Json) -> bool:
    """A real seeded game in a best-of mode (match, match-bo5) is played as a whole Match (488)."""
    modes = catalog.plugins.modes() if catalog.plugins is not None else {}
    spec = modes.get(str(setup.get("mode", "duel")))
    return "decks" in setup and spec is not None and spec.best_of > 1


def build_match(catalog: Catalog, scenario: Scenario) -> tuple[Match, Refs]:
    """``setup: {mode: match, seed: S, decks: [A, B]}``: a Match; steps act in its current game."""
    from riftscript.core.script.decks import Deck

    setup = scenario.data["setup"]
    names = [chr(ord("A") + i) for i in range(len(setup["decks"]))]
    decks = [d if isinstance(d, str) else Deck.from_data({"name": f"{names[i]}'s deck", **d}, catalog)
             for i, d in enumerate(setup["decks"])]
    match = Match.new(catalog, decks, mode=str(setup["mode"]), seed=int(setup.get("seed", 0)), names=names)
    return match, Refs(match.game, names)
