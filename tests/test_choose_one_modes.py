"""The modes of a "Choose one" spell or activated ability are chosen as it is played or activated
(engine notes, the process of playing a card, step 2; 355): the legal actions carry them (``mode``),
and everything that shows, takes or replays actions handles them."""
from __future__ import annotations

from typing import Any

import pytest

from riftscript.core.engine.builder import Builder
from riftscript.core.engine.game import Game
from riftscript.core.errors import IllegalActionError
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.plugins.agents import GreedyAgent
from riftscript.tools.env.encoding import encode_actions
from riftscript.tools.interactive import describe


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def udyr_alone(catalog: Catalog) -> tuple[Game, int]:
    """Udyr, Wildman in A's base with a buff to spend, exhausted, no unit at a battlefield."""
    b = Builder(catalog)
    udyr = b.add(0, "OGN-157", exhausted=True, buffs=1)
    b.at_turn(0, "main")
    g, ids = b.build()
    return g, ids[udyr]


def test_udyr_offers_the_modes_without_targets_when_no_unit_is_at_a_battlefield(catalog: Catalog) -> None:
    g, udyr = udyr_alone(catalog)
    offered = [a for a in g.legal_actions() if a["type"] == "activate" and a["source"] == udyr]
    assert [(a.get("mode"), a.get("targets")) for a in offered] == [([2], [[], []]), ([3], [[], []])]
    assert [describe(g, a) for a in offered] == ["use Udyr, Wildman's ability 1 (ready)",
                                                  "use Udyr, Wildman's ability 1 (ganking)"]
    table = encode_actions(g, 0, g.legal_actions())
    assert sum(1 for a in table.values() if a in offered) == 2  # the environment tells the modes apart


def test_an_illegal_mode_is_refused_naming_the_rule_and_changes_nothing(catalog: Catalog) -> None:
    g, udyr = udyr_alone(catalog)
    before = g.to_json()
    for mode, words in (([0], "choose 1 target(s), not 0"), ([7], "by index"), (None, "choose Udyr, Wildman's mode"),
                        ([2, 3], "choose 1 option(s)")):
        action: dict[str, Any] = {"type": "activate", "source": udyr, "ability": 0, "targets": [[], []]}
        if mode is not None:
            action["mode"] = mode
        with pytest.raises(IllegalActionError, match="355") as refused:
            g.apply(action)  # type: ignore[arg-type]
        assert words in str(refused.value)
        assert g.to_json() == before


def test_a_game_with_a_mode_chosen_replays_to_the_same_log_hash(catalog: Catalog) -> None:
    """Greedy against greedy, Lee Sin's deck (with Udyr) on seed 14: Udyr is activated with a mode."""
    g = Game.new(catalog, ["Lee Sin Champion Deck", "Jinx Champion Deck"], mode="duel", seed=14)
    bots = [GreedyAgent(14), GreedyAgent(15)]
    moded: list[dict[str, Any]] = []
    while not g.over:
        d = g.pending_decision()
        assert d is not None
        action = bots[d.player].choose(g, g.legal_actions())
        if "mode" in action:
            moded.append(dict(action))
            assert "(" in describe(g, action)
        g.apply(action)
    assert moded
    assert any(e["t"] == "activate" and "mode" in e for e in g.log)
    again = Game.from_json(catalog, g.to_json())
    assert again.log_hash() == g.log_hash()


def test_a_mode_on_the_chain_is_saved_and_resolves_after_loading(catalog: Catalog) -> None:
    g, udyr = udyr_alone(catalog)
    g.apply({"type": "activate", "source": udyr, "ability": 0, "targets": [[], []], "mode": [2]})
    assert [item.mode for item in g.state.chain] == [[2]]
    loaded = Game.from_json(catalog, g.to_json())
    assert loaded.to_json() == g.to_json()
    while loaded.state.chain:
        loaded.apply({"type": "pass"})
    assert not loaded.obj(udyr).exhausted
    decision = loaded.pending_decision()
    assert decision is not None and decision.kind == "priority"  # nothing asked on resolution
