"""``riftscript mutate``: mutation testing of card scripts.

A card's scenarios prove its script only where they look.  This tool makes small changes to a
card's script - one at a time, each a *mutant* - and runs the card's scenarios against each mutant
in process: the scenarios of ``<set>/scenarios/<CODE>.yaml`` and every scenario that names the card
in ``cards:``.  A mutant some scenario fails on is *killed*; one every scenario still passes
*survived*: that change to the card would go unnoticed.  The mutation score is killed / (mutants -
equivalent).

Operators (``OPERATORS``): drop one filter, trigger filter or condition (``where`` keys, ``when``
keys, ``if``/``condition``/``while``/``only_while``, ``once_per_turn``, an ``if`` effect's condition, one member of
``all``/``any``); number +1 and -1 (amounts, counts, costs, Might, keyword values); friendly <->
enemy, you <-> friendly (what you control or do, or your teammate's too in 2v2: 491), enemy -> not you
(a teammate's too), you <-> opponent, yours <-> opponents; here <-> there <-> base; ``may``/``optional``/
``up_to`` <-> mandatory; the trigger event swapped for a neighbouring one (conquer <-> hold, played
<-> attack, ...); one step of a sequence dropped; "this turn" <-> permanent; ``self`` <-> other; an
effect's ``ready``/``exhausted`` flipped (a token or rune that enters ready instead of exhausted); a target
(chosen as the card is played, 355) chosen on resolution instead.
Mutants the schemas refuse are not counted.

A mutant that cannot change behaviour (an *equivalent* mutant) may be marked in the card file, with
its reason; it is listed as such and not counted as a survivor::

    mutation:
      equivalent:
        - {at: abilities[0].effect.amount, change: "1 -> 0", reason: "..."}

Speed: the catalog is loaded and every scenario parsed once; each mutant is compiled into a copy of
the catalog that differs in that one card; scenarios run in process, and the first that fails kills
the mutant.  Cards are shared among worker processes (``--workers``, default every core).
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import random
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, TextIO

from riftscript.core.script import yamlio
from riftscript.core.script.validated_cache import ValidationCache
from riftscript.core.script.catalog import Catalog
from riftscript.core.script.compiler import Compiler
from riftscript.core.script.loader import Loader
from riftscript.core.script.cards import CardDef
from riftscript.core.errors import RiftScriptError
from riftscript.tools.scenario import Runner, Scenario, ScenarioFailure

Json = dict[str, Any]
Path_ = list[str | int]

# The trigger events a mutant may listen to instead (a neighbouring event of the same kind).
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    "conquer": ("hold",), "hold": ("conquer",), "played": ("attack",), "attack": ("defend", "played"),
    "defend": ("attack",), "die": ("leave_board",), "leave_board": ("die",), "move": ("attack",),
    "phase_start": ("turn_end",), "turn_end": ("phase_start",), "discard": ("recycle",),
    "recycle": ("discard",), "stun": ("buff",), "buff": ("stun",), "draw": ("channel",), "channel": ("draw",),
    "kill": ("die",), "damaged": ("stun",), "ready": ("buff",), "score": ("conquer",), "hide": ("played",),
    "combat_end": ("showdown_start",), "showdown_start": ("combat_end",), "enter_board": ("played",),
}

# Values swapped for their counterparts, by the key that holds them.
_LOCATIONS: dict[str, tuple[str, ...]] = {"here": ("there", "base"), "there": ("here", "base"), "base": ("here", "battlefield"),
              "battlefield": ("base", "here"), "not_here": ("here",), "its_base": ("here",),
              "your_base": ("here",), "event_location": ("here",)}
_WHO: dict[str, tuple[str, ...]] = {"you": ("opponent",), "opponent": ("you",), "yours": ("opponents",), "opponents": ("yours",)}
SWAPS: dict[str, dict[str, tuple[str, ...]]] = {
    "controller": {"friendly": ("enemy", "you"), "enemy": ("friendly", "not_you"), "not_you": ("enemy",),
                   "you": ("enemy", "friendly")},
    "owner": _WHO, "player": {**_WHO, "you": ("opponent", "friendly"), "friendly": ("you",), "chosen": ("opponent",)},
    "whose": _WHO, "chooser": _WHO, "whose_turn": _WHO,
    "location": _LOCATIONS, "to": _LOCATIONS, "at": _LOCATIONS, "who": {"opponent": ("any_player",)},
    "duration": {"this_turn": ("permanent",), "permanent": ("this_turn",), "this_combat": ("this_turn",)},
    "pick": {"target": ("choose",)},
}
_SWAP_OPERATOR = {"controller": "friendly/enemy", "owner": "you/opponent", "player": "you/opponent",
                  "whose": "you/opponent", "chooser": "you/opponent", "whose_turn": "you/opponent",
                  "location": "here/there/base", "to": "here/there/base", "at": "here/there/base",
                  "who": "you/opponent", "duration": "this turn/permanent", "pick": "target/choose"}

# Swaps only a 2v2 game tells apart (491: a teammate is friendly, yet not you and not an enemy).
_TEAMMATE_SWAPS = {("you", "friendly"): "you/friendly", ("friendly", "you"): "you/friendly",
                   ("enemy", "not_you"): "enemy/not you"}
CONDITION_KEYS = ("if", "condition", "while", "only_while")
SELECTOR_KEYS = ("target", "of", "card", "a", "b", "equipment", "by_domain_of")  # an effect's objects
NO_NUMBERS = {"schema_version"}
OPERATORS = ("drop filter", "drop condition", "number", "friendly/enemy", "you/friendly", "enemy/not you", "you/opponent",
             "here/there/base", "optional/mandatory", "trigger event", "drop step", "this turn/permanent", "self/other",
             "ready/exhausted", "target/choose")
DEFAULT_TIMEOUT = 20.0


@dataclass(frozen=True)
class Mutant:
    """One small change to a card's script: where (a JSON path), which operator, in words."""

    path: tuple[str | int, ...]
    operator: str
    change: str
    data: Json = field(compare=False, repr=False)

    @property
    def at(self) -> str:
        return yamlio.dotted(list(self.path), limit=10_000)


# ---------------------------------------------------------------------- making mutants
def _get(data: Any, path: Path_) -> Any:
    for step in path:
        data = data[step]
    return data


def _edited(data: Json, path: Path_, edit: Callable[[Any, str | int], None]) -> Json:
    """A deep copy of the card with ``edit(parent, key)`` applied at ``path``."""
    out = copy.deepcopy(data)
    edit(_get(out, path[:-1]), path[-1])
    return out


def _set(value: Any) -> Callable[[Any, str | int], None]:
    def edit(parent: Any, key: str | int) -> None:
        parent[key] = copy.deepcopy(value)
    return edit


def _drop(parent: Any, key: str | int) -> None:
    del parent[key]


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True) if isinstance(value, (dict, list)) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def mutants(data: Json) -> list[Mutant]:
    """Every mutant of a card's script (schema validity is checked later)."""
    out: list[Mutant] = []

    def add(path: Path_, operator: str, change: str, mutated: Json) -> None:
        out.append(Mutant(tuple(path), operator, change, mutated))

    def visit(node: Any, path: Path_, key: str | int | None) -> None:
        if isinstance(node, list):
            if key == "steps" and len(node) >= 2:
                for i, step in enumerate(node):
                    kind = step.get("type", "?") if isinstance(step, dict) else "?"
                    add(path + [i], "drop step", f"drop step {i + 1} of {len(node)} ({kind})",
                        _edited(data, path + [i], _drop))
            if key == "any_of" and len(node) >= 2:
                for i, alternative in enumerate(node):
                    add(path + [i], "drop filter", f"drop alternative {_short(alternative)}",
                        _edited(data, path + [i], _drop))
            if key == "of" and len(node) >= 2:
                for i, cond in enumerate(node):
                    add(path + [i], "drop condition", f"drop condition {_short(cond)}", _edited(data, path + [i], _drop))
            for i, item in enumerate(node):
                visit(item, path + [i], i)
            return
        if not isinstance(node, dict):
            return
        _dict_mutants(node, path, key, add, data)
        for k, v in node.items():
            if k == "mutation" and not path:
                continue  # the tool's own notes
            here = path + [k]
            if isinstance(v, int) and not isinstance(v, bool) and k not in NO_NUMBERS:
                for delta in (1, -1):
                    add(here, "number", f"{v} -> {v + delta}", _edited(data, here, _set(v + delta)))
            elif isinstance(v, bool) and k in ("ready", "exhausted") and "type" in node:
                add(here, "ready/exhausted", f"{k}: {v} -> {not v}", _edited(data, here, _set(not v)))
            elif v == "self" and k in SELECTOR_KEYS and "kind" not in node:
                others = {"pick": "all", "what": _kind_of(data), "where": {"other": True}}
                add(here, "self/other", f"{k}: self -> other objects", _edited(data, here, _set(others)))
            elif isinstance(v, str) and v in SWAPS.get(str(k), {}):
                for other in SWAPS[str(k)][v]:
                    operator = _TEAMMATE_SWAPS.get((v, other), _SWAP_OPERATOR[str(k)])
                    add(here, operator, f"{k}: {v} -> {other}", _edited(data, here, _set(other)))
            visit(v, here, k)

    visit(data, [], None)
    return out


def _dict_mutants(node: Json, path: Path_, key: str | int | None, add: Callable[..., None], data: Json) -> None:
    """The operators that look at a mapping as a whole: filters, triggers, conditions, effects."""
    if key == "where" or (key == "subject" and path and path[-2:-1] == ["when"]):
        for k, v in node.items():
            add(path + [k], "drop filter", f"drop {k}: {_short(v)}", _edited(data, path + [k], _drop))
    if key == "when":
        for k, v in node.items():
            if k != "event":
                add(path + [k], "drop filter", f"drop trigger filter {k}: {_short(v)}", _edited(data, path + [k], _drop))
        for other in NEIGHBOURS.get(str(node.get("event")), ()):
            add(path + ["event"], "trigger event", f"event: {node['event']} -> {other}",
                _edited(data, path + ["event"], _set(other)))
        if node.get("subject") == "self":
            add(path + ["subject"], "self/other", "subject: self -> another object",
                _edited(data, path + ["subject"], _set({"other": True})))
    if "kind" in node:  # an ability
        for k in CONDITION_KEYS:
            if k in node:
                add(path + [k], "drop condition", f"drop {k}: {_short(node[k])}", _edited(data, path + [k], _drop))
        if node.get("once_per_turn"):
            add(path + ["once_per_turn"], "drop condition", "drop once_per_turn (every time)",
                _edited(data, path + ["once_per_turn"], _drop))
        if node.get("optional"):
            add(path + ["optional"], "optional/mandatory", "optional -> mandatory",
                _edited(data, path + ["optional"], _drop))
        elif node["kind"] == "triggered":
            add(path + ["optional"], "optional/mandatory", "mandatory -> optional",
                _edited(data, path, _set({**node, "optional": True})))
        if node["kind"] == "static" and node.get("affects", "self") == "self":
            others = {"pick": "all", "what": _kind_of(data), "where": {"other": True}}
            add(path + ["affects"], "self/other", "affects: self -> other objects",
                _edited(data, path, _set({**node, "affects": others})))
    if node.get("type") == "if" and "then" in node and "condition" in node:
        add(path + ["condition"], "drop condition", f"drop condition {_short(node['condition'])} (always 'then')",
            _edited(data, path, _set(node["then"])))
    if node.get("type") == "may" and "effect" in node:
        add(path, "optional/mandatory", "may -> must", _edited(data, path, _set(node["effect"])))
    if node.get("pick") and node.get("up_to"):
        add(path + ["up_to"], "optional/mandatory", "up to -> exactly", _edited(data, path + ["up_to"], _drop))


def _kind_of(data: Json) -> str:
    kind = str(data.get("type", "unit"))
    return kind if kind in ("unit", "gear", "spell", "legend", "battlefield", "rune") else "card"


# ---------------------------------------------------------------------- the work
@dataclass
class Survivor:
    at: str
    line: int | None
    operator: str
    change: str
    reason: str = ""


@dataclass
class CardResult:
    code: str
    name: str
    set: str
    file: str
    scenarios: int = 0
    mutants: int = 0
    killed: int = 0
    survived: list[Survivor] = field(default_factory=list)
    equivalent: list[Survivor] = field(default_factory=list)
    refused: int = 0  # mutants the schemas (or the compiler) refuse: not counted
    broken: list[str] = field(default_factory=list)  # scenarios that fail on the card as it is
    # marks in the card file that are wrong: a scenario kills the "equivalent" mutant, or no mutant matches
    stale_marks: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def counted(self) -> int:
        return self.mutants - len(self.equivalent)

    @property
    def score(self) -> float | None:
        return 100.0 * self.killed / self.counted if self.counted else None

    def as_json(self) -> Json:
        out = asdict(self)
        out["score"] = self.score
        return out


class Timeout(Exception):
    """A scenario ran past the time limit on a mutant (a runaway mutant is killed)."""


@dataclass
class Workspace:
    """What every worker shares: the catalog and every scenario, indexed by the cards they name."""

    catalog: Catalog
    scenarios: list[Scenario]
    by_card: dict[str, list[int]]
    timeout: float = DEFAULT_TIMEOUT
    marks_only: bool = False  # run only the mutants marked equivalent, to check the marks


def scenario_files(catalog: Catalog, extra: list[Path], installed: bool = True) -> list[Path]:
    """The scenario files of every installed set (with ``installed``), plus the given folders or files."""
    roots: list[Path] = []
    for info in sorted(catalog.sets.values(), key=lambda s: s.code):
        if installed and info.spec.scenarios is not None:
            roots.append(Path(info.spec.scenarios))
    roots += extra
    files: list[Path] = []
    for root in roots:
        if root.is_file():
            files.append(root)
        elif root.is_dir():
            files += sorted(p for p in root.rglob("*.y*ml") if p.suffix in (".yaml", ".yml")
                            and ("scenarios" in p.parts or p.name.endswith(".scenario.yaml")))
    unique: dict[Path, Path] = {}
    for f in files:
        unique.setdefault(f.resolve(), f)
    return list(unique.values())


def default_extra() -> list[Path]:
    """In a source checkout, the project's own scenario folders (tests/) name cards too."""
    tests = Path(__file__).resolve().parent.parent / "tests"
    return [tests] if (tests / "rules" / "scenarios").is_dir() else []


def workspace(catalog: Catalog, extra: list[Path], timeout: float = DEFAULT_TIMEOUT, use_cache: bool = True,
              installed: bool = True) -> Workspace:
    """The catalog and the scenarios of the installed sets (with ``installed``) and of ``extra``."""
    assert catalog.schemas is not None
    store = ValidationCache.open(catalog.schemas) if use_cache else None
    loader = Loader(catalog.schemas, store)
    found: list[Scenario] = []
    for path in scenario_files(catalog, extra, installed):
        found += _scenarios(loader, path)
    if store is not None:
        store.save()
    by_card: dict[str, list[int]] = {}
    for index, scenario in enumerate(found):
        if scenario.pending:
            continue
        names = set(scenario.cards)
        own = Path(scenario.file).stem
        if own in catalog.cards:
            names.add(own)  # <set>/scenarios/<CODE>.yaml
        for code in names:
            by_card.setdefault(code, []).append(index)
    return Workspace(catalog, found, by_card, timeout)


def _scenarios(loader: Loader, path: Path) -> list[Scenario]:
    """The scenarios of a file the schema accepts (through the validation cache; positions are
    looked up only for a report); a broken file proves nothing: 'riftscript validate' reports it."""
    doc = loader.document(path, "scenario")
    data = doc.data
    if data is None:
        return []
    if "scenarios" in data:
        return [Scenario(item["name"], item, str(path), None, ["scenarios", i])
                for i, item in enumerate(data["scenarios"])]
    if "name" not in data or ("setup" not in data and "deck" not in data):
        return []
    return [Scenario(data["name"], data, str(path), 1, [])]


class _QuietRunner(Runner):
    """A scenario run whose failures skip the report (its file position and event log): a mutant
    needs only to know that it failed."""

    def fail(self, index: int, message: str, field_name: str | None = None) -> None:
        raise ScenarioFailure(message)


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout()


def _passes(catalog: Catalog, scenario: Scenario, timeout: float) -> bool:
    armed = hasattr(signal, "setitimer")
    if armed:
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        _QuietRunner(catalog, scenario).run()
        return True
    except Exception:  # a failed expectation, a refused step, a crash or a runaway: the mutant shows
        return False
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)


def _with_card(catalog: Catalog, card: CardDef) -> Catalog:
    """A copy of the catalog in which one card is replaced (everything else is shared)."""
    cards = dict(catalog.cards)
    cards[card.code] = card
    tokens = catalog.tokens
    if card.token and tokens.get(card.name.lower()) is catalog.cards.get(card.code):
        tokens = {**tokens, card.name.lower(): card}
    return replace(catalog, cards=cards, tokens=tokens)


def test_card(ws: Workspace, code: str) -> CardResult:
    """Every mutant of one card against its scenarios."""
    started = time.perf_counter()
    catalog = ws.catalog
    card = catalog.cards[code]
    result = CardResult(code, card.name, card.set_code, card.source)
    assert catalog.schemas is not None
    scenarios = [ws.scenarios[i] for i in ws.by_card.get(code, [])]
    live: list[Scenario] = []
    for scenario in scenarios:
        if _passes(catalog, scenario, ws.timeout):
            live.append(scenario)
        else:
            result.broken.append(f"{scenario.where([])}: {scenario.name}")
    result.scenarios = len(live)
    marked = _equivalents(card.raw)
    compiler = Compiler(catalog.keywords, catalog.effect_types)
    positions = _positions(card.source)
    for mutant in mutants(card.raw):
        if catalog.schemas.problems("card", mutant.data):
            result.refused += 1
            continue
        try:
            mutated = compiler.compile(mutant.data, card.set_code, card.source)
        except Exception:
            result.refused += 1
            continue
        result.mutants += 1
        line = positions(list(mutant.path))
        reason = marked.pop((mutant.at, mutant.change), None)
        if ws.marks_only and reason is None:
            result.mutants -= 1
            continue
        killer = _first_failing(_with_card(catalog, mutated), live, ws.timeout)
        if reason is not None and killer is None:
            result.equivalent.append(Survivor(mutant.at, line, mutant.operator, mutant.change, reason))
            continue
        if reason is not None and killer is not None:  # a mark is checked, not trusted: the scenarios tell it apart
            result.stale_marks.append(f"{mutant.at}: {mutant.change}: marked equivalent, but "
                                      f"'{live[killer].name}' kills it (remove the mark)")
        if killer is None:
            result.survived.append(Survivor(mutant.at, line, mutant.operator, mutant.change))
            continue
        result.killed += 1
        live.insert(0, live.pop(killer))  # mutants of one card tend to die alike: try this scenario first
    result.stale_marks.extend(f"{at}: {change}: marked equivalent, but no mutant of this script matches the mark"
                              for at, change in marked)
    result.seconds = round(time.perf_counter() - started, 3)
    return result


def _first_failing(catalog: Catalog, scenarios: list[Scenario], timeout: float) -> int | None:
    """The index of the first scenario that fails with this catalog, or None."""
    for index, scenario in enumerate(scenarios):
        if not _passes(catalog, scenario, timeout):
            return index
    return None


def _equivalents(raw: Json) -> dict[tuple[str, str], str]:
    marks = (raw.get("mutation") or {}).get("equivalent") or []
    return {(str(m["at"]), str(m["change"])): str(m["reason"]) for m in marks}


def _positions(source: str) -> Callable[[Path_], int | None]:
    try:
        positions = yamlio.Positions(Path(source).read_text(encoding="utf-8"))
    except OSError:
        return lambda path: None

    def line(path: Path_) -> int | None:
        for cut in range(len(path), -1, -1):  # a dropped or added key: the nearest node that exists
            found = positions.of(path[:cut])
            if found:
                return found[0]
        return None
    return line


# ---------------------------------------------------------------------- running in parallel
_WORKSPACE: Workspace | None = None


def _work(code: str) -> CardResult:
    assert _WORKSPACE is not None
    return test_card(_WORKSPACE, code)


def run(ws: Workspace, codes: list[str], workers: int) -> list[CardResult]:
    """Test each card, in ``workers`` processes (forked: they share the loaded workspace)."""
    global _WORKSPACE
    _WORKSPACE = ws
    if workers <= 1 or len(codes) <= 1 or not hasattr(os, "fork"):
        return [test_card(ws, code) for code in codes]
    import multiprocessing

    # slowest first (cards with the most scenarios), so no worker is left with a long tail
    order = sorted(codes, key=lambda c: -len(ws.by_card.get(c, [])))
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        done = dict(zip(order, pool.map(_work, order, chunksize=1)))
    return [done[code] for code in codes]


# ---------------------------------------------------------------------- reports
def totals(results: list[CardResult]) -> dict[str, Json]:
    """Per set and overall: cards, mutants, killed, survived, equivalent, score."""
    out: dict[str, Json] = {}
    for key in sorted({r.set for r in results}) + ["all"]:
        rs = [r for r in results if key in ("all", r.set)]
        killed = sum(r.killed for r in rs)
        counted = sum(r.counted for r in rs)
        out[key] = {"cards": len(rs), "mutants": sum(r.mutants for r in rs), "killed": killed,
                    "survived": sum(len(r.survived) for r in rs), "equivalent": sum(len(r.equivalent) for r in rs),
                    "cards_without_scenarios": sum(1 for r in rs if not r.scenarios),
                    "wrong_marks": sum(len(r.stale_marks) for r in rs),
                    "score": round(100.0 * killed / counted, 2) if counted else None}
    return out


def by_operator(results: list[CardResult]) -> dict[str, list[str]]:
    """Survivors grouped by operator, as ``CODE file:line at: change``."""
    out: dict[str, list[str]] = {op: [] for op in OPERATORS}
    for r in results:
        for s in r.survived:
            out.setdefault(s.operator, []).append(f"{r.code} {_rel(r.file)}:{s.line} {s.at}: {s.change}")
    return {op: found for op, found in out.items() if found}


def _rel(file: str) -> str:
    try:
        return os.path.relpath(file)
    except ValueError:
        return file


def _pct(score: float | None) -> str:
    return "-" if score is None else f"{score:.1f}%"


def render_text(results: list[CardResult], out: TextIO, seconds: float) -> None:
    for r in results:
        note = "" if r.scenarios else "  (no scenario names it)"
        out.write(f"{r.code} {r.name}: {r.mutants} mutants, {r.killed} killed, {len(r.survived)} survived, "
                  f"{len(r.equivalent)} equivalent, score {_pct(r.score)}{note}\n")
        for s in r.survived:
            out.write(f"  survived: {_rel(r.file)}:{s.line}: {s.operator}: {s.change} ({s.at})\n")
        for s in r.equivalent:
            out.write(f"  equivalent: {_rel(r.file)}:{s.line}: {s.change} ({s.at}): {s.reason}\n")
        for b in r.broken:
            out.write(f"  not used (fails on the card as it is): {b}\n")
        for m in r.stale_marks:
            out.write(f"  wrong mark: {_rel(r.file)}: {m}\n")
    for key, t in totals(results).items():
        label = "total" if key == "all" else f"set {key}"
        out.write(f"{label}: {t['cards']} cards, {t['mutants']} mutants, {t['killed']} killed, "
                  f"{t['survived']} survived, {t['equivalent']} equivalent, score {_pct(t['score'])}\n")
    out.write(f"({seconds:.1f} s)\n")


def report_json(results: list[CardResult], seconds: float) -> Json:
    return {"cards": [r.as_json() for r in results], "sets": totals(results),
            "survivors_by_operator": by_operator(results), "seconds": round(seconds, 1)}


# ---------------------------------------------------------------------- command line
DESCRIPTION = """\
Mutation testing of card scripts: for each selected card, make small changes to its script and run
the card's scenarios against each changed script (its <set>/scenarios/<CODE>.yaml, and every
scenario naming the card in 'cards:'), in process.  Report per card how many mutants the scenarios
killed and which survived (file:line and the change), and the score per set."""

EPILOG = """\
A mutant is the card's script with one small change (drop a filter or condition, a number +1/-1,
friendly<->enemy, you<->opponent, here<->there<->base, optional<->mandatory, a neighbouring trigger
event, one step of a sequence dropped, this turn<->permanent, self<->other).  It is killed when one
of the card's scenarios fails on it; a survivor is a change no scenario notices.

Mark a mutant that cannot change behaviour in the card file, with its reason (it is then listed as
equivalent, not as a survivor):

  mutation:
    equivalent:
      - {at: abilities[0].effect.amount, change: "1 -> 0", reason: "..."}

examples:
  riftscript mutate --card OGN-034                    one card, in a few seconds
  riftscript mutate --set OGS --format json -o ogs.json
  riftscript mutate --sample 20 --seed 1 --min-score 80   exit 1 if the score is under 80%"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--set", dest="set_code", metavar="CODE", action="append",
                        help="only this set's cards (may be repeated)")
    parser.add_argument("--card", metavar="CODE", action="append", help="only this card (may be repeated)")
    parser.add_argument("--sample", type=int, metavar="N", help="a random sample of N of the selected cards")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of --sample (default 0)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="worker processes (default: every core)")
    parser.add_argument("--scenarios", type=Path, action="append", default=[], metavar="PATH",
                        help="also the scenarios in this folder or file (the installed sets' scenarios, "
                             "and in a source checkout tests/, are always used)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"a scenario running longer on a mutant kills it (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--check-marks", action="store_true",
                        help="run only the mutants marked equivalent in the card files and fail when a "
                             "scenario kills one or a mark matches no mutant (fast: a check of the marks)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE")
    parser.add_argument("--min-score", type=float, metavar="PERCENT",
                        help="exit with status 1 when the overall score is below this percentage")


def add_commands(sub: Any) -> None:
    """Register 'mutate' on an argparse subparsers object."""
    parser = sub.add_parser(
        "mutate", help="mutation testing: change card scripts a little and see whether their scenarios notice",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    add_arguments(parser)
    parser.set_defaults(func=cmd_mutate)


def select_cards(catalog: Catalog, sets: list[str] | None, cards: list[str] | None, sample: int | None,
                 seed: int) -> list[str]:
    codes = sorted(code for code, card in catalog.cards.items() if card.source and card.set_code in catalog.sets)
    if sets:
        wanted = {s.upper() for s in sets}
        unknown = wanted - set(catalog.sets)
        if unknown:
            raise RiftScriptError(f"unknown set {', '.join(sorted(unknown))}; installed: {', '.join(sorted(catalog.sets))}")
        codes = [c for c in codes if catalog.cards[c].set_code in wanted]
    if cards:
        from riftscript.tools.audit import resolve_card

        picked = {resolve_card(catalog, text) for text in cards}
        codes = [c for c in codes if c in picked]
    if sample is not None:
        if sample < 1:
            raise RiftScriptError("--sample needs a positive number of cards")
        codes = sorted(random.Random(seed).sample(codes, min(sample, len(codes))))
    return codes


def cards_beside(roots: list[Path]) -> list[Path]:
    """The ``cards/`` folders beside the ``scenarios/`` folders under these roots: their scenarios'
    test-only cards, loaded as the pytest plugin loads them."""
    found: set[Path] = set()
    for root in roots:
        folders = [root] if root.name == "scenarios" else list(root.rglob("scenarios")) if root.is_dir() else []
        for folder in folders:
            cards = folder.parent / "cards"
            if cards.is_dir():
                found.add(cards)
    return sorted(found)


def cmd_mutate(args: argparse.Namespace) -> int:
    from riftscript.tools import cli

    started = time.perf_counter()
    roots = default_extra() + list(args.scenarios)
    catalog = cli._catalog(cards_beside(roots))
    catalog.raise_for_problems()
    codes = select_cards(catalog, args.set_code, args.card, args.sample, args.seed)
    if not codes:
        raise RiftScriptError("no cards selected")
    ws = workspace(catalog, roots, args.timeout, cli.CONTEXT.use_cache)
    ws.marks_only = args.check_marks
    results = run(ws, codes, max(1, int(args.workers)))
    seconds = time.perf_counter() - started
    target = open(args.output, "w", encoding="utf-8") if args.output else None
    out = target or cli.CONTEXT.stream
    try:
        if args.format == "json":
            out.write(json.dumps(report_json(results, seconds), indent=1) + "\n")
        else:
            render_text(results, out, seconds)
    finally:
        if target is not None:
            target.close()
    score = totals(results)["all"]["score"]
    wrong = sum(len(r.stale_marks) for r in results)
    if wrong:
        print(f"{wrong} equivalence mark(s) in card files are wrong (see 'wrong mark' above)", file=sys.stderr)
        return 1
    if args.min_score is not None and (score is None or score < args.min_score):
        print(f"mutation score {_pct(score)} is below --min-score {args.min_score:g}%", file=sys.stderr)
        return 1
    return 0
