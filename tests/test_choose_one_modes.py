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
from riftscript.env.encoding import encode_actions
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


CHOOSE_TWO = """\
schema_version: 1
code: TST-201
name: Twin Verdict
type: spell
domains: [fury]
cost: {energy: 1}
abilities:
  - kind: spell
    effect:
      type: choose_one
      count: 2
      options:
        - label: draw
          effect: {type: draw, amount: 1}
        - label: stun
          effect: {type: stun, target: {pick: target, what: unit, where: {controller: enemy}}}
        - label: channel
          effect: {type: channel, amount: 1, exhausted: true}
"""


def test_choose_two_offers_each_pair_of_different_options_with_only_their_targets(tmp_path: Any) -> None:
    """``count: 2``: two different options, in the card's order; the stun's target only with the stun."""
    (tmp_path / "TST-201.yaml").write_text(CHOOSE_TWO, encoding="utf-8")
    catalog = load_catalog(extra_cards=[tmp_path], strict=False, cache=False)
    assert catalog.problems == []
    b = Builder(catalog)
    spell = b.hand(0, ["TST-201"])[0]
    b.runes(0, ["OGN-007"])
    foe = b.add(1, "OGN-175")
    b.deck(0, ["OGN-175", "OGN-175"])
    b.rune_deck(0, ["OGN-007"])
    b.at_turn(0, "main")
    g, ids = b.build()
    offered = [(a["mode"], a["targets"]) for a in g.legal_actions() if a["type"] == "play"]
    assert offered == [([0, 1], [[ids[foe]]]), ([0, 2], [[]]), ([1, 2], [[ids[foe]]])]
    before = g.to_json()
    for mode, words in (([1, 0], "list the options in the card's order"), ([0, 0], "must be different"),
                        ([0], "choose 2 option(s)")):
        with pytest.raises(IllegalActionError, match="355") as refused:
            g.apply({"type": "play", "card": ids[spell], "targets": [[ids[foe]]], "costs": [], "mode": mode})
        assert words in str(refused.value)
        assert g.to_json() == before
    g.apply({"type": "play", "card": ids[spell], "targets": [[]], "costs": [], "mode": [0, 2]})
    assert "play Twin Verdict (draw, then channel)" == describe(g, {"type": "play", "card": ids[spell],
                                                                    "targets": [[]], "mode": [0, 2]})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert len(g.state.players[0].hand) == 1 and len(g.state.players[0].runes) == 2
    assert not g.obj(ids[foe]).stunned


def test_every_listed_play_of_a_modal_spell_names_its_mode(catalog: Catalog) -> None:
    """Flurry of Feathers with three spells on the chain to counter: each one-object choice of the
    counter mode is listed with its mode (the listing's run of one-object choices too), and the Birds."""
    b = Builder(catalog)
    flurry = b.hand(0, ["UNL-044"])[0]
    b.runes(0, ["OGN-042"] * 4)
    spells = [b.add(1, "OGN-009", zone="chain") for _ in range(3)]
    for index in spells:
        b.on_chain(1, index)
    b.give_priority(0)
    b.at_turn(1, "main")
    g, ids = b.build()
    plays = [a for a in g.legal_actions() if a["type"] == "play" and a["card"] == ids[flurry]]
    assert sorted((a["mode"], a["targets"]) for a in plays) == sorted(
        [([0], [[ids[s]]]) for s in spells] + [([1], [[]])])


# ---------------------------------------------------------------------- triggered abilities
FORKED_OMEN = """\
schema_version: 1
code: TST-211
name: Forked Omen
type: unit
domains: [fury]
cost: {energy: 0}
might: 1
abilities:
  - kind: triggered
    when: {event: played, subject: self}
    effect:
      type: choose_one
      options:
        - label: strike
          effect: {type: deal_damage, amount: 2, target: {pick: target, what: unit, where: {controller: enemy}}}
        - label: draw
          effect: {type: draw, amount: 1}
"""

TWO_STRIKES = """\
schema_version: 1
code: TST-212
name: Twin Grudge
type: unit
domains: [fury]
cost: {energy: 0}
might: 1
abilities:
  - kind: triggered
    when: {event: played, subject: self}
    effect:
      type: choose_one
      options:
        - label: strike
          effect: {type: deal_damage, amount: 2, target: {pick: target, what: unit, where: {controller: enemy}}}
        - label: stun
          effect: {type: stun, target: {pick: target, what: unit, where: {controller: enemy}}}
"""


@pytest.fixture(scope="module")
def omen_catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    folder = tmp_path_factory.mktemp("trigger-modes")
    (folder / "TST-211.yaml").write_text(FORKED_OMEN, encoding="utf-8")
    (folder / "TST-212.yaml").write_text(TWO_STRIKES, encoding="utf-8")
    catalog = load_catalog(extra_cards=[folder], strict=False, cache=False)
    assert catalog.problems == []
    return catalog


def played(catalog: Catalog, code: str, foe: bool) -> tuple[Game, dict[str, int]]:
    """A plays the test unit (cost 0) to base, with or without an enemy unit on the board."""
    b = Builder(catalog)
    unit = b.hand(0, [code])[0]
    b.deck(0, ["OGN-175", "OGN-175"])
    enemy = b.add(1, "OGN-175") if foe else None
    b.at_turn(0, "main")
    g, ids = b.build()
    play = next(a for a in g.legal_actions() if a["type"] == "play" and a["card"] == ids[unit])
    g.apply(play)
    return g, {"unit": ids[unit], **({"foe": ids[enemy]} if enemy is not None else {})}


def test_a_choose_one_trigger_offers_its_modes_with_their_targets_as_it_goes_on_the_chain(omen_catalog: Catalog) -> None:
    """Engine notes, playing a card, step 2: the trigger's mode is chosen with its targets when it is put
    on the chain (the 'targets' decision, its actions carrying 'mode'); only the chosen mode happens, and
    nothing is asked as it resolves."""
    g, ids = played(omen_catalog, "TST-211", foe=True)
    d = g.pending_decision()
    assert d is not None and d.kind == "targets" and d.player == 0
    assert "mode" in d.prompt
    offered = g.legal_actions()
    assert offered == [{"type": "targets", "targets": [[ids["foe"]]], "mode": [0]},
                       {"type": "targets", "targets": [[]], "mode": [1]}]
    assert [describe(g, a) for a in offered] == [f"strike: Shipyard Skulker #{ids['foe']}", "draw"]
    table = encode_actions(g, 0, offered)
    assert sorted(map(str, table.values())) == sorted(map(str, offered))  # the k-th option, each its own index
    g.apply({"type": "targets", "targets": [[]], "mode": [1]})
    [item] = [i for i in g.state.chain if i.kind == "trigger"]
    assert item.mode == [1] and item.obj == ids["unit"]
    assert any(e["t"] == "trigger" and e.get("mode") == [1] for e in g.log)
    hand = len(g.state.players[0].hand)
    while any(i.kind == "trigger" for i in g.state.chain):
        g.apply({"type": "pass"})
        d = g.pending_decision()
        assert d is not None and d.kind == "priority"  # nothing asked on resolution
    assert len(g.state.players[0].hand) == hand + 1
    assert g.obj(ids["foe"]).damage == 0


def test_a_trigger_mode_is_refused_without_its_mode_or_with_another_mode_s_targets(omen_catalog: Catalog) -> None:
    g, ids = played(omen_catalog, "TST-211", foe=True)
    before = g.to_json()
    for action, words in (({"type": "targets", "targets": [[ids["foe"]]]}, "choose the mode"),
                          ({"type": "targets", "targets": [[ids["foe"]]], "mode": [1]}, "not one of the options"),
                          ({"type": "targets", "targets": [[]], "mode": [0]}, "not one of the options")):
        with pytest.raises(IllegalActionError) as refused:
            g.apply(action)  # type: ignore[arg-type]
        assert words in str(refused.value)
        assert g.to_json() == before
    g.apply({"type": "targets", "targets": [[ids["foe"]]], "mode": [0]})
    while any(i.kind == "trigger" for i in g.state.chain):
        g.apply({"type": "pass"})
    assert g.obj(ids["foe"]).damage == 2
    assert len(g.state.players[0].hand) == 0


def test_a_trigger_mode_without_a_legal_target_is_not_offered(omen_catalog: Catalog) -> None:
    """355.4: no enemy unit, so the strike can't be chosen; the one open mode is taken without a decision."""
    g, ids = played(omen_catalog, "TST-211", foe=False)
    d = g.pending_decision()
    assert d is not None and d.kind == "priority"
    [item] = [i for i in g.state.chain if i.kind == "trigger"]
    assert item.mode == [1] and item.targets == [[]]  # the strike's slot left empty


def test_a_trigger_whose_every_mode_is_impossible_is_skipped_like_one_without_targets(omen_catalog: Catalog) -> None:
    g, ids = played(omen_catalog, "TST-212", foe=False)
    assert not any(i.kind == "trigger" for i in g.state.chain)
    assert any(e["t"] == "trigger_skipped" and e["obj"] == ids["unit"] for e in g.log)


def test_a_trigger_mode_decision_and_a_chosen_mode_are_saved_and_replayed(omen_catalog: Catalog) -> None:
    g, ids = played(omen_catalog, "TST-211", foe=True)
    loaded = Game.from_json(omen_catalog, g.to_json())
    assert loaded.legal_actions() == g.legal_actions()
    loaded.apply({"type": "targets", "targets": [[ids["foe"]]], "mode": [0]})
    again = Game.from_json(omen_catalog, loaded.to_json())
    assert again.to_json() == loaded.to_json()
    assert [i.mode for i in again.state.chain if i.kind == "trigger"] == [[0]]
