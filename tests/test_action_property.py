"""Property: an action apply refuses changes nothing, and apply accepts exactly the listed actions.

Hypothesis plays random games of every mode and, at random points, tries malformed actions
(missing and extra keys, wrong types, NaN, deep nesting, not a mapping) and well-formed but illegal
ones (stale actions of earlier decisions, other players' actions, other objects' ids, other types).
Each refusal must leave ``to_json()`` byte-identical and the same actions listed; every action tried
that is not listed must be refused; listed actions tried on a copy are accepted; the game goes on.
The default profile is derandomized with a fixed number of examples; ``-m slow`` runs a longer one.
"""
from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riftscript.core.script.catalog import load_catalog
from riftscript.core.engine.decisions import ACTIONS
from riftscript.core.engine.offer import same
from riftscript.core.errors import IllegalActionError
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match
from riftscript.plugins.agents import RandomAgent

DECKS = ["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", "Jinx Champion Deck"]
MODES = {"duel": 2, "match": 2, "skirmish": 3, "war": 4, "magma-chamber": 4}
KEYS = ["card", "units", "to", "targets", "source", "ability", "value", "cards", "order", "damage", "location",
        "costs", "battlefield", "pay_with", "teammate", "player", "type", "extra"]
DEEP: Any = 0
for _ in range(100):
    DEEP = [DEEP]
WEIRD = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 200), st.integers(min_value=2**40), st.sampled_from([math.nan, 1.5, 2.0]),
    st.text(max_size=8), st.sampled_from(["hidden-0000000000", "", "pass"]), st.just(DEEP),
    st.lists(st.integers(-2, 150), max_size=4), st.lists(st.lists(st.integers(-2, 150), max_size=3), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(-1, 9), max_size=3))
TRIED: dict[str, int] = {"points": 0, "refused": 0, "listed_applied": 0}


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


def start(mode: str, seed: int) -> Game | Match:
    decks = DECKS[:MODES[mode]]
    if mode == "match":
        return Match.new(cat(), decks[:2], mode=mode, seed=seed)
    return Game.new(cat(), decks, mode=mode, seed=seed)


def copy_of(game: Game | Match) -> Game | Match:
    if isinstance(game, Match):
        return Match.from_json(cat(), game.to_json(), replay=False)
    return Game.from_json(cat(), game.to_json(), replay=False)


def current(game: Game | Match) -> Game:
    return game.game if isinstance(game, Match) else game


@st.composite
def candidates(draw: st.DrawFn, legal: list[dict[str, Any]], stale: list[dict[str, Any]],
               ids: list[int]) -> Any:
    """An action to try: most are legal actions changed a little, some are old or foreign ones."""
    kind = draw(st.sampled_from(["mutate", "mutate", "mutate", "id", "stale", "type", "raw"]))
    if kind == "stale" and stale:
        return draw(st.sampled_from(stale))
    if kind == "raw":
        return draw(st.one_of(WEIRD, st.dictionaries(st.sampled_from(KEYS), WEIRD, max_size=4),
                              st.fixed_dictionaries({"type": st.sampled_from(list(ACTIONS))},
                                                    optional={k: WEIRD for k in KEYS if k != "type"})))
    action = dict(draw(st.sampled_from(legal)))
    if kind == "type":
        action["type"] = draw(st.sampled_from(sorted(ACTIONS) + ["Play", "bogus", ""]))
        return action
    if kind == "id" and ids:
        # another object's id where the action names one
        for key in ("card", "source", "units", "targets", "cards"):
            if key in action:
                value = action[key]
                other = draw(st.sampled_from(ids))
                if isinstance(value, int):
                    action[key] = other
                elif isinstance(value, list) and value and isinstance(value[0], list) and value[0]:
                    action[key] = [[other] + slot[1:] for slot in value]
                elif isinstance(value, list) and value:
                    action[key] = [other] + value[1:]
                return action
    keys = [k for k in action if k != "type"]
    how = draw(st.sampled_from(["drop", "add", "replace", "replace"]))
    if how == "drop" and keys:
        del action[draw(st.sampled_from(keys))]
    elif how == "add" or not keys:
        action[draw(st.sampled_from(KEYS))] = draw(WEIRD)
    else:
        action[draw(st.sampled_from(keys))] = draw(WEIRD)
    return action


def concession_accepted(game: Game | Match, action: Any) -> bool:
    """A well-formed concession of a player still in the game is accepted at any time."""
    if not isinstance(action, dict) or action.get("type") != "concede" or set(action) - {"type", "player"}:
        return False
    g = current(game)
    d = g.pending_decision()
    who = action.get("player", d.player if d else -1)
    return type(who) is int and 0 <= who < len(g.state.players) and not g.state.players[who].conceded


def check_point(data: st.DataObject, game: Game | Match, stale: list[dict[str, Any]]) -> None:
    legal = game.legal_actions()
    ids = sorted(current(game).state.objs)
    before = game.to_json()
    TRIED["points"] += 1
    for _ in range(4):
        action = data.draw(candidates(legal, stale, ids))
        if concession_accepted(game, action):
            continue
        if isinstance(action, dict) and any(same(action, a) for a in legal):
            continue  # a mutation that changed nothing
        with pytest.raises(IllegalActionError):
            game.apply(action)
        TRIED["refused"] += 1
        assert game.to_json() == before, f"refusing {json.dumps(action, default=str)[:200]} changed the game"
        assert game.legal_actions() == legal
    # the other way round: a listed action is accepted (on a copy)
    listed = data.draw(st.sampled_from(legal))
    copy = copy_of(game)
    copy.apply(listed)
    TRIED["listed_applied"] += 1


def play(data: st.DataObject, mode: str, seed: int, steps: int) -> None:
    game = start(mode, seed)
    players = MODES[mode]
    agents = [RandomAgent(seed * 10 + i) for i in range(players)]
    stale: list[dict[str, Any]] = []
    for step in range(steps):
        if game.over:
            break
        d = game.pending_decision()
        assert d is not None
        legal = game.legal_actions()
        if data.draw(st.integers(0, 9), label="check here") == 0:
            check_point(data, game, stale)
        stale.extend(legal[:3])
        del stale[:-30]
        game.apply(agents[d.player].choose(current(game), legal))


@settings(max_examples=40, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), mode=st.sampled_from(sorted(MODES)), seed=st.integers(0, 10_000),
       steps=st.integers(0, 160))
def test_refused_actions_change_nothing_and_only_listed_actions_are_accepted(
        data: st.DataObject, mode: str, seed: int, steps: int) -> None:
    play(data, mode, seed, steps)


@pytest.mark.slow
@settings(max_examples=600, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), mode=st.sampled_from(sorted(MODES)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 400))
def test_refused_actions_change_nothing_long_run(data: st.DataObject, mode: str, seed: int, steps: int) -> None:
    play(data, mode, seed, steps)


def test_an_action_nested_ten_thousand_deep_is_refused_without_exhausting_the_stack() -> None:
    game = start("duel", 1)
    deep: Any = 0
    for _ in range(10_000):
        deep = [deep]
    before = game.to_json()
    for action in ({"type": "play", "card": deep}, {"type": "mulligan", "cards": deep, "extra": deep},
                   {"type": "choose", "value": deep}, {"type": deep}, deep):
        with pytest.raises(IllegalActionError):
            game.apply(action)
    assert game.to_json() == before


def test_a_concession_without_a_player_is_the_deciding_players_and_the_game_goes_on() -> None:
    """It used to fail half-way: logged, the decision gone, legal_actions() empty in a game not over."""
    game = start("skirmish", 2)
    assert isinstance(game, Game)
    d = game.pending_decision()
    assert d is not None
    game.apply({"type": "concede"})
    assert game.state.players[d.player].conceded and not game.over
    assert game.pending_decision() is not None and game.legal_actions()


@pytest.mark.parametrize("extra", [{"player": 1}, {"cheat": True}])
def test_an_unknown_key_is_refused_naming_it(extra: dict[str, Any]) -> None:
    game = start("duel", 3)
    listed = game.legal_actions()[0]
    before = game.to_json()
    with pytest.raises(IllegalActionError, match=f"malformed {listed['type']} action: unknown key '{next(iter(extra))}'"):
        game.apply({**listed, **extra})
    assert game.to_json() == before


def test_an_action_with_a_wrong_type_is_refused_naming_the_key() -> None:
    game = start("duel", 3)
    while not any(a["type"] == "play" for a in game.legal_actions()):
        game.apply(game.legal_actions()[0])
    play = next(a for a in game.legal_actions() if a["type"] == "play")
    for value, words in ((str(play["card"]), "is not of type 'integer' (card)"), (float(play["card"]), "fraction")):
        with pytest.raises(IllegalActionError, match=re.escape(words)):
            game.apply({**play, "card": value})


class _ChangesItsMind(dict):  # type: ignore[type-arg]
    """A mapping that answers 'card' truthfully to the first reads only, then names another card."""

    reads = 0
    other = -1

    def get(self, key: Any, default: Any = None) -> Any:
        type(self).reads += 1
        if key == "card" and type(self).reads > 2:
            return type(self).other
        return dict.get(self, key, default)

    def __getitem__(self, key: Any) -> Any:
        value = self.get(key)
        return dict.__getitem__(self, key) if value is None else value


def test_the_action_performed_and_logged_is_the_one_checked() -> None:
    """apply reads the caller's action once, into its own plain copy: a mapping that changes its answers after
    the check, or a dict the caller edits after apply, changes neither what was played nor the log."""
    game = start("duel", 3)
    while not any(a["type"] == "play" for a in game.legal_actions()):
        first = dict(game.legal_actions()[0])
        game.apply(first)
        logged = game.log_hash()
        first["cards"], first["evil"] = ["pwned"], 1
        assert game.log_hash() == logged
    plays = [a for a in game.legal_actions() if a["type"] == "play"]
    others = [oid for oid, o in game.state.objs.items() if o.zone == "hand" and oid != plays[0]["card"]]
    _ChangesItsMind.other = others[0]
    game.apply(_ChangesItsMind(plays[0]))
    logged_action = [e for e in game.log if e["t"] == "action"][-1]["action"]
    assert logged_action == plays[0] and type(logged_action) is dict
    assert [e["obj"] for e in game.log if e["t"] == "play"][-1] == plays[0]["card"]
    Game.from_json(load_catalog(), game.to_json())  # the save replays


def test_an_action_with_too_many_values_is_refused_at_once() -> None:
    game = start("duel", 4)
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="an action holds at most 10000 values"):
        game.apply({"type": "mulligan", "cards": list(range(1_000_000))})
    assert game.to_json() == before
