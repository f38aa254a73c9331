"""The run loop: what the game does between two decisions, and how a step that asks a player is paused
and replayed.

``run`` handles, in order, the queued tasks (``GameState.tasks``), cleanups, pending triggers and
priority, and otherwise advances the turn, until a player must decide or the game is over.

**Guarded steps.**  A step that may ask a player (``ask``: "choose one", "you may", whom to give a
burn-out point) runs *guarded*: a copy of the state is kept first (``keep``); when the step asks a
question the game has no answer for, ``NeedDecision`` is raised, the state is rewound to the copy
(``rewind``) and the question becomes the pending decision.  Once the player answers, the step is
replayed from the start with the answers given so far (``GameState.answers``), so a paused step is
plain data.  A step no rule lets ask runs *unguarded* (no copy: the common, fast case) and asking
there is an engine error.  Every rule for which steps may ask is here:

- a queued task (``task_may_ask``): resolving a spell or ability whose script may decide
  (``Ability.decides``, worked out by the compiler) or while an optional replacement could apply;
  a showdown's or combat's end while an optional replacement could apply;
- a cleanup (``cleanup_may_ask``): while an optional replacement could apply ("you may pay ... instead");
- advancing the turn (``advance_may_ask``): a Draw Phase that may burn a player out;
- and in all three, with three or more players, a burn-out (``burn_out_may_ask``, 432.2.c).

Tasks are named work the rules leave for later: ``resolve`` (the chain's top item), ``showdown_end``,
``combat_damage``, ``combat_cleanup``, ``kill_cost`` (deaths paying a cost that a replacement may
ask about), and the setup tasks (``mulligan``, ``battlefield``,
``reveal_battlefields``, ``turn_order``, ``opening_hands``); ``run_task`` says which module runs each.
"""
from __future__ import annotations

import copyreg
import dataclasses
import io
import itertools
import operator
import pickle
from typing import TYPE_CHECKING, Any, Callable, Final

from . import chain, cleanup, combat, loop_draw, setup, triggers, turn, verbs
from ..errors import EngineError, NeedDecision
from .state import history_row, Battlefield, ChainItem, Decision, DecisionKind, GameState, TaskName, Lasting, Obj, PendingTrigger, Player, Showdown, \
    COMPILED, ObjValues, copy_state, obj_clone, obj_from_values, obj_same, obj_values
from .trigger_index import IndexCopy

if TYPE_CHECKING:
    from .game import Game

Snapshot = tuple[bytes, list[int], list[ObjValues]]


# ---------------------------------------------------------------------- the loop
def run(g: "Game") -> None:
    """Handle outstanding tasks, cleanups and triggers, then give priority or move on."""
    while g.state.decision is None and g.state.winners is None:
        s = g.state
        if s.log_count - s.loop_guard > g.max_events:
            loop_draw.settle_runaway(g)
            continue
        if s.tasks:
            task = s.tasks[-1]
            if task_may_ask(g, task):
                guarded(g, lambda: run_task(g, g.state.tasks.pop()))
                continue
            g.answer_pos = 0  # unguarded (inline: the common case, several times an action)
            try:
                run_task(g, s.tasks.pop())
            except NeedDecision as need:
                raise asked_unguarded(need) from None
            continue
        if s.needs_cleanup:
            if cleanup_may_ask(g):
                guarded(g, lambda: cleanup.cleanup(g))
                continue
            g.answer_pos = 0  # unguarded, inline
            try:
                cleanup.cleanup(g)
            except NeedDecision as need:
                raise asked_unguarded(need) from None
            continue
        if s.pending_triggers:
            triggers.put_on_chain(g)
            continue
        if chain.offer_priority(g):
            continue
        if advance_may_ask(g):
            guarded(g, lambda: turn.advance(g))  # the Draw Phase may burn out (432.2.c)
        else:
            turn.advance(g)


def run_task(g: "Game", task: list[Any]) -> None:
    """Run one queued task (popped by the caller): ``[name, *arguments]``, the name a ``TaskName``."""
    name: TaskName = task[0]
    if name == "resolve":
        chain.resolve_top(g)
    elif name == "showdown_end":
        combat.showdown_end(g)
    elif name == "combat_damage":
        combat.damage_step(g)
    elif name == "combat_cleanup":
        combat.combat_cleanup(g, int(task[1]))
    elif name == "kill_cost":
        # units killed to pay a cost whose death a replacement that asks could save (playing.kill_cost)
        verbs.kill(g, [int(v) for v in task[3:]], source=int(task[1]), by="cost", killer=int(task[2]))
    elif name == "mulligan":
        setup.ask_mulligan(g, int(task[1]))
    elif name in ("battlefield", "reveal_battlefields", "turn_order", "opening_hands"):
        setup.run_task(g, task)  # 488.5: chosen battlefields, then the turn order, then hands
    else:
        raise EngineError(f"unknown task {name!r}")


# ---------------------------------------------------------------------- may this step ask a player?
def task_may_ask(g: "Game", task: list[Any]) -> bool:
    """Whether a queued task could need a player's answer mid-way (then it runs guarded)."""
    if task[0] == "resolve":
        item = g.state.chain[-1] if g.state.chain else None
        if item is None:
            asks = False
        elif item.kind == "card":
            asks = any(a.decides for a in g.card(item.obj).abilities if a.kind == "spell") or optional_replacements(g)
        else:
            ability = g.item_ability(item) if item.ability >= 0 else None
            asks = ability is not None and (ability.decides or optional_replacements(g))
    elif task[0] == "kill_cost":
        asks = True  # queued only when a replacement that asks applies (playing.kill_cost)
    else:
        asks = task[0] in ("combat_cleanup", "showdown_end") and optional_replacements(g)
    return asks or (len(g.state.players) > 2 and burn_out_may_ask(g))


def cleanup_may_ask(g: "Game") -> bool:
    """Whether a cleanup could need a player's answer: an optional replacement of a death, or a burn-out."""
    return optional_replacements(g) or (len(g.state.players) > 2 and burn_out_may_ask(g))


def advance_may_ask(g: "Game") -> bool:
    """Whether advancing the turn could need a player's answer: a Draw Phase that burns a player out."""
    return len(g.state.players) > 2 and burn_out_may_ask(g)


def burn_out_may_ask(g: "Game") -> bool:
    """Whether a burn-out could ask whom to give the point (432.2.c: the burning player chooses an
    opponent): with opponents in two or more teams and a main deck running low, steps that may draw
    run guarded, so the question can pause the game.  Ten cards is more than any step draws."""
    s = g.state
    if len(s.players) < 3:
        return False  # Duel and Match: a single opponent, nothing to choose
    live = [p for p in s.players if not p.conceded]
    return len({p.team for p in live}) > 2 and any(len(p.main_deck) < 10 for p in live)


def optional_replacements(g: "Game") -> bool:
    """Whether a replacement effect that asks its controller could apply now."""
    for key, table in g.index.listeners.items():
        if key.startswith("replace:"):
            for (oid, index) in table:
                body = g.defs[g.state.objs[oid].code].abilities[index].body
                if body.get("optional") or body.get("cost"):
                    return True
    if not g.state.lasting:
        return False
    memo = g.lasting_only_memo()
    found: bool | None = memo.get("optional_lasting_replacements")
    if found is None:
        found = memo["optional_lasting_replacements"] = any(
            l.kind == "replacement" and bool(l.body.get("optional") or l.body.get("cost")) for l in g.state.lasting)
    return found


# ---------------------------------------------------------------------- guarded steps and answers
def guarded(g: "Game", step: Callable[[], None]) -> None:
    """Run a step that may ask a player; if it does, rewind it and wait for the answer.

    The step is replayed from the state kept before it with all answers given so far, so the paused
    step is plain data (the task stays on the stack and the answers are in the state).
    """
    kept = keep(g)
    index, edits = g.index.copy(), g.index.edits
    since = len(g.log)
    g.answer_pos = 0
    try:
        step()
    except NeedDecision as need:
        answers = list(g.state.answers)
        shown = shown_before(g, since, need.decision.player)
        if shown:
            need.decision.context["shown"] = shown
        # an index nothing edited since the copy is the copy's: kept, with the statics' answers
        rewind(g, kept, index, index_kept=g.index.edits == edits)
        g.state.answers = answers
        need.decision.context["replay"] = True
        g.state.decision = need.decision
        return
    g.state.answers = []


# What a step shows a player before it asks them (events rewound with the step, so kept with the question)
_SHOWING: Final = frozenset({"reveal_hand", "reveal", "looked_at"})


def shown_before(g: "Game", since: int, player: int) -> list[dict[str, Any]]:
    """The cards the step being rewound revealed, and those it let ``player`` look at, from log
    position ``since``: the player decides knowing them ("reveal their hand, choose a unit from it":
    Bone Skewer; "look at the top three, draw one").  Their events are rewound with the step and
    logged once it is replayed, so the decision keeps them, as codes (an id would tell a hidden
    card: core/engine/observe.py); a card another player looked at is not among them."""
    shown: list[dict[str, Any]] = []
    for event in g.log[since:]:
        kind = event["t"]
        if kind not in _SHOWING:
            continue
        if kind == "reveal_hand":
            shown.append({"t": kind, "player": event["player"], "cards": list(event["cards"])})
        elif kind == "reveal":
            shown.append({"t": kind, "player": event["player"], "cards": [event["code"]]})
        elif event["player"] == player:
            shown.append({"t": kind, "player": event["owner"], "cards": [g.state.objs[event["obj"]].code]})
    return shown


def asked_unguarded(need: NeedDecision) -> EngineError:
    """The error for an unguarded step (run without a snapshot, inline in ``run``) that asked a player
    all the same: no rule lets it, so that is an engine bug."""
    return EngineError(f"a step that was not expected to ask a player asked: {need.decision.prompt}")


def ask(g: "Game", player: int, prompt: str, options: list[tuple[str, Any]], kind: DecisionKind = "choose") -> Any:
    """A player's choice among options, asked in a guarded step: the answer given for this point of
    the replay, or a pause (NeedDecision) until the player answers.  One option needs no decision."""
    if len(options) == 1:
        return options[0][1]
    if not options:
        raise EngineError(f"no options for: {prompt}")
    if g.answer_pos < len(g.state.answers):
        answer = g.state.answers[g.answer_pos]
        g.answer_pos += 1
        for _, value in options:
            if value == answer:
                return value
        raise EngineError(f"recorded answer {answer!r} is not an option of {prompt!r}")
    raise NeedDecision(Decision(kind=kind, player=player, prompt=prompt,
                                options=[{"label": label, "value": value} for label, value in options]))


# ---------------------------------------------------------------------- snapshots
# The state's records, pickled as ``(_record, (tag, fields))``: one global for the pickle to name (once per
# snapshot) instead of each record's class (a module and name lookup each); their fields in order, read
# at C speed, are about twice as fast both ways as the default for slotted dataclasses, and the same copy.
_RECORDS: tuple[type, ...] = (GameState, Player, Battlefield, ChainItem, PendingTrigger, Showdown, Lasting, Decision)


def _record(tag: int, fields: tuple[Any, ...]) -> Any:
    """A state record from its tag (its class's place in ``_RECORDS``) and its fields in order."""
    return _RECORDS[tag](*fields)


def _fields_reducer(tag: int) -> Callable[[Any], tuple[Callable[..., Any], tuple[int, tuple[Any, ...]]]]:
    values = operator.attrgetter(*(f.name for f in dataclasses.fields(_RECORDS[tag])))

    def reduce(record: Any) -> tuple[Callable[..., Any], tuple[int, tuple[Any, ...]]]:
        return _record, (tag, values(record))
    return reduce


_SNAPSHOT_REDUCERS: dict[type, Any] = {
    **copyreg.dispatch_table, **{cls: _fields_reducer(tag) for tag, cls in enumerate(_RECORDS)}}


def snapshot(g: "Game") -> Snapshot:
    """The state as it is now.  Objects are held only in ``objs`` and are flat records of
    immutable values, so they are kept as tuples of their fields (several times faster than
    pickling them); the rest is pickled, the history rows as plain tuples (a NamedTuple pickles
    through a Python call per row each way)."""
    s = g.state
    objs, history = s.objs, s.history
    s.objs = {}
    rows: list[tuple[Any, ...]] = list(map(tuple, history))
    s.history = rows  # type: ignore[assignment]  # HistoryRows again in restore
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _SNAPSHOT_REDUCERS
    try:
        pickler.dump((s, len(g.log)))
    finally:
        s.objs, s.history = objs, history
    return buffer.getvalue(), list(objs), [obj_values(obj) for obj in objs.values()]


def restore(g: "Game", snap: Snapshot, index: IndexCopy | None = None, in_place: bool = False,
            index_kept: bool = False) -> None:
    """Go back to a snapshot; ``index``, the dispatch index copied when it was taken, saves
    rebuilding the index.  ``in_place``: the state being left is this game's own and is dropped
    (a guarded step rewound), so its objects that still have the snapshot's values are kept
    instead of rebuilt - never for a state another game shares (``Game.copy``)."""
    rest, ids, values = snap
    state, log_len = pickle.loads(rest)
    state.history = list(map(history_row, state.history))
    _put_back(g, state, log_len, ids, values, index, in_place, index_kept)


# What a guarded step keeps in case it is rewound: a copy of the state without its objects
# (``state.copy_state``), the log's length, and the objects - compiled, as copies (``obj_clone``: native
# records copied field to field); pure Python, as ids and ``obj_values`` tuples (a Python constructor call
# per object would cost more than the tuples)
Kept = tuple[GameState, int, dict[int, Obj] | None, list[int], list[ObjValues]]
CLONE_OBJECTS: bool = COMPILED  # tests/test_state_copy.py plays games both ways


def keep(g: "Game") -> Kept:
    """The state before a guarded step, for ``rewind``: used at most once, so copied record by record
    (a snapshot is pickled, to be restored any number of times: about three times the work).

    Compiled, the objects are kept as copies, and the copies the step before kept serve again where
    they still have the object's values (``Caches.kept_objs``): a step that asks is played twice (asked,
    rewound, replayed with the answer), and the replay finds every object as the first run kept it (most
    steps ask before they change any), so it keeps the very same copies; another step copies only the
    objects that changed since."""
    s = g.state
    objs = s.objs
    if CLONE_OBJECTS:
        caches = g.caches
        spare = caches.kept_list  # the kept copies in the order of the objects they were kept from
        n = len(spare)
        if n == len(objs):
            # the same number of objects, so the same ids in the same order if the copies are of this game's
            # objects (none is ever removed from ``objs``): the last copies again, only the changed ones new
            # (the dict and list made at the first change; with none, the very same copies)
            changed: dict[int, Obj] | None = None
            copies = spare
            i = 0
            # the values alone (an object's id is its key): compiled, no (key, value) pair made per object
            for obj in objs.values():
                old = spare[i]
                if old.id != obj.id:
                    break  # copies of another state's objects (a snapshot restored since)
                if not obj_same(old, obj):
                    if changed is None:
                        changed, copies = caches.kept_objs.copy(), list(spare)
                    copied = obj_clone(obj)
                    changed[obj.id] = copied
                    copies[i] = copied
                i += 1
            else:
                if changed is None:
                    return copy_state(s), len(g.log), caches.kept_objs, [], []
                caches.kept_objs, caches.kept_list = changed, copies
                return copy_state(s), len(g.log), changed, [], []
        # the copy of the dict first, then each value replaced: one table of the right size, where a
        # comprehension would grow one through five resizes for a game's ~120 objects
        clones = objs.copy()
        copies = []
        i = 0
        for oid, obj in objs.items():
            previous = spare[i] if i < n else None
            kept_copy = previous if previous is not None and obj_same(previous, obj) else obj_clone(obj)
            clones[oid] = kept_copy
            copies.append(kept_copy)
            i += 1
        caches.kept_objs, caches.kept_list = clones, copies
        return copy_state(s), len(g.log), clones, [], []
    return copy_state(s), len(g.log), None, list(objs), [obj_values(obj) for obj in objs.values()]


def kept_copies_in_play(g: "Game") -> list[int]:
    """The ids whose kept copy (``Caches.kept_objs``) is the game's own object: none, or the next keep could
    hand out a copy the game changed (``invariants.cache_problems`` reports any)."""
    return [oid for oid, copied in g.caches.kept_objs.items() if g.state.objs.get(oid) is copied]


def rewind(g: "Game", kept: Kept, index: IndexCopy, index_kept: bool) -> None:
    """Go back to the state ``keep`` kept, which the game then owns, keeping the objects that still have
    the kept values (most: a step usually asks before it changes any) and putting back the others -
    compiled, as new copies of the kept ones, which stay unchanged for the next ``keep``; pure Python,
    rebuilt from the kept values."""
    state, log_len, clones, ids, values = kept
    if clones is None:
        _put_back(g, state, log_len, ids, values, index, True, index_kept)
        return
    live = g.state.objs
    # the kept copies in order: the list keep made with them, when they are still the last kept
    copies = g.caches.kept_list if clones is g.caches.kept_objs else list(clones.values())
    objs = _put_back_changed(live, copies) if len(live) == len(copies) else None
    if objs is None:
        objs = clones.copy()
        for oid, copied in clones.items():
            found = live.get(oid)
            objs[oid] = found if found is not None and obj_same(found, copied) else obj_clone(copied)
    state.objs = objs
    _installed(g, state, log_len, index, index_kept, True)


def _put_back_changed(live: dict[int, Obj], copies: list[Obj]) -> dict[int, Obj] | None:
    """``rewind``'s objects when no object was made since the keep: none is ever removed from ``objs``, so
    the same ids in the same order; the live objects are walked in lock-step with their copies (no lookup
    by id) and only the changed ones put back.  None if the ids don't line up after all."""
    objs = live.copy()
    i = 0
    for obj in live.values():  # an object's id is its key (as in ``keep``)
        copied = copies[i]
        if copied.id != obj.id:
            return None
        if not obj_same(obj, copied):
            objs[obj.id] = obj_clone(copied)
        i += 1
    return objs


def _put_back(g: "Game", state: GameState, log_len: int, ids: list[int], values: list[ObjValues],
              index: IndexCopy | None, in_place: bool, index_kept: bool) -> None:
    if in_place:
        old = g.state.objs
        objs: dict[int, Obj] = {}
        for oid, fields in zip(ids, values):
            obj = old.get(oid)
            objs[oid] = obj if obj is not None and obj_values(obj) == fields else obj_from_values(fields)
        state.objs = objs
    elif COMPILED:
        state.objs = {oid: obj_from_values(fields) for oid, fields in zip(ids, values)}
    else:  # pure Python: every object made in C (state.py, ``COMPILED``)
        state.objs = dict(zip(ids, itertools.starmap(Obj, values)))
    _installed(g, state, log_len, index, index_kept, in_place)


def _installed(g: "Game", state: GameState, log_len: int, index: IndexCopy | None, index_kept: bool,
               in_place: bool) -> None:
    """Make ``state`` (its objects in place) the game's, the log cut back to ``log_len``, and the dispatch
    index the one copied with it (or rebuilt).  In place, the lasting effects being left are kept when they
    have the values of those put back (most steps that ask create or end none before they do), like the
    objects: then what was worked out from them alone stays valid (``Caches.state_replaced``)."""
    live = g.state.lasting
    kept = in_place and live is not state.lasting and live == state.lasting
    if kept:
        state.lasting = live
    g.state = state
    del g.log[log_len:]
    g.state_replaced(frozenset(lasting.id for lasting in live) if kept else None)
    if index_kept:
        return
    if index is None:
        g.index.rebuild(g)
    else:
        g.index.put_back(index)
