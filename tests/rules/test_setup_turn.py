"""Setup, mulligan and the turn: Core Rules 103, 115-117, 315-317, 432, 487, 735-738, 816.

Each test names the rule it proves.  Positions are built with the Builder or played from a real
setup (Game.new); every check is on what a player can see: zones, points, the event log.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest

from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import load_catalog
from riftscript.core.script.decks import load_deck
from riftscript.core.errors import IllegalActionError
from riftscript.core.engine.game import Game
from riftscript.core.engine.offer import complete
from rules_helpers import events, catalog as cat

JINX = "Jinx Champion Deck"
LEE = "Lee Sin Champion Deck"
FURY_RUNE = "OGN-007"
MIND_RUNE = "OGN-089"
SKULKER = "OGN-175"      # vanilla 3-Might unit
ENFORCER = "OGN-003"     # a plain main-deck card to fill decks and hands
SPRITE = "OGN-274"       # token unit with Temporary
DISCIPLINE = "OGN-058"   # Reaction spell: a unit gets +2 Might this turn; draw 1
TIME_WARP = "OGN-122"
DARK_CHILD = "OGS-017"   # legend: readies two runes as its player's turn ends
PLAIN_BF = "OGN-294"


def new_game(seed: int, decks: tuple[str, str] = (JINX, LEE)) -> Game:
    return Game.new(cat(), list(decks), seed=seed)


def keep_all(g: Game) -> None:
    while g.pending_decision() is not None and g.pending_decision().kind == "mulligan":
        g.apply(complete(g, {"type": "mulligan", "cards": []}))


def neutral_main(g: Game) -> bool:
    s = g.state
    d = g.pending_decision()
    return (d is not None and d.kind == "priority" and s.step == "main" and not s.chain
            and s.showdown is None)


def advance_to_main(g: Game, player: int, skip: int = 0) -> None:
    """Pass and end turns until ``player`` has priority in a Neutral Open Main Phase.

    ``skip``: how many such Main Phases of that player to pass over first (ending those turns).
    """
    for _ in range(500):
        d = g.pending_decision()
        assert d is not None, "the game ended unexpectedly"
        if neutral_main(g):
            if d.player == player and skip == 0:
                return
            if d.player == player:
                skip -= 1
            g.apply({"type": "end_turn"})
        elif d.kind == "priority":
            g.apply({"type": "pass"})
        elif d.kind == "mulligan":
            g.apply(complete(g, {"type": "mulligan", "cards": []}))
        else:
            g.apply(g.legal_actions()[0])
    raise AssertionError("never reached the Main Phase")


def at(g: Game, etype: str, **fields: Any) -> int:
    """Position in the log of the first event of that type (and field values)."""
    for i, e in enumerate(g.log):
        if e["t"] == etype and all(e.get(k) == v for k, v in fields.items()):
            return i
    raise AssertionError(f"no {etype} {fields} event in the log")


def last_at(g: Game, etype: str) -> int:
    return max(i for i, e in enumerate(g.log) if e["t"] == etype)


def turn_events(g: Game) -> list[list[dict[str, Any]]]:
    """The log split per turn (each list starts with its turn_start event)."""
    out: list[list[dict[str, Any]]] = []
    for e in g.log:
        if e["t"] == "turn_start":
            out.append([])
        if out:
            out[-1].append(e)
    return out


# ---------------------------------------------------------------------- setup (103, 115-117)
def test_103_legend_and_champion_start_in_their_zones() -> None:
    g = new_game(1)
    for i, name in enumerate((JINX, LEE)):
        deck = load_deck(cat(), name)
        p = g.state.players[i]
        legend = g.obj(p.legend)
        assert legend.code == deck.legend and legend.zone == "legend" and legend.owner == i
        assert [g.obj(c).code for c in p.champion] == [deck.champion]
        assert g.obj(p.champion[0]).zone == "champion"
        # the chosen champion is not part of the main deck or the hand
        assert p.champion[0] not in p.main_deck + p.hand


def test_103_decks_complete_and_shuffled_by_the_seed() -> None:
    g1, g2, g3 = new_game(1), new_game(1), new_game(2)
    deck = load_deck(cat(), JINX)
    p = g1.state.players[0]
    order = p.hand + p.main_deck  # the hand was drawn from the top of the shuffled deck
    assert sorted(g1.obj(c).code for c in order) == sorted(deck.main)
    assert sorted(g1.obj(r).code for r in p.rune_deck) == sorted(deck.runes)
    assert [g1.obj(c).code for c in order] != list(deck.main), "main deck is in deck-list order"
    assert [g1.obj(r).code for r in p.rune_deck] != list(deck.runes), "rune deck is in deck-list order"
    # the same seed gives the same order, another seed another one
    q = g2.state.players[0]
    assert [g2.obj(c).code for c in q.hand + q.main_deck] == [g1.obj(c).code for c in order]
    r = g3.state.players[0]
    assert [g3.obj(c).code for c in r.hand + r.main_deck] != [g1.obj(c).code for c in order]


def test_487_5_duel_one_battlefield_per_player_picked_at_random() -> None:
    seen: dict[int, set[str]] = {0: set(), 1: set()}
    for seed in range(30):
        g = new_game(seed)
        assert len(g.state.battlefields) == 2
        for i, name in enumerate((JINX, LEE)):
            mine = [bf for bf in g.state.battlefields if bf.owner == i]
            assert len(mine) == 1
            code = g.obj(mine[0].card).code
            assert code in load_deck(cat(), name).battlefields
            assert g.obj(mine[0].card).zone == "bfcard"
            seen[i].add(code)
            # the two others are not in play
            others = [o for o in g.state.players[i].battlefields_owned if o != mine[0].card]
            assert len(others) == 2 and all(g.obj(o).zone != "bfcard" for o in others)
    # chance, not a fixed pick: every one of the three shows up over 30 seeds
    assert seen[0] == set(load_deck(cat(), JINX).battlefields)
    assert seen[1] == set(load_deck(cat(), LEE).battlefields)


def test_115_first_player_by_seeded_random() -> None:
    firsts = {new_game(seed).state.turn_order[0] for seed in range(12)}
    assert firsts == {0, 1}
    for seed in range(6):
        assert new_game(seed).state.turn_order == new_game(seed).state.turn_order
        order = new_game(seed).state.turn_order
        assert sorted(order) == [0, 1]
        assert events(new_game(seed), "turn_order")[0]["order"] == order


def test_116_each_player_draws_4() -> None:
    g = new_game(3)
    deck = load_deck(cat(), JINX)
    for p in g.state.players:
        assert len(p.hand) == 4
        assert len(p.main_deck) == len(deck.main) - 4
    draws = events(g, "draw")
    assert len(draws) == 8
    # in turn order
    first, second = g.state.turn_order
    assert [e["player"] for e in draws] == [first] * 4 + [second] * 4


@pytest.mark.parametrize("seed", [0, 1])
def test_117_mulligan_in_turn_order(seed: int) -> None:
    g = new_game(seed)
    first, second = g.state.turn_order
    d = g.pending_decision()
    assert d.kind == "mulligan" and d.player == first
    g.apply(complete(g, {"type": "mulligan", "cards": []}))
    d = g.pending_decision()
    assert d.kind == "mulligan" and d.player == second
    g.apply(complete(g, {"type": "mulligan", "cards": []}))
    # then the first turn begins, for the first player
    assert events(g, "turn_start")[0]["player"] == first


def test_117_1_set_aside_at_most_two_cards() -> None:
    g = new_game(1)
    p = g.state.players[g.pending_decision().player]
    options = g.legal_actions()
    # keep, 4 singles, 6 pairs
    assert len(options) == 11
    assert all(len(a["cards"]) <= 2 for a in options)
    before = g.to_json()
    with pytest.raises(IllegalActionError) as err:
        g.apply(complete(g, {"type": "mulligan", "cards": list(p.hand[:3])}))
    assert err.value.rule == "117.1"
    assert g.to_json() == before
    # another player's card can't be set aside
    other = g.state.players[1 - p.index]
    with pytest.raises(IllegalActionError):
        g.apply(complete(g, {"type": "mulligan", "cards": [other.hand[0]]}))
    assert g.to_json() == before


def test_117_2_117_3_draw_then_recycle_set_aside_to_bottom() -> None:
    g = new_game(1)
    player = g.pending_decision().player
    p = g.state.players[player]
    aside = list(p.hand[:2])
    kept = list(p.hand[2:])
    top_two = list(p.main_deck[:2])
    deck_size = len(p.main_deck)
    mark = len(g.log)
    g.apply(complete(g, {"type": "mulligan", "cards": aside}))
    # 117.2: draws as many as set aside -- the old top two, never the set-aside cards
    assert sorted(p.hand) == sorted(kept + top_two)
    assert not set(aside) & set(p.hand)
    # 117.3: the set-aside cards are recycled to the bottom of the main deck
    assert sorted(p.main_deck[-2:]) == sorted(aside)
    assert len(p.main_deck) == deck_size
    assert all(g.obj(c).zone == "main_deck" for c in aside)
    kinds = [e["t"] for e in g.log[mark:] if e["t"] in ("draw", "recycle")]
    assert kinds == ["draw", "draw", "recycle", "recycle"], "draw first, then recycle"


def test_117_keeping_changes_nothing() -> None:
    g = new_game(2)
    player = g.pending_decision().player
    p = g.state.players[player]
    hand, deck = list(p.hand), list(p.main_deck)
    g.apply(complete(g, {"type": "mulligan", "cards": []}))
    assert p.hand == hand and p.main_deck == deck


# ---------------------------------------------------------------------- the turn (315-317)
def test_315_1_b_awaken_readies_what_the_turn_player_controls() -> None:
    b = Builder(cat())
    bf = b.battlefield(PLAIN_BF)
    mine = b.add(1, SKULKER, at="base", exhausted=True)
    mine_bf = b.add(1, SKULKER, at=bf, exhausted=True)
    runes = b.runes(1, [FURY_RUNE] * 3, exhausted=True)
    theirs = b.add(0, SKULKER, at="base", exhausted=True)
    their_runes = b.runes(0, [FURY_RUNE] * 2, exhausted=True)
    b.legend(1, DARK_CHILD)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.obj(g.state.players[1].legend).exhausted = True
    g.apply({"type": "end_turn"})
    advance_to_main(g, 1)
    for i in [mine, mine_bf] + runes:
        assert not g.obj(ids[i]).exhausted
    assert not g.obj(g.state.players[1].legend).exhausted
    # the other player's objects stay exhausted
    for i in [theirs] + their_runes:
        assert g.obj(ids[i]).exhausted


def _temporary_position(unit: str) -> tuple[Game, list[int], int]:
    b = Builder(cat())
    bf = b.battlefield(PLAIN_BF, controller=1)
    u = b.add(1, unit, at=bf)
    b.deck(0, [ENFORCER] * 3)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    return g, ids, ids[u]


def test_315_2_a_1_temporary_kills_before_the_hold() -> None:
    g, ids, sprite = _temporary_position(SPRITE)
    g.apply({"type": "end_turn"})
    advance_to_main(g, 1)
    assert g.obj(sprite).zone == "gone"  # a token that dies ceases to exist
    assert at(g, "die") < at(g, "phase_start", phase="channel")
    # the battlefield was empty before the scoring step: no hold, no point
    assert events(g, "hold") == []
    assert g.state.players[1].points == 0
    assert g.state.battlefields[0].controller == -1


def test_315_2_b_2_hold_scores_each_controlled_battlefield() -> None:
    g, ids, unit = _temporary_position(SKULKER)
    g.apply({"type": "end_turn"})
    advance_to_main(g, 1)
    holds = events(g, "hold")
    assert [(e["player"], e["loc"]) for e in holds] == [(1, 10)]
    assert g.state.players[1].points == 1
    # the scoring step comes after the Beginning Phase's start and before channeling
    assert at(g, "phase_start", phase="beginning") < at(g, "hold") < at(g, "phase_start", phase="channel")


def test_315_2_b_2_only_the_turn_player_holds() -> None:
    g, ids, unit = _temporary_position(SKULKER)
    # Player 1 controls the battlefield, but it is player 0's turn that begins next.
    g.apply({"type": "end_turn"})
    advance_to_main(g, 0)  # through player 1's turn into player 0's
    holds = events(g, "hold")
    assert all(e["player"] == 1 for e in holds)
    assert g.state.players[0].points == 0


LOOSE_CANNON = "OGN-251"  # legend: at the start of your Beginning Phase, draw 1 if you have <= 1 card


def _loose_cannon_position(hand: int) -> tuple[Game, list[int]]:
    b = Builder(cat())
    bf = b.battlefield(PLAIN_BF, controller=1)
    b.add(1, SKULKER, at=bf)
    b.legend(1, LOOSE_CANNON)
    b.hand(1, [ENFORCER] * hand)
    b.deck(1, [ENFORCER] * 5)
    b.at_turn(0, "main")
    return b.build()


@pytest.mark.parametrize("hand", [1, 5])
def test_315_2_a_1_start_of_beginning_trigger_gives_priority_before_the_hold(hand: int) -> None:
    # Ruling (rulings-faq): Loose Cannon's ability goes on the chain every turn, whatever the hand
    # size, so the opponent can react before the hold is scored.
    g, ids = _loose_cannon_position(hand)
    g.apply({"type": "end_turn"})
    assert g.state.phase == "beginning" and len(g.state.chain) == 1
    g.apply({"type": "pass"})
    d = g.pending_decision()
    assert d.player == 0 and d.kind == "priority"
    assert g.state.players[1].points == 0  # not held yet
    g.apply({"type": "pass"})
    advance_to_main(g, 1)
    # the hand size is checked on resolution: 1 card draws, 5 don't (plus the Draw Phase's card)
    assert len(g.state.players[1].hand) == hand + (1 if hand <= 1 else 0) + 1
    assert g.state.players[1].points == 1
    assert at(g, "trigger") < at(g, "hold")


def test_315_3_b_channel_two_ready_runes() -> None:
    b = Builder(cat())
    rune_ids = b.rune_deck(1, [FURY_RUNE] * 5)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply({"type": "end_turn"})
    advance_to_main(g, 1)
    p = g.state.players[1]
    assert p.runes == [ids[rune_ids[0]], ids[rune_ids[1]]]  # the top two
    assert all(not g.obj(r).exhausted for r in p.runes)
    assert len(p.rune_deck) == 3


def test_315_3_b_487_7_second_player_channels_three_on_first_turn() -> None:
    for seed in (0, 1):
        g = new_game(seed)
        first, second = g.state.turn_order
        keep_all(g)
        advance_to_main(g, first, skip=1)  # first's turn 1, second's turn 1, first's turn 2
        advance_to_main(g, second)  # second's turn 2
        per_turn = turn_events(g)
        channels = [(t[0]["player"], sum(1 for e in t if e["t"] == "channel")) for t in per_turn]
        assert channels[:4] == [(first, 2), (second, 3), (first, 2), (second, 2)]
        assert len(g.state.players[second].runes) == 5


def test_315_4_b_draw_one_in_the_draw_phase() -> None:
    g = new_game(4)
    first, second = g.state.turn_order
    keep_all(g)
    advance_to_main(g, first)
    # Duel: the first player draws on the first turn too
    assert len(g.state.players[first].hand) == 5
    advance_to_main(g, second)
    assert len(g.state.players[second].hand) == 5
    draws = [e for e in turn_events(g)[1] if e["t"] == "draw"]
    assert len(draws) == 1 and draws[0]["player"] == second


def _empty_deck_position(trash: int, opponent_points: int = 0) -> tuple[Game, list[int]]:
    b = Builder(cat())
    b.trash(1, [ENFORCER] * trash)
    b.deck(0, [ENFORCER] * 3)
    b.set_points(0, opponent_points)
    b.at_turn(0, "main")
    return b.build()


def test_432_burn_out_shuffles_trash_into_deck_and_opponent_gains_1() -> None:
    g, ids = _empty_deck_position(trash=5)
    trashed = list(g.state.players[1].trash)
    g.apply({"type": "end_turn"})
    advance_to_main(g, 1)
    p = g.state.players[1]
    assert g.state.players[0].points == 1
    assert len(p.hand) == 1 and len(p.main_deck) == 4 and p.trash == []
    assert sorted(p.hand + p.main_deck) == sorted(trashed)
    burn = events(g, "burn_out")
    assert len(burn) == 1 and burn[0]["player"] == 1
    assert at(g, "burn_out") < at(g, "points") < last_at(g, "draw")


def test_432_drawing_more_than_the_deck_holds_burns_out_in_between() -> None:
    # Meditation with its optional cost paid draws 2; the deck holds 1 card: draw it, burn out
    # (trash into the deck, the opponent gains 1), then draw the second.
    b = Builder(cat())
    unit = b.add(0, SKULKER, at="base")
    meditation = b.hand(0, ["OGN-048"])[0]
    b.runes(0, [FURY_RUNE] * 2)
    top = b.deck(0, [ENFORCER])[0]
    trashed = b.trash(0, [SKULKER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[meditation], "targets": [], "costs": ["exhaust_unit"]}))
    while g.state.chain:
        g.apply({"type": "pass"})
    p = g.state.players[0]
    assert g.obj(ids[unit]).exhausted
    assert len(p.hand) == 2 and ids[top] in p.hand
    assert set(p.hand) - {ids[top]} <= {ids[t] for t in trashed}
    assert len(p.main_deck) == 2
    assert p.trash == [ids[meditation]]
    assert g.state.players[1].points == 1
    draws = [i for i, e in enumerate(g.log) if e["t"] == "draw"]
    assert draws[0] < at(g, "burn_out") < draws[1]


def test_432_burn_out_repeats_while_the_trash_is_empty() -> None:
    g, ids = _empty_deck_position(trash=0, opponent_points=2)
    g.apply({"type": "end_turn"})
    # Nothing to draw after a burn out: burn out again, a point each time, until the opponent wins.
    assert g.over
    assert g.state.winners == [0]
    assert g.state.players[0].points == 8
    assert len(events(g, "burn_out")) == 6


def test_432_3_a_burn_out_point_wins_at_once() -> None:
    g, ids = _empty_deck_position(trash=4, opponent_points=7)
    g.apply({"type": "end_turn"})
    assert g.over and g.state.winners == [0]
    assert g.state.players[0].points == 8
    # at once: the burning-out player never reaches their Main Phase
    assert not [e for e in g.log if e["t"] == "phase_start" and e["phase"] == "main"]
    assert g.pending_decision() is None and g.legal_actions() == []


def test_167_pools_empty_at_end_of_turn() -> None:
    b = Builder(cat())
    runes = b.runes(0, [FURY_RUNE] * 2)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply(complete(g, {"type": "activate", "source": ids[runes[0]], "ability": -1}))
    g.apply(complete(g, {"type": "activate", "source": ids[runes[1]], "ability": -2}))
    p = g.state.players[0]
    assert p.energy == 1 and p.power == {"fury": 1}
    g.apply({"type": "end_turn"})
    assert p.energy == 0 and p.power == {}
    assert at(g, "pool_empty") < at(g, "turn_start")


def test_167_pools_empty_at_the_start_of_the_main_phase() -> None:
    # Player 0 adds energy while player 1's Temporary trigger is on the chain in player 1's
    # Beginning Phase; it is gone when player 1's Main Phase starts.
    b = Builder(cat())
    bf = b.battlefield(PLAIN_BF, controller=1)
    b.add(1, SPRITE, at=bf)
    runes = b.runes(0, [FURY_RUNE] * 2)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply({"type": "end_turn"})
    assert g.state.chain and g.state.phase == "beginning"
    assert g.pending_decision().player == 1
    g.apply({"type": "pass"})
    assert g.pending_decision().player == 0
    g.apply(complete(g, {"type": "activate", "source": ids[runes[0]], "ability": -1}))
    assert g.state.players[0].energy == 1
    advance_to_main(g, 1)
    assert g.state.players[0].energy == 0
    assert g.state.players[0].power == {}


def test_317_1_a_end_of_turn_effects_take_place() -> None:
    b = Builder(cat())
    b.legend(0, DARK_CHILD)
    runes = b.runes(0, [FURY_RUNE] * 3, exhausted=True)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply({"type": "end_turn"})
    # the legend's end-of-turn trigger is on the chain in the ending step
    assert g.state.step == "ending" and len(g.state.chain) == 1
    advance_to_main(g, 1)
    ready = [r for r in runes if not g.obj(ids[r]).exhausted]
    assert len(ready) == 2  # readied by the end-of-turn effect, not by an Awaken of player 0


def test_317_2_b_all_units_heal_at_end_of_turn() -> None:
    b = Builder(cat())
    bf = b.battlefield(PLAIN_BF)
    a = b.add(0, SKULKER, at="base", damage=2)
    c = b.add(1, SKULKER, at=bf, damage=1)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    assert g.obj(ids[a]).damage == 2
    g.apply({"type": "end_turn"})
    assert g.obj(ids[a]).damage == 0 and g.obj(ids[c]).damage == 0
    assert g.state.turn_player == 1


def test_317_2_c_this_turn_effects_expire() -> None:
    from riftscript.core.engine import layers

    b = Builder(cat())
    u = b.add(0, SKULKER, at="base")
    card = b.hand(0, [DISCIPLINE])[0]
    b.runes(0, [FURY_RUNE] * 2)
    b.deck(0, [ENFORCER] * 3)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[card], "targets": [[ids[u]]]}))
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert layers.might(g, ids[u]) == 5
    g.apply({"type": "end_turn"})
    assert layers.might(g, ids[u]) == 3
    assert events(g, "expire")


# ---------------------------------------------------------------------- extra turns (735-738)
def _time_warp_position(copies: int) -> tuple[Game, list[int]]:
    b = Builder(cat())
    warps = b.hand(0, [TIME_WARP] * copies)
    b.runes(0, [MIND_RUNE] * (14 * copies))
    b.deck(0, [ENFORCER] * 10)
    b.deck(1, [ENFORCER] * 10)
    b.at_turn(0, "main")
    g, ids = b.build()
    return g, [ids[w] for w in warps]


def _cast(g: Game, card: int) -> None:
    g.apply(complete(g, {"type": "play", "card": card, "targets": []}))
    while g.state.chain:
        g.apply({"type": "pass"})


def _turn_players(g: Game) -> list[tuple[int, bool]]:
    return [(e["player"], e["extra"]) for e in events(g, "turn_start")]


def test_735_time_warp_extra_turn_after_this_one_then_normal_order() -> None:
    g, (warp,) = _time_warp_position(1)
    _cast(g, warp)
    assert g.obj(warp).zone == "banished"
    advance_to_main(g, 0, skip=1)  # the extra turn
    assert _turn_players(g) == [(0, True)]
    # then player 1 (turn order unchanged), then player 0
    advance_to_main(g, 1)
    advance_to_main(g, 0)
    assert _turn_players(g) == [(0, True), (1, False), (0, False)]


def test_737_two_extra_turns_in_one_turn() -> None:
    g, warps = _time_warp_position(2)
    _cast(g, warps[0])
    _cast(g, warps[1])
    advance_to_main(g, 1)
    advance_to_main(g, 0)
    assert _turn_players(g) == [(0, True), (0, True), (1, False), (0, False)]


def test_738_last_created_extra_turn_is_taken_first() -> None:
    # Player 1 already has an extra turn queued after this one (created earlier this turn);
    # player 0's Time Warp creates another: it is inserted right after the current turn.
    g, (warp,) = _time_warp_position(1)
    g.state.extra_turns.append(1)
    _cast(g, warp)
    advance_to_main(g, 1)      # player 0's extra turn, then player 1's extra turn
    advance_to_main(g, 1, skip=1)  # player 1's normal turn
    advance_to_main(g, 0)
    assert _turn_players(g)[:4] == [(0, True), (1, True), (1, False), (0, False)]


# ---------------------------------------------------------------------- 317.2.f
def _catalog_with_dusk_echo() -> Any:
    """A test-only unit whose trigger fires in the expiration step.

    No printed Origins card triggers there, so this unit is compiled for the test: 'When units
    heal (once each turn), deal 1 damage to me and I get +2 Might this turn.'
    """
    from riftscript.core.script.compiler import Compiler

    catalog = load_catalog()
    card = Compiler(catalog.keywords).compile({
        "code": "TST-001", "name": "Dusk Echo", "type": "unit", "domains": ["fury"],
        "cost": {"energy": 1}, "might": 3,
        "abilities": [{"kind": "triggered", "when": {"event": "heal_all"}, "once_per_turn": True,
                       "effect": {"type": "sequence", "steps": [
                           {"type": "deal_damage", "target": "self", "amount": 1},
                           {"type": "modify_might", "target": "self", "amount": 2, "duration": "this_turn"}]}}],
    }, "TST", "test")
    catalog.cards[card.code] = card
    return catalog


def test_317_2_f_expiration_repeats_after_a_trigger_went_on_the_chain() -> None:
    from riftscript.core.engine import layers

    b = Builder(_catalog_with_dusk_echo())
    u = b.add(0, "TST-001", at="base", damage=1)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply({"type": "end_turn"})
    # the units healed, the trigger is on the chain during the expiration step
    assert g.state.step == "expiration" and len(g.state.chain) == 1
    advance_to_main(g, 1)
    # the damage and the 'this turn' Might it gave were both cleared by the repeated step
    assert g.obj(ids[u]).damage == 0
    assert layers.might(g, ids[u]) == 3
    assert len(events(g, "expiration")) == 2


def test_317_2_f_this_turn_effect_played_during_expiration_still_ends_this_turn() -> None:
    from riftscript.core.engine import layers

    b = Builder(_catalog_with_dusk_echo())
    b.add(0, "TST-001", at="base", damage=1)
    target = b.add(0, SKULKER, at="base")
    card = b.hand(0, [DISCIPLINE])[0]
    b.runes(0, [FURY_RUNE] * 2)
    b.deck(0, [ENFORCER] * 3)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply({"type": "end_turn"})
    assert g.state.step == "expiration" and g.pending_decision().player == 0
    # a Reaction played while the trigger waits on the chain
    g.apply(complete(g, {"type": "play", "card": ids[card], "targets": [[ids[target]]]}))
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert layers.might(g, ids[target]) == 5
    advance_to_main(g, 1)
    assert layers.might(g, ids[target]) == 3
