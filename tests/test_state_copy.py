"""The copy a guarded step keeps (``state.copy_state``, core/engine/loop.py ``keep``/``rewind``) is the
state as it was: every field of every record, nothing mutable shared with the original, and what the
state shares shared in the copy too (as the pickled snapshots it replaces kept it)."""
from __future__ import annotations

import dataclasses
import pickle
import types
import typing
from typing import Any, Callable

from functools import lru_cache

import pytest

from riftscript.core.engine import loop
from riftscript.core.engine.game import Game
from riftscript.core.engine.state import (COMPILED, ChainItem, Decision, GameState, HistoryRow, Lasting, Obj, obj_from_values, obj_same, obj_values,
                                          PendingTrigger, copy_state, obj_clone)
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.plugins.agents import RandomAgent


# Against a compiled install these tests can't see what they check: a compiled record's annotations lose
# their element types (the sampler can't fill a bare ``list``), and the kernel calls ``keep`` and ``rewind``
# natively, past the wrappers patched in.  They check the source the compiled module is built from;
# ``benchmarks/equivalence.py HEAD HEAD --pure-base`` proves the compiled engine plays the same games.
pytestmark = pytest.mark.skipif(COMPILED, reason="checks the pure-Python source of the state copy (see above)")


@lru_cache(maxsize=1)
def cat() -> Catalog:
    return load_catalog()


def _sample(hint: Any, depth: int = 0) -> Any:
    """A value of the type ``hint`` unlike any default: every field set, nested containers filled."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is bool:
        return True
    if hint is int:
        return 41 + depth
    if hint is str:
        return f"s{depth}"
    if hint is Any:
        return {"a": [1, {"b": "c"}], "d": (2, 3)}
    if hint is HistoryRow:
        return HistoryRow("played", 1, 2, "X", 3, "main")
    if origin is typing.Literal:
        return args[-1]
    if origin in (typing.Union, types.UnionType):
        return _sample(next(a for a in args if a is not type(None)), depth)
    if origin is list:
        return [_sample(args[0], depth + 1), _sample(args[0], depth + 2)]
    if origin is dict:
        return {_sample(args[0], depth + 1): _sample(args[1], depth + 1)}
    if dataclasses.is_dataclass(hint):
        return _record(hint, depth + 1)
    raise AssertionError(f"no sample for {hint!r}: teach _sample the type")


def _record(cls: Any, depth: int = 0) -> Any:
    hints = typing.get_type_hints(cls)
    return cls(**{f.name: _sample(hints[f.name], depth) for f in dataclasses.fields(cls) if f.name != "objs"} |
               ({"objs": {}} if cls is GameState else {}))


def _containers(value: Any, seen: dict[int, Any]) -> dict[int, Any]:
    """Every mutable container reachable from ``value``, by id."""
    if isinstance(value, (list, dict, set)) or dataclasses.is_dataclass(value):
        if id(value) in seen:
            return seen
        seen[id(value)] = value
    if isinstance(value, dict):
        for k, v in value.items():
            _containers(v, seen)
    elif isinstance(value, (list, tuple, set)):
        for v in value:
            _containers(v, seen)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            _containers(getattr(value, f.name), seen)
    return seen


def test_every_field_of_every_record_is_copied_and_nothing_mutable_is_shared() -> None:
    state = _record(GameState)
    copied = copy_state(state)
    assert copied == state  # a field the copy forgot would have its default here
    shared = set(_containers(state, {})) & set(_containers(copied, {}))
    assert not shared, [type(_containers(state, {})[i]).__name__ for i in shared]


def test_an_object_copy_has_every_field() -> None:
    obj = _record(Obj)
    copied = obj_clone(obj)
    assert copied == obj and copied is not obj


def test_what_the_state_shares_stays_shared_in_the_copy() -> None:
    """Two triggers of one event share it; two lasting effects made from one script share pieces."""
    state = _record(GameState)
    event = {"t": "played", "obj": 3}
    piece = {"type": "might", "amount": 2}
    state.chain = [ChainItem(1, "trigger", 0, 3, event=event), ChainItem(2, "trigger", 0, 4, event=event)]
    state.pending_triggers = [PendingTrigger(5, 0, 1, event)]
    state.lasting = [Lasting(1, "static", 3, "X", 0, {"modifiers": [piece]}, "turn"),
                     Lasting(2, "static", 4, "Y", 0, {"modifiers": [piece]}, "turn")]
    state.decision = Decision("choose", 0, "?")
    copied = copy_state(state)
    assert copied.chain[0].event is copied.chain[1].event is copied.pending_triggers[0].event
    assert copied.chain[0].event is not event and copied.chain[0].event == event
    assert copied.lasting[0].body["modifiers"][0] is copied.lasting[1].body["modifiers"][0]
    assert copied.lasting[0].body is not copied.lasting[1].body


def _stripped(state: GameState) -> bytes:
    objs, history = state.objs, state.history
    state.objs, state.history = {}, [tuple(h) for h in history]  # type: ignore[misc]
    try:
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        state.objs, state.history = objs, history


def _play_out(game: Game, seed: int, holds: Callable[[Game], bool] | None = None) -> Game:
    """The game played to its end by two random agents (seeded from ``seed``); ``holds``, if given, must be
    true after every action."""
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    while not game.over:
        decision = game.pending_decision()
        assert decision is not None
        game.apply(agents[decision.player].choose(game, game.legal_actions()))
        assert holds is None or holds(game)
    return game


def test_the_copy_pickles_as_the_state_at_every_guarded_step_of_played_games(monkeypatch: Any) -> None:
    """Equal pickles: the same values and the same sharing (a pickle writes a shared value once)."""
    checked: list[bool] = []
    real_keep = loop.keep

    def keep(g: Game) -> loop.Kept:
        kept = real_keep(g)
        checked.append(_stripped(kept[0]) == _stripped(g.state))
        return kept
    monkeypatch.setattr(loop, "keep", keep)
    decks = sorted(cat().decks)
    for seed in range(4):
        _play_out(Game.new(cat(), [decks[seed], decks[-1 - seed]], seed=seed), seed)
    assert len(checked) > 20 and all(checked), (len(checked), checked.count(False))


def test_a_guarded_step_plays_the_same_with_the_objects_kept_as_copies_or_as_values(monkeypatch: Any) -> None:
    """The compiled engine keeps the board's objects as copies (``obj_clone``), the pure one as value
    tuples (``loop.CLONE_OBJECTS``): both rewind a step that asked to the same game, event for event."""
    decks = sorted(cat().decks)

    def play(clone: bool, seed: int) -> tuple[str, int]:
        monkeypatch.setattr(loop, "CLONE_OBJECTS", clone)
        game = _play_out(Game.new(cat(), [decks[seed % len(decks)], decks[(seed + 3) % len(decks)]], seed=seed), seed)
        return game.log_hash(), sum(1 for e in game.log if e["t"] == "action")

    rewound = 0
    real_rewind = loop.rewind

    def counting(*args: Any, **kwargs: Any) -> None:
        nonlocal rewound
        rewound += 1
        real_rewind(*args, **kwargs)
    monkeypatch.setattr(loop, "rewind", counting)
    for seed in range(3):
        assert play(True, seed) == play(False, seed)
    assert rewound > 10  # steps that asked were rewound, both ways


def test_obj_same_sees_a_difference_in_any_one_field() -> None:
    """A guarded step reuses a kept copy of an object when ``obj_same`` finds it has the object's values:
    a field the comparison missed would put back a stale value when a step is rewound."""
    values = obj_values(Obj(7, "OGN-001", 0, 1, "board", 3, True, 2, 1, True, 9, True, "attacker", 5, 4, 2, 6, 1))
    assert obj_same(obj_from_values(values), obj_from_values(values))
    assert len(values) == len(Obj.__init__.__code__.co_varnames[1:Obj.__init__.__code__.co_argcount])
    for i, value in enumerate(values):
        changed = (value + 1 if isinstance(value, int) and not isinstance(value, bool) else
                   not value if isinstance(value, bool) else value + "x")
        other = obj_from_values(values[:i] + (changed,) + values[i + 1:])  # type: ignore[arg-type]
        assert not obj_same(obj_from_values(values), other), f"field {i} ({value!r} -> {changed!r}) not compared"


def test_guarded_steps_reuse_their_kept_copies_and_never_make_one_the_games_own(monkeypatch: Any) -> None:
    """With the objects kept as copies (compiled), a step that asks is kept, rewound and replayed: the
    replay's keep takes the first run's copies again where the objects are unchanged, and a rewind puts
    back new copies of the kept ones, so a kept copy is never an object the game changes."""
    monkeypatch.setattr(loop, "CLONE_OBJECTS", True)
    reused: list[int] = []
    rewound: list[int] = []
    real_keep, real_rewind = loop.keep, loop.rewind

    def keep(g: Game) -> loop.Kept:
        before = dict(g.caches.kept_objs)
        kept = real_keep(g)
        assert kept[2] is not None
        reused.append(sum(1 for oid, copied in kept[2].items() if before.get(oid) is copied))
        return kept

    def rewind(g: Game, kept: loop.Kept, *args: Any, **kwargs: Any) -> None:
        real_rewind(g, kept, *args, **kwargs)
        assert kept[2] is not None
        rewound.append(sum(1 for oid, copied in kept[2].items() if g.state.objs.get(oid) is copied))
    monkeypatch.setattr(loop, "keep", keep)
    monkeypatch.setattr(loop, "rewind", rewind)
    decks = sorted(cat().decks)
    for seed in range(3):
        _play_out(Game.new(cat(), [decks[seed], decks[-1 - seed]], seed=seed), seed,
                  lambda game: loop.kept_copies_in_play(game) == [])
    assert len(rewound) > 5 and not any(rewound)  # steps asked and were rewound; no kept copy went live
    assert sum(reused) > 50 * len(reused)  # most objects' copies served again


def test_a_rewind_puts_back_a_changed_object_as_a_new_copy_and_keeps_the_unchanged_ones(monkeypatch: Any) -> None:
    """The kept copy of an object a step changed stays a kept copy (the next keep may hand it out): the
    game gets a new copy with the kept values; an unchanged object stays the very object it was."""
    monkeypatch.setattr(loop, "CLONE_OBJECTS", True)
    decks = sorted(cat().decks)
    game = Game.new(cat(), [decks[0], decks[1]], seed=1)
    unit, other = list(game.state.objs)[:2]
    before = obj_values(game.state.objs[unit])
    untouched = game.state.objs[other]
    kept = loop.keep(game)
    game.state.objs[unit].damage += 3
    game.state.objs[unit].zone = "trash"
    loop.rewind(game, kept, game.index.copy(), index_kept=True)
    assert kept[2] is not None and game.state.objs[unit] is not kept[2][unit]
    assert obj_values(game.state.objs[unit]) == before and obj_values(kept[2][unit]) == before
    assert game.state.objs[other] is untouched


@pytest.mark.parametrize("clone", [True, False])
def test_a_rewound_step_keeps_the_games_lasting_effects_when_it_changed_none(monkeypatch: Any, clone: bool) -> None:
    """A guarded step that asks before it creates, ends or changes a lasting effect (most) is rewound to
    lasting effects with the values it started from: the game keeps its own list and entries, and with
    them what was worked out from them alone (``Game.lasting_memo``, ``loop._installed``).  One that
    changed an effect before asking gets the kept copies back, and a new lasting key."""
    from riftscript.core.engine.builder import Builder
    monkeypatch.setattr(loop, "CLONE_OBJECTS", clone)
    b = Builder(cat())
    unit = b.add(0, "OGN-003")
    b.modify_might(unit, 2)  # a lasting effect "this turn"
    g, ids = b.build()
    before, entry = g.state.lasting, g.state.lasting[0]
    g.lasting_memo()["probe"] = True

    def asks() -> None:
        g.ask(0, "which?", [("one", 1), ("two", 2)])
    loop.guarded(g, asks)
    assert g.state.decision is not None and g.state.decision.prompt == "which?"
    assert g.state.lasting is before and g.state.lasting[0] is entry and g.lasting_memo().get("probe")

    g.state.decision = None
    uses = entry.uses

    def changes_then_asks() -> None:
        g.state.lasting[0].uses = uses + 3
        g.ask(0, "which?", [("one", 1), ("two", 2)])
    loop.guarded(g, changes_then_asks)
    assert g.state.lasting is not before and g.state.lasting[0] is not entry and g.state.lasting[0].uses == uses
    assert "probe" not in g.lasting_memo()
