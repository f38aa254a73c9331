"""The README's commands and walkthrough work as written."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from clihelp import run
from installed import walkthrough_set_installed

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


WALKTHROUGH = README.split("## Your first custom card in 10 minutes")[1].split("\n### ")[0]


def walkthrough_steps() -> list[tuple[str, str, str]]:
    """The walkthrough's actions in order: ("write", path, text) for each "Create `PATH`:" and its
    YAML block, ("run", command, "") for each line of an ``sh`` block."""
    steps: list[tuple[str, str, str]] = []
    for match in re.finditer(r"```(yaml|sh)\n(.*?)\n[ ]*```", WALKTHROUGH, re.S):
        body = textwrap.dedent(match.group(2)) + "\n"
        if match.group(1) == "yaml":
            created = re.findall(r"Create `([^`]+)`:\s*$", WALKTHROUGH[:match.start()])
            assert created, "a YAML block of the walkthrough is not introduced by 'Create `PATH`:'"
            steps.append(("write", created[-1], body))
        else:
            steps += [("run", line.strip(), "") for line in body.splitlines() if line.strip()]
    return steps


def test_walkthrough_steps_work_literally_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every step of 'Your first custom card in 10 minutes', run as written in a fresh folder.

    ``riftscript`` commands run in-process; ``pytest`` and ``pip`` in subprocesses. ``pip install`` gets
    the flags that keep a test offline and the environment untouched (``--no-build-isolation --no-deps
    --no-index --target SITE``, as tests/test_community_set.py does); SITE is then put on ``sys.path``."""
    if walkthrough_set_installed():
        pytest.skip("the walkthrough's set MYS is installed in this environment (pip uninstall riftscript-set-mys): "
                    "the walkthrough can't make and install it again")
    steps = walkthrough_steps()
    assert [(kind, what.split(" ")[0] if kind == "run" else what) for kind, what, _ in steps] == [
        ("run", "riftscript"), ("write", "my-set/cards/MYS-002.yaml"), ("run", "riftscript"),
        ("run", "riftscript"), ("write", "my-set/scenarios/ember_squire.yaml"), ("run", "pytest"),
        ("run", "pip"), ("run", "riftscript")]
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "site"
    outputs: list[str] = []
    for kind, what, text in steps:
        if kind == "write":
            assert Path(what).parent.is_dir(), f"{what}: its folder should exist by this step"
            Path(what).write_text(text, encoding="utf-8")
            continue
        argv = shlex.split(what)
        if argv[0] == "riftscript":
            result = run(*argv[1:])
            assert result.code == 0, f"{what}\n{result.out}{result.err}"
            outputs.append(result.out)
        elif argv[0] == "pytest":
            done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *argv[1:]],
                                  capture_output=True, text=True, cwd=tmp_path)
            assert done.returncode == 0, f"{what}\n{done.stdout}{done.stderr}"
            outputs.append(done.stdout)
        else:
            assert argv[:2] == ["pip", "install"]
            done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation",
                                   "--no-deps", "--no-index", "--target", str(site), *argv[2:]],
                                  capture_output=True, text=True, cwd=tmp_path,
                                  env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"))
            assert done.returncode == 0, f"{what}\n{done.stdout}{done.stderr}"
            monkeypatch.syspath_prepend(str(site))
            outputs.append(done.stdout)
    new, validate, show, tests, _, sets = outputs
    assert "created the set folder my-set" in new
    assert validate.splitlines()[-1] == "4 files checked: no problems"
    assert "  When I attack, deal 1 to all enemy units here." in show.splitlines()
    assert "3 passed" in tests  # the scaffold's scenario, the walkthrough's, and the set folder's files
    assert ["MYS", "My", "Set", "0.1.0", "mys", "2", "-", "loaded"] in [line.split() for line in sets.splitlines()]


def test_walkthrough_typo_is_reported_with_its_position(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("new", "set", "MYS", "My Set", "my-set").code == 0
    card = next(text for kind, what, text in walkthrough_steps() if what == "my-set/cards/MYS-002.yaml")
    Path("my-set/cards/MYS-002.yaml").write_text(card.replace("type: deal_damage", "type: deal_damge"),
                                                 encoding="utf-8")
    result = run("validate", "my-set")
    assert result.code == 1
    shown = README.split("With a typo in the")[1].split("```\n")[1].split("\n")[0].strip()
    assert shown in result.lines


def test_headless_api_example_runs() -> None:
    code = _block("Game.new(catalog", "python")
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)  # the README's own example, as written
    game = namespace["game"]
    assert getattr(game, "over")
