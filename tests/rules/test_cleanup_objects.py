"""Cleanups (322-323; Core Rules, cleanup procedure) and the state of objects: entering the board
exhausted or ready (143.4, 149.1, 805), buffs (427), stun, passive Might (807/814), layers,
replacement effects, Deathknell (808), tokens (185.3.b) and no last-known information."""
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
RECRUIT = "OGN-271"      # Recruit token: unit, 1 Might
REARGUARD = "OGN-010"    # Legion Rearguard: 2 Might, Accelerate (Fury)
GAREN = "OGS-013"        # Garen, Commander: 5 Might; other friendly units here have +1 Might
SENTRY = "OGN-096"       # Watchful Sentry: 1 Might, Deathknell: draw 1
KOGMAW = "OGN-190"       # Kog'Maw, Caustic: 1 Might, Deathknell: 4 damage to every unit here
CORSAIR = "OGN-130"      # Crackshot Corsair: an attack trigger, 1 damage to an enemy there
LEE_SIN = "OGN-078"      # Lee Sin, Ascetic: exhaust: buff me; I may have any number of buffs
ARENA_BAR = "OGN-124"    # gear: exhaust: buff a friendly exhausted unit
ENERGY_CONDUIT = "OGN-098"  # gear
ZHONYAS = "OGN-077"      # Zhonya's Hourglass: dies in a friendly unit's place, which is healed, exhausted and recalled
HIGHLANDER = "OGS-020"   # Reaction: the next time a friendly unit would die this turn, heal, exhaust, recall it instead
HEXTECH_RAY = "OGN-009"  # Action: 3 damage to a unit at a battlefield
DISCIPLINE = "OGN-058"   # Reaction: +2 Might this turn, draw 1
SMOKE_SCREEN = "OGN-093"  # Reaction: -4 Might this turn, to a minimum of 1
STUPEFY = "OGN-095"      # Reaction: -1 Might this turn, to a minimum of 1, draw 1
FLURRY = "OGN-133"       # Reaction: 1 damage to every unit at a battlefield
CANNON_BARRAGE = "OGN-127"  # Reaction: 2 damage to every enemy unit in combat
RUNE_PRISON = "OGN-050"  # Action: stun a unit
RETREAT = "OGN-104"      # Reaction: return a friendly unit to hand, channel 1 exhausted
VENGEANCE = "OGN-229"    # spell: kill a unit
HIDDEN_BLADE = "OGN-213"  # a card with Hidden
GROVE = "OGN-280"        # battlefield with only a hold trigger
PLAZA = "OGN-293"        # battlefield with only a hold trigger
WAR_CAMP = "OGN-294"     # battlefield: units here have +1 Might
FURY, CALM, MIND, BODY, ORDER, CHAOS = "OGN-007", "OGN-042", "OGN-089", "OGN-126", "OGN-214", "OGN-166"
FILLER = ["OGN-175"] * 6


def position(cat, players=2):
    b = Builder(cat, players=players)
    for p in range(players):
        b.deck(p, FILLER)
    b.at_turn(0, "main")
    return b


def play(g, card, targets=None, **extra):
    action = {"type": "play", "card": card, "targets": targets if targets is not None else []}
    action.update(extra)
    g.apply(complete(g, action))


def resolve_chain(g):
    for _ in range(30):
        if not g.state.chain:
            return
        d = g.pending_decision()
        if d.kind == "priority":
            pass_(g)
        else:
            g.apply(g.legal_actions()[0])
    raise AssertionError("chain did not resolve")


def end_turn_to_next_main(g):
    g.apply({"type": "end_turn"})
    for _ in range(30):
        d = g.pending_decision()
        if d.kind == "priority" and d.prompt.startswith("Main Phase"):
            return
        g.apply(g.legal_actions()[0] if d.kind != "priority" else {"type": "pass"})
    raise AssertionError("did not reach the next Main Phase")


# ---------------------------------------------------------------------- cleanup: lethal damage
def test_cleanup_lethal_damage_kills_and_less_than_lethal_stays(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    small = b.add(1, SKULKER, at=plaza)
    big = b.add(1, SERGEANT, at=plaza)
    rays = b.hand(0, [HEXTECH_RAY, HEXTECH_RAY, HEXTECH_RAY])
    b.runes(0, [FURY] * 6)
    g, ids = b.build()
    play(g, ids[rays[0]], [[ids[small]]])
    resolve_chain(g)
    assert g.obj(ids[small]).zone == "trash"  # 3 damage on 3 Might is lethal
    play(g, ids[rays[1]], [[ids[big]]])
    resolve_chain(g)
    assert g.obj(ids[big]).zone == "board" and g.obj(ids[big]).damage == 3  # 3 of 4: it stays
    play(g, ids[rays[2]], [[ids[big]]])
    resolve_chain(g)
    assert g.obj(ids[big]).zone == "trash"  # damage adds up: 6 >= 4


def test_cleanup_repeats_until_nothing_changes(cat):
    """Garen gives the Skulker +1 Might. The ray kills Garen; in the next cleanup the Skulker's
    damage (3) is lethal for its 3 Might, so it dies too."""
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    garen = b.add(1, GAREN, at=plaza, damage=2)
    skulker = b.add(1, SKULKER, at=plaza, damage=3)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    g, ids = b.build()
    assert layers.might(g, ids[skulker]) == 4 and g.obj(ids[skulker]).zone == "board"
    play(g, ids[ray], [[ids[garen]]])
    resolve_chain(g)
    assert g.obj(ids[garen]).zone == "trash"
    assert g.obj(ids[skulker]).zone == "trash"
    deaths = [e["obj"] for e in events(g, "die")]
    assert deaths == [ids[garen], ids[skulker]]
    assert g.bf_at(plaza).controller == -1


def test_cleanup_empty_battlefield_loses_control_only_in_an_open_state(cat):
    """P0's only unit at the Grove dies to Flurry of Blades while Discipline still waits on the
    chain: P0 keeps control until the chain is empty (open state), then loses it."""
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    there = b.add(0, SKULKER, at=grove, damage=2)
    home = b.add(0, SERGEANT)
    discipline, flurry = b.hand(0, [DISCIPLINE, FLURRY])
    b.runes(0, [CALM] * 2 + [BODY])
    g, ids = b.build()
    play(g, ids[discipline], [[ids[home]]])
    play(g, ids[flurry])
    pass_(g, 2)  # Flurry resolves
    assert g.obj(ids[there]).zone == "trash"
    assert len(g.state.chain) == 1
    assert g.bf_at(grove).controller == 0  # closed state: still controlled
    pass_(g, 2)  # Discipline resolves; the chain is empty
    assert not g.state.chain
    assert g.bf_at(grove).controller == -1
    assert events(g, "lose_control", bf=grove, player=0)


def test_cleanup_unattached_gear_at_a_battlefield_is_recalled(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    b.add(0, SERGEANT, at=grove)
    gear = b.add(0, ENERGY_CONDUIT, at=grove)
    unit = b.hand(0, [SKULKER])[0]
    b.runes(0, [FURY] * 3)
    g, ids = b.build()
    play(g, ids[unit], location=0)  # any action runs a cleanup
    assert g.obj(ids[gear]).zone == "board" and g.obj(ids[gear]).loc == 0
    assert events(g, "recall", obj=ids[gear])


def test_cleanup_hidden_card_is_lost_when_you_no_longer_control_its_battlefield(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    only = b.add(0, SKULKER, at=grove, exhausted=False)
    blade = b.add(0, HIDDEN_BLADE, zone="facedown", at=grove)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[only]], "to": 0}))
    assert g.bf_at(grove).controller == -1
    assert g.obj(ids[blade]).zone == "trash" and not g.bf_at(grove).facedown


def test_185_3_b_a_token_that_leaves_the_board_ceases_to_exist(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    recruit = b.add(1, RECRUIT, at=plaza)
    b.add(1, SERGEANT, at=plaza)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    g, ids = b.build()
    play(g, ids[ray], [[ids[recruit]]])
    resolve_chain(g)
    assert events(g, "die", obj=ids[recruit])
    assert ids[recruit] not in g.state.players[1].trash
    assert g.obj(ids[recruit]).zone == "gone"


def test_185_3_b_a_token_returned_to_hand_ceases_to_exist(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    recruit = b.add(0, RECRUIT, at=grove)
    retreat = b.hand(0, [RETREAT])[0]
    b.runes(0, [MIND])
    b.rune_deck(0, [MIND])
    g, ids = b.build()
    play(g, ids[retreat], [[ids[recruit]]])
    resolve_chain(g)
    assert ids[recruit] not in g.state.players[0].hand
    assert g.obj(ids[recruit]).zone == "gone"


# ---------------------------------------------------------------------- entering the board
def test_143_4_units_enter_exhausted(cat):
    b = position(cat)
    unit = b.hand(0, [SKULKER])[0]
    b.runes(0, [FURY] * 3)
    g, ids = b.build()
    play(g, ids[unit], location=0)
    assert g.obj(ids[unit]).zone == "board" and g.obj(ids[unit]).exhausted
    assert not any(a["type"] == "move" and ids[unit] in a["units"] for a in g.legal_actions())


def test_149_1_gear_enters_ready(cat):
    b = position(cat)
    gear = b.hand(0, [ENERGY_CONDUIT])[0]
    b.runes(0, [MIND] * 3)
    g, ids = b.build()
    play(g, ids[gear])
    assert g.obj(ids[gear]).zone == "board" and not g.obj(ids[gear]).exhausted


def test_805_accelerate_paid_the_unit_enters_ready(cat):
    b = position(cat)
    grove = b.battlefield(GROVE)
    fast, slow = b.hand(0, [REARGUARD, REARGUARD])
    runes = b.runes(0, [FURY] * 6)
    g, ids = b.build()
    play(g, ids[fast], location=0, costs=["accelerate"])
    assert not g.obj(ids[fast]).exhausted
    assert not events(g, "ready", obj=ids[fast])  # it never entered exhausted
    exhausted = [r for r in runes if g.obj(ids[r]).exhausted]
    recycled = [r for r in runes if g.obj(ids[r]).zone == "rune_deck"]
    assert len(exhausted) == 3 and len(recycled) == 1  # 2 + 1 energy, and one Fury power
    g.apply(complete(g, {"type": "move", "units": [ids[fast]], "to": grove}))  # it can move at once
    assert g.obj(ids[fast]).loc == grove
    resolve_chain(g)


def test_805_accelerate_not_paid_the_unit_enters_exhausted(cat):
    b = position(cat)
    unit = b.hand(0, [REARGUARD])[0]
    b.runes(0, [FURY] * 6)
    g, ids = b.build()
    play(g, ids[unit], location=0)
    assert g.obj(ids[unit]).exhausted


# ---------------------------------------------------------------------- buffs (427)
def test_427_a_unit_has_at_most_one_buff(cat):
    b = position(cat)
    bar = b.add(0, ARENA_BAR)
    buffed = b.add(0, SERGEANT, exhausted=True, buffs=1)
    g, ids = b.build()
    assert layers.might(g, ids[buffed]) == 5
    g.apply(complete(g, {"type": "activate", "source": ids[bar], "ability": 0, "targets": [[ids[buffed]]]}))
    resolve_chain(g)
    assert g.obj(ids[buffed]).buffs == 1 and layers.might(g, ids[buffed]) == 5
    assert not events(g, "buff")


def test_427_buff_gives_plus_one_might(cat):
    b = position(cat)
    bar = b.add(0, ARENA_BAR)
    unit = b.add(0, SERGEANT, exhausted=True)
    g, ids = b.build()
    g.apply(complete(g, {"type": "activate", "source": ids[bar], "ability": 0, "targets": [[ids[unit]]]}))
    resolve_chain(g)
    assert g.obj(ids[unit]).buffs == 1 and layers.might(g, ids[unit]) == 5


def test_427_lee_sin_may_have_any_number_of_buffs(cat):
    b = position(cat)
    lee = b.add(0, LEE_SIN, exhausted=False, buffs=3)
    g, ids = b.build()
    g.apply(complete(g, {"type": "activate", "source": ids[lee], "ability": 0, "targets": []}))
    resolve_chain(g)
    assert g.obj(ids[lee]).buffs == 4
    assert layers.might(g, ids[lee]) == 5 + 4


# ---------------------------------------------------------------------- stun
def test_stun_cant_stack_and_wears_off_at_the_ending_step(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    target = b.add(1, SERGEANT, at=plaza)
    prisons = b.hand(0, [RUNE_PRISON, RUNE_PRISON])
    b.runes(0, [CALM] * 6)
    g, ids = b.build()
    play(g, ids[prisons[0]], [[ids[target]]])
    resolve_chain(g)
    assert g.obj(ids[target]).stunned
    assert len(events(g, "stun", obj=ids[target])) == 1
    play(g, ids[prisons[1]], [[ids[target]]])  # a stunned unit may be chosen ...
    resolve_chain(g)
    assert len(events(g, "stun", obj=ids[target])) == 1  # ... but isn't stunned again
    assert g.obj(ids[target]).stunned
    end_turn_to_next_main(g)
    assert g.state.turn_player == 1
    assert not g.obj(ids[target]).stunned


# ---------------------------------------------------------------------- layers
def test_layers_this_turn_might_modifier_ends_with_the_turn(cat):
    b = position(cat)
    unit = b.add(0, SERGEANT)
    discipline = b.hand(0, [DISCIPLINE])[0]
    b.runes(0, [CALM] * 2)
    g, ids = b.build()
    play(g, ids[discipline], [[ids[unit]]])
    resolve_chain(g)
    assert layers.might(g, ids[unit]) == 6
    end_turn_to_next_main(g)
    assert layers.might(g, ids[unit]) == 4


def test_layers_decrease_to_a_minimum_of_1(cat):
    b = position(cat)
    unit = b.add(0, SKULKER)
    recruit = b.add(0, RECRUIT)
    smoke, stupefy = b.hand(0, [SMOKE_SCREEN, STUPEFY])
    b.runes(0, [MIND] * 5)
    g, ids = b.build()
    play(g, ids[smoke], [[ids[unit]]])
    resolve_chain(g)
    assert layers.might(g, ids[unit]) == 1  # 3 - 4, but not below 1
    play(g, ids[stupefy], [[ids[recruit]]])
    resolve_chain(g)
    assert layers.might(g, ids[recruit]) == 1


def test_layers_increases_apply_before_decreases(cat):
    """Discipline (+2) then Stupefy (-1): 4 + 2 - 1 = 5, whatever the order they resolved in."""
    b = position(cat)
    unit = b.add(0, SERGEANT)
    stupefy, discipline = b.hand(0, [STUPEFY, DISCIPLINE])
    b.runes(0, [MIND] * 3)
    g, ids = b.build()
    play(g, ids[stupefy], [[ids[unit]]])
    resolve_chain(g)
    assert layers.might(g, ids[unit]) == 3
    play(g, ids[discipline], [[ids[unit]]])
    resolve_chain(g)
    assert layers.might(g, ids[unit]) == 5


def test_layers_minimum_of_1_is_fixed_when_the_decrease_first_applies(cat):
    """Smoke Screen on a 3-Might unit reduces it by only 2 (to 1) and remembers -2; a later +2
    makes it 3 again (engine-notes, layers: 'a limit ... is fixed when the effect first applies
    and remembered for its duration')."""
    b = position(cat)
    unit = b.add(0, SKULKER)
    smoke, discipline = b.hand(0, [SMOKE_SCREEN, DISCIPLINE])
    b.runes(0, [MIND] * 3 + [CALM] * 2)
    g, ids = b.build()
    play(g, ids[smoke], [[ids[unit]]])
    resolve_chain(g)
    assert layers.might(g, ids[unit]) == 1
    play(g, ids[discipline], [[ids[unit]]])
    resolve_chain(g)
    assert layers.might(g, ids[unit]) == 3


def test_layers_battlefield_static_gives_units_there_plus_one_might(cat):
    b = position(cat)
    camp = b.battlefield(WAR_CAMP, controller=0)
    there = b.add(0, SKULKER, at=camp)
    home = b.add(0, SKULKER)
    g, ids = b.build()
    assert layers.might(g, ids[home]) == 3
    assert layers.might(g, ids[there]) == 4


# ---------------------------------------------------------------------- replacement effects
def test_replacement_zhonyas_hourglass_saves_a_unit_that_would_die(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    hourglass = b.add(0, ZHONYAS)
    unit = b.add(0, SKULKER, at=grove, exhausted=False)
    b.add(0, SERGEANT, at=grove)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    g, ids = b.build()
    play(g, ids[ray], [[ids[unit]]])
    resolve_chain(g)
    assert g.obj(ids[hourglass]).zone == "trash"  # the Hourglass is killed instead
    assert g.obj(ids[unit]).zone == "board" and g.obj(ids[unit]).loc == 0  # recalled
    assert g.obj(ids[unit]).damage == 0 and g.obj(ids[unit]).exhausted
    assert not events(g, "die", obj=ids[unit])


def test_808_deathknell_doesnt_trigger_when_a_replacement_recalls_the_unit_instead(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    b.add(0, ZHONYAS)
    sentry = b.add(0, SENTRY, at=grove)
    b.add(0, SERGEANT, at=grove)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    g, ids = b.build()
    hand = len(g.state.players[0].hand)
    play(g, ids[ray], [[ids[sentry]]])
    resolve_chain(g)
    assert g.obj(ids[sentry]).loc == 0
    assert not events(g, "trigger", obj=ids[sentry])
    assert len(g.state.players[0].hand) == hand - 1  # only the ray left the hand; no draw


def test_replacement_highlander_applies_only_the_next_time(cat):
    b = position(cat)
    grove = b.battlefield(GROVE, controller=0)
    unit = b.add(0, SKULKER, at=grove)
    b.add(0, SERGEANT, at=grove)
    highlander = b.hand(0, [HIGHLANDER])[0]
    vengeances = b.hand(0, [VENGEANCE, VENGEANCE])
    b.runes(0, [CALM] * 4 + [ORDER] * 12)
    g, ids = b.build()
    play(g, ids[highlander], [[ids[unit]]])
    resolve_chain(g)
    play(g, ids[vengeances[0]], [[ids[unit]]])
    resolve_chain(g)
    assert g.obj(ids[unit]).zone == "board" and g.obj(ids[unit]).loc == 0
    assert g.obj(ids[unit]).exhausted
    play(g, ids[vengeances[1]], [[ids[unit]]])
    resolve_chain(g)
    assert g.obj(ids[unit]).zone == "trash"  # the second time it dies


# ---------------------------------------------------------------------- Deathknell (808)
def test_808_deathknell_triggers_when_the_unit_dies(cat):
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    sentry = b.add(1, SENTRY, at=plaza)
    b.add(1, SERGEANT, at=plaza)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    g, ids = b.build()
    hand = len(g.state.players[1].hand)
    play(g, ids[ray], [[ids[sentry]]])
    pass_(g, 2)
    assert g.obj(ids[sentry]).zone == "trash"
    assert [(i.kind, i.obj, i.controller) for i in g.state.chain] == [("trigger", ids[sentry], 1)]
    resolve_chain(g)
    assert len(g.state.players[1].hand) == hand + 1


def test_808_deathknell_remembers_where_the_unit_died(cat):
    """Kog'Maw's Deathknell deals 4 to every unit 'here': where it was when it died."""
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    kog = b.add(1, KOGMAW, at=plaza)
    neighbour = b.add(1, SERGEANT, at=plaza)
    elsewhere = b.add(1, SERGEANT)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    g, ids = b.build()
    play(g, ids[ray], [[ids[kog]]])
    resolve_chain(g)
    assert g.obj(ids[kog]).zone == "trash"
    assert g.obj(ids[neighbour]).zone == "trash"  # 4 damage at the Plaza
    assert g.obj(ids[elsewhere]).damage == 0


# ---------------------------------------------------------------------- no last-known information
def test_no_last_known_information_attack_trigger_of_a_dead_unit_finds_no_here(cat):
    """rulings-faq (Anivia / Hidden Blade): Riftbound has no last-known information. The Corsair
    attacks; before its 'deal 1 to an enemy unit here' resolves, the defender kills it with
    Cannon Barrage. The ability can't find 'here', so no damage is dealt."""
    b = position(cat)
    plaza = b.battlefield(PLAZA, controller=1)
    corsair = b.add(0, CORSAIR, exhausted=False, damage=1)
    defender = b.add(1, MEGA_MECH, at=plaza)
    barrage = b.hand(1, [CANNON_BARRAGE])[0]
    b.runes(1, [BODY] * 3)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[corsair]], "to": plaza}))
    assert [i.obj for i in g.state.chain] == [ids[corsair]]
    pass_(g)
    play(g, ids[barrage])
    pass_(g, 2)
    assert g.obj(ids[corsair]).zone == "trash"
    pass_(g, 2)
    assert not g.state.chain
    assert g.obj(ids[defender]).damage == 0
