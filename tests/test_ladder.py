"""The ladder's report: what an auditor reads after a long round robin (benchmarks/ladder.py)."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _ladder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder", ROOT / "benchmarks" / "ladder.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _game(a: str, b: str, winner: str | None) -> dict[str, Any]:
    return {"a": a, "b": b, "winner": winner, "times": {a: [0.01], b: [0.02]}, "choices": {a: [0.01], b: [0.02]}}


def _elo_column(text: str) -> dict[str, str]:
    rows = text.split("\n\n")[1].splitlines()[1:]
    return {line.split("  ")[0]: line.split("  ")[1] for line in rows}


def test_an_agent_that_played_no_game_has_no_rating() -> None:
    ladder = _ladder()
    results = [_game("random", "greedy", "greedy") for _ in range(9)] + [_game("random", "greedy", "random")]
    elo = _elo_column(ladder.report(results, ["random", "greedy", "mcts-hard"], markdown=False))
    assert elo["mcts-hard"] == "no games"
    assert elo["random"] == "0" and int(elo["greedy"]) > 300


def test_the_pairing_table_counts_wins_draws_and_an_interval() -> None:
    ladder = _ladder()
    results = [_game("random", "greedy", "greedy")] * 6 + [_game("greedy", "random", None)] * 2 \
        + [_game("greedy", "random", "random")] * 2
    first = ladder.report(results, ["random", "greedy"], markdown=False).splitlines()[1]
    assert first.split("  ")[:5] == ["random vs greedy", "10", "2", "2", "30.0%"]


def test_the_report_says_which_revisions_played_the_games() -> None:
    ladder = _ladder()
    results = [{**_game("random", "greedy", "greedy"), "revision": "abc1234"}] * 3 + [_game("random", "greedy", None)]
    last = ladder.report(results, ["random", "greedy"], markdown=False).splitlines()[-1]
    assert last.startswith("played at: abc1234 (3 games), unknown (1 games)")
    assert ladder.revision() != "unknown"  # this checkout is a git repository


def test_a_budget_written_out_plays_as_the_installed_level_with_that_budget() -> None:
    ladder = _ladder()
    catalog = ladder._catalog()
    level, written = ladder._agent(catalog, "mcts", 5), ladder._agent(catalog, "mcts@100,120000", 5)
    assert (written.iterations, written.work) == (level.iterations, level.work) and written.state == level.state
