"""Core Rules on timing: playing cards, the chain, priority and focus (308-348, 383.3, 806, 813).

Every test builds a position with the Builder, acts through ``Game.apply`` and checks what a
player would see: who is asked to act, what is on the chain, what happened in the log.
"""
from __future__ import annotations

import pytest

from riftscript.core.engine import chain as chain_mod
from riftscript.core.engine import layers
from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import IllegalActionError
from riftscript.core.engine.offer import complete
from rules_helpers import events, pass_

# Cards used (facts only): vanilla units, and spells identified by their keywords.
SKULKER = "OGN-175"      # Shipyard Skulker: unit, 3 Might, no text
SERGEANT = "OGN-219"     # Vanguard Sergeant: unit, 4 Might, no text
MEGA_MECH = "OGN-088"    # Mega-Mech: unit, 8 Might, no text
HEXTECH_RAY = "OGN-009"  # Action spell: 3 damage to a unit at a battlefield
DISCIPLINE = "OGN-058"   # Reaction spell: +2 Might this turn, draw 1
STUPEFY = "OGN-095"      # Reaction spell: -1 Might this turn (minimum 1), draw 1
VENGEANCE = "OGN-229"    # spell without Action/Reaction: kill a unit
YORDLE = "OGN-087"       # Lecturing Yordle: a play trigger that draws
CORSAIR = "OGN-130"      # Crackshot Corsair: an attack trigger, 1 damage to an enemy there
SENTRY = "OGN-096"       # Watchful Sentry: 1 Might, Deathknell draw 1
ENERGY_CONDUIT = "OGN-098"  # gear with a Reaction ability that adds 1 energy
FORTIFIED = "OGN-279"    # battlefield: when you defend here, a unit gets Shield 2 this combat
GROVE = "OGN-280"        # battlefield whose only ability is a hold trigger
HILLOCK = "OGN-297"      # battlefield: units here have Ganking
PAKAA_CUB = "OGN-135"    # unit with Hidden
PLAZA = "OGN-293"        # battlefield whose only ability is a hold trigger
FLURRY = "OGN-133"       # Reaction spell: 1 damage to every unit at a battlefield
CLEAVE = "OGN-004"       # Action spell: a unit gets Assault 3 this turn
FLASH = "OGS-011"        # Reaction spell: sends at most two friendly units back to base
FURY, CALM, MIND, ORDER, BODY, CHAOS = "OGN-007", "OGN-042", "OGN-089", "OGN-214", "OGN-126", "OGN-166"
FILLER = ["OGN-175"] * 6


def decision_player(g):
    d = g.pending_decision()
    assert d is not None
    return d.player


def base_position(cat, **kw):
    """P0's turn, Main Phase; P1 controls Plaza with a Sergeant there; decks for draws."""
    b = Builder(cat)
    grove = b.battlefield(GROVE)
    plaza = b.battlefield(PLAZA, controller=1)
    b.deck(0, FILLER)
    b.deck(1, FILLER)
    b.at_turn(0, "main")
    return b, grove, plaza


# ---------------------------------------------------------------------- states (310)
def test_310_1_to_310_4_the_four_states_of_the_turn(cat):
    b, grove, plaza = base_position(cat)
    mover = b.add(0, SKULKER, exhausted=False)
    target = b.add(1, SERGEANT, at=plaza)
    ray = b.hand(0, [HEXTECH_RAY, HEXTECH_RAY])
    b.runes(0, [FURY] * 6)
    g, ids = b.build()
    # 310.1 Neutral Open: no showdown, no chain
    assert g.state.showdown is None and not g.state.chain
    assert chain_mod.state_name(g) == "Neutral Open"
    # 310.2 Neutral Closed: a chain exists
    g.apply(complete(g, {"type": "play", "card": ids[ray[0]], "targets": [[ids[target]]]}))
    assert g.state.showdown is None and len(g.state.chain) == 1
    assert chain_mod.state_name(g) == "Neutral Closed"
    pass_(g, 2)
    assert not g.state.chain
    # 310.3 Showdown Open: a showdown and no chain
    g.apply(complete(g, {"type": "move", "units": [ids[mover]], "to": grove}))
    assert g.state.showdown is not None and not g.state.chain
    assert chain_mod.state_name(g) == "Showdown Open"
    # 310.4 Showdown Closed: a showdown and a chain
    g.apply(complete(g, {"type": "play", "card": ids[ray[1]], "targets": [[ids[target]]]}))
    assert g.state.showdown is not None and len(g.state.chain) == 1
    assert chain_mod.state_name(g) == "Showdown Closed"


# ---------------------------------------------------------------------- who may play what, when
def test_310_1_a_plain_spell_playable_on_your_turn_in_neutral_open(cat):
    b, grove, plaza = base_position(cat)
    target = b.add(1, SERGEANT, at=plaza)
    spell = b.hand(0, [VENGEANCE])[0]
    b.runes(0, [ORDER] * 6)
    g, ids = b.build()
    assert {"type": "play", "card": ids[spell], "targets": [[ids[target]]], "costs": []} in g.legal_actions()
    g.apply(complete(g, {"type": "play", "card": ids[spell], "targets": [[ids[target]]]}))
    pass_(g, 2)
    assert g.obj(ids[target]).zone == "trash"


def test_309_1_a_plain_spell_not_playable_in_a_closed_state(cat):
    """P1 gets priority on P0's turn while P0's spell waits: only Reactions are allowed."""
    b, grove, plaza = base_position(cat)
    target = b.add(1, SERGEANT, at=plaza)
    mine = b.add(0, SKULKER, exhausted=False)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    vengeance = b.hand(1, [VENGEANCE])[0]
    b.runes(1, [ORDER] * 6)
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[ray], "targets": [[ids[target]]]}))
    pass_(g)
    assert decision_player(g) == 1
    before = g.to_json()
    with pytest.raises(IllegalActionError) as err:
        g.apply(complete(g, {"type": "play", "card": ids[vengeance], "targets": [[ids[mine]]]}))
    assert err.value.rule == "309.1.a"
    assert g.to_json() == before
    assert all(a.get("card") != ids[vengeance] for a in g.legal_actions())


def test_309_1_a_action_spell_not_playable_in_a_closed_state(cat):
    b, grove, plaza = base_position(cat)
    target = b.add(1, SERGEANT, at=plaza)
    rays = b.hand(0, [HEXTECH_RAY, HEXTECH_RAY])
    b.runes(0, [FURY] * 4)
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[rays[0]], "targets": [[ids[target]]]}))
    assert decision_player(g) == 0  # the controller keeps priority after adding an item
    with pytest.raises(IllegalActionError) as err:
        g.apply(complete(g, {"type": "play", "card": ids[rays[1]], "targets": [[ids[target]]]}))
    assert err.value.rule == "309.1.a"
    assert len(g.state.chain) == 1


def test_308_1_a_plain_spell_not_playable_in_a_showdown(cat):
    b, grove, plaza = base_position(cat)
    mover = b.add(0, SKULKER, exhausted=False)
    target = b.add(1, SERGEANT, at=plaza)
    spell = b.hand(0, [VENGEANCE])[0]
    b.runes(0, [ORDER] * 6)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mover]], "to": grove}))
    assert g.state.showdown is not None and decision_player(g) == 0
    with pytest.raises(IllegalActionError) as err:
        g.apply(complete(g, {"type": "play", "card": ids[spell], "targets": [[ids[target]]]}))
    assert err.value.rule == "308.1.a"
    assert g.obj(ids[spell]).zone == "hand"


def test_806_action_playable_in_a_showdown_on_the_opponents_turn(cat):
    b, grove, plaza = base_position(cat)
    mover = b.add(0, SKULKER, exhausted=False)
    ray = b.hand(1, [HEXTECH_RAY])[0]
    b.runes(1, [FURY] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mover]], "to": grove}))
    pass_(g)  # P0 passes focus
    assert decision_player(g) == 1 and g.state.turn_player == 0
    g.apply(complete(g, {"type": "play", "card": ids[ray], "targets": [[ids[mover]]]}))
    pass_(g, 2)
    assert g.obj(ids[mover]).zone == "trash"


def test_310_1_a_action_spell_not_playable_outside_a_showdown_on_the_opponents_turn(cat):
    """P1 holds priority in Neutral Closed on P0's turn: an Action is still not allowed."""
    b, grove, plaza = base_position(cat)
    target = b.add(1, SERGEANT, at=plaza)
    mine = b.add(0, SKULKER, at=grove)
    stupefy = b.hand(0, [STUPEFY])[0]
    b.runes(0, [MIND] * 2)
    ray = b.hand(1, [HEXTECH_RAY])[0]
    b.runes(1, [FURY] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[stupefy], "targets": [[ids[target]]]}))
    pass_(g)
    assert decision_player(g) == 1
    with pytest.raises(IllegalActionError):
        g.apply(complete(g, {"type": "play", "card": ids[ray], "targets": [[ids[mine]]]}))


def test_813_reaction_playable_in_closed_state_on_opponents_turn_and_340_1_newest_resolves_first(cat):
    """P0 rays P1's 4-Might Sergeant... (3 damage); P1 answers with Discipline (+2); the
    Reaction resolves first, so the Sergeant has 6 Might when the ray hits and survives."""
    b, grove, plaza = base_position(cat)
    target = b.add(1, SERGEANT, at=plaza)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    discipline = b.hand(1, [DISCIPLINE])[0]
    b.runes(1, [CALM] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[ray], "targets": [[ids[target]]]}))
    pass_(g)
    assert decision_player(g) == 1
    g.apply(complete(g, {"type": "play", "card": ids[discipline], "targets": [[ids[target]]]}))
    assert [g.obj(i.obj).code for i in g.state.chain] == [HEXTECH_RAY, DISCIPLINE]
    assert decision_player(g) == 1  # the player who added the item gets priority
    pass_(g)
    assert decision_player(g) == 0
    pass_(g)
    # Discipline (newest) resolved; the ray is still waiting and its controller gets priority
    assert [g.obj(i.obj).code for i in g.state.chain] == [HEXTECH_RAY]
    assert layers.might(g, ids[target]) == 6
    assert decision_player(g) == 0
    pass_(g, 2)
    assert not g.state.chain
    assert g.obj(ids[target]).zone == "board" and g.obj(ids[target]).damage == 3


def test_312_1_priority_passes_to_the_next_player_and_only_they_may_act(cat):
    b, grove, plaza = base_position(cat)
    target = b.add(1, SERGEANT, at=plaza)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    stupefy = b.hand(1, [STUPEFY])[0]
    b.runes(1, [MIND] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[ray], "targets": [[ids[target]]]}))
    assert decision_player(g) == 0
    # P1's card isn't among the actions while P0 holds priority
    assert all(a.get("card") != ids[stupefy] for a in g.legal_actions())
    with pytest.raises(IllegalActionError):
        g.apply(complete(g, {"type": "play", "card": ids[stupefy], "targets": [[ids[target]]]}))
    pass_(g)
    assert decision_player(g) == 1
    assert any(a.get("card") == ids[stupefy] for a in g.legal_actions())


def test_339_1_resolve_only_after_all_players_pass_in_a_row(cat):
    b, grove, plaza = base_position(cat)
    target = b.add(1, SERGEANT, at=plaza)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    stupefy = b.hand(1, [STUPEFY])[0]
    b.runes(1, [MIND] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[ray], "targets": [[ids[target]]]}))
    pass_(g)
    assert len(g.state.chain) == 1 and not events(g, "resolve")  # one pass resolves nothing
    g.apply(complete(g, {"type": "play", "card": ids[stupefy], "targets": [[ids[target]]]}))
    pass_(g)  # P1 passes
    assert len(g.state.chain) == 2  # P0's earlier pass doesn't count: the passes must be in a row
    pass_(g)  # P0 passes
    assert len(g.state.chain) == 1
    assert layers.might(g, ids[target]) == 3


def test_337_2_unit_resolves_as_soon_as_finalized_nobody_can_respond(cat):
    b, grove, plaza = base_position(cat)
    unit = b.hand(0, [SKULKER])[0]
    b.runes(0, [FURY] * 3)
    b.hand(1, [STUPEFY])
    b.runes(1, [MIND] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[unit], "location": 0}))
    assert g.obj(ids[unit]).zone == "board" and g.obj(ids[unit]).loc == 0
    assert not g.state.chain
    assert decision_player(g) == 0 and g.pending_decision().prompt.startswith("Main Phase")
    assert not events(g, "pass")  # nobody ever had priority while it was on the chain


def test_337_2_gear_resolves_as_soon_as_finalized(cat):
    b, grove, plaza = base_position(cat)
    gear = b.hand(0, [ENERGY_CONDUIT])[0]
    b.runes(0, [MIND] * 3)
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[gear]}))
    assert g.obj(ids[gear]).zone == "board" and not g.state.chain
    assert decision_player(g) == 0 and not events(g, "pass")


def test_337_2_add_ability_resolves_immediately_even_in_a_closed_state(cat):
    """An Add ability used while a spell waits doesn't become a chain item or move priority."""
    b, grove, plaza = base_position(cat)
    target = b.add(1, SERGEANT, at=plaza)
    conduit = b.add(0, ENERGY_CONDUIT)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[ray], "targets": [[ids[target]]]}))
    energy = g.state.players[0].energy
    g.apply(complete(g, {"type": "activate", "source": ids[conduit], "ability": 0, "targets": []}))
    assert g.state.players[0].energy == energy + 1
    assert len(g.state.chain) == 1 and decision_player(g) == 0
    assert g.obj(ids[conduit]).exhausted


def test_383_4_a_when_you_play_me_goes_on_the_chain_after_the_unit_and_can_be_responded_to(cat):
    b, grove, plaza = base_position(cat)
    yordle = b.hand(0, [YORDLE])[0]
    b.runes(0, [MIND] * 3)
    target = b.add(1, SERGEANT, at=plaza)
    stupefy = b.hand(1, [STUPEFY])[0]
    b.runes(1, [MIND] * 2)
    g, ids = b.build()
    hand = len(g.state.players[0].hand)
    g.apply(complete(g, {"type": "play", "card": ids[yordle], "location": 0}))
    # the unit is already on the board; its trigger waits on the chain
    assert g.obj(ids[yordle]).zone == "board"
    assert [i.kind for i in g.state.chain] == ["trigger"] and g.state.chain[0].obj == ids[yordle]
    assert len(g.state.players[0].hand) == hand - 1  # not drawn yet
    assert decision_player(g) == 0
    pass_(g)
    assert decision_player(g) == 1
    g.apply(complete(g, {"type": "play", "card": ids[stupefy], "targets": [[ids[target]]]}))  # P1 responds
    pass_(g, 2)
    pass_(g, 2)
    assert not g.state.chain
    assert len(g.state.players[0].hand) == hand  # Yordle's draw happened


# ---------------------------------------------------------------------- focus (345-347)
def test_313_1_and_345_contesting_player_has_focus_first_and_347_2_passing_moves_focus(cat):
    b, grove, plaza = base_position(cat)
    mover = b.add(0, SKULKER, exhausted=False)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mover]], "to": grove}))
    assert g.state.showdown.focus == 0 and decision_player(g) == 0
    pass_(g)
    assert g.state.showdown is not None
    assert g.state.showdown.focus == 1 and decision_player(g) == 1
    pass_(g)
    # every player passed in a row: the showdown ends and P0 takes the battlefield
    assert g.state.showdown is None
    assert g.bf_at(grove).controller == 0
    assert decision_player(g) == 0


def test_347_1_focus_moves_on_after_a_chain_its_holder_started(cat):
    b, grove, plaza = base_position(cat)
    mover = b.add(0, SKULKER, exhausted=False)
    target = b.add(1, SERGEANT, at=plaza)
    ray = b.hand(0, [HEXTECH_RAY])[0]
    b.runes(0, [FURY] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mover]], "to": grove}))
    g.apply(complete(g, {"type": "play", "card": ids[ray], "targets": [[ids[target]]]}))
    assert g.state.showdown.focus == 0
    pass_(g, 2)
    assert not g.state.chain and g.obj(ids[target]).damage == 3
    assert g.state.showdown is not None
    assert g.state.showdown.focus == 1 and decision_player(g) == 1


def test_347_showdown_needs_all_passes_in_a_row_after_a_chain(cat):
    """P0 passes, P1 plays an Action (its chain resolves), so P0 gets focus again: P0's
    earlier pass doesn't combine with P1's later one to end the showdown."""
    b, grove, plaza = base_position(cat)
    mover = b.add(0, SKULKER, exhausted=False)
    target = b.add(1, SERGEANT, at=plaza)
    ray = b.hand(1, [HEXTECH_RAY])[0]
    b.runes(1, [FURY] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mover]], "to": grove}))
    pass_(g)  # P0 passes focus
    g.apply(complete(g, {"type": "play", "card": ids[ray], "targets": [[ids[target]]]}))
    pass_(g, 2)  # the ray resolves; focus moves from P1 to P0
    assert g.state.showdown is not None and decision_player(g) == 0
    pass_(g)
    assert g.state.showdown is not None and decision_player(g) == 1
    pass_(g)
    assert g.state.showdown is None


def test_346_1_focus_stays_with_the_attacker_after_the_initial_chain_of_attack_triggers(cat):
    b, grove, plaza = base_position(cat)
    corsair = b.add(0, CORSAIR, exhausted=False)
    defender = b.add(1, MEGA_MECH, at=plaza)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[corsair]], "to": plaza}))
    sd = g.state.showdown
    assert sd is not None and sd.combat and sd.attacker == 0
    assert [i.kind for i in g.state.chain] == ["trigger"]
    pass_(g, 2)
    assert not g.state.chain and g.obj(ids[defender]).damage == 1
    assert g.state.showdown.focus == 0 and decision_player(g) == 0


# ---------------------------------------------------------------------- simultaneous triggers (383.3.d)
def test_383_3_d_a_players_simultaneous_triggers_are_ordered_by_that_player(cat):
    """Flurry of Blades kills P0's two Sentries at once: P0 orders their Deathknells."""
    b, grove, plaza = base_position(cat)
    s1 = b.add(0, SENTRY, at=grove)
    s2 = b.add(0, SENTRY, at=grove)
    flurry = b.hand(0, [FLURRY])[0]
    b.runes(0, [BODY])
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[flurry], "targets": []}))
    pass_(g, 2)
    d = g.pending_decision()
    assert d.kind == "order" and d.player == 0
    assert sorted(o["value"] for o in d.options) == [[0, 1], [1, 0]]
    g.apply(complete(g, {"type": "order", "order": [1, 0]}))
    assert [i.kind for i in g.state.chain] == ["trigger", "trigger"]
    assert {i.obj for i in g.state.chain} == {ids[s1], ids[s2]}


def test_383_3_d_simultaneous_triggers_of_several_players_go_on_in_turn_order(cat):
    """Both players' Sentries die at once on P0's turn: P0's Deathknell goes on the chain first,
    P1's last, so P1's resolves first and P1 gets priority first."""
    b, grove, plaza = base_position(cat)
    mine = b.add(0, SENTRY, at=grove)
    theirs = b.add(1, SENTRY, at=plaza)
    flurry = b.hand(0, [FLURRY])[0]
    b.runes(0, [BODY])
    g, ids = b.build()
    g.apply(complete(g, {"type": "play", "card": ids[flurry], "targets": []}))
    pass_(g, 2)
    assert [(i.kind, i.controller) for i in g.state.chain] == [("trigger", 0), ("trigger", 1)]
    assert decision_player(g) == 1
    pass_(g, 2)
    draws = events(g, "draw")
    assert [e["player"] for e in draws] == [1]
    pass_(g, 2)
    assert [e["player"] for e in events(g, "draw")] == [1, 0]


def test_466_2_d_1_attackers_combat_triggers_go_on_first_so_the_defenders_resolve_first(cat):
    """Corsair attacks P1's Fortified Position: the attack trigger (P0) goes on the chain first
    and the battlefield's defend trigger (P1) last, so P1's resolves first; afterwards the
    attacker still has focus (346.1)."""
    b = Builder(cat)
    fort = b.battlefield(FORTIFIED, controller=1)
    b.deck(0, FILLER)
    b.deck(1, FILLER)
    corsair = b.add(0, CORSAIR, exhausted=False)
    defender = b.add(1, MEGA_MECH, at=fort)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[corsair]], "to": fort}))
    # P1 picks the target of the battlefield's trigger if asked
    while g.pending_decision().kind == "targets":
        d = g.pending_decision()
        choice = next(o["value"] for o in d.options if o["value"] == [[ids[defender]]])
        g.apply(complete(g, {"type": "targets", "targets": choice}))
    assert [(i.kind, i.controller) for i in g.state.chain] == [("trigger", 0), ("trigger", 1)]
    assert decision_player(g) == 1  # controller of the newest item
    pass_(g, 2)
    assert layers.might(g, ids[defender]) == 8 + 2  # Shield 2 while defending, already granted
    assert g.obj(ids[defender]).damage == 0  # the Corsair's trigger hasn't resolved yet
    pass_(g, 2)
    assert g.obj(ids[defender]).damage == 1
    assert not g.state.chain and g.state.showdown.focus == 0


def test_timing_md_example_cleave_meets_flash(cat):
    """timing.md 'Cleave meets Flash' (313.1, 340.1, 347.1, 347.2): with focus in the combat's
    showdown P0 plays Cleave on the attacker; P1 answers with Flash, moving its only defender
    to base. Flash resolves first, then Cleave; focus passes to P1; both pass; no defenders
    remain, so there is no combat damage and P0 conquers."""
    b, grove, plaza = base_position(cat)
    attacker = b.add(0, SKULKER, exhausted=False)
    defender = b.add(1, SERGEANT, at=plaza)
    cleave = b.hand(0, [CLEAVE])[0]
    b.runes(0, [FURY])
    flash = b.hand(1, [FLASH])[0]
    b.runes(1, [CHAOS] * 2)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[attacker]], "to": plaza}))
    assert g.state.showdown.combat and g.state.showdown.focus == 0
    g.apply(complete(g, {"type": "play", "card": ids[cleave], "targets": [[ids[attacker]]]}))
    pass_(g)
    assert decision_player(g) == 1
    g.apply(complete(g, {"type": "play", "card": ids[flash], "targets": [[ids[defender]]]}))
    pass_(g, 2)
    assert g.obj(ids[defender]).loc == 1  # Flash resolved first
    assert [g.obj(i.obj).code for i in g.state.chain] == [CLEAVE]
    assert g.state.showdown.focus == 0  # passing priority on the chain doesn't give up focus
    pass_(g, 2)
    assert layers.might(g, ids[attacker]) == 3 + 3  # Assault 3 while attacking
    assert g.state.showdown is not None and g.state.showdown.focus == 1
    assert decision_player(g) == 1
    pass_(g)
    pass_(g)
    assert g.state.showdown is None
    assert not events(g, "damaged")
    assert g.bf_at(plaza).controller == 0
    assert events(g, "conquer", player=0, loc=plaza)


def test_347_1_playing_a_unit_with_focus_is_a_chain_so_focus_passes(cat):
    """In a showdown P0, with focus, plays a unit hidden at a battlefield P0 controls (Reaction
    timing from Hidden). It resolves at once (337.2), the chain P0 started is over, so focus
    moves to P1 (engine-notes, the chain loop: 'If the chain is then empty ... in a showdown,
    focus passes to the next player')."""
    b, grove, plaza = base_position(cat)
    mine = b.battlefield(HILLOCK, controller=0)
    b.add(0, SERGEANT, at=mine)
    mover = b.add(0, SKULKER, exhausted=False)
    cub = b.add(0, PAKAA_CUB, zone="facedown", at=mine)
    g, ids = b.build()
    g.apply(complete(g, {"type": "move", "units": [ids[mover]], "to": grove}))
    assert g.state.showdown.focus == 0
    g.apply(complete(g, {"type": "play", "card": ids[cub], "location": mine}))
    assert g.obj(ids[cub]).zone == "board" and not g.state.chain
    assert g.state.showdown is not None
    assert g.state.showdown.focus == 1 and decision_player(g) == 1
    pass_(g)
    assert g.state.showdown is not None and decision_player(g) == 0  # P0 may still act
    pass_(g)
    assert g.state.showdown is None


def test_383_3_d_orders_that_only_swap_instances_of_one_ability_are_offered_once(cat):
    """Two Deathknells of one Sentry (as if it died twice) and one of another: of the 6 orders only 3
    differ (where the other Sentry's goes), so the player is offered 3."""
    from riftscript.core.engine.state import PendingTrigger

    b, grove, plaza = base_position(cat)
    s1 = b.add(0, SENTRY, at=grove)
    s2 = b.add(0, SENTRY, at=grove)
    g, ids = b.build()
    index = next(i for i, a in enumerate(g.card(ids[s1]).abilities) if a.kind == "triggered")
    g.state.pending_triggers = [PendingTrigger(ids[s1], index, 0, {"t": "die", "n": 1}),
                                PendingTrigger(ids[s1], index, 0, {"t": "die", "n": 2}),
                                PendingTrigger(ids[s2], index, 0, {"t": "die", "n": 3})]
    g.state.decision = None
    g.run()
    d = g.pending_decision()
    assert d.kind == "order" and len(d.options) == 3
    where_other = sorted(o["value"].index(2) for o in d.options)
    assert where_other == [0, 1, 2]
