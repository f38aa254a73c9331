"""Scoring and victory (194, 470-473).

A battlefield is scored by conquering it (gaining control of it, 471.1) or holding it (still
controlling it in your Beginning Phase, 471.2), once per battlefield per player per turn (472).
The final point through a conquer needs every battlefield scored this turn, else the player draws
a card instead (473.1.b.1); conquer and hold abilities trigger even then (473.2).

In 2v2 (a mode with teams) teammates share one point total (491.8.d), a battlefield is scored at
most once per team per turn (491.8.b), and on a team's own turns a battlefield a teammate of the
turn player controlled in that turn's scoring step can't be scored by the team (491.8.b.1, 471.1.a)
but needn't be scored for the final point either (473.1.b.1 as aligned by the Radiance patch notes:
these two special rules apply only to the team whose turn it is, never during an opponent's turn).
Without teams every player is their own team, so the checks reduce to the per-player rules.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import layers, points, replacement, verbs
from .state import NOWHERE, Battlefield

if TYPE_CHECKING:
    from .game import Game


def team_scored(g: "Game", player: int, bf: Battlefield) -> bool:
    """472, 491.8.b: the battlefield was scored this turn by the player (or, in 2v2, their team)."""
    return any(g.friendly(p, player) for p in bf.scored_by)


def teammate_held_at_scoring(g: "Game", player: int, bf: Battlefield) -> bool:
    """491.8.b.1, 471.1.a: on a turn of the player's own team, a teammate of the turn player controlled
    the battlefield in this turn's scoring step.  The Radiance patch notes limit this to the team whose
    turn it is, so it is never true for the other team.  Always false without teams: the turn player's
    own battlefields were held in that step and are already scored."""
    s = g.state
    if not g.spec.teams or not g.friendly(player, s.turn_player):
        return False
    return any(c != s.turn_player and g.friendly(c, player) for c in bf.controlled_at_scoring)


def can_score(g: "Game", player: int, bf: Battlefield) -> bool:
    """Whether gaining or keeping control of the battlefield scores it for the player now."""
    return not team_scored(g, player, bf) and not teammate_held_at_scoring(g, player, bf)


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
    if bf.controller == NOWHERE:
        g.remember("took_uncontrolled", player, bf.card, loc=loc)  # "a battlefield that was uncontrolled"
    set_controller(g, loc, player)
    g.emit("control", bf=loc, player=player)
    if can_score(g, player, bf):
        conquer(g, player, loc, by)
    elif g.spec.teams and player not in bf.scored_by:
        # 491.8.b / 491.8.b.1: in 2v2 the team can't score it this turn, so this is no conquer
        rule = "491.8.b" if team_scored(g, player, bf) else "491.8.b.1"
        g.emit("score_denied", player=player, loc=loc, rule=rule)
    g.state.needs_cleanup = True


def conquer(g: "Game", player: int, loc: int, by: str = "") -> None:
    bf = g.bf_at(loc)
    bf.scored_by.append(player)
    for unit in g.units_at(loc):
        if g.obj(unit).controller == player:
            g.remember("conquered_with", player, unit, loc=loc)  # "if I didn't conquer this turn"
    event: dict[str, Any] = {"n": 0, "t": "conquer", "player": player, "loc": loc, "bf": bf.card}
    if by:
        event["by"] = by
    g.emit_event(event)
    g.remember("conquer", player, bf.card, loc=loc)
    _score(g, player, loc, "conquer")


def hold_all(g: "Game", player: int) -> None:
    """315.2.b.2: the turn player holds every battlefield they control."""
    for bf in g.state.battlefields:
        if g.spec.teams and bf.controller not in (player, NOWHERE) and g.friendly(bf.controller, player):
            bf.controlled_at_scoring.append(bf.controller)  # 491.8.b.1: the teammate's, unscorable this turn
        if bf.controller == player and can_score(g, player, bf):
            bf.scored_by.append(player)
            bf.controlled_at_scoring.append(player)
            g.emit_event({"n": 0, "t": "hold", "player": player, "loc": bf.loc, "bf": bf.card})
            g.remember("hold", player, bf.card, loc=bf.loc)
            _score(g, player, bf.loc, "hold")


def _score(g: "Game", player: int, loc: int, via: str) -> None:
    p = g.state.players[player]
    for mod in layers.restrictions_on(g, "cant_score_here", player=player, loc=loc):
        if p.turns_taken < int(mod.get("before_turn", 999)):
            g.emit("score_denied", player=player, loc=loc, rule="restriction")  # "until their third turn"
            return
    target = points.victory_score(g)
    if via == "conquer" and p.points >= target - 1:
        # 473.1.b.1; in 2v2 a battlefield counts when the team scored it (491.8.b: the team can't score
        # it twice), and the team whose turn it is needn't have scored those a teammate of the turn
        # player controlled in the scoring step (Radiance patch notes, October 2026)
        every = all(team_scored(g, player, bf) or teammate_held_at_scoring(g, player, bf)
                    for bf in g.state.battlefields)
        if not every:
            # 473.1.b.1: the final point needs every battlefield scored this turn
            g.emit("final_point_denied", player=player, loc=loc)
            verbs.draw(g, player, 1)
            return
    if replacement.replace(g, "score", NOWHERE, {"player": player, "loc": loc, "via": via, "amount": 1}):
        return  # "if a player would score 1 point ..., they draw 1 instead"
    g.emit_event({"n": 0, "t": "score", "player": player, "loc": loc, "via": via})
    points.gain_points(g, player, 1, via)

