"""The play-by-play says what happened: locations chosen as targets, a Might change of 0, a triggered
ability that did nothing (and why), a declined choice, and lists of names that hold commas."""
from __future__ import annotations

import textwrap
from pathlib import Path

from riftscript.core.engine.game import Game
from riftscript.tools.play import narrate
from riftscript.tools.playbyplay import listing
from riftscript.tools.pytest_plugin import catalog
from riftscript.tools.scenario import load_file, run_scenario


def _played(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "scenarios" / "narrated.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text("schema_version: 1\nname: narrated\n" + textwrap.dedent(text), encoding="utf-8")
    cat = catalog()
    assert cat.schemas is not None
    (scenario,) = load_file(path, cat.schemas)
    game = run_scenario(cat, scenario)
    assert isinstance(game, Game)
    return [line.strip() for line in narrate(game)]


def test_a_location_chosen_as_a_target_is_named_as_the_place(tmp_path: Path) -> None:
    # the grove is location 10, and object #10 exists too: the target must not be read as that object
    lines = _played(tmp_path, """\
        setup:
          battlefields: [{card: OGN-280, as: grove}, {card: OGN-293, as: plaza}]
          A:
            base: [{card: OGN-219, as: sergeant}]
            hand: [{card: OGN-173, as: ride}]
            runes: [OGN-166, OGN-166, OGN-166, OGN-166, OGN-166, OGN-166, OGN-166, OGN-166, OGN-166, OGN-166]
        steps:
          - {do: play, player: A, card: ride, targets: [[sergeant], [grove]]}
        """)
    assert "A plays Ride the Wind targeting Vanguard Sergeant, Grove of the God-Willow" in lines


def test_a_might_change_of_zero_is_not_narrated_as_minus_zero(tmp_path: Path) -> None:
    lines = _played(tmp_path, """\
        setup:
          battlefields: [{card: OGN-280, as: grove, controller: B, units: [{card: OGN-271, as: recruit}]}]
          A:
            hand: [{card: OGN-095, as: stupefy}]
            runes: [OGN-166]
            deck: [OGN-052]
        steps:
          - {do: play, player: A, card: stupefy, targets: [[recruit]]}
          - {do: pass, player: A}
          - {do: pass, player: B}
        """)
    assert "Recruit: Might unchanged (a change of 0)" in lines
    assert not any("-0 Might" in line for line in lines)


def test_a_legend_trigger_whose_condition_is_false_says_it_does_nothing(tmp_path: Path) -> None:
    position = """\
        setup:
          A:
            legend: OGN-251
            hand: [OGN-052, OGN-052]
            deck: [OGN-052, OGN-052, OGN-052]
            rune_deck: [OGN-007, OGN-007, OGN-007]
          B: {runes: [OGN-007]}
          turn: {player: B, step: main}
        steps:
          - {do: end_turn, player: B}
          - {do: pass, player: A}
          - {do: pass, player: B}
        """
    lines = _played(tmp_path, position)
    at = lines.index("Loose Cannon triggers")
    assert lines[at + 1] == "Loose Cannon does nothing (it acts only if you have one or fewer cards in your hand)"
    drawn = _played(tmp_path, position.replace("hand: [OGN-052, OGN-052]", "hand: [OGN-052]"))
    at = drawn.index("Loose Cannon triggers")
    assert drawn[at + 1] == "A draws a card" and not any("does nothing" in line for line in drawn)


def test_a_declined_or_unaffordable_choice_is_narrated(tmp_path: Path) -> None:
    conquer = """\
        setup:
          battlefields: [{card: OGN-282, as: monastery}]
          A:
            base: [{card: OGN-052, as: poro, buffs: BUFFS}]
            deck: [OGN-052]
        steps:
          - {do: move, player: A, units: [poro], to: monastery}
          - {do: pass, player: A}
          - {do: pass, player: B}   # the showdown ends: A conquers, the Monastery triggers
          - {do: pass, player: A}
          - {do: pass, player: B}
        """
    lines = _played(tmp_path, conquer.replace("BUFFS", "0"))
    assert "Monastery of Hirana does nothing: A can't pay its cost" in lines
    lines = _played(tmp_path, conquer.replace("BUFFS", "1") + "  - {do: choose, player: A, value: false}\n")
    assert "Monastery of Hirana does nothing: A declines" in lines


def test_names_with_commas_are_listed_unambiguously(tmp_path: Path) -> None:
    assert listing(["Recruit", "Poro"]) == "Recruit, Poro"
    assert listing(["Jinx, Demolitionist", "Vi, Destructive", "Recruit"]) == \
        "Jinx, Demolitionist; Vi, Destructive; Recruit"
    lines = _played(tmp_path, """\
        setup:
          battlefields: [{card: OGN-280, as: grove}]
          A:
            base: [{card: OGN-030, as: jinx}, {card: OGN-036, as: vi}]
        steps:
          - {do: move, player: A, units: [jinx, vi], to: grove}
        """)
    assert "A moves Jinx, Demolitionist; Vi, Destructive to Grove of the God-Willow" in lines


def test_a_choose_one_trigger_names_the_mode_chosen_as_it_went_on_the_chain(tmp_path: Path) -> None:
    lines = _played(tmp_path, """\
        setup:
          A:
            hand: [{card: UNL-177, as: ivern}]
            runes: [OGN-214, OGN-214, OGN-214, OGN-214, OGN-214, OGN-214]
        steps:
          - {do: play, player: A, card: ivern, location: A.base}
          - {do: targets, player: A, mode: Cat}
        """)
    assert "Ivern, Friend to All triggers (Cat)" in lines
