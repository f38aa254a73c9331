"""Scoring and victory (194, 470-473).

A battlefield is scored by conquering it (gaining control of it, 471.1) or holding it (still
controlling it in your Beginning Phase, 471.2), once per battlefield per player per turn (472).
The final point through a conquer needs every battlefield scored this turn, else the player draws
a card instead (473.1.b.1); conquer and hold abilities trigger even then (473.2).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import actions

if TYPE_CHECKING:
    from .game import Game


def victory_score(g: "Game") -> int:
    """194.3 (8 by default; the mode's score), changed by effects such as Aspirant's Climb."""
    bonus = sum(int(mod["amount"]) for mod, _ in actions.static_modifiers(g, "victory_score"))
    return g.state.victory_score + bonus


def gain_points(g: "Game", player: int, amount: int, via: str) -> None:
    """Points from any source (470); points from cards are not scoring (473.1.a.1)."""
    if amount <= 0:
        return
    p = g.state.players[player]
    p.points += amount
    g.emit("points", player=player, amount=amount, via=via, total=p.points)
    g.state.needs_cleanup = True


def set_controller(g: "Game", loc: int, player: int) -> None:
    """Change who controls a battlefield; its controller also controls its abilities (170-171),
    so the battlefield card's controller follows (its owner while nobody controls it)."""
    bf = g.bf_at(loc)
    bf.controller = player
    g.obj(bf.card).controller = player if player >= 0 else bf.owner
    g.touch()


def establish_control(g: "Game", player: int, loc: int, by: str = "") -> None:
    """468.5: take control of a battlefield; a conquer if not yet scored this turn (468.5.d).

    ``by="attack"``: the player won a combat there as the attacker ("when I conquer after an attack")."""
    bf = g.bf_at(loc)
    set_controller(g, loc, player)
    g.emit("control", bf=loc, player=player)
    if player not in bf.scored_by:
        conquer(g, player, loc, by)
    g.state.needs_cleanup = True


def conquer(g: "Game", player: int, loc: int, by: str = "") -> None:
    bf = g.bf_at(loc)
    bf.scored_by.append(player)
    g.emit("conquer", player=player, loc=loc, bf=bf.card, **({"by": by} if by else {}))
    g.remember("conquer", player, bf.card, loc=loc)
    _score(g, player, loc, "conquer")


def hold_all(g: "Game", player: int) -> None:
    """315.2.b.2: the turn player holds every battlefield they control."""
    for bf in g.state.battlefields:
        if bf.controller == player and player not in bf.scored_by:
            bf.scored_by.append(player)
            bf.controlled_at_scoring.append(player)
            g.emit("hold", player=player, loc=bf.loc, bf=bf.card)
            g.remember("hold", player, bf.card, loc=bf.loc)
            _score(g, player, bf.loc, "hold")


def _score(g: "Game", player: int, loc: int, via: str) -> None:
    p = g.state.players[player]
    target = victory_score(g)
    if via == "conquer" and p.points >= target - 1:
        every = all(player in bf.scored_by for bf in g.state.battlefields)
        if not every:
            # 473.1.b.1: the final point needs every battlefield scored this turn
            g.emit("final_point_denied", player=player, loc=loc)
            actions.draw(g, player, 1)
            return
    g.emit("score", player=player, loc=loc, via=via)
    gain_points(g, player, 1, via)

