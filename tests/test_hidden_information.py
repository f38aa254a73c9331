"""Observations can't be de-anonymised: a player who must not know which card is hidden sees the
same observation, the same legal actions and the same play-by-play whichever card it is.

Ids follow the decklist order, so an id is as good as the card's name: two games that differ only
in which card is facedown (or in the order of a deck, or in a hand) are made by exchanging two
hidden objects of one owner - their places, not their names - and every player who can't see them
must get byte-identical views, in every mode.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import pytest

from riftscript.core.engine import observe
from riftscript.core.script.catalog import load_catalog
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match
from riftscript.plugins.agents import RandomAgent
from riftscript.tools import interactive

# decks with Hidden cards (Viktor 3, Lee Sin 2, Jinx 1); seats 1+3 and 2+4 are the 2v2 teams
DECKS = ["Viktor Champion Deck", "Lee Sin Champion Deck", "Jinx Champion Deck", "Annie Starter Deck"]
MODES = {"duel": 2, "match": 2, "skirmish": 3, "war": 4, "magma-chamber": 4}
PLACES = ("zone", "loc", "controller", "hidden_turn", "timestamp", "exhausted")


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


def start(mode: str, seed: int) -> Game | Match:
    decks = DECKS[:MODES[mode]]
    if mode == "match":
        return Match.new(cat(), decks, mode=mode, seed=seed)
    return Game.new(cat(), decks, mode=mode, seed=seed)


def current(game: Game | Match) -> Game:
    return game.game if isinstance(game, Match) else game


def with_a_hidden_card(mode: str) -> tuple[Game | Match, int]:
    """A game in which a card was hidden and someone else decides now; and the hider."""
    for seed in range(40):
        game = start(mode, seed)
        agents = [RandomAgent(seed + i) for i in range(MODES[mode])]
        hider = -1
        for _ in range(400):
            if game.over:
                break
            d = game.pending_decision()
            assert d is not None
            legal = game.legal_actions()
            if hider >= 0 and d.player != hider and any(bf.facedown for bf in current(game).state.battlefields):
                return game, hider
            hides = [a for a in legal if a["type"] == "hide"]
            if hides and hider < 0:
                hider = d.player
                game.apply(hides[0])
            else:
                game.apply(agents[d.player].choose(current(game), legal))
    raise AssertionError(f"no game of {mode} with a hidden card found")


def exchanged(game: Game | Match, a: int, b: int) -> Game | Match:
    """The same game with objects ``a`` and ``b`` (one owner's) in each other's places."""
    doc = json.loads(game.to_json())
    data = doc["game"] if isinstance(game, Match) else doc
    state = data["state"]

    def swap(node: Any) -> Any:
        if isinstance(node, list):
            return [swap(v) for v in node]
        if isinstance(node, dict):
            return {k: swap(v) for k, v in node.items()}
        return b if node == a else a if node == b else node

    for p in state["players"]:
        for name in ("main_deck", "hand", "rune_deck"):
            p[name] = swap(p[name])
    for bf in state["battlefields"]:
        bf["facedown"] = swap(bf["facedown"])
    one, two = state["objs"][str(a)], state["objs"][str(b)]
    assert one["owner"] == two["owner"]
    for field in PLACES:
        one[field], two[field] = two[field], one[field]
    text = json.dumps(doc)
    # an edited save: its log no longer replays, but every invariant still holds
    return Match.from_json(cat(), text, replay=False) if isinstance(game, Match) else Game.from_json(cat(), text,
                                                                                                      replay=False)


def views(game: Game | Match, viewer: int) -> str:
    """Everything the viewer is shown: observation, legal actions if deciding, the play view."""
    g = current(game)
    d = game.pending_decision()
    legal = game.legal_actions() if d is not None and d.player == viewer else []
    narration = interactive.narration(g, viewer, 0)
    described = [interactive.describe(g, action) for action in legal]
    return json.dumps([game.observation(viewer), legal, narration, described], sort_keys=True)


def blind(g: Game, owner: int, oid: int) -> list[int]:
    """The players who can't see the object."""
    return [p.index for p in g.state.players if not observe.visible(g, p.index, oid) and p.index != owner]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_which_card_is_facedown_is_invisible_to_the_others(mode: str) -> None:
    game, hider = with_a_hidden_card(mode)
    g = current(game)
    facedown = next(oid for bf in g.state.battlefields for oid in bf.facedown)
    owner = g.obj(facedown).owner
    other = next(oid for oid in g.state.players[owner].main_deck if g.obj(oid).code != g.obj(facedown).code)
    variant = exchanged(game, facedown, other)
    assert current(variant).obj(other).zone == "facedown"  # another card is hidden there now
    viewers = blind(g, owner, facedown)
    assert game.pending_decision().player in viewers  # their legal actions are compared too
    for viewer in viewers:
        assert views(variant, viewer) == views(game, viewer), f"seat {viewer} can tell which card is hidden"
    # the hider sees the difference, so the two games really differ
    assert game.observation(owner) != variant.observation(owner)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_order_of_a_deck_is_invisible(mode: str) -> None:
    game, _ = with_a_hidden_card(mode)
    g = current(game)
    for p in g.state.players:
        deck = p.main_deck
        a, b = next((x, y) for x in deck for y in deck if g.obj(x).code != g.obj(y).code)
        variant = exchanged(game, a, b)
        for viewer in range(len(g.state.players)):  # nobody sees a deck's order, not even its owner
            assert views(variant, viewer) == views(game, viewer)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_cards_in_a_hand_are_invisible_to_the_others(mode: str) -> None:
    game, _ = with_a_hidden_card(mode)
    g = current(game)
    for p in g.state.players:
        if not p.hand:
            continue
        card = p.hand[0]
        other = next(oid for oid in p.main_deck if g.obj(oid).code != g.obj(card).code)
        variant = exchanged(game, card, other)
        for viewer in blind(g, p.index, card):
            assert views(variant, viewer) == views(game, viewer), f"seat {viewer} can tell {p.name}'s hand"
        assert views(variant, p.index) != views(game, p.index)


def test_a_handle_is_drawn_anew_when_a_card_is_hidden_again() -> None:
    game, hider = with_a_hidden_card("duel")
    g = current(game)
    facedown = next(oid for bf in g.state.battlefields for oid in bf.facedown)
    viewer = 1 - hider
    before = observe.handle(g, viewer, facedown)
    assert before.startswith("hidden-") and str(facedown) not in before
    assert observe.handle(g, hider, facedown) != before  # each viewer has its own handles
    where = g.obj(facedown).loc
    g.place(facedown, "hand")
    g.emit("return_to_hand", obj=facedown)
    g.place(facedown, "facedown", where)  # hidden again: the same turn, the same place
    assert g.bf_at(where).facedown == [facedown]
    assert observe.handle(g, viewer, facedown) != before


def test_legal_actions_name_hidden_targets_by_handle_and_apply_takes_them() -> None:
    """In 2v2 a teammate's facedown card is hidden from you, yet 'a friendly facedown card' (Pack of
    Wonders, OGN-181) may target it: the action names it by the handle your observation shows."""
    from riftscript.core.engine.builder import Builder

    b = Builder(cat(), players=4, mode="magma-chamber")
    bf = b.battlefield("OGN-294", controller=2)
    b.add(2, "OGN-175", at=bf)
    hidden = b.add(2, "OGN-053", zone="facedown", at=bf, controller=2)
    pack = b.add(0, "OGN-181", at="base")
    b.add(0, "OGN-175", at="base")
    b.at_turn(0, "main")
    g, ids = b.build()
    handle = g.observation(0)["battlefields"][0]["facedown"][0]["id"]
    assert handle.startswith("hidden-")
    uses = [a for a in g.legal_actions() if a["type"] == "activate" and a["source"] == ids[pack]]
    assert [handle] in [t for a in uses for t in a["targets"]]
    assert all(ids[hidden] not in t for a in uses for t in a["targets"])  # never the id itself
    action = next(a for a in uses if a["targets"] == [[handle]])
    assert "a hidden card" in interactive.describe(g, action)
    g.apply(action)
    assert any(e["t"] == "action" and e["action"]["targets"] == [[ids[hidden]]] for e in g.log)


def test_the_play_view_writes_no_id_of_a_hidden_card() -> None:
    game, hider = with_a_hidden_card("duel")
    g = current(game)
    hidden = observe.hidden_from(g, 1 - hider)
    lines = interactive.narration(g, 1 - hider, 0)
    assert any("hides a card" in line for line in lines)
    assert not any(f"#{oid}" in line for line in lines for oid in hidden)


def test_a_player_an_effect_lets_look_sees_the_facedown_cards_everywhere_it_is_shown(tmp_path: Any) -> None:
    """Scuttle Crab (UNL-053) lets A look at the chosen opponent's facedown cards this turn
    (show_facedown): A's observation, A's hidden set and the search agent's determinization show B's
    card, while C's stays hidden from A and B's stays hidden from C."""
    from pathlib import Path

    from riftscript.plugins.mcts import Determinizer
    from riftscript.tools.pytest_plugin import catalog
    from riftscript.tools.scenario import load_file, run_scenario

    path = Path(tmp_path) / "scenarios" / "crab.yaml"
    path.parent.mkdir()
    path.write_text("""\
schema_version: 1
name: crab
setup:
  mode: skirmish
  battlefields:
    - {card: OGN-293, controller: A, units: [{card: UNL-053, as: crab}]}
    - {card: OGN-278, controller: B, units: [{card: OGN-175, owner: B}], facedown: [{card: OGN-135, as: bcard, owner: B}]}
    - {card: OGN-285, controller: C, units: [{card: OGN-175, owner: C}], facedown: [{card: OGN-135, as: ccard, owner: C}]}
  B:
    hand: [{card: UNL-072, as: strike}]
    runes: [OGN-089, OGN-089, OGN-089, OGN-089]
  turn: {player: B, step: main}
steps:
  - {do: play, player: B, card: strike, targets: [[crab]]}
  - {do: pass, player: B}
  - {do: pass, player: C}
  - {do: pass, player: A}
  - {do: pass, player: A}
  - {do: pass, player: B}
  - {do: pass, player: C}
  - {do: choose, player: A, option: B}
""", encoding="utf-8")
    cat_ = catalog()
    assert cat_.schemas is not None
    (scenario,) = load_file(path, cat_.schemas)
    g = run_scenario(cat_, scenario)
    assert isinstance(g, Game)
    bcard, ccard = (g.bf_at(10 + i).facedown[0] for i in (1, 2))
    shown = {bf["loc"]: bf["facedown"][0] for bf in g.observation(0)["battlefields"] if bf["facedown"]}
    assert shown[11].get("code") == "OGN-135" and shown[12].get("hidden") is True
    assert bcard not in observe.hidden_from(g, 0) and ccard in observe.hidden_from(g, 0)
    assert bcard in observe.hidden_from(g, 2)
    unseen = g.copy()
    unseen.state.lasting.clear()  # the same position without the effect
    assert sum(len(p.codes) for p in Determinizer(g, 0).pools) == \
        sum(len(p.codes) for p in Determinizer(unseen, 0).pools) - 1
