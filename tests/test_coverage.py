"""``riftscript rules-coverage`` and the rule index it reads (tools/rules_index.yaml)."""
from __future__ import annotations

import io
import json
import re
from collections import Counter
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest

from riftscript.tools import cli
from riftscript.tools.coverage import RuleIndex, load_index, ruling_id

PASSING = """\
schema_version: 1
scenarios:
  - name: an exhausted unit can't make a standard move
    rules: ["144.2", "999.9"]
    rulings: ["ruling:attacker-focus-first", "not-a-ruling"]
    setup:
      battlefields:
        - {card: OGN-280, as: grove}
      A:
        base:
          - {card: OGN-215, as: officer, exhausted: true}
    steps:
      - do: move
        player: A
        units: [officer]
        to: grove
        illegal: exhausted
  - name: still to write
    rules: ["431.1"]
    pending: needs a rune-deck setup
    setup: {}
    steps: []
"""

FAILING = """\
schema_version: 1
name: a ready unit claimed to be unable to move (wrong on purpose)
rules: ["144.2", "144.4.a"]
rulings: ["single-pass-no-lockout"]
setup:
  battlefields:
    - {card: OGN-280, as: grove}
  A:
    base:
      - {card: OGN-215, as: officer}
steps:
  - do: move
    player: A
    units: [officer]
    to: grove
    illegal: exhausted
"""


def run(*argv: str) -> tuple[int, str, str]:
    """The command in-process, through the same entry point as the console script."""
    out, err = io.StringIO(), io.StringIO()
    cli.CONTEXT.out = out
    try:
        with redirect_stderr(err):
            code = cli.main(list(argv))
    finally:
        cli.CONTEXT.out = None
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cov") / "scenarios"
    root.mkdir()
    (root / "passing.yaml").write_text(PASSING, encoding="utf-8")
    (root / "failing.yaml").write_text(FAILING, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def report(folder: Path) -> dict[str, Any]:
    code, out, err = run("rules-coverage", str(folder), "--format", "json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_only_passing_scenarios_cover(report: dict[str, Any]) -> None:
    rules = report["rules"]
    assert rules["144.2"]["covered"] is True
    assert len(rules["144.2"]["scenarios"]) == 1 and "passing.yaml" in rules["144.2"]["scenarios"][0]
    assert "failing.yaml" in rules["144.2"]["not_passing"][0]
    assert rules["144.4.a"]["covered"] is False  # only the failing scenario names it
    assert rules["431.1"]["covered"] is False  # only a pending scenario names it
    assert rules["103"]["covered"] is False and rules["103"]["scenarios"] == []
    assert report["scenarios"] == {"passed": 1, "failed": 1, "pending": 1}


def test_failures_unknowns_and_rulings_are_reported(report: dict[str, Any]) -> None:
    problems = report["problems"]
    assert len(problems) == 1
    assert problems[0]["status"] == "failed" and "accepted" in problems[0]["message"]
    assert list(report["unknown_rules"]) == ["999.9"]
    assert "passing.yaml" in report["unknown_rules"]["999.9"][0]
    rulings = report["rulings"]
    assert rulings["entries"]["ruling:attacker-focus-first"]["covered"] is True
    assert rulings["entries"]["ruling:single-pass-no-lockout"]["covered"] is False  # failing scenario
    assert rulings["totals"]["covered"] == 1
    assert list(report["unknown_rulings"]) == ["ruling:not-a-ruling"]


def test_totals_count_each_rule_once(report: dict[str, Any]) -> None:
    totals = report["totals"]
    assert totals["all"]["covered"] == 1 and totals["all"]["total"] == len(load_index().rules)
    sections = report["sections"]
    assert sections["movement"]["all"]["covered"] == 1
    assert sections["game modes"]["pending"] is False


def test_text_report_shows_failure_message_and_missing(folder: Path) -> None:
    code, out, _ = run("rules-coverage", str(folder), "--missing")
    assert code == 0
    assert "1 passed, 1 failed, 0 errors, 1 pending" in out
    assert "FAILED" in out and "failing.yaml" in out and "but it was accepted" in out
    assert re.search(r"^movement\s+\d+/\d+", out, re.M)
    assert "not covered by a passing scenario" in out and "144.4.a" in out
    assert "999.9" in out  # unknown number
    assert "PENDING" in out and "still to write" in out  # listed, with why it counts nothing


def test_the_copies_pip_leaves_in_a_set_folder_are_not_counted(tmp_path: Path) -> None:
    """pip install ./my-set writes build/ and *.egg-info/ into the folder; their scenario copies count once."""
    for where in ("scenarios", "build/lib/my_set/scenarios", "my_set.egg-info/scenarios"):
        (tmp_path / where).mkdir(parents=True)
        (tmp_path / where / "passing.yaml").write_text(PASSING, encoding="utf-8")
    code, out, _ = run("rules-coverage", str(tmp_path))
    assert code == 0 and "2 scenarios in 1 file" in out


def test_unloadable_file_is_an_error_not_a_crash(tmp_path: Path) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "broken.yaml").write_text("schema_version: 1\nname: x\nrules: [1]\n", encoding="utf-8")
    code, out, _ = run("rules-coverage", str(folder), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["scenarios"] == {"error": 1}
    assert "cannot load" in data["problems"][0]["message"]


def test_missing_path_is_an_error(tmp_path: Path) -> None:
    code, _, err = run("rules-coverage", str(tmp_path / "nope"))
    assert code == 1 and "no such file" in err


def test_ruling_names() -> None:
    assert ruling_id("attacker-focus-first") == "ruling:attacker-focus-first"
    assert ruling_id("ruling:attacker-focus-first") == "ruling:attacker-focus-first"
    assert ruling_id("Patch notes: free text") == "Patch notes: free text"


# --- the index ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def index() -> RuleIndex:
    return load_index()


def test_index_has_every_number_once(index: RuleIndex) -> None:
    numbers = [r.number for r in index.rules]
    assert not [n for n, c in Counter(numbers).items() if c > 1]
    assert all(re.fullmatch(r"[0-9]{3}(\.[0-9a-z]+)*", n) for n in numbers)
    assert len(numbers) >= 380
    assert sum(r.quoted for r in index.rules) >= 100
    assert {r.status for r in index.rules} == {"quoted", "cited"}
    assert all(r.files and all(f.endswith(".md") for f in r.files) for r in index.rules)


def test_titles_are_short_and_our_own(index: RuleIndex) -> None:
    """Titles summarise in 3-10 words; anything longer would start to reproduce the rules text."""
    titles = [r.title for r in index.rules] + [r.title or "" for r in index.checkable_rulings]
    for title in titles:
        assert 3 <= len(title.split()) <= 10, title
        assert len(title) <= 70 and not title.endswith("."), title


def test_sections(index: RuleIndex) -> None:
    assert all(r.section in index.sections for r in index.rules)
    assert index.pending_sections == []  # every mode is played, so no section waits
    for rule in index.rules:
        if 487 <= int(rule.number.split(".")[0]) <= 491 or rule.files == ("game-modes.md",):
            assert rule.section == "game modes", rule.number
        else:
            assert rule.section != "game modes", rule.number


def test_rulings(index: RuleIndex) -> None:
    ids = [r.id for r in index.rulings]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"ruling:[a-z0-9-]+", i) for i in ids)
    assert sorted(r.n for r in index.rulings) == list(range(1, len(ids) + 1))
    for ruling in index.rulings:
        if ruling.excluded is None:
            assert ruling.title and ruling.section in index.sections, ruling.id
        else:
            assert ruling.title is None and ruling.excluded, ruling.id
    assert index.checkable_rulings and len(index.checkable_rulings) < len(index.rulings)
