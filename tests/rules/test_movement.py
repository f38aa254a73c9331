"""Core Rules on movement: the standard move (144), Ganking (810), moves vs recalls (448-460),
where units and gear are played (355.2.a, 149.2) and Hidden (811)."""
from __future__ import annotations

import pytest

from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import IllegalActionError
from riftscript.core.engine.offer import complete
from rules_helpers import events, pass_

SKULKER = "OGN-175"      # unit, 3 Might, no text
SERGEANT = "OGN-219"     # unit, 4 Might, no text
MEGA_MECH = "OGN-088"    # unit, 8 Might, no text
VI = "OGN-036"           # unit with Ganking
MERCHANT = "OGN-185"     # Traveling Merchant: "when I move" discard 1, draw 1
ENERGY_CONDUIT = "OGN-098"  # gear
PAKAA_CUB = "OGN-135"    # unit with Hidden
HIDDEN_BLADE = "OGN-213"  # spell with Hidden and Action that kills a unit at a battlefield
HEXTECH_RAY = "OGN-009"  # Action spell: 3 damage to a unit at a battlefield
STUPEFY = "OGN-095"      # Reaction spell: -1 Might (minimum 1), draw 1
CHARM = "OGN-043"        # spell: move an enemy unit to a location you choose
GROVE = "OGN-280"        # battlefield with only a hold trigger
PLAZA = "OGN-293"        # battlefield with only a hold trigger
HILLOCK = "OGN-297"      # battlefield: units here have Ganking
LAIR = "OGN-295"         # battlefield: units here can't move to base
FURY, CALM, MIND, BODY, ORDER = "OGN-007", "OGN-042", "OGN-089", "OGN-126", "OGN-214"
FILLER = ["OGN-175"] * 6


def finish_showdown(g):
    """Everyone passes until the showdown (and its chains) are over; first options elsewhere."""
    for _ in range(40):
        d = g.pending_decision()
        if d is None or (g.state.showdown is None and not g.state.chain and d.kind == "priority"):
            return
        if d.kind == "priority":
            pass_(g)
        else:
            g.apply(g.legal_actions()[0])
    raise AssertionError("showdown did not end")


def position(cat, players=2, **bfs):
    b = Builder(cat, players=players)
    for p in range(players):
        b.deck(p, FILLER)
    b.at_turn(0, "main")
    return b


# ---------------------------------------------------------------------- the standard move (144)
def test_144_4_a_and_144_2_move_base_to_battlefield_exhausting_the_unit(cat):
    b = position(cat)
    grove = b.battlefield(GROVE)
    u = b.add(0, SKULKER, exhausted=False)
    g, ids = b.build()
    assert {"type": "move", "units": [ids[u]], "to": grove} in g.legal_actions()
    g.apply(complete(g, {"type": "move", "units": [ids[u]], "to": grove}))
    assert g.obj(ids[u]).loc == grove
    assert g.obj(ids[u]).exhausted  # 144.2: exhausting is the cost


def test_144_2_an_exhausted_unit_cant_make_a_standard_move(cat):
    b = position(cat)
    grove = b.battlefield(GROVE)
    u = b.add(0, SKULKER, exhausted=True)
    g, ids = b.build()
    assert not any(a["type"] == "move" for a in g.legal_actions())
    before = g.to_json()
    with pytest.raises(IllegalActionError) as err:
        g.apply(complete(g, {"type": "move", "units": [ids[u]], "to": grove}))
    assert err.value.rule == "144.2"
    assert g.to_json() == before


def test_144_4_b_move_battlefield_to_base(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    u = b.add(0, SKULKER, at=grove, exhausted=False)
    other = b.add(0, SERGEANT, at=grove)  # keeps the battlefield occupied
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[u]], "to": 0}))
    assert g.obj(ids[u]).loc == 0 and g.obj(ids[u]).exhausted
    assert g.state.showdown is None


def test_144_4_no_standard_move_to_another_players_base(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    u = b.add(0, SKULKER, at=grove, exhausted=False)
    g, ids = b.build()
    assert {"type": "move", "units": [ids[u]], "to": 1} not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.apply(complete(g, {"type": "move", "units": [ids[u]], "to": 1}))
    assert g.obj(ids[u]).loc == grove


def test_144_4_c_no_battlefield_to_battlefield_move_without_ganking(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    plaza = b.battlefield(PLAZA)
    u = b.add(0, SKULKER, at=grove, exhausted=False)
    g, ids = b.build()
    assert {"type": "move", "units": [ids[u]], "to": plaza} not in g.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        g.apply(complete(g, {"type": "move", "units": [ids[u]], "to": plaza}))
    assert err.value.rule == "144.4.c"
    assert g.obj(ids[u]).loc == grove and not g.obj(ids[u]).exhausted


def test_810_ganking_moves_battlefield_to_battlefield(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    plaza = b.battlefield(PLAZA)
    vi = b.add(0, VI, at=grove, exhausted=False)
    g, ids = b.build()
    assert {"type": "move", "units": [ids[vi]], "to": plaza} in g.legal_actions()
    g.apply(complete(g, {"type": "move", "units": [ids[vi]], "to": plaza}))
    assert g.obj(ids[vi]).loc == plaza and g.obj(ids[vi]).exhausted


def test_810_ganking_granted_by_a_battlefield(cat):
    """Windswept Hillock gives Ganking to units there: a vanilla unit may leave it for another
    battlefield."""
    b = position(cat)
    hill = b.battlefield(HILLOCK, controller=0)
    plaza = b.battlefield(PLAZA)
    u = b.add(0, SKULKER, at=hill, exhausted=False)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[u]], "to": plaza}))
    assert g.obj(ids[u]).loc == plaza


def test_144_3_several_units_from_different_places_move_as_one_move(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    plaza = b.battlefield(PLAZA)
    a = b.add(0, SKULKER, exhausted=False)            # from base
    vi = b.add(0, VI, at=grove, exhausted=False)     # from a battlefield (Ganking)
    keep = b.add(0, SERGEANT, at=grove)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a], ids[vi]], "to": plaza}))
    assert g.obj(ids[a]).loc == plaza and g.obj(ids[vi]).loc == plaza
    assert g.obj(ids[a]).exhausted and g.obj(ids[vi]).exhausted
    assert len(events(g, "standard_move")) == 1
    assert len(events(g, "showdown_start")) == 1  # one contest, one showdown


def test_144_1_a_the_standard_move_only_in_your_own_main_phase(cat):
    """On P0's turn P1 holds priority while P0's spell waits; P1 still can't move."""
    b = position(cat)
    grove = b.battlefield(GROVE)
    plaza = b.battlefield(PLAZA, controller=1)
    target = b.add(1, SERGEANT, at=plaza)
    p1_unit = b.add(1, SKULKER, exhausted=False)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[ray], "targets": [[ids[target]]]}))
    pass_(g)
    assert g.pending_decision().player == 1
    assert not any(a["type"] == "move" for a in g.legal_actions())
    with pytest.raises(IllegalActionError) as err:
        g.apply(complete(g, {"type": "move", "units": [ids[p1_unit]], "to": grove}))
    assert err.value.rule == "144.1.a"


def test_144_1_c_no_standard_move_during_a_showdown(cat):
    b = position(cat)
    grove = b.battlefield(GROVE)
    plaza = b.battlefield(PLAZA)
    a = b.add(0, SKULKER, exhausted=False)
    c = b.add(0, SERGEANT, exhausted=False)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a]], "to": grove}))
    assert g.state.showdown is not None and g.pending_decision().player == 0
    assert not any(a_["type"] == "move" for a_ in g.legal_actions())
    with pytest.raises(IllegalActionError) as err:
        g.apply(complete(g, {"type": "move", "units": [ids[c]], "to": plaza}))
    assert err.value.rule == "144.1.c"
    assert g.obj(ids[c]).loc == 0


def test_448_3_c_a_move_doesnt_use_the_chain_and_cant_be_responded_to(cat):
    """The opponent, holding a Reaction, gets no priority between the move and the showdown."""
    b = position(cat)
    grove = b.battlefield(GROVE)
    u = b.add(0, SKULKER, exhausted=False)
    b.hand(1, [STUPEFY])
    b.runes(1, [MIND] * 2)
    g, ids = b.build()
    n = len(g.log)
    g.apply(complete(g, {"type": "move", "units": [ids[u]], "to": grove}))
    new = [e["t"] for e in g.log[n:]]
    assert "finalize" not in new and "pass" not in new
    assert not g.state.chain
    assert g.obj(ids[u]).loc == grove  # done before anyone could act
    d = g.pending_decision()
    assert d.player == 0 and g.state.showdown is not None  # P0 acts first, with focus


def test_451_2_no_move_to_a_battlefield_holding_units_of_two_other_players(cat):
    b = position(cat, players=3)
    grove = b.battlefield(GROVE)
    b.add(1, SKULKER, at=grove)
    b.add(2, SKULKER, at=grove)
    u = b.add(0, SERGEANT, exhausted=False)
    g, ids = b.build()
    assert {"type": "move", "units": [ids[u]], "to": grove} not in g.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        g.apply(complete(g, {"type": "move", "units": [ids[u]], "to": grove}))
    assert err.value.rule == "451.2"
    assert g.obj(ids[u]).loc == 0


def test_449_2_c_an_effect_moving_a_unit_where_it_cant_go_recalls_it_instead(cat):
    """Three players. P0 Charms P1's Sergeant towards the Grove (P0 controls it; only P2's unit
    is there, so P1's unit may go). In response P0 plays a unit hidden at the Grove, so the
    Grove now holds units of P0 and P2: when Charm resolves, P1's unit can't go there
    (451.2) and is recalled to P1's base instead."""
    b = position(cat, players=3)
    grove = b.battlefield(GROVE, controller=0)
    plaza = b.battlefield(PLAZA, controller=1)
    b.add(2, SKULKER, at=grove)
    victim = b.add(1, SERGEANT, at=plaza)
    b.add(1, SKULKER, at=plaza)  # P1 keeps the Plaza occupied
    cub = b.add(0, PAKAA_CUB, zone="facedown", at=grove)
    charm = b.hand(0, [CHARM])[0]
    b.runes(0, [CALM] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[charm], "targets": [[ids[victim]], [grove]]}))
    g.apply(complete(g, {"type": "play", "card": ids[cub], "location": grove}))  # Reaction timing from Hidden
    assert g.obj(ids[cub]).loc == grove and len(g.state.chain) == 1
    for _ in range(3):
        pass_(g)
    assert not g.state.chain
    assert g.obj(ids[victim]).loc == 1
    assert events(g, "recall", obj=ids[victim])
    assert not events(g, "move", obj=ids[victim])


def test_451_2_a_move_effect_cant_choose_a_battlefield_holding_two_other_players_units(cat):
    """Patch Notes (Oct 2025): destinations are chosen as the card is played and must be valid;
    no move may take units to a battlefield with units of two other players (451.2)."""
    b = position(cat, players=3)
    grove = b.battlefield(GROVE)
    plaza = b.battlefield(PLAZA, controller=1)
    b.add(0, SKULKER, at=grove)
    b.add(2, SKULKER, at=grove)
    victim = b.add(1, SERGEANT, at=plaza)
    charm = b.hand(0, [CHARM])[0]
    b.runes(0, [CALM] * 2)
    g, ids = b.build()
    assert not any(a.get("card") == ids[charm] and a["targets"][1] == [grove] for a in g.legal_actions())
    with pytest.raises(IllegalActionError):
        g.apply(complete(g, {"type": "play", "card": ids[charm], "targets": [[ids[victim]], [grove]]}))


def test_451_1_a_move_destination_must_differ_from_where_the_unit_is(cat):
    """movement.md (451, 451.1, 355.4): you choose the destination as you play the card, and it
    must be somewhere other than where the units are."""
    b = position(cat)
    grove = b.battlefield(GROVE)
    plaza = b.battlefield(PLAZA, controller=1)
    victim = b.add(1, SERGEANT, at=plaza)
    charm = b.hand(0, [CHARM])[0]
    b.runes(0, [CALM] * 2)
    g, ids = b.build()
    assert not any(a.get("card") == ids[charm] and a["targets"][1] == [plaza] for a in g.legal_actions())
    with pytest.raises(IllegalActionError):
        g.apply(complete(g, {"type": "play", "card": ids[charm], "targets": [[ids[victim]], [plaza]]}))


# ---------------------------------------------------------------------- recalls (457)
def test_457_a_recall_is_not_a_move_no_move_trigger(cat):
    """Traveling Merchant attacks a stunned Sergeant; both survive, so the Merchant is recalled.
    Its 'when I move' ability triggered for the move in, but not for the recall."""
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    merchant = b.add(0, MERCHANT, exhausted=False)
    b.hand(0, [SKULKER, SKULKER])
    b.add(1, SERGEANT, at=plaza, stunned=True)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[merchant]], "to": plaza}))
    finish_showdown(g)
    assert g.obj(ids[merchant]).loc == 0
    assert events(g, "recall", obj=ids[merchant])
    assert len(events(g, "move", obj=ids[merchant])) == 1
    assert len(events(g, "trigger", obj=ids[merchant])) == 1


def test_457_recall_ignores_a_restriction_on_moving_to_base(cat):
    """Units at Vilemaw's Lair can't move to base, but attackers are still recalled from it."""
    b = position(cat)
    lair = b.battlefield(LAIR, controller=1)
    attacker = b.add(0, SKULKER, exhausted=False)
    b.add(1, SERGEANT, at=lair, stunned=True)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[attacker]], "to": lair}))
    finish_showdown(g)
    assert g.obj(ids[attacker]).loc == 0
    assert events(g, "recall", obj=ids[attacker])
    assert g.obj(ids[attacker]).exhausted  # a recall doesn't change the unit's state


def test_lair_stops_the_standard_move_to_base(cat):
    """The restriction itself: a standard move from the Lair to base is refused (144.4.b as
    limited by the battlefield's text)."""
    b = position(cat)
    lair = b.battlefield(LAIR, controller=0)
    u = b.add(0, SKULKER, at=lair, exhausted=False)
    g, ids = b.build()
    with pytest.raises(IllegalActionError):
        g.apply(complete(g, {"type": "move", "units": [ids[u]], "to": 0}))
    assert g.obj(ids[u]).loc == lair


# ---------------------------------------------------------------------- where things are played
def test_355_2_a_units_are_played_to_base_or_a_battlefield_you_control(cat):
    b = position(cat)
    mine = b.battlefield(GROVE, controller=0)
    open_ = b.battlefield(PLAZA)
    theirs = b.battlefield(HILLOCK, controller=1)
    b.add(0, SERGEANT, at=mine)
    b.add(1, SERGEANT, at=theirs)
    unit = b.hand(0, [SKULKER])[0]
    b.runes(0, [FURY] * 3)
    g, ids = b.build()
    locations = {a.get("location") for a in g.legal_actions() if a.get("card") == ids[unit]}
    assert locations == {0, mine}
    for bad in (open_, theirs, 1):
        with pytest.raises(IllegalActionError) as err:
            g.apply(complete(g, {"type": "play", "card": ids[unit], "location": bad}))
        assert err.value.rule == "355.2.a"
        assert g.obj(ids[unit]).zone == "hand"
    g.apply(complete(g, {"type": "play", "card": ids[unit], "location": mine}))
    assert g.obj(ids[unit]).zone == "board" and g.obj(ids[unit]).loc == mine


def test_149_2_gear_is_played_to_your_base(cat):
    b = position(cat)
    mine = b.battlefield(GROVE, controller=0)
    b.add(0, SERGEANT, at=mine)
    gear = b.hand(0, [ENERGY_CONDUIT])[0]
    b.runes(0, [MIND] * 3)
    g, ids = b.build()
    locations = {a.get("location") for a in g.legal_actions() if a.get("card") == ids[gear]}
    assert locations == {0}
    with pytest.raises(IllegalActionError):
        g.apply(complete(g, {"type": "play", "card": ids[gear], "location": mine}))
    g.apply(complete(g, {"type": "play", "card": ids[gear]}))
    assert g.obj(ids[gear]).zone == "board" and g.obj(ids[gear]).loc == 0


# ---------------------------------------------------------------------- Hidden (811)
def test_811_hide_for_one_power_at_a_battlefield_you_control_not_playable_this_turn(cat):
    b = position(cat)
    mine = b.battlefield(GROVE, controller=0)
    open_ = b.battlefield(PLAZA)
    b.add(0, SERGEANT, at=mine)
    cub = b.hand(0, [PAKAA_CUB])[0]
    runes = b.runes(0, [ORDER])
    g, ids = b.build()
    assert {"type": "hide", "card": ids[cub], "battlefield": mine} in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.apply(complete(g, {"type": "hide", "card": ids[cub], "battlefield": open_}))  # not controlled
    g.apply(complete(g, {"type": "hide", "card": ids[cub], "battlefield": mine}))
    assert g.obj(ids[cub]).zone == "facedown" and g.bf_at(mine).facedown == [ids[cub]]
    assert g.obj(ids[runes[0]]).zone == "rune_deck"  # the power came from recycling the rune
    assert not g.state.chain  # hiding is not playing: nothing to respond to
    assert all(a.get("card") != ids[cub] for a in g.legal_actions())
    with pytest.raises(IllegalActionError) as err:
        g.apply(complete(g, {"type": "play", "card": ids[cub], "location": mine}))
    assert err.value.rule == "811.1.c"


def test_811_a_hidden_card_can_be_played_from_the_next_turn_even_on_the_opponents(cat):
    """P0 hides a Hidden Blade on turn 3; on P1's turn 4, while P1's spell waits, P0 may play it
    (Reaction timing, no cost)."""
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    plaza = b.battlefield(PLAZA, controller=1)
    mine = b.add(0, SERGEANT, at=grove)
    raider = b.add(1, SKULKER, at=grove)
    blade = b.hand(0, [HIDDEN_BLADE])[0]
    b.runes(0, [ORDER])
    stupefy = b.hand(1, [STUPEFY])[0]
    b.runes(1, [MIND] * 2)
    b.rune_deck(1, [MIND] * 4)
    g, ids = b.build()
    g.apply(complete(g, {"type": "hide", "card": ids[blade], "battlefield": grove}))
    g.apply({"type": "end_turn"})
    for _ in range(20):
        d = g.pending_decision()
        if d.kind == "priority" and d.player == 1 and d.prompt.startswith("Main Phase"):
            break
        g.apply(g.legal_actions()[0] if d.kind != "priority" else {"type": "pass"})
    assert g.state.turn_player == 1
    g.apply(complete(g, {"type": "play", "card": ids[stupefy], "targets": [[ids[mine]]]}))
    g.apply({"type": "pass"})
    assert g.pending_decision().player == 0
    assert any(a.get("card") == ids[blade] for a in g.legal_actions())
    g.apply(complete(g, {"type": "play", "card": ids[blade], "targets": [[ids[raider]]]}))
    assert g.obj(ids[blade]).zone == "chain"


def test_811_hide_needs_one_power(cat):
    b = position(cat)
    mine = b.battlefield(GROVE, controller=0)
    b.add(0, SERGEANT, at=mine)
    cub = b.hand(0, [PAKAA_CUB])[0]
    g, ids = b.build()
    with pytest.raises(IllegalActionError):
        g.apply(complete(g, {"type": "hide", "card": ids[cub], "battlefield": mine}))
    assert g.obj(ids[cub]).zone == "hand"


def test_811_hidden_spell_played_later_for_0_with_reaction_timing_targets_only_there(cat):
    """On P1's turn, while P1's spell waits on the chain, P0 plays a Hidden Blade hidden at
    the Grove for no cost; it may only target a unit at the Grove."""
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    plaza = b.battlefield(PLAZA, controller=1)
    mine = b.add(0, SERGEANT, at=grove)
    raider = b.add(1, SKULKER, at=grove)
    elsewhere = b.add(1, SERGEANT, at=plaza)
    blade = b.add(0, HIDDEN_BLADE, zone="facedown", at=grove)
    ray = b.hand(1, [HEXTECH_RAY])[0]
    b.runes(1, [FURY] * 2)
    b.at_turn(1, "main")
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[ray], "targets": [[ids[mine]]]}))
    pass_(g)
    assert g.pending_decision().player == 0
    plays = [a for a in g.legal_actions() if a.get("card") == ids[blade]]
    assert plays and all(a["targets"] in ([[ids[raider]]], [[ids[mine]]]) for a in plays)
    with pytest.raises(IllegalActionError) as err:
        g.apply(complete(g, {"type": "play", "card": ids[blade], "targets": [[ids[elsewhere]]]}))
    assert err.value.rule == "811.1.d"
    g.apply(complete(g, {"type": "play", "card": ids[blade], "targets": [[ids[raider]]]}))  # no runes: costs 0
    pass_(g, 2)
    assert g.obj(ids[raider]).zone == "trash"


def test_811_hidden_unit_is_played_to_its_battlefield(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    b.add(0, SERGEANT, at=grove)
    cub = b.add(0, PAKAA_CUB, zone="facedown", at=grove)
    g, ids = b.build()
    plays = [a for a in g.legal_actions() if a.get("card") == ids[cub]]
    assert plays and {a.get("location") for a in plays} == {grove}
    with pytest.raises(IllegalActionError):
        g.apply(complete(g, {"type": "play", "card": ids[cub], "location": 0}))
    g.apply(complete(g, {"type": "play", "card": ids[cub], "location": grove}))
    assert g.obj(ids[cub]).zone == "board" and g.obj(ids[cub]).loc == grove
    assert not g.bf_at(grove).facedown


# ---------------------------------------------------------------------- keywords with no installed card
# Ambush (822) has Unleashed cards now: their scenarios (sets/unleashed/scenarios) prove it.
@pytest.mark.parametrize("keyword,rule", [("deploy", "830")])
def test_830_deploy_has_no_card_in_this_card_pool(cat, keyword, rule):
    cards = [c.code for c in cat.cards.values() if any(k == keyword for k, _ in c.keywords)]
    if not cards:
        pytest.skip(f"no Origins/Proving Grounds card has {keyword} ({rule}); nothing to test")
    raise AssertionError(f"{keyword} cards now exist ({cards}); write a test for rule {rule}")
