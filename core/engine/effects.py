"""The effect interpreter: selectors, amounts, conditions and the context effects run in.

Effect primitives (``plugins/effects.py`` and third-party plugins) receive an ``EffectContext``
and a script node; they read the node with the helpers here and change the game only through
the game actions of ``core/engine/verbs.py``.  Choices made while resolving go through ``ask``: an
answer the game does not have yet raises ``NeedDecision`` and the resolution is replayed from
its snapshot once the player has answered, so a paused resolution is plain serializable data.

Every part of the script language that names things by key - filter keys, object states,
player statistics, locations, amounts, conditions, references to players and objects - is a
``Table`` here: one handler per key, registered in one place.  ``tests/test_language.py``
compares each table with the keys its JSON Schema accepts, both ways, and the audit's set of
keys the engine reads is built from the tables (``language_keys`` in core/engine/language.py).

Mutually recursive with ``layers`` (a genuine pair): the interpreter reads characteristics (Might,
keywords, hooks) from ``layers``, and ``layers`` interprets the conditions and selections of static
abilities with this module's ``EffectContext``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generic, Iterator, TypeVar

from ..errors import EngineError
from ..script.cards import substitute
from .state import NOWHERE, PHASE_OF, ChainItem, Obj, Zone, is_battlefield

if TYPE_CHECKING:
    from ..script.cards import CardDef
    from .game import Game
    from ..script.registry import LanguageWord

Node = dict[str, Any]
BOARD_KINDS = ("unit", "gear", "permanent")
H = TypeVar("H", bound=Callable[..., Any])


class Table(Generic[H]):
    """One part of the script language: a handler for each key (or value) it accepts.

    ``schema`` points at the places in the JSON Schemas that list the same keys: a pointer into
    ``<schema>.schema.json`` whose last step names a mapping (its keys) or an enum (its values);
    ``*`` stands for every item or property at that step.  ``fields`` are the node fields an
    entry reads beside its key (conditions and amounts), ``asks`` the keys whose resolution may
    ask a player (a reference naming one of several players).
    """

    def __init__(self, name: str, schema: tuple[str, ...], doc: str) -> None:
        self.name = name
        self.schema = schema
        self.doc = doc
        self.entries: dict[str, H] = {}
        self.fields: dict[str, tuple[str, ...]] = {}
        self.asks: set[str] = set()
        # words added by plugins (riftscript_language), kept apart from the built-in entries that the
        # shipped schemas list: key -> (handler, plugin)
        self.plugin: dict[str, tuple[H, str]] = {}

    def register(self, *keys: str, fields: tuple[str, ...] = (), asks: bool = False) -> Callable[[H], H]:
        def add(handler: H) -> H:
            for key in keys:
                if key in self.entries:
                    raise EngineError(f"{self.name}: {key!r} has two handlers")
                self.entries[key] = handler
                self.fields[key] = fields
                if asks:
                    self.asks.add(key)
            return handler
        return add

    def __getitem__(self, key: str) -> H:
        handler = self.entries.get(key)
        if handler is None:
            added = self.plugin.get(key)
            if added is None:
                raise EngineError(f"unknown {self.name} {key!r}")
            return added[0]
        return handler

    def __contains__(self, key: object) -> bool:
        return key in self.entries or key in self.plugin

    def add_plugin_word(self, key: str, handler: H, plugin: str) -> None:
        """A plugin's word: it may not redefine a built-in one or another plugin's (the same plugin
        loading again replaces its own)."""
        from ..errors import PluginError

        if key in self.entries:
            raise PluginError(f"plugin {plugin} adds the {self.name} {key!r}, but that is a built-in word "
                              f"of the script language")
        known = self.plugin.get(key)
        if known is not None and known[1] != plugin:
            raise PluginError(f"{self.name} {key!r} is added by two plugins: {known[1]} and {plugin}")
        self.plugin[key] = (handler, plugin)

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def schema_keys(self) -> set[str]:
        """The keys (or values) the JSON Schemas accept at this table's ``schema`` places."""
        from ..script.schema import raw_schema

        found: set[str] = set()
        for pointer in self.schema:
            name, _, path = pointer.partition("#/")
            for node in _pointed(raw_schema(name), path.split("/")):
                if isinstance(node, dict):
                    found.update(node)
                elif isinstance(node, list):
                    found.update(str(v) for v in node)
        return found


def _pointed(node: Any, steps: list[str]) -> Iterator[Any]:
    """The nodes a schema pointer reaches (``*``: every item or property); missing steps reach nothing."""
    if not steps:
        yield node
        return
    step, rest = steps[0], steps[1:]
    if step == "*":
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
        for child in children:
            yield from _pointed(child, rest)
    elif isinstance(node, dict) and step in node:
        yield from _pointed(node[step], rest)
    elif isinstance(node, list) and step.isdigit() and int(step) < len(node):
        yield from _pointed(node[int(step)], rest)


FilterFn = Callable[["EffectContext", int, Obj, "CardDef", Any], bool]
LocationFn = Callable[["EffectContext", str, int], bool]
StateFn = Callable[["EffectContext", int, Obj], bool]
StatFn = Callable[["EffectContext", int], int]
AmountFn = Callable[["EffectContext", Node, "int | None"], int]
ConditionFn = Callable[["EffectContext", Node, "int | None"], bool]
PlayersFn = Callable[["EffectContext"], list[int]]
Event = dict[str, Any]
RelationFn = Callable[["Game", int, int, "Event | None"], bool]
RefFn = Callable[["EffectContext"], list[int]]
PlaceFn = Callable[["EffectContext", "int | None"], int]
ZoneFn = Callable[["EffectContext", Node], list[int]]

FILTERS: Table[FilterFn] = Table("filter key", ("effect#/$defs/filter/properties",),
                                 "criteria an object must meet (`where:`)")
LOCATIONS: Table[LocationFn] = Table("location filter", ("effect#/$defs/filter/properties/location/enum",),
                                     "where an object is (`where: {location: ...}`)")
STATES: Table[StateFn] = Table("state", ("effect#/$defs/condition/allOf/*/then/properties/state/enum",),
                               "what `{type: is, state: ...}` asks of an object")
STATS: Table[StatFn] = Table("stat", ("effect#/$defs/amount_expr/allOf/*/then/properties/stat/enum",),
                             "numbers about a player (`{type: stat, stat: ...}`)")
AMOUNTS: Table[AmountFn] = Table("amount type", ("effect#/$defs/amount_expr/properties/type/enum",),
                                 "computed amounts (`{type: ...}`)")
CONDITIONS: Table[ConditionFn] = Table("condition type", ("effect#/$defs/condition/properties/type/enum",),
                                       "conditions (`{type: ...}`)")
PLAYERS: Table[PlayersFn] = Table("player reference", (
    "effect#/$defs/selection/properties/whose/enum",
    "effect#/$defs/selection/properties/chooser/enum",
    "effect#/$defs/amount_expr/allOf/*/then/properties/player/enum",
    "effect#/$defs/effect_node/allOf/*/then/properties/player/enum",
    "effect#/$defs/effect_node/allOf/*/then/properties/chooser/enum",
    "effect#/$defs/effect_node/allOf/*/then/properties/players/enum",
    "effect#/$defs/effect_node/allOf/*/then/properties/who/enum",
), "who a player reference names (`player:`, `chooser:`, `whose:`, `players:`, `who:`)")
RELATIONS: Table[RelationFn] = Table("player relation", (
    "effect#/$defs/filter/properties/controller/enum",
    "effect#/$defs/filter/properties/owner/enum",
    "effect#/$defs/trigger/properties/player/enum",
    "effect#/$defs/trigger/properties/whose_turn/enum",
    "effect#/$defs/condition/allOf/*/then/properties/player/enum",
    "effect#/$defs/condition/allOf/*/then/properties/whose/enum",
), "how a player must stand to you (`controller:`, `owner:`, a trigger's `player:` and `whose_turn:`)")
REFS: Table[RefFn] = Table("reference", ("effect#/$defs/ref/enum",), "named references (`self`, `it`, ...)")
PLACES: Table[PlaceFn] = Table("location", ("effect#/$defs/location/anyOf/0/enum",),
                               "named destinations (`to:`, `at:`)")
ZONES: Table[ZoneFn] = Table("zone", ("effect#/$defs/zone/enum",), "where a selection looks (`zone:`)")


# The keys of a selection (``{pick: ..., what: ...}``), read together by ``EffectContext.resolve``,
# ``candidates`` and ``choose_from``; the values of ``zone``, ``whose`` and ``chooser`` are tables.
SELECTION_KEYS = ("pick", "what", "count", "up_to", "any_number", "zone", "whose", "chooser", "where", "as", "among",
                  "same_location", "same_controller", "one_per_location")


# Words plugins added (riftscript_language), by (kind, name): trigger events have no handler table,
# and the renderer reads every word's English from here.
WORDS: dict[tuple[str, str], "LanguageWord"] = {}
_WORD_TABLES: dict[str, Table[Any]] = {"filter": FILTERS, "state": STATES, "amount": AMOUNTS}


def add_words(words: list["LanguageWord"]) -> None:
    """Register plugins' words of the script language (the catalog does it as it loads)."""
    from ..errors import PluginError

    for word in words:
        table = _WORD_TABLES.get(word.kind)
        if table is not None:
            if word.run is None:
                raise PluginError(f"plugin {word.plugin}: the {word.kind} {word.name!r} has no handler (run)")
            table.add_plugin_word(word.name, word.run, word.plugin)
        known = WORDS.get((word.kind, word.name))
        if known is not None and known.plugin != word.plugin:
            raise PluginError(f"{word.kind} {word.name!r} is added by two plugins: {known.plugin} and {word.plugin}")
        WORDS[(word.kind, word.name)] = word



class EffectContext:
    """Everything a resolving effect can refer to."""

    __slots__ = ("g", "controller", "source", "item", "event", "targets", "bindings", "variables",
                 "last", "you", "subject", "source_loc", "text_of")

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
        # the card whose text this is: an attached card's effect text is the unit's ability (self is the
        # unit, 435.1.e), and "this card" still names the equipment
        self.text_of = source

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
        """The objects (or players, or a location) a named reference denotes now."""
        return REFS[name](self)

    def _live_targets(self, slot: int) -> list[int]:
        if slot >= len(self.targets):
            return []
        return [oid for oid in self.targets[slot] if oid in self.g.state.objs and self.g.obj(oid).zone != "gone"]

    # ------------------------------------------------------------------ who
    def players(self, who: str) -> list[int]:
        """Every player a player reference names (``opponent``: the one chosen earlier in this
        resolution, else each opponent)."""
        return PLAYERS[who](self)

    def player(self, who: str | None) -> int:
        """The one player a reference names.  When it names several (an opponent in a game of
        three or four), this ability's controller chooses one, and later parts of the same
        resolution mean that player (Mindsplitter: "choose an opponent. They ... they discard")."""
        found = self.players(who or "you")
        if not found:
            return self.you  # "its controller" with nothing chosen, an event without a player
        if len(found) == 1:
            return found[0]
        noun = "an opponent" if who == "opponent" else "a player"
        chosen = int(self.ask(self.you, f"choose {noun}", [(self.g.player(p).name, p) for p in found]))
        self.bindings["chosen"] = [chosen]
        return chosen

    def relation(self, relation: str, player: int) -> bool:
        """Whether a player stands to you as a relation says (friendly, enemy, opponent, ...)."""
        return RELATIONS[relation](self.g, self.you, player, self.event)

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
        what = selector.get("what", "card")
        prompt = f"choose a {what}" + (f" to {purpose}" if purpose else "")
        who = selector.get("chooser", "you")
        if who in ("each_player", "each_other_player"):
            # each of those players in turn (from the next, for 'each other'), one not chosen yet (King's Edict)
            picked: list[int] = []
            for chooser in self.players(who):
                pool = [oid for oid in candidates if oid not in picked and self.fits_group(selector, picked + [oid])]
                if pool:
                    picked.append(int(self.ask(chooser, prompt, [(self.describe(oid), oid) for oid in pool])))
            return picked
        chooser = self.player(who)
        count = 99 if selector.get("any_number") else int(selector.get("count", 1))
        optional = bool(selector.get("up_to") or selector.get("any_number"))
        chosen: list[int] = []
        pool = list(candidates)
        while pool and len(chosen) < count:
            options: list[tuple[str, Any]] = [(self.describe(oid), oid) for oid in pool
                                              if self.fits_group(selector, chosen + [oid])]
            if not options:
                break
            if optional or (chosen and len(chosen) >= count):
                options.append(("done", -1))
            answer = self.ask(chooser, prompt, options)
            if answer == -1:
                break
            chosen.append(int(answer))
            pool.remove(int(answer))
        return chosen

    def fits_group(self, selector: Node, group: list[int]) -> bool:
        """Criteria on the objects chosen together ("units with total Might 4 or less", "up to three
        units at the same location")."""
        if selector.get("same_location") and len({self.g.obj(oid).loc for oid in group}) > 1:
            return False
        if selector.get("same_controller") and len({self.g.obj(oid).controller for oid in group}) > 1:
            return False  # "any number of enemy units with the same controller"
        if selector.get("one_per_location") and len({self.g.obj(oid).loc for oid in group}) < len(group):
            return False  # "up to one enemy unit at each location"
        total = (selector.get("where") or {}).get("total_might")
        if total is None:
            return True
        return sum(layers.might(self.g, oid) for oid in group) <= self.amount(total["max"])

    def describe(self, oid: int) -> str:
        obj = self.g.state.objs.get(oid)
        if obj is None:
            return f"#{oid}"
        return f"{self.g.name(oid)} #{oid}"

    def candidates(self, selector: Node) -> list[int]:
        g = self.g
        what = selector.get("what", "unit")
        if what == "player":
            where = selector.get("where") or {}
            players = [p.index for p in g.state.players if not p.conceded]
            if "controller" in where:
                players = [p for p in players if self.relation(where["controller"], p)]
            if "same_controller_as" in where:  # "its controller": the player controlling that object
                owners = {g.obj(o).controller for o in self.resolve(where["same_controller_as"]) if o in g.state.objs}
                players = [p for p in players if p in owners]
            return players
        if what == "battlefield":
            out = [bf.card for bf in g.state.battlefields]
            return [oid for oid in out if self.matches_selection(selector, oid)]
        if what == "location":
            locs = [p.index for p in g.state.players] + [bf.loc for bf in g.state.battlefields]
            want = selector.get("where", {}).get("location", "any")
            return [loc for loc in locs if self.valid_location(loc, want)]
        if "among" in selector:
            pool = self.resolve(selector["among"])
            return [oid for oid in pool if oid in g.state.objs and self.is_kind(oid, what)
                    and self.matches(oid, selector.get("where"))]
        ids = self._looked_at(selector, what)
        # matches_selection for each (not a location here), with the selector read once
        objs, defs = g.state.objs, g.defs
        any_kind = what in ("card", "chain_item", "location", "player")
        where = selector.get("where")
        found: list[int] = []
        for oid in ids:
            obj = objs.get(oid)
            if obj is None or obj.zone == "gone":
                continue
            if not any_kind:
                ctype = defs[obj.code].type
                if not (ctype in ("unit", "gear") if what == "permanent" else ctype == what):
                    continue
            if self.matches(oid, where):
                found.append(oid)
        return found

    def _looked_at(self, selector: Node, what: str) -> list[int]:
        """The objects a selection looks among: its zone's, or by default the board's (the chain's for
        spells, the rune pools' for runes; a hidden card is a card at its battlefield: Pack of Wonders)."""
        zone = selector.get("zone")
        if zone is not None:
            return ZONES[zone](self, selector)
        if what in ("spell", "chain_item"):
            return _chain_cards(self, selector)
        if what == "rune":
            return _rune_pools(self)
        ids = self._board_at((selector.get("where") or {}).get("location"))
        return ids + _zone_facedown(self, selector) if what == "card" else ids

    def _board_at(self, location: Any) -> list[int]:
        """The objects on the board a ``location`` filter can match, in board order (a new list): the
        state's own lists of each location serve as an index instead of a scan of the whole board;
        the filter itself is still checked on each."""
        g = self.g
        s = g.state
        if location == "here":
            here = self.here()
            if here == NOWHERE:
                return []
            return list(g.bf_at(here).here if is_battlefield(here) else s.players[here].base)
        if location == "battlefield":
            return [oid for bf in s.battlefields for oid in bf.here]
        if location == "base":
            return [oid for p in s.players for oid in p.base]
        return g.board_objects()

    def offers(self, selector: Node, oid: int) -> bool:
        """Whether a selection can choose this object (355: a target is one of the legal choices): it is
        where the selection looks and meets it - ``oid in candidates(selector)``, without listing them all."""
        obj = self.g.state.objs.get(oid)
        if obj is None or not self.matches_selection(selector, oid):
            return False
        what = selector.get("what", "unit")
        if "zone" not in selector and "among" not in selector and what in ("unit", "gear", "permanent", "card"):
            return obj.zone == "board" or (what == "card" and obj.zone == "facedown")
        return oid in self.candidates(selector)

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
            return oid in self.ref(selector)
        obj = self.g.obj(oid)
        if selector.get("zone", "board") == "board" and obj.zone != "board":
            return False
        return self.matches_selection(selector, oid)

    def matches(self, oid: int, filt: Node | None) -> bool:
        """Whether an object meets every criterion of a filter (``FILTERS``)."""
        if not filt:
            return True
        obj = self.g.state.objs[oid]
        card = self.g.defs[obj.code]
        for key, want in filt.items():
            handler = _FILTER.get(key) or FILTERS[key]  # a plugin's filter key, or an error naming it
            if not handler(self, oid, obj, card, want):
                return False
        return True

    def valid_location(self, loc: Any, want: str = "any") -> bool:
        """A base or a battlefield of this game (198.1) that meets a location filter."""
        g = self.g
        if not isinstance(loc, int):
            return False
        if not ((is_battlefield(loc) and loc - 10 < len(g.state.battlefields)) or 0 <= loc < len(g.state.players)):
            return False
        return LOCATIONS[want](self, "board", loc)

    def location_of(self, spec: Any) -> int:
        """The location a selector denotes: a battlefield card's battlefield, or where an object is."""
        ids = self.resolve(spec)
        if not ids or ids[0] not in self.g.state.objs:
            return NOWHERE
        obj = self.g.obj(ids[0])
        if obj.zone in ("board", "bfcard"):
            return obj.loc
        if self.event is not None and self.event.get("obj") == ids[0]:
            return int(self.event.get("loc", NOWHERE))
        return NOWHERE

    def place(self, spec: Any, unit: int | None = None) -> int:
        """The location a destination (``to:``, ``at:``) names; a selection's object's location."""
        if isinstance(spec, dict):
            found = self.resolve(spec, "choose a destination")
            if not found:
                return NOWHERE
            if spec.get("what") == "location":
                return int(found[0])
            obj = self.g.obj(found[0])
            return obj.loc if obj.zone in ("board", "bfcard") else NOWHERE
        return PLACES[spec](self, unit)

    # ------------------------------------------------------------------ amounts
    def amount(self, value: Any, subject: int | None = None) -> int:
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int):
            return value
        if value is None:
            return 1
        result = AMOUNTS[value["type"]](self, value, subject)
        return result * int(value.get("times", 1)) + int(value.get("plus", 0))

    def stat(self, stat: str, who: str) -> int:
        """A number about a player (the highest, when the reference names several)."""
        handler = STATS[stat]
        return max((handler(self, p) for p in self.players(who) or [self.you]), default=0)

    # ------------------------------------------------------------------ conditions
    def check(self, cond: Node, subject: int | None = None) -> bool:
        return CONDITIONS[cond["type"]](self, cond, subject)

    def history_count(self, cond: Node) -> int:
        """How many times this turn something matching a history condition happened."""
        return _history_count(self, cond)

    def state_of(self, oid: int, state: str) -> bool:
        obj = self.g.state.objs.get(oid)
        if obj is None:
            return False
        return STATES[state](self, oid, obj)


def _history_count(ctx: EffectContext, cond: Node) -> int:
    g = ctx.g
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
        if who == "you" and event == "points":
            if not g.friendly(player, ctx.you):
                continue
        elif not ctx.relation(who, player):
            continue
        if exclude and entry[2] == ctx.source:
            continue
        if "by" in cond and entry[3] not in cond["by"]:
            continue  # chosen by a spell / a unit's ability / another ability
        if "during" in cond and (len(entry) < 6 or entry[5] != cond["during"]):
            continue  # "during your Beginning Phase this turn": the phase it happened in
        if "min_value" in cond and not (isinstance(entry[4], int) and entry[4] >= int(cond["min_value"])):
            continue  # the number the entry carries: energy spent to play a spell ("{4} or more")
        if subject is not None and entry[2] != NOWHERE and entry[2] in g.state.objs:
            if not _history_subject(ctx, entry, subject):
                continue
        count += 1
    return count


def _history_subject(ctx: EffectContext, entry: list[Any], subject: Node) -> bool:
    """Whether the object of a history entry meets a filter: on the board, as it is now; after it
    left the board, its controller then was the player who did it, and the rest is judged by its card
    (a spell played, a gear that died: "if you've played an Equipment this turn")."""
    obj = ctx.g.state.objs[entry[2]]
    if obj.zone == "board":
        return ctx.matches(entry[2], subject)
    rest = {key: want for key, want in subject.items() if key != "controller"}
    return _matches_dead(ctx, entry, subject) and ctx.matches(entry[2], rest)


def _matches_dead(ctx: EffectContext, entry: list[Any], subject: Node) -> bool:
    """History entries about objects that left the board are judged by their card only."""
    if "controller" in subject and subject["controller"] in ("friendly", "enemy"):
        return ctx.relation(subject["controller"], entry[1])
    return True


# ---------------------------------------------------------------------- references (REFS)
def _bound(name: str) -> RefFn:
    def ref(ctx: EffectContext) -> list[int]:
        return list(ctx.bindings.get(name, []))
    return ref


for _name in ("it", "chosen", "destination"):  # what an earlier step chose, affected or moved to
    REFS.register(_name)(_bound(_name))


@REFS.register("self")
def _ref_self(ctx: EffectContext) -> list[int]:
    # 808: a Deathknell's "me" is the card that died, now in its owner's trash; once it has left the
    # trash (an earlier Deathknell recycled it) it is another object, and "recycle me" finds nothing
    # (a replacement's "if I would die ... instead" has a unit that is still on the board: it is itself)
    event = ctx.event
    if event is not None and event.get("t") == "die" and event.get("obj") == ctx.source \
            and ctx.g.state.objs[ctx.source].zone not in ("trash", "board"):
        return []
    return [ctx.source]


@REFS.register("them")
def _ref_them(ctx: EffectContext) -> list[int]:
    return list(ctx.bindings.get("them", ctx.bindings.get("it", [])))


@REFS.register("target")
def _ref_target(ctx: EffectContext) -> list[int]:
    return ctx._live_targets(0)


@REFS.register("targets")
def _ref_targets(ctx: EffectContext) -> list[int]:
    return [oid for slot in range(len(ctx.targets)) for oid in ctx._live_targets(slot)]


@REFS.register("event_subject")
def _ref_event_subject(ctx: EffectContext) -> list[int]:
    if ctx.subject is not None:
        return [ctx.subject]
    return [int(ctx.event["obj"])] if ctx.event and "obj" in ctx.event else []


@REFS.register("event_source")
def _ref_event_source(ctx: EffectContext) -> list[int]:
    event = ctx.event
    return [int(event["source"])] if event and event.get("source", NOWHERE) != NOWHERE else []


@REFS.register("event_player")
def _ref_event_player(ctx: EffectContext) -> list[int]:
    return [int(ctx.event["player"])] if ctx.event and "player" in ctx.event else []


@REFS.register("host")
def _ref_host(ctx: EffectContext) -> list[int]:
    obj = ctx.g.state.objs.get(ctx.source)
    return [obj.attached_to] if obj is not None and obj.attached_to != NOWHERE else []


@REFS.register("you", "controller")
def _ref_you(ctx: EffectContext) -> list[int]:
    return [ctx.you]


@REFS.register("owner")
def _ref_owner(ctx: EffectContext) -> list[int]:
    return [ctx.g.obj(ctx.source).owner]


@REFS.register("this_card")
def _ref_this_card(ctx: EffectContext) -> list[int]:
    """The card whose text this is: in an attached card's effect text, the equipment (Guardian Angel)."""
    return [ctx.text_of]


@REFS.register("affected")
def _ref_affected(ctx: EffectContext) -> list[int]:
    """In a created trigger: the objects the created effect affects ("When they hold, return it to their
    hand" - the banished card, wherever it is)."""
    found = ctx.event.get("affected", []) if ctx.event is not None else []
    return [int(o) for o in found if o in ctx.g.state.objs]


@REFS.register("paid")
def _ref_paid(ctx: EffectContext) -> list[int]:
    """What was killed, exhausted, recycled or returned to pay this card's or ability's cost ("the
    killed unit", "the unit you exhausted to pay for this ability")."""
    if ctx.item is None:
        return []
    return [v for k, v in sorted(ctx.item.variables.items()) if k.startswith("_paid")]


@REFS.register("source_location")
def _ref_source_location(ctx: EffectContext) -> list[int]:
    return [ctx.here()]


# ---------------------------------------------------------------------- who (PLAYERS, RELATIONS)
def _live(ctx: EffectContext) -> list[int]:
    return [p.index for p in ctx.g.state.players if not p.conceded]


@PLAYERS.register("you")
def _who_you(ctx: EffectContext) -> list[int]:
    return [ctx.you]


@PLAYERS.register("controller")
def _who_controller(ctx: EffectContext) -> list[int]:
    return [ctx.controller]  # the ability's controller, even inside for_each_player


@PLAYERS.register("owner")
def _who_owner(ctx: EffectContext) -> list[int]:
    return [ctx.g.obj(ctx.source).owner]


@PLAYERS.register("its_controller")
def _who_its_controller(ctx: EffectContext) -> list[int]:
    it = ctx.bindings.get("it") or ctx.ref("target")
    return [ctx.g.obj(it[0]).controller] if it else []


@PLAYERS.register("event_player")
def _who_event_player(ctx: EffectContext) -> list[int]:
    return ctx.ref("event_player")


@PLAYERS.register("opponent", "chosen_opponent", asks=True)
def _who_opponent(ctx: EffectContext) -> list[int]:
    """An opponent: the one chosen earlier in this resolution, else each of them (a choice of
    one is asked by ``EffectContext.player``)."""
    opponents = ctx.g.opponents(ctx.you)
    chosen = [p for p in ctx.bindings.get("chosen", []) if p in opponents]
    return chosen[:1] or opponents


@PLAYERS.register("chosen")
def _who_chosen(ctx: EffectContext) -> list[int]:
    """The player chosen earlier in this resolution, whoever it is ("choose a player. They discard 1")."""
    return list(ctx.bindings.get("chosen", []))[:1] or [ctx.you]


@PLAYERS.register("opponents")
def _who_opponents(ctx: EffectContext) -> list[int]:
    return ctx.g.opponents(ctx.you)


@PLAYERS.register("each", "any", "any_player", "each_player", "starting_next")
def _who_each(ctx: EffectContext) -> list[int]:
    return _live(ctx)


@PLAYERS.register("each_other", "each_other_player")
def _who_each_other(ctx: EffectContext) -> list[int]:
    """Every other player, teammates included, starting with the next (King's Edict)."""
    g = ctx.g
    return [p for p in g.in_turn_order(g.next_player(ctx.you)) if p != ctx.you]


@RELATIONS.register("you", "yours")
def _rel_you(g: "Game", you: int, player: int, event: Event | None) -> bool:
    return player == you


@RELATIONS.register("friendly")
def _rel_friendly(g: "Game", you: int, player: int, event: Event | None) -> bool:
    return g.friendly(player, you)  # 491: a teammate's objects are friendly


@RELATIONS.register("enemy", "opponent", "opponents")
def _rel_enemy(g: "Game", you: int, player: int, event: Event | None) -> bool:
    return not g.friendly(player, you)  # 491.8.c: a teammate is no opponent


@RELATIONS.register("not_you")
def _rel_not_you(g: "Game", you: int, player: int, event: Event | None) -> bool:
    return player != you  # "a unit you don't control": a teammate's too


@RELATIONS.register("any", "each")
def _rel_any(g: "Game", you: int, player: int, event: Event | None) -> bool:
    return True


@RELATIONS.register("event_player")
def _rel_event_player(g: "Game", you: int, player: int, event: Event | None) -> bool:
    return event is not None and "player" in event and player == int(event["player"])


@RELATIONS.register("friendly_to_event_player")
def _rel_friendly_to_event_player(g: "Game", you: int, player: int, event: Event | None) -> bool:
    # 491: friendly to the player who caused the event - theirs or a teammate's (The Dreaming Tree)
    return event is not None and "player" in event and g.friendly(player, int(event["player"]))


# ---------------------------------------------------------------------- zones (ZONES)
def _players_zone(attr: str) -> ZoneFn:
    def ids(ctx: EffectContext, selector: Node) -> list[int]:
        players = ctx.players(selector.get("whose", "you"))
        return [oid for p in players for oid in getattr(ctx.g.state.players[p], attr)]
    return ids


for _zone in (Zone.HAND, Zone.TRASH, Zone.MAIN_DECK, Zone.RUNE_DECK, Zone.CHAMPION, Zone.BANISHED):
    ZONES.register(_zone.script_name)(_players_zone(_zone.value))  # the Player field is named after the zone


@ZONES.register("board")
def _zone_board(ctx: EffectContext, selector: Node) -> list[int]:
    """The board; with ``whose``, what those players control ("they move a unit they control")."""
    if "whose" not in selector:
        return ctx.g.board_objects()
    players = ctx.players(selector["whose"])
    return [oid for oid in ctx.g.board_objects() if ctx.g.obj(oid).controller in players]


@ZONES.register("chain")
def _chain_cards(ctx: EffectContext, selector: Node) -> list[int]:
    """The spells on the chain; for what: chain_item, the sources of its abilities too ("counter a spell
    or ability": an ability is chosen by its source, the newest of its items counts)."""
    if selector.get("what") == "chain_item":
        return list(dict.fromkeys(item.obj for item in ctx.g.state.chain))
    return [item.obj for item in ctx.g.state.chain if item.kind == "card"]


@ZONES.register("anywhere")
def _zone_anywhere(ctx: EffectContext, selector: Node) -> list[int]:
    """Every object in the game, wherever it is ("Your Equipment everywhere have ...")."""
    return [oid for oid, obj in ctx.g.state.objs.items() if obj.zone not in ("gone", "removed")]


@ZONES.register("facedown")
def _zone_facedown(ctx: EffectContext, selector: Node) -> list[int]:
    return [oid for bf in ctx.g.state.battlefields for oid in bf.facedown]


def _rune_pools(ctx: EffectContext) -> list[int]:
    return [oid for p in ctx.g.state.players for oid in p.runes]


@ZONES.register("in_play")
def _zone_in_play(ctx: EffectContext, selector: Node) -> list[int]:
    # every card on the table: units and gear, runes, legends ("ready something else", Miss Fortune)
    g = ctx.g
    return g.board_objects() + _rune_pools(ctx) + [p.legend for p in g.state.players if p.legend != NOWHERE]


# ---------------------------------------------------------------------- filters (FILTERS)
@FILTERS.register("controller")
def _f_controller(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    controller = obj.controller
    if obj.zone == "bfcard":
        # a battlefield is controlled by whoever controls it now; an uncontrolled one by nobody
        controller = ctx.g.bf_at(obj.loc).controller
        if controller == NOWHERE:
            return bool(want == "any")
    return RELATIONS[want](ctx.g, ctx.you, controller, ctx.event)


@FILTERS.register("owner")
def _f_owner(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return RELATIONS[want](ctx.g, ctx.you, obj.owner, ctx.event)


@FILTERS.register("any_of")
def _f_any_of(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return any(ctx.matches(oid, alternative) for alternative in want)


@FILTERS.register("at")
def _f_at(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    # a battlefield card is 'at' its own battlefield (198.1), so "that unit's battlefield"
    # (Zenith Blade's destination) is found like a unit there
    where = ctx.location_of(want)
    return where != NOWHERE and obj.zone in ("board", "bfcard") and obj.loc == where


@FILTERS.register("alone")
def _f_alone(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    role = "attacking_alone" if obj.designation == "attacker" else "defending_alone"
    return bool(ctx.state_of(oid, role) == want)


@FILTERS.register("location")
def _f_location(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return LOCATIONS[want](ctx, obj.zone, obj.loc)


@FILTERS.register("other")
def _f_other(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return not want or oid != ctx.source


@FILTERS.register("distinct_from")
def _f_distinct_from(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return not any(oid in ctx.resolve(ref) for ref in want)


def _flag(read: Callable[[EffectContext, int, Obj], bool]) -> FilterFn:
    def check(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
        return bool(read(ctx, oid, obj) == want)
    return check


@FILTERS.register("champion")
def _f_champion(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return bool((card.supertype == "champion") == want)


@FILTERS.register("chosen_champion")
def _f_chosen_champion(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    # 103.3: the champion unit its owner chose for their deck (it started in the Champion Zone)
    return bool((oid == ctx.g.state.players[obj.owner].chosen_champion) == want)


@FILTERS.register("tag")
def _f_tag(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    # a tag an effect gives it on the board ("I am a Mech"): the declarative hook 'tag'
    return want in card.tags or want == card.champion_tag or (
        obj.zone == "board" and want in layers.hook_values(ctx.g, oid, "tag"))


@FILTERS.register("not_tag")
def _f_not_tag(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return want not in card.tags


@FILTERS.register("name")
def _f_name(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return bool(card.name == want)


@FILTERS.register("type")
def _f_type(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return ctx.is_kind(oid, want)


@FILTERS.register("keyword")
def _f_keyword(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    kw = want.lower().replace("-", "_")
    if obj.zone == "board" or (obj.zone in ("trash", "chain", "hand") and not layers.printed_only(ctx.g, oid)):
        return layers.has_keyword(ctx.g, oid, kw)  # off the board too, a keyword an effect gave it
    return card.has_keyword(kw)


@FILTERS.register("paid")
def _f_paid(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """The card being played or resolving paid that optional additional cost ("If you paid the
    additional cost, choose any enemy unit instead": ``any_of: [{might: ...}, {paid: NAME}]``)."""
    return ctx.item is not None and want in ctx.item.paid


@FILTERS.register("tag_named")
def _f_tag_named(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """Has the tag that object named as it was played (its ``named_tag`` hook: "a unit with the named tag")."""
    named = [str(v) for src in ctx.resolve(want) if src in ctx.g.state.objs
             for v in layers.hook_values(ctx.g, src, "named_tag")]
    return any(_f_tag(ctx, oid, obj, card, tag) for tag in named)


@FILTERS.register("not_keyword")
def _f_not_keyword(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """Without that keyword ("a friendly unit without [Temporary]")."""
    return not _f_keyword(ctx, oid, obj, card, want)


@FILTERS.register("occupied_by")
def _f_occupied_by(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A battlefield (or a location) where units of players standing so to you are ("a battlefield
    where you have units")."""
    g = ctx.g
    loc = obj.loc if obj.zone in ("board", "bfcard", "facedown") else NOWHERE
    return loc != NOWHERE and any(ctx.relation(want, g.obj(u).controller) for u in g.units_at(loc))


@FILTERS.register("not_at")
def _f_not_at(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """On the board somewhere else than that location, or the location of that object ("at a
    different location")."""
    where = ctx.location_of(want)
    return obj.zone in ("board", "bfcard") and obj.loc != where


@FILTERS.register("units_total_might")
def _f_units_total_might(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A location whose units (those of players the ``controller`` relation accepts) have a total
    Might in range ("if my Might is greater than the total Might of enemy units there")."""
    g = ctx.g
    loc = obj.loc if obj.zone in ("board", "bfcard") else NOWHERE
    rel = want.get("controller", "any")
    total = sum(layers.might(g, u) for u in g.units_at(loc) if ctx.relation(rel, g.obj(u).controller))
    return _in_range(ctx, total, want)


def _in_range(ctx: EffectContext, value: int, want: Node) -> bool:
    if "min" in want and value < ctx.amount(want["min"]):
        return False
    return not ("max" in want and value > ctx.amount(want["max"]))


@FILTERS.register("might")
def _f_might(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return _in_range(ctx, layers.might(ctx.g, oid) if obj.zone == "board" else card.might, want)


@FILTERS.register("energy_cost")
def _f_energy_cost(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return _in_range(ctx, card.energy, want)


@FILTERS.register("power_cost")
def _f_power_cost(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return _in_range(ctx, len(card.power), want)


@FILTERS.register("total_might")
def _f_total_might(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    # one object alone must fit; what is chosen together is checked by EffectContext.fits_group
    return _in_range(ctx, layers.might(ctx.g, oid) if obj.zone == "board" else card.might, {"max": want["max"]})


@FILTERS.register("same_controller_as")
def _f_same_controller_as(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """Controlled by the controller of the object a selector names ("an Equipment with the same controller")."""
    others = [o for o in ctx.resolve(want) if o in ctx.g.state.objs]
    return bool(others) and obj.controller == ctx.g.obj(others[0]).controller


@FILTERS.register("attached_to")
def _f_attached_to(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """Attached to an object a selector names ("one of its Equipment", 150.2)."""
    return obj.zone == "board" and obj.attached_to != NOWHERE and obj.attached_to in ctx.resolve(want)


@FILTERS.register("attached")
def _f_attached(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A card attached to a unit (an attached Equipment) or not (a detached one)."""
    return bool((obj.zone == "board" and obj.attached_to != NOWHERE) == want)


@FILTERS.register("equipped")
def _f_equipped(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A unit with at least one card attached to it ("an equipped unit")."""
    return bool(bool(obj.zone == "board" and layers.attached_to(ctx.g, oid)) == want)


@FILTERS.register("chooses")
def _f_chooses(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A spell or ability on the chain that chose an object matching a filter (355: its targets)."""
    g = ctx.g
    return any(item.obj == oid and any(t in g.state.objs and ctx.matches(t, want)
                                       for slot in item.targets for t in slot if isinstance(t, int))
               for item in g.state.chain)


@FILTERS.register("chooses_only", fields=("of", "no_other"))
def _f_chooses_only(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A spell or ability on the chain that chose every object a selector names and no other object
    matching a filter ("that chooses it and no other friendly unit"; without ``no_other``, nothing
    else at all). 355: what an item chooses are its targets."""
    g = ctx.g
    named = {o for o in ctx.resolve(want["of"]) if o in g.state.objs}
    if not named:
        return False  # "it" is gone or no longer a legal choice: nothing chooses it
    others = want.get("no_other")
    for item in g.state.chain:
        if item.obj != oid:
            continue
        chosen = {t for slot in item.targets for t in slot if isinstance(t, int) and t in g.state.objs}
        if named <= chosen and not any(others is None or ctx.matches(t, others) for t in chosen - named):
            return True
    return False


@FILTERS.register("banished_with")
def _f_banished_with(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A card banished "with" an object (The Zero Drive): remembered by the banishing effect."""
    holders = ctx.resolve(want)
    return obj.zone == "banished" and any(h in ctx.g.state.banished_with.get(str(oid), []) for h in holders)


# ---------------------------------------------------------------------- states (STATES)
@STATES.register("attacker")
def _s_attacker(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "board" and obj.designation == "attacker"


@STATES.register("defender")
def _s_defender(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "board" and obj.designation == "defender"


def _alone(role: str) -> StateFn:
    def state(ctx: EffectContext, oid: int, obj: Obj) -> bool:
        if obj.zone != "board" or obj.designation != role:
            return False
        g = ctx.g
        mates = [u for u in g.units_at(obj.loc) if g.obj(u).designation == role
                 and g.obj(u).controller == obj.controller]
        return len(mates) == 1
    return state


STATES.register("attacking_alone")(_alone("attacker"))
STATES.register("defending_alone")(_alone("defender"))


@STATES.register("at_battlefield")
def _s_at_battlefield(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "board" and is_battlefield(obj.loc)


@STATES.register("at_base")
def _s_at_base(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "board" and not is_battlefield(obj.loc)


@STATES.register("buffed")
def _s_buffed(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.buffs > 0


@STATES.register("stunned")
def _s_stunned(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return bool(obj.stunned)


@STATES.register("mighty")
def _s_mighty(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return layers.might(ctx.g, oid) >= 5


@STATES.register("damaged")
def _s_damaged(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.damage > 0


@STATES.register("exhausted")
def _s_exhausted(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return bool(obj.exhausted)


@STATES.register("ready")
def _s_ready(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return not obj.exhausted


@STATES.register("token")
def _s_token(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return bool(obj.token)


@STATES.register("in_combat")
def _s_in_combat(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    sd = ctx.g.state.showdown
    return sd is not None and sd.combat and obj.zone == "board" and obj.loc == sd.bf


@STATES.register("in_showdown")
def _s_in_showdown(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """At the battlefield of the showdown under way (a combat's showdown too)."""
    sd = ctx.g.state.showdown
    return sd is not None and obj.zone in ("board", "bfcard") and obj.loc == sd.bf


@STATES.register("died_alone")
def _s_died_alone(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """It died with no other friendly unit at its location (Deathknell "if I didn't die alone");
    judged as it died (``verbs.kill`` remembers it), units dying with it counting as there."""
    return any(h[0] == "died_alone" and h[2] == oid for h in ctx.g.state.history)


@STATES.register("conquered_this_turn")
def _s_conquered_this_turn(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """It conquered this turn: it was one of its controller's units at a battlefield they conquered."""
    return any(h[0] == "conquered_with" and h[2] == oid for h in ctx.g.state.history)


@STATES.register("played_hidden")
def _s_played_hidden(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """A card on the chain that was played from facedown (Hidden, 811) rather than from a hand."""
    return any(item.kind == "card" and item.obj == oid and item.from_hidden for item in ctx.g.state.chain)


@STATES.register("facedown")
def _s_facedown(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "facedown"


@STATES.register("on_board", "alive")
def _s_on_board(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "board"


@STATES.register("in_hand")
def _s_in_hand(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """In its owner's hand ("I cost 2 less to play from anywhere other than your hand")."""
    return obj.zone == "hand"


@STATES.register("one_on_one")
def _s_one_on_one(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """Attacking or defending alone against a single enemy unit in that combat ("one on one")."""
    if obj.zone != "board" or obj.designation not in ("attacker", "defender"):
        return False
    g = ctx.g
    here = [g.obj(u) for u in g.units_at(obj.loc)]
    mine = [u for u in here if u.designation == obj.designation and u.controller == obj.controller]
    theirs = [u for u in here if u.designation not in ("", obj.designation) and u.controller != obj.controller]
    return len(mine) == 1 and len(theirs) == 1


@STATES.register("was_mighty")
def _s_was_mighty(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """Mighty as it was last on the board: a unit that died is judged by its Might when it died
    (Deathknell "if I was Mighty"); on the board, by its Might now."""
    if obj.zone == "board":
        return layers.might(ctx.g, oid) >= 5
    return any(h[0] == "died_mighty" and h[2] == oid for h in ctx.g.state.history)


@STATES.register("controlled")
def _s_controlled(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """Controlled by you: a battlefield you control ("while you control this battlefield"), or your object."""
    if obj.zone == "bfcard":
        return ctx.g.bf_at(obj.loc).controller == ctx.you
    return obj.controller == ctx.you


# the boolean filter keys that ask the same as a state ({stunned: true} = {type: is, state: stunned})
for _key in ("stunned", "buffed", "damaged", "exhausted", "ready", "mighty", "token", "facedown", "in_combat",
             "in_hand"):
    FILTERS.register(_key)(_flag(STATES.entries[_key]))
FILTERS.register("attacker")(_flag(lambda ctx, oid, obj: obj.designation == "attacker"))
FILTERS.register("defender")(_flag(lambda ctx, oid, obj: obj.designation == "defender"))


# ---------------------------------------------------------------------- locations (LOCATIONS, PLACES)
def _located(zone: str) -> bool:
    """Objects in these zones are at a location: on the board, or hidden facedown at a battlefield (811)."""
    return zone in ("board", "facedown")


@LOCATIONS.register("any")
def _l_any(ctx: EffectContext, zone: str, loc: int) -> bool:
    return True


@LOCATIONS.register("battlefield")
def _l_battlefield(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and is_battlefield(loc)


@LOCATIONS.register("base")
def _l_base(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and not is_battlefield(loc)


@LOCATIONS.register("here")
def _l_here(ctx: EffectContext, zone: str, loc: int) -> bool:
    here = ctx.here()
    return _located(zone) and loc == here and here != NOWHERE


@LOCATIONS.register("not_here")
def _l_not_here(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and loc != ctx.here()


@LOCATIONS.register("there")
def _l_there(ctx: EffectContext, zone: str, loc: int) -> bool:
    there = ctx.bindings.get("there") or []
    return _located(zone) and bool(there) and loc == there[0]


@LOCATIONS.register("event_location")
def _l_event_location(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and ctx.event is not None and loc == ctx.event.get("loc", NOWHERE)


@LOCATIONS.register("same_as_event_subject")
def _l_same_as_event_subject(ctx: EffectContext, zone: str, loc: int) -> bool:
    subj = ctx.ref("event_subject")
    return _located(zone) and bool(subj) and ctx.g.obj(subj[0]).loc == loc


@LOCATIONS.register("open_battlefield")
def _l_open_battlefield(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and is_battlefield(loc) and ctx.g.bf_at(loc).controller == NOWHERE


@LOCATIONS.register("controlled_battlefield")
def _l_controlled_battlefield(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and is_battlefield(loc) and ctx.g.bf_at(loc).controller == ctx.you


@LOCATIONS.register("enemy_battlefield")
def _l_enemy_battlefield(ctx: EffectContext, zone: str, loc: int) -> bool:
    # 740.1.a, 491.8.e: a battlefield a teammate controls is friendly, not an enemy's
    if not _located(zone) or not is_battlefield(loc):
        return False
    controller = ctx.g.bf_at(loc).controller
    return controller != NOWHERE and not ctx.g.friendly(controller, ctx.you)


@PLACES.register("base", "its_base")
def _p_base(ctx: EffectContext, unit: int | None) -> int:
    return ctx.g.obj(unit).controller if unit is not None else ctx.you


@PLACES.register("your_base")
def _p_your_base(ctx: EffectContext, unit: int | None) -> int:
    return ctx.you


@PLACES.register("here", "source_location")
def _p_here(ctx: EffectContext, unit: int | None) -> int:
    return ctx.here()


@PLACES.register("there")
def _p_there(ctx: EffectContext, unit: int | None) -> int:
    there = ctx.bindings.get("there") or []
    return there[0] if there else NOWHERE


@PLACES.register("event_subject_location")
def _p_event_subject_location(ctx: EffectContext, unit: int | None) -> int:
    """Where the event's object is now ("move me to that battlefield": the stunned unit's)."""
    subj = ctx.ref("event_subject")
    return ctx.g.obj(subj[0]).loc if subj and ctx.g.obj(subj[0]).zone == "board" else NOWHERE


@PLACES.register("origin")
def _p_origin(ctx: EffectContext, unit: int | None) -> int:
    """In a move trigger: where the moving unit came from ("When I move from a location, ... there")."""
    if ctx.event is not None and ctx.event.get("t") == "move" and "from" in ctx.event:
        return int(ctx.event["from"])
    return NOWHERE


@PLACES.register("event_location")
def _p_event_location(ctx: EffectContext, unit: int | None) -> int:
    return int(ctx.event.get("loc", NOWHERE)) if ctx.event else NOWHERE


@PLACES.register("destination")
def _p_destination(ctx: EffectContext, unit: int | None) -> int:
    dest = ctx.bindings.get("destination") or []
    if not dest and ctx.event is not None and ctx.event.get("t") == "move" and "to" in ctx.event:
        # in a move trigger: where the moving unit went ("moved with it", 138)
        return int(ctx.event["to"])
    return dest[0] if dest else NOWHERE


def _choose_place(with_base: bool) -> PlaceFn:
    def place(ctx: EffectContext, unit: int | None) -> int:
        g = ctx.g
        options = [(g.name(bf.card), bf.loc) for bf in g.state.battlefields]
        if with_base:
            options = [(f"{g.player(ctx.you).name}'s base", ctx.you)] + options
        if unit is not None:
            options = [(label, loc) for label, loc in options if loc != g.obj(unit).loc]
        if not options:
            return NOWHERE
        loc = int(ctx.ask(ctx.you, "choose a destination", options))
        ctx.bindings["destination"] = [loc]
        return loc
    return place


PLACES.register("choose_battlefield", asks=True)(_choose_place(False))
PLACES.register("choose_location", asks=True)(_choose_place(True))


# ---------------------------------------------------------------------- stats (STATS)
def _player_attr(read: Callable[[Any], int]) -> StatFn:
    def stat(ctx: EffectContext, player: int) -> int:
        return read(ctx.g.state.players[player])
    return stat


STATS.register("points")(_player_attr(lambda p: int(p.points)))
STATS.register("hand_size")(_player_attr(lambda p: len(p.hand)))
STATS.register("trash_size")(_player_attr(lambda p: len(p.trash)))
STATS.register("main_deck_size")(_player_attr(lambda p: len(p.main_deck)))
STATS.register("runes")(_player_attr(lambda p: len(p.runes)))
STATS.register("xp")(_player_attr(lambda p: int(p.xp)))


@STATS.register("victory_score")
def _st_victory_score(ctx: EffectContext, player: int) -> int:
    return int(ctx.g.state.victory_score)


@STATS.register("highest_might")
def _st_highest_might(ctx: EffectContext, player: int) -> int:
    g = ctx.g
    return max((layers.might(g, u) for u in g.board_objects()
                if g.obj(u).controller == player and g.card(u).type == "unit"), default=0)


@STATS.register("moves_this_turn")
def _st_moves_this_turn(ctx: EffectContext, player: int) -> int:
    return int(ctx.g.obj(ctx.source).moves_this_turn)  # this object's moves


@STATS.register("cards_played_this_turn")
def _st_cards_played(ctx: EffectContext, player: int) -> int:
    return sum(1 for h in ctx.g.state.history if h[0] == "played" and h[1] == player)


@STATS.register("hold_points_this_turn")
def _st_hold_points(ctx: EffectContext, player: int) -> int:
    """Points the player scored from holding this turn (472)."""
    return sum(1 for h in ctx.g.state.history if h[0] == "points" and h[1] == player and h[3] == "hold")


@STATS.register("power_spent_this_turn")
def _st_power_spent(ctx: EffectContext, player: int) -> int:
    """Power the player spent this turn, of any domain ("if you've spent at least [A][A] this turn")."""
    return sum(int(h[4]) for h in ctx.g.state.history if h[0] == "spent_power" and h[1] == player)


@STATS.register("opponent_points_max")
def _st_opponent_points_max(ctx: EffectContext, player: int) -> int:
    g = ctx.g
    return max((g.state.players[o].points for o in g.opponents(ctx.you)), default=0)


# ---------------------------------------------------------------------- amounts (AMOUNTS)
@AMOUNTS.register("count", fields=("of", "times", "plus"))
def _a_count(ctx: EffectContext, value: Node, subject: int | None) -> int:
    saved, saved_subject = dict(ctx.bindings), ctx.subject
    if subject is not None:
        ctx.subject = subject  # a static's amount for the object it affects: event_subject is that object
    result = len(ctx.resolve(value["of"]))
    ctx.bindings, ctx.subject = saved, saved_subject
    return result


@AMOUNTS.register("keyword_value", fields=("keyword", "of", "times", "plus"))
def _a_keyword_value(ctx: EffectContext, value: Node, subject: int | None) -> int:
    """The value of a numeric keyword an object has ("damage equal to my [Assault]"), 0 without it."""
    ids = [subject] if value["of"] == "event_subject" and subject is not None else ctx.resolve(value["of"])
    if not ids or ids[0] not in ctx.g.state.objs:
        return 0
    found = layers.chars(ctx.g, ids[0]).keywords.get(str(value["keyword"]).lower().replace("-", "_"))
    return int(found) if isinstance(found, int) else 0


@AMOUNTS.register("might", fields=("of", "times", "plus"))
def _a_might(ctx: EffectContext, value: Node, subject: int | None) -> int:
    ids = [subject] if value["of"] == "event_subject" and subject is not None else ctx.resolve(value["of"])
    if isinstance(value["of"], dict) and value["of"].get("pick") == "all":
        return sum(layers.might(ctx.g, oid) for oid in ids)  # "your other units have total Might 5+"
    if ids and ctx.g.obj(ids[0]).zone != "board":
        # a unit that died: its last known Might ("then, if it had 3 Might or less")
        last = [h[4] for h in ctx.g.state.history if h[0] == "died_with_might" and h[2] == ids[0]]
        if last:
            return int(last[-1])
    return layers.might(ctx.g, ids[0]) if ids else 0


@AMOUNTS.register("energy_cost", fields=("of", "times", "plus"))
def _a_energy_cost(ctx: EffectContext, value: Node, subject: int | None) -> int:
    ids = ctx.resolve(value["of"])
    return ctx.g.card(ids[0]).energy if ids else 0


@AMOUNTS.register("power_cost", fields=("of", "times", "plus"))
def _a_power_cost(ctx: EffectContext, value: Node, subject: int | None) -> int:
    """How many power symbols the object's card costs."""
    ids = ctx.resolve(value["of"])
    return len(ctx.g.card(ids[0]).power) if ids else 0


@AMOUNTS.register("stat", fields=("stat", "player", "times", "plus"))
def _a_stat(ctx: EffectContext, value: Node, subject: int | None) -> int:
    return ctx.stat(value["stat"], value.get("player", "you"))


@AMOUNTS.register("variable", fields=("name", "times", "plus"))
def _a_variable(ctx: EffectContext, value: Node, subject: int | None) -> int:
    name = value["name"]
    if name in ctx.variables:
        return ctx.variables[name]
    recorded = [h[4] for h in ctx.g.state.history if h[0] == "var:" + name and h[1] == ctx.you]
    return int(recorded[-1]) if recorded else 0


@AMOUNTS.register("history", fields=("event", "player", "only_self", "times", "plus"))
def _a_history(ctx: EffectContext, value: Node, subject: int | None) -> int:
    """How many times something happened this turn ("for each time this spell has dealt damage this
    turn": event dealt_damage, only_self)."""
    entries = [h for h in ctx.g.state.history if h[0] == value["event"]
               and ctx.relation(value.get("player", "any"), h[1])]
    if value.get("only_self"):
        entries = [h for h in entries if h[2] == ctx.source]
    return len(entries)


@AMOUNTS.register("tags_among", fields=("of", "tags", "times", "plus"))
def _a_tags_among(ctx: EffectContext, value: Node, subject: int | None) -> int:
    """How many of the listed tags the selected objects have among them ("for each of the following
    tags among your units - Bird, Cat, Dog and Poro")."""
    ids = [o for o in ctx.resolve(value["of"]) if o in ctx.g.state.objs]
    return sum(1 for tag in value["tags"]
               if any(_f_tag(ctx, o, ctx.g.obj(o), ctx.g.card(o), tag) for o in ids))


# ---------------------------------------------------------------------- conditions (CONDITIONS)
@CONDITIONS.register("all", fields=("of",))
def _c_all(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return all(ctx.check(c, subject) for c in cond["of"])


@CONDITIONS.register("any", fields=("of",))
def _c_any(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return any(ctx.check(c, subject) for c in cond["of"])


@CONDITIONS.register("not", fields=("of",))
def _c_not(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return not ctx.check(cond["of"], subject)


@CONDITIONS.register("exists", fields=("what", "at_least", "at_most"))
def _c_exists(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    saved = dict(ctx.bindings)
    count = len(ctx.resolve(cond["what"]))
    ctx.bindings = saved
    if count < int(cond.get("at_least", 1)):
        return False
    return "at_most" not in cond or count <= int(cond["at_most"])


@CONDITIONS.register("is", fields=("subject", "state"))
def _c_is(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    ids = [subject] if cond["subject"] == "event_subject" and subject is not None else ctx.resolve(cond["subject"])
    return bool(ids) and all(ctx.state_of(oid, cond["state"]) for oid in ids)


_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "ge": lambda a, b: a >= b, "gt": lambda a, b: a > b, "le": lambda a, b: a <= b,
    "lt": lambda a, b: a < b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b}


@CONDITIONS.register("compare", fields=("left", "op", "right"))
def _c_compare(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return _COMPARE[cond["op"]](ctx.amount(cond["left"], subject), ctx.amount(cond["right"], subject))


@CONDITIONS.register("history", fields=("event", "player", "at_least", "exclude_self", "subject", "by", "during",
                                        "min_value"))
def _c_history(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return _history_count(ctx, cond) >= int(cond.get("at_least", 1))


@CONDITIONS.register("keyword", fields=("keyword", "value"))
def _c_keyword(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    kw = ctx.g.catalog.keywords.get(cond["keyword"].lower())
    if kw is None or kw.condition is None:
        raise EngineError(f"keyword {cond['keyword']!r} defines no condition")
    return ctx.check(substitute(kw.condition, cond.get("value")), subject)


@CONDITIONS.register("did", fields=("what",))
def _c_did(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return bool(ctx.last.get(cond["what"], False))


@CONDITIONS.register("paid", fields=("cost",))
def _c_paid(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    if ctx.item is not None and cond["cost"] in ctx.item.paid:
        return True
    # a "when you play me" trigger: the additional costs paid for the card (357)
    event = ctx.event
    return bool(event and event.get("t") == "played" and cond["cost"] in event.get("paid", []))


@CONDITIONS.register("turn", fields=("whose", "phase"))
def _c_turn(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    # 491.8.c: "your turn" is yours alone; a teammate's turn is no opponent's turn either
    if "phase" in cond and PHASE_OF.get(ctx.g.state.step) != cond["phase"]:
        return False  # "if it's your Beginning Phase"
    return ctx.relation(cond["whose"], ctx.g.state.turn_player)


@CONDITIONS.register("showdown")
def _c_showdown(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    """A showdown (a combat's too) is under way ("when you play a unit during a showdown")."""
    return ctx.g.state.showdown is not None


@CONDITIONS.register("attached_this_turn")
def _c_attached_this_turn(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    """This card was attached to the unit it is attached to this turn (its effect text: "if this was
    attached to me this turn")."""
    g = ctx.g
    card = g.state.objs.get(ctx.text_of)
    if card is None or card.attached_to == NOWHERE:
        return False
    return any(h[0] == "attach" and h[2] == ctx.text_of and h[4] == card.attached_to for h in g.state.history)


@CONDITIONS.register("first_time", fields=("event",))
def _c_first_time(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return _history_count(ctx, {"event": cond["event"], "player": "you"}) <= 1


_FILTER = FILTERS.entries


# last: layers and this module are mutually recursive (a static's condition is interpreted here; the
# interpreter reads characteristics there), and layers needs EffectContext when it loads
from . import layers  # noqa: E402
