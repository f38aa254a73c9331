"""``riftscript mutate``: small changes to a card's script, killed by the scenarios that notice them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.tools import mutate
from tests.clihelp import run

CARD = """\
schema_version: 1
code: ZAP-001
name: Zapper
type: spell
cost: {energy: 1}
abilities:
  - kind: spell
    effect:
      type: deal_damage
      amount: 2
      target: {pick: target, what: unit, where: {controller: enemy}}
"""

SCENARIO = """\
schema_version: 1
scenarios:
  - name: Zapper deals 2 to an enemy unit
    cards: [ZAP-001]
    setup:
      A: {hand: [{card: ZAP-001, as: zap}], runes: [OGN-007]}
      B: {base: [{card: OGN-049, as: phantom}]}
    steps:
      - {do: play, player: A, card: zap, targets: [[phantom]]}
      - {do: pass, player: A}
      - {do: pass, player: B, expect: {damage: {phantom: 2}}}
"""

EQUIVALENT = """\
mutation:
  equivalent:
    - {at: cost.energy, change: "1 -> 0", reason: "the scenario's rune pays either cost"}
"""


@pytest.fixture(scope="module")
def zappers(tmp_path_factory: pytest.TempPathFactory) -> tuple[Catalog, Path]:
    """Zapper (ZAP-001), the same card with an equivalent mutant marked (ZAP-002), their scenarios."""
    root = tmp_path_factory.mktemp("zap")
    (root / "cards").mkdir()
    (root / "scenarios").mkdir()
    for code, extra in (("ZAP-001", ""), ("ZAP-002", EQUIVALENT)):
        (root / "cards" / f"{code}.yaml").write_text(CARD.replace("ZAP-001", code) + extra, encoding="utf-8")
        (root / "scenarios" / f"{code}.yaml").write_text(SCENARIO.replace("ZAP-001", code), encoding="utf-8")
    catalog = load_catalog(extra_cards=[root / "cards"])
    catalog.raise_for_problems()
    return catalog, root


def _workspace(zappers: tuple[Catalog, Path]) -> mutate.Workspace:
    catalog, root = zappers
    return mutate.workspace(catalog, [root / "scenarios"], use_cache=False, installed=False)


def test_mutants_cover_every_operator() -> None:
    card = {
        "code": "T-1", "type": "unit", "might": 3, "keywords": [{"Assault": 2}],
        "abilities": [
            {"kind": "triggered", "when": {"event": "conquer", "subject": "self", "here": True}, "once_per_turn": True,
             "if": {"type": "all", "of": [{"type": "turn", "whose": "yours"}, {"type": "turn", "whose": "yours"}]},
             "effect": {"type": "sequence", "steps": [
                 {"type": "may", "effect": {"type": "draw", "amount": 1, "player": "you"}},
                 {"type": "modify_might", "target": {"pick": "all", "what": "unit", "up_to": True,
                                                     "where": {"controller": "friendly", "location": "here"}},
                  "amount": 1, "duration": "this_turn"},
                 {"type": "stun", "target": {"pick": "target", "what": "unit", "where": {"controller": "enemy"}}},
                 {"type": "channel", "amount": 1, "exhausted": True}]}},
            {"kind": "static", "modifiers": [{"type": "might", "amount": 1}]}],
    }
    found = {m.operator for m in mutate.mutants(card)}
    assert found == set(mutate.OPERATORS)
    changes = {(m.at, m.change) for m in mutate.mutants(card)}
    assert ("abilities[0].when.event", "event: conquer -> hold") in changes
    assert ("abilities[0].effect.steps[1].target.where.location", "location: here -> there") in changes
    assert ("abilities[0].effect.steps[1].duration", "duration: this_turn -> permanent") in changes
    assert ("keywords[0].Assault", "2 -> 3") in changes
    assert ("abilities[1].affects", "affects: self -> other objects") in changes
    assert ("abilities[0].effect.steps[2].target.where.controller", "controller: enemy -> not_you") in changes
    assert ("abilities[0].effect.steps[1].target.where.controller", "controller: friendly -> you") in changes
    assert ("abilities[0].effect.steps[0].effect.player", "player: you -> friendly") in changes
    assert ("abilities[0].once_per_turn", "drop once_per_turn (every time)") in changes
    assert ("abilities[0].effect.steps[3].exhausted", "exhausted: True -> False") in changes
    assert ("abilities[0].effect.steps[2].target.pick", "pick: target -> choose") in changes


def test_a_card_is_scored_by_its_scenarios(zappers: tuple[Catalog, Path]) -> None:
    result = mutate.test_card(_workspace(zappers), "ZAP-001")
    assert result.scenarios == 1 and result.broken == []
    survived = {(s.at, s.change, s.line) for s in result.survived}
    # nothing in the scenario tells an enemy unit from any unit (a Duel has no teammate either), nor pays
    # more than the cost needs
    assert survived == {("abilities[0].effect.target.where.controller", "drop controller: enemy", 11),
                        ("abilities[0].effect.target.where.controller", "controller: enemy -> not_you", 11),
                        ("cost.energy", "1 -> 0", 5)}
    assert result.killed == result.mutants - 3 and result.killed >= 4  # amount +-1, energy +1, friendly
    assert result.score == pytest.approx(100 * result.killed / result.mutants)


def test_an_equivalent_mutant_is_listed_with_its_reason_not_as_a_survivor(zappers: tuple[Catalog, Path]) -> None:
    result = mutate.test_card(_workspace(zappers), "ZAP-002")
    assert [(s.at, s.change, s.reason) for s in result.equivalent] == \
        [("cost.energy", "1 -> 0", "the scenario's rune pays either cost")]
    assert [s.change for s in result.survived] == ["drop controller: enemy", "controller: enemy -> not_you"]
    assert result.score == pytest.approx(100 * result.killed / (result.mutants - 1))


def test_a_scenario_failing_on_the_card_as_it_is_proves_nothing(zappers: tuple[Catalog, Path],
                                                                 tmp_path: Path) -> None:
    catalog, _ = zappers
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "ZAP-001.yaml").write_text(SCENARIO.replace("phantom: 2", "phantom: 5"))
    ws = mutate.workspace(catalog, [tmp_path / "scenarios"], use_cache=False, installed=False)
    result = mutate.test_card(ws, "ZAP-001")
    assert result.scenarios == 0 and len(result.broken) == 1
    assert result.killed == 0 and len(result.survived) == result.mutants


def test_the_sample_keeps_its_score() -> None:
    """A fixed sample of Origins and Proving Grounds cards: its mutation score must not fall under what it
    is today (other installed sets are sampled on their own)."""
    result = run("mutate", "--set", "OGN", "--set", "OGS", "--sample", "24", "--seed", "11", "--workers", "1",
                 "--format", "json", "--min-score", "90")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["sets"]["all"]["cards"] == 24 and report["sets"]["all"]["score"] >= 90


def test_min_score_sets_the_exit_status(tmp_path: Path) -> None:
    """A set folder whose Zapper scenario leaves two survivors (a card with none passes any minimum)."""
    (tmp_path / "set.yaml").write_text("schema_version: 1\ncode: ZAP\nname: Zappers\nversion: 0.1.0\n"
                                       "requires: {engine: \">=0.1\", schema_version: 1}\n", encoding="utf-8")
    (tmp_path / "cards").mkdir()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "cards" / "ZAP-001.yaml").write_text(CARD, encoding="utf-8")
    (tmp_path / "scenarios" / "ZAP-001.yaml").write_text(SCENARIO, encoding="utf-8")
    result = run("--set", str(tmp_path), "mutate", "--card", "ZAP-001", "--workers", "1", "--min-score", "100")
    assert result.code == 1, result.err
    assert "ZAP-001 Zapper:" in result.out and "survived: " in result.out
    assert "below --min-score 100%" in result.err


WRONG_MARKS = """\
mutation:
  equivalent:
    - {at: "abilities[0].effect.amount", change: "2 -> 3", reason: "a wrong reason: the scenario sees 3 damage"}
    - {at: might, change: "3 -> 4", reason: "a spell has no Might: no mutant matches this mark"}
"""


def test_an_equivalence_mark_is_checked_not_trusted(zappers: tuple[Catalog, Path], tmp_path: Path) -> None:
    """A mark whose mutant a scenario kills, and a mark matching no mutant, are wrong marks: the mutant
    counts as killed, and the command fails until the marks are removed."""
    (tmp_path / "set.yaml").write_text("schema_version: 1\ncode: ZAP\nname: Zappers\nversion: 0.1.0\n"
                                       "requires: {engine: \">=0.1\", schema_version: 1}\n", encoding="utf-8")
    (tmp_path / "cards").mkdir()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "cards" / "ZAP-001.yaml").write_text(CARD + WRONG_MARKS, encoding="utf-8")
    (tmp_path / "scenarios" / "ZAP-001.yaml").write_text(SCENARIO, encoding="utf-8")
    result = run("--set", str(tmp_path), "mutate", "--card", "ZAP-001", "--workers", "1")
    assert result.code == 1
    assert "wrong mark: " in result.out
    assert "abilities[0].effect.amount: 2 -> 3: marked equivalent, but 'Zapper deals 2 to an enemy unit' kills it" \
        in result.out
    assert "might: 3 -> 4: marked equivalent, but no mutant of this script matches the mark" in result.out
    assert "2 equivalence mark(s) in card files are wrong" in result.err
    checked = run("--set", str(tmp_path), "mutate", "--card", "ZAP-001", "--workers", "1", "--check-marks",
                  "--format", "json")
    report = json.loads(checked.out)
    assert checked.code == 1 and report["sets"]["all"]["wrong_marks"] == 2
    assert report["sets"]["all"]["mutants"] == 1  # only the marked mutant that exists was run


def test_every_equivalence_mark_of_the_installed_sets_holds() -> None:
    """Each mutant marked equivalent in a bundled card is run: no scenario may kill it (else the mark is
    stale, e.g. after an engine fix made the change visible)."""
    result = run("mutate", "--check-marks", "--workers", "2", "--format", "json")
    assert result.code == 0, result.out[-2000:] + result.err
    assert json.loads(result.out)["sets"]["all"]["equivalent"] >= 50


def test_every_mutant_of_the_built_in_sets_is_killed_or_marked() -> None:
    """The whole of Origins, Proving Grounds, Spiritforged and Unleashed: every mutant of every card (you/friendly
    included, which only a 2v2 scenario can tell apart) is killed by a scenario or marked equivalent with its
    reason. A scenario weakened, or an engine change that lets a mutant pass, fails here by card and line."""
    result = run("mutate", "--set", "OGN", "--set", "OGS", "--set", "SFD", "--set", "UNL", "--workers", "1",
                 "--format", "json", "--min-score", "100")
    report = json.loads(result.out)
    survivors = [line for lines in report["survivors_by_operator"].values() for line in lines]
    assert result.code == 0 and survivors == [], survivors or result.err
    assert report["sets"]["all"]["cards"] >= 770 and report["sets"]["all"]["wrong_marks"] == 0
