"""Soak test of every multiplayer mode: random games to the end, checked after every action.

The same invariants as the Duel soak (tests/test_soak.py): every card in exactly one zone, card
counts conserved, no negative pools, no unit with lethal damage when a player is asked to decide,
and the game ends (a winner, a team of winners, or a loop draw).  Decks rotate through the installed
decks so every deck sits in every seat (in 2v2, through the seatings whose teammates share no legend
or battlefield: 491.8.h, 491.8.i).
"""
from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache
from typing import Any

import pytest

from riftscript.core.script.catalog import load_catalog
from riftscript.core.script.decks import load_deck, team_violations
from riftscript.core.engine.game import Game
from riftscript.core.engine.invariants import check, play_checked
from riftscript.core.engine.match import Match
from riftscript.plugins.agents import RandomAgent

GAMES_PER_MODE = 80  # the default run; the slow run plays SLOW_GAMES_PER_MODE
SLOW_GAMES_PER_MODE = 400
MAX_ACTIONS = 30_000
CACHE_EVERY = 5  # the caches against a fresh copy after every fifth action (the full check doubles a soak)
SIZES = [pytest.param(GAMES_PER_MODE, id="default"),
         pytest.param(SLOW_GAMES_PER_MODE, id="long", marks=pytest.mark.slow)]


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


@lru_cache(maxsize=None)
def seatings(players: int, teams: tuple[tuple[int, ...], ...]) -> list[tuple[str, ...]]:
    """Every seating of distinct installed decks whose teammates may play together (491.8.h, 491.8.i)."""
    decks = sorted(cat().decks)
    loaded = {d: load_deck(cat(), d) for d in decks}
    return [seats for seats in itertools.permutations(decks, players)
            if not team_violations(cat(), [loaded[d] for d in seats], teams, list(seats))]


def seating(n: int, players: int, teams: tuple[tuple[int, ...], ...] = ()) -> list[str]:
    """Decks for game n: spread over every valid seating, so every deck sits in every seat."""
    options = seatings(players, teams)
    return list(options[(n * 97) % len(options)])


def soak_one(mode: str, n: int) -> Game:
    spec = cat().plugins.modes()[mode]
    decks = seating(n, spec.players, spec.teams)
    seed = 5000 + n
    g = Game.new(cat(), decks, mode=mode, seed=seed)
    agents = [RandomAgent(seed * 8 + i) for i in range(spec.players)]
    play_checked(g, agents, f"{mode} {decks} seed {seed}", MAX_ACTIONS, CACHE_EVERY)
    assert g.state.winners is not None
    if g.state.winners:
        teams = {g.state.players[w].team for w in g.state.winners}
        assert len(teams) == 1, f"{mode} seed {seed}: winners from several teams {g.state.winners}"
        team = teams.pop()
        assert sorted(g.state.winners) == sorted(p.index for p in g.state.players if p.team == team)
    else:
        assert g.state.result == "draw"
    return g


def soak_match(mode: str, n: int) -> Match:
    """One random match; the invariants hold in each of its games (every game has its own cards)."""
    decks = seating(n, 2)
    seed = 9000 + n
    m = Match.new(cat(), decks, mode=mode, seed=seed)
    agents = [RandomAgent(seed * 8 + i) for i in range(2)]
    applied = 0
    game: Game | None = None
    while not m.over:
        if m.game is not game:
            game = m.game
            cards = {oid for oid, obj in game.state.objs.items() if not obj.token}
            counts = Counter(game.state.objs[o].code for o in cards)
        assert applied < MAX_ACTIONS * 5, f"{mode} {decks} seed {seed}: no end"
        d = m.pending_decision()
        assert d is not None, f"{mode} {decks} seed {seed}: the match waits for nothing but is not over"
        m.apply(agents[d.player].choose(m.game, m.legal_actions()))
        applied += 1
        if m.game is game:
            problems = check(game, cards, counts, caches=applied % CACHE_EVERY == 0)
            assert not problems, f"{mode} {decks} seed {seed} game {m.number} action {applied}: {problems[:5]}"
    result = m.result
    needed = m.spec.best_of // 2 + 1
    assert result["games"] <= m.spec.best_of
    assert result["winner"] is None or result["wins"][result["winner"]] >= max(result["wins"])
    assert max(result["wins"]) >= needed or result["games"] == m.spec.best_of
    return m


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("mode", ["match", "match-bo5"])
def test_soak_games_per_match_mode(mode: str, size: int) -> None:
    """Random matches until `size` games of the mode were played."""
    games = matches = 0
    winners: Counter[Any] = Counter()
    while games < size:
        m = soak_match(mode, matches)
        games += m.result["games"]
        matches += 1
        winners[m.result["winner"]] += 1
    assert winners[0] and winners[1], winners


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("mode", ["skirmish", "war", "magma-chamber"])
def test_soak_games_per_mode(mode: str, size: int) -> None:
    results: Counter[str] = Counter()
    for n in range(size):
        g = soak_one(mode, n)
        results["draw" if not g.state.winners else f"seat {min(g.state.winners) + 1}"] += 1
    assert sum(results.values()) == size
    # every seat can win: a seat that never wins in this many games points at a seating bug
    seats = cat().plugins.modes()[mode].players if mode != "magma-chamber" else 2
    assert len([k for k in results if k.startswith("seat")]) == seats, results
