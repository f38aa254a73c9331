"""The chain itself and the windows around it (308-348): priority and focus, passing, 2v2 invitations,
and resolving the chain's items (the newest first, 340.1).

Units, gear and resource-adding abilities resolve as soon as they are finalized (337.2); everything
else waits for every player to pass priority in a row (339.1), then the newest item resolves
(340.1).  Putting a card or an ability on the chain is ``playing`` and ``activation``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import layers, payment, targeting, verbs
from ..script.cards import Ability
from .effects import EffectContext
from .state import NOWHERE, ChainItem, Decision

if TYPE_CHECKING:
    from .game import Game


# ---------------------------------------------------------------------- priority
def offer_priority(g: "Game") -> bool:
    """Give priority or focus to whoever may act now; False when the game should move on."""
    s = g.state
    players = s.players
    active = 0  # players still in the game
    for p in s.turn_order:
        if not players[p].conceded:
            active += 1
    if s.chain:
        if s.passes >= active:
            s.passes = 0
            s.tasks.append(["resolve"])
            return True
        s.decision = Decision("priority", s.priority, f"{state_name(g)}: play a Reaction or pass")
        _invited_instead(g)
        return True
    if s.showdown is not None:
        sd = s.showdown
        if sd.passes >= active:
            s.tasks.append(["showdown_end"])
            return True
        s.priority = sd.focus
        s.decision = Decision("priority", sd.focus, f"Showdown at {targeting.describe_loc(g, sd.bf)}: you have focus")
        _invited_instead(g)
        return True
    if s.step == "main" and not s.players[s.turn_player].conceded:
        s.priority = s.turn_player
        s.decision = Decision("priority", s.turn_player, "Main Phase: your move")
        _invited_instead(g)
        return True
    return False


# ---------------------------------------------------------------------- invitations (491.8.a)
# On your turn, while you hold priority, you may invite your teammate to play spells and activate
# abilities using your priority: the priority decision goes to the teammate, who acts with your timing
# (a spell without Action in your Neutral Open Main Phase) paying with their own resources, or passes it
# back.  Passing back is not a pass (no chain item resolves, focus doesn't move) and closes the
# invitation for that priority window: the turn player may invite again only after something else
# happened, so agents never loop on invitations.  Once the teammate puts something on the chain the
# invitation is spent and priority follows the chain as usual (the teammate, then the table in turn
# order).  Rune and other Add abilities keep the invitation open (they pay for a later play).
def can_invite(g: "Game", player: int) -> int:
    """The teammate the player may invite now (NOWHERE if none)."""
    s = g.state
    d = s.decision
    if not g.spec.teams or player != s.turn_player or s.invited != NOWHERE or s.log_count == s.invite_closed_at:
        return NOWHERE
    if d is None or d.kind != "priority" or d.player != player:
        return NOWHERE
    return teammate(g, player)


def teammate(g: "Game", player: int) -> int:
    """The player's teammate still in the game (NOWHERE without one)."""
    s = g.state
    team = s.players[player].team
    mates = [p.index for p in s.players if p.team == team and p.index != player and not p.conceded]
    return mates[0] if len(mates) == 1 else NOWHERE


def invite(g: "Game", player: int, mate: int) -> None:
    """491.8.a: hand the priority decision to the teammate (validated by can_invite)."""
    g.state.invited = mate
    g.emit("invite", player=player, teammate=mate)


def hand_back(g: "Game", player: int) -> None:
    """The invited teammate passes: priority returns to the turn player, and it isn't a pass."""
    s = g.state
    s.invited = NOWHERE
    g.emit("invite_back", player=player, inviter=s.turn_player)
    s.invite_closed_at = s.log_count


def _invited_instead(g: "Game") -> None:
    """While an invitation stands and the turn player would decide, the invited teammate decides."""
    s = g.state
    if s.invited == NOWHERE:
        return
    d = s.decision
    if d is None or d.player != s.turn_player or s.players[s.invited].conceded:
        s.invited = NOWHERE  # priority moved on (something went on the chain): the invitation is spent
        return
    inviter = s.players[s.turn_player].name
    s.decision = Decision("priority", s.invited, f"{d.prompt} - {inviter} invites you to play spells and "
                          "activate abilities with their priority; pass to hand it back",
                          context={"invited_by": s.turn_player})


def pass_priority(g: "Game", player: int) -> None:
    s = g.state
    if s.chain:
        s.passes += 1
        s.priority = g.next_player(player)
        g.emit_event({"n": 0, "t": "pass", "player": player})
    elif s.showdown is not None:
        # 347.2: passing with focus moves focus to the next player
        s.showdown.passes += 1
        s.showdown.focus = g.next_player(player)
        g.emit_event({"n": 0, "t": "pass_focus", "player": player})


def resolve_top(g: "Game") -> None:
    item = g.state.chain[-1]
    resolve_item(g, item)
    s = g.state
    if not s.chain:
        sd = s.showdown
        if sd is not None:
            if sd.acted and not sd.initial:
                sd.focus = g.next_player(sd.focus)  # 347.1.b: focus passes once the chain finishes
            sd.passes = 0
            sd.acted = False
            sd.initial = False
    else:
        s.priority = s.chain[-1].controller
        s.passes = 0


def resolve_item(g: "Game", item: ChainItem) -> None:
    """340.1: the item resolves completely, then leaves the chain."""
    s = g.state
    if item.kind == "card":
        card = g.card(item.obj)
        if card.type in ("unit", "gear"):
            _leave_chain(s.chain, item)
            ready = _paid_enter_ready(g, item.obj, item.paid)
            verbs.enter_board(g, item.obj, item.controller, item.location, ready=ready)
            g.emit_event({"n": 0, "t": "played", "player": item.controller, "obj": item.obj, "code": card.code,
                          "type": card.type, "loc": item.location, "from_hidden": item.from_hidden, "cost": card.energy,
                          "nth": _played_count(g, item.controller), "paid": list(item.paid)})
        else:
            width = len(targeting.target_slots(card))
            for run in range(payment.runs(g, item.obj, item.paid)):
                # 820: a repeated spell's instructions are carried out once more, with their own targets
                ctx = EffectContext(g, item.controller, item.obj, item)
                ctx.targets = item.targets[run * width:(run + 1) * width]
                if run and item.mode:
                    ctx.variables["_run"] = run  # and its own modes (plugins/effects.py choose_one)
                for ability in card.abilities + tuple(layers.given_keyword_abilities(g, item.obj, "spell")):
                    if ability.kind == "spell":
                        if "condition" in ability.body and not ctx.check(ability.body["condition"]):
                            continue
                        ctx.run(ability.body["effect"])
            _leave_chain(s.chain, item)
            if any(other.obj == item.obj for other in s.chain):
                pass  # played again while it resolved ("its controller may play this spell again"): still on the chain
            elif g.obj(item.obj).zone == "chain" and item.variables.get("_afterwards_recycle"):
                verbs.recycle(g, [item.obj])  # played by an effect that recycles it afterwards (Fizz)
            elif g.obj(item.obj).zone == "chain":
                g.place(item.obj, "trash")
            g.emit_event({"n": 0, "t": "played", "player": item.controller, "obj": item.obj, "code": card.code,
                          "type": card.type, "from_hidden": item.from_hidden, "cost": card.energy,
                          "nth": _played_count(g, item.controller)})
    else:
        _leave_chain(s.chain, item)
        ability = g.item_ability(item) if item.ability >= 0 else payment.rune_ability(item.ability)
        ctx = EffectContext(g, item.controller, item.obj, item, item.event)
        origin = item.origin if item.lasting != NOWHERE else None
        if origin is not None and origin.kind == "effect_text":
            ctx.text_of = origin.source  # the attached card whose effect text this is
        condition = ability.body.get("if")
        if item.kind == "trigger" and condition is not None and not ctx.check(condition):
            g.emit("fizzle", obj=item.obj, item=item.id, reason="its condition no longer holds")
        elif ability.body.get("optional") and not _accept_optional(ctx, ability):
            g.emit("decline", obj=item.obj, item=item.id, player=item.controller)
        else:
            effect = ability.body.get("effect") or {}
            if effect:
                ctx.run(effect)
    g.emit_event({"n": 0, "t": "resolve", "item": item.id, "obj": item.obj})
    s.needs_cleanup = True


def _leave_chain(items: list[ChainItem], item: ChainItem) -> None:
    """Take the item off the chain if it is there.  It is most often the top one, found by identity at
    once; otherwise by equality, as ``list.remove`` would (a chain item compares all its fields, and a
    chain of a hundred items made that a scan of a hundred comparisons per resolution)."""
    if items and items[-1] is item:
        items.pop()  # ids are unique: no earlier item equals the top one
    elif item in items:
        items.remove(item)


def _accept_optional(ctx: EffectContext, ability: Ability) -> bool:
    answer = ctx.ask(ctx.controller, f"use {ctx.g.name(ctx.source)}'s optional ability?",
                     [("yes", True), ("no", False)])
    return bool(answer)


def _paid_enter_ready(g: "Game", oid: int, paid: list[str]) -> bool:
    """805: an optional cost such as Accelerate that makes the unit enter ready."""
    return bool(paid) and any(a.body["name"] in paid and a.body.get("effect_on_cost", {}).get("enter_ready")
                              for a in payment.additional_costs(g, oid))


def _played_count(g: "Game", player: int) -> int:
    return sum(1 for h in g.state.history if h.kind == "played" and h.player == player)


# ---------------------------------------------------------------------- timing (308-310)
def state_name(g: "Game") -> str:
    s = g.state
    mode = "Showdown" if s.showdown is not None else "Neutral"
    return f"{mode} {'Closed' if s.chain else 'Open'}"
