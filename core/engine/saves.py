"""Reading saved games and matches: nothing corrupt is ever played.

``Game.from_json`` and ``Match.from_json`` read a document in four steps, each refusing with one
``CorruptStateError`` that names the JSON path and what is wrong:

1. **Parsing, bounded**: at most MAX_BYTES, nested at most MAX_DEPTH deep; numbers are integers
   written without a fraction (``NaN``, ``Infinity`` and ``1.5`` are refused as they are read).
2. **Shape**: the document against ``schemas/state.schema.json`` (closed objects, every field's
   type and range), compiled by core/engine/jsonshape.py.
3. **Invariants**: the mode and every card code are installed; every object id named anywhere
   exists; each card is in exactly one zone, and its zone, owner and location agree with the lists
   holding it (core/engine/invariants.py); seats, the turn order and the decision name players of the
   game, and the cards a decision shows its player are installed cards; the log's events are numbered
   one by one up to the state's count, and the setup event names the state's mode and seed.
4. **The log**: a game started by ``Game.new`` (or a match by ``Match.new``) is replayed from its
   setup - the decks are read back from the objects, in the order setup made them - applying the
   logged actions; the replay must give the document exactly, or the log "does not match".  A
   position made with ``Builder`` has no setup to replay (and ``replay=False`` skips it): then its
   pending question must be the one its state poses (``check_question``: the loop, run again without
   it, asks the same and changes nothing).
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Callable, cast

from . import invariants, jsonshape, offer
from ..script.decks import Deck
from ..script.compiler import keyword_id
from ..errors import CorruptStateError, RiftScriptError
from .state import BF0, NOWHERE, from_jsonable
from .vocabulary import Action

if TYPE_CHECKING:
    from ..script.catalog import Catalog
    from .game import Game
    from ..script.registry import ModeSpec
    from .match import Match, MatchState

MAX_BYTES = 32_000_000
MAX_DEPTH = 100
BUILT = "(built position)"  # the deck name Builder gives its setup event
OFF_BOARD = (("attached_to", NOWHERE), ("damage", 0), ("buffs", 0), ("stunned", False), ("designation", ""),
             ("prevent", 0))


class _Fraction:
    """A number read with a fraction, kept to be reported with its path."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _constant(name: str) -> Any:
    raise CorruptStateError("(the document)", f"{name} is not a number a saved game holds")


def parse(text: str | bytes) -> Any:
    """The document as JSON data, read within the limits (step 1)."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise CorruptStateError("(the document)", f"a saved game is JSON text, not {type(text).__name__}")
    if len(text) > MAX_BYTES:
        raise CorruptStateError("(the document)", f"{len(text):,} characters is more than a saved game "
                                                  f"holds (at most {MAX_BYTES:,})")
    try:
        data = json.loads(text, parse_constant=_constant, parse_float=_Fraction)
    except json.JSONDecodeError as exc:
        raise CorruptStateError(f"line {exc.lineno} column {exc.colno}", f"not JSON: {exc.msg}") from None
    except RecursionError:
        raise CorruptStateError("(the document)", f"nested deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError) as exc:  # an integer of more than 4,300 digits, bad UTF-8
        raise CorruptStateError("(the document)", str(exc)) from None
    _walk(data)
    return data


def _walk(data: Any) -> None:
    """Depth and numbers, without recursion: the first problem with its path."""
    stack: list[tuple[Any, jsonshape.Path]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, _Fraction):
            raise CorruptStateError(jsonshape.dotted(path), f"{node.text} is not a whole number")
        if isinstance(node, (dict, list)):
            if len(path) >= MAX_DEPTH:
                raise CorruptStateError(jsonshape.dotted(path), f"nested deeper than {MAX_DEPTH} levels")
            items = node.items() if isinstance(node, dict) else enumerate(node)
            stack.extend((value, path + (key,)) for key, value in items)


@lru_cache(maxsize=None)
def _schema() -> dict[str, Any]:
    text = resources.files("riftscript.schemas").joinpath("state.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@lru_cache(maxsize=None)
def _checker(what: str) -> jsonshape.Checker:
    root = _schema()
    if what == "game":
        return jsonshape.compile_schema(root)
    return jsonshape.compile_schema({"$ref": f"#/$defs/{what}", "$defs": root["$defs"]})


def check_shape(data: Any, what: str = "game", at: jsonshape.Path = ()) -> None:
    """Step 2: ``what`` is 'game' (a Game document) or 'match_document'."""
    found = _checker(what)(data, at)
    if found:
        raise CorruptStateError(jsonshape.dotted(found[0]), found[1])


# ---------------------------------------------------------------------- invariants (step 3)
def _fail(path: jsonshape.Path, problem: str) -> CorruptStateError:
    return CorruptStateError(jsonshape.dotted(path), problem)


# What a lasting effect of each kind carries (plugins/effects.py and verbs make them): the created ones are parts
# of card scripts, checked against their schema; the engine's own have fixed fields.
_SCRIPT_PARTS = {"static": "card.schema.json#/$defs/static_body", "trigger": "card.schema.json#/$defs/triggered_body",
                 "replacement": "card.schema.json#/$defs/replacement_body"}


def lasting_problem(catalog: "Catalog", lasting: dict[str, Any], seats: int) -> str | None:
    """What is wrong with a saved lasting effect's body for its kind, or None: a tampered body must be refused
    on load, not fail with a KeyError moves later when the engine reads it."""
    kind, body = lasting["kind"], lasting["body"]
    if kind in _SCRIPT_PARTS:
        part = {k: v for k, v in body.items() if k != "kind"}
        if kind == "trigger" and isinstance(part.get("when"), dict) and isinstance(part["when"].get("player"), int):
            if not 0 <= part["when"]["player"] < seats:  # a created trigger's chosen player, by seat
                return f"when.player: {part['when']['player']} is not a seat of this game"
            part["when"] = {**part["when"], "player": "chosen"}
        if kind != "static" and body.get("kind") != {"trigger": "triggered", "replacement": "replacement"}[kind]:
            return f"a {kind} effect's body has kind {body.get('kind')!r}"
        schemas = catalog.schemas
        problems = schemas.fragment_problems(_SCRIPT_PARTS[kind], part) if schemas is not None else []
        return f"not a {kind} script: {problems[0]}" if problems else None
    expected: dict[str, tuple[str, ...]] = {"grant": ("keyword", "value"), "prevent": ("from", "next"),
                                            "control": ("back_to", "then"), "copy": ("code", "original")}
    if kind not in expected:
        return f"unknown kind of lasting effect {kind!r}"
    extra = sorted(set(body) - set(expected[kind]))
    if extra:
        return f"a {kind} effect has no field {extra[0]!r}"
    if kind == "grant":
        keyword = body.get("keyword")
        if not isinstance(keyword, str) or keyword_id(keyword) not in catalog.keywords:
            return f"a grant names no installed keyword: {keyword!r}"
    elif kind == "prevent":
        if not isinstance(body.get("from"), str) or body.get("next", True) is not True:
            return "a prevent effect has a 'from' (text) and at most 'next: true'"
    elif kind == "control":
        back = body.get("back_to")
        if not isinstance(back, int) or isinstance(back, bool) or not 0 <= back < seats:
            return f"back_to: {back!r} is not a seat of this game"
        if body.get("then", "") not in ("", "recall") or not lasting["affects"]:
            return "a control effect names the units it gives back and then '' or 'recall'"
    elif kind == "copy":
        if any(body.get(k) not in catalog.cards for k in ("code", "original")) or not lasting["affects"]:
            return "a copy effect names two installed cards (code, original) and the object it changes"
    return None


def check_state(catalog: "Catalog", doc: dict[str, Any], at: jsonshape.Path = ()) -> None:
    """The invariants a game's data must hold before a Game is built on it."""
    state, log = doc["state"], doc["log"]
    here = at + ("state",)
    modes = catalog.plugins.modes() if catalog.plugins is not None else {}
    spec = modes.get(state["mode"])
    if spec is None:
        raise _fail(here + ("mode",), f"unknown mode {state['mode']!r}; installed: {', '.join(sorted(modes))}")
    players = state["players"]
    seats = len(players)
    if seats != spec.players:
        raise _fail(here + ("players",), f"{state['mode']} is played by {spec.players} players, not {seats}")
    objs: dict[str, Any] = state["objs"]
    for key, obj in objs.items():
        where = here + ("objs", key)
        if str(obj["id"]) != key:
            raise _fail(where + ("id",), f"object {key} says its id is {obj['id']}")
        if obj["code"] not in catalog.cards:
            raise _fail(where + ("code",), f"unknown card code {obj['code']!r}")
        for field in ("owner", "controller"):
            if obj[field] >= seats:
                raise _fail(where + (field,), f"{obj[field]} is not a seat of this {seats}-player game")
        if obj["attached_to"] != NOWHERE and str(obj["attached_to"]) not in objs:
            raise _fail(where + ("attached_to",), f"no object {obj['attached_to']}")
        if obj["zone"] != "board":
            # leaving the board ends statuses and attachments (436.4, core/engine/verbs.py _leave_board)
            for field, default in OFF_BOARD:
                if obj[field] != default:
                    raise _fail(where + (field,), f"is {obj[field]!r} off the board ({obj['zone']}); there it is "
                                                  f"{default!r}")
            if obj["exhausted"] and obj["zone"] not in ("runes", "rune_deck", "legend", "bfcard"):
                raise _fail(where + ("exhausted",), f"a card in the {obj['zone']} zone is never exhausted")
    if state["next_id"] <= max((int(k) for k in objs), default=0):
        raise _fail(here + ("next_id",), "is not above every object id")

    def known(value: int, path: jsonshape.Path) -> None:
        if str(value) not in objs:
            raise _fail(path, f"no object {value}")

    for i, p in enumerate(players):
        where = here + ("players", i)
        if p["index"] != i:
            raise _fail(where + ("index",), f"player {i} says its index is {p['index']}")
        for name in ("legend", "chosen_champion"):
            if p[name] != NOWHERE:
                known(p[name], where + (name,))
        for name in ("main_deck", "hand", "trash", "rune_deck", "runes", "champion", "banished", "base",
                     "battlefields_owned", "removed"):
            for j, oid in enumerate(p[name]):
                known(oid, where + (name, j))
    for i, bf in enumerate(state["battlefields"]):
        where = here + ("battlefields", i)
        if bf["index"] != i:
            raise _fail(where + ("index",), f"battlefield {i} says its index is {bf['index']}")
        known(bf["card"], where + ("card",))
        for name in ("here", "facedown"):
            for j, oid in enumerate(bf[name]):
                known(oid, where + (name, j))
        for name in ("owner", "controller", "contested_by"):
            if bf[name] >= seats:
                raise _fail(where + (name,), f"{bf[name]} is not a seat of this game")
    fields = {BF0 + i for i in range(len(state["battlefields"]))}

    def place(loc: int, path: jsonshape.Path, battlefield: bool = False) -> None:
        if loc != NOWHERE and loc not in fields and (battlefield or loc >= seats):
            raise _fail(path, f"{loc} is not a {'battlefield' if battlefield else 'location'} of this game")

    for key, obj in objs.items():
        place(obj["loc"], here + ("objs", key, "loc"))
    for i, item in enumerate(state["chain"]):
        known(item["obj"], here + ("chain", i, "obj"))
        place(item["location"], here + ("chain", i, "location"))
        if item["controller"] >= seats:
            raise _fail(here + ("chain", i, "controller"), f"{item['controller']} is not a seat of this game")
    showdown = state["showdown"]
    if showdown is not None:
        if showdown["bf"] not in fields:
            raise _fail(here + ("showdown", "bf"), f"{showdown['bf']} is not a battlefield of this game")
        for name in ("attacker", "defender", "focus"):
            if showdown[name] >= seats:
                raise _fail(here + ("showdown", name), f"{showdown[name]} is not a seat of this game")
        for name in ("attacked", "defended"):
            for j, oid in enumerate(showdown[name]):
                known(oid, here + ("showdown", name, j))
    for i, trigger in enumerate(state["pending_triggers"]):
        known(trigger["obj"], here + ("pending_triggers", i, "obj"))
    for i, lasting in enumerate(state["lasting"]):
        known(lasting["source"], here + ("lasting", i, "source"))
        for j, oid in enumerate(lasting["affects"] or []):
            known(oid, here + ("lasting", i, "affects", j))
        problem = lasting_problem(catalog, lasting, seats)
        if problem:
            raise _fail(here + ("lasting", i, "body"), problem)
    for name in ("turn_player", "order_player", "priority", "invited"):
        if state[name] >= seats:
            raise _fail(here + (name,), f"{state[name]} is not a seat of this game")
    order = state["turn_order"]
    if order and sorted(order) != list(range(seats)):
        raise _fail(here + ("turn_order",), f"{order} is not an order of the {seats} seats")
    needed = (["turn_player", "order_player"] if order else []) + (["priority"] if state["chain"] else [])
    for name in needed:
        if state[name] < 0:
            raise _fail(here + (name,), f"{state[name]} is not a seat, and the game {'is under way' if order else 'has a chain'}")
    for name in ("winners", "extra_turns"):
        for j, seat in enumerate(state[name] or []):
            if seat >= seats:
                raise _fail(here + (name, j), f"{seat} is not a seat of this game")
    decision = state["decision"]
    if decision is not None and decision["player"] >= seats:
        raise _fail(here + ("decision", "player"), f"{decision['player']} is not a seat of this game")
    for j, seen in enumerate(decision["context"].get("shown", []) if decision is not None else []):
        where = here + ("decision", "context", "shown", j)
        if seen["player"] >= seats:
            raise _fail(where + ("player",), f"{seen['player']} is not a seat of this game")
        for k, code in enumerate(seen["cards"]):
            if code not in catalog.cards:
                raise _fail(where + ("cards", k), f"unknown card code {code!r}")
    if (decision is None) != (state["winners"] is not None):
        raise _fail(here + ("decision",), "a game that is not over waits for a decision" if decision is None
                    else "a game that is over waits for no decision")
    for i, event in enumerate(log):
        if event["n"] != i + 1:
            raise _fail(at + ("log", i, "n"), f"event {i + 1} is numbered {event['n']}: log does not match")
    if state["log_count"] != len(log):
        raise _fail(here + ("log_count",), f"the state counts {state['log_count']} events, the log holds "
                                           f"{len(log)}: log does not match")
    if log and log[0]["t"] == "setup":
        for name in ("mode", "seed"):
            if log[0].get(name) != state[name]:
                raise _fail(at + ("log", 0, name), f"the setup says {log[0].get(name)!r}, the state "
                                                   f"{state[name]!r}: log does not match")


def check_zones(g: "Game", at: jsonshape.Path = ()) -> None:
    """The kernel's invariants (core/engine/invariants.py): each object in exactly one zone, agreeing with
    the lists holding it; no negative pool; no battlefield with units of three players; no unit with
    lethal damage while a player decides; attached cards with a unit on the board."""
    problems = invariants.check(g, *invariants.baseline(g), caches=False)  # nothing cached yet
    if problems:
        first = problems[0]
        named = first[1:].split(" ", 1)[0] if first.startswith("#") else ""
        raise _fail(at + ("state", "objs", named) if named.isdigit() else at + ("state",), first)
    # what the chain and the waiting triggers will resolve: an ability of an object, of a lasting
    # effect, of an attached card or granted by a static ability (core/engine/game.py ability_of)
    s = g.state
    refs = [(("chain", i), item.obj, item.ability, item.lasting, item.event) for i, item in enumerate(s.chain)
            if item.kind != "card"]
    refs += [(("pending_triggers", i), t.obj, t.ability, t.lasting, t.event) for i, t in enumerate(s.pending_triggers)]
    for where, source, index, lasting, event in refs:
        try:
            g.trigger_ability(source, index, lasting, event)
        except (LookupError, TypeError, ValueError, AttributeError, RiftScriptError):
            raise _fail(at + ("state",) + where, f"names no ability (object {source}, ability {index}, "
                                               f"effect {lasting})") from None


# ---------------------------------------------------------------------- the game document
def load_game(cls: type["Game"], catalog: "Catalog", text: str | bytes, replay: bool = True,
              at: jsonshape.Path = ()) -> "Game":
    """Steps 1-4 for a Game document (see the module's docstring)."""
    data = parse(text)
    return game_from_data(cls, catalog, data, replay, at)


def game_from_data(cls: type["Game"], catalog: "Catalog", data: Any, replay: bool,
                   at: jsonshape.Path = ()) -> "Game":
    check_shape(data, "game", at)
    check_state(catalog, data, at)
    try:
        game = cls(catalog, from_jsonable(data["state"]), data["log"])
        check_zones(game, at)
        if replay and replayable(data["log"]):
            compare(replay_game(cls, catalog, data, at), data, at)
        elif game.state.decision is not None:
            check_question(game, at)
    except (LookupError, TypeError, ValueError, AttributeError) as err:
        # a save no check above foresaw, which the engine can't read: refused, never half-loaded
        raise _fail(at, f"the engine can't read this game ({type(err).__name__}: {err})") from None
    return game


def check_question(game: "Game", at: jsonshape.Path = ()) -> None:
    """A position with no log to replay (Builder's): its pending question must be the one its state
    poses.  The loop, run again on a copy without the question, must ask the same (the player, the
    kind, the options and what they carry) and change nothing else; else a crafted question would
    list actions that ``apply`` then refuses, or let another player answer."""
    asked = game.state.decision
    assert asked is not None
    if asked.kind in ("battlefield", "turn_order"):
        return  # a match's setup asks these, from tasks whose arguments the question doesn't keep: load_match replays
    saved = game.to_json()
    probe = game.copy()
    probe.state.decision = None
    if asked.kind == "mulligan":
        probe.state.tasks.append(["mulligan", asked.player])  # the task that asked was used up as it asked
    try:
        probe.run()
    except (LookupError, TypeError, ValueError, AttributeError, RiftScriptError) as err:
        raise _fail(at + ("state", "decision"), f"the position poses no question ({err})") from None
    posed = probe.state.decision
    if posed != asked:
        wanted = "none" if posed is None else f"{posed.kind} for seat {posed.player} ({posed.prompt!r})"
        raise _fail(at + ("state", "decision"), f"is not the question this position poses; it poses {wanted}")
    if probe.to_json() != saved:
        raise _fail(at + ("state",), "the position is not one the game waits in: running it on changes it")


def replayable(log: list[dict[str, Any]]) -> bool:
    """Whether the log starts at a setup made by Game.new (a Builder position doesn't)."""
    return bool(log) and log[0]["t"] == "setup" and BUILT not in (log[0].get("decks") or [BUILT])


def decks_of(catalog: "Catalog", data: dict[str, Any]) -> list[Deck]:
    """The decks a game was set up with, read back from its objects: setup makes each player's
    legend, champion, main deck, runes and battlefields in deck order, one player after another."""
    state, setup = data["state"], data["log"][0]
    names = setup.get("decks")
    seats = len(state["players"])
    if not isinstance(names, list) or len(names) != seats or not all(isinstance(n, str) for n in names):
        raise _fail(("log", 0, "decks"), "the setup names no deck for each seat: log does not match")
    by_owner: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
    for key in sorted(state["objs"], key=int):
        obj = state["objs"][key]
        if not obj["token"]:
            by_owner[obj["owner"]].append(obj)
    decks = []
    for seat, objs in enumerate(by_owner):
        kinds = [(o["code"], catalog.cards[o["code"]].type) for o in objs]
        if len(kinds) < 2:
            raise _fail(("state", "objs"), f"seat {seat} has no legend and champion: log does not match")
        decks.append(Deck(name=names[seat], legend=kinds[0][0], champion=kinds[1][0],
                          main=tuple(c for c, t in kinds[2:] if t in ("unit", "spell", "gear")),
                          runes=tuple(c for c, t in kinds[2:] if t == "rune"),
                          battlefields=tuple(c for c, t in kinds[2:] if t == "battlefield")))
    return decks


def replay_game(cls: type["Game"], catalog: "Catalog", data: dict[str, Any], at: jsonshape.Path) -> "Game":
    """The game its setup and logged actions make."""
    setup = data["log"][0]
    try:
        game = cls.new(catalog, decks_of(catalog, data), mode=data["state"]["mode"], seed=data["state"]["seed"],
                       names=setup.get("players"))
    except RiftScriptError as exc:
        raise _fail(at + ("log", 0), f"the setup can't be made again ({exc}): log does not match") from None
    replay_actions(game, data["log"], at)
    return game


def replay_actions(game: "Game | Match", log: list[dict[str, Any]], at: jsonshape.Path) -> None:
    """Apply the logged actions in order, each as the deciding player was offered it."""
    for i, event in enumerate(log):
        if event["t"] != "action" or event.get("match"):
            continue
        action = event.get("action")
        current = game.game if hasattr(game, "game") else game
        d = current.pending_decision()
        if d is None or not isinstance(action, dict):
            raise _fail(at + ("log", i), "an action the game was not waiting for: log does not match")
        offered = offer.to_player(current, d.player, [action])[0] if action.get("type") != "concede" \
            else cast(Action, action)
        try:
            game.apply(offered)
        except RiftScriptError as exc:
            raise _fail(at + ("log", i, "action"), f"the game refuses this action ({exc}): log does not match") from None


def compare(replayed: "Game | Match", data: Any, at: jsonshape.Path) -> None:
    """The replay must give the document exactly; else where they first differ."""
    made = json.loads(replayed.to_json())
    path = _first_difference(made, data)
    if path is not None:
        raise _fail(at + path, "differs from what replaying the log gives: log does not match")


def _first_difference(a: Any, b: Any, path: jsonshape.Path = ()) -> jsonshape.Path | None:
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return path + (key,)
            found = _first_difference(a[key], b[key], path + (key,))
            if found is not None:
                return found
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = _first_difference(x, y, path + (i,))
            if found is not None:
                return found
        return None if len(a) == len(b) else path + (min(len(a), len(b)),)
    return None if a == b else path


# ---------------------------------------------------------------------- the match document
def load_match(cls: type["Match"], catalog: "Catalog", text: str | bytes, replay: bool,
               game_type: type["Game"], state_type: type["MatchState"],
               spec_of: Callable[["Catalog", str], "ModeSpec"]) -> "Match":
    """Steps 1-4 for a Match document: its record, its decks, its log and its current game (built as
    ``game_type``; the match's record as ``state_type``, its mode looked up with ``spec_of``: the match
    module hands them over, so that this module imports neither it nor the game's)."""
    data = parse(text)
    check_shape(data, "match_document")
    match_state = data["match"]
    try:
        spec = spec_of(catalog, match_state["mode"])
    except RiftScriptError as exc:
        raise _fail(("match", "mode"), str(exc)) from None
    for i, deck in enumerate(data["decks"]):
        for role in ("legend", "champion"):
            if deck[role] not in catalog.cards:
                raise _fail(("decks", i, role), f"unknown card code {deck[role]!r}")
        for role in ("main", "runes", "battlefields"):
            for j, code in enumerate(deck[role]):
                if code not in catalog.cards:
                    raise _fail(("decks", i, role, j), f"unknown card code {code!r}")
    for i, event in enumerate(data["log"]):
        if event.get("match") and event["n"] > match_state["count"]:
            raise _fail(("log", i, "n"), "a match event beyond the match's count: log does not match")
    game = game_from_data(game_type, catalog, data["game"], False, ("game",))
    decks = [Deck(name=d["name"], legend=d["legend"], champion=d["champion"], main=tuple(d["main"]),
                  runes=tuple(d["runes"]), battlefields=tuple(d["battlefields"])) for d in data["decks"]]
    match = cls(catalog, spec, decks, state_type(**match_state), game, data["log"])
    if replay:
        try:
            again = cls.new(catalog, decks, mode=match_state["mode"], seed=match_state["seed"],
                            names=match_state["names"])
        except RiftScriptError as exc:
            raise _fail(("match",), f"the match can't be set up again ({exc}): log does not match") from None
        replay_actions(again, data["log"], ())
        compare(again, data, ())
    return match
