"""The card workshop: a card's YAML typed in a browser, checked as ``riftscript validate`` checks a file.

The text is untrusted.  It is written to a fresh private temporary folder under a name the server
chooses and read back by the same :class:`~riftscript.core.script.catalog.Loader` as every card file
(safe loader, size, depth, alias and scalar limits, JSON Schema), then its keyword and token
references are checked against the installed catalog (:func:`document_problems`).  A valid card
is compiled into a copy of the installed catalog, where it replaces an installed card of the same
code, so its rendered text, its audit neighbourhood, its scenarios and a game with it all see it.
"""
from __future__ import annotations

import base64
import tempfile
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from pathlib import Path
from threading import Lock
from typing import Any

from riftscript.core.script.cards import CardDef
from riftscript.core.script.catalog import Catalog
from riftscript.core.script.integrity import document_problems
from riftscript.core.script.compiler import Compiler
from riftscript.core.script.loader import Loader
from riftscript.core.script.decks import Deck, violations
from riftscript.core.errors import Problem, RiftScriptError
from riftscript.tools import audit, auditdraw
from riftscript.tools import scenario as scenarios_mod
from riftscript.tools.render import render_lines

CARD_FILE = "card.yaml"
SCENARIO_FILE = "scenarios.yaml"
MAX_SCENARIOS = 20
PLAY_COPIES = 3  # copies of the card put into a deck to play it
MAIN_DECK_TYPES = ("unit", "spell", "gear")


@dataclass
class CardCheck:
    """What the workshop shows for one text: its problems, or the card and a catalog holding it."""

    problems: list[Problem]
    card: CardDef | None = None
    catalog: Catalog | None = None


@dataclass
class ScenarioResult:
    name: str
    passed: bool
    message: str = ""


@dataclass
class Report:
    """Everything the workshop page shows for a card (and the scenarios pasted beside it)."""

    problems: list[Problem]
    code: str = ""
    name: str = ""
    text: list[str] = field(default_factory=list)
    picture: str = ""  # the neighbourhood picture as a data: URL (an <img>, so it can't run script)
    scenarios: list[ScenarioResult] = field(default_factory=list)
    scenario_problems: list[Problem] = field(default_factory=list)
    decks: list[tuple[str, str]] = field(default_factory=list)  # installed deck, why it can't take the card ("" = it can)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": not self.problems, "code": self.code, "name": self.name, "text": self.text,
            "problems": [_problem_json(p) for p in self.problems], "picture": self.picture,
            "scenarios": [{"name": s.name, "passed": s.passed, "message": s.message} for s in self.scenarios],
            "scenario_problems": [_problem_json(p) for p in self.scenario_problems],
            "decks": [{"name": name, "refused": why} for name, why in self.decks],
        }


def _problem_json(p: Problem) -> dict[str, Any]:
    return {"line": p.line, "col": p.col, "message": p.message, "path": p.path}


def _as(problems: list[Problem], file: str) -> list[Problem]:
    """Problems named after what the user typed, not the server's temporary file."""
    return [replace(p, file=file) for p in problems]


def _read_as_file(text: str, name: str, read: Any) -> Any:
    """Call ``read(path)`` on the text written to a private temporary file named ``name``."""
    with tempfile.TemporaryDirectory(prefix="riftscript-web-") as folder:
        path = Path(folder) / name
        # lone surrogates can't be written as UTF-8: they are kept, and the loader refuses the bytes
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        return read(path)


def check_card(base: Catalog, text: str) -> CardCheck:
    """Check one card text against the installed catalog; compile it when it is valid."""
    assert base.schemas is not None

    def read(path: Path) -> tuple[Any, list[Problem]]:
        assert base.schemas is not None
        doc = Loader(base.schemas).document(path, "card")
        return doc.data, document_problems(base, doc)

    data, problems = _read_as_file(text, CARD_FILE, read)
    problems = _as(problems, CARD_FILE)
    if problems or data is None:
        return CardCheck(problems)
    code = str(data["code"])
    try:
        card = Compiler(base.keywords).compile(data, code.split("-")[0], CARD_FILE)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return CardCheck([Problem(CARD_FILE, None, None, f"cannot compile this card: {type(exc).__name__}: {exc}")])
    tokens = dict(base.tokens)
    if card.token:
        tokens.setdefault(card.name.lower(), card)
    catalog = replace(base, cards={**base.cards, card.code: card}, tokens=tokens, problems=[])
    return CardCheck([], card, catalog)


class CardCatalogs:
    """Catalogs with one workshop card added, by card text (a few are kept: games reload them)."""

    def __init__(self, base: Catalog, keep: int = 16) -> None:
        self.base = base
        self.keep = keep
        self._cache: OrderedDict[str, CardCheck] = OrderedDict()
        self._lock = Lock()

    def check(self, text: str) -> CardCheck:
        with self._lock:
            hit = self._cache.get(text)
            if hit is not None:
                self._cache.move_to_end(text)
                return hit
        found = check_card(self.base, text)
        with self._lock:
            self._cache[text] = found
            while len(self._cache) > self.keep:
                self._cache.popitem(last=False)
        return found

    def catalog(self, text: str | None) -> Catalog:
        """The catalog a game with this card (or none) is played with."""
        if text is None:
            return self.base
        found = self.check(text)
        if found.catalog is None:
            raise RiftScriptError("the game's card no longer passes the checks: "
                                  + "; ".join(str(p) for p in found.problems))
        return found.catalog


def picture(catalog: Catalog, card: CardDef, depth: int = 1) -> str:
    """The card's neighbourhood in the trigger graph (``riftscript audit --card --svg``) as a data URL."""
    G = audit.build_graph(catalog)
    focus = sorted(audit.select(G, catalog, card=card.code).nodes or ())
    if not focus:
        return ""
    svg = auditdraw.to_svg(auditdraw.layout(G, focus, depth, f"Interactions of {card.code} {card.name}"))
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def run_scenarios(catalog: Catalog, text: str) -> tuple[list[ScenarioResult], list[Problem]]:
    """Run scenarios given as text with the card's catalog: each passes or says why not."""
    if not text.strip():
        return [], []
    assert catalog.schemas is not None
    schemas = catalog.schemas

    def read(path: Path) -> tuple[list[ScenarioResult], list[Problem]]:
        try:
            loaded = scenarios_mod.load_file(path, schemas)
        except RiftScriptError as exc:
            problems = getattr(exc, "problems", None)
            return [], list(problems) if problems else [Problem(SCENARIO_FILE, None, None, str(exc))]
        results = []
        for item in loaded[:MAX_SCENARIOS]:
            try:
                scenarios_mod.run_scenario(catalog, item)
                results.append(ScenarioResult(item.name, True))
            except RiftScriptError as exc:
                results.append(ScenarioResult(item.name, False, str(exc).replace(str(path), SCENARIO_FILE)))
        return results, []

    results, problems = _read_as_file(text, SCENARIO_FILE, read)
    return results, _as(problems, SCENARIO_FILE)


def deck_with(catalog: Catalog, deck: Deck, card: CardDef) -> Deck:
    """The deck with the card in it: a battlefield replaces the first battlefield; a main-deck card
    replaces the last ``PLAY_COPIES`` cards of the main deck."""
    if card.type == "battlefield":
        return replace(deck, name=f"{deck.name} + {card.code}", battlefields=(card.code, *deck.battlefields[1:]))
    if card.type not in MAIN_DECK_TYPES:
        raise RiftScriptError(f"a {card.type} can't be put into a deck's main deck to play it")
    kept = tuple(c for c in deck.main if c != card.code)
    main = kept[:len(deck.main) - PLAY_COPIES] + (card.code,) * PLAY_COPIES
    return replace(deck, name=f"{deck.name} + {card.code}", main=main)


def deck_refusal(catalog: Catalog, deck: Deck, card: CardDef) -> str:
    """Why the deck can't play the card ("" when it can): the deck-construction rules decide."""
    try:
        found = violations(catalog, deck_with(catalog, deck, card))
    except RiftScriptError as exc:
        return str(exc)
    return "; ".join(dict.fromkeys(found))  # one line per rule broken, not per copy


def report(cards: CardCatalogs, text: str, scenario_text: str = "", draw: bool = True) -> Report:
    """The workshop's answer to one edit."""
    checked = cards.check(text)
    if checked.card is None or checked.catalog is None:
        return Report(checked.problems)
    card, catalog = checked.card, checked.catalog
    out = Report([], card.code, card.name, render_lines(card, catalog, reminders=True))
    if draw:
        out.picture = picture(catalog, card)
    out.scenarios, out.scenario_problems = run_scenarios(catalog, scenario_text)
    for name in sorted(catalog.decks):
        out.decks.append((name, deck_refusal(catalog, Deck.from_data(catalog.decks[name][0], catalog), card)))
    return out
