"""Soak test of every multiplayer mode: random games to the end, checked after every action.

The same invariants as the Duel soak (tests/test_soak.py): every card in exactly one zone, card
counts conserved, no negative pools, no unit with lethal damage when a player is asked to decide,
and the game ends (a winner, a team of winners, or a loop draw).  Decks rotate through the installed
decks so every deck sits in every seat.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

import pytest

from riftscript.core.catalog import load_catalog
from riftscript.core.game import Game
from riftscript.core.invariants import check
from riftscript.plugins.agents import RandomAgent

GAMES_PER_MODE = 200
MAX_ACTIONS = 30_000


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


def seating(n: int, players: int) -> list[str]:
    decks = sorted(cat().decks)
    return [decks[(n + k * 3) % len(decks)] for k in range(players)]


def soak_one(mode: str, n: int) -> Game:
    spec = cat().plugins.modes()[mode]
    decks = seating(n, spec.players)
    seed = 5000 + n
    g = Game.new(cat(), decks, mode=mode, seed=seed)
    cards = {oid for oid, obj in g.state.objs.items() if not obj.token}
    counts = Counter(g.state.objs[o].code for o in cards)
    agents = [RandomAgent(seed * 8 + i) for i in range(spec.players)]
    applied = 0
    while not g.over:
        assert applied < MAX_ACTIONS, f"{mode} {decks} seed {seed}: no end after {MAX_ACTIONS} actions"
        d = g.pending_decision()
        assert d is not None, f"{mode} {decks} seed {seed}: the game waits for nothing but is not over"
        legal = g.legal_actions()
        assert legal, f"{mode} {decks} seed {seed}: no legal action for {d.kind} ({d.prompt})"
        action = agents[d.player].choose(g, legal)
        g.apply(action)
        applied += 1
        problems = check(g, cards, counts)
        assert not problems, f"{mode} {decks} seed {seed} action {applied} {action}: {problems[:5]}"
    assert g.state.winners is not None
    if g.state.winners:
        teams = {g.state.players[w].team for w in g.state.winners}
        assert len(teams) == 1, f"{mode} seed {seed}: winners from several teams {g.state.winners}"
        team = teams.pop()
        assert sorted(g.state.winners) == sorted(p.index for p in g.state.players if p.team == team)
    else:
        assert g.state.result == "draw"
    return g


@pytest.mark.parametrize("mode", ["skirmish", "war", "magma-chamber"])
def test_soak_200_games_per_mode(mode: str) -> None:
    results: Counter[str] = Counter()
    for n in range(GAMES_PER_MODE):
        g = soak_one(mode, n)
        results["draw" if not g.state.winners else f"seat {min(g.state.winners) + 1}"] += 1
    assert sum(results.values()) == GAMES_PER_MODE
    # every seat can win: a seat that never wins in 200 games points at a seating bug
    seats = cat().plugins.modes()[mode].players if mode != "magma-chamber" else 2
    assert len([k for k in results if k.startswith("seat")]) == seats, results
