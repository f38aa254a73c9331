"""Points and the Victory Score (470, 194): gaining points from any source and the victory check.

Below scoring (conquer, hold) and cleanup, because the verbs need them too: a player who burns out
gives an opponent a point, which may win the game at once (432.2, 432.3.a).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import layers

if TYPE_CHECKING:
    from .game import Game


def victory_score(g: "Game") -> int:
    """194.3 (8 by default; the mode's score), changed by effects such as Aspirant's Climb."""
    bonus = sum(int(mod["amount"]) for mod, _ in layers.static_modifiers(g, "victory_score"))
    return g.state.victory_score + bonus


def gain_points(g: "Game", player: int, amount: int, via: str) -> None:
    """Points from any source (470); points from cards are not scoring (473.1.a.1)."""
    if amount <= 0:
        return
    if layers.restrictions_on(g, "cant_gain_points", player=player):
        g.emit("points_denied", player=player, amount=amount, via=via)  # "opponents can't gain points"
        return
    p = g.state.players[player]
    p.points += amount
    for mate in g.state.players:
        if mate.team == p.team and mate is not p:
            mate.points = p.points  # 491.8.d, 491.8.d.1-2: one total for the team, shown by each teammate
    g.remember("points", player, code=via)  # 491.8.d.3: "if you gained points" reads the team's history
    g.emit_event({"n": 0, "t": "points", "player": player, "amount": amount, "via": via, "total": p.points})
    g.state.needs_cleanup = True


def check_victory(g: "Game") -> None:
    """194.2: at least the Victory Score and more points than every other player."""
    s = g.state
    if s.winners is not None:
        return
    target = victory_score(g)
    for p in s.players:
        if p.points >= target:
            break
    else:
        return  # nobody has the Victory Score (most cleanups)
    teams: dict[int, int] = {}
    for p in s.players:
        if not p.conceded:
            teams[p.team] = max(teams.get(p.team, 0), p.points)
    for team, points in teams.items():
        if points >= target and all(points > other for t, other in teams.items() if t != team):
            s.winners = [p.index for p in s.players if p.team == team]
            s.result = "victory"
            s.decision = None
            g.emit("game_over", winners=s.winners, reason="victory score", points=points)
            return
