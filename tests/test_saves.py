"""Saved games and matches: nothing corrupt is loaded, and a refusal names where and what.

The fuzz test mutates real saves of every mode (bytes and fields) and asserts each one either
loads and plays on with the invariants holding, or is refused with CorruptStateError - never
another exception, never a hang.
"""
from __future__ import annotations

import json
import random
import signal
from functools import lru_cache
from typing import Any, Iterator

import pytest

from riftscript.core.engine import invariants, saves
from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import CorruptStateError
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match
from riftscript.core.engine.state import Battlefield, ChainItem, Decision, GameState, Lasting, Obj, PendingTrigger, Player, \
    Showdown
from riftscript.plugins.agents import RandomAgent

from positions import promising_future_choice

DECKS = ["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", "Jinx Champion Deck"]
MODES = {"duel": 2, "skirmish": 3, "war": 4, "magma-chamber": 4}


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


@lru_cache(maxsize=None)
def save(mode: str, seed: int, steps: int) -> str:
    """A real game of the mode after ``steps`` random actions, as saved."""
    players = MODES[mode]
    g = Game.new(cat(), DECKS[:players], mode=mode, seed=seed)
    agents = [RandomAgent(seed + i) for i in range(players)]
    for _ in range(steps):
        if g.over:
            break
        g.apply(agents[g.pending_decision().player].choose(g, g.legal_actions()))
    return g.to_json()


@lru_cache(maxsize=None)
def match_save(seed: int, steps: int) -> str:
    m = Match.new(cat(), DECKS[:2], mode="match", seed=seed)
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    for _ in range(steps):
        if m.over:
            break
        m.apply(agents[m.pending_decision().player].choose(m.game, m.legal_actions()))
    return m.to_json()


def refused(text: str | bytes, loader: Any = None) -> CorruptStateError:
    with pytest.raises(CorruptStateError) as err:
        (loader or Game.from_json)(cat(), text)
    return err.value


def edited(text: str, change: Any) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


# ---------------------------------------------------------------------- what the issue found
def test_a_card_in_two_zones_is_refused_naming_it() -> None:
    def change(d: dict[str, Any]) -> None:
        d["state"]["players"][0]["trash"].append(d["state"]["players"][0]["hand"][0])
    err = refused(edited(save("duel", 1, 20), change))
    assert err.path.startswith("state.objs.") and "2 places" in err.problem


def test_a_card_in_both_hands_is_refused() -> None:
    def change(d: dict[str, Any]) -> None:
        d["state"]["players"][1]["hand"].append(d["state"]["players"][0]["hand"][0])
    assert "places" in refused(edited(save("duel", 1, 20), change)).problem


def test_negative_points_are_refused() -> None:
    err = refused(edited(save("duel", 1, 20), lambda d: d["state"]["players"][1].update(points=-3)))
    assert (err.path, err.problem) == ("state.players[1].points", "-3 is less than the minimum of 0")


def test_damage_that_is_not_a_number_is_refused() -> None:
    def change(d: dict[str, Any]) -> None:
        next(iter(d["state"]["objs"].values()))["damage"] = "lots"
    err = refused(edited(save("duel", 1, 20), change))
    assert err.path.endswith(".damage") and "'lots' is not a whole number" in err.problem


def test_an_unknown_mode_is_refused() -> None:
    err = refused(edited(save("duel", 1, 20), lambda d: d["state"].update(mode="chess")))
    assert err.path == "state.mode" and "unknown mode 'chess'" in err.problem


def test_a_tampered_seed_is_refused() -> None:
    err = refused(edited(save("duel", 1, 20), lambda d: d["state"].update(seed=99)))
    assert "log does not match" in str(err)
    both = edited(save("duel", 1, 20), lambda d: (d["state"].update(seed=99), d["log"][0].update(seed=99)))
    assert "log does not match" in str(refused(both))  # the replay of the other seed differs


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_as_they_are_read(constant: str) -> None:
    text = save("duel", 1, 20).replace('"points": 0', f'"points": {constant}', 1)
    assert constant in text
    assert f"{constant} is not a number" in refused(text).problem


@pytest.mark.parametrize("number", ["1.5", "2.0", "1e3"])
def test_numbers_with_a_fraction_are_refused_with_their_path(number: str) -> None:
    text = save("duel", 1, 20).replace('"points": 0', f'"points": {number}', 1)
    err = refused(text)
    assert err.path.endswith(".points") and "is not a whole number" in err.problem


def test_a_boolean_is_not_a_number() -> None:
    err = refused(edited(save("duel", 1, 20), lambda d: d["state"].update(turn=True)))
    assert err.path == "state.turn" and "True is not a whole number" in err.problem


def test_an_unknown_card_code_is_refused() -> None:
    def change(d: dict[str, Any]) -> None:
        next(iter(d["state"]["objs"].values()))["code"] = "OGN-999"
    err = refused(edited(save("duel", 1, 20), change))
    assert err.path.endswith(".code") and "unknown card code 'OGN-999'" in err.problem


def test_unknown_and_missing_keys_are_refused() -> None:
    assert "unknown key 'cheat'" in refused(edited(save("duel", 1, 5), lambda d: d["state"].update(cheat=1))).problem
    assert "missing key 'turn'" in refused(edited(save("duel", 1, 5), lambda d: d["state"].pop("turn"))).problem


def test_an_edited_action_in_the_log_does_not_match() -> None:
    def change(d: dict[str, Any]) -> None:
        action = next(e for e in reversed(d["log"]) if e["t"] == "action" and e["action"]["type"] == "play")
        action["action"]["card"] = action["action"]["card"] + 1
    err = refused(edited(save("duel", 2, 60), change))
    assert err.path.startswith("log[") and "log does not match" in err.problem


def test_a_cut_log_does_not_match() -> None:
    err = refused(edited(save("duel", 2, 60), lambda d: d["log"].pop()))
    assert err.path == "state.log_count" and "log does not match" in err.problem


def test_a_save_of_another_engines_game_does_not_replay() -> None:
    def change(d: dict[str, Any]) -> None:
        d["log"][-1]["t"] = "something_else"  # a log this engine wouldn't write
    assert "log does not match" in refused(edited(save("duel", 2, 60), change)).problem


def test_the_document_limits() -> None:
    assert "not JSON" in refused("{").problem
    assert "JSON text" in refused(7).problem  # type: ignore[arg-type]
    assert "at most" in refused(" " * (saves.MAX_BYTES + 1)).problem
    assert "nested deeper" in refused("[" * 100_000 + "]" * 100_000).problem
    assert "nested deeper" in refused('{"a":' * 500 + "1" + "}" * 500).problem
    assert "digits" in refused('{"state": ' + "9" * 5000 + "}").problem


def test_a_damaged_match_is_refused_and_a_good_one_loads() -> None:
    text = match_save(3, 120)
    copy = Match.from_json(cat(), text)
    assert copy.to_json() == text
    err = refused(edited(text, lambda d: d["match"].update(wins=[5, 0])), Match.from_json)
    assert err.path == "match.wins[0]" and "log does not match" in err.problem
    err = refused(edited(text, lambda d: d["decks"][0].update(legend="XXX-1")), Match.from_json)
    assert err.path == "decks[0].legend"
    err = refused(edited(text, lambda d: d["game"]["state"]["players"][0].update(points=-1)), Match.from_json)
    assert err.path == "game.state.players[0].points"


def test_a_builder_position_loads_without_replay_and_is_still_checked() -> None:
    b = Builder(cat())
    bf = b.battlefield("OGN-294", controller=1)
    b.add(1, "OGN-175", at=bf)
    b.at_turn(0, "main")
    g, _ = b.build()
    assert Game.from_json(cat(), g.to_json()).to_json() == g.to_json()

    def change(d: dict[str, Any]) -> None:
        unit = d["state"]["battlefields"][0]["here"][0]
        d["state"]["objs"][str(unit)]["zone"] = "hand"
    assert "is listed in board but its zone is hand" in refused(edited(g.to_json(), change)).problem


# ---------------------------------------------------------------------- the schema and the state
@pytest.mark.parametrize("record,name", [(GameState, "state"), (Player, "player_state"), (Battlefield, "battlefield"),
                                         (Obj, "obj"), (ChainItem, "chain_item"), (PendingTrigger, "trigger"),
                                         (Showdown, "showdown"), (Lasting, "lasting"), (Decision, "decision")])
def test_the_state_schema_names_every_field_of_the_state(record: type, name: str) -> None:
    import dataclasses

    schema = saves._schema()["$defs"][name]
    assert list(schema["properties"]) == [f.name for f in dataclasses.fields(record)]
    assert schema["additionalProperties"] is False


def test_the_compiled_checks_agree_with_jsonschema() -> None:
    from jsonschema import Draft202012Validator

    reference = Draft202012Validator(saves._schema())
    rnd = random.Random(5)
    texts = [save(mode, 4, steps) for mode in ("duel", "war") for steps in (0, 40)]
    checked = 0
    for text in texts:
        data = json.loads(text)
        assert reference.is_valid(data)
        saves.check_shape(data)
        for _ in range(25):
            damaged = json.loads(text)
            path = _random_path(damaged, rnd)
            if not path:
                continue
            _set(damaged, path, rnd.choice([None, "x", -5, 10**7, [], {}, True]))
            ours = saves._checker("game")(damaged, ()) is None
            # strictness: where jsonschema accepts and we don't, the difference is only 2.0/True vs 2
            assert ours <= reference.is_valid(damaged)
            checked += 1
    assert checked > 60


def _random_path(data: Any, rnd: random.Random) -> list[Any]:
    path: list[Any] = []
    node = data
    while isinstance(node, (dict, list)) and node and rnd.random() < 0.85:
        key = rnd.choice(list(node)) if isinstance(node, dict) else rnd.randrange(len(node))
        path.append(key)
        node = node[key]
    return path


def _set(data: Any, path: list[Any], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


# ---------------------------------------------------------------------- the fuzz test
class Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hang()


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _leaves(value, path + (i,))
    else:
        yield path, node


def _plausible(value: Any, rnd: random.Random) -> Any:
    """Another value of the same type, as a subtle edit or damage would leave it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rnd.choice([value + 1, value - 1, 0, -1, value * 2, 2, 10, 11, 12])
    if isinstance(value, str):
        return rnd.choice(["", "hand", "board", "trash", "main", "facedown", "OGN-001", "x"])
    return rnd.choice([0, [], {}])


def mutations(text: str, rnd: random.Random, count: int = 40) -> Iterator[tuple[str, str]]:
    """(kind, mutated text): byte edits, edits of any field, and plausible edits of leaves."""
    leaves = list(_leaves(json.loads(text)))
    for _ in range(count // 4):
        damaged = json.loads(text)
        path, value = rnd.choice(leaves)
        _set(damaged, list(path), _plausible(value, rnd))
        yield "leaf", json.dumps(damaged)
    for _ in range(count // 4):
        raw = bytearray(text.encode())
        for _ in range(rnd.randint(1, 3)):
            at = rnd.randrange(len(raw))
            how = rnd.random()
            if how < 0.4:
                raw[at] = rnd.choice(b'0123456789-.,:"[]{}eE aN')
            elif how < 0.7:
                del raw[at:at + rnd.randint(1, 4)]
            else:
                raw[at:at] = bytes(rnd.choice(b'0123456789,"[]{}') for _ in range(rnd.randint(1, 3)))
        yield "bytes", raw.decode("utf-8", errors="replace")
    data = json.loads(text)
    values = [None, True, False, 0, 1, -1, 2, 3, 7, 10, 11, 99, 10**6, 2**63, -(2**63), "", "x", "hand", "board",
              "OGN-001", [], {}, [1], {"a": 1}]
    for _ in range(count - 2 * (count // 4)):
        damaged = json.loads(text)
        path = _random_path(damaged, rnd)
        while not path:
            path = _random_path(damaged, rnd)
        how = rnd.random()
        parent = damaged
        for key in path[:-1]:
            parent = parent[key]
        if how < 0.5:
            parent[path[-1]] = rnd.choice(values)
        elif how < 0.65 and isinstance(parent, dict):
            del parent[path[-1]]
        elif how < 0.8 and isinstance(parent, list):
            parent.append(parent[path[-1]])  # a duplicate (an object in two places)
        else:
            # another value of the document put here
            node = data
            for key in _random_path(data, rnd):
                node = node[key]
            parent[path[-1]] = node
        yield "field", json.dumps(damaged)


def fuzz(cases: list[tuple[str, Any, int]], seed: int) -> dict[str, int]:
    rnd = random.Random(seed)
    counts = {"tried": 0, "refused": 0, "loaded": 0, "actions played on": 0}
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for text, loader, count in cases:
            for kind, mutated in mutations(text, rnd, count):
                counts["tried"] += 1
                counts[kind] = counts.get(kind, 0) + 1
                signal.alarm(30)  # a hang guard, not a speed test: one case never takes seconds
                try:
                    try:
                        game = loader(cat(), mutated)
                    except CorruptStateError:
                        counts["refused"] += 1
                        continue
                    counts["loaded"] += 1
                    counts["actions played on"] += play_on(game, rnd)
                except Hang:
                    pytest.fail(f"a {kind} mutation made the loader hang")
                finally:
                    signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, old)
    return counts


def state_only(loader: Any) -> Any:
    """The loader without the replay: the shape and the invariants alone must keep bad saves out."""
    def load(catalog: Any, text: str) -> Any:
        return loader(catalog, text, replay=False)
    return load


def play_on(game: Game | Match, rnd: random.Random) -> int:
    """A loaded save plays on, with every invariant holding after each action."""
    g = game.game if isinstance(game, Match) else game
    cards, codes = invariants.baseline(g)
    assert invariants.check(g, cards, codes) == []
    agents = [RandomAgent(rnd.randrange(1000)) for _ in g.state.players]
    played = 0
    for _ in range(15):
        if game.over:
            break
        current = game.game if isinstance(game, Match) else game
        if current is not g:
            break  # the match went on to its next game
        game.apply(agents[game.pending_decision().player].choose(current, game.legal_actions()))
        played += 1
        assert invariants.check(g, cards, codes) == []
    return played


def default_cases() -> list[tuple[str, Any, int]]:
    cases: list[tuple[str, Any, int]] = []
    for mode in MODES:
        cases.append((save(mode, 7, 3), Game.from_json, 24))
        cases.append((save(mode, 7, 90), state_only(Game.from_json), 60))
    cases.append((match_save(7, 40), Match.from_json, 24))
    cases.append((match_save(7, 90), state_only(Match.from_json), 40))
    b = Builder(cat())
    bf = b.battlefield("OGN-294", controller=1)
    b.add(1, "OGN-175", at=bf)
    b.add(0, "OGN-175", at="base")
    b.hand(0, ["OGN-011"])
    b.at_turn(0, "main")
    cases.append((b.build()[0].to_json(), Game.from_json, 40))  # no setup to replay
    return cases


def test_mutated_saves_are_refused_or_load_and_play_on() -> None:
    cases = default_cases()
    counts = fuzz(cases, seed=1)
    print(f"\nfuzzed saves: {counts}")
    assert counts["tried"] == sum(count for _, _, count in cases)
    assert counts["refused"] > counts["tried"] // 2
    assert counts["loaded"] > 20 and counts["actions played on"] > 200  # plausible edits load and play on


@pytest.mark.slow
def test_mutated_saves_long_run() -> None:
    cases: list[tuple[str, Any, int]] = []
    for mode in MODES:
        for seed in range(3):
            for steps in (0, 30, 120, 400):
                cases.append((save(mode, seed, steps), Game.from_json, 40))
                cases.append((save(mode, seed, steps), state_only(Game.from_json), 200))
    cases += [(match_save(seed, steps), Match.from_json, 40) for seed in range(3) for steps in (20, 200)]
    counts = fuzz(cases, seed=2)
    print(f"\nfuzzed saves: {counts}")
    assert counts["tried"] == sum(count for _, _, count in cases)


@pytest.mark.parametrize("edit, path, problem", [
    (lambda seen: seen[0]["cards"].__setitem__(0, "XXX-999"), "state.decision.context.shown[0].cards[0]",
     "unknown card code 'XXX-999'"),
    (lambda seen: seen[0].__setitem__("player", 3), "state.decision.context.shown[0].player", "not a seat"),
    (lambda seen: seen[0].__setitem__("id", 7), "state.decision.context.shown[0]", "id"),
    (lambda seen: seen[0].__setitem__("cards", "OGN-088"), "state.decision.context.shown[0].cards", "not a list"),
])
def test_the_cards_a_question_shows_are_checked_when_a_save_is_read(edit: Any, path: str, problem: str) -> None:
    """A question's ``shown`` cards reach the screen (the terminal and the browser name them): a save naming
    a card that is not installed, or a seat the game has not, is refused where it says so."""
    g = promising_future_choice(cat())
    doc = json.loads(g.to_json())
    assert [s["cards"] for s in doc["state"]["decision"]["context"]["shown"]][0] == ["OGN-088"]
    assert Game.from_json(cat(), json.dumps(doc)).to_json() == g.to_json()  # as saved: loads
    edit(doc["state"]["decision"]["context"]["shown"])
    err = refused(json.dumps(doc))
    assert err.path.startswith(path) and problem in err.problem, (err.path, err.problem)


@pytest.mark.parametrize("edit", [
    pytest.param(lambda d: d["options"][0].__setitem__("value", 99999), id="an answer the step has not"),
    pytest.param(lambda d: d.__setitem__("player", 1), id="the other player answers"),
    pytest.param(lambda d: d.__setitem__("kind", "assign"), id="another kind"),
    pytest.param(lambda d: d.__setitem__("options", []), id="no options"),
    pytest.param(lambda d: (d.__setitem__("kind", "priority"), d.__setitem__("options", [])), id="priority instead"),
    pytest.param(lambda d: d.__setitem__("prompt", "choose anything"), id="another prompt"),
])
def test_a_built_position_s_question_must_be_the_one_it_poses(edit: Any) -> None:
    """A position with no log to replay (Builder's) is checked by its invariants; its pending question, which
    no invariant covers, must be the one the state poses (saves.check_question).  Edited, it would list
    actions that ``apply`` refuses, or let the wrong player answer: refused at state.decision."""
    g = promising_future_choice(cat())
    doc = json.loads(g.to_json())
    edit(doc["state"]["decision"])
    err = refused(json.dumps(doc))
    assert err.path == "state.decision" and "is not the question this position poses" in err.problem
    assert "choose for seat 0" in err.problem  # says what it poses


def _with_lasting(kind: str, body: dict[str, Any], built: bool = False) -> str:
    """A real save with one lasting effect added on a unit on the board (``built``: its setup event marked
    as a Builder position, so it is not replayed)."""
    def change(data: dict[str, Any]) -> None:
        objs = data["state"]["objs"]
        unit = next(int(k) for k, o in objs.items() if o["zone"] == "board")
        data["state"]["lasting"].append({
            "id": 999, "kind": kind, "source": unit, "source_code": objs[str(unit)]["code"], "controller": 0,
            "body": body, "duration": "permanent", "affects": [unit], "uses": 0, "timestamp": 1, "keyword": ""})
        if built:
            data["log"][0]["decks"] = ["(built position)"] * 2
    return edited(save("duel", 7, 120), change)


@pytest.mark.parametrize(("kind", "body", "message"), [
    ("static", {}, "not a static script: missing required key 'modifiers'"),
    ("static", {"modifiers": [{"type": "might", "amount": "lots"}]}, "not a static script"),
    ("trigger", {"kind": "triggered"}, "not a trigger script"),
    ("copy", {}, "a copy effect names two installed cards"),
    ("control", {}, "back_to: None is not a seat of this game"),
    ("control", {"back_to": 7, "then": "recall"}, "back_to: 7 is not a seat of this game"),
    ("grant", {"keyword": "Flyng", "value": None}, "a grant names no installed keyword: 'Flyng'"),
    ("prevent", {"from": "any", "next": False}, "a prevent effect has a 'from'"),
    ("curse", {}, "state.lasting[0].kind: 'curse' is not one of"),
])
def test_a_tampered_lasting_effect_is_refused_on_load_not_moves_later(kind: str, body: dict[str, Any],
                                                                       message: str) -> None:
    """The engine reads a lasting effect's body by its kind; one it can't read used to load (replayed, or
    not replayed when the save said it was a built position) and fail with a KeyError moves later."""
    for built in (False, True):
        err = refused(_with_lasting(kind, body, built))
        assert message in str(err) and ("state.lasting[0].body" in str(err) or kind == "curse")
