"""The API's promises: atomic illegal actions, JSON round trips, determinism, hidden information."""
from __future__ import annotations

import json
import random
from functools import lru_cache
from typing import Any

import pytest

from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import IllegalActionError
from riftscript.core.engine.game import Game
from riftscript.plugins.agents import RandomAgent

JINX = "Jinx Champion Deck"
VIKTOR = "Viktor Champion Deck"
LEE = "Lee Sin Champion Deck"
ANNIE = "Annie Starter Deck"


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


def new(seed: int, decks: tuple[str, str] = (JINX, VIKTOR)) -> Game:
    return Game.new(cat(), list(decks), seed=seed)


def play(g: Game, agents: list[RandomAgent], steps: int) -> list[dict[str, Any]]:
    """Apply up to ``steps`` agent actions; returns them."""
    done = []
    for _ in range(steps):
        d = g.pending_decision()
        if d is None:
            break
        action = agents[d.player].choose(g, g.legal_actions())
        g.apply(action)
        done.append(action)
    return done


def agents(seed: int) -> list[RandomAgent]:
    return [RandomAgent(seed), RandomAgent(seed + 1000)]


def assert_illegal_unchanged(g: Game, action: Any) -> IllegalActionError:
    before = g.to_json()
    hash_before = g.log_hash()
    with pytest.raises(IllegalActionError) as err:
        g.apply(action)
    assert g.to_json() == before, f"{action!r} changed the state"
    assert g.log_hash() == hash_before
    return err.value


# ---------------------------------------------------------------------- illegal actions are atomic
def test_illegal_actions_during_the_mulligan_leave_the_game_unchanged() -> None:
    g = new(1)
    me = g.pending_decision().player
    mine = g.state.players[me].hand
    theirs = g.state.players[1 - me].hand
    for action in ({"type": "end_turn"}, {"type": "pass"}, {"type": "mulligan", "cards": mine[:3]},
                   {"type": "mulligan", "cards": [theirs[0]]}, {"type": "mulligan", "cards": [mine[0], mine[0]]},
                   {"type": "mulligan", "cards": "all"}, {"type": "play", "card": mine[0]},
                   {"type": "bogus"}, {"kind": "mulligan"}, "keep", None, 7):
        assert_illegal_unchanged(g, action)
    # and a legal action still works afterwards
    g.apply({"type": "mulligan", "cards": []})


def test_illegal_actions_in_the_main_phase_leave_the_game_unchanged() -> None:
    b = Builder(cat())
    bf = b.battlefield("OGN-294")
    tired = b.add(0, "OGN-175", at="base", exhausted=True)
    fresh = b.add(0, "OGN-175", at="base")
    enemy = b.add(1, "OGN-175", at="base")
    costly = b.hand(0, ["OGN-011"])[0]      # Magma Wurm: 8 energy
    spell = b.hand(0, ["OGN-004"])[0]       # Cleave: 1 energy, targets a unit
    their_card = b.hand(1, ["OGN-175"])[0]
    rune = b.runes(0, ["OGN-007"], exhausted=True)[0]
    their_rune = b.runes(1, ["OGN-007"])[0]
    b.deck(0, ["OGN-003"] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    illegal = [
        {"type": "pass"},                                            # nothing to pass in Neutral Open
        {"type": "play", "card": ids[costly], "location": 0, "targets": []},   # can't pay
        {"type": "play", "card": ids[their_card], "location": 0, "targets": []},  # not your card
        {"type": "play", "card": ids[spell], "targets": [[ids[enemy]]]},      # no rune to pay with
        {"type": "play", "card": 9999, "targets": []},
        {"type": "play", "card": "x"},
        {"type": "move", "units": [ids[tired]], "to": bf},             # exhausted
        {"type": "move", "units": [ids[enemy]], "to": bf},             # not yours
        {"type": "move", "units": [ids[fresh]], "to": 1},              # another player's base
        {"type": "move", "units": [ids[fresh]], "to": 99},
        {"type": "move", "units": "all", "to": bf},
        {"type": "activate", "source": ids[rune], "ability": -1},      # exhausted rune
        {"type": "activate", "source": ids[their_rune], "ability": -1},  # not your rune
        {"type": "activate", "source": ids[fresh], "ability": 3},
        {"type": "hide", "card": ids[spell], "battlefield": bf},      # no Hidden
        {"type": "choose", "value": 1},
        {"type": "mulligan", "cards": []},
        {"type": "assign", "damage": {}},
    ]
    for action in illegal:
        assert_illegal_unchanged(g, action)
    g.apply({"type": "move", "units": [ids[fresh]], "to": bf})


def test_illegal_action_reports_the_rule() -> None:
    b = Builder(cat())
    b.at_turn(0, "main")
    g, _ = b.build()
    err = assert_illegal_unchanged(g, {"type": "pass"})
    assert err.rule == "310.1"


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_illegal_actions_at_random_points_leave_the_game_unchanged(seed: int) -> None:
    """Through whole random games, wrong-shaped and out-of-turn actions never change anything."""
    g = new(seed, (LEE, ANNIE))
    bots = agents(seed)
    rnd = random.Random(seed)
    checked = 0
    while not g.over:
        legal = g.legal_actions()
        if rnd.random() < 0.2:
            kind = g.pending_decision().kind
            wrong: list[Any] = [{"type": "nope"}, {"type": "play", "card": -5}]
            if kind != "priority":
                wrong.append({"type": "end_turn"})
            elif g.state.chain or g.state.showdown is not None:
                wrong.append({"type": "end_turn"})
            else:
                wrong.append({"type": "pass"})
            for action in wrong:
                if action not in legal:
                    assert_illegal_unchanged(g, action)
                    checked += 1
        g.apply(bots[g.pending_decision().player].choose(g, legal))
    assert checked > 20


# ---------------------------------------------------------------------- JSON round trip
@pytest.mark.parametrize("seed", [1, 2, 7])
def test_to_json_from_json_round_trip_then_continuing_gives_the_same_log_hash(seed: int) -> None:
    cut_points = (0, 15, 40, 90)
    for cut in cut_points:
        g = new(seed)
        play(g, agents(seed), cut)
        text = g.to_json()
        copy = Game.from_json(cat(), text)
        assert copy.to_json() == text
        assert copy.log_hash() == g.log_hash()
        # both continue with identically seeded agents
        a1, a2 = agents(seed + 17), agents(seed + 17)
        done1 = play(g, a1, 10_000)
        done2 = play(copy, a2, 10_000)
        assert done1 == done2
        assert g.over and copy.over
        assert copy.log_hash() == g.log_hash()
        assert copy.to_json() == g.to_json()


def test_round_trip_while_a_player_answers_mid_resolution() -> None:
    """A game saved while a 'choose' decision is pending resumes the paused resolution."""
    found = 0
    for seed in range(40):
        g = new(seed, (LEE, ANNIE))
        bots = agents(seed)
        while not g.over:
            d = g.pending_decision()
            if d.kind == "choose":
                text = g.to_json()
                copy = Game.from_json(cat(), text)
                action = bots[d.player].choose(g, g.legal_actions())
                g.apply(action)
                copy.apply(action)
                assert copy.to_json() == g.to_json()
                found += 1
                break
            g.apply(bots[d.player].choose(g, g.legal_actions()))
        if found >= 3:
            break
    assert found >= 1, "no game reached a 'choose' decision"


# ---------------------------------------------------------------------- determinism
def test_same_seed_and_same_actions_give_the_same_log_hash() -> None:
    g1 = new(11)
    actions = play(g1, agents(5), 10_000)
    assert g1.over
    g2 = new(11)
    for action in actions:
        g2.apply(json.loads(json.dumps(action)))  # actions as plain JSON
    assert g2.over
    assert g2.log_hash() == g1.log_hash()
    assert g2.to_json() == g1.to_json()


def test_a_different_seed_gives_a_different_game() -> None:
    assert new(11).log_hash() != new(12).log_hash()
    assert new(11).log_hash() == new(11).log_hash()


# ---------------------------------------------------------------------- hidden information
def _swap_hidden(text: str, player: int) -> str:
    """The same game, except for what ``player`` keeps hidden: their deck order and which cards
    are in their hand (one hand card swapped with a deck card of another name)."""
    data = json.loads(text)
    p = data["state"]["players"][player]
    objs = data["state"]["objs"]
    deck = p["main_deck"]
    hand = p["hand"]
    other = next(i for i, c in enumerate(deck) if objs[str(c)]["code"] != objs[str(hand[0])]["code"])
    hand[0], deck[other] = deck[other], hand[0]
    objs[str(hand[0])]["zone"] = "hand"
    objs[str(deck[other])]["zone"] = "main_deck"
    deck.reverse()
    decision = data["state"]["decision"]
    if decision is not None and decision["kind"] == "mulligan" and decision["player"] == player:
        # their mulligan question lists their hand: asked again of the edited hand, as the game would (a
        # save whose question doesn't fit its state is refused: saves.check_question)
        from riftscript.core.engine.state import from_jsonable
        game = Game(cat(), from_jsonable(json.loads(json.dumps(data["state"]))), data["log"])
        game.state.decision = None
        game.state.tasks.append(["mulligan", player])
        game.run()
        return game.to_json()
    return json.dumps(data, sort_keys=True)


@pytest.mark.parametrize("steps", [0, 2, 30, 70])
def test_observation_hides_the_opponents_hand_and_deck_order(steps: int) -> None:
    g = new(6)
    play(g, agents(6), steps)
    assert not g.over
    for viewer in (0, 1):
        opponent = 1 - viewer
        obs = g.observation(viewer)
        assert obs["players"][opponent]["hand"] == len(g.state.players[opponent].hand)
        assert obs["players"][viewer]["hand"] == [
            {"id": c, "code": g.obj(c).code, "name": g.name(c), "controller": g.obj(c).controller}
            for c in g.state.players[viewer].hand]
        for p in obs["players"]:
            assert p["main_deck"] == len(g.state.players[p["index"]].main_deck)
            assert p["rune_deck"] == len(g.state.players[p["index"]].rune_deck)
        # a game differing only in the opponent's secrets looks exactly the same
        other = Game.from_json(cat(), _swap_hidden(g.to_json(), opponent), replay=False)  # an edited save
        assert json.dumps(other.observation(viewer), sort_keys=True) == json.dumps(obs, sort_keys=True)
        # ... while the opponent sees the difference in their own hand
        assert other.observation(opponent)["players"][opponent]["hand"] != \
            g.observation(opponent)["players"][opponent]["hand"]


def test_observation_hides_the_opponents_own_deck_order_too() -> None:
    g = new(8)
    obs = g.observation(0)
    reordered = json.loads(g.to_json())
    reordered["state"]["players"][0]["main_deck"].reverse()
    reordered["state"]["players"][0]["rune_deck"].reverse()
    other = Game.from_json(cat(), json.dumps(reordered), replay=False)  # an edited save
    assert other.observation(0) == obs  # deck order is never shown, not even to the owner


def test_observation_hides_facedown_cards_from_the_opponent() -> None:
    b = Builder(cat())
    bf = b.battlefield("OGN-294", controller=1)
    b.add(1, "OGN-175", at=bf)
    hidden = b.add(1, "OGN-053", zone="facedown", at=bf, controller=1)
    b.at_turn(0, "main")
    g, ids = b.build()
    theirs = g.observation(0)["battlefields"][0]["facedown"]
    assert theirs == [{"id": theirs[0]["id"], "hidden": True}]
    assert isinstance(theirs[0]["id"], str) and theirs[0]["id"].startswith("hidden-")  # a handle, never the id
    assert "OGN-053" not in json.dumps(g.observation(0))
    mine = g.observation(1)["battlefields"][0]["facedown"]
    assert mine[0]["code"] == "OGN-053"


def test_observation_hides_the_options_of_the_opponents_decision() -> None:
    g = new(1)
    d = g.pending_decision()
    assert d.kind == "mulligan"
    mine = g.observation(d.player)["decision"]
    theirs = g.observation(1 - d.player)["decision"]
    assert mine["options"] == d.options
    assert theirs["options"] == len(d.options)  # the labels name the cards in hand


_WEIRD: list[Any] = [None, "x", -1, -7, 10**9, 1.5, True, [], [[]], {}, [None], [[None]], [1, 1], [[10**9]], [[]] * 3]


def _mutate(action: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    out = json.loads(json.dumps(action))
    keys = [k for k in out if k != "type"]
    key = rnd.choice(keys) if keys and rnd.random() < 0.8 else rnd.choice(
        ["card", "units", "to", "targets", "source", "ability", "value", "cards", "order", "damage",
         "location", "costs", "battlefield"])
    value = out.get(key)
    if isinstance(value, list) and value and rnd.random() < 0.3:
        out[key] = value + value
    elif isinstance(value, dict) and value and rnd.random() < 0.5:
        out[key] = {k: rnd.choice(_WEIRD) for k in value}
    else:
        out[key] = rnd.choice(_WEIRD)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_malformed_actions_raise_illegal_action_error_and_change_nothing(seed: int) -> None:
    """Legal actions with a field replaced by a wrong type, a duplicate or an unknown id."""
    decks = sorted(cat().decks)
    g = Game.new(cat(), [decks[seed % 7], decks[(seed * 3 + 1) % 7]], seed=seed)
    bots = agents(seed)
    rnd = random.Random(seed)
    rejected = 0
    while not g.over:
        legal = g.legal_actions()
        for _ in range(2):
            action = _mutate(rnd.choice(legal), rnd)
            if action in legal:
                continue
            before = g.to_json()
            try:
                g.apply(action)
            except IllegalActionError:
                assert g.to_json() == before, f"{action} changed the state"
                rejected += 1
            else:
                # only harmless changes get through (an unknown extra field, another legal split)
                g = Game.from_json(cat(), before)
        g.apply(bots[g.pending_decision().player].choose(g, legal))
    assert rejected > 50


@pytest.mark.parametrize("seed", [6, 28, 34])
def test_round_trip_before_every_action_continues_identically(seed: int) -> None:
    """Saved and restored before each action, the copy takes the same action to the same state.

    These games pass through simultaneous triggers: their order once depended on the trigger
    index's insertion order, which a restored game does not have.
    """
    decks = sorted(cat().decks)
    g = Game.new(cat(), [decks[seed % 7], decks[(seed // 7) % 7]], seed=seed)
    bots = [RandomAgent(seed), RandomAgent(seed + 9)]
    while not g.over:
        copy = Game.from_json(cat(), g.to_json(), replay=False)  # the state alone (tests/test_saves.py replays)
        assert copy.legal_actions() == g.legal_actions()
        action = bots[g.pending_decision().player].choose(g, g.legal_actions())
        g.apply(action)
        copy.apply(action)
        assert copy.to_json() == g.to_json(), f"diverged after {action}"


@pytest.mark.parametrize("where, name", [
    ("riftscript.core.engine.state", "Obj"), ("riftscript.core.engine.state", "Player"),
    ("riftscript.core.engine.state", "Battlefield"), ("riftscript.core.engine.state", "ChainItem"),
    ("riftscript.core.engine.state", "PendingTrigger"), ("riftscript.core.engine.state", "Showdown"),
    ("riftscript.core.engine.state", "Lasting"), ("riftscript.core.engine.state", "Decision"),
    ("riftscript.core.engine.state", "GameState"), ("riftscript.core.engine.payment", "Cost"),
    ("riftscript.core.engine.payment", "Plan"), ("riftscript.core.engine.playing", "PlayCheck"),
    ("riftscript.core.engine.layers", "Chars")])
def test_a_written_out_constructor_follows_the_fields(where: str, name: str) -> None:
    """The hot records' ``__init__`` is written out (compiled, it is a native constructor; the one
    ``dataclasses`` generates runs as Python): its parameters are the dataclass's fields, in order and
    with their defaults (``None`` for a field made by a factory, which the constructor then makes),
    so a field added to one and not the other fails here."""
    import dataclasses
    import importlib
    import inspect

    cls = getattr(importlib.import_module(where), name)
    try:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    except ValueError:
        params = []
    if not params or any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        pytest.skip("a compiled constructor shows no signature to read (its source is the one checked here)")
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [
        None if f.default_factory is not dataclasses.MISSING else
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields]
    made = cls(**{f.name: 0 for f in fields if f.default is dataclasses.MISSING  # required: any value will do
                  and f.default_factory is dataclasses.MISSING})
    for f in fields:
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(made, f.name) == f.default_factory(), f.name  # type: ignore[misc]



def test_a_renumbered_ability_keeps_every_other_field() -> None:
    """``Ability.renumbered`` (a borrowed, granted or attached ability numbered after its holder's own) is
    written out field by field: each field but the index and the body is kept, so a field added to
    Ability and not to it fails here."""
    import dataclasses

    from riftscript.core.script.cards import Ability

    from riftscript.core.script.slots import TargetSlots

    # a value of its type for each field, none of them its default (compiled, the fields are typed)
    values: dict[str, object] = {
        "kind": "activated", "index": 1, "body": {"cost": {}}, "keyword": "Accelerate", "keyword_value": 2,
        "event": "play", "target_slots": 3, "decides": True, "effect_targets": TargetSlots(),
        "slot_effects": {0: ({}, {})}}
    assert list(values) == [f.name for f in dataclasses.fields(Ability)]
    original = Ability(**values)  # type: ignore[arg-type]
    body = {"_lent": [7, 0]}
    copy = original.renumbered(5, body)
    assert copy.index == 5 and copy.body is body
    for f in dataclasses.fields(Ability):
        if f.name not in ("index", "body"):
            assert getattr(copy, f.name) is values[f.name], f.name


def test_snapshot_keeps_every_object_field() -> None:
    """Snapshots keep objects as tuples of their fields: a field they missed would be lost on a replay."""
    import dataclasses

    from riftscript.core.engine.state import Obj

    g = new(3)
    values: dict[str, Any] = {}
    for i, f in enumerate(dataclasses.fields(Obj)):
        kind = f.type if isinstance(f.type, str) else f.type.__name__  # a compiled dataclass gives the type
        values[f.name] = {"str": f"v{i}", "bool": True}.get(kind, 100 + i)
    values["id"] = oid = max(g.state.objs) + 1
    values["code"], values["zone"] = g.state.objs[1].code, "gone"  # a real card, out of the game
    g.state.objs[oid] = Obj(**values)
    snap = g.snapshot()
    g.state.objs[oid].damage = 0
    g.restore(snap)
    assert dataclasses.asdict(g.state.objs[oid]) == values


def test_an_offered_action_edited_in_place_is_judged_by_what_it_says_now() -> None:
    """``apply`` finds an action it offered by identity first (core/engine/offer.py, ``is_offered``): one
    the caller edited in place after listing (against the contract, "copy one before editing it") is still
    checked by what it says, so an edit to an unlisted choice is refused and the game is unchanged, and the
    same edit on a copy is refused the same way."""
    g = new(3)
    bots = agents(3)
    edited = 0
    while not g.over and edited < 20:
        legal = g.legal_actions()
        plays = [a for a in legal if a["type"] == "play"]
        if plays:
            action = plays[0]
            hand = set(g.state.players[g.pending_decision().player].hand)
            stranger = next(oid for oid in sorted(g.state.objs)
                            if oid not in hand and g.state.objs[oid].zone == "main_deck")
            before = g.to_json()
            copy = {**action, "card": stranger}
            action["card"] = stranger  # the offered dict itself
            for attempt in (action, copy):
                with pytest.raises(IllegalActionError):
                    g.apply(attempt)
                assert g.to_json() == before
            edited += 1
            legal = [a for a in legal if a is not action]  # the edited dict is in the game's list until it changes
        g.apply(bots[g.pending_decision().player].choose(g, legal))
    assert edited >= 5
