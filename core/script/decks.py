"""Decks and the deck-construction rules (103, 161.2.a, 103.5.c, 825.3.a).

A deck file lists the main deck without the chosen champion copy; the champion starts in the
Champion Zone (108.3) and counts toward the 40 cards and the copy limit (103.3, 103.3.b).
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any, Callable, Collection

from .catalog import Catalog
from .loader import Loader
from .suggest import closest
from ..errors import DeckError, ScriptError


@dataclass(frozen=True)
class Deck:
    name: str
    legend: str
    champion: str
    main: tuple[str, ...]
    runes: tuple[str, ...]
    battlefields: tuple[str, ...]

    @classmethod
    def from_data(cls, data: dict[str, Any], catalog: Catalog | None = None) -> "Deck":
        """A deck from a parsed deck file (entries with counts expanded); checks nothing, see ``check``.
        With a catalog, a card named by its name (as ``riftscript validate`` accepts) becomes its code."""
        code = _codes(catalog) if catalog is not None else (lambda ref: ref)

        def expand(entries: list[dict[str, Any]]) -> tuple[str, ...]:
            return tuple(code(e["card"]) for e in entries for _ in range(int(e["count"])))

        return cls(name=data["name"], legend=code(data["legend"]), champion=code(data["champion"]),
                   main=expand(data["main"]), runes=expand(data["runes"]),
                   battlefields=tuple(code(b) for b in data["battlefields"]))


def _codes(catalog: Catalog) -> Callable[[str], str]:
    """A card reference of a deck file as a code: a code stays, an installed card's exact name (any case) becomes
    its code (the lowest code among its printings); anything else stays, to be reported by ``violations``."""
    by_name: dict[str, str] = {}

    def as_code(ref: str) -> str:
        if ref in catalog.cards:
            return ref  # the usual case: no name index is made (a game loads two decks)
        if not by_name:
            for known in sorted(catalog.cards):
                by_name.setdefault(catalog.cards[known].name.lower(), known)
        return by_name.get(str(ref).lower(), ref)
    return as_code


def load_deck(catalog: Catalog, ref: "str | Path | Deck") -> Deck:
    """A deck by installed name, or from a deck file (schema-checked)."""
    if isinstance(ref, Deck):
        return ref
    if isinstance(ref, str) and ref in catalog.decks:
        return _installed_deck(catalog, ref)
    path = Path(ref)
    if path.exists():
        assert catalog.schemas is not None
        data, _, problems = Loader(catalog.schemas).read(path, "deck")
        if problems:
            raise ScriptError(problems)
        return Deck.from_data(data, catalog)
    for name in catalog.decks:
        if name.lower().startswith(str(ref).lower()) or str(ref).lower() in name.lower():
            return Deck.from_data(catalog.decks[name][0], catalog)
    for skipped in catalog.skipped.values():
        if str(ref) in skipped.decks:
            raise DeckError(str(ref), [f"the deck is shipped by set {skipped.code} (plugin {skipped.plugin}), "
                                       f"which was skipped: {skipped.reason} ({skipped.file})"])
    known = ", ".join(sorted(catalog.decks)) or "none installed"
    raise DeckError(str(ref), [f"no deck file or installed deck named {ref!r} (installed: {known})"])


def _installed_deck(catalog: Catalog, name: str) -> Deck:
    """An installed deck, read once while its file's data is the same: a game reads both decks when it
    starts.  Only a deck naming every card by an installed card's code is kept (read afresh, a code
    stays itself whatever else is installed); one naming a card by its name is read every time."""
    data = catalog.decks[name][0]
    kept = catalog._decks_read.get(name)
    if kept is not None and kept[0] is data:
        deck: Deck = kept[1]
        return deck
    deck = Deck.from_data(data, catalog)
    if deck == Deck.from_data(data):
        catalog._decks_read[name] = (data, deck)
    return deck


def violations(catalog: Catalog, deck: Deck) -> list[str]:
    """Every deck-construction rule the deck breaks, each its own message."""
    out: list[str] = []
    cards = catalog.cards

    def cards_named(lowered: str) -> str:
        return next(c.name for c in cards.values() if c.name.lower() == lowered)

    def get(code: str, role: str) -> Any:
        card = cards.get(code)
        if card is None:
            skipped = next((s for s in catalog.skipped.values() if code in s.cards), None)
            if skipped is not None:
                out.append(f"{role} {code} is in set {skipped.code} (plugin {skipped.plugin}), which was skipped: "
                           f"{skipped.reason} ({skipped.file})")
            else:
                match = closest(str(code).lower(), {c.name.lower(): c for c in cards.values()})
                hint = f"; did you mean {cards_named(match)!r}?" if match else \
                    " (a card of a set folder? load the folder with riftscript --set FOLDER)"
                out.append(f"{role} {code} is not an installed card{hint}")
        return card

    legend = get(deck.legend, "legend")
    if legend is not None and legend.type != "legend":
        out.append(f"legend {deck.legend} ({legend.name}) is a {legend.type}, not a legend (103)")
    identity = set(legend.domains) if legend is not None else set()
    champion = get(deck.champion, "chosen champion")
    if champion is not None and legend is not None:
        if champion.type != "unit" or champion.supertype != "champion":
            out.append(f"chosen champion {champion.name} is not a champion unit (103.3.a.2)")
        elif champion.champion_tag != legend.champion_tag:
            out.append(f"chosen champion {champion.name} has tag {champion.champion_tag}, "
                       f"the legend's is {legend.champion_tag} (103.3.a.2)")
    main = list(deck.main) + [deck.champion]
    if len(main) < 40:
        out.append(f"main deck has {len(main)} cards including the chosen champion; at least 40 are required (103.3)")
    by_name: Counter[str] = Counter()
    signatures = 0
    for code in main:
        card = get(code, "main deck card")
        if card is None:
            continue
        by_name[card.name] += 1
        if card.type not in ("unit", "spell", "gear") or card.token:
            out.append(f"{card.name} ({code}) can't be in a main deck (103.3, 185)")
        if card.supertype == "signature":
            signatures += 1
            if legend is not None and card.champion_tag != legend.champion_tag:
                out.append(f"signature card {card.name} has tag {card.champion_tag}, "
                           f"the legend's is {legend.champion_tag} (103.3.d.2)")
        if identity and not set(card.domains) <= identity:
            out.append(f"{card.name} ({'/'.join(card.domains)}) is outside the domain identity "
                       f"{'/'.join(sorted(identity))} (103.2.b.4)")
    first = catalog.first_named(by_name)  # the first installed card of each name in the deck
    for name, count in sorted(by_name.items()):
        limit = copy_limit(catalog, first[name])
        if count > limit:
            rule = "825.3.a" if limit == 1 else "103.3.b"
            out.append(f"{count} copies of {name}; at most {limit} allowed ({rule})")
    if signatures > 3:
        out.append(f"{signatures} Signature cards; at most 3 in total (103.3.d.1)")
    if len(deck.runes) != 12:
        out.append(f"rune deck has {len(deck.runes)} runes; exactly 12 are required (161.2.a)")
    for code in deck.runes:
        card = get(code, "rune")
        if card is None:
            continue
        if card.type != "rune":
            out.append(f"{card.name} ({code}) in the rune deck is not a rune (161.2)")
        elif identity and not set(card.domains) <= identity:
            out.append(f"rune {card.name} is outside the domain identity (103.4.a.1)")
    names = []
    for code in deck.battlefields:
        card = get(code, "battlefield")
        if card is None:
            continue
        if card.type != "battlefield":
            out.append(f"{card.name} ({code}) is not a battlefield (103.5)")
        names.append(card.name)
    if len(deck.battlefields) != 3:
        out.append(f"{len(deck.battlefields)} battlefields; every sanctioned mode asks for 3 (103.5.a)")
    duplicates = sorted({n for n in names if names.count(n) > 1})
    for name in duplicates:
        out.append(f"battlefield {name} appears more than once; names must differ (103.5.c)")
    return out


def team_violations(catalog: Catalog, decks: list[Deck], teams: tuple[tuple[int, ...], ...],
                    names: list[str]) -> list[tuple[str, str]]:
    """(message, rule) for each card two teammates share that the 2v2 rules forbid them to share:
    the same Champion Legend (491.8.h) or a battlefield in both decks (491.8.i; Core Rules patch notes,
    October 2025).  Cards are the same when their names are (103.3.b.2: differently named versions are
    different cards)."""
    out: list[tuple[str, str]] = []

    def name(code: str) -> str:
        card = catalog.cards.get(code)
        return card.name if card is not None else code

    for seats in teams:
        for a, b in combinations([s for s in seats if s < len(decks)], 2):
            da, db = decks[a], decks[b]
            pair = f"{names[a]} and {names[b]} are teammates"
            if name(da.legend) == name(db.legend):
                out.append((f"{pair} and both bring the Champion Legend {name(da.legend)} ({da.legend}); "
                            f"teammates need different Champion Legends (491.8.h)", "491.8.h"))
            theirs = {name(code) for code in db.battlefields}
            for code in da.battlefields:
                if name(code) in theirs:
                    out.append((f"{pair} and both bring the battlefield {name(code)} ({code}); no battlefield "
                                f"may be in both teammates' decks (491.8.i)", "491.8.i"))
    return out


MAX_LEGAL_DECKS = 256


def check(catalog: Catalog, deck: Deck) -> None:
    """DeckError listing every rule the deck breaks.  A deck found legal is remembered with the cards it
    was found legal with - its own and the first installed of each of its names (``first_named``, which
    gives the copy limits) - so the check of the next game's is a lookup, while ``cards`` and ``keywords``
    (the copy limits' keywords) are the same dicts of the same sizes and each of those cards is still
    installed under its code (tests and custom-card tools edit ``cards``)."""
    cards, keywords = catalog.cards, catalog.keywords
    remembered = True
    try:
        kept = catalog._legal_decks.get(deck)
    except TypeError:  # a Deck made with lists instead of tuples can't be a key: checked every time
        kept, remembered = None, False
    if kept is not None and kept[0] is cards and kept[1] == len(cards) and kept[2] is keywords \
            and kept[3] == len(keywords) and all(cards.get(card.code) is card for card in kept[4]):
        return
    problems = violations(catalog, deck)
    if problems:
        raise DeckError(deck.name, problems)
    if not remembered:
        return
    if len(catalog._legal_decks) >= MAX_LEGAL_DECKS:
        catalog._legal_decks.clear()  # soaks play thousands of random decks: keep the memo small
    codes = {deck.legend, deck.champion, *deck.main, *deck.runes, *deck.battlefields}
    own = [cards[code] for code in sorted(codes)]
    first = catalog.first_named(sorted({card.name for card in own})).values()
    read = {card.code: card for card in (*own, *first)}  # each card once: most are the first of their name
    catalog._legal_decks[deck] = (cards, len(cards), keywords, len(keywords), tuple(read.values()))


def random_deck(catalog: Catalog, rng: Random, name: str, sets: Collection[str] | None = None) -> Deck:
    """A legal deck drawn at random from the installed cards, for soaks and fuzzing: a legend that has a
    champion, one of its champions, 39 more main-deck cards of its domain identity (1-3 copies of a
    name, within each name's limit and three Signature cards), 12 runes of its domains and three
    battlefields of different names, from the cards of ``sets`` (set codes; default every installed set).
    The same catalog and the same ``rng`` state give the same deck."""
    cards = [catalog.cards[code] for code in sorted(catalog.cards) if sets is None or catalog.cards[code].set_code in sets]
    champions: dict[str, list[Any]] = {}
    for c in cards:
        if c.type == "unit" and c.supertype == "champion" and not c.token and c.champion_tag:
            champions.setdefault(c.champion_tag, []).append(c)
    legends = [c for c in cards if c.type == "legend" and not c.token and champions.get(c.champion_tag or "")]
    battlefields = [c for c in cards if c.type == "battlefield" and not c.token]
    if not legends or len({b.name for b in battlefields}) < 3:
        raise DeckError(name, ["the installed sets have no legend with a champion, or fewer than 3 battlefields"])
    legend = rng.choice(legends)
    identity = set(legend.domains)
    champion = rng.choice(champions[legend.champion_tag or ""])
    runes = [c for c in cards if c.type == "rune" and not c.token and set(c.domains) <= identity]
    pool = [c for c in cards if c.type in ("unit", "spell", "gear") and not c.token and set(c.domains) <= identity
            and (c.supertype != "signature" or c.champion_tag == legend.champion_tag)]
    rng.shuffle(pool)
    copies: Counter[str] = Counter([champion.name])
    signatures = int(champion.supertype == "signature")
    main: list[str] = []
    for card in pool:
        if len(main) == 39:
            break
        count = min(rng.randint(1, 3), copy_limit(catalog, card) - copies[card.name], 39 - len(main))
        if card.supertype == "signature":
            count = min(count, 3 - signatures)
            signatures += max(count, 0)
        if count > 0:
            copies[card.name] += count
            main += [card.code] * count
    while len(main) < 39:  # a small identity: more copies of what is in, within the limits
        more = next((c for c in pool if c.code in main and copies[c.name] < copy_limit(catalog, c)
                     and c.supertype != "signature"), None)
        if more is None:
            raise DeckError(name, [f"{legend.name}'s domains hold too few cards for a 40-card deck"])
        copies[more.name] += 1
        main.append(more.code)
    fields: dict[str, Any] = {}
    for b in rng.sample(battlefields, len(battlefields)):
        fields.setdefault(b.name, b.code)
    deck = Deck(name=name, legend=legend.code, champion=champion.code, main=tuple(main),
                runes=tuple(sorted(rng.choice(runes).code for _ in range(12))) if runes else (),
                battlefields=tuple(list(fields.values())[:3]))
    check(catalog, deck)
    return deck


def random_seating(catalog: Catalog, rng: Random, players: int, teams: tuple[tuple[int, ...], ...] | None,
                   prefix: str, sets: Collection[str] | None = None) -> tuple[Deck, ...]:
    """A random deck for each seat (``random_deck``, named ``prefix-1``, ``prefix-2``, ...), drawn again while
    teammates may not play together (491.8.h, 491.8.i); DeckError after 100 draws."""
    for _ in range(100):
        decks = tuple(random_deck(catalog, rng, f"{prefix}-{seat + 1}", sets) for seat in range(players))
        if not teams or not team_violations(catalog, list(decks), teams, [d.name for d in decks]):
            return decks
    raise DeckError(prefix, ["no seating of random decks whose teammates may play together in 100 draws"])


def copy_limit(catalog: Catalog, card: Any) -> int:
    """How many copies of the card's name a deck may hold: 3 (103.3.b), or fewer when a keyword of the
    card says so (Unique: 1, 825.3.a)."""
    limit = 3
    for keyword, _ in card.keywords:
        kw = catalog.keywords.get(keyword)
        if kw is not None and kw.deck_limit is not None:
            limit = min(limit, kw.deck_limit or 3)
    return limit


def deck_document(deck: Deck) -> dict[str, Any]:
    """The deck as a deck file holds it (``schemas/deck.schema.json``): ``load_deck`` reads back the same
    deck when the copies of each card are next to each other in its lists (``random_deck``'s are)."""
    def counted(codes: tuple[str, ...]) -> list[dict[str, Any]]:
        return [{"card": code, "count": count} for code, count in Counter(codes).items()]

    return {"schema_version": 1, "name": deck.name, "legend": deck.legend, "champion": deck.champion,
            "main": counted(deck.main), "runes": counted(deck.runes), "battlefields": list(deck.battlefields)}
