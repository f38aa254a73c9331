"""The engine's vocabulary is typed (issue 13): decision kinds and task names are Literals that match
what the engine does, a trigger's origin is a record rather than a packed number, and history rows are
named tuples that save exactly as the lists they were."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from riftscript.core import Game, load_catalog
from riftscript.core.engine import decisions
from riftscript.core.engine.state import DECISION_KINDS, NOWHERE, TASK_NAMES, HistoryRow, Origin

ENGINE = Path(__file__).resolve().parents[1] / "core" / "engine"


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


def test_every_decision_kind_is_answered_by_an_action_type() -> None:
    assert set(decisions.BY_DECISION) == set(DECISION_KINDS)


def test_task_names_are_the_tasks_the_engine_queues_and_runs() -> None:
    queued = set()
    for path in ENGINE.glob("*.py"):
        queued |= set(re.findall(r'tasks\.(?:append|insert)\((?:\d+, )?\["(\w+)"', path.read_text(encoding="utf-8")))
    assert queued and queued <= set(TASK_NAMES)
    loop = (ENGINE / "loop.py").read_text(encoding="utf-8")
    body = loop[loop.index("def run_task("):loop.index("# ----", loop.index("def run_task("))]
    assert sorted(name for name in TASK_NAMES if f'"{name}"' not in body) == []


@pytest.mark.parametrize("origin", [Origin("own"), Origin("lasting", lasting=7),
                                    Origin("static_grant", source=12, static=3, modifier=1),
                                    Origin("effect_text", source=40)])
def test_an_origin_is_the_number_it_was_packed_into(origin: Origin) -> None:
    assert Origin.of(origin.code) == origin
    assert (origin.code == NOWHERE) == (origin.kind == "own")


def test_history_rows_save_as_the_lists_they_were() -> None:
    game = Game.new(cat(), ["Jinx Champion Deck", "Viktor Champion Deck"], seed=3)
    steps = 0
    while not game.over and steps < 400 and not game.state.history:
        game.apply(game.legal_actions()[0])
        steps += 1
    game.record("tested", 0, 4)
    rows = list(game.state.history)
    assert rows and all(isinstance(h, HistoryRow) for h in rows)
    saved = json.loads(game.to_json())["state"]["history"]
    assert saved[-1] == ["var:tested", 0, NOWHERE, "", 4]  # a recorded number: five items, as before
    assert all(len(row) == 6 for row in saved[:-1]) and saved[0] == list(rows[0])
    loaded = Game.from_json(cat(), game.to_json(), replay=False)
    assert loaded.state.history == rows and isinstance(loaded.state.history[0], HistoryRow)
