"""The pytest plugin RiftScript ships (entry point ``pytest11``): YAML scenarios become tests.

Any ``*.yaml`` file inside a folder named ``scenarios`` (or named ``*.scenario.yaml``) is
collected; each scenario in it is one test item, reported with the scenario's ``file:line``.
A scenario with ``pending:`` is skipped with that reason.

A scenario inside a set folder (a folder holding ``set.yaml``) runs with the whole folder loaded:
its cards, keywords and decks, with no packaging.  The folder's ``set.yaml`` is collected as one
more item that fails listing every problem of the folder's files.  A card file with problems
fails only the scenarios that use that card; a scenario naming a card, deck or alias that does
not exist is found at collection and fails with that name's ``file:line:col`` and a 'did you mean'
hint, while the other scenarios of the file run.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

from riftscript.core.script import cardrefs, folders, yamlio
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.script.loader import detect_kind, script_files
from riftscript.core.errors import Problem, ScriptError
from riftscript.tools.scenario import Scenario, ScenarioFailure, load_file, run_scenario

_CATALOGS: dict[str, Catalog] = {}


def catalog(extra: Path | None = None) -> Catalog:
    """One catalog per card folder for the whole session: cards are loaded and compiled once
    (strict: a problem in an installed set raises)."""
    key = str(extra or "")
    if key not in _CATALOGS:
        _CATALOGS[key] = load_catalog(extra_cards=[extra] if extra is not None else [])
    return _CATALOGS[key]


@dataclass
class Context:
    """The catalog a scenario file runs with, and what is wrong in the files it was loaded from."""

    catalog: Catalog
    problems: list[Problem] = field(default_factory=list)
    # a card's code or name, or a deck's name -> what it is ("Cinder Pup (MYS-002)") and its file's problems
    broken: dict[str, tuple[str, list[Problem]]] = field(default_factory=dict)
    # every scenario fails with these: the set manifest's (nothing of the folder loads), or any problem of
    # the cards beside a scenarios folder outside a set folder
    fatal: list[Problem] = field(default_factory=list)


_CONTEXTS: dict[tuple[str, ...], Context] = {}


def context(path: Path) -> Context:
    """The catalog for scenarios at ``path``: installed sets plus the rest of its set folder (or the
    cards beside its scenarios folder), loaded once per session, problems kept rather than raised."""
    parts = folders.context(path)
    key = tuple(str(p) for p in parts)
    if key not in _CONTEXTS:
        if not parts:
            _CONTEXTS[key] = Context(catalog())
        else:
            _CONTEXTS[key] = found = _load(parts)
            if folders.find_root(path) is None:
                found.fatal = found.problems  # cards beside a scenarios folder: no set folder check lists them
    return _CONTEXTS[key]


def _load(parts: list[Path]) -> Context:
    cat = load_catalog(extra_cards=parts, strict=False)
    mine = {str(f) for part in parts for f in script_files(part)}
    ctx = Context(cat, [p for p in cat.problems if p.file in mine])
    by_file: dict[str, list[Problem]] = {}
    for problem in ctx.problems:
        by_file.setdefault(problem.file, []).append(problem)
    for file, found in by_file.items():
        try:
            raw = yamlio.load_file(Path(file))
        except (ScriptError, OSError):
            raw = None
        kind = detect_kind(raw) if isinstance(raw, dict) else ("set" if Path(file).name == folders.MANIFEST else "card")
        if kind == "set":
            ctx.fatal += found
        elif kind in ("card", "deck"):
            names = [str(raw[k]) for k in ("name", "code") if isinstance(raw, dict) and isinstance(raw.get(k), str)]
            names = names or [Path(file).stem]
            label = f"{names[0]} ({names[1]})" if len(names) == 2 else names[0]
            for name in names:
                ctx.broken[name] = (label, found)
    return ctx


def is_scenario_file(path: Path) -> bool:
    return path.suffix in (".yaml", ".yml") and ("scenarios" in path.parts or path.name.endswith(".scenario.yaml"))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if is_scenario_file(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    if file_path.name == folders.MANIFEST and (file_path.parent / "cards").is_dir():
        return SetFolderFile.from_parent(parent, path=file_path)
    return None


def _listing(problems: list[Problem]) -> str:
    return "\n".join(str(p) for p in problems)


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        ctx = context(self.path)
        cat = ctx.catalog
        assert cat.schemas is not None
        try:
            scenarios = load_file(self.path, cat.schemas)
        except ScriptError as exc:
            raise self.CollectError(str(exc)) from None
        refs = cardrefs.references("scenario", yamlio.load_file(self.path))
        unknown = cardrefs.problems(refs, cat.cards, cat.decks, ctx.broken)
        positions = yamlio.Positions(self.path.read_text(encoding="utf-8")) if unknown else None
        for scenario in scenarios:
            mine = [r for r in refs if r.path[:len(scenario.base_path)] == scenario.base_path]
            wrong = [self._problem(positions, ref, message) for ref, message in unknown if ref in mine]
            yield ScenarioItem.from_parent(self, name=scenario.name, scenario=scenario, context=ctx,
                                           broken=sorted({r.name for r in mine} & set(ctx.broken)), unknown=wrong)

    def _problem(self, positions: yamlio.Positions | None, ref: cardrefs.Ref, message: str) -> Problem:
        assert positions is not None
        pos = positions.of_key(ref.path[:-1], ref.path[-1]) if ref.at_key else positions.of(ref.path)
        return Problem(str(self.path), pos[0] if pos else None, pos[1] if pos else None, message,
                       yamlio.dotted(ref.path))


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, context: Context | None = None, broken: list[str] | None = None,
                 unknown: list[Problem] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.context = context
        self.broken = broken or []
        self.unknown = unknown or []  # names of cards, decks or aliases that do not exist, found at collection
        for rule in scenario.rules:
            self.user_properties.append(("rule", rule))
        for card in scenario.cards:
            self.user_properties.append(("card", card))

    def runtest(self) -> None:
        if self.scenario.pending:
            pytest.skip(f"pending: {self.scenario.pending}")
        ctx = self.context or context(self.path)
        if self.unknown:
            raise ScenarioFailure(_listing(self.unknown))
        if ctx.fatal:
            raise ScenarioFailure(f"the files it is loaded with have problems:\n{_listing(ctx.fatal)}")
        if self.broken:
            used = {ctx.broken[name][0]: ctx.broken[name][1] for name in self.broken}
            found = [p for problems in used.values() for p in problems]
            raise ScenarioFailure(f"it uses {' and '.join(used)}, whose file{'s' if len(used) > 1 else ''} "
                                  f"{'have' if len(used) > 1 else 'has'} problems:\n{_listing(found)}")
        run_scenario(ctx.catalog, self.scenario)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailure):
            return f"scenario {self.scenario.name!r} failed:\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = (self.scenario.line - 1) if self.scenario.line else None
        return self.path, line, f"scenario: {self.scenario.name}"


class SetFolderFile(pytest.File):
    """A set folder's ``set.yaml``: one item checking every file the folder loads."""

    def collect(self) -> Iterator[pytest.Item]:
        yield SetFolderItem.from_parent(self, name="files are valid")


class SetFolderItem(pytest.Item):
    def runtest(self) -> None:
        found = context(self.path).problems
        if found:
            count = len(found)
            raise ScenarioFailure(f"{count} problem{'s' if count != 1 else ''} in the set folder:\n{_listing(found)}")

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"set folder {self.path.parent.name}"
