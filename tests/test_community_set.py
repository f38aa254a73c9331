"""The example community set installs with pip and is found, validated and listed with no change
to the engine: its cards, its YAML keyword and its Python effect primitive all come in through
entry points.

The package is built with ``pip install --no-build-isolation --no-deps --no-index --target``
into a temporary folder (a copy of the example, so no build files land in the repository), once
per module; tests put that folder on ``sys.path`` (in-process) or ``PYTHONPATH`` (subprocess).
The environment itself is never modified, so other test runs are not affected.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clihelp import run
from riftscript.core.script.catalog import load_catalog
from riftscript.core.script.discovery import load_plugins

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "community-set"
PACKAGE = "riftscript_tidecallers"
PLUGINS = {"tidecallers": "riftscript.sets", "tidecallers-keywords": "riftscript.keywords",
           "tidecallers-effects": "riftscript.effects"}

pytestmark = pytest.mark.community


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("src") / "community-set"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    target = tmp_path_factory.mktemp("site")
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps",
                    "--no-index", "--target", str(target), str(source)], check=True, env=env,
                   capture_output=True, text=True)
    return target


@pytest.fixture()
def installed(site: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(site))
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        monkeypatch.delitem(sys.modules, name)
    return site / PACKAGE


def test_discovered_through_its_entry_points(installed: Path) -> None:
    plugins = load_plugins()
    found = {p.name: (p.group, p.error) for p in plugins.loaded if p.name in PLUGINS}
    assert found == {name: (group, None) for name, group in PLUGINS.items()}
    catalog = load_catalog(plugins)
    assert catalog.sets["CMT"].cards == [f"CMT-00{i}" for i in range(1, 7)]
    assert catalog.sets["CMT"].plugin == "tidecallers"
    assert catalog.keywords["undertow"].source == str(installed / "keywords" / "undertow.yaml")
    assert catalog.effect_types["riptide"].schema is not None
    assert catalog.cards["CMT-002"].keywords == (("undertow", 2), ("tank", None))
    assert catalog.cards["CMT-003"].abilities[0].body["effect"]["type"] == "riptide"
    assert catalog.tokens["tide sprite"].code == "CMT-006"


def test_listed_by_the_cli(installed: Path) -> None:
    sets = [line.split() for line in run("sets").lines]
    assert ["CMT", "Tidecallers", "1.0.0", "tidecallers", "6", "6", "loaded"] in sets
    cards = run("cards", "--set", "cmt").lines
    assert [line.split()[0] for line in cards[1:-1]] == [f"CMT-00{i}" for i in range(1, 7)]
    assert cards[-1] == "6 cards"
    assert run("cards", "--keyword", "Undertow").lines[-1] == "3 cards"
    shown = run("cards", "--show", "CMT-003")
    assert shown.lines[:2] == ["code:      CMT-003", "name:      Riptide"]
    assert "      type: riptide" in shown.lines
    assert "Undertow" in run("keywords").out


def test_everything_installed_validates(installed: Path) -> None:
    result = run("validate")
    assert result.code == 0
    assert result.lines[-1].endswith("sets checked: no problems")


def test_discovered_by_a_fresh_process(site: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "riftscript.tools.cli", "cards", "--set", "CMT", "--json"],
                         env=env, check=True, capture_output=True, text=True).stdout
    assert '"code": "CMT-005"' in out and '"name": "Brine Lantern"' in out


def test_a_broken_card_in_a_copy_is_reported_with_its_position(installed: Path, tmp_path: Path) -> None:
    copy = Path(shutil.copytree(installed, tmp_path / PACKAGE, ignore=shutil.ignore_patterns("__pycache__")))
    card = copy / "cards" / "CMT-002.yaml"
    card.write_text(card.read_text().replace("Undertow: 2", "Undertow: lots").replace("might: 4", "might: four"))
    result = run("validate", str(copy))
    assert result.lines == [
        f"{card}:8:8: 'four' is not of type 'integer' (might)",
        f"{card}:12:15: Undertow takes a number from 0 to 99, e.g. 'Undertow: 2', not 'lots' (keywords[0].Undertow)",
        "2 problems in 1 file (9 checked)",
    ]
    assert result.code == 1


def test_validating_before_installing_with_the_effects_module(tmp_path: Path) -> None:
    folder = EXAMPLE / PACKAGE
    assert run("validate", str(folder)).lines == [
        f"{folder / 'cards' / 'CMT-003.yaml'}:13:13: 'riptide' is not a known type (abilities[0].effect.type)",
        "1 problem in 1 file (9 checked)",
    ]
    assert run("--plugin", str(folder / "effects.py"), "validate", str(folder)).lines == [
        "9 files checked: no problems"]


def test_its_cards_play_in_a_real_game(installed: Path) -> None:
    """The set's own scenarios run: the Python primitive and the YAML keyword work in the engine."""
    from riftscript.tools.scenario import load_file, run_scenario

    catalog = load_catalog()
    assert catalog.schemas is not None
    scenarios = load_file(installed / "scenarios" / "riptide.yaml", catalog.schemas)
    assert len(scenarios) == 2
    for scenario in scenarios:
        game = run_scenario(catalog, scenario)
        assert game is not None
