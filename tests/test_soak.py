"""Soak test: random games across every pairing of the installed decks, checked after every action.

Invariants (after each applied action, i.e. whenever the game hands back a decision):
- every card is in exactly one zone, and the zone lists agree with each object's ``zone``;
- no non-token card ever vanishes (card counts are conserved; only tokens cease to exist);
- no rune pool holds a negative amount;
- no unit on the board has lethal damage (the cleanups ran before the game asked anyone);
- the game ends, with a winner or a loop draw;
- after every fifth action, every cache agrees with a fresh copy of the game (invariants.cache_problems).

200 games, cycling through the 28 pairings (the 21 pairs of different decks and the 7 mirrors).
"""
from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache
from typing import Any

from riftscript.core.engine.invariants import check, play_checked
from riftscript.core.script.catalog import load_catalog
from riftscript.core.engine.game import Game
from riftscript.plugins.agents import RandomAgent
from installed import builtin_decks

MAX_ACTIONS = 20_000
CACHE_EVERY = 5  # the caches against a fresh copy after every fifth action (the full check doubles a soak)


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


def pairings() -> list[tuple[str, str]]:
    decks = builtin_decks(cat())  # the same pairings whatever other sets are installed
    assert len(decks) == 11, decks  # the seven official decks, two Spiritforged and two Unleashed demo decks
    return list(itertools.combinations_with_replacement(decks, 2))


def soak_one(decks: tuple[str, str], seed: int) -> tuple[Game, int]:
    g = Game.new(cat(), list(decks), seed=seed)
    agents = [RandomAgent(seed * 2 + 1), RandomAgent(seed * 2 + 2)]
    applied = play_checked(g, agents, f"{decks} seed {seed}", MAX_ACTIONS, CACHE_EVERY)
    assert g.state.winners is not None
    if g.state.winners:
        assert g.state.result in ("victory", "card")  # Victory Score, or a card that wins (The Grand Plaza)
        assert [e for e in g.log if e["t"] == "game_over"]
    else:
        assert g.state.result == "draw"
        assert [e for e in g.log if e["t"] == "loop_draw"]
    return g, applied


def soak(games: int) -> dict[str, Any]:
    pairs = pairings()
    results: Counter[str] = Counter()
    actions = 0
    for n in range(games):
        decks = pairs[n % len(pairs)]
        g, applied = soak_one(decks, seed=1000 + n)
        actions += applied
        results["draw" if not g.state.winners else "win"] += 1
    return {"games": games, "actions": actions, **results}


def test_soak_200_games() -> None:
    # Measured at about 11-17 s for 200 games (~31,000 actions) on the development machine, so the
    # full soak stays in the default run.
    summary = soak(200)
    assert summary["games"] == 200
    assert summary.get("win", 0) > 0


def test_soak_checks_can_fail() -> None:
    """The invariant checks see a card listed twice, a lost card, a negative pool and lethal damage."""
    g = Game.new(cat(), ["Jinx Champion Deck", "Viktor Champion Deck"], seed=1)
    cards = {oid for oid, obj in g.state.objs.items() if not obj.token}
    counts = Counter(g.state.objs[o].code for o in cards)
    assert check(g, cards, counts) == []
    p = g.state.players[0]
    p.trash.append(p.hand[0])
    assert any("places" in m for m in check(g, cards, counts))
    p.trash.pop()
    g.state.objs[p.hand[0]].zone = "trash"
    assert any("zone is trash" in m for m in check(g, cards, counts))
    g.state.objs[p.hand[0]].zone = "hand"
    p.energy = -1
    assert any("negative pool" in m for m in check(g, cards, counts))
    p.energy = 0
    b_unit = next(c for c in p.hand + p.main_deck if g.card(c).type == "unit")
    g.place(b_unit, "board", 0)
    assert check(g, cards, counts) == []
    g.state.objs[b_unit].damage = 99
    assert any("lethal damage" in m for m in check(g, cards, counts))
    lost = p.main_deck.pop()
    del g.state.objs[lost]
    assert any("non-token cards changed" in m for m in check(g, cards, counts))


def test_soak_checks_see_a_stale_cache() -> None:
    """A change the caches didn't hear of (here: a buff set without a new state version) makes the
    cached characteristics and legal actions disagree with a fresh copy of the game, and the soak fails."""
    from riftscript.core.engine import layers
    from riftscript.core.engine.builder import Builder

    b = Builder(cat())
    unit = b.add(0, "OGN-003")
    g, ids = b.build()
    cards = {oid for oid, obj in g.state.objs.items() if not obj.token}
    counts = Counter(g.state.objs[o].code for o in cards)
    assert check(g, cards, counts) == []
    might = layers.might(g, ids[unit])
    g.state.objs[ids[unit]].buffs += 2  # no version bump: the cached characteristics are stale
    problems = check(g, cards, counts)
    assert any("cached characteristics" in m and f"might={might}," in m for m in problems)
    g.touch()
    assert check(g, cards, counts) == []
    # a listener the objects don't have (an index entry not removed when it should have been)
    g.index.listeners.setdefault("play", {})[(ids[unit], 0)] = None
    assert any("dispatch index" in m for m in check(g, cards, counts))


def test_soak_checks_see_a_stale_statics_index() -> None:
    """The indexes kept while the static abilities are unchanged (which statics have which modifier kinds,
    which affect other objects) are compared with a fresh copy's: one left stale when a static source
    came or went fails the check even where the legal actions happen to be the same."""
    from riftscript.core.engine import layers
    from riftscript.core.engine.builder import Builder

    b = Builder(cat())
    b.add(0, "OGN-011")  # Magma Wurm: "other friendly units enter ready" (a static affecting objects)
    g, _ = b.build()
    cards = {oid for oid, obj in g.state.objs.items() if not obj.token}
    counts = Counter(g.state.objs[o].code for o in cards)
    assert check(g, cards, counts) == []
    assert layers.statics_by_kind(g)["enter_ready"]
    g.caches.by_kind = {}  # as if the Wurm's static were not there, the generation unchanged
    assert any("statics index statics_by_kind" in m for m in check(g, cards, counts))


def test_soak_checks_see_stale_board_indexes() -> None:
    """What the dispatch index keeps besides the listeners (the split of each event type's listeners,
    the objects attached, with statics, with activated abilities) and the answers kept while the statics
    or the lasting effects are unchanged (whether an object could have a hook, the lasting effects by the
    objects they name) are compared with a fresh copy's: each, left stale, fails the check."""
    from riftscript.core.engine import layers
    from riftscript.core.engine.builder import Builder

    b = Builder(cat())
    unit = b.add(0, "OGN-130")  # Crackshot Corsair: 'when I attack' (its own event)
    b.add(1, "OGN-003")
    g, ids = b.build()
    cards = {oid for oid, obj in g.state.objs.items() if not obj.token}
    counts = Counter(g.state.objs[o].code for o in cards)
    assert check(g, cards, counts) == []
    assert g.index.listening(g, "attack", ids[unit]) == [(ids[unit], 0)]
    g.index.listening_split["attack"] = ([], {})  # as if the Corsair listened to nothing
    assert any("split of the attack listeners" in m for m in check(g, cards, counts))
    g.index.listening_split.clear()
    for name in ("with_statics", "activators"):
        getattr(g.index, name)[ids[unit]] = None  # the Corsair has neither
        assert any(f"index's {name}" in m for m in check(g, cards, counts))
        del getattr(g.index, name)[ids[unit]]
    assert check(g, cards, counts) == []
    assert not layers.hook_in_play(g, "targeting_tax")
    g.statics_memo()[("hook_statics", "targeting_tax")] = True  # as if a static gave Deflect
    assert any("hook_statics" in m for m in check(g, cards, counts))


def test_soak_checks_see_a_hook_that_hook_in_play_says_no_object_could_have() -> None:
    """hook_values answers [] without reading characteristics while hook_in_play says no object could have the
    hook: a board object that has it then (a wrong shortcut) fails the check, as any stale answer does."""
    from riftscript.core.engine import layers
    from riftscript.core.engine.builder import Builder

    b = Builder(cat())
    poro = b.add(0, "OGN-013")  # Pouty Poro: [Deflect], the targeting_tax hook
    g, ids = b.build()
    cards = {oid for oid, obj in g.state.objs.items() if not obj.token}
    counts = Counter(g.state.objs[o].code for o in cards)
    assert check(g, cards, counts) == []
    assert layers.hook_in_play(g, "targeting_tax") and layers.hook_values(g, ids[poro], "targeting_tax")
    g.memo()["hook_in_play targeting_tax"] = False  # as if nothing in play could bring the hook
    assert any("has the hooks ['targeting_tax'], yet hook_in_play says none could be" in m
               for m in check(g, cards, counts))


def test_soak_checks_see_an_object_filed_under_another_id() -> None:
    """loop.keep and loop.rewind walk the objects by the ids they hold (the key of each is its id): an object
    filed under another id fails the check."""
    g = Game.new(cat(), ["Jinx Champion Deck", "Viktor Champion Deck"], seed=3)
    cards = {oid for oid, obj in g.state.objs.items() if not obj.token}
    counts = Counter(g.state.objs[o].code for o in cards)
    assert check(g, cards, counts) == []
    first = next(iter(g.state.objs))
    g.state.objs[first].id = first + 1000
    assert any(f"the object under id {first} says its id is {first + 1000}" in m for m in check(g, cards, counts))


def test_467_2_c_big_combat_asks_for_an_assignment_without_listing_every_order() -> None:
    """Found by the soak: 11 defenders once meant all 11! orders in memory before the first option."""
    from riftscript.core.engine.builder import Builder

    b = Builder(cat())
    bf = b.battlefield("OGN-294", controller=1)
    attackers = [b.add(0, "OGN-175", at="base") for _ in range(10)]
    for _ in range(11):
        b.add(1, "OGN-175", at=bf)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply({"type": "move", "units": [ids[a] for a in attackers], "to": bf})
    for _ in range(50):
        d = g.pending_decision()
        if d.kind == "assign":
            break
        g.apply({"type": "pass"} if d.kind == "priority" else g.legal_actions()[0])
    assert d.kind == "assign"
    assert 1 < len(d.options) <= 100
    g.apply(g.legal_actions()[0])


def test_144_3_a_move_of_more_than_64_units_is_listed_and_accepted() -> None:
    """144.3: any number of units move together; the action schema once refused a listed move of 80
    units (found by benchmarks/bench_board.py)."""
    from riftscript.core.engine.builder import Builder

    b = Builder(cat())
    bf = b.battlefield("OGN-276", controller=1, owner=1)
    units = [b.add(0, "OGN-003") for _ in range(80)]
    g, ids = b.build()
    everyone = {"type": "move", "units": [ids[u] for u in units], "to": bf}
    assert everyone in g.legal_actions()
    g.apply(everyone)
    assert all(g.obj(ids[u]).loc == bf for u in units)
