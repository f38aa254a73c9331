"""The scenario runner reports what authors get wrong clearly: refusals by rule number, steps by a player
who is not deciding, steps answering decisions the engine took itself, split damage, zone names and
setups that can't be built (schemas/README.md, "Scenarios")."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from riftscript.core.errors import ScriptError
from riftscript.tools.pytest_plugin import context
from riftscript.tools.scenario import ScenarioFailure, load_file, rule_matches, run_scenario

def _run(tmp_path: Path, text: str) -> None:
    path = tmp_path / "scenarios" / "test.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text("schema_version: 1\n" + textwrap.dedent(text), encoding="utf-8")
    ctx = context(path)
    assert ctx.catalog.schemas is not None
    for scenario in load_file(path, ctx.catalog.schemas):
        run_scenario(ctx.catalog, scenario)


POSITION = """\
name: test
setup:
  battlefields:
    - {card: OGN-280, as: grove, controller: A, units: [{card: OGN-052, as: poro}]}
    - {card: OGN-293, as: plaza, controller: B, units: [{card: OGN-219, as: sergeant}]}
  A:
    hand: [{card: OGN-009, as: ray}]
    runes: [OGN-007, OGN-007]
    base: [{card: OGN-052, as: tired, exhausted: true}]
  B:
    hand: [{card: OGN-169, as: gust}]
    runes: [OGN-007]
steps:
"""


def test_rule_numbers_match_the_rule_and_its_sub_rules_only() -> None:
    assert rule_matches("811.1.d", "811") and rule_matches("811", "811") and rule_matches("811.1.d", "811.1")
    assert not rule_matches("8110", "811") and not rule_matches("81.1", "811") and not rule_matches(None, "811")


def test_a_refusal_under_another_rule_fails_the_step(tmp_path: Path) -> None:
    with pytest.raises(ScenarioFailure, match=r"step 1: expected move to be refused under rule 145, the refusal "
                                              r"names 144.2: .* is exhausted"):
        _run(tmp_path, POSITION + "  - {do: move, player: A, units: [tired], to: grove, rule: '145'}\n")


def test_an_accepted_step_expected_refused_by_rule_fails(tmp_path: Path) -> None:
    with pytest.raises(ScenarioFailure, match=r"step 1: expected play to be refused under rule 312.1, but it was "
                                              r"accepted"):
        _run(tmp_path, POSITION + "  - {do: play, player: A, card: ray, targets: [[sergeant]], rule: '312.1'}\n")


def test_a_step_by_a_player_without_priority_is_refused_naming_who_has_it(tmp_path: Path) -> None:
    with pytest.raises(ScenarioFailure, match=r"step 1: expected the refusal to mention 'not yours', got: B can't "
                                              r"play now: A has priority \(Main Phase: your move\), and only the "
                                              r"player with priority may act"):
        _run(tmp_path, POSITION + "  - {do: play, player: B, card: gust, illegal: not yours}\n")
    with pytest.raises(ScenarioFailure, match=r"unscripted decision: A must decide"):
        _run(tmp_path, POSITION + "  - {do: play, player: B, card: gust}\n")


def test_answering_a_decision_the_engine_took_itself(tmp_path: Path) -> None:
    refuge = """\
        name: test
        setup:
          A:
            base: [{card: OGN-052, as: poro}]
            hand: [{card: OGN-063, as: refuge}]
            pool: {energy: 2, power: {calm: 1}}
          B:
            base: [{card: OGN-052, as: theirs}]
        steps:
          - {do: play, player: A, card: refuge}
        """
    with pytest.raises(ScenarioFailure, match=r"step 2: no targets decision is pending: the engine took it itself, "
                                              r"as it had one legal option \(poro\), and this step answers theirs"):
        _run(tmp_path, textwrap.dedent(refuge) + "  - {do: targets, player: A, targets: [[theirs]]}\n")
    with pytest.raises(ScenarioFailure, match=r"step 2: no choose decision is pending: the game waits for A's "
                                              r"priority decision .*taken by the engine itself \(schemas/README.md"):
        _run(tmp_path, textwrap.dedent(refuge) + "  - {do: choose, player: A, value: poro}\n")


def test_a_split_that_gives_a_chosen_target_nothing_is_reported(tmp_path: Path) -> None:
    split = """\
        name: test
        setup:
          battlefields:
            - {card: OGN-293, as: plaza, controller: B, units: [{card: OGN-010, as: r1}, {card: OGN-049, as: p1}]}
          A:
            base: [{card: OGN-041, as: voli}]
        steps:
          - {do: move, player: A, units: [voli], to: plaza}
          - {do: targets, player: A, targets: [[r1, p1]]}
          - {do: pass, player: A}
          - {do: pass, player: B}
          - {do: assign, player: A, damage: {r1: 5}}
        """
    with pytest.raises(ScenarioFailure, match=r"step 5: the split took 4 point\(s\) from this step, 5 were given: "
                                              r"each chosen target gets at least 1"):
        _run(tmp_path, split)


def test_zones_are_named_as_card_scripts_name_them(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match=r"15:28: 'banished' is not a known zone; did you mean 'banishment'\? "
                                          r"\(steps\[0\]\.expect\.zone\.poro\)"):
        _run(tmp_path, POSITION + "  - {expect: {zone: {poro: banished}}}\n")


def test_a_setup_that_cannot_be_built_is_reported_at_its_setup(tmp_path: Path) -> None:
    text = POSITION.replace("{card: OGN-052, as: tired, exhausted: true}",
                            "{card: OGN-052, as: tired, attached_to: poro}") + "  - {expect: {might: {poro: 2}}}\n"
    with pytest.raises(ScenarioFailure, match=r"test\.yaml:4: the setup can't be built: only gear on the board can "
                                              r"be attached to a unit, not Stalwart Poro"):
        _run(tmp_path, text)


def test_an_unknown_object_in_a_step_gets_a_hint(tmp_path: Path) -> None:
    with pytest.raises(ScenarioFailure, match=r"no object called 'sargeant'; did you mean 'sergeant'\?"):
        _run(tmp_path, POSITION + "  - {do: play, player: A, card: ray, targets: [[sargeant]]}\n")


def test_every_key_of_the_scenario_language_is_documented() -> None:
    """schemas/README.md's 'Scenarios' section names every key a scenario file may use."""
    import json
    import re

    root = Path(__file__).resolve().parent.parent / "schemas"
    schema = json.loads((root / "scenario.schema.json").read_text(encoding="utf-8"))
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Scenarios\n")[1].split("\n## Scenarios that play a Match")[0]
    defs = schema["$defs"]
    keys = {
        "scenario": set(defs["scenario"]["properties"]),
        "setup": set(defs["setup"]["properties"]),
        "player": set(defs["player_setup"]["properties"]),
        "card": set(defs["card"]["anyOf"][1]["properties"]),
        "chain item": set(defs["chain_item"]["properties"]),
        "step": set(defs["step"]["properties"]) | set(defs["step"]["properties"]["do"]["enum"]),
        "expectation": set(defs["expect"]["properties"]),
    }
    words = set(re.findall(r"[a-z_]+", section))
    missing = {kind: sorted(k for k in names if k not in words) for kind, names in keys.items()}
    assert {kind: names for kind, names in missing.items() if names} == {}


def test_keyword_expectations_check_absence_and_values(tmp_path: Path) -> None:
    """[] means no keywords at all and {keyword: value} compares the value (null: absent), so neither
    passes whatever the object has."""
    _run(tmp_path, POSITION + "  - {expect: {keywords: {sergeant: [], poro: {ganking: null}}}}\n")
    with pytest.raises(ScenarioFailure, match=r"expected poro to have no keywords; it has \['shield'\]"):
        _run(tmp_path, POSITION + "  - {expect: {keywords: {poro: []}}}\n")
    with pytest.raises(ScenarioFailure, match=r"expected poro's keywords \{'shield': None\}"):
        _run(tmp_path, POSITION + "  - {expect: {keywords: {poro: {shield: null}}}}\n")


def test_objects_at_seen_by_and_a_keyword_without_a_number_expected_absent(tmp_path: Path) -> None:
    """objects_at counts the units and gear at a location, seen_by lists exactly who may see a card, and
    {keyword: null} fails for a keyword that has no number (it passed whether or not the object had it)."""
    position = POSITION.replace("{card: OGN-052, as: poro}]}", "{card: OGN-052, as: poro}], facedown: [{card: OGN-169, as: hid}]}")
    _run(tmp_path, position + "  - {expect: {objects_at: {grove: 1, A.base: 1}, seen_by: {hid: [A]}}}\n")
    with pytest.raises(ScenarioFailure, match=r"expected 2 units and gear at grove, found 1"):
        _run(tmp_path, position + "  - {expect: {objects_at: {grove: 2}}}\n")
    with pytest.raises(ScenarioFailure, match=r"expected hid to be seen by \['A', 'B'\], it is seen by \['A'\]"):
        _run(tmp_path, position + "  - {expect: {seen_by: {hid: [A, B]}}}\n")
    tank = POSITION.replace("{card: OGN-219, as: sergeant}", "{card: OGN-219, as: sergeant, gains: [Tank]}")
    _run(tmp_path, tank + "  - {expect: {keywords: {poro: {tank: null}}}}\n")
    with pytest.raises(ScenarioFailure, match=r"expected sergeant's keywords \{'tank': None\}"):
        _run(tmp_path, tank + "  - {expect: {keywords: {sergeant: {tank: null}}}}\n")


def test_a_mode_step_names_a_label_the_card_has(tmp_path: Path) -> None:
    """``mode`` on a play step is a label of the card's "choose one" (engine notes, playing a card, step 2);
    a label it doesn't have, a card without modes and a step that isn't a play, an activation or a
    trigger's targets are told."""
    with pytest.raises(ScenarioFailure, match=r"no mode 'heal'; the modes are: damage; kill gear"):
        _run(tmp_path, POSITION.replace("OGN-009, as: ray", "SFD-077, as: barrage").replace(
            "[OGN-007, OGN-007]", "[OGN-089, OGN-089, OGN-089, OGN-089]")
            + "  - {do: play, player: A, card: barrage, mode: heal}\n")
    with pytest.raises(ScenarioFailure, match=r'has no "choose one" modes chosen as it is played'):
        _run(tmp_path, POSITION + "  - {do: play, player: A, card: ray, targets: [[sergeant]], mode: damage}\n")
    with pytest.raises(ScenarioFailure, match=r"'mode' goes with a play, an activate or a targets step, not move"):
        _run(tmp_path, POSITION + "  - {do: move, player: A, units: [poro], to: plaza, mode: damage}\n")


def test_a_keyword_list_with_a_value_says_to_write_a_mapping(tmp_path: Path) -> None:
    with pytest.raises(ScenarioFailure, match=r"keywords of poro: a list names keywords \(\[Tank, Assault\]\); to "
                                              r"check a keyword's number write a mapping, \{poro: \{assault: 2\}\}"):
        _run(tmp_path, POSITION + "  - {expect: {keywords: {poro: [{Shield: 1}]}}}\n")


def test_another_players_card_in_a_base_is_theirs_and_controlled_there(tmp_path: Path) -> None:
    """``owner:`` on a card in a player's base: owned by that player, controlled by the base's player (it goes
    back to its owner's hand); in a hand, deck or trash it is refused, not ignored."""
    position = POSITION.replace("{card: OGN-052, as: tired, exhausted: true}",
                                "{card: OGN-052, as: tired, exhausted: true, owner: B}")
    _run(tmp_path, position + "  - {expect: {controller: {tired: A}, location: {tired: A.base}}}\n")
    path = tmp_path / "scenarios" / "test.yaml"
    ctx = context(path)
    assert ctx.catalog.schemas is not None
    game = run_scenario(ctx.catalog, load_file(path, ctx.catalog.schemas)[0])
    assert game is not None
    tired = [o for o in game.state.objs.values() if o.zone == "board" and o.code == "OGN-052" and o.loc == 0]
    assert [(o.owner, o.controller) for o in tired] == [(1, 0)]
    hand = POSITION.replace("{card: OGN-009, as: ray}", "{card: OGN-009, as: ray, owner: B}")
    with pytest.raises(ScenarioFailure, match=r"setup\.A\.hand: 'owner' is for a card in a base or at a battlefield; "
                                              r"a card in A's hand is A's"):
        _run(tmp_path, hand + "  - {expect: {zone: {ray: hand}}}\n")


def test_a_battlefield_target_may_be_named_by_its_alias(tmp_path: Path) -> None:
    """A 'choose a battlefield' target written as the battlefield's setup alias is the battlefield (its card),
    as its name or code is; a location target stays a location (Stormbringer OGN-250: a unit, then a battlefield)."""
    text = """\
name: alias
setup:
  battlefields:
    - {card: OGN-280, as: grove, controller: B, units: [{card: OGN-219, as: sergeant}]}
  A:
    base: [{card: OGN-088, as: mech}]
    hand: [{card: OGN-250, as: storm}]
    runes: [OGN-007, OGN-007, OGN-007, OGN-007, OGN-007, OGN-007]
steps:
  - {do: play, player: A, card: storm, targets: [[mech], [grove]]}
  - {do: pass, player: A}
  - {do: pass, player: B, expect: {zone: {sergeant: trash}, location: {mech: grove}}}
"""
    _run(tmp_path, text)
