"""The pytest plugin RiftScript ships (entry point ``pytest11``): YAML scenarios become tests.

Any ``*.yaml`` file inside a folder named ``scenarios`` (or named ``*.scenario.yaml``) is
collected; each scenario in it is one test item, reported with the scenario's ``file:line``.
A scenario with ``pending:`` is skipped with that reason.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from riftscript.core.catalog import Catalog, load_catalog
from riftscript.core.errors import ScriptError
from riftscript.tools.scenario import Scenario, ScenarioFailure, load_file, run_scenario

_CATALOGS: dict[str, Catalog] = {}


def catalog(extra: Path | None = None) -> Catalog:
    """One catalog per card folder for the whole session: cards are loaded and compiled once.

    Scenarios in ``X/scenarios/`` also see the cards of ``X/cards/`` when that folder exists, so a
    card author can test cards before packaging them as a set.
    """
    key = str(extra or "")
    if key not in _CATALOGS:
        _CATALOGS[key] = load_catalog(extra_cards=[extra] if extra is not None else [])
    return _CATALOGS[key]


def _cards_beside(path: Path) -> Path | None:
    for parent in path.parents:
        if parent.name == "scenarios":
            cards = parent.parent / "cards"
            plugins = catalog().plugins
            installed = plugins is not None and any(str(spec.cards) == str(cards) for spec in plugins.sets())
            return cards if cards.is_dir() and not installed else None
    return None


def is_scenario_file(path: Path) -> bool:
    return path.suffix in (".yaml", ".yml") and ("scenarios" in path.parts or path.name.endswith(".scenario.yaml"))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if is_scenario_file(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        cat = catalog(_cards_beside(self.path))
        assert cat.schemas is not None
        try:
            scenarios = load_file(self.path, cat.schemas)
        except ScriptError as exc:
            raise self.CollectError(str(exc)) from None
        for scenario in scenarios:
            yield ScenarioItem.from_parent(self, name=scenario.name, scenario=scenario, cards=_cards_beside(self.path))


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, cards: Path | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.cards = cards
        for rule in scenario.rules:
            self.user_properties.append(("rule", rule))
        for card in scenario.cards:
            self.user_properties.append(("card", card))

    def runtest(self) -> None:
        if self.scenario.pending:
            pytest.skip(f"pending: {self.scenario.pending}")
        run_scenario(catalog(self.cards), self.scenario)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailure):
            return f"scenario {self.scenario.name!r} failed:\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = (self.scenario.line - 1) if self.scenario.line else None
        return self.path, line, f"scenario: {self.scenario.name}"
