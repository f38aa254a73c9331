"""Core Rules on showdowns and combat (316.7-316.8, 462-468, 807/814/815/826)."""
from __future__ import annotations

import pytest

from riftscript.core.engine import layers
from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import IllegalActionError
from riftscript.core.engine.offer import complete
from rules_helpers import events, pass_

SKULKER = "OGN-175"      # unit, 3 Might, no text
SERGEANT = "OGN-219"     # unit, 4 Might, no text
MEGA_MECH = "OGN-088"    # unit, 8 Might, no text
REARGUARD = "OGN-010"    # Legion Rearguard: unit, 2 Might
PETTY_OFFICER = "OGN-215"  # unit, 5 Might, Assault
SUNLIT_GUARDIAN = "OGN-054"  # unit, 3 Might, Shield, Tank
STALWART_PORO = "OGN-052"    # unit, 2 Might, Shield
CAITLYN = "OGN-068"      # Caitlyn, Patrolling: 3 Might, must be assigned combat damage last
CORSAIR = "OGN-130"      # Crackshot Corsair: 3 Might, an attack trigger, 1 damage to an enemy there
RIDE_THE_WIND = "OGN-173"  # Action spell: move a friendly unit to a location you choose, ready it
FLASH = "OGS-011"        # Reaction spell: sends at most two friendly units back to base
CLEAVE = "OGN-004"       # Action spell: a unit gets Assault 3 this turn
GROVE = "OGN-280"        # battlefield with only a hold trigger
PLAZA = "OGN-293"        # battlefield with only a hold trigger
CHAOS, FURY = "OGN-166", "OGN-007"
FILLER = ["OGN-175"] * 6


def pass_until_not_priority(g, limit=20):
    """Pass priority/focus until something other than a priority decision (or nothing) is asked,
    or the showdown is over."""
    for _ in range(limit):
        d = g.pending_decision()
        if d is None or d.kind != "priority" or (g.state.showdown is None and not g.state.chain):
            return d
        pass_(g)
    raise AssertionError("still passing")


def position(cat, players=2):
    b = Builder(cat, players=players)
    for p in range(players):
        b.deck(p, FILLER)
    b.at_turn(0, "main")
    return b


def assign(g, **by_id):
    g.apply(complete(g, {"type": "assign", "damage": {str(k): v for k, v in by_id.items()}}))


def options_as_dicts(d):
    return [{int(k): v for k, v in o["value"].items()} for o in d.options]


# ---------------------------------------------------------------------- showdowns (316.8)
def test_316_8_moving_to_an_empty_battlefield_starts_a_non_combat_showdown_then_conquer(cat):
    b = position(cat)
    grove = b.battlefield(GROVE)
    u = b.add(0, SKULKER, exhausted=False)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[u]], "to": grove}))
    sd = g.state.showdown
    assert sd is not None and sd.bf == grove and not sd.combat
    assert not events(g, "combat_start")
    pass_(g, 2)
    assert g.state.showdown is None
    assert g.bf_at(grove).controller == 0
    assert events(g, "conquer", player=0, loc=grove)
    assert g.state.players[0].points == 1


def test_316_8_b_a_non_combat_showdown_becomes_a_combat_when_another_players_units_arrive(cat):
    """P0 moves into the empty Grove; P1, with focus, plays Ride the Wind to bring a Sergeant in.
    The showdown becomes a combat: P0 (who contested) attacks, P1 defends and wins."""
    b = position(cat)
    grove = b.battlefield(GROVE)
    mine = b.add(0, SKULKER, exhausted=False)
    theirs = b.add(1, SERGEANT)
    ride = b.hand(1, [RIDE_THE_WIND])[0]
    b.runes(1, [CHAOS] * 3)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mine]], "to": grove}))
    pass_(g)  # P0 passes focus
    g.apply(complete(g, {"type": "play", "card": ids[ride], "targets": [[ids[theirs]], [grove]]}))
    pass_(g, 2)
    assert g.obj(ids[theirs]).loc == grove
    sd = g.state.showdown
    assert sd is not None and sd.combat
    assert (sd.attacker, sd.defender) == (0, 1)
    assert events(g, "combat_start", attacker=0, defender=1)
    pass_until_not_priority(g)
    assert g.obj(ids[mine]).zone == "trash"  # 4 damage to the 3-Might Skulker
    assert g.obj(ids[theirs]).loc == grove and g.obj(ids[theirs]).damage == 0  # healed
    assert g.bf_at(grove).controller == 1
    assert events(g, "combat_end", winner=1)


# ---------------------------------------------------------------------- combat (316.7.a, 466.2.c)
def test_316_7_a_and_466_2_c_moving_onto_enemy_units_starts_a_combat_mover_attacks(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    mine = b.add(0, SKULKER, exhausted=False)
    theirs = b.add(1, SERGEANT, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mine]], "to": plaza}))
    sd = g.state.showdown
    assert sd is not None and sd.combat and sd.bf == plaza
    assert sd.attacker == 0 and sd.defender == 1  # 466.2.c.1 / 466.2.c.2
    assert g.obj(ids[mine]).designation == "attacker"
    assert g.obj(ids[theirs]).designation == "defender"
    assert sd.focus == 0


def test_466_2_c_the_defender_need_not_control_the_battlefield(cat):
    """P1's unit sits at an uncontrolled battlefield; P0 moving in still attacks, P1 defends."""
    b = position(cat)
    grove = b.battlefield(GROVE)
    mine = b.add(0, MEGA_MECH, exhausted=False)
    theirs = b.add(1, SKULKER, at=grove)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mine]], "to": grove}))
    sd = g.state.showdown
    assert sd.combat and (sd.attacker, sd.defender) == (0, 1)


def test_467_2_no_combat_damage_until_the_showdown_closes(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    mine = b.add(0, MEGA_MECH, exhausted=False)
    theirs = b.add(1, SERGEANT, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mine]], "to": plaza}))
    pass_(g)
    assert g.state.showdown is not None
    assert g.obj(ids[theirs]).damage == 0 and g.obj(ids[mine]).damage == 0
    assert not events(g, "combat_damage")
    pass_(g)
    assert events(g, "combat_damage")
    assert g.obj(ids[theirs]).zone == "trash"


def test_467_2_b_stunned_units_add_no_might(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    mech = b.add(0, MEGA_MECH, exhausted=False)
    stunned = b.add(1, SERGEANT, at=plaza, stunned=True)
    other = b.add(1, SKULKER, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mech]], "to": plaza}))
    pass_until_not_priority(g)
    d = g.pending_decision()
    while d is not None and d.kind == "assign":
        g.apply(g.legal_actions()[0])
        d = g.pending_decision()
    hits = events(g, "damaged", obj=ids[mech])
    assert [e["amount"] for e in hits] == [3]  # only the Skulker's 3; the stunned Sergeant adds 0


def test_467_2_c_attacker_assigns_first_and_all_damage_is_dealt_at_once(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    mech = b.add(0, MEGA_MECH, exhausted=False)
    sgt = b.add(0, SERGEANT, exhausted=False)
    d1 = b.add(1, SKULKER, at=plaza)
    d2 = b.add(1, SKULKER, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mech], ids[sgt]], "to": plaza}))
    d = pass_until_not_priority(g)
    assert d.kind == "assign" and d.player == 0  # the attacker first
    assert d.context["total"] == 12
    assign(g, **{str(ids[d1]): 3, str(ids[d2]): 9})
    d = g.pending_decision()
    assert d.kind == "assign" and d.player == 1 and d.context["total"] == 6
    assert g.obj(ids[d1]).damage == 0 and g.obj(ids[d2]).damage == 0  # nothing dealt yet
    assign(g, **{str(ids[sgt]): 4, str(ids[mech]): 2})
    dealt = [e for e in events(g, "damaged")]
    assert {e["obj"] for e in dealt} == {ids[d1], ids[d2], ids[sgt], ids[mech]}
    assert len(events(g, "combat_damage")) == 1
    # everyone was dealt damage before anyone died: both defenders and the Sergeant die
    assert g.obj(ids[d1]).zone == "trash" and g.obj(ids[d2]).zone == "trash"
    assert g.obj(ids[sgt]).zone == "trash" and g.obj(ids[mech]).zone == "board"


def test_467_2_c_3_lethal_in_full_before_the_next_unit(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    a1 = b.add(0, SKULKER, exhausted=False)
    a2 = b.add(0, SKULKER, exhausted=False)
    d1 = b.add(1, SERGEANT, at=plaza)
    d2 = b.add(1, SERGEANT, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a1], ids[a2]], "to": plaza}))
    d = pass_until_not_priority(g)
    assert d.kind == "assign" and d.player == 0 and d.context["total"] == 6
    assert sorted(sorted(o.values()) for o in options_as_dicts(d)) == [[2, 4], [2, 4]]
    before = g.to_json()
    with pytest.raises(IllegalActionError) as err:
        assign(g, **{str(ids[d1]): 3, str(ids[d2]): 3})
    assert err.value.rule == "467.2.c.3"
    with pytest.raises(IllegalActionError) as err:
        assign(g, **{str(ids[d1]): 5, str(ids[d2]): 1})  # more than lethal while another lacks it
    assert err.value.rule == "467.2.c.4"
    assert g.to_json() == before
    assign(g, **{str(ids[d1]): 4, str(ids[d2]): 2})
    while g.pending_decision() is not None and g.pending_decision().kind == "assign":
        g.apply(g.legal_actions()[0])
    assert g.obj(ids[d1]).zone == "trash" and g.obj(ids[d2]).zone == "board"


def test_467_2_c_3_prior_damage_counts_toward_lethal(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    a = b.add(0, SKULKER, exhausted=False)
    hurt = b.add(1, SERGEANT, at=plaza, damage=3)
    fresh = b.add(1, SERGEANT, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a]], "to": plaza}))
    d = pass_until_not_priority(g)
    assert d.kind == "assign"
    # 1 is lethal for the hurt Sergeant, so 1 + 2 is legal
    assert {ids[hurt]: 1, ids[fresh]: 2} in options_as_dicts(d)
    assign(g, **{str(ids[hurt]): 1, str(ids[fresh]): 2})
    assert g.obj(ids[hurt]).zone == "trash"


def test_815_tank_units_must_be_assigned_lethal_first(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    a1 = b.add(0, SKULKER, exhausted=False)
    a2 = b.add(0, SKULKER, exhausted=False)
    tank = b.add(1, SUNLIT_GUARDIAN, at=plaza)  # 3 Might + Shield as a defender = 4
    other = b.add(1, SERGEANT, at=plaza)
    third = b.add(1, SERGEANT, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a1], ids[a2]], "to": plaza}))
    d = pass_until_not_priority(g)
    assert d.kind == "assign" and d.player == 0 and d.context["total"] == 6
    assert all(o[ids[tank]] == 4 for o in options_as_dicts(d))
    before = g.to_json()
    with pytest.raises(IllegalActionError) as err:
        assign(g, **{str(ids[other]): 4, str(ids[tank]): 2})
    assert err.value.rule == "815.1.b"
    assert g.to_json() == before
    assign(g, **{str(ids[tank]): 4, str(ids[other]): 2})
    while g.pending_decision() is not None and g.pending_decision().kind == "assign":
        g.apply(g.legal_actions()[0])
    assert g.obj(ids[tank]).zone == "trash" and g.obj(ids[other]).zone == "board"


def test_826_assigned_last_caitlyn_gets_damage_only_after_the_others_have_lethal(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    a1 = b.add(0, SKULKER, exhausted=False)
    a2 = b.add(0, SKULKER, exhausted=False)
    cait = b.add(1, CAITLYN, at=plaza)
    other = b.add(1, SERGEANT, at=plaza)
    third = b.add(1, SERGEANT, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a1], ids[a2]], "to": plaza}))
    d = pass_until_not_priority(g)
    assert d.kind == "assign" and d.player == 0 and d.context["total"] == 6
    assert all(o[ids[cait]] == 0 for o in options_as_dicts(d))
    with pytest.raises(IllegalActionError) as err:
        assign(g, **{str(ids[cait]): 3, str(ids[other]): 3})
    assert err.value.rule == "826.3"
    assign(g, **{str(ids[other]): 4, str(ids[third]): 2})
    while g.pending_decision() is not None and g.pending_decision().kind == "assign":
        g.apply(g.legal_actions()[0])
    assert g.obj(ids[other]).zone == "trash" and g.obj(ids[cait]).zone == "board"


# ---------------------------------------------------------------------- combat cleanup (468)
def test_468_1_a_1_and_468_1_a_2_survivors_heal_and_attackers_are_recalled_if_both_sides_remain(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    a = b.add(0, SKULKER, exhausted=False)
    d = b.add(1, SERGEANT, at=plaza, stunned=True)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a]], "to": plaza}))
    pass_until_not_priority(g)
    assert events(g, "damaged", obj=ids[d])  # it was dealt 3 ...
    assert g.obj(ids[d]).damage == 0  # ... and healed in the combat cleanup
    assert g.obj(ids[a]).loc == 0 and events(g, "recall", obj=ids[a])
    assert g.obj(ids[d]).loc == plaza
    assert g.bf_at(plaza).controller == 1
    end = events(g, "combat_end")[-1]
    assert end["result"] == "no result" and end["winner"] == -1  # 468.3.d
    assert not events(g, "conquer")


def test_468_5_active_defense_tie_the_defender_stays_and_conquers(cat):
    """rulings-faq (active defense): P0 contests the empty Grove; P1 brings a stunned Mega-Mech
    in with Ride the Wind. Both sides survive: P0's attacker is recalled, and P1, the only player
    left there, establishes control of the uncontrolled Grove: a conquer on P0's turn."""
    b = position(cat)
    grove = b.battlefield(GROVE)
    mine = b.add(0, SKULKER, exhausted=False)
    theirs = b.add(1, MEGA_MECH, stunned=True)
    ride = b.hand(1, [RIDE_THE_WIND])[0]
    b.runes(1, [CHAOS] * 3)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mine]], "to": grove}))
    pass_(g)
    g.apply(complete(g, {"type": "play", "card": ids[ride], "targets": [[ids[theirs]], [grove]]}))
    pass_(g, 2)
    assert g.state.showdown.combat and g.state.showdown.defender == 1
    pass_until_not_priority(g)
    assert g.obj(ids[mine]).loc == 0 and g.obj(ids[theirs]).loc == grove
    assert events(g, "combat_end")[-1]["result"] == "no result"
    assert g.bf_at(grove).controller == 1
    assert events(g, "conquer", player=1, loc=grove)


def test_468_3_d_no_result_and_uncontrolled_when_no_units_remain(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    a = b.add(0, SERGEANT, exhausted=False)
    d = b.add(1, SERGEANT, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a]], "to": plaza}))
    pass_until_not_priority(g)
    assert g.obj(ids[a]).zone == "trash" and g.obj(ids[d]).zone == "trash"
    end = events(g, "combat_end")[-1]
    assert end["result"] == "no result"
    assert g.bf_at(plaza).controller == -1
    assert not events(g, "conquer")


def test_468_3_a_and_468_5_d_the_attacker_wins_and_conquers(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    a = b.add(0, MEGA_MECH, exhausted=False)
    d = b.add(1, SERGEANT, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a]], "to": plaza}))
    pass_until_not_priority(g)
    end = events(g, "combat_end")[-1]
    assert end["result"] == "win" and end["winner"] == 0
    assert g.bf_at(plaza).controller == 0
    assert events(g, "conquer", player=0, loc=plaza)
    assert g.state.players[0].points == 1
    assert g.obj(ids[a]).damage == 0  # healed


def test_468_5_d_establishing_control_again_the_same_turn_is_not_a_conquer(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    a = b.add(0, MEGA_MECH, exhausted=False)
    b.add(1, SERGEANT, at=plaza)
    b.scored_this_turn(0, plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a]], "to": plaza}))
    pass_until_not_priority(g)
    assert g.bf_at(plaza).controller == 0
    assert not events(g, "conquer")
    assert g.state.players[0].points == 0


def test_468_the_defender_wins_and_keeps_the_battlefield(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    a = b.add(0, SKULKER, exhausted=False)
    d = b.add(1, MEGA_MECH, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a]], "to": plaza}))
    pass_until_not_priority(g)
    end = events(g, "combat_end")[-1]
    assert end["result"] == "win" and end["winner"] == 1
    assert g.bf_at(plaza).controller == 1
    assert not events(g, "conquer")  # P1 already controlled it


def test_attack_trigger_fires_once_per_combat(cat):
    """Patch Notes (Oct 2025): 'when I attack' triggers the first time the unit becomes an
    attacker in a combat. The Corsair leaves (Flash) and comes back (Ride the Wind) in the same
    combat: no second trigger."""
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    corsair = b.add(0, CORSAIR, exhausted=False)
    other = b.add(0, SKULKER, exhausted=False)
    mech = b.add(1, MEGA_MECH, at=plaza)
    flash = b.hand(0, [FLASH])[0]
    ride = b.hand(0, [RIDE_THE_WIND])[0]
    b.runes(0, [CHAOS] * 5)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[corsair], ids[other]], "to": plaza}))
    assert len(events(g, "trigger", obj=ids[corsair])) == 1
    pass_(g, 2)  # the initial chain resolves; P0 keeps focus
    assert g.obj(ids[mech]).damage == 1
    g.apply(complete(g, {"type": "play", "card": ids[flash], "targets": [[ids[corsair]]]}))
    pass_(g, 2)
    assert g.obj(ids[corsair]).loc == 0 and g.obj(ids[corsair]).designation == ""
    assert g.pending_decision().player == 1
    pass_(g)  # P1 passes focus back
    g.apply(complete(g, {"type": "play", "card": ids[ride], "targets": [[ids[corsair]], [plaza]]}))
    pass_(g, 2)
    assert g.obj(ids[corsair]).loc == plaza
    assert g.obj(ids[corsair]).designation == "attacker"
    assert len(events(g, "trigger", obj=ids[corsair])) == 1
    assert not g.state.chain


def test_807_814_assault_and_shield_count_only_for_the_attacker_and_defender(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    officer = b.add(0, PETTY_OFFICER, exhausted=False)
    poro = b.add(1, STALWART_PORO, at=plaza)
    home_poro = b.add(1, STALWART_PORO)
    g, ids = b.build()
    assert layers.might(g, ids[officer]) == 5 and layers.might(g, ids[poro]) == 2
    g.apply(complete(g, {"type": "move", "units": [ids[officer]], "to": plaza}))
    assert layers.might(g, ids[officer]) == 6  # Assault: +1 while an attacker
    assert layers.might(g, ids[poro]) == 3  # Shield: +1 while a defender
    assert layers.might(g, ids[home_poro]) == 2  # not in the combat
    pass_until_not_priority(g)
    assert layers.might(g, ids[officer]) == 5  # back to normal once the combat is over


def test_807_assault_instances_add_up(cat):
    """Petty Officer (Assault) given Assault 3 by Cleave attacks with 5 + 1 + 3 = 9 Might."""
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    officer = b.add(0, PETTY_OFFICER, exhausted=False)
    b.add(1, MEGA_MECH, at=plaza)
    cleave = b.hand(0, [CLEAVE])[0]
    b.runes(0, [FURY])
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[cleave], "targets": [[ids[officer]]]}))
    pass_(g, 2)
    assert layers.might(g, ids[officer]) == 5  # not an attacker yet
    g.apply(complete(g, {"type": "move", "units": [ids[officer]], "to": plaza}))
    assert layers.might(g, ids[officer]) == 9


def test_464_451_2_a_third_player_cant_join_a_combat(cat):
    """Three players: P0 attacks P1. P2, given focus, tries Ride the Wind towards that
    battlefield; it already holds units of two other players, so either the destination is
    refused or P2's unit doesn't get there (recalled instead); the combat stays P0 vs P1."""
    b = position(cat, players=3)
    plaza = b.battlefield(PLAZA, controller=1)
    a = b.add(0, SKULKER, exhausted=False)
    b.add(1, SERGEANT, at=plaza)
    third = b.add(2, MEGA_MECH)
    ride = b.hand(2, [RIDE_THE_WIND])[0]
    b.runes(2, [CHAOS] * 3)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[a]], "to": plaza}))
    pass_(g, 2)  # P0, then P1 pass focus
    assert g.pending_decision().player == 2
    try:
        g.apply(complete(g, {"type": "play", "card": ids[ride], "targets": [[ids[third]], [plaza]]}))
    except IllegalActionError:
        pass
    else:
        pass_(g, 3)
    assert g.obj(ids[third]).loc != plaza
    sd = g.state.showdown
    assert sd is not None and (sd.attacker, sd.defender) == (0, 1)


# ---------------------------------------------------------------------- the worked example
def test_combat_md_worked_example_attacking_past_a_tank(cat):
    """combat.md 'Attacking past a Tank': Petty Officer (5, Assault) and a 2-Might unit attack
    Sunlit Guardian (3, Shield, Tank) and Stalwart Poro (2, Shield)."""
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    officer = b.add(0, PETTY_OFFICER, exhausted=False)
    small = b.add(0, REARGUARD, exhausted=False)
    guardian = b.add(1, SUNLIT_GUARDIAN, at=plaza)
    poro = b.add(1, STALWART_PORO, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[officer], ids[small]], "to": plaza}))
    assert layers.might(g, ids[officer]) == 6
    assert layers.might(g, ids[guardian]) == 4 and layers.might(g, ids[poro]) == 3
    d = pass_until_not_priority(g)
    assert d.kind == "assign" and d.player == 0 and d.context["total"] == 8
    # 4 to the Guardian first (Tank), 3 to the Poro, the last 1 to either
    opts = options_as_dicts(d)
    assert {ids[guardian]: 4, ids[poro]: 4} in opts
    assert {ids[guardian]: 5, ids[poro]: 3} in opts
    assert all(o[ids[guardian]] >= 4 and o[ids[poro]] >= 3 for o in opts)
    assign(g, **{str(ids[guardian]): 4, str(ids[poro]): 4})
    d = g.pending_decision()
    assert d.kind == "assign" and d.player == 1 and d.context["total"] == 7
    assign(g, **{str(ids[officer]): 6, str(ids[small]): 1})
    # all dealt at once: both defenders and Petty Officer die, the 2-Might unit heals and wins
    assert g.obj(ids[guardian]).zone == "trash" and g.obj(ids[poro]).zone == "trash"
    assert g.obj(ids[officer]).zone == "trash"
    assert g.obj(ids[small]).zone == "board" and g.obj(ids[small]).loc == plaza
    assert g.obj(ids[small]).damage == 0
    assert events(g, "combat_end", winner=0)
    assert g.bf_at(plaza).controller == 0
    assert events(g, "conquer", player=0, loc=plaza)
