"""What crosses the API boundary of actions: their closed shape, and the list offered to a player.

``Game.legal_actions()`` is the list *offered* to the deciding player: the engine's list with every
object that player can't see written as its handle (core/engine/observe.py).  ``Game.apply`` accepts an
action only if it has the closed shape of its type (``schemas/action.schema.json``) and is one of
the offered actions, compared with JSON types (``1`` is not ``1.0`` nor ``true``).  The offered
list is remembered until the game changes (``Game.version``, core/engine/caches.py), so the usual loop - list, choose,
apply - compares against the list it was given instead of listing again.

Mutually recursive with ``decisions`` (a genuine pair): the offered list is built from
``decisions.legal_actions``, and ``decisions.check`` asks here whether an action is offered.
"""
from __future__ import annotations

import reprlib

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any, cast, Final, Mapping, TYPE_CHECKING

from jsonschema import Draft202012Validator

from . import activation, chain, decisions, observe, targeting
from ..errors import IllegalActionError
from ..script.schema_fastpath import Check
from .state import Decision

from .vocabulary import Action, EngineAction  # an action as it crosses the API (a TypedDict), and inside

if TYPE_CHECKING:
    from .decisions import ActionType
    from .game import Game

MAX_DEPTH: Final = 8  # no field of an action nests deeper (targets: 2)
# the offered list as it was made: (game version, the decision it answers, the list)
OfferCache = tuple[int, Any, list[Action]]


@lru_cache(maxsize=None)
def action_schema() -> dict[str, Any]:
    text = resources.files("riftscript.schemas").joinpath("action.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


class Shape:
    """One action type's shape: the keys it requires, and a check for the value of each key it allows but
    "type".  A plain class: compiled, its fields are read natively (a tuple's unpacking iterates it)."""

    def __init__(self, required: tuple[str, ...], checks: dict[str, Check]) -> None:
        self.required = required
        self.checks = checks


_SHAPES: Final[dict[Any, Shape]] = {}


def _shapes() -> dict[str, Shape]:
    """Per action type, from the schema: the keys required and a check for each key's value.

    The checks are compiled for the few schema forms the action schema uses, with the engine's
    integers (a JSON integer written without a fraction, not a boolean): a yes/no answer in a few
    microseconds, since ``apply`` is a hot path.  jsonschema words the refusals."""
    if _SHAPES:
        return _SHAPES
    out: dict[str, Shape] = {}
    for variant in action_schema()["allOf"]:
        name = variant["if"]["properties"]["type"]["const"]
        then = variant["then"]
        props = then["properties"]
        out[name] = Shape(tuple(then["required"]), {key: _strict(sub) for key, sub in props.items() if key != "type"})
    _SHAPES.update(out)
    return _SHAPES


def _strict(schema: dict[str, Any]) -> Check:
    """A yes/no check of one value against the schema forms of action.schema.json."""
    if "anyOf" in schema:
        first, *rest = [_strict(s) for s in schema["anyOf"]]
        return lambda x: first(x) or any(o(x) for o in rest)
    kind = schema.get("type")
    if kind == "integer":
        low, high = schema.get("minimum", -(2 ** 63)), schema.get("maximum", 2 ** 63)
        return lambda x: type(x) is int and low <= x <= high
    if kind == "string":
        pattern = re.compile(schema["pattern"]) if "pattern" in schema else None
        longest = schema.get("maxLength", 10 ** 6)
        return lambda x: type(x) is str and len(x) <= longest and (pattern is None or pattern.fullmatch(x) is not None)
    if kind == "array":
        item = _strict(schema.get("items", {}))
        fewest, most = schema.get("minItems", 0), schema.get("maxItems", 10 ** 6)

        def array(x: Any) -> bool:
            if type(x) is not list or not fewest <= len(x) <= most:
                return False
            for v in x:
                if not item(v):
                    return False
            return True
        return array
    if kind == "object":
        props = {k: _strict(v) for k, v in schema.get("properties", {}).items()}
        patterns = [(re.compile(p), _strict(v)) for p, v in schema.get("patternProperties", {}).items()]
        most = schema.get("maxProperties", 10 ** 6)

        def mapping(x: Any) -> bool:
            if type(x) is not dict or len(x) > most:
                return False
            for key, value in x.items():
                check = props.get(key)
                if check is None:
                    check = next((c for rx, c in patterns if isinstance(key, str) and rx.search(key)), None)
                if check is None or not check(value):
                    return False
            return True
        return mapping
    if set(schema) <= {"description"}:
        return _anything
    raise ValueError(f"action.schema.json: no strict check for {schema}")


def _anything(x: Any) -> bool:
    return True


@lru_cache(maxsize=None)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(action_schema())


def shape_problem(action: dict[str, Any]) -> str | None:
    """What is wrong with the action's shape (an unknown key, a missing one, a wrong type), naming
    the key; None when it has the closed shape of its type.  ``action`` is a plain dict (a copy made
    by ``decisions.plain_action``): typed so, compiled, its keys are read through the dict's own iteration."""
    kind: Any = action.get("type")
    shape = _SHAPES.get(kind)
    if shape is None and not _SHAPES:
        shape = _shapes().get(kind)
    if shape is not None:
        # every key allowed (each but "type" has a check) with a good value, every required key there: read
        # key by key, since comparing the keys' view with a set compares them one by one through a set
        checks = shape.checks
        for key, value in action.items():
            if key != "type":
                check = checks.get(key)
                if check is None or not check(value):
                    break
        else:
            for key in shape.required:
                if key not in action:
                    break
            else:
                return None
    from ..script.schema import _describe, _leaves, shallow

    for key, value in action.items():
        if not shallow(value, MAX_DEPTH):
            return f"{key!r} nests lists or mappings deeper than {MAX_DEPTH} levels"
    problems = [p for error in _validator().iter_errors(action) for leaf in _leaves(error) for p in _describe(leaf)]
    if not problems:
        where = next((k for k, v in action.items() if k != "value" and _has_float(v)), "?")
        return f"{where!r} must be a whole number, written without a fraction"
    first = min(problems, key=lambda p: [str(x) for x in p.path])
    where = ".".join(str(x) for x in first.path)
    return f"{first.message}" + (f" ({where})" if where else "")


def _has_float(value: Any) -> bool:
    if isinstance(value, (float, bool)):
        return True
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    return False


def same(a: Any, b: Any) -> bool:
    """JSON equality with types: ``1`` is not ``True`` nor ``1.0`` (Python's == says they are)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


# ---------------------------------------------------------------------- the offered list
def offered(g: "Game") -> list[Action]:
    """The legal actions as offered to the deciding player (handles for what they can't see)."""
    d = g.state.decision
    assert d is not None
    cache = g.caches.offered
    if cache is not None and cache[0] == g.caches.version and cache[1] is d:
        return list(cache[2])
    listed = to_player(g, d.player, decisions.legal_actions(g))
    g.caches.offered = (g.caches.version, d, listed)
    return list(listed)


def is_offered(g: "Game", action_type: "ActionType", player: int, d: Decision, action: Action,
               given: object = None) -> bool:
    """Whether the action (as the player wrote it) is one of the actions offered now.  ``given`` is the
    caller's own object, of which ``action`` is the plain copy: when it is one of the offered list's dicts
    (an agent answers with an action it was offered, most do), it is found by identity; it then equals
    the copy, since the list holds the very dicts the caller got (edited or not), so the answer is the same."""
    cache = g.caches.offered
    at = -1
    if cache is not None and cache[0] == g.caches.version and cache[1] is d:
        listed = cache[2]
        if given is not None:
            for i, item in enumerate(listed):
                if item is given:
                    at = i
                    break
    else:
        listed = to_player(g, player, action_type.listing(g, player, d))
    if at < 0:
        try:
            at = listed.index(action)
        except ValueError:
            return False
    if action["type"] != "choose":
        return True  # its shape was checked with the engine's types: == is JSON equality here
    return any(same(item, action) for item in listed[at:] if item == action)


def not_listed_hint(g: "Game", action_type: "ActionType", player: int, d: Decision,
                    action: Action) -> str:
    """Why a well-formed action that passed its checks is still not listed, and what is."""
    hints = {
        "play": "targets in the order legal_actions lists them, at most 60 choices of targets, and what pays "
                "a cost named in 'pay_with'",
        "activate": "targets in the order legal_actions lists them, and what pays a cost named in 'pay_with'",
        "move": "units in board order, at most 64 groups of units per destination",
        "assign": "assignments giving each unit lethal damage in an order the rules allow",
    }
    subject = {k: action[k] for k in ("card", "source", "ability", "to") if k in action}
    listed = [a for a in to_player(g, player, action_type.listing(g, player, d))
              if all(a.get(k) == v for k, v in subject.items())]
    text = hints.get(action_type.name, "take one of the actions legal_actions() lists")
    if listed:
        text += "; listed: " + "; ".join(short(a) for a in listed[:3]) + (" ..." if len(listed) > 3 else "")
    return text


# ---------------------------------------------------------------------- handles in actions
def _object_slots(g: "Game", action: Mapping[str, Any]) -> list[bool] | None:
    """For each target slot of the action, whether it holds objects (not locations)."""
    kind = action.get("type")
    try:
        if kind == "play":
            slots = targeting.target_slots(g.card(int(action["card"])))
        elif kind == "activate":
            index = int(action.get("ability", 0))
            if index < 0:
                return []
            slots = targeting.ability_targets(activation.activated_abilities(g, int(action["source"]))[index])
        elif kind == "targets":
            d = g.state.decision
            group = [t for t in g.state.pending_triggers if d is not None and t.controller == d.player]
            ability = g.trigger_ability(group[0].obj, group[0].ability, group[0].lasting, group[0].event)
            slots = targeting.ability_targets(ability)
        else:
            return None
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return [sel.get("what") != "location" for sel in slots]


def to_player(g: "Game", player: int, actions: list[EngineAction]) -> list[Action]:
    """The actions with every object the player can't see written as its handle: what crosses the API
    (the listing made them in the shape ``schemas/action.schema.json`` gives, so they are ``Action``s)."""
    hidden: set[int] | None = None
    out = actions
    objs = g.state.objs
    for i, action in enumerate(actions):
        targets = action.get("targets")
        if not targets:
            continue
        if len(targets) == 1:
            first = targets[0]
            if len(first) == 1:
                obj = objs.get(first[0])
                if obj is not None and obj.zone == "board":
                    continue  # one object on the board (most): every player sees it (hidden_from has none)
            elif not first:
                continue
        elif not any(targets):
            continue
        if hidden is None:
            hidden = observe.hidden_from(g, player)
            if not hidden:
                return cast("list[Action]", actions)
        if len(targets) == 1 and len(targets[0]) == 1:
            if targets[0][0] not in hidden:
                continue  # one target the player sees (most)
        elif not any(t in hidden for slot in targets for t in slot):
            continue
        kinds = _object_slots(g, action)
        if kinds is None or len(kinds) != len(targets):
            kinds = [True] * len(targets)
        written = [[observe.handle(g, player, t) if t in hidden and is_object else t for t in slot]
                   for slot, is_object in zip(targets, kinds)]
        if out is actions:
            out = list(actions)
        out[i] = {**action, "targets": written}
    return cast("list[Action]", out)


def resolve(g: "Game", player: int, action: Action) -> EngineAction:
    """The action in the engine's ids: handles (of objects hidden from the player) replaced."""
    targets = action.get("targets")
    if not isinstance(targets, list) or not any(isinstance(t, str) for slot in targets for t in slot):
        return cast(EngineAction, action)
    known = {observe.handle(g, player, oid): oid for oid in observe.hidden_from(g, player)}
    written: list[list[Any]] = []
    for slot in targets:
        row: list[Any] = []
        for t in slot:
            if isinstance(t, str):
                if t not in known:
                    raise IllegalActionError(f"{t!r} is not the handle of an object hidden from you now")
                row.append(known[t])
            else:
                row.append(t)
        written.append(row)
    return {**action, "targets": written}


# ---------------------------------------------------------------------- actions written by hand
def complete(game: Any, partial: Mapping[str, Any]) -> Action:
    """The listed action that an action written by hand stands for, or the action unchanged.

    For callers that write actions themselves (scenarios, tests, a terminal): the keys left out
    (``targets`` when there is one choice, ``location``, ``pay_with``; an assignment's zero
    entries; a play's ``costs`` are none) are taken from the one listed action agreeing with every key given.  When
    several agree and differ only in what pays a cost, the first listed is the engine's default;
    when they differ in anything else, the action is returned as it is and ``apply`` says why it
    is refused (so the answer is typed an ``Action`` for ``apply``, which checks its shape).  ``game``
    is a Game or a Match."""
    given: dict[str, Any] = {k: v for k, v in partial.items() if v is not None}
    if given.get("type") == "play":
        given.setdefault("costs", [])  # no optional cost paid unless named
    listed: list[Mapping[str, Any]] = game.legal_actions()
    if any(same(a, given) for a in listed):
        return cast(Action, given)

    def agrees(action: Mapping[str, Any]) -> bool:
        for key, value in given.items():
            if key not in action:
                if value in ([], {}):
                    continue  # an empty list of targets or costs for an action listed without them
                return False
            if not same(_unordered(key, action[key]), _unordered(key, value)):
                return False
        return True

    matches = [a for a in listed if agrees(a)]
    if not matches:
        return cast(Action, given)
    rest = [{k: v for k, v in a.items() if k != "pay_with"} for a in matches]
    if len(matches) == 1 or all(same(r, rest[0]) for r in rest):
        return cast(Action, matches[0])
    return cast(Action, given)


def _unordered(key: str, value: Any) -> Any:
    """A value as ``complete`` compares it: targets within a slot, units and cost payments in any
    order, an assignment without its zero entries."""
    if key == "units" and isinstance(value, list):
        return sorted(value, key=repr)
    if key == "targets" and isinstance(value, list):
        return [sorted(slot, key=repr) if isinstance(slot, list) else slot for slot in value]
    if key == "pay_with" and isinstance(value, dict):
        return {k: (v[0] if len(v) == 1 else sorted(v, key=repr)) if isinstance(v, list) else v
                for k, v in value.items()}
    if key == "damage" and isinstance(value, dict):
        return {k: v for k, v in value.items() if v}
    return value


def short(value: Any) -> str:
    """A value shown in a message: cut short, and safe for any nesting depth."""
    return _REPR.repr(value)


_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = 40
_REPR.maxother = 40
