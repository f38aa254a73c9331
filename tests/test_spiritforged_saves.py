"""Validated saves (core/engine/saves.py) accept the state Spiritforged's cards make: every scenario of the cards
that leave new kinds of state behind - control for a while (a lasting effect of kind control), cards
banished "with" another, a gear-only pool, units watched for becoming Mighty - saves and loads back to
the same game.  Without the state schema's entries for them the save is refused as corrupt."""
from __future__ import annotations

from pathlib import Path

import pytest

from riftscript.core.engine.game import Game
from riftscript.tools.pytest_plugin import catalog
from riftscript.tools.scenario import load_file, run_scenario

SCENARIOS = Path(__file__).resolve().parent.parent / "sets" / "spiritforged" / "scenarios"
# Hostile Takeover (control this turn), Akshan (control while he stays), The Zero Drive (banished with),
# Fire Below the Mountain (gear-only energy and power), Grand Duelist (units watched for becoming Mighty)
CARDS = ["SFD-202", "SFD-109", "SFD-090", "SFD-189", "SFD-205"]


@pytest.mark.parametrize("code", CARDS)
def test_every_scenario_end_state_saves_and_loads(code: str) -> None:
    cat = catalog()
    assert cat.schemas is not None
    games = [run_scenario(cat, scenario) for scenario in load_file(SCENARIOS / f"{code}.yaml", cat.schemas)]
    assert games
    for game in games:
        assert game is not None
        text = game.to_json()
        assert Game.from_json(cat, text).to_json() == text
