"""Conceding (the ``concede`` action, any player at any time): the player leaves the game, their cards
with them, and a game of more than two players goes on without them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import scoring, verbs
from ..errors import IllegalActionError
from .state import NOWHERE, Decision, is_id

if TYPE_CHECKING:
    from .game import Game
    from .vocabulary import EngineAction


# ---------------------------------------------------------------------- concession
# The rules files don't say what becomes of a conceding player's cards (only that 2v2 partners lose
# together: 491.6.a and the Oct 2025 patch note "one player conceding has their partner lose as well").
# Decision (how-to-play.md: you win "if you're the last player left in the game"): a player who concedes
# leaves the game.  Everything they own leaves it with them (zone "removed"; tokens cease to exist),
# whatever they control but don't own goes back to its owner, their chain items, pending triggers and
# lasting effects end, and the battlefields they brought stay in play as locations, controlled by
# nobody.  The game goes on around them: focus and priority skip them, a showdown or combat they were
# in carries on as if their units had left it, and on their own turn the turn ends once what is under
# way has finished (core/engine/turn.py).  The last player or team standing wins.
_SETUP_DECISIONS = ("mulligan", "battlefield", "turn_order")


def conceder(g: "Game", action: EngineAction) -> int:
    """Who concedes: any player still in the game, at any time, even while another player decides."""
    s = g.state
    d = s.decision
    who = action.get("player", d.player if d is not None else NOWHERE)
    if not is_id(who) or not 0 <= who < len(s.players):
        raise IllegalActionError(f"{who!r} is not a player of this game")
    if s.players[who].conceded:
        raise IllegalActionError(f"{s.players[who].name} has already left the game")
    return int(who)


def concede(g: "Game", player: int, pending: Decision | None = None) -> None:
    """A conceding player leaves the game (with their team, 491.6.a); if one team remains it wins."""
    s = g.state
    team = s.players[player].team
    # 491.6.a: teammates win or lose together, so a concession takes the whole team out
    leaving = [p.index for p in s.players if p.team == team and not p.conceded] if g.spec.teams else [player]
    for who in leaving:
        _adjust_passes(g, who)
        s.players[who].conceded = True
    g.emit("concede", player=player, team=leaving)
    teams = {p.team for p in s.players if not p.conceded}
    if len(teams) <= 1:
        s.winners = [p.index for p in s.players if p.team in teams]
        s.result = "concession"
        s.decision = None
        g.emit("game_over", winners=s.winners, reason="concession")
        return
    for who in leaving:
        _leave_game(g, who)
    s.decision = None
    if pending is not None:
        if pending.kind in _SETUP_DECISIONS and pending.player not in leaving:
            s.decision = pending  # another player's setup choice still waits for its answer
        elif pending.context.get("replay"):
            s.answers = []  # the paused step runs again from its start in the changed game
        if pending.kind == "assign" and s.showdown is not None:
            s.showdown.assignments = {}
    s.needs_cleanup = True
    g.touch()


def _adjust_passes(g: "Game", player: int) -> None:
    """Passes in a row that counted the leaving player's own pass count one fewer; a leaving
    holder of priority or focus hands it to the next player (347.1.b, 347.2.b)."""
    s = g.state
    if player not in s.turn_order:
        return  # conceding in setup before the turn order is known (488.5 choices): nobody has passed
    active = g.in_turn_order(player)
    sd = s.showdown
    if s.chain:
        s.passes = _passes_without(g, s.passes, s.priority, player, active)
        if s.priority == player:
            s.priority = g.next_player(player)
    if sd is not None:
        sd.passes = _passes_without(g, sd.passes, sd.focus, player, active)
        if sd.focus == player:
            sd.focus = g.next_player(player)


def _passes_without(g: "Game", passes: int, holder: int, player: int, active: list[int]) -> int:
    """The passes in a row are the ``passes`` players just before the holder in turn order."""
    if holder not in active or passes <= 0 or holder == player:
        return passes
    i = active.index(holder)
    passed = {active[(i - k) % len(active)] for k in range(1, passes + 1)}
    return passes - 1 if player in passed else passes


def _leave_game(g: "Game", player: int) -> None:
    """Everything the player owns leaves the game; what they control but don't own returns to its owner."""
    s = g.state
    p = s.players[player]
    top = s.chain[-1] if s.chain else None
    gone_items = [i for i in s.chain if i.controller == player or (i.kind == "card" and g.obj(i.obj).owner == player)]
    s.chain = [i for i in s.chain if i not in gone_items]
    if top is not None and top in gone_items:
        s.tasks = [t for t in s.tasks if t[0] != "resolve"]  # the item being resolved is gone
        s.answers = []
        if s.chain:
            # a new item is on top: as after a resolution, its controller gets priority and the
            # passes start again (passes given while the old top was there were about that one)
            s.priority = s.chain[-1].controller
            s.passes = 0
    if gone_items and not s.chain:
        s.passes = 0
    for item in gone_items:
        if item.kind == "card" and g.obj(item.obj).owner != player:
            g.place(item.obj, "trash")  # a card of another owner goes to its owner's trash
    s.pending_triggers = [t for t in s.pending_triggers if t.controller != player]
    s.lasting = [lasting for lasting in s.lasting if lasting.controller != player]
    s.extra_turns = [who for who in s.extra_turns if who != player]
    s.tasks = [t for t in s.tasks if not (t[0] == "mulligan" and t[1] == player)]
    p.energy = p.spell_energy = p.gear_energy = p.showdown_energy = p.unit_energy = 0
    p.power = {}
    p.spell_power = {}
    p.gear_power = {}
    for bf in s.battlefields:
        if bf.controller == player:
            g.emit("lose_control", bf=bf.loc, player=player)
            scoring.set_controller(g, bf.loc, NOWHERE)
    leaving: list[int] = []
    for oid, obj in s.objs.items():
        if obj.owner == player and obj.zone not in ("gone", "removed", "set_aside", "bfcard"):
            leaving.append(oid)
    for oid in leaving:
        g.place(oid, "removed")
    p.legend = NOWHERE
    for oid in list(g.board_objects()):
        obj = g.obj(oid)
        if obj.attached_to != NOWHERE and g.obj(obj.attached_to).zone != "board":
            obj.attached_to = NOWHERE  # its unit left the game: the card is detached (Core Rules, attachment)
        if obj.controller == player:
            obj.controller = obj.owner
            verbs.recall(g, [oid])
    for bf in s.battlefields:
        for oid in list(bf.facedown):
            if g.obj(oid).controller == player:
                g.place(oid, "trash")
    for oid in list(p.runes):
        g.place(oid, "rune_deck")  # a rune of another owner goes to the bottom of its owner's rune deck
        g.obj(oid).controller = g.obj(oid).owner
    g.emit("left_game", player=player, objects=sorted(leaving))
