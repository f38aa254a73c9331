"""The dispatch index: which abilities are live where, so that an event finds its listeners by a
dictionary lookup instead of a walk over the board.

Kept in step with the objects by ``Game.place`` (and ``Game.index_object``/``unindex_object`` for changes of an object that
are no move: it becomes a copy, an Equipment is detached).  What it holds, read by the rules modules
and never changed by them:

- ``listeners``: event type (``"die"``, or ``"replace:die"`` for replacement effects) -> the
  (object, ability index) pairs listening to it, in the order they were indexed;
- ``static_sources``: the (object, ability index) pairs of the static abilities in force;
- ``grant_sources``: the statics that give keywords with triggered abilities ("other units have
  [Vision]"), so that dispatch can look at the objects they affect;
- ``attached``: the objects indexed while attached to a unit (keys of a dict, in the order indexed):
  every card on the board attached to something is among them, so ``layers.attachments`` finds the
  attachments without a walk over the board (an entry may outlive its attachment when a concession
  detaches a card without moving it: readers check ``attached_to``);
- ``with_statics`` and ``activators``: the objects on the board whose card has a static ability, and
  those whose card has activated abilities of its own or borrows some (``CardFacts.statics``,
  ``activated``, ``borrows``): ``targeting.might_fixed`` and ``activation.activatable`` read them
  instead of walking the board;
- ``statics_generation``: a counter bumped whenever ``static_sources`` changes or the timestamp of
  one of their objects changes (``order_changed``), which keys the caches that depend only on which statics
  are in force and in what order (``Game.statics_memo``);
- ``edits``: a counter bumped by every change of the index (``add``, ``remove``, ``order_changed``,
  ``rebuild``, ``put_back``): a guarded step rewound while it is what it was at the snapshot keeps the
  index as it is (it is the snapshot's), and with it the statics generation and ``listening``'s splits
  (``loop.guarded``); ``invariants.check`` compares the index, the splits and the statics' answers with
  a fresh copy's.

And one answer worked out from ``listeners`` and kept with it: ``listening`` (see there).
"""
from __future__ import annotations

from typing import Final, TYPE_CHECKING

from . import triggers
from .state import NOWHERE

if TYPE_CHECKING:
    from .game import Game

ACTIVE_ZONES: Final = frozenset({"board", "legend", "bfcard"})
# the index as it was: listeners, static sources, grant sources, each object's listened events, attached
# objects, board objects with statics, board objects with activated abilities
IndexCopy = tuple[dict[str, dict[tuple[int, int], None]], dict[tuple[int, int], None],
                  dict[tuple[int, int], None], dict[int, list[str]], dict[int, None], dict[int, None], dict[int, None]]


class TriggerIndex:
    """The live abilities of a game's objects, by what they listen to (see the module docstring)."""

    def __init__(self) -> None:
        self.listeners: dict[str, dict[tuple[int, int], None]] = {}
        self.static_sources: dict[tuple[int, int], None] = {}
        self.grant_sources: dict[tuple[int, int], None] = {}
        self.statics_generation = 0
        self.edits = 0  # bumped by every change of the index (a rewind keeps an index nothing edited)
        self._indexed: dict[int, list[str]] = {}  # each object's keys in ``listeners``, to remove them
        self.attached: dict[int, None] = {}
        self.with_statics: dict[int, None] = {}
        self.activators: dict[int, None] = {}
        self.listening_split: dict[str, tuple[list[tuple[int, int]], dict[int, list[tuple[int, int]]]]] = {}

    def add(self, g: "Game", oid: int) -> None:
        """Index the abilities of an object as its zone and attachment make them live."""
        g.touch()  # what is remembered per version may depend on the static sources
        self.edits += 1
        obj = g.state.objs[oid]
        card = g.defs[obj.code]
        active = obj.zone in ACTIVE_ZONES
        attached = obj.zone == "board" and obj.attached_to != NOWHERE
        if attached:
            self.attached[oid] = None
        if obj.zone == "board":
            facts = card.facts
            if facts.statics:
                self.with_statics[oid] = None
            if facts.activated or facts.borrows:
                self.activators[oid] = None
        listeners = self.listeners
        keys: list[str] = []
        for ability in card.abilities:
            if ability.body.get("effect_text"):
                # 150.2, 435.1.e: effect text works only while attached, and its triggers are the unit's
                if attached and ability.kind == "triggered" and "from_zone" not in ability.body["when"]:
                    listeners.setdefault(ability.event or "", {})[(oid, ability.index)] = None
                    keys.append(ability.event or "")
                elif attached and ability.kind == "replacement":
                    # the unit's "if I would ..." (Guardian Angel): replace.replace reads it as the unit's
                    listeners.setdefault("replace:" + (ability.event or ""), {})[(oid, ability.index)] = None
                    keys.append("replace:" + (ability.event or ""))
                elif attached and ability.kind == "static" and (ability.body.get("affects", "self") != "self" or any(
                        m["type"] == "copy_text" for m in ability.body["modifiers"])):
                    # effect text reaching beyond the unit ("your units here have ...", "your spells deal ...")
                    self.static_sources[(oid, ability.index)] = None
                    self.statics_generation += 1
                    if triggers.granted_trigger_mods(g, ability):
                        self.grant_sources[(oid, ability.index)] = None
                elif attached and ability.kind == "static" and triggers.granted_trigger_mods(g, ability):
                    self.grant_sources[(oid, ability.index)] = None  # a keyword with a trigger, for the unit
                continue
            if attached:
                continue  # 718.2: an attached card's rules text is inactive
            if ability.kind == "triggered":
                from_zone = ability.body["when"].get("from_zone")
                if (from_zone is None and active) or (from_zone is not None and obj.zone == from_zone):
                    listeners.setdefault(ability.event or "", {})[(oid, ability.index)] = None
                    keys.append(ability.event or "")
            elif ability.kind == "replacement" and active:
                listeners.setdefault("replace:" + (ability.event or ""), {})[(oid, ability.index)] = None
                keys.append("replace:" + (ability.event or ""))
            elif ability.kind == "static" and active:
                self.static_sources[(oid, ability.index)] = None
                self.statics_generation += 1
                if triggers.granted_trigger_mods(g, ability):
                    self.grant_sources[(oid, ability.index)] = None
        if keys:
            self._indexed[oid] = keys
            for event in keys:
                self.listening_split.pop(event, None)

    def remove(self, g: "Game", oid: int) -> None:
        """Remove an object's abilities: cost is its own abilities, not the size of the board."""
        g.touch()
        self.edits += 1
        self.attached.pop(oid, None)
        self.with_statics.pop(oid, None)
        self.activators.pop(oid, None)
        for event in self._indexed.pop(oid, []):
            self.listening_split.pop(event, None)
            table = self.listeners.get(event, {})
            for key in [k for k in table if k[0] == oid]:
                del table[key]
        card = g.defs[g.state.objs[oid].code]
        for ability in card.abilities:
            if ability.kind == "static":
                if (oid, ability.index) in self.static_sources:
                    del self.static_sources[(oid, ability.index)]
                    self.statics_generation += 1
                self.grant_sources.pop((oid, ability.index), None)

    def statics_in_order(self, g: "Game") -> list[tuple[int, int]]:
        """The static abilities in force as (object, ability index), oldest first: by their object's
        timestamp, then its id, then the ability's place on the card - an order that doesn't depend
        on the order objects were indexed in (a loaded game indexes them by id), so that layers
        applied in it ("to a minimum of 1") come out the same after a save and a load."""
        objs = g.state.objs
        return sorted(self.static_sources, key=lambda key: (objs[key[0]].timestamp, key[0], key[1]))

    def order_changed(self, oid: int) -> None:
        """An object's timestamp changed (it entered the board, changed control): what is cached in
        the order of the statics (``statics_in_order``) is stale if it is the source of one of them
        (the order is their sources' timestamps; most units entering the board have none)."""
        for src, _index in self.static_sources:
            if src == oid:
                self.statics_generation += 1
                break
        self.edits += 1

    def rebuild(self, g: "Game") -> None:
        """Index every object anew (a loaded or built game, or a check against the caches)."""
        self.listeners = {}
        self.listening_split = {}
        self.static_sources = {}
        self.statics_generation += 1
        self.edits += 1
        self.grant_sources = {}
        self._indexed = {}
        self.attached, self.with_statics, self.activators = {}, {}, {}
        defs = g.defs
        for oid, obj in g.state.objs.items():
            # off the board an object is indexed only for its 'from this zone' triggers
            zone = obj.zone
            if zone in ACTIVE_ZONES:
                self.add(g, oid)
            elif zone != "gone" and zone in defs[obj.code].facts.trigger_zones:
                self.add(g, oid)

    def copy(self) -> IndexCopy:
        """The index as it is now, for a rewind to put back instead of rebuilding it from every
        object (the index only ever replaces ``_indexed``'s lists, never changes them)."""
        return ({event: dict(table) for event, table in self.listeners.items()}, dict(self.static_sources),
                dict(self.grant_sources), dict(self._indexed), dict(self.attached),
                dict(self.with_statics), dict(self.activators))

    def put_back(self, copy: IndexCopy) -> None:
        """Take a copy made by ``copy`` as the index (the copy is not copied again: use it once)."""
        (self.listeners, self.static_sources, self.grant_sources, self._indexed, self.attached, self.with_statics,
         self.activators) = copy
        self.listening_split = {}
        self.statics_generation += 1
        self.edits += 1

    def listening(self, g: "Game", event: str, obj: int) -> list[tuple[int, int]]:
        """The (object, ability index) pairs of ``listeners[event]`` that an event of that type about
        ``obj`` could trigger, sorted (the index's insertion order is not part of the saved state): an
        ability that listens only to its own object's event ("when I attack", ``subject: self``) is
        asked only about that object's events, so a combat's attack events cost their number, not
        their number times the attackers'.  The split is kept per event type (``listening_split``) and dropped
        whenever ``add``, ``remove``, ``rebuild`` or ``put_back`` changes that type's listeners;
        ``invariants.cache_problems`` compares it with one made anew."""
        split = self.listening_split.get(event)
        if split is None:
            split = self.listening_split[event] = split_listeners(g, event, self.listeners.get(event, {}))
        others, own = split
        mine = own.get(obj) if own else None
        return sorted(others + mine) if mine else others


def split_listeners(g: "Game", event: str, table: dict[tuple[int, int], None]
                    ) -> tuple[list[tuple[int, int]], dict[int, list[tuple[int, int]]]]:
    """(the listeners any event of the type may trigger, sorted; the object -> its listeners that only
    its own events trigger): a triggered ability of the object's own text (not an attached card's
    effect text) whose ``subject`` is ``self`` fires only for an event naming that object (``obj``),
    except the players' events whose 'self' is a unit there (``triggers.PLAYER_EVENTS``)."""
    others: list[tuple[int, int]] = []
    own: dict[int, list[tuple[int, int]]] = {}
    objs, defs = g.state.objs, g.defs
    for key in sorted(table):
        ability = defs[objs[key[0]].code].abilities[key[1]]
        if event not in triggers.PLAYER_EVENTS and ability.kind == "triggered" and not ability.body.get("effect_text") \
                and ability.body["when"].get("subject") == "self":
            own.setdefault(key[0], []).append(key)
        else:
            others.append(key)
    return others, own
