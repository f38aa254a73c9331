"""The effect interpreter: selectors, amounts, conditions and the context effects run in.

Effect primitives (``plugins/effects.py`` and third-party plugins) receive an ``EffectContext``
and a script node; they read the node with the helpers here and change the game only through
the game actions of ``core/actions.py``.  Choices made while resolving go through ``ask``: an
answer the game does not have yet raises ``NeedDecision`` and the resolution is replayed from
its snapshot once the player has answered, so a paused resolution is plain serializable data.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import layers
from .errors import EngineError
from .state import NOWHERE, ChainItem, Decision, is_battlefield

if TYPE_CHECKING:
    from .game import Game

Node = dict[str, Any]
BOARD_KINDS = ("unit", "gear", "permanent")


class EffectContext:
    """Everything a resolving effect can refer to."""

    __slots__ = ("g", "controller", "source", "item", "event", "targets", "bindings", "variables",
                 "last", "you", "subject", "source_loc")

    def __init__(self, g: "Game", controller: int, source: int, item: ChainItem | None = None,
                 event: dict[str, Any] | None = None) -> None:
        self.g = g
        self.controller = controller
        self.source = source
        self.item = item
        self.event = event
        self.targets: list[list[int]] = item.targets if item is not None else []
        self.bindings: dict[str, list[int]] = {}
        self.variables: dict[str, int] = dict(item.variables) if item is not None else {}
        self.last: dict[str, bool] = {}
        self.you = controller
        self.subject: int | None = None
        self.source_loc = NOWHERE

    # ------------------------------------------------------------------ running effects
    def run(self, node: Node) -> None:
        etype = self.g.catalog.effect_types.get(node["type"])
        if etype is None:
            raise EngineError(f"effect type {node['type']!r} has no installed primitive")
        etype.run(self, node)

    def ask(self, player: int, prompt: str, options: list[tuple[str, Any]], kind: str = "choose") -> Any:
        """Get a player's choice among options; one option needs no decision."""
        return self.g.ask(player, prompt, options, kind)

    # ------------------------------------------------------------------ references
    def here(self) -> int:
        """The source's location, or where it was when it left the board (remembered by Deathknell)."""
        obj = self.g.state.objs.get(self.source)
        if obj is not None and obj.zone in ("board", "bfcard"):
            return obj.loc  # a battlefield card's 'here' is its battlefield
        if self.source_loc != NOWHERE:
            return self.source_loc
        # No last-known information, except what Deathknell remembers of the dying card (808)
        if self.event is not None and self.event.get("t") == "die" and self.event.get("obj") == self.source \
                and "loc" in self.event:
            return int(self.event["loc"])
        return NOWHERE

    def ref(self, name: str) -> list[int]:
        g = self.g
        if name == "self":
            return [self.source]
        if name in ("it", "them", "chosen", "destination"):
            return list(self.bindings.get(name, self.bindings.get("it", []) if name == "them" else []))
        if name == "target":
            return self._live_targets(0)
        if name == "targets":
            return [oid for slot in range(len(self.targets)) for oid in self._live_targets(slot)]
        if name == "event_subject":
            if self.subject is not None:
                return [self.subject]
            return [int(self.event["obj"])] if self.event and "obj" in self.event else []
        if name == "event_source":
            return [int(self.event["source"])] if self.event and self.event.get("source", NOWHERE) != NOWHERE else []
        if name == "event_player":
            return [int(self.event["player"])] if self.event and "player" in self.event else []
        if name == "host":
            obj = g.state.objs.get(self.source)
            return [obj.attached_to] if obj is not None and obj.attached_to != NOWHERE else []
        if name in ("you", "controller"):
            return [self.you]
        if name == "owner":
            return [g.obj(self.source).owner]
        if name == "source_location":
            return [self.here()]
        raise EngineError(f"unknown reference {name!r}")

    def _live_targets(self, slot: int) -> list[int]:
        if slot >= len(self.targets):
            return []
        return [oid for oid in self.targets[slot] if oid in self.g.state.objs and self.g.obj(oid).zone != "gone"]

    # ------------------------------------------------------------------ selectors
    def resolve(self, selector: Any, purpose: str = "") -> list[int]:
        """The objects (or players, for what: player) a selector denotes now."""
        if isinstance(selector, str):
            return self.ref(selector)
        if "named" in selector:
            return [oid for oid in self.bindings.get("@" + selector["named"], [])
                    if oid not in self.g.state.objs or self.g.obj(oid).zone != "gone"]
        pick = selector["pick"]
        if pick == "target" and selector.get("what") == "location":
            slot = int(selector.get("_slot", 0))
            chosen = list(self.targets[slot]) if slot < len(self.targets) else []
            self.bindings["destination"] = chosen
            return chosen
        if pick == "target":
            slot = int(selector.get("_slot", 0))
            chosen = self._live_targets(slot)
            live = [oid for oid in chosen if self.matches_selection(selector, oid, resolving=True)]
            self.bindings["it"] = live
            self._name(selector, live)
            return live
        candidates = self.candidates(selector)
        if pick == "all":
            result = candidates
        elif pick == "random":
            count = int(selector.get("count", 1))
            pool = list(candidates)
            result = []
            while pool and len(result) < count:
                result.append(pool.pop(self.g.random_below(len(pool))))
        else:
            result = self.choose_from(selector, candidates, purpose)
        self.bindings["it"] = result
        self._name(selector, result)
        return result

    def _name(self, selector: Node, result: list[int]) -> None:
        """'as: NAME' collects what a selection picked, across for_each iterations."""
        if "as" in selector:
            key = "@" + selector["as"]
            self.bindings[key] = self.bindings.get(key, []) + [r for r in result if r not in self.bindings.get(key, [])]

    def choose_from(self, selector: Node, candidates: list[int], purpose: str) -> list[int]:
        if selector.get("chooser") == "each_other_player":
            # each other player, starting with the next, chooses one not yet chosen (King's Edict)
            picked: list[int] = []
            for other in self.g.opponents(self.you):
                pool = [oid for oid in candidates if oid not in picked]
                if pool:
                    picked.append(int(self.ask(other, f"choose a {selector.get('what', 'card')}"
                                               + (f" to {purpose}" if purpose else ""),
                                               [(self.describe(oid), oid) for oid in pool])))
            return picked
        chooser = self.chooser_of(selector.get("chooser", "you"))
        count = 99 if selector.get("any_number") else int(selector.get("count", 1))
        optional = bool(selector.get("up_to") or selector.get("any_number"))
        chosen: list[int] = []
        pool = list(candidates)
        while pool and len(chosen) < count:
            options: list[tuple[str, Any]] = [(self.describe(oid), oid) for oid in pool]
            if optional or (chosen and len(chosen) >= count):
                options.append(("done", -1))
            what = selector.get("what", "card")
            prompt = f"choose a {what}" + (f" to {purpose}" if purpose else "")
            answer = self.ask(chooser, prompt, options)
            if answer == -1:
                break
            chosen.append(int(answer))
            pool.remove(int(answer))
        return chosen

    def chooser_of(self, who: str) -> int:
        if who in ("you",):
            return self.you
        if who == "its_controller":
            it = self.bindings.get("it") or self.ref("target")
            return self.g.obj(it[0]).controller if it else self.you
        if who == "opponent":
            opponents = self.g.opponents(self.you)
            return opponents[0] if opponents else self.you
        if who == "event_player" and self.event is not None:
            return int(self.event.get("player", self.you))
        return self.you

    def describe(self, oid: int) -> str:
        obj = self.g.state.objs.get(oid)
        if obj is None:
            return f"#{oid}"
        return f"{self.g.name(oid)} #{oid}"

    def candidates(self, selector: Node) -> list[int]:
        g = self.g
        what = selector.get("what", "unit")
        zone = selector.get("zone")
        if what == "player":
            players = [p.index for p in g.state.players if not p.conceded]
            filt = selector.get("where", {})
            if filt.get("controller") == "enemy":
                players = [p for p in players if not g.friendly(p, self.you)]
            elif filt.get("controller") == "friendly":
                players = [p for p in players if g.friendly(p, self.you)]
            return players
        if what == "battlefield":
            out = [bf.card for bf in g.state.battlefields]
            return [oid for oid in out if self.matches_selection(selector, oid)]
        if what == "location":
            locs = [p.index for p in g.state.players] + [bf.loc for bf in g.state.battlefields]
            want = selector.get("where", {}).get("location", "any")
            return [loc for loc in locs if self.valid_location(loc, want)]
        if "among" in selector:
            pool = self.resolve(selector["among"]) if not isinstance(selector["among"], str) else self.ref(selector["among"])
            return [oid for oid in pool if oid in g.state.objs and self.is_kind(oid, what)
                    and self.matches(oid, selector.get("where"))]
        if zone is None:
            zone = "chain" if what in ("spell", "chain_item") else ("runes" if what == "rune" else "board")
        ids: list[int]
        if zone == "board":
            ids = list(g.board_objects())
        elif zone == "chain":
            ids = [item.obj for item in g.state.chain if item.kind == "card"]
        elif zone == "facedown":
            ids = [oid for bf in g.state.battlefields for oid in bf.facedown]
        elif zone == "runes":
            ids = [oid for p in g.state.players for oid in p.runes]
        elif zone == "in_play":
            # every card on the table: units and gear, runes, legends ("ready something else", Miss Fortune)
            ids = list(g.board_objects()) + [oid for p in g.state.players for oid in p.runes] + \
                [p.legend for p in g.state.players if p.legend != NOWHERE]
        else:
            attr = {"hand": "hand", "trash": "trash", "main_deck": "main_deck", "rune_deck": "rune_deck",
                    "champion_zone": "champion", "banishment": "banished"}[zone]
            whose = selector.get("whose", "you")
            if whose == "you":
                players = [self.you]
            elif whose in ("opponent", "its_controller"):
                players = g.opponents(self.you)
            else:
                players = [p.index for p in g.state.players]
            ids = [oid for p in players for oid in getattr(g.state.players[p], attr)]
        # matches_selection for each (not a location here), with the selector read once
        objs, defs = g.state.objs, g.defs
        kind = selector.get("what", "unit")
        any_kind = kind in ("card", "chain_item", "location", "player")
        where = selector.get("where")
        found: list[int] = []
        for oid in ids:
            obj = objs.get(oid)
            if obj is None or obj.zone == "gone":
                continue
            if not any_kind:
                ctype = defs[obj.code].type
                if not (ctype in ("unit", "gear") if kind == "permanent" else ctype == kind):
                    continue
            if self.matches(oid, where):
                found.append(oid)
        return found

    def matches_selection(self, selector: Node, oid: int, resolving: bool = False) -> bool:
        g = self.g
        if selector.get("what") == "location":
            return self.valid_location(oid, selector.get("where", {}).get("location", "any"))
        obj = g.state.objs.get(oid)
        if obj is None or obj.zone == "gone":
            return False
        what = selector.get("what", "unit")
        if not self.is_kind(oid, what):
            return False
        if resolving and what in BOARD_KINDS and selector.get("zone", "board") == "board" and obj.zone != "board":
            return False
        return self.matches(oid, selector.get("where"))

    def is_kind(self, oid: int, what: str) -> bool:
        g = self.g
        card = g.defs[g.state.objs[oid].code]
        if what in ("card", "chain_item", "location", "player"):
            return True
        if what == "permanent":
            return card.type in ("unit", "gear")
        return card.type == what

    def selector_matches(self, selector: Any, oid: int) -> bool:
        """For static abilities: does this selector cover object ``oid``?"""
        if isinstance(selector, str):
            if selector == "self":
                return oid == self.source
            if selector == "host":
                return oid in self.ref("host")
            return oid in self.ref(selector)
        obj = self.g.obj(oid)
        if selector.get("zone", "board") == "board" and obj.zone != "board":
            return False
        return self.matches_selection(selector, oid)

    def matches(self, oid: int, filt: Node | None) -> bool:
        if not filt:
            return True
        g = self.g
        obj = g.state.objs[oid]
        card = g.defs[obj.code]
        for key, want in filt.items():
            if key == "controller":
                if want == "friendly" and not g.friendly(obj.controller, self.you):
                    return False
                if want == "enemy" and g.friendly(obj.controller, self.you):
                    return False
                if want == "event_player":
                    players = self.ref("event_player")
                    if not players or obj.controller != players[0]:
                        return False
            elif key == "any_of":
                if not any(self.matches(oid, alternative) for alternative in want):
                    return False
            elif key == "at":
                # a battlefield card is 'at' its own battlefield (198.1), so "that unit's battlefield"
                # (Zenith Blade's destination) is found like a unit there
                where = self.location_of(want)
                if where == NOWHERE or obj.zone not in ("board", "bfcard") or obj.loc != where:
                    return False
            elif key == "alone":
                role = "attacking_alone" if obj.designation == "attacker" else "defending_alone"
                if self.state_of(oid, role) != want:
                    return False
            elif key == "owner":
                if want == "you" and obj.owner != self.you:
                    return False
                if want == "opponent" and obj.owner == self.you:
                    return False
            elif key == "location":
                if not self._location_ok(obj.zone, obj.loc, want):
                    return False
            elif key == "other":
                if want and oid == self.source:
                    return False
            elif key == "distinct_from":
                for ref in want:
                    if oid in (self.ref(ref) if isinstance(ref, str) else self.resolve(ref)):
                        return False
            elif key == "stunned":
                if obj.stunned != want:
                    return False
            elif key == "buffed":
                if (obj.buffs > 0) != want:
                    return False
            elif key == "damaged":
                if (obj.damage > 0) != want:
                    return False
            elif key == "exhausted":
                if obj.exhausted != want:
                    return False
            elif key == "ready":
                if (not obj.exhausted) != want:
                    return False
            elif key == "attacker":
                if (obj.designation == "attacker") != want:
                    return False
            elif key == "defender":
                if (obj.designation == "defender") != want:
                    return False
            elif key == "in_combat":
                sd = g.state.showdown
                in_combat = sd is not None and sd.combat and obj.zone == "board" and obj.loc == sd.bf
                if in_combat != want:
                    return False
            elif key == "mighty":
                if (layers.might(g, oid) >= 5) != want:
                    return False
            elif key == "token":
                if obj.token != want:
                    return False
            elif key == "facedown":
                if (obj.zone == "facedown") != want:
                    return False
            elif key == "tag":
                if want not in card.tags and want != card.champion_tag:
                    return False
            elif key == "not_tag":
                if want in card.tags:
                    return False
            elif key == "name":
                if card.name != want:
                    return False
            elif key == "type":
                if not self.is_kind(oid, want):
                    return False
            elif key == "keyword":
                kw = want.lower().replace("-", "_")
                if obj.zone == "board":
                    if not layers.has_keyword(g, oid, kw):
                        return False
                elif not card.has_keyword(kw):
                    return False
            elif key in ("might", "energy_cost", "power_cost"):
                if key == "might":
                    value = layers.might(g, oid) if obj.zone == "board" else card.might
                else:
                    value = card.energy if key == "energy_cost" else len(card.power)
                if "min" in want and value < self.amount(want["min"]):
                    return False
                if "max" in want and value > self.amount(want["max"]):
                    return False
            elif key == "champion":
                if (card.supertype == "champion") != want:
                    return False
            elif key == "chosen_champion":
                pass
            elif key == "total_might":
                pass
            elif key == "not_chosen_this_turn":
                pass
        return True

    def _location_ok(self, zone: str, loc: int, want: str) -> bool:
        g = self.g
        if want == "any":
            return True
        if zone != "board":
            return False
        if want == "battlefield":
            return is_battlefield(loc)
        if want == "base":
            return not is_battlefield(loc)
        if want == "here":
            return loc == self.here() and self.here() != NOWHERE
        if want == "not_here":
            return loc != self.here()
        if want == "there":
            there = self.bindings.get("there") or []
            return bool(there) and loc == there[0]
        if want == "event_location":
            return self.event is not None and loc == self.event.get("loc", NOWHERE)
        if want == "same_as_event_subject":
            subj = self.ref("event_subject")
            return bool(subj) and g.obj(subj[0]).loc == loc
        if want == "open_battlefield":
            return is_battlefield(loc) and g.bf_at(loc).controller == NOWHERE
        if want == "controlled_battlefield":
            return is_battlefield(loc) and g.bf_at(loc).controller == self.you
        if want == "enemy_battlefield":
            # 740.1.a, 491.8.e: a battlefield a teammate controls is friendly, not an enemy's
            controller = g.bf_at(loc).controller if is_battlefield(loc) else NOWHERE
            return controller != NOWHERE and not g.friendly(controller, self.you)
        return True

    def valid_location(self, loc: Any, want: str = "any") -> bool:
        """A base or a battlefield of this game (198.1), optionally only battlefields or bases."""
        g = self.g
        if not isinstance(loc, int):
            return False
        bf = is_battlefield(loc) and loc - 10 < len(g.state.battlefields)
        base = 0 <= loc < len(g.state.players)
        if want == "battlefield":
            return bf
        if want == "base":
            return base
        return bf or base

    def location_of(self, spec: Any) -> int:
        """The location a selector denotes: a battlefield card's battlefield, or where an object is."""
        ids = self.ref(spec) if isinstance(spec, str) else self.resolve(spec)
        if not ids or ids[0] not in self.g.state.objs:
            return NOWHERE
        obj = self.g.obj(ids[0])
        if obj.zone in ("board", "bfcard"):
            return obj.loc
        if self.event is not None and self.event.get("obj") == ids[0]:
            return int(self.event.get("loc", NOWHERE))
        return NOWHERE

    # ------------------------------------------------------------------ amounts
    def amount(self, value: Any, subject: int | None = None) -> int:
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int):
            return value
        if value is None:
            return 1
        g = self.g
        kind = value["type"]
        if kind == "count":
            saved = dict(self.bindings)
            result = len(self.resolve(value["of"]))
            self.bindings = saved
        elif kind == "might":
            ids = [subject] if value["of"] == "event_subject" and subject is not None else self.resolve(value["of"])
            result = layers.might(g, ids[0]) if ids else 0
        elif kind == "energy_cost":
            ids = self.resolve(value["of"])
            result = g.card(ids[0]).energy if ids else 0
        elif kind == "stat":
            result = self.stat(value["stat"], value.get("player", "you"))
        elif kind == "variable":
            name = value["name"]
            if name in self.variables:
                result = self.variables[name]
            else:
                recorded = [h[4] for h in g.state.history if h[0] == "var:" + name and h[1] == self.you]
                result = int(recorded[-1]) if recorded else 0
        else:
            raise EngineError(f"unknown amount type {kind!r}")
        result = result * int(value.get("times", 1)) + int(value.get("plus", 0))
        return result

    def stat(self, stat: str, who: str) -> int:
        g = self.g
        if who == "opponent":
            players = g.opponents(self.you)
        elif who == "its_controller":
            it = self.bindings.get("it") or []
            players = [g.obj(it[0]).controller] if it else [self.you]
        else:
            players = [self.you]
        values = []
        for p in players:
            pl = g.state.players[p]
            if stat == "points":
                values.append(pl.points)
            elif stat == "hand_size":
                values.append(len(pl.hand))
            elif stat == "trash_size":
                values.append(len(pl.trash))
            elif stat == "main_deck_size":
                values.append(len(pl.main_deck))
            elif stat == "runes":
                values.append(len(pl.runes))
            elif stat == "xp":
                values.append(pl.xp)
            elif stat == "victory_score":
                values.append(g.state.victory_score)
            elif stat == "highest_might":
                mights = [layers.might(g, u) for u in g.board_objects()
                          if g.obj(u).controller == p and g.card(u).type == "unit"]
                values.append(max(mights, default=0))
            elif stat == "moves_this_turn":
                values.append(g.obj(self.source).moves_this_turn)
            elif stat == "cards_played_this_turn":
                values.append(sum(1 for h in g.state.history if h[0] == "played" and h[1] == p))
            elif stat == "opponent_points_max":
                values.append(max((g.state.players[o].points for o in g.opponents(self.you)), default=0))
        return max(values, default=0)

    # ------------------------------------------------------------------ conditions
    def check(self, cond: Node, subject: int | None = None) -> bool:
        g = self.g
        kind = cond["type"]
        if kind == "all":
            return all(self.check(c, subject) for c in cond["of"])
        if kind == "any":
            return any(self.check(c, subject) for c in cond["of"])
        if kind == "not":
            return not self.check(cond["of"], subject)
        if kind == "exists":
            saved = dict(self.bindings)
            count = len(self.resolve(cond["what"]))
            self.bindings = saved
            if count < int(cond.get("at_least", 1)):
                return False
            return "at_most" not in cond or count <= int(cond["at_most"])
        if kind == "is":
            ids = [subject] if cond["subject"] == "event_subject" and subject is not None else self.resolve(cond["subject"])
            return bool(ids) and all(self.state_of(oid, cond["state"]) for oid in ids)
        if kind == "compare":
            left = self.amount(cond["left"], subject)
            right = self.amount(cond["right"], subject)
            op = cond["op"]
            return {"ge": left >= right, "gt": left > right, "le": left <= right, "lt": left < right,
                    "eq": left == right, "ne": left != right}[op]
        if kind == "history":
            return self.history_count(cond) >= int(cond.get("at_least", 1))
        if kind == "keyword":
            kw = g.catalog.keywords.get(cond["keyword"].lower())
            if kw is None or kw.condition is None:
                raise EngineError(f"keyword {cond['keyword']!r} defines no condition")
            from .catalog import _substitute

            return self.check(_substitute(kw.condition, cond.get("value")), subject)
        if kind == "did":
            return bool(self.last.get(cond["what"], False))
        if kind == "paid":
            if self.item is not None and cond["cost"] in self.item.paid:
                return True
            # a "when you play me" trigger: the additional costs paid for the card (357)
            return bool(self.event and self.event.get("t") == "played" and cond["cost"] in self.event.get("paid", []))
        if kind == "turn":
            # 491.8.c: "your turn" is yours alone; a teammate's turn is no opponent's turn either
            if cond["whose"] == "yours":
                return g.state.turn_player == self.you
            return not g.friendly(g.state.turn_player, self.you)
        if kind == "first_time":
            return self.history_count({"event": cond["event"], "player": "you"}) <= 1
        raise EngineError(f"unknown condition type {kind!r}")

    def history_count(self, cond: Node) -> int:
        g = self.g
        event = cond["event"]
        who = cond.get("player", "any")
        exclude = cond.get("exclude_self", False)
        subject = cond.get("subject")
        count = 0
        for entry in g.state.history:
            if entry[0] != event:
                continue
            player = entry[1]
            # "you" did it: the player alone, except that 491.8.d.3 makes point gains the team's
            if who == "you" and player != self.you and not (event == "points" and g.friendly(player, self.you)):
                continue
            if who == "opponent" and g.friendly(player, self.you):
                continue
            if exclude and entry[2] == self.source:
                continue
            if subject is not None and entry[2] != NOWHERE and entry[2] in g.state.objs:
                if not self.matches(entry[2], subject) and not _matches_dead(self, entry, subject):
                    continue
            count += 1
        return count

    def state_of(self, oid: int, state: str) -> bool:
        g = self.g
        obj = g.state.objs.get(oid)
        if obj is None:
            return False
        on_board = obj.zone == "board"
        if state == "attacker":
            return on_board and obj.designation == "attacker"
        if state == "defender":
            return on_board and obj.designation == "defender"
        if state in ("attacking_alone", "defending_alone"):
            role = "attacker" if state == "attacking_alone" else "defender"
            if not on_board or obj.designation != role:
                return False
            mates = [u for u in g.units_at(obj.loc) if g.obj(u).designation == role
                     and g.obj(u).controller == obj.controller]
            return len(mates) == 1
        if state == "at_battlefield":
            return on_board and is_battlefield(obj.loc)
        if state == "at_base":
            return on_board and not is_battlefield(obj.loc)
        if state == "buffed":
            return obj.buffs > 0
        if state == "stunned":
            return obj.stunned
        if state == "mighty":
            return layers.might(g, oid) >= 5
        if state == "damaged":
            return obj.damage > 0
        if state == "exhausted":
            return obj.exhausted
        if state == "ready":
            return not obj.exhausted
        if state == "token":
            return obj.token
        if state == "in_combat":
            sd = g.state.showdown
            return sd is not None and sd.combat and on_board and obj.loc == sd.bf
        if state == "facedown":
            return obj.zone == "facedown"
        if state in ("on_board", "alive"):
            return on_board
        raise EngineError(f"unknown state {state!r}")


def _matches_dead(ctx: EffectContext, entry: list[Any], subject: Node) -> bool:
    """History entries about objects that left the board are judged by their card only."""
    if "controller" in subject:
        friendly = ctx.g.friendly(entry[1], ctx.you)
        if subject["controller"] == "enemy" and friendly:
            return False
        if subject["controller"] == "friendly" and not friendly:
            return False
    return True
