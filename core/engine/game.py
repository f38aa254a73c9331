"""The headless game: ``Game`` holds a ``GameState`` and plays it by the Core Rules.

The API follows OpenSpiel: ``pending_decision()`` says who must decide what, ``legal_actions()``
lists the actions, ``apply(action)`` is atomic (an illegal action raises IllegalActionError and
leaves the state exactly as it was), ``observation(player)`` hides what that player can't see,
and ``to_json``/``from_json`` round-trip the whole game.  Rules areas live in their own modules
(turn, chain, combat, movement, scoring, payment, cleanup, ...).  This module holds the public API
and the state: the event log, objects and zones, players.  What it delegates, each in one module:
the run loop with snapshots, replay and every rule for which steps may ask a player
(``loop.py``), the dispatch index (``trigger_index.py``), the per-state caches and what invalidates
each (``caches.py``), conceding (``concession.py``).
"""
from __future__ import annotations

import json
from sys import intern
from typing import Any, Final

from . import activation, chain, decisions, layers, loop, observe, offer, rng, saves, setup, targeting, triggers
from . import conditions, selectors  # noqa: F401 - the interpreter's words register as they load
from ..script.cards import Ability, CardDef
from ..script.catalog import Catalog
from ..script.compiler import Compiler
from ..errors import EngineError, GameOverError
from .events import Event, log_hash
from ..script.registry import ModeSpec
from .caches import Caches
from .loop import Snapshot as Snapshot  # the type of Game.snapshot(), for plugins that search
from .state import (BF0, NOWHERE, PHASE_OF, Battlefield, ChainItem, Decision, DecisionKind, GameState, Lasting, Obj, Origin, Player,
                    history_row, is_battlefield, to_jsonable)
from .trigger_index import ACTIVE_ZONES, IndexCopy, TriggerIndex
from .vocabulary import Action

# Events that change neither where an object is, nor who controls it, nor (without a conditional static
# ability) its Might: a player's action logged before it is performed, a pass, an object chosen as a
# target, a trigger put on the chain, damage marked on a unit (its Might is not its damage; what dies of
# it leaves the board with events of its own), an item's resolution noted (its effects have their own
# events), a token made (in limbo), an object's entering the board and a card or token played noted (the
# moves have their own bumps).  The candidate lists ``Caches.kept`` holds outlive them.
QUIET_EVENTS: Final = frozenset({"action", "pass", "chosen", "trigger", "damaged", "resolve", "create_token",
                                 "enter_board", "played"})

class Game:
    """One game of Riftbound."""

    def __init__(self, catalog: Catalog, state: GameState, log: list[Event] | None = None, *,
                 like: "Game | None" = None, spec: ModeSpec | None = None) -> None:
        """``like``: a game of the same catalog whose compiled scripts, mode and settings this one
        shares, its caches carried over as ``Caches.for_copy`` says and its dispatch index left for
        the caller to fill (``copy``: a compiled class can't be cloned field by field).  ``spec``: the
        mode's record when the caller has it (a new game: the modes are asked once per game)."""
        self.catalog = catalog
        self.defs: dict[str, CardDef] = catalog.cards
        self.state = state
        self.log: list[Event] = log if log is not None else []
        self.index = TriggerIndex()  # which abilities are live where (core/engine/trigger_index.py)
        self.replaying: bool = False
        self.answer_pos: int = 0
        self.max_events: int = 20_000
        if like is not None:
            self.caches: Caches = like.caches.for_copy()
            self._compiler: Compiler = like._compiler
            self.replaying, self.answer_pos, self.max_events = like.replaying, like.answer_pos, like.max_events
            self.spec: ModeSpec = like.spec
            self.index.statics_generation = like.index.statics_generation
            return
        self.caches = Caches()  # every per-state cache, with what invalidates it (core/engine/caches.py)
        # the abilities compiled in play from the catalog alone are the catalog's, shared by its games
        self.caches.keyword_abilities, self.caches.granted_abilities = catalog.compiled_abilities()
        self._compiler = Compiler(catalog.keywords, catalog.effect_types)
        if spec is None:
            modes = catalog.plugins.modes() if catalog.plugins is not None else {}
            spec = modes.get(state.mode)
        # the mode's numbers (487-491); a position built for an unknown mode plays as a plain game
        self.spec = spec or ModeSpec(name=state.mode, players=len(state.players), victory_score=state.victory_score)
        self.index.rebuild(self)

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

    def legal_actions(self) -> list[Action]:
        """The deciding player's legal actions, objects they can't see written as handles;
        ``apply`` accepts exactly these (and a concession, from any player at any time).  The list
        is new, its actions are the game's own until it changes: copy one before editing it."""
        if self.over or self.state.decision is None:
            return []
        return offer.offered(self)

    def apply(self, action: Action | Any) -> None:
        """Apply one action of the deciding player; atomic on illegal input: every check is
        made before the first change (decisions.check), and the action performed is the one
        checked.  Anything is accepted as an argument and refused there (IllegalActionError): so
        typed, the compiled engine (setup.py) doesn't refuse a non-mapping with a TypeError first."""
        if self.over:
            raise GameOverError("the game is over")
        decision = self.state.decision
        if decision is None:
            raise EngineError("no decision is pending")
        checked = decisions.check(self, action)
        self.emit_action(decision.player, checked.action)
        decisions.perform(self, checked)
        loop.run(self)

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
    def from_json(cls, catalog: Catalog, text: str | bytes | Any, replay: bool = True) -> "Game":
        """A saved game, checked before anything is played (core/engine/saves.py): its shape, its
        invariants and, with ``replay``, that its log replays to it; else CorruptStateError (also
        for text that is not text: typed so that the compiled engine refuses it the same way)."""
        return saves.load_game(cls, catalog, text, replay)

    def log_hash(self) -> str:
        """The running SHA-256 of the event log: equal for the same seed and the same decisions."""
        return log_hash(self.log)

    # ------------------------------------------------------------------ the loop (core/engine/loop.py)
    def run(self) -> None:
        """Handle outstanding tasks, cleanups and triggers, then give priority or move on."""
        loop.run(self)

    def ask(self, player: int, prompt: str, options: list[tuple[str, Any]], kind: DecisionKind = "choose") -> Any:
        """A player's choice among options, asked in a guarded step: the answer given for this
        point of the replay, or a pause (NeedDecision) until the player answers.  One option needs
        no decision."""
        return loop.ask(self, player, prompt, options, kind)

    # ------------------------------------------------------------------ events
    def emit(self, etype: str, **fields: Any) -> Event:
        """Record an event and queue the triggered abilities that listen to it."""
        s = self.state
        s.log_count += 1
        return self._logged({"n": s.log_count, "t": etype, **fields})

    def emit_event(self, event: Event) -> Event:
        """``emit`` for an event written out whole, ``{"n": 0, "t": type, ...fields}``: its number is set here
        (its key first, so it reads like every other event).  The engine's frequent events are emitted so:
        compiled (setup.py), ``emit`` makes three dicts of one (the keyword arguments, the event, the merge of
        one into the other), and a call that spreads ``**{...}`` into it ("from", a field only some events
        have) goes through Python's generic call, parsing its arguments anew (about 6,000 instructions)."""
        s = self.state
        s.log_count += 1
        event["n"] = s.log_count
        return self._logged(event)

    def _logged(self, event: Event) -> Event:
        """The event appended to the log; the version bumped; listeners told."""
        etype: str = event["t"]
        self.log.append(event)
        caches = self.caches
        caches.version += 1
        if etype in QUIET_EVENTS:
            caches.quiet_bumps += 1  # kept candidate lists stay valid (core/engine/caches.py)
        elif etype == "lasting" and targeting.plain_might(event.get("kind", ""), event.get("affects"), event.get("effect", {})):
            caches.might_bumps += 1  # only kept lists that read Might are stale
        index = self.index
        if index.listeners.get(etype) or index.grant_sources or etype in triggers.PLAYER_EVENTS \
                or (self.state.lasting and etype in triggers.lasting_events(self)):
            triggers.dispatch(self, event)
        return event

    def emit_action(self, player: int, action: dict[str, Any]) -> None:
        """Log a player's action, so a replay can feed the same decisions back."""
        self.emit_event({"n": 0, "t": "action", "player": player, "action": action})

    def remember(self, kind: str, player: int, obj: int = NOWHERE, code: str = "", loc: int = NOWHERE) -> None:
        """Per-turn history for 'this turn' conditions (Legion, 'if you've discarded ...'): ``code`` a card code
        or a word about it, ``loc`` a location or an amount (``HistoryRow``)."""
        self.state.history.append(history_row((kind, player, obj, code, loc,
                                               PHASE_OF.get(self.state.step, ""))))  # "during your Beginning Phase"

    def record(self, name: str, player: int, value: int) -> None:
        """A number scripts can read later this turn as {type: variable, name: ...}."""
        self.state.history.append(history_row(("var:" + name, player, NOWHERE, "", value, "")))

    @property
    def version(self) -> int:
        """A counter bumped by every change of the state (core/engine/caches.py says which)."""
        return self.caches.version

    def memo(self) -> dict[Any, Any]:
        """A cache valid only while the state is unchanged (every change bumps the version)."""
        caches = self.caches
        if caches.memo_version == caches.version:  # the hit, inline: asked ~15 times an action
            return caches.memo_answers
        return caches.memo()

    def statics_memo(self) -> dict[Any, Any]:
        """A cache valid while the active static abilities (``static_sources``) are unchanged, for
        what depends only on which they are: they change far less often than the state."""
        caches = self.caches
        if caches.statics_memo_generation == self.index.statics_generation:  # the hit, inline: ~20 an action
            return caches.statics_answers
        return caches.statics_memo(self.index.statics_generation)

    def lasting_memo(self) -> dict[Any, Any]:
        """A cache valid while the lasting effects in play and the active static abilities are
        unchanged (core/engine/caches.py: the lasting key), for what depends only on them: a board
        full of "this turn" effects would otherwise be scanned again after every event."""
        lasting, caches = self.state.lasting, self.caches
        if caches.lasting_of is lasting and caches.lasting_len == len(lasting) \
                and caches.lasting_stamp == (self.index.statics_generation, caches.lasting_changes) \
                and (not lasting or caches.lasting_last is lasting[-1]):  # the hit, inline: asked often
            return caches.lasting_answers
        return caches.lasting_memo(lasting, self.index.statics_generation)

    def lasting_only_memo(self) -> dict[Any, Any]:
        """A cache valid while the lasting effects in play are unchanged, whatever the statics (the
        lasting-only key, core/engine/caches.py), for what depends on the lasting effects alone."""
        lasting, caches = self.state.lasting, self.caches
        if caches.lasting_only_of is lasting and caches.lasting_only_len == len(lasting) \
                and caches.lasting_only_changes == caches.lasting_changes \
                and (not lasting or caches.lasting_only_last is lasting[-1]):  # the hit, inline
            return caches.lasting_only_answers
        return caches.lasting_only_memo(lasting)

    def lasting_changed(self) -> None:
        """Invalidate ``lasting_memo``: an entry of the lasting effects changed in place (a new state
        version too: ``memo()`` keeps answers worked out from the lasting memo, ``layers.board_reach``)."""
        self.caches.lasting_changes += 1
        self.caches.version += 1

    def touch(self) -> None:
        """Invalidate ``memo()``: for changes to the state made without an event."""
        self.caches.version += 1

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
        """A new object with the next id, owned and controlled by ``owner``, in ``zone`` (no event).  Its
        code is interned, as the catalog's are (compiler): ``card`` then finds it by identity."""
        s = self.state
        obj = Obj(id=s.next_id, code=intern(code), owner=owner, controller=owner, zone=zone, token=token)
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
            zone = "banished"  # banish_instead_of_trash: not for cards leaving the Main Deck (Endless Riches)
        caches, index = self.caches, self.index
        start, generation = caches.version, index.statics_generation
        from_loc = obj.loc if obj.zone == "board" else None
        self._place(obj, zone, loc, top)
        if index.statics_generation == generation and obj.attached_to == NOWHERE:
            # a located move (core/engine/caches.py): no static ability came or went, nothing attached
            caches.located_bumps += caches.version - start
            moves_at = caches.moves_at
            if from_loc is not None:
                moves_at[from_loc] = moves_at.get(from_loc, 0) + 1
            if obj.zone == "board":
                moves_at[obj.loc] = moves_at.get(obj.loc, 0) + 1

    def _place(self, obj: Obj, zone: str, loc: int, top: bool) -> None:
        """``place`` itself: the lists, the object and the index."""
        oid = obj.id
        old_list = self.zone_list(obj)
        if old_list is not None and oid in old_list:
            old_list.remove(oid)
        if obj.zone == "chain" and zone != "chain":
            self._off_chain(oid)
        was_active = obj.zone in ACTIVE_ZONES
        obj.zone = zone
        obj.loc = loc
        if zone == "facedown":
            obj.timestamp = self.state.log_count  # when it was hidden: its handle is drawn anew (core/engine/observe.py)
        if obj.token and zone not in ("board", "chain", "bfcard"):
            # 185.3.b: a token that leaves the board ceases to exist
            self.index.remove(self, oid)
            obj.zone = "gone"
            self.caches.version += 1
            return
        new_list = self.zone_list(obj)
        if new_list is not None:
            if top:
                new_list.insert(0, oid)
            else:
                new_list.append(oid)
        now_active = zone in ACTIVE_ZONES
        if was_active or now_active or self.defs[obj.code].facts.trigger_zones:
            self.index.remove(self, oid)
            self.index.add(self, oid)
        self.caches.version += 1

    def _off_chain(self, oid: int) -> None:
        """A card an effect moves off the chain takes its item with it: the item does nothing more, as a
        countered one (engine notes, Counter; 340.1: only an item that stays resolves).  Resolving and
        countering take the item off first, so this acts only for other moves ("recycle it" aimed
        at a spell still on the chain), which would otherwise leave the card in two places."""
        chain = self.state.chain
        for item in [i for i in chain if i.kind == "card" and i.obj == oid]:
            chain.remove(item)
            self.emit("left_chain", obj=oid, item=item.id)

    def index_object(self, oid: int) -> None:
        """Index the abilities of an object as they are now, after a change ``place`` does not see: put
        in its zone without ``place`` (setup: a legend, a battlefield), changed to a copy of another
        card, detached (after ``unindex_object`` while it was still what it was)."""
        self.index.add(self, oid)

    def unindex_object(self, oid: int) -> None:
        """Take an object's abilities out of the index, before a change ``place`` does not see (it becomes
        a copy of another card, is set aside) - then ``index_object`` if it stays in play."""
        self.index.remove(self, oid)

    def rebuild_index(self) -> None:
        """Index every object anew (a position built by hand)."""
        self.index.rebuild(self)

    # ------------------------------------------------------------------ abilities
    def keyword_abilities(self, keyword: str, value: Any) -> tuple[Ability, ...]:
        """The compiled abilities of a keyword with a value, for keywords granted by effects;
        compiled once per keyword and value."""
        key = (keyword, json.dumps(value, sort_keys=True) if isinstance(value, (dict, list)) else value)
        cached = self.caches.keyword_abilities.get(key)
        if cached is None:
            card = self._compiler.compile({"code": "KW-000", "name": keyword, "type": "unit",
                                           "keywords": [{keyword: value} if value is not None else keyword]},
                                          "KW", "keyword")
            cached = card.abilities
            self.caches.keyword_abilities[key] = cached
        return cached

    def lasting_ability(self, lasting: Lasting) -> Ability:
        """The compiled ability of a lasting effect that carries one ('this turn, when ...'), compiled once
        per script (by its text: each restore forgets the ids, and the same effect, replayed, compiles the same)."""
        caches = self.caches
        cached = caches.lasting_abilities.get(lasting.id)
        if cached is None:
            key = (lasting.keyword, json.dumps(lasting.body, sort_keys=True))
            cached = caches.lasting_scripts.get(key)
            if cached is None:
                cached = self._compiler.ability(dict(lasting.body), 0, lasting.keyword, None)
                caches.lasting_scripts[key] = cached
            caches.lasting_abilities[lasting.id] = cached
        return cached

    def granted_ability(self, mod: dict[str, Any]) -> Ability:
        """The compiled activated ability of a grant_ability modifier, compiled once per script it
        gives (keyed by the script's text: the modifier may be a lasting effect's, copied by every snapshot)."""
        key = json.dumps(mod["ability"], sort_keys=True)
        cached = self.caches.granted_abilities.get(key)
        if cached is None:
            cached = self._compiler.ability({**mod["ability"], "kind": "activated"}, 0, None, None)
            self.caches.granted_abilities[key] = cached
        return cached

    def active_lasting(self) -> list[Lasting]:
        """Lasting effects still in force ('the next time' effects that were used are spent)."""
        if len(self.state.lasting) < 8:  # a short list is read faster than a memo is looked up
            return [lasting for lasting in self.state.lasting if lasting.uses != 0]
        memo = self.lasting_only_memo()
        found: list[Lasting] | None = memo.get("active_lasting")
        if found is None:
            found = memo["active_lasting"] = [lasting for lasting in self.state.lasting if lasting.uses != 0]
        return list(found)

    def spend_use(self, lasting: Lasting) -> None:
        """A limited-use effect was used once; a spent one stays listed until the turn ends."""
        if lasting.uses > 0:
            lasting.uses -= 1
            self.lasting_changed()

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
        return self.trigger_ability(item.obj, item.ability, item.lasting, item.event)

    def find_lasting(self, lid: int) -> Lasting | None:
        """The lasting effect with this id, if it is still in force."""
        for lasting in self.state.lasting:
            if lasting.id == lid:
                return lasting
        return None

    def trigger_ability(self, oid: int, index: int, lasting: int, event: dict[str, Any] | None) -> Ability:
        """The ability a pending trigger or chain item names, as its object was when the event happened: a
        death's triggers remember the characteristics the card died with (engine notes, Kill), so a unit that
        died as a copy of another card (its copy ends as it leaves the board) triggers and resolves as that
        card - the event names the card (``code``) the object was."""
        if lasting == NOWHERE and event is not None and event.get("obj") == oid:
            code = event.get("code")
            if code is not None and code != self.state.objs[oid].code and code in self.defs:
                return self.defs[code].abilities[index]
        return self.ability_of(oid, index, lasting)

    def ability_of(self, oid: int, index: int, lasting: int = NOWHERE) -> Ability:
        """The ability a pending trigger or chain item names: ``lasting`` (an ``Origin``'s number) says
        whether it is the object's own, a lasting effect's, a granted keyword's or an attached card's
        effect text."""
        if lasting != NOWHERE:  # the object's own ability is the common case: no Origin to decode
            origin = Origin.of(lasting)
            if origin.kind == "effect_text":
                # 435.1.e: an attached card's effect-text ability, acting as the unit's
                return self.defs[self.state.objs[origin.source].code].abilities[index]
            if origin.kind == "static_grant":
                # a keyword's triggered ability granted by a static ability ("other units have [Vision]")
                keyword, value = triggers.granted_keyword(self, origin)
                return self.keyword_abilities(keyword, value)[index]
            found = self.find_lasting(origin.lasting)
            if found is None:
                raise EngineError(f"lasting effect {lasting} is gone")
            if found.kind == "grant":
                return self.keyword_abilities(found.body["keyword"], found.body.get("value"))[index]
            return self.lasting_ability(found)
        own = self.defs[self.state.objs[oid].code].abilities
        if index >= len(own):
            return activation.activated_abilities(self, oid)[index]  # a borrowed ability (Heimerdinger, Inventor)
        return own[index]

    # ------------------------------------------------------------------ chance
    def random_below(self, n: int) -> int:
        """A random number in 0..n-1 from the game's seeded generator (the only source of chance)."""
        self.state.rng, value = rng.below(self.state.rng, n)
        return value

    def shuffle(self, items: list[int]) -> None:
        """Shuffle ``items`` in place with the game's seeded generator."""
        self.state.rng = rng.shuffle(self.state.rng, items)

    # ------------------------------------------------------------------ snapshots (core/engine/loop.py)
    def snapshot(self) -> Snapshot:
        """The state as it is now, to ``restore`` later."""
        return loop.snapshot(self)

    def restore(self, snap: Snapshot, index: IndexCopy | None = None, in_place: bool = False) -> None:
        """Go back to a snapshot (``index``: the dispatch index copied with it; ``in_place``: the state
        being left is this game's own, see ``loop.restore``)."""
        loop.restore(self, snap, index, in_place)

    def state_replaced(self, lasting_kept: frozenset[int] | None = None) -> None:
        """Forget what was worked out from the state being left (a restore): characteristics, and the
        compiled abilities of lasting effects, which are numbered by the clock, so another line of play
        may reuse a number.  ``lasting_kept``: the ids of the lasting effects, when the game kept its own
        (``loop._installed``)."""
        self.caches.state_replaced(lasting_kept)

    def copy(self) -> "Game":
        """An independent game in the same state, for agents that look ahead (search): the state is
        copied by the snapshot machinery (no JSON), the log is copied, compiled scripts are shared."""
        other = Game(self.catalog, self.state, list(self.log), like=self)
        other.restore(self.snapshot(), self.index.copy())
        return other

    def fresh_copy(self) -> "Game":
        """An independent game in the same state with every cache empty and its dispatch index
        built anew from the objects: what the caches are checked against (core/engine/invariants.py)."""
        other = self.copy()
        other.index.rebuild(other)
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
        objs, defs = self.state.objs, self.defs
        return [i for i in ids if defs[objs[i].code].type == "unit" and objs[i].attached_to == NOWHERE]

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
