"""Runes, energy, power and the rune pool: Core Rules 135.2.e.5.a, 161.2.b, 163, 164.2, 166.2, 167,
417.1, 431.3.  Every test names its rule."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest

from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import IllegalActionError
from riftscript.core.engine.game import Game
from riftscript.core.engine.offer import complete
from rules_helpers import catalog as cat

FURY_RUNE = "OGN-007"
CALM_RUNE = "OGN-042"
CHAOS_RUNE = "OGN-166"
ENFORCER = "OGN-003"
SKULKER = "OGN-175"      # 3 energy, no power
VI = "OGN-036"           # 2 energy + one Fury power
STAND_UNITED = "OGN-053"  # Hidden spell
CLEAVE = "OGN-004"       # 1 energy Action spell targeting a unit
POUTY_PORO = "OGN-013"   # Deflect
PLAIN_BF = "OGN-294"


def position(**kw: Any) -> tuple[Game, list[int], dict[str, Any]]:
    """Player 0's Main Phase; keyword lists name what to place, their ids come back by name."""
    b = Builder(cat())
    named: dict[str, Any] = {}
    for name, (player, codes, how) in kw.items():
        if how == "runes":
            named[name] = b.runes(player, codes)
        elif how == "exhausted_runes":
            named[name] = b.runes(player, codes, exhausted=True)
        elif how == "hand":
            named[name] = b.hand(player, codes)
        elif how == "rune_deck":
            named[name] = b.rune_deck(player, codes)
        elif how == "base":
            named[name] = [b.add(player, c, at="base") for c in codes]
    b.deck(0, [ENFORCER] * 3)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    return g, ids, {k: [ids[i] for i in v] for k, v in named.items()}


def plays_of(g: Game, card: int) -> list[dict[str, Any]]:
    return [a for a in g.legal_actions() if a["type"] == "play" and a["card"] == card]


def assert_illegal(g: Game, action: dict[str, Any], rule: str | None = None) -> None:
    before = g.to_json()
    with pytest.raises(IllegalActionError) as err:
        g.apply(action)
    if rule is not None:
        assert err.value.rule == rule
    assert g.to_json() == before


# ---------------------------------------------------------------------- 164.2: the rune abilities
def test_164_2_a_exhaust_a_rune_to_add_one_energy() -> None:
    g, ids, n = position(r=(0, [FURY_RUNE], "runes"))
    (rune,) = n["r"]
    g.apply(complete(g, {"type": "activate", "source": rune, "ability": -1}))
    p = g.state.players[0]
    assert p.energy == 1 and p.power == {}
    assert g.obj(rune).exhausted and g.obj(rune).zone == "runes"
    # an exhausted rune can't be exhausted again
    assert {"type": "activate", "source": rune, "ability": -1} not in g.legal_actions()
    assert_illegal(g, {"type": "activate", "source": rune, "ability": -1})


def test_164_2_b_161_2_b_recycle_a_rune_for_power_of_its_domain_to_the_rune_deck() -> None:
    g, ids, n = position(r=(0, [CALM_RUNE, FURY_RUNE], "runes"), deck=(0, [CHAOS_RUNE] * 2, "rune_deck"))
    calm, fury = n["r"]
    g.apply(complete(g, {"type": "activate", "source": calm, "ability": -2}))
    p = g.state.players[0]
    assert p.power == {"calm": 1} and p.energy == 0
    # 161.2.b: back to the bottom of the rune deck, not the main deck
    assert g.obj(calm).zone == "rune_deck" and p.rune_deck[-1] == calm
    assert calm not in p.main_deck and p.runes == [fury]


def test_164_2_rune_abilities_have_reaction_and_use_no_chain() -> None:
    # While an opponent's spell is on the chain (a closed state), runes can still be used.
    g, ids, n = position(r=(0, [FURY_RUNE], "runes"), theirs=(1, [FURY_RUNE, FURY_RUNE], "runes"),
                         unit=(0, [SKULKER], "base"), spell=(0, [CLEAVE], "hand"))
    g.apply(complete(g, {"type": "play", "card": n["spell"][0], "targets": [[n["unit"][0]]]}))
    assert len(g.state.chain) == 1 and g.pending_decision().player == 0
    g.apply({"type": "pass"})
    assert g.pending_decision().player == 1
    g.apply(complete(g, {"type": "activate", "source": n["theirs"][0], "ability": -1}))
    # it resolved at once: the pool has the energy, the chain is unchanged, player 1 keeps priority
    assert g.state.players[1].energy == 1
    assert len(g.state.chain) == 1 and g.pending_decision().player == 1


def test_417_1_recycle_works_on_an_exhausted_rune() -> None:
    g, ids, n = position(r=(0, [FURY_RUNE], "runes"))
    (rune,) = n["r"]
    g.apply(complete(g, {"type": "activate", "source": rune, "ability": -1}))
    assert {"type": "activate", "source": rune, "ability": -2} in g.legal_actions()
    g.apply(complete(g, {"type": "activate", "source": rune, "ability": -2}))
    p = g.state.players[0]
    assert p.energy == 1 and p.power == {"fury": 1}
    assert g.obj(rune).zone == "rune_deck"


def test_417_1_one_rune_pays_energy_then_power() -> None:
    # Vi costs 2 energy and one Fury power; two Fury runes pay it: exhaust both, recycle one.
    g, ids, n = position(r=(0, [FURY_RUNE, FURY_RUNE], "runes"), vi=(0, [VI], "hand"))
    (vi,) = n["vi"]
    assert plays_of(g, vi)
    g.apply(complete(g, {"type": "play", "card": vi, "location": 0, "targets": []}))
    p = g.state.players[0]
    assert g.obj(vi).zone == "board"
    assert len(p.runes) == 1 and g.obj(p.runes[0]).exhausted
    assert len(p.rune_deck) == 1
    assert p.energy == 0 and p.power == {}


# ---------------------------------------------------------------------- 163: energy and power
def test_163_power_must_match_the_domain() -> None:
    g, ids, n = position(r=(0, [CALM_RUNE] * 3, "runes"), vi=(0, [VI], "hand"))
    (vi,) = n["vi"]
    assert plays_of(g, vi) == []
    assert_illegal(g, {"type": "play", "card": vi, "location": 0, "targets": []}, "135")


def test_163_energy_pays_the_number_power_does_not() -> None:
    # One Fury rune recycled gives Fury power, but Vi's 2 energy still needs 2 more runes.
    g, ids, n = position(r=(0, [FURY_RUNE, CALM_RUNE], "runes"), vi=(0, [VI], "hand"))
    (vi,) = n["vi"]
    g.apply(complete(g, {"type": "activate", "source": n["r"][0], "ability": -2}))
    assert g.state.players[0].power == {"fury": 1}
    assert plays_of(g, vi) == []
    assert_illegal(g, {"type": "play", "card": vi, "location": 0, "targets": []}, "135")


def test_163_energy_from_any_rune_pays_energy() -> None:
    g, ids, n = position(r=(0, [CALM_RUNE, FURY_RUNE, CALM_RUNE], "runes"), u=(0, [SKULKER], "hand"))
    (unit,) = n["u"]
    assert plays_of(g, unit)
    g.apply(complete(g, {"type": "play", "card": unit, "location": 0, "targets": []}))
    assert all(g.obj(r).exhausted for r in n["r"])


# ---------------------------------------------------------------------- 166.2: the pool
def test_166_2_energy_in_the_pool_is_spent_first() -> None:
    g, ids, n = position(r=(0, [CHAOS_RUNE] * 3, "runes"), u=(0, [SKULKER], "hand"))
    first, second, third = n["r"]
    g.apply(complete(g, {"type": "activate", "source": first, "ability": -1}))
    assert g.state.players[0].energy == 1
    g.apply(complete(g, {"type": "play", "card": n["u"][0], "location": 0, "targets": []}))
    p = g.state.players[0]
    assert p.energy == 0
    assert all(g.obj(r).exhausted for r in (first, second, third))
    pay = [e for e in g.log if e["t"] == "pay"][-1]
    assert pay["energy"] == 3


def test_166_2_only_added_resources_can_be_spent() -> None:
    # Two runes exhausted into the pool give 2 energy; a 3-energy unit can't be paid.
    g, ids, n = position(r=(0, [CHAOS_RUNE] * 2, "runes"), u=(0, [SKULKER], "hand"))
    for r in n["r"]:
        g.apply(complete(g, {"type": "activate", "source": r, "ability": -1}))
    assert g.state.players[0].energy == 2
    assert plays_of(g, n["u"][0]) == []
    assert_illegal(g, {"type": "play", "card": n["u"][0], "location": 0, "targets": []}, "135")


# ---------------------------------------------------------------------- 167: pools empty
def test_167_unspent_resources_are_lost_but_ready_runes_stay_ready() -> None:
    g, ids, n = position(r=(0, [FURY_RUNE] * 3, "runes"))
    used, kept, _ = n["r"]
    g.apply(complete(g, {"type": "activate", "source": used, "ability": -1}))
    g.apply({"type": "end_turn"})
    p = g.state.players[0]
    assert p.energy == 0 and p.power == {}
    assert g.obj(used).exhausted and not g.obj(kept).exhausted
    assert g.state.turn_player == 1


# ---------------------------------------------------------------------- 431.3: short rune deck
@pytest.mark.parametrize("left", [0, 1])
def test_431_3_channel_as_many_as_possible(left: int) -> None:
    b = Builder(cat())
    b.rune_deck(1, [FURY_RUNE] * left)
    b.deck(1, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply({"type": "end_turn"})
    while g.state.step != "main":
        g.apply({"type": "pass"})
    p = g.state.players[1]
    assert len(p.runes) == left and p.rune_deck == []
    # an empty rune deck is not a burn out: no one gains a point
    assert [e for e in g.log if e["t"] == "burn_out"] == []
    assert g.state.players[0].points == 0
    assert g.state.step == "main" and g.pending_decision().player == 1


# ---------------------------------------------------------------------- 135.2.e.5.a: [A]
def test_135_2_e_5_a_any_domain_power_paid_by_a_rune_of_another_domain() -> None:
    # Hiding costs one power of any domain (811); a Fury rune pays it for a Calm card.
    b = Builder(cat())
    bf = b.battlefield(PLAIN_BF, controller=0)
    b.add(0, SKULKER, at=bf)
    card = b.hand(0, [STAND_UNITED])[0]
    rune = b.runes(0, [FURY_RUNE])[0]
    b.deck(0, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    hide = {"type": "hide", "card": ids[card], "battlefield": bf}
    assert hide in g.legal_actions()
    g.apply(hide)
    assert g.obj(ids[card]).zone == "facedown"
    assert g.obj(ids[rune]).zone == "rune_deck"  # recycled for the power


def test_135_2_e_5_a_pool_power_of_any_domain_pays_any_domain() -> None:
    b = Builder(cat())
    bf = b.battlefield(PLAIN_BF, controller=0)
    b.add(0, SKULKER, at=bf)
    card = b.hand(0, [STAND_UNITED])[0]
    rune = b.runes(0, [CHAOS_RUNE])[0]
    b.deck(0, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply(complete(g, {"type": "activate", "source": ids[rune], "ability": -2}))
    assert g.state.players[0].power == {"chaos": 1} and g.state.players[0].runes == []
    g.apply(complete(g, {"type": "hide", "card": ids[card], "battlefield": bf}))
    assert g.obj(ids[card]).zone == "facedown"
    assert g.state.players[0].power == {}


def test_135_2_e_5_a_deflect_tax_is_any_domain_power() -> None:
    # Cleave on an enemy Deflect unit costs 1 energy and one more power of any domain:
    # a Chaos rune pays it (exhausted for the energy, then recycled for the power, 417.1).
    g, ids, n = position(r=(0, [CHAOS_RUNE], "runes"), spell=(0, [CLEAVE], "hand"),
                         poro=(1, [POUTY_PORO], "base"))
    play = {"type": "play", "card": n["spell"][0], "targets": [[n["poro"][0]]], "costs": []}
    assert play in g.legal_actions()
    g.apply(play)
    p = g.state.players[0]
    assert p.runes == [] and p.rune_deck == n["r"]
    assert p.energy == 0 and p.power == {}
    assert g.state.chain and g.state.chain[0].obj == n["spell"][0]


def test_135_2_e_5_a_deflect_tax_needs_the_extra_power() -> None:
    g, ids, n = position(spell=(0, [CLEAVE], "hand"), poro=(1, [POUTY_PORO], "base"),
                         plain=(1, [SKULKER], "base"))
    g.state.players[0].energy = 1  # one energy in the pool and no runes
    targets = [a["targets"] for a in g.legal_actions() if a["type"] == "play"]
    assert [[n["plain"][0]]] in targets and [[n["poro"][0]]] not in targets
    assert_illegal(g, {"type": "play", "card": n["spell"][0], "targets": [[n["poro"][0]]]}, "135")


# ---------------------------------------------------------------------- non-resource costs
MEDITATION = "OGN-048"  # Reaction; optional cost: exhaust a friendly unit -> draw 2 instead of 1


def test_play_process_step_4_an_exhaust_a_unit_cost_is_paid() -> None:
    """Core Rules, process of playing a card, step 4: costs are paid (here: exhaust a unit)."""
    g, ids, n = position(r=(0, [CALM_RUNE] * 2, "runes"), unit=(0, [SKULKER], "base"),
                         spell=(0, [MEDITATION], "hand"))
    play = {"type": "play", "card": n["spell"][0], "targets": [], "costs": ["exhaust_unit"]}
    assert play in g.legal_actions()
    g.apply(play)
    assert g.obj(n["unit"][0]).exhausted
    while g.state.chain:
        g.apply({"type": "pass"})
    assert len(g.state.players[0].hand) == 2


def test_play_process_step_4_an_exhausted_unit_cannot_pay_an_exhaust_cost() -> None:
    b = Builder(cat())
    b.add(0, SKULKER, at="base", exhausted=True)
    spell = b.hand(0, [MEDITATION])[0]
    b.runes(0, [CALM_RUNE] * 2)
    b.deck(0, [ENFORCER] * 3)
    b.at_turn(0, "main")
    g, ids = b.build()
    plays = [a for a in g.legal_actions() if a["type"] == "play"]
    assert plays == [{"type": "play", "card": ids[spell], "targets": [], "costs": []}]
    assert_illegal(g, {"type": "play", "card": ids[spell], "targets": [], "costs": ["exhaust_unit"]}, "cost")
