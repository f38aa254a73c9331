"""``riftscript deck check`` and ``riftscript deck list``: deck legality from the command line.

``deck check FILE_OR_NAME...`` checks deck files (or installed decks by name) against the
deck-construction rules (103, 161.2.a, 103.5.c, 825.3.a) and prints every violation on its own
line; exit status 0 when every deck is legal, 1 otherwise.  ``deck list`` shows the installed decks.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.script.loader import script_files
from riftscript.core.script.decks import Deck, load_deck, team_violations, violations
from riftscript.tools.play import seating
from riftscript.core.errors import DeckError, RiftScriptError, ScriptError


def _name(catalog: Catalog, code: str) -> str:
    card = catalog.cards.get(code)
    return f"{card.name} ({code})" if card is not None else code


def check_one(catalog: Catalog, ref: str) -> tuple[Deck | None, list[str]]:
    """A deck (by file or installed name) and its problems: schema problems or rule violations."""
    try:
        deck = load_deck(catalog, ref)
    except ScriptError as exc:
        return None, [str(p) for p in exc.problems]
    except DeckError as exc:
        return None, list(exc.violations)
    except RiftScriptError as exc:
        return None, [str(exc)]
    return deck, _counted(violations(catalog, deck))


def _counted(messages: list[str]) -> list[str]:
    """Repeated messages once, with how many times they occur."""
    counts = Counter(messages)
    out = []
    for message in dict.fromkeys(messages):
        if counts[message] > 1:
            head, sep, rule = message.rpartition(" (")
            message = f"{head} [x{counts[message]}]{sep}{rule}" if sep else f"{message} [x{counts[message]}]"
        out.append(message)
    return out


def cmd_check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Check each deck; print its verdict and every violation."""
    stream = out or sys.stdout
    extra: list[Path] = args.cards or []
    missing = [p for p in extra if not p.exists()]
    if missing:
        raise RiftScriptError("no such file or folder: " + ", ".join(map(str, missing)))
    catalog = load_catalog(extra_cards=extra, strict=False)
    mine = {str(f) for p in extra for f in script_files(p)}
    broken = [p for p in catalog.problems if p.file in mine]
    if broken:
        raise RiftScriptError("problems in the --cards files:\n" + "\n".join(f"  {p}" for p in broken))
    results = []
    loaded: list[Deck | None] = []
    for ref in args.decks:
        deck, problems = check_one(catalog, ref)
        loaded.append(deck)
        results.append({"deck": ref, "name": deck.name if deck else None, "legal": deck is not None and not problems,
                        "problems": problems})
    if args.mode:
        _check_seating(catalog, args.mode, loaded, results)
    if args.json:
        print(json.dumps(results, indent=2), file=stream)
    else:
        for result in results:
            label = result["deck"] if result["name"] in (None, result["deck"]) else \
                f"{result['deck']} ({result['name']})"
            if result["legal"]:
                print(f"{label}: legal", file=stream)
            else:
                count = len(result["problems"])
                print(f"{label}: not legal, {count} problem{'s' if count != 1 else ''}", file=stream)
                for problem in result["problems"]:
                    print(f"  - {problem}", file=stream)
    return 0 if all(r["legal"] for r in results) else 1


def _check_seating(catalog: Catalog, mode: str, decks: list[Deck | None], results: list[dict[str, Any]]) -> None:
    """The decks as the seats of one game of ``mode``: the player count, and in a team mode what teammates
    may not share (491.8.h, 491.8.i), reported on each deck involved."""
    spec, _ = seating(catalog, mode, [d.name if d else "" for d in decks])
    if any(d is None for d in decks):
        return
    present = [d for d in decks if d is not None]
    names = [f"seat {i + 1}" for i in range(len(present))]
    for message, _ in team_violations(catalog, present, spec.teams, names):
        for i, name in enumerate(names):
            if f"{name} and" in message or f"and {name} are" in message:
                results[i]["problems"].append(message)
                results[i]["legal"] = False


def deck_summary(catalog: Catalog, name: str) -> dict[str, Any]:
    """Facts about an installed deck, and whether it is legal."""
    data, source = catalog.decks[name]
    deck = Deck.from_data(data, catalog)
    legend = catalog.cards.get(deck.legend)
    domains = list(legend.domains) if legend is not None else []
    return {"name": name, "legend": _name(catalog, deck.legend), "champion": _name(catalog, deck.champion),
            "domains": domains, "main": len(deck.main) + 1, "runes": len(deck.runes),
            "battlefields": [_name(catalog, b) for b in deck.battlefields],
            "legal": not violations(catalog, deck), "file": source}


def cmd_list(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """List the installed decks."""
    stream = out or sys.stdout
    catalog = load_catalog(strict=False)
    rows = [deck_summary(catalog, name) for name in sorted(catalog.decks)]
    if args.json:
        print(json.dumps(rows, indent=2), file=stream)
        return 0
    table = [[r["name"], r["legend"], r["champion"], "/".join(r["domains"]), str(r["main"]),
              "legal" if r["legal"] else "NOT LEGAL"] for r in rows]
    header = ["DECK", "LEGEND", "CHAMPION", "DOMAINS", "CARDS", "STATUS"]
    widths = [max(len(row[i]) for row in [header, *table]) for i in range(len(header))]
    for row in [header, *table]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip(), file=stream)
    counts = Counter(r["legal"] for r in rows)
    print(f"{len(rows)} deck{'s' if len(rows) != 1 else ''} installed, {counts[True]} legal", file=stream)
    return 0


def add_commands(sub: Any) -> None:
    """Register 'deck' (with 'check' and 'list') on an argparse subparsers object."""
    deck = sub.add_parser("deck", help="check decks against the deck-construction rules, or list installed decks",
                          description="Deck files and installed decks.")

    def usage(args: argparse.Namespace) -> int:
        deck.print_help(sys.stdout)
        return 0

    deck.set_defaults(func=usage)
    actions = deck.add_subparsers(dest="deck_command", metavar="ACTION")
    check = actions.add_parser(
        "check", help="check deck files or installed decks; every violation with its rule number",
        description="Check decks against the deck-construction rules (103, 161.2.a, 103.5.c, 825.3.a).",
        epilog="exit status: 0 when every deck is legal, 1 otherwise.")
    check.add_argument("decks", nargs="+", metavar="DECK", help="a deck file, or the name of an installed deck")
    check.add_argument("--cards", action="append", type=Path, metavar="PATH",
                       help="card files or folders to use besides the installed cards (repeatable)")
    check.add_argument("--mode", help="also check the decks as the seats of one game of this mode, in seat order "
                                      "(in magma-chamber, teammates share no Champion Legend or battlefield)")
    check.add_argument("--json", action="store_true", help="print JSON")
    check.set_defaults(func=cmd_check)
    listing = actions.add_parser("list", help="list installed decks", description="List the installed decks.")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(func=cmd_list)


def main(argv: list[str] | None = None) -> int:
    """``python3 -m riftscript.tools.deckcheck check FILE``."""
    parser = argparse.ArgumentParser(prog="riftscript")
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["deck", *(argv if argv is not None else sys.argv[1:])])
    try:
        result: int = args.func(args)
        return result
    except RiftScriptError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

