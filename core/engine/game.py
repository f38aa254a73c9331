"""The headless game: ``Game`` holds a ``GameState`` and plays it by the Core Rules.

The API follows OpenSpiel: ``pending_decision()`` says who must decide what, ``legal_actions()``
lists the actions, ``apply(action)`` is atomic (an illegal action raises IllegalActionError and
leaves the state exactly as it was), ``observation(player)`` hides what that player can't see,
and ``to_json``/``from_json`` round-trip the whole game.  Rules areas live in their own modules
(turn, chain, combat, movement, scoring, payment, cleanup, ...); this module wires them together
and owns the event log and trigger dispatch index.
"""
from __future__ import annotations

import copyreg
import dataclasses
import io
import itertools
import json
import operator
import pickle
from typing import Any, Callable

from . import chain, cleanup, decisions, layers, loop, loop_draw, observe, offer, rng, saves, setup, triggers, turn, verbs
from ..script.cards import Ability, CardDef
from ..script.catalog import Catalog
from ..script.compiler import Compiler
from ..errors import EngineError, GameOverError, IllegalActionError, NeedDecision
from .events import Event, log_hash
from ..script.registry import ModeSpec
from .state import (BF0, EFFECT_TEXT, NOWHERE, PHASE_OF, Battlefield, ChainItem, Decision, GameState, Lasting, Obj, PendingTrigger, Player,
                    Showdown, from_jsonable, is_battlefield, obj_values, to_jsonable)

ACTIVE_ZONES = frozenset({"board", "legend", "bfcard"})
Snapshot = tuple[bytes, list[int], list[tuple[Any, ...]]]
# the dispatch index as it was: listeners, static sources, grant sources, each object's listened events
IndexCopy = tuple[dict[str, dict[tuple[int, int], None]], dict[tuple[int, int], None],
                  dict[tuple[int, int], None], dict[int, list[str]]]


def _fields_reducer(cls: type) -> Callable[[Any], tuple[type, tuple[Any, ...]]]:
    """Pickle a state record as its class and its fields in order: about twice as fast both ways
    as the default for slotted dataclasses, and the same copy."""
    values = operator.attrgetter(*(f.name for f in dataclasses.fields(cls)))

    def reduce(record: Any) -> tuple[type, tuple[Any, ...]]:
        return cls, values(record)
    return reduce


_SNAPSHOT_REDUCERS: dict[type, Any] = {
    **copyreg.dispatch_table,
    **{cls: _fields_reducer(cls) for cls in (GameState, Player, Battlefield, ChainItem, PendingTrigger,
                                             Showdown, Lasting, Decision)}}


class Game:
    """One game of Riftbound."""

    def __init__(self, catalog: Catalog, state: GameState, log: list[Event] | None = None) -> None:
        self.catalog = catalog
        self.defs: dict[str, CardDef] = catalog.cards
        self.state = state
        self.log: list[Event] = log if log is not None else []
        self.listeners: dict[str, dict[tuple[int, int], None]] = {}
        self.static_sources: dict[tuple[int, int], None] = {}
        self.grant_sources: dict[tuple[int, int], None] = {}  # statics granting keywords with triggers
        self._indexed: dict[int, list[str]] = {}
        self._chars: dict[int, Any] = {}
        self._chars_version = -1
        self._chars_reads: dict[int, bool] = {}  # objects being computed: was the partial result read?
        self._memo: dict[Any, Any] = {}
        self._memo_version = -1
        self._statics_generation = 0
        self._statics_memo: dict[Any, Any] = {}
        self._statics_memo_generation = -1
        self.version = 0
        self._keyword_abilities: dict[tuple[str, Any], tuple[Ability, ...]] = {}
        self._lasting_abilities: dict[int, Ability] = {}
        self._granted_abilities: dict[int, tuple[dict[str, Any], Ability]] = {}
        self._compiler = Compiler(catalog.keywords, catalog.effect_types)
        self.replaying = False
        self.answer_pos = 0
        self._offer: Any = None  # the legal actions as last offered (core/engine/offer.py)
        self.max_events = 20_000
        modes = catalog.plugins.modes() if catalog.plugins is not None else {}
        # the mode's numbers (487-491); a position built for an unknown mode plays as a plain game
        self.spec: ModeSpec = modes.get(state.mode) or ModeSpec(name=state.mode, players=len(state.players),
                                                                 victory_score=state.victory_score)
        self._rebuild_index()

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, catalog: Catalog, decks: list[Any], mode: str = "duel", seed: int = 0,
            names: list[str] | None = None, match: Any = None) -> "Game":
        """Create a game from decks (``Deck`` objects or deck names), a mode and a seed;
        ``match`` (a ``setup.MatchGame``) says what a Match allows in this game (488.6)."""
        return setup.new_game(cls, catalog, decks, mode, seed, names, match)

    # ------------------------------------------------------------------ public API
    @property
    def over(self) -> bool:
        """Whether the game has ended (a winner, a draw or every opponent conceded)."""
        return self.state.winners is not None

    def pending_decision(self) -> Decision | None:
        """Who must decide what now (None once the game is over)."""
        return None if self.over else self.state.decision

    def legal_actions(self) -> list[dict[str, Any]]:
        """The deciding player's legal actions, objects they can't see written as handles;
        ``apply`` accepts exactly these (and a concession, from any player at any time).  The list
        is new, its actions are the game's own until it changes: copy one before editing it."""
        if self.over or self.state.decision is None:
            return []
        return offer.offered(self)

    def apply(self, action: dict[str, Any]) -> None:
        """Apply one action of the deciding player; atomic on illegal input: every check is
        made before the first change (decisions.check), and the action performed is the one
        checked."""
        if self.over:
            raise GameOverError("the game is over")
        decision = self.state.decision
        if decision is None:
            raise EngineError("no decision is pending")
        checked = decisions.check(self, action)
        self.emit_action(decision.player, checked.action)
        decisions.perform(self, checked)
        self.run()

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may know, as plain data (core/engine/observe.py): turn and step, each player's
        zones (their own hand, only sizes of other hands and of decks), the battlefields, the chain,
        the showdown, the pending decision (its options only to the one deciding) and the winners.
        Facedown cards of others are written as handles, never by id: safe to show that player."""
        return observe.observation(self, player)

    def to_json(self) -> str:
        """The whole game (state and event log) as JSON; ``Game.from_json`` reads it back, checked.
        Canonical (sorted keys), so two games in the same state give the same text."""
        return json.dumps({"state": to_jsonable(self.state), "log": self.log}, sort_keys=True)

    @classmethod
    def from_json(cls, catalog: Catalog, text: str | bytes, replay: bool = True) -> "Game":
        """A saved game, checked before anything is played (core/engine/saves.py): its shape, its
        invariants and, with ``replay``, that its log replays to it; else CorruptStateError."""
        return saves.load_game(cls, catalog, text, replay)

    def log_hash(self) -> str:
        """The running SHA-256 of the event log: equal for the same seed and the same decisions."""
        return log_hash(self.log)

    # ------------------------------------------------------------------ the loop (HOT FEPR)
    def run(self) -> None:
        """Handle outstanding tasks, cleanups and triggers, then give priority or move on."""
        while self.state.decision is None and self.state.winners is None:
            s = self.state
            if s.log_count - s.loop_guard > self.max_events:
                loop_draw.settle_runaway(self)
                continue
            if s.tasks:
                task = s.tasks[-1]
                if loop.may_ask(self, task) or (len(s.players) > 2 and self.burn_out_may_ask()):
                    self._guarded(lambda: loop.run_task(self, self.state.tasks.pop()))
                else:
                    self._unguarded(lambda: loop.run_task(self, s.tasks.pop()))
                continue
            if s.needs_cleanup:
                if self.optional_replacements() or (len(s.players) > 2 and self.burn_out_may_ask()):
                    self._guarded(lambda: cleanup.cleanup(self))
                else:
                    self._unguarded(lambda: cleanup.cleanup(self))
                continue
            if s.pending_triggers:
                triggers.put_on_chain(self)
                continue
            if chain.offer_priority(self):
                continue
            if len(s.players) > 2 and self.burn_out_may_ask():
                self._guarded(lambda: turn.advance(self))  # the Draw Phase may burn out (432.2.c)
            else:
                turn.advance(self)

    def _guarded(self, step: Any) -> None:
        """Run a step that may ask a player; if it does, rewind it and wait for the answer.

        The step is replayed from its snapshot with all answers given so far, so the paused
        step is plain data (the task stays on the stack and the answers are in the state).
        """
        snap = self.snapshot()
        index = self._index_copy()
        self.answer_pos = 0
        try:
            step()
        except NeedDecision as need:
            answers = list(self.state.answers)
            self.restore(snap, index, in_place=True)
            self.state.answers = answers
            need.decision.context["replay"] = True
            self.state.decision = need.decision
            return
        self.state.answers = []

    def ask(self, player: int, prompt: str, options: list[tuple[str, Any]], kind: str = "choose") -> Any:
        """A player's choice among options, asked in a guarded step: the answer given for this
        point of the replay, or a pause (NeedDecision) until the player answers.  One option needs
        no decision."""
        if len(options) == 1:
            return options[0][1]
        if not options:
            raise EngineError(f"no options for: {prompt}")
        if self.answer_pos < len(self.state.answers):
            answer = self.state.answers[self.answer_pos]
            self.answer_pos += 1
            for _, value in options:
                if value == answer:
                    return value
            raise EngineError(f"recorded answer {answer!r} is not an option of {prompt!r}")
        raise NeedDecision(Decision(kind=kind, player=player, prompt=prompt,
                                    options=[{"label": label, "value": value} for label, value in options]))

    def burn_out_may_ask(self) -> bool:
        """Whether a burn-out could ask whom to give the point (432.2.c: the burning player chooses an
        opponent): with opponents in two or more teams and a main deck running low, steps that may draw
        run guarded, so the question can pause the game.  Ten cards is more than any step draws."""
        s = self.state
        if len(s.players) < 3:
            return False  # Duel and Match: a single opponent, nothing to choose
        live = [p for p in s.players if not p.conceded]
        return len({p.team for p in live}) > 2 and any(len(p.main_deck) < 10 for p in live)

    def _unguarded(self, step: Any) -> None:
        self.answer_pos = 0
        try:
            step()
        except NeedDecision as need:
            raise EngineError(f"a step that was not expected to ask a player asked: {need.decision.prompt}") from None

    def optional_replacements(self) -> bool:
        """Whether a replacement effect that asks its controller could apply now."""
        for key, table in self.listeners.items():
            if key.startswith("replace:"):
                for (oid, index) in table:
                    body = self.defs[self.state.objs[oid].code].abilities[index].body
                    if body.get("optional") or body.get("cost"):
                        return True
        lasting = self.state.lasting
        return bool(lasting) and any(l.kind == "replacement" and (l.body.get("optional") or l.body.get("cost"))
                                     for l in lasting)

    # ------------------------------------------------------------------ events
    def emit(self, etype: str, **fields: Any) -> Event:
        """Record an event and queue the triggered abilities that listen to it."""
        s = self.state
        s.log_count += 1
        event: Event = {"n": s.log_count, "t": etype, **fields}
        self.log.append(event)
        self.version += 1
        if self.listeners.get(etype) or self.grant_sources or etype in triggers.PLAYER_EVENTS \
                or (s.lasting and triggers.lasting_listens(self, etype)):
            triggers.dispatch(self, event)
        return event

    def emit_action(self, player: int, action: dict[str, Any]) -> None:
        """Log a player's action, so a replay can feed the same decisions back."""
        self.emit("action", player=player, action=action)

    def remember(self, kind: str, player: int, obj: int = NOWHERE, **extra: Any) -> None:
        """Per-turn history for 'this turn' conditions (Legion, 'if you've discarded ...')."""
        entry: list[Any] = [kind, player, obj, extra.get("code", ""), extra.get("loc", NOWHERE),
                            PHASE_OF.get(self.state.step, "")]  # the phase: "during your Beginning Phase"
        self.state.history.append(entry)

    def record(self, name: str, player: int, value: int) -> None:
        """A number scripts can read later this turn as {type: variable, name: ...}."""
        self.state.history.append(["var:" + name, player, NOWHERE, "", value])

    def memo(self) -> dict[Any, Any]:
        """A cache valid only while the state is unchanged (every change bumps the version)."""
        if self._memo_version != self.version:
            self._memo = {}
            self._memo_version = self.version
        return self._memo

    def statics_memo(self) -> dict[Any, Any]:
        """A cache valid while the active static abilities (``static_sources``) are unchanged, for
        what depends only on which they are: they change far less often than the state."""
        if self._statics_memo_generation != self._statics_generation:
            self._statics_memo = {}
            self._statics_memo_generation = self._statics_generation
        return self._statics_memo

    def touch(self) -> None:
        """Invalidate ``memo()``: for changes to the state made without an event."""
        self.version += 1

    # ------------------------------------------------------------------ objects and zones
    def obj(self, oid: int) -> Obj:
        """The object with this id (KeyError if there is none)."""
        return self.state.objs[oid]

    def card(self, oid: int) -> CardDef:
        """The compiled card an object is a copy of."""
        return self.defs[self.state.objs[oid].code]

    def player(self, index: int) -> Player:
        """The player in seat ``index``."""
        return self.state.players[index]

    def bf_at(self, loc: int) -> Battlefield:
        """The battlefield at location ``loc`` (locations from BF0 up are battlefields)."""
        return self.state.battlefields[loc - BF0]

    def new_obj(self, code: str, owner: int, zone: str, token: bool = False) -> Obj:
        """A new object with the next id, owned and controlled by ``owner``, in ``zone`` (no event)."""
        s = self.state
        obj = Obj(id=s.next_id, code=code, owner=owner, controller=owner, zone=zone, token=token)
        s.next_id += 1
        s.objs[obj.id] = obj
        return obj

    def tick(self) -> int:
        """Advance the game's clock: timestamps order lasting effects and layers (the newest applies last)."""
        self.state.clock += 1
        return self.state.clock

    def zone_list(self, obj: Obj) -> list[int] | None:
        """The ordered list that holds the object, if its zone has one."""
        p = self.state.players[obj.owner]
        zone = obj.zone
        if zone == "board":
            if is_battlefield(obj.loc):
                return self.bf_at(obj.loc).here
            return self.state.players[obj.loc].base
        if zone == "facedown":
            return self.bf_at(obj.loc).facedown
        if zone == "hand":
            return p.hand
        if zone == "main_deck":
            return p.main_deck
        if zone == "trash":
            return p.trash
        if zone == "runes":
            return self.state.players[obj.controller].runes
        if zone == "rune_deck":
            return p.rune_deck
        if zone == "champion":
            return p.champion
        if zone == "banished":
            return p.banished
        if zone == "removed":
            return p.removed
        return None

    def place(self, oid: int, zone: str, loc: int = NOWHERE, top: bool = False, bottom: bool = True) -> None:
        """Move an object to a zone (and location); keeps lists and the trigger index in step."""
        obj = self.state.objs[oid]
        if zone == "trash" and obj.zone != "main_deck" \
                and layers.restrictions_on(self, "banish_instead_of_trash", player=obj.owner):
            zone = "banished"  # "if a card would go to your trash from anywhere other than your Main Deck, banish it"
        old_list = self.zone_list(obj)
        if old_list is not None and oid in old_list:
            old_list.remove(oid)
        was_active = obj.zone in ACTIVE_ZONES
        obj.zone = zone
        obj.loc = loc
        if zone == "facedown":
            obj.timestamp = self.state.log_count  # when it was hidden: its handle is drawn anew (core/engine/observe.py)
        if obj.token and zone not in ("board", "chain", "bfcard"):
            # 185.3.b: a token that leaves the board ceases to exist
            self._unindex(oid)
            obj.zone = "gone"
            self.version += 1
            return
        new_list = self.zone_list(obj)
        if new_list is not None:
            if top:
                new_list.insert(0, oid)
            else:
                new_list.append(oid)
        now_active = zone in ACTIVE_ZONES
        if was_active or now_active or self._listens_elsewhere(obj):
            self._unindex(oid)
            self._index(oid)
        self.version += 1

    def _listens_elsewhere(self, obj: Obj) -> bool:
        return bool(self.defs[obj.code].facts.trigger_zones)

    # ------------------------------------------------------------------ dispatch index
    def _index(self, oid: int) -> None:
        self.version += 1  # what is remembered per version may depend on the static sources
        obj = self.state.objs[oid]
        card = self.defs[obj.code]
        active = obj.zone in ACTIVE_ZONES
        attached = obj.zone == "board" and obj.attached_to != NOWHERE
        keys: list[str] = []
        for ability in card.abilities:
            if ability.body.get("effect_text"):
                # 150.2, 435.1.e: effect text works only while attached, and its triggers are the unit's
                if attached and ability.kind == "triggered" and "from_zone" not in ability.body["when"]:
                    self.listeners.setdefault(ability.event or "", {})[(oid, ability.index)] = None
                    keys.append(ability.event or "")
                elif attached and ability.kind == "replacement":
                    # the unit's "if I would ..." (Guardian Angel): replace.replace reads it as the unit's
                    self.listeners.setdefault("replace:" + (ability.event or ""), {})[(oid, ability.index)] = None
                    keys.append("replace:" + (ability.event or ""))
                elif attached and ability.kind == "static" and (ability.body.get("affects", "self") != "self" or any(
                        m["type"] == "copy_text" for m in ability.body["modifiers"])):
                    # effect text reaching beyond the unit ("your units here have ...", "your spells deal ...")
                    self.static_sources[(oid, ability.index)] = None
                    self._statics_generation += 1
                    if triggers.granted_trigger_mods(self, ability):
                        self.grant_sources[(oid, ability.index)] = None
                elif attached and ability.kind == "static" and triggers.granted_trigger_mods(self, ability):
                    self.grant_sources[(oid, ability.index)] = None  # a keyword with a trigger, for the unit
                continue
            if attached:
                continue  # 718.2: an attached card's rules text is inactive
            if ability.kind == "triggered":
                from_zone = ability.body["when"].get("from_zone")
                if (from_zone is None and active) or (from_zone is not None and obj.zone == from_zone):
                    self.listeners.setdefault(ability.event or "", {})[(oid, ability.index)] = None
                    keys.append(ability.event or "")
            elif ability.kind == "replacement" and active:
                self.listeners.setdefault("replace:" + (ability.event or ""), {})[(oid, ability.index)] = None
                keys.append("replace:" + (ability.event or ""))
            elif ability.kind == "static" and active:
                self.static_sources[(oid, ability.index)] = None
                self._statics_generation += 1
                if triggers.granted_trigger_mods(self, ability):
                    self.grant_sources[(oid, ability.index)] = None
        if keys:
            self._indexed[oid] = keys

    def _unindex(self, oid: int) -> None:
        """Remove an object's listeners: cost is its own abilities, not the size of the board."""
        self.version += 1
        for event in self._indexed.pop(oid, []):
            table = self.listeners.get(event, {})
            for key in [k for k in table if k[0] == oid]:
                del table[key]
        card = self.defs[self.state.objs[oid].code]
        for ability in card.abilities:
            if ability.kind == "static":
                if (oid, ability.index) in self.static_sources:
                    del self.static_sources[(oid, ability.index)]
                    self._statics_generation += 1
                self.grant_sources.pop((oid, ability.index), None)

    def _index_copy(self) -> IndexCopy:
        """The dispatch index as it is now, for a rewind to put back instead of rebuilding it from
        every object (the index only ever replaces ``_indexed``'s lists, never changes them)."""
        return ({event: dict(table) for event, table in self.listeners.items()}, dict(self.static_sources),
                dict(self.grant_sources), dict(self._indexed))

    def _rebuild_index(self) -> None:
        self.listeners = {}
        self.static_sources = {}
        self._statics_generation += 1
        self.grant_sources = {}
        self._indexed = {}
        defs = self.defs
        for oid, obj in self.state.objs.items():
            # off the board an object is indexed only for its 'from this zone' triggers
            zone = obj.zone
            if zone in ACTIVE_ZONES:
                self._index(oid)
            elif zone != "gone" and zone in defs[obj.code].facts.trigger_zones:
                self._index(oid)

    # ------------------------------------------------------------------ abilities
    def keyword_abilities(self, keyword: str, value: Any) -> tuple[Ability, ...]:
        """The compiled abilities of a keyword with a value, for keywords granted by effects;
        compiled once per keyword and value."""
        key = (keyword, json.dumps(value, sort_keys=True) if isinstance(value, (dict, list)) else value)
        cached = self._keyword_abilities.get(key)
        if cached is None:
            card = self._compiler.compile({"code": "KW-000", "name": keyword, "type": "unit",
                                           "keywords": [{keyword: value} if value is not None else keyword]},
                                          "KW", "keyword")
            cached = card.abilities
            self._keyword_abilities[key] = cached
        return cached

    def lasting_ability(self, lasting: Lasting) -> Ability:
        """The compiled ability of a lasting effect that carries one ('this turn, when ...'), compiled once."""
        cached = self._lasting_abilities.get(lasting.id)
        if cached is None:
            body = dict(lasting.body)
            compiled = self._compiler._ability(body, 0, lasting.keyword, None)
            self._lasting_abilities[lasting.id] = compiled
            cached = compiled
        return cached

    def granted_ability(self, mod: dict[str, Any]) -> Ability:
        """The compiled activated ability of a grant_ability modifier (compiled once per modifier)."""
        cached = self._granted_abilities.get(id(mod))
        if cached is None or cached[0] is not mod:
            cached = (mod, self._compiler._ability({**mod["ability"], "kind": "activated"}, 0, None, None))
            self._granted_abilities[id(mod)] = cached
        return cached[1]

    def active_lasting(self) -> list[Lasting]:
        """Lasting effects still in force ('the next time' effects that were used are spent)."""
        return [lasting for lasting in self.state.lasting if lasting.uses != 0]

    def spend_use(self, lasting: Lasting) -> None:
        """A limited-use effect was used once; a spent one stays listed until the turn ends."""
        if lasting.uses > 0:
            lasting.uses -= 1

    def item_ability(self, item: ChainItem) -> Ability:
        """The ability a chain item resolves (a borrowed one is read from its lender's card)."""
        lender = item.variables.get("_lent_by")
        if lender is not None:
            return self.defs[self.state.objs[lender].code].abilities[item.variables["_lent_index"]]
        src = item.variables.get("_granted_by")
        if src is not None:
            index = item.variables["_granted_static"]
            if index < 0:  # given by a created effect (layers.granted_abilities), whose id is minus the index
                lasting = self.find_lasting(-index)
                if lasting is None:
                    raise EngineError(f"the created effect that gave {self.name(item.obj)} an ability is gone")
                return self.granted_ability(lasting.body["modifiers"][item.variables["_granted_mod"]])
            static = self.defs[self.state.objs[src].code].abilities[index]
            return self.granted_ability(static.body["modifiers"][item.variables["_granted_mod"]])
        return self.ability_of(item.obj, item.ability, item.lasting)

    def find_lasting(self, lid: int) -> Lasting | None:
        """The lasting effect with this id, if it is still in force."""
        for lasting in self.state.lasting:
            if lasting.id == lid:
                return lasting
        return None

    def ability_of(self, oid: int, index: int, lasting: int = NOWHERE) -> Ability:
        """The ability a pending trigger or chain item names: ``lasting`` says whether it is the
        object's own, a lasting effect's, a granted keyword's or an attached card's effect text."""
        if lasting <= EFFECT_TEXT:
            # 435.1.e: an attached card's effect-text ability, acting as the unit's
            return self.defs[self.state.objs[EFFECT_TEXT - lasting].code].abilities[index]
        if lasting <= triggers.STATIC_GRANT:
            # a keyword's triggered ability granted by a static ability ("other units have [Vision]")
            keyword, value = triggers.decode_static_grant(self, lasting)
            return self.keyword_abilities(keyword, value)[index]
        if lasting != NOWHERE:
            found = self.find_lasting(lasting)
            if found is None:
                raise EngineError(f"lasting effect {lasting} is gone")
            if found.kind == "grant":
                return self.keyword_abilities(found.body["keyword"], found.body.get("value"))[index]
            return self.lasting_ability(found)
        own = self.defs[self.state.objs[oid].code].abilities
        if index >= len(own):
            return chain.activated_abilities(self, oid)[index]  # a borrowed ability (Heimerdinger, Inventor)
        return own[index]

    # ------------------------------------------------------------------ chance
    def random_below(self, n: int) -> int:
        """A random number in 0..n-1 from the game's seeded generator (the only source of chance)."""
        self.state.rng, value = rng.below(self.state.rng, n)
        return value

    def shuffle(self, items: list[int]) -> None:
        """Shuffle ``items`` in place with the game's seeded generator."""
        self.state.rng = rng.shuffle(self.state.rng, items)

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> Snapshot:
        """The state as it is now.  Objects are held only in ``objs`` and are flat records of
        immutable values, so they are kept as tuples of their fields (several times faster than
        pickling them); the rest is pickled."""
        s = self.state
        objs = s.objs
        s.objs = {}
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = _SNAPSHOT_REDUCERS
        try:
            pickler.dump((s, len(self.log)))
        finally:
            s.objs = objs
        return buffer.getvalue(), list(objs), list(map(obj_values, objs.values()))

    def restore(self, snap: Snapshot, index: IndexCopy | None = None, in_place: bool = False) -> None:
        """Go back to a snapshot; ``index``, the dispatch index copied when it was taken, saves
        rebuilding the index.  ``in_place``: the state being left is this game's own and is dropped
        (a guarded step rewound), so its objects that still have the snapshot's values are kept
        instead of rebuilt - never for a state another game shares (``copy``)."""
        rest, ids, values = snap
        state, log_len = pickle.loads(rest)
        if in_place:
            old = self.state.objs
            objs: dict[int, Obj] = {}
            for oid, fields in zip(ids, values):
                obj = old.get(oid)
                objs[oid] = obj if obj is not None and obj_values(obj) == fields else Obj(*fields)
            state.objs = objs
        else:
            state.objs = dict(zip(ids, itertools.starmap(Obj, values)))
        self.state = state
        del self.log[log_len:]
        self._chars = {}
        # lasting effects are numbered by the clock, so another line of play may reuse a number
        self._lasting_abilities = {}
        self.version += 1
        if index is None:
            self._rebuild_index()
        else:
            self.listeners, self.static_sources, self.grant_sources, self._indexed = index
            self._statics_generation += 1

    def copy(self) -> "Game":
        """An independent game in the same state, for agents that look ahead (search): the state is
        copied by the snapshot machinery (no JSON), the log is copied, compiled scripts are shared."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.log = list(self.log)
        other._chars, other._chars_reads, other._memo, other._statics_memo = {}, {}, {}, {}
        other.restore(self.snapshot(), self._index_copy())
        return other

    def fresh_copy(self) -> "Game":
        """An independent game in the same state with every cache empty and its dispatch index
        built anew from the objects: what the caches are checked against (core/engine/invariants.py)."""
        other = self.copy()
        other._rebuild_index()
        return other

    # ------------------------------------------------------------------ players
    def opponents(self, player: int) -> list[int]:
        """The players on other teams who are still playing (conceded players are out)."""
        team = self.state.players[player].team
        return [p.index for p in self.state.players if p.team != team and not p.conceded]

    def next_player(self, player: int) -> int:
        """The next player in turn order after ``player`` who has not conceded."""
        order = self.state.turn_order
        i = order.index(player)
        for step in range(1, len(order) + 1):
            candidate = order[(i + step) % len(order)]
            if not self.state.players[candidate].conceded:
                return candidate
        return player

    def in_turn_order(self, start: int | None = None) -> list[int]:
        """The players still playing in turn order, from ``start`` (default: the turn player)."""
        order = self.state.turn_order
        first = self.state.turn_player if start is None else start
        i = order.index(first)
        players = self.state.players
        return [p for p in order[i:] + order[:i] if not players[p].conceded]

    def friendly(self, a: int, b: int) -> bool:
        """Same player or teammates (491: 'friendly' includes a teammate's objects)."""
        return self.state.players[a].team == self.state.players[b].team

    def units_at(self, loc: int) -> list[int]:
        """The units at a location (a battlefield or a player's base), attached cards excluded."""
        ids = self.bf_at(loc).here if is_battlefield(loc) else self.state.players[loc].base
        return [i for i in ids if self.defs[self.state.objs[i].code].type == "unit"
                and self.state.objs[i].attached_to == NOWHERE]

    def board_objects(self) -> list[int]:
        """Every object on the board: the bases in player order, then the battlefields (a new list)."""
        s = self.state
        out = [oid for p in s.players for oid in p.base]
        for bf in s.battlefields:
            out += bf.here
        return out

    def name(self, oid: int) -> str:
        """An object's card name."""
        return self.defs[self.state.objs[oid].code].name
