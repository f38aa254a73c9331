"""``riftscript rules-coverage``: which Core Rules numbers are proven by a passing scenario.

Scenarios name the rule numbers (``rules:``) and community rulings (``rulings:``) they prove.
This command runs them in-process and checks those names against the project's own rule index
(``rules_index.yaml``, shipped with this package): every number the rules digests quote or cite,
with a section and a short title of our own.  Only a *passing* scenario covers anything, so a
rule is never reported as proven by a scenario that fails, errors or is still pending; failures
are listed with their message so they cannot hide behind a coverage number.
"""
from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Sequence, TextIO

from riftscript.core.script import folders, yamlio
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.script.loader import script_files
from riftscript.core.errors import RiftScriptError, ScriptError
from riftscript.tools.scenario import Scenario, ScenarioFailure, load_file, run_scenario

INDEX_FILE = "rules_index.yaml"
RULING_PREFIX = "ruling:"
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
Json = dict[str, Any]


# --- the rule index --------------------------------------------------------------------------

@dataclass(frozen=True)
class RuleEntry:
    """One Core Rules number: where it is discussed and what it is about (in our words)."""

    number: str
    section: str
    status: str  # "quoted" (in a 'What the Core Rules say' list) or "cited" (only in Source lines)
    files: tuple[str, ...]
    title: str

    @property
    def quoted(self) -> bool:
        return self.status == "quoted"


@dataclass(frozen=True)
class RulingEntry:
    """A community ruling: checkable (with a section and title) or excluded with the reason."""

    id: str
    n: int
    section: str | None = None
    title: str | None = None
    excluded: str | None = None


@dataclass
class RuleIndex:
    sections: list[str]
    pending_sections: list[str]
    rules: list[RuleEntry]
    rulings: list[RulingEntry]

    def by_number(self) -> dict[str, RuleEntry]:
        return {r.number: r for r in self.rules}

    @property
    def checkable_rulings(self) -> list[RulingEntry]:
        return [r for r in self.rulings if r.excluded is None]


def load_index(path: Path | None = None) -> RuleIndex:
    """Read the rule index: the shipped one, or ``path`` (for trying out an edited copy)."""
    if path is None:
        text = resources.files("riftscript.tools").joinpath(INDEX_FILE).read_text(encoding="utf-8")
        name = INDEX_FILE
    else:
        text = yamlio.read_text(path)
        name = str(path)
    data = yamlio.load_text(text, name)
    try:
        rules = [RuleEntry(str(r["number"]), str(r["section"]), str(r["status"]),
                           tuple(str(f) for f in r.get("files", [])), str(r["title"])) for r in data["rules"]]
        rulings = [RulingEntry(str(r["id"]), int(r["n"]), r.get("section"), r.get("title"), r.get("excluded"))
                   for r in data.get("rulings", [])]
        sections = [str(s) for s in data.get("sections", [])]
        pending = [str(s) for s in data.get("pending_sections", [])]
    except (KeyError, TypeError, ValueError) as exc:
        raise RiftScriptError(f"{name}: not a rule index ({type(exc).__name__}: {exc})") from None
    for rule in rules:
        if rule.section not in sections:
            sections.append(rule.section)
    return RuleIndex(sections, pending, rules, rulings)


def ruling_id(name: str) -> str:
    """Scenarios may write a ruling as ``ruling:slug`` or just ``slug``; other text is kept as written."""
    name = name.strip()
    return RULING_PREFIX + name if SLUG.fullmatch(name) else name


# --- running scenarios -----------------------------------------------------------------------

@dataclass
class Outcome:
    """What happened to one scenario; only ``passed`` ones cover their rules."""

    name: str
    file: str
    line: int | None
    status: str  # passed, failed, error (could not load or crashed) or pending
    rules: list[str] = field(default_factory=list)
    rulings: list[str] = field(default_factory=list)
    message: str = ""

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file

    def to_json(self) -> Json:
        return {"name": self.name, "file": self.file, "line": self.line, "status": self.status,
                "rules": self.rules, "rulings": self.rulings, "message": self.message}


def is_scenario_file(path: Path) -> bool:
    """The same files the pytest plugin collects: YAML in a ``scenarios`` folder, or ``*.scenario.yaml``."""
    return path.suffix in (".yaml", ".yml") and ("scenarios" in path.parts or path.name.endswith(".scenario.yaml"))


def scenario_files(paths: Iterable[Path]) -> list[Path]:
    """Scenario files under the given files and folders, each once, in a stable order."""
    seen: dict[Path, Path] = {}
    for path in paths:
        if path.is_file():
            candidates = [path]
        else:
            # script_files skips hidden folders and the copies pip install leaves (build, dist, *.egg-info)
            candidates = [p for p in script_files(path) if is_scenario_file(p)]
        for file in candidates:
            seen.setdefault(file.resolve(), file)
    return list(seen.values())


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def run_file(catalog: Catalog, path: Path) -> list[Outcome]:
    """Run every scenario of one file; a file that does not load is one ``error`` outcome."""
    assert catalog.schemas is not None
    shown = _shown(path)
    try:
        scenarios = load_file(path, catalog.schemas)
    except (ScriptError, OSError) as exc:
        return [Outcome(path.name, shown, None, "error", message=f"cannot load: {exc}")]
    return [run_one(catalog, scenario, shown) for scenario in scenarios]


def run_one(catalog: Catalog, scenario: Scenario, shown: str) -> Outcome:
    rulings = [ruling_id(str(r)) for r in scenario.data.get("rulings", [])]
    outcome = Outcome(scenario.name, shown, scenario.line, "passed", list(scenario.rules), rulings)
    if scenario.pending:
        outcome.status, outcome.message = "pending", scenario.pending
        return outcome
    try:
        run_scenario(catalog, scenario)
    except ScenarioFailure as exc:
        outcome.status, outcome.message = "failed", str(exc)
    except Exception as exc:  # an engine bug must not stop the report; it is shown as an error
        outcome.status, outcome.message = "error", f"{type(exc).__name__}: {exc}"
    return outcome


# --- the report ------------------------------------------------------------------------------

@dataclass
class Coverage:
    """Rules and rulings against the scenarios that cover them."""

    index: RuleIndex
    outcomes: list[Outcome]
    covering: dict[str, list[str]] = field(default_factory=dict)  # rule number -> passing scenario ids
    not_passing: dict[str, list[str]] = field(default_factory=dict)  # rule number -> failing/pending ids
    ruling_covering: dict[str, list[str]] = field(default_factory=dict)
    unknown_rules: dict[str, list[str]] = field(default_factory=dict)
    unknown_rulings: dict[str, list[str]] = field(default_factory=dict)
    searched: list[str] = field(default_factory=list)  # where scenarios were looked for

    @classmethod
    def build(cls, index: RuleIndex, outcomes: list[Outcome]) -> Coverage:
        cov = cls(index, outcomes)
        known = index.by_number()
        rulings = {r.id for r in index.rulings}
        for outcome in outcomes:
            ident = f"{outcome.where}: {outcome.name}"
            for number in dict.fromkeys(outcome.rules):
                if number not in known:
                    cov.unknown_rules.setdefault(number, []).append(ident)
                elif outcome.status == "passed":
                    cov.covering.setdefault(number, []).append(ident)
                else:
                    cov.not_passing.setdefault(number, []).append(ident)
            for rid in dict.fromkeys(outcome.rulings):
                if rid not in rulings:
                    cov.unknown_rulings.setdefault(rid, []).append(ident)
                elif outcome.status == "passed":
                    cov.ruling_covering.setdefault(rid, []).append(ident)
        return cov

    def covered(self, number: str) -> bool:
        return number in self.covering

    def totals(self, rules: Sequence[RuleEntry]) -> Json:
        """Covered/total for quoted numbers and for all numbers among ``rules``."""
        quoted = [r for r in rules if r.quoted]
        return {"quoted": _ratio(sum(self.covered(r.number) for r in quoted), len(quoted)),
                "all": _ratio(sum(self.covered(r.number) for r in rules), len(rules))}

    def section_rules(self, section: str) -> list[RuleEntry]:
        return [r for r in self.index.rules if r.section == section]

    def to_json(self) -> Json:
        """The report as data (``searched``: the files and folders scenarios were looked for in)."""
        index = self.index
        active = [r for r in index.rules if r.section not in index.pending_sections]
        checkable = index.checkable_rulings
        return {
            "searched": self.searched,
            "scenarios": dict(Counter(o.status for o in self.outcomes)),
            "totals": self.totals(index.rules),
            "totals_without_pending_sections": self.totals(active),
            "sections": {s: {**self.totals(self.section_rules(s)), "pending": s in index.pending_sections}
                         for s in index.sections},
            "rules": {r.number: {"covered": self.covered(r.number), "section": r.section, "status": r.status,
                                 "title": r.title, "scenarios": self.covering.get(r.number, []),
                                 "not_passing": self.not_passing.get(r.number, [])} for r in index.rules},
            "rulings": {
                "totals": _ratio(sum(r.id in self.ruling_covering for r in checkable), len(checkable)),
                "excluded": len(index.rulings) - len(checkable),
                "entries": {r.id: {"covered": r.id in self.ruling_covering, "section": r.section,
                                   "title": r.title, "scenarios": self.ruling_covering.get(r.id, [])}
                            for r in checkable},
            },
            "unknown_rules": self.unknown_rules,
            "unknown_rulings": self.unknown_rulings,
            "problems": [o.to_json() for o in self.outcomes if o.status in ("failed", "error")],
            "pending": [o.to_json() for o in self.outcomes if o.status == "pending"],
        }


def _ratio(covered: int, total: int) -> Json:
    return {"covered": covered, "total": total}


def _cell(part: Json) -> str:
    covered, total = part["covered"], part["total"]
    percent = f"{100 * covered / total:.0f}%" if total else "-"
    return f"{covered}/{total} {percent:>4}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def write_text(cov: Coverage, out: TextIO, missing: bool = False, seconds: float | None = None) -> None:
    """The human report: scenario results, failures, a table by section, rulings, unknown names."""
    index = cov.index
    counts = Counter(o.status for o in cov.outcomes)
    files = len({o.file for o in cov.outcomes})
    took = f" in {seconds:.1f}s" if seconds is not None else ""
    here = "" if Path("tests").is_dir() else f" (no tests/ folder in {Path.cwd()}: the repository's are not counted)"
    print(f"scenarios from: {', '.join(cov.searched)}{here}", file=out)
    print(f"{_plural(len(cov.outcomes), 'scenario')} in {_plural(files, 'file')}{took}: "
          f"{counts['passed']} passed, {counts['failed']} failed, {counts['error']} errors, "
          f"{counts['pending']} pending", file=out)
    problems = [o for o in cov.outcomes if o.status in ("failed", "error", "pending")]
    if problems:
        print("\nnot counted (failing and pending scenarios cover nothing):", file=out)
        for o in problems:
            first = o.message.strip().splitlines()[0] if o.message.strip() else ""
            print(f"  {o.status.upper()} {o.where}: {o.name}\n      {first}", file=out)
    width = max([len(s) for s in index.sections] + [24]) + 2
    print(f"\n{'section':<{width}}{'quoted':>14}{'all':>14}", file=out)
    for section in index.sections:
        totals = cov.totals(cov.section_rules(section))
        label = section + (" (pending)" if section in index.pending_sections else "")
        print(f"{label:<{width}}{_cell(totals['quoted']):>14}{_cell(totals['all']):>14}", file=out)
    everything = cov.totals(index.rules)
    print(f"{'total':<{width}}{_cell(everything['quoted']):>14}{_cell(everything['all']):>14}", file=out)
    if index.pending_sections:
        active = cov.totals([r for r in index.rules if r.section not in index.pending_sections])
        print(f"{'total without pending':<{width}}{_cell(active['quoted']):>14}{_cell(active['all']):>14}",
              file=out)
    checkable = index.checkable_rulings
    done = sum(r.id in cov.ruling_covering for r in checkable)
    print(f"\nrulings: {_cell(_ratio(done, len(checkable)))} of the checkable ones covered "
          f"({len(index.rulings) - len(checkable)} excluded)", file=out)
    if cov.unknown_rules:
        print("\nrule numbers cited by scenarios but not in the index:", file=out)
        for number, where in sorted(cov.unknown_rules.items(), key=lambda kv: _number_key(kv[0])):
            more = f" (+{len(where) - 1} more)" if len(where) > 1 else ""
            print(f"  {number:<14}{where[0]}{more}", file=out)
            narrower = [r.number for r in index.rules if r.number.startswith(number + ".")]
            if narrower:
                shown = ", ".join(narrower[:6]) + (", ..." if len(narrower) > 6 else "")
                print(f"  {'':<14}the index has {shown}", file=out)
    if cov.unknown_rulings:
        print("\nrulings cited by scenarios but not in the index:", file=out)
        for rid, where in sorted(cov.unknown_rulings.items()):
            print(f"  {rid}  ({where[0]})", file=out)
    if missing:
        _write_missing(cov, out)


def _write_missing(cov: Coverage, out: TextIO) -> None:
    index = cov.index
    print("\nnot covered by a passing scenario:", file=out)
    for section in index.sections:
        left = [r for r in cov.section_rules(section) if not cov.covered(r.number)]
        if not left:
            continue
        pending = " (pending)" if section in index.pending_sections else ""
        print(f"\n  {section}{pending}: {len(left)}", file=out)
        for rule in left:
            note = "  [only failing/pending scenarios]" if rule.number in cov.not_passing else ""
            print(f"    {rule.number:<13} {rule.status:<7} {rule.title}{note}", file=out)
    left_rulings = [r for r in index.checkable_rulings if r.id not in cov.ruling_covering]
    if left_rulings:
        print(f"\n  rulings: {len(left_rulings)}", file=out)
        for ruling in left_rulings:
            print(f"    {ruling.id:<45} {ruling.title}", file=out)


def _number_key(number: str) -> list[tuple[int, int, str]]:
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in number.split(".")]


# --- the command -----------------------------------------------------------------------------

def default_paths(catalog: Catalog) -> list[Path]:
    """``tests/`` here (if present) and every installed set's scenarios folder."""
    paths = [Path("tests")] if Path("tests").is_dir() else []
    for info in sorted(catalog.sets.values(), key=lambda i: i.code):
        folder = info.spec.scenarios
        if folder is not None and folder.is_dir():
            paths.append(folder)
    return paths


def loaded_with(path: Path, catalog: Catalog) -> list[Path]:
    """What a scenario runs with besides the installed sets, as under pytest (``folders.context``: the
    rest of its set folder, or the cards beside its scenarios folder); nothing when that is installed."""
    parts = folders.context(path)
    installed = {p.resolve() for info in catalog.sets.values() for p in (info.spec.manifest, info.spec.cards)}
    return [] if all(part.resolve() in installed or part.name in ("keywords", "decks") for part in parts) else parts


def measure(paths: Sequence[Path], index: RuleIndex | None = None, catalog: Catalog | None = None,
            use_cache: bool = True) -> Coverage:
    """Run the scenarios under ``paths`` (default: tests/ and installed sets) and compare them to the index."""
    index = index or load_index()
    cache = None if use_cache else False
    base = catalog or load_catalog(strict=False, cache=cache)
    catalogs: dict[tuple[Path, ...], Catalog | ScriptError] = {}
    outcomes: list[Outcome] = []
    roots = list(paths) or default_paths(base)
    files = scenario_files(roots)
    searched = [_shown(root) for root in roots]
    if not files:
        here = "" if paths or Path("tests").is_dir() else f" (there is no tests/ folder in {Path.cwd()})"
        raise RiftScriptError(f"no scenarios found: looked in {', '.join(searched) or 'nothing'}{here}; "
                              f"run it in the repository or name scenario files or folders")
    for file in files:
        parts = tuple(loaded_with(file, base))
        if not parts:
            outcomes += run_file(base, file)
            continue
        if parts not in catalogs:
            try:
                catalogs[parts] = load_catalog(extra_cards=list(parts), cache=cache)
            except ScriptError as exc:
                catalogs[parts] = exc
        found = catalogs[parts]
        if isinstance(found, ScriptError):
            outcomes.append(Outcome(file.name, _shown(file), None, "error",
                                    message=f"{', '.join(_shown(p) for p in parts)}: problems: {found}"))
        else:
            outcomes += run_file(found, file)
    coverage = Coverage.build(index, outcomes)
    coverage.searched = searched
    return coverage


def cmd_rules_coverage(args: argparse.Namespace) -> int:
    """Report coverage; exit 0 even with a gap or a failing scenario (so CI can show the report), 1
    when no scenario is found at all."""
    from riftscript.tools.cli import CONTEXT  # imported here: cli imports this module

    paths: list[Path] = args.paths
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise RiftScriptError(f"no such file or folder: {', '.join(map(str, missing))}")
    started = time.perf_counter()
    cov = measure(paths, load_index(args.index), use_cache=CONTEXT.use_cache)
    out = CONTEXT.stream
    if args.format == "json":
        out.write(json.dumps(cov.to_json(), indent=1) + "\n")
    else:
        write_text(cov, out, missing=args.missing, seconds=time.perf_counter() - started)
    return 0


EPILOG = """\
examples:
  riftscript rules-coverage                         tests/ here and every installed set's scenarios
  riftscript rules-coverage --missing               also list the rules no passing scenario covers
  riftscript rules-coverage tests/rules/scenarios --format json
Only passing scenarios count; failing, erroring and pending ones are listed and cover nothing.
exit status: 0 (a coverage gap or a failing scenario is reported, not an error); 1 when no scenario is found."""


def add_commands(sub: Any) -> None:
    """Register 'rules-coverage' on an argparse subparsers object."""
    parser = sub.add_parser(
        "rules-coverage", help="run the scenarios and report which Core Rules numbers they prove",
        description="Run YAML scenarios in-process and report, for every rule number in RiftScript's rule\n"
                    "index, whether a passing scenario covers it, by section; also the rulings covered.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="scenario files or folders (default: tests/ and installed sets' scenarios)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    parser.add_argument("--missing", action="store_true", help="list the rules and rulings not yet covered")
    parser.add_argument("--index", type=Path, metavar="FILE", help="use this rule index instead of the shipped one")
    parser.set_defaults(func=cmd_rules_coverage)
