"""The greedy agent's choices on small built positions: what it attacks, where it aims, what it leaves alone."""
from __future__ import annotations

from typing import Any

from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import load_catalog
from riftscript.core.engine.game import Game
from riftscript.plugins.agents import GreedyAgent

CATALOG = load_catalog()
SKULKER = "OGN-175"        # unit, 3 Might
SERGEANT = "OGN-219"       # unit, 4 Might
REARGUARD = "OGN-010"      # unit, 2 Might
STALWART_PORO = "OGN-052"  # unit, 2 Might, Shield (3 as a defender)
INCINERATE = "OGS-003"     # spell: 2 damage to a unit at a battlefield
GROVE, PLAZA = "OGN-280", "OGN-293"  # battlefields with only a hold trigger
FURY = "OGN-007"


def _position() -> tuple[Builder, int, int]:
    b = Builder(CATALOG)
    for p in range(2):
        b.deck(p, [SKULKER] * 6)
    b.at_turn(0, "main")
    return b, b.battlefield(GROVE), b.battlefield(PLAZA)


def _choice(g: Game) -> dict[str, Any]:
    """The agent's choice, the same whatever its seed (its seeded chance only breaks ties)."""
    choices = [GreedyAgent(seed).choose(g, g.legal_actions()) for seed in range(8)]
    assert all(c == choices[0] for c in choices), choices
    return choices[0]


def test_it_attacks_the_battlefield_it_can_win_and_not_the_one_it_would_lose() -> None:
    b, grove, plaza = _position()
    mine = b.add(0, SKULKER)
    b.add(1, SERGEANT, at=grove)    # 4 Might: Skulker's 3 loses there
    b.add(1, REARGUARD, at=plaza)   # 2 Might: Skulker's 3 wins
    g, ids = b.build()
    assert {"type": "move", "units": [ids[mine]], "to": grove} in g.legal_actions()
    assert _choice(g) == {"type": "move", "units": [ids[mine]], "to": plaza}


def test_it_counts_a_defenders_shield_and_ends_its_turn_rather_than_lose() -> None:
    b, grove, plaza = _position()
    b.add(0, SKULKER)
    b.add(1, STALWART_PORO, at=grove)  # 2 Might + Shield 1 as a defender: Skulker's 3 doesn't win
    b.add(1, SERGEANT, at=plaza)
    g, _ = b.build()
    assert _choice(g) == {"type": "end_turn"}


def test_it_conquers_an_empty_battlefield() -> None:
    b, grove, plaza = _position()
    mine = b.add(0, REARGUARD)
    b.add(1, SERGEANT, at=plaza)  # too strong to attack: the empty Grove it is
    g, ids = b.build()
    assert _choice(g) == {"type": "move", "units": [ids[mine]], "to": grove}


def test_it_never_leaves_a_battlefield_it_holds_for_its_base() -> None:
    b, grove, _ = _position()
    b.battlefield_codes[0] = (GROVE, 0, 0)  # it controls the Grove
    b.add(0, SKULKER, at=grove)
    g, ids = b.build()
    assert any(a["type"] == "move" and a["to"] == 0 for a in g.legal_actions())
    assert _choice(g) == {"type": "end_turn"}


def test_it_reinforces_a_battlefield_it_holds_that_the_other_side_could_take() -> None:
    b, grove, plaza = _position()
    b.battlefield_codes[0] = (GROVE, 0, 0)
    b.battlefield_codes[1] = (PLAZA, 1, 1)
    b.add(0, REARGUARD, at=grove)   # holds the Grove with 2 Might
    b.add(1, SERGEANT)              # 4 Might at its base could take it next turn
    b.add(1, SERGEANT, at=plaza)    # too strong to attack
    mine = b.add(0, SKULKER)
    g, ids = b.build()
    assert _choice(g) == {"type": "move", "units": [ids[mine]], "to": grove}


def test_it_does_not_reinforce_a_battlefield_already_safe() -> None:
    b, grove, plaza = _position()
    b.battlefield_codes[0] = (GROVE, 0, 0)
    b.battlefield_codes[1] = (PLAZA, 1, 1)
    b.add(0, SERGEANT, at=grove)    # 4 Might: the Rearguard at the other base can't take it
    b.add(1, REARGUARD)
    b.add(1, SERGEANT, at=plaza)
    b.add(0, SKULKER)
    g, _ = b.build()
    assert _choice(g) == {"type": "end_turn"}


def test_a_damage_spell_goes_to_the_enemy_unit_it_kills() -> None:
    b, grove, plaza = _position()
    b.battlefield_codes[0] = (GROVE, 0, 0)
    b.add(0, REARGUARD, at=grove, exhausted=True)
    b.add(1, SERGEANT, at=plaza)              # 4 Might: 2 damage doesn't kill it
    weak = b.add(1, REARGUARD, at=plaza)      # 2 Might: 2 damage kills it
    spell = b.hand(0, [INCINERATE])[0]
    b.runes(0, [FURY, FURY])
    g, ids = b.build()
    targets = [a["targets"] for a in g.legal_actions() if a["type"] == "play" and a["card"] == ids[spell]]
    assert len(targets) == 3  # its own Rearguard could be chosen too
    choice = _choice(g)
    assert choice["type"] == "play" and choice["card"] == ids[spell] and choice["targets"] == [[ids[weak]]]


def test_a_damage_spell_with_only_its_own_units_to_hit_stays_in_hand() -> None:
    b, grove, _ = _position()
    b.battlefield_codes[0] = (GROVE, 0, 0)
    b.add(0, REARGUARD, at=grove, exhausted=True)
    b.hand(0, [INCINERATE])
    b.runes(0, [FURY, FURY])
    g, _ = b.build()
    assert any(a["type"] == "play" for a in g.legal_actions())
    assert _choice(g) == {"type": "end_turn"}


def test_combat_damage_goes_where_it_kills_the_most_might() -> None:
    b, grove, _ = _position()
    attacker = b.add(0, SKULKER)              # 3 damage to assign
    b.add(1, REARGUARD, at=grove)             # 2 Might
    strong = b.add(1, SKULKER, at=grove)      # 3 Might: killing it kills more
    g, ids = b.build()
    g.apply({"type": "move", "units": [ids[attacker]], "to": grove})
    for _ in range(10):
        decision = g.pending_decision()
        assert decision is not None
        if decision.kind == "assign" and decision.player == 0:
            break
        g.apply({"type": "pass"} if decision.kind == "priority" else g.legal_actions()[0])
    assert len(g.legal_actions()) > 1
    choice = _choice(g)
    assert choice["damage"][str(ids[strong])] == 3


def test_the_might_a_unit_brings_to_a_fight_is_its_combat_might_and_keyword() -> None:
    """combat.fighting_might (the agent's one reading of a unit) agrees with layers.combat_might plus the keyword's
    value, for every unit of real games: stunned ones, Shield and Assault, units a static or a lasting effect touches."""
    from riftscript.core.engine import combat, layers
    from riftscript.plugins.agents import RandomAgent

    b = Builder(CATALOG)
    poro, skulker = b.add(1, STALWART_PORO), b.add(0, SKULKER)
    g, ids = b.build()
    assert combat.fighting_might(g, ids[poro], "shield") == layers.might(g, ids[poro]) + 1
    g.state.objs[ids[skulker]].stunned = True
    g.touch()
    assert combat.fighting_might(g, ids[skulker], "assault") == 0 == layers.combat_might(g, ids[skulker])
    checked = 0
    for seed in range(4):
        g = Game.new(CATALOG, ["Jinx Champion Deck", "Viktor Champion Deck"], seed=seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        while not g.over and checked < 4000:
            for oid in g.board_objects():
                if g.card(oid).type != "unit":
                    continue
                for keyword in ("shield", "assault"):
                    value = layers.chars(g, oid).keywords.get(keyword)
                    assert combat.fighting_might(g, oid, keyword) == layers.combat_might(g, oid) + (
                        value if isinstance(value, int) else 0)
                    checked += 1
            d = g.pending_decision()
            assert d is not None
            g.apply(agents[d.player].choose(g, g.legal_actions()))
    assert checked >= 1000
