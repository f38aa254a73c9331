"""Golden playthroughs: seeded games of every mode must replay event for event (log hash and text)."""
from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from riftscript.tools.golden import GAMES, record
from riftscript.tools.pytest_plugin import catalog as shared_catalog

HERE = Path(__file__).parent / "golden"


@pytest.mark.parametrize("index", range(len(GAMES)), ids=[f"game{i + 1}" for i in range(len(GAMES))])
def test_golden_playthrough_replays(index: int) -> None:
    catalog = shared_catalog()
    meta = json.loads((HERE / f"game{index + 1}.json").read_text(encoding="utf-8"))
    expected_log = (HERE / f"game{index + 1}.log").read_text(encoding="utf-8").splitlines()
    golden = record(catalog, index)
    replayed = "\n".join(golden.log).splitlines()
    assert [golden.decks, golden.seed, golden.agent, golden.mode] == \
        [meta["decks"], meta["seed"], meta["agent"], meta.get("mode", "duel")]
    if golden.hash != meta["hash"]:
        diff = "\n".join(difflib.unified_diff(expected_log, replayed, "recorded", "replayed", lineterm="", n=2))
        pytest.fail(f"game{index + 1} no longer replays (events {meta['events']} -> {golden.events}); "
                    f"if intended, re-record with 'python3 -m riftscript.tools.golden tests/golden'.\n{diff}")
    assert replayed == expected_log
