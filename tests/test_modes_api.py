"""The headless API's promises in the multiplayer modes: atomic illegal actions, lossless JSON,
determinism and hidden information hold for three and four players as they do in Duel."""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest

from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import IllegalActionError
from riftscript.core.engine.game import Game
from riftscript.plugins.agents import RandomAgent
from test_api import _mutate

# seats 1+3 and 2+4 may be teammates (491.8.h, 491.8.i)
DECKS = ["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", "Jinx Champion Deck"]
MODES = [("skirmish", 3), ("war", 4), ("magma-chamber", 4)]


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


def new(mode: str, players: int, seed: int) -> Game:
    return Game.new(cat(), DECKS[:players], mode=mode, seed=seed)


@pytest.mark.parametrize("mode,players", MODES)
def test_malformed_actions_change_nothing_in_multiplayer_games(mode: str, players: int) -> None:
    g = new(mode, players, 11)
    bots = [RandomAgent(40 + i) for i in range(players)]
    rnd = random.Random(11)
    rejected = 0
    while not g.over and rejected < 150:
        legal = g.legal_actions()
        action = _mutate(rnd.choice(legal), rnd)
        if action not in legal:
            before = g.to_json()
            try:
                g.apply(action)
            except IllegalActionError:
                assert g.to_json() == before, f"{action} changed the state"
                rejected += 1
            else:
                g = Game.from_json(cat(), before)
        d = g.pending_decision()
        assert d is not None
        g.apply(bots[d.player].choose(g, g.legal_actions()))
    assert rejected >= 100


@pytest.mark.parametrize("mode,players", MODES)
def test_round_trip_before_every_action_continues_identically(mode: str, players: int) -> None:
    g = new(mode, players, 5)
    bots = [RandomAgent(70 + i) for i in range(players)]
    steps = 0
    while not g.over and steps < 250:
        copy = Game.from_json(cat(), g.to_json(), replay=False)  # the state alone (tests/test_saves.py replays)
        d = g.pending_decision()
        assert d is not None
        legal = g.legal_actions()
        assert copy.legal_actions() == legal
        action = bots[d.player].choose(g, legal)
        g.apply(action)
        copy.apply(action)
        assert copy.log_hash() == g.log_hash()
        steps += 1
    assert steps == 250 or g.over


@pytest.mark.parametrize("mode,players", MODES)
def test_same_seed_and_actions_give_the_same_log(mode: str, players: int) -> None:
    hashes = []
    for _ in range(2):
        g = new(mode, players, 21)
        bots = [RandomAgent(90 + i) for i in range(players)]
        while not g.over:
            d = g.pending_decision()
            assert d is not None
            g.apply(bots[d.player].choose(g, g.legal_actions()))
        hashes.append(g.log_hash())
    assert hashes[0] == hashes[1]
    other = new(mode, players, 22)
    assert other.log_hash() != new(mode, players, 21).log_hash()


@pytest.mark.parametrize("mode,players", MODES)
def test_each_player_sees_only_their_own_hand_and_options(mode: str, players: int) -> None:
    """Opponents' and teammates' hands are counts; only the deciding player sees their options."""
    g = new(mode, players, 3)
    d = g.pending_decision()
    assert d is not None
    for viewer in range(players):
        seen = g.observation(viewer)
        for p in seen["players"]:
            if p["index"] == viewer:
                assert isinstance(p["hand"], list) and len(p["hand"]) == len(g.state.players[viewer].hand)
            else:
                assert p["hand"] == len(g.state.players[p["index"]].hand)
        options = seen["decision"]["options"]
        assert isinstance(options, list) if viewer == d.player else options == len(d.options)
