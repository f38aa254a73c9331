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

from typing import Any, Callable, Final, Generic, Iterator, TYPE_CHECKING, TypeVar

from ..errors import EngineError
from .state import NOWHERE, ChainItem, DecisionKind, HistoryRow, Obj, is_battlefield

if TYPE_CHECKING:
    from ..script.cards import CardDef
    from .game import Game
    from ..script.registry import LanguageWord

Node = dict[str, Any]
BOARD_KINDS: Final = ("unit", "gear", "permanent")
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
        self._builtin: set[str] | None = None

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

        if key in self.entries or key in self.builtin_keys():  # built in, registered or not yet loaded
            raise PluginError(f"plugin {plugin} adds the {self.name} {key!r}, but that is a built-in word "
                              f"of the script language")
        known = self.plugin.get(key)
        if known is not None and known[1] != plugin:
            raise PluginError(f"{self.name} {key!r} is added by two plugins: {known[1]} and {plugin}")
        self.plugin[key] = (handler, plugin)

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def builtin_keys(self) -> set[str]:
        """The built-in words: the keys the shipped schemas list (read once), whether or not the module
        registering their handlers has loaded yet (``selectors`` and ``conditions`` load with the game)."""
        if self._builtin is None:
            self._builtin = self.schema_keys()
        return self._builtin

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

FILTERS: Final[Table[FilterFn]] = Table("filter key", ("effect#/$defs/filter/properties",),
                                 "criteria an object must meet (`where:`)")
LOCATIONS: Final[Table[LocationFn]] = Table("location filter", ("effect#/$defs/filter/properties/location/enum",),
                                     "where an object is (`where: {location: ...}`)")
STATES: Final[Table[StateFn]] = Table("state", ("effect#/$defs/condition/allOf/*/then/properties/state/enum",),
                               "what `{type: is, state: ...}` asks of an object")
STATS: Final[Table[StatFn]] = Table("stat", ("effect#/$defs/amount_expr/allOf/*/then/properties/stat/enum",),
                             "numbers about a player (`{type: stat, stat: ...}`)")
AMOUNTS: Final[Table[AmountFn]] = Table("amount type", ("effect#/$defs/amount_expr/properties/type/enum",),
                                 "computed amounts (`{type: ...}`)")
CONDITIONS: Final[Table[ConditionFn]] = Table("condition type", ("effect#/$defs/condition/properties/type/enum",),
                                       "conditions (`{type: ...}`)")
PLAYERS: Final[Table[PlayersFn]] = Table("player reference", (
    "effect#/$defs/selection/properties/whose/enum",
    "effect#/$defs/selection/properties/chooser/enum",
    "effect#/$defs/amount_expr/allOf/*/then/properties/player/enum",
    "effect#/$defs/effect_node/allOf/*/then/properties/player/enum",
    "effect#/$defs/effect_node/allOf/*/then/properties/chooser/enum",
    "effect#/$defs/effect_node/allOf/*/then/properties/players/enum",
    "effect#/$defs/effect_node/allOf/*/then/properties/who/enum",
), "who a player reference names (`player:`, `chooser:`, `whose:`, `players:`, `who:`)")
RELATIONS: Final[Table[RelationFn]] = Table("player relation", (
    "effect#/$defs/filter/properties/controller/enum",
    "effect#/$defs/filter/properties/owner/enum",
    "effect#/$defs/trigger/properties/player/enum",
    "effect#/$defs/trigger/properties/whose_turn/enum",
    "effect#/$defs/condition/allOf/*/then/properties/player/enum",
    "effect#/$defs/condition/allOf/*/then/properties/whose/enum",
), "how a player must stand to you (`controller:`, `owner:`, a trigger's `player:` and `whose_turn:`)")
REFS: Final[Table[RefFn]] = Table("reference", ("effect#/$defs/ref/enum",), "named references (`self`, `it`, ...)")
PLACES: Final[Table[PlaceFn]] = Table("location", ("effect#/$defs/location/anyOf/0/enum",),
                               "named destinations (`to:`, `at:`)")
ZONES: Final[Table[ZoneFn]] = Table("zone", ("effect#/$defs/zone/enum",), "where a selection looks (`zone:`)")


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
        known = WORDS.get((word.kind, word.name))
        if known is not None and known.plugin != word.plugin:
            raise PluginError(f"{word.kind} {word.name!r} is added by two plugins: {known.plugin} and {word.plugin}")
        table = _WORD_TABLES.get(word.kind)
        if table is not None:
            if word.run is None:
                raise PluginError(f"plugin {word.plugin}: the {word.kind} {word.name!r} has no handler (run)")
            table.add_plugin_word(word.name, word.run, word.plugin)
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

    def ask(self, player: int, prompt: str, options: list[tuple[str, Any]], kind: DecisionKind = "choose") -> Any:
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
        """Every object (or player, location) a selection can choose, in order."""
        return list(self.each_candidate(selector))

    def each_candidate(self, selector: Node) -> Iterator[int]:
        """``candidates`` one by one, each checked only when asked for: a caller that needs the first
        few of a big board's (a capped listing of target choices) doesn't test the rest."""
        g = self.g
        what: str = selector.get("what", "unit")  # a str: compiled, compared as one (an Any: rich comparison)
        if what == "player":
            where = selector.get("where") or {}
            players = [p.index for p in g.state.players if not p.conceded]
            if "controller" in where:
                players = [p for p in players if self.relation(where["controller"], p)]
            if "same_controller_as" in where:  # "its controller": the player controlling that object
                owners = {g.obj(o).controller for o in self.resolve(where["same_controller_as"]) if o in g.state.objs}
                players = [p for p in players if p in owners]
            yield from players
            return
        if what == "battlefield":
            out = [bf.card for bf in g.state.battlefields]
            yield from [oid for oid in out if self.matches_selection(selector, oid)]
            return
        if what == "location":
            locs = [p.index for p in g.state.players] + [bf.loc for bf in g.state.battlefields]
            want = selector.get("where", {}).get("location", "any")
            yield from [loc for loc in locs if self.valid_location(loc, want)]
            return
        if "among" in selector:
            pool = self.resolve(selector["among"])
            if "zone" in selector:
                # those of them in that zone (and, read by the zone, whose): "if it's in your banishment now"
                looked = set(self._looked_at(selector, what))
                pool = [oid for oid in pool if oid in looked]
            yield from [oid for oid in pool if oid in g.state.objs and self.is_kind(oid, what)
                        and self.matches(oid, selector.get("where"))]
            return
        ids = self._looked_at(selector, what)
        # matches_selection for each (not a location here), with the selector read once
        objs, defs = g.state.objs, g.defs
        any_kind = what in ("card", "chain_item", "location", "player")
        where = selector.get("where")
        for oid in ids:
            obj = objs.get(oid)
            if obj is None or obj.zone == "gone":
                continue
            if not any_kind:
                ctype = defs[obj.code].type
                if not (ctype in ("unit", "gear") if what == "permanent" else ctype == what):
                    continue
            if self.matches(oid, where):
                yield oid

    def _looked_at(self, selector: Node, what: str) -> list[int]:
        """The objects a selection looks among: its zone's, or by default the board's (the chain's for
        spells, the rune pools' for runes; a hidden card is a card at its battlefield: Pack of Wonders)."""
        zone = selector.get("zone")
        if zone is not None:
            return ZONES[zone](self, selector)
        if what in ("spell", "chain_item"):
            return ZONES["chain"](self, selector)
        if what == "rune":
            return rune_pools(self)
        ids = self._board_at((selector.get("where") or {}).get("location"))
        return ids + ZONES["facedown"](self, selector) if what == "card" else ids

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
        what: str = selector.get("what", "unit")
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
        what: str = selector.get("what", "unit")
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
        zone = selector.get("zone", "board")
        if zone == "board" and obj.zone != "board":
            return False
        return self.whose_covers(selector, oid) and self.matches_selection(selector, oid)

    def whose_covers(self, selector: Node, oid: int) -> bool:
        """A selection's ``whose`` as a static's controller reads it ("the cards in your trash"): the
        player whose zone holds the object (its controller on the board) is one it names, as when the
        selection is listed (``selectors.ZONES``)."""
        whose = selector.get("whose")
        if whose is None:
            return True
        obj = self.g.obj(oid)
        return (obj.controller if obj.zone == "board" else obj.owner) in self.players(whose)

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
        return history_count(self, cond)

    def state_of(self, oid: int, state: str) -> bool:
        obj = self.g.state.objs.get(oid)
        if obj is None:
            return False
        return STATES[state](self, oid, obj)


def history_count(ctx: EffectContext, cond: Node) -> int:
    g = ctx.g
    event = cond["event"]
    who = cond.get("player", "any")
    exclude = cond.get("exclude_self", False)
    subject = cond.get("subject")
    count = 0
    for entry in g.state.history:
        if entry.kind != event:
            continue
        player = entry.player
        # "you" did it: the player alone, except that 491.8.d.3 makes point gains the team's
        if who == "you" and event == "points":
            if not g.friendly(player, ctx.you):
                continue
        elif not ctx.relation(who, player):
            continue
        if exclude and entry.obj == ctx.source:
            continue
        if "by" in cond and entry.code not in cond["by"]:
            continue  # chosen by a spell / a unit's ability / another ability
        if "during" in cond and entry.phase != cond["during"]:  # a recorded number has no phase
            continue  # "during your Beginning Phase this turn": the phase it happened in
        if "min_value" in cond and not (isinstance(entry.number, int) and entry.number >= int(cond["min_value"])):
            continue  # the number the entry carries: energy spent to play a spell ("{4} or more")
        if subject is not None and entry.obj != NOWHERE and entry.obj in g.state.objs:
            if not _history_subject(ctx, entry, subject):
                continue
        count += 1
    return count


def _history_subject(ctx: EffectContext, entry: HistoryRow, subject: Node) -> bool:
    """Whether the object of a history entry meets a filter: on the board, as it is now; after it
    left the board, its controller then was the player who did it, and the rest is judged by its card
    (a spell played, a gear that died: "if you've played an Equipment this turn")."""
    obj = ctx.g.state.objs[entry.obj]
    if obj.zone == "board":
        return ctx.matches(entry.obj, subject)
    rest = {key: want for key, want in subject.items() if key != "controller"}
    return _matches_dead(ctx, entry, subject) and ctx.matches(entry.obj, rest)


def _matches_dead(ctx: EffectContext, entry: HistoryRow, subject: Node) -> bool:
    """History entries about objects that left the board are judged by their card, and their controller
    by the entry's player, who controlled it then: "a unit you controlled died" is yours alone, not a
    2v2 teammate's (491), "a friendly unit" a teammate's too."""
    want = subject.get("controller")
    if isinstance(want, str) and want in RELATIONS:
        return ctx.relation(want, entry.player)
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


@RELATIONS.register("chosen")
def _rel_chosen(g: "Game", you: int, player: int, event: Event | None) -> bool:
    """A trigger's "the chosen player": only a created trigger has one, and ``create_effect`` puts that
    player's index in its place; a card's own trigger can't say it (refused when the card loads)."""
    return False


@RELATIONS.register("event_player")
def _rel_event_player(g: "Game", you: int, player: int, event: Event | None) -> bool:
    return event is not None and "player" in event and player == int(event["player"])


@RELATIONS.register("friendly_to_event_player")
def _rel_friendly_to_event_player(g: "Game", you: int, player: int, event: Event | None) -> bool:
    # 491: friendly to the player who caused the event - theirs or a teammate's (The Dreaming Tree)
    return event is not None and "player" in event and g.friendly(player, int(event["player"]))


def rune_pools(ctx: EffectContext) -> list[int]:
    """Every rune in play (the runes of every player's rune pool area)."""
    return [oid for p in ctx.g.state.players for oid in p.runes]




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


_FILTER: Final = FILTERS.entries


# last: layers and this module are mutually recursive (a static's condition is interpreted here; the
# interpreter reads characteristics there), and layers needs EffectContext when it loads
from . import layers  # noqa: E402

