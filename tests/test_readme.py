"""The README's commands and walkthrough work as written."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

from riftscript.tools.cli import main
from riftscript.tools.pytest_plugin import catalog
from riftscript.tools.scenario import load_file, run_scenario

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _block(marker: str, lang: str = "yaml") -> str:
    blocks = re.findall(rf"```{lang}\n(.*?)```", README, re.S)
    found = [b for b in blocks if marker in b]
    assert found, f"no {lang} block containing {marker!r} in README.md"
    return textwrap.dedent(found[0])


def test_ci_runs_exactly_the_readme_test_command() -> None:
    command = README.split("<!-- test-command -->")[1].split("```sh\n")[1].split("\n```")[0].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci.splitlines()


def test_main_job_is_the_demo() -> None:
    command = README.split("<!-- main-job -->")[1].split("```sh\n")[1].split("\n```")[0].strip()
    assert command == "python3 -m pip install -e . && riftscript demo"


def test_walkthrough_card_validates_and_its_scenario_passes(tmp_path: Path) -> None:
    cards = tmp_path / "my-set" / "cards"
    scenarios = tmp_path / "my-set" / "scenarios"
    cards.mkdir(parents=True)
    scenarios.mkdir()
    (cards / "MYS-001.yaml").write_text(_block("code: MYS-001"), encoding="utf-8")
    (scenarios / "ember_squire.yaml").write_text(_block("Ember Squire pings"), encoding="utf-8")
    assert main(["--no-cache", "validate", str(cards)]) == 0
    cat = catalog(cards)
    assert cat.schemas is not None
    (scenario,) = load_file(scenarios / "ember_squire.yaml", cat.schemas)
    game = run_scenario(cat, scenario)
    assert any(e["t"] == "damaged" and e["amount"] == 1 for e in game.log)


def test_walkthrough_typo_is_reported_with_its_position(tmp_path: Path, capsys: object) -> None:
    card = _block("code: MYS-001").replace("type: deal_damage", "type: deal_damge")
    path = tmp_path / "MYS-001.yaml"
    path.write_text(card, encoding="utf-8")
    assert main(["--no-cache", "validate", str(path)]) == 1
    out = capsys.readouterr()  # type: ignore[attr-defined]
    text = out.out + out.err
    shown = README.split("with a typo in the")[1].split("```\n")[1].split("\n")[0].strip()
    assert shown.startswith("my-set/cards/MYS-001.yaml:")
    assert "MYS-001.yaml:" + shown.split("MYS-001.yaml:")[1] in text


def test_headless_api_example_runs() -> None:
    code = _block("Game.new(catalog", "python")
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)  # the README's own example, as written
    game = namespace["game"]
    assert getattr(game, "over")
