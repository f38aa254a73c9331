"""The modes of play as a user meets them on the command line: listed, and simulated."""
from __future__ import annotations

import json

import pytest

from clihelp import run

# seats 1+3 and 2+4 are 2v2 teams: teammates share no battlefield and no legend (491.8.h, 491.8.i)
# seats 1+3 and 2+4 are teammates in Magma Chamber, and these may play together (491.8.h, 491.8.i)
FOUR = ["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", "Jinx Champion Deck"]


def test_modes_lists_every_sanctioned_mode() -> None:
    rows = {r["mode"]: r for r in json.loads(run("modes", "--json").out)}
    assert {"duel", "match", "match-bo5", "skirmish", "war", "magma-chamber"} <= set(rows)
    assert (rows["skirmish"]["players"], rows["war"]["players"], rows["magma-chamber"]["players"]) == (3, 4, 4)
    assert rows["magma-chamber"]["victory_score"] == 11 and rows["magma-chamber"]["teams"] == [[0, 2], [1, 3]]
    assert (rows["match"]["best_of"], rows["match-bo5"]["best_of"]) == (3, 5)
    table = run("modes").lines
    assert table[0].split()[:3] == ["MODE", "PLAYERS", "TEAMS"]
    assert any(line.startswith("magma-chamber") and "1+3 vs 2+4" in line for line in table)


@pytest.mark.parametrize("mode,players", [("skirmish", 3), ("war", 4), ("magma-chamber", 4)])
def test_simulate_plays_multiplayer_modes(mode: str, players: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("simulate", "--mode", mode, "--decks", *FOUR[:players], "--games", "2", "--seed", "5").code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"2 {mode} games of {' vs '.join(FOUR[:players])}")
    wins = [line for line in out.splitlines() if line.startswith("  ") and "seat" in line]
    assert sum(int(line.rsplit(":", 1)[1]) for line in wins) + out.count("  draw:") <= 2 and wins
    if mode == "magma-chamber":
        assert all(" & " in line for line in wins)  # teammates win together (491.6.a)


def test_simulate_refuses_the_wrong_number_of_decks() -> None:
    result = run("simulate", "--mode", "war", "--decks", *FOUR[:3], "--games", "1")
    assert result.code != 0
    assert "war is played by 4 players: give 4 decks, one per seat in seat order, 3 given" in result.err


def test_simulate_names_an_unknown_mode() -> None:
    result = run("simulate", "--mode", "brawl", "--decks", *FOUR[:2])
    assert result.code != 0 and "unknown mode 'brawl'" in result.err and "skirmish" in result.err


def test_deck_check_in_a_team_mode_names_what_teammates_share(capsys: pytest.CaptureFixture[str]) -> None:
    """491.8.i: Annie and Jinx both bring Zaun Warrens, so they can't sit as teammates (seats 1 and 3)."""
    capsys.readouterr()
    bad = run("deck", "check", "--mode", "magma-chamber", "Annie Starter Deck", "Garen Starter Deck",
              "Jinx Champion Deck", "Lee Sin Champion Deck")
    lines = capsys.readouterr().out.splitlines()
    assert bad.code == 1
    assert lines[0] == "Annie Starter Deck: not legal, 1 problem"
    assert "seat 1 and seat 3 are teammates and both bring the battlefield Zaun Warrens (OGN-298)" in lines[1]
    assert "Garen Starter Deck: legal" in lines
    good = run("deck", "check", "--mode", "magma-chamber", *FOUR)
    assert good.code == 0 and all(line.endswith(": legal") for line in capsys.readouterr().out.splitlines())
    assert run("deck", "check", "--mode", "war", *FOUR).code == 0  # no teams in War


def test_deck_check_in_a_mode_needs_a_deck_per_seat() -> None:
    result = run("deck", "check", "--mode", "war", "Annie Starter Deck")
    assert result.code != 0 and "war is played by 4 players: give 4 decks, one per seat in seat order, 1 given" in result.err
