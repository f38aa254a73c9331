"""Text audit: how close is the text rendered from each card script to a given official text?

The reference is a JSON file the user supplies (a list of records with ``public_code`` such as
"OGN-054/298", ``name``, ``rules_text`` and optionally ``errata[].new_text``; the last errata text
wins).  Both texts are normalised — reminder text in parentheses, keyword brackets and symbols
({1}, {Fury}, [Tank], :rb_...:), case, punctuation and whitespace — and compared with difflib.
Nothing from the reference is stored; it is only read while the audit runs.

Mounted as ``riftscript audit text --reference FILE``; also ``python3 -m riftscript.tools.textaudit``.
Exit status: 0 when every compared card reaches the threshold, 1 otherwise, 2 for a bad reference.
"""
from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.errors import RiftScriptError
from riftscript.tools.argtypes import fraction
from riftscript.tools.render import render_card

_SYMBOL = re.compile(r":rb_([a-z0-9_]+):")


def normalise(text: str) -> str:
    """Text reduced to lower-case words: no reminders, brackets, symbols or punctuation."""
    out = text.lower()
    previous = None
    while previous != out:
        previous = out
        out = re.sub(r"\([^()]*\)", " ", out)
    out = _SYMBOL.sub(lambda m: " " + m.group(1).split("_")[-1] + " ", out)
    out = re.sub(r"[{}\[\]]", " ", out)
    out = re.sub(r"['’‘]", "", out)
    out = re.sub(r"[^a-z0-9+]+", " ", out)
    return " ".join(out.split())


def similarity(a: str, b: str) -> float:
    """difflib's ratio of two normalised texts (1.0 for two empty texts)."""
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


@dataclass(frozen=True)
class Reference:
    """One card's official text, as read from the reference file."""

    code: str
    name: str
    text: str


_ERRATA_MIGHT = re.compile(r"\[M\]")
_ERRATA_NUMBER = re.compile(r"\[(\d+)\]")


def errata_notation(text: str) -> str:
    """Errata documents write Might as [M] and an energy cost as [2]; the card gallery, {2} and Might."""
    return _ERRATA_NUMBER.sub(r"{\1}", _ERRATA_MIGHT.sub("Might", text))


def _errata(record: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A record's errata as (old text, new text) pairs in gallery notation; old is "" when not given."""
    out: list[tuple[str, str]] = []
    errata = record.get("errata")
    if isinstance(errata, list):
        for change in errata:
            if isinstance(change, Mapping) and isinstance(change.get("new_text"), str):
                old = change.get("old_text")
                out.append((errata_notation(old) if isinstance(old, str) else "", errata_notation(change["new_text"])))
    return out


def reference_text(record: Mapping[str, Any], misfiled: frozenset[tuple[str, str]] = frozenset()) -> str:
    """The rules text of a record with its errata applied in order.

    An erratum whose old text is a part of the text (one line of several, usually) replaces that part;
    otherwise its new text replaces the whole text (the old text in errata documents is often abridged).
    An erratum in ``misfiled`` is left out: the same erratum is on another record whose text it matches,
    so it was filed here by mistake (a token sharing a collector number with a card of its set).
    """
    text = str(record.get("rules_text") or "")
    for old, new in _errata(record):
        if (old, new) in misfiled and old not in text:
            continue
        text = text.replace(old, new, 1) if old and old in text else new
    return text


def _misfiled_errata(records: Sequence[Mapping[str, Any]]) -> frozenset[tuple[str, str]]:
    """Errata found on more than one record, at least one of whose texts contains the old text."""
    seen: dict[tuple[str, str], list[bool]] = {}
    for record in records:
        text = str(record.get("rules_text") or "")
        for old, new in _errata(record):
            seen.setdefault((old, new), []).append(bool(old) and old in text)
    return frozenset(key for key, found in seen.items() if len(found) > 1 and any(found))


def load_reference(path: Path) -> dict[str, Reference]:
    """Reference records by card code ("OGN-054" from "OGN-054/298")."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RiftScriptError(f"can't read reference {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise RiftScriptError(f"reference {path} is not JSON: {exc}") from None
    records = data.get("cards") if isinstance(data, Mapping) else data
    if not isinstance(records, list):
        raise RiftScriptError(f"reference {path}: expected a list of card records")
    for i, record in enumerate(records):
        if not isinstance(record, Mapping) or not isinstance(record.get("public_code"), str):
            raise RiftScriptError(f"reference {path}: record {i} has no public_code")
    misfiled = _misfiled_errata(records)
    out: dict[str, Reference] = {}
    for record in records:
        code = record["public_code"].split("/")[0].strip().upper()
        out[code] = Reference(code, str(record.get("name") or ""), reference_text(record, misfiled))
    return out


@dataclass
class CardScore:
    """The comparison of one card."""

    code: str
    name: str
    score: float
    rendered: str
    reference: str

    @property
    def exact(self) -> bool:
        return normalise(self.rendered) == normalise(self.reference)


@dataclass
class Report:
    """Totals and per-card scores of one audit."""

    threshold: float
    sets: list[str]
    cards: list[CardScore] = field(default_factory=list)
    missing_from_project: list[str] = field(default_factory=list)
    missing_from_reference: list[str] = field(default_factory=list)
    not_compared: list[str] = field(default_factory=list)  # reminder cards (type marker): no rules to script

    @property
    def below(self) -> list[CardScore]:
        return [c for c in self.cards if c.score < self.threshold]

    def totals(self) -> dict[str, Any]:
        scores = [c.score for c in self.cards]
        return {
            "compared": len(self.cards),
            "exact": sum(1 for c in self.cards if c.exact),
            "at_or_above_threshold": sum(1 for s in scores if s >= self.threshold),
            "below_threshold": len(self.below),
            "missing_from_project": len(self.missing_from_project),
            "missing_from_reference": len(self.missing_from_reference),
            "not_compared": len(self.not_compared),
            "mean_similarity": round(sum(scores) / len(scores), 4) if scores else 0.0,
            "threshold": self.threshold,
            "sets": self.sets,
        }


def audit(catalog: Catalog, reference: Mapping[str, Reference], threshold: float = 0.8,
          sets: Sequence[str] = ()) -> Report:
    """Compare every installed card of ``sets`` (default: every installed set) with the reference."""
    wanted = sorted({s.upper() for s in sets} or {c.set_code.upper() for c in catalog.cards.values()})
    report = Report(threshold, wanted)
    for code in sorted(catalog.cards):
        card = catalog.cards[code]
        if card.set_code.upper() not in wanted:
            continue
        ref = reference.get(code.upper())
        if ref is None:
            report.missing_from_reference.append(code)
            continue
        if card.type == "marker":
            # a reminder card (Buff, XP Tracker) is never in play: its text restates rules the kernel
            # implements, there is no script to render, so comparing it would only measure nothing
            report.not_compared.append(code)
            continue
        rendered = render_card(card, catalog)
        score = similarity(normalise(rendered), normalise(ref.text))
        report.cards.append(CardScore(code, card.name, round(score, 4), rendered, ref.text))
    installed = {c.upper() for c in catalog.cards}
    report.missing_from_project = sorted(code for code in reference
                                         if code.split("-")[0] in wanted and code not in installed)
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``audit text``."""
    parser.add_argument("--reference", required=True, type=Path, metavar="FILE",
                        help="JSON list of card records (public_code, name, rules_text, errata[].new_text)")
    parser.add_argument("--threshold", type=fraction, default=0.8,
                        help="similarity below which a card is listed as a mismatch (default 0.8)")
    parser.add_argument("--set", dest="sets", action="append", default=[], metavar="CODE",
                        help="only this set (repeatable; default: every installed set)")
    parser.add_argument("--all", action="store_true", help="list every compared card, not only mismatches")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")


def _write_text(report: Report, out: TextIO, show_all: bool) -> None:
    listed = report.cards if show_all else sorted(report.below, key=lambda c: c.score)
    for card in listed:
        print(f"{card.code}  {card.score:.3f}  {card.name}", file=out)
        print(f"    rendered:  {normalise(card.rendered)}", file=out)
        print(f"    reference: {normalise(card.reference)}", file=out)
    for label, codes in (("project", report.missing_from_project), ("reference", report.missing_from_reference)):
        if codes:
            shown = ", ".join(codes[:12]) + (f" and {len(codes) - 12} more" if len(codes) > 12 else "")
            print(f"missing from the {label}: {shown}", file=out)
    if report.not_compared:
        print(f"not compared (reminder cards, nothing to script): {', '.join(report.not_compared)}", file=out)
    t = report.totals()
    print(f"{t['compared']} cards compared ({', '.join(t['sets'])}): {t['exact']} exact after normalisation, "
          f"{t['at_or_above_threshold']} at or above {t['threshold']}, {t['below_threshold']} below; "
          f"mean similarity {t['mean_similarity']:.3f}; {t['missing_from_project']} missing from the project, "
          f"{t['missing_from_reference']} missing from the reference", file=out)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run the audit with parsed arguments; 0 when no card is below the threshold."""
    stream = out or sys.stdout
    if not 0.0 <= args.threshold <= 1.0:
        raise RiftScriptError(f"--threshold must be between 0 and 1, not {args.threshold}")
    reference = load_reference(args.reference)
    catalog = load_catalog(strict=False)
    installed = {c.set_code.upper() for c in catalog.cards.values()}
    unknown = [s for s in args.sets if s.upper() not in installed]
    if unknown:
        raise RiftScriptError(f"no installed set {', '.join(unknown)} (installed: {', '.join(sorted(installed))})")
    report = audit(catalog, reference, args.threshold, args.sets)
    if args.format == "json":
        cards = report.cards if args.all else report.below
        payload = {"totals": report.totals(),
                   "cards": [{**asdict(c), "exact": c.exact} for c in cards],
                   "missing_from_project": report.missing_from_project,
                   "missing_from_reference": report.missing_from_reference,
                   "not_compared": report.not_compared}
        print(json.dumps(payload, indent=2, ensure_ascii=False), file=stream)
    else:
        _write_text(report, stream, args.all)
    return 1 if report.below else 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python3 -m riftscript.tools.textaudit --reference FILE``."""
    parser = argparse.ArgumentParser(prog="riftscript audit text", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except RiftScriptError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
