"""Every installed set's own scenarios (``<set>/scenarios/*.yaml``) run with the suite."""
from __future__ import annotations

from pathlib import Path

import pytest

from riftscript.core.errors import ScriptError
from riftscript.tools.pytest_plugin import catalog
from riftscript.tools.scenario import Scenario, ScenarioFailure, load_file, run_scenario


def _installed() -> list[tuple[str, Path]]:
    cat = catalog()
    assert cat.plugins is not None
    found: list[tuple[str, Path]] = []
    for spec in cat.plugins.sets():
        if spec.scenarios is not None and spec.scenarios.is_dir():
            for path in sorted(spec.scenarios.rglob("*.yaml")):
                found.append((spec.plugin, path))
    return found


FILES = _installed()


@pytest.mark.parametrize("plugin,path", FILES, ids=[f"{p}/{f.name}" for p, f in FILES])
def test_set_scenario_file(plugin: str, path: Path) -> None:
    cat = catalog()
    assert cat.schemas is not None
    try:
        scenarios: list[Scenario] = load_file(path, cat.schemas)
    except ScriptError as exc:
        pytest.fail(f"{path} is not a valid scenario file:\n{exc}")
    failures = []
    pending = []
    for scenario in scenarios:
        if scenario.pending:
            pending.append(scenario.name)
            continue
        try:
            run_scenario(cat, scenario)
        except ScenarioFailure as exc:
            failures.append(f"scenario {scenario.name!r} failed:\n{exc}")
    assert not failures, "\n\n".join(failures)
    if pending and len(pending) == len(scenarios):
        pytest.skip(f"pending: {', '.join(pending)}")


def test_every_installed_card_has_a_scenario() -> None:
    """Issue 'every card scripted': each card (tokens included) is proven by a set scenario."""
    cat = catalog()
    named: set[str] = set()
    for _, path in FILES:
        assert cat.schemas is not None
        for scenario in load_file(path, cat.schemas):
            named.update(scenario.cards)
    missing = sorted(code for code in cat.cards if code not in named and code.split("-")[0] in ("OGN", "OGS", "SFD", "UNL"))
    assert not missing, f"{len(missing)} cards without a scenario: {', '.join(missing[:40])}"
