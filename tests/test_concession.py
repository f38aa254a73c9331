"""Concession in every mode: random games where players concede at random moments keep the kernel's
invariants (core/engine/invariants.py) and end with the last player or team standing.

A concession may come from any player still in the game, whoever the game is waiting for; the
conceding player's cards leave the game to their ``removed`` zone (concession.concede), so card counts
are still conserved.
"""
from __future__ import annotations

import itertools
import random
from functools import lru_cache
from typing import Any

import pytest

from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import IllegalActionError, RiftScriptError
from riftscript.core.engine.game import Game
from riftscript.core.engine.invariants import baseline, check
from riftscript.plugins.agents import RandomAgent

MAX_ACTIONS = 20_000


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


def new_game(mode: str, decks: list[str], seed: int) -> Game:
    """The decks in the first seating the mode accepts (2v2 teammates may not share battlefields)."""
    for seating in itertools.chain([tuple(decks)], itertools.permutations(sorted(cat().decks), len(decks))):
        try:
            return Game.new(cat(), list(seating), mode=mode, seed=seed)
        except RiftScriptError:
            continue
    raise AssertionError(f"no seating of the installed decks can play {mode}")


def play_with_concessions(mode: str, players: int, seed: int, rate: float) -> Game:
    decks = sorted(cat().decks)
    chooser = random.Random(seed)
    g = new_game(mode, [decks[(seed + i) % len(decks)] for i in range(players)], seed)
    cards, counts = baseline(g)
    agents = [RandomAgent(seed * 7 + i) for i in range(players)]
    applied = 0
    while not g.over:
        assert applied < MAX_ACTIONS, f"{mode} seed {seed}: no end after {MAX_ACTIONS} actions"
        d = g.pending_decision()
        assert d is not None, f"{mode} seed {seed}: the game waits for nothing but is not over"
        if chooser.random() < rate:
            who = chooser.choice([p.index for p in g.state.players if not p.conceded])
            g.apply({"type": "concede", "player": who})
        else:
            legal = g.legal_actions()
            assert legal, f"{mode} seed {seed}: no legal action for {d.kind} ({d.prompt})"
            g.apply(agents[d.player].choose(g, legal))
        applied += 1
        problems = check(g, cards, counts)
        assert not problems, f"{mode} seed {seed} action {applied}: {problems[:5]}"
        d = g.pending_decision()
        assert d is None or not g.state.players[d.player].conceded, \
            f"{mode} seed {seed}: {d.kind} asked of a player who conceded"
    return g


@pytest.mark.parametrize("mode,players", [("duel", 2), ("skirmish", 3), ("war", 4), ("magma-chamber", 4)])
def test_random_concessions_keep_the_invariants(mode: str, players: int) -> None:
    for seed in range(6):
        g = play_with_concessions(mode, players, seed, rate=0.004)
        s = g.state
        assert s.winners
        standing = [p.index for p in s.players if not p.conceded]
        if s.result == "concession":
            assert s.winners == standing  # the last player (or team) standing wins
        for p in s.players:
            if p.removed:  # left while the game went on: nothing of theirs is on the board any more
                assert all(s.objs[o].owner != p.index for o in g.board_objects())


def test_a_conceded_player_cannot_concede_again_and_nobody_else_can_be_named() -> None:
    g = Game.new(cat(), sorted(cat().decks)[:3], mode="skirmish", seed=1)
    g.apply({"type": "concede", "player": 1})
    before = g.to_json()
    for bad in ({"type": "concede", "player": 1}, {"type": "concede", "player": 5},
                {"type": "concede", "player": "B"}):
        with pytest.raises(IllegalActionError):
            g.apply(bad)
        assert g.to_json() == before


def test_a_game_with_a_concession_round_trips_through_json() -> None:
    g = Game.new(cat(), sorted(cat().decks)[:4], mode="war", seed=2)
    g.apply({"type": "concede", "player": 2})
    copy = Game.from_json(cat(), g.to_json())
    assert copy.to_json() == g.to_json()
    assert copy.state.players[2].removed and copy.observation(0)["players"][2]["conceded"] is True
