"""Build a game in a chosen position, for tests, scenarios and puzzles.

Only what a situation cares about needs spelling out; the rest gets defaults: each player has
the legend and champion given (or none), an empty deck unless one is given, no runes unless
given, and the game stands in the turn player's Main Phase with priority.

    b = Builder(catalog)
    jinx = b.add(0, "OGN-030", at="base", exhausted=False)
    b.runes(0, ["OGN-007"] * 4)
    game = b.build()
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import rng
from .catalog import Catalog
from .errors import RiftScriptError
from .game import Game
from .state import BF0, NOWHERE, Battlefield, GameState, Player


class BuildError(RiftScriptError):
    """The requested position can't be built (unknown card, bad location)."""


@dataclass
class _Placed:
    player: int
    code: str
    zone: str
    loc: int = NOWHERE
    status: dict[str, Any] = field(default_factory=dict)


class Builder:
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
        self.legends[player] = self._code(code)
        return self

    def champion(self, player: int, code: str) -> "Builder":
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
        self.placed.append(_Placed(player, self._code(code), zone, loc, status))
        return len(self.placed) - 1

    def hand(self, player: int, codes: list[str]) -> list[int]:
        return [self.add(player, c, zone="hand") for c in codes]

    def deck(self, player: int, codes: list[str]) -> list[int]:
        """Main deck, top card first."""
        return [self.add(player, c, zone="main_deck") for c in codes]

    def trash(self, player: int, codes: list[str]) -> list[int]:
        return [self.add(player, c, zone="trash") for c in codes]

    def runes(self, player: int, codes: list[str], exhausted: bool = False) -> list[int]:
        return [self.add(player, c, zone="runes", exhausted=exhausted) for c in codes]

    def rune_deck(self, player: int, codes: list[str]) -> list[int]:
        return [self.add(player, c, zone="rune_deck") for c in codes]

    def set_points(self, player: int, points: int) -> "Builder":
        self.points[player] = points
        return self

    def scored_this_turn(self, player: int, loc: int) -> "Builder":
        self.scored.append((player, loc))
        return self

    def at_turn(self, player: int, step: str = "main", turn: int = 3) -> "Builder":
        self.turn_player = player
        self.step = step
        self.turn = turn
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
            players[i].turns_taken = max(1, self.turn // self.players)
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
        state.turn = self.turn
        state.turn_player = self.turn_player
        state.order_player = self.turn_player
        state.step = self.step
        state.phase = "main" if self.step in ("main", "main_end") else self.step
        g._rebuild_index()
        g.run()
        return g, ids
