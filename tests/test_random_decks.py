"""Random legal decks (``decks.random_deck``) and the soak that plays them.

The soaks of tests/test_soak.py and tests/test_soak_modes.py play the installed decks, which hold a
fraction of the cards: every other card was only ever played in its own scenarios. Random decks put
every card of the built-in sets on a table with unrelated cards, in every mode, with every invariant
checked after each action. The first such run (stop 31) found seven engine and card faults, each now
proven by a scenario or a test of its own (a Nocturne in the deck at the start: below)."""
from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from pathlib import Path
from random import Random
from typing import Any

import pytest

from riftscript.core.engine.game import Game
from riftscript.core.engine.invariants import baseline, check
from riftscript.core.errors import DeckError
from riftscript.core.script.catalog import load_catalog
from riftscript.core.script.decks import deck_document, load_deck, random_deck, random_seating, violations
from riftscript.tools.lab.engine import FixedPlan, Job, play
from installed import builtin_set_codes

GAMES_PER_MODE = 3
MAX_ACTIONS = 30_000


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


def builtin_deck(seed: int, name: str) -> Any:
    """A random deck of the built-in sets only: the same decks whatever other set is installed."""
    return random_deck(cat(), Random(seed), name, sets=builtin_set_codes(cat()))


def test_random_decks_are_legal_and_reproducible() -> None:
    decks = [builtin_deck(seed, f"R{seed}") for seed in range(60)]
    for deck in decks:
        assert violations(cat(), deck) == [], deck.name
        assert len(deck.main) == 39 and len(deck.runes) == 12 and len(deck.battlefields) == 3
    assert decks[7] == builtin_deck(7, "R7")
    assert len({d.legend for d in decks}) > 10  # not one legend again and again
    assert all(cat().cards[code].set_code in builtin_set_codes(cat()) for d in decks for code in d.main)


def test_a_random_deck_written_as_a_deck_file_reads_back_the_same(tmp_path: Path) -> None:
    for seed in range(10):
        deck = builtin_deck(seed, f"R{seed}")
        path = tmp_path / f"r{seed}.yaml"
        path.write_text(json.dumps(deck_document(deck)), encoding="utf-8")  # JSON is YAML
        assert load_deck(cat(), str(path)) == deck


def test_a_random_deck_from_sets_without_a_legend_is_refused() -> None:
    with pytest.raises(DeckError, match="no legend"):
        random_deck(cat(), Random(0), "none", sets={"no such set"})


def test_a_trigger_that_listens_from_the_deck_is_live_from_the_first_action() -> None:
    """Nocturne, Horrifying (OGN-194) triggers when looked at in the Main Deck: a deck's cards are made at
    setup without being moved there, and the dispatch index missed them, so a real game's Nocturne never
    triggered until it had left the deck and come back (a built position indexes every object anew)."""
    jinx = load_deck(cat(), "Jinx Champion Deck")
    main = ("OGN-194",) * 3 + jinx.main[3:]
    deck = dataclasses.replace(jinx, main=main)
    g = Game.new(cat(), [deck, jinx], seed=3)
    nocturnes = [oid for oid in g.state.players[0].main_deck if g.obj(oid).code == "OGN-194"]
    assert nocturnes
    for oid in nocturnes:
        assert (oid, 0) in g.index.listening(g, "looked_at", oid)
    assert check(g, *baseline(g)) == []


@pytest.mark.parametrize("mode", sorted(load_catalog().plugins.modes()))
def test_random_decks_soak(mode: str) -> None:
    """Random games of random decks in every mode, every invariant after every action (the caches
    against a fresh copy too): no crash, no broken invariant, and every game ends."""
    spec_of_mode = cat().plugins.modes()[mode]
    failures = []
    for n in range(GAMES_PER_MODE):
        seed = 1000 * n + len(mode)
        decks = random_seating(cat(), Random(seed), spec_of_mode.players, spec_of_mode.teams, f"R{seed}",
                               sets=builtin_set_codes(cat()))
        plan = FixedPlan(mode, decks, tuple(d.name for d in decks), ("random",) * len(decks), seed, 1)
        record = play(cat(), Job(plan, checked=True, max_actions=MAX_ACTIONS), plan.spec(0))
        if record.get("error"):
            failures.append((seed, [dataclasses.asdict(d) for d in decks], record["error"]))
    assert not failures, failures[0]
