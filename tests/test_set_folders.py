"""A set is a folder: loaded by ``riftscript --set PATH`` and ``RIFTSCRIPT_SETS`` for every command, run by
the pytest plugin with its keywords, scaffolded by ``riftscript new set``; references to cards in its decks
and scenarios are checked with 'did you mean' hints, and a broken card fails only its own scenarios."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clihelp import run
from riftscript.core.script.folders import SETS_ENV
from riftscript.tools.cli import main
from riftscript.tools.pytest_plugin import context
from riftscript.tools.scaffold import ENTRY
from riftscript.tools.scenario import load_file, run_scenario

KEYWORD = """\
schema_version: 1
keyword: kindle
name: Kindle
rule: "900"
summary: When this unit attacks, deal X to an enemy unit here.
parameter: {kind: number, default: 1, stacking: add}
abilities:
  - kind: triggered
    when: {event: attack, subject: self}
    effect:
      type: deal_damage
      amount: {type: variable, name: keyword_value}
      target: {pick: target, what: unit, where: {controller: enemy, location: here}}
"""

SQUIRE = """\
schema_version: 1
code: MYS-002
name: Ember Squire
type: unit
domains: [fury]
cost: {energy: 3}
might: 3
keywords: [{Kindle: 2}]
"""

SCENARIO = """\
schema_version: 1
name: Kindle 2 deals 2 when the squire attacks
cards: [MYS-002]
setup:
  battlefields: [{card: OGN-280, as: grove, controller: B, units: [{card: OGN-052, as: poro, owner: B}]}]
  A: {base: [{card: Ember Squire, as: squire}]}
steps:
  - {do: move, player: A, units: [squire], to: grove, expect: {keywords: {squire: [Kindle]}}}
  - {do: pass, player: A}
  - {do: pass, player: B, expect: {damage: {poro: 2}}}
"""


def _deck(card: str) -> str:
    """The Jinx Champion Deck with the folder's card in place of Magma Wurm."""
    from riftscript.tools.pytest_plugin import catalog

    data, _ = catalog().decks["Jinx Champion Deck"]
    main = "\n".join(f"  - {{card: {e['card'] if e['card'] != 'OGN-011' else card}, count: {e['count']}}}"
                     for e in data["main"])
    runes = "\n".join(f"  - {{card: {e['card']}, count: {e['count']}}}" for e in data["runes"])
    return (f"schema_version: 1\nname: Squire Deck\nlegend: {data['legend']}\nchampion: {data['champion']}\n"
            f"main:\n{main}\nruns:\n".replace("runs:\n", f"runes:\n{runes}\n")
            + f"battlefields: [{', '.join(data['battlefields'])}]\n")


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """A scaffolded set folder with a YAML keyword, a card using it, a deck and a scenario."""
    root = tmp_path / "my-set"
    assert run("new", "set", "MYS", "My Set", str(root)).code == 0
    (root / "keywords" / "kindle.yaml").write_text(KEYWORD, encoding="utf-8")
    (root / "cards" / "MYS-002.yaml").write_text(SQUIRE, encoding="utf-8")
    (root / "decks" / "squire.yaml").write_text(_deck("MYS-002"), encoding="utf-8")
    (root / "scenarios" / "kindle.yaml").write_text(SCENARIO, encoding="utf-8")
    return root


def test_set_option_loads_the_folder_for_every_command(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sets = run("--set", str(folder), "sets")
    assert ["MYS", "My", "Set", "0.1.0", f"folder:{folder.resolve()}", "2", "-", "loaded"] in [l.split() for l in sets.lines]
    misplaced = run("cards", "--set", str(folder))
    assert misplaced.code == 1 and f"put --set before the command: riftscript --set {folder} cards" in misplaced.err
    cards = run("--set", str(folder), "cards", "--set", "MYS")
    assert [line.split()[0] for line in cards.lines[1:-1]] == ["MYS-001", "MYS-002"]
    assert "Kindle" in run("--set", str(folder), "keywords").out
    shown = run("--set", str(folder), "cards", "--show", "MYS-002").lines
    assert "  [Kindle 2] (When this unit attacks, deal 2 to an enemy unit here.)" in shown
    capsys.readouterr()
    assert run("--set", str(folder), "deck", "list").code == 0  # 'deck' prints to sys.stdout
    assert any(line.startswith("Squire Deck ") for line in capsys.readouterr().out.splitlines())
    checked = run("--set", str(folder), "validate")
    installed = len(run("sets").lines) - 1  # the installed sets' rows under the header
    assert checked.code == 0 and checked.lines[-1].endswith(f"in {installed + 1} sets checked: no problems")
    assert run("--set", str(folder), "demo", "--decks", "Squire Deck", "Viktor Champion Deck").code == 0
    assert capsys.readouterr().out.startswith("Setup: duel (seed 2026): Squire (Squire Deck) vs Viktor")
    assert "MYS" not in [line.split()[0] for line in run("sets").lines[1:]]  # only while --set names it
    assert os.environ.get(SETS_ENV) is None


def test_sets_environment_variable_lists_folders(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other"
    assert run("new", "set", "OTH", "Other", str(other)).code == 0
    monkeypatch.setenv(SETS_ENV, os.pathsep.join([str(folder), str(other / "set.yaml"), ""]))
    rows = {row["code"]: row for row in __import__("json").loads(run("sets", "--json").out)}
    assert rows["MYS"]["folder"] == str(folder.resolve()) and rows["OTH"]["folder"] == str(other.resolve())
    assert rows["OGN"]["folder"] is None
    monkeypatch.setenv(SETS_ENV, str(tmp_path / "nowhere"))
    result = run("sets")
    assert result.code == 0 and f"skipping {SETS_ENV} entry: {tmp_path / 'nowhere'} is not a set folder" in result.err


def test_a_path_that_is_no_set_folder_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--set", str(tmp_path), "sets"])
    assert exit_info.value.code == 2
    assert f"argument --set: {tmp_path} is not a set folder (no set.yaml in it)" in capsys.readouterr().err


def test_the_folder_keyword_works_in_its_cards_and_scenarios(folder: Path) -> None:
    path = folder / "scenarios" / "kindle.yaml"
    ctx = context(path)
    assert ctx.problems == [] and ctx.catalog.keywords["kindle"].source == str(folder / "keywords" / "kindle.yaml")
    assert ctx.catalog.schemas is not None
    (scenario,) = load_file(path, ctx.catalog.schemas)
    game = run_scenario(ctx.catalog, scenario)
    assert game is not None and [e["amount"] for e in game.log if e["t"] == "damaged"] == [2]


def test_new_set_scaffolds_a_folder_with_no_code_to_write(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    result = run("new", "set", "FRS", "Fresh Start", str(root))
    assert result.code == 0
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) == [
        "__init__.py", "cards/FRS-001.yaml", "decks/README.md", "keywords/README.md", "pyproject.toml",
        "scenarios/FRS-001.yaml", "set.yaml"]
    assert (root / "__init__.py").read_text() == ENTRY and len(ENTRY.splitlines()) == 1
    assert 'frs = "riftscript_set_frs"' in (root / "pyproject.toml").read_text()
    assert run("validate", str(root)).lines == ["3 files checked: no problems"]
    ctx = context(root / "scenarios" / "FRS-001.yaml")
    assert ctx.catalog.schemas is not None
    (scenario,) = load_file(root / "scenarios" / "FRS-001.yaml", ctx.catalog.schemas)
    assert run_scenario(ctx.catalog, scenario) is not None
    again = run("new", "set", "FRS", "Fresh Start", str(root))
    assert again.code == 1 and "already exists and is not an empty folder" in again.err
    bad = run("new", "set", "fresh-start", "Fresh", str(tmp_path / "bad"))
    assert bad.code == 1 and "set code 'FRESH-START': use 2 to 5 capital letters or digits" in bad.err
    taken = run("new", "set", "ogn", "Mine", str(tmp_path / "taken"))
    assert taken.code == 1 and "set code OGN is the code of the installed set Origins; choose another" in taken.err
    assert not (tmp_path / "taken").exists() and not (tmp_path / "bad").exists()


def test_new_set_writes_any_printable_name_safely(tmp_path: Path) -> None:
    """Quotes and backslashes in the name stay text in set.yaml, the card and pyproject.toml."""
    import tomllib

    name = 'Bob\'s "Best" \\ Set'
    root = tmp_path / "quoted"
    assert run("new", "set", "QTD", name, str(root)).code == 0
    assert run("validate", str(root)).code == 0
    assert run("--set", str(root), "cards", "--show", "QTD-001").lines[1] == f"name:      {name} Pathfinder"
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["description"] == f"{name}: a RiftScript card set"
    assert run("new", "set", "NWL", "two\nlines", str(tmp_path / "nwl")).code == 1


def test_cards_show_renders_a_card_file_that_is_not_installed(folder: Path, tmp_path: Path) -> None:
    shown = run("cards", "--show", str(folder / "cards" / "MYS-002.yaml"))
    assert shown.code == 0 and "  [Kindle 2] (When this unit attacks, deal 2 to an enemy unit here.)" in shown.lines
    loose = tmp_path / "loose.yaml"
    loose.write_text(SQUIRE.replace("[{Kindle: 2}]", "[Tank]").replace("MYS-002", "LSE-001"), encoding="utf-8")
    assert run("cards", "--show", str(loose)).lines[:2] == ["code:      LSE-001", "name:      Ember Squire"]
    broken = tmp_path / "broken.yaml"
    broken.write_text(SQUIRE.replace("might: 3", "might: three").replace("{Kindle: 2}", "Tank"), encoding="utf-8")
    result = run("cards", "--show", str(broken))
    assert result.code == 1 and result.lines == [f"{broken}:7:8: 'three' is not of type 'integer' (might)"]


def test_validate_reports_unknown_cards_in_decks_and_scenarios(folder: Path) -> None:
    deck = folder / "decks" / "squire.yaml"
    deck.write_text(deck.read_text().replace("OGN-030", "OGN-0300", 1), encoding="utf-8")
    typo = folder / "scenarios" / "typo.yaml"
    typo.write_text(SCENARIO.replace("OGN-052", "Daring Pooro").replace("units: [squire]", "units: [sqire]"),
                    encoding="utf-8")
    result = run("validate", str(folder))
    assert result.code == 1
    assert result.lines == [
        f"{deck}:4:11: unknown card 'OGN-0300'; did you mean 'OGN-030'? (champion)",
        f"{typo}:5:75: unknown card 'Daring Pooro'; did you mean 'Daring Poro'? (setup.battlefields[0].units[0].card)",
        f"{typo}:8:35: unknown card or alias 'sqire'; did you mean 'squire'? (steps[0].units[0])",
        "3 problems in 2 files (8 checked)"]


def test_pytest_reports_unknown_cards_and_fails_only_the_scenarios_of_a_broken_card(folder: Path) -> None:
    (folder / "cards" / "MYS-003.yaml").write_text(
        SQUIRE.replace("MYS-002", "MYS-003").replace("Ember Squire", "Cinder Pup").replace("might: 3", "might: two"),
        encoding="utf-8")
    (folder / "scenarios" / "pup.yaml").write_text(
        SCENARIO.replace("Ember Squire", "Cinder Pup").replace("MYS-002", "MYS-003"), encoding="utf-8")
    (folder / "scenarios" / "typo.yaml").write_text(SCENARIO.replace("OGN-052", "Daring Pooro"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfE", str(folder)],
                          capture_output=True, text=True, cwd=folder.parent)
    out = done.stdout
    assert done.returncode == 1 and "Traceback" not in out and "error" not in out
    assert f"{folder / 'scenarios' / 'typo.yaml'}:5:75: unknown card 'Daring Pooro'; did you mean 'Daring Poro'? " \
           f"(setup.battlefields[0].units[0].card)" in out
    assert "it uses Cinder Pup (MYS-003), whose file has problems:\n" \
           f"{folder / 'cards' / 'MYS-003.yaml'}:7:8: 'two' is not of type 'integer' (might)" in out
    assert "3 failed, 2 passed" in out  # the typo, the broken card: its scenario and the folder files check


def test_validate_reports_unknown_cards_of_a_deck_file_on_its_own(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text(_deck("OGN-0111"), encoding="utf-8")
    result = run("validate", str(deck))
    assert result.code == 1
    assert result.lines == [f"{deck}:22:12: unknown card 'OGN-0111'; did you mean 'OGN-111'? (main[16].card)",
                            "1 problem in 1 file (1 checked)"]


def test_rules_coverage_runs_a_set_folder_with_its_keywords(folder: Path) -> None:
    from riftscript.tools.coverage import measure

    outcomes = measure([folder / "scenarios"]).outcomes
    assert sorted((o.name, o.status) for o in outcomes) == [
        ("Kindle 2 deals 2 when the squire attacks", "passed"), ("My Set Pathfinder draws a card when played", "passed")]


def test_a_set_folder_loads_its_tokens_folder(folder: Path) -> None:
    """Tokens with no printed card live in tokens/: a card of the folder creates one by name."""
    (folder / "tokens").mkdir()
    (folder / "tokens" / "MYS-T-WISP.yaml").write_text(
        "schema_version: 1\ncode: MYS-T-WISP\nname: Wisp\ntype: unit\nsupertype: token\ntoken: true\nmight: 1\n",
        encoding="utf-8")
    (folder / "cards" / "MYS-003.yaml").write_text(
        "schema_version: 1\ncode: MYS-003\nname: Wisp Caller\ntype: spell\ndomains: [calm]\ncost: {energy: 1}\n"
        "abilities:\n  - kind: spell\n    effect: {type: create_token, token: Wisp}\n", encoding="utf-8")
    checked = run("validate", str(folder / "cards" / "MYS-003.yaml"))
    assert checked.code == 0 and checked.lines[-1] == "1 file checked: no problems", checked.out
    assert "MYS-T-WISP" in run("--set", str(folder), "cards", "--set", "MYS").out


def test_a_sets_own_keyword_needs_no_rule_number(folder: Path) -> None:
    """A keyword a set invents has no Core Rules number: its file without 'rule' is still read as a keyword
    (it used to be read as a card, with messages about 'code' and 'type')."""
    path = folder / "keywords" / "kindle.yaml"
    path.write_text(KEYWORD.replace('rule: "900"\n', ""), encoding="utf-8")
    result = run("validate", str(folder))
    assert result.code == 0, result.out + result.err
    scenario = folder / "scenarios" / "kindle.yaml"
    ctx = context(scenario)
    assert ctx.problems == [] and ctx.catalog.keywords["kindle"].rule == ""
    assert ctx.catalog.schemas is not None
    (loaded,) = load_file(scenario, ctx.catalog.schemas)
    game = run_scenario(ctx.catalog, loaded)
    assert game is not None and [e["amount"] for e in game.log if e["t"] == "damaged"] == [2]
