"""Build a game in a chosen position, for tests, scenarios and puzzles.

Only what a situation cares about needs spelling out; the rest gets defaults: each player has
the legend and champion given (or none), an empty deck unless one is given, no runes unless
given, and the game stands in the turn player's Main Phase with priority.

    b = Builder(catalog)
    b.add(0, "OGN-030", at="base", exhausted=False)
    b.runes(0, ["OGN-007"] * 4)
    game, ids = b.build()         # ids: the placed cards' object ids, in the order they were added
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import rng
from ..script.catalog import Catalog
from ..errors import BuildError
from .game import Game
from .state import BF0, NOWHERE, Battlefield, ChainItem, GameState, Lasting, Player


@dataclass
class _Placed:
    player: int
    code: str
    zone: str
    loc: int = NOWHERE
    status: dict[str, Any] = field(default_factory=dict)


@dataclass
class _ChainSpec:
    """An item already on the chain: a placed card (a spell) or an ability of a placed object.
    Targets are ("obj", placed index) or ("loc", location)."""

    player: int
    index: int
    ability: int = -1
    targets: list[list[tuple[str, int]]] = field(default_factory=list)


class Builder:
    """A game in a chosen position: place cards, set points and the turn, then ``build()``."""

    def __init__(self, catalog: Catalog, players: int = 2, seed: int = 0, mode: str = "duel",
                 names: list[str] | None = None) -> None:
        self.catalog = catalog
        self.seed = seed
        self.mode = mode
        self.names = names or [f"P{i + 1}" for i in range(players)]
        self.players = players
        self.legends: dict[int, str] = {}
        self.champions: dict[int, str] = {}
        self.battlefield_codes: list[tuple[str, int, int]] = []
        self.placed: list[_Placed] = []
        self.points: dict[int, int] = {}
        self.xp: dict[int, int] = {}
        self.turn_player = 0
        self.turn = 3
        self.step = "main"
        self.pool: dict[int, tuple[int, dict[str, int]]] = {}
        self.scored: list[tuple[int, int]] = []
        self.turns_taken: dict[int, int] = {}
        self.attachments: list[tuple[int, int]] = []
        self.effects: list[tuple[int, str, dict[str, Any], str]] = []
        self.chain_items: list[_ChainSpec] = []
        self.priority: int | None = None
        self._ids: list[int] = []

    def _code(self, code: str) -> str:
        if code in self.catalog.cards:
            return code
        card = self.catalog.by_name(code)
        if card is None:
            raise BuildError(f"unknown card {code!r}")
        return card.code

    # ------------------------------------------------------------------ what to place
    def legend(self, player: int, code: str) -> "Builder":
        """Give ``player`` this legend (a code or a card name)."""
        self.legends[player] = self._code(code)
        return self

    def champion(self, player: int, code: str) -> "Builder":
        """Put this chosen champion in ``player``'s champion zone."""
        self.champions[player] = self._code(code)
        return self

    def battlefield(self, code: str, controller: int = NOWHERE, owner: int = 0) -> int:
        """Add a battlefield; returns its location number."""
        self.battlefield_codes.append((self._code(code), controller, owner))
        return BF0 + len(self.battlefield_codes) - 1

    def add(self, player: int, code: str, zone: str = "board", at: int | str = "base", **status: Any) -> int:
        """Place a card; returns the index to look its id up with ``ids`` after building."""
        loc = NOWHERE
        if zone == "board":
            loc = player if at == "base" else int(at)
        elif zone == "facedown":
            loc = int(at)
        elif zone == "chain":
            loc = NOWHERE
        self.placed.append(_Placed(player, self._code(code), zone, loc, status))
        return len(self.placed) - 1

    def hand(self, player: int, codes: list[str]) -> list[int]:
        """Put cards into ``player``'s hand, in order; returns their indexes."""
        return [self.add(player, c, zone="hand") for c in codes]

    def deck(self, player: int, codes: list[str]) -> list[int]:
        """Main deck, top card first."""
        return [self.add(player, c, zone="main_deck") for c in codes]

    def trash(self, player: int, codes: list[str]) -> list[int]:
        """Put cards into ``player``'s trash, in order; returns their indexes."""
        return [self.add(player, c, zone="trash") for c in codes]

    def runes(self, player: int, codes: list[str], exhausted: bool = False) -> list[int]:
        """Put runes onto ``player``'s board (ready unless ``exhausted``); returns their indexes."""
        return [self.add(player, c, zone="runes", exhausted=exhausted) for c in codes]

    def rune_deck(self, player: int, codes: list[str]) -> list[int]:
        """Put runes into ``player``'s rune deck, top first; returns their indexes."""
        return [self.add(player, c, zone="rune_deck") for c in codes]

    def set_points(self, player: int, points: int) -> "Builder":
        """Start ``player`` with this many points."""
        self.points[player] = points
        return self

    def scored_this_turn(self, player: int, loc: int) -> "Builder":
        """Record that ``player`` already scored at battlefield ``loc`` this turn (472: a battlefield
        is scored at most once a turn)."""
        self.scored.append((player, loc))
        return self

    def at_turn(self, player: int, step: str = "main", turn: int = 3) -> "Builder":
        """The turn player, the step (``mulligan``: the game stands at the mulligans, 117, in turn
        order from ``player``, before turn 1) and the turn number."""
        self.turn_player = player
        self.step = step
        self.turn = 0 if step == "mulligan" else turn
        return self

    def set_pool(self, player: int, energy: int = 0, power: dict[str, int] | None = None) -> "Builder":
        """What the player's rune pool holds (energy, and power by domain)."""
        self.pool[player] = (energy, dict(power or {}))
        return self

    def set_turns_taken(self, player: int, turns: int) -> "Builder":
        """How many turns the player has taken (0: not yet, for "your first turn" effects)."""
        self.turns_taken[player] = turns
        return self

    def attach(self, equipment: int, unit: int) -> "Builder":
        """Attach a placed card to a placed unit (by their ``add`` indexes); it goes to the unit's location."""
        self.attachments.append((equipment, unit))
        return self

    def grant(self, index: int, keyword: str, value: Any = None, duration: str = "permanent") -> "Builder":
        """A keyword granted to a placed object by an earlier effect (a lasting grant)."""
        self.effects.append((index, "grant", {"keyword": keyword.lower().replace("-", "_"), "value": value}, duration))
        return self

    def modify_might(self, index: int, amount: int, duration: str = "this_turn") -> "Builder":
        """A Might change from an earlier effect ("gets +2 Might this turn"; negative amounts lower it)."""
        mod: dict[str, Any] = {"type": "might", "amount": abs(amount)}
        if amount < 0:
            mod["negative"] = True
        self.effects.append((index, "static", {"modifiers": [mod]}, duration))
        return self

    def on_chain(self, player: int, index: int, ability: int = -1,
                 targets: list[list[tuple[str, int]]] | None = None) -> "Builder":
        """Put an item on the chain, finalized, oldest first: the placed card ``index`` itself (place it
        with ``zone="chain"``), or its ability number ``ability``."""
        self.chain_items.append(_ChainSpec(player, index, ability, targets or []))
        return self

    def give_priority(self, player: int) -> "Builder":
        """Who holds priority over the built chain (default: the newest item's controller)."""
        self.priority = player
        return self

    # ------------------------------------------------------------------ build
    def build(self) -> tuple[Game, list[int]]:
        """The game, and the ids of the placed cards in the order they were added."""
        modes = self.catalog.plugins.modes() if self.catalog.plugins else {}
        spec = modes.get(self.mode)
        team_of = {p: t for t, seats in enumerate(spec.teams if spec else ()) for p in seats}
        players = [Player(index=i, name=self.names[i], team=team_of.get(i, i)) for i in range(self.players)]
        state = GameState(mode=self.mode, seed=self.seed, rng=rng.seed_state(self.seed),
                          victory_score=spec.victory_score if spec else 8, players=players,
                          battlefields=[], objs={})
        state.turn_order = list(range(self.players))
        g = Game(self.catalog, state)
        g.emit("setup", mode=self.mode, seed=self.seed, players=self.names, decks=["(built position)"] * self.players)
        for i in range(self.players):
            # 491.8.d.1: teammates always show the same score (the team's, set for either of them)
            players[i].points = max(self.points.get(j, 0) for j in range(self.players)
                                    if players[j].team == players[i].team)
            players[i].turns_taken = self.turns_taken.get(i, max(1 if self.step != "mulligan" else 0,
                                                                  self.turn // self.players))
            if i in self.pool:
                players[i].energy, players[i].power = self.pool[i][0], dict(self.pool[i][1])
            if i in self.legends:
                legend = g.new_obj(self.legends[i], i, "legend")
                players[i].legend = legend.id
            if i in self.champions:
                champ = g.new_obj(self.champions[i], i, "champion")
                players[i].champion.append(champ.id)
                players[i].chosen_champion = champ.id
        for code, controller, owner in self.battlefield_codes:
            obj = g.new_obj(code, owner, "bfcard")
            bf = Battlefield(index=len(state.battlefields), card=obj.id, owner=owner, controller=controller)
            state.battlefields.append(bf)
            obj.loc = bf.loc
            if controller >= 0:
                obj.controller = controller  # a battlefield's controller controls its abilities
        ids: list[int] = []
        for placed in self.placed:
            obj = g.new_obj(placed.code, placed.player, "limbo", token=g.defs[placed.code].token)
            ids.append(obj.id)
            zone = placed.zone
            if zone == "board" and placed.loc >= BF0 and placed.loc - BF0 >= len(state.battlefields):
                raise BuildError(f"no battlefield at location {placed.loc}")
            g.place(obj.id, zone, placed.loc)
            status = dict(placed.status)
            obj.exhausted = bool(status.pop("exhausted", False))
            obj.damage = int(status.pop("damage", 0))
            obj.buffs = int(status.pop("buffs", 0))
            obj.stunned = bool(status.pop("stunned", False))
            if "controller" in status:
                obj.controller = int(status.pop("controller"))
            if zone == "facedown":
                obj.hidden_turn = self.turn - 1
            obj.timestamp = g.tick()
            if status:
                raise BuildError(f"unknown status {sorted(status)} for {placed.code}")
        for player, loc in self.scored:
            g.bf_at(loc).scored_by.append(player)
        for eq, unit in self.attachments:
            self._attach(g, ids[eq], ids[unit])
        for index, kind, body, duration in self.effects:
            obj = g.obj(ids[index])
            state.lasting.append(Lasting(id=g.tick(), kind=kind, source=obj.id, source_code=obj.code,
                                         controller=obj.controller, body=body, duration=duration, affects=[obj.id],
                                         timestamp=state.clock))
        state.turn = self.turn
        state.turn_player = self.turn_player
        state.order_player = self.turn_player
        if self.step == "mulligan":
            # 117: the mulligans in turn order from the turn player, then turn 1 begins
            state.turn_order = [(self.turn_player + k) % self.players for k in range(self.players)]
            state.step = state.phase = "setup"
            state.tasks = [["mulligan", p] for p in reversed(state.turn_order)]
        else:
            state.step = self.step
            state.phase = "main" if self.step in ("main", "main_end") else self.step
        self._chain(g, ids)
        g.rebuild_index()
        g.run()
        return g, ids

    def _attach(self, g: Game, eq: int, unit: int) -> None:
        eq_obj, unit_obj = g.obj(eq), g.obj(unit)
        if unit_obj.zone != "board" or g.card(unit).type != "unit":
            raise BuildError(f"{g.name(eq)} can only be attached to a unit on the board, not {g.name(unit)}")
        if eq_obj.zone != "board" or g.card(eq).type != "gear":
            raise BuildError(f"only gear on the board can be attached to a unit, not {g.name(eq)}")
        eq_obj.attached_to = unit
        g.place(eq, "board", unit_obj.loc)  # attached cards are at their unit's location

    def _chain(self, g: Game, ids: list[int]) -> None:
        state = g.state
        for spec in self.chain_items:
            oid = ids[spec.index]
            obj = g.obj(oid)
            targets = [[ids[value] if kind == "obj" else value for kind, value in slot] for slot in spec.targets]
            if spec.ability < 0:
                if obj.zone != "chain":
                    raise BuildError(f"{g.name(oid)} must be placed on the chain to be a chain item")
                item = ChainItem(id=g.tick(), kind="card", controller=spec.player, obj=oid, targets=targets)
            else:
                abilities = g.card(oid).abilities
                if not 0 <= spec.ability < len(abilities) or abilities[spec.ability].kind not in ("activated",
                                                                                               "triggered"):
                    raise BuildError(f"{g.name(oid)} has no activated or triggered ability {spec.ability}")
                ability = abilities[spec.ability]
                kind = "trigger" if ability.kind == "triggered" else "ability"
                event = {"t": ability.event, "obj": oid, "player": spec.player} if kind == "trigger" else None
                item = ChainItem(id=g.tick(), kind=kind, controller=spec.player, obj=oid, ability=spec.ability,
                                 targets=targets, event=event)
            state.chain.append(item)
        if state.chain:
            state.priority = self.priority if self.priority is not None else state.chain[-1].controller
            state.passes = 0
