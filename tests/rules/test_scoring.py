"""Scoring and victory: Core Rules 194.2, 194.3, 432.3.a, 471-473.  Every test names its rule.

Battlefields are scored by conquering (a unit moves into an empty battlefield; the showdown ends
with only its controller's units there) or by holding (controlling it in the Beginning Phase).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import load_catalog
from riftscript.core.engine.game import Game
from rules_helpers import events, catalog as cat

ENFORCER = "OGN-003"
SKULKER = "OGN-175"     # vanilla unit
PLAIN_BF = "OGN-294"    # Trifarian War Camp: no scoring abilities
GROVE = "OGN-280"       # Grove of the God-Willow: its hold trigger draws
ZAUN = "OGN-298"        # Zaun Warrens: its conquer trigger discards and draws
JINX = "Jinx Champion Deck"
VIKTOR = "Viktor Champion Deck"


def settle(g: Game) -> None:
    """Pass priority and focus until the game is back in a Neutral Open state (or over)."""
    for _ in range(100):
        d = g.pending_decision()
        if d is None:
            return
        if d.kind == "priority" and not g.state.chain and g.state.showdown is None and g.state.step == "main":
            return
        if d.kind == "priority":
            g.apply({"type": "pass"})
        else:
            g.apply(g.legal_actions()[0])
    raise AssertionError("the game did not settle")


def conquer(g: Game, unit: int, loc: int) -> None:
    g.apply({"type": "move", "units": [unit], "to": loc})
    settle(g)


def to_next_main(g: Game) -> None:
    """End the current turn and play until the next Main Phase."""
    g.apply({"type": "end_turn"})
    settle(g)


class Position:
    """Player 0's Main Phase with one or two battlefields and ready units at player 0's base."""

    def __init__(self, points: tuple[int, int] = (0, 0), battlefields: tuple[str, ...] = (PLAIN_BF,),
                 units: int = 1, controlled: dict[int, int] | None = None, turn_player: int = 0,
                 scored: tuple[int, ...] = ()) -> None:
        b = Builder(cat())
        self.bfs = [b.battlefield(code, owner=i % 2) for i, code in enumerate(battlefields)]
        guards = []
        for index, player in (controlled or {}).items():
            b.battlefield_codes[index] = (battlefields[index], player, index % 2)
            guards.append(b.add(player, SKULKER, at=self.bfs[index]))
        placed = [b.add(0, SKULKER, at="base") for _ in range(units)]
        b.deck(0, [ENFORCER] * 5)
        b.deck(1, [ENFORCER] * 5)
        b.set_points(0, points[0]).set_points(1, points[1])
        for loc in scored:
            b.scored_this_turn(0, loc)
        b.at_turn(turn_player, "main")
        self.g, ids = b.build()
        self.units = [ids[i] for i in placed]
        self.guards = [ids[i] for i in guards]

    def points(self) -> list[int]:
        return [p.points for p in self.g.state.players]


# ---------------------------------------------------------------------- 194: victory
def test_194_3_victory_score_is_8_in_duel() -> None:
    g = Game.new(cat(), [JINX, VIKTOR], seed=1)
    assert g.state.victory_score == 8
    pos = Position(points=(6, 0))
    conquer(pos.g, pos.units[0], pos.bfs[0])
    assert pos.points() == [7, 0]
    assert not pos.g.over


def test_194_2_reaching_the_victory_score_with_the_lead_wins() -> None:
    pos = Position(points=(7, 7))
    conquer(pos.g, pos.units[0], pos.bfs[0])
    g = pos.g
    assert pos.points() == [8, 7]
    assert g.over and g.state.winners == [0] and g.state.result == "victory"
    assert events(g, "game_over")[0]["winners"] == [0]
    assert g.pending_decision() is None and g.legal_actions() == []


def test_194_2_a_tie_at_the_victory_score_is_no_win() -> None:
    # Both at 8 (say, after a card gave points to both): cleanups come and go, nobody wins.
    pos = Position(points=(8, 8), battlefields=(PLAIN_BF, PLAIN_BF))
    g = pos.g
    conquer(g, pos.units[0], pos.bfs[0])  # several cleanups; the final point is denied (473.1.b.1)
    assert pos.points() == [8, 8]
    assert not g.over and events(g, "game_over") == []
    # the game goes on: player 0 still has their Main Phase
    assert g.pending_decision().player == 0 and {"type": "end_turn"} in g.legal_actions()


def test_194_2_more_points_wins_once_the_tie_is_broken() -> None:
    pos = Position(points=(8, 8))
    g = pos.g
    g.apply({"type": "move", "units": [pos.units[0]], "to": pos.bfs[0]})
    assert not g.over  # a cleanup ran after the move: still tied
    settle(g)
    assert pos.points() == [9, 8]
    assert g.over and g.state.winners == [0]


# ---------------------------------------------------------------------- 471: conquer and hold
def test_471_1_conquer_scores_a_point() -> None:
    pos = Position()
    g = pos.g
    conquer(g, pos.units[0], pos.bfs[0])
    assert g.state.battlefields[0].controller == 0
    assert [(e["player"], e["loc"]) for e in events(g, "conquer")] == [(0, pos.bfs[0])]
    assert pos.points() == [1, 0]
    assert [e["via"] for e in events(g, "score")] == ["conquer"]


def test_471_2_hold_scores_a_point_in_the_beginning_phase() -> None:
    pos = Position(turn_player=1, controlled={0: 0})
    g = pos.g
    to_next_main(g)
    assert g.state.turn_player == 0
    assert [(e["player"], e["loc"]) for e in events(g, "hold")] == [(0, pos.bfs[0])]
    assert [e["via"] for e in events(g, "score")] == ["hold"]
    assert pos.points() == [1, 0]


# ---------------------------------------------------------------------- 472: once per battlefield
def test_472_a_held_battlefield_lost_and_retaken_is_not_scored_again() -> None:
    pos = Position(turn_player=1, controlled={0: 0})
    g = pos.g
    to_next_main(g)  # player 0 holds: 1 point
    assert pos.points() == [1, 0]
    guard = pos.guards[0]
    g.apply({"type": "move", "units": [guard], "to": 0})  # leave: the battlefield becomes uncontrolled
    settle(g)
    assert g.state.battlefields[0].controller == -1
    conquer(g, pos.units[0], pos.bfs[0])  # retake it the same turn
    assert g.state.battlefields[0].controller == 0
    assert events(g, "conquer") == []
    assert pos.points() == [1, 0]


def test_472_a_battlefield_already_scored_this_turn_gives_no_conquer() -> None:
    pos = Position(scored=(10,))
    g = pos.g
    conquer(g, pos.units[0], pos.bfs[0])
    assert g.state.battlefields[0].controller == 0
    assert events(g, "conquer") == [] and pos.points() == [0, 0]


def test_472_each_battlefield_can_be_scored_once_in_the_same_turn() -> None:
    pos = Position(battlefields=(PLAIN_BF, PLAIN_BF), units=2)
    g = pos.g
    conquer(g, pos.units[0], pos.bfs[0])
    conquer(g, pos.units[1], pos.bfs[1])
    assert pos.points() == [2, 0]
    assert len(events(g, "conquer")) == 2


def test_472_scoring_is_per_turn() -> None:
    # Conquered on one turn, held on the next: two scores of the same battlefield.
    pos = Position()
    g = pos.g
    conquer(g, pos.units[0], pos.bfs[0])
    to_next_main(g)  # player 1's turn
    to_next_main(g)  # player 0's turn: hold
    assert [e["via"] for e in events(g, "score")] == ["conquer", "hold"]
    assert pos.points() == [2, 0]


# ---------------------------------------------------------------------- 473: the final point
def test_473_1_b_1_final_point_by_conquer_needs_every_battlefield_else_draw() -> None:
    pos = Position(points=(7, 0), battlefields=(PLAIN_BF, PLAIN_BF), units=2)
    g = pos.g
    hand = len(g.state.players[0].hand)
    conquer(g, pos.units[0], pos.bfs[0])
    assert g.state.battlefields[0].controller == 0
    assert pos.points() == [7, 0] and not g.over
    assert len(g.state.players[0].hand) == hand + 1  # a card instead of the point
    assert [e["loc"] for e in events(g, "final_point_denied")] == [pos.bfs[0]]
    # with the other battlefield scored too, the conquer gives the final point
    conquer(g, pos.units[1], pos.bfs[1])
    assert pos.points() == [8, 0]
    assert g.over and g.state.winners == [0]


def test_473_1_b_applies_at_or_above_one_point_from_victory() -> None:
    pos = Position(points=(8, 8), battlefields=(PLAIN_BF, PLAIN_BF))
    g = pos.g
    conquer(g, pos.units[0], pos.bfs[0])
    assert pos.points() == [8, 8] and len(events(g, "final_point_denied")) == 1
    assert not g.over


def test_473_1_b_1_single_battlefield_conquer_gives_the_final_point() -> None:
    pos = Position(points=(7, 0))
    conquer(pos.g, pos.units[0], pos.bfs[0])
    assert pos.g.over and pos.g.state.winners == [0]
    assert events(pos.g, "final_point_denied") == []


def test_473_1_a_1_hold_gives_the_final_point_without_every_battlefield() -> None:
    pos = Position(points=(7, 0), battlefields=(PLAIN_BF, PLAIN_BF), controlled={0: 0}, turn_player=1)
    g = pos.g
    g.apply({"type": "end_turn"})
    assert pos.points() == [8, 0]
    assert g.over and g.state.winners == [0]
    assert events(g, "final_point_denied") == []


def test_473_1_a_1_burn_out_point_is_not_restricted() -> None:
    # Player 1 burns out while player 0 is at 7 and has scored nothing this turn.
    b = Builder(cat())
    b.battlefield(PLAIN_BF)
    b.battlefield(PLAIN_BF, owner=1)
    b.set_points(0, 7)
    b.trash(1, [ENFORCER] * 2)
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply({"type": "end_turn"})
    assert g.over and g.state.winners == [0]
    assert [e["via"] for e in events(g, "points")] == ["burn_out"]


# ---------------------------------------------------------------------- 473.2: abilities still trigger
def test_473_2_conquer_ability_triggers_when_the_point_is_replaced() -> None:
    pos = Position(points=(7, 0), battlefields=(ZAUN, PLAIN_BF))
    g = pos.g
    assert g.state.players[0].hand == []
    conquer(g, pos.units[0], pos.bfs[0])
    assert pos.points() == [7, 0] and len(events(g, "final_point_denied")) == 1
    # Zaun Warrens' conquer ability still triggered and resolved: discard 1, then draw 1
    triggered = [e for e in events(g, "trigger") if e["code"] == ZAUN]
    assert len(triggered) == 1
    assert len(events(g, "discard")) == 1
    assert len(g.state.players[0].trash) == 1 and len(g.state.players[0].hand) == 1


def test_473_2_hold_ability_triggers_grove_of_the_god_willow() -> None:
    pos = Position(points=(3, 0), battlefields=(GROVE, PLAIN_BF), controlled={0: 0}, turn_player=1)
    g = pos.g
    to_next_main(g)
    assert pos.points() == [4, 0]
    assert [e["code"] for e in events(g, "trigger")] == [GROVE]
    # the Grove's draw plus the Draw Phase's
    assert len(g.state.players[0].hand) == 2
