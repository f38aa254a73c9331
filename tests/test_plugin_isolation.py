"""A broken third-party set plugin is left out as a whole, and everything else goes on.

Each case installs a set plugin through the ``riftscript.sets`` entry-point group (a module on
sys.path and a faked entry point, as an installed package would be found) whose set is broken in
one way: an invalid card file, a card code that Origins already has, or a requirement this engine
doesn't meet.  The plugin is skipped with one warning naming it, the file and the fix; demo,
simulate and info work; sets and info say it was skipped and why; validate reports every problem
and fails; a deck that needs the skipped set is refused naming it.
"""
from __future__ import annotations

import importlib.metadata
import json
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from clihelp import run
from riftscript.core.script.registry import DISABLE_ENV

CARD = "schema_version: 1\ncode: {code}\nname: {name}\ntype: unit\ndomains: [fury]\ncost: {{energy: 1}}\nmight: 1\n"
CASES = {
    "invalid card": ("BRK-002", "schema_version: 1\ncode: BRK-002\nname: Broken\ntype: unit\nmight: lots\n",
                     "'lots' is not of type 'integer'", ">=0.1,<1"),
    "duplicated code": ("OGN-001", CARD.format(code="OGN-001", name="Counterfeit Scorcher"),
                        "card code OGN-001 is also defined in", ">=0.1,<1"),
    "engine requirement": ("BRK-002", CARD.format(code="BRK-002", name="Fine Card"),
                           "set BRK needs engine >=9.0, but this is RiftScript", ">=9.0"),
}


def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> Path:
    """A 'brokenset' package on sys.path, found through the riftscript.sets entry point group."""
    file_name, text, _, engine = CASES[case]
    package = tmp_path / "rs_brokenset"
    root = package / "brokenset"
    (root / "cards").mkdir(parents=True)
    (root / "decks").mkdir()
    (package / "__init__.py").write_text(
        "from pathlib import Path\n"
        "from riftscript.core.script.hookspecs import hookimpl\n"
        "from riftscript.core.script.registry import SetSpec\n"
        "ROOT = Path(__file__).parent / 'brokenset'\n\n\n"
        "@hookimpl\n"
        "def riftscript_sets():\n"
        "    return [SetSpec(manifest=ROOT / 'set.yaml', cards=ROOT / 'cards', decks=ROOT / 'decks')]\n")
    (root / "set.yaml").write_text(f"schema_version: 1\ncode: BRK\nname: Broken Set\nversion: 1.0.0\n"
                                   f"requires: {{engine: '{engine}', schema_version: 1}}\n")
    (root / "cards" / "BRK-001.yaml").write_text(CARD.format(code="BRK-001", name="Good Card"))
    (root / "cards" / f"{file_name}.yaml").write_text(text)
    jinx = Path(__file__).parents[1] / "sets" / "origins" / "decks" / "jinx_champion_deck.yaml"
    deck = jinx.read_text().replace("name: Jinx Champion Deck", "name: Broken Deck") \
        .replace("{card: OGN-169, count: 3}", "{card: BRK-001, count: 3}")
    (root / "decks" / "broken.yaml").write_text(deck)
    (tmp_path / "mine.yaml").write_text(deck.replace("name: Broken Deck", "name: My Deck"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "rs_brokenset", raising=False)  # each test its own package
    ep = importlib.metadata.EntryPoint("brokenset", "rs_brokenset", "riftscript.sets")
    real: Callable[..., Any] = importlib.metadata.entry_points

    def entry_points(**params: Any) -> Any:
        found = list(real(**params))
        return found + ([ep] if params.get("group") == "riftscript.sets" else [])
    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    return root


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_broken_set_plugin_is_skipped_and_everything_else_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    root = install(tmp_path, monkeypatch, case)
    file_name, _, problem, _ = CASES[case]
    bad_file = root / ("set.yaml" if case == "engine requirement" else f"cards/{file_name}.yaml")
    warning = [line for line in run("info").err.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1, warning
    assert warning[0].startswith(f"warning: skipping set plugin brokenset ({root / 'set.yaml'}): ")
    assert problem in warning[0] and str(bad_file) in warning[0]
    assert warning[0].endswith(f"fix it, or switch the plugin off with {DISABLE_ENV}=brokenset")

    for argv in (["demo", "--seed", "3"], ["simulate", "--decks", "Jinx Champion Deck", "Viktor Champion Deck",
                                           "--games", "1"], ["info"]):
        result = run(*argv)
        assert result.code == 0, (argv, result.err)

    sets = run("sets")
    row = next(line for line in sets.lines if line.startswith("BRK "))
    assert "skipped: " in row and problem in row
    assert any(line.startswith("OGN ") and line.endswith("loaded") for line in sets.lines)
    skipped = next(r for r in json.loads(run("sets", "--json").out) if r["code"] == "BRK")
    assert problem in skipped["skipped"]
    assert any("brokenset" in line and "skipped" in line and problem in line for line in run("info").lines)

    validate = run("validate")
    assert validate.code == 1 and any(line.startswith(str(bad_file)) and problem in line for line in validate.lines)

    for deck in ("Broken Deck", str(tmp_path / "mine.yaml")):
        refused = run("simulate", "--decks", deck, "Viktor Champion Deck", "--games", "1")
        assert refused.code == 1 and "set BRK (plugin brokenset), which was skipped" in refused.err, refused.err


def test_switching_the_broken_plugin_off_silences_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install(tmp_path, monkeypatch, "invalid card")
    monkeypatch.setenv(DISABLE_ENV, "brokenset")
    result = run("info")
    assert result.code == 0 and "warning" not in result.err
    assert run("validate").code == 0


def test_a_run_sees_the_plugins_installed_now_not_those_of_an_earlier_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """simulate keeps its catalog for its worker processes, but each command starts from what is
    installed when it runs (an embedding program or a test suite runs many commands in one process)."""
    assert run("simulate", "--decks", "Jinx Champion Deck", "Viktor Champion Deck", "--games", "1").code == 0
    install(tmp_path, monkeypatch, "invalid card")
    refused = run("simulate", "--decks", "Broken Deck", "Viktor Champion Deck", "--games", "1")
    assert refused.code == 1 and "set BRK (plugin brokenset), which was skipped" in refused.err, refused.err
