"""Command-line input is checked at the door: the parser refuses bad counts, depths, choices and
output paths (exit status 2 with the usage line, before any work); rules-coverage says where it
looked; validate never reports 'no problems' for something it didn't check."""
from __future__ import annotations

import io
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from clihelp import run
from riftscript.core.script.registry import DISABLE_ENV
from riftscript.tools import cli


def usage_error(*argv: str) -> str:
    """Run the command, expecting the parser to refuse it: exit status 2; returns what it printed."""
    err = io.StringIO()
    out = io.StringIO()
    cli.CONTEXT.out = out
    try:
        with redirect_stderr(err), pytest.raises(SystemExit) as exit_info:
            cli.main(list(argv))
    finally:
        cli.CONTEXT.out = None
    assert exit_info.value.code == 2, err.getvalue()
    assert out.getvalue() == ""  # nothing was done
    text = err.getvalue()
    assert text.startswith("usage: riftscript ")
    return text


@pytest.mark.parametrize("games", ["-1", "0", "two"])
def test_simulate_needs_at_least_one_game(games: str) -> None:
    text = usage_error("simulate", "--decks", "Jinx Champion Deck", "Viktor Champion Deck", "--games", games)
    assert "argument --games: " in text and ("less than 1" in text or "not a whole number" in text)


def test_audit_depth_is_not_negative() -> None:
    assert "argument --depth: -3 is less than 0" in usage_error("audit", "--card", "OGN-001", "--depth", "-3")


def test_cards_type_is_one_of_the_card_types() -> None:
    text = usage_error("cards", "--type", "nonsense")
    assert "argument --type: invalid choice: 'nonsense' (choose from 'unit', 'spell', 'gear', 'legend', " \
           "'battlefield', 'rune', 'marker')" in text  # marker: Unleashed's reminder cards
    assert run("cards", "--type", "Legend", "--set", "OGS").code == 0  # any case


def test_cards_domain_is_one_of_the_domains() -> None:
    assert "argument --domain: invalid choice: 'purple'" in usage_error("cards", "--domain", "purple")


def test_play_seat_counts_from_one() -> None:
    assert "argument --seat: 0 is less than 1" in usage_error("play", "--seat", "0")


def test_text_audit_threshold_is_between_0_and_1() -> None:
    assert "argument --threshold: 2 is not between 0 and 1" in usage_error("audit", "text", "--reference", "x.json",
                                                                          "--threshold", "2")


def test_simulate_log_in_a_missing_folder_is_refused_before_playing() -> None:
    text = usage_error("simulate", "--decks", "Jinx Champion Deck", "Viktor Champion Deck", "--games", "50",
                       "--log", "/no/such/dir/x.log")
    assert "argument --log: can't write /no/such/dir/x.log: there is no folder /no/such/dir" in text
    assert "internal error" not in text


def test_an_output_path_that_is_a_folder_is_refused(tmp_path: Path) -> None:
    text = usage_error("simulate", "--decks", "Jinx Champion Deck", "Viktor Champion Deck", "--log", str(tmp_path))
    assert f"argument --log: {tmp_path} is a folder, not a file" in text


@pytest.mark.parametrize("option", ["--svg", "--png", "--output"])
def test_audit_output_in_a_missing_folder_is_refused(option: str) -> None:
    text = usage_error("audit", "--card", "OGN-001", option, "/no/such/dir/graph.out")
    assert f"argument {option}/-o" in text or f"argument {option}: " in text
    assert "there is no folder /no/such/dir" in text


def test_rules_coverage_says_where_it_looked_and_fails_without_scenarios(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run("rules-coverage", str(empty))
    assert result.code == 1
    assert result.err.startswith(f"error: no scenarios found: looked in {empty}")
    # outside the repository, with no set shipping scenarios, there is nothing to run
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(DISABLE_ENV, "origins,proving-grounds")
    result = run("rules-coverage")
    assert result.code == 1 and "no scenarios found" in result.err
    assert f"there is no tests/ folder in {tmp_path}" in result.err


def test_rules_coverage_names_the_scenarios_it_counted(tmp_path: Path) -> None:
    source = Path(__file__).parent / "rules" / "scenarios" / "cardtypes_permanents.yaml"
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / source.name).write_text(source.read_text())
    result = run("rules-coverage", str(folder))
    assert result.code == 0 and result.lines[0].startswith(f"scenarios from: {folder}")


def test_validate_reports_a_folder_with_nothing_to_check(tmp_path: Path) -> None:
    folder = tmp_path / "x.yaml"
    folder.mkdir()
    result = run("validate", str(folder))
    assert result.code == 1
    assert result.lines[0] == f"{folder}: a folder with no .yaml or .yml file in it; nothing to check"
    assert "no problems" not in result.out
