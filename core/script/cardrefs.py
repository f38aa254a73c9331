"""References to cards and decks in deck and scenario files, checked with 'did you mean' hints.

A deck names cards by code; a scenario names cards by code or name in its setup, proves cards by
code (``cards:``), plays installed decks by name, and refers to objects in its steps by alias,
card name or code.  :func:`references` lists every such reference with its JSON path (from the
data alone), :func:`problems` keeps those that name nothing installed, so ``riftscript validate``
and pytest collection report ``file:line:col: unknown card 'Daring Pooro'; did you mean 'Daring Poro'?``
instead of a failure in the middle of a game.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .suggest import closest

JsonPath = list[str | int]
CODE = re.compile(r"^[A-Z0-9]{2,5}-[0-9]")  # looks like a card code (a typo included)
PLAYER = re.compile(r"^[A-Z]$")
ZONES = ("hand", "deck", "trash", "rune_deck", "runes", "base")
# step fields that name objects (or locations): aliases, card names or codes, players, A.base, A.hand.0
STEP_REFS = ("card", "source", "location", "to", "battlefield")
STEP_REF_LISTS = ("units", "cards")
# expectations keyed by object references
EXPECT_BY_OBJECT = ("zone", "location", "might", "damage", "exhausted", "buffs", "stunned", "keywords", "attached",
                    "controller", "card", "seen_by")


@dataclass(frozen=True)
class Ref:
    """One reference: where it is, what it must name (card, deck, code, object) and the text;
    an object reference also carries the scenario's aliases, for hints."""

    path: JsonPath
    kind: str
    name: str
    aliases: tuple[str, ...] = ()
    at_key: bool = False  # the reference is a mapping key (expectations by object)


def references(kind: str, data: Any) -> list[Ref]:
    """Every card, deck and object reference of a deck or scenario document."""
    if not isinstance(data, dict):
        return []
    if kind == "deck":
        return _deck([], data)
    if kind != "scenario":
        return []
    out: list[Ref] = []
    items = data.get("scenarios")
    if isinstance(items, list):
        for i, item in enumerate(items):
            if isinstance(item, dict):
                out += _scenario(["scenarios", i], item)
    else:
        out += _scenario([], data)
    return out


def _deck(path: JsonPath, deck: Mapping[str, Any]) -> list[Ref]:
    out: list[Ref] = []
    for key in ("legend", "champion"):
        if isinstance(deck.get(key), str):
            out.append(Ref(path + [key], "card", deck[key]))
    for part in ("main", "runes"):
        entries = deck.get(part)
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(entry, dict) and isinstance(entry.get("card"), str):
                out.append(Ref(path + [part, i, "card"], "card", entry["card"]))
    fields = deck.get("battlefields")
    for i, code in enumerate(fields if isinstance(fields, list) else []):
        if isinstance(code, str):
            out.append(Ref(path + ["battlefields", i], "card", code))
    return out


def _deck_ref(path: JsonPath, value: Any) -> list[Ref]:
    if isinstance(value, str):
        return [Ref(path, "deck", value)]
    return _deck(path, value) if isinstance(value, dict) else []


def _placed(path: JsonPath, items: Any) -> list[Ref]:
    out: list[Ref] = []
    for i, item in enumerate(items if isinstance(items, list) else []):
        if isinstance(item, str):
            out.append(Ref(path + [i], "card", item))
        elif isinstance(item, dict) and isinstance(item.get("card"), str):
            out.append(Ref(path + [i, "card"], "card", item["card"]))
    return out


def _scenario(path: JsonPath, sc: Mapping[str, Any]) -> list[Ref]:
    out: list[Ref] = []
    codes = sc.get("cards")
    for i, code in enumerate(codes if isinstance(codes, list) else []):
        if isinstance(code, str):
            out.append(Ref(path + ["cards", i], "code", code))
    if "deck" in sc:
        out += _deck_ref(path + ["deck"], sc["deck"])
    setup = sc.get("setup")
    if not isinstance(setup, dict):
        return out
    decks = setup.get("decks")
    for i, deck in enumerate(decks if isinstance(decks, list) else []):
        out += _deck_ref(path + ["setup", "decks", i], deck)
    aliases: set[str] = set()
    for key, ps in setup.items():
        if not PLAYER.match(str(key)) or not isinstance(ps, dict):
            continue
        for role in ("legend", "champion"):
            if isinstance(ps.get(role), str):
                out.append(Ref(path + ["setup", key, role], "card", ps[role]))
        for zone in ZONES:
            out += _placed(path + ["setup", key, zone], ps.get(zone))
            aliases.update(_aliases(ps.get(zone)))
    fields = setup.get("battlefields")
    for i, bf in enumerate(fields if isinstance(fields, list) else []):
        if not isinstance(bf, dict):
            continue
        if isinstance(bf.get("card"), str):
            out.append(Ref(path + ["setup", "battlefields", i, "card"], "card", bf["card"]))
        if isinstance(bf.get("as"), str):
            aliases.add(bf["as"])
        for zone in ("units", "facedown"):
            out += _placed(path + ["setup", "battlefields", i, zone], bf.get(zone))
            aliases.update(_aliases(bf.get(zone)))
    chain = setup.get("chain")
    for i, item in enumerate(chain if isinstance(chain, list) else []):
        if isinstance(item, dict) and isinstance(item.get("card"), str):
            out.append(Ref(path + ["setup", "chain", i, "card"], "card", item["card"]))
        if isinstance(item, dict) and isinstance(item.get("as"), str):
            aliases.add(item["as"])
    steps = sc.get("steps")
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        if isinstance(step, dict) and isinstance(step.get("bind"), dict):
            aliases.update(str(k) for k in step["bind"])
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        if isinstance(step, dict):
            out += [Ref(p, "object", n, tuple(sorted(aliases)), key) for p, n, key in _step_objects(path + ["steps", i], step)
                    if not _self_evident(n, aliases)]
    return out


def _aliases(items: Any) -> set[str]:
    return {item["as"] for item in (items if isinstance(items, list) else [])
            if isinstance(item, dict) and isinstance(item.get("as"), str)}


def _self_evident(name: str, aliases: set[str]) -> bool:
    """An alias, a player (A, B, ...), or a positional reference (A.base, A.hand.0, A.legend)."""
    return name in aliases or bool(PLAYER.match(name.split(".", 1)[0]))


def _step_objects(path: JsonPath, step: Mapping[str, Any]) -> Iterable[tuple[JsonPath, str, bool]]:
    """(path, reference, whether it is a key) of every object a step names."""
    for key in STEP_REFS:
        if isinstance(step.get(key), str):
            yield path + [key], step[key], False
    for key in STEP_REF_LISTS:
        values = step.get(key)
        for i, value in enumerate(values if isinstance(values, list) else []):
            if isinstance(value, str):
                yield path + [key, i], value, False
    targets = step.get("targets")
    for i, slot in enumerate(targets if isinstance(targets, list) else []):
        for j, value in enumerate(slot if isinstance(slot, list) else []):
            if isinstance(value, str):
                yield path + ["targets", i, j], value, False
    bind = step.get("bind")
    for alias, value in (bind.items() if isinstance(bind, dict) else ()):
        if isinstance(value, str):
            yield path + ["bind", alias], value, False
    expect = step.get("expect")
    if not isinstance(expect, dict):
        return
    for key in EXPECT_BY_OBJECT:
        table = expect.get(key)
        for name in (table if isinstance(table, dict) else {}):
            yield path + ["expect", key, name], str(name), True
    chain = expect.get("chain")
    for i, value in enumerate(chain if isinstance(chain, list) else []):
        if isinstance(value, str):
            yield path + ["expect", "chain", i], value, False


def _hint(name: str, options: Iterable[str]) -> str:
    """'; did you mean X?' for the closest option, compared as written, then ignoring case."""
    by_lower = {option.lower(): option for option in options}
    match = closest(name, by_lower.values())
    if match is None:
        lowered = closest(name.lower(), by_lower)
        match = by_lower[lowered] if lowered is not None else None
    return f"; did you mean {match!r}?" if match else ""


def problems(refs: Iterable[Ref], cards: Mapping[str, Any], decks: Iterable[str],
             broken: Iterable[str] = ()) -> list[tuple[Ref, str]]:
    """The references that name nothing installed, with their messages.  ``cards`` maps codes to
    cards (with a ``name``); ``broken``: codes and names of card files that exist but have
    problems of their own (reported there, not again here)."""
    names = {card.name: code for code, card in cards.items()}
    lower = {name.lower() for name in names}
    skip = set(broken)
    deck_names = list(decks)
    out: list[tuple[Ref, str]] = []
    for ref in refs:
        name = ref.name
        if name in skip or name in cards or name in names:
            continue
        if ref.kind == "card" and name.lower() in lower:
            continue  # the builder finds card names in any case
        if ref.kind == "deck":
            low = name.lower()
            if any(d.lower().startswith(low) or low in d.lower() for d in deck_names):
                continue  # as load_deck finds installed decks
            out.append((ref, f"unknown deck {name!r}{_hint(name, deck_names)}"))
            continue
        if ref.kind == "code" or (ref.kind == "card" and CODE.match(name)):
            out.append((ref, f"unknown card {name!r}{_hint(name, cards)}"))
        elif ref.kind == "card":
            out.append((ref, f"unknown card {name!r}{_hint(name, names)}"))
        else:
            out.append((ref, f"unknown card or alias {name!r}{_hint(name, [*ref.aliases, *names])}"))
    return out
