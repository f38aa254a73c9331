"""Deck construction from the command line: 'riftscript deck check' reports each rule a deck breaks.

Every test starts from the installed Jinx Champion Deck (legal), breaks one rule in a deck file
written to a temporary folder, and checks the violation is reported with its rule number.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest

from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.script.decks import Deck, violations
from riftscript.tools.cli import main
from installed import builtin_decks

BASE_DECK = "Jinx Champion Deck"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture()
def base(catalog: Catalog) -> dict[str, Any]:
    data = copy.deepcopy(catalog.decks[BASE_DECK][0])
    data["name"] = "Test Deck"
    data.pop("source", None)
    return data


def set_count(deck: dict[str, Any], code: str, count: int, part: str = "main") -> None:
    for entry in deck[part]:
        if entry["card"] == code:
            entry["count"] = count
            return
    deck[part].append({"card": code, "count": count})


def write_card(folder: Path, code: str, name: str, **facts: Any) -> None:
    folder.mkdir(exist_ok=True)
    card = {"schema_version": 1, "code": code, "name": name, "type": "spell", "domains": ["fury"],
            "cost": {"energy": 1}, **facts}
    (folder / f"{code}.yaml").write_text(json.dumps(card), encoding="utf-8")


Check = Callable[..., tuple[int, list[str]]]


@pytest.fixture()
def check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Check:
    """Write the deck, run 'riftscript deck check --json', return the exit status and problems."""
    def run(deck: dict[str, Any], *extra: str) -> tuple[int, list[str]]:
        path = tmp_path / "deck.yaml"
        path.write_text(json.dumps(deck), encoding="utf-8")
        capsys.readouterr()
        status = main(["deck", "check", str(path), "--json", *extra])
        results = json.loads(capsys.readouterr().out)
        assert len(results) == 1
        problems: list[str] = results[0]["problems"]
        assert results[0]["legal"] == (status == 0) == (not problems)
        return status, problems
    return run


def only(problems: list[str], rule: str) -> str:
    """The single problem, which must cite ``rule``."""
    assert len(problems) == 1, problems
    assert problems[0].endswith(f"({rule})"), problems[0]
    return problems[0]


def test_base_deck_is_legal(check: Check, base: dict[str, Any]) -> None:
    assert check(base) == (0, [])


def test_at_least_40_cards_including_the_champion_103_3(check: Check, base: dict[str, Any]) -> None:
    set_count(base, "OGN-169", 1)  # Gust 3 -> 1: 38 + the champion = 39
    status, problems = check(base)
    assert status == 1
    assert "39 cards including the chosen champion" in only(problems, "103.3")


def test_three_copies_by_name_103_3_b(check: Check, base: dict[str, Any]) -> None:
    set_count(base, "OGN-169", 4)
    status, problems = check(base)
    assert status == 1
    assert "4 copies of Gust" in only(problems, "103.3.b")


def test_copy_limit_counts_the_chosen_champion_103_3_b(check: Check, base: dict[str, Any]) -> None:
    set_count(base, "OGN-030", 3)  # 3 in the main deck + the chosen champion
    status, problems = check(base)
    assert status == 1
    assert "4 copies of Jinx, Demolitionist" in only(problems, "103.3.b")


def test_at_most_three_signature_cards_103_3_d_1(check: Check, base: dict[str, Any], tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    for code, name in (("TST-001", "Test Signature One"), ("TST-002", "Test Signature Two")):
        write_card(cards, code, name, supertype="signature", champion_tag="Jinx")
    set_count(base, "OGN-252", 2)  # Super Mega Death Rocket!, Jinx's signature spell
    set_count(base, "TST-001", 1)
    set_count(base, "TST-002", 1)
    status, problems = check(base, "--cards", str(cards))
    assert status == 1
    assert "4 Signature cards" in only(problems, "103.3.d.1")


def test_signature_cards_match_the_legend_103_3_d_2(check: Check, base: dict[str, Any], tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    write_card(cards, "TST-003", "Test Signature of Vi", supertype="signature", champion_tag="Vi")
    set_count(base, "TST-003", 1)
    status, problems = check(base, "--cards", str(cards))
    assert status == 1
    message = only(problems, "103.3.d.2")
    assert "Test Signature of Vi" in message and "Vi" in message and "Jinx" in message


def test_unique_one_copy_825_3_a(check: Check, base: dict[str, Any], tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    write_card(cards, "TST-004", "Test Relic", type="gear", keywords=["Unique"])
    set_count(base, "TST-004", 2)
    status, problems = check(base, "--cards", str(cards))
    assert status == 1
    assert "2 copies of Test Relic; at most 1" in only(problems, "825.3.a")


def test_cards_inside_the_domain_identity_103_2_b_4(check: Check, base: dict[str, Any]) -> None:
    set_count(base, "OGN-054", 1)  # Sunlit Guardian (Calm) in a Fury/Chaos deck
    status, problems = check(base)
    assert status == 1
    message = only(problems, "103.2.b.4")
    assert "Sunlit Guardian" in message and "calm" in message


def test_runes_inside_the_domain_identity_103_4_a_1(check: Check, base: dict[str, Any]) -> None:
    base["runes"] = [{"card": "OGN-007", "count": 6}, {"card": "OGN-042", "count": 6}]  # Fury and Calm runes
    status, problems = check(base)
    assert status == 1
    assert "Calm Rune" in only(problems, "103.4.a.1")


def test_exactly_12_runes_161_2_a(check: Check, base: dict[str, Any]) -> None:
    set_count(base, "OGN-166", 5, "runes")
    status, problems = check(base)
    assert status == 1
    assert "11 runes" in only(problems, "161.2.a")


def test_battlefield_names_differ_103_5_c(check: Check, base: dict[str, Any]) -> None:
    base["battlefields"] = ["OGN-289", "OGN-289", "OGN-285"]
    status, problems = check(base)
    assert status == 1
    assert "Targon's Peak" in only(problems, "103.5.c")


def test_champion_matches_the_legend_103_3_a_2(check: Check, base: dict[str, Any]) -> None:
    base["champion"] = "OGN-036"  # Vi, Destructive: a Fury champion unit, but not Jinx
    set_count(base, "OGN-030", 2)  # keep 40 cards
    status, problems = check(base)
    assert status == 1
    message = only(problems, "103.3.a.2")
    assert "Vi, Destructive" in message and "Jinx" in message


def test_several_violations_each_reported(check: Check, base: dict[str, Any]) -> None:
    set_count(base, "OGN-169", 4)
    set_count(base, "OGN-166", 5, "runes")
    base["battlefields"] = ["OGN-289", "OGN-289", "OGN-285"]
    status, problems = check(base)
    assert status == 1
    assert sorted(p.rsplit("(", 1)[1] for p in problems) == ["103.3.b)", "103.5.c)", "161.2.a)"]


def test_text_output_lists_each_violation(tmp_path: Path, base: dict[str, Any],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    set_count(base, "OGN-169", 4)
    base["battlefields"] = ["OGN-289", "OGN-289", "OGN-285"]
    path = tmp_path / "deck.yaml"
    path.write_text(json.dumps(base), encoding="utf-8")
    assert main(["deck", "check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{path} (Test Deck): not legal, 2 problems"
    assert out[1].startswith("  - 4 copies of Gust") and out[1].endswith("(103.3.b)")
    assert out[2].startswith("  - battlefield Targon's Peak") and out[2].endswith("(103.5.c)")


def test_a_missing_deck_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "check", str(tmp_path / "nothing.yaml")]) == 1
    assert "no deck file or installed deck named" in capsys.readouterr().out


def test_every_installed_deck_is_legal(catalog: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    assert len(builtin_decks(catalog)) == 11  # seven official decks, two Spiritforged and two Unleashed demo decks
    for name, (data, _) in catalog.decks.items():
        assert violations(catalog, Deck.from_data(data)) == [], name
    assert main(["deck", "check", *sorted(catalog.decks)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{name}: legal" for name in sorted(catalog.decks)]


def test_deck_list(catalog: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "list"]) == 0
    out = capsys.readouterr().out
    for name in catalog.decks:
        assert name in out
    count = len(catalog.decks)  # the built-in sets' 11 and those of any other installed set
    assert count >= 11 and out.rstrip().endswith(f"{count} decks installed, {count} legal")
    assert main(["deck", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in rows} == set(catalog.decks)
    assert all(r["legal"] and r["main"] >= 40 and r["runes"] == 12 for r in rows)


def test_a_deck_file_may_name_its_cards_as_validate_accepts(check: Check, base: dict[str, Any],
                                                              catalog: Catalog) -> None:
    """riftscript validate accepts a card's name in a deck file, so deck check and games do too; a name that is
    no card's gets the same 'did you mean' as validate gives."""
    named = copy.deepcopy(base)
    for entry in named["main"]:
        entry["card"] = catalog.cards[entry["card"]].name
    named["legend"] = catalog.cards[named["legend"]].name
    assert check(named) == (0, [])
    misspelled = copy.deepcopy(named)
    misspelled["main"][0]["card"] = named["main"][0]["card"] + "x"
    status, problems = check(misspelled)
    assert status == 1 and problems[0] == (f"main deck card {named['main'][0]['card']}x is not an installed card; "
                                           f"did you mean {named['main'][0]['card']!r}? [x{named['main'][0]['count']}]")


def test_the_name_index_of_deck_checks_follows_edits_of_the_catalog() -> None:
    """``Catalog.first_named`` (the copy limit is the first installed card's of a name) keeps its index
    between games, and still answers right once ``cards`` is edited: a card replaced under its code, the
    first card of a name removed, a later card of the name added, the whole dict swapped."""
    import dataclasses

    catalog = dataclasses.replace(load_catalog())
    catalog.cards = dict(catalog.cards)
    code = next(c for c in sorted(catalog.cards) if catalog.cards[c].type == "unit" and not catalog.cards[c].token)
    card = catalog.cards[code]
    assert catalog.first_named([card.name]) == {card.name: card}
    assert catalog.first_named([card.name])[card.name] is card  # from the kept index
    unique = dataclasses.replace(card, keywords=(("unique", None),) + tuple(card.keywords))
    catalog.cards[code] = unique  # replaced under its code: now a Unique card
    assert catalog.first_named([card.name])[card.name] is unique
    deck = Deck(name="t", legend="", champion="", main=(code, code), runes=(), battlefields=())
    assert any("2 copies of" in p and "at most 1" in p for p in violations(catalog, deck))
    later = dataclasses.replace(card, code="ZZZ-999")
    catalog.cards["ZZZ-999"] = later  # a later printing of the name: the first stays the first
    assert catalog.first_named([card.name])[card.name] is unique
    del catalog.cards[code]  # the first one gone: the later one is now the first
    assert catalog.first_named([card.name])[card.name] is later
    catalog.cards = {"ZZZ-999": dataclasses.replace(later)}  # another dict of the same size
    assert catalog.first_named([card.name])[card.name] is catalog.cards["ZZZ-999"]
    assert catalog.first_named(["no such name"]) == {}


def test_a_deck_found_legal_is_checked_again_once_a_card_it_reads_changes() -> None:
    """A legal deck is remembered between games with the cards it was found legal with (``decks.check``):
    a card of it replaced under its code, a keyword of one of its cards changed, another card of one of its
    names installed first - each time the next check finds the deck illegal; a Deck made with lists (not a
    key) is checked every time."""
    import dataclasses

    from riftscript.core.engine.game import Game
    from riftscript.core.errors import DeckError
    from riftscript.core.script.decks import check, load_deck

    catalog = dataclasses.replace(load_catalog())
    catalog.cards = dict(catalog.cards)
    deck = load_deck(catalog, "Jinx Champion Deck")
    assert load_deck(catalog, "Jinx Champion Deck") is deck  # the installed deck's file, read once
    Game.new(catalog, [deck, "Viktor Champion Deck"], seed=0)  # found legal, and remembered
    code = next(c for c in deck.main if deck.main.count(c) > 1)
    card = catalog.cards[code]
    unique = dataclasses.replace(card, keywords=(("unique", None),) + tuple(card.keywords))

    catalog.cards[code] = unique  # replaced under its code: at most one copy now
    with pytest.raises(DeckError, match=f"copies of {card.name}; at most 1 allowed"):
        Game.new(catalog, [deck, "Viktor Champion Deck"], seed=0)
    catalog.cards[code] = card
    check(catalog, deck)

    keyed = next(c for c in deck.main if deck.main.count(c) > 1 and catalog.cards[c].keywords)
    keyword = catalog.cards[keyed].keywords[0][0]
    kept = catalog.keywords
    catalog.keywords = {**kept, keyword: dataclasses.replace(kept[keyword], deck_limit=1)}  # now limits copies
    with pytest.raises(DeckError, match=f"copies of {catalog.cards[keyed].name}; at most 1 allowed"):
        check(catalog, deck)
    catalog.keywords = kept
    check(catalog, deck)

    other = dataclasses.replace(unique, code="AAA-000")  # another card of the name, installed first
    catalog.cards = {"AAA-000": other, **catalog.cards}
    with pytest.raises(DeckError, match=f"copies of {card.name}; at most 1 allowed"):
        check(catalog, deck)

    listed = Deck(name=deck.name, legend=deck.legend, champion=deck.champion, main=list(deck.main),  # type: ignore[arg-type]
                  runes=deck.runes, battlefields=deck.battlefields)
    with pytest.raises(DeckError, match="at most 1 allowed"):
        check(catalog, listed)
